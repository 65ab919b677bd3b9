//! Morale (gf-3.5 "Melee Resolution & Morale"): when a unit tests, how it tests, and what a
//! failed test does. The exact engines take probabilities from the same predicates the
//! samplers roll dice against, so the two cannot disagree.

use crate::attack::allocation::{Allocation, State};
use crate::edition::Edition;
use crate::rules::effects::{own_effects, rule_set, Effect, MoraleRule};

/// "half or less of its starting size or tough value (for units with a single model)".
/// Starting size is the unit's full size ("counted at the beginning of the game"); a joined
/// hero counts as one more model.
pub fn at_half_or_less(alloc: &Allocation, s: State) -> bool {
    if alloc.len() == 1 {
        let tough = alloc.model_at(0).tough;
        let left = if alloc.destroyed(s) { 0 } else { tough - s.w };
        2 * left <= tough
    } else {
        2 * (alloc.len() - alloc.kills(s)) <= alloc.len()
    }
}

/// "At the end of an activation in which a unit takes wounds that leave it with half or less
/// of its starting size or tough value ..., it must take a morale test." A wound always moves
/// the state, so "took wounds" is "the state changed"; a destroyed unit takes no test.
/// Firefight has no such test (its units test only when a rule or a Rout test says so).
pub fn tests_after_shooting(alloc: &Allocation, start: State, end: State, edition: Edition) -> bool {
    rule_set(edition).morale_from_wounds && end != start && !alloc.destroyed(end) && at_half_or_less(alloc, end)
}

/// One morale test of a unit in a given state.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MoraleTest {
    /// The Quality tested: the unit's, or a joined hero's while it lives ("The hero may take
    /// morale tests on behalf of the unit"), whichever is better.
    pub quality: u8,
    /// "Shaken units ... always fail morale tests."
    pub shaken: bool,
    /// v2 Fearless: "+1 to morale tests".
    pub modifier: i32,
    /// Fearless: a failed test passes on this roll or more, when enough models have it.
    pub pass_failed_on: Option<u8>,
}

/// What a failed morale test does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Shaken (v2: Wavering; Firefight: Stunned).
    Shaken,
    Routed,
}

impl MoraleTest {
    pub fn new(alloc: &Allocation, s: State, shaken: bool, edition: Edition) -> MoraleTest {
        let alive = alloc.view(s, false).alive;
        let quality = alive.iter().map(|(m, _)| m.quality).min().unwrap_or(6);
        let mut test = MoraleTest { quality, shaken, modifier: 0, pass_failed_on: None };
        for own in own_effects(edition, &alive) {
            match own.effect {
                Effect::PassFailedMoraleOn(x) => test.pass_failed_on = Some(test.pass_failed_on.map_or(x, |y| y.min(x))),
                Effect::MoraleModifier(x) => test.modifier += x,
                _ => {}
            }
        }
        // Firefight: a Stunned unit "immediately Routs instead of taking a morale test"
        if shaken && rule_set(edition).morale == MoraleRule::StunnedOrRout {
            test.pass_failed_on = None;
        }
        test
    }

    /// The Quality test: "If you score the model's Quality value or higher, then it counts as
    /// a success", modifiers aside, and "rolls of 6 always succeed, and rolls of 1 always
    /// fail". A Shaken unit fails whatever it rolls.
    pub fn quality_test(&self, face: u8) -> bool {
        !self.shaken && (face == 6 || (face != 1 && i32::from(face) + self.modifier >= i32::from(self.quality)))
    }
    /// After a failed test: Fearless's die, if the unit has it ("On a 4+ it counts as passed
    /// instead"). The failure of a Shaken unit is a failed test too, so Fearless applies.
    pub fn second_chance(&self, face: u8) -> bool {
        self.pass_failed_on.is_some_and(|on| face >= on)
    }

    pub fn has_second_chance(&self) -> bool {
        self.pass_failed_on.is_some()
    }

    /// Takes the test with real dice: the Quality test, then Fearless's die after a failure.
    pub fn roll(&self, mut d6: impl FnMut() -> u8) -> bool {
        self.quality_test(d6()) || (self.has_second_chance() && self.second_chance(d6()))
    }

    /// The chance of passing, from the same predicates the sampler rolls against.
    pub fn p_pass(&self) -> f64 {
        let share = |f: &dyn Fn(u8) -> bool| (1..=6u8).filter(|&x| f(x)).count() as f64 / 6.0;
        let first = share(&|x| self.quality_test(x));
        let second = if self.has_second_chance() { share(&|x| self.second_chance(x)) } else { 0.0 };
        first + (1.0 - first) * second
    }
}

/// What a failed test does. Grimdark Future: "If the test is failed, the unit is Shaken" — and
/// in melee, "if the test is failed, and the unit only has half or less of its starting size
/// or tough value ..., then the unit Routs". Firefight's Rout test: "If the roll is
/// unsuccessful, the unit is immediately Stunned"; "If the unit was already Stunned, then it
/// immediately Routs instead of taking a morale test".
pub fn failure(alloc: &Allocation, s: State, in_melee: bool, shaken: bool, edition: Edition) -> Failure {
    let routs = match rule_set(edition).morale {
        MoraleRule::ShakenOrRout => in_melee && at_half_or_less(alloc, s),
        MoraleRule::StunnedOrRout => shaken,
    };
    if routs {
        Failure::Routed
    } else {
        Failure::Shaken
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::Unit;

    fn alloc(text: &str) -> Allocation {
        Allocation::new(&Unit::parse(text, Edition::V3_5).unwrap(), Edition::V3_5)
    }

    #[test]
    fn half_or_less_counts_models_or_a_single_models_tough() {
        let dwarves = alloc("Dwarves [10] Q4+ D4+");
        assert!(!at_half_or_less(&dwarves, State { k: 4, w: 0, ..State::default() }));
        assert!(at_half_or_less(&dwarves, State { k: 5, w: 0, ..State::default() }));
        let beast = alloc("Beast [1] Q4+ D4+ | Tough(5)");
        assert!(!at_half_or_less(&beast, State { k: 0, w: 2, ..State::default() }));
        assert!(at_half_or_less(&beast, State { k: 0, w: 3, ..State::default() }));
    }

    #[test]
    fn the_roll_and_the_probability_read_the_same_predicates() {
        let unit = alloc("T [5] Q5+ D4+ | Fearless");
        let test = MoraleTest::new(&unit, unit.start(), false, Edition::V3_5);
        let mut passed = 0;
        for a in 1..=6u8 {
            for b in 1..=6u8 {
                let mut faces = [a, b].into_iter();
                passed += u32::from(test.roll(|| faces.next().unwrap()));
            }
        }
        assert!((f64::from(passed) / 36.0 - test.p_pass()).abs() < 1e-15);
        assert!((test.p_pass() - 2.0 / 3.0).abs() < 1e-15);
        let shaken = MoraleTest::new(&unit, unit.start(), true, Edition::V3_5);
        assert!((shaken.p_pass() - 0.5).abs() < 1e-15);
    }

    #[test]
    fn wounds_that_leave_a_unit_at_half_mean_a_test_after_shooting() {
        let unit = alloc("T [4] Q4+ D4+");
        let start = unit.start();
        assert!(!tests_after_shooting(&unit, start, State { k: 1, w: 0, ..State::default() }, Edition::V3_5));
        assert!(tests_after_shooting(&unit, start, State { k: 2, w: 0, ..State::default() }, Edition::V3_5));
        assert!(!tests_after_shooting(&unit, start, State { k: 4, w: 0, ..State::default() }, Edition::V3_5), "destroyed units don't test");
        let half = State { k: 2, w: 0, ..State::default() };
        assert!(!tests_after_shooting(&unit, half, half, Edition::V3_5), "no wounds, no test");
    }
}
