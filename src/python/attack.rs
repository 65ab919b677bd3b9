//! `attack()`: builds the core's attack, runs the chosen engine with the GIL released, and
//! hands the distributions to Python as numpy arrays without copying.

use super::convert::{edition, type_name};
use super::errors::{run, run_stoppable, type_error};
use super::profile::PyUnit;
use super::spell::PySpell;
use crate::attack::plan::Situation;
use super::melee::{ends_arrays, unit_state, StateTuple};
use crate::attack::sample::end_frequencies;
use crate::attack::Attack;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;

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
) -> PyResult<Bound<'py, PyDict>> {
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

    let out = PyDict::new(py);
    // kills (by this attack) always spans 0..=models left at the start, so `remaining` is its mirror image
    let size = attack.allocation.alive(attack.start) as usize;
    let pad = move |mut v: Vec<f64>| {
        v.resize(size + 1, 0.0);
        v
    };
    out.set_item("groups", attack.groups.iter().map(|g| (g.label.clone(), g.dice)).collect::<Vec<_>>())?;
    out.set_item("unmodelled", attack.unmodelled.clone())?;
    out.set_item("size", attack.allocation.len())?;
    out.set_item("alive", size)?;
    out.set_item("wound_effects", attack.allocation.wounds == crate::rules::effects::WoundModel::WoundEffects)?;
    match method {
        "exact" => {
            attack.check_exact()?;
            let stages = run(py, || Ok(attack.exact()))?;
            out.set_item("hits", stages.hits.into_pyarray(py))?;
            out.set_item("unblocked", stages.unblocked.into_pyarray(py))?;
            out.set_item("wounds", stages.wounds.into_pyarray(py))?;
            out.set_item("kills", pad(stages.kills).into_pyarray(py))?;
            out.set_item("p_morale_test", stages.p_morale_test)?;
            out.set_item("ends", ends_arrays(py, &stages.ends)?)?;
            out.set_item("samples", py.None())?;
        }
        "sample" => {
            let counts = run_stoppable(py, |stop| attack.sample(samples, seed, threads, stop))?;
            let n = counts.samples as f64;
            let pmf = |v: Vec<u64>| v.into_iter().map(|c| c as f64 / n).collect::<Vec<f64>>();
            out.set_item("hits", pmf(counts.hits).into_pyarray(py))?;
            out.set_item("unblocked", pmf(counts.unblocked).into_pyarray(py))?;
            out.set_item("wounds", pmf(counts.wounds).into_pyarray(py))?;
            out.set_item("kills", pad(pmf(counts.kills)).into_pyarray(py))?;
            out.set_item("p_morale_test", counts.morale_tests as f64 / n)?;
            out.set_item("ends", ends_arrays(py, &end_frequencies(&counts.ends, counts.samples))?)?;
            out.set_item("samples", counts.samples)?;
            out.set_item("dice", counts.dice)?;
        }
        other => {
            return Err(crate::Error::invalid("method", format!("{other:?}"), "must be \"exact\" or \"sample\"").into());
        }
    }
    Ok(out)
}
