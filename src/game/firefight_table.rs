//! Firefight's table: 4'x4', at least half covered, as gf-firefight-3.2's "Terrain Placement"
//! asks ("fully cover at least 50% of the table", "no gaps bigger than 6" between different
//! terrain pieces", "gaps of at least 3" between terrain pieces", no "clear line of sight from
//! edge to edge across the table"). docs/game-table.md ("The Firefight table") gives the readings.
//!
//! The pieces are the same `Piece` values as the v3.5 table's, so the game plays on either.

#[cfg(test)]
use super::rules::TableSize;
use super::table::{shuffle, Kinds, Piece, BUILDING, FIELD, FOREST, MAX_SIDE, MINEFIELD, RUBBLE};
use rand::RngExt;
use rand_xoshiro::Xoshiro256PlusPlus;

/// "You are going to need a flat 4'x4' surface to play on": the table this layout is for
/// (`GameRules::FIREFIGHT_3_2`'s, a test checks; its checks measure on it).
#[cfg(test)]
pub(crate) const FIREFIGHT_TABLE: TableSize = TableSize { width: 48.0, depth: 48.0 };

/// Walls (blocking terrain's "Walls, Buildings, Rocks"), low enough to climb ("up to 3"
/// tall can be climbed as part of a unit's regular movement") and cover, since they "could
/// stop projectiles". Firefight's own "Ruins" are cover and "Dangerous when using
/// rush/charge", which the game does not model, so the table has no ruins.
const WALLS: Kinds = Kinds { blocking: true, cover: true, difficult: false, dangerous: false, impassable: false };

/// Half the table's side: the generator works about the table's centre.
const HALF_SIDE: f64 = 24.0;
/// Half the centre piece's side (the largest piece the guide allows, 12"x12").
const CENTRE_HALF: f64 = MAX_SIDE / 2.0;
/// The gap between two linked pieces of a chain, one beyond the other (`firefight_terrain`):
/// over the 3" large units need.
const LINK_GAP: (f64, f64) = (3.05, 3.3);
/// How far two linked pieces overlap, as a multiple of their gap: over 1, the steepest slope
/// of a line from one edge of a square table to the opposite one.
const LINK_OVERLAP: (f64, f64) = (1.1, 1.2);
/// The gap between two pieces of the same row of an arm: over 3", and under 4.5" so that no
/// disc over 6" fits where it meets the gap between the rows.
const ROW_GAP: (f64, f64) = (3.5, 4.5);
/// The open strip between a deep piece and the table edge, and the gap between a piece and an
/// edge piece or the next arm (a little over 3", so that rounding never falls short).
const EDGE_GAP: (f64, f64) = (3.05, 3.3);
/// How much shallower than it could be an arm's middle piece is (its depth is bounded by the
/// room left beside the next arm's first piece).
const MIDDLE_DEPTH_SLACK: f64 = 0.5;
/// How deep an arm's outer pieces are when an edge piece stands beyond them.
const SHALLOW_DEPTH: (f64, f64) = (6.0, 7.0);
/// Edge pieces beyond each arm (2, 1, 1 and 1 in turn round the table, from a random arm):
/// 18 pieces with the 13 of the two chains, the text's own example.
const EDGE_PIECES: [usize; 4] = [2, 1, 1, 1];
/// The edge pieces other than the two minefields.
const OTHER_EDGE_PIECES: [(&str, Kinds); 3] = [("building", BUILDING), ("field", FIELD), ("rubble", RUBBLE)];
/// Chain pieces that are forests at least (the rest are walls).
const LEAST_FORESTS: usize = 6;

// every edge piece gets a kind; the ranges drawn from are never empty, whatever the overlap
const _: () = assert!(EDGE_PIECES[0] + EDGE_PIECES[1] + EDGE_PIECES[2] + EDGE_PIECES[3] == 2 + OTHER_EDGE_PIECES.len());
const _: () = assert!(2.0 * CENTRE_HALF - LINK_GAP.1 * LINK_OVERLAP.1 - EDGE_GAP.0 - MIDDLE_DEPTH_SLACK >= 4.0);
const _: () = assert!(MAX_SIDE - 2.0 * LINK_GAP.1 * LINK_OVERLAP.1 >= ROW_GAP.0);

/// A rectangle about the table's centre, `(u0, v0, u1, v1)`.
type Rect = (f64, f64, f64, f64);

/// A Firefight table (18 pieces, 48"x48"), reproducible from the game's generator.
///
/// Two chains of blocking pieces cross the table, one from the left edge to the right edge and
/// one from the bottom edge to the top edge, sharing a 12"x12" piece at the centre. Each has
/// two arms of three pieces, and the four arms turn about the centre like a pinwheel (each is
/// the last one turned a quarter turn). Along a chain, each piece overlaps the next by `o`
/// and stands `d` beyond it (above or below it in the left-right chain, beside it in the other),
/// with `o > d`. A straight line that passes between two such pieces moves `o` one way while
/// moving at most `d` the other, flatter than 45 degrees to the chain, and no line from one
/// edge to the opposite edge is: so none gets across either chain. Lines between adjacent edges
/// that cross both of the table's centre lines are stopped too, as measured (the tests check
/// it exactly; the chains alone do not prove it). The gaps between pieces are 3.05" to 4.5",
/// so large units pass and no open disc over about 5.5" fits. Beyond the arms, five pieces stand against the table edges: a building, a field,
/// rubble and the two players' minefields, one in each half (`y < 24` and `y > 24`).
///
/// Piece `i` is placed by seat `i % 2` where it can be: seat 0's pieces are those of the
/// `y < 24` half, seat 1's those of the other, the centre piece and any surplus last.
pub(crate) fn firefight_terrain(rng: &mut Xoshiro256PlusPlus) -> Vec<Piece> {
    let c = CENTRE_HALF;
    let d = rng.random_range(LINK_GAP.0..=LINK_GAP.1);
    let o = d * rng.random_range(LINK_OVERLAP.0..=LINK_OVERLAP.1);
    let turn = rng.random_range(0..4usize);
    let mirror = rng.random_bool(0.5);
    // each arm's middle piece comes within `2c - o - middle` of the next arm's first piece:
    // over 3"
    let deepest_middle = 2.0 * c - o - EDGE_GAP.0;
    let mut middle = [0.0; 4];
    for m in middle.iter_mut() {
        *m = rng.random_range(deepest_middle - MIDDLE_DEPTH_SLACK..=deepest_middle);
    }
    let mut chains: Vec<Rect> = vec![(-c, -c, c, c)];
    let mut edges: Vec<Rect> = Vec::with_capacity(5);
    for arm in 0..4 {
        let edge_pieces = EDGE_PIECES[(arm + turn) % 4];
        let (shapes, beyond) = arm_pieces(rng, d, o, middle[arm], middle[(arm + 1) % 4], edge_pieces);
        chains.extend(shapes.iter().map(|r| quarter_turns(*r, arm)));
        edges.extend(beyond.iter().map(|r| quarter_turns(*r, arm)));
    }
    let place = |r: Rect| {
        let (u0, v0, u1, v1) = if mirror { (-r.2, r.1, -r.0, r.3) } else { r };
        (u0 + HALF_SIDE, v0 + HALF_SIDE, u1 + HALF_SIDE, v1 + HALF_SIDE)
    };

    // kinds: forests and walls along the chains; a minefield in each half, then a building,
    // a field and rubble at the edges
    let mut forests = [false; 13];
    let forest_count = LEAST_FORESTS + usize::from(rng.random_bool(0.5));
    forests.iter_mut().take(forest_count).for_each(|f| *f = true);
    shuffle(rng, &mut forests);
    let mut pieces: Vec<Piece> = chains
        .iter()
        .zip(forests)
        .map(|(r, forest)| piece(if forest { ("forest", FOREST) } else { ("walls", WALLS) }, place(*r)))
        .collect();
    let edges: Vec<Rect> = edges.into_iter().map(place).collect();
    let low: Vec<usize> = (0..edges.len()).filter(|&i| edges[i].3 <= HALF_SIDE).collect();
    let high: Vec<usize> = (0..edges.len()).filter(|&i| edges[i].1 >= HALF_SIDE).collect();
    let mines = [low[rng.random_range(0..low.len())], high[rng.random_range(0..high.len())]];
    let mut others = OTHER_EDGE_PIECES;
    shuffle(rng, &mut others);
    for (i, r) in edges.iter().enumerate() {
        if mines.contains(&i) {
            pieces.push(piece(("minefield", MINEFIELD), *r));
        }
    }
    let rest = (0..edges.len()).filter(|i| !mines.contains(i));
    pieces.extend(rest.zip(others).map(|(i, kind)| piece(kind, edges[i])));
    in_placing_order(pieces)
}

/// One arm, in the frame of the arm that leaves the centre piece to the right (the others are
/// this one turned): its three chain pieces and the edge pieces that may stand beyond them.
/// The first piece stands above the centre piece's right part, the second below the first's
/// right part (level with the centre piece's top), the third above the second's right part,
/// against the table's right edge. `middle` is the second piece's depth, `next_middle` the
/// next arm's (whose second piece, turned, stands above this arm's first on the left).
fn arm_pieces(rng: &mut Xoshiro256PlusPlus, d: f64, o: f64, middle: f64, next_middle: f64, edge_pieces: usize) -> ([Rect; 3], Vec<Rect>) {
    let (c, h) = (CENTRE_HALF, HALF_SIDE);
    // the row gaps: each piece is its two overlaps and the gap between its neighbours long
    let longest_gap = ROW_GAP.1.min(MAX_SIDE - 2.0 * o);
    let first_len = 2.0 * o + rng.random_range(ROW_GAP.0..=longest_gap);
    let second_len = 2.0 * o + rng.random_range(ROW_GAP.0..=longest_gap);
    // deep: to a strip 3.05" to 3.3" from the table edge; shallow: an edge piece stands beyond
    let mut depth = |deep: bool| {
        if deep {
            (h - c - d - rng.random_range(EDGE_GAP.0..=EDGE_GAP.1)).min(MAX_SIDE)
        } else {
            rng.random_range(SHALLOW_DEPTH.0..=SHALLOW_DEPTH.1)
        }
    };
    let first_depth = depth(edge_pieces < 2);
    let third_depth = depth(edge_pieces < 1);
    let first = (c - o, c + d, c - o + first_len, c + d + first_depth);
    let second = (first.2 - o, c - middle, first.2 - o + second_len, c);
    let third = (second.2 - o, c + d, h, c + d + third_depth);
    let mut beyond = Vec::with_capacity(2);
    let gap = rng.random_range(EDGE_GAP.0..=EDGE_GAP.1);
    if edge_pieces == 1 {
        // beyond the third piece, right of the (deep) first
        beyond.push((first.2 + gap, third.3 + gap, h, h));
    } else if edge_pieces >= 2 {
        // a row of two along the edge, from beside the next arm's middle piece to the corner
        let bottom = first.3.max(third.3) + gap;
        let left = next_middle - c + rng.random_range(EDGE_GAP.0..=EDGE_GAP.1);
        let between = rng.random_range(ROW_GAP.0..=ROW_GAP.1);
        let split = (left + h - between) / 2.0;
        beyond.push((left, bottom, split, h));
        beyond.push((split + between, bottom, h, h));
    }
    ([first, second, third], beyond)
}

/// `r` turned `k` quarter turns anticlockwise about the table's centre.
fn quarter_turns(r: Rect, k: usize) -> Rect {
    (0..k % 4).fold(r, |(u0, v0, u1, v1), _| (-v1, u0, -v0, u1))
}

fn piece((name, kinds): (&str, Kinds), (x0, y0, x1, y1): Rect) -> Piece {
    Piece { name: name.to_string(), x0, y0, x1, y1, kinds }
}

/// The seats alternate, seat 0 (the `y = 0` edge) first, each placing a piece of its own half.
fn in_placing_order(pieces: Vec<Piece>) -> Vec<Piece> {
    let count = pieces.len();
    let (low, rest): (Vec<Piece>, Vec<Piece>) = pieces.into_iter().partition(|p| p.y1 <= HALF_SIDE);
    let (high, middle): (Vec<Piece>, Vec<Piece>) = rest.into_iter().partition(|p| p.y0 >= HALF_SIDE);
    let mut out = Vec::with_capacity(count);
    let mut high = high.into_iter();
    for p in low {
        out.push(p);
        out.extend(high.next());
    }
    out.extend(high);
    out.extend(middle);
    out
}

/// The checks measure a table on their own, from its pieces alone (nothing of the generator's
/// construction), so that they would catch a generator that strays.
#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::table::{standard_terrain, Point};
    use rand::SeedableRng;

    const SEEDS: u64 = 500;
    const SIDE: f64 = FIREFIGHT_TABLE.width;
    /// "places one unit fully within 12" of their table edge".
    const ZONE: f64 = 12.0;
    /// "no gaps bigger than 6" between different terrain pieces".
    const WIDEST_GAP: f64 = 6.0;
    /// "gaps of at least 3" between terrain pieces, so they can fit through".
    const PASSAGE: f64 = 3.0;

    fn table(seed: u64) -> Vec<Piece> {
        firefight_terrain(&mut Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    fn rect(name: &str, kinds: Kinds, x0: f64, y0: f64, x1: f64, y1: f64) -> Piece {
        Piece::new(name, x0, y0, x1, y1, kinds).unwrap()
    }

    /// The table's four edges, as their two ends: bottom (`y = 0`), right, top, left.
    fn edges() -> [(Point, Point); 4] {
        let (a, b, c, d) = (Point::new(0.0, 0.0), Point::new(SIDE, 0.0), Point::new(SIDE, SIDE), Point::new(0.0, SIDE));
        [(a, b), (b, c), (d, c), (a, d)]
    }

    /// The four deployment zones, `(x0, y0, x1, y1)`: "fully within 12" of their table edge",
    /// on any edge (in the order of `edges`).
    fn zones() -> [Rect; 4] {
        [(0.0, 0.0, SIDE, ZONE), (SIDE - ZONE, 0.0, SIDE, SIDE), (0.0, SIDE - ZONE, SIDE, SIDE), (0.0, 0.0, ZONE, SIDE)]
    }

    /// Area of the union of the pieces `keep` picks, within `clip`: exact, summed over the
    /// cells of the grid drawn through every piece's sides.
    fn union_area(t: &[Piece], clip: Rect, keep: impl Fn(&Piece) -> bool) -> f64 {
        let kept: Vec<&Piece> = t.iter().filter(|p| keep(p)).collect();
        let (mut xs, mut ys) = (vec![clip.0, clip.2], vec![clip.1, clip.3]);
        for p in &kept {
            xs.extend([p.x0.clamp(clip.0, clip.2), p.x1.clamp(clip.0, clip.2)]);
            ys.extend([p.y0.clamp(clip.1, clip.3), p.y1.clamp(clip.1, clip.3)]);
        }
        for v in [&mut xs, &mut ys] {
            v.sort_by(f64::total_cmp);
            v.dedup();
        }
        let mut area = 0.0;
        for x in xs.windows(2) {
            for y in ys.windows(2) {
                let centre = Point::new((x[0] + x[1]) / 2.0, (y[0] + y[1]) / 2.0);
                if kept.iter().any(|p| p.contains(centre)) {
                    area += (x[1] - x[0]) * (y[1] - y[0]);
                }
            }
        }
        area
    }

    /// "fully cover at least 50% of the table": the share of the table inside some piece.
    fn covered_share(t: &[Piece]) -> f64 {
        union_area(t, (0.0, 0.0, SIDE, SIDE), |_| true) / (SIDE * SIDE)
    }

    /// The widest open disc lying on the table (touching no piece's inside), as its centre and
    /// diameter, to 0.02": best-first branch and bound over squares. The room at a point (its
    /// distance to the nearest piece or table edge) changes by at most the distance moved, so
    /// no point of a square of half-side `s` has more room than its centre plus `s * sqrt(2)`:
    /// squares are split in four, most promising first, until none can beat the widest found.
    fn widest_open_disc(t: &[Piece]) -> (Point, f64) {
        use std::collections::BinaryHeap;
        const TOLERANCE: f64 = 0.01;
        let room = |p: Point| t.iter().map(|q| q.distance_to(p)).fold(p.x.min(p.y).min(SIDE - p.x).min(SIDE - p.y), f64::min);
        let mut best = (Point::default(), 0.0f64);
        // (bound as bits, which order as the bounds do since they are not negative, centre, half-side)
        let mut squares = BinaryHeap::new();
        let push = |squares: &mut BinaryHeap<(u64, u64, u64, u64)>, best: &mut (Point, f64), p: Point, s: f64| {
            let r = room(p);
            if r > best.1 {
                *best = (p, r);
            }
            squares.push(((r + s * std::f64::consts::SQRT_2).to_bits(), p.x.to_bits(), p.y.to_bits(), s.to_bits()));
        };
        for i in 0..12 {
            for j in 0..12 {
                push(&mut squares, &mut best, Point::new(2.0 + 4.0 * f64::from(i), 2.0 + 4.0 * f64::from(j)), 2.0);
            }
        }
        while let Some((bound, x, y, s)) = squares.pop() {
            if f64::from_bits(bound) <= best.1 + TOLERANCE {
                break;
            }
            let (x, y, h) = (f64::from_bits(x), f64::from_bits(y), f64::from_bits(s) / 2.0);
            for (dx, dy) in [(-h, -h), (h, -h), (-h, h), (h, h)] {
                push(&mut squares, &mut best, Point::new(x + dx, y + dy), h);
            }
        }
        (best.0, 2.0 * (best.1 + TOLERANCE))
    }

    /// The least gap between two pieces (0 where they touch or overlap).
    fn least_gap(t: &[Piece]) -> f64 {
        let mut least = f64::INFINITY;
        for (i, a) in t.iter().enumerate() {
            for b in &t[i + 1..] {
                let dx = (a.x0 - b.x1).max(b.x0 - a.x1).max(0.0);
                let dy = (a.y0 - b.y1).max(b.y0 - a.y1).max(0.0);
                least = least.min((dx * dx + dy * dy).sqrt());
            }
        }
        least
    }

    /// Where the line through `p` and `q` meets the segment `s` (its ends included), if it does.
    fn meet(p: Point, q: Point, s: (Point, Point)) -> Option<Point> {
        let (rx, ry) = (q.x - p.x, q.y - p.y);
        let (sx, sy) = (s.1.x - s.0.x, s.1.y - s.0.y);
        let cross = sx * ry - sy * rx;
        if cross.abs() < 1e-12 {
            return None;
        }
        // s.0 + u (s.1 - s.0) on the line: (p - s.0) x r = u (s.1 - s.0) x r
        let u = ((p.x - s.0.x) * ry - (p.y - s.0.y) * rx) / cross;
        (-1e-9..=1.0 + 1e-9).contains(&u).then(|| Point::new(s.0.x + u * sx, s.0.y + u * sy))
    }

    /// A straight line from a point of the segment `a` to a point of `b` (parts of table edges)
    /// entering no blocking piece, or `None`; lines grazing a corner or running along a side
    /// count as clear, lines along a table edge do not cross the table and are left out.
    /// Exact: the clear lines meeting both segments form closed regions of the plane of lines,
    /// and the corners of those regions are lines through two of these points: the corners of
    /// the blocking pieces and the segments' ends. So if any line is clear, one of those is.
    fn clear_line(t: &[Piece], a: (Point, Point), b: (Point, Point)) -> Option<(Point, Point)> {
        let blocking: Vec<&Piece> = t.iter().filter(|p| p.kinds.blocking).collect();
        let mut points = vec![a.0, a.1, b.0, b.1];
        for p in &blocking {
            points.extend([Point::new(p.x0, p.y0), Point::new(p.x1, p.y0), Point::new(p.x0, p.y1), Point::new(p.x1, p.y1)]);
        }
        let on_edge = |u: f64| u.abs() < 1e-9 || (u - SIDE).abs() < 1e-9;
        for (i, &p) in points.iter().enumerate() {
            for &q in &points[i + 1..] {
                if p.distance(q) < 1e-9 {
                    continue;
                }
                let (Some(from), Some(to)) = (meet(p, q, a), meet(p, q, b)) else { continue };
                let along_edge = (on_edge(from.x) && (from.x - to.x).abs() < 1e-9) || (on_edge(from.y) && (from.y - to.y).abs() < 1e-9);
                if from.distance(to) < 1e-9 || along_edge {
                    continue;
                }
                if blocking.iter().all(|p| !p.crossed(from, to, -1e-9)) {
                    return Some((from, to));
                }
            }
        }
        None
    }

    /// Clear lines between opposite edges (both pairs: armies deploy on any edge and the
    /// opposite one), and between adjacent edges for lines across the table: both ends at
    /// least half the side from the corner the two edges share, so the line crosses both of the
    /// table's centre lines.
    fn clear_lines(t: &[Piece]) -> Vec<(Point, Point)> {
        let e = edges();
        let mut found: Vec<(Point, Point)> = [(e[0], e[2]), (e[3], e[1])].into_iter().filter_map(|(a, b)| clear_line(t, a, b)).collect();
        let half = |(a, b): (Point, Point), from_a: bool| {
            let m = Point::new((a.x + b.x) / 2.0, (a.y + b.y) / 2.0);
            if from_a {
                (m, b)
            } else {
                (a, m)
            }
        };
        // corners: bottom-left (bottom from the left, left from the bottom), bottom-right, top-right, top-left
        for (s, t_, s_from_start, t_from_start) in [(0, 3, true, true), (0, 1, false, true), (2, 1, false, false), (2, 3, true, false)] {
            found.extend(clear_line(t, half(e[s], s_from_start), half(e[t_], t_from_start)));
        }
        found
    }

    /// For each deployment zone (`zones`), the share of it free of impassable terrain.
    fn free_zone_shares(t: &[Piece]) -> [f64; 4] {
        zones().map(|z| 1.0 - union_area(t, z, |p| p.kinds.impassable) / ((z.2 - z.0) * (z.3 - z.1)))
    }

    /// Which deployment zones a disc `width` across can reach from which, through open ground
    /// (touching no piece, on the table): a flood fill over a 0.5" grid of centres with room
    /// for the disc, 4-connected. Between two such centres the room dips at most 0.02"
    /// (the distance to a rectangle is convex along a segment; the worst is a corner midway).
    /// A disc starts or ends in a zone when it lies fully within it.
    fn linked_zones(t: &[Piece], width: f64) -> [[bool; 4]; 4] {
        const STEP: f64 = 0.5;
        let n = (SIDE / STEP) as usize + 1;
        let r = width / 2.0;
        let at = |i: usize| STEP * i as f64;
        // the centres with room: each piece rules out those within `r` of it
        let mut room = vec![true; n * n];
        for (i, row) in room.chunks_mut(n).enumerate() {
            if at(i) < r || at(i) > SIDE - r {
                row.fill(false);
            }
            for (j, cell) in row.iter_mut().enumerate() {
                *cell &= at(j) >= r && at(j) <= SIDE - r;
            }
        }
        for q in t {
            let span = |lo: f64, hi: f64| ((lo - r) / STEP).floor().max(0.0) as usize..=(((hi + r) / STEP).ceil() as usize).min(n - 1);
            for i in span(q.x0, q.x1) {
                for j in span(q.y0, q.y1) {
                    room[i * n + j] &= q.distance_to(Point::new(at(i), at(j))) >= r;
                }
            }
        }
        let open = |i: usize, j: usize| room[i * n + j];
        let mut component = vec![usize::MAX; n * n];
        let mut reach = [[false; 4]; 4];
        let zones = zones();
        for start in 0..n * n {
            if component[start] != usize::MAX || !open(start / n, start % n) {
                continue;
            }
            let (mut stack, mut touched) = (vec![start], [false; 4]);
            component[start] = start;
            while let Some(k) = stack.pop() {
                let (i, j) = (k / n, k % n);
                let p = Point::new(at(i), at(j));
                for (z, zone) in zones.iter().enumerate() {
                    touched[z] |= p.x - r >= zone.0 && p.x + r <= zone.2 && p.y - r >= zone.1 && p.y + r <= zone.3;
                }
                let next = [(i.wrapping_sub(1), j), (i + 1, j), (i, j.wrapping_sub(1)), (i, j + 1)];
                for (a, b) in next {
                    if a < n && b < n && component[a * n + b] == usize::MAX && open(a, b) {
                        component[a * n + b] = start;
                        stack.push(a * n + b);
                    }
                }
            }
            for a in 0..4 {
                for b in 0..4 {
                    reach[a][b] |= touched[a] && touched[b];
                }
            }
        }
        reach
    }

    #[test]
    fn it_is_the_table_firefight_games_are_played_on() {
        let rules = crate::game::rules::GameRules::FIREFIGHT_3_2;
        assert_eq!(rules.table, FIREFIGHT_TABLE);
        assert_eq!(rules.terrain, crate::game::rules::TerrainRecipe::Firefight);
    }

    #[test]
    fn the_pieces_follow_the_texts_mix() {
        // "Example: If you're playing with 18 pieces of terrain, at least 9 should block line
        // of sight, 6 should provide cover, 6 should be difficult terrain, and 2 should be
        // dangerous terrain"; "Each player should pick 1 piece to be dangerous"
        for seed in 0..SEEDS {
            let t = table(seed);
            assert_eq!(t.len(), 18, "seed {seed}");
            let count = |f: fn(&Kinds) -> bool| t.iter().filter(|p| f(&p.kinds)).count();
            assert!(count(|k| k.blocking) >= 9 && count(|k| k.cover) >= 6 && count(|k| k.difficult) >= 6, "seed {seed}");
            let dangerous: Vec<&Piece> = t.iter().filter(|p| p.kinds.dangerous).collect();
            assert_eq!(dangerous.len(), 2, "seed {seed}");
            assert!(dangerous.iter().any(|p| p.y1 <= SIDE / 2.0) && dangerous.iter().any(|p| p.y0 >= SIDE / 2.0), "one in each half: seed {seed}");
            for half in [(0.0, SIDE / 2.0), (SIDE / 2.0, SIDE)] {
                let buildings = t.iter().filter(|p| p.kinds.impassable && p.y0 >= half.0 && p.y1 <= half.1).count();
                assert!(buildings <= 1, "seed {seed}: at most one building a half");
            }
            // "Buildings - Impassable + Blocking", "Forests - Difficult + Cover + ...", ...
            for p in &t {
                let expected = match p.name.as_str() {
                    "building" => BUILDING,
                    "forest" => FOREST,
                    "walls" => WALLS,
                    "field" => FIELD,
                    "rubble" => RUBBLE,
                    "minefield" => MINEFIELD,
                    other => panic!("unexpected piece {other}"),
                };
                assert_eq!(p.kinds, expected, "{}", p.name);
                // "Large terrain features ... between 4"x4" and 8"x8" in size, but can be as large as 12"x12""
                let (short, long) = ((p.x1 - p.x0).min(p.y1 - p.y0), (p.x1 - p.x0).max(p.y1 - p.y0));
                assert!(short >= 4.0 - 1e-9 && long <= MAX_SIDE + 1e-9, "seed {seed}: {p:?}");
                assert!(p.x0 >= 0.0 && p.y0 >= 0.0 && p.x1 <= SIDE && p.y1 <= SIDE, "seed {seed}: {p:?}");
            }
            // "alternate in placing one terrain piece each": seat 0 (y < 24) first
            let low = t.iter().filter(|p| p.y1 <= SIDE / 2.0).count();
            let high = t.iter().filter(|p| p.y0 >= SIDE / 2.0).count();
            for (i, p) in t.iter().take(2 * low.min(high)).enumerate() {
                assert_eq!(i % 2 == 0, p.y1 <= SIDE / 2.0, "seed {seed}: piece {i}");
            }
        }
    }

    #[test]
    fn half_the_table_is_covered_with_no_wide_gaps_and_passages_everywhere() {
        for seed in 0..SEEDS {
            let t = table(seed);
            // "fully cover at least 50% of the table"
            let covered = covered_share(&t);
            assert!(covered >= 0.5, "seed {seed}: {covered}");
            // "no gaps bigger than 6" between different terrain pieces": no open disc wider
            let (at, wide) = widest_open_disc(&t);
            assert!(wide <= WIDEST_GAP, "seed {seed}: an open disc {wide:.2}\" across at {at:?}");
            // "gaps of at least 3" between terrain pieces, so they can fit through"
            assert!(least_gap(&t) >= PASSAGE, "seed {seed}: {}", least_gap(&t));
            let linked = linked_zones(&t, PASSAGE);
            assert!(linked.iter().flatten().all(|&l| l), "seed {seed}: {linked:?}");
            // "fully within 12" of their table edge", on any edge: room to deploy
            for (z, free) in free_zone_shares(&t).into_iter().enumerate() {
                assert!(free >= 0.6, "seed {seed}: zone {z} only {free} free");
            }
        }
    }

    #[test]
    fn no_clear_line_crosses_the_table() {
        // "place enough blocking terrain that you can't draw clear line of sight from edge to
        // edge across the table"
        for seed in 0..SEEDS {
            let t = table(seed);
            assert_eq!(clear_lines(&t), vec![], "seed {seed}: {t:?}");
        }
    }

    #[test]
    fn the_checks_catch_bad_tables() {
        let wall = |x0, y0, x1, y1| rect("walls", WALLS, x0, y0, x1, y1);
        // an empty table fails all but the zones and passages
        assert_eq!(covered_share(&[]), 0.0);
        assert!((widest_open_disc(&[]).1 - SIDE).abs() < 0.05);
        assert_eq!(clear_lines(&[]).len(), 6);
        assert_eq!(free_zone_shares(&[]), [1.0; 4]);
        assert!(linked_zones(&[], PASSAGE).iter().flatten().all(|&l| l));
        // a grid of 9" pieces 3" apart covers 56% but leaves straight lanes each way, and discs
        // 4.2" across where its lanes cross
        let mut grid = Vec::new();
        for i in 0..4 {
            for j in 0..4 {
                let (x, y) = (1.5 + 12.0 * f64::from(i), 1.5 + 12.0 * f64::from(j));
                grid.push(wall(x, y, x + 9.0, y + 9.0));
            }
        }
        assert!((covered_share(&grid) - 16.0 * 81.0 / 2304.0).abs() < 1e-12);
        let (_, wide) = widest_open_disc(&grid);
        assert!((wide - 3.0 * std::f64::consts::SQRT_2).abs() < 0.03, "{wide}");
        let lines = clear_lines(&grid);
        assert!(lines.len() >= 2, "{lines:?}");
        // half the table covered by one block leaves discs wider than 6"
        let block = [wall(0.0, 0.0, SIDE, SIDE / 2.0)];
        assert!((covered_share(&block) - 0.5).abs() < 1e-12);
        assert!(widest_open_disc(&block).1 > 23.9);
        // a wall across the table, 2" gaps at its ends: no passage from the bottom zone to the
        // top one, but lines along the table stay clear; a 3" disc still gets round a 3" gap
        let across = [wall(2.0, 22.0, 46.0, 26.0)];
        assert!(least_gap(&across).is_infinite());
        let linked = linked_zones(&across, PASSAGE);
        assert!(!linked[0][2] && linked[1][3] && linked[0][1], "{linked:?}");
        assert!(linked_zones(&[wall(3.0, 22.0, 45.0, 26.0)], PASSAGE)[0][2]);
        let lines = clear_lines(&across);
        assert!(lines.iter().any(|(a, b)| a.y == 0.0 && b.y == SIDE) && lines.iter().any(|(a, b)| a.x == 0.0 && b.x == SIDE), "{lines:?}");
        assert!(clear_lines(&[wall(0.0, 22.0, SIDE, 26.0)]).iter().all(|(a, b)| !(a.y == 0.0 && b.y == SIDE)));
        // two pieces 2" apart
        assert!((least_gap(&[wall(0.0, 0.0, 5.0, 5.0), wall(7.0, 0.0, 9.0, 5.0)]) - 2.0).abs() < 1e-12);
        // a building filling most of a zone
        let building = [rect("building", BUILDING, 0.0, 0.0, 24.0, 12.0), rect("building", BUILDING, 30.0, 0.0, 40.0, 6.0)];
        let free = free_zone_shares(&building);
        assert!((free[0] - (1.0 - 348.0 / 576.0)).abs() < 1e-12 && free[0] < 0.6, "{free:?}");
        assert!((free[3] - (1.0 - 144.0 / 576.0)).abs() < 1e-12, "{free:?}");
        // a generated table with one piece taken out opens a wide gap
        let t = table(1);
        assert!((1..t.len()).any(|i| widest_open_disc(&[&t[..i], &t[i + 1..]].concat()).1 > WIDEST_GAP));
    }

    #[test]
    fn the_exact_line_search_finds_every_sampled_clear_line() {
        // random walls, and Firefight tables with every side moved by up to 1.5": whenever a
        // sampled line (ends on a 0.5" grid) is clear between two edges, the exact search
        // finds one too, and what it finds is clear
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(5);
        let (mut open, mut closed) = (0, 0);
        let e = edges();
        for k in 0..80 {
            let walls: Vec<Piece> = if k % 2 == 0 {
                (0..rng.random_range(4..=16))
                    .map(|_| {
                        let (w, h) = (rng.random_range(2.0..=14.0), rng.random_range(2.0..=14.0));
                        let (x, y) = (rng.random_range(0.0..=SIDE - w), rng.random_range(0.0..=SIDE - h));
                        rect("walls", WALLS, x, y, x + w, y + h)
                    })
                    .collect()
            } else {
                let mut jitter = || rng.random_range(-1.5..=1.5);
                table(k).into_iter().filter(|p| p.kinds.blocking).map(|p| rect("walls", WALLS, p.x0 + jitter(), p.y0 + jitter(), p.x1 + jitter(), p.y1 + jitter())).collect()
            };
            let (m, far) = (SIDE / 2.0, Point::new(SIDE, SIDE));
            let bottom_right_half = (Point::new(m, 0.0), Point::new(SIDE, 0.0));
            let left_top_half = (Point::new(0.0, m), Point::new(0.0, SIDE));
            let right_top_half = (Point::new(SIDE, m), far);
            for (a, b) in [(e[0], e[2]), (e[3], e[1]), (e[0], e[3]), (bottom_right_half, left_top_half), (left_top_half, right_top_half)] {
                let along = |s: (Point, Point), k: f64| Point::new(s.0.x + (s.1.x - s.0.x) * k / 96.0, s.0.y + (s.1.y - s.0.y) * k / 96.0);
                let sampled = (0..=96).any(|i| {
                    (0..=96).any(|j| {
                        let (p, q) = (along(a, f64::from(i)), along(b, f64::from(j)));
                        let on_one_edge = (p.x == q.x && (p.x == 0.0 || p.x == SIDE)) || (p.y == q.y && (p.y == 0.0 || p.y == SIDE));
                        p.distance(q) > 1e-9 && !on_one_edge && walls.iter().all(|w| !w.crossed(p, q, -1e-9))
                    })
                });
                let exact = clear_line(&walls, a, b);
                assert!(!sampled || exact.is_some(), "{walls:?}");
                if let Some((p, q)) = exact {
                    assert!(walls.iter().all(|w| !w.crossed(p, q, -1e-6)));
                    open += 1;
                } else {
                    closed += 1;
                }
            }
        }
        assert!(open > 40 && closed > 40, "{open} open, {closed} closed");
    }

    #[test]
    fn the_table_is_reproducible() {
        assert_eq!(table(7), table(7));
        assert_ne!(table(7), table(8));
    }

    /// Figures of the Firefight table for the docs, and its time against the standard table's
    /// (run with `cargo test --release --lib game::firefight_table -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn firefight_table_figures() {
        let tables = 20_000u64;
        let time = |draw: &dyn Fn(&mut Xoshiro256PlusPlus) -> Vec<Piece>| {
            let start = std::time::Instant::now();
            let mut pieces = 0usize;
            for seed in 0..tables {
                pieces += std::hint::black_box(draw(&mut Xoshiro256PlusPlus::seed_from_u64(seed))).len();
            }
            (start.elapsed().as_secs_f64() / tables as f64 * 1e6, pieces)
        };
        let standard = crate::game::rules::GameRules::V3_5.table;
        for round in 0..3 {
            let (ff, _) = time(&|rng| firefight_terrain(rng));
            let (v35, _) = time(&|rng| standard_terrain(rng, standard));
            println!("round {round}: {ff:.2} us per Firefight table, {v35:.2} us per standard table ({:.2}x)", ff / v35);
        }
        let seeds = 2000u64;
        let (mut covered, mut least_cover, mut most_cover) = (0.0, 1.0f64, 0.0f64);
        let (mut wide, mut widest, mut least_gap_seen, mut least_free) = (0.0, 0.0f64, f64::INFINITY, 1.0f64);
        // sides of the chains' pieces (forests, walls) and of the edge pieces: least, most
        let mut sides = [(f64::INFINITY, 0.0f64); 2];
        for seed in 0..seeds {
            let t = table(seed);
            for p in &t {
                let s = &mut sides[usize::from(!p.kinds.blocking || p.kinds.impassable)];
                *s = (s.0.min(p.x1 - p.x0).min(p.y1 - p.y0), s.1.max(p.x1 - p.x0).max(p.y1 - p.y0));
            }
            let share = covered_share(&t);
            covered += share;
            (least_cover, most_cover) = (least_cover.min(share), most_cover.max(share));
            let w = widest_open_disc(&t).1;
            wide += w;
            widest = widest.max(w);
            least_gap_seen = least_gap_seen.min(least_gap(&t));
            least_free = free_zone_shares(&t).into_iter().fold(least_free, f64::min);
        }
        let k = seeds as f64;
        println!(
            "{seeds} tables: covered {:.1}% ({:.1}% to {:.1}%), widest open disc {:.2}\" (mean) {widest:.2}\" (most), \
             least gap {least_gap_seen:.2}\", least free share of a zone {:.1}%",
            100.0 * covered / k,
            100.0 * least_cover,
            100.0 * most_cover,
            wide / k,
            100.0 * least_free
        );
        println!("sides: chains {:.2}\" to {:.2}\", edge pieces {:.2}\" to {:.2}\"", sides[0].0, sides[0].1, sides[1].0, sides[1].1);
    }
}
