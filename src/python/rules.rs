//! What the library knows of rule names: the names an edition knows, what the census says of
//! one, and the module setting that makes an unknown name an error.

use super::convert::edition;
use super::errors::{set_strict_default, strict_default};
use super::profile::PyUnit;
use crate::attack::plan::unmodelled_rules;
use crate::rules::census::{self, Engine};
use crate::rules::effects;
use pyo3::prelude::*;

/// Every rule name the library knows under an edition (`census::known_names`).
#[pyfunction]
#[pyo3(signature = (edition="3.5"))]
pub fn _known_rule_names(edition: &str) -> PyResult<Vec<&'static str>> {
    Ok(census::known_names(self::edition(edition)?))
}

/// One census row: (engines, gap kind or None, reason or None); `None` for a name neither the
/// edition's core nor the books define. No engines means no engine plays it.
type CensusRow = Option<(Vec<&'static str>, Option<&'static str>, Option<&'static str>)>;

/// The census row of each rule name (`census::coverage`).
#[pyfunction]
#[pyo3(signature = (names, *, edition))]
pub fn _rule_census(names: Vec<String>, edition: &str) -> PyResult<Vec<CensusRow>> {
    let e = self::edition(edition)?;
    Ok(names
        .iter()
        .map(|n| census::coverage(e, n).map(|c| (c.engines.iter().map(|x| x.as_str()).collect(), c.gap.map(|(g, _)| g.as_str()), c.gap.map(|(_, r)| r))))
        .collect())
}

/// The rules of `unit` (its models' and weapons', auras lent) that `engine` ("attack",
/// "melee", "morale" or "game") ignores (`census::ignored_by`).
#[pyfunction]
#[pyo3(signature = (unit, *, engine, edition="3.5"))]
pub fn _unmodelled_rules(unit: PyRef<'_, PyUnit>, engine: &str, edition: &str) -> PyResult<Vec<String>> {
    let e = self::edition(edition)?;
    let engine = match engine {
        "attack" => Engine::Attack,
        "melee" => Engine::Melee,
        "morale" => Engine::Morale,
        "game" => Engine::Game,
        other => return Err(pyo3::exceptions::PyValueError::new_err(format!("engine: {other:?} is not one of attack, melee, morale, game"))),
    };
    Ok(unmodelled_rules(&effects::in_play(e, unit.inner.model_runs()), &[], e, engine))
}

/// Sets what `strict=None` means; gives the setting it replaces.
#[pyfunction]
pub fn _set_strict(strict: bool) -> bool {
    set_strict_default(strict)
}

#[pyfunction]
pub fn _get_strict() -> bool {
    strict_default()
}

/// Every limit of `crate::limits` by name (docs/limits.md explains each), for the wrappers'
/// own checks and the tests.
#[pyfunction]
pub fn _limits() -> Vec<(&'static str, u64)> {
    use crate::limits::*;
    vec![
        ("MAX_MODELS", u64::from(MAX_MODELS)),
        ("MAX_ATTACKS", u64::from(MAX_ATTACKS)),
        ("MAX_WEAPON_COUNT", u64::from(MAX_WEAPON_COUNT)),
        ("MAX_RATING", MAX_RATING as u64),
        ("MAX_RANGE", u64::from(MAX_RANGE)),
        ("MAX_COST", MAX_COST as u64),
        ("MAX_TEXT", MAX_TEXT as u64),
        ("MAX_JSON", MAX_JSON as u64),
        ("MAX_JSON_DEPTH", MAX_JSON_DEPTH as u64),
        ("MAX_NAME", MAX_NAME as u64),
        ("MAX_ARMY_UNITS", MAX_ARMY_UNITS as u64),
        ("MAX_EXACT_DICE", MAX_EXACT_DICE),
        ("MAX_EXACT_HITS", MAX_EXACT_HITS),
        ("MAX_EXACT_HITS_PER_DIE", MAX_EXACT_HITS_PER_DIE),
        ("MAX_EXACT_STATES", MAX_EXACT_STATES),
        ("MAX_EXACT_STATE_PAIRS", crate::melee::MAX_EXACT_STATE_PAIRS),
        ("MAX_EXACT_MELEE_WORK", MAX_EXACT_MELEE_WORK),
        ("MAX_EXACT_WORK", MAX_EXACT_WORK),
        ("MAX_EXACT_CELLS", MAX_EXACT_CELLS),
        ("MAX_TABLE_PAIRS", MAX_TABLE_PAIRS),
        ("MAX_TABLE_WORK", MAX_TABLE_WORK),
        ("MAX_TABLE_MELEE_WORK", crate::limits::MAX_TABLE_MELEE_WORK),
        ("MAX_LINE_UP", crate::game::MAX_LINE_UP as u64),
        ("MAX_SAMPLES", MAX_SAMPLES),
        ("MAX_SAMPLED_DICE", MAX_SAMPLED_DICE),
        ("MAX_SAMPLER_CELLS", MAX_SAMPLER_CELLS),
        ("MAX_THREADS", MAX_THREADS as u64),
        ("MAX_GAMES", crate::game::MAX_GAMES),
        ("MAX_GAME_UNITS", crate::game::MAX_UNITS as u64),
        ("MAX_UNIT_GAMES", MAX_UNIT_GAMES),
        ("MAX_PREPARATION_WORK", MAX_PREPARATION_WORK),
        ("MAX_STRATEGIES", crate::metagame::MAX_STRATEGIES as u64),
        ("MAX_REPLICATES", crate::metagame::MAX_REPLICATES as u64),
        ("MAX_METAGAME_WORK", crate::metagame::MAX_METAGAME_WORK),
    ]
}
