//! Scripted v3.4.1 games on fixed terrain (editions-game.md 8.2), each citing the sentence of
//! gf-3.4.1-core.txt it checks: what a v3.4.1 game does that a v3.5 one does not.

use super::cache::Cache;
use super::paths::Path;
use super::table::Point;
use super::test_support::{config, deployed_game, placed, prep_in, put_near, Game};
use crate::edition::Edition;

const GRUNTS: &str = "Grunts [5] Q5+ D5+\n5x Rifle (24\", A1)";
const JET: &str = "Jet [1] Q4+ D4+ | Aircraft, Tough(6)\nGuns (24\", A4)";

#[test]
fn an_aircraft_contests_a_marker_but_does_not_seize_it() {
    // "Aircraft ignore all units and terrain when moving and stopping, can't seize
    // objectives" (v3.5: "can't seize or contest objectives"); "if units from both sides are
    // contesting a marker, then it becomes neutral again".
    let marker = Point::new(36.0, 24.0);
    for (edition, contests) in [(Edition::V3_4_1, true), (Edition::V3_5, false)] {
        let p = prep_in(edition, &[JET], &[GRUNTS]);
        let c = config(vec![], vec![marker], vec![Point::new(10.0, 5.0)], vec![Point::new(60.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        // alone at a neutral marker: it does not seize
        put_near(&mut g, (0, 0), marker, -1.0, 2.0);
        g.score_round();
        assert_eq!(g.owner, [-1], "{edition}: an Aircraft alone does not seize");
        // the enemy holds the marker with a unit within 3": the Aircraft makes it neutral (v3.4.1)
        g.owner = vec![1];
        put_near(&mut g, (1, 0), marker, 1.0, 2.0);
        g.score_round();
        assert_eq!(g.owner, [if contests { -1 } else { 1 }], "{edition}: an enemy-held marker with the Aircraft beside it");
        // a neutral marker the enemy stands at: the Aircraft stops it being seized (v3.4.1)
        g.owner = vec![-1];
        g.score_round();
        assert_eq!(g.owner, [if contests { -1 } else { 1 }], "{edition}: an enemy seizing beside the Aircraft");
    }
}

/// The expected wounds of army A's first unit shooting army B's first unit as things stand.
fn expected_wounds(g: &mut Game, moved: bool) -> f64 {
    let sight = g.sight((0, 0), (1, 0));
    let key = g.shot_key((0, 0), (1, 0), sight, moved).expect("in range and in sight");
    g.plan(&key).expected.iter().sum()
}

#[test]
fn entrenched_counts_only_while_the_unit_has_not_moved_since_its_last_activation() {
    // "Entrenched: Enemies get -2 to hit when shooting at this model from over 9” away, as
    // long as it hasn’t moved since the beginning of its last activation."
    let shooter = "Shooters [5] Q4+ D5+\n5x Rifle (24\", A2)";
    let entrenched = "Diggers [5] Q5+ D5+ | Entrenched\n5x Rifle (24\", A1)";
    let p = prep_in(Edition::V3_4_1, &[shooter], &[entrenched]);
    let c = config(vec![], vec![], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 30.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    // 12" apart, closest models
    let gap = g.gap((0, 0), (1, 0));
    g.live_mut((1, 0)).pos.y -= gap - 12.0;
    assert!((g.gap((0, 0), (1, 0)) - 12.0).abs() < 1e-6);
    // not moved since deployment (a placement is not a move): Q4+ at -2 hits on 6s only
    assert!(!g.live((1, 0)).moved);
    let still = expected_wounds(&mut g, false);
    // after an Advance: no penalty, three times the hits (3 faces of 6 against 1)
    let from = g.live((1, 0)).pos;
    g.apply_move((1, 0), Path::straight(Point::new(from.x + 2.0, from.y), 2.0), "advance", 6.0);
    assert!(g.live((1, 0)).moved, "an Advance is a move");
    let after_advance = expected_wounds(&mut g, false);
    assert!((after_advance / still - 3.0).abs() < 1e-9, "held {still}, advanced {after_advance}");
    // its next activation begins: it has not moved since (a Shaken unit stays idle)
    g.live_mut((1, 0)).shaken = true;
    g.activate((1, 0));
    assert!(!g.live((1, 0)).moved, "cleared when its activation begins");
    assert!((expected_wounds(&mut g, false) - still).abs() < 1e-12);
    // within 9" the rule does not act, moved or not
    let gap = g.gap((0, 0), (1, 0));
    g.live_mut((1, 0)).pos.y -= gap - 8.0;
    let near_still = expected_wounds(&mut g, false);
    g.live_mut((1, 0)).moved = true;
    assert!((expected_wounds(&mut g, false) - near_still).abs() < 1e-12);
}

#[test]
fn a_charged_unit_moving_into_contact_counts_as_moved() {
    // "Charging models must move into base contact with targets, or as close as possible, and
    // then defenders must do the same by moving up to 3”": a charged unit of several models
    // has moved (Entrenched's "hasn’t moved") until its next activation begins.
    let brutes = "Brutes [3] Q3+ D4+\n3x Axe (A1)";
    let entrenched = "Diggers [5] Q5+ D2+ | Entrenched, Tough(3)\n5x Rifle (24\", A1)";
    let p = prep_in(Edition::V3_4_1, &[brutes], &[entrenched]);
    let c = config(vec![], vec![], vec![Point::new(36.0, 16.0)], vec![Point::new(36.0, 26.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    assert!(!g.live((1, 0)).moved);
    let path = g.charge_path((0, 0), (1, 0)).expect("in reach");
    g.charge((0, 0), (1, 0), path);
    assert!(!g.live((1, 0)).gone, "Tough(3) at Defense 2+ outlasts three axes");
    assert!(g.live((1, 0)).moved, "charged: its models moved into contact");
    assert!(g.live((0, 0)).moved, "the charger moved");
}

#[test]
fn a_scout_is_deployed_then_placed_within_12_inches_of_where_it_stood() {
    // "Scout: May be set aside before deployment. After all other units are deployed, must be
    // deployed and may then be placed anywhere within 12” of their position." (v3.5: "may be
    // deployed anywhere fully within 12" of their deployment zone")
    let scouts = "Scouts [5] Q4+ D5+ | Scout\n5x Rifle (24\", A1)";
    let mut placed_somewhere = 0;
    for seed in 0..20 {
        let events = deployed_game(Edition::V3_4_1, seed, &[GRUNTS, scouts], &[GRUNTS, GRUNTS], vec![]);
        let deployed = events.iter().find(|e| e.kind == "scout").expect("the Scout deploys after the others");
        let last_other = events.iter().rposition(|e| e.kind == "deploy").unwrap();
        assert!(events.iter().position(|e| e.kind == "scout").unwrap() > last_other, "after all other units");
        // deployed in its own 12" zone: army A's edge is y = 0
        for &(_, y, r) in &deployed.models {
            assert!(y + r <= 12.0 + 1e-6, "seed {seed}: a model at y {y:.2} (radius {r}) out of the 12\" zone");
        }
        if let Some(moved) = events.iter().find(|e| e.kind == "scout-move") {
            placed_somewhere += 1;
            assert!(moved.from.distance(moved.to) <= 12.0 + 1e-6, "seed {seed}: placed {:.2}\" away", moved.from.distance(moved.to));
            assert_eq!(moved.from, deployed.to);
        }
    }
    assert!(placed_somewhere > 10, "the default policy places its Scouts towards a marker ({placed_somewhere} of 20)");
    // v3.5: deployed straight into the 24" band, never placed after
    let events = deployed_game(Edition::V3_5, 3, &[GRUNTS, scouts], &[GRUNTS, GRUNTS], vec![]);
    assert!(events.iter().any(|e| e.kind == "scout") && !events.iter().any(|e| e.kind == "scout-move"));
}

#[test]
fn artillery_is_not_a_v3_4_1_rule_and_is_reported_not_played() {
    // The v3.4.1 sheet has Immobile ("May only use Hold actions") but no Artillery: a unit
    // written with it moves as any other, and the game says it ignores the rule.
    let gun = "Gun [1] Q4+ D4+ | Artillery, Tough(3)\nCannon (36\", A2)";
    let p = prep_in(Edition::V3_4_1, &[gun], &[GRUNTS]);
    assert!(!p.armies[0][0].movement.hold_only);
    assert!(p.armies[0][0].unmodelled.iter().any(|r| r == "Artillery"), "{:?}", p.armies[0][0].unmodelled);
    let p = prep_in(Edition::V3_5, &[gun], &[GRUNTS]);
    assert!(p.armies[0][0].movement.hold_only && !p.armies[0][0].unmodelled.iter().any(|r| r == "Artillery"));
    let p = prep_in(Edition::V3_4_1, &["Bunker [1] Q4+ D4+ | Immobile, Tough(3)\nCannon (36\", A2)"], &[GRUNTS]);
    assert!(p.armies[0][0].movement.hold_only);
}

#[test]
fn fast_and_slow_move_as_the_v3_4_1_sheet_says() {
    // "Fast: Moves +2” when using Advance and +4” when using Rush/Charge." "Slow: Moves -2”
    // when using Advance, and -4” when using Rush/Charge."
    let p = prep_in(Edition::V3_4_1, &["Bikes [3] Q4+ D4+ | Fast", "Walkers [3] Q4+ D4+ | Slow"], &[GRUNTS]);
    let [fast, slow] = [&p.armies[0][0].movement, &p.armies[0][1].movement];
    assert_eq!((fast.advance, fast.rush, fast.charge), (8.0, 16.0, 16.0));
    assert_eq!((slow.advance, slow.rush, slow.charge), (4.0, 8.0, 8.0));
}

#[test]
fn relentless_needs_a_hold_action_not_a_move_of_no_inches() {
    // "Relentless: When using Hold actions and shooting, unmodified rolls of 6 to hit deal one
    // extra hit": the shot of a Hold has it, the shot of an Advance does not (however far it went).
    let p = prep_in(Edition::V3_4_1, &["Gunners [5] Q4+ D5+ | Relentless\n5x Rifle (24\", A2)"], &[GRUNTS]);
    let c = config(vec![], vec![], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 30.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let (held, advanced) = (expected_wounds(&mut g, false), expected_wounds(&mut g, true));
    // Q4+: a hit on 4, 5 or 6, and a 6 hits twice: 4/6 against 3/6
    assert!((held / advanced - 4.0 / 3.0).abs() < 1e-9, "held {held}, advanced {advanced}");
}

#[test]
fn v3_4_1_games_are_played_seeded_and_break_no_rule() {
    // whole games, on the standard table, twice from one seed and on 1 and 2 threads: the same to the bit
    let army = [GRUNTS, JET, "Scouts [5] Q4+ D5+ | Scout\n5x Rifle (24\", A1)", "Diggers [5] Q5+ D5+ | Entrenched\n5x Rifle (24\", A1)"];
    super::test_support::assert_seeded_and_clean(Edition::V3_4_1, &army);
}

#[test]
fn the_default_policy_holds_a_relentless_or_entrenched_shooter_that_has_a_shot() {
    // Relentless's extra hits need a Hold action, Entrenched's -2 needs the unit not to have
    // moved: a shooter with either and a target in range holds, where one without advances
    use super::decisions::Action;
    use super::policy::decide;
    use super::test_support::with_seat;
    for (rule, holds) in [("Relentless", true), ("Entrenched", true), ("Fearless", false)] {
        let shooters = format!("Gunners [5] Q4+ D5+ | {rule}\n5x Rifle (24\", A2)");
        let p = prep_in(Edition::V3_4_1, &[&shooters], &[GRUNTS]);
        // a marker 16" off: an Advance heads for it without reaching it
        let c = config(vec![], vec![Point::new(20.0, 22.0)], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 30.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let action = with_seat(&mut g, |s| decide(s, (0, 0)));
        assert_eq!(matches!(action, Action::Hold), holds, "{rule}: {action:?}");
    }
}

#[test]
fn a_shaken_aircraft_moves_its_30_inches_only() {
    // "Aircraft: May only use Advance actions, moving in a straight line, and adding 30” to
    // its total move (even if Shaken)"; "Shaken: Must stay idle": no Advance, so 30" (v3.5's
    // "mandatory move" is read as its Advance: 36")
    for (edition, reach) in [(Edition::V3_4_1, 30.0), (Edition::V3_5, 36.0)] {
        let p = prep_in(edition, &[JET], &[GRUNTS]);
        let c = config(vec![], vec![], vec![Point::new(36.0, 24.0)], vec![Point::new(60.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        g.live_mut((0, 0)).shaken = true;
        g.activate((0, 0));
        let trace = g.trace.as_ref().unwrap();
        let idle = trace.iter().rev().find(|e| e.kind == "idle").expect("its mandatory move");
        assert_eq!(idle.allowance, reach, "{edition}");
        assert!(idle.length <= reach + 1e-9 && idle.length >= 30.0 - 1e-9, "{edition}: {}", idle.length);
        assert!(!g.live((0, 0)).shaken, "{edition}: the move does not break the idling");
    }
}

#[test]
fn a_defender_that_does_not_strike_back_still_loses_to_fear_in_v3_4_1() {
    // "Melee Results: ... the unit with the lowest total loses"; "Fear(X): This model counts
    // as having dealt +X wounds when checking who won melee". v3.5 adds "if a unit didn't
    // strike back in melee, then it must only take a morale test if it suffered at least one
    // wound", which the sheet lacks: declining to strike back saves nothing in v3.4.1
    use super::policy::ai::strikes_back;
    use super::test_support::with_seat;
    let horrors = "Horrors [5] Q5+ D2+ | 100pts | Fear(3)\n5x Claw (A1)";
    let wardens = "Wardens [5] Q4+ D2+ | 100pts\n5x Knife (A1)";
    for (edition, declines) in [(Edition::V3_5, true), (Edition::V3_4_1, false)] {
        let p = prep_in(edition, &[horrors], &[wardens]);
        let c = config(vec![], vec![], vec![Point::new(30.0, 20.0)], vec![Point::new(30.0, 26.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        assert_eq!(!with_seat(&mut g, |s| strikes_back(s, (0, 0), (1, 0))), declines, "{edition}");
    }
}
