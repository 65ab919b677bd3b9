//! The default policy's judgement: what a charge, a volley, a strike back, an activation or
//! an Aircraft heading is worth in expected points, from the units as they stand now.
//!
//! Charges are valued from both units' current states (models and wounds left, Shaken,
//! fatigue) with the expected-wounds helper (`prepare::exchange`): the pair's expected wounds
//! at full strength for their fatigue (the fresh table `Prepared::fresh_exchange`, or a memo
//! for fatigued and Shaken units), each side's blows scaled by its share of models left and
//! capped at what the other has left; wounds counted in points both ways (a wound on a
//! surviving vehicle is worth its points per wound), plus the chance that the loser of the
//! melee fails its test (a Rout takes what is left, Shaken a share of it).

use super::seat::{Estimate, Seat, Side, ESTIMATE_LIMIT, MEMO_LIMIT};
use crate::game::state::View;
use crate::game::live::Id;
use crate::game::paths::Path;
use crate::game::config::Short;
use crate::game::decisions::Action;
use crate::game::prepare::{Exchange, Role};
use crate::game::table::Point;
use crate::attack::allocation::State;
use crate::morale::MoraleTest;

/// Wounds a Poisson count is followed to (the chance of more is negligible for the means
/// a melee reaches; beyond, the tail is left out).
const POISSON_TOP: usize = 96;

/// Poisson probabilities of 0, 1, ... wounds with mean `mean`, up to where they vanish (at
/// most `POISSON_TOP` of them).
fn poisson_terms(mean: f64) -> impl Iterator<Item = f64> {
    let mean = mean.max(0.0);
    let top = ((mean + 6.0 * mean.sqrt() + 6.0).ceil() as usize).min(POISSON_TOP);
    (0..top).scan((-mean).exp(), move |p, k| {
        let now = *p;
        *p *= mean / (k as f64 + 1.0);
        Some(now)
    })
}

/// `poisson_terms` into `out`: how many were written.
fn poisson(mean: f64, out: &mut [f64; POISSON_TOP]) -> usize {
    let mut written = 0;
    for (slot, p) in out.iter_mut().zip(poisson_terms(mean)) {
        *slot = p;
        written += 1;
    }
    written
}

/// The chances the charger wins and loses melee resolution: "Sum the total number of wounds
/// that each unit caused, and compare the two" (Fear added), each side's wounds a Poisson
/// count — ties are common when few wounds are dealt, which a normal margin would miss.
fn resolution(dealt: f64, taken: f64, fear: f64) -> (f64, f64) {
    let (mut c, mut b) = ([0.0; POISSON_TOP], [0.0; POISSON_TOP]);
    let (nc, nb) = (poisson(dealt, &mut c), poisson(taken, &mut b));
    // at_least[k]: the chance the charger deals k wounds or more
    let mut at_least = [0.0; POISSON_TOP + 1];
    for k in (0..nc).rev() {
        at_least[k] = at_least[k + 1] + c[k];
    }
    let tail = |k: i64| if k <= 0 { 1.0 } else { at_least.get(k as usize).copied().unwrap_or(0.0) };
    let fear = fear.round() as i64;
    let (mut wins, mut loses) = (0.0, 0.0);
    for (j, pb) in b.iter().enumerate().take(nb) {
        // the charger wins with i + fear > j, loses with i + fear < j
        let need = j as i64 - fear;
        wins += pb * tail(need + 1);
        loses += pb * (1.0 - tail(need));
    }
    (wins, loses)
}

/// What failing a melee morale test costs a unit with `left` wounds of `wounds`: "if the test
/// is failed, and the unit only has half or less of its starting size ... then the unit
/// Routs" (all its points left), else it is Shaken (`shaken_weight` of them).
fn failure_stake(left: f64, wounds: f64, per_wound: f64, shaken_weight: f64) -> f64 {
    let points = left.max(0.0) * per_wound;
    if left <= wounds / 2.0 { points } else { shaken_weight * points }
}

fn side_of(g: &View, id: Id) -> Side {
    let l = g.live(id);
    (l.s, l.shaken, l.fatigued)
}

/// The expected wounds of `c` charging `d` as they stand: the full-strength exchange for the
/// pair's fatigue (the fresh table, or the memo: a fatigued charger and a fatigued or Shaken
/// defender "only hit on unmodified rolls of 6"), each side's blows scaled by its share of
/// models left (`estimate` caps them at the wounds left). Cheap enough for every decision;
/// rules that change with the models left are read at full strength.
fn exchange_now(g: &mut Seat, c: Id, d: Id, far: bool) -> Exchange {
    let (cl, dl) = (g.live(c), g.live(d));
    let (c_tired, d_tired) = (cl.fatigued, dl.fatigued || dl.shaken);
    let (ci, di) = (g.info(c), g.info(d));
    let (c_share, d_share) = (f64::from(cl.left) / f64::from(ci.models.max(1)), f64::from(dl.left) / f64::from(di.models.max(1)));
    let full = if !c_tired && !d_tired {
        g.prep.fresh_exchange[c.0].get(c.1).and_then(|row| row.get(d.1)).map(|x| x[usize::from(far)])
    } else {
        None
    };
    let full = match full {
        Some(x) => x,
        None => {
            let key = (c, c_tired, d, d_tired, far);
            match g.memo().exchanges.get(&key) {
                Some(x) => *x,
                None => {
                    let x = g.exchange(c, c_tired, d, d_tired, far);
                    g.memo().exchanges.insert(key, x);
                    x
                }
            }
        }
    };
    Exchange { counter: full.counter * d_share, charge: full.charge * c_share, strike_back: full.strike_back * d_share, fear: full.fear }
}

/// The chance a unit in state `s` (Shaken or not) fails a morale test.
fn p_fail(g: &mut Seat, id: Id, s: State, shaken: bool) -> f64 {
    // the test reads the models left (their Quality and rules), a joined Hero among them or
    // not (`Allocation::alive_key`)
    let key = (id, g.info(id).alloc.alive_key(s), shaken);
    if let Some(p) = g.memo().fails.get(&key) {
        return *p;
    }
    let p = 1.0 - MoraleTest::new(&g.info(id).alloc, s, shaken, g.prep.edition).p_pass();
    if g.memo().fails.len() >= MEMO_LIMIT {
        g.memo().fails.clear();
    }
    g.memo().fails.insert(key, p);
    p
}

/// What `c` charging `d` now is worth to `c`.
pub fn charge_estimate(g: &mut Seat, c: Id, d: Id) -> Estimate {
    let far = g.gap(c, d) > 9.0;
    estimate(g, c, d, far, true)
}

/// The charge's value with or without the defender striking back: each phase's expected
/// wounds scaled by the striker's wounds left after the blows before it, capped at what is
/// left; then melee resolution ("Sum the total number of wounds that each unit caused"),
/// each side's wounds a Poisson count, and the loser's test. Without a strike back, "it must only take
/// a morale test if it suffered at least one wound" (a Poisson chance) where the edition says
/// so (`GameRules::unstruck_loser_needs_a_wound`).
fn estimate(g: &mut Seat, c: Id, d: Id, far: bool, strike_back: bool) -> Estimate {
    let (cs, ds) = (side_of(g, c), side_of(g, d));
    let weight = g.config.policies[c.0].shaken_weight;
    // (Firefight's values read each army's state where its Rout Test is near)
    let rout = [super::firefight::rout_key(g, c.0), super::firefight::rout_key(g, d.0)];
    let key = (c, d, cs, ds, [far, strike_back], weight.to_bits(), rout);
    if let Some(&e) = g.memo().estimates.get(&key) {
        return e;
    }
    let e = estimate_now(g, c, d, (cs, ds), weight, [far, strike_back]);
    if g.memo().estimates.len() >= ESTIMATE_LIMIT {
        g.memo().estimates.clear();
    }
    g.memo().estimates.insert(key, e);
    e
}

/// `estimate`'s work, given the sides and the weight its key holds.
fn estimate_now(g: &mut Seat, c: Id, d: Id, (cs, ds): (Side, Side), weight: f64, [far, strike_back]: [bool; 2]) -> Estimate {
    let (ci, di) = (g.info(c), g.info(d));
    let (c_left, d_left) = (f64::from(g.live(c).wounds_left), f64::from(g.live(d).wounds_left));
    if c_left <= 0.0 || d_left <= 0.0 {
        return Estimate::default();
    }
    // Firefight: "Whilst Stunned, models can't strike back"
    // "Whilst Stunned, models can't strike back"
    let strike_back = strike_back && !g.stunned_now(d);
    let x = exchange_now(g, c, d, far);
    let counter = if strike_back { x.counter.min(c_left) } else { 0.0 };
    let dealt = (x.charge * (1.0 - counter / c_left)).min(d_left);
    let back = if strike_back { (x.strike_back * (1.0 - dealt / d_left)).min(c_left - counter) } else { 0.0 };
    let taken = counter + back;
    let (c_ppw, d_ppw) = (ci.points_per_wound(), di.points_per_wound());
    if g.stuns_models(d) {
        // Firefight: no melee resolution, the chances of Stunning and Knocking Out instead
        let (value, stuns) = super::firefight::charge_value(g, c, d, dealt, taken, weight);
        return Estimate { value, dealt, taken, defender_fails: stuns, defender_stake: weight * g.points_left(d) };
    }
    let d_stake = failure_stake(d_left - dealt, f64::from(di.wounds), d_ppw, weight);
    let c_stake = failure_stake(c_left - taken, f64::from(ci.wounds), c_ppw, weight);
    let (d_fail, c_fail) = (p_fail(g, d, ds.0, ds.1), p_fail(g, c, cs.0, false));
    let (charger_wins, defender_wins) = if strike_back || !g.rules.unstruck_loser_needs_a_wound {
        resolution(dealt, taken, x.fear)
    } else {
        (1.0 - (-dealt).exp(), 0.0)
    };
    let value = dealt * d_ppw - taken * c_ppw + charger_wins * d_fail * d_stake - defender_wins * c_fail * c_stake;
    Estimate { value, dealt, taken, defender_fails: charger_wins * d_fail, defender_stake: d_stake }
}

/// Whether the defender `d` strikes back at `c`: "the defending unit may choose to strike
/// back ..., but doesn't have to", and "if a unit didn't strike back in melee, then it must
/// only take a morale test if it suffered at least one wound". It declines only when that
/// is worth more in expectation: the points it would deal and the test it would avoid by
/// winning, against the test it takes anyway and the fatigue that spoils its own charge
/// later this round ("After attacking in melee for the first time during a round, either by
/// charging or by striking back, units only hit on unmodified rolls of 6").
pub fn strikes_back(g: &mut Seat, c: Id, d: Id) -> bool {
    let far = g.gap(c, d) > 9.0;
    let with = estimate(g, c, d, far, true);
    let without = estimate(g, c, d, far, false);
    let mut fatigue = 0.0;
    let (di, dl) = (g.info(d), g.live(d));
    if !dl.activated && !dl.shaken && !dl.fatigued && !di.movement.hold_only && di.role != Role::Shooting {
        let targets: Vec<Id> = g.on_table(c.0).filter(|&e| !g.info(e).movement.aircraft && g.within(d, e, g.charge_reach(d, e) + 1.0)).collect();
        let best = targets.into_iter().map(|e| charge_estimate(g, d, e).value).fold(0.0, f64::max);
        fatigue = g.config.policies[d.0].fatigue_weight * best;
    }
    // the defender's view: it loses what the charger gains
    let declines = -without.value > -with.value - fatigue + 1e-9;
    !declines
}

/// What one marker is worth, in points: `marker_value` times the army's average unit.
pub(super) fn marker_points(g: &View, army: usize) -> f64 {
    let units = &g.prep.armies[army];
    g.config.policies[army].marker_value * units.iter().map(|u| u.cost).sum::<f64>() / units.len().max(1) as f64
}

/// The chance `dealt` expected wounds (a Poisson count) destroy what is left of `e`.
fn removal_chance(g: &mut Seat, e: Id, dealt: f64) -> f64 {
    let left = g.live(e).wounds_left as usize;
    (1.0 - poisson_terms(dealt).take(left).sum::<f64>()).max(0.0)
}

/// The default policy's move in the last round: a unit off the markers rushes onto the
/// nearest marker within reach that its side does not hold or that an enemy contests
/// ("the player that controls most markers wins"), instead of shooting; `None` otherwise.
pub fn last_round_move(g: &mut Seat, id: Id) -> Option<Action> {
    if g.round < g.config.rounds || !g.may_seize(id) {
        return None;
    }
    let (pos, r) = (g.live(id).pos, g.radius(id));
    if g.on_marker(id) {
        return None;
    }
    let on = |g: &View, who: Id, o: Point| g.near_marker(who, o);
    let rush = g.movement(id).rush;
    let mut wanted: Vec<(f64, usize)> = (0..g.objectives.len())
        .filter(|&i| {
            let o = g.objectives[i];
            let mine = g.owner[i] == id.0 as i8;
            let contested = g.on_table(1 - id.0).any(|e| g.may_contest(e) && on(g, e, o));
            let friend = g.on_table(id.0).any(|f| f != id && g.may_seize(f) && on(g, f, o));
            (!mine || contested) && !friend && !g.claimed[i][id.0]
        })
        .map(|i| (g.objectives[i].distance(pos) - r - g.rules.markers.range, i))
        .filter(|(d, _)| *d <= rush)
        .collect();
    wanted.sort_by(|a, b| a.0.total_cmp(&b.0));
    for (_, i) in wanted {
        let o = g.objectives[i];
        if let Some(path) = g.plan_move(id, o, rush) {
            if g.near_marker_at(id, path.to, o) {
                g.claimed[i][id.0] = true;
                return Some(Action::Rush(path));
            }
        }
    }
    None
}

/// What `wounds` expected wounds on `e` are worth for the markers: when `e` stands on one,
/// the marker's points times the chance the wounds destroy it.
pub fn marker_bonus(g: &mut Seat, army: usize, e: Id, wounds: f64) -> f64 {
    let on_marker = g.on_marker(e);
    if on_marker { removal_chance(g, e, wounds) * marker_points(g, army) } else { 0.0 }
}

/// A quick read of the best volley `id` could fire after moving `reach` inches: the table's
/// fresh expected points (`Prepared::shot_value`) scaled by what is left of it, at most what
/// is left of the target, for enemies within range (sight not checked).
fn quick_shot_value(g: &View, id: Id, reach: f64) -> f64 {
    let info = g.info(id);
    if info.max_range <= 0.0 {
        return 0.0;
    }
    let mine = g.wound_share(id);
    let mut best: f64 = 0.0;
    for e in g.on_table(1 - id.0) {
        if g.within(id, e, info.max_range + reach) {
            let worth = g.points_left(e);
            best = best.max((g.prep.shot_value[id.0][id.1][e.1] * mine).min(worth));
        }
    }
    best
}

/// The marker `id` holds alone, if any (within 3" and no friend that may seize near it).
fn held_alone(g: &View, id: Id) -> Option<Point> {
    g.objectives.iter().copied().find(|&o| super::common::holds_alone(g, id, o))
}

/// The default policy's charge out of `transport`, if one is worth it: the enemy units it
/// can reach from the transport (`View::charge_out`) valued as `charge_action` values
/// them, from both units' states with the markers they hold, above the charge margin.
pub fn charge_out(g: &mut Seat, id: Id, transport: Id, foes: &[Id]) -> Option<(Id, Path)> {
    let mut options = Short::new();
    charge_options(g, id, foes, &mut options);
    options.iter().find_map(|&(_, e)| g.charge_out(id, transport, e).map(|path| (e, path)))
}

/// The charges of `id` into `foes` worth more than the charge margin, best first: each valued
/// from both units' states, with the markers they hold; into `options` (a list the caller
/// holds: no copy of it on return).
fn charge_options(g: &mut Seat, id: Id, foes: &[Id], options: &mut Short<(f64, Id)>) {
    options.clear();
    if foes.is_empty() {
        return;
    }
    let (info, policy) = (g.info(id), g.config.policies[id.0]);
    let floor = policy.charge_margin * info.cost * g.wound_share(id);
    let marker = marker_points(g, id.0);
    let last_round = g.round >= g.config.rounds;
    for &e in foes {
        let est = charge_estimate(g, id, e);
        // no charge into a unit it can't hurt
        if est.dealt <= 0.05 {
            continue;
        }
        // a unit on a marker that is removed, Routed or Shaken no longer holds or contests
        // it; in the last round only the markers count ("the player that controls most
        // markers wins")
        let held = if g.on_marker(e) { est.defender_fails.max(removal_chance(g, e, est.dealt)) * marker } else { 0.0 };
        let value = if last_round { 0.0 } else { est.value } + held;
        if value > floor {
            options.push((value, e));
        }
    }
    options.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
}

/// The default policy's charge, if one is worth more than the unit's other options: targets
/// in reach valued from both units' states, tried best first until one has a path; charged
/// only when worth more than the charge margin, than shooting this activation (a unit that
/// charges doesn't shoot), and, off a marker it alone holds, than the marker.
pub fn charge_action(g: &mut Seat, id: Id) -> Option<Action> {
    let info = g.info(id);
    if info.movement.hold_only || info.movement.aircraft {
        return None;
    }
    let in_reach: Short<Id> = g.on_table(1 - id.0).filter(|&e| !g.info(e).movement.aircraft && g.within(id, e, g.charge_reach(id, e))).collect();
    let mut options = Short::new();
    charge_options(g, id, &in_reach, &mut options);
    if options.is_empty() {
        return None;
    }
    let marker = marker_points(g, id.0);
    let shooting = quick_shot_value(g, id, 0.0);
    let held = held_alone(g, id);
    let r = g.radius(id);
    for &(value, e) in &options {
        if value <= shooting {
            break;
        }
        let Some(path) = g.charge_path(id, e) else { continue };
        // the charger ends 1" back from its target ("must move back by 1"")
        let leaves = held.is_some_and(|o| path.to.distance(o) - r + 1.0 > g.rules.markers.range);
        if leaves && value - shooting <= marker {
            continue;
        }
        return Some(Action::Charge(e, path));
    }
    None
}

/// What `activation_value` reads of an enemy, gathered once per pick (every ready unit is
/// weighed against every enemy at every pick).
struct Foe {
    unit: usize,
    pos: Point,
    radius: f64,
    aircraft: bool,
    shaken: bool,
    /// Its share of wounds left, and its points left.
    share: f64,
    left: f64,
    per_wound: f64,
    /// Its reach with its guns (0: none) and with a charge (negative: it doesn't charge).
    shoots_within: f64,
    charges_within: f64,
    charge_penalty: f64,
}

fn foes(g: &View, army: usize) -> Short<Foe, 24> {
    g.on_table(1 - army)
        .map(|e| {
            let (ei, el) = (g.info(e), g.live(e));
            let m = ei.movement;
            Foe {
                unit: e.1,
                pos: el.pos,
                radius: g.radius(e),
                aircraft: m.aircraft,
                shaken: el.shaken,
                share: g.wound_share(e),
                left: g.points_left(e),
                per_wound: ei.points_per_wound(),
                shoots_within: if ei.max_range > 0.0 { ei.max_range + if m.hold_only { 0.0 } else { m.advance } } else { 0.0 },
                charges_within: if m.hold_only || m.aircraft { -1.0 } else { m.charge },
                charge_penalty: ei.tricks.charge_penalty,
            }
        })
        .collect()
}

/// How much activating `id` now is worth, and the gap to the nearest enemy on the ground:
/// its best charge or volley in reach, a quick read from the fresh tables scaled by what is
/// left of each side (it is asked for every ready unit at every pick, so the enemies are
/// read once per pick), plus `threat_weight` times the points enemies in reach stand to
/// take from it.
fn activation_value(g: &View, id: Id, foes: &[Foe]) -> (f64, f64) {
    let (info, live) = (g.info(id), g.live(id));
    let (pos, radius) = (live.pos, g.radius(id));
    let mine = g.wound_share(id);
    let reach = if info.movement.hold_only { 0.0 } else { info.movement.advance };
    let charges = !info.movement.hold_only && !info.movement.aircraft && !live.shaken;
    let charge = g.movement(id).charge;
    let threat_weight = g.config.policies[id.0].threat_weight;
    let (shots, exchanges) = (&g.prep.shot_value[id.0][id.1], &g.prep.fresh_exchange[id.0][id.1]);
    let (their_shots, their_exchanges) = (&g.prep.shot_value[1 - id.0], &g.prep.fresh_exchange[1 - id.0]);
    let (mut best, mut threat, mut nearest): (f64, f64, f64) = (0.0, 0.0, f64::INFINITY);
    for foe in foes {
        // an ordering, asked for every ready unit at every activation: the discs' distance
        // (at most the closest models') is enough
        let gap = disc_gap(pos, radius, foe);
        if !foe.aircraft {
            nearest = nearest.min(gap);
        }
        if info.max_range > 0.0 && gap <= info.max_range + reach {
            best = best.max((shots[foe.unit] * mine).min(foe.left));
        }
        if charges && !foe.aircraft && gap <= (charge - foe.charge_penalty).max(0.0) {
            let x = exchanges[foe.unit][usize::from(gap > 9.0)];
            best = best.max((x.charge * mine * foe.per_wound).min(foe.left) - (x.counter + x.strike_back) * foe.share * info.points_per_wound());
        }
        if threat_weight > 0.0 && !foe.shaken {
            if foe.shoots_within > 0.0 && gap <= foe.shoots_within {
                threat += their_shots[foe.unit][id.1] * foe.share * mine;
            }
            // (its charge reach less this unit's own penalty to chargers, as `View::charge_reach`)
            if foe.charges_within >= 0.0 && !info.movement.aircraft && gap <= (foe.charges_within - info.tricks.charge_penalty).max(0.0) {
                let x = their_exchanges[foe.unit][id.1][usize::from(gap > 9.0)];
                threat += (x.charge * foe.share * info.points_per_wound() - (x.counter + x.strike_back) * mine * foe.per_wound).max(0.0);
            }
        }
    }
    (best + threat_weight * threat, nearest)
}

/// `activation_value`'s gap to the nearest enemy on the ground alone (the same discs' test).
fn nearest_gap(g: &View, id: Id, foes: &[Foe]) -> f64 {
    let (pos, radius) = (g.live(id).pos, g.radius(id));
    foes.iter().filter(|foe| !foe.aircraft).fold(f64::INFINITY, |nearest, foe| nearest.min(disc_gap(pos, radius, foe)))
}

/// The gap between a unit's disc (at `pos`, of `radius`) and a foe's.
fn disc_gap(pos: Point, radius: f64, foe: &Foe) -> f64 {
    (pos.distance(foe.pos) - radius - foe.radius).max(0.0)
}

/// Which ready unit the default policy activates: the one whose activation is worth most
/// now (its best action, or what it stands to lose by waiting), nearest the enemy on ties;
/// Shaken units last (they only stand idle).
pub fn pick_unit(g: &mut Seat, ready: &[usize], army: usize) -> usize {
    if ready.len() <= 1 {
        return ready.first().copied().unwrap_or(0);
    }
    let foes = foes(g, army);
    let mut best: Option<((bool, f64, f64), usize)> = None;
    for &u in ready {
        let id = (army, u);
        let shaken = g.live(id).shaken;
        // a Shaken unit never beats one that is not: only its gap to the nearest enemy is
        // asked, and only against another Shaken one
        if shaken && best.is_some_and(|(b, _)| b.0) {
            continue;
        }
        let (value, near) = if shaken { (0.0, nearest_gap(g, id, &foes)) } else { activation_value(g, id, &foes) };
        let key = (!shaken, value, -near);
        let better = |a: (bool, f64, f64), b: (bool, f64, f64)| a.0 && !b.0 || a.0 == b.0 && (a.1 > b.1 + 1e-9 || (a.1 >= b.1 - 1e-9 && a.2 > b.2));
        if best.is_none_or(|(b, _)| better(key, b)) {
            best = Some((key, u));
        }
    }
    best.map_or_else(|| ready.first().copied().unwrap_or(0), |(_, u)| u)
}

/// Whether a shooter whose rules reward standing still (a Hold's shots: v3.4.1's Relentless;
/// not having moved: its Entrenched) should hold rather than take the Advance `path`: when it
/// has a shot from where it stands and the Advance does not bring it within 3" of a marker
/// its army does not hold.
pub fn better_still(g: &mut Seat, id: Id, path: &Path) -> bool {
    let t = g.info(id).tricks;
    if !(t.hold_rules || t.stationary_rules) || g.info(id).max_range <= 0.0 {
        return false;
    }
    let army = id.0 as i8;
    if g.objectives.iter().enumerate().any(|(i, &o)| g.owner[i] != army && g.near_marker_at(id, path.to, o)) {
        return false;
    }
    let foes: Vec<Id> = g.on_table(1 - id.0).collect();
    foes.into_iter().any(|e| {
        let sight = g.sight(id, e);
        g.shot_key(id, e, sight, false).is_some()
    })
}

/// A unit standing in dangerous terrain steps out of it ("If a model ... is activated in it,
/// then it must take a dangerous terrain test": one test per activation, taken already) with
/// an Advance, staying within 3" of the marker it stands on, if any; `None` when it is not in
/// dangerous terrain or finds no such spot.
pub fn leave_danger(g: &mut Seat, id: Id) -> Option<Action> {
    let pos = g.live(id).pos;
    if g.info(id).movement.aircraft || !g.in_dangerous(id, pos) {
        return None;
    }
    let near = |g: &View, p: Point, o: Point| g.near_marker_at(id, p, o);
    let marker = g.objectives.iter().copied().find(|&o| near(g, pos, o));
    let advance = g.movement(id).advance;
    let mut best: Option<(f64, Path)> = None;
    for k in 0..8 {
        let a = f64::from(k) * std::f64::consts::TAU / 8.0;
        for step in [2.0, 4.0, advance] {
            let goal = Point::new(pos.x + step * a.cos(), pos.y + step * a.sin());
            let Some(path) = g.plan_move(id, goal, advance) else { continue };
            let keeps = marker.is_none_or(|o| near(g, path.to, o));
            if keeps && !g.in_dangerous(id, path.to) && best.as_ref().is_none_or(|(l, _)| path.length < *l) {
                best = Some((path.length, path));
            }
        }
    }
    best.map(|(_, path)| Action::Advance(path))
}

/// Where `id` deploys (within `depth` of its edge): never in dangerous terrain; melee units
/// at the front of the zone; shooters as far forward as their range needs to fire in the
/// first rounds (Artillery and short guns at the front, long guns anywhere); cheap units
/// nearest the markers; valuable units a little behind the screen of those placed before
/// them; away from friends.
pub fn deployment_spot(g: &mut Seat, id: Id, depth: f64) -> Option<Point> {
    let info = g.info(id);
    let far = (depth - g.radius(id)).max(g.radius(id));
    let army = &g.prep.armies[id.0];
    let mean = army.iter().map(|u| u.cost).sum::<f64>() / army.len().max(1) as f64;
    let cheap = info.cost <= mean;
    // the gap to the enemy's zone from the front of ours
    let no_mans_land = g.rules.table.depth - 2.0 * g.rules.deployment.depth;
    let needs_front = info.role == Role::Shooting && (info.movement.hold_only || info.max_range < no_mans_land + far + 6.0);
    let jitter = (info.role != Role::Shooting || needs_front).then_some(3.0);
    let score = |g: &View, p: Point, y: f64, crowd: f64| {
        let objective = super::common::to_objective(g, p);
        let objective = if objective.is_finite() { objective } else { 0.0 };
        // a valuable non-melee unit prefers a friend placed between it and the enemy
        let screened = !cheap && info.role != Role::Melee && g.on_table(id.0).any(|f| f != id && (g.live(f).pos.x - p.x).abs() < 6.0 && g.from_edge(id.0, g.live(f).pos.x, g.live(f).pos.y).y > y);
        objective * if cheap { 1.5 } else { 1.0 } + 6.0 * crowd - if screened { 6.0 } else { 0.0 }
    };
    super::common::sample_deployment(g, id, depth, jitter, 12, |g, p| !g.in_dangerous(id, p), score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::test_support::{bot, with_seat};
    use crate::game::test_support::Game;
    use crate::game::cache::Cache;
    use crate::game::policy;
    use crate::game::prepare::Prepared;
    use crate::state::UnitState;
    use crate::game::table::{Kinds, Piece};
    use crate::game::{Config, Policy, PolicyKind, Terrain};

    use crate::game::test_support::prep;

    fn config(terrain: Vec<Piece>, kind: PolicyKind) -> Config {
        let policy = Policy { kind, ..Policy::DEFAULT };
        Config {
            seed: 7,
            terrain: Terrain::Fixed(terrain),
            objectives: Some(vec![Point::new(60.0, 44.0)]),
            policies: [policy; 2],
            deployment: None,
            line_up: None,
            first: Some(0),
            paired: false,
            rounds: 4,
            trace: false,
            profile: false,
        }
    }

    /// A game in round 1 with every unit at the given spot.
    fn game<'a>(prep: &'a Prepared, config: &'a Config, cache: &'a mut Cache, spots: [&[Point]; 2]) -> Game<'a> {
        let mut g = Game::new(prep, config, 0, cache, bot());
        for army in 0..2 {
            for (u, p) in spots[army].iter().enumerate() {
                g.units[army][u].pos = *p;
            }
        }
        g.round = 1;
        g
    }

    const TANK: &str = "Battle Tank [1] Q4+ D2+ | 300pts | Tough(12)";

    #[test]
    fn a_charge_counts_wounds_on_a_vehicle_it_does_not_destroy() {
        // Tough(12): the hammers wound it but destroy it in few games; the greedy table counts
        // only models killed, the default policy points per wound times the wounds
        let p = prep(&["Hammers [5] Q3+ D4+ | 150pts\n5x Hammer (A3, AP(4))"], &[TANK]);
        let c = config(Vec::new(), PolicyKind::Default);
        let mut cache = Cache::default();
        let mut g = game(&p, &c, &mut cache, [&[Point::new(30.0, 20.0)], &[Point::new(30.0, 26.0)]]);
        let e = with_seat(&mut g, |s| charge_estimate(s, (0, 0), (1, 0)));
        let tank = &p.armies[1][0];
        assert!(e.dealt > 3.0 && e.dealt < 12.0, "{e:?}");
        assert!((e.value - e.dealt * tank.points_per_wound()).abs() < 1e-6 + e.defender_fails * e.defender_stake, "{e:?}");
        assert!(e.value > 0.0);
        assert!(matches!(with_seat(&mut g, |s| charge_action(s, (0, 0))), Some(Action::Charge((1, 0), _))));
    }

    #[test]
    fn no_charge_into_a_unit_it_cannot_hurt() {
        // a unit without melee weapons deals no wounds, whatever it is worth
        let p = prep(&["Gunners [5] Q4+ D4+ | 100pts\n5x Rifle (24\", A1)"], &["Target [1] Q6+ D6+ | 50pts"]);
        let c = config(Vec::new(), PolicyKind::Default);
        let mut cache = Cache::default();
        let mut g = game(&p, &c, &mut cache, [&[Point::new(30.0, 20.0)], &[Point::new(30.0, 26.0)]]);
        assert_eq!(with_seat(&mut g, |s| charge_estimate(s, (0, 0), (1, 0))).dealt, 0.0);
        assert!(with_seat(&mut g, |s| charge_action(s, (0, 0))).is_none());
    }

    #[test]
    fn the_next_target_is_tried_when_the_best_has_no_path() {
        // the tank (worth more per wound) is walled in by impassable terrain: "no unit may
        // stand in or move through it"; the grunts are charged instead
        let p = prep(&["Hammers [5] Q3+ D4+ | 150pts\n5x Hammer (A3, AP(4))"], &["Officer [1] Q4+ D4+ | 200pts | Tough(6)", "Grunts [5] Q5+ D5+ | 60pts"]);
        let wall = Kinds { impassable: true, ..Kinds::default() };
        let walls = vec![
            Piece::new("w", 24.0, 30.0, 36.0, 31.0, wall).unwrap(),
            Piece::new("e", 24.0, 41.0, 36.0, 42.0, wall).unwrap(),
            Piece::new("s", 24.0, 30.0, 25.0, 42.0, wall).unwrap(),
            Piece::new("n", 35.0, 30.0, 36.0, 42.0, wall).unwrap(),
        ];
        let c = config(walls, PolicyKind::Default);
        let mut cache = Cache::default();
        let mut g = game(&p, &c, &mut cache, [&[Point::new(30.0, 22.0)], &[Point::new(30.0, 36.0), Point::new(40.0, 24.0)]]);
        let (best, next) = (with_seat(&mut g, |s| charge_estimate(s, (0, 0), (1, 0))), with_seat(&mut g, |s| charge_estimate(s, (0, 0), (1, 1))));
        assert!(best.value > next.value && next.value > 0.0, "{best:?} {next:?}");
        assert!(g.gap((0, 0), (1, 0)) <= g.charge_reach((0, 0), (1, 0)));
        assert!(g.charge_path((0, 0), (1, 0)).is_none());
        assert!(matches!(with_seat(&mut g, |s| charge_action(s, (0, 0))), Some(Action::Charge((1, 1), _))));
    }

    #[test]
    fn a_shooter_with_no_target_in_sight_closes_in_instead_of_holding() {
        // "If at least one model in the unit has line of sight ... and has a weapon that is
        // within range": the only enemy is in range but behind a building, and the one marker
        // is the shooter's army's already, so nothing to take: the default policy advances on
        // the enemy (holding would leave it idle all game); the greedy one holds, as it played
        let p = prep(&["Gunners [5] Q4+ D4+ | 100pts\n5x Rifle (24\", A1)"], &["Grunts [5] Q5+ D5+ | 60pts"]);
        let wall = Kinds { blocking: true, impassable: true, ..Kinds::default() };
        let building = vec![Piece::new("building", 20.0, 19.0, 40.0, 25.0, wall).unwrap()];
        let spots: [&[Point]; 2] = [&[Point::new(30.0, 10.0)], &[Point::new(30.0, 32.0)]];
        for (kind, moves) in [(PolicyKind::Default, true), (PolicyKind::Greedy, false)] {
            let c = config(building.clone(), kind);
            let mut cache = Cache::default();
            let mut g = game(&p, &c, &mut cache, spots);
            g.owner[0] = 0;
            assert!(g.gap((0, 0), (1, 0)) < 24.0 && !g.sight((0, 0), (1, 0)).visible);
            assert!(with_seat(&mut g, |s| policy::shots(s, (0, 0), false)).is_empty());
            let action = with_seat(&mut g, |s| policy::decide(s, (0, 0)));
            assert_eq!(matches!(action, Action::Advance(_)), moves, "{kind:?}: {action:?}");
        }
    }

    #[test]
    fn a_unit_with_no_move_nearer_its_marker_goes_for_the_enemy() {
        // the unit stands against a long wall between it and the marker ("Units may not move
        // through impassable terrain"): no move gets it nearer, so instead of holding all
        // game the default policy closes in on the enemy; the greedy one holds, as it played
        let p = prep(&["Gunners [5] Q4+ D4+ | 100pts\n5x Rifle (24\", A1)"], &["Grunts [5] Q5+ D5+ | 60pts"]);
        let wall = Kinds { impassable: true, ..Kinds::default() };
        let walls = vec![Piece::new("wall", 4.0, 30.0, 68.0, 31.0, wall).unwrap()];
        for (kind, moves) in [(PolicyKind::Default, true), (PolicyKind::Greedy, false)] {
            let c = config(walls.clone(), kind);
            let mut cache = Cache::default();
            let mut g = game(&p, &c, &mut cache, [&[Point::new(60.0, 20.0)], &[Point::new(20.0, 10.0)]]);
            let against = Point::new(60.0, 30.0 - g.radius((0, 0)) - 0.01);
            g.units[0][0].pos = against;
            assert!(g.plan_move((0, 0), Point::new(60.0, 44.0), 12.0).is_none());
            let action = with_seat(&mut g, |s| policy::decide(s, (0, 0)));
            let closer = |path: &crate::game::paths::Path| path.to.distance(Point::new(20.0, 10.0)) < against.distance(Point::new(20.0, 10.0)) - 5.0;
            assert_eq!(matches!(action, Action::Advance(ref path) | Action::Rush(ref path) if closer(path)), moves, "{kind:?}: {action:?}");
        }
        // a melee unit the same way (it goes for the marker, 14" off, before the enemy 40" off)
        let claws = prep(&["Claws [5] Q4+ D4+ | 100pts\n5x Claw (A2)"], &["Grunts [5] Q5+ D5+ | 60pts"]);
        let c = config(walls.clone(), PolicyKind::Default);
        let mut cache = Cache::default();
        let mut g = game(&claws, &c, &mut cache, [&[Point::new(60.0, 20.0)], &[Point::new(20.0, 10.0)]]);
        g.units[0][0].pos = Point::new(60.0, 30.0 - g.radius((0, 0)) - 0.01);
        assert!(matches!(with_seat(&mut g, |s| policy::decide(s, (0, 0))), Action::Rush(ref path) if path.to.distance(Point::new(20.0, 10.0)) < 40.0));
        // but a unit standing on its marker (not holding it, with the hold weight at 0) stays
        let mut c = config(Vec::new(), PolicyKind::Default);
        c.policies[0].hold_objectives = 0.0;
        let mut cache = Cache::default();
        let mut g = game(&p, &c, &mut cache, [&[Point::new(60.0, 44.0)], &[Point::new(20.0, 10.0)]]);
        g.units[0][0].pos = Point::new(60.0, 48.0 - g.radius((0, 0)) - 0.01);
        assert!(g.near_marker((0, 0), Point::new(60.0, 44.0)));
        g.units[0][0].pos = Point::new(60.0, 44.0);
        assert!(matches!(with_seat(&mut g, |s| policy::decide(s, (0, 0))), Action::Hold));
    }

    #[test]
    fn aircraft_fly_off_the_long_axis_when_that_is_better() {
        // "May only use Advance actions, moving in a straight line": any heading; the target
        // is out of the cannon's range at the end of a move along the long edge
        let p = prep(&["Jet [1] Q4+ D4+ | Aircraft, Tough(6)\nCannon (18\", A4)"], &["Grunts [5] Q5+ D5+"]);
        let spots: [&[Point]; 2] = [&[Point::new(6.0, 6.0)], &[Point::new(36.0, 38.0)]];
        let c = config(Vec::new(), PolicyKind::Default);
        let mut cache = Cache::default();
        let mut g = game(&p, &c, &mut cache, spots);
        let path = with_seat(&mut g, |s| super::super::flight::aircraft_path(s, (0, 0))).unwrap();
        assert!(path.length >= 30.0 && (path.to.y - 6.0).abs() > 5.0, "{path:?}");
        assert!(g.gap((0, 0), (1, 0)) > 18.0 && path.to.distance(Point::new(36.0, 38.0)) - 0.5 - p.armies[1][0].radius <= 18.0);
        let greedy = config(Vec::new(), PolicyKind::Greedy);
        let mut cache = Cache::default();
        let mut g = game(&p, &greedy, &mut cache, spots);
        assert_eq!(with_seat(&mut g, |s| policy::aircraft_path(s, (0, 0))).unwrap().to.y, 6.0);
    }

    #[test]
    fn deployment_never_stands_in_dangerous_terrain() {
        // "If a model moves in or through dangerous terrain, or is activated in it, then it
        // must take a dangerous terrain test": most of the zone is a minefield
        let p = prep(&["Grunts [5] Q5+ D5+", "Tank [1] Q4+ D2+ | Tough(12)"], &["Grunts [5] Q5+ D5+"]);
        let mines = Kinds { dangerous: true, ..Kinds::default() };
        let field = vec![Piece::new("minefield", 0.0, 0.0, 48.0, 12.0, mines).unwrap()];
        let c = config(field, PolicyKind::Default);
        for seed in 0..40 {
            let mut cache = Cache::default();
            let mut g = Game::new(&p, &c, seed, &mut cache, bot());
            for army in 0..2 {
                for live in g.units[army].iter_mut() {
                    live.gone = true;
                }
            }
            let army = g.seat[0];
            for u in 0..2 {
                g.units[army][u].gone = false;
                let spot = with_seat(&mut g, |s| policy::deployment_spot(s, (army, u), 12.0)).unwrap_or_else(|| panic!("seed {seed} unit {u}: no room right of the minefield"));
                assert!(!g.in_dangerous((army, u), spot), "seed {seed}: {spot:?}");
                g.units[army][u].pos = spot;
            }
        }
    }

    #[test]
    fn the_morale_memo_tells_a_unit_from_the_same_unit_without_its_hero() {
        use crate::edition::Edition;
        use crate::profile::Unit;
        // a Takedown can kill a joined Hero before the models in front of it: the test then
        // reads the models left without it (here the Q3+ Hero whose Quality the unit used)
        let body = Unit::parse("Grunts [5] Q5+ D5+", Edition::V3_5).unwrap();
        let hero = Unit::parse("Captain [1] Q3+ D4+ | Hero, Tough(3)", Edition::V3_5).unwrap();
        let joined = body.join(&hero, Edition::V3_5).unwrap();
        let foe = Unit::parse("Grunts [5] Q5+ D5+", Edition::V3_5).unwrap();
        let p = Prepared::new([&[joined], &[foe]], Edition::V3_5, [2.0, 2.0]).unwrap();
        let c = config(Vec::new(), PolicyKind::Default);
        let mut cache = Cache::default();
        let mut g = game(&p, &c, &mut cache, [&[Point::new(30.0, 20.0)], &[Point::new(30.0, 40.0)]]);
        let alloc = &p.armies[0][0].alloc;
        let with_hero = State::default();
        let without = alloc.state_of("s", &UnitState { hero_wounds: 3, ..UnitState::FRESH }).unwrap();
        assert_ne!(alloc.alive_key(with_hero), alloc.alive_key(without));
        let fails = [with_hero, without].map(|s| with_seat(&mut g, |seat| p_fail(seat, (0, 0), s, false)));
        for (s, got) in [with_hero, without].into_iter().zip(fails) {
            assert!((got - (1.0 - MoraleTest::new(alloc, s, false, Edition::V3_5).p_pass())).abs() < 1e-12, "{s:?}");
        }
        assert!(fails[1] > fails[0], "{fails:?}");
    }

    #[test]
    fn a_defender_declines_to_strike_back_when_the_rule_makes_that_better() {
        // "if a unit didn't strike back in melee, then it must only take a morale test if it
        // suffered at least one wound": against Fear(3) ("counts as having dealt +X wounds
        // when checking who won melee") a defender that barely scratches the charger loses
        // whenever it strikes back, but mostly takes no wound and no test when it doesn't
        let p = prep(&["Horrors [5] Q5+ D2+ | 100pts | Fear(3)\n5x Claw (A1)"], &["Wardens [5] Q4+ D2+ | 100pts\n5x Knife (A1)"]);
        let spots: [&[Point]; 2] = [&[Point::new(30.0, 20.0)], &[Point::new(30.0, 26.0)]];
        let c = config(Vec::new(), PolicyKind::Default);
        let mut cache = Cache::default();
        let mut g = game(&p, &c, &mut cache, spots);
        assert!(!with_seat(&mut g, |s| strikes_back(s, (0, 0), (1, 0))));
        assert!(!with_seat(&mut g, |s| policy::strike_back(s, (0, 0), (1, 0))));
        // a defender that wins its melee strikes back
        let p = prep(&["Horrors [5] Q5+ D2+ | 100pts\n5x Claw (A1)"], &["Hammers [5] Q3+ D4+ | 150pts\n5x Hammer (A3, AP(4))"]);
        let mut cache = Cache::default();
        let mut g = game(&p, &c, &mut cache, spots);
        assert!(with_seat(&mut g, |s| strikes_back(s, (0, 0), (1, 0))));
        // the greedy policy always strikes back
        let p = prep(&["Horrors [5] Q5+ D2+ | 100pts | Fear(3)\n5x Claw (A1)"], &["Wardens [5] Q4+ D2+ | 100pts\n5x Knife (A1)"]);
        let greedy = config(Vec::new(), PolicyKind::Greedy);
        let mut cache = Cache::default();
        let mut g = game(&p, &greedy, &mut cache, spots);
        assert!(with_seat(&mut g, |s| policy::strike_back(s, (0, 0), (1, 0))));
    }
    #[test]
    fn a_unit_on_a_marker_steps_out_of_dangerous_terrain_and_keeps_the_marker() {
        // "If a model moves in or through dangerous terrain, or is activated in it, then it
        // must take a dangerous terrain test": standing still there tests every activation
        let p = prep(&["Grunts [5] Q5+ D5+ | 60pts"], &["Grunts [5] Q5+ D5+ | 60pts"]);
        let mines = Kinds { dangerous: true, ..Kinds::default() };
        let mut c = config(vec![Piece::new("minefield", 57.0, 42.0, 63.0, 48.0, mines).unwrap()], PolicyKind::Default);
        c.objectives = Some(vec![Point::new(60.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = game(&p, &c, &mut cache, [&[Point::new(60.0, 44.0)], &[Point::new(10.0, 5.0)]]);
        assert!(g.in_dangerous((0, 0), g.live((0, 0)).pos));
        let Some(Action::Advance(path)) = with_seat(&mut g, |s| leave_danger(s, (0, 0))) else { panic!("stays in the minefield") };
        assert!(!g.in_dangerous((0, 0), path.to));
        assert!(g.models_at((0, 0), path.to).any(|(_, q, r)| q.distance(Point::new(60.0, 44.0)) - r <= g.rules.markers.range));
    }
}

