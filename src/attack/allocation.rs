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
//!
//! Firefight (gf-firefight-3.2 "Wound Effects & Morale") is the other wound model: "each
//! wound kills one model, until only one last model remains. Only the last model then
//! accumulates wound markers and rolls to see if it's Stunned or Knocked Out." There `w` is
//! the last model's wound markers and `stunned` says it is Stunned.

use super::plan::{Alive, DieModel, TargetView};
use crate::edition::Edition;
use crate::error::{Error, Result};
use crate::rules::effects::{rule_set, WoundModel};
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
    /// By position (up to 1,000 models): its run, and the wounds the models before it take
    /// in all (one more entry, for the whole unit). Looked up on every landing of wounds.
    run_at: Vec<u32>,
    offset_at: Vec<usize>,
    /// Position of the joined hero (always last), if there is one.
    pub hero: Option<u32>,
    /// The unit's own Defense (used while any of its own models live).
    unit_defense: u8,
    pub wounds: WoundModel,
    /// Firefight: whether the last model (the one that takes the wound markers) has Tough(X),
    /// whose exception to "Knocked Out immediately" it gets (see `hit_while_stunned`).
    pub last_has_tough: bool,
    /// A joined hero's Tough (0 without one): read on every state lookup.
    hero_tough: u32,
    /// The number of models, the wounds they take in all, and the values a joined hero's
    /// own wounds take (Tough + 1): read on every state lookup.
    count: u32,
    total: usize,
    hp_values: usize,
}

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct State {
    pub k: u32,
    pub w: u32,
    pub hp: u32,
    /// Firefight: the last model is Stunned.
    pub stunned: bool,
}

/// Where wounds leave a unit before any die is rolled for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Landing {
    At(State),
    /// Firefight: the last model rolls for its wound effects, adding `total` to the die
    /// (see [`Allocation::checked`]).
    Check { state: State, total: u32 },
}

/// Firefight: wound markers past the last model's Tough(X) + 3 are a certain Knock Out
/// (1 + X + 4 >= 5 + X), so no state holds more.
const EXTRA_MARKERS: u32 = 3;

fn is_joined_hero(m: &Model) -> bool {
    m.hero && m.group > 0
}

impl Allocation {
    /// The default removal order: the unit's own models first (those without Tough before
    /// tough ones, lower Tough first, and among equals the most common loadout first so that
    /// special weapons are lost last), then a joined hero.
    pub fn new(unit: &Unit, edition: Edition) -> Allocation {
        let mut runs = crate::rules::effects::in_play(edition, unit.model_runs());
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
        let mut run_at = Vec::with_capacity(pos as usize);
        let mut offset_at = Vec::with_capacity(pos as usize + 1);
        for (r, (m, n)) in runs.iter().enumerate() {
            for i in 0..*n as usize {
                run_at.push(r as u32);
                offset_at.push(capacity[r] + i * m.tough as usize);
            }
        }
        offset_at.push(cap);
        let last_has_tough = runs.last().is_some_and(|(m, _)| m.rules.iter().any(|r| r.name == "Tough"));
        let hero_tough = hero.map_or(0, |h| runs[run_at[h as usize] as usize].0.tough);
        Allocation {
            runs,
            starts,
            capacity,
            run_at,
            offset_at,
            hero,
            unit_defense: unit.defense(),
            wounds: rule_set(edition).wounds,
            last_has_tough,
            hero_tough,
            count: pos,
            total: cap,
            hp_values: hero_tough as usize + 1,
        }
    }

    fn wound_effects(&self) -> bool {
        self.wounds == WoundModel::WoundEffects
    }

    /// Firefight: the position and Tough of the last model, which takes the wound markers.
    fn last(&self) -> (u32, u32) {
        let last = self.len().saturating_sub(1);
        (last, if self.is_empty() { 1 } else { self.tough_at(last) })
    }

    pub fn len(&self) -> u32 {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The run holding the model at position `k` (< len).
    fn run_of(&self, k: u32) -> usize {
        self.run_at[k as usize] as usize
    }

    pub fn model_at(&self, k: u32) -> &Model {
        &self.runs[self.run_of(k)].0
    }

    fn tough_at(&self, k: u32) -> u32 {
        self.model_at(k).tough
    }

    /// Wounds the models before position `k` take in all.
    fn offset(&self, k: u32) -> usize {
        self.offset_at[(k as usize).min(self.offset_at.len() - 1)]
    }

    fn hero_tough(&self) -> u32 {
        self.hero_tough
    }

    fn hp_values(&self) -> usize {
        self.hp_values
    }

    /// How many distinct states there are (for dense arrays).
    pub fn state_count(&self) -> usize {
        if self.wound_effects() {
            let (last, tough) = self.last();
            return last as usize + 2 * (tough + EXTRA_MARKERS + 1) as usize + 1;
        }
        (self.offset(self.len()) + 1) * self.hp_values()
    }

    /// A dense index for a state.
    pub fn index(&self, s: State) -> usize {
        if self.wound_effects() {
            let (last, tough) = self.last();
            return match s.k.cmp(&last) {
                std::cmp::Ordering::Less => s.k as usize,
                std::cmp::Ordering::Equal => last as usize + 2 * s.w as usize + usize::from(s.stunned),
                std::cmp::Ordering::Greater => last as usize + 2 * (tough + EXTRA_MARKERS + 1) as usize,
            };
        }
        let base = if s.k >= self.count { self.total } else { self.offset_at[s.k as usize] + s.w as usize };
        base * self.hp_values + s.hp as usize
    }

    pub fn start(&self) -> State {
        State::default()
    }

    fn destroyed_state(&self) -> State {
        State { k: self.len(), ..State::default() }
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
        if self.wound_effects() {
            return self.firefight_state_of(field, st);
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
        Ok(State { k: st.lost, w: st.wounds, hp: st.hero_wounds, stunned: false })
    }

    /// Firefight: wound markers and Stunned belong to the last model only.
    fn firefight_state_of(&self, field: &str, st: &UnitState) -> Result<State> {
        let (last, tough) = self.last();
        if st.hero_wounds > 0 {
            return Err(Error::invalid(format!("{field}.hero_wounds"), st.hero_wounds, "heroes never join units in Firefight"));
        }
        if st.lost < last && (st.wounds > 0 || st.shaken) {
            let what = if st.shaken { "shaken (Stunned)" } else { "wounds" };
            return Err(Error::invalid(
                format!("{field}.{}", if st.shaken { "shaken" } else { "wounds" }),
                if st.shaken { 1 } else { st.wounds },
                format!("in Firefight only the last model of a unit takes wound markers or is Stunned by them ({what} needs models_lost = {last}); a whole unit Stunned by a Rout test is not modelled"),
            ));
        }
        if st.wounds > tough + EXTRA_MARKERS {
            return Err(Error::invalid(
                format!("{field}.wounds"),
                st.wounds,
                format!("must be at most {} (Tough({tough}) + 3 markers: one more is a certain Knock Out)", tough + EXTRA_MARKERS),
            ));
        }
        Ok(State { k: st.lost, w: st.wounds, hp: 0, stunned: st.shaken })
    }

    /// The state as the caller describes it (the inverse of [`Allocation::state_of`]);
    /// `None` for a destroyed unit.
    pub fn unit_state(&self, s: State, shaken: bool, fatigued: bool) -> Option<UnitState> {
        if self.destroyed(s) {
            return None;
        }
        // Firefight: Stunned is part of the state (a wound effect), not a morale flag
        let shaken = if self.wound_effects() { s.stunned } else { shaken };
        Some(UnitState { lost: s.k, wounds: s.w, hero_wounds: s.hp, shaken, fatigued })
    }

    /// Models left in this state.
    pub fn alive(&self, s: State) -> u32 {
        self.len() - self.kills(s)
    }

    /// What decides which models are left (not the wounds on them): models gone in order,
    /// and whether a joined hero died out of order.
    pub fn alive_key(&self, s: State) -> (u32, bool) {
        (s.k.min(self.len()), self.hero.is_some() && s.hp >= self.hero_tough())
    }

    /// [`Allocation::alive_key`] as a dense index, below `2 * (len + 1)`.
    pub fn alive_index(&self, s: State) -> usize {
        let (k, hero_dead) = self.alive_key(s);
        2 * k as usize + usize::from(hero_dead)
    }

    /// A dense index of what a weapon group sees of the unit in state `s` ([`Allocation::view`]):
    /// which models are left and whether the last is Stunned, or for Takedown the state
    /// itself (the model it picks depends on a hero's wounds). Below [`Allocation::view_count`].
    pub fn view_index(&self, s: State, takedown: bool) -> usize {
        if takedown { self.index(s) } else { 2 * self.alive_index(s) + usize::from(s.stunned) }
    }

    /// The bound of [`Allocation::view_index`].
    pub fn view_count(&self, takedown: bool) -> usize {
        if takedown { self.state_count() } else { 4 * (self.len() as usize + 1) }
    }

    /// Wounds the models left in state `s` can still take (0 when destroyed): what a
    /// matchup counts as left of the unit, and the game as its points left.
    pub fn wounds_left(&self, s: State) -> u32 {
        if self.destroyed(s) {
            return 0;
        }
        let alive: u32 = self.view(s, false).alive.iter().map(|(m, n)| m.tough.saturating_mul(*n)).fold(0, u32::saturating_add);
        alive.saturating_sub(s.w.saturating_add(s.hp))
    }

    /// Expected wounds a unit that started in `start` lost, when it ended in the states
    /// `ends` with their chances (the chance missing from them is the unit removed, all of
    /// its wounds lost), and that chance of removal.
    pub fn removed(&self, start: State, ends: &[(UnitState, f64)]) -> (f64, f64) {
        let (mut left, mut p_left) = (0.0, 0.0);
        for (end, p) in ends {
            // (an engine's end state always reads back; a debug build says so loudly)
            let s = self.state_of("end", end).unwrap_or_else(|e| {
                debug_assert!(false, "an end state that does not read back: {e}");
                self.destroyed_state()
            });
            left += p * f64::from(self.wounds_left(s));
            p_left += p;
        }
        ((f64::from(self.wounds_left(start)) - left).max(0.0), (1.0 - p_left).clamp(0.0, 1.0))
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
            s = self.destroyed_state();
        }
        s
    }

    /// Wounds the unit has taken in removal order (a joined hero's own wounds apart).
    fn position(&self, s: State) -> usize {
        self.offset(s.k) + s.w as usize
    }

    /// The state after `pos` wounds in removal order, from a fresh unit (none of a joined
    /// hero's own).
    fn at_position(&self, pos: usize) -> State {
        if pos >= self.offset(self.len()) {
            return self.destroyed_state();
        }
        let r = self.capacity.partition_point(|&c| c <= pos) - 1;
        let tough = self.runs[r].0.tough as usize;
        let into = pos - self.capacity[r];
        State { k: self.starts[r] + (into / tough) as u32, w: (into % tough) as u32, ..State::default() }
    }

    /// Whether wounds of a group judged by `dm` only run down the removal order from `s`:
    /// then `land(s, n, ..)` is `At` the `n`-th state of [`Allocation::run_down`] (the
    /// commonest landing, found without its dispatch). Not for Firefight's markers, Deadly,
    /// Takedown, a hero's own wounds or a destroyed unit.
    pub fn runs_down(&self, s: State, dm: &DieModel, takedown: bool) -> bool {
        !self.wound_effects() && !takedown && dm.deadly <= 1 && s.hp == 0 && !s.stunned && !self.destroyed(s)
    }

    /// The states 0, 1, 2, ... wounds leave the unit in from `s`, where they only run down
    /// the removal order ([`Allocation::runs_down`]), each a step from the last.
    pub fn run_down(&self, s: State) -> impl Iterator<Item = State> + '_ {
        let mut next = s;
        std::iter::from_fn(move || {
            let out = next;
            if !self.destroyed(next) {
                next.w += 1;
                if next.w >= self.tough_at(next.k) {
                    next = if next.k + 1 >= self.len() { self.destroyed_state() } else { State { k: next.k + 1, w: 0, ..next } };
                }
            }
            Some(out)
        })
    }

    /// `n` wounds of `size` each (Deadly(X): size X, no carry-over; else 1) to the unit.
    pub fn apply(&self, mut s: State, n: u32, size: u32) -> State {
        if self.destroyed(s) {
            return s;
        }
        if size <= 1 && s.hp == 0 {
            // Wounds carry over: find where the running total of wounds lands.
            return self.at_position(self.position(s) + n as usize);
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

    /// Where the `n` wounds a group judged by `dm` dealt leave the unit, before any die is
    /// rolled for their effects. Grimdark Future: removal (see [`Allocation::wound`]).
    /// Firefight: "each wound kills one model, until only one last model remains"; the last
    /// takes the rest as markers (Deadly(X): X each) and, once it has at least its Tough(X)
    /// (Fear adds to the count), rolls for its wound effects.
    pub fn land(&self, s: State, n: u32, dm: &DieModel, takedown: bool) -> Landing {
        if !self.wound_effects() {
            return Landing::At(self.wound(s, n, dm.deadly, takedown));
        }
        if n == 0 || self.destroyed(s) {
            return Landing::At(s);
        }
        let (last, tough) = self.last();
        if dm.unblockable {
            return self.hit_while_stunned(s, n, u32::from(dm.check_bonus));
        }
        let kills = n.min(last - s.k.min(last));
        let k = s.k + kills;
        let rest = n - kills;
        if rest == 0 {
            return Landing::At(State { k, ..s });
        }
        let w = s.w.saturating_add(rest.saturating_mul(dm.deadly.max(1)));
        self.markers(State { k, w, hp: 0, stunned: s.stunned }, u32::from(dm.check_bonus), tough)
    }

    /// The last model with new markers: "Tough(X) only roll to check wound effects once they
    /// have taken at least X wound"; a roll that cannot fail to Knock Out is settled now.
    fn markers(&self, s: State, bonus: u32, tough: u32) -> Landing {
        let total = s.w.saturating_add(bonus);
        if total < tough {
            Landing::At(s)
        } else if total >= tough + EXTRA_MARKERS + 1 {
            Landing::At(self.destroyed_state())
        } else {
            Landing::Check { state: s, total }
        }
    }

    /// Firefight: "If Stunned models take any hits from shooting, or are charged again, then
    /// they are Knocked Out immediately"; Tough(X): "they take one wound instead of being
    /// Knocked Out, unless they already have X or more wounds". So `n` such hits Knock Out a
    /// model without Tough, or a Tough one that would pass X markers; otherwise each is a
    /// marker, checked as usual.
    pub fn hit_while_stunned(&self, s: State, n: u32, bonus: u32) -> Landing {
        let (_, tough) = self.last();
        if !s.stunned || self.destroyed(s) || n == 0 {
            return Landing::At(s);
        }
        // the exception is Tough(X)'s ("Models with this special rule"): without it, a model
        // with one wound is not Tough(1) here but Knocked Out
        if !self.last_has_tough {
            return Landing::At(self.destroyed_state());
        }
        let w = s.w.saturating_add(n);
        if w > tough {
            return Landing::At(self.destroyed_state());
        }
        self.markers(State { w, ..s }, bonus, tough)
    }

    /// Firefight's wound-effect roll: "roll one die and add the number of wound markers to it
    /// ... 2-5: Stunned, 6+: Knocked Out"; Tough(X) is "only Knocked Out on rolls of 5+X or more".
    pub fn checked(&self, state: State, total: u32, face: u8) -> State {
        let (_, tough) = self.last();
        if u32::from(face) + total >= 5 + tough {
            self.destroyed_state()
        } else {
            State { stunned: true, ..state }
        }
    }

    /// The state a landing leads to with a real die (`d6` is rolled only for a check).
    pub fn roll(&self, landing: Landing, d6: impl FnOnce() -> u8) -> State {
        match landing {
            Landing::At(s) => s,
            Landing::Check { state, total } => self.checked(state, total, d6()),
        }
    }

    /// Every state a landing leads to, with its probability (a check: each die face 1/6).
    pub fn landings(&self, landing: Landing, mut f: impl FnMut(State, f64)) {
        match landing {
            Landing::At(s) => f(s, 1.0),
            Landing::Check { state, total } => {
                for face in 1..=6u8 {
                    f(self.checked(state, total, face), 1.0 / 6.0);
                }
            }
        }
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
            return TargetView { alive: smallvec::smallvec![(model, 1)], defense: model.defense, stunned: s.stunned };
        }
        let hero_dead = self.hero.is_some() && s.hp >= self.hero_tough();
        let mut alive = Alive::new();
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
        TargetView { alive, defense, stunned: s.stunned }
    }

    /// Every valid state, for dense iteration (in index order).
    pub fn states(&self) -> Vec<State> {
        let mut out = Vec::with_capacity(self.state_count());
        if self.wound_effects() {
            let (last, tough) = self.last();
            out.extend((0..last).map(|k| State { k, ..State::default() }));
            for w in 0..=tough + EXTRA_MARKERS {
                for stunned in [false, true] {
                    out.push(State { k: last, w, hp: 0, stunned });
                }
            }
            out.push(self.destroyed_state());
            return out;
        }
        let hp_max = self.hero.map_or(0, |_| self.hero_tough());
        for (r, (m, n)) in self.runs.iter().enumerate() {
            for k in self.starts[r]..self.starts[r] + n {
                for w in 0..m.tough {
                    for hp in 0..=hp_max {
                        out.push(State { k, w, hp, stunned: false });
                    }
                }
            }
        }
        for hp in 0..=hp_max {
            out.push(State { k: self.len(), w: 0, hp, stunned: false });
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn running_down_the_removal_order_is_landing_each_number_of_wounds() {
        let v = Edition::V3_5;
        let squad = Unit::parse("Squad [6] Q4+ D4+\n6x Hand Weapon (A1)", v).unwrap();
        let mixed = Unit::parse("Mixed [4] Q4+ D4+ | Tough(3)\n4x Hand Weapon (A1)", v).unwrap();
        let captain = Unit::parse("Captain [1] Q3+ D4+ | Hero, Tough(3)\nHand Weapon (A2)", v).unwrap();
        let plain = DieModel::plain(4, 4, 7);
        for unit in [squad.clone(), mixed, squad.join(&captain, v).unwrap()] {
            let alloc = Allocation::new(&unit, v);
            let total = alloc.offset(alloc.len()) as u32;
            let mut checked = 0;
            for s in alloc.states() {
                if !alloc.runs_down(s, &plain, false) {
                    continue;
                }
                for (n, end) in alloc.run_down(s).take(total as usize + 3).enumerate() {
                    assert_eq!(Landing::At(end), alloc.land(s, n as u32, &plain, false), "{} from {s:?}, {n} wounds", unit.name());
                    checked += 1;
                }
            }
            assert!(checked > 3 * total, "{}: {checked}", unit.name());
        }
        // the cases it leaves to `land`
        let alloc = Allocation::new(&squad, v);
        assert!(!alloc.runs_down(State::default(), &DieModel { deadly: 3, ..plain }, false));
        assert!(!alloc.runs_down(State::default(), &plain, true));
        assert!(!Allocation::new(&squad, Edition::Firefight3_2).runs_down(State::default(), &plain, false));
    }

    /// States with the same view index look the same to a weapon group (the die models of
    /// the melee's plans are kept by it).
    #[test]
    fn states_of_one_view_index_show_the_same_models() {
        let captain = |v| Unit::parse("Captain [1] Q3+ D4+ | Hero, Tough(3)\nHand Weapon (A2)", v).unwrap();
        for v in Edition::ALL {
            let squad = Unit::parse("Squad [4] Q4+ D5+ | Tough(2)\n4x Hand Weapon (A1)", v).unwrap();
            // (Firefight's heroes join no unit)
            for unit in std::iter::once(squad.clone()).chain(squad.join(&captain(v), v).ok()) {
                let alloc = Allocation::new(&unit, v);
                for takedown in [false, true] {
                    let mut seen: Vec<Option<(Vec<(String, u32)>, u8, bool)>> = vec![None; alloc.view_count(takedown)];
                    // (groups strike units still on the table)
                    for s in alloc.states().into_iter().filter(|s| !alloc.destroyed(*s)) {
                        let view = alloc.view(s, takedown);
                        let shown = (view.alive.iter().map(|(m, n)| (format!("{m:?}"), *n)).collect(), view.defense, view.stunned);
                        let slot = &mut seen[alloc.view_index(s, takedown)];
                        assert_eq!(slot.get_or_insert_with(|| shown.clone()), &shown, "{v:?} {} {s:?}", unit.name());
                    }
                }
            }
        }
    }
}
