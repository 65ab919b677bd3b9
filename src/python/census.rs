//! The rule census for Python: which engines play each rule name, or why none does.

use super::convert::edition;
use crate::rules::census;
use pyo3::prelude::*;

/// One census row: (engines, gap kind or None, reason or None); `None` for a name neither the
/// edition's core nor the books define.
type Row = Option<(Vec<&'static str>, Option<&'static str>, Option<&'static str>)>;

#[pyfunction]
#[pyo3(signature = (names, *, edition))]
pub fn _rule_census(names: Vec<String>, edition: &str) -> PyResult<Vec<Row>> {
    let e = self::edition(edition)?;
    Ok(names
        .iter()
        .map(|n| {
            census::coverage(e, n).map(|c| (c.engines.iter().map(|x| x.as_str()).collect(), c.gap.map(|(g, _)| g.as_str()), c.gap.map(|(_, r)| r)))
        })
        .collect())
}
