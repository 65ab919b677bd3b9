//! What the game's tests share.

use super::cache::Cache;
use super::play;
use super::decisions::Player;
use super::policy::{Bot, Seat};
use super::prepare::Prepared;
use super::table::{Piece, Point};
use super::live::Id;
use super::config::{Config, Policy, Terrain};
use crate::edition::Edition;
use crate::profile::Unit;

/// Two armies from units in the rulebook's notation, ready to play.
pub fn prep(a: &[&str], b: &[&str]) -> Prepared {
    prep_in(Edition::V3_5, a, b)
}

/// `prep`, in another edition.
pub fn prep_in(edition: Edition, a: &[&str], b: &[&str]) -> Prepared {
    let parse = |v: &[&str]| v.iter().map(|t| Unit::parse(t, edition).unwrap()).collect::<Vec<_>>();
    let (a, b) = (parse(a), parse(b));
    Prepared::new([&a, &b], edition, [2.0, 2.0]).unwrap()
}

/// A traced game on fixed terrain with fixed markers and fixed deployments, army A first.
pub fn config(terrain: Vec<Piece>, objectives: Vec<Point>, a: Vec<Point>, b: Vec<Point>) -> Config {
    Config {
        seed: 7,
        terrain: Terrain::Fixed(terrain),
        objectives: Some(objectives),
        policies: [Policy::DEFAULT; 2],
        deployment: Some([a, b]),
        line_up: None,
        first: Some(0),
        paired: false,
        rounds: 4,
        trace: true,
        profile: false,
    }
}

/// A player for a test's game (leaked: a test makes a handful).
pub fn bot() -> &'static mut Bot {
    Box::leak(Box::default())
}

/// A game played by the policy (`Bot`), as the tests play it.
pub type Game<'a> = play::Game<'a, Bot>;

/// The policy's handle on `g`, for a test that asks it directly (a fresh bot: its memo and
/// its claims on markers are empty).
pub fn with_seat<T>(g: &mut Game, f: impl FnOnce(&mut Seat) -> T) -> T {
    let mut bot = Bot::default();
    bot.round_begins(&g.view);
    f(&mut bot.seat(&g.view, &mut g.rng))
}

/// A game deployed as `config` says, at the start of round 1.
pub fn placed<'a>(prep: &'a Prepared, config: &'a Config, cache: &'a mut Cache) -> Game<'a> {
    let mut g = Game::new(prep, config, 0, cache, bot());
    g.deploy();
    g.round = 1;
    g
}

/// Puts unit `id` so that its closest model is `inches` from `marker`, on the side `side`.
pub fn put_near(g: &mut Game, id: Id, marker: Point, side: f64, inches: f64) {
    let r = g.radius(id);
    g.live_mut(id).pos = Point::new(marker.x, marker.y + side * (r + inches));
    for _ in 0..5 {
        let closest = g.models(id).map(|(_, q, r)| q.distance(marker) - r).fold(f64::INFINITY, f64::min);
        g.live_mut(id).pos.y -= side * (closest - inches);
    }
}

/// The events of a game of `a` against `b` in `edition` up to the end of deployment, the
/// players deploying, on `terrain` with two markers.
pub fn deployed_game(edition: Edition, seed: u64, a: &[&str], b: &[&str], terrain: Vec<Piece>) -> Vec<super::config::Event> {
    let p = prep_in(edition, a, b);
    let c = Config {
        seed,
        terrain: Terrain::Fixed(terrain),
        objectives: Some(vec![Point::new(20.0, 24.0), Point::new(52.0, 24.0)]),
        policies: [Policy::DEFAULT; 2],
        deployment: None,
        line_up: None,
        first: Some(0),
        paired: false,
        rounds: 1,
        trace: true,
        profile: false,
    };
    let mut cache = Cache::default();
    let mut g = Game::new(&p, &c, 0, &mut cache, bot());
    assert!(g.deploy().is_none(), "everyone deployed");
    g.trace.take().expect("traced")
}

/// Whole games of `army` against itself in `edition` on the standard table, twice from one
/// seed on 1 and 2 threads: the same to the bit, no rule broken, some games decided.
pub fn assert_seeded_and_clean(edition: Edition, army: &[&str]) {
    let p = prep_in(edition, army, army);
    let c = Config::new(11, Terrain::Standard);
    let one = super::simulate(&p, &c, 0, 40, Some(1)).unwrap();
    let two = super::simulate(&p, &c, 0, 40, Some(2)).unwrap();
    assert_eq!(one.records, two.records);
    assert_eq!(one.violations, 0, "{:?}", one.first_violation);
    assert!(one.records.iter().any(|r| r.winner != 0), "games are decided");
}
