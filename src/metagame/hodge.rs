//! Strength versus counter-play: the combinatorial Hodge decomposition of the table's logits
//! (Jiang, Lim, Yao and Ye 2011; Balduzzi et al. 2018, "Re-evaluating evaluation").
//!
//! The logit matrix `L[i, j] = ln(W / (1 - W))` is antisymmetric. Its transitive part is the
//! closest matrix of the form `r_i - r_j` (least squares over every pair): for a complete
//! table the ratings are the row means, `r_i = mean_j L[i, j]`. What is left, `L - (r_i -
//! r_j)`, is cyclic: every row of it sums to zero, as rock-paper-scissors does. The two
//! parts are orthogonal, so `|L|² = |transitive|² + |cyclic|²`, and the transitive share
//! `|transitive|² / |L|²` says how much of the table is one strength order.

/// The logits of a table, each win rate first kept within `[clip, 1 - clip]` (a 0 or a 1,
/// a matchup never won or never lost in the games played, would be an infinite logit).
/// Exactly antisymmetric: the upper triangle is computed and mirrored.
pub fn logits(w: &[f64], n: usize, clip: f64) -> Vec<f64> {
    let mut l = vec![0.0; n * n];
    for i in 0..n {
        for j in i + 1..n {
            let x = w[i * n + j].clamp(clip, 1.0 - clip);
            let value = x.ln() - (1.0 - x).ln();
            l[i * n + j] = value;
            l[j * n + i] = -value;
        }
    }
    l
}

pub struct Split {
    /// `r` (mean zero): strength in logits of winning, `r_i - r_j` the transitive part.
    pub ratings: Vec<f64>,
    /// `|transitive|² / |L|²`; NaN for a table of even matchups only (`L = 0`).
    pub transitive_share: f64,
}

pub fn split(l: &[f64], n: usize) -> Split {
    let ratings: Vec<f64> = (0..n).map(|i| l[i * n..(i + 1) * n].iter().sum::<f64>() / n as f64).collect();
    let total: f64 = l.iter().map(|x| x * x).sum();
    let transitive: f64 = (0..n).flat_map(|i| ratings.iter().map(move |rj| (i, rj))).map(|(i, rj)| (ratings[i] - rj).powi(2)).sum();
    let transitive_share = if total > 0.0 { (transitive / total).min(1.0) } else { f64::NAN };
    Split { ratings, transitive_share }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rock_paper_scissors_is_all_cycle() {
        let w = [0.5, 0.2, 0.8, 0.8, 0.5, 0.2, 0.2, 0.8, 0.5];
        let s = split(&logits(&w, 3, 0.01), 3);
        assert!(s.transitive_share.abs() < 1e-15, "{}", s.transitive_share);
        assert!(s.ratings.iter().all(|r| r.abs() < 1e-15));
    }

    #[test]
    fn a_table_from_ratings_is_all_strength_and_gives_them_back() {
        let r: [f64; 5] = [0.7, -0.2, 0.0, -1.1, 0.6];
        let n = r.len();
        let w: Vec<f64> = (0..n * n).map(|c| 1.0 / (1.0 + (r[c % n] - r[c / n]).exp())).collect();
        let s = split(&logits(&w, n, 1e-6), n);
        assert!((s.transitive_share - 1.0).abs() < 1e-12, "{}", s.transitive_share);
        let mean = r.iter().sum::<f64>() / n as f64;
        for (rating, r) in s.ratings.iter().zip(r) {
            assert!((rating - (r - mean)).abs() < 1e-12);
        }
    }

    #[test]
    fn the_parts_are_orthogonal() {
        // a mixed table: |L|² = |T|² + |C|², and the cyclic rows sum to zero
        let w = [0.5, 0.7, 0.35, 0.9, 0.3, 0.5, 0.55, 0.6, 0.65, 0.45, 0.5, 0.2, 0.1, 0.4, 0.8, 0.5];
        let n = 4;
        let l = logits(&w, n, 0.01);
        let s = split(&l, n);
        let cyclic: Vec<f64> = (0..n * n).map(|c| l[c] - (s.ratings[c / n] - s.ratings[c % n])).collect();
        let norm = |v: &[f64]| v.iter().map(|x| x * x).sum::<f64>();
        let transitive_part = s.transitive_share * norm(&l);
        assert!((norm(&l) - transitive_part - norm(&cyclic)).abs() < 1e-12);
        for i in 0..n {
            assert!(cyclic[i * n..(i + 1) * n].iter().sum::<f64>().abs() < 1e-12);
        }
        assert!(s.transitive_share > 0.0 && s.transitive_share < 1.0);
    }

    #[test]
    fn even_matchups_have_no_share() {
        assert!(split(&logits(&[0.5; 9], 3, 0.01), 3).transitive_share.is_nan());
    }

    #[test]
    fn certain_matchups_are_clipped() {
        let l = logits(&[0.5, 1.0, 0.0, 0.5], 2, 0.01);
        assert!((l[1] - (0.99f64 / 0.01).ln()).abs() < 1e-12 && l[2] == -l[1]);
    }
}
