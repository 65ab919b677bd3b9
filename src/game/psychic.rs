//! v2.x's Psychic(X) (`rules::Casting::Psychic`): "May cast one spell during its activation
//! at any point, before attacking. Pick a spell and a target in line of sight and roll D6+X.
//! If the result is equal or higher than the number in brackets you may resolve the effects.
//! Enemy psychics within 18” and line of sight of the caster may roll D6+X at the same time,
//! and if the result is higher the spell is blocked. Psychics may only either try to cast or
//! try to block a spell each round."
//!
//! Readings (docs/editions.md, "Full games in v2.x"): the spells are data in the books' form
//! (`SpellDefinition`, its number in brackets the D6+X to reach); a natural 6 casts and a
//! natural 1 fails ("Regardless of modifiers, rolls of 6 are always successes, and rolls of 1
//! are always fails"), unless blocked; blockers declare before any die is rolled (their try
//! is spent whatever the cast's roll), compare totals, and a tie goes to the caster; a
//! Wavering psychic can't cast ("must stay idle") but may block; range, sight and the 18" are
//! the psychic models' own, and an Aircraft caster is 12" further from a blocker on the ground.

use super::config::Event;
use super::decisions::Player;
use super::live::Id;
use super::play::Game;
use super::spellbook::Window;
use super::psychic_reach::psychic_cast_succeeds;
use super::state::Touched;

impl<'a, P: Player> Game<'a, P> {
    /// The psychic `id` tries the spell the policy picks, if any, once this round: enemy
    /// psychics the policy has block roll at the same time (`psychic-block`), each spending its
    /// try; the spell resolves when the caster's roll succeeds and no blocker's is higher.
    pub(super) fn cast_psychic(&mut self, id: Id, window: Window, touched: &mut Touched) {
        let info = self.info(id);
        let live = self.live(id);
        if info.casting.spells.is_empty() || live.psychic_tried || live.shaken || !live.on_table() {
            return;
        }
        let x = self.psychic_level(id);
        if x == 0 {
            return;
        }
        let t = self.clock();
        let Some((si, target)) = self.ask(|p, v, r| p.psychic_spell(v, r, id, window)) else {
            self.lap(t, |x| &mut x.spells);
            return;
        };
        let spell = &info.casting.spells[si];
        if !window.allows(&spell.effect) || !self.spell_target(id, spell, target) {
            self.violation(|| format!("unit {id:?} tried spell {si} at {target:?}, which it may not"));
            self.lap(t, |x| &mut x.spells);
            return;
        }
        let live = self.live_mut(id);
        live.psychic_tried = true;
        live.spells_tried |= super::prepare::bit(si);
        // "at the same time": who blocks is declared before any die is rolled
        let blockers: Vec<Id> = self.may_block(id).into_iter().filter(|&b| self.ask(|p, v, r| p.blocks(v, r, b, id, si, target))).collect();
        let roll = self.rng.d6();
        let total = u32::from(roll) + u32::from(x);
        let mut blocked = false;
        for &b in &blockers {
            self.live_mut(b).psychic_tried = true;
            let level = self.psychic_level(b);
            let die = self.rng.d6();
            let higher = u32::from(die) + u32::from(level) > total;
            blocked |= higher;
            self.event(|g| Event {
                dice: 1,
                detail: format!("{}: rolled {die}+{level} against {roll}+{x}: {}", spell.name, if higher { "blocked" } else { "not blocked" }),
                ..Event::between("psychic-block", b, id, g.live(b).pos, g.live(id).pos)
            });
        }
        self.dice += 1 + blockers.len() as u64;
        let cast = psychic_cast_succeeds(roll, x, spell.tokens) && !blocked;
        self.event(|g| Event {
            dice: 1,
            hits: u32::from(spell.tokens),
            allowance: f64::from(x),
            detail: format!("{} ({}): rolled {roll}+{x}: {}", spell.name, spell.tokens, if cast { "cast" } else if blocked { "blocked" } else { "failed" }),
            ..Event::between("cast", id, target, g.live(id).pos, g.live(target).pos)
        });
        if cast {
            self.resolve_spell(id, spell, &[target], touched);
        }
        self.lap(t, |x| &mut x.spells);
    }
}
