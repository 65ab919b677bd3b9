//! The sampler: rolls every die as the rulebook says, many times over.
//!
//! Samples are cut into fixed chunks; chunk `i` has its own generator seeded from
//! `(seed, i)`, and chunk histograms are added in chunk order. So a seeded run gives the
//! same counts whatever the number of threads.

use super::allocation::{Allocation, State};
use super::plan::{die_model, DieModel, Group, HitFace, Situation};
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;

/// Samples per chunk: the unit of work and of seeding.
pub const CHUNK: u64 = 4096;

/// Counts over samples of each stage's total.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    pub hits: Vec<u64>,
    pub unblocked: Vec<u64>,
    pub wounds: Vec<u64>,
    pub kills: Vec<u64>,
    pub samples: u64,
    /// Attack dice rolled (to-hit and Impact dice), for throughput figures.
    pub dice: u64,
}

impl Counts {
    fn record(v: &mut Vec<u64>, i: u32) {
        let i = i as usize;
        if v.len() <= i {
            v.resize(i + 1, 0);
        }
        v[i] += 1;
    }

    fn merge(&mut self, other: &Counts) {
        for (a, b) in [(&mut self.hits, &other.hits), (&mut self.unblocked, &other.unblocked), (&mut self.wounds, &other.wounds), (&mut self.kills, &other.kills)] {
            if a.len() < b.len() {
                a.resize(b.len(), 0);
            }
            for (x, y) in a.iter_mut().zip(b) {
                *x += y;
            }
        }
        self.samples += other.samples;
        self.dice += other.dice;
    }
}

/// SplitMix64: decorrelates the seeds of neighbouring chunks.
fn mix(seed: u64, chunk: u64) -> u64 {
    let mut z = seed ^ chunk.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

fn d6(rng: &mut Xoshiro256PlusPlus) -> u8 {
    rng.random_range(1..=6u8)
}

/// One weapon group rolled literally: returns (hits, unblocked, wounds kept).
fn roll_group(dm: &DieModel, dice: u32, rng: &mut Xoshiro256PlusPlus) -> (u32, u32, u32) {
    let (mut hits, mut unblocked, mut wounds) = (0u32, 0u32, 0u32);
    for _ in 0..dice {
        let face = dm.hit(d6(rng));
        if face == HitFace::Miss {
            continue;
        }
        let (sixes, others) = dm.hits_from(face);
        for i in 0..sixes + others {
            let six = i < sixes;
            hits += 1;
            let mut block = d6(rng);
            if block == 6 && dm.reroll_defense_six {
                block = d6(rng);
            }
            if dm.blocks(block, six) {
                continue;
            }
            unblocked += 1;
            for _ in 0..dm.wounds_of_unblocked(block, six) {
                if !dm.ignores_wound(d6(rng)) {
                    wounds += 1;
                }
            }
        }
    }
    (hits, unblocked, wounds)
}

fn run_chunk(alloc: &Allocation, groups: &[Group], situation: &Situation, seed: u64, chunk: u64, samples: u64) -> Counts {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(mix(seed, chunk));
    let mut counts = Counts::default();
    // Die models by (group, state), found once per chunk.
    let mut models: Vec<Vec<Option<DieModel>>> = vec![vec![None; alloc.state_count()]; groups.len()];
    for _ in 0..samples {
        let mut s: State = alloc.start();
        let (mut hits, mut unblocked, mut wounds) = (0, 0, 0);
        for (gi, g) in groups.iter().enumerate() {
            if alloc.destroyed(s) {
                break;
            }
            let dm = *models[gi][alloc.index(s)].get_or_insert_with(|| die_model(g, situation, &alloc.view(s, g.takedown)));
            let (h, u, w) = roll_group(&dm, g.dice, &mut rng);
            counts.dice += u64::from(g.dice);
            hits += h;
            unblocked += u;
            wounds += w * dm.deadly;
            s = alloc.wound(s, w, dm.deadly, g.takedown);
        }
        Counts::record(&mut counts.hits, hits);
        Counts::record(&mut counts.unblocked, unblocked);
        Counts::record(&mut counts.wounds, wounds);
        Counts::record(&mut counts.kills, alloc.kills(s));
        counts.samples += 1;
    }
    counts
}

/// Rolls the attack `samples` times. `threads`: `None` for rayon's pool, else a pool of that size.
pub fn sample(alloc: &Allocation, groups: &[Group], situation: &Situation, samples: u64, seed: u64, threads: Option<usize>) -> Counts {
    let chunks = samples.div_ceil(CHUNK);
    let size = |i: u64| if i + 1 == chunks { samples - i * CHUNK } else { CHUNK };
    let work = || -> Vec<Counts> { (0..chunks).into_par_iter().map(|i| run_chunk(alloc, groups, situation, seed, i, size(i))).collect() };
    let parts = match threads {
        Some(n) => match rayon::ThreadPoolBuilder::new().num_threads(n).build() {
            Ok(pool) => pool.install(work),
            Err(_) => work(),
        },
        None => work(),
    };
    let mut total = Counts::default();
    for part in &parts {
        total.merge(part);
    }
    total
}
