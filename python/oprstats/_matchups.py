"""Worth by play: what every unit does to every other where a game puts them together
(:func:`matchups`, exact), and the cost at which a unit trades points as well as the field's
typical unit (:func:`fair_cost`). The measures and what they assume are in
``docs/points.md``, "Worth by play".
"""

from __future__ import annotations

import math
import numbers
import os
import warnings
from typing import Any, Mapping, Optional, Sequence, cast

import numpy as np

from . import _core
from ._attack import LIMITS, as_float, check_distance, check_flag, check_threads, seed_to_u64, shown
from ._core import ArmyBook, Unit
from ._distributed import check_client, check_partitions, matchups_raw
from ._census import unit_rule_names
from ._defaults import NOT_GIVEN, SEED_UNSET, renamed, seed_or_zero
from ._duel import LINE_UP, LINE_UP_WHY
from ._points import measured_edition, require_full_games
from ._efficiency import canonical_mode

# How a unit was judged: against a field it is not in, against the field without itself
# (out of sample), or in sample (asked for).
JUDGED_OUTSIDE = "not in the field"
JUDGED_WITHOUT = "without itself"
DEFAULT_MODES = ("shoot 24", "shoot 12", "charge", "charged")
MEASURES = ("points", "wounds")
# What a table holds per mode and pair (``net`` is dealt less taken).
VALUES = ("net", "dealt", "taken", "p_destroyed", "p_lost")
FAIR_COST_COLUMNS = ("unit", "official", "fair", "low", "high", "difference", "difference_pct", "verdict", "judged", "offense",
                     "durability", "best_against", "worst_against", "ignored_rules")


def _units(source: Any, field: str, edition: Optional[str]) -> list[Unit]:
    from ._points import _source_of

    units = _source_of(source, edition, field)[0]
    if not units:
        raise ValueError(f"{field}: no units (an empty group)")
    return units


def _costs(units: Sequence[Unit], field: str) -> np.ndarray:
    costs = np.array([np.nan if u.cost is None else float(u.cost) for u in units])
    missing = np.flatnonzero(~(costs > 0))
    if missing.size:
        i = int(missing[0])
        raise ValueError(f"{field}[{i}] ({units[i].name}): has no points cost above 0 (got {units[i].cost!r}); give it one "
                         f"(\"| 100pts\" in the notation) or use measure=\"wounds\"")
    return costs


def _check_bootstrap(interval: Any, resamples: Any) -> tuple[float, int]:
    """``interval=`` (a share strictly between 0 and 1) and ``resamples=`` (0 to 100,000)."""
    interval = _check_number("interval", interval, 0.0, 1.0)
    if not 0 < interval < 1:
        raise ValueError(f"interval: must be above 0 and below 1 (got {interval!r})")
    if isinstance(resamples, bool) or not isinstance(resamples, numbers.Integral) or not 0 <= int(resamples) <= 100_000:
        raise ValueError(f"resamples: must be a whole number from 0 to 100,000 (got {shown(resamples)})")
    return interval, int(resamples)


def _pair_weights(n: int, resamples: int, seed: Any) -> np.ndarray:
    """``[pair, 1 + draw]``: each pair of games' weight in the estimate (all equal), then in
    each bootstrap draw of the pairs (drawn with replacement)."""
    return np.concatenate([np.ones((n, 1)), _draws(n, resamples, seed)], axis=1) / n


def _pair_scores(winner: np.ndarray) -> np.ndarray:
    """The first side's score per pair of paired games (a win 1, a draw 1/2), in pair order."""
    return ((np.asarray(winner, dtype=float) + 1.0) / 2.0).reshape(-1, 2).mean(axis=1)


def _percentile_range(draws: np.ndarray, interval: float) -> tuple[Optional[float], Optional[float]]:
    """The central ``interval`` of the finite bootstrap draws (None, None without any)."""
    ok = draws[np.isfinite(draws)]
    if not ok.size:
        return None, None
    tail = 50.0 * (1.0 - interval)
    return float(np.percentile(ok, tail)), float(np.percentile(ok, 100.0 - tail))


def _check_number(name: str, value: Any, low: float, high: float) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name}: expected a number, got {shown(value)}")
    x = as_float(value, name)
    if not math.isfinite(x):
        raise TypeError(f"{name}: expected a finite number, got {value!r}")
    if not low <= x <= high:
        raise ValueError(f"{name}: must be from {low:g} to {high:g} (got {shown(value)})")
    return x


class Matchups:
    """Every attacker against every defender in each mode (:func:`matchups`), as
    ``[mode, attacker, defender]`` arrays.

    ``dealt`` is what the attacker destroys of the defender in one activation (expected, in
    ``measure``: points, each wound worth the defender's cost over its wounds, or wounds);
    ``taken`` is what the attacker loses in return: the defender's return fire from the same
    distance in the shooting modes, its strike back when charged (``"charge"``), its charge
    (``"charged"``). A unit removed by a Rout loses all it had left. ``p_destroyed`` and
    ``p_lost`` are the chances the defender and the attacker are removed. NaN marks what
    cannot happen (an Aircraft charging or charged, an Immobile or Artillery unit charging).
    ``unmodelled`` maps ``(attacker index, defender index)`` to the rules of that pair the
    engines do not model (pairs with none are left out).
    """

    __slots__ = ("attackers", "defenders", "modes", "measure", "charge_distance", "edition", "dealt", "taken", "p_destroyed", "p_lost",
                 "attacker_costs", "defender_costs", "attacker_wounds", "defender_wounds", "unmodelled")

    def __init__(self, attackers: Sequence[Unit], defenders: Sequence[Unit], modes: tuple, measure: str, charge_distance: float,
                 edition: str, raw: dict) -> None:
        self.attackers: tuple = tuple(u.name for u in attackers)
        self.defenders: tuple = tuple(u.name for u in defenders)
        self.modes: tuple = modes
        self.measure = measure
        self.charge_distance = charge_distance
        self.edition = edition
        self.attacker_wounds: np.ndarray = raw["attacker_wounds"].astype(float)
        self.defender_wounds: np.ndarray = raw["defender_wounds"].astype(float)
        self.attacker_costs: np.ndarray = np.array([np.nan if u.cost is None else float(u.cost) for u in attackers])
        self.defender_costs: np.ndarray = np.array([np.nan if u.cost is None else float(u.cost) for u in defenders])
        dealt, taken = raw["dealt_wounds"], raw["taken_wounds"]
        if measure == "points":
            # in place: the arrays are this table's own, and a copy would be as large again
            dealt = np.multiply(dealt, (self.defender_costs / self.defender_wounds)[None, None, :], out=_own(dealt))
            taken = np.multiply(taken, (self.attacker_costs / self.attacker_wounds)[None, :, None], out=_own(taken))
        self.dealt: np.ndarray = dealt
        self.taken: np.ndarray = taken
        self.p_destroyed: np.ndarray = raw["dealt_p_removed"]
        self.p_lost: np.ndarray = raw["taken_p_removed"]
        for name in ("dealt", "taken", "p_destroyed", "p_lost", "attacker_costs", "defender_costs", "attacker_wounds", "defender_wounds"):
            getattr(self, name).flags.writeable = False
        nd = len(defenders)
        if "unmodelled_of" in raw:
            # a few distinct sets, each pair's by number (0: none); the pairs share the tuples
            sets = [tuple(names) for names in raw["unmodelled_sets"]]
            of = np.asarray(raw["unmodelled_of"]).ravel()
            at = np.flatnonzero(of)
            self.unmodelled: dict = dict(zip(zip((at // nd).tolist(), (at % nd).tolist()), [sets[k] for k in of[at].tolist()]))
        else:
            self.unmodelled = {(i // nd, i % nd): tuple(u) for i, u in enumerate(raw["unmodelled"]) if u}

    @property
    def net(self) -> np.ndarray:
        """``dealt - taken``: what the attacker gains in the exchange (points, or wounds)."""
        return self.dealt - self.taken

    def mode(self, name: str) -> int:
        """The index of a mode in the arrays' first axis."""
        try:
            return self.modes.index(canonical_mode(name))
        except ValueError:
            raise ValueError(f"mode: {name!r} is not one of these matchups' modes {self.modes}") from None

    def to_pandas(self):
        """One row per mode and pair: mode, attacker, defender, dealt, taken, net,
        p_destroyed, p_lost (needs pandas)."""
        from ._optional import pandas

        pd = pandas("to_pandas()")

        nm, na, nd = self.dealt.shape
        data = {
            "mode": np.repeat(np.array(self.modes, dtype=object), na * nd),
            "attacker": np.tile(np.repeat(np.array(self.attackers, dtype=object), nd), nm),
            "defender": np.tile(np.array(self.defenders, dtype=object), nm * na),
        }
        for name in ("dealt", "taken", "net", "p_destroyed", "p_lost"):
            data[name] = getattr(self, name).ravel()
        return pd.DataFrame(data)

    def __reduce__(self):
        return (_rebuild, ({name: getattr(self, name) for name in self.__slots__},))

    def best(self, value: str = "net") -> np.ndarray:
        """``value`` ("net", "dealt", "taken", "p_destroyed" or "p_lost") per pair
        ``[attacker, defender]`` in the mode best for the attacker by net; NaN where no mode
        can happen."""
        if value not in VALUES:
            raise ValueError(f"value: must be one of {VALUES} (got {value!r})")
        net = self.net
        net[np.isnan(net)] = -np.inf
        best = net.argmax(axis=0)[None]
        grid = np.take_along_axis(getattr(self, value), best, axis=0)[0]
        return np.where(np.isinf(np.take_along_axis(net, best, axis=0)[0]), np.nan, grid)

    def extremes(self, n: int = 10) -> list[tuple[str, str, str, float]]:
        """The ``n`` best exchanges, best first, then the ``n`` worst, worst last (every
        exchange once when there are no more than ``2 n``): ``(attacker, mode, defender,
        net)``, where the mode can happen."""
        net = self.net.ravel()
        finite = np.flatnonzero(np.isfinite(net))
        order = finite[np.argsort(-net[finite], kind="stable")]
        picks = order if len(order) <= 2 * n else np.concatenate([order[:n], order[-n:]])
        out = []
        for i in picks:
            m, a, d = np.unravel_index(i, self.net.shape)
            out.append((self.attackers[a], self.modes[m], self.defenders[d], float(net[i])))
        return out

    def _repr_html_(self) -> str:
        from . import _display as d

        lines = [repr(self)[len("Matchups("):-1]]
        parts = []
        na, nd = len(self.attackers), len(self.defenders)
        if na * nd <= 225 and self.dealt.size:
            best = self.best()
            rows = [[self.attackers[a]] + [d._num(x) if np.isfinite(x) else "–" for x in best[a]] for a in range(na)]
            parts = [f"<div>{d._esc(self.measure.capitalize())} destroyed less lost per activation, each pair's best mode</div>",
                     d.table(["attacker \\ defender", *self.defenders], rows, [False] + [True] * nd)]
        elif self.dealt.size:
            # too many pairs for a grid: the ten best and the ten worst exchanges
            rows = [[a, mode, dd, d._num(x)] for a, mode, dd, x in self.extremes(10)]
            parts = [f"<div>The ten best and ten worst exchanges of {na * nd:,} pairs ({d._esc(self.measure)} destroyed less lost per "
                     "activation); to_pandas() for all</div>",
                     d.table(["attacker", "mode", "defender", "net"], rows, [False, False, False, True])]
        return d.block("Matchups", lines, *parts)

    def __repr__(self) -> str:
        ignored = sorted({r for rules in self.unmodelled.values() for r in rules})
        best = ""
        net = self.net
        if net.size and np.isfinite(net).any():
            m, a, d = np.unravel_index(np.nanargmax(net), net.shape)
            best = f"; best exchange: {self.attackers[a]} {self.modes[m]} {self.defenders[d]}, {net[m, a, d]:+.3g} {self.measure}"
        return (f"Matchups({len(self.attackers)} attackers x {len(self.defenders)} defenders, modes {', '.join(self.modes)}, in {self.measure}"
                + best + (f"; ignores {', '.join(ignored)}" if ignored else "") + ")")


def _own(array: np.ndarray) -> np.ndarray:
    """``array`` to write in place: itself, or a copy where it is read-only."""
    return array if array.flags.writeable else array.copy()


def _rebuild(state: dict) -> "Matchups":
    out = Matchups.__new__(Matchups)
    for name, value in state.items():
        setattr(out, name, value)
    return out


def matchups(
    attackers: Any,
    defenders: Any,
    *,
    modes: Sequence[str] = DEFAULT_MODES,
    measure: str = "points",
    charge_distance: float = 6.0,
    edition: Optional[str] = None,
    threads: Optional[int] = None,
    client: Any = None,
    partitions: Optional[int] = None,
) -> Matchups:
    """What every attacker does to every defender, and takes in return, in each mode, exactly:
    ``"shoot D"`` (standing, from D inches; the defender shoots back from there),
    ``"charge"`` (the attacker charges from ``charge_distance`` inches; the defender strikes
    back) and ``"charged"`` (the other way round). Both units are fresh. The pairs run in
    parallel in Rust on ``threads`` (None: all cores) with the GIL released, and each cell
    equals :func:`attack` or :func:`melee` for that pair.

    ``attackers`` and ``defenders`` are each an army book, an army, a path to either, a unit,
    or a sequence of units. ``measure="points"`` values each wound at the unit's cost over
    its wounds (every unit needs a cost); ``"wounds"`` counts wounds. ``edition``: whose
    rules (default: the edition the units were made under, e.g. Firefight for a Firefight
    book's units; all of them must share it).

    ``client``: a ``dask.distributed.Client`` runs the table in ``partitions`` blocks of
    attackers on its workers (the defenders sent once); the table is the same to the bit.
    """
    attackers_list = _units(attackers, "attackers", edition)
    defenders_list = _units(defenders, "defenders", edition)
    edition = measured_edition(attackers_list + defenders_list, edition, "attackers, defenders")
    if isinstance(modes, str):
        modes = (modes,)
    try:
        modes = tuple(modes)
    except TypeError:
        raise TypeError(f"modes: expected a sequence of mode names, got {type(modes).__name__}") from None
    for i, m in enumerate(modes):
        if not isinstance(m, str):
            raise TypeError(f"modes[{i}]: expected a str such as \"shoot 12\", \"charge\" or \"charged\", got {type(m).__name__}")
    # efficiency()'s old names are read too, with a DeprecationWarning
    modes = tuple(canonical_mode(m, f"modes[{i}]") for i, m in enumerate(modes))
    if len(set(modes)) != len(modes):
        raise ValueError(f"modes: each mode once (got {modes})")
    if measure not in MEASURES:
        raise ValueError(f'measure: must be "points" or "wounds" (got {measure!r})')
    if measure == "points":
        _costs(attackers_list, "attackers")
        _costs(defenders_list, "defenders")
    charge_distance = _check_number("charge_distance", charge_distance, 0.0, 1000.0)
    check_threads(threads)
    client = check_client(client)
    check_partitions(partitions)
    if client is None:
        raw = _core._matchups(attackers_list, defenders_list, list(modes), charge_distance, edition, None if threads is None else int(threads),
                              False)
    else:
        raw = matchups_raw(client, attackers_list, defenders_list, list(modes), charge_distance, edition, partitions)
    return Matchups(attackers_list, defenders_list, modes, measure, charge_distance, edition, raw)


def _exchanges(modes: Sequence[str], dealt: np.ndarray, taken: np.ndarray, close_share: float) -> tuple[np.ndarray, np.ndarray]:
    """What each attacker destroys of each defender, and loses to it, in one round where each
    acts once (points, ``[attacker, defender]``), from a table's ``dealt`` and ``taken`` in
    points (``[mode, attacker, defender]``): at 24" both shoot; at 12" each takes the better
    of shooting and charging for itself (points destroyed less points lost in its own
    activation). ``close_share`` of the rounds are at 12"."""
    i = {name: k for k, name in enumerate(modes)}
    far_d, far_t = dealt[i["shoot 24"]], taken[i["shoot 24"]]
    shot_d, shot_t = dealt[i["shoot 12"]], taken[i["shoot 12"]]
    charge_d, charge_t = dealt[i["charge"]], taken[i["charge"]]
    charged_d, charged_t = dealt[i["charged"]], taken[i["charged"]]
    # where a charge cannot be made, it is never chosen. (Each [attacker, defender] array is
    # a field's size squared: the sums are made in place, the same numbers with fewer copies.)
    we_charge = np.nan_to_num(charge_d - charge_t, nan=-np.inf, copy=False) > shot_d
    they_charge = np.nan_to_num(charged_t - charged_d, nan=-np.inf, copy=False) > shot_t

    def mix(far: np.ndarray, near: np.ndarray, near_also: np.ndarray) -> np.ndarray:
        near += near_also
        near *= close_share
        out = (1 - close_share) * far
        out += near
        return out

    return (mix(far_d, np.where(we_charge, charge_d, shot_d), np.where(they_charge, charged_d, 0.0)),
            mix(far_t, np.where(they_charge, charged_t, shot_t), np.where(we_charge, charge_t, 0.0)))


def price_columns(name: str, official: Optional[float], fair: float, low: Optional[float], high: Optional[float]) -> dict:
    """A fair-cost row's first columns: the unit, its official and fair costs, the interval,
    and official minus fair in points and in percent of fair (None where unknown)."""
    diff = None if official is None or not math.isfinite(fair) else official - fair
    return {
        "unit": name,
        "official": official,
        "fair": round(fair, 1) if math.isfinite(fair) else fair,
        "low": None if low is None else round(low, 1),
        "high": None if high is None else round(high, 1),
        "difference": None if diff is None else round(diff, 1),
        "difference_pct": None if diff is None or fair <= 0 else round(100.0 * diff / fair, 1),
    }


def _rules_by_row(unmodelled: Mapping) -> dict:
    """The rules a table leaves unmodelled, by attacker: row -> set of names."""
    out: dict = {}
    for (row, _), names in unmodelled.items():
        out.setdefault(row, set()).update(names)
    return out


def _worth(offense: np.ndarray, losses: np.ndarray) -> np.ndarray:
    """sqrt(offense / losses): 0 where a unit destroys nothing, inf where nothing hurts it."""
    with np.errstate(divide="ignore", invalid="ignore"):
        w = np.asarray(offense / losses, dtype=float)
        np.sqrt(w, out=w)
    np.copyto(w, 0.0, where=np.asarray(offense) <= 0)
    return w


def _weights(weights: Any, field: Sequence[Unit]) -> np.ndarray:
    n = len(field)
    if weights is None:
        return np.full(n, 1.0 / n) if n else np.ones(0)
    if isinstance(weights, Mapping):
        unknown = set(weights) - {u.name for u in field}
        if unknown:
            raise ValueError(f"weights: {sorted(unknown)[0]!r} is not the name of a unit of the field")
        w = np.array([weights.get(u.name, 1.0) for u in field], dtype=object)
    else:
        w = np.array(list(weights), dtype=object)
        if len(w) != n:
            raise ValueError(f"weights: one weight per unit of the field ({n}), got {len(w)}")
    out = np.empty(n)
    for k, x in enumerate(w):
        if isinstance(x, bool) or not isinstance(x, numbers.Real):
            raise ValueError(f"weights[{k}]: must be a finite number, 0 or more (got {shown(x)})")
        x = as_float(x, f"weights[{k}]")
        if not math.isfinite(x) or x < 0:
            raise ValueError(f"weights[{k}]: must be a finite number, 0 or more (got {x!r})")
        out[k] = x
    if out.max(initial=0.0) <= 0:
        raise ValueError("weights: at least one must be above 0")
    # relative weights: scaled to sum to 1 (by the largest first, so that 1e308s do not
    # overflow), so that weights times any factor give the same answers
    out /= out.max()
    return out / out.sum()


#: What fair_cost judges units against without ``field=`` (its frame's ``attrs["field"]``).
FIELD_ITSELF = "the judged units themselves"


def _field_text(field: Any, size: int) -> str:
    """A field given to :func:`fair_cost` in words, for its frame's ``attrs["field"]``: its
    books and lists by name, its loose units counted, and its size."""
    if isinstance(field, Field):
        return f"a Field of {size} units"
    items = field if isinstance(field, list) else [field]
    names, loose = [], 0
    for item in items:
        if isinstance(item, Unit):
            loose += 1
        elif isinstance(item, ArmyBook):
            names.append(item.name)
        elif isinstance(item, os.PathLike) or (isinstance(item, str) and "\n" not in item and len(item) < 260):
            names.append(os.path.basename(os.fspath(item)))
        elif isinstance(item, str):
            names.append("a book's or a list's text")
        else:  # an Army, or anything else holding units
            names.append(getattr(item, "name", "") or "an army list")
    if not names:
        return f"{size} units"
    if loose:
        names.append(f"{loose} more unit{'' if loose == 1 else 's'}")
    return f"{', '.join(names)} ({size} units)"


def fair_cost_rows(units: Any, **options: Any) -> list[dict]:
    """The rows of :func:`fair_cost` as dicts, sorted the same way (no pandas needed)."""
    return _fair_cost(units, **options)[0]


def _fair_cost(units: Any, *, field: Any = None, weights: Any = None, method: str = "exchange", close_share: float = 0.5,
               charge_distance: float = 6.0, edition: Optional[str] = None, in_sample: bool = False, interval: float = 0.9,
               resamples: int = 1000, seed: Any = SEED_UNSET, threads: Optional[int] = None, client: Any = None,
               partitions: Optional[int] = None, armies: Any = None, games: int = 2000) -> tuple[list[dict], float, str]:
    """The rows of :func:`fair_cost`, the field's spread (the 90% quantile of
    |log(official / fair)| over the field's units; NaN by games) and what the field is, in
    words (:data:`FIELD_ITSELF` without one; empty by games)."""
    if method not in ("exchange", "games"):
        raise ValueError(f'method: must be "exchange" or "games" (got {method!r})')
    judged = _units(units, "units", edition)
    edition = measured_edition(judged, edition, "units")
    interval, resamples = _check_bootstrap(interval, resamples)
    if method == "games":
        require_full_games(edition, 'fair_cost(method="games")')
        if field is not None or weights is not None:
            raise ValueError('field, weights: the exchange\'s; method="games" measures against armies=')
        from ._worth_games import fair_cost_by_games

        return fair_cost_by_games(judged, armies=armies, games=games, seed=seed, interval=interval, resamples=resamples, client=client,
                                  partitions=partitions, threads=threads), math.nan, ""
    if armies is not None:
        raise ValueError('armies: the reference armies of method="games"; the exchange measures against field=')
    if isinstance(field, Field):
        if weights is not None:
            raise ValueError("weights: a Field has its own weights (give them to Field(...))")
        if field.charge_distance != charge_distance or field.edition != edition:
            raise ValueError(f"field: built for charges from {field.charge_distance:g}\" in edition {field.edition}, "
                             f"not {charge_distance:g}\" in {edition}")
    close_share = _check_number("close_share", close_share, 0.0, 1.0)
    in_sample = check_flag("in_sample", in_sample)
    if field is not None and not isinstance(field, (Field, str, os.PathLike, ArmyBook, Unit)) and not hasattr(field, "units"):
        try:
            field = list(field)  # read once: named below, and its units read
        except TypeError:
            pass  # refused, by name, where its units are read
    if not judged:
        return [], math.nan, FIELD_ITSELF if field is None else ""
    c_u = _costs(judged, "units")
    run = dict(charge_distance=charge_distance, edition=edition, threads=threads, client=client, partitions=partitions)
    given_field = field
    if not isinstance(field, Field):
        # the field's matchups against itself, once; the judged units in it read their rows
        field_units = judged if field is None else _units(field, "field", edition)
        _costs(field_units, "field")
        field = Field(field_units, weights=_weights(weights, field_units), **run)
    field_units, w = list(field.units), field.weights
    c_f = field.matchups.defender_costs  # a Field's units all have costs (it checked them)
    d_ff, t_ff = field.exchanges(close_share)
    # the judged units the field does not hold are measured against it
    at = [field.positions(u) for u in judged]
    new_units = [u for u, p in zip(judged, at) if not p]
    m_new = matchups(new_units, field_units, measure="points", **run) if new_units else None
    d_new, t_new = _exchanges(m_new.modes, m_new.dealt, m_new.taken, close_share) if m_new is not None else (None, None)
    field_rules, new_rules = _rules_by_row(field.matchups.unmodelled), _rules_by_row(m_new.unmodelled if m_new is not None else {})
    rows_d, rows_t, ignored, k = [], [], [], 0
    for p in at:
        if p:
            rows_d.append(d_ff[p[0]])
            rows_t.append(t_ff[p[0]])
            ignored.append(field_rules.get(p[0], set()))
        else:
            # a unit the field does not hold is one of new_units, so m_new was measured
            assert d_new is not None and t_new is not None
            rows_d.append(d_new[k])
            rows_t.append(t_new[k])
            ignored.append(new_rules.get(k, set()))
            k += 1
    d_uf, t_uf = np.array(rows_d), np.array(rows_t)
    # losses per point of the opponent, as a share of the unit's own cost
    l_uf = t_uf / (c_u[:, None] * c_f[None, :])
    l_ff = t_ff / (c_f[:, None] * c_f[None, :])
    # out of sample: the unit and its equal copies (an army list repeats units) are not
    # among its opponents, nor in the field's scale
    itself = np.zeros((len(judged), len(field_units)), dtype=bool)
    if not in_sample:
        for a, p in enumerate(at):
            itself[a, p] = True
    fair, offense, losses = _fair(d_uf, l_uf, itself, d_ff, l_ff, w, c_f)

    # how far OPR's prices sit from the exchange's for the field's own units (each judged
    # the same way): a verdict needs a unit further off than 90% of them
    def field_spread() -> float:
        alone = np.zeros((len(field_units), len(field_units)), dtype=bool) if in_sample else field.copies()
        field_fair = _fair(d_ff, l_ff, alone, d_ff, l_ff, w, c_f)[0]
        ok = np.isfinite(field_fair) & (field_fair > 0)
        return float(np.quantile(np.abs(np.log(c_f[ok] / field_fair[ok])), 0.9)) if ok.any() else math.inf

    spread = field.cached(("spread", close_share, in_sample), field_spread)
    low = high = np.full(len(judged), np.nan)
    if resamples:
        # the seed is used, by the resampling alone (said at fair_cost's caller's line)
        seed = seed_or_zero(seed, "fair_cost", 3)
        def draws() -> tuple:
            counts = _draws(len(w), resamples, seed)
            return counts, _field_scales(d_ff, l_ff, w, c_f, counts)

        # a Field keeps the draws of an int seed: the field's side of the bootstrap is its own
        if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
            counts, terms = field.cached(("draws", close_share, int(resamples), int(seed)), draws)
        else:
            counts, terms = draws()
        low, high = _bootstrap(d_uf, l_uf, w, itself, counts, terms, interval)
    rows = []
    net = d_uf - t_uf
    for a, u in enumerate(judged):
        official = int(c_u[a]) if float(c_u[a]).is_integer() else float(c_u[a])
        f_a = float(fair[a])
        order = [f for f in np.argsort(-net[a], kind="stable") if not itself[a, f]]
        lo, hi = (float(low[a]), float(high[a])) if resamples else (None, None)
        over = math.isfinite(f_a) and official > f_a * math.exp(spread) and (hi is None or official > hi)
        under = math.isfinite(f_a) and official < f_a * math.exp(-spread) and (lo is None or official < lo)
        rows.append({
            **price_columns(u.name, official, f_a, lo, hi),
            "verdict": None if not math.isfinite(f_a) else "over-costed" if over else "under-costed" if under else "within the field's spread",
            "judged": ("in sample" if in_sample else JUDGED_WITHOUT) if at[a] else JUDGED_OUTSIDE,
            "offense": round(float(offense[a]), 2),
            "durability": round(float(1.0 / losses[a]), 1) if losses[a] > 0 else math.inf,
            "best_against": ", ".join(f"{field_units[f].name} {net[a, f]:+.0f}" for f in order[:2]),
            "worst_against": ", ".join(f"{field_units[f].name} {net[a, f]:+.0f}" for f in order[::-1][:2]),
            "ignored_rules": ", ".join(sorted(ignored[a] & unit_rule_names(u))),
        })
    rows.sort(key=lambda r: (r["difference_pct"] is None, -abs(r["difference_pct"] or 0.0)))
    return rows, spread, FIELD_ITSELF if given_field is None else _field_text(given_field, len(field_units))


def _scale(keep: np.ndarray, c_f: np.ndarray, field_worth: np.ndarray) -> float:
    """The field's cost over its worth, summed with weights ``keep``: the scale that makes
    its units worth their costs in total. A unit nothing in the field can hurt (infinite
    worth) sets no scale: its cost and worth are both left out."""
    finite = np.isfinite(field_worth)
    denominator = float((keep * np.where(finite, field_worth, 0.0)).sum())
    return float((keep * np.where(finite, c_f, 0.0)).sum()) / denominator if denominator > 0 else math.nan


def _fair(d: np.ndarray, l: np.ndarray, itself: np.ndarray, d_ff: np.ndarray, l_ff: np.ndarray, w: np.ndarray,
          c_f: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Fair costs, offense and losses of the units whose exchanges against the field are the
    rows of ``d`` (points destroyed) and ``l`` (share lost per point of the opponent), each
    judged without the field units ``itself`` marks: not among its opponents, and not in the
    scale (their cost out, the others' worth measured without them)."""
    mask = np.where(itself, 0.0, w[None, :])
    with np.errstate(invalid="ignore", divide="ignore"):
        offense = (d * mask).sum(1) / mask.sum(1)
        losses = (l * mask).sum(1) / mask.sum(1)
    worth = _worth(offense, losses)
    sa, sl, sw = d_ff @ w, l_ff @ w, w.sum()
    scale = np.empty(len(d))
    whole = None
    for a in range(len(d)):
        cols = np.flatnonzero(itself[a])
        if not cols.size:
            if whole is None:
                whole = _scale(w, c_f, _worth(sa / sw, sl / sw))
            scale[a] = whole
            continue
        rest = sw - w[cols].sum()
        if rest <= 0:
            scale[a] = math.nan
            continue
        keep = w.copy()
        keep[cols] = 0.0
        scale[a] = _scale(keep, c_f, _worth((sa - d_ff[:, cols] @ w[cols]) / rest, (sl - l_ff[:, cols] @ w[cols]) / rest))
    return scale * worth, offense, losses


def _draws(n: int, resamples: int, seed: Any) -> np.ndarray:
    """Field units drawn with replacement, as counts ``[field unit, draw]``."""
    rng = np.random.default_rng(seed_to_u64(seed))
    return rng.multinomial(n, np.full(n, 1.0 / n), size=resamples).T.astype(float)


def _field_scales(d_ff: np.ndarray, l_ff: np.ndarray, w: np.ndarray, c_f: np.ndarray, counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Each drawn field's terms of its scale (`_scale`), per field unit ``[field, draw]``:
    weighted cost and weighted worth, zero for a unit of infinite worth."""
    wk = w[:, None] * counts
    with np.errstate(invalid="ignore", divide="ignore"):
        total = wk.sum(0)
        worth_f = _worth(_over(d_ff @ wk, total), _over(l_ff @ wk, total))
    finite = np.isfinite(worth_f)
    cost_terms = np.where(finite, c_f[:, None], 0.0)
    cost_terms *= wk
    np.copyto(worth_f, 0.0, where=~finite)
    worth_f *= wk
    return cost_terms, worth_f


def _over(x: np.ndarray, by: np.ndarray) -> np.ndarray:
    """``x / by``, in place."""
    x /= by
    return x


def _bootstrap(d_uf, l_uf, w, itself, counts, terms, interval) -> tuple[np.ndarray, np.ndarray]:
    """Percentile interval of each fair cost over resampled fields (the field's units drawn
    with replacement): how much the answer depends on which opponents make up the field.
    As in the estimate, a judged unit is not among its opponents, and its copies' cost and
    worth are out of the scale's sums (though the others' worth still counts it among
    their opponents: a term of one field unit in a thousand)."""
    cost_terms, worth_terms = terms
    wk = w[:, None] * counts
    # (each array here is [unit, draw] or [unit, field unit]: made one at a time, in place)
    mask_u = np.where(itself, 0.0, 1.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        total_u = mask_u @ wk
        offense = _over((d_uf * mask_u) @ wk, total_u)
        losses = _over((l_uf * mask_u) @ wk, total_u)
        del mask_u, total_u
        fair = _worth(offense, losses)
        del offense, losses
        own = itself.astype(float)
        numerator = np.subtract(cost_terms.sum(0)[None, :], own @ cost_terms)
        denominator = np.subtract(worth_terms.sum(0)[None, :], own @ worth_terms)
        del own
        scale = _over(numerator, denominator)
        np.copyto(scale, np.nan, where=~(denominator > 0))
        del denominator
        fair *= scale
        del scale
    # a drawn field that cannot set a scale (none of it destroys anything) says nothing
    np.copyto(fair, np.nan, where=~np.isfinite(fair))
    if np.isnan(fair).all():
        return np.full(len(fair), np.nan), np.full(len(fair), np.nan)
    tail = 50.0 * (1.0 - interval)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a row with no finite draw: NaN bounds
        return np.nanpercentile(fair, tail, axis=1), np.nanpercentile(fair, 100.0 - tail, axis=1)


class Field:
    """A field of opponents for :func:`fair_cost`, its matchups (every unit against every
    unit, exact) computed once: the 43 books take about a minute on 2 cores. A book judged
    against it then costs only its own units' matchups against the field, and none for
    units already in it. ``units``: a book, an army, a path, units, or a list of books;
    ``weights`` per unit (by position or by name). Pickles (to keep on disk, or to send to
    workers); ``client=`` builds it on a Dask cluster.
    """

    __slots__ = ("units", "weights", "charge_distance", "edition", "matchups", "_index", "_cache")

    def __init__(self, units: Any, *, weights: Any = None, charge_distance: float = 6.0, edition: Optional[str] = None,
                 threads: Optional[int] = None, client: Any = None, partitions: Optional[int] = None) -> None:
        self.units: tuple = tuple(_units(units, "units", edition))
        edition = measured_edition(self.units, edition, "units")
        self.weights: np.ndarray = _weights(weights, self.units)
        self.weights.flags.writeable = False
        self.charge_distance = _check_number("charge_distance", charge_distance, 0.0, 1000.0)
        self.edition = edition
        _costs(self.units, "units")
        self.matchups: Matchups = matchups(list(self.units), list(self.units), charge_distance=self.charge_distance, edition=edition,
                                           threads=threads, client=client, partitions=partitions)
        self._reindex()

    def _reindex(self) -> None:
        self._index: dict = {}
        for i, u in enumerate(self.units):
            self._index.setdefault(u, []).append(i)
        self._cache: dict = {}

    def positions(self, unit: Unit) -> list:
        """Where ``unit`` (or an equal copy) stands in the field."""
        return list(self._index.get(unit, ()))

    def copies(self) -> np.ndarray:
        """``[unit, unit]``: where two of the field's units are equal (each is its own copy)."""
        def make() -> np.ndarray:
            out = np.zeros((len(self.units), len(self.units)), dtype=bool)
            for places in self._index.values():
                out[np.ix_(places, places)] = True
            return out

        return self.cached(("copies",), make)

    def exchanges(self, close_share: float) -> tuple[np.ndarray, np.ndarray]:
        """The field's exchanges against itself (``_exchanges``), kept per ``close_share``."""
        return self.cached(("exchanges", close_share), lambda: _exchanges(self.matchups.modes, self.matchups.dealt, self.matchups.taken, close_share))

    def cached(self, key: tuple, make):
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    def __getstate__(self):
        return {name: getattr(self, name) for name in ("units", "weights", "charge_distance", "edition", "matchups")}

    def __setstate__(self, state: dict) -> None:
        for name, value in state.items():
            setattr(self, name, value)
        self._reindex()

    def __len__(self) -> int:
        return len(self.units)

    def __repr__(self) -> str:
        return f"Field({len(self.units)} units, matchups charging from {self.charge_distance:g}\", edition {self.edition})"

    def _repr_html_(self) -> str:
        """Its units with their weights (the first 25)."""
        from . import _display as d

        rows = [[u.name, u.cost if u.cost is not None else "", d._num(float(w), 3)] for u, w in list(zip(self.units, self.weights))[:25]]
        lines = [f"{len(self.units)} units, matchups charging from {self.charge_distance:g}\", edition {self.edition}"]
        notes = [f"and {len(self.units) - 25} more units"] if len(self.units) > 25 else []
        return d.block("Field", lines, d.table(["unit", "points", "weight"], rows, [False, True, True]), notes=notes)


def fair_cost(units: Any, *, field: Any = None, weights: Any = None, method: str = "exchange", close_share: float = 0.5,
              charge_distance: float = 6.0, edition: Optional[str] = None, in_sample: bool = False, interval: float = 0.9,
              resamples: int = 1000, seed: Any = SEED_UNSET, threads: Optional[int] = None, client: Any = None,
              partitions: Optional[int] = None, armies: Any = None, games: int = 2000):
    """What each unit is worth on the table by play, in points, against a field of opponents,
    as a pandas DataFrame sorted by how far its official cost is from it. Without ``field``,
    the units are judged against themselves: whether a book is balanced within itself. A
    faction's balance against the game needs other books in the field:
    ``fair_cost(book, field=[book, *other_books])``. ``frame.attrs["field"]`` says what the
    units were judged against.

    ``method="exchange"``: from the exact :func:`matchups` against every unit of ``field``
    (default: the units themselves; an army book, army, path, units, a :class:`Field`, or a
    sequence of these; ``weights`` per field unit, by position or by name), the cost at which the unit's points destroyed per point
    lost equals the field's typical unit's. Each round a unit meets an opponent, both act
    once: at 24" (a share ``1 - close_share``) both shoot; at 12" each shoots or charges,
    whichever trades better for it. ``offense`` is the points destroyed per activation,
    ``durability`` the points of opponents' activations it takes to destroy it; the worth
    is their geometric mean, scaled so that the field's units are worth their costs in
    total (docs/points.md, "Worth by play").

    Out of sample unless ``in_sample=True``: a unit is judged against the field without
    itself, and the scale is set without it. ``low``/``high`` is the ``interval`` percentile
    range over ``resamples`` fields drawn with replacement, seeded by ``seed`` (not given:
    0, with a FutureWarning, until it becomes None, fresh entropy, as in :func:`simulate`;
    pass ``seed=0`` to keep these numbers). The
    ``verdict`` is "over-costed" or "under-costed" only where the official cost is beyond
    that range and further from the fair cost than OPR's prices are for 90% of the field's
    own units (that spread, in percent, is ``frame.attrs["field_spread_pct"]``): the exchange
    leaves things out, so only an unusual gap is a verdict. ``difference`` is official minus fair
    (positive: it pays more than it is worth on the table), ``difference_pct`` relative to
    the fair cost. ``best_against``/``worst_against`` are its best and worst exchanges (net
    points per round); ``ignored_rules`` the rules of its matchups the engines do not model.
    What the exchange does not see (movement, objectives, auras given to others, spells) is
    not in it: see the docs.

    ``method="games"``: by simulation, in reference games ``armies=(army, opponent)`` (or a
    list of such pairs). The same ``games`` pairs of games (``paired``, on ``seed``: common
    random numbers) are played by the army as it is, without each of its units in turn,
    and with each judged unit added. A point is worth the win rate the army's own units
    add per point of their cost, and a unit's fair cost is the win rate it adds over that:
    the cost at which swapping it for the army's own units, point for point, is neutral.
    ``low``/``high`` is a bootstrap over the game pairs (``resamples``, the ``interval``),
    and ``verdict`` compares the official cost with it. Columns ``added_win_rate``,
    ``win_rate_per_100_points``, ``games``; no exchange columns.

    ``client`` (a ``dask.distributed.Client``) runs the matchups (or the games) on its
    workers in ``partitions`` batches; the frame is the same to the bit.

    ``edition``: whose rules (default: the edition the units were made under, e.g. Firefight
    for a Firefight book's units). ``method="games"`` needs full games, played only in v3.5
    so far: other editions are refused with a ``ValueError``.
    """
    from ._optional import pandas

    pd = pandas("fair_cost()")

    rows, spread, field_text = _fair_cost(units, field=field, weights=weights, method=method, close_share=close_share, charge_distance=charge_distance,
                              edition=edition, in_sample=in_sample, interval=interval, resamples=resamples, seed=seed, threads=threads,
                              client=client, partitions=partitions, armies=armies, games=games)
    if method == "games":
        from ._worth_games import GAMES_COLUMNS

        return pd.DataFrame(rows, columns=list(GAMES_COLUMNS))
    frame = pd.DataFrame(rows, columns=list(FAIR_COST_COLUMNS))
    frame.attrs["field_spread_pct"] = 100.0 * math.expm1(spread) if math.isfinite(spread) else spread
    frame.attrs["field"] = field_text
    return frame


BREAK_EVEN_PARAMETERS = ("cost", "quality", "defense", "models")


def _values(unit: Unit, parameter: str) -> list:
    """The values of a parameter tried: every Quality or Defense from 2+ to 6+; from 1
    model to twice the unit's own (at least 5 more), within the limit."""
    if parameter in ("quality", "defense"):
        return list(range(2, 7))
    size = unit.base.size
    return list(range(1, min(LIMITS["MAX_MODELS"] - (unit.size - size), max(2 * size, size + 5)) + 1))


def _official(unit: Unit, parameter: str) -> float:
    return float(unit.base.size if parameter == "models" else getattr(unit, parameter))


def _crossing(values: Sequence[float], net: np.ndarray) -> float:
    """Where ``net`` changes sign between two neighbouring values, interpolated (the first
    such place); NaN where it never does."""
    for k in range(len(values) - 1):
        a, b = net[k], net[k + 1]
        if (a >= 0 >= b or a <= 0 <= b) and a != b:
            return values[k] + (values[k + 1] - values[k]) * a / (a - b)
    return math.nan


def _no_crossing(parameter: str, values: Sequence[float], net: np.ndarray, gains: str, loses: str) -> str:
    """Why no value evens it: which way it stays at the best and the worst value tried."""
    if (net == 0).all():
        return "it neither gains nor loses at any value"
    if parameter == "models":
        best, worst = f"with {values[-1]} models", f"with {values[0]} model"
        at_best_end, at_worst_end = net[-1], net[0]
    else:
        best, worst = f"at {parameter.capitalize()} 2+", f"at {parameter.capitalize()} 6+"
        at_best_end, at_worst_end = net[0], net[-1]
    if (net > 0).all():
        return f"{gains} even {worst}"
    if (net < 0).all():
        return f"{loses} even {best}"
    return "it does not cross even once" if at_best_end * at_worst_end > 0 else "it crosses even more than once"


class BreakEven:
    """Where a unit's exchange against an opponent (or a field's average) is even
    (:func:`break_even`): ``value`` of ``parameter`` at which the points it destroys per round
    equal the points it loses, with ``official`` its present value; ``table`` rows of
    (value, dealt, taken, net) around it. ``value`` is None where no value of the parameter
    evens it (``note`` says which way it stays)."""

    __slots__ = ("unit", "opponents", "parameter", "value", "official", "table", "note", "method", "low", "high", "columns")

    def __init__(self, unit: str, opponents: tuple, parameter: str, value: Optional[float], official: Optional[float], table: list,
                 note: str, method: str = "exchange", low: Optional[float] = None, high: Optional[float] = None,
                 columns: Sequence[str] = ("dealt", "taken", "net")) -> None:
        self.unit, self.opponents, self.parameter = unit, opponents, parameter
        self.value, self.official, self.table, self.note = value, official, table, note
        self.method, self.low, self.high, self.columns = method, low, high, tuple(columns)

    def to_pandas(self):
        """The probed values: the parameter's value and, by exchange, dealt, taken and net
        (points per round); by duel, the chance to win (a draw counting half) and the shares
        of each unit destroyed."""
        from ._optional import pandas

        pd = pandas("to_pandas()")

        return pd.DataFrame(self.table, columns=[self.parameter, *self.columns])

    def _repr_html_(self) -> str:
        from . import _display as d

        rows = [[("" if v is None else d._num(v)), *[d._num(x, 4) for x in rest]] for v, *rest in self.table]
        return d.block("Break-even", [repr(self)[len("BreakEven("):-1]],
                       d.table([self.parameter, *self.columns], rows, [True] * (1 + len(self.columns))))

    def __repr__(self) -> str:
        against = self.opponents[0] if len(self.opponents) == 1 else f"a field of {len(self.opponents)} units"
        plus = "+" if self.parameter in ("quality", "defense") else ""
        now = "" if self.official is None else f" (now {self.official:g}{plus})"
        what = "exchange" if self.method == "exchange" else "duel"
        if self.value is None:
            return f"BreakEven({self.unit} against {against}: no {self.parameter} evens its {what}{now}: {self.note})"
        fmt = (lambda x: f"{x:.2f}+") if plus else (lambda x: f"{x:.1f}")
        span = f" [{fmt(self.low)}, {fmt(self.high)}]" if self.low is not None and self.high is not None else ""
        return f"BreakEven({self.unit} against {against}: even {what} at {self.parameter} {fmt(self.value)}{span}{now}{'; ' + self.note if self.note else ''})"


def _dealt_points(m: Matchups) -> np.ndarray:
    """A table in wounds: what the attackers dealt, in the defenders' points."""
    return m.dealt * (m.defender_costs / m.defender_wounds)[None, None, :]


def _net_per_round(m: Matchups, dealt_points: np.ndarray, attacker_per_wound: np.ndarray, w: np.ndarray, close_share: float) -> np.ndarray:
    """Each attacker's mean (dealt, taken) per round against the defenders, in points, from
    matchups in wounds (``dealt_points``: :func:`_dealt_points` of them), the attacker's
    wounds valued at ``attacker_per_wound``."""
    dealt, taken = _exchanges(m.modes, dealt_points, m.taken * attacker_per_wound[None, :, None], close_share)
    return np.stack([dealt @ w / w.sum(), taken @ w / w.sum()], axis=1)


def break_even(unit: Unit, opponents: Any, *, parameter: str = "cost", weights: Any = None, close_share: float = 0.5,
               charge_distance: float = 6.0, edition: Optional[str] = None, threads: Optional[int] = None, client: Any = None,
               partitions: Optional[int] = None, method: str = "exchange", games: int = 1000, seed: Any = SEED_UNSET, line_up: float = LINE_UP,
               interval: float = 0.9, resamples: int = 1000, distance: Any = NOT_GIVEN) -> BreakEven:
    """The cost (or Quality, or Defense) at which ``unit`` trades points evenly with an
    opponent, or with a field of them on average (``weights`` per unit): where the points
    of the opponent it destroys per round equal the points of itself it loses, in the
    exchange :func:`fair_cost` uses (at 24" both shoot; at 12" each shoots or charges,
    whichever trades better for it). Exact, by bisection on the cost (to 0.01 points) or by
    every Quality and Defense from 2+ to 6+ (the crossing interpolated between the two
    values around it: 4.3 is between 4+ and 5+). A unit's losses are valued at its cost:
    the cost that evens them, or at its official cost for Quality and Defense.

    ``method="duel"``: by :func:`duel` instead (``games`` pairs of duels from ``line_up``
    inches against each opponent, one seed for every value: common random numbers;
    ``distance``, its old name, with a DeprecationWarning until a later release). For
    Quality and Defense, the value at which the unit wins half its duels (a draw counting
    half), interpolated; for the cost, the cost at which the points it destroys over the
    duel equal the points it loses. ``low``/``high`` is the ``interval`` over ``resamples``
    bootstrap draws of the pairs of duels. ``seed`` seeds the duels and the draws (not
    given: 0, with a FutureWarning, until it becomes None, fresh entropy, as in
    :func:`duel`; pass ``seed=0`` to keep these numbers); the exchange is exact and uses
    none."""
    if not isinstance(unit, Unit):
        raise TypeError(f"unit: expected an oprstats.Unit, got {type(unit).__name__}")
    if parameter not in BREAK_EVEN_PARAMETERS:
        raise ValueError(f"parameter: must be one of {BREAK_EVEN_PARAMETERS} (got {parameter!r})")
    if method not in ("exchange", "duel"):
        raise ValueError(f'method: must be "exchange" or "duel" (got {method!r})')
    line_up, given_as = renamed("break_even", "distance", distance, "line_up", line_up, LINE_UP, LINE_UP_WHY, 2)
    field_units = _units(opponents, "opponents", edition)
    edition = measured_edition([unit, *field_units], edition, "unit, opponents")
    w = _weights(weights, field_units)
    # checked whichever method reads them, so that a slip is not silently ignored
    interval, resamples = _check_bootstrap(interval, resamples)
    line_up = check_distance(line_up, given_as)
    if method == "duel":
        require_full_games(edition, 'break_even(method="duel")')
        return _break_even_by_duels(unit, field_units, w, parameter, games=games, seed=seed, line_up=line_up, interval=interval,
                                    resamples=resamples, threads=threads, client=client, partitions=partitions)
    close_share = _check_number("close_share", close_share, 0.0, 1.0)
    names = tuple(u.name for u in field_units)
    _costs(field_units, "opponents")
    if parameter == "cost":
        m = matchups([unit], field_units, measure="wounds", charge_distance=charge_distance, edition=edition, threads=threads, client=client,
                     partitions=partitions)
        wounds = float(m.attacker_wounds[0])
        dealt_points = _dealt_points(m)  # what it deals does not depend on its own cost
        exchange = lambda c: _net_per_round(m, dealt_points, np.array([c / wounds]), w, close_share)[0]  # noqa: E731  (dealt, taken)
        gains = lambda c: float(np.subtract(*exchange(c))) > 0  # noqa: E731
        if exchange(0.0)[0] <= 0:
            value, note = 0.0, "it destroys nothing"
        else:
            high = float(unit.cost or 100)
            while gains(high) and high < 1e7:
                high *= 2
            if gains(high):
                value, note = None, "nothing hurts it: it gains at any cost"
            else:
                low = 0.0
                while high - low > 0.005:
                    mid = 0.5 * (low + high)
                    low, high = (mid, high) if gains(mid) else (low, mid)
                value, note = round(0.5 * (low + high), 2), ""
        probes = sorted({round(x, 2) for x in ([value * k for k in (0.5, 0.75, 1.0, 1.25, 1.5, 2.0)] if value else []) + ([float(unit.cost)] if unit.cost else [])})
        table = [(c, float(d), float(t), float(d - t)) for c in probes for d, t in [exchange(c)]]
        return BreakEven(unit.name, names, parameter, value, None if unit.cost is None else float(unit.cost), table, note)
    _costs([unit], "unit")
    values = _values(unit, parameter)
    variants = [unit.replace(**{parameter: v}) for v in values]
    m = matchups(variants, field_units, measure="wounds", charge_distance=charge_distance, edition=edition, threads=threads, client=client,
                 partitions=partitions)
    # _costs above raised if the unit has no cost
    per_wound = np.array([float(cast(int, unit.cost)) / float(x) for x in m.attacker_wounds])
    rows = _net_per_round(m, _dealt_points(m), per_wound, w, close_share)
    net = rows[:, 0] - rows[:, 1]
    table = [(v, float(d), float(t), float(d - t)) for v, (d, t) in zip(values, rows)]
    at = _crossing(values, net)
    value = round(at, 2) if math.isfinite(at) else None
    note = "" if value is not None else _no_crossing(parameter, values, net, "it gains", "it loses")
    return BreakEven(unit.name, names, parameter, value, _official(unit, parameter), table, note)


def _break_even_by_duels(unit: Unit, field_units: list, w: np.ndarray, parameter: str, *, games: int, seed: Any, line_up: float,
                         interval: float, resamples: int, threads: Optional[int], client: Any, partitions: Optional[int]) -> BreakEven:
    """``break_even(method="duel")``: duels of every value of the parameter against every
    opponent on one seed, and a bootstrap over the pairs of duels."""
    from ._distributed import sweep
    from ._duel import duel

    if isinstance(games, bool) or not isinstance(games, numbers.Integral) or not 20 <= games <= 1_000_000:
        raise ValueError(f"games: must be a whole number of duel pairs from 20 to 1,000,000 (got {games!r})")
    interval, resamples = _check_bootstrap(interval, resamples)
    seed = seed_or_zero(seed, "break_even", 3)
    engine_seed = seed_to_u64(seed)
    weight = w / w.sum()
    n_f = len(field_units)
    names = tuple(f.name for f in field_units)
    columns = ("p_win", "share_destroyed", "share_lost")
    costs = np.array([float(f.cost or 0) for f in field_units])
    draws: list = []  # the bootstrap's weights, made once the number of pairs played is known

    def play(variants: list) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """Every variant against every opponent on the one seed: the chance to win (a draw
        counting half), the share of itself lost, the share of the opponent destroyed, and
        the opponent's points destroyed, each ``[variant, 1 + bootstrap draw]``."""
        grid = [dict(a=v, b=f, games=int(games), seed=engine_seed, line_up=line_up, paired=True, threads=threads)
                for v in variants for f in field_units]
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            try:
                results = sweep(duel, grid, client=client, partitions=partitions)
            except KeyboardInterrupt as exc:  # the duels are the sweep's items
                raise KeyboardInterrupt(f'break_even(method="duel"): {str(exc).removeprefix("sweep: ").replace("items", "duels").replace("item ", "duel ")}'
                                        ) from None
        # per pair of duels: the score and each side's share destroyed
        by_pair = lambda x: np.stack(x).reshape(len(variants), n_f, -1)  # noqa: E731
        score = by_pair([_pair_scores(r.winner) for r in results])
        lost = by_pair([(1 - r.left[:, 0]).reshape(-1, 2).mean(1) for r in results])
        destroyed = by_pair([(1 - r.left[:, 1]).reshape(-1, 2).mean(1) for r in results])
        if not draws:
            draws.append(_pair_weights(score.shape[2], resamples, seed))
        mean = lambda x, by: np.einsum("f,vfp,pd->vd", by, x, draws[0])  # noqa: E731
        return mean(score, weight), mean(lost, weight), mean(destroyed, weight), mean(destroyed, weight * costs)

    def spread(estimates: np.ndarray) -> tuple[Optional[float], Optional[float]]:
        low, high = _percentile_range(estimates, interval)
        return (None, None) if low is None or high is None else (round(low, 2), round(high, 2))

    if parameter == "cost":
        _costs(field_units, "opponents")
        # the points of the opponents it destroys equal the points of itself it loses. The
        # AI weighs its choices in points, so the duels are played again at each cost tried
        # until it settles
        cost = float(unit.cost) if unit.cost else float(np.average([float(f.cost) for f in field_units], weights=w))
        table, note, value = [], "", np.full(1 + resamples, np.nan)
        for _ in range(8):
            played = int(min(max(round(cost), 1), LIMITS["MAX_COST"]))
            p_win, share_lost, share_destroyed, points = play([unit.replace(cost=played)])
            with np.errstate(divide="ignore", invalid="ignore"):
                value = np.where(share_lost[0] > 0, points[0] / share_lost[0], np.nan)
            table.append((float(played), float(p_win[0, 0]), float(share_destroyed[0, 0]), float(share_lost[0, 0])))
            if not math.isfinite(value[0]):
                note = "it loses nothing in the duels"
                break
            if abs(value[0] - played) < 1.0:
                break
            cost = float(value[0])
        else:
            note = f"the duels did not settle on a cost in 8 tries (the AI's choices change with it; last {value[0]:.1f})"
        v0 = float(value[0])
        low, high = spread(value[1:])
        return BreakEven(unit.name, names, "cost", round(v0, 2) if math.isfinite(v0) else None, None if unit.cost is None else float(unit.cost),
                         table, note, "duel", low, high, columns)

    values = _values(unit, parameter)
    p_win, share_lost, share_destroyed, _ = play([unit.replace(**{parameter: v}) for v in values])
    estimates = np.array([_crossing(values, p_win[:, d] - 0.5) for d in range(p_win.shape[1])])
    v0 = float(estimates[0])
    low, high = spread(estimates[1:])
    table = [(v, float(p_win[k, 0]), float(share_destroyed[k, 0]), float(share_lost[k, 0])) for k, v in enumerate(values)]
    note = ""
    if not math.isfinite(v0):
        note = _no_crossing(parameter, values, p_win[:, 0] - 0.5, "it wins over half its duels", "it wins under half its duels")
    return BreakEven(unit.name, names, parameter, round(v0, 2) if math.isfinite(v0) else None, _official(unit, parameter), table, note,
                     "duel", low, high, columns)
