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

/// Every pair in every mode: `exchanges[(mode * attackers + a) * defenders + d]`, and the
/// rules each pair (`[a * defenders + d]`) plays without modelling, in any mode.
#[derive(Debug, Clone, PartialEq)]
pub struct Matchups {
    pub exchanges: Vec<Exchange>,
    /// Each attacker's and each defender's wounds when fresh (what a loss is a share of).
    pub wounds: [Vec<u32>; 2],
    pub unmodelled: Vec<Vec<String>>,
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
    steps: Option<(Vec<Step>, Option<Step>)>,
}

/// Pair `(a, d)`'s exchange in each mode, from the attacker's activation `there` and the
/// defender's `back`.
fn exchanges(modes: &[Mode], there: &Forward, back: &Forward) -> Vec<Exchange> {
    let none = Exchange { dealt: Loss::IMPOSSIBLE, taken: Loss::IMPOSSIBLE };
    let mut shot = 0;
    modes
        .iter()
        .map(|mode| match mode {
            Mode::Shoot(_) => {
                shot += 1;
                Exchange { dealt: there.shots[shot - 1], taken: back.shots[shot - 1] }
            }
            Mode::Charge => there.charge.map_or(none, |[c, d]| Exchange { dealt: d, taken: c }),
            Mode::Charged => back.charge.map_or(none, |[c, d]| Exchange { dealt: c, taken: d }),
        })
        .collect()
}

/// The table of every pair from each pair's two activations (`there`, `back` give their
/// indices in `done`), mode by mode, with the rules either activation leaves unmodelled.
fn assemble(modes: &[Mode], na: usize, nd: usize, done: &[Forward], unmodelled_of: &[Vec<String>], of: impl Fn(usize, usize) -> (usize, usize), wounds: [Vec<u32>; 2]) -> Matchups {
    let per_pair: Vec<Vec<Exchange>> = (0..na * nd)
        .map(|i| {
            let (there, back) = of(i / nd, i % nd);
            exchanges(modes, &done[there], &done[back])
        })
        .collect();
    let exchanges = (0..modes.len()).flat_map(|m| per_pair.iter().map(move |p| p[m])).collect();
    let unmodelled = (0..na * nd)
        .map(|i| {
            let (there, back) = of(i / nd, i % nd);
            let mut names: Vec<String> = unmodelled_of[there].iter().chain(&unmodelled_of[back]).cloned().collect();
            names.sort();
            names.dedup();
            names
        })
        .collect();
    Matchups { exchanges, wounds, unmodelled }
}

/// Names the pair an error came from.
fn in_pair(error: Error, a: usize, d: usize) -> Error {
    error.in_item(&format!("attackers[{a}] against defenders[{d}]"))
}

/// One activation to compute: the acting unit, its target, whether it charges too, and the
/// pair an error in it is named by.
type Task = (At, At, bool, (usize, usize));

/// Builds and checks every task (the first bad pair in row order is named, whatever the
/// threads), holds the work to the limits, then computes them all; `None` when `stop` was set.
/// Small tables keep the steps built for the check, as the attack table does; large ones
/// build them again rather than hold a million at once (each holds its units' removal orders).
#[allow(clippy::type_complexity)]
fn run(table: &Table, tasks: &[Task], threads: Option<usize>, stop: &Stop) -> Result<Option<(Vec<Forward>, Vec<Vec<String>>)>> {
    let models = |(side, i): At| u64::from(table.units[side][i].size());
    let held = tasks.iter().map(|&(from, to, ..)| models(from) + models(to)).fold(0u64, u64::saturating_add);
    let keep = crate::attack::table::keeps(tasks.len() as u64, held);
    let checked: Vec<Option<std::result::Result<Checked, ((usize, usize), Error)>>> = crate::pool::install(threads, || {
        tasks
            .par_iter()
            .map(|&(from, to, melee, pair)| {
                (!stop.is_set()).then(|| {
                    let mut c = table.check(from, to, melee).map_err(|e| (pair, e))?;
                    if !keep {
                        c.steps = None;
                    }
                    Ok(c)
                })
            })
            .collect()
    })?;
    if checked.iter().any(Option::is_none) {
        return Ok(None);
    }
    if let Some(((a, d), e)) = checked.iter().flatten().filter_map(|r| r.as_ref().err()).min_by_key(|(pair, _)| *pair) {
        return Err(in_pair(e.clone(), *a, *d));
    }
    let mut checked: Vec<Checked> = checked.into_iter().flatten().flatten().collect();
    let (attack_work, melee_work) = checked.iter().fold((0u64, 0u64), |(x, y), c| (x.saturating_add(c.attack_work), y.saturating_add(c.melee_work)));
    if attack_work > MAX_TABLE_WORK {
        return Err(Error::limit("exact work of the matchups' attacks in steps (fewer units or modes)", attack_work, MAX_TABLE_WORK));
    }
    if melee_work > MAX_TABLE_MELEE_WORK {
        return Err(Error::limit("exact work of the matchups' melees (state pairs × hits; fewer units or modes)", melee_work, MAX_TABLE_MELEE_WORK));
    }
    let done: Vec<Option<Forward>> = crate::pool::install(threads, || {
        tasks
            .par_iter()
            .zip(checked.par_iter_mut())
            .map(|(&(from, to, melee, (a, d)), c)| {
                if stop.is_set() {
                    return Ok(None);
                }
                let steps = match c.steps.take() {
                    Some(steps) => steps,
                    None => table.steps(from, to, melee).map_err(|e| in_pair(e, a, d))?,
                };
                Ok(Some(Table::forward(steps)))
            })
            .collect::<Result<Vec<_>>>()
    })??;
    if done.iter().any(Option::is_none) {
        return Ok(None);
    }
    Ok(Some((done.into_iter().flatten().collect(), checked.into_iter().map(|c| c.unmodelled).collect())))
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
/// from `charge_distance` inches.
pub fn matchups(attackers: &[Unit], defenders: &[Unit], modes: &[Mode], charge_distance: f64, edition: Edition, threads: Option<usize>, stop: &Stop) -> Result<Option<Matchups>> {
    if attackers == defenders {
        return Ok(activations(attackers, attackers, 0, modes, charge_distance, edition, threads, stop)?.map(|a| square(vec![a], modes)).transpose()?);
    }
    check_args((attackers.len() as u64).saturating_mul(defenders.len() as u64), modes, charge_distance, edition, threads)?;
    let (na, nd) = (attackers.len(), defenders.len());
    let table = Table::new([attackers, defenders], modes, charge_distance, edition, threads)?;
    // each pair's two activations: the attacker's, then the defender's
    let (charges, charged) = (modes.contains(&Mode::Charge), modes.contains(&Mode::Charged));
    let tasks: Vec<Task> = (0..na * nd)
        .flat_map(|i| {
            let (a, d) = (i / nd, i % nd);
            [((0, a), (1, d), charges, (a, d)), ((1, d), (0, a), charged, (a, d))]
        })
        .collect();
    let Some((done, unmodelled_of)) = run(&table, &tasks, threads, stop)? else { return Ok(None) };
    let wounds = [table.sides[0].wounds(), table.sides[1].wounds()];
    Ok(Some(assemble(modes, na, nd, &done, &unmodelled_of, |a, d| (2 * (a * nd + d), 2 * (a * nd + d) + 1), wounds)))
}

/// Every activation of each unit of `from` against each unit of `to`, one way: blocks of
/// rows of a square table (units against themselves), which [`square`] assembles.
#[derive(Debug, Clone, PartialEq)]
pub struct Activations {
    /// `forwards[i * to + j]`: what `from[i]` does to `to[j]` in one activation.
    pub forwards: Vec<Forward>,
    /// `[i * to + j]`: the rules of that activation the engines do not model.
    pub unmodelled: Vec<Vec<String>>,
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
    let nt = to.len();
    let tasks: Vec<Task> = (0..from.len() * nt)
        .map(|k| {
            let (x, y) = (offset + k / nt, k % nt);
            ((0, k / nt), (1, k % nt), melee, (x, y).min((y, x)))
        })
        .collect();
    let Some((forwards, unmodelled)) = run(&table, &tasks, threads, stop)? else { return Ok(None) };
    Ok(Some(Activations { forwards, unmodelled, wounds: [table.sides[0].wounds(), table.sides[1].wounds()] }))
}

/// The square table (every unit against every unit of one list) from its blocks of rows in
/// order: each ordered pair's activation serves two pairs, `(a, d)` as what `a` deals and
/// `(d, a)` as what `d` takes in return.
pub fn square(blocks: Vec<Activations>, modes: &[Mode]) -> Result<Matchups> {
    let n = blocks.first().map_or(0, |b| b.wounds[1].len());
    let rows: usize = blocks.iter().map(|b| b.wounds[0].len()).sum();
    let shots = Mode::distances(modes).count();
    let fits = |b: &Activations| b.wounds[1].len() == n && b.forwards.len() == b.wounds[0].len() * n && b.unmodelled.len() == b.forwards.len() && b.forwards.iter().all(|f| f.shots.len() == shots);
    if rows != n || !blocks.iter().all(fits) {
        return Err(Error::invalid("activations", format!("{} blocks, {rows} rows of {n}", blocks.len()), "must be the rows of a square table in order, with the modes' shots"));
    }
    let (mut forwards, mut unmodelled, mut wounds) = (Vec::with_capacity(n * n), Vec::with_capacity(n * n), Vec::with_capacity(n));
    for b in blocks {
        forwards.extend(b.forwards);
        unmodelled.extend(b.unmodelled);
        wounds.extend(b.wounds[0].iter().copied());
    }
    Ok(assemble(modes, n, n, &forwards, &unmodelled, |a, d| (a * n + d, d * n + a), [wounds.clone(), wounds]))
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
        assert_eq!(m.exchanges.len(), 8);
        for (k, &mode) in modes.iter().enumerate() {
            let Mode::Shoot(distance) = mode else { unreachable!() };
            let situation = Situation::new(Edition::V3_5, false, distance);
            for (i, x) in a.iter().enumerate() {
                for (j, y) in d.iter().enumerate() {
                    let e = m.exchanges[(k * 2 + i) * 2 + j];
                    let there = crate::attack::table::cell(&Attack::new(x, y, situation, None, &UnitState::FRESH, &UnitState::FRESH).unwrap());
                    let back = crate::attack::table::cell(&Attack::new(y, x, situation, None, &UnitState::FRESH, &UnitState::FRESH).unwrap());
                    assert_eq!((e.dealt.wounds, e.dealt.p_removed), (there.removed, there.p_destroyed), "{mode:?} {i} {j}");
                    assert_eq!((e.taken.wounds, e.taken.p_removed), (back.removed, back.p_destroyed), "{mode:?} {i} {j}");
                }
            }
        }
        // the melee-only unit deals nothing shooting; the pistols reach at 12" only
        assert_eq!(m.exchanges[2].dealt.wounds, 0.0);
        assert_eq!(m.exchanges[0].taken.wounds, 0.0, "pistols out of range at 24\"");
        assert!(m.exchanges[4].taken.wounds > 0.0, "pistols in range at 12\"");
    }

    #[test]
    fn a_shot_that_cannot_overkill_removes_its_expected_wounds() {
        // a 100-wound target: no shot can remove more than it has, so the wounds removed are
        // the wounds dealt
        let a = [unit("A [5] Q4+ D4+\n5x Rifle (24\", A2, AP(1))")];
        let d = [unit("Big [10] Q4+ D4+ | Tough(10)")];
        let m = run(&a, &d, &[Mode::Shoot(12.0)]);
        // 10 dice, hits on 4+, saves on 5+ (D4+ less AP(1))
        assert!((m.exchanges[0].dealt.wounds - 10.0 * 0.5 * (4.0 / 6.0)).abs() < 1e-12, "{:?}", m.exchanges[0]);
        assert_eq!(m.exchanges[0].dealt.p_removed, 0.0);
    }

    #[test]
    fn charges_are_the_melee_both_ways() {
        let a = [unit("A [5] Q4+ D4+ | Impact(1)\n5x Blade (A2, AP(1))")];
        let d = [unit("T [10] Q5+ D5+\n10x Claws (A1)"), unit("F [1] Q4+ D3+ | Aircraft, Tough(6)\nGun (24\", A4)")];
        let m = run(&a, &d, &[Mode::Charge, Mode::Charged]);
        let melee = exact(&Melee::new(&a[0], &d[0], &UnitState::FRESH, &UnitState::FRESH, true, 6.0, Edition::V3_5).unwrap());
        let e = m.exchanges[0];
        let lost = |side: usize| 1.0 - melee.ends[side].iter().map(|(_, p)| p).sum::<f64>();
        assert!((e.dealt.p_removed - lost(1)).abs() < 1e-12 && (e.taken.p_removed - lost(0)).abs() < 1e-12, "{e:?}");
        let back = exact(&Melee::new(&d[0], &a[0], &UnitState::FRESH, &UnitState::FRESH, true, 6.0, Edition::V3_5).unwrap());
        let e = m.exchanges[2];
        // charged: the attacker strikes back, and what it dealt is the charger's loss
        assert!((e.dealt.p_removed - (back.status[0][0] + back.status[0][1])).abs() < 1e-12, "{e:?}");
        assert!((e.taken.p_removed - (back.status[1][0] + back.status[1][1])).abs() < 1e-12, "{e:?}");
        // an Aircraft is neither charged nor charges
        assert!(m.exchanges[1].dealt.wounds.is_nan() && m.exchanges[3].taken.p_removed.is_nan());
    }

    #[test]
    fn a_field_against_itself_computes_each_activation_once_and_gives_the_same_table() {
        let units = vec![
            unit("A [5] Q4+ D4+ | Impact(1)\n5x Blade (A2, AP(1))\n5x Pistol (12\", A1)"),
            unit("T [10] Q5+ D5+\n10x Claws (A1)\n10x Rifle (24\", A1)"),
            unit("F [1] Q4+ D3+ | Aircraft, Tough(6)\nGun (24\", A4)"),
            unit("W [1] Q3+ D2+ | Tough(9), Fear(2)\nStomp (A6, AP(2))"),
        ];
        let modes = [Mode::Shoot(24.0), Mode::Charge, Mode::Shoot(12.0), Mode::Charged];
        let square = run(&units, &units, &modes);
        // the same pairs through the general path: one more attacker makes the table not square
        let mut more = units.clone();
        more.push(unit("X [3] Q4+ D4+\n3x Axe (A2)"));
        let general = run(&more, &units, &modes);
        let (na, n) = (more.len(), units.len());
        for m in 0..modes.len() {
            for a in 0..n {
                for d in 0..n {
                    let (x, y) = (square.exchanges[(m * n + a) * n + d], general.exchanges[(m * na + a) * n + d]);
                    let same = |p: f64, q: f64| p == q || (p.is_nan() && q.is_nan());
                    assert!(same(x.dealt.wounds, y.dealt.wounds) && same(x.taken.wounds, y.taken.wounds), "{m} {a} {d}: {x:?} {y:?}");
                    assert!(same(x.dealt.p_removed, y.dealt.p_removed) && same(x.taken.p_removed, y.taken.p_removed), "{m} {a} {d}");
                }
            }
        }
        assert_eq!(square.unmodelled, general.unmodelled[..n * n].to_vec());
        assert_eq!(square.wounds[0], square.wounds[1]);
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
