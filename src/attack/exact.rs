//! The exact engine: the probability of every outcome at every stage.
//!
//! One attack die's outcome (hits it causes, unblocked hits, wounds after Regeneration) is
//! found by enumerating the faces of every die involved through the group's [`DieModel`]
//! (to hit; to block, with Bane's re-roll; to ignore each wound). A group's totals are sums
//! of its identical independent dice, i.e. convolution powers. Groups are resolved in order
//! over the distribution of the target's state, because which models are alive decides the
//! Defense used, Blast's cap, the rules all models share and where wounds go.

use super::allocation::Allocation;
use super::plan::{die_model, DieModel, Group, Situation};
use crate::dice::{self, add_at};
use std::collections::HashMap;

/// The distributions of one attack, each indexed by count.
#[derive(Debug, Clone, PartialEq)]
pub struct Stages {
    pub hits: Vec<f64>,
    pub unblocked: Vec<f64>,
    pub wounds: Vec<f64>,
    pub kills: Vec<f64>,
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
        if face == 6 && dm.reroll_defense_six {
            finals.extend((1..=6u8).map(|f| (f, 1.0 / 36.0)));
        } else {
            finals.push((face, 1.0 / 6.0));
        }
    }
    let p_ignore = (1..=6u8).filter(|&f| dm.ignores_wound(f)).count() as f64 / 6.0;
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
    let mut merged: Vec<Outcome> = Vec::new();
    for face in 1..=6u8 {
        let (sixes, others) = dm.hits_from(dm.hit(face));
        let start = vec![((0, 0, 0), 1.0 / 6.0)];
        let with_sixes = add_hits(start, &six, sixes);
        for (key, p) in add_hits(with_sixes, &normal, others) {
            merge(&mut merged, key, p);
        }
    }
    merged.sort_by_key(|&(k, _)| k);
    merged
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

/// Every stage of an attack by `groups` (in resolution order) on the target in `alloc`.
pub fn stages(alloc: &Allocation, groups: &[Group], situation: &Situation) -> Stages {
    let start = alloc.start();
    if groups.is_empty() {
        let mut kills = vec![0.0; alloc.kills(start) as usize + 1];
        kills[alloc.kills(start) as usize] = 1.0;
        return Stages { hits: vec![1.0], unblocked: vec![1.0], wounds: vec![1.0], kills };
    }
    if groups.len() == 1 {
        // One group against the untouched target: its marginals are the answer.
        let g = &groups[0];
        let dm = die_model(g, situation, &alloc.view(start, g.takedown));
        let gd = group_dist(&dm, g.dice, false);
        let mut kills = Vec::new();
        let mut wounds = Vec::new();
        for (w, &p) in gd.wounds.iter().enumerate() {
            if p > 0.0 {
                add_at(&mut kills, alloc.kills(alloc.wound(start, w as u32, gd.deadly, g.takedown)) as usize, p);
                add_at(&mut wounds, w * gd.deadly as usize, p);
            }
        }
        return Stages { hits: gd.hits, unblocked: gd.unblocked, wounds, kills };
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
                let idx2 = alloc.index(alloc.wound(s, w as u32, gd.deadly, g.takedown));
                // wounds: deterministic increment w × Deadly
                accumulate(&mut next[2][idx2], &cur[2][idx], w * gd.deadly as usize, gd.wounds[w]);
                for (stat, joint) in [(0usize, &gd.hits_wounds), (1usize, &gd.unblocked_wounds)] {
                    for (x, row) in joint.iter().enumerate() {
                        let p = row.get(w).copied().unwrap_or(0.0);
                        if p > 0.0 {
                            accumulate(&mut next[stat][idx2], &cur[stat][idx], x, p);
                        }
                    }
                }
            }
        }
        cur = next;
    }
    let mut out: [Vec<f64>; 3] = [Vec::new(), Vec::new(), Vec::new()];
    let mut kills = Vec::new();
    for &s in &states {
        let idx = alloc.index(s);
        if cur[0][idx].is_empty() {
            continue;
        }
        add_at(&mut kills, alloc.kills(s) as usize, cur[0][idx].iter().sum());
        for stat in 0..3 {
            for (x, p) in cur[stat][idx].iter().enumerate() {
                add_at(&mut out[stat], x, *p);
            }
        }
    }
    let [hits, unblocked, wounds] = out;
    Stages { hits: dice::trim(hits), unblocked: dice::trim(unblocked), wounds: dice::trim(wounds), kills: dice::trim(kills) }
}

/// `dst[x + shift] += src[x] * p`.
fn accumulate(dst: &mut Vec<f64>, src: &[f64], shift: usize, p: f64) {
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
    fn bane_rerolls_defense_sixes_once() {
        let mut dm = plain(2, 4);
        dm.reroll_defense_six = true;
        // P(block) = P(4 or 5) + P(6) * P(4..6 on the re-roll) = 2/6 + 1/6 * 1/2
        let o = hit_outcomes(&dm, false);
        let blocked: f64 = o.iter().filter(|(k, _)| k.0 == 0).map(|(_, p)| p).sum();
        assert!((blocked - (2.0 / 6.0 + 1.0 / 12.0)).abs() < 1e-15);
    }
}
