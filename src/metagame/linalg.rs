//! The little dense linear algebra the metagame needs: a QR factorisation with column
//! pivoting (the rank of the equilibrium's conditions, their null space, and their exact
//! solution when it is unique) and preconditioned conjugate gradients (Newton steps).

pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Householder QR with column pivoting (Businger and Golub) of an `m × q` matrix:
/// `A Π = Q R`. The factorisation stops at the first column whose remaining norm is at
/// most `tolerance`: that step is the rank.
pub struct PivotedQr {
    m: usize,
    /// Column-major `m × q`: R on and above the diagonal of the first `rank` columns.
    a: Vec<f64>,
    /// The Householder vectors (`v[i]` has `m - i` entries) and their factors `2 / v·v`.
    v: Vec<Vec<f64>>,
    beta: Vec<f64>,
    /// `perm[i]`: the column of `A` at position `i` of `A Π`.
    perm: Vec<usize>,
    pub rank: usize,
}

impl PivotedQr {
    /// `a` is column-major, `m` rows.
    pub fn new(mut a: Vec<f64>, m: usize, tolerance: f64) -> PivotedQr {
        let q = a.len().checked_div(m).unwrap_or(0);
        let mut perm: Vec<usize> = (0..q).collect();
        let (mut v, mut beta) = (Vec::new(), Vec::new());
        let mut rank = 0;
        for i in 0..m.min(q) {
            // the column with the largest norm below row i, computed afresh (stable)
            let norm = |j: usize, a: &[f64]| a[j * m + i..(j + 1) * m].iter().map(|x| x * x).sum::<f64>();
            let (best, best_norm) = (i..q).map(|j| (j, norm(j, &a))).fold((i, -1.0), |acc, (j, n)| if n > acc.1 { (j, n) } else { acc });
            if best_norm.sqrt() <= tolerance {
                break;
            }
            if best != i {
                for r in 0..m {
                    a.swap(i * m + r, best * m + r);
                }
                perm.swap(i, best);
            }
            let x = &a[i * m + i..(i + 1) * m];
            let length = best_norm.sqrt();
            let alpha = if x[0] > 0.0 { -length } else { length };
            let mut h = x.to_vec();
            h[0] -= alpha;
            let hh = dot(&h, &h);
            let b = if hh > 0.0 { 2.0 / hh } else { 0.0 };
            for j in i + 1..q {
                let column = &mut a[j * m + i..(j + 1) * m];
                let s = b * dot(&h, column);
                for (c, hv) in column.iter_mut().zip(&h) {
                    *c -= s * hv;
                }
            }
            a[i * m + i] = alpha;
            for r in i + 1..m {
                a[i * m + r] = 0.0;
            }
            v.push(h);
            beta.push(b);
            rank = i + 1;
        }
        PivotedQr { m, a, v, beta, perm, rank }
    }

    /// `x ← Q x` (the reflectors applied last to first).
    fn apply_q(&self, x: &mut [f64]) {
        for i in (0..self.rank).rev() {
            let tail = &mut x[i..];
            let s = self.beta[i] * dot(&self.v[i], tail);
            for (t, h) in tail.iter_mut().zip(&self.v[i]) {
                *t -= s * h;
            }
        }
    }

    /// An orthonormal basis of the vectors orthogonal to every column of `A` (`A`'s left
    /// null space, here the null space of the conditions whose rows are `A`'s columns):
    /// `m - rank` columns of `m` entries each, as rows of a row-major `m × (m - rank)` matrix.
    pub fn left_null_space(&self) -> (Vec<f64>, usize) {
        let (m, k) = (self.m, self.m - self.rank);
        let mut basis = vec![0.0; m * k];
        let mut e = vec![0.0; m];
        for c in 0..k {
            e.iter_mut().for_each(|x| *x = 0.0);
            e[self.rank + c] = 1.0;
            self.apply_q(&mut e);
            for r in 0..m {
                basis[r * k + c] = e[r];
            }
        }
        (basis, k)
    }

    /// The `x` with `Aᵀ x = b` when `A` has full row rank (`rank == m`): the conditions
    /// whose rows are `A`'s columns, of which the first `m` independent ones fix `x`.
    pub fn solve_transposed(&self, b: &[f64]) -> Option<Vec<f64>> {
        let m = self.m;
        if self.rank < m {
            return None;
        }
        // Aᵀ x = b  ⇔  Rᵀ (Qᵀ x) = Πᵀ b: forward substitution on the first m conditions
        let mut y = vec![0.0; m];
        for i in 0..m {
            let column = &self.a[i * m..i * m + i];
            y[i] = (b[self.perm[i]] - dot(column, &y[..i])) / self.a[i * m + i];
        }
        self.apply_q(&mut y);
        Some(y)
    }
}

/// Solves `H x = b` for a symmetric positive (semi)definite `H` given by its product
/// `apply(v, out)`, by conjugate gradients preconditioned by `diagonal` (Jacobi), to a
/// residual of `tolerance` times `|b|` or `max_iterations` steps. A semidefinite `H` with
/// `b` in its range is fine (the iterates stay in it).
pub fn conjugate_gradient(apply: impl Fn(&[f64], &mut [f64]), b: &[f64], diagonal: &[f64], tolerance: f64, max_iterations: usize) -> Vec<f64> {
    let n = b.len();
    let mut x = vec![0.0; n];
    let mut r = b.to_vec();
    let precondition = |r: &[f64]| -> Vec<f64> { r.iter().zip(diagonal).map(|(v, d)| if *d > 0.0 { v / d } else { *v }).collect() };
    let mut z = precondition(&r);
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    let stop = tolerance * dot(b, b).sqrt();
    let mut hp = vec![0.0; n];
    for _ in 0..max_iterations {
        if dot(&r, &r).sqrt() <= stop || rz <= 0.0 {
            break;
        }
        apply(&p, &mut hp);
        let php = dot(&p, &hp);
        if php <= 0.0 {
            break;
        }
        let alpha = rz / php;
        for i in 0..n {
            x[i] += alpha * p[i];
            r[i] -= alpha * hp[i];
        }
        z = precondition(&r);
        let rz_next = dot(&r, &z);
        let beta = rz_next / rz;
        rz = rz_next;
        for i in 0..n {
            p[i] = z[i] + beta * p[i];
        }
    }
    x
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Column-major from rows.
    fn columns(rows: &[&[f64]]) -> (Vec<f64>, usize) {
        let (m, q) = (rows.len(), rows[0].len());
        let mut a = vec![0.0; m * q];
        for (r, row) in rows.iter().enumerate() {
            for (c, &v) in row.iter().enumerate() {
                a[c * m + r] = v;
            }
        }
        (a, m)
    }

    #[test]
    fn rank_and_null_space_of_a_rank_two_matrix() {
        // three conditions on x ∈ R³ (the columns): x0 + x1 + x2 = 0, x0 - x1 = 0, and
        // their sum (dependent): the null space is (1, 1, -2)/√6
        let (a, m) = columns(&[&[1.0, 1.0, 2.0], &[1.0, -1.0, 0.0], &[1.0, 0.0, 1.0]]);
        let qr = PivotedQr::new(a, m, 1e-12);
        assert_eq!(qr.rank, 2);
        let (basis, k) = qr.left_null_space();
        assert_eq!(k, 1);
        let expected = [1.0, 1.0, -2.0].map(|v: f64| v / 6f64.sqrt());
        let sign = basis[0].signum();
        for r in 0..3 {
            assert!((basis[r] * sign - expected[r]).abs() < 1e-12, "{basis:?}");
        }
    }

    #[test]
    fn a_full_rank_system_is_solved() {
        // Aᵀ x = b with A's columns the conditions: x0 + 2 x1 = 5, 3 x0 - x1 = 1, and a
        // consistent third, x0 + x1 = 3: x = (1, 2)
        let (a, m) = columns(&[&[1.0, 3.0, 1.0], &[2.0, -1.0, 1.0]]);
        let qr = PivotedQr::new(a, m, 1e-12);
        assert_eq!(qr.rank, 2);
        let x = qr.solve_transposed(&[5.0, 1.0, 3.0]).unwrap();
        assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] - 2.0).abs() < 1e-12, "{x:?}");
    }

    #[test]
    fn conjugate_gradients_solve_a_laplacian_on_its_range() {
        // the path graph's Laplacian, b summing to zero: a solution up to a constant
        let h = [[1.0, -1.0, 0.0], [-1.0, 2.0, -1.0], [0.0, -1.0, 1.0]];
        let apply = |v: &[f64], out: &mut [f64]| {
            for i in 0..3 {
                out[i] = (0..3).map(|j| h[i][j] * v[j]).sum();
            }
        };
        let b = [1.0, 0.0, -1.0];
        let x = conjugate_gradient(apply, &b, &[1.0, 2.0, 1.0], 1e-14, 50);
        let mut hx = [0.0; 3];
        apply(&x, &mut hx);
        for i in 0..3 {
            assert!((hx[i] - b[i]).abs() < 1e-12, "{hx:?}");
        }
    }
}
