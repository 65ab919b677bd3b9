"""``shapley_values``: what each unit of a list is worth inside it, by games (docs/factions.md,
"A unit's worth inside its list").

The players are the list's selections (a joined hero is its own, as ``validate_list``
counts it); a coalition is the army of those selections (a hero whose unit is out plays
alone), and its value its win rate against the opponents, in paired games on one seed for
every coalition (common random numbers). The empty army loses every game: value 0. A unit's
Shapley value is its mean marginal win rate over orders of arrival (sampled, or all of them
when there are no more than ``permutations``); the values add up to the whole list's win
rate. In points, each is scaled by the list's points over its win rate, so the values add up
to the list's points: what the unit is worth of the list's total, by what it does with the
rest. Beside it, the leave-one-out worth: the win rate lost without the unit, in points at
what the list's own units are worth a point (as ``fair_cost(method="games")`` prices one).
"""

from __future__ import annotations

import itertools
import math
import numbers
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ._attack import seed_sequence, shown
from ._core import Army, Unit
from ._editions import DEFAULT_EDITION
from ._factions import MAX_DRAW_CELLS, MAX_TABLE_GAMES, PAIR_SCORES, check_run, keyed_seed, run_pairings
from ._matchups import _percentile_range

#: At most this many selections in a list (a coalition per subset met).
MAX_PLAYERS = 40
#: At most this many sampled orders.
MAX_PERMUTATIONS = 100_000


@dataclass(frozen=True, eq=False, repr=False)
class ShapleyValues:
    """Each selection's worth inside its list (:func:`shapley_values`).

    ``units``: the selections' labels (a name, numbered when it repeats); ``costs``: their
    points. ``value``: the list's win rate against the opponents (a draw counts half).
    ``shapley``: each one's Shapley value in win rate (they add up to ``value``), and
    ``shapley_points`` in points (they add up to the list's points), with
    ``shapley_low``/``shapley_high`` its interval in points. ``leave_one_out``: the win rate
    lost without it, ``leave_one_out_points`` in points at ``win_rate_per_point`` (the list's
    own units' summed leave-one-out over their points), with its interval.
    """

    army: str
    units: tuple[str, ...]
    costs: tuple[int, ...]
    value: float
    shapley: np.ndarray
    shapley_points: np.ndarray
    shapley_low: np.ndarray
    shapley_high: np.ndarray
    leave_one_out: np.ndarray
    leave_one_out_points: np.ndarray
    leave_one_out_low: np.ndarray
    leave_one_out_high: np.ndarray
    win_rate_per_point: float
    permutations: int
    exact_orders: bool
    coalitions: int
    games: int
    interval: float
    interrupted: bool
    unmodelled: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.units)

    def to_pandas(self) -> Any:
        """A row per selection: its points, Shapley value and leave-one-out worth, in win rate
        and in points, with intervals; largest Shapley value first."""
        from ._optional import pandas

        pd = pandas("to_pandas()")
        frame = pd.DataFrame({"unit": self.units, "official": self.costs, "shapley": self.shapley, "shapley_points": self.shapley_points,
                              "shapley_low": self.shapley_low, "shapley_high": self.shapley_high, "leave_one_out": self.leave_one_out,
                              "leave_one_out_points": self.leave_one_out_points, "leave_one_out_low": self.leave_one_out_low,
                              "leave_one_out_high": self.leave_one_out_high})
        return frame.sort_values("shapley_points", ascending=False, kind="stable").reset_index(drop=True)

    def _lines(self) -> list[str]:
        orders = "every order" if self.exact_orders else f"{self.permutations:,} sampled orders"
        out = [f"{self.army}: win rate {100 * self.value:.1f}% ({self.games:,} pairs of games a coalition, {self.coalitions:,} coalitions, "
               f"{orders})" + (" (interrupted)" if self.interrupted else "")]
        for k in np.argsort(-np.nan_to_num(self.shapley_points, nan=-np.inf), kind="stable"):
            out.append(f"  {self.units[k]} ({self.costs[k]} pts): Shapley {_pts(self.shapley_points[k])} "
                       f"({_pts(self.shapley_low[k])}–{_pts(self.shapley_high[k])}), leave-one-out {_pts(self.leave_one_out_points[k])}")
        if self.unmodelled:
            out.append(f"rules the game does not model: {', '.join(self.unmodelled[:12])}")
        return out

    def __repr__(self) -> str:
        return "ShapleyValues(" + "\n".join(self._lines()) + ")"

    def _repr_html_(self) -> str:
        from . import _display as d

        level = f"{self.interval:.0%}"
        rows = [[self.units[k], str(self.costs[k]), _pts(self.shapley_points[k]), f"{_pts(self.shapley_low[k])}–{_pts(self.shapley_high[k])}",
                 _pts(self.leave_one_out_points[k]), f"{_pts(self.leave_one_out_low[k])}–{_pts(self.leave_one_out_high[k])}"]
                for k in np.argsort(-np.nan_to_num(self.shapley_points, nan=-np.inf), kind="stable")]
        table = d.table(["unit", "official", "Shapley, pts", f"{level} interval", "leave-one-out, pts", f"{level} interval"], rows,
                        [False, True, True, True, True, True])
        return d.block("Shapley values", self._lines()[:1], table)



def _pts(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{x:.0f}"


def _players(army: Army) -> tuple[list[Unit], list[Optional[int]]]:
    """The selections (a joined hero after its unit) and, for each hero, its unit's index."""
    players: list[Unit] = []
    host: list[Optional[int]] = []
    for unit in army.units:
        hero = unit.hero
        if hero is None:
            players.append(unit)
            host.append(None)
        else:
            players.append(unit.base)
            host.append(None)
            players.append(hero)
            host.append(len(players) - 2)
    return players, host


def _coalition_army(players: list[Unit], host: list[Optional[int]], members: frozenset, name: str) -> Army:
    units = []
    for k in sorted(members):
        if host[k] is not None and host[k] in members:
            continue  # joined to its unit below
        heroes = [h for h in members if host[h] == k]
        units.append(players[k].join(players[heroes[0]]) if heroes else players[k])
    return Army(units, name=name)


def _labels(players: list[Unit]) -> list[str]:
    counts: dict = {}
    for u in players:
        counts[u.name] = counts.get(u.name, 0) + 1
    seen: dict = {}
    out = []
    for u in players:
        seen[u.name] = seen.get(u.name, 0) + 1
        out.append(u.name if counts[u.name] == 1 else f"{u.name} #{seen[u.name]}")
    return out


def shapley_values(army: Any, opponents: Any, *, games: int = 100, permutations: int = 50, seed: Any = None, edition: str = DEFAULT_EDITION,
                   terrain: Any = "standard",
                   interval: float = 0.95, resamples: int = 1000, client: Any = None, partitions: Optional[int] = None,
                   threads: Optional[int] = None, progress: bool = True) -> ShapleyValues:
    """What each unit of ``army`` is worth inside it, by games against ``opponents`` (an
    army or a sequence of them).

    Every coalition of the list's selections met (a joined hero is its own; a hero whose unit
    is out plays alone) plays ``games`` pairs of paired games against each opponent, all on
    one seed per opponent (common random numbers); the empty army scores 0. Shapley values
    average each selection's marginal win rate over ``permutations`` orders drawn at random
    (every order when there are no more: exact for the games played), and add up to the
    list's win rate; in points they add up to its points. Leave-one-out worth is beside them.
    Intervals (``interval``) are a bootstrap over both the orders and the pairs of games.
    """
    from ._distributed import check_client, check_partitions
    from ._game import _units as army_units, check_game_edition

    check_game_edition(edition)
    if not isinstance(army, Army):
        army = Army(army_units(army, "army"), name="army")
    if isinstance(opponents, (Army, str)) or not isinstance(opponents, (list, tuple)):
        opponents = [opponents]
    foes = [o if isinstance(o, Army) else Army(army_units(o, f"opponents[{k}]"), name=f"opponent {k + 1}") for k, o in enumerate(opponents)]
    if not foes:
        raise ValueError("opponents: give at least one opponent army")
    check_run(games=games, resamples=resamples, interval=interval, progress=progress, terrain=terrain, threads=threads)
    if isinstance(permutations, bool) or not isinstance(permutations, numbers.Integral) or not 1 <= permutations <= MAX_PERMUTATIONS:
        raise ValueError(f"permutations: must be a whole number from 1 to {MAX_PERMUTATIONS:,} (got {shown(permutations)})")
    client = check_client(client)
    check_partitions(partitions)
    players, host = _players(army)
    n = len(players)
    if not 2 <= n <= MAX_PLAYERS:
        raise ValueError(f"army: from 2 to {MAX_PLAYERS} selections (got {n})")
    if any(not u.cost for u in players):
        raise ValueError(f"army: {next(u.name for u in players if not u.cost)} has no points cost; worth in points needs them")
    root = seed_sequence(seed)
    order_seed, game_seed, boot_seed = root.spawn(3)
    exact = math.factorial(n) <= permutations
    if exact:
        orders = [list(p) for p in itertools.permutations(range(n))]
    else:
        rng = np.random.Generator(np.random.PCG64(order_seed))
        orders = [list(rng.permutation(n)) for _ in range(int(permutations))]
    everyone = frozenset(range(n))
    # the whole list and the leave-one-out coalitions first, then each order's in turn: a run
    # stopped by Ctrl-C keeps the orders it completed
    met: dict = {everyone: None}
    met.update((everyone - {k}, None) for k in range(n))
    for order in orders:
        met.update((frozenset(order[:j]), None) for j in range(1, n + 1))
    coalitions = list(met)
    if len(coalitions) * (1 + int(resamples)) > MAX_DRAW_CELLS:
        raise ValueError(f"resamples: {len(coalitions):,} coalitions' values in {resamples:,} draws take too much memory; at most "
                         f"{MAX_DRAW_CELLS // len(coalitions) - 1:,} draws for them")
    if not exact and len(orders) * (1 + int(resamples)) > MAX_DRAW_CELLS:
        raise ValueError(f"resamples: {len(orders):,} sampled orders drawn again {resamples:,} times take too much memory; "
                         f"at most {MAX_DRAW_CELLS // len(orders) - 1:,} draws for {len(orders):,} orders")
    total = 2 * int(games) * len(coalitions) * len(foes)
    if total > MAX_TABLE_GAMES:
        raise ValueError(f"permutations: {len(coalitions):,} coalitions against {len(foes)} opponents is {total:,} games, over the "
                         f"{MAX_TABLE_GAMES:,} one call plays; fewer permutations or games")
    items, where = [], []
    keys = [keyed_seed(game_seed, o) for o in range(len(foes))]
    for c in coalitions:
        coalition = _coalition_army(players, host, c, army.name)
        for o, foe in enumerate(foes):
            items.append(dict(army_a=coalition, army_b=foe, games=int(games), seed=keys[o], terrain=terrain, threads=threads, keep_scores=True,
                              edition=edition))
            where.append((c, o))
    results, interrupted = run_pairings(items, client=client, partitions=partitions, progress=progress, desc="coalitions")
    scores: dict = {}
    unmodelled: set = set()
    for (c, o), r in zip(where, results):
        if r is not None:
            scores.setdefault(c, {})[o] = PAIR_SCORES[r["scores"]]
            unmodelled.update(r["unmodelled"])
    pairs = min((len(v) for per in scores.values() for v in per.values()), default=0)
    complete = [c for c in coalitions if c in scores and len(scores[c]) == len(foes)]
    index = {c: k for k, c in enumerate(complete)}
    # [coalition, game pair]: the mean over opponents of each pair's score
    matrix = np.array([np.mean([scores[c][o][:pairs] for o in range(len(foes))], axis=0) for c in complete]) if complete and pairs else np.zeros((0, 0))
    usable = [order for order in orders if all(frozenset(order[:j]) in index for j in range(1, n + 1))]
    rng = np.random.Generator(np.random.PCG64(boot_seed))
    # the estimate, then each bootstrap draw: the pairs of games (the same draw for every
    # coalition) and the orders drawn again
    weights = np.ones((pairs, 1 + int(resamples))) / max(pairs, 1)
    if pairs:
        weights[:, 1:] = rng.multinomial(pairs, np.full(pairs, 1.0 / pairs), size=int(resamples)).T / pairs
    values = matrix @ weights if matrix.size else np.zeros((0, 1 + int(resamples)))  # [coalition, draw]
    nan = np.full(1 + int(resamples), np.nan)
    value_of = lambda c: values[index[c]] if c in index else (np.zeros(1 + int(resamples)) if not c else nan)
    # how often each order counts in the estimate (once) and in each draw: every order taken,
    # once each (only the games are drawn again); sampled orders, drawn again with replacement
    times = np.ones((len(usable), 1 + int(resamples)))
    if usable and not exact:
        times[:, 1:] = rng.multinomial(len(usable), np.full(len(usable), 1.0 / len(usable)), size=int(resamples)).T
    # [player, draw], summed order by order (no array of every order's marginals)
    shapley = np.zeros((n, 1 + int(resamples)))
    for t, order in enumerate(usable):
        before = value_of(frozenset())
        for j in range(n):
            after = value_of(frozenset(order[: j + 1]))
            shapley[order[j]] += (after - before) * times[t]
            before = after
    shapley = shapley / len(usable) if usable else np.full((n, 1 + int(resamples)), np.nan)
    whole = value_of(everyone)
    costs = np.array([float(u.cost) for u in players])
    with np.errstate(divide="ignore", invalid="ignore"):
        shapley_points = shapley * costs.sum() / whole[None, :]
        lost = np.stack([whole - value_of(everyone - {k}) for k in range(n)])  # [player, draw]
        per_point = lost.sum(axis=0) / costs.sum()
        loo_points = lost / per_point[None, :]

    def bounds(draws: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Each selection's central ``interval`` of its finite draws (NaN without any)."""
        lo, hi = np.full(n, np.nan), np.full(n, np.nan)
        for k, row in enumerate(draws):
            low, high = _percentile_range(row, float(interval))
            if low is not None and high is not None:
                lo[k], hi[k] = low, high
        return lo, hi

    s_lo, s_hi = bounds(shapley_points[:, 1:])
    l_lo, l_hi = bounds(loo_points[:, 1:])
    return ShapleyValues(army=army.name or "army", units=tuple(_labels(players)), costs=tuple(int(c) for c in costs), value=float(whole[0]),
                         shapley=shapley[:, 0].copy(), shapley_points=shapley_points[:, 0].copy(), shapley_low=s_lo, shapley_high=s_hi,
                         leave_one_out=lost[:, 0].copy(), leave_one_out_points=loo_points[:, 0].copy(), leave_one_out_low=l_lo,
                         leave_one_out_high=l_hi, win_rate_per_point=float(per_point[0]), permutations=len(usable), exact_orders=exact,
                         coalitions=len(complete), games=int(games), interval=float(interval), interrupted=interrupted,
                         unmodelled=tuple(sorted(unmodelled)))
