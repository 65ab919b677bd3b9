//! The routes a unit may take: "Models may move and turn in any direction regardless of their
//! facing, as long as no part of their bases move further than the total movement distance",
//! "may never move through other models or units", round impassable terrain, difficult
//! terrain's 6", and charges "into base contact with an enemy model from the target unit, or
//! as close as possible". Queries of the game as it stands: the policy plans with them and
//! the phases (`movement`, `charge`) move along what they find.

use super::paths;
use super::paths::Bends;
use super::paths::Goal;
use super::paths::Paths;
use super::paths::Widening;
use super::paths::DANGEROUS;
use super::paths::DANGEROUS_DETOUR;
use super::paths::DIFFICULT;
use super::paths::IMPASSABLE;
use super::paths::MARGIN;
use super::paths::UNIT;
use super::prepare::Movement;
use super::table::Point;
use super::space::terrain_class;
use super::state::EPS;
use super::live::Id;
use super::prepare::bit;
use super::paths::Path;
use super::state::View;

impl<'a> View<'a> {
    /// A charge path's last step: from its end (where the discs touch) on towards the
    /// target's closest model until it is in base contact with the closest of the charger's
    /// ("Charging models must move ... to get into base contact with an enemy model from the
    /// target unit, or as close as possible"), within `budget` more inches and only onto
    /// spots it may take. Moving the closest pair together by their gap brings no other pair
    /// closer than that gap, so no model overlaps.
    pub(super) fn close_in(&self, id: Id, target: Id, path: Path, budget: f64) -> Path {
        let mut out = path;
        for _ in 0..3 {
            let (gap, ours, theirs) = self.closest_pair_at(id, out.to, target);
            let left = budget - (out.length - path.length);
            if gap <= 1e-6 || left <= 1e-6 {
                break;
            }
            let len = ours.distance(theirs).max(EPS);
            let mut step = gap.min(left);
            let mut moved = false;
            for _ in 0..4 {
                let to = Point::new(out.to.x + (theirs.x - ours.x) * step / len, out.to.y + (theirs.y - ours.y) * step / len);
                if self.spot_ok(id, to, true) {
                    // the step in starts where the discs touched: a bend, so the legs are
                    // the path (with no room for one, the last leg cuts the corner and the
                    // length is the legs')
                    let bent = out.via.push(out.to);
                    out.to = to;
                    out.length = if bent { out.length + step } else { out.legs(self.live(id).pos).map(|(a, b)| a.distance(b)).sum() };
                    moved = true;
                    break;
                }
                step /= 2.0;
            }
            if !moved {
                break;
            }
        }
        out
    }

    /// The path of a charge of `id` into `target`: up to the charge distance (6" through
    /// difficult terrain) into base contact, the shortest way round what it may not cross
    /// ("Charge moves don't have to be in a straight line"). `None`: not a valid target.
    pub fn charge_path(&self, id: Id, target: Id) -> Option<Path> {
        let t = self.clock();
        let out = self.find_charge(id, target);
        self.lap(t, |x| &mut x.movement);
        out
    }

    /// How far `id` may move to charge `target`: its charge move less the target's
    /// `ChargePenalty` (Melee Shrouding: "Enemies get -3" movement when trying to charge").
    pub fn charge_reach(&self, id: Id, target: Id) -> f64 {
        (self.movement(id).charge - self.info(target).tricks.charge_penalty).max(0.0)
    }

    /// "Charging models must move by up to 12" to get into base contact with an enemy model
    /// from the target unit ... (charge moves don't have to be in a straight line)": the
    /// shortest route to any point in contact with the target, round impassable terrain and
    /// through no other unit (touching them is allowed: "may ignore the 1" distance
    /// restriction"), within the charge allowance (6" if it touches difficult terrain; then
    /// the route round the difficult terrain is tried too). Dangerous terrain is avoided when
    /// the way round is at most `DANGEROUS_DETOUR` longer and still within reach.
    pub(super) fn find_charge(&self, id: Id, target: Id) -> Option<Path> {
        let m = self.movement(id);
        let reach = self.charge_reach(id, target);
        if m.hold_only || m.aircraft || self.info(target).movement.aircraft {
            return None;
        }
        self.find_contact(id, target, reach)
    }

    /// The shortest path of `id` into base contact with `target` (or as close as it gets)
    /// within `reach` inches (6" through difficult terrain, `into_contact`), round what it may
    /// not cross; `None`: none. A charge's, and
    /// an embarking unit's ("they ignore the 1" move restriction when embarking").
    pub(super) fn find_contact(&self, id: Id, target: Id, reach: f64) -> Option<Path> {
        let m = self.movement(id);
        if !self.within(id, target, reach) {
            return None;
        }
        let (from, at) = (self.live(id).pos, self.live(target).pos);
        let contact = self.radius(id) + self.radius(target);
        if m.flying {
            let to = if from.distance(at) <= contact { from } else { at.towards(from, contact) };
            let length = from.distance(to);
            let path = Path { to, via: Bends::NONE, length, difficult: false, dangerous: false };
            return if length <= reach + EPS && self.spot_ok(id, to, true) { self.into_contact(id, target, path, reach) } else { None };
        }
        if from.distance(at) <= contact {
            // the discs already touch (after a melee's move back they may overlap, the models
            // an inch apart): no route to find, only the step into base contact
            let here = Path { to: from, via: Bends::NONE, length: 0.0, difficult: false, dangerous: false };
            return self.into_contact(id, target, here, reach);
        }
        paths::with_scratch(|paths| {
            self.fill_obstacles(paths, id, from, Some(target), 0.0);
            let goal = Goal::Contact { centre: at, contact };
            let mut masks = Widening::new(IMPASSABLE | UNIT);
            let mut best: Option<(f64, Path)> = None;
            while let Some((mask, again)) = masks.next() {
                let Some(length) = paths.shortest(from, goal, mask, reach, f64::INFINITY, again) else { continue };
                let route = &paths.route;
                let (Some(&to), true) = (route.last(), route.len() >= 2 && route.len() - 2 <= paths::MAX_BENDS) else { continue };
                let mut via = Bends::NONE;
                for &p in &route[1..route.len() - 1] {
                    via.push(p);
                }
                let (difficult, dangerous) = self.terrain_on_legs(id, from, &via, to);
                let path = Path { to, via, length, difficult, dangerous };
                let mut too_far = length > self.rules.move_limit(reach, path.difficult) + EPS;
                if !too_far && self.spot_ok(id, to, true) && path.legs(from).all(|(a, b)| self.path_ok(id, a, b, Some(target))) {
                    match self.into_contact(id, target, path, reach) {
                        Some(full) => {
                            let score = full.length + if full.dangerous { DANGEROUS_DETOUR } else { 0.0 };
                            if best.as_ref().is_none_or(|(b, _)| score < *b - 1e-9) {
                                best = Some((score, full));
                            }
                        }
                        None => too_far = true,
                    }
                }
                let touched = (if too_far { DIFFICULT } else { 0 }) | if dangerous { DANGEROUS } else { 0 };
                masks.widen(mask | touched);
            }
            best.map(|(_, p)| p)
        })
        .flatten()
    }

    /// A path that brings the discs into contact, on into base contact (`close_in`), with the
    /// terrain of the whole move: "If any model in a unit moves in or through difficult
    /// terrain at any point of its move, then all models in the unit may not move more than
    /// 6"", the last step into a target that stands in a forest included; and a unit "may
    /// only take a Charge action if at least one model is within charge distance of the
    /// target", so through difficult terrain its closest model starts within 6". `None`: the
    /// move is difficult and the target beyond 6" (the route round the terrain may do).
    pub(super) fn into_contact(&self, id: Id, target: Id, path: Path, reach: f64) -> Option<Path> {
        let from = self.live(id).pos;
        let capped = self.rules.move_limit(reach, true);
        let mut full = self.close_in(id, target, path, self.rules.move_limit(reach, path.difficult) - path.length);
        (full.difficult, full.dangerous) = self.terrain_on_legs(id, from, &full.via, full.to);
        if full.difficult && !path.difficult {
            // the step in is what touches difficult terrain: the whole move within 6"
            if path.length > capped + EPS {
                return None;
            }
            full = self.close_in(id, target, path, capped - path.length);
            (full.difficult, full.dangerous) = self.terrain_on_legs(id, from, &full.via, full.to);
        }
        (!full.difficult || self.within(id, target, capped)).then_some(full)
    }

    /// Whether `id` may move along `a`–`b`: not through impassable terrain nor through other
    /// units ("may never move through other models or units ... even if they are taking a
    /// Charge action"); Flying "may move through units and terrain". The disc sweeps a
    /// rectangle's rounded corners, not its bounding square. A charge's `target` may be
    /// touched at the end of the path.
    pub fn path_ok(&self, id: Id, a: Point, b: Point, target: Option<Id>) -> bool {
        self.path_ok_leaving(id, a, b, target, None)
    }

    /// `path_ok` for a unit leaving the transport `from` (whose footprint it starts in).
    pub fn path_ok_leaving(&self, id: Id, a: Point, b: Point, target: Option<Id>, from: Option<Id>) -> bool {
        let m = self.movement(id);
        if m.flying || m.aircraft {
            return true;
        }
        let r = self.radius(id);
        if self.impassable_pieces().any(|t| paths::sweeps(a, b, r - EPS, t)) {
            return false;
        }
        self.units_clear_of(id, a, b, target, from)
    }

    /// Whether `id`'s disc passes no other unit on the ground along `a`–`b` (`path_ok`'s test
    /// of units; `target` may be touched at the end, `from` is the transport it leaves).
    pub(super) fn units_clear_of(&self, id: Id, a: Point, b: Point, target: Option<Id>, from: Option<Id>) -> bool {
        let r = self.radius(id);
        let (lo, hi) = (Point::new(a.x.min(b.x), a.y.min(b.y)), Point::new(a.x.max(b.x), a.y.max(b.y)));
        for army in 0..2 {
            for other in self.on_table(army) {
                let at = self.live(other).pos;
                let room = r + self.radius(other) - if Some(other) == target { 1e-3 } else { EPS };
                // a unit further than `room` from the segment's box, by more than rounding
                // could make up, is further from the segment: most are, and cost no distance
                let far = room + 1e-9;
                if at.x < lo.x - far || at.x > hi.x + far || at.y < lo.y - far || at.y > hi.y + far {
                    continue;
                }
                if other == id || Some(other) == from || self.info(other).movement.aircraft {
                    continue;
                }
                if at.distance_to_segment(a, b) < room {
                    return false;
                }
            }
        }
        true
    }

    /// Difficult and dangerous terrain touched by `id`'s footprint along `a`–`b`, as its
    /// rules read them: Strider ignores difficult terrain; Flying and Aircraft ignore terrain.
    pub(super) fn terrain_on_path(&self, id: Id, a: Point, b: Point) -> (bool, bool) {
        self.terrain_on_legs(id, a, &Bends::NONE, b)
    }

    /// Difficult and dangerous terrain touched along a path from `from`.
    pub(super) fn terrain_on_legs(&self, id: Id, from: Point, via: &Bends, to: Point) -> (bool, bool) {
        let m = self.movement(id);
        if m.flying || m.aircraft {
            return (false, false);
        }
        let r = self.radius(id);
        let mut at = from;
        let mut out = (false, false);
        for p in via.as_slice().iter().copied().chain(std::iter::once(to)) {
            // the leg's own answer: a piece matters while the leg has not touched its kind
            let mut leg = (false, false);
            for t in &self.terrain {
                let matters = (t.kinds.difficult && !m.strider && !leg.0) || (t.kinds.dangerous && !leg.1);
                if matters && paths::sweeps(at, p, r, t) {
                    leg.0 |= t.kinds.difficult && !m.strider;
                    leg.1 |= t.kinds.dangerous;
                }
            }
            out = (out.0 | leg.0, out.1 | leg.1);
            at = p;
        }
        out
    }

    /// The obstacles of `id`'s next move or charge (into `target`): impassable terrain and
    /// other units' discs (1" wider when `gap` says so: "may never be within 1" of models from
    /// other units, unless they are taking a Charge action"), and the difficult and dangerous
    /// pieces a search may choose to go round. Aircraft are no obstacle ("ignore all units").
    pub(super) fn fill_obstacles(&self, paths: &mut Paths, id: Id, from: Point, target: Option<Id>, gap: f64) {
        let r = self.radius(id);
        let strider = self.info(id).movement.strider;
        paths.reset(Point::new(r, r), Point::new(self.rules.table.width - r, self.rules.table.depth - r));
        for t in &self.terrain {
            let class = terrain_class(t, strider);
            if class != 0 {
                paths.add_piece(t, r + MARGIN, class, from);
            }
        }
        // the mover's own army first: the obstacles' order (which settles ties between
        // equally short routes) must not depend on which army is A, or a paired mirror match
        // would not be an exact mirror
        for army in [id.0, 1 - id.0] {
            for other in self.on_table(army) {
                if other == id || Some(other) == target || self.info(other).movement.aircraft {
                    continue;
                }
                let touching = r + self.radius(other) + MARGIN;
                paths.add_disc(self.live(other).pos, touching + gap, touching, UNIT, from);
            }
        }
    }

    /// A path for `id` towards `goal`, covering at most `allowance` (at most 6" if it touches
    /// difficult terrain): the first `allowance` of the shortest route there, round what it
    /// may not cross. `None` when no move gets nearer.
    pub fn plan_move(&self, id: Id, goal: Point, allowance: f64) -> Option<Path> {
        let t = self.clock();
        let out = self.find_move(id, goal, allowance);
        self.lap(t, |x| &mut x.movement);
        out
    }

    /// The route through difficult terrain is capped at 6" ("If any model in a unit moves in
    /// or through difficult terrain at any point of its move, then all models in the unit may
    /// not move more than 6""): so the search also tries the route round it, and the route
    /// that stops short of it, and keeps the move that leaves the unit nearest its goal along
    /// its route. Dangerous terrain counts `DANGEROUS_DETOUR` inches against a move.
    pub(super) fn find_move(&self, id: Id, goal: Point, allowance: f64) -> Option<Path> {
        let from = self.live(id).pos;
        if from.distance(goal) < 0.05 || allowance <= 0.0 {
            return None;
        }
        let m = self.movement(id);
        if m.flying || m.aircraft {
            return self.flying_move(id, goal, allowance);
        }
        paths::with_scratch(|paths| {
            self.fill_obstacles(paths, id, from, None, self.rules.moves.unit_gap);
            let goal = paths.push_out(goal, IMPASSABLE | UNIT);
            let mut masks = Widening::new(IMPASSABLE | UNIT);
            let mut best: Option<(f64, Path)> = None;
            while let Some((mask, again)) = masks.next() {
                let Some(full) = paths.shortest(from, Goal::Point(goal), mask, f64::INFINITY, allowance + LOOKAHEAD, again) else { continue };
                let route = &paths.route;
                let beyond = route.last().map_or(0.0, |end| end.distance(goal));
                let mut consider = |path: Option<Path>| {
                    let Some(p) = path else { return };
                    let score = full - p.length + beyond + if p.dangerous { DANGEROUS_DETOUR } else { 0.0 };
                    if p.length >= 0.05 && best.as_ref().is_none_or(|(b, _)| score < *b - 1e-9) {
                        best = Some((score, p));
                    }
                };
                consider(self.walk_route(id, route, allowance));
                // where the route first meets terrain that would cost something on this move
                let kinds = if allowance > self.rules.moves.difficult_cap { DIFFICULT | DANGEROUS } else { DANGEROUS };
                let Some((at, touched)) = self.first_touch(id, route, allowance, kinds) else { continue };
                if at > 0.06 {
                    consider(self.walk_route(id, route, at - 0.01));
                }
                masks.widen(mask | touched);
            }
            best.map(|(_, p)| p)
        })
        .flatten()
    }

    /// The first `inches` of `route` as a move of `id`, capped at 6" if it touches difficult
    /// terrain, and shortened (half an inch at a time) until it ends where the unit may stand.
    pub(super) fn walk_route(&self, id: Id, route: &[Point], inches: f64) -> Option<Path> {
        let from = *route.first()?;
        let mut inches = inches;
        for _ in 0..12 {
            let (via, to, length) = paths::walk(route, inches);
            // the terrain is looked at only where it decides something: a walk past the
            // difficult cap, and the walk that ends where the unit may stand
            let terrain = || self.terrain_on_legs(id, from, &via, to);
            let long = length > self.rules.moves.difficult_cap + EPS;
            let mut known = None;
            if long {
                let (difficult, dangerous) = terrain();
                if difficult {
                    inches = self.rules.moves.difficult_cap;
                    continue;
                }
                known = Some((difficult, dangerous));
            }
            if length < 0.05 {
                return None;
            }
            if self.spot_ok(id, to, false) {
                let (difficult, dangerous) = known.unwrap_or_else(terrain);
                return Some(Path { to, via, length, difficult, dangerous });
            }
            inches = length - 0.5;
        }
        None
    }

    /// How far along `route` (within `within` inches) `id`'s disc first touches terrain of the
    /// `kinds` (`DIFFICULT`, `DANGEROUS`) that matter to it, and which kinds it touches there
    /// or later on that stretch.
    pub(super) fn first_touch(&self, id: Id, route: &[Point], within: f64, kinds: u8) -> Option<(f64, u8)> {
        let r = self.radius(id);
        let strider = self.info(id).movement.strider;
        let (mut done, mut first, mut touched) = (0.0, f64::INFINITY, 0u8);
        for w in route.windows(2) {
            if done >= within {
                break;
            }
            let leg = w[0].distance(w[1]);
            let end = if done + leg > within { w[0].towards(w[1], within - done) } else { w[1] };
            for t in &self.terrain {
                let class = terrain_class(t, strider);
                if class & kinds == 0 || !paths::sweeps(w[0], end, r, t) {
                    continue;
                }
                if let Some(s) = paths::first_touch(w[0], end, r, t) {
                    first = first.min(done + s * w[0].distance(end));
                    touched |= class & kinds;
                }
            }
            done += leg;
        }
        (touched != 0).then_some((first, touched))
    }

    /// A Flying or Aircraft move: straight ("may move through units and terrain"), stopping
    /// short where the unit may not stand.
    pub(super) fn flying_move(&self, id: Id, goal: Point, allowance: f64) -> Option<Path> {
        let from = self.live(id).pos;
        let r = self.radius(id);
        // (a unit wider than the table is refused before the game: `Formation::widest`)
        let (width, depth) = (self.rules.table.width, self.rules.table.depth);
        let goal = Point::new(goal.x.clamp(r.min(width / 2.0), (width - r).max(width / 2.0)), goal.y.clamp(r.min(depth / 2.0), (depth - r).max(depth / 2.0)));
        let mut length = allowance.min(from.distance(goal));
        while length >= 0.05 {
            let to = from.towards(goal, length);
            if self.spot_ok(id, to, false) {
                let (difficult, dangerous) = self.terrain_on_path(id, from, to);
                return Some(Path { to, via: Bends::NONE, length, difficult, dangerous });
            }
            length -= 0.5;
        }
        None
    }

    /// A spot for `id` at most `inches` from where it stands (its models "anywhere fully
    /// within X" of their position: the disc moves at most X), as near `goal` as it gets.
    /// Placing is not moving: terrain and units on the way do not matter, only that the spot
    /// is on the table, off impassable terrain and 1" from other units. `None` when no legal
    /// spot is at least half an inch nearer the goal.
    pub fn find_placement(&self, id: Id, goal: Point, inches: f64) -> Option<Point> {
        const TURNS: [f64; 9] = [0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.2, -2.2];
        let t = self.clock();
        let from = self.live(id).pos;
        let to_goal = from.distance(goal);
        let mut best: Option<(f64, Point)> = None;
        if to_goal >= 0.5 && inches > 0.0 {
            let base = (goal.y - from.y).atan2(goal.x - from.x);
            for turn in TURNS {
                let (sin, cos) = (base + turn).sin_cos();
                for share in [1.0, 0.6, 0.3] {
                    let len = inches.min(to_goal) * share;
                    let to = Point::new(from.x + cos * len, from.y + sin * len);
                    if !self.spot_ok(id, to, false) {
                        continue;
                    }
                    let left = to.distance(goal);
                    if best.is_none_or(|(b, _)| left < b - EPS) {
                        best = Some((left, to));
                    }
                    break;
                }
            }
        }
        self.lap(t, |x| &mut x.movement);
        best.filter(|(left, _)| *left < to_goal - 0.5).map(|(_, p)| p)
    }

    /// How `id` moves now: its rules' movement, and the inches of a buff it holds for its
    /// next move (`Effect::Buff` of Speed Boost, Rapid Advance: `BuffUse::Move`).
    #[inline]
    pub fn movement(&self, id: Id) -> Movement {
        let m = self.info(id).movement;
        let live = self.live(id);
        if (live.buff > 0 || live.debuff > 0) && !m.aircraft && !m.hold_only { self.buffed_movement(id, m) } else { m }
    }

    /// How far the Aircraft `id` moves this activation: its Advance, or, Shaken where the
    /// edition's Shaken Aircraft only add their inches (`Aircraft::shaken_adds_only`), those.
    pub fn aircraft_reach(&self, id: Id) -> f64 {
        match self.rules.aircraft {
            Some(a) if a.shaken_adds_only && self.live(id).shaken => a.extra_move,
            _ => self.movement(id).advance,
        }
    }

    /// `movement` of a unit that holds a buff or a debuff.
    #[inline(never)]
    pub(super) fn buffed_movement(&self, id: Id, mut m: Movement) -> Movement {
        let live = self.live(id);
        // a friend's inches and an enemy's both count ("+2"" and "-2"" from two spells)
        let (mut advance, mut rush, mut charge) = (m.advance, m.rush, m.charge);
        for b in [live.buff, live.debuff].into_iter().filter(|&b| b > 0) {
            let held = &self.info(id).buffed[usize::from(b) - 1];
            let add = held.moves();
            (advance, rush, charge) = (advance + f64::from(add.advance), rush + f64::from(add.rush), charge + f64::from(add.charge));
            m.flying |= held.flying;
        }
        (m.advance, m.rush, m.charge) = (advance.max(0.0), rush.max(0.0), charge.max(0.0));
        m
    }

    /// The models of `id` (bits by formation slot) whose bases, moving with the unit from
    /// `from` along `path`, touch dangerous terrain ("Flying ... may move through units and
    /// terrain": `path.dangerous` already says whether any of them does).
    pub(super) fn models_through_dangerous(&self, id: Id, from: Point, path: &Path) -> u64 {
        let legs: Vec<(Point, Point)> = path.legs(from).collect();
        let shift = |p: Point, o: Point| Point::new(p.x + o.x, p.y + o.y);
        let mut out = 0u64;
        for (i, q, r) in self.models(id) {
            let o = Point::new(q.x - from.x, q.y - from.y);
            if self.dangerous_pieces().any(|t| legs.iter().any(|&(a, b)| t.crossed(shift(a, o), shift(b, o), r))) {
                out |= bit(i);
            }
        }
        out
    }
}

/// How far beyond a move's allowance its route is checked against units, difficult and
/// dangerous terrain (further on, a route may run through them: they will have moved, or the
/// next move re-plans); impassable terrain is checked all the way (the dead ends a route must
/// see coming). 0: a search's cost grows fast with the obstacles it goes round, and looking
/// 6" further made path queries in games about a third slower.
pub const LOOKAHEAD: f64 = 0.0;
