//! Small readers for the rulebook's notation shared by weapons, units and lists:
//! `2x Heavy Rifle (24", A1, AP(1))`, `Tough(3)`, `1x Brood Leader(Pheromones)`.
//! Every reader reports errors with the position in the caller's whole text.

use crate::error::{Error, Result};
use crate::limits::MAX_TEXT;
use crate::rules::{check_name, Rating, Rule};

pub fn check_length(text: &str) -> Result<()> {
    if text.len() > MAX_TEXT {
        return Err(Error::limit("text", format!("{} bytes", text.len()), format!("{MAX_TEXT} bytes")));
    }
    Ok(())
}

/// Splits at commas outside brackets, trimming each part; returns (byte offset, part).
/// Errors on unbalanced brackets.
pub fn split_top_level<'a>(s: &'a str, offset: usize, whole: &str, field: &str) -> Result<Vec<(usize, &'a str)>> {
    let mut parts = Vec::new();
    let mut depth: i32 = 0;
    let mut start = 0;
    for (i, c) in s.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => {
                depth -= 1;
                if depth < 0 {
                    return Err(Error::parse(field, c.to_string(), offset + i, whole, "closing bracket without an opening one"));
                }
            }
            ',' if depth == 0 => {
                parts.push(trimmed(s, start, i, offset));
                start = i + 1;
            }
            _ => {}
        }
    }
    if depth != 0 {
        return Err(Error::parse(field, s.trim(), offset, whole, "unbalanced brackets"));
    }
    parts.push(trimmed(s, start, s.len(), offset));
    Ok(parts)
}

fn trimmed(s: &str, start: usize, end: usize, offset: usize) -> (usize, &str) {
    let part = &s[start..end];
    let lead = part.len() - part.trim_start().len();
    (offset + start + lead, part.trim())
}

/// Reads a leading copy count `12x ` and returns (count, bytes consumed).
pub fn count_prefix(s: &str) -> Option<(u64, usize)> {
    let digits = s.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return None;
    }
    // any number of digits: a count too large for a u64 is u64::MAX, refused by the caller's
    // limit (not read as part of a name); "2x(A3)" is a count before an empty name, so that
    // what is read prints as it reads back
    let n = s[..digits].parse().unwrap_or(u64::MAX);
    match s[digits..].as_bytes() {
        [b'x', b' ', ..] => Some((n, digits + 2)),
        [b'x', b'(', ..] => Some((n, digits + 1)),
        _ => None,
    }
}

/// For text ending in `)`, the byte index of the matching `(`.
pub fn matching_open(s: &str) -> Option<usize> {
    if !s.ends_with(')') {
        return None;
    }
    let mut depth = 0;
    for (i, c) in s.char_indices().rev() {
        match c {
            ')' => depth += 1,
            '(' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

/// Reads `Name` or `Name(X)`; the edition's checks are the caller's.
pub fn parse_rule(token: &str, offset: usize, whole: &str, field: &str) -> Result<Rule> {
    let token_trimmed = token.trim();
    let lead = token.len() - token.trim_start().len();
    let at = offset + lead;
    if token_trimmed.is_empty() {
        return Err(Error::parse(field, token, at, whole, "expected a rule name"));
    }
    let (name, rating) = match matching_open(token_trimmed) {
        Some(open) => {
            let inner = &token_trimmed[open + 1..token_trimmed.len() - 1];
            if inner.trim().is_empty() {
                return Err(Error::parse(field, token_trimmed, at, whole, "empty brackets: write the rating or leave the brackets out"));
            }
            (&token_trimmed[..open], Some(Rating::from_text(inner)))
        }
        None if token_trimmed.contains(['(', ')']) => {
            return Err(Error::parse(field, token_trimmed, at, whole, "unbalanced brackets"));
        }
        None => (token_trimmed, None),
    };
    let name = check_name(field, name).map_err(|e| e.at_position(at, whole))?;
    Ok(Rule::new(name, rating))
}
