"""Benchmark: load all 43 real Army Forge books (../shared/data/opr), as a user would.

Prints the median wall time of a full load of every book over several repeats, and, as a
reference measured in the same run, the time Python's own ``json.load`` takes just to parse
the same files (no profiles built).

    python benchmarks/load_books.py [--repeats 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import oprstats

BOOKS = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "opr" / "grimdark-future" / "3.5.1"


def timed(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    paths = sorted(BOOKS.glob("*.json"))
    if not paths:
        print(f"no army books at {BOOKS}", file=sys.stderr)
        return 1

    def load_all():
        return [oprstats.load_army_book(p) for p in paths]

    def json_only():
        for p in paths:
            with open(p, encoding="utf-8") as f:
                json.load(f)

    books = load_all()
    units = sum(len(b) for b in books)
    size_mb = sum(p.stat().st_size for p in paths) / 1e6
    t_load = timed(load_all, args.repeats)
    t_json = timed(json_only, args.repeats)
    print(f"books: {len(paths)}  units: {units}  JSON: {size_mb:.1f} MB  repeats: {args.repeats}")
    print(f"oprstats.load_army_book, all books: {t_load * 1e3:8.1f} ms  ({units / t_load:,.0f} units/s)")
    print(f"reference json.load only:           {t_json * 1e3:8.1f} ms")
    print(f"ratio load_army_book / json.load:   {t_load / t_json:8.2f}x")
    print(f"target: all books under 1 s -> {'met' if t_load < 1.0 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
