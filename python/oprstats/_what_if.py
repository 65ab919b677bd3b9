"""``what_if``: a change to some units of a book, measured by what it does to the win rates of
the lists that use them, with common random numbers (docs/factions.md, "What if").

Every list of the pool that carries a changed unit plays every opponent list twice, as it
is and as changed, on the same seeds: the same deployments, the same dice where the games
stay the same. The difference of the two pair scores, pair of games by pair of games, is
what the change did; a change of nothing gives exactly zero.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Callable, Optional, Sequence, Union

import numpy as np

from ._attack import seed_sequence, shown
from ._core import Army, Unit
from ._editions import DEFAULT_EDITION
from ._factions import (MAX_LISTS_PER_FACTION, MAX_TABLE_GAMES, PAIR_SCORES, FactionTable, _pct, check_run, keyed_seed, run_pairings,
                        warn_unequal_lists)
from ._matchups import _percentile_range

#: The edits a change may give as a dict, each what ``Unit.replace``, ``Unit.with_rules`` or
#: ``Unit.with_weapons`` takes; ``points`` adds to the unit's cost.
EDITS = ("points", "cost", "quality", "defense", "models", "add_rules", "remove_rules", "add_weapons", "remove_weapons")
#: The most lists a pool holds.
MAX_POOL = 2_000

Change = Union[Callable[[Unit], Unit], Unit, Mapping]


def _changer(name: str, change: Any) -> Callable[[Unit], Unit]:
    """A change as a function of the unit: given as one, as the changed unit, or as edits."""
    if isinstance(change, Unit):
        return lambda unit: change
    if callable(change):
        def call(unit: Unit) -> Unit:
            out = change(unit)
            if not isinstance(out, Unit):
                raise TypeError(f"changes[{name!r}]: the function returned {type(out).__name__}, not a Unit")
            return out

        return call
    if isinstance(change, Mapping):
        unknown = [k for k in change if k not in EDITS]
        if unknown:
            raise ValueError(f"changes[{name!r}]: unknown edit {unknown[0]!r}; the edits are {', '.join(EDITS)}")
        if "points" in change and "cost" in change:
            raise ValueError(f"changes[{name!r}]: give points (added to the cost) or cost (the new cost), not both")

        def edit(unit: Unit) -> Unit:
            try:
                return edited(unit)
            except (TypeError, ValueError) as exc:
                if str(exc).startswith(f"changes[{name!r}]"):
                    raise
                raise type(exc)(f"changes[{name!r}]: {exc}") from None

        def edited(unit: Unit) -> Unit:
            out = unit
            replaced = {k: change[k] for k in ("quality", "defense", "cost", "models") if k in change}
            if "points" in change:
                points = change["points"]
                if isinstance(points, bool) or not isinstance(points, numbers.Integral):
                    raise TypeError(f"changes[{name!r}]['points']: expected a whole number of points, got {shown(points)}")
                replaced["cost"] = (unit.cost or 0) + int(points)
                if replaced["cost"] < 0:
                    raise ValueError(f"changes[{name!r}]['points']: {unit.name} would cost {replaced['cost']} pts")
            if replaced:
                out = out.replace(**replaced)
            if "add_rules" in change or "remove_rules" in change:
                out = out.with_rules(add=change.get("add_rules"), remove=change.get("remove_rules"))
            if "add_weapons" in change or "remove_weapons" in change:
                out = out.with_weapons(add=change.get("add_weapons"), remove=change.get("remove_weapons"))
            return out

        return edit
    raise TypeError(f"changes[{name!r}]: expected a function of the unit, a Unit or a dict of edits ({', '.join(EDITS)}), "
                    f"got {type(change).__name__}")


def _changed_army(army: Army, changers: dict) -> tuple[Army, list[str]]:
    """The army with every changed unit changed (a joined hero and its unit each by name),
    and the names changed in it."""
    units, touched = [], []
    for unit in army.units:
        hero = unit.hero
        base = unit.base if hero is not None else unit
        new_base = changers[base.name](base) if base.name in changers else base
        new_hero = changers[hero.name](hero) if hero is not None and hero.name in changers else hero
        touched += [u.name for u in (base, hero) if u is not None and u.name in changers]
        units.append(new_base if new_hero is None else new_base.join(new_hero))
    return Army(units, name=army.name, points_limit=army.points_limit), touched


@dataclass(frozen=True, eq=False, repr=False)
class WhatIf:
    """What a change did (:func:`what_if`): a row per list that carries a changed unit.

    ``lists``: those lists' names; ``factions``: their faction (pool) names; ``changed``: the
    units changed in each; ``points_before``/``points_after``; ``before``/``after``: the
    list's win rate against its opponents as it was and as changed (a draw counts half);
    ``difference`` = after - before, with ``low``/``high`` its interval (a bootstrap of the
    pairs of games, the opponents fixed); ``pairs``: pairs of games each way.
    """

    lists: tuple[str, ...]
    factions: tuple[str, ...]
    changed: tuple[tuple[str, ...], ...]
    points_before: np.ndarray
    points_after: np.ndarray
    before: np.ndarray
    after: np.ndarray
    difference: np.ndarray
    low: np.ndarray
    high: np.ndarray
    pairs: np.ndarray
    opponents: np.ndarray
    interval: float
    games: int
    interrupted: bool
    unmodelled: tuple[str, ...]

    def __len__(self) -> int:
        return len(self.lists)

    def to_pandas(self) -> Any:
        """A row per list that carries a changed unit."""
        from ._optional import pandas

        pd = pandas("to_pandas()")
        return pd.DataFrame({"list": self.lists, "faction": self.factions, "changed": [", ".join(c) for c in self.changed],
                             "points_before": self.points_before, "points_after": self.points_after, "before": self.before,
                             "after": self.after, "difference": self.difference, "low": self.low, "high": self.high,
                             "opponents": self.opponents, "pairs": self.pairs})

    def _lines(self) -> list[str]:
        level = f"{self.interval:.0%}"
        out = [f"{len(self.lists)} lists carry a changed unit; {self.games:,} pairs of games against each opponent, as they were "
               "and as changed (the same seeds); pp: percentage points of win rate" + (" (interrupted)" if self.interrupted else "")]
        for k in range(len(self.lists)):
            pts = "" if self.points_before[k] == self.points_after[k] else f", {self.points_before[k]:,} → {self.points_after[k]:,} pts"
            out.append(f"  {self.lists[k]} ({self.factions[k]}{pts}): {_signed(self.difference[k])} "
                       f"({level}: {_signed(self.low[k])} to {_signed(self.high[k])}), {_pct(self.before[k])} → {_pct(self.after[k])}")
        if self.unmodelled:
            out.append(f"rules the game does not model, carried by these armies: {', '.join(self.unmodelled[:12])}")
        return out

    def __repr__(self) -> str:
        lines = self._lines()
        return "WhatIf(" + "\n".join(lines[:21] + ([f"  ... {len(lines) - 21} more"] if len(lines) > 21 else [])) + ")"

    def _repr_html_(self) -> str:
        from . import _display as d

        rows = [[self.lists[k], self.factions[k], ", ".join(self.changed[k]), f"{self.points_before[k]:,} → {self.points_after[k]:,}",
                 _pct(self.before[k]), _pct(self.after[k]), _signed(self.difference[k]),
                 f"{_signed(self.low[k])} to {_signed(self.high[k])}"] for k in range(len(self.lists))]
        table = d.table(["list", "faction", "changed", "points", "before", "after", "difference", f"{self.interval:.0%} interval"], rows,
                        [False, False, False, True, True, True, True, True])
        return d.block("What if", self._lines()[:1], table)



def _signed(x: float) -> str:
    """A change of win rate in percentage points."""
    return "n/a" if not np.isfinite(x) else f"{100 * x:+.1f} pp"


def _pool(pool: Any) -> tuple[list[Army], list[str]]:
    """The pool's lists and each one's faction: a FactionTable's, a mapping of names to lists,
    or a sequence of lists (each its own faction)."""
    from ._game import _units as army_units

    if isinstance(pool, FactionTable):
        named = [(name, list(pool.lists[name])) for name in pool.names]
    elif isinstance(pool, Mapping):
        named = [(str(k), v) for k, v in pool.items()]
    elif isinstance(pool, (str, bytes)) or not isinstance(pool, Sequence):
        raise TypeError("pool: expected a FactionTable, a mapping of names to lists, or a sequence of lists")
    else:
        named = [(f"list {k + 1}", [army]) for k, army in enumerate(pool)]
    named = [(name, [lists] if isinstance(lists, (str, bytes, Army)) or not isinstance(lists, Sequence) else lists) for name, lists in named]
    # the sizes first: nothing is read before the limits are checked
    for name, lists in named:
        if len(lists) > MAX_LISTS_PER_FACTION:
            raise ValueError(f"pool[{name!r}]: at most {MAX_LISTS_PER_FACTION} lists (got {len(lists)})")
    total = sum(len(lists) for _, lists in named)
    if total > MAX_POOL:
        raise ValueError(f"pool: at most {MAX_POOL:,} lists (got {total:,})")
    armies, factions = [], []
    for name, lists in named:
        for k, army in enumerate(lists):
            units = army_units(army, f"pool[{name!r}][{k}]")
            armies.append(army if isinstance(army, Army) else Army(units, name=f"{name} #{k + 1}"))
            factions.append(name)
    if len(armies) < 2:
        raise ValueError(f"pool: at least 2 lists, so a list has an opponent (got {len(armies)})")
    return armies, factions


def what_if(changes: Mapping, pool: Any, *, games: int = 100, seed: Any = None, edition: str = DEFAULT_EDITION, terrain: Any = "standard",
            interval: float = 0.95,
            resamples: int = 1000, client: Any = None, partitions: Optional[int] = None, threads: Optional[int] = None,
            progress: bool = True) -> WhatIf:
    """What a change to some units does to the win rates of the lists that use them.

    ``changes``: unit names mapped to a change: a function of the unit (``lambda u:
    u.replace(quality=3)``), the changed unit itself, or a dict of edits (``points``: added to
    the cost; ``cost``, ``quality``, ``defense``, ``models`` as :meth:`Unit.replace` takes them;
    ``add_rules``/``remove_rules`` as :meth:`Unit.with_rules`; ``add_weapons``/``remove_weapons``
    as :meth:`Unit.with_weapons`). A joined hero and its unit are changed each by its name.
    ``pool``: a :class:`FactionTable` (its lists), a mapping of faction names to lists, or a
    sequence of lists. Each list that carries a changed unit plays ``games`` pairs of paired
    games against every list of the other factions (every other list when the pool has no
    factions), as it is and as changed, on the same seeds (common random numbers): a change
    of nothing gives exactly zero. The interval (``interval``, 95%) is a bootstrap of the pairs
    of games against each opponent (the opponents are the pool, held fixed).

    A cost alone changes the games only where they read costs; the lists' points before and
    after are reported beside the win rates, and a list pushed over its limit is not refitted.
    """
    from ._distributed import check_client, check_partitions
    from ._game import check_game_edition

    check_game_edition(edition)
    if not isinstance(changes, Mapping) or not changes:
        raise TypeError("changes: expected a non-empty mapping of unit names to changes")
    changers = {}
    for name, change in changes.items():
        if not isinstance(name, str):
            raise TypeError(f"changes: keys are unit names, got {type(name).__name__}")
        changers[name] = _changer(name, change)
    check_run(games=games, resamples=resamples, interval=interval, progress=progress, terrain=terrain, threads=threads)
    client = check_client(client)
    check_partitions(partitions)
    armies, factions = _pool(pool)
    warn_unequal_lists(armies, "pool")
    subjects = []
    for k, army in enumerate(armies):
        changed, touched = _changed_army(army, changers)
        if touched:
            subjects.append((k, changed, sorted(set(touched))))
    carried = {n for _, _, touched in subjects for n in touched}
    missing = [n for n in changers if n not in carried]
    if missing:
        names = sorted({u.name for a in armies for u in a.units} | {u.hero.name for a in armies for u in a.units if u.hero is not None})
        from difflib import get_close_matches

        close = get_close_matches(missing[0], names, n=3)
        hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
        raise ValueError(f"changes: no list of the pool carries {missing[0]!r}{hint}")
    # the other factions' lists; with one faction, its other lists
    opponents = {k: [o for o in range(len(armies)) if factions[o] != factions[k]] or [o for o in range(len(armies)) if o != k]
                 for k, _, _ in subjects}
    total = sum(2 * 2 * games * len(opponents[k]) for k, _, _ in subjects)
    if total > MAX_TABLE_GAMES:
        raise ValueError(f"games: {total:,} games (each list as it was and as changed), over the {MAX_TABLE_GAMES:,} one call plays")
    root = seed_sequence(seed)
    game_seed, boot_seed = root.spawn(2)
    items, where = [], []
    for s, (k, changed, _) in enumerate(subjects):
        for o in opponents[k]:
            key = keyed_seed(game_seed, k, o)
            for version, army in ((0, armies[k]), (1, changed)):
                items.append(dict(army_a=army, army_b=armies[o], games=int(games), seed=key, terrain=terrain, threads=threads, keep_scores=True,
                                  edition=edition))
                where.append((s, o, version))
    results, interrupted = run_pairings(items, client=client, partitions=partitions, progress=progress, desc="what if")
    scores: dict = {}
    unmodelled: set = set()
    for (s, o, version), r in zip(where, results):
        if r is None:
            continue
        scores[(s, o, version)] = PAIR_SCORES[r["scores"]]
        unmodelled.update(r["unmodelled"])
    rng = np.random.Generator(np.random.PCG64(boot_seed))
    rows: dict = {key: [] for key in ("before", "after", "difference", "low", "high", "pairs", "opponents")}
    for s, (k, changed, _) in enumerate(subjects):
        # an opponent counts when both versions finished (a Ctrl-C may cut the second)
        played = [o for o in opponents[k] if (s, o, 0) in scores and (s, o, 1) in scores]
        # the pairs both versions played against every opponent (a Ctrl-C may cut one short)
        n = min((len(scores[(s, o, v)]) for o in played for v in (0, 1)), default=0)
        if not played or n == 0:
            for column in ("before", "after", "difference", "low", "high"):
                rows[column].append(np.nan)
            rows["pairs"].append(0)
            rows["opponents"].append(0)
            continue
        before = np.stack([scores[(s, o, 0)][:n] for o in played])  # [opponent, pair of games]
        after = np.stack([scores[(s, o, 1)][:n] for o in played])
        diff = after - before
        # each opponent's pairs drawn again with replacement, the opponents held
        draws = np.zeros(int(resamples))
        for row in diff:
            draws += row[rng.integers(0, n, size=(int(resamples), n))].mean(axis=1)
        draws /= len(diff)
        rows["before"].append(float(before.mean()))
        rows["after"].append(float(after.mean()))
        rows["difference"].append(float(diff.mean()))
        low, high = _percentile_range(draws, float(interval))
        rows["low"].append(np.nan if low is None else low)
        rows["high"].append(np.nan if high is None else high)
        rows["pairs"].append(int(n * len(played)))
        rows["opponents"].append(len(played))
    return WhatIf(lists=tuple(armies[k].name for k, _, _ in subjects), factions=tuple(factions[k] for k, _, _ in subjects),
                  changed=tuple(tuple(t) for _, _, t in subjects), points_before=np.array([armies[k].points for k, _, _ in subjects]),
                  points_after=np.array([c.points for _, c, _ in subjects]),
                  **{key: np.array(v, dtype=float if key not in ("pairs", "opponents") else np.int64) for key, v in rows.items()},
                  interval=float(interval), games=int(games), interrupted=interrupted, unmodelled=tuple(sorted(unmodelled)))
