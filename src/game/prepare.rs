//! What a run works out once, before any game: each unit's footprint, movement and removal
//! order, and what the default policy reads from the exact engines (each unit's role, and
//! the expected outcome of every possible charge).

use super::held_rules::all_have;
use super::held_rules::any_has;
use super::held_rules::Buffed;
use super::held_rules::buffed;
use super::charge_values::distinct_units;
use crate::attack::allocation::{Allocation, State};
use super::spellbook::{CastEffect, Casting};
use crate::loaders::army_forge::{SpellDefinition, Spells};
use super::formation::{base_radius, least_width, Formation};
use super::charge_values::ChargePlan;
use super::rules::{GameRules, Spaces};
use crate::attack::plan::{Group, GroupKind, Situation};
use crate::cost::features::expected_wounds;
use crate::edition::Edition;
use crate::error::{Error, Result};
use crate::melee::Melee;
use crate::profile::{Model, Unit};
use crate::rules::census::Engine;
use crate::rules::effects::{self, Effect, Moves, Placement, Side};
use crate::state::UnitState;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// How a unit moves, from its rules (gf-3.5 "Special Rules").
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Movement {
    /// Inches for Advance, Rush and Charge: 6, 12, 12, plus every [`Effect::Move`] in play
    /// ("Fast: +2" when using Advance and +4" when using Rush/Charge"; "Slow: -2" ... and
    /// -4""; Lustbound +1"/+3"/+3", ...).
    pub advance: f64,
    pub rush: f64,
    pub charge: f64,
    /// "Immobile: may only use Hold actions" (and "Artillery: May only use Hold actions").
    pub hold_only: bool,
    /// "Aircraft: May only use Advance actions, moving in a straight line, and adding 30" to
    /// its total move ... ignore all units and terrain when moving and stopping, can't seize or
    /// contest objectives, can't be charged".
    pub aircraft: bool,
    /// "Strider: May ignore the effects of difficult terrain when moving."
    pub strider: bool,
    /// "Flying: may move through units and terrain, and ignore terrain effects whilst moving."
    pub flying: bool,
    pub scout: bool,
    /// [`Effect::Ambush`] (Ambush, Infiltrate, Rapid Ambush, Surprise Piercing Shot): the unit
    /// waits in reserve.
    pub ambush: bool,
    /// How far from enemy units it must arrive: over this many inches (0: only the 1"
    /// between units), and the first round it may arrive.
    pub ambush_over: f64,
    pub ambush_from: u8,
}

/// The army-book rules of a unit the game plays outside the dice, read once from the rule
/// tables' effects (`effects::own_effects`, and the target side for Melee Shrouding) of the
/// unit at full strength, auras lent.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Tricks {
    /// [`Effect::ChargePenalty`]: enemies get this many inches less to charge the unit.
    pub charge_penalty: f64,
    /// [`Effect::RecoverOn`]: Shaken at the beginning of the round, it stops being Shaken on
    /// this face or more (0: no such rule).
    pub recover_on: u8,
    /// [`Effect::Reposition`] on activation: inches, and whether D3 is added (0: none).
    pub place_on_activation: (f64, bool),
    /// [`Effect::Reposition`] after deployment: inches (0: none).
    pub place_after_deployment: f64,
    /// [`Effect::MoveAfterAttack`]: inches after shooting, and after melee (0: none).
    pub after_shooting: f64,
    pub after_melee: f64,
    /// [`Effect::ExtraActivation`].
    pub extra_activation: bool,
    /// The unit has a rule with options ([`Effect::Options`]).
    pub options: bool,
    /// Some rule of its models or weapons acts on the round it arrives by Ambush
    /// ([`effects::Cond::Arrived`]: Surprise Piercing Shot).
    pub arrival_rules: bool,
    /// Some rule of its models acts on shots at it only while it has not moved since the
    /// beginning of its last activation ([`effects::Cond::TargetStationary`]: v3.4.1's
    /// Entrenched): its shots are keyed on `Live::moved`.
    pub stationary_rules: bool,
    /// Some rule of its models or weapons acts only on the shots of a Hold action
    /// ([`effects::Cond::Stationary`]: v3.4.1's and Firefight's Relentless).
    pub hold_rules: bool,
    /// [`Effect::Buff`]: the rules the unit gives a friendly unit, each once per activation
    /// ("Once per activation, before attacking, pick one friendly unit within 12"": each
    /// rule is its own ability; a unit has at most `MAX_BUFF_RULES`).
    pub buff: [Option<&'static str>; MAX_BUFF_RULES],
    /// [`Effect::ArrivalHits`]: (dice, need, within, hits, AP) on arriving by Ambush (dice 0: none).
    pub arrival_hits: (u32, u8, f64, u32, u8),
    /// [`Effect::CastingRollGiven`]: the modifier it gives a caster's next casting roll once
    /// per activation (negative: an enemy's; 0: none).
    pub casting_roll_given: i8,
    /// [`Effect::Debuff`]: the rule it gives an enemy unit once per activation.
    pub debuff: Option<&'static str>,
    /// [`Effect::EnemyTest`]: the test it makes an enemy unit take once per activation
    /// (`Some(true)`: a dangerous terrain test; `Some(false)`: a morale test that fatigues).
    pub enemy_test: Option<bool>,
}

/// What the default policy makes of a unit, from its exact expected damage.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    Shooting,
    Hybrid,
    Melee,
}

/// The most rules a unit may be given once that the game tells apart (bits of a `u16`); past
/// that, the spells and rules giving the others are reported as not cast.
pub const MAX_HELD_RULES: usize = 16;

/// The most buff rules (`Effect::Buff`) a unit gives (the books' units have up to two).
pub const MAX_BUFF_RULES: usize = 3;

/// One unit of an army, ready to play.
#[derive(Debug, Clone)]
pub struct UnitInfo {
    /// Its name and its joined heroes' (`Unit::display_name`).
    pub name: String,
    pub alloc: Allocation,
    pub cost: f64,
    pub models: u32,
    /// Wounds to destroy the whole unit (Σ Tough).
    pub wounds: u32,
    /// The disc the full unit stands on (`formation.radius()`).
    pub radius: f64,
    /// Where each model stands in the unit, in removal order.
    pub formation: Formation,
    /// The run of `alloc.runs` each slot of `formation` belongs to.
    pub slot_run: Vec<usize>,
    /// The whole inches at which its rules (its models' and weapons') tell distances apart:
    /// "over 9"" and each "within X"" (`distance_marks`).
    pub distance_marks: Vec<u16>,
    pub movement: Movement,
    pub tricks: Tricks,
    /// Rules of the unit (its models' and their weapons', auras lent) the game does not
    /// play (`census::ignored_by`), sorted.
    pub unmodelled: Vec<String>,
    /// Longest weapon range, in inches (0: no ranged weapon).
    pub max_range: f64,
    /// Names of the unit's ranged weapons with Indirect, and of those with Limited.
    pub indirect: Vec<String>,
    pub limited: Vec<String>,
    /// Names of all ranged weapons (not those of `strafing`).
    pub ranged: Vec<String>,
    /// `ranged`, `indirect` and `limited` as weapon bits of each run of `alloc.runs`, read
    /// once so that a shot compares no weapon names.
    pub guns: Vec<RunGuns>,
    /// A weapon attacks while the unit moves through enemy units ([`Effect::OnlyMovingThrough`]: Strafing).
    pub strafing: bool,
    pub role: Role,
    /// Each wound is ignored on this face or more (7: never): Regeneration, for wounds that
    /// are not from attacks (dangerous terrain).
    pub ignore_wound_on: u8,
    /// The rules it may be given once (by friends' buffs and spells, enemies' debuffs, and its
    /// army's marks on an enemy) that would change something, at most `MAX_HELD_RULES`.
    pub buffed: Vec<Buffed>,
    /// For each rule its army may hold (`Prepared::given`), its index in `buffed` (none
    /// where the unit gains nothing from it).
    pub held_of: Vec<Option<u8>>,
    /// The rules it gives friends by its own rules (`Tricks::buff`), as indices in its army's
    /// `Prepared::given`, and the one it gives enemies (`Tricks::debuff`), in the enemy's.
    pub gives_buff: [Option<u16>; 3],
    pub gives_debuff: Option<u16>,
    /// Its allocation with two or three of those rules at once (a friend's, an enemy's and a
    /// mark's), by their bits: made the first time a game needs it.
    pub held_allocs: Vec<(u16, std::sync::OnceLock<Allocation>)>,
    /// Its casters and the spells they cast.
    pub casting: Casting,
    /// The spaces it offers as a transport (Transport(X); 0: none).
    pub transport: u32,
    /// The range a spell loses against it (`plan::spell_range_penalty`: Aircraft), read at
    /// full strength.
    pub spell_range_penalty: f64,
}

/// What one run of a unit's models shoots with, as weapon bits (`bit` of the weapon's
/// index in its model).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RunGuns {
    /// Its weapons named in `UnitInfo::ranged` that have a range.
    pub ranged: u64,
    /// Those named in `UnitInfo::indirect`.
    pub indirect: u64,
    /// Its weapons named in `UnitInfo::limited`: (index in the model's weapons, bit in
    /// `Live::limited_spent` (the name's index there, below 32), whether the weapon carries
    /// Limited itself: what a shot plan's groups spend).
    pub limited: Vec<(usize, u32, bool)>,
}

impl RunGuns {
    fn of(runs: &[(crate::profile::Model, u32)], ranged: &[String], indirect: &[String], limited: &[String]) -> Vec<RunGuns> {
        runs.iter()
            .map(|(m, _)| {
                let mut guns = RunGuns::default();
                for (i, w) in m.weapons.iter().enumerate() {
                    let b = bit(i);
                    if w.range.is_some() && ranged.contains(&w.name) {
                        guns.ranged |= b;
                        if indirect.contains(&w.name) {
                            guns.indirect |= b;
                        }
                    }
                    if let Some(li) = limited.iter().position(|l| l == &w.name).filter(|&li| li < 32) {
                        guns.limited.push((i, li as u32, w.rules.iter().any(|r| r.name == "Limited")));
                    }
                }
                guns
            })
            .collect()
    }

    /// The weapon bits of `limited` already spent (`Live::limited_spent`).
    pub fn spent(&self, limited_spent: u32) -> u64 {
        self.limited.iter().filter(|&&(_, li, _)| limited_spent & (1 << li) != 0).fold(0, |m, &(i, _, _)| m | bit(i))
    }
}

impl UnitInfo {
    /// The index in `buffed` of the rule `given` (an index in its army's `Prepared::given`),
    /// if the unit gains something from holding it.
    #[inline]
    pub fn held_index(&self, given: u16) -> Option<usize> {
        self.held_of.get(usize::from(given)).copied().flatten().map(usize::from)
    }

    /// The rules of `buffed` in `mask` (bits by index), with their bits.
    pub fn held(&self, mask: u16) -> impl Iterator<Item = (u16, &Buffed)> {
        self.buffed.iter().enumerate().filter(move |(i, _)| mask & (1 << i) != 0).map(|(i, b)| (1u16 << i, b))
    }

    /// Its allocation with the rules `mask` of `buffed` on every model (two or three of them:
    /// `buffed[i].alloc` has one); the same states as its own.
    pub fn held_alloc(&self, mask: u16) -> &Allocation {
        let Ok(i) = self.held_allocs.binary_search_by_key(&mask, |(m, _)| *m) else {
            // (never asked: a unit holds a friend's rule, an enemy's and a mark's at most)
            return &self.alloc;
        };
        self.held_allocs[i].1.get_or_init(|| {
            let mut with = self.alloc.clone();
            for (_, held) in self.held(mask) {
                for (m, _) in &mut with.runs {
                    m.rules.push(crate::rules::Rule::new(held.rule.to_string(), None));
                }
            }
            with
        })
    }

    /// Wounds left in state `s`.
    pub fn wounds_left(&self, s: State) -> u32 {
        self.alloc.wounds_left(s)
    }

    /// Points per wound: what removing one wound of this unit is worth.
    pub fn points_per_wound(&self) -> f64 {
        self.cost / f64::from(self.wounds.max(1))
    }
}

/// Every unit of both armies and the charge table.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub armies: [Vec<UnitInfo>; 2],
    /// `charge_value[a][u][v]`: the exact melee's expected points the defender loses less
    /// those the charger loses (Routs counted as the whole unit), for unit `u` of army `a`
    /// charging unit `v` of the other army, both fresh.
    pub charge_value: [Vec<Vec<f64>>; 2],
    /// How melees between units with options ([`Effect::Options`]) are played:
    /// `[charger option, defender option]` of each way (`Melee::variants`: rolls each option,
    /// picks the best one), by (charger's army, charger, defender, [`melee_flags`]); settled
    /// once, at full strength.
    pub melee_options: FxHashMap<(usize, usize, usize, u8), Vec<[u8; 2]>>,
    /// `fresh_exchange[a][u][v][far]`: expected wounds of unit `u` of army `a` charging unit
    /// `v` of the other army, both fresh, from 9" or less (`far` 0) or over 9" (1): the default
    /// policy's charge values start from here and work out damaged units as they come.
    pub fresh_exchange: [Vec<Vec<[Exchange; 2]>>; 2],
    /// `shot_value[a][u][v]`: expected points unit `u` of army `a` removes from fresh unit
    /// `v` of the other army, shooting at full strength from 12" (what the roles are read
    /// from): the default policy's quick read of who threatens whom.
    pub shot_value: [Vec<Vec<f64>>; 2],
    pub edition: Edition,
    /// The edition's game rules: what every phase reads.
    pub rules: &'static GameRules,
    /// Tells one preparation from another (for memos kept across chunks of a run).
    pub id: u64,
    /// Whether any unit of either army is a transport: else no unit is ever carried, and the
    /// game skips its passengers' bookkeeping.
    pub transports: bool,
    /// The rules the units of each army may hold once (`given[army]`): those friends give
    /// by their rules (`Effect::Buff`) and spells, those the army's marks give its attackers,
    /// and those the enemy's debuffs give. A rule given in a game is an index here, read
    /// through each unit's `UnitInfo::held_of`, so no game looks a rule up by name.
    pub given: [Vec<&'static str>; 2],
}

/// The next `Prepared::id`.
static PREPARED: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// Expected wounds of one charge, phase by phase (`crate::melee::Phase`), from the
/// expected-wounds helper rather than the exact melee (a hundred times faster): what the
/// default policy values charges and strike backs with.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Exchange {
    /// The defender's Counter weapons, striking first.
    pub counter: f64,
    /// The charger's blows, from all its models (the policy scales them by those left).
    pub charge: f64,
    /// The defender's strike back, from all its models.
    pub strike_back: f64,
    /// The charger's expected Fear less the defender's ("counts as having dealt +X wounds").
    pub fear: f64,
}

/// The expected wounds of `charger` in state `cs` charging `defender` in `ds` (`far`: from
/// over 9"), each phase from the side's models left at the start, and the Fear margin: the
/// phases as `Melee` plays them (`Melee::situation`, `Melee::groups`, `Melee::fear`), without
/// building a `Melee` (no copy of either unit).
pub fn exchange(charger: &UnitInfo, cs: UnitState, defender: &UnitInfo, ds: UnitState, far: bool, edition: Edition) -> Exchange {
    let Some(pair) = Pairing::new(charger, cs, defender, ds, edition) else {
        return Exchange::default();
    };
    let [counter, strike_back] = pair.part(ExchangePart::Back { fatigued: ds.fatigued || ds.shaken });
    let [charge, _] = pair.part(ExchangePart::Charge { fatigued: cs.fatigued, far });
    let [fear, _] = pair.part(ExchangePart::Fear);
    Exchange { counter, charge, strike_back, fear }
}

/// One part of `exchange` of `charger` charging `defender`, both at full strength (`UnitState`
/// holds their fatigue apart from the models left: the part says it).
pub fn exchange_part(charger: &UnitInfo, defender: &UnitInfo, part: ExchangePart, edition: Edition) -> [f64; 2] {
    Pairing::new(charger, UnitState::FRESH, defender, UnitState::FRESH, edition).map_or([0.0; 2], |pair| pair.part(part))
}

/// A part of `exchange`, and what it reads beyond the two units and their models left: the
/// charger's blows its fatigue and the distance, the defender's (Counter, then the strike
/// back) its fatigue (or Shaken), the Fear margin neither. So a game finds each part once per
/// pair and fatigue, not once per combination (`View::exchange`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ExchangePart {
    /// `[Exchange::charge, 0]`.
    Charge { fatigued: bool, far: bool },
    /// `[Exchange::counter, Exchange::strike_back]`.
    Back { fatigued: bool },
    /// `[Exchange::fear, 0]`.
    Fear,
}

/// Two units in their states as `exchange` reads them: the models alive at the start.
struct Pairing<'u> {
    charger: &'u Allocation,
    defender: &'u Allocation,
    c_start: State,
    d_start: State,
    c_alive: crate::attack::plan::Alive<'u>,
    d_alive: crate::attack::plan::Alive<'u>,
    edition: Edition,
}

impl<'u> Pairing<'u> {
    /// `None` where `exchange` is nothing: a state the unit cannot be in, or either destroyed.
    fn new(charger: &'u UnitInfo, cs: UnitState, defender: &'u UnitInfo, ds: UnitState, edition: Edition) -> Option<Pairing<'u>> {
        let (Ok(c_start), Ok(d_start)) = (charger.alloc.state_of("charger_state", &cs), defender.alloc.state_of("defender_state", &ds)) else {
            return None;
        };
        if charger.alloc.destroyed(c_start) || defender.alloc.destroyed(d_start) {
            return None;
        }
        let (c_alive, d_alive) = (charger.alloc.view(c_start, false).alive, defender.alloc.view(d_start, false).alive);
        Some(Pairing { charger: &charger.alloc, defender: &defender.alloc, c_start, d_start, c_alive, d_alive, edition })
    }

    /// One part of the exchange (`ExchangePart` says which two numbers).
    fn part(&self, part: ExchangePart) -> [f64; 2] {
        use crate::attack::plan::{unlabelled_groups, Pick};
        let base = Situation { charging: false, ..Situation::new(self.edition, true, 0.0) };
        // the groups' labels are for a trace: none is written here
        let sum = |attacker: &[(&Model, u32)], target: &[(&Model, u32)], situation: &Situation, pick: Pick, t_alloc: &Allocation, st: State| {
            unlabelled_groups(attacker, target, situation, pick).iter().map(|g| crate::cost::features::group_expected_wounds(g, situation, t_alloc, st)).sum::<f64>()
        };
        match part {
            ExchangePart::Charge { fatigued, far } => {
                let charge = Situation { distance: if far { 12.0 } else { 6.0 }, charging: true, fatigued, ..base };
                [sum(&self.c_alive, &self.d_alive, &charge, Pick::All, self.defender, self.d_start), 0.0]
            }
            ExchangePart::Back { fatigued } => {
                let back = Situation { fatigued, ..base };
                [
                    sum(&self.d_alive, &self.c_alive, &back, Pick::StrikingFirst(true), self.charger, self.c_start),
                    sum(&self.d_alive, &self.c_alive, &back, Pick::StrikingFirst(false), self.charger, self.c_start),
                ]
            }
            ExchangePart::Fear => {
                let fear = |alive: &[(&Model, u32)]| {
                    let mut total = 0.0;
                    for own in effects::own_effects(self.edition, alive) {
                        match own.effect {
                            Effect::ResolutionWounds(_) => total += (own.rating * i64::from(own.models)) as f64,
                            Effect::ResolutionWoundsRolled(sides) => total += (f64::from(sides) + 1.0) / 2.0,
                            _ => {}
                        }
                    }
                    total
                };
                [fear(&self.c_alive) - fear(&self.d_alive), 0.0]
            }
        }
    }
}

/// Whether `Prepared::fresh_exchange` holds the `exchange` of `c` charging `d` (else zeros:
/// an Aircraft neither charges nor is charged, a unit that holds only never charges).
fn in_exchange_table(c: &UnitInfo, d: &UnitInfo) -> bool {
    !(c.movement.aircraft || c.movement.hold_only || d.movement.aircraft)
}

/// The circumstances a melee's picks depend on, as bits: charged from over 9", the charger
/// fatigued, the defender fatigued, the defender Shaken.
pub fn melee_flags(over_nine: bool, charger_fatigued: bool, defender_fatigued: bool, defender_shaken: bool) -> u8 {
    u8::from(over_nine) | u8::from(charger_fatigued) << 1 | u8::from(defender_fatigued) << 2 | u8::from(defender_shaken) << 3
}

/// The distances its rules tell apart: 9 ("over 9"") and each `Cond::WithinInches`, sorted.
fn distance_marks(runs: &[(Model, u32)], edition: Edition) -> Vec<u16> {
    let mut out = vec![9u16];
    for (m, _) in runs {
        for r in m.rules.iter().chain(m.weapons.iter().flat_map(|w| w.rules.iter())) {
            effects::for_each_entry_of(edition, r, &mut |outer, e| {
                for c in outer.iter().chain(e.conds) {
                    if let effects::Cond::WithinInches(x) = c {
                        out.push(u16::from(*x));
                    }
                }
            });
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// Whether a unit that moves so may charge, and may be charged: "Aircraft ... can't be
/// charged"; Aircraft, Immobile and Artillery take no Charge action.
pub(crate) fn may_charge(m: &Movement) -> (bool, bool) {
    (!(m.aircraft || m.hold_only), !m.aircraft)
}

pub(crate) fn movement(runs: &[(Model, u32)], edition: Edition, rules: &GameRules) -> Movement {
    let mut m = Movement { advance: rules.moves.advance, rush: rules.moves.rush, charge: rules.moves.charge, ..Movement::default() };
    // Every move bonus and malus is an `Effect::Move` of the rule tables (Fast, Slow, the
    // books' Lustbound, Highborn, Rapid Charge, Fast Aura, the Boosts...), in play when all
    // models have the rule (any, for Slow): the unit moves as its slowest model.
    let alive: Vec<(&Model, u32)> = runs.iter().map(|(m, n)| (m, *n)).collect();
    for own in effects::own_effects(edition, &alive) {
        if let Effect::Move(Moves { advance, rush, charge }) = own.effect {
            m.advance += f64::from(advance);
            m.rush += f64::from(rush);
            m.charge += f64::from(charge);
        }
    }
    (m.advance, m.rush, m.charge) = (m.advance.max(0.0), m.rush.max(0.0), m.charge.max(0.0));
    // the rules the game plays by name, where the edition has them
    let (all, any) = (|name| rules.plays(name) && all_have(runs, name), |name| rules.plays(name) && any_has(runs, name));
    m.aircraft = all("Aircraft");
    if m.aircraft {
        m.advance += rules.aircraft_move();
    }
    m.hold_only = any("Immobile") || any("Artillery");
    m.strider = all("Strider");
    m.flying = all("Flying");
    m.scout = all("Scout");
    // the nearest and the earliest of the Ambush entries in play (Ambush itself and the
    // variants that count as having it: Infiltrate, Rapid Ambush, Surprise Piercing Shot)
    for own in effects::own_effects(edition, &alive) {
        if let Effect::Ambush { over, from_round } = own.effect {
            if !m.ambush {
                (m.ambush, m.ambush_over, m.ambush_from) = (true, f64::from(over), from_round);
            } else {
                m.ambush_over = m.ambush_over.min(f64::from(over));
                m.ambush_from = m.ambush_from.min(from_round);
            }
        }
    }
    m
}

/// The unit's game rules other than movement, from the effects in play for it.
fn tricks(runs: &[(Model, u32)], edition: Edition) -> Tricks {
    let alive: Vec<(&Model, u32)> = runs.iter().map(|(m, n)| (m, *n)).collect();
    let mut t = Tricks::default();
    for own in effects::own_effects(edition, &alive) {
        match own.effect {
            // the better of two (Rapid Blink 3" and its Boost 6"), a recovery on the lowest face
            Effect::RecoverOn(x) => t.recover_on = if t.recover_on == 0 { x } else { t.recover_on.min(x) },
            Effect::Reposition { when: Placement::OnActivation, inches, d3 } => {
                let (now, now_d3) = t.place_on_activation;
                if f64::from(inches) + if d3 { 2.0 } else { 0.0 } > now + if now_d3 { 2.0 } else { 0.0 } {
                    t.place_on_activation = (f64::from(inches), d3);
                }
            }
            Effect::Reposition { when: Placement::AfterDeployment, inches, d3: _ } => t.place_after_deployment = t.place_after_deployment.max(f64::from(inches)),
            Effect::MoveAfterAttack { inches, shooting, melee } => {
                if shooting {
                    t.after_shooting = t.after_shooting.max(f64::from(inches));
                }
                if melee {
                    t.after_melee = t.after_melee.max(f64::from(inches));
                }
            }
            Effect::ExtraActivation => t.extra_activation = true,
            Effect::Options { .. } => t.options = true,
            Effect::Buff(rule) => {
                if let Some(slot) = t.buff.iter_mut().find(|b| b.is_none_or(|b| b == rule)) {
                    *slot = Some(rule);
                }
            }
            Effect::CastingRollGiven(x) if t.casting_roll_given == 0 => t.casting_roll_given = x,
            Effect::Debuff(rule) => t.debuff = t.debuff.or(Some(rule)),
            Effect::EnemyTest { dangerous } => t.enemy_test = t.enemy_test.or(Some(dangerous)),
            Effect::ArrivalHits { need, within, hits, ap } => {
                t.arrival_hits = (own.rating.clamp(0, 100) as u32, need, f64::from(within), u32::from(hits), ap);
            }
            _ => {}
        }
    }
    let names = runs.iter().flat_map(|(m, _)| m.rules.iter().chain(m.weapons.iter().flat_map(|w| w.rules.iter())));
    for r in names {
        effects::for_each_entry_of(edition, r, &mut |outer, e| {
            t.arrival_rules |= e.conds.iter().chain(outer).any(|c| matches!(c, effects::Cond::Arrived));
            t.stationary_rules |= e.conds.iter().chain(outer).any(|c| matches!(c, effects::Cond::TargetStationary));
            t.hold_rules |= e.side == Side::Attacker && e.conds.iter().chain(outer).any(|c| matches!(c, effects::Cond::Stationary));
        });
    }
    for target in effects::unit_effects(edition, &alive, Side::Target) {
        if let Effect::ChargePenalty(x) = target.effect {
            t.charge_penalty = t.charge_penalty.max(f64::from(x));
        }
    }
    t
}

/// The rules of a unit (its models' and their weapons', auras lent) that the game ignores, sorted.
fn unmodelled(runs: &[(Model, u32)], edition: Edition) -> Vec<String> {
    let mut out = crate::attack::plan::unmodelled_rules(runs, &[], edition, Engine::Game);
    out.sort();
    out
}

fn situation(edition: Edition, melee: bool, distance: f64) -> Situation {
    Situation::new(edition, melee, distance)
}

impl Prepared {
    /// Checks the armies and works out what every game needs. `role_ratio` per army.
    pub fn new(armies: [&[Unit]; 2], edition: Edition, role_ratio: [f64; 2]) -> Result<Prepared> {
        Self::with_spells(armies, [&[], &[]], edition, role_ratio)
    }

    /// `new`, with the spells of each unit's book (`spells[army][unit]`; a unit past the end
    /// has none): "the Caster's spells must be picked from their own faction".
    pub fn with_spells(armies: [&[Unit]; 2], spells: [&[Spells]; 2], edition: Edition, role_ratio: [f64; 2]) -> Result<Prepared> {
        Ok(Self::with_spells_until(armies, spells, edition, role_ratio, &crate::stop::Stop::new())?.expect("never stopped"))
    }

    /// `with_spells`, stopping early (`Ok(None)`) once `stop` is set: the melees of every
    /// pair of units may take seconds.
    pub fn with_spells_until(armies: [&[Unit]; 2], spells: [&[Spells]; 2], edition: Edition, role_ratio: [f64; 2], stop: &crate::stop::Stop) -> Result<Option<Prepared>> {
        let rules = GameRules::of(edition)?;
        for (side, units) in armies.iter().enumerate() {
            let field = ["army_a", "army_b"][side];
            if units.is_empty() {
                return Err(Error::invalid(field, "an empty army", "needs at least one unit"));
            }
            if units.len() > super::config::MAX_UNITS {
                return Err(Error::limit(format!("{field} units"), units.len(), super::config::MAX_UNITS));
            }
            check_refused(field, units, edition, rules)?;
        }
        let (distinct, ids) = distinct_units(armies, spells, edition);
        for d in &distinct {
            // every activation rolls a unit's dice, and every charge is a melee of them
            crate::attack::check_attack_dice(&d.alloc, edition, &d.field)?;
            // the least width any formation of its bases can have, at once
            check_width(&d.field, d.unit.name(), d.alloc.len(), least_width(&bases(&d.alloc)), true, rules)?;
        }
        // the dearest work, counted (and refused if too much) before any is done
        let charges: Vec<(bool, bool)> = distinct.iter().map(|d| may_charge(&movement(&d.alloc.runs, edition, rules))).collect();
        let plan = ChargePlan::new(&distinct, &ids, &charges, rules)?;
        let made: Vec<UnitInfo> = distinct.iter().map(|d| Self::unit(d.unit, d.alloc.clone(), d.spells, rules, &d.field)).collect::<Result<_>>()?;
        let infos: Vec<Vec<UnitInfo>> = ids.iter().map(|ids| ids.iter().map(|&k| made[k].clone()).collect()).collect();
        let [a, b]: [Vec<UnitInfo>; 2] = infos.try_into().expect("two armies");
        let transports = a.iter().chain(&b).any(|u| u.transport > 0);
        let mut prep = Prepared {
            armies: [a, b],
            charge_value: [Vec::new(), Vec::new()],
            melee_options: FxHashMap::default(),
            fresh_exchange: [Vec::new(), Vec::new()],
            shot_value: [Vec::new(), Vec::new()],
            edition,
            rules,
            id: PREPARED.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            transports,
            given: [Vec::new(), Vec::new()],
        };
        // the rules units may hold once: those friends give (by their own rules,
        // `Effect::Buff`, and by buff spells), those their army's marks give its attackers, and
        // those the enemy's debuff spells give
        let given_by = |army: &[UnitInfo], friend: bool| -> Vec<&'static str> {
            let mut out = Vec::new();
            for u in army {
                let spells = u.casting.spells.iter().filter_map(|s| match s.effect {
                    CastEffect::Buff(rule) | CastEffect::Mark(rule) if friend => Some(rule),
                    CastEffect::Debuff(rule) if !friend => Some(rule),
                    _ => None,
                });
                let own = if friend { u.tricks.buff } else { [u.tricks.debuff, None, None] };
                for rule in own.into_iter().flatten().chain(spells) {
                    if !out.contains(&rule) {
                        out.push(rule);
                    }
                }
            }
            out
        };
        let given: [Vec<&'static str>; 2] = [0, 1].map(|side| {
            let mut g = given_by(&prep.armies[side], true);
            g.extend(given_by(&prep.armies[1 - side], false).into_iter().filter(|r| !g.contains(r)).collect::<Vec<_>>());
            g
        });
        for (army, given) in prep.armies.iter_mut().zip(&given) {
            for u in army.iter_mut() {
                // the rules it may hold (at most MAX_HELD_RULES), and where each rule of its
                // army's list is among them: what a rule given in a game is read by
                let (mut held, mut held_of) = (Vec::new(), Vec::with_capacity(given.len()));
                for rule in given {
                    let b = if held.len() < MAX_HELD_RULES { buffed(&u.alloc, rule, edition) } else { None };
                    held_of.push(b.is_some().then(|| held.len() as u8));
                    held.extend(b);
                }
                (u.buffed, u.held_of) = (held, held_of);
                let n = u.buffed.len() as u32;
                u.held_allocs = (0u32..1 << n).filter(|m| (2..=3).contains(&m.count_ones())).map(|m| (m as u16, std::sync::OnceLock::new())).collect();
            }
        }
        // a spell no unit would gain from (a friend from a buff or a mark, an enemy's from a
        // debuff) is not cast: it is reported
        let gained: [Vec<&'static str>; 2] = [0, 1].map(|side| prep.armies[side].iter().flat_map(|u| u.buffed.iter().map(|b| b.rule)).collect());
        let enemy_casts = [1, 0].map(|other: usize| prep.armies[other].iter().any(|u| u.casting.caster()));
        for side in 0..2 {
            for u in prep.armies[side].iter_mut() {
                let (kept, dropped): (Vec<_>, Vec<_>) = u.casting.spells.drain(..).partition(|s| match s.effect {
                    CastEffect::Buff(rule) | CastEffect::Mark(rule) => gained[side].contains(&rule),
                    CastEffect::Debuff(rule) => gained[1 - side].contains(&rule),
                    CastEffect::CastingModifier(_) => enemy_casts[side],
                    CastEffect::Hits(_) | CastEffect::TestOrFatigued => true,
                });
                u.casting.spells = kept;
                u.unmodelled.extend(dropped.into_iter().map(|s| format!("spell {}", s.name)));
                u.unmodelled.sort();
            }
        }
        for side in 0..2 {
            let worth: Vec<f64> = prep.armies[side].iter().map(|u| prep.token_worth(u, side)).collect();
            for (u, w) in prep.armies[side].iter_mut().zip(worth) {
                u.casting.token_worth = w;
            }
        }
        // each rule a unit or a spell gives, as its index in the receiving army's list (the
        // rules come from the rule tables' and the spells' fixed vocabulary, far under 65,536)
        let index = |list: &[&'static str], rule: &str| list.iter().position(|r| *r == rule).and_then(|i| u16::try_from(i).ok());
        for side in 0..2 {
            for u in prep.armies[side].iter_mut() {
                u.gives_buff = u.tricks.buff.map(|r| r.and_then(|r| index(&given[side], r)));
                u.gives_debuff = u.tricks.debuff.and_then(|r| index(&given[1 - side], r));
                for s in u.casting.spells.iter_mut() {
                    s.given = match s.effect {
                        CastEffect::Buff(rule) | CastEffect::Mark(rule) => index(&given[side], rule),
                        CastEffect::Debuff(rule) => index(&given[1 - side], rule),
                        _ => None,
                    };
                }
            }
        }
        prep.given = given;
        prep.melee_options = prep.melee_option_table();
        prep.charge_value = plan.values(edition, stop);
        if stop.is_set() {
            return Ok(None);
        }
        for side in 0..2 {
            prep.fresh_exchange[side] = prep.exchange_table(side);
            prep.shot_value[side] = prep.shot_table(side);
            let roles: Vec<Role> = (0..prep.armies[side].len()).map(|u| prep.role(side, u, role_ratio[side])).collect();
            for (u, role) in roles.into_iter().enumerate() {
                prep.armies[side][u].role = role;
            }
        }
        Ok(Some(prep))
    }

    /// What the game needs to know of `unit` (`field` names it in errors).
    pub(super) fn unit(unit: &Unit, alloc: Allocation, spells: &[SpellDefinition], rules: &GameRules, field: &str) -> Result<UnitInfo> {
        let (runs, edition) = (&alloc.runs, rules.edition);
        // weapons that attack only while moving through enemy units (Strafing) do not shoot
        let strafes = |w: &crate::profile::Weapon| w.rules.iter().any(|r| effects::has_entry(edition, r.id(), Side::Attacker, |e| matches!(e, Effect::OnlyMovingThrough)));
        let ranged_weapons = || runs.iter().flat_map(|(m, _)| m.weapons.iter()).filter(|w| w.range.is_some() && !strafes(w));
        let names = |f: &dyn Fn(&crate::profile::Weapon) -> bool| {
            let mut out: Vec<String> = Vec::new();
            for w in ranged_weapons().filter(|w| f(w)) {
                if !out.contains(&w.name) {
                    out.push(w.name.clone());
                }
            }
            out
        };
        let has = |w: &crate::profile::Weapon, name: &str| w.rules.iter().any(|r| r.name == name);
        // Regeneration as the attack engine reads it: the die model of a plain hit
        let plain = Group { label: String::new(), kind: GroupKind::Weapon, dice: 1, quality: 2, rules: Default::default(), takedown: false, deadly: false };
        let start = alloc.start();
        let ignore_wound_on = crate::attack::plan::die_model(&plain, &situation(edition, false, 0.0), &alloc.view(start, false)).ignore_on;
        let wounds = runs.iter().map(|(m, n)| m.tough * n).sum();
        let slot_run: Vec<usize> = runs.iter().enumerate().flat_map(|(i, (_, n))| std::iter::repeat_n(i, *n as usize)).collect();
        let distance_marks = distance_marks(runs, edition);
        let formation = Formation::new(&bases(&alloc), alloc.hero.is_some());
        check_width(field, unit.name(), alloc.len(), 2.0 * formation.widest(), false, rules)?;
        let (casting, spells_left_out) = Casting::of(&alloc, spells, edition);
        let mut unmodelled = unmodelled(runs, edition);
        unmodelled.extend(spells_left_out);
        let spell_range_penalty = f64::from(crate::attack::plan::spell_range_penalty(edition, &alloc.view(start, false)));
        let (indirect, limited, ranged) = (names(&|w| rules.plays("Indirect") && has(w, "Indirect")), names(&|w| rules.plays("Limited") && has(w, "Limited")), names(&|_| true));
        let guns = RunGuns::of(&alloc.runs, &ranged, &indirect, &limited);
        Ok(UnitInfo {
            name: unit.display_name(),
            cost: f64::from(unit.cost().unwrap_or(0)),
            models: alloc.len(),
            wounds,
            radius: formation.radius(),
            formation,
            slot_run,
            distance_marks,
            movement: movement(runs, edition, rules),
            tricks: tricks(runs, edition),
            unmodelled,
            casting,
            transport: if rules.plays("Transport") { capacity(&alloc) } else { 0 },
            spell_range_penalty,
            strafing: runs.iter().flat_map(|(m, _)| m.weapons.iter()).any(strafes),
            max_range: ranged_weapons().filter_map(|w| w.range).max().map_or(0.0, f64::from),
            indirect,
            limited,
            ranged,
            guns,
            role: Role::Hybrid,
            ignore_wound_on,
            buffed: Vec::new(),
            held_of: Vec::new(),
            gives_buff: [None; 3],
            gives_debuff: None,
            held_allocs: Vec::new(),
            alloc,
        })
    }

    /// Each rule the game ignores (`census::ignored_by`), with the share of each army's
    /// points carried by units that have it, by name.
    pub fn unmodelled(&self) -> Vec<(String, [f64; 2])> {
        let mut out: Vec<(String, [f64; 2])> = Vec::new();
        for (side, units) in self.armies.iter().enumerate() {
            let total: f64 = units.iter().map(|u| u.cost).sum();
            for u in units {
                for name in &u.unmodelled {
                    let i = match out.iter().position(|(n, _)| n == name) {
                        Some(i) => i,
                        None => {
                            out.push((name.clone(), [0.0; 2]));
                            out.len() - 1
                        }
                    };
                    out[i].1[side] += if total > 0.0 { u.cost / total } else { 0.0 };
                }
            }
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        out
    }

    /// What a spell token held is worth to the policy for unit `u` of army `side`, in points:
    /// its best spell's expected points (on each of the enemy units it picks, the enemy army's
    /// units being equally likely), per token, at the bare chance to cast.
    fn token_worth(&self, u: &UnitInfo, side: usize) -> f64 {
        let enemies = &self.armies[1 - side];
        let chance = super::spellbook::cast_chance(0);
        let per_token = |spell: &super::spellbook::CastSpell| {
            let Some(group) = spell.hits() else { return 0.0 };
            let situation = crate::attack::plan::Situation::spell(self.edition, f64::from(spell.targets.range));
            let mean: f64 = enemies
                .iter()
                .map(|e| (crate::attack::exact::group_expected_wounds(group, &situation, &e.alloc, e.alloc.start()) * e.points_per_wound()).min(e.cost))
                .sum::<f64>()
                / enemies.len().max(1) as f64;
            chance * mean * f64::from(spell.targets.count.max(1)) / f64::from(spell.tokens.max(1))
        };
        u.casting.spells.iter().map(per_token).fold(0.0, f64::max)
    }

    /// Shooting (at 12") against melee (charging) damage, in expected points removed from
    /// the enemy army's units on average: "classify each unit as shooting, hybrid or melee by
    /// its exact expected damage".
    fn role(&self, side: usize, u: usize, ratio: f64) -> Role {
        let me = &self.armies[side][u];
        let runs: Vec<(&Model, u32)> = me.alloc.runs.iter().map(|(m, n)| (m, *n)).collect();
        let (mut shooting, mut melee) = (0.0, 0.0);
        for enemy in &self.armies[1 - side] {
            shooting += expected_wounds(&runs, &enemy.alloc, &situation(self.edition, false, 12.0)) * enemy.points_per_wound();
            melee += expected_wounds(&runs, &enemy.alloc, &situation(self.edition, true, 6.0)) * enemy.points_per_wound();
        }
        if me.movement.hold_only || me.movement.aircraft || shooting > ratio * melee {
            Role::Shooting
        } else if melee > ratio * shooting {
            Role::Melee
        } else {
            Role::Hybrid
        }
    }

    /// The ways each melee between units with options is played, for every [`melee_flags`].
    fn melee_option_table(&self) -> FxHashMap<(usize, usize, usize, u8), Vec<[u8; 2]>> {
        let mut jobs: Vec<(usize, usize, usize, u8)> = Vec::new();
        for side in 0..2 {
            for (u, c) in self.armies[side].iter().enumerate() {
                for (v, d) in self.armies[1 - side].iter().enumerate() {
                    let can = !(c.movement.aircraft || c.movement.hold_only || d.movement.aircraft);
                    if can && (c.tricks.options || d.tricks.options) {
                        jobs.extend((0..16).map(|flags| (side, u, v, flags)));
                    }
                }
            }
        }
        jobs.into_par_iter()
            .map(|(side, u, v, flags)| {
                let (c, d) = (&self.armies[side][u], &self.armies[1 - side][v]);
                let charger = UnitState { fatigued: flags & 2 != 0, ..UnitState::FRESH };
                let defender = UnitState { fatigued: flags & 4 != 0, shaken: flags & 8 != 0, ..UnitState::FRESH };
                let distance = if flags & 1 != 0 { 12.0 } else { 6.0 };
                let keys = Melee::from_allocations(c.alloc.clone(), d.alloc.clone(), &charger, &defender, true, distance, self.edition)
                    .map(|m| m.variants().iter().map(|(v, _)| v.options).collect())
                    .unwrap_or_else(|_| vec![[0, 0]]);
                ((side, u, v, flags), keys)
            })
            .collect()
    }

    /// `fresh_exchange` of `c` charging `d`, where it holds their `exchange` (not where
    /// `in_exchange_table` leaves it out).
    pub fn fresh_exchange_of(&self, c: (usize, usize), d: (usize, usize)) -> Option<&[Exchange; 2]> {
        let (ci, di) = (self.armies[c.0].get(c.1)?, self.armies[d.0].get(d.1)?);
        in_exchange_table(ci, di).then(|| self.fresh_exchange[c.0].get(c.1)?.get(d.1)).flatten()
    }

    /// The expected wounds of every charge of `side`'s units into the other army's, fresh.
    fn exchange_table(&self, side: usize) -> Vec<Vec<[Exchange; 2]>> {
        let (mine, theirs) = (&self.armies[side], &self.armies[1 - side]);
        (0..mine.len())
            .into_par_iter()
            .map(|u| {
                (0..theirs.len())
                    .map(|v| {
                        let (c, d) = (&mine[u], &theirs[v]);
                        if !in_exchange_table(c, d) {
                            return [Exchange::default(); 2];
                        }
                        [false, true].map(|far| exchange(c, UnitState::FRESH, d, UnitState::FRESH, far, self.edition))
                    })
                    .collect()
            })
            .collect()
    }

    /// Expected points each of `side`'s units removes from each fresh enemy shooting from 12".
    fn shot_table(&self, side: usize) -> Vec<Vec<f64>> {
        let (mine, theirs) = (&self.armies[side], &self.armies[1 - side]);
        mine.iter()
            .map(|me| {
                let runs: Vec<(&Model, u32)> = me.alloc.runs.iter().map(|(m, n)| (m, *n)).collect();
                theirs.iter().map(|t| if me.max_range > 0.0 { expected_wounds(&runs, &t.alloc, &situation(self.edition, false, 12.0)) * t.points_per_wound() } else { 0.0 }).collect()
            })
            .collect()
    }
}

/// Refuses a unit with a rule the edition's core lacks (`GameRules::refused`: Firefight's
/// Aircraft, Transport and Artillery), naming the rule: a game cannot play it as written.
fn check_refused(field: &str, units: &[Unit], edition: Edition, rules: &GameRules) -> Result<()> {
    for (i, unit) in units.iter().enumerate() {
        for m in unit.models() {
            if let Some(r) = m.rules.iter().find(|r| rules.refused.contains(&r.name.as_str())) {
                return Err(Error::invalid(
                    format!("{field}[{i}]"),
                    unit.name(),
                    format!("has {}, which {} does not have: a game cannot play it", r.name, edition.title()),
                ));
            }
        }
    }
    Ok(())
}

/// Refuses a unit wider than the table is deep: its formation (`across` inches wide, or at
/// least that wide where `least`) cannot be placed in reserve's arrival or a Flying move,
/// which keep the unit's disc on the table, nor, much wider, deployed.
pub(super) fn check_width(field: &str, name: &str, models: u32, across: f64, least: bool, rules: &GameRules) -> Result<()> {
    let depth = rules.table.depth;
    if across > depth {
        let how = if least { "at least " } else { "" };
        let why = format!("its {models} models stand {how}{across:.1}\" across in coherency (after any casualties), more than the table's {depth}\" depth: the unit cannot be placed on the table");
        return Err(Error::invalid(field, name, why));
    }
    Ok(())
}

/// Each model's base radius, in removal order.
pub(super) fn bases(alloc: &Allocation) -> Vec<f64> {
    alloc.runs.iter().flat_map(|(m, n)| std::iter::repeat_n(base_radius(m.tough), *n as usize)).collect()
}

/// The bit of `index` in a set of formation slots or weapons (indices past 63 share the last
/// bit).
pub(super) fn bit(index: usize) -> u64 {
    1 << index.min(63)
}

/// The spaces `alloc`'s models left in state `s` take in a transport: by Tough (v3.5), 1 for
/// a model or a Hero of up to Tough(6), 3 for a non-Hero of Tough(2) or Tough(3), `None`
/// when some model can't be carried ("models with Tough(6) or higher can't be transported",
/// Heroes up to Tough(6) aside); or (v2.x, "X other models") 1 a model.
pub fn spaces(alloc: &Allocation, s: State, by: Spaces) -> Option<u32> {
    let mut total = 0u32;
    for (m, n) in alloc.view(s, false).alive {
        let each = match (by, m.hero, m.tough) {
            (Spaces::OnePerModel, ..) => 1,
            (Spaces::ByTough, true, 0..=6) | (Spaces::ByTough, false, 0..=1) => 1,
            (Spaces::ByTough, false, 2..=3) => 3,
            _ => return None,
        };
        total = total.saturating_add(each * n);
    }
    Some(total)
}

/// The spaces a unit with Transport(X) offers: the X of its models (summed over them).
pub fn capacity(alloc: &Allocation) -> u32 {
    let mut total = 0u32;
    for (m, n) in &alloc.runs {
        for r in m.rules.iter().filter(|r| r.name == "Transport") {
            let x = u32::try_from(r.number().unwrap_or(0).clamp(0, i64::from(u16::MAX))).unwrap_or(0);
            total = total.saturating_add(x.saturating_mul(*n));
        }
    }
    total
}
