//! The sampler: rolls every die as the rulebook says, many times over.
//!
//! Samples are cut into fixed chunks; chunk `i` has its own generator seeded from
//! `(seed, i)`, and chunk tallies are added in chunk order. So a seeded run gives the same
//! counts whatever the number of threads.

use super::allocation::{Allocation, State};
use super::plan::{die_model, DieModel, Group, HitFace};
use super::Attack;
use crate::morale::{self, MoraleTest};
use crate::state::UnitState;
use rand::{RngExt, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use rayon::prelude::*;
use rustc_hash::FxHashMap;

/// Samples per chunk: the unit of work and of seeding.
pub const CHUNK: u64 = 4096;

/// Tallies over samples.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    pub hits: Vec<u64>,
    pub unblocked: Vec<u64>,
    pub wounds: Vec<u64>,
    /// Models this attack removed.
    pub kills: Vec<u64>,
    /// Samples in which the target took a morale test.
    pub morale_tests: u64,
    /// The target's state afterwards (destroyed: left out).
    pub ends: FxHashMap<UnitState, u64>,
    pub samples: u64,
    /// Attack dice rolled (to-hit and Impact dice), for throughput figures.
    pub dice: u64,
}

/// Tallied end states as frequencies, in state order.
pub fn end_frequencies(ends: &FxHashMap<UnitState, u64>, samples: u64) -> Vec<(UnitState, f64)> {
    let mut out: Vec<(UnitState, f64)> = ends.iter().map(|(k, c)| (*k, *c as f64 / samples as f64)).collect();
    out.sort_unstable_by_key(|(k, _)| *k);
    out
}

/// Adds one to `v[i]`, growing it as needed.
pub fn record(v: &mut Vec<u64>, i: u32) {
    let i = i as usize;
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] += 1;
}

/// `a += b`, elementwise, growing `a` as needed.
pub fn add_counts(a: &mut Vec<u64>, b: &[u64]) {
    if a.len() < b.len() {
        a.resize(b.len(), 0);
    }
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

impl Counts {
    fn merge(&mut self, other: &Counts) {
        for (a, b) in [(&mut self.hits, &other.hits), (&mut self.unblocked, &other.unblocked), (&mut self.wounds, &other.wounds), (&mut self.kills, &other.kills)] {
            add_counts(a, b);
        }
        for (k, n) in &other.ends {
            *self.ends.entry(*k).or_insert(0) += n;
        }
        self.morale_tests += other.morale_tests;
        self.samples += other.samples;
        self.dice += other.dice;
    }
}

/// SplitMix64: decorrelates the seeds of neighbouring chunks.
pub fn mix(seed: u64, chunk: u64) -> u64 {
    let mut z = seed ^ chunk.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The generator of chunk `chunk` of a run seeded with `seed`.
pub fn chunk_rng(seed: u64, chunk: u64) -> Xoshiro256PlusPlus {
    Xoshiro256PlusPlus::seed_from_u64(mix(seed, chunk))
}

pub fn d6(rng: &mut Xoshiro256PlusPlus) -> u8 {
    rng.random_range(1..=6u8)
}

/// One weapon group rolled literally: returns (hits, unblocked, wounds kept).
fn roll_group(dm: &DieModel, dice: u32, rng: &mut Xoshiro256PlusPlus) -> (u32, u32, u32) {
    let (mut hits, mut unblocked, mut wounds) = (0u32, 0u32, 0u32);
    // v2 Relentless: each unmodified 6 rolls one more die, which rolls no more
    let mut extra_dice = 0u32;
    let mut rolled = 0u32;
    while rolled < dice + extra_dice {
        let first_roll = rolled < dice;
        rolled += 1;
        let face = dm.hit(d6(rng));
        if face == HitFace::Six && dm.extra_die_on_six && first_roll {
            extra_dice += 1;
        }
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
                if !dm.ignores_wound(d6(rng), six) {
                    wounds += 1;
                }
            }
        }
    }
    (hits, unblocked, wounds)
}

/// What one rolled attack did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rolled {
    pub end: State,
    pub hits: u32,
    pub unblocked: u32,
    /// Wounds dealt (Deadly counted X times).
    pub wounds: u32,
    pub dice: u64,
}

/// Rolls the groups of one attack in order from `start`, stopping once the target is
/// destroyed. `die_model_of(group, state)` judges the dice.
pub fn roll_attack(
    alloc: &Allocation,
    groups: &[Group],
    start: State,
    rng: &mut Xoshiro256PlusPlus,
    mut die_model_of: impl FnMut(usize, State) -> DieModel,
) -> Rolled {
    let mut r = Rolled { end: start, hits: 0, unblocked: 0, wounds: 0, dice: 0 };
    for (gi, g) in groups.iter().enumerate() {
        if alloc.destroyed(r.end) {
            break;
        }
        if g.dice == 0 {
            continue;
        }
        let dm = die_model_of(gi, r.end);
        let (h, u, w) = roll_group(&dm, g.dice, rng);
        r.dice += u64::from(g.dice);
        r.hits += h;
        r.unblocked += u;
        r.wounds += w * dm.deadly;
        r.end = alloc.roll(alloc.land(r.end, w, &dm, g.takedown), || d6(rng));
    }
    r
}

fn run_chunk(attack: &Attack, seed: u64, chunk: u64, samples: u64) -> Counts {
    let (alloc, groups, situation) = (&attack.allocation, &attack.groups, &attack.situation);
    let before = attack.target_state;
    let mut rng = chunk_rng(seed, chunk);
    let mut counts = Counts::default();
    // Die models by (group, state), found once per chunk.
    let mut models: Vec<Vec<Option<DieModel>>> = vec![vec![None; alloc.state_count()]; groups.len()];
    let killed_before = alloc.kills(attack.start);
    for _ in 0..samples {
        let r = roll_attack(alloc, groups, attack.start, &mut rng, |gi, s| {
            *models[gi][alloc.index(s)].get_or_insert_with(|| die_model(&groups[gi], situation, &alloc.view(s, groups[gi].takedown)))
        });
        counts.dice += r.dice;
        record(&mut counts.hits, r.hits);
        record(&mut counts.unblocked, r.unblocked);
        record(&mut counts.wounds, r.wounds);
        record(&mut counts.kills, alloc.kills(r.end) - killed_before);
        let mut shaken = before.shaken;
        if !situation.melee && morale::tests_after_shooting(alloc, attack.start, r.end, situation.edition) {
            counts.morale_tests += 1;
            let test = MoraleTest::new(alloc, r.end, before.shaken, situation.edition);
            if !test.roll(|| d6(&mut rng)) {
                shaken = true;
            }
        }
        if let Some(st) = alloc.unit_state(r.end, shaken, before.fatigued) {
            *counts.ends.entry(st).or_insert(0) += 1;
        }
        counts.samples += 1;
    }
    counts
}

/// Chunks run at once between merges: bounds the memory tallies take, whatever `samples`.
const BATCH: u64 = 64;

/// Runs `work(chunk index, samples in it)` over `samples` in chunks, on rayon's pool or a pool
/// of `threads`, and folds the parts into `total` in chunk order (so the result does not
/// depend on the threads).
pub fn in_chunks<T: Send>(samples: u64, threads: Option<usize>, total: &mut T, work: impl Fn(u64, u64) -> T + Sync + Send, merge: impl Fn(&mut T, &T) + Send + Sync) {
    let chunks = samples.div_ceil(CHUNK);
    let size = |i: u64| if i + 1 == chunks { samples - i * CHUNK } else { CHUNK };
    let mut all = || {
        let mut start = 0;
        while start < chunks {
            let end = (start + BATCH).min(chunks);
            let parts: Vec<T> = (start..end).into_par_iter().map(|i| work(i, size(i))).collect();
            for part in &parts {
                merge(total, part);
            }
            start = end;
        }
    };
    match threads.map(|n| rayon::ThreadPoolBuilder::new().num_threads(n).build()) {
        Some(Ok(pool)) => pool.install(all),
        _ => all(),
    }
}

/// Rolls the attack `samples` times. `threads`: `None` for rayon's pool, else a pool of that size.
pub fn sample(attack: &Attack, samples: u64, seed: u64, threads: Option<usize>) -> Counts {
    let mut total = Counts::default();
    in_chunks(samples, threads, &mut total, |i, n| run_chunk(attack, seed, i, n), Counts::merge);
    total
}
