//! The battlefield: a 6'x4' table in inches, terrain pieces as rectangles, units as discs,
//! and the few geometric questions the game asks (does a line cross a piece, does a disc
//! overlap one, how far apart are two units).
//!
//! gf-3.5: "You are going to need a flat 6'x4' area to play on"; "place at least 15 pieces
//! of terrain"; "At least 50% should block line of sight, At least 33% should provide cover,
//! At least 33% should be difficult terrain, Each player should pick 1 piece to be dangerous".

use crate::error::{Error, Result};
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

/// Table width (the long edges) and depth, in inches.
pub const WIDTH: f64 = 72.0;
pub const DEPTH: f64 = 48.0;
/// "fully within 12" of their table edge".
pub const DEPLOY_DEPTH: f64 = 12.0;
/// Terrain pieces one table takes at most (a user's own terrain included).
pub const MAX_TERRAIN: usize = 200;

/// A point on the table, in inches; seat 0's long edge is `y = 0`.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Point {
    pub x: f64,
    pub y: f64,
}

impl Point {
    pub fn new(x: f64, y: f64) -> Point {
        Point { x, y }
    }

    pub fn distance(self, o: Point) -> f64 {
        (self.x - o.x).hypot(self.y - o.y)
    }

    /// The point `d` inches from here towards `to` (or `to` itself if nearer).
    pub fn towards(self, to: Point, d: f64) -> Point {
        let len = self.distance(to);
        if len <= d || len == 0.0 {
            return to;
        }
        Point::new(self.x + (to.x - self.x) * d / len, self.y + (to.y - self.y) * d / len)
    }

    /// Distance from this point to the segment `a`–`b`.
    pub fn distance_to_segment(self, a: Point, b: Point) -> f64 {
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let len2 = dx * dx + dy * dy;
        let t = if len2 == 0.0 { 0.0 } else { (((self.x - a.x) * dx + (self.y - a.y) * dy) / len2).clamp(0.0, 1.0) };
        self.distance(Point::new(a.x + t * dx, a.y + t * dy))
    }
}

/// What a piece of terrain does (a piece may be several kinds: a forest is blocking, cover
/// and difficult).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Kinds {
    /// "Units may not draw line of sight through blocking terrain" (units inside it, or
    /// looking into it, still see: "Units can see into and out of forests, but not through them").
    pub blocking: bool,
    /// "+1 to Defense rolls when blocking hits from shooting attacks".
    pub cover: bool,
    /// "all models in the unit may not move more than 6" for that movement".
    pub difficult: bool,
    /// "must take a dangerous terrain test".
    pub dangerous: bool,
    /// "Units may not move through impassable terrain".
    pub impassable: bool,
}

/// A piece of terrain: an axis-aligned rectangle and its kinds.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    pub name: String,
    pub x0: f64,
    pub y0: f64,
    pub x1: f64,
    pub y1: f64,
    pub kinds: Kinds,
}

impl Piece {
    pub fn new(name: &str, x0: f64, y0: f64, x1: f64, y1: f64, kinds: Kinds) -> Result<Piece> {
        for (field, v) in [("x0", x0), ("y0", y0), ("x1", x1), ("y1", y1)] {
            if !v.is_finite() {
                return Err(Error::invalid(format!("terrain {name:?} {field}"), v, "must be a finite number of inches"));
            }
        }
        if x1 <= x0 || y1 <= y0 {
            return Err(Error::invalid(format!("terrain {name:?}"), format!("({x0}, {y0})-({x1}, {y1})"), "x1 must exceed x0 and y1 must exceed y0"));
        }
        Ok(Piece { name: name.to_string(), x0, y0, x1, y1, kinds })
    }

    pub fn contains(&self, p: Point) -> bool {
        p.x >= self.x0 && p.x <= self.x1 && p.y >= self.y0 && p.y <= self.y1
    }

    /// Distance from `p` to the rectangle (0 inside).
    pub fn distance_to(&self, p: Point) -> f64 {
        let dx = (self.x0 - p.x).max(0.0).max(p.x - self.x1);
        let dy = (self.y0 - p.y).max(0.0).max(p.y - self.y1);
        dx.hypot(dy)
    }

    /// Whether the segment `a`–`b` passes within `margin` of the rectangle (the rectangle
    /// grown by `margin` on each side: a disc of that radius moving along the segment).
    pub fn crossed(&self, a: Point, b: Point, margin: f64) -> bool {
        segment_hits_box(a, b, self.x0 - margin, self.y0 - margin, self.x1 + margin, self.y1 + margin)
    }

    pub fn area(&self) -> f64 {
        (self.x1 - self.x0) * (self.y1 - self.y0)
    }
}

/// Liang–Barsky: whether the segment `a`–`b` meets the box.
fn segment_hits_box(a: Point, b: Point, x0: f64, y0: f64, x1: f64, y1: f64) -> bool {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for (p, q) in [(-dx, a.x - x0), (dx, x1 - a.x), (-dy, a.y - y0), (dy, y1 - a.y)] {
        if p == 0.0 {
            if q < 0.0 {
                return false;
            }
        } else {
            let r = q / p;
            if p < 0.0 {
                if r > t1 {
                    return false;
                }
                t0 = t0.max(r);
            } else {
                if r < t0 {
                    return false;
                }
                t1 = t1.min(r);
            }
        }
    }
    t0 <= t1
}

/// The pieces of the standard table: 16 pieces (the rulebook asks for at least 15), with
/// 10 blocking sight (4 buildings, 4 forests, 2 ruined walls), 8 giving cover (forests, walls
/// and barricades), 6 difficult (forests and rubble) and one dangerous piece in each half.
/// `(name, kinds, smallest side, largest side)`.
const STANDARD: [(&str, Kinds, f64, f64); 16] = {
    const B: Kinds = Kinds { blocking: true, cover: false, difficult: false, dangerous: false, impassable: true };
    const F: Kinds = Kinds { blocking: true, cover: true, difficult: true, dangerous: false, impassable: false };
    const W: Kinds = Kinds { blocking: true, cover: true, difficult: false, dangerous: false, impassable: false };
    const C: Kinds = Kinds { blocking: false, cover: true, difficult: false, dangerous: false, impassable: false };
    const D: Kinds = Kinds { blocking: false, cover: false, difficult: true, dangerous: false, impassable: false };
    const X: Kinds = Kinds { blocking: false, cover: false, difficult: false, dangerous: true, impassable: false };
    [
        ("building", B, 4.0, 8.0),
        ("building", B, 4.0, 8.0),
        ("building", B, 4.0, 8.0),
        ("building", B, 4.0, 8.0),
        ("forest", F, 5.0, 8.0),
        ("forest", F, 5.0, 8.0),
        ("forest", F, 5.0, 8.0),
        ("forest", F, 5.0, 8.0),
        ("ruined wall", W, 1.0, 6.0),
        ("ruined wall", W, 1.0, 6.0),
        ("barricade", C, 1.0, 3.0),
        ("barricade", C, 1.0, 3.0),
        ("rubble", D, 3.0, 6.0),
        ("rubble", D, 3.0, 6.0),
        ("minefield", X, 3.0, 5.0),
        ("minefield", X, 3.0, 5.0),
    ]
};

/// The gap kept between standard pieces, so that units can pass ("make sure that there are
/// gaps of at least 6" between terrain" for large units: we keep 3", and large units go round).
const GAP: f64 = 3.0;

/// A standard table, placed at random from the game's generator: pieces fall anywhere on the
/// table without overlapping (3" apart); the two dangerous pieces fall one in each half.
pub fn standard_terrain(rng: &mut Xoshiro256PlusPlus) -> Vec<Piece> {
    let mut out: Vec<Piece> = Vec::with_capacity(STANDARD.len());
    let mut dangerous_seen = 0;
    for (name, kinds, lo, hi) in STANDARD {
        for attempt in 0..200 {
            // after many failures, shrink the piece so a crowded table still fills
            let scale = if attempt < 100 { 1.0 } else { 0.6 };
            let w = rng.random_range(lo..=hi) * scale;
            let h = if name == "ruined wall" { lo * scale } else { rng.random_range(lo..=hi) * scale };
            let (w, h) = if rng.random_bool(0.5) { (w, h) } else { (h, w) };
            let (ymin, ymax) = if kinds.dangerous {
                // "Each player should pick 1 piece to be dangerous": one in each half
                if dangerous_seen == 0 { (0.0, DEPTH / 2.0 - h) } else { (DEPTH / 2.0, DEPTH - h) }
            } else {
                (0.0, DEPTH - h)
            };
            let x0 = rng.random_range(0.0..=WIDTH - w);
            let y0 = rng.random_range(ymin..=ymax);
            let piece = Piece { name: name.to_string(), x0, y0, x1: x0 + w, y1: y0 + h, kinds };
            let clear = out.iter().all(|o| piece.x1 + GAP <= o.x0 || o.x1 + GAP <= piece.x0 || piece.y1 + GAP <= o.y0 || o.y1 + GAP <= piece.y0);
            if clear {
                out.push(piece);
                break;
            }
        }
        if kinds.dangerous {
            dangerous_seen += 1;
        }
    }
    out
}

/// Objectives a game takes at most (D3+2 is at most 5; a user's own list may hold more).
pub const MAX_OBJECTIVES: usize = 20;
/// "over 9" away from other markers".
pub const OBJECTIVE_SPACING: f64 = 9.0;

/// "D3+2 objective markers ... alternate in placing one marker each outside of the deployment
/// zones, and over 9" away from other markers (... can't be placed in unreachable positions,
/// like impassable terrain)". Markers keep 2" from the table edges and impassable terrain.
pub fn place_objectives(rng: &mut Xoshiro256PlusPlus, terrain: &[Piece]) -> Vec<Point> {
    // D3: "roll a D6 and halve the result, rounding up"
    let count = 2 + u32::from(rng.random_range(1..=6u8)).div_ceil(2);
    let mut out: Vec<Point> = Vec::new();
    for _ in 0..count {
        for _ in 0..500 {
            let p = Point::new(rng.random_range(2.0..=WIDTH - 2.0), rng.random_range(DEPLOY_DEPTH + 0.01..=DEPTH - DEPLOY_DEPTH - 0.01));
            let free = terrain.iter().all(|t| !t.kinds.impassable || t.distance_to(p) > 2.0);
            if free && out.iter().all(|o| o.distance(p) > OBJECTIVE_SPACING) {
                out.push(p);
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn segments_and_boxes() {
        let p = Piece::new("b", 10.0, 10.0, 12.0, 12.0, Kinds::default()).unwrap();
        assert!(p.crossed(Point::new(0.0, 11.0), Point::new(20.0, 11.0), 0.0));
        assert!(!p.crossed(Point::new(0.0, 13.0), Point::new(20.0, 13.0), 0.0));
        assert!(p.crossed(Point::new(0.0, 13.0), Point::new(20.0, 13.0), 1.5), "a disc of radius 1.5 touches it");
        assert!(!p.crossed(Point::new(0.0, 0.0), Point::new(9.0, 9.0), 0.0));
        assert!((p.distance_to(Point::new(15.0, 16.0)) - 5.0).abs() < 1e-12);
    }

    #[test]
    fn the_standard_table_follows_the_guidelines() {
        for seed in 0..50 {
            let t = standard_terrain(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
            assert!(t.len() >= 15, "at least 15 pieces");
            let share = |f: fn(&Kinds) -> bool| t.iter().filter(|p| f(&p.kinds)).count() as f64 / t.len() as f64;
            assert!(share(|k| k.blocking) >= 0.5 && share(|k| k.cover) >= 1.0 / 3.0 && share(|k| k.difficult) >= 1.0 / 3.0);
            let dangerous: Vec<_> = t.iter().filter(|p| p.kinds.dangerous).collect();
            assert_eq!(dangerous.len(), 2);
            assert!(dangerous[0].y1 <= DEPTH / 2.0 && dangerous[1].y0 >= DEPTH / 2.0, "one in each half");
            let objectives = place_objectives(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &t);
            assert!((3..=5).contains(&objectives.len()));
            for (i, a) in objectives.iter().enumerate() {
                assert!(a.y > DEPLOY_DEPTH && a.y < DEPTH - DEPLOY_DEPTH);
                assert!(objectives[i + 1..].iter().all(|b| a.distance(*b) > 9.0));
            }
        }
    }
}

/// Figures of the standard table over many seeds, for the docs and the audit (run with
/// `cargo test --release --lib game::table::figures -- --ignored --nocapture`).
#[cfg(test)]
mod figures {
    use super::*;
    use rand::SeedableRng;

    /// Distance from `p` to the nearest piece (infinite on an empty table).
    fn nearest(t: &[Piece], p: Point) -> f64 {
        t.iter().map(|q| q.distance_to(p)).fold(f64::INFINITY, f64::min)
    }

    #[test]
    #[ignore]
    fn standard_table_figures() {
        let seeds = 2000u64;
        let start = std::time::Instant::now();
        let mut total = 0usize;
        for seed in 0..20_000u64 {
            total += standard_terrain(&mut Xoshiro256PlusPlus::seed_from_u64(seed)).len();
        }
        let per_table = start.elapsed().as_secs_f64() / 20_000.0;
        let (mut coverage, mut pieces, mut near6, mut clear_long, mut clear_short, mut widest) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0f64);
        for seed in 0..seeds {
            let t = standard_terrain(&mut Xoshiro256PlusPlus::seed_from_u64(seed));
            pieces += t.len() as f64;
            coverage += t.iter().map(Piece::area).sum::<f64>() / (WIDTH * DEPTH);
            // area within 6" of a piece, on a 0.5" grid of cell centres
            let (mut n, mut within) = (0, 0);
            for i in 0..144 {
                for j in 0..96 {
                    n += 1;
                    within += usize::from(nearest(&t, Point::new(0.25 + 0.5 * i as f64, 0.25 + 0.5 * j as f64)) <= 6.0);
                }
            }
            near6 += within as f64 / n as f64;
            // the widest empty disc fully on the table (centres on a 0.5" grid)
            let mut r = 0.0f64;
            for i in 0..=144 {
                for j in 0..=96 {
                    let p = Point::new(0.5 * i as f64, 0.5 * j as f64);
                    let edge = p.x.min(WIDTH - p.x).min(p.y).min(DEPTH - p.y);
                    r = r.max(nearest(&t, p).min(edge));
                }
            }
            widest += 2.0 * r;
            let blocking: Vec<&Piece> = t.iter().filter(|p| p.kinds.blocking).collect();
            let (long, short) = sampled_clear_lines(&blocking);
            clear_long += long;
            clear_short += short;
        }
        let k = seeds as f64;
        println!(
            "{seeds} tables: {:.1} pieces, coverage {:.1}%, area within 6\" of a piece {:.1}%, widest empty disc {:.1}\" (mean), \
             clear long-edge lines {:.2}%, clear short-edge lines {:.2}%, {:.2} us per table ({total} pieces timed)",
            pieces / k,
            100.0 * coverage / k,
            100.0 * near6 / k,
            widest / k,
            100.0 * clear_long / k,
            100.0 * clear_short / k,
            per_table * 1e6
        );
    }

    /// Shares of straight lines that miss every blocking piece: long edge to long edge
    /// (ends on a 1" grid of the two long edges) and short edge to short edge.
    fn sampled_clear_lines(blocking: &[&Piece]) -> (f64, f64) {
        let share = |from: &dyn Fn(f64) -> Point, to: &dyn Fn(f64) -> Point, len: f64| {
            let steps = len as usize;
            let (mut n, mut clear) = (0, 0);
            for i in 0..=steps {
                for j in 0..=steps {
                    let (a, b) = (from(i as f64), to(j as f64));
                    n += 1;
                    clear += usize::from(!blocking.iter().any(|p| p.crossed(a, b, -1e-9)));
                }
            }
            clear as f64 / n as f64
        };
        (
            share(&|x| Point::new(x, 0.0), &|x| Point::new(x, DEPTH), WIDTH),
            share(&|y| Point::new(0.0, y), &|y| Point::new(WIDTH, y), DEPTH),
        )
    }
}
