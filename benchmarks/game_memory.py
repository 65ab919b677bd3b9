"""Memory of a long run: how much ``simulate(games=100_000)`` grows the process (peak resident
set size after the run less before it, in a fresh child process that has played 10 games
first, so imports, army preparation and the first plans are counted out), on the example
army and on ``game.py``'s 10-unit armies, with 2 threads. The engine's caches are bounded
(``src/game/cache.rs``): the growth must stay flat as the run grows.

    python benchmarks/game_memory.py [--games N] [--threads T]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

CHILD = """
import resource, sys, warnings
sys.path.insert(0, {root!r})
warnings.simplefilter("ignore")
import oprstats
if {case!r} == "example":
    a = b = oprstats.example_army()
else:
    from benchmarks.game import armies
    a, b, _ = armies(10)
oprstats.simulate(a, b, games=10, seed=1, progress=False, threads={threads})
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
oprstats.simulate(a, b, games={games}, seed=1, progress=False, threads={threads})
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(before / 1024, after / 1024)
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    root = str(Path(__file__).resolve().parents[1])
    print(f"simulate(games={args.games:,}), {args.threads} threads: peak resident memory (MB)")
    print(f"{'armies':<12}{'before':>10}{'peak':>10}{'growth':>10}")
    for case in ("example", "10"):
        code = CHILD.format(root=root, case=case, games=args.games, threads=args.threads)
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
        before, after = float(out[0]), float(out[1])
        print(f"{case:<12}{before:>10.1f}{after:>10.1f}{after - before:>10.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
