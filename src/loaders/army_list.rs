//! Army lists in the Army Forge text export ("Share as text"):
//!
//! ```text
//! ++ Strike Force (v3.5.1) [GF 2000pts] [5 Units] ++
//!
//! 2x Grunts [10] Q5+ D5+ | 60pts | Fearless
//! 10x Rifle (24", A1), 10x CCW (A1)
//! ```
//!
//! `2x` before a unit means two copies; a hero's block followed by `| Joined to:` is joined
//! to the unit after it.

use crate::edition::Edition;
use crate::error::{Error, Result};
use crate::limits::MAX_ARMY_UNITS;
use crate::notation;
use crate::loaders::ArmyBook;
use crate::profile::unit::{assemble, read_blocks, ModelGroup, Unit};
use crate::rules::names::{self, NameCheck, Unknown};

#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Army {
    pub name: String,
    /// Game system code from the title (`GF`, `GFF`), if given.
    pub game: Option<String>,
    /// Army book version from the title (`3.5.1`), if given.
    pub version: Option<String>,
    /// The points limit from the title (`[GF 2000pts]`), if given.
    pub points_limit: Option<u32>,
    pub units: Vec<Unit>,
}

impl Army {
    pub fn parse(text: &str, edition: Edition) -> Result<Army> {
        notation::check_length(text)?;
        let title = text.lines().map(str::trim).find(|l| !l.is_empty()).filter(|l| l.starts_with("++"));
        let (name, game, version, points_limit) = match title {
            Some(t) => parse_title(t),
            None => (String::new(), None, None, None),
        };
        let blocks = assemble(read_blocks(text, edition)?, text, edition)?;
        // counted before any copy is made: `1000x` on every line of a long list is millions of units
        let total = blocks.iter().map(|(copies, _, _)| u64::from(*copies)).sum::<u64>();
        if total > MAX_ARMY_UNITS as u64 {
            return Err(Error::limit("army list units (after the Nx copies)", total, MAX_ARMY_UNITS));
        }
        let mut units = Vec::with_capacity(total as usize);
        for (copies, _, unit) in blocks {
            for _ in 0..copies {
                units.push(unit.clone());
            }
        }
        if units.is_empty() {
            return Err(Error::parse("army list", text.trim(), 0, text, "found no units; expected lines such as: Grunts [10] Q5+ D5+ | 60pts"));
        }
        Ok(Army { name, game, version, points_limit, units })
    }

    /// Rule names the list's units use that neither the library knows under `edition` nor
    /// `book` (the `specialRules` names of the lists' books) defines.
    pub fn unknown_rules(&self, edition: Edition, book: &[String]) -> Vec<Unknown> {
        let mut check = NameCheck::new(edition, book);
        for unit in &self.units {
            check.unit(unit);
        }
        check.finish()
    }

    /// The list read against the books it was built from: each unit (and joined hero) found
    /// by name, and a unit that carries its book's default loadout priced as the book prices
    /// it. The wrong books (none of the list's units in them) are an error; the rest is
    /// reported, a message per finding (one per distinct unit), for the binding to warn or
    /// refuse under `strict`.
    pub fn against_books(&self, books: &[&ArmyBook]) -> Result<Vec<String>> {
        if books.is_empty() {
            return Ok(Vec::new());
        }
        let find = |name: &str| books.iter().find_map(|b| b.unit(name));
        let groups: Vec<&ModelGroup> = self.units.iter().flat_map(|u| u.groups.iter()).collect();
        let titles = books.iter().map(|b| format!("{:?}", b.name)).collect::<Vec<_>>().join(", ");
        if !groups.iter().any(|g| find(&g.name).is_some()) {
            let some: Vec<String> = books.iter().flat_map(|b| b.units.iter().map(|u| format!("{:?}", u.unit.name()))).take(3).collect();
            return Err(Error::invalid(
                "book",
                titles,
                format!("none of the list's {} units is in it (its units include {}): pass the list's own book", self.units.len(), some.join(", ")),
            ));
        }
        let mut messages = Vec::new();
        let (mut unknown, mut priced): (Vec<&str>, Vec<&ModelGroup>) = (Vec::new(), Vec::new());
        for g in groups {
            // each unknown name once, each distinct unit (loadout and cost) once
            if unknown.contains(&g.name.as_str()) || priced.contains(&g) {
                continue;
            }
            priced.push(g);
            let Some(book_unit) = find(&g.name) else {
                unknown.push(&g.name);
                let close = names::close_names(&g.name, books.iter().flat_map(|b| b.units.iter().map(|u| u.unit.name())));
                let hint = names::did_you_mean(&close);
                messages.push(format!("army list: unit {:?} is not in {titles}: read without its book's spells and rules{hint}", g.name));
                continue;
            };
            let book = &book_unit.unit.groups[0];
            let unpriced = |x: &ModelGroup| ModelGroup { cost: None, ..x.clone() };
            if let (Some(listed), Some(priced)) = (g.cost, book.cost) {
                if listed != priced && unpriced(g) == unpriced(book) {
                    messages.push(format!("army list: unit {:?} costs {listed}pts in the list and {priced}pts in its book with the same loadout; the list's cost is used", g.name));
                }
            }
        }
        Ok(messages)
    }

    /// Points of all units whose cost is known.
    pub fn points(&self) -> u32 {
        self.units.iter().filter_map(Unit::cost).sum()
    }
}

/// The edition a list's title names by its game system: Firefight v3.2 for Army Forge's
/// Firefight (`[GFF 300pts]`; its lists carry the books' version, 3.5.1, so the version
/// alone cannot tell), else none (a GF list is read under the edition asked for).
pub fn list_edition(text: &str) -> Option<Edition> {
    let title = text.lines().map(str::trim).find(|l| !l.is_empty()).filter(|l| l.starts_with("++"))?;
    let (_, game, _, _) = parse_title(title);
    game.filter(|g| g.eq_ignore_ascii_case("GFF")).map(|_| Edition::Firefight3_2)
}

/// Reads `++ Name (v3.5.1) [GF 2000pts] [5 Units] ++`; every part but the name is optional.
fn parse_title(line: &str) -> (String, Option<String>, Option<String>, Option<u32>) {
    let inner = line.trim_matches('+').trim();
    let mut name_end = inner.len();
    let mut version = None;
    let mut game = None;
    let mut limit = None;
    if let Some(open) = inner.find(" (") {
        name_end = name_end.min(open);
        if let Some(close) = inner[open..].find(')') {
            let v = inner[open + 2..open + close].trim();
            version = Some(v.trim_start_matches('v').to_string());
        }
    }
    for (i, _) in inner.match_indices('[') {
        name_end = name_end.min(i);
        let Some(close) = inner[i..].find(']') else { continue };
        let part = inner[i + 1..i + close].trim();
        if let Some(pts) = part.strip_suffix("pts") {
            let mut words = pts.split_whitespace();
            if let (Some(g), Some(p)) = (words.next(), words.next()) {
                game = Some(g.to_string());
                limit = p.parse().ok();
            } else if let Some(p) = pts.split_whitespace().next() {
                limit = p.parse().ok();
            }
        }
    }
    (inner[..name_end].trim().to_string(), game, version, limit)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_title_names_its_edition() {
        let title = |t: &str| list_edition(&format!("{t}\n\nGrunts [10] Q5+ D5+ | 60pts\n"));
        assert_eq!(title("++ Gang (v3.5.1) [GFF 300pts] [5 Units] ++"), Some(Edition::Firefight3_2));
        assert_eq!(title("++ Army (v3.5.1) [GF 2000pts] ++"), None);
        assert_eq!(title("++ Army [AoF 2000pts] ++"), None);
        assert_eq!(title("++ Army ++"), None);
        assert_eq!(list_edition("Grunts [10] Q5+ D5+ | 60pts"), None);
    }

    #[test]
    fn copies_are_counted_before_they_are_made() {
        let line = "1000x Grunts [10] Q5+ D5+ | 60pts\n10x Rifle (24\", A1)\n\n";
        assert_eq!(Army::parse(line, Edition::V3_5).unwrap().units.len(), 1000);
        match Army::parse(&line.repeat(2), Edition::V3_5) {
            Err(Error::Limit { value, .. }) => assert_eq!(value, "2000"),
            other => panic!("expected the units limit, got {other:?}"),
        }
    }
}
