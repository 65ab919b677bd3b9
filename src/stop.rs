//! A request to stop a long computation early. The binding layer sets it when the user
//! presses Ctrl-C (the core knows nothing of signals); workers poll it between chunks.

use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Debug, Default)]
pub struct Stop(AtomicBool);

impl Stop {
    pub fn new() -> Stop {
        Stop::default()
    }

    pub fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    pub fn is_set(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}
