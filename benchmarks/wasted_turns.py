"""Credibility figures: the share of each army's turns that did nothing useful
(``GameResult.wasted``: idle, stuck, carried all game, never acted) in the benchmark's games,
and the units that wasted a quarter of their turns or more. ``docs/game.md`` quotes them.

The armies are ``game.py``'s (5, 10 and 15 units a side, and 10 units with transports and
casters), from the books in ``../shared``; seeded, on the standard table, with the default
policy.

    python benchmarks/wasted_turns.py [--games N]
"""

from __future__ import annotations

import argparse
import sys
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import oprstats  # noqa: E402

from benchmarks.game import BOOKS, armies  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--policy", default="default")
    args = parser.parse_args()
    if not any(BOOKS.glob("*.json")):
        print(f"skipped: no army books at {BOOKS}")
        return 0
    warnings.simplefilter("ignore")
    print(f"{args.games:,} games each, seed 1, policy {args.policy!r}")
    print(f"{'armies':<22}{'wasted A':>10}{'wasted B':>10}  units wasting 25% or more")
    for label, (a, b, _) in (("5 v 5", armies(5)), ("10 v 10", armies(10)), ("15 v 15", armies(15)),
                             ("10 v 10, transports", armies(10, carried=True))):
        r = oprstats.simulate(a, b, games=args.games, seed=1, policy_a=args.policy, policy_b=args.policy, progress=False)
        w = r.wasted()
        worst = ", ".join(f"{name} ({army.upper()}) {share:.0%}" for army, _u, name, share in r.wasted_units()) or "none"
        print(f"{label:<22}{w['a']:>10.1%}{w['b']:>10.1%}  {worst}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
