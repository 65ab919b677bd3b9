"""``efficiency()``: damage per 100 points against a panel of reference targets, durability
in points of reference attacks, and efficiency curves over target Defense and Tough.

Every figure is an exact expectation from the exact attack engine (no sampling)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable, Optional, Sequence, Union

import numpy as np

from . import _core
from ._core import Unit
from ._attack import LIMITS, as_float, shooting_gap, shown
from ._editions import DEFAULT_EDITION

# The points a figure per 100 points may be divided by (docs/limits.md): a unit costs at least
# a point, and at most what any unit may cost.
MIN_COST = 1.0
MAX_COST = LIMITS["MAX_COST"]

#: The mode of a caster's round of spells (see :func:`efficiency`).
CASTING = "casting"

# the modes every unit is measured in by default
_DEFAULT_MODES: tuple[str, ...] = tuple(_core._efficiency_modes())

MODES: tuple[str, ...] = (*_DEFAULT_MODES, CASTING)
"""The ways of attacking, named as :func:`oprstats.matchups` names them: ``"shoot 12"`` and
``"shoot 24"`` (shooting at 12" and 24", not having moved), ``"charge"`` (melee, charging),
``"charged"`` (melee when charged: striking back) and ``"casting"`` (a caster's round of damage
spells, for units that have one)."""

#: Each mode as a label reads in a plot or a table.
MODE_TEXT = {"shoot 12": 'shooting at 12"', "shoot 24": 'shooting at 24"', "charge": "charging", "charged": "charged",
             CASTING: "casting"}


def mode_text(mode: str) -> str:
    """A mode as a label says it (``"shoot 24"``: 'shooting at 24"'); any other shooting
    distance alike."""
    if mode in MODE_TEXT:
        return MODE_TEXT[mode]
    return f'shooting at {mode.split()[1].rstrip(chr(34))}"' if mode.startswith("shoot ") else mode


#: The names before issue 44's one vocabulary: accepted with a DeprecationWarning for one release.
OLD_MODES = {'shooting 12"': "shoot 12", 'shooting 24"': "shoot 24", "charging": "charge"}


def canonical_mode(mode: Any, field: str = "mode") -> Any:
    """``mode`` as it is named now: an old name (``'shooting 12"'``, ``"charging"``) gives its
    new one with a DeprecationWarning; anything else is left to the caller's checks."""
    if isinstance(mode, str) and mode in OLD_MODES:
        import warnings

        warnings.warn(f"{field}: {mode!r} is now {OLD_MODES[mode]!r}, as matchups() names it; the old name goes in a later release",
                      DeprecationWarning, stacklevel=3)
        return OLD_MODES[mode]
    return mode


@dataclass(frozen=True)
class Target:
    """A target to measure damage against: a unit, and whether it is in cover."""

    name: str
    unit: Unit
    cover: bool = False


def reference_targets(*, edition: str = DEFAULT_EDITION) -> tuple[Target, ...]:
    """The documented panel: light infantry to titans (Defense 6+ to 2+, Tough 1 to 12, with
    and without Regeneration and cover). See ``docs/points.md``."""
    return tuple(Target(key, unit, cover) for key, unit, cover in _core._reference_targets(edition))


def _targets(targets: Optional[Iterable[Union[Target, Unit]]], edition: str) -> tuple[Target, ...]:
    if targets is None:
        return reference_targets(edition=edition)
    if isinstance(targets, (Unit, Target)):
        targets = [targets]
    out = []
    for i, t in enumerate(targets):
        if isinstance(t, Target):
            if not isinstance(t.unit, Unit):
                raise TypeError(f"targets[{i}].unit: expected a Unit, got {type(t.unit).__name__}")
            out.append(t)
        elif isinstance(t, Unit):
            out.append(Target(t.name, t))
        else:
            raise TypeError(f"targets[{i}]: expected a Unit or an oprstats.Target, got {type(t).__name__}")
    if not out:
        raise ValueError("targets: give at least one target (or None for the reference panel)")
    return tuple(out)


def _casts(unit: Unit) -> bool:
    """Whether a model of the unit has a caster and its book a damage spell."""
    caster = any(r.startswith(("Caster(", "Caster Group")) for m in unit.models for r in m.rules)
    return caster and any(s.kind == "hits" and s.enemy for s in unit.spells.values())


def _modes(modes: Optional[Sequence[str]]) -> Optional[list[str]]:
    if modes is None:
        return None
    if isinstance(modes, str):
        modes = [modes]
    modes = [canonical_mode(m, "modes") for m in modes]
    for m in modes:
        if m not in MODES:
            raise ValueError(f"modes: {m!r} is not one of {list(MODES)}")
    return modes


def unit_points(unit: Unit, cost: Optional[float], edition: str) -> tuple[float, str]:
    """The points to divide by: ``cost`` if given, else the unit's official cost, else the
    shipped cost model's price (homebrew units): ``(points, where they came from)``."""
    if cost is not None:
        if isinstance(cost, bool) or not isinstance(cost, (int, float, np.integer, np.floating)):
            raise ValueError(f"cost: must be a number of points from {MIN_COST:g} to {MAX_COST:,} (got {shown(cost)})")
        points = as_float(cost, "cost")
        # a cost of 1e-320 made every figure per 100 points infinite
        if not MIN_COST <= points <= MAX_COST:
            raise ValueError(f"cost: must be a number of points from {MIN_COST:g} to {MAX_COST:,} (got {shown(cost)})")
        return points, "given"
    if unit.cost:
        return float(unit.cost), "official"
    from ._points import CostModel, shipped_model_path

    if not shipped_model_path(edition).exists():
        raise ValueError(f"cost: {unit.name} has no official cost and no cost model ships for edition {edition!r}; pass cost=")
    modelled = float(CostModel.default(edition=edition).predict(unit).points)
    if not MIN_COST <= modelled <= MAX_COST:
        raise ValueError(f"cost: {unit.name} has no official cost and the cost model prices it at {modelled:.3g} points, outside "
                         f"{MIN_COST:g} to {MAX_COST:,}; pass cost=")
    return modelled, "modelled"


#: The shipped cost model prices the targets, which have no official cost; a target's profile
#: (Defense, Tough, Regeneration) means the same in every GF edition, so one model serves them.
TARGET_PRICING_EDITION = "3.5"
#: Firefight is another game, with its own points and its own Tough (wound effects): its
#: targets are priced by its own model, in the points its units are bought with.
OWN_PRICING_EDITIONS = ("firefight-3.2",)


def target_points(unit: Unit, edition: str = TARGET_PRICING_EDITION) -> float:
    """What a target is worth, in points: its official cost when it has one, else the shipped
    cost model's price for it (the reference targets are made up and have none), the GF
    model's for every GF edition and Firefight's for Firefight. It is only a scale that makes
    damage to different targets comparable."""
    pricing = edition if edition in OWN_PRICING_EDITIONS else TARGET_PRICING_EDITION
    key = (str(unit), pricing)
    points = _TARGET_POINTS.get(key)
    if points is None:
        points = _TARGET_POINTS[key] = unit_points(unit, None, pricing)[0]
    return points


_TARGET_POINTS: dict[tuple[str, str], float] = {}


def _wounds_of(unit: Unit) -> int:
    return sum(m.tough for m in unit.models)


@dataclass(frozen=True)
class Efficiency:
    """What a unit does per 100 points. Arrays are ``[mode, target]``.

    ``points_destroyed`` is the headline: points of the target destroyed per 100 points,
    each wound worth the target's points over its wounds, so that targets of different
    sizes and toughness compare (each target's points are ``target_points``: its official cost,
    or for a made-up target the shipped cost model's price). ``wounds`` and ``kills`` are expected wounds and models
    killed per 100 points; the raw expectations per activation are ``expected_wounds`` and
    ``expected_kills``, and ``p_destroyed`` the chance one activation destroys the target.
    ``durability`` maps each reference attacker to the points of its attacks it takes, in
    expectation, to destroy this unit (larger is tougher).
    """

    unit: str
    points: float
    points_source: str
    modes: tuple[str, ...]
    targets: tuple[str, ...]
    expected_wounds: np.ndarray
    expected_kills: np.ndarray
    p_destroyed: np.ndarray
    durability: dict[str, float] = field(default_factory=dict)
    #: Rules of the unit the attack engine ignores (see ``oprstats.rule_coverage``).
    unmodelled: tuple[str, ...] = ()
    #: Each target's worth in points (official, or the shipped cost model's price) and its wounds.
    target_points: tuple[float, ...] = ()
    target_wounds: tuple[int, ...] = ()

    @property
    def points_destroyed(self) -> np.ndarray:
        """Expected points of the target destroyed per 100 points, ``[mode, target]``."""
        per_wound = np.asarray(self.target_points, dtype=float) / np.asarray(self.target_wounds, dtype=float)
        return self.expected_wounds * per_wound * (100.0 / self.points)

    @property
    def wounds(self) -> np.ndarray:
        """Expected wounds per 100 points, ``[mode, target]``."""
        return self.expected_wounds * (100.0 / self.points)

    @property
    def kills(self) -> np.ndarray:
        """Expected models killed per 100 points, ``[mode, target]``."""
        return self.expected_kills * (100.0 / self.points)

    def at(self, mode: str, target: str) -> dict[str, float]:
        """One cell: ``{"points", "wounds", "kills", "p_destroyed"}`` (points destroyed, wounds
        and kills per 100 points)."""
        mode = canonical_mode(mode)
        if mode not in self.modes:
            raise KeyError(f"mode {mode!r}: this result has {list(self.modes)}")
        if target not in self.targets:
            raise KeyError(f"target {target!r}: this result has {list(self.targets)}")
        i, j = self.modes.index(mode), self.targets.index(target)
        return {"points": float(self.points_destroyed[i, j]), "wounds": float(self.wounds[i, j]), "kills": float(self.kills[i, j]),
                "p_destroyed": float(self.p_destroyed[i, j])}

    def to_pandas(self):
        """One row per (mode, target): expected wounds and kills, per activation and per 100
        points, and points of the target destroyed per 100 points."""
        from ._optional import pandas

        pd = pandas("to_pandas()")

        rows = []
        destroyed = self.points_destroyed
        for i, m in enumerate(self.modes):
            for j, t in enumerate(self.targets):
                rows.append({"mode": m, "target": t, "target_points": self.target_points[j], "wounds": self.expected_wounds[i, j],
                             "kills": self.expected_kills[i, j], "p_destroyed": self.p_destroyed[i, j],
                             "points_per_100": destroyed[i, j], "wounds_per_100": self.wounds[i, j], "kills_per_100": self.kills[i, j]})
        return pd.DataFrame(rows)

    def _repr_html_(self) -> str:
        from . import _display as d

        destroyed = self.points_destroyed
        rows = [[mode] + [d._num(x) for x in destroyed[i]] for i, mode in enumerate(self.modes)]
        lines = [f"{self.points:g} pts ({self.points_source}); expected points of the target destroyed per 100 points "
                 "(a target's points: the cost model's price)"]
        header = ["mode", *[f"{t} ({p:.0f} pts)" for t, p in zip(self.targets, self.target_points)]]
        parts = [d.table(header, rows, [False] + [True] * len(self.targets))]
        if self.durability:
            parts += ["<div>Points of each reference attacker's attacks it takes to destroy it</div>",
                      d.table(list(self.durability), [[d._num(v) for v in self.durability.values()]], [True] * len(self.durability))]
        return d.block(f"Efficiency of {self.unit}", lines, *parts, notes=d.ignored_note(self.unmodelled))

    def __repr__(self) -> str:
        ignores = f"; ignores {', '.join(self.unmodelled)}" if self.unmodelled else ""
        destroyed = self.points_destroyed
        best = np.unravel_index(np.argmax(destroyed), destroyed.shape) if destroyed.size else None
        top = (f"; best {destroyed[best]:.3g} pts destroyed/100 pts ({self.modes[best[0]]} vs {self.targets[best[1]]})"
               if best is not None else "")
        return (f"<Efficiency of {self.unit} ({self.points:g} pts, {self.points_source}): {len(self.modes)} modes x {len(self.targets)} targets"
                f"{top}{ignores}>")


class Efficiencies(tuple):
    """The :class:`Efficiency` of each unit of a group (``efficiency(book)``, an army or a
    sequence of units), in order: a tuple of them, with a table of each unit in its own mode
    (:meth:`to_pandas`) and a rich display."""

    def own_modes(self) -> list[str]:
        """Each unit's own mode, as :func:`natural_mode` chooses it (shooting at 12" or
        charging, whichever destroys more of the reference targets; shooting wins a tie)."""
        return [own_mode(e.modes, e.points_destroyed) if all(m in e.modes for m in NATURAL_MODES) else e.modes[0] for e in self]

    def to_pandas(self):
        """One row per unit: its points, its own mode and the points of each target it
        destroys per 100 points in that mode (``Efficiency.to_pandas`` has every mode)."""
        from ._optional import pandas

        pd = pandas("to_pandas()")
        rows = []
        for e, mode in zip(self, self.own_modes()):
            i = e.modes.index(mode)
            rows.append({"unit": e.unit, "points": e.points, "mode": mode, **{t: float(e.points_destroyed[i, j]) for j, t in enumerate(e.targets)}})
        return pd.DataFrame(rows)

    def _repr_html_(self) -> str:
        from . import _display as d

        if not self:
            return d.block("Efficiency of no units")
        targets = self[0].targets
        rows = [[e.unit, d._num(e.points), mode] + [d._num(x) for x in e.points_destroyed[e.modes.index(mode)]]
                for e, mode in zip(self, self.own_modes())]
        return d.block(f"Efficiency of {len(self)} units", ["points of the target destroyed per 100 points, each unit in its own mode"],
                       d.table(["unit", "points", "mode", *targets], rows, [False, True, False] + [True] * len(targets)))

    def __repr__(self) -> str:
        return f"<Efficiencies of {len(self)} units: {', '.join(e.unit for e in self[:4])}{', ...' if len(self) > 4 else ''}>"


def _check_unit(unit: Any, field_name: str = "unit") -> Unit:
    if not isinstance(unit, Unit):
        raise TypeError(f"{field_name}: expected an oprstats.Unit, got {type(unit).__name__}")
    return unit


def efficiency(unit: Any, *, targets: Optional[Iterable[Union[Target, Unit]]] = None, modes: Optional[Sequence[str]] = None,
               edition: Optional[str] = None, cost: Optional[float] = None) -> Any:
    """Exact expected wounds and models killed per 100 points against each target (the
    reference panel by default) in each way of attacking, and durability.

    ``unit`` is a :class:`Unit` (an :class:`Efficiency` is returned), or a group of them: an
    army book, an army list, a path to one, or a sequence of units (an :class:`Efficiencies`,
    one per unit, each at its own cost; ``cost`` is then refused).

    ``cost`` overrides the points divided by (default: the unit's official cost, else the
    shipped cost model's price, as for a homebrew unit).

    A unit with a caster and damage spells (``unit.spells``, its book's) gets the mode
    ``"casting"`` too: the best set of its damage spells one round's tokens pay for, each cast
    on the fresh target at the bare chance of a half (expected wounds and kills summed over
    the spells; the chance to destroy, that some one spell does).

    ``edition``: whose rules and cost model (default: the edition the unit was made under:
    a Firefight book's units are measured by Firefight's engines, against the reference
    panel read under Firefight, and a homebrew Firefight unit priced by the Firefight model).
    """
    if not isinstance(unit, Unit):
        if cost is not None:
            raise ValueError("cost: a group of units is measured each at its own cost; give one unit to set its cost")
        from ._points import _source_of, measured_edition

        units, _books = _source_of(unit, edition, "unit")
        edition = measured_edition(units, edition, "unit")
        # the targets and modes read once (a generator of targets serves every unit)
        ts, asked = _targets(targets, edition), _modes(modes)
        return Efficiencies(efficiency(u, targets=ts, modes=asked, edition=edition) for u in units)
    from ._points import measured_edition

    edition = measured_edition([unit], edition, "unit")
    ts = _targets(targets, edition)
    points, source = unit_points(unit, cost, edition)
    casts, asked = _casts(unit), _modes(modes)
    if asked is None and casts:
        asked = list(MODES)
    if asked is not None and CASTING in asked and not casts:
        raise ValueError(f"modes: {CASTING!r} needs a caster with damage spells from its book; {unit.name} has none")
    raw = _core._efficiency(unit, [(t.unit, t.cover) for t in ts], modes=asked, edition=edition)
    shape = (len(raw["modes"]), len(ts))
    durability = dict(_core._durability(unit, edition=edition))
    return Efficiency(
        unit=unit.name, points=points, points_source=source, modes=tuple(raw["modes"]), targets=tuple(t.name for t in ts),
        expected_wounds=raw["wounds"].reshape(shape), expected_kills=raw["kills"].reshape(shape),
        p_destroyed=raw["destroyed"].reshape(shape), durability=durability,
        unmodelled=tuple(_core._unmodelled_rules(unit, engine="attack", edition=edition)),
        target_points=tuple(target_points(t.unit, edition) for t in ts), target_wounds=tuple(_wounds_of(t.unit) for t in ts),
    )


def reference_attackers(*, edition: str = DEFAULT_EDITION) -> list[tuple[str, str, int]]:
    """The reference attackers durability is measured with: ``(key, profile, nominal points)``."""
    return _core._reference_attackers(edition)


MEASURES: tuple[str, ...] = ("points", "wounds", "kills")
"""What an efficiency curve measures per 100 points: points of the target destroyed (each
wound worth the target's points over its wounds: comparable across targets), wounds, or
models killed."""


@dataclass(frozen=True)
class EfficiencyCurve:
    """Damage per 100 points against targets of each Defense (rows) and Tough (columns).

    Each target has about ten wounds: ten models of Tough 1, three of Tough 3, one of
    Tough 6 or more (see ``docs/points.md``); Quality 4+, no rules, not in cover.
    ``models[j]`` is how many models the targets of column ``j`` have, and
    ``target_points[i, j]`` what each target is worth (the shipped cost model's price).
    """

    unit: str
    points: float
    mode: str
    measure: str
    defense: np.ndarray
    tough: np.ndarray
    values: np.ndarray
    models: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=int))
    target_points: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))

    @property
    def target_labels(self) -> list[str]:
        """Each column's targets as they are: ``"10 × Tough 1"``, ``"3 × Tough 3"``, ``"Tough 6"``."""
        return [f"{n} × Tough {t}" if n > 1 else f"Tough {t}" for n, t in zip(self.models, self.tough)]

    def __repr__(self) -> str:
        span = f"{self.values.min():.3g} to {self.values.max():.3g}" if self.values.size else "empty"
        return (f"<EfficiencyCurve of {self.unit}: {self.measure} per 100 pts, {self.mode}, Defense {self.defense.min()}+ to "
                f"{self.defense.max()}+ x Tough {self.tough.min()} to {self.tough.max()}: {span}>")

    def _repr_html_(self) -> str:
        from . import _display as d

        rows = [[f"D{df}+"] + [d._num(x) for x in self.values[i]] for i, df in enumerate(self.defense)]
        return d.block(f"{self.unit}: {MEASURE_TEXT[self.measure]} per 100 pts, {self.mode}", [],
                       d.table(["", *self.target_labels], rows, [False] + [True] * len(self.tough)))


MEASURE_TEXT = {"points": "points of the target destroyed", "wounds": "wounds", "kills": "models killed"}


#: The ways a unit's own mode is chosen from (see :func:`natural_mode`).
NATURAL_MODES = ("shoot 12", "charge")


def own_mode(modes: Sequence[str], destroyed: np.ndarray) -> str:
    """Of the :data:`NATURAL_MODES` among ``modes``, the one destroying more points on
    average over the targets (``destroyed[mode, ...]``): shooting wins a tie."""
    rows = [modes.index(m) for m in NATURAL_MODES]
    means = [float(np.mean(destroyed[i])) for i in rows]
    return modes[rows[int(np.argmax(means))]]


def natural_mode(unit: Unit, *, edition: Optional[str] = None) -> str:
    """How a unit fights by default: shooting at 12" or charging, whichever destroys more
    points of the reference targets (a unit with a 6" pistol and a great axe charges; a
    melee-only unit shooting would show only zeros). Shooting wins a tie. ``edition``: by
    default the unit's own."""
    from ._points import measured_edition

    _check_unit(unit)
    edition = measured_edition([unit], edition, "unit")
    ts = reference_targets(edition=edition)
    raw = _core._efficiency(unit, [(t.unit, t.cover) for t in ts], modes=list(NATURAL_MODES), edition=edition)
    worth = np.array([target_points(t.unit, edition) / _wounds_of(t.unit) for t in ts])
    return own_mode(list(NATURAL_MODES), raw["wounds"].reshape(len(NATURAL_MODES), len(ts)) * worth)


def _warn_out_of_reach(unit: Unit, mode: str) -> None:
    """A unit asked to shoot at a distance none of its weapons reaches deals nothing: say so."""
    if mode.startswith("shoot "):
        inches = float(mode.split()[1].rstrip('"'))
        gap = shooting_gap(unit.weapons, inches)
        if gap is not None:
            import warnings

            warnings.warn(f'mode: {unit.name} {gap}, so it deals nothing shooting at {inches:g}"; leave mode=None for its own', stacklevel=3)


def _whole_numbers(values: Any, name: str, low: int, high: int) -> list[int]:
    """A sequence of whole numbers in ``[low, high]``: ``2.9`` is refused, not read as 2."""
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        raise TypeError(f"{name}: expected a sequence of whole numbers, got {type(values).__name__}")
    out = []
    for v in values:
        if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
            raise TypeError(f"{name}: expected whole numbers, got {v!r} ({type(v).__name__})")
        if not low <= v <= high:
            raise ValueError(f"{name}: must be from {low} to {high} (got {shown(v)})")
        out.append(int(v))
        if len(out) > 1_000:
            raise ValueError(f"{name}: at most 1000 values (got more)")
    return out


def efficiency_curve(unit: Unit, *, defense: Sequence[int] = (6, 5, 4, 3, 2), tough: Sequence[int] = (1, 3, 6, 12),
                     mode: Optional[str] = None, measure: str = "points", edition: Optional[str] = None,
                     cost: Optional[float] = None) -> EfficiencyCurve:
    """Expected ``measure`` per 100 points as a ``[defense, tough]`` array, for one way of
    attacking (``mode``, one of :data:`MODES`).

    ``measure``: "points" (points of the target destroyed: each wound worth the target's
    points over its wounds, so that a tank and a squad compare), "wounds" or "kills".
    ``mode``: by default the unit's own: shooting at 12" or charging, whichever destroys more
    points of the curve's own targets (as :func:`natural_mode` chooses on the reference
    panel); a unit asked to shoot with no weapon that reaches is warned about (it deals
    nothing). ``edition``: by default the unit's own."""
    from ._points import measured_edition

    _check_unit(unit)
    edition = measured_edition([unit], edition, "unit")
    if measure not in MEASURES:
        raise ValueError(f"measure: must be one of {list(MEASURES)} (got {measure!r})")
    if mode is not None:
        if not isinstance(mode, str):
            raise TypeError(f"mode: expected one of {list(MODES)}, got {type(mode).__name__}")
        mode = canonical_mode(mode)
        _modes([mode])
        _warn_out_of_reach(unit, mode)
    ds = _whole_numbers(defense, "defense", 2, 6)
    ts = _whole_numbers(tough, "tough", 1, LIMITS["MAX_RATING"])
    if not ds or not ts:
        raise ValueError("defense and tough: give at least one value each")
    if len(ds) * len(ts) > 1_000:
        raise ValueError(f"defense x tough: at most 1000 targets in one curve (got {len(ds) * len(ts)})")
    points, _ = unit_points(unit, cost, edition)
    targets = [_core._curve_target(d, t, edition) for d in ds for t in ts]
    # one call for every mode considered: the core checks its limits before any work
    modes = [mode] if mode is not None else list(NATURAL_MODES)
    raw = _core._efficiency(unit, [(t, False) for t in targets], modes=modes, edition=edition)
    shape = (len(modes), len(ds), len(ts))
    worth = np.array([target_points(t, edition) for t in targets]).reshape(shape[1:])
    wounds = np.array([_wounds_of(t) for t in targets], dtype=float).reshape(shape[1:])
    destroyed = raw["wounds"].reshape(shape) * worth / wounds
    mode = modes[0] if len(modes) == 1 else own_mode(modes, destroyed)
    pick = modes.index(mode)
    values = destroyed[pick] if measure == "points" else raw[measure].reshape(shape)[pick]
    models = np.array([t.size for t in targets[: len(ts)]])
    return EfficiencyCurve(unit.name, points, mode, measure, np.asarray(ds), np.asarray(ts), values * (100.0 / points), models, worth)
