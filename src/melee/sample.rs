//! The melee sampler: every exchange rolled die by die, step by step, in chunks seeded from
//! `(seed, chunk)` so a seeded run gives the same tallies whatever the number of threads.

use super::outcome::{Outcome, Tallies};
use super::{Melee, Phase, Plans, Winner};
use crate::attack::allocation::State;
use crate::attack::sample::{chunk_rng, in_chunks, roll_attack, roll_options};
use crate::rolls::Dice;
use crate::attack::check_samples;
use crate::error::Result;
use crate::stop::Stop;
use rustc_hash::FxHashMap;

/// Tallies over sampled exchanges: each exchange adds weight 1.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    pub samples: u64,
    /// Attack and Impact dice rolled, for throughput figures.
    pub dice: u64,
    tallies: Tallies,
}

impl Tally {
    fn merge(&mut self, o: &Tally) {
        self.samples += o.samples;
        self.dice += o.dice;
        self.tallies.merge(&o.tallies);
    }

    /// Frequencies, in the exact engine's shape.
    pub fn outcome(&self, m: &Melee) -> Outcome {
        self.tallies.outcome(m, 1.0 / self.samples as f64)
    }
}

/// One exchange as it was rolled: where each side ended, who won, whether the loser failed
/// its morale test, and the wounds each side caused (without Fear).
#[derive(Debug, Clone, Copy)]
pub struct Exchange {
    pub charger: State,
    pub defender: State,
    pub winner: Winner,
    pub failed: bool,
    pub by_charger: u32,
    pub by_defender: u32,
    /// Hits each side took (charger, defender), `None` where it was not attacked: whether
    /// its Defense was rolled at all.
    pub hits_taken: [Option<u32>; 2],
    pub dice: u64,
}

/// Rolls one exchange step by step: Counter strikes, the charge, the strike back, Fear,
/// resolution and the loser's morale test. The melee sampler and the game both roll this.
pub fn roll_exchange(m: &Melee, plans: &mut Plans, rng: &mut Dice) -> Exchange {
    let mut c = m.charger_start;
    let (mut by_charger, mut by_defender, mut dice) = (0u32, 0u32, 0u64);
    let mut hits_taken: [Option<u32>; 2] = [None, None];
    // Firefight: a Stunned defender is Knocked Out (or wounded) by the charge itself
    let mut d = m.defender.roll(m.charged(), || rng.d6());
    if m.strikes_back(d) {
        let g = plans.groups(Phase::Counter, d, c);
        let r = roll_attack(&m.charger, &g.groups, c, rng, |gi, s| plans.faces(Phase::Counter, g.templates[gi], s));
        c = r.end;
        by_defender += r.wounds;
        hits_taken[0] = Some(hits_taken[0].unwrap_or(0) + r.hits);
        dice += r.dice;
    }
    if !m.charger.destroyed(c) && !m.defender.destroyed(d) {
        let g = plans.groups(Phase::Charge, c, d);
        let r = roll_attack(&m.defender, &g.groups, d, rng, |gi, s| plans.faces(Phase::Charge, g.templates[gi], s));
        d = r.end;
        by_charger += r.wounds;
        hits_taken[1] = Some(r.hits);
        dice += r.dice;
    }
    if m.strikes_back(d) && !m.charger.destroyed(c) {
        let g = plans.groups(Phase::StrikeBack, d, c);
        let r = roll_attack(&m.charger, &g.groups, c, rng, |gi, s| plans.faces(Phase::StrikeBack, g.templates[gi], s));
        c = r.end;
        by_defender += r.wounds;
        hits_taken[0] = Some(hits_taken[0].unwrap_or(0) + r.hits);
        dice += r.dice;
    }
    let [fear_c, fear_d] = plans.fear(c, d);
    let fear = fear_c.roll(|| rng.d6()) - fear_d.roll(|| rng.d6());
    let winner = m.winner(c, d, i64::from(by_charger) - i64::from(by_defender), fear);
    let failed = match m.loser_tests(c, d, winner) {
        Some((loser, s)) => !plans.morale_test(loser, s).roll(|| rng.d6()),
        None => false,
    };
    Exchange { charger: c, defender: d, winner, failed, by_charger, by_defender, hits_taken, dice }
}

fn run_chunk(variants: &[(Melee, f64)], seed: u64, chunk: u64, samples: u64) -> Tally {
    let mut rng = chunk_rng(seed, chunk);
    let mut plans: Vec<Plans> = variants.iter().map(|(v, _)| Plans::new(v)).collect();
    let keys: Vec<[u8; 2]> = variants.iter().map(|(v, _)| v.options).collect();
    let mut t = Tally { tallies: Tallies::new(&variants[0].0), ..Tally::default() };
    // how each exchange ended, counted here and tallied once per distinct end (the weights
    // are whole numbers, so the sums are exact in any order)
    let mut ends: FxHashMap<(usize, State, State, Winner, bool), u32> = FxHashMap::default();
    for _ in 0..samples {
        let vi = roll_options(&keys, &mut rng);
        let x = roll_exchange(&variants[vi].0, &mut plans[vi], &mut rng);
        t.dice += x.dice;
        t.samples += 1;
        t.tallies.add_wounds(0, x.by_charger as usize, 1.0);
        t.tallies.add_wounds(1, x.by_defender as usize, 1.0);
        *ends.entry((vi, x.charger, x.defender, x.winner, x.failed)).or_insert(0) += 1;
    }
    for ((vi, c, d, winner, failed), n) in ends {
        let m = &variants[vi].0;
        t.tallies.add_casualties(m, c, d, f64::from(n));
        t.tallies.add(m, c, d, winner, failed, f64::from(n));
    }
    t
}

/// Rolls the melee `samples` times. `threads`: `None` for rayon's pool, else the kept pool
/// of that size.
pub fn sample(m: &Melee, samples: u64, seed: u64, threads: Option<usize>) -> Result<Tally> {
    sample_until(m, samples, seed, threads, &Stop::new()).map(|t| t.unwrap_or_default())
}

/// [`sample`], polling `stop` between chunks: `None` when it was set before the end.
pub fn sample_until(m: &Melee, samples: u64, seed: u64, threads: Option<usize>, stop: &Stop) -> Result<Option<Tally>> {
    check_samples(samples, m.hits_per_sample())?;
    // the sampler keeps die models per phase and target state
    crate::attack::budget::check_sampler_states("charger", m.charger.state_count() as u64, 3)?;
    crate::attack::budget::check_sampler_states("defender", m.defender.state_count() as u64, 3)?;
    crate::pool::check_threads(threads)?;
    let variants = m.variants();
    let mut total = Tally::default();
    let done = in_chunks(samples, threads, stop, &mut total, |i, n| run_chunk(&variants, seed, i, n), Tally::merge)?;
    Ok(done.then_some(total))
}
