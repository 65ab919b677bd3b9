//! The metagame of a win-rate table (issue 42): which lists or factions a field that
//! adapts would play, how far behind the rest are, how much of the table is one strength
//! order rather than counter-play, and the price adjustments that would make every option
//! worth taking. `docs/metagame.md` gives the definitions and how to read them.
//!
//! The input is a square table, `W[i, j]` the share of games strategy `i` wins against `j`
//! (draws counting half), so `W + Wᵀ = 1` with 1/2 on the diagonal. Everything here is
//! plain numbers in, numbers out: the tables come from games (`faction_table`) or from a
//! caller, and the bootstrap replicates of a table are the caller's.

mod equilibrium;
mod hodge;
mod linalg;
mod prices;
mod simplex;

pub use equilibrium::ZERO;
pub use hodge::logits;

use crate::error::{Error, Result};
use crate::stop::Stop;
use rayon::prelude::*;

/// Strategies of one table. A table's time grows with the size of its equilibrium's support
/// (the simplex's pivots, each over the whole `n × n` tableau): a real field's table of
/// 2,000 (a support of a few) takes 0.3 s, a table of independent uniform win rates (a
/// support of half the strategies, the worst case) 20 s on one core.
pub const MAX_STRATEGIES: usize = 2_000;
/// Resampled tables of one call.
pub const MAX_REPLICATES: usize = 10_000;
/// `strategies³ × (replicates + 1)`: what a call's time grows with, as if each table were
/// the worst case. At this limit, about a minute on two cores for tables of uniform win rates
/// (five tables of 2,000, forty of 1,000, 1,500 of 300), seconds for real ones.
pub const MAX_METAGAME_WORK: u64 = 40_000_000_000;
/// How far `W[i, j] + W[j, i]` may be from 1, and the diagonal from 1/2 (rounding in the
/// caller's sums); the table used is then made exactly complementary,
/// `(W[i, j] + 1 - W[j, i]) / 2`.
pub const COMPLEMENT_TOLERANCE: f64 = 1e-6;

/// A checked win-rate table, made exactly complementary.
pub struct Table {
    pub n: usize,
    /// `n × n`, row-major.
    pub w: Vec<f64>,
}

impl Table {
    /// Checks `w` (`n × n`, row-major): finite shares from 0 to 1, each pair summing to 1,
    /// 1/2 on the diagonal; `field` names it in errors (`table`, `replicates[3]`).
    pub fn new(w: &[f64], n: usize, field: &str) -> Result<Table> {
        if n < 2 {
            return Err(Error::invalid(field, format!("{n} strategies"), "a table needs at least 2 strategies"));
        }
        if n > MAX_STRATEGIES {
            return Err(Error::limit(format!("{field}: strategies"), n, MAX_STRATEGIES));
        }
        if w.len() != n * n {
            return Err(Error::invalid(field, format!("{} entries", w.len()), format!("a table of {n} strategies has {n} × {n} entries")));
        }
        for i in 0..n {
            for j in 0..n {
                let x = w[i * n + j];
                if !x.is_finite() {
                    return Err(Error::invalid(format!("{field}[{i}, {j}]"), x, "must be a finite share of games won"));
                }
                if !(0.0..=1.0).contains(&x) {
                    return Err(Error::invalid(format!("{field}[{i}, {j}]"), x, "must be a share of games won, from 0 to 1"));
                }
            }
        }
        for i in 0..n {
            let x = w[i * n + i];
            if (x - 0.5).abs() > COMPLEMENT_TOLERANCE {
                return Err(Error::invalid(format!("{field}[{i}, {i}]"), x, "must be 0.5 (a strategy against itself wins half its games)"));
            }
            for j in i + 1..n {
                let (a, b) = (w[i * n + j], w[j * n + i]);
                if (a + b - 1.0).abs() > COMPLEMENT_TOLERANCE {
                    return Err(Error::invalid(
                        format!("{field}[{i}, {j}] + {field}[{j}, {i}]"),
                        format!("{a} + {b} = {}", a + b),
                        format!("must be 1 (what one side wins the other loses, draws counting half), within {COMPLEMENT_TOLERANCE:e}"),
                    ));
                }
            }
        }
        let mut out = vec![0.5; n * n];
        for i in 0..n {
            for j in i + 1..n {
                let x = (w[i * n + j] + 1.0 - w[j * n + i]) / 2.0;
                out[i * n + j] = x;
                out[j * n + i] = 1.0 - x;
            }
        }
        Ok(Table { n, w: out })
    }
}

/// Refuses, before any work, a call on `replicates` resampled tables of `n` strategies that
/// is over the limits.
pub fn check_request(n: usize, replicates: usize) -> Result<()> {
    if n > MAX_STRATEGIES {
        return Err(Error::limit("table: strategies", n, MAX_STRATEGIES));
    }
    if replicates > MAX_REPLICATES {
        return Err(Error::limit("replicates: resampled tables", replicates, MAX_REPLICATES));
    }
    let work = (n as u64).pow(3).saturating_mul(replicates as u64 + 1);
    if work > MAX_METAGAME_WORK {
        return Err(Error::limit("metagame work (strategies³ × (replicates + 1))", work, MAX_METAGAME_WORK));
    }
    Ok(())
}

/// What one table gives.
pub struct Metagame {
    /// The equilibrium mix (the maximum-entropy one when there are several).
    pub mix: Vec<f64>,
    /// `1/2 - Σ_j W[i, j] p_j`: how much less than half its games strategy `i` wins against
    /// the mix (0 on the support, never negative beyond rounding).
    pub regret: Vec<f64>,
    pub unique: bool,
    /// Strength in logits (mean zero), and the transitive share of the logits' squares.
    pub ratings: Vec<f64>,
    pub transitive_share: f64,
    /// The equilibrium prices in logits (mean zero): positive for a strategy too strong.
    pub prices: Vec<f64>,
}

/// The smallest `clip` (the share a win rate is kept away from 0 and 1 before its logit).
pub const MIN_CLIP: f64 = 1e-9;

fn check_clip(clip: f64) -> Result<()> {
    if !(MIN_CLIP..0.5).contains(&clip) {
        return Err(Error::invalid("clip", clip, format!("must be from {MIN_CLIP:e} to below 0.5")));
    }
    Ok(())
}

/// The metagame of one checked table; win rates are kept within `[clip, 1 - clip]` for the
/// logits (the split and the prices), not for the equilibrium. None when `stop` was set.
pub fn metagame(table: &Table, clip: f64, stop: &Stop) -> Result<Option<Metagame>> {
    check_clip(clip)?;
    let n = table.n;
    let a: Vec<f64> = table.w.iter().map(|x| x - 0.5).collect();
    let Some(equilibrium) = equilibrium::equilibrium(&a, n, stop)? else { return Ok(None) };
    // within the solver's rounding of zero, zero: the support's regrets, exactly
    let regret = (0..n).map(|i| -linalg::dot(&a[i * n..(i + 1) * n], &equilibrium.mix)).map(|r: f64| if r.abs() <= ZERO { 0.0 } else { r }).collect();
    let l = hodge::logits(&table.w, n, clip);
    let split = hodge::split(&l, n);
    let prices = prices::prices(&l, n, &split.ratings)?;
    Ok(Some(Metagame { mix: equilibrium.mix, regret, unique: equilibrium.unique, ratings: split.ratings, transitive_share: split.transitive_share, prices }))
}

/// The metagame of each of `count` tables of `n` strategies laid end to end in `tables`,
/// in parallel on `threads` (None: all cores); `first` numbers them in errors
/// (`replicates[first + r]`). `Ok(None)` when `stop` was set.
pub fn replicates(tables: &[f64], n: usize, count: usize, first: usize, clip: f64, threads: Option<usize>, stop: &Stop) -> Result<Option<Vec<Metagame>>> {
    check_clip(clip)?;
    check_request(n, count)?;
    if tables.len() != count * n * n {
        return Err(Error::invalid("replicates", format!("{} entries", tables.len()), format!("{count} tables of {n} × {n}")));
    }
    // every table checked before any is solved: a bad one is refused at once
    let checked: Vec<Table> = tables.chunks(n * n).enumerate().map(|(r, w)| Table::new(w, n, &format!("replicates[{}]", first + r))).collect::<Result<_>>()?;
    let out: Vec<Result<Option<Metagame>>> = crate::pool::install(threads, || checked.par_iter().map(|t| metagame(t, clip, stop)).collect())?;
    let mut solved = Vec::with_capacity(count);
    for (r, m) in out.into_iter().enumerate() {
        match m.map_err(|e| e.in_item(&format!("replicates[{}]", first + r)))? {
            Some(m) => solved.push(m),
            None => return Ok(None),
        }
    }
    Ok(Some(solved))
}

/// A complementary table of `n` strategies drawn from a xorshift stream (`share` turns each
/// draw into a win rate): the tests' random tables.
#[cfg(test)]
pub(crate) fn random_table(n: usize, state: &mut u64, share: impl Fn(u64) -> f64) -> Vec<f64> {
    let mut w = vec![0.5; n * n];
    for i in 0..n {
        for j in i + 1..n {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            let x = share(*state);
            w[i * n + j] = x;
            w[j * n + i] = 1.0 - x;
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rps() -> Vec<f64> {
        vec![0.5, 0.0, 1.0, 1.0, 0.5, 0.0, 0.0, 1.0, 0.5]
    }

    #[test]
    fn bad_tables_name_the_entry() {
        let message = |w: &[f64], n| Table::new(w, n, "table").err().unwrap().to_string();
        assert!(message(&[0.5], 1).contains("at least 2 strategies"));
        let mut w = rps();
        w[5] = f64::NAN;
        assert!(message(&w, 3).starts_with("table[1, 2]: must be a finite"), "{}", message(&w, 3));
        let mut w = rps();
        w[1] = 1.2;
        assert!(message(&w, 3).starts_with("table[0, 1]: must be a share"));
        let mut w = rps();
        w[1] = 0.3;
        assert!(message(&w, 3).starts_with("table[0, 1] + table[1, 0]: must be 1"), "{}", message(&w, 3));
        let mut w = rps();
        w[4] = 0.7;
        assert!(message(&w, 3).starts_with("table[1, 1]: must be 0.5"));
        assert!(message(&vec![0.5; (MAX_STRATEGIES + 1).pow(2)], MAX_STRATEGIES + 1).contains("over the limit"));
    }

    #[test]
    fn rounding_in_the_complement_is_absorbed() {
        let mut w = rps();
        w[1] = 1e-8;
        let t = Table::new(&w, 3, "table").unwrap();
        assert_eq!(t.w[1] + t.w[3], 1.0);
        assert!((t.w[1] - 0.5e-8).abs() < 1e-15);
    }

    #[test]
    fn limits_are_checked_before_work() {
        assert!(check_request(MAX_STRATEGIES, 0).is_ok());
        assert!(check_request(MAX_STRATEGIES + 1, 0).is_err());
        assert!(check_request(10, MAX_REPLICATES + 1).is_err());
        let e = check_request(1_000, 500).unwrap_err().to_string();
        assert!(e.contains("metagame work"), "{e}");
    }

    #[test]
    fn rock_paper_scissors_in_full() {
        let m = metagame(&Table::new(&rps(), 3, "table").unwrap(), 0.01, &Stop::new()).unwrap().unwrap();
        assert!(m.mix.iter().all(|x| (x - 1.0 / 3.0).abs() < 1e-12));
        assert!(m.regret.iter().all(|&x| x == 0.0));
        assert!(m.transitive_share.abs() < 1e-12);
        assert!(m.prices.iter().all(|x| x.abs() < 1e-12));
    }

    #[test]
    fn replicates_are_solved_in_order_and_bad_ones_named() {
        let mut tables = rps();
        // two tables of 3: rock-paper-scissors, then one where rock beats both
        tables.extend([0.5, 0.8, 0.9, 0.2, 0.5, 0.5, 0.1, 0.5, 0.5]);
        let out = replicates(&tables, 3, 2, 0, 0.01, Some(1), &Stop::new()).unwrap().unwrap();
        assert!((out[0].mix[1] - 1.0 / 3.0).abs() < 1e-12);
        assert!((out[1].mix[0] - 1.0).abs() < 1e-12 && out[1].regret[1] > 0.0);
        tables[9 + 1] = 0.7;
        let e = replicates(&tables, 3, 2, 5, 0.01, Some(1), &Stop::new()).err().unwrap().to_string();
        assert!(e.starts_with("replicates[6][0, 1] + replicates[6][1, 0]"), "{e}");
        let stop = Stop::new();
        stop.set();
        tables[9 + 1] = 0.8;
        assert!(replicates(&tables, 3, 2, 0, 0.01, Some(1), &stop).unwrap().is_none());
    }

    /// The time of the largest tables (release build: `cargo test --release --lib
    /// metagame::tests::timing -- --ignored --nocapture`).
    #[test]
    #[ignore]
    fn timing() {
        for n in [300, 1000, 2000] {
            let mut state = 7u64;
            let w = super::random_table(n, &mut state, |s| (s >> 11) as f64 / (1u64 << 53) as f64);
            let even = vec![0.5; n * n];
            // strengths of spread 0.5 logit and counter-play of 0.2 (a real field's order)
            let mut uniform = || {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                ((state >> 11) as f64 + 0.5) / (1u64 << 53) as f64
            };
            let mut normal = || (-2.0 * uniform().ln()).sqrt() * (std::f64::consts::TAU * uniform()).cos();
            let r: Vec<f64> = (0..n).map(|_| 0.5 * normal()).collect();
            let mut real = vec![0.5; n * n];
            for i in 0..n {
                for j in i + 1..n {
                    let x = 1.0 / (1.0 + (r[j] - r[i] + 0.2 * normal()).exp());
                    real[i * n + j] = x;
                    real[j * n + i] = 1.0 - x;
                }
            }
            for (name, w) in [("random", &w), ("even", &even), ("real", &real)] {
                let start = std::time::Instant::now();
                let a: Vec<f64> = w.iter().map(|x| x - 0.5).collect();
                let e = equilibrium::equilibrium(&a, n, &Stop::new()).unwrap().unwrap();
                let solved = start.elapsed().as_secs_f64();
                let l = hodge::logits(w, n, 0.01);
                let split = hodge::split(&l, n);
                let priced = std::time::Instant::now();
                prices::prices(&l, n, &split.ratings).unwrap();
                let support = e.mix.iter().filter(|&&x| x > ZERO).count();
                println!("{name} n = {n}: equilibrium {solved:.3} s, prices {:.3} s, support {support}, unique {}", priced.elapsed().as_secs_f64(), e.unique);
            }
        }
    }
}
