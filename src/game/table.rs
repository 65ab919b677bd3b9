//! The battlefield: a 6'x4' table in inches, terrain pieces as rectangles, units as discs,
//! and the few geometric questions the game asks (does a line cross a piece, does a disc
//! overlap one, how far apart are two units).
//!
//! gf-3.5: "You are going to need a flat 6'x4' area to play on"; the standard table follows
//! the guide's "TERRAIN SETUP GUIDELINES" (see `standard_terrain` and docs/game-table.md for
//! how each sentence is read).

use super::rules::{GameRules, TableSize};
use crate::error::{Error, Result};
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

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
        // not `hypot`: coordinates are inches on a table, far from overflow, and the game
        // measures millions of distances
        self.distance2(o).sqrt()
    }

    /// The squared distance (`distance` is its root).
    #[inline]
    pub fn distance2(self, o: Point) -> f64 {
        let (dx, dy) = (self.x - o.x, self.y - o.y);
        dx * dx + dy * dy
    }

    /// The distance to the nearest of `points` (infinite when there are none): the least
    /// squared distance, then its root, which is the least root (the root is monotone and
    /// correctly rounded), for one root instead of one a point.
    pub fn nearest(self, points: &[Point]) -> f64 {
        points.iter().map(|o| o.distance2(self)).fold(f64::INFINITY, f64::min).sqrt()
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
        (dx * dx + dy * dy).sqrt()
    }

    /// Whether the segment `a`–`b` passes within `margin` of the rectangle (the rectangle
    /// grown by `margin` on each side: a disc of that radius moving along the segment).
    #[inline]
    pub fn crossed(&self, a: Point, b: Point, margin: f64) -> bool {
        segment_hits_box(a, b, self.x0 - margin, self.y0 - margin, self.x1 + margin, self.y1 + margin)
    }

    pub fn area(&self) -> f64 {
        (self.x1 - self.x0) * (self.y1 - self.y0)
    }
}

/// Liang–Barsky: whether the segment `a`–`b` meets the box.
#[inline]
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

/// Kinds of the standard pieces, as the guide's "guidelines for common terrain types" give them.
const BUILDING: Kinds = Kinds { blocking: true, cover: false, difficult: false, dangerous: false, impassable: true };
/// "Forests - Difficult + Cover + Units can see into and out of forests, but not through them".
const FOREST: Kinds = Kinds { blocking: true, cover: true, difficult: true, dangerous: false, impassable: false };
/// Ruins with standing walls: "Ruins - Cover", and their walls block sight ("Walls ... Rocks").
const RUINS: Kinds = Kinds { blocking: true, cover: true, difficult: false, dangerous: false, impassable: false };
/// "Fields - Difficult + Cover".
const FIELD: Kinds = Kinds { blocking: false, cover: true, difficult: true, dangerous: false, impassable: false };
/// "Rubble - Difficult".
const RUBBLE: Kinds = Kinds { blocking: false, cover: false, difficult: true, dangerous: false, impassable: false };
/// "Barricades - Cover".
const BARRICADE: Kinds = Kinds { blocking: false, cover: true, difficult: false, dangerous: false, impassable: false };
/// "Mine Fields" ("Each player should pick 1 piece to be dangerous").
const MINEFIELD: Kinds = Kinds { blocking: false, cover: false, difficult: false, dangerous: true, impassable: false };

/// The pieces each player places in their own half, `(name, kinds, smallest side, largest
/// side)`: "Large terrain features ... between 4"x4" and 8"x8"", "Small pieces of scatter
/// terrain, like ... barricades ... between 1"x1" and 3"x3"". The order is the order placed.
const HALF: [(&str, Kinds, f64, f64); 6] = [
    ("building", BUILDING, 6.0, 8.0),
    ("building", BUILDING, 6.0, 8.0),
    ("field", FIELD, 5.0, 8.0),
    ("rubble", RUBBLE, 4.0, 7.0),
    ("minefield", MINEFIELD, 4.0, 6.0),
    ("barricade", BARRICADE, 1.5, 3.0),
];
/// "make sure that there are gaps of at least 6" between terrain, so [large units] can fit
/// through": kept between every two pieces, except between two pieces of the central line of
/// sight band, which large units cross through (its forests and ruins are not impassable).
const LARGE_UNIT_GAP: f64 = 6.0;
/// "no gaps bigger than 12" between different terrain pieces".
#[cfg(test)]
const MAX_GAP: f64 = 12.0;
/// The largest side of a piece: "can be as large as 12"x12"".
const MAX_SIDE: f64 = 12.0;
/// Pieces in the central band (forests and ruins, alternately low and high across the table).
const BAND_PIECES: usize = 9;
/// The band's two rows are this far apart (inches), and two pieces of a row at least
/// `BAND_ROW_GAP.0` apart: narrow gaps, the price of blocking every line (see `standard_terrain`).
const BAND_CORRIDOR: (f64, f64) = (2.0, 2.5);
const BAND_ROW_GAP: (f64, f64) = (2.5, 3.0);
/// Coverage the generator aims at, a little over the guide's 25% so rounding never falls short.
const COVERAGE_AIM: f64 = 0.26;

/// A standard table (21 pieces), reproducible from the game's generator, placed by the two
/// players in turn: piece `i` is placed by seat `i % 2`, seat 0 (the `y = 0` edge, the
/// roll-off winner in `Game::new`) first ("alternate in placing one terrain piece each,
/// starting with the player that won the roll-off"). Each player places 6 pieces in their
/// own half (2 buildings, a field, rubble, a barricade and their dangerous minefield) and
/// every other piece of the band across the middle (9 forests and ruins).
///
/// How it meets "TERRAIN SETUP GUIDELINES" (docs/game-table.md gives the readings):
/// - "you can't draw clear line of sight from edge to edge across the table": no straight
///   line from a point of one long edge to a point of the other misses every blocking piece,
///   and none gets by grazing a corner either. The band's pieces alternate between a low row (top at
///   `y = c`) and a high row (bottom at `y = c + d`), each overlapping the next by `o > 1.5 d`
///   along the table, the first touching the left edge and the last the right. A line that
///   misses them must slip along the corridor between two overlapping pieces, moving `o`
///   across while rising at most `d`, flatter than 72" across for 48" up, which no line from
///   one long edge to the other is. Lines along the table (short edge to short edge) are not
///   blocked: units at about the same depth may still see each other.
/// - "gaps of at least 6" between terrain": every two pieces are 6" apart or more, except two
///   pieces of the band (2" or more), which large units cross through, not round.
/// - "no gaps bigger than 12"": each row of 6 pieces keeps 6" to 11.2" between neighbours; no
///   open disc 12" across fits on the table (checked in tests on a 0.5" grid).
/// - at least 25% of the table covered, pieces of 1" to 3" (barricades) or 4" to 12".
pub fn standard_terrain(rng: &mut Xoshiro256PlusPlus, table: TableSize) -> Vec<Piece> {
    let TableSize { width, depth } = table;
    let corridor = rng.random_range(BAND_CORRIDOR.0..=BAND_CORRIDOR.1);
    // the corridor's floor, about the table's middle
    let floor = depth / 2.0 - corridor / 2.0 + rng.random_range(-1.5..=1.5);
    let band_x = band_spans(rng, corridor, table);
    let first_low = rng.random_bool(0.5);
    let mirror_x = rng.random_bool(0.5);
    let flip = |x0: f64, x1: f64| if mirror_x { (width - x1, width - x0) } else { (x0, x1) };

    // the two halves' pieces along the table first (their area decides how deep the band is)
    let mut halves = [half_row(rng, width), half_row(rng, width)];
    let deepest_band = 7.0;

    // the band: forests and ruins, as deep as the coverage needs (4" to 7")
    let halves_area: f64 = halves.iter().flatten().map(Piece::area).sum();
    let band_width: f64 = band_x.iter().map(|(a, b)| b - a).sum();
    let mut depths = [0.0; BAND_PIECES];
    for d in depths.iter_mut() {
        *d = rng.random_range(4.5..=6.5);
    }
    let band_area: f64 = band_x.iter().zip(&depths).map(|((a, b), d)| (b - a) * d).sum();
    let short = COVERAGE_AIM * width * depth - halves_area - band_area;
    if short > 0.0 && band_width > 0.0 {
        let extra = short / band_width;
        for d in depths.iter_mut() {
            *d = (*d + extra).min(deepest_band);
        }
    }
    let mut forests = [false; BAND_PIECES];
    let forest_count = BAND_PIECES / 2 + usize::from(rng.random_bool(0.5));
    forests.iter_mut().take(forest_count).for_each(|f| *f = true);
    shuffle(rng, &mut forests);
    let band: Vec<Piece> = (0..BAND_PIECES)
        .map(|i| {
            let (x0, x1) = flip(band_x[i].0, band_x[i].1);
            let low = (i % 2 == 0) == first_low;
            let (y0, y1) = if low { (floor - depths[i], floor) } else { (floor + corridor, floor + corridor + depths[i]) };
            let (name, kinds) = if forests[i] { ("forest", FOREST) } else { ("ruins", RUINS) };
            Piece { name: name.to_string(), x0, y0, x1, y1, kinds }
        })
        .collect();

    // each half's row stands 6" to 7.5" clear of the band's deepest piece (nearer would crowd,
    // further would leave open ground between them); seat 1's from the far edge
    let low_bottom = band.iter().filter(|p| p.y1 <= floor).map(|p| p.y0).fold(floor, f64::min);
    let high_top = band.iter().filter(|p| p.y0 >= floor).map(|p| p.y1).fold(floor + corridor, f64::max);
    for (seat, half) in halves.iter_mut().enumerate() {
        let room = if seat == 0 { low_bottom } else { depth - high_top } - LARGE_UNIT_GAP;
        for p in half.iter_mut() {
            let h = (p.y1 - p.y0).min(room.max(0.0));
            let top = (room - rng.random_range(0.0..=1.5)).max(h);
            (p.y0, p.y1) = if seat == 0 { (top - h, top) } else { (depth - top, depth - top + h) };
            (p.x0, p.x1) = flip(p.x0, p.x1);
        }
    }

    // placement order: the seats alternate, seat 0 first; each places its half, then every
    // other piece of the band
    let [half0, half1] = halves;
    let mut lists = [half0, half1];
    for (i, p) in band.into_iter().enumerate() {
        lists[i % 2].push(p);
    }
    let mut out = Vec::with_capacity(lists[0].len() + lists[1].len());
    let [a, b] = lists;
    let mut b = b.into_iter();
    for p in a {
        out.push(p);
        out.extend(b.next());
    }
    out.extend(b);
    out
}

/// The band's pieces along the table, left to right: `BAND_PIECES` spans from `x = 0` to
/// the table's width, each overlapping the next by more than the steepest line's slope
/// (72" across for 48" up) times the corridor, each at least 2.5" clear of the next but one
/// (they share a row), none over 12" long.
fn band_spans(rng: &mut Xoshiro256PlusPlus, corridor: f64, table: TableSize) -> [(f64, f64); BAND_PIECES] {
    let width = table.width;
    // overlaps 10% to 20% beyond the least that blocks the steepest line
    let least = table.width / table.depth * corridor;
    let mut overlaps = [0.0; BAND_PIECES - 1];
    for o in overlaps.iter_mut() {
        *o = least * rng.random_range(1.1..=1.2);
    }
    // the least length of each piece: its two overlaps and the gap to its row neighbours
    let mut least_len = [0.0; BAND_PIECES];
    for (i, len) in least_len.iter_mut().enumerate() {
        let before = if i > 0 { overlaps[i - 1] } else { 0.0 };
        let after = overlaps.get(i).copied().unwrap_or(0.0);
        let row_gap = rng.random_range(BAND_ROW_GAP.0..=BAND_ROW_GAP.1);
        *len = if i == 0 || i + 1 == BAND_PIECES { (before + after + 2.0).max(6.0) } else { before + after + row_gap };
    }
    // lengthen every piece by the same share of its headroom until the chain spans the table
    let total: f64 = width + overlaps.iter().sum::<f64>();
    let least_total: f64 = least_len.iter().sum();
    let headroom: f64 = least_len.iter().map(|l| (MAX_SIDE - l).max(0.0)).sum();
    let share = if headroom > 0.0 { ((total - least_total) / headroom).clamp(0.0, 1.0) } else { 0.0 };
    let mut out = [(0.0, 0.0); BAND_PIECES];
    let mut x = 0.0;
    for i in 0..BAND_PIECES {
        let len = (least_len[i] + (MAX_SIDE - least_len[i]).max(0.0) * share).min(MAX_SIDE);
        out[i] = (x, (x + len).min(width));
        x += len - overlaps.get(i).copied().unwrap_or(0.0);
    }
    // the last piece reaches the right edge whatever the rounding
    out[BAND_PIECES - 1].1 = width;
    out
}

/// One player's 6 pieces (`HALF`), in a row along the table, in a shuffled order, 6" to 12"
/// between neighbours (`y` from 0 to their depth: `standard_terrain` moves them into place).
fn half_row(rng: &mut Xoshiro256PlusPlus, width: f64) -> Vec<Piece> {
    let mut sizes = [(0.0, 0.0); HALF.len()];
    for (s, (_, _, lo, hi)) in sizes.iter_mut().zip(HALF) {
        *s = (rng.random_range(lo..=hi), rng.random_range(lo..=hi));
    }
    let mut order = [0, 1, 2, 3, 4, 5];
    shuffle(rng, &mut order);
    // the open length beyond the 6" gaps, shared at random between the 5 gaps and 2 ends
    let widths: f64 = sizes.iter().map(|s| s.0).sum();
    let spare = (width - widths - LARGE_UNIT_GAP * (HALF.len() - 1) as f64).max(0.0);
    let mut weights = [0.0; HALF.len() + 1];
    for w in weights.iter_mut() {
        *w = rng.random_range(0.5..=1.5);
    }
    let weight_sum: f64 = weights.iter().sum();
    let mut out: Vec<Piece> = HALF.iter().map(|(name, kinds, _, _)| Piece { name: name.to_string(), x0: 0.0, y0: 0.0, x1: 0.0, y1: 0.0, kinds: *kinds }).collect();
    let mut x = spare * weights[0] / weight_sum;
    for (slot, &i) in order.iter().enumerate() {
        let (w, h) = sizes[i];
        out[i] = Piece { x0: x, y0: 0.0, x1: x + w, y1: h, ..out[i].clone() };
        x += w + LARGE_UNIT_GAP + spare * weights[slot + 1] / weight_sum;
    }
    out
}

/// Fisher–Yates, from the game's generator.
fn shuffle<T>(rng: &mut Xoshiro256PlusPlus, items: &mut [T]) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.random_range(0..=i));
    }
}

/// `pieces` cut to the table: each piece's part on it, and none that has no area left
/// (a generator laid out for a wider table may run past a smaller one's edge).
pub fn cut_to(pieces: Vec<Piece>, table: TableSize) -> Vec<Piece> {
    pieces
        .into_iter()
        .filter_map(|p| {
            let (x0, x1, y0, y1) = (p.x0.max(0.0), p.x1.min(table.width), p.y0.max(0.0), p.y1.min(table.depth));
            (x1 - x0 > 0.5 && y1 - y0 > 0.5).then(|| Piece { x0, x1, y0, y1, ..p })
        })
        .collect()
}

/// Objectives a game takes at most (D3+2 is at most 5; a user's own list may hold more).
pub const MAX_OBJECTIVES: usize = 20;

/// "D3+2 objective markers ... alternate in placing one marker each outside of the deployment
/// zones, and over 9" away from other markers (... can't be placed in unreachable positions,
/// like impassable terrain)". Markers keep 2" from the table edges and impassable terrain.
pub fn place_objectives(rng: &mut Xoshiro256PlusPlus, terrain: &[Piece], rules: &GameRules, out: &mut Vec<Point>) {
    let (TableSize { width, depth }, zone) = (rules.table, rules.deployment.depth);
    // D3: "roll a D6 and halve the result, rounding up"
    let count = rules.markers.least + u32::from(rng.random_range(1..=6u8)).div_ceil(2);
    for _ in 0..count {
        for _ in 0..500 {
            let p = Point::new(rng.random_range(2.0..=width - 2.0), rng.random_range(zone + 0.01..=depth - zone - 0.01));
            let free = terrain.iter().all(|t| !t.kinds.impassable || t.distance_to(p) > 2.0);
            if free && out.iter().all(|o| o.distance(p) > rules.markers.spacing) {
                out.push(p);
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    const SEEDS: u64 = 500;
    const V3_5: GameRules = GameRules::V3_5;
    const WIDTH: f64 = V3_5.table.width;
    const DEPTH: f64 = V3_5.table.depth;
    const DEPLOY_DEPTH: f64 = V3_5.deployment.depth;
    const OBJECTIVE_SPACING: f64 = V3_5.markers.spacing;

    fn table(seed: u64) -> Vec<Piece> {
        standard_terrain(&mut Xoshiro256PlusPlus::seed_from_u64(seed), V3_5.table)
    }

    /// Pieces of the central band (the only ones allowed nearer than 6" to each other).
    fn in_band(p: &Piece) -> bool {
        p.name == "forest" || p.name == "ruins"
    }

    /// Shortest distance between two rectangles (0 when they touch or overlap).
    fn gap(a: &Piece, b: &Piece) -> f64 {
        let dx = (a.x0 - b.x1).max(b.x0 - a.x1).max(0.0);
        let dy = (a.y0 - b.y1).max(b.y0 - a.y1).max(0.0);
        (dx * dx + dy * dy).sqrt()
    }

    fn nearest(t: &[Piece], p: Point) -> f64 {
        t.iter().map(|q| q.distance_to(p)).fold(f64::INFINITY, f64::min)
    }

    /// A straight line from one long edge to the other (`long`), or from one short edge to the
    /// other, that enters no blocking piece, or `None`. Lines grazing a corner or running along
    /// a side count as clear. Exact: the lines that enter no piece form closed regions of the
    /// plane of lines whose corners are lines through two of these points (corners of the
    /// blocking pieces and of the table), so if any line is clear one of those is.
    fn clear_line(t: &[Piece], long: bool) -> Option<(Point, Point)> {
        // in the frame where the line runs from v = 0 to v = depth
        let boxes: Vec<[f64; 4]> = t
            .iter()
            .filter(|p| p.kinds.blocking)
            .map(|p| if long { [p.x0, p.y0, p.x1, p.y1] } else { [p.y0, p.x0, p.y1, p.x1] })
            .collect();
        let (width, depth) = if long { (WIDTH, DEPTH) } else { (DEPTH, WIDTH) };
        let mut points = vec![(0.0, 0.0), (width, 0.0), (0.0, depth), (width, depth)];
        for b in &boxes {
            points.extend([(b[0], b[1]), (b[2], b[1]), (b[0], b[3]), (b[2], b[3])]);
        }
        const EPS: f64 = 1e-9;
        for (i, &(u1, v1)) in points.iter().enumerate() {
            for &(u2, v2) in &points[i + 1..] {
                if (v2 - v1).abs() < 1e-12 {
                    continue;
                }
                let slope = (u2 - u1) / (v2 - v1);
                let (from, to) = (u1 - slope * v1, u1 + slope * (depth - v1));
                if from < -EPS || from > width + EPS || to < -EPS || to > width + EPS {
                    continue;
                }
                // a line along a table edge does not cross the table
                let along_edge = |u: f64| u.abs() < EPS || (u - width).abs() < EPS;
                if along_edge(from) && along_edge(to) && (from - to).abs() < EPS {
                    continue;
                }
                let enters = boxes.iter().any(|b| {
                    let (ua, ub) = (from + slope * b[1], from + slope * b[3]);
                    ua.max(ub) > b[0] + EPS && ua.min(ub) < b[2] - EPS
                });
                if !enters {
                    let (a, b) = (Point::new(from, 0.0), Point::new(to, depth));
                    return Some(if long { (a, b) } else { (Point::new(a.y, a.x), Point::new(b.y, b.x)) });
                }
            }
        }
        None
    }

    /// Radius of the widest open disc fully on the table, centres on a 0.5" grid (the true
    /// widest is at most 0.36" more).
    fn widest_open_radius(t: &[Piece]) -> f64 {
        widest_open_disc(t).1
    }

    fn widest_open_disc(t: &[Piece]) -> (Point, f64) {
        let mut best = (Point::default(), 0.0f64);
        for i in 0..=144 {
            for j in 0..=96 {
                let p = Point::new(0.5 * f64::from(i), 0.5 * f64::from(j));
                let edge = p.x.min(WIDTH - p.x).min(p.y).min(DEPTH - p.y);
                let r = nearest(t, p).min(edge);
                if r > best.1 {
                    best = (p, r);
                }
            }
        }
        best
    }

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
    fn the_clear_line_search_finds_lanes_and_closed_tables() {
        let wall = |x0, y0, x1, y1| Piece::new("wall", x0, y0, x1, y1, BUILDING).unwrap();
        assert!(clear_line(&[], true).is_some() && clear_line(&[], false).is_some());
        // a full-width wall closes the long direction, not the short one
        let closed = [wall(0.0, 20.0, WIDTH, 28.0)];
        assert!(clear_line(&closed, true).is_none());
        assert!(clear_line(&closed, false).is_some());
        // two walls meeting at x = 40: only the line along their shared side is clear
        let lane = [wall(0.0, 22.0, 40.0, 26.0), wall(40.0, 22.0, WIDTH, 26.0)];
        let (a, b) = clear_line(&lane, true).expect("the line along x = 40");
        assert!((a.x - 40.0).abs() < 1e-9 && (b.x - 40.0).abs() < 1e-9, "{a:?} {b:?}");
        // three rows of the guide's largest pieces 6" apart still leave a grazing diagonal
        let mut brick = Vec::new();
        for (row, y) in [0.0, 18.0, 36.0].into_iter().enumerate() {
            let shift = if row == 1 { -9.0 } else { 0.0 };
            for k in -1..5 {
                let x0 = (shift + 18.0 * f64::from(k)).max(0.0);
                let x1 = (shift + 18.0 * f64::from(k) + 12.0).min(WIDTH);
                if x1 > x0 {
                    brick.push(wall(x0, y, x1, y + 12.0));
                }
            }
        }
        assert!(clear_line(&brick, true).is_some(), "pieces all 6\" apart cannot close every line");
    }

    #[test]
    fn the_exact_search_finds_every_sampled_clear_line() {
        // random walls: whenever a line of the 1" grid of ends is clear, the exact search must
        // find one too (it may find more: lines between the grid's ends)
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(3);
        let (mut open_tables, mut closed_tables) = (0, 0);
        for _ in 0..300 {
            let walls: Vec<Piece> = (0..rng.random_range(4..=14))
                .map(|_| {
                    let (w, h) = (rng.random_range(2.0..=14.0), rng.random_range(2.0..=14.0));
                    let (x, y) = (rng.random_range(0.0..=WIDTH - w), rng.random_range(0.0..=DEPTH - h));
                    Piece::new("wall", x, y, x + w, y + h, BUILDING).unwrap()
                })
                .collect();
            let (long, short) = sampled_clear_lines(&walls);
            for (sampled, along_long) in [(long, true), (short, false)] {
                let exact = clear_line(&walls, along_long);
                assert!(sampled == 0.0 || exact.is_some(), "{walls:?}");
                if let Some((a, b)) = exact {
                    assert!(walls.iter().all(|p| !p.crossed(a, b, -1e-6)), "{a:?} {b:?} enters a wall");
                    open_tables += 1;
                } else {
                    closed_tables += 1;
                }
            }
        }
        assert!(open_tables > 0, "{open_tables} open, {closed_tables} closed");
        // and on standard tables, closed across exactly, no sampled line gets across either
        for seed in 0..50 {
            assert_eq!(sampled_clear_lines(&table(seed)).0, 0.0, "seed {seed}");
        }
    }

    #[test]
    fn the_standard_table_follows_the_guidelines() {
        for seed in 0..SEEDS {
            let t = table(seed);
            // "you should use at least 15-20 pieces of terrain"
            assert!(t.len() >= 15, "seed {seed}: at least 15 pieces");
            // "take as many pieces of terrain as you need to fully cover at least 25% of the table"
            let covered: f64 = t.iter().map(Piece::area).sum();
            assert!(covered >= 0.25 * WIDTH * DEPTH, "seed {seed}: {covered} square inches");
            // "At least 50% should block line of sight, At least 33% should provide cover,
            // At least 33% should be difficult terrain"
            let count = |f: fn(&Kinds) -> bool| t.iter().filter(|p| f(&p.kinds)).count();
            assert!(2 * count(|k| k.blocking) >= t.len());
            assert!(3 * count(|k| k.cover) >= t.len());
            assert!(3 * count(|k| k.difficult) >= t.len());
            // "Each player should pick 1 piece to be dangerous"
            let dangerous: Vec<_> = t.iter().filter(|p| p.kinds.dangerous).collect();
            assert_eq!(dangerous.len(), 2);
            assert!(dangerous[0].y1 <= DEPTH / 2.0 && dangerous[1].y0 >= DEPTH / 2.0, "one in each half");
            // "Buildings - Impassable + Blocking", "Forests - Difficult + Cover", ...
            for p in &t {
                let expected = match p.name.as_str() {
                    "building" => BUILDING,
                    "forest" => FOREST,
                    "ruins" => RUINS,
                    "field" => FIELD,
                    "rubble" => RUBBLE,
                    "barricade" => BARRICADE,
                    "minefield" => MINEFIELD,
                    other => panic!("unexpected piece {other}"),
                };
                assert_eq!(p.kinds, expected, "{}", p.name);
            }
        }
    }

    #[test]
    fn pieces_have_the_guide_sizes_and_stay_on_the_table() {
        // "Small pieces of scatter terrain ... between 1"x1" and 3"x3"", "Large terrain
        // features ... between 4"x4" and 8"x8" in size, but can be as large as 12"x12""
        for seed in 0..SEEDS {
            for p in table(seed) {
                let (short, long) = ((p.x1 - p.x0).min(p.y1 - p.y0), (p.x1 - p.x0).max(p.y1 - p.y0));
                let (lo, hi) = if p.name == "barricade" { (1.0, 3.0) } else { (4.0, MAX_SIDE) };
                assert!(short >= lo - 1e-9 && long <= hi + 1e-9, "seed {seed}: {p:?}");
                assert!(p.x0 >= 0.0 && p.y0 >= 0.0 && p.x1 <= WIDTH + 1e-9 && p.y1 <= DEPTH + 1e-9, "seed {seed}: {p:?}");
            }
        }
    }

    #[test]
    fn no_line_of_sight_runs_from_one_long_edge_to_the_other() {
        // "place enough blocking terrain that you can't draw clear line of sight from edge to
        // edge across the table": checked exactly, grazing lines counted as clear
        for seed in 0..SEEDS {
            let t = table(seed);
            assert_eq!(clear_line(&t, true), None, "seed {seed}: {t:?}");
        }
    }

    #[test]
    fn gaps_let_large_units_through_and_leave_no_open_ground() {
        for seed in 0..SEEDS {
            let t = table(seed);
            for (i, a) in t.iter().enumerate() {
                let mut closest = f64::INFINITY;
                for (j, b) in t.iter().enumerate() {
                    if i == j {
                        continue;
                    }
                    let g = gap(a, b);
                    closest = closest.min(g);
                    // no overlaps; "gaps of at least 6" between terrain, so they can fit
                    // through", except inside the band, whose pieces units cross
                    assert!(g >= BAND_CORRIDOR.0 - 1e-9, "seed {seed}: {a:?} {b:?}");
                    if !(in_band(a) && in_band(b)) {
                        assert!(g >= LARGE_UNIT_GAP - 1e-9, "seed {seed}: {} {} {g}", a.name, b.name);
                    }
                    assert!(!a.kinds.impassable || g >= LARGE_UNIT_GAP - 1e-9);
                }
                // "no gaps bigger than 12" between different terrain pieces"
                assert!(closest <= MAX_GAP, "seed {seed}: {} is {closest}\" from the nearest", a.name);
            }
            // and no open disc 12" across fits anywhere on the table
            let (at, r) = widest_open_disc(&t);
            assert!(2.0 * (r + 0.36) <= MAX_GAP, "seed {seed}: an open disc {:.1}\" across at {at:?}: {t:?}", 2.0 * r);
        }
    }

    #[test]
    fn the_seats_alternate_and_each_can_deploy() {
        for seed in 0..SEEDS {
            let t = table(seed);
            for (i, p) in t.iter().enumerate() {
                // piece i is placed by seat i % 2; the seats' own pieces stand in their own half
                if !in_band(p) {
                    let seat = usize::from(p.y0 >= DEPTH / 2.0);
                    assert_eq!(i % 2, seat, "seed {seed}: {} at {i}", p.name);
                }
            }
            // "fully within 12" of their table edge": most of each zone is open to deployment
            for zone in [(0.0, DEPLOY_DEPTH), (DEPTH - DEPLOY_DEPTH, DEPTH)] {
                let blocked: f64 = t
                    .iter()
                    .filter(|p| p.kinds.impassable)
                    .map(|p| (p.x1 - p.x0) * (p.y1.min(zone.1) - p.y0.max(zone.0)).max(0.0))
                    .sum();
                assert!(WIDTH * DEPLOY_DEPTH - blocked >= 700.0, "seed {seed}: {blocked} square inches blocked");
            }
            let mut objectives = Vec::new();
            place_objectives(&mut Xoshiro256PlusPlus::seed_from_u64(seed), &t, &V3_5, &mut objectives);
            assert!((3..=5).contains(&objectives.len()));
            for (i, a) in objectives.iter().enumerate() {
                assert!(a.y > DEPLOY_DEPTH && a.y < DEPTH - DEPLOY_DEPTH);
                assert!(objectives[i + 1..].iter().all(|b| a.distance(*b) > OBJECTIVE_SPACING));
                assert!(t.iter().all(|p| !p.kinds.impassable || !p.contains(*a)));
            }
        }
    }

    #[test]
    fn the_table_is_reproducible() {
        assert_eq!(table(7), table(7));
        assert_ne!(table(7), table(8));
    }

    /// Figures of the standard table for the docs (run with
    /// `cargo test --release --lib game::table -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn standard_table_figures() {
        let start = std::time::Instant::now();
        let mut total = 0usize;
        for seed in 0..20_000u64 {
            total += table(seed).len();
        }
        let per_table = start.elapsed().as_secs_f64() / 20_000.0;
        let seeds = 2000u64;
        let (mut coverage, mut pieces, mut near6, mut clear_long, mut clear_short, mut widest) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0f64);
        let (mut tables_long, mut tables_short) = (0, 0);
        let (mut least_cover, mut most_cover, mut widest_gap) = (1.0f64, 0.0f64, 0.0f64);
        for seed in 0..seeds {
            let t = table(seed);
            pieces += t.len() as f64;
            let share = t.iter().map(Piece::area).sum::<f64>() / (WIDTH * DEPTH);
            coverage += share;
            (least_cover, most_cover) = (least_cover.min(share), most_cover.max(share));
            for a in &t {
                let closest = t.iter().filter(|b| !std::ptr::eq(a, *b)).map(|b| gap(a, b)).fold(f64::INFINITY, f64::min);
                widest_gap = widest_gap.max(closest);
            }
            // area within 6" of a piece, on a 0.5" grid of cell centres
            let (mut n, mut within) = (0, 0);
            for i in 0..144 {
                for j in 0..96 {
                    n += 1;
                    within += usize::from(nearest(&t, Point::new(0.25 + 0.5 * f64::from(i), 0.25 + 0.5 * f64::from(j))) <= 6.0);
                }
            }
            near6 += within as f64 / f64::from(n);
            widest += 2.0 * widest_open_radius(&t);
            let (long, short) = sampled_clear_lines(&t);
            clear_long += long;
            clear_short += short;
            tables_long += usize::from(clear_line(&t, true).is_some());
            tables_short += usize::from(clear_line(&t, false).is_some());
        }
        let k = seeds as f64;
        println!(
            "{seeds} tables: {:.1} pieces, coverage {:.1}%, area within 6\" of a piece {:.1}%, widest open disc {:.1}\" (mean), \
             clear long-edge lines {:.2}% (tables with one: {tables_long}), clear short-edge lines {:.2}% (tables with one: \
             {tables_short}), {:.2} us per table ({total} pieces timed)",
            pieces / k,
            100.0 * coverage / k,
            100.0 * near6 / k,
            widest / k,
            100.0 * clear_long / k,
            100.0 * clear_short / k,
            per_table * 1e6
        );
        println!(
            "coverage from {:.1}% to {:.1}%; the farthest any piece stands from its nearest: {widest_gap:.1}\"",
            100.0 * least_cover,
            100.0 * most_cover
        );
    }

    /// Games on standard tables: games per second on one thread, how often the first player
    /// wins, and the share of shots whose line crosses cover terrain (from 100 traced games).
    /// Run with `cargo test --release --lib game::table -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn games_on_standard_tables() {
        use crate::edition::Edition;
        use crate::game::prepare::Prepared;
        use crate::game::{simulate, Config, Terrain};
        use crate::profile::Unit;
        let army = |v: &[&str]| v.iter().map(|t| Unit::parse(t, Edition::V3_5).unwrap()).collect::<Vec<_>>();
        let a = army(&["Grunts [10] Q5+ D5+\n10x Rifle (24\", A1)", "Snipers [5] Q4+ D5+\n5x Sniper Rifle (30\", A1, AP(1))", "Brutes [3] Q4+ D4+ | Tough(3), Furious\n3x Claws (A3, AP(1))"]);
        let b = army(&["Grunts [10] Q5+ D5+\n10x Rifle (24\", A1)", "Grunts [10] Q5+ D5+\n10x Rifle (24\", A1)", "Brutes [3] Q4+ D4+ | Tough(3), Furious\n3x Claws (A3, AP(1))"]);
        let prep = Prepared::new([&a, &b], Edition::V3_5, [2.0, 2.0]).unwrap();
        let mut config = Config::new(11, Terrain::Standard);
        let games = 4000;
        let start = std::time::Instant::now();
        let out = simulate(&prep, &config, 0, games, Some(1)).unwrap();
        let rate = games as f64 / start.elapsed().as_secs_f64();
        let first_wins = out.records.iter().filter(|r| r.winner == if r.first == 0 { 1 } else { -1 }).count();
        config.trace = true;
        let traced = simulate(&prep, &config, 0, 100, Some(1)).unwrap();
        let (mut shots, mut covered) = (0, 0);
        for t in &traced.traces {
            for e in t.events.iter().filter(|e| e.kind == "shoot") {
                shots += 1;
                covered += usize::from(t.terrain.iter().any(|p| p.kinds.cover && p.crossed(e.from, e.to, 0.0) && (p.contains(e.to) || !p.contains(e.from))));
            }
        }
        println!(
            "{games} games: {rate:.0} games/s on 1 thread, first player won {:.1}%, draws {:.1}%; {shots} shots in 100 games, {:.1}% through or into cover terrain",
            100.0 * first_wins as f64 / games as f64,
            100.0 * out.records.iter().filter(|r| r.winner == 0).count() as f64 / games as f64,
            100.0 * covered as f64 / shots.max(1) as f64
        );
    }

    /// Shares of straight lines that enter no blocking piece: long edge to long edge (ends on
    /// a 1" grid of both long edges) and short edge to short edge (the table's own edges left out).
    fn sampled_clear_lines(t: &[Piece]) -> (f64, f64) {
        let blocking: Vec<&Piece> = t.iter().filter(|p| p.kinds.blocking).collect();
        let share = |from: &dyn Fn(f64) -> Point, to: &dyn Fn(f64) -> Point, len: f64| {
            let steps = len as u32;
            let (mut n, mut clear) = (0u32, 0u32);
            for i in 0..=steps {
                for j in 0..=steps {
                    let (a, b) = (from(f64::from(i)), to(f64::from(j)));
                    if i == j && (i == 0 || i == steps) {
                        continue; // along a table edge, not across the table
                    }
                    n += 1;
                    clear += u32::from(!blocking.iter().any(|p| p.crossed(a, b, -1e-9)));
                }
            }
            f64::from(clear) / f64::from(n)
        };
        (
            share(&|x| Point::new(x, 0.0), &|x| Point::new(x, DEPTH), WIDTH),
            share(&|y| Point::new(0.0, y), &|y| Point::new(WIDTH, y), DEPTH),
        )
    }
}
