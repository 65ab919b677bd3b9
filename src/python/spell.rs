//! An army book's spells as read-only Python objects (`rules::spells` in the core).

use super::profile::{from_state, hash_of, to_state};
use crate::loaders::army_forge::SpellDefinition;
use crate::rules::spells::{Attacks, Roll, SpellEffect};
use pyo3::prelude::*;

/// A spell of an army book: its value in tokens, whom it picks and what it does.
#[pyclass(name = "Spell", module = "oprstats", frozen)]
pub struct PySpell {
    pub inner: SpellDefinition,
    /// The edition of its book, whose rules its own are checked under.
    pub edition: crate::Edition,
}

#[pymethods]
impl PySpell {
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }

    /// The spell's value: the tokens a caster spends to try it.
    #[getter]
    fn tokens(&self) -> Option<i64> {
        self.inner.tokens
    }

    /// The effect as the book prints it.
    #[getter]
    fn text(&self) -> &str {
        &self.inner.effect
    }

    /// Whether games cast it (where some unit gains from it): damage spells, and spells whose
    /// rule, held once by a friend, an enemy or the attackers of a marked enemy, the game plays.
    #[getter]
    fn played(&self) -> bool {
        self.inner.spell.as_ref().is_some_and(|s| crate::game::held_rules::game_casts(s, self.edition))
    }

    /// What it does: "hits", "rule", "modifier", "range", "move", "terrain", "morale", or
    /// "unread" (a spell whose structured effect the library could not read).
    #[getter]
    fn kind(&self) -> &'static str {
        match self.inner.spell.as_ref().map(|s| &s.effect) {
            None => "unread",
            Some(SpellEffect::Hits { .. }) => "hits",
            Some(SpellEffect::Rule { .. }) => "rule",
            Some(SpellEffect::Modifier { .. }) => "modifier",
            Some(SpellEffect::Range { .. }) => "range",
            Some(SpellEffect::Move { .. }) => "move",
            Some(SpellEffect::InTerrain { .. }) => "terrain",
            Some(SpellEffect::TestOrFatigued | SpellEffect::TestOrMoved { .. }) => "morale",
        }
    }

    /// Whether it picks enemy units (else friendly ones); None where unread.
    #[getter]
    fn enemy(&self) -> Option<bool> {
        self.inner.spell.as_ref().map(|s| s.targets.enemy)
    }

    /// Its range in inches ("within 12"").
    #[getter]
    fn range(&self) -> Option<u32> {
        self.inner.spell.as_ref().map(|s| s.targets.range)
    }

    /// How many units (or models) it picks at most.
    #[getter]
    fn targets(&self) -> Option<u8> {
        self.inner.spell.as_ref().map(|s| s.targets.count)
    }

    /// A damage spell's hits ("takes 6 hits"); None for other spells.
    #[getter]
    fn hits(&self) -> Option<u32> {
        match self.inner.spell.as_ref().map(|s| &s.effect) {
            Some(SpellEffect::Hits { hits, .. }) => Some(*hits),
            _ => None,
        }
    }

    /// The rules a damage spell's hits have, or the rule it gives or takes.
    #[getter]
    fn rules(&self) -> Vec<String> {
        match self.inner.spell.as_ref().map(|s| &s.effect) {
            Some(SpellEffect::Hits { rules, .. }) => rules.iter().map(ToString::to_string).collect(),
            Some(SpellEffect::Rule { rule, .. }) => vec![rule.to_string()],
            _ => Vec::new(),
        }
    }

    /// The roll a modifier spell changes ("hit when shooting", "defense", "morale",
    /// "casting"), and by how much; None for other spells.
    #[getter]
    fn modifier(&self) -> Option<(String, i64)> {
        match self.inner.spell.as_ref().map(|s| &s.effect) {
            Some(SpellEffect::Modifier { roll, amount, .. }) => {
                let roll = match roll {
                    Roll::Hit(Attacks::Shooting) => "hit when shooting",
                    Roll::Hit(Attacks::Melee) => "hit in melee",
                    Roll::Hit(Attacks::All) => "hit",
                    Roll::Defense => "defense",
                    Roll::Morale => "morale",
                    Roll::Casting => "casting",
                };
                Some((roll.to_string(), *amount))
            }
            _ => None,
        }
    }

    fn __repr__(&self) -> String {
        let tokens = self.inner.tokens.map_or(String::new(), |t| format!(" ({t})"));
        format!("Spell({:?}{tokens}: {:?})", self.inner.name, self.inner.effect)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PySpell>().is_ok_and(|o| o.get().inner == self.inner)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&(&self.inner.name, self.inner.tokens, &self.inner.effect))
    }

    /// Pickles the fields themselves (as JSON), exactly.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, &'static str))> {
        let rebuild = slf.py().import("oprstats._core")?.getattr("_spell_from_state")?;
        Ok((rebuild, (to_state(&slf.get().inner)?, slf.get().edition.key())))
    }
}

/// Pickle support: a spell from its fields, checked as a spell read from a book is.
#[pyfunction]
pub fn _spell_from_state(state: &str, edition: &str) -> PyResult<PySpell> {
    let edition = super::convert::edition(edition)?;
    let inner: SpellDefinition = from_state(state, "Spell")?;
    if let Some(spell) = &inner.spell {
        spell.check(edition)?;
    }
    Ok(PySpell { inner, edition })
}
