//! From profiles to dice: the weapon groups of an attack, and for each group and each state
//! of the target, the [`DieModel`] that says how every die of that group is judged.
//!
//! This is the one place where rule semantics become dice. The exact engine enumerates the
//! faces of each die through a `DieModel`; the sampler rolls dice through the same methods;
//! so the two cannot drift apart.

use crate::edition::Edition;
use crate::profile::{Model, Weapon};
use crate::rules::census::{self, Engine};
use crate::rules::effects::{self, Amount, Cond, Effect, Needs, Side};
use crate::rules::index::{self, RuleId};
use crate::rules::Rule;

/// The circumstances of an attack.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Situation {
    pub melee: bool,
    /// Inches between the units (for shooting) or the charge distance (for melee).
    pub distance: f64,
    pub charging: bool,
    /// The target is in cover terrain (+1 to Defense against shooting).
    pub cover: bool,
    pub moved: bool,
    /// The target moved since its last activation (v3.4.1 Entrenched).
    pub target_moved: bool,
    /// The attacker already fought in melee this round (only unmodified 6s hit in melee).
    pub fatigued: bool,
    pub edition: Edition,
    /// The options the attacking and the attacked unit settled on for their rules with
    /// options (Versatile Attack, Unpredictable Fighter, Versatile Defense); 0 when none.
    pub attacker_option: u8,
    pub target_option: u8,
    /// Game: the attacker deployed by Ambush this round ([`Cond::Arrived`]).
    pub arrived: bool,
    /// Game: the attack made while moving through enemy units, "as if it was shooting"
    /// (`melee` false): only weapons with [`Effect::OnlyMovingThrough`] attack, at any range.
    pub moving_through: bool,
    /// The hits are a spell's (`Spell::hits_group`): not shooting, and "from a spell".
    pub spell: bool,
}

impl Situation {
    fn over_nine(&self) -> bool {
        self.distance > 9.0
    }

    /// Whether a rule's condition holds for an attacker that has the rules `attacker_has`
    /// says it has, against a target in `view`.
    /// (`named`: the rule the condition names, [`crate::rules::index::Entry::conditions`].)
    fn holds(&self, cond: Cond, named: RuleId, attacker_has: &dyn Fn(RuleId) -> bool, view: &TargetView) -> bool {
        match cond {
            // a spell is cast, not shot: "shot from over 9"" rules do not hold against it
            Cond::Shooting => !self.melee && !self.spell,
            Cond::Targeting => !self.melee,
            Cond::Melee => self.melee,
            Cond::Charging => self.charging,
            Cond::OverNine => self.over_nine(),
            Cond::Moved => self.moved,
            Cond::Stationary => !self.moved,
            Cond::TargetStationary => !self.target_moved,
            Cond::NotFatigued => !self.fatigued,
            Cond::AttackerLacks(_) => !attacker_has(named),
            Cond::TargetDefense(lo, hi) => view.most(|m| (lo..=hi).contains(&m.defense)),
            Cond::TargetTough(lo, hi) => view.most(|m| (lo..=hi).contains(&m.tough)),
            Cond::TargetLacks(_) => !view.has(named, Needs::Any),
            Cond::AttackerHas(_) => attacker_has(named),
            Cond::UnitHasAll(_) => view.has(named, Needs::All),
            Cond::WithinInches(x) => self.distance <= f64::from(x),
            Cond::NotOverNine => !self.over_nine(),
            Cond::NotCharging => !self.charging,
            Cond::Activated => !self.melee || self.charging,
            Cond::AttackerOption(i) => self.attacker_option == i,
            Cond::TargetOption(i) => self.target_option == i,
            Cond::Arrived => self.arrived,
            Cond::FromSpell => self.spell,
            Cond::NotFromSpell => !self.spell,
        }
    }

    /// A spell's hits at `distance`: not shooting, so no cover ("resolve the effect"), and
    /// "from a spell" for the rules that tell spells apart.
    pub fn spell(edition: Edition, distance: f64) -> Situation {
        Situation { spell: true, ..Situation::new(edition, false, distance) }
    }

    /// A shooting or charging situation with no cover, movement, fatigue or options.
    pub fn new(edition: Edition, melee: bool, distance: f64) -> Situation {
        Situation {
            melee,
            distance,
            charging: melee,
            cover: false,
            moved: false,
            target_moved: false,
            fatigued: false,
            edition,
            attacker_option: 0,
            target_option: 0,
            arrived: false,
            moving_through: false,
            spell: false,
        }
    }
}

/// What kind of dice a group rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupKind {
    /// Attack dice: Quality tests.
    Weapon,
    /// Impact(X) dice: "For each 2+ the target takes one hit" (with AP from Heavy Impact).
    Impact { ap: u8 },
    /// Dice a model rolls whenever it strikes in melee (Ravage, Crush): each `need`+ is a hit
    /// with AP(`ap`), or a wound no Defense roll blocks.
    Dice { need: u8, ap: u8, wounds: bool },
    /// v2 Impact(X): "Deals X automatic hits"; no die is rolled to hit.
    AutomaticHits,
    /// A spell's hits ("takes 6 hits with AP(1) and Shred"): no die to hit, the rules apply
    /// to the hits as a weapon's do; `sixes_rolled`: a die is rolled per hit to see if "on
    /// rolls of 6" effects trigger.
    SpellHits { sixes_rolled: bool },
}

/// One weapon group: the same weapon carried by models of the same profile, rolled together.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub label: String,
    pub kind: GroupKind,
    /// Dice rolled: copies × attacks (Impact: the X of every model, less Counter).
    pub dice: u32,
    pub quality: u8,
    /// The weapon's rules and the attacking models' rules, each name once (shared: a
    /// group is copied with other dice for every number of models left).
    pub rules: std::sync::Arc<[Rule]>,
    pub takedown: bool,
    pub deadly: bool,
}

impl Group {
    /// Whether the weapon or the attacking models have this rule.
    fn has(&self, id: RuleId) -> bool {
        self.rules.iter().any(|r| r.id() == id)
    }

    /// Resolution order: Takedown first, then Deadly, then the rest ("Takedown attacks must be
    /// resolved before other weapons"; "Hits from Deadly must be resolved first").
    pub fn priority(&self) -> u8 {
        if self.takedown {
            0
        } else if self.deadly {
            1
        } else {
            2
        }
    }
}

/// Runs of alive models, on the stack for the few runs a unit has (views are taken on every
/// wound in a game).
pub type Alive<'a> = smallvec::SmallVec<[(&'a Model, u32); 4]>;

/// The target's models that are still alive, as one weapon group sees them.
pub struct TargetView<'a> {
    /// Alive models as runs of identical models `(model, how many)`.
    pub alive: Alive<'a>,
    /// The Defense the hits are blocked with: the unit's while any of its own models live,
    /// else the joined hero's ("must use the unit's Defense until all other models have been killed").
    pub defense: u8,
    /// Firefight: the model taking hits is Stunned.
    pub stunned: bool,
}

impl TargetView<'_> {
    pub fn count(&self) -> u32 {
        self.alive.iter().map(|(_, n)| n).sum()
    }

    /// Whether more than half of the alive models satisfy `f` ("most models").
    fn most(&self, f: impl Fn(&Model) -> bool) -> bool {
        2 * self.alive.iter().filter(|(m, _)| f(m)).map(|(_, n)| n).sum::<u32>() > self.count()
    }

    /// Whether enough alive models have the rule: all of them ("units where all models have
    /// this rule"), most, any, or the model that takes the wounds (the first in removal order).
    fn has(&self, id: RuleId, needs: Needs) -> bool {
        // a weapon's target-side rule (Counter) is carried by the model with the weapon
        let carries = |m: &Model| m.rules.iter().chain(m.weapons.iter().flat_map(|w| w.rules.iter())).any(|r| r.id() == id);
        match needs {
            Needs::Each => self.alive.first().is_some_and(|(m, _)| carries(m)),
            _ => {
                let having = self.alive.iter().filter(|(m, _)| carries(m)).map(|(_, n)| n).sum();
                effects::holds_for(needs, having, self.count())
            }
        }
    }

    /// The rules of the alive models that the tables define, each once.
    fn rules(&self) -> Vec<&Rule> {
        let mut out: Vec<&Rule> = Vec::new();
        for (m, _) in &self.alive {
            for r in &m.rules {
                if !r.id().is_none() && !out.iter().any(|o| o.id() == r.id()) {
                    out.push(r);
                }
            }
        }
        out
    }
}

/// How each die of a group is judged against one state of the target. Thresholds fold in
/// every modifier, so a die is judged by comparing its face: the same predicate for the
/// exact engine (over all faces) and the sampler (on a rolled face).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct DieModel {
    /// Fatigue: only unmodified 6s hit.
    pub only_sixes: bool,
    /// A face other than 1 and 6 hits if it is at least this (7: never).
    pub hit_need: u8,
    /// Every face hits and none counts as a 6 (v2 Impact's automatic hits, a spell's hits).
    pub always_hits: bool,
    /// With `always_hits`, a 6 still counts as a 6: a spell's "Roll as many dice as hits to
    /// see if "on rolls of 6" effects trigger".
    pub sixes_rolled: bool,
    /// Extra hits dealt by an unmodified 6 (which are not 6s themselves).
    pub extra_hits_on_six: u8,
    /// A hit from an unmodified 6 is this many hits that all count as 6s (v2 Poison: 3).
    pub six_multiplier: u8,
    /// An unmodified 6 rolls one more attack die, which rolls no more (v2 Relentless).
    pub extra_die_on_six: bool,
    /// Successful unmodified faces from this one up deal the extra hits too (Boosts: 5; else 6).
    pub extra_hits_from: u8,
    /// Successful unmodified faces from this one up roll the extra die too (Boosts: 5; else 6).
    pub extra_die_from: u8,
    /// Each hit is multiplied by this (Blast, capped by the models in the target).
    pub multiplier: u32,
    /// The most hits one attack die deals, after multipliers (Firefight's Blast: "can't deal
    /// more than one hit per model"; `u32::MAX`: no cap).
    pub hits_cap: u32,
    /// A Defense face other than 1 and 6 blocks if it is at least this (7: never).
    pub block_need: u8,
    /// The same for hits from unmodified 6s (Rending and the like add AP).
    pub block_need_six: u8,
    /// No hit is blocked (Firefight: a Stunned model hit by shooting).
    pub unblockable: bool,
    /// Successful unmodified Defense faces from this one up are re-rolled once (Bane: 6,
    /// Boosts: 5; 7: none).
    pub reroll_defense_from: u8,
    /// Extra wounds of a hit whose unmodified Defense face is at most `extra_wounds_up_to`
    /// and fails (Shred: 1; Boosts: 1-2).
    pub extra_wounds_block_one: u8,
    pub extra_wounds_up_to: u8,
    pub extra_wounds_unblocked_six: u8,
    /// Each wound is ignored on this face or more (7: never): Regeneration and the like.
    pub ignore_on: u8,
    /// The same for wounds from hits from unmodified 6s (v2 Rending bypasses Regeneration).
    pub ignore_on_six: u8,
    /// Each wound counts this many times on one model, without carry-over (Deadly; 1: none).
    pub deadly: u32,
    /// Firefight Fear: wound-effect checks after this group count this many more wounds.
    pub check_bonus: u8,
}

/// The outcome of one to-hit die.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitFace {
    Miss,
    Hit,
    Six,
}

impl DieModel {
    /// Dice with no special rules: hit on `hit_need`+, blocked on `block_need`+, wounds
    /// ignored on `ignore_on`+ (7: never).
    pub fn plain(hit_need: u8, block_need: u8, ignore_on: u8) -> DieModel {
        DieModel {
            only_sixes: false,
            hit_need,
            always_hits: false,
            sixes_rolled: false,
            extra_hits_on_six: 0,
            six_multiplier: 1,
            extra_die_on_six: false,
            extra_hits_from: 6,
            extra_die_from: 6,
            multiplier: 1,
            hits_cap: u32::MAX,
            block_need,
            block_need_six: block_need,
            unblockable: false,
            reroll_defense_from: 7,
            extra_wounds_block_one: 0,
            extra_wounds_up_to: 1,
            extra_wounds_unblocked_six: 0,
            ignore_on,
            ignore_on_six: ignore_on,
            deadly: 1,
            check_bonus: 0,
        }
    }

    /// "a roll of 6 always counts as a success and a roll of 1 always counts as a fail".
    pub fn hit(&self, face: u8) -> HitFace {
        if self.always_hits {
            if self.sixes_rolled && face == 6 { HitFace::Six } else { HitFace::Hit }
        } else if face == 6 {
            HitFace::Six
        } else if self.only_sixes || face == 1 || face < self.hit_need {
            HitFace::Miss
        } else {
            HitFace::Hit
        }
    }

    /// Whether a final Defense face blocks a hit (a hit from a 6 when `six`).
    pub fn blocks(&self, face: u8, six: bool) -> bool {
        let need = if six { self.block_need_six } else { self.block_need };
        !self.unblockable && (face == 6 || (face != 1 && face >= need))
    }

    /// Whether an unmodified Defense face is re-rolled (Bane re-rolls 6s; Scrapper Boost
    /// "successful unmodified defense results of 5-6").
    pub fn rerolls(&self, face: u8, six: bool) -> bool {
        face >= self.reroll_defense_from && self.blocks(face, six)
    }

    /// Wounds an unblocked hit deals, before any are ignored (1, plus Shred on a final 1
    /// to block, plus Rupture on a hit from a 6).
    pub fn wounds_of_unblocked(&self, final_face: u8, six: bool) -> u32 {
        1 + if final_face <= self.extra_wounds_up_to { u32::from(self.extra_wounds_block_one) } else { 0 }
            + if six { u32::from(self.extra_wounds_unblocked_six) } else { 0 }
    }

    /// Whether a wound (from a hit from a 6 when `six`) is ignored on this face.
    pub fn ignores_wound(&self, face: u8, six: bool) -> bool {
        face >= if six { self.ignore_on_six } else { self.ignore_on }
    }

    /// Hits from one to-hit die showing `face`: (hits that count as 6s, other hits), at most
    /// `hits_cap` (the hits that count as 6s kept first).
    pub fn hits_from(&self, face: u8) -> (u32, u32) {
        let (sixes, others) = match self.hit(face) {
            HitFace::Miss => (0, 0),
            HitFace::Hit if !self.always_hits && face >= self.extra_hits_from => (0, self.multiplier * (1 + u32::from(self.extra_hits_on_six))),
            HitFace::Hit => (0, self.multiplier),
            HitFace::Six => (self.multiplier * u32::from(self.six_multiplier), self.multiplier * u32::from(self.extra_hits_on_six)),
        };
        let sixes = sixes.min(self.hits_cap);
        (sixes, others.min(self.hits_cap - sixes))
    }

    /// Whether a to-hit die showing `face` rolls one more attack die (v2 Relentless, Bloodborn).
    pub fn rolls_extra_die(&self, face: u8) -> bool {
        self.extra_die_on_six && !self.always_hits && face >= self.extra_die_from && self.hit(face) != HitFace::Miss
    }
}

/// The effects of `rules` on one side whose conditions hold: each with the rule it comes
/// from (for its rating). Target-side effects also need enough of the target's models to
/// have the rule. The one place where the rule table is read.
fn active<'r>(
    rules: impl IntoIterator<Item = &'r Rule>,
    side: Side,
    attacker_has: &dyn Fn(RuleId) -> bool,
    situation: &Situation,
    view: &TargetView,
) -> Vec<(&'r Rule, Effect)> {
    let mut out = Vec::new();
    for rule in rules {
        // a rule's own entries, and those of the rules it gives (under the giver's conditions)
        for e in index::entries(situation.edition, rule.id()) {
            if e.entry.side != side || (side == Side::Target && !view.has(rule.id(), e.entry.needs)) {
                continue;
            }
            if e.conditions().all(|(c, named)| situation.holds(c, named, attacker_has, view)) {
                out.push((rule, e.entry.effect));
            }
        }
    }
    out
}

/// Whether an attacking model's rule counts in its attacks: it has an attacker's effect, or a
/// target's rule asks for it (`effects::asked_of_attackers`: v2's Anti-Air).
fn attacking_rule(edition: Edition, rule: &Rule) -> bool {
    has_effect(edition, rule, Side::Attacker, |_| true) || effects::asked_of_attackers(edition, &rule.name)
}

/// Whether a rule (or one it gives) has any effect of this kind on this side, whatever the conditions.
fn has_effect(edition: Edition, rule: &Rule, side: Side, f: impl Fn(&Effect) -> bool) -> bool {
    effects::has_entry(edition, rule.id(), side, f)
}

/// Sums the amounts of attacker-side effects of a group that hold in this situation.
struct AttackerEffects {
    hit_mods: Vec<i32>,
    quality: Option<u8>,
    ap: i32,
    ap_on_six: i32,
    ap_on_six_at_least: i32,
    extra_hits_on_six: i32,
    six_multiplier: u8,
    extra_die_on_six: bool,
    extra_hits_from: u8,
    extra_die_from: u8,
    reroll_defense_from: u8,
    extra_wounds_up_to: u8,
    multiply_hits: i32,
    check_bonus: i32,
    extra_wounds_unblocked_six: i32,
    extra_wounds_block_one: i32,
    blast: i32,
    deadly: i32,
    ignore_regeneration: bool,
    ignore_regeneration_on_six: bool,
    ignore_cover: bool,
    ignore_negative: bool,
}

fn amount(a: Amount, rule: &Rule) -> i32 {
    match a {
        Amount::Fixed(n) => n,
        Amount::Rating => rule.number().unwrap_or(0).clamp(-1000, 1000) as i32,
    }
}

fn attacker_effects(group: &Group, situation: &Situation, view: &TargetView) -> AttackerEffects {
    let mut e = AttackerEffects {
        hit_mods: Vec::new(),
        quality: None,
        ap: 0,
        ap_on_six: 0,
        ap_on_six_at_least: 0,
        extra_hits_on_six: 0,
        six_multiplier: 1,
        extra_die_on_six: false,
        extra_hits_from: 6,
        extra_die_from: 6,
        reroll_defense_from: 7,
        extra_wounds_up_to: 1,
        multiply_hits: 0,
        check_bonus: 0,
        extra_wounds_unblocked_six: 0,
        extra_wounds_block_one: 0,
        blast: 0,
        deadly: 0,
        ignore_regeneration: false,
        ignore_regeneration_on_six: false,
        ignore_cover: false,
        ignore_negative: false,
    };
    for (rule, effect) in active(group.rules.iter(), Side::Attacker, &|n| group.has(n), situation, view) {
        match effect {
            Effect::HitModifier(a) => e.hit_mods.push(amount(a, rule)),
            Effect::Quality(q) => e.quality = Some(e.quality.map_or(q, |x| x.min(q))),
            Effect::Ap(a) => e.ap += amount(a, rule),
            Effect::ApOnSix(n) => e.ap_on_six += n,
            Effect::ApOnSixAtLeast(n) => e.ap_on_six_at_least = e.ap_on_six_at_least.max(n),
            Effect::ExtraHitsOnSix(n) => e.extra_hits_on_six += n,
            Effect::MultiplySixes(n) => e.six_multiplier = e.six_multiplier.max(n),
            Effect::ExtraAttackOnSix => e.extra_die_on_six = true,
            Effect::MultiplyHits(a) => e.multiply_hits += amount(a, rule),
            Effect::WoundCheckBonus(a) => e.check_bonus = e.check_bonus.max(amount(a, rule)),
            Effect::ExtraWoundsOnUnblockedSix(n) => e.extra_wounds_unblocked_six += n,
            Effect::ExtraWoundsOnBlockOne(n) => e.extra_wounds_block_one += n,
            Effect::Blast(a) => e.blast += amount(a, rule),
            Effect::Deadly(a) => e.deadly += amount(a, rule),
            Effect::RerollDefenseSixes => e.reroll_defense_from = e.reroll_defense_from.min(6),
            Effect::RerollDefenseFrom(x) => e.reroll_defense_from = e.reroll_defense_from.min(x),
            Effect::ExtraHitsFrom(x) => e.extra_hits_from = e.extra_hits_from.min(x),
            Effect::ExtraAttackFrom(x) => e.extra_die_from = e.extra_die_from.min(x),
            Effect::ExtraWoundsUpTo(x) => e.extra_wounds_up_to = e.extra_wounds_up_to.max(x),
            Effect::IgnoreRegeneration => e.ignore_regeneration = true,
            Effect::IgnoreRegenerationOnSix => e.ignore_regeneration_on_six = true,
            Effect::IgnoreCover => e.ignore_cover = true,
            Effect::IgnoreNegativeHitModifiers => e.ignore_negative = true,
            // read when the groups are formed, or target-side
            Effect::Takedown
            | Effect::ExtraAttacks(_)
            | Effect::ImpactDice(_)
            | Effect::ImpactHits(_)
            | Effect::ImpactReduction(_)
            | Effect::RangePenalty(_)
            | Effect::DefenseModifier(_)
            | Effect::ApReduction(_)
            | Effect::IgnoreWounds { .. }
            | Effect::StrikesFirstWhenCharged
            | Effect::ResolutionWounds(_)
            | Effect::ResolutionWoundsRolled(_)
            | Effect::PassFailedMoraleOn(_)
            | Effect::MoraleModifier(_)
            | Effect::Gets(_)
            | Effect::UnitGets(_)
            | Effect::RangeBonus(_)
            | Effect::ImpactAp(_)
            | Effect::MeleeDice { .. }
            | Effect::SetDefense(_)
            | Effect::Options { .. }
            | Effect::Move(_)
            | Effect::ChargePenalty(_)
            | Effect::RecoverOn(_)
            | Effect::Reposition { .. }
            | Effect::MoveAfterAttack { .. }
            | Effect::ExtraActivation
            | Effect::Ambush { .. }
            | Effect::Buff(_)
            | Effect::OnlyMovingThrough
            | Effect::ArrivalHits { .. }
            | Effect::CastingRollGiven(_)
            | Effect::Debuff(_)
            | Effect::EnemyTest { .. } => {}
        }
    }
    e
}

fn clamp_need(need: i32) -> u8 {
    need.clamp(2, 7) as u8
}

/// How each die of `group` is judged against the target's alive models in `view`.
pub fn die_model(group: &Group, situation: &Situation, view: &TargetView) -> DieModel {
    let a = attacker_effects(group, situation, view);
    let set = effects::rule_set(situation.edition);
    // Target-side effects: rules enough alive models have, whose conditions hold.
    let mut target_hit_mods = Vec::new();
    let mut defense_mod = 0;
    let mut ap_reduction = 0;
    let mut ignore_on = 7u8;
    let mut ignore_on_six = 7u8;
    for (rule, effect) in active(view.rules(), Side::Target, &|n| group.has(n), situation, view) {
        match effect {
            Effect::HitModifier(m) => target_hit_mods.push(amount(m, rule)),
            Effect::DefenseModifier(n) => defense_mod += amount(n, rule),
            Effect::ApReduction(n) => ap_reduction += n,
            Effect::IgnoreWounds { on, regeneration } => {
                if !(regeneration && a.ignore_regeneration) {
                    ignore_on = ignore_on.min(on);
                }
                if !(regeneration && (a.ignore_regeneration || a.ignore_regeneration_on_six)) {
                    ignore_on_six = ignore_on_six.min(on);
                }
            }
            _ => {}
        }
    }
    // Cover, as the edition has it (+1 Defense, or -1 to hit); Blast and the like ignore it.
    if situation.cover && !situation.melee && !a.ignore_cover {
        match set.cover {
            Effect::DefenseModifier(Amount::Fixed(n)) => defense_mod += n,
            Effect::HitModifier(Amount::Fixed(n)) => target_hit_mods.push(n),
            _ => {}
        }
    }
    let alive = view.count();
    let defense = i32::from(view.defense);
    let ap = (a.ap - ap_reduction).max(0);
    let ap_six = (a.ap.max(a.ap_on_six_at_least) + a.ap_on_six - ap_reduction).max(0);
    let block_need = clamp_need(defense + ap - defense_mod);
    let block_need_six = clamp_need(defense + ap_six - defense_mod);
    let blast = if a.blast > 0 { (a.blast as u32).min(alive).max(1) } else { 1 };
    let multiplier = blast.saturating_mul(a.multiply_hits.clamp(1, 1000) as u32);
    let deadly = a.deadly.max(1) as u32;
    // Firefight (the only wound model with Stunned states): "If Stunned models take any hits
    // from shooting ... they are Knocked Out immediately (without needing to check wounds)":
    // the hits are not blocked, and each one is a wound the allocation turns into a Knock Out
    // (Tough: one wound).
    let stunned_shot = view.stunned && !situation.melee;
    let check_bonus = a.check_bonus.clamp(0, 100) as u8;

    let mut dm = match group.kind {
        // "For each 2+ the target takes one hit": no modifiers, no AP (but Heavy Impact's), nothing on 6s.
        GroupKind::Impact { ap } => DieModel::plain(2, clamp_need(defense + (i32::from(ap) - ap_reduction).max(0) - defense_mod), ignore_on),
        // Ravage, Crush: "roll X dice. For each 6+ the target takes one wound" (no Defense roll),
        // or "one hit with AP(2)".
        GroupKind::Dice { need, ap, wounds } => DieModel {
            unblockable: wounds,
            ..DieModel::plain(need, clamp_need(defense + (i32::from(ap) - ap_reduction).max(0) - defense_mod), ignore_on)
        },
        GroupKind::AutomaticHits => DieModel { always_hits: true, ..DieModel::plain(2, block_need, ignore_on) },
        GroupKind::Weapon | GroupKind::SpellHits { .. } => {
            let quality = i32::from(a.quality.map_or(group.quality, |q| q.min(group.quality)));
            let mods = a.hit_mods.iter().chain(target_hit_mods.iter()).filter(|m| !(a.ignore_negative && **m < 0));
            let hit_mod: i32 = mods.sum();
            DieModel {
                only_sixes: situation.fatigued && situation.melee && group.kind == GroupKind::Weapon,
                hit_need: clamp_need(quality - hit_mod),
                always_hits: group.kind != GroupKind::Weapon,
                sixes_rolled: group.kind == GroupKind::SpellHits { sixes_rolled: true },
                extra_hits_on_six: a.extra_hits_on_six.clamp(0, 100) as u8,
                six_multiplier: a.six_multiplier.clamp(1, 100),
                extra_die_on_six: a.extra_die_on_six,
                extra_hits_from: a.extra_hits_from,
                extra_die_from: a.extra_die_from,
                multiplier,
                hits_cap: if a.blast > 0 && set.blast_caps_each_attack { alive.max(1) } else { u32::MAX },
                block_need,
                block_need_six,
                unblockable: false,
                reroll_defense_from: a.reroll_defense_from,
                extra_wounds_block_one: a.extra_wounds_block_one.clamp(0, 100) as u8,
                extra_wounds_up_to: a.extra_wounds_up_to,
                extra_wounds_unblocked_six: a.extra_wounds_unblocked_six.clamp(0, 100) as u8,
                ignore_on,
                ignore_on_six,
                deadly,
                check_bonus,
            }
        }
    };
    if stunned_shot {
        dm = DieModel {
            unblockable: true,
            ignore_on: 7,
            ignore_on_six: 7,
            extra_wounds_block_one: 0,
            extra_wounds_unblocked_six: 0,
            deadly: 1,
            ..dm
        };
    }
    dm
}

/// Whether a weapon may be used in this attack: melee weapons in melee; ranged weapons in
/// range when shooting, the range cut by `range_penalty` (Aircraft).
/// Weapons that attack only while moving through enemy units (Strafing: "This weapon may only
/// be used in this way") attack then, and no other weapon does.
fn usable(weapon: &Weapon, situation: &Situation, range_penalty: i32) -> bool {
    let only_moving_through = weapon.rules.iter().any(|r| has_effect(situation.edition, r, Side::Attacker, |e| matches!(e, Effect::OnlyMovingThrough)));
    if only_moving_through != situation.moving_through {
        return false;
    }
    if situation.moving_through {
        return !situation.melee;
    }
    match weapon.range {
        None => situation.melee,
        // ("-12" to their range": a 12" weapon has none left, even from under the base)
        Some(r) => !situation.melee && f64::from(r) > f64::from(range_penalty) && f64::from(r) - f64::from(range_penalty) >= situation.distance,
    }
}

/// Which of the usable weapons strike.
#[derive(Debug, Clone, Copy)]
pub enum Pick<'a> {
    /// All of them, with Impact dice when they apply.
    All,
    /// Only weapons of these names (no Impact dice).
    Named(&'a [String]),
    /// When charged: only the weapons that strike first (Counter), or only the others.
    StrikingFirst(bool),
}

impl Pick<'_> {
    /// Whether the weapon strikes, carried by a model with `model_rules` ("Counter-Attack:
    /// Strikes first when charged" strikes first with all the model's weapons).
    fn takes(&self, weapon: &Weapon, model_rules: &[&Rule], edition: Edition) -> bool {
        match self {
            Pick::All => true,
            Pick::Named(names) => names.iter().any(|n| n == &weapon.name),
            Pick::StrikingFirst(first) => {
                let strikes_first = weapon
                    .rules
                    .iter()
                    .chain(model_rules.iter().copied())
                    .any(|r| has_effect(edition, r, Side::Attacker, |e| matches!(e, Effect::StrikesFirstWhenCharged)));
                strikes_first == *first
            }
        }
    }

    /// Whether the model's own melee dice (Ravage, Crush, Impact) are rolled in this strike:
    /// not when only named weapons strike, nor in the Counter strike before the charger's.
    fn takes_model_dice(&self) -> bool {
        matches!(self, Pick::All | Pick::StrikingFirst(false))
    }
}

/// The weapons of `model` (with their index) that may be used in this attack.
fn usable_by<'m: 'a, 'a>(model: &'m Model, model_rules: &'a [&'a Rule], view: &'a TargetView, situation: &'a Situation, pick: Pick<'a>) -> impl Iterator<Item = (usize, &'m Weapon)> + 'a {
    let model_has = |id: RuleId| model_rules.iter().any(|r| r.id() == id);
    // Darkborn: "+3" range when shooting"
    let range_bonus: i32 = active(model_rules.iter().copied(), Side::Attacker, &model_has, situation, view)
        .into_iter()
        .map(|(r, e)| if let Effect::RangeBonus(a) = e { amount(a, r) } else { 0 })
        .sum();
    model
        .weapons
        .iter()
        .enumerate()
        .filter(move |(_, w)| pick.takes(w, model_rules, situation.edition) && usable(w, situation, range_penalty(w, model_rules, situation, view) - range_bonus))
}

/// Which of `model`'s weapons may be used in this attack on `target` (bit `i`:
/// `model.weapons[i]`; weapons past the 64th count with the 64th), as [`groups`] decides:
/// the game asks it model by model, each at its own distance.
pub fn usable_weapons(model: &Model, target: &[(&Model, u32)], situation: &Situation, pick: Pick) -> u64 {
    let view = TargetView { alive: Alive::from_slice(target), defense: 0, stunned: false };
    let model_rules: Vec<&Rule> = model.rules.iter().filter(|r| attacking_rule(situation.edition, r)).collect();
    usable_by(model, &model_rules, &view, situation, pick).fold(0u64, |m, (i, _)| m | 1 << i.min(63))
}

/// The weapon groups of an attack by the `attacker`'s models (runs of identical models) on
/// the `target`'s, in resolution order. Models that share a weapon and a profile (Quality and
/// attack rules) are one group.
pub fn groups(attacker: &[(&Model, u32)], target: &[(&Model, u32)], situation: &Situation, pick: Pick) -> Vec<Group> {
    build_groups(attacker, target, situation, pick, true, None)
}

/// [`groups`] without their labels, for engines that never show them (the melee): writing a
/// weapon's profile is a good part of the cost of planning a strike.
pub fn unlabelled_groups(attacker: &[(&Model, u32)], target: &[(&Model, u32)], situation: &Situation, pick: Pick) -> Vec<Group> {
    build_groups(attacker, target, situation, pick, false, None)
}

/// [`unlabelled_groups`] with the [`Recipe`] that gives the same attacker's groups for other
/// numbers of each of its models.
pub fn unlabelled_groups_and_recipe(attacker: &[(&Model, u32)], target: &[(&Model, u32)], situation: &Situation, pick: Pick) -> (Vec<Group>, Recipe) {
    let mut recipe = Recipe::default();
    let groups = build_groups(attacker, target, situation, pick, false, Some(&mut recipe));
    (groups, recipe)
}

/// How [`build_groups`] counted each group's dice from the numbers of the attacker's models
/// (one per entry of its `attacker`), so that the groups of the same models in other numbers
/// are found without planning again (a melee asks for them with every number of models
/// left). Everything else about a group depends on which models attack, not how many.
#[derive(Debug, Clone, Default)]
pub struct Recipe {
    /// Every group met, in the order built, before dropping the dice groups with no dice
    /// and sorting.
    candidates: Vec<(Group, Dice)>,
}

/// How a candidate group's dice are counted, with the same saturating sums as the builder.
#[derive(Debug, Clone)]
enum Dice {
    /// A weapon group: attacks per model of each entry.
    Weapon(Vec<(usize, u32)>),
    /// Impact, automatic hits, Ravage or Crush: dice per model of each entry, less `less`;
    /// only kept when above zero.
    Counted { terms: Vec<(usize, i64)>, less: i64 },
}

impl Recipe {
    /// The groups of the same models as built, with `counts[e]` of entry `e`: `None` when a
    /// dice group would appear or vanish with these numbers (then build them afresh).
    pub fn groups(&self, counts: &[u32]) -> Option<Vec<Group>> {
        let mut out = Vec::with_capacity(self.candidates.len());
        for (g, dice) in &self.candidates {
            let n = match dice {
                Dice::Weapon(terms) => terms.iter().fold(0u32, |acc, &(e, per_model)| acc.saturating_add(per_model.saturating_mul(counts[e]))),
                Dice::Counted { terms, less } => {
                    let total = terms.iter().fold(0i64, |acc, &(e, x)| acc.saturating_add(x.saturating_mul(i64::from(counts[e])))).saturating_sub(*less);
                    if (total > 0) != (g.dice > 0) {
                        return None;
                    }
                    if total <= 0 {
                        continue;
                    }
                    u32::try_from(total).unwrap_or(u32::MAX)
                }
            };
            out.push(Group { dice: n, ..g.clone() });
        }
        out.sort_by_key(Group::priority);
        Some(out)
    }
}

fn build_groups(attacker: &[(&Model, u32)], target: &[(&Model, u32)], situation: &Situation, pick: Pick, labels: bool, mut recipe: Option<&mut Recipe>) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    // (for the recipe) how each group of `out` counts its dice
    let recording = recipe.is_some();
    let mut counted: Vec<Vec<(usize, u32)>> = Vec::new();
    // (weapon profile, Quality, attacking model's rules) -> index in `out`
    let mut keys: Vec<(&Weapon, u8, Vec<&Rule>)> = Vec::new();
    let view = TargetView { alive: Alive::from_slice(target), defense: 0, stunned: false };
    for (entry, &(model, copies)) in attacker.iter().enumerate() {
        let model_rules: Vec<&Rule> = model.rules.iter().filter(|r| attacking_rule(situation.edition, r)).collect();
        let model_has = |id: RuleId| model_rules.iter().any(|r| r.id() == id);
        let weapons: Vec<&Weapon> = usable_by(model, &model_rules, &view, situation, pick).map(|(_, w)| w).collect();
        // v2 Furious: "+1 attack with a weapon of your choice": the weapon with the most AP.
        let extra: i32 = active(model_rules.iter().copied(), Side::Attacker, &model_has, situation, &view)
            .into_iter()
            .map(|(_, e)| if let Effect::ExtraAttacks(n) = e { n } else { 0 })
            .sum();
        let chosen = if extra > 0 {
            weapons.iter().enumerate().max_by_key(|(i, w)| (weapon_ap(w, situation, &view), std::cmp::Reverse(*i))).map(|(i, _)| i)
        } else {
            None
        };
        for (wi, weapon) in weapons.iter().enumerate() {
            // sums saturate: a total past u32::MAX stays over every dice limit instead of wrapping
            let per_model = weapon.attacks.saturating_mul(weapon.count).saturating_add(if Some(wi) == chosen { extra.max(0) as u32 } else { 0 });
            let dice = per_model.saturating_mul(copies);
            let found = keys.iter().position(|(w, q, r)| *q == model.quality && w.same_profile(weapon) && *r == model_rules);
            if let Some(i) = found {
                out[i].dice = out[i].dice.saturating_add(dice);
                if recording {
                    counted[i].push((entry, per_model));
                }
                continue;
            }
            if recording {
                counted.push(vec![(entry, per_model)]);
            }
            let mut rules: Vec<Rule> = weapon.rules.clone();
            for r in &model_rules {
                if !rules.iter().any(|x| x.same_name(r)) {
                    rules.push((*r).clone());
                }
            }
            keys.push((weapon, model.quality, model_rules.clone()));
            out.push(Group {
                label: if labels { weapon.profile() } else { String::new() },
                kind: GroupKind::Weapon,
                dice,
                quality: model.quality,
                takedown: rules.iter().any(|r| has_effect(situation.edition, r, Side::Attacker, |e| matches!(e, Effect::Takedown))),
                deadly: rules.iter().any(|r| has_effect(situation.edition, r, Side::Attacker, |e| matches!(e, Effect::Deadly(_)))),
                rules: rules.into(),
            });
        }
    }
    if let Some(recipe) = recipe.as_deref_mut() {
        recipe.candidates = out.iter().cloned().zip(counted.into_iter().map(Dice::Weapon)).collect();
    }
    // Impact per attacking model, less the target's per-model reductions (Counter); both are
    // rows of the rule table, read against the untouched target.
    if pick.takes_model_dice() {
        let mut impact = [0i64; 2];
        let mut impact_ap = 0i32;
        // (for the recipe) Impact dice and hits per model of each entry
        let mut impact_terms: [Vec<(usize, i64)>; 2] = [Vec::new(), Vec::new()];
        // Ravage and Crush dice by (need, AP, wounds), and per model of each entry
        let mut dice: Vec<((u8, u8, bool), i64, Vec<(usize, i64)>)> = Vec::new();
        for (entry, &(m, n)) in attacker.iter().enumerate() {
            for (r, e) in active(m.rules.iter(), Side::Attacker, &|x| m.rules.iter().any(|r| r.id() == x), situation, &view) {
                match e {
                    Effect::ImpactDice(a) | Effect::ImpactHits(a) => {
                        let which = usize::from(matches!(e, Effect::ImpactHits(_)));
                        impact[which] = impact[which].saturating_add(i64::from(amount(a, r)).saturating_mul(i64::from(n)));
                        impact_terms[which].push((entry, i64::from(amount(a, r))));
                    }
                    Effect::ImpactAp(a) => impact_ap = impact_ap.max(amount(a, r)),
                    Effect::MeleeDice { amount: a, need, ap, wounds } => {
                        let per_model = i64::from(amount(a, r).max(0));
                        let x = per_model.saturating_mul(i64::from(n));
                        match dice.iter_mut().find(|(k, ..)| *k == (need, ap, wounds)) {
                            Some((_, total, terms)) => {
                                *total = total.saturating_add(x);
                                terms.push((entry, per_model));
                            }
                            None => dice.push(((need, ap, wounds), x, vec![(entry, per_model)])),
                        }
                    }
                    _ => {}
                }
            }
        }
        for ((need, ap, wounds), total, terms) in dice {
            let group = Group {
                label: if labels { format!("{}({total})", if wounds { "Ravage" } else { "Crush" }) } else { String::new() },
                kind: GroupKind::Dice { need, ap, wounds },
                dice: total.clamp(0, i64::from(u32::MAX)) as u32,
                quality: need,
                rules: Default::default(),
                takedown: false,
                deadly: false,
            };
            if let Some(recipe) = recipe.as_deref_mut() {
                recipe.candidates.push((group.clone(), Dice::Counted { terms, less: 0 }));
            }
            if total > 0 {
                out.push(group);
            }
        }
        let reduction: i64 = target
            .iter()
            .map(|&(m, n)| {
                let rules = m.rules.iter().chain(m.weapons.iter().flat_map(|w| w.rules.iter()));
                let per_model = active(rules, Side::Target, &|_| false, situation, &TargetView { alive: smallvec::smallvec![(m, n)], defense: 0, stunned: false })
                    .into_iter()
                    .map(|(_, e)| if let Effect::ImpactReduction(x) = e { x } else { 0 })
                    .max()
                    .unwrap_or(0);
                i64::from(per_model).saturating_mul(i64::from(n))
            })
            .fold(0i64, i64::saturating_add);
        let impact_kind = GroupKind::Impact { ap: impact_ap.clamp(0, 6) as u8 };
        let [dice_terms, hits_terms] = impact_terms;
        for (kind, total, terms, less) in [(impact_kind, impact[0].saturating_sub(reduction), dice_terms, reduction), (GroupKind::AutomaticHits, impact[1], hits_terms, 0)] {
            let group = Group {
                label: if labels { format!("Impact({total})") } else { String::new() },
                kind,
                dice: u32::try_from(total.max(0)).unwrap_or(u32::MAX),
                quality: 2,
                rules: Default::default(),
                takedown: false,
                deadly: false,
            };
            if let Some(recipe) = recipe.as_deref_mut() {
                recipe.candidates.push((group.clone(), Dice::Counted { terms, less }));
            }
            if total > 0 {
                out.push(group);
            }
        }
    }
    out.sort_by_key(Group::priority);
    out
}

/// The range a weapon loses against the target (Aircraft), unless it ignores negative
/// modifiers (Lock-On) or the penalty's conditions fail (v2 Anti-Air).
fn range_penalty(weapon: &Weapon, model_rules: &[&Rule], situation: &Situation, view: &TargetView) -> i32 {
    if weapon.range.is_none() || situation.melee {
        return 0;
    }
    let has = |id: RuleId| weapon.rules.iter().chain(model_rules.iter().copied()).any(|r| r.id() == id);
    let ignores = active(weapon.rules.iter().chain(model_rules.iter().copied()), Side::Attacker, &has, situation, view)
        .iter()
        .any(|(_, e)| matches!(e, Effect::IgnoreNegativeHitModifiers));
    if ignores {
        return 0;
    }
    active(view.rules(), Side::Target, &has, situation, view)
        .into_iter()
        .map(|(_, e)| if let Effect::RangePenalty(n) = e { n } else { 0 })
        .sum()
}

/// The range a spell loses against a target whose models are `view` (Aircraft: "units
/// targeting them get -12" to their range").
pub fn spell_range_penalty(edition: Edition, view: &TargetView) -> i32 {
    let situation = Situation::spell(edition, 0.0);
    active(view.rules(), Side::Target, &|_| false, &situation, view)
        .into_iter()
        .map(|(_, e)| if let Effect::RangePenalty(n) = e { n } else { 0 })
        .sum()
}

/// The AP a weapon's rules give in this situation, for picking the best weapon (v2 Furious).
fn weapon_ap(weapon: &Weapon, situation: &Situation, view: &TargetView) -> i32 {
    active(&weapon.rules, Side::Attacker, &|n| weapon.rules.iter().any(|r| r.id() == n), situation, view)
        .into_iter()
        .map(|(r, e)| if let Effect::Ap(a) = e { amount(a, r) } else { 0 })
        .sum()
}

/// Rules of the attacker's and the target's models and weapons that `engine` ignores
/// (see [`census::ignored_by`]): reported with its result, never silently dropped.
pub fn unmodelled_rules(attacker: &[(Model, u32)], target: &[(Model, u32)], edition: Edition, engine: Engine) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (m, _) in attacker.iter().chain(target) {
        for r in m.rules.iter().chain(m.weapons.iter().flat_map(|w| w.rules.iter())) {
            if !names.contains(&r.name) && census::ignored_by(edition, &r.name, engine) {
                names.push(r.name.clone());
            }
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attack::allocation::Allocation;
    use crate::profile::Unit;

    /// A recipe from one number of each model gives what planning afresh gives for every
    /// other number of the same models, or declines (never a different answer).
    #[test]
    fn a_recipe_gives_the_groups_of_the_same_models_in_other_numbers() {
        let v = Edition::V3_5;
        let parse = |text: &str| Unit::parse(text, v).unwrap();
        let captain = parse("Captain [1] Q3+ D4+ | Hero, Tough(3), Impact(2)\nHand Weapon (A2, AP(1))");
        let chargers = [
            parse("Squad [10] Q4+ D4+\n8x Hand Weapon (A2, AP(1))\n2x Claw (A1, Rending)").join(&captain, v).unwrap(),
            parse("Riders [6] Q4+ D4+ | Impact(1), Ravage(1)\n6x Lance (A1, AP(2))").join(&captain, v).unwrap(),
            parse("Brutes [3] Q4+ D4+ | Tough(3), Crush(2), Furious\n3x Club (A3)\n3x Fist (A1, AP(1))"),
        ];
        let targets = [parse("Guards [5] Q4+ D3+\n5x Halberd (A2, Counter)"), parse("Spears [2] Q4+ D3+\n2x Spear (A1, Counter)")];
        let mut replayed = 0;
        for charger in &chargers {
            let alloc = Allocation::new(charger, v);
            for target in &targets {
                let target_alloc = Allocation::new(target, v);
                let target_alive = target_alloc.view(target_alloc.start(), false).alive;
                let situation = Situation::new(v, true, 6.0);
                let mut recipes: Vec<((usize, bool), Recipe)> = Vec::new();
                for s in alloc.states().into_iter().filter(|s| !alloc.destroyed(*s)) {
                    let alive = alloc.view(s, false).alive;
                    let fresh = unlabelled_groups(&alive, &target_alive, &situation, Pick::All);
                    let key = (alive.len(), alloc.alive_key(s).1);
                    let counts: Vec<u32> = alive.iter().map(|(_, n)| *n).collect();
                    match recipes.iter().find(|(k, _)| *k == key) {
                        Some((_, recipe)) => {
                            if let Some(groups) = recipe.groups(&counts) {
                                assert_eq!(groups, fresh, "{} against {} in {s:?}", charger.name(), target.name());
                                replayed += 1;
                            }
                        }
                        None => {
                            let (groups, recipe) = unlabelled_groups_and_recipe(&alive, &target_alive, &situation, Pick::All);
                            assert_eq!(groups, fresh);
                            recipes.push((key, recipe));
                        }
                    }
                }
            }
        }
        assert!(replayed > 40, "{replayed}");
    }

    /// Impact less the target's Counter models: a group that vanishes with fewer models is
    /// not replayed with no dice.
    #[test]
    fn a_recipe_declines_when_a_dice_group_vanishes() {
        let v = Edition::V3_5;
        let riders = Unit::parse("Riders [3] Q4+ D4+ | Impact(1)\n3x Lance (A1)", v).unwrap();
        let guards = Unit::parse("Guards [2] Q4+ D3+\n2x Halberd (A2, Counter)", v).unwrap();
        let (alloc, target) = (Allocation::new(&riders, v), Allocation::new(&guards, v));
        let situation = Situation::new(v, true, 6.0);
        let target_alive = target.view(target.start(), false).alive;
        let (groups, recipe) = unlabelled_groups_and_recipe(&alloc.view(alloc.start(), false).alive, &target_alive, &situation, Pick::All);
        assert!(groups.iter().any(|g| matches!(g.kind, GroupKind::Impact { .. }) && g.dice == 1));
        // 2 riders: Impact 2 less 2 Counter models: no Impact group
        assert!(recipe.groups(&[2]).is_none());
        assert_eq!(recipe.groups(&[3]), Some(groups));
    }
}
