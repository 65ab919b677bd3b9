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

import json
import math
import os
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

import numpy as np

from . import _core
from ._core import ArmyBook, Unit
from ._editions import DEFAULT_EDITION

DATA = Path(__file__).resolve().parent / "data"
FORMAT = "oprstats-cost-model/1"
# The rounding grid of official costs.
POINT_STEP = 5


def shipped_model_path(edition: str = DEFAULT_EDITION) -> Path:
    return DATA / f"cost-model-{edition}.json"


def _is_by_name(feature: str) -> bool:
    return feature.startswith("rule:") or feature.startswith("weapon-rule:")


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
        # Proportional slots: a rule's share of its unit's core value; a weapon rule's share
        # of its weapon's value.
        rule_terms = np.flatnonzero(self.kinds == "rule")
        self.rule_terms = rule_terms
        self.rule_slots = [f"rule:{self.names[t][0]}*value" for t in rule_terms]
        pairs = [(t, f"weapon-rule:{n}*value") for t in np.flatnonzero(self.kinds == "weapon") for n in self.names[t]]
        self.weapon_terms = np.asarray([t for t, _ in pairs], dtype=np.intp)
        self.weapon_slots = [s for _, s in pairs]
        self.not_rule = self.kinds != "rule"

    def slot_names(self) -> list[str]:
        return sorted(set(self.rule_slots) | set(self.weapon_slots))

    def _vector(self, weights: Mapping[str, float], names: Sequence[str]) -> np.ndarray:
        return np.asarray([weights.get(n, 0.0) for n in names], dtype=np.float64)

    def linear(self, weights: Mapping[str, float]) -> np.ndarray:
        """Each term's value from its engine and by-name features (no shares)."""
        w = self._vector(weights, self.features)
        return np.bincount(self.entry_term, weights=self.entry_value * w[self.entry_feature], minlength=self.n_terms)

    def core(self, linear: np.ndarray) -> np.ndarray:
        """Each unit's core value: its profile and weapons (what shares of rules are of)."""
        return np.bincount(self.term_unit, weights=np.where(self.not_rule, linear, 0.0), minlength=self.n_units)

    def term_points(self, weights: Mapping[str, float]) -> np.ndarray:
        """Each term's points under ``weights``."""
        lin = self.linear(weights)
        core = self.core(lin)
        points = lin.copy()
        if len(self.rule_terms):
            points[self.rule_terms] += self._vector(weights, self.rule_slots) * core[self.term_unit[self.rule_terms]]
        if len(self.weapon_terms):
            np.add.at(points, self.weapon_terms, self._vector(weights, self.weapon_slots) * lin[self.weapon_terms])
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
        lin = self.linear(weights)
        core = self.core(lin)
        if len(self.rule_terms):
            cols = np.asarray([col[s] for s in self.rule_slots], dtype=np.intp)
            np.add.at(X, (self.term_unit[self.rule_terms], cols), core[self.term_unit[self.rule_terms]])
        if len(self.weapon_terms):
            cols = np.asarray([col[s] for s in self.weapon_slots], dtype=np.intp)
            np.add.at(X, (self.term_unit[self.weapon_terms], cols), lin[self.weapon_terms])
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
        import pandas as pd

        return pd.DataFrame([{"kind": t.kind, "term": t.label, "points": t.points} for t in self.terms])

    def __str__(self) -> str:
        lines = [f"{self.unit}: {self.points:.0f} pts modelled" + ("" if self.official is None else f", {self.official} official")]
        lines += [f"  {t.points:7.1f}  {t.kind:7}  {t.label}" for t in self.terms]
        if self.ignored:
            lines.append(f"  not priced (unknown rules): {', '.join(self.ignored)}")
        if self.by_name:
            lines.append(f"  priced by name only (no engine plays them): {', '.join(self.by_name)}")
        return "\n".join(lines)


def _numeric(value: Any, name: str, *, minimum: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) or not math.isfinite(value) or value < minimum:
        raise ValueError(f"{name}: must be a finite number of at least {minimum:g} (got {value!r})")
    return float(value)


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
            raise ValueError(f"iterations: must be a whole number from 1 to 100 (got {it!r})")

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
    every single-option loadout) and paths to army books: the units, whether each is an
    option loadout, and the index of the item it came from."""
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


def _cost_model(weights: Mapping[str, float], edition: str, info: Mapping[str, Any]) -> "CostModel":
    """Unpickles a CostModel (see ``CostModel.__reduce__``)."""
    return CostModel(weights, edition=edition, info=info)


class CostModel:
    """Points from profiles: ``CostModel.default()`` is the model fitted to the official
    v3.5.1 books that ships with the package; ``CostModel.fit(books)`` learns a new one.

    ``predict(unit)`` returns a :class:`Price` with its breakdown; ``prices(units)`` a numpy
    array of points. Immutable: fitting returns a new model.
    """

    __slots__ = ("_weights", "_edition", "_info")

    def __init__(self, weights: Mapping[str, float], *, edition: str = DEFAULT_EDITION, info: Optional[Mapping[str, Any]] = None) -> None:
        clean = {}
        for k, v in dict(weights).items():
            if not isinstance(k, str):
                raise TypeError(f"weights: keys must be feature names (str), got {type(k).__name__}")
            clean[k] = _numeric(v, f"weights[{k!r}]", minimum=-math.inf)
        if not isinstance(edition, str):
            raise TypeError(f"edition: expected an edition key such as '3.5', got {type(edition).__name__}")
        _core._known_rules(edition)  # a ValueError naming the editions for an unknown key
        self._weights = MappingProxyType(clean)
        self._edition = edition
        self._info = MappingProxyType(dict(info or {}))

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

    def __reduce__(self):
        # the fields themselves: a MappingProxyType does not pickle
        return (_cost_model, (dict(self._weights), self._edition, dict(self._info)))

    def __repr__(self) -> str:
        return (f"<CostModel for {self._edition}: {len(self._weights)} weights, fitted on {self._info.get('units', '?')} units "
                f"({self._info.get('loadouts', '?')} loadouts)>")

    @classmethod
    def fit(cls, units: Iterable[Any], *, edition: str = DEFAULT_EDITION, variants: bool = _FitOptions.variants,
            ridge: float = _FitOptions.ridge, ridge_by_name: float = _FitOptions.ridge_by_name,
            variant_weight: float = _FitOptions.variant_weight, iterations: int = _FitOptions.iterations) -> "CostModel":
        """Learn weights from units with official costs, or army books (their units and,
        with ``variants=True``, every loadout with one upgrade option, priced officially).

        ``ridge`` and ``ridge_by_name`` are the penalties on the engine's features and on
        by-name rule features; ``variant_weight`` the weight of an option loadout against a
        default loadout; ``iterations`` the rounds of refitting the shares of rules."""
        opts = _FitOptions(variants, ridge, ridge_by_name, variant_weight, iterations)
        units, is_variant, _ = _training_units(units, opts.variants, edition)
        terms = _Terms(units, edition)
        costs = np.asarray([u.cost for u in units], dtype=np.float64)
        weights = opts.fit(terms, costs, np.asarray(is_variant), np.ones(len(units), dtype=bool))
        info = {"format": FORMAT, "edition": edition, "units": int((~np.asarray(is_variant)).sum()), "loadouts": len(units),
                "ridge": opts.ridge, "ridge_by_name": opts.ridge_by_name, "variant_weight": opts.variant_weight,
                "iterations": opts.iterations}
        return cls(weights, edition=edition, info=info)

    @classmethod
    def default(cls, *, edition: str = DEFAULT_EDITION) -> "CostModel":
        """The model shipped with the package for ``edition`` (only the current edition has one)."""
        path = shipped_model_path(edition)
        if not path.exists():
            raise ValueError(f"edition: no cost model ships for {edition!r}; fit one with CostModel.fit(books, edition={edition!r})")
        cached = _DEFAULTS.get(edition)
        if cached is None:
            cached = _DEFAULTS[edition] = cls.load(path)
        return cached

    @classmethod
    def load(cls, path: Union[str, "os.PathLike[str]"]) -> "CostModel":
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"{path}: not an oprstats cost model (format {FORMAT!r})")
        return cls(data["weights"], edition=data["edition"], info=data.get("info"))

    def save(self, path: Union[str, "os.PathLike[str]"]) -> None:
        """Write the weights as JSON (numbers keyed by feature name; no rules text)."""
        data = {"format": FORMAT, "edition": self._edition, "info": dict(self._info),
                "weights": {k: round(v, 10) for k, v in sorted(self._weights.items()) if v != 0.0}}
        with open(path, "w", encoding="utf-8") as f:
            json.dump(data, f, indent=0, sort_keys=False)
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
    def cross_validate(cls, books: Sequence[Any], *, by: str = "book", edition: str = DEFAULT_EDITION, **fit_options: Any) -> "CrossValidation":
        """Leave-one-army-out accuracy: each book's units priced by a model fitted on the
        other books only. ``by="family"`` also holds out the books a book's units are
        sub-faction copies of, or that copy from it (no copy of a held-out unit is seen).
        ``fit_options`` are those of :meth:`fit`."""
        from ._loaders import load_army_book

        if by not in ("book", "family"):
            raise ValueError(f'by: must be "book" or "family" (got {by!r})')
        books = [load_army_book(b) if isinstance(b, (str, os.PathLike)) else b for b in books]
        for i, b in enumerate(books):
            if not isinstance(b, ArmyBook):
                raise TypeError(f"books[{i}]: expected an ArmyBook or a path to one, got {type(b).__name__}")
        if len(books) < 2:
            raise ValueError("books: leave-one-out needs at least two army books")
        opts = _FitOptions(**fit_options)
        units, is_variant, book_of = _training_units(books, opts.variants, edition)
        terms = _Terms(units, edition)
        costs = np.asarray([u.cost for u in units], dtype=np.float64)
        book_of_a = np.asarray(book_of)
        is_variant_a = np.asarray(is_variant)
        groups = _families(books) if by == "family" else [[i] for i in range(len(books))]
        predicted = np.full(len(units), np.nan)
        for bi in range(len(books)):
            held = next(g for g in groups if bi in g)
            train = ~np.isin(book_of_a, held)
            w = opts.fit(terms, costs, is_variant_a, train)
            rows = book_of_a == bi
            predicted[rows] = np.bincount(terms.term_unit, weights=terms.term_points(w), minlength=len(units))[rows]
        base = ~is_variant_a
        return CrossValidation(
            by=by,
            units=tuple(u.name for u, b in zip(units, base) if b),
            books=tuple(books[i].name for i in book_of_a[base]),
            official=costs[base],
            predicted=predicted[base],
            baseline_median=_baseline_error(terms, costs, base),
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

    by_uid = {b.uid: i for i, b in enumerate(books)}
    for i, b in enumerate(books):
        for u in b.units:
            src = b.synced_from(u)
            if src is not None and src[0] in by_uid:
                parent[find(i)] = find(by_uid[src[0]])
    groups: dict[int, list[int]] = {}
    for i in range(len(books)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


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
        import pandas as pd

        frame = pd.DataFrame({"unit": self.units, "book": self.books, "official": self.official, "predicted": self.predicted,
                              "error_pct": 100 * (self.predicted - self.official) / self.official})
        return frame.reindex(frame["error_pct"].abs().sort_values(ascending=False).index).reset_index(drop=True)

    def summary(self) -> str:
        return (f"leave-one-{self.by}-out over {len(self.units)} units: median {100 * self.median:.1f}%, "
                f"90th percentile {100 * self.p90:.1f}%, within 15%: {100 * self.within(0.15):.1f}% "
                f"(baseline, in sample: median {100 * self.baseline_median:.1f}%)")


def _units_of(source: Any, edition: Optional[str]) -> list[Unit]:
    from ._loaders import load_army_book, load_army_list

    if isinstance(source, (str, os.PathLike)):
        path = Path(source)
        if path.suffix.lower() == ".json":
            return list(load_army_book(path, edition=edition).units)
        return list(load_army_list(path, edition=edition or DEFAULT_EDITION).units)
    if isinstance(source, Unit):
        return [source]
    if hasattr(source, "units") and not isinstance(source, Mapping):
        source = source.units
    units = list(source)
    for i, u in enumerate(units):
        if not isinstance(u, Unit):
            raise TypeError(f"units_or_book[{i}]: expected an oprstats.Unit, got {type(u).__name__}")
    return units


FAIRNESS_COLUMNS = ("unit", "official", "modelled", "difference", "difference_pct", "drivers", "ignored_rules", "priced_by_name")


def fairness_rows(units_or_book: Any, model: Optional[CostModel] = None, *, edition: Optional[str] = None, drivers: int = 3) -> list[dict]:
    """The rows of :func:`fairness` as dicts, sorted the same way (no pandas needed)."""
    if isinstance(drivers, bool) or not isinstance(drivers, int) or drivers < 0:
        raise ValueError(f"drivers: must be a whole number of terms, 0 or more (got {drivers!r})")
    if model is None:
        model = CostModel.default(edition=edition or DEFAULT_EDITION)
    elif not isinstance(model, CostModel):
        raise TypeError(f"model: expected an oprstats.CostModel, got {type(model).__name__}")
    units = _units_of(units_or_book, edition)
    rows = []
    for price in model._prices(units) if units else []:
        main = sorted(price.terms, key=lambda t: -abs(t.points))[:drivers]
        diff = price.difference
        rows.append({
            "unit": price.unit,
            "official": price.official,
            "modelled": round(price.points, 1),
            "difference": None if diff is None else round(diff, 1),
            "difference_pct": None if diff is None else round(100.0 * diff / price.points, 1) if price.points else None,
            "drivers": ", ".join(f"{t.label} {t.points:+.0f}" for t in main),
            "ignored_rules": ", ".join(price.ignored),
            "priced_by_name": ", ".join(price.by_name),
        })
    rows.sort(key=lambda r: (r["difference_pct"] is None, -abs(r["difference_pct"] or 0.0)))
    return rows


def fairness(units_or_book: Any, model: Optional[CostModel] = None, *, edition: Optional[str] = None, drivers: int = 3):
    """How far each unit's official cost is from its modelled cost, as a pandas DataFrame
    sorted by how far off it is (``difference_pct``, relative to the modelled cost).

    ``difference`` is official minus modelled points: positive means the unit pays more
    than the model says it is worth (over-costed), negative under-costed. ``drivers`` are
    the largest terms of the modelled price; ``ignored_rules`` the rules nothing priced.
    ``units_or_book``: an army book, an army list, units, or a path to either file.
    """
    try:
        import pandas as pd
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError("fairness needs pandas: pip install 'oprstats[pandas]'") from exc
    frame = pd.DataFrame(fairness_rows(units_or_book, model, edition=edition, drivers=drivers), columns=list(FAIRNESS_COLUMNS))
    frame["official"] = frame["official"].astype("Int64")  # a homebrew unit has none
    for column in ("modelled", "difference", "difference_pct"):
        frame[column] = frame[column].astype(float)
    return frame
