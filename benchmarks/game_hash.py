"""The seeded-results hash of the game: one line to compare before and after an engine change
that must not change what the games produce.

Plays a fixed, seeded set of games on 1 thread and hashes everything the results hold (per
game: winner, first player, objectives, models and points left, floats by their repr; per
unit: the totals of ``unit_stats``; traced games: the terrain, the markers and every event,
field by field). Each part prints its own hash so a mismatch can be located:

(a) the 40 book duel pairs of ``duels.py`` x 300 games each on an open table;
(b) the army pairs of ``game.py`` (10 and 15 units, and 10 units with transports and
    casters) x 300 games each on the standard table;
(c) 5 traced games between the armies with transports and casters;
(d) the other policies (greedy, random, hold) against each other: 10 duel pairs x 60 and the
    armies with transports and casters x 40, for four pairings.

Part (g), outside the total like (f), plays the large armies only the speed work's
benchmarks play: ``game_instructions.py``'s 30 v 30 (about 6,000 points a side, deployment
zones full) x 20 games and 2 traced, and its 5 v 5 x 100: a speed change to deployment,
spots or paths that only crowded tables reach shows there.

The dice counts (``GameResult.dice``) have a line of their own, outside the parts: a change
that rolls the same dice differently shows there without touching the results. The counts of
activations and wasted turns (``GameResult.wasted``) have one too, (f), printed below the
total and not in it: the total stays comparable with builds from before they were counted.

    python benchmarks/game_hash.py
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
import sys
import time
import warnings
from typing import Optional
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import oprstats

from benchmarks.duels import BOOKS
from benchmarks.game import armies

GAMES = 300
TRACED = 5


def canon(value) -> str:
    """A text of ``value`` that is the same exactly when the value is: floats by their repr,
    numpy values as the Python values they hold, dicts by sorted key."""
    if isinstance(value, np.ndarray):
        return canon(value.tolist())
    if isinstance(value, np.generic):
        return canon(value.item())
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(canon(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(f"{k!r}:{canon(value[k])}" for k in sorted(value)) + "}"
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return type(value).__name__ + canon({f.name: getattr(value, f.name) for f in dataclasses.fields(value)})
    if value is None or isinstance(value, (bool, int, str)):
        return repr(value)
    raise TypeError(f"no canonical text for {type(value).__name__}")


# the per-unit totals the games' results held before the counts of wasted turns (issue 40)
# were added: those are hashed apart, in part (f), so the total stays comparable with the
# builds before them
UNIT_RESULTS = ("destroyed", "wounds_dealt", "wounds_taken", "rounds_holding")
# part (f): the counts of wasted turns (issue 40); later counts (rounds inside a transport and
# in reserve, issue 44) are left out of every part, so the hashes stay comparable
TURNS = ("activations", "idle", "stuck", "carried", "never_acted")
# what a traced event says of the game, not the names the tables give its units (a joined
# hero's name was added to its unit's in issue 44)
NAMES = ("name", "target_name")


def feed_result(h, r: oprstats.GameResult) -> None:
    """Every game's record, then the per-unit totals, then the traces."""
    w, f, o, m, p = (a.tolist() for a in (r.winner, r.first, r.objectives, r.models_left, r.points_left))
    h.update(f"games {len(w)}\n".encode())
    for i in range(len(w)):
        h.update(f"{w[i]} {f[i]} {o[i][0]} {o[i][1]} {m[i][0]} {m[i][1]} {p[i][0]!r} {p[i][1]!r}\n".encode())
    units = {army: {k: v for k, v in stats.items() if k in UNIT_RESULTS} for army, stats in r.unit_stats.items()}
    h.update(("units " + canon(units) + "\n").encode())
    for t in r.traces:
        h.update(("terrain " + canon(t.terrain) + "\nobjectives " + canon(t.objectives) + "\n").encode())
        for e in t.events:
            h.update(("event " + canon({k: v for k, v in e.items() if k not in NAMES}) + "\n").encode())


def duel_pairs(edition: Optional[str] = None) -> list:
    """The 40 seeded pairs of ``duels.py`` (made inside its ``main``, so remade here the same
    way); ``edition``: the books read in another edition (Firefight: its own books)."""
    books = BOOKS.parents[1] / "grimdark-future-firefight" / "3.5.1" if edition == "firefight-3.2" else BOOKS
    units = [u for p in sorted(books.glob("*.json"))[:6] for u in oprstats.load_army_book(p, edition=edition).units]
    rng = random.Random(1)
    return [(rng.choice(units), rng.choice(units)) for _ in range(40)]


def main() -> int:
    if not BOOKS.is_dir() or not any(BOOKS.glob("*.json")):
        print(f"skipped: no army books at {BOOKS}")
        return 0
    start = time.perf_counter()
    warnings.simplefilter("ignore")  # unmodelled rules and unequal points, once per call
    run = {"threads": 1, "progress": False}
    parts = {}
    dice = []
    turns = hashlib.sha256()
    turns_games = 0

    def part(name: str, runs) -> None:
        h = hashlib.sha256()
        games = 0
        nonlocal turns_games
        for r in runs:
            feed_result(h, r)
            games += len(r)
            dice.append(r.dice)
            turns.update(canon({army: {k: v for k, v in stats.items() if k in TURNS}
                                for army, stats in r.unit_stats.items()}).encode())
            turns_games += len(r)
        parts[name] = (h.hexdigest()[:16], games)

    part("(a) duels: 40 pairs x 300, open", (oprstats.simulate([a], [b], games=GAMES, seed=1, terrain="open", **run)
                                             for a, b in duel_pairs()))
    carried = armies(10, carried=True)
    part("(b) armies 10, 15, 10 carried x 300, standard", (oprstats.simulate(a, b, games=GAMES, seed=1, **run)
                                                          for a, b, _ in (armies(10), armies(15), carried)))
    part("(c) 5 traced games, 10 carried", [oprstats.simulate(carried[0], carried[1], games=TRACED, seed=9, trace=True, **run)])
    # the other policies' paths, which the default policy never takes
    kinds = [("greedy", "random"), ("hold", "default"), ("random", "hold"), ("greedy", "greedy")]
    part("(d) greedy, random, hold: 10 pairs x 60 and 10 carried x 40, per pairing", (
        r for pa, pb in kinds for r in [
            *(oprstats.simulate([a], [b], games=60, seed=5, terrain="open", policy_a=pa, policy_b=pb, **run) for a, b in duel_pairs()[:10]),
            oprstats.simulate(carried[0], carried[1], games=40, seed=6, policy_a=pa, policy_b=pb, **run),
        ]))
    parts["(e) dice rolled, every run above"] = (hashlib.sha256(canon(dice).encode()).hexdigest()[:16], sum(dice))

    total = hashlib.sha256("".join(f"{name} {digest}\n" for name, (digest, _) in parts.items()).encode()).hexdigest()[:16]
    for name, (digest, n) in parts.items():
        print(f"{digest}  {name} ({n:,} {'dice' if name.startswith('(e)') else 'games'})")
    print(f"game hash: {total}  (oprstats {oprstats.__version__}, {time.perf_counter() - start:.1f} s)")
    print(f"{turns.hexdigest()[:16]}  (f) activations and wasted turns, every run above ({turns_games:,} games; not in the total)")
    from benchmarks.game_instructions import case_runs

    large = hashlib.sha256()
    (a30, b30, t30), = case_runs("30")
    a5, b5, _ = armies(5)
    for r in (oprstats.simulate(a30, b30, games=20, seed=1, terrain=t30, **run),
              oprstats.simulate(a30, b30, games=2, seed=3, terrain=t30, trace=True, **run),
              oprstats.simulate(a5, b5, games=100, seed=1, **run)):
        feed_result(large, r)
    print(f"{large.hexdigest()[:16]}  (g) 30 v 30 x 20 and 2 traced, 5 v 5 x 100 (not in the total)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
