//! Rules a unit holds "once (next time the effect would apply)": the buffs friends give (by
//! their rules and spells), the debuffs enemies give, and the rules a mark gives a unit's
//! attackers. Each becomes, when the armies are prepared, a `Buffed`: the unit's allocation
//! with the rule on every model and the entries the game plays, and `BuffUse` says which
//! of the unit's attacks, defenses, tests and moves it acts on.

use crate::attack::allocation::Allocation;
use super::spellbook::CastEffect;
use crate::edition::Edition;
use crate::profile::Model;
use crate::rules::census::Engine;
use crate::rules::effects;
use crate::rules::effects::Effect;
use crate::rules::effects::Moves;
use crate::rules::effects::Placement;
use crate::rules::effects::Side;

/// What a buff is used on ("next time the effect would apply").
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum BuffUse {
    /// The unit is shot at from this far.
    Shot(f64),
    /// The unit takes a spell's hits, cast from this far.
    Spell(f64),
    /// The unit is charged from this far.
    Charged(f64),
    /// The unit charged and is struck back.
    StruckBack,
    /// The unit takes a morale test.
    Morale,
    /// The unit moves: Advance, Rush or Charge (0, 1, 2).
    Move(u8),
    /// The unit is Shaken at the beginning of the round.
    Recover,
    /// The unit attacks: shoots (`melee` false) from `distance`, charges, or strikes back.
    Attack { melee: bool, charging: bool, distance: f64 },
    /// The unit has shot (`false`) or fought in melee (`true`) and may move after it.
    AfterAttack(bool),
    /// The unit is activated and may be placed again.
    Activation,
}

/// A rule a friendly unit may give this unit ([`Effect::Buff`]): the unit with it, and when
/// it acts.
#[derive(Debug, Clone)]
pub struct Buffed {
    pub rule: &'static str,
    /// The unit's allocation with the rule on every model (the same states as the unit's own).
    pub alloc: Allocation,
    /// The rule's entries the game plays as a buff (target side, attacker side, and own
    /// morale, moves and recovery), with the conditions of the entry that gives them.
    entries: Vec<OnceEntry>,
    /// It makes the unit's ranged weapons Indirect ("Indirect when shooting").
    pub indirect: bool,
    /// It gives the unit Flying for its next move ("which gets Flying once").
    pub flying: bool,
    /// It is a rule with options (`Effect::Options`: Unpredictable Fighter), settled as the
    /// unit's own are.
    pub options: bool,
}

/// "Flying: may move through units and terrain, and ignore terrain effects whilst moving": a
/// core rule of moves (no effect rows), which the game plays held once as well.
pub const FLYING: &str = "Flying";

/// Whether the game plays `rule` held once by a unit (`once_entries`, or Flying).
pub fn once_played(edition: Edition, rule: &str) -> bool {
    rule == FLYING || once_entries(edition, rule, &|_| true).is_some()
}

impl Buffed {
    /// Whether the rule would act on this use: an entry of the right side whose conditions on
    /// the attack hold (others, such as Entrenched's "hasn't moved", are taken to hold).
    pub fn applies(&self, used: BuffUse) -> bool {
        use effects::Cond::*;
        let (side, shot, charged, distance, spell) = match used {
            BuffUse::Shot(d) => (Side::Target, true, false, d, false),
            BuffUse::Spell(d) => (Side::Target, false, false, d, true),
            BuffUse::Charged(d) => (Side::Target, false, true, d, false),
            BuffUse::StruckBack => (Side::Target, false, false, 0.0, false),
            BuffUse::Attack { melee, charging, distance } => (Side::Attacker, !melee, charging, distance, false),
            BuffUse::Morale => {
                return self.entries.iter().any(|(side, _, _, e)| *side == Side::Own && matches!(e, Effect::MoraleModifier(_) | Effect::PassFailedMoraleOn(_)));
            }
            BuffUse::Move(kind) => {
                let m = self.moves();
                return self.flying || [m.advance, m.rush, m.charge][usize::from(kind.min(2))] != 0;
            }
            BuffUse::Recover => return self.recover_on().is_some(),
            BuffUse::AfterAttack(melee) => return self.after_attack(melee) > 0.0,
            BuffUse::Activation => return self.on_activation() > 0.0,
        };
        // the attacker's own conditions: "when shooting", "when charging", "over 9"" (those on
        // the target, such as Slayer's Tough(3), are taken to hold: the attack acts on them)
        self.entries.iter().any(|(s, outer, conds, _)| {
            *s == side
                && outer.iter().chain(conds.iter()).all(|c| match c {
                    Activated => side != Side::Attacker || shot || charged,
                    // a spell is cast, not shot ("shot from over 9"" rules do not hold), but it targets
                    Shooting => shot,
                    Targeting => shot || spell,
                    Melee => !shot && !spell,
                    FromSpell => spell,
                    NotFromSpell => !spell,
                    Charging => charged,
                    NotCharging => !charged,
                    OverNine => distance > 9.0,
                    NotOverNine => distance <= 9.0,
                    WithinInches(x) => distance <= f64::from(*x),
                    _ => true,
                })
        })
    }
}

impl Buffed {
    /// The inches the rule adds to each kind of move ([`Effect::Move`]: Speed Boost, Rapid Advance).
    pub fn moves(&self) -> Moves {
        let mut m = Moves { advance: 0, rush: 0, charge: 0 };
        for (side, _, _, e) in &self.entries {
            if let (Side::Own, Effect::Move(x)) = (side, e) {
                (m.advance, m.rush, m.charge) = (m.advance + x.advance, m.rush + x.rush, m.charge + x.charge);
            }
        }
        m
    }

    /// The face a Shaken unit recovers on ([`Effect::RecoverOn`]: Steadfast).
    pub fn recover_on(&self) -> Option<u8> {
        self.entries.iter().filter_map(|(side, _, _, e)| if let (Side::Own, Effect::RecoverOn(x)) = (side, e) { Some(*x) } else { None }).min()
    }

    /// The most inches any of its entries gives by `inches` (0: none).
    fn most_inches(&self, inches: impl Fn(Side, &Effect) -> Option<u8>) -> f64 {
        self.entries.iter().filter_map(|(side, _, _, e)| inches(*side, e)).map(f64::from).fold(0.0, f64::max)
    }

    /// The inches it lets the unit move after shooting or melee (`Effect::MoveAfterAttack`:
    /// Hit & Run Fighter, Harassing Boost; 0: none).
    pub fn after_attack(&self, melee: bool) -> f64 {
        self.most_inches(|side, e| match (side, e) {
            (Side::Own, Effect::MoveAfterAttack { inches, shooting, melee: m }) if (melee && *m) || (!melee && *shooting) => Some(*inches),
            _ => None,
        })
    }

    /// The inches within which the unit may be placed when activated (`Effect::Reposition`:
    /// Teleport, Rapid Blink Boost; 0: none).
    pub fn on_activation(&self) -> f64 {
        self.most_inches(|side, e| match (side, e) {
            (Side::Own, Effect::Reposition { when: Placement::OnActivation, inches, .. }) => Some(*inches),
            _ => None,
        })
    }

    /// The inches it adds to the range of the unit's ranged weapons ("+6" range when shooting").
    pub fn range_bonus(&self) -> f64 {
        self.most_inches(|side, e| match (side, e) {
            (Side::Attacker, Effect::RangeBonus(effects::Amount::Fixed(x))) => u8::try_from(*x).ok(),
            _ => None,
        })
    }

    /// Whether, held by a unit attacked, it acts only where the attack makes hits (Defense
    /// rolls and wounds: "-1 to defense rolls", Regeneration), not on the rolls to hit
    /// (Stealth's -1 to hit): an attack that hits nothing leaves it held.
    pub fn needs_hits(&self) -> bool {
        !self.entries.iter().any(|(side, _, _, e)| *side == Side::Target && matches!(e, Effect::HitModifier(_)))
    }

    /// Whether it acts on the unit's own attacks (an attacker-side rule).
    pub fn for_attacks(&self) -> bool {
        self.entries.iter().any(|(side, ..)| *side == Side::Attacker)
    }

    /// Whether it acts on the unit's moves or recovery rather than on attacks and tests.
    pub fn for_moves(&self) -> bool {
        let m = self.moves();
        self.flying || m.advance != 0 || m.rush != 0 || m.charge != 0 || self.recover_on().is_some() || self.on_activation() > 0.0
    }
}

/// The rule `rule` given to a unit whose models are `runs`, if it would change anything:
/// the unit lacks it, and its entries' conditions on the unit's own rules hold ("If all
/// models in this unit have Self-Repair").
pub(super) fn buffed(alloc: &Allocation, rule: &'static str, edition: Edition) -> Option<Buffed> {
    if all_have(&alloc.runs, rule) {
        return None;
    }
    let mut runs = alloc.runs.clone();
    for (m, _) in &mut runs {
        m.rules.push(crate::rules::Rule::new(rule.to_string(), None));
    }
    let flying = rule == FLYING;
    let (mut entries, options) = if flying { (Vec::new(), false) } else { once_entries(edition, rule, &|name| all_have(&runs, name))? };
    // an attack the unit never makes is no use to it: "when shooting" without ranged weapons,
    // "in melee" without melee weapons, a Boost of a rule none of its models or weapons has
    let weapons = || runs.iter().flat_map(|(m, _)| m.weapons.iter());
    let (ranged, melee) = (weapons().any(|w| w.range.is_some()), weapons().any(|w| w.range.is_none()));
    let has = |name: &str| runs.iter().any(|(m, _)| m.rules.iter().chain(m.weapons.iter().flat_map(|w| w.rules.iter())).any(|r| r.name == name));
    entries.retain(|(side, outer, conds, _)| {
        *side != Side::Attacker
            || outer.iter().chain(conds.iter()).all(|c| match c {
                effects::Cond::Shooting | effects::Cond::Targeting => ranged,
                effects::Cond::Melee | effects::Cond::Charging => melee,
                effects::Cond::AttackerHas(name) => has(name),
                _ => true,
            })
    });
    if entries.is_empty() && !flying {
        return None;
    }
    let mut with = alloc.clone();
    with.runs = runs;
    // "Indirect when shooting": every ranged weapon may fire out of sight
    let mut indirect = false;
    effects::for_each_entry(edition, rule, &mut |outer, e| indirect |= matches!(e.effect, Effect::Gets("Indirect")) && !outer.contains(&effects::Cond::Melee));
    Some(Buffed { rule, alloc: with, entries, indirect, flying, options })
}

/// The entries of `rule` the game plays when a unit holds it "once (next time the effect
/// would apply)": on its attacks, its defense, its morale, moves and recovery, with the
/// conditions of the entry that gives them; those whose conditions on the unit's own rules
/// fail (`unit_has_all`) left out; and whether it has options (`Effect::Options`). `None`
/// where nothing is played so: a rule the game ignores (`census::ignored_by`), or one acting
/// elsewhere.
pub fn once_entries(edition: Edition, rule: &str, unit_has_all: &dyn Fn(&str) -> bool) -> Option<(Vec<OnceEntry>, bool)> {
    if crate::rules::census::ignored_by(edition, rule, Engine::Game) {
        return None;
    }
    let mut entries = Vec::new();
    let mut options = false;
    effects::for_each_entry(edition, rule, &mut |outer, e| {
        let unit_has = outer.iter().chain(e.conds).all(|c| match c {
            effects::Cond::UnitHasAll(name) => unit_has_all(name),
            _ => true,
        });
        let played = match (e.side, e.effect) {
            (_, Effect::Gets(_) | Effect::UnitGets(_)) => false,
            (Side::Target | Side::Attacker, _) => true,
            (Side::Own, Effect::MoraleModifier(_) | Effect::PassFailedMoraleOn(_) | Effect::Move(_) | Effect::RecoverOn(_)) => true,
            (Side::Own, Effect::MoveAfterAttack { .. } | Effect::Reposition { when: Placement::OnActivation, .. }) => true,
            _ => false,
        };
        options |= matches!(e.effect, Effect::Options { .. });
        if unit_has && played {
            entries.push((e.side, outer, e.conds, e.effect));
        }
    });
    (!entries.is_empty()).then_some((entries, options))
}

/// An entry of a rule held once: its side, the conditions of the entry that gives it and its
/// own, and its effect.
pub type OnceEntry = (Side, &'static [effects::Cond], &'static [effects::Cond], Effect);

/// Whether a game casts `spell` where some unit gains from it: a damage spell, or one whose
/// rule held once the game plays (`prepare::once_entries`).
pub fn game_casts(spell: &crate::rules::spells::Spell, edition: Edition) -> bool {
    CastEffect::of(spell, edition).is_some_and(|e| e.rule().is_none_or(|rule| once_played(edition, rule)))
}

pub(super) fn all_have(runs: &[(Model, u32)], name: &str) -> bool {
    runs.iter().all(|(m, _)| m.rules.iter().any(|r| r.name == name))
}

pub(super) fn any_has(runs: &[(Model, u32)], name: &str) -> bool {
    runs.iter().any(|(m, _)| m.rules.iter().any(|r| r.name == name))
}
