//! Casters and their spells in a game, as gf-3.5 "Caster(X)" says: "Gets X spell tokens at
//! the start of each round, but can't hold more than 6 tokens at once. At any point before
//! attacking, spend as many tokens as the spell's value to try casting one or more spells
//! (only one try per spell). Roll one die, on 4+ resolve the effect on a target in line of
//! sight. Models within 18" in line of sight of the caster's unit may spend any number of
//! spell tokens at the same time before rolling, to give the caster +1/-1 to the roll per
//! token." The spells are the caster's book's ("the Caster's spells must be picked from their
//! own faction"); the game casts its damage spells, whose hits are rolled as `attack()` rolls
//! them. Which spell, on whom and how many tokens to spend are the policy's
//! (`Player::spells_to_cast`, `Player::tokens_to_spend`).
//!
//! Readings (docs/game.md): range and sight are the caster model's (`Casting::slots`), as a
//! weapon's are its model's, and a helper's from the caster's unit; a unit with several
//! casters (a Caster hero joined to a Caster Group) pools their tokens, holding at most 6
//! per caster; Shaken units can't cast, help or hinder ("can't use any active special rules,
//! such as casting spells").


use super::decisions::Player;
use super::state::Touched;
use super::play::Game;
use super::live::Id;
use super::config::Event;
use super::spellbook::*;
use crate::attack::plan::Situation;



impl<'a, P: Player> Game<'a, P> {
    /// "which must take a morale test. If failed, it becomes fatigued": the test as any morale
    /// test (a buff for morale acts on it), and only the spell's outcome on a fail (it is not
    /// Shaken: the spell says what a fail does).
    pub(super) fn spell_test(&mut self, id: Id, spell: &CastSpell, target: Id) {
        self.test_or_fatigued(id, target, "spell-test", &spell.name);
    }

    /// "Gets X spell tokens at the start of each round, but can't hold more than 6 tokens at
    /// once" (also in Ambush reserve: "Casters get spell tokens each round even if they are not
    /// on the table"); a Caster Group "loses all unspent spell tokens at the end of the round",
    /// so it starts each round with none; a Caster hero joined to it keeps its own (the
    /// group's tokens are taken as spent first: they would go anyway).
    pub(super) fn give_tokens(&mut self) {
        // (v2.x's psychics have no tokens)
        if let crate::game::rules::Casting::Psychic { .. } = self.rules.casting {
            return;
        }
        for army in 0..2 {
            for u in 0..self.units[army].len() {
                let id = (army, u);
                let info = self.info(id);
                if !info.casting.caster() || self.live(id).gone {
                    continue;
                }
                let parts = crate::rules::spells::caster_token_parts(&info.alloc, self.live(id).s);
                let live = self.live(id);
                let kept = u32::from(live.tokens).min(u32::from(live.own_tokens));
                let own = kept.saturating_add(parts.own).min(parts.own_cap);
                let per_round = parts.own.saturating_add(parts.group);
                let now = own.saturating_add(parts.group.min(u32::from(crate::rules::spells::MAX_TOKENS)));
                let live = self.live_mut(id);
                live.own_tokens = u8::try_from(own).unwrap_or(u8::MAX);
                live.tokens = u8::try_from(now).unwrap_or(u8::MAX);
                self.event(|g| Event { dice: 0, hits: per_round, models_left: now, detail: format!("gets {per_round}, holds {now}"), ..Event::of("tokens", id, g.live(id).pos, g.live(id).pos) });
            }
        }
    }

    /// The caster `id` tries the spells the policy picks, before it attacks ("At any point
    /// before attacking"): each spell at most once, its tokens spent whether or not it is
    /// cast. Wounded targets are added to `touched` for their morale test at the end of the
    /// activation.
    pub(super) fn cast_spells(&mut self, id: Id, window: Window, touched: &mut Touched) {
        if let crate::game::rules::Casting::Psychic { .. } = self.rules.casting {
            return self.cast_psychic(id, window, touched);
        }
        let info = self.info(id);
        if info.casting.spells.is_empty() || self.live(id).tokens == 0 || self.live(id).shaken || !self.live(id).on_table() || !self.casts(id) {
            return;
        }
        let t = self.clock();
        // one spell at a time, the rest planned again after each (a target may be gone)
        while let Some((si, targets)) = self.ask(|p, v, r| p.spells_to_cast(v, r, id, window)).into_iter().next() {
            let spell = &info.casting.spells[si];
            let held = self.live(id).tokens;
            if held < spell.tokens || targets.is_empty() || tried(self.live(id).spells_tried, si) || !targets.iter().all(|&e| self.spell_target(id, spell, e)) {
                self.violation(|| format!("unit {id:?} tried spell {si} at {targets:?}, which it may not"));
                break;
            }
            let live = self.live_mut(id);
            live.tokens = held - spell.tokens;
            live.spells_tried |= 1 << si.min(63);
            let stake: f64 = targets.iter().map(|&e| self.ask(|p, v, r| p.spell_value(v, r, id, si, e))).sum();
            let mut modifier = self.help_and_hinder(id, stake);
            // a debuff on its next casting roll ("-3 to casting rolls once") is used now
            let held = std::mem::take(&mut self.live_mut(id).casting_modifier);
            modifier += held.iter().map(|&x| i32::from(x)).sum::<i32>();
            let roll = self.rng.d6();
            self.dice += 1;
            let cast = cast_succeeds(roll, modifier);
            self.event(|g| Event {
                dice: 1,
                hits: u32::from(spell.tokens),
                models_left: u32::from(g.live(id).tokens),
                allowance: f64::from(modifier),
                detail: format!("{}: rolled {roll}{modifier:+}: {}", spell.name, if cast { "cast" } else { "failed" }),
                ..Event::between("cast", id, targets[0], g.live(id).pos, g.live(targets[0]).pos)
            });
            if cast {
                self.resolve_spell(id, spell, &targets, touched);
            }
        }
        self.lap(t, |x| &mut x.spells);
    }

    /// A spell of `id` that was cast resolves on each of its targets still on the table.
    pub(super) fn resolve_spell(&mut self, id: Id, spell: &'a CastSpell, targets: &[Id], touched: &mut Touched) {
        for &target in targets {
            if !self.live(target).on_table() {
                continue;
            }
            match spell.effect {
                CastEffect::Hits(_) => self.spell_hits(id, spell, target, touched),
                CastEffect::Buff(rule) | CastEffect::Debuff(rule) => self.spell_buff(id, spell, rule, target),
                CastEffect::Mark(rule) => self.spell_mark(id, spell, rule, target),
                CastEffect::CastingModifier(x) => self.spell_casting_modifier(id, spell, x, target),
                CastEffect::TestOrFatigued => self.spell_test(id, spell, target),
            }
        }
    }

    /// A buff or debuff spell's rule on `target` "once (next time the effect would apply)", as
    /// a friend's buff is given (`Live::buff`; an enemy's: `Live::debuff`); a unit holding one
    /// from that side already keeps it (the policy picks units holding none).
    fn spell_buff(&mut self, id: Id, spell: &CastSpell, rule: &'static str, target: Id) {
        // (the spell's rule as an index in the target's army's list: `CastSpell::given`)
        let Some(b) = spell.given.and_then(|g| self.info(target).held_index(g)) else { return };
        // a friend's rule and an enemy's are held side by side
        let friend = target.0 == id.0;
        let live = self.live_mut(target);
        let slot = if friend { &mut live.buff } else { &mut live.debuff };
        if *slot != 0 {
            return;
        }
        *slot = b as u8 + 1;
        let kind = if friend { "buff" } else { "debuff" };
        self.event(|g| Event { detail: format!("{}: {rule}", spell.name), ..Event::between(kind, id, target, g.live(id).pos, g.live(target).pos) });
    }

    /// A casting modifier on `target`'s next casting roll; a unit holding one keeps it.
    fn spell_casting_modifier(&mut self, id: Id, spell: &CastSpell, x: i8, target: Id) {
        if self.live(target).casting_modifier[usize::from(x < 0)] != 0 {
            return;
        }
        self.live_mut(target).casting_modifier[usize::from(x < 0)] = x;
        self.event(|g| Event { detail: format!("{}: {x:+} to casting rolls", spell.name), ..Event::between("casting-modifier", id, target, g.live(id).pos, g.live(target).pos) });
    }

    /// `target`'s morale test that fatigues it if failed, made by `by` (a spell, or the Fatigue
    /// Debuff rule), traced as `kind` with `what` made it.
    pub(super) fn test_or_fatigued(&mut self, by: Id, target: Id, kind: &'static str, what: &str) {
        let passed = self.morale_roll(target);
        if !passed {
            self.live_mut(target).fatigued = true;
        }
        self.event(|g| Event {
            dice: 1,
            detail: format!("{what}: {}", if passed { "passed" } else { "failed: fatigued" }),
            ..Event::between(kind, by, target, g.live(by).pos, g.live(target).pos)
        });
    }

    /// A mark spell's rule for the caster's army's attacks on `target` "once (next time the
    /// effect would apply)"; a unit marked already keeps that mark.
    fn spell_mark(&mut self, id: Id, spell: &CastSpell, rule: &'static str, target: Id) {
        if self.live(target).mark.is_some() {
            return;
        }
        self.live_mut(target).mark = spell.given;
        self.event(|g| Event { detail: format!("{}: {rule}", spell.name), ..Event::between("mark", id, target, g.live(id).pos, g.live(target).pos) });
    }

    /// A damage spell's hits on `target`, rolled as `attack()` rolls them.
    fn spell_hits(&mut self, id: Id, spell: &'a CastSpell, target: Id, touched: &mut Touched) {
        let before = self.live(target).s;
        if !touched.iter().any(|(t, _)| *t == target) {
            touched.push((target, before));
        }
        let talloc = &self.info(target).alloc;
        let situation = Situation::spell(self.prep.edition, self.gap(id, target));
        let Some(group) = spell.hits() else { return };
        let r = self.roll_hits(id, target, group, &situation);
        self.event(|g| Event {
            dice: r.dice,
            hits: r.hits,
            wounds: r.wounds,
            models_left: talloc.alive(r.end),
            detail: spell.name.clone(),
            ..Event::between("spell-hits", id, target, g.live(id).pos, g.live(target).pos)
        });
    }

    /// "Models within 18" in line of sight of the caster's unit may spend any number of
    /// spell tokens at the same time before rolling, to give the caster +1/-1 to the roll per
    /// token": friendly casters help, enemy casters hinder, each as the policy decides for a
    /// spell worth `stake` points to the caster's side. Both sides decide at once, so each
    /// decides on the roll as its own side has moved it. The roll's modifier.
    pub(super) fn help_and_hinder(&mut self, caster: Id, stake: f64) -> i32 {
        let mut moved = [0i32; 2];
        let help_range = self.rules.help_range();
        for army in [caster.0, 1 - caster.0] {
            for u in 0..self.units[army].len() {
                let other = (army, u);
                let live = self.live(other);
                // Firefight: "This model and other casters within 18" in line of sight may
                // spend any number of tokens" (the caster itself, where the edition says so)
                let own = other == caster && self.rules.caster_adds_own();
                if (other == caster && !own) || live.tokens == 0 || live.shaken || !live.on_table() || !self.casts(other) || (!own && (!self.within(other, caster, help_range) || !self.sight(other, caster).visible)) {
                    continue;
                }
                let help = army == caster.0;
                let side = usize::from(!help);
                let tokens = self.ask(|p, v, r| p.tokens_to_spend(v, r, other, stake, if help { moved[0] } else { -moved[1] }, help));
                if tokens == 0 {
                    continue;
                }
                self.live_mut(other).tokens -= tokens;
                moved[side] += i32::from(tokens);
                self.event(|g| Event {
                    hits: u32::from(tokens),
                    models_left: u32::from(g.live(other).tokens),
                    detail: format!("{}{tokens} to the roll", if help { "+" } else { "-" }),
                    ..Event::between(if help { "help" } else { "hinder" }, other, caster, g.live(other).pos, g.live(caster).pos)
                });
            }
        }
        moved[0] - moved[1]
    }
}

#[cfg(test)]
mod tests {
    use super::super::prepare::Prepared;
    use crate::game::test_support::Game;
    use crate::rules::spells::{Roll, Spell, SpellEffect, Targets};
    use crate::loaders::army_forge::SpellDefinition;
    use crate::Edition;
    use crate::attack::allocation::Allocation;
    use super::super::table::Point;
    use super::*;
    use crate::game::test_support::with_seat;

    #[test]
    fn a_six_always_casts_and_a_one_always_fails() {
        // "a roll of 6 always counts as a success and a roll of 1 always counts as a fail,
        // regardless of how much it is being modified by"
        assert!(cast_succeeds(6, -10) && !cast_succeeds(1, 10));
        // "on 4+": three faces of six bare; each token moves one face
        assert_eq!(cast_chance(0), 0.5);
        assert_eq!(cast_chance(1), 4.0 / 6.0);
        assert_eq!(cast_chance(-2), 1.0 / 6.0);
        assert_eq!(cast_chance(-5), 1.0 / 6.0);
        assert_eq!(cast_chance(5), 5.0 / 6.0);
    }

    /// A caster with one damage spell ("6 hits", 24") and a second caster beside it, against
    /// a unit 10" away on an open table.
    fn casters(test: impl FnOnce(&mut Game)) {
        use super::super::cache::Cache;
        use super::super::table::Point;
        use crate::rules::spells::{Spell, SpellEffect};
        let spell = Spell { tokens: 1, targets: Targets { enemy: true, model: false, count: 1, range: 24 }, effect: SpellEffect::Hits { hits: 6, rules: Vec::new(), roll_for: None } };
        let book: crate::loaders::army_forge::Spells = vec![SpellDefinition { name: "Bolt".into(), tokens: Some(1), effect: String::new(), spell: Some(spell) }].into();
        let parse = |t: &str| crate::profile::Unit::parse(t, Edition::V3_5).unwrap();
        let a = [parse("Seer [1] Q4+ D4+ | 100pts | Hero, Tough(3), Caster(2)"), parse("Adept [1] Q4+ D4+ | 100pts | Hero, Tough(3), Caster(2)")];
        let b = [parse("T [10] Q4+ D4+ | 200pts")];
        // the second caster has no spells of its own (no book): its tokens are worth most
        // given to the first
        let prep = super::super::prepare::Prepared::with_spells([&a, &b], [&[book], &[]], Edition::V3_5, [2.0, 2.0]).unwrap();
        let config = super::super::test_support::config(Vec::new(), vec![Point::new(10.0, 40.0)], vec![Point::new(36.0, 10.0), Point::new(40.0, 10.0)], vec![Point::new(36.0, 22.0)]);
        let mut cache = Cache::default();
        let mut g = super::super::test_support::placed(&prep, &config, &mut cache);
        test(&mut g);
    }

    #[test]
    fn a_joined_caster_casts_only_at_what_the_caster_model_sees() {
        // Caster(X): "resolve the effect on a target in line of sight", the caster's: a joined
        // Seer behind a wall casts at no unit only its bodyguards see. Checked against sight
        // lines drawn here, model to model, past the one wall on the table
        use super::super::cache::Cache;
        use super::super::table::{Kinds, Piece, Point};
        use crate::rules::spells::{Spell, SpellEffect};
        let spell = Spell { tokens: 1, targets: Targets { enemy: true, model: false, count: 1, range: 24 }, effect: SpellEffect::Hits { hits: 6, rules: Vec::new(), roll_for: None } };
        let book: crate::loaders::army_forge::Spells = vec![SpellDefinition { name: "Bolt".into(), tokens: Some(1), effect: String::new(), spell: Some(spell) }].into();
        let parse = |t: &str| crate::profile::Unit::parse(t, Edition::V3_5).unwrap();
        let joined = parse("Guards [10] Q4+ D4+ | 100pts").join(&parse("Seer [1] Q4+ D4+ | 50pts | Hero, Tough(3), Caster(2)"), Edition::V3_5).unwrap();
        let prep = super::super::prepare::Prepared::with_spells([&[joined], &[parse("T [1] Q4+ D4+ | 50pts")]], [&[book], &[]], Edition::V3_5, [2.0, 2.0]).unwrap();
        let wall = Piece::new("wall", 28.0, 15.0, 44.0, 17.0, Kinds { blocking: true, impassable: true, ..Kinds::default() }).unwrap();
        let config = super::super::test_support::config(vec![wall.clone()], vec![Point::new(10.0, 40.0)], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 30.0)]);
        let mut cache = Cache::default();
        let mut g = super::super::test_support::placed(&prep, &config, &mut cache);
        assert_eq!(g.info((0, 0)).casting.slots, vec![10], "the Seer is the last model removed");
        let seer = g.models((0, 0)).find(|m| m.0 == 10).unwrap();
        // a sight line is blocked where it passes through the wall (sampled finely; lines
        // that graze it are left out)
        let through = |p: Point, q: Point, grow: f64| (0..=4000).any(|i| {
            let t = f64::from(i) / 4000.0;
            let x = Point::new(p.x + (q.x - p.x) * t, p.y + (q.y - p.y) * t);
            x.x > wall.x0 - grow && x.x < wall.x1 + grow && x.y > wall.y0 - grow && x.y < wall.y1 + grow
        });
        let spell = g.info((0, 0)).casting.spells[0].clone();
        let (mut bodyguards_only, mut seer_sees) = (0, 0);
        for i in 0..=56 {
            for j in 0..=8 {
                let at = Point::new(8.0 + f64::from(i), 19.0 + f64::from(j));
                g.live_mut((1, 0)).pos = at;
                let (_, q, rq) = g.models((1, 0)).next().unwrap();
                let (blocked, clear) = (through(seer.1, q, 0.02), !through(seer.1, q, -0.02));
                if blocked != !clear || seer.1.distance(q) - seer.2 - rq > 24.0 {
                    continue;
                }
                let cast = g.spell_target((0, 0), &spell, (1, 0));
                assert_eq!(cast, clear, "target at ({:.1}, {:.1})", at.x, at.y);
                let unit_sees = g.sight((0, 0), (1, 0)).visible;
                if unit_sees && !clear {
                    bodyguards_only += 1;
                }
                seer_sees += usize::from(clear);
            }
        }
        assert!(bodyguards_only > 0 && seer_sees > 0, "{bodyguards_only} seen by bodyguards only, {seer_sees} by the Seer");
        // and the range is the Seer's too: a target in its sight, 23.5" from the farthest
        // bodyguard and past 24" from the Seer, is out of range
        let (_, guard, rg) = g.models((0, 0)).max_by(|a, b| a.1.x.total_cmp(&b.1.x)).unwrap();
        g.live_mut((1, 0)).pos = Point::new(guard.x + rg + 23.5 + 0.5, guard.y);
        let (_, q, rq) = g.models((1, 0)).next().unwrap();
        assert!(g.within((0, 0), (1, 0), 24.0) && g.sight((0, 0), (1, 0)).visible && seer.1.distance(q) - seer.2 - rq > 24.0);
        assert!(!through(seer.1, q, 0.02));
        assert!(!g.spell_target((0, 0), &spell, (1, 0)));
        g.live_mut((1, 0)).pos = Point::new(seer.1.x + seer.2 + 23.5 + 0.5, seer.1.y);
        assert!(g.spell_target((0, 0), &spell, (1, 0)), "23.5\" from the Seer itself");
    }

    #[test]
    fn no_twelve_inch_spell_reaches_an_aircraft() {
        // Aircraft: "units targeting them get -12" to their range": a 12" spell has none left,
        // even at a unit standing under the Aircraft's base
        use super::super::cache::Cache;
        use super::super::table::Point;
        use crate::rules::spells::{Spell, SpellEffect};
        let spell = |range| Spell { tokens: 1, targets: Targets { enemy: true, model: false, count: 1, range }, effect: SpellEffect::Hits { hits: 6, rules: Vec::new(), roll_for: None } };
        let book: crate::loaders::army_forge::Spells = vec![SpellDefinition { name: "Blast".into(), tokens: Some(1), effect: String::new(), spell: Some(spell(12)) }, SpellDefinition { name: "Far".into(), tokens: Some(1), effect: String::new(), spell: Some(spell(18)) }].into();
        let parse = |t: &str| crate::profile::Unit::parse(t, Edition::V3_5).unwrap();
        let prep = super::super::prepare::Prepared::with_spells([&[parse("Seer [1] Q4+ D4+ | 50pts | Hero, Tough(3), Caster(2)")], &[parse("Jet [1] Q4+ D4+ | Aircraft, Tough(6)")]], [&[book], &[]], Edition::V3_5, [2.0, 2.0]).unwrap();
        let config = super::super::test_support::config(Vec::new(), vec![Point::new(10.0, 40.0)], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 30.0)]);
        let mut cache = Cache::default();
        let mut g = super::super::test_support::placed(&prep, &config, &mut cache);
        g.live_mut((1, 0)).pos = Point::new(36.0, 10.5);
        let spells = g.info((0, 0)).casting.spells.clone();
        assert!(!g.spell_target((0, 0), &spells[0], (1, 0)));
        assert!(g.spell_target((0, 0), &spells[1], (1, 0)));
    }

    #[test]
    fn a_shaken_caster_neither_casts_nor_helps() {
        // "Shaken units ... can't take any actions, or use any active special rules, such as
        // casting spells": with tokens and a target, it casts nothing
        casters(|g| {
            for u in 0..2 {
                g.live_mut((0, u)).tokens = 6;
            }
            g.live_mut((0, 0)).shaken = true;
            g.cast_spells((0, 0), Window::Any, &mut Touched::new());
            assert_eq!(g.live((0, 0)).tokens, 6);
            // not Shaken it casts, and its friend helps with tokens of its own
            g.live_mut((0, 0)).shaken = false;
            g.cast_spells((0, 0), Window::Any, &mut Touched::new());
            assert_eq!(g.live((0, 0)).tokens, 5);
            assert!(g.live((0, 1)).tokens < 6, "an unshaken friend within 18\" helps");
        });
        casters(|g| {
            for u in 0..2 {
                g.live_mut((0, u)).tokens = 6;
            }
            // a Shaken friend does not help
            g.live_mut((0, 1)).shaken = true;
            g.cast_spells((0, 0), Window::Any, &mut Touched::new());
            assert_eq!((g.live((0, 0)).tokens, g.live((0, 1)).tokens), (5, 6));
        });
    }

    #[test]
    fn tokens_come_from_the_casters_left() {
        let edition = Edition::V3_5;
        let unit = crate::profile::Unit::parse("Adepts [4] Q5+ D5+ | Caster Group", edition).unwrap();
        let alloc = Allocation::new(&unit, edition);
        // "X is the total number of models with this rule in this unit": one caster of 4
        assert_eq!(caster_tokens(&alloc, alloc.start()), (4, 6));
        let two_lost = alloc.apply(alloc.start(), 2, 1);
        assert_eq!(caster_tokens(&alloc, two_lost), (2, 6));
        let hero = crate::profile::Unit::parse("Seer [1] Q4+ D4+ | Hero, Tough(3), Caster(3)", edition).unwrap();
        let alloc = Allocation::new(&hero, edition);
        assert_eq!(caster_tokens(&alloc, alloc.start()), (3, 6));
        assert_eq!(caster_tokens(&alloc, alloc.apply(alloc.start(), 3, 1)), (0, 0));
    }

    #[test]
    fn a_caster_hero_keeps_its_tokens_in_a_caster_group() {
        // Caster Group: "The caster loses all unspent spell tokens at the end of the round";
        // a joined Caster(2) keeps its own ("can't hold more than 6 tokens at once"), the
        // group's being spent first
        use super::super::table::Point;
        let parse = |t: &str| crate::profile::Unit::parse(t, Edition::V3_5).unwrap();
        let unit = parse("Synapse [3] Q4+ D4+ | Caster Group").join(&parse("Seer [1] Q4+ D4+ | Hero, Caster(2)"), Edition::V3_5).unwrap();
        let prep = Prepared::new([&[unit], &[parse("T [10] Q4+ D4+")]], Edition::V3_5, [2.0, 2.0]).unwrap();
        let config = super::super::test_support::config(Vec::new(), vec![Point::new(36.0, 24.0)], vec![Point::new(20.0, 10.0)], vec![Point::new(40.0, 40.0)]);
        let mut cache = super::super::cache::Cache::default();
        let mut g = super::super::test_support::placed(&prep, &config, &mut cache);
        let id = (0, 0);
        g.give_tokens();
        assert_eq!((g.live(id).tokens, g.live(id).own_tokens), (5, 2));
        // one spent (from the group's 3): 4 left, 2 of them the hero's
        g.live_mut(id).tokens = 4;
        g.give_tokens();
        assert_eq!((g.live(id).tokens, g.live(id).own_tokens), (4 + 3, 4));
        // all spent: the hero starts again from its 2
        g.live_mut(id).tokens = 0;
        g.give_tokens();
        assert_eq!((g.live(id).tokens, g.live(id).own_tokens), (2 + 3, 2));
        // the hero's own stop at 6
        for _ in 0..3 {
            g.give_tokens();
        }
        assert_eq!((g.live(id).tokens, g.live(id).own_tokens), (6 + 3, 6));
    }

    /// A shooter beside a caster whose book gives "+1 to hit rolls when shooting" to a friend
    /// and marks an enemy for "AP(1) when shooting against", 12" from an enemy unit; and
    /// `shooter` against the same enemy without spells (to compare with).
    fn held(shooter: &str, test: impl FnOnce(&mut Game, &Prepared)) {
        held_by("Rifles [10] Q4+ D4+ | 100pts\n10x Rifle (24\", A1)", shooter, test)
    }

    /// `held`, with `ours` as the shooter beside the caster.
    fn held_by(ours: &str, shooter: &str, test: impl FnOnce(&mut Game, &Prepared)) {
        use super::super::cache::Cache;
        use super::super::table::Point;
        use crate::rules::spells::{Attacks, Spell, SpellEffect};
        use crate::rules::{Rating, Rule};
        let friend = Targets { enemy: false, model: false, count: 1, range: 12 };
        let enemy = Targets { enemy: true, model: false, count: 1, range: 18 };
        let spells = [
            ("Deep Meditation", Spell { tokens: 1, targets: friend, effect: SpellEffect::Modifier { roll: Roll::Hit(Attacks::Shooting), amount: 1, against: false } }),
            ("Mob Frenzy", Spell { tokens: 1, targets: enemy, effect: SpellEffect::Rule { rule: Rule::new("AP", Some(Rating::Number(1))), gets: true, when: Some(Attacks::Shooting), against: true } }),
            ("Banishing Sigil", Spell { tokens: 1, targets: enemy, effect: SpellEffect::Modifier { roll: Roll::Defense, amount: -1, against: false } }),
        ];
        let book: crate::loaders::army_forge::Spells = spells.into_iter().map(|(n, s)| SpellDefinition { name: n.into(), tokens: Some(1), effect: String::new(), spell: Some(s) }).collect::<Vec<_>>().into();
        let parse = |t: &str| crate::profile::Unit::parse(t, Edition::V3_5).unwrap();
        let a = [parse("Seer [1] Q4+ D4+ | 100pts | Hero, Tough(3), Caster(3)"), parse(ours)];
        let b = [parse("T [10] Q4+ D4+ | 200pts")];
        let prep = Prepared::with_spells([&a, &b], [&[book], &[]], Edition::V3_5, [2.0, 2.0]).unwrap();
        let plain = Prepared::new([&[parse("Seer [1] Q4+ D4+ | 100pts | Hero, Tough(3)"), parse(shooter)], &b], Edition::V3_5, [2.0, 2.0]).unwrap();
        let config = super::super::test_support::config(Vec::new(), vec![Point::new(10.0, 40.0)], vec![Point::new(30.0, 10.0), Point::new(40.0, 10.0)], vec![Point::new(40.0, 30.0)]);
        let mut cache = Cache::default();
        let mut g = super::super::test_support::placed(&prep, &config, &mut cache);
        test(&mut g, &plain);
    }

    /// The expected wounds of unit 1 of army A shooting unit 0 of army B.
    fn expected(g: &mut Game) -> f64 {
        let (id, target) = ((0, 1), (1, 0));
        let sight = g.sight(id, target);
        let key = g.shot_key(id, target, sight, false).expect("in range and sight");
        g.plan(&key).expected.iter().sum()
    }

    #[test]
    fn a_held_rule_is_the_attackers_on_its_next_attack() {
        // "Pick one friendly unit within 12", which gets +1 to hit rolls when shooting once
        // (next time the effect would apply)": the shot is the shot of a unit with Good Shot
        // ("This model gets +1 to hit rolls when shooting")
        held("Rifles [10] Q4+ D4+ | 100pts | Good Shot\n10x Rifle (24\", A1)", |g, plain| {
            let rules: Vec<&str> = g.info((0, 1)).buffed.iter().map(|b| b.rule).collect();
            assert_eq!(rules, ["+1 to hit rolls when shooting", "AP(+1) when shooting"]);
            let bare = expected(g);
            g.live_mut((0, 1)).buff = 1;
            let with = expected(g);
            let config = super::super::test_support::config(Vec::new(), vec![Point::new(10.0, 40.0)], vec![Point::new(30.0, 10.0), Point::new(40.0, 10.0)], vec![Point::new(40.0, 30.0)]);
            let mut cache = super::super::cache::Cache::default();
            let mut good_shot = super::super::test_support::placed(plain, &config, &mut cache);
            assert!(with > bare && (with - expected(&mut good_shot)).abs() < 1e-12, "{bare} {with}");
            // used by the shot, then gone
            g.shoot((0, 1), false, &mut Touched::new());
            assert_eq!(g.live((0, 1)).buff, 0);
            // (plans are valued on the fresh target: the same as before the buff)
            assert!((expected(g) - bare).abs() < 1e-12);
        });
    }

    #[test]
    fn a_mark_is_for_the_casters_army_attacking_the_marked_unit() {
        // "Pick one enemy unit within 18", which friendly units get AP(1) when shooting against
        // once": a shot at it is a shot with AP(1) weapons
        held("Rifles [10] Q4+ D4+ | 100pts\n10x Rifle (24\", A1, AP(1))", |g, plain| {
            let bare = expected(g);
            g.live_mut((1, 0)).mark = g.prep.given[0].iter().position(|r| *r == "AP(+1) when shooting").map(|i| i as u16);
            assert!(g.live((1, 0)).mark.is_some());
            let with = expected(g);
            let config = super::super::test_support::config(Vec::new(), vec![Point::new(10.0, 40.0)], vec![Point::new(30.0, 10.0), Point::new(40.0, 10.0)], vec![Point::new(40.0, 30.0)]);
            let mut cache = super::super::cache::Cache::default();
            let mut ap = super::super::test_support::placed(plain, &config, &mut cache);
            assert!(with > bare && (with - expected(&mut ap)).abs() < 1e-12, "{bare} {with}");
            // its own army's attacks never use it
            assert_eq!(g.mark_for((1, 0), (1, 0), crate::game::held_rules::BuffUse::Attack { melee: false, charging: false, distance: 12.0 }), None);
            // a rule the shooter holds and the mark act together (different spells stack), and
            // both are used up
            g.live_mut((0, 1)).buff = 1;
            let both = expected(g);
            assert!(both > with, "{with} {both}");
            g.shoot((0, 1), false, &mut Touched::new());
            assert_eq!((g.live((0, 1)).buff, g.live((1, 0)).mark), (0, None));
        });
    }

    #[test]
    fn a_mark_for_up_to_three_units_marks_three() {
        // Terror Seeker: "Pick up to three enemy units within 18", which friendly units gets
        // Unpredictable Fighter against once (next time the effect would apply)": one unit is
        // in reach of a friend's charge this round, the others wait for a later one; marking
        // them costs nothing more, so all three are marked
        use super::super::cache::Cache;
        use crate::rules::spells::{Spell, SpellEffect};
        use crate::rules::Rule;
        let three = Targets { enemy: true, model: false, count: 3, range: 18 };
        let spell = Spell { tokens: 1, targets: three, effect: SpellEffect::Rule { rule: Rule::new("Unpredictable Fighter", None), gets: true, when: None, against: true } };
        let book: crate::loaders::army_forge::Spells = vec![SpellDefinition { name: "Terror Seeker".into(), tokens: Some(1), effect: String::new(), spell: Some(spell) }].into();
        let parse = |t: &str| crate::profile::Unit::parse(t, Edition::V3_5).unwrap();
        let a = [parse("Seer [1] Q4+ D4+ | 100pts | Hero, Tough(3), Caster(3)"), parse("Claws [10] Q4+ D4+ | 150pts\n10x Claw (A2)")];
        let b = [parse("T [10] Q4+ D4+ | 200pts"), parse("W [5] Q4+ D4+ | 50pts"), parse("U [10] Q4+ D4+ | 150pts"), parse("V [10] Q4+ D4+ | 100pts")];
        let prep = Prepared::with_spells([&a, &b], [&[book], &[]], Edition::V3_5, [2.0, 2.0]).unwrap();
        let us = vec![Point::new(30.0, 14.0), Point::new(20.0, 14.0)];
        let them = vec![Point::new(20.0, 24.0), Point::new(24.0, 33.0), Point::new(46.0, 24.0), Point::new(36.0, 32.0)];
        let config = super::super::test_support::config(Vec::new(), vec![Point::new(10.0, 40.0)], us, them);
        let mut cache = Cache::default();
        let mut g = super::super::test_support::placed(&prep, &config, &mut cache);
        assert!(g.info((0, 1)).buffed.iter().any(|b| b.rule == "Unpredictable Fighter"), "the claws gain from the mark");
        assert!((1..4).all(|u| g.within((0, 0), (1, u), 18.0)) && g.within((0, 1), (1, 0), 12.0) && !(1..4).any(|u| g.within((0, 1), (1, u), 12.0)));
        g.live_mut((0, 0)).tokens = 3;
        let picked = with_seat(&mut g, |s| crate::game::policy::spells_to_cast(s, (0, 0), Window::Any));
        // the unit the claws can charge first, then the two worth the most points of the rest
        assert_eq!(picked, vec![(0, vec![(1, 0), (1, 2), (1, 3)])]);
        // the greedy policy marks as it did: only the units a friend can attack this round
        let mut greedy = config.clone();
        greedy.policies[0].kind = crate::game::PolicyKind::Greedy;
        let mut cache = Cache::default();
        let mut g = super::super::test_support::placed(&prep, &greedy, &mut cache);
        g.live_mut((0, 0)).tokens = 3;
        assert_eq!(with_seat(&mut g, |s| crate::game::policy::spells_to_cast(s, (0, 0), Window::Any)), vec![(0, vec![(1, 0)])]);
    }

    #[test]
    fn a_debuff_on_defense_acts_on_a_spells_hits() {
        // "which get -1 to defense rolls once (next time the effect would apply)": a spell's
        // hits are blocked with Defense rolls, so the debuff acts on them and is used up
        held("Rifles [10] Q4+ D4+ | 100pts\n10x Rifle (24\", A1)", |g, _| {
            let b = g.info((1, 0)).buffed.iter().position(|x| x.rule == "-1 to defense rolls").expect("the enemy may hold the debuff");
            g.live_mut((1, 0)).debuff = b as u8 + 1;
            let spell = Spell { tokens: 2, targets: Targets { enemy: true, model: false, count: 1, range: 18 }, effect: SpellEffect::Hits { hits: 6, rules: Vec::new(), roll_for: None } };
            let group = spell.damage_group(Edition::V3_5).unwrap();
            let r = g.roll_hits((0, 0), (1, 0), &group, &Situation::spell(Edition::V3_5, 10.0));
            assert!(r.hits > 0);
            assert_eq!(g.live((1, 0)).debuff, 0, "used on the spell's hits");
        });
    }

    #[test]
    fn a_held_defense_rule_waits_for_a_shot_that_hits() {
        // "which get -1 to defense rolls once (next time the effect would apply)": a shot that
        // hits nothing makes no Defense roll, so the debuff stays for the next
        held_by("Sniper [1] Q5+ D4+ | 10pts\nRifle (24\", A1)", "Sniper [1] Q5+ D4+ | 10pts\nRifle (24\", A1)", |g, _| {
            let b = g.info((1, 0)).buffed.iter().position(|x| x.rule == "-1 to defense rolls").unwrap() as u8 + 1;
            let (mut missed, mut hit) = (0, 0);
            for _ in 0..60 {
                g.live_mut((1, 0)).debuff = b;
                g.shoot((0, 1), false, &mut Touched::new());
                let shot = g.trace.as_ref().unwrap().iter().rev().find(|e| e.kind == "shoot").unwrap();
                if shot.hits == 0 {
                    missed += 1;
                    assert_eq!(g.live((1, 0)).debuff, b, "kept by a shot that hit nothing");
                } else {
                    hit += 1;
                    assert_eq!(g.live((1, 0)).debuff, 0, "used by a shot that hit");
                }
                if g.live((1, 0)).gone {
                    break;
                }
            }
            assert!(missed > 0 && hit > 0, "{missed} {hit}");
        });
    }

    #[test]
    fn a_fatigue_test_fails_as_a_morale_test_does_and_only_fatigues() {
        // "Pick one enemy unit within 18", which must take a morale test. If failed, it becomes
        // fatigued": Quality 4+ fails half the time; a fail does not Shake
        held("Rifles [10] Q4+ D4+ | 100pts\n10x Rifle (24\", A1)", |g, _| {
            let spell = CastSpell { name: "Terrifying Fury".into(), tokens: 1, targets: Targets { enemy: true, model: false, count: 1, range: 18 }, effect: CastEffect::TestOrFatigued, given: None };
            let mut failed = 0;
            let n = 4000;
            for _ in 0..n {
                g.live_mut((1, 0)).fatigued = false;
                g.spell_test((0, 0), &spell, (1, 0));
                failed += u32::from(g.live((1, 0)).fatigued);
                assert!(!g.live((1, 0)).shaken);
            }
            // binomial(4000, 1/2): 3.9 standard deviations either side (seeded)
            assert!((1875..=2125).contains(&failed), "{failed}");
        });
    }

    #[test]
    fn a_casting_debuff_acts_on_the_next_casting_roll_only() {
        // "which gets -3 to casting rolls once (next time the effect would apply)"
        held("Rifles [10] Q4+ D4+ | 100pts\n10x Rifle (24\", A1)", |g, _| {
            g.live_mut((0, 0)).tokens = 6;
            g.live_mut((0, 0)).casting_modifier = [0, -3];
            g.cast_spells((0, 0), Window::Any, &mut Touched::new());
            let casts: Vec<f64> = g.trace.as_ref().unwrap().iter().filter(|e| e.kind == "cast").map(|e| e.allowance).collect();
            assert_eq!(casts.first(), Some(&-3.0), "{casts:?}");
            assert!(casts[1..].iter().all(|&m| m == 0.0), "{casts:?}");
            assert_eq!(g.live((0, 0)).casting_modifier, [0, 0]);
        });
    }
}
