//! `melee()` and `morale()`: build the core's melee or morale test, run it with the GIL
//! released, hand the distributions to Python as numpy arrays without copying.

use super::convert::edition;
use super::errors::{run, run_stoppable};
use super::profile::PyUnit;
use crate::attack::allocation::Allocation;
use crate::melee::outcome::Outcome;
use crate::melee::{self, Melee};
use crate::morale::{self, MoraleTest};
use crate::state::UnitState;
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A state as Python hands it over: (models lost, wounds, hero wounds, Shaken, fatigued).
pub type StateTuple = (u32, u32, u32, bool, bool);

pub fn unit_state(t: StateTuple) -> UnitState {
    UnitState { lost: t.0, wounds: t.1, hero_wounds: t.2, shaken: t.3, fatigued: t.4 }
}

/// End states for Python without a Python object each: an `n × 5` array of (models lost,
/// wounds, hero wounds, Shaken, fatigued) and an array of probabilities.
pub fn ends_arrays<'py>(py: Python<'py>, ends: &[(UnitState, f64)]) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
    let flat: Vec<i64> = ends
        .iter()
        .flat_map(|(s, _)| [i64::from(s.lost), i64::from(s.wounds), i64::from(s.hero_wounds), i64::from(s.shaken), i64::from(s.fatigued)])
        .collect();
    let states = flat.into_pyarray(py).reshape([ends.len(), 5])?.into_any();
    let p = ends.iter().map(|(_, p)| *p).collect::<Vec<f64>>().into_pyarray(py).into_any();
    Ok((states, p))
}

fn outcome_dict<'py>(py: Python<'py>, o: Outcome, out: &Bound<'py, PyDict>) -> PyResult<()> {
    out.set_item("winner", o.winner.to_vec().into_pyarray(py))?;
    out.set_item("status", o.status.iter().flatten().copied().collect::<Vec<f64>>().into_pyarray(py).reshape([2, 4])?)?;
    let [wc, wd] = o.wounds;
    out.set_item("wounds_by_charger", wc.into_pyarray(py))?;
    out.set_item("wounds_by_defender", wd.into_pyarray(py))?;
    let [lc, ld] = o.lost;
    out.set_item("charger_lost", lc.into_pyarray(py))?;
    out.set_item("defender_lost", ld.into_pyarray(py))?;
    let shape = [o.sizes[0] as usize + 1, o.sizes[1] as usize + 1];
    out.set_item("left", o.left.into_pyarray(py).reshape(shape)?)?;
    out.set_item("charger_ends", ends_arrays(py, &o.ends[0])?)?;
    out.set_item("defender_ends", ends_arrays(py, &o.ends[1])?)?;
    Ok(())
}

#[pyfunction]
#[pyo3(signature = (charger, defender, *, charger_state, defender_state, strike_back, distance, edition, method, samples, seed, threads))]
#[allow(clippy::too_many_arguments)]
pub fn _melee<'py>(
    py: Python<'py>,
    charger: PyRef<'py, PyUnit>,
    defender: PyRef<'py, PyUnit>,
    charger_state: StateTuple,
    defender_state: StateTuple,
    strike_back: bool,
    distance: f64,
    edition: &str,
    method: &str,
    samples: u64,
    seed: u64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let m = Melee::new(
        &charger.inner,
        &defender.inner,
        &unit_state(charger_state),
        &unit_state(defender_state),
        strike_back,
        distance,
        self::edition(edition)?,
    )?;
    let out = PyDict::new(py);
    out.set_item("unmodelled", m.unmodelled.clone())?;
    out.set_item("resolution", crate::rules::effects::rule_set(m.edition).melee_resolution)?;
    out.set_item("sizes", (m.charger.len(), m.defender.len()))?;
    match method {
        "exact" => {
            m.check_exact()?;
            let o = run(py, || Ok(melee::exact::exact(&m)))?;
            outcome_dict(py, o, &out)?;
            out.set_item("samples", py.None())?;
        }
        "sample" => {
            let tally = run_stoppable(py, |stop| melee::sample::sample_until(&m, samples, seed, threads, stop))?;
            out.set_item("samples", tally.samples)?;
            out.set_item("dice", tally.dice)?;
            outcome_dict(py, tally.outcome(&m), &out)?;
        }
        other => return Err(crate::Error::invalid("method", format!("{other:?}"), "must be \"exact\" or \"sample\"").into()),
    }
    Ok(out)
}

/// (P(pass), P(Shaken), P(Rout), whether the unit is at half strength or less).
#[pyfunction]
#[pyo3(signature = (unit, *, state, melee, edition))]
pub fn _morale(unit: PyRef<'_, PyUnit>, state: StateTuple, melee: bool, edition: &str) -> PyResult<(f64, f64, f64, bool)> {
    let edition = self::edition(edition)?;
    let alloc = Allocation::new(&unit.inner, edition);
    let st = unit_state(state);
    let s = alloc.state_of("state", &st)?;
    let p_pass = MoraleTest::new(&alloc, s, st.shaken, edition).p_pass();
    let half = morale::at_half_or_less(&alloc, s);
    let p_fail = 1.0 - p_pass;
    Ok(match morale::failure(&alloc, s, melee, st.shaken, edition) {
        morale::Failure::Routed => (p_pass, 0.0, p_fail, half),
        _ => (p_pass, p_fail, 0.0, half),
    })
}
