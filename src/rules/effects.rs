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

/// Whose rule it is when it takes effect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// A rule of the attacking weapon or model.
    Attacker,
    /// A rule of the unit being attacked; unless noted, it needs all its models to have it.
    Target,
    /// A rule of the model itself outside the dice of an attack: melee resolution and morale.
    Own,
}

/// When an effect applies. All conditions of an entry must hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cond {
    Shooting,
    Melee,
    /// The attacker charged this activation (Impact, Furious, Thrust).
    Charging,
    /// The attack is made from over 9" away ("shoots at enemies over 9" away").
    OverNine,
    /// The attacker moved before shooting (Indirect).
    Moved,
    /// The attacker has not fought in melee yet this round ("unless fatigued").
    NotFatigued,
    /// Most models of the target have Defense `lo+` to `hi+`.
    TargetDefense(u8, u8),
    /// Most models of the target have Tough(`lo`) to Tough(`hi`).
    TargetTough(u32, u32),
}

/// How much: a fixed number, or the rule's own rating (`AP(X)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Amount {
    Fixed(i32),
    Rating,
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
    /// Hits from unmodified 6s to hit get AP(+X) (Rending).
    ApOnSix(i32),
    /// Unmodified 6s to hit deal X extra hits; only the original hit counts as a 6.
    ExtraHitsOnSix(i32),
    /// Hits from unmodified 6s to hit that are not blocked deal X extra wounds (Rupture).
    ExtraWoundsOnUnblockedSix(i32),
    /// Unmodified 1s to block deal X extra wounds (Shred).
    ExtraWoundsOnBlockOne(i32),
    /// Blast(X): each hit is multiplied by X, up to the models in the target. `Blast(+3)`
    /// adds to the weapon's own X (0 without one).
    Blast(Amount),
    /// Deadly(X): each wound is multiplied by X on one model, without carry-over.
    Deadly(Amount),
    /// The target must re-roll unmodified Defense results of 6 (Bane).
    RerollDefenseSixes,
    IgnoreRegeneration,
    IgnoreCover,
    /// Ignores all negative modifiers to hit (Unstoppable).
    IgnoreNegativeHitModifiers,
    /// Picks one model of the target, resolved as a unit of 1, before other weapons.
    Takedown,
    /// Roll X extra dice per model, each 2+ a hit with no modifiers or AP (Impact).
    ImpactDice(Amount),
    /// Target side, per model carrying it (not "all models"): attackers roll X fewer
    /// Impact dice (Counter).
    ImpactReduction(i32),
    /// Target side: +X to Defense rolls (Shielded, Sturdy; cover is the same primitive).
    DefenseModifier(i32),
    /// Target side: hits count as having AP(-X), to a minimum of AP(0) (Fortified).
    ApReduction(i32),
    /// Target side: each wound is ignored on a roll of X+; `regeneration` says whether
    /// rules that ignore Regeneration bypass it.
    IgnoreWounds { on: u8, regeneration: bool },
    /// Attacker side, in melee: when charged, this weapon strikes before the charger (Counter).
    StrikesFirstWhenCharged,
    /// Own: this model counts as having dealt X more wounds when checking who won a melee (Fear).
    ResolutionWounds(Amount),
    /// Own, for units where all models have it: a failed morale test passes on X+ (Fearless).
    PassFailedMoraleOn(u8),
}

/// One entry of a rule: where, when, what.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleEffect {
    pub side: Side,
    pub conds: &'static [Cond],
    pub effect: Effect,
}

/// A rule's definition in a rule set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RuleDef {
    pub name: &'static str,
    pub effects: &'static [RuleEffect],
}

const fn attacker(conds: &'static [Cond], effect: Effect) -> RuleEffect {
    RuleEffect { side: Side::Attacker, conds, effect }
}
const fn target(conds: &'static [Cond], effect: Effect) -> RuleEffect {
    RuleEffect { side: Side::Target, conds, effect }
}
const fn own(effect: Effect) -> RuleEffect {
    RuleEffect { side: Side::Own, conds: &[], effect }
}

use Amount::{Fixed, Rating};
use Cond::*;
use Effect::*;

const NONE: &[Cond] = &[];
const IGNORES_REGENERATION: RuleEffect = attacker(NONE, IgnoreRegeneration);
const IGNORES_COVER: RuleEffect = attacker(NONE, IgnoreCover);
const SHOT_OR_CHARGED_FROM_OVER_NINE: &[Cond] = &[OverNine];

/// The core rules of gf-3.5-beginners-guide.txt that change an attack's dice. Rules about
/// movement, deployment, morale or transport are known (see `catalog`) but have no entry.
pub const CORE_3_5: &[RuleDef] = &[
    // "AP(X): Targets get -X to Defense rolls when blocking hits from weapons with this special rule."
    RuleDef { name: "AP", effects: &[attacker(NONE, Ap(Rating))] },
    // "Artillery: ... When this model shoots at enemies over 9" away, it gets +1 to hit rolls.
    // When enemy units shoot at this model from over 9" away, they get -2 to hit rolls."
    RuleDef {
        name: "Artillery",
        effects: &[attacker(&[Shooting, OverNine], HitModifier(Fixed(1))), target(&[Shooting, OverNine], HitModifier(Fixed(-2)))],
    },
    // "Bane: Ignores Regeneration, and when attacking the target must re-roll unmodified Defense results of 6."
    RuleDef { name: "Bane", effects: &[IGNORES_REGENERATION, attacker(NONE, RerollDefenseSixes)] },
    // "Blast(X): Ignores cover, and after resolving other special rules, each hit is multiplied by X,
    // where X is up to as many hits as models in the target unit."
    RuleDef { name: "Blast", effects: &[IGNORES_COVER, attacker(NONE, Blast(Rating))] },
    // "Deadly(X): Assign each wound to one model, and multiply it by X. Hits from Deadly must be
    // resolved first, and these wounds don't carry over to other models if the original target is killed."
    RuleDef { name: "Deadly", effects: &[attacker(NONE, Deadly(Rating))] },
    // "Counter: Strikes first with this weapon when charged, and the charging unit gets -1
    // total Impact rolls per model with Counter."
    RuleDef { name: "Counter", effects: &[target(NONE, ImpactReduction(1)), attacker(&[Melee], StrikesFirstWhenCharged)] },
    // "Fear(X): This model counts as having dealt +X wounds when checking who won melee."
    RuleDef { name: "Fear", effects: &[own(ResolutionWounds(Rating))] },
    // "Fearless: When a unit where all models have this rule fails a morale test, roll one die.
    // On a 4+ it counts as passed instead."
    RuleDef { name: "Fearless", effects: &[own(PassFailedMoraleOn(4))] },
    // "Furious: When charging, unmodified results of 6 to hit in melee deal 1 extra hit."
    RuleDef { name: "Furious", effects: &[attacker(&[Melee, Charging], ExtraHitsOnSix(1))] },
    // "Impact(X): Roll X dice when attacking after charging, unless fatigued. For each 2+ the target takes one hit."
    RuleDef { name: "Impact", effects: &[attacker(&[Melee, Charging, NotFatigued], ImpactDice(Rating))] },
    // "Indirect: Gets -1 to hit rolls when shooting after moving. ... ignores cover from sight obstructions."
    RuleDef { name: "Indirect", effects: &[attacker(&[Shooting, Moved], HitModifier(Fixed(-1)))] },
    // "Regeneration: When a unit where all models have this rule takes wounds, roll one die for each. On a 5+ it is ignored."
    RuleDef { name: "Regeneration", effects: &[target(NONE, IgnoreWounds { on: 5, regeneration: true })] },
    // "Relentless: When this model shoots at enemies over 9" away, unmodified results of 6 to hit deal 1 extra hit."
    RuleDef { name: "Relentless", effects: &[attacker(&[Shooting, OverNine], ExtraHitsOnSix(1))] },
    // "Reliable: Models attacks at Quality 2+ with this weapon."
    RuleDef { name: "Reliable", effects: &[attacker(NONE, Quality(2))] },
    // "Rending: Ignores Regeneration, and on unmodified results of 6 to hit, those hits get AP(+4)."
    RuleDef { name: "Rending", effects: &[IGNORES_REGENERATION, attacker(NONE, ApOnSix(4))] },
    // "Stealth: When units where all models have this rule are shot from over 9" away, enemy units get -1 to hit rolls."
    RuleDef { name: "Stealth", effects: &[target(&[Shooting, OverNine], HitModifier(Fixed(-1)))] },
    // "Surge: On unmodified results of 6 to hit, this weapon deals 1 extra hit."
    RuleDef { name: "Surge", effects: &[attacker(NONE, ExtraHitsOnSix(1))] },
    // "Takedown: This model may pick any model in the target unit as its individual target,
    // which is resolved as if it was a unit of [1]. Takedown attacks must be resolved before other weapons."
    RuleDef { name: "Takedown", effects: &[attacker(NONE, Takedown)] },
    // "Thrust: When charging, gets +1 to hit rolls and AP(+1) in melee."
    RuleDef { name: "Thrust", effects: &[attacker(&[Melee, Charging], HitModifier(Fixed(1))), attacker(&[Melee, Charging], Ap(Fixed(1)))] },
    // "Unstoppable: Ignores Regeneration, and ignores all negative modifiers to this weapon."
    RuleDef { name: "Unstoppable", effects: &[IGNORES_REGENERATION, attacker(NONE, IgnoreNegativeHitModifiers)] },
];

/// Army-book rules of the real v3.5 books, each transcribed from its `specialRules` text as
/// a composition of the same primitives. A rule a book defines but this table lacks is kept
/// by name and reported as not modelled.
pub const ARMY_3_5: &[RuleDef] = &[
    // "Bash: Ignores Cover, and against units where most models have Defense 5+ to Defense 6+, this weapon gets Blast(+3)."
    RuleDef { name: "Bash", effects: &[IGNORES_COVER, attacker(&[TargetDefense(5, 6)], Blast(Fixed(3)))] },
    RuleDef { name: "Break", effects: &[IGNORES_REGENERATION, attacker(NONE, ApOnSix(2))] },
    RuleDef { name: "Butcher", effects: &[IGNORES_REGENERATION, attacker(NONE, ExtraHitsOnSix(1))] },
    RuleDef { name: "Crack", effects: &[attacker(NONE, ApOnSix(2))] },
    RuleDef { name: "Decimate", effects: &[IGNORES_COVER, attacker(&[TargetDefense(2, 3)], Ap(Fixed(2)))] },
    RuleDef { name: "Demolish", effects: &[IGNORES_COVER, attacker(&[TargetTough(3, 9)], Ap(Fixed(2)))] },
    RuleDef { name: "Destructive", effects: &[attacker(NONE, ApOnSix(4))] },
    RuleDef { name: "Disintegrate", effects: &[IGNORES_REGENERATION, attacker(&[TargetDefense(2, 3)], Ap(Fixed(2)))] },
    RuleDef { name: "Fragment", effects: &[IGNORES_COVER, attacker(&[TargetDefense(2, 4)], Ap(Fixed(1)))] },
    // "Hazardous: Gets AP(4), but this model's unit takes one wound on unmodified rolls of 1 to hit."
    // (The wound to the attacker is outside the target's distributions.)
    RuleDef { name: "Hazardous", effects: &[attacker(NONE, Ap(Fixed(4)))] },
    RuleDef { name: "Ignores Regeneration", effects: &[IGNORES_REGENERATION] },
    RuleDef { name: "Lacerate", effects: &[attacker(NONE, RerollDefenseSixes)] },
    RuleDef { name: "Precise", effects: &[attacker(NONE, HitModifier(Fixed(1)))] },
    RuleDef { name: "Puncture", effects: &[IGNORES_REGENERATION, attacker(&[TargetTough(3, 9)], Ap(Fixed(4)))] },
    RuleDef { name: "Purge", effects: &[IGNORES_REGENERATION, attacker(&[TargetDefense(2, 4)], Ap(Fixed(1)))] },
    RuleDef { name: "Quake", effects: &[IGNORES_REGENERATION, attacker(NONE, ExtraWoundsOnBlockOne(1))] },
    RuleDef { name: "Reap", effects: &[attacker(&[TargetDefense(2, 3)], Ap(Fixed(2)))] },
    RuleDef { name: "Rupture", effects: &[IGNORES_REGENERATION, attacker(NONE, ExtraWoundsOnUnblockedSix(1))] },
    RuleDef { name: "Scratch", effects: &[attacker(&[TargetTough(3, 9)], Ap(Fixed(2)))] },
    RuleDef { name: "Shred", effects: &[attacker(NONE, ExtraWoundsOnBlockOne(1))] },
    RuleDef { name: "Skewer", effects: &[IGNORES_COVER, attacker(&[TargetTough(3, 9)], Deadly(Fixed(3)))] },
    RuleDef { name: "Slam", effects: &[IGNORES_COVER, attacker(NONE, ExtraWoundsOnBlockOne(1))] },
    RuleDef { name: "Slash", effects: &[IGNORES_COVER, attacker(NONE, ExtraHitsOnSix(1))] },
    RuleDef { name: "Smash", effects: &[IGNORES_REGENERATION, attacker(&[TargetDefense(5, 6)], Blast(Fixed(3)))] },
    RuleDef { name: "Thrash", effects: &[attacker(&[TargetDefense(5, 6)], Blast(Fixed(3)))] },
    RuleDef { name: "Wreck", effects: &[IGNORES_COVER, attacker(NONE, RerollDefenseSixes)] },
    // Model rules that change attacks.
    RuleDef { name: "Bad Shot", effects: &[attacker(&[Shooting], HitModifier(Fixed(-1)))] },
    RuleDef { name: "Good Shot", effects: &[attacker(&[Shooting], HitModifier(Fixed(1)))] },
    RuleDef { name: "Targeting Visor", effects: &[attacker(&[Shooting, OverNine], HitModifier(Fixed(1)))] },
    RuleDef { name: "Ferocious", effects: &[attacker(NONE, ExtraHitsOnSix(1))] },
    RuleDef { name: "Piercing Assault", effects: &[attacker(&[Melee, Charging], Ap(Fixed(1)))] },
    // Defensive unit rules ("units where all models have this rule").
    RuleDef { name: "Shielded", effects: &[target(NONE, DefenseModifier(1))] },
    RuleDef { name: "Sturdy", effects: &[target(SHOT_OR_CHARGED_FROM_OVER_NINE, DefenseModifier(1))] },
    RuleDef { name: "Fortified", effects: &[target(NONE, ApReduction(1))] },
    RuleDef { name: "Reinforced", effects: &[target(SHOT_OR_CHARGED_FROM_OVER_NINE, ApReduction(1))] },
    RuleDef { name: "Guardian", effects: &[target(SHOT_OR_CHARGED_FROM_OVER_NINE, ApReduction(1))] },
    RuleDef { name: "Evasive", effects: &[target(NONE, HitModifier(Fixed(-1)))] },
    RuleDef { name: "Resistance", effects: &[target(NONE, IgnoreWounds { on: 6, regeneration: false })] },
    RuleDef { name: "Self-Repair", effects: &[target(NONE, IgnoreWounds { on: 6, regeneration: false })] },
];

/// The rule set of an edition that the attack engines can follow: its core rules and the
/// army-book rules. `None` for an edition whose rules are not in the table yet.
pub fn rule_set(edition: Edition) -> Option<[&'static [RuleDef]; 2]> {
    match edition {
        Edition::V3_5 => Some([CORE_3_5, ARMY_3_5]),
        _ => None,
    }
}

/// The `Own` effects of a model's rules (melee resolution, morale), each with its rule.
pub fn own_effects<'r>(edition: Edition, rules: &'r [crate::rules::Rule]) -> impl Iterator<Item = (&'r crate::rules::Rule, Effect)> + 'r {
    rules.iter().flat_map(move |r| {
        definition(edition, &r.name)
            .into_iter()
            .flat_map(|d| d.effects.iter())
            .filter(|e| e.side == Side::Own)
            .map(move |e| (r, e.effect))
    })
}

/// The definition of a rule under an edition's rule set, if it changes an attack.
pub fn definition(edition: Edition, name: &str) -> Option<&'static RuleDef> {
    rule_set(edition)?.into_iter().flatten().find(|d| d.name == name)
}

/// Rules known to matter only outside the dice of one attack (movement, deployment, morale,
/// transport, melee sequencing): not reported as unmodelled.
pub fn outside_attack(name: &str) -> bool {
    matches!(
        name,
        "Aircraft" | "Ambush" | "Caster" | "Fast" | "Flying" | "Hero" | "Immobile" | "Scout"
            | "Slow" | "Strider" | "Tough" | "Transport" | "Limited"
    )
}
