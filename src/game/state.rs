//! The state of one game: each unit as it stands (`Live`), the markers and their owners, the
//! round, the dice and the trace (`Event`), and the plain questions every phase and the
//! policy ask of it (which units may activate, where a unit's models stand, what it has left).
//!
//! gf-3.5: "rounds of alternating activations"; "After 4 rounds have been played the game
//! ends, and the player that controls most markers wins." The phases that change this state
//! are the modules beside it (`setup`, `activation`, `movement`, `shooting`, `charge`,
//! `morale`, `round_end`, `casting`, `transport`, `buffs`); the choices are the player's
//! (`decisions::Player`, played by `policy::Bot`).

use super::live::Id;
use super::live::Live;
use super::prepare::{Prepared, UnitInfo};
use super::rules::GameRules;
use super::table::{Piece, Point};

use super::config::{Config, PolicyKind, Short, Timers};
use crate::attack::allocation::State;
use std::time::Instant;
use super::cache::Cache;

/// "Within" is compared to a millionth of an inch (float positions round either way).
pub(super) const EPS: f64 = 1e-6;

/// The units an activation's attacks touched, with their state before the first (their
/// morale is tested once it ends).
pub type Touched = Short<(Id, State)>;

/// `v` emptied and filled with `n` copies of `value` (its memory kept).
pub(super) fn refilled<T: Clone>(mut v: Vec<T>, value: T, n: usize) -> Vec<T> {
    v.clear();
    v.resize(n, value);
    v
}

/// Which distance class `d` falls in between the marks the two units' rules tell apart
/// (`UnitInfo::distance_marks`): 0 up to the smallest mark, then one more past each. Every
/// distance of a class plays the same (a rule's "over 9"" or "within X"" reads alike).
pub(super) fn distance_class(a: &UnitInfo, b: &UnitInfo, d: f64) -> u16 {
    a.distance_marks.iter().chain(&b.distance_marks).copied().filter(|&m| f64::from(m) < d).max().map_or(0, |m| m + 1)
}

/// Indices of the pieces of each kind (`View::by_kind`).
#[derive(Default)]
pub(super) struct PiecesByKind {
    pub(super) impassable: Vec<usize>,
    pub(super) dangerous: Vec<usize>,
    pub(super) sight: Vec<usize>,
}

impl PiecesByKind {
    pub(super) fn of(terrain: &[Piece]) -> PiecesByKind {
        let which = |f: fn(&Piece) -> bool| terrain.iter().enumerate().filter(|(_, t)| f(t)).map(|(i, _)| i).collect();
        PiecesByKind { impassable: which(|t| t.kinds.impassable), dangerous: which(|t| t.kinds.dangerous), sight: which(|t| t.kinds.blocking || t.kinds.cover) }
    }
}

/// The state of a game as everyone may read it: the phases (through `Game`, which derefs to
/// it) and the policy (which gets `&View` and nothing else of the game). Its caches of pure
/// functions (sight, shot plans, distances, spell values) fill in behind `&self`.
pub struct View<'a> {
    pub prep: &'a Prepared,
    /// The edition's game rules: every number and switch the phases read. The same as
    /// `prep.rules`, held here too because the spot and marker tests read it thousands of
    /// times a game (one pointer nearer).
    pub rules: &'static GameRules,
    pub config: &'a Config,
    pub(super) cache: &'a mut Cache,
    pub terrain: Vec<Piece>,
    /// Which pieces are impassable, dangerous, or block sight or give cover: the tests run
    /// thousands of times a game look only at these.
    pub(super) by_kind: PiecesByKind,
    pub objectives: Vec<Point>,
    /// Controller of each marker: an army, or -1.
    pub owner: Vec<i8>,
    pub units: [Vec<Live>; 2],
    /// `seat[0]`: the army that won the roll-off, deploys on the `y = 0` edge and goes first.
    pub seat: [usize; 2],
    pub round: u8,
    /// Units of each army that may use an extra activation in one round: "up to half of the
    /// units in the army with this rule at the beginning of the game (rounding up)".
    pub extra_limit: [u32; 2],
    /// Extra activations each army used this round.
    pub extra_this_round: [u32; 2],
}


/// The closest two models of two units: their distance edge to edge (negative when bases
/// overlap) and their centres. `ours` (centre, radius), the other unit's disc (`centre`,
/// `radius`) and its models. Our models are tried nearest the other disc first, so that those
/// whose distance to the disc is no better than the best pair found are skipped; the inner
/// loop compares squared distances.
pub(super) fn closest_pair<I: Iterator<Item = (Point, f64)>>(ours: impl Iterator<Item = (Point, f64)>, centre: Point, radius: f64, theirs: impl Fn() -> I) -> (f64, Point, Point) {
    const ON_STACK: usize = 64;
    let mut near = [(0.0f64, Point::default(), 0.0f64); ON_STACK];
    let mut n = 0;
    let mut best = (f64::INFINITY, Point::default(), centre);
    let scan = |p: Point, r: f64, best: &mut (f64, Point, Point)| {
        for (q, s) in theirs() {
            let reach = best.0 + r + s;
            let (dx, dy) = (p.x - q.x, p.y - q.y);
            let d2 = dx * dx + dy * dy;
            if reach <= 0.0 || d2 < reach * reach {
                let d = d2.sqrt() - r - s;
                if d < best.0 {
                    *best = (d, p, q);
                }
            }
        }
    };
    for (p, r) in ours {
        let bound = p.distance(centre) - r - radius;
        if n < ON_STACK {
            near[n] = (bound, p, r);
            n += 1;
        } else if bound < best.0 {
            scan(p, r, &mut best);
        }
    }
    let near = &mut near[..n];
    near.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    for &(bound, p, r) in near.iter() {
        if bound >= best.0 {
            break;
        }
        scan(p, r, &mut best);
    }
    best
}


impl<'a> View<'a> {

    #[inline]
    pub fn info(&self, id: Id) -> &'a UnitInfo {
        &self.prep.armies[id.0][id.1]
    }

    #[inline]
    pub fn live(&self, id: Id) -> &Live {
        &self.units[id.0][id.1]
    }

    pub fn policy_kind(&self, army: usize) -> PolicyKind {
        self.config.policies[army].kind
    }

    /// Units of `army` on the table.
    pub fn on_table(&self, army: usize) -> impl Iterator<Item = Id> + '_ {
        (0..self.units[army].len()).filter(move |&u| self.units[army][u].on_table()).map(move |u| (army, u))
    }

    /// The units of `army` that may activate now: on the table or inside a transport that is,
    /// not yet activated; a unit inside waits for its transport to activate first while that
    /// can, but not in the last round (when only units outside hold markers, it may leave
    /// before its transport moves).
    #[inline]
    pub fn ready(&self, army: usize) -> Short<usize> {
        let units = &self.units[army];
        let last = self.round >= self.config.rounds;
        // (a transport is never carried: it may activate when it is waiting to)
        let waits = |u: usize| !last && units[u].carrier.is_some_and(|t| self.may_activate(army, usize::from(t)));
        // (one list, filled, then filtered in place when some units wait and some need not)
        let mut ready: Short<usize> = Short::new();
        for u in 0..units.len() {
            if self.may_activate(army, u) {
                ready.push(u);
            }
        }
        if ready.iter().any(|&u| waits(u)) && ready.iter().any(|&u| !waits(u)) {
            ready.retain(|u| !waits(*u));
        }
        ready
    }

    /// Whether `u` is among `ready(army)`, without listing them: a unit inside a transport
    /// that may still activate waits (that transport is ready, so the list is never empty).
    pub fn is_ready(&self, army: usize, u: usize) -> bool {
        let last = self.round >= self.config.rounds;
        u < self.units[army].len() && self.may_activate(army, u) && (last || self.units[army][u].carrier.is_none_or(|t| !self.may_activate(army, usize::from(t))))
    }

    /// Whether some unit of `army` may activate now (`ready` is not empty), without listing them.
    pub fn any_ready(&self, army: usize) -> bool {
        (0..self.units[army].len()).any(|u| self.may_activate(army, u))
    }

    /// Unit `u` of `army` has yet to activate this round, and stands on the table or inside a
    /// transport that does.
    pub(super) fn may_activate(&self, army: usize, u: usize) -> bool {
        let units = &self.units[army];
        !units[u].activated && !units[u].gone && !units[u].reserve && units[u].carrier.is_none_or(|t| units[usize::from(t)].on_table())
    }

    /// The table point of a point given from `army`'s own edge (`y`: inches from its edge).
    pub fn from_edge(&self, army: usize, x: f64, y: f64) -> Point {
        if self.seat[0] == army { Point::new(x, y) } else { Point::new(x, self.rules.table.depth - y) }
    }

    /// What decides which of `id`'s models are left (`Allocation::alive_key`).
    pub(super) fn formation_key(&self, id: Id) -> (u32, bool) {
        self.live(id).key
    }

    /// The radius of the disc that holds `id`'s models now, centred on `Live::pos`: it
    /// shrinks as models are removed.
    pub fn radius(&self, id: Id) -> f64 {
        self.live(id).radius
    }

    /// The share of `id`'s wounds it has left.
    pub fn wound_share(&self, id: Id) -> f64 {
        f64::from(self.live(id).wounds_left) / f64::from(self.info(id).wounds.max(1))
    }

    /// What is left of `id`, in points: its points per wound times its wounds left.
    pub fn points_left(&self, id: Id) -> f64 {
        self.info(id).points_per_wound() * f64::from(self.live(id).wounds_left)
    }

    /// +1 for the army on the `y = 0` edge (its formations face `+y`, the enemy), else -1.
    pub(super) fn facing(&self, army: usize) -> f64 {
        if self.seat[0] == army { 1.0 } else { -1.0 }
    }

    /// Where `id`'s models stand and their bases' radii, as a trace shows them: (x, y, radius).
    pub fn footprint(&self, id: Id) -> Vec<(f64, f64, f64)> {
        self.models(id).map(|(_, q, r)| (q.x, q.y, r)).collect()
    }

    /// `id`'s models on the table now: each one's slot in the formation, centre and base radius.
    #[inline]
    pub fn models(&self, id: Id) -> impl Iterator<Item = (usize, Point, f64)> + '_ {
        let info = self.info(id);
        let (k, hero_dead) = self.formation_key(id);
        let h = info.formation.hull(k, hero_dead);
        let (f, pos) = (self.facing(id.0), self.live(id).pos);
        info.formation.alive(k, hero_dead).map(move |(i, s)| (i, Point::new(pos.x + f * (s.x - h.x), pos.y + f * (s.y - h.y)), s.r))
    }

    pub(super) fn clock(&self) -> Option<Instant> {
        self.config.profile.then(Instant::now)
    }

    /// Adds the time since `start` (when profiling) to one part of the timers.
    pub(super) fn lap(&self, start: Option<Instant>, part: fn(&mut Timers) -> &mut f64) {
        if let Some(t) = start {
            let mut timers = self.cache.timers.get();
            *part(&mut timers) += t.elapsed().as_secs_f64();
            self.cache.timers.set(timers);
        }
    }

    /// `id`'s models as they would stand with the unit's disc centred on `p`.
    pub fn models_at(&self, id: Id, p: Point) -> impl Iterator<Item = (usize, Point, f64)> + '_ {
        let pos = self.live(id).pos;
        self.models(id).map(move |(i, q, r)| (i, Point::new(q.x + p.x - pos.x, q.y + p.y - pos.y), r))
    }

    /// The closest pair of models of `id` standing at `p` and of `other` where it stands:
    /// their distance, and the centres of the two models.
    pub(super) fn closest_pair_at(&self, id: Id, p: Point, other: Id) -> (f64, Point, Point) {
        closest_pair(self.models_at(id, p).map(|(_, q, r)| (q, r)), self.live(other).pos, self.radius(other), || self.models(other).map(|(_, o, ro)| (o, ro)))
    }
}

