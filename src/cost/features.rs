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
use crate::rules::effects::{self, Effect, Placement, Side};
use crate::rules::spells::{best_set, cast_chance, round_tokens, Spell};
use crate::rules::Rule;

/// Shooting is measured at this distance, or the weapon's range if shorter.
pub const SHOOTING_DISTANCE: f64 = 12.0;
/// Ranges are scaled by this in the `shoot*range` features (24" is 1).
pub const RANGE_UNIT: f64 = 24.0;
/// A typical unit a hero joins: what a lone hero's aura is worth is measured on it.
pub const AURA_UNIT: &str = "Infantry [10] Q4+ D4+\n10x Rifle (24\", A1)\n10x CCW (A1)";

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
    /// Features worth a share of another value, with their coefficients: of the group's
    /// core value (its profile and weapons) on a rule term, of the weapon's own value on a
    /// weapon term. Fast costs more on a tank than on a scout; a weapon rule more on a
    /// better weapon.
    pub shares: Vec<(String, f64)>,
    /// The model group of the unit the term belongs to (0: the unit, 1..: joined heroes):
    /// a rule's share is of its own group's value, so a joined unit is priced as its parts.
    pub group: u32,
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
    /// The unit a lone hero's aura is measured on ("This model and its unit get X").
    aura_unit: ModelGroup,
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
        let aura_unit = Unit::parse(AURA_UNIT, edition)?.groups.remove(0);
        Ok(Panel { edition, targets, attackers, aura_unit })
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
        for (g, group) in unit.groups.iter().enumerate() {
            let prefix = if joined { format!("{}: ", group.name) } else { String::new() };
            // the unit a "this model and its unit get X" rule acts on: the unit a hero joined,
            // a typical one for a lone hero, else the group itself
            let hero = group.rules.iter().any(|r| r.rule.name == "Hero");
            let aura_on = if g > 0 { &unit.groups[0] } else if hero { &self.aura_unit } else { group };
            let start = terms.len();
            self.group_terms(group, &prefix, spells, aura_on, &mut terms);
            for term in &mut terms[start..] {
                term.group = g as u32;
            }
        }
        UnitTerms { terms, unmodelled: unmodelled_rules(&effects::in_play(self.edition, unit.model_runs()), &[], self.edition, Engine::Attack) }
    }

    /// What giving every model of `group` the rule `given` does to its offense and
    /// durability against the panel, summed (`aura:offense`, `aura:durability`).
    fn aura(&self, group: &ModelGroup, given: &str, out: &mut Vec<(String, f64)>) {
        let Ok(rule) = Rule::parse(given, self.edition) else { return };
        let mut bare = bare_profile(group);
        // a Boost acts on units with its base rule ("Hold the Line Boost"): the unit has it,
        // as the hero's own faction's units do
        if let Some(base) = given.strip_suffix(" Boost").and_then(|b| Rule::parse(b, self.edition).ok()) {
            bare.rules.push(UnitRule { rule: base, models: None });
        }
        let mut with = bare.clone();
        with.rules.push(UnitRule { rule, models: None });
        let (bare, with) = (Unit::single(bare), Unit::single(with));
        // what a measure of the panel gains, summed over its features
        let gain = |measure: fn(&Panel, &Unit, &mut Vec<(String, f64)>)| {
            let total = |unit: &Unit| {
                let mut list = Vec::new();
                measure(self, unit, &mut list);
                list.iter().map(|(_, v)| v).sum::<f64>()
            };
            total(&with) - total(&bare)
        };
        let (offense, durability) = (gain(Panel::offense), gain(Panel::durability));
        if offense.abs() > 1e-12 {
            add(out, "aura:offense".into(), offense);
        }
        if durability.abs() > 1e-12 {
            add(out, "aura:durability".into(), durability);
        }
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

    fn group_terms(&self, group: &ModelGroup, prefix: &str, spells: &[(String, Spell)], aura_on: &ModelGroup, terms: &mut Vec<Term>) {
        // The bare profile: Tough kept (it is the profile's wounds), every other rule gone.
        let size = group.size;
        let bare = bare_profile(group);
        let bare_unit = Unit::single(bare.clone());

        // The bare profile's durability and offense: what a rule's own measurement is against.
        let mut before_durability = Vec::new();
        self.durability(&bare_unit, &mut before_durability);
        let mut before_offense = Vec::new();
        let mut profile = vec![("models".to_string(), f64::from(size)), (format!("quality:{}", group.quality), f64::from(size))];
        // OPR's calculators price a model's base as a cost per wound set by Quality and
        // Defense together: the wounds by Quality, by Defense and by both
        let wounds: f64 = Allocation::new(&bare_unit, self.edition).runs.iter().map(|(m, n)| f64::from(m.tough) * f64::from(*n)).sum();
        let (q, d) = (group.quality, group.defense);
        // (a smooth part, linear in how good Quality and Defense are, which carries over to
        // the rare values; and one weight per value and per pair, held near zero by the fit)
        let (qs, ds) = (f64::from(7 - q.min(7)) / 6.0, f64::from(7 - d.min(7)) / 6.0);
        profile.extend([
            ("wounds".to_string(), wounds),
            ("wounds*quality".to_string(), wounds * qs),
            ("wounds*defense".to_string(), wounds * ds),
            ("models*quality".to_string(), f64::from(size) * qs),
            (format!("wounds:Q{q}"), wounds),
            (format!("wounds:D{d}"), wounds),
            (format!("wounds:Q{q}D{d}"), wounds),
        ]);
        profile.extend(before_durability.iter().cloned());
        terms.push(Term { kind: TermKind::Profile, label: format!("{prefix}{} [{}] Q{}+ D{}+", group.name, size, group.quality, group.defense), names: Vec::new(), features: profile, shares: Vec::new(), group: 0 });

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
            let shares = names.iter().map(|n| (format!("weapon-rule:{n}*value"), 1.0)).collect();
            terms.push(Term { kind: TermKind::Weapon, label: format!("{prefix}{}", weapon), names, features, shares, group: 0 });
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
                with.rules.push(counted(rule, models, size));
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
            let mut shares = vec![(format!("rule:{}*value", rule.name), 1.0)];
            self.game_effects(&rule.name, f64::from(models) / f64::from(size.max(1)), aura_on, &mut features, &mut shares, 0);
            let label = if models < size { format!("{prefix}{models}x {rule}") } else { format!("{prefix}{rule}") };
            terms.push(Term { kind: TermKind::Rule, label, names: vec![rule.name.clone()], features, shares, group: 0 });
        }
    }
}

impl Panel {
    /// What a rule does beyond the dice of one attack (moves, deployment, morale, orders to
    /// other units, auras), as features by kind of effect shared by every rule of that kind:
    /// a rule no training book had is still priced by what it does, and its by-name weight
    /// is only a correction. `share` is the part of the group that has the rule.
    fn game_effects(&self, name: &str, share: f64, aura_on: &ModelGroup, features: &mut Vec<(String, f64)>, shares: &mut Vec<(String, f64)>, depth: u8) {
        let Some(def) = effects::definition(self.edition, name) else { return };
        let (mut parts, mut flat) = (Vec::new(), Vec::new());
        let mut part = |key: &'static str, value: f64| parts.push((key, value));
        for e in def.effects {
            match e.effect {
                Effect::Move(m) => part("move", f64::from(i32::from(m.advance) + i32::from(m.rush) + i32::from(m.charge)) / 10.0),
                Effect::Ambush { .. } => {
                    part("ambush", 1.0);
                    flat.push(("effect:ambush", 1.0));
                }
                // placed again on every activation (Teleport, Bounding: 1+D3, 3 on average), or
                // once after deployment, which is much less (Fanatic)
                Effect::Reposition { when: Placement::OnActivation, inches, d3 } => part("reposition", (f64::from(inches) + if d3 { 2.0 } else { 0.0 }) / 12.0),
                Effect::Reposition { when: Placement::AfterDeployment, inches, .. } => part("placed-after-deployment", f64::from(inches) / 12.0),
                Effect::MoveAfterAttack { inches, .. } => part("move-after-attack", f64::from(inches) / 6.0),
                Effect::ExtraActivation => part("extra-activation", 1.0),
                Effect::RecoverOn(x) => part("recover", f64::from(7 - x.min(7)) / 6.0),
                Effect::ChargePenalty(x) => part("charge-penalty", f64::from(x) / 6.0),
                Effect::PassFailedMoraleOn(x) => part("morale", f64::from(7 - x.min(7)) / 6.0),
                Effect::MoraleModifier(x) => part("morale", f64::from(x) / 6.0),
                Effect::ResolutionWounds(_) | Effect::ResolutionWoundsRolled(_) => part("resolution", 1.0),
                Effect::Buff(_) => flat.push(("effect:buff", 1.0)),
                Effect::Debuff(_) | Effect::EnemyTest { .. } => flat.push(("effect:debuff", 1.0)),
                Effect::CastingRollGiven(_) => flat.push(("effect:casting-modifier", 1.0)),
                Effect::ArrivalHits { hits, .. } => flat.push(("effect:arrival-hits", f64::from(hits))),
                // a rule that gives another ("this model gets Furious"): what the books charge
                // for the other carries over, and so does what it does
                Effect::Gets(given) if depth == 0 => {
                    add(features, format!("rule:{given}"), share);
                    add(shares, format!("rule:{given}*value"), share);
                    self.game_effects(given, share, aura_on, features, shares, depth + 1);
                }
                Effect::UnitGets(given) if depth == 0 => {
                    flat.push(("aura", 1.0));
                    self.aura(aura_on, given, features);
                    // what the given rule does beyond attacks, on the unit (flat: the unit's
                    // value is not the hero's)
                    let (mut given_features, mut given_shares) = (Vec::new(), Vec::new());
                    self.game_effects(given, 1.0, aura_on, &mut given_features, &mut given_shares, depth + 1);
                    for (key, value) in given_shares {
                        add(features, format!("aura:{}", key.trim_end_matches("*value")), value);
                    }
                }
                _ => {}
            }
        }
        for (key, value) in parts {
            if value != 0.0 {
                add(shares, format!("effect:{key}*value"), value * share);
            }
        }
        for (key, value) in flat {
            add(features, key.to_string(), value);
        }
    }
}

/// The group's bare profile: Tough kept (from its rules or items: the profile's wounds),
/// every other rule and item gone.
fn bare_profile(group: &ModelGroup) -> ModelGroup {
    let size = group.size;
    let mut bare = group.clone();
    bare.rules = group.rules_with_models().filter(|(r, _)| r.name == "Tough").map(|(r, n)| counted(r, n, size)).collect();
    bare.items.clear();
    bare
}

/// A group's rule as `n` of its `size` models carry it.
fn counted(rule: &Rule, n: u32, size: u32) -> UnitRule {
    UnitRule { rule: rule.clone(), models: (n < size).then_some(n) }
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
