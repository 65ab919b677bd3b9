//! The default policy's transports (issue 40): a unit rides only when the ride pays, and a
//! unit inside gets out as soon as it can act. An audit of traced games found casters
//! sitting inside with their spell tokens (54% of their tokens arrived while they could not
//! cast) and units carried all game without acting; the November 2026 policy
//! (`PolicyKind::V3_2026_11`) still plays that way.
//!
//! gf-3.5 Transport: "May transport up to X models ... units may enter/exit by using any
//! move action, but must stay fully within 6" of it when exiting"; "Units inside/outside
//! transports may not target other units outside/inside transports": a caster inside has no
//! target for its spells.

use super::super::decisions::Exit;
use super::super::live::Id;
use super::super::state::View;
use super::common::enemies;
use super::Seat;

/// Whether a ride in `transport` pays for `id`: the unit is not a caster (inside it casts
/// nothing), and the transport is faster (`faster`) or arrives by Ambush (anywhere over 9"
/// from the enemy, with its units inside).
pub fn ride_pays(g: &View, id: Id, transport: Id) -> bool {
    !g.info(id).casting.caster() && (faster(g, id, transport) || g.live(transport).reserve && g.info(transport).movement.ambush)
}

/// Whether `transport`'s Rush beats `id`'s own by `ride_margin` (else walking gets the unit as
/// far, and acting on the way).
pub fn faster(g: &View, id: Id, transport: Id) -> bool {
    g.movement(transport).rush >= g.movement(id).rush + g.config.policies[id.0].ride_margin
}

/// The longest range of a spell `id` can afford now, with its targets' side (`None`: none).
fn spell_reach(g: &View, id: Id) -> Option<(f64, bool)> {
    let info = g.info(id);
    if !info.casting.caster() {
        return None;
    }
    let held = g.live(id).tokens;
    info.casting.spells.iter().filter(|s| s.tokens <= held).map(|s| (f64::from(s.targets.range), s.targets.enemy)).max_by(|a, b| a.0.total_cmp(&b.0))
}

/// A way out of `transport` from which `id` acts this activation, if there is one: a caster
/// with tokens for a spell gets out (by Advance, to cast) towards the nearest unit its spell
/// may target, when that unit is then within the spell's range; a unit with guns gets out
/// towards the nearest enemy when one is then within range of its guns (measured: in paired
/// games a unit that waited for its transport to move first, or a melee unit that stayed
/// inside with its pistols, won less). Charges out are `ai::charge_out`'s.
pub fn exit_to_act(g: &mut Seat, id: Id, transport: Id) -> Option<Exit> {
    let at = g.live(transport).pos;
    let r = g.radius(id);
    let nearest = |g: &View, own: bool| {
        let army = if own { id.0 } else { 1 - id.0 };
        g.on_table(army).filter(|&u| u != transport && u != id).min_by(|&a, &b| g.live(a).pos.distance(at).total_cmp(&g.live(b).pos.distance(at)))
    };
    if let Some((range, enemy)) = spell_reach(g, id) {
        if let Some(target) = nearest(g, !enemy) {
            let to = g.live(target).pos;
            if let Some(p) = g.exit_spot(id, transport, to) {
                if p.distance(to) - r - g.radius(target) <= range {
                    return Some(Exit::Advance(p));
                }
            }
        }
    }
    let info = g.info(id);
    if info.max_range > 0.0 {
        let target = enemies(g, id.0).filter(|&e| !g.info(e).movement.aircraft).min_by(|&a, &b| g.live(a).pos.distance(at).total_cmp(&g.live(b).pos.distance(at)));
        if let Some(e) = target {
            let to = g.live(e).pos;
            if let Some(p) = g.exit_spot(id, transport, to) {
                if p.distance(to) - r - g.radius(e) <= info.max_range {
                    return Some(Exit::Advance(p));
                }
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::super::cache::Cache;
    use super::super::super::config::PolicyKind;
    use super::super::super::decisions::Action;
    use super::super::super::table::Point;
    use super::super::super::test_support::{config, placed, prep, with_seat};
    use super::*;

    const APC: &str = "APC [1] Q4+ D2+ | Tough(6), Transport(11), Fast";
    const MAGE: &str = "Mage [1] Q4+ D4+ | Hero, Caster(3)\nStaff (A1)";

    #[test]
    fn a_caster_inside_gets_out_to_cast() {
        // a caster inside has no target; out of the transport, the enemy 10" away is within
        // its 18" spell's range: the default policy gets out by Advance (to cast), the
        // November 2026 one stays inside while the transport may carry it on
        use crate::loaders::army_forge::SpellDefinition;
        use crate::rules::spells::{Spell, SpellEffect, Targets};
        use crate::Edition;
        let spell = Spell { tokens: 1, targets: Targets { enemy: true, model: false, count: 1, range: 18 }, effect: SpellEffect::Hits { hits: 6, rules: Vec::new(), roll_for: None } };
        let book: crate::loaders::army_forge::Spells = vec![SpellDefinition { name: "Bolt".into(), tokens: Some(1), effect: String::new(), spell: Some(spell) }].into();
        let parse = |t: &str| crate::profile::Unit::parse(t, Edition::V3_5).unwrap();
        let p = super::super::super::prepare::Prepared::with_spells([&[parse(APC), parse(MAGE)], &[parse("Grunts [5] Q5+ D5+\n5x Rifle (24\", A1)")]], [&[book.clone(), book], &[]], Edition::V3_5, [2.0, 2.0]).unwrap();
        for (kind, gets_out) in [(PolicyKind::Default, true), (PolicyKind::V3_2026_11, false)] {
            let mut c = config(Vec::new(), vec![Point::new(36.0, 44.0)], vec![Point::new(36.0, 10.0), Point::new(20.0, 5.0)], vec![Point::new(36.0, 24.0)]);
            c.policies[0].kind = kind;
            let mut cache = Cache::default();
            let mut g = placed(&p, &c, &mut cache);
            let (apc, mage) = ((0, 0), (0, 1));
            g.live_mut(mage).carrier = Some(0);
            g.live_mut(mage).pos = g.live(apc).pos;
            g.live_mut(mage).tokens = 3;
            assert!(g.info(mage).casting.caster() && !g.info(mage).casting.spells.is_empty() && !g.live(apc).activated);
            let exit = with_seat(&mut g, |s| super::super::exit(s, mage, apc));
            assert_eq!(matches!(exit, Some(Exit::Advance(_))), gets_out, "{kind:?}: {exit:?}");
        }
    }

    #[test]
    fn a_unit_boards_only_a_faster_transport() {
        // a melee squad far from its goal boards a Fast transport within reach, but not one
        // no faster than itself (the ride would spend its activation for nothing)
        let squad = "Brutes [5] Q4+ D4+\n5x Club (A2)";
        for (apc, boards) in [(APC, true), ("Carrier [1] Q4+ D2+ | Tough(6), Transport(11)", false)] {
            let p = prep(&[apc, squad], &["Grunts [5] Q5+ D5+\n5x Rifle (24\", A1)"]);
            let c = config(Vec::new(), vec![Point::new(36.0, 44.0)], vec![Point::new(36.0, 10.0), Point::new(36.0, 4.0)], vec![Point::new(60.0, 44.0)]);
            let mut cache = Cache::default();
            let mut g = placed(&p, &c, &mut cache);
            let action = with_seat(&mut g, |s| super::super::decide(s, (0, 1)));
            assert_eq!(matches!(action, Action::Embark(..)), boards, "{apc}: {action:?}");
        }
    }
}
