//! The army-book rules of the real Firefight books (Army Forge's game system
//! `grimdark-future-firefight`, books v3.5.1), as rows over the effect primitives of
//! [`super::effects`], played under Firefight v3.2.
//!
//! The Firefight books print most of their `specialRules` with the words of the Grimdark
//! Future v3.5.1 books: those names play the GF rows ([`super::army::ARMY_3_5`], inherited
//! by [`inherited`]). The rows here are the rules only Firefight books have and the rules
//! they word otherwise in what an attack reads ("against non-Hero units with Tough(3) or
//! more" for GF's "units where most models have Tough(3) to Tough(9)"); a row here wins over
//! the GF row of its name, and the Firefight core rules win over both. The other differences
//! are reach: an aura's "up to 3 friendly units picked before the start of the game" and a
//! buff's or mark's "pick up to 4 units" for GF's one. What a unit does for itself is the
//! GF row; the other units are a game's matter ([`PARTLY`]). `tests/test_firefight_books.py`
//! checks each row's words against the books.

use super::census::{Engine, Gap};
use super::effects::Amount::Fixed;
use super::effects::Cond::*;
use super::effects::Effect::*;
use super::army::{def, gets, moves, own};
use super::effects::{attacker, own_any, target, Cond, Placement, RuleDef, RuleEffect, NONE};
use crate::edition::Edition;


/// "Against non-Hero units with Tough(3) or more": most models Tough(3)+, and no Hero among them.
const NON_HERO_TOUGH_3_UP: &[Cond] = &[TargetTough(3, u32::MAX), TargetLacks("Hero")];
/// "When units where all models have this rule are shot or charged from over 9" away, they get +1 to defense rolls."
const PLUS_ONE_DEFENSE_OVER_NINE: &[RuleEffect] =
    &[target(&[Shooting, OverNine], DefenseModifier(Fixed(1))), target(&[Charging, OverNine], DefenseModifier(Fixed(1)))];
/// "... shot or charged from over 9" away and take hits, those hits count as having AP(-1), to a min. of AP(0)."
const AP_MINUS_ONE_OVER_NINE: &[RuleEffect] = &[target(&[Shooting, OverNine], ApReduction(1)), target(&[Charging, OverNine], ApReduction(1))];

/// The Firefight books' own rows.
pub const ARMY_FIREFIGHT_3_2: &[RuleDef] = &[
    // --- Worded otherwise than in the GF books: "against non-Hero units with Tough(3) or more".
    // "Demolish: Ignores Cover, and against non-Hero units with Tough(3) or more, this weapon gets AP(+2)."
    def("Demolish", &[attacker(NONE, IgnoreCover), attacker(NON_HERO_TOUGH_3_UP, Ap(Fixed(2)))]),
    // "Impale: Against non-Hero units with Tough(3) or more, this weapon gets Deadly(+3)."
    def("Impale", &[attacker(NON_HERO_TOUGH_3_UP, Deadly(Fixed(3)))]),
    // "Puncture: Ignores Regeneration, and against non-Hero units with Tough(3) or more, this weapon gets AP(+4)."
    def("Puncture", &[attacker(NONE, IgnoreRegeneration), attacker(NON_HERO_TOUGH_3_UP, Ap(Fixed(4)))]),
    // "Scratch: Against non-Hero units with Tough(3) or more, this weapon gets AP(+2)."
    def("Scratch", &[attacker(NON_HERO_TOUGH_3_UP, Ap(Fixed(2)))]),
    // "Shatter: Ignores Regeneration, and against non-Hero units with Tough(3) or more, this weapon gets AP(+2)."
    def("Shatter", &[attacker(NONE, IgnoreRegeneration), attacker(NON_HERO_TOUGH_3_UP, Ap(Fixed(2)))]),
    // "Skewer: Ignores Cover, and against non-Hero units with Tough(3) or more, this weapon gets Deadly(+3)."
    def("Skewer", &[attacker(NONE, IgnoreCover), attacker(NON_HERO_TOUGH_3_UP, Deadly(Fixed(3)))]),
    // "Tear: Against non-Hero units with Tough(3) or more, this weapon gets AP(+4)."
    def("Tear", &[attacker(NON_HERO_TOUGH_3_UP, Ap(Fixed(4)))]),
    // "Caster Group: This model counts as having Caster(1)." (GF's Caster Group pools the unit's
    // casters.) Caster itself is cast only in games: the rule is reported as Caster Group is
    // everywhere (`census::PARTLY`).
    def("Caster Group", &[gets(NONE, "Caster")]),
    // --- Only in Firefight books.
    // "Badlands Hunter: Enemies that roll to block hits from this model's weapons take 1 extra wound for each unmodified result of 1 that they roll."
    def("Badlands Hunter", &[attacker(NONE, ExtraWoundsOnBlockOne(1))]),
    // "If this model has Badlands Hunter, enemies taking wounds from it take extra wounds on failed defense rolls of 1-2 from Badlands Hunter (instead of only on 1)."
    def("Badlands Hunter Boost", &[attacker(&[AttackerHas("Badlands Hunter")], ExtraWoundsUpTo(2))]),
    // "When units where all models have this rule are shot or charged from over 9" away and take hits, those hits count as having AP(-1), to a min. of AP(0)."
    def("Ballistic Vest", AP_MINUS_ONE_OVER_NINE),
    // "If all models in this unit have Ballistic Vest, enemy hits always count as having AP(-1) from Ballistic Vest
    // (instead of only when being shot/charged from over 9" away)": the cases Ballistic Vest leaves out.
    def(
        "Ballistic Vest Boost",
        &[target(&[UnitHasAll("Ballistic Vest"), NotOverNine], ApReduction(1)), target(&[UnitHasAll("Ballistic Vest"), OverNine, Melee, NotCharging], ApReduction(1))],
    ),
    // "Battle-Hardened: Units where all models have this rule get +1 to morale test rolls."
    def("Battle-Hardened", &[own(NONE, MoraleModifier(1))]),
    // "Berserker: When attacking, unmodified results of 6 to hit deal 1 extra hit (only the original hit counts as a 6 for special rules)."
    def("Berserker", &[attacker(NONE, ExtraHitsOnSix(1))]),
    // "If this model has Berserker, it deals extra hits on successful unmodified hit results of 5-6 from Berserker (instead of only on 6)."
    def("Berserker Boost", &[attacker(&[AttackerHas("Berserker")], ExtraHitsFrom(5))]),
    // "Brute Courage: If a unit where all models have this rule is Shaken at the beginning of the round, roll one die. On a 4+, it stops being Shaken."
    def("Brute Courage", &[own(NONE, RecoverOn(4))]),
    // "Cyber-Eyes: When this model shoots at enemies over 9" away, it gets +1 to hit rolls."
    def("Cyber-Eyes", &[attacker(&[Shooting, OverNine], HitModifier(Fixed(1)))]),
    // "If this model has Cyber-Eyes, it always gets +1 to hit rolls from Cyber-Eyes (instead of only when shooting
    // over 9" away)": the shots Cyber-Eyes leaves out, read as the GF books' Targeting Visor Boost (shooting).
    def("Cyber-Eyes Boost", &[attacker(&[AttackerHas("Cyber-Eyes"), Shooting, NotOverNine], HitModifier(Fixed(1)))]),
    // "Psychotic: For each unmodified roll of 6 to hit when attacking, this model may roll +1 attack with that weapon.
    // This rule doesn't apply to newly generated attacks."
    def("Psychotic", &[attacker(NONE, ExtraAttackOnSix)]),
    // "If this model has Psychotic, it gets extra attacks on successful unmodified hit results of 5-6 from Psychotic (instead of only on 6)."
    def("Psychotic Boost", &[attacker(&[AttackerHas("Psychotic")], ExtraAttackFrom(5))]),
    // "Pulverize: Ignores Cover, and on unmodified results of 6 to hit, those hits get AP(+4)."
    def("Pulverize", &[attacker(NONE, IgnoreCover), attacker(NONE, ApOnSix(4))]),
    // "Runner: Moves +2" when using Advance, and +2" when using Rush/Charge."
    def("Runner", &[own(NONE, moves(2, 2, 2))]),
    // "If this model has Runner, it moves +4" on Advance and +4" on Rush/Charge from Runner (instead of only +2" and +2")."
    def("Runner Boost", &[own(&[UnitHasAll("Runner")], moves(2, 2, 2))]),
    // "Safety Gear: When units where all models have this rule are shot or charged from over 9" away, they get +1 to defense rolls."
    def("Safety Gear", PLUS_ONE_DEFENSE_OVER_NINE),
    // "If all models in this unit have Safety Gear, they always get +1 to defense rolls from Safety Gear (instead of
    // only when being shot/charged from over 9" away)": the cases Safety Gear leaves out.
    def(
        "Safety Gear Boost",
        &[target(&[UnitHasAll("Safety Gear"), NotOverNine], DefenseModifier(Fixed(1))), target(&[UnitHasAll("Safety Gear"), OverNine, Melee, NotCharging], DefenseModifier(Fixed(1)))],
    ),
    // "Shadow Operative: Enemies get -4" range when trying to shoot at units where all models have this rule, and -2"
    // movement when trying to charge units where all models have this rule."
    def("Shadow Operative", &[target(&[Shooting], RangePenalty(4)), target(NONE, ChargePenalty(2))]),
    // "If all models in this unit have Shadow Operative, enemies get -8" range when shooting them and -4" movement
    // when charging them from Shadow Operative (instead of only -4" and -2")."
    def("Shadow Operative Boost", &[target(&[UnitHasAll("Shadow Operative"), Shooting], RangePenalty(4)), target(&[UnitHasAll("Shadow Operative")], ChargePenalty(2))]),
    // "Union Assault: After this model is deployed, it may be placed anywhere fully within 9" of its position."
    def("Union Assault", &[own(NONE, Reposition { when: Placement::AfterDeployment, inches: 9, d3: false })]),
    // --- Auras only Firefight books have: "This model and up to 3 friendly units picked before the start of the game get X."
    def("Badlands Hunter Boost Aura", &[own_any(UnitGets("Badlands Hunter Boost"))]),
    def("Ballistic Vest Boost Aura", &[own_any(UnitGets("Ballistic Vest Boost"))]),
    def("Berserker Boost Aura", &[own_any(UnitGets("Berserker Boost"))]),
    def("Cyber-Eyes Boost Aura", &[own_any(UnitGets("Cyber-Eyes Boost"))]),
    def("Flying Aura", &[own_any(UnitGets("Flying"))]),
    def("Protection Feat Aura", &[own_any(UnitGets("Protection Feat"))]),
    def("Psychotic Boost Aura", &[own_any(UnitGets("Psychotic Boost"))]),
    def("Runner Boost Aura", &[own_any(UnitGets("Runner Boost"))]),
    def("Safety Gear Boost Aura", &[own_any(UnitGets("Safety Gear Boost"))]),
    def("Shadow Operative Boost Aura", &[own_any(UnitGets("Shadow Operative Boost"))]),
    // --- Marks only Firefight books have: "Once per activation, before attacking, pick up to 4 enemy units
    // within 18", which friendly units gets X against once": as the GF books' marks, the unit marks its own target.
    // "... which friendly units gets Impact(+1) against once": one Impact die more when charging it.
    def("Impact Mark", &[own_any(UnitGets("Impact Mark")), attacker(&[Activated, Melee, Charging, NotFatigued], ImpactDice(Fixed(1)))]),
    def("Piercing Assault Mark", &[own_any(UnitGets("Piercing Assault Mark")), gets(&[Activated], "Piercing Assault")]),
    // "... which friendly units gets Thrust in melee against once"
    def("Thrust Mark", &[own_any(UnitGets("Thrust Mark")), gets(&[Activated, Melee], "Thrust")]),
];

/// Core rules of GF v3.5 that the Firefight books use and define in their `specialRules` with
/// the GF v3.5 rulebook's words, and the Firefight v3.2 rulebook lacks (it has Poison and
/// Lance in their place, under other words: the books' own words are played).
pub const BOOK_CORE_FROM_3_5: &[&str] = &["Bane", "Surge", "Thrust", "Unstoppable"];

/// The rows another edition lends this one's books: for Firefight, the GF v3.5.1 books' army
/// rows, whose words the Firefight books reprint (each name they print otherwise has its row
/// in [`ARMY_FIREFIGHT_3_2`], which wins), and the GF v3.5 core rows of
/// [`BOOK_CORE_FROM_3_5`]. None for the other editions.
pub fn inherited(edition: Edition) -> impl Iterator<Item = &'static RuleDef> {
    let on = edition == Edition::Firefight3_2;
    let core = super::effects::CORE_3_5.iter().filter(|d| BOOK_CORE_FROM_3_5.contains(&d.name));
    super::army::ARMY_3_5.iter().chain(core).filter(move |_| on)
}

/// The auras of the Firefight books: "This model and up to 3 friendly units picked before the
/// start of the game get X. If this model is killed, picked models that are deployed lose the rule."
const AURAS: &[&str] = &[
    "Ambush Aura", "Badlands Hunter Boost Aura", "Ballistic Vest Boost Aura", "Bane in Melee Aura",
    "Bane when Shooting Aura", "Berserker Boost Aura", "Bounding Aura", "Changebound Boost Aura",
    "Clan Warrior Boost Aura", "Counter-Attack Aura", "Courage Aura", "Cyber-Eyes Boost Aura",
    "Defensive Growth Aura", "Devout Boost Aura", "Evasive Aura", "Fast Aura", "Fearless Aura",
    "Ferocious Boost Aura", "Flying Aura", "Fortified Aura", "Furious Aura", "Grounded Precision Aura",
    "Grounded Reinforcement Aura", "Guardian Boost Aura", "Guerrilla Boost Aura", "Harassing Boost Aura",
    "Havocbound Boost Aura", "Highborn Boost Aura", "Hit & Run Fighter Aura", "Hit & Run Shooter Aura",
    "Hive Bond Boost Aura", "Hold the Line Boost Aura", "Ignores Cover Aura",
    "Ignores Cover when Shooting Aura", "Increased Shooting Range Aura", "Indirect when Shooting Aura",
    "Infected Boost Aura", "Infiltrate Aura", "Lustbound Boost Aura", "Machine-Fog Boost Aura",
    "Melee Evasion Aura", "Melee Shrouding Aura", "Melee Slayer Aura", "Mischievous Boost Aura",
    "No Retreat Aura", "Piercing Assault Aura", "Piercing Fighter Aura", "Piercing Hunter Aura",
    "Piercing Shooter Aura", "Plaguebound Boost Aura", "Point-Blank Piercing Aura", "Precision Charge Aura",
    "Precision Fighter Aura", "Precision Shooter Aura", "Protected Aura", "Protection Feat Aura",
    "Psychotic Boost Aura", "Quick Shot Aura", "Ranged Shrouding Aura", "Ranged Slayer Aura",
    "Rapid Advance Aura", "Rapid Blink Boost Aura", "Rapid Charge Aura", "Rapid Rush Aura",
    "Reanimation Aura", "Regeneration Aura", "Relentless Aura", "Rending in Melee Aura",
    "Rending when Shooting Aura", "Resistance Aura", "Runner Boost Aura", "Safety Gear Boost Aura",
    "Scout Aura", "Scrapper Boost Aura", "Screened Aura", "Scurry Boost Aura", "Shadow Operative Boost Aura",
    "Shielded Aura", "Shred in Melee Aura", "Shred when Shooting Aura", "Speed Feat Aura", "Steadfast Aura",
    "Stealth Aura", "Strider Aura", "Sturdy Boost Aura", "Swift Aura", "Targeting Visor Boost Aura",
    "Teleport Aura", "Thrust in Melee Aura", "Unpredictable Fighter Aura", "Unpredictable Shooter Aura",
    "Unstoppable in Melee Aura", "Unstoppable when Shooting Aura", "Versatile Defense Aura",
    "Versatile Reach Aura", "Warbound Boost Aura",
];

/// The buffs, debuffs and marks of the Firefight books: "Once per activation, before
/// attacking, pick up to 4 friendly units within 12"" (enemy units within 18").
const PICK_UP_TO_FOUR: &[&str] = &[
    "Bane Mark", "Bane in Melee Buff", "Casting Debuff", "Dangerous Terrain Debuff", "Defense Debuff",
    "Difficult Terrain Debuff", "Entrenched Buff", "Fatigue Debuff", "Furious Buff", "Furious Mark",
    "Impact Mark", "Increased Shooting Range Mark", "Indirect Mark", "Mind Control", "Morale Debuff",
    "No Retreat Buff", "Piercing Assault Mark", "Piercing Shooting Debuff", "Piercing Shooting Mark",
    "Precision Attacks Buff", "Precision Debuff", "Precision Fighting Mark", "Precision Shooter Buff",
    "Primal Boost Buff", "Quick Shot Mark", "Rapid Advance Buff", "Regeneration Buff", "Relentless Mark",
    "Rending in Melee Mark", "Slayer Mark", "Speed Debuff", "Steadfast Buff", "Stealth Buff", "Thrust Mark",
    "Unpredictable Fighter Mark", "Unstoppable Shooting Mark", "Unwieldy Debuff",
];

const AURA_REACH: &str = "the up to 3 friendly units picked before the game get it too: a game's matter (the unit's own is played everywhere)";
const PICK_REACH: &str = "picks up to 4 units (the GF books: one): what the unit does for itself is played, the other units are a game's matter";

/// Parts of the Firefight books' rules no engine plays, and the engines whose results they
/// would change (as [`super::census::PARTLY`] for every edition).
pub fn partly(edition: Edition, name: &str) -> Option<(Gap, &'static [Engine], &'static str)> {
    if edition != Edition::Firefight3_2 {
        return None;
    }
    if AURAS.contains(&name) {
        Some((Gap::InGame, &[Engine::Game], AURA_REACH))
    } else if PICK_UP_TO_FOUR.contains(&name) {
        Some((Gap::InGame, &[Engine::Game], PICK_REACH))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::effects::definition;

    /// Every aura and buff whose reach is reported has a row under Firefight (the lists hold
    /// no name the tables lost), and none of the Firefight rows leaks into another edition.
    #[test]
    fn the_reported_names_are_played_under_firefight_only() {
        for name in AURAS.iter().chain(PICK_UP_TO_FOUR) {
            assert!(definition(Edition::Firefight3_2, name).is_some() || super::super::census::NOT_MODELLED.iter().any(|(n, ..)| n == name), "{name}");
            assert!(partly(Edition::Firefight3_2, name).is_some() && partly(Edition::V3_5, name).is_none(), "{name}");
        }
        for d in ARMY_FIREFIGHT_3_2 {
            let own = definition(Edition::Firefight3_2, d.name).expect("a Firefight row is defined under Firefight");
            assert_eq!(own.effects, d.effects, "{}: the Firefight row wins over the GF row", d.name);
            for edition in [Edition::V3_4_1, Edition::V2] {
                assert!(definition(edition, d.name).is_none(), "{} under {edition:?}", d.name);
            }
        }
        // GF's row stays GF's: Tear against Tough(3) to Tough(9), heroes included
        assert_ne!(definition(Edition::V3_5, "Tear").unwrap().effects, definition(Edition::Firefight3_2, "Tear").unwrap().effects);
        // the GF v3.5 core rows the Firefight books define, and the Firefight core over the GF reprint
        for name in BOOK_CORE_FROM_3_5 {
            assert!(definition(Edition::Firefight3_2, name).is_some(), "{name}");
        }
        let relentless = definition(Edition::Firefight3_2, "Relentless").unwrap();
        assert!(relentless.effects.iter().any(|e| e.conds.contains(&Stationary)), "Firefight's Relentless: on a Hold action");
    }
}
