//! The one place where core errors become Python exceptions: every core error is a bad
//! value, so it is a `ValueError` carrying the core's message (field, value, position).

use crate::error::Error;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::PyErr;

impl From<Error> for PyErr {
    fn from(error: Error) -> PyErr {
        PyValueError::new_err(error.to_string())
    }
}

/// A `TypeError` naming the argument and what it should have been.
pub fn type_error(field: &str, expected: &str, got: &str) -> PyErr {
    PyTypeError::new_err(format!("{field}: expected {expected}, got {got}"))
}
