//! Where the real army books are: `../shared/data/opr/` beside the repository.

use std::path::PathBuf;

/// The folder of the 43 real v3.5.1 books, or `None` (with the reason printed) when a user's
/// own clone has no `../shared`. Under `CI=true` its absence fails the test instead.
pub fn books_dir() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/data/opr/grimdark-future/3.5.1");
    if dir.is_dir() {
        return Some(dir);
    }
    if std::env::var("CI").is_ok_and(|v| v == "true") {
        panic!("CI=true but the shared army books are missing at {}", dir.display());
    }
    eprintln!("skipped: the real army books are not at {} (no ../shared beside this clone)", dir.display());
    None
}
