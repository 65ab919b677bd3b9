//! `matchups()`: every unit against every unit in each mode, exactly, with the GIL released;
//! the losses go to Python as `[mode, attacker, defender]` numpy arrays that own the core's
//! vectors (no copy: the table is filled in place and handed over).

use super::convert::edition;
use super::errors::run_stoppable;
use super::profile::PyUnit;
use crate::matchups::{Activations, Losses, Matchups, Mode, RuleSets};
use numpy::{IntoPyArray, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The edition, the modes read from their names, and the two groups of units.
#[allow(clippy::type_complexity)]
fn inputs(edition: &str, modes: &[String], groups: [&[PyRef<'_, PyUnit>]; 2]) -> PyResult<(crate::Edition, Vec<Mode>, [Vec<crate::Unit>; 2])> {
    Ok((self::edition(edition)?, read_modes(modes)?, groups.map(|g| g.iter().map(|u| u.inner.clone()).collect())))
}

fn read_modes(modes: &[String]) -> PyResult<Vec<Mode>> {
    Ok(modes.iter().enumerate().map(|(i, m)| Mode::parse(&format!("modes[{i}]"), m)).collect::<crate::Result<_>>()?)
}

/// The table with its rules unmodelled either as a list per pair (`per_pair`: the rows a
/// cluster's blocks send back and the caller joins, `_distributed.matchups_raw`) or compact:
/// a few distinct sets, `unmodelled_sets`, and each pair's, `unmodelled_of[a, d]` (a list per
/// pair of a million pairs would outweigh the table).
#[pyfunction]
#[pyo3(signature = (attackers, defenders, modes, charge_distance, edition, threads, per_pair, /))]
#[allow(clippy::too_many_arguments)]
pub fn _matchups<'py>(
    py: Python<'py>,
    attackers: Vec<PyRef<'py, PyUnit>>,
    defenders: Vec<PyRef<'py, PyUnit>>,
    modes: Vec<String>,
    charge_distance: f64,
    edition: &str,
    threads: Option<usize>,
    per_pair: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let table = matchup_table(py, &attackers, &defenders, &modes, charge_distance, edition, threads)?;
    if !per_pair {
        return compact(py, table);
    }
    let (out, rules) = table_dict(py, table)?;
    out.set_item("unmodelled", (0..rules.of.len()).map(|p| rules.get(p)).collect::<Vec<_>>())?;
    Ok(out)
}

/// The table, computed with the GIL released and Ctrl-C watched.
fn matchup_table(
    py: Python<'_>,
    attackers: &[PyRef<'_, PyUnit>],
    defenders: &[PyRef<'_, PyUnit>],
    modes: &[String],
    charge_distance: f64,
    edition: &str,
    threads: Option<usize>,
) -> PyResult<crate::matchups::Matchups> {
    let (edition, modes, [attackers, defenders]) = inputs(edition, modes, [attackers, defenders])?;
    run_stoppable(py, |stop| crate::matchups::matchups(&attackers, &defenders, &modes, charge_distance, edition, threads, stop))
}

/// A table's arrays as Python reads them: `[mode, attacker, defender]` arrays of each side's
/// loss, and each unit's wounds; and its rules unmodelled, for the caller to give as it needs.
fn table_dict(py: Python<'_>, table: Matchups) -> PyResult<(Bound<'_, PyDict>, RuleSets)> {
    let Matchups { shape, dealt, taken, wounds: [attacker_wounds, defender_wounds], unmodelled } = table;
    let out = PyDict::new(py);
    for (name, losses) in [("dealt", dealt), ("taken", taken)] {
        out.set_item(format!("{name}_wounds"), losses.wounds.into_pyarray(py).reshape(shape)?)?;
        out.set_item(format!("{name}_p_removed"), losses.p_removed.into_pyarray(py).reshape(shape)?)?;
    }
    out.set_item("attacker_wounds", attacker_wounds.into_pyarray(py))?;
    out.set_item("defender_wounds", defender_wounds.into_pyarray(py))?;
    Ok((out, unmodelled))
}

/// The table's dict with its rules unmodelled as distinct sets and each pair's set.
fn compact(py: Python<'_>, table: Matchups) -> PyResult<Bound<'_, PyDict>> {
    let shape = [table.shape[1], table.shape[2]];
    let (out, rules) = table_dict(py, table)?;
    out.set_item("unmodelled_sets", rules.sets)?;
    out.set_item("unmodelled_of", rules.of.into_pyarray(py).reshape(shape)?)?;
    Ok(out)
}

/// One way only, for a square table cut into blocks of rows (`matchups` on a cluster):
/// every activation of `from` against `to`, as flat arrays a worker sends back, which
/// `_matchups_square` puts together.
#[pyfunction]
#[pyo3(signature = (from, to, offset, modes, charge_distance, edition, threads, /))]
#[allow(clippy::too_many_arguments)]
pub fn _matchup_activations<'py>(
    py: Python<'py>,
    from: Vec<PyRef<'py, PyUnit>>,
    to: Vec<PyRef<'py, PyUnit>>,
    offset: usize,
    modes: Vec<String>,
    charge_distance: f64,
    edition: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let (edition, modes, [from, to]) = inputs(edition, &modes, [&from, &to])?;
    let acts = run_stoppable(py, |stop| crate::matchups::activations(&from, &to, offset, &modes, charge_distance, edition, threads, stop))?;
    // per activation: each shot's loss, then the charger's and the defender's (NaN: none)
    let out = PyDict::new(py);
    out.set_item("wounds", acts.losses.wounds.into_pyarray(py))?;
    out.set_item("p_removed", acts.losses.p_removed.into_pyarray(py))?;
    let [from_wounds, to_wounds] = acts.wounds;
    out.set_item("from_wounds", from_wounds)?;
    out.set_item("to_wounds", to_wounds)?;
    out.set_item("unmodelled_sets", acts.unmodelled.sets)?;
    out.set_item("unmodelled_of", acts.unmodelled.of.into_pyarray(py))?;
    Ok(out)
}

/// The square table from the blocks `_matchup_activations` gave, in row order: assembled
/// by the core, as `matchups` assembles it locally.
#[pyfunction]
#[pyo3(signature = (blocks, modes, /))]
pub fn _matchups_square<'py>(py: Python<'py>, blocks: Vec<Bound<'py, PyDict>>, modes: Vec<String>) -> PyResult<Bound<'py, PyDict>> {
    let modes = read_modes(&modes)?;
    let shots = Mode::distances(&modes).count();
    let item = |b: &Bound<'py, PyDict>, key: &str| -> PyResult<Bound<'py, PyAny>> {
        b.get_item(key)?.ok_or_else(|| crate::Error::invalid("blocks", key, "a block from _matchup_activations has it").into())
    };
    // a block that came over the wire may be misaligned: read from numpy's own copy
    fn array<'py, T: numpy::Element + Copy>(a: Bound<'py, PyAny>) -> PyResult<Vec<T>> {
        Ok(a.call_method0("copy")?.extract::<PyReadonlyArray1<'py, T>>()?.as_slice()?.to_vec())
    }
    let mut acts = Vec::with_capacity(blocks.len());
    for b in &blocks {
        let of = array::<u32>(item(b, "unmodelled_of")?)?;
        let unmodelled = RuleSets { sets: item(b, "unmodelled_sets")?.extract()?, of };
        if unmodelled.sets.first().is_none_or(|s| !s.is_empty()) || unmodelled.of.iter().any(|&k| k as usize >= unmodelled.sets.len()) {
            return Err(crate::Error::invalid("blocks", "unmodelled_of", "each pair's set must be one of unmodelled_sets, the first empty").into());
        }
        let losses = Losses { wounds: array(item(b, "wounds")?)?, p_removed: array(item(b, "p_removed")?)? };
        acts.push(Activations { losses, shots, unmodelled, wounds: [item(b, "from_wounds")?.extract()?, item(b, "to_wounds")?.extract()?] });
    }
    compact(py, crate::matchups::square(acts, &modes)?)
}
