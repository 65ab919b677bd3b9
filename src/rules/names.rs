//! Names nobody defines. A rule name that is neither known to the library under an edition
//! ([`census::known_names`]: its core rules and the army-book rules it models or lists as not
//! modelled) nor defined by the unit's own book is kept by name, but no engine can play it,
//! and it is most often a typo (`Tuogh(3)`, `APP(1)`). So every path that builds a unit or a
//! weapon reports it with the closest known names; the binding layer turns the report into a
//! warning, or an error in strict mode.

use super::{catalog, census, Rule};
use crate::edition::Edition;
use crate::profile::{ModelGroup, Unit, Weapon};
use rustc_hash::FxHashSet;
use std::sync::OnceLock;

/// Suggestions a report gives at most.
pub const MAX_SUGGESTIONS: usize = 3;
/// The least similarity a suggestion needs (the default cutoff of `difflib.get_close_matches`).
pub const CUTOFF: f64 = 0.6;
/// Places a report names for one unknown rule before it says "and N more".
const MAX_PLACES: usize = 3;

/// How alike two names are, from 0 to 1: Python's `difflib.SequenceMatcher(None, a, b).ratio()`
/// (twice the characters in matching blocks over the total length), so suggestions are the
/// ones Python users know from `get_close_matches`.
pub fn similarity(a: &str, b: &str) -> f64 {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let mut matched = 0;
    let mut ranges = vec![(0, a.len(), 0, b.len())];
    while let Some((alo, ahi, blo, bhi)) = ranges.pop() {
        // The longest common block, the earliest in `a` (then in `b`) among equals, as difflib picks it.
        let (mut best_i, mut best_j, mut best) = (alo, blo, 0);
        let mut prev = vec![0usize; bhi - blo + 1];
        for (i, ca) in a.iter().enumerate().take(ahi).skip(alo) {
            // row[d + 1]: the length of the common block ending at a[i] and b[blo + d]
            let mut row = vec![0usize; bhi - blo + 1];
            for (d, cb) in b[blo..bhi].iter().enumerate() {
                if ca == cb {
                    let k = prev[d] + 1;
                    row[d + 1] = k;
                    if k > best {
                        (best_i, best_j, best) = (i + 1 - k, blo + d + 1 - k, k);
                    }
                }
            }
            prev = row;
        }
        if best > 0 {
            matched += best;
            ranges.push((alo, best_i, blo, best_j));
            ranges.push((best_i + best, ahi, best_j + best, bhi));
        }
    }
    2.0 * matched as f64 / (a.len() + b.len()) as f64
}

/// The known names closest to `name`, closest first, at most [`MAX_SUGGESTIONS`]: a name equal
/// but for case first, then those at least [`CUTOFF`] alike (case ignored), ties by name.
pub fn close_names<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let lower = name.to_lowercase();
    let mut scored: Vec<(f64, &'a str)> = Vec::new();
    for k in known {
        if scored.iter().any(|(_, s)| *s == k) {
            continue;
        }
        let kl = k.to_lowercase();
        // difflib scores a candidate as sequence a against the typed word as b.
        let score = if kl == lower { 2.0 } else { similarity(&kl, &lower) };
        if score >= CUTOFF {
            scored.push((score, k));
        }
    }
    scored.sort_by(|x, y| y.0.total_cmp(&x.0).then_with(|| x.1.cmp(y.1)));
    scored.into_iter().take(MAX_SUGGESTIONS).map(|(_, k)| k).collect()
}

/// The library's known names under an edition, as a list (for suggestions, in census order)
/// and a set (every unit built looks its names up).
struct Library {
    names: Vec<&'static str>,
    set: FxHashSet<&'static str>,
}

fn library(edition: Edition) -> &'static Library {
    static ALL: OnceLock<Vec<Library>> = OnceLock::new();
    let all = ALL.get_or_init(|| {
        Edition::ALL
            .iter()
            .map(|&e| {
                let names = census::known_names(e);
                Library { set: names.iter().copied().collect(), names }
            })
            .collect()
    });
    &all[Edition::ALL.iter().position(|&e| e == edition).expect("every edition is in Edition::ALL")]
}

/// The names a check accepts: the library's known names under an edition and the names a book
/// defines in its `specialRules`.
pub struct KnownNames<'a> {
    edition: Edition,
    library: &'static Library,
    book: &'a [String],
}

impl<'a> KnownNames<'a> {
    pub fn new(edition: Edition, book: &'a [String]) -> Self {
        KnownNames { edition, library: library(edition), book }
    }

    pub fn knows(&self, name: &str) -> bool {
        self.library.set.contains(name) || self.book.iter().any(|b| b == name)
    }

    /// The closest known names, written with the rating the rule was given (`Tough(3)` for
    /// `Tuogh(3)`), except for a core rule that takes none.
    pub fn suggest(&self, rule: &Rule) -> Vec<String> {
        let known = self.library.names.iter().copied().chain(self.book.iter().map(String::as_str));
        close_names(&rule.name, known)
            .into_iter()
            .map(|name| match &rule.rating {
                Some(r) if catalog::lookup(self.edition, name).is_none_or(|s| s.rated) => format!("{name}({r})"),
                _ => name.to_string(),
            })
            .collect()
    }
}

/// A rule name nobody defines: the rule as first written, every place it is written
/// (`unit Grunts`, `unit Grunts, weapon Gun`) and the closest known names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unknown {
    pub rule: Rule,
    pub places: Vec<String>,
    pub suggestions: Vec<String>,
}

/// `; did you mean "A" or "B"?` for the closest names of units (quoted: unit names hold
/// spaces), or nothing when none is close.
pub fn did_you_mean(close: &[&str]) -> String {
    if close.is_empty() {
        return String::new();
    }
    format!("; did you mean {}?", close.iter().map(|c| format!("{c:?}")).collect::<Vec<_>>().join(" or "))
}

impl Unknown {
    /// `unit Grunts: Tuogh(3): unknown rule; did you mean Tough(3)?`
    pub fn message(&self) -> String {
        let mut places = self.places.iter().take(MAX_PLACES).cloned().collect::<Vec<_>>().join(", ");
        if self.places.len() > MAX_PLACES {
            places.push_str(&format!(" and {} more", self.places.len() - MAX_PLACES));
        }
        let advice = match self.suggestions.as_slice() {
            [] => " (kept by name; no engine plays it)".to_string(),
            [one] => format!("; did you mean {one}?"),
            [init @ .., last] => format!("; did you mean {} or {last}?", init.join(", ")),
        };
        format!("{places}: {}: unknown rule{advice}", self.rule)
    }
}

/// One report for a whole book or list (`army book Hives: ...`): a line per unknown name, as
/// [`Unknown::message`] writes it.
pub fn summary(source: &str, unknown: &[Unknown]) -> String {
    let lines: Vec<String> = unknown.iter().map(|u| format!("  {}", u.message())).collect();
    let s = if unknown.len() == 1 { "" } else { "s" };
    format!("{source}: {} unknown rule{s}, kept by name (no engine plays them):\n{}", unknown.len(), lines.join("\n"))
}

/// Collects the unknown rule names of units and weapons, each name once with every place.
pub struct NameCheck<'a> {
    known: KnownNames<'a>,
    found: Vec<Unknown>,
}

impl<'a> NameCheck<'a> {
    pub fn new(edition: Edition, book: &'a [String]) -> Self {
        NameCheck { known: KnownNames::new(edition, book), found: Vec::new() }
    }

    pub fn rule(&mut self, rule: &Rule, place: &str) {
        if self.known.knows(&rule.name) {
            return;
        }
        match self.found.iter_mut().find(|u| u.rule.name == rule.name) {
            Some(u) => {
                if !u.places.iter().any(|p| p == place) {
                    u.places.push(place.to_string());
                }
            }
            None => {
                let suggestions = self.known.suggest(rule);
                self.found.push(Unknown { rule: rule.clone(), places: vec![place.to_string()], suggestions });
            }
        }
    }

    /// A weapon's rules; `owner` is where the weapon is (`unit Grunts`), if anywhere.
    pub fn weapon(&mut self, weapon: &Weapon, owner: Option<&str>) {
        let place = match owner {
            Some(owner) => format!("{owner}, weapon {}", weapon.name),
            None => format!("weapon {}", weapon.name),
        };
        for rule in &weapon.rules {
            self.rule(rule, &place);
        }
    }

    /// A model group's own rules (unit rules and items' rules), not its weapons.
    pub fn group_rules(&mut self, group: &ModelGroup) {
        let place = format!("unit {}", group.name);
        for (rule, _) in group.rules_with_models() {
            self.rule(rule, &place);
        }
    }

    /// Every rule of a unit: each group's rules and weapons.
    pub fn unit(&mut self, unit: &Unit) {
        for group in &unit.groups {
            self.group_rules(group);
            let owner = format!("unit {}", group.name);
            for weapon in &group.weapons {
                self.weapon(weapon, Some(&owner));
            }
        }
    }

    pub fn finish(self) -> Vec<Unknown> {
        self.found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(name: &str, rating: Option<i64>) -> Rule {
        Rule::new(name.to_string(), rating.map(super::super::Rating::Number))
    }

    #[test]
    fn similarity_is_difflibs_ratio() {
        // Values from Python: difflib.SequenceMatcher(None, a, b).ratio()
        assert_eq!(similarity("tough", "tuogh"), 0.8);
        assert_eq!(similarity("ap", "app"), 0.8);
        assert_eq!(similarity("abcd", "bcda"), 0.75);
        assert_eq!(similarity("", ""), 1.0);
        assert_eq!(similarity("abc", ""), 0.0);
        // The block difflib picks first (earliest in a) decides what else can match.
        assert!((similarity("fearless", "fearles") - 14.0 / 15.0).abs() < 1e-12);
        assert!((similarity("abxcd", "cdxab") - 0.4).abs() < 1e-12);
    }

    #[test]
    fn close_names_put_a_case_match_first_and_stop_at_three() {
        assert_eq!(close_names("fearless", ["Fear", "Fearless"]), ["Fearless", "Fear"]);
        assert_eq!(close_names("Tuogh", ["Tough", "Hero", "Slow"]), ["Tough"]);
        assert_eq!(close_names("Zzz", ["Tough"]), Vec::<&str>::new());
        assert_eq!(close_names("abcd", ["abce", "abcf", "abcg", "abch"]).len(), 3);
    }

    #[test]
    fn suggestions_keep_the_rating_unless_the_rule_takes_none() {
        let known = KnownNames::new(Edition::V3_5, &[]);
        assert!(!known.knows("Tuogh"));
        assert_eq!(known.suggest(&rule("Tuogh", Some(3))), ["Tough(3)"]);
        assert_eq!(known.suggest(&rule("APP", Some(1)))[0], "AP(1)");
        assert_eq!(known.suggest(&rule("Fearles", Some(2)))[0], "Fearless");
    }

    #[test]
    fn a_book_defines_names_and_a_report_names_the_place() {
        let book = vec!["Moonwalk".to_string()];
        let mut check = NameCheck::new(Edition::V3_5, &book);
        check.rule(&rule("Moonwalk", None), "unit A");
        check.rule(&rule("Tuogh", Some(3)), "unit A");
        check.rule(&rule("Tuogh", Some(6)), "unit B");
        check.rule(&rule("Zzyzx", None), "unit B");
        let found = check.finish();
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].message(), "unit A, unit B: Tuogh(3): unknown rule; did you mean Tough(3)?");
        assert_eq!(found[1].message(), "unit B: Zzyzx: unknown rule (kept by name; no engine plays it)");
        assert_eq!(
            summary("army book X", &found),
            "army book X: 2 unknown rules, kept by name (no engine plays them):\n  unit A, unit B: Tuogh(3): unknown rule; did you mean Tough(3)?\n  unit B: Zzyzx: unknown rule (kept by name; no engine plays it)"
        );
        let mut check = NameCheck::new(Edition::V3_5, &book);
        for place in ["a", "b", "c", "d", "e"] {
            check.rule(&rule("Zzyzx", None), place);
        }
        assert!(check.finish()[0].message().starts_with("a, b, c and 2 more: Zzyzx"));
    }

    #[test]
    fn every_known_name_is_known() {
        for edition in Edition::ALL {
            let known = KnownNames::new(edition, &[]);
            for name in census::known_names(edition) {
                assert!(known.knows(name), "{name}");
                assert_eq!(known.suggest(&rule(name, None))[0], name);
            }
        }
    }
}
