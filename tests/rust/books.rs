//! The loader on the 43 real Army Forge books in `../shared/data/opr/`.

mod common;

use oprstats::loaders::{ArmyBook, Gain};
use oprstats::{Edition, Weapon};
use serde_json::Value;

fn books() -> Vec<(String, String)> {
    let Some(dir) = common::books_dir() else { return Vec::new() };
    let mut files: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()).collect();
    files.sort();
    files
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect()
}

#[test]
fn all_43_books_load_with_1013_units() {
    let books = books();
    if books.is_empty() {
        return;
    }
    assert_eq!(books.len(), 43);
    let mut units = 0;
    for (path, text) in &books {
        let book = ArmyBook::from_json(text, None).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert_eq!(book.edition, Edition::V3_5, "{path}");
        let raw: Value = serde_json::from_str(text).unwrap();
        assert_eq!(book.units.len(), raw["units"].as_array().unwrap().len());
        for (bu, ru) in book.units.iter().zip(raw["units"].as_array().unwrap()) {
            assert_eq!(bu.unit.cost(), Some(ru["cost"].as_u64().unwrap() as u32));
            assert_eq!(bu.unit.size(), ru["size"].as_u64().unwrap() as u32);
            // Every rule of the JSON is kept (unit rules and item rules), none dropped.
            let n_rules = ru["rules"].as_array().unwrap().len();
            assert!(bu.unit.main().rules.len() == n_rules);
        }
        units += book.units.len();
    }
    assert_eq!(units, 1013);
}

/// Every weapon label in every book (unit weapons, item contents and upgrade gains) parses
/// to the JSON's own profile and prints back to the same label.
#[test]
fn every_weapon_label_round_trips() {
    let mut checked = 0;
    for (path, text) in books() {
        let book = ArmyBook::from_json(&text, None).unwrap();
        let raw: Value = serde_json::from_str(&text).unwrap();
        let mut labels = Vec::new();
        collect_labels(&raw, &mut labels);
        let mut weapons: Vec<&Weapon> = book.units.iter().flat_map(|u| u.unit.weapons()).collect();
        for p in &book.packages {
            for s in &p.sections {
                for o in &s.options {
                    for g in &o.gains {
                        match g {
                            Gain::Weapon(w) => weapons.push(w),
                            Gain::Item { weapons: ws, .. } => weapons.extend(ws.iter()),
                            Gain::Rule(_) => {}
                        }
                    }
                }
            }
        }
        for label in &labels {
            let parsed = Weapon::parse(label, Edition::V3_5).unwrap_or_else(|e| panic!("{path}: {label}: {e}"));
            // Labels print back exactly (one real label has a stray leading space).
            assert_eq!(parsed.to_string(), label.trim(), "{path}");
            assert!(weapons.iter().any(|w| w.same_profile(&parsed)), "{path}: {label} matches no loaded weapon");
            checked += 1;
        }
    }
    if checked > 0 {
        assert!(checked > 5000, "only {checked} labels");
    }
}

fn collect_labels(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            if o.get("type").and_then(Value::as_str) == Some("ArmyBookWeapon") || o.contains_key("attacks") {
                if let Some(l) = o.get("label").and_then(Value::as_str) {
                    out.push(l.to_string());
                }
            }
            o.values().for_each(|x| collect_labels(x, out));
        }
        Value::Array(a) => a.iter().for_each(|x| collect_labels(x, out)),
        _ => {}
    }
}

/// Every rule name the real books use is known to the library or defined by its book, so
/// loading them reports nothing (see `rules::names`).
#[test]
fn real_books_use_no_unknown_rule_names() {
    let mut unknown = Vec::new();
    for (path, text) in books() {
        let book = ArmyBook::from_json(&text, None).unwrap();
        unknown.extend(book.unknown_rules().iter().map(|u| format!("{path}: {}", u.message())));
    }
    assert!(unknown.is_empty(), "{unknown:#?}");
}

/// Every spell of the 43 books is read from its structured effect, and written back it
/// says what the book prints (up to the books' own slips of grammar).
#[test]
fn every_spell_reads_as_the_book_prints_it() {
    let books = books();
    if books.is_empty() {
        return;
    }
    let (mut spells, mut damage) = (0, 0);
    for (path, text) in &books {
        let book = ArmyBook::from_json(text, None).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(book.warnings.iter().all(|w| !w.starts_with("spells")), "{path}: {:?}", book.warnings);
        for s in &book.spells {
            let spell = s.spell.as_ref().unwrap_or_else(|| panic!("{path}: {} was not read", s.name));
            let printed = oprstats::rules::spells::normalized(&s.effect);
            assert_eq!(oprstats::rules::spells::normalized(&spell.text()), printed, "{path}: {}", s.name);
            // a damage spell is a group of hits the attack engines roll
            if let oprstats::rules::spells::SpellEffect::Hits { hits, .. } = &spell.effect {
                let group = spell.hits_group(Edition::V3_5).unwrap();
                assert!(group.dice == *hits && *hits > 0, "{path}: {}", s.name);
                damage += 1;
            }
            spells += 1;
        }
    }
    assert_eq!((spells, damage), (258, 129));
}
