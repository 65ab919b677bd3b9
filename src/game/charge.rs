//! Charges and melee: "Charging models must move by up to 12" to get into base contact";
//! the melee's dice rolled as `melee()` rolls them (strike back, resolution, morale), and "the
//! charging unit must move back by 1" (if possible)" when neither side is destroyed.

use super::state::View;
use super::decisions::Player;
use super::prepare::{exchange_part, melee_flags, Exchange, ExchangePart};
use super::held_rules::BuffUse;
use super::table::Point;
use crate::attack::allocation::State;
use crate::attack::options::{self};
use crate::attack::sample::roll_options;
use crate::melee::sample::roll_exchange;
use crate::melee::{Found, Melee, Plans, Status, Winner};
use super::cache::MeleeKey;
use super::paths::Path;
use super::state::distance_class;
use super::play::Game;
use super::live::Id;
use super::config::Event;

impl View<'_> {
    /// `prepare::exchange` of `c` charging `d`, both at full strength, `c_tired` fatigued and
    /// `d_tired` fatigued or Shaken (which strikes back as fatigued), from over 9" if `far`:
    /// each part from the fresh table where it holds it, else found once per pair and fatigue
    /// and kept (a part reads only its own side's fatigue: `ExchangePart`).
    pub fn exchange(&self, c: Id, c_tired: bool, d: Id, d_tired: bool, far: bool) -> Exchange {
        let fresh = self.prep.fresh_exchange_of(c, d).map(|x| x[usize::from(far)]);
        let part = |part: ExchangePart| {
            if let Some(&x) = self.cache.exchange_parts.borrow().get(&(c, d, part)) {
                return x;
            }
            let x = exchange_part(self.info(c), self.info(d), part, self.prep.edition);
            self.cache.exchange_parts.borrow_mut().insert((c, d, part), x);
            x
        };
        let charge = match fresh {
            Some(x) if !c_tired => x.charge,
            _ => part(ExchangePart::Charge { fatigued: c_tired, far })[0],
        };
        let (counter, strike_back) = match fresh {
            Some(x) if !d_tired => (x.counter, x.strike_back),
            _ => {
                let [counter, strike_back] = part(ExchangePart::Back { fatigued: d_tired });
                (counter, strike_back)
            }
        };
        let fear = match fresh {
            Some(x) => x.fear,
            None => part(ExchangePart::Fear)[0],
        };
        Exchange { counter, charge, strike_back, fear }
    }
}

/// What a side of a melee fights with: the rules it holds once that act on its attacks, on
/// its defense (used only if it takes hits: "next time the effect would apply"), those that
/// act only if it loses (its morale test), and a mark's on the other side (bits and index in
/// `UnitInfo::buffed`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Held {
    pub(super) attacks: u16,
    pub(super) defense: u16,
    pub(super) morale: u16,
    pub(super) mark: Option<usize>,
}


impl<'a, P: Player> Game<'a, P> {
    /// A Charge: the move into contact, then the melee sequence and its morale, rolled by the
    /// melee sampler's own exchange; then "the charging unit must move back by 1"".
    pub(super) fn charge(&mut self, id: Id, target: Id, path: Path) {
        let before = self.live(id).pos;
        let distance = self.gap(id, target);
        let reach = self.charge_reach(id, target);
        self.apply_move(id, path, "charge", reach);
        if self.trace.is_some() {
            let theirs = self.footprint(target);
            if let Some(e) = self.trace.as_mut().and_then(|t| t.iter_mut().rev().find(|e| e.kind == "charge")) {
                e.target_models = theirs;
            }
        }
        self.spend_move_buff(id, 2);
        // (Firefight: a charger Stunned by dangerous terrain on its way makes no attack)
        if self.live(id).gone || self.live(target).gone || self.stunned_now(id) {
            return;
        }
        // "all models from the target unit that are not in base contact with a charging model
        // must move by up to 3"": a unit of one model is met where it stands; in a bigger one
        // some model moves (the formations here stand for where models end, not each step)
        if self.live(target).left > 1 {
            self.live_mut(target).moved = true;
        }
        // Firefight: a unit Stunned whole by a Rout Test, charged: its models are Knocked Out
        self.charged_while_stunned(target);
        if self.live(target).gone {
            return;
        }
        let was_stunned = [self.live(id).shaken, self.live(target).shaken];
        let t = self.clock();
        let (c, d) = (self.info(id), self.info(target));
        // buffs: the defender's against the charge, the charger's against the strike back,
        // and either's for the morale test of the side that loses
        // "charged from over 9" away": the distance between the units before the charge
        // ("from/to the closest model in each unit"), not the length of the charge's path
        let charge_distance = distance;
        // "the defending unit may choose to strike back ..., but doesn't have to"
        let strike_back = self.ask(|p, v, r| p.strike_back(v, r, id, target));
        // each side fights with the rule it holds once if it acts in this melee (on its
        // attacks, its defense or, for the side that loses, its morale test), else with the
        // rule a mark on the other side gives it
        // (the charger defends only against a strike back)
        let sides = [(id, target, BuffUse::StruckBack, true, strike_back), (target, id, BuffUse::Charged(charge_distance), strike_back, true)];
        let uses: [Held; 2] = sides.map(|(who, other, defends, attacks, attacked)| {
            let fights = BuffUse::Attack { melee: true, charging: who == id, distance: charge_distance };
            let (defense, attacks_with) = (if attacked { self.held_for(who, defends) } else { 0 }, if attacks { self.held_for(who, fights) } else { 0 });
            let morale = self.held_for(who, BuffUse::Morale) & !(defense | attacks_with);
            let mark = self.mark_for(who, other, fights).filter(|&m| attacks && (defense | attacks_with | morale) & (1 << m) == 0);
            Held { attacks: attacks_with, defense, morale, mark }
        });
        let buffs = uses.map(|h| h.attacks | h.defense | h.morale | h.mark.map_or(0, |m| 1 << m));
        let [c_alloc, d_alloc] = [(id, buffs[0]), (target, buffs[1])].map(|(who, b)| self.alloc_of(who, b));
        let (cl, dl) = (self.live(id), self.live(target));
        let c_state = c_alloc.unit_state(cl.s, false, cl.fatigued).expect("the charger is alive");
        let d_state = d_alloc.unit_state(dl.s, dl.shaken, dl.fatigued).expect("the target is alive");
        let (c_s, d_s) = (cl.s, dl.s);
        // rules with options: one of the ways the melee is played (`Melee::variants`, settled
        // once per pair of units at full strength), rolled as the melee sampler rolls them
        let mut options = [0, 0];
        let mut options_played = String::new();
        let held_options = [(id, buffs[0]), (target, buffs[1])].iter().any(|&(who, mask)| self.info(who).held(mask).any(|(_, b)| b.options));
        if c.tricks.options || d.tricks.options || held_options {
            let flags = melee_flags(charge_distance > 9.0, c_state.fatigued, d_state.fatigued, d_state.shaken);
            let keys = if held_options {
                // a rule with options held once: settled as `Prepared::melee_options` settles
                // the units' own, at full strength, for these allocations (kept)
                let edition = self.prep.edition;
                self.view.cache.held_melee_options.entry((id, buffs[0], target, buffs[1], flags)).or_insert_with(|| {
                    let charger = crate::state::UnitState { fatigued: flags & 2 != 0, ..crate::state::UnitState::FRESH };
                    let defender = crate::state::UnitState { fatigued: flags & 4 != 0, shaken: flags & 8 != 0, ..crate::state::UnitState::FRESH };
                    Melee::from_allocations(c_alloc.clone(), d_alloc.clone(), &charger, &defender, true, charge_distance, edition)
                        .map(|m| m.variants().iter().map(|(v, _)| v.options).collect())
                        .unwrap_or_else(|_| vec![[0, 0]])
                })
            } else {
                self.view.prep.melee_options.get(&(id.0, id.1, target.1, flags)).map_or(&[][..], |k| &k[..])
            };
            if !keys.is_empty() {
                options = keys[roll_options(keys, &mut self.rng)];
            }
        }
        // the same melee as an earlier one but for where it starts: its plans are kept
        let key = MeleeKey {
            charger: (id, buffs[0]),
            defender: (target, buffs[1]),
            flags: [c_state.fatigued, d_state.fatigued, d_state.shaken],
            defender_alive: d_alloc.alive_key(d_s),
            strike_back,
            distance: distance_class(c, d, charge_distance),
            options,
        };
        // (played where the cache keeps it: a melee and its plans are too large to move out
        // and back for every charge)
        let built = !self.view.cache.melees.contains_key(&key);
        if built {
            let m = Melee::from_allocations(c_alloc.clone(), d_alloc.clone(), &c_state, &d_state, strike_back, charge_distance, self.prep.edition)
                .expect("states taken from the allocations themselves");
            self.view.cache.melee_states += m.charger.state_count() + m.defender.state_count();
            self.view.cache.melees.insert(key, (m, Found::default()));
        }
        let rules = self.view.rules;
        let (melee, kept) = self.view.cache.melees.get_mut(&key).expect("kept just above");
        if !built {
            melee.charger_start = melee.charger.state_of("charger_state", &c_state).expect("a state of the allocation itself");
            melee.defender_start = melee.defender.state_of("defender_state", &d_state).expect("a state of the allocation itself");
            melee.charger_before = c_state;
            melee.defender_before = d_state;
            melee.distance = charge_distance;
        }
        melee.options = options;
        if (c.tricks.options || d.tricks.options || held_options) && self.trace.is_some() {
            let edition = self.view.prep.edition;
            // the charger is the unit taking its activation; the defender only strikes back
            let describe = |alloc: &crate::attack::allocation::Allocation, s: State, option: u8, activated: bool| {
                let alive = alloc.view(s, false).alive;
                options::describe(edition, &alive, true, true, activated, option).or_else(|| options::describe(edition, &alive, false, true, activated, option))
            };
            let sides = [("charger", describe(c_alloc, c_s, melee.options[0], true)), ("defender", describe(d_alloc, d_s, melee.options[1], false))];
            options_played = sides.iter().filter_map(|(who, d)| d.as_ref().map(|d| format!("{who} {d}"))).collect::<Vec<_>>().join("; ");
        }
        let mut plans = Plans::with(melee, std::mem::take(kept));
        let mut x = roll_exchange(melee, &mut plans, &mut self.rng);
        *kept = plans.into_found();
        // "if a unit didn't strike back in melee, then it must only take a morale test if it
        // suffered at least one wound" (the charger's Fear alone does not make it lose)
        if rules.unstruck_loser_needs_a_wound && !strike_back && x.by_charger == 0 && x.winner == Winner::Charger && !d_alloc.destroyed(x.defender) {
            x.winner = Winner::Tie;
            x.failed = false;
        }
        let statuses = melee.statuses(x.charger, x.defender, x.winner, x.failed);
        self.dice += x.dice;
        self.lap(t, |x| &mut x.dice);
        for (who, end, status, dealt, taken) in [(id, x.charger, statuses[0], x.by_charger, x.by_defender), (target, x.defender, statuses[1], x.by_defender, x.by_charger)] {
            self.set_state(who, end);
            let live = self.live_mut(who);
            // "After attacking in melee for the first time during a round, either by charging
            // or by striking back": a defender that did not strike back is not fatigued
            live.fatigued |= who == id || strike_back;
            live.dealt += dealt;
            live.taken += taken;
            match status {
                Status::Destroyed => live.gone = true,
                Status::Routed => (live.gone, live.routed) = (true, true),
                Status::Shaken => live.shaken = true,
                Status::Unaffected => {}
            }
        }
        for (k, who, other, lost) in [(0, id, target, x.winner == Winner::Defender), (1, target, id, x.winner == Winner::Charger)] {
            let held = uses[k];
            // a defense rule waits for an attack on it (the defender may be destroyed before it
            // strikes back), and one on Defense rolls for an attack that hits
            let used = held.attacks | x.hits_taken[k].map_or(0, |hits| self.used_on_hits(who, held.defense, hits));
            self.spend_held(who, used, if k == 0 { "charge" } else { "charged" });
            if lost {
                self.spend_held(who, held.morale, "morale test");
            }
            if held.mark.is_some() {
                self.spend_mark(other, who, if k == 0 { "charge" } else { "strike back" });
            }
        }
        self.event(|g| Event {
            dice: x.dice,
            wounds: x.by_charger,
            hits: x.by_defender,
            models_left: g.info(target).alloc.alive(x.defender),
            // the target's models left after the melee, which the charger then moves back from
            target_models: if g.live(target).gone { Vec::new() } else { g.footprint(target) },
            detail: if options_played.is_empty() {
                format!("winner={:?} charger={:?} defender={:?}{}", x.winner, statuses[0], statuses[1], if strike_back { "" } else { " (no strike back)" })
            } else {
                format!("winner={:?} charger={:?} defender={:?} [{options_played}]", x.winner, statuses[0], statuses[1])
            },
            ..Event::between("melee", id, target, before, g.live(id).pos)
        });
        // "Whenever a model is Stunned, the attacker may try to push it"
        self.after_stunning(id, target, was_stunned[1]);
        self.after_stunning(target, id, was_stunned[0]);
        if !self.live(id).gone && !self.live(target).gone {
            self.move_back(id, target);
        }
        // Hit & Run: "after ... being in melee", both sides
        for who in [id, target] {
            self.move_after_attack(who, true);
        }
    }

    /// "If neither of the units was destroyed, then the charging unit must move back by 1" (if
    /// possible)": straight away from the target, else turned up to 60 degrees either way (the
    /// table, terrain or another unit may be behind it), the full inch where it can, else half.
    /// Of the moves its bases allow, the one that ends farthest from the nearest unit, the
    /// target included, up to 1" ("to keep the separation between units clear"; "Models may
    /// never be within 1" of models from other units, unless they are taking a Charge
    /// action"); the straightest of those.
    pub(super) fn move_back(&mut self, id: Id, target: Id) {
        let (at, from) = (self.live(target).pos, self.live(id).pos);
        let away = (from.y - at.y).atan2(from.x - at.x);
        let r = self.radius(id);
        // how near the nearest unit comes to `id` standing at `p`, counted up to 1"
        let separation = |g: &View, p: Point| {
            g.ground_units_but(id).fold(g.rules.moves.unit_gap, |least, (other, c, rc)| {
                if p.distance(c) - r - rc >= least { least } else { least.min(g.closest_pair_at(id, p, other).0.max(0.0)) }
            })
        };
        let move_back = self.rules.moves.move_back;
        for step in [move_back, move_back / 2.0] {
            let mut best: Option<(f64, Point)> = None;
            for turn in [0.0, 0.5, -0.5, 1.0, -1.0] {
                let (sin, cos) = (away + turn).sin_cos();
                let back = Point::new(from.x + cos * step, from.y + sin * step);
                // a short move, tested model by model where it ends and half way (no base is
                // under an inch across, so none is jumped over): the discs, which the path
                // test sweeps, may overlap the target's or a neighbour's where no models do
                let half = Point::new((from.x + back.x) / 2.0, (from.y + back.y) / 2.0);
                if self.spot_ok(id, back, true) && self.spot_ok(id, half, true) {
                    let apart = separation(self, back);
                    if best.is_none_or(|(b, _)| apart > b + 1e-9) {
                        best = Some((apart, back));
                    }
                    if apart >= self.rules.moves.unit_gap - 1e-9 {
                        break;
                    }
                }
            }
            if let Some((_, back)) = best {
                let live = self.live_mut(id);
                live.pos = back;
                live.moved = true;
                self.event(|_| Event { allowance: move_back, length: step, ..Event::of("consolidate", id, from, back) });
                return;
            }
        }
    }
}
