//! Moving: "Models may move and turn in any direction regardless of their facing, as long as
//! no part of their bases move further than the total movement distance", along shortest
//! paths round what a unit may not cross (`paths`), difficult terrain's 6" and dangerous
//! terrain's tests, and the placements the army books allow outside the action (after
//! deployment, on activation, after attacking). The routes themselves are `routes`'s.

use super::decisions::Player;
use super::paths::Path;
use super::held_rules::BuffUse;
use super::table::Point;
use super::state::EPS;
use super::play::Game;
use super::live::Id;
use super::prepare::bit;
use super::config::Event;
use super::rules::Scout;


impl<'a, P: Player> Game<'a, P> {
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
        self.reposition_as(id, to, allowance, "place", when, 0.0);
    }

    /// v3.4.1's Scout: "must be deployed and may then be placed anywhere within 12" of their
    /// position", where the policy likes (the placement after deployment's choice), or not.
    /// v2.x's: "may then move by up to 12", ignoring terrain": the same spot, reached in a
    /// straight line that passes no other unit (terrain does not matter, units do: a judge's
    /// reading, docs/editions.md); a spot the line does not reach is not taken.
    pub(super) fn scout_placement(&mut self, id: Id) {
        let inches = self.rules.scout_placement();
        if inches <= 0.0 || self.live(id).gone {
            return;
        }
        if let Some(to) = self.ask(|p, v, r| p.placement_after_deployment(v, r, id, inches)) {
            let from = self.live(id).pos;
            // (a move's length is traced; a placement's is 0)
            let (when, length) = match self.rules.scout {
                Scout::DeployThenMove { .. } if !self.units_clear_of(id, from, to, None, None) => return,
                Scout::DeployThenMove { .. } => ("moved up to 12\" ignoring terrain", from.distance(to)),
                _ => ("placed within 12\" of where it deployed", 0.0),
            };
            self.reposition_as(id, to, inches, "scout-move", when, length);
        }
    }

    /// `reposition`, traced as an event of `kind` (`length`: a move's inches; 0 for a placement).
    fn reposition_as(&mut self, id: Id, to: Point, allowance: f64, kind: &'static str, when: &'static str, length: f64) {
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
            length,
            models_left: g.info(id).alloc.alive(g.live(id).s),
            detail: when.into(),
            models: g.footprint(id),
            ..Event::of(kind, id, from, to)
        });
    }

    /// "After this model is deployed, it may be placed anywhere fully within X" of its
    /// position" (Fanatic), as the policy likes.
    pub(super) fn place_after_deployment(&mut self, id: Id) {
        let inches = self.info(id).tricks.place_after_deployment;
        if inches <= 0.0 || self.live(id).gone {
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
        let live = self.live_mut(id);
        live.pos = path.to;
        live.moved = true;
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
        let end = if self.stuns_models(id) {
            // Firefight: "units must also check for wound effects when taking wounds from other
            // sources (special rules, terrain, etc.)"
            let (end, rolled) = super::stunned::wound_effects(&info.alloc, s, wounds, &mut self.rng);
            self.dice += rolled;
            end
        } else {
            info.alloc.apply(s, wounds, 1)
        };
        if wounds > 0 && !self.wounded_by_terrain.iter().any(|(w, _)| *w == id) {
            self.wounded_by_terrain.push((id, s));
        }
        self.suffer(id, end, wounds);
        self.lap(t, |x| &mut x.dice);
        self.event(|g| Event {
            dice: u64::from(dice),
            wounds,
            models_left: g.info(id).alloc.alive(end),
            ..Event::of("dangerous", id, g.live(id).pos, g.live(id).pos)
        });
    }
}
