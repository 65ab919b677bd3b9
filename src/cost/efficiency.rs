//! Damage per point, with the full exact engine: expected wounds and models killed by a unit
//! against each target in each way of attacking, and the points of reference attacks it
//! takes to destroy the unit.

use super::panel::ATTACKERS;
use crate::attack::plan::Situation;
use crate::attack::Attack;
use crate::dice::mean;
use crate::edition::Edition;
use crate::error::{Error, Result};
use crate::limits::MAX_EXACT_WORK;
use crate::profile::Unit;
use crate::state::UnitState;
use crate::rules::spells::{best_set, cast_chance, round_tokens, Spell};

/// A way of attacking: shooting at a distance, or melee charging or charged.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Mode {
    pub key: &'static str,
    pub melee: bool,
    pub charging: bool,
    pub distance: f64,
}

/// Shooting at typical ranges (12" and 24", not having moved), melee charging and charged.
pub const MODES: &[Mode] = &[
    Mode { key: "shoot 12", melee: false, charging: false, distance: 12.0 },
    Mode { key: "shoot 24", melee: false, charging: false, distance: 24.0 },
    Mode { key: "charge", melee: true, charging: true, distance: 6.0 },
    Mode { key: "charged", melee: true, charging: false, distance: 6.0 },
];

/// A caster's round of spells: the best set of its damage spells its tokens of one round pay
/// for, each cast on the fresh target at the bare chance (`casting_row`). Not among `MODES`:
/// `efficiency()` adds it for a unit with a caster and spells. Its `distance` is not read: each
/// spell is rolled at its own range, as `attack(spell, target)` rolls it.
pub const CASTING: Mode = Mode { key: "casting", melee: false, charging: false, distance: 12.0 };

/// Targets in one call at most (each is one exact attack per mode).
pub const MAX_TARGETS: usize = 1_000;

/// Means over the targets, mode by mode (`[mode][target]`, row-major).
#[derive(Debug, Clone, PartialEq)]
pub struct Damage {
    pub wounds: Vec<f64>,
    pub kills: Vec<f64>,
    pub destroyed: Vec<f64>,
}

impl Mode {
    /// The attack's situation against a target (in cover or not), fresh and not having moved.
    pub fn situation(&self, cover: bool, edition: Edition) -> Situation {
        Situation { charging: self.charging, cover: cover && !self.melee, ..Situation::new(edition, self.melee, self.distance) }
    }
}

/// Expected wounds, expected models killed and the chance to destroy, of `unit` attacking
/// each of `targets` (`(unit, in cover)`) in each of `modes` (`CASTING`: with `spells`, its
/// book's).
pub fn damage(unit: &Unit, spells: &[(String, Spell)], targets: &[(Unit, bool)], modes: &[Mode], edition: Edition) -> Result<Damage> {
    if targets.len() > MAX_TARGETS {
        return Err(Error::limit("targets", targets.len(), MAX_TARGETS));
    }
    let n = modes.len() * targets.len();
    let mut attacks = Vec::with_capacity(n);
    // each casting cell: its spells' attacks (indices into `attacks`) and their tokens
    let mut casting: Vec<Vec<(usize, u8)>> = Vec::new();
    let tokens = round_tokens(&crate::attack::allocation::Allocation::new(unit, edition));
    // each cell: its attack (an index into `attacks`), or its casting cell (into `casting`)
    let mut rows: Vec<std::result::Result<usize, usize>> = Vec::with_capacity(n);
    for mode in modes {
        for (target, cover) in targets {
            if mode.key == CASTING.key {
                let mut cell = Vec::new();
                for (name, spell) in spells.iter().filter(|(_, s)| u32::from(s.tokens) <= tokens && s.damage_group(edition).is_some()) {
                    cell.push((attacks.len(), spell.tokens));
                    attacks.push(Attack::from_spell(spell, name, target, edition, &UnitState::FRESH)?);
                }
                rows.push(Err(casting.len()));
                casting.push(cell);
            } else {
                rows.push(Ok(attacks.len()));
                attacks.push(Attack::new(unit, target, mode.situation(*cover, edition), None, &UnitState::FRESH, &UnitState::FRESH)?);
            }
        }
    }
    check_together(&attacks, "efficiency work in steps (every target × mode together; fewer targets)")?;
    let mut out = Damage { wounds: Vec::with_capacity(n), kills: Vec::with_capacity(n), destroyed: Vec::with_capacity(n) };
    let results: Vec<(f64, f64, f64)> = attacks.iter().map(one).collect();
    for row in rows {
        let (w, k, d) = match row {
            Ok(a) => results[a],
            Err(c) => casting_row(&casting[c], &results, tokens),
        };
        out.wounds.push(w);
        out.kills.push(k);
        out.destroyed.push(d);
    }
    Ok(out)
}

/// A casting cell: the set of spells within `tokens` whose expected wounds together are
/// highest, each cast at the bare chance ("on 4+"): expected wounds and kills are the sums of
/// each spell's on the fresh target times the chance (the spells' overkill on one another is
/// not taken off), and the chance to destroy that some one spell destroys it.
fn casting_row(cell: &[(usize, u8)], results: &[(f64, f64, f64)], tokens: u32) -> (f64, f64, f64) {
    let chance = cast_chance(0);
    let options: Vec<(u8, f64)> = cell.iter().map(|&(a, t)| (t, results[a].0)).collect();
    let chosen: Vec<&(f64, f64, f64)> = best_set(tokens, &options, |_| 0.0).into_iter().map(|i| &results[cell[i].0]).collect();
    let spared: f64 = chosen.iter().map(|r| 1.0 - chance * r.2).product();
    (chance * chosen.iter().map(|r| r.0).sum::<f64>(), chance * chosen.iter().map(|r| r.1).sum::<f64>(), 1.0 - spared)
}

/// One attack's expected wounds, expected kills and chance to destroy the target.
fn one(attack: &Attack) -> (f64, f64, f64) {
    let c = crate::attack::table::cell(attack);
    (c.wounds, c.kills, c.p_destroyed)
}

/// For each reference attacker: `(key, its nominal points, points of its attacks needed in
/// expectation to deal all of `unit`'s wounds)`, the ratio of the unit's wounds to the
/// expected wounds of one activation of the attacker, times the attacker's points.
pub fn durability(unit: &Unit, edition: Edition) -> Result<Vec<(&'static str, u32, f64)>> {
    let total: f64 = unit.model_runs().iter().map(|(m, n)| f64::from(m.tough) * f64::from(*n)).sum();
    let (mut attacks, mut costs) = (Vec::with_capacity(ATTACKERS.len()), Vec::with_capacity(ATTACKERS.len()));
    for reference in ATTACKERS {
        let attacker = reference.unit(edition)?;
        let mode = if reference.melee { MODES[2] } else { MODES[0] };
        attacks.push(Attack::new(&attacker, unit, mode.situation(false, edition), None, &UnitState::FRESH, &UnitState::FRESH)?);
        costs.push(attacker.cost().unwrap_or(100));
    }
    check_together(&attacks, "durability work in steps (every reference attacker together)")?;
    let mut out = Vec::with_capacity(ATTACKERS.len());
    for ((reference, cost), attack) in ATTACKERS.iter().zip(costs).zip(attacks) {
        let wounds = mean(&attack.exact().wounds);
        let points = if wounds > 0.0 { f64::from(cost) * total / wounds } else { f64::INFINITY };
        out.push((reference.key, cost, points));
    }
    Ok(out)
}

/// Refuses attacks whose exact work together is over `MAX_EXACT_WORK` (each is refused alone
/// over its own limits too), before any is computed, so that a refusal comes at once; `what`
/// names the request in the message.
fn check_together(attacks: &[Attack], what: &str) -> Result<()> {
    let mut work = 0u64;
    for attack in attacks.iter().filter(|a| !a.groups.is_empty()) {
        work = work.saturating_add(attack.check_exact()?);
    }
    if work > MAX_EXACT_WORK {
        return Err(Error::limit(what, work, MAX_EXACT_WORK));
    }
    Ok(())
}

/// The targets of an efficiency curve: a unit of Defense `d`+ and Tough(`t`), of ten wounds
/// (ten models of Tough 1, three of Tough 3, one of Tough 12, ...), Quality 4+.
pub fn curve_target(defense: u8, tough: u32, edition: Edition) -> Result<Unit> {
    if !(2..=6).contains(&defense) {
        return Err(Error::invalid("defense", defense, "must be from 2 to 6 (Defense 2+ to 6+)"));
    }
    if !(1..=crate::limits::MAX_RATING as u32).contains(&tough) {
        return Err(Error::invalid("tough", tough, format!("must be from 1 to {}", crate::limits::MAX_RATING)));
    }
    let size = (10 / tough).max(1);
    let rules = if tough > 1 { format!(" | Tough({tough})") } else { String::new() };
    Unit::parse(&format!("D{defense}+ T{tough} [{size}] Q4+ D{defense}+{rules}"), edition)
}
