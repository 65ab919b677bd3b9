//! A caster's spells as the game plays them: what each does (hits, or a rule held once by a
//! friend, an enemy or the enemy's attackers), when in an activation it may be cast, and a
//! unit's casters (which models cast, their tokens, the spells left out and why). Built once
//! when the armies are prepared (`prepare`); the casting itself is `casting`'s.

use crate::attack::allocation::Allocation;
use crate::attack::plan::Group;
use crate::loaders::army_forge::SpellDefinition;
use crate::rules::spells::{Once, Roll, SpellEffect, Targets};
use crate::Edition;

pub use crate::rules::spells::{cast_chance, cast_succeeds, caster_tokens};

/// What a spell the game casts does: hits on enemy units, or a rule held "once (next time the
/// effect would apply)" (`rules::spells::Once`): by a friendly unit, as a friend's buff is
/// (`Effect::Buff`: "which gets Evasive", "which get +1 to hit rolls when shooting"); by an
/// enemy unit (a debuff: "which get -1 to defense rolls"); or by the caster's army's units
/// attacking an enemy unit (a mark: "which friendly units get Relentless against").
#[derive(Debug, Clone)]
pub enum CastEffect {
    Hits(Group),
    Buff(&'static str),
    Debuff(&'static str),
    Mark(&'static str),
    /// "which gets -3 to casting rolls once (next time the effect would apply)": on the enemy
    /// unit's next casting roll.
    CastingModifier(i8),
    /// "which must take a morale test. If failed, it becomes fatigued."
    TestOrFatigued,
}

impl CastEffect {
    /// What a game makes of a book's spell, if it casts it at all. "Pick one friendly unit
    /// within 12", which gets Evasive once (next time the effect would apply)" is a buff;
    /// `Prepared::with_spells` keeps a lasting spell only where some unit gains from it.
    pub fn of(s: &crate::rules::spells::Spell, edition: Edition) -> Option<CastEffect> {
        match (s.targets.enemy, s.once_rule(edition)) {
            (true, _) if matches!(s.effect, SpellEffect::Hits { .. }) => s.damage_group(edition).map(CastEffect::Hits),
            (false, Some(Once::Holds(rule))) => Some(CastEffect::Buff(rule)),
            (true, Some(Once::Holds(rule))) => Some(CastEffect::Debuff(rule)),
            (true, Some(Once::Against(rule))) => Some(CastEffect::Mark(rule)),
            (true, None) => match s.effect {
                SpellEffect::Modifier { roll: Roll::Casting, amount, against: false } => i8::try_from(amount).ok().map(CastEffect::CastingModifier),
                SpellEffect::TestOrFatigued => Some(CastEffect::TestOrFatigued),
                _ => None,
            },
            _ => None,
        }
    }

    /// The rule a lasting spell gives.
    pub fn rule(&self) -> Option<&'static str> {
        match self {
            CastEffect::Hits(_) | CastEffect::CastingModifier(_) | CastEffect::TestOrFatigued => None,
            CastEffect::Buff(r) | CastEffect::Debuff(r) | CastEffect::Mark(r) => Some(r),
        }
    }
}

/// Which of its spells a caster may try at one point of its activation: damage spells only
/// before its action is chosen (a buff's tokens could pay for a damage spell after its move),
/// buffs only before a charge (a damage spell could take the target the charge was chosen
/// for), any just before it attacks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    Damage,
    Buffs,
    Any,
}

impl Window {
    pub fn allows(self, effect: &CastEffect) -> bool {
        match (self, effect) {
            (Window::Any, _) | (Window::Damage, CastEffect::Hits(_)) => true,
            (Window::Buffs, e) => !matches!(e, CastEffect::Hits(_)),
            _ => false,
        }
    }
}

/// A spell the game casts: one of the book's damage spells (its hits as a weapon group), or
/// one that gives friendly units a rule the game plays as a buff.
#[derive(Debug, Clone)]
pub struct CastSpell {
    pub name: String,
    /// The number in brackets: its tokens (v3.x), the D6+X to reach (v2.x Psychic).
    pub tokens: u8,
    pub targets: Targets,
    pub effect: CastEffect,
    /// A buff's, debuff's or mark's rule as an index in the list of the army that holds it
    /// (`Prepared::given`: the caster's for buffs and marks, the enemy's for debuffs), set
    /// when the armies are prepared.
    pub given: Option<u16>,
}

impl CastSpell {
    /// A damage spell's hits.
    pub fn hits(&self) -> Option<&Group> {
        match &self.effect {
            CastEffect::Hits(g) => Some(g),
            _ => None,
        }
    }
}

/// A unit's casting: which of its models are casters, and the spells it casts.
#[derive(Debug, Clone, Default)]
pub struct Casting {
    /// Caster Group: "The caster loses all unspent spell tokens at the end of the round."
    pub group: bool,
    /// The book's spells the game casts, in the book's order: its damage spells, and its
    /// spells giving a friendly unit a rule the game plays as a buff (`Prepared::new` keeps
    /// those some friendly unit would gain from).
    pub spells: Vec<CastSpell>,
    /// What the policy counts a held token worth, in points: the unit's best spell's expected
    /// points on an average enemy unit, per token, at the bare chance to cast (a half).
    pub token_worth: f64,
    /// The formation slots (removal order) of the models with Caster(X) or Caster Group: a
    /// spell's range and line of sight are the caster's ("resolve the effect on a target in
    /// line of sight"), not its bodyguards'.
    pub slots: Vec<usize>,
}

impl Casting {
    /// Some model has Caster(X) or Caster Group.
    pub fn caster(&self) -> bool {
        !self.slots.is_empty()
    }

    /// The casting of a unit whose models are `alloc`'s, from its book's `spells`; and what
    /// the game leaves out of it, for the unit's unmodelled list: each spell it does not cast
    /// ("spell Name"), or the Caster rule itself when the unit has no spells (a unit not read
    /// from its book).
    pub fn of(alloc: &Allocation, spells: &[SpellDefinition], edition: Edition) -> (Casting, Vec<String>) {
        let has = |k: u32, name: &str| crate::rules::census::game_plays(edition, name) && alloc.model_at(k).rules.iter().any(|r| r.name == name);
        // (v2.x's Psychic(X) models cast as its rulebook says: `psychic`)
        let slots: Vec<usize> = (0..alloc.len()).filter(|&k| has(k, "Caster") || has(k, "Caster Group") || has(k, "Psychic")).map(|k| k as usize).collect();
        if slots.is_empty() {
            return (Casting::default(), Vec::new());
        }
        let (caster, group) = (slots.iter().any(|&k| has(k as u32, "Caster")), slots.iter().any(|&k| has(k as u32, "Caster Group")));
        let mut cast = Vec::new();
        let mut left_out = Vec::new();
        // v2.x's psychics cast damage spells (the others are reported)
        let psychic_only = !caster && !group;
        for d in spells {
            let played = d.spell.as_ref().and_then(|s| Some(CastSpell { name: d.name.clone(), tokens: s.tokens, targets: s.targets, effect: CastEffect::of(s, edition)?, given: None }));
            let played = played.filter(|s| !psychic_only || s.hits().is_some());
            match played {
                Some(spell) => cast.push(spell),
                None => left_out.push(format!("spell {}", d.name)),
            }
        }
        if spells.is_empty() {
            left_out.push(match (caster, group) {
                (true, _) => "Caster (no spells: not read from its book)",
                (false, true) => "Caster Group (no spells: not read from its book)",
                // v2.x: a psychic given no spells
                (false, false) => "Psychic (no spells given: it does not cast)",
            }.to_string());
        }
        (Casting { group, spells: cast, token_worth: 0.0, slots }, left_out)
    }
}

/// Whether spell `si` was tried this activation (`Live::spells_tried`; spells past the 63rd
/// share the last bit).
pub fn tried(spells_tried: u64, si: usize) -> bool {
    spells_tried & (1 << si.min(63)) != 0
}

