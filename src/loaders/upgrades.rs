//! A unit's loadouts with one upgrade option taken, each with its official price: the
//! default loadout's cost plus the option's per-unit cost. These are what a cost model
//! learns weapon and rule values from, beyond the one default loadout per unit.
//!
//! How many copies an option changes follows the section's `affects`, as Army Forge prices
//! it: "Replace one" / "exactly N" changes that many; "Replace all" / "Upgrade all models"
//! every copy or model, for one price; "any" and "up to N" are priced per copy, so one copy
//! is taken; no selector changes the unit's copies of the targets as a whole (a hero's
//! weapon, a sergeant's pistol). An option that does not fit the default loadout (it
//! replaces a weapon the unit only gets from another upgrade) is left out, not guessed.

use super::army_forge::{ArmyBook, BookUnit, Gain, Selector, UnitOption};
use crate::profile::unit::{Item, UnitRule};
use crate::error::{Error, Result};
use crate::profile::{ModelGroup, Unit, Weapon};

/// A loadout with one option taken.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Variant {
    /// `section: option`, as the book words them.
    pub label: String,
    /// The unit with the option taken; its cost is the official price of that loadout.
    pub unit: Unit,
    pub option_cost: i64,
}

impl ArmyBook {
    /// Every single-option loadout of `unit` that fits its default loadout. A loadout that
    /// breaks the checks every unit passes (a limit, a rating) is an error naming the option,
    /// as typing that unit would be.
    pub fn variants(&self, unit: &BookUnit) -> Result<Vec<Variant>> {
        let mut out = Vec::new();
        let Some(base_cost) = unit.unit.cost() else { return Ok(out) };
        for o in self.options_for(unit) {
            let group = unit.unit.main();
            let Some(mut g) = apply(group, &o.section.variant, &o.section.targets, o.section.affects, &o.option.gains) else { continue };
            let cost = i64::from(base_cost).saturating_add(o.cost);
            if cost <= 0 || cost > crate::limits::MAX_COST {
                continue;
            }
            g.cost = Some(cost as u32);
            let label = format!("{}: {}", o.section.label, o.option.label);
            g.check(self.edition).map_err(|e| e.at(&format!("unit {} (id {}) with upgrade {label:?}", unit.unit.name(), unit.id)))?;
            out.push(Variant { label, unit: Unit::single(g), option_cost: o.cost });
        }
        Ok(out)
    }
}

impl ArmyBook {
    /// `unit` with several options taken together, in the order given (each named by its
    /// label as in [`ArmyBook::variants`], `section: option`), priced officially: the default
    /// cost plus every option's. An unknown label, or an option that does not fit the
    /// loadout built so far (it replaces what an earlier option removed), is an error naming it.
    pub fn loadout(&self, unit: &BookUnit, labels: &[String]) -> Result<Variant> {
        let base_cost = unit.unit.cost().ok_or_else(|| Error::invalid("unit", unit.unit.name(), "has no official cost"))?;
        let options = self.options_for(unit);
        let mut g = unit.unit.main().clone();
        let mut cost = i64::from(base_cost);
        let base = unit.unit.main();
        // how often each section may be used and each option taken (`Allowance`); what has
        // been taken so far, by section and by option
        let mut by_section: Vec<(&str, u32)> = Vec::new();
        let mut by_option: Vec<(&str, &str, u32)> = Vec::new();
        let count = |list: &[(&str, u32)], key: &str| list.iter().find(|(k, _)| *k == key).map_or(0, |(_, n)| *n);
        for (i, label) in labels.iter().enumerate() {
            let field = format!("options[{i}]");
            let matching: Vec<&UnitOption<'_>> = options.iter().filter(|o| &format!("{}: {}", o.section.label, o.option.label) == label).collect();
            if matching.is_empty() {
                let known: Vec<String> = options.iter().map(|o| format!("{}: {}", o.section.label, o.option.label)).take(12).collect();
                return Err(Error::invalid(&field, format!("{label:?}"), format!("is not an option of {} (its options include {known:?})", unit.unit.name())));
            }
            // two sections may share a label (a walker's two claws): the first with room left
            let room = |o: &UnitOption<'_>| {
                let a = Allowance::of(o, base);
                let option_taken = by_option.iter().find(|(s, l, _)| *s == o.section.uid && *l == o.option.label).map_or(0, |t| t.2);
                count(&by_section, &o.section.uid) < a.options && option_taken < a.uses
            };
            let Some(o) = matching.iter().copied().find(|o| room(o)) else {
                let a = Allowance::of(matching[0], base);
                let options = if a.options == u32::MAX { "any of its options".to_string() } else { format!("{} option(s)", a.options) };
                return Err(Error::invalid(&field, format!("{label:?}"), format!(
                    "is one option too many from the section {:?} (it allows {options}, each at most {} time(s))",
                    matching[0].section.label, a.uses)));
            };
            match by_section.iter_mut().find(|(k, _)| *k == o.section.uid) {
                Some((_, n)) => *n += 1,
                None => by_section.push((&o.section.uid, 1)),
            }
            match by_option.iter_mut().find(|(s, l, _)| *s == o.section.uid && *l == o.option.label) {
                Some((_, _, n)) => *n += 1,
                None => by_option.push((&o.section.uid, &o.option.label, 1)),
            }
            g = apply(&g, &o.section.variant, &o.section.targets, o.section.affects, &o.option.gains)
                .ok_or_else(|| Error::invalid(&field, format!("{label:?}"), "does not fit the loadout with the options before it"))?;
            cost = cost.saturating_add(o.cost);
        }
        if cost <= 0 || cost > crate::limits::MAX_COST {
            return Err(Error::invalid("options", format!("{labels:?}"), format!("price the unit at {cost} points, outside 1 to {}", crate::limits::MAX_COST)));
        }
        g.cost = Some(cost as u32);
        let label = labels.join(" + ");
        g.check(self.edition).map_err(|e| e.at(&format!("unit {} (id {}) with upgrades {label:?}", unit.unit.name(), unit.id)))?;
        Ok(Variant { label, unit: Unit::single(g), option_cost: cost - i64::from(base_cost) })
    }
}

/// How much of a section a loadout may take, as Army Forge allows it.
struct Allowance {
    /// Times the section may be used, and so each of its options taken: "Replace any Rifle"
    /// and "Upgrade any model with one" once per copy or model, "up to N" N times, else once.
    uses: u32,
    /// Options taken from it in all: `uses` times what one use picks ("with one": 1, "with
    /// any": each option once).
    options: u32,
}

impl Allowance {
    fn of(o: &UnitOption<'_>, base: &ModelGroup) -> Allowance {
        let uses = match o.section.affects {
            Some(Selector::Any) if o.section.targets.is_empty() => base.size,
            Some(Selector::Any) => o.section.targets.iter().filter_map(|t| held(base, t)).fold(0u32, u32::saturating_add).max(1),
            Some(Selector::UpTo(n)) => n,
            _ => 1,
        };
        let per_use = match o.section.select {
            Some(Selector::Exactly(n) | Selector::UpTo(n)) => n,
            Some(Selector::Any | Selector::All) => u32::MAX,
            None => 1,
        };
        Allowance { uses, options: uses.saturating_mul(per_use) }
    }
}

/// The group with one option applied, or `None` when it does not fit.
fn apply(group: &ModelGroup, variant: &str, targets: &[String], affects: Option<Selector>, gains: &[Gain]) -> Option<ModelGroup> {
    let mut g = group.clone();
    let size = group.size;
    let copies = match variant {
        "replace" => {
            // copies of each target the option replaces
            let held: Vec<u32> = targets.iter().map(|t| held(&g, t)).collect::<Option<_>>()?;
            // (copies removed of each target, copies of the gains)
            let (removed, gained) = match affects {
                Some(Selector::Exactly(n)) => (n, n),
                Some(Selector::Any | Selector::UpTo(_)) => (1, 1),
                Some(Selector::All) | None => {
                    let first = *held.first()?;
                    if held.iter().any(|&h| h != first) || (affects.is_none() && first != 1 && size != 1) {
                        return None;
                    }
                    // "all": each copy becomes the gains; none: the unit's copies, as a whole
                    (first, if affects.is_none() { 1 } else { first })
                }
            };
            for t in targets {
                remove(&mut g, t, removed)?;
            }
            gained
        }
        "upgrade" | "attachment" => match affects {
            Some(Selector::All) => size,
            Some(Selector::Exactly(n)) => n.min(size),
            _ => 1,
        },
        _ => return None,
    };
    let everyone = copies >= size;
    // counts saturate: a product past u32::MAX stays over the weapon count limit the group's
    // checks refuse, instead of wrapping to a small number
    for gain in gains {
        match gain {
            Gain::Weapon(w) => add_weapon(&mut g, w.with_count(w.count.saturating_mul(copies))),
            Gain::Rule(r) => g.rules.push(UnitRule { rule: r.rule.clone(), models: (!everyone).then_some(copies) }),
            Gain::Item { name, count, rules, weapons } => {
                for w in weapons {
                    add_weapon(&mut g, w.with_count(w.count.saturating_mul(copies)));
                }
                if !rules.is_empty() {
                    g.items.push(Item { name: name.clone(), count: count.saturating_mul(copies).min(size), rules: rules.clone() });
                }
            }
        }
    }
    Some(g)
}

/// Copies of a weapon (or models with an item) of this name in the group.
fn held(g: &ModelGroup, name: &str) -> Option<u32> {
    let weapons = g.weapons.iter().filter(|w| w.name == name).map(|w| w.count).fold(0u32, u32::saturating_add);
    let items = g.items.iter().filter(|i| i.name == name).map(|i| i.count).fold(0u32, u32::saturating_add);
    let held = weapons.saturating_add(items);
    (held > 0).then_some(held)
}

/// Removes `n` copies of the named weapon or item; `None` if there are fewer.
fn remove(g: &mut ModelGroup, name: &str, n: u32) -> Option<()> {
    if held(g, name)? < n {
        return None;
    }
    let mut left = n;
    for w in g.weapons.iter_mut().filter(|w| w.name == name) {
        let take = left.min(w.count);
        *w = w.with_count(w.count - take);
        left -= take;
    }
    for i in g.items.iter_mut().filter(|i| i.name == name) {
        let take = left.min(i.count);
        i.count -= take;
        left -= take;
    }
    g.weapons.retain(|w| w.count > 0);
    g.items.retain(|i| i.count > 0);
    Some(())
}

fn add_weapon(g: &mut ModelGroup, w: Weapon) {
    if w.count == 0 {
        return;
    }
    match g.weapons.iter_mut().find(|x| x.same_profile(&w)) {
        Some(x) => *x = x.with_count(x.count.saturating_add(w.count)),
        None => g.weapons.push(w),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edition::Edition;

    #[test]
    fn loadouts_of_the_example_book() {
        let book = ArmyBook::from_json(include_str!("../../python/oprstats/data/example-book.json"), Some(Edition::V3_5)).unwrap();
        let squad = book.unit("Warden Squad").unwrap();
        let variants = book.variants(squad).unwrap();
        assert_eq!(variants.len(), 3);
        let one = &variants[0];
        assert_eq!(one.unit.cost(), Some(125));
        let counts: Vec<(String, u32)> = one.unit.weapons().map(|w| (w.name.clone(), w.count)).collect();
        assert!(counts.contains(&("Line Rifle".to_string(), 4)) && counts.contains(&("Plasma Lance".to_string(), 1)));
        let shields = &variants[2];
        assert!(shields.unit.main().all_have("Shielded"));
    }

    #[test]
    fn an_upgrade_over_a_limit_is_an_error_naming_it() {
        let mut book = ArmyBook::from_json(include_str!("../../python/oprstats/data/example-book.json"), Some(Edition::V3_5)).unwrap();
        // "Replace one Line Rifle" gives a weapon of 1000 copies for each of 5 replaced
        let section = book.packages.iter_mut().flat_map(|p| p.sections.iter_mut()).find(|s| s.label == "Replace one Line Rifle").unwrap();
        section.affects = Some(Selector::Exactly(5));
        for gain in &mut section.options[0].gains {
            if let Gain::Weapon(w) = gain {
                *w = w.with_count(1000);
            }
        }
        let squad = book.unit("Warden Squad").unwrap().clone();
        let error = book.variants(&squad).unwrap_err().to_string();
        assert!(error.contains("Warden Squad") && error.contains("weapon count 5000 is over the limit of 1000"), "{error}");
    }
}
