//! `metagame()`: the equilibrium, the transitive/cyclic split and the prices of a win-rate
//! table, and of its resampled tables, computed with the GIL released and Ctrl-C watched.

use super::convert::type_name;
use super::errors::{run_stoppable, type_error};
use crate::error::Error;
use crate::metagame::{self, Table};
use numpy::{IntoPyArray, PyArrayMethods, PyReadonlyArray2, PyReadonlyArray3, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// A float64 array of `D` dimensions, read from an aligned copy when it is not aligned (an
/// array that came over the wire, from a Dask worker, may not be: numpy's view of it would
/// panic).
fn array<'py, D: numpy::ndarray::Dimension>(value: &Bound<'py, PyAny>, field: &str, expected: &str) -> PyResult<numpy::PyReadonlyArray<'py, f64, D>> {
    let aligned: bool = value.getattr("flags").and_then(|f| f.getattr("aligned")).and_then(|a| a.extract()).unwrap_or(true);
    let value = if aligned { value.clone() } else { value.call_method0("copy")? };
    value.extract().map_err(|_| {
        let got = match (value.getattr("ndim"), value.getattr("dtype")) {
            (Ok(ndim), Ok(dtype)) => format!("a {ndim}-D {} of {dtype}", type_name(&value)),
            _ => type_name(&value),
        };
        type_error(field, expected, &got)
    })
}

/// The side of a square table of this shape, refused when not square.
fn side(field: &str, rows: usize, cols: usize) -> PyResult<usize> {
    if rows != cols {
        return Err(Error::invalid(field, format!("shape ({rows}, {cols})"), "must be square: a row and a column per strategy").into());
    }
    Ok(rows)
}

/// One table's metagame: the table made exactly complementary, the mix, the regrets, whether
/// the equilibrium is unique, the ratings, the transitive share and the prices (logits).
#[pyfunction]
#[pyo3(signature = (table, clip, /))]
pub fn _metagame<'py>(py: Python<'py>, table: &Bound<'py, PyAny>, clip: f64) -> PyResult<Bound<'py, PyDict>> {
    let table: PyReadonlyArray2<'py, f64> = array(table, "table", "a 2-D numpy array of float64")?;
    let shape = table.shape();
    let n = side("table", shape[0], shape[1])?;
    metagame::check_request(n, 0)?;
    let w: Vec<f64> = table.as_array().iter().copied().collect();
    let (table, m) = run_stoppable(py, |stop| {
        let table = Table::new(&w, n, "table")?;
        Ok(metagame::metagame(&table, clip, stop)?.map(|m| (table, m)))
    })?;
    let out = PyDict::new(py);
    out.set_item("table", table.w.into_pyarray(py).reshape([n, n])?)?;
    out.set_item("mix", m.mix.into_pyarray(py))?;
    out.set_item("regret", m.regret.into_pyarray(py))?;
    out.set_item("unique", m.unique)?;
    out.set_item("ratings", m.ratings.into_pyarray(py))?;
    out.set_item("transitive_share", m.transitive_share)?;
    out.set_item("prices", m.prices.into_pyarray(py))?;
    Ok(out)
}

/// The metagame of each table of `replicates` (`R × n × n`), in parallel on `threads`:
/// `[replicate, strategy]` arrays of the mixes, regrets and prices, and each replicate's
/// transitive share and uniqueness. `first` numbers them in errors (a block of a larger set).
#[pyfunction]
#[pyo3(signature = (replicates, first, clip, threads, /))]
pub fn _metagame_replicates<'py>(
    py: Python<'py>,
    replicates: &Bound<'py, PyAny>,
    first: usize,
    clip: f64,
    threads: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let replicates: PyReadonlyArray3<'py, f64> = array(replicates, "replicates", "a 3-D numpy array of float64")?;
    let shape = replicates.shape();
    let (count, n) = (shape[0], side("replicates", shape[1], shape[2])?);
    metagame::check_request(n, count)?;
    crate::pool::check_threads(threads)?;
    let tables: Vec<f64> = replicates.as_array().iter().copied().collect();
    let solved = run_stoppable(py, |stop| metagame::replicates(&tables, n, count, first, clip, threads, stop))?;
    let rows = |pick: fn(&metagame::Metagame) -> &Vec<f64>| -> Vec<f64> { solved.iter().flat_map(|m| pick(m).iter().copied()).collect() };
    let out = PyDict::new(py);
    out.set_item("mix", rows(|m| &m.mix).into_pyarray(py).reshape([count, n])?)?;
    out.set_item("regret", rows(|m| &m.regret).into_pyarray(py).reshape([count, n])?)?;
    out.set_item("prices", rows(|m| &m.prices).into_pyarray(py).reshape([count, n])?)?;
    out.set_item("transitive_share", solved.iter().map(|m| m.transitive_share).collect::<Vec<_>>().into_pyarray(py))?;
    out.set_item("unique", solved.iter().map(|m| m.unique).collect::<Vec<_>>().into_pyarray(py))?;
    Ok(out)
}
