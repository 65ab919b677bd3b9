//! A charge and its melee, as gf-3.5 "Melee" and "Melee Resolution & Morale" describe it:
//!
//! 1. the defender's Counter weapons strike first ("Strikes first with this weapon when charged");
//! 2. the charger strikes with the models left, rolling Impact dice ("Roll X dice when
//!    attacking after charging, unless fatigued"), less one per Counter model;
//! 3. the defender strikes back with the models that survived and its other weapons;
//! 4. melee resolution: wounds each side caused plus Fear; the side with fewer loses and takes
//!    a morale test ("a destroyed unit always loses"); a failed test at half strength or less
//!    Routs, otherwise the unit is Shaken.
//!
//! The exact engine (`exact`) and the sampler (`sample`) walk the same steps through the same
//! [`Melee`] methods and the attack engines' transitions, so they cannot drift apart.

pub mod exact;
pub mod outcome;
pub mod sample;

use crate::attack::allocation::{Allocation, Landing, State};
use crate::attack::plan::{self, die_model, DieModel, Group, Pick, Recipe, Situation};
use crate::attack::sample::{Faces, FacesTable};
use crate::attack::exact::{group_expected_wounds, WoundCache};
use crate::attack::{budget, check_situation, options, MAX_EXACT_DICE};
use crate::limits::MAX_EXACT_MELEE_WORK;
use crate::edition::Edition;
use crate::error::{Error, Result};
use crate::morale::{self, Failure, MoraleTest};
use crate::profile::Unit;
use crate::rules::census::Engine;
use crate::rules::effects::{own_effects, rule_set, Effect, Settle};
use crate::state::UnitState;
use std::rc::Rc;

/// The exact engine refuses melees whose pairs of unit states exceed this (300 one-wound
/// models against 300 Tough(3) ones, about 270,000 pairs, take some 10 s; real units are
/// far below: 20 models, or one Tough(24) model). Pairs × hits is held to
/// `limits::MAX_EXACT_MELEE_WORK` too, since many dice make each pair dear.
pub const MAX_EXACT_STATE_PAIRS: u64 = 250_000;

/// A phase's weapon groups from the fresh start, with its situation and its target's removal
/// order and start (`Melee::phase_groups`).
type PhaseGroupsAt<'m> = (Phase, Vec<Group>, Situation, &'m Allocation, State);

/// The steps of a melee in which dice are rolled.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The defender's weapons with Counter, before the charger strikes.
    Counter = 0,
    /// The charger's weapons and Impact dice.
    Charge = 1,
    /// The defender's other weapons, with its survivors.
    StrikeBack = 2,
}

impl Phase {
    /// Which side rolls the dice of this step, for messages.
    fn side(self) -> &'static str {
        if self == Phase::Charge { "charger" } else { "defender" }
    }
}

/// Who won the melee.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Winner {
    Charger = 0,
    Defender = 1,
    Tie = 2,
}

/// How a unit ends the melee. Exactly one holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    Destroyed = 0,
    Routed = 1,
    Shaken = 2,
    Unaffected = 3,
}

/// A charge of one unit into another, ready to compute.
#[derive(Debug, Clone)]
pub struct Melee {
    pub charger: Allocation,
    pub defender: Allocation,
    pub charger_start: State,
    pub defender_start: State,
    pub charger_before: UnitState,
    pub defender_before: UnitState,
    /// Whether the defender strikes (Counter weapons first, then the rest).
    pub strike_back: bool,
    /// The charge distance (decides rules such as Sturdy: "charged from over 9"").
    pub distance: f64,
    pub edition: Edition,
    /// Rules in play that the engines do not model.
    pub unmodelled: Vec<String>,
    /// The options the charger and the defender settled on for their rules with options.
    pub options: [u8; 2],
}

impl Melee {
    pub fn new(
        charger: &Unit,
        defender: &Unit,
        charger_state: &UnitState,
        defender_state: &UnitState,
        strike_back: bool,
        distance: f64,
        edition: Edition,
    ) -> Result<Melee> {
        Melee::with_orders(Allocation::new(charger, edition), Allocation::new(defender, edition), charger_state, defender_state, strike_back, distance, edition, false)
    }

    /// [`Melee::new`] from the units' removal orders, already built (a table builds each
    /// unit's once), with the same checks; and [`Melee::check_exact`]'s if `check_exact`
    /// (from the same planning of its phases).
    #[allow(clippy::too_many_arguments)]
    pub fn with_orders(
        charger_order: Allocation,
        defender_order: Allocation,
        charger_state: &UnitState,
        defender_state: &UnitState,
        strike_back: bool,
        distance: f64,
        edition: Edition,
        check_exact: bool,
    ) -> Result<Melee> {
        let probe = Situation::new(edition, true, distance);
        check_situation(&probe)?;
        if charger_state.shaken {
            let state = rule_set(edition).failed_state;
            return Err(Error::invalid("charger_state.shaken", true, format!("{state} units must stay idle and cannot charge")));
        }
        let mut m = Melee::from_allocations(charger_order, defender_order, charger_state, defender_state, strike_back, distance, edition)?;
        m.unmodelled = plan::unmodelled_rules(&m.charger.runs, &m.defender.runs, edition, Engine::Melee);
        let phases = m.phase_groups();
        for (phase, groups, ..) in &phases {
            let dice = groups.iter().map(|g| u64::from(g.dice)).fold(0u64, u64::saturating_add);
            if dice > MAX_EXACT_DICE {
                return Err(Error::limit(format!("{} melee dice", phase.side()), dice, MAX_EXACT_DICE));
            }
        }
        if check_exact {
            m.exact_work_of(&phases)?;
        }
        drop(phases);
        Ok(m)
    }

    /// A melee between units whose removal orders are already built (a game builds them
    /// once); no limit on dice, which only the exact engine needs, and no list of unmodelled
    /// rules (`new` makes it).
    pub fn from_allocations(
        charger_order: Allocation,
        defender_order: Allocation,
        charger_state: &UnitState,
        defender_state: &UnitState,
        strike_back: bool,
        distance: f64,
        edition: Edition,
    ) -> Result<Melee> {
        let charger_start = charger_order.state_of("charger_state", charger_state)?;
        let defender_start = defender_order.state_of("defender_state", defender_state)?;
        let m = Melee {
            unmodelled: Vec::new(),
            options: [0, 0],
            charger: charger_order,
            defender: defender_order,
            charger_start,
            defender_start,
            charger_before: *charger_state,
            defender_before: *defender_state,
            strike_back,
            distance,
            edition,
        };
        Ok(m)
    }

    /// Refuses a melee too big for the exact engine (the sampler takes any).
    pub fn check_exact(&self) -> Result<()> {
        self.exact_work().map(|_| ())
    }

    /// The exact engine's work on this melee (state pairs × hits of all its steps), or why
    /// it is refused ([`Melee::check_exact`]).
    pub fn exact_work(&self) -> Result<u64> {
        self.exact_work_of(&self.phase_groups())
    }

    /// What the melee costs each engine, from one building of its phase groups: the exact
    /// engine's work (or why it is refused) and the hits of one sampled exchange.
    pub fn costs(&self) -> (Result<u64>, u64) {
        let phases = self.phase_groups();
        (self.exact_work_of(&phases), Self::hits_of(&phases))
    }

    fn exact_work_of(&self, phases: &[PhaseGroupsAt<'_>]) -> Result<u64> {
        budget::check_states("charger", self.charger.state_count() as u64)?;
        budget::check_states("defender", self.defender.state_count() as u64)?;
        let pairs = (self.charger.state_count() as u64).saturating_mul(self.defender.state_count() as u64);
        if pairs > MAX_EXACT_STATE_PAIRS {
            return Err(Error::limit(
                "exact melee state pairs (wounds the charger can take × wounds the defender can take; use method=\"sample\")",
                pairs,
                MAX_EXACT_STATE_PAIRS,
            ));
        }
        let mut hits = 0u64;
        for (phase, groups, situation, target, start) in phases {
            let states = target.state_count() as u64;
            let dms = groups.iter().map(|g| (g, die_model(g, situation, &target.view(*start, g.takedown))));
            let b = budget::of_groups(dms, false, false, states);
            b.check(&format!("{} melee", phase.side()))?;
            hits = hits.saturating_add(b.hits);
        }
        // every pair of states carries distributions as long as the hits, and each step
        // convolves them with the next step's: what the exact melee's time grows with
        let work = pairs.saturating_mul(hits.max(1));
        if work > MAX_EXACT_MELEE_WORK {
            return Err(Error::limit("exact melee state pairs × hits of all its steps (use method=\"sample\")", work, MAX_EXACT_MELEE_WORK));
        }
        Ok(work)
    }

    /// Each phase's weapon groups from the fresh start, with its situation and its target's
    /// removal order and start.
    fn phase_groups(&self) -> Vec<PhaseGroupsAt<'_>> {
        [Phase::Charge, Phase::Counter, Phase::StrikeBack]
            .into_iter()
            .map(|phase| {
                let (attacker, target) = if phase == Phase::Charge { (self.charger_start, self.defender_start) } else { (self.defender_start, self.charger_start) };
                let (_, t) = self.sides(phase);
                (phase, self.groups(phase, attacker, target), self.situation(phase), t, target)
            })
            .collect()
    }

    /// The most hits one sampled exchange can produce (dice after multipliers).
    pub fn hits_per_sample(&self) -> u64 {
        Self::hits_of(&self.phase_groups())
    }

    fn hits_of(phases: &[PhaseGroupsAt<'_>]) -> u64 {
        phases
            .iter()
            .flat_map(|(_, groups, situation, target, start)| {
                groups.iter().map(move |g| u64::from(g.dice).saturating_mul(die_model(g, situation, &target.view(*start, g.takedown)).max_hits().max(1)))
            })
            .fold(0u64, u64::saturating_add)
    }

    /// Every way this melee is played by the options the units' rules settle on (Versatile
    /// Attack, Unpredictable Fighter, Versatile Defense), each with its weight: a side that
    /// rolls plays each option equally often; a side that picks takes the option with the
    /// most expected wounds dealt less wounds taken in the charge and the strike back (the
    /// other side at its first option). One entry when neither side has options.
    pub fn variants(&self) -> Vec<(Melee, f64)> {
        let charger = options::options_of(self.edition, &self.charger.view(self.charger_start, false).alive);
        let defender = options::options_of(self.edition, &self.defender.view(self.defender_start, false).alive);
        if charger.is_none() && defender.is_none() {
            return vec![(self.clone(), 1.0)];
        }
        let with = |options: [u8; 2]| Melee { options, ..self.clone() };
        let expected = |m: &Melee, phase: Phase| {
            let (a, t) = m.sides(phase);
            let (sa, st) = if phase == Phase::Charge { (m.charger_start, m.defender_start) } else { (m.defender_start, m.charger_start) };
            let situation = m.situation(phase);
            m.groups(phase, sa, st).iter().map(|g| group_expected_wounds(g, &situation, t, st)).sum::<f64>() * f64::from(u8::from(!a.destroyed(sa)))
        };
        let net = |side: usize, option: u8| {
            let mut options = [0, 0];
            options[side] = option;
            let m = with(options);
            let by_charger = expected(&m, Phase::Charge);
            let by_defender = if m.strike_back { expected(&m, Phase::Counter) + expected(&m, Phase::StrikeBack) } else { 0.0 };
            if side == 0 { by_charger - by_defender } else { by_defender - by_charger }
        };
        let choices = |side: usize, rule: Option<(u8, Settle)>| -> Vec<(u8, f64)> {
            match rule {
                None => vec![(0, 1.0)],
                Some((n, Settle::Roll)) => (0..n).map(|i| (i, 1.0 / f64::from(n))).collect(),
                Some((n, Settle::Best)) => {
                    let best = (0..n).map(|i| (i, net(side, i))).fold((0, f64::NEG_INFINITY), |b, x| if x.1 > b.1 { x } else { b }).0;
                    vec![(best, 1.0)]
                }
            }
        };
        let mut out = Vec::new();
        for (i, wi) in choices(0, charger) {
            for (j, wj) in choices(1, defender) {
                out.push((with([i, j]), wi * wj));
            }
        }
        out
    }

    /// The situation of a phase's attack. The defender strikes as fatigued when it already
    /// fought this round or is Shaken ("may strike back counting as fatigued"); the Counter
    /// strike and the strike back are one strike back, split in two, so the first does not
    /// fatigue the second.
    pub fn situation(&self, phase: Phase) -> Situation {
        let base = Situation { charging: false, ..Situation::new(self.edition, true, 0.0) };
        let [charger, defender] = self.options;
        match phase {
            Phase::Charge => Situation { distance: self.distance, charging: true, fatigued: self.charger_before.fatigued, attacker_option: charger, target_option: defender, ..base },
            Phase::Counter | Phase::StrikeBack => Situation {
                fatigued: self.defender_before.fatigued || self.defender_before.shaken,
                attacker_option: defender,
                target_option: charger,
                ..base
            },
        }
    }

    /// The attacking and the attacked unit of a phase.
    pub fn sides(&self, phase: Phase) -> (&Allocation, &Allocation) {
        match phase {
            Phase::Charge => (&self.charger, &self.defender),
            Phase::Counter | Phase::StrikeBack => (&self.defender, &self.charger),
        }
    }

    /// The weapon groups a phase's attacker strikes with, from its models left in `attacker`
    /// against the target's models left in `target` (which decide Counter's Impact reduction).
    pub fn groups(&self, phase: Phase, attacker: State, target: State) -> Vec<Group> {
        let (a, t) = self.sides(phase);
        plan::unlabelled_groups(&a.view(attacker, false).alive, &t.view(target, false).alive, &self.situation(phase), Self::pick(phase))
    }

    /// [`Melee::groups`] with the recipe for the same models in other numbers.
    fn groups_and_recipe(&self, phase: Phase, attacker: State, target: State) -> (Vec<Group>, Recipe) {
        let (a, t) = self.sides(phase);
        plan::unlabelled_groups_and_recipe(&a.view(attacker, false).alive, &t.view(target, false).alive, &self.situation(phase), Self::pick(phase))
    }

    /// The weapons a phase strikes with.
    fn pick(phase: Phase) -> Pick<'static> {
        match phase {
            Phase::Charge => Pick::All,
            Phase::Counter => Pick::StrikingFirst(true),
            Phase::StrikeBack => Pick::StrikingFirst(false),
        }
    }

    /// Firefight: "If Stunned models ... are charged again, then they are Knocked Out
    /// immediately" (Tough: one wound instead): where the charge leaves the defender before
    /// any blow. Elsewhere, and for a defender that is not Stunned, nowhere new.
    pub fn charged(&self) -> Landing {
        self.defender.hit_while_stunned(self.defender_start, 1, 0)
    }

    /// Whether the defender in `d` strikes (Counter first, then back): when asked to, and in
    /// Firefight not while Stunned ("Whilst Stunned, models can't strike back").
    pub fn strikes_back(&self, d: State) -> bool {
        self.strike_back && !d.stunned && !self.defender.destroyed(d)
    }

    /// What Fear adds to a side at melee resolution, with its models left in `s`. v3.x: "This
    /// model counts as having dealt +X wounds when checking who won melee", model by model;
    /// v2: "+D3 wounds", once for the unit.
    pub fn fear(&self, alloc: &Allocation, s: State) -> Fear {
        let mut fear = Fear::default();
        for own in own_effects(self.edition, &alloc.view(s, false).alive) {
            match own.effect {
                Effect::ResolutionWounds(_) => fear.fixed += own.rating * i64::from(own.models),
                Effect::ResolutionWoundsRolled(sides) => {
                    fear.dice += 1;
                    fear.sides = sides;
                }
                _ => {}
            }
        }
        fear
    }

    /// "Sum the total number of wounds that each unit caused, and compare the two", with Fear;
    /// "units that are destroyed in melee always count as having lost". `margin` is wounds
    /// caused by the charger less wounds caused by the defender; `fear_margin` is the
    /// charger's Fear less the defender's. Firefight resolves no melee: always a tie, no test.
    pub fn winner(&self, c: State, d: State, margin: i64, fear_margin: i64) -> Winner {
        if !rule_set(self.edition).melee_resolution {
            return Winner::Tie;
        }
        if self.defender.destroyed(d) {
            return Winner::Charger;
        }
        if self.charger.destroyed(c) {
            return Winner::Defender;
        }
        let total = margin + fear_margin;
        match total.signum() {
            1 => Winner::Charger,
            -1 => Winner::Defender,
            _ => Winner::Tie,
        }
    }

    /// The melee morale test of the loser in state `s`.
    pub fn morale_test(&self, loser: Winner, s: State) -> MoraleTest {
        let (alloc, before) = self.side(loser);
        MoraleTest::new(alloc, s, before.shaken, self.edition)
    }

    /// A side's allocation and state before the melee (`Winner::Charger` or `Defender`).
    pub fn side(&self, who: Winner) -> (&Allocation, &UnitState) {
        match who {
            Winner::Defender => (&self.defender, &self.defender_before),
            _ => (&self.charger, &self.charger_before),
        }
    }

    /// A side's status unless it fails a morale test: destroyed, still Shaken (Firefight:
    /// Stunned by wound effects), or unaffected.
    fn status_without_failure(&self, who: Winner, s: State) -> Status {
        let (alloc, before) = self.side(who);
        match alloc.unit_state(s, before.shaken, false) {
            None => Status::Destroyed,
            Some(u) if u.shaken => Status::Shaken,
            Some(_) => Status::Unaffected,
        }
    }

    /// Each side's status once the melee is over: the loser's morale test `failed` or not
    /// (ignored when no loser tests).
    pub fn statuses(&self, c: State, d: State, winner: Winner, failed: bool) -> [Status; 2] {
        self.statuses_from(self.statuses_without_failure(c, d), c, d, winner, failed)
    }

    /// Each side's status in `c` and `d` unless a morale test fails (the exact engine reads
    /// it once for each pair of end states, then [`Melee::statuses_from`] for each result).
    pub fn statuses_without_failure(&self, c: State, d: State) -> [Status; 2] {
        [self.status_without_failure(Winner::Charger, c), self.status_without_failure(Winner::Defender, d)]
    }

    /// [`Melee::statuses`] from [`Melee::statuses_without_failure`]'s `unless_failed`.
    pub fn statuses_from(&self, unless_failed: [Status; 2], c: State, d: State, winner: Winner, failed: bool) -> [Status; 2] {
        let mut out = unless_failed;
        if let (Some((loser, s)), true) = (self.loser_tests(c, d, winner), failed) {
            let (alloc, before) = self.side(loser);
            out[loser as usize] = match morale::failure(alloc, s, true, before.shaken, self.edition) {
                Failure::Routed => Status::Routed,
                Failure::Shaken => Status::Shaken,
            };
        }
        out
    }

    /// The loser and its state, if it takes a morale test (not in a tie, not when destroyed).
    pub fn loser_tests(&self, c: State, d: State, winner: Winner) -> Option<(Winner, State)> {
        match winner {
            Winner::Charger if !self.defender.destroyed(d) => Some((Winner::Defender, d)),
            Winner::Defender if !self.charger.destroyed(c) => Some((Winner::Charger, c)),
            _ => None,
        }
    }

    /// A side's state after the melee, for chaining: both sides fought, so both are fatigued
    /// (the defender only if it struck back).
    pub fn end_state(&self, who: Winner, s: State, status: Status) -> Option<UnitState> {
        let (alloc, before) = self.side(who);
        // (a Firefight defender Stunned before it could strike back is marked fatigued too;
        // Stunned, it strikes no blow this round either way)
        let fought = who == Winner::Charger || self.strike_back;
        match status {
            Status::Destroyed | Status::Routed => None,
            _ => alloc.unit_state(s, status == Status::Shaken, before.fatigued || fought),
        }
    }
}

/// What Fear adds to a side's wounds at melee resolution: a fixed number, and `dice` dice of
/// `sides` sides (v2: "+D3").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Fear {
    pub fixed: i64,
    pub dice: u32,
    pub sides: u8,
}

impl Fear {
    /// Rolls the Fear dice with a six-sided die: a D3 is a D6 halved, rounding up.
    pub fn roll(&self, mut d6: impl FnMut() -> u8) -> i64 {
        let die = |face: u8| i64::from((u32::from(face) * u32::from(self.sides)).div_ceil(6));
        self.fixed + (0..self.dice).map(|_| die(d6())).sum::<i64>()
    }
}

/// The charger's Fear less the defender's: values with their chances.
pub type FearMargin = smallvec::SmallVec<[(i64, f64); 8]>;

/// The groups one side strikes with in a phase, and each group's profile id in [`Plans`].
pub struct PhaseGroups {
    pub groups: Vec<Group>,
    pub templates: Vec<usize>,
}

/// Groups and die models of a melee, found once and reused across its many small attacks.
/// Groups depend only on which models are left; die models on the group's profile and the
/// target's state.
pub struct Plans<'m> {
    melee: &'m Melee,
    found: Found,
}

/// What [`Plans`] has found, apart from the melee: a game keeps it from one charge to the
/// next between the same units in the same circumstances (everything here depends on the
/// models left and the situation of each phase, not on where the melee starts).
#[derive(Default)]
pub struct Found {
    /// By phase, by the attacker's models left.
    groups: [ByAlive<Rc<PhaseGroups>>; 3],
    /// By phase, by which of the attacker's runs of models are left (how many runs, and
    /// whether a joined hero died out of order): the recipe for their groups in any numbers,
    /// and the groups' profile ids.
    recipes: [Vec<((usize, bool), Rc<(Recipe, Vec<usize>)>)>; 3],
    /// Distinct (kind, Quality, rules) per phase: a die model is cached per (template, what
    /// the template's dice see of the target: [`Allocation::view_index`]).
    templates: [Vec<Group>; 3],
    models: [FacesTable; 3],
    /// By phase, by distinct die model of `models`, by dice: the wounds they deal (the
    /// exact engine's, from the thread's `WoundCache`, without hashing the die model each time).
    wounds: [Vec<Vec<Option<Rc<Vec<f64>>>>>; 3],
    /// Fear of each side by which of its models are left.
    fear: [ByAlive<Fear>; 2],
    /// The melee morale test of each side by which of its models are left ("most models"
    /// rules need the counts, not just the kinds).
    tests: [ByAlive<MoraleTest>; 2],
}

/// Values by a side's models left ([`Allocation::alive_index`]), each found on first use:
/// a vector, not a map, as the sampler asks for them every exchange.
struct ByAlive<T>(Vec<Option<T>>);

impl<T> Default for ByAlive<T> {
    fn default() -> Self {
        ByAlive(Vec::new())
    }
}

impl<T: Clone> ByAlive<T> {
    fn get_or(&mut self, i: usize, find: impl FnOnce() -> T) -> T {
        if self.0.len() <= i {
            self.0.resize_with(i + 1, || None);
        }
        self.0[i].get_or_insert_with(find).clone()
    }
}

impl<'m> Plans<'m> {
    pub fn new(melee: &'m Melee) -> Plans<'m> {
        Plans::with(melee, Found::default())
    }

    /// Plans that start from what was found for the same melee before.
    pub fn with(melee: &'m Melee, found: Found) -> Plans<'m> {
        Plans { melee, found }
    }

    /// What these plans have found, to start the next ones from.
    pub fn into_found(self) -> Found {
        self.found
    }

    /// The morale test `who` takes in state `s` (see [`Melee::morale_test`]).
    pub fn morale_test(&mut self, who: Winner, s: State) -> MoraleTest {
        let m = self.melee;
        let (alloc, _) = m.side(who);
        self.found.tests[who as usize].get_or(alloc.alive_index(s), || m.morale_test(who, s))
    }

    /// The Fear of each side, with the sides in `c` and `d`.
    pub fn fear(&mut self, c: State, d: State) -> [Fear; 2] {
        let m = self.melee;
        let fc = self.found.fear[0].get_or(m.charger.alive_index(c), || m.fear(&m.charger, c));
        let fd = self.found.fear[1].get_or(m.defender.alive_index(d), || m.fear(&m.defender, d));
        [fc, fd]
    }

    /// The distribution of the charger's Fear less the defender's (the sampler rolls the same
    /// dice: [`Fear::roll`]): one value unless a side rolls its Fear (v2's "+D3"), so it is
    /// worked out on the stack each time rather than looked up.
    pub fn fear_margin(&mut self, c: State, d: State) -> FearMargin {
        let [fc, fd] = self.fear(c, d);
        let mut pmf: FearMargin = smallvec::smallvec![(fc.fixed - fd.fixed, 1.0)];
        for (fear, sign) in [(fc, 1i64), (fd, -1i64)] {
            for _ in 0..fear.dice {
                let mut next = FearMargin::new();
                for &(v, p) in &pmf {
                    for face in 1..=i64::from(fear.sides) {
                        let value = v + sign * face;
                        match next.iter_mut().find(|(x, _)| *x == value) {
                            Some((_, q)) => *q += p / f64::from(fear.sides),
                            None => next.push((value, p / f64::from(fear.sides))),
                        }
                    }
                }
                pmf = next;
            }
        }
        pmf
    }

    /// The groups of `phase` with the attacker in `attacker` (the target in `target` only
    /// matters to the Charge phase, whose target is always the defender untouched).
    pub fn groups(&mut self, phase: Phase, attacker: State, target: State) -> Rc<PhaseGroups> {
        let (a, _) = self.melee.sides(phase);
        let i = a.alive_index(attacker);
        if let Some(Some(g)) = self.found.groups[phase as usize].0.get(i) {
            return g.clone();
        }
        // the same runs of models in other numbers: the same groups with other dice
        let alive = a.view(attacker, false).alive;
        let counts: smallvec::SmallVec<[u32; 4]> = alive.iter().map(|(_, n)| *n).collect();
        let runs = (alive.len(), a.alive_key(attacker).1);
        let recipes = &mut self.found.recipes[phase as usize];
        if let Some((_, found)) = recipes.iter().find(|(key, _)| *key == runs) {
            if let Some(groups) = found.0.groups(&counts) {
                let out = Rc::new(PhaseGroups { groups, templates: found.1.clone() });
                return self.found.groups[phase as usize].get_or(i, || out);
            }
        }
        let (groups, recipe) = self.melee.groups_and_recipe(phase, attacker, target);
        let mut templates_of = Vec::with_capacity(groups.len());
        for g in &groups {
            let templates = &mut self.found.templates[phase as usize];
            // a die model depends on the group's kind, Quality and rules, not its dice or label
            let found = templates.iter().position(|t| t.kind == g.kind && t.quality == g.quality && t.rules == g.rules);
            let id = found.unwrap_or_else(|| {
                templates.push(g.clone());
                templates.len() - 1
            });
            templates_of.push(id);
        }
        let recipes = &mut self.found.recipes[phase as usize];
        if !recipes.iter().any(|(key, _)| *key == runs) {
            recipes.push((runs, Rc::new((recipe, templates_of.clone()))));
        }
        let out = Rc::new(PhaseGroups { groups, templates: templates_of });
        self.found.groups[phase as usize].get_or(i, || out)
    }

    /// How a die of group profile `template` of `phase` is judged against the target in `s`,
    /// and the pmf of the wounds `dice` such dice deal (before Deadly multiplication).
    pub fn judged(&mut self, phase: Phase, template: usize, s: State, dice: u32, cache: &mut WoundCache) -> (DieModel, Rc<Vec<f64>>) {
        let m = self.melee;
        let (_, target) = m.sides(phase);
        let group = &self.found.templates[phase as usize][template];
        let table = &mut self.found.models[phase as usize];
        let i = table.index(template, target.view_index(s, group.takedown), target.view_count(group.takedown), || die_model(group, &m.situation(phase), &target.view(s, group.takedown)));
        let dm = *table.die_model(i);
        let by_model = &mut self.found.wounds[phase as usize];
        if by_model.len() <= i {
            by_model.resize_with(i + 1, Vec::new);
        }
        let by_dice = &mut by_model[i];
        if by_dice.len() <= dice as usize {
            by_dice.resize(dice as usize + 1, None);
        }
        (dm, by_dice[dice as usize].get_or_insert_with(|| cache.get(&dm, dice)).clone())
    }

    /// The same, read into the sampler's lookups by face.
    pub fn faces(&mut self, phase: Phase, template: usize, s: State) -> Faces {
        let m = self.melee;
        let (_, target) = m.sides(phase);
        let group = &self.found.templates[phase as usize][template];
        self.found.models[phase as usize].get(template, target.view_index(s, group.takedown), target.view_count(group.takedown), || die_model(group, &m.situation(phase), &target.view(s, group.takedown)))
    }
}
