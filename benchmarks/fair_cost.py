"""Benchmark and check: worth by play on the 43 v3.5.1 books (the fairness-by-play issue's
speed targets), with the reference measured in the same run.

1. The exact matchups of all 1,013 units against all 1,013 (four modes), locally (target:
   at most 60 s on 2 cores); the reference is a Python loop of ``attack()`` and ``melee()``,
   timed on a sample of the same pairs and scaled.
2. The same through a ``LocalCluster`` of 2 workers with 1 thread each (target: within 20%
   of the local time), checked equal to the local table.
3. ``fair_cost(book, field=Field(...))`` for each book against the whole field (target:
   under 2 s), the ``Field`` built once.
4. How the fair cost by play ranks each book's units against their official costs
   (Spearman), which nothing was tuned to.

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


def python_loop_per_pair(units: list, pairs: int = 200) -> float:
    """Seconds per pair for one Python call per attack and melee of a pair's four modes."""
    rng = random.Random(2)
    sample = [(rng.choice(units), rng.choice(units)) for _ in range(pairs)]
    start = time.perf_counter()
    for a, d in sample:
        for distance in (24.0, 12.0):
            oprstats.attack(a, d, distance=distance)
            oprstats.attack(d, a, distance=distance)
        for c, t in ((a, d), (d, a)):
            try:
                oprstats.melee(c, t, distance=6.0)
            except ValueError:  # an Aircraft is not charged
                pass
    return (time.perf_counter() - start) / len(sample)


def main() -> int:
    paths = sorted(BOOKS.glob("*.json"))
    if not paths:
        print(f"skipped: no army books at {BOOKS}")
        return 0
    warnings.simplefilter("ignore")
    books = [oprstats.load_army_book(p) for p in paths]
    units = [u for b in books for u in b.units]
    if len(sys.argv) > 1:
        keep = sorted(random.Random(1).sample(range(len(units)), int(sys.argv[1])))
        units = [units[i] for i in keep]
    n = len(units)
    loop = python_loop_per_pair(units) * n * n

    start = time.perf_counter()
    local = oprstats.matchups(units, units)
    took = time.perf_counter() - start
    print(f"1. matchups {n} x {n}, 4 modes, locally: {took:.1f} s ({n * n / took:,.0f} pairs/s); a Python loop of attack() and melee() "
          f"would take {loop:.0f} s: {loop / took:.1f}x faster. Target <= 60 s: {'met' if took <= 60 else 'NOT met'}")

    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        oprstats.matchups(units[:20], units[:20], client=client)  # the workers' imports
        start = time.perf_counter()
        remote = oprstats.matchups(units, units, client=client)
        on_cluster = time.perf_counter() - start
    same = all(np.array_equal(getattr(local, k), getattr(remote, k), equal_nan=True) for k in ("dealt", "taken", "p_destroyed", "p_lost"))
    print(f"2. the same on a LocalCluster (2 workers x 1 thread): {on_cluster:.1f} s, {on_cluster / took:.2f}x the local time "
          f"(target <= 1.20x: {'met' if on_cluster <= 1.2 * took else 'NOT met'}); equal to the local table: {same}")

    start = time.perf_counter()
    field = oprstats.Field(units)
    built = time.perf_counter() - start
    times, frames = [], []
    for b in books:
        members = [u for u in b.units if field.positions(u)]
        if not members:
            continue
        start = time.perf_counter()
        frames.append((b.name, oprstats.fair_cost(members, field=field, seed=0)))
        times.append(time.perf_counter() - start)
    print(f"3. Field of {n} units built in {built:.1f} s; fair_cost(book, field=field) for {len(times)} books: first {times[0]:.2f} s "
          f"(the field's exchanges, spread and resampled scales, kept), then median {np.median(times[1:]):.3f} s, slowest "
          f"{max(times[1:]):.3f} s. Target < 2 s: {'met' if max(times) < 2 else 'NOT met'}")

    df = oprstats.fair_cost(units, field=field, seed=0)
    book_of = {}
    for name, frame in frames:
        for u in frame.unit:
            book_of.setdefault(u, name)
    df["book"] = [book_of.get(u, "") for u in df.unit]
    print(f"4. all units: Spearman(official, fair) = {spearman(df.official, df.fair):.3f}; median |official - fair| = "
          f"{df.difference_pct.abs().median():.1f}% of fair; field spread {df.attrs['field_spread_pct']:.0f}%; verdicts: "
          f"{df.verdict.value_counts().to_dict()}")
    per_book = [(name, spearman(frame.official, frame.fair)) for name, frame in frames if len(frame) >= 5]
    values = np.array([s for _, s in per_book])
    lowest = per_book[int(values.argmin())][0]
    print(f"   per book (>= 5 units): Spearman median {np.median(values):.3f}, lowest {values.min():.3f} ({lowest}), highest {values.max():.3f}")
    print(df.head(8)[["unit", "book", "official", "fair", "low", "high", "difference_pct", "ignored_rules"]].to_string())
    return 0


if __name__ == "__main__":
    sys.exit(main())
