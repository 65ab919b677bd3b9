"""Worth by play, by games (``fair_cost(method="games")``): what a unit adds to the win rate
of reference armies, in points of those armies' own units. See docs/points.md, "By games"."""

from __future__ import annotations

import math
import numbers
import warnings
from typing import Any, Optional, Sequence

import numpy as np

from ._attack import seed_to_u64
from ._core import Army, Unit
from ._distributed import check_client, sweep


def _own_rule_names(unit: Unit) -> set:
    from ._matchups import _own_rule_names as names

    return names(unit)


def price_columns(*args: Any) -> dict:
    from ._matchups import price_columns as columns

    return columns(*args)

GAMES_COLUMNS = ("unit", "official", "fair", "low", "high", "difference", "difference_pct", "verdict", "judged", "added_win_rate",
                 "win_rate_per_100_points", "games", "ignored_rules")


def _army_units(army: Any, field: str) -> list:
    if isinstance(army, Army):
        return list(army.units)
    if isinstance(army, (str, bytes, Unit)) or army is None:
        raise TypeError(f"{field}: expected an Army or a sequence of Unit, got {type(army).__name__}")
    try:
        units = list(army)
    except TypeError:
        raise TypeError(f"{field}: expected an Army or a sequence of Unit, got {type(army).__name__}") from None
    for i, u in enumerate(units):
        if not isinstance(u, Unit):
            raise TypeError(f"{field}[{i}]: expected an oprstats.Unit, got {type(u).__name__}")
    return units


def _reference_pairs(armies: Any) -> list[tuple[list, list]]:
    if armies is None:
        raise ValueError('armies: method="games" measures a unit in reference games; give armies=(army, opponent) or a list of such pairs')
    pairs = [armies] if isinstance(armies, tuple) and len(armies) == 2 and not isinstance(armies[0], tuple) else list(armies)
    out = []
    for i, pair in enumerate(pairs):
        try:
            ours, theirs = pair
        except (TypeError, ValueError):
            raise TypeError(f"armies[{i}]: expected (army, opponent)") from None
        ours, theirs = _army_units(ours, f"armies[{i}][0]"), _army_units(theirs, f"armies[{i}][1]")
        if len(ours) < 2:
            raise ValueError(f"armies[{i}][0]: the reference army needs at least 2 units (each is removed in turn to price a point)")
        for k, u in enumerate(ours):
            if not u.cost:
                raise ValueError(f"armies[{i}][0][{k}] ({u.name}): has no points cost; the reference army's units price a point")
        out.append((ours, theirs))
    if not out:
        raise ValueError("armies: no reference pair given")
    return out


def _scores(result) -> np.ndarray:
    """Army A's score per pair of games (a win 1, a draw 1/2), in pair order."""
    score = (np.asarray(result.winner, dtype=float) + 1.0) / 2.0
    return score.reshape(-1, 2).mean(axis=1)


def fair_cost_by_games(judged: Sequence[Unit], *, armies: Any, games: int, seed: Any, interval: float, resamples: int, client: Any,
                       partitions: Optional[int], threads: Optional[int]) -> list[dict]:
    """The rows of ``fair_cost(method="games")``."""
    if isinstance(games, bool) or not isinstance(games, numbers.Integral) or not 50 <= games <= 1_000_000:
        raise ValueError(f"games: must be a whole number of game pairs from 50 to 1,000,000 (got {games!r})")
    pairs = _reference_pairs(armies)
    client = check_client(client)
    engine_seed = seed_to_u64(seed)
    # every variant of every pair plays the same games (the same seed): common random numbers
    grid, where = [], []
    for p, (ours, theirs) in enumerate(pairs):
        variants = [("base", ours)] + [(("without", k), [u for j, u in enumerate(ours) if j != k]) for k in range(len(ours))]
        variants += [(("with", i), ours + [u]) for i, u in enumerate(judged)]
        for key, army in variants:
            grid.append(dict(army_a=army, army_b=theirs, games=int(games), seed=engine_seed, paired=True, progress=False, threads=threads))
            where.append((p, key))
    # the rules the game leaves out are reported per unit in ignored_rules, not warned per run
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        from ._game import simulate

        results = sweep(simulate, grid, client=client, partitions=partitions)
    ignored: dict = {}
    for r, (p, key) in zip(results, where):
        if key != "base" and key[0] == "with":
            ignored.setdefault(key[1], set()).update(rule for rule, (share_a, _) in r.unmodelled.items() if share_a > 0)
    scores = np.stack([_scores(r) for r in results])  # [variant, pair of games]
    n = scores.shape[1]
    rng = np.random.default_rng(engine_seed)
    weights = np.concatenate([np.ones((n, 1)), rng.multinomial(n, np.full(n, 1.0 / n), size=resamples).T], axis=1) / n  # [pair, 1 + resample]
    means = scores @ weights  # [variant, 1 + resample]: the estimate, then the resamples
    index = {w: k for k, w in enumerate(where)}
    added = np.zeros((len(judged), means.shape[1]))
    per_point = np.zeros(means.shape[1])
    for p, (ours, _) in enumerate(pairs):
        base = means[index[(p, "base")]]
        removed = sum(base - means[index[(p, ("without", k))]] for k in range(len(ours)))
        per_point += removed / sum(float(u.cost) for u in ours) / len(pairs)
        for i in range(len(judged)):
            added[i] += (means[index[(p, ("with", i))]] - base) / len(pairs)
    with np.errstate(divide="ignore", invalid="ignore"):
        fair = np.where(per_point[None, :] > 0, added / per_point[None, :], np.nan)
    tail = 50.0 * (1.0 - interval)
    rows = []
    for i, u in enumerate(judged):
        f = float(fair[i, 0])
        draws = fair[i, 1:]
        draws = draws[np.isfinite(draws)]
        lo, hi = (float(np.percentile(draws, tail)), float(np.percentile(draws, 100 - tail))) if draws.size and resamples else (None, None)
        official = u.cost
        rows.append({
            **price_columns(u.name, official, f, lo, hi),
            "verdict": None if lo is None or official is None else "over-costed" if official > hi else "under-costed" if official < lo else "within interval",
            "judged": "by games",
            "added_win_rate": round(float(added[i, 0]), 4),
            "win_rate_per_100_points": round(100.0 * float(per_point[0]), 4),
            "games": 2 * int(games) * len(pairs),
            "ignored_rules": ", ".join(sorted(ignored.get(i, set()) & _own_rule_names(u))),
        })
    rows.sort(key=lambda r: (r["difference_pct"] is None, -abs(r["difference_pct"] or 0.0)))
    return rows
