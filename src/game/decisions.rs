//! The one interface between the rules and the players (`Player`): every choice the rules
//! leave to a player, asked at the moment the rulebook asks it, answered from a read-only
//! view of the game and the dice the rules hand over. A player never changes the game; the
//! rules check what it answers where a rule limits it (the target cap, legal spots and
//! paths) and call nothing else of it. As OpenSpiel keeps a game's `State` apart from the
//! bots that choose, the phases know only this trait, and `policy::Bot` is one player.
//!
//! The dice are the game's own generator, handed to the player for the draws it makes (the
//! spots it samples, the random policy's picks), so a seeded game draws the same numbers in
//! the same order whichever player answers.

use super::config::Short;
use super::cache::ShotKey;
use super::paths::Path;
use super::spellbook::Window;
use super::state::View;
use super::live::Id;
use super::table::Point;
use crate::attack::plan::{Group, Situation};
use crate::rolls::Dice;

/// What a unit does with its activation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Action {
    Hold,
    Advance(Path),
    Rush(Path),
    Charge(Id, Path),
    /// Into a friendly transport by a move (Advance, or Rush when `true`) that reaches it.
    Embark(Id, Path, bool),
}

/// Weapon groups fired at one target (indices into the shot plan's groups).
#[derive(Debug, Clone, PartialEq)]
pub struct Volley {
    pub target: Id,
    pub key: ShotKey,
    pub groups: Short<usize, 8>,
}

/// How an embarked unit leaves its transport.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Exit {
    /// Placed at the spot, then shoots as after an Advance.
    Advance(Point),
    Rush(Point),
    /// Charges the target from the transport's footprint along the path.
    Charge(Id, Path),
}

/// A player: the choices of both sides of a game (each call names the unit or army it is
/// for). Every method sees the game as it stands (`view`) and may draw from `rng`.
pub trait Player {
    /// A round begins (and, before round 1, the game): what the player kept for the round
    /// (the markers its units head for) starts afresh.
    fn round_begins(&mut self, view: &View<'_>);

    // ---- set-up
    /// Whether the Ambush or Scout unit `id` is set aside before deployment ("May be set
    /// aside before deployment"), or deploys with the others.
    fn sets_aside(&mut self, view: &View<'_>, id: Id) -> bool;
    /// The units of `army` that start inside one of its transports: (unit, transport).
    fn passengers(&mut self, view: &View<'_>, rng: &mut Dice, army: usize) -> Vec<(usize, usize)>;
    /// Where `id` deploys, within `depth` inches of its edge (`None`: the rules find a spot).
    fn deployment_spot(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, depth: f64) -> Option<Point>;
    /// Where the Ambusher `id` arrives (`None`: it waits).
    fn ambush_spot(&mut self, view: &View<'_>, rng: &mut Dice, id: Id) -> Option<Point>;
    /// Which of the enemy units `near` an arriving unit with hits on arrival takes them on.
    fn surprise_target(&mut self, view: &View<'_>, rng: &mut Dice, army: usize, near: &[Id]) -> Option<Id>;
    /// Where `id` goes when a rule places it up to `inches` after deployment.
    fn placement_after_deployment(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, inches: f64) -> Option<Point>;

    // ---- activations
    /// Which ready unit of `army` activates next.
    fn pick_unit(&mut self, view: &View<'_>, rng: &mut Dice, army: usize) -> usize;
    /// Which eligible unit of `army` uses its extra activation, if any.
    fn extra_activation(&mut self, view: &View<'_>, rng: &mut Dice, army: usize, eligible: &[usize]) -> Option<usize>;
    /// Where the goal of a placement of up to `reach` inches on activation is.
    fn placement_goal(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, reach: f64) -> Option<Point>;
    /// The Aircraft `id`'s straight move.
    fn aircraft_path(&mut self, view: &View<'_>, rng: &mut Dice, id: Id) -> Option<Path>;
    /// v2.x: the spell the psychic `id` tries now (an index in its casting's spells) and its
    /// target, or none (it keeps its try, perhaps to block).
    fn psychic_spell(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, window: Window) -> Option<(usize, Id)>;
    /// v2.x: whether the psychic `blocker` tries to block `caster`'s spell `si` at `target`.
    fn blocks(&mut self, view: &View<'_>, rng: &mut Dice, blocker: Id, caster: Id, si: usize, target: Id) -> bool;
    /// v2.x: where the Aircraft `id` that flew off the table is placed back, touching an edge.
    fn reentry_spot(&mut self, view: &View<'_>, rng: &mut Dice, id: Id) -> Point;
    /// The action `id` takes.
    fn decide(&mut self, view: &View<'_>, rng: &mut Dice, id: Id) -> Action;
    /// How `id` leaves `transport`, if it does.
    fn exit(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, transport: Id) -> Option<Exit>;
    /// The path of a move of up to `inches` after attacking.
    fn after_attack_path(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, inches: f64) -> Option<Path>;

    // ---- shooting and melee
    /// Which targets `id` shoots and with which weapon groups (the rules fire at no more
    /// targets than the edition allows).
    fn shots(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, moved: bool) -> Short<Volley, 2>;
    /// Which enemy unit a strafing move's weapons hit.
    fn strafe_target(&mut self, view: &View<'_>, rng: &mut Dice, army: usize, plans: &[(Id, Vec<Group>)], situation: &Situation) -> Option<Id>;
    /// Whether the charged unit `d` strikes back at `c`.
    fn strike_back(&mut self, view: &View<'_>, rng: &mut Dice, c: Id, d: Id) -> bool;
    /// Where `by` pushes the Stunned `id`, up to `inches` (`None`: it stays). The rules
    /// check the spot (`View::push_spots` lists legal ones).
    fn push_spot(&mut self, view: &View<'_>, rng: &mut Dice, by: Id, id: Id, inches: f64) -> Option<Point>;

    // ---- rules held once, spells
    /// Which friend gets `id`'s buff (`given`: the rule's index in its army's
    /// `Prepared::given`), and that rule's index in the friend's `UnitInfo::buffed`.
    fn buff_target(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, given: u16) -> Option<(Id, usize)>;
    /// Which enemy gets `id`'s debuff (`given`: in the enemy army's list), as `buff_target`.
    fn debuff_target(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, given: u16) -> Option<(Id, usize)>;
    /// Which unit's next casting roll `id` moves (a friend's up, an enemy's down).
    fn casting_roll_target(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, friend: bool) -> Option<Id>;
    /// Which enemy takes `id`'s test (a dangerous terrain test when `dangerous`).
    fn enemy_test_target(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, dangerous: bool) -> Option<Id>;
    /// The spells `id` tries now, in order, each with its targets.
    fn spells_to_cast(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, window: Window) -> Vec<(usize, Vec<Id>)>;
    /// What casting spell `si` of `id` at `target` is worth to its side (the stake others
    /// help or hinder for).
    fn spell_value(&mut self, view: &View<'_>, rng: &mut Dice, id: Id, si: usize, target: Id) -> f64;
    /// How many tokens `who` spends to help (or hinder) a cast worth `stake`, the roll
    /// already moved by `modifier`.
    fn tokens_to_spend(&mut self, view: &View<'_>, rng: &mut Dice, who: Id, stake: f64, modifier: i32, help: bool) -> u8;
    /// Where the passenger `id` of a destroyed transport wants to be placed.
    fn wreck_goal(&mut self, view: &View<'_>, rng: &mut Dice, id: Id) -> Point;
}
