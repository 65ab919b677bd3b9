//! The sampler: rolls every die as the rulebook says, many times over.
//!
//! Samples are cut into fixed chunks; chunk `i` has its own generator seeded from
//! `(seed, i)`, and chunk tallies are added in chunk order. So a seeded run gives the same
//! counts whatever the number of threads.

use super::allocation::{Allocation, State};
use super::plan::{die_model, DieModel, Group};
use super::{Attack, Variant};
use crate::error::Result;
use crate::morale::{self, MoraleTest};
use crate::stop::Stop;
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
        let face = d6(rng);
        if first_roll && dm.rolls_extra_die(face) {
            extra_dice += 1;
        }
        let (sixes, others) = dm.hits_from(face);
        for i in 0..sixes + others {
            let six = i < sixes;
            hits += 1;
            let mut block = d6(rng);
            if dm.rerolls(block, six) {
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

/// Which of an attack's variants this sample plays: a die for each side that rolls its
/// option ("on a 1-3 ..., and on a 4-6 ..."), the settled option for a side that picks.
pub fn roll_variant(variants: &[Variant], rng: &mut Xoshiro256PlusPlus) -> usize {
    if variants.len() == 1 {
        return 0;
    }
    let keys: Vec<[u8; 2]> = variants.iter().map(|v| [v.situation.attacker_option, v.situation.target_option]).collect();
    roll_options(&keys, rng)
}

/// Which of the option pairs `keys` (one per way of playing) is played: a die for each side
/// that has more than one option in `keys`, the one option otherwise.
pub fn roll_options(keys: &[[u8; 2]], rng: &mut Xoshiro256PlusPlus) -> usize {
    if keys.len() == 1 {
        return 0;
    }
    let distinct = |side: usize| {
        let mut v: Vec<u8> = keys.iter().map(|k| k[side]).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let pick = |options: Vec<u8>, rng: &mut Xoshiro256PlusPlus| {
        if options.len() == 1 {
            options[0]
        } else {
            options[usize::from(d6(rng) - 1) * options.len() / 6]
        }
    };
    let i = pick(distinct(0), rng);
    let j = pick(distinct(1), rng);
    keys.iter().position(|k| *k == [i, j]).unwrap_or(0)
}

fn run_chunk(attack: &Attack, seed: u64, chunk: u64, samples: u64) -> Counts {
    let (alloc, situation) = (&attack.allocation, &attack.situation);
    let before = attack.target_state;
    let mut rng = chunk_rng(seed, chunk);
    let mut counts = Counts::default();
    // Die models by (variant, group, state), found once per chunk.
    let mut models: Vec<Vec<Vec<Option<DieModel>>>> = attack.variants.iter().map(|v| vec![vec![None; alloc.state_count()]; v.groups.len()]).collect();
    let killed_before = alloc.kills(attack.start);
    // The morale test by end state, found once per chunk (the target's Shaken is the attack's).
    let mut tests: Vec<Option<MoraleTest>> = if situation.melee { Vec::new() } else { vec![None; alloc.state_count()] };
    let charged = attack.charged();
    for _ in 0..samples {
        let vi = roll_variant(&attack.variants, &mut rng);
        let variant = &attack.variants[vi];
        let (groups, models) = (&variant.groups, &mut models[vi]);
        // Firefight: a charge Knocks Out (or wounds) a Stunned target before any blow
        let start = alloc.roll(charged, || d6(&mut rng));
        let r = roll_attack(alloc, groups, start, &mut rng, |gi, s| {
            *models[gi][alloc.index(s)].get_or_insert_with(|| die_model(&groups[gi], &variant.situation, &alloc.view(s, groups[gi].takedown)))
        });
        counts.dice += r.dice;
        record(&mut counts.hits, r.hits);
        record(&mut counts.unblocked, r.unblocked);
        record(&mut counts.wounds, r.wounds);
        record(&mut counts.kills, alloc.kills(r.end) - killed_before);
        let mut shaken = before.shaken;
        if !situation.melee && morale::tests_after_shooting(alloc, attack.start, r.end, situation.edition) {
            counts.morale_tests += 1;
            let test = *tests[alloc.index(r.end)].get_or_insert_with(|| MoraleTest::new(alloc, r.end, before.shaken, situation.edition));
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

/// Runs `work(chunk index, samples in it)` over `samples` in chunks, on rayon's pool or the
/// kept pool of `threads`, and folds the parts into `total` in chunk order (so the result
/// does not depend on the threads). `stop` is polled before each chunk: gives false when it
/// was set and the run stopped early.
pub fn in_chunks<T: Send>(
    samples: u64,
    threads: Option<usize>,
    stop: &Stop,
    total: &mut T,
    work: impl Fn(u64, u64) -> T + Sync + Send,
    merge: impl Fn(&mut T, &T) + Send + Sync,
) -> Result<bool> {
    let chunks = samples.div_ceil(CHUNK);
    let size = |i: u64| if i + 1 == chunks { samples - i * CHUNK } else { CHUNK };
    let all = || {
        let mut start = 0;
        while start < chunks {
            let end = (start + BATCH).min(chunks);
            // each chunk looks at `stop` first, so a stop waits for one chunk, not a batch
            let parts: Vec<Option<T>> = (start..end).into_par_iter().map(|i| (!stop.is_set()).then(|| work(i, size(i)))).collect();
            if parts.iter().any(Option::is_none) {
                return false;
            }
            for part in parts.iter().flatten() {
                merge(total, part);
            }
            start = end;
        }
        true
    };
    crate::pool::install(threads, all)
}

/// Rolls the attack `samples` times on rayon's pool or the kept pool of `threads`; `None`
/// when `stop` was set before the end.
pub fn sample(attack: &Attack, samples: u64, seed: u64, threads: Option<usize>, stop: &Stop) -> Result<Option<Counts>> {
    let mut total = Counts::default();
    let done = in_chunks(samples, threads, stop, &mut total, |i, n| run_chunk(attack, seed, i, n), Counts::merge)?;
    Ok(done.then_some(total))
}
