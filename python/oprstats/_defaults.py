"""Defaults on their way to change and argument names on their way out (issue 44): each
keeps its old behaviour for one release and says so with a warning."""

from __future__ import annotations

import warnings
from typing import Any


class _Unset:
    """A default that stands for "not given": the function decides what it means, and its
    repr says so in ``help()`` and ``inspect.signature``."""

    __slots__ = ("_name", "_text")

    def __init__(self, name: str, text: str) -> None:
        self._name, self._text = name, text

    def __repr__(self) -> str:
        return self._text

    def __reduce__(self) -> str:
        # the module's one object (its global ``name``), through a pickle too
        return self._name


#: ``seed=`` not given to a function whose seed was 0 by default: still 0, with a
#: FutureWarning, for one release; then None (fresh entropy), as in simulate and duel.
SEED_UNSET = _Unset("SEED_UNSET", "<not given: 0 for now, None (fresh entropy) in a later release>")

#: A deprecated argument not given.
NOT_GIVEN = _Unset("NOT_GIVEN", "<not given>")


def seed_or_zero(seed: Any, caller: str, stacklevel: int) -> Any:
    """``seed``, or 0 with a FutureWarning when the caller gave none (``SEED_UNSET``).
    ``stacklevel`` points the warning at the caller's line."""
    if seed is not SEED_UNSET:
        return seed
    warnings.warn(f"{caller}: seed will default to None (fresh entropy) in a later release, as in simulate and duel; "
                  "pass seed=0 to keep these numbers, or seed=None for fresh ones", FutureWarning, stacklevel=stacklevel + 1)
    return 0


class Default(float):
    """A number default a function can tell from the same number given (``value is
    DEFAULT``), so that an old name given with the new one is an error only when both were."""

    __slots__ = ()

    def __repr__(self) -> str:
        return float.__repr__(self)

    def __reduce__(self) -> tuple:
        return (float, (float(self),))


def renamed(caller: str, old: str, old_value: Any, new: str, new_value: Any, default: Any, why: str, stacklevel: int) -> tuple[Any, str]:
    """The value of an argument renamed from ``old`` to ``new``, and the name the caller gave
    it by (for messages): ``old=`` works with a DeprecationWarning; both is a TypeError.
    ``stacklevel`` points the warning at the caller's line."""
    if old_value is NOT_GIVEN:
        return new_value, new
    if new_value is not default:
        raise TypeError(f"{caller}: give {new}= only ({old}= is its old name)")
    warnings.warn(f"{caller}: {old}= is now {new}= ({why}); {old}= goes in a later release",
                  DeprecationWarning, stacklevel=stacklevel + 1)
    return old_value, old
