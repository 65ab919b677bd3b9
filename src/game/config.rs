//! What a run of games is asked to play (`Config`, the sides' `Policy`) and what it gives back
//! (`Output`: a `Record` per game, per-unit totals, traces, timers), with the limits every run
//! is checked against.

use super::live::Id;
use crate::error::{Error, Result};
use super::table::{Piece, Point};

/// Games one call plays at most.
pub const MAX_GAMES: u64 = 100_000_000;

/// Games that may keep a trace (each holds every event of the game).
pub const MAX_TRACED_GAMES: u64 = 100;

/// Units one army may field.
pub const MAX_UNITS: usize = 100;

/// Rounds a game lasts at most (the rulebook plays 4).
pub const MAX_ROUNDS: u8 = 20;

/// The farthest apart a duel's line-up may set two units (the table is 48" deep; a larger
/// unit's formation may need less, which the line-up check says).
pub const MAX_LINE_UP: f64 = 30.0;

/// A short list the game builds on every activation (units ready, targets, weapon groups):
/// on the stack up to `N` entries, so the game loop does not allocate.
pub type Short<T, const N: usize = 16> = smallvec::SmallVec<[T; N]>;

/// How the terrain is set up.
#[derive(Debug, Clone, PartialEq)]
pub enum Terrain {
    /// A new standard table for each game (see `table::standard_terrain`).
    Standard,
    /// The same pieces every game.
    Fixed(Vec<Piece>),
}

/// How a side picks its actions.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum PolicyKind {
    /// Plays to win (see `policy::ai`): charges, targets, activation order, deployment, Aircraft
    /// headings and strike backs valued in expected points from the units' current states.
    Default,
    /// The earlier default, kept as it played: charges valued once on fresh units by models
    /// killed, the nearest unit first, Aircraft along the long axis, always striking back.
    Greedy,
    /// Any legal action, uniformly.
    Random,
    /// Never moves; shoots the best target (a scripted gun line).
    Hold,
    /// The default policy as it played in November 2026 (before issue 40's transports and
    /// reserves), kept as it played for comparison: the same code as `Default` but for the
    /// choices `PolicyKind::plans_rides` gates.
    #[allow(non_camel_case_types)]
    V3_2026_11,
}

impl PolicyKind {
    /// The default policy or its kept November 2026 version: plays to win (`policy::ai`).
    pub fn plays_to_win(self) -> bool {
        matches!(self, PolicyKind::Default | PolicyKind::V3_2026_11)
    }

    /// The default policy's transports and reserves (issue 40): it embarks only when the ride
    /// pays, gets casters out to cast, times Ambush arrivals (`policy::transports`,
    /// `policy::reserves`); the November 2026 version does not.
    pub fn plans_rides(self) -> bool {
        self == PolicyKind::Default
    }
}

/// A side's policy and the weights of the default one.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Policy {
    pub kind: PolicyKind,
    /// How much nearer an objective must be than an enemy for a melee unit to go for it
    /// (1: whichever is nearer; 2: objectives up to twice as far).
    pub objective_weight: f64,
    /// Charge when the exact melee's expected points margin is above this share of the
    /// charger's points (0: whenever it is expected to come out ahead).
    pub charge_margin: f64,
    /// Stay on an objective the side holds when no other friendly unit does (1) or not (0).
    pub hold_objectives: f64,
    /// A unit whose shooting damage is this many times its melee damage is a shooter (and
    /// the other way round a melee unit); in between it is a hybrid.
    pub role_ratio: f64,
    /// Default policy: what a marker is worth, in multiples of the army's average unit
    /// points: when a charge would pull the only unit holding it off, and when a charge may
    /// remove or Shake an enemy on one (markers win games; 0: ignore them).
    pub marker_value: f64,
    /// Default policy: the share of a unit's points left that being Shaken costs it (it
    /// stays idle and can't hold markers), in charge and strike-back values.
    pub shaken_weight: f64,
    /// Default policy: how much the points a unit stands to lose to enemy charges and shots
    /// count towards activating it early (against what its own best action is worth), and
    /// against an Aircraft heading in range of enemy guns. 0 by default: in paired games
    /// against the greedy policy, ordering by the unit's own best action alone won more.
    pub threat_weight: f64,
    /// Default policy: the share of a defender's own best charge it gives up by striking back
    /// fatigued before it has activated ("units only hit on unmodified rolls of 6").
    pub fatigue_weight: f64,
    /// Default policy: how many inches a transport's Rush must beat a unit's own for the unit
    /// to ride in it (at deployment and when boarding; a transport arriving by Ambush always
    /// pays) and to stay inside: a ride no faster than walking spends the unit's activations
    /// inside for nothing. 2 by default: a Fast transport (+4") carries
    /// foot troops, one of the same speed does not.
    pub ride_margin: f64,
    /// Default policy: how much the points an enemy unit can take from an Ambush or Infiltrate
    /// unit before it acts (the most any one unit's shots or charge reaching its arrival spot
    /// take) count against that spot, against what it can do there (its best shot or charge, a marker in reach). A unit
    /// whose best spot would cost it more than half its points beyond what it gains there
    /// waits, up to the round before the last. 1 by default: points lost count as points
    /// gained.
    pub arrival_threat_weight: f64,
}

impl Policy {
    pub const DEFAULT: Policy = Policy {
        kind: PolicyKind::Default,
        objective_weight: 1.5,
        charge_margin: 0.0,
        hold_objectives: 1.0,
        role_ratio: 2.0,
        marker_value: 1.0,
        shaken_weight: 0.3,
        threat_weight: 0.0,
        fatigue_weight: 0.5,
        ride_margin: 2.0,
        arrival_threat_weight: 1.0,
    };
    /// Today's earlier default, kept playable for comparison.
    pub const GREEDY: Policy = Policy { kind: PolicyKind::Greedy, ..Policy::DEFAULT };

    pub fn check(&self, field: &str) -> Result<()> {
        for (name, v) in [
            ("objective_weight", self.objective_weight),
            ("charge_margin", self.charge_margin),
            ("hold_objectives", self.hold_objectives),
            ("role_ratio", self.role_ratio),
            ("marker_value", self.marker_value),
            ("shaken_weight", self.shaken_weight),
            ("threat_weight", self.threat_weight),
            ("fatigue_weight", self.fatigue_weight),
            ("ride_margin", self.ride_margin),
            ("arrival_threat_weight", self.arrival_threat_weight),
        ] {
            if !v.is_finite() || !(0.0..=100.0).contains(&v) {
                return Err(Error::invalid(format!("{field}.{name}"), v, "must be a finite number from 0 to 100"));
            }
        }
        if self.role_ratio < 1.0 {
            return Err(Error::invalid(format!("{field}.role_ratio"), self.role_ratio, "must be at least 1"));
        }
        Ok(())
    }
}

/// Where units start, instead of the policy's deployment (a scripted scenario): table
/// positions for each unit of an army, in army order.
pub type Deployment = Vec<Point>;

#[derive(Debug, Clone)]
pub struct Config {
    pub seed: u64,
    pub terrain: Terrain,
    /// Objective markers; `None`: D3+2 placed as the rulebook says.
    pub objectives: Option<Vec<Point>>,
    pub policies: [Policy; 2],
    /// Fixed positions per army (both or neither).
    pub deployment: Option<[Deployment; 2]>,
    /// A duel's line-up instead of a deployment: one unit a side, facing each other across
    /// the table's centre, their closest models this many inches apart.
    pub line_up: Option<f64>,
    /// The army that goes first; `None`: the roll-off.
    pub first: Option<usize>,
    pub paired: bool,
    pub rounds: u8,
    /// Keep every game's event log.
    pub trace: bool,
    /// Time line of sight, movement and dice (costs a little).
    pub profile: bool,
}

impl Config {
    /// A run as the rulebook plays it by default: D3+2 markers placed, both sides on the
    /// default policy and deploying by it, the roll-off for the first turn, four rounds.
    pub fn new(seed: u64, terrain: Terrain) -> Config {
        Config {
            seed,
            terrain,
            objectives: None,
            policies: [Policy::DEFAULT; 2],
            deployment: None,
            line_up: None,
            first: None,
            paired: false,
            rounds: 4,
            trace: false,
            profile: false,
        }
    }
}

/// What one game ended with, army A first.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Record {
    /// +1: army A won, -1: army B, 0: a draw.
    pub winner: i8,
    pub objectives: [u8; 2],
    pub models_left: [u32; 2],
    /// Each unit's points times the share of its wounds left, summed.
    pub points_left: [f64; 2],
    /// The army that went first (0: A, 1: B).
    pub first: u8,
}

/// Per-unit sums over games, army by army in army order.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct UnitTotals {
    pub destroyed: Vec<u64>,
    pub wounds_dealt: Vec<u64>,
    pub wounds_taken: Vec<u64>,
    pub rounds_holding: Vec<u64>,
    /// Activations, and of those the ones that did nothing useful (`usefulness`): idle with
    /// something to do, stuck, and spent in a transport the unit never left in that game.
    pub activations: Vec<u64>,
    pub idle: Vec<u64>,
    pub stuck: Vec<u64>,
    pub carried: Vec<u64>,
    /// Games in which the unit never activated: destroyed before its first activation (an
    /// Ambush arrival shot off the table), or never arrived.
    pub never_acted: Vec<u64>,
    /// Rounds that ended with the unit inside a transport on the table, and waiting off the
    /// table to arrive (in reserve, or inside a transport in reserve): the time it was not
    /// on the table to act, which explains a low damage.
    pub rounds_inside: Vec<u64>,
    pub rounds_in_reserve: Vec<u64>,
    /// Games in which the unit Routed (counted in `destroyed` too), and games it ended Shaken
    /// (Firefight: Stunned).
    pub routed: Vec<u64>,
    pub shaken_at_end: Vec<u64>,
}

impl UnitTotals {
    pub(super) fn new(n: usize) -> UnitTotals {
        let zeros = || vec![0; n];
        UnitTotals {
            destroyed: zeros(),
            wounds_dealt: zeros(),
            wounds_taken: zeros(),
            rounds_holding: zeros(),
            activations: zeros(),
            idle: zeros(),
            stuck: zeros(),
            carried: zeros(),
            never_acted: zeros(),
            rounds_inside: zeros(),
            rounds_in_reserve: zeros(),
            routed: zeros(),
            shaken_at_end: zeros(),
        }
    }

    fn columns(&self) -> [&Vec<u64>; 13] {
        [
            &self.destroyed,
            &self.wounds_dealt,
            &self.wounds_taken,
            &self.rounds_holding,
            &self.activations,
            &self.idle,
            &self.stuck,
            &self.carried,
            &self.never_acted,
            &self.rounds_inside,
            &self.rounds_in_reserve,
            &self.routed,
            &self.shaken_at_end,
        ]
    }

    fn columns_mut(&mut self) -> [&mut Vec<u64>; 13] {
        [
            &mut self.destroyed,
            &mut self.wounds_dealt,
            &mut self.wounds_taken,
            &mut self.rounds_holding,
            &mut self.activations,
            &mut self.idle,
            &mut self.stuck,
            &mut self.carried,
            &mut self.never_acted,
            &mut self.rounds_inside,
            &mut self.rounds_in_reserve,
            &mut self.routed,
            &mut self.shaken_at_end,
        ]
    }

    pub(super) fn merge(&mut self, o: &UnitTotals) {
        for (a, b) in self.columns_mut().into_iter().zip(o.columns()) {
            for (x, y) in a.iter_mut().zip(b.iter()) {
                *x += y;
            }
        }
    }
}

/// Seconds spent, summed over threads, when `Config::profile` is on.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Timers {
    pub line_of_sight: f64,
    pub movement: f64,
    pub dice: f64,
    /// Casting spells: choosing, helping and hindering, and rolling their hits.
    pub spells: f64,
    /// Transports: getting in and out (the policy's choice and the placements), wrecks.
    pub transports: f64,
    pub total: f64,
}

impl Timers {
    pub(super) fn merge(&mut self, o: &Timers) {
        self.line_of_sight += o.line_of_sight;
        self.movement += o.movement;
        self.dice += o.dice;
        self.spells += o.spells;
        self.transports += o.transports;
        self.total += o.total;
    }
}

/// A traced game: its table and every event.
#[derive(Debug, Clone, Default)]
pub struct Trace {
    pub terrain: Vec<Piece>,
    pub objectives: Vec<Point>,
    pub events: Vec<Event>,
}

/// The results of games `first..first + count` of a run.
#[derive(Debug, Clone, Default)]
pub struct Output {
    pub records: Vec<Record>,
    pub units: [UnitTotals; 2],
    pub traces: Vec<Trace>,
    pub timers: Timers,
    /// Attack, Impact, morale and terrain dice rolled.
    pub dice: u64,
    /// Invariant breaches found while playing (always 0 unless the engine has a bug); the
    /// first is described.
    pub violations: u64,
    pub first_violation: Option<String>,
    /// The first game (by number) in which a unit found no room to deploy, and the unit
    /// (army, index): such a game is not played on, and the run is refused (`simulate`).
    pub no_room: Option<(u64, usize, usize)>,
}

impl Output {
    pub(super) fn merge(&mut self, o: Output) {
        self.records.extend(o.records);
        for side in 0..2 {
            self.units[side].merge(&o.units[side]);
        }
        self.traces.extend(o.traces);
        self.timers.merge(&o.timers);
        self.dice += o.dice;
        self.violations += o.violations;
        if self.first_violation.is_none() {
            self.first_violation = o.first_violation;
        }
        // the lowest game, whatever order the parts come in
        self.no_room = match (self.no_room, o.no_room) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
    }
}

/// One thing that happened, for `trace=True`. Objective events use `unit` for the marker and
/// `army` for its controller (-1: neutral); position events snapshot every unit.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Event {
    pub round: u8,
    pub kind: &'static str,
    pub army: i8,
    pub unit: i32,
    pub target_army: i8,
    pub target: i32,
    pub from: Point,
    pub to: Point,
    /// The most the move could cover, in inches.
    pub allowance: f64,
    /// The inches the move covered along its path (its bends included); 0 for what is not a move.
    pub length: f64,
    pub dice: u64,
    pub hits: u32,
    pub wounds: u32,
    pub models_left: u32,
    pub detail: String,
    /// Position and move events: each model of the unit left, (x, y, base radius), where
    /// it stands after the event.
    pub models: Vec<(f64, f64, f64)>,
    /// Charge events: the target's models, as `models`.
    pub target_models: Vec<(f64, f64, f64)>,
}

impl Event {
    /// An event of unit `id` with no target; other fields by struct update.
    pub(super) fn of(kind: &'static str, id: Id, from: Point, to: Point) -> Event {
        Event { kind, army: id.0 as i8, unit: id.1 as i32, target_army: -1, target: -1, from, to, ..Event::default() }
    }

    /// An event of unit `id` acting on `target`.
    pub(super) fn between(kind: &'static str, id: Id, target: Id, from: Point, to: Point) -> Event {
        Event { target_army: target.0 as i8, target: target.1 as i32, ..Event::of(kind, id, from, to) }
    }
}
