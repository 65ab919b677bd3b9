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
    const IMPOSSIBLE: Loss = Loss { wounds: f64::NAN, p_removed: f64::NAN };
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
struct Side {
    orders: Vec<Allocation>,
    can_charge: Vec<bool>,
    can_be_charged: Vec<bool>,
}

impl Side {
    fn of(units: &[Unit], edition: Edition) -> Side {
        let orders: Vec<Allocation> = units.par_iter().map(|u| Allocation::new(u, edition)).collect();
        let moves: Vec<_> = orders.iter().map(|o| crate::game::prepare::movement(&o.runs, edition)).collect();
        Side {
            can_charge: moves.iter().map(|m| !(m.aircraft || m.hold_only)).collect(),
            can_be_charged: moves.iter().map(|m| !m.aircraft).collect(),
            orders,
        }
    }
}

/// One step of a pair's work: an attack or a melee, built and ready.
enum Step {
    Attack(Attack),
    Melee(Melee),
    Impossible,
}

struct Table<'u> {
    attackers: &'u [Unit],
    defenders: &'u [Unit],
    sides: [Side; 2],
    modes: &'u [Mode],
    charge_distance: f64,
    edition: Edition,
}

impl Table<'_> {
    /// The steps of pair `(a, d)` in `mode`: what the attacker does, and what the defender
    /// does in return (`None` in melee, where one melee holds both).
    fn steps(&self, a: usize, d: usize, mode: Mode) -> Result<(Step, Option<Step>)> {
        let [att, def] = &self.sides;
        let shot = |shooter: &Unit, order: &Allocation, target: &Allocation, distance: f64| {
            Attack::with_orders(shooter, order, target.clone(), Situation::new(self.edition, false, distance), None, &UnitState::FRESH, &UnitState::FRESH).map(Step::Attack)
        };
        let charge = |c: (&Side, usize), t: (&Side, usize)| -> Result<Step> {
            if !(c.0.can_charge[c.1] && t.0.can_be_charged[t.1]) {
                return Ok(Step::Impossible);
            }
            Melee::with_orders(c.0.orders[c.1].clone(), t.0.orders[t.1].clone(), &UnitState::FRESH, &UnitState::FRESH, true, self.charge_distance, self.edition).map(Step::Melee)
        };
        Ok(match mode {
            Mode::Shoot(distance) => (
                shot(&self.attackers[a], &att.orders[a], &def.orders[d], distance)?,
                Some(shot(&self.defenders[d], &def.orders[d], &att.orders[a], distance)?),
            ),
            Mode::Charge => (charge((att, a), (def, d))?, None),
            Mode::Charged => (charge((def, d), (att, a))?, None),
        })
    }

    /// The exact work of a step (attack steps, melee steps) and the rules it does not model.
    fn check(step: &mut Step) -> Result<(u64, u64, Vec<String>)> {
        Ok(match step {
            Step::Attack(x) => (x.check_exact()?, 0, std::mem::take(&mut x.unmodelled)),
            Step::Melee(m) => (0, m.exact_work()?, std::mem::take(&mut m.unmodelled)),
            Step::Impossible => (0, 0, Vec::new()),
        })
    }

    /// Pair `(a, d)`'s work in all modes, checked, and the union of its unmodelled rules.
    fn check_pair(&self, a: usize, d: usize) -> Result<(u64, u64, Vec<String>)> {
        let mut out = (0u64, 0u64, Vec::new());
        for &mode in self.modes {
            let (first, second) = self.steps(a, d, mode)?;
            for mut step in std::iter::once(first).chain(second) {
                let (attack, melee, names) = Self::check(&mut step)?;
                out.0 = out.0.saturating_add(attack);
                out.1 = out.1.saturating_add(melee);
                for n in names {
                    if !out.2.contains(&n) {
                        out.2.push(n);
                    }
                }
            }
        }
        out.2.sort();
        Ok(out)
    }

    fn exchange(&self, a: usize, d: usize, mode: Mode) -> Result<Exchange> {
        let shot = |step: Step| match step {
            Step::Attack(x) => {
                let cell = crate::attack::table::cell(&x);
                Loss { wounds: cell.removed, p_removed: cell.p_destroyed }
            }
            _ => Loss::IMPOSSIBLE,
        };
        Ok(match self.steps(a, d, mode)? {
            (Step::Melee(m), _) => {
                let o = exact(&m);
                let loss = |side: usize, order: &Allocation, start| Loss { wounds: order.removed(start, &o.ends[side]).0, p_removed: o.status[side][0] + o.status[side][1] };
                let (charger, defender) = (loss(0, &m.charger, m.charger_start), loss(1, &m.defender, m.defender_start));
                if mode == Mode::Charge { Exchange { dealt: defender, taken: charger } } else { Exchange { dealt: charger, taken: defender } }
            }
            (Step::Impossible, _) => Exchange { dealt: Loss::IMPOSSIBLE, taken: Loss::IMPOSSIBLE },
            (first, second) => Exchange { dealt: shot(first), taken: second.map_or(Loss::IMPOSSIBLE, shot) },
        })
    }
}

/// Names the pair an error came from.
fn in_pair(error: Error, a: usize, d: usize) -> Error {
    let at = |field: String| format!("attackers[{a}] against defenders[{d}]: {field}");
    match error {
        Error::Invalid { field, value, reason } => Error::Invalid { field: at(field), value, reason },
        Error::Limit { field, value, limit } => Error::Limit { field: at(field), value, limit },
        other => other,
    }
}

/// Every attacker against every defender in every mode, exactly, in parallel on `threads`.
/// Every pair is built and its work checked before any is computed (the first bad pair in
/// row order is named, whatever the threads); `stop` is polled before each pair (`None`
/// when it was set). A charge is made from `charge_distance` inches.
pub fn matchups(attackers: &[Unit], defenders: &[Unit], modes: &[Mode], charge_distance: f64, edition: Edition, threads: Option<usize>, stop: &Stop) -> Result<Option<Matchups>> {
    let pairs = (attackers.len() as u64).saturating_mul(defenders.len() as u64);
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
    })?;
    let n = attackers.len() * defenders.len();
    let table = crate::pool::install(threads, || Table {
        attackers,
        defenders,
        sides: [Side::of(attackers, edition), Side::of(defenders, edition)],
        modes,
        charge_distance,
        edition,
    })?;
    let checked: Vec<Option<Result<(u64, u64, Vec<String>)>>> = crate::pool::install(threads, || {
        (0..n).into_par_iter().map(|i| (!stop.is_set()).then(|| table.check_pair(i / defenders.len(), i % defenders.len()).map_err(|e| in_pair(e, i / defenders.len(), i % defenders.len())))).collect()
    })?;
    if checked.iter().any(Option::is_none) {
        return Ok(None);
    }
    let checked = checked.into_iter().flatten().collect::<Result<Vec<_>>>()?;
    let (attack_work, melee_work) = checked.iter().fold((0u64, 0u64), |(x, y), (a, m, _)| (x.saturating_add(*a), y.saturating_add(*m)));
    if attack_work > MAX_TABLE_WORK {
        return Err(Error::limit("exact work of the matchups' attacks in steps (fewer units or modes)", attack_work, MAX_TABLE_WORK));
    }
    if melee_work > MAX_TABLE_MELEE_WORK {
        return Err(Error::limit("exact work of the matchups' melees (state pairs × hits; fewer units or modes)", melee_work, MAX_TABLE_MELEE_WORK));
    }
    let per_pair: Vec<Option<Vec<Exchange>>> = crate::pool::install(threads, || {
        (0..n)
            .into_par_iter()
            .map(|i| {
                if stop.is_set() {
                    return Ok(None);
                }
                let (a, d) = (i / defenders.len(), i % defenders.len());
                modes.iter().map(|&m| table.exchange(a, d, m)).collect::<Result<Vec<_>>>().map(Some).map_err(|e| in_pair(e, a, d))
            })
            .collect::<Result<Vec<_>>>()
    })??;
    if per_pair.iter().any(Option::is_none) {
        return Ok(None);
    }
    let per_pair: Vec<Vec<Exchange>> = per_pair.into_iter().flatten().collect();
    let exchanges = (0..modes.len()).flat_map(|m| per_pair.iter().map(move |p| p[m])).collect();
    let wounds = table.sides.each_ref().map(|side| side.orders.iter().map(|o| o.wounds_left(o.start())).collect());
    Ok(Some(Matchups { exchanges, wounds, unmodelled: checked.into_iter().map(|(_, _, u)| u).collect() }))
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
