"""``melee()`` and ``morale()``: how a charge ends, and how a unit takes a morale test."""

from __future__ import annotations

from typing import Optional, Union

import numpy as np

from . import _core
from ._attack import SeedLike, check_distance, check_flag, check_run_args, seed_to_u64
from ._core import Unit
from ._distribution import Distribution
from ._state import UnitState, state_arg, states_from_arrays

_STATUSES = ("destroyed", "routed", "shaken", "unaffected")


class _StoredOutcome:
    """A ``_MeleeOutcome`` read out in full: what a pickled ``MeleeResult`` keeps."""

    def __init__(self, raw) -> None:
        for name in ("unmodelled", "resolution", "samples", "dice", "winner", "status", "sizes"):
            setattr(self, name, getattr(raw, name))
        self._arrays = {(name, side): np.asarray(getattr(raw, name)(side)) for name in ("wounds", "lost") for side in (0, 1)}
        self._ends = (tuple(raw.ends(0)), tuple(raw.ends(1)))
        self._left = np.array(raw.left())

    def wounds(self, side: int) -> np.ndarray:
        return self._arrays["wounds", side].copy()

    def lost(self, side: int) -> np.ndarray:
        return self._arrays["lost", side].copy()

    def left(self) -> np.ndarray:
        return self._left.copy()

    def ends(self, side: int):
        return self._ends[side]


class MeleeSide:
    """How one side of a melee ends.

    Exactly one of ``p_destroyed`` (all models removed), ``p_routed`` (failed its morale
    test at half strength or less), ``p_shaken`` (Shaken afterwards, including a unit that
    was Shaken before) and ``p_unaffected`` holds; they sum to 1. ``wounds_caused``: wounds
    it dealt (Fear not included); ``lost``: models it lost in this melee (Routs not
    counted); ``states``: its states afterwards with their probabilities (destroyed and
    routed left out), for chaining. In v2 the Shaken state is called Wavering.

    Firefight resolves no melee and tests no morale in it: ``p_routed`` is 0, ``p_shaken``
    is the chance its last model ends Stunned by wound effects (also as ``p_stunned``) and
    ``p_destroyed`` the chance it is Knocked Out.
    """

    __slots__ = ("role", "size", "p_destroyed", "p_routed", "p_shaken", "p_unaffected", "_outcome", "_side", "_wounds", "_lost",
                 "_states")

    def __init__(self, role: str, outcome, side: int, size: int, status: tuple) -> None:
        self.role = role
        self.size = size
        self.p_destroyed, self.p_routed, self.p_shaken, self.p_unaffected = status
        # the distributions stay in the core until they are first read, then are kept
        self._outcome, self._side = outcome, side
        self._wounds: Optional[Distribution] = None
        self._lost: Optional[Distribution] = None
        self._states: Optional[tuple] = None

    def __getstate__(self):
        # the core's outcome does not pickle: the side keeps it read out in full
        outcome = self._outcome if isinstance(self._outcome, _StoredOutcome) else _StoredOutcome(self._outcome)
        return (self.role, outcome, self._side, self.size, (self.p_destroyed, self.p_routed, self.p_shaken, self.p_unaffected))

    def __setstate__(self, state) -> None:
        type(self).__init__(self, *state)

    def __eq__(self, other: object) -> bool:
        """The same fate: role, size, the chance of each ending, and the distributions and
        states it ends with (how it is held, in the core or read out, does not count)."""
        if not isinstance(other, MeleeSide):
            return NotImplemented
        return (self.role == other.role and self.size == other.size and self.p_stunned == other.p_stunned
                and (self.p_destroyed, self.p_routed, self.p_shaken, self.p_unaffected)
                == (other.p_destroyed, other.p_routed, other.p_shaken, other.p_unaffected)
                and self.wounds_caused.samples == other.wounds_caused.samples
                and np.array_equal(self.wounds_caused.pmf, other.wounds_caused.pmf) and np.array_equal(self.lost.pmf, other.lost.pmf)
                and self.states == other.states)

    __hash__ = None  # type: ignore[assignment]  # equal by value, and holds arrays

    @property
    def p_stunned(self) -> Optional[float]:
        """Firefight: the chance this side's last model ends Stunned (``None`` elsewhere)."""
        return None if self._outcome.resolution else self.p_shaken

    @property
    def wounds_caused(self) -> Distribution:
        if self._wounds is None:
            self._wounds = Distribution(self._outcome.wounds(self._side), samples=self._outcome.samples)
        return self._wounds

    @property
    def lost(self) -> Distribution:
        if self._lost is None:
            self._lost = Distribution(self._outcome.lost(self._side), samples=self._outcome.samples)
        return self._lost

    @property
    def states(self) -> tuple:
        if self._states is None:
            self._states = states_from_arrays(self._outcome.ends(self._side))
        return self._states

    def __repr__(self) -> str:
        return (
            f"MeleeSide({self.role}: destroyed {self.p_destroyed:.4g}, routed {self.p_routed:.4g}, "
            f"shaken {self.p_shaken:.4g}, unaffected {self.p_unaffected:.4g}, "
            f"wounds caused {self.wounds_caused.mean():.3g}, models lost {self.lost.mean():.3g})"
        )


class MeleeResult:
    """The outcome of a charge: who wins, each side's fate, wounds and casualties.

    ``models_left[c, d]`` is the chance that the charger has ``c`` models left and the
    defender ``d`` once casualties are removed (before any Rout).

    Firefight has no melee resolution, so ``p_charger_wins``, ``p_defender_wins`` and
    ``p_tie`` are ``None`` there.
    """

    __slots__ = ("method", "samples", "dice", "p_charger_wins", "p_defender_wins", "p_tie", "charger", "defender",
                 "_outcome", "_left", "unmodelled")

    def __init__(self, outcome, method: str) -> None:
        self.method = method
        self.samples: Optional[int] = outcome.samples
        self.dice: Optional[int] = outcome.dice
        self.p_charger_wins: Optional[float]
        self.p_defender_wins: Optional[float]
        self.p_tie: Optional[float]
        self.p_charger_wins, self.p_defender_wins, self.p_tie = outcome.winner if outcome.resolution else (None, None, None)
        # (each of the core's getters builds its value afresh: read once)
        sizes, status = outcome.sizes, outcome.status
        self.charger = MeleeSide("charger", outcome, 0, sizes[0], status[0])
        self.defender = MeleeSide("defender", outcome, 1, sizes[1], status[1])
        self._outcome = outcome
        self._left: Optional[np.ndarray] = None
        self.unmodelled: tuple = tuple(outcome.unmodelled)

    def __getstate__(self):
        return (_StoredOutcome(self._outcome), self.method)

    def __setstate__(self, state) -> None:
        type(self).__init__(self, *state)

    @property
    def models_left(self) -> np.ndarray:
        """``models_left[c, d]``: the chance the charger has ``c`` models left and the defender
        ``d`` (read-only)."""
        if self._left is None:
            left = self._outcome.left()
            left.flags.writeable = False
            self._left = left
        return self._left

    @property
    def wounds_by_charger(self) -> Distribution:
        return self.charger.wounds_caused

    @property
    def wounds_by_defender(self) -> Distribution:
        return self.defender.wounds_caused

    def to_pandas(self):
        """One row per side: the chance of each fate, who wins, mean wounds and losses (needs pandas)."""
        from ._optional import pandas

        pd = pandas("to_pandas()")

        rows = []
        for side, p_win in ((self.charger, self.p_charger_wins), (self.defender, self.p_defender_wins)):
            rows.append({
                "side": side.role, "p_wins": p_win, "p_tie": self.p_tie,
                **{f"p_{k}": getattr(side, f"p_{k}") for k in _STATUSES},
                "wounds_caused": side.wounds_caused.mean(), "models_lost": side.lost.mean(),
            })
        return pd.DataFrame(rows).set_index("side")

    def _repr_html_(self) -> str:
        from . import _display as d

        lines = [f"{self.method}: no melee resolution (Firefight)"] if self.p_tie is None else [
            f"{self.method}: charger wins {self.p_charger_wins:.4g}, defender wins {self.p_defender_wins:.4g}, tie {self.p_tie:.4g}"]
        rows = [[s.role, d._num(s.wounds_caused.mean()), d._num(s.lost.mean()), d._num(s.p_destroyed, 4), d._num(s.p_routed, 4),
                 d._num(s.p_shaken, 4), d._num(s.p_unaffected, 4)] for s in (self.charger, self.defender)]
        sides = d.table(["side", "wounds caused", "models lost", "destroyed", "routed", "Shaken", "unaffected"], rows,
                        [False] + [True] * 6)
        return d.block("Melee", lines, sides, notes=d.ignored_note(self.unmodelled))

    def __repr__(self) -> str:
        ignores = f"; ignores {', '.join(self.unmodelled)}" if self.unmodelled else ""
        if self.p_tie is None:
            return f"MeleeResult({self.method}: no melee resolution; {self.charger!r}, {self.defender!r}{ignores})"
        return (
            f"MeleeResult({self.method}: charger wins {self.p_charger_wins:.4g}, defender wins "
            f"{self.p_defender_wins:.4g}, tie {self.p_tie:.4g}{ignores})"
        )


def _strike_back(value) -> bool:
    # "auto": the defender strikes back whenever it can. Striking back only adds wounds to
    # its side of melee resolution, so within one exchange it never does worse by it.
    if value is True or value is False or isinstance(value, np.bool_):
        return bool(value)
    if value == "auto":
        return True
    raise ValueError(f'strike_back: must be True, False or "auto" (got {value!r})')


def melee(
    charger: Unit,
    defender: Unit,
    *,
    strike_back: Union[bool, str] = "auto",
    charger_fatigued: bool = False,
    defender_fatigued: bool = False,
    charger_state: Optional[UnitState] = None,
    defender_state: Optional[UnitState] = None,
    distance: float = 6.0,
    edition: str = "3.5",
    method: str = "exact",
    samples: int = 100_000,
    seed: SeedLike = None,
    threads: Optional[int] = None,
) -> MeleeResult:
    """How ``charger`` charging ``defender`` ends, exactly or sampled.

    The sequence follows the rulebook: the defender's Counter weapons strike first, then the
    charger's weapons and Impact dice, then the defender strikes back with the models left;
    the side that caused fewer wounds (Fear added) loses and takes a morale test. ``*_state``
    (:class:`UnitState`) starts a side damaged, Shaken or fatigued; ``*_fatigued=True`` is
    the same as a fatigued state. ``distance`` is the charge distance in inches (it decides
    rules such as Impact's and Sturdy's).

    ``strike_back``: whether the defender strikes back with the models left. ``"auto"`` (the
    default) is True whenever it can (striking back only adds wounds to its side of the
    resolution, so it never does worse by it); ``False`` plays a defender that holds back.
    ``edition`` picks the rulebook (see :func:`oprstats.editions`). ``method="exact"`` gives
    exact probabilities; ``"sample"`` plays the melee ``samples`` times, reproducibly for a
    given ``seed`` (an int or a ``numpy.random.SeedSequence``) whatever ``threads`` (``None``:
    all cores).
    """
    for name, value in (("charger", charger), ("defender", defender)):
        if not isinstance(value, Unit):
            raise TypeError(f"{name}: expected a Unit, got {type(value).__name__}")
    charger_fatigued = check_flag("charger_fatigued", charger_fatigued)
    defender_fatigued = check_flag("defender_fatigued", defender_fatigued)
    distance = check_distance(distance)
    check_run_args(method, samples, threads)
    cs = state_arg("charger_state", charger_state)
    ds = state_arg("defender_state", defender_state)
    if charger_fatigued:
        cs = UnitState(cs.models_lost, cs.wounds, cs.hero_wounds, cs.shaken, True)
    if defender_fatigued:
        ds = UnitState(ds.models_lost, ds.wounds, ds.hero_wounds, ds.shaken, True)
    outcome = _core._melee(
        charger, defender, charger_state=cs._tuple(), defender_state=ds._tuple(),
        strike_back=_strike_back(strike_back), distance=distance, edition=edition, method=method,
        samples=int(samples), seed=seed_to_u64(seed) if method == "sample" else 0,
        threads=None if threads is None else int(threads),
    )
    return MeleeResult(outcome, method)


class MoraleResult:
    """A morale test: the chance it passes, and what a failure does (Shaken, or Rout)."""

    __slots__ = ("p_pass", "p_shaken", "p_routed", "at_half_or_less")

    def __init__(self, p_pass: float, p_shaken: float, p_routed: float, half: bool) -> None:
        self.p_pass = p_pass
        self.p_shaken = p_shaken
        self.p_routed = p_routed
        self.at_half_or_less = half
        """Whether the unit has half or less of its starting size (or Tough, for one model)."""

    @property
    def p_fail(self) -> float:
        return self.p_shaken + self.p_routed

    def __repr__(self) -> str:
        return f"MoraleResult(pass {self.p_pass:.4g}, shaken {self.p_shaken:.4g}, routed {self.p_routed:.4g})"

    def _repr_html_(self) -> str:
        from . import _display as d

        rows = [[name, d.bar(p), d._num(p, 4)] for name, p in (("passes", self.p_pass), ("Shaken", self.p_shaken), ("Routs", self.p_routed))]
        lines = ["at half strength or less" if self.at_half_or_less else "above half strength"]
        return d.block("Morale test", lines, d.table(["outcome", "", "chance"], rows, [False, False, True]))


def morale(unit: Unit, *, state: Optional[UnitState] = None, melee: bool = False, edition: str = "3.5") -> MoraleResult:
    """The chance ``unit``, in ``state``, passes a morale test, and is Shaken or Routs if not.

    A joined hero takes the test for the unit while it lives (the better Quality is used);
    Fearless passes a failed test on 4+ when all models left have it; a Shaken unit always
    fails (Fearless still rolls). In melee (``melee=True``) a failure at half strength or
    less Routs; otherwise the unit is Shaken.

    Editions: v3.4.1 Fearless needs most models; v2 Fearless is +1 to the test and a failure
    is Wavering (reported as ``p_shaken``). Firefight's test is the Rout test: a failure
    Stuns the unit (``p_shaken``), and a unit already Stunned (``state.shaken``) Routs
    without a test; ``melee`` does not matter there.
    """
    if not isinstance(unit, Unit):
        raise TypeError(f"unit: expected a Unit, got {type(unit).__name__}")
    melee = check_flag("melee", melee)
    st = state_arg("state", state)
    return MoraleResult(*_core._morale(unit, state=st._tuple(), melee=melee, edition=edition))
