//! Weapon profiles: `[Nx ]Name (Range", A#, Rules...)`; no range means a melee weapon.

use crate::edition::Edition;
use crate::error::{Error, Result};
use crate::limits::{MAX_ATTACKS, MAX_RANGE, MAX_WEAPON_COUNT};
use crate::notation;
use crate::rules::{canonical, check_name, Rule};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub struct Weapon {
    pub name: String,
    /// Inches; `None` for a melee weapon.
    pub range: Option<u32>,
    pub attacks: u32,
    /// Copies of this weapon in the unit (the `5x` of `5x Heavy Rifle`).
    pub count: u32,
    pub rules: Vec<Rule>,
}

impl Weapon {
    pub fn new(name: &str, range: Option<u32>, attacks: u32, count: u32, rules: Vec<Rule>, edition: Edition) -> Result<Weapon> {
        let weapon = Weapon { name: check_name("weapon name", name)?, range, attacks, count, rules };
        weapon.check(edition)?;
        Ok(weapon)
    }

    /// The checks every weapon passes, however it was built (typed, parsed, read from a book,
    /// multiplied by an upgrade, unpickled).
    pub fn check(&self, edition: Edition) -> Result<()> {
        let Weapon { name, range, attacks, count, rules } = self;
        let (range, attacks, count) = (*range, *attacks, *count);
        check_name("weapon name", name)?;
        if range == Some(0) {
            return Err(Error::invalid("weapon range", 0, "must be at least 1 inch; melee weapons have no range (None)"));
        }
        if let Some(r) = range {
            if r > MAX_RANGE {
                return Err(Error::limit("weapon range", format!("{r}\""), format!("{MAX_RANGE}\"")));
            }
        }
        if attacks > MAX_ATTACKS {
            return Err(Error::limit("weapon attacks", attacks, MAX_ATTACKS));
        }
        if count == 0 {
            return Err(Error::invalid("weapon count", 0, "must be 1 or more"));
        }
        if count > MAX_WEAPON_COUNT {
            return Err(Error::limit("weapon count", count, MAX_WEAPON_COUNT));
        }
        for rule in rules {
            rule.check(edition)?;
        }
        Ok(())
    }

    /// Parses the rulebook notation, e.g. `2x Heavy Rifle (24", A1, AP(1))` or `CCW (A1)`.
    pub fn parse(text: &str, edition: Edition) -> Result<Weapon> {
        notation::check_length(text)?;
        Weapon::parse_at(text, 0, text, edition)
    }

    /// Parses a weapon that sits at byte `offset` of a larger text `whole` (errors point into it).
    pub fn parse_at(text: &str, offset: usize, whole: &str, edition: Edition) -> Result<Weapon> {
        let lead = text.len() - text.trim_start().len();
        let text = text.trim();
        let at = offset + lead;
        if text.is_empty() {
            return Err(Error::parse("weapon", "", at, whole, "expected a weapon such as Rifle (24\", A1)"));
        }
        let (count, skip) = match notation::count_prefix(text) {
            Some((n, skip)) => {
                let n = u32::try_from(n).ok().filter(|n| *n <= MAX_WEAPON_COUNT).ok_or_else(|| {
                    Error::limit("weapon count", n, MAX_WEAPON_COUNT)
                })?;
                (n, skip)
            }
            None => (1, 0),
        };
        let body = &text[skip..];
        let body_at = at + skip;
        if body.matches('(').count() != body.matches(')').count() {
            return Err(Error::parse("weapon", body, body_at, whole, "unbalanced brackets"));
        }
        let open = notation::matching_open(body).ok_or_else(|| {
            Error::parse("weapon", body, body_at, whole, "expected a profile in brackets after the name, e.g. Rifle (24\", A1)")
        })?;
        let name = check_name("weapon name", &body[..open]).map_err(|e| e.at_position(body_at, whole))?;
        let inner = &body[open + 1..body.len() - 1];
        let inner_at = body_at + open + 1;
        let parts = notation::split_top_level(inner, inner_at, whole, "weapon")?;
        let mut parts = parts.into_iter().peekable();

        let mut range = None;
        if let Some((pos, first)) = parts.peek().copied() {
            if let Some(inches) = first.strip_suffix('"').or_else(|| first.strip_suffix('”')) {
                let r: u32 = inches.trim().parse().map_err(|_| {
                    Error::parse("weapon range", first, pos, whole, "expected a whole number of inches such as 24\"")
                })?;
                range = Some(r);
                parts.next();
            }
        }
        let (pos, attacks_text) = parts.next().ok_or_else(|| {
            Error::parse("weapon attacks", inner, inner_at, whole, "expected attacks such as A1")
        })?;
        let attacks: u32 = attacks_text
            .strip_prefix('A')
            .filter(|d| !d.is_empty() && d.len() <= 9 && d.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| Error::parse("weapon attacks", attacks_text, pos, whole, "expected 'A' and a whole number, such as A2"))?;
        let mut rules = Vec::new();
        for (pos, token) in parts {
            rules.push(notation::parse_rule(token, pos, whole, "weapon rule")?);
        }
        Weapon::new(&name, range, attacks, count, rules, edition).map_err(|e| e.at_position(at, whole))
    }

    pub fn is_melee(&self) -> bool {
        self.range.is_none()
    }

    pub fn rule(&self, name: &str) -> Option<&Rule> {
        self.rules.iter().find(|r| r.name == name)
    }

    pub fn has_rule(&self, name: &str) -> bool {
        self.rule(name).is_some()
    }

    /// The same profile with another copy count.
    pub fn with_count(&self, count: u32) -> Weapon {
        Weapon { count, ..self.clone() }
    }

    /// True when both are the same weapon profile, whatever their copy counts.
    pub fn same_profile(&self, other: &Weapon) -> bool {
        self.name == other.name
            && self.range == other.range
            && self.attacks == other.attacks
            && self.rules.len() == other.rules.len()
            && self.rules.iter().all(|r| {
                self.rules.iter().filter(|x| *x == r).count() == other.rules.iter().filter(|x| *x == r).count()
            })
    }

    /// The profile without the copy count: `Heavy Rifle (24", A1, AP(1))`.
    /// (Written into one string: a shot plan labels its groups with it.)
    pub fn profile(&self) -> String {
        use std::fmt::Write;
        let mut out = String::with_capacity(self.name.len() + 16 * (self.rules.len() + 2));
        out.push_str(&self.name);
        out.push_str(" (");
        if let Some(r) = self.range {
            let _ = write!(out, "{r}\", ");
        }
        let _ = write!(out, "A{}", self.attacks);
        for r in &self.rules {
            let _ = write!(out, ", {r}");
        }
        out.push(')');
        out
    }
}

impl Weapon {
    /// What equality, hashing and ordering look at: the rules as a set.
    fn key(&self) -> (&str, Option<u32>, u32, u32, Vec<&Rule>) {
        (&self.name, self.range, self.attacks, self.count, canonical(&self.rules))
    }
}

impl PartialEq for Weapon {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Weapon {}

impl Hash for Weapon {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.key().hash(state);
    }
}

impl PartialOrd for Weapon {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Weapon {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl fmt::Display for Weapon {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count != 1 {
            write!(f, "{}x ", self.count)?;
        }
        f.write_str(&self.profile())
    }
}
