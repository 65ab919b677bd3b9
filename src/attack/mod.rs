//! One unit attacking another: weapon groups, rules into dice, where wounds go, and two
//! engines over the same semantics: exact distributions and a literal dice sampler.

pub mod allocation;
pub mod budget;
pub mod exact;
pub mod options;
pub mod plan;
pub mod sample;
pub mod table;

use crate::error::{Error, Result};
use crate::profile::Unit;
use crate::rules::census::Engine;
use crate::rules::effects::WoundModel;
use crate::state::UnitState;
use allocation::{Allocation, State};
use plan::{Group, Pick, Situation};

pub use crate::limits::{MAX_EXACT_DICE, MAX_SAMPLES};
use crate::limits::MAX_SAMPLED_DICE;

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
        situation: Situation,
        weapons: Option<&[String]>,
        attacker_state: &UnitState,
        target_state: &UnitState,
    ) -> Result<Attack> {
        let attacker_order = Allocation::new(attacker, situation.edition);
        Attack::with_orders(attacker, &attacker_order, Allocation::new(target, situation.edition), situation, weapons, attacker_state, target_state)
    }

    /// [`Attack::new`] with the removal orders of both units already built (`attacker_order`
    /// and `allocation` from `Allocation::new` under the situation's edition): many attacks
    /// between the same units build them once.
    #[allow(clippy::too_many_arguments)]
    pub fn with_orders(
        attacker: &Unit,
        attacker_order: &Allocation,
        allocation: Allocation,
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
        let attacker_at = attacker_order.state_of("attacker_state", attacker_state)?;
        let start = allocation.state_of("target_state", target_state)?;
        let attacking = attacker_order.view(attacker_at, false).alive;
        let targeted = allocation.view(start, false).alive;
        let pick = weapons.map_or(Pick::All, Pick::Named);
        let mut variants = Vec::new();
        for s in options::settle(&attacking, &allocation, start, &situation, pick) {
            let situation = Situation { attacker_option: s.attacker, target_option: s.target, ..situation };
            let groups = plan::groups(&attacking, &targeted, &situation, pick);
            let total: u64 = groups.iter().map(|g| u64::from(g.dice)).sum();
            if total > MAX_EXACT_DICE {
                return Err(Error::limit("attack dice", total, MAX_EXACT_DICE));
            }
            variants.push(Variant { situation, groups, weight: s.weight });
        }
        let (groups, situation) = (variants[0].groups.clone(), variants[0].situation);
        // (the views borrow `allocation`, which moves into the attack)
        drop((attacking, targeted));
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

    /// A damage spell's hits on `target` ("Pick one enemy unit within 12", which takes 6
    /// hits with AP(1)"): no cover (a spell is not a shot), no roll to hit. The target's
    /// rules with spell clauses the engines do not play yet (Resistance, Knightborn,
    /// Shielded) are reported as unmodelled, as are the spell's own unmodelled rules.
    pub fn from_spell(spell: &crate::rules::spells::Spell, name: &str, target: &Unit, edition: crate::Edition, target_state: &UnitState) -> Result<Attack> {
        let Some(group) = spell.hits_group(edition) else {
            return Err(Error::invalid("spell", name, format!("deals no hits (\"{}\"): only damage spells roll as attacks", spell.text())));
        };
        if u64::from(group.dice) > MAX_EXACT_DICE {
            return Err(Error::limit("spell hits", group.dice, MAX_EXACT_DICE));
        }
        let situation = Situation::spell(edition, f64::from(spell.targets.range));
        let allocation = Allocation::new(target, edition);
        let start = allocation.state_of("target_state", target_state)?;
        let mut unmodelled = plan::unmodelled_rules(&[], &allocation.runs, edition, Engine::Attack);
        // the spell's own rules the attack engine does not play
        for n in group.rules.iter().map(|r| &r.name).filter(|n| crate::rules::census::ignored_by(edition, n, Engine::Attack)) {
            if !unmodelled.contains(n) {
                unmodelled.push(n.clone());
            }
        }
        let groups = vec![group];
        Ok(Attack { variants: vec![Variant { situation, groups: groups.clone(), weight: 1.0 }], unmodelled, start, target_state: *target_state, allocation, groups, situation })
    }

    /// The exact distributions: for options, the mixture of every way the attack is played.
    pub fn exact(&self) -> exact::Stages {
        let mut charged: Vec<(State, f64)> = Vec::new();
        self.allocation.landings(self.charged(), |s, p| charged.push((s, p)));
        let mut parts: Vec<(exact::Stages, f64)> = Vec::new();
        for v in &self.variants {
            for &(start, p) in &charged {
                parts.push((exact::stages_from(&self.allocation, &v.groups, &v.situation, self.start, start, &self.target_state), v.weight * p));
            }
        }
        exact::Stages::mix(parts)
    }

    /// Firefight: "If Stunned models ... are charged again, then they are Knocked Out
    /// immediately" (Tough: one wound instead): where a charge leaves the target before any
    /// blow, as in `melee()`. Elsewhere nowhere new.
    pub fn charged(&self) -> allocation::Landing {
        if self.situation.melee && self.situation.charging {
            self.allocation.hit_while_stunned(self.start, 1, 0)
        } else {
            allocation::Landing::At(self.start)
        }
    }

    /// Refuses an attack too large for the exact engine (memory, work, dice after
    /// multipliers), before anything is built; the sampler takes it. Gives the estimated
    /// work, for callers that run many attacks.
    pub fn check_exact(&self) -> Result<u64> {
        let states = self.allocation.state_count() as u64;
        budget::check_states("target", states)?;
        let mut work = 0u64;
        for v in &self.variants {
            let dms = v.groups.iter().map(|g| (g, plan::die_model(g, &v.situation, &self.allocation.view(self.start, g.takedown))));
            let b = budget::of_groups(dms, v.groups.len() > 1, v.groups.len() == 1, states);
            b.check("attack")?;
            work = work.saturating_add(b.work);
        }
        Ok(work)
    }

    /// The most hits one roll of the attack can produce (dice after multipliers): what one
    /// sample costs.
    pub fn hits_per_sample(&self) -> u64 {
        let view = |g: &Group| self.allocation.view(self.start, g.takedown);
        self.variants
            .iter()
            .map(|v| v.groups.iter().map(|g| u64::from(g.dice).saturating_mul(plan::die_model(g, &v.situation, &view(g)).max_hits().max(1))).fold(0u64, u64::saturating_add))
            .max()
            .unwrap_or(0)
    }

    /// Rolls the attack; `stop` is polled between chunks (set it to return early, with `None`).
    pub fn sample(&self, samples: u64, seed: u64, threads: Option<usize>, stop: &crate::stop::Stop) -> Result<Option<sample::Counts>> {
        check_samples(samples, self.hits_per_sample())?;
        // the sampler keeps a die model per group and target state
        let groups = self.variants.iter().map(|v| v.groups.len() as u64).sum::<u64>();
        budget::check_sampler_states("target", self.allocation.state_count() as u64, groups)?;
        crate::pool::check_threads(threads)?;
        sample::sample(self, samples, seed, threads, stop)
    }
}

/// Refuses a unit whose attack rolls more dice than any engine takes: shooting at a target
/// in range of every weapon, or charging with its Impact dice. A game rolls these dice in
/// every activation, and prepares an exact melee for every charge.
pub fn check_attack_dice(order: &Allocation, edition: crate::Edition, field: &str) -> Result<()> {
    let models = order.view(order.start(), false).alive;
    for melee in [false, true] {
        let situation = Situation { charging: melee, ..Situation::new(edition, melee, 0.0) };
        let dice = plan::groups(&models, &[], &situation, Pick::All).iter().map(|g| u64::from(g.dice)).fold(0u64, u64::saturating_add);
        if dice > MAX_EXACT_DICE {
            let what = if melee { "melee dice, Impact included" } else { "shooting dice" };
            return Err(Error::limit(format!("{field} {what}"), dice, MAX_EXACT_DICE));
        }
    }
    Ok(())
}

/// Refuses a sampled call whose dice (samples × hits per sample) are over the limit.
pub fn check_samples(samples: u64, hits_per_sample: u64) -> Result<()> {
    if samples == 0 || samples > MAX_SAMPLES {
        return Err(Error::invalid("samples", samples, format!("must be from 1 to {MAX_SAMPLES}")));
    }
    let dice = samples.saturating_mul(hits_per_sample.max(1));
    if dice > MAX_SAMPLED_DICE {
        return Err(Error::limit("sampled dice (samples × hits per sample after Blast and other multipliers)", dice, MAX_SAMPLED_DICE));
    }
    Ok(())
}
