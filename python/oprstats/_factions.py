"""``faction_table``: every faction (or pool of lists) against every other by paired games
(docs/factions.md).

Each pair of lists from two factions plays ``games`` pairs of games with the seats and the
first player swapped (``simulate(paired=True)``). A pair of games is the unit of
independence: its score for the first list is 0, 1/4, 1/2, 3/4 or 1 (a win counts 1, a draw
1/2, over both games). A faction's win rate against another is the mean over their lists'
pairings; against the field, the mean over the other factions. Intervals come from a
bootstrap at both levels: each faction's lists drawn again with replacement, then each
pairing's pairs of games drawn again with replacement; so they count both how the lists were
drawn and how the dice fell.
"""

from __future__ import annotations

import numbers
import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Optional, Sequence

import numpy as np

from ._attack import seed_sequence, shown
from ._core import Army, ArmyBook
from ._editions import DEFAULT_EDITION
from ._matchups import _pair_scores, _percentile_range

#: The most factions (or pools) one table takes, and lists in one pool.
MAX_FACTIONS = 200
MAX_LISTS_PER_FACTION = 100
#: The most games one table plays (both games of every pair counted).
MAX_TABLE_GAMES = 1_000_000_000
#: Bootstrap draws at most (each is a table of factions by factions).
MAX_RESAMPLES = 100_000
#: Cells of one array of bootstrap draws at most (8 bytes each).
MAX_DRAW_CELLS = 200_000_000
#: A pair of games scores 0, 1/4, 1/2, 3/4 or 1 for its first list: the counts of these five
#: outcomes are all a pairing keeps, and all its bootstrap needs.
PAIR_SCORES = np.array([0.0, 0.25, 0.5, 0.75, 1.0])


def keyed_seed(root: np.random.SeedSequence, *key: int) -> np.random.SeedSequence:
    """The seed of one run, keyed by its place (faction, list, ...) under ``root``: the same
    place gets the same games whatever else a call holds, and whatever threads or cluster."""
    return np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + key)


def check_run(*, games: Any, resamples: Any, interval: Any, progress: Any, terrain: Any = "standard", threads: Any = None) -> None:
    """The arguments every function of paired games here shares, checked alike before any
    list is drawn or game played."""
    from ._attack import check_threads
    from ._game import terrain_pieces

    terrain_pieces(terrain)
    check_threads(threads)
    if isinstance(games, bool) or not isinstance(games, numbers.Integral) or games < 1:
        raise ValueError(f"games: must be a whole number of pairs of games of at least 1 (got {shown(games)})")
    if isinstance(resamples, bool) or not isinstance(resamples, numbers.Integral) or not 100 <= int(resamples) <= MAX_RESAMPLES:
        raise ValueError(f"resamples: must be a whole number from 100 to {MAX_RESAMPLES:,} (got {shown(resamples)})")
    if isinstance(interval, bool) or not isinstance(interval, numbers.Real) or not 0.5 <= float(interval) < 1.0:
        raise ValueError(f"interval: must be a share from 0.5 to below 1 (got {shown(interval)})")
    if not isinstance(progress, (bool, np.bool_)):
        raise TypeError(f"progress: expected a bool, got {type(progress).__name__}")


def play_pairing(army_a: Any, army_b: Any, games: int, seed: Any, terrain: Any, threads: Optional[int], keep_scores: bool = False,
                 edition: str = DEFAULT_EDITION) -> dict:
    """One pairing of two lists: ``games`` pairs of paired games. Returns the counts of each
    pair score (``PAIR_SCORES``) for ``army_a``, the rules either army carries that the game
    does not model, and whether a Ctrl-C cut it short. Small, so a cluster sends little back;
    ``keep_scores``: also each pair's score, in quarters (``"scores"``, for paired differences)."""
    from ._game import simulate

    with warnings.catch_warnings():
        # unequal points and rules not modelled are reported by the table, not per pairing
        warnings.simplefilter("ignore", UserWarning)
        r = simulate(army_a, army_b, games=games, seed=seed, paired=True, terrain=terrain, threads=threads, progress=False, edition=edition)
    winner = np.asarray(r.winner)
    # whole pairs only (a Ctrl-C may stop between a pair's two games)
    scores = _pair_scores(winner[: len(winner) // 2 * 2])
    quarters = np.rint(scores * 4).astype(np.uint8)
    counts = np.bincount(quarters, minlength=len(PAIR_SCORES))
    unmodelled = {rule: (float(a), float(b)) for rule, (a, b) in r.unmodelled.items() if a > 0 or b > 0}
    out = {"counts": counts, "unmodelled": unmodelled, "interrupted": bool(r.interrupted)}
    if keep_scores:
        out["scores"] = quarters
    return out


def _run_items(items: list) -> list:
    return [play_pairing(**kwargs) for kwargs in items]


def run_pairings(items: list, *, client: Any, partitions: Optional[int], progress: bool, desc: str = "pairings") -> tuple[list, bool]:
    """``play_pairing(**item)`` for every item, locally one by one or in ``partitions``
    batches on a Dask ``client``, with a progress bar. Ctrl-C (or a pairing a Ctrl-C cut
    short) stops the run: the results not played are None, and the flag says so."""
    from ._distributed import partitions_of
    from ._optional import progress_bar

    results: list = [None] * len(items)
    interrupted = False
    bar = progress_bar()(total=len(items), desc=desc, unit="pairing", disable=not progress, leave=False)
    try:
        if client is None:
            for k, kwargs in enumerate(items):
                results[k] = play_pairing(**kwargs)
                bar.update(1)
                if results[k]["interrupted"]:
                    interrupted = True
                    break
        else:
            from distributed import as_completed

            blocks = partitions_of(len(items), partitions, client)
            futures = {client.submit(_run_items, [items[k] for k in block], pure=False): block for block in blocks}
            try:
                for future in as_completed(list(futures)):
                    block = futures[future]
                    for k, r in zip(block, future.result()):
                        results[k] = r
                        interrupted |= r["interrupted"]
                    bar.update(len(block))
            except KeyboardInterrupt:
                client.cancel(list(futures))
                raise
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    return results, interrupted


@dataclass(frozen=True, eq=False, repr=False)
class FactionTable:
    """Every faction against every other (:func:`faction_table`).

    ``names``: the factions (or pools). ``win_rates[i, j]``: faction ``i``'s share of its
    games against ``j`` (a draw counts half; the diagonal is 1/2), with ``low``/``high`` its
    interval. ``field[i]``: faction ``i`` against the field (the mean over the other
    factions), with ``field_low``/``field_high``. ``pairs[i, j]``: pairs of games played
    between them. ``replicates``: the bootstrap's tables ``[draw, i, j]``, for
    :func:`oprstats.metagame`'s noise-aware figures. ``lists``: each faction's lists.
    ``unmodelled``: per faction, the rules its lists carry that the game does not model.
    ``points``: the game size lists were drawn for (a pool of your own keeps its lists'
    points: ``points_text()`` says what the lists hold). ``seed``: the int seed, also the
    fresh one drawn for ``seed=None`` (pass it again to replay the table); None for a
    ``SeedSequence``. ``interrupted``: a Ctrl-C stopped the games; the figures are those of
    the games played, and a faction that did not meet every other has no figure against the
    field (NaN).
    """

    names: tuple[str, ...]
    win_rates: np.ndarray
    low: np.ndarray
    high: np.ndarray
    field: np.ndarray
    field_low: np.ndarray
    field_high: np.ndarray
    pairs: np.ndarray
    replicates: np.ndarray
    lists: dict[str, tuple[Army, ...]]
    unmodelled: dict[str, tuple[str, ...]]
    interval: float
    games: int
    points: int
    seed: Optional[int]
    interrupted: bool

    def __len__(self) -> int:
        return len(self.names)

    def points_text(self) -> str:
        """What the lists hold: ``"2,000 pts"``, or their range."""
        points = [a.points for pool in self.lists.values() for a in pool]
        low, high = min(points), max(points)
        return f"{low:,} pts" if low == high else f"{low:,}–{high:,} pts"

    def ranking(self) -> list[int]:
        """Faction indices from the strongest against the field to the weakest."""
        return sorted(range(len(self.names)), key=lambda i: (-np.nan_to_num(self.field[i], nan=-1.0), self.names[i]))

    def to_pandas(self, kind: str = "field") -> Any:
        """``kind="field"``: a row per faction, strongest first (win rate against the field
        and its interval, lists, pairs of games, rules not modelled). ``"pairs"``: a row per
        ordered pair of factions. ``"matrix"``: the win rates, factions by opponents."""
        from ._optional import pandas

        pd = pandas("to_pandas()")
        if kind == "field":
            rows = [{"faction": self.names[i], "win_rate": self.field[i], "low": self.field_low[i], "high": self.field_high[i],
                     "lists": len(self.lists[self.names[i]]), "pairs": int(self.pairs[i].sum()),
                     "ignored_rules": ", ".join(self.unmodelled.get(self.names[i], ()))} for i in self.ranking()]
            return pd.DataFrame(rows)
        if kind == "pairs":
            rows = [{"faction": self.names[i], "opponent": self.names[j], "win_rate": self.win_rates[i, j], "low": self.low[i, j],
                     "high": self.high[i, j], "pairs": int(self.pairs[i, j])}
                    for i in range(len(self.names)) for j in range(len(self.names)) if i != j]
            return pd.DataFrame(rows)
        if kind == "matrix":
            return pd.DataFrame(self.win_rates, index=pd.Index(self.names, name="faction"), columns=pd.Index(self.names, name="opponent"))
        raise ValueError(f'kind: "field", "pairs" or "matrix" (got {kind!r})')

    def metagame(self, *, points_per_logit: Any = None, **options: Any) -> Any:
        """:func:`oprstats.metagame` of this table, noise-aware with its own bootstrap tables
        (``replicates``; at most 10,000 of them are taken, the first). ``points_per_logit``
        (:func:`points_per_logit`'s measure, or a number) gives the prices in points; the
        other options are ``metagame``'s."""
        from ._attack import LIMITS
        from ._metagame import metagame

        unplayed = np.argwhere(~np.isfinite(self.win_rates))
        if len(unplayed):
            i, j = unplayed[0]
            raise ValueError(f"table: {self.names[i]} never played {self.names[j]} (the run was interrupted); the metagame needs every pair")
        options.setdefault("replicates", self.replicates[: LIMITS["MAX_REPLICATES"]])
        options.setdefault("interval", self.interval)
        return metagame(self, points_per_logit=points_per_logit, **options)

    def _lines(self) -> list[str]:
        level = f"{self.interval:.0%}"
        total = int(self.pairs.sum()) // 2
        out = [f"{len(self.names)} factions, {sum(len(v) for v in self.lists.values())} lists of {self.points_text()}, "
               f"{total:,} pairs of games ({2 * total:,} games)" + (" (interrupted)" if self.interrupted else "")]
        for i in self.ranking():
            out.append(f"  {self.names[i]}: {_pct(self.field[i])} against the field ({level}: {_pct(self.field_low[i])}"
                       f"–{_pct(self.field_high[i])})")
        ignored = sorted({r for rules in self.unmodelled.values() for r in rules})
        if ignored:
            out.append(f"rules the game does not model, carried by these lists: {', '.join(ignored[:12])}"
                       + (f" and {len(ignored) - 12} more" if len(ignored) > 12 else ""))
        return out

    def __repr__(self) -> str:
        lines = self._lines()
        shown_lines = lines[:1] + lines[1:21] + ([f"  ... {len(lines) - 21} more"] if len(lines) > 21 else [])
        return "FactionTable(" + "\n".join(shown_lines) + ")"

    def _repr_html_(self) -> str:
        from . import _display as d

        head = self._lines()[:1]
        rows = [[self.names[i], _pct(self.field[i]), f"{_pct(self.field_low[i])}–{_pct(self.field_high[i])}",
                 str(len(self.lists[self.names[i]])), ", ".join(self.unmodelled.get(self.names[i], ())) or "—"] for i in self.ranking()]
        table = d.table(["faction", "against the field", f"{self.interval:.0%} interval", "lists", "rules not modelled"], rows,
                        [False, True, True, True, False])
        return d.block("Faction table", head, table)



def _pct(x: float) -> str:
    return "n/a" if not np.isfinite(x) else f"{100 * x:.1f}%"


def _sources(factions: Any, lists: int) -> tuple[list[str], list[Any], list[int]]:
    """The factions' names, sources (a book, or a pool of lists) and how many lists each will
    have: read before any list is drawn, so that the limits are checked first."""
    if isinstance(factions, Mapping):
        named = [(str(k), v) for k, v in factions.items()]
    elif isinstance(factions, (str, bytes, ArmyBook)) or not isinstance(factions, Sequence):
        raise TypeError("factions: expected a sequence of army books or a mapping of names to books or to lists of armies")
    else:
        named = []
        for i, book in enumerate(factions):
            if not isinstance(book, ArmyBook):
                raise TypeError(f"factions[{i}]: expected an oprstats.ArmyBook (or give a mapping of names to lists), got {type(book).__name__}")
            named.append((book.name, book))
    if not 2 <= len(named) <= MAX_FACTIONS:
        raise ValueError(f"factions: from 2 to {MAX_FACTIONS} factions (got {len(named)})")
    seen: set = set()
    sizes = []
    for name, source in named:
        if name in seen:
            raise ValueError(f"factions: {name!r} appears twice; give a mapping with distinct names")
        seen.add(name)
        if isinstance(source, ArmyBook):
            sizes.append(lists)
            continue
        if isinstance(source, (str, bytes)) or not isinstance(source, Sequence) or not source:
            raise TypeError(f"factions[{name!r}]: expected an ArmyBook or a non-empty sequence of lists (Army, path or text)")
        if len(source) > MAX_LISTS_PER_FACTION:
            raise ValueError(f"factions[{name!r}]: at most {MAX_LISTS_PER_FACTION} lists (got {len(source)})")
        sizes.append(len(source))
    return [n for n, _ in named], [src for _, src in named], sizes


#: A full match's points in each edition: "full matches with 2000pts armies" (GF; v2.x's
#: 750 is its recommended size for a start, 2,000 kept so books' lists compare), Firefight's
#: "full matches with 300pts armies".
FULL_MATCH_POINTS = {DEFAULT_EDITION: 2000, "firefight-3.2": 300}


def _sources_edition(sources: list[Any]) -> str:
    """The edition of the factions' books and lists (the first's; the games refuse a unit of
    another, naming it), or the default for lists given as paths or texts."""
    for source in sources:
        if isinstance(source, ArmyBook):
            return source.edition
        for army in source:
            if isinstance(army, Army):
                return army.edition
    return DEFAULT_EDITION


def _pools(names: list[str], sources: list[Any], lists: int, points: int, seed: np.random.SeedSequence) -> list[list]:
    """Each faction's lists: a book's drawn (``random_lists``), a pool's read."""
    from ._game import _units as army_units
    from ._lists import random_lists

    pools = []
    for name, source, child in zip(names, sources, seed.spawn(len(names))):
        if isinstance(source, ArmyBook):
            pools.append(random_lists(source, points=points, n=lists, seed=child))
            continue
        pool = []
        for k, army in enumerate(source):
            units = army_units(army, f"factions[{name!r}][{k}]")
            pool.append(army if isinstance(army, Army) else Army(units, name=f"{name} #{k + 1}"))
        pools.append(pool)
    return pools


def warn_unequal_lists(armies: Sequence[Army], what: str) -> None:
    """Lists more than 10% apart in points are warned about once: the games between them
    measure their sizes as well as their units (simulate's own warning, per game run, is
    silenced here)."""
    from ._validate import UNEQUAL_POINTS_SHARE

    points = [a.points for a in armies]
    if points and max(points) > 0 and max(points) - min(points) > UNEQUAL_POINTS_SHARE * max(points):
        warnings.warn(f"{what}: the lists range from {min(points):,} to {max(points):,} pts, more than {UNEQUAL_POINTS_SHARE:.0%} apart; "
                      "the win rates measure the lists' sizes as well as their units", stacklevel=3)


def _bootstrap(counts: dict, sizes: list[int], resamples: int, seed: np.random.SeedSequence) -> np.ndarray:
    """``[draw, i, j]`` win rates, drawn again at the level where the samples are
    independent. A pairing of two factions of which one has two lists or more: the lists
    drawn again with replacement (one draw of a faction's lists serves all its pairings),
    each pairing's observed mean kept: a list's mean carries its games' noise with it, so
    drawing the games again too would count that noise twice or more (crossed lists already
    count it about twice: the intervals are then somewhat wide, not narrow). Two factions of
    one list each: the pairs of games drawn again (a multinomial over the five pair scores at
    their observed shares is exactly a resample of those pairs)."""
    rng = np.random.Generator(np.random.PCG64(seed))
    n = len(sizes)
    picks = [rng.multinomial(size, np.full(size, 1.0 / size), size=resamples).astype(float) for size in sizes]
    out = np.full((resamples, n, n), np.nan)
    for i in range(n):
        out[:, i, i] = 0.5
    for (i, j), c in counts.items():
        played = c.sum(axis=2)  # [list of i, list of j]
        if sizes[i] == 1 and sizes[j] == 1:
            if not played[0, 0]:
                continue
            drawn = rng.multinomial(played[0, 0], c[0, 0] / played[0, 0], size=resamples)
            w = drawn @ PAIR_SCORES / played[0, 0]
        else:
            with np.errstate(invalid="ignore", divide="ignore"):
                means = np.where(played > 0, (c @ PAIR_SCORES) / np.maximum(played, 1), 0.0)
            weight = picks[i][:, :, None] * picks[j][:, None, :] * (played > 0)[None]
            total = weight.sum(axis=(1, 2))
            with np.errstate(invalid="ignore", divide="ignore"):
                w = (weight * means[None]).sum(axis=(1, 2)) / total
        out[:, i, j] = w
        out[:, j, i] = 1.0 - w
    return out


def _field(table: np.ndarray) -> np.ndarray:
    """Each faction against the field: the mean of its row without itself (``[..., i, j]``);
    NaN for a faction that did not meet every other (a run stopped early: its field would
    not be the others')."""
    n = table.shape[-1]
    off = ~np.eye(n, dtype=bool)
    return np.where(off, table, 0.0).sum(axis=-1) / (n - 1)


def faction_table(factions: Any, *, lists: int = 3, points: Optional[int] = None, games: int = 100, seed: Any = None,
                  edition: Optional[str] = None,
                  terrain: Any = "standard",
                  interval: float = 0.95, resamples: int = 1000, client: Any = None, partitions: Optional[int] = None,
                  threads: Optional[int] = None, progress: bool = True) -> FactionTable:
    """Every faction against every other, by paired games (docs/factions.md).

    ``factions``: army books (``lists`` lists of ``points`` drawn from each by
    :func:`random_lists`), or a mapping of names to books or to pools of your own lists
    (:class:`Army`, paths or texts). ``edition``: the games' edition, by default the books'
    (or the lists') own; ``points``: by default a full match of it, 2,000 points (Firefight:
    300). Every list of a faction meets every list of every other
    in ``games`` pairs of games with seats and first player swapped. Win rates count a draw
    as half; ``interval`` (95%) intervals come from ``resamples`` bootstrap draws of the lists
    (each pairing's mean kept), or of the pairs of games between two one-list factions.
    ``seed``: an int, a ``numpy.random.SeedSequence`` or None; each pairing's games are
    seeded by the pairing, so a table is the same with or without a Dask ``client``
    (``partitions`` batches), and whatever ``threads``. Ctrl-C stops the games and returns
    the table of those played, marked ``interrupted``.
    """
    from ._distributed import check_client, check_partitions
    from ._game import check_game_edition

    if edition is not None:
        edition = check_game_edition(edition)
    if isinstance(lists, bool) or not isinstance(lists, numbers.Integral) or not 1 <= lists <= MAX_LISTS_PER_FACTION:
        raise ValueError(f"lists: must be a whole number of lists from 1 to {MAX_LISTS_PER_FACTION} (got {shown(lists)})")
    check_run(games=games, resamples=resamples, interval=interval, progress=progress, terrain=terrain, threads=threads)
    from ._lists import check_points

    # every limit checked before a list is drawn or a game played
    names, sources, sizes = _sources(factions, int(lists))
    if edition is None:
        edition = check_game_edition(_sources_edition(sources))
    if points is None:
        points = FULL_MATCH_POINTS.get(edition, FULL_MATCH_POINTS[DEFAULT_EDITION])
    check_points(points, edition)
    client = check_client(client)
    check_partitions(partitions)
    n = len(names)
    pairings = sum(sizes[i] * sizes[j] for i in range(n) for j in range(i + 1, n))
    largest = max(sizes[i] * sizes[j] for i in range(n) for j in range(n) if i != j)
    if resamples * max(n * n, largest) > MAX_DRAW_CELLS:
        raise ValueError(f"resamples: {resamples:,} draws of a {n} by {n} table of pools of up to {max(sizes)} lists take too much "
                         f"memory; at most {MAX_DRAW_CELLS // max(n * n, largest):,} here")
    if 2 * games * pairings > MAX_TABLE_GAMES:
        raise ValueError(f"games: {pairings:,} pairings of {shown(games, grouped=True)} pairs of games is "
                         f"{2 * games * pairings:,} games, over the {MAX_TABLE_GAMES:,} one table plays")
    root = seed_sequence(seed)
    list_seed, game_seed, boot_seed = root.spawn(3)
    pools = _pools(names, sources, int(lists), int(points), list_seed)
    warn_unequal_lists([a for pool in pools for a in pool], "factions")
    # each pairing seeded by its place in the table (faction, list, faction, list), so a
    # faction added later leaves the others' games as they were
    items, where = [], []
    for i in range(n):
        for j in range(i + 1, n):
            for a, army_a in enumerate(pools[i]):
                for b, army_b in enumerate(pools[j]):
                    items.append(dict(army_a=army_a, army_b=army_b, games=int(games), seed=keyed_seed(game_seed, i, a, j, b), terrain=terrain, threads=threads,
                                      edition=edition))
                    where.append((i, j, a, b))
    results, interrupted = run_pairings(items, client=client, partitions=partitions, progress=progress)
    counts: dict = {}
    unmodelled: dict = {}
    for (i, j, a, b), r in zip(where, results):
        c = counts.setdefault((i, j), np.zeros((len(pools[i]), len(pools[j]), len(PAIR_SCORES)), dtype=np.int64))
        if r is None:
            continue
        c[a, b] = r["counts"]
        for rule, (share_a, share_b) in r["unmodelled"].items():
            if share_a > 0:
                unmodelled.setdefault(names[i], set()).add(rule)
            if share_b > 0:
                unmodelled.setdefault(names[j], set()).add(rule)
    win = np.full((n, n), np.nan)
    pairs = np.zeros((n, n), dtype=np.int64)
    np.fill_diagonal(win, 0.5)
    for (i, j), c in counts.items():
        played = c.sum(axis=2)
        cells = played > 0
        pairs[i, j] = pairs[j, i] = int(played.sum())
        if cells.any():
            w = float(((c @ PAIR_SCORES)[cells] / played[cells]).mean())
            win[i, j], win[j, i] = w, 1.0 - w
    replicates = _bootstrap(counts, [len(p) for p in pools], int(resamples), boot_seed)
    tail = 50.0 * (1.0 - float(interval))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # pairs never played: NaN
        low, high = np.nanpercentile(replicates, tail, axis=0), np.nanpercentile(replicates, 100.0 - tail, axis=0)
        field_draws = _field(replicates)
        field_low, field_high = np.nanpercentile(field_draws, tail, axis=0), np.nanpercentile(field_draws, 100.0 - tail, axis=0)
    return FactionTable(names=tuple(names), win_rates=win, low=low, high=high, field=_field(win), field_low=field_low,
                        field_high=field_high, pairs=pairs, replicates=replicates,
                        lists={name: tuple(pool) for name, pool in zip(names, pools)},
                        unmodelled={k: tuple(sorted(v)) for k, v in unmodelled.items()}, interval=float(interval), games=int(games),
                        points=int(points), seed=int(root.entropy) if seed is None or isinstance(seed, (int, np.integer)) else None,
                        interrupted=interrupted)


@dataclass(frozen=True, eq=False, repr=False)
class PointsPerLogit:
    """What a point of army is worth in games (:func:`points_per_logit`): ``estimate`` points
    move the win logit by one, with ``low``/``high`` its interval; ``slope`` is its inverse
    (logits per point). ``removed``: the points taken out, ``logits``: the win logit each list
    gained against itself without them, a row per (list, unit)."""

    estimate: float
    low: float
    high: float
    slope: float
    removed: np.ndarray
    logits: np.ndarray
    lists: int
    pairs: int
    interval: float
    interrupted: bool

    def __float__(self) -> float:
        return self.estimate

    def __repr__(self) -> str:
        return (f"PointsPerLogit({self.estimate:.0f} points a logit ({self.interval:.0%}: {self.low:.0f}–{self.high:.0f}); "
                f"{self.lists} lists against themselves less a unit, {self.pairs:,} pairs of games"
                + (", interrupted)" if self.interrupted else ")"))


def points_per_logit(lists: Sequence[Any], *, games: int = 100, seed: Any = None, edition: str = DEFAULT_EDITION, terrain: Any = "standard",
                     interval: float = 0.95, resamples: int = 1000, client: Any = None, partitions: Optional[int] = None,
                     threads: Optional[int] = None, progress: bool = True) -> PointsPerLogit:
    """The points of army that move the win logit by one, measured in games: each list plays
    ``games`` pairs of paired games against itself without each of its units in turn (a
    joined hero goes with its unit); the win logits gained, summed, over the points taken out,
    summed, is the slope (a ratio estimate, as ``fair_cost(method="games")`` prices a point).
    What :func:`oprstats.metagame` takes to give prices in points. The interval is a bootstrap
    over the lists (two or more; each list's observed logits kept), or over the pairs of games
    of a single list (the same pairs for each of its units, played on one seed)."""
    from ._distributed import check_client, check_partitions
    from ._game import _units as army_units, check_game_edition

    check_game_edition(edition)
    if isinstance(lists, (str, bytes, Army)) or not isinstance(lists, Sequence) or not lists:
        raise TypeError("lists: expected a non-empty sequence of lists (Army, path or text)")
    if len(lists) > MAX_LISTS_PER_FACTION * MAX_FACTIONS:
        raise ValueError(f"lists: at most {MAX_LISTS_PER_FACTION * MAX_FACTIONS:,} (got {len(lists):,})")
    check_run(games=games, resamples=resamples, interval=interval, progress=progress, terrain=terrain, threads=threads)
    client = check_client(client)
    check_partitions(partitions)
    armies = []
    for k, army in enumerate(lists):
        units = army_units(army, f"lists[{k}]")
        if len(units) < 2:
            raise ValueError(f"lists[{k}]: needs at least 2 units (each is taken out in turn)")
        for j, u in enumerate(units):
            if not u.cost:
                raise ValueError(f"lists[{k}][{j}] ({u.name}): has no points cost")
        armies.append(units)
    total = sum(2 * int(games) * len(units) for units in armies)
    if total > MAX_TABLE_GAMES:
        raise ValueError(f"games: {total:,} games, over the {MAX_TABLE_GAMES:,} one call plays")
    game_seed, boot_seed = seed_sequence(seed).spawn(2)
    items, where = [], []
    for k, units in enumerate(armies):
        key = keyed_seed(game_seed, k)
        for j in range(len(units)):
            items.append(dict(army_a=units, army_b=[u for i, u in enumerate(units) if i != j], games=int(games), seed=key, terrain=terrain,
                              threads=threads, edition=edition, keep_scores=True))
            where.append((k, j))
    results, interrupted = run_pairings(items, client=client, partitions=partitions, progress=progress, desc="calibration")
    rows = [(k, float(armies[k][j].cost), r) for (k, j), r in zip(where, results) if r is not None and r["counts"].sum() > 0]
    if not rows:
        raise KeyboardInterrupt("points_per_logit: interrupted before any game was played")
    removed = np.array([c for _, c, _ in rows])
    counts = np.array([r["counts"] for _, _, r in rows])
    scores = [r["scores"] for _, _, r in rows]
    owner = np.array([k for k, _, _ in rows])

    def logits(shares: np.ndarray, n: np.ndarray) -> np.ndarray:
        # kept a quarter of a pair of games from 0 and 1, where the logit is infinite
        edge = 0.25 / n
        p = np.clip(shares, edge, 1.0 - edge)
        return np.log(p / (1.0 - p))

    n = counts.sum(axis=1).astype(float)
    point = logits(counts @ PAIR_SCORES / n, n)
    slope = point.sum() / removed.sum()
    rng = np.random.Generator(np.random.PCG64(boot_seed))
    listed, place = np.unique(owner, return_inverse=True)
    if len(listed) >= 2:
        # the lists drawn again with replacement, each with all its rows and their observed
        # logits: a list's rows share its seed, and its logits carry their games' noise, so
        # the games are not drawn again on top
        picked = rng.multinomial(len(listed), np.full(len(listed), 1.0 / len(listed)), size=int(resamples)).astype(float)
        weight = picked[:, place]  # [draw, row]
        draws = (weight * point[None, :]).sum(axis=1) / (weight * removed[None, :]).sum(axis=1)
    else:
        # one list: its pairs of games drawn again, the same pairs for every row (the rows
        # were played on one seed, so pair k of each row met the same deployments and dice)
        pairs = min(len(x) for x in scores)
        stacked = np.stack([PAIR_SCORES[x[:pairs]] for x in scores])  # [row, pair]
        draws = np.empty(int(resamples))
        for r in range(int(resamples)):
            take = rng.integers(0, pairs, size=pairs)
            draws[r] = logits(stacked[:, take].mean(axis=1), np.full(len(stacked), float(pairs))).sum() / removed.sum()
    low_slope, high_slope = _percentile_range(draws, float(interval))
    low_slope, high_slope = (np.nan if x is None else x for x in (low_slope, high_slope))
    with np.errstate(divide="ignore"):
        estimate = 1.0 / slope if slope > 0 else float("inf")
        low = 1.0 / high_slope if high_slope > 0 else float("inf")
        high = 1.0 / low_slope if low_slope > 0 else float("inf")
    return PointsPerLogit(estimate=float(estimate), low=float(low), high=float(high), slope=float(slope), removed=removed, logits=point,
                          lists=len(listed), pairs=int(n.sum()), interval=float(interval), interrupted=interrupted)
