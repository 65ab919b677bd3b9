"""Strict mode: whether a rule name nobody defines is a warning or an error."""

from __future__ import annotations

from . import _core
from ._core import UnknownRuleWarning

__all__ = ["UnknownRuleWarning", "get_strict", "set_strict"]


def set_strict(strict: bool = True) -> bool:
    """Make ``strict=True`` the default of every path that builds units and weapons
    (``Unit``, ``Unit.parse``, ``Unit.join``, ``Weapon``, ``Weapon.parse``, ``load_army_list``,
    ``load_army_book``): a rule name neither the library nor the unit's book defines is then a
    ``ValueError`` rather than an :class:`UnknownRuleWarning`. An explicit ``strict=`` argument
    wins. The setting is process-wide; returns the one it replaces, so it can be restored."""
    if not isinstance(strict, bool):
        raise TypeError(f"strict: expected a bool, got {type(strict).__name__}")
    return _core._set_strict(strict)


def get_strict() -> bool:
    """The default :func:`set_strict` set (``False`` unless changed)."""
    return _core._get_strict()
