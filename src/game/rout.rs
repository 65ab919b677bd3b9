//! Firefight v3.2's end-of-round Rout Test (editions-game.md FF-H2, FF-H4, FF-H5, FF-H6):
//! "Whenever an army is down to half or less of its starting units at the end of a round,
//! then all of its units must take a Rout Test." "To take a Rout Test, simply take a regular
//! Morale Test ...: If the roll is successful, nothing happens. If the roll is unsuccessful,
//! the unit is immediately Stunned (in multi-model units, all are Stunned). If the unit was
//! already Stunned, then it immediately Routs instead of taking a morale test."
//!
//! Readings (docs/editions.md): markers are scored first, then the Rout Tests; units in
//! reserve count among the army's units and test; an army's tests are taken together (as
//! the army stood when the phase began: a hero Stunned by its own test still lends its
//! Quality to the others, as a player testing it last would have it).

use super::decisions::Player;
use super::held_rules::BuffUse;
use super::live::Id;
use super::play::Game;
use super::config::Event;
use super::rules::RoutTest;
use super::state::View;
use crate::morale::MoraleTest;

impl View<'_> {
    /// The morale test `id` (with the held rules `mask`) takes: at its own Quality and
    /// rules, or at those of the hero of `heroes` within the aura that passes most often
    /// ("Friendly units within 12" may take morale tests using the hero's Quality and special
    /// rules"; a unit off the table has none near). The test, and the hero if one lent it.
    pub fn aura_test(&self, id: Id, mask: u16, heroes: &[Id], rule: RoutTest) -> (MoraleTest, Option<Id>) {
        let edition = self.prep.edition;
        let mut best = (MoraleTest::new(self.alloc_of(id, mask), self.live(id).s, false, edition), None);
        if self.live(id).on_table() {
            for &h in heroes {
                if h != id && self.within(id, h, rule.hero_aura) {
                    let test = MoraleTest::new(&self.info(h).alloc, self.live(h).s, false, edition);
                    if test.p_pass() > best.0.p_pass() {
                        best = (test, Some(h));
                    }
                }
            }
        }
        best
    }

    /// The heroes of `army` that may lend their Quality: on the table and not Stunned.
    pub fn lending_heroes(&self, army: usize) -> Vec<Id> {
        self.on_table(army).filter(|&h| !self.live(h).shaken && self.info(h).alloc.runs.iter().any(|(m, _)| m.hero)).collect()
    }
}

impl<'a, P: Player> Game<'a, P> {
    /// The Rout Tests of the round that ends, for each army down to its share of its units.
    pub(super) fn rout_tests(&mut self) {
        let Some(rule) = self.rules.rout_test else { return };
        // (in seat order, as every draw of a game: a paired game mirrors)
        for army in self.seat {
            // "Note that starting size is counted at the beginning of the game."
            let start = self.units[army].len() as u32;
            let left = self.units[army].iter().filter(|l| !l.gone).count() as u32;
            if left * rule.share.1 > start * rule.share.0 {
                continue;
            }
            self.event(|_| Event { kind: "rout-test", army: army as i8, unit: -1, target_army: -1, target: -1, detail: format!("{left} of {start} units left"), ..Event::default() });
            // the heroes that may lend their Quality, as the phase begins
            let heroes = self.lending_heroes(army);
            for u in 0..self.units[army].len() {
                let id = (army, u);
                if self.live(id).gone {
                    continue;
                }
                if self.live(id).shaken {
                    // "If the unit was already Stunned, then it immediately Routs instead"
                    let live = self.live_mut(id);
                    (live.gone, live.routed) = (true, true);
                    self.event(|g| Event { models_left: g.live(id).left, detail: "already Stunned".into(), ..Event::of("rout", id, g.live(id).pos, g.live(id).pos) });
                    continue;
                }
                let (passed, by) = self.rout_roll(id, &heroes, rule);
                self.event(|g| Event {
                    models_left: g.live(id).left,
                    detail: format!("{}{}", if passed { "passed" } else { "failed" }, by.map_or(String::new(), |h| format!(" (hero {}'s Quality)", g.info(h).name))),
                    target_army: by.map_or(-1, |h| h.0 as i8),
                    target: by.map_or(-1, |h| h.1 as i32),
                    ..Event::of("rout-test", id, g.live(id).pos, g.live(id).pos)
                });
                if !passed {
                    self.set_stunned(id, true);
                    self.event(|g| Event { models_left: g.live(id).left, detail: "by a Rout Test".into(), ..Event::of("stunned", id, g.live(id).pos, g.live(id).pos) });
                }
            }
        }
    }

    /// `id`'s Rout Test (or a morale test a rule calls for), at its own Quality and rules or, better, those of a hero of `heroes`
    /// within the aura ("Friendly units within 12" may take morale tests using the hero's
    /// Quality and special rules, as long as it isn't Stunned"; Fearless's die with them).
    /// Whether it passed, and the hero whose test it took.
    pub(super) fn rout_roll(&mut self, id: Id, heroes: &[Id], rule: RoutTest) -> (bool, Option<Id>) {
        let mask = self.held_for(id, BuffUse::Morale);
        let best = self.aura_test(id, mask, heroes, rule);
        let mut rolled = 0;
        let passed = best.0.roll(|| {
            rolled += 1;
            self.rng.d6()
        });
        self.dice += rolled;
        if best.1.is_none() && mask != 0 {
            self.spend_held(id, mask, "morale test");
        }
        (passed, best.1)
    }
}
