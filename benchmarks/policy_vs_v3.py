"""The default policy against ``"v3-2026-11"`` (the default as it played before issue 40's
transports and reserves), on pairs of real armies with transports, casters and Ambush or
Infiltrate units, from the books in ``../shared``.

Each pair of armies plays ``--games`` seeded pairs of games (``paired=True``: the same table
twice, sides and first player swapped) with the default policy as army A against
``"v3-2026-11"`` as army B, and as many with the policies swapped. Printed per pair of
armies: the share of the decided games (draws left out) the default policy won, with its 95%
interval at the level of the pairs of games (a ratio estimator whose variance is taken over
the pairs, which are independent where the two games of a pair are not), the number of pairs,
and the share of each policy's turns that did nothing useful (``GameResult.wasted``: idle,
stuck, carried all game, never acted), over both sides.

With ``--audit``, instead: issue 40's audit figures on traced games (the first and third
pairs of armies, 3 seeds x 100 games, both sides on one policy): Shadow Warriors wiped out
in the round they arrived, Ambush and Infiltrate arrivals in the unit's own zone, spells cast.

    python benchmarks/policy_vs_v3.py [--games N] [--seed S] [--audit]
"""

from __future__ import annotations

import argparse
import math
import sys
import warnings
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import oprstats  # noqa: E402

from benchmarks.game import BOOKS, army_from_book  # noqa: E402

Z95 = 1.959964

# (label, (book, units named first), (book, units named first))
PAIRS = [
    ("Saurians (Triceratops, Frog-Mage) v Dark Elves (Shadow Warriors)",
     ("saurian-starhost", ("Triceratops", "Frog-Mage", "Saurian Guardians")),
     ("dark-elf-raiders", ("Shadow Warriors", "Light Skimmer", "Warriors"))),
    ("Orcs (Truck, Berserkers) v Battle Brothers (APC)",
     ("orc-marauders", ("Truck", "Berserkers", "Berserker Leader", "Infiltrators")),
     ("battle-brothers", ("APC",))),
    ("Dark Elves (Shadow Warriors, Skimmer) v Orcs (Truck, Berserkers)",
     ("dark-elf-raiders", ("Shadow Warriors", "Light Skimmer", "Warriors")),
     ("orc-marauders", ("Truck", "Berserkers", "Berserker Leader", "Infiltrators"))),
    ("Havoc Brothers (APC) v Saurians (Triceratops, Frog-Mage)",
     ("havoc-brothers", ("Havoc APC",)),
     ("saurian-starhost", ("Triceratops", "Frog-Mage", "Saurian Guardians"))),
    ("Battle Brothers (APC) v Alien Hives (Synapse Tyrant, Spore)",
     ("battle-brothers", ("APC",)),
     ("alien-hives", ("Synapse Tyrant", "Invasion Carrier Spore"))),
]


def book(name: str) -> Path:
    return next(p for p in sorted(BOOKS.glob("*.json")) if p.name.startswith(name + "_"))


def pair_share(wins: np.ndarray, decided: np.ndarray) -> tuple:
    """The share of decided games won, ``sum(wins) / sum(decided)`` over the pairs, with a
    95% interval from the variance of the ratio estimator over the pairs."""
    m, total = len(wins), float(decided.sum())
    if total == 0:
        return float("nan"), float("nan"), float("nan")
    share = float(wins.sum()) / total
    residuals = wins - share * decided
    se = math.sqrt(m / max(m - 1, 1) * float((residuals ** 2).sum())) / total
    return share, max(0.0, share - Z95 * se), min(1.0, share + Z95 * se)


def play(a: list, b: list, games: int, seed: int) -> dict:
    """Both orders of the policies; per pair of games the default policy's wins and the
    decided games, and each policy's wasted turns over both runs."""
    wins, decided = [], []
    wasted = {"default": [0.0, 0.0], "v3-2026-11": [0.0, 0.0]}
    for side, (pa, pb) in enumerate((("default", "v3-2026-11"), ("v3-2026-11", "default"))):
        r = oprstats.simulate(a, b, games=games, seed=seed + side, paired=True, policy_a=pa, policy_b=pb, progress=False)
        assert r.violations == 0, r.violations
        w = np.asarray(r.winner).reshape(-1, 2)
        mine = 1 if side == 0 else -1
        wins.append((w == mine).sum(axis=1))
        decided.append((w != 0).sum(axis=1))
        for army, policy in zip(("a", "b"), (pa, pb)):
            i = 0 if army == "a" else 1
            waste, turns = r._wasted_counts(i)
            wasted[policy][0] += float(waste.sum())
            wasted[policy][1] += float(turns.sum())
    return {"wins": np.concatenate(wins), "decided": np.concatenate(decided),
            "wasted": {k: v[0] / v[1] if v[1] else float("nan") for k, v in wasted.items()}}


def audit() -> None:
    """Issue 40's audit figures for each policy, from traced games."""
    for policy in ("v3-2026-11", "default"):
        seen = {"arrivals": 0, "in own zone": 0, "Shadow Warriors arrivals": 0, "wiped out on arrival": 0, "spells cast": 0}
        for k in (0, 2):
            _label, (book_a, first_a), (book_b, first_b) = PAIRS[k]
            a = army_from_book(book(book_a), 10, seed=1, first=first_a)
            b = army_from_book(book(book_b), 10, seed=2, first=first_b)
            names = [[u.name for u in a], [u.name for u in b]]
            for seed in range(3):
                r = oprstats.simulate(a, b, games=100, seed=seed, trace=True, policy_a=policy, policy_b=policy, progress=False)
                for t in r.traces:
                    edge, arrived = {}, {}
                    for e in t.events:
                        who = (e["army"], e["unit"])
                        if e["kind"] == "deploy" and e["army"] >= 0:
                            edge[e["army"]] = 0 if e["to"][1] < 24 else 48
                        elif e["kind"] == "ambush":
                            seen["arrivals"] += 1
                            # "fully within 12\" of their table edge"
                            seen["in own zone"] += e["army"] in edge and abs(e["to"][1] - edge[e["army"]]) <= 12
                            if names[e["army"]][e["unit"]] == "Shadow Warriors":
                                arrived[who] = e["round"]
                                seen["Shadow Warriors arrivals"] += 1
                        elif e["kind"] == "cast":
                            seen["spells cast"] += 1
                        elif e["kind"] == "position" and e["detail"] == "gone" and arrived.get(who) == e["round"]:
                            seen["wiped out on arrival"] += 1
                            del arrived[who]
        print(policy, seen)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="pairs of games per order of the policies")
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--audit", action="store_true", help="issue 40's audit figures on traced games instead")
    args = parser.parse_args()
    if not BOOKS.is_dir() or not any(BOOKS.glob("*.json")):
        print(f"skipped: no army books at {BOOKS}")
        return 0
    warnings.simplefilter("ignore")
    if args.audit:
        audit()
        return 0
    print(f"default v v3-2026-11: {args.games:,} pairs of games each way per pair of armies, seed {args.seed}")
    print(f"{'armies':<66}{'won':>7}  {'95% interval':<15}{'pairs':>7}{'wasted default':>16}{'wasted v3':>11}")
    for k, (label, (book_a, first_a), (book_b, first_b)) in enumerate(PAIRS):
        a = army_from_book(book(book_a), 10, seed=1, first=first_a)
        b = army_from_book(book(book_b), 10, seed=2, first=first_b)
        out = play(a, b, args.games, args.seed + 10 * k)
        share, lo, hi = pair_share(out["wins"], out["decided"])
        w = out["wasted"]
        print(f"{label:<66}{share:>7.1%}  {lo:.1%}-{hi:.1%}{len(out['wins']):>9,}{w['default']:>16.1%}{w['v3-2026-11']:>11.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
