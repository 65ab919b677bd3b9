//! A unit during a game (`Live`: what it has lost, where it stands, what it holds), and how
//! units are named (`Id`: its army and its index in the army).

use super::table::Point;
use crate::attack::allocation::State;

/// A unit: (army, index in the army).
pub type Id = (usize, usize);

/// A unit during a game.
#[derive(Debug, Clone, Default)]
pub struct Live {
    /// Wounds and models lost, in the unit's removal order.
    pub s: State,
    pub pos: Point,
    pub shaken: bool,
    pub fatigued: bool,
    pub activated: bool,
    /// Destroyed or Routed.
    pub gone: bool,
    /// Routed (a failed melee test at half strength; Firefight: a Rout Test while Stunned).
    pub routed: bool,
    /// Set aside to Ambush and not yet on the table.
    pub reserve: bool,
    /// The radius of the disc holding the models left (`View::radius`), which models are
    /// left (`Allocation::alive_key`) and how many: kept up to date by `View::set_state`.
    pub radius: f64,
    pub key: (u32, bool),
    pub left: u32,
    /// Wounds left (`UnitInfo::wounds_left`, which walks the removal order).
    pub wounds_left: u32,
    /// The round it arrived by Ambush (0: deployed as usual).
    pub arrived: u8,
    /// The Limited weapons fired ("may only be used once per game"), one bit per weapon of
    /// `UnitInfo::limited`: Limited is spent weapon by weapon.
    pub limited_spent: u32,
    /// The models (bit per formation slot; slots past 63 share the last bit) that took their
    /// dangerous terrain test in the current activation: one test per model per activation.
    pub dangerous_tested: u64,
    /// It moved since the beginning of its last activation (v3.4.1's Entrenched: "as long as
    /// it hasn't moved since the beginning of its last activation"). Moves set it (actions,
    /// a charged unit's move into contact, moving back, leaving or entering a transport, a
    /// move after attacking); placements do not (deployment, Scout, Ambush, re-positioning).
    pub moved: bool,
    /// It moved after shooting or melee this round (`Effect::MoveAfterAttack`: "Once per round").
    pub moved_after_attack: bool,
    /// It used its extra activation (`Effect::ExtraActivation`: "Once per game").
    pub extra_used: bool,
    /// A rule a friendly unit gave it until it is next used (`Effect::Buff`, a buff spell):
    /// 1 + its index in `UnitInfo::buffed` (0: none).
    pub buff: u8,
    /// A rule an enemy unit gave it until it is next used (`Effect::Debuff`, a debuff spell),
    /// as `buff`: "Effects from multiple instances of the same special rule or spell don't
    /// stack", but a friend's and an enemy's do.
    pub debuff: u8,
    /// A rule the enemy army's units attacking it get until one of them uses it (a mark
    /// spell: "which friendly units get Relentless against once"), as its index in the
    /// marking (enemy) army's `Prepared::given`.
    pub mark: Option<u16>,
    /// The modifiers its next casting roll gets: from a friend (Casting Buff) and from an
    /// enemy (Casting Debuff, "which gets -3 to casting rolls once"); 0: none. Different
    /// rules and spells stack; one from each side at a time.
    pub casting_modifier: [i8; 2],
    /// Spell tokens held (`casting`).
    pub tokens: u8,
    /// Of those, the most its Caster(X) models hold, which stay from round to round (a Caster
    /// Group's go at the end of the round).
    pub own_tokens: u8,
    /// The spells (bit per index in `Casting::spells`) it tried this activation: "only one
    /// try per spell".
    pub spells_tried: u64,
    /// v2.x: its psychic tried to cast or to block this round ("Psychics may only either try
    /// to cast or try to block a spell each round").
    pub psychic_tried: bool,
    /// The transport (its index in the army) the unit is inside (`transport`): off the table.
    pub carrier: Option<u16>,
    /// Where it stood when the round began.
    pub round_start: Point,
    pub dealt: u32,
    pub taken: u32,
    pub holding: u32,
    /// Rounds ended inside a transport on the table, and waiting to arrive (`UnitTotals`).
    pub rounds_inside: u8,
    pub rounds_in_reserve: u8,
    /// What its activations came to (`usefulness`).
    pub usefulness: super::usefulness::Usefulness,
}

impl Live {
    pub fn on_table(&self) -> bool {
        !self.gone && !self.reserve && self.carrier.is_none()
    }
}
