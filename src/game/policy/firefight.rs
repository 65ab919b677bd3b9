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
