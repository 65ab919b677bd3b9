//! Full games of Grimdark Future v3.5 between two armies, played many times over: a table
//! with terrain and objectives, deployment, four rounds of alternating activations, movement,
//! shooting, melee, morale and objectives, with an AI policy choosing every action.
//!
//! The dice are the attack and melee samplers' own (`attack::sample::roll_attack`,
//! `melee::sample::roll_exchange`): a shot in a game is rolled exactly as `attack()` rolls it.
//! Each game draws from its own generator seeded from `(seed, game)` (or `(seed, pair)` for
//! paired games), and games are tallied in game order, so a seeded run gives the same
//! results whatever the number of threads or how the run is split into batches.
//!
//! Each model stands on its own base in its unit's formation (`formation`); moves follow
//! shortest paths round terrain and units (`paths`); terrain pieces are rectangles. What is
//! abstracted is written down in `docs/game.md`.

pub mod activation;
mod blast;
pub mod boarding;
pub mod buffs;
pub mod cache;
pub mod casting;
pub mod charge;
pub mod config;
pub mod decisions;
mod charge_values;
pub mod airspace;
pub(crate) mod firefight_table;
pub mod flight;
pub mod formation;
#[cfg(test)]
mod game_tests;
pub mod held;
pub mod held_rules;
pub mod live;
pub mod morale;
#[cfg(test)]
mod models_on_the_table_tests;
#[cfg(test)]
mod v3_4_1_tests;
#[cfg(test)]
mod v2_tests;
pub mod movement;
mod octagon;
pub mod paths;
pub mod play;
pub mod policy;
pub mod prepare;
pub mod psychic;
pub mod psychic_reach;
pub mod round_end;
pub mod rout;
pub mod routes;
pub mod rules;
pub mod setup;
pub mod shooting;
pub mod shot_plans;
pub mod sight;
pub mod space;
pub mod spellbook;
pub mod spell_targets;
pub mod state;
pub mod stunned;
#[cfg(test)]
mod firefight_tests;
#[cfg(test)]
pub(crate) mod test_support;
pub mod table;
pub mod transport;
pub mod usefulness;

use crate::error::{Error, Result};
use play::Game;
use prepare::Prepared;
use rayon::prelude::*;
pub use config::{Config, Deployment, Output, Policy, PolicyKind, Record, Short, Terrain, Timers, Trace, UnitTotals, MAX_GAMES, MAX_LINE_UP, MAX_ROUNDS, MAX_TRACED_GAMES, MAX_UNITS};
pub use table::{Kinds, Piece, Point};

/// Games per unit of parallel work.
const CHUNK: u64 = 16;

/// Checks a configuration against the prepared armies before any game is played.
pub fn check(prep: &Prepared, config: &Config, first: u64, count: u64) -> Result<()> {
    if count == 0 || first.checked_add(count).is_none_or(|end| end > MAX_GAMES) {
        return Err(Error::invalid("games", count, format!("must be from 1 to {MAX_GAMES}")));
    }
    if config.trace && first + count > MAX_TRACED_GAMES {
        return Err(Error::limit("games with trace=True", first + count, MAX_TRACED_GAMES));
    }
    if config.rounds == 0 || config.rounds > MAX_ROUNDS {
        return Err(Error::invalid("rounds", config.rounds, format!("must be from 1 to {MAX_ROUNDS}")));
    }
    if config.first.is_some_and(|f| f > 1) {
        return Err(Error::invalid("first", config.first.unwrap(), "must be 0 (army A) or 1 (army B)"));
    }
    for (i, p) in config.policies.iter().enumerate() {
        p.check(["policy_a", "policy_b"][i])?;
    }
    if let Terrain::Fixed(pieces) = &config.terrain {
        if pieces.len() > table::MAX_TERRAIN {
            return Err(Error::limit("terrain pieces", pieces.len(), table::MAX_TERRAIN));
        }
    }
    if let Some(objectives) = &config.objectives {
        if objectives.len() > table::MAX_OBJECTIVES {
            return Err(Error::limit("objectives", objectives.len(), table::MAX_OBJECTIVES));
        }
        for (i, p) in objectives.iter().enumerate() {
            if !(p.x.is_finite() && p.y.is_finite() && (0.0..=prep.rules.table.width).contains(&p.x) && (0.0..=prep.rules.table.depth).contains(&p.y)) {
                return Err(Error::invalid(format!("objectives[{i}]"), format!("({}, {})", p.x, p.y), format!("must lie on the {}\" x {}\" table", prep.rules.table.width, prep.rules.table.depth)));
            }
        }
    }
    if let Some(distance) = config.line_up {
        check_line_up(prep, config, distance)?;
    }
    if let Some(deployment) = &config.deployment {
        for (side, positions) in deployment.iter().enumerate() {
            let field = ["deployment_a", "deployment_b"][side];
            if positions.len() != prep.armies[side].len() {
                return Err(Error::invalid(field, positions.len(), format!("must give one position per unit ({})", prep.armies[side].len())));
            }
            for (i, p) in positions.iter().enumerate() {
                let r = prep.armies[side][i].radius;
                let at = || format!("({}, {})", p.x, p.y);
                if !(p.x.is_finite() && p.y.is_finite() && prep.rules.table.holds(p.x, p.y, r, 0.0)) {
                    return Err(Error::invalid(format!("{field}[{i}]"), at(), format!("must keep the unit (radius {r:.1}\") on the {}\" x {}\" table", prep.rules.table.width, prep.rules.table.depth)));
                }
                if let Terrain::Fixed(pieces) = &config.terrain {
                    if let Some(t) = pieces.iter().find(|t| t.kinds.impassable && t.distance_to(*p) < r) {
                        return Err(Error::invalid(format!("{field}[{i}]"), at(), format!("overlaps impassable terrain {:?}", t.name)));
                    }
                }
                for (other_side, others) in deployment.iter().enumerate() {
                    for (j, q) in others.iter().enumerate() {
                        let r2 = prep.armies[other_side][j].radius;
                        if (other_side, j) != (side, i) && p.distance(*q) < r + r2 {
                            return Err(Error::invalid(format!("{field}[{i}]"), at(), "overlaps another unit's footprint"));
                        }
                    }
                }
            }
        }
    }
    Ok(())
}

/// A duel's line-up: a distance the table holds, one unit a side on fixed terrain, and both
/// formations on the table and clear of impassable terrain once placed.
fn check_line_up(prep: &Prepared, config: &Config, distance: f64) -> Result<()> {
    if !distance.is_finite() || !(0.0..=MAX_LINE_UP).contains(&distance) {
        return Err(Error::invalid("line_up", distance, format!("must be a number of inches from 0 to {MAX_LINE_UP}")));
    }
    if config.deployment.is_some() {
        return Err(Error::invalid("line_up", distance, "a line-up replaces the deployment; give one or the other"));
    }
    if prep.armies.iter().any(|a| a.len() != 1) {
        return Err(Error::invalid("line_up", distance, format!("a duel's line-up takes one unit a side (got {} and {})", prep.armies[0].len(), prep.armies[1].len())));
    }
    let Terrain::Fixed(pieces) = &config.terrain else {
        return Err(Error::invalid("line_up", distance, "a line-up needs fixed terrain (open, or a list of pieces)"));
    };
    let (mut cache, mut bot) = (cache::Cache::default(), policy::Bot::default());
    let mut g = Game::new(prep, config, 0, &mut cache, &mut bot);
    g.lined_up(distance);
    for side in 0..2 {
        let name = &prep.armies[side][0].name;
        for (_, p, r) in g.models((side, 0)) {
            if !prep.rules.table.holds(p.x, p.y, r, 0.0) {
                return Err(Error::invalid("line_up", distance, format!("{name:?}'s formation would leave the {}\" deep table at this distance", prep.rules.table.depth)));
            }
            if let Some(t) = pieces.iter().find(|t| t.kinds.impassable && t.distance_to(p) < r) {
                return Err(Error::invalid("line_up", distance, format!("{name:?} would stand on impassable terrain {:?}", t.name)));
            }
        }
    }
    Ok(())
}

thread_local! {
    /// The caches (shot plans, distances) and the policy (its memo of valuations) of the last
    /// preparation this thread played, by its id: they are pure functions of their keys and
    /// of the armies, so a thread keeps them from chunk to chunk and from call to call, and
    /// results do not depend on which thread plays a game.
    static CACHE: std::cell::RefCell<(u64, cache::Cache, policy::Bot)> = std::cell::RefCell::new((u64::MAX, cache::Cache::default(), policy::Bot::default()));
}

/// Plays games `first..first + count` of the run `config` describes. `threads`: `None` for
/// rayon's pool, else a pool of that size.
pub fn simulate(prep: &Prepared, config: &Config, first: u64, count: u64, threads: Option<usize>) -> Result<Output> {
    check(prep, config, first, count)?;
    let chunks = count.div_ceil(CHUNK);
    let run = || {
        (0..chunks)
            .into_par_iter()
            .map(|c| {
                let start = first + c * CHUNK;
                let end = (start + CHUNK).min(first + count);
                let mut out = Output { units: [UnitTotals::new(prep.armies[0].len()), UnitTotals::new(prep.armies[1].len())], ..Output::default() };
                let (mut cache, mut bot) = CACHE.with(|k| {
                    let mut k = k.borrow_mut();
                    if k.0 == prep.id { (std::mem::take(&mut k.1), std::mem::take(&mut k.2)) } else { Default::default() }
                });
                cache.trim();
                for g in start..end {
                    if let Some(id) = Game::new(prep, config, g, &mut cache, &mut bot).play(&mut out) {
                        out.no_room = Some((g, id.0, id.1));
                        break;
                    }
                }
                CACHE.with(|k| *k.borrow_mut() = (prep.id, cache, bot));
                out
            })
            .collect::<Vec<Output>>()
    };
    // the kept pool of that size: its threads keep their caches from call to call
    let parts = crate::pool::install(threads, run)?;
    let mut total = Output { units: [UnitTotals::new(prep.armies[0].len()), UnitTotals::new(prep.armies[1].len())], ..Output::default() };
    for part in parts {
        total.merge(part);
    }
    if let Some((g, army, u)) = total.no_room {
        let name = &prep.armies[army][u].name;
        return Err(Error::invalid(
            "terrain",
            format!("game {g}"),
            format!("army {}'s unit {name:?} found no room to deploy within its zone (every half inch tried): the terrain or the army's size leaves it none; games without it would be scored as if it had died, so none is", ["A", "B"][army]),
        ));
    }
    Ok(total)
}
