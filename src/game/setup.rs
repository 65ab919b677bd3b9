//! Setting up a game: "the players roll-off and the winner must start deploying their army
//! first"; the armies placed one unit at a time in their zones, Scouts after them, Ambushers
//! set aside and arriving from the second round; a duel's line-up.

use super::decisions::Player;
use super::rules::ReserveOrder;
use super::table::Point;
use super::config::Short;
use crate::attack::plan::{self, Group, Situation};
use super::state::EPS;
use super::play::Game;
use super::live::Id;
use super::config::Event;

/// The order in which two players place units one at a time, alternating from `first`
/// ("the players continue alternating in placing one unit each"); a player with none left
/// lets the other go on.
pub(super) fn alternating(first: usize, lists: &[Short<usize>; 2]) -> Short<Id, 32> {
    let mut out = Short::with_capacity(lists[0].len() + lists[1].len());
    let (mut next, mut turn) = ([0usize; 2], first);
    while next[0] < lists[0].len() || next[1] < lists[1].len() {
        if next[turn] < lists[turn].len() {
            out.push((turn, lists[turn][next[turn]]));
            next[turn] += 1;
        }
        turn = 1 - turn;
    }
    out
}

impl<'a, P: Player> Game<'a, P> {

    /// Where [`Game::line_up`] puts army A's and army B's units. The formations face each
    /// other along the table's depth, so the gap between their closest models changes inch
    /// for inch with their centres' separation while it is above zero: from a separation
    /// that is surely wide enough (the discs' radii apart and then some), a few measured
    /// corrections reach `distance`.
    pub(super) fn lined_up(&mut self, distance: f64) -> [Point; 2] {
        let low = self.seat[0];
        let ids = [(low, 0), (1 - low, 0)];
        let (x, y) = (self.rules.table.width / 2.0, self.rules.table.depth / 2.0);
        let mut half = distance / 2.0 + self.radius(ids[0]) + self.radius(ids[1]) + 1.0;
        for _ in 0..8 {
            for (id, side) in ids.into_iter().zip([-1.0, 1.0]) {
                let live = self.live_mut(id);
                live.pos = Point::new(x, y + side * half);
                live.reserve = false;
            }
            let gap = self.gap(ids[0], ids[1]);
            if (gap - distance).abs() < 1e-9 {
                break;
            }
            half += (distance - gap) / 2.0;
        }
        let mut out = [Point::default(); 2];
        for id in ids {
            out[id.0] = self.live(id).pos;
        }
        out
    }

    /// A duel's line-up: each army's one unit on the table's middle, facing the other across
    /// the centre line, their closest models `distance` apart.
    pub(super) fn line_up(&mut self, distance: f64) {
        let spots = self.lined_up(distance);
        for (army, p) in spots.into_iter().enumerate() {
            self.place((army, 0), p, "deploy-fixed");
        }
    }

    /// "At the start of any round after the first, may be deployed anywhere over 9" away from
    /// enemy units. Players alternate in placing Ambushers, starting with the player that
    /// activates next."
    /// Rapid Ambush may arrive from the first round (`Effect::Ambush`'s `from_round`).
    pub(super) fn ambush(&mut self, next: usize) {
        let round = self.round;
        let mut waiting: [std::collections::VecDeque<usize>; 2] = [0, 1].map(|army| {
            (0..self.units[army].len())
                .filter(|&u| self.units[army][u].reserve && !self.units[army][u].gone && self.prep.armies[army][u].movement.ambush_from <= round)
                .collect()
        });
        let both = !waiting[0].is_empty() && !waiting[1].is_empty();
        let first = self.first_to_place(next, both);
        // on its turn a player places one of its Ambushers that has somewhere to arrive (one
        // with nowhere waits for the next round, and the player places another): a unit that
        // finds no spot does not cost the player its turn
        let mut turn = first;
        while waiting.iter().any(|w| !w.is_empty()) {
            while let Some(u) = waiting[turn].pop_front() {
                if self.arrive_by_ambush((turn, u)) {
                    break;
                }
            }
            turn = 1 - turn;
        }
    }

    /// The army that places the first of the units set aside (Scout, Ambush): `next`, the
    /// player that activates next, or (v2.x) the winner of a roll-off "If both player have"
    /// some to place (re-rolled on a tie; the army that won the deployment roll-off rolls
    /// first, so a paired game's mirror rolls the same dice for the other side).
    fn first_to_place(&mut self, next: usize, both: bool) -> usize {
        match self.rules.reserve_order {
            ReserveOrder::NextToActivate => next,
            ReserveOrder::RollOff if !both => next,
            ReserveOrder::RollOff => loop {
                let (a, b) = (self.rng.d6(), self.rng.d6());
                self.dice += 2;
                if a != b {
                    let winner = self.seat[usize::from(b > a)];
                    // (an army's event: no unit)
                    self.event(|_| Event { unit: -1, detail: format!("{a} against {b}: army {} places first", ["A", "B"][winner]), ..Event::of("roll-off", (winner, 0), Point::default(), Point::default()) });
                    break winner;
                }
            },
        }
    }

    pub(super) fn place(&mut self, id: Id, p: Point, kind: &'static str) {
        let from = self.live(id).pos;
        self.live_mut(id).pos = p;
        self.live_mut(id).reserve = false;
        if !self.spot_ok(id, p, false) && kind != "deploy-fixed" {
            self.violation(|| format!("unit {id:?} placed at ({:.2}, {:.2}), where it may not stand", p.x, p.y));
        }
        self.event(|g| Event { models_left: g.info(id).models, models: g.footprint(id), ..Event::of(kind, id, from, p) });
    }

    /// "the winner must start deploying their army first ... places one unit fully within 12"
    /// of their table edge ... Then the players continue alternating in placing one unit each";
    /// then Scouts ("After all other units are deployed ... starting with the player that
    /// activates next"); Ambushers wait for round 2 or later. Returns the first unit that
    /// found no room to deploy, where it stops.
    pub(super) fn deploy(&mut self) -> Option<Id> {
        if let Some(distance) = self.config.line_up {
            self.line_up(distance);
            for army in 0..2 {
                for u in 0..self.units[army].len() {
                    self.place_after_deployment((army, u));
                }
            }
            self.snapshot();
            return None;
        }
        if let Some(fixed) = &self.config.deployment {
            for army in 0..2 {
                for (u, p) in fixed[army].iter().enumerate() {
                    self.place((army, u), *p, "deploy-fixed");
                }
            }
            for army in 0..2 {
                for u in 0..self.units[army].len() {
                    self.place_after_deployment((army, u));
                }
            }
            self.snapshot();
            return None;
        }
        let mut queues: [Short<usize>; 2] = Default::default();
        let mut scouts: [Short<usize>; 2] = Default::default();
        for army in 0..2 {
            for (u, info) in self.prep.armies[army].iter().enumerate() {
                // Ambush and Scout: "May be set aside before deployment"
                let aside = (info.movement.ambush || info.movement.scout) && self.ask(|p, v, _| p.sets_aside(v, (army, u)));
                if aside && info.movement.ambush {
                    self.units[army][u].reserve = true;
                } else if aside && info.movement.scout {
                    scouts[army].push(u);
                } else {
                    queues[army].push(u);
                }
            }
            // gone until placed, so that unplaced units block nothing
            for &u in queues[army].iter().chain(&scouts[army]) {
                self.units[army][u].gone = true;
            }
        }
        // "Transports may deploy with units inside ... units inside Transports are deployed
        // at the same time as the Transport"
        let mut boarding: Vec<(Id, Id)> = Vec::new();
        for army in 0..2 {
            for (u, t) in self.ask(|p, v, r| p.passengers(v, r, army)) {
                queues[army].retain(|x| *x != u);
                // a transport waiting to Ambush holds its units from the start
                if self.units[army][t].reserve {
                    self.embark((army, u), (army, t));
                } else {
                    boarding.push(((army, u), (army, t)));
                }
            }
        }
        // Scouts: "Players alternate in placing Scout units, starting with the player that
        // activates next" (the one who deployed first takes the first turn; v2.x: the winner of
        // a roll-off once the others are deployed)
        for (lists, depth, kind) in [(queues, self.rules.deployment.depth, "deploy"), (scouts, self.rules.scout_depth(), "scout")] {
            let first = if kind == "scout" { self.first_to_place(self.seat[0], !lists[0].is_empty() && !lists[1].is_empty()) } else { self.seat[0] };
            for id in alternating(first, &lists) {
                self.units[id.0][id.1].gone = false;
                let t = self.clock();
                // the policy samples spots; when it finds none, any legal spot in the zone
                let spot = self.ask(|p, v, r| p.deployment_spot(v, r, id, depth)).or_else(|| self.any_spot(id, depth));
                self.lap(t, |x| &mut x.movement);
                match spot {
                    Some(p) => {
                        self.place(id, p, kind);
                        if kind == "scout" {
                            self.scout_placement(id);
                        }
                        self.place_after_deployment(id);
                        for &(passenger, _) in boarding.iter().filter(|(_, t)| *t == id) {
                            self.embark(passenger, id);
                        }
                    }
                    // no room at all (every half inch of the zone tried): the unit cannot be
                    // deployed, and the game is not played on (`play`): a game without it is
                    // not the game asked for
                    None => return Some(id),
                }
            }
        }
        self.sync_passengers();
        self.snapshot();
        None
    }

    /// Places the Ambusher `id` where the policy picks, with the units it carries; `false`:
    /// nowhere to arrive.
    pub(super) fn arrive_by_ambush(&mut self, id: Id) -> bool {
        let Some(p) = self.ask(|p, v, r| p.ambush_spot(v, r, id)) else { return false };
        self.live_mut(id).arrived = self.round;
        self.place(id, p, "ambush");
        // its units arrive with it ("deployed at the same time as the Transport")
        for u in 0..self.units[id.0].len() {
            if self.carrier((id.0, u)) == Some(id) {
                self.live_mut((id.0, u)).arrived = self.round;
            }
        }
        self.arrival_hits(id);
        true
    }

    /// "Once deployed via this rule, roll X dice, for each 4+ one enemy unit within 3" takes 2
    /// hits with AP(1)" (`Effect::ArrivalHits`: Surprise Attack): each success goes to the
    /// enemy unit within reach that the policy picks; the hits are blocked as any hits (cover
    /// does not count: they are not shooting). Outside any activation, they call for no morale test.
    pub(super) fn arrival_hits(&mut self, id: Id) {
        let (dice, need, within, per, ap) = self.info(id).tricks.arrival_hits;
        if dice == 0 {
            return;
        }
        let near: Vec<Id> = self.on_table(1 - id.0).filter(|&e| self.within(id, e, within + EPS)).collect();
        let rolls: Vec<u8> = (0..dice).map(|_| self.rng.d6()).collect();
        self.dice += u64::from(dice);
        let successes = rolls.iter().filter(|&&r| r >= need).count() as u32;
        self.event(|g| Event {
            dice: u64::from(dice),
            hits: successes,
            models_left: g.info(id).alloc.alive(g.live(id).s),
            detail: format!("rolled {}", rolls.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(" ")),
            ..Event::of("surprise", id, g.live(id).pos, g.live(id).pos)
        });
        if near.is_empty() {
            return;
        }
        let situation = Situation::new(self.prep.edition, false, 0.0);
        let rules: std::sync::Arc<[crate::rules::Rule]> = [crate::rules::Rule::new("AP", Some(crate::rules::Rating::Number(i64::from(ap))))].into();
        for _ in 0..successes {
            let alive: Vec<Id> = near.iter().copied().filter(|&e| !self.live(e).gone).collect();
            let Some(target) = self.ask(|p, v, r| p.surprise_target(v, r, id.0, &alive)) else { return };
            let tinfo = self.info(target);
            let group = Group { label: format!("{per} hits, AP({ap})"), kind: plan::GroupKind::AutomaticHits, dice: per, quality: 2, rules: rules.clone(), takedown: false, deadly: false };
            let r = self.roll_hits(id, target, &group, &situation);
            self.event(|g| Event {
                dice: r.dice,
                hits: r.hits,
                wounds: r.wounds,
                models_left: tinfo.alloc.alive(r.end),
                detail: group.label.clone(),
                ..Event::between("surprise-hits", id, target, g.live(id).pos, g.live(target).pos)
            });
        }
    }
}
