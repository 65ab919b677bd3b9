//! Tests of the path search: shortest routes round obstacles, checked against a grid.

use super::*;
use crate::game::table::Kinds;
const WIDTH: f64 = crate::game::rules::GameRules::V3_5.table.width;
const DEPTH: f64 = crate::game::rules::GameRules::V3_5.table.depth;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The octagon tests by slabs and by tangent bits say what the tests they replace (an
/// edge-by-edge separating axis, two cross products per vertex) say, on random octagons
/// and segments (a segment within the tolerance of an edge may differ: none here).
#[test]
fn slab_and_tangent_tests_match_the_edge_by_edge_ones() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
    let (mut blocked, mut tangents) = (0, 0);
    for _ in 0..20_000 {
        let (x0, y0) = (rng.random_range(0.0..60.0), rng.random_range(0.0..40.0));
        let (w, h) = if rng.random_bool(0.3) { (0.0, 0.0) } else { (rng.random_range(0.5..10.0), rng.random_range(0.5..10.0)) };
        let o = Octagon::new(x0, y0, x0 + w, y0 + h, rng.random_range(0.1..4.0), IMPASSABLE);
        let general = Octagon { slabs: None, ..o };
        let mut point = || Point::new(rng.random_range(-5.0..80.0), rng.random_range(-5.0..55.0));
        let (a, b, p) = (point(), point(), point());
        assert_eq!(o.blocks(a, b), general.blocks(a, b), "{o:?} {a:?} {b:?}");
        blocked += usize::from(o.blocks(a, b));
        let bits = o.tangents_from(p);
        tangents += bits.count_ones();
        for j in 0..SIDES {
            let (v, prev, next) = (o.v[j], o.v[(j + SIDES - 1) % SIDES], o.v[(j + 1) % SIDES]);
            let (dx, dy) = (v.x - p.x, v.y - p.y);
            let (s1, s2) = (cross(dx, dy, prev.x - p.x, prev.y - p.y), cross(dx, dy, next.x - p.x, next.y - p.y));
            let tangent = (s1 >= -TOL && s2 >= -TOL) || (s1 <= TOL && s2 <= TOL);
            assert_eq!(bits & (1 << j) != 0, tangent, "vertex {j} of {o:?} from {p:?}");
        }
    }
    // both answers were tried many times
    assert!(blocked > 1_000 && blocked < 19_000, "{blocked}");
    assert!(tangents > 20_000, "{tangents}");
}

/// A random table: impassable pieces and other units' discs (already grown by the mover's
/// radius and the 1" gap), for a mover of radius `r`.
struct Table {
    r: f64,
    pieces: Vec<Piece>,
    discs: Vec<(Point, f64)>,
}

impl Table {
    fn random(rng: &mut Xoshiro256PlusPlus) -> Table {
        let r = rng.random_range(0.5..2.5);
        let building = Kinds { impassable: true, blocking: true, ..Kinds::default() };
        let pieces = (0..8)
            .map(|_| {
                let (w, h) = (rng.random_range(2.0..9.0), rng.random_range(2.0..9.0));
                let (x, y) = (rng.random_range(0.0..WIDTH - w), rng.random_range(0.0..DEPTH - h));
                Piece::new("building", x, y, x + w, y + h, building).unwrap()
            })
            .collect();
        let discs = (0..12).map(|_| (Point::new(rng.random_range(0.0..WIDTH), rng.random_range(0.0..DEPTH)), r + rng.random_range(0.5..3.0) + 1.0)).collect();
        Table { r, pieces, discs }
    }

    /// Whether the mover's centre may be at `p` (the true shapes, not the octagons).
    fn free(&self, p: Point, slack: f64) -> bool {
        p.x >= self.r && p.x <= WIDTH - self.r && p.y >= self.r && p.y <= DEPTH - self.r && self.pieces.iter().all(|t| t.distance_to(p) >= self.r - slack) && self.discs.iter().all(|(c, d)| c.distance(p) >= d - slack)
    }

    fn paths(&self, from: Point) -> Paths {
        let mut paths = Paths::default();
        paths.reset(Point::new(self.r, self.r), Point::new(WIDTH - self.r, DEPTH - self.r));
        for t in &self.pieces {
            paths.add_piece(t, self.r + MARGIN, IMPASSABLE, from);
        }
        for &(c, d) in &self.discs {
            paths.add_disc(c, d + MARGIN, d - 1.0 + MARGIN, UNIT, from);
        }
        paths
    }

    /// Shortest path on a grid of `step` inches with 16 neighbours (moves of (1,0), (1,1),
    /// (2,1) and their turns; a move is allowed when its end and its middle are free).
    fn grid_shortest(&self, from: Point, to: Point, step: f64) -> Option<f64> {
        let (nx, ny) = ((WIDTH / step) as i64 + 1, (DEPTH / step) as i64 + 1);
        let at = |i: i64, j: i64| Point::new(i as f64 * step, j as f64 * step);
        let free: Vec<bool> = (0..nx * ny).map(|k| self.free(at(k % nx, k / nx), 0.0)).collect();
        let cell = |p: Point| ((p.x / step).round() as i64, (p.y / step).round() as i64);
        let (s, g) = (cell(from), cell(to));
        let mut dist = vec![f64::INFINITY; (nx * ny) as usize];
        let mut heap = BinaryHeap::new();
        dist[(s.1 * nx + s.0) as usize] = 0.0;
        heap.push(Reverse((0u64, s.0, s.1)));
        let mut moves = Vec::new();
        for (a, b) in [(1, 0), (1, 1), (2, 1), (1, 2)] {
            for (sa, sb) in [(1, 1), (-1, 1), (1, -1), (-1, -1)] {
                moves.push((a * sa, b * sb));
                moves.push((b * sb, a * sa));
            }
        }
        while let Some(Reverse((d, i, j))) = heap.pop() {
            let d = d as f64 * 1e-9;
            if (i, j) == g {
                return Some(d);
            }
            if d > dist[(j * nx + i) as usize] + 1e-12 {
                continue;
            }
            for &(di, dj) in &moves {
                let (a, b) = (i + di, j + dj);
                if a < 0 || b < 0 || a >= nx || b >= ny || !free[(b * nx + a) as usize] {
                    continue;
                }
                let mid = Point::new((i as f64 + di as f64 / 2.0) * step, (j as f64 + dj as f64 / 2.0) * step);
                if !self.free(mid, 0.0) {
                    continue;
                }
                let nd = d + step * f64::from((di * di + dj * dj) as i32).sqrt();
                if nd < dist[(b * nx + a) as usize] {
                    dist[(b * nx + a) as usize] = nd;
                    heap.push(Reverse(((nd * 1e9) as u64, a, b)));
                }
            }
        }
        None
    }
}

fn random_free(table: &Table, rng: &mut Xoshiro256PlusPlus, step: f64) -> Point {
    loop {
        let p = Point::new((rng.random_range(0.0..WIDTH) / step).round() * step, (rng.random_range(0.0..DEPTH) / step).round() * step);
        // off the octagons too, so the goal is the point itself
        if table.free(p, -0.3) {
            return p;
        }
    }
}

/// "Units may not move through impassable terrain"; "may never move through other models
/// or units"; "Models may never be within 1" of models from other units": every point of
/// a route keeps the mover's disc off buildings and 1" from other units, and the route is
/// as short as the shortest path on a fine grid, within the grid's own error.
#[test]
fn routes_are_legal_and_as_short_as_a_fine_grids() {
    let step = 0.25;
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(15);
    let (mut compared, mut unreached, mut worst) = (0, 0, (f64::INFINITY, 0.0f64));
    for _ in 0..40 {
        let table = Table::random(&mut rng);
        let (from, to) = (random_free(&table, &mut rng, step), random_free(&table, &mut rng, step));
        let mut paths = table.paths(from);
        let Some(length) = paths.shortest(from, Goal::Point(to), IMPASSABLE | UNIT, f64::INFINITY, f64::INFINITY, false) else { panic!("a route of some kind") };
        let route = paths.route.clone();
        let walked: f64 = route.windows(2).map(|w| w[0].distance(w[1])).sum();
        assert!((walked - length).abs() < 1e-9);
        for w in route.windows(2) {
            let n = (w[0].distance(w[1]) / 0.02).ceil().max(1.0) as usize;
            for k in 0..=n {
                let p = w[0].towards(w[1], w[0].distance(w[1]) * k as f64 / n as f64);
                assert!(table.free(p, 1e-6), "({:.3}, {:.3}) on the route {route:?} is not free", p.x, p.y);
            }
        }
        let grid = table.grid_shortest(from, to, step);
        let reached = route.last().is_some_and(|e| e.distance(to) < 1e-9);
        match grid {
            Some(g) if reached => {
                compared += 1;
                worst = (worst.0.min(length / g), worst.1.max(length / g));
                // octagons: at most 5.4% longer round a corner; the grid's 16 directions:
                // at most 2.7% longer anywhere
                assert!(length <= g * 1.03 + 0.5, "route {length:.3} against the grid's {g:.3}");
                // (the route is legal, checked above: the grid's cells near obstacles and
                // the 16 directions only make the grid's path longer)
                assert!(length >= g / 1.04 - 1.0, "route {length:.3} much shorter than the grid's {g:.3}");
            }
            // a gap the true shapes leave but the octagons close (at most 8% of a radius)
            Some(_) => unreached += 1,
            None => assert!(!reached || length > 0.0),
        }
    }
    eprintln!("{compared} routes compared with the grid: route / grid from {:.4} to {:.4}; {unreached} reachable only on the grid", worst.0, worst.1);
    assert!(compared >= 30 && unreached <= 3, "{compared} compared, {unreached} reachable only on the grid");
}

#[test]
fn a_start_near_a_corner_keeps_its_obstacle() {
    // 1.05" from a unit whose 1" gap would hold it in the plain octagon's corner
    let at = Point::new(30.0, 30.0);
    let from = Point::new(30.0 + 2.05 * 0.9, 30.0 + 2.05 * (1.0f64 - 0.81).sqrt());
    let plain = Octagon::new(at.x, at.y, at.x, at.y, 2.0, UNIT);
    assert!(plain.contains(from));
    let mut paths = Paths::default();
    paths.reset(Point::new(0.0, 0.0), Point::new(WIDTH, DEPTH));
    paths.add_disc(at, 2.0, 1.0, UNIT, from);
    assert_eq!(paths.octagons.len(), 1);
    let o = paths.octagons[0];
    assert!(!o.contains(from));
    for k in 0..64 {
        let a = f64::from(k) / 64.0 * std::f64::consts::TAU;
        assert!(o.contains(Point::new(at.x + 1.999 * a.cos(), at.y + 1.999 * a.sin())), "it still holds the whole disc");
    }
    let building = Piece::new("b", 10.0, 10.0, 14.0, 14.0, Kinds::default()).unwrap();
    let from = Point::new(14.0 + 0.72, 14.0 + 0.72);
    paths.add_piece(&building, 1.0, IMPASSABLE, from);
    assert_eq!(paths.octagons.len(), 2);
    assert!(!paths.octagons[1].contains(from) && paths.octagons[1].contains(Point::new(14.0 + 0.7, 14.0 + 0.7)));
}

#[test]
fn first_touch_is_where_sampled_points_first_come_near() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
    let piece = Piece::new("forest", 30.0, 20.0, 36.0, 24.0, Kinds::default()).unwrap();
    for _ in 0..2000 {
        let a = Point::new(rng.random_range(20.0..46.0), rng.random_range(10.0..34.0));
        let b = Point::new(rng.random_range(20.0..46.0), rng.random_range(10.0..34.0));
        let r = rng.random_range(0.3..3.0);
        let sampled = (0..=2000).map(|k| f64::from(k) / 2000.0).find(|&s| piece.distance_to(Point::new(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s)) < r);
        match (first_touch(a, b, r, &piece), sampled) {
            (Some(s), Some(t)) => assert!(s <= t + 1e-9 && t - s <= 1.0 / 2000.0 + 1e-9, "{s} against {t}"),
            (None, None) => {}
            // a graze thinner than the sampling
            (Some(s), None) => assert!(piece.distance_to(Point::new(a.x + (b.x - a.x) * s, a.y + (b.y - a.y) * s)) < r + 1e-9),
            (None, Some(t)) => panic!("missed a touch at {t}"),
        }
        assert_eq!(sweeps(a, b, r, &piece), first_touch(a, b, r, &piece).is_some());
    }
}

#[test]
fn walks_stop_at_the_allowance_and_keep_the_bends() {
    let route = [Point::new(0.0, 0.0), Point::new(3.0, 4.0), Point::new(3.0, 10.0), Point::new(9.0, 10.0)];
    let (bends, end, length) = walk(&route, 8.0);
    assert_eq!(bends.as_slice(), &[Point::new(3.0, 4.0)]);
    assert!((end.y - 7.0).abs() < 1e-12 && (length - 8.0).abs() < 1e-12);
    let (bends, end, length) = walk(&route, 100.0);
    assert_eq!((bends.as_slice().len(), end, length), (2, Point::new(9.0, 10.0), 17.0));
}

#[test]
fn charges_end_in_contact_round_an_obstacle() {
    // "(charge moves don't have to be in a straight line)": a wall between the charger and
    // its target; the route goes round it and ends touching the target.
    let r = 1.0;
    let mut paths = Paths::default();
    paths.reset(Point::new(r, r), Point::new(WIDTH - r, DEPTH - r));
    let from = Point::new(30.0, 10.0);
    let wall = Piece::new("wall", 27.0, 12.0, 33.0, 13.0, Kinds { impassable: true, ..Kinds::default() }).unwrap();
    paths.add_piece(&wall, r + MARGIN, IMPASSABLE, from);
    let target = Point::new(30.0, 16.0);
    let length = paths.shortest(from, Goal::Contact { centre: target, contact: 2.0 }, IMPASSABLE, 12.0, f64::INFINITY, false).expect("round the wall");
    let end = *paths.route.last().unwrap();
    assert!((end.distance(target) - 2.0).abs() < 1e-9 && paths.route.len() >= 3 && length <= 12.0);
    assert!(paths.shortest(from, Goal::Contact { centre: target, contact: 2.0 }, IMPASSABLE, 6.0, f64::INFINITY, false).is_none(), "too far round");
}
