//! Morale after wounds: "At the end of an activation in which a unit takes wounds that leave
//! it with half or less of its starting size ..., it must take a morale test" (when, and what
//! a failed test does, are the edition's: `GameRules::morale_timing`, `GameRules::failed_test`).

use super::decisions::Player;
use super::held_rules::BuffUse;
use super::rules::FailedTest;
use crate::attack::allocation::State;
use crate::morale::{self, MoraleTest};
use super::play::Game;
use super::live::Id;
use super::config::Event;

impl<'a, P: Player> Game<'a, P> {
    /// The morale test after wounds (not from melee), at the end of an activation.
    pub(super) fn wound_morale(&mut self, id: Id, before: State) {
        let alloc = self.alloc_of(id, self.held_for(id, BuffUse::Morale));
        let live = self.live(id);
        if live.gone || !morale::tests_after_shooting(alloc, before, live.s, self.prep.edition) {
            return;
        }
        let passed = self.morale_roll(id);
        if !passed {
            // away from melee a failed test always Shakes ("If the test is failed, the unit is Shaken")
            let routs = morale::failure(alloc, self.live(id).s, false, self.live(id).shaken, self.prep.edition) == morale::Failure::Routed;
            if routs {
                let live = self.live_mut(id);
                (live.gone, live.routed) = (true, true);
            } else {
                match self.rules.failed_test {
                    // the same state: what Wavering changes, contesting markers, is `contest`'s;
                    // what Stunned changes is the game's (`stunned`, `rout`)
                    FailedTest::Shaken | FailedTest::Wavering | FailedTest::Stunned => self.live_mut(id).shaken = true,
                }
            }
        }
        self.event(|g| Event {
            models_left: g.info(id).alloc.alive(g.live(id).s),
            detail: if passed { "passed".into() } else { format!("failed: {}", g.rules.failed_test.name()) },
            ..Event::of("morale", id, g.live(id).pos, g.live(id).pos)
        });
    }

    /// A morale test of `id` as it stands, a buff for morale it holds used on it: whether it passed.
    pub(super) fn morale_roll(&mut self, id: Id) -> bool {
        // Firefight: a hero's Quality for "morale tests" of units within 12" (a Stunned unit
        // "automatically fail[s] all morale tests", whoever's Quality)
        if let (Some(rule), false) = (self.rules.rout_test, self.live(id).shaken) {
            let heroes = self.lending_heroes(id.0);
            return self.rout_roll(id, &heroes, rule).0;
        }
        let mask = self.held_for(id, BuffUse::Morale);
        let alloc = self.alloc_of(id, mask);
        let t = self.clock();
        let live = self.live(id);
        let passed = MoraleTest::new(alloc, live.s, live.shaken, self.prep.edition).roll(|| self.rng.d6());
        if mask != 0 {
            self.spend_held(id, mask, "morale test");
        }
        self.dice += 1;
        self.lap(t, |x| &mut x.dice);
        passed
    }
}
