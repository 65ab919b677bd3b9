//! Where units may stand and how far apart they are: distances between the closest models,
//! "Models may never be within 1" of models from other units, unless they are taking a Charge
//! action", the table's edges, impassable and dangerous terrain, and the markers' 3".

use super::rules::Presence;
use super::state::View;
use super::paths::{DANGEROUS, DIFFICULT, IMPASSABLE};
use super::table::{Piece, Point};
use super::config::Short;
use super::cache::GapEntry;
use super::state::{EPS, closest_pair};
use super::live::Id;
use super::prepare::bit;
use std::cell::{Cell, RefCell};

/// Whether `p` lies within the piece's box grown by `r` (a disc of radius `r` at `p` can
/// touch the piece only then): a test cheaper than `Piece::distance_to`.
#[inline]
pub(super) fn near_box(t: &Piece, p: Point, r: f64) -> bool {
    p.x > t.x0 - r && p.x < t.x1 + r && p.y > t.y0 - r && p.y < t.y1 + r
}

/// The costly kinds (`DIFFICULT`, `DANGEROUS`) a piece is to a unit (Strider ignores
/// difficult terrain); impassable pieces are `IMPASSABLE` alone.
pub(super) fn terrain_class(t: &Piece, strider: bool) -> u8 {
    if t.kinds.impassable {
        return IMPASSABLE;
    }
    (if t.kinds.difficult && !strider { DIFFICULT } else { 0 }) | if t.kinds.dangerous { DANGEROUS } else { 0 }
}

impl<'a> View<'a> {
    /// Whether `id` may seize a marker now (`GameRules::seize`).
    #[inline(always)]
    pub fn may_seize(&self, id: Id) -> bool {
        self.counts_at_markers(id, self.rules.seize)
    }

    /// Whether `id` contests a marker now, making it neutral if the enemy is there too
    /// (`GameRules::contest`).
    #[inline(always)]
    pub fn may_contest(&self, id: Id) -> bool {
        self.counts_at_markers(id, self.rules.contest)
    }

    #[inline(always)]
    pub(super) fn counts_at_markers(&self, id: Id, who: Presence) -> bool {
        let live = self.live(id);
        live.on_table() && who.counts(live.shaken, self.info(id).movement.aircraft, self.rules.arriving_blind(live.arrived, self.round, self.config.rounds))
    }

    /// The distance between two units' discs, edge to edge: never more than `gap` (the discs
    /// hold the models) and much cheaper, for the policy's quick orderings.
    #[inline]
    pub fn disc_gap(&self, a: Id, b: Id) -> f64 {
        (self.live(a).pos.distance(self.live(b).pos) - self.radius(a) - self.radius(b)).max(0.0)
    }

    /// Edge-to-edge distance between two units: "When measuring the distance between two
    /// units you always measure from/to the closest model in each unit."
    pub fn gap(&self, a: Id, b: Id) -> f64 {
        let (pa, pb) = (self.live(a).pos, self.live(b).pos);
        let (ra, rb) = (self.radius(a), self.radius(b));
        // one model each: the discs are the bases
        if self.live(a).left <= 1 && self.live(b).left <= 1 {
            return (pa.distance(pb) - ra - rb).max(0.0);
        }
        let n0 = self.prep.armies[0].len();
        let flat = |id: Id| if id.0 == 0 { id.1 } else { n0 + id.1 };
        let n = n0 + self.prep.armies[1].len();
        let (lo, hi) = if flat(a) <= flat(b) { (a, b) } else { (b, a) };
        let slot = flat(lo) * n + flat(hi);
        let wanted = GapEntry { at: [self.live(lo).pos, self.live(hi).pos], keys: [self.formation_key(lo), self.formation_key(hi)], facing: self.facing(0), gap: 0.0 };
        {
            let mut gaps = self.cache.gaps.borrow_mut();
            if gaps.len() != n * n {
                gaps.clear();
                gaps.resize(n * n, GapEntry { gap: f64::NAN, ..GapEntry::default() });
            }
            let e = gaps[slot];
            if !e.gap.is_nan() && (GapEntry { gap: 0.0, ..e }) == wanted {
                return e.gap;
            }
        }
        let gap = closest_pair(self.models(a).map(|(_, p, r)| (p, r)), pb, rb, || self.models(b).map(|(_, q, s)| (q, s))).0.max(0.0);
        self.cache.gaps.borrow_mut()[slot] = GapEntry { gap, ..wanted };
        gap
    }

    /// The impassable pieces.
    pub fn impassable_pieces(&self) -> impl Iterator<Item = &Piece> + '_ {
        self.by_kind.impassable.iter().map(|&i| &self.terrain[i])
    }

    /// The dangerous pieces.
    pub fn dangerous_pieces(&self) -> impl Iterator<Item = &Piece> + '_ {
        self.by_kind.dangerous.iter().map(|&i| &self.terrain[i])
    }

    /// The models of `id` (bits by formation slot) whose bases touch dangerous terrain with
    /// the unit's disc centred on `p` ("If a model moves in or through dangerous terrain, or
    /// is activated in it"); a piece out of reach of the disc touches none of them.
    #[inline]
    pub fn models_in_dangerous_at(&self, id: Id, p: Point) -> u64 {
        let r = self.radius(id);
        let mut out = 0;
        for t in self.dangerous_pieces() {
            if near_box(t, p, r) && t.distance_to(p) < r {
                out |= self.models_at(id, p).filter(|&(_, q, rq)| t.distance_to(q) < rq).fold(0, |m, (i, _, _)| m | bit(i));
            }
        }
        out
    }

    /// Whether any of `id`'s models would touch dangerous terrain with its disc centred on `p`.
    #[inline(always)]
    pub fn in_dangerous(&self, id: Id, p: Point) -> bool {
        // (most tables have no dangerous terrain: no call then)
        !self.by_kind.dangerous.is_empty() && self.models_in_dangerous_at(id, p) != 0
    }

    /// Whether `a` and `b` are within `d` of each other (`gap(a, b) <= d`), settled by their
    /// discs when they are further apart than that (the discs hold the models). To a
    /// millionth of an inch: a unit that moved exactly 12" towards one 24" away is within 12"
    /// of it, wherever the float arithmetic of their positions rounds.
    pub fn within(&self, a: Id, b: Id, d: f64) -> bool {
        let d = d + EPS;
        self.disc_gap(a, b) <= d && self.gap(a, b) <= d
    }

    /// Whether `id` may stand at `p`: on the table, off impassable terrain, and 1" from other
    /// units (`charging`: touching is allowed, "may ignore the 1" distance restriction").
    /// "Aircraft ignore all units and terrain when moving and stopping."
    #[inline]
    pub fn spot_ok(&self, id: Id, p: Point, charging: bool) -> bool {
        self.spot_clear_of(id, p, charging, self.ground_units_but(id))
    }

    /// The units `id` must keep away from, and where they stand (their discs): every unit on
    /// the table but itself and Aircraft ("Aircraft ignore all units"; no one keeps away from
    /// them).
    pub(super) fn ground_units_but(&self, id: Id) -> impl Iterator<Item = (Id, Point, f64)> + '_ {
        (0..2).flat_map(move |army| self.on_table(army)).filter(move |&other| other != id && !self.info(other).movement.aircraft).map(|other| (other, self.live(other).pos, self.radius(other)))
    }

    /// `ground_units_but`, gathered once for a caller that tries many spots (`spot_ok_among`).
    pub fn others_on_ground(&self, id: Id) -> Short<(Id, Point, f64), 32> {
        self.ground_units_but(id).collect()
    }

    /// `spot_ok` against the units `others` (from `others_on_ground`).
    #[inline(always)]
    pub fn spot_ok_among(&self, id: Id, p: Point, charging: bool, others: &[(Id, Point, f64)]) -> bool {
        self.spot_clear_of(id, p, charging, others.iter().copied())
    }

    /// The units `id` must keep away from, gathered once for a search that tries many spots
    /// while no one moves (`spot_ok_nearby`): a few by their discs alone (`others_on_ground`),
    /// more with their models found once (`crowd`, which costs more to gather).
    pub fn nearby(&self, id: Id) -> Nearby {
        /// Up to this many, the discs alone (measured: a duel's deployment pays for a crowd
        /// it hardly uses; three units or more already repay it).
        const FEW: usize = 2;
        let others = self.others_on_ground(id);
        // (a few samples reach few of the units: their models are found when first reached)
        if others.len() <= FEW { Nearby::Few(others) } else { Nearby::Many(self.gather_crowd(id, Point::default(), f64::INFINITY, false)) }
    }

    /// `spot_ok` against the units `nearby` (from `nearby`).
    #[inline(always)]
    pub fn spot_ok_nearby(&self, id: Id, p: Point, charging: bool, nearby: &Nearby) -> bool {
        match nearby {
            Nearby::Few(others) => self.spot_ok_among(id, p, charging, others),
            Nearby::Many(crowd) => self.spot_ok_in_crowd(id, p, charging, crowd),
        }
    }

    /// The units `id` must keep away from and their models, and `id`'s own, found once for a
    /// search that tries very many spots while no one moves (deployment's grid: `any_spot`).
    pub fn crowd(&self, id: Id) -> Crowd {
        self.crowd_near(id, Point::default(), f64::INFINITY)
    }

    /// `crowd` for spots within `within` of `centre` alone: the units whose discs may come
    /// near such a spot (1" or touching), the others being too far to matter.
    pub fn crowd_near(&self, id: Id, centre: Point, within: f64) -> Crowd {
        self.gather_crowd(id, centre, within, true)
    }

    /// `crowd_near`, with the other units' models found now (`all_models`, as the scans of
    /// rows and rays need) or each unit's when a spot first comes near its disc.
    fn gather_crowd(&self, id: Id, centre: Point, within: f64, all_models: bool) -> Crowd {
        let reach = within + self.radius(id) + self.rules.moves.unit_gap.max(0.0) + 1e-3;
        let mut units: Vec<(Point, f64, Id)> = self.ground_units_but(id).filter(|&(_, at, ro)| !(at.distance(centre) >= reach + ro)).map(|(other, at, ro)| (at, ro, other)).collect();
        units.sort_by(|a, b| a.0.y.total_cmp(&b.0.y));
        let crowd = Crowd {
            theirs: vec![Cell::new(UNFOUND); units.len()],
            widest: units.iter().fold(0.0, |w, u| w.max(u.1)),
            units,
            models: RefCell::new(Vec::new()),
            mine: self.models(id).map(|(_, q, r)| (q, r)).collect(),
            pos: self.live(id).pos,
        };
        if all_models {
            (0..crowd.units.len()).for_each(|u| _ = crowd.theirs(u, Some(self)));
        }
        crowd
    }

    /// `spot_ok` against `crowd` (from `crowd`): the same answer, from the models found once.
    pub fn spot_ok_in_crowd(&self, id: Id, p: Point, charging: bool, crowd: &Crowd) -> bool {
        self.refusal_in_crowd(id, p, charging, crowd).is_none()
    }

    /// Why `spot_ok_in_crowd` refuses `p`, if it does: the first two models found too near
    /// (tested first), or the table and its impassable terrain.
    pub fn refusal_in_crowd(&self, id: Id, p: Point, charging: bool, crowd: &Crowd) -> Option<Refusal> {
        let gap = if charging { 0.0 } else { self.rules.moves.unit_gap };
        self.refusal_given(id, p, || crowd.first_clash(self, self.radius(id), p, gap))
    }

    /// `refusal_in_crowd` with the first clash found by `clash` (asked only of a unit that
    /// keeps away from others).
    #[inline(always)]
    pub(super) fn refusal_given(&self, id: Id, p: Point, clash: impl FnOnce() -> Option<Clash>) -> Option<Refusal> {
        if !self.info(id).movement.aircraft {
            if let Some(hit) = clash() {
                return Some(Refusal::Clash(hit));
            }
        }
        (!self.spot_ok_on_table(id, p)).then_some(Refusal::Table)
    }

    /// On the table, out of impassable terrain, and (but for Aircraft) clear of `others`.
    #[inline(always)]
    pub(super) fn spot_clear_of(&self, id: Id, p: Point, charging: bool, mut others: impl Iterator<Item = (Id, Point, f64)>) -> bool {
        self.spot_ok_on_table(id, p) && (self.info(id).movement.aircraft || !others.any(|o| self.clashes(id, p, charging, o)))
    }

    /// `spot_ok`'s tests of the table: its edges and impassable terrain. (Inline: a disc on the
    /// table with no impassable terrain to mind settles most calls; the rest is out of line.)
    #[inline]
    pub(super) fn spot_ok_on_table(&self, id: Id, p: Point) -> bool {
        let r = self.radius(id);
        let on_table = self.rules.table.holds(p.x, p.y, r, EPS);
        (on_table && (self.by_kind.impassable.is_empty() || self.info(id).movement.aircraft)) || self.spot_ok_on_table_by_models(id, p)
    }

    /// `spot_ok_on_table`, model by model where the disc does not settle it.
    #[inline(never)]
    pub(super) fn spot_ok_on_table_by_models(&self, id: Id, p: Point) -> bool {
        let info = self.info(id);
        let r = self.radius(id);
        // the disc first; where it does not settle it, the models themselves
        let table = self.rules.table;
        if !table.holds(p.x, p.y, r, EPS) && self.models_at(id, p).any(|(_, q, rq)| !table.holds(q.x, q.y, rq, EPS))
        {
            return false;
        }
        if info.movement.aircraft {
            return true;
        }
        // (each test is first settled, where it can be, by boxes and squared distances)
        !self.impassable_pieces().any(|t| near_box(t, p, r) && t.distance_to(p) < r - EPS && self.models_at(id, p).any(|(_, q, rq)| t.distance_to(q) < rq - EPS))
    }

    /// Whether `id` standing at `p` comes too near `other` (standing at `at`, its disc of
    /// radius `ro_disc`): "Models may never be within 1" of models from other units, unless
    /// they are taking a Charge action" (`charging`: touching is allowed). The discs settle
    /// it when they keep that far apart; else the models themselves.
    /// (Inline: most calls are settled by the discs, a few instructions; the models' test is
    /// `models_clash`.)
    #[inline]
    pub(super) fn clashes(&self, id: Id, p: Point, charging: bool, (other, at, ro_disc): (Id, Point, f64)) -> bool {
        let gap = if charging { 0.0 } else { self.rules.moves.unit_gap };
        let reach = self.radius(id) + ro_disc + gap;
        let (dx, dy) = (p.x - at.x, p.y - at.y);
        dx * dx + dy * dy < (reach + 1e-6) * (reach + 1e-6) && p.distance(at) < reach - EPS && self.models_clash(id, p, gap, (other, at, ro_disc))
    }

    /// `clashes` where the discs come that near: whether a model of `id` (its disc centred on
    /// `p`) comes within `gap` of one of `other`'s. The discs hold their models' bases, so
    /// only models of ours that come that near the other's disc can come that near one of its
    /// models, and only its models that come that near ours (each found once).
    #[inline(never)]
    pub(super) fn models_clash(&self, id: Id, p: Point, gap: f64, (other, at, ro_disc): (Id, Point, f64)) -> bool {
        let r = self.radius(id);
        // (squared: a list of candidates needs no roots, and 1e-6 keeps every model that can
        // clash in it, the test itself below being the exact one)
        let near = |o: Point, ro: f64| {
            let reach = r + ro + gap + 1e-6;
            o.distance2(p) < reach * reach
        };
        let pair = |q: Point, rq: f64, (o, ro): (Point, f64)| q.distance(o) < rq + ro + gap - EPS;
        let ours_near = |theirs: &dyn Fn(Point, f64) -> bool| self.models_at(id, p).any(|(_, q, rq)| q.distance(at) < rq + ro_disc + gap + 1e-6 && theirs(q, rq));
        // theirs that come that near, gathered on the stack (no copies of a list); a unit with
        // more of them than that is read again for each of ours
        const ON_STACK: usize = 32;
        let mut theirs = [(Point::default(), 0.0f64); ON_STACK];
        let mut n = 0;
        for (_, o, ro) in self.models(other) {
            if near(o, ro) {
                if n == ON_STACK {
                    return ours_near(&|q, rq| self.models(other).filter(|&(_, o, ro)| near(o, ro)).any(|(_, o, ro)| pair(q, rq, (o, ro))));
                }
                theirs[n] = (o, ro);
                n += 1;
            }
        }
        n > 0 && ours_near(&|q, rq| theirs[..n].iter().any(|&t| pair(q, rq, t)))
    }

    /// The legal spot fully within `depth` of `id`'s army's edge nearest the front of the
    /// zone, on a half-inch grid (deployment's fallback when the policy's samples find none);
    /// off dangerous terrain if it can be.
    /// (Out of line and cold: a fallback, rarely taken; deployment's own code stays small.)
    #[cold]
    #[inline(never)]
    pub(super) fn any_spot(&self, id: Id, depth: f64) -> Option<Point> {
        const STEP: f64 = 0.5;
        let mut fallback = None;
        let rows = (depth / STEP).floor() as usize;
        let cols = (self.rules.table.width / STEP).floor() as usize;
        // "fully within 12"": every model, from the edge
        let edge = self.from_edge(id.0, 0.0, 0.0).y;
        let pos = self.live(id).pos;
        let (back, front) = self.models(id).fold((f64::INFINITY, f64::NEG_INFINITY), |(b, f), (_, q, rq)| {
            let y = (q.y - pos.y) * if edge == 0.0 { 1.0 } else { -1.0 };
            (b.min(y - rq), f.max(y + rq))
        });
        let crowd = self.crowd(id);
        let (r, gap) = (self.radius(id), self.rules.moves.unit_gap);
        // the columns whose spots keep the disc or else every model within the table's width
        // (`spot_ok_on_table`'s tests along `x`, the same in every row): every spot beyond
        // them is off the table, and the tests are monotone along the row
        let table = self.rules.table;
        let fits_x = |col: usize, fits: &dyn Fn(f64, f64) -> bool| {
            let x = col as f64 * STEP;
            fits(x, r) || self.models(id).all(|(_, q, rq)| fits(q.x + x - pos.x, rq))
        };
        let first = (0..=cols).find(|&c| fits_x(c, &|x, r| table.clear_of_left(x, r, EPS))).unwrap_or(cols + 1);
        let Some(last) = (0..=cols).rev().find(|&c| fits_x(c, &|x, r| table.clear_of_right(x, r, EPS))) else { return None };
        // (the units that may come near a spot of the row, found once a row)
        let mut near = Vec::new();
        for row in (0..=rows).rev() {
            let y = row as f64 * STEP;
            if y + back < -EPS || y + front > depth + EPS {
                continue;
            }
            crowd.row(r, self.from_edge(id.0, 0.0, y).y, gap, &mut near);
            let mut col = first;
            while col <= last {
                let p = self.from_edge(id.0, col as f64 * STEP, y);
                match self.refusal_given(id, p, || crowd.first_clash_on_line(&near, p.x, r, p, gap)) {
                    // a spot that clashes with a model of another unit clashes with it all
                    // along the run of the row where the same two models stay that near,
                    // which is passed over at once
                    Some(Refusal::Clash(hit)) => {
                        col += crowd.clash_steps(hit, r, p, gap, (1.0, 0.0), STEP, last - col, |n| self.from_edge(id.0, (col + n) as f64 * STEP, y)) + 1;
                        continue;
                    }
                    Some(Refusal::Table) => {
                        col += 1;
                        continue;
                    }
                    None => col += 1,
                }
                if self.models_in_dangerous_at(id, p) == 0 {
                    return Some(p);
                }
                fallback = fallback.or(Some(p));
            }
        }
        fallback
    }

    /// "within 3" of a marker", from the closest of `id`'s models as they would stand with
    /// the unit's disc centred on `p` (the one measure of markers for the rules and the policies).
    /// (Inline: the disc settles most calls; the models' test is out of line.)
    #[inline]
    pub fn near_marker_at(&self, id: Id, p: Point, marker: Point) -> bool {
        // the disc holds the models: beyond 3" of it, no model is within 3"
        // (to a millionth of an inch, as `within`: a unit that moved back 1" from a marker 2"
        // away is on it)
        let reach = self.rules.markers.range + EPS;
        // (one model left: the disc is its base, as `gap` reads it)
        p.distance(marker) - self.radius(id) <= reach && (self.live(id).left <= 1 || self.a_model_near_marker(id, p, marker, reach))
    }

    /// `near_marker_at`'s test of the models.
    #[inline(never)]
    pub(super) fn a_model_near_marker(&self, id: Id, p: Point, marker: Point, reach: f64) -> bool {
        self.models_at(id, p).any(|(_, q, r)| q.distance(marker) - r <= reach)
    }

    /// `near_marker_at` where `id` stands.
    pub fn near_marker(&self, id: Id, marker: Point) -> bool {
        self.near_marker_at(id, self.live(id).pos, marker)
    }

    /// Whether `id` may seize and stands within 3" of some marker.
    pub fn on_marker(&self, id: Id) -> bool {
        self.may_seize(id) && self.objectives.iter().any(|&o| self.near_marker(id, o))
    }
}

/// The units a unit must keep away from (`View::nearby`).
pub enum Nearby {
    Few(Short<(Id, Point, f64), 32>),
    Many(Crowd),
}

/// The units a unit must keep away from, their models, and the unit's own models where it
/// stands now (`View::crowd`): `clashes` for many spots without finding anyone's models again.
pub struct Crowd {
    /// Each unit's disc (centre, radius) and the unit, in the order of their centres' `y` (a
    /// spot is tested only against the discs that reach its row).
    units: Vec<(Point, f64, Id)>,
    /// The range of each unit's models in `models` (as `units`), `UNFOUND` until first asked
    /// (`Crowd::theirs`).
    theirs: Vec<Cell<(u32, u32)>>,
    models: RefCell<Vec<(Point, f64)>>,
    mine: Vec<(Point, f64)>,
    pos: Point,
    /// The widest of their discs' radii.
    widest: f64,
}

/// A unit of a crowd whose models are not found yet.
const UNFOUND: (u32, u32) = (u32::MAX, u32::MAX);

/// Two models that clash (`Crowd::first_clash`): the other unit's disc (its centre and
/// radius), the index of our model in `Crowd::mine` and of theirs in `Crowd::models`.
#[derive(Debug, Clone, Copy)]
pub struct Clash {
    at: Point,
    ro_disc: f64,
    mine: usize,
    theirs: usize,
}

/// Why a spot is refused (`View::refusal_in_crowd`).
#[derive(Debug, Clone, Copy)]
pub enum Refusal {
    Clash(Clash),
    /// Off the table, or in impassable terrain.
    Table,
}

impl Crowd {
    /// Whether the unit (its disc of radius `r` centred on `p`) comes within `gap` of any of
    /// them, `View::clashes` for each (the same tests, to the bit, from the models found
    /// once), with the first two models found too near.
    /// (`g`: the game as the crowd was gathered, to find the models of a unit first reached.)
    pub fn first_clash(&self, g: &View, r: f64, p: Point, gap: f64) -> Option<Clash> {
        self.first_clash_among(self.band(r, p.y, gap), r, p, gap, Some(g))
    }

    /// The range in `models` of the models of unit `u` (its index in `units`), found now if
    /// they were not yet (from `g`, which every crowd but `crowd_near`'s, where all are
    /// found at once, is asked with).
    fn theirs(&self, u: usize, g: Option<&View>) -> std::ops::Range<usize> {
        let mut range = self.theirs[u].get();
        if range == UNFOUND {
            let g = g.expect("a crowd's models are found at once unless a game is at hand");
            let mut models = self.models.borrow_mut();
            let lo = models.len() as u32;
            models.extend(g.models(self.units[u].2).map(|(_, q, r)| (q, r)));
            range = (lo, models.len() as u32);
            self.theirs[u].set(range);
        }
        range.0 as usize..range.1 as usize
    }

    /// The indices of the units (in `units`) whose discs may reach a spot at `y`: a unit
    /// further off in `y` than any disc reaches fails the discs' test (the margin only lets
    /// more in).
    fn band(&self, r: f64, y: f64, gap: f64) -> std::ops::Range<usize> {
        let reach = r + self.widest + gap + 1e-3;
        let from = self.units.partition_point(|u| u.0.y < y - reach);
        let to = self.units.partition_point(|u| u.0.y <= y + reach);
        from..to.max(from)
    }

    /// `first_clash` against the units `candidates` (indices in `units`, in their order).
    #[inline(always)]
    fn first_clash_among(&self, candidates: impl Iterator<Item = usize>, r: f64, p: Point, gap: f64, g: Option<&View>) -> Option<Clash> {
        candidates.into_iter().find_map(|u| {
            let (at, ro_disc, _) = self.units[u];
            if !Self::discs_near(r, p, gap, at, ro_disc, 0.0) {
                return None;
            }
            let range = self.theirs(u, g);
            let (mine, theirs) = self.models_clash(&self.models.borrow(), r, p, gap, (at, ro_disc), range)?;
            Some(Clash { at, ro_disc, mine, theirs })
        })
    }

    /// The units whose discs may reach a spot of the row at `y` (`band`, then `line`), for
    /// `first_clash_on_line` with each spot's `x`.
    pub fn row(&self, r: f64, y: f64, gap: f64, out: &mut Vec<(f64, f64, usize)>) {
        self.line(self.band(r, y, gap), r, gap, Point::new(0.0, y), (1.0, 0.0), out);
    }

    /// The units whose discs may reach a spot of the ray from `from` along `(cos, sin)`, for
    /// `first_clash_on_line` with each spot's distance along it.
    pub fn ray(&self, r: f64, gap: f64, from: Point, (cos, sin): (f64, f64), out: &mut Vec<(f64, f64, usize)>) {
        self.line(0..self.units.len(), r, gap, from, (cos, sin), out);
    }

    /// Of the units `among`, those whose discs may reach a spot of the line from `from`
    /// along the unit vector `(cos, sin)`, each with the stretch of the line (distances along
    /// it) where they may: a little wider than the discs' test (the margins only let more in).
    fn line(&self, among: std::ops::Range<usize>, r: f64, gap: f64, from: Point, (cos, sin): (f64, f64), out: &mut Vec<(f64, f64, usize)>) {
        out.clear();
        for u in among {
            let (at, ro_disc) = (self.units[u].0, self.units[u].1);
            let (dx, dy) = (at.x - from.x, at.y - from.y);
            let (along, across) = (dx * cos + dy * sin, dx * sin - dy * cos);
            let reach = r + ro_disc + gap + 1e-3;
            if across * across < reach * reach {
                let half = (reach * reach - across * across).sqrt() + 1e-3;
                out.push((along - half, along + half, u));
            }
        }
    }

    /// `first_clash` for a spot `t` along a line whose units `line` lists (from `row` or
    /// `ray`): the same answer, testing only the units whose discs may reach it.
    pub fn first_clash_on_line(&self, line: &[(f64, f64, usize)], t: f64, r: f64, p: Point, gap: f64) -> Option<Clash> {
        self.first_clash_among(line.iter().filter(|u| t > u.0 && t < u.1).map(|u| u.2), r, p, gap, None)
    }

    /// `View::clashes`'s test of the discs, `margin` inside it.
    #[inline(always)]
    fn discs_near(r: f64, p: Point, gap: f64, at: Point, ro_disc: f64, margin: f64) -> bool {
        let reach = r + ro_disc + gap;
        let (dx, dy) = (p.x - at.x, p.y - at.y);
        dx * dx + dy * dy < (reach + 1e-6) * (reach + 1e-6) && p.distance(at) < reach - EPS - margin
    }

    /// `View::models_clash`'s test of one of our models (its index in `mine`) and one of
    /// theirs, `margin` inside it.
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn models_near(&self, models: &[(Point, f64)], r: f64, p: Point, gap: f64, (at, ro_disc): (Point, f64), mine: usize, theirs: usize, margin: f64) -> bool {
        let (q, rq) = self.mine_at(mine, p);
        Self::mine_near_disc(q, rq, gap, (at, ro_disc), margin) && Self::pair_near(models, r, p, gap, q, rq, theirs, margin)
    }

    /// Our model `mine` as it stands with our disc centred on `p` (as `models_at` moves it).
    #[inline(always)]
    fn mine_at(&self, mine: usize, p: Point) -> (Point, f64) {
        self.moved(self.mine[mine], p)
    }

    /// One of our models (where it stands now) moved with our disc to `p`.
    #[inline(always)]
    fn moved(&self, (q, rq): (Point, f64), p: Point) -> (Point, f64) {
        (Point::new(q.x + p.x - self.pos.x, q.y + p.y - self.pos.y), rq)
    }

    /// `models_near`'s test of our model (at `q`) alone: it comes that near the other's disc.
    #[inline(always)]
    fn mine_near_disc(q: Point, rq: f64, gap: f64, (at, ro_disc): (Point, f64), margin: f64) -> bool {
        q.distance(at) < rq + ro_disc + gap + 1e-6 - margin
    }

    /// `models_near`'s tests of their model `theirs` with ours (at `q`).
    #[inline(always)]
    #[allow(clippy::too_many_arguments)]
    fn pair_near(models: &[(Point, f64)], r: f64, p: Point, gap: f64, q: Point, rq: f64, theirs: usize, margin: f64) -> bool {
        let (o, ro) = models[theirs];
        let reach = r + ro + gap + 1e-6;
        o.distance2(p) < reach * reach - margin && q.distance(o) < rq + ro + gap - EPS - margin
    }

    /// `View::models_clash` against one unit whose models are `theirs` (their indices in
    /// `models`; ours moved as `models_at` moves them): the first two found too near.
    /// (`models_near` for each pair in the same order, our model's own test taken once.)
    #[inline(never)]
    fn models_clash(&self, models: &[(Point, f64)], r: f64, p: Point, gap: f64, disc: (Point, f64), theirs: std::ops::Range<usize>) -> Option<(usize, usize)> {
        self.mine.iter().enumerate().find_map(|(k, &model)| {
            let (q, rq) = self.moved(model, p);
            if !Self::mine_near_disc(q, rq, gap, disc, 0.0) {
                return None;
            }
            theirs.clone().find(|&m| Self::pair_near(models, r, p, gap, q, rq, m, 0.0)).map(|m| (k, m))
        })
    }

    /// How many further spots of a line scanned in steps of `step` along the unit vector
    /// `dir` (`p` the spot where `hit` was found, `spot_at(n)` the spot `n` steps on, at most
    /// `max_steps`) `hit`'s two models surely still clash at, so that they fail too: each of
    /// the tests is a distance from a point moving along the line to a fixed one below a
    /// bound, which holds on a segment if it holds at both ends; the far end is checked a
    /// little inside each bound. 0 when none is sure.
    #[allow(clippy::too_many_arguments)]
    pub fn clash_steps(&self, hit: Clash, r: f64, p: Point, gap: f64, (dx, dy): (f64, f64), step: f64, max_steps: usize, spot_at: impl Fn(usize) -> Point) -> usize {
        let models = self.models.borrow();
        let (q, rq) = self.mine_at(hit.mine, p);
        let (o, ro) = models[hit.theirs];
        // where our model, moved along the line, stops being that near theirs
        let bound = rq + ro + gap - EPS;
        let (wx, wy) = (o.x - q.x, o.y - q.y);
        let (along, across) = (wx * dx + wy * dy, wx * dy - wy * dx);
        if bound * bound <= across * across {
            return 0;
        }
        let beyond = along + (bound * bound - across * across).sqrt();
        let n = ((beyond / step).floor().max(0.0) as usize).min(max_steps);
        if n == 0 {
            return 0;
        }
        const INSIDE: f64 = 1e-9;
        let end = spot_at(n);
        let disc = (hit.at, hit.ro_disc);
        if Self::discs_near(r, end, gap, hit.at, hit.ro_disc, INSIDE) && self.models_near(&models, r, end, gap, disc, hit.mine, hit.theirs, INSIDE) && Self::discs_near(r, p, gap, hit.at, hit.ro_disc, INSIDE) && self.models_near(&models, r, p, gap, disc, hit.mine, hit.theirs, INSIDE) {
            n
        } else {
            0
        }
    }
}
