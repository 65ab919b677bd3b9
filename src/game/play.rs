//! One game, as gf-3.5 lays it out: "the players roll-off and the winner must start deploying
//! their army first"; "rounds of alternating activations"; "After 4 rounds have been played
//! the game ends, and the player that controls most markers wins."
//!
//! The rules live here; the choices (which unit, which action, which target) are the
//! policy's (`policy`).

use super::paths::{self, Bends, Goal, Paths, Widening, DANGEROUS, DANGEROUS_DETOUR, DIFFICULT, IMPASSABLE, MARGIN, UNIT};
use super::casting::Window;
use super::policy::{self, Action};
use super::prepare::{melee_flags, BuffUse, Movement, Prepared, UnitInfo, MAX_HELD_RULES};
use crate::attack::allocation::Allocation;
use super::table::{self, Piece, Point, DEPLOY_DEPTH, DEPTH, WIDTH};
use super::{game_rng, Config, Output, PolicyKind, Record, Short, Terrain, Timers, Trace};
use crate::attack::allocation::State;
use crate::attack::plan::{self, Group, Pick, Situation};
use crate::attack::options::{self, Settled};
use crate::attack::sample::{roll_attack, roll_options, Faces, FacesTable};
use crate::cost::features::group_expected_wounds;
use crate::melee::sample::roll_exchange;
use crate::melee::{Found, Melee, Plans, Status, Winner};
use crate::morale::{self, MoraleTest};
use rand::RngExt;
use crate::rolls::Dice;
use rustc_hash::FxHashMap;
use std::hash::BuildHasher;
use std::time::Instant;

/// A unit: (army, index in the army).
pub type Id = (usize, usize);

/// "At the end of each round, if a unit is within 3" of a marker whilst no enemies are, then
/// it counts as being seized."
pub const SEIZE_RANGE: f64 = 3.0;
/// "Models may never be within 1" of models from other units, unless they are taking a Charge action".
pub const UNIT_GAP: f64 = 1.0;
/// "If any model in a unit moves in or through difficult terrain ... may not move more than 6"".
pub const DIFFICULT_MOVE: f64 = 6.0;
/// "Scout: ... may be deployed anywhere fully within 12" of their deployment zone."
pub const SCOUT_DEPTH: f64 = 12.0;
/// "the charging unit must move back by 1" (if possible)".
pub const CONSOLIDATION_BACK: f64 = 1.0;
/// "Within" is compared to a millionth of an inch (float positions round either way).
pub(super) const EPS: f64 = 1e-6;
/// How far beyond a move's allowance its route is checked against units, difficult and
/// dangerous terrain (further on, a route may run through them: they will have moved, or the
/// next move re-plans); impassable terrain is checked all the way (the dead ends a route must
/// see coming). 0: a search's cost grows fast with the obstacles it goes round, and looking
/// 6" further made path queries in games about a third slower.
pub const LOOKAHEAD: f64 = 0.0;

/// A unit during a game.
#[derive(Debug, Clone, Default)]
pub struct Live {
    /// Wounds and models lost, in the unit's removal order.
    pub s: State,
    pub pos: Point,
    pub shaken: bool,
    pub fatigued: bool,
    pub activated: bool,
    /// Destroyed or Routed.
    pub gone: bool,
    /// Set aside to Ambush and not yet on the table.
    pub reserve: bool,
    /// The radius of the disc holding the models left (`Game::radius`), which models are
    /// left (`Allocation::alive_key`) and how many: kept up to date by `Game::set_state`.
    pub radius: f64,
    pub key: (u32, bool),
    pub left: u32,
    /// Wounds left (`UnitInfo::wounds_left`, which walks the removal order).
    pub wounds_left: u32,
    /// The round it arrived by Ambush (0: deployed as usual).
    pub arrived: u8,
    /// The Limited weapons fired ("may only be used once per game"), one bit per weapon of
    /// `UnitInfo::limited`: Limited is spent weapon by weapon.
    pub limited_spent: u32,
    /// The models (bit per formation slot; slots past 63 share the last bit) that took their
    /// dangerous terrain test in the current activation: one test per model per activation.
    pub dangerous_tested: u64,
    /// It moved after shooting or melee this round (`Effect::MoveAfterAttack`: "Once per round").
    pub moved_after_attack: bool,
    /// It used its extra activation (`Effect::ExtraActivation`: "Once per game").
    pub extra_used: bool,
    /// A rule a friendly unit gave it until it is next used (`Effect::Buff`, a buff spell):
    /// 1 + its index in `UnitInfo::buffed` (0: none).
    pub buff: u8,
    /// A rule an enemy unit gave it until it is next used (`Effect::Debuff`, a debuff spell),
    /// as `buff`: "Effects from multiple instances of the same special rule or spell don't
    /// stack", but a friend's and an enemy's do.
    pub debuff: u8,
    /// A rule the enemy army's units attacking it get until one of them uses it (a mark
    /// spell: "which friendly units get Relentless against once").
    pub mark: Option<&'static str>,
    /// The modifiers its next casting roll gets: from a friend (Casting Buff) and from an
    /// enemy (Casting Debuff, "which gets -3 to casting rolls once"); 0: none. Different
    /// rules and spells stack; one from each side at a time.
    pub casting_modifier: [i8; 2],
    /// Spell tokens held (`casting`).
    pub tokens: u8,
    /// Of those, the most its Caster(X) models hold, which stay from round to round (a Caster
    /// Group's go at the end of the round).
    pub own_tokens: u8,
    /// The spells (bit per index in `Casting::spells`) it tried this activation: "only one
    /// try per spell".
    pub spells_tried: u64,
    /// The transport (its index in the army) the unit is inside (`transport`): off the table.
    pub carrier: Option<u16>,
    /// Where it stood when the round began.
    pub round_start: Point,
    pub dealt: u32,
    pub taken: u32,
    pub holding: u32,
}

impl Live {
    pub fn on_table(&self) -> bool {
        !self.gone && !self.reserve && self.carrier.is_none()
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
    keys: Vec<[u8; 2]>,
    /// What each variant plays, for the trace ("Versatile Attack: AP(+1)").
    option_labels: Vec<String>,
    /// Die models by (variant, group, target state), found as the dice need them.
    models: Vec<FacesTable>,
    /// The models that fire and their weapons (`Game::firing`), which the key's hash stands for.
    firing: Vec<(usize, u64, u32)>,
}

/// What decides a shot's groups and dice. Distances are whole inches rounded up: weapon
/// ranges and penalties are whole inches and the only other test is "over 9"", so
/// `ceil(d)` decides every rule exactly as `d` does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ShotKey {
    army: u8,
    unit: u16,
    /// Which models fire which weapons (`Game::firing`), hashed.
    firing: u64,
    target: u16,
    /// The smallest distance of the class the unit's distance falls in between the rules'
    /// marks (`UnitInfo::distance_marks`): the plan is the same for every distance of it.
    distance: u16,
    cover: bool,
    visible: bool,
    limited_spent: u32,
    moved: bool,
    /// The shooter deployed by Ambush this round (Surprise Piercing Shot).
    arrived: bool,
    /// The rules the target holds that act on this shot (bits by index in `UnitInfo::buffed`).
    buff: u16,
    /// The rules the shooter shoots with (`Game::attack_rules`: those it holds, and a mark's
    /// on the target), and whether the mark's is among them.
    shooter: u16,
    marked: bool,
}

/// What a side of a melee fights with: the rules it holds once that act on its attacks, on
/// its defense (used only if it takes hits: "next time the effect would apply"), those that
/// act only if it loses (its morale test), and a mark's on the other side (bits and index in
/// `UnitInfo::buffed`).
#[derive(Debug, Clone, Copy)]
struct Held {
    attacks: u16,
    defense: u16,
    morale: u16,
    mark: Option<usize>,
}

/// Shot plans by key, kept across the games of a chunk (they are pure functions of the key),
/// and the last distance found between each two units.
#[derive(Default)]
pub struct Cache {
    shots: FxHashMap<ShotKey, ShotPlan>,
    gaps: std::cell::RefCell<Vec<GapEntry>>,
    /// Which weapons of a model may fire (`plan::usable_weapons`), by (shooter, its run,
    /// target, the target's models left, whole inches, moved, arrived).
    usable: FxHashMap<UsableKey, u64>,
    /// The default policy's valuations of damaged units (kept by each thread across chunks
    /// of the same run, see `simulate`).
    pub memo: super::ai::Memo,
    /// Melees between the same units in the same circumstances, with the groups, die models,
    /// Fear and morale tests found for them (`melee::Found`): only where they start changes.
    melees: FxHashMap<MeleeKey, (Melee, Found)>,
    /// The states of the kept melees' allocations, summed (`Cache::MELEE_STATES`).
    melee_states: usize,
    /// A damage spell's expected wounds on a target, by (caster, spell, target, the target's
    /// state, the distance's class between the rules' marks).
    pub(super) spell_wounds: FxHashMap<(Id, usize, Id, usize, u16), f64>,
    /// How melees are played where a side holds a rule with options once (`Buffed::options`),
    /// by (charger, its buff, defender, its buff, `melee_flags`).
    held_melee_options: FxHashMap<HeldOptionsKey, Vec<[u8; 2]>>,
    /// The last game's lists, for the next to fill.
    spare: Spare,
}

/// The units an activation's attacks touched, with their state before the first (their
/// morale is tested once it ends).
pub type Touched = Short<(Id, State)>;

/// `v` emptied and filled with `n` copies of `value` (its memory kept).
fn refilled<T: Clone>(mut v: Vec<T>, value: T, n: usize) -> Vec<T> {
    v.clear();
    v.resize(n, value);
    v
}

/// The lists a game fills and empties, handed from one game to the next through the cache
/// (each game allocated them afresh: a tenth of a duel's allocations).
#[derive(Default)]
struct Spare {
    units: [Vec<Live>; 2],
    objectives: Vec<Point>,
    owner: Vec<i8>,
    claimed: Vec<[bool; 2]>,
    seen: Vec<(usize, f64, f64)>,
    looking: Looking,
}

/// What a melee's plans depend on beyond the models left on each side: the two units and
/// the allocation each fights with (0: its own, else 1 + its buff's), fatigue and Shaken,
/// the defender's models left at the start (the charge's target), whether it strikes back,
/// the charge distance's class between the rules' marks, and the options played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct MeleeKey {
    charger: (Id, u16),
    defender: (Id, u16),
    flags: [bool; 3],
    defender_alive: (u32, bool),
    strike_back: bool,
    distance: u16,
    options: [u8; 2],
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
struct GapEntry {
    at: [Point; 2],
    keys: [(u32, bool); 2],
    facing: f64,
    gap: f64,
}

/// (charger, its buff, defender, its buff, `melee_flags`).
type HeldOptionsKey = (Id, u16, Id, u16, u8);

/// (shooter, the allocation it shoots with, its run, target, the target's models left, whole
/// inches, moved, arrived).
type UsableKey = (Id, u16, usize, Id, (u32, bool), u16, bool, bool);

/// Whether `p` lies within the piece's box grown by `r` (a disc of radius `r` at `p` can
/// touch the piece only then): a test cheaper than `Piece::distance_to`.
#[inline]
fn near_box(t: &Piece, p: Point, r: f64) -> bool {
    p.x > t.x0 - r && p.x < t.x1 + r && p.y > t.y0 - r && p.y < t.y1 + r
}

/// The bit of `index` in a set of formation slots or weapons (indices past 63 share the last
/// bit).
pub(super) fn bit(index: usize) -> u64 {
    1 << index.min(63)
}

/// Which distance class `d` falls in between the marks the two units' rules tell apart
/// (`UnitInfo::distance_marks`): 0 up to the smallest mark, then one more past each. Every
/// distance of a class plays the same (a rule's "over 9"" or "within X"" reads alike).
pub(super) fn distance_class(a: &UnitInfo, b: &UnitInfo, d: f64) -> u16 {
    a.distance_marks.iter().chain(&b.distance_marks).copied().filter(|&m| f64::from(m) < d).max().map_or(0, |m| m + 1)
}

/// The costly kinds (`DIFFICULT`, `DANGEROUS`) a piece is to a unit (Strider ignores
/// difficult terrain); impassable pieces are `IMPASSABLE` alone.
fn terrain_class(t: &Piece, strider: bool) -> u8 {
    if t.kinds.impassable {
        return IMPASSABLE;
    }
    (if t.kinds.difficult && !strider { DIFFICULT } else { 0 }) | if t.kinds.dangerous { DANGEROUS } else { 0 }
}

/// Indices of the pieces of each kind (`Game::by_kind`).
#[derive(Default)]
struct PiecesByKind {
    impassable: Vec<usize>,
    dangerous: Vec<usize>,
    sight: Vec<usize>,
}

impl PiecesByKind {
    fn of(terrain: &[Piece]) -> PiecesByKind {
        let which = |f: fn(&Piece) -> bool| terrain.iter().enumerate().filter(|(_, t)| f(t)).map(|(i, _)| i).collect();
        PiecesByKind { impassable: which(|t| t.kinds.impassable), dangerous: which(|t| t.kinds.dangerous), sight: which(|t| t.kinds.blocking || t.kinds.cover) }
    }
}

/// `Game::look`'s working lists.
#[derive(Default)]
struct Looking {
    pieces: Vec<usize>,
    blockers: Vec<(Point, f64, Id)>,
    targets: Vec<(Point, f64)>,
}

/// Two units, where they stand and which of their models are left.
type PairKey = (Id, Id, [Point; 2], [(u32, bool); 2]);

/// What one unit sees of another.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sight {
    pub visible: bool,
    /// In cover terrain, or behind a cover piece or another unit's edge.
    pub cover: bool,
    /// Only the cover of the terrain the target stands in (what Indirect does not ignore).
    pub cover_inside: bool,
}

/// A move's path: from where the unit stands through the bends of `via` to `to` (found by
/// `paths`: the shortest way round what the unit may not cross).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Path {
    pub to: Point,
    /// The bends before `to`, in order (none: a straight move).
    pub via: Bends,
    pub length: f64,
    pub difficult: bool,
    pub dangerous: bool,
}

/// The most a move of `allowance` inches may cover: "If any model in a unit moves in or
/// through difficult terrain at any point of its move, then all models in the unit may not
/// move more than 6"".
pub fn move_limit(allowance: f64, difficult: bool) -> f64 {
    if difficult { allowance.min(DIFFICULT_MOVE) } else { allowance }
}

impl Path {
    /// `move_limit` of this path's move of `allowance` inches.
    pub fn limit(&self, allowance: f64) -> f64 {
        move_limit(allowance, self.difficult)
    }

    /// A straight move over no terrain that matters (an Aircraft's).
    pub fn straight(to: Point, length: f64) -> Path {
        Path { to, via: Bends::NONE, length, difficult: false, dangerous: false }
    }

    /// The legs of the path, starting from `from` (where the unit stood).
    pub fn legs(&self, from: Point) -> impl Iterator<Item = (Point, Point)> + '_ {
        let mut at = from;
        self.via.as_slice().iter().copied().chain(std::iter::once(self.to)).map(move |p| {
            let leg = (at, p);
            at = p;
            leg
        })
    }
}

pub struct Game<'a> {
    pub prep: &'a Prepared,
    pub config: &'a Config,
    pub(super) cache: &'a mut Cache,
    pub rng: Dice,
    pub terrain: Vec<Piece>,
    /// Which pieces are impassable, dangerous, or block sight or give cover: the tests run
    /// thousands of times a game look only at these.
    by_kind: PiecesByKind,
    pub objectives: Vec<Point>,
    /// Controller of each marker: an army, or -1.
    pub owner: Vec<i8>,
    pub units: [Vec<Live>; 2],
    /// `seat[0]`: the army that won the roll-off, deploys on the `y = 0` edge and goes first.
    pub seat: [usize; 2],
    pub round: u8,
    /// Markers some unit of each army is already heading for this round.
    pub claimed: Vec<[bool; 2]>,
    /// Units of each army that may use an extra activation in one round: "up to half of the
    /// units in the army with this rule at the beginning of the game (rounding up)".
    pub extra_limit: [u32; 2],
    /// Extra activations each army used this round.
    pub extra_this_round: [u32; 2],
    pub(super) trace: Option<Vec<Event>>,
    timers: Timers,
    pub(super) dice: u64,
    violations: u64,
    first_violation: Option<String>,
    /// Units wounded by dangerous terrain in the current activation, with their state before:
    /// they test morale at its end like units wounded by shooting.
    wounded_by_terrain: Vec<(Id, State)>,
    /// Per model of the last unit `sight` was asked for: (slot, distance to the closest
    /// target model in sight, to the closest at all); `seen_for` says for which pair and
    /// positions.
    pub(super) seen: Vec<(usize, f64, f64)>,
    seen_for: Option<PairKey>,
    /// `look`'s working lists (the pieces and units between the two units, the target's
    /// models), kept to save their allocations.
    looking: Looking,
}

impl<'a> Game<'a> {
    /// Game `game` of the run: its generator, its roll-off, its table and its markers.
    pub fn new(prep: &'a Prepared, config: &'a Config, game: u64, cache: &'a mut Cache) -> Game<'a> {
        let mut rng = game_rng(config, game);
        // "The players roll-off": drawn even when `first` is fixed, so streams stay aligned
        let roll_off = usize::from(rng.random_bool(0.5));
        let mut first = config.first.unwrap_or(roll_off);
        if config.paired && game % 2 == 1 {
            first = 1 - first;
        }
        let terrain = match &config.terrain {
            Terrain::Standard => table::standard_terrain(&mut rng),
            Terrain::Fixed(pieces) => pieces.clone(),
        };
        let mut spare = std::mem::take(&mut cache.spare);
        let mut objectives = std::mem::take(&mut spare.objectives);
        objectives.clear();
        match &config.objectives {
            Some(fixed) => objectives.extend_from_slice(fixed),
            None => table::place_objectives(&mut rng, &terrain, &mut objectives),
        }
        let units = [0, 1].map(|a| {
            let mut live = std::mem::take(&mut spare.units[a]);
            live.clear();
            live.extend(prep.armies[a].iter().map(|u| Live { radius: u.radius, key: u.alloc.alive_key(State::default()), left: u.alloc.alive(State::default()), wounds_left: u.wounds, ..Live::default() }));
            live
        });
        let extra_limit = [0, 1].map(|a| (prep.armies[a].iter().filter(|u| u.tricks.extra_activation).count() as u32).div_ceil(2));
        Game {
            prep,
            config,
            cache,
            // the table is drawn from the generator itself, the dice in batches from here on
            rng: Dice::new(rng),
            owner: refilled(spare.owner, -1, objectives.len()),
            claimed: refilled(spare.claimed, [false; 2], objectives.len()),
            by_kind: PiecesByKind::of(&terrain),
            terrain,
            objectives,
            units,
            seat: [first, 1 - first],
            round: 0,
            extra_limit,
            extra_this_round: [0; 2],
            trace: config.trace.then(Vec::new),
            timers: Timers::default(),
            dice: 0,
            violations: 0,
            first_violation: None,
            wounded_by_terrain: Vec::new(),
            seen: spare.seen,
            seen_for: None,
            looking: spare.looking,
        }
    }

    pub fn info(&self, id: Id) -> &'a UnitInfo {
        &self.prep.armies[id.0][id.1]
    }

    pub fn live(&self, id: Id) -> &Live {
        &self.units[id.0][id.1]
    }

    pub(super) fn live_mut(&mut self, id: Id) -> &mut Live {
        &mut self.units[id.0][id.1]
    }

    /// The default policy's memo, kept across the games of a chunk.
    pub fn memo(&mut self) -> &mut super::ai::Memo {
        &mut self.cache.memo
    }

    pub fn policy_kind(&self, army: usize) -> PolicyKind {
        self.config.policies[army].kind
    }

    /// Units of `army` on the table.
    pub fn on_table(&self, army: usize) -> impl Iterator<Item = Id> + '_ {
        (0..self.units[army].len()).filter(move |&u| self.units[army][u].on_table()).map(move |u| (army, u))
    }

    /// The units of `army` that may activate now: on the table or inside a transport that is,
    /// not yet activated; a unit inside waits for its transport to activate first while that
    /// can, but not in the last round (when only units outside hold markers, it may leave
    /// before its transport moves).
    pub fn ready(&self, army: usize) -> Short<usize> {
        let units = &self.units[army];
        let last = self.round >= self.config.rounds;
        // (a transport is never carried: it may activate when it is waiting to)
        let first: Short<usize> = (0..units.len()).filter(|&u| self.may_activate(army, u) && (last || units[u].carrier.is_none_or(|t| !self.may_activate(army, usize::from(t))))).collect();
        if first.is_empty() { (0..units.len()).filter(|&u| self.may_activate(army, u)).collect() } else { first }
    }

    /// Whether some unit of `army` may activate now (`ready` is not empty), without listing them.
    pub fn any_ready(&self, army: usize) -> bool {
        (0..self.units[army].len()).any(|u| self.may_activate(army, u))
    }

    /// Unit `u` of `army` has yet to activate this round, and stands on the table or inside a
    /// transport that does.
    fn may_activate(&self, army: usize, u: usize) -> bool {
        let units = &self.units[army];
        !units[u].activated && !units[u].gone && !units[u].reserve && units[u].carrier.is_none_or(|t| units[usize::from(t)].on_table())
    }

    /// The table point of a point given from `army`'s own edge (`y`: inches from its edge).
    pub fn from_edge(&self, army: usize, x: f64, y: f64) -> Point {
        if self.seat[0] == army { Point::new(x, y) } else { Point::new(x, DEPTH - y) }
    }

    /// What decides which of `id`'s models are left (`Allocation::alive_key`).
    fn formation_key(&self, id: Id) -> (u32, bool) {
        self.live(id).key
    }

    /// The radius of the disc that holds `id`'s models now, centred on `Live::pos`: it
    /// shrinks as models are removed.
    pub fn radius(&self, id: Id) -> f64 {
        self.live(id).radius
    }

    /// The share of `id`'s wounds it has left.
    pub fn wound_share(&self, id: Id) -> f64 {
        f64::from(self.live(id).wounds_left) / f64::from(self.info(id).wounds.max(1))
    }

    /// What is left of `id`, in points: its points per wound times its wounds left.
    pub fn points_left(&self, id: Id) -> f64 {
        self.info(id).points_per_wound() * f64::from(self.live(id).wounds_left)
    }

    /// +1 for the army on the `y = 0` edge (its formations face `+y`, the enemy), else -1.
    fn facing(&self, army: usize) -> f64 {
        if self.seat[0] == army { 1.0 } else { -1.0 }
    }

    /// Where `id`'s models stand and their bases' radii, as a trace shows them: (x, y, radius).
    pub fn footprint(&self, id: Id) -> Vec<(f64, f64, f64)> {
        self.models(id).map(|(_, q, r)| (q.x, q.y, r)).collect()
    }

    /// `id`'s models on the table now: each one's slot in the formation, centre and base radius.
    #[inline]
    pub fn models(&self, id: Id) -> impl Iterator<Item = (usize, Point, f64)> + '_ {
        let info = self.info(id);
        let (k, hero_dead) = self.formation_key(id);
        let h = info.formation.hull(k, hero_dead);
        let (f, pos) = (self.facing(id.0), self.live(id).pos);
        info.formation.alive(k, hero_dead).map(move |(i, s)| (i, Point::new(pos.x + f * (s.x - h.x), pos.y + f * (s.y - h.y)), s.r))
    }

    /// Sets `id`'s state after wounds. The models left stay where they stand: the unit's
    /// disc is re-centred on them and sized to hold them (mostly smaller; re-centred, it can
    /// be a little wider than before).
    pub(super) fn set_state(&mut self, id: Id, s: State) {
        let alloc = &self.info(id).alloc;
        let (old, new) = (self.live(id).key, alloc.alive_key(s));
        if old != new && !alloc.destroyed(s) {
            let f = &self.info(id).formation;
            let (a, b) = (f.hull(old.0, old.1), f.hull(new.0, new.1));
            let dir = self.facing(id.0);
            let live = self.live_mut(id);
            live.pos = Point::new(live.pos.x + dir * (b.x - a.x), live.pos.y + dir * (b.y - a.y));
            live.radius = b.r;
            live.key = new;
        }
        let (left, wounds_left) = (alloc.alive(s), self.info(id).wounds_left(s));
        let live = self.live_mut(id);
        live.s = s;
        live.left = left;
        live.wounds_left = wounds_left;
    }

    /// `group`'s hits of `by` on `target` in `situation`, rolled as `attack()` rolls them, and
    /// taken (`take_wounds`).
    pub(super) fn roll_hits(&mut self, by: Id, target: Id, group: &Group, situation: &Situation) -> crate::attack::sample::Rolled {
        // a rule the target holds once acts on a spell's hits as on a shot's ("which gets -1 to
        // defense rolls once": a spell's hits are blocked with Defense rolls)
        let held = if situation.spell { self.held_for(target, BuffUse::Spell(situation.distance)) } else { 0 };
        let talloc = self.alloc_of(target, held);
        let before = self.live(target).s;
        let r = roll_attack(talloc, std::slice::from_ref(group), before, &mut self.rng, |_, s| Faces::at(group, situation, talloc, s));
        self.dice += r.dice;
        self.take_wounds(by, target, r.end, r.wounds);
        let used = self.used_on_hits(target, held, r.hits);
        self.spend_held(target, used, "spell");
        r
    }

    /// The held rules of `target` in `mask` that an attack making `hits` hits used: all of
    /// them if it hit, else those acting on the rolls to hit ("next time the effect would
    /// apply": no hit, no Defense roll).
    fn used_on_hits(&self, target: Id, mask: u16, hits: u32) -> u16 {
        self.info(target).held(mask).filter(|(_, b)| hits > 0 || !b.needs_hits()).fold(0, |m, (bit, _)| m | bit)
    }

    /// `target` takes the wounds of an attack of `by` (not a melee's) that ended in state
    /// `end`: its state, both units' tallies, and whether it is destroyed.
    pub(super) fn take_wounds(&mut self, by: Id, target: Id, end: State, wounds: u32) {
        self.live_mut(by).dealt += wounds;
        self.set_state(target, end);
        let destroyed = self.info(target).alloc.destroyed(end);
        let tl = self.live_mut(target);
        tl.taken += wounds;
        if destroyed {
            tl.gone = true;
        }
    }

    /// The distance between two units' discs, edge to edge: never more than `gap` (the discs
    /// hold the models) and much cheaper, for the policy's quick orderings.
    #[inline]
    pub fn disc_gap(&self, a: Id, b: Id) -> f64 {
        (self.live(a).pos.distance(self.live(b).pos) - self.radius(a) - self.radius(b)).max(0.0)
    }

    /// Edge-to-edge distance between two units: "When measuring the distance between two
    /// units you always measure from/to the closest model in each unit."
    pub fn gap(&self, a: Id, b: Id) -> f64 {
        let (pa, pb) = (self.live(a).pos, self.live(b).pos);
        let (ra, rb) = (self.radius(a), self.radius(b));
        // one model each: the discs are the bases
        if self.live(a).left <= 1 && self.live(b).left <= 1 {
            return (pa.distance(pb) - ra - rb).max(0.0);
        }
        let n0 = self.prep.armies[0].len();
        let flat = |id: Id| if id.0 == 0 { id.1 } else { n0 + id.1 };
        let n = n0 + self.prep.armies[1].len();
        let (lo, hi) = if flat(a) <= flat(b) { (a, b) } else { (b, a) };
        let slot = flat(lo) * n + flat(hi);
        let wanted = GapEntry { at: [self.live(lo).pos, self.live(hi).pos], keys: [self.formation_key(lo), self.formation_key(hi)], facing: self.facing(0), gap: 0.0 };
        {
            let mut gaps = self.cache.gaps.borrow_mut();
            if gaps.len() != n * n {
                gaps.clear();
                gaps.resize(n * n, GapEntry { gap: f64::NAN, ..GapEntry::default() });
            }
            let e = gaps[slot];
            if !e.gap.is_nan() && (GapEntry { gap: 0.0, ..e }) == wanted {
                return e.gap;
            }
        }
        let gap = closest_pair(self.models(a).map(|(_, p, r)| (p, r)), pb, rb, || self.models(b).map(|(_, q, s)| (q, s))).0.max(0.0);
        self.cache.gaps.borrow_mut()[slot] = GapEntry { gap, ..wanted };
        gap
    }

    /// The impassable pieces.
    pub fn impassable_pieces(&self) -> impl Iterator<Item = &Piece> + '_ {
        self.by_kind.impassable.iter().map(|&i| &self.terrain[i])
    }

    /// The dangerous pieces.
    pub fn dangerous_pieces(&self) -> impl Iterator<Item = &Piece> + '_ {
        self.by_kind.dangerous.iter().map(|&i| &self.terrain[i])
    }

    /// The models of `id` (bits by formation slot) whose bases touch dangerous terrain with
    /// the unit's disc centred on `p` ("If a model moves in or through dangerous terrain, or
    /// is activated in it"); a piece out of reach of the disc touches none of them.
    pub fn models_in_dangerous_at(&self, id: Id, p: Point) -> u64 {
        let r = self.radius(id);
        let mut out = 0;
        for t in self.dangerous_pieces() {
            if near_box(t, p, r) && t.distance_to(p) < r {
                out |= self.models_at(id, p).filter(|&(_, q, rq)| t.distance_to(q) < rq).fold(0, |m, (i, _, _)| m | bit(i));
            }
        }
        out
    }

    /// Whether any of `id`'s models would touch dangerous terrain with its disc centred on `p`.
    pub fn in_dangerous(&self, id: Id, p: Point) -> bool {
        self.models_in_dangerous_at(id, p) != 0
    }

    /// Whether `a` and `b` are within `d` of each other (`gap(a, b) <= d`), settled by their
    /// discs when they are further apart than that (the discs hold the models). To a
    /// millionth of an inch: a unit that moved exactly 12" towards one 24" away is within 12"
    /// of it, wherever the float arithmetic of their positions rounds.
    pub fn within(&self, a: Id, b: Id, d: f64) -> bool {
        let d = d + EPS;
        self.disc_gap(a, b) <= d && self.gap(a, b) <= d
    }

    pub(super) fn clock(&self) -> Option<Instant> {
        self.config.profile.then(Instant::now)
    }

    /// Adds the time since `start` (when profiling) to one part of the timers.
    pub(super) fn lap(&mut self, start: Option<Instant>, part: fn(&mut Timers) -> &mut f64) {
        if let Some(t) = start {
            *part(&mut self.timers) += t.elapsed().as_secs_f64();
        }
    }

    pub(super) fn event(&mut self, e: impl FnOnce(&Game) -> Event) {
        if self.trace.is_some() {
            let mut ev = e(self);
            ev.round = self.round;
            if let Some(events) = &mut self.trace {
                events.push(ev);
            }
        }
    }

    pub(super) fn violation(&mut self, what: impl FnOnce() -> String) {
        self.violations += 1;
        if self.first_violation.is_none() {
            self.first_violation = Some(what());
        }
    }

    // ---- geometry -------------------------------------------------------------------

    /// Whether `id` may stand at `p`: on the table, off impassable terrain, and 1" from other
    /// units (`charging`: touching is allowed, "may ignore the 1" distance restriction").
    /// "Aircraft ignore all units and terrain when moving and stopping."
    pub fn spot_ok(&self, id: Id, p: Point, charging: bool) -> bool {
        self.spot_clear_of(id, p, charging, self.ground_units_but(id))
    }

    /// The units `id` must keep away from, and where they stand (their discs): every unit on
    /// the table but itself and Aircraft ("Aircraft ignore all units"; no one keeps away from
    /// them).
    fn ground_units_but(&self, id: Id) -> impl Iterator<Item = (Id, Point, f64)> + '_ {
        (0..2).flat_map(move |army| self.on_table(army)).filter(move |&other| other != id && !self.info(other).movement.aircraft).map(|other| (other, self.live(other).pos, self.radius(other)))
    }

    /// `ground_units_but`, gathered once for a caller that tries many spots (`spot_ok_among`).
    pub fn others_on_ground(&self, id: Id) -> Short<(Id, Point, f64), 32> {
        self.ground_units_but(id).collect()
    }

    /// `spot_ok` against the units `others` (from `others_on_ground`).
    pub fn spot_ok_among(&self, id: Id, p: Point, charging: bool, others: &[(Id, Point, f64)]) -> bool {
        self.spot_clear_of(id, p, charging, others.iter().copied())
    }

    /// On the table, out of impassable terrain, and (but for Aircraft) clear of `others`.
    fn spot_clear_of(&self, id: Id, p: Point, charging: bool, mut others: impl Iterator<Item = (Id, Point, f64)>) -> bool {
        self.spot_ok_on_table(id, p) && (self.info(id).movement.aircraft || !others.any(|o| self.clashes(id, p, charging, o)))
    }

    /// `spot_ok`'s tests of the table: its edges and impassable terrain. (Inline: a disc on the
    /// table with no impassable terrain to mind settles most calls; the rest is out of line.)
    #[inline]
    fn spot_ok_on_table(&self, id: Id, p: Point) -> bool {
        let r = self.radius(id);
        let on_table = p.x >= r - EPS && p.x <= WIDTH - r + EPS && p.y >= r - EPS && p.y <= DEPTH - r + EPS;
        (on_table && (self.by_kind.impassable.is_empty() || self.info(id).movement.aircraft)) || self.spot_ok_on_table_by_models(id, p)
    }

    /// `spot_ok_on_table`, model by model where the disc does not settle it.
    #[inline(never)]
    fn spot_ok_on_table_by_models(&self, id: Id, p: Point) -> bool {
        let info = self.info(id);
        let r = self.radius(id);
        // the disc first; where it does not settle it, the models themselves
        if (p.x < r - EPS || p.x > WIDTH - r + EPS || p.y < r - EPS || p.y > DEPTH - r + EPS)
            && self.models_at(id, p).any(|(_, q, rq)| q.x < rq - EPS || q.x > WIDTH - rq + EPS || q.y < rq - EPS || q.y > DEPTH - rq + EPS)
        {
            return false;
        }
        if info.movement.aircraft {
            return true;
        }
        // (each test is first settled, where it can be, by boxes and squared distances)
        !self.impassable_pieces().any(|t| near_box(t, p, r) && t.distance_to(p) < r - EPS && self.models_at(id, p).any(|(_, q, rq)| t.distance_to(q) < rq - EPS))
    }

    /// Whether `id` standing at `p` comes too near `other` (standing at `at`, its disc of
    /// radius `ro_disc`): "Models may never be within 1" of models from other units, unless
    /// they are taking a Charge action" (`charging`: touching is allowed). The discs settle
    /// it when they keep that far apart; else the models themselves.
    /// (Inline: most calls are settled by the discs, a few instructions; the models' test is
    /// `models_clash`.)
    #[inline]
    fn clashes(&self, id: Id, p: Point, charging: bool, (other, at, ro_disc): (Id, Point, f64)) -> bool {
        let gap = if charging { 0.0 } else { UNIT_GAP };
        let reach = self.radius(id) + ro_disc + gap;
        let (dx, dy) = (p.x - at.x, p.y - at.y);
        dx * dx + dy * dy < (reach + 1e-6) * (reach + 1e-6) && p.distance(at) < reach - EPS && self.models_clash(id, p, gap, (other, at, ro_disc))
    }

    /// `clashes` where the discs come that near: whether a model of `id` (its disc centred on
    /// `p`) comes within `gap` of one of `other`'s. The discs hold their models' bases, so
    /// only models of ours that come that near the other's disc can come that near one of its
    /// models, and only its models that come that near ours (each found once).
    #[inline(never)]
    fn models_clash(&self, id: Id, p: Point, gap: f64, (other, at, ro_disc): (Id, Point, f64)) -> bool {
        let r = self.radius(id);
        // (squared: a list of candidates needs no roots, and 1e-6 keeps every model that can
        // clash in it, the test itself below being the exact one)
        let near = |o: Point, ro: f64| {
            let reach = r + ro + gap + 1e-6;
            o.distance2(p) < reach * reach
        };
        let theirs: Short<(Point, f64), 32> = self.models(other).filter(|&(_, o, ro)| near(o, ro)).map(|(_, o, ro)| (o, ro)).collect();
        !theirs.is_empty() && self.models_at(id, p).any(|(_, q, rq)| q.distance(at) < rq + ro_disc + gap + 1e-6 && theirs.iter().any(|&(o, ro)| q.distance(o) < rq + ro + gap - EPS))
    }

    /// The legal spot fully within `depth` of `id`'s army's edge nearest the front of the
    /// zone, on a half-inch grid (deployment's fallback when the policy's samples find none);
    /// off dangerous terrain if it can be.
    fn any_spot(&self, id: Id, depth: f64) -> Option<Point> {
        const STEP: f64 = 0.5;
        let mut fallback = None;
        let rows = (depth / STEP).floor() as usize;
        let cols = (WIDTH / STEP).floor() as usize;
        // "fully within 12"": every model, from the edge
        let edge = self.from_edge(id.0, 0.0, 0.0).y;
        let pos = self.live(id).pos;
        let (back, front) = self.models(id).fold((f64::INFINITY, f64::NEG_INFINITY), |(b, f), (_, q, rq)| {
            let y = (q.y - pos.y) * if edge == 0.0 { 1.0 } else { -1.0 };
            (b.min(y - rq), f.max(y + rq))
        });
        let others = self.others_on_ground(id);
        for row in (0..=rows).rev() {
            for col in 0..=cols {
                let p = self.from_edge(id.0, col as f64 * STEP, row as f64 * STEP);
                let y = row as f64 * STEP;
                if y + back < -EPS || y + front > depth + EPS || !self.spot_ok_among(id, p, false, &others) {
                    continue;
                }
                if self.models_in_dangerous_at(id, p) == 0 {
                    return Some(p);
                }
                fallback = fallback.or(Some(p));
            }
        }
        fallback
    }

    /// "within 3" of a marker", from the closest of `id`'s models as they would stand with
    /// the unit's disc centred on `p` (the one measure of markers for the rules and the policies).
    /// (Inline: the disc settles most calls; the models' test is out of line.)
    #[inline]
    pub fn near_marker_at(&self, id: Id, p: Point, marker: Point) -> bool {
        // the disc holds the models: beyond 3" of it, no model is within 3"
        // (to a millionth of an inch, as `within`: a unit that moved back 1" from a marker 2"
        // away is on it)
        p.distance(marker) - self.radius(id) <= SEIZE_RANGE + EPS && self.a_model_near_marker(id, p, marker)
    }

    /// `near_marker_at`'s test of the models.
    #[inline(never)]
    fn a_model_near_marker(&self, id: Id, p: Point, marker: Point) -> bool {
        self.models_at(id, p).any(|(_, q, r)| q.distance(marker) - r <= SEIZE_RANGE + EPS)
    }

    /// `near_marker_at` where `id` stands.
    pub fn near_marker(&self, id: Id, marker: Point) -> bool {
        self.near_marker_at(id, self.live(id).pos, marker)
    }

    /// Whether `id` may seize and stands within 3" of some marker.
    pub fn on_marker(&self, id: Id) -> bool {
        self.can_seize(id) && self.objectives.iter().any(|&o| self.near_marker(id, o))
    }

    /// `id`'s models as they would stand with the unit's disc centred on `p`.
    pub fn models_at(&self, id: Id, p: Point) -> impl Iterator<Item = (usize, Point, f64)> + '_ {
        let pos = self.live(id).pos;
        self.models(id).map(move |(i, q, r)| (i, Point::new(q.x + p.x - pos.x, q.y + p.y - pos.y), r))
    }

    /// The closest pair of models of `id` standing at `p` and of `other` where it stands:
    /// their distance, and the centres of the two models.
    pub(super) fn closest_pair_at(&self, id: Id, p: Point, other: Id) -> (f64, Point, Point) {
        closest_pair(self.models_at(id, p).map(|(_, q, r)| (q, r)), self.live(other).pos, self.radius(other), || self.models(other).map(|(_, o, ro)| (o, ro)))
    }

    /// A charge path's last step: from its end (where the discs touch) on towards the
    /// target's closest model until it is in base contact with the closest of the charger's
    /// ("Charging models must move ... to get into base contact with an enemy model from the
    /// target unit, or as close as possible"), within `budget` more inches and only onto
    /// spots it may take. Moving the closest pair together by their gap brings no other pair
    /// closer than that gap, so no model overlaps.
    pub(super) fn close_in(&self, id: Id, target: Id, path: Path, budget: f64) -> Path {
        let mut out = path;
        for _ in 0..3 {
            let (gap, ours, theirs) = self.closest_pair_at(id, out.to, target);
            let left = budget - (out.length - path.length);
            if gap <= 1e-6 || left <= 1e-6 {
                break;
            }
            let len = ours.distance(theirs).max(EPS);
            let mut step = gap.min(left);
            let mut moved = false;
            for _ in 0..4 {
                let to = Point::new(out.to.x + (theirs.x - ours.x) * step / len, out.to.y + (theirs.y - ours.y) * step / len);
                if self.spot_ok(id, to, true) {
                    // the step in starts where the discs touched: a bend, so the legs are
                    // the path (with no room for one, the last leg cuts the corner and the
                    // length is the legs')
                    let bent = out.via.push(out.to);
                    out.to = to;
                    out.length = if bent { out.length + step } else { out.legs(self.live(id).pos).map(|(a, b)| a.distance(b)).sum() };
                    moved = true;
                    break;
                }
                step /= 2.0;
            }
            if !moved {
                break;
            }
        }
        out
    }

    /// Whether `id` may move along `a`–`b`: not through impassable terrain nor through other
    /// units ("may never move through other models or units ... even if they are taking a
    /// Charge action"); Flying "may move through units and terrain". The disc sweeps a
    /// rectangle's rounded corners, not its bounding square. A charge's `target` may be
    /// touched at the end of the path.
    pub fn path_ok(&self, id: Id, a: Point, b: Point, target: Option<Id>) -> bool {
        self.path_ok_leaving(id, a, b, target, None)
    }

    /// `path_ok` for a unit leaving the transport `from` (whose footprint it starts in).
    pub fn path_ok_leaving(&self, id: Id, a: Point, b: Point, target: Option<Id>, from: Option<Id>) -> bool {
        let m = self.movement(id);
        if m.flying || m.aircraft {
            return true;
        }
        let r = self.radius(id);
        if self.impassable_pieces().any(|t| paths::sweeps(a, b, r - EPS, t)) {
            return false;
        }
        for army in 0..2 {
            for other in self.on_table(army) {
                if other == id || Some(other) == from || self.info(other).movement.aircraft {
                    continue;
                }
                let room = r + self.radius(other) - if Some(other) == target { 1e-3 } else { EPS };
                if self.live(other).pos.distance_to_segment(a, b) < room {
                    return false;
                }
            }
        }
        true
    }

    /// Difficult and dangerous terrain touched by `id`'s footprint along `a`–`b`, as its
    /// rules read them: Strider ignores difficult terrain; Flying and Aircraft ignore terrain.
    fn terrain_on_path(&self, id: Id, a: Point, b: Point) -> (bool, bool) {
        let m = self.movement(id);
        if m.flying || m.aircraft {
            return (false, false);
        }
        let r = self.radius(id);
        let mut out = (false, false);
        for t in &self.terrain {
            let matters = (t.kinds.difficult && !m.strider && !out.0) || (t.kinds.dangerous && !out.1);
            if matters && paths::sweeps(a, b, r, t) {
                out.0 |= t.kinds.difficult && !m.strider;
                out.1 |= t.kinds.dangerous;
            }
        }
        out
    }

    /// Difficult and dangerous terrain touched along a path from `from`.
    pub(super) fn terrain_on_legs(&self, id: Id, from: Point, via: &Bends, to: Point) -> (bool, bool) {
        let mut at = from;
        let mut out = (false, false);
        for p in via.as_slice().iter().copied().chain(std::iter::once(to)) {
            let (d, x) = self.terrain_on_path(id, at, p);
            out = (out.0 | d, out.1 | x);
            at = p;
        }
        out
    }

    /// The obstacles of `id`'s next move or charge (into `target`): impassable terrain and
    /// other units' discs (1" wider when `gap` says so: "may never be within 1" of models from
    /// other units, unless they are taking a Charge action"), and the difficult and dangerous
    /// pieces a search may choose to go round. Aircraft are no obstacle ("ignore all units").
    fn fill_obstacles(&self, paths: &mut Paths, id: Id, from: Point, target: Option<Id>, gap: f64) {
        let r = self.radius(id);
        let strider = self.info(id).movement.strider;
        paths.reset(Point::new(r, r), Point::new(WIDTH - r, DEPTH - r));
        for t in &self.terrain {
            let class = terrain_class(t, strider);
            if class != 0 {
                paths.add_piece(t, r + MARGIN, class, from);
            }
        }
        // the mover's own army first: the obstacles' order (which settles ties between
        // equally short routes) must not depend on which army is A, or a paired mirror match
        // would not be an exact mirror
        for army in [id.0, 1 - id.0] {
            for other in self.on_table(army) {
                if other == id || Some(other) == target || self.info(other).movement.aircraft {
                    continue;
                }
                let touching = r + self.radius(other) + MARGIN;
                paths.add_disc(self.live(other).pos, touching + gap, touching, UNIT, from);
            }
        }
    }

    /// A path for `id` towards `goal`, covering at most `allowance` (at most 6" if it touches
    /// difficult terrain): the first `allowance` of the shortest route there, round what it
    /// may not cross. `None` when no move gets nearer.
    pub fn plan_move(&mut self, id: Id, goal: Point, allowance: f64) -> Option<Path> {
        let t = self.clock();
        let out = self.find_move(id, goal, allowance);
        self.lap(t, |x| &mut x.movement);
        out
    }

    /// The route through difficult terrain is capped at 6" ("If any model in a unit moves in
    /// or through difficult terrain at any point of its move, then all models in the unit may
    /// not move more than 6""): so the search also tries the route round it, and the route
    /// that stops short of it, and keeps the move that leaves the unit nearest its goal along
    /// its route. Dangerous terrain counts `DANGEROUS_DETOUR` inches against a move.
    fn find_move(&self, id: Id, goal: Point, allowance: f64) -> Option<Path> {
        let from = self.live(id).pos;
        if from.distance(goal) < 0.05 || allowance <= 0.0 {
            return None;
        }
        let m = self.movement(id);
        if m.flying || m.aircraft {
            return self.flying_move(id, goal, allowance);
        }
        paths::with_scratch(|paths| {
            self.fill_obstacles(paths, id, from, None, UNIT_GAP);
            let goal = paths.push_out(goal, IMPASSABLE | UNIT);
            let mut masks = Widening::new(IMPASSABLE | UNIT);
            let mut best: Option<(f64, Path)> = None;
            while let Some((mask, again)) = masks.next() {
                let Some(full) = paths.shortest(from, Goal::Point(goal), mask, f64::INFINITY, allowance + LOOKAHEAD, again) else { continue };
                let route = &paths.route;
                let beyond = route.last().map_or(0.0, |end| end.distance(goal));
                let mut consider = |path: Option<Path>| {
                    let Some(p) = path else { return };
                    let score = full - p.length + beyond + if p.dangerous { DANGEROUS_DETOUR } else { 0.0 };
                    if p.length >= 0.05 && best.as_ref().is_none_or(|(b, _)| score < *b - 1e-9) {
                        best = Some((score, p));
                    }
                };
                consider(self.walk_route(id, route, allowance));
                // where the route first meets terrain that would cost something on this move
                let kinds = if allowance > DIFFICULT_MOVE { DIFFICULT | DANGEROUS } else { DANGEROUS };
                let Some((at, touched)) = self.first_touch(id, route, allowance, kinds) else { continue };
                if at > 0.06 {
                    consider(self.walk_route(id, route, at - 0.01));
                }
                masks.widen(mask | touched);
            }
            best.map(|(_, p)| p)
        })
        .flatten()
    }

    /// The first `inches` of `route` as a move of `id`, capped at 6" if it touches difficult
    /// terrain, and shortened (half an inch at a time) until it ends where the unit may stand.
    fn walk_route(&self, id: Id, route: &[Point], inches: f64) -> Option<Path> {
        let from = *route.first()?;
        let mut inches = inches;
        for _ in 0..12 {
            let (via, to, length) = paths::walk(route, inches);
            let (difficult, dangerous) = self.terrain_on_legs(id, from, &via, to);
            if difficult && length > DIFFICULT_MOVE + EPS {
                inches = DIFFICULT_MOVE;
                continue;
            }
            if length < 0.05 {
                return None;
            }
            if self.spot_ok(id, to, false) {
                return Some(Path { to, via, length, difficult, dangerous });
            }
            inches = length - 0.5;
        }
        None
    }

    /// How far along `route` (within `within` inches) `id`'s disc first touches terrain of the
    /// `kinds` (`DIFFICULT`, `DANGEROUS`) that matter to it, and which kinds it touches there
    /// or later on that stretch.
    fn first_touch(&self, id: Id, route: &[Point], within: f64, kinds: u8) -> Option<(f64, u8)> {
        let r = self.radius(id);
        let strider = self.info(id).movement.strider;
        let (mut done, mut first, mut touched) = (0.0, f64::INFINITY, 0u8);
        for w in route.windows(2) {
            if done >= within {
                break;
            }
            let leg = w[0].distance(w[1]);
            let end = if done + leg > within { w[0].towards(w[1], within - done) } else { w[1] };
            for t in &self.terrain {
                let class = terrain_class(t, strider);
                if class & kinds == 0 || !paths::sweeps(w[0], end, r, t) {
                    continue;
                }
                if let Some(s) = paths::first_touch(w[0], end, r, t) {
                    first = first.min(done + s * w[0].distance(end));
                    touched |= class & kinds;
                }
            }
            done += leg;
        }
        (touched != 0).then_some((first, touched))
    }

    /// A Flying or Aircraft move: straight ("may move through units and terrain"), stopping
    /// short where the unit may not stand.
    fn flying_move(&self, id: Id, goal: Point, allowance: f64) -> Option<Path> {
        let from = self.live(id).pos;
        let r = self.radius(id);
        // (a unit wider than the table is refused before the game: `Formation::widest`)
        let goal = Point::new(goal.x.clamp(r.min(WIDTH / 2.0), (WIDTH - r).max(WIDTH / 2.0)), goal.y.clamp(r.min(DEPTH / 2.0), (DEPTH - r).max(DEPTH / 2.0)));
        let mut length = allowance.min(from.distance(goal));
        while length >= 0.05 {
            let to = from.towards(goal, length);
            if self.spot_ok(id, to, false) {
                let (difficult, dangerous) = self.terrain_on_path(id, from, to);
                return Some(Path { to, via: Bends::NONE, length, difficult, dangerous });
            }
            length -= 0.5;
        }
        None
    }

    /// A spot for `id` at most `inches` from where it stands (its models "anywhere fully
    /// within X" of their position: the disc moves at most X), as near `goal` as it gets.
    /// Placing is not moving: terrain and units on the way do not matter, only that the spot
    /// is on the table, off impassable terrain and 1" from other units. `None` when no legal
    /// spot is at least half an inch nearer the goal.
    pub fn find_placement(&mut self, id: Id, goal: Point, inches: f64) -> Option<Point> {
        const TURNS: [f64; 9] = [0.0, 0.5, -0.5, 1.0, -1.0, 1.5, -1.5, 2.2, -2.2];
        let t = self.clock();
        let from = self.live(id).pos;
        let to_goal = from.distance(goal);
        let mut best: Option<(f64, Point)> = None;
        if to_goal >= 0.5 && inches > 0.0 {
            let base = (goal.y - from.y).atan2(goal.x - from.x);
            for turn in TURNS {
                let (sin, cos) = (base + turn).sin_cos();
                for share in [1.0, 0.6, 0.3] {
                    let len = inches.min(to_goal) * share;
                    let to = Point::new(from.x + cos * len, from.y + sin * len);
                    if !self.spot_ok(id, to, false) {
                        continue;
                    }
                    let left = to.distance(goal);
                    if best.is_none_or(|(b, _)| left < b - EPS) {
                        best = Some((left, to));
                    }
                    break;
                }
            }
        }
        self.lap(t, |x| &mut x.movement);
        best.filter(|(left, _)| *left < to_goal - 0.5).map(|(_, p)| p)
    }

    /// Places `id` at `to` (`Effect::Reposition`), checking the allowance and the spot.
    fn reposition(&mut self, id: Id, to: Point, allowance: f64, when: &'static str) {
        let from = self.live(id).pos;
        if from.distance(to) > allowance + EPS {
            self.violation(|| format!("unit {id:?} placed {:.3}\" away with {allowance}\" allowed", from.distance(to)));
        }
        self.live_mut(id).pos = to;
        if !self.spot_ok(id, to, false) {
            self.violation(|| format!("unit {id:?} placed at ({:.2}, {:.2}), where it may not stand", to.x, to.y));
        }
        self.event(|g| Event {
            allowance,
            models_left: g.info(id).alloc.alive(g.live(id).s),
            detail: when.into(),
            models: g.footprint(id),
            ..Event::of("place", id, from, to)
        });
    }

    /// "After this model is deployed, it may be placed anywhere fully within X" of its
    /// position" (Fanatic), as the policy likes.
    fn place_after_deployment(&mut self, id: Id) {
        let inches = self.info(id).tricks.place_after_deployment;
        if inches <= 0.0 || self.live(id).gone || self.policy_kind(id.0) == PolicyKind::Hold {
            return;
        }
        if let Some(to) = policy::placement_after_deployment(self, id, inches) {
            self.reposition(id, to, inches, "after deployment");
        }
    }

    /// "When this unit is activated, you may place all models with this rule in it anywhere
    /// fully within X" of their position" (Wolfborn, Rapid Blink, Bounding D3+1", Teleport):
    /// the policy picks a spot towards where its action wants to go, or none.
    fn place_on_activation(&mut self, id: Id) {
        let (mut inches, mut d3) = self.info(id).tricks.place_on_activation;
        // a placement held once (Teleport, Rapid Blink Boost from a spell), where it reaches further
        let mask = self.held_for(id, BuffUse::Activation);
        let held = self.held_max(id, mask, |b| b.on_activation());
        let use_held = held.is_some_and(|(x, _)| x > inches + if d3 { 2.0 } else { 0.0 });
        if let Some((x, _)) = held.filter(|_| use_held) {
            (inches, d3) = (x, false);
        }
        if inches <= 0.0 && !d3 {
            return;
        }
        let Some(goal) = policy::placement_goal(self, id, inches + if d3 { 3.0 } else { 0.0 }) else { return };
        // "D3+1"": the die is rolled when the rule is used
        let allowance = if d3 {
            let roll = (self.rng.d6() + 1) / 2;
            self.dice += 1;
            inches + f64::from(roll)
        } else {
            inches
        };
        if let Some(to) = self.find_placement(id, goal, allowance) {
            self.reposition(id, to, allowance, if d3 { "on activation, D3 rolled" } else { "on activation" });
            if let Some((_, bit)) = held.filter(|_| use_held) {
                self.spend_held(id, bit, "placed on activation");
            }
        }
    }

    /// "Once per activation, before attacking, pick one friendly unit within 12", which gets X
    /// once (next time the effect would apply)" (`Effect::Buff`): the policy picks the unit
    /// (itself included) among those the rule would change and that hold no buff yet.
    fn give_buff(&mut self, id: Id) {
        for rule in self.info(id).tricks.buff.into_iter().flatten() {
            let Some((to, b)) = policy::buff_target(self, id, rule) else { continue };
            self.live_mut(to).buff = b as u8 + 1;
            self.event(|g| Event { detail: rule.to_string(), ..Event::between("buff", id, to, g.live(id).pos, g.live(to).pos) });
        }
    }

    /// Casting Debuff and Casting Buff (`Effect::CastingRollGiven`): "Once per activation,
    /// before attacking, pick one enemy unit within 18" with Caster, which gets -1 to casting
    /// rolls once" (a friendly one within 12", +1); the policy picks the caster.
    fn give_casting_roll(&mut self, id: Id) {
        let x = self.info(id).tricks.casting_roll_given;
        if x == 0 {
            return;
        }
        let Some(to) = policy::casting_roll_target(self, id, x > 0) else {
            return;
        };
        self.live_mut(to).casting_modifier[usize::from(x < 0)] = x;
        self.event(|g| Event { detail: format!("{x:+} to casting rolls"), ..Event::between("casting-modifier", id, to, g.live(id).pos, g.live(to).pos) });
    }

    /// A debuff given by a rule (`Effect::Debuff`, `Effect::EnemyTest`): "Once per activation,
    /// before attacking, pick one enemy unit within 18", which gets -1 to defense rolls once"
    /// (held as a buff is), or "which must take a morale test. If failed, it becomes
    /// fatigued", or "which must immediately take a Dangerous Terrain test".
    fn give_debuff(&mut self, id: Id) {
        let t = self.info(id).tricks;
        if let Some(rule) = t.debuff {
            if let Some((to, b)) = policy::debuff_target(self, id, rule) {
                self.live_mut(to).debuff = b as u8 + 1;
                self.event(|g| Event { detail: rule.to_string(), ..Event::between("debuff", id, to, g.live(id).pos, g.live(to).pos) });
            }
        }
        if let Some(dangerous) = t.enemy_test {
            let Some(to) = policy::enemy_test_target(self, id, dangerous) else {
                return;
            };
            if dangerous {
                let all = self.models(to).fold(0u64, |m, (i, _, _)| m | bit(i));
                self.event(|g| Event { detail: "dangerous terrain test".into(), ..Event::between("debuff-test", id, to, g.live(id).pos, g.live(to).pos) });
                self.roll_dangerous(to, all);
            } else {
                self.test_or_fatigued(id, to, "debuff-test", "morale test");
            }
        }
    }

    /// The rules `id` holds once (a friend's and an enemy's) that act on `used`, as bits by
    /// their index in `UnitInfo::buffed`.
    pub fn held_for(&self, id: Id, used: BuffUse) -> u16 {
        let (live, info) = (self.live(id), self.info(id));
        let mut mask = 0;
        for b in [live.buff, live.debuff] {
            if b > 0 && info.buffed[usize::from(b) - 1].applies(used) {
                mask |= 1 << (b - 1);
            }
        }
        mask
    }

    /// The largest of `value` over the held rules in `mask`, and that rule's bit (`None`: none
    /// is above 0).
    fn held_max(&self, id: Id, mask: u16, value: impl Fn(&super::prepare::Buffed) -> f64) -> Option<(f64, u16)> {
        self.info(id).held(mask).map(|(bit, b)| (value(b), bit)).filter(|(x, _)| *x > 0.0).max_by(|a, b| a.0.total_cmp(&b.0))
    }

    /// The index in `attacker`'s `UnitInfo::buffed` of the rule a mark on `target` gives it,
    /// if that acts on `used` (an attack of `attacker`'s).
    pub fn mark_for(&self, attacker: Id, target: Id, used: BuffUse) -> Option<usize> {
        let rule = self.live(target).mark?;
        if attacker.0 == target.0 {
            return None;
        }
        self.info(attacker).buffed.iter().position(|b| b.rule == rule && b.applies(used)).filter(|&i| i < MAX_HELD_RULES)
    }

    /// The mark on `target` has been used: it loses it.
    pub(super) fn spend_mark(&mut self, target: Id, by: Id, on: &'static str) {
        let Some(rule) = self.live_mut(target).mark.take() else {
            return;
        };
        self.event(|g| Event { detail: format!("{rule}: {on}"), ..Event::between("mark-used", by, target, g.live(by).pos, g.live(target).pos) });
    }

    /// The rules `id`'s attack at `target` is made with (bits by index in `UnitInfo::buffed`):
    /// those it holds that act on it, and a mark's on the target; and whether the mark's is
    /// among them (a rule held and the same rule marked count once, as the held one).
    fn attack_rules(&self, id: Id, target: Id, used: BuffUse) -> (u16, bool) {
        let held = self.held_for(id, used);
        match self.mark_for(id, target, used) {
            Some(m) if held & (1 << m) == 0 => (held | 1 << m, true),
            _ => (held, false),
        }
    }

    /// The unit's allocation with the rules `mask` (bits by index in `UnitInfo::buffed`) on
    /// every model: its own for none.
    fn alloc_of(&self, id: Id, mask: u16) -> &'a Allocation {
        let info = self.info(id);
        match mask.count_ones() {
            0 => &info.alloc,
            1 => &info.buffed[mask.trailing_zeros() as usize].alloc,
            _ => info.held_alloc(mask),
        }
    }

    /// The held rules of `id` in `mask` have been used: the unit loses them.
    fn spend_held(&mut self, id: Id, mask: u16, on: &'static str) {
        for slot in 0..2 {
            let b = [self.live(id).buff, self.live(id).debuff][slot];
            if b == 0 || mask & (1 << (b - 1)) == 0 {
                continue;
            }
            let live = self.live_mut(id);
            if slot == 0 { live.buff = 0 } else { live.debuff = 0 }
            self.event(|g| Event { detail: format!("{}: {on}", g.info(id).buffed[usize::from(b) - 1].rule), ..Event::of("buff-used", id, g.live(id).pos, g.live(id).pos) });
        }
    }

    /// "Once per round, units where all models have this rule may move by up to X" after
    /// shooting or being in melee" (Harassing, Guerrilla, Hit & Run and their Boosts): a move
    /// like any other (difficult terrain caps it at 6", dangerous terrain tests), where the
    /// policy likes, or none.
    fn move_after_attack(&mut self, id: Id, melee: bool) {
        let t = self.info(id).tricks;
        let own = if melee { t.after_melee } else { t.after_shooting };
        // a move after attacking held once (Hit & Run Fighter from a spell), where it goes further
        let mask = self.held_for(id, BuffUse::AfterAttack(melee));
        let (held, bit) = self.held_max(id, mask, |b| b.after_attack(melee)).unwrap_or((0.0, 0));
        let inches = own.max(held);
        let live = self.live(id);
        if inches <= 0.0 || !live.on_table() || live.moved_after_attack || live.shaken || self.info(id).movement.aircraft {
            return;
        }
        let Some(path) = policy::after_attack_path(self, id, inches) else { return };
        if held > own {
            self.spend_held(id, bit, "move after attacking");
        }
        self.live_mut(id).moved_after_attack = true;
        self.apply_move_noted(id, path, "hit-and-run", inches, if melee { "after melee" } else { "after shooting" });
    }

    /// The path of a charge of `id` into `target`: up to the charge distance (6" through
    /// difficult terrain) into base contact, the shortest way round what it may not cross
    /// ("Charge moves don't have to be in a straight line"). `None`: not a valid target.
    pub fn charge_path(&mut self, id: Id, target: Id) -> Option<Path> {
        let t = self.clock();
        let out = self.find_charge(id, target);
        self.lap(t, |x| &mut x.movement);
        out
    }

    /// How far `id` may move to charge `target`: its charge move less the target's
    /// `ChargePenalty` (Melee Shrouding: "Enemies get -3" movement when trying to charge").
    pub fn charge_reach(&self, id: Id, target: Id) -> f64 {
        (self.movement(id).charge - self.info(target).tricks.charge_penalty).max(0.0)
    }

    /// How `id` moves now: its rules' movement, and the inches of a buff it holds for its
    /// next move (`Effect::Buff` of Speed Boost, Rapid Advance: `BuffUse::Move`).
    #[inline]
    pub fn movement(&self, id: Id) -> Movement {
        let m = self.info(id).movement;
        let live = self.live(id);
        if (live.buff > 0 || live.debuff > 0) && !m.aircraft && !m.hold_only { self.buffed_movement(id, m) } else { m }
    }

    /// `movement` of a unit that holds a buff or a debuff.
    #[inline(never)]
    fn buffed_movement(&self, id: Id, mut m: Movement) -> Movement {
        let live = self.live(id);
        // a friend's inches and an enemy's both count ("+2"" and "-2"" from two spells)
        let (mut advance, mut rush, mut charge) = (m.advance, m.rush, m.charge);
        for b in [live.buff, live.debuff].into_iter().filter(|&b| b > 0) {
            let held = &self.info(id).buffed[usize::from(b) - 1];
            let add = held.moves();
            (advance, rush, charge) = (advance + f64::from(add.advance), rush + f64::from(add.rush), charge + f64::from(add.charge));
            m.flying |= held.flying;
        }
        (m.advance, m.rush, m.charge) = (advance.max(0.0), rush.max(0.0), charge.max(0.0));
        m
    }

    /// A buff for moves is used by a move of this kind (0 Advance, 1 Rush, 2 Charge) if it adds to it.
    fn spend_move_buff(&mut self, id: Id, kind: u8) {
        let mask = self.held_for(id, BuffUse::Move(kind));
        if mask != 0 {
            self.spend_held(id, mask, ["advance", "rush", "charge"][usize::from(kind)]);
        }
    }

    /// "Charging models must move by up to 12" to get into base contact with an enemy model
    /// from the target unit ... (charge moves don't have to be in a straight line)": the
    /// shortest route to any point in contact with the target, round impassable terrain and
    /// through no other unit (touching them is allowed: "may ignore the 1" distance
    /// restriction"), within the charge allowance (6" if it touches difficult terrain; then
    /// the route round the difficult terrain is tried too). Dangerous terrain is avoided when
    /// the way round is at most `DANGEROUS_DETOUR` longer and still within reach.
    fn find_charge(&self, id: Id, target: Id) -> Option<Path> {
        let m = self.movement(id);
        let reach = self.charge_reach(id, target);
        if m.hold_only || m.aircraft || self.info(target).movement.aircraft {
            return None;
        }
        self.find_contact(id, target, reach)
    }

    /// The shortest path of `id` into base contact with `target` (or as close as it gets)
    /// within `reach` inches (6" through difficult terrain, `into_contact`), round what it may
    /// not cross; `None`: none. A charge's, and
    /// an embarking unit's ("they ignore the 1" move restriction when embarking").
    pub(super) fn find_contact(&self, id: Id, target: Id, reach: f64) -> Option<Path> {
        let m = self.movement(id);
        if !self.within(id, target, reach) {
            return None;
        }
        let (from, at) = (self.live(id).pos, self.live(target).pos);
        let contact = self.radius(id) + self.radius(target);
        if m.flying {
            let to = if from.distance(at) <= contact { from } else { at.towards(from, contact) };
            let length = from.distance(to);
            let path = Path { to, via: Bends::NONE, length, difficult: false, dangerous: false };
            return if length <= reach + EPS && self.spot_ok(id, to, true) { self.into_contact(id, target, path, reach) } else { None };
        }
        if from.distance(at) <= contact {
            // the discs already touch (after a melee's move back they may overlap, the models
            // an inch apart): no route to find, only the step into base contact
            let here = Path { to: from, via: Bends::NONE, length: 0.0, difficult: false, dangerous: false };
            return self.into_contact(id, target, here, reach);
        }
        paths::with_scratch(|paths| {
            self.fill_obstacles(paths, id, from, Some(target), 0.0);
            let goal = Goal::Contact { centre: at, contact };
            let mut masks = Widening::new(IMPASSABLE | UNIT);
            let mut best: Option<(f64, Path)> = None;
            while let Some((mask, again)) = masks.next() {
                let Some(length) = paths.shortest(from, goal, mask, reach, f64::INFINITY, again) else { continue };
                let route = &paths.route;
                let (Some(&to), true) = (route.last(), route.len() >= 2 && route.len() - 2 <= paths::MAX_BENDS) else { continue };
                let mut via = Bends::NONE;
                for &p in &route[1..route.len() - 1] {
                    via.push(p);
                }
                let (difficult, dangerous) = self.terrain_on_legs(id, from, &via, to);
                let path = Path { to, via, length, difficult, dangerous };
                let mut too_far = length > path.limit(reach) + EPS;
                if !too_far && self.spot_ok(id, to, true) && path.legs(from).all(|(a, b)| self.path_ok(id, a, b, Some(target))) {
                    match self.into_contact(id, target, path, reach) {
                        Some(full) => {
                            let score = full.length + if full.dangerous { DANGEROUS_DETOUR } else { 0.0 };
                            if best.as_ref().is_none_or(|(b, _)| score < *b - 1e-9) {
                                best = Some((score, full));
                            }
                        }
                        None => too_far = true,
                    }
                }
                let touched = (if too_far { DIFFICULT } else { 0 }) | if dangerous { DANGEROUS } else { 0 };
                masks.widen(mask | touched);
            }
            best.map(|(_, p)| p)
        })
        .flatten()
    }

    /// A path that brings the discs into contact, on into base contact (`close_in`), with the
    /// terrain of the whole move: "If any model in a unit moves in or through difficult
    /// terrain at any point of its move, then all models in the unit may not move more than
    /// 6"", the last step into a target that stands in a forest included; and a unit "may
    /// only take a Charge action if at least one model is within charge distance of the
    /// target", so through difficult terrain its closest model starts within 6". `None`: the
    /// move is difficult and the target beyond 6" (the route round the terrain may do).
    fn into_contact(&self, id: Id, target: Id, path: Path, reach: f64) -> Option<Path> {
        let from = self.live(id).pos;
        let capped = move_limit(reach, true);
        let mut full = self.close_in(id, target, path, path.limit(reach) - path.length);
        (full.difficult, full.dangerous) = self.terrain_on_legs(id, from, &full.via, full.to);
        if full.difficult && !path.difficult {
            // the step in is what touches difficult terrain: the whole move within 6"
            if path.length > capped + EPS {
                return None;
            }
            full = self.close_in(id, target, path, capped - path.length);
            (full.difficult, full.dangerous) = self.terrain_on_legs(id, from, &full.via, full.to);
        }
        (!full.difficult || self.within(id, target, capped)).then_some(full)
    }

    /// Line of sight and cover from `a` to `b`, model by model. "If at least one model in the
    /// unit has line of sight to an enemy model ... then that enemy is a valid target";
    /// blocking terrain a line crosses blocks it unless either model stands in the piece
    /// ("can see into and out of forests, but not through them"); "Models can't see through
    /// solid obstacles, including the perimeter of other units" (another unit's disc), "but
    /// they can always see through friendly models from their own unit". Cover: "If the
    /// majority of models in a unit are fully inside a piece of cover terrain or behind a
    /// sight blocker". Each shooting model's distance to the closest target model it sees
    /// (and to the closest at all, for Indirect) is kept for `shot_key`.
    pub fn sight(&mut self, a: Id, b: Id) -> Sight {
        let t = self.clock();
        let mut seen = std::mem::take(&mut self.seen);
        let mut looking = std::mem::take(&mut self.looking);
        let out = self.look(a, b, &mut seen, &mut looking);
        self.seen = seen;
        self.looking = looking;
        self.seen_for = Some(self.pair_key(a, b));
        self.lap(t, |x| &mut x.line_of_sight);
        out
    }

    /// What `seen` was worked out for: both units, where they stand and their models left.
    fn pair_key(&self, a: Id, b: Id) -> PairKey {
        (a, b, [self.live(a).pos, self.live(b).pos], [self.formation_key(a), self.formation_key(b)])
    }

    /// `sight`'s work: fills `seen` with (slot, distance to the closest target model in
    /// sight or infinity, distance to the closest target model) per model of `a`.
    fn look(&self, a: Id, b: Id, seen: &mut Vec<(usize, f64, f64)>, looking: &mut Looking) -> Sight {
        seen.clear();
        let (pa, pb) = (self.live(a).pos, self.live(b).pos);
        let reach = self.radius(a).max(self.radius(b));
        // only what crosses the band joining the two units' discs can stand between their
        // models (the band's box settles most pieces and units first)
        let (lo, hi) = (Point::new(pa.x.min(pb.x) - reach, pa.y.min(pb.y) - reach), Point::new(pa.x.max(pb.x) + reach, pa.y.max(pb.y) + reach));
        let Looking { pieces, blockers, targets } = looking;
        pieces.clear();
        pieces.extend(self.by_kind.sight.iter().copied().filter(|&i| {
            let t = &self.terrain[i];
            t.x1 >= lo.x && t.x0 <= hi.x && t.y1 >= lo.y && t.y0 <= hi.y && t.crossed(pa, pb, reach)
        }));
        blockers.clear();
        for army in 0..2 {
            for other in self.on_table(army) {
                if other != a && other != b && !self.info(other).movement.aircraft {
                    let (c, r) = (self.live(other).pos, self.radius(other));
                    let near = c.x + r > lo.x && c.x - r < hi.x && c.y + r > lo.y && c.y - r < hi.y;
                    if near && c.distance_to_segment(pa, pb) < reach + r {
                        blockers.push((c, r, other));
                    }
                }
            }
        }
        let terrain = &self.terrain;
        let (pieces, blockers) = (|| pieces.iter().map(|&i| &terrain[i]), &*blockers);
        let blocked = |p: Point, q: Point| {
            pieces().any(|t| t.kinds.blocking && !t.contains(p) && !t.contains(q) && t.crossed(p, q, 0.0))
                || blockers.iter().any(|&(c, r, other)| {
                    c.distance_to_segment(p, q) < r
                        && ((c.distance(p) > r && c.distance(q) > r)
                            // an end inside the unit's disc (the units' models interleave): the
                            // perimeter is its models' bases, and they block
                            || self.models(other).any(|(_, m, rm)| m.distance(p) > rm && m.distance(q) > rm && m.distance_to_segment(p, q) < rm))
                })
        };
        let clear = pieces().next().is_none() && blockers.is_empty();
        targets.clear();
        targets.extend(self.models(b).map(|(_, q, r)| (q, r)));
        let targets = &*targets;
        // "fully inside a piece of cover terrain or behind a sight blocker", seen from the
        // shooting unit (the centre of its disc); a model no shooter sees is behind one too
        // (an Aircraft gets none: "since Aircraft are flying high above the ground, only the
        // actual model counts"; it is above the forest it flies over, not inside it)
        let (mut covered, mut inside) = (0usize, 0usize);
        if !clear && !self.info(b).movement.aircraft {
            for &(q, _) in targets {
                if pieces().any(|t| t.kinds.cover && t.contains(q)) {
                    inside += 1;
                    covered += 1;
                } else if blocked(pa, q) || pieces().any(|t| t.kinds.cover && !t.contains(pa) && t.crossed(pa, q, 0.0)) {
                    covered += 1;
                }
            }
        }
        let mut visible = false;
        for (slot, p, r) in self.models(a) {
            // the closest target model first: in sight, it is the answer (most often)
            let (mut any, mut nearest) = (f64::INFINITY, 0);
            for (k, &(q, s)) in targets.iter().enumerate() {
                let d = p.distance(q) - r - s;
                if d < any {
                    (any, nearest) = (d, k);
                }
            }
            let mut in_sight = f64::INFINITY;
            if clear || targets.get(nearest).is_some_and(|&(q, _)| !blocked(p, q)) {
                in_sight = any;
            } else {
                for &(q, s) in targets {
                    let d = p.distance(q) - r - s;
                    if d < in_sight && !blocked(p, q) {
                        in_sight = d;
                    }
                }
            }
            visible |= in_sight.is_finite();
            seen.push((slot, in_sight.max(0.0), any.max(0.0)));
        }
        let n = targets.len();
        Sight { visible, cover: 2 * covered > n, cover_inside: 2 * inside > n }
    }

    // ---- the game ---------------------------------------------------------------------

    /// Plays the game and adds it to `out`.
    pub fn play(mut self, out: &mut Output) {
        let t = self.clock();
        self.deploy();
        let mut first = self.seat[0];
        for round in 1..=self.config.rounds {
            self.round = round;
            first = self.play_round(first);
            self.sync_passengers();
            self.score_round();
        }
        self.lap(t, |x| &mut x.total);
        self.finish(out);
    }

    fn place(&mut self, id: Id, p: Point, kind: &'static str) {
        let from = self.live(id).pos;
        self.live_mut(id).pos = p;
        self.live_mut(id).reserve = false;
        if !self.spot_ok(id, p, false) && kind != "deploy-fixed" {
            self.violation(|| format!("unit {id:?} placed at ({:.2}, {:.2}), where it may not stand", p.x, p.y));
        }
        self.event(|g| Event { models_left: g.info(id).models, models: g.footprint(id), ..Event::of(kind, id, from, p) });
    }

    /// A duel's line-up: each army's one unit on the table's middle, facing the other across
    /// the centre line, their closest models `distance` apart.
    fn line_up(&mut self, distance: f64) {
        let spots = self.lined_up(distance);
        for (army, p) in spots.into_iter().enumerate() {
            self.place((army, 0), p, "deploy-fixed");
        }
    }

    /// Where [`Game::line_up`] puts army A's and army B's units. The formations face each
    /// other along the table's depth, so the gap between their closest models changes inch
    /// for inch with their centres' separation while it is above zero: from a separation
    /// that is surely wide enough (the discs' radii apart and then some), a few measured
    /// corrections reach `distance`.
    pub(super) fn lined_up(&mut self, distance: f64) -> [Point; 2] {
        let low = self.seat[0];
        let ids = [(low, 0), (1 - low, 0)];
        let (x, y) = (table::WIDTH / 2.0, table::DEPTH / 2.0);
        let mut half = distance / 2.0 + self.radius(ids[0]) + self.radius(ids[1]) + 1.0;
        for _ in 0..8 {
            for (id, side) in ids.into_iter().zip([-1.0, 1.0]) {
                let live = self.live_mut(id);
                live.pos = Point::new(x, y + side * half);
                live.reserve = false;
            }
            let gap = self.gap(ids[0], ids[1]);
            if (gap - distance).abs() < 1e-9 {
                break;
            }
            half += (distance - gap) / 2.0;
        }
        let mut out = [Point::default(); 2];
        for id in ids {
            out[id.0] = self.live(id).pos;
        }
        out
    }

    /// "the winner must start deploying their army first ... places one unit fully within 12"
    /// of their table edge ... Then the players continue alternating in placing one unit each";
    /// then Scouts ("After all other units are deployed ... starting with the player that
    /// activates next"); Ambushers wait for round 2 or later.
    pub(super) fn deploy(&mut self) {
        if let Some(distance) = self.config.line_up {
            self.line_up(distance);
            for army in 0..2 {
                for u in 0..self.units[army].len() {
                    self.place_after_deployment((army, u));
                }
            }
            self.snapshot();
            return;
        }
        if let Some(fixed) = &self.config.deployment {
            for army in 0..2 {
                for (u, p) in fixed[army].iter().enumerate() {
                    self.place((army, u), *p, "deploy-fixed");
                }
            }
            for army in 0..2 {
                for u in 0..self.units[army].len() {
                    self.place_after_deployment((army, u));
                }
            }
            self.snapshot();
            return;
        }
        let mut queues: [Short<usize>; 2] = Default::default();
        let mut scouts: [Short<usize>; 2] = Default::default();
        for army in 0..2 {
            let keeps_tricks = self.policy_kind(army) != PolicyKind::Hold;
            for (u, info) in self.prep.armies[army].iter().enumerate() {
                if keeps_tricks && info.movement.ambush {
                    self.units[army][u].reserve = true;
                } else if keeps_tricks && info.movement.scout {
                    scouts[army].push(u);
                } else {
                    queues[army].push(u);
                }
            }
            // gone until placed, so that unplaced units block nothing
            for &u in queues[army].iter().chain(&scouts[army]) {
                self.units[army][u].gone = true;
            }
        }
        // "Transports may deploy with units inside ... units inside Transports are deployed
        // at the same time as the Transport"
        let mut boarding: Vec<(Id, Id)> = Vec::new();
        for army in 0..2 {
            for (u, t) in policy::passengers(self, army) {
                queues[army].retain(|x| *x != u);
                // a transport waiting to Ambush holds its units from the start
                if self.units[army][t].reserve {
                    self.embark((army, u), (army, t));
                } else {
                    boarding.push(((army, u), (army, t)));
                }
            }
        }
        for (lists, depth, kind) in [(queues, DEPLOY_DEPTH, "deploy"), (scouts, DEPLOY_DEPTH + SCOUT_DEPTH, "scout")] {
            for id in alternating(self.seat[0], &lists) {
                self.units[id.0][id.1].gone = false;
                let t = self.clock();
                // the policy samples spots; when it finds none, any legal spot in the zone
                let spot = policy::deployment_spot(self, id, depth).or_else(|| self.any_spot(id, depth));
                self.lap(t, |x| &mut x.movement);
                match spot {
                    Some(p) => {
                        self.place(id, p, kind);
                        self.place_after_deployment(id);
                        for &(passenger, _) in boarding.iter().filter(|(_, t)| *t == id) {
                            self.embark(passenger, id);
                        }
                    }
                    // no room at all (every half inch of the zone tried): the unit cannot
                    // be deployed and counts as lost (with the units it carries), and the
                    // trace says so
                    None => {
                        for who in std::iter::once(id).chain(boarding.iter().filter(|(_, t)| *t == id).map(|(p, _)| *p)) {
                            self.live_mut(who).gone = true;
                            self.event(|_| Event { detail: "no room to deploy".into(), ..Event::of("lost", who, Point::default(), Point::default()) });
                        }
                    }
                }
            }
        }
        self.sync_passengers();
        self.snapshot();
    }

    /// "At the start of any round after the first, may be deployed anywhere over 9" away from
    /// enemy units. Players alternate in placing Ambushers, starting with the player that
    /// activates next."
    /// Rapid Ambush may arrive from the first round (`Effect::Ambush`'s `from_round`).
    fn ambush(&mut self, first: usize) {
        let round = self.round;
        let mut waiting: [std::collections::VecDeque<usize>; 2] = [0, 1].map(|army| {
            (0..self.units[army].len())
                .filter(|&u| self.units[army][u].reserve && !self.units[army][u].gone && self.prep.armies[army][u].movement.ambush_from <= round)
                .collect()
        });
        // on its turn a player places one of its Ambushers that has somewhere to arrive (one
        // with nowhere waits for the next round, and the player places another): a unit that
        // finds no spot does not cost the player its turn
        let mut turn = first;
        while waiting.iter().any(|w| !w.is_empty()) {
            while let Some(u) = waiting[turn].pop_front() {
                if self.arrive_by_ambush((turn, u)) {
                    break;
                }
            }
            turn = 1 - turn;
        }
    }

    /// Places the Ambusher `id` where the policy picks, with the units it carries; `false`:
    /// nowhere to arrive.
    fn arrive_by_ambush(&mut self, id: Id) -> bool {
        let Some(p) = policy::ambush_spot(self, id) else { return false };
        self.live_mut(id).arrived = self.round;
        self.place(id, p, "ambush");
        // its units arrive with it ("deployed at the same time as the Transport")
        for u in 0..self.units[id.0].len() {
            if self.carrier((id.0, u)) == Some(id) {
                self.live_mut((id.0, u)).arrived = self.round;
            }
        }
        self.arrival_hits(id);
        true
    }

    /// "Once deployed via this rule, roll X dice, for each 4+ one enemy unit within 3" takes 2
    /// hits with AP(1)" (`Effect::ArrivalHits`: Surprise Attack): each success goes to the
    /// enemy unit within reach that the policy picks; the hits are blocked as any hits (cover
    /// does not count: they are not shooting). Outside any activation, they call for no morale test.
    fn arrival_hits(&mut self, id: Id) {
        let (dice, need, within, per, ap) = self.info(id).tricks.arrival_hits;
        if dice == 0 {
            return;
        }
        let near: Vec<Id> = self.on_table(1 - id.0).filter(|&e| self.within(id, e, within + EPS)).collect();
        let rolls: Vec<u8> = (0..dice).map(|_| self.rng.d6()).collect();
        self.dice += u64::from(dice);
        let successes = rolls.iter().filter(|&&r| r >= need).count() as u32;
        self.event(|g| Event {
            dice: u64::from(dice),
            hits: successes,
            models_left: g.info(id).alloc.alive(g.live(id).s),
            detail: format!("rolled {}", rolls.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(" ")),
            ..Event::of("surprise", id, g.live(id).pos, g.live(id).pos)
        });
        if near.is_empty() {
            return;
        }
        let situation = Situation::new(self.prep.edition, false, 0.0);
        let rules: std::sync::Arc<[crate::rules::Rule]> = [crate::rules::Rule { name: "AP".into(), rating: Some(crate::rules::Rating::Number(i64::from(ap))) }].into();
        for _ in 0..successes {
            let alive: Vec<Id> = near.iter().copied().filter(|&e| !self.live(e).gone).collect();
            let Some(target) = policy::surprise_target(self, id.0, &alive) else { return };
            let tinfo = self.info(target);
            let group = Group { label: format!("{per} hits, AP({ap})"), kind: plan::GroupKind::AutomaticHits, dice: per, quality: 2, rules: rules.clone(), takedown: false, deadly: false };
            let r = self.roll_hits(id, target, &group, &situation);
            self.event(|g| Event {
                dice: r.dice,
                hits: r.hits,
                wounds: r.wounds,
                models_left: tinfo.alloc.alive(r.end),
                detail: group.label.clone(),
                ..Event::between("surprise-hits", id, target, g.live(id).pos, g.live(target).pos)
            });
        }
    }

    /// One round of alternating activations. Returns the army that "finished activating first"
    /// and so activates first next round.
    fn play_round(&mut self, first: usize) -> usize {
        for army in 0..2 {
            for live in &mut self.units[army] {
                live.activated = false;
                live.fatigued = false;
                live.moved_after_attack = false;
                live.round_start = live.pos;
            }
        }
        self.extra_this_round = [0; 2];
        self.claimed.iter_mut().for_each(|c| *c = [false; 2]);
        self.recover();
        self.give_tokens();
        self.ambush(first);
        self.empty_wrecks();
        let mut turn = first;
        let mut finished_first: Option<usize> = None;
        let mut done = [false; 2];
        loop {
            if !done[turn] {
                self.sync_passengers();
                if self.any_ready(turn) {
                    let u = policy::pick_unit(self, turn);
                    self.activate((turn, u));
                } else if let Some(u) = self.extra_activation(turn) {
                    self.activate_again((turn, u));
                } else {
                    // "the player that finished activating first"
                    done[turn] = true;
                    finished_first.get_or_insert(turn);
                }
            }
            if done == [true, true] {
                break;
            }
            turn = 1 - turn;
        }
        finished_first.unwrap_or(first)
    }

    /// "If a unit where all models have this rule is Shaken at the beginning of the round,
    /// roll one die. On a 4+, it stops being Shaken." (`Effect::RecoverOn`: Battleborn, Honor
    /// Code, Steadfast.)
    fn recover(&mut self) {
        for army in 0..2 {
            for u in 0..self.units[army].len() {
                let id = (army, u);
                if !self.live(id).on_table() || !self.live(id).shaken {
                    continue;
                }
                // a buff for the recovery (Steadfast Buff) is used now, whether or not the
                // unit has a recovery of its own
                let own = self.info(id).tricks.recover_on;
                let mask = self.held_for(id, BuffUse::Recover);
                let lent = self.info(id).held(mask).filter_map(|(_, b)| b.recover_on()).min();
                if mask != 0 {
                    self.spend_held(id, mask, "recovery");
                }
                let on = match (own, lent) {
                    (0, None) => continue,
                    (0, Some(x)) => x,
                    (x, None) => x,
                    (x, Some(y)) => x.min(y),
                };
                let roll = self.rng.d6();
                self.dice += 1;
                let recovered = roll >= on;
                self.live_mut(id).shaken = !recovered;
                self.event(|g| Event {
                    dice: 1,
                    allowance: f64::from(on),
                    models_left: g.info(id).alloc.alive(g.live(id).s),
                    detail: format!("rolled {roll}: {}", if recovered { "no longer Shaken" } else { "still Shaken" }),
                    ..Event::of("recover", id, g.live(id).pos, g.live(id).pos)
                });
            }
        }
    }

    /// A unit of `army` the policy activates a second time this round, if any may
    /// (`Effect::ExtraActivation`: "Once per game ... Only up to half of the units in the army
    /// with this rule at the beginning of the game (rounding up) may use it in a single round").
    fn extra_activation(&mut self, army: usize) -> Option<usize> {
        if self.extra_this_round[army] >= self.extra_limit[army] || self.policy_kind(army) == PolicyKind::Hold {
            return None;
        }
        let eligible: Vec<usize> = self
            .on_table(army)
            .filter(|&id| self.info(id).tricks.extra_activation && self.live(id).activated && !self.live(id).extra_used && !self.live(id).shaken)
            .map(|(_, u)| u)
            .collect();
        if eligible.is_empty() {
            return None;
        }
        policy::extra_activation(self, army, &eligible)
    }

    /// "it may be activated even if it had already activated this round (stops being fatigued
    /// when activated for the second time)".
    fn activate_again(&mut self, id: Id) {
        self.extra_this_round[id.0] += 1;
        let live = self.live_mut(id);
        live.extra_used = true;
        live.fatigued = false;
        let used = self.extra_this_round[id.0];
        let limit = self.extra_limit[id.0];
        if used > limit {
            self.violation(|| format!("army {} used {used} extra activations in round with {limit} allowed", id.0));
        }
        self.event(|g| Event { detail: format!("{used} of {limit} this round"), ..Event::of("activate-again", id, g.live(id).pos, g.live(id).pos) });
        self.activate(id);
    }

    /// One activation: "the player picks one action for the unit to take, and completes it."
    fn activate(&mut self, id: Id) {
        let live = self.live_mut(id);
        live.activated = true;
        // "only one try per spell" in each activation
        live.spells_tried = 0;
        // one dangerous terrain test per activation, for every unit: the test of a unit moved
        // in another unit's activation (a move after melee) counts for that activation
        for army in &mut self.units {
            for live in army.iter_mut() {
                live.dangerous_tested = 0;
            }
        }
        // units whose wounds may call for a morale test at the end of the activation
        let mut touched = Touched::new();
        let m = self.movement(id);
        let inside = self.live(id).carrier.is_some();
        let start = self.live(id).pos;
        // "If a model ... is activated in it, then it must take a dangerous terrain test."
        if !m.aircraft && !inside {
            let inside = self.models_in_dangerous_at(id, start);
            self.dangerous_test(id, inside);
        }
        if self.live(id).gone {
            return;
        }
        let mut in_melee = false;
        // "Units that were in melee don't take morale tests from wounds at the end of an
        // activation": the charger and the unit it charged
        let mut melee_with: Option<Id> = None;
        let was_shaken = self.live(id).shaken;
        if inside {
            if let Some(target) = self.activate_inside(id, &mut touched) {
                in_melee = true;
                melee_with = Some(target);
            }
        } else if was_shaken {
            // "When activated, Shaken units must spend their activation being idle"; Aircraft
            // still make their move ("their mandatory move doesn't break the staying idle
            // requirement").
            if m.aircraft {
                if let Some(path) = policy::aircraft_path(self, id) {
                    self.apply_move(id, path, "idle", m.advance);
                }
            } else {
                self.event(|_| Event::of("idle", id, start, start));
            }
        } else {
            self.place_on_activation(id);
            self.give_buff(id);
            self.give_casting_roll(id);
            self.give_debuff(id);
            // spells are cast "at any point before attacking": damage spells first, at
            // targets in reach now (before the action is chosen, so it sees what they did),
            // then the spells not tried yet just before it attacks: after an Advance or a
            // Rush, before shooting, and (buffs only) before a charge; a unit that attacks
            // while moving (Strafing) casts only first, any spell
            let again = !self.info(id).strafing;
            self.cast_spells(id, if again { Window::Damage } else { Window::Any }, &mut touched);
            let m = self.movement(id);
            let start = self.live(id).pos;
            match policy::decide(self, id) {
                Action::Hold => {
                    self.event(|_| Event::of("hold", id, start, start));
                    self.cast_spells(id, Window::Any, &mut touched);
                    if self.shoot(id, false, &mut touched) {
                        self.move_after_attack(id, false);
                    }
                }
                Action::Advance(path) => {
                    self.apply_move(id, path, "advance", m.advance);
                    self.spend_move_buff(id, 0);
                    if again {
                        self.cast_spells(id, Window::Any, &mut touched);
                    }
                    self.strafe(id, start, path, &mut touched);
                    if !self.live(id).gone && self.shoot(id, true, &mut touched) {
                        self.move_after_attack(id, false);
                    }
                }
                Action::Rush(path) => {
                    self.apply_move(id, path, "rush", m.rush);
                    self.spend_move_buff(id, 1);
                    if again {
                        self.cast_spells(id, Window::Any, &mut touched);
                    }
                    self.strafe(id, start, path, &mut touched);
                }
                Action::Charge(target, path) => {
                    self.cast_spells(id, Window::Buffs, &mut touched);
                    in_melee = true;
                    melee_with = Some(target);
                    self.charge(id, target, path);
                }
                Action::Embark(transport, path, rush) => {
                    self.board(id, transport, path, if rush { m.rush } else { m.advance });
                }
            }
        }
        // "which stops them being Shaken at the end of the activation"
        if was_shaken {
            self.live_mut(id).shaken = false;
        }
        self.empty_wrecks();
        // "At the end of an activation in which a unit takes wounds that leave it with half or
        // less of its starting size ..., it must take a morale test." Units that were in melee
        // compare wounds instead (done in the melee). Wounds from dangerous terrain count too,
        // from the state before the first wound of the activation.
        for (who, before) in std::mem::take(&mut self.wounded_by_terrain) {
            if !touched.iter().any(|(t, _)| *t == who) {
                touched.push((who, before));
            }
        }
        for &(who, before) in &touched {
            if in_melee && (who == id || Some(who) == melee_with) {
                continue;
            }
            self.wound_morale(who, before);
        }
        // a transport that routed in those tests
        self.empty_wrecks();
    }

    /// Moves `id` along `path`; dangerous terrain on the way calls for a test.
    fn apply_move(&mut self, id: Id, path: Path, kind: &'static str, allowance: f64) {
        self.apply_move_noted(id, path, kind, allowance, "");
    }

    /// `apply_move`, with a note for the trace ("after shooting"; then ", difficult" if so).
    fn apply_move_noted(&mut self, id: Id, path: Path, kind: &'static str, allowance: f64, note: &'static str) {
        let from = self.live(id).pos;
        let limit = path.limit(allowance);
        if path.length > limit + EPS || (from.distance(path.to) > path.length + EPS) {
            self.violation(|| format!("unit {id:?} moved {:.3}\" with {limit}\" allowed", path.length));
        }
        // "If a model moves in or through dangerous terrain": the models whose own paths touch it
        let crossing = if path.dangerous { self.models_through_dangerous(id, from, &path) } else { 0 };
        self.live_mut(id).pos = path.to;
        if !self.spot_ok(id, path.to, kind == "charge") {
            self.violation(|| format!("unit {id:?} ended a {kind} at ({:.2}, {:.2}), where it may not stand", path.to.x, path.to.y));
        }
        self.event(|g| Event {
            allowance: limit,
            length: path.length,
            models_left: g.info(id).alloc.alive(g.live(id).s),
            detail: match (note.is_empty(), path.difficult) {
                (true, true) => "difficult".into(),
                (true, false) => String::new(),
                (false, true) => format!("{note}, difficult"),
                (false, false) => note.into(),
            },
            models: g.footprint(id),
            ..Event::of(kind, id, from, path.to)
        });
        self.dangerous_test(id, crossing);
    }

    /// The models of `id` (bits by formation slot) whose bases, moving with the unit from
    /// `from` along `path`, touch dangerous terrain ("Flying ... may move through units and
    /// terrain": `path.dangerous` already says whether any of them does).
    pub(super) fn models_through_dangerous(&self, id: Id, from: Point, path: &Path) -> u64 {
        let legs: Vec<(Point, Point)> = path.legs(from).collect();
        let shift = |p: Point, o: Point| Point::new(p.x + o.x, p.y + o.y);
        let mut out = 0u64;
        for (i, q, r) in self.models(id) {
            let o = Point::new(q.x - from.x, q.y - from.y);
            if self.dangerous_pieces().any(|t| legs.iter().any(|&(a, b)| t.crossed(shift(a, o), shift(b, o), r))) {
                out |= bit(i);
            }
        }
        out
    }

    /// "roll one die (or as many dice as the model's Tough value), and if the result is 1,
    /// then the unit takes one automatic wound": every model of the unit tests, one wound per
    /// 1 rolled; Regeneration may ignore them as it ignores any wound.
    pub(super) fn dangerous_test(&mut self, id: Id, models: u64) {
        // "If a model moves in or through dangerous terrain, or is activated in it, then it
        // must take a dangerous terrain test": once per model per activation, however it got there
        let testing = models & !self.live(id).dangerous_tested;
        if testing == 0 {
            return;
        }
        self.live_mut(id).dangerous_tested |= testing;
        self.roll_dangerous(id, testing);
    }

    /// The dangerous terrain test of the models `testing` (bit per formation slot) of `id`.
    pub(super) fn roll_dangerous(&mut self, id: Id, testing: u64) {
        let t = self.clock();
        let info = self.info(id);
        let s = self.live(id).s;
        let dice: u32 = self.models(id).filter(|&(i, _, _)| testing & bit(i) != 0).map(|(i, _, _)| info.alloc.runs[info.slot_run[i]].0.tough.max(1)).sum();
        let ignore_on = info.ignore_wound_on;
        let mut wounds = 0;
        for _ in 0..dice {
            // a 1 is a wound; its Regeneration die is rolled only then (7: never ignored)
            if self.rng.d6() == 1 && (ignore_on > 6 || self.rng.d6() < ignore_on) {
                wounds += 1;
            }
        }
        self.dice += u64::from(dice);
        let end = info.alloc.apply(s, wounds, 1);
        if wounds > 0 && !self.wounded_by_terrain.iter().any(|(w, _)| *w == id) {
            self.wounded_by_terrain.push((id, s));
        }
        self.set_state(id, end);
        let live = self.live_mut(id);
        live.taken += wounds;
        if info.alloc.destroyed(end) {
            live.gone = true;
        }
        self.lap(t, |x| &mut x.dice);
        self.event(|g| Event {
            dice: u64::from(dice),
            wounds,
            models_left: g.info(id).alloc.alive(end),
            ..Event::of("dangerous", id, g.live(id).pos, g.live(id).pos)
        });
    }

    /// The morale test after wounds (not from melee), at the end of an activation.
    fn wound_morale(&mut self, id: Id, before: State) {
        let alloc = self.alloc_of(id, self.held_for(id, BuffUse::Morale));
        let live = self.live(id);
        if live.gone || !morale::tests_after_shooting(alloc, before, live.s, self.prep.edition) {
            return;
        }
        let passed = self.morale_roll(id);
        if !passed {
            // away from melee a failed test always Shakes ("If the test is failed, the unit is Shaken")
            let routs = morale::failure(alloc, self.live(id).s, false, self.live(id).shaken, self.prep.edition) == morale::Failure::Routed;
            if routs {
                self.live_mut(id).gone = true;
            } else {
                self.live_mut(id).shaken = true;
            }
        }
        self.event(|g| Event {
            models_left: g.info(id).alloc.alive(g.live(id).s),
            detail: if passed { "passed".into() } else { "failed: Shaken".into() },
            ..Event::of("morale", id, g.live(id).pos, g.live(id).pos)
        });
    }

    /// A morale test of `id` as it stands, a buff for morale it holds used on it: whether it passed.
    pub(super) fn morale_roll(&mut self, id: Id) -> bool {
        let mask = self.held_for(id, BuffUse::Morale);
        let alloc = self.alloc_of(id, mask);
        let t = self.clock();
        let live = self.live(id);
        let passed = MoraleTest::new(alloc, live.s, live.shaken, self.prep.edition).roll(|| self.rng.d6());
        if mask != 0 {
            self.spend_held(id, mask, "morale test");
        }
        self.dice += 1;
        self.lap(t, |x| &mut x.dice);
        passed
    }

    /// The key of `id`'s shot at `target` from where both stand now, its plan made and
    /// cached; `None` when no weapon can fire at it. "All models in a unit with line of sight
    /// to the target, and that have a weapon that is within range of it, may fire at it":
    /// each model fires the weapons in range of the closest target model it sees (Indirect
    /// weapons: the closest at all).
    pub fn shot_key(&mut self, id: Id, target: Id, sight: Sight, moved: bool) -> Option<ShotKey> {
        let distance = self.gap(id, target).ceil();
        let (shooter, marked) = self.attack_rules(id, target, BuffUse::Attack { melee: false, charging: false, distance });
        // a rule it shoots with once makes every ranged weapon Indirect ("Indirect when shooting")
        let all_indirect = self.info(id).held(shooter).any(|(_, b)| b.indirect);
        if distance > f64::from(u16::MAX) || (!sight.visible && self.info(id).indirect.is_empty() && !all_indirect) {
            return None;
        }
        if self.seen_for != Some(self.pair_key(id, target)) {
            self.sight(id, target);
        }
        let arrived = self.info(id).tricks.arrival_rules && self.live(id).arrived == self.round;
        let mut firing = Short::new();
        self.firing(id, target, (moved, arrived, shooter, all_indirect), &mut firing);
        if firing.is_empty() {
            return None;
        }
        // the plan needs the distance only where a rule tells distances apart (which models
        // reach the target is in `firing`): the smallest distance of its class between two
        // marks stands for it, so every weapon in range stays in range
        let class = distance_class(self.info(id), self.info(target), distance);
        let live = self.live(id);
        // Indirect "ignores cover from sight obstructions": out of sight only Indirect
        // weapons fire, and only the cover of the terrain the target stands in counts
        let cover = if sight.visible { sight.cover } else { sight.cover_inside };
        let key = ShotKey {
            army: id.0 as u8,
            unit: id.1 as u16,
            firing: rustc_hash::FxBuildHasher.hash_one(&firing),
            target: target.1 as u16,
            distance: class,
            cover,
            visible: sight.visible,
            limited_spent: live.limited_spent,
            moved,
            arrived,
            buff: self.held_for(target, BuffUse::Shot(distance)),
            shooter,
            marked,
        };
        // the hash is checked against the models it stands for: a collision rebuilds the plan
        if self.cache.shots.get(&key).is_none_or(|p| p.firing[..] != firing[..]) {
            let plan = self.new_shot_plan(id, target, key, firing.to_vec());
            self.cache.shots.insert(key, plan);
        }
        (!self.cache.shots[&key].groups.is_empty()).then_some(key)
    }

    /// Which models of `id` fire which weapons at `target` (from `seen`), with the held rules
    /// `shooter` (`all_indirect`: they make every ranged weapon Indirect): (run of the
    /// allocation, weapons of its model as bits, models), sorted, into `out` (a list the
    /// caller holds: no copy of it on return).
    fn firing(&mut self, id: Id, target: Id, (moved, arrived, shooter, all_indirect): (bool, bool, u16, bool), out: &mut Short<(usize, u64, u32)>) {
        let info = self.info(id);
        let spent = self.live(id).limited_spent;
        // per run: the weapons that shoot (named ranged weapons not spent), and the Indirect ones
        let masks: Short<(u64, u64)> = info
            .guns
            .iter()
            .map(|guns| {
                let shoots = guns.ranged & !guns.spent(spent);
                (shoots, if all_indirect { shoots } else { guns.indirect & shoots })
            })
            .collect();
        let tkey = self.formation_key(target);
        out.clear();
        let seen = std::mem::take(&mut self.seen);
        for &(slot, in_sight, any) in &seen {
            let run = info.slot_run[slot];
            let (shoots, indirect) = masks[run];
            if shoots == 0 {
                continue;
            }
            let mut mask = 0;
            if in_sight.is_finite() {
                mask |= self.usable((id, shooter), run, target, tkey, in_sight, moved, arrived) & shoots;
            }
            if indirect != 0 {
                mask |= self.usable((id, shooter), run, target, tkey, any, moved, arrived) & indirect;
            }
            if mask != 0 {
                match out.iter_mut().find(|(r, m, _)| *r == run && *m == mask) {
                    Some(e) => e.2 += 1,
                    None => out.push((run, mask, 1)),
                }
            }
        }
        self.seen = seen;
        out.sort_unstable();
    }

    /// The weapons of a model of `id`'s run `run` that may fire at `target` from `distance`
    /// inches (`plan::usable_weapons`, which knows range bonuses and penalties), cached.
    #[allow(clippy::too_many_arguments)]
    fn usable(&mut self, (id, shooter): (Id, u16), run: usize, target: Id, tkey: (u32, bool), distance: f64, moved: bool, arrived: bool) -> u64 {
        let inches = distance.ceil().min(f64::from(u16::MAX)) as u16;
        let key = (id, shooter, run, target, tkey, inches, moved, arrived);
        if let Some(&m) = self.cache.usable.get(&key) {
            return m;
        }
        let situation = Situation { moved, arrived, ..Situation::new(self.prep.edition, false, f64::from(inches)) };
        let talloc = &self.info(target).alloc;
        let alive = talloc.view(self.live(target).s, false).alive;
        let m = plan::usable_weapons(&self.alloc_of(id, shooter).runs[run].0, &alive, &situation, Pick::All);
        self.cache.usable.insert(key, m);
        m
    }

    pub fn plan(&self, key: &ShotKey) -> &ShotPlan {
        &self.cache.shots[key]
    }

    fn new_shot_plan(&self, id: Id, target: Id, key: ShotKey, firing: Vec<(usize, u64, u32)>) -> ShotPlan {
        let info = self.info(id);
        let talloc = self.alloc_of(target, key.buff);
        let situation = Situation {
            cover: key.cover,
            moved: key.moved,
            arrived: key.arrived,
            ..Situation::new(self.prep.edition, false, f64::from(key.distance))
        };
        // the firing models, each with the weapons it fires
        let runs = &self.alloc_of(id, key.shooter).runs;
        let owned: Vec<(crate::profile::Model, u32)> = firing
            .iter()
            .map(|&(run, mask, n)| {
                let mut m = runs[run].0.clone();
                m.weapons = m.weapons.iter().enumerate().filter(|&(i, _)| mask & bit(i) != 0).map(|(_, w)| w.clone()).collect();
                (m, n)
            })
            .collect();
        let attacking: Vec<(&crate::profile::Model, u32)> = owned.iter().map(|(m, n)| (m, *n)).collect();
        let names = &info.ranged;
        let fresh = talloc.start();
        // rules with options (Versatile Attack, Unpredictable Shooter, Versatile Defense):
        // every way the shot is played, settled as `attack()` settles them
        let held_options = info.held(key.shooter).any(|(_, b)| b.options);
        let settled = if info.tricks.options || held_options || self.info(target).tricks.options {
            options::settle(&attacking, talloc, fresh, &situation, Pick::Named(names))
        } else {
            vec![Settled { attacker: 0, target: 0, weight: 1.0 }]
        };
        let variants: Vec<(Situation, f64)> = settled.iter().map(|v| (Situation { attacker_option: v.attacker, target_option: v.target, ..situation }, v.weight)).collect();
        // options change rolls, not which weapons fire: the groups are those of any variant
        let groups = plan::groups(&attacking, &talloc.view(fresh, false).alive, &variants[0].0, Pick::Named(names));
        let expected = groups.iter().map(|g| variants.iter().map(|(s, w)| w * group_expected_wounds(g, s, talloc, fresh)).sum()).collect();
        let models = vec![FacesTable::default(); variants.len()];
        let labels = groups.iter().map(|g| rustc_hash::FxBuildHasher.hash_one(&g.label)).collect();
        let keys = variants.iter().map(|(s, _)| [s.attacker_option, s.target_option]).collect();
        let option_labels = if variants.len() > 1 || info.tricks.options || held_options || self.info(target).tricks.options {
            variants
                .iter()
                .map(|(s, _)| {
                    let mine = options::describe(self.prep.edition, &attacking, true, false, true, s.attacker_option);
                    let theirs = options::describe(self.prep.edition, &talloc.view(fresh, false).alive, false, false, false, s.target_option);
                    [mine, theirs].into_iter().flatten().collect::<Vec<_>>().join("; ")
                })
                .collect()
        } else {
            vec![String::new()]
        };
        ShotPlan { groups, labels, situation, expected, variants, keys, option_labels, models, firing }
    }

    /// Shooting: the policy picks up to two targets and which weapon groups fire at each
    /// ("you may fire only at up to two different targets"); all are declared, then rolled.
    /// Rules with options are settled once for the shooting: a roll ("roll one die") or a
    /// pick ("pick one effect ... until the end of the activation") made for the first
    /// target holds for the second. Whether the unit fired.
    pub(super) fn shoot(&mut self, id: Id, moved: bool, touched: &mut Touched) -> bool {
        let volleys = policy::shots(self, id, moved);
        let fired = !volleys.is_empty();
        let mut option: Option<u8> = None;
        for volley in volleys {
            let target = volley.target;
            let before = self.live(target).s;
            if self.live(target).gone {
                continue;
            }
            if !touched.iter().any(|(t, _)| *t == target) {
                touched.push((target, before));
            }
            let t = self.clock();
            let key = volley.key;
            let talloc = self.alloc_of(target, key.buff);
            let prep = self.prep;
            let plan = self.cache.shots.get_mut(&key).expect("the policy made the shot plan");
            // which way the shot is played: the attacker's option as settled for the first
            // target, the target's by its own pick or roll
            let vi = match option {
                None => roll_options(&plan.keys, &mut self.rng),
                Some(o) => {
                    let same: Vec<usize> = (0..plan.keys.len()).filter(|&v| plan.keys[v][0] == o).collect();
                    match same.len() {
                        0 => 0,
                        1 => same[0],
                        _ => same[roll_options(&same.iter().map(|&v| plan.keys[v]).collect::<Vec<_>>(), &mut self.rng)],
                    }
                }
            };
            let attacker_option = *option.get_or_insert(plan.keys[vi][0]);
            // a pick made for the first target that this target's plan did not settle on
            let situation = Situation { attacker_option, ..plan.variants[vi].0 };
            let cached = situation == plan.variants[vi].0;
            let mut state = before;
            let (mut hits, mut wounds, mut dice) = (0, 0, 0);
            // Limited weapons fired in this volley, by their bit in `UnitInfo::limited`
            let mut limited = 0u32;
            for &gi in &volley.groups {
                let group = &plan.groups[gi];
                if group.rules.iter().any(|r| r.name == "Limited") {
                    // a group's label is its weapon's profile, "Name (...)", and names hold no '('
                    let name = group.label.split(" (").next().unwrap_or("");
                    if let Some(i) = prep.armies[id.0][id.1].limited.iter().position(|l| l == name).filter(|i| *i < 32) {
                        limited |= 1 << i;
                    }
                }
                let models = &mut plan.models[vi];
                let r = roll_attack(talloc, std::slice::from_ref(group), state, &mut self.rng, |_, s| {
                    let model = || plan::die_model(group, &situation, &talloc.view(s, group.takedown));
                    if cached { models.get(gi, talloc.index(s), talloc.state_count(), model) } else { Faces::of(&model()) }
                });
                state = r.end;
                hits += r.hits;
                wounds += r.wounds;
                dice += r.dice;
            }
            // what the trace says of the options played (only for a trace)
            let options_played = if self.trace.is_none() {
                String::new()
            } else if cached {
                plan.option_labels[vi].clone()
            } else {
                let attacking = self.info(id).alloc.view(self.live(id).s, false).alive;
                options::describe(self.prep.edition, &attacking, true, false, true, attacker_option).unwrap_or_default()
            };
            self.dice += dice;
            self.lap(t, |x| &mut x.dice);
            self.live_mut(id).limited_spent |= limited;
            self.take_wounds(id, target, state, wounds);
            // "next time the effect would apply": a shot that hits nothing makes no Defense roll
            let used = self.used_on_hits(target, key.buff, hits);
            self.spend_held(target, used, "shot");
            if key.marked {
                self.spend_mark(target, id, "shot");
            }
            self.spend_held(id, key.shooter, "shooting");
            self.event(|g| {
                let plan = &g.cache.shots[&key];
                let mut labels = volley.groups.iter().map(|&gi| plan.groups[gi].label.clone()).collect::<Vec<_>>().join(" + ");
                // what a player would say of the shot: models out of range or sight, cover
                let firing: u32 = plan.firing.iter().map(|f| f.2).sum();
                let left = g.live(id).left;
                if firing < left {
                    labels.push_str(&format!("; {firing} of {left} models fire"));
                }
                if key.cover {
                    labels.push_str("; target in cover");
                }
                Event {
                    dice,
                    hits,
                    wounds,
                    models_left: talloc.alive(state),
                    detail: if options_played.is_empty() { labels } else { format!("{labels} [{options_played}]") },
                    ..Event::between("shoot", id, target, g.live(id).pos, g.live(target).pos)
                }
            });
        }
        fired
    }

    /// "Once per activation, when this model moves through enemy units, pick one of them and
    /// attack it with this weapon as if it was shooting" (`Effect::OnlyMovingThrough`:
    /// Strafing): after a move from `from` along `path` that crossed enemy units (the mover's
    /// disc over theirs: Aircraft and Flying units move through units), the policy picks one
    /// and the weapons that only attack so attack it, at Quality and with their rules as when
    /// shooting, at no range.
    fn strafe(&mut self, id: Id, from: Point, path: Path, touched: &mut Touched) {
        if !self.info(id).strafing || self.live(id).gone {
            return;
        }
        let r = self.radius(id);
        let crossed: Vec<Id> = self
            .on_table(1 - id.0)
            .filter(|&e| {
                let (p, er) = (self.live(e).pos, self.radius(e));
                path.legs(from).any(|(a, b)| p.distance_to_segment(a, b) < er + r - EPS)
            })
            .collect();
        if crossed.is_empty() {
            return;
        }
        let t = self.clock();
        let situation = Situation { moving_through: true, ..Situation::new(self.prep.edition, false, 0.0) };
        let attacking = self.info(id).alloc.view(self.live(id).s, false).alive;
        let plans: Vec<(Id, Vec<Group>)> = crossed
            .into_iter()
            .map(|e| {
                let talloc = &self.info(e).alloc;
                (e, plan::groups(&attacking, &talloc.view(self.live(e).s, false).alive, &situation, Pick::All))
            })
            .filter(|(_, g)| !g.is_empty())
            .collect();
        let Some(target) = policy::strafe_target(self, id.0, &plans, &situation) else { return };
        let groups = &plans.iter().find(|(e, _)| *e == target).expect("a crossed unit").1;
        let tinfo = self.info(target);
        let before = self.live(target).s;
        let target_at = self.live(target).pos;
        if !touched.iter().any(|(t, _)| *t == target) {
            touched.push((target, before));
        }
        let mut ordered: Vec<&Group> = groups.iter().collect();
        ordered.sort_by_key(|g| g.priority());
        let (mut state, mut hits, mut wounds, mut dice) = (before, 0, 0, 0);
        for group in ordered {
            let res = roll_attack(&tinfo.alloc, std::slice::from_ref(group), state, &mut self.rng, |_, s| Faces::at(group, &situation, &tinfo.alloc, s));
            state = res.end;
            hits += res.hits;
            wounds += res.wounds;
            dice += res.dice;
        }
        self.dice += dice;
        self.lap(t, |x| &mut x.dice);
        self.take_wounds(id, target, state, wounds);
        let labels = groups.iter().map(|g| g.label.clone()).collect::<Vec<_>>().join(" + ");
        self.event(|g| Event { dice, hits, wounds, models_left: tinfo.alloc.alive(state), detail: labels, ..Event::between("strafe", id, target, g.live(id).pos, target_at) });
    }

    /// A Charge: the move into contact, then the melee sequence and its morale, rolled by the
    /// melee sampler's own exchange; then "the charging unit must move back by 1"".
    pub(super) fn charge(&mut self, id: Id, target: Id, path: Path) {
        let before = self.live(id).pos;
        let distance = self.gap(id, target);
        let reach = self.charge_reach(id, target);
        self.apply_move(id, path, "charge", reach);
        if self.trace.is_some() {
            let theirs = self.footprint(target);
            if let Some(e) = self.trace.as_mut().and_then(|t| t.iter_mut().rev().find(|e| e.kind == "charge")) {
                e.target_models = theirs;
            }
        }
        self.spend_move_buff(id, 2);
        if self.live(id).gone || self.live(target).gone {
            return;
        }
        let t = self.clock();
        let (c, d) = (self.info(id), self.info(target));
        // buffs: the defender's against the charge, the charger's against the strike back,
        // and either's for the morale test of the side that loses
        // "charged from over 9" away": the distance between the units before the charge
        // ("from/to the closest model in each unit"), not the length of the charge's path
        let charge_distance = distance;
        // "the defending unit may choose to strike back ..., but doesn't have to"
        let strike_back = policy::strike_back(self, id, target);
        // each side fights with the rule it holds once if it acts in this melee (on its
        // attacks, its defense or, for the side that loses, its morale test), else with the
        // rule a mark on the other side gives it
        // (the charger defends only against a strike back)
        let sides = [(id, target, BuffUse::StruckBack, true, strike_back), (target, id, BuffUse::Charged(charge_distance), strike_back, true)];
        let uses: [Held; 2] = sides.map(|(who, other, defends, attacks, attacked)| {
            let fights = BuffUse::Attack { melee: true, charging: who == id, distance: charge_distance };
            let (defense, attacks_with) = (if attacked { self.held_for(who, defends) } else { 0 }, if attacks { self.held_for(who, fights) } else { 0 });
            let morale = self.held_for(who, BuffUse::Morale) & !(defense | attacks_with);
            let mark = self.mark_for(who, other, fights).filter(|&m| attacks && (defense | attacks_with | morale) & (1 << m) == 0);
            Held { attacks: attacks_with, defense, morale, mark }
        });
        let buffs = uses.map(|h| h.attacks | h.defense | h.morale | h.mark.map_or(0, |m| 1 << m));
        let [c_alloc, d_alloc] = [(id, buffs[0]), (target, buffs[1])].map(|(who, b)| self.alloc_of(who, b));
        let (cl, dl) = (self.live(id), self.live(target));
        let c_state = c_alloc.unit_state(cl.s, false, cl.fatigued).expect("the charger is alive");
        let d_state = d_alloc.unit_state(dl.s, dl.shaken, dl.fatigued).expect("the target is alive");
        let (c_s, d_s) = (cl.s, dl.s);
        // rules with options: one of the ways the melee is played (`Melee::variants`, settled
        // once per pair of units at full strength), rolled as the melee sampler rolls them
        let mut options = [0, 0];
        let mut options_played = String::new();
        let held_options = [(id, buffs[0]), (target, buffs[1])].iter().any(|&(who, mask)| self.info(who).held(mask).any(|(_, b)| b.options));
        if c.tricks.options || d.tricks.options || held_options {
            let flags = melee_flags(charge_distance > 9.0, c_state.fatigued, d_state.fatigued, d_state.shaken);
            let keys = if held_options {
                // a rule with options held once: settled as `Prepared::melee_options` settles
                // the units' own, at full strength, for these allocations (kept)
                let edition = self.prep.edition;
                self.cache.held_melee_options.entry((id, buffs[0], target, buffs[1], flags)).or_insert_with(|| {
                    let charger = crate::state::UnitState { fatigued: flags & 2 != 0, ..crate::state::UnitState::FRESH };
                    let defender = crate::state::UnitState { fatigued: flags & 4 != 0, shaken: flags & 8 != 0, ..crate::state::UnitState::FRESH };
                    Melee::from_allocations(c_alloc.clone(), d_alloc.clone(), &charger, &defender, true, charge_distance, edition)
                        .map(|m| m.variants().iter().map(|(v, _)| v.options).collect())
                        .unwrap_or_else(|_| vec![[0, 0]])
                })
            } else {
                self.prep.melee_options.get(&(id.0, id.1, target.1, flags)).map_or(&[][..], |k| &k[..])
            };
            if !keys.is_empty() {
                options = keys[roll_options(keys, &mut self.rng)];
            }
        }
        // the same melee as an earlier one but for where it starts: its plans are kept
        let key = MeleeKey {
            charger: (id, buffs[0]),
            defender: (target, buffs[1]),
            flags: [c_state.fatigued, d_state.fatigued, d_state.shaken],
            defender_alive: d_alloc.alive_key(d_s),
            strike_back,
            distance: distance_class(c, d, charge_distance),
            options,
        };
        let built = !self.cache.melees.contains_key(&key);
        let (mut melee, found) = match self.cache.melees.remove(&key) {
            Some((mut melee, found)) => {
                melee.charger_start = melee.charger.state_of("charger_state", &c_state).expect("a state of the allocation itself");
                melee.defender_start = melee.defender.state_of("defender_state", &d_state).expect("a state of the allocation itself");
                melee.charger_before = c_state;
                melee.defender_before = d_state;
                melee.distance = charge_distance;
                (melee, found)
            }
            None => {
                let m = Melee::from_allocations(c_alloc.clone(), d_alloc.clone(), &c_state, &d_state, strike_back, charge_distance, self.prep.edition)
                    .expect("states taken from the allocations themselves");
                (m, Found::default())
            }
        };
        melee.options = options;
        if (c.tricks.options || d.tricks.options || held_options) && self.trace.is_some() {
            let edition = self.prep.edition;
            // the charger is the unit taking its activation; the defender only strikes back
            let describe = |alloc: &crate::attack::allocation::Allocation, s: State, option: u8, activated: bool| {
                let alive = alloc.view(s, false).alive;
                options::describe(edition, &alive, true, true, activated, option).or_else(|| options::describe(edition, &alive, false, true, activated, option))
            };
            let sides = [("charger", describe(c_alloc, c_s, melee.options[0], true)), ("defender", describe(d_alloc, d_s, melee.options[1], false))];
            options_played = sides.iter().filter_map(|(who, d)| d.as_ref().map(|d| format!("{who} {d}"))).collect::<Vec<_>>().join("; ");
        }
        let mut plans = Plans::with(&melee, found);
        let mut x = roll_exchange(&melee, &mut plans, &mut self.rng);
        let found = plans.into_found();
        // "if a unit didn't strike back in melee, then it must only take a morale test if it
        // suffered at least one wound" (the charger's Fear alone does not make it lose)
        if !strike_back && x.by_charger == 0 && x.winner == Winner::Charger && !d_alloc.destroyed(x.defender) {
            x.winner = Winner::Tie;
            x.failed = false;
        }
        let statuses = melee.statuses(x.charger, x.defender, x.winner, x.failed);
        if built {
            self.cache.melee_states += melee.charger.state_count() + melee.defender.state_count();
        }
        self.cache.melees.insert(key, (melee, found));
        self.dice += x.dice;
        self.lap(t, |x| &mut x.dice);
        for (who, end, status, dealt, taken) in [(id, x.charger, statuses[0], x.by_charger, x.by_defender), (target, x.defender, statuses[1], x.by_defender, x.by_charger)] {
            self.set_state(who, end);
            let live = self.live_mut(who);
            // "After attacking in melee for the first time during a round, either by charging
            // or by striking back": a defender that did not strike back is not fatigued
            live.fatigued |= who == id || strike_back;
            live.dealt += dealt;
            live.taken += taken;
            match status {
                Status::Destroyed | Status::Routed => live.gone = true,
                Status::Shaken => live.shaken = true,
                Status::Unaffected => {}
            }
        }
        for (k, who, other, lost) in [(0, id, target, x.winner == Winner::Defender), (1, target, id, x.winner == Winner::Charger)] {
            let held = uses[k];
            // a defense rule waits for an attack on it (the defender may be destroyed before it
            // strikes back), and one on Defense rolls for an attack that hits
            let used = held.attacks | x.hits_taken[k].map_or(0, |hits| self.used_on_hits(who, held.defense, hits));
            self.spend_held(who, used, if k == 0 { "charge" } else { "charged" });
            if lost {
                self.spend_held(who, held.morale, "morale test");
            }
            if held.mark.is_some() {
                self.spend_mark(other, who, if k == 0 { "charge" } else { "strike back" });
            }
        }
        self.event(|g| Event {
            dice: x.dice,
            wounds: x.by_charger,
            hits: x.by_defender,
            models_left: g.info(target).alloc.alive(x.defender),
            detail: if options_played.is_empty() {
                format!("winner={:?} charger={:?} defender={:?}{}", x.winner, statuses[0], statuses[1], if strike_back { "" } else { " (no strike back)" })
            } else {
                format!("winner={:?} charger={:?} defender={:?} [{options_played}]", x.winner, statuses[0], statuses[1])
            },
            ..Event::between("melee", id, target, before, g.live(id).pos)
        });
        if !self.live(id).gone && !self.live(target).gone {
            self.move_back(id, target);
        }
        // Hit & Run: "after ... being in melee", both sides
        for who in [id, target] {
            self.move_after_attack(who, true);
        }
    }

    /// "If neither of the units was destroyed, then the charging unit must move back by 1" (if
    /// possible)": straight away from the target, else turned up to 60 degrees either way (the
    /// table, terrain or another unit may be behind it), the full inch where it can, else half.
    /// Of the moves its bases allow, the one that ends farthest from the nearest unit, the
    /// target included, up to 1" ("to keep the separation between units clear"; "Models may
    /// never be within 1" of models from other units, unless they are taking a Charge
    /// action"); the straightest of those.
    fn move_back(&mut self, id: Id, target: Id) {
        let (at, from) = (self.live(target).pos, self.live(id).pos);
        let away = (from.y - at.y).atan2(from.x - at.x);
        let r = self.radius(id);
        // how near the nearest unit comes to `id` standing at `p`, counted up to 1"
        let separation = |g: &Game, p: Point| {
            g.ground_units_but(id).fold(UNIT_GAP, |least, (other, c, rc)| {
                if p.distance(c) - r - rc >= least { least } else { least.min(g.closest_pair_at(id, p, other).0.max(0.0)) }
            })
        };
        for step in [CONSOLIDATION_BACK, CONSOLIDATION_BACK / 2.0] {
            let mut best: Option<(f64, Point)> = None;
            for turn in [0.0, 0.5, -0.5, 1.0, -1.0] {
                let (sin, cos) = (away + turn).sin_cos();
                let back = Point::new(from.x + cos * step, from.y + sin * step);
                // a short move, tested model by model where it ends and half way (no base is
                // under an inch across, so none is jumped over): the discs, which the path
                // test sweeps, may overlap the target's or a neighbour's where no models do
                let half = Point::new((from.x + back.x) / 2.0, (from.y + back.y) / 2.0);
                if self.spot_ok(id, back, true) && self.spot_ok(id, half, true) {
                    let apart = separation(self, back);
                    if best.is_none_or(|(b, _)| apart > b + 1e-9) {
                        best = Some((apart, back));
                    }
                    if apart >= UNIT_GAP - 1e-9 {
                        break;
                    }
                }
            }
            if let Some((_, back)) = best {
                self.live_mut(id).pos = back;
                self.event(|_| Event { allowance: CONSOLIDATION_BACK, length: step, ..Event::of("consolidate", id, from, back) });
                return;
            }
        }
    }

    /// "At the end of each round, if a unit is within 3" of a marker whilst no enemies are,
    /// then it counts as being seized. ... if units from both sides contest a marker at the
    /// end of a round, then it becomes neutral again." Shaken units "can't seize or contest
    /// objectives", nor can Aircraft, nor Ambushers "on the round they deploy".
    fn score_round(&mut self) {
        let mut holding: Short<Id> = Short::new();
        for i in 0..self.objectives.len() {
            let marker = self.objectives[i];
            let mut present = [false; 2];
            let mut near: Short<Id> = Short::new();
            for army in 0..2 {
                for id in self.on_table(army) {
                    if self.can_seize(id) && self.near_marker(id, marker) {
                        present[army] = true;
                        near.push(id);
                    }
                }
            }
            match present {
                [true, true] => self.owner[i] = -1,
                [true, false] => self.owner[i] = 0,
                [false, true] => self.owner[i] = 1,
                [false, false] => {}
            }
            holding.extend(near.into_iter().filter(|id| self.owner[i] == id.0 as i8));
            self.event(|g| Event { kind: "objective", army: g.owner[i], unit: i as i32, target_army: -1, target: -1, from: marker, to: marker, ..Event::default() });
        }
        holding.sort_unstable();
        holding.dedup();
        for id in holding {
            self.live_mut(id).holding += 1;
        }
        self.snapshot();
    }

    pub fn can_seize(&self, id: Id) -> bool {
        let live = self.live(id);
        live.on_table() && !live.shaken && !self.info(id).movement.aircraft && live.arrived != self.round
    }

    /// Every unit's place and state, for the trace.
    fn snapshot(&mut self) {
        if self.trace.is_none() {
            return;
        }
        for army in 0..2 {
            for u in 0..self.units[army].len() {
                let id = (army, u);
                let live = self.live(id).clone();
                let status = if live.gone {
                    "gone"
                } else if live.reserve {
                    "reserve"
                } else if live.carrier.is_some() {
                    "inside"
                } else if live.shaken {
                    "shaken"
                } else if live.arrived == self.round && self.round > 0 {
                    "arrived"
                } else {
                    "ready"
                };
                self.event(|g| Event {
                    models_left: if live.gone { 0 } else { g.info(id).alloc.alive(live.s) },
                    detail: status.into(),
                    models: if live.on_table() { g.footprint(id) } else { Vec::new() },
                    ..Event::of("position", (army, u), live.pos, live.pos)
                });
            }
        }
    }

    fn finish(mut self, out: &mut Output) {
        let mut record = Record { first: self.seat[0] as u8, ..Record::default() };
        for owner in &self.owner {
            if *owner >= 0 {
                record.objectives[*owner as usize] += 1;
            }
        }
        record.winner = match record.objectives[0].cmp(&record.objectives[1]) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
        };
        for army in 0..2 {
            for (u, live) in self.units[army].iter().enumerate() {
                let info = &self.prep.armies[army][u];
                let totals = &mut out.units[army];
                totals.wounds_dealt[u] += u64::from(live.dealt);
                totals.wounds_taken[u] += u64::from(live.taken);
                totals.rounds_holding[u] += u64::from(live.holding);
                if live.gone {
                    totals.destroyed[u] += 1;
                    continue;
                }
                record.models_left[army] += info.alloc.alive(live.s);
                record.points_left[army] += self.points_left((army, u));
            }
        }
        if let Some(events) = self.trace.take() {
            out.traces.push(Trace { terrain: std::mem::take(&mut self.terrain), objectives: self.objectives.clone(), events });
        }
        out.records.push(record);
        out.timers.merge(&self.timers);
        out.dice += self.dice;
        out.violations += self.violations;
        if out.first_violation.is_none() {
            out.first_violation = self.first_violation.take();
        }
        use std::mem::take;
        self.cache.spare = Spare {
            units: [take(&mut self.units[0]), take(&mut self.units[1])],
            objectives: take(&mut self.objectives),
            owner: take(&mut self.owner),
            claimed: take(&mut self.claimed),
            seen: take(&mut self.seen),
            looking: take(&mut self.looking),
        };
    }
}

/// The closest two models of two units: their distance edge to edge (negative when bases
/// overlap) and their centres. `ours` (centre, radius), the other unit's disc (`centre`,
/// `radius`) and its models. Our models are tried nearest the other disc first, so that those
/// whose distance to the disc is no better than the best pair found are skipped; the inner
/// loop compares squared distances.
fn closest_pair<I: Iterator<Item = (Point, f64)>>(ours: impl Iterator<Item = (Point, f64)>, centre: Point, radius: f64, theirs: impl Fn() -> I) -> (f64, Point, Point) {
    const ON_STACK: usize = 64;
    let mut near = [(0.0f64, Point::default(), 0.0f64); ON_STACK];
    let mut n = 0;
    let mut best = (f64::INFINITY, Point::default(), centre);
    let scan = |p: Point, r: f64, best: &mut (f64, Point, Point)| {
        for (q, s) in theirs() {
            let reach = best.0 + r + s;
            let (dx, dy) = (p.x - q.x, p.y - q.y);
            let d2 = dx * dx + dy * dy;
            if reach <= 0.0 || d2 < reach * reach {
                let d = d2.sqrt() - r - s;
                if d < best.0 {
                    *best = (d, p, q);
                }
            }
        }
    };
    for (p, r) in ours {
        let bound = p.distance(centre) - r - radius;
        if n < ON_STACK {
            near[n] = (bound, p, r);
            n += 1;
        } else if bound < best.0 {
            scan(p, r, &mut best);
        }
    }
    let near = &mut near[..n];
    near.sort_unstable_by(|a, b| a.0.total_cmp(&b.0));
    for &(bound, p, r) in near.iter() {
        if bound >= best.0 {
            break;
        }
        scan(p, r, &mut best);
    }
    best
}

/// The order in which two players place units one at a time, alternating from `first`
/// ("the players continue alternating in placing one unit each"); a player with none left
/// lets the other go on.
fn alternating(first: usize, lists: &[Short<usize>; 2]) -> Short<Id, 32> {
    let mut out = Short::with_capacity(lists[0].len() + lists[1].len());
    let (mut next, mut turn) = ([0usize; 2], first);
    while next[0] < lists[0].len() || next[1] < lists[1].len() {
        if next[turn] < lists[turn].len() {
            out.push((turn, lists[turn][next[turn]]));
            next[turn] += 1;
        }
        turn = 1 - turn;
    }
    out
}

#[cfg(test)]
#[path = "models_on_the_table_tests.rs"]
mod models_on_the_table_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edition::Edition;
    use crate::game::UnitTotals;
    use crate::game::table::Kinds;
    use crate::profile::Unit;
    use rand::SeedableRng;

    use crate::game::test_support::prep;

    use crate::game::test_support::{config, placed};

    const GRUNTS: &str = "Grunts [5] Q5+ D5+\n5x Rifle (24\", A1)";

    #[test]
    fn a_chargers_held_defense_waits_for_a_strike_back() {
        // "which gets Regeneration once (next time the effect would apply)": a charger whose
        // target is destroyed before it strikes back took no attack, so it keeps the rule; a
        // target that strikes back and hits uses it up
        for (defender, kept) in [("Grot [1] Q6+ D6+", true), ("Wall [10] Q2+ D4+ | Tough(3)\n10x Hammer (A4)", false)] {
            let p = prep(&["Priest [1] Q4+ D4+ | Hero, Regeneration Buff", "Brutes [10] Q3+ D4+\n10x Axe (A4, AP(2))"], &[defender]);
            let c = config(Vec::new(), vec![Point::new(36.0, 24.0)], vec![Point::new(10.0, 40.0), Point::new(20.0, 24.0)], vec![Point::new(31.0, 24.0)]);
            let mut cache = Cache::default();
            let mut g = placed(&p, &c, &mut cache);
            let (brutes, target) = ((0, 1), (1, 0));
            let b = g.info(brutes).buffed.iter().position(|x| x.rule == "Regeneration").expect("a friend may give it") as u8 + 1;
            g.live_mut(brutes).buff = b;
            let path = g.charge_path(brutes, target).expect("in reach");
            g.charge(brutes, target, path);
            let struck_back = g.trace.as_ref().unwrap().iter().any(|e| e.kind == "buff-used");
            assert_eq!(g.live(brutes).buff == b, kept, "{defender}: struck back and used: {struck_back}");
        }
    }

    #[test]
    fn moves_cover_the_rulebooks_distances() {
        // "Advance - Moves 6"", "Rush - Moves 12"", "Charge - Moves 12" into melee"; Fast
        // "+2" when using Advance and +4" when using Rush/Charge"; Slow "-2" ... -4""
        let p = prep(&[GRUNTS, "Bikes [3] Q4+ D4+ | Fast", "Ogres [3] Q4+ D4+ | Slow"], &[GRUNTS]);
        let speeds: Vec<(f64, f64, f64)> = p.armies[0].iter().map(|u| (u.movement.advance, u.movement.rush, u.movement.charge)).collect();
        assert_eq!(speeds, [(6.0, 12.0, 12.0), (8.0, 16.0, 16.0), (4.0, 8.0, 8.0)]);
        let c = config(vec![], vec![], vec![Point::new(10.0, 5.0), Point::new(30.0, 5.0), Point::new(50.0, 5.0)], vec![Point::new(36.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        for (u, allowance) in [(0, 12.0), (1, 16.0), (2, 8.0)] {
            let from = g.live((0, u)).pos;
            let path = g.plan_move((0, u), Point::new(from.x, 40.0), allowance).unwrap();
            assert!((path.length - allowance).abs() < 1e-9 && (path.to.distance(from) - allowance).abs() < 1e-9);
        }
    }

    #[test]
    fn dangerous_terrain_is_tested_once_per_activation_and_its_wounds_call_for_morale() {
        // "If a model moves in or through dangerous terrain, or is activated in it, then it must
        // take a dangerous terrain test." One test per activation, however it got there.
        let field = Piece::new("minefield", 0.0, 0.0, 72.0, 48.0, Kinds { dangerous: true, ..Kinds::default() }).unwrap();
        let p = prep(&["Mob [20] Q6+ D6+\n20x Club (A1)"], &[GRUNTS]);
        let c = config(vec![field], vec![], vec![Point::new(36.0, 5.0)], vec![Point::new(36.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        for _ in 0..40 {
            g.activate((0, 0));
            let tests = g.trace.as_ref().unwrap().iter().filter(|e| e.kind == "dangerous").count();
            assert!(tests <= 1, "{tests} tests in one activation");
            g.trace.as_mut().unwrap().clear();
            if g.live((0, 0)).gone || g.live((0, 0)).shaken {
                break;
            }
            g.live_mut((0, 0)).activated = false;
        }
        // "At the end of an activation in which a unit takes wounds that leave it with half or
        // less of its starting size ..., it must take a morale test": wounds from terrain too.
        let mut g = placed(&p, &c, &mut cache);
        let half = g.info((0, 0)).alloc.apply(g.live((0, 0)).s, 9, 1);
        g.set_state((0, 0), half);
        let mut tested = false;
        for _ in 0..200 {
            g.activate((0, 0));
            let events = g.trace.as_ref().unwrap();
            let wounded = events.iter().any(|e| e.kind == "dangerous" && e.wounds > 0);
            let morale = events.iter().any(|e| e.kind == "morale");
            assert!(!wounded || morale || g.live((0, 0)).gone, "terrain wounds at half strength without a morale test");
            tested |= wounded && morale;
            g.trace.as_mut().unwrap().clear();
            if g.live((0, 0)).gone {
                break;
            }
            let live = g.live_mut((0, 0));
            (live.activated, live.shaken) = (false, false);
        }
        assert!(tested);
    }

    #[test]
    fn limited_is_spent_weapon_by_weapon() {
        // "Limited: May only be used once per game." (per weapon: firing one Limited weapon
        // leaves the unit's other Limited weapons ready)
        let p = prep(&["Team [1] Q4+ D4+\nRocket (24\", A1, Limited), Flamer (24\", A2, Limited)"], &[GRUNTS]);
        let c = config(vec![], vec![], vec![Point::new(36.0, 20.0)], vec![Point::new(36.0, 34.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let labels = |g: &mut Game| {
            let sight = g.sight((0, 0), (1, 0));
            let key = g.shot_key((0, 0), (1, 0), sight, false);
            key.map(|k| g.plan(&k).groups.iter().map(|gr| gr.label.split(" (").next().unwrap().to_string()).collect::<Vec<_>>()).unwrap_or_default()
        };
        assert_eq!(labels(&mut g), ["Rocket", "Flamer"]);
        let rocket = g.info((0, 0)).limited.iter().position(|n| n == "Rocket").unwrap();
        g.live_mut((0, 0)).limited_spent |= 1 << rocket;
        assert_eq!(labels(&mut g), ["Flamer"]);
        g.live_mut((0, 0)).limited_spent = u32::MAX;
        assert!(labels(&mut g).is_empty());
    }

    #[test]
    fn difficult_terrain_caps_a_move_at_six_inches_unless_strider() {
        // "If any model in a unit moves in or through difficult terrain at any point of its
        // move, then all models in the unit may not move more than 6" for that movement."
        let swamp = Piece::new("swamp", 0.0, 14.0, 72.0, 18.0, Kinds { difficult: true, ..Kinds::default() }).unwrap();
        let p = prep(&[GRUNTS, "Striders [5] Q5+ D5+ | Strider"], &[GRUNTS]);
        let c = config(vec![swamp], vec![], vec![Point::new(10.0, 8.0), Point::new(40.0, 8.0)], vec![Point::new(36.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let path = g.plan_move((0, 0), Point::new(10.0, 40.0), 12.0).unwrap();
        assert!(path.difficult && path.length <= DIFFICULT_MOVE + 1e-9);
        let path = g.plan_move((0, 1), Point::new(40.0, 40.0), 12.0).unwrap();
        assert!(!path.difficult && (path.length - 12.0).abs() < 1e-9, "Strider: \"May ignore the effects of difficult terrain\"");
    }

    const HERO: &str = "Hero [1] Q4+ D4+\nSword (A3)";
    const MOB: &str = "Mob [20] Q6+ D6+\n20x Club (A1)";

    fn building(x0: f64, y0: f64, x1: f64, y1: f64) -> Piece {
        Piece::new("building", x0, y0, x1, y1, Kinds { blocking: true, impassable: true, ..Kinds::default() }).unwrap()
    }

    /// Checks `id`'s path point by point (every 0.05"): on the table, off impassable terrain,
    /// through no other unit and, unless charging (`target`), 1" from them (from units it did
    /// not start within 1" of); its length the sum of its legs.
    fn assert_legal(g: &Game, id: Id, path: &Path, target: Option<Id>) {
        let (from, r) = (g.live(id).pos, g.radius(id));
        let mut total = 0.0;
        for (a, b) in path.legs(from) {
            let leg = a.distance(b);
            total += leg;
            let n = ((leg / 0.05).ceil() as usize).max(1);
            for k in 0..=n {
                let p = a.towards(b, leg * k as f64 / n as f64);
                assert!(p.x >= r - 1e-6 && p.x <= WIDTH - r + 1e-6 && p.y >= r - 1e-6 && p.y <= DEPTH - r + 1e-6, "off the table at {p:?}");
                for t in g.terrain.iter().filter(|t| t.kinds.impassable) {
                    // the disc clear of it, or (the step into base contact) every model
                    let clear = t.distance_to(p) >= r - 1e-6 || g.models_at(id, p).all(|(_, q, rq)| t.distance_to(q) >= rq - 1e-6);
                    assert!(clear, "{id:?} through {:?} at {p:?}: {path:?}", t.name);
                }
                for army in 0..2 {
                    for o in g.on_table(army).filter(|&o| o != id) {
                        if Some(o) == target {
                            // the step into base contact brings the discs over each other: no
                            // model on one of the target's
                            let overlap = g.models_at(id, p).flat_map(|(_, q, rq)| g.models(o).map(move |(_, m, rm)| q.distance(m) - rq - rm)).fold(f64::INFINITY, f64::min);
                            assert!(overlap >= -1e-6, "{id:?} on a model of its target at {p:?}: {path:?}");
                            continue;
                        }
                        let (at, touching) = (g.live(o).pos, r + g.radius(o));
                        let gap = if target.is_none() && from.distance(at) >= touching + UNIT_GAP - 1e-6 { UNIT_GAP } else { 0.0 };
                        // the discs apart, or (the step into base contact) the models
                        let models = || g.models_at(id, p).flat_map(|(_, q, rq)| g.models(o).map(move |(_, m, rm)| q.distance(m) - rq - rm)).fold(f64::INFINITY, f64::min);
                        assert!(p.distance(at) >= touching + gap - 1e-6 || models() >= gap - 1e-6, "{id:?} within {:.3}\" of {o:?} at {p:?}: {path:?}", p.distance(at) - touching);
                    }
                }
            }
        }
        assert!((total - path.length).abs() < 1e-6, "length {} for legs of {total}", path.length);
    }

    #[test]
    fn a_unit_between_buildings_finds_the_way_round() {
        // "Units may not move through impassable terrain": a unit in a pocket between three
        // buildings, open behind it, walks out and round them to its goal.
        let pocket = vec![building(20.0, 10.0, 24.0, 34.0), building(36.0, 10.0, 40.0, 34.0), building(20.0, 30.0, 40.0, 34.0)];
        let p = prep(&[GRUNTS], &[GRUNTS]);
        let c = config(pocket, vec![], vec![Point::new(30.0, 25.0)], vec![Point::new(66.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let goal = Point::new(30.0, 42.0);
        let mut moves = 0;
        while g.live((0, 0)).pos.distance(goal) > 0.01 {
            let path = g.plan_move((0, 0), goal, 12.0).expect("a way out");
            assert_legal(&g, (0, 0), &path, None);
            let left = g.live((0, 0)).pos.distance(goal);
            assert!(path.length > 12.0 - 1e-9 || (path.to.distance(goal) < 0.01 && path.length <= 12.0 + 1e-9), "a move of {} with {left}\" to go", path.length);
            g.live_mut((0, 0)).pos = path.to;
            moves += 1;
            assert!(moves <= 6, "still {left}\" away");
        }
        // out of the pocket (about 16"), round a building's corner (about 30") and up (about 13")
        assert!((4..=6).contains(&moves), "{moves} moves");
    }

    #[test]
    fn a_detour_beats_a_minefield_when_it_is_cheap() {
        // "If a model moves in or through dangerous terrain ... must take a dangerous terrain
        // test": a small minefield in the way is gone round (the detour costs less than
        // `DANGEROUS_DETOUR`); one across the table is crossed.
        let mines = |x0, x1| Piece::new("minefield", x0, 18.0, x1, 21.0, Kinds { dangerous: true, ..Kinds::default() }).unwrap();
        let p = prep(&[GRUNTS], &[GRUNTS]);
        for (field, round) in [(mines(29.0, 31.0), true), (mines(0.0, 72.0), false)] {
            let c = config(vec![field], vec![], vec![Point::new(30.0, 10.0)], vec![Point::new(66.0, 44.0)]);
            let mut cache = Cache::default();
            let mut g = placed(&p, &c, &mut cache);
            let path = g.plan_move((0, 0), Point::new(30.0, 40.0), 12.0).unwrap();
            assert_legal(&g, (0, 0), &path, None);
            assert_eq!(path.dangerous, !round, "{path:?}");
            assert!((path.length - 12.0).abs() < 1e-9);
            if round {
                assert!(!path.via.is_empty(), "round the minefield: {path:?}");
            }
        }
    }

    #[test]
    fn difficult_terrain_is_gone_round_when_that_goes_further() {
        // "If any model in a unit moves in or through difficult terrain at any point of its
        // move, then all models in the unit may not move more than 6"": with 12" to go, going
        // round a small forest beats crossing it; with 6", crossing costs nothing.
        let forest = Piece::new("forest", 28.0, 14.0, 32.0, 18.0, Kinds { difficult: true, cover: true, blocking: true, ..Kinds::default() }).unwrap();
        let p = prep(&[GRUNTS], &[GRUNTS]);
        let c = config(vec![forest], vec![], vec![Point::new(30.0, 8.0)], vec![Point::new(66.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let path = g.plan_move((0, 0), Point::new(30.0, 40.0), 12.0).unwrap();
        assert_legal(&g, (0, 0), &path, None);
        assert!(!path.difficult && (path.length - 12.0).abs() < 1e-9 && !path.via.is_empty(), "{path:?}");
        let path = g.plan_move((0, 0), Point::new(30.0, 40.0), 6.0).unwrap();
        assert!(path.via.is_empty() && (path.length - 6.0).abs() < 1e-9, "straight on: {path:?}");
    }

    #[test]
    fn charges_go_round_obstacles_into_base_contact() {
        // "Charging models must move by up to 12" to get into base contact with an enemy model
        // from the target unit ... (charge moves don't have to be in a straight line)"; "If at
        // least one model in the unit is within charge distance of one model from the target
        // unit, and has a clear path to reach it, then that enemy is a valid target."
        let p = prep(&[HERO, GRUNTS], &[MOB]);
        let (rh, rm) = (p.armies[0][0].radius, p.armies[1][0].radius);
        let contact = rh + rm;
        // a wall between the hero and the mob
        let wall = building(26.0, 12.0, 34.0, 13.0);
        let at = Point::new(30.0, 14.0 + rm);
        let c = config(vec![wall], vec![], vec![Point::new(30.0, 11.5 - rh), Point::new(60.0, 5.0)], vec![at]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let path = g.charge_path((0, 0), (1, 0)).expect("round the wall");
        assert_legal(&g, (0, 0), &path, Some((1, 0)));
        // round the wall until the discs touch, then on into base contact
        assert!(!path.via.is_empty() && path.length <= 12.0 + 1e-9 && path.to.distance(at) <= contact + 1e-6, "{path:?}");
        assert!(g.closest_pair_at((0, 0), path.to, (1, 0)).0 <= 1e-6, "{path:?}");
        // a friendly unit in the straight line: "may never move through other models or units"
        let c = config(vec![], vec![], vec![Point::new(30.0, 20.0 - contact - 6.0), Point::new(30.0, 20.0 - rm - 3.0)], vec![Point::new(30.0, 20.0)]);
        let mut g = placed(&p, &c, &mut cache);
        let path = g.charge_path((0, 0), (1, 0)).expect("round the friend");
        assert_legal(&g, (0, 0), &path, Some((1, 0)));
        assert!(!path.via.is_empty() && g.closest_pair_at((0, 0), path.to, (1, 0)).0 <= 1e-6, "{path:?}");
    }

    #[test]
    fn paths_never_cross_impassable_terrain_or_other_units() {
        // "Units may not move through impassable terrain"; "may never move through other models
        // or units"; "Models may never be within 1" of models from other units, unless they are
        // taking a Charge action". Standard tables, units scattered over them, moves towards
        // random points and charges at every enemy in reach.
        let p = prep(&[GRUNTS, HERO, MOB, GRUNTS, HERO, "Striders [5] Q5+ D5+ | Strider"], &[MOB, GRUNTS, HERO, GRUNTS, MOB, HERO]);
        let (mut moves, mut full, mut charges) = (0, 0, 0);
        for seed in 0..30 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let (mut cache, c) = (Cache::default(), scattered(&p, &mut rng));
            let mut g = placed(&p, &c, &mut cache);
            for army in 0..2 {
                for u in 0..6 {
                    let id = (army, u);
                    for _ in 0..5 {
                        let goal = Point::new(rng.random_range(0.0..WIDTH), rng.random_range(0.0..DEPTH));
                        let allowance = if rng.random_bool(0.5) { 6.0 } else { 12.0 };
                        let Some(path) = g.plan_move(id, goal, allowance) else { continue };
                        assert_legal(&g, id, &path, None);
                        assert!(path.length <= if path.difficult { DIFFICULT_MOVE } else { allowance } + 1e-9);
                        assert!(g.spot_ok(id, path.to, false));
                        assert_eq!(g.terrain_on_legs(id, g.live(id).pos, &path.via, path.to), (path.difficult, path.dangerous));
                        moves += 1;
                        full += usize::from(path.length > 0.5 * allowance);
                    }
                    for e in 0..6 {
                        if let Some(path) = g.charge_path(id, (1 - army, e)) {
                            assert_legal(&g, id, &path, Some((1 - army, e)));
                            assert!(path.length <= if path.difficult { DIFFICULT_MOVE } else { 12.0 } + 1e-9 && g.spot_ok(id, path.to, true));
                            assert!(path.to.distance(g.live((1 - army, e)).pos) <= g.radius(id) + g.radius((1 - army, e)) + 1e-6);
                            charges += 1;
                        }
                    }
                }
            }
        }
        eprintln!("{moves} moves ({full} over half their allowance), {charges} charges checked");
        assert!(moves > 1000 && charges > 20);
    }

    /// A standard table (from `rng`) with the armies of `p` at random spots where they may stand.
    fn scattered(p: &Prepared, rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> Config {
        let terrain = table::standard_terrain(rng);
        let mut spots: [Vec<Point>; 2] = [Vec::new(), Vec::new()];
        let mut placed: Vec<(Point, f64)> = Vec::new();
        for army in 0..2 {
            for info in &p.armies[army] {
                let r = info.radius;
                for _ in 0..10_000 {
                    let q = Point::new(rng.random_range(r..WIDTH - r), rng.random_range(r..DEPTH - r));
                    if terrain.iter().all(|t| !t.kinds.impassable || t.distance_to(q) >= r) && placed.iter().all(|(o, ro)| o.distance(q) >= r + ro + UNIT_GAP) {
                        spots[army].push(q);
                        placed.push((q, r));
                        break;
                    }
                }
            }
        }
        let [a, b] = spots;
        config(terrain, vec![], a, b)
    }

    /// Time per query of `plan_move` and `charge_path` on scattered standard tables (run with
    /// `cargo test --release --lib game::play::tests::path_query_time -- --ignored --nocapture`).
    /// Each table's queries run three times and the fastest counts (the machine is shared).
    #[test]
    #[ignore]
    fn path_query_time() {
        let p = prep(&[GRUNTS, HERO, MOB, GRUNTS, HERO, MOB, GRUNTS, HERO, MOB, GRUNTS], &[MOB, GRUNTS, HERO, GRUNTS, MOB, HERO, GRUNTS, HERO, MOB, GRUNTS]);
        let (mut move_time, mut moves, mut charge_time, mut charges, mut clear) = (0.0, 0u64, 0.0, 0u64, 0u64);
        for seed in 0..200 {
            let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
            let (mut cache, c) = (Cache::default(), scattered(&p, &mut rng));
            let g = placed(&p, &c, &mut cache);
            let goals: Vec<Point> = (0..20).map(|_| Point::new(rng.random_range(0.0..WIDTH), rng.random_range(0.0..DEPTH))).collect();
            let (mut fastest_moves, mut fastest_charges) = (f64::INFINITY, f64::INFINITY);
            for rep in 0..3 {
                let t = Instant::now();
                for army in 0..2 {
                    for u in 0..10 {
                        for &goal in &goals {
                            let path = std::hint::black_box(g.find_move((army, u), goal, 12.0));
                            if rep == 0 {
                                moves += 1;
                                clear += u64::from(path.is_some_and(|p| p.via.is_empty()));
                            }
                        }
                    }
                }
                fastest_moves = fastest_moves.min(t.elapsed().as_secs_f64());
                let t = Instant::now();
                for army in 0..2 {
                    for u in 0..10 {
                        for e in 0..10 {
                            if g.gap((army, u), (1 - army, e)) <= 12.0 {
                                std::hint::black_box(g.find_charge((army, u), (1 - army, e)));
                                charges += u64::from(rep == 0);
                            }
                        }
                    }
                }
                fastest_charges = fastest_charges.min(t.elapsed().as_secs_f64());
            }
            move_time += fastest_moves;
            charge_time += fastest_charges;
        }
        eprintln!(
            "plan_move: {:.2} us per query ({moves} towards random points, {:.0}% straight); charge_path: {:.2} us per query ({charges} within reach)",
            move_time / moves as f64 * 1e6,
            clear as f64 / moves as f64 * 100.0,
            charge_time / charges.max(1) as f64 * 1e6
        );
    }

    /// Time per path query in whole games on standard tables (1 thread, timers on; run with
    /// `cargo test --release --lib game::play::tests::path_queries_in_games -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn path_queries_in_games() {
        let a = [GRUNTS, HERO, MOB, GRUNTS, "Bikes [3] Q4+ D4+ | Fast\nSword (A2)", MOB, GRUNTS, HERO, "Striders [5] Q5+ D5+ | Strider\n5x Rifle (24\", A1)", GRUNTS];
        let p = prep(&a, &a);
        let c = Config { terrain: Terrain::Standard, objectives: None, deployment: None, trace: false, profile: true, ..config(vec![], vec![], vec![], vec![]) };
        let games = 400;
        // (other tests running at the same time add theirs: run this one alone)
        let before = paths::QUERIES.load(std::sync::atomic::Ordering::Relaxed);
        let out = crate::game::simulate(&p, &c, 0, games, Some(1)).unwrap();
        let queries = paths::QUERIES.load(std::sync::atomic::Ordering::Relaxed) - before;
        let t = out.timers;
        eprintln!("inside the queries: {:.2} us each, {:.2} in shortest", paths::NANOS.load(std::sync::atomic::Ordering::Relaxed) as f64 / queries as f64 / 1e3, paths::SHORTEST_NANOS.load(std::sync::atomic::Ordering::Relaxed) as f64 / queries as f64 / 1e3);
        eprintln!(
            "{games} games: {:.0} us per game, movement {:.0}% ({:.0} us per game); {} path queries per game, {:.2} us each (movement time over path queries)",
            t.total / games as f64 * 1e6,
            t.movement / t.total * 100.0,
            t.movement / games as f64 * 1e6,
            queries / games,
            t.movement / queries.max(1) as f64 * 1e6
        );
    }

    #[test]
    fn a_charge_needs_the_target_within_charge_distance() {
        // "Units may only take a Charge action if at least one model is within charge distance
        // of the target unit (including any additional movement from special rules)."
        let p = prep(&["Hero [1] Q4+ D4+\nSword (A3)", "Fast Hero [1] Q4+ D4+ | Fast\nSword (A3)"], &["Target [1] Q4+ D4+"]);
        let r = p.armies[0][0].radius + p.armies[1][0].radius;
        for (gap, plain, fast) in [(11.9, true, true), (12.1, false, true), (16.1, false, false)] {
            let c = config(vec![], vec![], vec![Point::new(10.0, 20.0 - gap - r), Point::new(60.0, 20.0 - gap - r)], vec![Point::new(10.0, 20.0)]);
            let mut cache = Cache::default();
            let mut g = placed(&p, &c, &mut cache);
            assert_eq!(g.charge_path((0, 0), (1, 0)).is_some(), plain, "gap {gap}");
            g.live_mut((1, 0)).pos = Point::new(60.0, 20.0);
            assert_eq!(g.charge_path((0, 1), (1, 0)).is_some(), fast, "Fast, gap {gap}");
        }
    }

    #[test]
    fn markers_are_seized_alone_contested_together_and_kept() {
        // "if a unit is within 3" of a marker whilst no enemies are, then it counts as being
        // seized"; "Markers stay under the player's control even if the unit moves away, but if
        // units from both sides contest a marker at the end of a round, then it becomes neutral
        // again"; Shaken units "can't seize or contest objectives".
        let p = prep(&[GRUNTS, GRUNTS], &[GRUNTS]);
        let marker = Point::new(36.0, 24.0);
        let r = p.armies[0][0].radius;
        let c = config(vec![], vec![marker], vec![Point::new(36.0, 24.0 - r - 2.9), Point::new(5.0, 5.0)], vec![Point::new(60.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        // "within 3"" is measured from the unit's closest model, not its footprint's edge
        let closest = |g: &Game, id: Id| g.models(id).map(|(_, q, r)| q.distance(marker) - r).fold(f64::INFINITY, f64::min);
        let put = |g: &mut Game, id: Id, side: f64, inches: f64| {
            g.live_mut(id).pos = Point::new(36.0, 24.0 + side * (r + inches));
            for _ in 0..5 {
                let off = closest(g, id) - inches;
                g.live_mut(id).pos.y -= side * off;
            }
            assert!((closest(g, id) - inches).abs() < 1e-6);
        };
        put(&mut g, (0, 0), -1.0, 2.9);
        g.score_round();
        assert_eq!(g.owner, [0], "seized within 3\"");
        put(&mut g, (1, 0), 1.0, 2.9);
        g.score_round();
        assert_eq!(g.owner, [-1], "contested: neutral again");
        g.live_mut((1, 0)).shaken = true;
        g.score_round();
        assert_eq!(g.owner, [0], "a Shaken unit can't contest");
        put(&mut g, (0, 0), -1.0, 3.1);
        g.live_mut((1, 0)).pos = Point::new(60.0, 44.0);
        g.score_round();
        assert_eq!(g.owner, [0], "kept when the unit moves away");
        assert_eq!(g.live((0, 0)).holding, 2, "rounds ending with the unit holding the marker");
    }

    #[test]
    fn shaken_units_stay_idle_and_recover() {
        // "When activated, Shaken units must spend their activation being idle ..., which stops
        // them being Shaken at the end of the activation."
        let p = prep(&[GRUNTS], &[GRUNTS]);
        let c = config(vec![], vec![], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 30.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        g.live_mut((0, 0)).shaken = true;
        g.activate((0, 0));
        let e = g.trace.as_ref().unwrap().last().unwrap().clone();
        assert_eq!((e.kind, e.from, e.to), ("idle", Point::new(36.0, 10.0), Point::new(36.0, 10.0)));
        assert!(!g.live((0, 0)).shaken && g.live((1, 0)).taken == 0, "no shot, no longer Shaken");
    }

    #[test]
    fn the_player_who_finished_first_starts_the_next_round() {
        // "On each new round the player that finished activating first on the last round gets
        // to activate first."
        let p = prep(&[GRUNTS, GRUNTS], &[GRUNTS]);
        let c = config(vec![], vec![], vec![Point::new(10.0, 5.0), Point::new(60.0, 5.0)], vec![Point::new(36.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        // A, B, A: army B ran out of units first
        assert_eq!(g.play_round(0), 1);
        let order: Vec<i8> = g.trace.as_ref().unwrap().iter().filter(|e| ["hold", "advance", "rush", "charge", "idle"].contains(&e.kind)).map(|e| e.army).collect();
        assert_eq!(order, [0, 1, 0]);
        // B, A, A: B also ran out first, so it starts again
        g.round = 2;
        assert_eq!(g.play_round(1), 1);
    }

    #[test]
    fn players_alternate_placing_units_until_both_are_done() {
        // "Then the players continue alternating in placing one unit each, until all units have been deployed."
        let lists = |a: &[usize], b: &[usize]| [Short::from_slice(a), Short::from_slice(b)];
        assert_eq!(alternating(1, &lists(&[0, 1, 2], &[5]))[..], [(1, 5), (0, 0), (0, 1), (0, 2)]);
        assert_eq!(alternating(0, &lists(&[], &[3, 4]))[..], [(1, 3), (1, 4)]);
    }

    #[test]
    fn army_move_rules_add_to_every_move_through_their_effects() {
        // Lustbound "Moves +1" when using Advance, and +3" when using Rush/Charge"; Highborn
        // +2"/+2" and its Boost as much again; Darkborn "+3" when using Charge actions"; the
        // unit moves as its slowest model: Slow when any model has it, Lustbound when all do
        let parse = |t: &str| Unit::parse(t, Edition::V3_5).unwrap();
        let mixed = parse("Troopers [5] Q4+ D4+").join(&parse("Champion [1] Q4+ D4+ | Hero, Lustbound"), Edition::V3_5).unwrap();
        let a = [
            parse("Daemons [5] Q4+ D4+ | Lustbound"),
            parse("Elves [5] Q4+ D4+ | Highborn, Highborn Boost"),
            parse("Shades [5] Q4+ D4+ | Darkborn"),
            mixed,
            parse("Slowed [3] Q4+ D4+ | Lustbound, Slow"),
        ];
        let p = Prepared::new([&a, &[parse(GRUNTS)]], Edition::V3_5, [2.0, 2.0]).unwrap();
        let speeds: Vec<(f64, f64, f64)> = p.armies[0].iter().map(|u| (u.movement.advance, u.movement.rush, u.movement.charge)).collect();
        assert_eq!(speeds, [(7.0, 15.0, 15.0), (10.0, 16.0, 16.0), (6.0, 12.0, 15.0), (6.0, 12.0, 12.0), (5.0, 11.0, 11.0)]);
    }

    #[test]
    fn melee_shrouding_takes_three_inches_from_charges() {
        // "Enemies get -3" movement when trying to charge units where all models have this rule."
        let p = prep(&["Hero [1] Q4+ D4+\nSword (A3)"], &["Shrouded [1] Q4+ D4+ | Melee Shrouding", "Plain [1] Q4+ D4+"]);
        let r = p.armies[0][0].radius + p.armies[1][0].radius;
        for (gap, plain, shrouded) in [(8.9, true, true), (9.1, true, false), (11.9, true, false), (12.1, false, false)] {
            let c = config(vec![], vec![], vec![Point::new(20.0, 20.0 - gap - r)], vec![Point::new(20.0, 20.0), Point::new(60.0, 20.0)]);
            let mut cache = Cache::default();
            let mut g = placed(&p, &c, &mut cache);
            assert_eq!(g.charge_reach((0, 0), (1, 0)), 9.0);
            assert_eq!(g.charge_path((0, 0), (1, 0)).is_some(), shrouded, "shrouded, gap {gap}");
            g.live_mut((0, 0)).pos = Point::new(60.0, 20.0 - gap - r);
            assert_eq!(g.charge_path((0, 0), (1, 1)).is_some(), plain, "plain, gap {gap}");
        }
    }

    #[test]
    fn battleborn_units_shaken_at_the_start_of_a_round_recover_on_four_up() {
        // "If a unit where all models have this rule is Shaken at the beginning of the round,
        // roll one die. On a 4+, it stops being Shaken."
        let p = prep(&["Brothers [5] Q4+ D4+ | Battleborn", GRUNTS], &[GRUNTS]);
        let c = config(vec![], vec![], vec![Point::new(10.0, 5.0), Point::new(60.0, 5.0)], vec![Point::new(36.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let (mut recovered, n) = (0, 4000);
        for _ in 0..n {
            g.live_mut((0, 0)).shaken = true;
            g.live_mut((0, 1)).shaken = true;
            g.recover();
            recovered += u32::from(!g.live((0, 0)).shaken);
            assert!(g.live((0, 1)).shaken, "no rule, no roll");
        }
        // 3 of 6 faces: 2000 expected, sd 31.6; 5 sd either way
        assert!((1842..=2158).contains(&recovered), "{recovered} of {n}");
    }

    #[test]
    fn extra_activations_are_limited_to_half_the_units_with_the_rule() {
        // "Only up to half of the units in the army with this rule at the beginning of the game
        // (rounding up) may use it in a single round."
        let agent = "Agents [3] Q4+ D4+ | Inquisitorial Agent\n3x Pistol (12\", A1)";
        let p = prep(&[agent, agent, agent, GRUNTS], &[agent, GRUNTS]);
        let c = config(vec![], vec![], (0..4).map(|i| Point::new(10.0 + 15.0 * f64::from(i), 5.0)).collect(), vec![Point::new(20.0, 44.0), Point::new(50.0, 44.0)]);
        let mut cache = Cache::default();
        let g = placed(&p, &c, &mut cache);
        assert_eq!(g.extra_limit, [2, 1]);
    }

    #[test]
    fn seeded_games_do_not_depend_on_threads_or_batches() {
        let p = prep(&[GRUNTS, "Brutes [3] Q4+ D4+ | Tough(3), Furious\n3x Claws (A3, AP(1))"], &[GRUNTS, GRUNTS]);
        let mut c = config(vec![], vec![], vec![], vec![]);
        (c.terrain, c.objectives, c.deployment, c.first, c.trace) = (Terrain::Standard, None, None, None, false);
        let one = crate::game::simulate(&p, &c, 0, 100, Some(1)).unwrap();
        let two = crate::game::simulate(&p, &c, 0, 100, Some(2)).unwrap();
        let split = [crate::game::simulate(&p, &c, 0, 37, Some(2)).unwrap(), crate::game::simulate(&p, &c, 37, 63, Some(2)).unwrap()];
        assert_eq!(one.records, two.records);
        assert_eq!(one.units, two.units);
        let joined: Vec<_> = split.iter().flat_map(|o| o.records.clone()).collect();
        assert_eq!(one.records, joined);
        let mut units = [UnitTotals::new(2), UnitTotals::new(2)];
        for part in &split {
            for a in 0..2 {
                units[a].merge(&part.units[a]);
            }
        }
        assert_eq!(one.units, units);
        assert_eq!(one.violations, 0);
    }
}
