//! The players: which unit to activate, which action it takes, where it goes and what it
//! shoots. The rules of the game stay in `play`; a policy only chooses among legal options.
//!
//! The greedy policy (the earlier default) plays by the rules' priorities: it reads each
//! unit's role from its exact expected damage (`prepare::Role`), charges when the exact melee
//! on fresh units favours the charger, holds objectives it stands on, goes for objectives that
//! are not its side's, and shoots where the expected points removed are highest. The default
//! policy plays the same way except where `ai` values its options from the units' current
//! states (charges, activation order, the last round, Aircraft, deployment, strike backs).
//! The random policy takes any legal action; the hold policy never moves and shoots like the
//! default one.

use super::play::{Game, Id, Path, ShotKey, SEIZE_RANGE};
use super::casting::CastEffect;
use super::prepare::Role;
use super::table::{Point, WIDTH};
use super::{PolicyKind, Short};
use rand::RngExt;

/// What a unit does with its activation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    Hold,
    Advance(Path),
    Rush(Path),
    Charge(Id, Path),
    /// Into a friendly transport by a move (Advance, or Rush when `true`) that reaches it.
    Embark(Id, Path, bool),
}

/// Weapon groups fired at one target (indices into the shot plan's groups).
#[derive(Debug, Clone, PartialEq)]
pub struct Volley {
    pub target: Id,
    pub key: ShotKey,
    pub groups: Short<usize, 8>,
}

/// A target a unit may shoot: the target, its shot, the value of each weapon group, and
/// what the target is worth now.
type Target = (Id, ShotKey, Short<f64, 8>, f64);

fn enemies<'g>(g: &'g Game, army: usize) -> impl Iterator<Item = Id> + 'g {
    g.on_table(1 - army)
}

/// Whether `id` stands within 3" of marker `o` and no friend that may seize it does.
#[inline]
pub fn holds_alone(g: &Game, id: Id, o: Point) -> bool {
    g.near_marker(id, o) && !g.on_table(id.0).any(|f| f != id && g.can_seize(f) && g.near_marker(f, o))
}

/// The nearest enemy on the ground (Aircraft can't be charged, and no one walks to them).
fn nearest_enemy(g: &Game, id: Id) -> Option<(Id, f64)> {
    // the discs' gap is at most the models': an enemy whose disc is no nearer than the best
    // so far is not measured
    let mut best: Option<(Id, f64)> = None;
    for e in enemies(g, id.0).filter(|&e| !g.info(e).movement.aircraft) {
        if best.is_none_or(|(_, b)| g.disc_gap(id, e) < b) {
            let d = g.gap(id, e);
            if best.is_none_or(|(_, b)| d < b) {
                best = Some((e, d));
            }
        }
    }
    best
}

/// Which of `army`'s units that have not activated goes next: the default policy sends the
/// unit nearest the enemy first (it is the one about to be charged or shot), Shaken units
/// last; the random one picks any.
pub fn pick_unit(g: &mut Game, army: usize) -> usize {
    let ready = g.ready(army);
    match g.policy_kind(army) {
        PolicyKind::Random => {
            let i = g.rng.random_range(0..ready.len());
            return ready[i];
        }
        PolicyKind::Default => return super::ai::pick_unit(g, &ready, army),
        PolicyKind::Greedy | PolicyKind::Hold => {}
    }
    let urgency = |u: usize| {
        let id = (army, u);
        let near = nearest_enemy(g, id).map_or(f64::INFINITY, |(_, d)| d);
        (g.live(id).shaken, near)
    };
    *ready.iter().min_by(|&&a, &&b| urgency(a).partial_cmp(&urgency(b)).unwrap_or(std::cmp::Ordering::Equal)).expect("some unit is ready")
}

/// The distance from `p` to the nearest objective marker.
pub fn to_objective(g: &Game, p: Point) -> f64 {
    p.nearest(&g.objectives)
}

/// Where `id` deploys, within `depth` of its army's edge (12", or 24" for Scouts): the
/// default policy puts melee units at the front of the zone and shooters anywhere in it,
/// nearest an objective and away from friends; the random one anywhere. `None`: no room.
pub fn deployment_spot(g: &mut Game, id: Id, depth: f64) -> Option<Point> {
    if g.policy_kind(id.0) == PolicyKind::Default {
        return super::ai::deployment_spot(g, id, depth);
    }
    // the random policy takes the first spot it may stand on
    let random = g.policy_kind(id.0) == PolicyKind::Random;
    let jitter = (!random && g.info(id).role != Role::Shooting).then_some(2.0);
    sample_deployment(g, id, depth, jitter, if random { 1 } else { 12 }, |_, _| true, |g, p, _, crowd| to_objective(g, p) + 6.0 * crowd)
}

/// The deployment policies' sampling: up to 60 spots, each drawn along the edge and then
/// from it (anywhere within the zone, or, with `jitter`, up to that many inches back from its
/// front), kept where the unit may stand and `keep` allows, scored by `score(game, spot, its
/// depth in the zone, friends within 8" of it)`; the lowest score of the first `enough` kept
/// spots. `None`: none kept.
pub fn sample_deployment(
    g: &mut Game,
    id: Id,
    depth: f64,
    jitter: Option<f64>,
    enough: usize,
    keep: impl Fn(&Game, Point) -> bool,
    score: impl Fn(&Game, Point, f64, f64) -> f64,
) -> Option<Point> {
    let r = g.radius(id);
    let far = (depth - r).max(r);
    let mut best: Option<(f64, Point)> = None;
    let mut valid = 0;
    let others = g.others_on_ground(id);
    for _ in 0..60 {
        let x = g.rng.random_range(r..=WIDTH - r);
        let y = match jitter {
            None => g.rng.random_range(r..=far),
            Some(j) => (far - g.rng.random_range(0.0..=j)).max(r),
        };
        let p = g.from_edge(id.0, x, y);
        if !g.spot_ok_among(id, p, false, &others) || !keep(g, p) {
            continue;
        }
        let crowd = g.on_table(id.0).filter(|&f| f != id && g.live(f).pos.distance(p) < 8.0 + r).count() as f64;
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

/// Where an Ambusher arrives: "anywhere over 9" away from enemy units" (Infiltrate: "up to 1""
/// away, `Effect::Ambush`) — the default policy
/// as near as it can to an objective its army does not hold, the random one anywhere.
pub fn ambush_spot(g: &mut Game, id: Id) -> Option<Point> {
    let r = g.radius(id);
    let random = g.policy_kind(id.0) == PolicyKind::Random;
    let wanted: Vec<Point> = g.objectives.iter().zip(&g.owner).filter(|(_, o)| **o != id.0 as i8).map(|(p, _)| *p).collect();
    let mut best: Option<(f64, Point)> = None;
    let others = g.others_on_ground(id);
    for attempt in 0..60 {
        let p = if random || wanted.is_empty() || attempt >= 40 {
            Point::new(g.rng.random_range(r..=WIDTH - r), g.rng.random_range(r..=super::table::DEPTH - r))
        } else {
            let o = wanted[attempt % wanted.len()];
            let (a, d) = (g.rng.random_range(0.0..std::f64::consts::TAU), g.rng.random_range(0.0..=SEIZE_RANGE + r));
            Point::new(o.x + d * a.cos(), o.y + d * a.sin())
        };
        if !may_arrive(g, id, p, &others) {
            continue;
        }
        if random {
            return Some(p);
        }
        let score = p.nearest(&wanted);
        if best.is_none_or(|(b, _)| score < b) {
            best = Some((score, p));
        }
    }
    best.map(|(_, p)| p).or_else(|| ambush_spot_on_grid(g, id, &wanted, &others))
}

/// Whether the Ambusher `id` may arrive at `p`: Ambush "over 9"" from enemy units (edge to
/// edge; Infiltrate "up to 1"": `spot_ok` keeps the 1" between units), where it may stand.
fn may_arrive(g: &Game, id: Id, p: Point, others: &[(Id, Point, f64)]) -> bool {
    let (r, over) = (g.radius(id), g.info(id).movement.ambush_over);
    (over <= 0.0 || enemies(g, id.0).all(|e| p.distance(g.live(e).pos) - r - g.radius(e) > over)) && g.spot_ok_among(id, p, false, others)
}

/// `ambush_spot`'s fallback when its samples find no legal spot (a crowded table): the legal
/// spot on an inch grid nearest the wanted markers (the table's centre without any), so a
/// unit that can arrive does.
fn ambush_spot_on_grid(g: &Game, id: Id, wanted: &[Point], others: &[(Id, Point, f64)]) -> Option<Point> {
    let r = g.radius(id);
    let centre = [Point::new(WIDTH / 2.0, super::table::DEPTH / 2.0)];
    let wanted = if wanted.is_empty() { &centre[..] } else { wanted };
    let mut best: Option<(f64, Point)> = None;
    let (mut x, mut y) = (r, r);
    while y <= super::table::DEPTH - r {
        while x <= WIDTH - r {
            let p = Point::new(x, y);
            let score = p.nearest(wanted);
            if best.is_none_or(|(b, _)| score < b) && may_arrive(g, id, p, others) {
                best = Some((score, p));
            }
            x += 1.0;
        }
        (x, y) = (r, y + 1.0);
    }
    best.map(|(_, p)| p)
}

/// An Aircraft's move: "moving in a straight line, and adding 30" to its total move" along
/// the long edges, towards the side with room for the full move ("can't move into the table
/// edges to move less than 30"").
pub fn aircraft_path(g: &mut Game, id: Id) -> Option<Path> {
    if g.policy_kind(id.0) == PolicyKind::Default {
        return super::ai::aircraft_path(g, id);
    }
    let (info, from) = (g.info(id), g.live(id).pos);
    let room = [WIDTH - g.radius(id) - from.x, from.x - g.radius(id)];
    let possible: Vec<usize> = (0..2).filter(|&i| room[i] >= 30.0).collect();
    let dir = match possible.len() {
        0 => return None,
        1 => possible[0],
        _ if g.policy_kind(id.0) == PolicyKind::Random => g.rng.random_range(0..2usize),
        // towards the enemy army's middle
        _ => {
            let (sum, n) = enemies(g, id.0).fold((0.0, 0.0), |(s, n), e| (s + g.live(e).pos.x, n + 1.0));
            let mid = if n > 0.0 { sum / n } else { WIDTH / 2.0 };
            usize::from(mid < from.x)
        }
    };
    let length = info.movement.advance.min(room[dir]);
    let to = Point::new(from.x + if dir == 0 { length } else { -length }, from.y);
    Some(Path::straight(to, length))
}

/// The action of a unit that is not Shaken.
pub fn decide(g: &mut Game, id: Id) -> Action {
    let m = g.info(id).movement;
    if m.aircraft {
        return aircraft_path(g, id).map_or(Action::Hold, Action::Advance);
    }
    match g.policy_kind(id.0) {
        PolicyKind::Hold => Action::Hold,
        _ if m.hold_only => Action::Hold,
        PolicyKind::Random => random_action(g, id),
        PolicyKind::Greedy => default_action(g, id),
        PolicyKind::Default => {
            if let Some(action) = super::ai::charge_action(g, id).or_else(|| super::ai::last_round_move(g, id)).or_else(|| timed_embark_action(g, id)) {
                return as_advance_if_shorter(g, id, action);
            }
            // a unit that would stand still in dangerous terrain steps out of it
            match movement_action(g, id) {
                Action::Hold => super::ai::leave_danger(g, id).unwrap_or(Action::Hold),
                action => as_advance_if_shorter(g, id, action),
            }
        }
    }
}

/// A Rush no longer than an Advance may be (6" through difficult terrain, which caps both)
/// is played as that Advance: the same move, after which a unit with guns may shoot.
fn as_advance_if_shorter(g: &Game, id: Id, action: Action) -> Action {
    let m = g.movement(id);
    match action {
        Action::Rush(path) if g.info(id).max_range > 0.0 => {
            if path.length <= path.limit(m.advance) + 1e-9 { Action::Advance(path) } else { Action::Rush(path) }
        }
        action => action,
    }
}

fn random_action(g: &mut Game, id: Id) -> Action {
    let m = g.movement(id);
    let mut options = vec![Action::Hold];
    let from = g.live(id).pos;
    for (allowance, rush) in [(m.advance, false), (m.rush, true)] {
        let a = g.rng.random_range(0.0..std::f64::consts::TAU);
        let goal = Point::new(from.x + allowance * a.cos(), from.y + allowance * a.sin());
        if let Some(path) = g.plan_move(id, goal, allowance) {
            options.push(if rush { Action::Rush(path) } else { Action::Advance(path) });
        }
    }
    let targets: Vec<Id> = enemies(g, id.0).collect();
    for e in targets {
        if let Some(path) = g.charge_path(id, e) {
            options.push(Action::Charge(e, path));
        }
    }
    if let Some(embark) = embark_action(g, id) {
        options.push(embark);
    }
    let i = g.rng.random_range(0..options.len());
    options[i]
}

/// The greedy policy's action: its charge, else boarding a transport, else the default move.
fn default_action(g: &mut Game, id: Id) -> Action {
    // charge when the exact melee favours it ("charge when the exact melee outcome favours
    // it"): the best target only
    if g.info(id).role != Role::Shooting {
        let candidates: Vec<Id> = enemies(g, id.0).filter(|&e| g.within(id, e, g.charge_reach(id, e))).collect();
        if let Some(&(_, e)) = greedy_charges(g, id, &candidates).first() {
            if let Some(path) = g.charge_path(id, e) {
                return Action::Charge(e, path);
            }
        }
    }
    timed_embark_action(g, id).unwrap_or_else(|| movement_action(g, id))
}

/// The greedy policy's charges of `id` into `foes` worth more than the charge margin, best
/// first: the exact melee's value on fresh units (`Prepared::charge_value`), scaled by the
/// share of its models left.
fn greedy_charges(g: &Game, id: Id, foes: &[Id]) -> Vec<(f64, Id)> {
    let (info, policy) = (g.info(id), g.config.policies[id.0]);
    let alive_share = f64::from(g.live(id).left) / f64::from(info.models.max(1));
    let mut out: Vec<(f64, Id)> = foes.iter().map(|&e| (g.prep.charge_value[id.0][id.1][e.1] * alive_share, e)).filter(|&(v, _)| v > policy.charge_margin * info.cost).collect();
    // stable: among equal values the first foe first
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out
}

/// Holding a marker, or moving towards markers and enemies (both the greedy and the default
/// policy, once they have decided not to charge).
fn movement_action(g: &mut Game, id: Id) -> Action {
    let (info, policy) = (g.info(id), g.config.policies[id.0]);
    let m = g.movement(id);
    let pos = g.live(id).pos;
    // hold an objective the unit stands on when no friend does (a transport carrying units
    // takes them on: they can hold it)
    let carrying = g.carries(id) && g.round < g.config.rounds;
    if policy.hold_objectives > 0.0 && !carrying {
        for i in 0..g.objectives.len() {
            if !g.claimed[i][id.0] && holds_alone(g, id, g.objectives[i]) {
                g.claimed[i][id.0] = true;
                return Action::Hold;
            }
        }
    }
    // the nearest objective not held by this army, preferring ones no friend is heading for
    let mut goal_objective: Option<(usize, f64)> = None;
    for unclaimed_only in [true, false] {
        for i in 0..g.objectives.len() {
            if g.owner[i] == id.0 as i8 || (unclaimed_only && g.claimed[i][id.0]) {
                continue;
            }
            let d = g.objectives[i].distance(pos);
            if goal_objective.is_none_or(|(_, b)| d < b) {
                goal_objective = Some((i, d));
            }
        }
        if goal_objective.is_some() {
            break;
        }
    }
    let enemy = nearest_enemy(g, id);
    let default = g.policy_kind(id.0) == PolicyKind::Default;
    let go = |g: &mut Game, goal: Point, rush: bool| -> Action {
        let allowance = if rush { m.rush } else { m.advance };
        match g.plan_move(id, goal, allowance) {
            Some(path) if rush => Action::Rush(path),
            Some(path) => Action::Advance(path),
            None => Action::Hold,
        }
    };
    // a transport carrying units takes them where they are going, as a melee unit goes
    let role = if carrying { Role::Melee } else { info.role };
    match role {
        Role::Melee => {
            let towards_enemy = enemy.map(|(e, d)| {
                if g.policy_kind(id.0) == PolicyKind::Default {
                    // straight from its closest model at the enemy's, no further than a Rush
                    // goes: a move of X" brings them X" closer, so a Rush from 24" ends
                    // within the next round's 12" charge
                    let (gap, ours, theirs) = g.closest_pair_at(id, pos, e);
                    let step = (gap - 1.5).clamp(0.0, m.rush) / ours.distance(theirs).max(1e-9);
                    (Point::new(pos.x + (theirs.x - ours.x) * step, pos.y + (theirs.y - ours.y) * step), d)
                } else {
                    let at = g.live(e).pos;
                    (at.towards(pos, g.radius(id) + g.radius(e) + 1.5), d)
                }
            });
            let goal = match (goal_objective, towards_enemy) {
                (Some((i, d)), Some((_, de))) if d <= policy.objective_weight * de => Some((g.objectives[i], Some(i))),
                (Some((i, _)), None) => Some((g.objectives[i], Some(i))),
                (_, Some((p, _))) => Some((p, None)),
                (None, None) => None,
            };
            match goal {
                Some((p, Some(i))) => {
                    let action = go(g, p, true);
                    towards_marker(g, id, i, action, |g| towards_enemy.map_or(Action::Hold, |(q, _)| go(g, q, true)))
                }
                Some((p, None)) => go(g, p, true),
                None => Action::Hold,
            }
        }
        Role::Shooting | Role::Hybrid => {
            // with no target from where it stands (in range is not enough: a shooter with no
            // unit in sight that held would stand idle all game), the default policy closes in
            let no_target = |g: &mut Game| default && shots(g, id, false).is_empty();
            let at_enemy = |g: &mut Game| match enemy {
                Some((e, de)) if de > info.max_range || no_target(g) => {
                    let p = g.live(e).pos;
                    go(g, p, false)
                }
                _ => Action::Hold,
            };
            match goal_objective {
                Some((i, d)) => {
                    let target_in_reach = enemy.is_some_and(|(_, de)| de <= info.max_range + m.advance);
                    let close = d <= m.advance + SEIZE_RANGE + g.radius(id);
                    let action = go(g, g.objectives[i], !(close || target_in_reach));
                    towards_marker(g, id, i, action, at_enemy)
                }
                None => at_enemy(g),
            }
        }
    }
}

/// `action`, `id`'s move towards marker `i`, which then counts as claimed by its side; but
/// when no move gets nearer the marker and the unit is not on it (hemmed in by friends or
/// terrain on the way), the default policy's `otherwise` instead of standing idle.
fn towards_marker(g: &mut Game, id: Id, i: usize, action: Action, otherwise: impl FnOnce(&mut Game) -> Action) -> Action {
    if matches!(action, Action::Hold) && g.policy_kind(id.0) == PolicyKind::Default && !g.near_marker(id, g.objectives[i]) {
        return otherwise(g);
    }
    g.claimed[i][id.0] = true;
    action
}

/// What `id` shoots at after its move: every target in range and in sight (or any target for
/// Indirect weapons), valued by expected points removed (expected wounds × the target's
/// points per wound, at most what is left of it). The default policy fires at the best
/// target, or splits its weapon groups between two when that removes 5% more; the random
/// policy fires everything at any valid target.
pub fn shots(g: &mut Game, id: Id, moved: bool) -> Short<Volley, 2> {
    let info = g.info(id);
    if info.ranged.is_empty() {
        return Short::new();
    }
    // (target, key, value of each group, what the target is worth now)
    let mut options: Short<Target, 4> = Short::new();
    // a range its buff, or a mark on the target, adds to (`Buffed::range_bonus`)
    let bonus = |b: &super::prepare::Buffed| b.range_bonus();
    let own = [g.live(id).buff, g.live(id).debuff].into_iter().filter(|&b| b > 0).map(|b| bonus(&info.buffed[usize::from(b) - 1])).fold(0.0, f64::max);
    let candidates: Short<Id> = enemies(g, id.0)
        .filter(|&e| {
            let marked = g.live(e).mark.and_then(|r| info.buffed.iter().find(|b| b.rule == r)).map_or(0.0, bonus);
            g.within(id, e, info.max_range + own.max(marked))
        })
        .collect();
    for e in candidates {
        let sight = g.sight(id, e);
        let Some(key) = g.shot_key(id, e, sight, moved) else { continue };
        let t = g.info(e);
        let per_wound = t.points_per_wound();
        let worth = per_wound * f64::from(g.live(e).wounds_left);
        let values = g.plan(&key).expected.iter().map(|w| w * per_wound).collect();
        options.push((e, key, values, worth));
    }
    if options.is_empty() {
        return Short::new();
    }
    let all = |o: &Target| Volley { target: o.0, key: o.1, groups: (0..o.2.len()).collect() };
    if g.policy_kind(id.0) == PolicyKind::Random {
        let i = g.rng.random_range(0..options.len());
        return smallvec::smallvec![all(&options[i])];
    }
    let single = |o: &Target| o.2.iter().sum::<f64>().min(o.3);
    // the default policy also counts the marker a target may stop holding or contesting
    let default = g.policy_kind(id.0) == PolicyKind::Default;
    let score: Short<f64, 4> = options.iter().map(|o| single(o) + if default { super::ai::marker_bonus(g, id.0, o.0, o.2.iter().sum::<f64>() / g.info(o.0).points_per_wound()) } else { 0.0 }).collect();
    let best = (0..options.len()).max_by(|&a, &b| score[a].total_cmp(&score[b])).unwrap();
    let mut chosen: Short<Volley, 2> = smallvec::smallvec![all(&options[best])];
    let best_value = single(&options[best]);
    if options[best].2.len() >= 2 {
        let labels_best = &g.plan(&options[best].1).labels;
        let mut split_best = best_value * 1.05;
        for (j, other) in options.iter().enumerate() {
            if j == best {
                continue;
            }
            let labels_other = &g.plan(&other.1).labels;
            let (mut to_best, mut to_other) = (Short::new(), Short::new());
            let (mut v_best, mut v_other) = (0.0, 0.0);
            for (gi, label) in labels_best.iter().enumerate() {
                let there = labels_other.iter().position(|l| l == label);
                match there {
                    Some(gj) if other.2[gj] > options[best].2[gi] => {
                        to_other.push(gj);
                        v_other += other.2[gj];
                    }
                    _ => {
                        to_best.push(gi);
                        v_best += options[best].2[gi];
                    }
                }
            }
            let value = v_best.min(options[best].3) + v_other.min(other.3);
            if !to_best.is_empty() && !to_other.is_empty() && value > split_best {
                split_best = value;
                chosen = smallvec::smallvec![
                    Volley { target: options[best].0, key: options[best].1, groups: to_best },
                    Volley { target: other.0, key: other.1, groups: to_other },
                ];
            }
        }
    }
    chosen
}

/// A point `reach` inches from `id` in a random direction (the random policy's placements and moves).
fn random_goal(g: &mut Game, id: Id, reach: f64) -> Point {
    let from = g.live(id).pos;
    let a = g.rng.random_range(0.0..std::f64::consts::TAU);
    Point::new(from.x + reach * a.cos(), from.y + reach * a.sin())
}

/// Where `id` is placed "after this model is deployed" (Fanatic, `inches` away at most): the
/// default policy towards the nearest marker, the random one half of the time anywhere.
pub fn placement_after_deployment(g: &mut Game, id: Id, inches: f64) -> Option<Point> {
    let goal = match g.policy_kind(id.0) {
        PolicyKind::Hold => return None,
        PolicyKind::Random => {
            if g.rng.random_bool(0.5) {
                return None;
            }
            random_goal(g, id, inches)
        }
        PolicyKind::Default | PolicyKind::Greedy => {
            let pos = g.live(id).pos;
            g.objectives.iter().copied().min_by(|a, b| a.distance(pos).total_cmp(&b.distance(pos))).unwrap_or(Point::new(WIDTH / 2.0, super::table::DEPTH / 2.0))
        }
    };
    g.find_placement(id, goal, inches)
}

/// Where a unit that may be placed when activated (`reach`: the most it may be placed)
/// wants to be, before it picks its action; `None`: not placed. The default policy places a
/// charger next to the enemy it would charge when placing brings that enemy within its charge
/// reach, else towards the marker (or, for a melee unit, the enemy) its action heads for; a
/// unit holding a marker alone, or already able to charge, stays. The random policy places
/// half of the time, anywhere.
pub fn placement_goal(g: &mut Game, id: Id, reach: f64) -> Option<Point> {
    match g.policy_kind(id.0) {
        PolicyKind::Hold => return None,
        PolicyKind::Random => {
            return if g.rng.random_bool(0.5) { None } else { Some(random_goal(g, id, reach)) };
        }
        PolicyKind::Default | PolicyKind::Greedy => {}
    }
    let (info, policy) = (g.info(id), g.config.policies[id.0]);
    if info.movement.hold_only || info.movement.aircraft {
        return None;
    }
    let pos = g.live(id).pos;
    if info.role != Role::Shooting {
        let alive_share = f64::from(g.live(id).left) / f64::from(info.models.max(1));
        let mut best: Option<(f64, Id)> = None;
        for e in enemies(g, id.0).filter(|&e| !g.info(e).movement.aircraft) {
            let value = g.prep.charge_value[id.0][id.1][e.1] * alive_share;
            if value > policy.charge_margin * info.cost && g.within(id, e, g.charge_reach(id, e) + reach) && best.is_none_or(|(b, _)| value > b) {
                best = Some((value, e));
            }
        }
        if let Some((_, e)) = best {
            return (g.gap(id, e) > g.charge_reach(id, e)).then(|| g.live(e).pos);
        }
    }
    if policy.hold_objectives > 0.0 && g.objectives.iter().any(|&o| holds_alone(g, id, o)) {
        return None;
    }
    let objective = g.objectives.iter().zip(&g.owner).filter(|(_, o)| **o != id.0 as i8).map(|(p, _)| *p).min_by(|a, b| a.distance(pos).total_cmp(&b.distance(pos)));
    let enemy = nearest_enemy(g, id);
    match (info.role, objective, enemy) {
        (_, Some(o), _) if g.near_marker(id, o) => None,
        (Role::Melee, Some(o), Some((e, de))) if o.distance(pos) > policy.objective_weight * de => Some(g.live(e).pos),
        (_, Some(o), _) => Some(o),
        (Role::Melee, None, Some((e, _))) => Some(g.live(e).pos),
        (_, None, Some((e, de))) if de > info.max_range => Some(g.live(e).pos),
        _ => None,
    }
}

/// The move after shooting or melee (`inches` at most), or none. The default policy keeps a
/// marker it stands on, then gets as far out of the charge reach of enemies that would gain
/// by charging it as it can (their expected points margin, summed), then goes towards the
/// nearest marker its side does not hold; it moves only when that is better than staying.
/// The random policy moves half of the time, anywhere.
pub fn after_attack_path(g: &mut Game, id: Id, inches: f64) -> Option<Path> {
    match g.policy_kind(id.0) {
        PolicyKind::Hold => return None,
        PolicyKind::Random => {
            if g.rng.random_bool(0.5) {
                return None;
            }
            let goal = random_goal(g, id, inches);
            return g.plan_move(id, goal, inches);
        }
        PolicyKind::Default | PolicyKind::Greedy => {}
    }
    let pos = g.live(id).pos;
    let r = g.radius(id);
    let threats: Vec<(Point, f64, f64)> = enemies(g, id.0)
        .filter(|&e| {
            let (info, live) = (g.info(e), g.live(e));
            info.role != Role::Shooting && !info.movement.aircraft && !info.movement.hold_only && !live.shaken
        })
        .map(|e| (g.live(e).pos, g.radius(e) + g.charge_reach(e, id), g.prep.charge_value[e.0][e.1][id.1].max(0.0)))
        .filter(|t| t.2 > 0.0)
        .collect();
    let held: Vec<Point> = g.objectives.iter().copied().filter(|&o| g.near_marker(id, o)).collect();
    let wanted: Vec<Point> = g.objectives.iter().zip(&g.owner).filter(|(_, o)| **o != id.0 as i8).map(|(p, _)| *p).collect();
    let score = |g: &Game, p: Point| {
        let leaves = held.iter().any(|&o| !g.near_marker_at(id, p, o));
        let threat: f64 = threats.iter().filter(|(at, reach, _)| p.distance(*at) - r <= *reach).map(|t| t.2).sum();
        let objective = p.nearest(&wanted);
        (u8::from(leaves), threat, if objective.is_finite() { objective } else { 0.0 })
    };
    let better = |a: (u8, f64, f64), b: (u8, f64, f64)| a.0 < b.0 || (a.0 == b.0 && (a.1 < b.1 - 1e-9 || (a.1 <= b.1 + 1e-9 && a.2 < b.2 - 0.5)));
    let mut best: (Option<Path>, (u8, f64, f64)) = (None, score(g, pos));
    for k in 0..8 {
        let a = f64::from(k) * std::f64::consts::FRAC_PI_4;
        for len in [inches, inches / 2.0] {
            let goal = Point::new(pos.x + len * a.cos(), pos.y + len * a.sin());
            if let Some(path) = g.plan_move(id, goal, inches) {
                let s = score(g, path.to);
                if better(s, best.1) {
                    best = (Some(path), s);
                }
            }
        }
    }
    best.0
}

/// Which of `eligible` (units of `army` that activated this round and may activate again)
/// the policy activates a second time, when the army has no other unit to activate: the
/// default policy the first (nearest the enemy) that can charge an enemy it gains from
/// charging, or shoot at something; the random policy any, half of the time.
pub fn extra_activation(g: &mut Game, army: usize, eligible: &[usize]) -> Option<usize> {
    match g.policy_kind(army) {
        PolicyKind::Hold => None,
        PolicyKind::Random => {
            if g.rng.random_bool(0.5) {
                return None;
            }
            let i = g.rng.random_range(0..eligible.len());
            Some(eligible[i])
        }
        PolicyKind::Default | PolicyKind::Greedy => {
            let mut order: Vec<(f64, usize)> = eligible.iter().map(|&u| (nearest_enemy(g, (army, u)).map_or(f64::INFINITY, |(_, d)| d), u)).collect();
            order.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let policy = g.config.policies[army];
            let targets: Vec<Id> = enemies(g, army).collect();
            for (_, u) in order {
                let id = (army, u);
                let info = g.info(id);
                if info.movement.aircraft || info.movement.hold_only && info.ranged.is_empty() {
                    continue;
                }
                let alive_share = f64::from(g.live(id).left) / f64::from(info.models.max(1));
                let charge = info.role != Role::Shooting
                    && targets.iter().any(|&e| g.prep.charge_value[army][u][e.1] * alive_share > policy.charge_margin * info.cost && g.charge_path(id, e).is_some());
                if charge || !shots(g, id, false).is_empty() {
                    return Some(u);
                }
            }
            None
        }
    }
}

/// "Once per activation, before attacking, pick one friendly unit within 12"" for a buff
/// (`Effect::Buff`): among the friendly units within 12" (the unit itself included) that
/// the rule would change and that hold no buff yet, the default policy picks the one with the
/// most points left at stake: its points left times the enemy units that could shoot it
/// (within their longest range plus an Advance) or charge it next. The random policy picks
/// any of them; the hold policy gives none. `(unit, index in its UnitInfo::buffed)`.
pub fn buff_target(g: &mut Game, id: Id, rule: &str) -> Option<(Id, usize)> {
    if g.policy_kind(id.0) == PolicyKind::Hold {
        return None;
    }
    let candidates: Vec<(Id, usize)> = g
        .on_table(id.0)
        .filter(|&f| g.live(f).buff == 0 && g.within(id, f, BUFF_RANGE))
        .filter_map(|f| g.info(f).buffed.iter().position(|b| b.rule == rule).map(|b| (f, b)))
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
fn casting_roll_ok(g: &Game, id: Id, to: Id, friend: bool) -> bool {
    let (info, live) = (g.info(to), g.live(to));
    info.casting.caster() && !info.casting.spells.is_empty() && live.casting_modifier[usize::from(!friend)] == 0 && may_cast_again(g, to) && g.within(id, to, if friend { BUFF_RANGE } else { picking_range(g, to) }) && (!friend || to == id || !live.activated)
}

/// Whether caster `u` may still try a spell in this game: not Shaken, and, in the last round,
/// yet to act with tokens in hand (a casting modifier or a debuff on it is wasted otherwise).
fn may_cast_again(g: &Game, u: Id) -> bool {
    let live = g.live(u);
    !live.shaken && (g.round < g.config.rounds || (!live.activated && live.tokens > 0))
}

/// The caster that gets a rule's casting roll modifier (`Effect::CastingRollGiven`): the
/// default policy the one whose tokens are worth the most (its token worth times the tokens
/// it holds); the random policy any; the hold policy none.
pub fn casting_roll_target(g: &mut Game, id: Id, friend: bool) -> Option<Id> {
    let army = if friend { id.0 } else { 1 - id.0 };
    let candidates: Vec<Id> = g.on_table(army).filter(|&u| casting_roll_ok(g, id, u, friend)).collect();
    choose(g, id, candidates, |g, u| token_stake(g, u))
}

/// What a caster's next casting roll is worth, to give a modifier to: its token worth times
/// the tokens it holds.
fn token_stake(g: &Game, u: Id) -> f64 {
    g.info(u).casting.token_worth * f64::from(g.live(u).tokens.max(1))
}

/// The unit a rule of `id`'s gives to, among `candidates`: none for the hold policy, any for
/// the random policy, the last scoring most for the default policy.
fn choose<T: Copy>(g: &mut Game, id: Id, candidates: Vec<T>, score: impl Fn(&Game, T) -> f64) -> Option<T> {
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
pub fn debuff_target(g: &mut Game, id: Id, rule: &str) -> Option<(Id, usize)> {
    let candidates: Vec<(Id, usize)> =
        enemies(g, id.0).filter(|&e| g.live(e).debuff == 0 && g.within(id, e, picking_range(g, e))).filter_map(|e| g.info(e).buffed.iter().position(|b| b.rule == rule).map(|b| (e, b))).collect();
    choose(g, id, candidates, |g, (e, b)| debuff_score(g, id.0, e, b))
}

/// The enemy unit within 18" that takes a rule's test (`Effect::EnemyTest`): for the default
/// policy, a dangerous terrain test goes to the one with the most points left (all its models
/// test), a morale test that fatigues to the one not yet fatigued with the most points left,
/// melee units first; the random policy picks any, the hold policy none.
pub fn enemy_test_target(g: &mut Game, id: Id, dangerous: bool) -> Option<Id> {
    let candidates: Vec<Id> = enemies(g, id.0).filter(|&e| g.within(id, e, picking_range(g, e)) && (dangerous || !(g.live(e).fatigued || g.live(e).shaken))).collect();
    choose(g, id, candidates, |g, e| g.info(e).cost * g.wound_share(e) * if dangerous { 1.0 } else { melee_weight(g.info(e).role) })
}

/// How far away an enemy unit may be picked by a rule's "pick one enemy unit within 18"":
/// 18", less what a spell loses against it (an Aircraft: "units targeting them get -12" to
/// their range", and picking it is targeting it, as a spell's target is).
fn picking_range(g: &Game, e: Id) -> f64 {
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
fn could_attack(g: &Game, attacker: Id, target: Id) -> bool {
    let i = g.info(attacker);
    (i.max_range > 0.0 && g.within(attacker, target, i.max_range + i.movement.advance)) || (!i.movement.hold_only && !i.movement.aircraft && g.within(attacker, target, i.movement.charge))
}

/// "pick one enemy unit within 18"" (debuffs and marks given by rules).
pub const DEBUFF_RANGE: f64 = 18.0;

/// Whether a buff for moves (`Buffed::for_moves`) would still act for `f` this round: a unit
/// that moves and has yet to act (or the giver `id` itself); a buff for attacks, a unit that
/// has yet to act (or the giver).
fn buff_in_time(g: &Game, id: Id, f: Id, b: usize) -> bool {
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
fn debuff_score(g: &Game, army: usize, e: Id, b: usize) -> f64 {
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
fn threats(g: &Game, army: usize, f: Id) -> usize {
    enemies(g, army).filter(|&e| could_attack(g, e, f)).count()
}

/// How much marking enemy unit `e` with `rule` is worth to `caster`'s default policy (a
/// score, not points; 0: no use): its points left times the friendly units that gain from
/// the rule, have yet to act this round (or are the caster) and could shoot or charge it.
fn mark_score(g: &Game, caster: Id, e: Id, rule: &str) -> f64 {
    let left = g.info(e).cost * g.wound_share(e);
    let attackers = g
        .on_table(caster.0)
        .filter(|&f| f == caster || !g.live(f).activated)
        .filter(|&f| g.info(f).buffed.iter().any(|b| b.rule == rule))
        .filter(|&f| could_attack(g, f, e))
        .count();
    left * attackers as f64
}

/// How much giving unit `f` of `army` its buff `b` is worth to the default policy (a score to
/// rank units by, not points): buffs for moves to the melee units first (they charge), then
/// the hybrid ones, by points; Steadfast's recovery to the Shaken units first; defensive
/// buffs by the points left times the enemies that threaten the unit.
fn buff_score(g: &Game, army: usize, f: Id, b: usize) -> f64 {
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

/// Whether the defender `d` strikes back at the charger `c`: "the defending unit may choose
/// to strike back ..., but doesn't have to". The greedy, random and hold policies always
/// do; the default one declines when that is worth more (`ai::strikes_back`).
pub fn strike_back(g: &mut Game, c: Id, d: Id) -> bool {
    match g.policy_kind(d.0) {
        PolicyKind::Default => super::ai::strikes_back(g, c, d),
        _ => true,
    }
}

/// "pick one friendly unit within 12"".
pub const BUFF_RANGE: f64 = 12.0;

/// Which of the enemy units a move crossed a Strafing unit attacks (`plans`: each with the
/// weapon groups that attack it): the default policy the one losing the most points in
/// expectation, the random policy any; the hold policy never moves.
pub fn strafe_target(g: &mut Game, army: usize, plans: &[(Id, Vec<crate::attack::plan::Group>)], situation: &crate::attack::plan::Situation) -> Option<Id> {
    if plans.is_empty() {
        return None;
    }
    if g.policy_kind(army) == PolicyKind::Random {
        let i = g.rng.random_range(0..plans.len());
        return Some(plans[i].0);
    }
    let mut best: Option<(Id, f64)> = None;
    for (e, groups) in plans {
        let info = g.info(*e);
        let s = g.live(*e).s;
        let value: f64 = groups.iter().map(|gr| crate::cost::features::group_expected_wounds(gr, situation, &info.alloc, s)).sum::<f64>() * info.points_per_wound();
        if best.is_none_or(|(_, b)| value > b) {
            best = Some((*e, value));
        }
    }
    best.map(|(e, _)| e)
}

/// Which enemy unit within reach takes a Surprise Attack's hits (`Effect::ArrivalHits`): the
/// default policy the one with the most points per wound, the random policy any.
pub fn surprise_target(g: &mut Game, army: usize, near: &[Id]) -> Option<Id> {
    if near.is_empty() {
        return None;
    }
    if g.policy_kind(army) == PolicyKind::Random {
        let i = g.rng.random_range(0..near.len());
        return Some(near[i]);
    }
    near.iter().copied().max_by(|a, b| g.info(*a).points_per_wound().total_cmp(&g.info(*b).points_per_wound()))
}

/// The expected points a cast of `id`'s spell `si` removes from `target` (its hits' expected
/// wounds on the target as it stands, at most what is left of it), the spell assumed cast.
pub fn spell_value(g: &mut Game, id: Id, si: usize, target: Id) -> f64 {
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
pub fn spells_to_cast(g: &mut Game, id: Id, window: super::casting::Window) -> Vec<(usize, Vec<Id>)> {
    let info = g.info(id);
    let held = g.live(id).tokens;
    let foes: Vec<Id> = enemies(g, id.0).collect();
    // the caster's line of sight to each unit, found once for all its spells
    let mut seen: Vec<(Id, f64)> = Vec::new();
    // each spell's targets, best first, with their values
    let mut options: Vec<(usize, Vec<(Id, f64)>)> = Vec::new();
    for (si, spell) in info.casting.spells.iter().enumerate() {
        if spell.tokens > held || super::casting::tried(g.live(id).spells_tried, si) || !window.allows(&spell.effect) {
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
            CastEffect::Buff(rule) | CastEffect::Debuff(rule) => {
                let friend = matches!(spell.effect, CastEffect::Buff(_));
                let units: Vec<Id> = if friend { g.on_table(id.0).collect() } else { foes.clone() };
                for f in units {
                    let Some(b) = g.info(f).buffed.iter().position(|x| x.rule == rule) else {
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
            CastEffect::Mark(rule) => {
                let mut worth_now = false;
                let ride_along = g.policy_kind(id.0) == PolicyKind::Default;
                for &e in &foes {
                    if g.live(e).mark.is_none() && g.spell_target_seen(id, spell, e, &mut seen) {
                        let score = mark_score(g, id, e, rule);
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
    let (per_round, cap) = super::casting::caster_tokens(&info.alloc, g.live(id).s);
    let carried = if info.casting.group || g.round >= g.config.rounds { 0 } else { cap.saturating_sub(per_round) };
    let chance = super::casting::cast_chance(0);
    let priced: Vec<(u8, f64)> = options.iter().map(|(si, t)| (info.casting.spells[*si].tokens, chance * t.iter().map(|x| x.1).sum::<f64>())).collect();
    let set = crate::rules::spells::best_set(u32::from(held), &priced, |left| info.casting.token_worth * f64::from(left.min(carried)));
    set.into_iter().map(|i| (options[i].0, options[i].1.iter().map(|x| x.0).collect())).collect()
}

/// How many tokens `who` spends on another unit's casting roll, now at `modifier`: to help
/// (a friend's spell) or hinder (an enemy's), worth `stake` points to the caster's side. Each
/// token moves the chance by up to a sixth; `who` spends while that is worth more than what
/// it counts a token of its own worth. The random policy spends a random number.
pub fn tokens_to_spend(g: &mut Game, who: Id, stake: f64, modifier: i32, help: bool) -> u8 {
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
        let moved = if help { super::casting::cast_chance(m + 1) - super::casting::cast_chance(m) } else { super::casting::cast_chance(m) - super::casting::cast_chance(m - 1) };
        if moved * stake <= worth || moved <= 0.0 {
            break;
        }
        spent += 1;
    }
    spent
}

/// Which units of `army` start inside which of its transports ("Transports may deploy with
/// units inside"), as (unit, transport): the default and greedy policies carry melee units
/// first, then hybrid ones (the slowest, then the dearest, first), each in the first
/// transport with room (the largest first); shooters and units that arrive by Ambush or
/// Scout deploy as usual.
/// The random policy boards any unit that fits with even odds; the hold policy none.
pub fn passengers(g: &mut Game, army: usize) -> Vec<(usize, usize)> {
    let kind = g.policy_kind(army);
    if kind == PolicyKind::Hold {
        return Vec::new();
    }
    let n = g.units[army].len();
    // a transport that arrives by Ambush brings its units with it; Aircraft carry none (their
    // straight 30" moves are aimed for their own guns, and would carry units off the fight)
    let mut room: Vec<(usize, u32)> = (0..n).filter(|&u| g.info((army, u)).transport > 0 && !g.info((army, u)).movement.aircraft).map(|u| (u, g.info((army, u)).transport)).collect();
    if room.is_empty() {
        return Vec::new();
    }
    room.sort_by_key(|&(u, cap)| (std::cmp::Reverse(cap), u));
    let fits = |g: &Game, u: usize| {
        let info = g.info((army, u));
        let m = info.movement;
        let spaces = super::transport::spaces(&info.alloc, info.alloc.start());
        info.transport == 0 && !m.aircraft && !m.ambush && !m.scout && !m.hold_only && spaces.is_some()
    };
    let mut order: Vec<usize> = (0..n).filter(|&u| fits(g, u)).collect();
    if kind == PolicyKind::Random {
        order.retain(|_| g.rng.random_bool(0.5));
    } else {
        order.retain(|&u| g.info((army, u)).role != Role::Shooting);
        let rank = |u: usize| {
            let info = g.info((army, u));
            (u8::from(info.role != Role::Melee), (info.movement.rush * 10.0) as i64, std::cmp::Reverse((info.cost * 10.0) as i64))
        };
        order.sort_by_key(|&u| (rank(u), u));
    }
    let mut out = Vec::new();
    for u in order {
        let info = g.info((army, u));
        let need = super::transport::spaces(&info.alloc, info.alloc.start()).unwrap_or(u32::MAX);
        if let Some(slot) = room.iter_mut().find(|(_, left)| *left >= need) {
            slot.1 -= need;
            out.push((u, slot.0));
        }
    }
    out
}

/// Where a unit inside is going: the nearest marker its army does not hold and no friend on
/// the table stands by, else the nearest enemy, else where its transport stands.
fn passenger_goal(g: &Game, id: Id, from: Point) -> Point {
    let covered = |o: Point| g.on_table(id.0).any(|f| g.can_seize(f) && g.near_marker(f, o));
    let marker = g.objectives.iter().enumerate().filter(|&(i, &o)| g.owner[i] != id.0 as i8 && !covered(o)).map(|(_, &o)| o).min_by(|a, b| a.distance(from).total_cmp(&b.distance(from)));
    marker.or_else(|| enemies(g, id.0).map(|e| g.live(e).pos).min_by(|a, b| a.distance(from).total_cmp(&b.distance(from)))).unwrap_or(from)
}

/// Whether and how unit `id` leaves `transport` this activation ("units may enter/exit by
/// using any move action"). The default and greedy policies charge out at the enemy unit they
/// would charge on foot (`ai::charge_out`; the greedy one: the exact melee on fresh units
/// favours it most); else they stay inside while the
/// transport may carry them nearer their goal, and leave towards it (by Advance, to shoot
/// after, for a unit with guns; else by Rush) once it is within reach of the exit, the
/// transport can't move them on (Shaken, Immobile, or it activated this round and moved under 1"), or in the last round. The random
/// policy stays or leaves by any action with equal odds.
pub fn exit(g: &mut Game, id: Id, transport: Id) -> Option<super::transport::Exit> {
    use super::transport::{Exit, EXIT_RANGE};
    let at = g.live(transport).pos;
    let info = g.info(id);
    let goal = passenger_goal(g, id, at);
    let foes: Vec<Id> = enemies(g, id.0).filter(|&e| !g.info(e).movement.aircraft && g.live(e).pos.distance(at) <= EXIT_RANGE + g.radius(transport) + 2.0 * g.radius(e) + 1e-6).collect();
    if g.policy_kind(id.0) == PolicyKind::Random {
        let mut options: Vec<Option<Exit>> = vec![None];
        if let Some(p) = g.exit_spot(id, transport, goal) {
            options.push(Some(Exit::Advance(p)));
            options.push(Some(Exit::Rush(p)));
        }
        for e in foes {
            if let Some(path) = g.charge_out(id, transport, e) {
                options.push(Some(Exit::Charge(e, path)));
            }
        }
        let i = g.rng.random_range(0..options.len());
        return options[i];
    }
    if g.policy_kind(id.0) == PolicyKind::Default && !info.movement.hold_only {
        if let Some((e, path)) = super::ai::charge_out(g, id, transport, &foes) {
            return Some(Exit::Charge(e, path));
        }
    } else if info.role != Role::Shooting && !info.movement.hold_only {
        if let Some((e, path)) = greedy_charges(g, id, &foes).into_iter().find_map(|(_, e)| g.charge_out(id, transport, e).map(|p| (e, p))) {
            return Some(Exit::Charge(e, path));
        }
    }
    // the transport carries them on unless it can't move them, or has not this round
    let t = g.live(transport);
    let stuck = t.activated && t.pos.distance(t.round_start) < 1.0;
    let carried_on = !t.shaken && !stuck && !g.info(transport).movement.hold_only;
    let near = goal.distance(at) <= EXIT_RANGE + g.radius(transport) + SEIZE_RANGE;
    if carried_on && !near && g.round < g.config.rounds {
        return None;
    }
    let p = g.exit_spot(id, transport, goal)?;
    Some(if info.role != Role::Melee && info.max_range > 0.0 { Exit::Advance(p) } else { Exit::Rush(p) })
}

/// Where a unit thrown out of a destroyed transport is placed: towards the nearest marker its
/// army does not hold (or the nearest enemy).
pub fn wreck_goal(g: &Game, id: Id) -> Point {
    let at = g.live(id).pos;
    passenger_goal(g, id, at)
}

/// `embark_action`, its time counted to transports.
fn timed_embark_action(g: &mut Game, id: Id) -> Option<Action> {
    let t = g.clock();
    let out = embark_action(g, id);
    g.lap(t, |x| &mut x.transports);
    out
}

/// Whether unit `id` gets into a friendly transport this activation, and by which move: the
/// default and greedy policies board a melee or hybrid unit whose goal (as a unit inside
/// would have it) is beyond its Rush and a transport that has not activated yet this round
/// is within its Advance (else its Rush), when no enemy is within its charge reach: the
/// transport then takes it on. The random policy boards any transport it reaches, at times.
pub fn embark_action(g: &mut Game, id: Id) -> Option<Action> {
    let kind = g.policy_kind(id.0);
    let info = g.info(id);
    // a unit inside can't seize a marker: none gets in in the last round
    if !g.prep.transports || kind == PolicyKind::Hold || info.movement.aircraft || info.movement.hold_only || info.transport > 0 || g.round >= g.config.rounds {
        return None;
    }
    let transports: Vec<Id> = g
        .on_table(id.0)
        .filter(|&t| g.may_board(id, t) && !g.live(t).activated && !g.live(t).shaken && !g.info(t).movement.hold_only && !g.info(t).movement.aircraft)
        .collect();
    if transports.is_empty() {
        return None;
    }
    let m = g.movement(id);
    if kind == PolicyKind::Random {
        if !g.rng.random_bool(0.25) {
            return None;
        }
    } else {
        let pos = g.live(id).pos;
        let far = passenger_goal(g, id, pos).distance(pos) > m.rush + g.radius(id);
        let threatened = enemies(g, id.0).any(|e| g.within(id, e, g.charge_reach(id, e)));
        if info.role == Role::Shooting || !far || threatened {
            return None;
        }
    }
    for (allowance, rush) in [(m.advance, false), (m.rush, true)] {
        for &t in &transports {
            if let Some(path) = g.boarding_path(id, t, allowance) {
                return Some(Action::Embark(t, path, rush));
            }
        }
    }
    None
}
