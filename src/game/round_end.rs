//! The end of a round: markers seized and contested (`GameRules::seize`, `GameRules::contest`),
//! Shaken units that recover, the snapshot of the trace, and the end of the game.

use super::decisions::Player;
use super::held_rules::BuffUse;
use super::config::{Output, Record, Short, Trace};
use super::cache::Spare;
use super::play::Game;
use super::live::Id;
use super::config::Event;


impl<'a, P: Player> Game<'a, P> {
    /// "If a unit where all models have this rule is Shaken at the beginning of the round,
    /// roll one die. On a 4+, it stops being Shaken." (`Effect::RecoverOn`: Battleborn, Honor
    /// Code, Steadfast.)
    pub(super) fn recover(&mut self) {
        for army in 0..2 {
            for u in 0..self.units[army].len() {
                let id = (army, u);
                if !self.live(id).on_table() || !self.live(id).shaken {
                    continue;
                }
                // a buff for the recovery (Steadfast Buff) is used now, whether or not the
                // unit has a recovery of its own
                let own = self.info(id).tricks.recover_on;
                let mask = self.held_for(id, BuffUse::Recover);
                let lent = self.info(id).held(mask).filter_map(|(_, b)| b.recover_on()).min();
                if mask != 0 {
                    self.spend_held(id, mask, "recovery");
                }
                let on = match (own, lent) {
                    (0, None) => continue,
                    (0, Some(x)) => x,
                    (x, None) => x,
                    (x, Some(y)) => x.min(y),
                };
                let roll = self.rng.d6();
                self.dice += 1;
                let recovered = roll >= on;
                self.set_stunned(id, !recovered);
                self.event(|g| Event {
                    dice: 1,
                    allowance: f64::from(on),
                    models_left: g.info(id).alloc.alive(g.live(id).s),
                    detail: format!("rolled {roll}: {}", if recovered { "no longer Shaken" } else { "still Shaken" }),
                    ..Event::of("recover", id, g.live(id).pos, g.live(id).pos)
                });
            }
        }
    }

    /// "At the end of each round, if a unit is within 3" of a marker whilst no enemies are,
    /// then it counts as being seized. ... if units from both sides contest a marker at the
    /// end of a round, then it becomes neutral again." Who seizes and who contests is the
    /// edition's (`GameRules::seize`, `GameRules::contest`): in v3.5 Shaken units "can't
    /// seize or contest objectives", nor can Aircraft, nor Ambushers "on the round they
    /// deploy". A side seizes a marker when one of its units may seize it and no enemy
    /// contests it; both sides contesting make it neutral; otherwise it stays as it was.
    pub(super) fn score_round(&mut self) {
        // where each unit ended the round: inside a transport, or still waiting to arrive
        for army in 0..2 {
            for u in 0..self.units[army].len() {
                let live = &self.units[army][u];
                if live.gone {
                    continue;
                }
                let carrier_waits = live.carrier.is_some_and(|t| self.units[army][usize::from(t)].reserve);
                let (reserve, inside) = (live.reserve || carrier_waits, live.carrier.is_some() && !carrier_waits);
                let live = &mut self.units[army][u];
                live.rounds_in_reserve += u8::from(reserve);
                live.rounds_inside += u8::from(inside);
            }
        }
        // The units that count, and how, once for every marker; and whether each is within
        // 3" of a marker its army holds at the end (it counts one round holding however many).
        let mut counting: Short<(Id, bool, bool), 16> = Short::new();
        for army in 0..2 {
            for id in self.on_table(army) {
                let seizes = self.may_seize(id);
                let contests = self.may_contest(id);
                if seizes || contests {
                    counting.push((id, seizes, contests));
                }
            }
        }
        let mut holds: Short<bool, 16> = smallvec::smallvec![false; counting.len()];
        // (indices into `counting` of the seizers near the marker)
        let mut near: Short<usize> = Short::new();
        for i in 0..self.objectives.len() {
            let marker = self.objectives[i];
            let (mut contest, mut seize) = ([false; 2], [false; 2]);
            near.clear();
            for (k, &(id, seizes, contests)) in counting.iter().enumerate() {
                if self.near_marker(id, marker) {
                    contest[id.0] |= contests;
                    seize[id.0] |= seizes;
                    if seizes {
                        near.push(k);
                    }
                }
            }
            if contest[0] && contest[1] {
                self.owner[i] = -1;
            } else if seize[0] && !contest[1] {
                self.owner[i] = 0;
            } else if seize[1] && !contest[0] {
                self.owner[i] = 1;
            }
            for &k in &near {
                holds[k] |= self.owner[i] == counting[k].0 .0 as i8;
            }
            self.event(|g| Event { kind: "objective", army: g.owner[i], unit: i as i32, target_army: -1, target: -1, from: marker, to: marker, ..Event::default() });
        }
        for (k, &(id, _, _)) in counting.iter().enumerate() {
            if holds[k] {
                self.live_mut(id).holding += 1;
            }
        }
        self.snapshot();
    }

    /// Every unit's place and state, for the trace. (The test inline: most games trace nothing.)
    #[inline(always)]
    pub(super) fn snapshot(&mut self) {
        if self.trace.is_some() {
            self.trace_positions();
        }
    }

    #[inline(never)]
    fn trace_positions(&mut self) {
        for army in 0..2 {
            for u in 0..self.units[army].len() {
                let id = (army, u);
                let live = self.live(id).clone();
                let status = if live.gone {
                    "gone"
                } else if live.reserve {
                    "reserve"
                } else if live.carrier.is_some() {
                    "inside"
                } else if live.shaken {
                    "shaken"
                } else if self.round > 0 && self.rules.arriving_blind(live.arrived, self.round, self.config.rounds) {
                    "arrived"
                } else {
                    "ready"
                };
                self.event(|g| Event {
                    models_left: if live.gone { 0 } else { g.info(id).alloc.alive(live.s) },
                    detail: status.into(),
                    models: if live.on_table() { g.footprint(id) } else { Vec::new() },
                    ..Event::of("position", (army, u), live.pos, live.pos)
                });
            }
        }
    }

    /// Records the game in `out`, handing its lists on to the next game (`Cache::spare`): called
    /// once, at the end (the game's armies, terrain and markers are empty after it).
    pub(super) fn finish(&mut self, out: &mut Output) {
        let mut record = Record { first: self.seat[0] as u8, ..Record::default() };
        for owner in &self.owner {
            if *owner >= 0 {
                record.objectives[*owner as usize] += 1;
            }
        }
        record.winner = match record.objectives[0].cmp(&record.objectives[1]) {
            std::cmp::Ordering::Greater => 1,
            std::cmp::Ordering::Less => -1,
            std::cmp::Ordering::Equal => 0,
        };
        for army in 0..2 {
            for (u, live) in self.units[army].iter().enumerate() {
                let info = &self.prep.armies[army][u];
                let totals = &mut out.units[army];
                totals.wounds_dealt[u] += u64::from(live.dealt);
                totals.wounds_taken[u] += u64::from(live.taken);
                totals.rounds_holding[u] += u64::from(live.holding);
                let used = live.usefulness;
                totals.activations[u] += u64::from(used.activations);
                totals.idle[u] += u64::from(used.idle);
                totals.stuck[u] += u64::from(used.stuck);
                totals.carried[u] += u64::from(used.carried());
                totals.never_acted[u] += u64::from(used.activations == 0);
                totals.rounds_inside[u] += u64::from(live.rounds_inside);
                totals.rounds_in_reserve[u] += u64::from(live.rounds_in_reserve);
                totals.routed[u] += u64::from(live.routed);
                totals.shaken_at_end[u] += u64::from(!live.gone && live.shaken);
                if live.gone {
                    totals.destroyed[u] += 1;
                    continue;
                }
                record.models_left[army] += info.alloc.alive(live.s);
                record.points_left[army] += self.points_left((army, u));
            }
        }
        if let Some(events) = self.trace.take() {
            out.traces.push(Trace { terrain: std::mem::take(&mut self.terrain), objectives: self.objectives.clone(), events });
        }
        out.records.push(record);
        out.timers.merge(&self.cache.timers.get());
        out.dice += self.dice;
        out.violations += self.violations;
        if out.first_violation.is_none() {
            out.first_violation = self.first_violation.take();
        }
        use std::mem::take;
        self.cache.spare = Spare {
            units: [take(&mut self.units[0]), take(&mut self.units[1])],
            objectives: take(&mut self.objectives),
            owner: take(&mut self.owner),
        };
    }
}
