//! What an exact computation will cost, estimated from its weapon groups before any
//! distribution is built, so a request too large is refused at once rather than after
//! minutes of work or an allocation that aborts the process. The estimates follow the loops
//! of `exact.rs` (see each term); the limits they are held to are in `crate::limits`.

use super::plan::{DieModel, Group};
use crate::error::{Error, Result};
use crate::limits::{MAX_EXACT_CELLS, MAX_EXACT_DICE, MAX_EXACT_HITS, MAX_EXACT_HITS_PER_DIE, MAX_EXACT_STATES, MAX_EXACT_WORK, MAX_SAMPLER_CELLS};

impl DieModel {
    /// The most hits one die can deal, an extra die (v2 Relentless) included.
    pub fn max_hits(&self) -> u64 {
        let per_face = u64::from(self.multiplier) * (u64::from(self.six_multiplier.max(1)) + u64::from(self.extra_hits_on_six));
        per_face * if self.extra_die_on_six { 2 } else { 1 }
    }

    /// The most wounds one unblocked hit can deal (Shred, Rupture), before Deadly.
    pub fn max_wounds_per_hit(&self) -> u64 {
        1 + u64::from(self.extra_wounds_block_one) + u64::from(self.extra_wounds_unblocked_six)
    }
}

/// The running size of an exact computation: every term saturates, so no input overflows it.
#[derive(Debug, Default, Clone, Copy)]
pub struct Budget {
    pub dice: u64,
    pub hits: u64,
    pub work: u64,
    pub cells: u64,
    /// Wounds dealt so far at most (before Deadly): bounds the states a group starts from.
    pub wounds: u64,
    /// The most hits one die of any group can deal.
    pub worst_die: u64,
}

fn mul(values: &[u64]) -> u64 {
    values.iter().fold(1u64, |acc, &v| acc.saturating_mul(v))
}

impl Budget {
    /// Adds one group of `dice` dice judged by `dm`. `die_models`: how many different die
    /// models the group can have over the target's states (each builds its distributions);
    /// `joint`: whether the joint distributions of several groups are built (an attack with
    /// more than one group); `reachable`: target states the group can start from.
    pub fn add_group(&mut self, dice: u64, dm: &DieModel, die_models: u64, joint: bool, reachable: u64) {
        let hits_per_die = dm.max_hits();
        let wounds_per_die = hits_per_die.saturating_mul(dm.max_wounds_per_hit());
        let hits = dice.saturating_mul(hits_per_die);
        let wounds = dice.saturating_mul(wounds_per_die);
        // `die_outcomes`: per face, one merge pass per hit over a list of (unblocked, wounds) pairs
        let pairs = mul(&[hits_per_die + 1, wounds_per_die.saturating_add(1)]);
        let mut work = mul(&[6, hits_per_die, pairs, pairs]);
        let mut cells = mul(&[3, hits.saturating_add(1)]);
        if joint {
            // `joint_power`: dice passes over a (hits × wounds) table, for hits and unblocked
            work = work.saturating_add(mul(&[2, dice, hits.saturating_add(1), wounds.saturating_add(1), pairs.min(16)]));
            cells = cells.saturating_add(mul(&[4, hits.saturating_add(1), wounds.saturating_add(1)]));
            // `propagate`: for each state and wound count, the hits so far are shifted by each hit count
            let so_far = self.hits.saturating_add(hits).saturating_add(1);
            work = work.saturating_add(mul(&[reachable, wounds.saturating_add(1), hits.saturating_add(1), so_far]));
            cells = cells.saturating_add(mul(&[6, reachable, so_far]));
        } else {
            // `WoundCache` (melee) keeps the wound pmf of every number of dice up to `dice`
            cells = cells.saturating_add(mul(&[dice, wounds.saturating_add(1)]) / 2);
            work = work.saturating_add(mul(&[dice, wounds.saturating_add(1), wounds_per_die.saturating_add(1)]));
        }
        self.dice = self.dice.saturating_add(dice);
        self.hits = self.hits.saturating_add(hits);
        self.work = self.work.saturating_add(work.saturating_mul(die_models));
        self.cells = self.cells.saturating_add(cells.saturating_mul(die_models));
        self.wounds = self.wounds.saturating_add(wounds.saturating_mul(u64::from(dm.deadly.max(1))));
        self.worst_die = self.worst_die.max(hits_per_die);
    }

    /// Refuses the computation if any measure is over its limit; `what` names it in the message.
    pub fn check(&self, what: &str) -> Result<()> {
        let advice = "use method=\"sample\"";
        if self.dice > MAX_EXACT_DICE {
            return Err(Error::limit(format!("{what} dice (exact; {advice})"), self.dice, MAX_EXACT_DICE));
        }
        if self.worst_die > MAX_EXACT_HITS_PER_DIE {
            return Err(Error::limit(format!("{what} hits of one die after Blast and other multipliers (exact; {advice})"), self.worst_die, MAX_EXACT_HITS_PER_DIE));
        }
        if self.hits > MAX_EXACT_HITS {
            return Err(Error::limit(format!("{what} hits after Blast and other multipliers (exact; {advice})"), self.hits, MAX_EXACT_HITS));
        }
        if self.cells > MAX_EXACT_CELLS {
            return Err(Error::limit(format!("{what} memory in probability cells (exact; {advice})"), self.cells, MAX_EXACT_CELLS));
        }
        if self.work > MAX_EXACT_WORK {
            return Err(Error::limit(format!("{what} work in steps, about dice³ for several weapon groups (exact; {advice})"), self.work, MAX_EXACT_WORK));
        }
        Ok(())
    }
}

/// Refuses a target with more states than the exact engine keeps distributions for.
pub fn check_states(field: &str, states: u64) -> Result<()> {
    if states > MAX_EXACT_STATES {
        return Err(Error::limit(format!("{field} states (models × Tough × a joined hero's Tough; exact; use method=\"sample\")"), states, MAX_EXACT_STATES));
    }
    Ok(())
}

/// Die models a group can have over the target's states: Blast's cap follows the models
/// alive, and the Defense used changes when a joined hero is left alone.
pub fn die_models(dm: &DieModel) -> u64 {
    2 * u64::from(dm.multiplier.max(1))
}

/// The size of an exact computation of `groups` (each with its die model at the start)
/// against a target with `states` states. `joint`: an attack of several groups; `single`:
/// an attack of one group (a melee's groups are neither: judged in every state, alone).
pub fn of_groups<'a>(groups: impl IntoIterator<Item = (&'a Group, DieModel)>, joint: bool, single: bool, states: u64) -> Budget {
    let mut budget = Budget::default();
    for (group, dm) in groups {
        let reachable = states.min(budget.wounds.saturating_add(1).saturating_mul(2));
        // one attack group is judged once, at the start; several are judged in every state
        let models = if joint || !single { die_models(&dm) } else { 1 };
        budget.add_group(u64::from(group.dice), &dm, models, joint, reachable);
    }
    budget
}

/// Refuses a sampled attack whose dense tables (a die model per group and target state) are
/// over the sampler's limit.
pub fn check_sampler_states(field: &str, states: u64, groups: u64) -> Result<()> {
    let cells = states.saturating_mul(groups.max(1));
    if cells > MAX_SAMPLER_CELLS {
        return Err(Error::limit(format!("{field} states × weapon groups (sampled)"), cells, MAX_SAMPLER_CELLS));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::attack::plan::Situation;
    use crate::attack::Attack;
    use crate::edition::Edition;
    use crate::error::Error;
    use crate::profile::Unit;
    use crate::state::UnitState;

    fn attack(attacker: &str, target: &str, edition: Edition) -> crate::Result<Attack> {
        let (a, t) = (Unit::parse(attacker, edition).unwrap(), Unit::parse(target, edition).unwrap());
        Attack::new(&a, &t, Situation::new(edition, false, 12.0), None, &UnitState::FRESH, &UnitState::FRESH)
    }

    fn refused_for(result: crate::Result<u64>) -> String {
        match result {
            Err(Error::Limit { field, .. }) => field,
            other => panic!("expected a limit, got {other:?}"),
        }
    }

    #[test]
    fn real_sized_attacks_pass() {
        let a = attack("S [20] Q4+ D4+\n20x Gun (24\", A2, AP(1)), 2x Mortar (24\", A1, Blast(6)), Las (24\", A1, Deadly(3))", "T [20] Q4+ D4+ | Tough(3)", Edition::V3_5).unwrap();
        assert!(a.check_exact().unwrap() < crate::limits::MAX_EXACT_WORK / 1000);
    }

    #[test]
    fn what_costs_time_and_memory_is_refused() {
        let two_groups = attack("S [1000] Q4+ D4+\n1000x Gun (24\", A1), 1000x Las (24\", A1, AP(1))", "T [10] Q4+ D4+", Edition::V3_5).unwrap();
        assert!(refused_for(two_groups.check_exact()).contains("work"));
        let blast = attack("S [101] Q4+ D4+\n101x Mortar (24\", A1, Blast(100))", "T [200] Q4+ D4+", Edition::V3_5).unwrap();
        assert!(refused_for(blast.check_exact()).contains("after Blast"));
        let one_die = attack("S [1] Q4+ D4+\nMortar (24\", A1, Blast(1000))", "T [1000] Q4+ D4+ | Regeneration", Edition::V2).unwrap();
        assert!(refused_for(one_die.check_exact()).contains("one die"));
        let (big, hero) = (Unit::parse("B [999] Q4+ D4+ | Tough(1000)", Edition::V2).unwrap(), Unit::parse("H [1] Q4+ D4+ | Hero, Tough(1000)", Edition::V2).unwrap());
        let target = big.join(&hero, Edition::V2).unwrap();
        let gun = Unit::parse("S [1] Q4+ D4+\nGun (24\", A1), Las (24\", A1, AP(1))", Edition::V2).unwrap();
        let states = Attack::new(&gun, &target, Situation::new(Edition::V2, false, 12.0), None, &UnitState::FRESH, &UnitState::FRESH).unwrap();
        assert!(refused_for(states.check_exact()).contains("target states"));
    }

    #[test]
    fn dice_past_32_bits_stay_over_the_limit() {
        let guns: Vec<String> = (0..5).map(|i| format!("1000x Gun{i} (24\", A1000)")).collect();
        let text = format!("S [1000] Q4+ D4+\n{}", guns.join(", "));
        match attack(&text, "T [1] Q4+ D4+", Edition::V3_5) {
            Err(Error::Limit { value, .. }) => assert!(value.parse::<u64>().unwrap() > u64::from(u32::MAX) / 1000),
            Err(other) => panic!("expected the dice limit, got {other}"),
            Ok(_) => panic!("4,294,968,000 dice were accepted"),
        }
    }
}
