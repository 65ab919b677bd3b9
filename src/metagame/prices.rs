//! Equilibrium prices: one adjustment per strategy under which every strategy is worth
//! taking, after Liu and Marschner, "Balancing zero-sum games with one variable per
//! strategy" (AIIDE 2017).
//!
//! Here the variable is a handicap `d_i` in logits of winning: strategy `i` against `j` wins
//! `σ(L[i, j] - d_i + d_j)` once adjusted (a point cost moves the win logit, measured per
//! point by the caller). The prices make the uniform mix an equilibrium: every strategy
//! wins exactly half its games against the whole field, each row of the adjusted table
//! averaging 1/2, so each is in the support of an equilibrium and indifferent to the rest.
//!
//! Those conditions are the stationary points of the convex
//! `Φ(d) = ½ Σ_{i≠j} softplus(L[i, j] - d_i + d_j)`: its gradient is
//! `g_k = (n - 1)/2 - Σ_{j≠k} σ(L[k, j] - d_k + d_j)`, its Hessian the Laplacian of the
//! complete graph weighted by `σ(1 - σ)` > 0, so `Φ` is strictly convex across the shifts
//! `Σd = 0` and grows without bound along every one of them: the prices exist and are unique
//! up to a common constant (fixed by `Σd = 0`) for every table of finite logits. Newton's
//! method with a backtracking line search finds them, each step by conjugate gradients.

use super::linalg::{conjugate_gradient, dot};
use crate::error::{Error, Result};

fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

/// The largest gap accepted between an adjusted row's mean win rate and 1/2.
pub const ROW_TOLERANCE: f64 = 1e-10;

/// The prices `d` (logits, mean zero) of the logit table `l` (`n × n`, antisymmetric),
/// starting from `start` (the ratings: exact for a purely transitive table).
pub fn prices(l: &[f64], n: usize, start: &[f64]) -> Result<Vec<f64>> {
    let mut d = start.to_vec();
    // Φ(d + t·step) - Φ(d), summed from each pair's exact change: Φ itself is of order n²,
    // and its rounding would hide the last steps' gains. With f(x) = softplus(x) - x/2 =
    // ln(2 cosh(x/2)), f(x + h) - f(x) = ln(1 + 2 sinh²(h/4) + tanh(x/2) sinh(h/2)).
    let change = |d: &[f64], step: &[f64], t: f64| -> f64 {
        let mut total = 0.0;
        for i in 0..n {
            for j in i + 1..n {
                let x = l[i * n + j] - d[i] + d[j];
                let h = t * (step[j] - step[i]);
                let u = 2.0 * (h / 4.0).sinh().powi(2) + (x / 2.0).tanh() * (h / 2.0).sinh();
                total += u.ln_1p();
            }
        }
        if total.is_finite() { total } else { f64::INFINITY }
    };
    for _ in 0..200 {
        // the gradient and the Laplacian's weights at d
        let mut gradient = vec![(n as f64 - 1.0) / 2.0; n];
        let mut weights = vec![0.0; n * n];
        for i in 0..n {
            for j in i + 1..n {
                let s = sigmoid(l[i * n + j] - d[i] + d[j]);
                gradient[i] -= s;
                gradient[j] -= 1.0 - s;
                let w = s * (1.0 - s);
                weights[i * n + j] = w;
                weights[j * n + i] = w;
            }
        }
        let worst = gradient.iter().fold(0.0f64, |m, g| m.max(g.abs())) / n as f64;
        if worst <= ROW_TOLERANCE {
            let mean = d.iter().sum::<f64>() / n as f64;
            return Ok(d.iter().map(|x| x - mean).collect());
        }
        // The Laplacian is singular along the common shift of every price, which changes
        // nothing: `gauge · 11ᵀ` is added to make it definite (conjugate gradients on the
        // singular system let rounding in that direction grow without bound). The gradient
        // sums to zero, so the step is the same.
        let degree: Vec<f64> = (0..n).map(|i| weights[i * n..(i + 1) * n].iter().sum()).collect();
        let gauge = degree.iter().sum::<f64>() / (n * n) as f64;
        let apply = |v: &[f64], out: &mut [f64]| {
            let shift = gauge * v.iter().sum::<f64>();
            for i in 0..n {
                out[i] = degree[i] * v[i] - dot(&weights[i * n..(i + 1) * n], v) + shift;
            }
        };
        let diagonal: Vec<f64> = degree.iter().map(|x| x + gauge).collect();
        let minus_gradient: Vec<f64> = gradient.iter().map(|g| -g).collect();
        let step = conjugate_gradient(apply, &minus_gradient, &diagonal, 1e-12, 2 * n + 50);
        let slope = dot(&gradient, &step);

        if slope.is_nan() || slope >= 0.0 {
            break;
        }
        let mut t = 1.0;
        let mut moved = false;
        for _ in 0..60 {
            if change(&d, &step, t) <= 1e-4 * t * slope {
                d.iter_mut().zip(&step).for_each(|(x, s)| *x += t * s);
                moved = true;
                break;
            }
            t *= 0.5;
        }
        if !moved {
            // rounding: no descent left at the precision of Φ; the check below decides
            break;
        }
    }
    let worst = (0..n).map(|i| (adjusted_row_mean(l, n, &d, i) - 0.5).abs()).fold(0.0, f64::max);
    if worst <= 1e3 * ROW_TOLERANCE {
        let mean = d.iter().sum::<f64>() / n as f64;
        return Ok(d.iter().map(|x| x - mean).collect());
    }
    Err(Error::invalid("table", "a win-rate table", format!("the prices did not converge (a row is {worst:e} from even); this is a bug, please report it with the table")))
}

/// Strategy `i`'s mean win rate against every strategy (itself at 1/2) once adjusted by `d`.
pub fn adjusted_row_mean(l: &[f64], n: usize, d: &[f64], i: usize) -> f64 {
    (0..n).map(|j| if i == j { 0.5 } else { sigmoid(l[i * n + j] - d[i] + d[j]) }).sum::<f64>() / n as f64
}

#[cfg(test)]
mod tests {
    use super::super::hodge::{logits, split};
    use super::*;

    fn priced(w: &[f64], n: usize) -> (Vec<f64>, Vec<f64>) {
        let l = logits(w, n, 0.01);
        let d = prices(&l, n, &split(&l, n).ratings).unwrap();
        (l, d)
    }

    #[test]
    fn a_transitive_table_is_priced_at_its_ratings() {
        let r = [0.4, -0.9, 0.1, 0.4];
        let n = r.len();
        let w: Vec<f64> = (0..n * n).map(|c| sigmoid(r[c / n] - r[c % n])).collect();
        let (_, d) = priced(&w, n);
        let mean = r.iter().sum::<f64>() / n as f64;
        for i in 0..n {
            assert!((d[i] - (r[i] - mean)).abs() < 1e-9, "{d:?}");
        }
    }

    #[test]
    fn rock_paper_scissors_needs_no_price() {
        let w = [0.5, 0.1, 0.9, 0.9, 0.5, 0.1, 0.1, 0.9, 0.5];
        let (_, d) = priced(&w, 3);
        assert!(d.iter().all(|x| x.abs() < 1e-12), "{d:?}");
    }

    #[test]
    fn a_last_newton_step_from_near_the_answer_stays_small() {
        // a table of 50 games a pair: its second Newton step, from 4e-7 off, once came back
        // from conjugate gradients 10⁷ times too long (the singular Laplacian's drift)
        let w = [
            0.5, 0.44, 0.56, 0.76, 0.34, 0.56, 0.54, 0.62, //
            0.56, 0.5, 0.52, 0.7, 0.58, 0.56, 0.7, 0.58, //
            0.44, 0.48, 0.5, 0.62, 0.4, 0.52, 0.78, 0.26, //
            0.24, 0.3, 0.38, 0.5, 0.26, 0.18, 0.48, 0.36, //
            0.66, 0.42, 0.6, 0.74, 0.5, 0.54, 0.64, 0.54, //
            0.44, 0.44, 0.48, 0.82, 0.46, 0.5, 0.74, 0.46, //
            0.46, 0.3, 0.22, 0.52, 0.36, 0.26, 0.5, 0.4, //
            0.38, 0.42, 0.74, 0.64, 0.46, 0.54, 0.6, 0.5,
        ];
        let (l, d) = priced(&w, 8);
        for i in 0..8 {
            assert!((adjusted_row_mean(&l, 8, &d, i) - 0.5).abs() < 1e-10, "row {i}: {d:?}");
        }
    }

    #[test]
    fn prices_make_every_strategy_win_half_its_games() {
        // a strong strategy, a weak one and a cycle: each adjusted row averages 1/2
        let w = [
            0.5, 0.9, 0.8, 0.75, 0.95, //
            0.1, 0.5, 0.3, 0.6, 0.45, //
            0.2, 0.7, 0.5, 0.2, 0.999, //
            0.25, 0.4, 0.8, 0.5, 0.65, //
            0.05, 0.55, 0.001, 0.35, 0.5,
        ];
        let n = 5;
        let (l, d) = priced(&w, n);
        assert!(d.iter().sum::<f64>().abs() < 1e-12);
        for i in 0..n {
            assert!((adjusted_row_mean(&l, n, &d, i) - 0.5).abs() < 1e-10, "row {i}: {d:?}");
        }
        // the strongest row pays the most, the weakest gets the largest rebate
        assert!(d[0] > 0.0 && d.iter().all(|&x| x <= d[0]));
    }

    #[test]
    fn prices_converge_on_many_tables_of_few_games() {
        // tables of 50 games a pair (shares in steps of 0.02, some 0 or 1)
        let mut state = 0x2545_F491_4F6C_DD1Du64;
        for n in 2..14 {
            for _ in 0..40 {
                let w = crate::metagame::random_table(n, &mut state, |s| (s % 51) as f64 / 50.0);
                let (l, d) = priced(&w, n);
                for i in 0..n {
                    assert!((adjusted_row_mean(&l, n, &d, i) - 0.5).abs() < 1e-10, "n {n} row {i}: {w:?}");
                }
            }
        }
    }
}
