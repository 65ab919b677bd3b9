//! From profiles to dice: the weapon groups of an attack, and for each group and each state
//! of the target, the [`DieModel`] that says how every die of that group is judged.
//!
//! This is the one place where rule semantics become dice. The exact engine enumerates the
//! faces of each die through a `DieModel`; the sampler rolls dice through the same methods;
//! so the two cannot drift apart.

use crate::edition::Edition;
use crate::profile::{Model, Weapon};
use crate::rules::effects::{self, Amount, Cond, Effect, Side};
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
    /// The attacker already fought in melee this round (only unmodified 6s hit in melee).
    pub fatigued: bool,
    pub edition: Edition,
}

impl Situation {
    fn over_nine(&self) -> bool {
        self.distance > 9.0
    }

    /// Whether a rule's condition holds against a target in `view`.
    fn holds(&self, cond: Cond, view: &TargetView) -> bool {
        match cond {
            Cond::Shooting => !self.melee,
            Cond::Melee => self.melee,
            Cond::Charging => self.charging,
            Cond::OverNine => self.over_nine(),
            Cond::Moved => self.moved,
            Cond::NotFatigued => !self.fatigued,
            Cond::TargetDefense(lo, hi) => view.most(|m| (lo..=hi).contains(&m.defense)),
            Cond::TargetTough(lo, hi) => view.most(|m| (lo..=hi).contains(&m.tough)),
        }
    }
}

/// What kind of dice a group rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GroupKind {
    /// Attack dice: Quality tests.
    Weapon,
    /// Impact(X) dice: "For each 2+ the target takes one hit."
    Impact,
}

/// One weapon group: the same weapon carried by models of the same profile, rolled together.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    pub label: String,
    pub kind: GroupKind,
    /// Dice rolled: copies × attacks (Impact: the X of every model, less Counter).
    pub dice: u32,
    pub quality: u8,
    /// The weapon's rules and the attacking models' rules, each name once.
    pub rules: Vec<Rule>,
    pub takedown: bool,
    pub deadly: bool,
}

impl Group {
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

/// The target's models that are still alive, as one weapon group sees them.
pub struct TargetView<'a> {
    /// Alive models as runs of identical models `(model, how many)`.
    pub alive: Vec<(&'a Model, u32)>,
    /// The Defense the hits are blocked with: the unit's while any of its own models live,
    /// else the joined hero's ("must use the unit's Defense until all other models have been killed").
    pub defense: u8,
}

impl TargetView<'_> {
    pub fn count(&self) -> u32 {
        self.alive.iter().map(|(_, n)| n).sum()
    }

    /// Whether more than half of the alive models satisfy `f` ("most models").
    fn most(&self, f: impl Fn(&Model) -> bool) -> bool {
        2 * self.alive.iter().filter(|(m, _)| f(m)).map(|(_, n)| n).sum::<u32>() > self.count()
    }

    /// Whether every alive model has the rule ("units where all models have this rule").
    fn all_have(&self, name: &str) -> bool {
        !self.alive.is_empty() && self.alive.iter().all(|(m, _)| m.rules.iter().any(|r| r.name == name))
    }

    /// The rules every alive model has, each name once.
    fn shared_rules(&self) -> Vec<&Rule> {
        let Some((first, _)) = self.alive.first() else { return Vec::new() };
        let mut out: Vec<&Rule> = Vec::new();
        for r in &first.rules {
            if self.all_have(&r.name) && !out.iter().any(|o| o.name == r.name) {
                out.push(r);
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
    /// Extra hits dealt by an unmodified 6 (which are not 6s themselves).
    pub extra_hits_on_six: u8,
    /// Each hit is multiplied by this (Blast, capped by the models in the target).
    pub multiplier: u32,
    /// A Defense face other than 1 and 6 blocks if it is at least this (7: never).
    pub block_need: u8,
    /// The same for hits from unmodified 6s (Rending and the like add AP).
    pub block_need_six: u8,
    /// Unmodified Defense 6s are re-rolled once (Bane).
    pub reroll_defense_six: bool,
    pub extra_wounds_block_one: u8,
    pub extra_wounds_unblocked_six: u8,
    /// Each wound is ignored on this face or more (7: never): Regeneration and the like.
    pub ignore_on: u8,
    /// Each wound counts this many times on one model, without carry-over (Deadly; 1: none).
    pub deadly: u32,
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
            extra_hits_on_six: 0,
            multiplier: 1,
            block_need,
            block_need_six: block_need,
            reroll_defense_six: false,
            extra_wounds_block_one: 0,
            extra_wounds_unblocked_six: 0,
            ignore_on,
            deadly: 1,
        }
    }

    /// "a roll of 6 always counts as a success and a roll of 1 always counts as a fail".
    pub fn hit(&self, face: u8) -> HitFace {
        if face == 6 {
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
        face == 6 || (face != 1 && face >= need)
    }

    /// Wounds an unblocked hit deals, before any are ignored (1, plus Shred on a final 1
    /// to block, plus Rupture on a hit from a 6).
    pub fn wounds_of_unblocked(&self, final_face: u8, six: bool) -> u32 {
        1 + if final_face == 1 { u32::from(self.extra_wounds_block_one) } else { 0 }
            + if six { u32::from(self.extra_wounds_unblocked_six) } else { 0 }
    }

    pub fn ignores_wound(&self, face: u8) -> bool {
        face >= self.ignore_on
    }

    /// Hits from one successful die: (hits that count as 6s, other hits).
    pub fn hits_from(&self, face: HitFace) -> (u32, u32) {
        match face {
            HitFace::Miss => (0, 0),
            HitFace::Hit => (0, self.multiplier),
            HitFace::Six => (self.multiplier, self.multiplier * u32::from(self.extra_hits_on_six)),
        }
    }
}

/// The effects of `rules` on one side whose conditions hold: each with the rule it comes
/// from (for its rating). The one place where the rule table is read.
fn active<'r>(
    rules: impl IntoIterator<Item = &'r Rule>,
    side: Side,
    situation: &Situation,
    view: &TargetView,
) -> Vec<(&'r Rule, Effect)> {
    let mut out = Vec::new();
    for rule in rules {
        let Some(def) = effects::definition(situation.edition, &rule.name) else { continue };
        for entry in def.effects.iter().filter(|e| e.side == side) {
            if entry.conds.iter().all(|c| situation.holds(*c, view)) {
                out.push((rule, entry.effect));
            }
        }
    }
    out
}

/// Whether a rule has any effect of this kind on this side, whatever the conditions.
fn has_effect(edition: Edition, rule: &Rule, side: Side, f: impl Fn(&Effect) -> bool) -> bool {
    effects::definition(edition, &rule.name).is_some_and(|d| d.effects.iter().any(|e| e.side == side && f(&e.effect)))
}

/// Sums the amounts of attacker-side effects of a group that hold in this situation.
struct AttackerEffects {
    hit_mods: Vec<i32>,
    quality: Option<u8>,
    ap: i32,
    ap_on_six: i32,
    extra_hits_on_six: i32,
    extra_wounds_unblocked_six: i32,
    extra_wounds_block_one: i32,
    blast: i32,
    deadly: i32,
    reroll_defense_six: bool,
    ignore_regeneration: bool,
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
        extra_hits_on_six: 0,
        extra_wounds_unblocked_six: 0,
        extra_wounds_block_one: 0,
        blast: 0,
        deadly: 0,
        reroll_defense_six: false,
        ignore_regeneration: false,
        ignore_cover: false,
        ignore_negative: false,
    };
    for (rule, effect) in active(&group.rules, Side::Attacker, situation, view) {
        match effect {
            Effect::HitModifier(a) => e.hit_mods.push(amount(a, rule)),
            Effect::Quality(q) => e.quality = Some(e.quality.map_or(q, |x| x.min(q))),
            Effect::Ap(a) => e.ap += amount(a, rule),
            Effect::ApOnSix(n) => e.ap_on_six += n,
            Effect::ExtraHitsOnSix(n) => e.extra_hits_on_six += n,
            Effect::ExtraWoundsOnUnblockedSix(n) => e.extra_wounds_unblocked_six += n,
            Effect::ExtraWoundsOnBlockOne(n) => e.extra_wounds_block_one += n,
            Effect::Blast(a) => e.blast += amount(a, rule),
            Effect::Deadly(a) => e.deadly += amount(a, rule),
            Effect::RerollDefenseSixes => e.reroll_defense_six = true,
            Effect::IgnoreRegeneration => e.ignore_regeneration = true,
            Effect::IgnoreCover => e.ignore_cover = true,
            Effect::IgnoreNegativeHitModifiers => e.ignore_negative = true,
            // read when the groups are formed, or target-side
            Effect::Takedown
            | Effect::ImpactDice(_)
            | Effect::ImpactReduction(_)
            | Effect::DefenseModifier(_)
            | Effect::ApReduction(_)
            | Effect::IgnoreWounds { .. }
            | Effect::StrikesFirstWhenCharged
            | Effect::ResolutionWounds(_)
            | Effect::PassFailedMoraleOn(_) => {}
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
    // Target-side effects: rules every alive model has, whose conditions hold.
    let mut target_hit_mods = Vec::new();
    let mut defense_mod = 0;
    let mut ap_reduction = 0;
    let mut ignore_on = 7u8;
    for (rule, effect) in active(view.shared_rules(), Side::Target, situation, view) {
        match effect {
            Effect::HitModifier(m) => target_hit_mods.push(amount(m, rule)),
            Effect::DefenseModifier(n) => defense_mod += n,
            Effect::ApReduction(n) => ap_reduction += n,
            Effect::IgnoreWounds { on, regeneration } if !(regeneration && a.ignore_regeneration) => {
                ignore_on = ignore_on.min(on);
            }
            _ => {}
        }
    }
    // Cover: "+1 to Defense rolls when blocking hits from shooting attacks"; Blast ignores it.
    if situation.cover && !situation.melee && !a.ignore_cover {
        defense_mod += 1;
    }
    let alive = view.count();
    let defense = i32::from(view.defense);
    let ap = (a.ap - ap_reduction).max(0);
    let ap_six = (a.ap + a.ap_on_six - ap_reduction).max(0);
    let block_need = clamp_need(defense + ap - defense_mod);
    let block_need_six = clamp_need(defense + ap_six - defense_mod);
    let blast = if a.blast > 0 { (a.blast as u32).min(alive).max(1) } else { 1 };
    let deadly = a.deadly.max(1) as u32;

    match group.kind {
        // "For each 2+ the target takes one hit": no modifiers, no AP, nothing on 6s.
        GroupKind::Impact => DieModel::plain(2, block_need, ignore_on),
        GroupKind::Weapon => {
            let quality = i32::from(a.quality.map_or(group.quality, |q| q.min(group.quality)));
            let mods = a.hit_mods.iter().chain(target_hit_mods.iter()).filter(|m| !(a.ignore_negative && **m < 0));
            let hit_mod: i32 = mods.sum();
            DieModel {
                only_sixes: situation.fatigued && situation.melee,
                hit_need: clamp_need(quality - hit_mod),
                extra_hits_on_six: a.extra_hits_on_six.clamp(0, 100) as u8,
                multiplier: blast,
                block_need,
                block_need_six,
                reroll_defense_six: a.reroll_defense_six,
                extra_wounds_block_one: a.extra_wounds_block_one.clamp(0, 100) as u8,
                extra_wounds_unblocked_six: a.extra_wounds_unblocked_six.clamp(0, 100) as u8,
                ignore_on,
                deadly,
            }
        }
    }
}

/// Whether a weapon may be used in this attack: melee weapons in melee; ranged weapons in
/// range when shooting.
fn usable(weapon: &Weapon, situation: &Situation) -> bool {
    match weapon.range {
        None => situation.melee,
        Some(r) => !situation.melee && f64::from(r) >= situation.distance,
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
    fn takes(&self, weapon: &Weapon, edition: Edition) -> bool {
        match self {
            Pick::All => true,
            Pick::Named(names) => names.iter().any(|n| n == &weapon.name),
            Pick::StrikingFirst(first) => {
                let strikes_first = weapon.rules.iter().any(|r| has_effect(edition, r, Side::Attacker, |e| matches!(e, Effect::StrikesFirstWhenCharged)));
                strikes_first == *first
            }
        }
    }
}

/// The weapon groups of an attack by the `attacker`'s models (runs of identical models) on
/// the `target`'s, in resolution order. Models that share a weapon and a profile (Quality and
/// attack rules) are one group.
pub fn groups(attacker: &[(&Model, u32)], target: &[(&Model, u32)], situation: &Situation, pick: Pick) -> Vec<Group> {
    let mut out: Vec<Group> = Vec::new();
    // (weapon profile, Quality, attacking model's rules) -> index in `out`
    let mut keys: Vec<(&Weapon, u8, Vec<&Rule>)> = Vec::new();
    for &(model, copies) in attacker {
        let model_rules: Vec<&Rule> = model.rules.iter().filter(|r| has_effect(situation.edition, r, Side::Attacker, |_| true)).collect();
        for weapon in model.weapons.iter().filter(|w| usable(w, situation)) {
            if !pick.takes(weapon, situation.edition) {
                continue;
            }
            let dice = weapon.attacks * weapon.count * copies;
            let found = keys.iter().position(|(w, q, r)| *q == model.quality && w.same_profile(weapon) && *r == model_rules);
            if let Some(i) = found {
                out[i].dice += dice;
                continue;
            }
            let mut rules: Vec<Rule> = weapon.rules.clone();
            for r in &model_rules {
                if !rules.iter().any(|x| x.name == r.name) {
                    rules.push((*r).clone());
                }
            }
            keys.push((weapon, model.quality, model_rules.clone()));
            out.push(Group {
                label: weapon.profile(),
                kind: GroupKind::Weapon,
                dice,
                quality: model.quality,
                takedown: rules.iter().any(|r| has_effect(situation.edition, r, Side::Attacker, |e| matches!(e, Effect::Takedown))),
                deadly: rules.iter().any(|r| has_effect(situation.edition, r, Side::Attacker, |e| matches!(e, Effect::Deadly(_)))),
                rules,
            });
        }
    }
    // Impact dice per attacking model, less the target's per-model reductions (Counter);
    // both are rows of the rule table, read against the untouched target.
    if !matches!(pick, Pick::Named(_)) {
        let view = TargetView { alive: target.to_vec(), defense: 0 };
        let impact: i64 = attacker
            .iter()
            .map(|&(m, n)| {
                let per_model: i32 = active(&m.rules, Side::Attacker, situation, &view)
                    .into_iter()
                    .map(|(r, e)| if let Effect::ImpactDice(a) = e { amount(a, r) } else { 0 })
                    .sum();
                i64::from(per_model) * i64::from(n)
            })
            .sum();
        let reduction: i64 = target
            .iter()
            .map(|&(m, n)| {
                let rules = m.rules.iter().chain(m.weapons.iter().flat_map(|w| w.rules.iter()));
                let per_model = active(rules, Side::Target, situation, &view)
                    .into_iter()
                    .map(|(_, e)| if let Effect::ImpactReduction(x) = e { x } else { 0 })
                    .max()
                    .unwrap_or(0);
                i64::from(per_model) * i64::from(n)
            })
            .sum();
        let dice = (impact - reduction).max(0);
        if dice > 0 {
            out.push(Group {
                label: format!("Impact({dice})"),
                kind: GroupKind::Impact,
                dice: dice as u32,
                quality: 2,
                rules: Vec::new(),
                takedown: false,
                deadly: false,
            });
        }
    }
    out.sort_by_key(Group::priority);
    out
}


/// Rules of the attacker's usable weapons and models, and of the target, that neither change
/// an attack in this engine nor are known to lie outside it: reported as not modelled.
pub fn unmodelled_rules(attacker: &[(Model, u32)], target: &[(Model, u32)], edition: Edition) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for (m, _) in attacker.iter().chain(target) {
        for r in m.rules.iter().chain(m.weapons.iter().flat_map(|w| w.rules.iter())) {
            if effects::definition(edition, &r.name).is_none() && !effects::outside_attack(&r.name) && !names.contains(&r.name) {
                names.push(r.name.clone());
            }
        }
    }
    names
}
