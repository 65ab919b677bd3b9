//! The policy's side of a game: `Bot`, what it keeps from game to game (its memo of
//! valuations) and round to round (its claims on markers), and `Seat`, its handle on a game
//! while it decides: the game read only, the dice the rules hand it, and what it keeps.

use crate::attack::allocation::State;
use crate::game::prepare::Exchange;
use crate::game::state::View;
use crate::game::live::Id;
use crate::rolls::Dice;
use rustc_hash::FxHashMap;

/// The policy of both sides of a game (`Config::policies`): its memo of valuations (a pure
/// function of its keys, kept by each thread from game to game of a run) and the markers its
/// units are heading for this round.
#[derive(Default)]
pub struct Bot {
    pub(super) memo: Memo,
    pub(super) claimed: Vec<[bool; 2]>,
}

impl Bot {
    /// The bot's handle on a game while it decides.
    pub fn seat<'s, 'a>(&'s mut self, view: &'s View<'a>, rng: &'s mut Dice) -> Seat<'s, 'a> {
        Seat { view, rng, memo: &mut self.memo, claimed: &mut self.claimed }
    }
}

/// What the policy decides with: the game as it stands (read only: `Seat` derefs to
/// `View`), the dice the rules hand it, its memo, and its units' claims on markers.
pub struct Seat<'s, 'a> {
    view: &'s View<'a>,
    pub rng: &'s mut Dice,
    memo: &'s mut Memo,
    /// Markers some unit of each army is already heading for this round.
    pub claimed: &'s mut Vec<[bool; 2]>,
}

impl Seat<'_, '_> {
    /// The default policy's memo of valuations.
    pub fn memo(&mut self) -> &mut Memo {
        self.memo
    }
}

impl<'a> std::ops::Deref for Seat<'_, 'a> {
    type Target = View<'a>;
    #[inline]
    fn deref(&self) -> &View<'a> {
        self.view
    }
}

/// Entries a memo keeps at most (it starts again when full).
pub(super) const MEMO_LIMIT: usize = 200_000;
/// Charge values the memo keeps at most: their keys hold both units' wounds and models lost,
/// so they keep coming. At `MEMO_LIMIT` (some 150 bytes an entry) `simulate(games=100_000)`
/// grew the process by 130 MB on 2 threads, at 20,000 by 60 MB, at 2,000 by 50 MB as before
/// the memo (`benchmarks/game_memory.py`), for 0.8% more instructions than at `MEMO_LIMIT`.
pub(super) const ESTIMATE_LIMIT: usize = 2_000;

/// What the valuations need beyond the fresh tables, kept by each thread across the chunks
/// of a run: the full-strength expected wounds of a charge by (charger, fatigued, target,
/// fatigued or Shaken, over 9"), the chance of failing a morale test by (unit, models
/// left, Shaken), and charges' values (`ai::estimate`, by all they read).
#[derive(Default)]
pub struct Memo {
    pub(super) exchanges: FxHashMap<(Id, bool, Id, bool, bool), Exchange>,
    pub(super) fails: FxHashMap<(Id, (u32, bool), bool), f64>,
    pub(super) estimates: FxHashMap<EstimateKey, Estimate>,
}

/// One side's state as the valuation reads it: wounds and models lost, Shaken, fatigued.
pub(super) type Side = (State, bool, bool);

/// What a charge is worth to the charger, in expected points.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Estimate {
    /// Points the defender loses less points the charger loses, with the loser's morale.
    pub value: f64,
    /// Expected wounds the charger deals (0: it can't hurt the target).
    pub dealt: f64,
    /// Expected wounds it takes from the Counter strike and the strike back.
    pub taken: f64,
    /// The chance the defender fails a morale test, and the points that failing costs it.
    pub defender_fails: f64,
    pub defender_stake: f64,
}

/// What `ai::estimate` reads: both units, each one's side (its wounds and models lost, Shaken,
/// fatigued: its wounds and models left follow), over 9" and the strike back, and the
/// policy's weight of Shaken (the bits of the float), and what each army's Rout Test reads
/// (`firefight::rout_key`: 0 where it reads nothing).
pub(super) type EstimateKey = (Id, Id, Side, Side, [bool; 2], u64, [u64; 2]);

