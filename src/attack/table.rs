//! Many attacks at once: every attacker against every target in one situation, on rayon's
//! threads, for tables of matchups (Python makes one call, not one per pair).

use super::plan::Situation;
use super::allocation::Allocation;
use super::Attack;
use crate::dice::mean;
use crate::error::{Error, Result};
use crate::limits::{MAX_TABLE_PAIRS, MAX_TABLE_WORK};
use crate::profile::Unit;
use crate::state::UnitState;
use crate::stop::Stop;
use rayon::prelude::*;

/// One pair's means, from the exact distributions.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Cell {
    pub hits: f64,
    pub wounds: f64,
    pub kills: f64,
    /// Wounds the target lost: those its models left can no longer take.
    pub removed: f64,
    pub p_destroyed: f64,
    /// The chance the target must take a morale test after the shooting (NaN in melee and in
    /// Firefight, which has wound effects instead).
    pub p_morale_test: f64,
}

/// Every pair's cell, row-major (`[attacker][target]`), and the rules each pair does not model.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    pub cells: Vec<Cell>,
    pub unmodelled: Vec<Vec<String>>,
}

/// Names the pair an error came from.
fn in_pair(error: Error, a: usize, t: usize) -> Error {
    error.in_item(&format!("attackers[{a}] against targets[{t}]"))
}

/// Each unit's removal order, built once for the whole table.
struct Orders {
    attackers: Vec<Allocation>,
    targets: Vec<Allocation>,
}

impl Orders {
    fn of(attackers: &[Unit], targets: &[Unit], edition: crate::Edition) -> Orders {
        let build = |units: &[Unit]| units.par_iter().map(|u| Allocation::new(u, edition)).collect();
        Orders { attackers: build(attackers), targets: build(targets) }
    }
}

fn attack(attackers: &[Unit], orders: &Orders, situation: &Situation, i: usize) -> Result<Attack> {
    let (a, t) = (i / orders.targets.len(), i % orders.targets.len());
    Attack::with_orders(&attackers[a], &orders.attackers[a], orders.targets[t].clone(), *situation, None, &UnitState::FRESH, &UnitState::FRESH).map_err(|e| in_pair(e, a, t))
}

/// One attack's means (all zero, and no morale test, when it has no weapon to use).
pub fn cell(attack: &Attack) -> Cell {
    // no morale test from wounds in melee, nor in Firefight (wound effects instead)
    let melee = attack.situation.melee || attack.allocation.wounds == crate::rules::effects::WoundModel::WoundEffects;
    if attack.variants.iter().all(|v| v.groups.is_empty()) {
        return Cell { p_morale_test: if melee { f64::NAN } else { 0.0 }, ..Cell::default() };
    }
    let stages = attack.exact();
    Cell {
        hits: mean(&stages.hits),
        wounds: mean(&stages.wounds),
        kills: mean(&stages.kills),
        removed: attack.allocation.removed(attack.start, &stages.ends).0,
        p_destroyed: stages.kills.get(attack.allocation.alive(attack.start) as usize).copied().unwrap_or(0.0),
        p_morale_test: if melee { f64::NAN } else { stages.p_morale_test },
    }
}

/// Every attacker against every fresh target in `situation`, exactly. Every pair is built and
/// its work checked before any is computed (so a bad pair fails at once, named); `stop` is
/// polled before each pair is built and before it is computed (`None` when it was set). The
/// first bad pair in row order is the one named.
pub fn table(attackers: &[Unit], targets: &[Unit], situation: &Situation, threads: Option<usize>, stop: &Stop) -> Result<Option<Table>> {
    let pairs = (attackers.len() as u64).saturating_mul(targets.len() as u64);
    if pairs > MAX_TABLE_PAIRS {
        return Err(Error::limit("attackers × targets", pairs, MAX_TABLE_PAIRS));
    }
    crate::pool::check_threads(threads)?;
    // small tables keep the attacks built for the check; large ones build them again rather
    // than hold up to a million at once (gigabytes). What a kept attack holds grows with its
    // target's models (tables by position).
    let target_models = targets.iter().map(|u| u64::from(u.size())).fold(0u64, u64::saturating_add);
    let keep = keeps(pairs, (attackers.len() as u64).saturating_mul(target_models));
    table_keeping(attackers, targets, situation, threads, stop, keep)
}

fn table_keeping(attackers: &[Unit], targets: &[Unit], situation: &Situation, threads: Option<usize>, stop: &Stop, keep: bool) -> Result<Option<Table>> {
    let n = attackers.len() * targets.len();
    let orders = crate::pool::install(threads, || Orders::of(attackers, targets, situation.edition))?;
    let checked: Vec<Option<Result<(u64, Vec<String>, Option<Box<Attack>>)>>> = crate::pool::install(threads, || {
        (0..n)
            .into_par_iter()
            .map(|i| {
                (!stop.is_set()).then(|| {
                    let mut a = attack(attackers, &orders, situation, i)?;
                    Ok((a.check_exact()?, std::mem::take(&mut a.unmodelled), keep.then(|| Box::new(a))))
                })
            })
            .collect()
    })?;
    if checked.iter().any(Option::is_none) {
        return Ok(None);
    }
    // the first bad pair in row order, whatever the threads
    let checked = checked.into_iter().flatten().collect::<Result<Vec<_>>>()?;
    let work = checked.iter().fold(0u64, |w, (x, ..)| w.saturating_add(*x));
    if work > MAX_TABLE_WORK {
        return Err(Error::limit("exact work of the table in steps (fewer attackers or targets)", work, MAX_TABLE_WORK));
    }
    let cells: Vec<Option<Cell>> = crate::pool::install(threads, || {
        (0..n)
            .into_par_iter()
            .map(|i| {
                if stop.is_set() {
                    return Ok(None);
                }
                match &checked[i].2 {
                    Some(a) => Ok(Some(cell(a))),
                    None => attack(attackers, &orders, situation, i).map(|a| Some(cell(&a))),
                }
            })
            .collect::<Result<Vec<_>>>()
    })??;
    if cells.iter().any(Option::is_none) {
        return Ok(None);
    }
    Ok(Some(Table { cells: cells.into_iter().flatten().collect(), unmodelled: checked.into_iter().map(|(_, u, _)| u).collect() }))
}

/// Tables of at most this many pairs keep their attacks between the check and the work, if
/// the models they hold, counted once per pair, are at most `KEEP_MODELS`.
const KEEP_BUILT: u64 = 20_000;
const KEEP_MODELS: u64 = 200_000;

/// Whether a table of `built` items holding `models` models in all keeps what it built for
/// the check until the work (the matchups' tables too).
pub(crate) fn keeps(built: u64, models: u64) -> bool {
    built <= KEEP_BUILT && models <= KEEP_MODELS
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edition::Edition;

    fn unit(text: &str) -> Unit {
        Unit::parse(text, Edition::V3_5).unwrap()
    }

    #[test]
    fn each_cell_is_the_single_attack() {
        let attackers = [unit("A [5] Q4+ D4+\n5x Rifle (24\", A2, AP(1))"), unit("B [3] Q3+ D4+\n3x Blade (A3, Rending)")];
        let targets = [unit("T [10] Q5+ D5+"), unit("U [3] Q4+ D3+ | Tough(3)"), unit("V [1] Q3+ D2+ | Tough(6)")];
        let situation = Situation::new(Edition::V3_5, false, 12.0);
        let t = table(&attackers, &targets, &situation, Some(2), &Stop::new()).unwrap().unwrap();
        assert_eq!(t.cells.len(), 6);
        for (a, attacker) in attackers.iter().enumerate() {
            for (j, target) in targets.iter().enumerate() {
                let one = Attack::new(attacker, target, situation, None, &UnitState::FRESH, &UnitState::FRESH).unwrap();
                assert_eq!(t.cells[a * 3 + j], cell(&one), "{a} {j}");
            }
        }
        let rebuilt = table_keeping(&attackers, &targets, &situation, Some(1), &Stop::new(), false).unwrap().unwrap();
        assert_eq!(rebuilt, t, "kept or built again, the same table");
        // the melee-only attacker does nothing when shooting
        assert_eq!(t.cells[3].wounds, 0.0);
        assert!(t.cells[0].wounds > 0.0);
    }

    #[test]
    fn a_bad_pair_is_named_and_a_large_table_refused() {
        let attackers = [unit("A [5] Q4+ D4+\n5x Rifle (24\", A2)")];
        let targets = [unit("T [10] Q5+ D5+")];
        let far = Situation::new(Edition::V3_5, false, f64::NAN);
        let e = table(&attackers, &targets, &far, None, &Stop::new()).unwrap_err();
        assert!(e.to_string().contains("attackers[0] against targets[0]: distance"), "{e}");
        // every pair is bad: the first in row order is named, whatever the threads
        let (three, four) = (vec![attackers[0].clone(); 3], vec![targets[0].clone(); 40]);
        for threads in [1, 2] {
            let e = table(&three, &four, &far, Some(threads), &Stop::new()).unwrap_err();
            assert!(e.to_string().contains("attackers[0] against targets[0]:"), "{e}");
        }
        let many: Vec<Unit> = (0..1415).map(|_| targets[0].clone()).collect();
        let e = table(&many, &many, &Situation::new(Edition::V3_5, false, 12.0), None, &Stop::new()).unwrap_err();
        assert!(matches!(e, Error::Limit { .. }), "{e}");
    }

    #[test]
    fn a_set_stop_returns_none() {
        let attackers = [unit("A [5] Q4+ D4+\n5x Rifle (24\", A2)")];
        let stop = Stop::new();
        stop.set();
        assert_eq!(table(&attackers, &attackers, &Situation::new(Edition::V3_5, false, 12.0), None, &stop).unwrap(), None);
    }
}
