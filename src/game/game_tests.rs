//! Tests of the game's phases, each citing the rule it checks.

use super::test_support::Game;
use super::live::Id;
use super::paths::Path;
use super::{paths, table, Config, Short, Terrain};
use super::prepare::*;
use super::rules::*;
use super::table::*;
use rand::RngExt;
use std::time::Instant;
use super::cache::*;
use super::setup::*;
use crate::edition::Edition;
use super::UnitTotals;
use super::table::Kinds;
use crate::profile::Unit;
use rand::SeedableRng;

use super::test_support::prep;

use super::test_support::{config, placed};

const GRUNTS: &str = "Grunts [5] Q5+ D5+\n5x Rifle (24\", A1)";
const WIDTH: f64 = GameRules::V3_5.table.width;
const DEPTH: f64 = GameRules::V3_5.table.depth;
const UNIT_GAP: f64 = GameRules::V3_5.moves.unit_gap;
const DIFFICULT_MOVE: f64 = GameRules::V3_5.moves.difficult_cap;

#[test]
fn a_chargers_held_defense_waits_for_a_strike_back() {
    // "which gets Regeneration once (next time the effect would apply)": a charger whose
    // target is destroyed before it strikes back took no attack, so it keeps the rule; a
    // target that strikes back and hits uses it up
    for (defender, kept) in [("Grot [1] Q6+ D6+", true), ("Wall [10] Q2+ D4+ | Tough(3)\n10x Hammer (A4)", false)] {
        let p = prep(&["Priest [1] Q4+ D4+ | Hero, Regeneration Buff", "Brutes [10] Q3+ D4+\n10x Axe (A4, AP(2))"], &[defender]);
        let c = config(Vec::new(), vec![Point::new(36.0, 24.0)], vec![Point::new(10.0, 40.0), Point::new(20.0, 24.0)], vec![Point::new(31.0, 24.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let (brutes, target) = ((0, 1), (1, 0));
        let b = g.info(brutes).buffed.iter().position(|x| x.rule == "Regeneration").expect("a friend may give it") as u8 + 1;
        g.live_mut(brutes).buff = b;
        let path = g.charge_path(brutes, target).expect("in reach");
        g.charge(brutes, target, path);
        let struck_back = g.trace.as_ref().unwrap().iter().any(|e| e.kind == "buff-used");
        assert_eq!(g.live(brutes).buff == b, kept, "{defender}: struck back and used: {struck_back}");
    }
}

#[test]
fn moves_cover_the_rulebooks_distances() {
    // "Advance - Moves 6"", "Rush - Moves 12"", "Charge - Moves 12" into melee"; Fast
    // "+2" when using Advance and +4" when using Rush/Charge"; Slow "-2" ... -4""
    let p = prep(&[GRUNTS, "Bikes [3] Q4+ D4+ | Fast", "Ogres [3] Q4+ D4+ | Slow"], &[GRUNTS]);
    let speeds: Vec<(f64, f64, f64)> = p.armies[0].iter().map(|u| (u.movement.advance, u.movement.rush, u.movement.charge)).collect();
    assert_eq!(speeds, [(6.0, 12.0, 12.0), (8.0, 16.0, 16.0), (4.0, 8.0, 8.0)]);
    let c = config(vec![], vec![], vec![Point::new(10.0, 5.0), Point::new(30.0, 5.0), Point::new(50.0, 5.0)], vec![Point::new(36.0, 44.0)]);
    let mut cache = Cache::default();
    let g = placed(&p, &c, &mut cache);
    for (u, allowance) in [(0, 12.0), (1, 16.0), (2, 8.0)] {
        let from = g.live((0, u)).pos;
        let path = g.plan_move((0, u), Point::new(from.x, 40.0), allowance).unwrap();
        assert!((path.length - allowance).abs() < 1e-9 && (path.to.distance(from) - allowance).abs() < 1e-9);
    }
}

#[test]
fn dangerous_terrain_is_tested_once_per_activation_and_its_wounds_call_for_morale() {
    // "If a model moves in or through dangerous terrain, or is activated in it, then it must
    // take a dangerous terrain test." One test per activation, however it got there.
    let field = Piece::new("minefield", 0.0, 0.0, 72.0, 48.0, Kinds { dangerous: true, ..Kinds::default() }).unwrap();
    let p = prep(&["Mob [20] Q6+ D6+\n20x Club (A1)"], &[GRUNTS]);
    let c = config(vec![field], vec![], vec![Point::new(36.0, 5.0)], vec![Point::new(36.0, 44.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    for _ in 0..40 {
        g.activate((0, 0));
        let tests = g.trace.as_ref().unwrap().iter().filter(|e| e.kind == "dangerous").count();
        assert!(tests <= 1, "{tests} tests in one activation");
        g.trace.as_mut().unwrap().clear();
        if g.live((0, 0)).gone || g.live((0, 0)).shaken {
            break;
        }
        g.live_mut((0, 0)).activated = false;
    }
    // "At the end of an activation in which a unit takes wounds that leave it with half or
    // less of its starting size ..., it must take a morale test": wounds from terrain too.
    let mut g = placed(&p, &c, &mut cache);
    let half = g.info((0, 0)).alloc.apply(g.live((0, 0)).s, 9, 1);
    g.set_state((0, 0), half);
    let mut tested = false;
    for _ in 0..200 {
        g.activate((0, 0));
        let events = g.trace.as_ref().unwrap();
        let wounded = events.iter().any(|e| e.kind == "dangerous" && e.wounds > 0);
        let morale = events.iter().any(|e| e.kind == "morale");
        assert!(!wounded || morale || g.live((0, 0)).gone, "terrain wounds at half strength without a morale test");
        tested |= wounded && morale;
        g.trace.as_mut().unwrap().clear();
        if g.live((0, 0)).gone {
            break;
        }
        let live = g.live_mut((0, 0));
        (live.activated, live.shaken) = (false, false);
    }
    assert!(tested);
}

#[test]
fn limited_is_spent_weapon_by_weapon() {
    // "Limited: May only be used once per game." (per weapon: firing one Limited weapon
    // leaves the unit's other Limited weapons ready)
    let p = prep(&["Team [1] Q4+ D4+\nRocket (24\", A1, Limited), Flamer (24\", A2, Limited)"], &[GRUNTS]);
    let c = config(vec![], vec![], vec![Point::new(36.0, 20.0)], vec![Point::new(36.0, 34.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let labels = |g: &mut Game| {
        let sight = g.sight((0, 0), (1, 0));
        let key = g.shot_key((0, 0), (1, 0), sight, false);
        key.map(|k| g.plan(&k).groups.iter().map(|gr| gr.label.split(" (").next().unwrap().to_string()).collect::<Vec<_>>()).unwrap_or_default()
    };
    assert_eq!(labels(&mut g), ["Rocket", "Flamer"]);
    let rocket = g.info((0, 0)).limited.iter().position(|n| n == "Rocket").unwrap();
    g.live_mut((0, 0)).limited_spent |= 1 << rocket;
    assert_eq!(labels(&mut g), ["Flamer"]);
    g.live_mut((0, 0)).limited_spent = u32::MAX;
    assert!(labels(&mut g).is_empty());
}

#[test]
fn difficult_terrain_caps_a_move_at_six_inches_unless_strider() {
    // "If any model in a unit moves in or through difficult terrain at any point of its
    // move, then all models in the unit may not move more than 6" for that movement."
    let swamp = Piece::new("swamp", 0.0, 14.0, 72.0, 18.0, Kinds { difficult: true, ..Kinds::default() }).unwrap();
    let p = prep(&[GRUNTS, "Striders [5] Q5+ D5+ | Strider"], &[GRUNTS]);
    let c = config(vec![swamp], vec![], vec![Point::new(10.0, 8.0), Point::new(40.0, 8.0)], vec![Point::new(36.0, 44.0)]);
    let mut cache = Cache::default();
    let g = placed(&p, &c, &mut cache);
    let path = g.plan_move((0, 0), Point::new(10.0, 40.0), 12.0).unwrap();
    assert!(path.difficult && path.length <= DIFFICULT_MOVE + 1e-9);
    let path = g.plan_move((0, 1), Point::new(40.0, 40.0), 12.0).unwrap();
    assert!(!path.difficult && (path.length - 12.0).abs() < 1e-9, "Strider: \"May ignore the effects of difficult terrain\"");
}

const HERO: &str = "Hero [1] Q4+ D4+\nSword (A3)";
const MOB: &str = "Mob [20] Q6+ D6+\n20x Club (A1)";

fn building(x0: f64, y0: f64, x1: f64, y1: f64) -> Piece {
    Piece::new("building", x0, y0, x1, y1, Kinds { blocking: true, impassable: true, ..Kinds::default() }).unwrap()
}

/// Checks `id`'s path point by point (every 0.05"): on the table, off impassable terrain,
/// through no other unit and, unless charging (`target`), 1" from them (from units it did
/// not start within 1" of); its length the sum of its legs.
fn assert_legal(g: &Game, id: Id, path: &Path, target: Option<Id>) {
    let (from, r) = (g.live(id).pos, g.radius(id));
    let mut total = 0.0;
    for (a, b) in path.legs(from) {
        let leg = a.distance(b);
        total += leg;
        let n = ((leg / 0.05).ceil() as usize).max(1);
        for k in 0..=n {
            let p = a.towards(b, leg * k as f64 / n as f64);
            assert!(p.x >= r - 1e-6 && p.x <= WIDTH - r + 1e-6 && p.y >= r - 1e-6 && p.y <= DEPTH - r + 1e-6, "off the table at {p:?}");
            for t in g.terrain.iter().filter(|t| t.kinds.impassable) {
                // the disc clear of it, or (the step into base contact) every model
                let clear = t.distance_to(p) >= r - 1e-6 || g.models_at(id, p).all(|(_, q, rq)| t.distance_to(q) >= rq - 1e-6);
                assert!(clear, "{id:?} through {:?} at {p:?}: {path:?}", t.name);
            }
            for army in 0..2 {
                for o in g.on_table(army).filter(|&o| o != id) {
                    if Some(o) == target {
                        // the step into base contact brings the discs over each other: no
                        // model on one of the target's
                        let overlap = g.models_at(id, p).flat_map(|(_, q, rq)| g.models(o).map(move |(_, m, rm)| q.distance(m) - rq - rm)).fold(f64::INFINITY, f64::min);
                        assert!(overlap >= -1e-6, "{id:?} on a model of its target at {p:?}: {path:?}");
                        continue;
                    }
                    let (at, touching) = (g.live(o).pos, r + g.radius(o));
                    let gap = if target.is_none() && from.distance(at) >= touching + UNIT_GAP - 1e-6 { UNIT_GAP } else { 0.0 };
                    // the discs apart, or (the step into base contact) the models
                    let models = || g.models_at(id, p).flat_map(|(_, q, rq)| g.models(o).map(move |(_, m, rm)| q.distance(m) - rq - rm)).fold(f64::INFINITY, f64::min);
                    assert!(p.distance(at) >= touching + gap - 1e-6 || models() >= gap - 1e-6, "{id:?} within {:.3}\" of {o:?} at {p:?}: {path:?}", p.distance(at) - touching);
                }
            }
        }
    }
    assert!((total - path.length).abs() < 1e-6, "length {} for legs of {total}", path.length);
}

#[test]
fn a_unit_between_buildings_finds_the_way_round() {
    // "Units may not move through impassable terrain": a unit in a pocket between three
    // buildings, open behind it, walks out and round them to its goal.
    let pocket = vec![building(20.0, 10.0, 24.0, 34.0), building(36.0, 10.0, 40.0, 34.0), building(20.0, 30.0, 40.0, 34.0)];
    let p = prep(&[GRUNTS], &[GRUNTS]);
    let c = config(pocket, vec![], vec![Point::new(30.0, 25.0)], vec![Point::new(66.0, 44.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let goal = Point::new(30.0, 42.0);
    let mut moves = 0;
    while g.live((0, 0)).pos.distance(goal) > 0.01 {
        let path = g.plan_move((0, 0), goal, 12.0).expect("a way out");
        assert_legal(&g, (0, 0), &path, None);
        let left = g.live((0, 0)).pos.distance(goal);
        assert!(path.length > 12.0 - 1e-9 || (path.to.distance(goal) < 0.01 && path.length <= 12.0 + 1e-9), "a move of {} with {left}\" to go", path.length);
        g.live_mut((0, 0)).pos = path.to;
        moves += 1;
        assert!(moves <= 6, "still {left}\" away");
    }
    // out of the pocket (about 16"), round a building's corner (about 30") and up (about 13")
    assert!((4..=6).contains(&moves), "{moves} moves");
}

#[test]
fn a_detour_beats_a_minefield_when_it_is_cheap() {
    // "If a model moves in or through dangerous terrain ... must take a dangerous terrain
    // test": a small minefield in the way is gone round (the detour costs less than
    // `DANGEROUS_DETOUR`); one across the table is crossed.
    let mines = |x0, x1| Piece::new("minefield", x0, 18.0, x1, 21.0, Kinds { dangerous: true, ..Kinds::default() }).unwrap();
    let p = prep(&[GRUNTS], &[GRUNTS]);
    for (field, round) in [(mines(29.0, 31.0), true), (mines(0.0, 72.0), false)] {
        let c = config(vec![field], vec![], vec![Point::new(30.0, 10.0)], vec![Point::new(66.0, 44.0)]);
        let mut cache = Cache::default();
        let g = placed(&p, &c, &mut cache);
        let path = g.plan_move((0, 0), Point::new(30.0, 40.0), 12.0).unwrap();
        assert_legal(&g, (0, 0), &path, None);
        assert_eq!(path.dangerous, !round, "{path:?}");
        assert!((path.length - 12.0).abs() < 1e-9);
        if round {
            assert!(!path.via.is_empty(), "round the minefield: {path:?}");
        }
    }
}

#[test]
fn difficult_terrain_is_gone_round_when_that_goes_further() {
    // "If any model in a unit moves in or through difficult terrain at any point of its
    // move, then all models in the unit may not move more than 6"": with 12" to go, going
    // round a small forest beats crossing it; with 6", crossing costs nothing.
    let forest = Piece::new("forest", 28.0, 14.0, 32.0, 18.0, Kinds { difficult: true, cover: true, blocking: true, ..Kinds::default() }).unwrap();
    let p = prep(&[GRUNTS], &[GRUNTS]);
    let c = config(vec![forest], vec![], vec![Point::new(30.0, 8.0)], vec![Point::new(66.0, 44.0)]);
    let mut cache = Cache::default();
    let g = placed(&p, &c, &mut cache);
    let path = g.plan_move((0, 0), Point::new(30.0, 40.0), 12.0).unwrap();
    assert_legal(&g, (0, 0), &path, None);
    assert!(!path.difficult && (path.length - 12.0).abs() < 1e-9 && !path.via.is_empty(), "{path:?}");
    let path = g.plan_move((0, 0), Point::new(30.0, 40.0), 6.0).unwrap();
    assert!(path.via.is_empty() && (path.length - 6.0).abs() < 1e-9, "straight on: {path:?}");
}

#[test]
fn charges_go_round_obstacles_into_base_contact() {
    // "Charging models must move by up to 12" to get into base contact with an enemy model
    // from the target unit ... (charge moves don't have to be in a straight line)"; "If at
    // least one model in the unit is within charge distance of one model from the target
    // unit, and has a clear path to reach it, then that enemy is a valid target."
    let p = prep(&[HERO, GRUNTS], &[MOB]);
    let (rh, rm) = (p.armies[0][0].radius, p.armies[1][0].radius);
    let contact = rh + rm;
    // a wall between the hero and the mob
    let wall = building(26.0, 12.0, 34.0, 13.0);
    let at = Point::new(30.0, 14.0 + rm);
    let c = config(vec![wall], vec![], vec![Point::new(30.0, 11.5 - rh), Point::new(60.0, 5.0)], vec![at]);
    let mut cache = Cache::default();
    let g = placed(&p, &c, &mut cache);
    let path = g.charge_path((0, 0), (1, 0)).expect("round the wall");
    assert_legal(&g, (0, 0), &path, Some((1, 0)));
    // round the wall until the discs touch, then on into base contact
    assert!(!path.via.is_empty() && path.length <= 12.0 + 1e-9 && path.to.distance(at) <= contact + 1e-6, "{path:?}");
    assert!(g.closest_pair_at((0, 0), path.to, (1, 0)).0 <= 1e-6, "{path:?}");
    // a friendly unit in the straight line: "may never move through other models or units"
    let c = config(vec![], vec![], vec![Point::new(30.0, 20.0 - contact - 6.0), Point::new(30.0, 20.0 - rm - 3.0)], vec![Point::new(30.0, 20.0)]);
    let g = placed(&p, &c, &mut cache);
    let path = g.charge_path((0, 0), (1, 0)).expect("round the friend");
    assert_legal(&g, (0, 0), &path, Some((1, 0)));
    assert!(!path.via.is_empty() && g.closest_pair_at((0, 0), path.to, (1, 0)).0 <= 1e-6, "{path:?}");
}

#[test]
fn paths_never_cross_impassable_terrain_or_other_units() {
    // "Units may not move through impassable terrain"; "may never move through other models
    // or units"; "Models may never be within 1" of models from other units, unless they are
    // taking a Charge action". Standard tables, units scattered over them, moves towards
    // random points and charges at every enemy in reach.
    let p = prep(&[GRUNTS, HERO, MOB, GRUNTS, HERO, "Striders [5] Q5+ D5+ | Strider"], &[MOB, GRUNTS, HERO, GRUNTS, MOB, HERO]);
    let (mut moves, mut full, mut charges) = (0, 0, 0);
    for seed in 0..30 {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut cache, c) = (Cache::default(), scattered(&p, &mut rng));
        let g = placed(&p, &c, &mut cache);
        for army in 0..2 {
            for u in 0..6 {
                let id = (army, u);
                for _ in 0..5 {
                    let goal = Point::new(rng.random_range(0.0..WIDTH), rng.random_range(0.0..DEPTH));
                    let allowance = if rng.random_bool(0.5) { 6.0 } else { 12.0 };
                    let Some(path) = g.plan_move(id, goal, allowance) else { continue };
                    assert_legal(&g, id, &path, None);
                    assert!(path.length <= if path.difficult { DIFFICULT_MOVE } else { allowance } + 1e-9);
                    assert!(g.spot_ok(id, path.to, false));
                    assert_eq!(g.terrain_on_legs(id, g.live(id).pos, &path.via, path.to), (path.difficult, path.dangerous));
                    moves += 1;
                    full += usize::from(path.length > 0.5 * allowance);
                }
                for e in 0..6 {
                    if let Some(path) = g.charge_path(id, (1 - army, e)) {
                        assert_legal(&g, id, &path, Some((1 - army, e)));
                        assert!(path.length <= if path.difficult { DIFFICULT_MOVE } else { 12.0 } + 1e-9 && g.spot_ok(id, path.to, true));
                        assert!(path.to.distance(g.live((1 - army, e)).pos) <= g.radius(id) + g.radius((1 - army, e)) + 1e-6);
                        charges += 1;
                    }
                }
            }
        }
    }
    eprintln!("{moves} moves ({full} over half their allowance), {charges} charges checked");
    assert!(moves > 1000 && charges > 20);
}

#[test]
fn spots_tested_in_a_crowd_are_tested_as_one_by_one() {
    // `crowd` finds the models of many units once; every spot `spot_ok_in_crowd` then allows
    // or refuses, `spot_ok` does too, charging or not
    let p = prep(&[GRUNTS, HERO, MOB, GRUNTS, HERO, "Striders [5] Q5+ D5+ | Strider"], &[MOB, GRUNTS, HERO, GRUNTS, MOB, HERO]);
    let (mut checked, mut refused) = (0, 0);
    for seed in 0..6 {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut cache, c) = (Cache::default(), scattered(&p, &mut rng));
        let g = placed(&p, &c, &mut cache);
        for id in [(0, 0), (0, 2), (1, 0), (1, 5)] {
            let crowd = g.crowd(id);
            for k in 0..4_000 {
                let p = Point::new(rng.random_range(0.0..WIDTH), rng.random_range(0.0..DEPTH));
                // half the spots near another unit, where the models decide
                let p = if k % 2 == 0 { p } else { let o = g.live(((k / 2) % 2, (k / 4) % 6)).pos; Point::new(o.x + (p.x / WIDTH - 0.5) * 12.0, o.y + (p.y / DEPTH - 0.5) * 12.0) };
                for charging in [false, true] {
                    let one_by_one = g.spot_ok(id, p, charging);
                    assert_eq!(g.spot_ok_in_crowd(id, p, charging, &crowd), one_by_one, "{id:?} at {p:?}, charging {charging}");
                    checked += 1;
                    refused += usize::from(!one_by_one);
                }
            }
        }
    }
    assert!(refused > checked / 10 && refused < checked * 9 / 10, "{refused} of {checked}");
}

#[test]
fn the_deployment_grid_finds_the_spot_a_cell_by_cell_scan_finds() {
    // `any_spot` passes over runs of a row where the same two models clash; it must find
    // the spot the plain scan (every cell, `spot_ok`) finds, on crowded tables: the whole
    // table as the zone (every unit in the way) and a 12" zone
    let many = [GRUNTS, HERO, MOB, GRUNTS, HERO, MOB, GRUNTS, MOB, "Striders [5] Q5+ D5+ | Strider", MOB];
    let p = prep(&many, &many);
    let cell_by_cell = |g: &Game, id: Id, depth: f64| -> Option<Point> {
        const STEP: f64 = 0.5;
        let edge = g.from_edge(id.0, 0.0, 0.0).y;
        let pos = g.live(id).pos;
        let (back, front) = g.models(id).fold((f64::INFINITY, f64::NEG_INFINITY), |(b, f), (_, q, rq)| {
            let y = (q.y - pos.y) * if edge == 0.0 { 1.0 } else { -1.0 };
            (b.min(y - rq), f.max(y + rq))
        });
        let mut fallback = None;
        for row in (0..=(depth / STEP).floor() as usize).rev() {
            let y = row as f64 * STEP;
            if y + back < -1e-6 || y + front > depth + 1e-6 {
                continue;
            }
            for col in 0..=(WIDTH / STEP).floor() as usize {
                let q = g.from_edge(id.0, col as f64 * STEP, y);
                if g.spot_ok(id, q, false) {
                    if g.models_in_dangerous_at(id, q) == 0 {
                        return Some(q);
                    }
                    fallback = fallback.or(Some(q));
                }
            }
        }
        fallback
    };
    let (mut found, mut none) = (0, 0);
    for seed in 0..8 {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut cache, c) = (Cache::default(), scattered(&p, &mut rng));
        let g = placed(&p, &c, &mut cache);
        for army in 0..2 {
            for u in 0..many.len() {
                for depth in [DEPTH, 12.0] {
                    let id = (army, u);
                    let expected = cell_by_cell(&g, id, depth);
                    assert_eq!(g.any_spot(id, depth), expected, "{id:?}, seed {seed}, depth {depth}");
                    if expected.is_some() { found += 1 } else { none += 1 }
                }
            }
        }
    }
    assert!(found > 100, "{found} found, {none} none");
}

/// A standard table (from `rng`) with the armies of `p` at random spots where they may stand.
fn scattered(p: &Prepared, rng: &mut rand_xoshiro::Xoshiro256PlusPlus) -> Config {
    let terrain = table::standard_terrain(rng, GameRules::V3_5.table);
    let mut spots: [Vec<Point>; 2] = [Vec::new(), Vec::new()];
    let mut placed: Vec<(Point, f64)> = Vec::new();
    for army in 0..2 {
        for info in &p.armies[army] {
            let r = info.radius;
            for _ in 0..10_000 {
                let q = Point::new(rng.random_range(r..WIDTH - r), rng.random_range(r..DEPTH - r));
                if terrain.iter().all(|t| !t.kinds.impassable || t.distance_to(q) >= r) && placed.iter().all(|(o, ro)| o.distance(q) >= r + ro + UNIT_GAP) {
                    spots[army].push(q);
                    placed.push((q, r));
                    break;
                }
            }
        }
    }
    let [a, b] = spots;
    config(terrain, vec![], a, b)
}

/// Time per query of `plan_move` and `charge_path` on scattered standard tables (run with
/// `cargo test --release --lib game::game_tests::path_query_time -- --ignored --nocapture`).
/// Each table's queries run three times and the fastest counts (the machine is shared).
#[test]
#[ignore]
fn path_query_time() {
    let p = prep(&[GRUNTS, HERO, MOB, GRUNTS, HERO, MOB, GRUNTS, HERO, MOB, GRUNTS], &[MOB, GRUNTS, HERO, GRUNTS, MOB, HERO, GRUNTS, HERO, MOB, GRUNTS]);
    let (mut move_time, mut moves, mut charge_time, mut charges, mut clear) = (0.0, 0u64, 0.0, 0u64, 0u64);
    for seed in 0..200 {
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
        let (mut cache, c) = (Cache::default(), scattered(&p, &mut rng));
        let g = placed(&p, &c, &mut cache);
        let goals: Vec<Point> = (0..20).map(|_| Point::new(rng.random_range(0.0..WIDTH), rng.random_range(0.0..DEPTH))).collect();
        let (mut fastest_moves, mut fastest_charges) = (f64::INFINITY, f64::INFINITY);
        for rep in 0..3 {
            let t = Instant::now();
            for army in 0..2 {
                for u in 0..10 {
                    for &goal in &goals {
                        let path = std::hint::black_box(g.find_move((army, u), goal, 12.0));
                        if rep == 0 {
                            moves += 1;
                            clear += u64::from(path.is_some_and(|p| p.via.is_empty()));
                        }
                    }
                }
            }
            fastest_moves = fastest_moves.min(t.elapsed().as_secs_f64());
            let t = Instant::now();
            for army in 0..2 {
                for u in 0..10 {
                    for e in 0..10 {
                        if g.gap((army, u), (1 - army, e)) <= 12.0 {
                            std::hint::black_box(g.find_charge((army, u), (1 - army, e)));
                            charges += u64::from(rep == 0);
                        }
                    }
                }
            }
            fastest_charges = fastest_charges.min(t.elapsed().as_secs_f64());
        }
        move_time += fastest_moves;
        charge_time += fastest_charges;
    }
    eprintln!(
        "plan_move: {:.2} us per query ({moves} towards random points, {:.0}% straight); charge_path: {:.2} us per query ({charges} within reach)",
        move_time / moves as f64 * 1e6,
        clear as f64 / moves as f64 * 100.0,
        charge_time / charges.max(1) as f64 * 1e6
    );
}

/// Time per path query in whole games on standard tables (1 thread, timers on; run with
/// `cargo test --release --lib game::game_tests::path_queries_in_games -- --ignored --nocapture`).
#[test]
#[ignore]
fn path_queries_in_games() {
    let a = [GRUNTS, HERO, MOB, GRUNTS, "Bikes [3] Q4+ D4+ | Fast\nSword (A2)", MOB, GRUNTS, HERO, "Striders [5] Q5+ D5+ | Strider\n5x Rifle (24\", A1)", GRUNTS];
    let p = prep(&a, &a);
    let c = Config { terrain: Terrain::Standard, objectives: None, deployment: None, trace: false, profile: true, ..config(vec![], vec![], vec![], vec![]) };
    let games = 400;
    // (other tests running at the same time add theirs: run this one alone)
    let before = paths::QUERIES.load(std::sync::atomic::Ordering::Relaxed);
    let out = crate::game::simulate(&p, &c, 0, games, Some(1)).unwrap();
    let queries = paths::QUERIES.load(std::sync::atomic::Ordering::Relaxed) - before;
    let t = out.timers;
    eprintln!("inside the queries: {:.2} us each, {:.2} in shortest", paths::NANOS.load(std::sync::atomic::Ordering::Relaxed) as f64 / queries as f64 / 1e3, paths::SHORTEST_NANOS.load(std::sync::atomic::Ordering::Relaxed) as f64 / queries as f64 / 1e3);
    eprintln!(
        "{games} games: {:.0} us per game, movement {:.0}% ({:.0} us per game); {} path queries per game, {:.2} us each (movement time over path queries)",
        t.total / games as f64 * 1e6,
        t.movement / t.total * 100.0,
        t.movement / games as f64 * 1e6,
        queries / games,
        t.movement / queries.max(1) as f64 * 1e6
    );
}

#[test]
fn a_charge_needs_the_target_within_charge_distance() {
    // "Units may only take a Charge action if at least one model is within charge distance
    // of the target unit (including any additional movement from special rules)."
    let p = prep(&["Hero [1] Q4+ D4+\nSword (A3)", "Fast Hero [1] Q4+ D4+ | Fast\nSword (A3)"], &["Target [1] Q4+ D4+"]);
    let r = p.armies[0][0].radius + p.armies[1][0].radius;
    for (gap, plain, fast) in [(11.9, true, true), (12.1, false, true), (16.1, false, false)] {
        let c = config(vec![], vec![], vec![Point::new(10.0, 20.0 - gap - r), Point::new(60.0, 20.0 - gap - r)], vec![Point::new(10.0, 20.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        assert_eq!(g.charge_path((0, 0), (1, 0)).is_some(), plain, "gap {gap}");
        g.live_mut((1, 0)).pos = Point::new(60.0, 20.0);
        assert_eq!(g.charge_path((0, 1), (1, 0)).is_some(), fast, "Fast, gap {gap}");
    }
}

#[test]
fn markers_are_seized_alone_contested_together_and_kept() {
    // "if a unit is within 3" of a marker whilst no enemies are, then it counts as being
    // seized"; "Markers stay under the player's control even if the unit moves away, but if
    // units from both sides contest a marker at the end of a round, then it becomes neutral
    // again"; Shaken units "can't seize or contest objectives".
    let p = prep(&[GRUNTS, GRUNTS], &[GRUNTS]);
    let marker = Point::new(36.0, 24.0);
    let r = p.armies[0][0].radius;
    let c = config(vec![], vec![marker], vec![Point::new(36.0, 24.0 - r - 2.9), Point::new(5.0, 5.0)], vec![Point::new(60.0, 44.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    // "within 3"" is measured from the unit's closest model, not its footprint's edge
    let closest = |g: &Game, id: Id| g.models(id).map(|(_, q, r)| q.distance(marker) - r).fold(f64::INFINITY, f64::min);
    let put = |g: &mut Game, id: Id, side: f64, inches: f64| {
        g.live_mut(id).pos = Point::new(36.0, 24.0 + side * (r + inches));
        for _ in 0..5 {
            let off = closest(g, id) - inches;
            g.live_mut(id).pos.y -= side * off;
        }
        assert!((closest(g, id) - inches).abs() < 1e-6);
    };
    put(&mut g, (0, 0), -1.0, 2.9);
    g.score_round();
    assert_eq!(g.owner, [0], "seized within 3\"");
    put(&mut g, (1, 0), 1.0, 2.9);
    g.score_round();
    assert_eq!(g.owner, [-1], "contested: neutral again");
    g.live_mut((1, 0)).shaken = true;
    g.score_round();
    assert_eq!(g.owner, [0], "a Shaken unit can't contest");
    put(&mut g, (0, 0), -1.0, 3.1);
    g.live_mut((1, 0)).pos = Point::new(60.0, 44.0);
    g.score_round();
    assert_eq!(g.owner, [0], "kept when the unit moves away");
    assert_eq!(g.live((0, 0)).holding, 2, "rounds ending with the unit holding the marker");
}

#[test]
fn shaken_units_stay_idle_and_recover() {
    // "When activated, Shaken units must spend their activation being idle ..., which stops
    // them being Shaken at the end of the activation."
    let p = prep(&[GRUNTS], &[GRUNTS]);
    let c = config(vec![], vec![], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 30.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    g.live_mut((0, 0)).shaken = true;
    g.activate((0, 0));
    let e = g.trace.as_ref().unwrap().last().unwrap().clone();
    assert_eq!((e.kind, e.from, e.to), ("idle", Point::new(36.0, 10.0), Point::new(36.0, 10.0)));
    assert!(!g.live((0, 0)).shaken && g.live((1, 0)).taken == 0, "no shot, no longer Shaken");
}

#[test]
fn the_player_who_finished_first_starts_the_next_round() {
    // "On each new round the player that finished activating first on the last round gets
    // to activate first."
    let p = prep(&[GRUNTS, GRUNTS], &[GRUNTS]);
    let c = config(vec![], vec![], vec![Point::new(10.0, 5.0), Point::new(60.0, 5.0)], vec![Point::new(36.0, 44.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    // A, B, A: army B ran out of units first
    assert_eq!(g.play_round(0), 1);
    let order: Vec<i8> = g.trace.as_ref().unwrap().iter().filter(|e| ["hold", "advance", "rush", "charge", "idle"].contains(&e.kind)).map(|e| e.army).collect();
    assert_eq!(order, [0, 1, 0]);
    // B, A, A: B also ran out first, so it starts again
    g.round = 2;
    assert_eq!(g.play_round(1), 1);
}

#[test]
fn players_alternate_placing_units_until_both_are_done() {
    // "Then the players continue alternating in placing one unit each, until all units have been deployed."
    let lists = |a: &[usize], b: &[usize]| [Short::from_slice(a), Short::from_slice(b)];
    assert_eq!(alternating(1, &lists(&[0, 1, 2], &[5]))[..], [(1, 5), (0, 0), (0, 1), (0, 2)]);
    assert_eq!(alternating(0, &lists(&[], &[3, 4]))[..], [(1, 3), (1, 4)]);
}

#[test]
fn army_move_rules_add_to_every_move_through_their_effects() {
    // Lustbound "Moves +1" when using Advance, and +3" when using Rush/Charge"; Highborn
    // +2"/+2" and its Boost as much again; Darkborn "+3" when using Charge actions"; the
    // unit moves as its slowest model: Slow when any model has it, Lustbound when all do
    let parse = |t: &str| Unit::parse(t, Edition::V3_5).unwrap();
    let mixed = parse("Troopers [5] Q4+ D4+").join(&parse("Champion [1] Q4+ D4+ | Hero, Lustbound"), Edition::V3_5).unwrap();
    let a = [
        parse("Daemons [5] Q4+ D4+ | Lustbound"),
        parse("Elves [5] Q4+ D4+ | Highborn, Highborn Boost"),
        parse("Shades [5] Q4+ D4+ | Darkborn"),
        mixed,
        parse("Slowed [3] Q4+ D4+ | Lustbound, Slow"),
    ];
    let p = Prepared::new([&a, &[parse(GRUNTS)]], Edition::V3_5, [2.0, 2.0]).unwrap();
    let speeds: Vec<(f64, f64, f64)> = p.armies[0].iter().map(|u| (u.movement.advance, u.movement.rush, u.movement.charge)).collect();
    assert_eq!(speeds, [(7.0, 15.0, 15.0), (10.0, 16.0, 16.0), (6.0, 12.0, 15.0), (6.0, 12.0, 12.0), (5.0, 11.0, 11.0)]);
}

#[test]
fn melee_shrouding_takes_three_inches_from_charges() {
    // "Enemies get -3" movement when trying to charge units where all models have this rule."
    let p = prep(&["Hero [1] Q4+ D4+\nSword (A3)"], &["Shrouded [1] Q4+ D4+ | Melee Shrouding", "Plain [1] Q4+ D4+"]);
    let r = p.armies[0][0].radius + p.armies[1][0].radius;
    for (gap, plain, shrouded) in [(8.9, true, true), (9.1, true, false), (11.9, true, false), (12.1, false, false)] {
        let c = config(vec![], vec![], vec![Point::new(20.0, 20.0 - gap - r)], vec![Point::new(20.0, 20.0), Point::new(60.0, 20.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        assert_eq!(g.charge_reach((0, 0), (1, 0)), 9.0);
        assert_eq!(g.charge_path((0, 0), (1, 0)).is_some(), shrouded, "shrouded, gap {gap}");
        g.live_mut((0, 0)).pos = Point::new(60.0, 20.0 - gap - r);
        assert_eq!(g.charge_path((0, 0), (1, 1)).is_some(), plain, "plain, gap {gap}");
    }
}

#[test]
fn battleborn_units_shaken_at_the_start_of_a_round_recover_on_four_up() {
    // "If a unit where all models have this rule is Shaken at the beginning of the round,
    // roll one die. On a 4+, it stops being Shaken."
    let p = prep(&["Brothers [5] Q4+ D4+ | Battleborn", GRUNTS], &[GRUNTS]);
    let c = config(vec![], vec![], vec![Point::new(10.0, 5.0), Point::new(60.0, 5.0)], vec![Point::new(36.0, 44.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let (mut recovered, n) = (0, 4000);
    for _ in 0..n {
        g.live_mut((0, 0)).shaken = true;
        g.live_mut((0, 1)).shaken = true;
        g.recover();
        recovered += u32::from(!g.live((0, 0)).shaken);
        assert!(g.live((0, 1)).shaken, "no rule, no roll");
    }
    // 3 of 6 faces: 2000 expected, sd 31.6; 5 sd either way
    assert!((1842..=2158).contains(&recovered), "{recovered} of {n}");
}

#[test]
fn extra_activations_are_limited_to_half_the_units_with_the_rule() {
    // "Only up to half of the units in the army with this rule at the beginning of the game
    // (rounding up) may use it in a single round."
    let agent = "Agents [3] Q4+ D4+ | Inquisitorial Agent\n3x Pistol (12\", A1)";
    let p = prep(&[agent, agent, agent, GRUNTS], &[agent, GRUNTS]);
    let c = config(vec![], vec![], (0..4).map(|i| Point::new(10.0 + 15.0 * f64::from(i), 5.0)).collect(), vec![Point::new(20.0, 44.0), Point::new(50.0, 44.0)]);
    let mut cache = Cache::default();
    let g = placed(&p, &c, &mut cache);
    assert_eq!(g.extra_limit, [2, 1]);
}

#[test]
fn seeded_games_do_not_depend_on_threads_or_batches() {
    let p = prep(&[GRUNTS, "Brutes [3] Q4+ D4+ | Tough(3), Furious\n3x Claws (A3, AP(1))"], &[GRUNTS, GRUNTS]);
    let mut c = config(vec![], vec![], vec![], vec![]);
    (c.terrain, c.objectives, c.deployment, c.first, c.trace) = (Terrain::Standard, None, None, None, false);
    let one = crate::game::simulate(&p, &c, 0, 100, Some(1)).unwrap();
    let two = crate::game::simulate(&p, &c, 0, 100, Some(2)).unwrap();
    let split = [crate::game::simulate(&p, &c, 0, 37, Some(2)).unwrap(), crate::game::simulate(&p, &c, 37, 63, Some(2)).unwrap()];
    assert_eq!(one.records, two.records);
    assert_eq!(one.units, two.units);
    let joined: Vec<_> = split.iter().flat_map(|o| o.records.clone()).collect();
    assert_eq!(one.records, joined);
    let mut units = [UnitTotals::new(2), UnitTotals::new(2)];
    for part in &split {
        for a in 0..2 {
            units[a].merge(&part.units[a]);
        }
    }
    assert_eq!(one.units, units);
    assert_eq!(one.violations, 0);
}

#[test]
fn an_editions_numbers_and_switches_are_read_from_its_game_rules() {
    // the engine reads every number and switch from `GameRules`: the same table played under
    // other values (a v3.4.1- or v2.x-like reading: Shaken units contest but don't seize, a
    // wider seizing range, a wider gap between units) plays by them
    use crate::game::rules::{Markers, Moves, Presence};
    let p = prep(&[GRUNTS], &[GRUNTS]);
    let mut q = p.clone();
    q.rules = Box::leak(Box::new(GameRules {
        markers: Markers { range: 5.0, ..GameRules::V3_5.markers },
        contest: Presence { shaken: true, ..GameRules::V3_5.contest },
        moves: Moves { unit_gap: 2.0, ..GameRules::V3_5.moves },
        ..GameRules::V3_5
    }));
    let marker = Point::new(36.0, 24.0);
    let c = config(vec![], vec![marker], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 40.0)]);
    let owners = |p: &Prepared, ours: f64, shaken_enemy: Option<f64>| {
        let mut cache = Cache::default();
        let mut g = placed(p, &c, &mut cache);
        let r = g.radius((0, 0));
        g.live_mut((0, 0)).pos = Point::new(36.0, 24.0 - r - ours);
        if let Some(inches) = shaken_enemy {
            g.live_mut((1, 0)).pos = Point::new(36.0, 24.0 + r + inches);
            g.live_mut((1, 0)).shaken = true;
        }
        g.score_round();
        g.owner[0]
    };
    // "within 3"": a unit 4" away seizes only where the range is 5"
    assert_eq!(owners(&p, 4.0, None), -1);
    assert_eq!(owners(&q, 4.0, None), 0);
    // a Shaken enemy 1" away: v3.5's "can't seize or contest"; contesting where the rules say so
    assert_eq!(owners(&p, 1.0, Some(1.0)), 0);
    assert_eq!(owners(&q, 1.0, Some(1.0)), -1);
    // "Models may never be within 1" of models from other units": 1.5" apart is a legal spot
    // only where the gap is 1"
    let spot = |p: &Prepared| {
        let mut cache = Cache::default();
        let g = placed(p, &c, &mut cache);
        let (ra, rb) = (g.radius((0, 0)), g.radius((1, 0)));
        let at = g.live((1, 0)).pos;
        // straight below the enemy's disc, its closest models 1.5" away
        let mut y = at.y - ra - rb - 1.5;
        for _ in 0..8 {
            let gap = g.closest_pair_at((0, 0), Point::new(at.x, y), (1, 0)).0;
            y -= 1.5 - gap;
        }
        g.spot_ok((0, 0), Point::new(at.x, y), false)
    };
    assert!(spot(&p));
    assert!(!spot(&q));
}

#[test]
fn a_unit_beside_a_building_goes_round_it() {
    // "Units may not move through impassable terrain": a line of five models stands just
    // short of a long building, its disc (wider than the gap) reaching into it; its move
    // towards a goal behind the building goes round it, not through it.
    let p = prep(&["Squad [5] Q4+ D4+\n5x Rifle (24\", A1)"], &[GRUNTS]);
    let long_building = building(20.0, 20.0, 50.0, 24.0);
    let c = config(vec![long_building.clone()], vec![], vec![Point::new(35.0, 18.0)], vec![Point::new(66.0, 44.0)]);
    let mut cache = Cache::default();
    let g = placed(&p, &c, &mut cache);
    let (from, r) = (g.live((0, 0)).pos, g.radius((0, 0)));
    assert!(long_building.distance_to(from) < r, "the disc reaches into the building (r {r})");
    assert!(g.models((0, 0)).all(|(_, q, rq)| long_building.distance_to(q) >= rq), "its models stand clear of it");
    let path = g.plan_move((0, 0), Point::new(35.0, 36.0), 12.0).expect("a move round the building");
    for (a, b) in path.legs(from) {
        assert!(!long_building.crossed(a, b, 0.0), "through the building from {a:?} to {b:?}: {path:?}");
    }
    assert!(!path.via.is_empty() || path.to.y < 20.0, "round it: {path:?}");
}

#[test]
fn a_run_whose_deployment_finds_no_room_is_refused_not_scored() {
    // terrain over both deployment zones: no unit can be placed "fully within 12" of their
    // table edge"; the run is refused (naming the first such game and unit) rather than
    // scored as if the units had died
    let p = prep(&[GRUNTS], &[GRUNTS]);
    let mut c = config(vec![building(0.0, 0.0, 72.0, 13.0), building(0.0, 35.0, 72.0, 48.0)], vec![], vec![], vec![]);
    c.deployment = None;
    c.trace = false;
    let e = super::simulate(&p, &c, 0, 40, Some(2)).expect_err("no room to deploy");
    let text = e.to_string();
    assert!(text.contains("terrain") && text.contains("game 0") && text.contains("no room to deploy"), "{text}");
    // the same terrain beside the zones plays
    let mut ok = config(vec![building(0.0, 20.0, 10.0, 28.0)], vec![], vec![], vec![]);
    ok.deployment = None;
    ok.trace = false;
    assert_eq!(super::simulate(&p, &ok, 0, 4, Some(1)).unwrap().records.len(), 4);
}
