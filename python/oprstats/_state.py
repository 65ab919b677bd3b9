"""``UnitState``: what has happened to a unit so far, so that questions can be chained."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

_INTS = (int, np.integer)
_MAX = 2**32 - 1


@dataclass(frozen=True)
class UnitState:
    """A unit's condition at some moment of a round.

    ``models_lost``: models already removed, in the defender's removal order (models without
    Tough first, then lower Tough, the most common loadout first, a joined hero last).
    ``wounds``: wounds on the next model to be removed. ``hero_wounds``: wounds a joined hero
    took out of that order (from Takedown) while other models were left. ``shaken``: the
    unit is Shaken. ``fatigued``: it already attacked in melee this round.
    """

    models_lost: int = 0
    wounds: int = 0
    hero_wounds: int = 0
    shaken: bool = False
    fatigued: bool = False

    def __post_init__(self) -> None:
        for name in ("models_lost", "wounds", "hero_wounds"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, _INTS):
                raise TypeError(f"{name}: expected an int, got {type(value).__name__}")
            if value < 0:
                raise ValueError(f"{name}: must be 0 or more (got {value})")
            if value > _MAX:
                from ._attack import shown  # imported here: _attack imports this module

                raise ValueError(f"{name}: {shown(value)} is over the limit of {_MAX} this library accepts")
            object.__setattr__(self, name, int(value))
        for name in ("shaken", "fatigued"):
            value = getattr(self, name)
            if value is not True and value is not False and not isinstance(value, np.bool_):
                raise TypeError(f"{name}: expected True or False, got {type(value).__name__}")
            object.__setattr__(self, name, bool(value))

    def _tuple(self) -> tuple:
        return (self.models_lost, self.wounds, self.hero_wounds, self.shaken, self.fatigued)

    @classmethod
    def _from_tuple(cls, t) -> "UnitState":
        """From the core's own (already valid) tuple, without checking it again."""
        obj = object.__new__(cls)
        for name, value in zip(("models_lost", "wounds", "hero_wounds", "shaken", "fatigued"), t):
            object.__setattr__(obj, name, value)
        return obj


FRESH = UnitState()


def states_from_arrays(ends) -> tuple:
    """``((UnitState, p), ...)`` from the core's ``(n × 5 state array, probabilities)``."""
    states, p = ends
    return tuple((UnitState._from_tuple((int(a), int(b), int(c), bool(d), bool(e))), float(q))
                 for (a, b, c, d, e), q in zip(states.tolist(), p.tolist()))


def state_arg(name: str, value) -> UnitState:
    """A ``UnitState`` argument: ``None`` is a fresh unit."""
    if value is None:
        return FRESH
    if not isinstance(value, UnitState):
        raise TypeError(f"{name}: expected an oprstats.UnitState or None, got {type(value).__name__}")
    return value
