//! One unit attacking another: weapon groups, rules into dice, where wounds go, and two
//! engines over the same semantics: exact distributions and a literal dice sampler.

pub mod allocation;
pub mod exact;
pub mod options;
pub mod plan;
pub mod sample;

use crate::error::{Error, Result};
use crate::profile::Unit;
use crate::rules::census::Engine;
use crate::rules::effects::WoundModel;
use crate::state::UnitState;
use allocation::{Allocation, State};
use plan::{Group, Pick, Situation};

/// Attack dice a single exact computation takes at most (all groups together).
pub const MAX_EXACT_DICE: u32 = 5_000;
/// Samples one call takes at most.
pub const MAX_SAMPLES: u64 = 100_000_000;

/// An attack ready to compute: who, on whom, with which groups, in which situation.
pub struct Attack {
    pub allocation: Allocation,
    /// The target's state when the attack begins.
    pub start: State,
    /// The target as the caller described it (its Shaken and fatigued flags carry through).
    pub target_state: UnitState,
    /// The weapon groups and situation of the first way the attack is played (see `variants`).
    pub groups: Vec<Group>,
    pub situation: Situation,
    /// Every way the attack is played, by the options the units' rules settle on (Versatile
    /// Attack picks, Unpredictable Fighter rolls), with its weight; one entry when none has options.
    pub variants: Vec<Variant>,
    /// Rules in play that this engine does not model (reported, never silently dropped).
    pub unmodelled: Vec<String>,
}

/// One way an attack is played: its situation (with the options settled), groups and weight.
#[derive(Debug, Clone)]
pub struct Variant {
    pub situation: Situation,
    pub groups: Vec<Group>,
    pub weight: f64,
}

/// Errors shared by every engine: a bad distance.
pub fn check_situation(situation: &Situation) -> Result<()> {
    if !situation.distance.is_finite() || situation.distance < 0.0 {
        return Err(Error::invalid("distance", situation.distance, "must be a finite number of inches, 0 or more"));
    }
    Ok(())
}

impl Attack {
    /// `attacker_state` and `target_state` say what each unit has lost so far; a fatigued
    /// attacker hits only on 6s in melee, a Shaken one may only strike back (as fatigued).
    pub fn new(
        attacker: &Unit,
        target: &Unit,
        mut situation: Situation,
        weapons: Option<&[String]>,
        attacker_state: &UnitState,
        target_state: &UnitState,
    ) -> Result<Attack> {
        check_situation(&situation)?;
        if let Some(names) = weapons {
            let usable: Vec<String> = attacker.weapons().map(|w| w.name.clone()).collect();
            for n in names {
                if !usable.contains(n) {
                    return Err(Error::invalid("weapons", format!("{n:?}"), format!("{} has no such weapon; it has {usable:?}", attacker.name())));
                }
            }
        }
        let set = crate::rules::effects::rule_set(situation.edition);
        if attacker_state.shaken && set.wounds == WoundModel::WoundEffects {
            return Err(Error::invalid("attacker_state.shaken", true, "Stunned models must remain idle, and \"whilst Stunned, models can't strike back\""));
        }
        if attacker_state.shaken && (!situation.melee || situation.charging) {
            return Err(Error::invalid(
                "attacker_state.shaken",
                true,
                format!("{} units must stay idle: they cannot shoot or charge, only strike back in melee (as fatigued)", set.failed_state),
            ));
        }
        situation.fatigued |= situation.melee && (attacker_state.fatigued || attacker_state.shaken);
        let attacker_order = Allocation::new(attacker, situation.edition);
        let attacker_at = attacker_order.state_of("attacker_state", attacker_state)?;
        let allocation = Allocation::new(target, situation.edition);
        let start = allocation.state_of("target_state", target_state)?;
        let attacking = attacker_order.view(attacker_at, false).alive;
        let targeted = allocation.view(start, false).alive;
        let pick = weapons.map_or(Pick::All, Pick::Named);
        let mut variants = Vec::new();
        for s in options::settle(&attacking, &allocation, start, &situation, pick) {
            let situation = Situation { attacker_option: s.attacker, target_option: s.target, ..situation };
            let groups = plan::groups(&attacking, &targeted, &situation, pick);
            let total: u64 = groups.iter().map(|g| u64::from(g.dice)).sum();
            if total > u64::from(MAX_EXACT_DICE) {
                return Err(Error::limit("attack dice", total, MAX_EXACT_DICE));
            }
            variants.push(Variant { situation, groups, weight: s.weight });
        }
        let (groups, situation) = (variants[0].groups.clone(), variants[0].situation);
        Ok(Attack {
            variants,
            unmodelled: plan::unmodelled_rules(&attacker_order.runs, &allocation.runs, situation.edition, Engine::Attack),
            start,
            target_state: *target_state,
            allocation,
            groups,
            situation,
        })
    }

    /// The exact distributions: for options, the mixture of every way the attack is played.
    pub fn exact(&self) -> exact::Stages {
        let parts: Vec<(exact::Stages, f64)> = self
            .variants
            .iter()
            .map(|v| (exact::stages(&self.allocation, &v.groups, &v.situation, self.start, &self.target_state), v.weight))
            .collect();
        exact::Stages::mix(parts)
    }

    pub fn sample(&self, samples: u64, seed: u64, threads: Option<usize>) -> Result<sample::Counts> {
        if samples == 0 || samples > MAX_SAMPLES {
            return Err(Error::invalid("samples", samples, format!("must be from 1 to {MAX_SAMPLES}")));
        }
        Ok(sample::sample(self, samples, seed, threads))
    }
}
