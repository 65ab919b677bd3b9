//! v2.x's Psychic(X) as dice and reach: whether a cast roll reaches a spell's number, its
//! chance against blockers, a unit's level, and which enemy psychics may block a spell
//! ("Enemy psychics within 18” and line of sight of the caster may roll D6+X at the same
//! time, and if the result is higher the spell is blocked"). Queries; `psychic` casts.

use super::live::Id;
use super::state::{View, EPS};

/// Whether a psychic's cast roll `roll` (one D6) with level `x` reaches the spell's `number`:
/// "roll D6+X. If the result is equal or higher than the number in brackets"; a 6 always, a 1
/// never ("Regardless of modifiers, rolls of 6 are always successes, and rolls of 1 are
/// always fails").
pub fn psychic_cast_succeeds(roll: u8, x: u8, number: u8) -> bool {
    roll == 6 || (roll != 1 && u32::from(roll) + u32::from(x) >= u32::from(number))
}

/// The chance a psychic of level `x` casts a spell of `number` against enemy psychics of
/// levels `blockers` all trying to block: its roll succeeds and no blocker's D6+X is higher.
pub fn psychic_cast_chance(x: u8, number: u8, blockers: &[u8]) -> f64 {
    let cast: f64 = (1..=6u8)
        .filter(|&r| psychic_cast_succeeds(r, x, number))
        .map(|r| {
            let total = u32::from(r) + u32::from(x);
            blockers.iter().map(|&b| (1..=6u32).filter(|&d| d + u32::from(b) <= total).count() as f64 / 6.0).product::<f64>()
        })
        .sum();
    cast / 6.0
}

impl<'a> View<'a> {
    /// The X of `id`'s best living psychic model (0: none left).
    pub fn psychic_level(&self, id: Id) -> u8 {
        let alive = self.info(id).alloc.view(self.live(id).s, false).alive;
        let level = alive.iter().flat_map(|(m, _)| m.rules.iter().filter(|r| r.name == "Psychic")).map(|r| r.number().unwrap_or(0)).max().unwrap_or(0);
        u8::try_from(level.clamp(0, 12)).unwrap_or(0)
    }

    /// The enemy psychics that may try to block a spell of `caster` now: on the table (not in
    /// reserve nor inside a transport), with a psychic model alive, that have not tried this
    /// round, within 18" (v2.x: 12" more from the ground to an Aircraft) and in line of sight
    /// of the caster's unit from a psychic model.
    pub fn may_block(&self, caster: Id) -> Vec<Id> {
        let reach = self.rules.help_range();
        self.on_table(1 - caster.0)
            .filter(|&b| {
                let live = self.live(b);
                // (a unit with no psychic model has no casting slots: skipped before its models are read)
                !live.psychic_tried && self.info(b).casting.caster() && self.psychic_level(b) > 0 && {
                    let range = reach + self.measured_further(b, caster);
                    self.within(b, caster, range) && self.nearest_seen_by(b, caster, &self.info(b).casting.slots) <= range + EPS
                }
            })
            .collect()
    }
}

