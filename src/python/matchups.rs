//! `matchups()`: every unit against every unit in each mode, exactly, with the GIL released;
//! the losses go to Python as `[mode, attacker, defender]` numpy arrays.

use super::convert::edition;
use super::errors::run_stoppable;
use super::profile::PyUnit;
use crate::matchups::{Activations, Exchange, Forward, Loss, Matchups, Mode};
use numpy::{IntoPyArray, PyArrayMethods};
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

#[pyfunction]
#[pyo3(signature = (attackers, defenders, modes, charge_distance, edition, threads, /))]
pub fn _matchups<'py>(
    py: Python<'py>,
    attackers: Vec<PyRef<'py, PyUnit>>,
    defenders: Vec<PyRef<'py, PyUnit>>,
    modes: Vec<String>,
    charge_distance: f64,
    edition: &str,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let (edition, modes, [attackers, defenders]) = inputs(edition, &modes, [&attackers, &defenders])?;
    let table = run_stoppable(py, |stop| crate::matchups::matchups(&attackers, &defenders, &modes, charge_distance, edition, threads, stop))?;
    table_dict(py, table, modes.len())
}

/// A table as Python reads it: `[mode, attacker, defender]` arrays of each side's loss.
fn table_dict(py: Python<'_>, table: Matchups, modes: usize) -> PyResult<Bound<'_, PyDict>> {
    let shape = [modes, table.wounds[0].len(), table.wounds[1].len()];
    let out = PyDict::new(py);
    let columns: [(&str, fn(&Exchange) -> &Loss); 2] = [("dealt", |e| &e.dealt), ("taken", |e| &e.taken)];
    for (name, side) in columns {
        out.set_item(format!("{name}_wounds"), table.exchanges.iter().map(|e| side(e).wounds).collect::<Vec<f64>>().into_pyarray(py).reshape(shape)?)?;
        out.set_item(format!("{name}_p_removed"), table.exchanges.iter().map(|e| side(e).p_removed).collect::<Vec<f64>>().into_pyarray(py).reshape(shape)?)?;
    }
    let [attacker_wounds, defender_wounds] = table.wounds;
    out.set_item("attacker_wounds", attacker_wounds.into_pyarray(py))?;
    out.set_item("defender_wounds", defender_wounds.into_pyarray(py))?;
    out.set_item("unmodelled", table.unmodelled)?;
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
    let none = [Loss::IMPOSSIBLE; 2];
    let losses = |f: &Forward| f.shots.iter().copied().chain(f.charge.unwrap_or(none)).collect::<Vec<Loss>>();
    let flat: Vec<Loss> = acts.forwards.iter().flat_map(losses).collect();
    let out = PyDict::new(py);
    out.set_item("wounds", flat.iter().map(|l| l.wounds).collect::<Vec<f64>>().into_pyarray(py))?;
    out.set_item("p_removed", flat.iter().map(|l| l.p_removed).collect::<Vec<f64>>().into_pyarray(py))?;
    let [from_wounds, to_wounds] = acts.wounds;
    out.set_item("from_wounds", from_wounds)?;
    out.set_item("to_wounds", to_wounds)?;
    out.set_item("unmodelled", acts.unmodelled)?;
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
    let mut acts = Vec::with_capacity(blocks.len());
    for b in &blocks {
        let wounds: Vec<f64> = item(b, "wounds")?.extract()?;
        let p: Vec<f64> = item(b, "p_removed")?.extract()?;
        let losses: Vec<Loss> = wounds.iter().zip(&p).map(|(&wounds, &p_removed)| Loss { wounds, p_removed }).collect();
        let forwards = losses
            .chunks(shots + 2)
            .map(|c| Forward { shots: c[..shots].to_vec(), charge: (!c[shots].wounds.is_nan()).then(|| [c[shots], c[shots + 1]]) })
            .collect();
        acts.push(Activations { forwards, unmodelled: item(b, "unmodelled")?.extract()?, wounds: [item(b, "from_wounds")?.extract()?, item(b, "to_wounds")?.extract()?] });
    }
    let table = crate::matchups::square(acts, &modes)?;
    table_dict(py, table, modes.len())
}
