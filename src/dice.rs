//! Probability mass functions over counts, and the few operations the exact engine needs:
//! sums of independent counts (convolution), sums of n identical ones (powers), binomials.
//! A pmf is a `Vec<f64>` indexed by count.

/// The pmf of a sum of two independent counts.
pub fn convolve(a: &[f64], b: &[f64]) -> Vec<f64> {
    if a.is_empty() || b.is_empty() {
        return vec![1.0];
    }
    let mut out = vec![0.0; a.len() + b.len() - 1];
    for (i, &pa) in a.iter().enumerate() {
        if pa == 0.0 {
            continue;
        }
        for (j, &pb) in b.iter().enumerate() {
            out[i + j] += pa * pb;
        }
    }
    trim(out)
}

/// The pmf of the sum of `n` independent copies of a count with pmf `one`.
pub fn power(one: &[f64], n: u32) -> Vec<f64> {
    let one = trim(one.to_vec());
    if n == 0 || one.len() == 1 {
        return vec![1.0]; // a sum of nothing, or of counts that are always 0
    }
    if one.len() == 2 {
        return binomial(n, one[1] / (one[0] + one[1]));
    }
    let mut result = vec![1.0];
    let mut base = one;
    let mut k = n;
    while k > 0 {
        if k & 1 == 1 {
            result = convolve(&result, &base);
        }
        k >>= 1;
        if k > 0 {
            base = convolve(&base, &base);
        }
    }
    result
}

/// Binomial(n, p) pmf, computed by the stable recurrence from the mode outwards.
pub fn binomial(n: u32, p: f64) -> Vec<f64> {
    let n_us = n as usize;
    if p <= 0.0 {
        let mut v = vec![0.0; n_us + 1];
        v[0] = 1.0;
        return trim(v);
    }
    if p >= 1.0 {
        let mut v = vec![0.0; n_us + 1];
        v[n_us] = 1.0;
        return v;
    }
    let q = 1.0 - p;
    // 1 at the mode, ratios both ways, then normalised: the largest term is exact, so the
    // tails only underflow where they are below 1e-308 of the mode (accurate to ~1e-15 for n
    // up to thousands)
    let mode = (((n as f64) + 1.0) * p).floor().min(n as f64) as usize;
    let mut v = vec![0.0; n_us + 1];
    v[mode] = 1.0;
    for k in (mode + 1)..=n_us {
        v[k] = v[k - 1] * ((n_us - k + 1) as f64 / k as f64) * (p / q);
    }
    for k in (0..mode).rev() {
        v[k] = v[k + 1] * ((k + 1) as f64 / (n_us - k) as f64) * (q / p);
    }
    let total: f64 = v.iter().sum();
    v.iter_mut().for_each(|x| *x /= total);
    trim(v)
}

/// Drops trailing zeros (keeps at least one entry).
pub fn trim(mut v: Vec<f64>) -> Vec<f64> {
    while v.len() > 1 && *v.last().unwrap() == 0.0 {
        v.pop();
    }
    if v.is_empty() {
        v.push(1.0);
    }
    v
}

/// Adds `p` at index `i`, growing the pmf as needed.
pub fn add_at(v: &mut Vec<f64>, i: usize, p: f64) {
    if v.len() <= i {
        v.resize(i + 1, 0.0);
    }
    v[i] += p;
}

/// The mean of a distribution over 0, 1, 2, ...
pub fn mean(pmf: &[f64]) -> f64 {
    pmf.iter().enumerate().map(|(k, p)| k as f64 * p).sum()
}

/// Adds `w` times the distribution `v` into `acc` (a mixture's term), growing it as needed.
pub fn add_scaled(acc: &mut Vec<f64>, v: &[f64], w: f64) {
    if acc.len() < v.len() {
        acc.resize(v.len(), 0.0);
    }
    for (a, x) in acc.iter_mut().zip(v) {
        *a += w * x;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binomial_matches_the_definition() {
        let v = binomial(5, 0.5);
        let expect = [1.0, 5.0, 10.0, 10.0, 5.0, 1.0].map(|c| c / 32.0);
        for (a, b) in v.iter().zip(expect) {
            assert!((a - b).abs() < 1e-15);
        }
        let big = binomial(400, 0.25);
        assert!((big.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let mean: f64 = big.iter().enumerate().map(|(k, p)| k as f64 * p).sum();
        assert!((mean - 100.0).abs() < 1e-9);
    }

    #[test]
    fn power_is_repeated_convolution() {
        let die = [0.2, 0.3, 0.5];
        let mut direct = vec![1.0];
        for _ in 0..7 {
            direct = convolve(&direct, &die);
        }
        let fast = power(&die, 7);
        assert_eq!(direct.len(), fast.len());
        for (a, b) in direct.iter().zip(&fast) {
            assert!((a - b).abs() < 1e-15);
        }
    }
}
