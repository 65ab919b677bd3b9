"""The machine yardstick the other benchmarks print beside their figures.

The speed issues state their targets in games or dice per second on "the 2-core machine",
but the machine a session gets is not always as fast. On the shared machine of late 2026 a
core's speed drifts by a factor of about 1.8 from second to second (numpy's draws pinned to
one core: 182 to 344 M a second within a minute), and the same build has run twice as fast
in one session as in another. A figure that does not depend on oprstats measures the
machine: numpy drawing 80 M raw d6s at once on 1 thread, the best of three. The speed issue
was filed on a machine where this drew 351 M a second.

Read it as the weather the figures beside it were measured in, not as a constant.

    python benchmarks/machine.py
"""

from __future__ import annotations

import sys
import time

import numpy as np

DRAWS = 80_000_000
# numpy's raw d6 draws a second (80 M at once) on the machine the speed issue was filed on
FILED_ON = 351e6


def raw_d6_rate(repeats: int = 3) -> float:
    """numpy's raw d6 draws a second on this thread, the best of ``repeats`` runs."""
    gen = np.random.default_rng(1)
    best = float("inf")
    for _ in range(repeats):
        start = time.perf_counter()
        gen.integers(1, 7, size=DRAWS, dtype=np.int8)
        best = min(best, time.perf_counter() - start)
    return DRAWS / best


def describe() -> str:
    """One line on this machine's speed, for a benchmark's output."""
    rate = raw_d6_rate()
    return f"machine yardstick: numpy draws {rate / 1e6:.0f} M raw d6/s on 1 thread ({rate / FILED_ON:.2f}x the {FILED_ON / 1e6:.0f} M of the machine the speed issue was filed on)"


if __name__ == "__main__":
    print(describe())
    sys.exit(0)
