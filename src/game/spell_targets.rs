//! Whom a caster may target: "resolve the effect on a target in line of sight", within the
//! spell's range of the caster model (`spellbook::Casting::slots`), and what a damage spell is
//! expected to do to a target (kept, a pure function of its key).

use super::live::Id;
use super::spellbook::*;
use crate::attack::plan::Situation;
use super::spellbook::CastSpell;
use super::state::View;

impl<'a> View<'a> {
    /// The expected wounds of `id`'s spell `si` on `target` as it stands (cached: a pure
    /// function of the state and the distance's class). The distance is the units' (closest
    /// models; a joined caster stands among them): it only sorts the hits' distance rules into
    /// a class. Whether the spell reaches at all is `spell_target`'s, from the caster model.
    pub fn spell_wounds(&self, id: Id, si: usize, target: Id) -> f64 {
        let (info, t) = (self.info(id), self.info(target));
        let s = self.live(target).s;
        let distance = self.gap(id, target);
        let key = (id, si, target, t.alloc.index(s), super::state::distance_class(info, t, distance));
        if let Some(&w) = self.cache.spell_wounds.borrow().get(&key) {
            return w;
        }
        let situation = Situation::spell(self.prep.edition, distance);
        let Some(group) = info.casting.spells[si].hits() else { return 0.0 };
        let w = crate::attack::exact::group_expected_wounds(group, &situation, &t.alloc, s);
        self.cache.spell_wounds.borrow_mut().insert(key, w);
        w
    }

    /// Whether a caster of `id` is alive (its tokens are the casters'; a unit whose casters
    /// died can't spend them).
    pub fn casts(&self, id: Id) -> bool {
        caster_tokens(&self.info(id).alloc, self.live(id).s).1 > 0
    }

    /// Whether `target` is a target of `spell` cast by `id`: a unit of the side the spell picks
    /// ("Pick one enemy unit", "Pick one friendly unit") on the table, within the spell's range
    /// (less what its rules take off: Aircraft) and in line of sight; a unit "may always
    /// target themselves".
    pub fn spell_target(&self, id: Id, spell: &CastSpell, target: Id) -> bool {
        self.spell_target_seen(id, spell, target, &mut Vec::new())
    }

    /// `spell_target`, with the line of sight from the caster to each unit kept in `seen`
    /// (units stand still while a caster weighs its spells).
    pub fn spell_target_seen(&self, id: Id, spell: &CastSpell, target: Id, seen: &mut Vec<(Id, f64)>) -> bool {
        if (target.0 != id.0) != spell.targets.enemy || !self.live(target).on_table() {
            return false;
        }
        if target == id {
            return true;
        }
        // "units targeting them get -12" to their range": a 12" spell has no range left at all
        // (v2.x: "Non-aircraft units count as being an extra 12” away when measuring")
        let range = f64::from(spell.targets.range) - self.info(target).spell_range_penalty - self.measured_further(id, target);
        if range <= 0.0 || !self.within(id, target, range) {
            return false;
        }
        let nearest = match seen.iter().find(|(u, _)| *u == target) {
            Some(&(_, d)) => d,
            None => {
                let d = self.caster_sight(id, target);
                seen.push((target, d));
                d
            }
        };
        nearest <= range + super::state::EPS
    }

    /// How far the nearest model of `target` that a caster model of `id` sees is from it,
    /// edge to edge (infinite if none sees one): Caster(X) "resolve the effect on a target in
    /// line of sight" is the caster model's sight, as a weapon's is its model's.
    fn caster_sight(&self, id: Id, target: Id) -> f64 {
        self.nearest_seen_by(id, target, &self.info(id).casting.slots)
    }
}
