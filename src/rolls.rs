//! The dice every sampler rolls: six-sided faces taken 24 at a time from one 64-bit draw.
//!
//! 6^24 < 2^64, so a draw below 3·6^24 (kept 77% of the time, redrawn otherwise) is 24
//! independent, exactly uniform base-6 digits: unbiased dice at about 18 per draw, where
//! `random_range(1..=6)` spends a draw on each die. Other draws (coin flips, positions) go
//! straight to the generator and leave the pending dice alone, so a seeded run is the same
//! whatever mix of draws it makes.

use rand::{SeedableRng, TryRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::convert::Infallible;

/// 6^24: the base-6 digits one accepted draw holds.
const DIGITS_RANGE: u64 = 4_738_381_338_321_616_896;
/// Draws at or above this are redrawn: the largest multiple of 6^24 that fits in 64 bits.
const ACCEPT_BELOW: u64 = 3 * DIGITS_RANGE;
/// Dice per accepted draw.
const PER_DRAW: u32 = 24;

/// A seeded generator that rolls d6s in batches (see the module doc).
#[derive(Debug, Clone)]
pub struct Dice {
    rng: Xoshiro256PlusPlus,
    /// The faces not rolled yet, as base-6 digits (lowest first).
    digits: u64,
    left: u32,
}

impl Dice {
    pub fn new(rng: Xoshiro256PlusPlus) -> Dice {
        Dice { rng, digits: 0, left: 0 }
    }

    pub fn seed_from_u64(seed: u64) -> Dice {
        Dice::new(Xoshiro256PlusPlus::seed_from_u64(seed))
    }

    /// One d6: 1 to 6.
    #[inline]
    pub fn d6(&mut self) -> u8 {
        if self.left == 0 {
            self.refill();
        }
        self.left -= 1;
        let face = (self.digits % 6) as u8 + 1;
        self.digits /= 6;
        face
    }

    #[cold]
    fn refill(&mut self) {
        loop {
            let x = rand::Rng::next_u64(&mut self.rng);
            // x = q·6^24 + r with q uniform in {0, 1, 2}: r's 24 base-6 digits are the dice
            if x < ACCEPT_BELOW {
                self.digits = x % DIGITS_RANGE;
                self.left = PER_DRAW;
                return;
            }
        }
    }
}

/// Any other draw goes to the generator itself.
impl TryRng for Dice {
    type Error = Infallible;

    #[inline]
    fn try_next_u32(&mut self) -> Result<u32, Infallible> {
        self.rng.try_next_u32()
    }

    #[inline]
    fn try_next_u64(&mut self) -> Result<u64, Infallible> {
        self.rng.try_next_u64()
    }

    #[inline]
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Infallible> {
        self.rng.try_fill_bytes(dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::distribution::{ChiSquared, ContinuousCDF};

    #[test]
    fn the_batch_constants_are_the_largest_that_fit() {
        assert_eq!(DIGITS_RANGE, 6u64.pow(24));
        assert!(6u128.pow(25) > u128::from(u64::MAX), "a 25th digit would not fit");
        assert!(u128::from(ACCEPT_BELOW) + u128::from(DIGITS_RANGE) > u128::from(u64::MAX), "no larger multiple of 6^24 fits");
    }

    /// Faces and ordered pairs of neighbouring faces (within a draw and across draws) are
    /// uniform: chi-squared at the 0.1% level, fixed seed.
    #[test]
    fn faces_and_neighbouring_pairs_are_uniform() {
        let mut dice = Dice::seed_from_u64(19);
        let n = 1_200_000usize;
        let rolls: Vec<u8> = (0..n).map(|_| dice.d6()).collect();
        assert!(rolls.iter().all(|f| (1..=6).contains(f)));
        let chi2 = |counts: &[u64], total: f64| {
            let e = total / counts.len() as f64;
            counts.iter().map(|&c| (c as f64 - e).powi(2) / e).sum::<f64>()
        };
        let mut faces = [0u64; 6];
        rolls.iter().for_each(|&f| faces[usize::from(f - 1)] += 1);
        let crit5 = ChiSquared::new(5.0).unwrap().inverse_cdf(0.999);
        assert!(chi2(&faces, n as f64) < crit5, "faces {faces:?}");
        let mut pairs = [0u64; 36];
        rolls.windows(2).for_each(|w| pairs[usize::from(w[0] - 1) * 6 + usize::from(w[1] - 1)] += 1);
        let crit35 = ChiSquared::new(35.0).unwrap().inverse_cdf(0.999);
        assert!(chi2(&pairs, (n - 1) as f64) < crit35, "pairs {pairs:?}");
        // the 24th die of a draw and the 1st of the next
        let mut across = [0u64; 36];
        rolls.chunks_exact(24).collect::<Vec<_>>().windows(2).for_each(|w| across[usize::from(w[0][23] - 1) * 6 + usize::from(w[1][0] - 1)] += 1);
        let total = across.iter().sum::<u64>() as f64;
        assert!(chi2(&across, total) < crit35, "across draws {across:?}");
    }

    #[test]
    fn other_draws_leave_the_pending_dice_alone() {
        let (mut a, mut b) = (Dice::seed_from_u64(3), Dice::seed_from_u64(3));
        let first: Vec<u8> = (0..5).map(|_| a.d6()).collect();
        assert_eq!(first, (0..5).map(|_| b.d6()).collect::<Vec<_>>());
        let _ = rand::Rng::next_u64(&mut b);
        assert_eq!((0..19).map(|_| a.d6()).collect::<Vec<_>>(), (0..19).map(|_| b.d6()).collect::<Vec<_>>());
    }
}
