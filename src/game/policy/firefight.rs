//! The policy's choices that only Firefight v3.2 asks (editions-game.md FF-F5, FF-G5, FF-H2):
//! where to push a Stunned enemy model, and what Stunning, Knocking Out and bringing the enemy
//! army to its Rout Test are worth to the default policy's valuations.

use super::seat::Seat;
use crate::game::config::PolicyKind;
use crate::game::live::Id;
use crate::game::state::View;
use crate::game::table::Point;
use rand::RngExt;

/// What a spot a pushed unit `id` of the enemy ends at is worth to the pusher, lower first:
/// the markers its side would hold or contest within 3" of it (FF-F5's first preference),
/// then out of dangerous terrain (its second: a push into it makes the model test), then
/// within 12" of a friendly hero (its fourth: the hero lends its Quality to Rout Tests).
/// Cover, the third, is not weighed: the policy's cover test reads the whole unit's line
/// from a shooter, and a push is one model's.
fn push_score(g: &View, id: Id, p: Point) -> (usize, bool, bool) {
    let markers = g.objectives.iter().filter(|&&o| g.near_marker_at(id, p, o)).count();
    let dangerous = g.models_in_dangerous_at(id, p) != 0;
    let aura = g.rules.rout_test.map_or(0.0, |r| r.hero_aura);
    let r = g.radius(id);
    let hero_near = g.on_table(id.0).any(|h| h != id && g.info(h).alloc.runs.iter().any(|(m, _)| m.hero) && !g.live(h).shaken && g.live(h).pos.distance(p) - r - g.radius(h) <= aura);
    (markers, !dangerous, hero_near)
}

/// Where `by` pushes the Stunned enemy `id` (`View::push_spots`): the default and greedy
/// policies push where `push_score` is lowest, if lower than where it stands; the random
/// policy to any spot or none; the hold policy never pushes (it moves nothing).
pub fn push_spot(g: &mut Seat, by: Id, id: Id, inches: f64) -> Option<Point> {
    let spots = g.push_spots(id, inches);
    match g.policy_kind(by.0) {
        PolicyKind::Hold => None,
        PolicyKind::Random => {
            let k = g.rng.random_range(0..=spots.len());
            spots.get(k).copied()
        }
        PolicyKind::Default | PolicyKind::V3_2026_11 | PolicyKind::Greedy => {
            let here = push_score(g, id, g.live(id).pos);
            let best = spots.into_iter().map(|p| (push_score(g, id, p), p)).min_by(|a, b| a.0.cmp(&b.0))?;
            (best.0 < here).then_some(best.1)
        }
    }
}

/// The chance that a Poisson count of mean `mean` reaches `k`.
fn poisson_at_least(mean: f64, k: u32) -> f64 {
    let mean = mean.max(0.0);
    let (mut term, mut below) = ((-mean).exp(), 0.0);
    for i in 0..k {
        below += term;
        term *= mean / f64::from(i + 1);
    }
    (1.0 - below).clamp(0.0, 1.0)
}

/// Firefight's wound effects for `wounds` expected wounds (a Poisson count) on `id` as it
/// stands: the chance that its last model rolls for them ("each wound kills one model, until
/// only one last model remains"; Tough(X) rolls once it has X markers), and the chance that
/// roll Knocks it Out ("roll one die and add the number of wound markers ... 6+: Knocked
/// Out", Tough(X) on 5+X), read at the fewest markers it can roll with.
pub fn wound_effect_chances(g: &View, id: Id, wounds: f64) -> (f64, f64) {
    let (alloc, l) = (&g.info(id).alloc, g.live(id));
    let left = alloc.alive(l.s);
    if left == 0 || l.gone {
        return (0.0, 0.0);
    }
    let tough = alloc.model_at(alloc.len() - 1).tough.max(1);
    let markers = if left == 1 { l.s.w } else { 0 };
    let need = (left - 1) + tough.saturating_sub(markers).max(1);
    let at_roll = tough.max(markers + 1);
    let p_ko = ((f64::from(at_roll) - f64::from(tough) + 2.0) / 6.0).clamp(0.0, 1.0);
    (poisson_at_least(wounds, need), p_ko)
}

/// What the army of `id` stands to lose at its end-of-round Rout Test once `id` is
/// destroyed, beyond what it stands to lose there now (0 where the edition has none): "Whenever
/// an army is down to half or less of its starting units at the end of a round, then all of
/// its units must take a Rout Test". Each unit left counts its points if it is Stunned (it
/// Routs) and otherwise its chance to fail times `weight` of them (it is Stunned), at its own
/// Quality or a hero's within 12" (`View::aura_test`; a hero `id` itself lends no more).
pub fn rout_gain(g: &View, id: Id, weight: f64) -> f64 {
    let Some(rule) = g.rules.rout_test else { return 0.0 };
    let army = id.0;
    let start = g.units[army].len() as u32;
    let left = g.units[army].iter().filter(|l| !l.gone).count() as u32;
    let tests = |n: u32| n * rule.share.1 <= start * rule.share.0;
    if left == 0 || !tests(left - 1) {
        return 0.0;
    }
    let heroes = g.lending_heroes(army);
    // already testing, and lending no Quality: losing `id` only takes its own stake
    if tests(left) && !heroes.contains(&id) {
        return 0.0;
    }
    let without: Vec<Id> = heroes.iter().copied().filter(|&h| h != id).collect();
    let at_stake = |u: usize, heroes: &[Id]| {
        let l = &g.units[army][u];
        if l.gone {
            return 0.0;
        }
        let points = g.points_left((army, u));
        if l.shaken { points } else { (1.0 - g.aura_test((army, u), 0, heroes, rule).0.p_pass()) * weight * points }
    };
    let after: f64 = (0..g.units[army].len()).filter(|&u| u != id.1).map(|u| at_stake(u, &without)).sum();
    let now: f64 = if tests(left) { (0..g.units[army].len()).map(|u| at_stake(u, &heroes)).sum() } else { 0.0 };
    (after - now).max(0.0)
}

/// What `rout_gain` reads of `army`, for the policy's memo: 0 where the edition has no Rout
/// Test or the army's next loss does not bring it to one, else a fingerprint of its units'
/// states (destroyed, Stunned, models and markers, where they stand), never 0.
pub fn rout_key(g: &View, army: usize) -> u64 {
    let Some(rule) = g.rules.rout_test else { return 0 };
    let start = g.units[army].len() as u32;
    let left = g.units[army].iter().filter(|l| !l.gone).count() as u32;
    if left == 0 || (left - 1) * rule.share.1 > start * rule.share.0 {
        return 0;
    }
    use std::hash::{Hash, Hasher};
    let mut h = rustc_hash::FxHasher::default();
    for l in &g.units[army] {
        // (where it stands too: a hero lends its Quality within 12")
        (l.gone, l.shaken, l.s.k, l.s.w, l.s.stunned, l.wounds_left, l.pos.x.to_bits(), l.pos.y.to_bits(), l.reserve).hash(&mut h);
    }
    h.finish() | 1
}

/// What Stunning or Knocking Out `id` with `wounds` expected wounds (shooting or melee) is
/// worth beyond those wounds' points, to the side attacking it (FF-G5: no melee resolution;
/// "the chances of Stunning and Knocking Out"): a Knock Out takes the last model's points and,
/// where it destroys the unit, brings its army nearer its Rout Test (`rout_gain`); a Stun
/// costs `weight` (the policy's `shaken_weight`: Stunned is Firefight's Shaken) of what is
/// left. Also the chance of a Stun, for the policy's markers.
pub fn wound_effects_value(g: &View, id: Id, wounds: f64, weight: f64) -> (f64, f64) {
    let (p_check, p_ko) = wound_effect_chances(g, id, wounds);
    if p_check <= 0.0 {
        return (0.0, 0.0);
    }
    let left = g.live(id).left.max(1);
    let last_points = g.points_left(id) / f64::from(left);
    let stun = if g.live(id).shaken { 0.0 } else { weight * last_points };
    let value = p_check * (p_ko * (last_points + rout_gain(g, id, weight)) + (1.0 - p_ko) * stun);
    (value, p_check * (1.0 - p_ko))
}

/// A charge of `c` on `d` where units take wound effects, from the expected wounds each side
/// deals (`dealt` by the charger, `taken` by it): the wounds' points both ways and each side's
/// wound effects (`wound_effects_value`); no melee resolution and no morale test. A Stunned
/// defender without Tough is Knocked Out by the charge itself ("If Stunned models ... are
/// charged again, then they are Knocked Out immediately"), with all its models if the whole
/// unit is Stunned: its points and what its loss does to its army's Rout Test.
pub fn charge_value(g: &View, c: Id, d: Id, dealt: f64, taken: f64, weight: f64) -> (f64, f64) {
    let (ci, di) = (g.info(c), g.info(d));
    if g.live(d).shaken && !g.info(d).alloc.last_has_tough {
        return (g.points_left(d) + rout_gain(g, d, weight), 0.0);
    }
    let (d_value, d_stun) = wound_effects_value(g, d, dealt, weight);
    let (c_value, _) = wound_effects_value(g, c, taken, weight);
    (dealt * di.points_per_wound() - taken * ci.points_per_wound() + d_value - c_value, d_stun)
}

/// What a volley of `wounds` expected wounds at `target` is worth to `army` beyond their
/// points where units take wound effects (0 elsewhere): the chances of Stunning and Knocking
/// Out the target, and of bringing its army to its Rout Test (`wound_effects_value`).
pub fn shot_bonus(g: &View, army: usize, target: Id, wounds: f64) -> f64 {
    if !g.stuns_models(target) {
        return 0.0;
    }
    wound_effects_value(g, target, wounds, g.config.policies[army].shaken_weight).0
}
