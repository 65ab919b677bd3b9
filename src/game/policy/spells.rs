//! The policy's choices about spells and the rules units give each other once: which
//! friend gets a buff, which enemy a debuff or a mark, which spells a caster tries on whom,
//! and how many tokens a caster spends to help or hinder a cast.

use crate::game::state::View;
use crate::game::live::Id;  
use crate::game::spellbook::CastEffect;
use crate::game::prepare::Role;
use crate::game::PolicyKind;
use rand::RngExt;
use super::common::{enemies, BUFF_RANGE};
use super::seat::Seat;

/// "Once per activation, before attacking, pick one friendly unit within 12"" for a buff
/// (`Effect::Buff`): among the friendly units within 12" (the unit itself included) that
/// the rule would change and that hold no buff yet, the default policy picks the one with the
/// most points left at stake: its points left times the enemy units that could shoot it
/// (within their longest range plus an Advance) or charge it next. The random policy picks
/// any of them; the hold policy gives none. `(unit, index in its UnitInfo::buffed)`.
pub fn buff_target(g: &mut Seat, id: Id, given: u16) -> Option<(Id, usize)> {
    if g.policy_kind(id.0) == PolicyKind::Hold {
        return None;
    }
    let candidates: Vec<(Id, usize)> = g
        .on_table(id.0)
        .filter(|&f| g.live(f).buff == 0 && g.within(id, f, BUFF_RANGE))
        .filter_map(|f| g.info(f).held_index(given).map(|b| (f, b)))
        // a buff for moves goes to a unit that moves and has yet to act this round (or itself)
        .filter(|&(f, b)| buff_in_time(g, id, f, b))
        .collect();
    if candidates.is_empty() {
        return None;
    }
    if g.policy_kind(id.0) == PolicyKind::Random {
        let i = g.rng.random_range(0..candidates.len());
        return Some(candidates[i]);
    }
    let mut best: Option<((Id, usize), f64)> = None;
    for c in candidates {
        let score = buff_score(g, id.0, c.0, c.1);
        if best.is_none_or(|(_, b)| score > b) {
            best = Some((c, score));
        }
    }
    best.map(|(c, _)| c)
}

/// Whether a casting roll modifier given by a rule (Casting Buff within 12", Casting Debuff
/// within 18") can go to `to`: a unit with a caster that holds none, in range, and for a
/// friend one that has yet to cast this round (or the giver).
fn casting_roll_ok(g: &View, id: Id, to: Id, friend: bool) -> bool {
    let (info, live) = (g.info(to), g.live(to));
    info.casting.caster() && !info.casting.spells.is_empty() && live.casting_modifier[usize::from(!friend)] == 0 && may_cast_again(g, to) && g.within(id, to, if friend { BUFF_RANGE } else { picking_range(g, to) }) && (!friend || to == id || !live.activated)
}

/// Whether caster `u` may still try a spell in this game: not Shaken, and, in the last round,
/// yet to act with tokens in hand (a casting modifier or a debuff on it is wasted otherwise).
fn may_cast_again(g: &View, u: Id) -> bool {
    let live = g.live(u);
    !live.shaken && (g.round < g.config.rounds || (!live.activated && live.tokens > 0))
}

/// The caster that gets a rule's casting roll modifier (`Effect::CastingRollGiven`): the
/// default policy the one whose tokens are worth the most (its token worth times the tokens
/// it holds); the random policy any; the hold policy none.
pub fn casting_roll_target(g: &mut Seat, id: Id, friend: bool) -> Option<Id> {
    let army = if friend { id.0 } else { 1 - id.0 };
    let candidates: Vec<Id> = g.on_table(army).filter(|&u| casting_roll_ok(g, id, u, friend)).collect();
    choose(g, id, candidates, |g, u| token_stake(g, u))
}

/// What a caster's next casting roll is worth, to give a modifier to: its token worth times
/// the tokens it holds.
fn token_stake(g: &View, u: Id) -> f64 {
    g.info(u).casting.token_worth * f64::from(g.live(u).tokens.max(1))
}

/// The unit a rule of `id`'s gives to, among `candidates`: none for the hold policy, any for
/// the random policy, the last scoring most for the default policy.
fn choose<T: Copy>(g: &mut Seat, id: Id, candidates: Vec<T>, score: impl Fn(&View, T) -> f64) -> Option<T> {
    match g.policy_kind(id.0) {
        _ if candidates.is_empty() => None,
        PolicyKind::Hold => None,
        PolicyKind::Random => {
            let i = g.rng.random_range(0..candidates.len());
            Some(candidates[i])
        }
        _ => candidates.into_iter().map(|c| (c, score(g, c))).max_by(|a, b| a.1.total_cmp(&b.1)).map(|(c, _)| c),
    }
}

/// The enemy unit within 18" that gets a rule's debuff (`Effect::Debuff`), among those it
/// would change that hold no buff: the default policy the one scoring most (`debuff_score`),
/// the random policy any, the hold policy none. `(unit, index in its UnitInfo::buffed)`.
pub fn debuff_target(g: &mut Seat, id: Id, given: u16) -> Option<(Id, usize)> {
    let candidates: Vec<(Id, usize)> =
        enemies(g, id.0).filter(|&e| g.live(e).debuff == 0 && g.within(id, e, picking_range(g, e))).filter_map(|e| g.info(e).held_index(given).map(|b| (e, b))).collect();
    choose(g, id, candidates, |g, (e, b)| debuff_score(g, id.0, e, b))
}

/// The enemy unit within 18" that takes a rule's test (`Effect::EnemyTest`): for the default
/// policy, a dangerous terrain test goes to the one with the most points left (all its models
/// test), a morale test that fatigues to the one not yet fatigued with the most points left,
/// melee units first; the random policy picks any, the hold policy none.
pub fn enemy_test_target(g: &mut Seat, id: Id, dangerous: bool) -> Option<Id> {
    let candidates: Vec<Id> = enemies(g, id.0).filter(|&e| g.within(id, e, picking_range(g, e)) && (dangerous || !(g.live(e).fatigued || g.live(e).shaken))).collect();
    choose(g, id, candidates, |g, e| g.info(e).cost * g.wound_share(e) * if dangerous { 1.0 } else { melee_weight(g.info(e).role) })
}

/// How far away an enemy unit may be picked by a rule's "pick one enemy unit within 18"":
/// 18", less what a spell loses against it (an Aircraft: "units targeting them get -12" to
/// their range", and picking it is targeting it, as a spell's target is).
fn picking_range(g: &View, e: Id) -> f64 {
    DEBUFF_RANGE - g.info(e).spell_range_penalty
}

/// How much a unit's role makes it fight in melee, to weigh what acts on melee or moves.
fn melee_weight(role: Role) -> f64 {
    match role {
        Role::Melee => 3.0,
        Role::Hybrid => 2.0,
        Role::Shooting => 1.0,
    }
}

/// Whether `attacker` could shoot `target` (within its longest range plus an Advance) or
/// charge it next.
fn could_attack(g: &View, attacker: Id, target: Id) -> bool {
    let i = g.info(attacker);
    (i.max_range > 0.0 && g.within(attacker, target, i.max_range + i.movement.advance)) || (!i.movement.hold_only && !i.movement.aircraft && g.within(attacker, target, i.movement.charge))
}

/// "pick one enemy unit within 18"" (debuffs and marks given by rules).
pub const DEBUFF_RANGE: f64 = 18.0;

/// Whether a buff for moves (`Buffed::for_moves`) would still act for `f` this round: a unit
/// that moves and has yet to act (or the giver `id` itself); a buff for attacks, a unit that
/// has yet to act (or the giver).
fn buff_in_time(g: &View, id: Id, f: Id, b: usize) -> bool {
    let (info, live) = (g.info(f), g.live(f));
    let moves = info.buffed[b].moves();
    let for_moves = moves.advance != 0 || moves.rush != 0 || moves.charge != 0;
    let to_act = f == id || !live.activated;
    let buff = &info.buffed[b];
    let acting = buff.for_attacks() || buff.after_attack(false) > 0.0 || buff.after_attack(true) > 0.0 || buff.on_activation() > 0.0;
    (!for_moves || (!info.movement.hold_only && !info.movement.aircraft && to_act)) && (!acting || to_act)
}

/// How much giving enemy unit `e` the debuff `b` (its `UnitInfo::buffed`) is worth to the
/// default policy of `army` (a score, not points): a debuff on its attacks by the points it
/// threatens (its points left, twice if it has yet to act this round); on its moves, to its
/// melee units that have yet to act; on its defense or morale, by its points left times the
/// friendly units that threaten it.
fn debuff_score(g: &View, army: usize, e: Id, b: usize) -> f64 {
    let info = g.info(e);
    let buff = &info.buffed[b];
    let left = info.cost * g.wound_share(e);
    let to_act = if g.live(e).activated { 1.0 } else { 2.0 };
    if buff.for_attacks() {
        left * to_act
    } else if buff.for_moves() {
        if g.live(e).activated {
            0.0
        } else {
            left * match info.role {
                Role::Melee => 3.0,
                Role::Hybrid => 2.0,
                Role::Shooting => 0.5,
            }
        }
    } else {
        left * threats(g, 1 - army, e) as f64
    }
}

/// The units of the army other than `army` that could shoot `f` (within their longest range
/// plus an Advance) or charge it next.
fn threats(g: &View, army: usize, f: Id) -> usize {
    enemies(g, army).filter(|&e| could_attack(g, e, f)).count()
}

/// How much marking enemy unit `e` with `rule` is worth to `caster`'s default policy (a
/// score, not points; 0: no use): its points left times the friendly units that gain from
/// the rule, have yet to act this round (or are the caster) and could shoot or charge it.
fn mark_score(g: &View, caster: Id, e: Id, given: u16) -> f64 {
    let left = g.info(e).cost * g.wound_share(e);
    let attackers = g
        .on_table(caster.0)
        .filter(|&f| f == caster || !g.live(f).activated)
        .filter(|&f| g.info(f).held_index(given).is_some())
        .filter(|&f| could_attack(g, f, e))
        .count();
    left * attackers as f64
}

/// How much giving unit `f` of `army` its buff `b` is worth to the default policy (a score to
/// rank units by, not points): buffs for moves to the melee units first (they charge), then
/// the hybrid ones, by points; Steadfast's recovery to the Shaken units first; defensive
/// buffs by the points left times the enemies that threaten the unit.
fn buff_score(g: &View, army: usize, f: Id, b: usize) -> f64 {
    let at_stake = |f: Id| {
        let info = g.info(f);
        info.cost * g.wound_share(f) * threats(g, army, f) as f64
    };
    let info = g.info(f);
    let buff = &info.buffed[b];
    let left = info.cost * g.wound_share(f);
    if buff.recover_on().is_some() {
        if g.live(f).shaken { 1e9 + left } else { at_stake(f) }
    } else if buff.for_moves() {
        left * melee_weight(info.role)
    } else if buff.for_attacks() {
        // a buff for attacks, to the units with the most points that have yet to act
        left
    } else {
        at_stake(f)
    }
}

/// The expected points a cast of `id`'s spell `si` removes from `target` (its hits' expected
/// wounds on the target as it stands, at most what is left of it), the spell assumed cast.
pub fn spell_value(g: &mut Seat, id: Id, si: usize, target: Id) -> f64 {
    let t = g.info(target);
    if t.alloc.destroyed(g.live(target).s) {
        return 0.0;
    }
    (g.spell_wounds(id, si, target) * t.points_per_wound()).min(g.points_left(target))
}

/// What the policy counts a buff spell worth, in points: next to nothing, so that it takes
/// only tokens that no damage spell would use and that keeping would not save.
const BUFF_SPELL_VALUE: f64 = 1e-6;

/// A lasting spell's worth on a target the policy scores `score` (0 or more): next to
/// nothing (`BUFF_SPELL_VALUE`), up to twice that for the best targets.
fn lasting_value(score: f64) -> f64 {
    BUFF_SPELL_VALUE * (1.0 + score / (1.0 + score))
}

/// The spells `id` tries now and on whom (spell index, its targets), in the order tried: the
/// set of its spells, each with its best targets in range and sight, whose expected points
/// (at the bare chance to cast) less what the tokens spent are worth kept is highest within
/// the tokens it holds ("only one try per spell"). The random policy tries each spell it can
/// afford with even odds, on random targets.
pub fn spells_to_cast(g: &mut Seat, id: Id, window: crate::game::spellbook::Window) -> Vec<(usize, Vec<Id>)> {
    let info = g.info(id);
    let held = g.live(id).tokens;
    let foes: Vec<Id> = enemies(g, id.0).collect();
    // the caster's line of sight to each unit, found once for all its spells
    let mut seen: Vec<(Id, f64)> = Vec::new();
    // each spell's targets, best first, with their values
    let mut options: Vec<(usize, Vec<(Id, f64)>)> = Vec::new();
    for (si, spell) in info.casting.spells.iter().enumerate() {
        if spell.tokens > held || crate::game::spellbook::tried(g.live(id).spells_tried, si) || !window.allows(&spell.effect) {
            continue;
        }
        let mut targets: Vec<(Id, f64)> = Vec::new();
        match spell.effect {
            CastEffect::Hits(_) => {
                for &e in &foes {
                    if g.spell_target_seen(id, spell, e, &mut seen) {
                        targets.push((e, spell_value(g, id, si, e)));
                    }
                }
            }
            // a buff goes where a friend's would (`buff_score`), to units holding none; it is
            // worth next to nothing against damage and kept tokens, so it takes the tokens
            // that would go unspent
            // a debuff goes to the enemy unit it would hurt most (`debuff_score`)
            CastEffect::Buff(_) | CastEffect::Debuff(_) => {
                let friend = matches!(spell.effect, CastEffect::Buff(_));
                let Some(given) = spell.given else { continue };
                let units: Vec<Id> = if friend { g.on_table(id.0).collect() } else { foes.clone() };
                for f in units {
                    let Some(b) = g.info(f).held_index(given) else {
                        continue;
                    };
                    let free = if friend { g.live(f).buff == 0 } else { g.live(f).debuff == 0 };
                    if free && (!friend || buff_in_time(g, id, f, b)) && g.spell_target_seen(id, spell, f, &mut seen) {
                        let score = if friend { buff_score(g, id.0, f, b) } else { debuff_score(g, id.0, f, b) };
                        targets.push((f, lasting_value(score)));
                    }
                }
            }
            // a casting debuff to the enemy caster whose tokens are worth the most
            CastEffect::CastingModifier(_) => {
                for &e in &foes {
                    if g.info(e).casting.caster() && g.live(e).casting_modifier[1] == 0 && may_cast_again(g, e) && g.spell_target_seen(id, spell, e, &mut seen) {
                        targets.push((e, lasting_value(token_stake(g, e))));
                    }
                }
            }
            // a morale test that fatigues: to the enemy units about to fight in melee, by points
            CastEffect::TestOrFatigued => {
                for &e in &foes {
                    // (a Shaken unit fights as fatigued already)
                    let fatigued = g.live(e).fatigued || g.live(e).shaken;
                    if !fatigued && g.spell_target_seen(id, spell, e, &mut seen) {
                        targets.push((e, lasting_value(g.info(e).cost * g.wound_share(e) * melee_weight(g.info(e).role))));
                    }
                }
            }
            // a mark goes to the enemy unit most friendly units that gain from it could attack
            // before the end of the round (`mark_score`); the default policy's spell for "up
            // to three" marks the next units too, at no cost but the mark slot (a unit holds
            // one mark): the mark waits "once (next time the effect would apply)", in a later
            // round if need be. (Worth nothing now, they do not make the spell worth casting.)
            CastEffect::Mark(_) => {
                let Some(given) = spell.given else { continue };
                let mut worth_now = false;
                let ride_along = g.policy_kind(id.0).plays_to_win();
                for &e in &foes {
                    if g.live(e).mark.is_none() && g.spell_target_seen(id, spell, e, &mut seen) {
                        let score = mark_score(g, id, e, given);
                        worth_now |= score > 0.0;
                        if score > 0.0 || ride_along {
                            targets.push((e, if score > 0.0 { lasting_value(score) } else { 0.0 }));
                        }
                    }
                }
                if !worth_now {
                    targets.clear();
                }
                // (among those worth nothing now, the units with the most points left first)
                targets.sort_by(|a, b| g.points_left(b.0).total_cmp(&g.points_left(a.0)));
            }
        }
        if targets.is_empty() {
            continue;
        }
        targets.sort_by(|a, b| b.1.total_cmp(&a.1));
        targets.truncate(usize::from(spell.targets.count.max(1)));
        options.push((si, targets));
    }
    if g.policy_kind(id.0) == PolicyKind::Random {
        let mut out = Vec::new();
        let mut left = held;
        for (si, mut targets) in options {
            let cost = info.casting.spells[si].tokens;
            if cost <= left && g.rng.random_bool(0.5) {
                left -= cost;
                let i = g.rng.random_range(0..targets.len());
                out.push((si, vec![targets.swap_remove(i).0]));
            }
        }
        return out;
    }
    // tokens kept are worth `token_worth` each, as many as the next round's tokens leave room
    // for: a Caster Group loses what it holds at the end of the round, and the last round has
    // no next
    let (per_round, cap) = crate::game::spellbook::caster_tokens(&info.alloc, g.live(id).s);
    let carried = if info.casting.group || g.round >= g.config.rounds { 0 } else { cap.saturating_sub(per_round) };
    let chance = crate::game::spellbook::cast_chance(0);
    let priced: Vec<(u8, f64)> = options.iter().map(|(si, t)| (info.casting.spells[*si].tokens, chance * t.iter().map(|x| x.1).sum::<f64>())).collect();
    let set = crate::rules::spells::best_set(u32::from(held), &priced, |left| info.casting.token_worth * f64::from(left.min(carried)));
    set.into_iter().map(|i| (options[i].0, options[i].1.iter().map(|x| x.0).collect())).collect()
}

/// How many tokens `who` spends on another unit's casting roll, now at `modifier`: to help
/// (a friend's spell) or hinder (an enemy's), worth `stake` points to the caster's side. Each
/// token moves the chance by up to a sixth; `who` spends while that is worth more than what
/// it counts a token of its own worth. The random policy spends a random number.
pub fn tokens_to_spend(g: &mut Seat, who: Id, stake: f64, modifier: i32, help: bool) -> u8 {
    let held = g.live(who).tokens;
    if g.policy_kind(who.0) == PolicyKind::Random {
        return g.rng.random_range(0..=held);
    }
    let info = g.info(who);
    // after its activation, a token a Caster Group or the last round would lose is worth nothing
    let lost = info.casting.group || g.round >= g.config.rounds;
    let worth = if lost && g.live(who).activated { 0.0 } else { info.casting.token_worth };
    let mut spent = 0u8;
    while spent < held {
        let m = modifier + if help { i32::from(spent) } else { -i32::from(spent) };
        let moved = if help { crate::game::spellbook::cast_chance(m + 1) - crate::game::spellbook::cast_chance(m) } else { crate::game::spellbook::cast_chance(m) - crate::game::spellbook::cast_chance(m - 1) };
        if moved * stake <= worth || moved <= 0.0 {
            break;
        }
        spent += 1;
    }
    spent
}
