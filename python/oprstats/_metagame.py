"""The metagame of a win-rate table (:func:`metagame`): the mix a field that adapts would
play (the equilibrium of the zero-sum game the table is), how far behind it every list or
faction is, how much of the table is one strength order rather than counter-play, and the
price adjustments under which every option is worth taking. ``docs/metagame.md`` gives the
definitions and how to read each figure.
"""

from __future__ import annotations

import math
import numbers
from typing import Any, Optional, Sequence

import numpy as np

from . import _core
from ._attack import LIMITS, as_float, check_threads, seed_sequence, shown
from ._distributed import check_client, check_partitions, partitions_of

# The share a win rate is kept away from 0 and 1 before its logit (a matchup never won in
# the games played would be an infinite logit): 0.01 is a logit of ±4.6, 99 games in 100.
DEFAULT_CLIP = 0.01
# A weight above this is in the equilibrium's support (far above the solver's rounding,
# 1e-9, and far below any share a field would notice).
DEFAULT_SUPPORT_THRESHOLD = 1e-6
# Games behind one cell of a table whose replicates are drawn (``replicates=<int>``).
MAX_GAMES_PER_PAIR = 10**9
# Win rates of the replicates handed to the core at once: the memory of drawn tables.
_CHUNK_CELLS = 1 << 24
# The per-strategy columns of ``Metagame.to_pandas()``.
COLUMNS = ("strategy", "mix", "regret", "in_support", "support_probability", "rating", "price_logits", "price_logits_low",
           "price_logits_high", "price_points", "price_points_low", "price_points_high")


def _is_frame(value: Any) -> bool:
    return hasattr(value, "columns") and hasattr(value, "index") and hasattr(value, "to_numpy")


def _square(values: Any, field: str) -> np.ndarray:
    """``values`` as a float array; a TypeError naming ``field`` when it holds no numbers."""
    try:
        return np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise TypeError(f"{field}: expected a square array of win rates (numbers from 0 to 1), got {type(values).__name__}") from None


def _as_table(table: Any) -> tuple[np.ndarray, Optional[tuple]]:
    """The table as a square float array, and the names a DataFrame, or a table of the
    library's with ``win_rates`` and ``names`` (``faction_table``'s), gives its strategies."""
    names = None
    if not _is_frame(table) and hasattr(table, "win_rates") and hasattr(table, "names"):
        names = tuple(str(x) for x in table.names)
        table = table.win_rates
    if _is_frame(table):
        rows, columns = [str(x) for x in table.index], [str(x) for x in table.columns]
        if rows != columns:
            raise ValueError(f"table: a DataFrame's rows and columns must name the same strategies in the same order (got rows "
                             f"{shown(rows)} and columns {shown(columns)})")
        names = tuple(rows)
        table = table.to_numpy()
    w = _square(table, "table")
    if w.ndim != 2 or w.shape[0] != w.shape[1]:
        raise ValueError(f"table: must be square, a row and a column per strategy (got shape {w.shape})")
    return w, names


def _check_names(names: Any, n: int) -> tuple:
    # any ordered collection (a list, an array, a pandas Index), not a lone string or a set
    if isinstance(names, (str, bytes, set, frozenset, dict)) or not hasattr(names, "__iter__"):
        raise TypeError(f"names: expected a sequence of {n} names, got {type(names).__name__}")
    names = tuple(str(x) for x in names)
    if len(names) != n:
        raise ValueError(f"names: one per strategy, {n} (got {len(names)})")
    seen: set = set()
    for i, name in enumerate(names):
        if name in seen:
            raise ValueError(f"names[{i}]: each strategy's name once (got {name!r} twice)")
        seen.add(name)
    return names


def _check_request(n: int, replicates: int) -> None:
    """The limits (docs/limits.md), refused before any work: the core checks them too."""
    def over(field: str, value: int, limit: int) -> ValueError:
        return ValueError(f"{field}: {value} is over the limit of {limit} this library accepts")

    if n > LIMITS["MAX_STRATEGIES"]:
        raise over("table: strategies", n, LIMITS["MAX_STRATEGIES"])
    if replicates > LIMITS["MAX_REPLICATES"]:
        raise over("replicates: resampled tables", replicates, LIMITS["MAX_REPLICATES"])
    work = n**3 * (replicates + 1)
    if work > LIMITS["MAX_METAGAME_WORK"]:
        raise over("metagame work (strategies³ × (replicates + 1))", work, LIMITS["MAX_METAGAME_WORK"])


def _check_share(name: str, value: Any, low: float, high: float, *, low_open: bool = False, high_open: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a number, got {shown(value)}")
    x = as_float(value, name)
    below = x <= low if low_open else x < low
    above = x >= high if high_open else x > high
    if not math.isfinite(x) or below or above:
        bounds = f"{'above' if low_open else 'at least'} {low:g} and {'below' if high_open else 'at most'} {high:g}"
        raise ValueError(f"{name}: must be {bounds} (got {shown(value)})")
    return x


def _as_replicates(replicates: Any, n: int, names: Optional[tuple]) -> np.ndarray:
    """Resampled tables given by the caller, as an ``(R, n, n)`` float array."""
    if isinstance(replicates, (list, tuple)):
        for r, t in enumerate(replicates):
            if _is_frame(t) and names is not None and ([str(x) for x in t.index] != list(names) or [str(x) for x in t.columns] != list(names)):
                raise ValueError(f"replicates[{r}]: its rows and columns must be the table's strategies, in the table's order")
        replicates = [t.to_numpy() if _is_frame(t) else t for t in replicates]
    tables = _square(replicates, "replicates")
    if tables.ndim != 3 or tables.shape[1:] != (n, n):
        raise ValueError(f"replicates: expected resampled tables of shape (R, {n}, {n}), like the table's (got shape {tables.shape})")
    if tables.shape[0] == 0:
        raise ValueError("replicates: at least one resampled table (got none); None for no noise-aware figures")
    return tables


def _check_games(games: Any, n: int) -> np.ndarray:
    """``games=``: the games behind each pair of the table, a whole number or a symmetric
    ``(n, n)`` array of them (the diagonal unused), each from 1 to ``MAX_GAMES_PER_PAIR``."""
    if isinstance(games, bool) or isinstance(games, numbers.Number) and not isinstance(games, numbers.Integral):
        raise TypeError(f"games: expected a whole number or an (n, n) array of whole numbers, got {shown(games)}")
    try:
        counts = np.full((n, n), games, dtype=float) if isinstance(games, numbers.Integral) else np.asarray(games, dtype=float)
    except (TypeError, ValueError, OverflowError):
        raise TypeError(f"games: expected a whole number or an (n, n) array of whole numbers, got {type(games).__name__}") from None
    if counts.shape != (n, n):
        raise ValueError(f"games: expected a whole number or an array of shape ({n}, {n}), like the table's (got shape {counts.shape})")
    off = ~np.eye(n, dtype=bool)
    bad = np.argwhere(off & ~((counts >= 1) & (counts <= MAX_GAMES_PER_PAIR) & (counts == np.round(counts))))
    if bad.size:
        i, j = bad[0]
        raise ValueError(f"games[{i}, {j}]: must be a whole number of games from 1 to {MAX_GAMES_PER_PAIR:,} (got {counts[i, j]!r})")
    asymmetric = np.argwhere(counts != counts.T)
    if asymmetric.size:
        i, j = asymmetric[0]
        raise ValueError(f"games[{i}, {j}]: the games of a pair are the same both ways (got {counts[i, j]!r} and {counts[j, i]!r})")
    return counts.astype(np.int64)


def drawn_tables(table: np.ndarray, games: np.ndarray, seeds: Sequence[np.random.SeedSequence]) -> np.ndarray:
    """One resampled table per seed: each pair's score drawn as ``games`` games, each won
    with the table's win rate (a parametric bootstrap; a draw, which counts half, is less
    spread than a win or a loss, so the spread drawn is at most the real one's)."""
    n = table.shape[0]
    upper = np.triu_indices(n, 1)
    played, p = games[upper], table[upper]
    out = np.full((len(seeds), n, n), 0.5)
    for k, seed in enumerate(seeds):
        share = np.random.default_rng(seed).binomial(played, p) / played
        out[k][upper] = share
        out[k][upper[::-1]] = 1.0 - share
    return out


def _replicates_block(kind: str, payload: Any, first: int, clip: float, threads_by_worker: Any) -> dict:
    """One block of replicates on a Dask worker: given (``"tables"``) or drawn there from
    their own seeds (``"drawn"``), so the result is the same whatever the blocks."""
    from ._distributed import _my_threads

    tables = payload if kind == "tables" else drawn_tables(*payload)
    # an array that came over the wire may be misaligned: numpy's own aligned copy
    return _core._metagame_replicates(np.require(tables, float, ["C", "A"]), first, clip, _my_threads(threads_by_worker))


def _merge(parts: list) -> dict:
    return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}


class Metagame:
    """The metagame of a win-rate table (:func:`metagame`). Arrays are per strategy, in the
    table's order, and read-only; a figure the inputs cannot give (intervals without
    replicates, points without ``points_per_logit``) is None.

    ``mix``: the equilibrium of the zero-sum game ``W - 1/2``, the maximum-entropy one when
    several exist (``unique`` False). ``regret``: ``1/2 - Σ_j W[i, j] mix[j]``, the share of
    games strategy ``i`` wins below half against the mix (0 on the support). ``support``:
    ``mix > support_threshold``; ``support_probability``: the share of the replicates whose
    equilibrium gives it such a weight. ``ratings`` (logits, mean zero) and
    ``transitive_share``: the transitive part of the logit table and its share of the
    table's squares (``transitive_share_low`` and ``_high``: the central ``interval`` of the
    replicates' shares, which noise pulls towards ``2/n``: they may lie on that side of the
    table's own). ``prices``: the adjustments (logits, mean zero; positive for a strategy
    too strong) under which every strategy wins half its games against the whole field;
    ``price_points``: the same in points, ``prices × points_per_logit``. ``*_low`` and
    ``*_high``: the central ``interval`` of the replicates (percentile intervals).
    """

    __slots__ = ("names", "table", "mix", "regret", "unique", "support", "support_threshold", "support_probability", "ratings",
                 "transitive_share", "transitive_share_low", "transitive_share_high", "prices", "prices_low", "prices_high",
                 "points_per_logit", "price_points", "price_points_low", "price_points_high", "replicates", "replicate_mix",
                 "replicate_prices", "interval", "clip")
    names: tuple
    table: np.ndarray
    mix: np.ndarray
    regret: np.ndarray
    unique: bool
    support: np.ndarray
    support_threshold: float
    support_probability: Optional[np.ndarray]
    ratings: np.ndarray
    transitive_share: float
    transitive_share_low: Optional[float]
    transitive_share_high: Optional[float]
    prices: np.ndarray
    prices_low: Optional[np.ndarray]
    prices_high: Optional[np.ndarray]
    points_per_logit: Optional[float]
    price_points: Optional[np.ndarray]
    price_points_low: Optional[np.ndarray]
    price_points_high: Optional[np.ndarray]
    replicates: int
    replicate_mix: Optional[np.ndarray]
    replicate_prices: Optional[np.ndarray]
    interval: float
    clip: float

    def __init__(self, **fields: Any) -> None:
        for name in self.__slots__:
            value = fields[name]
            if isinstance(value, np.ndarray):
                value.flags.writeable = False
            object.__setattr__(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"Metagame is immutable: {name} cannot be set")

    def __reduce__(self):
        return (_rebuild, ({name: getattr(self, name) for name in self.__slots__},))

    def __len__(self) -> int:
        return len(self.names)

    @property
    def logits(self) -> np.ndarray:
        """``ln(W / (1 - W))`` of the table, each win rate first kept within ``[clip, 1 - clip]``."""
        clipped = np.clip(self.table, self.clip, 1.0 - self.clip)
        upper = np.triu(np.log(clipped) - np.log(1.0 - clipped), 1)
        return upper - upper.T

    @property
    def transitive(self) -> np.ndarray:
        """The strength order's part of the logits: ``ratings[i] - ratings[j]``."""
        return self.ratings[:, None] - self.ratings[None, :]

    @property
    def cyclic(self) -> np.ndarray:
        """The counter-play left in the logits, ``logits - transitive``: each row sums to zero."""
        return self.logits - self.transitive

    def to_pandas(self):
        """One row per strategy, in the table's order: its weight in the mix, regret,
        whether it is in the support and how often over the replicates, rating, and price
        in logits and in points with their intervals (NaN where the inputs give none).
        Needs pandas."""
        from ._optional import pandas

        pd = pandas("to_pandas()")
        n = len(self.names)
        missing = np.full(n, np.nan)
        pick = lambda value: missing if value is None else value  # noqa: E731
        data = {
            "strategy": list(self.names), "mix": self.mix, "regret": self.regret, "in_support": self.support,
            "support_probability": pick(self.support_probability), "rating": self.ratings, "price_logits": self.prices,
            "price_logits_low": pick(self.prices_low), "price_logits_high": pick(self.prices_high), "price_points": pick(self.price_points),
            "price_points_low": pick(self.price_points_low), "price_points_high": pick(self.price_points_high),
        }
        return pd.DataFrame({name: data[name] for name in COLUMNS})

    def _prices_shown(self) -> tuple[np.ndarray, Optional[np.ndarray], Optional[np.ndarray], str]:
        """The prices as shown: in points when the result has a rate, else in logits, with
        their intervals (None without replicates) and the unit's name."""
        if self.price_points is not None:
            return self.price_points, self.price_points_low, self.price_points_high, "points"
        return self.prices, self.prices_low, self.prices_high, "logits"

    def _order(self) -> np.ndarray:
        """Strategies by weight in the mix, then by regret: the metagame first."""
        return np.lexsort((self.regret, -self.mix))

    def _share_text(self) -> str:
        if math.isnan(self.transitive_share):
            return "no transitive share (every matchup even)"
        # the replicates' range, not an interval around the share: noise looks like
        # counter-play, so a noisier table's share is pulled towards 2/n (docs/metagame.md)
        spread = "" if self.transitive_share_low is None else f" (resampled: {self.transitive_share_low:.0%} to {self.transitive_share_high:.0%})"
        return f"{self.transitive_share:.0%} of the table is strength, the rest counter-play{spread}"

    def __repr__(self) -> str:
        order = self._order()
        shown_mix = ", ".join(f"{self.names[i]} {self.mix[i]:.3f}" for i in order[:6] if self.support[i])
        more = int(self.support.sum()) - min(6, int(self.support.sum()))
        mix = shown_mix + (f" and {more} more" if more > 0 else "")
        noise = f"; {self.replicates} replicates" if self.replicates else ""
        several = "" if self.unique else " (one of several: the most mixed)"
        return f"Metagame({len(self.names)} strategies: equilibrium {mix}{several}; {self._share_text()}{noise})"

    def _repr_html_(self) -> str:
        from . import _display as d

        order = self._order()
        price, low, high, unit = self._prices_shown()
        rows = []
        for i in order[: d.MAX_ROWS]:
            row = [self.names[i], d.bar(self.mix[i]), d._num(self.mix[i], 3), "yes" if self.support[i] else "",
                   "" if self.support_probability is None else d._num(self.support_probability[i], 3), d._num(self.regret[i], 3),
                   d._num(self.prices[i], 3)]
            if unit == "points":
                row.append(d._num(price[i], 3))
            if low is not None and high is not None:
                row.append(f"[{d._num(low[i], 3)}, {d._num(high[i], 3)}]")
            rows.append(row)
        headers = ["strategy", "", "mix", "support", "P(support)", "regret", "price (logits)"]
        if unit == "points":
            headers.append("price (points)")
        if low is not None:
            headers.append(f"{self.interval:.0%} interval ({unit})")
        lines = [f"{len(self.names)} strategies, {int(self.support.sum())} in the equilibrium's support"
                 + ("" if self.unique else " (several equilibria: the most mixed shown)"), self._share_text().capitalize()]
        notes = [f"P(support): over {self.replicates} resampled tables." if self.replicates else "No replicates: no support probabilities or intervals.",
                 "Regret: the share of games won below half against the mix. Price: the adjustment under which every strategy wins "
                 "half its games against the field (positive: too strong)."]
        if len(order) > d.MAX_ROWS:
            notes.insert(0, f"The first {d.MAX_ROWS} of {len(order)} strategies by weight, then regret (to_pandas() has them all).")
        return d.block("Metagame", lines, d.table(headers, rows, [False, False] + [True] * (len(headers) - 2)), notes=notes)


def _rebuild(state: dict) -> Metagame:
    return Metagame(**state)


def metagame(
    table: Any,
    *,
    names: Optional[Sequence[str]] = None,
    replicates: Any = None,
    games: Any = None,
    points_per_logit: Optional[float] = None,
    interval: float = 0.95,
    support_threshold: float = DEFAULT_SUPPORT_THRESHOLD,
    clip: float = DEFAULT_CLIP,
    seed: Any = None,
    threads: Optional[int] = None,
    client: Any = None,
    partitions: Optional[int] = None,
) -> Metagame:
    """The metagame of a win-rate table: ``table[i, j]`` is the share of games strategy (list
    or faction) ``i`` wins against ``j``, draws counting half, so ``table + table.T == 1``
    (within 10⁻⁶; it is then made exact) with 0.5 on the diagonal. A 2-D array, a pandas
    DataFrame whose rows and columns name the strategies, or a table with ``win_rates`` and
    ``names`` (a ``faction_table``, whose bootstrap tables are then
    ``replicates=table.replicates``); ``names`` names them otherwise.

    The equilibrium mix, each strategy's regret against it, the transitive share and the
    prices come from the table alone. ``replicates`` makes them noise-aware: resampled tables
    (an ``(R, n, n)`` array or a sequence of tables, e.g. bootstrap replicates of the games),
    or a number of tables to draw from ``games`` (the games behind each pair, a number or an
    ``(n, n)`` array), each pair's score drawn as that many games won at the table's rate
    (seeded by ``seed``: an int, a ``SeedSequence`` or None, fresh entropy). From them: how often each strategy is in the equilibrium's support
    (a weight above ``support_threshold``), the central ``interval`` of the prices
    (percentile intervals), and the range of the transitive share. Without replicates these
    figures are None.

    ``points_per_logit``: the points of army that move the win logit by one (the inverse of
    the slope of the win logit per point, measured by the caller: a number, or anything
    ``float()`` reads one from); the prices are then in points too. ``clip``: win rates are
    kept within ``[clip, 1 - clip]`` for the logits (the split and the prices; 0.01 is a
    logit of ±4.6). ``threads``: the replicates are solved in parallel in Rust;
    ``client`` (a ``dask.distributed.Client``) solves them in ``partitions`` blocks on its
    workers instead (the same numbers). Limits (checked before any work): at most 2,000
    strategies and 10,000 replicates, and ``strategies³ × (replicates + 1)`` at most
    4 × 10¹⁰ (docs/limits.md). Definitions: docs/metagame.md.
    """
    w, frame_names = _as_table(table)
    n = w.shape[0]
    if names is not None and frame_names is not None:
        raise ValueError("names: give names= or a table that names the strategies (a DataFrame, a faction table), not both")
    names = _check_names(names, n) if names is not None else frame_names or tuple(f"strategy {i}" for i in range(n))
    interval = _check_share("interval", interval, 0.0, 1.0, low_open=True, high_open=True)
    support_threshold = _check_share("support_threshold", support_threshold, 0.0, 1.0, high_open=True)
    clip = _check_share("clip", clip, 1e-9, 0.5, high_open=True)
    if points_per_logit is not None:
        # a number, or a measure of one (points_per_logit()'s result is its estimate as a float)
        rate = points_per_logit
        if not isinstance(rate, (numbers.Real, str, bytes)) and hasattr(type(rate), "__float__"):
            rate = float(rate)
        points_per_logit = _check_share("points_per_logit", rate, 0.0, LIMITS["MAX_COST"], low_open=True)
    seeds = seed_sequence(seed)
    check_threads(threads)
    client = check_client(client)
    check_partitions(partitions)
    drawn = isinstance(replicates, numbers.Integral) and not isinstance(replicates, bool)
    if isinstance(replicates, bool):
        raise TypeError("replicates: expected None, a number of tables to draw, or resampled tables, got bool")
    if drawn:
        if replicates < 1:
            raise ValueError(f"replicates: a number of tables to draw must be 1 or more (got {shown(replicates)})")
        if games is None:
            raise ValueError("games: replicates=<a number> draws tables from the games behind each pair; give games= too")
        count = int(replicates)
    elif replicates is not None:
        if games is not None:
            raise ValueError("games: only for replicates=<a number> (tables drawn here); these replicates are given")
        count = -1  # known once read
    else:
        if games is not None:
            raise ValueError("games: only for replicates=<a number> (tables drawn here); there are no replicates")
        count = 0
    _check_request(n, max(count, 0))
    shape = getattr(replicates, "shape", None)
    if count < 0 and isinstance(shape, tuple) and len(shape) == 3:
        _check_request(n, int(shape[0]))  # before an array is read or copied
    counts = _check_games(games, n) if drawn else None
    given = _as_replicates(replicates, n, names) if count < 0 else None
    if given is not None:
        count = given.shape[0]
        _check_request(n, count)

    point = _core._metagame(np.ascontiguousarray(w), clip)
    exact = point["table"]
    per = None
    if count:
        children = seeds.spawn(count) if drawn else []

        def source(block: range) -> tuple:
            if drawn:
                return "drawn", (exact, counts, children[block.start:block.stop])
            assert given is not None
            return "tables", np.ascontiguousarray(given[block.start:block.stop])

        if client is None:
            step = max(1, _CHUNK_CELLS // (n * n))
            parts = []
            for start in range(0, count, step):
                kind, payload = source(range(start, min(count, start + step)))
                tables = payload if kind == "tables" else drawn_tables(*payload)
                parts.append(_core._metagame_replicates(tables, start, clip, None if threads is None else int(threads)))
        else:
            from ._distributed import task_threads

            threads_by_worker = task_threads(client)
            futures = [client.submit(_replicates_block, *source(block), block.start, clip, threads_by_worker, pure=False)
                       for block in partitions_of(count, partitions, client)]
            parts = client.gather(futures)
        per = _merge(parts)

    mix = point["mix"]
    fields: dict = dict(names=names, table=exact, mix=mix, regret=point["regret"], unique=bool(point["unique"]),
                        support=mix > support_threshold, support_threshold=support_threshold, ratings=point["ratings"],
                        transitive_share=float(point["transitive_share"]), prices=point["prices"], points_per_logit=points_per_logit,
                        replicates=count, interval=interval, clip=clip)
    tail = 50.0 * (1.0 - interval)
    if per is None:
        fields.update(support_probability=None, transitive_share_low=None, transitive_share_high=None, prices_low=None, prices_high=None,
                      replicate_mix=None, replicate_prices=None)
    else:
        shares = per["transitive_share"][np.isfinite(per["transitive_share"])]
        low, high = (float(x) for x in np.percentile(shares, [tail, 100.0 - tail])) if shares.size else (None, None)
        prices_low, prices_high = np.percentile(per["prices"], [tail, 100.0 - tail], axis=0)
        fields.update(support_probability=(per["mix"] > support_threshold).mean(axis=0), transitive_share_low=low, transitive_share_high=high,
                      prices_low=prices_low, prices_high=prices_high, replicate_mix=per["mix"], replicate_prices=per["prices"])
    scale = points_per_logit
    fields.update(price_points=None if scale is None else fields["prices"] * scale,
                  price_points_low=None if scale is None or per is None else fields["prices_low"] * scale,
                  price_points_high=None if scale is None or per is None else fields["prices_high"] * scale)
    return Metagame(**fields)
