//! A duel's game loop allocates next to nothing (the speed issue: "no allocation in the game
//! loop"): short lists live on the stack and a game's lists are handed on to the next. This
//! binary counts every allocation with a global allocator of its own.

use oprstats::game::prepare::Prepared;
use oprstats::game::{simulate, Config, Terrain};
use oprstats::{Edition, Unit};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicU64, Ordering};

struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.realloc(ptr, layout, size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

#[test]
fn a_duel_game_allocates_at_most_twice() {
    // a shooting unit against a melee one: moves, shots, charges, melees and morale tests
    let a = [Unit::parse("Troopers [10] Q4+ D4+\n10x Rifle (24\", A1)\n10x CCW (A1)", Edition::V3_5).unwrap()];
    let b = [Unit::parse("Brutes [5] Q4+ D4+ | Tough(3), Furious\n5x Claws (A3, AP(1))", Edition::V3_5).unwrap()];
    let prep = Prepared::new([&a, &b], Edition::V3_5, [2.0, 2.0]).unwrap();
    let config = Config::new(1, Terrain::Fixed(Vec::new()));
    // the thread's caches (shot plans, melees, the last game's lists) filled first
    simulate(&prep, &config, 0, 400, Some(1)).unwrap();
    let games = 2_000;
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let out = simulate(&prep, &config, 400, games, Some(1)).unwrap();
    let per_game = (ALLOCATIONS.load(Ordering::Relaxed) - before) as f64 / games as f64;
    assert_eq!(out.records.len() as u64, games);
    // left: a chunk's totals every 16 games, the growing list of records, a charge's options
    // (54 a game before short lists and handed-on lists)
    assert!(per_game < 2.0, "{per_game:.1} allocations a game");
}
