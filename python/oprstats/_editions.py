"""The rulebooks the library knows, and the core rules of each."""

from __future__ import annotations

from typing import NamedTuple

from . import _core

DEFAULT_EDITION = "3.5"


class Edition(NamedTuple):
    key: str
    """What ``edition=`` takes, e.g. ``"3.5"``."""
    title: str
    source: str
    """The rulebook text the edition follows (in ``shared/rules/``)."""
    rules: tuple[str, ...]
    """The core special rules of the edition, ``(X)`` for rules that take a rating."""


def known_rules(edition: str = DEFAULT_EDITION) -> tuple[tuple[str, bool, str], ...]:
    """``(name, takes_rating, "unit" | "weapon")`` for each core rule of ``edition``."""
    return tuple(_core._known_rules(edition))


def known_rule_names(edition: str = DEFAULT_EDITION) -> tuple[str, ...]:
    """Every rule name the library knows under ``edition``: the core rules and, for v3.5,
    every army-book rule it models or lists as not modelled. A unit or weapon with any other
    name (that its own book does not define) gives an :class:`UnknownRuleWarning`."""
    return tuple(_core._known_rule_names(edition))


def editions() -> tuple[Edition, ...]:
    """Every supported edition, the default (current) one first."""
    out = []
    for key, title, source in _core._editions():
        rules = tuple(f"{name}(X)" if rated else name for name, rated, _ in _core._known_rules(key))
        out.append(Edition(key, title, source, rules))
    return tuple(out)
