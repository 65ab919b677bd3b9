//! Line of sight and cover, model by model: "units can see through other friendly and
//! enemy units, but not through solid terrain" is read as the guide's true line of sight
//! (docs/game.md gives the readings), and a target "in cover" when most of its models are
//! in cover terrain or behind a cover piece or another unit's edge.

use super::cache::{Blocker, Looking, PairKey, Seen};
use super::state::View;
use super::table::{Piece, Point};
use super::live::Id;
use super::rules::CoverFrom;

/// What one unit sees of another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sight {
    pub visible: bool,
    /// In cover terrain, or behind a cover piece or another unit's edge (seen from a unit that
    /// sees it; out of sight, in cover terrain only).
    pub cover: bool,
    /// Only the cover of the terrain the target stands in (what Indirect does not ignore).
    pub cover_inside: bool,
}

/// The band joining two units' discs (`View::band`): the centres, the larger radius, and the
/// band's box.
#[derive(Clone, Copy)]
struct Band {
    pa: Point,
    pb: Point,
    reach: f64,
    lo: Point,
    hi: Point,
}

impl<'a> View<'a> {
    /// Line of sight and cover from `a` to `b`, model by model. "If at least one model in the
    /// unit has line of sight to an enemy model ... then that enemy is a valid target";
    /// blocking terrain a line crosses blocks it unless either model stands in the piece
    /// ("can see into and out of forests, but not through them"); "Models can't see through
    /// solid obstacles, including the perimeter of other units" (another unit's disc), "but
    /// they can always see through friendly models from their own unit". Cover: "If the
    /// majority of models in a unit are fully inside a piece of cover terrain or behind a
    /// sight blocker". Each shooting model's distance to the closest target model it sees
    /// (and to the closest at all, for Indirect) is kept for `shot_key`.
    pub fn sight(&self, a: Id, b: Id) -> Sight {
        let t = self.clock();
        let mut seen = self.cache.seen.borrow_mut();
        let Seen { models, for_pair, looking } = &mut *seen;
        let band = self.band(a, b);
        self.blockers(a, b, &band, &mut looking.blockers);
        let out = self.look(a, b, &band, models, looking);
        *for_pair = Some(self.pair_key(a, b));
        drop(seen);
        self.lap(t, |x| &mut x.line_of_sight);
        out
    }

    /// What `seen` was worked out for: both units, where they stand and their models left.
    pub(super) fn pair_key(&self, a: Id, b: Id) -> PairKey {
        (a, b, [self.live(a).pos, self.live(b).pos], [self.formation_key(a), self.formation_key(b)])
    }

    /// The band joining `a`'s and `b`'s discs: only what crosses it can stand between their
    /// models (its box settles most pieces and units first).
    fn band(&self, a: Id, b: Id) -> Band {
        let (pa, pb) = (self.live(a).pos, self.live(b).pos);
        let reach = self.radius(a).max(self.radius(b));
        let (lo, hi) = (Point::new(pa.x.min(pb.x) - reach, pa.y.min(pb.y) - reach), Point::new(pa.x.max(pb.x) + reach, pa.y.max(pb.y) + reach));
        Band { pa, pb, reach, lo, hi }
    }

    /// The units other than `a` and `b` whose discs cross their band (Aircraft fly above it),
    /// into `out`, in the armies' order.
    fn blockers(&self, a: Id, b: Id, band: &Band, out: &mut Vec<Blocker>) {
        let Band { pa, pb, reach, lo, hi } = *band;
        out.clear();
        for army in 0..2 {
            for (u, live) in self.units[army].iter().enumerate() {
                // the band's box first: it leaves out most units
                let (c, r, other) = (live.pos, live.radius, (army, u));
                let near = c.x + r > lo.x && c.x - r < hi.x && c.y + r > lo.y && c.y - r < hi.y;
                if near && live.on_table() && other != a && other != b && !self.info(other).movement.aircraft && c.distance_to_segment(pa, pb) < reach + r {
                    out.push((c, r, other));
                }
            }
        }
    }

    /// How far the nearest model of `b` that a model of `a` in `slots` sees is from it, edge
    /// to edge (infinite if none sees one): `sight`'s distances for those models alone, without
    /// the cover and the other models (a spell's range and sight are its caster model's).
    pub(super) fn nearest_seen_by(&self, a: Id, b: Id, slots: &[usize]) -> f64 {
        let mut seen = self.cache.seen.borrow_mut();
        let band = self.band(a, b);
        let Looking { pieces, blockers, targets, order } = &mut seen.looking;
        self.blockers(a, b, &band, blockers);
        let lines = self.lines(b, &band, pieces, blockers, targets);
        self.models(a).filter(|(slot, _, _)| slots.contains(slot)).map(|(_, p, r)| lines.from_model(p, r, order).0.max(0.0)).fold(f64::INFINITY, f64::min)
    }

    /// The pieces in `band` that block sight or give cover (into `pieces`), and `b`'s models
    /// (into `targets`), with the units in the band: what the lines from `a`'s models read.
    fn lines<'l>(&'l self, b: Id, band: &Band, pieces: &'l mut Vec<usize>, blockers: &'l [Blocker], targets: &'l mut Vec<(Point, f64)>) -> Lines<'l, 'a> {
        let Band { pa, pb, reach, lo, hi } = *band;
        pieces.clear();
        pieces.extend(self.by_kind.sight.iter().copied().filter(|&i| {
            let t = &self.terrain[i];
            t.x1 >= lo.x && t.x0 <= hi.x && t.y1 >= lo.y && t.y0 <= hi.y && t.crossed(pa, pb, reach)
        }));
        targets.clear();
        targets.extend(self.models(b).map(|(_, q, r)| (q, r)));
        let clear = pieces.is_empty() && blockers.is_empty();
        Lines { view: self, pieces, blockers, targets, clear }
    }

    /// `sight`'s work, with the units in the band found (`looking.blockers`): fills `seen`
    /// with (slot, distance to the closest target model in sight or infinity, distance to the
    /// closest target model) per model of `a`.
    fn look(&self, a: Id, b: Id, band: &Band, seen: &mut Vec<(usize, f64, f64)>, looking: &mut Looking) -> Sight {
        seen.clear();
        let pa = band.pa;
        let Looking { pieces, blockers, targets, order } = looking;
        let lines = self.lines(b, band, pieces, blockers, targets);
        let targets = lines.targets;
        let mut visible = false;
        for (slot, p, r) in self.models(a) {
            let (in_sight, any) = lines.from_model(p, r, order);
            visible |= in_sight.is_finite();
            seen.push((slot, in_sight.max(0.0), any.max(0.0)));
        }
        // "fully inside a piece of cover terrain or behind a sight blocker", seen from the
        // shooting unit (the centre of its disc); a model no shooter sees is behind one too
        // (an Aircraft gets none: "since Aircraft are flying high above the ground, only the
        // actual model counts"; it is above the forest it flies over, not inside it). Out of
        // sight, only what the target stands in counts (Indirect), and nothing is behind.
        let (mut covered, mut inside) = (0usize, 0usize);
        // cover from behind sight blockers: blocking terrain and units (v3.5), blocking terrain
        // only (v2.x: other units give no cover), neither (Firefight: "in or behind a piece of
        // cover terrain" only)
        let (blockers_cover, units_cover) = match self.rules.cover_from {
            CoverFrom::TerrainOrSightBlockers => (true, true),
            CoverFrom::TerrainOnly => (true, false),
            CoverFrom::CoverTerrainOnly => (false, false),
        };
        if !lines.clear && !self.info(b).movement.aircraft {
            for &(q, _) in targets {
                if lines.pieces().any(|t| t.kinds.cover && t.contains(q)) {
                    inside += 1;
                    covered += 1;
                } else if visible && ((blockers_cover && lines.blocked_by(pa, q, units_cover)) || lines.pieces().any(|t| t.kinds.cover && !t.contains(pa) && t.crossed(pa, q, 0.0))) {
                    covered += 1;
                }
            }
        }
        let n = targets.len();
        Sight { visible, cover: 2 * covered > n, cover_inside: 2 * inside > n }
    }
}

/// What the lines between two units' models cross: the pieces and the other units in the band
/// between them, and the target unit's models (`View::lines`).
struct Lines<'l, 'a> {
    view: &'l View<'a>,
    pieces: &'l [usize],
    blockers: &'l [Blocker],
    targets: &'l [(Point, f64)],
    /// Nothing in the band: every line is clear.
    clear: bool,
}

impl Lines<'_, '_> {
    fn pieces(&self) -> impl Iterator<Item = &Piece> + '_ {
        self.pieces.iter().map(|&i| &self.view.terrain[i])
    }

    /// Whether the line from `p` to `q` is blocked: by blocking terrain neither stands in, or
    /// by another unit's disc.
    fn blocked(&self, p: Point, q: Point) -> bool {
        self.blocked_by(p, q, true)
    }

    /// `blocked`, by terrain alone unless `units` (the units in the band block too).
    fn blocked_by(&self, p: Point, q: Point, units: bool) -> bool {
        self.pieces().any(|t| t.kinds.blocking && !t.contains(p) && !t.contains(q) && t.crossed(p, q, 0.0))
            || units && self.blockers.iter().any(|&(c, r, other)| {
                c.distance_to_segment(p, q) < r
                    && ((c.distance(p) > r && c.distance(q) > r)
                        // an end inside the unit's disc (the units' models interleave): the
                        // perimeter is its models' bases, and they block
                        || self.view.models(other).any(|(_, m, rm)| m.distance(p) > rm && m.distance(q) > rm && m.distance_to_segment(p, q) < rm))
            })
    }

    /// From a looking model at `p` (base radius `r`): the distance to the closest target model
    /// it sees (infinite if none), and to the closest at all (`order`: working list).
    fn from_model(&self, p: Point, r: f64, order: &mut Vec<(f64, usize)>) -> (f64, f64) {
        let targets = self.targets;
        // the closest target model first: in sight, it is the answer (most often)
        let (mut any, mut nearest) = (f64::INFINITY, 0);
        for (k, &(q, s)) in targets.iter().enumerate() {
            let d = p.distance(q) - r - s;
            if d < any {
                (any, nearest) = (d, k);
            }
        }
        let mut in_sight = f64::INFINITY;
        if self.clear || targets.get(nearest).is_some_and(|&(q, _)| !self.blocked(p, q)) {
            in_sight = any;
        } else {
            // the nearest unblocked target model: the others nearest first, until one is
            // seen (what is seen is the least distance of those seen, found with fewer looks)
            order.clear();
            order.extend(targets.iter().enumerate().filter(|&(k, _)| k != nearest).map(|(k, &(q, s))| (p.distance(q) - r - s, k)));
            order.sort_unstable_by(|x, y| x.0.total_cmp(&y.0));
            if let Some(&(d, _)) = order.iter().find(|&&(_, k)| !self.blocked(p, targets[k].0)) {
                in_sight = d;
            }
        }
        (in_sight, any)
    }
}
