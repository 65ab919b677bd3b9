//! One unit attacking another: weapon groups, rules into dice, where wounds go, and two
//! engines over the same semantics: exact distributions and a literal dice sampler.

pub mod allocation;
pub mod exact;
pub mod plan;
pub mod sample;

use crate::error::{Error, Result};
use crate::profile::Unit;
use allocation::Allocation;
use plan::{Group, Situation};

/// Attack dice a single exact computation takes at most (all groups together).
pub const MAX_EXACT_DICE: u32 = 5_000;
/// Samples one call takes at most.
pub const MAX_SAMPLES: u64 = 100_000_000;

/// An attack ready to compute: who, on whom, with which groups, in which situation.
pub struct Attack {
    pub allocation: Allocation,
    pub groups: Vec<Group>,
    pub situation: Situation,
    /// Rules in play that this engine does not model (reported, never silently dropped).
    pub unmodelled: Vec<String>,
}

impl Attack {
    pub fn new(attacker: &Unit, target: &Unit, situation: Situation, weapons: Option<&[String]>) -> Result<Attack> {
        if crate::rules::effects::rule_set(situation.edition).is_none() {
            return Err(Error::invalid(
                "edition",
                situation.edition.key(),
                "attack() follows Grimdark Future v3.5 so far; the other rulebooks come with the editions issue",
            ));
        }
        if !situation.distance.is_finite() || situation.distance < 0.0 {
            return Err(Error::invalid("distance", situation.distance, "must be a finite number of inches, 0 or more"));
        }
        if let Some(names) = weapons {
            let usable: Vec<String> = attacker.weapons().map(|w| w.name.clone()).collect();
            for n in names {
                if !usable.contains(n) {
                    return Err(Error::invalid("weapons", format!("{n:?}"), format!("{} has no such weapon; it has {usable:?}", attacker.name())));
                }
            }
        }
        let allocation = Allocation::new(target);
        let attacker_models = attacker.model_runs();
        let groups = plan::groups(&attacker_models, &allocation.runs, &situation, weapons);
        let total: u64 = groups.iter().map(|g| u64::from(g.dice)).sum();
        if total > u64::from(MAX_EXACT_DICE) {
            return Err(Error::limit("attack dice", total, MAX_EXACT_DICE));
        }
        Ok(Attack {
            unmodelled: plan::unmodelled_rules(&attacker_models, &allocation.runs, situation.edition),
            allocation,
            groups,
            situation,
        })
    }

    pub fn exact(&self) -> exact::Stages {
        exact::stages(&self.allocation, &self.groups, &self.situation)
    }

    pub fn sample(&self, samples: u64, seed: u64, threads: Option<usize>) -> Result<sample::Counts> {
        if samples == 0 || samples > MAX_SAMPLES {
            return Err(Error::invalid("samples", samples, format!("must be from 1 to {MAX_SAMPLES}")));
        }
        Ok(sample::sample(&self.allocation, &self.groups, &self.situation, samples, seed, threads))
    }
}
