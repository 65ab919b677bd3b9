"""Benchmark: melee exchanges (issue 4 targets), against references measured in the same run.

The issue's exchange: a 10-model Quality 4+ unit with hand weapons (A2, AP(1)) and a joined
Tough(3) hero charges a 5-model Tough(3) Defense 3+ unit with Counter weapons and Fear(1).

1. The exact exchange, called from Python (targets: under 200 microseconds per call, issue
   4; under 60, the speed issue).
2. The sampler, exchanges per second with 1 and 2 threads (targets: over 1 million per
   second, issue 4; over 5 million on 2 threads, the speed issue).
3. Reference: the literal step-by-step enumeration of tests/oracle.py against the exact
   engine on a charge small enough for the enumeration (3 models with A2 against 3).

    python benchmarks/melee.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import oprstats  # noqa: E402
from oprstats import Unit  # noqa: E402

from benchmarks.attack import per_call  # noqa: E402

CHARGER = Unit.parse("Squad [10] Q4+ D4+\n10x Hand Weapon (A2, AP(1))").join(
    Unit.parse("Captain [1] Q3+ D4+ | Hero, Tough(3)\nHand Weapon (A2, AP(1))")
)
DEFENDER = Unit.parse("Guards [5] Q4+ D3+ | Tough(3), Fear(1)\n5x Halberd (A2, Counter)")


def main() -> int:
    print("1. Exact exchange (10 x A2 AP(1) + Tough(3) hero vs 5 x Tough(3) D3+, Counter, Fear(1))")
    m = oprstats.melee(CHARGER, DEFENDER)
    print(f"   {m}")
    t = per_call(lambda: oprstats.melee(CHARGER, DEFENDER))
    print(f"   {t * 1e6:.1f} us per call (issue 4's target < 200 us; the speed issue's < 60 us)")

    print("2. Sampler, same exchange")
    rates = {}
    for threads in (1, 2):
        n = 2_000_000
        oprstats.melee(CHARGER, DEFENDER, method="sample", samples=10_000, seed=1, threads=threads)
        best = float("inf")
        for rep in range(3):
            start = time.perf_counter()
            oprstats.melee(CHARGER, DEFENDER, method="sample", samples=n, seed=rep, threads=threads)
            best = min(best, time.perf_counter() - start)
        rates[threads] = n / best
        print(f"   {threads} thread(s): {rates[threads] / 1e6:.2f} M exchanges/s (issue 4's target > 1 M/s; the speed issue's > 5 M/s on 2 threads)")
    print(f"   2 threads / 1 thread: {rates[2] / rates[1]:.2f}x")

    print("3. Against the literal enumeration (tests/oracle.py), 3 x A2 AP(1) vs 3 x A2")
    from tests.oracle import OFighter, OModel, OWeapon, melee as oracle_melee

    small_c = Unit.parse("C [3] Q3+ D5+\n3x Axe (A2, AP(1))")
    small_d = Unit.parse("D [3] Q4+ D4+\n3x Club (A2)")
    oc = [OFighter(OModel(defense=5), quality=3, weapons=[OWeapon(2, ap=1)]) for _ in range(3)]
    od = [OFighter(OModel(defense=4), quality=4, weapons=[OWeapon(2)]) for _ in range(3)]
    t_oracle = per_call(lambda: oracle_melee(oc, od), min_time=2.0)
    t_engine = per_call(lambda: oprstats.melee(small_c, small_d))
    print(f"   oracle {t_oracle * 1e3:.1f} ms, engine {t_engine * 1e6:.1f} us: {t_oracle / t_engine:,.0f}x faster")
    return 0


if __name__ == "__main__":
    sys.exit(main())
