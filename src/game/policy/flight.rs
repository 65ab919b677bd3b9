//! The default policy's Aircraft: where it flies ("moving in a straight line"), and (v2.x)
//! whether it flies off the table and on which edge it comes back ("if it goes off-table
//! then its activation ends and it may be placed back on any table edge").

use super::ai::marker_points;
use super::seat::Seat;
use crate::game::live::Id;
use crate::game::paths::Path;
use crate::game::table::Point;

/// Headings an Aircraft may take: every 15 degrees.
const HEADINGS: u32 = 24;
/// v2.x: the lengths of move tried on a heading, 18" to 36" in steps of this.
const LENGTH_STEP: f64 = 2.0;
/// v2.x: the spots along each table edge where a returning Aircraft may be placed, this far apart.
const EDGE_STEP: f64 = 2.0;

/// The `HEADINGS` directions, as (cos, sin), worked out once.
fn headings() -> &'static [(f64, f64); HEADINGS as usize] {
    static HEADING: std::sync::LazyLock<[(f64, f64); HEADINGS as usize]> = std::sync::LazyLock::new(|| {
        std::array::from_fn(|k| {
            let a = k as f64 * std::f64::consts::TAU / f64::from(HEADINGS);
            (a.cos(), a.sin())
        })
    });
    &HEADING
}

/// What the default policy reads to value an Aircraft's end points, gathered once a move.
struct Ends {
    enemies: Vec<Id>,
    /// The markers its presence would turn (Aircraft that contest only).
    contested: Vec<Point>,
    marker_worth: f64,
    /// Its share of wounds left (what its volley is scaled by).
    mine: f64,
}

impl Ends {
    fn of(g: &Seat, id: Id) -> Ends {
        let enemies: Vec<Id> = g.on_table(1 - id.0).collect();
        let contested = if g.rules.contest.aircraft { markers_to_deny(g, id, &enemies) } else { Vec::new() };
        Ends { enemies, contested, marker_worth: marker_points(g, id.0), mine: g.wound_share(id) }
    }

    /// The worth of the Aircraft `id` ending at `to`: the best volley in range of it (where it
    /// `shoots` from there), less `threat_weight` times what enemy shooters in range of it
    /// would take, a small pull to the table's middle, and the markers it would deny.
    fn value(&self, g: &Seat, id: Id, to: Point, shoots: bool) -> f64 {
        let (info, r) = (g.info(id), g.radius(id));
        let table = g.rules.table;
        let mut volley: f64 = 0.0;
        let mut threat = 0.0;
        for &e in &self.enemies {
            let (ei, el) = (g.info(e), g.live(e));
            let gap = (to.distance(el.pos) - r - g.radius(e)).max(0.0);
            if shoots && info.max_range > 0.0 && gap <= info.max_range {
                let worth = g.points_left(e);
                volley = volley.max((g.prep.shot_value[id.0][id.1][e.1] * self.mine).min(worth));
            }
            if !el.shaken && ei.max_range > 0.0 && gap <= ei.max_range + if ei.movement.hold_only { 0.0 } else { ei.movement.advance } {
                threat += g.prep.shot_value[e.0][e.1][id.1];
            }
        }
        // a small pull to the table's middle keeps later headings open
        let centre = to.distance(Point::new(table.width / 2.0, table.depth / 2.0));
        let denied = self.contested.iter().filter(|&&o| g.near_marker_at(id, to, o)).count() as f64;
        volley - g.config.policies[id.0].threat_weight * threat - 0.01 * centre + self.marker_worth * denied
    }

    /// `value`'s best volley alone.
    fn volley(&self, g: &Seat, id: Id, to: Point) -> f64 {
        let (info, r) = (g.info(id), g.radius(id));
        let in_range = |e: &&Id| info.max_range > 0.0 && (to.distance(g.live(**e).pos) - r - g.radius(**e)).max(0.0) <= info.max_range;
        self.enemies.iter().filter(in_range).map(|&e| (g.prep.shot_value[id.0][id.1][e.1] * self.mine).min(g.points_left(e))).fold(0.0, f64::max)
    }
}

/// An Aircraft's move: "May only use Advance actions, moving in a straight line" — any
/// heading on which the move (at least 30"; v2.x: any length from 18" to 36", every 2") fits
/// on the table, the one whose end point is worth most (`Ends::value`); where Aircraft
/// contest markers (v3.4.1, v2.x), a marker's points count for each marker it would end at
/// that an enemy unit may reach by the round's end and no friend on the ground contests (its
/// presence keeps the enemy from seizing it, or makes it neutral). v2.x: or off the table,
/// when the spot it would come back on is worth more than every end point on the table, its
/// volley from there counted at half (it shoots only in its next activation: the
/// activation that takes it off ends).
pub fn aircraft_path(g: &mut Seat, id: Id) -> Option<Path> {
    let (from, r) = (g.live(id).pos, g.radius(id));
    let ends = Ends::of(g, id);
    // "Aircraft can't move into the table edges to move less than 30""
    let (table, least_move) = (g.rules.table, g.rules.aircraft.map_or(0.0, |a| a.least_move));
    let leaves = g.rules.aircraft.is_some_and(|a| a.leaves_table);
    // (v3.4.1: a Shaken Aircraft's mandatory move is the 30" it adds)
    let most = g.aircraft_reach(id);
    let mut best: Option<(f64, Path)> = None;
    // v2.x: the move off the table (any heading that crosses an edge within its reach: the
    // first found; where it ends matters not, only the edge it comes back on)
    let mut off: Option<Path> = None;
    for &(dx, dy) in headings() {
        // how far the heading stays on the table (a disc of radius `r`)
        let room = |p: f64, d: f64, size: f64, r: f64| if d > 1e-9 { (size - r - p) / d } else if d < -1e-9 { (p - r) / -d } else { f64::INFINITY };
        let fits = room(from.x, dx, table.width, r).min(room(from.y, dy, table.depth, r));
        if fits.is_nan() {
            continue;
        }
        // off the table: its centre past the edge (a hundredth of an inch beyond)
        let beyond = (room(from.x, dx, table.width, 0.0).min(room(from.y, dy, table.depth, 0.0)) + 0.01).max(least_move);
        if leaves && off.is_none() && beyond <= most {
            off = Some(Path::straight(Point::new(from.x + dx * beyond, from.y + dy * beyond), beyond));
        }
        if fits < least_move {
            continue;
        }
        let longest = most.min(fits);
        let mut length = if leaves { least_move } else { longest };
        loop {
            let to = Point::new(from.x + dx * length, from.y + dy * length);
            let score = ends.value(g, id, to, true);
            if best.as_ref().is_none_or(|(b, _)| score > *b) {
                best = Some((score, Path::straight(to, length)));
            }
            if length >= longest {
                break;
            }
            length = (length + LENGTH_STEP).min(longest);
        }
    }
    if let Some(path) = off {
        let back = reentry_spot_of(g, id, &ends);
        let score = ends.value(g, id, back, true) - 0.5 * ends.volley(g, id, back);
        if best.as_ref().is_none_or(|(b, _)| score > *b) {
            return Some(path);
        }
    }
    best.map(|(_, p)| p)
}

/// v2.x: where the Aircraft `id` that flew off the table is "placed back on any table edge":
/// touching an edge, its whole base on the table, at the spot worth most (`Ends::value`, its
/// volley from there counted: it shoots in its next activation).
pub fn reentry_spot(g: &mut Seat, id: Id) -> Point {
    let ends = Ends::of(g, id);
    reentry_spot_of(g, id, &ends)
}

fn reentry_spot_of(g: &Seat, id: Id, ends: &Ends) -> Point {
    let (t, r) = (g.rules.table, g.radius(id));
    let along = |size: f64| (0..).map(move |k| r + f64::from(k) * EDGE_STEP).take_while(move |&v| v <= size - r + 1e-9);
    let spots = along(t.width)
        .flat_map(|x| [Point::new(x, r), Point::new(x, t.depth - r)])
        .chain(along(t.depth).flat_map(|y| [Point::new(r, y), Point::new(t.width - r, y)]));
    let mut best: Option<(f64, Point)> = None;
    for p in spots {
        let score = ends.value(g, id, p, true);
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, p));
        }
    }
    best.map_or(Point::new(r, r), |(_, p)| p)
}

/// The markers an Aircraft of `id`'s army that contests would turn by ending the round at
/// them: those an enemy unit that may seize stands within reach of (3" plus its Advance) and
/// no friendly unit that may contest already stands at.
fn markers_to_deny(g: &Seat, id: Id, enemies: &[Id]) -> Vec<Point> {
    let range = g.rules.markers.range;
    let friends: Vec<Id> = g.on_table(id.0).filter(|&f| f != id && !g.info(f).movement.aircraft && g.may_contest(f)).collect();
    g.objectives
        .iter()
        .copied()
        .filter(|&o| {
            let reachable = |e: Id| g.may_seize(e) && g.live(e).pos.distance(o) - g.radius(e) <= range + g.movement(e).advance;
            enemies.iter().any(|&e| reachable(e)) && !friends.iter().any(|&f| g.near_marker(f, o))
        })
        .collect()
}
