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
//! Identical models form runs, so the work depends on the kinds of model, not their number.

use super::plan::TargetView;
use crate::error::{Error, Result};
use crate::profile::{Model, Unit};
use crate::state::UnitState;

/// The target's models in the order the defender removes them, as runs of identical models.
#[derive(Debug, Clone)]
pub struct Allocation {
    /// `(model, how many)` in removal order; a joined hero is the last run, of one.
    pub runs: Vec<(Model, u32)>,
    /// `starts[r]`: position of the first model of run `r` (and the model count at the end).
    starts: Vec<u32>,
    /// `capacity[r]`: wounds the models before run `r` take in all (Σ count × Tough).
    capacity: Vec<usize>,
    /// Position of the joined hero (always last), if there is one.
    pub hero: Option<u32>,
    /// The unit's own Defense (used while any of its own models live).
    unit_defense: u8,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    pub k: u32,
    pub w: u32,
    pub hp: u32,
}

fn is_joined_hero(m: &Model) -> bool {
    m.hero && m.group > 0
}

impl Allocation {
    /// The default removal order: the unit's own models first (those without Tough before
    /// tough ones, lower Tough first, and among equals the most common loadout first so that
    /// special weapons are lost last), then a joined hero.
    pub fn new(unit: &Unit) -> Allocation {
        let mut runs = unit.model_runs();
        runs.sort_by_key(|(m, n)| (is_joined_hero(m), m.tough, std::cmp::Reverse(*n)));
        let mut starts = Vec::with_capacity(runs.len() + 1);
        let mut capacity = Vec::with_capacity(runs.len() + 1);
        let (mut pos, mut cap) = (0u32, 0usize);
        for (m, n) in &runs {
            starts.push(pos);
            capacity.push(cap);
            pos += n;
            cap += *n as usize * m.tough as usize;
        }
        starts.push(pos);
        capacity.push(cap);
        let hero = runs.last().filter(|(m, _)| is_joined_hero(m)).map(|_| pos - 1);
        Allocation { runs, starts, capacity, hero, unit_defense: unit.defense() }
    }

    pub fn len(&self) -> u32 {
        *self.starts.last().unwrap_or(&0)
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The run holding the model at position `k` (< len).
    fn run_of(&self, k: u32) -> usize {
        self.starts.partition_point(|&s| s <= k) - 1
    }

    pub fn model_at(&self, k: u32) -> &Model {
        &self.runs[self.run_of(k)].0
    }

    fn tough_at(&self, k: u32) -> u32 {
        self.model_at(k).tough
    }

    /// Wounds the models before position `k` take in all.
    fn offset(&self, k: u32) -> usize {
        if k >= self.len() {
            return *self.capacity.last().unwrap_or(&0);
        }
        let r = self.run_of(k);
        self.capacity[r] + (k - self.starts[r]) as usize * self.runs[r].0.tough as usize
    }

    fn hero_tough(&self) -> u32 {
        self.hero.map_or(0, |h| self.tough_at(h))
    }

    fn hp_values(&self) -> usize {
        self.hero_tough() as usize + 1
    }

    /// How many distinct states there are (for dense arrays).
    pub fn state_count(&self) -> usize {
        (self.offset(self.len()) + 1) * self.hp_values()
    }

    /// A dense index for a state.
    pub fn index(&self, s: State) -> usize {
        let base = if s.k >= self.len() { self.offset(self.len()) } else { self.offset(s.k) + s.w as usize };
        base * self.hp_values() + s.hp as usize
    }

    pub fn start(&self) -> State {
        State { k: 0, w: 0, hp: 0 }
    }

    /// The state of a unit that already lost `lost` models (in removal order) and has `wounds`
    /// on the next one. `field` names the argument in errors.
    pub fn state_of(&self, field: &str, st: &UnitState) -> Result<State> {
        if st.lost >= self.len() {
            return Err(Error::invalid(
                format!("{field}.models_lost"),
                st.lost,
                format!("must be less than the unit's {} models (a unit with none left is not on the table)", self.len()),
            ));
        }
        let tough = self.tough_at(st.lost);
        if st.wounds >= tough {
            return Err(Error::invalid(
                format!("{field}.wounds"),
                st.wounds,
                format!("must be less than the Tough({tough}) of the next model to be removed"),
            ));
        }
        if st.hero_wounds > 0 {
            match self.hero {
                Some(h) if st.lost < h && st.hero_wounds <= self.hero_tough() => {}
                Some(_) => {
                    return Err(Error::invalid(
                        format!("{field}.hero_wounds"),
                        st.hero_wounds,
                        format!(
                            "must be at most the hero's Tough({}) (its Tough: the hero is dead), and only while other models are left (after that, use wounds)",
                            self.hero_tough()
                        ),
                    ))
                }
                None => return Err(Error::invalid(format!("{field}.hero_wounds"), st.hero_wounds, "the unit has no joined hero")),
            }
        }
        Ok(State { k: st.lost, w: st.wounds, hp: st.hero_wounds })
    }

    /// The state as the caller describes it (the inverse of [`Allocation::state_of`]);
    /// `None` for a destroyed unit.
    pub fn unit_state(&self, s: State, shaken: bool, fatigued: bool) -> Option<UnitState> {
        if self.destroyed(s) {
            return None;
        }
        Some(UnitState { lost: s.k, wounds: s.w, hero_wounds: s.hp, shaken, fatigued })
    }

    /// Models left in this state.
    pub fn alive(&self, s: State) -> u32 {
        self.len() - self.kills(s)
    }

    /// What decides which kinds of model are left (not how many of each): the first run
    /// with models left, and whether a joined hero died out of order.
    pub fn alive_kinds(&self, s: State) -> (usize, bool) {
        let first = if self.destroyed(s) { self.runs.len() } else { self.run_of(s.k) };
        (first, self.hero.is_some() && s.hp >= self.hero_tough())
    }

    /// What decides which models are left (not the wounds on them): models gone in order,
    /// and whether a joined hero died out of order.
    pub fn alive_key(&self, s: State) -> (u32, bool) {
        (s.k.min(self.len()), self.hero.is_some() && s.hp >= self.hero_tough())
    }

    pub fn destroyed(&self, s: State) -> bool {
        s.k >= self.len()
    }

    /// Models removed in this state.
    pub fn kills(&self, s: State) -> u32 {
        let hero_dead_early = self.hero.is_some_and(|h| s.k < h && s.hp >= self.hero_tough());
        s.k.min(self.len()) + u32::from(hero_dead_early)
    }

    /// When removal reaches the hero, the wounds it already took come with it.
    fn settle(&self, mut s: State) -> State {
        loop {
            if self.hero == Some(s.k) && s.hp > 0 {
                s.w = s.hp;
                s.hp = 0;
            }
            if s.k < self.len() && s.w >= self.tough_at(s.k) {
                s.k += 1;
                s.w = 0;
                continue;
            }
            break;
        }
        if s.k >= self.len() {
            s = State { k: self.len(), w: 0, hp: 0 };
        }
        s
    }

    /// `n` wounds of `size` each (Deadly(X): size X, no carry-over; else 1) to the unit.
    pub fn apply(&self, mut s: State, n: u32, size: u32) -> State {
        if self.destroyed(s) {
            return s;
        }
        if size <= 1 && s.hp == 0 {
            // Wounds carry over: find where the running total of wounds lands.
            let pos = self.offset(s.k) + s.w as usize + n as usize;
            if pos >= self.offset(self.len()) {
                return State { k: self.len(), w: 0, hp: 0 };
            }
            let r = self.capacity.partition_point(|&c| c <= pos) - 1;
            let tough = self.runs[r].0.tough as usize;
            let into = pos - self.capacity[r];
            return State { k: self.starts[r] + (into / tough) as u32, w: (into % tough) as u32, hp: 0 };
        }
        if size <= 1 {
            let mut left = n;
            while left > 0 && !self.destroyed(s) {
                let need = self.tough_at(s.k) - s.w;
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
                let tough = self.tough_at(s.k);
                s = if s.w + size >= tough { self.settle(State { k: s.k + 1, w: 0, ..s }) } else { State { w: s.w + size, ..s } };
            }
            s
        }
    }

    /// `n` wounds of `size` each from a weapon group: to the model a Takedown attack picked,
    /// else to the unit in removal order.
    pub fn wound(&self, s: State, n: u32, size: u32, takedown: bool) -> State {
        if takedown { self.apply_takedown(s, n, size) } else { self.apply(s, n, size) }
    }

    /// Whether a Takedown attack picks the joined hero (out of removal order) in this state.
    /// The attacker picks the hero while it is alive and other models still stand; otherwise
    /// the model that would take wounds next (the unit's models share one profile).
    pub fn takedown_hits_hero(&self, s: State) -> bool {
        self.hero.is_some_and(|h| s.k < h && s.hp < self.hero_tough())
    }

    /// `n` wounds of `size` each to the single model a Takedown attack picked ("resolved as
    /// if it was a unit of [1]": nothing carries over to other models).
    pub fn apply_takedown(&self, s: State, n: u32, size: u32) -> State {
        let damage = n.saturating_mul(size.max(1));
        if self.takedown_hits_hero(s) {
            State { hp: s.hp.saturating_add(damage).min(self.hero_tough()), ..s }
        } else if self.destroyed(s) {
            s
        } else if s.w.saturating_add(damage) >= self.tough_at(s.k) {
            self.settle(State { k: s.k + 1, w: 0, ..s })
        } else {
            State { w: s.w + damage, ..s }
        }
    }

    /// The alive models as a weapon group sees them (`takedown`: just the model it picks).
    pub fn view(&self, s: State, takedown: bool) -> TargetView<'_> {
        if takedown {
            let k = if self.takedown_hits_hero(s) { self.hero.unwrap() } else { s.k };
            let model = self.model_at(k);
            return TargetView { alive: vec![(model, 1)], defense: model.defense };
        }
        let hero_dead = self.hero.is_some() && s.hp >= self.hero_tough();
        let mut alive: Vec<(&Model, u32)> = Vec::new();
        if !self.destroyed(s) {
            let first = self.run_of(s.k);
            for (r, (m, n)) in self.runs.iter().enumerate().skip(first) {
                let count = if r == first { self.starts[r] + n - s.k } else { *n };
                if hero_dead && is_joined_hero(m) {
                    continue;
                }
                alive.push((m, count));
            }
        }
        let own_alive = alive.iter().any(|(m, _)| !is_joined_hero(m));
        let defense = if own_alive { self.unit_defense } else { alive.first().map_or(self.unit_defense, |(m, _)| m.defense) };
        TargetView { alive, defense }
    }

    /// Every valid state, for dense iteration.
    pub fn states(&self) -> Vec<State> {
        let mut out = Vec::with_capacity(self.state_count());
        let hp_max = self.hero.map_or(0, |_| self.hero_tough());
        for (r, (m, n)) in self.runs.iter().enumerate() {
            for k in self.starts[r]..self.starts[r] + n {
                for w in 0..m.tough {
                    for hp in 0..=hp_max {
                        out.push(State { k, w, hp });
                    }
                }
            }
        }
        for hp in 0..=hp_max {
            out.push(State { k: self.len(), w: 0, hp });
        }
        out
    }
}
