//! Scripted v2.x games on fixed terrain (editions-game.md 8.2), each citing the sentence of
//! gf-2.x-one-page.txt it checks: what a v2.x game does that a v3.5 one does not.

use super::cache::Cache;
use super::config::{Config, Terrain};
use super::table::{Kinds, Piece, Point};
use super::test_support::{config, deployed_game, placed, prep_in, put_near, with_seat};
use crate::edition::Edition;
use crate::profile::Unit;

const GRUNTS: &str = "Grunts [5] Q5+ D5+\n5x Rifle (24\", A1)";

/// The one-page rules, or `None` (with the reason printed) where ../shared is absent;
/// under CI=true its absence fails.
fn rulebook() -> Option<String> {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/rules/gf-2.x-one-page.txt"));
    match text {
        Ok(t) => Some(t),
        Err(_) => {
            assert!(std::env::var("CI").as_deref() != Ok("true"), "../shared/rules is missing under CI=true");
            eprintln!("skipped citing: ../shared/rules/gf-2.x-one-page.txt is absent");
            None
        }
    }
}

/// Asserts the one-page rules say `sentence` (where the file is present).
fn cite(sentence: &str) {
    if let Some(text) = rulebook() {
        assert!(text.contains(sentence), "gf-2.x-one-page.txt no longer says {sentence:?}");
    }
}

#[test]
fn three_weapon_types_fire_at_three_targets() {
    cite("units with multiple weapon types may fire each type at a different target");
    // each type is more than enough to kill any one of the three lone models: the policy
    // sends each type at a target the ones before it left standing (v3.5: two targets at most)
    let gunner = "Gunner [1] Q2+ D4+ | Tough(6)\nRifle (24\", A12), Gun (24\", A12, AP(1)), Cannon (24\", A12, AP(2))";
    let lone = "Lone [1] Q4+ D4+ | 20pts\nPistol (12\", A1)";
    for (edition, most) in [(Edition::V2, 3), (Edition::V3_5, 2)] {
        let p = prep_in(edition, &[gunner], &[lone, lone, lone]);
        let c = config(vec![], vec![], vec![Point::new(36.0, 10.0)], vec![Point::new(26.0, 20.0), Point::new(36.0, 22.0), Point::new(46.0, 20.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let volleys = with_seat(&mut g, |s| super::policy::shots(s, (0, 0), false));
        let mut targets: Vec<usize> = volleys.iter().map(|v| v.target.1).collect();
        targets.sort_unstable();
        targets.dedup();
        // v2.x: one target per type; v3.5: "you may fire only at up to two different targets"
        assert!(if edition == Edition::V2 { targets.len() == most } else { targets.len() <= most }, "{edition}: {volleys:?}");
        let most = targets.len();
        let groups: usize = volleys.iter().map(|v| v.groups.len()).sum();
        assert_eq!(groups, 3, "{edition}: every weapon type fires once");
        // fired: one volley at each target, every one of them removed
        let mut touched = Default::default();
        assert!(g.shoot((0, 0), false, &mut touched));
        let fired = g.trace.as_ref().unwrap().iter().filter(|e| e.kind == "shoot").count();
        assert_eq!(fired, most, "{edition}");
        assert_eq!((0..3).filter(|&u| g.live((1, u)).gone).count(), most, "{edition}");
    }
}

#[test]
fn a_wavering_unit_blocks_a_seize_but_does_not_seize() {
    cite("Wavering units can’t seize markers, and if units from both sides are contesting a marker then it becomes neutral again.");
    let marker = Point::new(36.0, 24.0);
    for (edition, contests) in [(Edition::V2, true), (Edition::V3_5, false)] {
        let p = prep_in(edition, &[GRUNTS], &[GRUNTS]);
        let c = config(vec![], vec![marker], vec![Point::new(10.0, 5.0)], vec![Point::new(60.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        put_near(&mut g, (0, 0), marker, -1.0, 2.0);
        g.live_mut((0, 0)).shaken = true;
        g.score_round();
        assert_eq!(g.owner, [-1], "{edition}: a Wavering unit alone does not seize");
        put_near(&mut g, (1, 0), marker, 1.0, 2.0);
        g.score_round();
        assert_eq!(g.owner, [if contests { -1 } else { 1 }], "{edition}: an enemy beside a Wavering unit");
    }
}

#[test]
fn an_ambusher_seizes_on_its_arrival_round() {
    // v2.x's Ambush says nothing of markers (v3.5: "Units that deploy via Ambush can't seize
    // or contest objectives on the round they deploy")
    cite("At the start of any round after the first you may place the model anywhere over 9” away from enemy units.");
    let marker = Point::new(36.0, 24.0);
    let ambusher = "Stalkers [5] Q4+ D5+ | Ambush\n5x Rifle (24\", A1)";
    for (edition, seizes) in [(Edition::V2, true), (Edition::V3_5, false)] {
        let p = prep_in(edition, &[ambusher], &[GRUNTS]);
        let c = config(vec![], vec![marker], vec![Point::new(10.0, 5.0)], vec![Point::new(60.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        g.round = 2;
        put_near(&mut g, (0, 0), marker, -1.0, 2.0);
        g.live_mut((0, 0)).arrived = 2;
        g.score_round();
        assert_eq!(g.owner, [if seizes { 0 } else { -1 }], "{edition}");
    }
}

#[test]
fn a_scout_deploys_after_all_others_then_moves_12_inches_ignoring_terrain() {
    cite("Scout: This model may be deployed after all other units, and may then move by up to 12”, ignoring terrain.");
    cite("If both of the players have Scout they roll-off to see who deploys first, and then alternate in placing and moving them.");
    let scouts = "Scouts [5] Q4+ D5+ | Scout\n5x Rifle (24\", A1)";
    // a band of impassable terrain across the table just past both zones: a Scout moving
    // towards the markers crosses it as if it were not there
    let wall = |y0: f64| Piece::new("wall", 0.0, y0, 72.0, y0 + 1.0, Kinds { impassable: true, blocking: true, ..Kinds::default() }).unwrap();
    let (mut moved, mut across, mut roll_offs, mut firsts) = (0, 0, 0, [0; 2]);
    for seed in 0..20 {
        let events = deployed_game(Edition::V2, seed, &[GRUNTS, scouts], &[GRUNTS, scouts], vec![wall(13.0), wall(34.0)]);
        let last_other = events.iter().rposition(|e| e.kind == "deploy").unwrap();
        let first_scout = events.iter().position(|e| e.kind == "scout").expect("the Scouts deploy after the others");
        assert!(first_scout > last_other, "after all other units");
        // both players have Scouts: a roll-off decides who places first
        let roll = events.iter().position(|e| e.kind == "roll-off").expect("a roll-off");
        assert!(roll < first_scout);
        roll_offs += 1;
        firsts[events[first_scout].army as usize] += 1;
        for (i, m) in events.iter().enumerate().filter(|(_, e)| e.kind == "scout-move") {
            moved += 1;
            // each Scout moves right after it is placed, from where it was placed
            let placed = &events[i - 1];
            assert!(placed.kind == "scout" && placed.unit == m.unit && placed.army == m.army && placed.to == m.from, "seed {seed}");
            assert!(m.from.distance(m.to) <= 12.0 + 1e-6, "seed {seed}: moved {:.2}\"", m.from.distance(m.to));
            let (lo, hi) = (m.from.y.min(m.to.y), m.from.y.max(m.to.y));
            if (lo < 13.0 && hi > 14.0) || (lo < 34.0 && hi > 35.0) {
                across += 1;
            }
        }
    }
    assert_eq!(roll_offs, 20);
    assert!(firsts[0] > 0 && firsts[1] > 0, "either side may win the roll-off: {firsts:?}");
    assert!(moved >= 20, "the default policy moves its Scouts towards a marker ({moved} of 40)");
    assert!(across > 0, "a Scout's move ignores terrain: some crossed the wall");
    // v3.5: deployed straight into the 24" band, never moved after, no roll-off
    let events = deployed_game(Edition::V3_5, 3, &[GRUNTS, scouts], &[GRUNTS, scouts], vec![]);
    assert!(events.iter().any(|e| e.kind == "scout") && !events.iter().any(|e| e.kind == "scout-move" || e.kind == "roll-off"));
}

#[test]
fn fast_and_slow_move_as_the_one_page_rules_say() {
    cite("Fast: Move 9” when using Advance and 18” when using Rush/Charge.");
    cite("Slow: Move 4” when using Advance and 8” when using Rush/Charge.");
    let p = prep_in(Edition::V2, &["Bikes [3] Q4+ D4+ | Fast", "Walkers [3] Q4+ D4+ | Slow"], &[GRUNTS]);
    let [fast, slow] = [&p.armies[0][0].movement, &p.armies[0][1].movement];
    assert_eq!((fast.advance, fast.rush, fast.charge), (9.0, 18.0, 18.0));
    assert_eq!((slow.advance, slow.rush, slow.charge), (4.0, 8.0, 8.0));
}

#[test]
fn heroes_join_any_unit_in_v2_and_several_may_join_one() {
    cite("Hero: May be deployed as part of friendly units, and they may use his quality value for morale tests.");
    let parse = |t: &str, e| Unit::parse(t, e).unwrap();
    let tank = "Tank [1] Q4+ D2+ | Tough(6)";
    let (boss, seer) = ("Boss [1] Q3+ D4+ | Hero, Tough(3)", "Seer [1] Q4+ D5+ | Hero, Tough(9)");
    // a one-model unit, and a hero above Tough(6), and a second hero: v2.x only
    let one = parse(tank, Edition::V2).join(&parse(boss, Edition::V2), Edition::V2).unwrap();
    let two = one.join(&parse(seer, Edition::V2), Edition::V2).unwrap();
    assert_eq!(two.size(), 3);
    two.check(Edition::V2).unwrap();
    assert!(parse(tank, Edition::V3_5).join(&parse(boss, Edition::V3_5), Edition::V3_5).is_err());
    // the heroes are removed last: the tank's wounds first
    let alloc = crate::attack::allocation::Allocation::new(&two, Edition::V2);
    assert!(!alloc.runs[0].0.hero && alloc.runs[1].0.hero && alloc.runs[2].0.hero);
    // not an Aircraft ("must always move 18”-36”"): it keeps no unit's coherency
    let jet = parse("Jet [1] Q4+ D4+ | Aircraft, Tough(6)", Edition::V2);
    let err = jet.join(&parse(boss, Edition::V2), Edition::V2).unwrap_err().to_string();
    assert!(err.contains("Aircraft"), "{err}");
    // the game plays it
    let p = prep_in(Edition::V2, &["Boss [1] Q3+ D4+ | Hero, Tough(3)\n| Joined to:\nTank [1] Q4+ D2+ | Tough(6)"], &[GRUNTS]);
    assert_eq!(p.armies[0][0].models, 2);
}

#[test]
fn a_transport_carries_x_models_whatever_their_tough() {
    cite("Transport: May transport X other models.");
    cite("may use any action to disembark, but only move by up to 6”");
    let truck = "Truck [1] Q4+ D2+ | Tough(6), Transport(6)";
    let brutes = "Brutes [3] Q4+ D4+ | Tough(3)\n3x Axe (A2)";
    for (edition, fits) in [(Edition::V2, true), (Edition::V3_5, false)] {
        // 3 Tough(3) models: 3 spaces in v2.x, 9 in v3.5
        let p = prep_in(edition, &[truck, brutes], &[GRUNTS]);
        let c = config(vec![], vec![], vec![Point::new(36.0, 10.0), Point::new(36.0, 14.0)], vec![Point::new(36.0, 40.0)]);
        let mut cache = Cache::default();
        let g = placed(&p, &c, &mut cache);
        assert_eq!(g.may_board((0, 1), (0, 0)), fits, "{edition}");
    }
    // getting out: each model's centre at most 6" from the hull (v3.5: every model wholly within 6")
    for (edition, whole) in [(Edition::V2, false), (Edition::V3_5, true)] {
        let p = prep_in(edition, &[truck, "Lone [1] Q4+ D4+"], &[GRUNTS]);
        let c = config(vec![], vec![], vec![Point::new(36.0, 10.0), Point::new(20.0, 10.0)], vec![Point::new(36.0, 40.0)]);
        let mut cache = Cache::default();
        let g = placed(&p, &c, &mut cache);
        let (at, rt, r) = (g.live((0, 0)).pos, g.radius((0, 0)), g.radius((0, 1)));
        let spot = |d: f64| Point::new(at.x + rt + d, at.y);
        assert!(g.fully_within_exit((0, 1), spot(6.0 - r), (0, 0)), "{edition}");
        assert_eq!(g.fully_within_exit((0, 1), spot(6.0), (0, 0)), !whole, "{edition}");
        assert!(!g.fully_within_exit((0, 1), spot(6.01), (0, 0)), "{edition}");
    }
}

/// A shooter and a crowd of 20 already down to half, 12" apart, in `edition`.
fn crowd_at_half(edition: Edition) -> super::prepare::Prepared {
    prep_in(edition, &["Gunner [1] Q2+ D4+ | Tough(6)\nRifle (24\", A3)"], &["Crowd [20] Q6+ D6+\n20x Pistol (12\", A1)"])
}

#[test]
fn morale_is_tested_at_once_after_each_wounding_event() {
    cite("Whenever a unit takes wounds that leave it with half or less of its total size or tough value (for units with a single model), it must take a morale test.");
    // two wounding events of one activation at one unit at half (here two volleys, as a
    // spell and a volley are): each calls for its own test at once (v3.5: one test, at the
    // activation's end); the tests are taken where an activation takes them
    for (edition, tests) in [(Edition::V2, 2), (Edition::V3_5, 1)] {
        let p = crowd_at_half(edition);
        let c = config(vec![], vec![], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 22.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        let crowd = (1, 0);
        let half = g.info(crowd).alloc.apply(Default::default(), 10, 1);
        g.set_state(crowd, half);
        let mut touched = Default::default();
        let mut wounding = 0;
        for _ in 0..2 {
            let before = g.live(crowd).s;
            g.shoot((0, 0), false, &mut touched);
            wounding += usize::from(g.live(crowd).s != before);
            g.morale_now(&mut touched);
        }
        assert_eq!(wounding, 2, "both volleys wound (seed 7)");
        for &(who, before) in &touched {
            g.wound_morale(who, before);
        }
        let taken = g.trace.as_ref().unwrap().iter().filter(|e| e.kind == "morale").count();
        assert_eq!(taken, tests, "{edition}");
    }
}

#[test]
fn a_failed_test_leaves_a_unit_wavering() {
    cite("Take a quality test, and if failed it is Wavering until the end of its next activation.");
    let p = crowd_at_half(Edition::V2);
    let c = config(vec![], vec![], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 22.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    let half = g.info((1, 0)).alloc.apply(Default::default(), 10, 1);
    g.set_state((1, 0), half);
    let mut failed = false;
    for _ in 0..5 {
        let mut touched = Default::default();
        g.shoot((0, 0), false, &mut touched);
        g.morale_now(&mut touched);
        if let Some(e) = g.trace.as_ref().unwrap().iter().find(|e| e.kind == "morale" && e.detail.starts_with("failed")) {
            assert_eq!(e.detail, "failed: Wavering");
            assert!(g.live((1, 0)).shaken);
            failed = true;
            break;
        }
    }
    assert!(failed, "a Q6+ unit fails a test in 5 volleys (seed 7)");
}

#[test]
fn v2_games_are_played_seeded_and_break_no_rule() {
    // whole games, on the standard table, twice from one seed and on 1 and 2 threads: the same to the bit
    let army = [
        GRUNTS,
        "Scouts [5] Q4+ D5+ | Scout\n5x Rifle (24\", A1)",
        "Stalkers [5] Q4+ D5+ | Ambush\n5x Rifle (24\", A1)",
        "Bikes [3] Q4+ D4+ | Fast, Tough(3)\n3x Gun (18\", A2), 3x Blade (A2)",
        "Truck [1] Q4+ D2+ | Tough(6), Transport(6)\nGun (24\", A3)",
        JET,
    ];
    super::test_support::assert_seeded_and_clean(Edition::V2, &army);
}


#[test]
fn formations_keep_v2_coherency_up_to_a_bound() {
    cite("Unit members must stay within 2” of at least one other member, and within 6” of all other members.");
    use super::formation::{coherent, Formation};
    let c = super::rules::GameRules::V2.coherency;
    let fits = |n: usize| {
        let f = Formation::new(&vec![0.5; n], false);
        (0..=n as u32).all(|k| coherent(&f.alive(k, false).map(|(_, s)| (s.x, s.y, s.r)).collect::<Vec<_>>(), c.link, c.spread))
    };
    let largest = (1..=40).take_while(|&n| fits(n)).last().unwrap();
    eprintln!("the largest 1\"-base unit in v2.x coherency: {largest} models");
    assert!(largest >= 10, "a squad of 10 keeps 2\"/6\" coherency ({largest})");
}

const JET: &str = "Jet [1] Q4+ D4+ | Aircraft, Tough(6)\nGuns (24\", A4)";

#[test]
fn an_aircraft_moves_18_to_36_inches_leaves_the_table_and_comes_back_on_an_edge() {
    cite("When activated this model must always move 18”-36” in a straight line, and if it goes off-table then its activation ends and it may be placed back on any table edge.");
    let p = prep_in(Edition::V2, &[JET], &[GRUNTS]);
    let c = config(vec![], vec![], vec![Point::new(36.0, 24.0)], vec![Point::new(60.0, 40.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    assert_eq!(g.movement((0, 0)).advance, 36.0);
    // the policy's move: straight, 18" to 36"
    let from = g.live((0, 0)).pos;
    let path = with_seat(&mut g, |s| super::policy::aircraft_path(s, (0, 0))).expect("a move");
    assert!((18.0 - 1e-9..=36.0 + 1e-9).contains(&path.length), "{path:?}");
    assert!((from.distance(path.to) - path.length).abs() < 1e-9 && path.via.is_empty(), "a straight line: {path:?}");
    // 18" towards the near long edge, 6" away: off the table
    g.live_mut((0, 0)).pos = Point::new(36.0, 6.0);
    let off = super::paths::Path::straight(Point::new(36.0, -12.0), 18.0);
    assert!(g.goes_off_table((0, 0), &off));
    g.fly_off((0, 0), off, 36.0);
    let events = g.trace.as_ref().unwrap();
    let (left, back) = (events.iter().find(|e| e.kind == "off-table").expect("off-table"), events.iter().find(|e| e.kind == "re-enter").expect("re-enter"));
    assert_eq!((left.from, left.to), (Point::new(36.0, 6.0), Point::new(36.0, -12.0)));
    // placed back where its player chose, touching an edge with its whole base on the table
    let at = g.live((0, 0)).pos;
    assert_eq!(back.to, at);
    assert!(g.on_an_edge((0, 0), at), "{at:?}");
    assert_eq!(g.violations, 0);
    // the spot is the policy's pick among every edge: the one worth most to it
    let picked = with_seat(&mut g, |s| super::policy::reentry_spot(s, (0, 0)));
    assert_eq!(picked, at);
    // v3.5: Aircraft never leave the table ("can't move into the table edges")
    let p = prep_in(Edition::V3_5, &[JET], &[GRUNTS]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    g.live_mut((0, 0)).pos = Point::new(36.0, 6.0);
    assert!(!g.goes_off_table((0, 0), &super::paths::Path::straight(Point::new(36.0, -12.0), 18.0)));
}

#[test]
fn an_aircraft_that_leaves_the_table_ends_its_activation() {
    // "if it goes off-table then its activation ends": an Aircraft with no target in reach on
    // the table, near the edge, flies off to come back by its target, and does not shoot
    let p = prep_in(Edition::V2, &["Jet [1] Q4+ D4+ | Aircraft, Tough(3)\nGuns (12\", A4)"], &["Lone [1] Q4+ D4+ | 20pts"]);
    let c = config(vec![], vec![], vec![Point::new(36.0, 3.0)], vec![Point::new(66.0, 44.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    g.activate((0, 0));
    let events = g.trace.as_ref().unwrap();
    let i = events.iter().position(|e| e.kind == "off-table").expect("it flies off the table");
    assert_eq!(events[i + 1].kind, "re-enter");
    assert!(!events[i..].iter().any(|e| e.kind == "shoot"), "no shooting after leaving");
    let at = g.live((0, 0)).pos;
    assert!(g.on_an_edge((0, 0), at) && g.gap((0, 0), (1, 0)) <= 12.0, "back on an edge within range of its target: {at:?}");
    assert_eq!(g.violations, 0);
    // v3.5: it stays on the table
    let p = prep_in(Edition::V3_5, &["Jet [1] Q4+ D4+ | Aircraft, Tough(3)\nGuns (12\", A4)"], &["Lone [1] Q4+ D4+ | 20pts"]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    g.activate((0, 0));
    assert!(!g.trace.as_ref().unwrap().iter().any(|e| e.kind == "off-table"));
}

#[test]
fn an_aircraft_seizes_and_contests_markers_in_v2() {
    // no v2.x sentence keeps an Aircraft off a marker (v3.5: "can't seize or contest objectives")
    cite("This model doesn’t interact physically with other models and terrain, and can’t be moved into contact with.");
    let marker = Point::new(36.0, 24.0);
    for (edition, counts) in [(Edition::V2, true), (Edition::V3_5, false)] {
        let p = prep_in(edition, &[JET], &[GRUNTS]);
        let c = config(vec![], vec![marker], vec![Point::new(10.0, 5.0)], vec![Point::new(60.0, 44.0)]);
        let mut cache = Cache::default();
        let mut g = placed(&p, &c, &mut cache);
        put_near(&mut g, (0, 0), marker, -1.0, 2.0);
        g.score_round();
        assert_eq!(g.owner, [if counts { 0 } else { -1 }], "{edition}: alone");
        put_near(&mut g, (1, 0), marker, 1.0, 2.0);
        g.owner = vec![1];
        g.score_round();
        assert_eq!(g.owner, [if counts { -1 } else { 1 }], "{edition}: beside an enemy");
    }
}

#[test]
fn measurements_to_an_aircraft_count_12_inches_more_unless_anti_air() {
    cite("Non-aircraft units count as being an extra 12” away when measuring and get -1 to shooting.");
    cite("Anti-Air: This unit doesn’t count as being an extra 12” away");
    let flak = "Flak [3] Q4+ D4+ | Anti-Air\n3x Flak (24\", A2)";
    for (edition, further) in [(Edition::V2, 12.0), (Edition::V3_5, 0.0)] {
        let p = prep_in(edition, &[JET], &[GRUNTS, flak, JET]);
        let c = config(vec![], vec![], vec![Point::new(36.0, 24.0)], vec![Point::new(20.0, 40.0), Point::new(50.0, 40.0), Point::new(36.0, 44.0)]);
        let mut cache = Cache::default();
        let g = placed(&p, &c, &mut cache);
        assert_eq!(g.measured_further((1, 0), (0, 0)), further, "{edition}: a unit on the ground");
        assert_eq!(g.measured_further((1, 1), (0, 0)), 0.0, "{edition}: Anti-Air");
        assert_eq!(g.measured_further((1, 2), (0, 0)), 0.0, "{edition}: an Aircraft");
        assert_eq!(g.measured_further((0, 0), (1, 0)), 0.0, "{edition}: from the Aircraft");
    }
}

/// A v2.x spell in the books' form: "Name (number): Target enemy unit within `range`" takes
/// `hits` hits with AP(1)", its number the D6+X to reach.
fn bolt(number: u8, range: u32, hits: u32) -> crate::loaders::army_forge::Spells {
    use crate::rules::spells::{Spell, SpellEffect, Targets};
    use crate::rules::{Rating, Rule};
    let spell = Spell {
        tokens: number,
        targets: Targets { enemy: true, model: false, count: 1, range },
        effect: SpellEffect::Hits { hits, rules: vec![Rule::new("AP", Some(Rating::Number(1)))], roll_for: None },
    };
    let effect = format!("Target enemy unit within {range}\" takes {hits} hits with AP(1).");
    vec![crate::loaders::army_forge::SpellDefinition { name: "Bolt".into(), tokens: Some(i64::from(number)), effect, spell: Some(spell) }].into()
}

/// Armies in `edition` with each unit's spells (`spells[army]`: every unit of the army gets them).
fn prep_spells(edition: Edition, a: &[&str], b: &[&str], spells: [&crate::loaders::army_forge::Spells; 2]) -> super::prepare::Prepared {
    let parse = |v: &[&str]| v.iter().map(|t| Unit::parse(t, edition).unwrap()).collect::<Vec<_>>();
    let (a, b) = (parse(a), parse(b));
    let (sa, sb) = (vec![spells[0].clone(); a.len()], vec![spells[1].clone(); b.len()]);
    super::prepare::Prepared::with_spells([&a, &b], [&sa, &sb], edition, [2.0, 2.0]).unwrap()
}

#[test]
fn the_cast_chance_against_one_blocker_is_the_enumeration_of_every_pair_of_dice() {
    cite("Pick a spell and a target in line of sight and roll D6+X. If the result is equal or higher than the number in brackets you may resolve the effects.");
    cite("Enemy psychics within 18” and line of sight of the caster may roll D6+X at the same time, and if the result is higher the spell is blocked.");
    cite("Regardless of modifiers, rolls of 6 are always successes, and rolls of 1 are always fails.");
    use super::psychic_reach::psychic_cast_chance;
    for x in 0..=4u8 {
        for b in 0..=4u8 {
            for number in 2..=12u8 {
                // the 36 pairs of the caster's die and the blocker's
                let mut cast = 0;
                for c in 1..=6u8 {
                    for d in 1..=6u8 {
                        let reaches = c == 6 || (c != 1 && c + x >= number);
                        if reaches && d + b <= c + x {
                            cast += 1;
                        }
                    }
                }
                let exact = f64::from(cast) / 36.0;
                assert!((psychic_cast_chance(x, number, &[b]) - exact).abs() < 1e-12, "X {x}, blocker {b}, number {number}");
            }
            // unblocked: the caster's die alone
            let alone = (1..=6u8).filter(|&c| c == 6 || (c != 1 && c + x >= 5)).count() as f64 / 6.0;
            assert!((psychic_cast_chance(x, 5, &[]) - alone).abs() < 1e-12);
        }
    }
    // two blockers: each must fail to roll higher
    assert!((psychic_cast_chance(2, 4, &[1, 1]) - (1..=6u32).filter(|&c| c == 6 || (c != 1 && c + 2 >= 4)).map(|c| ((1..=6u32).filter(|&d| d + 1 <= c + 2).count() as f64 / 6.0).powi(2)).sum::<f64>() / 6.0).abs() < 1e-12);
}

#[test]
fn a_psychic_that_blocks_cannot_cast_later_in_the_same_round() {
    cite("Psychics may only either try to cast or try to block a spell each round.");
    // the enemy seer has no target in its 6" range: it blocks the first spell at its side,
    // and when its own activation comes, with a target in reach, it may not cast
    let seer = "Seer [1] Q4+ D4+ | 60pts | Psychic(2), Tough(3)";
    let (long, short) = (bolt(4, 24, 3), bolt(4, 6, 3));
    let p = prep_spells(Edition::V2, &[seer], &[seer, "Grunts [5] Q5+ D5+ | 50pts\n5x Rifle (24\", A1)"], [&long, &short]);
    let c = config(vec![], vec![], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 24.0), Point::new(20.0, 24.0)]);
    let mut cache = Cache::default();
    let mut g = placed(&p, &c, &mut cache);
    assert_eq!(g.may_block((0, 0)), vec![(1, 0)]);
    g.activate((0, 0));
    let events = g.trace.as_ref().unwrap();
    assert!(events.iter().any(|e| e.kind == "psychic-block" && e.army == 1 && e.unit == 0), "the enemy seer blocks");
    assert!(g.live((1, 0)).psychic_tried && g.live((0, 0)).psychic_tried);
    // its target comes within 6": still no cast this round (and a try left next round)
    g.live_mut((1, 0)).pos = Point::new(36.0, 17.0);
    let with_target = g.info((1, 0)).casting.spells.iter().any(|s| g.spell_target((1, 0), s, (0, 0)));
    assert!(with_target);
    let before = g.trace.as_ref().unwrap().len();
    g.activate((1, 0));
    assert!(!g.trace.as_ref().unwrap()[before..].iter().any(|e| e.kind == "cast"), "it tried to block this round");
    g.live_mut((1, 0)).psychic_tried = false;
    g.live_mut((1, 0)).activated = false;
    g.activate((1, 0));
    assert!(g.trace.as_ref().unwrap()[before..].iter().any(|e| e.kind == "cast"), "a new round's try");
    assert_eq!(g.violations, 0);
}

#[test]
fn a_spell_and_a_volley_at_one_unit_in_one_activation_give_two_morale_tests() {
    cite("Whenever a unit takes wounds that leave it with half or less of its total size or tough value (for units with a single model), it must take a morale test.");
    // v2.x: a test after the spell's wounds and another after the volley's; v3.5 (a Caster
    // with the same spell): one, at the end of the activation
    let spell = bolt(2, 24, 6);
    let none = bolt(2, 0, 0).iter().take(0).cloned().collect::<Vec<_>>().into();
    for (edition, seer, tests) in [(Edition::V2, "Seer [1] Q4+ D4+ | Psychic(2), Tough(3)\nRifle (24\", A6)", 2), (Edition::V3_5, "Seer [1] Q4+ D4+ | Caster(2), Tough(3)\nRifle (24\", A6)", 1)] {
        let p = prep_spells(edition, &[seer], &["Crowd [20] Q6+ D6+ | 100pts"], [&spell, &none]);
        let mut both = 0;
        for seed in 0..10 {
            let mut c = config(vec![], vec![], vec![Point::new(36.0, 10.0)], vec![Point::new(36.0, 22.0)]);
            c.seed = seed;
            let mut cache = Cache::default();
            let mut g = placed(&p, &c, &mut cache);
            let half = g.info((1, 0)).alloc.apply(Default::default(), 10, 1);
            g.set_state((1, 0), half);
            g.live_mut((0, 0)).tokens = 6;
            g.activate((0, 0));
            let events = g.trace.as_ref().unwrap();
            let wounded = |kind: &str| events.iter().any(|e| e.kind == kind && e.wounds > 0);
            // (where the spell was cast and both wounded the unit at half)
            if wounded("spell-hits") && wounded("shoot") && !g.live((1, 0)).gone {
                both += 1;
                let taken = events.iter().filter(|e| e.kind == "morale").count();
                assert_eq!(taken, tests, "{edition}, seed {seed}");
            }
        }
        assert!(both >= 3, "{edition}: the spell and the volley both wound in {both} of 10 games");
    }
}

#[test]
fn a_psychic_without_spells_is_reported_as_not_casting() {
    cite("Psychic: May cast one spell during its activation at any point, before attacking.");
    let p = prep_in(Edition::V2, &["Seer [1] Q4+ D4+ | Psychic(2), Tough(3)"], &[GRUNTS]);
    assert!(p.armies[0][0].unmodelled.iter().any(|r| r == "Psychic (no spells given: it does not cast)"), "{:?}", p.armies[0][0].unmodelled);
    // in v3.5, Psychic is no rule of the game at all: reported by name
    let spell = bolt(4, 24, 3);
    let p = prep_spells(Edition::V2, &["Seer [1] Q4+ D4+ | Psychic(2), Tough(3)"], &[GRUNTS], [&spell, &spell]);
    assert!(p.armies[0][0].unmodelled.is_empty(), "{:?}", p.armies[0][0].unmodelled);
    assert_eq!(p.armies[0][0].casting.spells.len(), 1);
}

#[test]
fn a_spell_at_an_aircraft_counts_12_inches_more() {
    cite("Non-aircraft units count as being an extra 12” away when measuring");
    let spell = bolt(4, 18, 3);
    let p = prep_spells(Edition::V2, &["Seer [1] Q4+ D4+ | Psychic(2), Tough(3)"], &[JET, GRUNTS], [&spell, &spell]);
    let c = config(vec![], vec![], vec![Point::new(36.0, 10.0)], vec![Point::new(30.0, 20.0), Point::new(42.0, 20.0)]);
    let mut cache = Cache::default();
    let g = placed(&p, &c, &mut cache);
    let s = &g.info((0, 0)).casting.spells[0];
    assert!(g.gap((0, 0), (1, 0)) < 10.0 && g.gap((0, 0), (1, 1)) < 10.0);
    assert!(!g.spell_target((0, 0), s, (1, 0)), "the Aircraft counts 12\" further: out of 18\"");
    assert!(g.spell_target((0, 0), s, (1, 1)));
}

#[test]
fn v2_games_with_psychics_and_aircraft_are_seeded_and_break_no_rule() {
    let army = [
        "Seer [1] Q4+ D4+ | 60pts | Psychic(2), Tough(3)\nPistol (12\", A1)",
        "Grunts [5] Q5+ D5+ | 50pts\n5x Rifle (24\", A1)",
        "Jet [1] Q4+ D4+ | 150pts | Aircraft, Tough(6)\nGuns (24\", A4)",
        "Adept [1] Q4+ D4+ | 40pts | Psychic(1)\nPistol (12\", A1)",
    ];
    let spell = bolt(4, 24, 3);
    let p = prep_spells(Edition::V2, &army, &army, [&spell, &spell]);
    let c = Config { trace: true, ..Config::new(5, Terrain::Standard) };
    let one = super::simulate(&p, &c, 0, 12, Some(1)).unwrap();
    let two = super::simulate(&p, &c, 0, 12, Some(2)).unwrap();
    assert_eq!(one.records, two.records);
    assert_eq!(one.violations, 0, "{:?}", one.first_violation);
    let events: Vec<&super::config::Event> = one.traces.iter().flat_map(|t| &t.events).collect();
    for kind in ["cast", "psychic-block", "spell-hits"] {
        assert!(events.iter().any(|e| e.kind == kind), "no {kind} in 12 games");
    }
}

#[test]
fn units_give_no_cover_in_v2() {
    cite("Units that shoot at enemies with most models in or behind cover get –1 to shooting.");
    // a lone target seen past a one-model unit standing on the line from the shooters'
    // middle: behind a sight blocker in v3.5 ("they are sight blockers that can provide other
    // units with cover"), in the open in v2.x, whose cover is terrain
    let shooters = "Shooters [10] Q4+ D5+\n10x Rifle (30\", A1)";
    for (edition, covered) in [(Edition::V2, false), (Edition::V3_5, true)] {
        let p = prep_in(edition, &[shooters, "Pillar [1] Q4+ D4+"], &["Lone [1] Q4+ D4+"]);
        let c = config(vec![], vec![], vec![Point::new(36.0, 5.0), Point::new(36.0, 15.0)], vec![Point::new(36.0, 25.0)]);
        let mut cache = Cache::default();
        let g = placed(&p, &c, &mut cache);
        let sight = g.sight((0, 0), (1, 0));
        assert!(sight.visible, "{edition}: its side models see past the pillar");
        assert_eq!(sight.cover, covered, "{edition}");
    }
}
