//! The army-book rules of the real Grimdark Future v3.5 books, as rows over the effect
//! primitives of [`super::effects`].
//!
//! Every name a book defines in its `specialRules` has one text across all 43 books, so a
//! name is one definition here, and rules that are the same rule under another name share
//! one list of effects (Bloodborn, Clan Warrior and Primal are one rule). Each row follows
//! its book text, quoted in `tests/test_army_rules.py` against the books themselves. Rules
//! no engine plays are in [`super::census::NOT_MODELLED`] with the reason.

use super::effects::Amount::{Fixed, Rating};
use super::effects::Cond::*;
use super::effects::Effect::*;
use super::effects::{attacker, own_any, target, target_each, NONE};
use super::effects::{Cond, Effect, Moves, Needs, Placement, RuleDef, RuleEffect, Settle, Side};

/// "Tough(3) or higher".
const TOUGH_3_UP: Cond = TargetTough(3, u32::MAX);

/// Own: the unit, when all its models have the rule and `conds` on it hold.
pub(super) const fn own(conds: &'static [Cond], effect: Effect) -> RuleEffect {
    RuleEffect { side: Side::Own, needs: Needs::All, conds, effect }
}
/// The carrier has `rule` too, under `conds` ("This model gets Bane in melee").
pub(super) const fn gets(conds: &'static [Cond], rule: &'static str) -> RuleEffect {
    RuleEffect { side: Side::Own, needs: Needs::All, conds, effect: Gets(rule) }
}
pub(super) const fn moves(advance: i8, rush: i8, charge: i8) -> Effect {
    Move(Moves { advance, rush, charge })
}
pub(super) const fn def(name: &'static str, effects: &'static [RuleEffect]) -> RuleDef {
    RuleDef { name, effects }
}

// Effect lists several rules share: one definition, many names.
/// "For each unmodified roll of 6 to hit when attacking, this model may roll +1 attack with
/// that weapon. This rule doesn't apply to newly generated attacks."
const EXTRA_ATTACK_ON_SIX: &[RuleEffect] = &[attacker(NONE, ExtraAttackOnSix)];
/// "When attacking, unmodified results of 6 to hit deal 1 extra hit".
const EXTRA_HIT_ON_SIX: &[RuleEffect] = &[attacker(NONE, ExtraHitsOnSix(1))];
/// "Enemies that roll to block hits from this model's weapons take 1 extra wound for each unmodified result of 1".
const SHRED_WEAPONS: &[RuleEffect] = &[attacker(NONE, ExtraWoundsOnBlockOne(1))];
/// "When a unit where all models have this rule takes wounds, roll one die for each. On a 6+ it is ignored."
const IGNORE_WOUNDS_ON_SIX: &[RuleEffect] = &[target(NONE, IgnoreWounds { on: 6, regeneration: false })];
/// "Units where all models have this rule get +1 to morale test rolls."
const MORALE_PLUS_ONE: &[RuleEffect] = &[own(NONE, MoraleModifier(1))];
/// "When units where all models have this rule are shot or charged from over 9" away, enemy units get -1 to hit rolls."
const MINUS_ONE_TO_HIT_OVER_NINE: &[RuleEffect] =
    &[target(&[Shooting, OverNine], HitModifier(Fixed(-1))), target(&[Charging, OverNine], HitModifier(Fixed(-1)))];
/// "When units where all models have this rule are shot or charged from over 9" away, they get +1 to defense rolls."
const PLUS_ONE_DEFENSE_OVER_NINE: &[RuleEffect] =
    &[target(&[Shooting, OverNine], DefenseModifier(Fixed(1))), target(&[Charging, OverNine], DefenseModifier(Fixed(1)))];
/// "... shot or charged from over 9" away and take hits, those hits count as having AP(-1), to a min. of AP(0)."
const AP_MINUS_ONE_OVER_NINE: &[RuleEffect] = &[target(&[Shooting, OverNine], ApReduction(1)), target(&[Charging, OverNine], ApReduction(1))];
/// "When targets must re-roll unmodified Defense results of 6 when blocking hits from this model's weapons."
const REROLL_DEFENSE_SIXES: &[RuleEffect] = &[attacker(NONE, RerollDefenseSixes)];
/// "If a unit where all models have this rule is Shaken at the beginning of the round, roll one die. On a 4+, it stops being Shaken."
const RECOVER_ON_FOUR: &[RuleEffect] = &[own(NONE, RecoverOn(4))];
/// "Once per round, units where all models have this rule may move by up to 3" after shooting or being in melee."
const HIT_AND_RUN: &[RuleEffect] = &[own(NONE, MoveAfterAttack { inches: 3, shooting: true, melee: true })];
/// "When this unit is activated, you may place all models with this rule in it anywhere fully within 3" of their position."
const BLINK_THREE: &[RuleEffect] = &[own(NONE, Reposition { when: Placement::OnActivation, inches: 3, d3: false })];
/// "When this unit is activated, pick one effect: until the end of the activation all models with
/// this rule in it either get AP(+1) when attacking, or get +1 to hit rolls when attacking."
const VERSATILE_ATTACK: &[RuleEffect] = &[
    own_any(Options { count: 2, settle: Settle::Best }),
    attacker(&[Activated, AttackerOption(0)], Ap(Fixed(1))),
    attacker(&[Activated, AttackerOption(1)], HitModifier(Fixed(1))),
];
/// "... roll one die and apply one effect to all models with this rule: on a 1-3 they get
/// AP(+1), and on a 4-6 they get +1 to hit rolls instead." (When attacking / in melee / when shooting.)
const UNPREDICTABLE: &[RuleEffect] =
    &[own_any(Options { count: 2, settle: Settle::Roll }), attacker(&[AttackerOption(0)], Ap(Fixed(1))), attacker(&[AttackerOption(1)], HitModifier(Fixed(1)))];
const UNPREDICTABLE_FIGHTER: &[RuleEffect] = &[
    own_any(Options { count: 2, settle: Settle::Roll }),
    attacker(&[Melee, AttackerOption(0)], Ap(Fixed(1))),
    attacker(&[Melee, AttackerOption(1)], HitModifier(Fixed(1))),
];
const UNPREDICTABLE_SHOOTER: &[RuleEffect] = &[
    own_any(Options { count: 2, settle: Settle::Roll }),
    attacker(&[Shooting, AttackerOption(0)], Ap(Fixed(1))),
    attacker(&[Shooting, AttackerOption(1)], HitModifier(Fixed(1))),
];
/// "Once per game, if all models in this unit have this rule, it may be activated even if it
/// had already activated this round".
const EXTRA_ACTIVATION: &[RuleEffect] = &[own(NONE, ExtraActivation)];
/// "Moves +2" when using Advance, and +2" when using Rush/Charge."
const PLUS_TWO_EVERY_MOVE: &[RuleEffect] = &[own(NONE, moves(2, 2, 2))];
/// "This model's weapons get AP(+2) against units where most models have Tough(3) or higher."
const SLAYER: &[RuleEffect] = &[attacker(&[TOUGH_3_UP], Ap(Fixed(2)))];

/// The army-book rules of the v3.5.1 books that some engine plays.
pub const ARMY_3_5: &[RuleDef] = &[
    // --- Weapon rules.
    // "Bash: Ignores Cover, and against units where most models have Defense 5+ to Defense 6+, this weapon gets Blast(+3)."
    def("Bash", &[attacker(NONE, IgnoreCover), attacker(&[TargetDefense(5, 6)], Blast(Fixed(3)))]),
    def("Break", &[attacker(NONE, IgnoreRegeneration), attacker(NONE, ApOnSix(2))]),
    def("Butcher", &[attacker(NONE, IgnoreRegeneration), attacker(NONE, ExtraHitsOnSix(1))]),
    def("Crack", &[attacker(NONE, ApOnSix(2))]),
    def("Decimate", &[attacker(NONE, IgnoreCover), attacker(&[TargetDefense(2, 3)], Ap(Fixed(2)))]),
    def("Demolish", &[attacker(NONE, IgnoreCover), attacker(&[TargetTough(3, 9)], Ap(Fixed(2)))]),
    def("Destructive", &[attacker(NONE, ApOnSix(4))]),
    def("Disintegrate", &[attacker(NONE, IgnoreRegeneration), attacker(&[TargetDefense(2, 3)], Ap(Fixed(2)))]),
    def("Fracture", &[attacker(NONE, IgnoreCover), attacker(NONE, ApOnSix(2))]),
    def("Fragment", &[attacker(NONE, IgnoreCover), attacker(&[TargetDefense(2, 4)], Ap(Fixed(1)))]),
    // "Hazardous: Gets AP(4), but this model's unit takes one wound on unmodified rolls of 1 to hit."
    // (The wound to the attacker is outside the target's distributions: reported by the census.)
    def("Hazardous", &[attacker(NONE, Ap(Fixed(4)))]),
    def("Ignores Cover", &[attacker(NONE, IgnoreCover)]),
    def("Ignores Regeneration", &[attacker(NONE, IgnoreRegeneration)]),
    // "Impale: Against units where most models have Tough(3) to Tough(9), this weapon gets Deadly(+3)."
    def("Impale", &[attacker(&[TargetTough(3, 9)], Deadly(Fixed(3)))]),
    def("Lacerate", &[attacker(NONE, RerollDefenseSixes)]),
    def("Precise", &[attacker(NONE, HitModifier(Fixed(1)))]),
    def("Puncture", &[attacker(NONE, IgnoreRegeneration), attacker(&[TargetTough(3, 9)], Ap(Fixed(4)))]),
    def("Purge", &[attacker(NONE, IgnoreRegeneration), attacker(&[TargetDefense(2, 4)], Ap(Fixed(1)))]),
    def("Quake", &[attacker(NONE, IgnoreRegeneration), attacker(NONE, ExtraWoundsOnBlockOne(1))]),
    def("Reap", &[attacker(&[TargetDefense(2, 3)], Ap(Fixed(2)))]),
    def("Rupture", &[attacker(NONE, IgnoreRegeneration), attacker(NONE, ExtraWoundsOnUnblockedSix(1))]),
    def("Scratch", &[attacker(&[TargetTough(3, 9)], Ap(Fixed(2)))]),
    def("Shatter", &[attacker(NONE, IgnoreRegeneration), attacker(&[TargetTough(3, 9)], Ap(Fixed(2)))]),
    def("Shred", &[attacker(NONE, ExtraWoundsOnBlockOne(1))]),
    def("Skewer", &[attacker(NONE, IgnoreCover), attacker(&[TargetTough(3, 9)], Deadly(Fixed(3)))]),
    def("Slam", &[attacker(NONE, IgnoreCover), attacker(NONE, ExtraWoundsOnBlockOne(1))]),
    def("Slash", &[attacker(NONE, IgnoreCover), attacker(NONE, ExtraHitsOnSix(1))]),
    def("Smash", &[attacker(NONE, IgnoreRegeneration), attacker(&[TargetDefense(5, 6)], Blast(Fixed(3)))]),
    def("Tear", &[attacker(&[TargetTough(3, 9)], Ap(Fixed(4)))]),
    def("Thrash", &[attacker(&[TargetDefense(5, 6)], Blast(Fixed(3)))]),
    def("Wreck", &[attacker(NONE, IgnoreCover), attacker(NONE, RerollDefenseSixes)]),
    // --- Model rules that change the dice of its attacks.
    def("Bad Shot", &[attacker(&[Shooting], HitModifier(Fixed(-1)))]),
    def("Good Shot", &[attacker(&[Shooting], HitModifier(Fixed(1)))]),
    def("Targeting Visor", &[attacker(&[Shooting, OverNine], HitModifier(Fixed(1)))]),
    def("Ferocious", EXTRA_HIT_ON_SIX),
    def("Devout", EXTRA_HIT_ON_SIX),
    def("Sergeant", EXTRA_HIT_ON_SIX),
    def("Brutal Fighter", &[attacker(&[Melee], ExtraHitsOnSix(1))]),
    def("Point-Blank Surge", &[attacker(&[Shooting, WithinInches(12)], ExtraHitsOnSix(1))]),
    def("Bloodborn", EXTRA_ATTACK_ON_SIX),
    def("Clan Warrior", EXTRA_ATTACK_ON_SIX),
    def("Primal", EXTRA_ATTACK_ON_SIX),
    def("Predator Fighter", &[attacker(&[Melee], ExtraAttackOnSix)]),
    def("Warbound", SHRED_WEAPONS),
    def("Infected", SHRED_WEAPONS),
    def("Scrapper", REROLL_DEFENSE_SIXES),
    def("Mischievous", REROLL_DEFENSE_SIXES),
    def("Piercing Assault", &[attacker(&[Charging], Ap(Fixed(1)))]),
    // "Havocbound: When this model shoots at enemies over 9" away, or when it charges, its weapons get AP(+1)."
    def("Havocbound", &[attacker(&[Shooting, OverNine], Ap(Fixed(1))), attacker(&[Charging], Ap(Fixed(1)))]),
    def("Piercing Hunter", &[attacker(&[Shooting, OverNine], Ap(Fixed(1)))]),
    def("Point-Blank Piercing", &[attacker(&[Shooting, WithinInches(12)], Ap(Fixed(1)))]),
    def("Slayer", SLAYER),
    def("Melee Slayer", &[attacker(&[Melee, TOUGH_3_UP], Ap(Fixed(2)))]),
    def("Ranged Slayer", &[attacker(&[Shooting, TOUGH_3_UP], Ap(Fixed(2)))]),
    // "Darkborn: This model gets +3" range when shooting and moves +3" when using Charge actions."
    def("Darkborn", &[attacker(&[Shooting], RangeBonus(Fixed(3))), own(NONE, moves(0, 0, 3))]),
    def("Increased Shooting Range", &[attacker(&[Shooting], RangeBonus(Fixed(6)))]),
    // "Quick Readjustment: This model ignores penalties from shooting after moving when using
    // Indirect weapons": cancels Indirect's -1.
    def("Quick Readjustment", &[attacker(&[Shooting, Moved, AttackerHas("Indirect")], HitModifier(Fixed(1)))]),
    // "Mobile Artillery: When this model uses a Hold action and shoots at enemies over 9" away, it gets +1
    // to hit rolls. As long this model hasn't moved during the round, when enemy units shoot at it from
    // over 9" away, they get -2 to hit rolls."
    def("Mobile Artillery", &[attacker(&[Shooting, Stationary, OverNine], HitModifier(Fixed(1))), target(&[Shooting, OverNine, TargetStationary], HitModifier(Fixed(-2)))]),
    def("Heavy Impact", &[attacker(NONE, ImpactAp(Fixed(1)))]),
    // "Ravage(X): When it's this model's turn to attack in melee, roll X dice. For each 6+ the target takes one wound."
    def("Ravage", &[attacker(&[Melee], MeleeDice { amount: Rating, need: 6, ap: 0, wounds: true })]),
    // "Crush(X): When it's this model's turn to attack in melee, roll X dice. For each 6+ the target takes one hit with AP(2)."
    def("Crush", &[attacker(&[Melee], MeleeDice { amount: Rating, need: 6, ap: 2, wounds: false })]),
    // "Counter-Attack: Strikes first when charged."
    def("Counter-Attack", &[attacker(&[Melee], StrikesFirstWhenCharged)]),
    // "This model gets X in melee / when shooting."
    def("Bane in Melee", &[gets(&[Melee], "Bane")]),
    def("Bane when Shooting", &[gets(&[Shooting], "Bane")]),
    def("Shred in Melee", &[gets(&[Melee], "Shred")]),
    def("Shred when Shooting", &[gets(&[Shooting], "Shred")]),
    def("Quake when Shooting", &[gets(&[Shooting], "Quake")]),
    def("Surge when Shooting", &[gets(&[Shooting], "Surge")]),
    def("Rending in Melee", &[gets(&[Melee], "Rending")]),
    def("Unstoppable in Melee", &[gets(&[Melee], "Unstoppable")]),
    def("Ignores Regeneration in Melee", &[gets(&[Melee], "Ignores Regeneration")]),
    def("Ignores Cover when Shooting", &[gets(&[Shooting], "Ignores Cover")]),
    // --- Choices and rolls (settled once per attack; see docs/army-rules.md).
    def("Versatile Attack", VERSATILE_ATTACK),
    def("Watchborn", VERSATILE_ATTACK),
    def("Unpredictable", UNPREDICTABLE),
    def("Unpredictable Fighter", UNPREDICTABLE_FIGHTER),
    def("Unpredictable Shooter", UNPREDICTABLE_SHOOTER),
    // "Versatile Defense: When a unit where all models have this rule is deployed or activated, pick
    // one effect: when shot or charged from over 9" away, the unit either gets +1 to defense rolls,
    // or enemy units get -1 to hit rolls against it."
    def(
        "Versatile Defense",
        &[
            own_any(Options { count: 2, settle: Settle::Best }),
            target(&[Shooting, OverNine, TargetOption(0)], DefenseModifier(Fixed(1))),
            target(&[Charging, OverNine, TargetOption(0)], DefenseModifier(Fixed(1))),
            target(&[Shooting, OverNine, TargetOption(1)], HitModifier(Fixed(-1))),
            target(&[Charging, OverNine, TargetOption(1)], HitModifier(Fixed(-1))),
        ],
    ),
    // --- Defensive unit rules ("units where all models have this rule").
    // "get +1 to defense rolls against hits that are not from spells"
    def("Shielded", &[target(&[NotFromSpell], DefenseModifier(Fixed(1)))]),
    def("Sturdy", PLUS_ONE_DEFENSE_OVER_NINE),
    def("Guarded", PLUS_ONE_DEFENSE_OVER_NINE),
    def("Fortified", &[target(NONE, ApReduction(1))]),
    def("Reinforced", AP_MINUS_ONE_OVER_NINE),
    def("Guardian", AP_MINUS_ONE_OVER_NINE),
    def("Evasive", &[target(NONE, HitModifier(Fixed(-1)))]),
    def("Melee Evasion", &[target(&[Melee], HitModifier(Fixed(-1)))]),
    // "Entrenched: As long as a unit where all models have this rule hasn't moved during the round,
    // enemy units shooting at it from over 9" away get -2 to hit rolls."
    def("Entrenched", &[target(&[Shooting, OverNine, TargetStationary], HitModifier(Fixed(-2)))]),
    def("Changebound", MINUS_ONE_TO_HIT_OVER_NINE),
    def("Machine-Fog", MINUS_ONE_TO_HIT_OVER_NINE),
    def("Screened", MINUS_ONE_TO_HIT_OVER_NINE),
    // "Ranged Shrouding: Enemies get -6" range when trying to shoot units where all models have this rule."
    def("Ranged Shrouding", &[target(&[Shooting], RangePenalty(6))]),
    // "On a 6+ it is ignored. If the wounds were from a spell, then they are ignored on a 4+ instead."
    def("Knightborn", &[target(&[NotFromSpell], IgnoreWounds { on: 6, regeneration: false }), target(&[FromSpell], IgnoreWounds { on: 4, regeneration: false })]),
    def("Plaguebound", IGNORE_WOUNDS_ON_SIX),
    def("Self-Repair", IGNORE_WOUNDS_ON_SIX),
    def("Protected", IGNORE_WOUNDS_ON_SIX),
    // "... If the wounds were from a spell, then they are ignored on a 2+ instead."
    def("Resistance", &[target(&[NotFromSpell], IgnoreWounds { on: 6, regeneration: false }), target(&[FromSpell], IgnoreWounds { on: 2, regeneration: false })]),
    // "Defense(X): This model gets +X to defense rolls."
    def("Defense", &[target_each(NONE, DefenseModifier(Rating))]),
    // "Armor(X): Counts as having Defense X+."
    def("Armor", &[own_any(SetDefense(Rating))]),
    // --- Morale.
    def("Hive Bond", MORALE_PLUS_ONE),
    def("Hold the Line", MORALE_PLUS_ONE),
    // --- Boosts: a stronger version of a rule, for units that have that rule.
    // "If all models in this unit have Hive Bond, they get +2 to morale test rolls from Hive Bond (instead of only +1)."
    def("Hive Bond Boost", &[own(&[UnitHasAll("Hive Bond")], MoraleModifier(1))]),
    def("Hold the Line Boost", &[own(&[UnitHasAll("Hold the Line")], MoraleModifier(1))]),
    // "If all models in this unit have Plaguebound, they ignore wounds on rolls of 5-6 from Plaguebound (instead of only on 6+)."
    def("Plaguebound Boost", &[target(&[UnitHasAll("Plaguebound")], IgnoreWounds { on: 5, regeneration: false })]),
    def("Self-Repair Boost", &[target(&[UnitHasAll("Self-Repair")], IgnoreWounds { on: 5, regeneration: false })]),
    // "... enemies attacking them always get -1 to hit rolls from Machine-Fog (instead of only when
    // being shot/charged from over 9" away)": the cases Machine-Fog leaves out.
    def(
        "Machine-Fog Boost",
        &[target(&[UnitHasAll("Machine-Fog"), NotOverNine], HitModifier(Fixed(-1))), target(&[UnitHasAll("Machine-Fog"), OverNine, Melee, NotCharging], HitModifier(Fixed(-1)))],
    ),
    def(
        "Sturdy Boost",
        &[target(&[UnitHasAll("Sturdy"), NotOverNine], DefenseModifier(Fixed(1))), target(&[UnitHasAll("Sturdy"), OverNine, Melee, NotCharging], DefenseModifier(Fixed(1)))],
    ),
    def("Guardian Boost", &[target(&[UnitHasAll("Guardian"), NotOverNine], ApReduction(1)), target(&[UnitHasAll("Guardian"), OverNine, Melee, NotCharging], ApReduction(1))]),
    // "If this model has Havocbound, it always gets AP(+1) from Havocbound (instead of only when shooting over 9" away, or when charging)."
    def("Havocbound Boost", &[attacker(&[AttackerHas("Havocbound"), Shooting, NotOverNine], Ap(Fixed(1))), attacker(&[AttackerHas("Havocbound"), Melee, NotCharging], Ap(Fixed(1)))]),
    // The books lend "Changebound Boost" by an aura without defining it; Changebound has Machine-Fog's
    // text word for word, so its Boost is read as Machine-Fog Boost's (docs/army-rules.md).
    def(
        "Changebound Boost",
        &[target(&[UnitHasAll("Changebound"), NotOverNine], HitModifier(Fixed(-1))), target(&[UnitHasAll("Changebound"), OverNine, Melee, NotCharging], HitModifier(Fixed(-1)))],
    ),
    def("Targeting Visor Boost", &[attacker(&[AttackerHas("Targeting Visor"), Shooting, NotOverNine], HitModifier(Fixed(1)))]),
    // "... deals extra hits on successful unmodified hit results of 5-6 from Ferocious (instead of only on 6)."
    def("Ferocious Boost", &[attacker(&[AttackerHas("Ferocious")], ExtraHitsFrom(5))]),
    def("Devout Boost", &[attacker(&[AttackerHas("Devout")], ExtraHitsFrom(5))]),
    // "... gets extra attacks on successful unmodified hit results of 5-6 from Primal (instead of only on 6)."
    def("Primal Boost", &[attacker(&[AttackerHas("Primal")], ExtraAttackFrom(5))]),
    def("Clan Warrior Boost", &[attacker(&[AttackerHas("Clan Warrior")], ExtraAttackFrom(5))]),
    // "... must re-roll successful unmodified defense results of 5-6 from Scrapper (instead of only on 6)."
    def("Scrapper Boost", &[attacker(&[AttackerHas("Scrapper")], RerollDefenseFrom(5))]),
    def("Mischievous Boost", &[attacker(&[AttackerHas("Mischievous")], RerollDefenseFrom(5))]),
    // "... take extra wounds on failed defense rolls of 1-2 from Infected (instead of only on 1)."
    def("Infected Boost", &[attacker(&[AttackerHas("Infected")], ExtraWoundsUpTo(2))]),
    def("Warbound Boost", &[attacker(&[AttackerHas("Warbound")], ExtraWoundsUpTo(2))]),
    // --- Auras: "This model and its unit get X" (the aura itself is lent to every model).
    def("Bane in Melee Aura", &[own_any(UnitGets("Bane in Melee"))]),
    def("Bane when Shooting Aura", &[own_any(UnitGets("Bane when Shooting"))]),
    def("Bounding Aura", &[own_any(UnitGets("Bounding"))]),
    // The book spells this name with a trailing space ("Changebound Boost Aura "); names are trimmed.
    def("Changebound Boost Aura", &[own_any(UnitGets("Changebound Boost"))]),
    def("Melee Shrouding Aura", &[own_any(UnitGets("Melee Shrouding"))]),
    def("Rending in Melee Aura", &[own_any(UnitGets("Rending in Melee"))]),
    def("Versatile Defense Aura", &[own_any(UnitGets("Versatile Defense"))]),
    // Auras of rules no engine plays yet: the aura lends them, and the census reports them.
    def("Defensive Growth Aura", &[own_any(UnitGets("Defensive Growth"))]),
    def("Grounded Precision Aura", &[own_any(UnitGets("Grounded Precision"))]),
    def("Grounded Reinforcement Aura", &[own_any(UnitGets("Grounded Reinforcement"))]),
    def("Infiltrate Aura", &[own_any(UnitGets("Infiltrate"))]),
    def("No Retreat Aura", &[own_any(UnitGets("No Retreat"))]),
    def("Quick Shot Aura", &[own_any(UnitGets("Quick Shot"))]),
    def("Reanimation Aura", &[own_any(UnitGets("Reanimation"))]),
    def("Speed Feat Aura", &[own_any(UnitGets("Speed Feat"))]),
    def("Swift Aura", &[own_any(UnitGets("Swift"))]),
    def("Versatile Reach Aura", &[own_any(UnitGets("Versatile Reach"))]),
    def("Clan Warrior Boost Aura", &[own_any(UnitGets("Clan Warrior Boost"))]),
    def("Counter-Attack Aura", &[own_any(UnitGets("Counter-Attack"))]),
    def("Devout Boost Aura", &[own_any(UnitGets("Devout Boost"))]),
    def("Evasive Aura", &[own_any(UnitGets("Evasive"))]),
    def("Fearless Aura", &[own_any(UnitGets("Fearless"))]),
    def("Ferocious Boost Aura", &[own_any(UnitGets("Ferocious Boost"))]),
    def("Fortified Aura", &[own_any(UnitGets("Fortified"))]),
    def("Furious Aura", &[own_any(UnitGets("Furious"))]),
    def("Guardian Boost Aura", &[own_any(UnitGets("Guardian Boost"))]),
    def("Havocbound Boost Aura", &[own_any(UnitGets("Havocbound Boost"))]),
    def("Hit & Run Fighter Aura", &[own_any(UnitGets("Hit & Run Fighter"))]),
    def("Hit & Run Shooter Aura", &[own_any(UnitGets("Hit & Run Shooter"))]),
    def("Hive Bond Boost Aura", &[own_any(UnitGets("Hive Bond Boost"))]),
    def("Hold the Line Boost Aura", &[own_any(UnitGets("Hold the Line Boost"))]),
    def("Ignores Cover Aura", &[own_any(UnitGets("Ignores Cover when Shooting"))]),
    def("Ignores Cover when Shooting Aura", &[own_any(UnitGets("Ignores Cover when Shooting"))]),
    def("Infected Boost Aura", &[own_any(UnitGets("Infected Boost"))]),
    def("Machine-Fog Boost Aura", &[own_any(UnitGets("Machine-Fog Boost"))]),
    def("Melee Evasion Aura", &[own_any(UnitGets("Melee Evasion"))]),
    def("Melee Slayer Aura", &[own_any(UnitGets("Melee Slayer"))]),
    def("Mischievous Boost Aura", &[own_any(UnitGets("Mischievous Boost"))]),
    def("Piercing Assault Aura", &[own_any(UnitGets("Piercing Assault"))]),
    def("Piercing Hunter Aura", &[own_any(UnitGets("Piercing Hunter"))]),
    def("Plaguebound Boost Aura", &[own_any(UnitGets("Plaguebound Boost"))]),
    def("Point-Blank Piercing Aura", &[own_any(UnitGets("Point-Blank Piercing"))]),
    def("Protected Aura", &[own_any(UnitGets("Protected"))]),
    def("Ranged Shrouding Aura", &[own_any(UnitGets("Ranged Shrouding"))]),
    def("Ranged Slayer Aura", &[own_any(UnitGets("Ranged Slayer"))]),
    def("Regeneration Aura", &[own_any(UnitGets("Regeneration"))]),
    def("Relentless Aura", &[own_any(UnitGets("Relentless"))]),
    def("Resistance Aura", &[own_any(UnitGets("Resistance"))]),
    def("Scrapper Boost Aura", &[own_any(UnitGets("Scrapper Boost"))]),
    def("Screened Aura", &[own_any(UnitGets("Screened"))]),
    def("Shielded Aura", &[own_any(UnitGets("Shielded"))]),
    def("Shred in Melee Aura", &[own_any(UnitGets("Shred in Melee"))]),
    def("Shred when Shooting Aura", &[own_any(UnitGets("Shred when Shooting"))]),
    def("Stealth Aura", &[own_any(UnitGets("Stealth"))]),
    def("Steadfast Aura", &[own_any(UnitGets("Steadfast"))]),
    def("Strider Aura", &[own_any(UnitGets("Strider"))]),
    def("Sturdy Boost Aura", &[own_any(UnitGets("Sturdy Boost"))]),
    def("Targeting Visor Boost Aura", &[own_any(UnitGets("Targeting Visor Boost"))]),
    def("Unpredictable Fighter Aura", &[own_any(UnitGets("Unpredictable Fighter"))]),
    def("Unpredictable Shooter Aura", &[own_any(UnitGets("Unpredictable Shooter"))]),
    def("Unstoppable in Melee Aura", &[own_any(UnitGets("Unstoppable in Melee"))]),
    def("Warbound Boost Aura", &[own_any(UnitGets("Warbound Boost"))]),
    def("Highborn Boost Aura", &[own_any(UnitGets("Highborn Boost"))]),
    def("Lustbound Boost Aura", &[own_any(UnitGets("Lustbound Boost"))]),
    def("Scurry Boost Aura", &[own_any(UnitGets("Scurry Boost"))]),
    def("Harassing Boost Aura", &[own_any(UnitGets("Harassing Boost"))]),
    def("Guerrilla Boost Aura", &[own_any(UnitGets("Guerrilla Boost"))]),
    def("Rapid Blink Boost Aura", &[own_any(UnitGets("Rapid Blink Boost"))]),
    def("Teleport Aura", &[own_any(UnitGets("Teleport"))]),
    def("Scout Aura", &[own_any(UnitGets("Scout"))]),
    def("Ambush Aura", &[own_any(UnitGets("Ambush"))]),
    def("Rapid Rush Aura", &[own_any(UnitGets("Rapid Rush"))]),
    def("Rapid Advance Aura", &[own_any(UnitGets("Rapid Advance"))]),
    // Auras whose effect is written out: the aura is lent to every model and acts for each.
    def("Courage Aura", &[own_any(UnitGets("Courage Aura")), own(NONE, MoraleModifier(1))]),
    def("Increased Shooting Range Aura", &[own_any(UnitGets("Increased Shooting Range Aura")), attacker(&[Shooting], RangeBonus(Fixed(6)))]),
    def("Precision Fighter Aura", &[own_any(UnitGets("Precision Fighter Aura")), attacker(&[Melee], HitModifier(Fixed(1)))]),
    def("Precision Shooter Aura", &[own_any(UnitGets("Precision Shooter Aura")), attacker(&[Shooting], HitModifier(Fixed(1)))]),
    def("Precision Charge Aura", &[own_any(UnitGets("Precision Charge Aura")), attacker(&[Charging], HitModifier(Fixed(1)))]),
    def("Piercing Fighter Aura", &[own_any(UnitGets("Piercing Fighter Aura")), attacker(&[Melee], Ap(Fixed(1)))]),
    def("Piercing Shooter Aura", &[own_any(UnitGets("Piercing Shooter Aura")), attacker(&[Shooting], Ap(Fixed(1)))]),
    def("Rending when Shooting Aura", &[own_any(UnitGets("Rending when Shooting Aura")), gets(&[Shooting], "Rending")]),
    def("Unstoppable when Shooting Aura", &[own_any(UnitGets("Unstoppable when Shooting Aura")), gets(&[Shooting], "Unstoppable")]),
    def("Thrust in Melee Aura", &[own_any(UnitGets("Thrust in Melee Aura")), gets(&[Melee], "Thrust")]),
    def("Indirect when Shooting Aura", &[own_any(UnitGets("Indirect when Shooting Aura")), gets(&[Shooting], "Indirect")]),
    def("Rapid Charge Aura", &[own_any(UnitGets("Rapid Charge Aura")), own(NONE, moves(0, 0, 4))]),
    def("Fast Aura", &[own_any(UnitGets("Fast Aura")), own(NONE, moves(2, 4, 4))]),
    // --- Offensive buffs and marks: "Once per activation, before attacking, pick one friendly
    // unit within 12" (one enemy unit within 18"), which gets X (which friendly units get X
    // against) once": the unit picks itself (its target) before its own attack, the whole
    // unit (a joined Hero's rule is lent to every model, as "pick one friendly unit" gives
    // it the unit, not the Hero's weapons alone).
    def("Furious Buff", &[own_any(UnitGets("Furious Buff")), gets(&[Activated], "Furious")]),
    def("Precision Shooter Buff", &[own_any(UnitGets("Precision Shooter Buff")), attacker(&[Activated, Shooting], HitModifier(Fixed(1)))]),
    def("Precision Attacks Buff", &[own_any(UnitGets("Precision Attacks Buff")), attacker(&[Activated], HitModifier(Fixed(1)))]),
    def("Precision Fighter Buff", &[own_any(UnitGets("Precision Fighter Buff")), attacker(&[Activated, Melee], HitModifier(Fixed(1)))]),
    def("Bane in Melee Buff", &[own_any(UnitGets("Bane in Melee Buff")), gets(&[Activated, Melee], "Bane")]),
    def("Primal Boost Buff", &[own_any(UnitGets("Primal Boost Buff")), gets(&[Activated], "Primal Boost")]),
    def("Bane Mark", &[own_any(UnitGets("Bane Mark")), gets(&[Activated], "Bane")]),
    def("Furious Mark", &[own_any(UnitGets("Furious Mark")), gets(&[Activated], "Furious")]),
    def("Relentless Mark", &[own_any(UnitGets("Relentless Mark")), gets(&[Activated], "Relentless")]),
    def("Shred Mark", &[own_any(UnitGets("Shred Mark")), gets(&[Activated], "Shred")]),
    def("Slayer Mark", &[own_any(UnitGets("Slayer Mark")), gets(&[Activated], "Slayer")]),
    def("Indirect Mark", &[own_any(UnitGets("Indirect Mark")), gets(&[Activated], "Indirect")]),
    def("Unpredictable Fighter Mark", &[own_any(UnitGets("Unpredictable Fighter Mark")), gets(&[Activated], "Unpredictable Fighter")]),
    def("Rending in Melee Mark", &[own_any(UnitGets("Rending in Melee Mark")), gets(&[Activated, Melee], "Rending")]),
    def("Unstoppable Shooting Mark", &[own_any(UnitGets("Unstoppable Shooting Mark")), gets(&[Activated, Shooting], "Unstoppable")]),
    def("Piercing Shooting Mark", &[own_any(UnitGets("Piercing Shooting Mark")), attacker(&[Activated, Shooting], Ap(Fixed(1)))]),
    def("Precision Shooting Mark", &[own_any(UnitGets("Precision Shooting Mark")), attacker(&[Activated, Shooting], HitModifier(Fixed(1)))]),
    def("Precision Fighting Mark", &[own_any(UnitGets("Precision Fighting Mark")), attacker(&[Activated, Melee], HitModifier(Fixed(1)))]),
    def("Increased Shooting Range Mark", &[own_any(UnitGets("Increased Shooting Range Mark")), attacker(&[Activated, Shooting], RangeBonus(Fixed(6)))]),
    def("Increased Shooting Range Buff", &[own_any(UnitGets("Increased Shooting Range Buff")), attacker(&[Activated, Shooting], RangeBonus(Fixed(6)))]),
    // --- Buffs for a friendly unit (the game): "Once per activation, before attacking, pick
    // one friendly unit within 12", which gets X once (next time the effect would apply)."
    def("Stealth Buff", &[own_any(Buff("Stealth"))]),
    def("Regeneration Buff", &[own_any(Buff("Regeneration"))]),
    def("Self-Repair Boost Buff", &[own_any(Buff("Self-Repair Boost"))]),
    def("Guarded Buff", &[own_any(Buff("Guarded"))]),
    def("Entrenched Buff", &[own_any(Buff("Entrenched"))]),
    // "... which gets +1 to morale test rolls once": what Courage Aura gives its unit.
    def("Courage Buff", &[own_any(Buff("Courage Aura"))]),
    // "... which moves +2" when using Advance actions and +4" when using Rush/Charge actions once":
    // what Speed Boost gives ("Moves +2" when using Advance, and +4" when using Rush/Charge").
    def("Speed Buff", &[own_any(Buff("Speed Boost"))]),
    def("Rapid Advance Buff", &[own_any(Buff("Rapid Advance"))]),
    def("Steadfast Buff", &[own_any(Buff("Steadfast"))]),
    // "Casting Debuff: Once per activation, before attacking, pick one enemy unit within 18"
    // with Caster, which gets -1 to casting rolls once (next time the effect would apply)."
    def("Casting Debuff", &[own_any(CastingRollGiven(-1))]),
    // "Casting Buff: ... pick one friendly model within 12" with Caster, which gets +1 to casting rolls once"
    def("Casting Buff", &[own_any(CastingRollGiven(1))]),
    // "Once per activation, before attacking, pick one enemy unit within 18", which gets -1 to
    // defense rolls once (next time the effect would apply)", and the like: what the enemy
    // unit holds once, by the spells' words.
    def("Defense Debuff", &[own_any(Debuff("-1 to defense rolls"))]),
    def("Precision Debuff", &[own_any(Debuff("-1 to hit rolls when attacking"))]),
    def("Morale Debuff", &[own_any(Debuff("-1 to morale test rolls"))]),
    // "which moves -2" when using Advance actions and -4" when using Rush/Charge actions once"
    def("Speed Debuff", &[own_any(Debuff("-2\"/-4\" moves"))]),
    // "which loses AP(+1) when shooting once"
    def("Piercing Shooting Debuff", &[own_any(Debuff("AP(-1) when shooting"))]),
    // "which must take a morale test. If failed, it becomes fatigued."
    def("Fatigue Debuff", &[own_any(EnemyTest { dangerous: false })]),
    // "which must immediately take a Dangerous Terrain test."
    def("Dangerous Terrain Debuff", &[own_any(EnemyTest { dangerous: true })]),
    def("Swift Buff", &[own_any(Buff("Swift"))]),
    // --- Movement (the game).
    def("Lustbound", &[own(NONE, moves(1, 3, 3))]),
    def("Highborn", PLUS_TWO_EVERY_MOVE),
    def("Scurry", PLUS_TWO_EVERY_MOVE),
    def("Quick", PLUS_TWO_EVERY_MOVE),
    def("Agile", &[own(NONE, moves(1, 2, 2))]),
    def("Speed Boost", &[own(NONE, moves(2, 4, 4))]),
    def("Rapid Charge", &[own(NONE, moves(0, 0, 4))]),
    def("Rapid Rush", &[own(NONE, moves(0, 6, 0))]),
    def("Rapid Advance", &[own(NONE, moves(4, 0, 0))]),
    // "If this model has Highborn, it moves +4" on Advance and +4" on Rush/Charge from Highborn (instead of only +2" and +2")."
    def("Highborn Boost", &[own(&[UnitHasAll("Highborn")], moves(2, 2, 2))]),
    def("Scurry Boost", &[own(&[UnitHasAll("Scurry")], moves(2, 2, 2))]),
    def("Lustbound Boost", &[own(&[UnitHasAll("Lustbound")], moves(1, 3, 3))]),
    // "Swift: This model may ignore the Slow rule.": Slow's -2"/-4"/-4" given back to a unit
    // where all models have both (the unit moves as its slowest model).
    def("Swift", &[own(&[UnitHasAll("Slow")], moves(2, 4, 4))]),
    // "Melee Shrouding: Enemies get -3" movement when trying to charge units where all models have this rule."
    def("Melee Shrouding", &[target(NONE, ChargePenalty(3))]),
    def("Wolfborn", BLINK_THREE),
    def("Rapid Blink", BLINK_THREE),
    def("Rapid Blink Boost", &[own(&[UnitHasAll("Rapid Blink")], Reposition { when: Placement::OnActivation, inches: 6, d3: false })]),
    // "Bounding: ... anywhere fully within D3+1" of their position."
    def("Bounding", &[own(NONE, Reposition { when: Placement::OnActivation, inches: 1, d3: true })]),
    // "Teleport: Once per activation, before attacking, place this model anywhere fully within 6" of its position."
    def("Teleport", &[own(NONE, Reposition { when: Placement::OnActivation, inches: 6, d3: false })]),
    // "Fanatic: After this model is deployed, it may be placed anywhere fully within 9" of its position."
    def("Fanatic", &[own(NONE, Reposition { when: Placement::AfterDeployment, inches: 9, d3: false })]),
    def("Harassing", HIT_AND_RUN),
    def("Guerrilla", HIT_AND_RUN),
    def("Hit & Run", HIT_AND_RUN),
    def("Hit & Run Fighter", &[own(NONE, MoveAfterAttack { inches: 3, shooting: false, melee: true })]),
    def("Hit & Run Shooter", &[own(NONE, MoveAfterAttack { inches: 3, shooting: true, melee: false })]),
    def("Harassing Boost", &[own(&[UnitHasAll("Harassing")], MoveAfterAttack { inches: 6, shooting: true, melee: true })]),
    def("Guerrilla Boost", &[own(&[UnitHasAll("Guerrilla")], MoveAfterAttack { inches: 6, shooting: true, melee: true })]),
    // --- Ambush and its variants (the game): "Counts as having Ambush" gets it, and the
    // variant's own [`Ambush`] entry says how near and how early it may deploy.
    // "Infiltrate: Counts as having Ambush, but may be deployed up to 1" away from enemy units."
    def("Infiltrate", &[gets(NONE, "Ambush"), own(NONE, Ambush { over: 0, from_round: 2 })]),
    // "Rapid Ambush: Counts as having Ambush, but may be deployed at the start of any round, including the first."
    def("Rapid Ambush", &[gets(NONE, "Ambush"), own(NONE, Ambush { over: 9, from_round: 1 })]),
    // "Surprise Piercing Shot: Counts as having Ambush, and gets AP(+2) when shooting on the round in which it deploys via this rule."
    def("Surprise Piercing Shot", &[gets(NONE, "Ambush"), attacker(&[Shooting, Arrived], Ap(Fixed(2)))]),
    // --- Attacks while moving (the game).
    // "Strafing: Once per activation, when this model moves through enemy units, pick one of them
    // and attack it with this weapon as if it was shooting. This weapon may only be used in this way."
    def("Strafing", &[attacker(NONE, OnlyMovingThrough)]),
    // "Surprise Attack(X): Counts as having Infiltrate. Once deployed via this rule, roll X dice, for
    // each 4+ one enemy unit within 3" takes 2 hits with AP(1)."
    def("Surprise Attack", &[gets(NONE, "Infiltrate"), own(NONE, ArrivalHits { need: 4, within: 3, hits: 2, ap: 1 })]),
    // --- Recovery and activations (the game).
    def("Battleborn", RECOVER_ON_FOUR),
    def("Honor Code", RECOVER_ON_FOUR),
    def("Steadfast", RECOVER_ON_FOUR),
    def("Inquisitorial Agent", EXTRA_ACTIVATION),
    def("Martial Prowess", EXTRA_ACTIVATION),
];

/// What the books' spells give "once (next time the effect would apply)" where no book rule
/// of that name says it: the spell's own words as the rule's name ("which get +1 to defense
/// rolls", "which get Shred when shooting", "which friendly units get AP(1) when shooting
/// against"). Looked up by name (`effects::definition`) but not listed among the rules a unit
/// may carry: only a spell gives them, for one use.
pub const SPELL_GIVEN_3_5: &[RuleDef] = &[
    def("+1 to defense rolls", &[target(NONE, DefenseModifier(Fixed(1)))]),
    def("-1 to defense rolls", &[target(NONE, DefenseModifier(Fixed(-1)))]),
    def("+1 to morale test rolls", &[own(NONE, MoraleModifier(1))]),
    def("-1 to morale test rolls", &[own(NONE, MoraleModifier(-1))]),
    // "friendly units get Indirect when shooting against": the shooters' weapons are Indirect
    def("Indirect when shooting", &[gets(&[Shooting], "Indirect")]),
    def("+1 to hit rolls when shooting", &[attacker(&[Shooting], HitModifier(Fixed(1)))]),
    def("+1 to hit rolls in melee", &[attacker(&[Melee], HitModifier(Fixed(1)))]),
    def("+1 to hit rolls when attacking", &[attacker(NONE, HitModifier(Fixed(1)))]),
    def("-1 to hit rolls when attacking", &[attacker(NONE, HitModifier(Fixed(-1)))]),
    def("-1 to hit rolls when shooting", &[attacker(&[Shooting], HitModifier(Fixed(-1)))]),
    def("-1 to hit rolls in melee", &[attacker(&[Melee], HitModifier(Fixed(-1)))]),
    def("AP(+1) when shooting", &[attacker(&[Shooting], Ap(Fixed(1)))]),
    def("AP(+1) in melee", &[attacker(&[Melee], Ap(Fixed(1)))]),
    def("AP(+1) when attacking", &[attacker(NONE, Ap(Fixed(1)))]),
    // "which loses AP(1) when shooting": AP(-1), to a minimum of AP(0) (`plan` floors AP at 0)
    def("AP(-1) when shooting", &[attacker(&[Shooting], Ap(Fixed(-1)))]),
    def("Shred when shooting", &[gets(&[Shooting], "Shred")]),
    def("Shred in melee", &[gets(&[Melee], "Shred")]),
    def("Rending in melee", &[gets(&[Melee], "Rending")]),
    def("Rending when shooting", &[gets(&[Shooting], "Rending")]),
    def("Unstoppable when shooting", &[gets(&[Shooting], "Unstoppable")]),
    def("Bane in melee", &[gets(&[Melee], "Bane")]),
    def("+6\" range when shooting", &[attacker(&[Shooting], RangeBonus(Fixed(6)))]),
    // "which moves +2" when using Advance actions and +4" when using Rush/Charge actions"
    def("+2\"/+4\" moves", &[own(NONE, moves(2, 4, 4))]),
    def("-2\"/-4\" moves", &[own(NONE, moves(-2, -4, -4))]),
];
