"""``validate_list``: an army list against the army-building rules of its edition: gf-3.5's
beginners' guide ("Preparing your army" and the optional "Force organisation"), or Firefight
v3.2's ("Preparing your Army", "Force Organisation (Optional)")."""

from __future__ import annotations

import os
import warnings
from collections import Counter
from dataclasses import dataclass
from typing import Any, Optional

from . import _core
from ._attack import LIMITS, shown
from ._core import Army, Unit

# The largest game size: a list holds at most MAX_ARMY_UNITS units of at most MAX_COST points
# (a larger one made shares of it past a float's range: 10**400 was an OverflowError).
MAX_GAME_POINTS = LIMITS["MAX_ARMY_UNITS"] * LIMITS["MAX_COST"]


@dataclass(frozen=True)
class ForceOrganisation:
    """An edition's force organisation: points per hero, per extra copy of a unit, per unit
    and per model (None: no limit), the largest share of the points one unit may be worth,
    and whether heroes may join units (a rule of the game, checked with or without the force
    organisation)."""

    points_per_hero: int
    points_per_extra_copy: int
    largest_unit_percent: int
    points_per_unit: int
    points_per_model: Optional[int]
    heroes_join: bool


# gf-3.5 "FORCE ORGANISATION (OPTIONAL)": "Only 1 hero per 500pts", "Only 1+X copies of the
# same unit, where X is 1 per 1000pts", "No single unit worth over 35% of total points",
# "Only 1 unit per 200pts". (v3.4.1's "Force Org." has the same numbers; v2.x lists are
# checked by these too.)
GF_3_5 = ForceOrganisation(500, 1000, 35, 200, None, heroes_join=True)
# gf-firefight-3.2 "Force Organisation (Optional)": "Only 1 hero per 150pts", "Only 1+X copies
# of the same unit, where X is 1 per 150pts", "No single unit worth over 35% of total
# points", "Only 1 unit per 30pts", "Only 1 model per 20pts". Its Hero rule lends the
# hero's Quality to "Friendly units within 12"" and has no joining: heroes never join.
FIREFIGHT_3_2 = ForceOrganisation(150, 150, 35, 30, 20, heroes_join=False)
FORCE_ORGANISATION = {"firefight-3.2": FIREFIGHT_3_2}

def force_organisation_of(edition: str) -> ForceOrganisation:
    """The force organisation of ``edition``'s lists (v3.5's where it has none of its own)."""
    return FORCE_ORGANISATION.get(edition, GF_3_5)


# The v3.5 numbers by their old names.
POINTS_PER_HERO = GF_3_5.points_per_hero
POINTS_PER_EXTRA_COPY = GF_3_5.points_per_extra_copy
LARGEST_UNIT_PERCENT = GF_3_5.largest_unit_percent
POINTS_PER_UNIT = GF_3_5.points_per_unit

#: Two armies whose points differ by more than this share of the larger are warned about:
#: the games then measure the lists' sizes as much as their units.
UNEQUAL_POINTS_SHARE = 0.10


@dataclass(frozen=True)
class ListProblem:
    """One broken rule: which (``"points"``, ``"heroes"``, ``"copies"``, ``"unit share"``,
    ``"units"``, and in Firefight ``"models"`` and ``"joined hero"``), what the list has,
    what the rule allows, and a sentence saying so."""

    rule: str
    found: float
    allowed: float
    message: str


@dataclass(frozen=True)
class ListCheck:
    """What :func:`validate_list` found: ``ok`` when no rule is broken; ``problems`` names each."""

    name: str
    points: int
    limit: int
    force_organisation: bool
    problems: tuple[ListProblem, ...]
    #: The edition whose army-building rules were applied.
    edition: str = "3.5"

    @property
    def ok(self) -> bool:
        return not self.problems

    def __bool__(self) -> bool:
        return self.ok

    def __repr__(self) -> str:
        head = f"ListCheck({self.name or 'army'}: {self.points} of {self.limit} pts"
        if self.ok:
            return head + (", force organisation kept)" if self.force_organisation else ", within the limit)")
        return head + "; " + "; ".join(p.message for p in self.problems) + ")"

    def _repr_html_(self) -> str:
        from . import _display as d

        lines = [f"{self.points:,} of {self.limit:,} pts" + (", with the force organisation rules" if self.force_organisation else "")]
        if self.ok:
            lines.append("no rule broken")
        rows = [[p.rule, d._num(p.found), d._num(p.allowed), p.message] for p in self.problems]
        parts = [d.table(["rule", "found", "allowed", "problem"], rows, [False, True, True, False])] if rows else []
        return d.block(f"List check: {self.name or 'army'}", lines, *parts)


@dataclass(frozen=True)
class _Selection:
    """One entry of the list as it was bought: a unit, or a hero joined to one."""

    name: str
    cost: int
    hero: bool


def is_hero(unit: Unit) -> bool:
    """Whether a selection counts against "Only 1 hero per 500pts": a unit of Hero models."""
    return any(m.is_hero for m in unit.models)


def _selections(army: Army) -> list[_Selection]:
    """The list's selections: a joined hero is its own selection beside its unit."""
    out = []
    for u in army.units:
        hero = u.hero
        if hero is not None:
            out.append(_Selection(hero.name, hero.cost or 0, True))
            out.append(_Selection(u.name, (u.cost or 0) - (hero.cost or 0), False))
        else:
            out.append(_Selection(u.name, u.cost or 0, is_hero(u)))
    return out


def validate_list(army: Any, *, points: Optional[int] = None, force_organisation: bool = True,
                  edition: Optional[str] = None) -> ListCheck:
    """Checks an army list against the army-building rules of its edition.

    Always: the units' points do not go over the game size ("as long as their point cost
    doesn't go over the agreed total game size"). With ``force_organisation`` (the optional
    rules most events use), in Grimdark Future (gf-3.5's beginners' guide): at most 1 hero
    per 500 points, 1 + 1 per 1000 points copies of the same unit, no unit worth over 35% of
    the game size, and 1 unit per 200 points. In Firefight v3.2: 1 hero per 150 points,
    1 + 1 per 150 points copies, 35%, 1 unit per 30 points and 1 model per 20 points; and,
    with or without the force organisation, no hero joined to a unit (Firefight's heroes
    never join).

    ``army``: an :class:`Army`, or a path to (or the text of) a list. ``points``: the game
    size; by default the list's own limit (``[GF 2000pts]`` in its header). ``edition``: whose
    rules; by default the list's (``Army.edition``; a ``[GFF ...]`` list is Firefight's). A
    hero joined to a unit is its own selection: it counts as a hero and as a unit, and its
    points are not the unit's (docs/loading.md gives the reading). Copies are units of the
    same name, with any upgrades; a combined unit is one unit.
    """
    from ._attack import check_flag
    from ._loaders import load_army_list, read_text

    force_organisation = check_flag("force_organisation", force_organisation)
    if not isinstance(army, Army):
        if isinstance(army, (str, os.PathLike)):
            army = load_army_list(read_text(army, "army"), edition=edition)
        else:
            raise TypeError(f"army: expected an oprstats.Army or a path to (or the text of) a list, got {type(army).__name__}")
    if points is None:
        points = army.points_limit
        if points is None:
            raise ValueError("points: the list names no points limit; pass points= (the game size)")
    if isinstance(points, bool) or not isinstance(points, int) or not 0 < points <= MAX_GAME_POINTS:
        raise ValueError(f"points: must be a whole number of points from 1 to {MAX_GAME_POINTS:,} (got {shown(points)})")
    if edition is None:
        edition = army.edition
    elif not isinstance(edition, str):
        raise TypeError(f"edition: expected an edition key such as '3.5', got {type(edition).__name__}")
    else:
        edition = _core._edition_key(edition)  # the key of an alias ("firefight"); a ValueError naming the editions for an unknown one
    rules = force_organisation_of(edition)
    selections = _selections(army)
    problems = []
    total = army.points
    if total > points:
        problems.append(ListProblem("points", total, points, f"{total:,} pts is over the game size of {points:,}"))
    if not rules.heroes_join:
        for u in army.units:
            if u.hero is not None:
                problems.append(ListProblem("joined hero", 1, 0, f"{u.hero.name} is joined to {u.base.name}: heroes never join "
                                            f"units in {edition} (each is a unit of its own)"))
    if force_organisation:
        heroes = sum(s.hero for s in selections)
        most_heroes = points // rules.points_per_hero
        if heroes > most_heroes:
            problems.append(ListProblem("heroes", heroes, most_heroes, f"{heroes} heroes, at most {most_heroes} at {points:,} pts"))
        most_copies = 1 + points // rules.points_per_extra_copy
        for name, n in Counter(s.name for s in selections).items():
            if n > most_copies:
                problems.append(ListProblem("copies", n, most_copies, f"{n} copies of {name}, at most {most_copies}"))
        # in whole numbers: 35% of 1400 is 490 exactly, which a float product misses
        share = rules.largest_unit_percent
        largest = share * points / 100
        for s in selections:
            if s.cost * 100 > share * points:
                problems.append(ListProblem("unit share", s.cost, largest,
                                            f"{s.name} is {s.cost} pts, over {share}% of {points:,} ({largest:g} pts)"))
        most_units = points // rules.points_per_unit
        if len(selections) > most_units:
            problems.append(ListProblem("units", len(selections), most_units, f"{len(selections)} units, at most {most_units}"))
        if rules.points_per_model is not None:
            models = sum(u.size for u in army.units)
            most_models = points // rules.points_per_model
            if models > most_models:
                problems.append(ListProblem("models", models, most_models, f"{models} models, at most {most_models} at {points:,} pts"))
    return ListCheck(army.name, total, points, force_organisation, tuple(problems), edition)


def warn_over_limit(army: Army, stacklevel: int = 3) -> None:
    """A list whose units cost more than its own points limit is warned about."""
    limit = army.points_limit
    if limit is not None and army.points > limit:
        warnings.warn(f"{army.name or 'the list'}: its units cost {army.points:,} pts, over its own limit of {limit:,} pts "
                      "(oprstats.validate_list checks every army-building rule)", stacklevel=stacklevel)


def warn_unequal(points_a: float, points_b: float, stacklevel: int = 3) -> None:
    """Armies of very different points are warned about: the result measures the sizes too."""
    larger = max(points_a, points_b)
    if larger > 0 and abs(points_a - points_b) > UNEQUAL_POINTS_SHARE * larger:
        warnings.warn(f"armies: army A is {points_a:,.0f} pts and army B {points_b:,.0f} pts, more than "
                      f"{UNEQUAL_POINTS_SHARE:.0%} apart; the result measures the armies' sizes as well as their units",
                      stacklevel=stacklevel)
