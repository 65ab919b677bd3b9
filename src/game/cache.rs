//! What a thread keeps from game to game of a run: shot plans, melees, distances and spell
//! values, each a pure function of its key (so results do not depend on the thread), the
//! scratch of line of sight and the timers, and the lists one game hands the next. (The
//! policy keeps its own memo: `policy::Bot`.)

use super::config::Timers;
use super::table::Point;
use crate::melee::{Found, Melee};
use std::cell::{Cell, RefCell};
use rustc_hash::FxHashMap;
use crate::attack::plan::{Group, Situation};
use crate::attack::sample::FacesTable;
use super::live::{Id, Live};
use super::prepare::ExchangePart;

/// Shot plans by key, kept across the games of a chunk (they are pure functions of the key),
/// and the last distance found between each two units.
#[derive(Default)]
pub struct Cache {
    pub(super) shots: RefCell<FxHashMap<ShotKey, ShotPlan>>,
    pub(super) gaps: RefCell<Vec<GapEntry>>,
    /// Which weapons of a model may fire (`plan::usable_weapons`), by (shooter, its run,
    /// target, the target's models left, whole inches, moved, arrived).
    pub(super) usable: RefCell<FxHashMap<UsableKey, u64>>,
    /// Melees between the same units in the same circumstances, with the groups, die models,
    /// Fear and morale tests found for them (`melee::Found`): only where they start changes.
    pub(super) melees: FxHashMap<MeleeKey, (Melee, Found)>,
    /// The states of the kept melees' allocations, summed (`Cache::MELEE_STATES`).
    pub(super) melee_states: usize,
    /// A damage spell's expected wounds on a target, by (caster, spell, target, the target's
    /// state, the distance's class between the rules' marks).
    pub(super) spell_wounds: RefCell<FxHashMap<(Id, usize, Id, usize, u16), f64>>,
    /// Parts of the expected wounds of a charge (`prepare::exchange`) between two units at
    /// full strength, by (charger, defender, part), for fatigue the fresh table does not hold
    /// (`View::exchange`).
    pub(super) exchange_parts: RefCell<FxHashMap<(Id, Id, ExchangePart), [f64; 2]>>,
    /// How melees are played where a side holds a rule with options once (`Buffed::options`),
    /// by (charger, its buff, defender, its buff, `melee_flags`).
    pub(super) held_melee_options: FxHashMap<HeldOptionsKey, Vec<[u8; 2]>>,
    /// The last game's lists, for the next to fill.
    pub(super) spare: Spare,
    /// What the last `sight` worked out, model by model (kept out of `View`, whose plain
    /// fields the compiler may then read once where a query reads them often).
    pub(super) seen: RefCell<Seen>,
    /// Time spent in this game, when profiling (`Config::profile`).
    pub(super) timers: Cell<Timers>,
}

/// The lists a game fills and empties, handed from one game to the next through the cache
/// (each game allocated them afresh: a tenth of a duel's allocations).
#[derive(Default)]
pub(super) struct Spare {
    pub(super) units: [Vec<Live>; 2],
    pub(super) objectives: Vec<Point>,
    pub(super) owner: Vec<i8>,
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
    /// functions of their keys, so this changes no result, only memory). A shot plan holds
    /// its die models: 20,000 of them and the melees below at 8,000 and 2 M states made a
    /// long run (`simulate(games=100_000)`, 10 v 10, 2 threads) grow the process by 180 MB;
    /// at these limits it grows by about 40 MB (`benchmarks/game_memory.py`), for 1.3% more
    /// instructions a game (plans built again after a clear).
    const LIMIT: usize = 2_000;
    /// Melees a cache keeps at most, and the states of their two sides' allocations summed
    /// (what their plans' tables grow with). Rebuilding melees cleared too often was a tenth
    /// of a game's time.
    const MELEES: usize = 1_000;
    const MELEE_STATES: usize = 250_000;

    pub fn trim(&mut self) {
        if self.shots.get_mut().len() > Self::LIMIT {
            self.shots.get_mut().clear();
        }
        if self.usable.get_mut().len() > 8 * Self::LIMIT {
            self.usable.get_mut().clear();
        }
        if self.melees.len() > Self::MELEES || self.melee_states > Self::MELEE_STATES {
            self.melees.clear();
            self.melee_states = 0;
        }
        if self.spell_wounds.get_mut().len() > Self::LIMIT {
            self.spell_wounds.get_mut().clear();
        }
        // a few parts per pair of units (900 pairs each way at 30 v 30), 56 bytes each
        if self.exchange_parts.get_mut().len() > 8 * Self::LIMIT {
            self.exchange_parts.get_mut().clear();
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

/// `View::look`'s working lists.
#[derive(Default)]
pub(super) struct Looking {
    pub(super) pieces: Vec<usize>,
    pub(super) blockers: Vec<Blocker>,
    pub(super) targets: Vec<(Point, f64)>,
    /// (distance, index in `targets`) from one looking model, nearest first.
    pub(super) order: Vec<(f64, usize)>,
}

/// A unit whose disc crosses the band between two units (it may stand between their models):
/// its centre, radius and id.
pub(super) type Blocker = (Point, f64, Id);

/// How one unit shoots at one target from where it stands, found once per run of games and
/// reused: the groups, their situation, expected wounds per group on the fresh target, and
/// die models by (group, target state) as the dice need them.
pub struct ShotPlan {
    pub groups: Vec<Group>,
    /// Each group's weapon profile as a number, to match groups of plans at different targets.
    pub labels: Vec<u64>,
    pub situation: Situation,
    /// Expected wounds per group on the fresh target, over the ways the shot is played.
    pub expected: Vec<f64>,
    /// Every way the shot is played by the units' rules with options (`options::settle`):
    /// the situation with the options settled, and its weight (one entry, weight 1, without).
    pub variants: Vec<(Situation, f64)>,
    /// `[attacker option, target option]` of each variant, for `roll_options`.
    pub(super) keys: Vec<[u8; 2]>,
    /// What each variant plays, for the trace ("Versatile Attack: AP(+1)").
    pub(super) option_labels: Vec<String>,
    /// Die models by (variant, group, target state), found as the dice need them.
    pub(super) models: Vec<FacesTable>,
    /// The models that fire and their weapons (`View::firing`), which the key's hash stands for.
    pub(super) firing: Vec<(usize, u64, u32)>,
    /// The Limited weapons each group fires, by their bit in `UnitInfo::limited` (spent when
    /// the group fires: "may only be used once per game").
    pub(super) limited: Vec<u32>,
}

/// What decides a shot's groups and dice. Distances are whole inches rounded up: weapon
/// ranges and penalties are whole inches and the only other test is "over 9"", so
/// `ceil(d)` decides every rule exactly as `d` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShotKey {
    pub(super) army: u8,
    pub(super) unit: u16,
    /// Which models fire which weapons (`View::firing`), hashed.
    pub(super) firing: u64,
    pub(super) target: u16,
    /// The smallest distance of the class the unit's distance falls in between the rules'
    /// marks (`UnitInfo::distance_marks`): the plan is the same for every distance of it.
    pub(super) distance: u16,
    pub(super) cover: bool,
    pub(super) visible: bool,
    pub(super) limited_spent: u32,
    pub(super) moved: bool,
    /// The target moved since its last activation began, where a rule of it reads that
    /// (`Tricks::stationary_rules`; else `false`).
    pub(super) target_moved: bool,
    /// The shooter deployed by Ambush this round (Surprise Piercing Shot).
    pub(super) arrived: bool,
    /// The rules the target holds that act on this shot (bits by index in `UnitInfo::buffed`).
    pub(super) buff: u16,
    /// The rules the shooter shoots with (`View::attack_rules`: those it holds, and a mark's
    /// on the target), and whether the mark's is among them.
    pub(super) shooter: u16,
    pub(super) marked: bool,
}

/// Two units, where they stand and which of their models are left.
pub(super) type PairKey = (Id, Id, [Point; 2], [(u32, bool); 2]);

/// What the last `sight` worked out: per model of the looking unit, (slot, distance to the
/// closest target model in sight, to the closest at all), for which pair and positions, and
/// `look`'s working lists (kept to save their allocations).
#[derive(Default)]
pub struct Seen {
    pub(super) models: Vec<(usize, f64, f64)>,
    pub(super) for_pair: Option<PairKey>,
    pub(super) looking: Looking,
}
