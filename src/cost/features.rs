//! What a price is built from: what the exact engine says a unit's profile, each weapon and
//! each rule do against the reference panel, and the rules it cannot see, by name.
//!
//! A unit becomes a list of [`Term`]s: one for the profile (models, Quality, durability
//! against the reference attackers), one per weapon (expected wounds against every reference
//! target), one per rule. A rule the engine models is measured by what it changes: the
//! offense and durability of the unit with that rule less the same without it. Every rule
//! also gets named features (`rule:Fast`, `rule:Fast:models`, ...) so a cost model can learn
//! what the dice cannot show (movement, deployment, auras). Prices are linear in these
//! features, so a price splits into the same terms a designer reads.

use super::efficiency::Mode;
use super::panel::{ReferenceAttacker, ATTACKERS, TARGETS};
use crate::attack::allocation::Allocation;
pub use crate::attack::exact::{expected_wounds, group_expected_wounds};
use crate::attack::plan::{unmodelled_rules, Situation};
use crate::edition::Edition;
use crate::error::Result;
use crate::profile::unit::UnitRule;
use crate::profile::{ModelGroup, Unit};
use crate::rules::census::Engine;
use crate::rules::effects::{self, Side};
use crate::rules::spells::{best_set, cast_chance, round_tokens, Spell};
use crate::rules::Rule;

/// Shooting is measured at this distance, or the weapon's range if shorter.
pub const SHOOTING_DISTANCE: f64 = 12.0;
/// Ranges are scaled by this in the `shoot*range` features (24" is 1).
pub const RANGE_UNIT: f64 = 24.0;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TermKind {
    Profile,
    Weapon,
    Rule,
}

impl TermKind {
    pub fn name(self) -> &'static str {
        match self {
            TermKind::Profile => "profile",
            TermKind::Weapon => "weapon",
            TermKind::Rule => "rule",
        }
    }
}

/// One part of a unit's price.
#[derive(Debug, Clone, PartialEq)]
pub struct Term {
    pub kind: TermKind,
    /// What a designer reads: "profile", the weapon's notation, the rule.
    pub label: String,
    /// Rules priced by name on this term: a rule term's own name; a weapon's rules (not AP).
    pub names: Vec<String>,
    pub features: Vec<(String, f64)>,
}

/// A unit's terms, and the rules on it that the exact engine does not model (priced by name
/// only, or not at all when a cost model has never seen them).
#[derive(Debug, Clone, PartialEq)]
pub struct UnitTerms {
    pub terms: Vec<Term>,
    pub unmodelled: Vec<String>,
}

/// The reference panel built once per edition: target allocations and attacker units.
pub struct Panel {
    edition: Edition,
    targets: Vec<(Allocation, bool)>,
    /// Each reference attacker's models (runs), its attack dice, and its definition.
    attackers: Vec<(Vec<(crate::profile::Model, u32)>, f64, &'static ReferenceAttacker)>,
}

impl Panel {
    pub fn new(edition: Edition) -> Result<Panel> {
        let targets = TARGETS.iter().map(|t| Ok((Allocation::new(&t.unit(edition)?, edition), t.cover))).collect::<Result<_>>()?;
        let attackers = ATTACKERS
            .iter()
            .map(|a| {
                let unit = a.unit(edition)?;
                let dice = unit.weapons().map(|w| f64::from(w.attacks * w.count)).sum();
                Ok((unit.model_runs(), dice, a))
            })
            .collect::<Result<_>>()?;
        Ok(Panel { edition, targets, attackers })
    }

    /// Shooting, or melee on the charge.
    fn situation(&self, melee: bool, distance: f64, cover: bool) -> Situation {
        Mode { key: "", melee, charging: melee, distance }.situation(cover, self.edition)
    }

    /// Offense of `unit` (every weapon, and Impact) against every target: `(feature, value)`.
    fn offense(&self, unit: &Unit, out: &mut Vec<(String, f64)>) {
        for weapon in unit.weapons() {
            let mut one = unit.clone();
            one.groups[0].weapons = vec![weapon.clone()];
            self.weapon_offense(&one, weapon.range, out);
        }
        // Impact dice come from rules, not weapons: measured in melee on a unit with no weapons
        let mut bare = unit.clone();
        bare.groups[0].weapons.clear();
        self.weapon_offense(&bare, None, out);
    }

    /// Offense of `unit`'s weapons of one range (`None`: melee, charging) against every target.
    fn weapon_offense(&self, unit: &Unit, range: Option<u32>, out: &mut Vec<(String, f64)>) {
        let runs = effects::in_play(self.edition, unit.model_runs());
        let attacker: Vec<_> = runs.iter().map(|(m, n)| (m, *n)).collect();
        for ((target, cover), reference) in self.targets.iter().zip(TARGETS) {
            let (melee, distance) = match range {
                None => (true, 1.0),
                Some(r) => (false, f64::from(r).min(SHOOTING_DISTANCE)),
            };
            let situation = self.situation(melee, distance, *cover);
            let wounds = expected_wounds(&attacker, target, &situation);
            if wounds == 0.0 {
                continue;
            }
            if melee {
                add(out, format!("melee:{}", reference.key), wounds);
            } else {
                add(out, format!("shoot:{}", reference.key), wounds);
                add(out, format!("shoot*range:{}", reference.key), wounds * f64::from(range.unwrap_or(0)) / RANGE_UNIT);
            }
        }
    }

    /// Durability of `unit`: for every reference attacker, the attack dice it needs in
    /// expectation to deal the unit's wounds (its models × Tough).
    fn durability(&self, unit: &Unit, out: &mut Vec<(String, f64)>) {
        let target = Allocation::new(unit, self.edition);
        let total: f64 = target.runs.iter().map(|(m, n)| f64::from(m.tough) * f64::from(*n)).sum();
        for (runs, dice, reference) in &self.attackers {
            let refs: Vec<_> = runs.iter().map(|(m, n)| (m, *n)).collect();
            let situation = self.situation(reference.melee, if reference.melee { 1.0 } else { SHOOTING_DISTANCE }, false);
            let per_die = expected_wounds(&refs, &target, &situation) / dice;
            if per_die > 0.0 {
                add(out, format!("durability:{}", reference.key), total / per_die / 100.0);
            }
        }
    }

    /// The terms of a unit: per model group (a joined hero is priced as its own unit).
    pub fn terms(&self, unit: &Unit) -> UnitTerms {
        self.terms_with_spells(unit, &[])
    }

    /// `terms`, with the spells of the unit's book for its casters (`casting`).
    pub fn terms_with_spells(&self, unit: &Unit, spells: &[(String, Spell)]) -> UnitTerms {
        let mut terms = Vec::new();
        let joined = unit.groups.len() > 1;
        for group in &unit.groups {
            let prefix = if joined { format!("{}: ", group.name) } else { String::new() };
            self.group_terms(group, &prefix, spells, &mut terms);
        }
        UnitTerms { terms, unmodelled: unmodelled_rules(&effects::in_play(self.edition, unit.model_runs()), &[], self.edition, Engine::Attack) }
    }

    /// A caster's round of spells against every target: the best set of its damage spells its
    /// tokens of one round pay for, each at the bare chance to cast (as `efficiency()`'s
    /// "casting" mode), in `casting:` features.
    fn casting(&self, group: &ModelGroup, spells: &[(String, Spell)], out: &mut Vec<(String, f64)>) {
        let tokens = round_tokens(&Allocation::new(&Unit::single(group.clone()), self.edition));
        let groups: Vec<(u8, crate::attack::plan::Group)> = spells.iter().filter(|(_, s)| u32::from(s.tokens) <= tokens).filter_map(|(_, s)| Some((s.tokens, s.damage_group(self.edition)?))).collect();
        if groups.is_empty() {
            return;
        }
        let situation = Situation::spell(self.edition, SHOOTING_DISTANCE);
        for ((target, _), reference) in self.targets.iter().zip(TARGETS) {
            let options: Vec<(u8, f64)> = groups.iter().map(|(t, g)| (*t, group_expected_wounds(g, &situation, target, target.start()))).collect();
            let wounds: f64 = best_set(tokens, &options, |_| 0.0).into_iter().map(|i| options[i].1).sum();
            if wounds > 0.0 {
                add(out, format!("casting:{}", reference.key), cast_chance(0) * wounds);
            }
        }
    }

    fn group_terms(&self, group: &ModelGroup, prefix: &str, spells: &[(String, Spell)], terms: &mut Vec<Term>) {
        // The bare profile: Tough kept (it is the profile's wounds), every other rule gone.
        let size = group.size;
        let counted = |r: &Rule, n: u32| UnitRule { rule: r.clone(), models: (n < size).then_some(n) };
        let mut bare = group.clone();
        bare.rules = group.rules_with_models().filter(|(r, _)| r.name == "Tough").map(|(r, n)| counted(r, n)).collect();
        bare.items.clear();
        let bare_unit = Unit::single(bare.clone());

        // The bare profile's durability and offense: what a rule's own measurement is against.
        let mut before_durability = Vec::new();
        self.durability(&bare_unit, &mut before_durability);
        let mut before_offense = Vec::new();
        let mut profile = vec![("models".to_string(), f64::from(size)), (format!("quality:{}", group.quality), f64::from(size))];
        profile.extend(before_durability.iter().cloned());
        terms.push(Term { kind: TermKind::Profile, label: format!("{prefix}{} [{}] Q{}+ D{}+", group.name, size, group.quality, group.defense), names: Vec::new(), features: profile });

        for weapon in &group.weapons {
            let mut one = bare.clone();
            one.weapons = vec![weapon.clone()];
            let mut features = Vec::new();
            self.weapon_offense(&Unit::single(one), weapon.range, &mut features);
            for (name, value) in &features {
                add(&mut before_offense, name.clone(), *value);
            }
            let names: Vec<String> = weapon.rules.iter().filter(|r| r.name != "AP").map(|r| r.name.clone()).collect();
            for n in &names {
                add(&mut features, format!("weapon-rule:{n}"), f64::from(weapon.count));
            }
            terms.push(Term { kind: TermKind::Weapon, label: format!("{prefix}{}", weapon), names, features });
        }

        for (rule, models) in group.rules_with_models() {
            if rule.name == "Tough" {
                continue;
            }
            let mut features = vec![(format!("rule:{}", rule.name), 1.0), (format!("rule:{}:models", rule.name), f64::from(models))];
            if let Some(x) = rule.number() {
                features.push((format!("rule:{}:rating", rule.name), x as f64 * f64::from(models)));
            }
            let sides = effects::definition(self.edition, &rule.name).map(|d| {
                (d.effects.iter().any(|e| e.side == Side::Attacker), d.effects.iter().any(|e| e.side == Side::Target))
            });
            if let Some((attacker, target)) = sides {
                let mut with = bare.clone();
                with.rules.push(counted(rule, models));
                let with = Unit::single(with);
                if attacker {
                    let mut after = Vec::new();
                    self.offense(&with, &mut after);
                    difference(&mut features, &after, &before_offense);
                }
                if target {
                    let mut after = Vec::new();
                    self.durability(&with, &mut after);
                    difference(&mut features, &after, &before_durability);
                }
            }
            if matches!(rule.name.as_str(), "Caster" | "Caster Group") {
                self.casting(group, spells, &mut features);
            }
            let label = if models < size { format!("{prefix}{models}x {rule}") } else { format!("{prefix}{rule}") };
            terms.push(Term { kind: TermKind::Rule, label, names: vec![rule.name.clone()], features });
        }
    }
}

fn add(out: &mut Vec<(String, f64)>, name: String, value: f64) {
    match out.iter_mut().find(|(n, _)| *n == name) {
        Some((_, v)) => *v += value,
        None => out.push((name, value)),
    }
}

/// Adds `after - before`, feature by feature, to `out` (only where they differ).
fn difference(out: &mut Vec<(String, f64)>, after: &[(String, f64)], before: &[(String, f64)]) {
    let value = |list: &[(String, f64)], name: &str| list.iter().find(|(n, _)| n == name).map_or(0.0, |(_, v)| *v);
    let mut seen: Vec<&String> = Vec::new();
    for name in after.iter().chain(before).map(|(n, _)| n) {
        if seen.contains(&name) {
            continue;
        }
        seen.push(name);
        let d = value(after, name) - value(before, name);
        if d.abs() > 1e-12 {
            add(out, name.clone(), d);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(text: &str) -> Unit {
        Unit::parse(text, Edition::V3_5).unwrap()
    }

    #[test]
    fn expected_wounds_by_hand() {
        // 10 dice hitting on 4+ (1/2), blocked on D5+ (fail 4/6): 10/3 wounds
        let attacker = unit("Rifles [10] Q4+ D5+\n10x Rifle (24\", A1)");
        let target = Allocation::new(&unit("Infantry [10] Q4+ D5+"), Edition::V3_5);
        let runs = attacker.model_runs();
        let refs: Vec<_> = runs.iter().map(|(m, n)| (m, *n)).collect();
        let panel = Panel::new(Edition::V3_5).unwrap();
        let wounds = expected_wounds(&refs, &target, &panel.situation(false, 12.0, false));
        assert!((wounds - 10.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn terms_of_a_unit() {
        let panel = Panel::new(Edition::V3_5).unwrap();
        let priced = panel.terms(&unit("Berserkers [5] Q4+ D5+ | Furious, Moonwalk\n5x Axe (A2, AP(1))"));
        let kinds: Vec<_> = priced.terms.iter().map(|t| (t.kind, t.label.as_str())).collect();
        assert_eq!(kinds, [(TermKind::Profile, "Berserkers [5] Q4+ D5+"), (TermKind::Weapon, "5x Axe (A2, AP(1))"), (TermKind::Rule, "Furious"), (TermKind::Rule, "Moonwalk")]);
        // Furious adds charge damage; the made-up rule adds only its by-name features
        assert!(priced.terms[2].features.iter().any(|(n, v)| n == "melee:infantry" && *v > 0.0));
        assert_eq!(priced.terms[3].features.len(), 2);
        assert_eq!(priced.unmodelled, ["Moonwalk"]);
    }
}
