//! What special rules *do*, as compositions of a few effect primitives.
//!
//! A rule is a list of `(side, conditions, effect)` entries: on which side it acts (the
//! attacker's weapon or model, or the unit being attacked), when it applies (shooting,
//! melee, charging, over 9", the target's Defense or Tough), and a primitive effect (a roll
//! modifier, AP, extra hits on unmodified 6s, a re-roll, ignoring wounds on X+, ...).
//! A rule set is a table of these. The core rules of Grimdark Future v3.5 and the army-book
//! rules that the real books define in their `specialRules` text are both plain data below;
//! the engines only know the primitives.

use crate::edition::Edition;
use crate::profile::Model;
use crate::rules::Rule;
use super::index::{self, RuleId};

/// Whose rule it is when it takes effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// A rule of the attacking weapon or model.
    Attacker,
    /// A rule of the unit being attacked (which of its models need it: [`Needs`]).
    Target,
    /// A rule of the model itself outside the dice of an attack: melee resolution and morale.
    Own,
}

/// Which models of a unit must have a target-side or own rule for it to count. Editions
/// differ: v3.5 Regeneration needs "a unit where all models have this rule", v3.4.1
/// Fearless "a unit where most models have this rule", v3.4.1 Regeneration works for the
/// model "taking a wound".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Needs {
    All,
    /// More than half of the models left.
    Most,
    /// Any model left: one model lends the whole unit the effect (v2 Fear).
    Any,
    /// Target side: the model that takes the wounds: the next in removal order, or the one a Takedown picked.
    Each,
}

/// When an effect applies. All conditions of an entry must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cond {
    Shooting,
    /// Shooting or casting a spell: "units targeting them" (Aircraft).
    Targeting,
    Melee,
    /// The attacker charged this activation (Impact, Furious, Thrust).
    Charging,
    /// The attack is made from over 9" away ("shoots at enemies over 9" away").
    OverNine,
    /// The attacker moved before shooting (Indirect).
    Moved,
    /// The attacker did not move: a Hold action (v3.4.1 and Firefight Relentless).
    Stationary,
    /// The target has not moved since its last activation (v3.4.1 Entrenched).
    TargetStationary,
    /// The attacker has not fought in melee yet this round ("unless fatigued").
    NotFatigued,
    /// The attacking weapon or model lacks this rule (v2 Aircraft against Anti-Air).
    AttackerLacks(&'static str),
    /// Most models of the target have Defense `lo+` to `hi+`.
    TargetDefense(u8, u8),
    /// Most models of the target have Tough(`lo`) to Tough(`hi`).
    TargetTough(u32, u32),
    /// No model left of the target has this rule (the Firefight books' "non-Hero units").
    TargetLacks(&'static str),
    /// The attacking weapon or model has this rule (a Boost acts only with its rule).
    AttackerHas(&'static str),
    /// Every model left of the unit whose rule this is has this rule: the target for a
    /// target-side effect, the unit itself for an own one ("If all models in this unit have Hive Bond").
    UnitHasAll(&'static str),
    /// The attack is made from at most X" away ("shoots at enemies within 12"").
    WithinInches(u8),
    /// The attack is not made from over 9" away (what a Boost adds to an over-9" rule).
    NotOverNine,
    /// The attacker did not charge: it strikes back, or shoots.
    NotCharging,
    /// The attacker is the unit taking its activation: it shoots or charges, it does not
    /// strike back ("When this unit is activated, pick one effect: until the end of the activation").
    Activated,
    /// The option the attacking unit picked or rolled for its [`Effect::Options`] rule is this one.
    AttackerOption(u8),
    /// The option the attacked unit picked or rolled for its [`Effect::Options`] rule is this one.
    TargetOption(u8),
    /// Game: the attacker was deployed by Ambush this round ("on the round in which it
    /// deploys via this rule"); never in `attack()` and `melee()`, which play no rounds.
    Arrived,
    /// The hits are a spell's ("If the wounds were from a spell"; Shielded: "hits that are not
    /// from spells"), and the other way round.
    FromSpell,
    NotFromSpell,
}

/// How much: a fixed number, or the rule's own rating (`AP(X)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Amount {
    Fixed(i32),
    Rating,
}

/// How a unit settles an [`Effect::Options`] rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Settle {
    /// The owner picks ("pick one effect"): the option with the better expected wounds for it.
    Best,
    /// One die picks, each option equally likely ("on a 1-3 ..., and on a 4-6 ... instead").
    Roll,
}

/// Movement in inches a rule adds to (or takes from) each kind of move (gf-3.5 "Fast:
/// Moves +2" when using Advance, and +4" when using Rush/Charge").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moves {
    pub advance: i8,
    pub rush: i8,
    pub charge: i8,
}

/// When a unit may be placed again, and how far (Wolfborn, Bounding, Fanatic, Teleport).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    /// "When this unit is activated, you may place all models ... anywhere fully within X"".
    OnActivation,
    /// "After this model is deployed, it may be placed anywhere fully within X"".
    AfterDeployment,
}

/// The primitives the engines implement.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effect {
    /// Modifier to the attacker's to-hit rolls (attacker side) or to the rolls of units
    /// attacking this one (target side: Stealth -1, Artillery -2).
    HitModifier(Amount),
    /// Attacks at this Quality (Reliable: 2+); the roll can still be modified.
    Quality(u8),
    /// AP(X): the target gets -X to Defense rolls against these hits.
    Ap(Amount),
    /// Hits from unmodified 6s to hit get AP(+X) (v3.5 Rending).
    ApOnSix(i32),
    /// Hits from unmodified 6s to hit have AP(X), or the weapon's AP if higher ("unmodified
    /// rolls of 6 to hit get AP(4)": v3.4.1, v2 and Firefight Rending).
    ApOnSixAtLeast(i32),
    /// Unmodified 6s to hit deal X extra hits; only the original hit counts as a 6.
    ExtraHitsOnSix(i32),
    /// A hit from an unmodified 6 is multiplied by X, and every copy counts as from a 6 (v2 Poison).
    MultiplySixes(u8),
    /// Each unmodified 6 to hit rolls one extra attack, which makes no more (v2 Relentless).
    ExtraAttackOnSix,
    /// Hits from unmodified 6s that are not blocked deal X extra wounds (Rupture).
    ExtraWoundsOnUnblockedSix(i32),
    /// Unmodified 1s to block deal X extra wounds (Shred).
    ExtraWoundsOnBlockOne(i32),
    /// Blast(X): each hit is multiplied by X, up to the models in the target. `Blast(+3)`
    /// adds to the weapon's own X (0 without one).
    Blast(Amount),
    /// Each hit is multiplied by X, with no cap (v2 Blast: "All hits are multiplied by X").
    MultiplyHits(Amount),
    /// Deadly(X): each wound is multiplied by X on one model, without carry-over.
    Deadly(Amount),
    /// The target must re-roll unmodified Defense results of 6 (Bane).
    RerollDefenseSixes,
    IgnoreRegeneration,
    /// Only hits from unmodified 6s ignore Regeneration (v2 Rending).
    IgnoreRegenerationOnSix,
    IgnoreCover,
    /// Ignores all negative modifiers to hit and to range (Unstoppable, Lock-On).
    IgnoreNegativeHitModifiers,
    /// Picks one model of the target, resolved as a unit of 1, before other weapons.
    Takedown,
    /// Model side, when charging: X more attacks with its best melee weapon (v2 Furious).
    ExtraAttacks(i32),
    /// Roll X extra dice per model, each 2+ a hit with no modifiers or AP (Impact).
    ImpactDice(Amount),
    /// X automatic hits per model, no dice rolled (v2 Impact).
    ImpactHits(Amount),
    /// Target side, per model carrying it (not "all models"): attackers roll X fewer
    /// Impact dice (Counter).
    ImpactReduction(i32),
    /// Target side: weapons shooting at it have X" less range (Aircraft).
    RangePenalty(i32),
    /// Target side: +X to Defense rolls (Shielded, Sturdy; cover is the same primitive).
    DefenseModifier(Amount),
    /// Target side: hits count as having AP(-X), to a minimum of AP(0) (Fortified).
    ApReduction(i32),
    /// Target side: each wound is ignored on a roll of X+; `regeneration` says whether
    /// rules that ignore Regeneration bypass it.
    IgnoreWounds { on: u8, regeneration: bool },
    /// Attacker side, in melee: when charged, this weapon strikes before the charger (Counter).
    StrikesFirstWhenCharged,
    /// Attacker side (Firefight Fear): the target's wound-effect checks count X more wounds.
    WoundCheckBonus(Amount),
    /// Own: this model counts as having dealt X more wounds when checking who won a melee (Fear).
    ResolutionWounds(Amount),
    /// Own: the unit counts as having dealt D`X` more wounds when checking who won (v2 Fear: +D3).
    ResolutionWoundsRolled(u8),
    /// Own: a failed morale test passes on X+ (Fearless).
    PassFailedMoraleOn(u8),
    /// Own: +X to morale tests (v2 Fearless).
    MoraleModifier(i32),

    // Primitives the army books need.
    /// The carrier acts as if it had this rule too, under the entry's conditions ("This model
    /// gets Bane in melee"; "This model gets AP(+1) when charging" is an effect, not this).
    Gets(&'static str),
    /// Own, from one model: every model of its unit has this rule ("This model and its unit get X").
    UnitGets(&'static str),
    /// Attacker side: unmodified hits from this face up (not just 6s) deal the extra hits
    /// of [`Effect::ExtraHitsOnSix`] ("extra hits on successful unmodified hit results of 5-6").
    ExtraHitsFrom(u8),
    /// Attacker side: the same for the extra attack of [`Effect::ExtraAttackOnSix`].
    ExtraAttackFrom(u8),
    /// Attacker side: successful unmodified Defense results from this face up are re-rolled
    /// once ("must re-roll successful unmodified defense results of 5-6").
    RerollDefenseFrom(u8),
    /// Attacker side: failed unmodified Defense results up to this face deal the extra
    /// wounds of [`Effect::ExtraWoundsOnBlockOne`] ("on failed defense rolls of 1-2").
    ExtraWoundsUpTo(u8),
    /// Attacker side: the attacking model's ranged weapons get +X" ("+3" range when shooting").
    RangeBonus(Amount),
    /// Attacker side: this model's Impact hits have AP(X).
    ImpactAp(Amount),
    /// Attacker side, in melee, every time the model strikes: roll X dice; each `need`+ is a
    /// hit with AP(`ap`), or a wound no Defense roll blocks (`wounds`: Ravage, Crush).
    MeleeDice { amount: Amount, need: u8, ap: u8, wounds: bool },
    /// Own: the model counts as having Defense X+ (Armor).
    SetDefense(Amount),
    /// Own: the unit settles its options rule once per attack (`count` options, numbered
    /// from 0, read by [`Cond::AttackerOption`] and [`Cond::TargetOption`]).
    Options { count: u8, settle: Settle },
    /// Own, game: inches added to each kind of move (the unit moves as its slowest model).
    Move(Moves),
    /// Target side, game: enemies get X" less to charge this unit (Melee Shrouding).
    ChargePenalty(u8),
    /// Own, game: a unit Shaken at the beginning of the round stops being Shaken on X+.
    RecoverOn(u8),
    /// Own, game: the unit may be placed again within X" (plus D3 when `d3`).
    Reposition { when: Placement, inches: u8, d3: bool },
    /// Own, game: once per round, after shooting and/or after melee, the unit may move up to X".
    MoveAfterAttack { inches: u8, shooting: bool, melee: bool },
    /// Own, game: once per game the unit may activate a second time in a round.
    ExtraActivation,
    /// Own, game: the unit may be set aside before deployment and deployed at the start of
    /// round `from_round` or later, over `over` inches away from enemy units (0: only the
    /// rulebook's 1" between units). Ambush: over 9", from round 2; Infiltrate: 1"; Rapid
    /// Ambush: from round 1. Several in play: the nearest and the earliest.
    Ambush { over: u8, from_round: u8 },
    /// Own, game: once per activation, before attacking, the unit gives one friendly unit
    /// within 12" (itself included) this rule "once (next time the effect would apply)": the
    /// receiver has it for its next attack taken, morale test or move the rule acts on, then
    /// loses it (Stealth Buff, Regeneration Buff, Guarded Buff, Courage Buff, ...).
    Buff(&'static str),
    /// Own: "Once per activation, before attacking, pick one enemy unit within 18" with
    /// Caster, which gets -1 to casting rolls once" (negative: an enemy caster within 18";
    /// positive: "one friendly model within 12" with Caster", +1): Casting Debuff and Buff.
    CastingRollGiven(i8),
    /// Own: "Once per activation, before attacking, pick one enemy unit within 18", which gets
    /// -1 to defense rolls once (next time the effect would apply)": the rule (by the spells'
    /// words, `army::SPELL_GIVEN_3_5`) an enemy unit then holds once, as a friend's buff is
    /// held (Defense, Precision, Morale, Speed and Piercing Shooting Debuff).
    Debuff(&'static str),
    /// Own: "Once per activation, before attacking, pick one enemy unit within 18", which must
    /// take a morale test. If failed, it becomes fatigued" (Fatigue Debuff), or "which must
    /// immediately take a Dangerous Terrain test" (`dangerous`: Dangerous Terrain Debuff).
    EnemyTest {
        dangerous: bool,
    },
    /// Attacker side, on a weapon: it attacks only "when this model moves through enemy
    /// units ... as if it was shooting", never in a shooting or a melee (Strafing); see
    /// [`crate::attack::plan::Situation::moving_through`].
    OnlyMovingThrough,
    /// Own, game: once deployed by Ambush, roll X dice (the rule's rating); for each `need`+
    /// one enemy unit within `within` inches takes `hits` hits with AP(`ap`) (Surprise Attack).
    ArrivalHits { need: u8, within: u8, hits: u8, ap: u8 },
}

/// One entry of a rule: where, when, what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleEffect {
    pub side: Side,
    /// For target-side and own effects: which models must have the rule.
    pub needs: Needs,
    pub conds: &'static [Cond],
    pub effect: Effect,
}

/// A rule's definition in a rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleDef {
    pub name: &'static str,
    pub effects: &'static [RuleEffect],
}

pub(super) const fn attacker(conds: &'static [Cond], effect: Effect) -> RuleEffect {
    RuleEffect { side: Side::Attacker, needs: Needs::All, conds, effect }
}
pub(super) const fn target(conds: &'static [Cond], effect: Effect) -> RuleEffect {
    RuleEffect { side: Side::Target, needs: Needs::All, conds, effect }
}
pub(super) const fn target_each(conds: &'static [Cond], effect: Effect) -> RuleEffect {
    RuleEffect { side: Side::Target, needs: Needs::Each, conds, effect }
}
const fn own(effect: Effect) -> RuleEffect {
    RuleEffect { side: Side::Own, needs: Needs::All, conds: &[], effect }
}
const fn own_most(effect: Effect) -> RuleEffect {
    RuleEffect { side: Side::Own, needs: Needs::Most, conds: &[], effect }
}
pub(super) const fn own_any(effect: Effect) -> RuleEffect {
    RuleEffect { side: Side::Own, needs: Needs::Any, conds: &[], effect }
}
/// Own effects counted model by model (Fear(X): "This model counts as having dealt +X wounds").
const fn own_each(effect: Effect) -> RuleEffect {
    RuleEffect { side: Side::Own, needs: Needs::Each, conds: &[], effect }
}

use Amount::{Fixed, Rating};
use Cond::*;
use Effect::*;

pub(super) const NONE: &[Cond] = &[];
const IGNORES_REGENERATION: RuleEffect = attacker(NONE, IgnoreRegeneration);
const IGNORES_COVER: RuleEffect = attacker(NONE, IgnoreCover);

/// Effects several rulebooks share (each table row still quotes its own rulebook).
/// AP(X) on the weapon.
const AP_X: &[RuleEffect] = &[attacker(NONE, Ap(Rating))];
/// Deadly(X).
const DEADLY_X: &[RuleEffect] = &[attacker(NONE, Deadly(Rating))];
/// Indirect: -1 to hit when shooting after moving.
const INDIRECT: &[RuleEffect] = &[attacker(&[Shooting, Moved], HitModifier(Fixed(-1)))];
/// Regeneration on 5+ for the model taking the wound.
const REGENERATION_OF_THE_WOUNDED_MODEL: &[RuleEffect] = &[target_each(NONE, IgnoreWounds { on: 5, regeneration: true })];
/// Counter: strikes first when charged, -1 Impact per model.
const COUNTER: &[RuleEffect] = &[target(NONE, ImpactReduction(1)), attacker(&[Melee], StrikesFirstWhenCharged)];
/// Stealth: -1 to hit when shot from over 9".
const STEALTH_OVER_NINE: &[RuleEffect] = &[target(&[Shooting, OverNine], HitModifier(Fixed(-1)))];
/// Reliable: Quality 2+.
const RELIABLE: &[RuleEffect] = &[attacker(NONE, Quality(2))];
/// Furious: 6s to hit deal one extra hit when charging.
const SIXES_HIT_TWICE_CHARGING: &[RuleEffect] = &[attacker(&[Melee, Charging], ExtraHitsOnSix(1))];
/// Impact(X) dice after charging, unless fatigued.
const IMPACT_DICE: &[RuleEffect] = &[attacker(&[Melee, Charging, NotFatigued], ImpactDice(Rating))];
/// v3.5 Bane, v3.4.1 and Firefight Poison.
const BANE: &[RuleEffect] = &[IGNORES_REGENERATION, attacker(NONE, RerollDefenseSixes)];
/// Blast(X) up to the models in the target, ignoring cover.
const BLAST_CAPPED: &[RuleEffect] = &[IGNORES_COVER, attacker(NONE, Blast(Rating))];
/// Fear(X) per model at melee resolution.
const FEAR_PER_MODEL: &[RuleEffect] = &[own_each(ResolutionWounds(Rating))];
/// Fearless: a failed test passes on 4+.
const FEARLESS_ALL: &[RuleEffect] = &[own(PassFailedMoraleOn(4))];
/// Sniper: Quality 2+, picks a model.
const SNIPER: &[RuleEffect] = &[attacker(&[Shooting], Quality(2)), attacker(&[Shooting], Takedown)];
/// Relentless on a Hold action.
const SIXES_HIT_TWICE_ON_HOLD: &[RuleEffect] = &[attacker(&[Shooting, Stationary], ExtraHitsOnSix(1))];
/// v3.5 Thrust, v3.4.1 Lance: +1 to hit and AP(+1) when charging.
const CHARGE_HIT_AND_AP: &[RuleEffect] = &[attacker(&[Melee, Charging], HitModifier(Fixed(1))), attacker(&[Melee, Charging], Ap(Fixed(1)))];
/// v3.4.1 and Firefight Rending.
const RENDING_AP4: &[RuleEffect] = &[IGNORES_REGENERATION, attacker(NONE, ApOnSixAtLeast(4))];
/// Fast: +2" Advance, +4" Rush and Charge, when all models have it.
const FAST: &[RuleEffect] = &[own(Move(Moves { advance: 2, rush: 4, charge: 4 }))];
/// v2.x Fast: 9" Advance, 18" Rush and Charge, when all models have it.
const FAST_9_18: &[RuleEffect] = &[own(Move(Moves { advance: 3, rush: 6, charge: 6 }))];
/// Slow: -2" Advance, -4" Rush and Charge, when any model has it.
const SLOW: &[RuleEffect] = &[own_any(Move(Moves { advance: -2, rush: -4, charge: -4 }))];
/// Ambush: set aside, arrives from round 2 over 9" from enemies, when all models have it.
const AMBUSH: &[RuleEffect] = &[own(Ambush { over: 9, from_round: 2 })];
/// Lock-On.
const LOCK_ON: &[RuleEffect] = &[IGNORES_COVER, attacker(NONE, IgnoreNegativeHitModifiers)];

/// The core rules of gf-3.5-beginners-guide.txt that change an attack's dice, and Fast and
/// Slow (the game reads every move bonus through [`Effect::Move`]). Other rules about
/// movement, deployment or transport are known (see `catalog`) but have no entry.
pub const CORE_3_5: &[RuleDef] = &[
    // "AP(X): Targets get -X to Defense rolls when blocking hits from weapons with this special rule."
    RuleDef { name: "AP", effects: AP_X },
    // "Aircraft: ... units targeting them get -12" to their range." (shots and spells)
    RuleDef { name: "Aircraft", effects: &[target(&[Targeting], RangePenalty(12))] },
    // "Artillery: ... When this model shoots at enemies over 9" away, it gets +1 to hit rolls.
    // When enemy units shoot at this model from over 9" away, they get -2 to hit rolls."
    RuleDef {
        name: "Artillery",
        effects: &[attacker(&[Shooting, OverNine], HitModifier(Fixed(1))), target(&[Shooting, OverNine], HitModifier(Fixed(-2)))],
    },
    // "Bane: Ignores Regeneration, and when attacking the target must re-roll unmodified Defense results of 6."
    RuleDef { name: "Bane", effects: BANE },
    // "Blast(X): Ignores cover, and after resolving other special rules, each hit is multiplied by X,
    // where X is up to as many hits as models in the target unit."
    RuleDef { name: "Blast", effects: BLAST_CAPPED },
    // "Deadly(X): Assign each wound to one model, and multiply it by X. Hits from Deadly must be
    // resolved first, and these wounds don't carry over to other models if the original target is killed."
    RuleDef { name: "Deadly", effects: DEADLY_X },
    // "Counter: Strikes first with this weapon when charged, and the charging unit gets -1
    // total Impact rolls per model with Counter."
    RuleDef { name: "Counter", effects: COUNTER },
    // "Fast: Models with this special rule move +2" when using Advance and +4" when using
    // Rush/Charge." (The unit moves as its slowest model: only when all models have it.)
    RuleDef { name: "Fast", effects: FAST },
    // "Fear(X): This model counts as having dealt +X wounds when checking who won melee."
    RuleDef { name: "Fear", effects: FEAR_PER_MODEL },
    // "Ambush: May be set aside before deployment. At the start of any round after the first,
    // may be deployed anywhere over 9" away from enemy units." (The unit waits while any of its
    // models lacks it: all models must have it.)
    RuleDef { name: "Ambush", effects: AMBUSH },
    // "Fearless: When a unit where all models have this rule fails a morale test, roll one die.
    // On a 4+ it counts as passed instead."
    RuleDef { name: "Fearless", effects: FEARLESS_ALL },
    // "Furious: When charging, unmodified results of 6 to hit in melee deal 1 extra hit."
    RuleDef { name: "Furious", effects: SIXES_HIT_TWICE_CHARGING },
    // "Impact(X): Roll X dice when attacking after charging, unless fatigued. For each 2+ the target takes one hit."
    RuleDef { name: "Impact", effects: IMPACT_DICE },
    // "Indirect: Gets -1 to hit rolls when shooting after moving. ... ignores cover from sight obstructions."
    RuleDef { name: "Indirect", effects: INDIRECT },
    // "Regeneration: When a unit where all models have this rule takes wounds, roll one die for each. On a 5+ it is ignored."
    RuleDef { name: "Regeneration", effects: &[target(NONE, IgnoreWounds { on: 5, regeneration: true })] },
    // "Relentless: When this model shoots at enemies over 9" away, unmodified results of 6 to hit deal 1 extra hit."
    RuleDef { name: "Relentless", effects: &[attacker(&[Shooting, OverNine], ExtraHitsOnSix(1))] },
    // "Reliable: Models attacks at Quality 2+ with this weapon."
    RuleDef { name: "Reliable", effects: RELIABLE },
    // "Rending: Ignores Regeneration, and on unmodified results of 6 to hit, those hits get AP(+4)."
    RuleDef { name: "Rending", effects: &[IGNORES_REGENERATION, attacker(NONE, ApOnSix(4))] },
    // "Slow: Models with this special rule move -2" when using Advance, and -4" when using
    // Rush/Charge." (The unit moves as its slowest model: when any model has it.)
    RuleDef { name: "Slow", effects: SLOW },
    // "Stealth: When units where all models have this rule are shot from over 9" away, enemy units get -1 to hit rolls."
    RuleDef { name: "Stealth", effects: STEALTH_OVER_NINE },
    // "Surge: On unmodified results of 6 to hit, this weapon deals 1 extra hit."
    RuleDef { name: "Surge", effects: &[attacker(NONE, ExtraHitsOnSix(1))] },
    // "Takedown: This model may pick any model in the target unit as its individual target,
    // which is resolved as if it was a unit of [1]. Takedown attacks must be resolved before other weapons."
    RuleDef { name: "Takedown", effects: &[attacker(NONE, Takedown)] },
    // "Thrust: When charging, gets +1 to hit rolls and AP(+1) in melee."
    RuleDef { name: "Thrust", effects: CHARGE_HIT_AND_AP },
    // "Unstoppable: Ignores Regeneration, and ignores all negative modifiers to this weapon."
    RuleDef { name: "Unstoppable", effects: &[IGNORES_REGENERATION, attacker(NONE, IgnoreNegativeHitModifiers)] },
];

/// gf-3.4.1-core.txt, "Special Rules Reference": the rules that change an attack's dice.
pub const CORE_3_4_1: &[RuleDef] = &[
    // "AP(X): Targets get -X to Defense rolls when blocking hits from this weapon."
    RuleDef { name: "AP", effects: AP_X },
    // "Aircraft: ... units targeting them get -12" range and -1 to hit." ("targeting": shots
    // and spells lose the range, as v3.5's row reads the same words; spells roll no hits)
    RuleDef { name: "Aircraft", effects: &[target(&[Targeting], RangePenalty(12)), target(&[Shooting], HitModifier(Fixed(-1)))] },
    // "Ambush: May be set aside before deployment. At the start of any round after the first,
    // may be deployed anywhere over 9" away from enemy units." (all models must have it)
    RuleDef { name: "Ambush", effects: AMBUSH },
    // "Blast(X): Ignores cover, and after resolving other special rules, each hit is multiplied
    // by X, where X is up to as many hits as models in the target unit."
    RuleDef { name: "Blast", effects: BLAST_CAPPED },
    // "Counter: Strikes first with this weapon when charged, and the charging unit gets -1
    // total Impact rolls per model with Counter."
    RuleDef { name: "Counter", effects: COUNTER },
    // "Deadly(X): Assign each wound to one model, and multiply it by X. ..."
    RuleDef { name: "Deadly", effects: DEADLY_X },
    // "Entrenched: Enemies get -2 to hit when shooting at this model from over 9" away, as long
    // as it hasn't moved since the beginning of its last activation."
    RuleDef { name: "Entrenched", effects: &[target(&[Shooting, OverNine, TargetStationary], HitModifier(Fixed(-2)))] },
    // "Fast: Moves +2" when using Advance and +4" when using Rush/Charge." (all models must have it)
    RuleDef { name: "Fast", effects: FAST },
    // "Fear(X): This model counts as having dealt +X wounds when checking who won melee."
    RuleDef { name: "Fear", effects: FEAR_PER_MODEL },
    // "Fearless: Whenever a unit where most models have this rule fails a morale test, roll
    // one die. On a 4+ it counts as passed instead."
    RuleDef { name: "Fearless", effects: &[own_most(PassFailedMoraleOn(4))] },
    // "Furious: When charging, unmodified rolls of 6 to hit in melee deal one extra hit ..."
    RuleDef { name: "Furious", effects: SIXES_HIT_TWICE_CHARGING },
    // "Impact(X): Roll X dice when attacking after charging, unless fatigued. For each 2+ the target takes one hit."
    RuleDef { name: "Impact", effects: IMPACT_DICE },
    // "Indirect: Gets -1 to hit rolls when shooting after moving. ..."
    RuleDef { name: "Indirect", effects: INDIRECT },
    // "Lance: When charging, gets +1 to hit rolls and AP(+1) in melee."
    RuleDef { name: "Lance", effects: CHARGE_HIT_AND_AP },
    // "Lock-On: Ignores cover and all negative modifiers to hit rolls and range."
    RuleDef { name: "Lock-On", effects: LOCK_ON },
    // "Poison: Ignores Regeneration, and the target must re-roll unmodified Defense rolls of 6 when blocking hits."
    RuleDef { name: "Poison", effects: BANE },
    // "Regeneration: When taking a wound, roll one die. On a 5+ it is ignored."
    RuleDef { name: "Regeneration", effects: REGENERATION_OF_THE_WOUNDED_MODEL },
    // "Relentless: When using Hold actions and shooting, unmodified rolls of 6 to hit deal one extra hit ..."
    RuleDef { name: "Relentless", effects: SIXES_HIT_TWICE_ON_HOLD },
    // "Reliable: Attacks at Quality 2+."
    RuleDef { name: "Reliable", effects: RELIABLE },
    // "Rending: Ignores Regeneration, and unmodified rolls of 6 to hit get AP(4)."
    RuleDef { name: "Rending", effects: RENDING_AP4 },
    // "Slow: Moves -2" when using Advance, and -4" when using Rush/Charge." (any model slows the unit)
    RuleDef { name: "Slow", effects: SLOW },
    // "Sniper: Shoots at Quality 2+, and each model with Sniper may pick any model in the target
    // unit as its individual target, which is resolved as if it was a unit of 1. Sniper shooting
    // must be resolved before other weapons."
    RuleDef { name: "Sniper", effects: SNIPER },
    // "Stealth: Enemies get -1 to hit rolls when shooting at units where all models have this rule from over 9" away."
    RuleDef { name: "Stealth", effects: STEALTH_OVER_NINE },
];

/// gf-2.x-one-page.txt, "Special Rules".
pub const CORE_2: &[RuleDef] = &[
    // "Aircraft: ... Non-aircraft units count as being an extra 12" away when measuring and get -1 to shooting."
    RuleDef {
        name: "Aircraft",
        effects: &[target(&[Shooting, AttackerLacks("Anti-Air")], RangePenalty(12)), target(&[Shooting, AttackerLacks("Anti-Air")], HitModifier(Fixed(-1)))],
    },
    // "Anti-Air: This unit doesn't count as being an extra 12" away and doesn't get -1 to
    // shooting against aircraft." (Read through Aircraft's `AttackerLacks`.)
    RuleDef { name: "Anti-Air", effects: &[] },
    // "Ambush: This model may be kept in reserve instead of deploying. At the start of any
    // round after the first you may place the model anywhere over 9” away from enemy units."
    // (all models must have it)
    RuleDef { name: "Ambush", effects: AMBUSH },
    // "AP: Targets get -X to Defense rolls when blocking hits."
    RuleDef { name: "AP", effects: AP_X },
    // "Blast: All hits are multiplied by X."
    RuleDef { name: "Blast", effects: &[attacker(NONE, MultiplyHits(Rating))] },
    // "Deadly: Assign each wound to one model and multiply it by X. ..."
    RuleDef { name: "Deadly", effects: DEADLY_X },
    // "Fast: Move 9” when using Advance and 18” when using Rush/Charge." (as +3"/+6" on the
    // 6"/12" moves, so that other move bonuses add to it; all models must have it)
    RuleDef { name: "Fast", effects: FAST_9_18 },
    // "Fear: Always counts as having dealt +D3 wounds for seeing who won melee."
    RuleDef { name: "Fear", effects: &[own_any(ResolutionWoundsRolled(3))] },
    // "Fearless: Gets +1 to morale tests."
    RuleDef { name: "Fearless", effects: &[own(MoraleModifier(1))] },
    // "Furious: Gets +1 attack with a weapon of your choice when charging."
    RuleDef { name: "Furious", effects: &[attacker(&[Melee, Charging], ExtraAttacks(1))] },
    // "Impact: Deals X automatic hits when charging successfully."
    RuleDef { name: "Impact", effects: &[attacker(&[Melee, Charging], ImpactHits(Rating))] },
    // "Indirect: ... gets -1 to hit rolls when shooting after moving."
    RuleDef { name: "Indirect", effects: INDIRECT },
    // "Poison: When rolling an unmodified 6 to hit, that hit is multiplied by 3."
    RuleDef { name: "Poison", effects: &[attacker(NONE, MultiplySixes(3))] },
    // "Regeneration: When taking a wound, roll one die. On a 5+ it is ignored."
    RuleDef { name: "Regeneration", effects: REGENERATION_OF_THE_WOUNDED_MODEL },
    // "Relentless: For each unmodified roll of 6 to hit when shooting, this model may roll 1
    // extra attack. This rule doesn't apply to newly generated attacks."
    RuleDef { name: "Relentless", effects: &[attacker(&[Shooting], ExtraAttackOnSix)] },
    // "Rending: Unmodified rolls of 6 to hit count as having AP(4) and ignore the regeneration rule."
    RuleDef { name: "Rending", effects: &[attacker(NONE, ApOnSixAtLeast(4)), attacker(NONE, IgnoreRegenerationOnSix)] },
    // "Slow: Move 4” when using Advance and 8” when using Rush/Charge." (-2"/-4"; any model
    // slows the unit)
    RuleDef { name: "Slow", effects: SLOW },
    // "Sniper: Shoots at Quality 2+, and may pick one model in a unit as its target, which is
    // resolved as if it's a unit of 1."
    RuleDef { name: "Sniper", effects: SNIPER },
    // "Stealth: Enemies get -1 to shooting when targeting this unit."
    RuleDef { name: "Stealth", effects: &[target(&[Shooting], HitModifier(Fixed(-1)))] },
];

/// gf-firefight-3.2.txt, "Special Rules".
pub const CORE_FIREFIGHT_3_2: &[RuleDef] = &[
    // "At the beginning of any round after the first, you may place the model anywhere on the
    // table, over 9" away from enemy units." (played by a game; its order and last-round
    // blindness are `GameRules::reserve_order` and `GameRules::blind_arrival`)
    RuleDef { name: "Ambush", effects: AMBUSH },
    // "AP(X): Enemy units taking hits from weapons with this special rule get -X to Defense rolls."
    RuleDef { name: "AP", effects: AP_X },
    // "Blast(X): Each attack from this weapon ignores cover and multiplies its hits by X,
    // however it can't deal more than one hit per model."
    RuleDef { name: "Blast", effects: BLAST_CAPPED },
    // "Counter: Whenever a model with this weapon is charged, it may strike before the charging
    // unit with it, and the charging unit gets -1 total Impact attacks (per model with this rule)."
    RuleDef { name: "Counter", effects: COUNTER },
    // "Deadly(X): Whenever a model takes wounds from a weapon with this special rule, multiply
    // the amount of wounds suffered by X."
    RuleDef { name: "Deadly", effects: DEADLY_X },
    // "Models with this special rule move +2" when using Advance actions, and +4" when using
    // Rush or Charge actions."
    RuleDef { name: "Fast", effects: FAST },
    // "Fear(X): Units with this special rule count as having dealt +X wounds when checking for
    // wound effects."
    RuleDef { name: "Fear", effects: &[attacker(NONE, WoundCheckBonus(Rating))] },
    // "Fearless: Whenever models with this special rule fails morale test, roll one die. On a
    // 4+ the test is passed instead."
    RuleDef { name: "Fearless", effects: FEARLESS_ALL },
    // "Furious: Whenever a model with this rule charges, hits from unmodified rolls of 6 are
    // multiplied by 2, but only the original hit counts as a 6 for special rules."
    RuleDef { name: "Furious", effects: SIXES_HIT_TWICE_CHARGING },
    // "Impact(X): Whenever this model attacks after charging (without being fatigued), roll X
    // dice. For each 2+ the target takes one hit."
    RuleDef { name: "Impact", effects: IMPACT_DICE },
    // "Indirect: ... however they get -1 to hit when shooting after moving."
    RuleDef { name: "Indirect", effects: INDIRECT },
    // "Lance: Whenever a model with a weapon with this special rule charges, this weapon gets AP(+2)."
    RuleDef { name: "Lance", effects: &[attacker(&[Melee, Charging], Ap(Fixed(2)))] },
    // "Lock-On: Weapons with this special rule ignore cover and all negative modifiers to hit rolls and range."
    RuleDef { name: "Lock-On", effects: LOCK_ON },
    // "Poison: Enemy units taking wounds from weapons with this special rule can't regenerate
    // them, and must re-roll unmodified Defense rolls of 6 when blocking hits."
    RuleDef { name: "Poison", effects: BANE },
    // "Regeneration: Whenever this model takes wounds, roll one die for each. On a 5+ the wound is ignored."
    RuleDef { name: "Regeneration", effects: REGENERATION_OF_THE_WOUNDED_MODEL },
    // "Relentless: Whenever a model with this rule uses a Hold action and shoots, hits from
    // unmodified rolls of 6 are multiplied by 2, but only the original hit counts as a 6 ..."
    RuleDef { name: "Relentless", effects: SIXES_HIT_TWICE_ON_HOLD },
    // "Reliable: Models attacking with weapons with this special rule count as having Quality 2+"
    RuleDef { name: "Reliable", effects: RELIABLE },
    // "Rending: Enemy units taking wounds from weapons with this special rule can't regenerate
    // them, and whenever you roll an unmodified to hit result of 6, that hit counts as having AP{4}."
    RuleDef { name: "Rending", effects: RENDING_AP4 },
    // "Models with this special rule move -2" when using Advance actions, and -4" when using
    // Rush or Charge actions."
    RuleDef { name: "Slow", effects: SLOW },
    // "Stealth: Enemies targeting units where all models have this special rule get -1 to hit
    // when shooting at them from over 9" away."
    RuleDef { name: "Stealth", effects: STEALTH_OVER_NINE },
];

/// What a wound does to a unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WoundModel {
    /// Grimdark Future: "For each wound, the defender must remove one model" (Tough takes X).
    Removal,
    /// Firefight: each wound kills one model until one is left, which takes wound markers and
    /// rolls for Stunned or Knocked Out ("Wound Effects & Morale").
    WoundEffects,
}

/// What a failed morale test does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MoraleRule {
    /// Grimdark Future: Shaken (v2: Wavering); in melee at half strength or less, Rout.
    ShakenOrRout,
    /// Firefight Rout tests: a failed test Stuns the unit; a unit already Stunned Routs
    /// "instead of taking a morale test".
    StunnedOrRout,
}

/// An edition's rules as data: the rule tables and the few rules of the game itself that
/// differ between editions. The engines read these; adding an edition adds one of these.
#[derive(Debug, Clone, Copy)]
pub struct Ruleset {
    pub core: &'static [RuleDef],
    /// Army-book rules this edition's books define (the real books in `shared/` are v3.5.1).
    pub army: &'static [RuleDef],
    /// What cover gives against shooting: +1 Defense (v3.x, Firefight), -1 to hit (v2).
    pub cover: Effect,
    pub wounds: WoundModel,
    /// Whether a unit tests morale when wounds leave it at half strength or less.
    pub morale_from_wounds: bool,
    /// Whether a melee is resolved by comparing wounds, the loser testing morale.
    pub melee_resolution: bool,
    pub morale: MoraleRule,
    /// The name of the state a failed morale test (or a wound effect) leaves a unit in.
    pub failed_state: &'static str,
    /// Blast's cap of one hit per model counts each attack's hits together (Firefight: "Each
    /// attack from this weapon ... multiplies its hits by X, however it can't deal more than
    /// one hit per model"), not each hit alone (v3.5: "each hit is multiplied by X, where X is
    /// up to as many hits as models"): an attack's extra hits from a 6 stay under the cap.
    pub blast_caps_each_attack: bool,
}

const V3_5: Ruleset = Ruleset {
    core: CORE_3_5,
    army: super::army::ARMY_3_5,
    // "units ... get +1 to Defense rolls when blocking hits from shooting attacks"
    cover: DefenseModifier(Fixed(1)),
    wounds: WoundModel::Removal,
    morale_from_wounds: true,
    melee_resolution: true,
    morale: MoraleRule::ShakenOrRout,
    failed_state: "Shaken",
    blast_caps_each_attack: false,
};

const V3_4_1: Ruleset = Ruleset { core: CORE_3_4_1, army: &[], ..V3_5 };

const V2: Ruleset = Ruleset {
    core: CORE_2,
    army: &[],
    // "Units that shoot at enemies with most models in or behind cover get -1 to shooting."
    cover: HitModifier(Fixed(-1)),
    // "if failed it is Wavering until the end of its next activation"
    failed_state: "Wavering",
    ..V3_5
};

const FIREFIGHT_3_2: Ruleset = Ruleset {
    core: CORE_FIREFIGHT_3_2,
    // the Firefight books' own rows; the GF books' rows they reprint are inherited
    // (`army_firefight::inherited`)
    army: super::army_firefight::ARMY_FIREFIGHT_3_2,
    // "they get +1 to Defense rolls when blocking hits from shooting attacks"
    cover: DefenseModifier(Fixed(1)),
    wounds: WoundModel::WoundEffects,
    morale_from_wounds: false,
    melee_resolution: false,
    morale: MoraleRule::StunnedOrRout,
    failed_state: "Stunned",
    blast_caps_each_attack: true,
};

/// The rule set of an edition.
pub fn rule_set(edition: Edition) -> &'static Ruleset {
    match edition {
        Edition::V3_5 => &V3_5,
        Edition::V3_4_1 => &V3_4_1,
        Edition::V2 => &V2,
        Edition::Firefight3_2 => &FIREFIGHT_3_2,
    }
}

/// An `Own` effect in play for a unit: its rule's rating and how many models give it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OwnEffect {
    pub effect: Effect,
    pub rating: i64,
    pub models: u32,
}

/// The `Own` effects (melee resolution, morale, movement) of a unit whose models left are
/// `alive`: model-by-model effects once per run of models carrying them; unit effects once,
/// when enough of the models have the rule (all, most or any, as the edition says) and the
/// entry's conditions on the unit hold. Rules a rule gives ([`Effect::Gets`]) count too.
pub fn own_effects(edition: Edition, alive: &[(&Model, u32)]) -> Vec<OwnEffect> {
    unit_effects(edition, alive, Side::Own)
}

/// The effects of one side in play for a unit whose models left are `alive`, as
/// [`own_effects`] finds the `Own` ones: entries whose only conditions are on the unit itself
/// ([`Cond::UnitHasAll`]), when enough models have the rule (the game reads the target-side
/// [`Effect::ChargePenalty`] of the charged unit so).
pub fn unit_effects(edition: Edition, alive: &[(&Model, u32)], side: Side) -> Vec<OwnEffect> {
    let total: u32 = alive.iter().map(|(_, n)| n).sum();
    // each rule the tables define once (a name no table uses has no entries)
    let mut ids: smallvec::SmallVec<[RuleId; 16]> = smallvec::SmallVec::new();
    for (m, _) in alive {
        for r in &m.rules {
            if !r.id().is_none() && !ids.contains(&r.id()) {
                ids.push(r.id());
            }
        }
    }
    let all_have = |id: RuleId| total > 0 && alive.iter().all(|(m, _)| m.rules.iter().any(|r| r.id() == id));
    let mut out = Vec::new();
    for id in ids {
        let carriers = || alive.iter().filter_map(|(m, n)| m.rules.iter().find(|r| r.id() == id).map(|r| (r.number().unwrap_or(0), *n)));
        for e in index::entries(edition, id) {
            // entries whose only conditions are on the unit itself
            if e.entry.side != side || matches!(e.entry.effect, Effect::Gets(_)) || !e.conditions().all(|(c, named)| matches!(c, Cond::UnitHasAll(_)) && all_have(named)) {
                continue;
            }
            if e.entry.needs == Needs::Each {
                out.extend(carriers().map(|(rating, models)| OwnEffect { effect: e.entry.effect, rating, models }));
                continue;
            }
            let having: u32 = carriers().map(|(_, n)| n).sum();
            if holds_for(e.entry.needs, having, total) {
                let rating = carriers().map(|(r, _)| r).max().unwrap_or(0);
                out.push(OwnEffect { effect: e.entry.effect, rating, models: having });
            }
        }
    }
    out
}

/// Calls `f(conditions of the giving entry, entry)` for every entry of the rule `name`, and
/// for every entry of the rules it gives by [`Effect::Gets`] (whose own conditions must hold
/// as well as the giver's): [`index::entries`] after one look-up by name, for callers outside
/// the engines' hot paths (those hold a [`Rule`] and its id).
pub fn for_each_entry(edition: Edition, name: &str, f: &mut dyn FnMut(&'static [Cond], &'static RuleEffect)) {
    for e in index::entries(edition, RuleId::of(name)) {
        f(e.outer, e.entry);
    }
}

/// [`for_each_entry`] for a rule at hand, by its id.
pub fn for_each_entry_of(edition: Edition, rule: &Rule, f: &mut dyn FnMut(&'static [Cond], &'static RuleEffect)) {
    for e in index::entries(edition, rule.id()) {
        f(e.outer, e.entry);
    }
}

/// Whether the rule `id`, or a rule it gives, has an entry on `side` whose effect `f` accepts.
pub fn has_entry(edition: Edition, id: RuleId, side: Side, f: impl Fn(&Effect) -> bool) -> bool {
    index::entries(edition, id).iter().any(|e| e.entry.side == side && f(&e.entry.effect))
}

/// Whether a target's rule of `edition` asks whether the attacker has the rule `name` (v2's
/// Aircraft: "Non-aircraft units count as being an extra 12” away ... Anti-Air: This unit
/// doesn't count as being an extra 12” away"): such a rule of the attacking model counts,
/// though it has no effect of its own.
pub fn asked_of_attackers(edition: Edition, name: &str) -> bool {
    static ASKED: std::sync::OnceLock<Vec<Vec<&'static str>>> = std::sync::OnceLock::new();
    let asked = ASKED.get_or_init(|| {
        Edition::ALL
            .iter()
            .map(|&e| {
                let set = rule_set(e);
                let mut names: Vec<&'static str> = Vec::new();
                for d in set.core.iter().chain(set.army) {
                    for re in d.effects.iter().filter(|re| re.side == Side::Target) {
                        for c in re.conds {
                            if let Cond::AttackerLacks(n) | Cond::AttackerHas(n) = c {
                                if !names.contains(n) {
                                    names.push(n);
                                }
                            }
                        }
                    }
                }
                names
            })
            .collect()
    });
    Edition::ALL.iter().position(|&e| e == edition).is_some_and(|i| asked[i].contains(&name))
}

/// The models of a unit as the engines see them: rules lent to the whole unit by one of its
/// models ("This model and its unit get X": [`Effect::UnitGets`]) on every model, and
/// Defense set by a rule ("Counts as having Defense X+") in place.
pub fn in_play(edition: Edition, mut runs: Vec<(Model, u32)>) -> Vec<(Model, u32)> {
    let mut lent: Vec<&'static str> = Vec::new();
    let mut armor: Vec<(usize, u8)> = Vec::new();
    for (i, (m, _)) in runs.iter().enumerate() {
        for r in &m.rules {
            for_each_entry_of(edition, r, &mut |_, e| match e.effect {
                Effect::UnitGets(name) if !lent.contains(&name) => lent.push(name),
                Effect::SetDefense(a) => {
                    let x = match a {
                        Amount::Fixed(n) => i64::from(n),
                        Amount::Rating => r.number().unwrap_or(0),
                    };
                    armor.push((i, x.clamp(2, 6) as u8));
                }
                _ => {}
            });
        }
    }
    for (i, d) in armor {
        runs[i].0.defense = d;
    }
    // A lent rule may lend more (an aura of an aura): follow until nothing new is lent.
    let mut k = 0;
    while k < lent.len() {
        let name = lent[k];
        for_each_entry(edition, name, &mut |_, e| {
            if let Effect::UnitGets(more) = e.effect {
                if !lent.contains(&more) {
                    lent.push(more);
                }
            }
        });
        k += 1;
    }
    for (m, _) in &mut runs {
        for name in &lent {
            if !m.rules.iter().any(|r| r.name == *name) {
                m.rules.push(Rule::new((*name).to_string(), None));
            }
        }
    }
    runs
}

/// Whether `having` models of `total` are enough (the first in removal order decides `Each`,
/// which callers check themselves).
pub fn holds_for(needs: Needs, having: u32, total: u32) -> bool {
    match needs {
        Needs::All => total > 0 && having == total,
        Needs::Most => 2 * having > total,
        Needs::Any | Needs::Each => having > 0,
    }
}

/// The definition of a rule under an edition's rule set, if it has one (checks and cost
/// features; the engines read [`index::entries`]).
pub fn definition(edition: Edition, name: &str) -> Option<&'static RuleDef> {
    index::definition(edition, name)
}
