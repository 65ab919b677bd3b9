"""Units as table rows, for the CLI and for pandas."""

from __future__ import annotations

from typing import Any, Iterable

from ._core import Unit

COLUMNS = ("name", "size", "quality", "defense", "tough", "cost", "weapons", "rules")
# How a table of units heads its columns, and which are numbers.
HEADERS = {"name": "Unit", "size": "Size", "quality": "Q", "defense": "D", "tough": "Tough", "cost": "Cost", "weapons": "Weapons", "rules": "Rules"}
NUMERIC = frozenset({"size", "quality", "defense", "tough", "cost"})


def unit_cell(column: str, value: Any) -> str:
    """A unit row's value as a table shows it: Quality and Defense as 4+."""
    return "" if value is None else f"{value}+" if column in ("quality", "defense") else str(value)


def unit_rows(units: Iterable[Unit]) -> list[dict[str, Any]]:
    """One dict per unit: name, size, Q, D, Tough, cost, weapons and rules as text.

    A joined hero's weapons and rules follow the unit's own after ``| Hero name:``.
    """
    rows = []
    for unit in units:
        weapons = ", ".join(str(w) for w in unit.base.weapons)
        rules = ", ".join(unit.rules)
        hero = unit.hero
        if hero is not None:
            weapons += f" | {hero.name}: " + ", ".join(str(w) for w in hero.weapons)
            rules += f" | {hero.name}: " + ", ".join(hero.rules)
        rows.append(
            {
                "name": unit.name if hero is None else f"{unit.name} + {hero.name}",
                "size": unit.size,
                "quality": unit.quality,
                "defense": unit.defense,
                "tough": unit.tough,
                "cost": unit.cost,
                "weapons": weapons,
                "rules": rules,
            }
        )
    return rows


def units_frame(units: Iterable[Unit]):
    """The rows of :func:`unit_rows` as a ``pandas.DataFrame`` (needs ``oprstats[pandas]``)."""
    from ._optional import pandas

    pd = pandas("units_frame()")
    return pd.DataFrame(unit_rows(units), columns=list(COLUMNS))
