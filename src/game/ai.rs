//! The default policy's judgement: what a charge, a volley, a strike back, an activation or
//! an Aircraft heading is worth in expected points, from the units as they stand now.
//!
//! Charges are valued from both units' current states (models and wounds left, Shaken,
//! fatigue) with the expected-wounds helper (`prepare::exchange`), wounds counted in points
//! both ways (a wound on a surviving vehicle is worth its points per wound), plus the chance
//! that the loser of the melee fails its test (a Rout takes what is left, Shaken a share of
//! it). Values of damaged units are kept in a memo by both units' states; fresh ones come
//! from the table `Prepared::fresh_exchange`.

use super::play::{Game, Id, Path, SEIZE_RANGE};
use super::policy::{self, Action};
use super::prepare::{exchange, Exchange, Role};
use super::table::{Point, DEPTH, WIDTH};
use crate::attack::allocation::State;
use crate::morale::MoraleTest;
use rustc_hash::FxHashMap;

/// One side's state as the valuation reads it: wounds and models lost, Shaken, fatigued.
type Side = (State, bool, bool);

/// Charge estimates of damaged units, by (charger, its state, target, its state, over 9").
#[derive(Default)]
pub struct Memo {
    charges: FxHashMap<(Id, Side, Id, Side, bool), Estimate>,
}

/// What a charge is worth to the charger, in expected points.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Estimate {
    /// Points the defender loses less points the charger loses, with the loser's morale.
    pub value: f64,
    /// Expected wounds the charger deals (0: it can't hurt the target).
    pub dealt: f64,
    /// Expected wounds it takes from the Counter strike and the strike back.
    pub taken: f64,
    /// The chance the defender fails a morale test, and the points that failing costs it.
    pub defender_fails: f64,
    pub defender_stake: f64,
}

/// The standard normal distribution function (Abramowitz and Stegun 7.1.26, error < 1.5e-7).
fn normal_cdf(x: f64) -> f64 {
    let z = x.abs() / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.327_591_1 * z);
    let poly = t * (0.254_829_592 + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let erf = 1.0 - poly * (-z * z).exp();
    if x >= 0.0 { 0.5 * (1.0 + erf) } else { 0.5 * (1.0 - erf) }
}

/// What failing a melee morale test costs a unit with `left` wounds of `wounds`: "if the test
/// is failed, and the unit only has half or less of its starting size ... then the unit
/// Routs" (all its points left), else it is Shaken (`shaken_weight` of them).
fn failure_stake(left: f64, wounds: f64, per_wound: f64, shaken_weight: f64) -> f64 {
    let points = left.max(0.0) * per_wound;
    if left <= wounds / 2.0 { points } else { shaken_weight * points }
}

fn side_of(g: &Game, id: Id) -> Side {
    let l = g.live(id);
    (l.s, l.shaken, l.fatigued)
}

/// The expected wounds of `c` charging `d` as they stand (a fresh pair from the table).
fn exchange_now(g: &Game, c: Id, d: Id, far: bool) -> Exchange {
    let (cs, ds) = (side_of(g, c), side_of(g, d));
    let fresh = (State::default(), false, false);
    if cs == fresh && ds == fresh {
        if let Some(x) = g.prep.fresh_exchange[c.0].get(c.1).and_then(|row| row.get(d.1)) {
            return x[usize::from(far)];
        }
    }
    let (ci, di) = (g.info(c), g.info(d));
    let (Some(cu), Some(du)) = (ci.alloc.unit_state(cs.0, false, cs.2), di.alloc.unit_state(ds.0, ds.1, ds.2)) else {
        return Exchange::default();
    };
    exchange(ci, cu, di, du, far, g.prep.edition)
}

/// The chance a unit in state `side` fails a morale test.
fn p_fail(g: &Game, id: Id, side: Side) -> f64 {
    1.0 - MoraleTest::new(&g.info(id).alloc, side.0, side.1, g.prep.edition).p_pass()
}

/// What `c` charging `d` now is worth to `c` (cached by both states).
pub fn charge_estimate(g: &mut Game, c: Id, d: Id) -> Estimate {
    let far = g.gap(c, d) > 9.0;
    let key = (c, side_of(g, c), d, side_of(g, d), far);
    if let Some(e) = g.memo().charges.get(&key) {
        return *e;
    }
    let e = estimate(g, c, d, far, true);
    g.memo().charges.insert(key, e);
    e
}

/// The charge's value with or without the defender striking back: each phase's expected
/// wounds scaled by the striker's wounds left after the blows before it, capped at what is
/// left; then melee resolution ("Sum the total number of wounds that each unit caused"),
/// read as a normal margin, and the loser's test. Without a strike back, "it must only take
/// a morale test if it suffered at least one wound" (a Poisson chance).
fn estimate(g: &Game, c: Id, d: Id, far: bool, strike_back: bool) -> Estimate {
    let (ci, di) = (g.info(c), g.info(d));
    let (cs, ds) = (side_of(g, c), side_of(g, d));
    let (c_left, d_left) = (f64::from(ci.wounds_left(cs.0)), f64::from(di.wounds_left(ds.0)));
    if c_left <= 0.0 || d_left <= 0.0 {
        return Estimate::default();
    }
    let x = exchange_now(g, c, d, far);
    let counter = if strike_back { x.counter.min(c_left) } else { 0.0 };
    let dealt = (x.charge * (1.0 - counter / c_left)).min(d_left);
    let back = if strike_back { (x.strike_back * (1.0 - dealt / d_left)).min(c_left - counter) } else { 0.0 };
    let taken = counter + back;
    let (c_ppw, d_ppw) = (ci.points_per_wound(), di.points_per_wound());
    let weight = g.config.policies[c.0].shaken_weight;
    let d_stake = failure_stake(d_left - dealt, f64::from(di.wounds), d_ppw, weight);
    let c_stake = failure_stake(c_left - taken, f64::from(ci.wounds), c_ppw, weight);
    let (d_fail, c_fail) = (p_fail(g, d, ds), p_fail(g, c, (cs.0, false, cs.2)));
    let (charger_wins, defender_wins) = if strike_back {
        let margin = dealt - taken + x.fear;
        let spread = (dealt + taken + 1.0).sqrt();
        (normal_cdf(margin / spread), normal_cdf(-margin / spread))
    } else {
        (1.0 - (-dealt).exp(), 0.0)
    };
    let value = dealt * d_ppw - taken * c_ppw + charger_wins * d_fail * d_stake - defender_wins * c_fail * c_stake;
    Estimate { value, dealt, taken, defender_fails: charger_wins * d_fail, defender_stake: d_stake }
}

/// Whether the defender `d` strikes back at `c`: "the defending unit may choose to strike
/// back ..., but doesn't have to", and "if a unit didn't strike back in melee, then it must
/// only take a morale test if it suffered at least one wound". It declines only when that
/// is worth more in expectation: the points it would deal and the test it would avoid by
/// winning, against the test it takes anyway and the fatigue that spoils its own charge
/// later this round ("After attacking in melee for the first time during a round, either by
/// charging or by striking back, units only hit on unmodified rolls of 6").
pub fn strikes_back(g: &mut Game, c: Id, d: Id) -> bool {
    let far = g.gap(c, d) > 9.0;
    let with = estimate(g, c, d, far, true);
    let without = estimate(g, c, d, far, false);
    let mut fatigue = 0.0;
    let (di, dl) = (g.info(d), g.live(d));
    if !dl.activated && !dl.shaken && !dl.fatigued && !di.movement.hold_only && di.role != Role::Shooting {
        let targets: Vec<Id> = g.on_table(c.0).filter(|&e| !g.info(e).movement.aircraft && g.gap(d, e) <= g.charge_reach(d, e) + 1.0).collect();
        let best = targets.into_iter().map(|e| charge_estimate(g, d, e).value).fold(0.0, f64::max);
        fatigue = g.config.policies[d.0].fatigue_weight * best;
    }
    // the defender's view: it loses what the charger gains
    -without.value > -with.value - fatigue + 1e-9
}

/// The points one activation's shooting is worth now (what `policy::shots` would fire).
pub fn shot_value(g: &mut Game, id: Id, moved: bool) -> f64 {
    let volleys = policy::shots(g, id, moved);
    volleys
        .iter()
        .map(|v| {
            let t = g.info(v.target);
            let worth = t.points_per_wound() * f64::from(t.wounds_left(g.live(v.target).s));
            let expected = &g.plan(&v.key).expected;
            (v.groups.iter().filter_map(|&i| expected.get(i)).sum::<f64>() * t.points_per_wound()).min(worth)
        })
        .sum()
}

/// The marker `id` holds alone, if any (within 3" and no friend that may seize near it).
fn held_alone(g: &Game, id: Id) -> Option<Point> {
    let near = |who: Id, o: Point| g.live(who).pos.distance(o) - g.radius(who) <= SEIZE_RANGE;
    g.objectives.iter().copied().find(|&o| near(id, o) && !g.on_table(id.0).any(|f| f != id && g.can_seize(f) && near(f, o)))
}

/// The default policy's charge, if one is worth more than the unit's other options: targets
/// in reach valued from both units' states, tried best first until one has a path; charged
/// only when worth more than the charge margin, than shooting this activation (a unit that
/// charges doesn't shoot), and, off a marker it alone holds, than the marker.
pub fn charge_action(g: &mut Game, id: Id) -> Option<Action> {
    let (info, policy) = (g.info(id), g.config.policies[id.0]);
    if info.movement.hold_only || info.movement.aircraft {
        return None;
    }
    let fraction = f64::from(info.wounds_left(g.live(id).s)) / f64::from(info.wounds.max(1));
    let floor = policy.charge_margin * info.cost * fraction;
    let in_reach: Vec<Id> = g.on_table(1 - id.0).filter(|&e| !g.info(e).movement.aircraft && g.gap(id, e) <= g.charge_reach(id, e)).collect();
    let mut options: Vec<(f64, Id)> = Vec::new();
    for e in in_reach {
        let est = charge_estimate(g, id, e);
        // no charge into a unit it can't hurt
        if est.dealt > 0.05 && est.value > floor {
            options.push((est.value, e));
        }
    }
    if options.is_empty() {
        return None;
    }
    options.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
    let shooting = if info.ranged.is_empty() { 0.0 } else { shot_value(g, id, false) };
    let marker = held_alone(g, id);
    let r = g.radius(id);
    for (value, e) in options {
        if value <= shooting {
            break;
        }
        let Some(path) = g.charge_path(id, e) else { continue };
        // the charger ends 1" back from its target ("must move back by 1"")
        let leaves = marker.is_some_and(|o| path.to.distance(o) - r + 1.0 > SEIZE_RANGE);
        if leaves && value - shooting <= policy.marker_value * info.cost {
            continue;
        }
        return Some(Action::Charge(e, path));
    }
    None
}

/// How much activating `id` now is worth: its best charge or volley in reach (a quick read
/// from the tables, scaled by what is left of it), plus `threat_weight` times the points
/// enemies in reach stand to take from it.
fn activation_value(g: &mut Game, id: Id) -> f64 {
    let (info, live) = (g.info(id), g.live(id));
    let shaken = live.shaken;
    let share = |g: &Game, who: Id| f64::from(g.info(who).wounds_left(g.live(who).s)) / f64::from(g.info(who).wounds.max(1));
    let mine = share(g, id);
    let reach = if info.movement.hold_only { 0.0 } else { info.movement.advance };
    let mut best: f64 = 0.0;
    let enemies: Vec<Id> = g.on_table(1 - id.0).collect();
    for &e in &enemies {
        let gap = g.gap(id, e);
        if info.max_range > 0.0 && gap <= info.max_range + reach {
            let worth = g.info(e).points_per_wound() * f64::from(g.info(e).wounds_left(g.live(e).s));
            best = best.max((g.prep.shot_value[id.0][id.1][e.1] * mine).min(worth));
        }
    }
    if !info.movement.hold_only && !info.movement.aircraft && !shaken {
        for &e in &enemies {
            if !g.info(e).movement.aircraft && g.gap(id, e) <= g.charge_reach(id, e) {
                best = best.max(charge_estimate(g, id, e).value);
            }
        }
    }
    let mut threat = 0.0;
    for &e in &enemies {
        let (ei, el) = (g.info(e), g.live(e));
        if el.shaken {
            continue;
        }
        let gap = g.gap(e, id);
        if ei.max_range > 0.0 && gap <= ei.max_range + if ei.movement.hold_only { 0.0 } else { ei.movement.advance } {
            threat += g.prep.shot_value[e.0][e.1][id.1] * share(g, e) * mine;
        }
        if !ei.movement.hold_only && !ei.movement.aircraft && !info.movement.aircraft && gap <= ei.movement.charge {
            let x = g.prep.fresh_exchange[e.0][e.1][id.1][usize::from(gap > 9.0)];
            threat += (x.charge * share(g, e) * info.points_per_wound() - (x.counter + x.strike_back) * mine * ei.points_per_wound()).max(0.0);
        }
    }
    best + g.config.policies[id.0].threat_weight * threat
}

/// Which ready unit the default policy activates: the one whose activation is worth most
/// now (its best action, or what it stands to lose by waiting), nearest the enemy on ties;
/// Shaken units last (they only stand idle).
pub fn pick_unit(g: &mut Game, ready: &[usize], army: usize) -> usize {
    let mut best: Option<((bool, f64, f64), usize)> = None;
    for &u in ready {
        let id = (army, u);
        let shaken = g.live(id).shaken;
        let value = if shaken { 0.0 } else { activation_value(g, id) };
        let near = g.on_table(1 - army).filter(|&e| !g.info(e).movement.aircraft).map(|e| g.gap(id, e)).fold(f64::INFINITY, f64::min);
        let key = (!shaken, value, -near);
        let better = |a: (bool, f64, f64), b: (bool, f64, f64)| a.0 && !b.0 || a.0 == b.0 && (a.1 > b.1 + 1e-9 || (a.1 >= b.1 - 1e-9 && a.2 > b.2));
        if best.is_none_or(|(b, _)| better(key, b)) {
            best = Some((key, u));
        }
    }
    best.map_or(ready[0], |(_, u)| u)
}

/// Headings an Aircraft may take: every 15 degrees.
const HEADINGS: u32 = 24;
/// "adding 30" to its total move ... can't move into the table edges to move less than 30"".
const AIRCRAFT_MIN: f64 = 30.0;

/// An Aircraft's move: "May only use Advance actions, moving in a straight line" — any
/// heading on which the move (at least 30") fits on the table, the one whose end point is
/// worth most: the best volley in range of it, less `threat_weight` times what enemy
/// shooters in range of it would take.
pub fn aircraft_path(g: &mut Game, id: Id) -> Option<Path> {
    let (info, from, r) = (g.info(id), g.live(id).pos, g.radius(id));
    let policy = g.config.policies[id.0];
    let mine = f64::from(info.wounds_left(g.live(id).s)) / f64::from(info.wounds.max(1));
    let enemies: Vec<Id> = g.on_table(1 - id.0).collect();
    let mut best: Option<(f64, Path)> = None;
    for k in 0..HEADINGS {
        let a = f64::from(k) * std::f64::consts::TAU / f64::from(HEADINGS);
        let (dx, dy) = (a.cos(), a.sin());
        // how far the heading stays on the table
        let room = |p: f64, d: f64, size: f64| if d > 1e-9 { (size - r - p) / d } else if d < -1e-9 { (p - r) / -d } else { f64::INFINITY };
        let fits = room(from.x, dx, WIDTH).min(room(from.y, dy, DEPTH));
        if !(fits >= AIRCRAFT_MIN) {
            continue;
        }
        let length = info.movement.advance.min(fits);
        let to = Point::new(from.x + dx * length, from.y + dy * length);
        let mut volley: f64 = 0.0;
        let mut threat = 0.0;
        for &e in &enemies {
            let (ei, el) = (g.info(e), g.live(e));
            let gap = (to.distance(el.pos) - r - g.radius(e)).max(0.0);
            if info.max_range > 0.0 && gap <= info.max_range {
                let worth = ei.points_per_wound() * f64::from(ei.wounds_left(el.s));
                volley = volley.max((g.prep.shot_value[id.0][id.1][e.1] * mine).min(worth));
            }
            if !el.shaken && ei.max_range > 0.0 && gap <= ei.max_range + if ei.movement.hold_only { 0.0 } else { ei.movement.advance } {
                threat += g.prep.shot_value[e.0][e.1][id.1];
            }
        }
        // a small pull to the table's middle keeps later headings open
        let centre = to.distance(Point::new(WIDTH / 2.0, DEPTH / 2.0));
        let score = volley - policy.threat_weight * threat - 0.01 * centre;
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            best = Some((score, Path { to, via: None, length, difficult: false, dangerous: false }));
        }
    }
    best.map(|(_, p)| p)
}

/// Whether a unit standing at `p` would be in dangerous terrain.
pub fn in_dangerous(g: &Game, id: Id, p: Point) -> bool {
    let r = g.radius(id);
    g.terrain.iter().any(|t| t.kinds.dangerous && t.distance_to(p) < r)
}

/// Where `id` deploys (within `depth` of its edge): never in dangerous terrain; melee units
/// at the front of the zone; shooters as far forward as their range needs to fire in the
/// first rounds (Artillery and short guns at the front, long guns anywhere); cheap units
/// nearest the markers; valuable units a little behind the screen of those placed before
/// them; away from friends.
pub fn deployment_spot(g: &mut Game, id: Id, depth: f64) -> Option<Point> {
    use rand::RngExt;
    let info = g.info(id);
    let r = g.radius(id);
    let far = (depth - r).max(r);
    let army = &g.prep.armies[id.0];
    let mean = army.iter().map(|u| u.cost).sum::<f64>() / army.len().max(1) as f64;
    let cheap = info.cost <= mean;
    // the gap to the enemy's zone from the front of ours
    let no_mans_land = DEPTH - 2.0 * super::table::DEPLOY_DEPTH;
    let needs_front = info.role == Role::Shooting && (info.movement.hold_only || info.max_range < no_mans_land + far + 6.0);
    let mut best: Option<(f64, Point)> = None;
    let mut valid = 0;
    for _ in 0..80 {
        let x = g.rng.random_range(r..=WIDTH - r);
        let y = match info.role {
            Role::Shooting if !needs_front => g.rng.random_range(r..=far),
            _ => (far - g.rng.random_range(0.0..=3.0)).max(r),
        };
        let p = g.from_edge(id.0, x, y);
        if !g.spot_ok(id, p, false) || in_dangerous(g, id, p) {
            continue;
        }
        let crowd = g.on_table(id.0).filter(|&f| f != id && g.live(f).pos.distance(p) < 8.0 + r).count() as f64;
        let objective = g.objectives.iter().map(|o| o.distance(p)).fold(f64::INFINITY, f64::min);
        let objective = if objective.is_finite() { objective } else { 0.0 };
        // a valuable non-melee unit prefers a friend placed between it and the enemy
        let screened = !cheap && info.role != Role::Melee && g.on_table(id.0).any(|f| f != id && (g.live(f).pos.x - p.x).abs() < 6.0 && g.from_edge(id.0, g.live(f).pos.x, g.live(f).pos.y).y > y);
        let score = objective * if cheap { 1.5 } else { 1.0 } + 6.0 * crowd - if screened { 6.0 } else { 0.0 };
        if best.is_none_or(|(b, _)| score < b) {
            best = Some((score, p));
        }
        valid += 1;
        if valid >= 16 {
            break;
        }
    }
    best.map(|(_, p)| p)
}
