//! What a thread keeps from game to game of a run: shot plans, melees, distances and the
//! policy's memo, each a pure function of its key (so results do not depend on the thread),
//! and the lists one game hands the next.

use super::table::Point;
use crate::melee::{Found, Melee};
use rustc_hash::FxHashMap;
use super::shooting::{ShotKey, ShotPlan};
use super::state::{Id, Live};

/// Shot plans by key, kept across the games of a chunk (they are pure functions of the key),
/// and the last distance found between each two units.
#[derive(Default)]
pub struct Cache {
    pub(super) shots: FxHashMap<ShotKey, ShotPlan>,
    pub(super) gaps: std::cell::RefCell<Vec<GapEntry>>,
    /// Which weapons of a model may fire (`plan::usable_weapons`), by (shooter, its run,
    /// target, the target's models left, whole inches, moved, arrived).
    pub(super) usable: FxHashMap<UsableKey, u64>,
    /// The default policy's valuations of damaged units (kept by each thread across chunks
    /// of the same run, see `simulate`).
    pub memo: super::ai::Memo,
    /// Melees between the same units in the same circumstances, with the groups, die models,
    /// Fear and morale tests found for them (`melee::Found`): only where they start changes.
    pub(super) melees: FxHashMap<MeleeKey, (Melee, Found)>,
    /// The states of the kept melees' allocations, summed (`Cache::MELEE_STATES`).
    pub(super) melee_states: usize,
    /// A damage spell's expected wounds on a target, by (caster, spell, target, the target's
    /// state, the distance's class between the rules' marks).
    pub(super) spell_wounds: FxHashMap<(Id, usize, Id, usize, u16), f64>,
    /// How melees are played where a side holds a rule with options once (`Buffed::options`),
    /// by (charger, its buff, defender, its buff, `melee_flags`).
    pub(super) held_melee_options: FxHashMap<HeldOptionsKey, Vec<[u8; 2]>>,
    /// The last game's lists, for the next to fill.
    pub(super) spare: Spare,
}

/// The lists a game fills and empties, handed from one game to the next through the cache
/// (each game allocated them afresh: a tenth of a duel's allocations).
#[derive(Default)]
pub(super) struct Spare {
    pub(super) units: [Vec<Live>; 2],
    pub(super) objectives: Vec<Point>,
    pub(super) owner: Vec<i8>,
    pub(super) claimed: Vec<[bool; 2]>,
    pub(super) seen: Vec<(usize, f64, f64)>,
    pub(super) looking: Looking,
}

/// What a melee's plans depend on beyond the models left on each side: the two units and
/// the allocation each fights with (0: its own, else 1 + its buff's), fatigue and Shaken,
/// the defender's models left at the start (the charge's target), whether it strikes back,
/// the charge distance's class between the rules' marks, and the options played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct MeleeKey {
    pub(super) charger: (Id, u16),
    pub(super) defender: (Id, u16),
    pub(super) flags: [bool; 3],
    pub(super) defender_alive: (u32, bool),
    pub(super) strike_back: bool,
    pub(super) distance: u16,
    pub(super) options: [u8; 2],
}

impl Cache {
    /// Entries a cache keeps at most; past that it starts afresh (its entries are pure
    /// functions of their keys, so this changes no result, only memory).
    const LIMIT: usize = 20_000;
    /// Melees a cache keeps at most, and the states of their two sides' allocations summed
    /// (what their plans' tables grow with): a few tens of megabytes per thread. Rebuilding
    /// melees cleared too often was a tenth of a game's time.
    const MELEES: usize = 8_000;
    const MELEE_STATES: usize = 2_000_000;

    pub fn trim(&mut self) {
        if self.shots.len() > Self::LIMIT {
            self.shots.clear();
        }
        if self.usable.len() > 8 * Self::LIMIT {
            self.usable.clear();
        }
        if self.melees.len() > Self::MELEES || self.melee_states > Self::MELEE_STATES {
            self.melees.clear();
            self.melee_states = 0;
        }
        if self.spell_wounds.len() > Self::LIMIT {
            self.spell_wounds.clear();
        }
        if self.held_melee_options.len() > Self::LIMIT / 10 {
            self.held_melee_options.clear();
        }
    }
}

/// A distance between the closest models of two units, and what it was found for: it holds
/// while neither unit moves nor loses models (the facing is the game's seating).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub(super) struct GapEntry {
    pub(super) at: [Point; 2],
    pub(super) keys: [(u32, bool); 2],
    pub(super) facing: f64,
    pub(super) gap: f64,
}

/// (charger, its buff, defender, its buff, `melee_flags`).
pub(super) type HeldOptionsKey = (Id, u16, Id, u16, u8);

/// (shooter, the allocation it shoots with, its run, target, the target's models left, whole
/// inches, moved, arrived).
pub(super) type UsableKey = (Id, u16, usize, Id, (u32, bool), u16, bool, bool);

/// `Game::look`'s working lists.
#[derive(Default)]
pub(super) struct Looking {
    pub(super) pieces: Vec<usize>,
    pub(super) blockers: Vec<(Point, f64, Id)>,
    pub(super) targets: Vec<(Point, f64)>,
}
