//! `matchups()`: every unit against every unit in each mode, exactly, with the GIL released;
//! the losses go to Python as `[mode, attacker, defender]` numpy arrays.

use super::convert::edition;
use super::errors::run_stoppable;
use super::profile::PyUnit;
use crate::matchups::{Loss, Mode};
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;

/// The edition, the modes read from their names, and the two groups of units.
#[allow(clippy::type_complexity)]
fn inputs(edition: &str, modes: &[String], groups: [&[PyRef<'_, PyUnit>]; 2]) -> PyResult<(crate::Edition, Vec<Mode>, [Vec<crate::Unit>; 2])> {
    let edition = self::edition(edition)?;
    let modes: Vec<Mode> = modes.iter().enumerate().map(|(i, m)| Mode::parse(&format!("modes[{i}]"), m)).collect::<crate::Result<_>>()?;
    Ok((edition, modes, groups.map(|g| g.iter().map(|u| u.inner.clone()).collect())))
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
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let (edition, modes, [attackers, defenders]) = inputs(edition, &modes, [&attackers, &defenders])?;
    let table = run_stoppable(py, |stop| crate::matchups::matchups(&attackers, &defenders, &modes, charge_distance, edition, threads, stop))?;
    let shape = [modes.len(), attackers.len(), defenders.len()];
    let out = pyo3::types::PyDict::new(py);
    let columns: [(&str, fn(&crate::matchups::Exchange) -> &Loss); 2] = [("dealt", |e| &e.dealt), ("taken", |e| &e.taken)];
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
/// every activation of `from` against `to`, as `[mode or side, from, to]` arrays.
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
) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
    let (edition, modes, [from, to]) = inputs(edition, &modes, [&from, &to])?;
    let acts = run_stoppable(py, |stop| crate::matchups::activations(&from, &to, offset, &modes, charge_distance, edition, threads, stop))?;
    let shots = modes.iter().filter(|m| matches!(m, Mode::Shoot(_))).count();
    let out = pyo3::types::PyDict::new(py);
    let (nf, nt) = (from.len(), to.len());
    out.set_item("shots_wounds", acts.shots.iter().map(|l| l.wounds).collect::<Vec<f64>>().into_pyarray(py).reshape([shots, nf, nt])?)?;
    out.set_item("shots_p_removed", acts.shots.iter().map(|l| l.p_removed).collect::<Vec<f64>>().into_pyarray(py).reshape([shots, nf, nt])?)?;
    // [charger's, defender's] loss, each [from, to]
    let side = |k: usize, f: fn(&Loss) -> f64| (0..nf * nt).map(|i| f(&acts.charges[i][k])).collect::<Vec<f64>>();
    let both = |f: fn(&Loss) -> f64| [side(0, f), side(1, f)].concat();
    out.set_item("charges_wounds", both(|l| l.wounds).into_pyarray(py).reshape([2, nf, nt])?)?;
    out.set_item("charges_p_removed", both(|l| l.p_removed).into_pyarray(py).reshape([2, nf, nt])?)?;
    let [from_wounds, to_wounds] = acts.wounds;
    out.set_item("from_wounds", from_wounds.into_pyarray(py))?;
    out.set_item("to_wounds", to_wounds.into_pyarray(py))?;
    out.set_item("unmodelled", acts.unmodelled)?;
    Ok(out)
}
