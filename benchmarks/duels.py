"""Benchmark: 1v1 duels (the speed issue's target: 500,000 four-round games/s on 2 threads).

40 seeded pairs of real v3.5.1 units (default loadouts, from the first six books in
``../shared``), each a single-unit army against a single-unit army on an open table,
``simulate(..., games=5000, terrain="open")`` per pair: what a matchup sweep calls. The
figure includes each pair's preparation. The reference in the same run is the 1-thread rate
(the ratio is the parallel speed-up), and the machine yardstick of ``machine.py`` sets the
figures against the machine they were measured on; the issue's outside reference, a C++
duel simulator on a 1-D line at 2.05 M games/s on 1 thread, is not in this repository.

    python benchmarks/duels.py
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import oprstats  # noqa: E402
from benchmarks.machine import describe  # noqa: E402

BOOKS = Path(__file__).resolve().parents[2] / "shared" / "data" / "opr" / "grimdark-future" / "3.5.1"
GAMES = 5_000


def main() -> int:
    paths = sorted(BOOKS.glob("*.json"))[:6]
    if not paths:
        print(f"skipped: no army books at {BOOKS}")
        return 0
    print(describe())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        units = [u for p in paths for u in oprstats.load_army_book(p).units]
        rng = random.Random(1)
        pairs = [(rng.choice(units), rng.choice(units)) for _ in range(40)]
        rates = {}
        for threads in (1, 2):
            start = time.perf_counter()
            for a, b in pairs:
                oprstats.simulate([a], [b], games=GAMES, seed=1, terrain="open", progress=False, threads=threads)
            rates[threads] = len(pairs) * GAMES / (time.perf_counter() - start)
            print(f"threads={threads}: {rates[threads]:,.0f} duels/s ({len(pairs)} pairs x {GAMES:,} games)")
    print(f"2 threads / 1 thread: {rates[2] / rates[1]:.2f}x; target >= 500,000 duels/s on 2 threads: {'met' if rates[2] >= 5e5 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
