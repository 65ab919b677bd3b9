"""Worth by play, by games (``fair_cost(method="games")``): what a unit adds to the win rate
of reference armies, in points of those armies' own units. See docs/points.md, "By games"."""

from __future__ import annotations

import numbers
import warnings
from typing import Any, Optional, Sequence

import numpy as np

from ._attack import seed_to_u64, shown
from ._core import Unit
from ._defaults import seed_or_zero
from ._census import unit_rule_names
from ._distributed import sweep
from ._game import _units as _army_units
from ._matchups import _pair_scores, _pair_weights, _percentile_range, price_columns
from ._points import _verdict


GAMES_COLUMNS = ("unit", "official", "fair", "low", "high", "difference", "difference_pct", "verdict", "judged", "added_win_rate",
                 "win_rate_per_100_points", "games", "ignored_rules")


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


def fair_cost_by_games(judged: Sequence[Unit], *, armies: Any, games: int, seed: Any, interval: float, resamples: int, client: Any,
                       partitions: Optional[int], threads: Optional[int]) -> list[dict]:
    """The rows of ``fair_cost(method="games")``."""
    if isinstance(games, bool) or not isinstance(games, numbers.Integral) or not 50 <= games <= 1_000_000:
        raise ValueError(f"games: must be a whole number of game pairs from 50 to 1,000,000 (got {shown(games)})")
    pairs = _reference_pairs(armies)
    # fair_cost's caller's line: fair_cost, _fair_cost, then here
    seed = seed_or_zero(seed, "fair_cost", 4)
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

        try:
            results = sweep(simulate, grid, client=client, partitions=partitions)
        except KeyboardInterrupt as exc:  # the runs are the sweep's items
            raise KeyboardInterrupt(f'fair_cost(method="games"): {str(exc).removeprefix("sweep: ").replace("items", "runs of games").replace("item ", "run ")}'
                                    ) from None
    ignored: dict = {}
    for r, (p, key) in zip(results, where):
        if key != "base" and key[0] == "with":
            ignored.setdefault(key[1], set()).update(rule for rule, (share_a, _) in r.unmodelled.items() if share_a > 0)
    scores = np.stack([_pair_scores(r.winner) for r in results])  # [variant, pair of games]
    means = scores @ _pair_weights(scores.shape[1], resamples, seed)  # [variant, 1 + resample]: the estimate, then the resamples
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
    rows = []
    for i, u in enumerate(judged):
        f = float(fair[i, 0])
        lo, hi = _percentile_range(fair[i, 1:], interval)
        official = u.cost
        rows.append({
            **price_columns(u.name, official, f, lo, hi),
            "verdict": _verdict(official, lo, hi),
            "judged": "by games",
            "added_win_rate": round(float(added[i, 0]), 4),
            "win_rate_per_100_points": round(100.0 * float(per_point[0]), 4),
            "games": 2 * int(games) * len(pairs),
            "ignored_rules": ", ".join(sorted(ignored.get(i, set()) & unit_rule_names(u))),
        })
    rows.sort(key=lambda r: (r["difference_pct"] is None, -abs(r["difference_pct"] or 0.0)))
    return rows
