//! Where wounds go: the order in which the defender removes models, and the state of the
//! target as wounds arrive.
//!
//! gf-3.5 "Tough(X)": "If a model with tough joins a unit without it, then it is removed
//! last when the unit takes wounds. You must continue to put wounds on the tough model with
//! most wounds in the unit until it is killed, before starting to put them on the next tough
//! model (heroes must be assigned wounds last, even if already wounded)."
//!
//! So a state is: how many models of the removal order are gone (`k`), the wounds on the next
//! one (`w`), and the wounds a joined hero took out of order (`hp`, from Takedown).

use super::plan::TargetView;
use crate::profile::{Model, Unit};

/// The target's models in the order the defender removes them.
#[derive(Debug, Clone)]
pub struct Allocation {
    pub models: Vec<Model>,
    /// Index of the joined hero in `models` (always last), if there is one.
    pub hero: Option<usize>,
    /// `offsets[k]`: index of the first state with `k` models removed (see [`Allocation::index`]).
    offsets: Vec<usize>,
    /// The unit's own Defense (used while any of its own models live).
    unit_defense: u8,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    pub k: u32,
    pub w: u32,
    pub hp: u32,
}

impl Allocation {
    /// The default removal order: the unit's own models first (those without Tough before
    /// tough ones, lower Tough first, and among equals the most common loadout first so that
    /// special weapons are lost last), then a joined hero.
    pub fn new(unit: &Unit) -> Allocation {
        let mut models = unit.models();
        let mut shares: std::collections::HashMap<(usize, &[crate::profile::Weapon]), usize> = std::collections::HashMap::new();
        for m in &models {
            *shares.entry((m.group, m.weapons.as_slice())).or_insert(0) += 1;
        }
        let mut keyed: Vec<(bool, u32, std::cmp::Reverse<usize>, usize)> = models
            .iter()
            .enumerate()
            .map(|(i, m)| (m.hero && m.group > 0, m.tough, std::cmp::Reverse(shares[&(m.group, m.weapons.as_slice())]), i))
            .collect();
        drop(shares);
        keyed.sort();
        let order: Vec<Model> = keyed.iter().map(|&(_, _, _, i)| models[i].clone()).collect();
        models = order;
        let hero = models.last().filter(|m| m.hero && m.group > 0).map(|_| models.len() - 1);
        let mut offsets = Vec::with_capacity(models.len() + 1);
        let mut acc = 0usize;
        for m in &models {
            offsets.push(acc);
            acc += m.tough as usize;
        }
        offsets.push(acc);
        Allocation { models, hero, offsets, unit_defense: unit.defense() }
    }

    pub fn len(&self) -> u32 {
        self.models.len() as u32
    }

    pub fn is_empty(&self) -> bool {
        self.models.is_empty()
    }

    fn hero_tough(&self) -> u32 {
        self.hero.map_or(0, |h| self.models[h].tough)
    }

    /// Hero-damage values a state can hold (0 without a hero; hero tough = dead).
    fn hp_values(&self) -> usize {
        self.hero_tough() as usize + 1
    }

    /// How many distinct states there are (for dense arrays).
    pub fn state_count(&self) -> usize {
        (self.offsets[self.models.len()] + 1) * self.hp_values()
    }

    /// A dense index for a state.
    pub fn index(&self, s: State) -> usize {
        let base = if s.k as usize >= self.models.len() { self.offsets[self.models.len()] } else { self.offsets[s.k as usize] + s.w as usize };
        base * self.hp_values() + s.hp as usize
    }

    pub fn start(&self) -> State {
        State { k: 0, w: 0, hp: 0 }
    }

    pub fn destroyed(&self, s: State) -> bool {
        s.k >= self.len()
    }

    /// Models removed in this state.
    pub fn kills(&self, s: State) -> u32 {
        let hero_dead_early = self.hero.is_some_and(|h| (s.k as usize) < h && s.hp >= self.hero_tough());
        s.k.min(self.len()) + u32::from(hero_dead_early)
    }

    /// When removal reaches the hero, the wounds it already took come with it.
    fn settle(&self, mut s: State) -> State {
        if let Some(h) = self.hero {
            if s.k as usize == h && s.hp > 0 {
                s.w = s.hp;
                s.hp = 0;
            }
        }
        while (s.k as usize) < self.models.len() && s.w >= self.models[s.k as usize].tough {
            s.k += 1;
            s.w = 0;
            if let Some(h) = self.hero {
                if s.k as usize == h && s.hp > 0 {
                    s.w = s.hp;
                    s.hp = 0;
                }
            }
        }
        if s.k >= self.len() {
            s = State { k: self.len(), w: 0, hp: 0 };
        }
        s
    }

    /// `n` wounds of `size` each (Deadly(X): size X, no carry-over; else 1) to the unit.
    pub fn apply(&self, mut s: State, n: u32, size: u32) -> State {
        if size <= 1 && s.hp == 0 && !self.destroyed(s) {
            // Wounds carry over: find where the running total of wounds lands (binary search
            // over the models' cumulative Tough). A hero's out-of-order wounds (hp) take the loop.
            let pos = self.offsets[s.k as usize] + s.w as usize + n as usize;
            let total = self.offsets[self.models.len()];
            if pos >= total {
                return State { k: self.len(), w: 0, hp: 0 };
            }
            let k = self.offsets.partition_point(|&o| o <= pos) - 1;
            return State { k: k as u32, w: (pos - self.offsets[k]) as u32, hp: 0 };
        }
        if size <= 1 {
            let mut left = n;
            while left > 0 && !self.destroyed(s) {
                let need = self.models[s.k as usize].tough - s.w;
                if left >= need {
                    left -= need;
                    s = self.settle(State { k: s.k + 1, w: 0, ..s });
                } else {
                    s.w += left;
                    left = 0;
                }
            }
            s
        } else {
            for _ in 0..n {
                if self.destroyed(s) {
                    break;
                }
                let tough = self.models[s.k as usize].tough;
                s = if s.w + size >= tough { self.settle(State { k: s.k + 1, w: 0, ..s }) } else { State { w: s.w + size, ..s } };
            }
            s
        }
    }

    /// Whether a Takedown attack picks the joined hero (out of removal order) in this state.
    /// The attacker picks the hero while it is alive and other models still stand; otherwise
    /// the model that would take wounds next (the unit's models share one profile).
    pub fn takedown_hits_hero(&self, s: State) -> bool {
        self.hero.is_some_and(|h| (s.k as usize) < h && s.hp < self.hero_tough())
    }

    /// `n` wounds of `size` each to the single model a Takedown attack picked ("resolved as
    /// if it was a unit of [1]": nothing carries over to other models).
    pub fn apply_takedown(&self, s: State, n: u32, size: u32) -> State {
        let damage = n.saturating_mul(size.max(1));
        if self.takedown_hits_hero(s) {
            State { hp: (s.hp.saturating_add(damage)).min(self.hero_tough()), ..s }
        } else if self.destroyed(s) {
            s
        } else {
            let tough = self.models[s.k as usize].tough;
            if s.w.saturating_add(damage) >= tough { self.settle(State { k: s.k + 1, w: 0, ..s }) } else { State { w: s.w + damage, ..s } }
        }
    }

    /// The alive models as a weapon group sees them (`takedown`: just the model it picks).
    pub fn view(&self, s: State, takedown: bool) -> TargetView<'_> {
        if takedown {
            let model = if self.takedown_hits_hero(s) { &self.models[self.hero.unwrap()] } else { &self.models[s.k as usize] };
            return TargetView { alive: vec![model], defense: model.defense };
        }
        let hero_dead = self.hero.is_some_and(|_| s.hp >= self.hero_tough() && self.hero_tough() > 0);
        let alive: Vec<&Model> = self.models[s.k as usize..]
            .iter()
            .enumerate()
            .filter(|(i, _)| !(hero_dead && Some(s.k as usize + i) == self.hero))
            .map(|(_, m)| m)
            .collect();
        let own_alive = alive.iter().any(|m| !(m.hero && m.group > 0));
        let defense = if own_alive { self.unit_defense } else { alive.first().map_or(self.unit_defense, |m| m.defense) };
        TargetView { alive, defense }
    }

    /// Every state, for dense iteration: `(index, state)` pairs of valid states.
    pub fn states(&self) -> Vec<State> {
        let mut out = Vec::with_capacity(self.state_count());
        let hp_max = if self.hero.is_some() { self.hero_tough() } else { 0 };
        for k in 0..self.len() {
            for w in 0..self.models[k as usize].tough {
                for hp in 0..=hp_max {
                    out.push(State { k, w, hp });
                }
            }
        }
        for hp in 0..=hp_max {
            out.push(State { k: self.len(), w: 0, hp });
        }
        out
    }
}
