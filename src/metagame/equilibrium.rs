//! The equilibrium of the symmetric zero-sum game of a win-rate table, `A = W - 1/2`
//! (antisymmetric, value 0): a mix `p` that no strategy beats, `(A p)_i ≤ 0` for every `i`.
//!
//! 1. One equilibrium by linear programming: with `B = A + 1` (every entry positive, the
//!    game's value 1), `max Σy` subject to `B y ≤ 1`, `y ≥ 0` has optimum `Σy = 1`, and its
//!    solutions are the equilibria (the column player's optimal mixes, the row player's by
//!    symmetry). Its slacks are the regrets `-(A y)_i`.
//! 2. Every strategy is then either in the support of some equilibrium, or strictly behind
//!    at some equilibrium, never both (Tucker's theorem for skew-symmetric systems). Where
//!    the first vertex leaves a strategy neither, further programs over the optimal face
//!    maximise the weights and regrets of the strategies still unclassified, until each is
//!    one or the other. The mean of the vertices found, `p*`, is strictly positive on the
//!    maximal support `S` and strictly behind off it.
//! 3. The equilibria are `{p ≥ 0 : p_i = 0 off S, Σp = 1, (A p)_i = 0 on S, (A p)_i ≤ 0 off S}`.
//!    When the equalities fix `p` (the usual case: a rank test by pivoted QR), it is unique,
//!    solved exactly from them. Otherwise the one reported is the **maximum-entropy**
//!    equilibrium (as in Balduzzi et al.'s Nash averaging): identical strategies share their
//!    weight equally, and a table of even matchups gives the uniform mix. It is found by a
//!    barrier method on the null space of the equalities, Newton steps by conjugate gradients.

use super::linalg::{conjugate_gradient, dot, PivotedQr};
use super::simplex::{Failure, Tableau};
use crate::stop::Stop;
use crate::error::{Error, Result};

/// Weights and regrets at most this are zero: a strategy whose win rate against the mix is
/// within 10⁻⁹ of even is tied with it.
pub const ZERO: f64 = 1e-9;
/// The largest `(A p)_i` accepted in the equilibrium returned (a check of the solvers).
const CHECK: f64 = 1e-7;

pub struct Equilibrium {
    pub mix: Vec<f64>,
    /// Whether the table has exactly one equilibrium (false: several, `mix` the one of
    /// maximum entropy).
    pub unique: bool,
}

fn failed(what: &str) -> Error {
    Error::invalid("table", "a win-rate table", format!("the equilibrium solver failed ({what}); this is a bug, please report it with the table"))
}

/// The equilibrium of `a` (`n × n`, row-major, antisymmetric); None when `stop` was set.
pub fn equilibrium(a: &[f64], n: usize, stop: &Stop) -> Result<Option<Equilibrium>> {
    let Some((p_star, support)) = maximal_support(a, n, stop)? else { return Ok(None) };
    let s: Vec<usize> = (0..n).filter(|&i| support[i]).collect();
    let m = s.len();
    // off S: strictly behind at p* (an inequality), or, where rounding left a tie, an equality
    let behind: Vec<f64> = (0..n).map(|i| dot(&a[i * n..(i + 1) * n], &p_star)).collect();
    let (inequalities, ties): (Vec<usize>, Vec<usize>) = (0..n).filter(|&i| !support[i]).partition(|&i| behind[i] < -ZERO);
    // the equalities as columns of Cᵀ (m rows): Σp = 1, then (A p)_i = 0 for i in S and ties
    let rows: Vec<usize> = s.iter().chain(&ties).copied().collect();
    let mut ct = vec![1.0; m * (1 + rows.len())];
    for (c, &i) in rows.iter().enumerate() {
        for (r, &j) in s.iter().enumerate() {
            ct[(c + 1) * m + r] = a[i * n + j];
        }
    }
    let qr = PivotedQr::new(ct, m, ZERO * (m as f64).sqrt().max(1.0));
    let start: Vec<f64> = s.iter().map(|&j| p_star[j]).collect();
    let (on_support, unique) = if qr.rank == m {
        let mut rhs = vec![0.0; 1 + rows.len()];
        rhs[0] = 1.0;
        match qr.solve_transposed(&rhs) {
            Some(p) if p.iter().all(|&x| x > -ZERO) => (p, true),
            _ => (start, true),
        }
    } else {
        let (basis, k) = qr.left_null_space();
        let g: Vec<f64> = inequalities.iter().flat_map(|&i| s.iter().map(move |&j| a[i * n + j])).collect();
        (max_entropy(&start, &basis, k, &g), false)
    };
    let mut mix = vec![0.0; n];
    for (&j, &x) in s.iter().zip(&on_support) {
        mix[j] = x.max(0.0);
    }
    let total: f64 = mix.iter().sum();
    if total.is_nan() || total <= 0.0 {
        return Err(failed("an empty mix"));
    }
    mix.iter_mut().for_each(|x| *x /= total);
    let worst = (0..n).map(|i| dot(&a[i * n..(i + 1) * n], &mix)).fold(f64::NEG_INFINITY, f64::max);
    if worst.is_nan() || worst > CHECK {
        return Err(failed(&format!("a strategy beats the mix by {worst:e}")));
    }
    Ok(Some(Equilibrium { mix, unique }))
}

/// Runs the tableau to its optimum: `Ok(false)` when stopped.
fn optimize(tableau: &mut Tableau, budget: usize, stop: &Stop) -> Result<bool> {
    match tableau.optimize(tableau.pivots + budget, stop) {
        Ok(()) => Ok(true),
        Err(Failure::Stopped) => Ok(false),
        Err(e) => Err(failed(&format!("{e:?}"))),
    }
}

/// A strictly complementary equilibrium `p*` and its support (the maximal support): steps
/// 1 and 2 of the module's method.
fn maximal_support(a: &[f64], n: usize, stop: &Stop) -> Result<Option<(Vec<f64>, Vec<bool>)>> {
    let mut b = a.to_vec();
    b.iter_mut().for_each(|x| *x += 1.0);
    let mut tableau = Tableau::new(&vec![1.0; n], &b, &vec![1.0; n]);
    let budget = 50 * (2 * n) + 1_000;
    if !optimize(&mut tableau, budget, stop)? {
        return Ok(None);
    }
    tableau.freeze_nonzero_reduced_costs(ZERO);
    let (mut in_support, mut behind) = (vec![false; n], vec![false; n]);
    let mut sum = vec![0.0; n];
    let mut vertices = 0usize;
    loop {
        let values = tableau.values();
        let (y, slack) = values.split_at(n);
        let total: f64 = y.iter().sum();
        if total.is_nan() || total <= 0.0 {
            return Err(failed("a vertex of zero weight"));
        }
        for i in 0..n {
            sum[i] += y[i] / total;
            in_support[i] |= y[i] > ZERO;
            behind[i] |= slack[i] > ZERO;
        }
        vertices += 1;
        // the strategies neither in a support nor behind so far
        let open: Vec<usize> = (0..n).filter(|&i| !in_support[i] && !behind[i]).collect();
        if open.is_empty() || vertices > n + 1 {
            break;
        }
        let mut c = vec![0.0; 2 * n];
        for &i in &open {
            c[i] = 1.0;
            c[n + i] = 1.0;
        }
        tableau.set_objective(&c);
        if !optimize(&mut tableau, budget, stop)? {
            return Ok(None);
        }
        if tableau.objective() <= ZERO {
            // rounding only (Tucker's theorem says some vertex separates them): left as ties
            break;
        }
    }
    let p: Vec<f64> = sum.iter().map(|x| x / vertices as f64).collect();
    Ok(Some((p, in_support)))
}

/// The maximum-entropy mix on `start + span(basis)` (`m` weights; `basis` row-major
/// `m × k`, orthonormal columns) with every weight positive and `g p ≤ 0` (`g` row-major,
/// `m` columns), from `start`, strictly inside: a barrier method, Newton steps solved by
/// conjugate gradients in the `k` coordinates.
fn max_entropy(start: &[f64], basis: &[f64], k: usize, g: &[f64]) -> Vec<f64> {
    let m = start.len();
    let rows = g.len().checked_div(m).unwrap_or(0);
    let expand = |z: &[f64]| -> Vec<f64> { (0..m).map(|r| start[r] + dot(&basis[r * k..(r + 1) * k], z)).collect() };
    let project = |u: &[f64]| -> Vec<f64> {
        let mut out = vec![0.0; k];
        for (r, &ur) in u.iter().enumerate() {
            if ur != 0.0 {
                for (o, &q) in out.iter_mut().zip(&basis[r * k..(r + 1) * k]) {
                    *o += ur * q;
                }
            }
        }
        out
    };
    let slacks = |p: &[f64]| -> Vec<f64> { (0..rows).map(|j| -dot(&g[j * m..(j + 1) * m], p)).collect() };
    // F(z) = Σ p ln p - μ Σ ln s, s = -g p: finite only strictly inside
    let value = |p: &[f64], s: &[f64], mu: f64| -> f64 {
        if p.iter().any(|&x| x <= 0.0) || s.iter().any(|&x| x <= 0.0) {
            return f64::INFINITY;
        }
        p.iter().map(|x| x * x.ln()).sum::<f64>() - mu * s.iter().map(|x| x.ln()).sum::<f64>()
    };
    let mut z = vec![0.0; k];
    let mut mu = if rows == 0 { 0.0 } else { 1.0 };
    loop {
        for _newton in 0..100 {
            let p = expand(&z);
            let s = slacks(&p);
            // the gradient and the Hessian's product, in p's coordinates, then projected
            let mut grad_p: Vec<f64> = p.iter().map(|x| 1.0 + x.ln()).collect();
            for j in 0..rows {
                let f = mu / s[j];
                for (gp, &gj) in grad_p.iter_mut().zip(&g[j * m..(j + 1) * m]) {
                    *gp += f * gj;
                }
            }
            let grad = project(&grad_p);
            let apply = |v: &[f64], out: &mut [f64]| {
                let u: Vec<f64> = (0..m).map(|r| dot(&basis[r * k..(r + 1) * k], v)).collect();
                let mut hu: Vec<f64> = u.iter().zip(&p).map(|(x, pr)| x / pr).collect();
                for j in 0..rows {
                    let row = &g[j * m..(j + 1) * m];
                    let f = mu * dot(row, &u) / (s[j] * s[j]);
                    for (h, &gj) in hu.iter_mut().zip(row) {
                        *h += f * gj;
                    }
                }
                out.copy_from_slice(&project(&hu));
            };
            let diagonal: Vec<f64> = (0..k).map(|c| (0..m).map(|r| basis[r * k + c].powi(2) / p[r]).sum()).collect();
            let minus_grad: Vec<f64> = grad.iter().map(|x| -x).collect();
            let step = conjugate_gradient(apply, &minus_grad, &diagonal, 1e-12, (2 * k + 20).min(1_000));
            let decrement = -dot(&grad, &step);
            if decrement.is_nan() || decrement <= 1e-18 {
                break;
            }
            // as far as stays strictly inside, then backtracking (Armijo)
            let dp: Vec<f64> = (0..m).map(|r| dot(&basis[r * k..(r + 1) * k], &step)).collect();
            let ds: Vec<f64> = (0..rows).map(|j| -dot(&g[j * m..(j + 1) * m], &dp)).collect();
            let room = p.iter().zip(&dp).chain(s.iter().zip(&ds)).filter(|(_, d)| **d < 0.0).map(|(x, d)| -x / d).fold(f64::INFINITY, f64::min);
            let mut t = (0.99 * room).min(1.0);
            let now = value(&p, &s, mu);
            let mut moved = false;
            for _ in 0..60 {
                let trial: Vec<f64> = z.iter().zip(&step).map(|(a, b)| a + t * b).collect();
                let tp = expand(&trial);
                if value(&tp, &slacks(&tp), mu) <= now - 1e-4 * t * decrement {
                    z = trial;
                    moved = true;
                    break;
                }
                t *= 0.5;
            }
            if !moved || decrement < 1e-15 {
                break;
            }
        }
        if mu == 0.0 || mu * rows as f64 <= 1e-12 {
            break;
        }
        mu /= 10.0;
    }
    expand(&z)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `A = W - 1/2` from a table given by its rows.
    fn game(w: &[&[f64]]) -> (Vec<f64>, usize) {
        let n = w.len();
        (w.iter().flat_map(|row| row.iter().map(|x| x - 0.5)).collect(), n)
    }

    fn close(a: &[f64], b: &[f64], tolerance: f64) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() <= tolerance)
    }

    #[test]
    fn rock_paper_scissors_is_uniform_and_unique() {
        let (a, n) = game(&[&[0.5, 0.0, 1.0], &[1.0, 0.5, 0.0], &[0.0, 1.0, 0.5]]);
        let e = equilibrium(&a, n, &Stop::new()).unwrap().unwrap();
        assert!(close(&e.mix, &[1.0 / 3.0; 3], 1e-12), "{:?}", e.mix);
        assert!(e.unique);
    }

    #[test]
    fn a_weighted_cycle_has_its_known_mix() {
        // R beats S 0.9, S beats P 0.7, P beats R 0.6 (margins 0.4, 0.2, 0.1 over even):
        // the mix is proportional to the margin of the opposite pair: (0.2, 0.4, 0.1) / 0.7
        // for (R, P, S)
        let (a, n) = game(&[&[0.5, 0.4, 0.9], &[0.6, 0.5, 0.3], &[0.1, 0.7, 0.5]]);
        let e = equilibrium(&a, n, &Stop::new()).unwrap().unwrap();
        assert!(close(&e.mix, &[0.2 / 0.7, 0.4 / 0.7, 0.1 / 0.7], 1e-12), "{:?}", e.mix);
    }

    #[test]
    fn even_matchups_give_the_uniform_mix() {
        let n = 7;
        let a = vec![0.0; n * n];
        let e = equilibrium(&a, n, &Stop::new()).unwrap().unwrap();
        assert!(close(&e.mix, &[1.0 / 7.0; 7], 1e-9), "{:?}", e.mix);
        assert!(!e.unique);
    }

    #[test]
    fn identical_strategies_share_their_weight() {
        // rock, a second rock, paper, scissors: the rocks split a third
        let (a, n) = game(&[&[0.5, 0.5, 0.0, 1.0], &[0.5, 0.5, 0.0, 1.0], &[1.0, 1.0, 0.5, 0.0], &[0.0, 0.0, 1.0, 0.5]]);
        let e = equilibrium(&a, n, &Stop::new()).unwrap().unwrap();
        assert!(close(&e.mix, &[1.0 / 6.0, 1.0 / 6.0, 1.0 / 3.0, 1.0 / 3.0], 1e-9), "{:?}", e.mix);
        assert!(!e.unique);
    }

    #[test]
    fn a_strategy_even_with_all_takes_the_entropy_share() {
        // rock-paper-scissors and T, even against everything: the equilibria are
        // (a, a, a, 1 - 3a); the most mixed has a = 1/4
        let (a, n) = game(&[&[0.5, 0.0, 1.0, 0.5], &[1.0, 0.5, 0.0, 0.5], &[0.0, 1.0, 0.5, 0.5], &[0.5, 0.5, 0.5, 0.5]]);
        let e = equilibrium(&a, n, &Stop::new()).unwrap().unwrap();
        assert!(close(&e.mix, &[0.25; 4], 1e-8), "{:?}", e.mix);
    }

    #[test]
    fn a_dominated_strategy_gets_no_weight() {
        // rock-paper-scissors and D, which loses 0.6 to each
        let (a, n) = game(&[&[0.5, 0.0, 1.0, 0.6], &[1.0, 0.5, 0.0, 0.6], &[0.0, 1.0, 0.5, 0.6], &[0.4, 0.4, 0.4, 0.5]]);
        let e = equilibrium(&a, n, &Stop::new()).unwrap().unwrap();
        assert!(close(&e.mix, &[1.0 / 3.0, 1.0 / 3.0, 1.0 / 3.0, 0.0], 1e-12), "{:?}", e.mix);
        assert!(e.unique);
    }

    #[test]
    fn a_transitive_table_is_won_by_the_strongest() {
        let ratings: [f64; 5] = [0.3, -1.0, 1.2, 0.0, 0.5];
        let n = ratings.len();
        let a: Vec<f64> = (0..n * n).map(|c| 1.0 / (1.0 + (ratings[c % n] - ratings[c / n]).exp()) - 0.5).collect();
        let e = equilibrium(&a, n, &Stop::new()).unwrap().unwrap();
        assert!(close(&e.mix, &[0.0, 0.0, 1.0, 0.0, 0.0], 1e-12), "{:?}", e.mix);
        assert!(e.unique);
    }

    /// A random antisymmetric game of `n` strategies (xorshift, so the test needs no crate).
    fn random_game(n: usize, seed: u64, levels: Option<f64>) -> Vec<f64> {
        let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        let mut a = vec![0.0; n * n];
        for i in 0..n {
            for j in i + 1..n {
                let mut x = next() - 0.5;
                if let Some(step) = levels {
                    x = (x / step).round() * step;
                }
                a[i * n + j] = x;
                a[j * n + i] = -x;
            }
        }
        a
    }

    #[test]
    fn random_games_give_equilibria() {
        for (n, seed, levels) in [(5, 1, None), (30, 2, None), (120, 3, None), (9, 4, Some(0.25)), (40, 5, Some(0.1)), (25, 6, Some(0.5))] {
            let a = random_game(n, seed, levels);
            let e = equilibrium(&a, n, &Stop::new()).unwrap().unwrap();
            assert!((e.mix.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            assert!(e.mix.iter().all(|&x| x >= 0.0));
            let worst = (0..n).map(|i| dot(&a[i * n..(i + 1) * n], &e.mix)).fold(f64::NEG_INFINITY, f64::max);
            assert!(worst <= 1e-9, "n {n} seed {seed}: a strategy beats the mix by {worst}");
        }
    }

    #[test]
    fn relabelling_the_strategies_relabels_the_mix() {
        // coarse levels make ties and several equilibria: the selection must not depend on
        // the order the strategies are given in
        for (n, seed) in [(12, 11), (20, 12), (8, 13)] {
            let a = random_game(n, seed, Some(0.5));
            let e = equilibrium(&a, n, &Stop::new()).unwrap().unwrap();
            let order: Vec<usize> = (0..n).rev().collect();
            let b: Vec<f64> = (0..n * n).map(|c| a[order[c / n] * n + order[c % n]]).collect();
            let f = equilibrium(&b, n, &Stop::new()).unwrap().unwrap();
            for (k, &i) in order.iter().enumerate() {
                assert!((f.mix[k] - e.mix[i]).abs() < 1e-7, "n {n}: {:?} vs {:?}", e.mix, f.mix);
            }
        }
    }
}
