//! The default policy's Ambush and Infiltrate arrivals (issue 40): where it arrives is
//! valued by what the unit can do there against what the enemy can take from it before it
//! acts, never in its own deployment zone when a spot outside is free, and a unit with no
//! spot worth the risk waits. An audit of traced games found Dark Elf Shadow Warriors wiped
//! out the round they arrived in 61-71% of games, and 20% of arrivals in the unit's own zone;
//! the November 2026 policy (`PolicyKind::V3_2026_11`) still arrives as near a marker as it
//! can. Every policy's arrivals are tested here (`may_arrive`).
//!
//! gf-3.5 Ambush: "May be set aside before deployment. At the start of any round after the
//! first, may be deployed anywhere over 9" away from enemy units ... Units that deploy via
//! Ambush can't seize or contest objectives on the round they deploy."

use super::super::config::Short;
use super::super::live::Id;
use super::super::state::View;
use super::super::table::Point;
use super::common::enemies;
use super::Seat;
use rand::RngExt;

/// Spots sampled per arrival: a third round the markers the army does not hold, a third
/// just beyond the arrival distance of enemy units, a third anywhere.
const SAMPLES: usize = 90;

/// What `Arrival::value` reads of the arriving unit and of each enemy unit, found once for the
/// many spots of a search (nothing moves while it samples them).
pub struct Arrival {
    radius: f64,
    /// Its share of wounds left, and its points per wound.
    mine: f64,
    per_wound: f64,
    /// It shoots at enemies within this gap (its range and an Advance; negative: it has no
    /// guns), and charges those within `charges_within` (negative: it does not charge).
    shoots_within: f64,
    charges_within: f64,
    /// What is left of it (at least a trifle), the reach of a marker by its next move, and a
    /// marker's worth to its army.
    worth: f64,
    marker_reach: f64,
    marker: f64,
    threat_weight: f64,
    foes: Vec<ArrivalFoe>,
}

/// An enemy unit as `Arrival` reads it.
struct ArrivalFoe {
    pos: Point,
    radius: f64,
    left: f64,
    share: f64,
    per_wound: f64,
    aircraft: bool,
    shaken: bool,
    /// The arriving unit's fresh shot at it and charges (near, over 9").
    shot: f64,
    exchange: [crate::game::prepare::Exchange; 2],
    /// Its shots at the arriving unit within this gap (`None`: it has no guns), its charges
    /// within this one (`None`: it does not charge), and their fresh values.
    shoots_within: Option<f64>,
    charges_within: Option<f64>,
    their_shot: f64,
    their_exchange: [crate::game::prepare::Exchange; 2],
}

impl Arrival {
    pub fn of(g: &View, id: Id) -> Arrival {
        let (info, policy) = (g.info(id), g.config.policies[id.0]);
        let m = g.movement(id);
        let (shots, exchanges) = (&g.prep.shot_value[id.0][id.1], &g.prep.fresh_exchange[id.0][id.1]);
        let (their_shots, their_exchanges) = (&g.prep.shot_value[1 - id.0], &g.prep.fresh_exchange[1 - id.0]);
        let foes = enemies(g, id.0)
            .map(|e| {
                let (ei, el, em) = (g.info(e), g.live(e), g.info(e).movement);
                ArrivalFoe {
                    pos: el.pos,
                    radius: g.radius(e),
                    left: g.points_left(e),
                    share: g.wound_share(e),
                    per_wound: ei.points_per_wound(),
                    aircraft: em.aircraft,
                    shaken: el.shaken,
                    shot: shots[e.1],
                    exchange: exchanges[e.1],
                    shoots_within: (ei.max_range > 0.0).then(|| ei.max_range + if em.hold_only { 0.0 } else { em.advance }),
                    charges_within: (!em.hold_only && !em.aircraft).then(|| (em.charge - info.tricks.charge_penalty).max(0.0)),
                    their_shot: their_shots[e.1][id.1],
                    their_exchange: their_exchanges[e.1][id.1],
                }
            })
            .collect();
        let radius = g.radius(id);
        Arrival {
            radius,
            mine: g.wound_share(id),
            per_wound: info.points_per_wound(),
            shoots_within: if info.max_range > 0.0 { info.max_range + m.advance } else { -1.0 },
            charges_within: if m.hold_only { -1.0 } else { m.charge },
            worth: g.points_left(id).max(1e-9),
            marker_reach: m.rush + g.rules.markers.range + radius,
            marker: super::ai::marker_points(g, id.0),
            threat_weight: policy.arrival_threat_weight,
            foes,
        }
    }

    /// What arriving at `p` is worth to the unit: its best shot or charge from there (the fresh
    /// tables of `Prepared`, scaled by what is left of both units), plus a marker it can reach
    /// by its next activation's move (`marker_value` times the army's average unit, times the
    /// share of the unit expected to live), less `arrival_threat_weight` times what the enemy
    /// unit that can take the most from it there by a shot or a charge stands to take (at most
    /// what is left of it; the fresh tables, as `ai::activation_value` reads them).
    pub fn value(&self, p: Point, wanted: &[Point]) -> f64 {
        let (mine, per_wound) = (self.mine, self.per_wound);
        let (mut best, mut threat): (f64, f64) = (0.0, 0.0);
        for foe in &self.foes {
            let gap = (p.distance(foe.pos) - self.radius - foe.radius).max(0.0);
            if self.shoots_within >= 0.0 && gap <= self.shoots_within {
                best = best.max((foe.shot * mine).min(foe.left));
            }
            if self.charges_within >= 0.0 && !foe.aircraft && gap <= self.charges_within {
                let x = foe.exchange[usize::from(gap > 9.0)];
                best = best.max((x.charge * mine * foe.per_wound).min(foe.left) - (x.counter + x.strike_back) * foe.share * per_wound);
            }
            if foe.shaken {
                continue;
            }
            // (the enemy unit that can take the most from it: the others have other targets)
            if foe.shoots_within.is_some_and(|within| gap <= within) {
                threat = threat.max(foe.their_shot * foe.share * mine);
            }
            if foe.charges_within.is_some_and(|within| gap <= within) {
                let x = foe.their_exchange[usize::from(gap > 9.0)];
                threat = threat.max(x.charge * foe.share * per_wound - (x.counter + x.strike_back) * mine * foe.per_wound);
            }
        }
        // it loses at most what is left of it, and takes a marker only if it lives
        let loss = threat.min(self.worth);
        let marker_gain = if wanted.iter().any(|o| o.distance(p) <= self.marker_reach) { self.marker * (1.0 - loss / self.worth) } else { 0.0 };
        best + marker_gain - self.threat_weight * loss
    }
}

/// Whether `id`, arriving where it is worth `value` (`Arrival::value`), is expected to lose
/// more than half of what is left of it before it acts, beyond all it can gain there: it
/// would be shot off the table for little.
fn doomed(g: &View, id: Id, value: f64) -> bool {
    let worth = g.points_left(id);
    worth > 0.0 && value < -0.5 * worth
}

/// Whether `p` is in `army`'s own deployment zone ("fully within 12" of their table edge").
pub fn in_own_zone(g: &View, army: usize, p: Point) -> bool {
    let depth = g.rules.deployment.depth;
    if g.facing(army) > 0.0 { p.y <= depth } else { p.y >= g.rules.table.depth - depth }
}

/// Where the default policy's Ambusher arrives, or `None` to wait: among sampled legal spots,
/// one outside its own zone if any, then the one worth most (`Arrival::value`; on ties the
/// nearest a marker its army does not hold). It waits when even the best spot would see it
/// shot off the table for little (`doomed`), up to the round before the last (so that it may still
/// seize a marker).
pub fn ambush_spot(g: &mut Seat, id: Id) -> Option<Point> {
    let r = g.radius(id);
    let over = g.info(id).movement.ambush_over.max(0.0);
    let wanted: Vec<Point> = g.objectives.iter().zip(&g.owner).filter(|(_, o)| **o != id.0 as i8).map(|(p, _)| *p).collect();
    let ground = ArrivalGround::of(g, id);
    let (width, depth) = (g.rules.table.width, g.rules.table.depth);
    let arrival = Arrival::of(g, id);
    let foes: Vec<(Point, f64)> = arrival.foes.iter().filter(|f| !f.aircraft).map(|f| (f.pos, f.radius)).collect();
    // (outside its own zone, value), the spot, and its nearness to a wanted marker (found only
    // to break a tie, once a spot)
    let mut best: Option<((bool, f64), Point, Option<f64>)> = None;
    let nearness = |p: Point| -p.nearest(&wanted);
    // (a spot drawn that near a marker is refused whatever its angle: its draws are made, and
    // it is dropped unbuilt)
    let refused_within: Vec<f64> = wanted.iter().map(|&o| ground.refused_within(o)).collect();
    // Facing few enemy units, a spot's value costs less than its test (`may_arrive`): it is
    // valued first, and one that loses to the best so far (or ties it and is no nearer a
    // marker) is not tested; facing more, the test first (measured: a duel's arrivals cost
    // 23% less valued first, 10 v 10's 37% more).
    const FEW: usize = 2;
    let value_first = arrival.foes.len() <= FEW;
    for attempt in 0..SAMPLES {
        let a = g.rng.random_range(0.0..std::f64::consts::TAU);
        let p = match attempt % 3 {
            0 if !wanted.is_empty() => {
                let k = attempt / 3 % wanted.len();
                let d = g.rng.random_range(0.0..=g.rules.markers.range + r);
                if d < refused_within[k] {
                    continue;
                }
                let o = wanted[k];
                Point::new(o.x + d * a.cos(), o.y + d * a.sin())
            }
            1 if !foes.is_empty() => {
                let (at, re) = foes[attempt / 3 % foes.len()];
                let d = over + r + re + g.rng.random_range(0.1..6.0);
                Point::new(at.x + d * a.cos(), at.y + d * a.sin())
            }
            _ => Point::new(g.rng.random_range(r..=width - r), g.rng.random_range(r..=depth - r)),
        };
        // a spot in its own zone never beats one outside it: not valued once one is found
        let outside = !in_own_zone(g, id.0, p);
        if best.is_some_and(|((o, _), _, _)| o && !outside) {
            continue;
        }
        if !value_first && !may_arrive(g, id, p, &ground) {
            continue;
        }
        let key = (outside, arrival.value(p, &wanted));
        let tie = match &best {
            None => false,
            Some((b, _, _)) if key.0 && !b.0 || key.0 == b.0 && key.1 > b.1 + 1e-9 => false,
            Some((b, _, _)) if key.0 == b.0 && key.1 >= b.1 - 1e-9 => true,
            Some(_) => continue,
        };
        // a tie of values: the nearer a wanted marker
        let mut near = None;
        if let (true, Some((_, pb, near_b))) = (tie, &mut best) {
            let n = nearness(p);
            if !(n > *near_b.get_or_insert_with(|| nearness(*pb))) {
                continue;
            }
            near = Some(n);
        }
        if value_first && !may_arrive(g, id, p, &ground) {
            continue;
        }
        best = Some((key, p, near));
    }
    let waits = g.round + 1 < g.config.rounds;
    match best {
        Some(((_, value), _, _)) if waits && doomed(g, id, value) => None,
        Some((_, p, _)) => Some(p),
        None if waits => None,
        None => ambush_spot_on_grid(g, id, &wanted, &ground),
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::cache::Cache;
    use super::super::super::test_support::{config, placed, prep, with_seat};
    use super::*;

    #[test]
    fn an_ambusher_does_not_arrive_in_its_own_zone() {
        // "may be deployed anywhere over 9" away from enemy units": with a marker beside its
        // own edge and room by the enemy's marker, the default policy's scouts arrive
        // outside their own deployment zone
        let p = prep(&["Scouts [5] Q4+ D4+ | Ambush\n5x Rifle (24\", A1)", "Grunts [5] Q5+ D5+\n5x Rifle (24\", A1)"], &["Grunts [5] Q5+ D5+\n5x Rifle (24\", A1)"]);
        let c = config(Vec::new(), vec![Point::new(36.0, 6.0), Point::new(12.0, 30.0)], vec![Point::new(5.0, 24.0), Point::new(60.0, 6.0)], vec![Point::new(60.0, 42.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        g.round = 2;
        let scouts = (0, 0);
        g.live_mut(scouts).reserve = true;
        g.live_mut(scouts).gone = false;
        assert_eq!(g.facing(0), 1.0);
        for _ in 0..10 {
            let spot = with_seat(&mut g, |s| ambush_spot(s, scouts)).expect("somewhere to arrive");
            assert!(!in_own_zone(&g, 0, spot), "arrived in its own zone at {spot:?}");
        }
    }

    #[test]
    fn an_ambusher_waits_rather_than_arrive_to_be_wiped_out() {
        // a lone hero with nothing in reach, and a gun line covering the whole table: it waits
        // in round 2, and arrives in the round before the last
        let guns = "Guns [10] Q3+ D4+ | 300pts\n10x Cannon (48\", A4, AP(2))";
        let p = prep(&["Hero [1] Q4+ D4+ | 60pts | Ambush\nSword (A1)", "Grunts [5] Q5+ D5+ | 100pts\n5x Rifle (24\", A1)"], &[guns, guns]);
        let c = config(Vec::new(), vec![Point::new(36.0, 24.0)], vec![Point::new(5.0, 24.0), Point::new(36.0, 6.0)], vec![Point::new(20.0, 44.0), Point::new(52.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let hero = (0, 0);
        g.live_mut(hero).reserve = true;
        for (round, arrives) in [(2, false), (3, true)] {
            g.round = round;
            let spot = with_seat(&mut g, |s| ambush_spot(s, hero));
            assert_eq!(spot.is_some(), arrives, "round {round}: {spot:?}");
        }
    }
}

/// Whether the Ambusher `id` may arrive at `p`: Ambush "over 9"" from enemy units (edge to
/// edge; Infiltrate "up to 1"": `spot_ok` keeps the 1" between units), where it may stand.
pub(super) fn may_arrive(g: &View, id: Id, p: Point, ground: &ArrivalGround) -> bool {
    let (r, over) = (ground.radius, ground.over);
    (over <= 0.0 || ground.enemies.iter().all(|&(at, re)| p.distance(at) - r - re > over)) && g.spot_ok_among(id, p, false, &ground.others)
}

/// What `may_arrive` reads of the arriving unit and of the other units, gathered once for the
/// many spots of a search (nothing moves while it tries them): its radius and the distance
/// to keep from enemy units, the enemy units' discs, and the units to keep 1" from.
pub(super) struct ArrivalGround {
    radius: f64,
    over: f64,
    enemies: Short<(Point, f64), 32>,
    others: Short<(Id, Point, f64), 32>,
}

impl ArrivalGround {
    pub(super) fn of(g: &View, id: Id) -> ArrivalGround {
        ArrivalGround {
            radius: g.radius(id),
            over: g.info(id).movement.ambush_over,
            // (v2.x: an enemy Aircraft counts 12" further: its disc as that much wider)
            enemies: enemies(g, id.0).map(|e| (g.live(e).pos, g.radius(e) + g.measured_further(id, e))).collect(),
            others: g.others_on_ground(id),
        }
    }

    /// Below this distance from `o`, every spot is within the distance to keep of an enemy
    /// unit, so `may_arrive` refuses it (the spot is at most that plus the enemy's distance
    /// from `o` away from the enemy; a millionth of an inch spare for rounding): a sampler
    /// may drop such spots unbuilt. Zero where no enemy unit is that near.
    pub(super) fn refused_within(&self, o: Point) -> f64 {
        if self.over <= 0.0 {
            return 0.0;
        }
        self.enemies.iter().map(|&(at, re)| self.over + self.radius + re - o.distance(at) - 1e-6).fold(0.0, f64::max)
    }
}

/// `ambush_spot`'s fallback when its samples find no legal spot (a crowded table): the legal
/// spot on an inch grid nearest the wanted markers (the table's centre without any), so a
/// unit that can arrive does.
pub(super) fn ambush_spot_on_grid(g: &View, id: Id, wanted: &[Point], ground: &ArrivalGround) -> Option<Point> {
    let r = g.radius(id);
    let (width, depth) = (g.rules.table.width, g.rules.table.depth);
    let centre = [Point::new(width / 2.0, depth / 2.0)];
    let wanted = if wanted.is_empty() { &centre[..] } else { wanted };
    let mut best: Option<(f64, Point)> = None;
    let (mut x, mut y) = (r, r);
    while y <= depth - r {
        while x <= width - r {
            let p = Point::new(x, y);
            let score = p.nearest(wanted);
            if best.is_none_or(|(b, _)| score < b) && may_arrive(g, id, p, ground) {
                best = Some((score, p));
            }
            x += 1.0;
        }
        (x, y) = (r, y + 1.0);
    }
    best.map(|(_, p)| p)
}
