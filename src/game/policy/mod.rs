//! The players: which unit to activate, which action it takes, where it goes and what it
//! shoots. The rules of the game stay in the phase modules (`setup`, `activation`,
//! `shooting`, `charge`...), which ask their questions through `decisions::Player`; `Bot`
//! answers them as each side's `Policy` says, from a read-only `View` of the game, its own
//! memo, and the dice the rules hand it (`Seat`). It only chooses among legal options.
//!
//! The greedy policy (the earlier default) plays by the rules' priorities: it reads each
//! unit's role from its exact expected damage (`prepare::Role`), charges when the exact melee
//! on fresh units favours the charger, holds objectives it stands on, goes for objectives that
//! are not its side's, and shoots where the expected points removed are highest. The default
//! policy plays the same way except where `ai` values its options from the units' current
//! states (charges, activation order, the last round, Aircraft, deployment, strike backs).
//! The random policy takes any legal action; the hold policy never moves and shoots like the
//! default one.

use super::decisions::{Action, Exit, Player, Volley};
use super::spellbook::Window;
use super::state::View;
use super::live::Id;
use crate::attack::plan::{Group, Situation};
use crate::rolls::Dice;
use super::paths::Path;
use super::cache::ShotKey;
use super::prepare::Role;
use super::table::Point;
use super::config::{PolicyKind, Short};
use rand::RngExt;

pub mod ai;
mod common;
pub mod firefight;
mod flight;
mod psychic;
use common::*;
mod reserves;
use reserves::{ambush_spot_on_grid, may_arrive, ArrivalGround};
mod seat;
mod spells;
mod transports;
mod volleys;
pub use flight::reentry_spot;
pub use seat::{Bot, Seat};
pub use spells::{buff_target, casting_roll_target, debuff_target, enemy_test_target, spell_value, spells_to_cast, tokens_to_spend};

/// Each question of the rules, answered by the policy function of the same name.
impl Player for Bot {
    #[inline]
    fn round_begins(&mut self, view: &View<'_>) {
        self.claimed.clear();
        self.claimed.resize(view.objectives.len(), [false; 2]);
    }

    /// The hold policy deploys every unit with the others (a scripted gun line).
    #[inline]
    fn sets_aside(&mut self, view: &View<'_>, id: Id) -> bool {
        view.policy_kind(id.0) != PolicyKind::Hold
    }

    #[inline]
    fn passengers(&mut self, view: &View<'_>, rng: &mut Dice, army: usize) -> Vec<(usize, usize)> {
        passengers(&mut self.seat(view, rng), army)
    }

    #[inline]
    fn deployment_spot(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, depth: f64) -> Option<Point> {
        deployment_spot(&mut self.seat(view, rng), id, depth)
    }

    #[inline]
    fn ambush_spot(&mut self, view: &View<'_>, rng: &mut Dice, id: Id) -> Option<Point> {
        ambush_spot(&mut self.seat(view, rng), id)
    }

    #[inline]
    fn surprise_target(&mut self, view: &View<'_>, rng: &mut Dice, army: usize, near: &[Id]) -> Option<Id> {
        surprise_target(&mut self.seat(view, rng), army, near)
    }

    #[inline]
    fn placement_after_deployment(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, inches: f64) -> Option<Point> {
        placement_after_deployment(&mut self.seat(view, rng), id, inches)
    }

    #[inline]
    fn pick_unit(&mut self, view: &View<'_>, rng: &mut Dice, army: usize) -> usize {
        pick_unit(&mut self.seat(view, rng), army)
    }

    #[inline]
    fn extra_activation(&mut self, view: &View<'_>, rng: &mut Dice, army: usize, eligible: &[usize]) -> Option<usize> {
        extra_activation(&mut self.seat(view, rng), army, eligible)
    }

    #[inline]
    fn placement_goal(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, reach: f64) -> Option<Point> {
        placement_goal(&mut self.seat(view, rng), id, reach)
    }

    #[inline]
    fn aircraft_path(&mut self, view: &View<'_>, rng: &mut Dice, id: Id) -> Option<Path> {
        aircraft_path(&mut self.seat(view, rng), id)
    }

    #[inline]
    fn psychic_spell(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, window: Window) -> Option<(usize, Id)> {
        psychic::psychic_spell(&mut self.seat(view, rng), id, window)
    }

    #[inline]
    fn blocks(&mut self, view: &View<'_>, rng: &mut Dice, blocker: Id, caster: Id, si: usize, target: Id) -> bool {
        psychic::blocks(&mut self.seat(view, rng), blocker, caster, si, target)
    }

    #[inline]
    fn reentry_spot(&mut self, view: &View<'_>, rng: &mut Dice, id: Id) -> Point {
        flight::reentry_spot(&mut self.seat(view, rng), id)
    }

    #[inline]
    fn decide(&mut self, view: &View<'_>, rng: &mut Dice, id: Id) -> Action {
        decide(&mut self.seat(view, rng), id)
    }

    #[inline]
    fn exit(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, transport: Id) -> Option<Exit> {
        exit(&mut self.seat(view, rng), id, transport)
    }

    #[inline]
    fn after_attack_path(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, inches: f64) -> Option<Path> {
        after_attack_path(&mut self.seat(view, rng), id, inches)
    }

    #[inline]
    fn shots(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, moved: bool) -> Short<Volley, 2> {
        shots(&mut self.seat(view, rng), id, moved)
    }

    #[inline]
    fn strafe_target(&mut self, view: &View<'_>, rng: &mut Dice, army: usize, plans: &[(Id, Vec<Group>)], situation: &Situation) -> Option<Id> {
        strafe_target(&mut self.seat(view, rng), army, plans, situation)
    }

    #[inline]
    fn strike_back(&mut self, view: &View<'_>, rng: &mut Dice, c: Id, d: Id) -> bool {
        strike_back(&mut self.seat(view, rng), c, d)
    }

    fn push_spot(&mut self, view: &View<'_>, rng: &mut Dice, by: Id, id: Id, inches: f64) -> Option<Point> {
        firefight::push_spot(&mut self.seat(view, rng), by, id, inches)
    }

    #[inline]
    fn buff_target(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, given: u16) -> Option<(Id, usize)> {
        buff_target(&mut self.seat(view, rng), id, given)
    }

    #[inline]
    fn debuff_target(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, given: u16) -> Option<(Id, usize)> {
        debuff_target(&mut self.seat(view, rng), id, given)
    }

    #[inline]
    fn casting_roll_target(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, friend: bool) -> Option<Id> {
        casting_roll_target(&mut self.seat(view, rng), id, friend)
    }

    #[inline]
    fn enemy_test_target(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, dangerous: bool) -> Option<Id> {
        enemy_test_target(&mut self.seat(view, rng), id, dangerous)
    }

    #[inline]
    fn spells_to_cast(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, window: Window) -> Vec<(usize, Vec<Id>)> {
        spells_to_cast(&mut self.seat(view, rng), id, window)
    }

    #[inline]
    fn spell_value(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, si: usize, target: Id) -> f64 {
        spell_value(&mut self.seat(view, rng), id, si, target)
    }

    #[inline]
    fn tokens_to_spend(&mut self, view: &View<'_>, rng: &mut Dice, who: Id, stake: f64, modifier: i32, help: bool) -> u8 {
        tokens_to_spend(&mut self.seat(view, rng), who, stake, modifier, help)
    }

    #[inline]
    fn wreck_goal(&mut self, view: &View<'_>, _rng: &mut Dice, id: Id) -> Point {
        wreck_goal(view, id)
    }
}

/// A target a unit may shoot: the target, its shot, the value of each weapon group, and
/// what the target is worth now.
type Target = (Id, ShotKey, Short<f64, 8>, f64);

/// The nearest enemy on the ground (Aircraft can't be charged, and no one walks to them).
fn nearest_enemy(g: &View, id: Id) -> Option<(Id, f64)> {
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
pub fn pick_unit(g: &mut Seat, army: usize) -> usize {
    let ready = g.ready(army);
    match g.policy_kind(army) {
        PolicyKind::Random => {
            let i = g.rng.random_range(0..ready.len());
            return ready[i];
        }
        PolicyKind::Default | PolicyKind::V3_2026_11 => return ai::pick_unit(g, &ready, army),
        PolicyKind::Greedy | PolicyKind::Hold => {}
    }
    let urgency = |u: usize| {
        let id = (army, u);
        let near = nearest_enemy(g, id).map_or(f64::INFINITY, |(_, d)| d);
        (g.live(id).shaken, near)
    };
    *ready.iter().min_by(|&&a, &&b| urgency(a).partial_cmp(&urgency(b)).unwrap_or(std::cmp::Ordering::Equal)).expect("some unit is ready")
}

/// Where `id` deploys, within `depth` of its army's edge (12", or 24" for Scouts): the
/// default policy puts melee units at the front of the zone and shooters anywhere in it,
/// nearest an objective and away from friends; the random one anywhere. `None`: no room.
pub fn deployment_spot(g: &mut Seat, id: Id, depth: f64) -> Option<Point> {
    if g.policy_kind(id.0).plays_to_win() {
        return ai::deployment_spot(g, id, depth);
    }
    // the random policy takes the first spot it may stand on
    let random = g.policy_kind(id.0) == PolicyKind::Random;
    let jitter = (!random && g.info(id).role != Role::Shooting).then_some(2.0);
    sample_deployment(g, id, depth, jitter, if random { 1 } else { 12 }, |_, _| true, |g, p, _, crowd| to_objective(g, p) + 6.0 * crowd)
}

/// Where an Ambusher arrives: "anywhere over 9" away from enemy units" (Infiltrate: "up to 1""
/// away, `Effect::Ambush`) — the default policy
/// as near as it can to an objective its army does not hold, the random one anywhere.
pub fn ambush_spot(g: &mut Seat, id: Id) -> Option<Point> {
    if g.policy_kind(id.0).plans_rides() {
        return reserves::ambush_spot(g, id);
    }
    let r = g.radius(id);
    let random = g.policy_kind(id.0) == PolicyKind::Random;
    let wanted: Vec<Point> = g.objectives.iter().zip(&g.owner).filter(|(_, o)| **o != id.0 as i8).map(|(p, _)| *p).collect();
    let mut best: Option<(f64, Point)> = None;
    let ground = ArrivalGround::of(g, id);
    let refused_within: Vec<f64> = wanted.iter().map(|&o| ground.refused_within(o)).collect();
    for attempt in 0..60 {
        let p = if random || wanted.is_empty() || attempt >= 40 {
            Point::new(g.rng.random_range(r..=g.rules.table.width - r), g.rng.random_range(r..=g.rules.table.depth - r))
        } else {
            let k = attempt % wanted.len();
            let (a, d) = (g.rng.random_range(0.0..std::f64::consts::TAU), g.rng.random_range(0.0..=g.rules.markers.range + r));
            // (refused whatever its angle: dropped unbuilt)
            if d < refused_within[k] {
                continue;
            }
            let o = wanted[k];
            Point::new(o.x + d * a.cos(), o.y + d * a.sin())
        };
        if random {
            if may_arrive(g, id, p, &ground) {
                return Some(p);
            }
            continue;
        }
        // (scored before it is tested, the test costing more: one that loses is not tested)
        let score = p.nearest(&wanted);
        if best.is_none_or(|(b, _)| score < b) && may_arrive(g, id, p, &ground) {
            best = Some((score, p));
        }
    }
    best.map(|(_, p)| p).or_else(|| ambush_spot_on_grid(g, id, &wanted, &ground))
}

/// An Aircraft's move: "moving in a straight line, and adding 30" to its total move" along
/// the long edges, towards the side with room for the full move ("can't move into the table
/// edges to move less than 30"").
pub fn aircraft_path(g: &mut Seat, id: Id) -> Option<Path> {
    if g.policy_kind(id.0).plays_to_win() {
        return flight::aircraft_path(g, id);
    }
    let from = g.live(id).pos;
    let room = [g.rules.table.width - g.radius(id) - from.x, from.x - g.radius(id)];
    // "Aircraft can't move into the table edges to move less than 30""
    let least = g.rules.aircraft.map_or(0.0, |a| a.least_move);
    let possible: Vec<usize> = (0..2).filter(|&i| room[i] >= least).collect();
    let dir = match possible.len() {
        0 => return None,
        1 => possible[0],
        _ if g.policy_kind(id.0) == PolicyKind::Random => g.rng.random_range(0..2usize),
        // towards the enemy army's middle
        _ => {
            let (sum, n) = enemies(g, id.0).fold((0.0, 0.0), |(s, n), e| (s + g.live(e).pos.x, n + 1.0));
            let mid = if n > 0.0 { sum / n } else { g.rules.table.width / 2.0 };
            usize::from(mid < from.x)
        }
    };
    let length = g.aircraft_reach(id).min(room[dir]);
    let to = Point::new(from.x + if dir == 0 { length } else { -length }, from.y);
    Some(Path::straight(to, length))
}

/// The action of a unit that is not Shaken.
pub fn decide(g: &mut Seat, id: Id) -> Action {
    let m = g.info(id).movement;
    if m.aircraft {
        return aircraft_path(g, id).map_or(Action::Hold, Action::Advance);
    }
    match g.policy_kind(id.0) {
        PolicyKind::Hold => Action::Hold,
        _ if m.hold_only => Action::Hold,
        PolicyKind::Random => random_action(g, id),
        PolicyKind::Greedy => default_action(g, id),
        PolicyKind::Default | PolicyKind::V3_2026_11 => {
            if let Some(action) = ai::charge_action(g, id).or_else(|| ai::last_round_move(g, id)).or_else(|| timed_embark_action(g, id)) {
                return as_advance_if_shorter(g, id, action);
            }
            // a unit that would stand still in dangerous terrain steps out of it
            match movement_action(g, id) {
                Action::Hold => ai::leave_danger(g, id).unwrap_or(Action::Hold),
                Action::Advance(path) if ai::better_still(g, id, &path) => Action::Hold,
                action => as_advance_if_shorter(g, id, action),
            }
        }
    }
}

/// A Rush no longer than an Advance may be (6" through difficult terrain, which caps both)
/// is played as that Advance: the same move, after which a unit with guns may shoot.
fn as_advance_if_shorter(g: &View, id: Id, action: Action) -> Action {
    let m = g.movement(id);
    match action {
        Action::Rush(path) if g.info(id).max_range > 0.0 => {
            if path.length <= g.rules.move_limit(m.advance, path.difficult) + 1e-9 { Action::Advance(path) } else { Action::Rush(path) }
        }
        action => action,
    }
}

fn random_action(g: &mut Seat, id: Id) -> Action {
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
fn default_action(g: &mut Seat, id: Id) -> Action {
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
fn greedy_charges(g: &View, id: Id, foes: &[Id]) -> Vec<(f64, Id)> {
    let (info, policy) = (g.info(id), g.config.policies[id.0]);
    let alive_share = f64::from(g.live(id).left) / f64::from(info.models.max(1));
    let mut out: Vec<(f64, Id)> = foes.iter().map(|&e| (g.prep.charge_value[id.0][id.1][e.1] * alive_share, e)).filter(|&(v, _)| v > policy.charge_margin * info.cost).collect();
    // stable: among equal values the first foe first
    out.sort_by(|a, b| b.0.total_cmp(&a.0));
    out
}

/// Holding a marker, or moving towards markers and enemies (both the greedy and the default
/// policy, once they have decided not to charge).
fn movement_action(g: &mut Seat, id: Id) -> Action {
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
    let default = g.policy_kind(id.0).plays_to_win();
    let go = |g: &mut Seat, goal: Point, rush: bool| -> Action {
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
                if g.policy_kind(id.0).plays_to_win() {
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
            let no_target = |g: &mut Seat| default && shots(g, id, false).is_empty();
            let at_enemy = |g: &mut Seat| match enemy {
                Some((e, de)) if de > info.max_range || no_target(g) => {
                    let p = g.live(e).pos;
                    go(g, p, false)
                }
                _ => Action::Hold,
            };
            match goal_objective {
                Some((i, d)) => {
                    let target_in_reach = enemy.is_some_and(|(_, de)| de <= info.max_range + m.advance);
                    let close = d <= m.advance + g.rules.markers.range + g.radius(id);
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
fn towards_marker(g: &mut Seat, id: Id, i: usize, action: Action, otherwise: impl FnOnce(&mut Seat) -> Action) -> Action {
    if matches!(action, Action::Hold) && g.policy_kind(id.0).plays_to_win() && !g.near_marker(id, g.objectives[i]) {
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
pub fn shots(g: &mut Seat, id: Id, moved: bool) -> Short<Volley, 2> {
    let info = g.info(id);
    if info.ranged.is_empty() {
        return Short::new();
    }
    // (target, key, value of each group, what the target is worth now)
    let mut options: Short<Target, 4> = Short::new();
    // a range its buff, or a mark on the target, adds to (`Buffed::range_bonus`)
    let bonus = |b: &super::held_rules::Buffed| b.range_bonus();
    let own = [g.live(id).buff, g.live(id).debuff].into_iter().filter(|&b| b > 0).map(|b| bonus(&info.buffed[usize::from(b) - 1])).fold(0.0, f64::max);
    for e in enemies(g, id.0) {
        let marked = g.live(e).mark.and_then(|k| info.held_index(k)).map_or(0.0, |i| bonus(&info.buffed[i]));
        if !g.within(id, e, info.max_range + own.max(marked)) {
            continue;
        }
        let sight = g.sight(id, e);
        let Some((key, plan)) = g.shot(id, e, sight, moved) else { continue };
        let t = g.info(e);
        let per_wound = t.points_per_wound();
        let worth = per_wound * f64::from(g.live(e).wounds_left);
        let values = plan.expected.iter().map(|w| w * per_wound).collect();
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
    // v2.x: a target per weapon type, with no cap
    if g.rules.max_targets.is_none() && options.len() > 1 {
        return volleys::one_target_per_type(g, &options);
    }
    let single = |o: &Target| o.2.iter().sum::<f64>().min(o.3);
    // the default policy also counts the marker a target may stop holding or contesting
    // (one target: no choice to score)
    let default = g.policy_kind(id.0).plays_to_win();
    let best = if options.len() == 1 {
        0
    } else {
        let score: Short<f64, 4> = options
            .iter()
            .map(|o| {
                let wounds = o.2.iter().sum::<f64>() / g.info(o.0).points_per_wound();
                single(o) + if default { ai::marker_bonus(g, id.0, o.0, wounds) + firefight::shot_bonus(g, id.0, o.0, wounds) } else { 0.0 }
            })
            .collect();
        (0..options.len()).max_by(|&a, &b| score[a].total_cmp(&score[b])).unwrap()
    };
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
fn random_goal(g: &mut Seat, id: Id, reach: f64) -> Point {
    let from = g.live(id).pos;
    let a = g.rng.random_range(0.0..std::f64::consts::TAU);
    Point::new(from.x + reach * a.cos(), from.y + reach * a.sin())
}

/// Where `id` is placed "after this model is deployed" (Fanatic, `inches` away at most): the
/// default policy towards the nearest marker, the random one half of the time anywhere.
pub fn placement_after_deployment(g: &mut Seat, id: Id, inches: f64) -> Option<Point> {
    let goal = match g.policy_kind(id.0) {
        PolicyKind::Hold => return None,
        PolicyKind::Random => {
            if g.rng.random_bool(0.5) {
                return None;
            }
            random_goal(g, id, inches)
        }
        PolicyKind::Default | PolicyKind::V3_2026_11 | PolicyKind::Greedy => {
            let pos = g.live(id).pos;
            g.objectives.iter().copied().min_by(|a, b| a.distance(pos).total_cmp(&b.distance(pos))).unwrap_or(Point::new(g.rules.table.width / 2.0, g.rules.table.depth / 2.0))
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
pub fn placement_goal(g: &mut Seat, id: Id, reach: f64) -> Option<Point> {
    match g.policy_kind(id.0) {
        PolicyKind::Hold => return None,
        PolicyKind::Random => {
            return if g.rng.random_bool(0.5) { None } else { Some(random_goal(g, id, reach)) };
        }
        PolicyKind::Default | PolicyKind::V3_2026_11 | PolicyKind::Greedy => {}
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
pub fn after_attack_path(g: &mut Seat, id: Id, inches: f64) -> Option<Path> {
    match g.policy_kind(id.0) {
        PolicyKind::Hold => return None,
        PolicyKind::Random => {
            if g.rng.random_bool(0.5) {
                return None;
            }
            let goal = random_goal(g, id, inches);
            return g.plan_move(id, goal, inches);
        }
        PolicyKind::Default | PolicyKind::V3_2026_11 | PolicyKind::Greedy => {}
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
    let score = |g: &View, p: Point| {
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
pub fn extra_activation(g: &mut Seat, army: usize, eligible: &[usize]) -> Option<usize> {
    match g.policy_kind(army) {
        PolicyKind::Hold => None,
        PolicyKind::Random => {
            if g.rng.random_bool(0.5) {
                return None;
            }
            let i = g.rng.random_range(0..eligible.len());
            Some(eligible[i])
        }
        PolicyKind::Default | PolicyKind::V3_2026_11 | PolicyKind::Greedy => {
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

/// Whether the defender `d` strikes back at the charger `c`: "the defending unit may choose
/// to strike back ..., but doesn't have to". The greedy, random and hold policies always
/// do; the default one declines when that is worth more (`ai::strikes_back`).
pub fn strike_back(g: &mut Seat, c: Id, d: Id) -> bool {
    match g.policy_kind(d.0) {
        PolicyKind::Default | PolicyKind::V3_2026_11 => ai::strikes_back(g, c, d),
        _ => true,
    }
}

/// Which of the enemy units a move crossed a Strafing unit attacks (`plans`: each with the
/// weapon groups that attack it): the default policy the one losing the most points in
/// expectation, the random policy any; the hold policy never moves.
pub fn strafe_target(g: &mut Seat, army: usize, plans: &[(Id, Vec<crate::attack::plan::Group>)], situation: &crate::attack::plan::Situation) -> Option<Id> {
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
pub fn surprise_target(g: &mut Seat, army: usize, near: &[Id]) -> Option<Id> {
    if near.is_empty() {
        return None;
    }
    if g.policy_kind(army) == PolicyKind::Random {
        let i = g.rng.random_range(0..near.len());
        return Some(near[i]);
    }
    near.iter().copied().max_by(|a, b| g.info(*a).points_per_wound().total_cmp(&g.info(*b).points_per_wound()))
}

/// Which units of `army` start inside which of its transports ("Transports may deploy with
/// units inside"), as (unit, transport): the default and greedy policies carry melee units
/// first, then hybrid ones (the slowest, then the dearest, first), each in the first
/// transport with room (the largest first); shooters and units that arrive by Ambush or
/// Scout deploy as usual.
/// The random policy boards any unit that fits with even odds; the hold policy none.
pub fn passengers(g: &mut Seat, army: usize) -> Vec<(usize, usize)> {
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
    let fits = |g: &View, u: usize| {
        let info = g.info((army, u));
        let m = info.movement;
        let spaces = super::prepare::spaces(&info.alloc, info.alloc.start(), g.spaces_by());
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
        let need = super::prepare::spaces(&info.alloc, info.alloc.start(), g.spaces_by()).unwrap_or(u32::MAX);
        // the default policy: only where the ride pays (`transports::ride_pays`)
        if let Some(slot) = room.iter_mut().find(|(t, left)| *left >= need && (!kind.plans_rides() || transports::ride_pays(g, (army, u), (army, *t)))) {
            slot.1 -= need;
            out.push((u, slot.0));
        }
    }
    out
}

/// Where a unit inside is going: the nearest marker its army does not hold and no friend on
/// the table stands by, else the nearest enemy, else where its transport stands.
fn passenger_goal(g: &View, id: Id, from: Point) -> Point {
    let covered = |o: Point| g.on_table(id.0).any(|f| g.may_seize(f) && g.near_marker(f, o));
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
pub fn exit(g: &mut Seat, id: Id, transport: Id) -> Option<Exit> {
    let exit_range = g.exit_range();
    let at = g.live(transport).pos;
    let info = g.info(id);
    let goal = passenger_goal(g, id, at);
    let foes: Vec<Id> = enemies(g, id.0).filter(|&e| !g.info(e).movement.aircraft && g.live(e).pos.distance(at) <= exit_range + g.radius(transport) + 2.0 * g.radius(e) + 1e-6).collect();
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
    if g.policy_kind(id.0).plays_to_win() && !info.movement.hold_only {
        if let Some((e, path)) = ai::charge_out(g, id, transport, &foes) {
            return Some(Exit::Charge(e, path));
        }
    } else if info.role != Role::Shooting && !info.movement.hold_only {
        if let Some((e, path)) = greedy_charges(g, id, &foes).into_iter().find_map(|(_, e)| g.charge_out(id, transport, e).map(|p| (e, p))) {
            return Some(Exit::Charge(e, path));
        }
    }
    // the default policy gets out to cast or shoot (`transports`), and rides on only while
    // the transport has yet to take it further this round
    let plans_rides = g.policy_kind(id.0).plans_rides();
    if plans_rides && !info.movement.hold_only {
        if let Some(out) = transports::exit_to_act(g, id, transport) {
            return Some(out);
        }
    }
    // the transport carries them on unless it can't move them, or has not this round (and,
    // for the default policy, only if it is faster than they walk: else staying would spend
    // their activations for nothing)
    let t = g.live(transport);
    let stuck = t.activated && t.pos.distance(t.round_start) < 1.0;
    let carried_on = !t.shaken && !stuck && !g.info(transport).movement.hold_only && (!plans_rides || transports::faster(g, id, transport));
    let near = goal.distance(at) <= exit_range + g.radius(transport) + g.rules.markers.range;
    if carried_on && !near && g.round < g.config.rounds {
        return None;
    }
    let p = g.exit_spot(id, transport, goal)?;
    Some(if info.role != Role::Melee && info.max_range > 0.0 { Exit::Advance(p) } else { Exit::Rush(p) })
}

/// Where a unit thrown out of a destroyed transport is placed: towards the nearest marker its
/// army does not hold (or the nearest enemy).
pub fn wreck_goal(g: &View, id: Id) -> Point {
    let at = g.live(id).pos;
    passenger_goal(g, id, at)
}

/// `embark_action`, its time counted to transports.
fn timed_embark_action(g: &mut Seat, id: Id) -> Option<Action> {
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
pub fn embark_action(g: &mut Seat, id: Id) -> Option<Action> {
    let kind = g.policy_kind(id.0);
    let info = g.info(id);
    // a unit inside can't seize a marker: none gets in in the last round
    if !g.prep.transports || kind == PolicyKind::Hold || info.movement.aircraft || info.movement.hold_only || info.transport > 0 || g.round >= g.config.rounds {
        return None;
    }
    let plans_rides = kind.plans_rides();
    let transports: Vec<Id> = g
        .on_table(id.0)
        .filter(|&t| g.may_board(id, t) && !g.live(t).activated && !g.live(t).shaken && !g.info(t).movement.hold_only && !g.info(t).movement.aircraft)
        .filter(|&t| !plans_rides || transports::ride_pays(g, id, t))
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
