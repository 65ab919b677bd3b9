"""Duels: two units fight over a game's rounds on an open table, from a documented line-up,
played by the full game engine (:func:`simulate`), so that range, speed, durability and
every rule the game plays count. The result is normalised by points: who destroyed the
larger share of the other."""

from __future__ import annotations

import math
import warnings
from typing import Any, Optional, cast

import numpy as np

from ._attack import check_distance, check_flag
from ._core import Unit
from ._defaults import NOT_GIVEN, Default, renamed
from ._game import _Z95, rate_interval, simulate

#: The duel's line-up by default: both units at the front of their 12" zones on a 48" deep table.
LINE_UP = Default(24.0)
# why the duel's distance= became line_up= (the deprecation's message)
LINE_UP_WHY = "the duel's starting gap, as simulate(line_up=...) names it; distance= in attack is the range of a shot"


class DuelResult:
    """Seeded duels between two units (:func:`duel`), game by game.

    ``left`` (``[game, unit]``) is the share of each unit's points (its wounds, valued
    evenly) left at the end; ``destroyed`` whether it was removed. ``winner`` is +1 where
    ``a`` destroyed a larger share of ``b`` than ``b`` of ``a``, -1 the other way, 0 for
    equal shares (both untouched, or both destroyed). :meth:`summary` gives the chances
    with 95% intervals, counted by pair when ``paired``, as a table shaped like
    :meth:`GameResult.summary`'s (:meth:`summary_dict` without pandas). ``interrupted``: the run was
    stopped early (Ctrl-C), as :attr:`GameResult.interrupted`; the arrays hold the games played.
    ``line_up``: the inches between the closest models at the start (``distance``, its old
    name, with a DeprecationWarning for one release).
    """

    __slots__ = ("units", "costs", "line_up", "rounds", "paired", "seed", "left", "destroyed", "winner", "first", "unmodelled",
                 "interrupted")

    def __init__(self, units: tuple, costs: tuple, line_up: float, rounds: int, paired: bool, seed: Any, left: np.ndarray, first: np.ndarray,
                 unmodelled: dict, interrupted: bool = False) -> None:
        self.units, self.costs, self.line_up, self.rounds, self.paired, self.seed = units, costs, line_up, rounds, paired, seed
        self.interrupted: bool = bool(interrupted)
        self.left: np.ndarray = left
        self.destroyed: np.ndarray = left <= 0.0
        self.winner: np.ndarray = np.sign(left[:, 0] - left[:, 1]).astype(np.int8)
        self.first: np.ndarray = first
        self.unmodelled = unmodelled
        for name in ("left", "destroyed", "winner", "first"):
            getattr(self, name).flags.writeable = False

    @property
    def distance(self) -> float:
        """The old name of :attr:`line_up` (a DeprecationWarning; it goes in a later release)."""
        warnings.warn("DuelResult.distance is now DuelResult.line_up; distance goes in a later release", DeprecationWarning, stacklevel=2)
        return self.line_up

    def __getstate__(self):
        return (self.units, self.costs, self.line_up, self.rounds, self.paired, self.seed, self.left, self.first, self.unmodelled,
                self.interrupted)

    def __setstate__(self, state) -> None:
        # through __init__, so that the arrays are read-only again (unpickled, they are not);
        # a pickle from before ``interrupted`` holds the slots by name, the line-up as "distance"
        if isinstance(state, tuple) and len(state) == 2 and isinstance(state[1], dict):
            slots = dict(state[1])
            slots.setdefault("line_up", slots.get("distance"))
            state = tuple(slots[k] for k in ("units", "costs", "line_up", "rounds", "paired", "seed", "left", "first", "unmodelled"))
        type(self).__init__(self, *state)

    @property
    def games(self) -> int:
        return len(self.winner)

    def _mean_and_interval(self, values: np.ndarray, chance: bool = False) -> tuple:
        """Mean and 95% interval from the independent units, and how many there are and what
        they are: ``(mean, low, high, n, per)``, over the pairs when paired (an incomplete last
        pair dropped). A chance gets Wilson's interval (over the pairs' effective number of
        games when paired); a share or points a normal one."""
        if chance:
            return rate_interval(values, self.paired)
        units = values[: len(values) // 2 * 2].reshape(-1, 2).mean(axis=1) if self.paired else values
        n = len(units)
        mean = float(units.mean()) if n else math.nan
        half = _Z95 * float(units.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
        return mean, mean - half, mean + half, n, "pairs" if self.paired else "games"

    def _measures(self) -> list[tuple]:
        """``(measure, mean, low, high, n, per)`` of each row of :meth:`summary`."""
        rows = [(name, *self._mean_and_interval((self.winner == value).astype(float), chance=True))
                for name, value in (("a_wins", 1), ("draws", 0), ("b_wins", -1))]
        for k, side in enumerate("ab"):
            rows.append((f"share_{side}_destroyed", *self._mean_and_interval(1.0 - self.left[:, k])))
            rows.append((f"{side}_removed", *self._mean_and_interval(self.destroyed[:, k].astype(float), chance=True)))
        for k, side in enumerate("ab"):
            other = 1 - k
            cost = self.costs[other]
            rows.append((f"points_destroyed_by_{side}", *self._mean_and_interval((1.0 - self.left[:, other]) * (cost if cost else math.nan))))
        return rows

    def summary(self):
        """A table (pandas DataFrame) shaped like :meth:`GameResult.summary`'s, a row per
        measure: ``a_wins``, ``draws``, ``b_wins`` (chances, as a game's),
        ``share_a_destroyed`` and ``a_removed`` (the share of ``a``'s points destroyed, the
        chance it is removed), the same for ``b``, and ``points_destroyed_by_a`` and ``_b``
        (points of the other unit; NaN without its cost). ``rate`` is the mean over the
        games, ``low``/``high`` its 95% interval (Wilson's for a chance, a normal one
        otherwise), ``n`` the independent samples it rests on and ``per`` what they are
        (games, or pairs when ``paired``)."""
        from ._optional import pandas

        pd = pandas("summary()")

        return pd.DataFrame(self._measures(), columns=["measure", "rate", "low", "high", "n", "per"]).set_index("measure")

    def summary_dict(self) -> dict:
        """:meth:`summary` without pandas: ``{measure: (rate, low, high)}``, its rows in order."""
        return {name: (mean, low, high) for name, mean, low, high, _n, _per in self._measures()}

    def to_pandas(self):
        """One row per game: who went first, each unit's share left, whether it was removed
        and the winner (needs pandas)."""
        from ._optional import pandas

        pd = pandas("to_pandas()")

        return pd.DataFrame({"first": np.array(self.units, dtype=object)[self.first], f"left_{self.units[0]}": self.left[:, 0],
                             f"left_{self.units[1]}": self.left[:, 1], "winner": self.winner})

    def _labels(self) -> dict:
        """Each measure of :meth:`summary` in words, the units by name: ``{"a_wins":
        "Rifles wins", ...}``."""
        a, b = self.units
        return {"a_wins": f"{a} wins", "draws": "draw", "b_wins": f"{b} wins", "share_a_destroyed": f"share of {a} destroyed",
                "a_removed": f"{a} removed", "share_b_destroyed": f"share of {b} destroyed", "b_removed": f"{b} removed",
                "points_destroyed_by_a": f"points {a} destroys", "points_destroyed_by_b": f"points {b} destroys"}

    def _repr_html_(self) -> str:
        from . import _display as d

        s = self.summary_dict()
        a, b = self.units
        names = self._labels()
        rows = [[names[k], d._num(v[0], 4), f"[{d._num(v[1], 4)}, {d._num(v[2], 4)}]"] for k, v in s.items()]
        lines = [f"{self.games:,} games from {self.line_up:g}\" over {self.rounds} rounds{' (paired)' if self.paired else ''}"
                 f"{', interrupted' if self.interrupted else ''}; "
                 f"95% intervals over the {'pairs' if self.paired else 'games'}"]
        return d.block(f"Duel: {a} vs {b}", lines, d.table(["", "mean", "95% interval"], rows, [False, True, True]),
                       notes=[f"Not modelled: {r}" for r in sorted(self.unmodelled)])

    def __repr__(self) -> str:
        s = self.summary_dict()
        pct = lambda t: f"{100 * t[0]:.1f}% [{100 * t[1]:.1f}, {100 * t[2]:.1f}]"  # noqa: E731
        a, b = self.units
        return (f"DuelResult({a} vs {b}, {self.games:,} games from {self.line_up:g}\" over {self.rounds} rounds"
                f"{' (paired)' if self.paired else ''}{', interrupted' if self.interrupted else ''}: {a} wins {pct(s['a_wins'])}, draw {pct(s['draws'])}, {b} wins {pct(s['b_wins'])}; "
                f"{a} destroys {100 * s['share_b_destroyed'][0]:.0f}% of {b}, {b} {100 * s['share_a_destroyed'][0]:.0f}% of {a})")


def duel(a: Unit, b: Unit, *, games: int = 10_000, seed: Any = None, line_up: float = LINE_UP, rounds: int = 4, first: Optional[str] = None,
         paired: bool = False, policy: Any = "default", threads: Optional[int] = None, progress: bool = False,
         edition: Optional[str] = None, distance: Any = NOT_GIVEN) -> DuelResult:
    """Two units fight ``games`` times over ``rounds`` rounds on an open table: the full game
    engine (:func:`simulate`) plays them with the same rules, dice and AI as a battle, with
    no objectives and from a line-up instead of a deployment. The line-up puts each unit on
    the table's middle, facing the other across the centre line, their closest models
    ``line_up`` inches apart, as :func:`simulate`'s ``line_up`` (24": both deployed at the
    front of their 12" zones on a 48" deep table; formations too big for the table at
    ``line_up`` are refused). ``distance``: its old name, with a DeprecationWarning until a
    later release (``distance`` in :func:`attack` is the range of a shot). ``first``:
    ``"a"``, ``"b"`` or None (the roll-off). ``paired`` plays each game twice on the same
    dice with the sides and the first player swapped. ``edition``: the rulebook the duel
    follows, by default the one the units were read in (as :func:`simulate`'s). Seeded runs are the same whatever
    ``threads``. Shares are of each unit's points. The AI weighs its choices in points, so a
    unit with no cost plays as if it cost what its opponent does, and its points are NaN.
    Ctrl-C stops the run and returns the games played so far (``interrupted`` is then True),
    as :func:`simulate` does.
    """
    for name, unit in (("a", a), ("b", b)):
        if not isinstance(unit, Unit):
            raise TypeError(f"{name}: expected an oprstats.Unit, got {type(unit).__name__}")
    paired = check_flag("paired", paired)
    line_up, given_as = renamed("duel", "distance", distance, "line_up", line_up, LINE_UP, LINE_UP_WHY, 2)
    # checked here: None would reach simulate() as "no line-up" (a whole game's deployment)
    line_up = check_distance(line_up, given_as)
    costs = (a.cost, b.cost)
    # the AI weighs its choices in points: a unit with no cost plays as if it cost what its
    # opponent does (100 each when neither has one)
    stand_in = a.cost or b.cost or 100
    played = [u if u.cost else u.replace(cost=stand_in) for u in (a, b)]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            g = simulate([played[0]], [played[1]], games=games, seed=seed, terrain="open", objectives=[], line_up=line_up,
                         rounds=rounds, first=first, paired=paired, policy_a=policy, policy_b=policy, threads=threads, progress=progress,
                         edition=edition)
        except (TypeError, ValueError) as e:
            # simulate() checks the line-up: named as the caller gave it
            if str(e).startswith("line_up") and given_as != "line_up":
                raise type(e)(given_as + str(e)[len("line_up"):]) from None
            raise
    for w in caught:
        if not (issubclass(w.category, UserWarning) and "does not model these rules" in str(w.message)):
            warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
    if g.unmodelled:
        listed = ", ".join(f"{rule} ({'both' if sa and sb else a.name if sa else b.name})" for rule, (sa, sb) in sorted(g.unmodelled.items()))
        warnings.warn(f"duel: the game does not model these rules of the units: {listed}; see DuelResult.unmodelled", UserWarning, stacklevel=2)
    # every played unit has a cost (a stand-in where it had none)
    full = np.array([float(cast(int, played[0].cost)), float(cast(int, played[1].cost))])
    left = np.clip(g.points_left / full[None, :], 0.0, 1.0)
    return DuelResult((a.name, b.name), costs, float(line_up), int(rounds), paired, g.seed, left, g.first.astype(np.intp), dict(g.unmodelled),
                      g.interrupted)
