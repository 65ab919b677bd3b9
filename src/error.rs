//! The one error type of the core. Every failure names the field, the bad value and, for
//! text, the position, so the binding layer can turn it into a clear `ValueError`.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Error {
    /// A value of the right kind but outside what the rules allow (quality 7, size 0, ...).
    Invalid { field: String, value: String, reason: String },
    /// Text in the rulebook's notation that could not be read. `value` is ready to print
    /// (text slices are quoted when the error is made).
    Parse { field: String, value: String, position: usize, text: String, reason: String },
    /// JSON that is not an Army Forge army book (or list): `path` says where, e.g. `units[3] (id qMjB0Rk)`.
    Book { path: String, reason: String },
    /// An input larger than the library will take, refused before it can eat the machine.
    Limit { field: String, value: String, limit: String },
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    /// The error with `place` before its field ("attackers[2] against targets[0]: distance"),
    /// for a batch that names the item an error came from.
    pub fn in_item(self, place: &str) -> Error {
        let at = |field: String| format!("{place}: {field}");
        match self {
            Error::Invalid { field, value, reason } => Error::Invalid { field: at(field), value, reason },
            Error::Limit { field, value, limit } => Error::Limit { field: at(field), value, limit },
            other => other,
        }
    }

    pub fn invalid(field: impl Into<String>, value: impl fmt::Display, reason: impl Into<String>) -> Self {
        Error::Invalid { field: field.into(), value: value.to_string(), reason: reason.into() }
    }

    pub fn parse(
        field: impl Into<String>,
        value: impl Into<String>,
        position: usize,
        text: &str,
        reason: impl Into<String>,
    ) -> Self {
        Error::Parse {
            field: field.into(),
            value: format!("{:?}", value.into()),
            position,
            text: text.to_string(),
            reason: reason.into(),
        }
    }

    pub fn book(path: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::Book { path: path.into(), reason: reason.into() }
    }

    pub fn limit(field: impl Into<String>, value: impl fmt::Display, limit: impl fmt::Display) -> Self {
        Error::Limit { field: field.into(), value: value.to_string(), limit: limit.to_string() }
    }

    /// A value error found while reading text, reported at `position` of `text`.
    pub fn at_position(self, position: usize, text: &str) -> Self {
        match self {
            Error::Invalid { field, value, reason } => Error::Parse { field, value, position, text: text.to_string(), reason },
            other => other,
        }
    }

    /// Prefixes the path of a book error (`units[3]` + `weapons[1]`).
    pub fn at(self, prefix: &str) -> Self {
        match self {
            Error::Book { path, reason } => {
                let path = if path.is_empty() { prefix.to_string() } else { format!("{prefix}.{path}") };
                Error::Book { path, reason }
            }
            Error::Invalid { field, value, reason } => {
                Error::Book { path: prefix.to_string(), reason: format!("{field} {value}: {reason}") }
            }
            Error::Parse { field, value, reason, .. } => {
                Error::Book { path: prefix.to_string(), reason: format!("{field} {value}: {reason}") }
            }
            Error::Limit { field, value, limit } => {
                Error::Book { path: prefix.to_string(), reason: format!("{field} {value} is over the limit of {limit}") }
            }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Invalid { field, value, reason } => write!(f, "{field}: {reason} (got {value})"),
            Error::Parse { field, value, position, text, reason } => {
                write!(f, "{field}: {reason}, got {value} at position {position} in {:?}", shorten(text))
            }
            Error::Book { path, reason } => write!(f, "not an Army Forge army book: {path}: {reason}"),
            Error::Limit { field, value, limit } => {
                write!(f, "{field}: {value} is over the limit of {limit} this library accepts")
            }
        }
    }
}

impl std::error::Error for Error {}

/// Long inputs are cut in messages so an error never floods a notebook.
fn shorten(text: &str) -> String {
    const MAX: usize = 200;
    if text.chars().count() <= MAX {
        text.to_string()
    } else {
        let head: String = text.chars().take(MAX).collect();
        format!("{head}...")
    }
}
