//! The melee sampler: every exchange rolled die by die, step by step, in chunks seeded from
//! `(seed, chunk)` so a seeded run gives the same tallies whatever the number of threads.

use super::exact::Outcome;
use super::{Melee, Phase, Plans, Winner};
use crate::attack::sample::{add_counts, chunk_rng, d6, end_frequencies, in_chunks, key_of, record, roll_attack, UnitStateKey};
use rustc_hash::FxHashMap;
use crate::attack::MAX_SAMPLES;
use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// Tallies over sampled exchanges.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub samples: u64,
    /// Attack and Impact dice rolled, for throughput figures.
    pub dice: u64,
    winner: [u64; 3],
    status: [[u64; 4]; 2],
    wounds: [Vec<u64>; 2],
    lost: [Vec<u64>; 2],
    /// Exchanges by (charger models left, defender models left).
    left: BTreeMap<(u32, u32), u64>,
    ends: [FxHashMap<UnitStateKey, u64>; 2],
}

impl Tally {
    fn merge(&mut self, o: &Tally) {
        self.samples += o.samples;
        self.dice += o.dice;
        for i in 0..3 {
            self.winner[i] += o.winner[i];
        }
        for side in 0..2 {
            for k in 0..4 {
                self.status[side][k] += o.status[side][k];
            }
            add_counts(&mut self.wounds[side], &o.wounds[side]);
            add_counts(&mut self.lost[side], &o.lost[side]);
            for (key, n) in &o.ends[side] {
                *self.ends[side].entry(*key).or_insert(0) += n;
            }
        }
        for (key, n) in &o.left {
            *self.left.entry(*key).or_insert(0) += n;
        }
    }

    /// Frequencies, in the exact engine's shape.
    pub fn outcome(&self, m: &Melee) -> Outcome {
        let n = self.samples as f64;
        let f = |v: &[u64]| v.iter().map(|&c| c as f64 / n).collect::<Vec<f64>>();
        let mut out = Outcome::new(m);
        out.winner = self.winner.map(|c| c as f64 / n);
        out.status = self.status.map(|s| s.map(|c| c as f64 / n));
        out.wounds = [f(&self.wounds[0]), f(&self.wounds[1])];
        out.lost = [f(&self.lost[0]), f(&self.lost[1])];
        for (&(cl, dl), c) in &self.left {
            out.left[cl as usize * (out.sizes[1] as usize + 1) + dl as usize] = *c as f64 / n;
        }
        out.ends = [0, 1].map(|side| end_frequencies(&self.ends[side], self.samples));
        out
    }
}

fn run_chunk(m: &Melee, seed: u64, chunk: u64, samples: u64) -> Tally {
    let mut rng = chunk_rng(seed, chunk);
    let mut plans = Plans::new(m);
    let mut t = Tally::default();
    let (alive_c0, alive_d0) = (m.charger.alive(m.charger_start), m.defender.alive(m.defender_start));
    for _ in 0..samples {
        let (mut c, mut d) = (m.charger_start, m.defender_start);
        let (mut by_charger, mut by_defender) = (0u32, 0u32);
        if m.strike_back {
            let g = plans.groups(Phase::Counter, d, c);
            let r = roll_attack(&m.charger, &g.groups, c, &mut rng, |gi, s| plans.die_model(Phase::Counter, g.templates[gi], s));
            c = r.end;
            by_defender += r.wounds;
            t.dice += r.dice;
        }
        if !m.charger.destroyed(c) {
            let g = plans.groups(Phase::Charge, c, d);
            let r = roll_attack(&m.defender, &g.groups, d, &mut rng, |gi, s| plans.die_model(Phase::Charge, g.templates[gi], s));
            d = r.end;
            by_charger += r.wounds;
            t.dice += r.dice;
        }
        if m.strike_back && !m.charger.destroyed(c) && !m.defender.destroyed(d) {
            let g = plans.groups(Phase::StrikeBack, d, c);
            let r = roll_attack(&m.charger, &g.groups, c, &mut rng, |gi, s| plans.die_model(Phase::StrikeBack, g.templates[gi], s));
            c = r.end;
            by_defender += r.wounds;
            t.dice += r.dice;
        }
        let fear = plans.fear_margin(c, d);
        let winner = m.winner(c, d, i64::from(by_charger) - i64::from(by_defender), fear);
        let failed = match m.loser_tests(c, d, winner) {
            Some((loser, s)) => !plans.morale_test(loser, s).roll(|| d6(&mut rng)),
            None => false,
        };
        t.samples += 1;
        t.winner[winner as usize] += 1;
        record(&mut t.wounds[0], by_charger);
        record(&mut t.wounds[1], by_defender);
        let (cl, dl) = (m.charger.alive(c), m.defender.alive(d));
        record(&mut t.lost[0], alive_c0 - cl);
        record(&mut t.lost[1], alive_d0 - dl);
        *t.left.entry((cl, dl)).or_insert(0) += 1;
        let statuses = m.statuses(c, d, winner, failed);
        for (side, (who, s)) in [(Winner::Charger, c), (Winner::Defender, d)].into_iter().enumerate() {
            t.status[side][statuses[side] as usize] += 1;
            if let Some(st) = m.end_state(who, s, statuses[side]) {
                *t.ends[side].entry(key_of(&st)).or_insert(0) += 1;
            }
        }
    }
    t
}

/// Rolls the melee `samples` times. `threads`: `None` for rayon's pool, else a pool of that size.
pub fn sample(m: &Melee, samples: u64, seed: u64, threads: Option<usize>) -> Result<Tally> {
    if samples == 0 || samples > MAX_SAMPLES {
        return Err(Error::invalid("samples", samples, format!("must be from 1 to {MAX_SAMPLES}")));
    }
    let mut total = Tally::default();
    in_chunks(samples, threads, &mut total, |i, n| run_chunk(m, seed, i, n), Tally::merge);
    Ok(total)
}
