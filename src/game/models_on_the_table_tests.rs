//! The rules that measure and look model by model, each quoting the guide.

use super::test_support::Game;
use super::live::Id;
use super::paths::Path;
use super::{Config, Terrain};
use super::rules::*;
use super::table::*;
use crate::attack::allocation::State;
use super::cache::*;
use super::table::Kinds;
use super::test_support::{placed, prep};

const DEPLOY_DEPTH: f64 = GameRules::V3_5.deployment.depth;
const UNIT_GAP: f64 = GameRules::V3_5.moves.unit_gap;
const CONSOLIDATION_BACK: f64 = GameRules::V3_5.moves.move_back;

fn config(terrain: Vec<Piece>, a: Vec<Point>, b: Vec<Point>) -> Config {
    Config { trace: false, ..crate::game::test_support::config(terrain, vec![], a, b) }
}

const RIFLES: &str = "Rifles [10] Q4+ D5+\n10x Rifle (24\", A1)";
const TARGET: &str = "Target [5] Q4+ D4+";
const TARGET_ONE: &str = "Lone [1] Q4+ D4+";

/// Moves `id` along `y` until its closest model is `inches` from `other`'s closest model.
fn put_at(g: &mut Game, id: Id, other: Id, inches: f64) {
    for _ in 0..20 {
        let off = g.gap(id, other) - inches;
        let side = if g.live(other).pos.y > g.live(id).pos.y { 1.0 } else { -1.0 };
        g.live_mut(id).pos.y += side * off;
    }
    assert!((g.gap(id, other) - inches).abs() < 1e-6);
}

#[test]
fn distances_are_measured_between_the_closest_models() {
    // "When measuring the distance between two units you always measure from/to the closest
    // model in each unit."
    let p = prep(&[RIFLES], &[TARGET]);
    let c = config(vec![], vec![Point::new(20.0, 10.0)], vec![Point::new(31.0, 30.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    for (dx, dy) in [(0.0, 0.0), (3.0, -4.0), (-9.0, 2.0), (14.0, 7.0)] {
        g.live_mut((1, 0)).pos = Point::new(31.0 + dx, 30.0 + dy);
        let brute = g.models((0, 0)).flat_map(|(_, a, ra)| g.models((1, 0)).map(move |(_, b, rb)| a.distance(b) - ra - rb).collect::<Vec<_>>()).fold(f64::INFINITY, f64::min);
        assert!((g.gap((0, 0), (1, 0)) - brute.max(0.0)).abs() < 1e-9);
        // the discs' gap is never more than the models' (the disc holds every model)
        assert!(g.live((0, 0)).pos.distance(g.live((1, 0)).pos) - g.radius((0, 0)) - g.radius((1, 0)) <= brute + 1e-9);
    }
}

#[test]
fn only_the_models_in_range_fire() {
    // "All models in a unit with line of sight to the target, and that have a weapon that is
    // within range of it, may fire at it."
    let p = prep(&[RIFLES], &[TARGET]);
    let c = config(vec![], vec![Point::new(36.0, 6.0)], vec![Point::new(36.0, 40.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let firing = |g: &mut Game| {
        let sight = g.sight((0, 0), (1, 0));
        g.shot_key((0, 0), (1, 0), sight, false).map_or(0, |k| g.plan(&k).firing.iter().map(|f| f.2).sum::<u32>())
    };
    put_at(&mut g, (0, 0), (1, 0), 12.0);
    assert_eq!(firing(&mut g), 10, "all in range at 12\"");
    // the closest models at 23.5": the models of the back ranks are over 24" away
    put_at(&mut g, (0, 0), (1, 0), 23.5);
    let brute = g.models((0, 0)).filter(|&(_, a, ra)| g.models((1, 0)).any(|(_, b, rb)| (a.distance(b) - ra - rb).ceil() <= 24.0)).count() as u32;
    assert!(brute > 0 && brute < 10, "{brute}");
    assert_eq!(firing(&mut g), brute);
    put_at(&mut g, (0, 0), (1, 0), 24.5);
    assert_eq!(firing(&mut g), 0, "out of range");
}

#[test]
fn only_the_models_that_see_the_target_fire() {
    // "If at least one model in the unit has line of sight to an enemy model ... then that enemy
    // is a valid target"; "Models can't see through solid obstacles"
    let wall = Kinds { blocking: true, impassable: true, ..Kinds::default() };
    // a building hides the target from the left half of the shooting unit
    let p = prep(&[RIFLES], &[TARGET]);
    let c = config(vec![Piece::new("building", 20.0, 18.0, 35.5, 22.0, wall).unwrap()], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 30.0)]);
    let mut cache = Cache::default();
    let g = placed(&p, &c, &mut cache);
    let sight = g.sight((0, 0), (1, 0));
    assert!(sight.visible);
    let seeing = g.cache.seen.borrow().models.iter().filter(|s| s.1.is_finite()).count();
    let key = g.shot_key((0, 0), (1, 0), sight, false).expect("some models see it");
    let firing: u32 = g.plan(&key).firing.iter().map(|f| f.2).sum();
    assert!(seeing > 0 && seeing < 10 && firing as usize == seeing, "{seeing} see, {firing} fire");
}

#[test]
fn cover_needs_most_of_the_models_inside_or_behind() {
    // "If the majority of models in a unit are fully inside a piece of cover terrain or behind
    // a sight blocker ..., they get +1 to Defense rolls when blocking hits from shooting attacks."
    let field = Kinds { cover: true, difficult: true, ..Kinds::default() };
    let p = prep(&[RIFLES], &[TARGET]);
    for (x1, covered) in [(60.0, true), (36.0, true), (35.0, false)] {
        // a field over the target: all of it, three of its five models, or one
        let c = config(vec![Piece::new("field", 20.0, 28.0, x1, 34.0, field).unwrap()], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 31.0)]);
        let mut cache = Cache::default();
        let g = placed(&p, &c, &mut cache);
        let inside = g.models((1, 0)).filter(|&(_, q, _)| q.x <= x1 && q.y >= 28.0 && q.y <= 34.0).count();
        let sight = g.sight((0, 0), (1, 0));
        assert_eq!(sight.cover, 2 * inside > 5, "{inside} of 5 inside");
        assert_eq!(sight.cover, covered);
    }
}

#[test]
fn markers_are_held_from_the_closest_model() {
    // "if a unit is within 3" of a marker whilst no enemies are, then it counts as being seized";
    // a unit of one model left seizes from its own base, not from its full unit's footprint
    let p = prep(&[RIFLES], &[TARGET]);
    let mut c = config(vec![], vec![Point::new(36.0, 6.0)], vec![Point::new(60.0, 44.0)]);
    c.objectives = Some(vec![Point::new(36.0, 24.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let full = g.radius((0, 0));
    let one_left = g.info((0, 0)).alloc.apply(State::default(), 9, 1);
    g.set_state((0, 0), one_left);
    assert!(g.radius((0, 0)) < full / 2.0, "the disc shrinks to the models left");
    let last = g.models((0, 0)).next().unwrap();
    // the last model 3.5" from the marker: not seized, though the full disc would reach it
    let shift = Point::new(36.0 - last.1.x, 24.0 - 3.5 - last.2 - last.1.y);
    let pos = g.live((0, 0)).pos;
    g.live_mut((0, 0)).pos = Point::new(pos.x + shift.x, pos.y + shift.y);
    g.score_round();
    assert_eq!(g.owner, [-1]);
    let pos = g.live((0, 0)).pos;
    g.live_mut((0, 0)).pos = Point::new(pos.x, pos.y + 1.0);
    g.score_round();
    assert_eq!(g.owner, [0]);
}

#[test]
fn dangerous_terrain_tests_the_models_that_cross_it() {
    // "If a model moves in or through dangerous terrain, or is activated in it, then it must
    // take a dangerous terrain test."
    let mines = Kinds { dangerous: true, ..Kinds::default() };
    let p = prep(&[RIFLES], &[TARGET]);
    // a narrow minefield across the path of the unit's right-hand models only
    let c = config(vec![Piece::new("minefield", 36.7, 14.0, 50.0, 15.0, mines).unwrap()], vec![Point::new(36.0, 8.0)], vec![Point::new(36.0, 44.0)]);
    let mut cache = Cache::default();
    let g = placed(&p, &c, &mut cache);
    let from = g.live((0, 0)).pos;
    let path = Path { dangerous: true, ..Path::straight(Point::new(from.x, from.y + 10.0), 10.0) };
    let mask = g.models_through_dangerous((0, 0), from, &path);
    let crossing: Vec<usize> = g.models((0, 0)).filter(|&(_, q, r)| q.x + r > 36.7).map(|(i, _, _)| i).collect();
    assert!(!crossing.is_empty() && crossing.len() < 10);
    assert_eq!(mask.count_ones() as usize, crossing.len());
    assert!(crossing.iter().all(|i| mask & (1 << i) != 0));
}

#[test]
fn a_crowded_army_still_deploys_every_unit() {
    // "places one unit fully within 12" of their table edge": when the policy's samples find
    // no room, any legal spot in the zone is taken; a unit is lost only when none is left
    let army: Vec<&str> = vec![RIFLES; 16];
    let p = prep(&army, &[TARGET]);
    let mut c = config(vec![], vec![], vec![]);
    c.deployment = None;
    let mut cache = Cache::default();
    let g = placed(&p, &c, &mut cache);
    let edge = g.from_edge(0, 0.0, 0.0).y;
    for u in 0..16 {
        assert!(!g.live((0, u)).gone, "unit {u} was not deployed");
        for (_, q, r) in g.models((0, u)) {
            assert!((q.y - edge).abs() + r <= DEPLOY_DEPTH + 1e-6 && (q.y - edge).abs() >= r - 1e-6, "unit {u} outside the zone");
        }
    }
}

#[test]
fn a_duels_line_up_is_checked_before_any_game() {
    // the Rust API gets the same checks as Python: a finite distance the table holds, one
    // unit a side, fixed terrain, formations on the table
    let one = prep(&[RIFLES], &[TARGET]);
    let two = prep(&[RIFLES, TARGET], &[TARGET]);
    let line_up = |d: f64| Config { deployment: None, line_up: Some(d), ..config(vec![], vec![], vec![]) };
    for (p, d, words) in [(&one, f64::NAN, "from 0 to"), (&one, 31.0, "from 0 to"), (&two, 12.0, "one unit a side")] {
        let e = crate::game::check(p, &line_up(d), 0, 1).unwrap_err().to_string();
        assert!(e.contains("line_up") && e.contains(words), "{e}");
    }
    let standard = Config { terrain: Terrain::Standard, ..line_up(12.0) };
    assert!(crate::game::check(&one, &standard, 0, 1).unwrap_err().to_string().contains("fixed terrain"));
    let both = Config { deployment: Some([vec![Point::new(10.0, 10.0)], vec![Point::new(10.0, 30.0)]]), ..line_up(12.0) };
    assert!(crate::game::check(&one, &both, 0, 1).unwrap_err().to_string().contains("one or the other"));
    let deep = prep(&["Big [10] Q4+ D4+ | Tough(12)\n10x Claw (A1)"], &["Big [10] Q4+ D4+ | Tough(12)\n10x Claw (A1)"]);
    assert!(crate::game::check(&deep, &line_up(28.0), 0, 1).unwrap_err().to_string().contains("would leave the 48\" deep table"));
    crate::game::check(&deep, &line_up(24.0), 0, 1).unwrap();
}

#[test]
fn a_unit_whose_disc_holds_the_target_blocks_sight_with_its_models() {
    // "Models can't see through solid obstacles, including the perimeter of other units
    // (friendly or enemy)": where the target stands inside another unit's disc (their models
    // interleave), that unit's bases block the lines that cross them, and only those
    let p = prep(&["Gun [1] Q4+ D4+\nRifle (24\", A1)"], &[TARGET_ONE, "Crowd [20] Q4+ D4+"]);
    let c = config(vec![], vec![Point::new(36.0, 6.0)], vec![Point::new(10.0, 40.0), Point::new(36.0, 30.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let (crowd, r_crowd) = (g.live((1, 1)).pos, g.radius((1, 1)));
    let shooter = g.models((0, 0)).next().unwrap().1;
    let bases: Vec<(Point, f64)> = g.models((1, 1)).map(|(_, q, r)| (q, r)).collect();
    let (mut blocked, mut clear) = (0, 0);
    for i in -20..=20 {
        for j in -20..=20 {
            let q = Point::new(crowd.x + f64::from(i) * 0.25, crowd.y + f64::from(j) * 0.25);
            let rq = g.radius((1, 0));
            // inside the crowd's disc, its base clear of the crowd's bases
            if q.distance(crowd) >= r_crowd || bases.iter().any(|&(m, rm)| m.distance(q) < rm + rq) {
                continue;
            }
            g.live_mut((1, 0)).pos = q;
            let target = g.models((1, 0)).next().unwrap().1;
            let crossed = bases.iter().any(|&(m, rm)| m.distance_to_segment(shooter, target) < rm);
            assert_eq!(g.sight((0, 0), (1, 0)).visible, !crossed, "target at ({:.2}, {:.2})", q.x, q.y);
            if crossed { blocked += 1 } else { clear += 1 }
        }
    }
    assert!(blocked > 0 && clear > 0, "{blocked} blocked, {clear} clear");
}

#[test]
fn a_model_exactly_three_inches_from_a_marker_is_within_three() {
    // "within 3" of a marker": a model whose edge is 3" from the marker, wherever the float
    // arithmetic of its position rounds, is within (a unit that moved back 1" from an enemy
    // centred 2" from the marker)
    let p = prep(&[TARGET_ONE], &[TARGET]);
    let c = config(vec![], vec![Point::new(36.0, 6.0)], vec![Point::new(60.0, 44.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let r = g.radius((0, 0));
    let mut rounded = 0;
    for k in 0..360 {
        let marker = Point::new(30.0 + f64::from(k) * 0.01, 20.0 + f64::from(k) * 0.013);
        let (sin, cos) = (f64::from(k) * 0.0174533).sin_cos();
        let at = Point::new(marker.x + cos * (3.0 + r), marker.y + sin * (3.0 + r));
        g.live_mut((0, 0)).pos = at;
        let edge = g.models((0, 0)).next().map(|(_, q, rq)| q.distance(marker) - rq).unwrap();
        rounded += usize::from(edge > 3.0);
        assert!(g.near_marker((0, 0), marker), "{edge}");
    }
    assert!(rounded > 0, "some positions round past 3\"");
}

#[test]
fn a_unit_whose_disc_overlaps_its_target_still_charges_it() {
    // after a melee both survive, "the charging unit must move back by 1"": its models are an
    // inch from the target's, but the discs that hold them may still overlap. "Units may only
    // take a Charge action if at least one model is within charge distance of the target
    // unit": it is, and it may charge again
    let p = prep(&[RIFLES], &[TARGET]);
    let c = config(vec![], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 30.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    put_at(&mut g, (0, 0), (1, 0), 1.2);
    let contact = g.radius((0, 0)) + g.radius((1, 0));
    assert!(g.live((0, 0)).pos.distance(g.live((1, 0)).pos) < contact, "the discs overlap");
    let path = g.charge_path((0, 0), (1, 0)).expect("a charge from overlapping discs");
    assert!(path.length <= 1.2 + 1e-6 && g.closest_pair_at((0, 0), path.to, (1, 0)).0 <= 1e-6, "{path:?}");
}

#[test]
fn the_move_back_keeps_clear_of_other_units_where_it_can() {
    // "the charging unit must move back by 1" (if possible), to keep the separation between
    // units clear"; "Models may never be within 1" of models from other units, unless they are
    // taking a Charge action": a friend stands just behind the charger's straight line back,
    // so the inch is taken turned aside, ending 1" clear of it
    let p = prep(&[TARGET_ONE, TARGET_ONE], &[TARGET_ONE]);
    let c = config(vec![], vec![Point::new(36.0, 10.0), Point::new(50.0, 10.0)], vec![Point::new(36.0, 30.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let (charger, friend, target) = ((0, 0), (0, 1), (1, 0));
    g.live_mut(target).pos = Point::new(36.0, 20.0);
    let r = g.radius(charger);
    // in base contact with the target, the friend 1.4" behind it, edge to edge
    g.live_mut(charger).pos = Point::new(36.0, 20.0 - 2.0 * r);
    g.live_mut(friend).pos = Point::new(36.0, 20.0 - 4.0 * r - 1.4);
    let from = g.live(charger).pos;
    g.move_back(charger, target);
    let to = g.live(charger).pos;
    assert!((from.distance(to) - CONSOLIDATION_BACK).abs() < 1e-9, "the full inch: {from:?} -> {to:?}");
    assert!(g.gap(charger, friend) >= UNIT_GAP - 1e-6, "{} from the friend", g.gap(charger, friend));
    assert!((to.x - from.x).abs() > 0.1, "turned aside");
    // a friend on each side too: no end keeps 1" from every unit; the inch is still taken,
    // ending no nearer the nearest unit than the straight inch back would
    let mut cache = Cache::default();
    let p = prep(&[TARGET_ONE, TARGET_ONE, TARGET_ONE, TARGET_ONE], &[TARGET_ONE]);
    let c = config(vec![], vec![Point::new(36.0, 10.0), Point::new(50.0, 10.0), Point::new(56.0, 10.0), Point::new(62.0, 10.0)], vec![Point::new(36.0, 30.0)]);
    let mut g = placed(&p, &c, &mut cache);
    g.live_mut(target).pos = Point::new(36.0, 20.0);
    g.live_mut((0, 1)).pos = Point::new(36.0, 20.0 - 4.0 * r - 1.4);
    g.live_mut((0, 2)).pos = Point::new(36.0 - 2.0 * r - 1.2, from.y - 0.5);
    g.live_mut((0, 3)).pos = Point::new(36.0 + 2.0 * r + 1.2, from.y - 0.5);
    let nearest = |g: &Game| [(0, 1), (0, 2), (0, 3), target].iter().map(|&u| g.gap(charger, u)).fold(f64::INFINITY, f64::min);
    g.live_mut(charger).pos = Point::new(from.x, from.y - CONSOLIDATION_BACK);
    let straight = nearest(&g);
    g.live_mut(charger).pos = from;
    g.move_back(charger, target);
    assert!((g.live(charger).pos.distance(from) - CONSOLIDATION_BACK).abs() < 1e-9);
    assert!(nearest(&g) < UNIT_GAP && nearest(&g) >= straight - 1e-9, "{} against {straight} straight back", nearest(&g));
}
