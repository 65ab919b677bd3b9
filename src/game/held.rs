//! Rules a unit holds "once (next time the effect would apply)": the buffs friends give, the
//! debuffs enemies give, and the marks that give a unit's attackers a rule against it, from
//! the army books' rules and from spells; which allocation a unit fights with while it holds them.

use crate::game::state::View;
use super::prepare::{BuffUse, MAX_HELD_RULES};
use crate::attack::allocation::Allocation;
use super::state::{Game, Id};
use super::prepare::bit;
use super::config::Event;

impl<'a> View<'a> {

    /// The rules `id` holds once (a friend's and an enemy's) that act on `used`, as bits by
    /// their index in `UnitInfo::buffed`.
    pub fn held_for(&self, id: Id, used: BuffUse) -> u16 {
        let (live, info) = (self.live(id), self.info(id));
        let mut mask = 0;
        for b in [live.buff, live.debuff] {
            if b > 0 && info.buffed[usize::from(b) - 1].applies(used) {
                mask |= 1 << (b - 1);
            }
        }
        mask
    }

    /// The largest of `value` over the held rules in `mask`, and that rule's bit (`None`: none
    /// is above 0).
    pub(super) fn held_max(&self, id: Id, mask: u16, value: impl Fn(&super::prepare::Buffed) -> f64) -> Option<(f64, u16)> {
        self.info(id).held(mask).map(|(bit, b)| (value(b), bit)).filter(|(x, _)| *x > 0.0).max_by(|a, b| a.0.total_cmp(&b.0))
    }

    /// The index in `attacker`'s `UnitInfo::buffed` of the rule a mark on `target` gives it,
    /// if that acts on `used` (an attack of `attacker`'s).
    pub fn mark_for(&self, attacker: Id, target: Id, used: BuffUse) -> Option<usize> {
        let rule = self.live(target).mark?;
        if attacker.0 == target.0 {
            return None;
        }
        self.info(attacker).buffed.iter().position(|b| b.rule == rule && b.applies(used)).filter(|&i| i < MAX_HELD_RULES)
    }

    /// The rules `id`'s attack at `target` is made with (bits by index in `UnitInfo::buffed`):
    /// those it holds that act on it, and a mark's on the target; and whether the mark's is
    /// among them (a rule held and the same rule marked count once, as the held one).
    pub(super) fn attack_rules(&self, id: Id, target: Id, used: BuffUse) -> (u16, bool) {
        let held = self.held_for(id, used);
        match self.mark_for(id, target, used) {
            Some(m) if held & (1 << m) == 0 => (held | 1 << m, true),
            _ => (held, false),
        }
    }

    /// The unit's allocation with the rules `mask` (bits by index in `UnitInfo::buffed`) on
    /// every model: its own for none.
    pub(super) fn alloc_of(&self, id: Id, mask: u16) -> &'a Allocation {
        let info = self.info(id);
        match mask.count_ones() {
            0 => &info.alloc,
            1 => &info.buffed[mask.trailing_zeros() as usize].alloc,
            _ => info.held_alloc(mask),
        }
    }

}

impl<'a> Game<'a> {
    /// "Once per activation, before attacking, pick one friendly unit within 12", which gets X
    /// once (next time the effect would apply)" (`Effect::Buff`): the policy picks the unit
    /// (itself included) among those the rule would change and that hold no buff yet.
    pub(super) fn give_buff(&mut self, id: Id) {
        for rule in self.info(id).tricks.buff.into_iter().flatten() {
            let Some((to, b)) = self.ask(|p, v, r| p.buff_target(v, r, id, rule)) else { continue };
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
        if let Some(rule) = t.debuff {
            if let Some((to, b)) = self.ask(|p, v, r| p.debuff_target(v, r, id, rule)) {
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
        let Some(rule) = self.live_mut(target).mark.take() else {
            return;
        };
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
