//! Special rules as written on profiles: a name and an optional rating (`AP(1)`, `Tough(3)`,
//! `Spawn(Spores [5])`). Which names an edition knows, and which take a number, is the data
//! in [`catalog`].

pub mod catalog;
pub mod army;
pub mod army_firefight;
pub mod census;
pub mod effects;
pub mod index;
pub mod names;
pub mod spells;

use crate::edition::Edition;
use crate::error::{Error, Result};
use crate::limits::{MAX_NAME, MAX_RATING};
use crate::notation;
use std::fmt;

pub use catalog::{RuleSpec, Scope};
pub use index::RuleId;

/// The value in a rule's brackets. Core `(X)` rules take a whole number; army-book rules
/// sometimes take text (`Spawn(Spores [5])`), which is kept as written.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub enum Rating {
    Number(i64),
    Text(String),
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rating::Number(n) => write!(f, "{n}"),
            Rating::Text(t) => f.write_str(t),
        }
    }
}

impl Rating {
    /// Reads a rating as written between brackets. `+3` reads as 3 (list exports write bonuses so).
    pub fn from_text(text: &str) -> Rating {
        let t = text.trim();
        let signed = t.strip_prefix('+').unwrap_or(t);
        let digits = signed.strip_prefix('-').unwrap_or(signed);
        let numeric = !digits.is_empty() && digits.len() <= 12 && digits.bytes().all(|b| b.is_ascii_digit());
        match signed.parse::<i64>() {
            Ok(n) if numeric => Rating::Number(n),
            _ => Rating::Text(t.to_string()),
        }
    }

    pub fn as_number(&self) -> Option<i64> {
        match self {
            Rating::Number(n) => Some(*n),
            Rating::Text(_) => None,
        }
    }
}

/// One special rule on a profile, with the id of its name in the rule tables
/// ([`index::RuleId`]: the engines match rules by id, never by name).
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(from = "RuleText")]
pub struct Rule {
    /// Read it freely; never change it (the id would go stale): build another with `Rule::new`.
    pub name: String,
    pub rating: Option<Rating>,
    /// A function of `name`, set by [`Rule::new`] (private, so every rule is built there).
    #[serde(skip)]
    id: RuleId,
}

/// A rule as stored: its name and rating (the id is found again when it is read).
#[derive(serde::Deserialize)]
struct RuleText {
    name: String,
    rating: Option<Rating>,
}

impl From<RuleText> for Rule {
    fn from(r: RuleText) -> Rule {
        Rule::new(r.name, r.rating)
    }
}

impl Rule {
    pub fn new(name: impl Into<String>, rating: Option<Rating>) -> Rule {
        let name = name.into();
        let id = RuleId::of(&name);
        Rule { name, rating, id }
    }

    /// The id of the rule's name in the rule tables.
    #[inline]
    pub fn id(&self) -> RuleId {
        self.id
    }

    /// Whether two rules have the same name (by id for names the tables use).
    #[inline]
    pub fn same_name(&self, other: &Rule) -> bool {
        self.id == other.id && (!self.id.is_none() || self.name == other.name)
    }

    /// Parses `Name` or `Name(X)`.
    pub fn parse(text: &str, edition: Edition) -> Result<Rule> {
        notation::check_length(text)?;
        let rule = notation::parse_rule(text, 0, text, "rule")?;
        rule.check(edition).map_err(|e| e.at_position(0, text))?;
        Ok(rule)
    }

    pub fn spec(&self, edition: Edition) -> Option<&'static RuleSpec> {
        catalog::lookup(edition, &self.name)
    }

    pub fn is_known(&self, edition: Edition) -> bool {
        self.spec(edition).is_some()
    }

    /// The number in brackets, if there is one.
    pub fn number(&self) -> Option<i64> {
        self.rating.as_ref().and_then(Rating::as_number)
    }

    pub fn check(&self, edition: Edition) -> Result<()> {
        if let Some(Rating::Number(n)) = &self.rating {
            // unsigned_abs: `abs` of i64::MIN overflows (and wraps to itself in release builds)
            if n.unsigned_abs() > MAX_RATING.unsigned_abs() {
                return Err(Error::limit(format!("rating of {}", self.name), n, MAX_RATING));
            }
        }
        if let Some(Rating::Text(t)) = &self.rating {
            if t.is_empty() {
                return Err(Error::invalid(format!("rating of {}", self.name), "''", "a rating in brackets may not be empty"));
            }
        }
        let Some(spec) = self.spec(edition) else { return Ok(()) };
        match (&self.rating, spec.rated) {
            (None, true) => Err(Error::invalid(
                format!("rating of {}", self.name),
                "nothing",
                format!("{} takes a number in {}, e.g. {}(1)", self.name, edition.title(), self.name),
            )),
            (Some(r), false) => Err(Error::invalid(
                format!("rating of {}", self.name),
                format!("{r:?}"),
                format!("{} takes no rating in {}", self.name, edition.title()),
            )),
            (Some(Rating::Text(t)), true) => Err(Error::invalid(
                format!("rating of {}", self.name),
                format!("{t:?}"),
                "must be a whole number",
            )),
            (Some(Rating::Number(n)), true) if *n < 1 => Err(Error::invalid(
                format!("rating of {}", self.name),
                n,
                "must be 1 or more",
            )),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.rating {
            None => f.write_str(&self.name),
            Some(r) => write!(f, "{}({})", self.name, r),
        }
    }
}

/// Names are trimmed, non-empty, of sane length and free of the notation's own brackets.
pub fn check_name(field: &str, name: &str) -> Result<String> {
    let trimmed = name.trim();
    if trimmed.is_empty() {
        return Err(Error::invalid(field, format!("{name:?}"), "may not be empty"));
    }
    if trimmed.chars().count() > MAX_NAME {
        return Err(Error::limit(field, format!("a name of {} characters", trimmed.chars().count()), format!("{MAX_NAME} characters")));
    }
    if let Some(c) = trimmed.chars().find(|c| matches!(c, '(' | ')' | '[' | ']' | '|' | ',' | '\n' | '\r' | '"')) {
        return Err(Error::invalid(field, format!("{trimmed:?}"), format!("may not contain {c:?}")));
    }
    if trimmed.chars().any(char::is_control) {
        return Err(Error::invalid(field, format!("{trimmed:?}"), "may not contain control characters"));
    }
    Ok(trimmed.to_string())
}

/// The elements of a list in a canonical order: profiles compare their rules (and units
/// their weapons) as sets, since `AP(1), Rending` and `Rending, AP(1)` are the same weapon,
/// while printing keeps the order the user wrote.
pub fn canonical<T: Ord>(items: &[T]) -> Vec<&T> {
    let mut sorted: Vec<&T> = items.iter().collect();
    sorted.sort();
    sorted
}
