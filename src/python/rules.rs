//! What the library knows of rule names: the names an edition knows, what the census says of
//! one, and the module setting that makes an unknown name an error.

use super::convert::edition;
use super::errors::{set_strict_default, strict_default};
use crate::rules::census;
use pyo3::prelude::*;

/// Every rule name the library knows under an edition (`census::known_names`).
#[pyfunction]
#[pyo3(signature = (edition="3.5"))]
pub fn _known_rule_names(edition: &str) -> PyResult<Vec<&'static str>> {
    Ok(census::known_names(self::edition(edition)?))
}

/// `(engines, gap kind, reason)` of a rule name (`census::coverage`), or `None` for a name
/// the library does not know: no engines means no engine plays it.
#[pyfunction]
#[pyo3(signature = (name, edition="3.5"))]
#[allow(clippy::type_complexity)]
pub fn _rule_coverage(name: &str, edition: &str) -> PyResult<Option<(Vec<&'static str>, Option<&'static str>, Option<&'static str>)>> {
    let coverage = census::coverage(self::edition(edition)?, name);
    Ok(coverage.map(|c| (c.engines.iter().map(|e| e.as_str()).collect(), c.gap.map(|(g, _)| g.as_str()), c.gap.map(|(_, r)| r))))
}

/// Sets what `strict=None` means; gives the setting it replaces.
#[pyfunction]
pub fn _set_strict(strict: bool) -> bool {
    set_strict_default(strict)
}

#[pyfunction]
pub fn _get_strict() -> bool {
    strict_default()
}
