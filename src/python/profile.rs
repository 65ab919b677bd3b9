//! `Weapon`, `Unit` and `Model`: immutable Python values around the core profiles. They
//! compare and hash by value, print in the rulebook notation and pickle their fields.

use super::convert::{edition, int_in, strings, type_name};
use super::errors::{report_unknown, type_error};
use crate::edition::Edition;
use crate::limits::{MAX_ATTACKS, MAX_COST, MAX_MODELS, MAX_RANGE, MAX_WEAPON_COUNT};
use crate::notation;
use crate::profile::unit::{parse_rule_entry, RuleEntry};
use crate::profile::{Model, ModelGroup, Unit, Weapon};
use crate::rules::names::{NameCheck, Unknown};
use crate::rules::Rule;
use pyo3::prelude::*;
use pyo3::PyClass;
use pyo3::types::{PyString, PyTuple};
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use crate::loaders::army_forge::{SpellDefinition, Spells};

pub fn hash_of<T: Hash>(value: &T) -> u64 {
    let mut h = DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

/// What `Weapon`, `Model` and `Unit` share as Python values: equality by the core value, and pickling
/// of the value's fields themselves (as JSON: the notation would not give back every value
/// exactly), rebuilt and checked by `REBUILD` under the edition the value was made for.
trait ProfileValue: PyClass<Frozen = pyo3::pyclass::boolean_struct::True> + Sync {
    type Core: PartialEq + serde::Serialize;
    const REBUILD: &'static str;
    fn core(&self) -> &Self::Core;
    fn edition(&self) -> Edition;
    /// What the value's book defines for it, carried through pickling.
    fn book(&self) -> Option<&BookRules> {
        None
    }
}

impl ProfileValue for PyWeapon {
    type Core = Weapon;
    const REBUILD: &'static str = "_weapon_from_state";
    fn core(&self) -> &Weapon {
        &self.inner
    }
    fn edition(&self) -> Edition {
        self.edition
    }
}

impl ProfileValue for PyModel {
    type Core = Model;
    const REBUILD: &'static str = "_model_from_state";
    fn core(&self) -> &Model {
        &self.inner
    }
    fn edition(&self) -> Edition {
        self.edition
    }
}

impl ProfileValue for PyUnit {
    type Core = Unit;
    const REBUILD: &'static str = "_unit_from_state";
    fn core(&self) -> &Unit {
        &self.inner
    }
    fn edition(&self) -> Edition {
        self.edition
    }
    fn book(&self) -> Option<&BookRules> {
        Some(&self.book)
    }
}

/// `==` between values of the same class; `NotImplemented` otherwise, as Python expects.
fn value_eq<T: ProfileValue>(me: &T, other: &Bound<'_, PyAny>) -> Py<PyAny> {
    let py = other.py();
    match other.cast::<T>() {
        Ok(o) => pyo3::types::PyBool::new(py, me.core() == o.get().core()).to_owned().into_any().unbind(),
        Err(_) => py.NotImplemented(),
    }
}

type Reduced<'py> = (Bound<'py, PyAny>, Bound<'py, PyTuple>);

fn value_reduce<'py, T: ProfileValue>(slf: &Bound<'py, T>) -> PyResult<Reduced<'py>> {
    let py = slf.py();
    let rebuild = py.import("oprstats._core")?.getattr(T::REBUILD)?;
    let me = slf.get();
    let (state, edition) = (to_state(me.core())?, me.edition().key());
    let mut args = vec![state.into_pyobject(py)?.into_any(), edition.into_pyobject(py)?.into_any()];
    if let Some(book) = me.book().filter(|b| !b.is_empty()) {
        args.extend(book.state(py)?);
    }
    let args = PyTuple::new(py, args)?;
    Ok((rebuild, args))
}

/// A value's fields as JSON, for pickling.
pub fn to_state<T: serde::Serialize + ?Sized>(value: &T) -> PyResult<String> {
    serde_json::to_string(value).map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("oprstats: cannot pickle: {e}")))
}

/// A value back from its pickled fields; `what` names it in errors.
pub fn from_state<T: serde::de::DeserializeOwned>(state: &str, what: &str) -> PyResult<T> {
    serde_json::from_str(state).map_err(|e| crate::Error::invalid(format!("pickled {what}"), "its state", e.to_string()).into())
}

/// Reports what a check found, one message per unknown name (see [`report_unknown`]).
fn report(py: Python<'_>, check: NameCheck<'_>, strict: Option<bool>) -> PyResult<()> {
    let messages: Vec<String> = check.finish().iter().map(Unknown::message).collect();
    report_unknown(py, &messages, strict, 1)
}

fn rule_strings<'py>(py: Python<'py>, rules: &[Rule]) -> PyResult<Bound<'py, PyTuple>> {
    PyTuple::new(py, rules.iter().map(Rule::to_string))
}

/// A weapon profile, e.g. `Weapon.parse('2x Heavy Rifle (24", A1, AP(1))')`.
#[pyclass(name = "Weapon", module = "oprstats", frozen)]
#[derive(Clone)]
pub struct PyWeapon {
    pub inner: Weapon,
    pub edition: Edition,
}

impl PyWeapon {
    /// A weapon made from the user's text or fields: its unknown rule names are reported.
    fn checked(py: Python<'_>, inner: Weapon, edition: Edition, strict: Option<bool>) -> PyResult<Self> {
        let mut check = NameCheck::new(edition, &[]);
        check.weapon(&inner, None);
        report(py, check, strict)?;
        Ok(PyWeapon { inner, edition })
    }
}

#[pymethods]
impl PyWeapon {
    #[new]
    #[pyo3(signature = (name, *, range=None, attacks, count=None, rules=None, edition="3.5", strict=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        name: &Bound<'_, PyAny>,
        range: Option<&Bound<'_, PyAny>>,
        attacks: &Bound<'_, PyAny>,
        count: Option<&Bound<'_, PyAny>>,
        rules: Option<&Bound<'_, PyAny>>,
        edition: &str,
        strict: Option<bool>,
    ) -> PyResult<Self> {
        let edition = self::edition(edition)?;
        let name: String = name.extract().map_err(|_| type_error("name", "a str", &type_name(name)))?;
        let range = match range.filter(|r| !r.is_none()) {
            Some(r) => Some(int_in(r, "range", 1, i64::from(MAX_RANGE))? as u32),
            None => None,
        };
        let attacks = int_in(attacks, "attacks", 0, i64::from(MAX_ATTACKS))? as u32;
        let count = match count {
            Some(c) => int_in(c, "count", 1, i64::from(MAX_WEAPON_COUNT))? as u32,
            None => 1,
        };
        let rules = parse_rules(rules, "rules")?;
        PyWeapon::checked(py, Weapon::new(&name, range, attacks, count, rules, edition)?, edition, strict)
    }

    /// Reads the rulebook notation: `[Nx ]Name (Range", A#, Rules...)`.
    #[staticmethod]
    #[pyo3(signature = (text, *, edition="3.5", strict=None))]
    fn parse(py: Python<'_>, text: &Bound<'_, PyAny>, edition: &str, strict: Option<bool>) -> PyResult<Self> {
        let edition = self::edition(edition)?;
        let text: String = text.extract().map_err(|_| type_error("text", "a str", &type_name(text)))?;
        PyWeapon::checked(py, Weapon::parse(&text, edition)?, edition, strict)
    }

    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }

    /// Range in inches, or `None` for a melee weapon.
    #[getter]
    fn range(&self) -> Option<u32> {
        self.inner.range
    }

    #[getter]
    fn attacks(&self) -> u32 {
        self.inner.attacks
    }

    #[getter]
    fn count(&self) -> u32 {
        self.inner.count
    }

    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        rule_strings(py, &self.inner.rules)
    }

    #[getter]
    fn is_melee(&self) -> bool {
        self.inner.is_melee()
    }

    /// The profile without the copy count.
    #[getter]
    fn profile(&self) -> String {
        self.inner.profile()
    }

    fn has_rule(&self, name: &str) -> bool {
        self.inner.has_rule(name)
    }

    /// The number rating of a rule (`AP(2)` gives 2), or `None`.
    fn rating(&self, name: &str) -> Option<i64> {
        self.inner.rule(name).and_then(Rule::number)
    }

    /// The same profile with another copy count.
    fn with_count(&self, count: &Bound<'_, PyAny>) -> PyResult<Self> {
        let count = int_in(count, "count", 1, i64::from(MAX_WEAPON_COUNT))? as u32;
        Ok(PyWeapon { inner: self.inner.with_count(count), edition: self.edition })
    }

    fn __repr__(&self) -> String {
        self.inner.to_string()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        value_eq(self, other)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.inner)
    }

    /// Jupyter's rich display (`oprstats._display`).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("oprstats._display")?.call_method1("weapon_html", (slf,))?.extract()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        value_reduce(slf)
    }
}

/// Pickle support: rebuilds a weapon from its fields, with the checks every weapon passes.
#[pyfunction]
pub fn _weapon_from_state(state: &str, edition: &str) -> PyResult<PyWeapon> {
    let edition = self::edition(edition)?;
    let inner: Weapon = from_state(state, "Weapon")?;
    inner.check(edition)?;
    Ok(PyWeapon { inner, edition })
}

/// Pickle support: rebuilds a model from its fields, with the checks a model passes.
#[pyfunction]
pub fn _model_from_state(state: &str, edition: &str) -> PyResult<PyModel> {
    let edition = self::edition(edition)?;
    let inner: Model = from_state(state, "Model")?;
    inner.check(edition)?;
    Ok(PyModel { inner, edition })
}

/// Pickle support of earlier versions: rebuilds a weapon from its notation.
#[pyfunction]
pub fn _weapon_from_text(text: &str, edition: &str) -> PyResult<PyWeapon> {
    let edition = self::edition(edition)?;
    Ok(PyWeapon { inner: Weapon::parse(text, edition)?, edition })
}

fn parse_rules(rules: Option<&Bound<'_, PyAny>>, field: &str) -> PyResult<Vec<Rule>> {
    let Some(rules) = rules.filter(|r| !r.is_none()) else { return Ok(Vec::new()) };
    strings(rules, field)?
        .iter()
        .map(|text| {
            notation::check_length(text)?;
            Ok(notation::parse_rule(text, 0, text, "rule")?)
        })
        .collect()
}

/// One model of a unit with what it carries.
#[pyclass(name = "Model", module = "oprstats", frozen)]
pub struct PyModel {
    inner: Model,
    edition: Edition,
}

#[pymethods]
impl PyModel {
    /// 0 for the unit's own models, 1 for a joined hero.
    #[getter]
    fn group(&self) -> usize {
        self.inner.group
    }

    #[getter]
    fn quality(&self) -> u8 {
        self.inner.quality
    }

    #[getter]
    fn defense(&self) -> u8 {
        self.inner.defense
    }

    #[getter]
    fn tough(&self) -> u32 {
        self.inner.tough
    }

    #[getter]
    fn is_hero(&self) -> bool {
        self.inner.hero
    }

    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        rule_strings(py, &self.inner.rules)
    }

    /// Weapons this model carries; `count` is its own copies.
    #[getter]
    fn weapons<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let edition = self.edition;
        PyTuple::new(py, self.inner.weapons.iter().map(|w| PyWeapon { inner: w.clone(), edition }))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        value_eq(self, other)
    }

    /// Pickling: the model's fields as JSON, rebuilt and checked by `_model_from_state`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        value_reduce(slf)
    }

    fn __repr__(&self) -> String {
        let weapons: Vec<String> = self.inner.weapons.iter().map(Weapon::to_string).collect();
        let rules: Vec<String> = self.inner.rules.iter().map(Rule::to_string).collect();
        format!(
            "Model(Q{}+ D{}+, tough={}{}, weapons=[{}], rules=[{}])",
            self.inner.quality,
            self.inner.defense,
            self.inner.tough,
            if self.inner.hero { ", hero" } else { "" },
            weapons.join(", "),
            rules.join(", ")
        )
    }
}

/// What a unit's army book (or an army list's books) defines for it: the rule names of its
/// `specialRules`, known for its units, and the spells its casters cast ("the Caster's
/// spells must be picked from their own faction"). Not part of the unit's value.
#[derive(Debug, Default, PartialEq)]
pub struct BookRules {
    pub defined: Vec<String>,
    pub spells: Spells,
}

impl BookRules {
    pub fn of(book: &crate::loaders::ArmyBook) -> Arc<BookRules> {
        Arc::new(BookRules { defined: book.defined_names(), spells: book.spells.clone().into() })
    }

    /// What several books define together (the books of a list, for the names known to its
    /// units): each name and each spell once.
    pub fn merge<'b>(parts: impl IntoIterator<Item = &'b BookRules>) -> Arc<BookRules> {
        let (mut defined, mut spells): (Vec<String>, Vec<SpellDefinition>) = (Vec::new(), Vec::new());
        for part in parts {
            defined.extend(part.defined.iter().filter(|n| !defined.contains(n)).cloned().collect::<Vec<_>>());
            spells.extend(part.spells.iter().filter(|s| !spells.contains(s)).cloned().collect::<Vec<_>>());
        }
        Arc::new(BookRules { defined, spells: spells.into() })
    }

    pub fn is_empty(&self) -> bool {
        self.defined.is_empty() && self.spells.is_empty()
    }

    /// Pickling: the names, and the spells as JSON.
    pub fn state<'py>(&self, py: Python<'py>) -> PyResult<[Bound<'py, PyAny>; 2]> {
        Ok([PyTuple::new(py, &self.defined)?.into_any(), to_state(&*self.spells)?.into_pyobject(py)?.into_any()])
    }

    /// Back from `state`, each spell checked as a book's are.
    pub fn from_state(defined: Vec<String>, spells: Option<&str>, edition: Edition) -> PyResult<Arc<BookRules>> {
        let spells: Vec<SpellDefinition> = match spells {
            Some(json) => from_state(json, "spells")?,
            None => Vec::new(),
        };
        for s in spells.iter().filter_map(|s| s.spell.as_ref()) {
            s.check(edition)?;
        }
        Ok(Arc::new(BookRules { defined, spells: spells.into() }))
    }
}

/// A unit profile, e.g. `Unit.parse("Grunts [10] Q5+ D5+ | 60pts | Fearless\n10x Rifle (24\", A1)")`.
#[pyclass(name = "Unit", module = "oprstats", frozen)]
#[derive(Clone)]
pub struct PyUnit {
    pub inner: Unit,
    pub edition: Edition,
    /// Rule names the unit's book defines (`specialRules`), known for this unit; not part of
    /// its value (equality and hash).
    pub book: Arc<BookRules>,
}

impl PyUnit {
    pub fn new_value(inner: Unit, edition: Edition) -> Self {
        PyUnit { inner, edition, book: Arc::default() }
    }

    /// A unit of a book (or of a list read with its books).
    pub fn of_book(inner: Unit, edition: Edition, book: Arc<BookRules>) -> Self {
        PyUnit { inner, edition, book }
    }

    fn like(&self, inner: Unit, edition: Edition) -> Self {
        PyUnit { inner, edition, book: self.book.clone() }
    }
}

#[pymethods]
impl PyUnit {
    #[new]
    #[pyo3(signature = (name, *, size, quality, defense, rules=None, weapons=None, cost=None, edition="3.5", strict=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        name: &Bound<'_, PyAny>,
        size: &Bound<'_, PyAny>,
        quality: &Bound<'_, PyAny>,
        defense: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
        weapons: Option<&Bound<'_, PyAny>>,
        cost: Option<&Bound<'_, PyAny>>,
        edition: &str,
        strict: Option<bool>,
    ) -> PyResult<Self> {
        let edition = self::edition(edition)?;
        let name: String = name.extract().map_err(|_| type_error("name", "a str", &type_name(name)))?;
        let size = int_in(size, "size", 1, i64::from(MAX_MODELS))? as u32;
        let quality = int_in(quality, "quality", i64::MIN, i64::MAX)?;
        let defense = int_in(defense, "defense", i64::MIN, i64::MAX)?;
        let score = |v: i64, field: &str| -> PyResult<u8> {
            if (2..=6).contains(&v) {
                Ok(v as u8)
            } else {
                Err(crate::Error::invalid(field, v, "must be from 2 to 6 (the score needed on a D6, as in Q3+ or D4+)").into())
            }
        };
        let (quality, defense) = (score(quality, "quality")?, score(defense, "defense")?);
        let cost = match cost.filter(|c| !c.is_none()) {
            Some(c) => Some(int_in(c, "cost", 0, MAX_COST)? as u32),
            None => None,
        };
        let mut unit_rules = Vec::new();
        let mut items = Vec::new();
        if let Some(rules) = rules.filter(|r| !r.is_none()) {
            for text in strings(rules, "rules")? {
                notation::check_length(&text)?;
                match parse_rule_entry(&text, 0, &text)? {
                    RuleEntry::Rule(r) => unit_rules.push(r),
                    RuleEntry::Item(i) => items.push(i),
                }
            }
        }
        let mut weapon_list = Vec::new();
        // Weapons given as values were checked when made, under their own edition.
        let mut checked = Vec::new();
        if let Some(weapons) = weapons.filter(|w| !w.is_none()) {
            if weapons.is_instance_of::<PyString>() {
                return Err(type_error("weapons", "a sequence of Weapon or str, not a single string", "str"));
            }
            let iter = weapons.try_iter().map_err(|_| type_error("weapons", "a sequence of Weapon or str", &type_name(weapons)))?;
            for item in iter {
                let item = item?;
                if let Ok(w) = item.cast::<PyWeapon>() {
                    weapon_list.push(w.get().inner.clone());
                    checked.push(w.get().edition == edition);
                } else if let Ok(text) = item.extract::<String>() {
                    weapon_list.push(Weapon::parse(&text, edition)?);
                    checked.push(false);
                } else {
                    return Err(type_error("weapons item", "a Weapon or str", &type_name(&item)));
                }
            }
        }
        let group = ModelGroup::new(&name, size, quality, defense, unit_rules, items, weapon_list, cost, edition)?;
        let mut check = NameCheck::new(edition, &[]);
        check.group_rules(&group);
        let owner = format!("unit {}", group.name);
        for (weapon, _) in group.weapons.iter().zip(&checked).filter(|(_, done)| !**done) {
            check.weapon(weapon, Some(&owner));
        }
        report(py, check, strict)?;
        Ok(PyUnit::new_value(Unit::single(group), edition))
    }

    /// Reads the Army Forge text form: a header line and a weapons line.
    #[staticmethod]
    #[pyo3(signature = (text, *, edition="3.5", strict=None))]
    fn parse(py: Python<'_>, text: &Bound<'_, PyAny>, edition: &str, strict: Option<bool>) -> PyResult<Self> {
        let edition = self::edition(edition)?;
        let text: String = text.extract().map_err(|_| type_error("text", "a str", &type_name(text)))?;
        let inner = Unit::parse(&text, edition)?;
        let mut check = NameCheck::new(edition, &[]);
        check.unit(&inner);
        report(py, check, strict)?;
        Ok(PyUnit::new_value(inner, edition))
    }

    #[getter]
    fn name(&self) -> &str {
        self.inner.name()
    }

    /// Models in the unit, a joined hero included.
    #[getter]
    fn size(&self) -> u32 {
        self.inner.size()
    }

    #[getter]
    fn quality(&self) -> u8 {
        self.inner.quality()
    }

    #[getter]
    fn defense(&self) -> u8 {
        self.inner.defense()
    }

    /// The edition the unit was read in (`edition=` of `Unit.parse`, or its book's): the
    /// edition its rule names are checked against, and the one a game of it is played in.
    #[getter]
    fn edition(&self) -> &'static str {
        self.edition.key()
    }

    /// Points for the whole unit, a joined hero included; `None` if unknown.
    #[getter]
    fn cost(&self) -> Option<u32> {
        self.inner.cost()
    }

    /// Wounds each of the unit's own models takes to kill (Tough(X), else 1).
    #[getter]
    fn tough(&self) -> u32 {
        self.inner.main().rating("Tough").map_or(1, |t| t.clamp(1, i64::from(u32::MAX)) as u32)
    }

    /// The unit's own rules as written (`"Fearless"`, `"5x Scout"`, `"1x Sergeant(Tough(3))"`).
    #[getter]
    fn rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let main = self.inner.main();
        let texts: Vec<String> = main.rules.iter().map(ToString::to_string).chain(main.items.iter().map(ToString::to_string)).collect();
        PyTuple::new(py, texts)
    }

    /// Every weapon of the unit (a joined hero's too) with its total copies.
    #[getter]
    fn weapons<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let edition = self.edition;
        let weapons: Vec<PyWeapon> = self.inner.weapons().map(|w| PyWeapon { inner: w.clone(), edition }).collect();
        PyTuple::new(py, weapons)
    }

    /// Every model with its Tough, Quality, Defense and weapons; a joined hero comes last.
    #[getter]
    fn models<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let edition = self.edition;
        PyTuple::new(py, self.inner.models().into_iter().map(|m| PyModel { inner: m, edition }))
    }

    /// The spells its casters may cast: its book's (`book.spells`), by name; empty for a unit
    /// not read from a book.
    #[getter]
    fn spells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        let d = pyo3::types::PyDict::new(py);
        for s in self.book.spells.iter() {
            d.set_item(&s.name, Py::new(py, super::spell::PySpell { inner: s.clone(), edition: self.edition })?)?;
        }
        Ok(d)
    }

    /// The joined hero as a unit of its own, or `None` (v2.x, where several may join: the first).
    #[getter]
    fn hero(&self) -> Option<PyUnit> {
        self.inner.groups.get(1).map(|g| self.like(Unit::single(g.clone()), self.edition))
    }

    /// Every joined hero, each as a unit of its own, in the order they joined (v2.x: "May be
    /// deployed as part of friendly units", several to one unit; else one at most).
    #[getter]
    fn heroes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let heroes = self.inner.groups[1..].iter().map(|g| Py::new(py, self.like(Unit::single(g.clone()), self.edition))).collect::<PyResult<Vec<_>>>()?;
        PyTuple::new(py, heroes)
    }

    /// The unit without its joined hero.
    #[getter]
    fn base(&self) -> PyUnit {
        self.like(Unit::single(self.inner.main().clone()), self.edition)
    }

    /// Whether any model of the unit (not a joined hero) has the rule.
    fn has_rule(&self, name: &str) -> bool {
        self.inner.main().has_rule(name)
    }

    /// A copy with the unit's own Quality, Defense, cost (the whole unit's, a joined hero's
    /// share kept) or number of models (its cost unchanged) changed; its book's rules and
    /// spells stay.
    #[pyo3(signature = (*, quality=None, defense=None, cost=None, models=None))]
    fn replace(
        &self,
        quality: Option<&Bound<'_, PyAny>>,
        defense: Option<&Bound<'_, PyAny>>,
        cost: Option<&Bound<'_, PyAny>>,
        models: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyUnit> {
        let whole = |name: &str, value: Option<&Bound<'_, PyAny>>, max: i64| -> PyResult<Option<i64>> {
            value.map(|v| super::convert::int_in(v, name, 0, max)).transpose()
        };
        let score = |name: &str, value| -> PyResult<Option<u8>> { Ok(whole(name, value, 255)?.map(|n| n as u8)) };
        let cost = whole("cost", cost, crate::limits::MAX_COST)?.map(|n| n as u32);
        let mut inner = self.inner.with_profile(score("quality", quality)?, score("defense", defense)?, cost, self.edition)?;
        if let Some(n) = whole("models", models, i64::from(u32::MAX))? {
            inner = inner.with_models(n as u32, self.edition)?;
        }
        Ok(self.like(inner, self.edition))
    }

    /// The unit with rules added to its own models (`"Furious"`, `"Tough(3)"`, an item as
    /// `"1x Banner(Fear(1))"`) and others taken away by name (any rating); its book's rules
    /// and spells stay. New rule names are checked as a new unit's are.
    #[pyo3(signature = (*, add=None, remove=None, strict=None))]
    fn with_rules(&self, py: Python<'_>, add: Option<&Bound<'_, PyAny>>, remove: Option<&Bound<'_, PyAny>>, strict: Option<bool>) -> PyResult<PyUnit> {
        let mut entries = Vec::new();
        let mut check = NameCheck::new(self.edition, &self.book.defined);
        let owner = format!("unit {}", self.inner.name());
        for text in add.filter(|a| !a.is_none()).map(|a| strings(a, "add")).transpose()?.unwrap_or_default() {
            notation::check_length(&text)?;
            let entry = parse_rule_entry(&text, 0, &text)?;
            match &entry {
                RuleEntry::Rule(r) => check.rule(&r.rule, &owner),
                RuleEntry::Item(x) => x.rules.iter().for_each(|r| check.rule(r, &owner)),
            }
            entries.push(entry);
        }
        let removed = remove.filter(|r| !r.is_none()).map(|r| strings(r, "remove")).transpose()?.unwrap_or_default();
        let inner = self.inner.with_rules(entries, &removed, self.edition)?;
        report(py, check, strict)?;
        Ok(self.like(inner, self.edition))
    }

    /// The unit with weapons added to its own models (a `Weapon` or its notation, counts as
    /// copies in the unit: `"10x Rifle (24\", A1, AP(2))"`) and others taken away by name;
    /// its book's rules and spells stay.
    #[pyo3(signature = (*, add=None, remove=None, strict=None))]
    fn with_weapons(&self, py: Python<'_>, add: Option<&Bound<'_, PyAny>>, remove: Option<&Bound<'_, PyAny>>, strict: Option<bool>) -> PyResult<PyUnit> {
        let mut weapons = Vec::new();
        let mut check = NameCheck::new(self.edition, &self.book.defined);
        let owner = format!("unit {}", self.inner.name());
        if let Some(add) = add.filter(|a| !a.is_none()) {
            if add.is_instance_of::<PyString>() {
                return Err(type_error("add", "a sequence of Weapon or str, not a single string", "str"));
            }
            let iter = add.try_iter().map_err(|_| type_error("add", "a sequence of Weapon or str", &type_name(add)))?;
            for item in iter {
                let item = item?;
                if let Ok(w) = item.cast::<PyWeapon>() {
                    weapons.push(w.get().inner.clone());
                } else if let Ok(text) = item.extract::<String>() {
                    let w = Weapon::parse(&text, self.edition)?;
                    check.weapon(&w, Some(&owner));
                    weapons.push(w);
                } else {
                    return Err(type_error("add item", "a Weapon or str", &type_name(&item)));
                }
            }
        }
        let removed = remove.filter(|r| !r.is_none()).map(|r| strings(r, "remove")).transpose()?.unwrap_or_default();
        let inner = self.inner.with_weapons(weapons, &removed, self.edition)?;
        report(py, check, strict)?;
        Ok(self.like(inner, self.edition))
    }

    /// The number rating of a unit rule (`Tough(3)` gives 3), or `None`.
    fn rating(&self, name: &str) -> Option<i64> {
        self.inner.main().rating(name)
    }

    /// The unit with `hero` joined to it (see the rulebook's Hero rule). Each part was checked
    /// for unknown rule names when it was made; a part made under another edition is checked
    /// again under this one.
    #[pyo3(signature = (hero, *, edition=None, strict=None))]
    fn join(&self, py: Python<'_>, hero: &Bound<'_, PyAny>, edition: Option<&str>, strict: Option<bool>) -> PyResult<PyUnit> {
        let hero = hero.cast::<PyUnit>().map_err(|_| type_error("hero", "a Unit", &type_name(hero)))?;
        let hero = hero.get();
        let edition = match edition {
            Some(e) => self::edition(e)?,
            None => self.edition,
        };
        let inner = self.inner.join(&hero.inner, edition)?;
        // the names both books define; the spells of the one whose model casts (the Hero's
        // when it does: "the Caster's spells must be picked from their own faction")
        let casts = |u: &Unit| ["Caster", "Caster Group"].iter().any(|n| u.main().has_rule(n));
        let spells = if casts(&hero.inner) || !casts(&self.inner) && self.book.spells.is_empty() { hero.book.spells.clone() } else { self.book.spells.clone() };
        let book = Arc::new(BookRules { defined: BookRules::merge([&*self.book, &*hero.book]).defined.clone(), spells });
        let mut check = NameCheck::new(edition, &book.defined);
        for part in [self, hero].into_iter().filter(|p| p.edition != edition) {
            check.unit(&part.inner);
        }
        report(py, check, strict)?;
        Ok(PyUnit::of_book(inner, edition, book))
    }

    /// Rule names on the unit or its weapons that neither the library knows under the
    /// edition (its core rules and the army-book rules it models or lists as not modelled)
    /// nor the unit's own book defines: kept by name, played by no engine, listed here so
    /// nothing is dropped silently.
    #[pyo3(signature = (*, edition=None))]
    fn unknown_rules<'py>(&self, py: Python<'py>, edition: Option<&str>) -> PyResult<Bound<'py, PyTuple>> {
        let edition = match edition {
            Some(e) => self::edition(e)?,
            None => self.edition,
        };
        PyTuple::new(py, self.inner.unknown_rules(edition, &self.book.defined))
    }

    fn __repr__(&self) -> String {
        self.inner.to_string()
    }

    fn __str__(&self) -> String {
        self.inner.to_string()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> Py<PyAny> {
        value_eq(self, other)
    }

    fn __hash__(&self) -> u64 {
        hash_of(&self.inner)
    }

    /// Jupyter's rich display (`oprstats._display`).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("oprstats._display")?.call_method1("unit_html", (slf,))?.extract()
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Reduced<'py>> {
        value_reduce(slf)
    }
}

/// Pickle support: rebuilds a unit from its fields, with the checks every unit passes and
/// the rule names its book defines (reported when it was first made: no report) and its
/// book's spells (as JSON).
#[pyfunction]
#[pyo3(signature = (state, edition, defined=Vec::new(), spells=None))]
pub fn _unit_from_state(state: &str, edition: &str, defined: Vec<String>, spells: Option<&str>) -> PyResult<PyUnit> {
    let edition = self::edition(edition)?;
    let inner: Unit = from_state(state, "Unit")?;
    inner.check(edition)?;
    Ok(PyUnit::of_book(inner, edition, BookRules::from_state(defined, spells, edition)?))
}

/// Pickle support of earlier versions: rebuilds a unit from its notation.
#[pyfunction]
#[pyo3(signature = (text, edition, defined=Vec::new()))]
pub fn _unit_from_text(text: &str, edition: &str, defined: Vec<String>) -> PyResult<PyUnit> {
    let edition = self::edition(edition)?;
    Ok(PyUnit::of_book(Unit::parse(text, edition)?, edition, Arc::new(BookRules { defined, spells: Arc::default() })))
}
