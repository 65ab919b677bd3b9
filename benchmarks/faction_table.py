"""What ``faction_table`` costs above the games it plays (issue 42: at most 10%).

A table of the 43 real books with 3 drawn lists each (8,127 pairings) is played with
``faction_table``; then the very same ``simulate`` calls (the same lists, seeds and games)
are made directly. The two are interleaved over several rounds, so both see the same
weather on this shared machine (its speed drifts up to 2x within a minute); the figure is
the median ratio of the table's time to the plain calls' time. The time per game of each is
printed beside it. Few games a pairing make the bookkeeping's share as large as it gets (the
bootstrap and the drawing of lists do not grow with the games). As the weather can still
tilt one round, the bookkeeping is also timed alone: the same table with each pairing's
games replaced by a fixed outcome. Each ``simulate`` call
prepares its two armies first (about 40 ms for two 2,000-point lists): at 2 pairs of games a
pairing that is most of the time, in both columns.

    python benchmarks/faction_table.py [--games 2] [--rounds 3] [--books 43] [--threads 2]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.machine import describe

BOOKS = Path(__file__).resolve().parents[2] / "shared" / "data" / "opr" / "grimdark-future" / "3.5.1"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2, help="pairs of games a pairing")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--books", type=int, default=43)
    parser.add_argument("--lists", type=int, default=3)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()

    import oprstats
    from oprstats import _factions

    warnings.simplefilter("ignore")
    books = [oprstats.load_army_book(p) for p in sorted(BOOKS.glob("*.json"))[: args.books]]
    print(describe())
    seed = 42

    def table() -> tuple[float, object]:
        start = time.perf_counter()
        t = oprstats.faction_table(books, lists=args.lists, games=args.games, seed=seed, threads=args.threads, progress=False)
        return time.perf_counter() - start, t

    def plain(t) -> float:
        # the table's own simulate calls, seeded as it seeds them, with nothing around them
        root = np.random.SeedSequence(seed).spawn(3)[1]
        pools = [t.lists[name] for name in t.names]
        calls = []
        for i in range(len(pools)):
            for j in range(i + 1, len(pools)):
                for a, army_a in enumerate(pools[i]):
                    for b, army_b in enumerate(pools[j]):
                        key = np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + (i, a, j, b))
                        calls.append((army_a, army_b, key))
        start = time.perf_counter()
        for army_a, army_b, key in calls:
            oprstats.simulate(army_a, army_b, games=args.games, seed=key, paired=True, threads=args.threads, progress=False)
        return time.perf_counter() - start

    # warm-up (the thread pool, the first preparations) on a small table
    oprstats.faction_table(books[:3], lists=1, games=args.games, seed=seed, threads=args.threads, progress=False)
    t = None
    ratios, table_times, plain_times = [], [], []
    for _ in range(args.rounds):
        s_table, t2 = table()
        assert t is None or np.array_equal(t2.win_rates, t.win_rates, equal_nan=True)
        t = t2
        s_plain = plain(t)
        ratios.append(s_table / s_plain)
        table_times.append(s_table)
        plain_times.append(s_plain)
    # the bookkeeping alone, in the same process: the table with every pairing's games
    # replaced by a fixed outcome (the same pairs of games counted), so nothing but the
    # drawing of lists, the loop over pairings and the bootstrap is timed
    fixed = {"counts": np.array([0, 0, args.games, 0, 0]), "unmodelled": {}, "interrupted": False}
    real = _factions.play_pairing
    _factions.play_pairing = lambda **kwargs: fixed
    try:
        alone = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            oprstats.faction_table(books, lists=args.lists, games=args.games, seed=seed, threads=args.threads, progress=False)
            alone.append(time.perf_counter() - start)
    finally:
        _factions.play_pairing = real
    games = int(t.pairs.sum())  # each pairing's pairs counted from both sides: the games
    pairings = sum(len(t.lists[a]) * len(t.lists[b]) for k, a in enumerate(t.names) for b in t.names[k + 1:])
    print(f"{len(t.names)} factions x {args.lists} lists: {pairings:,} pairings of {args.games} pairs of games, {games:,} games, "
          f"{args.threads} threads, {args.rounds} rounds")
    print(f"faction_table: median {statistics.median(table_times):.2f} s, "
          f"{statistics.median(table_times) / games * 1e6:.0f} us a game")
    print(f"plain simulate calls: median {statistics.median(plain_times):.2f} s, "
          f"{statistics.median(plain_times) / games * 1e6:.0f} us a game")
    print(f"table / plain, per round: {', '.join(f'{r:.3f}' for r in ratios)}; median {statistics.median(ratios):.3f} "
          f"(the bookkeeping: {100 * (statistics.median(ratios) - 1):+.1f}%)")
    print(f"the bookkeeping alone (games replaced by a fixed outcome): median {statistics.median(alone):.2f} s, "
          f"{100 * statistics.median(alone) / statistics.median(plain_times):.1f}% of the plain calls' time")


if __name__ == "__main__":
    main()
