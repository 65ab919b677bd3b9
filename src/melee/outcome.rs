//! What a melee ends in, and the one tally both engines add to: the exact engine adds each
//! outcome with its probability, the sampler each rolled exchange with weight 1 (sums of
//! ones are exact in f64, so merging chunks in any order gives the same counts).

use super::{Melee, Status, Winner};
use crate::attack::allocation::State;
use crate::dice::{add_at, add_scaled};
use crate::state::UnitState;
use rustc_hash::FxHashMap;

/// Every outcome of a melee, as probabilities (or, from the sampler, frequencies).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Outcome {
    /// P(charger wins), P(defender wins), P(tie).
    pub winner: [f64; 3],
    /// For the charger and the defender: P(destroyed), P(routed), P(Shaken), P(unaffected).
    pub status: [[f64; 4]; 2],
    /// Wounds caused by the charger and by the defender (without Fear).
    pub wounds: [Vec<f64>; 2],
    /// Models each side lost in this melee (Routs not counted).
    pub lost: [Vec<f64>; 2],
    /// `left[c * (defender size + 1) + d]`: P(charger has `c` models left and defender `d`),
    /// after casualties and before Routs.
    pub left: Vec<f64>,
    /// Unit sizes (charger, defender): `left` is `(sizes[0] + 1) × (sizes[1] + 1)`.
    pub sizes: [u32; 2],
    /// Each side's state after the melee, for chaining (destroyed and routed left out).
    pub ends: [Vec<(UnitState, f64)>; 2],
}

impl Outcome {
    /// The mixture of outcomes of one melee played in several ways (its units' options),
    /// with weights summing to 1.
    pub fn mix(mut parts: Vec<(Outcome, f64)>) -> Outcome {
        if parts.len() == 1 {
            return parts.pop().map(|(o, _)| o).unwrap_or_default();
        }
        let mut out = Outcome { sizes: parts[0].0.sizes, left: vec![0.0; parts[0].0.left.len()], ..Outcome::default() };
        for (o, w) in &parts {
            for i in 0..3 {
                out.winner[i] += w * o.winner[i];
            }
            for side in 0..2 {
                for k in 0..4 {
                    out.status[side][k] += w * o.status[side][k];
                }
                add_scaled(&mut out.wounds[side], &o.wounds[side], *w);
                add_scaled(&mut out.lost[side], &o.lost[side], *w);
            }
            add_scaled(&mut out.left, &o.left, *w);
        }
        out.ends = [0, 1].map(|side| crate::state::mix_ends(parts.iter().map(|(o, w)| (o.ends[side].as_slice(), *w))));
        out
    }
}

/// Weights by a key below a known bound: an array while the bound is small, a map past it
/// (a sampled melee of 1,000-model units has millions of keys and meets few of them). The
/// exact melee adds to these a few hundred times a call, where hashing was a tenth of it.
#[derive(Debug, Clone)]
enum Weights {
    Dense(Vec<f64>),
    Sparse(FxHashMap<usize, f64>),
}

impl Default for Weights {
    fn default() -> Self {
        Weights::Sparse(FxHashMap::default())
    }
}

impl Weights {
    /// Keys an array is kept for (128 kB).
    const DENSE_MAX: usize = 1 << 14;

    fn below(bound: usize) -> Weights {
        if bound <= Self::DENSE_MAX { Weights::Dense(vec![0.0; bound]) } else { Weights::default() }
    }

    fn add(&mut self, key: usize, p: f64) {
        match self {
            Weights::Dense(v) => v[key] += p,
            Weights::Sparse(map) => *map.entry(key).or_insert(0.0) += p,
        }
    }

    /// The keys with a weight, in key order.
    fn sorted(&self) -> Vec<(usize, f64)> {
        match self {
            Weights::Dense(v) => v.iter().enumerate().filter(|(_, q)| **q != 0.0).map(|(k, q)| (k, *q)).collect(),
            Weights::Sparse(map) => {
                let mut out: Vec<(usize, f64)> = map.iter().map(|(k, q)| (*k, *q)).collect();
                out.sort_unstable_by_key(|(k, _)| *k);
                out
            }
        }
    }
}

/// Weighted outcomes as they are added. End states are keyed by the side's state index and
/// whether it ends Shaken, read back into unit states once, at the end.
#[derive(Debug, Clone, Default)]
pub struct Tallies {
    winner: [f64; 3],
    status: [[f64; 4]; 2],
    wounds: [Vec<f64>; 2],
    lost: [Vec<f64>; 2],
    /// By `charger models left × (defender size + 1) + defender models left`.
    left: Weights,
    /// By `2 × state index + Shaken`.
    ends: [Weights; 2],
}

impl Tallies {
    /// Tallies for melee `m` (or any of its variants: they share the units).
    pub fn new(m: &Melee) -> Tallies {
        Tallies {
            left: Weights::below((m.charger.len() as usize + 1) * (m.defender.len() as usize + 1)),
            ends: [Weights::below(2 * m.charger.state_count()), Weights::below(2 * m.defender.state_count())],
            ..Tallies::default()
        }
    }

    /// Adds weight `p` of the melee ending with the charger in `c`, the defender in `d`,
    /// `winner`, and the loser's morale test failed or not.
    pub fn add(&mut self, m: &Melee, c: State, d: State, winner: Winner, failed: bool, p: f64) {
        self.add_ended(winner, m.statuses(c, d, winner, failed), [m.charger.index(c), m.defender.index(d)], p);
    }

    /// Adds weight `p` of the melee ending with `winner` and the sides' `statuses`, in the
    /// states of index `at` ([`Tallies::add`] with those found already).
    pub fn add_ended(&mut self, winner: Winner, statuses: [Status; 2], at: [usize; 2], p: f64) {
        self.winner[winner as usize] += p;
        for side in 0..2 {
            let status = statuses[side];
            self.status[side][status as usize] += p;
            // (destroyed and routed units have no end state: see `outcome`)
            if matches!(status, Status::Shaken | Status::Unaffected) {
                self.ends[side].add(2 * at[side] + usize::from(status == Status::Shaken), p);
            }
        }
    }

    /// Adds weight `p` of the casualties leaving the charger in `c` and the defender in `d`.
    pub fn add_casualties(&mut self, m: &Melee, c: State, d: State, p: f64) {
        let (cl, dl) = (m.charger.alive(c), m.defender.alive(d));
        self.left.add(cl as usize * (m.defender.len() as usize + 1) + dl as usize, p);
        add_at(&mut self.lost[0], (m.charger.alive(m.charger_start) - cl) as usize, p);
        add_at(&mut self.lost[1], (m.defender.alive(m.defender_start) - dl) as usize, p);
    }

    /// Adds weight `p` of `side` (0: charger, 1: defender) having caused `wounds` wounds.
    pub fn add_wounds(&mut self, side: usize, wounds: usize, p: f64) {
        add_at(&mut self.wounds[side], wounds, p);
    }

    pub fn merge(&mut self, o: &Tallies) {
        for i in 0..3 {
            self.winner[i] += o.winner[i];
        }
        for side in 0..2 {
            for k in 0..4 {
                self.status[side][k] += o.status[side][k];
            }
            add_scaled(&mut self.wounds[side], &o.wounds[side], 1.0);
            add_scaled(&mut self.lost[side], &o.lost[side], 1.0);
            for (key, q) in o.ends[side].sorted() {
                self.ends[side].add(key, q);
            }
        }
        for (key, q) in o.left.sorted() {
            self.left.add(key, q);
        }
    }

    /// The outcome, every weight multiplied by `scale` (1 for probabilities, 1/n for counts).
    pub fn outcome(&self, m: &Melee, scale: f64) -> Outcome {
        let sizes = [m.charger.len(), m.defender.len()];
        let mut left = vec![0.0; (sizes[0] as usize + 1) * (sizes[1] as usize + 1)];
        for (key, q) in self.left.sorted() {
            left[key] = q * scale;
        }
        let scaled = |v: &[f64]| v.iter().map(|q| q * scale).collect::<Vec<f64>>();
        let ends = [Winner::Charger, Winner::Defender].map(|who| {
            let (alloc, _) = m.side(who);
            let states = alloc.states();
            let mut v: Vec<(UnitState, f64)> = Vec::new();
            for (key, q) in self.ends[who as usize].sorted() {
                let status = if key % 2 == 1 { Status::Shaken } else { Status::Unaffected };
                v.extend(m.end_state(who, states[key / 2], status).map(|st| (st, q)));
            }
            // (Firefight: a Stunned state reads as Shaken either way, so two keys can meet)
            v.sort_by_key(|(st, _)| *st);
            v.dedup_by(|(st, q), (first, total)| {
                let same = st == first;
                if same {
                    *total += *q;
                }
                same
            });
            v.iter_mut().for_each(|(_, q)| *q *= scale);
            v
        });
        Outcome {
            winner: self.winner.map(|q| q * scale),
            status: self.status.map(|s| s.map(|q| q * scale)),
            wounds: [scaled(&self.wounds[0]), scaled(&self.wounds[1])],
            lost: [scaled(&self.lost[0]), scaled(&self.lost[1])],
            left,
            sizes,
            ends,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::Status;

    #[test]
    fn status_order_matches_outcome_columns() {
        assert_eq!([Status::Destroyed as usize, Status::Routed as usize, Status::Shaken as usize, Status::Unaffected as usize], [0, 1, 2, 3]);
    }
}
