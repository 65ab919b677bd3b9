//! The round: "players alternate in activating one unit each"; a unit's activation takes one
//! action (Hold, Advance, Rush, Charge) that the policy picks, casts and shoots as it allows,
//! and ends with the morale tests of the units its attacks wounded.

use super::decisions::Player;
use super::spellbook::Window;
use super::decisions::Action;
use super::rules::MoraleTiming;
use super::config::Output;
use super::state::Touched;
use super::play::Game;
use super::live::Id;
use super::config::Event;
use super::usefulness::{Deeds, Outcome, USEFUL_MOVE};
use super::table::Point;


impl<'a, P: Player> Game<'a, P> {
    /// Plays the game and adds it to `out`.
    /// Plays the game into `out`; or, when a unit found no room to deploy, stops and
    /// returns that unit (nothing of the game is recorded).
    pub fn play(mut self, out: &mut Output) -> Option<Id> {
        let t = self.clock();
        if let Some(id) = self.deploy() {
            return Some(id);
        }
        let mut first = self.seat[0];
        for round in 1..=self.config.rounds {
            self.round = round;
            first = self.play_round(first);
            self.sync_passengers();
            self.end_round();
        }
        self.lap(t, |x| &mut x.total);
        self.finish(out);
        None
    }

    /// The end of a round: the markers scored and, in Firefight, the Rout Tests, markers first
    /// (docs/editions.md) or, where the edition's switch says, the tests first.
    pub(super) fn end_round(&mut self) {
        let tests_first = self.rules.rout_test.is_some_and(|r| !r.after_markers);
        if tests_first {
            self.rout_tests();
        }
        self.score_round();
        if !tests_first {
            self.rout_tests();
        }
    }

    /// One round of alternating activations. Returns the army that "finished activating first"
    /// and so activates first next round.
    pub(super) fn play_round(&mut self, first: usize) -> usize {
        for army in 0..2 {
            for live in &mut self.units[army] {
                live.activated = false;
                live.fatigued = false;
                live.moved_after_attack = false;
                live.psychic_tried = false;
                live.round_start = live.pos;
            }
        }
        self.extra_this_round = [0; 2];
        self.player.round_begins(&self.view);
        self.recover();
        self.give_tokens();
        self.ambush(first);
        self.empty_wrecks();
        let mut turn = first;
        let mut finished_first: Option<usize> = None;
        let mut done = [false; 2];
        loop {
            if !done[turn] {
                self.sync_passengers();
                if self.any_ready(turn) {
                    let u = self.ask(|p, v, r| p.pick_unit(v, r, turn));
                    // (the player's pick is checked: a unit that may not activate is a breach,
                    // and the army's first ready unit activates instead)
                    let u = if self.is_ready(turn, u) {
                        u
                    } else {
                        self.violation(|| format!("army {turn}'s player picked unit {u}, which may not activate"));
                        self.ready(turn)[0]
                    };
                    self.activate((turn, u));
                } else if let Some(u) = self.extra_activation(turn) {
                    self.activate_again((turn, u));
                } else {
                    // "the player that finished activating first"
                    done[turn] = true;
                    finished_first.get_or_insert(turn);
                }
            }
            if done == [true, true] {
                break;
            }
            turn = 1 - turn;
        }
        finished_first.unwrap_or(first)
    }

    /// A unit of `army` the policy activates a second time this round, if any may
    /// (`Effect::ExtraActivation`: "Once per game ... Only up to half of the units in the army
    /// with this rule at the beginning of the game (rounding up) may use it in a single round").
    pub(super) fn extra_activation(&mut self, army: usize) -> Option<usize> {
        if self.extra_this_round[army] >= self.extra_limit[army] {
            return None;
        }
        let eligible: Vec<usize> = self
            .on_table(army)
            .filter(|&id| self.info(id).tricks.extra_activation && self.live(id).activated && !self.live(id).extra_used && !self.live(id).shaken)
            .map(|(_, u)| u)
            .collect();
        if eligible.is_empty() {
            return None;
        }
        let u = self.ask(|p, v, r| p.extra_activation(v, r, army, &eligible))?;
        if !eligible.contains(&u) {
            self.violation(|| format!("army {army}'s player picked unit {u} for an extra activation it may not take"));
            return None;
        }
        Some(u)
    }

    /// "it may be activated even if it had already activated this round (stops being fatigued
    /// when activated for the second time)".
    pub(super) fn activate_again(&mut self, id: Id) {
        self.extra_this_round[id.0] += 1;
        let live = self.live_mut(id);
        live.extra_used = true;
        live.fatigued = false;
        let used = self.extra_this_round[id.0];
        let limit = self.extra_limit[id.0];
        if used > limit {
            self.violation(|| format!("army {} used {used} extra activations in round with {limit} allowed", id.0));
        }
        self.event(|g| Event { detail: format!("{used} of {limit} this round"), ..Event::of("activate-again", id, g.live(id).pos, g.live(id).pos) });
        self.activate(id);
    }

    /// One activation: "the player picks one action for the unit to take, and completes it."
    pub(super) fn activate(&mut self, id: Id) {
        let live = self.live_mut(id);
        live.activated = true;
        // Entrenched's "since the beginning of its last activation"
        live.moved = false;
        // "only one try per spell" in each activation
        live.spells_tried = 0;
        // one dangerous terrain test per activation, for every unit: the test of a unit moved
        // in another unit's activation (a move after melee) counts for that activation
        for army in &mut self.units {
            for live in army.iter_mut() {
                live.dangerous_tested = 0;
            }
        }
        // units whose wounds may call for a morale test at the end of the activation
        let mut touched = Touched::new();
        let m = self.movement(id);
        let inside = self.live(id).carrier.is_some();
        let start = self.live(id).pos;
        // "If a model ... is activated in it, then it must take a dangerous terrain test."
        if !m.aircraft && !inside {
            let inside = self.models_in_dangerous_at(id, start);
            self.dangerous_test(id, inside);
            self.morale_now(&mut touched);
        }
        if self.live(id).gone {
            // destroyed by the terrain it stood in, before it could act: the dice's doing
            self.live_mut(id).usefulness.count(Outcome::Forced);
            return;
        }
        let mut in_melee = false;
        // "Units that were in melee don't take morale tests from wounds at the end of an
        // activation": the charger and the unit it charged
        let mut melee_with: Option<Id> = None;
        let was_shaken = self.live(id).shaken;
        let outcome;
        if inside {
            if let Some(target) = self.activate_inside(id, &mut touched) {
                in_melee = true;
                melee_with = Some(target);
            }
            outcome = if was_shaken {
                Outcome::Forced
            } else if self.live(id).carrier.is_some() {
                Outcome::Inside
            } else {
                self.live_mut(id).usefulness.left_transport = true;
                Outcome::Useful
            };
        } else if was_shaken {
            outcome = Outcome::Forced;
            // "When activated, Shaken units must spend their activation being idle"; Aircraft
            // still make their move ("their mandatory move doesn't break the staying idle
            // requirement").
            if m.aircraft {
                if let Some(path) = self.ask(|p, v, r| p.aircraft_path(v, r, id)) {
                    if self.goes_off_table(id, &path) {
                        self.fly_off(id, path, self.aircraft_reach(id));
                    } else {
                        self.apply_move(id, path, "idle", self.aircraft_reach(id));
                    }
                }
            } else {
                self.event(|_| Event::of("idle", id, start, start));
            }
        } else {
            self.place_on_activation(id);
            self.give_buff(id);
            self.give_casting_roll(id);
            self.give_debuff(id);
            // spells are cast "at any point before attacking": damage spells first, at
            // targets in reach now (before the action is chosen, so it sees what they did),
            // then the spells not tried yet just before it attacks: after an Advance or a
            // Rush, before shooting, and (buffs only) before a charge; a unit that attacks
            // while moving (Strafing) casts only first, any spell
            let again = !self.info(id).strafing;
            self.cast_spells(id, if again { Window::Damage } else { Window::Any }, &mut touched);
            self.morale_now(&mut touched);
            let m = self.movement(id);
            let start = self.live(id).pos;
            let mut deeds = Deeds { attacked: false, meant_to_move: false };
            match self.ask(|p, v, r| p.decide(v, r, id)) {
                Action::Hold => {
                    self.event(|_| Event::of("hold", id, start, start));
                    self.cast_spells(id, Window::Any, &mut touched);
                    self.morale_now(&mut touched);
                    deeds.attacked = self.shoot(id, false, &mut touched);
                    self.morale_now(&mut touched);
                    if deeds.attacked {
                        self.move_after_attack(id, false);
                    }
                }
                // v2.x: "if it goes off-table then its activation ends"
                Action::Advance(path) if self.goes_off_table(id, &path) => {
                    self.fly_off(id, path, m.advance);
                    deeds.meant_to_move = true;
                }
                Action::Advance(path) => {
                    self.apply_move(id, path, "advance", m.advance);
                    self.spend_move_buff(id, 0);
                    self.morale_now(&mut touched);
                    if again {
                        self.cast_spells(id, Window::Any, &mut touched);
                        self.morale_now(&mut touched);
                    }
                    deeds.meant_to_move = true;
                    deeds.attacked = self.strafe(id, start, path, &mut touched);
                    self.morale_now(&mut touched);
                    if !self.live(id).gone && !self.stunned_now(id) && self.shoot(id, true, &mut touched) {
                        deeds.attacked = true;
                        self.morale_now(&mut touched);
                        self.move_after_attack(id, false);
                    }
                }
                Action::Rush(path) => {
                    self.apply_move(id, path, "rush", m.rush);
                    self.spend_move_buff(id, 1);
                    self.morale_now(&mut touched);
                    if again {
                        self.cast_spells(id, Window::Any, &mut touched);
                        self.morale_now(&mut touched);
                    }
                    deeds.meant_to_move = true;
                    deeds.attacked = self.strafe(id, start, path, &mut touched);
                }
                Action::Charge(target, path) => {
                    deeds.attacked = true;
                    self.cast_spells(id, Window::Buffs, &mut touched);
                    in_melee = true;
                    melee_with = Some(target);
                    self.charge(id, target, path);
                }
                Action::Embark(transport, path, rush) => {
                    self.board(id, transport, path, if rush { m.rush } else { m.advance });
                }
            }
            outcome = self.outcome_on_table(id, start, deeds);
        }
        self.live_mut(id).usefulness.count(outcome);
        // "which stops them being Shaken at the end of the activation"
        if was_shaken {
            self.set_stunned(id, false);
        }
        self.empty_wrecks();
        // "At the end of an activation in which a unit takes wounds that leave it with half or
        // less of its starting size ..., it must take a morale test." Units that were in melee
        // compare wounds instead (done in the melee). Wounds from dangerous terrain count too,
        // from the state before the first wound of the activation.
        self.take_terrain_wounds(&mut touched);
        // (v2.x's tests "whenever" came after each event before the melee: those left, the
        // melee's own moves', are taken now as in v3.5; Firefight tests only "Whenever a special
        // rule requires it" and at the end-of-round Rout Test)
        if self.rules.morale_timing != MoraleTiming::Never {
            for &(who, before) in &touched {
                if in_melee && (who == id || Some(who) == melee_with) {
                    continue;
                }
                self.wound_morale(who, before);
            }
        }
        // a transport that routed in those tests
        self.empty_wrecks();
    }
}

impl<P: Player> Game<'_, P> {
    /// v2.x's "Whenever a unit takes wounds that leave it with half or less ..., it must take
    /// a morale test" (`MoraleTiming::Whenever`): the tests the wounding events so far call
    /// for, taken now (one unit's shooting, one spell, one dangerous terrain test); under
    /// `EndOfActivation` they wait for the activation's end.
    #[inline(always)]
    pub(super) fn morale_now(&mut self, touched: &mut Touched) {
        // (inline: every edition but v2.x returns here, and it is asked after every event)
        if self.rules.morale_timing == MoraleTiming::Whenever {
            self.morale_whenever(touched);
        }
    }

    /// The units dangerous terrain wounded, added to those whose wounds may call for a
    /// morale test (each once, from its state before its first wound).
    fn take_terrain_wounds(&mut self, touched: &mut Touched) {
        for (who, before) in std::mem::take(&mut self.wounded_by_terrain) {
            if !touched.iter().any(|(t, _)| *t == who) {
                touched.push((who, before));
            }
        }
    }

    /// `morale_now`'s tests, in v2.x.
    fn morale_whenever(&mut self, touched: &mut Touched) {
        self.take_terrain_wounds(touched);
        for (who, before) in std::mem::take(touched) {
            self.wound_morale(who, before);
        }
        self.empty_wrecks();
    }

    /// The outcome of `id`'s activation that began at `start` (not inside a transport, not Shaken).
    pub(super) fn outcome_on_table(&self, id: Id, start: Point, deeds: Deeds) -> Outcome {
        let live = self.live(id);
        if live.carrier.is_some() {
            return Outcome::Inside;
        }
        let useful = deeds.attacked || live.spells_tried != 0 || start.distance(live.pos) >= USEFUL_MOVE || (!live.gone && self.on_marker(id));
        match (useful, deeds.meant_to_move) {
            (true, _) => Outcome::Useful,
            (false, true) => Outcome::Stuck,
            (false, false) => Outcome::Idle,
        }
    }
}
