"""``simulate()``: many seeded full games of Grimdark Future v3.5 between two armies."""

from __future__ import annotations

import math
import time
import warnings
from dataclasses import dataclass, fields
from typing import Any, Optional, Sequence, Tuple, Union, cast

import numpy as np

from . import _core
from ._attack import LIMITS, SeedLike, as_float, check_threads, seed_to_u64, shown
from ._editions import DEFAULT_EDITION
from ._validate import warn_over_limit, warn_unequal

_INTS = (int, np.integer)
_REALS = (int, float, np.integer, np.floating)
#: The z value of a two-sided 95% interval.
_Z95 = 1.959963984540054
#: Games a single call plays at most (the core's limit).
MAX_GAMES = 100_000_000
# Seconds a batch of games lasts (after the first): how long Ctrl-C may wait.
BATCH_SECONDS = 0.5
#: Games that may keep their event log.
MAX_TRACED_GAMES = 100
#: The table in inches: x along the long edges, y from the first player's edge.
TABLE = (72.0, 48.0)


@dataclass(frozen=True)
class Policy:
    """How an army chooses its actions.

    ``kind``: ``"default"`` (plays to win: charges, targets, activation order, deployment,
    Aircraft headings and strike backs valued in expected points from the units' current
    states; it embarks only when the ride pays, gets casters out to cast and times Ambush and
    Infiltrate arrivals), ``"v3-2026-11"`` (the default as it played in November 2026, before
    issue 40's transports and reserves: kept as it played for comparison), ``"greedy"`` (the
    earlier default, kept as it played: charges valued once on
    fresh units by models killed, the nearest unit first, Aircraft along the long axis, always
    striking back), ``"random"`` (any legal action) or ``"hold"`` (never moves, shoots the best
    target: a scripted gun line). The weights tune the default and greedy policies:

    - ``objective_weight``: a melee unit goes for an objective rather than the nearest enemy
      when the objective is at most this many times as far (1.5);
    - ``charge_margin``: it charges when the expected points margin (points the defender loses
      less points the charger loses) is above this share of its points (0);
    - ``hold_objectives``: above 0, a unit stays on an objective no friend is holding (1);
    - ``role_ratio``: a unit whose exact expected shooting damage is this many times its melee
      damage is a shooter, and the other way round a melee unit; in between a hybrid (2).

    and the default policy only:

    - ``marker_value``: what a marker is worth, in multiples of the army's average unit
      points: when a charge would pull the only unit holding it off, and when a charge may
      remove or Shake an enemy on one (1; 0 ignores markers);
    - ``shaken_weight``: the share of a unit's points left that being Shaken costs it, in
      charge and strike-back values (0.3);
    - ``threat_weight``: how much the points a unit stands to lose to enemy charges and shots
      count towards activating it early, and against an Aircraft's heading (0: ordering by
      the unit's own best action alone won more games against the greedy policy);
    - ``fatigue_weight``: the share of its own best charge a defender that has not activated
      gives up by striking back fatigued (0.5);
    - ``ride_margin``: how many inches a transport's Rush must beat a unit's own for the unit
      to ride in it, at deployment and when boarding (a transport arriving by Ambush always
      pays), and to stay inside (2: a ride no faster than walking spends
      the unit's activations inside for nothing; a Fast transport carries foot troops, one of
      the same speed does not);
    - ``arrival_threat_weight``: how much the points an enemy unit can take from an Ambush or
      Infiltrate unit before it acts (the most any one unit's shots or charge reaching its
      arrival spot take) count against that spot, against what it can do there (its best shot or charge, a
      marker in reach); a unit whose best spot would cost it more than half its points beyond
      what it gains there waits, up to the round before the last (1: points lost count as
      points gained).
    """

    kind: str = "default"
    objective_weight: float = 1.5
    charge_margin: float = 0.0
    hold_objectives: float = 1.0
    role_ratio: float = 2.0
    marker_value: float = 1.0
    shaken_weight: float = 0.3
    threat_weight: float = 0.0
    fatigue_weight: float = 0.5
    ride_margin: float = 2.0
    arrival_threat_weight: float = 1.0

    def __post_init__(self) -> None:
        if self.kind not in _POLICY_KINDS:
            raise ValueError(f'Policy.kind: must be "default", "v3-2026-11", "greedy", "random" or "hold" (got {self.kind!r})')
        for f in fields(self)[1:]:
            v = getattr(self, f.name)
            if isinstance(v, bool) or not isinstance(v, _REALS) or not math.isfinite(as_float(v, f"Policy.{f.name}")) or not 0 <= v <= 100:
                raise ValueError(f"Policy.{f.name}: must be a finite number from 0 to 100 (got {shown(v)})")
        if self.role_ratio < 1:
            raise ValueError(f"Policy.role_ratio: must be at least 1 (got {self.role_ratio!r})")

    def _tuple(self) -> tuple:
        return (self.kind, *(float(getattr(self, f.name)) for f in fields(self)[1:]))


_POLICY_KINDS = ("default", "v3-2026-11", "greedy", "random", "hold")


@dataclass(frozen=True)
class TerrainPiece:
    """A rectangle of terrain on the table (inches: 72" x 48", or Firefight's 48" x 48"; y = 0
    is the first player's edge) and what it does. ``blocking``: blocks line of sight through it (units in it still
    see out, and can be seen); ``cover``: +1 Defense against shooting for units in it or behind
    it; ``difficult``: a move that touches it is at most 6"; ``dangerous``: units moving
    through it or activated in it take a dangerous terrain test; ``impassable``: no unit may
    stand in or move through it."""

    name: str
    x0: float
    y0: float
    x1: float
    y1: float
    blocking: bool = False
    cover: bool = False
    difficult: bool = False
    dangerous: bool = False
    impassable: bool = False

    def __post_init__(self) -> None:
        for f in ("x0", "y0", "x1", "y1"):
            v = getattr(self, f)
            if isinstance(v, bool) or not isinstance(v, _REALS) or not math.isfinite(as_float(v, f"TerrainPiece.{f}")):
                raise ValueError(f"TerrainPiece.{f}: must be a finite number of inches (got {shown(v)})")
        if not (self.x1 > self.x0 and self.y1 > self.y0):
            raise ValueError(f"TerrainPiece {self.name!r}: x1 must exceed x0 and y1 must exceed y0")

    def _tuple(self) -> tuple:
        return (str(self.name), float(self.x0), float(self.y0), float(self.x1), float(self.y1),
                bool(self.blocking), bool(self.cover), bool(self.difficult), bool(self.dangerous), bool(self.impassable))


def wilson(successes: float, n: float, z: float = _Z95) -> Tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default)."""
    if n <= 0:
        return (float("nan"), float("nan"))
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def paired_interval(values: np.ndarray, z: float = _Z95) -> Tuple[float, float, float, int]:
    """A rate over paired games (pair ``k`` is games ``2k`` and ``2k + 1``) with an interval
    at the level of the pairs, which are independent where the two games of a pair are not:
    ``(rate, low, high, pairs)``.

    The interval is Wilson's with an effective number of games ``p(1-p) / var(pair mean) ×
    pairs``, kept between the number of pairs (the two games of every pair always alike) and
    the number of games (pairs no more alike than independent games): for independent games
    it is Wilson's over the games. An incomplete last pair (an interrupted run) is dropped.
    """
    m = len(values) // 2
    if m == 0:
        return float("nan"), float("nan"), float("nan"), 0
    means = np.asarray(values[: 2 * m], dtype=float).reshape(m, 2).mean(axis=1)
    p = float(means.mean())
    var = float(means.var(ddof=1)) if m > 1 else 0.0
    n_eff = float(2 * m) if var == 0.0 else min(2.0 * m, max(float(m), p * (1 - p) * m / var))
    return (p, *wilson(p * n_eff, n_eff, z), m)


def rate_interval(hits: np.ndarray, paired: bool) -> tuple:
    """A rate with its 95% interval and what it rests on, ``(rate, low, high, n, per)``:
    Wilson's over the games, or over the pairs when ``paired`` (see :func:`paired_interval`)."""
    if paired:
        rate, lo, hi, m = paired_interval(hits)
        return rate, lo, hi, m, "pairs"
    n, k = len(hits), float(np.sum(hits))
    return (k / n if n else float("nan"), *wilson(k, n), n, "games")


def _policy(value, field: str) -> Policy:
    if isinstance(value, Policy):
        return value
    if isinstance(value, str):
        if value not in _POLICY_KINDS:
            raise ValueError(f'{field}: must be "default", "v3-2026-11", "greedy", "random", "hold" or a Policy (got {value!r})')
        return Policy(kind=value)
    raise TypeError(f"{field}: expected a str or a Policy, got {type(value).__name__}")


def _sequence(values, field: str, expected: str) -> list:
    if isinstance(values, (str, bytes)):
        raise TypeError(f"{field}: expected {expected}, got {type(values).__name__}")
    try:
        return list(values)
    except TypeError:
        raise TypeError(f"{field}: expected {expected}, got {type(values).__name__}") from None


def _units(army, field: str, lists: Optional[list] = None, edition: Optional[str] = None) -> list:
    """An army's units: an Army, a sequence of units, or a path to (or the text of) a list,
    read as every loader reads one (in ``edition``, else the default); the lists met are
    added to ``lists``."""
    from ._points import _source_of

    return _source_of(army, edition or DEFAULT_EDITION, field, lists)[0]


def _points(values, field: str) -> list:
    try:
        pairs = [(x, y) for x, y in values]
    except (TypeError, ValueError):
        raise TypeError(f"{field}: expected a sequence of (x, y) pairs in inches") from None
    out = []
    for i, pair in enumerate(pairs):
        try:
            out.append(tuple(as_float(v, f"{field}[{i}]") for v in pair))
        except (TypeError, ValueError) as exc:
            if str(exc).startswith(f"{field}[{i}]: "):  # an int past a float's range
                raise
            raise TypeError(f"{field}: expected a sequence of (x, y) pairs in inches") from None
    return out


# a unit wasting this share of its turns or more is named beside the result
WASTED_NOTE = 0.25


class GameResult:
    """The results of :func:`simulate`, game by game and unit by unit.

    Per game (numpy arrays, one entry per game, in game order): ``winner`` (+1: army A won,
    -1: army B, 0: a draw), ``first`` (0: army A went first, 1: army B), ``objectives``
    (``[game, army]`` markers held at the end), ``models_left`` and ``points_left``
    (``[game, army]``; points are each surviving unit's points times the share of its wounds
    left). ``pair`` gives each game's pair when ``paired``.

    Per unit: :meth:`units` (a DataFrame) or the arrays in ``unit_stats``.

    ``unmodelled``: the rules of the armies' units (their models' and weapons' rules, auras
    lent) that the game ignores, each with the share of army A's and of army B's points that
    units with it carry: ``{rule: (share_a, share_b)}``.
    """

    def __init__(self, raw: dict, prep, games: int, paired: bool, seed, engine_seed: int, interrupted: bool, mirror: bool,
                 names: tuple = ("army A", "army B")) -> None:
        self.names: tuple = tuple(names)
        """The armies' names: an army list's own (``Army.name``), else "army A" and "army B"."""
        self.winner: np.ndarray = raw["winner"]
        self.first: np.ndarray = raw["first"]
        self.objectives: np.ndarray = raw["objectives"]
        self.models_left: np.ndarray = raw["models_left"]
        self.points_left: np.ndarray = raw["points_left"]
        self.games: int = games
        self.paired: bool = paired
        self.seed = seed
        """The seed to pass back to ``simulate`` to play the same games: the int or
        ``SeedSequence`` given, or the fresh entropy drawn when ``seed=None``."""
        self.engine_seed: int = engine_seed
        """The 64-bit seed the engine's generators are derived from."""
        self.mirror: bool = mirror
        """Both armies are the same units. With ``paired=True`` each pair is then an exact
        mirror (the second game is the first with the sides swapped), so army A's rates are
        even by construction and only the first-player effect is informative."""
        self.interrupted: bool = interrupted
        """Whether the run was stopped early (Ctrl-C); the arrays hold the games played."""
        self.dice: int = int(raw["dice"])
        self.timers: dict = raw["timers"]
        unit_names = [[u[0] for u in army] for army in prep.units()]
        self.table: Tuple[float, float] = tuple(prep.table())
        """(width, depth) of the table, in inches: 72 x 48, or Firefight's 48 x 48."""
        self.traces: list = [_Trace(t, unit_names, self.table) for t in raw["traces"]]
        """Event logs of the games (only with ``trace=True``)."""
        self.violations: int = int(raw["violations"])
        self._units = raw["units"]
        self._info = prep.units()
        self._roles = prep.roles()
        self.unmodelled: dict = {name: (a, b) for name, a, b in prep.unmodelled()}
        """Rules the game ignores: ``{rule: (share of army A's points, share of army B's)}``."""
        self.edition: str = prep.edition()
        """The edition the games were played in (``"3.5"``, ``"3.4.1"``, ``"2"``)."""

    @property
    def pair(self) -> np.ndarray:
        """Each game's pair (paired runs play pair ``k`` as games ``2k`` and ``2k + 1``)."""
        n = len(self.winner)
        return np.arange(n) // 2 if self.paired else np.arange(n)

    def _rate(self, hits: np.ndarray) -> tuple:
        return rate_interval(hits, self.paired)

    def _first_won(self) -> np.ndarray:
        """Whether the player who went first won each game."""
        return np.where(self.first == 0, self.winner == 1, self.winner == -1)

    def rates(self) -> dict:
        """Win, draw and loss rates of army A with 95% intervals: ``{name: (rate, low, high)}``.
        Intervals are Wilson's over the games, or at the level of the pairs when ``paired``
        (the two games of a pair share their dice streams and are not independent)."""
        return {name: self._rate(self.winner == value)[:3] for name, value in (("a_wins", 1), ("draws", 0), ("b_wins", -1))}

    def first_player_effect(self) -> dict:
        """How much going first is worth: the first player's win rate (with its Wilson
        interval), and army A's win rate when it went first and when it went second."""
        out = {"first_player_wins": self._rate(self._first_won())[:3]}
        # one game of each pair has A first: these games are independent across pairs
        for label, mask in (("a_wins_going_first", self.first == 0), ("a_wins_going_second", self.first == 1)):
            out[label] = rate_interval(self.winner[mask] == 1, False)[:3]
        return out

    def summary(self):
        """A table (pandas DataFrame) of the rates and the first-player effect, each with its
        95% interval, the number of independent samples it rests on (``n``) and what they are
        (``per``: games, or pairs for a paired run's rates). A mirror match is said so in the
        table's ``attrs["note"]``."""
        from ._optional import pandas

        pd = pandas("summary()")

        rows = []
        for name, value in (("a_wins", 1), ("draws", 0), ("b_wins", -1)):
            rows.append((name, *self._rate(self.winner == value)))
        rows.append(("first_player_wins", *self._rate(self._first_won())))
        for name, (rate, lo, hi) in list(self.first_player_effect().items())[1:]:
            mask = self.first == (0 if name.endswith("first") else 1)
            rows.append((name, rate, lo, hi, int(np.count_nonzero(mask)), "games"))
        frame = pd.DataFrame(rows, columns=["measure", "rate", "low", "high", "n", "per"]).set_index("measure")
        if self.mirror:
            frame.attrs["note"] = ("a mirror match: both armies are the same units"
                                   + ("; each pair is an exact mirror, so A's rates are even by construction" if self.paired else ""))
        return frame

    @property
    def unit_stats(self) -> dict:
        """Per-unit means over games, by army (``"a"``, ``"b"``): arrays ``destroyed`` (rate),
        ``wounds_dealt``, ``wounds_taken``, ``rounds_holding`` (rounds ending with the unit
        holding an objective for its side), ``activations``, and the turns that did nothing
        useful (see :meth:`wasted`): ``idle``, ``stuck``, ``carried`` and ``never_acted``; and
        ``rounds_inside`` and ``rounds_in_reserve`` (rounds ending with the unit inside a
        transport on the table, and waiting to arrive); ``routed`` (rate: Routed, counted in
        ``destroyed`` too) and ``shaken_at_end`` (rate: ended the game Shaken; in Firefight,
        Stunned)."""
        n = max(len(self.winner), 1)
        return {
            army: {k: np.asarray(v, dtype=float) / n for k, v in self._units[i].items()}
            for i, army in enumerate(("a", "b"))
        }

    def _wasted_counts(self, i: int) -> tuple:
        """(wasted turns, turns) per unit of army ``i``, summed over games."""
        u = self._units[i]
        wasted = (np.asarray(u["idle"]) + np.asarray(u["stuck"]) + np.asarray(u["carried"])
                  + np.asarray(u["never_acted"])).astype(float)
        return wasted, np.asarray(u["activations"], dtype=float) + np.asarray(u["never_acted"], dtype=float)

    def wasted(self) -> dict:
        """The share of each army's turns that did nothing useful: ``{"a": share, "b": share}``.

        A turn is an activation, or a game in which a unit never activated. It did nothing
        useful when the unit held with nothing to shoot, cast or hold (``idle``); chose to move
        and got less than 1" (``stuck``); sat in a transport it never left that game
        (``carried``); or never activated (``never_acted``: destroyed before its first
        activation, as an Ambush arrival shot off the table, or never arrived). A Shaken
        unit's forced idleness is the rules', not counted. A high share says the AI rather
        than the list decided the result; :meth:`units` gives the share unit by unit."""
        out = {}
        for i, army in enumerate(("a", "b")):
            wasted, turns = self._wasted_counts(i)
            out[army] = float(wasted.sum() / turns.sum()) if turns.sum() else 0.0
        return out

    def wasted_units(self, at_least: float = WASTED_NOTE) -> list:
        """The units that wasted at least ``at_least`` of their turns, worst first:
        ``[(army, unit index, name, share), ...]``."""
        rows = []
        for i, army in enumerate(("a", "b")):
            wasted, turns = self._wasted_counts(i)
            for u, (name, *_rest) in enumerate(self._info[i]):
                if turns[u] and wasted[u] / turns[u] >= at_least:
                    rows.append((army, u, name, float(wasted[u] / turns[u])))
        return sorted(rows, key=lambda r: -r[3])

    def units(self):
        """One row per unit of both armies: name, points, role the default policy gave it,
        destroyed rate (destroyed or Routed), mean wounds dealt and taken, mean rounds holding
        an objective, mean activations, the share of its turns that did nothing useful
        (``wasted_share``, see :meth:`wasted`) and its parts per game (``idle``, ``stuck``,
        ``carried``, ``never_acted``), and the mean rounds it ended inside a transport on the
        table (``rounds_inside``) and waiting to arrive (``rounds_in_reserve``): the time it was
        not on the table to act; and the rates it Routed (``routed_rate``, part of
        ``destroyed_rate``) and ended the game Shaken (``shaken_rate``; in Firefight, Stunned)."""
        from ._optional import pandas

        pd = pandas("units()")

        rows = []
        stats = self.unit_stats
        for i, army in enumerate(("a", "b")):
            wasted, turns = self._wasted_counts(i)
            for u, (name, points, models, _radius) in enumerate(self._info[i]):
                s = stats[army]
                share = wasted[u] / turns[u] if turns[u] else float("nan")
                rows.append((army, u, name, points, models, self._roles[i][u], s["destroyed"][u], s["wounds_dealt"][u],
                             s["wounds_taken"][u], s["rounds_holding"][u], s["activations"][u], share, s["idle"][u],
                             s["stuck"][u], s["carried"][u], s["never_acted"][u],
                             s["rounds_inside"][u] if "rounds_inside" in s else float("nan"),
                             s["rounds_in_reserve"][u] if "rounds_in_reserve" in s else float("nan"),
                             s["routed"][u] if "routed" in s else float("nan"),
                             s["shaken_at_end"][u] if "shaken_at_end" in s else float("nan")))
        return pd.DataFrame(rows, columns=["army", "unit", "name", "points", "models", "role", "destroyed_rate",
                                           "wounds_dealt", "wounds_taken", "rounds_holding", "activations",
                                           "wasted_share", "idle", "stuck", "carried", "never_acted",
                                           "rounds_inside", "rounds_in_reserve", "routed_rate", "shaken_rate"])

    def to_pandas(self):
        """One row per game."""
        from ._optional import pandas

        pd = pandas("to_pandas()")

        return pd.DataFrame({
            "pair": self.pair, "first": np.where(self.first == 0, "a", "b"), "winner": self.winner,
            "objectives_a": self.objectives[:, 0], "objectives_b": self.objectives[:, 1],
            "models_left_a": self.models_left[:, 0], "models_left_b": self.models_left[:, 1],
            "points_left_a": self.points_left[:, 0], "points_left_b": self.points_left[:, 1],
        })

    def __len__(self) -> int:
        return len(self.winner)

    def _repr_html_(self) -> str:
        from . import _display as d

        level = "pairs" if self.paired else "games"
        rows = [[name.replace("_", " "), d._num(rate, 4), f"[{low:.3f}, {high:.3f}]"] for name, (rate, low, high) in
                {**self.rates(), **self.first_player_effect()}.items()]
        lines = [f"{len(self):,} games{' (paired' + (', mirror: each pair an exact mirror' if self.mirror else '') + ')' if self.paired else ''}"
                 f"{', interrupted' if self.interrupted else ''}; 95% intervals over the {level}"]
        notes = [f"Not modelled: {item}" for item in unmodelled_items(self.unmodelled)]
        notes.append(self._wasted_note())
        return d.block("Games", lines, d.table(["measure", "rate", "95% interval"], rows, [False, True, True]), notes=notes)

    def __repr__(self) -> str:
        r = self.rates()
        from ._display import interval

        ci = lambda t: interval(*t)  # noqa: E731
        extra = ", interrupted" if self.interrupted else ""
        ignored = ""
        if self.unmodelled:
            ignored = "; unmodelled: " + ", ".join(unmodelled_items(self.unmodelled))
        kind = (", paired" if self.paired else "") + (", mirror" if self.mirror else "")
        w = self.wasted()
        return (f"GameResult(games={len(self)}{kind}{extra}: A wins {ci(r['a_wins'])}, "
                f"draws {ci(r['draws'])}, B wins {ci(r['b_wins'])}; turns wasted A {w['a']:.1%}, B {w['b']:.1%}{ignored})")

    def _wasted_note(self) -> str:
        w = self.wasted()
        line = f"Turns that did nothing useful (idle, stuck, carried, never acted): A {w['a']:.1%}, B {w['b']:.1%}"
        worst = self.wasted_units()
        if worst:
            shown = ", ".join(f"{name} ({army.upper()}) {share:.0%}" for army, _u, name, share in worst[:3])
            more = f" and {len(worst) - 3} more" if len(worst) > 3 else ""
            line += f"; the AI rather than the list may decide these units' part: {shown}{more}"
        return line


def unmodelled_items(unmodelled: dict) -> list[str]:
    """``["Mend (A 12%, B 0%)", ...]``: each rule, by name, with the share of each army's points."""
    return [f"{name} (A {a:.0%}, B {b:.0%})" for name, (a, b) in sorted(unmodelled.items())]


# events whose ``hits`` are spell tokens (given, spent, lent) and ``models_left`` the tokens held
_TOKEN_EVENTS = ("tokens", "cast", "help", "hinder")


def _event_line(e: dict) -> str:
    """One traced event as a line of text, each unit by its label (as ``plot.game`` draws it:
    copies of a unit share a name) and name: "A3 Orc Boyz  charge  -> B1 Warden Squad  12 dice,
    6 hits, 3 wounds  2 models left  (...)"."""
    side = {0: "A", 1: "B"}

    def label(army, unit, name) -> str:
        return f"{side.get(army, '?')}{unit} {name}"

    def many(n: int, one: str, more: str) -> str:
        return f"{n} {one if n == 1 else more}" if n else ""

    parts = [label(e["army"], e["unit"], e["name"]) if e.get("name") else "", e["kind"]]
    if e.get("target_name"):
        parts.append("-> " + label(e["target_army"], e["target"], e["target_name"]))
    if e["length"]:
        parts.append(f"{e['length']:.1f}\"" + (f" of {e['allowance']:.0f}\"" if e["allowance"] else ""))
    tokens = e["kind"] in _TOKEN_EVENTS
    if tokens:
        counts = [many(e["dice"], "die", "dice"), many(e["hits"], "token", "tokens"), f"holds {e['models_left']}"]
    else:
        back = " dealt back" if e["kind"] == "melee" and e["hits"] else ""
        counts = [many(e["dice"], "die", "dice"), many(e["hits"], "hit", "hits") + back, many(e["wounds"], "wound", "wounds")]
    counts = [c for c in counts if c]
    if counts:
        parts.append(", ".join(counts))
    if not tokens and e.get("name") and e["models_left"] is not None and (e["wounds"] or e["hits"] or e["kind"] in ("morale", "dangerous", "lost")):
        parts.append(many(e["models_left"], "model left", "models left") or "0 models left")
    if e["detail"]:
        parts.append(f"({e['detail']})")
    return "  ".join(p for p in parts if p)


class _Trace:
    """One game's event log: ``terrain`` (:class:`TerrainPiece`), ``objectives`` ((x, y) of
    each marker) and ``events`` (dicts: round, kind, army, unit, target_army, target, from,
    to, allowance, ``length`` (a move's inches along its path, bends included; 0 for what
    is not a move), dice, hits, wounds, models_left, detail, ``models`` (position and move
    events: each model of the unit left as (x, y, base radius); else empty),
    ``target_models`` (charges: the target's models), and the units' ``name`` and
    ``target_name``, or None where the event is not about a unit)."""

    __slots__ = ("terrain", "objectives", "events", "table")

    def __init__(self, raw: dict, names: Optional[list] = None, table: Tuple[float, float] = TABLE) -> None:
        self.table: Tuple[float, float] = table
        """(width, depth) of the table the game was played on, in inches."""
        self.terrain = [TerrainPiece(*t) for t in raw["terrain"]]
        self.objectives = [tuple(p) for p in raw["objectives"]]
        keys = ("round", "kind", "army", "unit", "target_army", "target", "from", "to", "allowance", "length", "dice", "hits",
                "wounds", "models_left", "detail", "models", "target_models")
        self.events = [dict(zip(keys, (*who, *where, *what))) for who, where, what in raw["events"]]
        names = names or [[], []]

        def name(army, unit):
            ok = isinstance(army, int) and isinstance(unit, int) and 0 <= army < 2 and 0 <= unit < len(names[army])
            return names[army][unit] if ok else None

        for e in self.events:
            # objective events carry a marker index and its owner, not a unit
            unit_event = e["kind"] != "objective"
            e["name"] = name(e["army"], e["unit"]) if unit_event else None
            e["target_name"] = name(e["target_army"], e["target"]) if unit_event else None

    def __len__(self) -> int:
        return len(self.events)

    def __repr__(self) -> str:
        rounds = max((e["round"] for e in self.events), default=0)
        kinds = len({e["kind"] for e in self.events})
        return (f"<game trace: {len(self.events):,} events of {kinds} kinds over {rounds} rounds, "
                f"{len(self.terrain)} terrain pieces, {len(self.objectives)} markers; .log() to read it, .to_pandas() for a table>")

    def __str__(self) -> str:
        return self.log()

    def to_pandas(self):
        """The events as a DataFrame, one row each (``models``/``target_models`` kept as lists)."""
        from ._optional import pandas

        return pandas("a trace's to_pandas()").DataFrame(self.events)

    def log(self, round: Optional[int] = None) -> str:
        """The game as text, round by round (0: deployment), one line per event but the
        position snapshots: who did what to whom, the dice, hits and wounds, the models left
        and the detail; the markers' owners at each round's end. ``round``: that round only."""
        lines: list = []
        current = None
        for e in self.events:
            if round is not None and e["round"] != round:
                continue
            if e["round"] != current:
                current = e["round"]
                lines.append("Deployment" if current == 0 else f"Round {current}")
            if e["kind"] == "position":
                continue
            if e["kind"] == "objective":
                owner = {0: "army A", 1: "army B"}.get(e["army"], "nobody")
                lines.append(f"  marker {e['unit'] + 1}: held by {owner}")
                continue
            lines.append("  " + _event_line(e))
        return "\n".join(lines)

    def positions(self, round: int) -> list:
        """The position events at the end of ``round`` (0: after deployment)."""
        return [e for e in self.events if e["kind"] == "position" and e["round"] == round]

    def carried(self, round: int) -> dict:
        """The units inside a transport at the end of ``round`` (0: after deployment), each
        with its transport: ``{(army, unit): (army, transport)}``. A position snapshot says a
        unit is inside; the transport is the one it last got into (``embarked`` at
        deployment, ``embark``) and has not left (``disembark``, ``lost``)."""
        carrier: dict = {}
        out = {}
        for e in self.events:
            who = (e["army"], e["unit"])
            if e["kind"] in ("embarked", "embark", "inside"):
                carrier[who] = (e["target_army"], e["target"])
            elif e["kind"] in ("disembark", "lost"):
                carrier.pop(who, None)
            elif e["kind"] == "position" and e["round"] == round and e["detail"] == "inside" and who in carrier:
                out[who] = carrier[who]
        return out

    def owners(self, round: int) -> list:
        """Each marker's controller at the end of ``round``: 0 (army A), 1 (army B) or -1."""
        return [e["army"] for e in self.events if e["kind"] == "objective" and e["round"] == round]


def terrain_pieces(terrain: Any) -> Optional[list[tuple]]:
    """``terrain=`` checked: None for ``"standard"`` (a new table each game), the pieces'
    tuples otherwise (``"open"``: none)."""
    if isinstance(terrain, str):
        if terrain not in ("standard", "open"):
            raise ValueError(f'terrain: must be "standard", "open" or a sequence of TerrainPiece (got {terrain!r})')
        return None if terrain == "standard" else []
    pieces = []
    for i, piece in enumerate(_sequence(terrain, "terrain", "a sequence of TerrainPiece")):
        if not isinstance(piece, TerrainPiece):
            raise TypeError(f"terrain[{i}]: expected a TerrainPiece, got {type(piece).__name__}")
        pieces.append(piece._tuple())
    return pieces


def check_game_edition(edition: Any) -> str:
    """The key of ``edition`` (as ``edition=`` may write it) when full games are played in
    it; else a ValueError naming the editions that are."""
    if not isinstance(edition, str):
        raise TypeError(f"edition: expected a str such as {DEFAULT_EDITION!r}, got {type(edition).__name__}")
    key = _core._edition_key(edition)
    playable = _core._game_editions()
    if key not in playable:
        raise ValueError(f"edition: full games are played in {', '.join(playable)} (got {edition!r}); "
                         "attack(), melee() and morale() play every edition")
    return key


def game_edition(edition: Optional[str], units: Sequence[Any]) -> str:
    """The edition a game of ``units`` is played in: ``edition`` when given, else the one the
    units were read in (the default edition for none; where they differ, the default's if
    some unit is in it, else the first unit's: the core then names a unit of another)."""
    if edition is not None:
        return check_game_edition(edition)
    found = [u.edition for u in units]
    return check_game_edition(DEFAULT_EDITION if not found or DEFAULT_EDITION in found else found[0])


def simulate(
    army_a,
    army_b,
    *,
    games: int = 10_000,
    seed: SeedLike = None,
    edition: Optional[str] = None,
    terrain: Union[str, Sequence[TerrainPiece]] = "standard",
    policy_a: Union[str, Policy] = "default",
    policy_b: Union[str, Policy] = "default",
    paired: bool = False,
    threads: Optional[int] = None,
    progress: bool = True,
    trace: bool = False,
    rounds: int = 4,
    objectives: Optional[Sequence[Tuple[float, float]]] = None,
    deployment: Optional[Tuple[Sequence[Tuple[float, float]], Sequence[Tuple[float, float]]]] = None,
    first: Optional[str] = None,
    line_up: Optional[float] = None,
) -> GameResult:
    """Plays ``games`` full games between two armies and tallies them.

    ``army_a``, ``army_b``: an :class:`Army` (from :func:`load_army_list`), a path to (or the
    text of) a list, or a sequence of :class:`Unit` (a book's units, or units built in
    Python). Armies more than 10% apart in points, and a list over its own points limit,
    are warned about. ``edition``: the rulebook the games follow, ``"3.5"``, ``"3.4.1"`` or ``"2"``
    (docs/editions.md); by default the one the units were read in (a unit read in another
    edition is refused, naming it). ``seed``: an int, a
    ``numpy.random.SeedSequence`` or ``None``; a seeded run gives the same games whatever
    ``threads``. ``terrain``: ``"standard"`` (a new table of 21 pieces for each game, by the
    rulebook's terrain setup guidelines: docs/game-table.md), ``"open"`` (none) or a sequence of :class:`TerrainPiece`.
    ``policy_a``, ``policy_b``: ``"default"``, ``"v3-2026-11"``, ``"greedy"``, ``"random"``, ``"hold"`` or a :class:`Policy`.
    ``paired``: plays every game twice, on the same dice streams, with the armies' sides and
    the first player swapped (``2 * games`` games in all: pair ``k`` is games ``2k`` and
    ``2k + 1``). ``trace``: keep every game's event log (at most 100 games), for
    :func:`oprstats.plot.game`. ``progress``: a progress bar (tqdm); Ctrl-C stops the run and
    returns the games played so far (``interrupted`` is then True).

    Scenario options: ``rounds`` (4), fixed ``objectives`` ((x, y) in inches), a fixed
    ``deployment`` (positions of army A's and army B's units, with terrain other than
    ``"standard"``), and ``first`` (``"a"`` or ``"b"``: who goes first, else the roll-off;
    paired runs swap it in the second game of each pair). ``line_up``: a duel's line-up
    instead of a deployment (one unit a side, facing each other across the table's centre,
    their closest models ``line_up`` inches apart, from 0 to 30; see :func:`duel`).

    Each model stands on its own base in its unit's formation; distances are between the
    closest models, each model fires what reaches a target model it sees, and moves follow
    shortest paths. What stays abstracted is written down in ``docs/game.md``.
    """
    if edition is not None:
        edition = check_game_edition(edition)
    if isinstance(games, bool) or not isinstance(games, _INTS) or games < 1:
        raise ValueError(f"games: must be a whole number of at least 1 (got {shown(games)})")
    for name, flag in (("paired", paired), ("progress", progress), ("trace", trace)):
        if not isinstance(flag, (bool, np.bool_)):
            raise TypeError(f"{name}: expected a bool, got {type(flag).__name__}")
    total = int(games) * (2 if paired else 1)
    if total > MAX_GAMES:
        raise ValueError(f"games: at most {MAX_GAMES:,} games in one call (got {shown(total, grouped=True)})")
    if trace and total > MAX_TRACED_GAMES:
        raise ValueError(f"games: trace=True keeps every event of every game, so at most {MAX_TRACED_GAMES} games (got {shown(total)})")
    check_threads(threads)
    if isinstance(rounds, bool) or not isinstance(rounds, _INTS) or not 1 <= rounds <= 20:
        raise ValueError(f"rounds: must be a whole number from 1 to 20 (got {shown(rounds)})")
    if first not in (None, "a", "b"):
        raise ValueError(f'first: must be None (the roll-off), "a" or "b" (got {first!r})')
    pa, pb = _policy(policy_a, "policy_a"), _policy(policy_b, "policy_b")
    pieces = terrain_pieces(terrain)
    markers = None if objectives is None else _points(objectives, "objectives")
    fixed = None
    if deployment is not None:
        if pieces is None:
            raise ValueError('deployment: fixed positions need fixed terrain (terrain="open" or a list of pieces), '
                             'since a standard table is new every game')
        try:
            da, db = deployment
        except (TypeError, ValueError):
            raise TypeError("deployment: expected (positions of army A, positions of army B)") from None
        fixed = (_points(da, "deployment[0]"), _points(db, "deployment[1]"))
    if line_up is not None:
        # its distance, terrain and formations are the core's check (Config's line-up)
        if isinstance(line_up, bool) or not isinstance(line_up, _REALS) or not math.isfinite(as_float(line_up, "line_up")):
            raise TypeError(f"line_up: expected a number of inches, got {shown(line_up)}")
        line_up = float(line_up)
    # the seed to pass back to play the same games again: fresh entropy is drawn here, not hidden
    # (a SeedSequence made without entropy draws an int)
    replay = cast(int, np.random.SeedSequence().entropy) if seed is None else seed
    engine_seed = seed_to_u64(replay)
    lists_a: list = []
    lists_b: list = []
    units_a, units_b = _units(army_a, "army_a", lists_a, edition), _units(army_b, "army_b", lists_b, edition)
    lists = lists_a + lists_b
    # an army list's own name names its side in tables and plots
    names = tuple(str(met[0].name) if len(met) == 1 and met[0].name else default
                  for met, default in ((lists_a, "army A"), (lists_b, "army B")))
    for army in lists:
        warn_over_limit(army)
    # a duel is judged by points: its units may differ in size; units without a cost have
    # no points to compare
    if line_up is None and all(u.cost for u in (*units_a, *units_b)):
        warn_unequal(sum(u.cost for u in units_a), sum(u.cost for u in units_b))
    mirror = len(units_a) == len(units_b) and all(x == y for x, y in zip(units_a, units_b))
    if line_up is not None and (len(units_a) != 1 or len(units_b) != 1):
        raise ValueError(f"line_up: a duel's line-up takes one unit a side (got {len(units_a)} and {len(units_b)})")
    # refused before the preparation (with its exact melees) starts
    played = total * (len(units_a) + len(units_b))
    if played > LIMITS["MAX_UNIT_GAMES"]:
        raise ValueError(f"games x units: {total:,} games of {len(units_a) + len(units_b)} units is {played:,} unit-games, "
                         f"over the limit of {LIMITS['MAX_UNIT_GAMES']:,} this library accepts")
    prep = _core._prepare_game(units_a, units_b, edition=game_edition(edition, (*units_a, *units_b)),
                               role_ratio=(float(pa.role_ratio), float(pb.role_ratio)))
    # The first batch is small and measures the pace; later ones last about half a second,
    # so Ctrl-C (seen when a batch ends) stops a run promptly whatever the armies' size.
    batch = min(16, total)
    parts = []
    interrupted = False
    bar = None
    if progress:
        from ._optional import progress_bar

        bar = progress_bar()(total=total, unit="game", desc="simulate")
    try:
        done = 0
        started = time.perf_counter()
        while done < total:
            n = min(batch, total - done)
            parts.append(_core._simulate(
                prep, seed=engine_seed, first_game=done, games=n, terrain=pieces, objectives=markers,
                policies=(pa._tuple(), pb._tuple()), deployment=fixed, first=None if first is None else "ab".index(first),
                paired=bool(paired), rounds=int(rounds), trace=bool(trace), profile=False,
                threads=None if threads is None else int(threads), line_up=line_up))
            done += n
            if bar is not None:
                bar.update(n)
            pace = n / max(time.perf_counter() - started, 1e-3)
            batch = max(16, min(4096, int(pace * BATCH_SECONDS)))
            started = time.perf_counter()
    except KeyboardInterrupt:
        interrupted = True
        warnings.warn(f"simulate: interrupted after {sum(len(p['winner']) for p in parts)} of {total} games; "
                      "returning those", RuntimeWarning, stacklevel=2)
    finally:
        if bar is not None:
            bar.close()
    if not parts:
        raise KeyboardInterrupt("simulate: interrupted before the first batch of games finished")
    unmodelled = {name: (a, b) for name, a, b in prep.unmodelled()}
    if unmodelled:
        warnings.warn(f"simulate: the game does not model these rules, which units carrying this share of each "
                      f"army's points have: {', '.join(unmodelled_items(unmodelled))}; see GameResult.unmodelled",
                      UserWarning, stacklevel=2)
    raw = _merge(parts)
    if raw["violations"]:
        raise RuntimeError(f"simulate: the engine broke a rule of the game ({raw['violations']} times; first: "
                           f"{raw['first_violation']}); please report this as a bug")
    return GameResult(raw, prep, int(games), bool(paired), replay, engine_seed, interrupted, mirror, names)


def _merge(parts: list) -> dict:
    """Batches of games joined in game order."""
    if len(parts) == 1:
        return parts[0]
    out: dict[str, Any] = {k: np.concatenate([p[k] for p in parts]) for k in ("winner", "first", "objectives", "models_left", "points_left")}
    out["units"] = [{k: sum(p["units"][i][k] for p in parts) for k in parts[0]["units"][i]} for i in range(2)]
    out["traces"] = [t for p in parts for t in p["traces"]]
    out["timers"] = {k: sum(p["timers"][k] for p in parts) for k in parts[0]["timers"]}
    out["dice"] = sum(p["dice"] for p in parts)
    out["violations"] = sum(p["violations"] for p in parts)
    out["first_violation"] = next((p["first_violation"] for p in parts if p["first_violation"]), None)
    return out


def _profile(army_a, army_b, *, games: int, seed: int, threads: Optional[int] = None) -> dict:
    """Plays games with timers on (for the benchmark): the raw results with ``timers``."""
    units_a, units_b = _units(army_a, "army_a"), _units(army_b, "army_b")
    prep = _core._prepare_game(units_a, units_b, edition=game_edition(None, (*units_a, *units_b)), role_ratio=(2.0, 2.0))
    p = Policy()._tuple()
    return _core._simulate(prep, seed=seed, first_game=0, games=games, terrain=None, objectives=None, policies=(p, p),
                           deployment=None, first=None, paired=False, rounds=4, trace=False, profile=True, threads=threads)
