"""Benchmark: full games (issue 15 targets: at least 4,000 games/s with two 10-unit armies
and 2,000 with two 15-unit armies of about 2,000 points, on this 2-core machine with 2
threads; issue 17: 2,000 games/s for two 10-unit armies with transports and casters), with
the share of time in line of sight, movement, dice and spells.

The armies are built from two real v3.5.1 books in ``../shared`` (each unit's default
loadout, taken in a seeded order until the army holds the wanted number of units and about
2,000 points, with two heroes joined to units of several models, as players field them);
without ``../shared`` the example army plays itself.

1. Games per second with 1 and 2 threads, for 10-unit and 15-unit armies (the 1-thread run
   is the reference measured in the same run: the ratio is the parallel speed-up), after
   the machine yardstick of ``machine.py`` (how fast this machine is as the run starts).
2. Time shares (timers on: a separate run, since the clocks themselves cost time).

    python benchmarks/game.py [--games N]
"""

from __future__ import annotations

import argparse
import warnings
from typing import Optional
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import oprstats  # noqa: E402
from oprstats._game import _profile  # noqa: E402

from benchmarks.machine import describe  # noqa: E402

BOOKS = Path(__file__).resolve().parents[2] / "shared" / "data" / "opr" / "grimdark-future" / "3.5.1"
# Firefight's own books (the same factions, priced for Firefight): a Firefight case plays these
FIREFIGHT_BOOKS = BOOKS.parents[1] / "grimdark-future-firefight" / "3.5.1"


def army_from_book(path: Path, units: int, points: int = 2050, seed: int = 0, first: tuple = (), edition: Optional[str] = None) -> list:
    """``units`` units of one book (a joined hero counts with its unit) of at most ``points``
    points (default loadouts), in a seeded order (the units named in ``first`` first), with
    two heroes (Tough(6) or less) joined to units of several models and other heroes on their
    own; ``edition``: the book read in another edition than its own."""
    book = oprstats.load_army_book(path, edition=edition)
    pool = [u for u in book.units if u.cost]
    rng = random.Random(seed)
    rng.shuffle(pool)
    pool.sort(key=lambda u: u.name not in first)
    is_hero = lambda u: u.size == 1 and u.models[0].is_hero  # noqa: E731
    # (Firefight's heroes never join: each is a unit of its own)
    heroes = [u for u in pool if is_hero(u) and u.tough <= 6][:0 if book.edition == "firefight-3.2" else 2]
    bodies = [u for u in pool if not is_hero(u) and u.size > 1]
    army, total = [], 0
    for hero, body in zip(heroes, bodies):
        joined = body.join(hero)
        army.append(joined)
        total += joined.cost
    cheapest = min(u.cost for u in pool)
    # no unit much over the average share, so the army reaches its size
    pool = [u for u in pool if u.cost <= 2.5 * points / units]
    for u in (pool * 10):
        if len(army) >= units:
            break
        room = points - total - max(0, units - 1 - len(army)) * cheapest
        if u not in heroes and u.cost <= room:
            army.append(u)
            total += u.cost
    return army


def armies(units: int, carried: bool = False, edition: Optional[str] = None) -> tuple:
    """Two armies of ``units`` units; ``carried``: each with a transport, and Alien Hives with
    its Synapse Tyrant (Caster(3)) too; ``edition``: the books read in another edition."""
    if BOOKS.is_dir():
        firefight = edition == "firefight-3.2"
        books = sorted((FIREFIGHT_BOOKS if firefight else BOOKS).glob("*.json"))
        # Firefight's units cost about a tenth of GF's: its armies of as many units are smaller
        points = 60 * units if firefight else 2050
        a = army_from_book(next(p for p in books if "battle-brothers" in p.name), units, points=points, seed=1,
                           first=("APC",) if carried else (), edition=edition)
        b = army_from_book(next(p for p in books if "alien-hives" in p.name), units, points=points, seed=2,
                           first=("Synapse Tyrant", "Invasion Carrier Spore") if carried else (), edition=edition)
        what = ", with transports and casters" if carried else ""
        return a, b, f"Battle Brothers vs Alien Hives (real {'Firefight ' if firefight else ''}v3.5.1 books){what}"
    army = list(oprstats.example_army())
    return army, army, "the example army against itself (../shared is absent)"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20_000)
    args = parser.parse_args()
    # the rules the game ignores are named once (the warning of a warm-up), not once per run
    warnings.simplefilter("once", UserWarning)
    print(describe())
    for units, target, carried in ((10, 4000, False), (15, 2000, False), (10, 2000, True)):
        a, b, label = armies(units, carried)
        print(f"Armies of {units} units: {label}")
        for name, army in (("A", a), ("B", b)):
            print(f"  {name}: {len(army)} units, {sum(u.cost for u in army)} pts: " + ", ".join(u.name for u in army))
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
        print(f"   2 threads / 1 thread: {rates[2] / rates[1]:.2f}x; target >= {target:,} games/s with 2 threads: "
              f"{'met' if rates[2] >= target else 'NOT met'}")
        print(f"   last run: {r}")
        raw = _profile(a, b, games=args.games // 2, seed=7, threads=1)
        t = raw["timers"]
        rest = t["total"] - t["line_of_sight"] - t["movement"] - t["dice"]
        inside = sum(e["kind"] in ("embarked", "embark") for tr in oprstats.simulate(a, b, games=50, seed=9, trace=True, progress=False).traces for e in tr.events)
        print(f"   units carried by transports in 50 traced games: {inside}")
        print("2. Time shares (1 thread, timers on):")
        for key in ("line_of_sight", "movement", "dice"):
            print(f"   {key:14s} {t[key] / t['total']:6.1%}")
        print(f"   {'other':14s} {rest / t['total']:6.1%}  (policy, shot plans, bookkeeping)")
        print(f"   {'spells':14s} {t['spells'] / t['total']:6.1%}  (casting: choosing, helping, rolling; its sight checks are also in line_of_sight)")
        print(f"   {'transports':14s} {t['transports'] / t['total']:6.1%}  (getting in and out, wrecks; partly also in movement)")
        print(f"   dice rolled per game: {raw['dice'] / (args.games // 2):,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
