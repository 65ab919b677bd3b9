//! Where a unit's models stand: each model on its own round base, in a formation that keeps
//! the guide's coherency, with casualties taken from the back.
//!
//! gf-3.5: "All models in a unit must always stay within 1" of at least one other model, and
//! must stay within 9" of all other models (or as close as possible), forming an
//! uninterrupted chain of models in 1" coherency with each other"; "The defending player may
//! remove models from the target in any order, keeping unit coherency in mind."
//!
//! A formation is laid out once per unit, front first: the model removed last stands at the
//! front centre, and each next model is placed `SPACING` from one already placed, as near the
//! front and as wide as it can. Removal then goes from the back (the reverse of placement),
//! so every model left is still chained to the front model through models placed before it:
//! coherency holds for every number of casualties by construction. The formation faces the
//! enemy's table edge (players keep their line towards the enemy).

/// Inches between neighbouring bases: within the 1" coherency with room to spare.
pub const SPACING: f64 = 0.5;

/// A model's base radius in inches, by its Tough: the guide's "Infantry: ... 20mm/32mm round
/// bases", "Large Infantry: ... 40mm/50mm", "Monsters: ... 60mm", "Large Walkers: ... 120mm
/// oval" (25mm infantry, 40mm for Tough(3), 60mm for Tough(6), 100mm for Tough(12) and up).
pub fn base_radius(tough: u32) -> f64 {
    let diameter = match tough {
        0..=2 => 1.0,
        3..=5 => 1.6,
        6..=11 => 2.4,
        _ => 4.0,
    };
    diameter / 2.0
}

/// The least width any formation of bases of these radii can have, whatever its shape. Two
/// bounds: discs `SPACING / 2` wider than the bases are disjoint, so they cover at most the
/// area of the formation's disc widened by as much; and the centres are at least
/// `2 r + SPACING` apart (`r` the smallest base) inside a disc of radius `R - r`, so by
/// Oler's inequality for points at least `D` apart in a convex region of area `A` and
/// perimeter `P`, `n ≤ 2A / (√3 D²) + P / (2D) + 1`.
pub fn least_width(bases: &[f64]) -> f64 {
    let Some(smallest) = bases.iter().copied().reduce(f64::min) else { return 0.0 };
    let area: f64 = bases.iter().map(|r| (r + SPACING / 2.0).powi(2)).sum();
    let by_area = area.sqrt() - SPACING / 2.0 - 1e-9;
    // the least ρ with 2πρ² / (√3 D²) + πρ / D + 1 ≥ n (bases may stand 1e-9 nearer)
    let (d, n) = (2.0 * smallest + SPACING - 1e-9, bases.len() as f64);
    let (a, b) = (2.0 * std::f64::consts::PI / (3f64.sqrt() * d * d), std::f64::consts::PI / d);
    let rho = (-b + (b * b + 4.0 * a * (n - 1.0)).sqrt()) / (2.0 * a);
    2.0 * by_area.max(rho + smallest)
}

/// One model's place relative to the formation's origin (the front model), `+y` towards the
/// enemy, and its base radius.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Slot {
    pub x: f64,
    pub y: f64,
    pub r: f64,
}

/// The smallest-found disc holding some of the models: its centre relative to the origin and
/// its radius.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Hull {
    pub x: f64,
    pub y: f64,
    pub r: f64,
}

/// A unit's formation: a slot per model in removal order (slot 0 is removed first), and the
/// disc holding the models left after each number of removals.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Formation {
    pub slots: Vec<Slot>,
    /// `hulls[k][h]`: after the first `k` models are removed, and (`h = 1`) with the last
    /// slot's model (a joined hero) also dead out of order.
    hulls: Vec<[Hull; 2]>,
}

impl Formation {
    /// The formation of models with these base radii, in removal order; `joined_hero`: the
    /// last is a joined hero, which may die out of order (Takedown picks it), so it stands
    /// beside the front model and no other model chains through it.
    pub fn new(bases: &[f64], joined_hero: bool) -> Formation {
        let n = bases.len();
        let mut slots = vec![Slot::default(); n];
        let hero_at = (joined_hero && n >= 2).then_some(1);
        let mut layout = Layout::new(bases.iter().copied().fold(0.0, f64::max), hero_at);
        for i in placement_order(n, joined_hero) {
            slots[i] = layout.place(bases[i]);
        }
        let hulls = (0..=n).map(|k| [hull(&slots, k, false), hull(&slots, k, true)]).collect();
        Formation { slots, hulls }
    }

    /// The disc of the models left when the first `k` are removed (`hero_dead`: the last
    /// slot's model too).
    pub fn hull(&self, k: u32, hero_dead: bool) -> Hull {
        let k = (k as usize).min(self.hulls.len().saturating_sub(1));
        self.hulls.get(k).map_or(Hull::default(), |h| h[usize::from(hero_dead)])
    }

    /// The slots of the models left.
    pub fn alive(&self, k: u32, hero_dead: bool) -> impl Iterator<Item = (usize, &Slot)> + '_ {
        let last = self.slots.len().saturating_sub(1);
        self.slots.iter().enumerate().skip(k as usize).filter(move |(i, _)| !(hero_dead && *i == last))
    }

    /// The full unit's disc radius.
    pub fn radius(&self) -> f64 {
        self.hull(0, false).r
    }

    /// The widest disc of the unit after any casualties: re-centred on the models left, a
    /// disc can be a little wider than the full unit's.
    pub fn widest(&self) -> f64 {
        self.hulls.iter().flatten().map(|h| h.r).fold(0.0, f64::max)
    }
}

/// Placement order: the front model first (the last to be removed), then the hero beside
/// it if any, then the others from front to back.
fn placement_order(n: usize, joined_hero: bool) -> Vec<usize> {
    if joined_hero && n >= 2 { [n - 2, n - 1].into_iter().chain((0..n - 2).rev()).collect() } else { (0..n).rev().collect() }
}

const DIRECTIONS: usize = 24;

/// The spot `k` of the `DIRECTIONS` around `p` for a base of radius `r`, touching it at `SPACING`.
fn around(p: &Slot, r: f64, k: usize) -> Slot {
    let d = p.r + r + SPACING;
    let a = (k as f64) * std::f64::consts::TAU / DIRECTIONS as f64;
    Slot { x: p.x + d * a.cos(), y: p.y + d * a.sin(), r }
}

/// How far a spot is from where the next model would rather stand: ranks behind the front
/// are cheaper than models ahead of it; width cheaper than depth.
fn spot_score(c: &Slot) -> f64 {
    let depth = if c.y > 1e-9 { 3.0 * c.y } else { -c.y };
    (0.85 * c.x).hypot(depth)
}

/// The models placed so far, with what makes the next spot quick to find in units of
/// hundreds of models: a grid of cells as wide as the widest gap two bases can need (so a
/// spot's clashes are in the 3 × 3 cells around it), and the spots around each model found
/// to clash for the current base size (placing more models never frees one); models too
/// far from the best spot found are passed over. The spots found are those of
/// [`next_spot_literal`], the plain search, in the same order.
struct Layout {
    placed: Vec<Slot>,
    /// `spot_score` of each placed model.
    scores: Vec<f64>,
    cell: f64,
    grid: rustc_hash::FxHashMap<(i64, i64), Vec<usize>>,
    /// `free[j]`: a bit for each of the `DIRECTIONS` spots around model `j` not yet found to
    /// clash, for bases of radius `free_for` (a spot that clashes always will).
    free: Vec<u32>,
    free_for: f64,
    /// The model no other may chain through (a joined hero).
    leaf: Option<usize>,
}

const ALL_DIRECTIONS: u32 = (1 << DIRECTIONS) - 1;

impl Layout {
    fn new(widest: f64, leaf: Option<usize>) -> Layout {
        Layout { placed: Vec::new(), scores: Vec::new(), cell: 2.0 * widest + SPACING, grid: Default::default(), free: Vec::new(), free_for: f64::NAN, leaf }
    }

    fn cell_of(&self, x: f64, y: f64) -> (i64, i64) {
        ((x / self.cell).floor() as i64, (y / self.cell).floor() as i64)
    }

    /// Whether a base at `c` would stand nearer than `SPACING` to a placed model (the
    /// distance taken only where the squared one leaves it in doubt).
    fn clashes(&self, c: &Slot) -> bool {
        let (cx, cy) = self.cell_of(c.x, c.y);
        (cx - 1..=cx + 1).any(|gx| {
            (cy - 1..=cy + 1).any(|gy| {
                self.grid.get(&(gx, gy)).is_some_and(|ids| ids.iter().any(|&q| {
                    let q = &self.placed[q];
                    let (dx, dy, near) = (q.x - c.x, q.y - c.y, q.r + c.r + SPACING - 1e-9);
                    dx * dx + dy * dy < (near + 1e-6) * (near + 1e-6) && dx.hypot(dy) < near
                }))
            })
        })
    }

    /// Places the next model (base radius `r`) and returns its slot.
    fn place(&mut self, r: f64) -> Slot {
        let slot = if self.placed.is_empty() { Slot { x: 0.0, y: 0.0, r } } else { self.next_spot(r) };
        let key = self.cell_of(slot.x, slot.y);
        self.grid.entry(key).or_default().push(self.placed.len());
        self.placed.push(slot);
        self.scores.push(spot_score(&slot));
        self.free.push(ALL_DIRECTIONS);
        slot
    }

    /// The free spot for a base of radius `r` touching (at `SPACING`) a placed model, nearest
    /// the front and preferring width over depth; never touching only the leaf.
    fn next_spot(&mut self, r: f64) -> Slot {
        if r != self.free_for {
            self.free.iter_mut().for_each(|f| *f = ALL_DIRECTIONS);
            self.free_for = r;
        }
        let mut best: Option<(f64, Slot)> = None;
        for j in 0..self.placed.len() {
            if self.leaf == Some(j) || self.free[j] == 0 {
                continue;
            }
            // no spot around a model far behind or aside can beat the best found: the score
            // grows by at most 3 per inch, and its spots are `d` from it (so the plain search's
            // choice stands)
            let d = self.placed[j].r + r + SPACING;
            if best.is_some_and(|(b, _)| self.scores[j] - 3.0 * d - 1e-6 > b) {
                continue;
            }
            for k in 0..DIRECTIONS {
                if self.free[j] & (1 << k) == 0 {
                    continue;
                }
                let c = around(&self.placed[j], r, k);
                // keep the 1" chain: at SPACING from `p`, and no nearer than SPACING to any other
                if self.clashes(&c) {
                    self.free[j] &= !(1 << k);
                    continue;
                }
                let score = spot_score(&c);
                if best.is_none_or(|(b, _)| score < b - 1e-12) {
                    best = Some((score, c));
                }
            }
        }
        best.map(|(_, s)| s).expect("a spot around the placed models is always free")
    }
}

/// The plain search [`Layout`] speeds up: every spot around every placed model, each checked
/// against every placed model. Kept as the oracle of the fast one.
#[cfg(test)]
fn next_spot_literal(placed: &[Slot], r: f64, leaf: Option<usize>) -> Slot {
    let mut best: Option<(f64, Slot)> = None;
    for (j, p) in placed.iter().enumerate() {
        if leaf == Some(j) {
            continue;
        }
        for k in 0..DIRECTIONS {
            let c = around(p, r, k);
            if placed.iter().any(|q| (q.x - c.x).hypot(q.y - c.y) < q.r + r + SPACING - 1e-9) {
                continue;
            }
            let score = spot_score(&c);
            if best.is_none_or(|(b, _)| score < b - 1e-12) {
                best = Some((score, c));
            }
        }
    }
    best.map(|(_, s)| s).expect("a spot around the placed models is always free")
}

/// The disc holding the slots left: centred on their bounding box.
fn hull(slots: &[Slot], k: usize, hero_dead: bool) -> Hull {
    let last = slots.len().saturating_sub(1);
    let left: Vec<&Slot> = slots.iter().enumerate().skip(k).filter(|(i, _)| !(hero_dead && *i == last)).map(|(_, s)| s).collect();
    if left.is_empty() {
        return Hull::default();
    }
    let (mut x0, mut y0, mut x1, mut y1) = (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for s in &left {
        x0 = x0.min(s.x - s.r);
        y0 = y0.min(s.y - s.r);
        x1 = x1.max(s.x + s.r);
        y1 = y1.max(s.y + s.r);
    }
    let (x, y) = ((x0 + x1) / 2.0, (y0 + y1) / 2.0);
    // the farthest reach; the distance taken only where the squared one may beat it
    let mut r: f64 = 0.0;
    for s in &left {
        let (dx, dy, need) = (s.x - x, s.y - y, r - s.r);
        if need > 0.0 && dx * dx + dy * dy < need * need * (1.0 - 1e-9) {
            continue;
        }
        r = r.max(dx.hypot(dy) + s.r);
    }
    Hull { x, y, r }
}

/// Whether models (centre and radius) are in coherency as the edition says (`Coherency`): a
/// chain in which each link is within `link` edge to edge, and every two within `spread`
/// ("or as close as possible": callers pass what the unit can do).
pub fn coherent(models: &[(f64, f64, f64)], link: f64, spread: f64) -> bool {
    let n = models.len();
    if n <= 1 {
        return true;
    }
    let gap = |a: usize, b: usize| (models[a].0 - models[b].0).hypot(models[a].1 - models[b].1) - models[a].2 - models[b].2;
    let mut reached = vec![false; n];
    let mut stack = vec![0];
    reached[0] = true;
    while let Some(a) = stack.pop() {
        for (b, seen) in reached.iter_mut().enumerate() {
            if !*seen && gap(a, b) <= link + 1e-9 {
                *seen = true;
                stack.push(b);
            }
        }
    }
    reached.iter().all(|&r| r) && (0..n).all(|a| (a + 1..n).all(|b| gap(a, b) <= spread + 1e-9))
}

#[cfg(test)]
mod tests {
    use super::*;
    const V3_5: crate::game::rules::GameRules = crate::game::rules::GameRules::V3_5;

    fn models_left(f: &Formation, k: u32, hero_dead: bool) -> Vec<(f64, f64, f64)> {
        f.alive(k, hero_dead).map(|(_, s)| (s.x, s.y, s.r)).collect()
    }

    #[test]
    fn every_number_of_casualties_keeps_coherency() {
        // "All models in a unit must always stay within 1" of at least one other model ...
        // forming an uninterrupted chain"; "remove models ... keeping unit coherency in mind"
        let mixes: Vec<Vec<f64>> = vec![
            vec![0.5; 1],
            vec![0.5; 5],
            vec![0.5; 10],
            vec![0.5; 20],
            [vec![0.5; 19], vec![0.8]].concat(),
            [vec![0.8; 3], vec![1.2]].concat(),
            [vec![0.5; 9], vec![0.8; 3], vec![0.5]].concat(),
            vec![2.0; 3],
            vec![0.5; 40],
        ];
        for (bases, joined) in mixes.into_iter().flat_map(|b| [(b.clone(), false), (b, true)]) {
            let f = Formation::new(&bases, joined);
            for k in 0..=bases.len() as u32 {
                for hero_dead in [false, true] {
                    if hero_dead && (k as usize + 1 >= bases.len() || !joined) {
                        continue;
                    }
                    let left = models_left(&f, k, hero_dead);
                    assert!(coherent(&left, V3_5.coherency.link, f64::INFINITY), "chain broken: {} models, {k} removed", bases.len());
                    // "within 9" of all other models (or as close as possible)": 20 infantry fit
                    if bases.len() <= 20 {
                        assert!(coherent(&left, V3_5.coherency.link, V3_5.coherency.spread), "spread over 9\": {} models", bases.len());
                    }
                    // the hull holds every model left
                    let h = f.hull(k, hero_dead);
                    for (x, y, r) in &left {
                        assert!((x - h.x).hypot(y - h.y) + r <= h.r + 1e-9);
                    }
                }
            }
        }
    }

    #[test]
    fn bases_do_not_overlap_and_casualties_leave_from_the_back() {
        let bases = [vec![0.5; 14], vec![0.8]].concat();
        let f = Formation::new(&bases, true);
        for (i, a) in f.slots.iter().enumerate() {
            for b in &f.slots[i + 1..] {
                assert!((a.x - b.x).hypot(a.y - b.y) >= a.r + b.r + SPACING - 1e-9);
            }
        }
        // the last models removed (the front model and a joined hero beside it) stand in front
        let top = f.slots.iter().map(|s| s.y).fold(f64::NEG_INFINITY, f64::max);
        assert!(f.slots[13].y >= top - 0.5 && f.slots[14].y >= top - 0.5, "{:?}", f.slots);
        // the disc shrinks with the models: one model left is its own base
        assert!(f.hull(14, false).r == 0.8 && f.radius() > 2.0);
        assert!(f.hull(15, false).r == 0.0);
    }

    #[test]
    fn a_unit_of_twenty_stands_in_a_compact_line() {
        // a 20-model infantry unit: about 4" deep or less and wider than deep
        let f = Formation::new(&[0.5; 20], false);
        let (x0, x1) = f.slots.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), s| (a.min(s.x), b.max(s.x)));
        let (y0, y1) = f.slots.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), s| (a.min(s.y), b.max(s.y)));
        assert!(x1 - x0 > y1 - y0 && y1 - y0 <= 4.5, "{}x{}", x1 - x0, y1 - y0);
    }

    #[test]
    fn the_quick_layout_places_every_model_where_the_plain_search_does() {
        let mixes: Vec<(Vec<f64>, bool)> = vec![
            (vec![0.5; 60], false),
            ([vec![0.5; 40], vec![0.8]].concat(), true),
            ([vec![0.8; 7], vec![0.5; 30], vec![1.2; 5], vec![2.0; 3], vec![0.5]].concat(), true),
            ([vec![2.0; 9], vec![0.5; 25]].concat(), false),
        ];
        for (bases, joined) in mixes {
            let hero_at = (joined && bases.len() >= 2).then_some(1);
            let mut placed: Vec<Slot> = Vec::new();
            let mut slots = vec![Slot::default(); bases.len()];
            for i in placement_order(bases.len(), joined) {
                let r = bases[i];
                let slot = if placed.is_empty() { Slot { x: 0.0, y: 0.0, r } } else { next_spot_literal(&placed, r, hero_at) };
                placed.push(slot);
                slots[i] = slot;
            }
            assert_eq!(Formation::new(&bases, joined).slots, slots, "{} models", bases.len());
        }
    }

    #[test]
    fn no_formation_is_narrower_than_the_least_width() {
        // and no disc of the models left after casualties is narrower than the full unit's
        for bases in [vec![0.5; 1], vec![0.5; 20], vec![0.5; 400], vec![2.0; 30], [vec![0.5; 40], vec![1.2]].concat(), [vec![0.8; 9], vec![0.5; 9]].concat()] {
            let f = Formation::new(&bases, false);
            assert!(least_width(&bases) <= 2.0 * f.radius() + 1e-9, "{} models: {} against {}", bases.len(), least_width(&bases), 2.0 * f.radius());
            assert!(f.widest() >= f.radius());
        }
        // a thousand infantry need more than the table's 48"
        assert!(least_width(&[0.5; 1000]) > 48.0);
    }
}
