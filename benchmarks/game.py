"""Benchmark: full games (issue 7 target: at least 2,000 games/s for two ~2,000-point armies
of 10 to 15 units on this 2-core machine), with the share of time in line of sight,
movement and dice.

The armies are built from two real v3.5.1 books in ``../shared`` (each unit's default
loadout, taken in a seeded order until the army holds 10 to 15 units and about 2,000
points); without ``../shared`` the example army plays itself.

1. Games per second with 1 and 2 threads (the 1-thread run is the reference measured in
   the same run: the ratio is the parallel speed-up).
2. Time shares (timers on: a separate run, since the clocks themselves cost time).

    python benchmarks/game.py [--games N]
"""

from __future__ import annotations

import argparse
import warnings
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import oprstats  # noqa: E402
from oprstats._game import _profile  # noqa: E402

BOOKS = Path(__file__).resolve().parents[2] / "shared" / "data" / "opr" / "grimdark-future" / "3.5.1"


def army_from_book(path: Path, points: int = 2000, seed: int = 0) -> list:
    """10 to 15 units of one book, at most ``points`` points (default loadouts), in a seeded
    order, keeping room for the cheapest units until there are 10."""
    book = oprstats.load_army_book(path)
    units = [u for u in book.units if u.cost]
    cheapest = min(u.cost for u in units)
    rng = random.Random(seed)
    rng.shuffle(units)
    army, total = [], 0
    for u in units * 3:
        room = points - total - max(0, 9 - len(army)) * cheapest
        if u.cost <= room and len(army) < 15:
            army.append(u)
            total += u.cost
    return army


def armies() -> tuple:
    if BOOKS.is_dir():
        books = sorted(BOOKS.glob("*.json"))
        a = army_from_book(next(p for p in books if "battle-brothers" in p.name), seed=1)
        b = army_from_book(next(p for p in books if "alien-hives" in p.name), seed=2)
        return a, b, "Battle Brothers vs Alien Hives (real v3.5.1 books)"
    army = list(oprstats.example_army())
    return army, army, "the example army against itself (../shared is absent)"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20_000)
    args = parser.parse_args()
    a, b, label = armies()
    print(f"Armies: {label}")
    for name, army in (("A", a), ("B", b)):
        print(f"  {name}: {len(army)} units, {sum(u.cost for u in army)} pts: " + ", ".join(u.name for u in army))
    # the rules the game ignores are named once (the warm-up's warning), not once per run
    warnings.simplefilter("once", UserWarning)
    oprstats.simulate(a, b, games=200, seed=0, progress=False)  # warm up
    rates = {}
    for threads in (1, 2):
        best = float("inf")
        for rep in range(3):
            start = time.perf_counter()
            r = oprstats.simulate(a, b, games=args.games, seed=rep, threads=threads, progress=False)
            best = min(best, time.perf_counter() - start)
        rates[threads] = args.games / best
        print(f"1. {threads} thread(s): {rates[threads]:,.0f} games/s ({args.games:,} games in {best:.2f} s)")
    print(f"   2 threads / 1 thread: {rates[2] / rates[1]:.2f}x; target >= 2,000 games/s on 2 cores: "
          f"{'met' if rates[2] >= 2000 else 'NOT met'}")
    print(f"   last run: {r}")
    raw = _profile(a, b, games=args.games // 2, seed=7, threads=1)
    t = raw["timers"]
    rest = t["total"] - t["line_of_sight"] - t["movement"] - t["dice"]
    print("2. Time shares (1 thread, timers on):")
    for key in ("line_of_sight", "movement", "dice"):
        print(f"   {key:14s} {t[key] / t['total']:6.1%}")
    print(f"   {'other':14s} {rest / t['total']:6.1%}  (policy, shot plans, bookkeeping)")
    print(f"   dice rolled per game: {raw['dice'] / (args.games // 2):,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
