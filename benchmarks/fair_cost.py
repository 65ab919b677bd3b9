"""Benchmark and check: the fair cost by play (``fair_cost(method="exchange")``) of every unit
of the 43 v3.5.1 books against all of them, out of sample.

Prints the time of the matchups (every unit against every unit in the four modes, exact)
against the reference measured in the same run (a Python loop of ``attack()`` and
``melee()`` over a sample of the same pairs, scaled), and how the fair cost by play ranks
each book's units against their official costs (Spearman), which nothing was tuned to.

    python benchmarks/fair_cost.py [N]   # N: units, spread over the books (default all)
"""

from __future__ import annotations

import random
import sys
import time
import warnings
from pathlib import Path

import numpy as np

import oprstats

BOOKS = Path(__file__).resolve().parents[2] / "shared" / "data" / "opr" / "grimdark-future" / "3.5.1"


def spearman(x, y) -> float:
    rank = lambda v: np.argsort(np.argsort(np.asarray(v)))  # noqa: E731
    return float(np.corrcoef(rank(x), rank(y))[0, 1])


def main() -> int:
    paths = sorted(BOOKS.glob("*.json"))
    if not paths:
        print(f"skipped: no army books at {BOOKS}")
        return 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        books = [oprstats.load_army_book(p) for p in paths]
    units = [u for b in books for u in b.units]
    book_of = [b.name for b in books for _ in b.units]
    if len(sys.argv) > 1:
        keep = sorted(random.Random(1).sample(range(len(units)), int(sys.argv[1])))
        units, book_of = [units[i] for i in keep], [book_of[i] for i in keep]
    n = len(units)
    # the reference: one Python call per attack and melee, on a sample of pairs
    rng = random.Random(2)
    sample = [(rng.choice(units), rng.choice(units)) for _ in range(200)]
    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for a, d in sample:
            for distance in (24.0, 12.0):
                oprstats.attack(a, d, distance=distance)
                oprstats.attack(d, a, distance=distance)
            for c, t in ((a, d), (d, a)):
                try:
                    oprstats.melee(c, t, distance=6.0)
                except ValueError:
                    pass
    per_pair_loop = (time.perf_counter() - start) / len(sample)
    start = time.perf_counter()
    table = oprstats.matchups(units, units)
    took = time.perf_counter() - start
    print(f"matchups: {n} x {n} units, 4 modes: {took:.1f} s ({n * n / took:,.0f} pairs/s); a Python loop of attack() and melee() "
          f"would take {per_pair_loop * n * n:.0f} s ({took / (per_pair_loop * n * n):.3f}x its time)")
    start = time.perf_counter()
    df = oprstats.fair_cost(units)
    print(f"fair_cost (matchups again, out of sample, 1,000 resampled fields): {time.perf_counter() - start:.1f} s")
    df["book"] = [book_of[[u.name for u in units].index(name)] for name in df.unit]
    print(f"all units: Spearman(official, fair) = {spearman(df.official, df.fair):.3f}; "
          f"median |official - fair| = {df.difference_pct.abs().median():.1f}% of fair; "
          f"verdicts: {df.verdict.value_counts().to_dict()}")
    per_book = [(name, len(g), spearman(g.official, g.fair)) for name, g in df.groupby("book") if len(g) >= 5]
    values = np.array([s for _, _, s in per_book])
    print(f"per book (>= 5 units): Spearman median {np.median(values):.3f}, lowest {values.min():.3f} ({per_book[int(values.argmin())][0]}), "
          f"highest {values.max():.3f}")
    print(df.head(10)[["unit", "book", "official", "fair", "low", "high", "difference_pct", "ignored_rules"]].to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
