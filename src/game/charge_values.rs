//! The charge table: every charge between the two armies' fresh units valued once, before the
//! games, by the exact melee where its work allows and by sampled exchanges where not (the
//! default policy's first read of a charge, `Prepared::charge_value`).

use crate::profile::Unit;
use crate::loaders::army_forge::{SpellDefinition, Spells};
use crate::attack::allocation::Allocation;
use super::rules::GameRules;
use crate::edition::Edition;
use crate::error::{Error, Result};
use crate::limits::MAX_PREPARATION_WORK;
use crate::melee::{exact, Melee};
use crate::state::UnitState;
use rayon::prelude::*;
use rustc_hash::FxHashMap;


/// The exact melees of one preparation may take this much work (state pairs × hits) in all,
/// a few seconds on one core; past it those the sampler plays for less are sampled instead,
/// the greatest saving first, which values them well enough for the policy. Real 2,000-point armies
/// need about 10^7.
pub(super) const EXACT_CHARGE_WORK: u64 = 200_000_000;
/// Exchanges the sampler plays (at a fixed seed) for a charge not solved exactly.
pub(super) const SAMPLED_EXCHANGES: u64 = 2_000;

/// A distinct unit of a run, as a charge's value needs it.
pub(super) struct Charger {
    alloc: Allocation,
    can_charge: bool,
    can_be_charged: bool,
    cost: f64,
}

/// How the value of every charge of a run is worked out: each distinct (charger, defender)
/// pair of units once (an army's copies of a unit share it), by the exact melee, or by the
/// sampler where the exact engine refuses it or where the exact melees together would cost
/// more than `EXACT_CHARGE_WORK` (those the sampler plays for less, the greatest saving
/// first). Made before the units' other tables,
/// so that a run over `MAX_PREPARATION_WORK` is refused before any work is done.
pub(super) struct ChargePlan {
    units: Vec<Charger>,
    /// Each army unit's index in `units`.
    ids: [Vec<usize>; 2],
    /// The distinct (charger, defender) pairs, and whether each is solved exactly.
    pairs: Vec<(usize, usize)>,
    exact: Vec<bool>,
    index: FxHashMap<(usize, usize), usize>,
}

impl ChargePlan {
    /// `charges[k]`: whether distinct unit `k` may charge and be charged (Aircraft can't be
    /// charged; Aircraft, Immobile and Artillery don't charge).
    pub(super) fn new(distinct: &[Distinct<'_>], ids: &[Vec<usize>; 2], charges: &[(bool, bool)], rules: &GameRules) -> Result<ChargePlan> {
        let edition = rules.edition;
        let units: Vec<Charger> = distinct
            .iter()
            .zip(charges)
            .map(|(d, &(can_charge, can_be_charged))| Charger { can_charge, can_be_charged, cost: f64::from(d.unit.cost().unwrap_or(0)), alloc: d.alloc.clone() })
            .collect();
        let (mut pairs, mut index) = (Vec::new(), FxHashMap::default());
        for side in 0..2 {
            for &c in &ids[side] {
                for &d in &ids[1 - side] {
                    index.entry((c, d)).or_insert_with(|| {
                        pairs.push((c, d));
                        pairs.len() - 1
                    });
                }
            }
        }
        let mut plan = ChargePlan { units, ids: ids.clone(), pairs, exact: Vec::new(), index };
        // what each costs: the exact engine's work where it takes the melee, and the sampler's
        let costs: Vec<(Option<u64>, u64)> = (0..plan.pairs.len())
            .into_par_iter()
            .map(|j| match plan.melee(j, edition) {
                Some(m) => {
                    let (exact, hits) = m.costs();
                    (exact.ok(), SAMPLED_EXCHANGES.saturating_mul(hits.max(1)))
                }
                None => (None, 0),
            })
            .collect();
        plan.exact = costs.iter().map(|(work, _)| work.is_some()).collect();
        let mut exact_work: u64 = costs.iter().filter_map(|(work, _)| *work).fold(0, u64::saturating_add);
        if exact_work > EXACT_CHARGE_WORK {
            // those the sampler plays for less, the greatest saving first
            let saving = |j: usize| costs[j].0.unwrap_or(0).saturating_sub(costs[j].1);
            let mut dearest: Vec<usize> = (0..costs.len()).filter(|&j| plan.exact[j] && saving(j) > 0).collect();
            dearest.sort_by_key(|&j| (std::cmp::Reverse(saving(j)), j));
            for j in dearest {
                if exact_work <= EXACT_CHARGE_WORK {
                    break;
                }
                plan.exact[j] = false;
                exact_work -= costs[j].0.unwrap_or(0);
            }
        }
        let total = costs.iter().zip(&plan.exact).map(|(&(work, sampled), &exact)| if exact { work.unwrap_or(0) } else { sampled }).fold(0u64, u64::saturating_add);
        if total > MAX_PREPARATION_WORK {
            return Err(Error::limit(
                "simulate preparation work (the melee of every distinct pair of units, valued before the games: state pairs × hits where exact, 2,000 exchanges × hits where sampled)",
                total,
                MAX_PREPARATION_WORK,
            ));
        }
        Ok(plan)
    }

    /// The melee of pair `j`'s charger charging its defender, both fresh; `None` where no
    /// such charge can be.
    pub(super) fn melee(&self, j: usize, edition: Edition) -> Option<Melee> {
        let (c, d) = (&self.units[self.pairs[j].0], &self.units[self.pairs[j].1]);
        if !(c.can_charge && d.can_be_charged) {
            return None;
        }
        Melee::from_allocations(c.alloc.clone(), d.alloc.clone(), &UnitState::FRESH, &UnitState::FRESH, true, 6.0, edition).ok()
    }

    /// `values[a][u][v]`: the value of unit `u` of army `a` charging unit `v` of the other
    /// army (`f64::NEG_INFINITY` where it cannot).
    /// Once `stop` is set, the pairs left are not worked out (their values are meaningless).
    pub(super) fn values(&self, edition: Edition, stop: &crate::stop::Stop) -> [Vec<Vec<f64>>; 2] {
        let values: Vec<f64> = (0..self.pairs.len())
            .into_par_iter()
            .map(|j| {
                if stop.is_set() {
                    return f64::NEG_INFINITY;
                }
                let (c, d) = (&self.units[self.pairs[j].0], &self.units[self.pairs[j].1]);
                self.melee(j, edition).map_or(f64::NEG_INFINITY, |m| charge_value(&m, self.exact[j], c, d))
            })
            .collect();
        [0, 1].map(|side| self.ids[side].iter().map(|&c| self.ids[1 - side].iter().map(|&d| values[self.index[&(c, d)]]).collect()).collect())
    }
}

/// Expected points the defender loses less those the charger loses in one fresh melee `m`,
/// exact or from the sampler's `SAMPLED_EXCHANGES`.
pub(super) fn charge_value(m: &Melee, exact: bool, charger: &Charger, defender: &Charger) -> f64 {
    let outcome = if exact { exact::exact(m) } else { crate::melee::sample::sample(m, SAMPLED_EXCHANGES, 0x00e1_1ee0, None).map(|t| t.outcome(m)).unwrap_or_default() };
    let lost = |side: usize, unit: &Charger| -> f64 {
        let per_model = unit.cost / f64::from(unit.alloc.len().max(1));
        let models = crate::dice::mean(&outcome.lost[side]);
        // a Rout (status 1) removes what is left: at most half the unit, as only units at
        // half strength or less Rout, so half its points stands for it
        let routed = outcome.status[side][1];
        models * per_model + routed * unit.cost * 0.5
    };
    lost(1, defender) - lost(0, charger)
}


/// One of the distinct units of a run (a list's copies of a unit are checked and worked out
/// once): named by its first copy's place in the armies.
pub(super) struct Distinct<'u> {
    pub(super) unit: &'u Unit,
    pub(super) spells: &'u [SpellDefinition],
    pub(super) field: String,
    pub(super) alloc: Allocation,
}

/// The distinct units of both armies, and each army unit's index among them.
pub(super) fn distinct_units<'u>(armies: [&'u [Unit]; 2], spells: [&'u [Spells]; 2], edition: Edition) -> (Vec<Distinct<'u>>, [Vec<usize>; 2]) {
    let mut distinct: Vec<Distinct<'u>> = Vec::new();
    let ids = [0, 1].map(|side| {
        armies[side]
            .iter()
            .enumerate()
            .map(|(i, u)| {
                let book: &[SpellDefinition] = spells[side].get(i).map_or(&[], |s| s);
                (i, u, book)
            })
            .map(|(i, u, book)| match distinct.iter().position(|d| d.unit == u && d.spells == book) {
                Some(k) => k,
                None => {
                    distinct.push(Distinct { unit: u, spells: book, field: format!("{}[{i}]", ["army_a", "army_b"][side]), alloc: Allocation::new(u, edition) });
                    distinct.len() - 1
                }
            })
            .collect::<Vec<usize>>()
    });
    (distinct, ids)
}

#[cfg(test)]
mod tests {

    use crate::game::prepare::{may_charge, movement, Prepared, UnitInfo};
    use super::*;

    fn units(texts: &[String]) -> Vec<Unit> {
        texts.iter().map(|t| Unit::parse(t, Edition::V3_5).unwrap()).collect()
    }

    fn plan_of(a: &[Unit], b: &[Unit]) -> Result<ChargePlan> {
        let (distinct, ids) = distinct_units([a, b], [&[], &[]], Edition::V3_5);
        let charges: Vec<(bool, bool)> = distinct.iter().map(|d| may_charge(&movement(&d.alloc.runs, Edition::V3_5, &GameRules::V3_5))).collect();
        ChargePlan::new(&distinct, &ids, &charges, &GameRules::V3_5)
    }

    #[test]
    fn copies_of_a_unit_share_their_charges() {
        let a = units(&["A [10] Q4+ D4+ | 100pts\n10x Sword (A2)".into(), "A [10] Q4+ D4+ | 100pts\n10x Sword (A2)".into(), "C [5] Q3+ D3+ | 150pts\n5x Axe (A3)".into()]);
        let b = units(&["A [10] Q4+ D4+ | 100pts\n10x Sword (A2)".into(), "B [20] Q5+ D5+ | 120pts\n20x Claws (A1)".into()]);
        let plan = plan_of(&a, &b).unwrap();
        // distinct units A, C, B: A and C charge A and B (4), and A and B charge A and C
        // (A into A is the same melee: 3 more)
        assert_eq!(plan.units.len(), 3);
        assert_eq!(plan.pairs.len(), 7);
        let values = plan.values(Edition::V3_5, &crate::stop::Stop::new());
        assert_eq!(values[0][0], values[0][1]);
        assert_eq!(values[0][0][0], values[1][0][0], "the mirror match is one melee");
        assert!(plan.exact.iter().all(|&e| e));
        // each value is its own charger's charge into its own defender, as worked out alone
        let infos = |army: &[Unit]| army.iter().map(|u| Prepared::unit(u, Allocation::new(u, Edition::V3_5), &[], &GameRules::V3_5, "x").unwrap()).collect::<Vec<_>>();
        let (ia, ib) = (infos(&a), infos(&b));
        let alone = |c: &UnitInfo, d: &UnitInfo| {
            let m = Melee::from_allocations(c.alloc.clone(), d.alloc.clone(), &UnitState::FRESH, &UnitState::FRESH, true, 6.0, Edition::V3_5).unwrap();
            let unit = |i: &UnitInfo| Charger { alloc: i.alloc.clone(), can_charge: true, can_be_charged: true, cost: i.cost };
            charge_value(&m, true, &unit(c), &unit(d))
        };
        assert_eq!(values[0][2][1], alone(&ia[2], &ib[1]), "C charging B");
        assert_eq!(values[1][1][2], alone(&ib[1], &ia[2]), "B charging C");
        assert_ne!(values[0][2][1], values[1][1][2]);
    }

    #[test]
    fn the_dearest_exact_charges_are_sampled_and_too_much_work_is_refused() {
        // each charge between these is solved exactly alone (about 10^7 steps of work), but
        // 40 of them are over EXACT_CHARGE_WORK together
        let a = units(&(0..4).map(|i| format!("A{i} [100] Q4+ D4+\n100x Sword (A3)")).collect::<Vec<_>>());
        let b = units(&(0..5).map(|i| format!("B{i} [200] Q4+ D4+\n200x Sword (A1)")).collect::<Vec<_>>());
        let plan = plan_of(&a, &b).unwrap();
        let exact = plan.exact.iter().filter(|&&e| e).count();
        assert!(exact > 0 && exact < plan.pairs.len(), "{exact} of {} exact", plan.pairs.len());
        // the sampled ones are valued, close to the exact value of the same melee
        let sampled = plan.exact.iter().position(|&e| !e).unwrap();
        let (c, d) = (&plan.units[plan.pairs[sampled].0], &plan.units[plan.pairs[sampled].1]);
        let m = plan.melee(sampled, Edition::V3_5).unwrap();
        let (by_sample, by_exact) = (charge_value(&m, false, c, d), charge_value(&m, true, c, d));
        assert!((by_sample - by_exact).abs() < 0.1 * by_exact.abs().max(1.0), "{by_sample} against {by_exact}");
        // 60 distinct units a side: some 7,200 sampled charges, refused before any is played
        let a = units(&(0..60).map(|i| format!("A{i} [100] Q4+ D4+\n100x Sword (A3)")).collect::<Vec<_>>());
        let b = units(&(0..60).map(|i| format!("B{i} [200] Q4+ D4+\n200x Sword (A1)")).collect::<Vec<_>>());
        match plan_of(&a, &b) {
            Err(Error::Limit { field, .. }) => assert!(field.contains("simulate preparation work"), "{field}"),
            Err(other) => panic!("expected the preparation limit, got {other}"),
            Ok(_) => panic!("accepted"),
        }
    }
}