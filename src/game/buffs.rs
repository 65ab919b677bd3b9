//! Rules given to units: a unit with a buff or debuff rule gives it on activation, a caster's
//! casting roll modifiers and enemy tests, and a held rule spent "once (next time the effect
//! would apply)" when it is used; whom they go to is the player's choice.

use super::decisions::Player;
use super::play::Game;
use super::live::Id;
use super::prepare::bit;
use super::config::Event;


impl<'a, P: Player> Game<'a, P> {
    /// "Once per activation, before attacking, pick one friendly unit within 12", which gets X
    /// once (next time the effect would apply)" (`Effect::Buff`): the policy picks the unit
    /// (itself included) among those the rule would change and that hold no buff yet.
    pub(super) fn give_buff(&mut self, id: Id) {
        for given in self.info(id).gives_buff.into_iter().flatten() {
            let rule = self.prep.given[id.0][usize::from(given)];
            let Some((to, b)) = self.ask(|p, v, r| p.buff_target(v, r, id, given)) else { continue };
            self.live_mut(to).buff = b as u8 + 1;
            self.event(|g| Event { detail: rule.to_string(), ..Event::between("buff", id, to, g.live(id).pos, g.live(to).pos) });
        }
    }

    /// Casting Debuff and Casting Buff (`Effect::CastingRollGiven`): "Once per activation,
    /// before attacking, pick one enemy unit within 18" with Caster, which gets -1 to casting
    /// rolls once" (a friendly one within 12", +1); the policy picks the caster.
    pub(super) fn give_casting_roll(&mut self, id: Id) {
        let x = self.info(id).tricks.casting_roll_given;
        if x == 0 {
            return;
        }
        let Some(to) = self.ask(|p, v, r| p.casting_roll_target(v, r, id, x > 0)) else {
            return;
        };
        self.live_mut(to).casting_modifier[usize::from(x < 0)] = x;
        self.event(|g| Event { detail: format!("{x:+} to casting rolls"), ..Event::between("casting-modifier", id, to, g.live(id).pos, g.live(to).pos) });
    }

    /// A debuff given by a rule (`Effect::Debuff`, `Effect::EnemyTest`): "Once per activation,
    /// before attacking, pick one enemy unit within 18", which gets -1 to defense rolls once"
    /// (held as a buff is), or "which must take a morale test. If failed, it becomes
    /// fatigued", or "which must immediately take a Dangerous Terrain test".
    pub(super) fn give_debuff(&mut self, id: Id) {
        let t = self.info(id).tricks;
        if let Some(given) = self.info(id).gives_debuff {
            let rule = self.prep.given[1 - id.0][usize::from(given)];
            if let Some((to, b)) = self.ask(|p, v, r| p.debuff_target(v, r, id, given)) {
                self.live_mut(to).debuff = b as u8 + 1;
                self.event(|g| Event { detail: rule.to_string(), ..Event::between("debuff", id, to, g.live(id).pos, g.live(to).pos) });
            }
        }
        if let Some(dangerous) = t.enemy_test {
            let Some(to) = self.ask(|p, v, r| p.enemy_test_target(v, r, id, dangerous)) else {
                return;
            };
            if dangerous {
                let all = self.models(to).fold(0u64, |m, (i, _, _)| m | bit(i));
                self.event(|g| Event { detail: "dangerous terrain test".into(), ..Event::between("debuff-test", id, to, g.live(id).pos, g.live(to).pos) });
                self.roll_dangerous(to, all);
            } else {
                self.test_or_fatigued(id, to, "debuff-test", "morale test");
            }
        }
    }

    /// The mark on `target` has been used: it loses it.
    pub(super) fn spend_mark(&mut self, target: Id, by: Id, on: &'static str) {
        let Some(mark) = self.live_mut(target).mark.take() else {
            return;
        };
        let rule = self.prep.given[1 - target.0][usize::from(mark)];
        self.event(|g| Event { detail: format!("{rule}: {on}"), ..Event::between("mark-used", by, target, g.live(by).pos, g.live(target).pos) });
    }

    /// The held rules of `id` in `mask` have been used: the unit loses them.
    pub(super) fn spend_held(&mut self, id: Id, mask: u16, on: &'static str) {
        for slot in 0..2 {
            let b = [self.live(id).buff, self.live(id).debuff][slot];
            if b == 0 || mask & (1 << (b - 1)) == 0 {
                continue;
            }
            let live = self.live_mut(id);
            if slot == 0 { live.buff = 0 } else { live.debuff = 0 }
            self.event(|g| Event { detail: format!("{}: {on}", g.info(id).buffed[usize::from(b) - 1].rule), ..Event::of("buff-used", id, g.live(id).pos, g.live(id).pos) });
        }
    }
}
