//! Rules a unit holds "once (next time the effect would apply)": the buffs friends give, the
//! debuffs enemies give, and the marks that give a unit's attackers a rule against it, from
//! the army books' rules and from spells; which allocation a unit fights with while it holds them.

use super::state::View;
use super::held_rules::BuffUse;
use crate::attack::allocation::Allocation;
use super::live::Id;

impl<'a> View<'a> {

    /// The rules `id` holds once (a friend's and an enemy's) that act on `used`, as bits by
    /// their index in `UnitInfo::buffed`.
    /// (Inline for its common answer: most units hold nothing.)
    #[inline]
    pub fn held_for(&self, id: Id, used: BuffUse) -> u16 {
        let live = self.live(id);
        if live.buff == 0 && live.debuff == 0 {
            return 0;
        }
        self.held_mask(id, used)
    }

    /// `held_for` of a unit that holds a rule.
    #[inline(never)]
    fn held_mask(&self, id: Id, used: BuffUse) -> u16 {
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
    pub(super) fn held_max(&self, id: Id, mask: u16, value: impl Fn(&super::held_rules::Buffed) -> f64) -> Option<(f64, u16)> {
        self.info(id).held(mask).map(|(bit, b)| (value(b), bit)).filter(|(x, _)| *x > 0.0).max_by(|a, b| a.0.total_cmp(&b.0))
    }

    /// The index in `attacker`'s `UnitInfo::buffed` of the rule a mark on `target` gives it,
    /// if that acts on `used` (an attack of `attacker`'s).
    pub fn mark_for(&self, attacker: Id, target: Id, used: BuffUse) -> Option<usize> {
        let mark = self.live(target).mark?;
        if attacker.0 == target.0 {
            return None;
        }
        let info = self.info(attacker);
        info.held_index(mark).filter(|&i| info.buffed[i].applies(used))
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

