//! oprstats: exact and sampled balance statistics for One Page Rules wargames.
//!
//! The core is pure Rust and knows nothing of Python; `python` (behind the `python` cargo
//! feature) is the thin binding layer that maturin builds into `oprstats._core`.

pub mod attack;
pub mod cost;
pub mod dice;
pub mod edition;
pub mod game;
pub mod error;
pub mod limits;
pub mod loaders;
pub mod matchups;
pub mod melee;
pub mod metagame;
pub mod morale;
pub mod notation;
pub mod profile;
pub mod rules;
pub mod state;
pub mod stop;
pub mod pool;
pub mod rolls;

#[cfg(feature = "python")]
mod python;

/// The extension allocates with mimalloc: the game loop's many small, short-lived buffers
/// cost about a tenth of a game's time with the system allocator (as polars does in its
/// Python binding). The core library itself leaves the choice to its user.
#[cfg(feature = "python")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

pub use edition::Edition;
pub use error::{Error, Result};
pub use loaders::{Army, ArmyBook};
pub use profile::{Model, ModelGroup, Unit, Weapon};
pub use rules::{Rating, Rule};
pub use state::UnitState;
