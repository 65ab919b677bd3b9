//! Thread pools by size, kept for the life of the process. Python plays a long run as many
//! short calls (a few hundred games each, for progress and Ctrl-C); a pool built per call
//! would start new threads every time, and with them empty thread-local caches (the game's
//! shot plans, distances and policy memo).

use rayon::ThreadPool;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// Pool sizes kept at once; a call asking for another size gets a pool of its own.
const KEPT: usize = 8;

/// A pool of `n` threads: the kept one of that size, or a new one.
pub fn pool(n: usize) -> Result<Arc<ThreadPool>, rayon::ThreadPoolBuildError> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<ThreadPool>>>> = OnceLock::new();
    let pools = POOLS.get_or_init(|| Mutex::new(HashMap::new()));
    let mut pools = pools.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(p) = pools.get(&n) {
        return Ok(p.clone());
    }
    let p = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(n).build()?);
    if pools.len() < KEPT {
        pools.insert(n, p.clone());
    }
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pool_of_a_size_is_built_once() {
        let (a, b) = (pool(5).unwrap(), pool(5).unwrap());
        assert!(Arc::ptr_eq(&a, &b));
        assert_eq!(a.current_num_threads(), 5);
        assert!(!Arc::ptr_eq(&a, &pool(6).unwrap()));
    }
}
