//! `attack()`: builds the core's attack, runs the chosen engine (with the GIL released
//! unless the work is tiny), and hands the distributions to Python, made into numpy arrays
//! when first read.

use super::convert::{edition, type_name};
use super::errors::{run_sized, run_stoppable, type_error};
use super::profile::PyUnit;
use super::spell::PySpell;
use crate::attack::plan::Situation;
use super::melee::{ends_arrays, unit_state, StateTuple};
use crate::attack::sample::end_frequencies;
use crate::attack::table::Cell;
use crate::attack::Attack;
use crate::state::UnitState;
use numpy::{IntoPyArray, PyArray1, PyArrayMethods, ToPyArray};
use pyo3::prelude::*;

#[pyfunction]
// positional: keyword parsing of 18 arguments was a tenth of a small exact attack's call
#[pyo3(signature = (attacker, target, weapons, melee, distance, charging, cover, moved, target_moved, fatigued, attacker_state, target_state, edition, method, samples, seed, threads, /))]
#[allow(clippy::too_many_arguments)]
pub fn _attack<'py>(
    py: Python<'py>,
    attacker: &Bound<'py, PyAny>,
    target: PyRef<'py, PyUnit>,
    weapons: Option<Vec<String>>,
    melee: bool,
    distance: f64,
    charging: bool,
    cover: bool,
    moved: bool,
    target_moved: bool,
    fatigued: bool,
    attacker_state: StateTuple,
    target_state: StateTuple,
    edition: &str,
    method: &str,
    samples: u64,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<PyAttackStages> {
    let edition = self::edition(edition)?;
    // a damage spell's hits (the Python wrapper has refused the arguments about the attacker)
    let attack = if let Ok(spell) = attacker.cast::<PySpell>() {
        let def = &spell.get().inner;
        let Some(read) = &def.spell else {
            return Err(crate::Error::invalid("spell", &def.name, "its effect could not be read from its book (see the book's warnings)").into());
        };
        Attack::from_spell(read, &def.name, &target.inner, edition, &unit_state(target_state))?
    } else {
        let attacker = attacker.cast::<PyUnit>().map_err(|_| type_error("attacker", "a Unit or a Spell", &type_name(attacker)))?;
        let situation = Situation { charging, cover, moved, target_moved, fatigued, ..Situation::new(edition, melee, distance) };
        Attack::new(&attacker.get().inner, &target.inner, situation, weapons.as_deref(), &unit_state(attacker_state), &unit_state(target_state))?
    };

    // kills (by this attack) always spans 0..=models left at the start, so `remaining` is its mirror image
    let alive = attack.allocation.alive(attack.start) as usize;
    let pad = move |mut v: Vec<f64>| {
        v.resize(alive + 1, 0.0);
        v
    };
    let mut out = PyAttackStages {
        groups: attack.groups.iter().map(|g| (g.label.clone(), g.dice)).collect(),
        unmodelled: attack.unmodelled.clone(),
        size: attack.allocation.len(),
        alive,
        wound_effects: attack.allocation.wounds == crate::rules::effects::WoundModel::WoundEffects,
        ..PyAttackStages::default()
    };
    match method {
        "exact" => {
            let work = attack.check_exact()?;
            let stages = run_sized(py, work, || Ok(attack.exact()))?;
            out.hits = stages.hits;
            out.unblocked = stages.unblocked;
            out.wounds = stages.wounds;
            out.kills = pad(stages.kills);
            out.p_morale_test = stages.p_morale_test;
            out.ends = stages.ends;
        }
        "sample" => {
            let counts = run_stoppable(py, |stop| attack.sample(samples, seed, threads, stop))?;
            let n = counts.samples as f64;
            let pmf = |v: Vec<u64>| v.into_iter().map(|c| c as f64 / n).collect::<Vec<f64>>();
            out.hits = pmf(counts.hits);
            out.unblocked = pmf(counts.unblocked);
            out.wounds = pmf(counts.wounds);
            out.kills = pad(pmf(counts.kills));
            out.p_morale_test = counts.morale_tests as f64 / n;
            out.ends = end_frequencies(&counts.ends, counts.samples);
            out.samples = Some(counts.samples);
            out.dice = Some(counts.dice);
        }
        other => {
            return Err(crate::Error::invalid("method", format!("{other:?}"), "must be \"exact\" or \"sample\"").into());
        }
    }
    Ok(out)
}

/// An attack's distributions as the core computed them. The numpy arrays are made when a
/// stage is first read (`AttackResult` keeps them): a caller that wants one number should
/// not pay for five arrays.
#[pyclass(frozen, module = "oprstats._core", name = "_AttackStages")]
#[derive(Default)]
pub struct PyAttackStages {
    hits: Vec<f64>,
    unblocked: Vec<f64>,
    wounds: Vec<f64>,
    kills: Vec<f64>,
    ends: Vec<(UnitState, f64)>,
    #[pyo3(get)]
    groups: Vec<(String, u32)>,
    #[pyo3(get)]
    unmodelled: Vec<String>,
    #[pyo3(get)]
    size: u32,
    #[pyo3(get)]
    alive: usize,
    #[pyo3(get)]
    wound_effects: bool,
    #[pyo3(get)]
    p_morale_test: f64,
    #[pyo3(get)]
    samples: Option<u64>,
    #[pyo3(get)]
    dice: Option<u64>,
}

#[pymethods]
impl PyAttackStages {
    /// The pmf of `"hits"`, `"unblocked"`, `"wounds"` or `"kills"`, as a new numpy array.
    fn stage<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyArray1<f64>>> {
        let v = match name {
            "hits" => &self.hits,
            "unblocked" => &self.unblocked,
            "wounds" => &self.wounds,
            "kills" => &self.kills,
            other => return Err(crate::Error::invalid("stage", format!("{other:?}"), "must be hits, unblocked, wounds or kills").into()),
        };
        Ok(v.to_pyarray(py))
    }

    /// The target's states afterwards: (n × 5 state array, probabilities).
    fn ends<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        ends_arrays(py, &self.ends)
    }
}

/// Every attacker against every fresh target, exactly (`attack::table`): means as
/// `[attacker, target]` arrays, and the unmodelled rules of each pair (row-major).
#[pyfunction]
#[pyo3(signature = (attackers, targets, melee, distance, charging, cover, moved, edition, threads, /))]
#[allow(clippy::too_many_arguments)]
pub fn _attack_table<'py>(
    py: Python<'py>,
    attackers: Vec<PyRef<'py, PyUnit>>,
    targets: Vec<PyRef<'py, PyUnit>>,
    melee: bool,
    distance: f64,
    charging: bool,
    cover: bool,
    moved: bool,
    edition: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let edition = self::edition(edition)?;
    let situation = Situation { charging, cover, moved, ..Situation::new(edition, melee, distance) };
    let attackers: Vec<crate::Unit> = attackers.iter().map(|u| u.inner.clone()).collect();
    let targets: Vec<crate::Unit> = targets.iter().map(|u| u.inner.clone()).collect();
    let table = run_stoppable(py, |stop| crate::attack::table::table(&attackers, &targets, &situation, threads, stop))?;
    let shape = [attackers.len(), targets.len()];
    let out = pyo3::types::PyDict::new(py);
    let columns: [(&str, fn(&Cell) -> f64); 5] =
        [("hits", |c| c.hits), ("wounds", |c| c.wounds), ("kills", |c| c.kills), ("p_destroyed", |c| c.p_destroyed), ("p_morale_test", |c| c.p_morale_test)];
    for (name, f) in columns {
        out.set_item(name, table.cells.iter().map(f).collect::<Vec<f64>>().into_pyarray(py).reshape(shape)?)?;
    }
    out.set_item("unmodelled", table.unmodelled)?;
    Ok(out)
}
