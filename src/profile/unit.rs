//! Unit profiles in the Army Forge text notation:
//!
//! ```text
//! Battle Brothers [5] Q3+ D4+ | 120pts | Fearless, 1x Sergeant(Tough(3))
//! 5x Heavy Rifle (24", A1, AP(1)), 5x CCW (A1)
//! ```
//!
//! A unit is one or more model groups: the unit itself and, when a hero has joined it, the
//! hero. Each group keeps its own Quality, Defense, rules and weapons, because the rules
//! treat them apart (a hero attacks with its own Quality but uses the unit's Defense while
//! other models live, and is removed last).

use crate::edition::{Edition, HeroJoining};
use crate::error::{Error, Result};
use crate::limits::{MAX_COST, MAX_ENTRIES, MAX_MODELS};
use crate::notation;
use crate::rules::names::NameCheck;
use crate::rules::{canonical, check_name, Rating, Rule};
use std::fmt;
use std::hash::{Hash, Hasher};

use super::weapon::Weapon;

/// A unit rule, on every model (`models == None`) or on some of them (`5x Scout`).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct UnitRule {
    pub rule: Rule,
    pub models: Option<u32>,
}

/// Equipment that gives rules to some models: `1x Brood Leader(Pheromones)`.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Item {
    pub name: String,
    pub count: u32,
    pub rules: Vec<Rule>,
}

/// Models that share one profile line. Rules, items and weapons compare as sets.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct ModelGroup {
    pub name: String,
    pub size: u32,
    pub quality: u8,
    pub defense: u8,
    pub rules: Vec<UnitRule>,
    pub items: Vec<Item>,
    /// Weapons with their total copies across the group.
    pub weapons: Vec<Weapon>,
    pub cost: Option<u32>,
}

/// One model, with what it carries: derived from its group (see [`ModelGroup::models`]).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Model {
    /// Index of the model group in the unit (0 = the unit itself, 1.. = joined heroes).
    pub group: usize,
    pub quality: u8,
    pub defense: u8,
    pub tough: u32,
    pub hero: bool,
    pub rules: Vec<Rule>,
    /// Weapons on this model; `count` is the copies this model carries.
    pub weapons: Vec<Weapon>,
}

/// A unit on the table: the unit's own models and any joined hero.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Unit {
    /// `groups[0]` is the unit; later groups are heroes that joined it.
    pub groups: Vec<ModelGroup>,
}

impl Model {
    /// The checks a model of a checked group passes, for a model built another way
    /// (unpickled): its scores, its wounds, and each weapon and rule.
    pub fn check(&self, edition: Edition) -> Result<()> {
        check_score("quality", self.quality)?;
        check_score("defense", self.defense)?;
        if self.tough == 0 || i64::from(self.tough) > crate::limits::MAX_RATING {
            return Err(Error::invalid("tough", self.tough, format!("must be from 1 to {}", crate::limits::MAX_RATING)));
        }
        for (what, n) in [("weapon entries", self.weapons.len()), ("rules", self.rules.len())] {
            if n > MAX_ENTRIES {
                return Err(Error::limit(format!("{what} of a model"), n, MAX_ENTRIES));
            }
        }
        for w in &self.weapons {
            w.check(edition)?;
        }
        for r in &self.rules {
            r.check(edition)?;
        }
        Ok(())
    }
}

impl Item {
    fn key(&self) -> (&str, u32, Vec<&Rule>) {
        (&self.name, self.count, canonical(&self.rules))
    }
}

impl PartialEq for Item {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Item {}

impl PartialOrd for Item {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Item {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.key().cmp(&other.key())
    }
}

impl Hash for Item {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl ModelGroup {
    #[allow(clippy::type_complexity)]
    fn key(&self) -> (&str, u32, u8, u8, Option<u32>, Vec<&UnitRule>, Vec<&Item>, Vec<&Weapon>) {
        (
            &self.name,
            self.size,
            self.quality,
            self.defense,
            self.cost,
            canonical(&self.rules),
            canonical(&self.items),
            canonical(&self.weapons),
        )
    }
}

impl PartialEq for ModelGroup {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for ModelGroup {}

impl Hash for ModelGroup {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl UnitRule {
    /// Whether a model at `index` in a group has this rule (the first `models` models do).
    fn covers(&self, index: u32) -> bool {
        self.models.is_none_or(|n| index < n)
    }
}

impl fmt::Display for UnitRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.models {
            write!(f, "{n}x ")?;
        }
        write!(f, "{}", self.rule)
    }
}

impl fmt::Display for Item {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rules: Vec<String> = self.rules.iter().map(Rule::to_string).collect();
        write!(f, "{}x {}({})", self.count, self.name, rules.join(", "))
    }
}

impl ModelGroup {
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        name: &str,
        size: u32,
        quality: u8,
        defense: u8,
        rules: Vec<UnitRule>,
        items: Vec<Item>,
        weapons: Vec<Weapon>,
        cost: Option<u32>,
        edition: Edition,
    ) -> Result<ModelGroup> {
        let name = check_name("unit name", name)?;
        if size == 0 {
            return Err(Error::invalid("size", 0, format!("{name} must have at least 1 model")));
        }
        if size > MAX_MODELS {
            return Err(Error::limit("size", size, MAX_MODELS));
        }
        check_score("quality", quality)?;
        check_score("defense", defense)?;
        for (what, n) in [("weapon entries", weapons.len()), ("rules", rules.len()), ("items", items.len())] {
            if n > MAX_ENTRIES {
                return Err(Error::limit(format!("{what} of {name}"), n, MAX_ENTRIES));
            }
        }
        if let Some(c) = cost {
            if i64::from(c) > MAX_COST {
                return Err(Error::limit("cost", c, MAX_COST));
            }
        }
        for unit_rule in &rules {
            unit_rule.rule.check(edition)?;
            if unit_rule.models == Some(0) {
                return Err(Error::invalid(format!("model count of rule {}", unit_rule.rule.name), 0, "must be 1 or more"));
            }
            if unit_rule.models.is_some() && matches!(unit_rule.rule.rating, Some(Rating::Text(_))) {
                return Err(Error::invalid(
                    format!("rule {}", unit_rule.rule),
                    unit_rule.to_string(),
                    "a rule with a text rating applies to every model and takes no model count",
                ));
            }
        }
        for item in &items {
            check_name("item name", &item.name)?;
            if item.count == 0 {
                return Err(Error::invalid(format!("count of item {}", item.name), 0, "must be 1 or more"));
            }
            if item.count > MAX_MODELS {
                return Err(Error::limit(format!("count of item {}", item.name), item.count, MAX_MODELS));
            }
            if item.rules.is_empty() {
                return Err(Error::invalid(format!("item {}", item.name), "no rules", "an item lists the rules it gives"));
            }
            for rule in &item.rules {
                rule.check(edition)?;
            }
        }
        for weapon in &weapons {
            weapon.check(edition)?;
        }
        Ok(ModelGroup { name, size, quality, defense, rules, items, weapons, cost })
    }

    /// The checks of [`ModelGroup::new`], for a group built another way (an upgrade applied,
    /// a value unpickled).
    pub fn check(&self, edition: Edition) -> Result<()> {
        let g = self.clone();
        let checked = ModelGroup::new(&g.name, g.size, g.quality, g.defense, g.rules, g.items, g.weapons, g.cost, edition)?;
        if checked.name != self.name {
            return Err(Error::invalid("unit name", format!("{:?}", self.name), "may not have leading or trailing spaces"));
        }
        Ok(())
    }

    /// Every rule of the group with the number of models that have it.
    pub fn rules_with_models(&self) -> impl Iterator<Item = (&Rule, u32)> {
        let size = self.size;
        let unit_rules = self.rules.iter().map(move |r| (&r.rule, r.models.map_or(size, |n| n.min(size))));
        let item_rules = self.items.iter().flat_map(move |item| item.rules.iter().map(move |r| (r, item.count.min(size))));
        unit_rules.chain(item_rules)
    }

    /// Whether every model of the group has the rule (the condition of Stealth, Regeneration, ...).
    pub fn all_have(&self, name: &str) -> bool {
        self.rules_with_models().any(|(r, n)| r.name == name && n >= self.size)
    }

    pub fn has_rule(&self, name: &str) -> bool {
        self.rules_with_models().any(|(r, _)| r.name == name)
    }

    /// The highest number rating of a rule on any model of the group.
    pub fn rating(&self, name: &str) -> Option<i64> {
        self.rules_with_models().filter(|(r, _)| r.name == name).filter_map(|(r, _)| r.number()).max()
    }

    pub fn is_hero(&self) -> bool {
        self.has_rule("Hero")
    }

    /// The rules of the model at `index`: unit rules it is covered by and the items it holds
    /// (items and counted rules go to the first models of the group).
    fn model_rules(&self, index: u32) -> Vec<Rule> {
        let mut rules: Vec<Rule> = self.rules.iter().filter(|r| r.covers(index)).map(|r| r.rule.clone()).collect();
        for item in self.items.iter().filter(|item| index < item.count) {
            rules.extend(item.rules.iter().cloned());
        }
        rules
    }

    /// The models of the group with their loadouts.
    ///
    /// Army Forge gives weapon totals, not who carries what, so copies are dealt out, the
    /// most common weapons first (then by name, so the written order does not matter): a
    /// weapon with as many copies as models (or a multiple) goes to every model; remaining
    /// copies go, one each, to the models carrying the fewest weapons of the same kind
    /// (melee or ranged) so far, the first such model first. `9x Rifle, 1x Plasma Gun,
    /// 10x CCW` on ten models gives nine riflemen and one plasma gunner, each with a CCW.
    pub fn models(&self, group_index: usize) -> Vec<Model> {
        self.model_runs(group_index).into_iter().flat_map(|(m, n)| std::iter::repeat_n(m, n as usize)).collect()
    }

    /// The models of the group as runs of identical models `(model, how many)`, in model
    /// order: what [`ModelGroup::models`] expands, at the cost of one model per kind.
    pub fn model_runs(&self, group_index: usize) -> Vec<(Model, u32)> {
        let uniform = self.rules.iter().all(|r| r.models.is_none()) && self.items.is_empty();
        if uniform && self.weapons.iter().all(|w| w.count % self.size == 0) {
            // Every model alike (the usual case): one run, no dealing.
            let weapons = self.weapons.iter().map(|w| w.with_count(w.count / self.size)).collect();
            return vec![(self.model(group_index, self.model_rules(0), weapons), self.size)];
        }
        let n = self.size as usize;
        let mut dealing_order: Vec<&Weapon> = self.weapons.iter().collect();
        dealing_order.sort_by(|a, b| b.count.cmp(&a.count).then_with(|| a.cmp(b)));
        let w = dealing_order.len();
        // copies[i * w + j]: copies of weapon j (in dealing order) on model i
        let mut copies = vec![0u32; n * w];
        let mut carried = vec![[0u32; 2]; n];
        for (j, weapon) in dealing_order.iter().enumerate() {
            let kind = usize::from(weapon.is_melee());
            let each = weapon.count / self.size;
            for i in 0..n {
                copies[i * w + j] = each;
            }
            for _ in 0..weapon.count % self.size {
                let target = (0..n)
                    .filter(|&i| copies[i * w + j] == each)
                    .min_by_key(|&i| (carried[i][kind], i))
                    .expect("fewer extra copies than models");
                copies[target * w + j] += 1;
            }
            for i in 0..n {
                carried[i][kind] += copies[i * w + j];
            }
        }
        // Models differ in rules only where a counted rule or item stops (`5x Scout`).
        let mut breaks: Vec<u32> = self.rules.iter().filter_map(|r| r.models).chain(self.items.iter().map(|i| i.count)).collect();
        breaks.sort_unstable();
        let mut runs: Vec<(Model, u32)> = Vec::new();
        let mut keys: Vec<(usize, &[u32])> = Vec::new();
        for i in 0..n {
            let segment = breaks.partition_point(|&b| b <= i as u32);
            let row = &copies[i * w..(i + 1) * w];
            if let Some(r) = keys.iter().position(|&(seg, kr)| seg == segment && kr == row) {
                runs[r].1 += 1;
                continue;
            }
            keys.push((segment, row));
            let weapons: Vec<Weapon> =
                dealing_order.iter().zip(row).filter(|&(_, &c)| c > 0).map(|(weapon, &c)| weapon.with_count(c)).collect();
            runs.push((self.model(group_index, self.model_rules(i as u32), weapons), 1));
        }
        runs
    }

    fn model(&self, group_index: usize, rules: Vec<Rule>, weapons: Vec<Weapon>) -> Model {
        let tough = rules.iter().filter(|r| r.name == "Tough").filter_map(Rule::number).max().unwrap_or(1);
        let hero = rules.iter().any(|r| r.name == "Hero");
        Model {
            group: group_index,
            quality: self.quality,
            defense: self.defense,
            tough: tough.clamp(1, i64::from(u32::MAX)) as u32,
            hero,
            rules,
            weapons,
        }
    }

    fn header(&self) -> String {
        let mut parts = vec![format!("{} [{}] Q{}+ D{}+", self.name, self.size, self.quality, self.defense)];
        if let Some(c) = self.cost {
            parts.push(format!("{c}pts"));
        }
        let rules: Vec<String> =
            self.rules.iter().map(UnitRule::to_string).chain(self.items.iter().map(Item::to_string)).collect();
        if !rules.is_empty() {
            parts.push(rules.join(", "));
        }
        parts.join(" | ")
    }

    fn weapon_line(&self) -> String {
        self.weapons.iter().map(Weapon::to_string).collect::<Vec<_>>().join(", ")
    }
}

impl fmt::Display for ModelGroup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.header())?;
        if !self.weapons.is_empty() {
            write!(f, "\n{}", self.weapon_line())?;
        }
        Ok(())
    }
}

const SCORE_RANGE: &str = "must be from 2 to 6 (the score needed on a D6, as in Q3+ or D4+)";

/// `counts` scaled by `models / old` in total (rounded) and shared out in proportion: each
/// its whole share, then one more to the largest remainders (the first of equals first).
fn apportion(counts: &[u64], models: u64, old: u64) -> Vec<u64> {
    let total: u64 = counts.iter().sum();
    let target = (total * models * 2 + old) / (2 * old);
    let mut out: Vec<u64> = counts.iter().map(|c| c * target / total.max(1)).collect();
    let mut order: Vec<usize> = (0..counts.len()).collect();
    order.sort_by_key(|&i| (std::cmp::Reverse(counts[i] * target % total.max(1)), i));
    let given: u64 = out.iter().sum();
    for &i in order.iter().take((target - given) as usize) {
        out[i] += 1;
    }
    out
}

fn check_score(field: &str, value: u8) -> Result<()> {
    if (2..=6).contains(&value) { Ok(()) } else { Err(Error::invalid(field, value, SCORE_RANGE)) }
}

/// The line that ties a hero's block to the unit after it, as list exports write it.
pub const JOINED_MARKER: &str = "| Joined to:";

impl Unit {
    pub fn single(group: ModelGroup) -> Unit {
        Unit { groups: vec![group] }
    }

    /// The checks every unit passes, for a unit built another way than `new` or `parse`
    /// (unpickled): each group's, and a second group only as `join` allows one (a single
    /// Hero joined to a unit of several models, as the edition lets heroes join).
    pub fn check(&self, edition: Edition) -> Result<()> {
        if self.groups.is_empty() {
            return Err(Error::invalid("unit", "no model groups", "a unit has at least one"));
        }
        for group in &self.groups {
            group.check(edition)?;
        }
        match &self.groups[..] {
            [_] => {}
            [unit, hero] => {
                Unit::single(unit.clone()).join(&Unit::single(hero.clone()), edition)?;
            }
            // v2.x's heroes join any unit, several to one
            [unit, heroes @ ..] if edition.hero_joining() == HeroJoining::Any => {
                let mut joined = Unit::single(unit.clone());
                for hero in heroes {
                    joined = joined.join(&Unit::single(hero.clone()), edition)?;
                }
            }
            _ => return Err(Error::invalid("unit", format!("{} model groups", self.groups.len()), "a unit is one group, joined by one hero at most")),
        }
        if self.size() > MAX_MODELS {
            return Err(Error::limit("size", self.size(), MAX_MODELS));
        }
        Ok(())
    }

    /// The unit with its own models' Quality or Defense changed, or its cost (the whole
    /// unit's, a joined hero's share kept): what a designer varies to find where a matchup
    /// breaks even. Checked as any unit is.
    pub fn with_profile(&self, quality: Option<u8>, defense: Option<u8>, cost: Option<u32>, edition: Edition) -> Result<Unit> {
        let mut out = self.clone();
        let main = &mut out.groups[0];
        // (the new values are checked with the rest of the unit below)
        main.quality = quality.unwrap_or(main.quality);
        main.defense = defense.unwrap_or(main.defense);
        if let Some(c) = cost {
            let heroes: u32 = self.groups[1..].iter().map(|g| g.cost.unwrap_or(0)).sum();
            main.cost = Some(c.checked_sub(heroes).ok_or_else(|| Error::invalid("cost", c, format!("below the joined hero's own {heroes} points")))?);
        }
        out.check(edition)?;
        Ok(out)
    }

    /// The unit with rules added to its own models and others taken away (a joined hero
    /// kept): what a designer tries ("what if it had Furious, and not Slow?"). A name taken
    /// away goes with any rating (`Tough` takes `Tough(3)`), from the rules and the items;
    /// a name the unit does not carry is an error naming the closest it does.
    pub fn with_rules(&self, added: Vec<RuleEntry>, removed: &[String], edition: Edition) -> Result<Unit> {
        let mut out = self.clone();
        let main = &mut out.groups[0];
        for (i, name) in removed.iter().enumerate() {
            let before = main.rules.len() + main.items.len();
            main.rules.retain(|r| !r.rule.name.eq_ignore_ascii_case(name));
            main.items.retain(|item| !item.name.eq_ignore_ascii_case(name) && !item.rules.iter().any(|r| r.name.eq_ignore_ascii_case(name)));
            if main.rules.len() + main.items.len() == before {
                let carried: Vec<&str> = self.groups[0].rules.iter().map(|r| r.rule.name.as_str()).chain(self.groups[0].items.iter().map(|x| x.name.as_str())).collect();
                let close = crate::rules::names::close_names(name, carried.iter().copied());
                return Err(Error::invalid(format!("remove[{i}]"), format!("{name:?}"), format!("{} carries no such rule{}", self.name(), crate::rules::names::did_you_mean(&close))));
            }
        }
        for entry in added {
            match entry {
                RuleEntry::Rule(r) => main.rules.push(r),
                RuleEntry::Item(x) => main.items.push(x),
            }
        }
        out.check(edition)?;
        Ok(out)
    }

    /// The unit with weapons added to its own models and others taken away by name (a
    /// joined hero's kept): "what if its rifles had AP(2)" is the rifles taken away and the
    /// new ones added (counts are copies in the unit, as the notation's `10x`).
    pub fn with_weapons(&self, added: Vec<Weapon>, removed: &[String], edition: Edition) -> Result<Unit> {
        let mut out = self.clone();
        let main = &mut out.groups[0];
        for (i, name) in removed.iter().enumerate() {
            let before = main.weapons.len();
            main.weapons.retain(|w| !w.name.eq_ignore_ascii_case(name));
            if main.weapons.len() == before {
                let close = crate::rules::names::close_names(name, self.groups[0].weapons.iter().map(|w| w.name.as_str()));
                return Err(Error::invalid(format!("remove[{i}]"), format!("{name:?}"), format!("{} carries no such weapon{}", self.name(), crate::rules::names::did_you_mean(&close))));
            }
        }
        main.weapons.extend(added);
        out.check(edition)?;
        Ok(out)
    }

    /// The unit with `models` of its own models instead of its size (a joined hero kept),
    /// its cost unchanged: what a designer varies to find how many models break even.
    /// What every model carries (a count that is a multiple of the size) goes with each
    /// model. The loadouts shared among the models ("9x Rifle, 1x Plasma Gun", "5x Rifle,
    /// 5x Shotgun") keep their mix: their total grows or shrinks with the models and is
    /// shared out in proportion, by largest remainder (so no model is left unarmed or given
    /// two). Items and rules on some models keep their count, at most one per model.
    pub fn with_models(&self, models: u32, edition: Edition) -> Result<Unit> {
        if models == 0 {
            return Err(Error::invalid("models", 0, "a unit has at least 1 model"));
        }
        if models > MAX_MODELS {
            return Err(Error::limit("models", models, MAX_MODELS));
        }
        let mut out = self.clone();
        let main = &mut out.groups[0];
        let old = main.size;
        let shared: Vec<usize> = (0..main.weapons.len()).filter(|&i| main.weapons[i].count % old != 0).collect();
        for w in &mut main.weapons {
            if w.count % old == 0 {
                w.count = (w.count / old).saturating_mul(models);
            }
        }
        let counts: Vec<u64> = shared.iter().map(|&i| u64::from(main.weapons[i].count)).collect();
        for (&i, n) in shared.iter().zip(apportion(&counts, u64::from(models), u64::from(old))) {
            main.weapons[i].count = n as u32;
        }
        main.weapons.retain(|w| w.count > 0);
        for item in &mut main.items {
            item.count = item.count.min(models);
        }
        for r in &mut main.rules {
            r.models = r.models.map(|m| m.min(models));
        }
        main.size = models;
        out.check(edition)?;
        Ok(out)
    }

    /// The unit's own profile (not a joined hero's).
    pub fn main(&self) -> &ModelGroup {
        &self.groups[0]
    }

    pub fn name(&self) -> &str {
        &self.main().name
    }

    /// The unit's name with those of the heroes joined to it ("Orc Warriors + Orc Leader"):
    /// what tables of a game name it by, so that the hero who fights with it is seen.
    pub fn display_name(&self) -> String {
        self.groups.iter().map(|g| g.name.as_str()).collect::<Vec<_>>().join(" + ")
    }

    /// Models in the unit, joined heroes included.
    pub fn size(&self) -> u32 {
        self.groups.iter().map(|g| g.size).sum()
    }

    pub fn quality(&self) -> u8 {
        self.main().quality
    }

    pub fn defense(&self) -> u8 {
        self.main().defense
    }

    /// Points of the whole unit (joined heroes included), when every part has a cost.
    pub fn cost(&self) -> Option<u32> {
        self.groups.iter().map(|g| g.cost).sum()
    }

    /// Every model of the unit, the unit's own first and joined heroes last.
    pub fn models(&self) -> Vec<Model> {
        self.groups.iter().enumerate().flat_map(|(i, g)| g.models(i)).collect()
    }

    /// The models as runs of identical models `(model, how many)`.
    pub fn model_runs(&self) -> Vec<(Model, u32)> {
        self.groups.iter().enumerate().flat_map(|(i, g)| g.model_runs(i)).collect()
    }

    /// All weapons of the unit (every group), in order.
    pub fn weapons(&self) -> impl Iterator<Item = &Weapon> {
        self.groups.iter().flat_map(|g| g.weapons.iter())
    }

    /// Names of rules on the unit or its weapons that neither the library knows under the
    /// edition nor `book` (the unit's own book's `specialRules`) defines, each once, in order
    /// of appearance: no engine plays them (see [`crate::rules::names`]).
    pub fn unknown_rules(&self, edition: Edition, book: &[String]) -> Vec<String> {
        let mut check = NameCheck::new(edition, book);
        check.unit(self);
        check.finish().into_iter().map(|u| u.rule.name).collect()
    }

    /// The unit with `hero` joined to it, under the edition's Hero rule.
    pub fn join(&self, hero: &Unit, edition: Edition) -> Result<Unit> {
        let joining = edition.hero_joining();
        if joining == HeroJoining::Never {
            return Err(Error::invalid(
                "hero",
                hero.name(),
                format!("heroes do not join units in {}; they lend their Quality to units within 12\"", edition.title()),
            ));
        }
        if hero.groups.len() != 1 || !hero.main().is_hero() {
            return Err(Error::invalid("hero", hero.name(), "only a unit with the Hero rule can join another unit"));
        }
        if hero.size() != 1 {
            return Err(Error::invalid("hero", format!("{} [{}]", hero.name(), hero.size()), "a joining hero must be a single model"));
        }
        if let HeroJoining::UpToTough(max) = joining {
            let tough = hero.main().rating("Tough").unwrap_or(1);
            if tough > i64::from(max) {
                return Err(Error::invalid(
                    "hero",
                    format!("{} with Tough({tough})", hero.name()),
                    format!("only heroes with up to Tough({max}) may join a unit in {}", edition.title()),
                ));
            }
        }
        match joining {
            // v2.x: "Hero: May be deployed as part of friendly units": any unit, of one model
            // or several, other heroes joined or not; an Aircraft, which "must always move
            // 18”-36”" and "doesn’t interact physically with other models", takes none
            HeroJoining::Any => {
                if self.groups.iter().any(|g| g.has_rule("Aircraft")) {
                    return Err(Error::invalid("unit", self.name(), "heroes may not join an Aircraft"));
                }
            }
            _ => {
                if self.size() < 2 {
                    return Err(Error::invalid("unit", format!("{} [{}]", self.name(), self.size()), "heroes may only join multi-model units"));
                }
                if self.groups.len() > 1 || self.groups.iter().any(ModelGroup::is_hero) {
                    return Err(Error::invalid("unit", self.name(), "already has a hero; a unit may be joined by one hero only"));
                }
            }
        }
        if self.size() + 1 > MAX_MODELS {
            return Err(Error::limit("size", self.size() + 1, MAX_MODELS));
        }
        let mut groups = self.groups.clone();
        groups.push(hero.main().clone());
        Ok(Unit { groups })
    }

    /// Parses a unit in the Army Forge text notation (a header line and a weapons line; a
    /// joined hero is its own block, followed by a `| Joined to:` line and the unit's block).
    pub fn parse(text: &str, edition: Edition) -> Result<Unit> {
        notation::check_length(text)?;
        let blocks = read_blocks(text, edition)?;
        let mut units = assemble(blocks, text, edition)?;
        match units.len() {
            1 => {
                let (copies, at, unit) = units.pop().expect("one unit");
                if copies != 1 {
                    return Err(Error::parse(
                        "unit",
                        format!("{copies}x"),
                        at,
                        text,
                        "a copy count belongs in an army list; use load_army_list for several units",
                    ));
                }
                Ok(unit)
            }
            0 => Err(Error::parse("unit", text.trim(), 0, text, "expected a unit such as: Grunts [10] Q5+ D5+ | 60pts | Fearless")),
            n => Err(Error::parse("unit", format!("{n} units"), units[1].1, text, "expected one unit; use load_army_list for several")),
        }
    }
}

impl fmt::Display for Unit {
    /// Joined heroes print first, each followed by the marker line, then the unit.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for hero in &self.groups[1..] {
            writeln!(f, "{hero}")?;
            writeln!(f, "{JOINED_MARKER}")?;
        }
        write!(f, "{}", self.main())
    }
}

/// A profile block of text: a header line with its weapon lines, a copy count (army lists
/// write `2x Grunts [10] ...`), and whether a `| Joined to:` line follows it.
pub(crate) struct Block {
    pub copies: u32,
    pub at: usize,
    pub group: ModelGroup,
    pub joins_next: bool,
}

/// Byte offsets of each line of `text`.
fn lines_with_offsets(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut offset = 0;
    text.split('\n').map(move |line| {
        let at = offset;
        offset += line.len() + 1;
        (at, line.trim_end_matches('\r'))
    })
}

/// Whether a line is a unit header: its first `|` segment ends in `[size] Qn+ Dn+`.
fn is_header(line: &str) -> bool {
    let head = line.split('|').next().unwrap_or("").trim_end();
    let mut words = head.rsplit(' ');
    let d = words.next().unwrap_or("");
    let q = words.next().unwrap_or("");
    d.starts_with('D') && q.starts_with('Q') && head.contains('[')
}

fn is_joined_marker(line: &str) -> bool {
    let t = line.trim().trim_start_matches('|').trim().to_ascii_lowercase();
    t == "joined to:" || t == "joined to"
}

/// A header line being read: its position, the line, and the weapon lines after it.
type PendingBlock<'a> = (usize, &'a str, Vec<(usize, &'a str)>);

/// Reads every profile block of `text`. Lines starting with `++` (list titles) are skipped.
pub(crate) fn read_blocks(text: &str, edition: Edition) -> Result<Vec<Block>> {
    let mut blocks: Vec<Block> = Vec::new();
    let mut current: Option<PendingBlock<'_>> = None;
    let mut pending_join = Vec::new();
    let finish = |current: Option<PendingBlock<'_>>, blocks: &mut Vec<Block>| -> Result<()> {
        if let Some((at, header, weapon_lines)) = current {
            blocks.push(parse_block(at, header, &weapon_lines, text, edition)?);
        }
        Ok(())
    };
    for (at, line) in lines_with_offsets(text) {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("++") {
            continue;
        }
        let lead = line.len() - line.trim_start().len();
        if is_joined_marker(trimmed) {
            finish(current.take(), &mut blocks)?;
            match blocks.last_mut() {
                Some(last) => {
                    last.joins_next = true;
                    pending_join.push(at + lead);
                }
                None => return Err(Error::parse("unit", trimmed, at + lead, text, "'Joined to:' must follow the hero's block")),
            }
        } else if is_header(trimmed) {
            finish(current.take(), &mut blocks)?;
            current = Some((at + lead, trimmed, Vec::new()));
        } else {
            match current.as_mut() {
                Some((_, _, weapon_lines)) => weapon_lines.push((at + lead, trimmed)),
                None => {
                    return Err(Error::parse(
                        "unit header",
                        trimmed,
                        at + lead,
                        text,
                        "expected a unit header such as: Grunts [10] Q5+ D5+ | 60pts | Fearless",
                    ));
                }
            }
        }
    }
    finish(current.take(), &mut blocks)?;
    if let (Some(last), Some(&at)) = (blocks.last(), pending_join.last()) {
        if last.joins_next {
            return Err(Error::parse("unit", JOINED_MARKER, at, text, "'Joined to:' must be followed by the unit's block"));
        }
    }
    Ok(blocks)
}

/// Groups blocks into units: a block marked `joins_next` is a hero joined to the next one.
pub(crate) fn assemble(blocks: Vec<Block>, text: &str, edition: Edition) -> Result<Vec<(u32, usize, Unit)>> {
    let mut units = Vec::new();
    let mut heroes: Vec<Block> = Vec::new();
    for block in blocks {
        if block.joins_next {
            heroes.push(block);
            continue;
        }
        let mut unit = Unit::single(block.group);
        for hero in heroes.drain(..) {
            if hero.copies != 1 {
                return Err(Error::parse("hero", format!("{}x", hero.copies), hero.at, text, "a joined hero is a single unit"));
            }
            unit = unit.join(&Unit::single(hero.group), edition).map_err(|e| e.at_position(hero.at, text))?;
        }
        units.push((block.copies, block.at, unit));
    }
    Ok(units)
}

fn parse_block(at: usize, header: &str, weapon_lines: &[(usize, &str)], text: &str, edition: Edition) -> Result<Block> {
    let (copies, skip) = match notation::count_prefix(header) {
        Some((n, skip)) => {
            let n = u32::try_from(n).ok().filter(|n| (1..=MAX_MODELS).contains(n)).ok_or_else(|| {
                Error::parse("copies", format!("{n}x"), at, text, format!("must be from 1 to {MAX_MODELS}"))
            })?;
            (n, skip)
        }
        None => (1, 0),
    };
    let header_at = at + skip;
    let header = &header[skip..];
    let mut segments = header.split('|');
    let stats = segments.next().unwrap_or("");
    let (name, size, quality, defense) = parse_stats(stats, header_at, text)?;
    let mut offset = header_at + stats.len() + 1;
    let mut cost = None;
    let mut rules = Vec::new();
    let mut items = Vec::new();
    for (i, segment) in segments.enumerate() {
        let seg_at = offset + (segment.len() - segment.trim_start().len());
        let seg = segment.trim();
        if i == 0 && seg.ends_with("pts") && seg[..seg.len() - 3].trim().bytes().all(|b| b.is_ascii_digit()) && seg.len() > 3 {
            let value: u64 = seg[..seg.len() - 3].trim().parse().map_err(|_| Error::parse("cost", seg, seg_at, text, "expected points such as 120pts"))?;
            let value = u32::try_from(value).ok().filter(|v| i64::from(*v) <= MAX_COST).ok_or_else(|| Error::limit("cost", value, MAX_COST))?;
            cost = Some(value);
        } else if !seg.is_empty() {
            for (pos, token) in notation::split_top_level(seg, seg_at, text, "unit rule")? {
                match parse_rule_entry(token, pos, text)? {
                    RuleEntry::Rule(r) => rules.push(r),
                    RuleEntry::Item(item) => items.push(item),
                }
            }
        }
        offset += segment.len() + 1;
    }
    let mut weapons = Vec::new();
    for &(line_at, line) in weapon_lines {
        for (pos, token) in notation::split_top_level(line, line_at, text, "weapon")? {
            if !token.is_empty() {
                weapons.push(Weapon::parse_at(token, pos, text, edition)?);
            }
        }
    }
    let group = ModelGroup::new(&name, size, quality, defense, rules, items, weapons, cost, edition)
        .map_err(|e| e.at_position(at, text))?;
    Ok(Block { copies, at, group, joins_next: false })
}

/// Reads `Name [size] Qn+ Dn+`.
fn parse_stats(stats: &str, at: usize, text: &str) -> Result<(String, u32, u8, u8)> {
    let trimmed = stats.trim_end();
    let (rest, defense_word) = trimmed.rsplit_once(' ').unwrap_or(("", trimmed));
    let defense_at = at + rest.len() + 1;
    let (rest, quality_word) = rest.trim_end().rsplit_once(' ').unwrap_or(("", rest));
    let quality_at = at + rest.len() + 1;
    let score = |word: &str, letter: char, field: &str, pos: usize| -> Result<u8> {
        word.strip_prefix(letter)
            .and_then(|w| w.strip_suffix('+'))
            .filter(|d| !d.is_empty() && d.len() <= 3 && d.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|d| d.parse::<u8>().ok())
            .ok_or_else(|| Error::parse(field, word, pos, text, format!("expected {letter} and a score, such as {letter}4+")))
            .and_then(|v| check_score(field, v).map(|_| v).map_err(|_| Error::parse(field, word, pos, text, SCORE_RANGE)))
    };
    let defense = score(defense_word, 'D', "defense", defense_at)?;
    let quality = score(quality_word, 'Q', "quality", quality_at)?;
    let rest = rest.trim_end();
    let open = rest.rfind('[').filter(|_| rest.ends_with(']')).ok_or_else(|| {
        Error::parse("size", rest, at, text, "expected the model count in brackets after the name, such as Grunts [10]")
    })?;
    let size_text = &rest[open + 1..rest.len() - 1];
    let size: u64 = size_text
        .trim()
        .parse()
        .ok()
        .filter(|_| size_text.trim().bytes().all(|b| b.is_ascii_digit()))
        .ok_or_else(|| Error::parse("size", size_text, at + open + 1, text, "expected a whole number of models"))?;
    if size == 0 {
        return Err(Error::parse("size", size_text, at + open + 1, text, "a unit must have at least 1 model"));
    }
    let size = u32::try_from(size).ok().filter(|s| *s <= MAX_MODELS).ok_or_else(|| Error::limit("size", size, MAX_MODELS))?;
    let name = check_name("unit name", &rest[..open]).map_err(|e| e.at_position(at, text))?;
    Ok((name, size, quality, defense))
}

pub enum RuleEntry {
    Rule(UnitRule),
    Item(Item),
}

/// Reads one entry of a unit's rule list: `Fearless`, `Tough(3)`, `5x Scout`, `5x Ravage(1)`
/// or an item `1x Brood Leader(Pheromones)` (a counted entry whose brackets hold rules, not a
/// number).
pub fn parse_rule_entry(token: &str, at: usize, text: &str) -> Result<RuleEntry> {
    let lead = token.len() - token.trim_start().len();
    let token = token.trim();
    let at = at + lead;
    let (models, skip) = match notation::count_prefix(token) {
        Some((n, skip)) => {
            let n = u32::try_from(n).ok().filter(|n| (1..=MAX_MODELS).contains(n)).ok_or_else(|| {
                Error::parse("model count", format!("{n}x"), at, text, format!("must be from 1 to {MAX_MODELS}"))
            })?;
            (Some(n), skip)
        }
        None => (None, 0),
    };
    let body = &token[skip..];
    let rule = notation::parse_rule(body, at + skip, text, "unit rule")?;
    match (models, &rule.rating) {
        (Some(count), Some(Rating::Text(inner))) => {
            let open = notation::matching_open(body).expect("a rating implies brackets");
            let inner_at = at + skip + open + 1;
            let mut rules = Vec::new();
            for (pos, part) in notation::split_top_level(inner, inner_at, text, "item rule")? {
                rules.push(notation::parse_rule(part, pos, text, "item rule")?);
            }
            Ok(RuleEntry::Item(Item { name: rule.name, count, rules }))
        }
        _ => Ok(RuleEntry::Rule(UnitRule { rule, models })),
    }
}
