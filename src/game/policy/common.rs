//! What several of the policy's choices read of the game: the enemies on the table, who holds a
//! marker alone, how far a spot is from the markers, and the sampling of deployment spots.

use super::seat::Seat;
use crate::game::state::View;
use crate::game::live::Id;
use crate::game::table::Point;
use crate::game::config::Short;
use rand::RngExt;

pub(super) fn enemies<'g>(g: &'g View, army: usize) -> impl Iterator<Item = Id> + 'g {
    g.on_table(1 - army)
}

/// Whether `id` stands within 3" of marker `o` and no friend that may seize it does.
#[inline(always)]
pub fn holds_alone(g: &View, id: Id, o: Point) -> bool {
    if !g.near_marker(id, o) {
        return false;
    }
    for f in g.on_table(id.0) {
        if f != id && g.may_seize(f) && g.near_marker(f, o) {
            return false;
        }
    }
    true
}

/// The distance from `p` to the nearest objective marker.
pub fn to_objective(g: &View, p: Point) -> f64 {
    p.nearest(&g.objectives)
}

/// The deployment policies' sampling: up to 60 spots, each drawn along the edge and then
/// from it (anywhere within the zone, or, with `jitter`, up to that many inches back from its
/// front), kept where the unit may stand and `keep` allows, scored by `score(game, spot, its
/// depth in the zone, friends within 8" of it)`; the lowest score of the first `enough` kept
/// spots. `None`: none kept.
pub fn sample_deployment(
    g: &mut Seat,
    id: Id,
    depth: f64,
    jitter: Option<f64>,
    enough: usize,
    keep: impl Fn(&View, Point) -> bool,
    score: impl Fn(&View, Point, f64, f64) -> f64,
) -> Option<Point> {
    let r = g.radius(id);
    let far = (depth - r).max(r);
    let mut best: Option<(f64, Point)> = None;
    let mut valid = 0;
    let nearby = g.nearby(id);
    // (where its friends stand, found once: nothing moves while it samples)
    let friends: Short<Point, 32> = g.on_table(id.0).filter(|&f| f != id).map(|f| g.live(f).pos).collect();
    for _ in 0..60 {
        let x = g.rng.random_range(r..=g.rules.table.width - r);
        let y = match jitter {
            None => g.rng.random_range(r..=far),
            Some(j) => (far - g.rng.random_range(0.0..=j)).max(r),
        };
        let p = g.from_edge(id.0, x, y);
        if !g.spot_ok_nearby(id, p, false, &nearby) || !keep(g, p) {
            continue;
        }
        let crowd = friends.iter().filter(|q| q.distance(p) < 8.0 + r).count() as f64;
        let score = score(g, p, y, crowd);
        if best.is_none_or(|(b, _)| score < b) {
            best = Some((score, p));
        }
        valid += 1;
        if valid >= enough {
            break;
        }
    }
    best.map(|(_, p)| p)
}

/// "pick one friendly unit within 12"".
pub const BUFF_RANGE: f64 = 12.0;
