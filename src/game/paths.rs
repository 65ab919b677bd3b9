//! Path finding for moves and charges: the shortest way for a unit's disc round impassable
//! terrain and other units, and, when it pays, round difficult and dangerous terrain.
//!
//! gf-3.5: "Units may not move through impassable terrain"; "may never move through other
//! models or units"; "Models may never be within 1" of models from other units, unless they
//! are taking a Charge action"; "(charge moves don't have to be in a straight line)".
//!
//! Design: the unit is a disc of radius `r`, so its centre must keep out of every obstacle
//! grown by `r` (a rectangle grows into a rounded rectangle, another unit's disc into a disc
//! of the summed radii, plus 1" when not charging). Each grown shape is replaced by the
//! octagon that circumscribes it (two vertices per rounded corner): a path round the octagon
//! is always legal, and at most 5.4% longer than the arc it replaces (`4 tan(pi/8)` against
//! `pi/2` for a quarter turn). Shortest paths among convex polygons bend only at their
//! vertices, so A* runs on a visibility graph of the octagons' corners, with the straight-line
//! distance to the goal as its heuristic.
//!
//! Speed comes from two things. Obstacles are discovered lazily: the search starts with no
//! obstacle at all (the straight line), checks the path it found against every obstacle,
//! adds the ones it crosses and searches again, until the path is clear; most queries end
//! after the first check, and the others search among the few obstacles in the way. And from a
//! point, only the two corners of an octagon seen tangentially can start a shortest path
//! round it. Everything lives in a scratch space reused by every query of a thread (no
//! allocation per query once warm); the terrain's octagons depend on the unit's radius, so
//! they are rebuilt per query (a few dozen multiplications each).

use super::octagon::{cross, segment_distance2, Bounds, Octagon, SIDES, TAN, TOL};
pub use super::octagon::MARGIN;
use super::table::{Piece, Point};
use std::cell::RefCell;

/// Bends a `Path` keeps (a move of 24" or less rarely needs more than three).
pub const MAX_BENDS: usize = 8;
/// How many inches further from its goal a move accepts to end up, or how many inches longer
/// a charge accepts to be, to keep out of dangerous terrain. A dangerous terrain test costs a
/// model one wound in six (per Tough point), which the default policy values at about a
/// few inches of movement; 3" keeps units out of minefields when the way round is short and
/// lets them through when it is long.
pub const DANGEROUS_DETOUR: f64 = 3.0;

/// Obstacle classes, as bits of a mask: which ones a search keeps out of.
pub const IMPASSABLE: u8 = 1;
pub const UNIT: u8 = 2;
pub const DIFFICULT: u8 = 4;
pub const DANGEROUS: u8 = 8;

/// An obstacle's place in `Paths::octagons` (`NOT_BUILT`: not built yet), and the rectangle
/// and growth `Octagon::new` builds it from (zeros for an octagon built at once, `push`).
#[derive(Debug, Clone, Copy)]
struct Slot {
    at: u32,
    shape: [f64; 5],
}

/// `Slot::at` of an obstacle not built yet.
const NOT_BUILT: u32 = u32::MAX;
/// Obstacles one search may have to go round before it gives up (a table holds at most
/// 200 pieces and 200 units; paths that wind round more are not worth the time).
const MAX_ACTIVE: usize = 64;

/// The bends of a path, before its end point: a small array, so a `Path` stays `Copy`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bends {
    len: u8,
    points: [Point; MAX_BENDS],
}

impl Bends {
    pub const NONE: Bends = Bends { len: 0, points: [Point { x: 0.0, y: 0.0 }; MAX_BENDS] };

    pub fn as_slice(&self) -> &[Point] {
        &self.points[..usize::from(self.len)]
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Adds a bend; `false` when full.
    pub fn push(&mut self, p: Point) -> bool {
        if usize::from(self.len) >= MAX_BENDS {
            return false;
        }
        self.points[usize::from(self.len)] = p;
        self.len += 1;
        true
    }
}

/// A non-negative f as bits that order as it does (`+ 0.0` makes a negative zero positive).
fn f_key(f: f64) -> u64 {
    (f + 0.0).to_bits()
}

/// Where a search ends.
#[derive(Debug, Clone, Copy)]
pub enum Goal {
    /// A point (moves): when it cannot be reached, the search ends at the reachable corner
    /// nearest it.
    Point(Point),
    /// Base contact with a disc (charges): the centre at `contact` from `centre`.
    Contact { centre: Point, contact: f64 },
}

impl Goal {
    /// A lower bound of the way left from `p` (A*'s heuristic).
    fn left(&self, p: Point) -> f64 {
        match *self {
            Goal::Point(g) => p.distance(g),
            Goal::Contact { centre, contact } => (p.distance(centre) - contact).max(0.0),
        }
    }
}

/// The scratch space of the searches: the obstacles of one query and the search's arrays.
#[derive(Default)]
pub struct Paths {
    /// The obstacles built so far, in the order they were built (`slot`).
    octagons: Vec<Octagon>,
    /// Where each obstacle is in `octagons`, or what builds it: most obstacles of a query are
    /// never near its routes, so they are built only when a segment meets their box.
    slot: Vec<Slot>,
    /// Each octagon's bounding box and class, apart: a segment is first tested against
    /// every obstacle's box, and these stay in a few cache lines.
    boxes: Vec<Bounds>,
    /// Indices of the obstacles the current search goes round.
    active: Vec<usize>,
    is_active: Vec<bool>,
    /// A* per node: cost so far, estimate, parent, state.
    node: Vec<Node>,
    /// The open nodes by (f, node), f as the bits of a non-negative float (which order as
    /// the floats do); an entry whose node has since been closed or reached for less is
    /// passed over when it comes up.
    open: std::collections::BinaryHeap<std::cmp::Reverse<(u64, u32)>>,
    /// What the searches of one `shortest` call found out at each node, kept from search to
    /// search: within a call the active obstacles only grow, so a node keeps its point and an
    /// obstacle its index, and a search that comes back to a node tests only the obstacles
    /// added since (`Paths::rows_up_to_date`). The rows grow with the widest search a thread has made and are
    /// kept: (1 + 8n) x n bytes of tangents and eight times that of legs for n active obstacles.
    rows: Vec<NodeRows>,
    /// The tangent bits (`Octagon::tangents_from`) from a node to each active obstacle: node
    /// `u`'s row starts at `u * stride` and holds its first `NodeRows::count` obstacles' (the
    /// rest of a row is left from earlier calls: no clearing).
    tangents: Vec<u8>,
    /// Whether the leg from a node to each vertex of each active obstacle is clear
    /// (`UNKNOWN`, `BLOCKED`, or clear of the first `k` active obstacles: `k + 2`), by rows
    /// of `SIDES * stride` as `tangents`.
    legs: Vec<u8>,
    /// Obstacles a row of `tangents` and `legs` holds (grown, and the rows forgotten, when a
    /// search has more).
    stride: usize,
    /// The last route found: the start, the bends, the end.
    pub route: Vec<Point>,
    /// Legs of this query found clear of every obstacle of a mask.
    clear_legs: Vec<(Point, Point, u8)>,
    /// Where the centre may go (the table less the unit's radius).
    lo: Point,
    hi: Point,
}

/// How many active obstacles a node's rows in `Paths::tangents` and `Paths::legs` hold, and
/// whether its leg to the goal is clear (as `Paths::legs` says).
#[derive(Debug, Clone, Copy, Default)]
struct NodeRows {
    count: u32,
    goal: u8,
}

/// `Paths::legs`: not tested yet; crossing an obstacle (more obstacles do not clear it).
const UNKNOWN: u8 = 0;
const BLOCKED: u8 = 1;

/// A node of A*.
#[derive(Debug, Clone, Copy)]
struct Node {
    cost: f64,
    /// Cost so far plus the heuristic (A*'s f).
    estimate: f64,
    parent: u32,
    /// 0: not reached, 1: open, 2: closed.
    state: u8,
}

impl Node {
    const UNREACHED: Node = Node { cost: f64::INFINITY, estimate: f64::INFINITY, parent: u32::MAX, state: 0 };
}

thread_local! {
    static SCRATCH: RefCell<Paths> = RefCell::new(Paths::default());
}

/// The obstacle classes a search keeps out of, widened as its routes touch terrain that
/// would cost something (difficult, dangerous): each set of classes is searched once, four
/// at most.
pub struct Widening {
    masks: [u8; 4],
    count: usize,
    next: usize,
}

impl Widening {
    pub fn new(first: u8) -> Widening {
        Widening { masks: [first; 4], count: 1, next: 0 }
    }

    /// The next set of classes to search, and whether it is not the first (the search may
    /// start from the obstacles the last one found).
    pub fn next(&mut self) -> Option<(u8, bool)> {
        (self.next < self.count).then(|| {
            self.next += 1;
            (self.masks[self.next - 1], self.next > 1)
        })
    }

    /// Searches `mask` too, unless it was searched or the queue is full.
    pub fn widen(&mut self, mask: u8) {
        if self.count < self.masks.len() && !self.masks[..self.count].contains(&mask) {
            self.masks[self.count] = mask;
            self.count += 1;
        }
    }
}

/// Runs `f` with this thread's scratch space (`None` if it is already in use, which the game
/// never does: a query does not start another).
pub fn with_scratch<T>(f: impl FnOnce(&mut Paths) -> T) -> Option<T> {
    #[cfg(test)]
    QUERIES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    #[cfg(test)]
    let t = std::time::Instant::now();
    let out = SCRATCH.with(|cell| cell.try_borrow_mut().ok().map(|mut p| f(&mut p)));
    #[cfg(test)]
    NANOS.fetch_add(t.elapsed().as_nanos() as u64, std::sync::atomic::Ordering::Relaxed);
    out
}

/// Queries made, and the time spent in them and in `shortest` (for the timing tests).
#[cfg(test)]
pub static QUERIES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
#[cfg(test)]
pub static NANOS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
#[cfg(test)]
pub static SHORTEST_NANOS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);


impl Paths {
    /// Forgets the last query's obstacles; centres must stay within `lo`–`hi`.
    pub fn reset(&mut self, lo: Point, hi: Point) {
        self.octagons.clear();
        self.slot.clear();
        self.boxes.clear();
        self.clear_legs.clear();
        self.lo = lo;
        self.hi = hi;
    }

    fn push(&mut self, o: Octagon) {
        self.boxes.push(Bounds { lo: o.lo, hi: o.hi, class: o.class });
        self.slot.push(Slot { at: self.octagons.len() as u32, shape: [0.0; 5] });
        self.octagons.push(o);
    }

    /// `Octagon::new`'s octagon, to be built when first needed (its box is known now).
    #[inline]
    fn push_later(&mut self, x0: f64, y0: f64, x1: f64, y1: f64, grow: f64, class: u8) {
        self.boxes.push(Bounds { lo: Point::new(x0 - grow, y0 - grow), hi: Point::new(x1 + grow, y1 + grow), class });
        self.slot.push(Slot { at: NOT_BUILT, shape: [x0, y0, x1, y1, grow] });
    }

    /// Obstacle `i`, built if it was not yet.
    fn built(&mut self, i: usize) -> &Octagon {
        let Slot { at, shape: [x0, y0, x1, y1, grow] } = self.slot[i];
        if at == NOT_BUILT {
            let o = Octagon::new(x0, y0, x1, y1, grow, self.boxes[i].class);
            self.slot[i].at = self.octagons.len() as u32;
            self.octagons.push(o);
        }
        self.octagon(i)
    }

    /// Obstacle `i`, built already (`built`: every active one, every one `push` added).
    #[inline(always)]
    fn octagon(&self, i: usize) -> &Octagon {
        &self.octagons[self.slot[i].at as usize]
    }

    /// Makes the built obstacle `i` one the search goes round, with its vertices that are
    /// `in_bounds` (its candidate corners).
    fn activate(&mut self, i: usize) {
        let o = self.octagon(i);
        let on_table = (0..SIDES).fold(0, |bits, j| bits | u8::from(self.in_bounds(o.v[j])) << j);
        let at = self.slot[i].at as usize;
        self.octagons[at].on_table = on_table;
        self.is_active[i] = true;
        self.active.push(i);
    }

    pub fn in_bounds(&self, p: Point) -> bool {
        p.x >= self.lo.x - 1e-9 && p.x <= self.hi.x + 1e-9 && p.y >= self.lo.y - 1e-9 && p.y <= self.hi.y + 1e-9
    }

    pub fn clamp(&self, p: Point) -> Point {
        Point::new(p.x.clamp(self.lo.x, self.hi.x.max(self.lo.x)), p.y.clamp(self.lo.y, self.hi.y.max(self.lo.y)))
    }

    /// A terrain piece grown by `grow`, unless `from` is inside it (a unit already in a piece
    /// of difficult terrain cannot keep out of it: it is left out). An impassable piece is
    /// never left out ("Units may not move through impassable terrain"): a unit whose disc
    /// already reaches it (its models stand beside a building) keeps its centre out of the
    /// piece grown as far as its start allows, and so still goes round it.
    #[inline]
    pub fn add_piece(&mut self, t: &Piece, grow: f64, class: u8, from: Point) {
        // a start outside the octagon's box is outside the octagon
        if from.x <= t.x0 - grow || from.x >= t.x1 + grow || from.y <= t.y0 - grow || from.y >= t.y1 + grow {
            self.push_later(t.x0, t.y0, t.x1, t.y1, grow, class);
        } else {
            self.add_piece_near(t, grow, class, from);
        }
    }

    /// `add_piece` when `from` is within the piece's grown box.
    #[inline(never)]
    fn add_piece_near(&mut self, t: &Piece, grow: f64, class: u8, from: Point) {
        let o = Octagon::new(t.x0, t.y0, t.x1, t.y1, grow, class);
        if !o.contains(from) {
            self.push(o);
            return;
        }
        let d = t.distance_to(from);
        if d >= grow {
            let o = Octagon::facing(t.x0, t.y0, t.x1, t.y1, grow, class, from);
            if !o.contains(from) {
                self.push(o);
                return;
            }
        }
        if class & IMPASSABLE != 0 {
            // the octagon grown by `s` reaches at most `s / cos(pi/8)` from the piece: grown by
            // `d cos(pi/8)` (less the margin) it leaves `from` outside
            let shrunk = d / (1.0 + TAN * TAN).sqrt() - 2.0 * MARGIN;
            if shrunk > 0.0 {
                self.push(Octagon::new(t.x0, t.y0, t.x1, t.y1, shrunk, class));
            }
        }
    }

    /// Another unit's disc grown to `radius` (the unit's own radius, its and 1" if the mover
    /// keeps its distance). A mover already nearer than that (after a melee) keeps at least
    /// out of `inner`, or out of whatever disc does not hold it.
    #[inline]
    pub fn add_disc(&mut self, at: Point, radius: f64, inner: f64, class: u8, from: Point) {
        if radius > 0.0 && (from.x <= at.x - radius || from.x >= at.x + radius || from.y <= at.y - radius || from.y >= at.y + radius) {
            self.push_later(at.x, at.y, at.x, at.y, radius, class);
        } else {
            self.add_disc_near(at, radius, inner, class, from);
        }
    }

    /// `add_disc` when `from` is within the disc's box.
    #[inline(never)]
    fn add_disc_near(&mut self, at: Point, radius: f64, inner: f64, class: u8, from: Point) {
        let d = from.distance(at);
        for r in [radius, inner, d / (1.0 + TAN * TAN).sqrt() - 2.0 * MARGIN] {
            if r <= 0.0 {
                return;
            }
            let o = Octagon::new(at.x, at.y, at.x, at.y, r, class);
            if !o.contains(from) {
                self.push(o);
                return;
            }
            if d >= r {
                let o = Octagon::facing(at.x, at.y, at.x, at.y, r, class, from);
                if !o.contains(from) {
                    self.push(o);
                    return;
                }
            }
        }
    }

    /// `p`, or the nearest point outside the obstacles of `mask` that hold it (a goal inside
    /// a unit or a building: the search aims at its edge), kept on the table.
    pub fn push_out(&mut self, p: Point, mask: u8) -> Point {
        let mut p = self.clamp(p);
        for _ in 0..4 {
            let holder = (0..self.boxes.len()).find(|&i| {
                let x = self.boxes[i];
                x.class & mask != 0 && p.x > x.lo.x && p.x < x.hi.x && p.y > x.lo.y && p.y < x.hi.y && self.built(i).contains(p)
            });
            let Some(i) = holder else { break };
            p = self.clamp(self.octagon(i).nearest_outside(p));
        }
        p
    }

    /// Adds the obstacles of `mask` the segment crosses to the search's; whether there were any.
    fn activate_blockers(&mut self, a: Point, b: Point, mask: u8) -> bool {
        let mut added = false;
        let seg = Bounds::of(a, b);
        for i in 0..self.boxes.len() {
            let x = self.boxes[i];
            if (x.class & mask != 0) & x.meets(&seg) && !self.is_active[i] && self.built(i).blocks_past_box(a, b) {
                self.activate(i);
                added = true;
            }
        }
        added
    }

    fn clear(&self, a: Point, b: Point) -> bool {
        self.clear_but(a, b, usize::MAX)
    }

    /// `clear`, but for active obstacle `skip`, which the segment is known not to enter (it
    /// ends at one of its vertices seen tangentially, or runs along one of its edges).
    fn clear_but(&self, a: Point, b: Point, skip: usize) -> bool {
        self.clear_past(a, b, skip, 0)
    }

    /// `clear_but`, for the active obstacles from `first` on.
    #[inline]
    fn clear_past(&self, a: Point, b: Point, skip: usize, first: usize) -> bool {
        let seg = Bounds::of(a, b);
        self.active[first..].iter().enumerate().all(|(k, &i)| k + first == skip || !self.boxes[i].meets(&seg) || !self.octagon(i).blocks_past_box(a, b))
    }

    /// `clear_but` for a leg whose `Paths::legs` entry is `known`, and the entry it gets.
    fn clear_known(&self, known: u8, a: Point, b: Point, skip: usize) -> (bool, u8) {
        if known == BLOCKED {
            return (false, BLOCKED);
        }
        let first = if known == UNKNOWN { 0 } else { usize::from(known - 2) };
        let clear = self.clear_past(a, b, skip, first);
        // (a search gives up past `MAX_ACTIVE` obstacles, but a widened search keeps those the
        // last one found, so there may be more: past 253, a clear leg is not remembered, and
        // is only tested again)
        (clear, if clear { u8::try_from(self.active.len() + 2).unwrap_or(UNKNOWN) } else { BLOCKED })
    }

    /// Node `u` (at `p`)'s rows brought up to the active obstacles: the tangent bits to the
    /// ones added since a search last came here (none to its own obstacle, whose neighbour
    /// vertices are its candidates), and their legs not tested yet. Its row's start.
    fn rows_up_to_date(&mut self, u: usize, p: Point) -> usize {
        let row = u * self.stride;
        let (old, count) = (self.rows[u].count as usize, self.active.len());
        if old == count {
            return row;
        }
        let own = if u > 0 { (u - 1) / SIDES } else { usize::MAX };
        for a in old..count {
            self.tangents[row + a] = if a == own { 0 } else { self.octagon(self.active[a]).tangents_from(p) };
        }
        self.legs[SIDES * (row + old)..SIDES * (row + count)].fill(UNKNOWN);
        self.rows[u].count = count as u32;
        row
    }

    fn node_point(&self, from: Point, node: usize) -> Point {
        if node == 0 { from } else { self.octagon(self.active[(node - 1) / SIDES]).v[(node - 1) % SIDES] }
    }

    /// Where the last leg from `p` ends: the goal, or the contact point facing `p` (moved
    /// along the circle onto the table if it falls off it).
    fn end_from(&self, p: Point, goal: Goal) -> Option<Point> {
        match goal {
            Goal::Point(g) => Some(g),
            Goal::Contact { centre, contact } => {
                if p.distance(centre) <= contact {
                    return Some(p);
                }
                let q = centre.towards(p, contact);
                if self.in_bounds(q) {
                    return Some(q);
                }
                // off the table: the contact point nearest it that is on the table
                let c = self.clamp(q);
                let d = c.distance(centre);
                if d == 0.0 {
                    return None;
                }
                let q = Point::new(centre.x + (c.x - centre.x) * contact / d, centre.y + (c.y - centre.y) * contact / d);
                self.in_bounds(q).then_some(q)
            }
        }
    }

    /// The shortest route from `from` to `goal` keeping out of the obstacles of `mask`, no
    /// longer than `limit`: its length, with the route in `self.route`. For a point goal that
    /// cannot be reached, the route to the reachable corner nearest it. `None`: no route.
    ///
    /// Only the route's first `horizon` inches are sure to be clear (obstacles further on are
    /// not looked for: a move re-plans at its next activation, and a far obstacle rarely
    /// changes the way the first inches go). `again`: start from the obstacles the last
    /// search found (a search with a wider `mask` from the same point).
    pub fn shortest(&mut self, from: Point, goal: Goal, mask: u8, limit: f64, horizon: f64, again: bool) -> Option<f64> {
        #[cfg(test)]
        let t = std::time::Instant::now();
        let out = self.shortest_(from, goal, mask, limit, horizon, again);
        #[cfg(test)]
        SHORTEST_NANOS.fetch_add(t.elapsed().as_nanos() as u64, std::sync::atomic::Ordering::Relaxed);
        out
    }

    fn shortest_(&mut self, from: Point, goal: Goal, mask: u8, limit: f64, horizon: f64, again: bool) -> Option<f64> {
        self.rows.clear();
        if again && self.is_active.len() == self.boxes.len() {
            let (boxes, is_active) = (&self.boxes, &mut self.is_active);
            self.active.retain(|&i| {
                let keep = boxes[i].class & mask != 0;
                is_active[i] = keep;
                keep
            });
        } else {
            self.active.clear();
            self.is_active.clear();
            self.is_active.resize(self.boxes.len(), false);
        }
        loop {
            let length = self.search(from, goal, limit)?;
            let mut added = false;
            let mut done = 0.0;
            for w in 0..self.route.len().saturating_sub(1) {
                // beyond the horizon, impassable terrain still counts (buildings make the
                // dead ends a route must see coming; units will have moved)
                let mask = if done >= horizon { mask & IMPASSABLE } else { mask };
                if mask == 0 {
                    break;
                }
                let (a, b) = (self.route[w], self.route[w + 1]);
                let leg = a.distance(b);
                let (b, mask) = if done < horizon && done + leg > horizon {
                    // the leg's far part: impassable terrain only
                    let cut = a.towards(b, horizon - done);
                    if mask & IMPASSABLE != 0 {
                        added |= self.activate_blockers(cut, b, IMPASSABLE);
                    }
                    (cut, mask)
                } else {
                    (b, mask)
                };
                done += leg;
                // a leg found clear of every obstacle of a mask stays clear in this query
                if self.clear_legs.iter().any(|&(p, q, m)| p == a && q == b && m & mask == mask) {
                    continue;
                }
                let mut blocked = false;
                let seg = Bounds::of(a, b);
                for i in 0..self.boxes.len() {
                    let x = self.boxes[i];
                    if (x.class & mask != 0) & x.meets(&seg) && self.built(i).blocks_past_box(a, b) {
                        blocked = true;
                        if !self.is_active[i] {
                            self.activate(i);
                            added = true;
                        }
                    }
                }
                if !blocked && self.clear_legs.len() < 64 {
                    self.clear_legs.push((a, b, mask));
                }
            }
            if !added {
                return Some(length);
            }
            if self.active.len() > MAX_ACTIVE {
                return None;
            }
        }
    }

    /// A* over the active obstacles' corners (node 0 is `from`; node `1 + 8a + j` is vertex
    /// `j` of active obstacle `a`).
    fn search(&mut self, from: Point, goal: Goal, limit: f64) -> Option<f64> {
        let nodes = 1 + SIDES * self.active.len();
        self.node.clear();
        self.node.resize(nodes, Node::UNREACHED);
        if self.rows.len() < nodes {
            self.rows.resize(nodes, NodeRows::default());
        }
        if self.active.len() > self.stride {
            // wider rows: what the rows held is forgotten
            self.stride = self.active.len().max(2 * self.stride).max(16);
            self.rows.iter_mut().for_each(|s| s.count = 0);
        }
        if self.tangents.len() < nodes * self.stride {
            self.tangents.resize(nodes * self.stride, 0);
            self.legs.resize(SIDES * nodes * self.stride, UNKNOWN);
        }
        self.node[0].cost = 0.0;
        self.node[0].estimate = goal.left(from);
        self.node[0].state = 1;
        self.open.clear();
        self.open.push(std::cmp::Reverse((f_key(self.node[0].estimate), 0)));
        let mut best = (f64::INFINITY, 0usize, from);
        // the reached node nearest the goal (for a goal out of reach)
        let mut nearest = (goal.left(from), 0usize);
        loop {
            // the open node of least f, the lowest-numbered of those
            let mut pick: Option<(f64, usize)> = None;
            while let Some(std::cmp::Reverse((key, n))) = self.open.pop() {
                let n = n as usize;
                if self.node[n].state == 1 && f_key(self.node[n].estimate) == key {
                    pick = Some((self.node[n].estimate, n));
                    break;
                }
            }
            let Some((f, u)) = pick else { break };
            if f >= best.0 {
                break;
            }
            self.node[u].state = 2;
            let p = self.node_point(from, u);
            let g = self.node[u].cost;
            let row = self.rows_up_to_date(u, p);
            let left = goal.left(p);
            if left < nearest.0 - 1e-9 {
                nearest = (left, u);
            }
            // a shortest path bends round a corner only towards its obstacle (it is taut): the
            // legs leaving `p` must turn to the side the obstacle of `p` lies on
            let bend = (u > 0).then(|| {
                let before = self.node_point(from, self.node[u].parent as usize);
                let (dx, dy) = (p.x - before.x, p.y - before.y);
                let mid = self.octagon(self.active[(u - 1) / SIDES]).mid;
                (dx, dy, cross(dx, dy, mid.x - p.x, mid.y - p.y))
            });
            let taut = |q: Point| {
                bend.is_none_or(|(dx, dy, side)| {
                    let turn = cross(dx, dy, q.x - p.x, q.y - p.y);
                    turn * side >= 0.0 || turn.abs() <= TOL
                })
            };
            if let Some(q) = self.end_from(p, goal) {
                let c = g + p.distance(q);
                if c < best.0 && c <= limit + 1e-9 && taut(q) && self.in_bounds(q) {
                    let (clear, now) = self.clear_known(self.rows[u].goal, p, q, usize::MAX);
                    self.rows[u].goal = now;
                    if clear {
                        best = (c, u, q);
                    }
                }
            }
            let own = (u > 0).then(|| ((u - 1) / SIDES, (u - 1) % SIDES));
            for a in 0..self.active.len() {
                // (`self.octagon`, spelt out: `self.tangents` is borrowed beside it)
                let o = &self.octagons[self.slot[self.active[a]].at as usize];
                let candidates = match own {
                    Some((oa, oj)) if oa == a => (1u8 << ((oj + 1) % SIDES)) | (1u8 << ((oj + SIDES - 1) % SIDES)),
                    _ => self.tangents[row + a],
                };
                // the candidates' bits, lowest first
                let mut bits = candidates;
                while bits != 0 {
                    let j = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let n = 1 + a * SIDES + j;
                    if self.node[n].state == 2 {
                        continue;
                    }
                    let q = o.v[j];
                    if o.on_table & (1 << j) == 0 || !taut(q) {
                        continue;
                    }
                    if let Goal::Contact { centre, contact } = goal {
                        // a leg that would run into the target ends where it first touches it
                        if segment_distance2(centre, p, q) < (contact - 1e-9) * (contact - 1e-9) {
                            if let Some(x) = entry(p, q, centre, contact) {
                                let c = g + p.distance(x);
                                if c < best.0 && c <= limit + 1e-9 && self.in_bounds(x) && self.clear(p, x) {
                                    best = (c, u, x);
                                }
                            }
                            continue;
                        }
                    }
                    let c = g + p.distance(q);
                    if c >= self.node[n].cost {
                        continue;
                    }
                    let f = c + goal.left(q);
                    if f > limit + 1e-9 || f >= best.0 {
                        continue;
                    }
                    let leg = SIDES * (row + a) + j;
                    let (clear, now) = self.clear_known(self.legs[leg], p, q, a);
                    self.legs[leg] = now;
                    if !clear {
                        continue;
                    }
                    self.node[n].cost = c;
                    self.node[n].estimate = f;
                    self.node[n].parent = u as u32;
                    self.node[n].state = 1;
                    self.open.push(std::cmp::Reverse((f_key(f), n as u32)));
                }
            }
        }
        let (length, last, end) = if best.0.is_finite() {
            best
        } else if matches!(goal, Goal::Point(_)) {
            (self.node[nearest.1].cost, nearest.1, self.node_point(from, nearest.1))
        } else {
            return None;
        };
        self.route.clear();
        self.route.push(end);
        let mut n = last;
        while n != 0 {
            self.route.push(self.node_point(from, n));
            n = self.node[n].parent as usize;
        }
        self.route.push(from);
        self.route.reverse();
        if best.0.is_finite() || last != 0 {
            Some(length)
        } else {
            // the start is the nearest point: a route of no length
            self.route.truncate(1);
            Some(0.0)
        }
    }
}

/// Where the segment `p`–`q` first comes within `radius` of `centre` (`p` outside).
fn entry(p: Point, q: Point, centre: Point, radius: f64) -> Option<Point> {
    let (dx, dy) = (q.x - p.x, q.y - p.y);
    let (fx, fy) = (p.x - centre.x, p.y - centre.y);
    let a = dx * dx + dy * dy;
    let b = 2.0 * (fx * dx + fy * dy);
    let c = fx * fx + fy * fy - radius * radius;
    let disc = b * b - 4.0 * a * c;
    if a <= 0.0 || disc < 0.0 {
        return None;
    }
    let t = (-b - disc.sqrt()) / (2.0 * a);
    (0.0..=1.0).contains(&t).then(|| Point::new(p.x + t * dx, p.y + t * dy))
}

/// The first `inches` of `route`: its bends, end and length. Stops at the last bend that fits
/// when the route bends more than `MAX_BENDS` times before that.
pub fn walk(route: &[Point], inches: f64) -> (Bends, Point, f64) {
    let mut bends = Bends::NONE;
    let Some(&start) = route.first() else { return (bends, Point::default(), 0.0) };
    let (mut at, mut done) = (start, 0.0);
    let last = route.len() - 1;
    for i in 0..last {
        let (a, b) = (route[i], route[i + 1]);
        let leg = a.distance(b);
        if done + leg >= inches {
            let end = a.towards(b, (inches - done).max(0.0));
            return (bends, end, done + a.distance(end));
        }
        done += leg;
        at = b;
        // a bend that does not fit ends the walk there
        if i + 1 < last && !bends.push(b) {
            return (bends, b, done);
        }
    }
    (bends, at, done)
}

/// Whether a disc of radius `r` moving along `a`–`b` overlaps the piece at some point
/// (coming within `r` of it; touching at exactly `r` does not count).
#[inline]
pub fn sweeps(a: Point, b: Point, r: f64, t: &Piece) -> bool {
    if a.x.max(b.x) <= t.x0 - r || a.x.min(b.x) >= t.x1 + r || a.y.max(b.y) <= t.y0 - r || a.y.min(b.y) >= t.y1 + r {
        return false;
    }
    first_touch(a, b, r, t).is_some()
}

/// How far along `a`–`b` (a share from 0 to 1) a disc of radius `r` first overlaps the
/// piece, if it does: where the segment enters the piece grown by `r` (two crossing
/// rectangles and four corner discs), exactly.
pub fn first_touch(a: Point, b: Point, r: f64, t: &Piece) -> Option<f64> {
    let mut first = f64::INFINITY;
    for (x0, y0, x1, y1) in [(t.x0 - r, t.y0, t.x1 + r, t.y1), (t.x0, t.y0 - r, t.x1, t.y1 + r)] {
        if let Some(s) = enters_box(a, b, x0, y0, x1, y1) {
            first = first.min(s);
        }
    }
    for (cx, cy) in [(t.x0, t.y0), (t.x1, t.y0), (t.x0, t.y1), (t.x1, t.y1)] {
        if let Some(s) = enters_disc(a, b, Point::new(cx, cy), r) {
            first = first.min(s);
        }
    }
    first.is_finite().then_some(first)
}

/// Liang–Barsky: where the segment first is strictly inside the box, if it ever is.
fn enters_box(a: Point, b: Point, x0: f64, y0: f64, x1: f64, y1: f64) -> Option<f64> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-dx, a.x - x0), (dx, x1 - a.x), (-dy, a.y - y0), (dy, y1 - a.y)] {
        if p == 0.0 {
            if q <= 0.0 {
                return None;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                t0 = t0.max(r);
            } else {
                t1 = t1.min(r);
            }
        }
    }
    (t0 < t1).then_some(t0)
}

/// Where the segment first is strictly inside the disc, if it ever is.
fn enters_disc(a: Point, b: Point, centre: Point, radius: f64) -> Option<f64> {
    let (fx, fy) = (a.x - centre.x, a.y - centre.y);
    let c = fx * fx + fy * fy - radius * radius;
    if c < 0.0 {
        return Some(0.0);
    }
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let qa = dx * dx + dy * dy;
    let qb = 2.0 * (fx * dx + fy * dy);
    let disc = qb * qb - 4.0 * qa * c;
    if qa <= 0.0 || disc <= 0.0 {
        return None;
    }
    let s = (-qb - disc.sqrt()) / (2.0 * qa);
    (0.0..1.0).contains(&s).then_some(s)
}


/// A move's path: from where the unit stands through the bends of `via` to `to` (found by
/// `paths`: the shortest way round what the unit may not cross).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Path {
    pub to: Point,
    /// The bends before `to`, in order (none: a straight move).
    pub via: Bends,
    pub length: f64,
    pub difficult: bool,
    pub dangerous: bool,
}

impl Path {
    /// A straight move over no terrain that matters (an Aircraft's).
    pub fn straight(to: Point, length: f64) -> Path {
        Path { to, via: Bends::NONE, length, difficult: false, dangerous: false }
    }

    /// The legs of the path, starting from `from` (where the unit stood).
    pub fn legs(&self, from: Point) -> impl Iterator<Item = (Point, Point)> + '_ {
        let mut at = from;
        self.via.as_slice().iter().copied().chain(std::iter::once(self.to)).map(move |p| {
            let leg = (at, p);
            at = p;
            leg
        })
    }
}

#[cfg(test)]
#[path = "paths_tests.rs"]
mod tests;