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
use numpy::{IntoPyArray, PyArray1, PyArrayMethods, ToPyArray};
use pyo3::prelude::*;

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

/// A melee's outcome as the core computed it. The numpy arrays are made when they are first
/// read (`MeleeResult` keeps them): most callers want who wins and each side's fate, not
/// nine arrays of distributions.
#[pyclass(frozen, module = "oprstats._core", name = "_MeleeOutcome")]
pub struct PyMeleeOutcome {
    outcome: Outcome,
    #[pyo3(get)]
    unmodelled: Vec<String>,
    /// Whether the edition resolves melee (who wins); Firefight does not.
    #[pyo3(get)]
    resolution: bool,
    #[pyo3(get)]
    samples: Option<u64>,
    #[pyo3(get)]
    dice: Option<u64>,
}

impl PyMeleeOutcome {
    fn side(side: usize) -> PyResult<usize> {
        if side < 2 { Ok(side) } else { Err(crate::Error::invalid("side", side.to_string(), "must be 0 (charger) or 1 (defender)").into()) }
    }
}

#[pymethods]
impl PyMeleeOutcome {
    /// (P(charger wins), P(defender wins), P(tie)).
    #[getter]
    fn winner(&self) -> (f64, f64, f64) {
        let [c, d, t] = self.outcome.winner;
        (c, d, t)
    }

    /// Per side (charger, defender): (P(destroyed), P(routed), P(Shaken), P(unaffected)).
    #[getter]
    fn status(&self) -> [(f64, f64, f64, f64); 2] {
        self.outcome.status.map(|[a, b, c, d]| (a, b, c, d))
    }

    /// The unit sizes (charger, defender).
    #[getter]
    fn sizes(&self) -> (u32, u32) {
        (self.outcome.sizes[0], self.outcome.sizes[1])
    }

    /// The pmf of the wounds `side` caused (0: the charger, 1: the defender).
    fn wounds<'py>(&self, py: Python<'py>, side: usize) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(self.outcome.wounds[Self::side(side)?].to_pyarray(py))
    }

    /// The pmf of the models `side` lost.
    fn lost<'py>(&self, py: Python<'py>, side: usize) -> PyResult<Bound<'py, PyArray1<f64>>> {
        Ok(self.outcome.lost[Self::side(side)?].to_pyarray(py))
    }

    /// `left[c, d]`: P(the charger has `c` models left and the defender `d`).
    fn left<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let shape = [self.outcome.sizes[0] as usize + 1, self.outcome.sizes[1] as usize + 1];
        Ok(self.outcome.left.to_pyarray(py).reshape(shape)?.into_any())
    }

    /// `side`'s states afterwards: (n × 5 state array, probabilities).
    fn ends<'py>(&self, py: Python<'py>, side: usize) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        ends_arrays(py, &self.outcome.ends[Self::side(side)?])
    }
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
) -> PyResult<PyMeleeOutcome> {
    let edition = self::edition(edition)?;
    let (c, d) = (Allocation::new(&charger.inner, edition), Allocation::new(&defender.inner, edition));
    let m = Melee::with_orders(c, d, &unit_state(charger_state), &unit_state(defender_state), strike_back, distance, edition, method == "exact")?;
    let (outcome, samples, dice) = match method {
        // (checked for the exact engine by `with_orders`)
        "exact" => (run(py, || Ok(melee::exact::exact(&m)))?, None, None),
        "sample" => {
            let tally = run_stoppable(py, |stop| melee::sample::sample_until(&m, samples, seed, threads, stop))?;
            (tally.outcome(&m), Some(tally.samples), Some(tally.dice))
        }
        other => return Err(crate::Error::invalid("method", format!("{other:?}"), "must be \"exact\" or \"sample\"").into()),
    };
    let resolution = crate::rules::effects::rule_set(m.edition).melee_resolution;
    Ok(PyMeleeOutcome { outcome, unmodelled: m.unmodelled, resolution, samples, dice })
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
