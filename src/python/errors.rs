//! The one place where core errors become Python exceptions: every core error is a bad
//! value, so it is a `ValueError` carrying the core's message (field, value, position).
//! Rule names nobody defines are reported here too: a warning, or a `ValueError` when strict.

use crate::error::Error;
use pyo3::exceptions::{PyTypeError, PyUserWarning, PyValueError};
use pyo3::prelude::*;
use pyo3::PyErr;
use std::ffi::CString;
use std::sync::atomic::{AtomicBool, Ordering};

impl From<Error> for PyErr {
    fn from(error: Error) -> PyErr {
        PyValueError::new_err(error.to_string())
    }
}

/// A `TypeError` naming the argument and what it should have been.
pub fn type_error(field: &str, expected: &str, got: &str) -> PyErr {
    PyTypeError::new_err(format!("{field}: expected {expected}, got {got}"))
}

pyo3::create_exception!(
    oprstats,
    UnknownRuleWarning,
    PyUserWarning,
    "A rule name that neither the library nor the unit's book defines: it is kept by name, but no engine plays it."
);

/// The module setting `oprstats.set_strict`: what `strict=None` means.
static STRICT: AtomicBool = AtomicBool::new(false);

pub fn strict_default() -> bool {
    STRICT.load(Ordering::Relaxed)
}

/// Sets the module setting and gives the one it replaces.
pub fn set_strict_default(strict: bool) -> bool {
    STRICT.swap(strict, Ordering::Relaxed)
}

/// Reports rule names nobody defines, one message each: a `ValueError` naming them all when
/// `strict` (or, when `None`, the module setting) says so, else one `UnknownRuleWarning` per
/// message. `stacklevel` 1 points the warning at the Python line calling the binding; the
/// loaders' wrappers pass 2, so it points at their caller.
pub fn report_unknown(py: Python<'_>, messages: &[String], strict: Option<bool>, stacklevel: i32) -> PyResult<()> {
    if messages.is_empty() {
        return Ok(());
    }
    if strict.unwrap_or_else(strict_default) {
        return Err(PyValueError::new_err(messages.join("\n")));
    }
    let category = py.get_type::<UnknownRuleWarning>();
    for message in messages {
        // Names and rules hold no NUL (the notation refuses control characters).
        let text = CString::new(message.replace('\0', "")).expect("no NUL left");
        PyErr::warn(py, category.as_any(), &text, stacklevel)?;
    }
    Ok(())
}
