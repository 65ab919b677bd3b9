//! A dense simplex for the metagame's linear programs: maximise `c·x` subject to `M x ≤ b`,
//! `x ≥ 0`, with `b ≥ 0`, so that `x = 0` is a feasible start and no first phase is needed.
//!
//! The tableau is Tucker's condensed one: a row per basic variable, a column per nonbasic
//! one, so a pivot costs rows × columns (half of the full tableau's). Variables are numbered
//! `0..cols` for `x` and `cols..cols + rows` for the slacks of the rows.
//!
//! Entering: the most negative reduced cost (Dantzig), or, after a run of degenerate pivots,
//! the smallest-numbered variable with a negative reduced cost and, among tied rows, the
//! smallest-numbered leaving variable (Bland). Bland's rule is kept until a pivot makes
//! progress, so the method cannot cycle: a cycle is made of degenerate pivots only, and
//! Bland's rule never cycles.
//!
//! The tableau stays usable after an optimum: [`Tableau::freeze_nonzero_reduced_costs`]
//! keeps the variables that must be zero at every optimum out of the basis, and
//! [`Tableau::set_objective`] then optimises another objective over the optimal face,
//! starting from the basis reached (what the equilibrium's maximal support needs).

use crate::stop::Stop;
use rayon::prelude::*;

/// Reduced costs above this are "positive" (the objective cannot gain from the variable).
const COST_TOLERANCE: f64 = 1e-11;
/// Pivot elements below this are treated as zero (the tableau's entries are of order 1).
const PIVOT_TOLERANCE: f64 = 1e-9;
/// A step no longer than this is a degenerate pivot.
const DEGENERATE_STEP: f64 = 1e-12;
/// Degenerate pivots in a row after which Bland's rule takes over.
const DEGENERATE_RUN: usize = 20;
/// Tableau cells above which a pivot's rows are updated in parallel.
const PARALLEL_CELLS: usize = 1 << 16;

#[derive(Debug, Clone, PartialEq)]
pub enum Failure {
    /// The objective grows without bound (never for the metagame's programs).
    Unbounded,
    /// More pivots than the limit (a numerical breakdown: the programs here need a few
    /// times their size).
    TooManyPivots,
    /// The caller asked to stop (Ctrl-C).
    Stopped,
}

pub struct Tableau {
    rows: usize,
    cols: usize,
    /// `(rows + 1) × (cols + 1)`, row-major; the last row is the objective (reduced costs,
    /// then the objective's value), the last column the right-hand side.
    cells: Vec<f64>,
    /// The variable of each row (basic) and of each column (nonbasic).
    row_var: Vec<usize>,
    col_var: Vec<usize>,
    /// Variables that may not enter the basis.
    frozen: Vec<bool>,
    /// `1 + Σ_r T[r][j]²` for every column (the constraint rows): the squared length of the
    /// edge each column would move along, kept up to date by the pivots.
    norms: Vec<f64>,
    pub pivots: usize,
}

impl Tableau {
    /// The program `max c·x, M x ≤ b, x ≥ 0` with `m` row-major (`b.len()` rows of
    /// `c.len()` columns), at its feasible start `x = 0`. `b` must be non-negative.
    pub fn new(c: &[f64], m: &[f64], b: &[f64]) -> Tableau {
        let (rows, cols) = (b.len(), c.len());
        debug_assert_eq!(m.len(), rows * cols);
        debug_assert!(b.iter().all(|&v| v >= 0.0));
        let width = cols + 1;
        let mut cells = vec![0.0; (rows + 1) * width];
        for r in 0..rows {
            cells[r * width..r * width + cols].copy_from_slice(&m[r * cols..(r + 1) * cols]);
            cells[r * width + cols] = b[r];
        }
        for j in 0..cols {
            cells[rows * width + j] = -c[j];
        }
        let mut tableau = Tableau {
            rows,
            cols,
            cells,
            row_var: (cols..cols + rows).collect(),
            col_var: (0..cols).collect(),
            frozen: vec![false; rows + cols],
            norms: vec![1.0; cols],
            pivots: 0,
        };
        tableau.norms = tableau.column_norms();
        tableau
    }

    fn width(&self) -> usize {
        self.cols + 1
    }

    fn at(&self, r: usize, j: usize) -> f64 {
        self.cells[r * self.width() + j]
    }

    /// Pivots until no nonbasic variable can raise the objective, at most `max_pivots`;
    /// `stop` is polled every few pivots.
    pub fn optimize(&mut self, max_pivots: usize, stop: &Stop) -> Result<(), Failure> {
        let mut degenerate_run = 0;
        loop {
            if self.pivots % 16 == 0 && stop.is_set() {
                return Err(Failure::Stopped);
            }
            let bland = degenerate_run >= DEGENERATE_RUN;
            let Some(pc) = self.entering(bland) else { return Ok(()) };
            let Some(pr) = self.leaving(pc, bland) else { return Err(Failure::Unbounded) };
            if self.pivots >= max_pivots {
                return Err(Failure::TooManyPivots);
            }
            let step = self.at(pr, self.cols).max(0.0) / self.at(pr, pc);
            degenerate_run = if step <= DEGENERATE_STEP { degenerate_run + 1 } else { 0 };
            self.pivot(pr, pc);
        }
    }

    /// The column to enter: the steepest edge (the largest gain per unit of distance moved
    /// in the space of all the variables), or (Bland) the column of the smallest-numbered
    /// variable; None at an optimum.
    fn entering(&self, bland: bool) -> Option<usize> {
        let width = self.width();
        let objective = &self.cells[self.rows * width..self.rows * width + self.cols];
        let open = |j: usize| objective[j] < -COST_TOLERANCE && !self.frozen[self.col_var[j]];
        if bland {
            return (0..self.cols).filter(|&j| open(j)).min_by_key(|&j| self.col_var[j]);
        }
        if !(0..self.cols).any(open) {
            return None;
        }
        let norms = &self.norms;
        (0..self.cols).filter(|&j| open(j)).max_by(|&a, &b| {
            let score = |j: usize| objective[j] * objective[j] / norms[j];
            score(a).total_cmp(&score(b))
        })
    }

    /// `1 + Σ_r T[r][j]²` for every column, from scratch.
    fn column_norms(&self) -> Vec<f64> {
        let width = self.width();
        let mut norms = vec![1.0; self.cols];
        for row in self.cells[..self.rows * width].chunks(width) {
            add_squares(&mut norms, &row[..self.cols]);
        }
        norms
    }

    /// The row to leave for column `pc`: the smallest ratio of right-hand side to pivot
    /// element; among ratios tied within rounding, the largest pivot element (stable), or
    /// under Bland's rule the smallest-numbered variable. None: the column is unbounded.
    fn leaving(&self, pc: usize, bland: bool) -> Option<usize> {
        let ratio = |r: usize| self.at(r, self.cols).max(0.0) / self.at(r, pc);
        let candidates = (0..self.rows).filter(|&r| self.at(r, pc) > PIVOT_TOLERANCE);
        let least = candidates.clone().map(ratio).fold(f64::INFINITY, f64::min);
        if !least.is_finite() {
            return None;
        }
        let tie = least + 1e-12 * (1.0 + least);
        candidates.filter(|&r| ratio(r) <= tie).reduce(|a, b| {
            let better = if bland { self.row_var[b] < self.row_var[a] } else { self.at(b, pc) > self.at(a, pc) };
            if better { b } else { a }
        })
    }

    /// Pivots on row `pr` and column `pc`, and measures the columns' new norms on the way
    /// (one pass over the tableau, which is what a pivot's time goes to).
    fn pivot(&mut self, pr: usize, pc: usize) {
        let (width, rows, cols) = (self.width(), self.rows, self.cols);
        let p = self.cells[pr * width + pc];
        let mut prow: Vec<f64> = self.cells[pr * width..(pr + 1) * width].iter().map(|v| v / p).collect();
        prow[pc] = 1.0 / p;
        let update = |r: usize, row: &mut [f64]| {
            if r == pr {
                row.copy_from_slice(&prow);
                return;
            }
            let f = row[pc];
            if f == 0.0 {
                return;
            }
            for (cell, &a) in row.iter_mut().zip(&prow) {
                *cell -= f * a;
            }
            row[pc] = -f / p;
        };
        let norms = if self.cells.len() >= PARALLEL_CELLS {
            self.cells
                .par_chunks_mut(width)
                .enumerate()
                .fold(|| vec![0.0; cols], |mut norms, (r, row)| {
                    update(r, row);
                    if r < rows {
                        add_squares(&mut norms, &row[..cols]);
                    }
                    norms
                })
                .reduce(|| vec![0.0; cols], |mut a, b| {
                    add_into(&mut a, &b);
                    a
                })
        } else {
            let mut norms = vec![0.0; cols];
            for (r, row) in self.cells.chunks_mut(width).enumerate() {
                update(r, row);
                if r < rows {
                    add_squares(&mut norms, &row[..cols]);
                }
            }
            norms
        };
        self.norms = norms.into_iter().map(|x| x + 1.0).collect();
        std::mem::swap(&mut self.row_var[pr], &mut self.col_var[pc]);
        self.pivots += 1;
    }

    /// Every variable's value at the present basis: `x` then the slacks.
    pub fn values(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.rows + self.cols];
        for r in 0..self.rows {
            out[self.row_var[r]] = self.at(r, self.cols).max(0.0);
        }
        out
    }

    pub fn objective(&self) -> f64 {
        self.at(self.rows, self.cols)
    }

    /// Keeps out of the basis, from now on, the nonbasic variables whose reduced cost is
    /// positive: at an optimum they are zero at every optimum (complementary slackness), so
    /// what is optimised next stays on the optimal face.
    pub fn freeze_nonzero_reduced_costs(&mut self, tolerance: f64) {
        for j in 0..self.cols {
            if self.at(self.rows, j) > tolerance {
                self.frozen[self.col_var[j]] = true;
            }
        }
    }

    /// Replaces the objective by `max c·v` over all variables (`x` then the slacks), priced
    /// at the present basis.
    pub fn set_objective(&mut self, c: &[f64]) {
        debug_assert_eq!(c.len(), self.rows + self.cols);
        let width = self.width();
        let mut objective = vec![0.0; width];
        for j in 0..self.cols {
            objective[j] = -c[self.col_var[j]];
        }
        for r in 0..self.rows {
            let cb = c[self.row_var[r]];
            if cb != 0.0 {
                for (o, &t) in objective.iter_mut().zip(&self.cells[r * width..(r + 1) * width]) {
                    *o += cb * t;
                }
            }
        }
        self.cells[self.rows * width..].copy_from_slice(&objective);
    }
}

fn add_squares(norms: &mut [f64], row: &[f64]) {
    for (n, v) in norms.iter_mut().zip(row) {
        *n += v * v;
    }
}

fn add_into(norms: &mut [f64], other: &[f64]) {
    for (n, v) in norms.iter_mut().zip(other) {
        *n += v;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solve(c: &[f64], m: &[f64], b: &[f64]) -> (Vec<f64>, f64) {
        let mut t = Tableau::new(c, m, b);
        t.optimize(10_000, &Stop::new()).unwrap();
        (t.values()[..c.len()].to_vec(), t.objective())
    }

    #[test]
    fn a_textbook_program() {
        // max 3x + 5y, x ≤ 4, 2y ≤ 12, 3x + 2y ≤ 18: (2, 6), 36
        let (x, z) = solve(&[3.0, 5.0], &[1.0, 0.0, 0.0, 2.0, 3.0, 2.0], &[4.0, 12.0, 18.0]);
        assert!((x[0] - 2.0).abs() < 1e-12 && (x[1] - 6.0).abs() < 1e-12 && (z - 36.0).abs() < 1e-12, "{x:?} {z}");
    }

    #[test]
    fn chvatals_cycling_example_ends() {
        // Chvátal's example (Linear Programming, ch. 3), which cycles under the largest
        // coefficient rule with the smallest-subscript tie-break: optimum 1 at (1, 0, 1, 0)
        let c = [10.0, -57.0, -9.0, -24.0];
        let m = [0.5, -5.5, -2.5, 9.0, 0.5, -1.5, -0.5, 1.0, 1.0, 0.0, 0.0, 0.0];
        let (x, z) = solve(&c, &m, &[0.0, 0.0, 1.0]);
        assert!((z - 1.0).abs() < 1e-12, "{z} {x:?}");
        assert!((x[0] - 1.0).abs() < 1e-12 && x[1].abs() < 1e-12 && (x[2] - 1.0).abs() < 1e-12 && x[3].abs() < 1e-12, "{x:?}");
    }

    #[test]
    fn an_unbounded_program_is_reported() {
        let mut t = Tableau::new(&[1.0, 1.0], &[1.0, -1.0], &[1.0]);
        assert_eq!(t.optimize(100, &Stop::new()), Err(Failure::Unbounded));
    }

    #[test]
    fn a_second_objective_is_optimised_over_the_optimal_face() {
        // max x + y, x + y ≤ 1: every point of the segment is optimal; then max y over it
        let mut t = Tableau::new(&[1.0, 1.0], &[1.0, 1.0, 1.0, 0.0], &[1.0, 0.9]);
        t.optimize(100, &Stop::new()).unwrap();
        t.freeze_nonzero_reduced_costs(1e-9);
        t.set_objective(&[0.0, 1.0, 0.0, 0.0]);
        t.optimize(100, &Stop::new()).unwrap();
        let v = t.values();
        assert!((v[0] + v[1] - 1.0).abs() < 1e-12 && (v[1] - 1.0).abs() < 1e-12, "{v:?}");
        // then max x over it, from there: the face keeps x + y = 1 (x ≤ 0.9 binds)
        t.set_objective(&[1.0, 0.0, 0.0, 0.0]);
        t.optimize(100, &Stop::new()).unwrap();
        let v = t.values();
        assert!((v[0] - 0.9).abs() < 1e-12 && (v[1] - 0.1).abs() < 1e-12, "{v:?}");
    }
}
