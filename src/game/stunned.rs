//! Firefight v3.2's Stunned and Knocked Out as game state (editions-game.md 4.I, FF-F3,
//! FF-F5, FF-G3, FF-H3): "Stunned models are placed on their side to show their state, and
//! must remain idle during their next activation, after which they stop being Stunned.
//! Whilst Stunned, models can't strike back, and automatically fail all morale tests."
//!
//! A unit's Stunned is its `Live::shaken` flag (idle, no seizing or contesting, failed
//! morale tests, as v3.5's Shaken), and, where the wound model keeps it per model
//! (`WoundModel::WoundEffects`), its last model's `State::stunned` too, which the attack and
//! melee engines read ("If Stunned models take any hits from shooting, or are charged again,
//! then they are Knocked Out immediately"). Wounds Stun only a unit's last model; a failed
//! Rout Test Stuns every model of a unit ("in multi-model units, all are Stunned"), which the
//! engines do not model: shots and charges at such a unit are played here.

use super::decisions::Player;
use super::live::Id;
use super::play::Game;
use super::config::Event;
use super::table::Point;
use super::state::View;
use crate::attack::allocation::{Allocation, Landing, State};
use crate::rolls::Dice;
use crate::rules::effects::WoundModel;

/// "On a 4+ the attacker may move the model by up to 2" in any direction."
pub const PUSH_ON: u8 = 4;
pub const PUSH_INCHES: f64 = 2.0;

impl View<'_> {
    /// Whether the edition keeps Stunned per model (Firefight's wound effects).
    pub fn stuns_models(&self, id: Id) -> bool {
        self.info(id).alloc.wounds == WoundModel::WoundEffects
    }

    /// Whether `id` is Stunned where Stunned is a wound effect: Stunned by dangerous terrain
    /// during its own move, it makes no attack with the rest of its activation; "Whilst
    /// Stunned, models can't strike back"; Stunned models "must remain idle".
    pub fn stunned_now(&self, id: Id) -> bool {
        self.stuns_models(id) && self.live(id).shaken
    }
}

impl<'a, P: Player> Game<'a, P> {
    /// Makes `id` Stunned (Shaken) or not, its last model's state in step where the wound
    /// model keeps Stunned per model: a unit of one model left is its last model.
    pub(super) fn set_stunned(&mut self, id: Id, on: bool) {
        self.live_mut(id).shaken = on;
        if self.stuns_models(id) {
            let s = self.live(id).s;
            let stunned = on && self.live(id).left == 1 && !self.info(id).alloc.destroyed(s);
            if s.stunned != stunned {
                self.live_mut(id).s = State { stunned, ..s };
            }
        }
    }

    /// `set_stunned` after a new state: Stunned if either the unit or its last model is.
    pub(super) fn sync_stunned(&mut self, id: Id) {
        if self.stuns_models(id) && !self.live(id).gone {
            let on = self.live(id).shaken || self.live(id).s.stunned;
            self.set_stunned(id, on);
        }
    }

    /// Whether `id` is a unit of several models all Stunned (by a Rout Test), which the
    /// engines' states do not hold, in state `s`.
    pub(super) fn wholly_stunned(&self, id: Id, s: State) -> bool {
        let alloc = &self.info(id).alloc;
        self.live(id).shaken && self.stuns_models(id) && !alloc.destroyed(s) && alloc.alive(s) > 1
    }


    /// A wholly Stunned unit `id` is charged: "If Stunned models ... are charged again, then
    /// they are Knocked Out immediately" (the charge's target is the unit: every model is
    /// charged). Every model but the last is Knocked Out (a Tough one's wound kills it, as
    /// "each wound kills one model, until only one last model remains"), and the last is left
    /// Stunned for the melee, whose engine Knocks it Out (or wounds it) before any blow.
    pub(super) fn charged_while_stunned(&mut self, id: Id) {
        let s = self.live(id).s;
        if !self.wholly_stunned(id, s) {
            return;
        }
        let alloc = &self.info(id).alloc;
        let last = alloc.len() - 1;
        let lost = alloc.alive(s) - 1;
        self.suffer(id, State { k: last, w: 0, hp: 0, stunned: true }, lost);
        self.event(|g| Event {
            models_left: g.info(id).alloc.alive(g.live(id).s),
            detail: format!("{lost} Stunned models charged"),
            ..Event::of("knocked-out", id, g.live(id).pos, g.live(id).pos)
        });
    }

    /// After an attack of `by` on `id` that found it not Stunned (`was`): if it is Stunned
    /// now, "Whenever a model is Stunned, the attacker may try to push it by rolling one die.
    /// On a 4+ the attacker may move the model by up to 2" in any direction." The push is a
    /// move: on the table, off impassable terrain, 1" from other units, and into dangerous
    /// terrain with its test (docs/editions.md). Logs `stunned` and `push`.
    #[inline(always)]
    pub(super) fn after_stunning(&mut self, by: Id, id: Id, was: bool) {
        // (inline: after nearly every attack it has nothing to do)
        let live = self.live(id);
        if !was && live.shaken && !live.gone {
            self.stunned_by_attack(by, id);
        }
    }

    /// `after_stunning`'s work on a unit that was not Stunned and is Shaken now.
    fn stunned_by_attack(&mut self, by: Id, id: Id) {
        let live = self.live(id);
        // (Shaken from a lost melee is not Stunned: only where Stunned is a wound effect)
        if !live.on_table() || !self.stuns_models(id) {
            return;
        }
        self.event(|g| Event { models_left: g.live(id).left, detail: "by wound effects".into(), ..Event::between("stunned", id, by, g.live(id).pos, g.live(id).pos) });
        let roll = self.rng.d6();
        self.dice += 1;
        let from = self.live(id).pos;
        let to = if roll >= PUSH_ON { self.ask(|p, v, r| p.push_spot(v, r, by, id, PUSH_INCHES)) } else { None };
        let to = to.filter(|&p| p.distance(from) <= PUSH_INCHES + 1e-9 && self.spot_ok(id, p, false));
        if let Some(p) = to {
            self.live_mut(id).pos = p;
            self.live_mut(id).moved = true;
        }
        self.event(|g| Event {
            dice: 1,
            allowance: if roll >= PUSH_ON { PUSH_INCHES } else { 0.0 },
            length: from.distance(g.live(id).pos),
            models_left: g.live(id).left,
            detail: format!("rolled {roll}{}", if roll < PUSH_ON { ": no push" } else if to.is_none() { ": not pushed" } else { "" }),
            models: g.footprint(id),
            ..Event::between("push", by, id, from, g.live(id).pos)
        });
        if let Some(p) = to {
            let inside = self.models_in_dangerous_at(id, p);
            if inside != 0 {
                self.dangerous_test(id, inside);
            }
        }
    }

}

/// `hits` from shooting on a unit wholly Stunned (`alloc`, in state `s`): "If Stunned models
/// take any hits from shooting ... then they are Knocked Out immediately (without needing to
/// check wounds)": each hit, blocked or not, Knocks Out one model (the defender removing them
/// in its order) until the last, which takes the rest as a Stunned last model does (Tough(X):
/// "they take one wound instead of being Knocked Out, unless they already have X or more
/// wounds"). The state they leave, and the dice rolled.
pub fn hits_on_stunned(alloc: &Allocation, s: State, hits: u32, rng: &mut Dice) -> (State, u64) {
    let last = alloc.len() - 1;
    let kills = hits.min(last - s.k.min(last));
    let rest = hits - kills;
    let s = State { k: s.k + kills, stunned: s.k + kills == last, ..s };
    if rest == 0 {
        return (s, 0);
    }
    match alloc.hit_while_stunned(s, rest, 0) {
        Landing::At(end) => (end, 0),
        landing => (alloc.roll(landing, || rng.d6()), 1),
    }
}

/// `wounds` from a source that is not an attack (dangerous terrain) on a unit whose wound
/// model is Firefight's, in state `s`: "each wound kills one model, until only one last model
/// remains. Only the last model then accumulates wound markers and rolls to see if it's
/// Stunned or Knocked Out" ("roll one die and add the number of wound markers to it": Tough(X)
/// rolls once it has X markers). The state they leave, and the dice rolled.
pub fn wound_effects(alloc: &Allocation, s: State, wounds: u32, rng: &mut Dice) -> (State, u64) {
    if wounds == 0 || alloc.destroyed(s) {
        return (s, 0);
    }
    let last = alloc.len() - 1;
    let kills = wounds.min(last - s.k.min(last));
    let rest = wounds - kills;
    let s = State { k: s.k + kills, ..s };
    if rest == 0 {
        return (s, 0);
    }
    let w = s.w + rest;
    let s = State { w, ..s };
    if w < alloc.model_at(last).tough {
        return (s, 0);
    }
    (alloc.roll(Landing::Check { state: s, total: w }, || rng.d6()), 1)
}

impl View<'_> {
    /// The spots a push of `id` by up to `inches` may end at: 16 directions at the full
    /// distance and at half of it, each on the table, off impassable terrain and 1" from
    /// other units.
    pub fn push_spots(&self, id: Id, inches: f64) -> Vec<Point> {
        let from = self.live(id).pos;
        let mut out = Vec::new();
        for step in [inches, inches / 2.0] {
            for k in 0..16 {
                let a = f64::from(k) * std::f64::consts::TAU / 16.0;
                let p = Point::new(from.x + step * a.cos(), from.y + step * a.sin());
                if self.spot_ok(id, p, false) {
                    out.push(p);
                }
            }
        }
        out
    }
}
