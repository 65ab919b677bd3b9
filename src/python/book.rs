//! Army books, their upgrade options, and army lists, as read-only Python objects.

use super::convert::{edition, int_in, type_name};
use super::errors::{report_list, report_unknown, run, type_error};
use super::profile::{from_state, to_state, BookRules, PyUnit, PyWeapon};
use crate::edition::Edition;
use crate::loaders::army_forge::SpellDefinition;
use crate::loaders::{Army, ArmyBook, Gain, Selector};
use crate::rules::{catalog, names};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};
use std::sync::Arc;

fn selector_text(s: Option<Selector>) -> Option<String> {
    s.map(|s| match s {
        Selector::All => "all".to_string(),
        Selector::Any => "any".to_string(),
        Selector::Exactly(n) => format!("exactly {n}"),
        Selector::UpTo(n) => format!("up to {n}"),
    })
}

/// One upgrade a unit may take, priced for that unit.
#[pyclass(name = "UpgradeOption", module = "oprstats", frozen, get_all)]
pub struct PyUpgradeOption {
    /// The upgrade package's hint, e.g. "Leader Weapons".
    package: String,
    /// The section label, e.g. "Replace one Heavy Rifle".
    section: String,
    /// `replace`, `upgrade` or `attachment`.
    variant: String,
    /// Weapons a `replace` section replaces.
    targets: Vec<String>,
    /// How many models the section affects: "all", "any", "exactly 1", "up to 2", or None.
    affects: Option<String>,
    /// How many options may be picked: "any", "exactly 1", "up to 2", or None.
    select: Option<String>,
    label: String,
    /// The option's price for this unit in points (can be negative).
    cost: i64,
    weapons: Vec<Py<PyWeapon>>,
    /// Rules gained, as written; items as `1x Name(Rules)`.
    rules: Vec<String>,
}

#[pymethods]
impl PyUpgradeOption {
    /// Pickling: its fields (the weapons pickle as weapons do).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyTuple>)> {
        let py = slf.py();
        let rebuild = py.import("oprstats._core")?.getattr("_upgrade_option_from_state")?;
        let o = slf.get();
        let weapons: Vec<Py<PyWeapon>> = o.weapons.iter().map(|w| w.clone_ref(py)).collect();
        let args = (o.package.clone(), o.section.clone(), o.variant.clone(), o.targets.clone(), o.affects.clone(), o.select.clone(), o.label.clone(), o.cost, weapons, o.rules.clone());
        Ok((rebuild, args.into_pyobject(py)?))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
        let py = other.py();
        let Ok(o) = other.cast::<PyUpgradeOption>() else { return Ok(py.NotImplemented()) };
        let o = o.get();
        let same = (&self.package, &self.section, &self.variant, &self.targets, &self.affects, &self.select, &self.label, self.cost, &self.rules)
            == (&o.package, &o.section, &o.variant, &o.targets, &o.affects, &o.select, &o.label, o.cost, &o.rules)
            && self.weapons.len() == o.weapons.len()
            && self.weapons.iter().zip(&o.weapons).all(|(a, b)| a.get().inner == b.get().inner);
        Ok(pyo3::types::PyBool::new(py, same).to_owned().into_any().unbind())
    }

    fn __repr__(&self) -> String {
        format!("UpgradeOption({:?}: {:?}, {:+}pts)", self.section, self.label, self.cost)
    }
}

/// Pickle support: an upgrade option back from its fields, its kind and counts checked.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
pub fn _upgrade_option_from_state(
    package: String,
    section: String,
    variant: String,
    targets: Vec<String>,
    affects: Option<String>,
    select: Option<String>,
    label: String,
    cost: i64,
    weapons: Vec<Py<PyWeapon>>,
    rules: Vec<String>,
) -> PyResult<PyUpgradeOption> {
    if !["replace", "upgrade", "attachment"].contains(&variant.as_str()) {
        return Err(crate::Error::invalid("pickled UpgradeOption variant", format!("{variant:?}"), "must be replace, upgrade or attachment").into());
    }
    if cost.abs() > crate::limits::MAX_COST {
        return Err(crate::Error::limit("pickled UpgradeOption cost", cost, crate::limits::MAX_COST).into());
    }
    if weapons.len() > crate::limits::MAX_ENTRIES || rules.len() > crate::limits::MAX_ENTRIES || targets.len() > crate::limits::MAX_ENTRIES {
        return Err(crate::Error::limit("pickled UpgradeOption entries", weapons.len().max(rules.len()).max(targets.len()), crate::limits::MAX_ENTRIES).into());
    }
    Ok(PyUpgradeOption { package, section, variant, targets, affects, select, label, cost, weapons, rules })
}

/// An Army Forge army book: its units with default loadouts and official costs, the
/// upgrade options with their per-unit prices, and the army's own rule definitions.
#[pyclass(name = "ArmyBook", module = "oprstats", frozen)]
pub struct PyArmyBook {
    inner: ArmyBook,
    /// The names of `specialRules` and the spells, for the book's units.
    book: Arc<BookRules>,
}

impl PyArmyBook {
    fn unit_value(&self, unit: crate::profile::Unit) -> PyUnit {
        PyUnit::of_book(unit, self.inner.edition, self.book.clone())
    }

    fn find(&self, key: &Bound<'_, PyAny>) -> PyResult<&crate::loaders::BookUnit> {
        let found = if let Ok(u) = key.cast::<PyUnit>() {
            let unit = &u.get().inner;
            self.inner.units.iter().find(|b| &b.unit == unit)
        } else if let Ok(name) = key.extract::<String>() {
            self.inner.unit(&name).or_else(|| self.inner.unit_by_id(&name))
        } else {
            return Err(type_error("unit", "a unit name, id or Unit", &type_name(key)));
        };
        found.ok_or_else(|| {
            let asked = key.repr().map(|r| r.to_string()).unwrap_or_default();
            let close = key.extract::<String>().map(|n| crate::rules::names::close_names(&n, self.inner.units.iter().map(|u| u.unit.name()))).unwrap_or_default();
            let hint = crate::rules::names::did_you_mean(&close);
            crate::Error::invalid("unit", asked, format!("{} has no such unit (a name or id of one of its {} units){hint}", self.inner.name, self.inner.units.len())).into()
        })
    }
}

#[pymethods]
impl PyArmyBook {
    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }

    #[getter]
    fn uid(&self) -> &str {
        &self.inner.uid
    }

    /// The book's `versionString`, e.g. "3.5.1".
    #[getter]
    fn version(&self) -> &str {
        &self.inner.version
    }

    /// The edition key the book was read under, e.g. "3.5".
    #[getter]
    fn edition(&self) -> &'static str {
        self.inner.edition.key()
    }

    /// The game system the book is for (`gameSystemSlug`: "grimdark-future",
    /// "grimdark-future-firefight"), or None when the JSON does not say.
    #[getter]
    fn game_system(&self) -> Option<&str> {
        self.inner.game_system.as_deref()
    }

    /// The edition the book is for, from its game system and `versionString` (what it is
    /// read under when no `edition=` is given).
    #[getter]
    fn own_edition(&self) -> &'static str {
        crate::loaders::army_forge::book_edition(self.inner.game_system.as_deref(), &self.inner.version).key()
    }

    #[getter]
    fn units<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.units.iter().map(|b| self.unit_value(b.unit.clone())))
    }

    /// Army Forge ids of the units, in the order of `units`.
    #[getter]
    fn unit_ids<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.units.iter().map(|b| b.id.as_str()))
    }

    /// The army's own rules (`specialRules`): name -> rules text.
    #[getter]
    fn special_rules<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for r in &self.inner.special_rules {
            d.set_item(&r.name, &r.description)?;
        }
        Ok(d)
    }

    /// The army's spells (`spells`): name -> Spell (its value in tokens, whom it picks,
    /// what it does, the text the book prints).
    #[getter]
    fn spells<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for s in &self.inner.spells {
            d.set_item(&s.name, Py::new(py, super::spell::PySpell { inner: s.clone(), edition: self.inner.edition })?)?;
        }
        Ok(d)
    }

    /// What was read but could not be used (e.g. a unit naming a missing upgrade package).
    #[getter]
    fn warnings<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, &self.inner.warnings)
    }

    /// The unit with this name or Army Forge id (a `ValueError` naming the closest units if
    /// the book has none).
    fn unit(&self, name: &Bound<'_, PyAny>) -> PyResult<PyUnit> {
        Ok(self.unit_value(self.find(name)?.unit.clone()))
    }

    /// `book["Battle Brothers"]`: `unit`, with the mapping's `KeyError` (the same message).
    fn __getitem__(&self, name: &Bound<'_, PyAny>) -> PyResult<PyUnit> {
        let py = name.py();
        self.unit(name).map_err(|e| if e.is_instance_of::<pyo3::exceptions::PyValueError>(py) { pyo3::exceptions::PyKeyError::new_err(e.value(py).to_string()) } else { e })
    }

    /// `"Battle Brothers" in book`: a unit of that name or id (or that `Unit`).
    fn __contains__(&self, name: &Bound<'_, PyAny>) -> bool {
        self.find(name).is_ok()
    }

    /// `(army book uid, unit id)` of the unit this one is a sub-faction copy of, or None.
    fn synced_from(&self, unit: &Bound<'_, PyAny>) -> PyResult<Option<(String, String)>> {
        Ok(self.find(unit)?.synced_from.clone())
    }

    /// Every upgrade option the unit may take, priced for it (`costs[].unitId` in the JSON).
    fn upgrades(&self, py: Python<'_>, unit: &Bound<'_, PyAny>) -> PyResult<Vec<PyUpgradeOption>> {
        let book_unit = self.find(unit)?;
        let edition = self.inner.edition;
        let mut out = Vec::new();
        for o in self.inner.options_for(book_unit) {
            let mut weapons = Vec::new();
            let mut rules = Vec::new();
            for gain in &o.option.gains {
                match gain {
                    Gain::Weapon(w) => weapons.push(Py::new(py, PyWeapon { inner: w.clone(), edition })?),
                    Gain::Rule(r) => rules.push(r.to_string()),
                    Gain::Item { name, count, rules: item_rules, weapons: item_weapons } => {
                        if !item_rules.is_empty() {
                            let inner: Vec<String> = item_rules.iter().map(ToString::to_string).collect();
                            rules.push(format!("{count}x {name}({})", inner.join(", ")));
                        }
                        for w in item_weapons {
                            weapons.push(Py::new(py, PyWeapon { inner: w.clone(), edition })?);
                        }
                    }
                }
            }
            out.push(PyUpgradeOption {
                package: o.package.hint.clone(),
                section: o.section.label.clone(),
                variant: o.section.variant.clone(),
                targets: o.section.targets.clone(),
                affects: selector_text(o.section.affects),
                select: selector_text(o.section.select),
                label: o.option.label.clone(),
                cost: o.cost,
                weapons,
                rules,
            });
        }
        Ok(out)
    }

    /// The unit's loadouts with one upgrade option taken, priced officially: `(label, unit,
    /// option cost)`; the unit's `cost` is the default cost plus the option's. Options that
    /// do not fit the default loadout are left out; one that breaks a unit's checks is an error.
    fn variants(&self, unit: &Bound<'_, PyAny>) -> PyResult<Vec<(String, PyUnit, i64)>> {
        let book_unit = self.find(unit)?;
        Ok(self.inner.variants(book_unit)?.into_iter().map(|v| (v.label, self.unit_value(v.unit), v.option_cost)).collect())
    }

    /// The unit with several upgrade options taken together (labels as in `variants`),
    /// priced officially: the default cost plus every option's.
    #[pyo3(signature = (unit, options))]
    fn loadout(&self, unit: &Bound<'_, PyAny>, options: &Bound<'_, PyAny>) -> PyResult<PyUnit> {
        let type_error = || pyo3::exceptions::PyTypeError::new_err(format!("options: expected a list of option labels (str), got {}", options.get_type().name().map(|n| n.to_string()).unwrap_or_default()));
        if options.is_instance_of::<pyo3::types::PyString>() {
            return Err(type_error());
        }
        let options: Vec<String> = options.extract().map_err(|_| type_error())?;
        let book_unit = self.find(unit)?;
        Ok(self.unit_value(self.inner.loadout(book_unit, &options)?.unit))
    }

    fn __len__(&self) -> usize {
        self.inner.units.len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.units(py)?.into_any().try_iter()?.into_any())
    }

    fn __repr__(&self) -> String {
        format!("ArmyBook({:?}, version={:?}, units={})", self.inner.name, self.inner.version, self.inner.units.len())
    }

    /// Jupyter's rich display: its units as a table (`oprstats._display`).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("oprstats._display")?.call_method1("army_book_html", (slf,))?.extract()
    }

    /// Pickles the book's fields themselves (rebuilt by `_army_book_from_state`).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let rebuild = slf.py().import("oprstats._core")?.getattr("_army_book_from_state")?;
        Ok((rebuild, (to_state(&slf.get().inner)?,)))
    }
}

/// An army list: units in play order, copies expanded, heroes joined.
#[pyclass(name = "Army", module = "oprstats", frozen)]
pub struct PyArmy {
    inner: Army,
    edition: Edition,
    /// What each unit's book defines for it (one per unit: a caster casts its own book's
    /// spells, "picked from their own faction").
    books: Vec<Arc<BookRules>>,
}

#[pymethods]
impl PyArmy {
    #[new]
    #[pyo3(signature = (units, *, name="", points_limit=None))]
    fn new(units: &Bound<'_, PyAny>, name: &str, points_limit: Option<&Bound<'_, PyAny>>) -> PyResult<Self> {
        let points_limit = match points_limit.filter(|p| !p.is_none()) {
            Some(p) => Some(int_in(p, "points_limit", 0, crate::limits::MAX_COST)? as u32),
            None => None,
        };
        let iter = units.try_iter().map_err(|_| type_error("units", "a sequence of Unit", &type_name(units)))?;
        let mut list = Vec::new();
        let mut edition = Edition::default();
        let mut books: Vec<Arc<BookRules>> = Vec::new();
        for item in iter {
            let item = item?;
            let u = item.cast::<PyUnit>().map_err(|_| type_error("units item", "a Unit", &type_name(&item)))?;
            edition = u.get().edition;
            if list.len() >= crate::limits::MAX_ARMY_UNITS {
                return Err(crate::Error::limit("units", "more units", crate::limits::MAX_ARMY_UNITS).into());
            }
            list.push(u.get().inner.clone());
            books.push(u.get().book.clone());
        }
        Ok(PyArmy {
            inner: Army { name: name.to_string(), game: None, version: None, points_limit, units: list },
            edition,
            books,
        })
    }

    #[getter]
    fn name(&self) -> &str {
        &self.inner.name
    }

    /// Game system code from the list title (`GF`, `GFF`), if given.
    #[getter]
    fn game(&self) -> Option<&str> {
        self.inner.game.as_deref()
    }

    #[getter]
    fn version(&self) -> Option<&str> {
        self.inner.version.as_deref()
    }

    /// The edition key the list was read under, e.g. "firefight-3.2".
    #[getter]
    fn edition(&self) -> &'static str {
        self.edition.key()
    }

    #[getter]
    fn points_limit(&self) -> Option<u32> {
        self.inner.points_limit
    }

    /// Points of all units whose cost is known.
    #[getter]
    fn points(&self) -> u32 {
        self.inner.points()
    }

    #[getter]
    fn units<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.inner.units.iter().zip(&self.books).map(|(u, b)| PyUnit::of_book(u.clone(), self.edition, b.clone())))
    }

    fn __len__(&self) -> usize {
        self.inner.units.len()
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.units(py)?.into_any().try_iter()?.into_any())
    }

    fn __repr__(&self) -> String {
        format!("Army({:?}, units={}, points={})", self.inner.name, self.inner.units.len(), self.inner.points())
    }

    /// Jupyter's rich display: its units as a table (`oprstats._display`).
    fn _repr_html_(slf: &Bound<'_, Self>) -> PyResult<String> {
        slf.py().import("oprstats._display")?.call_method1("army_html", (slf,))?.extract()
    }

    /// Pickles the list's fields themselves (rebuilt by `_army_from_state`).
    #[allow(clippy::type_complexity)]
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String, &'static str, Vec<String>, String))> {
        let rebuild = slf.py().import("oprstats._core")?.getattr("_army_from_state")?;
        let me = slf.get();
        let defined = me.books.iter().flat_map(|b| b.defined.iter().cloned()).fold(Vec::new(), |mut v: Vec<String>, n| {
            if !v.contains(&n) {
                v.push(n);
            }
            v
        });
        let spells: Vec<&[SpellDefinition]> = me.books.iter().map(|b| &*b.spells).collect();
        Ok((rebuild, (to_state(&me.inner)?, me.edition.key(), defined, to_state(&spells)?)))
    }
}

/// Reads an army book from JSON text (the Python wrapper handles paths and dicts). Rule
/// names neither the library nor the book defines are reported once for the whole book, at
/// the wrapper's caller.
#[pyfunction]
#[pyo3(signature = (text, edition=None, strict=None))]
pub fn _load_army_book_json(py: Python<'_>, text: &str, edition: Option<&str>, strict: Option<bool>) -> PyResult<PyArmyBook> {
    let edition = edition.map(self::edition).transpose()?;
    let (inner, unknown) = run(py, || {
        ArmyBook::from_json(text, edition).map(|b| {
            let unknown = b.unknown_rules();
            (b, unknown)
        })
    })?;
    if !unknown.is_empty() {
        report_unknown(py, &[names::summary(&format!("army book {}", inner.name), &unknown)], strict, 2)?;
    }
    let book = BookRules::of(&inner);
    Ok(PyArmyBook { inner, book })
}

/// Reads an army list from the Army Forge text export, with the rule names and spells its
/// `books` define. Unknown names are reported once for the whole list, at the wrapper's caller.
/// With no `edition`: the one its title names (`[GFF 300pts]`), else its books' (all read
/// under one edition), else the current one.
#[pyfunction]
#[pyo3(signature = (text, edition=None, strict=None, books=Vec::new()))]
pub fn _load_army_list_text(py: Python<'_>, text: &str, edition: Option<&str>, strict: Option<bool>, books: Vec<PyRef<'_, PyArmyBook>>) -> PyResult<PyArmy> {
    let of_books = books.first().map(|b| b.inner.edition).filter(|e| books.iter().all(|b| b.inner.edition == *e));
    let edition = match edition {
        Some(e) => self::edition(e)?,
        None => crate::loaders::army_list::list_edition(text).or(of_books).unwrap_or_default(),
    };
    let inner = run(py, || Army::parse(text, edition))?;
    // read against its books: the wrong books refused, unknown units and costs reported
    let found = inner.against_books(&books.iter().map(|b| &b.inner).collect::<Vec<_>>())?;
    report_list(py, &found, strict)?;
    let all = BookRules::merge(books.iter().map(|b| &*b.book));
    let unknown = inner.unknown_rules(edition, &all.defined);
    if !unknown.is_empty() {
        let source = if inner.name.is_empty() { "army list".to_string() } else { format!("army list {}", inner.name) };
        report_unknown(py, &[names::summary(&source, &unknown)], strict, 2)?;
    }
    // each unit's spells are its own book's: the book with a unit of its name (a joined Hero
    // that casts brings its book's)
    let spells_of = |name: &str| books.iter().find(|b| b.inner.units.iter().any(|u| u.unit.name() == name)).map(|b| b.book.spells.clone());
    let unit_books = inner
        .units
        .iter()
        .map(|u| {
            let hero_casts = u.groups.get(1).is_some_and(|h| h.rules.iter().any(|r| matches!(r.rule.name.as_str(), "Caster" | "Caster Group")));
            let own = if hero_casts { spells_of(&u.groups[1].name) } else { None }.or_else(|| spells_of(&u.groups[0].name));
            Arc::new(BookRules { defined: all.defined.clone(), spells: own.unwrap_or_default() })
        })
        .collect();
    Ok(PyArmy { inner, edition, books: unit_books })
}

/// Pickle support: an army list from its fields, each unit checked as every unit is.
#[pyfunction]
#[pyo3(signature = (state, edition, defined, spells=None))]
pub fn _army_from_state(state: &str, edition: &str, defined: Vec<String>, spells: Option<&str>) -> PyResult<PyArmy> {
    // `spells`: each unit's book's, as JSON
    let edition = self::edition(edition)?;
    let inner: Army = from_state(state, "Army")?;
    for unit in &inner.units {
        unit.check(edition)?;
    }
    let lists: Vec<Vec<SpellDefinition>> = match spells {
        Some(json) => from_state(json, "spells")?,
        None => Vec::new(),
    };
    if !lists.is_empty() && lists.len() != inner.units.len() {
        return Err(crate::Error::invalid("pickled spells", lists.len(), format!("must give one list per unit ({})", inner.units.len())).into());
    }
    let mut books = Vec::with_capacity(inner.units.len());
    for i in 0..inner.units.len() {
        let json = lists.get(i).map(|l| to_state(l)).transpose()?;
        books.push(BookRules::from_state(defined.clone(), json.as_deref(), edition)?);
    }
    Ok(PyArmy { inner, edition, books })
}

/// Pickle support: an army book from its fields, each unit checked as every unit is.
#[pyfunction]
pub fn _army_book_from_state(state: &str) -> PyResult<PyArmyBook> {
    let inner: ArmyBook = from_state(state, "ArmyBook")?;
    for b in &inner.units {
        b.unit.check(inner.edition)?;
    }
    let book = BookRules::of(&inner);
    Ok(PyArmyBook { inner, book })
}

/// `(key, title, rulebook file)` of every edition, the default first.
#[pyfunction]
pub fn _editions() -> Vec<(&'static str, &'static str, &'static str)> {
    Edition::ALL.iter().map(|e| (e.key(), e.title(), e.source())).collect()
}

/// `(name, takes a rating, "unit" or "weapon")` of every core rule of an edition.
#[pyfunction]
#[pyo3(signature = (edition="3.5"))]
pub fn _known_rules(edition: &str) -> PyResult<Vec<(&'static str, bool, &'static str)>> {
    let edition = self::edition(edition)?;
    Ok(catalog::catalog(edition).iter().map(|s| (s.name, s.rated, s.scope.as_str())).collect())
}
