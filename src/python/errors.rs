//! The one place where core errors become Python exceptions: every core error is a bad
//! value, so it is a `ValueError` carrying the core's message (field, value, position); a
//! panic of the core is a `RuntimeError`, Ctrl-C during engine work a `KeyboardInterrupt`
//! (see [`run`]).
//! Rule names nobody defines are reported here too: a warning, or a `ValueError` when strict.

use crate::error::Error;
use crate::stop::Stop;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyTypeError, PyUserWarning, PyValueError};
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

pyo3::create_exception!(
    oprstats,
    ListWarning,
    PyUserWarning,
    "An army list that does not match the books it was read with: a unit not in them (read without its book's spells and rules), or a cost the book prices differently."
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
    report(py, messages, strict, &py.get_type::<UnknownRuleWarning>(), stacklevel)
}

/// Reports what reading a list against its books found (units not in them, costs that
/// differ): as `report_unknown`, with a `ListWarning` each, pointed at the caller of
/// `load_army_list`.
pub fn report_list(py: Python<'_>, messages: &[String], strict: Option<bool>) -> PyResult<()> {
    report(py, messages, strict, &py.get_type::<ListWarning>(), 2)
}

/// What the `report_*` share: a `ValueError` of all the messages under `strict`, else a
/// warning of `category` each.
fn report(py: Python<'_>, messages: &[String], strict: Option<bool>, category: &Bound<'_, pyo3::types::PyType>, stacklevel: i32) -> PyResult<()> {
    if messages.is_empty() {
        return Ok(());
    }
    if strict.unwrap_or_else(strict_default) {
        return Err(PyValueError::new_err(messages.join("\n")));
    }
    for message in messages {
        // Names and rules hold no NUL (the notation refuses control characters).
        let text = CString::new(message.replace('\0', "")).expect("no NUL left");
        PyErr::warn(py, category.as_any(), &text, stacklevel)?;
    }
    Ok(())
}

/// Runs engine work that does not poll `Stop` (the exact engines, loaders, pricing, one
/// batch of games: the limits keep each to seconds) on this thread with the GIL released.
/// A Ctrl-C during it is a `KeyboardInterrupt` as soon as it returns: signals are checked
/// before anything else, so it is never a failure in the first numpy call that follows. A
/// panic in the core (an overflow check) becomes a `RuntimeError` naming it, never an abort.
/// Watching for Ctrl-C from another thread would not stop such work any sooner, and would
/// cost a thread per call (several times a small `attack()`).
pub fn run<T: Send>(py: Python<'_>, work: impl FnOnce() -> crate::Result<T> + Send) -> PyResult<T> {
    let outcome = py.detach(|| std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work().map(Some))));
    py.check_signals()?;
    finish(outcome)
}

/// Engine work (in the exact budget's units) below which [`run_sized`] keeps the GIL:
/// releasing and taking it back costs more than such work.
const HELD_WORK: u64 = 20_000;

/// [`run`], except that tiny work (`work` below `HELD_WORK`, a few microseconds) runs with
/// the GIL held.
pub fn run_sized<T: Send>(py: Python<'_>, work: u64, job: impl FnOnce() -> crate::Result<T> + Send) -> PyResult<T> {
    if work >= HELD_WORK {
        return run(py, job);
    }
    finish(std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| job().map(Some))))
}

/// Runs engine work that polls `stop` (the samplers, which may run for minutes) with the GIL
/// released, on a worker thread, while this thread checks for Ctrl-C every `SIGNAL_POLL`
/// (Python runs signal handlers only on its main thread, holding the GIL). On Ctrl-C `stop`
/// is set, so the sampler returns at its next chunk (`Ok(None)`), and the
/// `KeyboardInterrupt` is raised once the work has returned.
pub fn run_stoppable<T: Send>(py: Python<'_>, work: impl FnOnce(&Stop) -> crate::Result<Option<T>> + Send) -> PyResult<T> {
    let stop = Stop::new();
    let (outcome, interrupt) = py.detach(|| {
        std::thread::scope(|scope| {
            let (done, finished) = std::sync::mpsc::channel();
            let stop = &stop;
            scope.spawn(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(stop)));
                let _ = done.send(outcome);
            });
            let mut interrupt: Option<PyErr> = None;
            loop {
                match finished.recv_timeout(SIGNAL_POLL) {
                    Ok(outcome) => return (outcome, interrupt),
                    Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
                        if interrupt.is_none() {
                            if let Err(e) = Python::attach(|py| py.check_signals()) {
                                stop.set();
                                interrupt = Some(e);
                            }
                        }
                    }
                    Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
                        unreachable!("the worker sends its outcome before it ends")
                    }
                }
            }
        })
    });
    if let Some(e) = interrupt {
        return Err(e);
    }
    py.check_signals()?;
    finish(outcome)
}

/// The value of engine work, its error as a Python exception, `None` (stopped) as a
/// `KeyboardInterrupt`, a panic as a `RuntimeError`.
fn finish<T>(outcome: std::thread::Result<crate::Result<Option<T>>>) -> PyResult<T> {
    match outcome {
        Ok(Ok(Some(value))) => Ok(value),
        Ok(Ok(None)) => Err(PyKeyboardInterrupt::new_err("interrupted")),
        Ok(Err(error)) => Err(error.into()),
        Err(panic) => {
            let message = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".to_string());
            Err(PyRuntimeError::new_err(format!("oprstats: internal error in the core ({message}); this is a bug, please report it with the call that caused it")))
        }
    }
}

/// How often a running engine call looks for Ctrl-C.
const SIGNAL_POLL: std::time::Duration = std::time::Duration::from_millis(50);
