//! Points: the cost features of many units at once (in parallel, the GIL released), and
//! efficiency with the full exact engine. The fitting itself is numpy in `_points.py`.

use super::convert::edition;
use super::errors::run;
use super::profile::PyUnit;
use crate::cost::efficiency::{self, Mode, MODES};
use crate::cost::features::Panel;
use crate::cost::panel::{ATTACKERS, TARGETS};
use crate::error::Error;
use crate::rules::spells::Spell;
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rayon::prelude::*;
use std::collections::HashMap;

/// Units one call prices at most (the 43 real books hold 1,013, with every option 7,666).
const MAX_UNITS: usize = 100_000;

/// The terms of every unit as a sparse table: per term its unit, kind, label and priced
/// names; per entry its term, feature and value; plus the feature names and, per unit, the
/// rules the engine does not model.
#[pyfunction]
#[pyo3(signature = (units, edition="3.5"))]
pub fn _cost_terms<'py>(py: Python<'py>, units: Vec<PyRef<'py, PyUnit>>, edition: &str) -> PyResult<Bound<'py, PyDict>> {
    if units.len() > MAX_UNITS {
        return Err(Error::limit("units", units.len(), MAX_UNITS).into());
    }
    let edition = self::edition(edition)?;
    let units: Vec<(crate::Unit, Vec<(String, Spell)>)> = units.iter().map(|u| (u.inner.clone(), book_spells(u))).collect();
    let panel = Panel::new(edition)?;
    let priced = run(py, || Ok(units.par_iter().map(|(u, spells)| panel.terms_with_spells(u, spells)).collect::<Vec<_>>()))?;
    let mut index: HashMap<String, u32> = HashMap::new();
    let mut names: Vec<String> = Vec::new();
    let (mut term_unit, mut kinds, mut labels, mut term_names) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut entry_term, mut entry_feature, mut entry_value) = (Vec::new(), Vec::new(), Vec::new());
    let mut unmodelled = Vec::with_capacity(priced.len());
    // shares: (term, slot name, coefficient); each model group of each unit numbered apart
    let (mut share_term, mut share_name, mut share_coef, mut term_group) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let mut groups = 0u32;
    for (u, p) in priced.into_iter().enumerate() {
        let first_group = groups;
        for term in p.terms {
            let t = term_unit.len() as u32;
            term_unit.push(u as u32);
            term_group.push(first_group + term.group);
            groups = groups.max(first_group + term.group + 1);
            for (name, coef) in term.shares {
                share_term.push(t);
                share_name.push(name);
                share_coef.push(coef);
            }
            kinds.push(term.kind.name());
            labels.push(term.label);
            term_names.push(term.names);
            for (name, value) in term.features {
                let next = names.len() as u32;
                let f = *index.entry(name.clone()).or_insert_with(|| {
                    names.push(name);
                    next
                });
                entry_term.push(t);
                entry_feature.push(f);
                entry_value.push(value);
            }
        }
        unmodelled.push(p.unmodelled);
    }
    let out = PyDict::new(py);
    out.set_item("features", names)?;
    out.set_item("term_unit", term_unit.into_pyarray(py))?;
    out.set_item("kinds", kinds)?;
    out.set_item("labels", labels)?;
    out.set_item("names", term_names)?;
    out.set_item("entry_term", entry_term.into_pyarray(py))?;
    out.set_item("entry_feature", entry_feature.into_pyarray(py))?;
    out.set_item("entry_value", entry_value.into_pyarray(py))?;
    out.set_item("unmodelled", unmodelled)?;
    out.set_item("term_group", term_group.into_pyarray(py))?;
    out.set_item("share_term", share_term.into_pyarray(py))?;
    out.set_item("share_name", share_name)?;
    out.set_item("share_coef", share_coef.into_pyarray(py))?;
    Ok(out)
}

fn modes(keys: Option<Vec<String>>) -> PyResult<Vec<Mode>> {
    let Some(keys) = keys else { return Ok(MODES.to_vec()) };
    keys.iter()
        .map(|k| {
            MODES.iter().chain([&efficiency::CASTING]).find(|m| m.key == k).copied().ok_or_else(|| {
                let known: Vec<&str> = MODES.iter().chain([&efficiency::CASTING]).map(|m| m.key).collect();
                Error::invalid("modes", format!("{k:?}"), format!("must be some of {known:?}")).into()
            })
        })
        .collect()
}

/// The spells of a unit's book that the library reads, by name.
fn book_spells(unit: &PyUnit) -> Vec<(String, Spell)> {
    unit.book.spells.iter().filter_map(|d| Some((d.name.clone(), d.spell.clone()?))).collect()
}

/// Expected wounds, kills and the chance to destroy, `[mode][target]` as flat arrays.
#[pyfunction]
#[pyo3(signature = (unit, targets, *, modes=None, edition="3.5"))]
pub fn _efficiency<'py>(
    py: Python<'py>,
    unit: PyRef<'py, PyUnit>,
    targets: Vec<(PyRef<'py, PyUnit>, bool)>,
    modes: Option<Vec<String>>,
    edition: &str,
) -> PyResult<Bound<'py, PyDict>> {
    let edition = self::edition(edition)?;
    let modes = self::modes(modes)?;
    let spells = book_spells(&unit);
    let unit = unit.inner.clone();
    let targets: Vec<(crate::Unit, bool)> = targets.iter().map(|(t, c)| (t.inner.clone(), *c)).collect();
    let damage = run(py, || efficiency::damage(&unit, &spells, &targets, &modes, edition))?;
    let out = PyDict::new(py);
    out.set_item("modes", modes.iter().map(|m| m.key).collect::<Vec<_>>())?;
    out.set_item("wounds", damage.wounds.into_pyarray(py))?;
    out.set_item("kills", damage.kills.into_pyarray(py))?;
    out.set_item("destroyed", damage.destroyed.into_pyarray(py))?;
    Ok(out)
}

/// `(attacker key, points of its attacks to destroy the unit)`.
#[pyfunction]
#[pyo3(signature = (unit, *, edition="3.5"))]
pub fn _durability(py: Python<'_>, unit: PyRef<'_, PyUnit>, edition: &str) -> PyResult<Vec<(&'static str, f64)>> {
    let edition = self::edition(edition)?;
    let unit = unit.inner.clone();
    let rows = run(py, || efficiency::durability(&unit, edition))?;
    Ok(rows.into_iter().map(|(k, _, p)| (k, p)).collect())
}

/// The reference attackers: `(key, profile, nominal points)`.
#[pyfunction]
#[pyo3(signature = (edition="3.5"))]
pub fn _reference_attackers(edition: &str) -> PyResult<Vec<(&'static str, &'static str, u32)>> {
    let e = self::edition(edition)?;
    ATTACKERS.iter().map(|a| Ok((a.key, a.profile, a.unit(e)?.cost().unwrap_or(0)))).collect()
}

/// The reference targets: `(key, unit, in cover)`.
#[pyfunction]
#[pyo3(signature = (edition="3.5"))]
pub fn _reference_targets(edition: &str) -> PyResult<Vec<(&'static str, PyUnit, bool)>> {
    let e = self::edition(edition)?;
    TARGETS.iter().map(|t| Ok((t.key, PyUnit::new_value(t.unit(e)?, e), t.cover))).collect()
}

/// The target of an efficiency curve at Defense `defense`+ and Tough(`tough`).
#[pyfunction]
#[pyo3(signature = (defense, tough, edition="3.5"))]
pub fn _curve_target(defense: i64, tough: i64, edition: &str) -> PyResult<PyUnit> {
    let e = self::edition(edition)?;
    let d = u8::try_from(defense).map_err(|_| Error::invalid("defense", defense, "must be from 2 to 6 (Defense 2+ to 6+)"))?;
    let t = u32::try_from(tough).map_err(|_| Error::invalid("tough", tough, "must be 1 or more"))?;
    Ok(PyUnit::new_value(efficiency::curve_target(d, t, e)?, e))
}

/// The ways of attacking efficiency is measured in.
#[pyfunction]
pub fn _efficiency_modes() -> Vec<&'static str> {
    MODES.iter().map(|m| m.key).collect()
}
