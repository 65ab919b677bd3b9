//! Scripted Firefight v3.2 games on fixed terrain (editions-game.md 8.2), each citing the
//! sentence of gf-firefight-3.2.txt it checks: the Rout Test phase, Stunned and Knocked Out
//! as game state, pushes, a caster's own tokens, and Ambushers on the last round.

use super::cache::Cache;
use super::config::Event;
use super::table::{Kinds, Piece, Point};
use super::test_support::{config, placed, prep_in, Game};
use crate::edition::Edition;
use crate::rolls::Dice;

const FF: Edition = Edition::Firefight3_2;
const GRUNT: &str = "Grunt [1] Q5+ D5+ | 10pts\nRifle (24\", A1)";
const SQUAD: &str = "Squad [5] Q5+ D5+ | 50pts\n5x Rifle (24\", A1)";

/// Asserts that the Firefight rulebook says `sentence` (skipped, with a note, when
/// ../shared is absent; a failure under CI=true).
fn cites(sentence: &str) {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/rules/gf-firefight-3.2.txt"));
    match text {
        Ok(text) => assert!(text.contains(sentence), "the rulebook no longer says {sentence:?}"),
        Err(_) => {
            assert!(std::env::var("CI").as_deref() != Ok("true"), "../shared/rules is missing under CI=true");
            eprintln!("not checked against the rulebook: ../shared/rules/gf-firefight-3.2.txt is absent");
        }
    }
}

/// Units spread along the table in a row at depth `y`, 7" apart.
fn row(n: usize, y: f64) -> Vec<Point> {
    (0..n).map(|i| Point::new(6.0 + 7.0 * i as f64, y)).collect()
}

fn events<'e>(g: &'e Game, kind: &str) -> Vec<&'e Event> {
    g.trace.as_ref().expect("traced").iter().filter(|e| e.kind == kind).collect()
}

#[test]
fn an_army_of_six_tests_at_three_units_left_and_not_at_four() {
    cites("Whenever an army is down to half or less of its starting units at the end of a round, then all of its units must take a Rout Test.");
    cites("Note that starting size is counted at the beginning of the game.");
    let p = prep_in(FF, &[GRUNT; 6], &[GRUNT]);
    let c = config(vec![], vec![], row(6, 6.0), vec![Point::new(24.0, 42.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    for u in 0..2 {
        g.live_mut((0, u)).gone = true;
    }
    g.rout_tests();
    assert!(events(&g, "rout-test").is_empty(), "4 of 6 units left: no test");
    g.live_mut((0, 2)).gone = true;
    g.rout_tests();
    let tests = events(&g, "rout-test");
    // the army's event, then one test for each of its 3 units; the other army is whole
    assert_eq!(tests.iter().filter(|e| e.unit == -1).count(), 1, "{tests:?}");
    let units: Vec<i32> = tests.iter().filter(|e| e.unit >= 0).map(|e| e.unit).collect();
    assert_eq!(units, [3, 4, 5]);
    assert!(tests.iter().all(|e| e.army == 0));
}

#[test]
fn a_stunned_unit_routs_at_a_rout_test_and_a_failed_test_stuns_every_model() {
    cites("If the unit was already Stunned, then it immediately Routs instead of taking a morale test.");
    cites("If the roll is unsuccessful, the unit is immediately Stunned (in multi-model units, all are Stunned).");
    let weak = "Squad [5] Q6+ D5+\n5x Rifle (24\", A1)";
    let p = prep_in(FF, &[GRUNT, weak, GRUNT, GRUNT], &[GRUNT]);
    let c = config(vec![], vec![], row(4, 6.0), vec![Point::new(24.0, 42.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    // 2 of 4 units left
    g.live_mut((0, 0)).gone = true;
    g.live_mut((0, 3)).gone = true;
    g.set_stunned((0, 2), true);
    assert!(g.live((0, 2)).s.stunned, "a unit of one model: its last model is Stunned");
    // a squad at Q6+ fails (and is Stunned whole) in some of the tries
    let mut stunned_whole = 0;
    for seed in 0..40 {
        g.rng = Dice::seed_from_u64(seed);
        g.live_mut((0, 1)).shaken = false;
        g.live_mut((0, 2)).gone = false;
        g.set_stunned((0, 2), true);
        g.rout_tests();
        assert!(g.live((0, 2)).gone, "the Stunned grunt Routs without a test");
        if g.live((0, 1)).shaken {
            stunned_whole += 1;
            assert!(!g.live((0, 1)).s.stunned, "five models Stunned are the unit's, not a last model's");
            assert!(!g.may_seize((0, 1)) && !g.may_contest((0, 1)));
        }
    }
    assert!((10..40).contains(&stunned_whole), "Q6+ fails 5 tests in 6: {stunned_whole} of 40");
    assert!(events(&g, "rout").len() == 40);
}

#[test]
fn a_hero_within_12_inches_lends_its_quality_unless_stunned() {
    cites("Friendly units within 12\" may take morale tests using the hero's Quality and special rules, as long as it isn't Stunned.");
    let hopeless = "Squad [5] Q6+ D5+\n5x Rifle (24\", A1)";
    let hero = "Captain [1] Q2+ D4+ | Hero, Fearless\nPistol (12\", A1)";
    let p = prep_in(FF, &[hopeless, hero, GRUNT, GRUNT], &[GRUNT]);
    let c = config(vec![], vec![], vec![Point::new(10.0, 6.0), Point::new(18.0, 6.0), Point::new(30.0, 6.0), Point::new(40.0, 6.0)], vec![Point::new(24.0, 42.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    g.live_mut((0, 2)).gone = true;
    g.live_mut((0, 3)).gone = true;
    let failures = |g: &mut Game, stunned_hero: bool| {
        let mut n = 0;
        for seed in 0..60 {
            g.rng = Dice::seed_from_u64(seed);
            g.live_mut((0, 0)).shaken = false;
            g.live_mut((0, 1)).gone = false;
            g.set_stunned((0, 1), stunned_hero);
            g.rout_tests();
            n += u32::from(g.live((0, 0)).shaken);
        }
        n
    };
    // Q2+ with Fearless fails 1 in 36; Q6+ alone 5 in 6
    let lent = failures(&mut g, false);
    let alone = failures(&mut g, true);
    assert!(lent <= 6 && alone >= 35, "with the hero {lent} of 60 failed, without {alone}");
    assert!(events(&g, "rout-test").iter().any(|e| e.unit == 0 && e.target == 1 && e.detail.contains("Captain")));
}

#[test]
fn a_stunned_defender_does_not_strike_back() {
    cites("Whilst Stunned, models can't strike back, and automatically fail all morale tests.");
    let brute = "Brute [1] Q3+ D2+ | Tough(12)\nClaws (A6, AP(2))";
    let poker = "Poker [1] Q6+ D5+\nStick (A1)";
    let mut struck_back = [0, 0];
    for (k, stunned) in [false, true].into_iter().enumerate() {
        for seed in 0..20 {
            let p = prep_in(FF, &[poker], &[brute]);
            let mut c = config(vec![], vec![], vec![Point::new(24.0, 20.0)], vec![Point::new(24.0, 26.0)]);
            c.seed = seed;
            let mut cache = Cache::default();
            let mut g = placed(&p, &c, &mut cache);
            if stunned {
                g.set_stunned((1, 0), true);
            }
            let path = g.charge_path((0, 0), (1, 0)).expect("in reach");
            g.charge((0, 0), (1, 0), path);
            struck_back[k] += u32::from(g.live((0, 0)).taken > 0 || g.live((0, 0)).gone);
        }
    }
    assert!(struck_back[0] >= 15, "a fresh brute strikes back and wounds: {struck_back:?}");
    assert_eq!(struck_back[1], 0, "a Stunned one never does");
}

#[test]
fn a_unit_stunned_whole_then_charged_is_removed() {
    cites("If Stunned models take any hits from shooting, or are charged again, then they are Knocked Out immediately (without needing to check wounds).");
    let p = prep_in(FF, &[GRUNT], &[SQUAD]);
    let c = config(vec![], vec![], vec![Point::new(24.0, 18.0)], vec![Point::new(24.0, 27.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    // what a failed Rout Test does to a squad
    g.set_stunned((1, 0), true);
    assert!(g.wholly_stunned((1, 0), g.live((1, 0)).s));
    let path = g.charge_path((0, 0), (1, 0)).expect("in reach");
    g.charge((0, 0), (1, 0), path);
    assert!(g.live((1, 0)).gone, "all five Knocked Out");
    assert_eq!(g.live((0, 0)).taken, 0, "before any blow: none struck back");
    assert!(!events(&g, "knocked-out").is_empty());
}

#[test]
fn shooting_a_unit_stunned_whole_knocks_out_a_model_per_hit() {
    cites("If Stunned models take any hits from shooting, or are charged again, then they are Knocked Out immediately (without needing to check wounds).");
    // D2+ blocks all but 1s: unstunned, hits would hardly wound; Stunned, every hit removes one
    let armoured = "Squad [5] Q5+ D2+\n5x Rifle (24\", A1)";
    let gunner = "Gunner [1] Q2+ D5+\nGun (24\", A4)";
    let (mut removed, mut hits) = (0, 0);
    for seed in 0..20 {
        let p = prep_in(FF, &[gunner], &[armoured]);
        let mut c = config(vec![], vec![], vec![Point::new(24.0, 10.0)], vec![Point::new(24.0, 26.0)]);
        c.seed = seed;
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        g.set_stunned((1, 0), true);
        let mut touched = super::state::Touched::new();
        g.shoot((0, 0), false, &mut touched);
        let shot = events(&g, "shoot").into_iter().next().expect("it shoots").hits;
        hits += shot.min(5);
        removed += if g.live((1, 0)).gone { 5 } else { 5 - g.live((1, 0)).left };
    }
    assert!(hits > 40, "{hits} hits in 20 volleys of Q2+ A4");
    assert_eq!(removed, hits, "one model per hit, blocked or not");
}

#[test]
fn a_push_happens_on_4_plus_never_off_the_table_or_into_impassable_terrain() {
    cites("Whenever a model is Stunned, the attacker may try to push it by rolling one die. On a 4+ the attacker may move the model by up to 2\" in any direction.");
    // the grunt stands on a marker its side holds, in a corner, a building beside it: the
    // pusher wants it off the marker, and only some directions are open
    let building = Piece::new("building", 4.0, 0.0, 10.0, 6.0, Kinds { blocking: true, impassable: true, ..Kinds::default() }).unwrap();
    let marker = Point::new(2.0, 10.5);
    let p = prep_in(FF, &[GRUNT], &[GRUNT]);
    let c = config(vec![building.clone()], vec![marker], vec![Point::new(40.0, 40.0)], vec![Point::new(2.0, 8.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let home = g.live((1, 0)).pos;
    let (mut pushed, mut rolls) = (0, 0);
    for seed in 0..60 {
        g.rng = Dice::seed_from_u64(seed);
        g.live_mut((1, 0)).pos = home;
        g.set_stunned((1, 0), true);
        g.after_stunning((0, 0), (1, 0), false);
        let push = *events(&g, "push").last().expect("a push is tried");
        let roll: u8 = push.detail["rolled ".len().."rolled ".len() + 1].parse().unwrap();
        let at = g.live((1, 0)).pos;
        let r = g.radius((1, 0));
        assert!(g.rules.table.holds(at.x, at.y, r, 1e-9), "pushed off the table to {at:?}");
        assert!(building.distance_to(at) >= r - 1e-9, "pushed into the building: {at:?}");
        assert!(at.distance(home) <= 2.0 + 1e-9);
        if roll < 4 {
            assert_eq!(at, home, "rolled {roll}: no push");
        } else {
            rolls += 1;
            pushed += u32::from(at != home);
        }
    }
    assert!(rolls > 15 && pushed == rolls, "every 4+ pushed it off the marker: {pushed} of {rolls}");
}

#[test]
fn a_casters_own_tokens_raise_its_roll() {
    cites("This model and other casters within 18\" in line of sight may spend any number of tokens at the same time before rolling, to give the caster +1/-1 to the casting roll per token spent.");
    let caster = "Mystic [1] Q4+ D5+ | Caster(6)\nStaff (A1)";
    for (edition, adds) in [(FF, true), (Edition::V3_5, false)] {
        let p = prep_in(edition, &[caster], &[GRUNT]);
        let c = config(vec![], vec![], vec![Point::new(24.0, 10.0)], vec![Point::new(24.0, 40.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        g.live_mut((0, 0)).tokens = 4;
        let modifier = g.help_and_hinder((0, 0), 100.0);
        assert_eq!(modifier > 0, adds, "{edition}: modifier {modifier}");
        assert_eq!(g.live((0, 0)).tokens, 4 - modifier as u8);
    }
}

#[test]
fn ambushers_arriving_in_round_3_seize_and_in_round_4_do_not() {
    cites("Note that units that deploy from Ambush on the last round can't seize or contest objective markers.");
    let marker = Point::new(24.0, 24.0);
    let p = prep_in(FF, &[GRUNT], &[GRUNT]);
    let c = config(vec![], vec![marker], vec![Point::new(24.0, 22.0)], vec![Point::new(24.0, 44.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    for (round, seizes) in [(3, true), (4, false)] {
        g.round = round;
        g.live_mut((0, 0)).arrived = round;
        g.owner = vec![-1];
        g.score_round();
        assert_eq!(g.owner == [0], seizes, "arrived in round {round} of 4");
    }
}

#[test]
fn units_with_rules_firefight_lacks_are_refused_by_name() {
    for rule in ["Aircraft", "Transport(6)"] {
        let text = format!("Thing [1] Q4+ D4+ | {rule}\nGun (24\", A1)");
        let unit = crate::profile::Unit::parse(&text, FF).unwrap();
        let err = super::prepare::Prepared::new([&[unit][..], &[crate::profile::Unit::parse(GRUNT, FF).unwrap()][..]], FF, [2.0, 2.0]);
        let Err(err) = err else { panic!("{rule}: not refused") };
        let name = rule.split('(').next().unwrap();
        assert!(err.to_string().contains(name) && err.to_string().contains("army_a[0]"), "{err}");
    }
}

#[test]
fn blast_hits_spill_onto_enemy_models_within_3_inches() {
    cites("When attacking, you must split all hits evenly among enemies models within 3\" of a single model (target picks how).");
    let mortar = "Mortar [1] Q2+ D5+\nShell (30\", A2, Blast(6))";
    // the grunt the mortar aims at, a squad 2" from it, or 12" away
    let mut spilled = [0u32; 3];
    for (k, (edition, squad_y)) in [(FF, 30.5), (FF, 42.0), (Edition::V3_5, 30.5)].into_iter().enumerate() {
        for seed in 0..10 {
            let p = prep_in(edition, &[mortar], &[GRUNT, SQUAD]);
            let mut c = config(vec![], vec![], vec![Point::new(24.0, 6.0)], vec![Point::new(24.0, 26.0), Point::new(24.0, squad_y)]);
            c.seed = seed;
            let mut cache = Cache::default();
            let mut g = placed(&p, &c, &mut cache);
            let mut touched = super::state::Touched::new();
            let sight = g.sight((0, 0), (1, 0));
            let key = g.shot_key((0, 0), (1, 0), sight, false).expect("the grunt in range and sight");
            let groups = (0..g.plan(&key).groups.len()).collect();
            let volley = super::decisions::Volley { target: (1, 0), key, groups };
            g.fire((0, 0), smallvec::smallvec![volley], &mut touched);
            let here = events(&g, "blast-spill").iter().map(|e| e.hits).sum::<u32>();
            // at most one hit per squad model for each of the 2 attacks
            assert!(here <= 2 * 5, "{here}");
            spilled[k] += here;
            if k != 0 {
                assert!(events(&g, "blast-spill").is_empty());
            }
        }
    }
    // Q2+ A2: about 17 attacks hit in 10 volleys, each up to 5 hits past the grunt, one per
    // squad model within 3" of it
    assert!(spilled[0] >= 10, "{spilled:?}");
    assert_eq!(spilled[1] + spilled[2], 0, "{spilled:?}");
}

#[test]
fn the_policy_reads_the_chances_of_stunning_and_knocking_out() {
    cites("Whenever a unit has taken at least one wound, roll one die and add the number of wound markers to it, and then check to see what happens to it:");
    let p = prep_in(FF, &[GRUNT], &[GRUNT, SQUAD]);
    let c = config(vec![], vec![], vec![Point::new(24.0, 20.0)], vec![Point::new(24.0, 26.0), Point::new(10.0, 40.0)]);
    let mut cache = Cache::default();
    let g = placed(&p, &c, &mut cache);
    use super::policy::firefight::{rout_gain, wound_effect_chances};
    // one model, no Tough: any wound makes it roll; 6+ with one marker is a 5 or a 6
    let (check, ko) = wound_effect_chances(&g, (1, 0), 1.0);
    assert!((check - (1.0 - (-1.0f64).exp())).abs() < 1e-12 && (ko - 2.0 / 6.0).abs() < 1e-12);
    // five models: 4 die before the last rolls
    let (check, _) = wound_effect_chances(&g, (1, 1), 1.0);
    assert!(check < 0.01, "{check}");
    // an army of 2: losing one brings it to its Rout Test ("down to half or less")
    assert!(rout_gain(&g, (1, 0), 0.3) > 0.0);
    let p4 = prep_in(FF, &[GRUNT], &[GRUNT, GRUNT, GRUNT, SQUAD]);
    let c4 = config(vec![], vec![], vec![Point::new(24.0, 20.0)], vec![Point::new(24.0, 26.0), Point::new(10.0, 40.0), Point::new(20.0, 40.0), Point::new(34.0, 40.0)]);
    let mut cache4 = Cache::default();
    let mut g4 = placed(&p4, &c4, &mut cache4);
    assert_eq!(rout_gain(&g4, (1, 0), 0.3), 0.0, "4 units down to 3: no test yet");
    g4.live_mut((1, 2)).gone = true;
    assert!(rout_gain(&g4, (1, 0), 0.3) > 0.0, "3 of 4 down to 2: its units test");
}

#[test]
fn the_policy_charges_a_stunned_unit_for_all_it_is_worth_and_expects_no_strike_back() {
    cites("Whilst Stunned, models can't strike back, and automatically fail all morale tests.");
    let brute = "Brute [1] Q3+ D4+ | 40pts\nClaws (A6, AP(2))";
    let p = prep_in(FF, &[GRUNT], &[brute]);
    let c = config(vec![], vec![], vec![Point::new(24.0, 20.0)], vec![Point::new(24.0, 26.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let fresh = super::test_support::with_seat(&mut g, |s| super::policy::ai::charge_estimate(s, (0, 0), (1, 0)));
    assert!(fresh.taken > 0.5 && fresh.value < 0.0, "a fresh brute strikes back hard: {fresh:?}");
    g.set_stunned((1, 0), true);
    let stunned = super::test_support::with_seat(&mut g, |s| super::policy::ai::charge_estimate(s, (0, 0), (1, 0)));
    assert_eq!(stunned.taken, 0.0, "{stunned:?}");
    assert!(stunned.value >= g.points_left((1, 0)) - 1e-9, "Knocked Out by the charge: {stunned:?}");
}

#[test]
fn markers_are_scored_before_the_rout_tests_unless_the_switch_says_otherwise() {
    // the text does not order them: a unit on a marker that fails its Rout Test seizes it
    // when the markers come first, and not when the tests do ("Stunned units can't seize")
    cites("Markers remain seized even if the unit moves away, however Stunned units can't seize or stop others from seizing them.");
    let hopeless = "Squad [5] Q6+ D5+ | 50pts\n5x Rifle (24\", A1)";
    let marker = Point::new(24.0, 24.0);
    let p = prep_in(FF, &[hopeless, GRUNT], &[GRUNT]);
    let c = config(vec![], vec![marker], vec![Point::new(24.0, 20.5), Point::new(40.0, 6.0)], vec![Point::new(24.0, 44.0)]);
    let mut seized = [0, 0];
    for (k, after_markers) in [true, false].into_iter().enumerate() {
        let rules: &'static super::rules::GameRules = Box::leak(Box::new(super::rules::GameRules {
            rout_test: Some(super::rules::RoutTest { after_markers, ..super::rules::GameRules::FIREFIGHT_3_2.rout_test.unwrap() }),
            ..super::rules::GameRules::FIREFIGHT_3_2
        }));
        for seed in 0..30 {
            let mut cache = Cache::default();
            let mut g = placed(&p, &c, &mut cache);
            g.view.rules = rules;
            g.rng = Dice::seed_from_u64(seed);
            g.live_mut((0, 1)).gone = true;
            assert!(g.near_marker((0, 0), marker));
            g.end_round();
            if g.live((0, 0)).shaken {
                seized[k] += u32::from(g.owner == [0]);
            } else {
                assert_eq!(g.owner, [0], "a unit that passed seizes either way");
            }
        }
    }
    assert!(seized[0] > 10 && seized[1] == 0, "{seized:?}");
}

#[test]
fn a_charger_stunned_by_dangerous_terrain_on_its_way_makes_no_attack() {
    cites("Note that units must also check for wound effects when taking wounds from other sources (special rules, terrain, etc.).");
    let minefield = Piece::new("minefield", 0.0, 13.0, 48.0, 17.0, Kinds { dangerous: true, ..Kinds::default() }).unwrap();
    let fighter = "Fighter [1] Q3+ D5+ | 10pts\nBlade (A4)";
    let p = prep_in(FF, &[fighter], &[GRUNT]);
    let (mut stunned, mut fought) = (0, 0);
    for seed in 0..120 {
        let mut c = config(vec![minefield.clone()], vec![], vec![Point::new(24.0, 10.0)], vec![Point::new(24.0, 20.0)]);
        c.seed = seed;
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let path = g.charge_path((0, 0), (1, 0)).expect("in reach");
        g.charge((0, 0), (1, 0), path);
        let melee = !events(&g, "melee").is_empty();
        if g.live((0, 0)).shaken {
            stunned += 1;
            assert!(!melee && g.live((1, 0)).taken == 0, "a Stunned charger attacked");
        }
        fought += u32::from(melee);
    }
    assert!(stunned > 3 && fought > 80, "{stunned} Stunned, {fought} melees");
}

#[test]
fn wound_markers_last_from_attack_to_attack_and_round_to_round() {
    cites("Whenever a unit has taken at least one wound, roll one die and add the number of wound markers to it, and then check to see what happens to it:");
    let ogre = "Ogre [1] Q4+ D6+ | 60pts | Tough(9)\nClub (A1)";
    let gunner = "Gunner [1] Q2+ D5+ | 20pts\nGun (24\", A3)";
    let p = prep_in(FF, &[gunner], &[ogre]);
    let c = config(vec![], vec![], vec![Point::new(24.0, 10.0)], vec![Point::new(24.0, 26.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let mut last = 0;
    for round in 1..=3 {
        g.round = round;
        let mut touched = super::state::Touched::new();
        g.shoot((0, 0), false, &mut touched);
        g.end_round();
        let w = g.live((1, 0)).s.w;
        assert!(w >= last, "round {round}: {w} markers after {last}");
        last = w;
    }
    assert!(last >= 2, "three volleys of Q2+ A3 at D6+ leave markers: {last}");
}

#[test]
fn scouts_of_both_sides_are_placed_after_a_roll_off_then_moved_up_to_12_inches() {
    cites("If both players have units with Scout, they must roll-off to see who goes first, and then alternate in placing them.");
    let scouts = "Scouts [3] Q4+ D5+ | 30pts | Scout\n3x Rifle (24\", A1)";
    let p = prep_in(FF, &[scouts, GRUNT], &[scouts, GRUNT]);
    let (mut won, mut games) = ([0, 0], 0);
    for seed in 0..30 {
        let c = super::config::Config { seed, deployment: None, objectives: Some(vec![Point::new(24.0, 24.0)]), ..config(vec![], vec![], vec![], vec![]) };
        let mut cache = Cache::default();
        let mut g = Game::new(&p, &c, seed, &mut cache, super::test_support::bot());
        assert!(g.deploy().is_none());
        let roll = events(&g, "roll-off");
        if roll.is_empty() {
            continue; // a side kept its Scouts with the others
        }
        games += 1;
        let winner = roll[0].army;
        won[winner as usize] += 1;
        let order: Vec<i8> = events(&g, "scout").iter().map(|e| e.army).collect();
        assert_eq!(order[0], winner, "the winner places first");
        for m in events(&g, "scout-move") {
            assert!(m.from.distance(m.to) <= 12.0 + 1e-9);
        }
    }
    assert!(games >= 10 && won[0] > 0 && won[1] > 0, "{games} games, won {won:?}");
}

#[test]
fn only_cover_terrain_gives_cover() {
    cites("If the majority of models in a unit are in or behind a piece of cover terrain, they get +1 to Defense rolls when blocking hits from shooting attacks.");
    // a squad half hidden behind a building (blocking, not cover): behind a sight blocker in
    // v3.5, in cover; in Firefight not, as it is behind no cover terrain
    let shooter = "Gunner [1] Q4+ D5+ | 20pts\nGun (36\", A1)";
    let wide = "Squad [5] Q5+ D5+ | 50pts\n5x Rifle (24\", A1)";
    let building = Kinds { blocking: true, impassable: true, ..Kinds::default() };
    let mut covered = Vec::new();
    for edition in [Edition::V3_5, FF] {
        let p = prep_in(edition, &[shooter], &[wide]);
        let c = config(vec![], vec![], vec![Point::new(24.0, 4.0)], vec![Point::new(24.0, 30.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        // a wall whose shadow takes all but the two leftmost models
        let mut xs: Vec<f64> = g.models((1, 0)).map(|(_, q, _)| q.x).collect();
        xs.sort_by(f64::total_cmp);
        let wall_y = 17.0;
        let at_wall = |x: f64| 24.0 + (x - 24.0) * (wall_y - 4.0) / (30.0 - 4.0);
        let x0 = (at_wall(xs[1]) + at_wall(xs[2])) / 2.0;
        g.terrain = vec![Piece::new("building", x0, wall_y, 48.0, wall_y + 1.0, building).unwrap()];
        g.by_kind = super::state::PiecesByKind::of(&g.terrain);
        g.cache.seen.get_mut().for_pair = None;
        let sight = g.sight((0, 0), (1, 0));
        assert!(sight.visible, "{edition}: some models are in sight");
        covered.push(sight.cover);
    }
    assert_eq!(covered, [true, false], "v3.5, then Firefight");
}

#[test]
fn the_policy_reads_a_heros_aura_in_what_a_rout_test_costs() {
    cites("Friendly units within 12\" may take morale tests using the hero's Quality and special rules, as long as it isn't Stunned.");
    let hopeless = "Squad [5] Q6+ D5+ | 50pts\n5x Rifle (24\", A1)";
    let hero = "Captain [1] Q2+ D4+ | 40pts | Hero, Fearless\nPistol (12\", A1)";
    let p = prep_in(FF, &[GRUNT], &[hopeless, hero, GRUNT, GRUNT]);
    let gain = |hero_at: Point| {
        let c = config(vec![], vec![], vec![Point::new(4.0, 4.0)], vec![Point::new(10.0, 40.0), hero_at, Point::new(30.0, 44.0), Point::new(40.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        g.live_mut((1, 3)).gone = true;
        super::policy::firefight::rout_gain(&g, (1, 2), 0.3)
    };
    let (near, far) = (gain(Point::new(16.0, 40.0)), gain(Point::new(40.0, 30.0)));
    assert!(near > 0.0 && near < far, "the squad tests at the captain's Q2+ beside it: {near} against {far}");
}
