//! Transports in a game, as gf-3.5 "Transport(X)" says: "May transport up to X models or
//! Heroes with up to Tough(6), and non-Heroes with up to Tough(3) which occupy 3 spaces each.
//! Transports may deploy with units inside, and units may enter/exit by using any move action,
//! but must stay fully within 6" of it when exiting. Units inside/outside transports may not
//! target other units outside/inside transports, but may target the transport itself. When a
//! transport is destroyed, units inside must take a dangerous terrain test, are Shaken, and
//! must be placed fully within 6" of the transport before it's removed." And: "units inside
//! Transports are deployed at the same time as the Transport ... Units may use Charge actions
//! to disembark".
//!
//! Readings (docs/game.md, "Transports"): a unit inside is off the table: it neither sees nor
//! is seen, blocks nothing, can't seize or contest markers, and can't cast, help or hinder
//! (nothing outside may be its target); a non-Hero of Tough(2) takes 3 spaces as a Tough(3)
//! one does; a passenger that can't be placed when its transport is destroyed is destroyed.
//! Units start inside at deployment (or get in by a move) and leave by Advance, Rush or Charge.

use super::decisions::Player;
use super::prepare::spaces;
use super::decisions::Exit;
use super::state::Touched;
use super::play::Game;
use super::live::Id;
use super::config::Event;
use super::paths::Path;
use super::table::Point;

impl<'a, P: Player> Game<'a, P> {
    /// Units inside stand where their transport stands (for the policy's distances).
    #[inline]
    pub(super) fn sync_passengers(&mut self) {
        if !self.prep.transports {
            return;
        }
        for army in 0..2 {
            for u in 0..self.units[army].len() {
                if let Some(t) = self.units[army][u].carrier {
                    let at = self.units[army][usize::from(t)].pos;
                    self.units[army][u].pos = at;
                }
            }
        }
    }

    /// "When a transport is destroyed, units inside must take a dangerous terrain test, are
    /// Shaken, and must be placed fully within 6" of the transport before it's removed": for
    /// every transport destroyed (or routed) with units inside. A unit with no room to be
    /// placed is destroyed.
    /// (The test inline, the work out of line: called twice an activation, it costs a large
    /// function's entry and exit even in the games with no transport.)
    #[inline(always)]
    pub(super) fn empty_wrecks(&mut self) {
        if self.prep.transports {
            self.empty_wrecks_now();
        }
    }

    /// `empty_wrecks`'s work, timed.
    #[inline(never)]
    fn empty_wrecks_now(&mut self) {
        let t = self.clock();
        self.wrecks();
        self.lap(t, |x| &mut x.transports);
    }

    /// Puts `id` inside `transport` (at deployment: "Transports may deploy with units inside").
    pub(super) fn embark(&mut self, id: Id, transport: Id) {
        let fits = spaces(&self.info(id).alloc, self.live(id).s, self.spaces_by()).is_some_and(|n| self.load(transport) + n <= self.info(transport).transport);
        if !fits || self.info(id).transport > 0 || self.info(id).movement.aircraft {
            self.violation(|| format!("unit {id:?} put in transport {transport:?}, which can't take it"));
            return;
        }
        let live = self.live_mut(id);
        live.carrier = Some(transport.1 as u16);
        live.gone = false;
        self.event(|g| Event { detail: format!("{} of {} spaces", g.load(transport), g.info(transport).transport), ..Event::between("embarked", id, transport, g.live(transport).pos, g.live(transport).pos) });
    }

    /// `id` moves along `path` into base contact with `transport` and gets in: "units may
    /// enter/exit by using any move action ... they ignore the 1" move restriction when
    /// embarking (only one model needs to reach the Transport for everyone to embark)".
    /// Dangerous terrain on the way is tested as on any move.
    pub(super) fn board(&mut self, id: Id, transport: Id, path: Path, allowance: f64) {
        let from = self.live(id).pos;
        let limit = self.rules.move_limit(allowance, path.difficult);
        if !self.may_board(id, transport) || path.length > limit + 1e-6 || self.closest_pair_at(id, path.to, transport).0 > 1e-3 {
            self.violation(|| format!("unit {id:?} boarded transport {transport:?} with a move of {:.2}\" ({limit}\" allowed)", path.length));
            return;
        }
        let crossing = if path.dangerous { self.models_through_dangerous(id, from, &path) } else { 0 };
        self.dangerous_test(id, crossing);
        if self.live(id).gone {
            return;
        }
        self.live_mut(id).carrier = Some(transport.1 as u16);
        self.live_mut(id).pos = self.live(transport).pos;
        self.live_mut(id).moved = true;
        self.event(|g| Event {
            allowance: limit,
            length: path.length,
            detail: format!("{} of {} spaces", g.load(transport), g.info(transport).transport),
            models_left: g.info(id).alloc.alive(g.live(id).s),
            ..Event::between("embark", id, transport, from, path.to)
        });
    }

    /// The activation of a unit inside a transport: it stays (idle if Shaken), or leaves as
    /// the policy picks: "units may enter/exit by using any move action".
    pub(super) fn activate_inside(&mut self, id: Id, touched: &mut Touched) -> Option<Id> {
        let transport = self.carrier(id)?;
        let at = self.live(transport).pos;
        self.live_mut(id).pos = at;
        if self.live(id).shaken {
            self.event(|_| Event { detail: "inside".into(), ..Event::of("idle", id, at, at) });
            return None;
        }
        let t = self.clock();
        let exit = self.ask(|p, v, r| p.exit(v, r, id, transport));
        self.lap(t, |x| &mut x.transports);
        match exit {
            None => {
                self.event(|_| Event { detail: "stays inside".into(), ..Event::between("inside", id, transport, at, at) });
                None
            }
            Some(Exit::Advance(p)) => {
                self.leave(id, transport, p, "advance");
                // (v2.x: a test after each wounding event, `morale_now`; else none here)
                self.morale_now(touched);
                self.cast_spells(id, super::spellbook::Window::Any, touched);
                self.morale_now(touched);
                self.shoot(id, true, touched);
                self.morale_now(touched);
                None
            }
            Some(Exit::Rush(p)) => {
                self.leave(id, transport, p, "rush");
                None
            }
            Some(Exit::Charge(target, path)) => {
                let from = self.edge_towards(transport, path.to);
                let live = self.live_mut(id);
                live.carrier = None;
                live.pos = from;
                self.event(|g| Event { detail: "charge".into(), target_models: g.footprint(transport), ..Event::between("disembark", id, transport, from, path.to) });
                self.charge(id, target, path);
                Some(target)
            }
        }
    }

    /// `id` leaves `transport` to `p` with a move action of `kind`.
    fn leave(&mut self, id: Id, transport: Id, p: Point, kind: &'static str) {
        // a move out of the transport's footprint: dangerous terrain on the way is tested
        let start = self.edge_towards(transport, p);
        let (_, dangerous) = self.terrain_on_legs(id, start, &super::paths::Bends::NONE, p);
        let live = self.live_mut(id);
        live.carrier = None;
        live.pos = start;
        live.moved = true;
        let crossing = if dangerous { self.models_through_dangerous(id, start, &Path::straight(p, start.distance(p))) } else { 0 };
        self.live_mut(id).pos = p;
        if !self.fully_within_exit(id, p, transport) || !self.spot_ok(id, p, false) {
            self.violation(|| format!("unit {id:?} left its transport to ({:.2}, {:.2}), where it may not stand", p.x, p.y));
        }
        self.event(|g| Event {
            allowance: g.exit_range(),
            length: start.distance(p),
            detail: kind.into(),
            models_left: g.info(id).alloc.alive(g.live(id).s),
            models: g.footprint(id),
            target_models: g.footprint(transport),
            ..Event::between("disembark", id, transport, start, p)
        });
        self.dangerous_test(id, crossing);
    }

    /// Removes one model of `id` (the next in its order of removal, its wounds counted as
    /// taken): a passenger of a wreck with no room to be placed.
    fn remove_a_model(&mut self, id: Id) {
        let alloc = &self.info(id).alloc;
        let start = self.live(id).s;
        let alive = alloc.alive(start);
        let (mut s, mut wounds) = (start, 0);
        while alloc.alive(s) == alive && !alloc.destroyed(s) {
            s = alloc.apply(s, 1, 1);
            wounds += 1;
        }
        self.suffer(id, s, wounds);
    }

    fn wrecks(&mut self) {
        for army in 0..2 {
            for u in 0..self.units[army].len() {
                let id = (army, u);
                let Some(transport) = self.carrier(id) else { continue };
                if !self.live(transport).gone || self.live(id).gone {
                    continue;
                }
                let all = self.models(id).fold(0u64, |m, (i, _, _)| m | super::prepare::bit(i));
                self.dangerous_test(id, all);
                self.live_mut(id).carrier = None;
                if self.live(id).gone {
                    continue;
                }
                self.live_mut(id).shaken = true;
                let goal = self.ask(|p, v, r| p.wreck_goal(v, r, id));
                // "must be placed fully within 6" of the transport": models are placed one by
                // one, so a unit with no room for all of them loses only those with none (the
                // last in its order of removal), one at a time, until the rest fit
                let mut spot = self.wreck_spot(id, transport, goal);
                let mut no_room = 0;
                while spot.is_none() && self.info(id).alloc.alive(self.live(id).s) > 1 {
                    self.remove_a_model(id);
                    no_room += 1;
                    spot = self.wreck_spot(id, transport, goal);
                }
                if no_room > 0 {
                    self.event(|g| Event { detail: format!("{no_room} models with no room to leave their destroyed transport"), models_left: g.info(id).alloc.alive(g.live(id).s), ..Event::between("lost", id, transport, g.live(id).pos, g.live(id).pos) });
                }
                match spot {
                    Some(p) => {
                        let from = self.edge_towards(transport, p);
                        self.live_mut(id).pos = p;
                        self.event(|g| Event {
                            allowance: g.exit_range(),
                            detail: "transport destroyed: Shaken".into(),
                            models_left: g.info(id).alloc.alive(g.live(id).s),
                            models: g.footprint(id),
                            target_models: g.footprint(transport),
                            ..Event::between("disembark", id, transport, from, p)
                        });
                    }
                    None => {
                        self.live_mut(id).gone = true;
                        self.event(|g| Event { detail: "no room to leave its destroyed transport".into(), ..Event::between("lost", id, transport, g.live(id).pos, g.live(id).pos) });
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::game::prepare::capacity;
    use crate::attack::allocation::Allocation;
    use super::*;
    use crate::Edition;
    use crate::game::rules::Spaces;

    fn alloc(text: &str) -> Allocation {
        Allocation::new(&crate::profile::Unit::parse(text, Edition::V3_5).unwrap(), Edition::V3_5)
    }

    #[test]
    fn spaces_as_the_guide_counts_them() {
        // "Regular models and Heroes with Tough(3) or Tough(6) occupy 1 space, Tough(3) models
        // occupy 3 spaces, and models with Tough(6) or higher can't be transported. This means
        // that a unit of 10 regular models with a Tough(3) Hero occupy 11 spaces in total."
        let squad = crate::profile::Unit::parse("Squad [10] Q4+ D4+", Edition::V3_5).unwrap();
        let hero = crate::profile::Unit::parse("Boss [1] Q3+ D4+ | Hero, Tough(3)", Edition::V3_5).unwrap();
        let joined = Allocation::new(&squad.join(&hero, Edition::V3_5).unwrap(), Edition::V3_5);
        assert_eq!(spaces(&joined, joined.start(), Spaces::ByTough), Some(11));
        let big_hero = alloc("Lord [1] Q3+ D4+ | Hero, Tough(6)");
        assert_eq!(spaces(&big_hero, big_hero.start(), Spaces::ByTough), Some(1));
        let brutes = alloc("Brutes [3] Q4+ D4+ | Tough(3)");
        assert_eq!(spaces(&brutes, brutes.start(), Spaces::ByTough), Some(9));
        // one lost: 6 spaces
        assert_eq!(spaces(&brutes, brutes.apply(brutes.start(), 3, 1), Spaces::ByTough), Some(6));
        let walker = alloc("Walker [1] Q4+ D2+ | Tough(6)");
        assert_eq!(spaces(&walker, walker.start(), Spaces::ByTough), None);
        let titan = alloc("Titan [1] Q3+ D2+ | Hero, Tough(12)");
        assert_eq!(spaces(&titan, titan.start(), Spaces::ByTough), None);
        assert_eq!(capacity(&alloc("APC [1] Q4+ D2+ | Tough(6), Transport(11)")), 11);
        assert_eq!(capacity(&brutes), 0);
    }

    #[test]
    fn units_of_a_wreck_are_placed_past_the_unit_that_destroyed_it() {
        // "units inside must ... be placed fully within 6" of the transport before it's
        // removed": placed, not moved, so a charger in base contact blocks no spot beyond it
        use super::super::test_support::{config, placed, prep};
        let prep = prep(&["APC [1] Q4+ D2+ | Tough(6), Transport(11)", "Squad [10] Q4+ D4+"], &["Brutes [10] Q4+ D4+"]);
        let config = config(Vec::new(), vec![Point::new(36.0, 24.0)], vec![Point::new(20.0, 24.0), Point::new(10.0, 10.0)], vec![Point::new(60.0, 40.0)]);
        let mut cache = super::super::cache::Cache::default();
        let mut g = placed(&prep, &config, &mut cache);
        let (apc, squad, brutes) = ((0, 0), (0, 1), (1, 0));
        g.live_mut(squad).carrier = Some(apc.1 as u16);
        g.live_mut(squad).pos = g.live(apc).pos;
        // the brutes in base contact on the side towards the squad's goal
        let at = g.live(apc).pos;
        g.live_mut(brutes).pos = Point::new(at.x + g.radius(apc) + g.radius(brutes), at.y);
        g.live_mut(apc).gone = true;
        g.empty_wrecks();
        let live = g.live(squad);
        assert!(!live.gone && live.carrier.is_none() && live.shaken, "the squad is placed, Shaken");
        assert!(g.fully_within_exit(squad, live.pos, apc));
    }
}

#[cfg(test)]
mod wreck_tests {
    use super::super::test_support::{config, placed, prep, Game};
    use super::*;

    /// The orcs (unit 1 of army A) put inside the truck (unit 0): the truck, the orcs and
    /// where the truck stands.
    fn orcs_inside(g: &mut Game) -> (Id, Id, Point) {
        let (truck, orcs) = ((0, 0), (0, 1));
        g.live_mut(orcs).carrier = Some(truck.1 as u16);
        g.live_mut(orcs).pos = g.live(truck).pos;
        (truck, orcs, g.live(truck).pos)
    }

    #[test]
    fn wreck_passengers_on_open_ground_are_all_placed() {
        // "units inside must take a dangerous terrain test, are Shaken, and must be placed
        // fully within 6" of the transport before it's removed": eleven orcs in a wreck on
        // open ground, the unit that destroyed it in contact on one side and another enemy
        // close on the other, are all placed (none lost for want of room)
        let prep = prep(&["Truck [1] Q4+ D2+ | Tough(6), Transport(11)", "Orcs [11] Q4+ D5+"], &["Brutes [10] Q4+ D4+", "Brutes [10] Q4+ D4+"]);
        let config = config(Vec::new(), vec![Point::new(36.0, 40.0)], vec![Point::new(36.0, 24.0), Point::new(10.0, 10.0)], vec![Point::new(60.0, 40.0), Point::new(60.0, 10.0)]);
        let mut cache = super::super::cache::Cache::default();
        let mut g = placed(&prep, &config, &mut cache);
        let (truck, orcs, at) = orcs_inside(&mut g);
        g.live_mut((1, 0)).pos = Point::new(at.x + g.radius(truck) + g.radius((1, 0)), at.y);
        g.live_mut((1, 1)).pos = Point::new(at.x - g.radius(truck) - g.radius((1, 1)) - 2.0, at.y + 1.0);
        g.live_mut(truck).gone = true;
        let before = g.info(orcs).alloc.alive(g.live(orcs).s);
        g.empty_wrecks();
        let live = g.live(orcs);
        // (the dangerous terrain test may take models: every model it left is placed)
        let lost_to_room = g.trace.as_ref().unwrap().iter().any(|e| e.kind == "lost" && e.army == 0 && e.unit == 1);
        assert!(!live.gone && live.shaken && !lost_to_room, "all placed ({before} before the test)");
        assert!(g.fully_within_exit(orcs, live.pos, truck) && g.spot_ok(orcs, live.pos, false));
    }

    #[test]
    fn a_crowded_wreck_loses_only_the_models_with_no_room() {
        // "units inside must ... be placed fully within 6" of the transport before it's
        // removed": placed model by model, so where four enemy units ring the wreck and
        // leave no room for the whole line of eleven orcs, the orcs that fit are placed and
        // only the others are lost
        let prep = prep(&["Truck [1] Q4+ D2+ | Tough(6), Transport(11)", "Orcs [11] Q4+ D5+"], &["Brutes [10] Q4+ D4+", "Brutes [10] Q4+ D4+", "Brutes [10] Q4+ D4+", "Brutes [10] Q4+ D4+"]);
        let config = config(Vec::new(), vec![Point::new(36.0, 40.0)], vec![Point::new(36.0, 24.0), Point::new(10.0, 10.0)], vec![Point::new(60.0, 40.0), Point::new(60.0, 10.0), Point::new(50.0, 10.0), Point::new(50.0, 40.0)]);
        let mut cache = super::super::cache::Cache::default();
        let mut g = placed(&prep, &config, &mut cache);
        let (truck, orcs, at) = orcs_inside(&mut g);
        for e in 0..4 {
            let a = e as f64 * std::f64::consts::FRAC_PI_2;
            let d = g.radius(truck) + g.radius((1, e));
            g.live_mut((1, e)).pos = Point::new(at.x + d * a.cos(), at.y + d * a.sin());
        }
        g.live_mut(truck).gone = true;
        assert!(g.exit_spot(orcs, truck, at).is_none(), "no room for the whole unit");
        g.empty_wrecks();
        let (live, alloc) = (g.live(orcs), &g.info(orcs).alloc);
        let left = alloc.alive(live.s);
        assert!(!live.gone && live.carrier.is_none() && live.shaken, "the orcs that fit are placed, Shaken");
        assert!(left > 0 && left < 11, "{left} placed");
        assert!(g.fully_within_exit(orcs, live.pos, truck) && g.spot_ok(orcs, live.pos, false));
    }
}

#[cfg(test)]
mod exit_spot_tests {
    use super::super::state::View;
    use super::super::test_support::{config, placed, prep};
    use super::*;
    use rand::{RngExt, SeedableRng};

    #[test]
    fn exit_spots_are_the_spots_a_plain_scan_finds() {
        // `exit_spot` tests spots against the units within reach of each ray and passes over
        // runs of a ray where the same two models clash: on crowded ground round a transport
        // (and round a wreck) it finds the spot that every half inch of every ray, tested
        // with `spot_ok`, finds
        let brutes = "Brutes [10] Q4+ D4+";
        let p = prep(&["Truck [1] Q4+ D2+ | Tough(6), Transport(11)", "Orcs [11] Q4+ D5+", "Grunts [5] Q5+ D5+"], &[brutes, brutes, "Hero [1] Q4+ D4+", brutes]);
        let plain = |g: &View, id: Id, transport: Id, goal: Point| -> Option<Point> {
            let (at, rt) = (g.live(transport).pos, g.radius(transport));
            let wreck = !g.live(transport).on_table();
            let near = if wreck { 0.0 } else { rt + g.rules.moves.unit_gap };
            let far = g.exit_range() + rt;
            let mut best: Option<(f64, usize, Point)> = None;
            for k in 0..48 {
                let (sin, cos) = (k as f64 * std::f64::consts::TAU / 48.0).sin_cos();
                let start = Point::new(at.x + cos * rt, at.y + sin * rt);
                if near >= rt && !g.path_ok_leaving(id, start, start, None, Some(transport)) {
                    continue;
                }
                let mut d = far;
                while d >= near {
                    let q = Point::new(at.x + cos * d, at.y + sin * d);
                    if g.fully_within_exit(id, q, transport) && g.spot_ok(id, q, false) && (wreck || g.path_ok_leaving(id, g.edge_towards(transport, q), q, None, Some(transport))) {
                        let left = q.distance(goal);
                        if best.is_none_or(|(b, bk, _)| left < b || (left == b && k < bk)) {
                            best = Some((left, k, q));
                        }
                        break;
                    }
                    d -= 0.5;
                }
            }
            best.map(|(_, _, q)| q)
        };
        let (mut found, mut none) = (0, 0);
        for seed in 0..40 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let c = config(Vec::new(), vec![Point::new(36.0, 40.0)], vec![Point::new(36.0, 24.0), Point::new(10.0, 4.0), Point::new(60.0, 4.0)], vec![Point::new(60.0, 40.0), Point::new(10.0, 40.0), Point::new(36.0, 44.0), Point::new(66.0, 44.0)]);
            let mut cache = super::super::cache::Cache::default();
            let mut g = placed(&p, &c, &mut cache);
            let (truck, orcs) = ((0, 0), (0, 1));
            g.live_mut(orcs).carrier = Some(0);
            let at = g.live(truck).pos;
            g.live_mut(orcs).pos = at;
            // the others scattered round the truck, some touching it, some overlapping
            for u in [(0, 2), (1, 0), (1, 1), (1, 2), (1, 3)] {
                let (a, d) = (rng.random_range(0.0..std::f64::consts::TAU), g.radius(truck) + g.radius(u) + rng.random_range(0.0..6.0));
                g.live_mut(u).pos = Point::new(at.x + d * a.cos(), at.y + d * a.sin());
            }
            let goal = Point::new(rng.random_range(0.0..72.0), rng.random_range(0.0..48.0));
            for wreck in [false, true] {
                g.live_mut(truck).gone = wreck;
                let expected = plain(&g, orcs, truck, goal);
                assert_eq!(g.exit_spot(orcs, truck, goal), expected, "seed {seed}, wreck {wreck}");
                if expected.is_some() { found += 1 } else { none += 1 }
            }
        }
        assert!(found > 10 && none > 0, "{found} found, {none} none");
    }
}
