//! Credibility: what each activation of a unit came to. A result decided by units that stood
//! idle with something to do, were stuck, rode in a transport all game or were destroyed
//! before they first acted says more about the AI than about the list; `GameResult` shows
//! these shares beside every result so a user can tell.
//!
//! An activation is *useful* when the unit attacked (fired, charged, fought), tried a spell,
//! moved at least `USEFUL_MOVE`, left its transport, or ends it where it seizes or contests a
//! marker. One that is not is *idle* (it held), *stuck* (it chose to move and got nowhere) or
//! *inside* (it stayed in, or got into, a transport). A Shaken unit's idle activation, or a
//! unit's destroyed by the dangerous terrain it was activated in, is the rules' doing, not a
//! choice: it counts as an activation, in no category.

/// The least move (inches) that counts as doing something: a unit that advances less has not
/// got anywhere (a shuffle round a blocking unit or terrain).
pub const USEFUL_MOVE: f64 = 1.0;

/// What an activation came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Useful,
    /// Shaken ("must spend their activation being idle"), or destroyed by the dangerous
    /// terrain it was activated in.
    Forced,
    /// It held with nothing to shoot, cast or hold.
    Idle,
    /// It chose to move and moved less than `USEFUL_MOVE`, doing nothing else.
    Stuck,
    /// It got into, or stayed in, a transport.
    Inside,
}

/// One unit's activations in one game.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Usefulness {
    pub activations: u16,
    pub idle: u16,
    pub stuck: u16,
    pub inside: u16,
    /// It left a transport this game (so its rides led somewhere).
    pub left_transport: bool,
}

impl Usefulness {
    pub fn count(&mut self, outcome: Outcome) {
        self.activations = self.activations.saturating_add(1);
        let slot = match outcome {
            Outcome::Useful | Outcome::Forced => return,
            Outcome::Idle => &mut self.idle,
            Outcome::Stuck => &mut self.stuck,
            Outcome::Inside => &mut self.inside,
        };
        *slot = slot.saturating_add(1);
    }

    /// Activations spent in a transport the unit never left: carried all game.
    pub fn carried(&self) -> u16 {
        if self.left_transport { 0 } else { self.inside }
    }
}

/// What the unit did in its activation, as `activate` saw it.
pub(super) struct Deeds {
    pub attacked: bool,
    /// It chose to move (Advance, Rush).
    pub meant_to_move: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::cache::Cache;
    use crate::game::config::{Output, UnitTotals};
    use crate::game::table::Point;
    use crate::game::test_support::{config, placed, prep};

    const GRUNTS: &str = "Grunts [5] Q5+ D5+\n5x Rifle (24\", A1)";

    #[test]
    fn an_activation_is_what_it_achieved() {
        // far from the enemy (beyond 24") and from the one marker
        let p = prep(&[GRUNTS], &[GRUNTS]);
        let c = config(vec![], vec![Point::new(60.0, 40.0)], vec![Point::new(10.0, 5.0)], vec![Point::new(60.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let id = (0, 0);
        let start = g.live(id).pos;
        let deeds = |attacked, meant_to_move| Deeds { attacked, meant_to_move };
        assert_eq!(g.outcome_on_table(id, start, deeds(false, false)), Outcome::Idle);
        assert_eq!(g.outcome_on_table(id, start, deeds(false, true)), Outcome::Stuck);
        assert_eq!(g.outcome_on_table(id, start, deeds(true, false)), Outcome::Useful, "it attacked");
        g.live_mut(id).pos = Point::new(start.x + USEFUL_MOVE - 0.01, start.y);
        assert_eq!(g.outcome_on_table(id, start, deeds(false, true)), Outcome::Stuck, "a shuffle is no move");
        g.live_mut(id).pos = Point::new(start.x + USEFUL_MOVE, start.y);
        assert_eq!(g.outcome_on_table(id, start, deeds(false, true)), Outcome::Useful);
        g.live_mut(id).pos = start;
        g.live_mut(id).spells_tried = 1;
        assert_eq!(g.outcome_on_table(id, start, deeds(false, false)), Outcome::Useful, "it tried a spell");
        g.live_mut(id).spells_tried = 0;
        // holding: within 3" of a marker
        g.live_mut(id).pos = Point::new(60.0, 37.0);
        assert_eq!(g.outcome_on_table(id, g.live(id).pos, deeds(false, false)), Outcome::Useful, "it holds the marker");
        g.live_mut(id).carrier = Some(0);
        assert_eq!(g.outcome_on_table(id, g.live(id).pos, deeds(false, false)), Outcome::Inside);
    }

    #[test]
    fn activations_are_counted_as_they_are_played() {
        // a unit in range shoots: useful; a Shaken one is idle by the rules, not wasted
        let p = prep(&[GRUNTS, GRUNTS], &[GRUNTS]);
        let c = config(vec![], vec![], vec![Point::new(36.0, 10.0), Point::new(10.0, 10.0)], vec![Point::new(36.0, 30.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        g.activate((0, 0));
        assert!(g.live((1, 0)).taken > 0 || g.trace.as_ref().unwrap().iter().any(|e| e.kind == "shoot"), "it shot");
        assert_eq!(g.live((0, 0)).usefulness, Usefulness { activations: 1, ..Usefulness::default() });
        g.live_mut((0, 1)).shaken = true;
        g.activate((0, 1));
        assert_eq!(g.live((0, 1)).usefulness, Usefulness { activations: 1, ..Usefulness::default() });
    }

    #[test]
    fn a_game_totals_the_wasted_turns() {
        let p = prep(&[GRUNTS, GRUNTS, GRUNTS, GRUNTS], &[GRUNTS]);
        let at = |x: f64| Point::new(x, 5.0);
        let c = config(vec![], vec![], vec![at(10.0), at(20.0), at(30.0), at(40.0)], vec![Point::new(36.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        // carried all game; rode, then left; idle twice and stuck once; never activated
        g.live_mut((0, 0)).usefulness = Usefulness { activations: 3, inside: 3, ..Usefulness::default() };
        g.live_mut((0, 1)).usefulness = Usefulness { activations: 3, inside: 2, left_transport: true, ..Usefulness::default() };
        g.live_mut((0, 2)).usefulness = Usefulness { activations: 4, idle: 2, stuck: 1, ..Usefulness::default() };
        g.live_mut((0, 3)).gone = true;
        let mut out = Output { units: [UnitTotals::new(4), UnitTotals::new(1)], ..Output::default() };
        g.finish(&mut out);
        let a = &out.units[0];
        assert_eq!(a.activations, [3, 3, 4, 0]);
        assert_eq!(a.carried, [3, 0, 0, 0]);
        assert_eq!((a.idle.clone(), a.stuck.clone()), (vec![0, 0, 2, 0], vec![0, 0, 1, 0]));
        assert_eq!(a.never_acted, [0, 0, 0, 1]);
        assert_eq!(out.units[1].never_acted, [1], "B's unit never activated either");
    }
}
