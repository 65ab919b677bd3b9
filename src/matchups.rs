//! Matchups: every unit against every unit in the situations a game puts two units in, and
//! what each does to the other there, exactly. A designer reads them as "what is this unit
//! worth on the table": the fair cost by play is built on them (`docs/points.md`).
//!
//! Each mode is one activation of the attacker and what the defender does in return:
//! - `Shoot(d)`: the attacker shoots the defender from `d"` (standing still); in return the
//!   defender shoots back from the same distance in its own activation;
//! - `Charge`: the attacker charges the defender, which strikes back (one melee);
//! - `Charged`: the defender charges the attacker, which strikes back.
//!
//! A side's loss is in wounds: those its models left can no longer take, and the whole of a
//! unit that Routs ("Simply remove the entire unit from the game as a casualty"). Both
//! units are fresh. Every pair runs through the exact attack and melee engines, so each
//! cell equals `attack()` or `melee()` for that pair.

use crate::attack::allocation::Allocation;
use crate::attack::plan::Situation;
use crate::attack::Attack;
use crate::edition::Edition;
use crate::game::prepare;
use crate::error::{Error, Result};
use crate::limits::{MAX_TABLE_MELEE_WORK, MAX_TABLE_PAIRS, MAX_TABLE_WORK};
use crate::melee::{exact::exact, Melee};
use crate::profile::Unit;
use crate::state::UnitState;
use crate::stop::Stop;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// Where and how the two units meet.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    /// The attacker shoots from this many inches, and the defender shoots back.
    Shoot(f64),
    /// The attacker charges, the defender strikes back.
    Charge,
    /// The defender charges, the attacker strikes back.
    Charged,
}

impl Mode {
    /// A mode as a user names it: `"shoot 12"` (any distance in inches), `"charge"` or
    /// `"charged"`; `field` names it in errors.
    pub fn parse(field: &str, text: &str) -> Result<Mode> {
        let words: Vec<&str> = text.split_whitespace().collect();
        match words.as_slice() {
            ["charge"] => return Ok(Mode::Charge),
            ["charged"] => return Ok(Mode::Charged),
            ["shoot", inches] => {
                let max = f64::from(crate::limits::MAX_RANGE);
                return match inches.trim_end_matches('"').parse::<f64>() {
                    Ok(d) if (0.0..=max).contains(&d) => Ok(Mode::Shoot(d)),
                    _ => Err(Error::invalid(field, format!("{text:?}"), format!("the distance must be a number of inches from 0 to {max}"))),
                };
            }
            _ => {}
        }
        Err(Error::invalid(field, format!("{text:?}"), "must be \"shoot D\" (D in inches, e.g. \"shoot 12\"), \"charge\" or \"charged\""))
    }

    /// The shooting distances of `modes`, in order: one shot of each activation per distance.
    pub fn distances(modes: &[Mode]) -> impl Iterator<Item = f64> + '_ {
        modes.iter().filter_map(|m| if let Mode::Shoot(d) = m { Some(*d) } else { None })
    }
}

/// What one side lost: expected wounds, and the chance the unit was removed (destroyed, or
/// Routed in melee). NaN where the mode cannot happen (an Aircraft charging or charged, an
/// Immobile or Artillery unit charging).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Loss {
    pub wounds: f64,
    pub p_removed: f64,
}

impl Loss {
    /// A mode that cannot happen.
    pub const IMPOSSIBLE: Loss = Loss { wounds: f64::NAN, p_removed: f64::NAN };
}

/// One pair in one mode: the defender's loss (what the attacker dealt) and the attacker's
/// (what it took in return).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Exchange {
    pub dealt: Loss,
    pub taken: Loss,
}

/// Each side's loss in every mode of every pair, as two `[mode, attacker, defender]` arrays
/// flat in row order: cell `(mode * attackers + a) * defenders + d`.
#[derive(Debug, Clone, PartialEq)]
pub struct Losses {
    pub wounds: Vec<f64>,
    pub p_removed: Vec<f64>,
}

/// Every pair in every mode: what the attacker dealt (the defender's loss) and what it took
/// in return, the final arrays filled in place as the pairs are computed (a table holds
/// nothing per pair but its cells: the 43 books' million pairs are 131 MB of them).
#[derive(Debug, Clone, PartialEq)]
pub struct Matchups {
    /// Modes, attackers, defenders.
    pub shape: [usize; 3],
    pub dealt: Losses,
    pub taken: Losses,
    /// Each attacker's and each defender's wounds when fresh (what a loss is a share of).
    pub wounds: [Vec<u32>; 2],
    /// The rules each pair `[a * defenders + d]` plays without modelling, in any mode.
    pub unmodelled: RuleSets,
}

impl Matchups {
    /// A table of NaN cells, to fill.
    fn empty(modes: usize, wounds: [Vec<u32>; 2], unmodelled: RuleSets) -> Matchups {
        let shape = [modes, wounds[0].len(), wounds[1].len()];
        let cells = shape.iter().product();
        let losses = || Losses { wounds: vec![f64::NAN; cells], p_removed: vec![f64::NAN; cells] };
        Matchups { shape, dealt: losses(), taken: losses(), wounds, unmodelled }
    }

    /// Pair `(a, d)`'s exchange in the mode at `mode`.
    pub fn exchange(&self, mode: usize, a: usize, d: usize) -> Exchange {
        let i = (mode * self.shape[1] + a) * self.shape[2] + d;
        let loss = |l: &Losses| Loss { wounds: l.wounds[i], p_removed: l.p_removed[i] };
        Exchange { dealt: loss(&self.dealt), taken: loss(&self.taken) }
    }

    /// Its rows to fill, each apart (so that threads can fill them at once): for each
    /// attacker, its row of dealt wounds, dealt `p_removed`, taken wounds and taken
    /// `p_removed`, in every mode.
    fn rows(&mut self) -> Vec<Row<'_>> {
        let [_, na, nd] = self.shape;
        let mut columns = [&mut self.dealt.wounds, &mut self.dealt.p_removed, &mut self.taken.wounds, &mut self.taken.p_removed].map(|a| rows_of(a, na, nd).into_iter());
        (0..na).map(|_| columns.each_mut().map(|c| c.next().expect("one row per attacker"))).collect()
    }
}

/// One row of a table's four arrays ([`Matchups::rows`]), each in every mode.
type Row<'a> = [Vec<&'a mut [f64]>; 4];

/// The arrays of a [`Row`] a side's loss goes to: the defender's (dealt) or the attacker's (taken).
const DEALT: usize = 0;
const TAKEN: usize = 2;

/// `loss` in the cell of column `col` of `row`, as `side`'s loss in the mode at `mode`.
fn put(row: &mut Row<'_>, side: usize, mode: usize, col: usize, loss: Loss) {
    row[side][mode][col] = loss.wounds;
    row[side + 1][mode][col] = loss.p_removed;
}

/// The rows of a `[plane, row, column]` array, flat: for each row, its slice in each plane.
fn rows_of(array: &mut [f64], rows: usize, cols: usize) -> Vec<Vec<&mut [f64]>> {
    let mut out: Vec<Vec<&mut [f64]>> = (0..rows).map(|_| Vec::new()).collect();
    if rows * cols > 0 {
        for plane in array.chunks_mut(rows * cols) {
            for (r, row) in plane.chunks_mut(cols).enumerate() {
                out[r].push(row);
            }
        }
    }
    out
}

/// Sets of rule names, each held once however many items share it (the 90,000 pairs of 300
/// of the 43 books' units name 27): item `i`'s rules are `sets[of[i]]`, sorted; `sets[0]` is
/// empty.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleSets {
    pub sets: Vec<Vec<String>>,
    pub of: Vec<u32>,
}

impl RuleSets {
    /// Item `i`'s rules.
    pub fn get(&self, i: usize) -> &[String] {
        &self.sets[self.of[i] as usize]
    }

    /// From each item's list of names (in any order, repeats allowed).
    pub fn from_lists(lists: Vec<Vec<String>>) -> RuleSets {
        let mut sets = Interner::new();
        let of = lists.into_iter().map(|names| sets.id(names)).collect();
        RuleSets { sets: sets.sets, of }
    }

    /// Each pair's rules: the union of its two items' (`two(pair)` gives their indices).
    fn unions(&self, pairs: usize, two: impl Fn(usize) -> (usize, usize)) -> RuleSets {
        let mut sets = Interner::new();
        let mut seen: FxHashMap<(u32, u32), u32> = FxHashMap::default();
        let of = (0..pairs)
            .map(|p| {
                let (x, y) = two(p);
                let key = (self.of[x], self.of[y]);
                *seen.entry(key).or_insert_with(|| sets.id(self.sets[key.0 as usize].iter().chain(&self.sets[key.1 as usize]).cloned().collect()))
            })
            .collect();
        RuleSets { sets: sets.sets, of }
    }
}

/// Distinct sets of rule names, numbered as first seen (0: the empty set).
struct Interner {
    sets: Vec<Vec<String>>,
    ids: FxHashMap<Vec<String>, u32>,
}

impl Interner {
    fn new() -> Interner {
        Interner { sets: vec![Vec::new()], ids: FxHashMap::from_iter([(Vec::new(), 0)]) }
    }

    /// The number of the set of `names` (sorted, each once).
    fn id(&mut self, mut names: Vec<String>) -> u32 {
        names.sort();
        names.dedup();
        if let Some(&id) = self.ids.get(&names) {
            return id;
        }
        // at most one set per item, and items are far fewer than 2^32 (MAX_TABLE_PAIRS)
        let id = u32::try_from(self.sets.len()).expect("fewer sets than 2^32");
        self.sets.push(names.clone());
        self.ids.insert(names, id);
        id
    }
}

/// What each unit can do, read once.
#[derive(Clone)]
struct Side {
    orders: Vec<Allocation>,
    can_charge: Vec<bool>,
    can_be_charged: Vec<bool>,
}

impl Side {
    /// Each unit's wounds when fresh.
    fn wounds(&self) -> Vec<u32> {
        self.orders.iter().map(|o| o.wounds_left(o.start())).collect()
    }

    fn of(units: &[Unit], edition: Edition) -> Side {
        let orders: Vec<Allocation> = units.par_iter().map(|u| Allocation::new(u, edition)).collect();
        // only whether a unit may charge and be charged is read here (Aircraft, Immobile), the
        // same in every edition's rules: v3.5's action distances do not matter
        let charges: Vec<(bool, bool)> = orders.iter().map(|o| prepare::may_charge(&prepare::movement(&o.runs, edition, &crate::game::rules::GameRules::V3_5))).collect();
        Side { can_charge: charges.iter().map(|c| c.0).collect(), can_be_charged: charges.iter().map(|c| c.1).collect(), orders }
    }
}

/// One step of a unit's activation against another: an attack or a melee, built and ready.
enum Step {
    Attack(Attack),
    Melee(Melee),
    Impossible,
}

/// What one unit does to another in one of its activations, in every mode asked: its shot
/// from each shooting distance (the target's loss), and its charge (the charger's and the
/// defender's losses; `None` where it cannot charge, or no mode asks).
#[derive(Debug, Clone, PartialEq)]
pub struct Forward {
    pub shots: Vec<Loss>,
    pub charge: Option<[Loss; 2]>,
}

/// A unit of one side: (side, index).
type At = (usize, usize);

struct Table<'u> {
    units: [&'u [Unit]; 2],
    sides: [Side; 2],
    modes: &'u [Mode],
    charge_distance: f64,
    edition: Edition,
}

impl<'u> Table<'u> {
    /// The table of `units[0]` against `units[1]`, each side read once (a list against
    /// itself once for both).
    fn new(units: [&'u [Unit]; 2], modes: &'u [Mode], charge_distance: f64, edition: Edition, threads: Option<usize>) -> Result<Table<'u>> {
        crate::pool::install(threads, || {
            let from = Side::of(units[0], edition);
            let to = if units[0] == units[1] { from.clone() } else { Side::of(units[1], edition) };
            Table { units, sides: [from, to], modes, charge_distance, edition }
        })
    }

    /// The steps of `from`'s activation against `to`: a shot from each distance, and the
    /// charge when `melee`.
    fn steps(&self, from: At, to: At, melee: bool) -> Result<(Vec<Step>, Option<Step>)> {
        let (s, t) = (&self.sides[from.0], &self.sides[to.0]);
        let shooter = &self.units[from.0][from.1];
        let shots = Mode::distances(self.modes)
            .map(|d| {
                let situation = Situation::new(self.edition, false, d);
                Attack::with_orders(shooter, &s.orders[from.1], t.orders[to.1].clone(), situation, None, &UnitState::FRESH, &UnitState::FRESH).map(Step::Attack)
            })
            .collect::<Result<Vec<_>>>()?;
        let charge = if !melee {
            None
        } else if !(s.can_charge[from.1] && t.can_be_charged[to.1]) {
            Some(Step::Impossible)
        } else {
            let m = Melee::with_orders(s.orders[from.1].clone(), t.orders[to.1].clone(), &UnitState::FRESH, &UnitState::FRESH, true, self.charge_distance, self.edition, false)?;
            Some(Step::Melee(m))
        };
        Ok((shots, charge))
    }

    /// The exact work of the steps of `from` against `to` (attacks, melees), checked, the
    /// rules they do not model, and the steps themselves.
    fn check(&self, from: At, to: At, melee: bool) -> Result<Checked> {
        let (mut shots, mut charge) = self.steps(from, to, melee)?;
        let (mut attack_work, mut melee_work, mut names) = (0u64, 0u64, Vec::new());
        for step in shots.iter_mut().chain(charge.as_mut()) {
            match step {
                Step::Attack(x) => {
                    attack_work = attack_work.saturating_add(x.check_exact()?);
                    names.append(&mut x.unmodelled);
                }
                Step::Melee(m) => {
                    melee_work = melee_work.saturating_add(m.exact_work()?);
                    names.append(&mut m.unmodelled);
                }
                Step::Impossible => {}
            }
        }
        Ok(Checked { attack_work, melee_work, unmodelled: names, steps: Some((shots, charge)) })
    }

    /// What the steps do: each shot's loss, and the charge's losses.
    fn forward((shots, charge): (Vec<Step>, Option<Step>)) -> Forward {
        let shots = shots
            .into_iter()
            .map(|step| match step {
                Step::Attack(x) => {
                    let cell = crate::attack::table::cell(&x);
                    Loss { wounds: cell.removed, p_removed: cell.p_destroyed }
                }
                _ => Loss::IMPOSSIBLE,
            })
            .collect();
        let charge = match charge {
            Some(Step::Melee(m)) => {
                let o = exact(&m);
                // (the ends leave out the destroyed and the Routed: what they miss is removed)
                let loss = |side: usize, order: &Allocation, start| {
                    let (wounds, p_removed) = order.removed(start, &o.ends[side]);
                    Loss { wounds, p_removed }
                };
                Some([loss(0, &m.charger, m.charger_start), loss(1, &m.defender, m.defender_start)])
            }
            _ => None,
        };
        Forward { shots, charge }
    }
}

/// An activation checked: its exact work (attacks, melees), the rules it does not model, and
/// its steps while they are kept for the work.
struct Checked {
    attack_work: u64,
    melee_work: u64,
    unmodelled: Vec<String>,
    steps: Option<Steps>,
}

/// An activation's steps, built: a shot from each distance, and the charge.
type Steps = (Vec<Step>, Option<Step>);

/// Names the pair an error came from.
fn in_pair(error: Error, a: usize, d: usize) -> Error {
    error.in_item(&format!("attackers[{a}] against defenders[{d}]"))
}

/// One activation to compute: the acting unit, its target, whether it charges too, and the
/// pair an error in it is named by.
type Task = (At, At, bool, (usize, usize));

/// A table's activations in `count` rows of `per_row`: activation `t` of row `r` is
/// `task(r, t)`, and its place among all is `r * per_row + t`.
struct Rows<'a> {
    count: usize,
    per_row: usize,
    task: &'a (dyn Fn(usize, usize) -> Task + Sync),
}

/// What checking one row of activations found.
struct RowCheck {
    attack_work: u64,
    melee_work: u64,
    /// The row's bad activation of the first pair, and its error.
    error: Option<((usize, usize), Error)>,
    /// The distinct sets of rules the row's activations leave unmodelled.
    sets: Interner,
    /// Its steps, when the table keeps them for the work.
    steps: Vec<Option<Steps>>,
}

/// What mode `k` reads of an activation: its shot from one distance (by index), or its charge.
#[derive(Debug, Clone, Copy)]
enum Slot {
    Shot(usize),
    Charge,
    Charged,
}

fn slots(modes: &[Mode]) -> Vec<Slot> {
    let mut shots = 0;
    modes
        .iter()
        .map(|mode| match mode {
            Mode::Shoot(_) => {
                shots += 1;
                Slot::Shot(shots - 1)
            }
            Mode::Charge => Slot::Charge,
            Mode::Charged => Slot::Charged,
        })
        .collect()
}

/// Builds and checks every activation (the first bad pair in row order is named, whatever
/// the threads) and holds the work to the limits: the rules each leaves unmodelled, and, for
/// a small table, the steps built (large ones build them again rather than hold a million
/// at once: each holds its units' removal orders). `None` when `stop` was set.
#[allow(clippy::type_complexity)]
fn check(table: &Table, rows: &Rows, threads: Option<usize>, stop: &Stop) -> Result<Option<(RuleSets, Vec<Vec<Option<Steps>>>)>> {
    let models = |(side, i): At| u64::from(table.units[side][i].size());
    let all = rows.count * rows.per_row;
    let held = (0..all)
        .map(|k| {
            let (from, to, ..) = (rows.task)(k / rows.per_row, k % rows.per_row);
            models(from) + models(to)
        })
        .fold(0u64, u64::saturating_add);
    let keep = crate::attack::table::keeps(all as u64, held);
    let mut of = vec![0u32; all];
    let checked: Vec<Option<RowCheck>> = crate::pool::install(threads, || {
        of.par_chunks_mut(rows.per_row.max(1))
            .enumerate()
            .map(|(r, ids)| {
                let mut row = RowCheck { attack_work: 0, melee_work: 0, error: None, sets: Interner::new(), steps: Vec::new() };
                for (t, id) in ids.iter_mut().enumerate() {
                    if stop.is_set() {
                        return None;
                    }
                    let (from, to, melee, pair) = (rows.task)(r, t);
                    let steps = match table.check(from, to, melee) {
                        Ok(c) => {
                            row.attack_work = row.attack_work.saturating_add(c.attack_work);
                            row.melee_work = row.melee_work.saturating_add(c.melee_work);
                            *id = row.sets.id(c.unmodelled);
                            c.steps
                        }
                        Err(e) => {
                            if row.error.as_ref().is_none_or(|(first, _)| pair < *first) {
                                row.error = Some((pair, e));
                            }
                            None
                        }
                    };
                    if keep {
                        row.steps.push(steps);
                    }
                }
                Some(row)
            })
            .collect()
    })?;
    if checked.iter().any(Option::is_none) {
        return Ok(None);
    }
    let checked: Vec<RowCheck> = checked.into_iter().flatten().collect();
    if let Some(((a, d), e)) = checked.iter().filter_map(|r| r.error.as_ref()).min_by_key(|(pair, _)| *pair) {
        return Err(in_pair(e.clone(), *a, *d));
    }
    let (attack_work, melee_work) = checked.iter().fold((0u64, 0u64), |(x, y), r| (x.saturating_add(r.attack_work), y.saturating_add(r.melee_work)));
    if attack_work > MAX_TABLE_WORK {
        return Err(Error::limit("exact work of the matchups' attacks in steps (fewer units or modes)", attack_work, MAX_TABLE_WORK));
    }
    if melee_work > MAX_TABLE_MELEE_WORK {
        return Err(Error::limit("exact work of the matchups' melees (state pairs × hits; fewer units or modes)", melee_work, MAX_TABLE_MELEE_WORK));
    }
    // the rows' sets numbered once for the whole table
    let mut sets = Interner::new();
    let mut steps = Vec::with_capacity(rows.count);
    for (row, ids) in checked.into_iter().zip(of.chunks_mut(rows.per_row.max(1))) {
        let global: Vec<u32> = row.sets.sets.into_iter().map(|names| sets.id(names)).collect();
        for id in ids {
            *id = global[*id as usize];
        }
        steps.push(row.steps);
    }
    steps.resize_with(rows.count, Vec::new);
    Ok(Some((RuleSets { sets: sets.sets, of }, steps)))
}

/// Computes every activation, a row at a time on each thread, and hands each to `write`
/// with its row's output and its place in the row: the results go straight where they are
/// kept. `false` when `stop` was set (polled before each activation).
fn compute<O: Send>(table: &Table, rows: &Rows, outs: Vec<O>, steps: Vec<Vec<Option<Steps>>>, write: &(dyn Fn(&mut O, usize, Forward) + Sync), threads: Option<usize>, stop: &Stop) -> Result<bool> {
    crate::pool::install(threads, || {
        outs.into_par_iter().zip(steps).enumerate().try_for_each(|(r, (mut out, mut kept))| {
            for t in 0..rows.per_row {
                if stop.is_set() {
                    return Ok(());
                }
                let (from, to, melee, (a, d)) = (rows.task)(r, t);
                let steps = match kept.get_mut(t).and_then(Option::take) {
                    Some(steps) => steps,
                    None => table.steps(from, to, melee).map_err(|e| in_pair(e, a, d))?,
                };
                write(&mut out, t, Table::forward(steps));
            }
            Ok(())
        })
    })??;
    Ok(!stop.is_set())
}

/// A pair's cells from one of its activations, `there` (the attacker's) or back (the
/// defender's), in row `a`'s column `d`.
fn write_pair(slots: &[Slot], row: &mut Row<'_>, d: usize, there: bool, f: &Forward) {
    for (k, slot) in slots.iter().enumerate() {
        let [c, t] = f.charge.unwrap_or([Loss::IMPOSSIBLE; 2]);
        match (*slot, there) {
            (Slot::Shot(s), true) => put(row, DEALT, k, d, f.shots[s]),
            (Slot::Shot(s), false) => put(row, TAKEN, k, d, f.shots[s]),
            (Slot::Charge, true) => {
                put(row, DEALT, k, d, t);
                put(row, TAKEN, k, d, c);
            }
            (Slot::Charged, false) => {
                put(row, DEALT, k, d, c);
                put(row, TAKEN, k, d, t);
            }
            _ => {}
        }
    }
}

/// A square table's cells from the activation of unit `i` against `j`, in row `i`'s column
/// `j`: what `i` deals shooting and charging, and, as pair `(j, i)`'s (put in its place by
/// [`mirror`]), what `j` takes when charging `i`.
fn write_one_way(slots: &[Slot], row: &mut Row<'_>, j: usize, f: &Forward) {
    for (k, slot) in slots.iter().enumerate() {
        let [c, t] = f.charge.unwrap_or([Loss::IMPOSSIBLE; 2]);
        match *slot {
            Slot::Shot(s) => put(row, DEALT, k, j, f.shots[s]),
            Slot::Charge => {
                put(row, DEALT, k, j, t);
                put(row, TAKEN, k, j, c);
            }
            Slot::Charged => {
                put(row, DEALT, k, j, c);
                put(row, TAKEN, k, j, t);
            }
        }
    }
}

/// The square table's cells [`write_one_way`] left at the other pair's place: a shot's
/// return fire is the other unit's shot (`taken[a][d] = dealt[d][a]`), and being charged is
/// the other's charge, transposed.
fn mirror(m: &mut Matchups, slots: &[Slot]) {
    let n = m.shape[1];
    for (k, slot) in slots.iter().enumerate() {
        let plane = k * n * n..(k + 1) * n * n;
        match slot {
            Slot::Shot(_) => {
                for (dealt, taken) in [(&m.dealt.wounds, &mut m.taken.wounds), (&m.dealt.p_removed, &mut m.taken.p_removed)] {
                    let (dealt, taken) = (&dealt[plane.clone()], &mut taken[plane.clone()]);
                    for (i, row) in taken.chunks_mut(n).enumerate() {
                        for (j, cell) in row.iter_mut().enumerate() {
                            *cell = dealt[j * n + i];
                        }
                    }
                }
            }
            Slot::Charged => {
                for array in [&mut m.dealt.wounds, &mut m.dealt.p_removed, &mut m.taken.wounds, &mut m.taken.p_removed] {
                    let array = &mut array[plane.clone()];
                    for i in 0..n {
                        for j in i + 1..n {
                            array.swap(i * n + j, j * n + i);
                        }
                    }
                }
            }
            Slot::Charge => {}
        }
    }
}

fn check_args(pairs: u64, modes: &[Mode], charge_distance: f64, edition: Edition, threads: Option<usize>) -> Result<()> {
    if pairs > MAX_TABLE_PAIRS {
        return Err(Error::limit("attackers × defenders", pairs, MAX_TABLE_PAIRS));
    }
    if modes.is_empty() {
        return Err(Error::invalid("modes", "()", "give at least one mode"));
    }
    crate::pool::check_threads(threads)?;
    crate::attack::check_situation(&Situation::new(edition, true, charge_distance)).map_err(|e| match e {
        Error::Invalid { value, reason, .. } => Error::Invalid { field: "charge_distance".into(), value, reason },
        other => other,
    })
}

/// Every attacker against every defender in every mode, exactly, in parallel on `threads`.
/// Each unit's activation against another is computed once: when the attackers are the
/// defenders (a field against itself), one activation serves two pairs, `(a, d)` as what
/// `a` deals and `(d, a)` as what `d` takes in return. Every activation is built and its
/// work checked before any is computed (the first bad pair in row order is named, whatever
/// the threads); `stop` is polled before each (`None` when it was set). A charge is made
/// from `charge_distance` inches. The results are written straight into the table's arrays.
pub fn matchups(attackers: &[Unit], defenders: &[Unit], modes: &[Mode], charge_distance: f64, edition: Edition, threads: Option<usize>, stop: &Stop) -> Result<Option<Matchups>> {
    check_args((attackers.len() as u64).saturating_mul(defenders.len() as u64), modes, charge_distance, edition, threads)?;
    let (na, nd) = (attackers.len(), defenders.len());
    let square = attackers == defenders;
    let table = Table::new([attackers, defenders], modes, charge_distance, edition, threads)?;
    let slots = slots(modes);
    let (charges, charged) = (modes.contains(&Mode::Charge), modes.contains(&Mode::Charged));
    // square: each unit's activation against each; otherwise each pair's two activations,
    // the attacker's, then the defender's
    let one_way = |i: usize, j: usize| ((0, i), (1, j), charges || charged, (i, j).min((j, i)));
    let both = |a: usize, t: usize| {
        let d = t / 2;
        if t % 2 == 0 { ((0, a), (1, d), charges, (a, d)) } else { ((1, d), (0, a), charged, (a, d)) }
    };
    let rows = if square { Rows { count: na, per_row: nd, task: &one_way } } else { Rows { count: na, per_row: 2 * nd, task: &both } };
    let Some((acts, steps)) = check(&table, &rows, threads, stop)? else { return Ok(None) };
    let unmodelled = if square { acts.unions(na * nd, |p| (p, (p % nd) * nd + p / nd)) } else { acts.unions(na * nd, |p| (2 * p, 2 * p + 1)) };
    drop(acts);
    let mut m = Matchups::empty(modes.len(), [table.sides[0].wounds(), table.sides[1].wounds()], unmodelled);
    let write = |row: &mut Row<'_>, t: usize, f: Forward| {
        if square { write_one_way(&slots, row, t, &f) } else { write_pair(&slots, row, t / 2, t % 2 == 0, &f) }
    };
    if !compute(&table, &rows, m.rows(), steps, &write, threads, stop)? {
        return Ok(None);
    }
    if square {
        mirror(&mut m, &slots);
    }
    Ok(Some(m))
}

/// Every activation of each unit of `from` against each unit of `to`, one way: blocks of
/// rows of a square table (units against themselves), which [`square`] assembles.
#[derive(Debug, Clone, PartialEq)]
pub struct Activations {
    /// `shots + 2` losses per activation, `from[i]` against `to[j]` at `(i * to + j) * (shots + 2)`:
    /// the target's in each shot, then the charger's and the defender's in the charge (NaN: none).
    pub losses: Losses,
    pub shots: usize,
    /// Each activation's rules the engines do not model.
    pub unmodelled: RuleSets,
    /// Each unit's wounds when fresh (`from`, `to`).
    pub wounds: [Vec<u32>; 2],
}

/// The activations of [`matchups`]'s square table from the units `from` (its rows from
/// `offset` on) against every unit of `to` (all of it). An error names the first pair of
/// the whole table in row order that uses a bad activation, as [`matchups`] would.
#[allow(clippy::too_many_arguments)]
pub fn activations(from: &[Unit], to: &[Unit], offset: usize, modes: &[Mode], charge_distance: f64, edition: Edition, threads: Option<usize>, stop: &Stop) -> Result<Option<Activations>> {
    check_args((from.len() as u64).saturating_mul(to.len() as u64), modes, charge_distance, edition, threads)?;
    let melee = modes.contains(&Mode::Charge) || modes.contains(&Mode::Charged);
    let table = Table::new([from, to], modes, charge_distance, edition, threads)?;
    let (nt, shots) = (to.len(), Mode::distances(modes).count());
    let width = shots + 2;
    let one_way = |i: usize, j: usize| {
        let (x, y) = (offset + i, j);
        ((0, i), (1, j), melee, (x, y).min((y, x)))
    };
    let rows = Rows { count: from.len(), per_row: nt, task: &one_way };
    let Some((unmodelled, steps)) = check(&table, &rows, threads, stop)? else { return Ok(None) };
    let cells = from.len() * nt * width;
    let mut losses = Losses { wounds: vec![f64::NAN; cells], p_removed: vec![f64::NAN; cells] };
    // each row's slice of the wounds and of the chances, alone in its one plane
    let outs: Vec<[Vec<&mut [f64]>; 2]> = rows_of(&mut losses.wounds, from.len(), nt * width).into_iter().zip(rows_of(&mut losses.p_removed, from.len(), nt * width)).map(|(w, p)| [w, p]).collect();
    let write = |[wounds, p]: &mut [Vec<&mut [f64]>; 2], j: usize, f: Forward| {
        for (s, loss) in f.shots.iter().chain(&f.charge.unwrap_or([Loss::IMPOSSIBLE; 2])).enumerate() {
            wounds[0][j * width + s] = loss.wounds;
            p[0][j * width + s] = loss.p_removed;
        }
    };
    if !compute(&table, &rows, outs, steps, &write, threads, stop)? {
        return Ok(None);
    }
    Ok(Some(Activations { losses, shots, unmodelled, wounds: [table.sides[0].wounds(), table.sides[1].wounds()] }))
}

/// The square table (every unit against every unit of one list) from its blocks of rows in
/// order: each ordered pair's activation serves two pairs, `(a, d)` as what `a` deals and
/// `(d, a)` as what `d` takes in return.
pub fn square(blocks: Vec<Activations>, modes: &[Mode]) -> Result<Matchups> {
    let n = blocks.first().map_or(0, |b| b.wounds[1].len());
    let rows: usize = blocks.iter().map(|b| b.wounds[0].len()).sum();
    let shots = Mode::distances(modes).count();
    let width = shots + 2;
    let fits = |b: &Activations| {
        let acts = b.wounds[0].len() * n;
        b.wounds[1].len() == n && b.shots == shots && b.losses.wounds.len() == acts * width && b.losses.p_removed.len() == acts * width && b.unmodelled.of.len() == acts
    };
    if rows != n || !blocks.iter().all(fits) {
        return Err(Error::invalid("activations", format!("{} blocks, {rows} rows of {n}", blocks.len()), "must be the rows of a square table in order, with the modes' shots"));
    }
    let wounds: Vec<u32> = blocks.iter().flat_map(|b| b.wounds[0].iter().copied()).collect();
    // the blocks' sets of rules numbered once for the whole table
    let mut sets = Interner::new();
    let mut of = Vec::with_capacity(n * n);
    for b in &blocks {
        let global: Vec<u32> = b.unmodelled.sets.iter().map(|names| sets.id(names.clone())).collect();
        of.extend(b.unmodelled.of.iter().map(|&id| global[id as usize]));
    }
    let unmodelled = RuleSets { sets: sets.sets, of }.unions(n * n, |p| (p, (p % n) * n + p / n));
    let slots = slots(modes);
    let mut m = Matchups::empty(modes.len(), [wounds.clone(), wounds], unmodelled);
    let mut rows = m.rows().into_iter();
    for b in &blocks {
        for i in 0..b.wounds[0].len() {
            let row = &mut rows.next().expect("one row per unit");
            for j in 0..n {
                let at = (i * n + j) * width;
                let loss = |k: usize| Loss { wounds: b.losses.wounds[at + k], p_removed: b.losses.p_removed[at + k] };
                let charge = (!b.losses.wounds[at + shots].is_nan()).then(|| [loss(shots), loss(shots + 1)]);
                write_one_way(&slots, row, j, &Forward { shots: (0..shots).map(loss).collect(), charge });
            }
        }
    }
    drop(rows);
    mirror(&mut m, &slots);
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edition::Edition;

    fn unit(text: &str) -> Unit {
        Unit::parse(text, Edition::V3_5).unwrap()
    }

    fn run(a: &[Unit], d: &[Unit], modes: &[Mode]) -> Matchups {
        matchups(a, d, modes, 6.0, Edition::V3_5, Some(2), &Stop::new()).unwrap().unwrap()
    }

    #[test]
    fn shooting_cells_are_the_two_attacks() {
        let a = [unit("A [5] Q4+ D4+\n5x Rifle (24\", A2, AP(1))"), unit("B [3] Q3+ D4+\n3x Blade (A3, Rending)")];
        let d = [unit("T [10] Q5+ D5+\n10x Pistol (12\", A1)"), unit("U [1] Q3+ D2+ | Tough(6)\nCannon (30\", A3, AP(2))")];
        let modes = [Mode::Shoot(24.0), Mode::Shoot(12.0)];
        let m = run(&a, &d, &modes);
        assert_eq!(m.shape, [2, 2, 2]);
        for (k, &mode) in modes.iter().enumerate() {
            let Mode::Shoot(distance) = mode else { unreachable!() };
            let situation = Situation::new(Edition::V3_5, false, distance);
            for (i, x) in a.iter().enumerate() {
                for (j, y) in d.iter().enumerate() {
                    let e = m.exchange(k, i, j);
                    let there = crate::attack::table::cell(&Attack::new(x, y, situation, None, &UnitState::FRESH, &UnitState::FRESH).unwrap());
                    let back = crate::attack::table::cell(&Attack::new(y, x, situation, None, &UnitState::FRESH, &UnitState::FRESH).unwrap());
                    assert_eq!((e.dealt.wounds, e.dealt.p_removed), (there.removed, there.p_destroyed), "{mode:?} {i} {j}");
                    assert_eq!((e.taken.wounds, e.taken.p_removed), (back.removed, back.p_destroyed), "{mode:?} {i} {j}");
                }
            }
        }
        // the melee-only unit deals nothing shooting; the pistols reach at 12" only
        assert_eq!(m.exchange(0, 1, 0).dealt.wounds, 0.0);
        assert_eq!(m.exchange(0, 0, 0).taken.wounds, 0.0, "pistols out of range at 24\"");
        assert!(m.exchange(1, 0, 0).taken.wounds > 0.0, "pistols in range at 12\"");
    }

    #[test]
    fn a_shot_that_cannot_overkill_removes_its_expected_wounds() {
        // a 100-wound target: no shot can remove more than it has, so the wounds removed are
        // the wounds dealt
        let a = [unit("A [5] Q4+ D4+\n5x Rifle (24\", A2, AP(1))")];
        let d = [unit("Big [10] Q4+ D4+ | Tough(10)")];
        let m = run(&a, &d, &[Mode::Shoot(12.0)]);
        // 10 dice, hits on 4+, saves on 5+ (D4+ less AP(1))
        assert!((m.exchange(0, 0, 0).dealt.wounds - 10.0 * 0.5 * (4.0 / 6.0)).abs() < 1e-12, "{:?}", m.exchange(0, 0, 0));
        assert_eq!(m.exchange(0, 0, 0).dealt.p_removed, 0.0);
    }

    #[test]
    fn charges_are_the_melee_both_ways() {
        let a = [unit("A [5] Q4+ D4+ | Impact(1)\n5x Blade (A2, AP(1))")];
        let d = [unit("T [10] Q5+ D5+\n10x Claws (A1)"), unit("F [1] Q4+ D3+ | Aircraft, Tough(6)\nGun (24\", A4)")];
        let m = run(&a, &d, &[Mode::Charge, Mode::Charged]);
        let melee = exact(&Melee::new(&a[0], &d[0], &UnitState::FRESH, &UnitState::FRESH, true, 6.0, Edition::V3_5).unwrap());
        let e = m.exchange(0, 0, 0);
        let lost = |side: usize| 1.0 - melee.ends[side].iter().map(|(_, p)| p).sum::<f64>();
        assert!((e.dealt.p_removed - lost(1)).abs() < 1e-12 && (e.taken.p_removed - lost(0)).abs() < 1e-12, "{e:?}");
        let back = exact(&Melee::new(&d[0], &a[0], &UnitState::FRESH, &UnitState::FRESH, true, 6.0, Edition::V3_5).unwrap());
        let e = m.exchange(1, 0, 0);
        // charged: the attacker strikes back, and what it dealt is the charger's loss
        assert!((e.dealt.p_removed - (back.status[0][0] + back.status[0][1])).abs() < 1e-12, "{e:?}");
        assert!((e.taken.p_removed - (back.status[1][0] + back.status[1][1])).abs() < 1e-12, "{e:?}");
        // an Aircraft is neither charged nor charges
        assert!(m.exchange(0, 0, 1).dealt.wounds.is_nan() && m.exchange(1, 0, 1).taken.p_removed.is_nan());
    }

    #[test]
    fn a_field_against_itself_computes_each_activation_once_and_gives_the_same_table() {
        let units = vec![
            unit("A [5] Q4+ D4+ | Impact(1)\n5x Blade (A2, AP(1))\n5x Pistol (12\", A1)"),
            unit("T [10] Q5+ D5+\n10x Claws (A1)\n10x Rifle (24\", A1)"),
            unit("F [1] Q4+ D3+ | Aircraft, Tough(6)\nGun (24\", A4)"),
            unit("W [1] Q3+ D2+ | Tough(9), Fear(2), Split\nStomp (A6, AP(2))"),
        ];
        // the same pairs through the general path: one more attacker makes the table not square
        let mut more = units.clone();
        more.push(unit("X [3] Q4+ D4+\n3x Axe (A2)"));
        let n = units.len();
        let same = |p: f64, q: f64| p.to_bits() == q.to_bits();
        let all_modes = [Mode::Shoot(24.0), Mode::Charge, Mode::Shoot(12.0), Mode::Charged];
        // each charge mode alone too: one of them is written where the other pair's goes
        for modes in [&all_modes[..], &[Mode::Charged], &[Mode::Charge, Mode::Shoot(12.0)], &[Mode::Charged, Mode::Shoot(24.0)]] {
            let square = run(&units, &units, modes);
            let general = run(&more, &units, modes);
            // and in blocks of rows, as a cluster computes it
            let stop = Stop::new();
            let block = |rows: std::ops::Range<usize>| activations(&units[rows.clone()], &units, rows.start, modes, 6.0, Edition::V3_5, Some(2), &stop).unwrap().unwrap();
            let blocks = super::square(vec![block(0..1), block(1..n)], modes).unwrap();
            assert_eq!(blocks.shape, square.shape);
            for m in 0..modes.len() {
                for a in 0..n {
                    for d in 0..n {
                        let (x, y) = (square.exchange(m, a, d), general.exchange(m, a, d));
                        for (p, q) in [(x.dealt.wounds, y.dealt.wounds), (x.taken.wounds, y.taken.wounds), (x.dealt.p_removed, y.dealt.p_removed), (x.taken.p_removed, y.taken.p_removed)] {
                            assert!(same(p, q), "{modes:?} {m} {a} {d}: {x:?} {y:?}");
                        }
                        let z = blocks.exchange(m, a, d);
                        assert!(same(x.dealt.wounds, z.dealt.wounds) && same(x.taken.p_removed, z.taken.p_removed), "{modes:?} {m} {a} {d}: {x:?} {z:?}");
                    }
                }
            }
            assert!((0..n * n).all(|p| square.unmodelled.get(p) == general.unmodelled.get(p)));
            assert_eq!(blocks.unmodelled.sets.len(), square.unmodelled.sets.len());
            assert!((0..n * n).all(|p| square.unmodelled.get(p) == blocks.unmodelled.get(p)));
            assert_eq!(square.wounds[0], square.wounds[1]);
        }
        // Split is not modelled: every pair with W names it, either way round
        let square = run(&units, &units, &all_modes);
        let split = |p: usize| square.unmodelled.get(p).contains(&"Split".to_string());
        assert!((0..n).all(|x| split(3 * n + x) && split(x * n + 3)) && !split(0), "{:?}", square.unmodelled);
    }

    #[test]
    fn modes_are_read_as_named() {
        assert_eq!(Mode::parse("m", "shoot 12").unwrap(), Mode::Shoot(12.0));
        assert_eq!(Mode::parse("m", " shoot  24\" ").unwrap(), Mode::Shoot(24.0));
        assert_eq!(Mode::parse("m", "charged").unwrap(), Mode::Charged);
        for bad in ["shoot", "shoot -1", "shoot nan", "shoot 1e9", "melee", "", "charge 6"] {
            let e = Mode::parse("modes[1]", bad).unwrap_err();
            assert!(e.to_string().contains("modes[1]"), "{bad}: {e}");
        }
    }

    #[test]
    fn a_bad_pair_is_named_and_the_threads_do_not_matter() {
        let a = vec![unit("A [5] Q4+ D4+\n5x Rifle (24\", A2)"); 3];
        let d = vec![unit("T [10] Q5+ D5+\n10x Claws (A1)"); 5];
        let modes = [Mode::Shoot(12.0), Mode::Charge, Mode::Charged];
        let one = matchups(&a, &d, &modes, 6.0, Edition::V3_5, Some(1), &Stop::new()).unwrap().unwrap();
        assert_eq!(one, run(&a, &d, &modes));
        let e = matchups(&a, &d, &[Mode::Shoot(f64::NAN)], 6.0, Edition::V3_5, Some(2), &Stop::new()).unwrap_err();
        assert!(e.to_string().contains("attackers[0] against defenders[0]: distance"), "{e}");
        let e = matchups(&a, &d, &modes, -1.0, Edition::V3_5, None, &Stop::new()).unwrap_err();
        assert!(e.to_string().contains("charge_distance"), "{e}");
        let stop = Stop::new();
        stop.set();
        assert_eq!(matchups(&a, &d, &modes, 6.0, Edition::V3_5, None, &stop).unwrap(), None);
    }
}
