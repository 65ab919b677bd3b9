//! Strict reading of Python arguments: ints that are really ints (not bools or floats),
//! sequences of rule strings that are not a lone string, editions by key.

use super::errors::type_error;
use crate::edition::Edition;
use crate::error::Error;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt, PyString};

pub fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".to_string())
}

/// A whole number in `[min, max]`; bools and floats are a `TypeError`.
pub fn int_in(obj: &Bound<'_, PyAny>, field: &str, min: i64, max: i64) -> PyResult<i64> {
    if obj.is_instance_of::<PyBool>() || !obj.is_instance_of::<PyInt>() {
        return Err(type_error(field, "an int", &type_name(obj)));
    }
    let value: i64 = obj.extract().map_err(|_| Error::limit(field, obj.to_string(), max))?;
    if value < min {
        return Err(Error::invalid(field, value, format!("must be {min} or more")).into());
    }
    if value > max {
        return Err(Error::limit(field, value, max).into());
    }
    Ok(value)
}

/// A sequence of strings (a single string is refused: `rules="AP(1)"` is a common slip).
pub fn strings(obj: &Bound<'_, PyAny>, field: &str) -> PyResult<Vec<String>> {
    if obj.is_instance_of::<PyString>() {
        return Err(type_error(field, "a sequence of strings such as (\"AP(1)\",), not a single string", "str"));
    }
    let iter = obj.try_iter().map_err(|_| type_error(field, "a sequence of strings", &type_name(obj)))?;
    iter.map(|item| {
        let item = item?;
        item.extract::<String>().map_err(|_| type_error(&format!("{field} item"), "a str", &type_name(&item)))
    })
    .collect()
}

pub fn edition(key: &str) -> PyResult<Edition> {
    Ok(key.parse::<Edition>()?)
}
