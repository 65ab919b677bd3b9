//! The sampler: rolls every die as the rulebook says, many times over.
//!
//! Samples are cut into fixed chunks; chunk `i` has its own generator seeded from
//! `(seed, i)`, and chunk tallies are added in chunk order. So a seeded run gives the same
//! counts whatever the number of threads.

use super::allocation::{Allocation, State};
use super::plan::{die_model, DieModel, Group, Situation};
use super::{Attack, Variant};
use crate::error::Result;
use crate::morale::{self, MoraleTest};
use crate::stop::Stop;
use crate::state::UnitState;
use crate::rolls::Dice;
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
pub fn chunk_rng(seed: u64, chunk: u64) -> Dice {
    Dice::seed_from_u64(mix(seed, chunk))
}

/// A die model read once into lookups by face, for the sampler's inner loops.
#[derive(Debug, Clone, Copy)]
pub struct Faces {
    pub dm: DieModel,
    /// By to-hit face: hits that count as 6s, other hits, and whether it rolls one more die.
    hit: [(u32, u32, bool); 7],
    /// By Defense face, for hits from 6s (`[1]`) or not (`[0]`): `REROLL`, or the wounds
    /// the hit deals (0: blocked).
    block: [[u16; 7]; 2],
    /// The same after a re-roll (which is not re-rolled again).
    rerolled: [[u16; 7]; 2],
    /// By face: whether a wound is ignored; and whether any face ignores one.
    ignore: [[bool; 7]; 2],
    ignores_any: [bool; 2],
}

const REROLL: u16 = u16::MAX;

impl Faces {
    pub fn of(dm: &DieModel) -> Faces {
        let mut f = Faces { dm: *dm, hit: [(0, 0, false); 7], block: [[0; 7]; 2], rerolled: [[0; 7]; 2], ignore: [[false; 7]; 2], ignores_any: [false; 2] };
        for face in 1..=6u8 {
            let i = usize::from(face);
            let (sixes, others) = dm.hits_from(face);
            f.hit[i] = (sixes, others, dm.rolls_extra_die(face));
            for six in [false, true] {
                let s = usize::from(six);
                // at most 1 + Shred + Rupture wounds, each extra capped at 100 (plan.rs): a u16
                // below REROLL holds them
                let wounds = |face| {
                    let w = if dm.blocks(face, six) { 0 } else { dm.wounds_of_unblocked(face, six) };
                    debug_assert!(w < u32::from(REROLL), "wounds of one hit {w}");
                    w.min(u32::from(REROLL - 1)) as u16
                };
                f.block[s][i] = if dm.rerolls(face, six) { REROLL } else { wounds(face) };
                f.rerolled[s][i] = wounds(face);
                f.ignore[s][i] = dm.ignores_wound(face, six);
                f.ignores_any[s] |= f.ignore[s][i];
            }
        }
        f
    }

    /// The faces of `group`'s dice in `situation` against the target in state `s`.
    pub fn at(group: &Group, situation: &Situation, alloc: &Allocation, s: State) -> Faces {
        Faces::of(&die_model(group, situation, &alloc.view(s, group.takedown)))
    }
}

/// Faces by (group, target state index), found on first use: a dense table of 4-byte indices
/// into the distinct die models met. Most states share a model, and one read into lookups
/// by face is about 160 bytes, which a table of `Faces` per state would repeat.
#[derive(Debug, Clone, Default)]
pub struct FacesTable {
    slots: Vec<Vec<u32>>,
    distinct: Vec<Faces>,
    found: FxHashMap<DieModel, u32>,
}

impl FacesTable {
    const NONE: u32 = u32::MAX;

    /// The faces of `group` against state `state` (of `states`); `find` gives its die model
    /// the first time.
    pub fn get(&mut self, group: usize, state: usize, states: usize, find: impl FnOnce() -> DieModel) -> Faces {
        let i = self.index(group, state, states, find);
        self.distinct[i]
    }

    /// Which of the distinct die models met `group` has against state `state` (of
    /// `states`), for [`FacesTable::die_model`] and for keeping more by die model.
    pub fn index(&mut self, group: usize, state: usize, states: usize, find: impl FnOnce() -> DieModel) -> usize {
        if self.slots.len() <= group {
            self.slots.resize_with(group + 1, Vec::new);
        }
        let row = &mut self.slots[group];
        if row.is_empty() {
            row.resize(states, Self::NONE);
        }
        let i = row[state];
        if i != Self::NONE {
            return i as usize;
        }
        let dm = find();
        let distinct = &mut self.distinct;
        let i = *self.found.entry(dm).or_insert_with(|| {
            distinct.push(Faces::of(&dm));
            (distinct.len() - 1) as u32
        });
        row[state] = i;
        i as usize
    }

    /// The die model of [`FacesTable::index`]'s `i`.
    pub fn die_model(&self, i: usize) -> &DieModel {
        &self.distinct[i].dm
    }
}

/// One weapon group's dice: returns (hits, unblocked, wounds kept). As the rulebook rolls
/// them: all attack dice (then any extra dice they earn), then a Defense roll for each
/// hit, then a roll for each wound that may be ignored. Dice are independent, so grouping
/// a step's rolls (hits from 6s first) changes no probability.
fn roll_group(faces: &Faces, dice: u32, rng: &mut Dice) -> (u32, u32, u32) {
    let (mut six_hits, mut other_hits, mut extra_dice) = (0u32, 0u32, 0u32);
    for _ in 0..dice {
        let (s, o, extra) = faces.hit[usize::from(rng.d6())];
        six_hits += s;
        other_hits += o;
        extra_dice += u32::from(extra);
    }
    // v2 Relentless: each unmodified 6 rolls one more die, which rolls no more
    for _ in 0..extra_dice {
        let (s, o, _) = faces.hit[usize::from(rng.d6())];
        six_hits += s;
        other_hits += o;
    }
    let (mut unblocked, mut wounds) = (0u32, 0u32);
    for (six, hits) in [(1usize, six_hits), (0, other_hits)] {
        let mut dealt = 0u32;
        for _ in 0..hits {
            let mut w = faces.block[six][usize::from(rng.d6())];
            if w == REROLL {
                w = faces.rerolled[six][usize::from(rng.d6())];
            }
            unblocked += u32::from(w > 0);
            dealt += u32::from(w);
        }
        wounds += if faces.ignores_any[six] { (0..dealt).filter(|_| !faces.ignore[six][usize::from(rng.d6())]).count() as u32 } else { dealt };
    }
    (six_hits + other_hits, unblocked, wounds)
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
/// destroyed. `faces_of(group, state)` judges the dice (callers cache it: see `Faces`).
pub fn roll_attack(
    alloc: &Allocation,
    groups: &[Group],
    start: State,
    rng: &mut Dice,
    mut faces_of: impl FnMut(usize, State) -> Faces,
) -> Rolled {
    let mut r = Rolled { end: start, hits: 0, unblocked: 0, wounds: 0, dice: 0 };
    for (gi, g) in groups.iter().enumerate() {
        if alloc.destroyed(r.end) {
            break;
        }
        if g.dice == 0 {
            continue;
        }
        let faces = faces_of(gi, r.end);
        let dm = &faces.dm;
        let (h, u, w) = roll_group(&faces, g.dice, rng);
        r.dice += u64::from(g.dice);
        r.hits += h;
        r.unblocked += u;
        r.wounds += w * dm.deadly;
        r.end = alloc.roll(alloc.land(r.end, w, dm, g.takedown), || rng.d6());
    }
    r
}

/// Which of an attack's variants this sample plays: a die for each side that rolls its
/// option ("on a 1-3 ..., and on a 4-6 ..."), the settled option for a side that picks.
pub fn roll_variant(variants: &[Variant], rng: &mut Dice) -> usize {
    if variants.len() == 1 {
        return 0;
    }
    let keys: Vec<[u8; 2]> = variants.iter().map(|v| [v.situation.attacker_option, v.situation.target_option]).collect();
    roll_options(&keys, rng)
}

/// Which of the option pairs `keys` (one per way of playing) is played: a die for each side
/// that has more than one option in `keys`, the one option otherwise.
pub fn roll_options(keys: &[[u8; 2]], rng: &mut Dice) -> usize {
    if keys.len() == 1 {
        return 0;
    }
    let distinct = |side: usize| {
        let mut v: Vec<u8> = keys.iter().map(|k| k[side]).collect();
        v.sort_unstable();
        v.dedup();
        v
    };
    let pick = |options: Vec<u8>, rng: &mut Dice| {
        if options.len() == 1 {
            options[0]
        } else {
            options[usize::from(rng.d6() - 1) * options.len() / 6]
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
    let mut models: Vec<FacesTable> = vec![FacesTable::default(); attack.variants.len()];
    let states = alloc.state_count();
    let killed_before = alloc.kills(attack.start);
    // The morale test by end state, found once per chunk (the target's Shaken is the attack's).
    let mut tests: Vec<Option<MoraleTest>> = if situation.melee { Vec::new() } else { vec![None; alloc.state_count()] };
    let charged = attack.charged();
    for _ in 0..samples {
        let vi = roll_variant(&attack.variants, &mut rng);
        let variant = &attack.variants[vi];
        let (groups, models) = (&variant.groups, &mut models[vi]);
        // Firefight: a charge Knocks Out (or wounds) a Stunned target before any blow
        let start = alloc.roll(charged, || rng.d6());
        let r = roll_attack(alloc, groups, start, &mut rng, |gi, s| {
            models.get(gi, alloc.index(s), states, || die_model(&groups[gi], &variant.situation, &alloc.view(s, groups[gi].takedown)))
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
            if !test.roll(|| rng.d6()) {
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
