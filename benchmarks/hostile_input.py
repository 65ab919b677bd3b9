"""What hostile input costs before it is refused (issue 43): for the widest units that parse
(1,000 models and 100 weapon entries, the most a model group may list, of three shapes), the
seconds each engine takes to refuse them or answer; and the threads a process holds after
asking for every ``threads=`` from 1 to 256.

    python benchmarks/hostile_input.py [--skip-threads]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import textwrap
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.machine import describe

SHAPES = {
    "1000x W (24\", A1000, Blast(6), Deadly(6))": '1000x W# (24", A1000, Blast(6), Deadly(6))',
    "W (A1)": "W# (A1)",
    "10x W (24\", A5, AP(1))": '10x W# (24", A5, AP(1))',
}
TARGET = 'Target [10] Q4+ D4+ | 100pts\n10x Rifle (24", A1)'


def widest(entry: str) -> str:
    return "Blob [1000] Q4+ D4+ | 1000pts\n" + ", ".join(entry.replace("#", str(i)) for i in range(100))


def engines(oprstats, blob, target):
    return {
        "attack": lambda: oprstats.attack(blob, target),
        "attacked": lambda: oprstats.attack(target, blob),
        "melee": lambda: oprstats.melee(blob, target),
        "efficiency": lambda: oprstats.efficiency(blob),
        "simulate": lambda: oprstats.simulate([blob], [target], games=2, seed=1, progress=False),
        "cost model": lambda: oprstats.CostModel.default().predict(blob),
        "matchups": lambda: oprstats.matchups([blob], [target]),
    }


def refusals() -> None:
    import oprstats

    print("Seconds to refuse (R) or answer (A) the widest units that parse, best of 3:")
    for label, entry in SHAPES.items():
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            blob, target = oprstats.Unit.parse(widest(entry)), oprstats.Unit.parse(TARGET)
            row = []
            for name, call in engines(oprstats, blob, target).items():
                best, how = float("inf"), "A"
                for _ in range(3):
                    start = time.perf_counter()
                    try:
                        call()
                        how = "A"
                    except ValueError:
                        how = "R"
                    best = min(best, time.perf_counter() - start)
                row.append(f"{name} {best:.3f} {how}")
        print(f"  [1000] with 100x {label}:\n    " + ", ".join(row))


THREADS = textwrap.dedent("""
    import os, time, oprstats
    a = oprstats.Unit.parse('Squad [5] Q4+ D4+\\n5x Rifle (24", A1)')
    b = oprstats.Unit.parse('Guards [5] Q4+ D3+\\n5x Halberd (A2)')
    for n in range(1, 257):
        oprstats.attack(a, b, method="sample", samples=200, seed=n, threads=n)
    time.sleep(1.0)
    print(len(os.listdir("/proc/self/task")))
""")


def threads() -> None:
    done = subprocess.run([sys.executable, "-c", THREADS], capture_output=True, text=True, env=dict(os.environ, RAYON_NUM_THREADS="2"))
    if done.returncode != 0:
        print(f"threads=1..256: failed: {done.stderr.strip().splitlines()[-1]}")
    else:
        print(f"threads=1..256, one sampled attack each: {done.stdout.split()[-1]} threads held after")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-threads", action="store_true")
    args = parser.parse_args()
    print(describe())
    refusals()
    if not args.skip_threads:
        threads()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
