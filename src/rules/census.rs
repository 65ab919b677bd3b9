//! Which engines play each rule, and why a rule is not played: the data behind
//! `oprstats.rule_coverage` and every result's list of unmodelled rules.
//!
//! What a modelled rule does is in the rule tables ([`super::effects`], [`super::army`]); the
//! engines that play it follow from its effects, so the census cannot claim more than the
//! tables hold. Rules the tables lack are listed here with the reason.

use super::effects::{self, Cond, Effect, Side};
use crate::edition::Edition;
use rustc_hash::FxHashMap;
use std::sync::OnceLock;

/// An engine of the library.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Engine {
    /// `attack()`: the dice of one unit's attack (shooting, or one side of a melee).
    Attack,
    /// `melee()`: the whole charge, strike back, resolution and morale.
    Melee,
    /// `morale()` and the tests after shooting.
    Morale,
    /// `simulate()`: full games.
    Game,
}

impl Engine {
    pub fn as_str(self) -> &'static str {
        match self {
            Engine::Attack => "attack",
            Engine::Melee => "melee",
            Engine::Morale => "morale",
            Engine::Game => "game",
        }
    }
}

/// Why a rule is not played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Gap {
    /// The rule acts only when lists are built (Unique): nothing in a game to model.
    ListBuilding,
    /// Casting and spells (the Caster issue).
    Spells,
    /// Transports (the Caster issue).
    Transport,
    /// An in-game effect no engine plays yet.
    InGame,
}

impl Gap {
    pub fn as_str(self) -> &'static str {
        match self {
            Gap::ListBuilding => "list building",
            Gap::Spells => "spells",
            Gap::Transport => "transport",
            Gap::InGame => "in game",
        }
    }

    /// Whether a result that ignores it misses something that happens on the table.
    pub fn in_game(self) -> bool {
        self != Gap::ListBuilding
    }
}

const fn gap(name: &'static str, gap: Gap, reason: &'static str) -> (&'static str, Gap, &'static str) {
    (name, gap, reason)
}

use Gap::{InGame, ListBuilding, Spells};

const MARKERS: &str = "markers placed during a game and the bonuses they give are not tracked";
const BUFF_NO_RULE: &str = "a buff giving a rule no engine plays yet";
const MOVES_THROUGH: &str = "attacks made while moving through enemy units: moves do not pass through units";
const NEW_UNITS: &str = "places new units during the game: armies do not grow yet";
const TERRAIN_NEAR: &str = "needs most models within 1\" of terrain, which the game does not track";
const DEBUFF: &str = "a debuff for an enemy unit's next use of the effect: not played yet";
/// Upgrades of War Disciples and the Wormhole Daemons books are rules (`ArmyBookRule`) that
/// neither the books' `specialRules` nor the v3.5 core define.
const UNDEFINED: &str = "a book sells it as an upgrade but defines no rules text for it";

/// Rules of the v3.5 core and the v3.5.1 books that no engine plays, with the reason.
pub const NOT_MODELLED: &[(&str, Gap, &str)] = &[
    gap("Unique", ListBuilding, "limits how many a list may take; no effect in a game"),
    gap("Spell Conduit", Spells, "casting spells is not modelled yet"),
    gap("Spell Accumulator", Spells, "casting spells is not modelled yet"),
    gap("Crossing Attack", InGame, MOVES_THROUGH),
    gap("Crossing Barrage", InGame, MOVES_THROUGH),
    gap("Crossing Strike", InGame, MOVES_THROUGH),
    gap("Ambush Re-Deployment", InGame, "leaving the table to Ambush again is not played yet"),
    gap("Ambush Beacon", InGame, "Ambush near a friendly beacon is not played yet"),
    gap("Repel Ambushers", InGame, "a larger Ambush distance near this unit is not played yet"),
    gap("Re-Deployment", InGame, "deploying units again is not played yet"),
    gap("Retaliate", InGame, "hits back on the attacker when wounded in melee: not modelled yet"),
    gap("Deathstrike", InGame, "hits on the attacker when killed in melee: not modelled yet"),
    gap("Self-Destruct", InGame, "hits on the enemy when killed or after melee: not modelled yet"),
    gap("No Retreat", InGame, "morale passed for wounds taken instead: not modelled yet"),
    gap("Split", InGame, NEW_UNITS),
    gap("Spawn", InGame, NEW_UNITS),
    gap("Reinforcement", InGame, NEW_UNITS),
    gap("Mend", InGame, "removing wounds from a friendly model: not modelled yet"),
    gap("Reanimation", InGame, "restoring models or wounds: not modelled yet"),
    gap("Re-Position Artillery", InGame, "moving another friendly unit: not modelled yet"),
    gap("Coordinate", InGame, "activating another friendly unit at once: not modelled yet"),
    gap("Delayed Action", InGame, "passing a turn: not modelled yet"),
    gap("Extended Buff Range", InGame, "buff ranges between friendly units: not modelled yet"),
    gap("Instinctive", InGame, "a forced attack on the closest target with +1 to hit: not modelled yet"),
    gap("Quick Shot", InGame, "shooting after Rush is not played yet"),
    gap("Quick Shot Mark", InGame, "shooting after Rush is not played yet"),
    gap("Speed Feat", InGame, "a once-per-game move bonus: not played yet"),
    gap("Protection Feat", InGame, "a once-per-game save on 4+: not played yet"),
    gap("Takedown Strike", InGame, "a once-per-game attack at Quality 2+: not played yet"),
    gap("Versatile Reach", InGame, "a choice of range or charge move per activation: not played yet"),
    gap("Unwieldy", InGame, "striking last when charging: given only by a debuff, not played yet"),
    gap("Mind Control", InGame, "moving an enemy unit that fails morale: not played yet"),
    gap("Breath Attack", InGame, "an extra attack on a unit within 6\" before attacking: not played yet"),
    gap("Storm of Change", InGame, "once-per-game hits on units within 12\": not played yet"),
    gap("Storm of Lust", InGame, "once-per-game hits on units within 12\": not played yet"),
    gap("Storm of Plague", InGame, "once-per-game hits on units within 12\": not played yet"),
    gap("Storm of War", InGame, "once-per-game hits on units within 12\": not played yet"),
    gap("Grounded Stealth", InGame, TERRAIN_NEAR),
    gap("Grounded Precision", InGame, TERRAIN_NEAR),
    gap("Grounded Reinforcement", InGame, TERRAIN_NEAR),
    gap("Piercing Growth", InGame, MARKERS),
    gap("Precision Growth", InGame, MARKERS),
    gap("Defensive Growth", InGame, MARKERS),
    gap("Fortified Growth", InGame, MARKERS),
    gap("Ruinous Frenzy", InGame, MARKERS),
    gap("Devastating Frenzy", InGame, MARKERS),
    gap("Destructive Frenzy", InGame, MARKERS),
    gap("Regenerative Strength", InGame, MARKERS),
    gap("Vengeance", InGame, MARKERS),
    gap("Piercing Tag", InGame, MARKERS),
    gap("Precision Tag", InGame, MARKERS),
    gap("Piercing Target", InGame, MARKERS),
    gap("Precision Target", InGame, MARKERS),
    gap("Piercing Spotter", InGame, MARKERS),
    gap("Precision Spotter", InGame, MARKERS),
    gap("No Retreat Buff", InGame, BUFF_NO_RULE),
    gap("Unwieldy Debuff", InGame, DEBUFF),
    gap("Difficult Terrain Debuff", InGame, DEBUFF),
    gap("Banner", InGame, UNDEFINED),
    gap("Musician", InGame, UNDEFINED),
];

/// Parts of modelled rules that no engine plays, and the engines whose results they would
/// change: the rule is reported by those.
pub const PARTLY: &[(&str, Gap, &[Engine], &str)] = &[
    // the game casts a caster's damage spells (each spell it does not cast is reported by name);
    // efficiency() and the cost features value them
    ("Caster", Spells, &[Engine::Attack], CASTER),
    ("Caster Group", Spells, &[Engine::Attack], CASTER),
    ("Hazardous", InGame, &[Engine::Attack, Engine::Melee, Engine::Game], "the wound its own unit takes on unmodified 1s to hit is not dealt"),
];

/// Why Caster is played only in part: games cast its book's spells (`Spell.played`), attack()
/// and efficiency() value only its damage spells.
const CASTER: &str = "games cast its book's spells (all but 8 of the books' 258: Spell.played), and a caster counts as played \
                      where every spell of its book is; attack() and efficiency() value its damage spells, the cost features price the others by name";

/// Rules of v3.5 the game plays by name rather than through the rule tables (movement,
/// deployment, allocation, weapon use and casting, with the books' Caster Group; Fast and
/// Slow are `Effect::Move` rows).
const CORE_3_5_GAME: &[&str] = &["Aircraft", "Artillery", "Caster", "Caster Group", "Flying", "Immobile", "Indirect", "Limited", "Scout", "Strider", "Transport"];
/// v3.4.1's (gf-3.4.1-core.txt's "Special Rules Reference"): v3.5's but Artillery, which the
/// sheet does not have, and the books' Caster Group.
const CORE_3_4_1_GAME: &[&str] = &["Aircraft", "Caster", "Flying", "Immobile", "Indirect", "Limited", "Scout", "Strider", "Transport"];
/// v2.x's (gf-2.x-one-page.txt's "Special Rules"): no Artillery, Caster or Limited, which
/// it does not have; its own Aircraft (`GameRules::aircraft`) and Psychic (`Casting::Psychic`).
const CORE_2_GAME: &[&str] = &["Aircraft", "Flying", "Immobile", "Indirect", "Psychic", "Scout", "Strider", "Transport"];
/// Firefight v3.2's (gf-firefight-3.2.txt's special rules): no Aircraft, Transport or
/// Artillery, which its core lacks (a game refuses a unit with them: `GameRules::refused`),
/// and no Caster Group; the others as v3.5's.
const CORE_FIREFIGHT_3_2_GAME: &[&str] = &["Caster", "Flying", "Immobile", "Indirect", "Limited", "Scout", "Strider"];

/// The rules a full game of `edition` plays by name (`game_plays`): the game reads a rule's
/// name only through this list, so a rule the edition lacks (v3.4.1's Artillery) is neither
/// played nor left out silently, but reported.
pub fn game_rules_by_name(edition: Edition) -> &'static [&'static str] {
    match edition {
        Edition::V3_5 => CORE_3_5_GAME,
        Edition::V3_4_1 => CORE_3_4_1_GAME,
        Edition::V2 => CORE_2_GAME,
        Edition::Firefight3_2 => CORE_FIREFIGHT_3_2_GAME,
    }
}

/// Whether a full game of `edition` plays the rule `name` by name.
pub fn game_plays(edition: Edition, name: &str) -> bool {
    game_rules_by_name(edition).contains(&name)
}
/// Core rules every engine reads through the removal order (wounds per model, Heroes last).
const CORE_ALLOCATION: &[&str] = &["Hero", "Tough"];

/// The part of a rule no engine plays under an edition, if any: [`PARTLY`], then the
/// edition's own (the Firefight books' auras and buffs: [`super::army_firefight::partly`]).
fn partly(edition: Edition, name: &str) -> Option<(Gap, &'static [Engine], &'static str)> {
    PARTLY.iter().find(|(n, ..)| *n == name).map(|&(_, g, e, r)| (g, e, r)).or_else(|| super::army_firefight::partly(edition, name))
}

/// What the census says of a rule name under an edition.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Coverage {
    /// Engines that play the rule (empty: none does).
    pub engines: Vec<Engine>,
    /// What no engine plays of it, and why.
    pub gap: Option<(Gap, &'static str)>,
}

/// The engines that play an effect of this side.
fn engines_of(effect: &Effect, side: Side) -> &'static [Engine] {
    use Engine::*;
    match (side, effect) {
        (Side::Attacker | Side::Target, Effect::ChargePenalty(_)) => &[Game],
        (Side::Attacker | Side::Target, _) => &[Attack, Melee, Game],
        (
            Side::Own,
            Effect::Move(_) | Effect::RecoverOn(_) | Effect::Reposition { .. } | Effect::MoveAfterAttack { .. } | Effect::ExtraActivation | Effect::Ambush { .. } | Effect::Buff(_) | Effect::ArrivalHits { .. } | Effect::CastingRollGiven(_) | Effect::Debuff(_) | Effect::EnemyTest { .. },
        ) => &[Game],
        (Side::Own, Effect::ResolutionWounds(_) | Effect::ResolutionWoundsRolled(_)) => &[Melee, Game],
        (Side::Own, Effect::PassFailedMoraleOn(_) | Effect::MoraleModifier(_) | Effect::SetDefense(_)) => &[Attack, Melee, Morale, Game],
        (Side::Own, _) => &[],
    }
}

/// The census entry of a rule name, or `None` for a name neither the edition nor the books define.
pub fn coverage(edition: Edition, name: &str) -> Option<Coverage> {
    match indexed(edition, name) {
        Some(c) => Some(c.clone()),
        None => derive(edition, name),
    }
}

/// The census of every name the library knows, worked out once per process: the engines ask
/// it for every rule of every unit they are given (the unmodelled lists of every result).
fn indexed(edition: Edition, name: &str) -> Option<&'static Coverage> {
    static INDEX: OnceLock<Vec<FxHashMap<&'static str, Coverage>>> = OnceLock::new();
    let index = INDEX.get_or_init(|| Edition::ALL.iter().map(|&e| known_names(e).into_iter().filter_map(|n| derive(e, n).map(|c| (n, c))).collect()).collect());
    let i = Edition::ALL.iter().position(|e| *e == edition)?;
    index[i].get(name)
}

/// The census entry of a rule name, worked out from the tables.
fn derive(edition: Edition, name: &str) -> Option<Coverage> {
    if let Some(&(_, g, reason)) = NOT_MODELLED.iter().find(|(n, ..)| *n == name) {
        return Some(Coverage { engines: Vec::new(), gap: Some((g, reason)) });
    }
    let partly = partly(edition, name).map(|(g, _, r)| (g, r));
    let mut engines: Vec<Engine> = Vec::new();
    let mut lent: Option<&'static str> = None;
    effects::for_each_entry(edition, name, &mut |outer, e| {
        if let Effect::UnitGets(other) = e.effect {
            if other != name {
                lent = Some(other);
            }
        }
        // an entry that needs a round of a game (Surprise Piercing Shot's arrival) acts only there
        let game_only = e.conds.iter().chain(outer).any(|c| matches!(c, Cond::Arrived));
        for en in engines_of(&e.effect, e.side) {
            if game_only && *en != Engine::Game {
                continue;
            }
            if !engines.contains(en) {
                engines.push(*en);
            }
        }
    });
    // An aura plays what it lends.
    if let Some(other) = lent {
        let inner = derive(edition, other)?;
        for en in inner.engines {
            if !engines.contains(&en) {
                engines.push(en);
            }
        }
        engines.sort();
        return Some(Coverage { engines, gap: inner.gap.or(partly) });
    }
    let known = effects::definition(edition, name).is_some() || super::catalog::lookup(edition, name).is_some();
    if CORE_ALLOCATION.contains(&name) {
        engines = vec![Engine::Attack, Engine::Melee, Engine::Morale, Engine::Game];
    } else if game_plays(edition, name) && !engines.contains(&Engine::Game) {
        engines.push(Engine::Game);
    }
    if !known && engines.is_empty() {
        return None;
    }
    engines.sort();
    Some(Coverage { engines, gap: partly })
}

/// Every rule name the library knows under an edition: its core rules and, for v3.5 and
/// Firefight (whose books reprint the GF books' rules), the army-book rules it models or
/// lists as not modelled.
pub fn known_names(edition: Edition) -> Vec<&'static str> {
    let set = effects::rule_set(edition);
    let mut out: Vec<&'static str> = super::catalog::catalog(edition).iter().map(|s| s.name).collect();
    let extra = set.core.iter().chain(set.army).chain(super::army_firefight::inherited(edition)).map(|d| d.name);
    // the rules not modelled are the books' names: v3.5's, and Firefight's, which reprint them
    let not_modelled = if matches!(edition, Edition::V3_5 | Edition::Firefight3_2) { NOT_MODELLED } else { &[] };
    let listed: Vec<&'static str> = not_modelled.iter().map(|(n, ..)| *n).chain(game_rules_by_name(edition).iter().copied()).collect();
    for n in extra.chain(listed) {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// Whether a result of `engine` ignores something this rule does on the table: an unknown
/// name, a rule no engine plays, or the part of a rule that `engine` would need. Rules that
/// act only elsewhere (a move bonus, for an attack) are not ignored by it.
pub fn ignored_by(edition: Edition, name: &str, engine: Engine) -> bool {
    if let Some((_, _, engines, _)) = PARTLY.iter().find(|(n, ..)| *n == name) {
        return engines.contains(&engine);
    }
    // a Firefight aura's or buff's reach beyond the unit: the engines named, besides what
    // the rule it lends leaves out
    if super::army_firefight::partly(edition, name).is_some_and(|(_, engines, _)| engines.contains(&engine)) {
        return true;
    }
    let ignored = |c: &Coverage| c.engines.is_empty() && c.gap.is_some_and(|(g, _)| g.in_game());
    match indexed(edition, name) {
        Some(c) => ignored(c),
        None => derive(edition, name).is_none_or(|c| ignored(&c)),
    }
}
