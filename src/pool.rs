//! Thread pools for `threads=`: one per size, built on first use and kept, so a loop of
//! calls does not start (and tear down) threads each time, and each thread keeps its
//! thread-local caches (the game's shot plans, distances, policy memo and melee plans)
//! across the batches Python plays a long run in. The kept pools hold at most
//! `MAX_KEPT_THREADS` threads together: a process that asks for many sizes lets the least
//! recently used pools go (their threads end once no call runs on them).

use crate::error::{Error, Result};
use crate::limits::MAX_THREADS;
use rayon::{ThreadPool, ThreadPoolBuilder};
use std::sync::{Arc, Mutex};

/// The kept pools, the most recently used last.
static POOLS: Mutex<Vec<(usize, Arc<ThreadPool>)>> = Mutex::new(Vec::new());

/// Threads the kept pools may hold together: the largest pool `threads=` allows.
pub const MAX_KEPT_THREADS: usize = MAX_THREADS;

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
    if let Some(i) = pools.iter().position(|(n, _)| *n == threads) {
        let kept = pools.remove(i);
        let p = Arc::clone(&kept.1);
        pools.push(kept);
        return Ok(p);
    }
    // make room: the least recently used pools go first
    while pools.iter().map(|(n, _)| n).sum::<usize>() + threads > MAX_KEPT_THREADS {
        pools.remove(0);
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

    /// The tests share the kept pools: one at a time.
    static SERIAL: Mutex<()> = Mutex::new(());

    #[test]
    fn pools_are_kept_and_sizes_bounded() {
        let _one = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
        let a = pool(3).unwrap();
        let b = pool(3).unwrap();
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(install(Some(3), rayon::current_num_threads).unwrap(), 3);
        assert!(check_threads(Some(0)).is_err());
        assert!(check_threads(Some(MAX_THREADS + 1)).is_err());
        assert!(check_threads(Some(MAX_THREADS)).is_ok());
    }

    #[test]
    fn kept_pools_hold_a_bounded_total_of_threads() {
        let _one = SERIAL.lock().unwrap_or_else(|p| p.into_inner());
        for n in (1..=40).chain([MAX_THREADS, 7, 200, 3]) {
            assert_eq!(install(Some(n), rayon::current_num_threads).unwrap(), n);
            let pools = POOLS.lock().unwrap();
            assert!(pools.iter().map(|(n, _)| n).sum::<usize>() <= MAX_KEPT_THREADS);
            assert_eq!(pools.last().map(|(k, _)| *k), Some(n), "the pool just used is kept");
        }
    }
}
