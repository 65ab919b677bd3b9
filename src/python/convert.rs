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

/// An int as an error message shows it: in full up to 128 bits (39 digits), else by its size (Python
/// refuses to print an int of over 4,300 digits, and a message need not hold it).
pub fn shown_int(obj: &Bound<'_, PyAny>) -> String {
    let bits: u64 = obj.call_method0("bit_length").and_then(|b| b.extract()).unwrap_or(u64::MAX);
    if bits <= 128 {
        return obj.to_string();
    }
    let digits = (bits as f64 * std::f64::consts::LOG10_2).floor() as u64 + 1;
    let sign = if obj.lt(0).unwrap_or(false) { "-" } else { "" };
    format!("{sign}an int of about {digits} digits")
}

/// A whole number in `[min, max]`: a Python int or anything that is one (`__index__`: numpy's
/// integers); bools and floats are a `TypeError`.
pub fn int_in(obj: &Bound<'_, PyAny>, field: &str, min: i64, max: i64) -> PyResult<i64> {
    let is_int = obj.is_instance_of::<PyInt>() || (!obj.is_instance_of::<pyo3::types::PyFloat>() && obj.hasattr("__index__").unwrap_or(false));
    if obj.is_instance_of::<PyBool>() || !is_int {
        return Err(type_error(field, "an int", &type_name(obj)));
    }
    // a Python int as it is; anything else (numpy's integers) through its __index__
    let indexed;
    let obj = if obj.is_instance_of::<PyInt>() {
        obj
    } else {
        indexed = obj.call_method0("__index__").map_err(|_| type_error(field, "an int", &type_name(obj)))?;
        &indexed
    };
    let value: i64 = obj.extract().map_err(|_| -> PyErr {
        if obj.lt(0).unwrap_or(false) { Error::invalid(field, shown_int(obj), format!("must be {min} or more")).into() } else { Error::limit(field, shown_int(obj), max).into() }
    })?;
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
