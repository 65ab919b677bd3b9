//! The shapes the path search goes round: every obstacle grown by the mover's radius and
//! replaced by the octagon that circumscribes it (`paths` explains why), with the tests the
//! search asks of them (crossing, tangents, the nearest point outside).

use super::table::Point;

/// Extra room every obstacle is grown by, so that a path that hugs it passes the game's own
/// checks (which allow 1e-6).
pub const MARGIN: f64 = 1e-3;

/// An octagon's vertices.
pub(super) const SIDES: usize = 8;
/// Tolerance of the orientation tests, in square inches: touching is not crossing.
pub(super) const TOL: f64 = 1e-9;
/// tan(pi/8): the circumscribed octagon's corner offset, in radii.
pub(super) const TAN: f64 = 0.414_213_562_373_095_1;
/// The octagon's vertices round a corner centre, in radii, counter-clockwise from the right;
/// vertices 0-1 belong to the top-right corner, 2-3 top-left, 4-5 bottom-left, 6-7 bottom-right.
pub(super) const OFFSETS: [(f64, f64); SIDES] = [(1.0, TAN), (TAN, 1.0), (-TAN, 1.0), (-1.0, TAN), (-1.0, -TAN), (-TAN, -1.0), (TAN, -1.0), (1.0, -TAN)];

/// Squared distance from `p` to the segment `a`–`b`.
pub(super) fn segment_distance2(p: Point, a: Point, b: Point) -> f64 {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 { 0.0 } else { (((p.x - a.x) * dx + (p.y - a.y) * dy) / len2).clamp(0.0, 1.0) };
    let (ex, ey) = (a.x + t * dx - p.x, a.y + t * dy - p.y);
    ex * ex + ey * ey
}

pub(super) fn cross(ax: f64, ay: f64, bx: f64, by: f64) -> f64 {
    ax * by - ay * bx
}

/// An octagon's edges, `v[j + 1] - v[j]`.
pub(super) fn edges(v: &[Point; SIDES]) -> [Point; SIDES] {
    std::array::from_fn(|j| {
        let (a, b) = (v[j], v[(j + 1) % SIDES]);
        Point::new(b.x - a.x, b.y - a.y)
    })
}

/// A bounding box (and the class of the obstacle it bounds).
#[derive(Debug, Clone, Copy)]
pub(super) struct Bounds {
    pub(super) lo: Point,
    pub(super) hi: Point,
    pub(super) class: u8,
}

impl Bounds {
    pub(super) fn of(a: Point, b: Point) -> Bounds {
        let (lx, hx) = if a.x <= b.x { (a.x, b.x) } else { (b.x, a.x) };
        let (ly, hy) = if a.y <= b.y { (a.y, b.y) } else { (b.y, a.y) };
        Bounds { lo: Point::new(lx, ly), hi: Point::new(hx, hy), class: 0 }
    }

    /// Whether the open boxes overlap (a segment's box that only touches an octagon's is
    /// `Octagon::apart` from it).
    #[inline(always)]
    pub(super) fn meets(&self, seg: &Bounds) -> bool {
        // (without branches: most boxes are apart, on any of the four sides)
        (seg.hi.x > self.lo.x) & (seg.lo.x < self.hi.x) & (seg.hi.y > self.lo.y) & (seg.lo.y < self.hi.y)
    }
}

/// A convex octagon, counter-clockwise, with its bounding box and class.
#[derive(Debug, Clone, Copy)]
pub(super) struct Octagon {
    pub(super) v: [Point; SIDES],
    /// The edges, `v[j + 1] - v[j]` (the same floats the tests would compute each time).
    pub(super) e: [Point; SIDES],
    /// The vertices within the query's table (`Paths::in_bounds`), as bits: set when the
    /// octagon becomes active (`Paths::activate`).
    pub(super) on_table: u8,
    /// A point inside (the vertices' mean).
    pub(super) mid: Point,
    /// For a disc's octagon, the disc's radius (the octagon lies between it and 1.0824 times
    /// it): most segments are settled by their distance to `mid`. 0 for a rectangle's.
    pub(super) round: f64,
    pub(super) lo: Point,
    pub(super) hi: Point,
    /// For `new`'s octagons, whose edges run at 0, 45, 90 and 135 degrees: the ranges of
    /// `x + y` and `x - y` over it. With `lo`–`hi` these are the four slabs whose intersection
    /// it is, so a segment is tested against its edges with four interval tests.
    /// `None` for `facing`'s octagons.
    pub(super) slabs: Option<[f64; 4]>,
    pub(super) class: u8,
}

impl Octagon {
    /// The octagon round the rectangle `x0..x1 x y0..y1` grown by `grow` (a disc when the
    /// rectangle is a point).
    pub(super) fn new(x0: f64, y0: f64, x1: f64, y1: f64, grow: f64, class: u8) -> Octagon {
        let corners = [(x1, y1), (x1, y1), (x0, y1), (x0, y1), (x0, y0), (x0, y0), (x1, y0), (x1, y0)];
        let mut v = [Point::default(); SIDES];
        for j in 0..SIDES {
            v[j] = Point::new(corners[j].0 + OFFSETS[j].0 * grow, corners[j].1 + OFFSETS[j].1 * grow);
        }
        let round = if x0 == x1 && y0 == y1 { grow } else { 0.0 };
        // the diagonal edges' offsets: a vertex such as (x1 + grow, y1 + grow tan) has x + y
        // = x1 + y1 + grow (1 + tan)
        let out = grow * (1.0 + TAN);
        let slabs = Some([x0 + y0 - out, x1 + y1 + out, x0 - y1 - out, x1 - y0 + out]);
        Octagon { v, e: edges(&v), on_table: 0, mid: Point::new((x0 + x1) / 2.0, (y0 + y1) / 2.0), round, lo: Point::new(x0 - grow, y0 - grow), hi: Point::new(x1 + grow, y1 + grow), slabs, class }
    }

    /// The octagon of `new`, but with each corner's middle edge tangent to the rounded corner
    /// in the direction of `from` when `from` lies in that corner's quarter: a point outside
    /// the grown rectangle but inside `new`'s octagon (the 8% a corner sticks out) is then
    /// outside this one.
    pub(super) fn facing(x0: f64, y0: f64, x1: f64, y1: f64, grow: f64, class: u8, from: Point) -> Octagon {
        let corners = [(x1, y1), (x0, y1), (x0, y0), (x1, y0)];
        let mut v = [Point::default(); SIDES];
        let (mut lo, mut hi) = (Point::new(f64::INFINITY, f64::INFINITY), Point::new(f64::NEG_INFINITY, f64::NEG_INFINITY));
        for (q, &(cx, cy)) in corners.iter().enumerate() {
            let start = q as f64 * std::f64::consts::FRAC_PI_2;
            let mut toward = (from.y - cy).atan2(from.x - cx) - start;
            toward = toward.rem_euclid(std::f64::consts::TAU);
            let phi = if toward > 0.01 && toward < std::f64::consts::FRAC_PI_2 - 0.01 { toward } else { std::f64::consts::FRAC_PI_4 };
            // vertices where the tangents at `start`, `start + phi` and `start + 90°` meet
            for (k, (a, b)) in [(0.0, phi), (phi, std::f64::consts::FRAC_PI_2)].into_iter().enumerate() {
                let mid = start + (a + b) / 2.0;
                let d = grow / ((b - a) / 2.0).cos();
                let p = Point::new(cx + d * mid.cos(), cy + d * mid.sin());
                v[2 * q + k] = p;
                lo = Point::new(lo.x.min(p.x), lo.y.min(p.y));
                hi = Point::new(hi.x.max(p.x), hi.y.max(p.y));
            }
        }
        let mid = Point::new(v.iter().map(|p| p.x).sum::<f64>() / SIDES as f64, v.iter().map(|p| p.y).sum::<f64>() / SIDES as f64);
        // (a facing octagon's corners stick out further: no shortcut)
        Octagon { v, e: edges(&v), on_table: 0, mid, round: 0.0, lo, hi, slabs: None, class }
    }

    /// Strictly inside (on the boundary is outside).
    pub(super) fn contains(&self, p: Point) -> bool {
        if p.x <= self.lo.x || p.x >= self.hi.x || p.y <= self.lo.y || p.y >= self.hi.y {
            return false;
        }
        (0..SIDES).all(|j| {
            let (a, e) = (self.v[j], self.e[j]);
            cross(e.x, e.y, p.x - a.x, p.y - a.y) > TOL
        })
    }

    /// Whether the segment's bounding box misses the octagon's (the searches test the boxes
    /// themselves, before `blocks_past_box`; this and `blocks` are the whole test, for tests).
    #[cfg(test)]
    pub(super) fn apart(&self, a: Point, b: Point) -> bool {
        !Bounds { lo: self.lo, hi: self.hi, class: self.class }.meets(&Bounds::of(a, b))
    }

    /// Whether the segment `a`–`b` passes through the inside (running along an edge or
    /// touching a vertex does not): no separating axis among the edges' and the segment's.
    #[cfg(test)]
    pub(super) fn blocks(&self, a: Point, b: Point) -> bool {
        !self.apart(a, b) && self.blocks_past_box(a, b)
    }

    /// `blocks` for a segment whose box is known to meet the octagon's (`Bounds::meets`).
    #[inline]
    pub(super) fn blocks_past_box(&self, a: Point, b: Point) -> bool {
        if self.round > 0.0 {
            // outside the circumscribed circle: clear; inside the inscribed one: blocked
            let d2 = segment_distance2(self.mid, a, b);
            let inner = self.round * (1.0 - 1e-9);
            if d2 >= self.round * self.round * (1.0 + TAN * TAN) {
                return false;
            }
            if d2 < inner * inner {
                return true;
            }
        }
        if let Some([s0, s1, d0, d1]) = self.slabs {
            // the diagonal edges (the straight ones were `apart`'s)
            let (sa, sb, da, db) = (a.x + a.y, b.x + b.y, a.x - a.y, b.x - b.y);
            if sa.max(sb) <= s0 + TOL || sa.min(sb) >= s1 - TOL || da.max(db) <= d0 + TOL || da.min(db) >= d1 - TOL {
                return false;
            }
        } else {
            for j in 0..SIDES {
                let (p, Point { x: ex, y: ey }) = (self.v[j], self.e[j]);
                if cross(ex, ey, a.x - p.x, a.y - p.y) <= TOL && cross(ex, ey, b.x - p.x, b.y - p.y) <= TOL {
                    return false;
                }
            }
        }
        let (dx, dy) = (b.x - a.x, b.y - a.y);
        let (mut left, mut right) = (false, false);
        for v in &self.v {
            let s = cross(dx, dy, v.x - a.x, v.y - a.y);
            left |= s > TOL;
            right |= s < -TOL;
        }
        left && right
    }

    /// The vertices round which a shortest path from `p` may bend, as bits: those whose two
    /// neighbours lie on the same side of the line from `p` (the line touches the octagon
    /// there). Vertex `j`'s neighbours are on the sides `p` sees edges `j - 1` and `j` from,
    /// so one cross product per edge settles all eight.
    pub(super) fn tangents_from(&self, p: Point) -> u8 {
        // bit j: `p` sees edge j from its inside (up to TOL), from its outside
        let (mut inward, mut outward) = (0u8, 0u8);
        for j in 0..SIDES {
            let (a, e) = (self.v[j], self.e[j]);
            let side = cross(e.x, e.y, p.x - a.x, p.y - a.y);
            inward |= u8::from(side >= -TOL) << j;
            outward |= u8::from(side <= TOL) << j;
        }
        // vertex j lies between edge j - 1 (before) and edge j (after): bit j of the rotated
        // masks is edge j - 1's
        (outward.rotate_left(1) & inward) | (inward.rotate_left(1) & outward)
    }

    /// The nearest point of the boundary to `p`, nudged out by `MARGIN`.
    pub(super) fn nearest_outside(&self, p: Point) -> Point {
        let mut best = (f64::INFINITY, p);
        for j in 0..SIDES {
            let (a, b) = (self.v[j], self.v[(j + 1) % SIDES]);
            let (ex, ey) = (b.x - a.x, b.y - a.y);
            let len2 = ex * ex + ey * ey;
            if len2 <= 0.0 {
                continue;
            }
            let t = (((p.x - a.x) * ex + (p.y - a.y) * ey) / len2).clamp(0.0, 1.0);
            let q = Point::new(a.x + t * ex, a.y + t * ey);
            let d = q.distance(p);
            if d < best.0 {
                // outward normal of a counter-clockwise edge: (ey, -ex)
                let len = len2.sqrt();
                best = (d, Point::new(q.x + ey / len * MARGIN * 2.0, q.y - ex / len * MARGIN * 2.0));
            }
        }
        best.1
    }
}
