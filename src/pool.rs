//! Thread pools for `threads=`: one per size, built on first use and kept, so a loop of
//! calls does not start (and tear down) threads each time, and each thread keeps its
//! thread-local caches (the game's shot plans, distances, policy memo and melee plans)
//! across the batches Python plays a long run in.

use crate::error::{Error, Result};
use crate::limits::MAX_THREADS;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::{Arc, Mutex};

static POOLS: Mutex<Vec<(usize, Arc<ThreadPool>)>> = Mutex::new(Vec::new());

/// Refuses a thread count outside `1..=MAX_THREADS`.
pub fn check_threads(threads: Option<usize>) -> Result<()> {
    match threads {
        Some(n) if n == 0 || n > MAX_THREADS => Err(Error::invalid("threads", n, format!("must be from 1 to {MAX_THREADS}, or None for all cores"))),
        _ => Ok(()),
    }
}

/// The kept pool of `threads` threads.
fn pool(threads: usize) -> Result<Arc<ThreadPool>> {
    check_threads(Some(threads))?;
    let mut pools = POOLS.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == threads) {
        return Ok(Arc::clone(p));
    }
    let built = ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| Error::invalid("threads", threads, e.to_string()))?;
    let built = Arc::new(built);
    pools.push((threads, Arc::clone(&built)));
    Ok(built)
}

/// Runs `work` on the pool of `threads` threads, or on rayon's global pool for `None`.
pub fn install<R: Send>(threads: Option<usize>, work: impl FnOnce() -> R + Send) -> Result<R> {
    match threads {
        None => Ok(work()),
        Some(n) => Ok(pool(n)?.install(work)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pools_are_kept_and_sizes_bounded() {
        let a = pool(3).unwrap();
        let b = pool(3).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(install(Some(3), rayon::current_num_threads).unwrap(), 3);
        assert!(check_threads(Some(0)).is_err());
        assert!(check_threads(Some(MAX_THREADS + 1)).is_err());
        assert!(check_threads(Some(MAX_THREADS)).is_ok());
    }
}
