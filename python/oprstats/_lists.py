"""``random_lists``: legal army lists drawn from a book as players build them (docs/factions.md).

A list is drawn unit by unit among the book's units that still fit the game size and the
force organisation rules of gf-3.5 ("Only 1 hero per 500pts", "Only 1+X copies of the same
unit, where X is 1 per 1000pts", "No single unit worth over 35% of total points", "Only 1 unit
per 200pts"), each unit with some of its upgrades, heroes joined to units; points left over
are spent on more upgrades, as a player tops a list up. Lists that end far below the game
size are drawn again. Every list passes :func:`validate_list`.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any, Optional

import numpy as np

from ._attack import seed_sequence, shown
from ._core import Army, ArmyBook, Unit
from ._attack import LIMITS
from ._validate import ForceOrganisation, force_organisation_of, is_hero, validate_list

#: The most lists one call draws: each is a few hundred small draws in Python.
MAX_LISTS = 10_000
#: Draws of a whole list before a book is found unable to fill the game size.
MAX_ATTEMPTS = 200


@dataclass(frozen=True)
class ListWeights:
    """How a list is drawn (docs/factions.md, "Drawn lists").

    ``upgrade_share``: the chance each upgrade section of a drawn unit is taken (one of its
    options, equally likely); ``join_share``: the chance each hero that may join a unit is
    joined to one (equally likely among those it may join); ``fill``: the share of the game
    size a list must reach, or it is drawn again (players rarely leave more than 5% unspent).
    """

    upgrade_share: float = 0.5
    join_share: float = 0.5
    fill: float = 0.95


class _Draw:
    """One list being drawn: its selections and what the force organisation still allows."""

    def __init__(self, book: ArmyBook, points: int, sections_of: dict, rules: ForceOrganisation):
        self.book, self.points, self.rules = book, points, rules
        # each book unit's upgrade sections, shared by every draw of a call (by the unit's id)
        self.sections_of = sections_of
        self.units: list[Unit] = []
        # each selection's unit as the book gives it: options are taken on it by label
        self.bases: list[Unit] = []
        self.labels: list[list[str]] = []
        self.spent = 0
        self.heroes = 0
        self.copies: dict[str, int] = {}
        self.largest = rules.largest_unit_percent * points  # in hundredths of a point, as validate_list
        self.most_heroes = points // rules.points_per_hero
        self.most_copies = 1 + points // rules.points_per_extra_copy
        self.most_units = points // rules.points_per_unit
        # Firefight's "Only 1 model per 20pts" (None: no such limit)
        self.most_models = None if rules.points_per_model is None else points // rules.points_per_model
        self.models = 0

    def fits(self, unit: Unit, cost: int) -> bool:
        return (len(self.units) < self.most_units and self.spent + cost <= self.points and cost * 100 <= self.largest
                and self.copies.get(unit.name, 0) < self.most_copies and (not is_hero(unit) or self.heroes < self.most_heroes)
                and self.models_fit(unit.size))

    def models_fit(self, more: int) -> bool:
        return self.most_models is None or self.models + more <= self.most_models

    def add(self, unit: Unit) -> None:
        self.units.append(unit)
        self.bases.append(unit)
        self.labels.append([])
        self.spent += unit.cost or 0
        self.models += unit.size
        self.heroes += is_hero(unit)
        self.copies[unit.name] = self.copies.get(unit.name, 0) + 1

    def sections(self, base: Unit) -> dict[str, list[str]]:
        """The unit's upgrade sections, each with its options' labels (as ``book.loadout`` takes
        them), read from the book once a call."""
        out = self.sections_of.get(id(base))
        if out is None:
            out = {}
            for option in self.book.upgrades(base):
                out.setdefault(option.section, []).append(f"{option.section}: {option.label}")
            self.sections_of[id(base)] = out
        return out

    def upgraded(self, k: int, label: str) -> Optional[Unit]:
        """Unit ``k`` with one more option, if it fits the loadout, the points and the 35%."""
        try:
            unit = self.book.loadout(self.bases[k], self.labels[k] + [label])
        except ValueError:
            return None
        # free options and those that save points are drawn too (131 and 27 in the books)
        extra = (unit.cost or 0) - (self.units[k].cost or 0)
        if self.spent + extra > self.points or (unit.cost or 0) * 100 > self.largest or not self.models_fit(unit.size - self.units[k].size):
            return None
        return unit

    def take(self, k: int, label: str, unit: Unit) -> None:
        self.spent += (unit.cost or 0) - (self.units[k].cost or 0)
        self.models += unit.size - self.units[k].size
        self.units[k] = unit
        self.labels[k].append(label)


def _draw_once(book: ArmyBook, points: int, rng: np.random.Generator, weights: ListWeights, catalogue: list[Unit],
               sections_of: dict) -> Optional[_Draw]:
    draw = _Draw(book, points, sections_of, force_organisation_of(book.edition))
    # units, each equally likely among those that still fit
    while True:
        fitting = [u for u in catalogue if draw.fits(u, u.cost or 0)]
        if not fitting:
            break
        unit = fitting[int(rng.integers(len(fitting)))]
        draw.add(unit)
        k = len(draw.units) - 1
        for section, labels in draw.sections(unit).items():
            if rng.random() < weights.upgrade_share:
                label = labels[int(rng.integers(len(labels)))]
                upgraded = draw.upgraded(k, label)
                if upgraded is not None:
                    draw.take(k, label, upgraded)
    # the points left over, spent on more upgrades until none fits: each option of a section
    # not taken yet, on any unit, equally likely
    open_options = [(k, label) for k, u in enumerate(draw.bases) for section, labels in draw.sections(u).items()
                    if not any(x.startswith(section + ": ") for x in draw.labels[k]) for label in labels]
    while open_options:
        i = int(rng.integers(len(open_options)))
        k, label = open_options.pop(i)
        section = label.split(": ", 1)[0]
        if any(x.startswith(section + ": ") for x in draw.labels[k]):
            continue
        upgraded = draw.upgraded(k, label)
        if upgraded is not None:
            draw.take(k, label, upgraded)
    if not draw.units or draw.spent < weights.fill * points:
        return None
    return draw


def _join_heroes(draw: _Draw, rng: np.random.Generator, weights: ListWeights) -> list[Unit]:
    """The drawn units with heroes joined: each hero that may join a unit joins one with
    ``join_share``, the unit equally likely among those it may join (one hero a unit); none
    where the edition's heroes never join (Firefight)."""
    units = list(draw.units)
    if not draw.rules.heroes_join:
        return units
    heroes = [k for k, u in enumerate(units) if is_hero(u)]
    taken: set[int] = set()
    joined: dict[int, int] = {}
    for h in heroes:
        if rng.random() >= weights.join_share:
            continue
        hosts = []
        for k, u in enumerate(units):
            if k in taken or k in heroes:
                continue
            try:
                u.join(units[h])
            except ValueError:
                continue
            hosts.append(k)
        if hosts:
            k = hosts[int(rng.integers(len(hosts)))]
            taken.add(k)
            joined[h] = k
    out = []
    for k, u in enumerate(units):
        if k in joined:
            continue
        hero = next((h for h, host in joined.items() if host == k), None)
        out.append(u if hero is None else u.join(units[hero]))
    return out


def check_points(points: Any, edition: str = "3.5") -> None:
    """A game size lists are drawn for: from one unit's worth (200 pts; Firefight's 30) to
    what a game holds."""
    per_unit = force_organisation_of(edition).points_per_unit
    most = per_unit * LIMITS["MAX_GAME_UNITS"]
    if isinstance(points, bool) or not isinstance(points, numbers.Integral) or not per_unit <= int(points) <= most:
        raise ValueError(f"points: must be a whole number of points from {per_unit} to {most:,} (got {shown(points)})")


def random_lists(book: ArmyBook, *, points: int = 2000, n: int = 1, seed: Any = None, upgrade_share: float = 0.5,
                 join_share: float = 0.5, fill: float = 0.95) -> list[Army]:
    """``n`` army lists of ``points`` drawn from ``book`` as players build them, each passing
    :func:`validate_list` with the force organisation rules.

    Units are drawn one at a time, each equally likely among the book's units that still fit
    (the points left, 1 hero per 500 pts, 1 + 1 per 1000 pts copies, no unit over 35%, 1 unit
    per 200 pts; a Firefight book's by Firefight's: 1 hero per 150 pts, 1 + 1 per 150 pts
    copies, 35%, 1 unit per 30 pts, 1 model per 20 pts, and no joined heroes); each upgrade section of a drawn unit is taken with ``upgrade_share`` (one of
    its options, equally likely); the points left are then spent on more upgrades; each hero
    that may join a unit joins one with ``join_share``. A list under ``fill`` of the game size
    is drawn again. ``seed``: an int, a ``numpy.random.SeedSequence`` or None; the same seed
    draws the same lists. Combined units are not drawn. docs/factions.md gives the reasons.
    """
    if not isinstance(book, ArmyBook):
        raise TypeError(f"book: expected an oprstats.ArmyBook, got {type(book).__name__}")
    check_points(points, book.edition)
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or not 1 <= n <= MAX_LISTS:
        raise ValueError(f"n: must be a whole number of lists from 1 to {MAX_LISTS:,} (got {shown(n)})")
    for name, value, low in (("upgrade_share", upgrade_share, 0.0), ("join_share", join_share, 0.0), ("fill", fill, 0.0)):
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not low <= float(value) <= 1.0:
            raise ValueError(f"{name}: must be a share from 0 to 1 (got {shown(value)})")
    points = int(points)
    weights = ListWeights(float(upgrade_share), float(join_share), float(fill))
    catalogue = [u for u in book.units if u.cost]
    if not catalogue:
        raise ValueError(f"book: {book.name} has no unit with a points cost")
    rngs = [np.random.Generator(np.random.PCG64(s)) for s in seed_sequence(seed).spawn(int(n))]
    sections_of: dict = {}
    out = []
    for i, rng in enumerate(rngs):
        for _ in range(MAX_ATTEMPTS):
            draw = _draw_once(book, points, rng, weights, catalogue, sections_of)
            if draw is not None:
                break
        else:
            raise ValueError(f"points: {book.name} made no list of at least {fill:.0%} of {points:,} pts in {MAX_ATTEMPTS} draws; "
                             "lower fill= or change points=")
        army = Army(_join_heroes(draw, rng, weights), name=f"{book.name} #{i + 1}", points_limit=points)
        check = validate_list(army)
        if not check.ok:  # the draw keeps every rule: a broken one is a bug here
            raise AssertionError(f"random_lists drew an illegal list: {check!r}")
        out.append(army)
    return out
