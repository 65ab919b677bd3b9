//! Army Forge army books (the JSON its API serves for `/api/army-books/<uid>`).
//!
//! Only the fields the library uses are read; the many others (images, lore, voting) are
//! ignored. A missing or malformed field is an error naming where it is (`units[3] (id
//! qMjB0Rk).weapons[1]`) rather than a unit silently dropped.

use crate::edition::Edition;
use crate::error::{Error, Result};
use crate::limits::{MAX_COST, MAX_JSON};
use crate::profile::unit::{Item, ModelGroup, Unit, UnitRule};
use crate::profile::weapon::Weapon;
use crate::rules::names::{NameCheck, Unknown};
use crate::rules::{Rating, Rule};
use serde_json::{Map, Value};

/// A rule an army book defines in its `specialRules` (army and weapon rules such as
/// "Hive Bond" or "Shred"), with its rules text.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RuleDefinition {
    pub name: String,
    pub description: String,
    pub has_rating: bool,
}

/// A spell an army book defines in its `spells`: its name, its value in spell tokens
/// (`threshold`), its effect text, and the effect read from its `generation` (`None` where
/// the book gives none or one this library does not know: the book's warnings say which).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct SpellDefinition {
    pub name: String,
    pub tokens: Option<i64>,
    pub effect: String,
    pub spell: Option<crate::rules::spells::Spell>,
}

/// A book's spells, shared by the units that may cast them.
pub type Spells = std::sync::Arc<[SpellDefinition]>;

/// How many models or copies a section applies to (`affects`/`select` in the JSON).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Selector {
    All,
    Any,
    Exactly(u32),
    UpTo(u32),
}

/// What an upgrade option gives.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Gain {
    Weapon(Weapon),
    Rule(UnitRule),
    /// Equipment: rules for the models that take it, and any weapons it holds.
    Item { name: String, count: u32, rules: Vec<Rule>, weapons: Vec<Weapon> },
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UpgradeOption {
    pub uid: String,
    pub label: String,
    /// The option's top-level price; Army Forge keeps it for display and it can be stale.
    pub listed_cost: Option<i64>,
    /// The real price per unit: `(unit id, points)`.
    pub costs: Vec<(String, i64)>,
    pub gains: Vec<Gain>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UpgradeSection {
    pub uid: String,
    pub label: String,
    /// `replace`, `upgrade` or `attachment`, as Army Forge writes it.
    pub variant: String,
    /// Names of the weapons a `replace` section replaces.
    pub targets: Vec<String>,
    pub affects: Option<Selector>,
    pub select: Option<Selector>,
    pub options: Vec<UpgradeOption>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct UpgradePackage {
    pub uid: String,
    pub hint: String,
    pub sections: Vec<UpgradeSection>,
}

/// A unit as its army book lists it: the profile with its default loadout and the book's
/// bookkeeping (id, upgrade packages, the unit it is a sub-faction copy of).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BookUnit {
    pub id: String,
    pub unit: Unit,
    pub upgrade_packages: Vec<String>,
    /// `(army book uid, unit id)` of the unit this is an automatic sub-faction copy of.
    pub synced_from: Option<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ArmyBook {
    pub uid: String,
    pub name: String,
    pub version: String,
    pub edition: Edition,
    /// The game system the book is for, as Army Forge names it (`gameSystemSlug`:
    /// "grimdark-future", "grimdark-future-firefight"), if it says.
    #[serde(default)]
    pub game_system: Option<String>,
    pub units: Vec<BookUnit>,
    pub packages: Vec<UpgradePackage>,
    pub special_rules: Vec<RuleDefinition>,
    pub spells: Vec<SpellDefinition>,
    /// What was read but could not be used, e.g. a unit naming an upgrade package the book
    /// does not have (three real units do; Army Forge ignores them, and so does the library).
    pub warnings: Vec<String>,
}

/// An upgrade a unit may take, with its price for that unit.
#[derive(Debug, Clone, Copy)]
pub struct UnitOption<'a> {
    pub package: &'a UpgradePackage,
    pub section: &'a UpgradeSection,
    pub option: &'a UpgradeOption,
    pub cost: i64,
}

impl ArmyBook {
    /// Reads an army book from JSON text. `edition` overrides the edition the book is for
    /// (its game system, then its `versionString`: see [`book_edition`]).
    pub fn from_json(text: &str, edition: Option<Edition>) -> Result<ArmyBook> {
        if text.len() > MAX_JSON {
            return Err(Error::limit("army book", format!("{} bytes of JSON", text.len()), format!("{MAX_JSON} bytes")));
        }
        let value: Value = serde_json::from_str(text).map_err(|e| {
            Error::book(format!("line {} column {}", e.line(), e.column()), format!("invalid JSON: {e}"))
        })?;
        ArmyBook::from_value(&value, edition)
    }

    pub fn from_value(value: &Value, edition: Option<Edition>) -> Result<ArmyBook> {
        let book = object(value, "")?;
        let name = string(book, "name", "")?;
        let uid = optional_string(book, "uid", "")?.unwrap_or_default();
        let version = optional_string(book, "versionString", "")?.unwrap_or_default();
        let game_system = optional_string(book, "gameSystemSlug", "")?;
        let edition = edition.unwrap_or_else(|| book_edition(game_system.as_deref(), &version));
        let mut cx = Reading { edition, dropped: Vec::new() };
        let units_json = array(book, "units", "")?;
        let mut units = Vec::with_capacity(units_json.len());
        for (i, u) in units_json.iter().enumerate() {
            let id = u.get("id").and_then(Value::as_str).unwrap_or("?");
            let at = format!("units[{i}] (id {id})");
            units.push(read_book_unit(u, &mut cx).map_err(|e| e.at(&at))?);
        }
        let mut packages = Vec::new();
        if let Some(list) = book.get("upgradePackages").filter(|v| !v.is_null()) {
            let list = list.as_array().ok_or_else(|| Error::book("upgradePackages", "must be a list"))?;
            for (i, p) in list.iter().enumerate() {
                packages.push(read_package(p, &mut cx).map_err(|e| e.at(&format!("upgradePackages[{i}]")))?);
            }
        }
        let mut special_rules = Vec::new();
        if let Some(list) = book.get("specialRules").filter(|v| !v.is_null()) {
            let list = list.as_array().ok_or_else(|| Error::book("specialRules", "must be a list"))?;
            for (i, r) in list.iter().enumerate() {
                let at = format!("specialRules[{i}]");
                let r = object(r, &at)?;
                special_rules.push(RuleDefinition {
                    name: string(r, "name", &at)?,
                    description: optional_string(r, "description", &at)?.unwrap_or_default(),
                    has_rating: r.get("hasRating").and_then(Value::as_bool).unwrap_or(false),
                });
            }
        }
        let (mut spells, mut warnings) = (Vec::new(), cx.dropped_warnings());
        if let Some(list) = book.get("spells").filter(|v| !v.is_null()) {
            let list = list.as_array().ok_or_else(|| Error::book("spells", "must be a list"))?;
            for (i, s) in list.iter().enumerate() {
                let at = format!("spells[{i}]");
                let s = object(s, &at)?;
                let tokens = match s.get("threshold") {
                    None | Some(Value::Null) => None,
                    Some(_) => Some(number(s, "threshold", &at)?),
                };
                let name = string(s, "name", &at)?;
                let spell = match (s.get("generation"), tokens) {
                    (Some(generation), Some(tokens)) => crate::rules::spells::Spell::from_generation(generation, tokens, edition)
                        .map_err(|why| warnings.push(format!("{at} ({name}): its effect is not one this library reads ({why}); the spell is left out")))
                        .ok(),
                    _ => {
                        warnings.push(format!("{at} ({name}): no structured effect (generation) or value; the spell is left out"));
                        None
                    }
                };
                spells.push(SpellDefinition { name, tokens, effect: optional_string(s, "effect", &at)?.unwrap_or_default(), spell });
            }
        }
        for (i, u) in units.iter().enumerate() {
            for uid in u.upgrade_packages.iter().filter(|uid| !packages.iter().any(|p| &&p.uid == uid)) {
                warnings.push(format!(
                    "units[{i}] (id {}, {}): upgrade package {uid:?} is not in the book; its options are left out",
                    u.id,
                    u.unit.name()
                ));
            }
        }
        Ok(ArmyBook { uid, name, version, edition, game_system, units, packages, special_rules, spells, warnings })
    }

    /// The rule names the book defines in its `specialRules`.
    pub fn defined_names(&self) -> Vec<String> {
        self.special_rules.iter().map(|r| r.name.clone()).collect()
    }

    /// Rule names the book's units and upgrades use that neither the library knows under
    /// the book's edition nor the book defines (see [`crate::rules::names`]).
    pub fn unknown_rules(&self) -> Vec<Unknown> {
        let defined = self.defined_names();
        let mut check = NameCheck::new(self.edition, &defined);
        for u in &self.units {
            check.unit(&u.unit);
        }
        // An option's label already names what it gives (`Sniper Rifle (30", ..., Takedown)`).
        for option in self.packages.iter().flat_map(|p| &p.sections).flat_map(|s| &s.options) {
            let place = format!("upgrade {}", option.label);
            for gain in &option.gains {
                let (rules, weapons): (Vec<&Rule>, &[Weapon]) = match gain {
                    Gain::Weapon(w) => (Vec::new(), std::slice::from_ref(w)),
                    Gain::Rule(r) => (vec![&r.rule], &[]),
                    Gain::Item { rules, weapons, .. } => (rules.iter().collect(), weapons),
                };
                for rule in rules.into_iter().chain(weapons.iter().flat_map(|w| &w.rules)) {
                    check.rule(rule, &place);
                }
            }
        }
        check.finish()
    }

    pub fn unit(&self, name: &str) -> Option<&BookUnit> {
        self.units.iter().find(|u| u.unit.name() == name)
    }

    pub fn unit_by_id(&self, id: &str) -> Option<&BookUnit> {
        self.units.iter().find(|u| u.id == id)
    }

    /// Every option of the unit's upgrade packages with its price for this unit (options
    /// with no price listed for the unit fall back to the option's listed cost, else 0).
    pub fn options_for(&self, unit: &BookUnit) -> Vec<UnitOption<'_>> {
        let mut out = Vec::new();
        for uid in &unit.upgrade_packages {
            let Some(package) = self.packages.iter().find(|p| &p.uid == uid) else { continue };
            for section in &package.sections {
                for option in &section.options {
                    let cost = option
                        .costs
                        .iter()
                        .find(|(id, _)| id == &unit.id)
                        .map(|(_, c)| *c)
                        .or(option.listed_cost)
                        .unwrap_or(0);
                    out.push(UnitOption { package, section, option, cost });
                }
            }
        }
        out
    }
}

/// The edition a book is for when no `edition=` is given: Firefight v3.2 for a Firefight
/// book (its `gameSystemSlug`; Army Forge's Firefight books carry GF's `versionString`
/// 3.5.1), else its `versionString`, else the current edition.
pub fn book_edition(game_system: Option<&str>, version: &str) -> Edition {
    match game_system {
        Some(FIREFIGHT_SLUG) => Edition::Firefight3_2,
        _ => version.parse().unwrap_or_default(),
    }
}

/// Army Forge's name for the Firefight game system (`gameSystemSlug`).
pub const FIREFIGHT_SLUG: &str = "grimdark-future-firefight";

/// What reading a book needs to carry: the edition it is read under, and the ratings it
/// had to drop to read a rule under that edition (a v3.5.1 book's `Fear(1)` read as v2.x's
/// `Fear`, which takes none), each reported once in the book's warnings.
struct Reading {
    edition: Edition,
    dropped: Vec<String>,
}

impl Reading {
    /// The rule as the edition writes it: a rating on a core rule that takes none in this
    /// edition is dropped (the rule is the edition's rule of that name) and reported.
    fn fit(&mut self, rule: Rule) -> Rule {
        match (rule.spec(self.edition), &rule.rating) {
            (Some(spec), Some(r)) if !spec.rated => {
                let text = format!("{}({r})", rule.name);
                if !self.dropped.contains(&text) {
                    self.dropped.push(text);
                }
                Rule::new(rule.name, None)
            }
            _ => rule,
        }
    }

    fn dropped_warnings(&self) -> Vec<String> {
        self.dropped
            .iter()
            .map(|r| format!("{r}: the rule takes no rating in {}; read as that edition's rule of the same name", self.edition.title()))
            .collect()
    }
}

fn read_book_unit(u: &Value, cx: &mut Reading) -> Result<BookUnit> {
    let edition = cx.edition;
    let o = object(u, "")?;
    let id = string(o, "id", "")?;
    let name = string(o, "name", "")?;
    let size = count(o, "size", "")?;
    let quality = score(o, "quality")?;
    let defense = score(o, "defense")?;
    let cost = number(o, "cost", "")?;
    if !(0..=MAX_COST).contains(&cost) {
        return Err(Error::book("cost", format!("must be from 0 to {MAX_COST} points, got {cost}")));
    }
    let mut rules = Vec::new();
    for (i, r) in array(o, "rules", "")?.iter().enumerate() {
        let at = format!("rules[{i}]");
        rules.push(UnitRule { rule: cx.fit(read_rule(r, &at)?), models: None });
    }
    let mut weapons = Vec::new();
    for (i, w) in array(o, "weapons", "")?.iter().enumerate() {
        weapons.push(read_weapon(w, cx).map_err(|e| e.at(&format!("weapons[{i}]")))?);
    }
    let mut items = Vec::new();
    if let Some(list) = o.get("items").filter(|v| !v.is_null()) {
        let list = list.as_array().ok_or_else(|| Error::book("items", "must be a list"))?;
        for (i, it) in list.iter().enumerate() {
            let at = format!("items[{i}]");
            let (item, item_weapons) = read_item(it, cx).map_err(|e| e.at(&at))?;
            weapons.extend(item_weapons);
            items.extend(item);
        }
    }
    let group = ModelGroup::new(&name, size, quality, defense, rules, items, weapons, Some(cost as u32), edition)
        .map_err(|e| e.at(""))?;
    let upgrade_packages = match o.get("upgrades").filter(|v| !v.is_null()) {
        Some(v) => v
            .as_array()
            .ok_or_else(|| Error::book("upgrades", "must be a list of package uids"))?
            .iter()
            .map(|p| p.as_str().map(str::to_string).ok_or_else(|| Error::book("upgrades", "must be a list of package uids")))
            .collect::<Result<Vec<_>>>()?,
        None => Vec::new(),
    };
    let synced_from = o.get("sync").and_then(Value::as_object).and_then(|s| {
        Some((s.get("parentArmyBookId")?.as_str()?.to_string(), s.get("unitId")?.as_str()?.to_string()))
    });
    Ok(BookUnit { id, unit: Unit::single(group), upgrade_packages, synced_from })
}

/// An item's rules become an [`Item`]; weapons inside it join the unit's weapons.
fn read_item(it: &Value, cx: &mut Reading) -> Result<(Option<Item>, Vec<Weapon>)> {
    let o = object(it, "")?;
    let name = string(o, "name", "")?;
    let item_count = count(o, "count", "")?;
    let (rules, weapons) = read_content(o, cx)?;
    let item = (!rules.is_empty()).then_some(Item { name, count: item_count, rules });
    Ok((item, weapons))
}

/// The `content` of an item: its rules and the weapons it holds.
fn read_content(o: &Map<String, Value>, cx: &mut Reading) -> Result<(Vec<Rule>, Vec<Weapon>)> {
    let mut rules = Vec::new();
    let mut weapons = Vec::new();
    for (i, c) in array(o, "content", "")?.iter().enumerate() {
        let at = format!("content[{i}]");
        let co = object(c, &at)?;
        if co.get("type").and_then(Value::as_str) == Some("ArmyBookWeapon") {
            weapons.push(read_weapon(c, cx).map_err(|e| e.at(&at))?);
        } else {
            rules.push(cx.fit(read_rule(c, &at)?));
        }
    }
    Ok((rules, weapons))
}

fn read_rule(r: &Value, at: &str) -> Result<Rule> {
    let o = object(r, at)?;
    let name = string(o, "name", at)?;
    let rating = match o.get("rating") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(Rating::Number(
            n.as_i64().ok_or_else(|| Error::book(format!("{at}.rating"), format!("{name}: rating {n} is not a whole number")))?,
        )),
        Some(Value::String(s)) if s.trim().is_empty() => None,
        Some(Value::String(s)) => Some(Rating::from_text(s)),
        Some(other) => return Err(Error::book(format!("{at}.rating"), format!("{name}: rating must be a number or text, got {other}"))),
    };
    let name = crate::rules::check_name("rule name", &name).map_err(|e| e.at(at))?;
    Ok(Rule::new(name, rating))
}

fn read_weapon(w: &Value, cx: &mut Reading) -> Result<Weapon> {
    let o = object(w, "")?;
    let name = string(o, "name", "")?;
    let copies = match o.get("count") {
        None | Some(Value::Null) => 1,
        Some(_) => count(o, "count", "")?,
    };
    let range = match o.get("range") {
        None | Some(Value::Null) => None,
        Some(_) => match number(o, "range", "")? {
            0 => None,
            r if r > 0 => Some(u32::try_from(r).map_err(|_| Error::book("range", format!("{r} is too large")))?),
            r => return Err(Error::book("range", format!("{name}: must not be negative, got {r}"))),
        },
    };
    let attacks = number(o, "attacks", "")?;
    if attacks < 0 {
        return Err(Error::book("attacks", format!("{name}: must not be negative, got {attacks}")));
    }
    match o.get("attacksMultiplier") {
        None | Some(Value::Null) => {}
        Some(m) if m.as_i64() == Some(1) => {}
        Some(m) => return Err(Error::book("attacksMultiplier", format!("{name}: only 1 or null is understood, got {m}"))),
    }
    let mut rules = Vec::new();
    if let Some(list) = o.get("specialRules").filter(|v| !v.is_null()) {
        let list = list.as_array().ok_or_else(|| Error::book("specialRules", "must be a list"))?;
        for (i, r) in list.iter().enumerate() {
            rules.push(cx.fit(read_rule(r, &format!("specialRules[{i}]"))?));
        }
    }
    let attacks = u32::try_from(attacks).map_err(|_| Error::book("attacks", format!("{attacks} is too large")))?;
    Weapon::new(&name, range, attacks, copies, rules, cx.edition).map_err(|e| e.at(""))
}

fn read_package(p: &Value, cx: &mut Reading) -> Result<UpgradePackage> {
    let o = object(p, "")?;
    let uid = string(o, "uid", "")?;
    let hint = optional_string(o, "hint", "")?.unwrap_or_default();
    let mut sections = Vec::new();
    for (i, s) in array(o, "sections", "")?.iter().enumerate() {
        let at = format!("sections[{i}]");
        sections.push(read_section(s, cx).map_err(|e| e.at(&at))?);
    }
    Ok(UpgradePackage { uid, hint, sections })
}

fn read_section(s: &Value, cx: &mut Reading) -> Result<UpgradeSection> {
    let o = object(s, "")?;
    let uid = optional_string(o, "uid", "")?.or(optional_string(o, "id", "")?).unwrap_or_default();
    let label = optional_string(o, "label", "")?.unwrap_or_default();
    let variant = optional_string(o, "variant", "")?.unwrap_or_default();
    let targets = match o.get("targets").filter(|v| !v.is_null()) {
        Some(v) => v
            .as_array()
            .ok_or_else(|| Error::book("targets", "must be a list of weapon names"))?
            .iter()
            .map(|t| t.as_str().map(str::to_string).ok_or_else(|| Error::book("targets", "must be a list of weapon names")))
            .collect::<Result<Vec<_>>>()?,
        None => Vec::new(),
    };
    let affects = selector(o.get("affects"), "affects")?;
    let select = selector(o.get("select"), "select")?;
    let mut options = Vec::new();
    for (i, opt) in array(o, "options", "")?.iter().enumerate() {
        let at = format!("options[{i}]");
        options.push(read_option(opt, cx).map_err(|e| e.at(&at))?);
    }
    Ok(UpgradeSection { uid, label, variant, targets, affects, select, options })
}

fn read_option(opt: &Value, cx: &mut Reading) -> Result<UpgradeOption> {
    let o = object(opt, "")?;
    let uid = optional_string(o, "uid", "")?.or(optional_string(o, "id", "")?).unwrap_or_default();
    let label = optional_string(o, "label", "")?.unwrap_or_default();
    let listed_cost = match o.get("cost") {
        None | Some(Value::Null) => None,
        Some(_) => Some(number(o, "cost", "")?),
    };
    let mut costs = Vec::new();
    if let Some(list) = o.get("costs").filter(|v| !v.is_null()) {
        let list = list.as_array().ok_or_else(|| Error::book("costs", "must be a list of {unitId, cost}"))?;
        for (i, c) in list.iter().enumerate() {
            let at = format!("costs[{i}]");
            let co = object(c, &at)?;
            costs.push((string(co, "unitId", &at)?, number(co, "cost", &at)?));
        }
    }
    let mut gains = Vec::new();
    for (i, g) in array(o, "gains", "")?.iter().enumerate() {
        let at = format!("gains[{i}]");
        gains.push(read_gain(g, cx).map_err(|e| e.at(&at))?);
    }
    Ok(UpgradeOption { uid, label, listed_cost, costs, gains })
}

fn read_gain(g: &Value, cx: &mut Reading) -> Result<Gain> {
    let o = object(g, "")?;
    match o.get("type").and_then(Value::as_str) {
        Some("ArmyBookWeapon") => Ok(Gain::Weapon(read_weapon(g, cx)?)),
        Some("ArmyBookItem") => {
            let name = string(o, "name", "")?;
            let item_count = match o.get("count") {
                None | Some(Value::Null) => 1,
                Some(_) => count(o, "count", "")?,
            };
            let (rules, weapons) = read_content(o, cx)?;
            Ok(Gain::Item { name, count: item_count, rules, weapons })
        }
        Some("ArmyBookRule") => {
            let rule = cx.fit(read_rule(g, "")?);
            rule.check(cx.edition).map_err(|e| e.at(""))?;
            Ok(Gain::Rule(UnitRule { rule, models: None }))
        }
        other => Err(Error::book("type", format!("unknown kind of upgrade gain {other:?}"))),
    }
}

fn selector(v: Option<&Value>, field: &str) -> Result<Option<Selector>> {
    let Some(v) = v.filter(|v| !v.is_null()) else { return Ok(None) };
    let o = v.as_object().ok_or_else(|| Error::book(field, "must be an object {type, value}"))?;
    let kind = o.get("type").and_then(Value::as_str).unwrap_or("");
    let value = || -> Result<u32> {
        let n = o.get("value").and_then(Value::as_u64).ok_or_else(|| Error::book(field, format!("{kind:?} needs a whole-number value")))?;
        u32::try_from(n).map_err(|_| Error::book(field, format!("{n} is too large")))
    };
    Ok(Some(match kind {
        "all" => Selector::All,
        "any" => Selector::Any,
        "exactly" => Selector::Exactly(value()?),
        "up to" => Selector::UpTo(value()?),
        other => return Err(Error::book(field, format!("unknown selector {other:?}"))),
    }))
}

// Typed field readers: each names the key and where it is when it fails.

fn object<'a>(v: &'a Value, at: &str) -> Result<&'a Map<String, Value>> {
    v.as_object().ok_or_else(|| Error::book(at, format!("expected an object, got {}", kind_of(v))))
}

fn field<'a>(o: &'a Map<String, Value>, key: &str, at: &str) -> Result<&'a Value> {
    o.get(key).ok_or_else(|| Error::book(at, format!("missing key {key:?}")))
}

fn string(o: &Map<String, Value>, key: &str, at: &str) -> Result<String> {
    match field(o, key, at)? {
        Value::String(s) => Ok(s.clone()),
        other => Err(Error::book(at, format!("{key:?} must be text, got {}", kind_of(other)))),
    }
}

fn optional_string(o: &Map<String, Value>, key: &str, at: &str) -> Result<Option<String>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(Error::book(at, format!("{key:?} must be text, got {}", kind_of(other)))),
    }
}

fn array<'a>(o: &'a Map<String, Value>, key: &str, at: &str) -> Result<&'a Vec<Value>> {
    match field(o, key, at)? {
        Value::Array(a) => Ok(a),
        other => Err(Error::book(at, format!("{key:?} must be a list, got {}", kind_of(other)))),
    }
}

/// A whole number, also when Army Forge writes it as text (`"02"`).
fn number(o: &Map<String, Value>, key: &str, at: &str) -> Result<i64> {
    let v = field(o, key, at)?;
    let n = match v {
        Value::Number(n) => n.as_i64().or_else(|| n.as_f64().filter(|f| f.fract() == 0.0 && f.abs() < 1e15).map(|f| f as i64)),
        Value::String(s) => s.trim().parse::<i64>().ok(),
        _ => None,
    };
    n.ok_or_else(|| Error::book(at, format!("{key:?} must be a whole number, got {v}")))
}

fn count(o: &Map<String, Value>, key: &str, at: &str) -> Result<u32> {
    let n = number(o, key, at)?;
    if n < 1 {
        return Err(Error::book(at, format!("{key:?} must be 1 or more, got {n}")));
    }
    u32::try_from(n).map_err(|_| Error::book(at, format!("{key:?} {n} is too large")))
}

fn score(o: &Map<String, Value>, key: &str) -> Result<u8> {
    let n = number(o, key, "")?;
    if !(2..=6).contains(&n) {
        return Err(Error::book("", format!("{key:?} must be from 2 to 6, got {n}")));
    }
    Ok(n as u8)
}

fn kind_of(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "true/false",
        Value::Number(_) => "a number",
        Value::String(_) => "text",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn book(slug: &str) -> String {
        format!(
            r#"{{"name":"B","versionString":"3.5.1","gameSystemSlug":"{slug}","units":[{{"id":"u","name":"U","size":1,"cost":10,
            "quality":4,"defense":4,"rules":[{{"name":"Fear","rating":1}}],"weapons":[]}}]}}"#
        )
    }

    /// The game system names the edition (Firefight's books carry GF's versionString); a rating
    /// the edition's rule does not take is dropped, once in the warnings, not refused.
    #[test]
    fn a_book_is_read_under_its_game_systems_edition_and_fits_any_other() {
        assert_eq!(ArmyBook::from_json(&book(FIREFIGHT_SLUG), None).unwrap().edition, Edition::Firefight3_2);
        assert_eq!(ArmyBook::from_json(&book("grimdark-future"), None).unwrap().edition, Edition::V3_5);
        let v2 = ArmyBook::from_json(&book("grimdark-future"), Some(Edition::V2)).unwrap();
        assert_eq!(v2.units[0].unit.groups[0].rules[0].rule, Rule::new("Fear", None));
        assert_eq!(v2.warnings.len(), 1);
        assert!(v2.warnings[0].starts_with("Fear(1): the rule takes no rating in Grimdark Future v2.x"), "{:?}", v2.warnings);
        let ff = ArmyBook::from_json(&book("grimdark-future"), Some(Edition::Firefight3_2)).unwrap();
        assert_eq!((ff.units[0].unit.groups[0].rules[0].rule.number(), ff.warnings.len()), (Some(1), 0));
    }
}
