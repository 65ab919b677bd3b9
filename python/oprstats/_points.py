"""Points: a cost model learnt from the official costs, prices with a breakdown a designer
can read, and the fairness report.

A price is a sum of terms: the profile (models, Quality, durability against reference
attackers), each weapon (its exact expected wounds against the reference panel, scaled by
range), and each rule. The exact engine measures what the rules it models do (their
offense and durability against the panel); every rule also has by-name weights learnt from
the books for what dice cannot show (movement, deployment, auras), some flat and some a
share of the unit's profile and weapons. Weights are fitted by ridge-regularised least
squares on relative error. See ``docs/points.md``.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional, Sequence, Union, cast

import numpy as np

from . import _core
from ._attack import LIMITS, check_flag, shown
from ._core import Army, ArmyBook, Unit
from ._editions import DEFAULT_EDITION

DATA = Path(__file__).resolve().parent / "data"
FORMAT = "oprstats-cost-model/2"
# The first format: weights only (no models fitted without each family, no intervals).
FORMAT_V1 = "oprstats-cost-model/1"
# The rounding grid of official costs.
POINT_STEP = 5


def shipped_model_path(edition: str = DEFAULT_EDITION) -> Path:
    return DATA / f"cost-model-{edition}.json"


def _is_by_name(feature: str) -> bool:
    """Features held near zero unless the data needs them: rules by name, and the price per
    model and per wound of each Quality, Defense and pair of both (the smooth part of those
    prices is fitted freely)."""
    return feature.startswith(("rule:", "weapon-rule:", "wounds:", "quality:"))


class _Terms:
    """The sparse term table of many units, from the Rust core (GIL released, in parallel)."""

    def __init__(self, units: Sequence[Unit], edition: str) -> None:
        raw = _core._cost_terms(list(units), edition)
        self.n_units = len(units)
        self.features: list[str] = list(raw["features"])
        self.term_unit = np.asarray(raw["term_unit"], dtype=np.intp)
        self.kinds = np.asarray(raw["kinds"])
        self.labels: list[str] = raw["labels"]
        self.names: list[list[str]] = raw["names"]
        self.entry_term = np.asarray(raw["entry_term"], dtype=np.intp)
        self.entry_feature = np.asarray(raw["entry_feature"], dtype=np.intp)
        self.entry_value = np.asarray(raw["entry_value"], dtype=np.float64)
        self.unmodelled: list[list[str]] = raw["unmodelled"]
        self.n_terms = len(self.labels)
        # Each model group of each unit is numbered apart: a rule's share is of its own
        # group's core value, so a unit with a joined hero is priced as its parts.
        self.term_group = np.asarray(raw["term_group"], dtype=np.intp)
        self.n_groups = int(self.term_group.max()) + 1 if self.n_terms else 0
        # Share slots: a feature worth `coef` times the term's group's core value (rule
        # terms) or the weapon's own value (weapon terms).
        self.share_term = np.asarray(raw["share_term"], dtype=np.intp)
        self.share_name: list[str] = list(raw["share_name"])
        self.share_coef = np.asarray(raw["share_coef"], dtype=np.float64)
        self.share_of_core = self.kinds[self.share_term] == "rule" if len(self.share_term) else np.zeros(0, dtype=bool)
        self.not_rule = self.kinds != "rule"

    def slot_names(self) -> list[str]:
        return sorted(set(self.share_name))

    def _vector(self, weights: Mapping[str, float], names: Sequence[str]) -> np.ndarray:
        return np.asarray([weights.get(n, 0.0) for n in names], dtype=np.float64)

    def linear(self, weights: Mapping[str, float]) -> np.ndarray:
        """Each term's value from its engine and by-name features (no shares)."""
        w = self._vector(weights, self.features)
        return np.bincount(self.entry_term, weights=self.entry_value * w[self.entry_feature], minlength=self.n_terms)

    def core(self, linear: np.ndarray) -> np.ndarray:
        """Each model group's core value: its profile and weapons (what shares of rules are of)."""
        return np.bincount(self.term_group, weights=np.where(self.not_rule, linear, 0.0), minlength=self.n_groups)

    def _share_base(self, lin: np.ndarray) -> np.ndarray:
        """What each share slot is a share of, times its coefficient."""
        core = self.core(lin)
        base = np.where(self.share_of_core, core[self.term_group[self.share_term]], lin[self.share_term])
        return self.share_coef * base

    def term_points(self, weights: Mapping[str, float]) -> np.ndarray:
        """Each term's points under ``weights``."""
        lin = self.linear(weights)
        points = lin.copy()
        if len(self.share_term):
            np.add.at(points, self.share_term, self._vector(weights, self.share_name) * self._share_base(lin))
        return points

    def features_matrix(self, columns: Sequence[str]) -> np.ndarray:
        """Unit × column matrix of the linear features (share slots left at zero)."""
        col = {c: i for i, c in enumerate(columns)}
        X = np.zeros((self.n_units, len(columns)))
        fcol = np.asarray([col.get(f, -1) for f in self.features], dtype=np.intp)
        keep = fcol[self.entry_feature] >= 0
        np.add.at(X, (self.term_unit[self.entry_term[keep]], fcol[self.entry_feature[keep]]), self.entry_value[keep])
        return X

    def add_shares(self, X: np.ndarray, columns: Sequence[str], weights: Mapping[str, float]) -> np.ndarray:
        """``X`` with the share slots valued under ``weights`` (a rule's share of its unit's
        core value, a weapon rule's share of its weapon's value)."""
        col = {c: i for i, c in enumerate(columns)}
        X = X.copy()
        if len(self.share_term):
            cols = np.asarray([col[s] for s in self.share_name], dtype=np.intp)
            np.add.at(X, (self.term_unit[self.share_term], cols), self._share_base(self.linear(weights)))
        return X


@dataclass(frozen=True)
class PriceTerm:
    """One part of a price: ``kind`` is "profile", "weapon" or "rule"."""

    kind: str
    label: str
    points: float


@dataclass(frozen=True)
class Price:
    """A unit's modelled points with the terms they come from.

    ``ignored`` lists rules the engine does not model and the cost model never saw, so they
    add nothing (flagged, never silently dropped); ``by_name`` lists rules the engine does
    not model that are priced only from what the books charge for them.
    """

    unit: str
    points: float
    official: Optional[int]
    terms: tuple[PriceTerm, ...]
    ignored: tuple[str, ...]
    by_name: tuple[str, ...]

    @property
    def rounded(self) -> int:
        """The price on the official 5-point grid."""
        return int(POINT_STEP * round(self.points / POINT_STEP))

    @property
    def difference(self) -> Optional[float]:
        """Official minus modelled points (positive: the unit costs more than it is modelled to be worth)."""
        return None if self.official is None else self.official - self.points

    def to_pandas(self):
        """The breakdown, one row per term."""
        from ._optional import pandas

        pd = pandas("to_pandas()")

        return pd.DataFrame([{"kind": t.kind, "term": t.label, "points": t.points} for t in self.terms])

    def __repr__(self) -> str:
        official = "" if self.official is None else f", official {self.official}"
        flags = f"; not priced: {', '.join(self.ignored)}" if self.ignored else ""
        return f"Price({self.unit}: {self.points:.1f} pts modelled{official}, {len(self.terms)} terms{flags})"

    def _repr_html_(self) -> str:
        from . import _display as d

        lines = [f"{self.points:.1f} pts modelled" + ("" if self.official is None else f", {self.official} official "
                                                             f"({self.official - self.points:+.1f})")]
        rows = [[t.kind, t.label, f"{t.points:+.1f}"] for t in self.terms]
        notes = ([f"Not priced (unknown rules): {', '.join(self.ignored)}"] if self.ignored else []) + (
            [f"Priced by name only (no engine plays them): {', '.join(self.by_name)}"] if self.by_name else [])
        return d.block(f"Price of {self.unit}", lines, d.table(["kind", "term", "points"], rows, [False, False, True]), notes=notes)

    def __str__(self) -> str:
        lines = [f"{self.unit}: {self.points:.0f} pts modelled" + ("" if self.official is None else f", {self.official} official")]
        lines += [f"  {t.points:7.1f}  {t.kind:7}  {t.label}" for t in self.terms]
        if self.ignored:
            lines.append(f"  not priced (unknown rules): {', '.join(self.ignored)}")
        if self.by_name:
            lines.append(f"  priced by name only (no engine plays them): {', '.join(self.by_name)}")
        return "\n".join(lines)


def _numeric(value: Any, name: str, *, minimum: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"{name}: must be a finite number of at least {minimum:g} (got {shown(value)})")
    try:
        number = float(value)
    except OverflowError:  # an int past a float's range
        number = math.inf
    if not math.isfinite(number) or number < minimum:
        raise ValueError(f"{name}: must be a finite number of at least {minimum:g} (got {shown(value)})")
    return number


# A weight is points per unit of a feature; no unit costs more than MAX_COST points, so a
# weight larger than that is not a model's (1e308 priced every unit NaN).
MAX_WEIGHT = float(LIMITS["MAX_COST"])


def _weight(value: Any, name: str) -> float:
    w = _numeric(value, name, minimum=-math.inf)
    if abs(w) > MAX_WEIGHT:
        raise ValueError(f"{name}: {shown(value)} is over the limit of {MAX_WEIGHT:,.0f} points a weight this library accepts")
    return w


@dataclass(frozen=True)
class _FitOptions:
    """How a model is fitted (see :meth:`CostModel.fit`); checked once, shared by fitting and
    cross-validation."""

    variants: bool = True
    ridge: float = 1.0
    ridge_by_name: float = 10.0
    variant_weight: float = 0.5
    iterations: int = 6

    def __post_init__(self) -> None:
        for name in ("ridge", "ridge_by_name", "variant_weight"):
            object.__setattr__(self, name, _numeric(getattr(self, name), name))
        it = self.iterations
        if isinstance(it, bool) or not isinstance(it, int) or not 1 <= it <= 100:
            raise ValueError(f"iterations: must be a whole number from 1 to 100 (got {shown(it)})")

    def fit(self, terms: "_Terms", costs: np.ndarray, is_variant: np.ndarray, train: np.ndarray) -> dict[str, float]:
        row_weight = np.where(is_variant, self.variant_weight, 1.0)
        return _fit_terms(terms, costs, row_weight, train, self.ridge, self.ridge_by_name, self.iterations)


def _solve(X: np.ndarray, y: np.ndarray, row_weight: np.ndarray, by_name: np.ndarray, ridge: float, ridge_by_name: float) -> np.ndarray:
    """Ridge least squares on relative error. Each column's penalty is measured in the
    column's typical contribution where it is present, so a rule seen on three units is held
    near zero unless those units need it (``ridge_by_name``), while the engine's dense
    features are fitted almost freely (``ridge``)."""
    sw = np.sqrt(row_weight) / np.maximum(y, 10.0)
    Xt = X * sw[:, None]
    yt = y * sw
    present = (Xt != 0).sum(axis=0)
    scale = np.sqrt((Xt**2).sum(axis=0) / np.maximum(present, 1)) + 1e-12
    A = Xt / scale
    penalty = np.where(by_name, ridge_by_name, ridge)
    solution = np.linalg.solve(A.T @ A + np.diag(penalty), A.T @ yt)
    w = solution / scale
    w[present == 0] = 0.0
    return w


def _training_units(items: Iterable[Any], variants: bool, edition: Optional[str]) -> tuple[list[Unit], list[bool], list[int]]:
    """Units with official costs from units, army books (their units and, with ``variants``,
    every single-option loadout, each right after its default loadout) and paths to army
    books: the units, whether each is an option loadout, and the index of the item it came
    from."""
    from ._loaders import load_army_book

    if isinstance(items, (Unit, ArmyBook, str, os.PathLike)):
        items = [items]
    units: list[Unit] = []
    is_variant: list[bool] = []
    source: list[int] = []
    for i, item in enumerate(items):
        if isinstance(item, (str, os.PathLike)):
            item = load_army_book(item, edition=edition)
        if isinstance(item, ArmyBook):
            for u in item.units:
                loadouts = [u] + ([v for _label, v, _cost in item.variants(u)] if variants else [])
                units += loadouts
                is_variant += [False] + [True] * (len(loadouts) - 1)
                source += [i] * len(loadouts)
        elif isinstance(item, Unit):
            if item.cost is None:
                raise ValueError(f"units[{i}]: {item.name} has no official cost to learn from")
            units.append(item)
            is_variant.append(False)
            source.append(i)
        else:
            raise TypeError(f"units[{i}]: expected a Unit, an ArmyBook or a path to one, got {type(item).__name__}")
    if not units:
        raise ValueError("units: nothing to learn from (give units with costs or army books)")
    return units, is_variant, source


def _cost_model(weights: Mapping[str, float], edition: str, info: Mapping[str, Any], held_out: Optional["_HeldOut"] = None,
                intervals: Optional["PredictionIntervals"] = None) -> "CostModel":
    """Unpickles a CostModel (see ``CostModel.__reduce__``)."""
    return CostModel(weights, edition=edition, info=info, held_out=held_out, intervals=intervals)


class CostModel:
    """Points from profiles: ``CostModel.default()`` is the model fitted to the official
    v3.5.1 books that ships with the package; ``CostModel.fit(books)`` learns a new one.

    ``predict(unit)`` returns a :class:`Price` with its breakdown; ``prices(units)`` a numpy
    array of points. Immutable: fitting returns a new model.
    """

    __slots__ = ("_weights", "_edition", "_info", "_held_out", "_intervals")

    def __init__(self, weights: Mapping[str, float], *, edition: str = DEFAULT_EDITION, info: Optional[Mapping[str, Any]] = None,
                 held_out: Optional["_HeldOut"] = None, intervals: Optional["PredictionIntervals"] = None) -> None:
        clean = {}
        for k, v in dict(weights).items():
            if not isinstance(k, str):
                raise TypeError(f"weights: keys must be feature names (str), got {type(k).__name__}")
            clean[k] = _weight(v, f"weights[{k!r}]")
        if not isinstance(edition, str):
            raise TypeError(f"edition: expected an edition key such as '3.5', got {type(edition).__name__}")
        _core._known_rules(edition)  # a ValueError naming the editions for an unknown key
        if not clean:
            raise ValueError("weights: empty (a model with no weights prices every unit at 0 points)")
        self._weights = MappingProxyType(clean)
        self._edition = edition
        self._info = MappingProxyType(dict(info or {}))
        if held_out is not None and not isinstance(held_out, _HeldOut):
            raise TypeError(f"held_out: expected the models fitted without each family, got {type(held_out).__name__}")
        if intervals is not None and not isinstance(intervals, PredictionIntervals):
            raise TypeError(f"intervals: expected PredictionIntervals, got {type(intervals).__name__}")
        self._held_out = held_out
        self._intervals = intervals

    @property
    def weights(self) -> Mapping[str, float]:
        """Feature name -> points per unit of the feature (read-only)."""
        return self._weights

    @property
    def edition(self) -> str:
        return self._edition

    @property
    def info(self) -> Mapping[str, Any]:
        """How the model was fitted (data, settings, accuracy)."""
        return self._info

    @property
    def intervals(self) -> Optional["PredictionIntervals"]:
        """Prediction intervals calibrated on out-of-sample errors (None if not fitted with
        ``out_of_sample=True``)."""
        return self._intervals

    @property
    def families(self) -> int:
        """How many families of books it holds a model fitted without (0 if none)."""
        return 0 if self._held_out is None else len(self._held_out.weights)

    def __reduce__(self):
        # the fields themselves: a MappingProxyType does not pickle
        return (_cost_model, (dict(self._weights), self._edition, dict(self._info), self._held_out, self._intervals))

    def __repr__(self) -> str:
        return (f"<CostModel for {self._edition}: {len(self._weights)} weights, fitted on {self._info.get('units', '?')} units "
                f"({self._info.get('loadouts', '?')} loadouts)>")

    def _repr_html_(self) -> str:
        """Its fit, then its heaviest weights (the features that price the most points)."""
        from . import _display as d

        top = sorted(self._weights.items(), key=lambda kv: -abs(kv[1]))[:12]
        lines = [f"edition {self._edition}, {len(self._weights)} weights, fitted on {self._info.get('units', '?')} units "
                 f"({self._info.get('loadouts', '?')} loadouts)"]
        table = d.table(["feature", "points per unit of it"], [[k, d._num(v)] for k, v in top], [False, True])
        return d.block("Cost model", lines, table, notes=[f"the {len(top)} largest of {len(self._weights)} weights; .weights has all"])

    @classmethod
    def fit(cls, units: Iterable[Any], *, edition: Optional[str] = None, variants: bool = _FitOptions.variants,
            ridge: float = _FitOptions.ridge, ridge_by_name: float = _FitOptions.ridge_by_name,
            variant_weight: float = _FitOptions.variant_weight, iterations: int = _FitOptions.iterations,
            out_of_sample: bool = False, coverage: float = 0.9) -> "CostModel":
        """Learn weights from units with official costs, or army books (their units and,
        with ``variants=True``, every loadout with one upgrade option, priced officially).

        ``ridge`` and ``ridge_by_name`` are the penalties on the engine's features and on
        by-name rule features; ``variant_weight`` the weight of an option loadout against a
        default loadout; ``iterations`` the rounds of refitting the shares of rules.

        ``out_of_sample=True`` (army books only) also fits one model without each family of
        books (a book and the books it shares sub-faction copies with), which
        :func:`fairness` judges that family's units with, and calibrates prediction
        intervals at ``coverage`` on those models' errors (split conformal, by price band).

        ``edition``: whose engines measure the features (default: the units' own, all of one
        edition: the Firefight books' units are fitted under Firefight)."""
        opts = _FitOptions(variants, ridge, ridge_by_name, variant_weight, iterations)
        out_of_sample = check_flag("out_of_sample", out_of_sample)
        coverage = _numeric(coverage, "coverage")
        if not 0.5 <= coverage < 1.0:
            raise ValueError(f"coverage: must be at least 0.5 and below 1 (got {coverage!r})")
        items = list(units) if not isinstance(units, (Unit, ArmyBook, str, os.PathLike)) else [units]
        if out_of_sample:
            from ._loaders import load_army_book

            items = [load_army_book(b, edition=edition) if isinstance(b, (str, os.PathLike)) else b for b in items]
            if len(items) < 2 or not all(isinstance(b, ArmyBook) for b in items):
                raise ValueError("units: out_of_sample=True needs at least two army books (a model is fitted without each family)")
        units, is_variant, source = _training_units(items, opts.variants, edition)
        edition = measured_edition(units, edition, "units")
        terms = _Terms(units, edition)
        costs = np.asarray([u.cost for u in units], dtype=np.float64)
        is_variant_a = np.asarray(is_variant)
        weights = opts.fit(terms, costs, is_variant_a, np.ones(len(units), dtype=bool))
        info = {"format": FORMAT, "edition": edition, "units": int((~is_variant_a).sum()), "loadouts": len(units),
                "ridge": opts.ridge, "ridge_by_name": opts.ridge_by_name, "variant_weight": opts.variant_weight,
                "iterations": opts.iterations}
        held_out = intervals = None
        if out_of_sample:
            books = cast(list[ArmyBook], items)  # checked above: all army books
            groups = _families(books)
            if len(groups) < 2:
                raise ValueError("units: out_of_sample=True needs books of at least two families (the same book twice, or books "
                                 "that share sub-faction copies, are one family)")
            fits, predicted = _held_out_fits(terms, costs, is_variant_a, np.asarray(source), groups, opts)
            held_out = _HeldOut(books=tuple(tuple(sorted(books[i].uid for i in g)) for g in groups), weights=tuple(fits),
                                names=_name_index(books, groups))
            intervals = PredictionIntervals.calibrate(predicted, costs, is_variant_a, coverage)
            info["families"] = len(groups)
        return cls(weights, edition=edition, info=info, held_out=held_out, intervals=intervals)

    @classmethod
    def default(cls, *, edition: str = DEFAULT_EDITION) -> "CostModel":
        """The model shipped with the package for ``edition`` (v3.5's and Firefight v3.2's ship)."""
        path = shipped_model_path(edition)
        if not path.exists():
            raise ValueError(f"edition: no cost model ships for {edition!r}; fit one with CostModel.fit(books, edition={edition!r})")
        cached = _DEFAULTS.get(edition)
        if cached is None:
            cached = _DEFAULTS[edition] = cls.load(path)
        return cached

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"]) -> "CostModel":
        """A model written by :meth:`save`: a regular file of at most ``MAX_JSON`` bytes
        (docs/limits.md), every number in it checked (finite, at most ``MAX_COST`` points a
        weight), else a ``ValueError`` naming the file and the field."""
        from ._loaders import read_file

        if not isinstance(path, (str, os.PathLike)):
            raise TypeError(f"path: expected a path to a cost model file, got {type(path).__name__}")
        data_bytes = read_file(path, "path", LIMITS["MAX_JSON"], kind="a cost model file")
        try:
            data = json.loads(data_bytes.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise ValueError(f"path: {os.fspath(path)!r} is not UTF-8 text ({exc.reason})") from None
        except json.JSONDecodeError as exc:
            raise ValueError(f"path: {os.fspath(path)!r} is not JSON ({exc})") from None
        except RecursionError:
            raise ValueError(f"path: {os.fspath(path)!r} is nested too deeply to be a cost model") from None
        try:
            return cls._from_json(data, path)
        except ValueError as exc:
            message = str(exc)
            if message.startswith(f"{path}: "):
                raise
            raise ValueError(f"{path}: {message}") from None

    @classmethod
    def _from_json(cls, data: Any, path: Union[str, "os.PathLike[str]"]) -> "CostModel":
        if not isinstance(data, dict) or data.get("format") not in (FORMAT, FORMAT_V1):
            raise ValueError(f"{path}: not an oprstats cost model (format {FORMAT!r})")
        if not isinstance(data.get("weights"), dict) or not isinstance(data.get("edition"), str):
            raise ValueError(f"{path}: weights: expected an object of feature weights and an edition")
        held = data.get("held_out")
        held_out = None if held is None else _HeldOut.from_json(held)
        stored = data.get("intervals")
        if stored is not None and not isinstance(stored, dict):
            raise ValueError(f"{path}: intervals: expected an object, got {type(stored).__name__}")
        intervals = None if stored is None else PredictionIntervals.from_json(stored)
        info = data.get("info")
        if info is not None and not isinstance(info, dict):
            raise ValueError(f"{path}: info: expected an object, got {type(info).__name__}")
        return cls(data["weights"], edition=data["edition"], info=data.get("info"), held_out=held_out, intervals=intervals)

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Write the weights as JSON (numbers keyed by feature name; no rules text)."""
        def numbers(weights: Mapping[str, float], digits: int = 9) -> dict[str, float]:
            return {k: float(f"{v:.{digits}g}") for k, v in sorted(weights.items()) if v != 0.0}

        data: dict[str, Any] = {"format": FORMAT, "edition": self._edition, "info": dict(self._info), "weights": numbers(self._weights)}
        if self._held_out is not None:
            # one list of feature names, and each family's weights in its order (7 digits: a
            # thousandth of a point on any real unit, in a file a quarter the size)
            keys = sorted({k for w in self._held_out.weights for k, v in w.items() if v != 0.0})
            data["held_out"] = {"features": keys,
                                "families": [{"books": list(b), "weights": [float(f"{w.get(k, 0.0):.7g}") for k in keys]}
                                             for b, w in zip(self._held_out.books, self._held_out.weights)],
                                "unit_names": {k: list(v) for k, v in sorted(self._held_out.names.items())}}
        if self._intervals is not None:
            data["intervals"] = self._intervals.to_json()
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, separators=(",", ":"))
            f.write("\n")

    def _terms(self, units: Sequence[Unit]) -> _Terms:
        for i, u in enumerate(units):
            if not isinstance(u, Unit):
                raise TypeError(f"units[{i}]: expected an oprstats.Unit, got {type(u).__name__}")
        return _Terms(units, self._edition)

    def prices(self, units: Iterable[Unit]) -> np.ndarray:
        """Modelled points of each unit (a float array)."""
        units = list(units)
        terms = self._terms(units)
        return np.bincount(terms.term_unit, weights=terms.term_points(self._weights), minlength=len(units))

    def predict(self, unit: Unit) -> Price:
        """The modelled price of one unit, with its breakdown."""
        if not isinstance(unit, Unit):
            raise TypeError(f"unit: expected an oprstats.Unit, got {type(unit).__name__}")
        return self._prices([unit])[0]

    def _prices(self, units: Sequence[Unit]) -> list[Price]:
        terms = self._terms(units)
        points = terms.term_points(self._weights)
        known = _named_rules(self._weights)
        out: list[list[PriceTerm]] = [[] for _ in units]
        for t in range(terms.n_terms):
            out[terms.term_unit[t]].append(PriceTerm(str(terms.kinds[t]), terms.labels[t], float(points[t])))
        prices = []
        for i, u in enumerate(units):
            unmodelled = terms.unmodelled[i]
            ignored = tuple(n for n in unmodelled if n not in known)
            by_name = tuple(n for n in unmodelled if n not in ignored)
            name = u.name if u.hero is None else f"{u.name} + {u.hero.name}"
            prices.append(Price(name, float(sum(t.points for t in out[i])), u.cost, tuple(out[i]), ignored, by_name))
        return prices

    @classmethod
    def cross_validate(cls, books: Sequence[Any], *, by: str = "book", edition: Optional[str] = None,
                       **fit_options: Any) -> "CrossValidation":
        """Leave-one-army-out accuracy: each book's units priced by a model fitted on the
        other books only. ``by="family"`` also holds out the books a book's units are
        sub-faction copies of, or that copy from it (no copy of a held-out unit is seen).
        ``fit_options`` are those of :meth:`fit`; ``edition`` defaults to the books' own."""
        from ._loaders import load_army_book

        if by not in ("book", "family"):
            raise ValueError(f'by: must be "book" or "family" (got {by!r})')
        books = [load_army_book(b, edition=edition) if isinstance(b, (str, os.PathLike)) else b for b in books]
        for i, b in enumerate(books):
            if not isinstance(b, ArmyBook):
                raise TypeError(f"books[{i}]: expected an ArmyBook or a path to one, got {type(b).__name__}")
        if len(books) < 2:
            raise ValueError("books: leave-one-out needs at least two army books")
        opts = _FitOptions(**fit_options)
        units, is_variant, book_of = _training_units(books, opts.variants, edition)
        edition = measured_edition(units, edition, "books")
        terms = _Terms(units, edition)
        costs = np.asarray([u.cost for u in units], dtype=np.float64)
        book_of_a = np.asarray(book_of)
        is_variant_a = np.asarray(is_variant)
        groups = _families(books) if by == "family" else [[i] for i in range(len(books))]
        _, predicted = _held_out_fits(terms, costs, is_variant_a, book_of_a, groups, opts)
        base = ~is_variant_a
        options = _option_rows(predicted, costs, is_variant_a)
        group_of = {b: k for k, g in enumerate(groups) for b in g}
        return CrossValidation(
            by=by,
            units=tuple(u.name for u, b in zip(units, base) if b),
            books=tuple(books[i].name for i in book_of_a[base]),
            official=costs[base],
            predicted=predicted[base],
            baseline_median=_baseline_error(terms, costs, base),
            option_official=options[0],
            option_predicted=options[1],
            family=np.asarray([group_of[b] for b in book_of_a[base]]),
            option_family=np.asarray([group_of[b] for b in book_of_a[is_variant_a]]),
        )


_DEFAULTS: dict[str, CostModel] = {}


def _named_rules(weights: Mapping[str, float]) -> set[str]:
    """Rule names with a by-name weight (``rule:Fast:models`` -> ``Fast``)."""
    out = set()
    for key, value in weights.items():
        if value != 0.0 and _is_by_name(key):
            name = key.split(":", 1)[1].split("*", 1)[0]
            for suffix in (":models", ":rating"):
                if name.endswith(suffix):
                    name = name[: -len(suffix)]
            out.add(name)
    return out


def _fit_terms(terms: _Terms, costs: np.ndarray, row_weight: np.ndarray, train: np.ndarray, ridge: float, ridge_by_name: float,
               iterations: int) -> dict[str, float]:
    columns = terms.features + terms.slot_names()
    by_name = np.asarray([_is_by_name(c) for c in columns])
    linear = terms.features_matrix(columns)
    weights: Optional[dict[str, float]] = None
    for _ in range(iterations):
        X = linear if weights is None else terms.add_shares(linear, columns, weights)
        w = _solve(X[train], costs[train], row_weight[train], by_name, ridge, ridge_by_name)
        weights = {c: float(v) for c, v in zip(columns, w) if v != 0.0}
    assert weights is not None
    return weights


def _families(books: Sequence[ArmyBook]) -> list[list[int]]:
    """Books joined by sub-faction copies (a unit of one is synced from the other)."""
    parent = list(range(len(books)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    by_uid: dict[str, int] = {}
    for i, b in enumerate(books):
        # the same book twice (or two versions of one) is one family
        if b.uid in by_uid:
            parent[find(i)] = find(by_uid[b.uid])
        by_uid.setdefault(b.uid, i)
    for i, b in enumerate(books):
        for u in b.units:
            src = b.synced_from(u)
            if src is not None and src[0] in by_uid:
                parent[find(i)] = find(by_uid[src[0]])
    groups: dict[int, list[int]] = {}
    for i in range(len(books)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def _held_out_fits(terms: _Terms, costs: np.ndarray, is_variant: np.ndarray, source: np.ndarray, groups: Sequence[Sequence[int]],
                   opts: _FitOptions) -> tuple[list[dict[str, float]], np.ndarray]:
    """One model fitted without each group of items, and every row's price from the model
    that never saw it."""
    predicted = np.full(len(costs), np.nan)
    fits = []
    for group in groups:
        held = np.isin(source, group)
        w = opts.fit(terms, costs, is_variant, ~held)
        predicted[held] = np.bincount(terms.term_unit, weights=terms.term_points(w), minlength=terms.n_units)[held]
        fits.append(w)
    return fits, predicted


def _option_rows(values: np.ndarray, costs: np.ndarray, is_variant: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Official and modelled option prices: each option loadout less its default loadout
    (which comes right before its options)."""
    default = np.maximum.accumulate(np.where(~is_variant, np.arange(len(costs)), 0))
    rows = np.flatnonzero(is_variant)
    return costs[rows] - costs[default[rows]], values[rows] - values[default[rows]]


def _name_key(name: str) -> str:
    """A unit name as the parameter file keeps it: hashed (no book text ships)."""
    return hashlib.blake2b(name.casefold().encode("utf-8"), digest_size=8).hexdigest()


def _name_index(books: Sequence[ArmyBook], groups: Sequence[Sequence[int]]) -> dict[str, tuple[int, ...]]:
    """Hashed unit name -> the families with a unit of that name (how a unit of an army list
    finds the model that never saw it)."""
    out: dict[str, set[int]] = {}
    for k, group in enumerate(groups):
        for i in group:
            for u in books[i].units:
                out.setdefault(_name_key(u.name), set()).add(k)
    return {key: tuple(sorted(v)) for key, v in out.items()}


@dataclass(frozen=True)
class _HeldOut:
    """The models fitted without each family of training books."""

    books: tuple[tuple[str, ...], ...]
    """Each family's book uids."""
    weights: tuple[Mapping[str, float], ...]
    names: Mapping[str, tuple[int, ...]]

    @classmethod
    def from_json(cls, held: Any) -> "_HeldOut":
        """From the parameter file, every part checked (a clear ValueError naming the field)."""
        def fail(field: str, why: str) -> ValueError:
            return ValueError(f"held_out.{field}: {why}")

        if not isinstance(held, dict):
            raise fail("", f"expected an object, got {type(held).__name__}")
        features, families, names = held.get("features"), held.get("families"), held.get("unit_names")
        if not isinstance(features, list) or not all(isinstance(f, str) for f in features):
            raise fail("features", "expected a list of feature names")
        if not isinstance(families, list) or not families:
            raise fail("families", "expected a non-empty list")
        books, weights = [], []
        for i, f in enumerate(families):
            if not isinstance(f, dict) or not isinstance(f.get("books"), list) or not all(isinstance(b, str) for b in f["books"]):
                raise fail(f"families[{i}].books", "expected a list of book uids")
            w = f.get("weights")
            if not isinstance(w, list) or len(w) != len(features):
                raise fail(f"families[{i}].weights", f"expected {len(features)} numbers, one per feature")
            if any(isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) for v in w):
                raise fail(f"families[{i}].weights", "expected finite numbers")
            if any(abs(v) > MAX_WEIGHT for v in w) or not any(w):
                raise fail(f"families[{i}].weights", f"expected at least one weight, each at most {MAX_WEIGHT:,.0f} points")
            books.append(tuple(f["books"]))
            weights.append({k: float(v) for k, v in zip(features, w) if v != 0.0})
        if not isinstance(names, dict):
            raise fail("unit_names", "expected an object")
        index = {}
        for key, ks in names.items():
            if not isinstance(ks, list) or not all(isinstance(k, int) and not isinstance(k, bool) and 0 <= k < len(families) for k in ks):
                raise fail(f"unit_names[{key!r}]", f"expected family indices from 0 to {len(families) - 1}")
            index[key] = tuple(ks)
        return cls(books=tuple(books), weights=tuple(weights), names=index)

    def families_of(self, unit: Unit, book_uid: Optional[str]) -> tuple[int, ...]:
        """The families a unit may have been trained with: its book's, else every family
        with a unit of its name (none: no training book has it)."""
        if book_uid is not None:
            found = tuple(k for k, books in enumerate(self.books) if book_uid in books)
            if found:
                return found
        return self.names.get(_name_key(unit.name), ())


# Price bands of "similar units" for the intervals: modelled points of a unit; modelled
# points of an option (in absolute value).
UNIT_BANDS = (80.0, 150.0, 300.0)
OPTION_BANDS = (10.0, 25.0)


def _conformal(scores: np.ndarray, coverage: float) -> float:
    """The split-conformal quantile: the ceil((n+1) coverage)-th smallest score (infinite
    when there are too few), so a new score is at most it with probability >= coverage."""
    n = len(scores)
    k = math.ceil((n + 1) * coverage)
    return math.inf if k > n else float(np.sort(scores)[k - 1])


@dataclass(frozen=True)
class PredictionIntervals:
    """Where the official price of a unit (or option) a model prices at ``p`` falls with
    probability ``coverage``, from the out-of-sample errors of similar ones (split
    conformal, by price band): a unit's interval is ``p`` times ``exp(-h)`` to ``exp(h)``,
    an option's ``p`` plus or minus ``h`` points."""

    coverage: float
    unit_bands: tuple[float, ...]
    unit_halfwidths: tuple[float, ...]
    """In log points, one per band (``len(unit_bands) + 1``)."""
    option_bands: tuple[float, ...]
    option_halfwidths: tuple[float, ...]
    """In points, one per band."""
    calibrated_on: tuple[int, int]
    """How many units and options the widths were calibrated on."""

    @classmethod
    def calibrate(cls, predicted: np.ndarray, costs: np.ndarray, is_variant: np.ndarray, coverage: float = 0.9) -> "PredictionIntervals":
        """From out-of-sample prices of default loadouts and options (see ``_held_out_fits``)."""
        base = ~is_variant
        pred, official = predicted[base], costs[base]
        log_errors = np.abs(np.log(official / np.maximum(pred, 1.0)))
        band = np.searchsorted(UNIT_BANDS, pred, side="right")
        units = tuple(_conformal(log_errors[band == b], coverage) for b in range(len(UNIT_BANDS) + 1))
        opt_official, opt_pred = _option_rows(predicted, costs, is_variant)
        obands = np.searchsorted(OPTION_BANDS, np.abs(opt_pred), side="right")
        options = tuple(_conformal(np.abs(opt_official - opt_pred)[obands == b], coverage) for b in range(len(OPTION_BANDS) + 1))
        return cls(coverage, UNIT_BANDS, units, OPTION_BANDS, options, (int(base.sum()), int(is_variant.sum())))

    def unit(self, modelled: float) -> tuple[float, float]:
        """The interval of official prices for a unit modelled at ``modelled`` points."""
        h = self.unit_halfwidths[int(np.searchsorted(self.unit_bands, modelled, side="right"))]
        return modelled * math.exp(-h), modelled * math.exp(h)

    def option(self, modelled: float) -> tuple[float, float]:
        """The interval of official prices for an option modelled at ``modelled`` points."""
        h = self.option_halfwidths[int(np.searchsorted(self.option_bands, abs(modelled), side="right"))]
        return modelled - h, modelled + h

    def __post_init__(self) -> None:
        if not 0.5 <= self.coverage < 1.0:
            raise ValueError(f"intervals.coverage: must be at least 0.5 and below 1 (got {self.coverage!r})")
        for kind in ("unit", "option"):
            bands, widths = getattr(self, f"{kind}_bands"), getattr(self, f"{kind}_halfwidths")
            if list(bands) != sorted(bands) or len(widths) != len(bands) + 1:
                raise ValueError(f"intervals.{kind}_halfwidths: expected one width per band of {list(bands)} (sorted), got {len(widths)}")
            if any(not (w >= 0) for w in widths):
                raise ValueError(f"intervals.{kind}_halfwidths: must be 0 or more (infinite where too few were calibrated), got {list(widths)}")
            # a unit's width is a factor exp(h) (beyond a unit's largest cost it means nothing,
            # and exp overflows past 709); an option's is in points
            most = math.log(MAX_WEIGHT) if kind == "unit" else MAX_WEIGHT
            if any(math.isfinite(w) and w > most for w in widths) or any(abs(b) > MAX_WEIGHT for b in bands):
                raise ValueError(f"intervals.{kind}_halfwidths: each must be at most {most:g} (or infinite), and each band at "
                                 f"most {MAX_WEIGHT:,.0f} points, got {list(widths)} and {list(bands)}")

    def to_json(self) -> dict[str, Any]:
        # an infinite width (too few similar units to calibrate) is written as null
        finite = lambda ws: [w if math.isfinite(w) else None for w in ws]
        return {"coverage": self.coverage, "unit_bands": list(self.unit_bands), "unit_halfwidths": finite(self.unit_halfwidths),
                "option_bands": list(self.option_bands), "option_halfwidths": finite(self.option_halfwidths),
                "calibrated_on": list(self.calibrated_on)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "PredictionIntervals":
        def numbers(field: str, allow_none: bool = False) -> tuple[float, ...]:
            value = data.get(field)
            if not isinstance(value, list):
                raise ValueError(f"intervals.{field}: expected a list of numbers, got {type(value).__name__}")
            out = []
            for v in value:
                if v is None and allow_none:
                    out.append(math.inf)
                elif isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                    raise ValueError(f"intervals.{field}: expected finite numbers, got {v!r}")
                else:
                    out.append(float(v))
            return tuple(out)

        coverage = data.get("coverage")
        if isinstance(coverage, bool) or not isinstance(coverage, (int, float)):
            raise ValueError(f"intervals.coverage: expected a number, got {coverage!r}")
        calibrated = numbers("calibrated_on")
        return cls(float(coverage), numbers("unit_bands"), numbers("unit_halfwidths", True), numbers("option_bands"),
                   numbers("option_halfwidths", True), (int(calibrated[0]), int(calibrated[1])) if len(calibrated) == 2 else (0, 0))


def _baseline_error(terms: _Terms, costs: np.ndarray, rows: np.ndarray) -> float:
    """The simple baseline, in sample: log cost regressed on the logs of expected damage
    (all weapons against the whole panel) and durability (against the reference attackers)."""
    offense = np.asarray([f.startswith(("shoot:", "melee:")) for f in terms.features])
    durable = np.asarray([f.startswith("durability:") for f in terms.features])
    X = terms.features_matrix(terms.features)
    damage = X[:, offense].sum(axis=1)
    durability = X[:, durable].sum(axis=1)
    A = np.column_stack([np.ones(terms.n_units), np.log1p(damage), np.log1p(durability)])[rows]
    y = np.log(costs[rows])
    coef, *_ = np.linalg.lstsq(A, y, rcond=None)
    err = np.abs(np.exp(A @ coef) - costs[rows]) / costs[rows]
    return float(np.median(err))


@dataclass(frozen=True)
class CrossValidation:
    """Out-of-sample prices of every default loadout, each from a model that never saw its book."""

    by: str
    units: tuple[str, ...]
    books: tuple[str, ...]
    official: np.ndarray
    predicted: np.ndarray
    baseline_median: float
    """Median absolute percentage error of the simple log-linear baseline, in sample."""
    option_official: np.ndarray
    """Each option loadout's official option price (its cost less its default loadout's)."""
    option_predicted: np.ndarray
    """The same modelled out of sample: the two loadouts' modelled prices' difference."""
    family: np.ndarray
    """The group held out with each unit (its book with ``by="book"``, its family with ``by="family"``)."""
    option_family: np.ndarray
    """The same for each option loadout."""

    @property
    def option_error(self) -> float:
        """Median absolute error of the modelled option prices, in points."""
        return float(np.median(np.abs(self.option_predicted - self.option_official))) if len(self.option_official) else float("nan")

    @property
    def errors(self) -> np.ndarray:
        """Absolute percentage errors (0.05 is 5%)."""
        return np.abs(self.predicted - self.official) / self.official

    @property
    def median(self) -> float:
        return float(np.median(self.errors))

    @property
    def p90(self) -> float:
        return float(np.quantile(self.errors, 0.9))

    def within(self, share: float) -> float:
        """The share of units priced within ``share`` of their official cost."""
        return float(np.mean(self.errors <= share))

    def worst(self, n: int = 10):
        """The ``n`` units priced furthest off, as a DataFrame."""
        return self.to_pandas().head(n)

    def to_pandas(self):
        from ._optional import pandas

        pd = pandas("to_pandas()")

        frame = pd.DataFrame({"unit": self.units, "book": self.books, "official": self.official, "predicted": self.predicted,
                              "error_pct": 100 * (self.predicted - self.official) / self.official})
        return frame.reindex(frame["error_pct"].abs().sort_values(ascending=False).index).reset_index(drop=True)

    def summary(self) -> str:
        return (f"leave-one-{self.by}-out over {len(self.units)} units: median {100 * self.median:.1f}%, "
                f"90th percentile {100 * self.p90:.1f}%, within 15%: {100 * self.within(0.15):.1f}% "
                f"(baseline, in sample: median {100 * self.baseline_median:.1f}%); "
                f"{len(self.option_official)} option prices within a median {self.option_error:.1f} points")


def measured_edition(units: Sequence[Unit], edition: Optional[str], field: str) -> str:
    """The edition units are measured under: ``edition`` when given, else the one they were
    made under (a Firefight book's units: Firefight's engines and cost model), which must be
    the same for all of them; the current edition for none."""
    if edition is not None:
        if not isinstance(edition, str):
            raise TypeError(f"edition: expected an edition key such as '3.5', got {type(edition).__name__}")
        return _core._edition_key(edition)
    own = sorted({u.edition for u in units})
    if len(own) > 1:
        raise ValueError(f"{field}: the units were made under different editions ({', '.join(own)}); measure one edition's "
                         "units at a time, or pass edition=")
    return own[0] if own else DEFAULT_EDITION


def require_full_games(edition: str, what: str) -> None:
    """Refuses what needs full games in an edition the game does not play: never a v3.5 game
    played in its place (every edition has its game now; the check stays for the next)."""
    from ._game import check_game_edition

    try:
        check_game_edition(edition)
    except ValueError as e:
        raise ValueError(f"{e} ({what} needs full games; the exact measures work in every edition)") from None


def _source_of(source: Any, edition: Optional[str], field: str = "units_or_book",
               lists: Optional[list] = None) -> tuple[list[Unit], list[Optional[ArmyBook]]]:
    """The units of a group, and for each the army book it is from (None when no book was
    given): a path or text of a book or a list (told apart as every loader does), an
    ``ArmyBook``, an ``Army``, a ``Unit``, or a sequence of any of these. ``field`` names the
    argument in errors; the army lists met (given or read) are added to ``lists``."""
    expected = "a path, an ArmyBook, an Army, a Unit or a sequence of them"
    if isinstance(source, (bytes, Mapping)) or source is None:
        raise TypeError(f"{field}: expected {expected}, got {type(source).__name__}")
    from ._loaders import is_book_text, load_army_book, load_army_list, read_text

    if isinstance(source, (str, os.PathLike)):
        text = read_text(source, field)
        try:
            if is_book_text(text):
                book = load_army_book(text, edition=edition)
                return list(book.units), [book] * len(book)
            army = load_army_list(text, edition=edition)
        except ValueError as exc:  # named for the argument it came from, not the loader's
            raise ValueError(f"{field}: {str(exc).removeprefix('source: ')}") from None
        return _source_of(army, edition, field, lists)
    if isinstance(source, ArmyBook):
        return list(source.units), [source] * len(source)
    if isinstance(source, Unit):
        return [source], [None]
    if hasattr(source, "units"):
        if lists is not None and isinstance(source, Army):
            lists.append(source)
        listed = list(source.units)
        return listed, [None] * len(listed)
    try:
        items = list(source)
    except TypeError:
        raise TypeError(f"{field}: expected {expected}, got {type(source).__name__}") from None
    units: list[Unit] = []
    books: list[Optional[ArmyBook]] = []
    for i, item in enumerate(items):
        if isinstance(item, Unit):
            units.append(item)
            books.append(None)
        elif isinstance(item, (ArmyBook, str, os.PathLike)) or (hasattr(item, "units") and not isinstance(item, Mapping)):
            more, their = _source_of(item, edition, f"{field}[{i}]", lists)
            units += more
            books += their
        else:
            raise TypeError(f"{field}[{i}]: expected an oprstats.Unit, ArmyBook, Army or a path, got {type(item).__name__}")
    return units, books


FAIRNESS_COLUMNS = ("unit", "official", "modelled", "low", "high", "difference", "difference_pct", "verdict", "judged", "drivers",
                    "ignored_rules", "priced_by_name")
OPTION_COLUMNS = ("unit", "option", "official", "modelled", "low", "high", "difference", "verdict", "judged")

# How a unit was judged: by a model fitted without its family, by the shipped model on a
# unit no training book has (out of sample too), or in sample (asked for, or a unit given
# without its book whose name several families share: no shipped model left them all out).
WITHOUT_FAMILY = "without its family"
NOT_IN_TRAINING = "not in training"
IN_SAMPLE = "in sample"
IN_SAMPLE_SHARED_NAME = "in sample (name in several families)"


def _out_of_sample(judged: str) -> bool:
    """Whether a price judged so comes from a model that never saw the unit (only those have
    intervals: they are calibrated on out-of-sample errors)."""
    return judged in (WITHOUT_FAMILY, NOT_IN_TRAINING)


def _judges(model: CostModel, units: Sequence[Unit], books: Sequence[Optional[ArmyBook]], in_sample: bool) -> list[tuple[CostModel, str]]:
    """The model each unit is judged by, and how: out of sample unless asked otherwise."""
    if in_sample or model._held_out is None:
        label = IN_SAMPLE if in_sample else "model has no held-out fits"
        return [(model, label)] * len(units)
    held = model._held_out
    cache: dict[int, CostModel] = {}
    out = []
    for u, book in zip(units, books):
        families = held.families_of(u, None if book is None else book.uid)
        if len(families) != 1:
            out.append((model, IN_SAMPLE_SHARED_NAME if families else NOT_IN_TRAINING))
            continue
        k = families[0]
        if k not in cache:
            cache[k] = CostModel(held.weights[k], edition=model.edition, info={"held_out": list(held.books[k])})
        out.append((cache[k], WITHOUT_FAMILY))
    return out


def _priced(judges: Sequence[tuple[CostModel, str]], units: Sequence[Unit]) -> list[Price]:
    """Each unit priced by its own judge (units sharing one are priced together)."""
    out: list[Optional[Price]] = [None] * len(units)
    by_model: dict[int, list[int]] = {}
    for i, (m, _) in enumerate(judges):
        by_model.setdefault(id(m), []).append(i)
    for rows in by_model.values():
        for i, price in zip(rows, judges[rows[0]][0]._prices([units[i] for i in rows])):
            out[i] = price
    return out  # type: ignore[return-value]


def _verdict(official: Optional[float], low: Optional[float], high: Optional[float]) -> Optional[str]:
    """None where there is nothing to judge: no official price, no interval, or an interval
    too few similar units calibrated (infinite)."""
    if official is None or low is None or high is None or not (math.isfinite(low) and math.isfinite(high)):
        return None
    return "over-costed" if official > high else "under-costed" if official < low else "within interval"


def fairness_rows(units_or_book: Any, model: Optional[CostModel] = None, *, edition: Optional[str] = None, drivers: int = 3,
                  in_sample: bool = False, options: bool = False) -> list[dict]:
    """The rows of :func:`fairness` as dicts, sorted the same way (no pandas needed)."""
    if isinstance(drivers, bool) or not isinstance(drivers, int) or drivers < 0:
        raise ValueError(f"drivers: must be a whole number of terms, 0 or more (got {shown(drivers)})")
    in_sample, options = check_flag("in_sample", in_sample), check_flag("options", options)
    if model is not None and not isinstance(model, CostModel):
        raise TypeError(f"model: expected an oprstats.CostModel, got {type(model).__name__}")
    units, books = _source_of(units_or_book, edition)
    if not units:
        raise ValueError("units_or_book: no units (an empty group)")
    if model is None:
        # the shipped model of the units' edition (a Firefight book's: the Firefight model)
        model = CostModel.default(edition=measured_edition(units, edition, "units_or_book"))
    judges = _judges(model, units, books, in_sample)
    # the intervals are calibrated on out-of-sample errors: a price from a model that saw the
    # unit has none (its errors are smaller, and no interval was calibrated on them)
    intervals = model.intervals
    if options:
        if any(b is None for b in books):
            raise ValueError("options: judging upgrade options needs army books (or paths to them), whose options they are")
        return _option_fairness(books, units, judges, intervals)  # type: ignore[arg-type]
    rows: list[dict[str, Any]] = []
    for price, (_, judged) in zip(_priced(judges, units) if units else [], judges):
        main = sorted(price.terms, key=lambda t: -abs(t.points))[:drivers]
        diff = price.difference
        low, high = intervals.unit(price.points) if intervals is not None and price.points > 0 and _out_of_sample(judged) else (None, None)
        rows.append({
            "unit": price.unit,
            "official": price.official,
            "modelled": round(price.points, 1),
            "low": None if low is None else round(low, 1),
            "high": None if high is None else round(high, 1),
            "difference": None if diff is None else round(diff, 1),
            "difference_pct": None if diff is None else round(100.0 * diff / price.points, 1) if price.points else None,
            "verdict": _verdict(price.official, low, high),
            "judged": judged,
            "drivers": ", ".join(f"{t.label} {t.points:+.0f}" for t in main),
            "ignored_rules": ", ".join(price.ignored),
            "priced_by_name": ", ".join(price.by_name),
        })
    rows.sort(key=lambda r: (r["difference_pct"] is None, -abs(r["difference_pct"] or 0.0)))
    return rows


def _option_fairness(books: Sequence[ArmyBook], units: Sequence[Unit], judges: Sequence[tuple[CostModel, str]],
                     intervals: Optional[PredictionIntervals]) -> list[dict]:
    """Every upgrade option of every unit: its official price against the modelled
    difference it makes (the loadout with it less the default loadout, one model for both)."""
    rows: list[dict[str, Any]] = []
    for unit, book, (judge, judged) in zip(units, books, judges):
        variants = book.variants(unit)
        if not variants:
            continue
        points = judge.prices([unit] + [v for _, v, _ in variants])
        for (label, _, cost), p in zip(variants, points[1:]):
            modelled = float(p - points[0])
            low, high = intervals.option(modelled) if intervals is not None and _out_of_sample(judged) else (None, None)
            rows.append({"unit": unit.name, "option": label, "official": cost, "modelled": round(modelled, 1),
                         "low": None if low is None else round(low, 1), "high": None if high is None else round(high, 1),
                         "difference": round(cost - modelled, 1), "verdict": _verdict(cost, low, high), "judged": judged})
    rows.sort(key=lambda r: -abs(r["difference"]))
    return rows


def fairness(units_or_book: Any, model: Optional[CostModel] = None, *, edition: Optional[str] = None, drivers: int = 3,
             in_sample: bool = False, options: bool = False):
    """How far each unit's official cost is from its modelled cost, as a pandas DataFrame
    sorted by how far off it is (``difference_pct``, relative to the modelled cost).

    Each unit is judged **out of sample**: by the model fitted without its book's family
    (a book and the books it shares sub-faction copies with; ``judged`` says so), so a book
    is not judged by a model that learnt its own prices. ``in_sample=True`` judges every unit
    by the model fitted on all books. ``low`` and ``high`` are the prediction interval of
    the official price (90% of units priced officially fall in it, out of sample);
    ``verdict`` says whether the official price is above it ("over-costed"), below it
    ("under-costed") or within it.

    ``difference`` is official minus modelled points: positive means the unit pays more
    than the model says it is worth. ``drivers`` are the largest terms of the modelled
    price; ``ignored_rules`` the rules nothing priced.

    ``options=True`` (an army book) judges every upgrade option instead: its official price
    against the modelled difference between the loadout with it and the default loadout.

    ``units_or_book``: an army book, an army list, units, a path to (or the text of) a book
    or a list, or a sequence of any of these (several books at once). ``model`` defaults to
    the shipped model of their edition (``edition``, else the one they were read under: a
    Firefight book's units are judged by the model fitted on the Firefight books).
    """
    from ._optional import pandas

    pd = pandas("fairness()")
    rows = fairness_rows(units_or_book, model, edition=edition, drivers=drivers, in_sample=in_sample, options=options)
    frame = pd.DataFrame(rows, columns=list(OPTION_COLUMNS if options else FAIRNESS_COLUMNS))
    frame["official"] = frame["official"].astype("Int64")  # a homebrew unit has none
    for column in ("modelled", "low", "high", "difference") + (() if options else ("difference_pct",)):
        frame[column] = frame[column].astype(float)
    return frame
