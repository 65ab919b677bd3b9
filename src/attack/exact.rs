//! The exact engine: the probability of every outcome at every stage.
//!
//! One attack die's outcome (hits it causes, unblocked hits, wounds after Regeneration) is
//! found by enumerating the faces of every die involved through the group's [`DieModel`]
//! (to hit; to block, with Bane's re-roll; to ignore each wound). A group's totals are sums
//! of its identical independent dice, i.e. convolution powers. Groups are resolved in order
//! over the distribution of the target's state, because which models are alive decides the
//! Defense used, Blast's cap, the rules all models share and where wounds go.

use super::allocation::{Allocation, State};
use super::plan::{die_model, groups, DieModel, Group, Pick, Situation};
use crate::dice::{self, add_at};
use crate::morale::{self, MoraleTest};
use crate::state::UnitState;
use rustc_hash::FxHashMap;
use std::collections::HashMap;
use std::rc::Rc;

/// The distributions of one attack, each indexed by count.
#[derive(Debug, Clone, PartialEq)]
pub struct Stages {
    pub hits: Vec<f64>,
    pub unblocked: Vec<f64>,
    pub wounds: Vec<f64>,
    /// Models this attack removed.
    pub kills: Vec<f64>,
    /// The chance the target takes a morale test at the end of the activation (shooting only).
    pub p_morale_test: f64,
    /// The target's state afterwards, Shaken or not, with its probability (destroyed: left out).
    pub ends: Vec<(UnitState, f64)>,
}

impl Stages {
    /// The mixture of several attacks' distributions with these weights (summing to 1): the
    /// exact result when a die decides which attack is made (Unpredictable Fighter).
    pub fn mix(mut parts: Vec<(Stages, f64)>) -> Stages {
        if parts.len() == 1 {
            return parts.pop().map(|(s, _)| s).unwrap_or_else(|| unreachable!());
        }
        let mut out = Stages { hits: Vec::new(), unblocked: Vec::new(), wounds: Vec::new(), kills: Vec::new(), p_morale_test: 0.0, ends: Vec::new() };
        for (s, w) in &parts {
            dice::add_scaled(&mut out.hits, &s.hits, *w);
            dice::add_scaled(&mut out.unblocked, &s.unblocked, *w);
            dice::add_scaled(&mut out.wounds, &s.wounds, *w);
            dice::add_scaled(&mut out.kills, &s.kills, *w);
            out.p_morale_test += w * s.p_morale_test;
        }
        out.ends = crate::state::mix_ends(parts.iter().map(|(s, w)| (s.ends.as_slice(), *w)));
        out
    }
}

/// One die's outcome: (hits, unblocked hits, wounds after ignoring), with probability.
type Outcome = ((u32, u32, u32), f64);

/// Adds probability `p` to `key` in a short sparse list.
fn merge<K: PartialEq>(list: &mut Vec<(K, f64)>, key: K, p: f64) {
    match list.iter_mut().find(|(k, _)| *k == key) {
        Some((_, q)) => *q += p,
        None => list.push((key, p)),
    }
}

/// The outcomes of one hit, by whether it came from a 6: (unblocked, wounds) with probability.
fn hit_outcomes(dm: &DieModel, six: bool) -> Vec<((u32, u32), f64)> {
    let mut finals: Vec<(u8, f64)> = Vec::with_capacity(11);
    for face in 1..=6u8 {
        if dm.rerolls(face, six) {
            finals.extend((1..=6u8).map(|f| (f, 1.0 / 36.0)));
        } else {
            finals.push((face, 1.0 / 6.0));
        }
    }
    let p_ignore = (1..=6u8).filter(|&f| dm.ignores_wound(f, six)).count() as f64 / 6.0;
    let mut out: Vec<((u32, u32), f64)> = Vec::new();
    for (face, p) in finals {
        if dm.blocks(face, six) {
            merge(&mut out, (0, 0), p);
            continue;
        }
        let n = dm.wounds_of_unblocked(face, six);
        for (kept, pk) in dice::binomial(n, 1.0 - p_ignore).into_iter().enumerate() {
            if pk > 0.0 {
                merge(&mut out, (1, kept as u32), p * pk);
            }
        }
    }
    out
}

/// Sums `count` independent copies of a hit's outcome into `acc` (sparse convolution; the
/// lists are a handful of entries, so a linear merge beats hashing).
fn add_hits(mut acc: Vec<Outcome>, one: &[((u32, u32), f64)], count: u32) -> Vec<Outcome> {
    for _ in 0..count {
        let mut next: Vec<Outcome> = Vec::with_capacity(acc.len() * one.len());
        for &((h, u, w), p) in &acc {
            for &((du, dw), q) in one {
                merge(&mut next, (h + 1, u + du, w + dw), p * q);
            }
        }
        next.sort_by_key(|&(k, _)| k);
        acc = next;
    }
    acc
}

/// The distribution of one attack die's outcome.
pub fn die_outcomes(dm: &DieModel) -> Vec<Outcome> {
    let normal = hit_outcomes(dm, false);
    let six = hit_outcomes(dm, true);
    // v2 Relentless: a 6 rolls one more attack die, which rolls no more
    let extra_die = dm.extra_die_on_six.then(|| die_outcomes(&DieModel { extra_die_on_six: false, ..*dm }));
    let mut merged: Vec<Outcome> = Vec::new();
    for face in 1..=6u8 {
        let (sixes, others) = dm.hits_from(face);
        let start = vec![((0, 0, 0), 1.0 / 6.0)];
        let with_sixes = add_hits(start, &six, sixes);
        let mut outcomes = add_hits(with_sixes, &normal, others);
        if let (Some(extra), true) = (&extra_die, dm.rolls_extra_die(face)) {
            let mut both: Vec<Outcome> = Vec::new();
            for &((h, u, w), p) in &outcomes {
                for &((h2, u2, w2), q) in extra {
                    merge(&mut both, (h + h2, u + u2, w + w2), p * q);
                }
            }
            outcomes = both;
        }
        for (key, p) in outcomes {
            merge(&mut merged, key, p);
        }
    }
    merged.sort_by_key(|&(k, _)| k);
    merged
}

/// The mean wounds of one attack die, by linearity over its faces: what the mean of
/// [`die_outcomes`] is, at a cost that does not grow with the hits a die deals.
pub fn die_mean_wounds(dm: &DieModel) -> f64 {
    let mean = |six: bool| hit_outcomes(dm, six).iter().map(|&((_, w), p)| f64::from(w) * p).sum::<f64>();
    let (normal, six) = (mean(false), mean(true));
    let extra = if dm.extra_die_on_six { die_mean_wounds(&DieModel { extra_die_on_six: false, ..*dm }) } else { 0.0 };
    let mut total = 0.0;
    for face in 1..=6u8 {
        let (sixes, others) = dm.hits_from(face);
        total += f64::from(sixes) * six + f64::from(others) * normal + if dm.rolls_extra_die(face) { extra } else { 0.0 };
    }
    total / 6.0
}

/// Expected wounds (after Regeneration and the like, Deadly counted up to the Tough of the
/// model it hits) of all of `attacker`'s usable weapons on the fresh `target`.
pub fn expected_wounds(attacker: &[(&crate::profile::Model, u32)], target: &Allocation, situation: &Situation) -> f64 {
    let start = target.start();
    let view = target.view(start, false);
    let groups = groups(attacker, &view.alive, situation, Pick::All);
    groups.iter().map(|group| group_expected_wounds(group, situation, target, start)).sum()
}

/// The most hits of one die whose mean wounds are read from its enumerated outcomes; larger
/// dice use [`die_mean_wounds`], the same value up to rounding (so seeded games with dice
/// of 25 to 100 hits may differ in the last bits from before). The real books' largest die
/// is Blast(12).
const ENUMERATED_MEAN_HITS: u64 = 24;

/// Expected wounds of one weapon group on `target` in state `s` (Deadly counted up to the
/// Tough of the model it hits).
pub fn group_expected_wounds(group: &Group, situation: &Situation, target: &Allocation, s: State) -> f64 {
    let view = target.view(s, group.takedown);
    let dm = die_model(group, situation, &view);
    let per_die = if dm.max_hits() <= ENUMERATED_MEAN_HITS {
        die_outcomes(&dm).iter().map(|&((_, _, w), p)| f64::from(w) * p).sum()
    } else {
        // enumerating a die of many hits takes seconds to hours (Blast(100) with Shred and
        // Rending: ten seconds); its mean needs no enumeration
        die_mean_wounds(&dm)
    };
    let tough = view.alive.first().map_or(1, |(m, _)| m.tough);
    f64::from(group.dice) * per_die * f64::from(dm.deadly.min(tough.max(1)))
}

/// A group's totals against one state class: marginals and the joints with wounds that the
/// state propagation needs.
struct GroupDist {
    /// Marginal pmfs of hits, unblocked, wounds (wound count before Deadly multiplication).
    hits: Vec<f64>,
    unblocked: Vec<f64>,
    wounds: Vec<f64>,
    /// joint[x][w]: P(hits = x, wounds = w), and the same for unblocked.
    hits_wounds: Vec<Vec<f64>>,
    unblocked_wounds: Vec<Vec<f64>>,
    deadly: u32,
}

fn marginal(outcomes: &[Outcome], pick: impl Fn(&(u32, u32, u32)) -> u32) -> Vec<f64> {
    let mut v = Vec::new();
    for (k, p) in outcomes {
        add_at(&mut v, pick(k) as usize, *p);
    }
    v
}

/// P(X = x, W = w) for the sum of `n` dice, adding one die at a time.
fn joint_power(outcomes: &[Outcome], n: u32, pick: impl Fn(&(u32, u32, u32)) -> u32) -> Vec<Vec<f64>> {
    let mut one: Vec<((usize, usize), f64)> = Vec::new();
    for (k, p) in outcomes {
        merge(&mut one, (pick(k) as usize, k.2 as usize), *p);
    }
    let max_x = one.iter().map(|((x, _), _)| *x).max().unwrap_or(0);
    let max_w = one.iter().map(|((_, w), _)| *w).max().unwrap_or(0);
    let (nx, nw) = (max_x * n as usize + 1, max_w * n as usize + 1);
    let mut cur = vec![vec![0.0; nw]; nx];
    cur[0][0] = 1.0;
    let (mut hx, mut hw) = (0usize, 0usize);
    for _ in 0..n {
        let mut next = vec![vec![0.0; nw]; nx];
        for x in 0..=hx {
            for w in 0..=hw {
                let p = cur[x][w];
                if p == 0.0 {
                    continue;
                }
                for &((dx, dw), q) in &one {
                    next[x + dx][w + dw] += p * q;
                }
            }
        }
        hx += max_x;
        hw += max_w;
        cur = next;
    }
    cur
}

fn group_dist(dm: &DieModel, dice_count: u32, with_joints: bool) -> GroupDist {
    let outcomes = die_outcomes(dm);
    let hits1 = marginal(&outcomes, |k| k.0);
    let unblocked1 = marginal(&outcomes, |k| k.1);
    let wounds1 = marginal(&outcomes, |k| k.2);
    GroupDist {
        hits: dice::power(&hits1, dice_count),
        unblocked: dice::power(&unblocked1, dice_count),
        wounds: dice::power(&wounds1, dice_count),
        hits_wounds: if with_joints { joint_power(&outcomes, dice_count, |k| k.0) } else { Vec::new() },
        unblocked_wounds: if with_joints { joint_power(&outcomes, dice_count, |k| k.1) } else { Vec::new() },
        deadly: dm.deadly,
    }
}

/// The target's morale and state once the attack is over, from the distribution of its end
/// states. The sampler rolls the same test (`MoraleTest::roll`) on the same condition.
fn morale_after(alloc: &Allocation, situation: &Situation, start: State, before: &UnitState, ends: &[(State, f64)]) -> (f64, Vec<(UnitState, f64)>) {
    let shaken = before.shaken;
    let mut p_test = 0.0;
    let mut out: Vec<(UnitState, f64)> = Vec::with_capacity(2 * ends.len());
    // the test depends only on which models are left
    let mut p_pass: FxHashMap<(u32, bool), f64> = FxHashMap::default();
    for &(s, p) in ends {
        // "Units that were in melee don't take morale tests from wounds at the end of an activation"
        let test = !situation.melee && morale::tests_after_shooting(alloc, start, s, situation.edition);
        let p_fail = if test {
            1.0 - *p_pass.entry(alloc.alive_key(s)).or_insert_with(|| MoraleTest::new(alloc, s, shaken, situation.edition).p_pass())
        } else {
            0.0
        };
        if test {
            p_test += p;
        }
        // (Firefight: Stunned comes with the state, from wound effects)
        if let Some(st) = alloc.unit_state(s, shaken, before.fatigued) {
            let p_shaken = if st.shaken { 1.0 } else { p_fail };
            if p_shaken > 0.0 {
                out.push((UnitState { shaken: true, ..st }, p * p_shaken));
            }
            if p_shaken < 1.0 {
                out.push((st, p * (1.0 - p_shaken)));
            }
        }
    }
    (p_test, out)
}

/// Every stage of an attack by `groups` (in resolution order) on the target in `alloc`, from
/// its state `start` (`before` says whether it was Shaken or fatigued). `origin` is where the
/// target was before the attack: `start` itself, or where a Firefight charge left a Stunned
/// target (Knocked Out or wounded) before any blow; kills count from `origin`.
pub fn stages_from(alloc: &Allocation, groups: &[Group], situation: &Situation, origin: State, start: State, before: &UnitState) -> Stages {
    let (hits, unblocked, wounds, ends) = propagate(alloc, groups, situation, start);
    let killed_before = alloc.kills(origin);
    let mut kills = Vec::with_capacity(alloc.len() as usize + 1);
    for &(s, p) in &ends {
        add_at(&mut kills, (alloc.kills(s) - killed_before) as usize, p);
    }
    let (p_morale_test, end_states) = morale_after(alloc, situation, origin, before, &ends);
    Stages { hits, unblocked, wounds, kills, p_morale_test, ends: end_states }
}

/// The pmfs of hits, unblocked hits and wounds, and the distribution of the end state.
#[allow(clippy::type_complexity)]
fn propagate(alloc: &Allocation, groups: &[Group], situation: &Situation, start: State) -> (Vec<f64>, Vec<f64>, Vec<f64>, Vec<(State, f64)>) {
    if groups.is_empty() || alloc.destroyed(start) {
        return (vec![1.0], vec![1.0], vec![1.0], vec![(start, 1.0)]);
    }
    if groups.len() == 1 {
        // One group against one state: its marginals are the answer.
        let g = &groups[0];
        let dm = die_model(g, situation, &alloc.view(start, g.takedown));
        let gd = group_dist(&dm, g.dice, false);
        let mut ends: Vec<(State, f64)> = Vec::with_capacity(gd.wounds.len().min(alloc.state_count()));
        let mut index = StateIndex::default();
        let mut wounds = Vec::with_capacity((gd.wounds.len() - 1) * gd.deadly as usize + 1);
        for (w, &p) in gd.wounds.iter().enumerate() {
            if p > 0.0 {
                alloc.landings(alloc.land(start, w as u32, &dm, g.takedown), |end, q| match ends.last_mut() {
                    // more wounds rarely leave the target better off, so equal end states are mostly neighbours
                    Some((s, r)) if *s == end => *r += p * q,
                    _ => {
                        let i = index.find_or_push(alloc, &mut ends, end, || 0.0);
                        ends[i].1 += p * q;
                    }
                });
                add_at(&mut wounds, w * gd.deadly as usize, p);
            }
        }
        return (gd.hits, gd.unblocked, wounds, ends);
    }

    // Several groups: propagate the joint distribution of (target state, stage total).
    let states = alloc.states();
    let n_states = alloc.state_count();
    let mut cache: HashMap<(usize, DieModel), GroupDist> = HashMap::new();
    let mut models: Vec<Vec<Option<DieModel>>> = vec![vec![None; n_states]; groups.len()];
    let start_idx = alloc.index(start);
    // cur[stat][state] = pmf of the stat's total so far, jointly with the state.
    let mut cur: [Vec<Vec<f64>>; 3] = std::array::from_fn(|_| vec![Vec::new(); n_states]);
    for stat in &mut cur {
        stat[start_idx] = vec![1.0];
    }
    for (gi, g) in groups.iter().enumerate() {
        let mut next: [Vec<Vec<f64>>; 3] = std::array::from_fn(|_| vec![Vec::new(); n_states]);
        for &s in &states {
            let idx = alloc.index(s);
            if cur[0][idx].is_empty() {
                continue;
            }
            if alloc.destroyed(s) {
                for stat in 0..3 {
                    let v = std::mem::take(&mut cur[stat][idx]);
                    accumulate(&mut next[stat][idx], &v, 0, 1.0);
                }
                continue;
            }
            let dm = *models[gi][idx].get_or_insert_with(|| die_model(g, situation, &alloc.view(s, g.takedown)));
            let gd = cache.entry((gi, dm)).or_insert_with(|| group_dist(&dm, g.dice, true));
            for w in 0..gd.wounds.len() {
                if gd.wounds[w] == 0.0 {
                    continue;
                }
                alloc.landings(alloc.land(s, w as u32, &dm, g.takedown), |end, q| {
                    let idx2 = alloc.index(end);
                    // wounds: deterministic increment w × Deadly
                    accumulate(&mut next[2][idx2], &cur[2][idx], w * gd.deadly as usize, gd.wounds[w] * q);
                    for (stat, joint) in [(0usize, &gd.hits_wounds), (1usize, &gd.unblocked_wounds)] {
                        for (x, row) in joint.iter().enumerate() {
                            let p = row.get(w).copied().unwrap_or(0.0);
                            if p > 0.0 {
                                accumulate(&mut next[stat][idx2], &cur[stat][idx], x, p * q);
                            }
                        }
                    }
                });
            }
        }
        cur = next;
    }
    let mut out: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut ends = Vec::new();
    for &s in &states {
        let idx = alloc.index(s);
        if cur[0][idx].is_empty() {
            continue;
        }
        ends.push((s, cur[0][idx].iter().sum()));
        for stat in 0..3 {
            for (x, p) in cur[stat][idx].iter().enumerate() {
                add_at(&mut out[stat], x, *p);
            }
        }
    }
    let [hits, unblocked, wounds] = out;
    (dice::trim(hits), dice::trim(unblocked), dice::trim(wounds), ends)
}

/// Wound pmfs of a group of dice by die model, kept across the many small attacks of a melee.
/// For each die model, the pmfs for 0, 1, 2, ... dice are built one die at a time, as the
/// attacks of a melee need them for every number of models left.
#[derive(Default)]
pub struct WoundCache {
    map: FxHashMap<DieModel, Vec<Rc<Vec<f64>>>>,
    /// Probabilities held in all: what the cache costs in memory.
    held: usize,
}

impl WoundCache {
    /// The pmf of the wounds `dice` dice judged by `dm` deal (before Deadly multiplication).
    pub fn get(&mut self, dm: &DieModel, dice: u32) -> Rc<Vec<f64>> {
        let powers = self.map.entry(*dm).or_insert_with(|| vec![Rc::new(vec![1.0]), Rc::new(marginal(&die_outcomes(dm), |k| k.2))]);
        while powers.len() <= dice as usize {
            let next = dice::convolve(powers.last().unwrap(), &powers[1]);
            self.held += next.len();
            powers.push(Rc::new(next));
        }
        powers[dice as usize].clone()
    }

    /// Runs `f` with this thread's cache, kept from one melee to the next (the same die models
    /// recur across a table of matchups and a game's charges). Past `MAX_HELD` probabilities it
    /// starts over, so its memory stays bounded; the pmfs are the same either way.
    pub fn with_thread_cache<T>(f: impl FnOnce(&mut WoundCache) -> T) -> T {
        thread_local! {
            static CACHE: std::cell::RefCell<WoundCache> = std::cell::RefCell::default();
        }
        /// 4 M probabilities: 32 MB per thread at most.
        const MAX_HELD: usize = 1 << 22;
        CACHE.with(|cell| match cell.try_borrow_mut() {
            Ok(mut cache) => {
                if cache.held > MAX_HELD {
                    *cache = WoundCache::default();
                }
                f(&mut cache)
            }
            // re-entered on this thread (not expected): a cache of its own
            Err(_) => f(&mut WoundCache::default()),
        })
    }
}

/// A sub-pmf of wounds dealt, from `lo` on: on the way to most end states only one number of
/// wounds leads there, so leading zeros are not stored (nor added up).
#[derive(Debug, Default)]
pub struct Dealt {
    pub lo: usize,
    pub p: Vec<f64>,
}

impl Dealt {
    /// `self[x + shift] += src[x] × p` for every `x` of `src`.
    fn accumulate(&mut self, src: &Dealt, shift: usize, p: f64) {
        if src.p.is_empty() {
            return;
        }
        let start = src.lo + shift;
        if self.p.is_empty() {
            self.lo = start;
        } else if start < self.lo {
            self.p.splice(0..0, std::iter::repeat_n(0.0, self.lo - start));
            self.lo = start;
        }
        accumulate(&mut self.p, &src.p, start - self.lo, p);
    }

    /// The sum of the sub-pmf.
    pub fn total(&self) -> f64 {
        self.p.iter().sum()
    }

    /// The sub-pmf over 0, 1, 2, ... (the leading zeros written out).
    pub fn dense(&self) -> Vec<f64> {
        let mut out = vec![0.0; self.lo];
        out.extend_from_slice(&self.p);
        out
    }
}

/// Where attacks leave a target, computed into buffers kept from one attack to the next
/// (the exact melee makes hundreds of small attacks; allocating each one's lists afresh was
/// about a tenth of its time).
#[derive(Default)]
pub struct Transitions {
    /// The last attack's end states, each with the sub-pmf of the wounds dealt on the way.
    ends: Vec<(State, Dealt)>,
    /// The states after the group being resolved.
    next: Vec<(State, Dealt)>,
    /// Emptied pmfs, to be filled again.
    spare: Vec<Vec<f64>>,
    /// Finds states in `next`.
    index: StateIndex,
}

impl Transitions {
    /// Where an attack leaves the target, from `start`: each end state with the sub-pmf of
    /// the wounds dealt on the way there (Deadly counted X times). `judged(group, state,
    /// dice)` gives the die model of a group's dice against the target in that state and
    /// the pmf of the wounds that many deal ([`WoundCache::get`]), so callers can reuse both
    /// across attacks.
    pub fn run(&mut self, alloc: &Allocation, groups: &[Group], start: State, mut judged: impl FnMut(usize, State, u32) -> (DieModel, Rc<Vec<f64>>)) -> &[(State, Dealt)] {
        let Transitions { ends, next, spare, index } = self;
        recycle(ends, spare);
        let mut first = spare.pop().unwrap_or_default();
        first.push(1.0);
        ends.push((start, Dealt { lo: 0, p: first }));
        for (gi, g) in groups.iter().enumerate() {
            if g.dice == 0 {
                continue;
            }
            let mut add = |s: State, pmf: &Dealt, shift: usize, p: f64| {
                // more wounds rarely leave the target better off: equal states are mostly neighbours
                let i = match next.last() {
                    Some((t, _)) if *t == s => next.len() - 1,
                    _ => index.find_or_push(alloc, next, s, || Dealt { lo: 0, p: spare.pop().unwrap_or_default() }),
                };
                next[i].1.accumulate(pmf, shift, p);
            };
            for (s, pmf) in ends.iter() {
                if alloc.destroyed(*s) {
                    add(*s, pmf, 0, 1.0);
                    continue;
                }
                let (dm, wounds) = judged(gi, *s, g.dice);
                if alloc.runs_down(*s, &dm, g.takedown) {
                    // (the same as below, where each landing is `At` with probability 1)
                    for ((w, &p), end) in wounds.iter().enumerate().zip(alloc.run_down(*s)) {
                        if p > 0.0 {
                            add(end, pmf, w * dm.deadly as usize, p);
                        }
                    }
                    continue;
                }
                for (w, &p) in wounds.iter().enumerate() {
                    if p > 0.0 {
                        alloc.landings(alloc.land(*s, w as u32, &dm, g.takedown), |s2, q| add(s2, pmf, w * dm.deadly as usize, p * q));
                    }
                }
            }
            index.clear(alloc, next);
            recycle(ends, spare);
            std::mem::swap(ends, next);
        }
        &self.ends
    }

    /// Lets go of all but `keep` emptied pmfs of at most `keep_len` values (what a caller
    /// keeps between attacks stays bounded after a large one).
    pub fn trim(&mut self, keep: usize, keep_len: usize) {
        recycle(&mut self.ends, &mut self.spare);
        self.spare.retain(|pmf| pmf.capacity() <= keep_len);
        self.spare.truncate(keep);
        for list in [&mut self.ends, &mut self.next] {
            if list.capacity() > keep {
                *list = Vec::new();
            }
        }
    }
}

/// Empties `list` into `spare`, keeping the pmfs' memory.
fn recycle(list: &mut Vec<(State, Dealt)>, spare: &mut Vec<Vec<f64>>) {
    spare.extend(list.drain(..).map(|(_, Dealt { mut p, .. })| {
        p.clear();
        p
    }));
}

/// Finds a state in a list of states: by a search while the list is short, then by the
/// allocation's dense index (a search was most of the time with hundreds of end states).
#[derive(Default)]
struct StateIndex {
    /// Positions by [`Allocation::index`] (`u32::MAX`: not in the list), once `dense`.
    slots: Vec<u32>,
    dense: bool,
}

impl StateIndex {
    /// A search finds a state among this many faster than the dense index.
    const SHORT: usize = 16;

    /// The position of `s` in `list`, pushed with `new()` if it is not there.
    fn find_or_push<T>(&mut self, alloc: &Allocation, list: &mut Vec<(State, T)>, s: State, new: impl FnOnce() -> T) -> usize {
        if !self.dense {
            if let Some(i) = list.iter().position(|(t, _)| *t == s) {
                return i;
            }
            if list.len() >= Self::SHORT {
                self.dense = true;
                if self.slots.len() < alloc.state_count() {
                    self.slots.resize(alloc.state_count(), u32::MAX);
                }
                for (i, (t, _)) in list.iter().enumerate() {
                    self.slots[alloc.index(*t)] = i as u32;
                }
            }
        }
        if self.dense {
            let at = alloc.index(s);
            if self.slots[at] != u32::MAX {
                return self.slots[at] as usize;
            }
            self.slots[at] = list.len() as u32;
        }
        list.push((s, new()));
        list.len() - 1
    }

    /// Empties the index of `list`'s states, for another list (the memory is kept).
    fn clear<T>(&mut self, alloc: &Allocation, list: &[(State, T)]) {
        if self.dense {
            for (t, _) in list {
                self.slots[alloc.index(*t)] = u32::MAX;
            }
            self.dense = false;
        }
    }
}

/// `dst[x + shift] += src[x] * p`.
fn accumulate(dst: &mut Vec<f64>, src: &[f64], shift: usize, p: f64) {
    if let [q] = src {
        // (the first group of an attack: from a certain start)
        return add_at(dst, shift, q * p);
    }
    if src.is_empty() {
        return;
    }
    if dst.len() < src.len() + shift {
        dst.resize(src.len() + shift, 0.0);
    }
    for (x, &q) in src.iter().enumerate() {
        dst[x + shift] += q * p;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(hit_need: u8, block_need: u8) -> DieModel {
        DieModel::plain(hit_need, block_need, 7)
    }

    #[test]
    fn one_die_hitting_on_4_against_defense_4_with_ap1() {
        // hit 1/2; block on 5+ (AP(1) turns 4+ into 5+): unblocked 2/3
        let o = die_outcomes(&plain(4, 5));
        let p_wound: f64 = o.iter().filter(|(k, _)| k.2 == 1).map(|(_, p)| p).sum();
        assert!((p_wound - 1.0 / 3.0).abs() < 1e-15);
    }

    #[test]
    fn the_mean_of_a_die_needs_no_enumeration() {
        let mut dm = plain(4, 5);
        dm.multiplier = 3;
        dm.extra_hits_on_six = 1;
        dm.extra_die_on_six = true;
        dm.extra_wounds_block_one = 1;
        let enumerated: f64 = die_outcomes(&dm).iter().map(|&((_, _, w), p)| f64::from(w) * p).sum();
        assert!((die_mean_wounds(&dm) - enumerated).abs() < 1e-12);
    }

    #[test]
    fn wounds_dealt_from_an_offset_add_up_as_dense_pmfs_do() {
        let mut dense = Vec::new();
        let mut dealt = Dealt::default();
        for (lo, p, shift, scale) in [(3, vec![0.5], 1, 1.0), (1, vec![0.25, 0.25], 0, 0.5), (0, vec![0.1, 0.0, 0.2], 6, 2.0)] {
            let src = Dealt { lo, p };
            accumulate(&mut dense, &src.dense(), shift, scale);
            dealt.accumulate(&src, shift, scale);
        }
        assert_eq!(dealt.lo, 1);
        assert_eq!(dealt.dense(), dense);
        assert_eq!(dealt.total(), dense.iter().sum::<f64>());
    }

    #[test]
    fn bane_rerolls_defense_sixes_once() {
        let mut dm = plain(2, 4);
        dm.reroll_defense_from = 6;
        // P(block) = P(4 or 5) + P(6) * P(4..6 on the re-roll) = 2/6 + 1/6 * 1/2
        let o = hit_outcomes(&dm, false);
        let blocked: f64 = o.iter().filter(|(k, _)| k.0 == 0).map(|(_, p)| p).sum();
        assert!((blocked - (2.0 / 6.0 + 1.0 / 12.0)).abs() < 1e-15);
    }
}
