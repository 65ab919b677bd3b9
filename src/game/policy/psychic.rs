//! The policy's v2.x psychics: which spell to try and on whom, and whether to spend the
//! round's try on blocking an enemy spell ("Psychics may only either try to cast or try to
//! block a spell each round").

use super::seat::Seat;
use super::spells::spell_value;
use crate::game::config::PolicyKind;
use crate::game::live::Id;
use crate::game::psychic_reach::psychic_cast_chance;
use crate::game::spellbook::Window;
use rand::RngExt;

/// The spell `id` tries now and its target: of its spells the window allows, at targets in
/// range and sight, the one whose points expected (`spell_value`) times its chance to be cast
/// against the enemy psychics that may block it is highest, if above nothing. The random
/// policy picks any with even odds, or none.
pub fn psychic_spell(g: &mut Seat, id: Id, window: Window) -> Option<(usize, Id)> {
    let info = g.info(id);
    let x = g.psychic_level(id);
    let blockers: Vec<u8> = g.may_block(id).into_iter().map(|b| g.psychic_level(b)).collect();
    let foes: Vec<Id> = g.on_table(1 - id.0).collect();
    let mut options: Vec<(f64, usize, Id)> = Vec::new();
    for (si, spell) in info.casting.spells.iter().enumerate() {
        if !window.allows(&spell.effect) {
            continue;
        }
        let chance = psychic_cast_chance(x, spell.tokens, &blockers);
        for &e in &foes {
            if g.spell_target(id, spell, e) {
                options.push((spell_value(g, id, si, e) * chance, si, e));
            }
        }
    }
    if g.policy_kind(id.0) == PolicyKind::Random {
        let k = g.rng.random_range(0..=options.len());
        return options.get(k).map(|&(_, si, e)| (si, e));
    }
    options.into_iter().filter(|o| o.0 > 0.0).fold(None::<(f64, usize, Id)>, |b, o| if b.is_none_or(|b| o.0 > b.0) { Some(o) } else { b }).map(|(_, si, e)| (si, e))
}

/// Whether `blocker` spends its try on blocking `caster`'s spell `si` at `target`: where the
/// spell is worth anything to the caster's side, and `blocker` has no cast of its own left to
/// make this round (it activated already, or none of its spells reaches an enemy now). The
/// random policy blocks with even odds.
pub fn blocks(g: &mut Seat, blocker: Id, caster: Id, si: usize, target: Id) -> bool {
    if g.policy_kind(blocker.0) == PolicyKind::Random {
        return g.rng.random_bool(0.5);
    }
    if spell_value(g, caster, si, target) <= 0.0 {
        return false;
    }
    let binfo = g.info(blocker);
    let own_cast = !g.live(blocker).activated
        && !g.live(blocker).shaken
        && binfo.casting.spells.iter().any(|s| g.on_table(caster.0).any(|e| g.spell_target(blocker, s, e)));
    !own_cast
}
