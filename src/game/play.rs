//! A game being played (`Game`): its state (`View`, which it derefs to), the player who
//! answers the rules' questions (`decisions::Player`), the dice, and the trace. The phases
//! are `Game`'s methods, one module each (`setup`, `activation`, `movement`, `shooting`,
//! `charge`, `morale`, `round_end`, `casting`, `transport`, `buffs`).

use super::rules::TerrainRecipe;
use super::table::Point;
use super::state::PiecesByKind;
use super::state::refilled;
use super::live::Id;
use super::live::Live;
use super::config::Event;
use crate::attack::sample::mix;
use rand::SeedableRng;
use rand_xoshiro::Xoshiro256PlusPlus;
use super::prepare::Prepared;
use super::table::{self};
use super::config::{Config, Terrain, Timers};
use crate::attack::allocation::State;
use rand::RngExt;
use crate::rolls::Dice;
use super::decisions::Player;
use super::cache::Cache;
use super::state::View;

/// A game being played: its state (`View`, which it derefs to) and what only the rules
/// touch: the dice, the trace, the counts of dice and of invariant breaches.
pub struct Game<'a, P: Player> {
    pub view: View<'a>,
    /// Who makes the choices, for both sides (`decisions`).
    pub(super) player: &'a mut P,
    pub rng: Dice,
    pub(super) trace: Option<Vec<Event>>,
    pub(super) dice: u64,
    pub(super) violations: u64,
    pub(super) first_violation: Option<String>,
    /// Units wounded by dangerous terrain in the current activation, with their state before:
    /// they test morale at its end like units wounded by shooting.
    pub(super) wounded_by_terrain: Vec<(Id, State)>,
}

impl<'a, P: Player> std::ops::Deref for Game<'a, P> {
    type Target = View<'a>;
    #[inline]
    fn deref(&self) -> &View<'a> {
        &self.view
    }
}

impl<'a, P: Player> std::ops::DerefMut for Game<'a, P> {
    #[inline]
    fn deref_mut(&mut self) -> &mut View<'a> {
        &mut self.view
    }
}

impl<'a, P: Player> Game<'a, P> {
    pub(super) fn live_mut(&mut self, id: Id) -> &mut Live {
        &mut self.units[id.0][id.1]
    }

    /// Sets `id`'s state after wounds. The models left stay where they stand: the unit's
    /// disc is re-centred on them and sized to hold them (mostly smaller; re-centred, it can
    /// be a little wider than before).
    pub(super) fn set_state(&mut self, id: Id, s: State) {
        let alloc = &self.info(id).alloc;
        let (old, new) = (self.live(id).key, alloc.alive_key(s));
        if old != new && !alloc.destroyed(s) {
            let f = &self.info(id).formation;
            let (a, b) = (f.hull(old.0, old.1), f.hull(new.0, new.1));
            let dir = self.facing(id.0);
            let live = self.live_mut(id);
            live.pos = Point::new(live.pos.x + dir * (b.x - a.x), live.pos.y + dir * (b.y - a.y));
            live.radius = b.r;
            live.key = new;
        }
        let (left, wounds_left) = (alloc.alive(s), self.info(id).wounds_left(s));
        let live = self.live_mut(id);
        live.s = s;
        live.left = left;
        live.wounds_left = wounds_left;
        // Firefight: a last model Stunned by its wound effects is a Stunned unit, and a unit
        // Stunned whole (a Rout Test) that is down to one model is a Stunned last model
        if s.stunned || (live.shaken && left == 1) {
            self.sync_stunned(id);
        }
    }

    /// Game `game` of the run: its generator, its roll-off, its table and its markers.
    pub fn new(prep: &'a Prepared, config: &'a Config, game: u64, cache: &'a mut Cache, player: &'a mut P) -> Game<'a, P> {
        let mut rng = game_rng(config, game);
        // "The players roll-off": drawn even when `first` is fixed, so streams stay aligned
        let roll_off = usize::from(rng.random_bool(0.5));
        let mut first = config.first.unwrap_or(roll_off);
        if config.paired && game % 2 == 1 {
            first = 1 - first;
        }
        let terrain = match &config.terrain {
            Terrain::Standard => match prep.rules.terrain {
                TerrainRecipe::Guidelines => table::standard_terrain(&mut rng, prep.rules.table),
                TerrainRecipe::Firefight => super::firefight_table::firefight_terrain(&mut rng),
            },
            Terrain::Fixed(pieces) => pieces.clone(),
        };
        let mut spare = std::mem::take(&mut cache.spare);
        let mut objectives = std::mem::take(&mut spare.objectives);
        objectives.clear();
        match &config.objectives {
            Some(fixed) => objectives.extend_from_slice(fixed),
            None => table::place_objectives(&mut rng, &terrain, prep.rules, &mut objectives),
        }
        let units = [0, 1].map(|a| {
            let mut live = std::mem::take(&mut spare.units[a]);
            live.clear();
            live.extend(prep.armies[a].iter().map(|u| Live { radius: u.radius, key: u.alloc.alive_key(State::default()), left: u.alloc.alive(State::default()), wounds_left: u.wounds, ..Live::default() }));
            live
        });
        let extra_limit = [0, 1].map(|a| (prep.armies[a].iter().filter(|u| u.tricks.extra_activation).count() as u32).div_ceil(2));
        // a new table: what the last game's line of sight worked out holds no more
        cache.seen.get_mut().for_pair = None;
        cache.timers.set(Timers::default());
        // (built in place: the game is large, and moving it costs a copy)
        let game = Game {
            view: View {
                prep,
                rules: prep.rules,
                config,
                cache,
                owner: refilled(spare.owner, -1, objectives.len()),
                by_kind: PiecesByKind::of(&terrain),
                terrain,
                objectives,
                units,
                seat: [first, 1 - first],
                round: 0,
                extra_limit,
                extra_this_round: [0; 2],
            },
            player,
            // the table is drawn from the generator itself, the dice in batches from here on
            rng: Dice::new(rng),
            trace: config.trace.then(Vec::new),
            dice: 0,
            violations: 0,
            first_violation: None,
            wounded_by_terrain: Vec::new(),
        };
        game.player.round_begins(&game.view);
        game
    }

    /// Asks the player a question: it sees the game as it stands and draws from the game's
    /// dice.
    #[inline]
    pub(super) fn ask<T>(&mut self, question: impl FnOnce(&mut P, &View<'a>, &mut Dice) -> T) -> T {
        question(self.player, &self.view, &mut self.rng)
    }

    pub(super) fn event(&mut self, e: impl FnOnce(&View) -> Event) {
        if self.trace.is_some() {
            let mut ev = e(&self.view);
            ev.round = self.round;
            if let Some(events) = &mut self.trace {
                events.push(ev);
            }
        }
    }

    pub(super) fn violation(&mut self, what: impl FnOnce() -> String) {
        self.violations += 1;
        if self.first_violation.is_none() {
            self.first_violation = Some(what());
        }
    }
}

/// The generator of game `game`: paired games share their pair's stream.
pub fn game_rng(config: &Config, game: u64) -> Xoshiro256PlusPlus {
    let stream = if config.paired { game / 2 } else { game };
    Xoshiro256PlusPlus::seed_from_u64(mix(config.seed, stream))
}
