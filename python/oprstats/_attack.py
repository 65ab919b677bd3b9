"""``attack()``: the exact (or sampled) outcome of one unit attacking another."""

from __future__ import annotations

import math
import warnings
from typing import Any, Iterable, Optional, Union

import numpy as np

from . import _core
from ._core import Spell, Unit
from ._distribution import Distribution
from ._state import FRESH, UnitState, state_arg, states_from_arrays

SeedLike = Union[None, int, np.random.SeedSequence]

# Concrete types first: isinstance against the numbers ABCs is slow on a hot path.
_REALS = (int, float, np.integer, np.floating)
_INTS = (int, np.integer)


_FLAG_NAMES = ("melee", "charging", "cover", "moved", "target_moved", "fatigued")
_FRESH_TUPLE = FRESH._tuple()

# The library's limits (docs/limits.md), by name.
LIMITS = dict(_core._limits())
_MAX_SAMPLES = LIMITS["MAX_SAMPLES"]


def check_threads(threads) -> None:
    """``threads=``: None (all cores) or 1 to the limit; pools of each size are kept."""
    if threads is None:
        return
    if isinstance(threads, bool) or not isinstance(threads, _INTS):
        raise TypeError(f"threads: expected None or an int, got {type(threads).__name__}")
    if not 1 <= threads <= LIMITS["MAX_THREADS"]:
        raise ValueError(f"threads: must be None or from 1 to {LIMITS['MAX_THREADS']} (got {shown(threads)})")


def shown(value: Any, grouped: bool = False) -> str:
    """A value as an error message shows it: an int of more than 128 bits by its size (its
    digits may be thousands, more than ``str()`` converts), other ints with thousands
    separators when ``grouped``, anything else by its repr, cut."""
    if isinstance(value, _INTS) and not isinstance(value, bool):
        if abs(int(value)).bit_length() > 128:
            return f"an int of about {int(abs(int(value)).bit_length() * math.log10(2)) + 1} digits"
        if grouped:
            return f"{int(value):,}"
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def as_float(value: Any, field: str) -> float:
    """``float(value)`` for a number argument: an int past a float's range (``10**400``) is a
    ValueError naming the field, where Python's own is an OverflowError naming nothing."""
    try:
        return float(value)
    except OverflowError:
        raise ValueError(f"{field}: {shown(value)} is past the range of a float (at most about 1.8e308)") from None


def check_distance(distance, field: str = "distance") -> float:
    """``distance=``: a finite number of inches, 0 or more, as a float."""
    if isinstance(distance, bool) or not isinstance(distance, _REALS):
        raise TypeError(f"{field}: expected a finite number of inches, got {shown(distance)}")
    inches = as_float(distance, field)
    if not math.isfinite(inches):
        raise TypeError(f"{field}: expected a finite number of inches, got {distance!r}")
    if inches < 0:
        raise ValueError(f"{field}: must be 0 or more inches (got {distance})")
    return inches


def check_flag(name: str, value) -> bool:
    """A ``True``/``False`` argument (a numpy bool too), as a bool."""
    if value is not True and value is not False and not isinstance(value, np.bool_):
        raise TypeError(f"{name}: expected True or False, got {type(value).__name__}")
    return bool(value)


def check_run_args(method, samples, threads) -> None:
    """The arguments every engine call shares."""
    if method not in ("exact", "sample"):
        raise ValueError(f'method: must be "exact" or "sample" (got {method!r})')
    if isinstance(samples, bool) or not isinstance(samples, _INTS):
        raise TypeError(f"samples: expected an int, got {type(samples).__name__}")
    if not 1 <= samples <= LIMITS["MAX_SAMPLES"]:
        raise ValueError(f"samples: must be from 1 to {LIMITS['MAX_SAMPLES']} (got {shown(samples)})")
    check_threads(threads)


def seed_sequence(seed: SeedLike, field: str = "seed") -> np.random.SeedSequence:
    """``seed=`` as a ``numpy.random.SeedSequence``: a copy of the one given (spawning children
    advances a SeedSequence, so the caller's own would give other children the next time it
    is passed), or one made from an int (0 or more: numpy's own refusal of -1 names no
    argument) or from fresh entropy (None)."""
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key, pool_size=seed.pool_size,
                                      n_children_spawned=seed.n_children_spawned)
    if seed is None:
        return np.random.SeedSequence()
    if isinstance(seed, _INTS) and not isinstance(seed, bool):
        if seed < 0:
            raise ValueError(f"{field}: {shown(seed)} must be a non-negative integer or a numpy.random.SeedSequence")
        return np.random.SeedSequence(int(seed))
    raise TypeError(f"{field}: expected an int, a numpy.random.SeedSequence or None, got {type(seed).__name__}")


def seed_to_u64(seed: SeedLike) -> int:
    """A 64-bit engine seed from an int, a ``numpy.random.SeedSequence`` or ``None`` (fresh entropy)."""
    return int(seed_sequence(seed).generate_state(1, dtype=np.uint64)[0])


class _StoredStages:
    """An ``_AttackStages`` read out in full: what a pickled ``AttackResult`` keeps."""

    _FIELDS = ("groups", "unmodelled", "size", "alive", "wound_effects", "p_morale_test", "samples", "dice")

    def __init__(self, raw) -> None:
        for name in self._FIELDS:
            setattr(self, name, getattr(raw, name))
        self._stages = {name: np.asarray(raw.stage(name)) for name in ("hits", "unblocked", "wounds", "kills")}
        self._ends = tuple(raw.ends())

    def stage(self, name: str) -> np.ndarray:
        return self._stages[name].copy()

    def ends(self):
        return self._ends


class AttackResult:
    """Every stage of an attack as a :class:`Distribution`.

    ``hits``: hits the target takes (after extra hits and Blast); ``unblocked``: failed block
    rolls; ``wounds``: wounds left after Regeneration (Deadly wounds counted X times);
    ``kills``: models this attack removed; ``remaining``: the target's models left.

    Morale after shooting (``None`` for melee attacks, whose morale comes from melee
    resolution: see :func:`melee`): ``p_morale_test`` is the chance the target must test at
    the end of the activation (it took wounds and is left at half or less of its starting
    size, or of its Tough for a single model); ``p_shaken`` the chance it ends Shaken.
    ``states`` lists the target's states afterwards with their probabilities, for chaining.
    In v2 the state a failed test leaves is called Wavering; ``p_shaken`` covers it.

    Firefight has wound effects instead of morale from wounds: ``p_stunned`` is the chance
    the target's last model ends Stunned and ``p_knocked_out`` the chance the unit is gone
    (``p_morale_test`` and ``p_shaken`` are ``None`` there; both Firefight fields are
    ``None`` in the other editions).
    """

    __slots__ = ("_raw", "_hits", "_unblocked", "_wounds", "_kills", "_groups", "_unmodelled", "method", "melee", "_ends")
    _hits: Optional[Distribution]
    _unblocked: Optional[Distribution]
    _wounds: Optional[Distribution]
    _kills: Optional[Distribution]
    _groups: Optional[tuple]
    _unmodelled: Optional[tuple]
    _ends: Optional[tuple]

    def __init__(self, raw, method: str, melee: bool) -> None:
        # raw: the core's ``_AttackStages`` (or, unpickled, a ``_StoredStages``); everything
        # is read from it when first asked for: a caller may want one number of it
        self.method = method
        self.melee = melee
        self._raw = raw
        self._hits = self._unblocked = self._wounds = self._kills = self._groups = self._unmodelled = self._ends = None

    samples = property(lambda self: self._raw.samples, doc="Samples drawn (``None`` when exact).")
    dice = property(lambda self: self._raw.dice, doc="Attack dice the sampler rolled (``None`` when exact).")
    size = property(lambda self: self._raw.size, doc="The target's starting size (a joined hero counts as one more model).")
    alive = property(lambda self: self._raw.alive, doc="The target's models left when the attack began.")
    wound_effects = property(lambda self: self._raw.wound_effects, doc="Whether the edition has Firefight's wound effects (Stunned, Knocked Out).")

    @property
    def p_morale_test(self) -> Optional[float]:
        """The chance the target must take a morale test after the shooting (``None`` for melee
        attacks and in Firefight)."""
        return None if self.melee or self.wound_effects else self._raw.p_morale_test

    def _stage(self, name: str) -> Distribution:
        slot = "_" + name
        d = getattr(self, slot)
        if d is None:
            d = Distribution(self._raw.stage(name), samples=self.samples)
            setattr(self, slot, d)
        return d

    def _end_arrays(self):
        if self._ends is None:
            self._ends = self._raw.ends()
        return self._ends

    def __getstate__(self):
        raw = _StoredStages(self._raw)
        return (raw, self.method, self.melee)

    def __setstate__(self, state) -> None:
        type(self).__init__(self, *state)

    hits = property(lambda self: self._stage("hits"), doc="Hits the target takes (after extra hits and Blast).")
    unblocked = property(lambda self: self._stage("unblocked"), doc="Failed block rolls.")
    wounds = property(lambda self: self._stage("wounds"), doc="Wounds left after Regeneration (Deadly counted X times).")
    kills = property(lambda self: self._stage("kills"), doc="Models this attack removed: spans 0 to the models alive when it began.")

    @property
    def groups(self) -> tuple:
        """``(label, dice)`` of each weapon group that attacked."""
        if self._groups is None:
            self._groups = tuple(self._raw.groups)
        return self._groups

    @property
    def unmodelled(self) -> tuple:
        """Rules of either unit that this attack does not model."""
        if self._unmodelled is None:
            self._unmodelled = tuple(self._raw.unmodelled)
        return self._unmodelled

    @property
    def remaining(self) -> Distribution:
        """The target's models left: the mirror image of ``kills``."""
        return Distribution(self.kills.pmf[::-1], samples=self.samples)

    @property
    def p_destroyed(self) -> float:
        """The chance that no model of the target is left."""
        return float(self.kills.pmf[self.alive])

    @property
    def states(self) -> tuple:
        """``(UnitState, probability)`` for each state the target can be left in (destroyed left out)."""
        return states_from_arrays(self._end_arrays())

    @property
    def p_shaken(self) -> Optional[float]:
        """The chance the target ends the activation Shaken (``None`` for melee attacks)."""
        if self.melee or self.wound_effects:
            return None
        return self._p_flagged()

    def _p_flagged(self) -> float:
        states, p = self._end_arrays()
        return float(p[states[:, 3] == 1].sum()) if len(p) else 0.0

    @property
    def p_stunned(self) -> Optional[float]:
        """Firefight: the chance the target's last model ends Stunned (``None`` elsewhere)."""
        return self._p_flagged() if self.wound_effects else None

    @property
    def p_knocked_out(self) -> Optional[float]:
        """Firefight: the chance the target's last model is Knocked Out (``None`` elsewhere)."""
        return self.p_destroyed if self.wound_effects else None

    def to_pandas(self):
        """One row per count, one column per stage (needs pandas)."""
        from ._optional import pandas

        pd = pandas("to_pandas()")

        stages = {"hits": self.hits, "unblocked": self.unblocked, "wounds": self.wounds, "kills": self.kills, "remaining": self.remaining}
        n = max(len(d) for d in stages.values())
        data = {k: np.pad(d.pmf, (0, n - len(d))) for k, d in stages.items()}
        return pd.DataFrame(data, index=pd.RangeIndex(n, name="count"))

    def _repr_html_(self) -> str:
        from . import _display as d

        lines = [f"{self.method}: hits {self.hits.mean():.3g}, unblocked {self.unblocked.mean():.3g}, wounds {self.wounds.mean():.3g}, "
                 f"kills {self.kills.mean():.3g} of {self.size}",
                 f"P(destroyed) {self.p_destroyed:.4g}"
                 + ("" if self.p_morale_test is None else f", P(morale test) {self.p_morale_test:.4g}")]
        means = d.table(["stage", "mean", "P(≥ 1)"], [[name, d._num(getattr(self, name).mean()), d._num(getattr(self, name).at_least(1))]
                                                   for name in ("hits", "unblocked", "wounds", "kills")], [False, True, True])
        return d.block("Attack", lines, means, "<div>Models killed</div>", d.distribution_table(self.kills.pmf, stderr=self.kills.stderr),
                       notes=d.ignored_note(self.unmodelled))

    def __repr__(self) -> str:
        return (
            f"AttackResult({self.method}: hits {self.hits.mean():.3g}, unblocked {self.unblocked.mean():.3g}, "
            f"wounds {self.wounds.mean():.3g}, kills {self.kills.mean():.3g} of {self.size}, "
            f"P(destroyed)={self.p_destroyed:.4g}"
            + (f"; ignores {', '.join(self.unmodelled)}" if self.unmodelled else "")
            + ")"
        )


def attack(
    attacker: Union[Unit, Spell],
    target: Unit,
    *,
    weapons: Optional[Iterable[str]] = None,
    melee: bool = False,
    distance: float = 12.0,
    charging: bool = False,
    cover: bool = False,
    moved: bool = False,
    target_moved: bool = False,
    fatigued: bool = False,
    attacker_state: Optional[UnitState] = None,
    target_state: Optional[UnitState] = None,
    edition: str = "3.5",
    method: str = "exact",
    samples: int = 100_000,
    seed: SeedLike = None,
    threads: Optional[int] = None,
) -> AttackResult:
    """The distribution of every stage of ``attacker`` shooting at (or fighting) ``target``.

    ``weapons=None`` uses every weapon usable in that mode (ranged weapons in range when
    shooting, melee weapons in melee); a list picks weapons by name. ``distance`` is in
    inches (for melee: the charge distance, which decides rules such as Sturdy). ``moved``:
    the attacker moved before shooting (``False``: a Hold action, which v3.4.1 and Firefight
    Relentless need); ``target_moved``: the target moved since its last activation (v3.4.1
    Entrenched). ``edition`` picks the rulebook (see :func:`oprstats.editions`).
    ``attacker_state`` and ``target_state`` (:class:`UnitState`) start either unit damaged,
    Shaken or fatigued; a Shaken attacker may only strike back in melee, as fatigued.
    ``method="exact"`` gives exact probabilities; ``"sample"`` rolls the dice ``samples``
    times, reproducibly for a given ``seed`` whatever ``threads``.

    ``attacker`` may also be a damage :class:`Spell` of an army book (``book.spells[name]``):
    its hits on ``target``, with no roll to hit and no cover (a spell is not a shot); the
    arguments about the attacker, its weapons and its move do not apply to it.
    """
    if isinstance(attacker, Spell):
        if not isinstance(target, Unit):
            raise TypeError(f"target: expected a Unit, got {type(target).__name__}")
        given = dict(weapons=weapons is not None, melee=melee is not False, charging=charging is not False,
                     cover=cover is not False, moved=moved is not False, target_moved=target_moved is not False,
                     fatigued=fatigued is not False, attacker_state=attacker_state is not None)
        for name, set_ in given.items():
            if set_:
                raise ValueError(f"{name}: does not apply to a spell ({attacker.name!r} is cast, not shot)")
    else:
        for name, value in (("attacker", attacker), ("target", target)):
            if not isinstance(value, Unit):
                expected = "a Unit or a Spell" if name == "attacker" else "a Unit"
                raise TypeError(f"{name}: expected {expected}, got {type(value).__name__}")
    if weapons is not None:
        if isinstance(weapons, str):
            raise TypeError("weapons: expected a list of weapon names, not a single string")
        weapons = list(weapons)
        for w in weapons:
            if not isinstance(w, str):
                raise TypeError(f"weapons item: expected a str, got {type(w).__name__}")
    if type(distance) is not float or not 0.0 <= distance < math.inf:  # the common case inline: a plain float
        distance = check_distance(distance)
    if not (melee.__class__ is bool and charging.__class__ is bool and cover.__class__ is bool and moved.__class__ is bool
            and target_moved.__class__ is bool and fatigued.__class__ is bool):
        melee, charging, cover, moved, target_moved, fatigued = (
            check_flag(name, flag) for name, flag in zip(_FLAG_NAMES, (melee, charging, cover, moved, target_moved, fatigued)))
    if method != "exact" or type(samples) is not int or not 1 <= samples <= _MAX_SAMPLES or threads is not None:
        check_run_args(method, samples, threads)
    # positional, in the binding's order: weapons, melee, distance, charging, cover, moved,
    # target_moved, fatigued, attacker_state, target_state, edition, method, samples, seed, threads
    raw = _core._attack(
        attacker, target, weapons, melee, distance, charging, cover, moved, target_moved, fatigued,
        _FRESH_TUPLE if attacker_state is None else state_arg("attacker_state", attacker_state)._tuple(),
        _FRESH_TUPLE if target_state is None else state_arg("target_state", target_state)._tuple(),
        edition, method, int(samples), seed_to_u64(seed) if method == "sample" else 0, None if threads is None else int(threads),
    )
    result = AttackResult(raw, method, melee)
    if not result.groups and isinstance(attacker, Unit):  # no weapon attacked: say why rather than return zeros silently
        _why_no_weapon(attacker, weapons, melee, distance)
    return result


def shooting_gap(weapons: Iterable[Any], distance: float) -> Optional[str]:
    """Why none of ``weapons`` shoots at ``distance`` (none is ranged, or none reaches), or
    ``None`` when one does: what a result of zeros is then said to come from."""
    reach = max((w.range or 0 for w in weapons), default=0)
    if not reach:
        return "has no ranged weapon"
    return f'has no weapon that reaches {distance:g}" (the longest reaches {reach}")' if reach < distance else None


def _why_no_weapon(attacker: Unit, weapons: Optional[list], melee: bool, distance: float) -> None:
    """A named weapon that cannot attack this way is an error; a unit with no weapon for it,
    or none in range, a warning (the zeros are then the honest answer)."""
    chosen = [w for w in attacker.weapons if weapons is None or w.name in weapons]
    usable = [w for w in chosen if (w.range is None) == melee]
    if weapons is not None and chosen and not usable:
        names = ", ".join(dict.fromkeys(w.name for w in chosen))
        raise ValueError(f"weapons: {names} of {attacker.name}: "
                         + ("ranged weapons do not strike in melee" if melee else "melee weapons strike only in melee (melee=True)"))
    if melee:
        if not usable:
            warnings.warn(f"attack: {attacker.name} has no melee weapon, so it deals nothing in melee", stacklevel=3)
        return
    gap = shooting_gap(chosen, distance)
    if gap is not None:
        hint = "; pass melee=True for its melee attacks" if not usable and any(w.range is None for w in attacker.weapons) else ""
        warnings.warn(f"attack: {attacker.name} {gap}, so it deals nothing shooting{hint}", stacklevel=3)


class AttackTable:
    """Every attacker against every target at once (:func:`attack_table`): exact means as
    ``[attacker, target]`` arrays.

    ``hits``, ``wounds`` and ``kills`` are expected values, ``p_destroyed`` the chance the
    target is destroyed, ``p_morale_test`` the chance it must test after the shooting (NaN in
    melee and in Firefight, which has wound effects instead). ``unmodelled`` maps ``(attacker
    index, target index)`` to the rules of that pair the attack does not model (pairs with
    none are left out).
    """

    __slots__ = ("attackers", "targets", "melee", "distance", "hits", "wounds", "kills", "p_destroyed", "p_morale_test", "unmodelled")
    # set from the core's arrays in __init__ (read-only [attacker, target] arrays)
    hits: np.ndarray
    wounds: np.ndarray
    kills: np.ndarray
    p_destroyed: np.ndarray
    p_morale_test: np.ndarray

    def __init__(self, attackers: tuple, targets: tuple, melee: bool, distance: float, raw: dict) -> None:
        self.attackers: tuple = attackers
        self.targets: tuple = targets
        self.melee = melee
        self.distance = distance
        for name in ("hits", "wounds", "kills", "p_destroyed", "p_morale_test"):
            arr = raw[name]
            arr.flags.writeable = False
            setattr(self, name, arr)
        nt = len(targets)
        self.unmodelled: dict = {(i // nt, i % nt): tuple(u) for i, u in enumerate(raw["unmodelled"]) if u}

    def to_pandas(self):
        """One row per pair: attacker, target and each measure (needs pandas)."""
        from ._optional import pandas

        pd = pandas("to_pandas()")

        na, nt = len(self.attackers), len(self.targets)
        data = {"attacker": np.repeat(np.array(self.attackers, dtype=object), nt), "target": np.tile(np.array(self.targets, dtype=object), na)}
        for name in ("hits", "wounds", "kills", "p_destroyed", "p_morale_test"):
            data[name] = getattr(self, name).ravel()
        return pd.DataFrame(data)

    def __repr__(self) -> str:
        how = "melee" if self.melee else f'shooting at {self.distance:g}"'
        ignored = sorted({r for rules in self.unmodelled.values() for r in rules})
        return (f"AttackTable({len(self.attackers)} attackers x {len(self.targets)} targets, {how}: "
                f"mean kills {float(self.kills.mean()) if self.kills.size else 0.0:.3g}"
                + (f"; ignores {', '.join(ignored)}" if ignored else "") + ")")

    def _repr_html_(self) -> str:
        """Expected kills, attackers down and targets across (up to 15 x 15; a summary beyond)."""
        from . import _display as d

        how = "melee" if self.melee else f'shooting at {self.distance:g}"'
        na, nt = len(self.attackers), len(self.targets)
        parts = []
        if na * nt and na <= 15 and nt <= 15:
            rows = [[self.attackers[a]] + [d._num(x) for x in self.kills[a]] for a in range(na)]
            parts.append(d.table(["expected kills"] + list(self.targets), rows, [False] + [True] * nt))
        ignored = sorted({r for rules in self.unmodelled.values() for r in rules})
        lines = [f"{na} attackers x {nt} targets, {how}"] + ([] if parts else ["to_pandas() for the table"])
        return d.block("Attack table", lines, *parts, notes=d.ignored_note(ignored))


def attack_table(
    attackers: Iterable[Unit],
    targets: Iterable[Unit],
    *,
    melee: bool = False,
    distance: float = 12.0,
    charging: bool = False,
    cover: bool = False,
    moved: bool = False,
    edition: str = "3.5",
    threads: Optional[int] = None,
) -> AttackTable:
    """Each attacker attacking each fresh target once, exactly, in one call: the batched form of
    :func:`attack` for tables of matchups. The pairs run in parallel on ``threads`` (None: all
    cores) with the GIL released, and each cell equals ``attack(a, t, ...)``'s means. Every
    pair is checked before any is computed; a bad one is named by its indices.
    """
    lists = []
    for name, units in (("attackers", attackers), ("targets", targets)):
        if isinstance(units, (Unit, str, bytes)):
            raise TypeError(f"{name}: expected a list of Units, got a single {type(units).__name__}")
        units = list(units)
        for i, u in enumerate(units):
            if not isinstance(u, Unit):
                raise TypeError(f"{name}[{i}]: expected a Unit, got {type(u).__name__}")
        lists.append(units)
    attackers, targets = lists
    distance = check_distance(distance)
    melee, charging, cover, moved = (check_flag(n, f) for n, f in (("melee", melee), ("charging", charging), ("cover", cover), ("moved", moved)))
    check_threads(threads)
    raw = _core._attack_table(attackers, targets, melee, distance, charging, cover, moved, edition, None if threads is None else int(threads))
    return AttackTable(tuple(u.name for u in attackers), tuple(u.name for u in targets), melee, distance, raw)
