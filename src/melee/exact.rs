//! The exact melee: the joint distribution of both units' states, carried step by step.
//!
//! After each step, every pair (charger state, defender state) holds the distribution of the
//! wound margin so far (wounds caused by the charger less those caused by the defender) and,
//! until the strike back, of the defender's wounds (those are read summed over the end
//! states, so the last step sums them instead of carrying them on). The charger's wounds are
//! all dealt in one step, so their distribution is read there. Each step's attack comes from
//! `attack::exact::Transitions`, started from the state its attacker and target are in, so
//! the strike back depends on which models survived exactly, not on averages. (The pairs'
//! pmfs and the transitions' are kept in two pools: one shared pool measured 4% slower.)

use super::outcome::{Outcome, Tallies};
use super::{Melee, Phase, Plans, Winner};
use crate::attack::allocation::State;
use crate::attack::exact::{Transitions, WoundCache};

/// A pmf over integers from `lo`.
#[derive(Debug, Clone, Default)]
struct Signed {
    lo: i64,
    p: Vec<f64>,
}

impl Signed {
    /// Grows the pmf (with zeros) to hold the values `lo` to `lo + len - 1`.
    fn cover(&mut self, lo: i64, len: usize) {
        if self.p.is_empty() {
            self.lo = lo;
        }
        if lo < self.lo {
            let grow = (self.lo - lo) as usize;
            self.p.splice(0..0, std::iter::repeat_n(0.0, grow));
            self.lo = lo;
        }
        let end = (lo - self.lo) as usize + len;
        if self.p.len() < end {
            self.p.resize(end, 0.0);
        }
    }

    /// `self[lo + i] += scale × q[i]` (covered already).
    fn add_at(&mut self, lo: i64, q: &[f64], scale: f64) {
        let at = (lo - self.lo) as usize;
        for (slot, v) in self.p[at..at + q.len()].iter_mut().zip(q) {
            *slot += v * scale;
        }
    }

    /// `self += scale × (other shifted by `shift`)`.
    fn add(&mut self, other: &Signed, shift: i64, scale: f64) {
        if other.p.is_empty() {
            return;
        }
        self.cover(other.lo + shift, other.p.len());
        self.add_at(other.lo + shift, &other.p, scale);
    }

    /// `self += (other + sign × X) × scale`, where X has pmf `x` over `x_lo`, `x_lo + 1`,
    /// ...: grown once to the whole span, then added term by term.
    fn add_convolved(&mut self, other: &Signed, x_lo: usize, x: &[f64], sign: i64, scale: f64) {
        let (Some(first), Some(last)) = (x.iter().position(|&q| q > 0.0), x.iter().rposition(|&q| q > 0.0)) else {
            return;
        };
        if other.p.is_empty() {
            return;
        }
        let (a, b) = (sign * (x_lo + first) as i64, sign * (x_lo + last) as i64);
        self.cover(other.lo + a.min(b), other.p.len() + (a - b).unsigned_abs() as usize);
        for (k, &q) in x.iter().enumerate().take(last + 1).skip(first) {
            if q > 0.0 {
                self.add_at(other.lo + sign * (x_lo + k) as i64, &other.p, q * scale);
            }
        }
    }

    /// The pmf of `self + sign × X` where X has pmf `x` over 0, 1, ...
    fn convolve(&self, x: &[f64], sign: i64) -> Signed {
        let mut out = Signed::default();
        out.add_convolved(self, 0, x, sign, 1.0);
        out
    }
}

/// The running distribution for one pair of states.
#[derive(Debug, Clone, Default)]
struct Pair {
    c: State,
    d: State,
    /// Wounds by the charger less wounds by the defender.
    margin: Signed,
    /// Wounds by the defender (empty after the strike back: see step 3).
    by_defender: Signed,
}

/// Pairs of states met so far, found by a dense index of (charger state, defender state).
struct Pairs<'m> {
    m: &'m Melee,
    /// The defender's number of states: the stride of the index.
    stride: usize,
    slot: Vec<u32>,
    list: Vec<Pair>,
}

impl<'m> Pairs<'m> {
    /// Values a pair's pmfs usually span (wound margins of a charge): capacity, not a limit.
    const ROOM: usize = 32;

    fn new(m: &'m Melee) -> Pairs<'m> {
        let stride = m.defender.state_count();
        Pairs { m, stride, slot: vec![u32::MAX; m.charger.state_count() * stride], list: Vec::new() }
    }

    /// Adds `margin` to the pair of `c` and `d`'s margin: moved in if the pair is new (the
    /// same pmf as adding it to zeros).
    fn add_moved(&mut self, c: State, d: State, margin: Signed, scratch: &mut Scratch) {
        let at = self.m.charger.index(c) * self.stride + self.m.defender.index(d);
        if self.slot[at] == u32::MAX {
            self.slot[at] = self.list.len() as u32;
            self.list.push(Pair { c, d, margin, by_defender: Signed::default() });
        } else {
            self.list[self.slot[at] as usize].margin.add(&margin, 0, 1.0);
            scratch.give_back(margin.p);
        }
    }

    /// The pair of `c` and `d`, new if not met yet (`with_wounds`: with room for the
    /// defender's wounds too; the last step sums those without keeping them by pair).
    fn entry(&mut self, c: State, d: State, with_wounds: bool, scratch: &mut Scratch) -> &mut Pair {
        let at = self.m.charger.index(c) * self.stride + self.m.defender.index(d);
        if self.slot[at] == u32::MAX {
            self.slot[at] = self.list.len() as u32;
            let by_defender = if with_wounds { scratch.take() } else { Vec::new() };
            self.list.push(Pair { c, d, margin: Signed { lo: 0, p: scratch.take() }, by_defender: Signed { lo: 0, p: by_defender } });
        }
        &mut self.list[self.slot[at] as usize]
    }
}

/// Buffers the exact melee fills and empties, kept by each thread from one melee to the
/// next (each melee made several hundred allocations otherwise).
#[derive(Default)]
struct Scratch {
    transitions: Transitions,
    /// Emptied pmfs, for new pairs.
    spare: Vec<Vec<f64>>,
}

impl Scratch {
    /// Pmfs kept for the next melee, and the longest kept: 8 MB at most.
    const KEEP: usize = 4096;
    const KEEP_LEN: usize = 256;

    fn with_thread<T>(f: impl FnOnce(&mut Scratch) -> T) -> T {
        thread_local! {
            static SCRATCH: std::cell::RefCell<Scratch> = std::cell::RefCell::default();
        }
        SCRATCH.with(|cell| match cell.try_borrow_mut() {
            Ok(mut scratch) => f(&mut scratch),
            // re-entered on this thread (not expected): buffers of its own
            Err(_) => f(&mut Scratch::default()),
        })
    }

    /// An empty pmf, with room for the usual spread of wounds (no regrowth as terms are added).
    fn take(&mut self) -> Vec<f64> {
        self.spare.pop().unwrap_or_else(|| Vec::with_capacity(Pairs::ROOM))
    }

    fn give_back(&mut self, mut pmf: Vec<f64>) {
        if self.spare.len() < Self::KEEP && pmf.capacity() <= Self::KEEP_LEN && pmf.capacity() > 0 {
            pmf.clear();
            self.spare.push(pmf);
        }
    }
}

/// The exact outcome of the melee: for units with options, the mixture of the ways it is played.
pub fn exact(m: &Melee) -> Outcome {
    let variants = m.variants();
    if variants.len() == 1 {
        return exact_one(&variants[0].0);
    }
    Outcome::mix(variants.iter().map(|(v, w)| (exact_one(v), *w)).collect())
}

/// The exact outcome of the melee with its options settled.
fn exact_one(m: &Melee) -> Outcome {
    WoundCache::with_thread_cache(|cache| Scratch::with_thread(|scratch| exact_with(m, cache, scratch)))
}

fn exact_with(m: &Melee, cache: &mut WoundCache, scratch: &mut Scratch) -> Outcome {
    let mut plans = Plans::new(m);
    let mut out = Tallies::new(m);
    let mut tr = std::mem::take(&mut scratch.transitions);

    // 0. Firefight: a Stunned defender is Knocked Out (or wounded) by the charge itself.
    let mut charged: Vec<(State, f64)> = Vec::new();
    m.defender.landings(m.charged(), |d0, p| charged.push((d0, p)));

    // 1. Counter: the defender's first strike, from its state once charged.
    let mut counter: Vec<(State, State, Vec<f64>)> = Vec::new();
    for &(d0, p0) in &charged {
        if m.strikes_back(d0) {
            let g = plans.groups(Phase::Counter, d0, m.charger_start);
            for (c1, wounds) in tr.run(&m.charger, &g.groups, m.charger_start, |gi, s, dice| plans.judged(Phase::Counter, g.templates[gi], s, dice, cache)) {
                counter.push((d0, *c1, wounds.dense().iter().map(|q| q * p0).collect()));
            }
        } else {
            counter.push((d0, m.charger_start, vec![p0]));
        }
    }

    // 2. The charge, by the charger's models left.
    let mut pairs = Pairs::new(m);
    for (d0, c1, counter_wounds) in &counter {
        let (d0, c1) = (*d0, *c1);
        let taken = Signed { lo: 0, p: counter_wounds.clone() };
        let negated = Signed { lo: 0, p: vec![1.0] }.convolve(counter_wounds, -1);
        let p_c1: f64 = counter_wounds.iter().sum();
        if m.charger.destroyed(c1) || m.defender.destroyed(d0) {
            let pair = pairs.entry(c1, d0, true, scratch);
            pair.margin.add(&negated, 0, 1.0);
            pair.by_defender.add(&taken, 0, 1.0);
            out.add_wounds(0, 0, p_c1);
            continue;
        }
        let g = plans.groups(Phase::Charge, c1, d0);
        for (d1, dealt) in tr.run(&m.defender, &g.groups, d0, |gi, s, dice| plans.judged(Phase::Charge, g.templates[gi], s, dice, cache)) {
            let p_d1 = dealt.total();
            for (w, &q) in dealt.p.iter().enumerate() {
                out.add_wounds(0, dealt.lo + w, q * p_c1);
            }
            let pair = pairs.entry(c1, *d1, true, scratch);
            pair.margin.add_convolved(&negated, dealt.lo, &dealt.p, 1, 1.0);
            pair.by_defender.add(&taken, 0, p_d1);
        }
    }

    // 3. The strike back, by the defender's models left, on the charger as it stands. The
    // defender's wounds in all are only read summed over the end states, so they are summed
    // here: each pair's so far convolved once with its strike back's wounds, whatever the
    // charger's end state.
    let mut finals = Pairs::new(m);
    let mut by_defender = Signed::default();
    let mut back_wounds: Vec<f64> = Vec::with_capacity(Pairs::ROOM);
    for pair in pairs.list {
        let (c1, d1) = (pair.c, pair.d);
        let back = (m.strikes_back(d1) && !m.charger.destroyed(c1)).then(|| plans.groups(Phase::StrikeBack, d1, c1));
        // (a strike back without dice, as when all its weapons struck first, leaves all as it is)
        let Some(g) = back.filter(|g| g.groups.iter().any(|g| g.dice > 0)) else {
            by_defender.add(&pair.by_defender, 0, 1.0);
            scratch.give_back(pair.by_defender.p);
            finals.add_moved(c1, d1, pair.margin, scratch);
            continue;
        };
        back_wounds.clear();
        for (c2, dealt) in tr.run(&m.charger, &g.groups, c1, |gi, s, dice| plans.judged(Phase::StrikeBack, g.templates[gi], s, dice, cache)) {
            finals.entry(*c2, d1, false, scratch).margin.add_convolved(&pair.margin, dealt.lo, &dealt.p, -1, 1.0);
            if back_wounds.len() < dealt.lo + dealt.p.len() {
                back_wounds.resize(dealt.lo + dealt.p.len(), 0.0);
            }
            for (total, q) in back_wounds[dealt.lo..].iter_mut().zip(&dealt.p) {
                *total += q;
            }
        }
        by_defender.add_convolved(&pair.by_defender, 0, &back_wounds, 1, 1.0);
        scratch.give_back(pair.margin.p);
        scratch.give_back(pair.by_defender.p);
    }
    for (i, &q) in by_defender.p.iter().enumerate() {
        out.add_wounds(1, (by_defender.lo + i as i64) as usize, q);
    }

    // 4. Melee resolution and the loser's morale test.
    for f in &finals.list {
        let (c, d) = (f.c, f.d);
        out.add_casualties(m, c, d, f.margin.p.iter().sum());
        // Fear and destruction depend only on the states, so the margin decides the rest.
        let fear = plans.fear_margin(c, d);
        let mut by_winner = [0.0f64; 3];
        for (i, &q) in f.margin.p.iter().enumerate() {
            for &(fear_margin, pf) in fear.iter() {
                by_winner[m.winner(c, d, f.margin.lo + i as i64, fear_margin) as usize] += q * pf;
            }
        }
        let unless_failed = m.statuses_without_failure(c, d);
        let at = [m.charger.index(c), m.defender.index(d)];
        let mut add = |winner, failed, q| out.add_ended(winner, m.statuses_from(unless_failed, c, d, winner, failed), at, q);
        for winner in [Winner::Charger, Winner::Defender, Winner::Tie] {
            let q = by_winner[winner as usize];
            if q == 0.0 {
                continue;
            }
            match m.loser_tests(c, d, winner) {
                Some((loser, s)) => {
                    let p_pass = plans.morale_test(loser, s).p_pass();
                    if p_pass > 0.0 {
                        add(winner, false, q * p_pass);
                    }
                    if p_pass < 1.0 {
                        add(winner, true, q * (1.0 - p_pass));
                    }
                }
                None => add(winner, false, q),
            }
        }
    }
    for f in finals.list {
        scratch.give_back(f.margin.p);
    }
    tr.trim(Scratch::KEEP, Scratch::KEEP_LEN);
    scratch.transitions = tr;
    out.outcome(m, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_convolution_keeps_negative_values() {
        let a = Signed { lo: 0, p: vec![0.5, 0.5] };
        let b = a.convolve(&[0.25, 0.75], -1);
        // values -1, 0, 1 with 0.375, 0.5 (0.125 + 0.375), 0.125
        assert_eq!(b.lo, -1);
        assert!((b.p[0] - 0.375).abs() < 1e-15 && (b.p[1] - 0.5).abs() < 1e-15 && (b.p[2] - 0.125).abs() < 1e-15);
    }
}
