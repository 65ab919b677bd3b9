//! Moving: "Models may move and turn in any direction regardless of their facing, as long as
//! no part of their bases move further than the total movement distance", along shortest
//! paths round what a unit may not cross (`paths`), difficult terrain's 6" and dangerous
//! terrain's tests, placements that the rules allow outside the action (Scout, Ambush,
//! the army books' moves after attacking).

use crate::game::state::View;
use crate::game::paths::Path;
use super::paths::{self, Bends, Goal, Paths, Widening, DANGEROUS, DANGEROUS_DETOUR, DIFFICULT, IMPASSABLE, MARGIN, UNIT};
use super::prepare::{BuffUse, Movement};
use super::table::Point;
use super::config::PolicyKind;
use super::space::terrain_class;
use super::state::{EPS, Game, Id};
use super::prepare::bit;
use super::config::Event;

/// How far beyond a move's allowance its route is checked against units, difficult and
/// dangerous terrain (further on, a route may run through them: they will have moved, or the
/// next move re-plans); impassable terrain is checked all the way (the dead ends a route must
/// see coming). 0: a search's cost grows fast with the obstacles it goes round, and looking
/// 6" further made path queries in games about a third slower.
pub const LOOKAHEAD: f64 = 0.0;

impl<'a> View<'a> {
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
        for army in 0..2 {
            for other in self.on_table(army) {
                if other == id || Some(other) == from || self.info(other).movement.aircraft {
                    continue;
                }
                let room = r + self.radius(other) - if Some(other) == target { 1e-3 } else { EPS };
                if self.live(other).pos.distance_to_segment(a, b) < room {
                    return false;
                }
            }
        }
        true
    }

    /// Difficult and dangerous terrain touched by `id`'s footprint along `a`–`b`, as its
    /// rules read them: Strider ignores difficult terrain; Flying and Aircraft ignore terrain.
    pub(super) fn terrain_on_path(&self, id: Id, a: Point, b: Point) -> (bool, bool) {
        let m = self.movement(id);
        if m.flying || m.aircraft {
            return (false, false);
        }
        let r = self.radius(id);
        let mut out = (false, false);
        for t in &self.terrain {
            let matters = (t.kinds.difficult && !m.strider && !out.0) || (t.kinds.dangerous && !out.1);
            if matters && paths::sweeps(a, b, r, t) {
                out.0 |= t.kinds.difficult && !m.strider;
                out.1 |= t.kinds.dangerous;
            }
        }
        out
    }

    /// Difficult and dangerous terrain touched along a path from `from`.
    pub(super) fn terrain_on_legs(&self, id: Id, from: Point, via: &Bends, to: Point) -> (bool, bool) {
        let mut at = from;
        let mut out = (false, false);
        for p in via.as_slice().iter().copied().chain(std::iter::once(to)) {
            let (d, x) = self.terrain_on_path(id, at, p);
            out = (out.0 | d, out.1 | x);
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
            let (difficult, dangerous) = self.terrain_on_legs(id, from, &via, to);
            if difficult && length > self.rules.moves.difficult_cap + EPS {
                inches = self.rules.moves.difficult_cap;
                continue;
            }
            if length < 0.05 {
                return None;
            }
            if self.spot_ok(id, to, false) {
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

impl<'a> Game<'a> {
    /// A buff for moves is used by a move of this kind (0 Advance, 1 Rush, 2 Charge) if it adds to it.
    pub(super) fn spend_move_buff(&mut self, id: Id, kind: u8) {
        let mask = self.held_for(id, BuffUse::Move(kind));
        if mask != 0 {
            self.spend_held(id, mask, ["advance", "rush", "charge"][usize::from(kind)]);
        }
    }

    /// Moves `id` along `path`; dangerous terrain on the way calls for a test.
    pub(super) fn apply_move(&mut self, id: Id, path: Path, kind: &'static str, allowance: f64) {
        self.apply_move_noted(id, path, kind, allowance, "");
    }

    /// "roll one die (or as many dice as the model's Tough value), and if the result is 1,
    /// then the unit takes one automatic wound": every model of the unit tests, one wound per
    /// 1 rolled; Regeneration may ignore them as it ignores any wound.
    pub(super) fn dangerous_test(&mut self, id: Id, models: u64) {
        // "If a model moves in or through dangerous terrain, or is activated in it, then it
        // must take a dangerous terrain test": once per model per activation, however it got there
        let testing = models & !self.live(id).dangerous_tested;
        if testing == 0 {
            return;
        }
        self.live_mut(id).dangerous_tested |= testing;
        self.roll_dangerous(id, testing);
    }

    /// Places `id` at `to` (`Effect::Reposition`), checking the allowance and the spot.
    pub(super) fn reposition(&mut self, id: Id, to: Point, allowance: f64, when: &'static str) {
        let from = self.live(id).pos;
        if from.distance(to) > allowance + EPS {
            self.violation(|| format!("unit {id:?} placed {:.3}\" away with {allowance}\" allowed", from.distance(to)));
        }
        self.live_mut(id).pos = to;
        if !self.spot_ok(id, to, false) {
            self.violation(|| format!("unit {id:?} placed at ({:.2}, {:.2}), where it may not stand", to.x, to.y));
        }
        self.event(|g| Event {
            allowance,
            models_left: g.info(id).alloc.alive(g.live(id).s),
            detail: when.into(),
            models: g.footprint(id),
            ..Event::of("place", id, from, to)
        });
    }

    /// "After this model is deployed, it may be placed anywhere fully within X" of its
    /// position" (Fanatic), as the policy likes.
    pub(super) fn place_after_deployment(&mut self, id: Id) {
        let inches = self.info(id).tricks.place_after_deployment;
        if inches <= 0.0 || self.live(id).gone || self.policy_kind(id.0) == PolicyKind::Hold {
            return;
        }
        if let Some(to) = self.ask(|p, v, r| p.placement_after_deployment(v, r, id, inches)) {
            self.reposition(id, to, inches, "after deployment");
        }
    }

    /// "When this unit is activated, you may place all models with this rule in it anywhere
    /// fully within X" of their position" (Wolfborn, Rapid Blink, Bounding D3+1", Teleport):
    /// the policy picks a spot towards where its action wants to go, or none.
    pub(super) fn place_on_activation(&mut self, id: Id) {
        let (mut inches, mut d3) = self.info(id).tricks.place_on_activation;
        // a placement held once (Teleport, Rapid Blink Boost from a spell), where it reaches further
        let mask = self.held_for(id, BuffUse::Activation);
        let held = self.held_max(id, mask, |b| b.on_activation());
        let use_held = held.is_some_and(|(x, _)| x > inches + if d3 { 2.0 } else { 0.0 });
        if let Some((x, _)) = held.filter(|_| use_held) {
            (inches, d3) = (x, false);
        }
        if inches <= 0.0 && !d3 {
            return;
        }
        let Some(goal) = self.ask(|p, v, r| p.placement_goal(v, r, id, inches + if d3 { 3.0 } else { 0.0 })) else { return };
        // "D3+1"": the die is rolled when the rule is used
        let allowance = if d3 {
            let roll = (self.rng.d6() + 1) / 2;
            self.dice += 1;
            inches + f64::from(roll)
        } else {
            inches
        };
        if let Some(to) = self.find_placement(id, goal, allowance) {
            self.reposition(id, to, allowance, if d3 { "on activation, D3 rolled" } else { "on activation" });
            if let Some((_, bit)) = held.filter(|_| use_held) {
                self.spend_held(id, bit, "placed on activation");
            }
        }
    }

    /// "Once per round, units where all models have this rule may move by up to X" after
    /// shooting or being in melee" (Harassing, Guerrilla, Hit & Run and their Boosts): a move
    /// like any other (difficult terrain caps it at 6", dangerous terrain tests), where the
    /// policy likes, or none.
    pub(super) fn move_after_attack(&mut self, id: Id, melee: bool) {
        let t = self.info(id).tricks;
        let own = if melee { t.after_melee } else { t.after_shooting };
        // a move after attacking held once (Hit & Run Fighter from a spell), where it goes further
        let mask = self.held_for(id, BuffUse::AfterAttack(melee));
        let (held, bit) = self.held_max(id, mask, |b| b.after_attack(melee)).unwrap_or((0.0, 0));
        let inches = own.max(held);
        let live = self.live(id);
        if inches <= 0.0 || !live.on_table() || live.moved_after_attack || live.shaken || self.info(id).movement.aircraft {
            return;
        }
        let Some(path) = self.ask(|p, v, r| p.after_attack_path(v, r, id, inches)) else { return };
        if held > own {
            self.spend_held(id, bit, "move after attacking");
        }
        self.live_mut(id).moved_after_attack = true;
        self.apply_move_noted(id, path, "hit-and-run", inches, if melee { "after melee" } else { "after shooting" });
    }

    /// `apply_move`, with a note for the trace ("after shooting"; then ", difficult" if so).
    pub(super) fn apply_move_noted(&mut self, id: Id, path: Path, kind: &'static str, allowance: f64, note: &'static str) {
        let from = self.live(id).pos;
        let limit = self.rules.move_limit(allowance, path.difficult);
        if path.length > limit + EPS || (from.distance(path.to) > path.length + EPS) {
            self.violation(|| format!("unit {id:?} moved {:.3}\" with {limit}\" allowed", path.length));
        }
        // "If a model moves in or through dangerous terrain": the models whose own paths touch it
        let crossing = if path.dangerous { self.models_through_dangerous(id, from, &path) } else { 0 };
        self.live_mut(id).pos = path.to;
        if !self.spot_ok(id, path.to, kind == "charge") {
            self.violation(|| format!("unit {id:?} ended a {kind} at ({:.2}, {:.2}), where it may not stand", path.to.x, path.to.y));
        }
        self.event(|g| Event {
            allowance: limit,
            length: path.length,
            models_left: g.info(id).alloc.alive(g.live(id).s),
            detail: match (note.is_empty(), path.difficult) {
                (true, true) => "difficult".into(),
                (true, false) => String::new(),
                (false, true) => format!("{note}, difficult"),
                (false, false) => note.into(),
            },
            models: g.footprint(id),
            ..Event::of(kind, id, from, path.to)
        });
        self.dangerous_test(id, crossing);
    }

    /// The dangerous terrain test of the models `testing` (bit per formation slot) of `id`.
    pub(super) fn roll_dangerous(&mut self, id: Id, testing: u64) {
        let t = self.clock();
        let info = self.info(id);
        let s = self.live(id).s;
        let dice: u32 = self.models(id).filter(|&(i, _, _)| testing & bit(i) != 0).map(|(i, _, _)| info.alloc.runs[info.slot_run[i]].0.tough.max(1)).sum();
        let ignore_on = info.ignore_wound_on;
        let mut wounds = 0;
        for _ in 0..dice {
            // a 1 is a wound; its Regeneration die is rolled only then (7: never ignored)
            if self.rng.d6() == 1 && (ignore_on > 6 || self.rng.d6() < ignore_on) {
                wounds += 1;
            }
        }
        self.dice += u64::from(dice);
        let end = info.alloc.apply(s, wounds, 1);
        if wounds > 0 && !self.wounded_by_terrain.iter().any(|(w, _)| *w == id) {
            self.wounded_by_terrain.push((id, s));
        }
        self.set_state(id, end);
        let live = self.live_mut(id);
        live.taken += wounds;
        if info.alloc.destroyed(end) {
            live.gone = true;
        }
        self.lap(t, |x| &mut x.dice);
        self.event(|g| Event {
            dice: u64::from(dice),
            wounds,
            models_left: g.info(id).alloc.alive(end),
            ..Event::of("dangerous", id, g.live(id).pos, g.live(id).pos)
        });
    }
}
