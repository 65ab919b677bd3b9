//! `simulate()`'s core: prepares two armies once, then plays batches of games with the GIL
//! released and hands per-game results to Python as numpy arrays without copying.

use super::convert::{edition, type_name};
use super::errors::{run, run_stoppable, type_error};
use super::profile::PyUnit;
use crate::game::config::Event;
use crate::game::prepare::{Prepared, Role};
use crate::loaders::army_forge::Spells;
use crate::game::{self, Config, Kinds, Piece, Point, Policy, PolicyKind, Terrain};
use crate::profile::Unit;
use numpy::{IntoPyArray, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use std::sync::Arc;

/// Two armies ready to play: what every game of a run shares.
#[pyclass(name = "_GamePrep", module = "oprstats._core", frozen)]
pub struct PyGamePrep {
    inner: Arc<Prepared>,
}

#[pymethods]
impl PyGamePrep {
    /// Each unit's role (`"shooting"`, `"hybrid"` or `"melee"`) by army.
    fn roles(&self) -> Vec<Vec<&'static str>> {
        self.inner
            .armies
            .iter()
            .map(|units| {
                units
                    .iter()
                    .map(|u| match u.role {
                        Role::Shooting => "shooting",
                        Role::Hybrid => "hybrid",
                        Role::Melee => "melee",
                    })
                    .collect()
            })
            .collect()
    }

    /// The key of the edition the games are played in.
    fn edition(&self) -> &'static str {
        self.inner.edition.key()
    }

    /// The table the games are played on, in inches: (width, depth).
    fn table(&self) -> (f64, f64) {
        (self.inner.rules.table.width, self.inner.rules.table.depth)
    }

    /// `(name, points, models, footprint radius)` of each unit, by army.
    fn units(&self) -> Vec<Vec<(String, f64, u32, f64)>> {
        self.inner.armies.iter().map(|units| units.iter().map(|u| (u.name.clone(), u.cost, u.models, u.radius)).collect()).collect()
    }

    /// The rules the game ignores (`census::ignored_by`), each with the share of army A's
    /// and of army B's points carried by units that have it: `(name, share_a, share_b)`.
    fn unmodelled(&self) -> Vec<(String, f64, f64)> {
        self.inner.unmodelled().into_iter().map(|(name, [a, b])| (name, a, b)).collect()
    }

    /// The expected points margin of each charge (`[army][charger][defender]`).
    fn charge_values(&self) -> Vec<Vec<Vec<f64>>> {
        self.inner.charge_value.to_vec()
    }
}

/// The units of an army, with their books' spells.
fn army(obj: &Bound<'_, PyAny>, field: &str, edition: crate::Edition) -> PyResult<(Vec<Unit>, Vec<Spells>)> {
    let iter = obj.try_iter().map_err(|_| type_error(field, "an Army or a sequence of Unit", &type_name(obj)))?;
    let (mut out, mut spells) = (Vec::new(), Vec::new());
    for (i, item) in iter.enumerate() {
        let item = item?;
        let unit = item.cast::<PyUnit>().map_err(|_| type_error(&format!("{field}[{i}]"), "a Unit", &type_name(&item)))?;
        let unit = unit.get();
        if unit.edition != edition {
            return Err(crate::Error::invalid(format!("{field}[{i}]"), unit.inner.name(), format!("is a {} unit; this game plays {}", unit.edition.key(), edition.key())).into());
        }
        out.push(unit.inner.clone());
        spells.push(unit.book.spells.clone());
    }
    Ok((out, spells))
}

/// The keys of the editions full games are played in (`GameRules::of` accepts them).
#[pyfunction]
pub fn _game_editions() -> Vec<&'static str> {
    crate::Edition::ALL.iter().filter(|e| game::rules::GameRules::of(**e).is_ok()).map(|e| e.key()).collect()
}

/// The key of an edition as users may write it (`"v3.4.1"`, `"3.4"`, `"firefight"`...).
#[pyfunction]
pub fn _edition_key(edition: &str) -> PyResult<&'static str> {
    Ok(self::edition(edition)?.key())
}

#[pyfunction]
#[pyo3(signature = (army_a, army_b, *, edition, role_ratio))]
pub fn _prepare_game(py: Python<'_>, army_a: &Bound<'_, PyAny>, army_b: &Bound<'_, PyAny>, edition: &str, role_ratio: (f64, f64)) -> PyResult<PyGamePrep> {
    let edition = self::edition(edition)?;
    let ((a, spells_a), (b, spells_b)) = (army(army_a, "army_a", edition)?, army(army_b, "army_b", edition)?);
    for (field, r) in [("policy_a.role_ratio", role_ratio.0), ("policy_b.role_ratio", role_ratio.1)] {
        if !r.is_finite() || !(1.0..=100.0).contains(&r) {
            return Err(crate::Error::invalid(field, r, "must be a finite number from 1 to 100").into());
        }
    }
    // the melees of every pair of units may take seconds: Ctrl-C stops them
    let prep = run_stoppable(py, |stop| Prepared::with_spells_until([&a, &b], [&spells_a, &spells_b], edition, [role_ratio.0, role_ratio.1], stop))?;
    Ok(PyGamePrep { inner: Arc::new(prep) })
}

/// A terrain piece as Python hands it over: (name, x0, y0, x1, y1, blocking, cover,
/// difficult, dangerous, impassable).
pub type PieceTuple = (String, f64, f64, f64, f64, bool, bool, bool, bool, bool);
/// A policy: (kind, objective_weight, charge_margin, hold_objectives, role_ratio,
/// marker_value, shaken_weight, threat_weight, fatigue_weight, ride_margin,
/// arrival_threat_weight).
pub type PolicyTuple = (String, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64);

fn policy(t: &PolicyTuple, field: &str) -> PyResult<Policy> {
    let kind = match t.0.as_str() {
        "default" => PolicyKind::Default,
        "greedy" => PolicyKind::Greedy,
        "random" => PolicyKind::Random,
        "hold" => PolicyKind::Hold,
        "v3-2026-11" => PolicyKind::V3_2026_11,
        other => return Err(crate::Error::invalid(field, format!("{other:?}"), "must be \"default\", \"v3-2026-11\", \"greedy\", \"random\", \"hold\" or a Policy").into()),
    };
    Ok(Policy {
        kind,
        objective_weight: t.1,
        charge_margin: t.2,
        hold_objectives: t.3,
        role_ratio: t.4,
        marker_value: t.5,
        shaken_weight: t.6,
        threat_weight: t.7,
        fatigue_weight: t.8,
        ride_margin: t.9,
        arrival_threat_weight: t.10,
    })
}

fn piece_tuple(p: &Piece) -> PieceTuple {
    let k = p.kinds;
    (p.name.clone(), p.x0, p.y0, p.x1, p.y1, k.blocking, k.cover, k.difficult, k.dangerous, k.impassable)
}

/// An event as three tuples: who ((round, kind, army, unit, target army, target)), where
/// ((from, to, allowance, length)) and what ((dice, hits, wounds, models left, detail, models,
/// target's models)).
#[allow(clippy::type_complexity)]
fn event_tuple(e: &Event) -> ((u8, &'static str, i8, i32, i8, i32), ((f64, f64), (f64, f64), f64, f64), (u64, u32, u32, u32, String, Vec<(f64, f64, f64)>, Vec<(f64, f64, f64)>)) {
    (
        (e.round, e.kind, e.army, e.unit, e.target_army, e.target),
        ((e.from.x, e.from.y), (e.to.x, e.to.y), e.allowance, e.length),
        (e.dice, e.hits, e.wounds, e.models_left, e.detail.clone(), e.models.clone(), e.target_models.clone()),
    )
}

#[pyfunction]
#[pyo3(signature = (prep, *, seed, first_game, games, terrain, objectives, policies, deployment, first, paired, rounds, trace, profile, threads, line_up=None))]
#[allow(clippy::too_many_arguments)]
pub fn _simulate<'py>(
    py: Python<'py>,
    prep: &PyGamePrep,
    seed: u64,
    first_game: u64,
    games: u64,
    terrain: Option<Vec<PieceTuple>>,
    objectives: Option<Vec<(f64, f64)>>,
    policies: (PolicyTuple, PolicyTuple),
    deployment: Option<(Vec<(f64, f64)>, Vec<(f64, f64)>)>,
    first: Option<usize>,
    paired: bool,
    rounds: u8,
    trace: bool,
    profile: bool,
    threads: Option<usize>,
    line_up: Option<f64>,
) -> PyResult<Bound<'py, PyDict>> {
    let terrain = match terrain {
        None => Terrain::Standard,
        Some(pieces) => Terrain::Fixed(
            pieces
                .into_iter()
                .map(|(name, x0, y0, x1, y1, blocking, cover, difficult, dangerous, impassable)| Piece::new(&name, x0, y0, x1, y1, Kinds { blocking, cover, difficult, dangerous, impassable }))
                .collect::<crate::Result<Vec<Piece>>>()?,
        ),
    };
    let points = |v: Vec<(f64, f64)>| v.into_iter().map(|(x, y)| Point::new(x, y)).collect::<Vec<Point>>();
    let config = Config {
        seed,
        terrain,
        objectives: objectives.map(points),
        policies: [policy(&policies.0, "policy_a")?, policy(&policies.1, "policy_b")?],
        deployment: deployment.map(|(a, b)| [points(a), points(b)]),
        line_up,
        first,
        paired,
        rounds,
        trace,
        profile,
    };
    let prep = self::Arc::clone(&prep.inner);
    // (`game::simulate` plays on the kept pool of `threads`)
    let out = run(py, || game::simulate(&prep, &config, first_game, games, threads))?;
    let d = PyDict::new(py);
    let n = out.records.len();
    d.set_item("winner", out.records.iter().map(|r| r.winner).collect::<Vec<i8>>().into_pyarray(py))?;
    d.set_item("first", out.records.iter().map(|r| r.first).collect::<Vec<u8>>().into_pyarray(py))?;
    d.set_item("objectives", out.records.iter().flat_map(|r| r.objectives).collect::<Vec<u8>>().into_pyarray(py).reshape([n, 2])?)?;
    d.set_item("models_left", out.records.iter().flat_map(|r| r.models_left).collect::<Vec<u32>>().into_pyarray(py).reshape([n, 2])?)?;
    d.set_item("points_left", out.records.iter().flat_map(|r| r.points_left).collect::<Vec<f64>>().into_pyarray(py).reshape([n, 2])?)?;
    let units = PyList::empty(py);
    for totals in out.units {
        let u = PyDict::new(py);
        u.set_item("destroyed", totals.destroyed.into_pyarray(py))?;
        u.set_item("wounds_dealt", totals.wounds_dealt.into_pyarray(py))?;
        u.set_item("wounds_taken", totals.wounds_taken.into_pyarray(py))?;
        u.set_item("rounds_holding", totals.rounds_holding.into_pyarray(py))?;
        u.set_item("activations", totals.activations.into_pyarray(py))?;
        u.set_item("idle", totals.idle.into_pyarray(py))?;
        u.set_item("stuck", totals.stuck.into_pyarray(py))?;
        u.set_item("carried", totals.carried.into_pyarray(py))?;
        u.set_item("never_acted", totals.never_acted.into_pyarray(py))?;
        u.set_item("rounds_inside", totals.rounds_inside.into_pyarray(py))?;
        u.set_item("rounds_in_reserve", totals.rounds_in_reserve.into_pyarray(py))?;
        u.set_item("routed", totals.routed.into_pyarray(py))?;
        u.set_item("shaken_at_end", totals.shaken_at_end.into_pyarray(py))?;
        units.append(u)?;
    }
    d.set_item("units", units)?;
    let traces = PyList::empty(py);
    for t in &out.traces {
        let td = PyDict::new(py);
        td.set_item("terrain", t.terrain.iter().map(piece_tuple).collect::<Vec<_>>())?;
        td.set_item("objectives", t.objectives.iter().map(|p| (p.x, p.y)).collect::<Vec<_>>())?;
        td.set_item("events", t.events.iter().map(event_tuple).collect::<Vec<_>>())?;
        traces.append(td)?;
    }
    d.set_item("traces", traces)?;
    let timers = PyDict::new(py);
    timers.set_item("line_of_sight", out.timers.line_of_sight)?;
    timers.set_item("movement", out.timers.movement)?;
    timers.set_item("dice", out.timers.dice)?;
    timers.set_item("spells", out.timers.spells)?;
    timers.set_item("transports", out.timers.transports)?;
    timers.set_item("total", out.timers.total)?;
    d.set_item("timers", timers)?;
    d.set_item("dice", out.dice)?;
    d.set_item("violations", out.violations)?;
    d.set_item("first_violation", out.first_violation)?;
    Ok(d)
}
