"""The rule census: every rule the army books define, which engines play it, and why not.

``rule_coverage(books)`` answers "how much of what these armies field does the library
model?", rule by rule, and :func:`unmodelled_share` gives the headline figure: the share of
official points in units that carry a rule with an effect on the table that some engine
ignores.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable, Optional, Sequence, Union

from . import _core
from ._core import ArmyBook, Unit
from ._editions import DEFAULT_EDITION

#: What a rule name is, in the census.
KINDS = ("core", "army", "unit", "weapon", "aura", "spell")

#: A rule carried by at least this share of a book's units is that army's rule.
ARMY_RULE_SHARE = 0.9


def _books(books) -> list[ArmyBook]:
    from ._loaders import load_army_book

    if isinstance(books, (ArmyBook, str, os.PathLike)):
        books = [books]
    out = []
    for i, b in enumerate(books):
        if isinstance(b, ArmyBook):
            out.append(b)
        elif isinstance(b, (str, os.PathLike)):
            out.append(load_army_book(b))
        else:
            raise TypeError(f"books[{i}]: expected an ArmyBook or a path, got {type(b).__name__}")
    if not out:
        raise ValueError("books: give at least one army book")
    return out


def unit_rule_names(unit: Unit) -> set[str]:
    """Names of every rule a unit carries: on its models and on their weapons."""
    names: set[str] = set()
    for model in unit.models:
        names.update(_name(r) for r in model.rules)
        for w in model.weapons:
            names.update(_name(r) for r in w.rules)
    return names


def _name(rule: str) -> str:
    return rule.split("(", 1)[0].strip()


@dataclass(frozen=True)
class Coverage:
    """One rule's census entry: the engines that play it, or why none does."""

    engines: tuple[str, ...]
    gap: Optional[str]
    reason: Optional[str]

    @property
    def modelled(self) -> bool:
        return bool(self.engines)

    @property
    def ignored_in_game(self) -> bool:
        """Whether something this rule does on the table is not played (list-building rules aside)."""
        return self.gap is not None and self.gap != "list building"


UNKNOWN = Coverage((), "in game", "no rulebook or army book the library knows defines this name")
#: A rule its own (homebrew) book defines that the library has no rows for.
BOOK_ONLY = Coverage((), "in game", "defined by its book only: the library has no rows for it, so no engine plays it")


def census(names: Iterable[str], *, edition: str = DEFAULT_EDITION) -> dict[str, Coverage]:
    """The census entry of each rule name (unknown names: not modelled, with that reason)."""
    names = list(dict.fromkeys(names))
    rows = _core._rule_census(names, edition=edition)
    return {n: (UNKNOWN if r is None else Coverage(tuple(r[0]), r[1], r[2])) for n, r in zip(names, rows)}


def rule_coverage(books, *, edition: Optional[str] = None):
    """One row per rule name the books define or their units carry, and per spell.

    Columns: ``rule``, ``kind`` (core, army, unit, weapon, aura, spell), ``books`` (how many
    define or use it), ``units`` (units carrying it on their default loadout), ``points``
    and ``share`` (official points of those units, and their share of all the books'
    points), ``modelled``, ``engines`` (attack, melee, morale, game), ``gap`` (what is not
    played: list building, spells, transport, in game) and ``reason``. Sorted by share.
    ``edition``: whose engines (default: the edition the books were read under, e.g.
    Firefight for Firefight books; all of them must share it).
    """
    from ._optional import pandas
    from ._points import measured_edition

    pd = pandas("rule_coverage()")

    books = _books(books)
    # the books' edition is their units' (a book's units are made under it)
    edition = measured_edition([u for b in books for u in b.units], edition, "books")
    core = {name for name, _, _ in _core._known_rules(edition)}
    total = 0
    defined: dict[str, set[str]] = {}
    carried: dict[str, list[tuple[str, int]]] = {}
    on_weapons: set[str] = set()
    army_rules: set[str] = set()
    spells: dict[str, set[str]] = {}
    kinds: dict[str, str] = {}
    played: dict[str, bool] = {}
    carried_by: dict[str, list[Unit]] = {}
    rules_of: dict[str, list[str]] = {}
    caster_points: dict[str, int] = {}
    for book in books:
        for name in book.special_rules:
            defined.setdefault(name.strip(), set()).add(book.name)
        for name, spell in book.spells.items():
            spells.setdefault(name, set()).add(book.name)
            kinds[name] = spell.kind
            played[name] = spell.played
            rules_of[name] = spell.rules
        counts: dict[str, int] = {}
        for uid, unit in zip(book.unit_ids, book.units):
            cost = unit.cost or 0
            total += cost
            unit_names = unit_rule_names(unit)
            for model in unit.models:
                for w in model.weapons:
                    on_weapons.update(_name(r) for r in w.rules)
            for n in unit_names:
                carried.setdefault(n, []).append((f"{book.uid}/{uid}", cost))
                if n in CASTER_RULES:
                    carried_by.setdefault(n, []).append(unit)
                counts[n] = counts.get(n, 0) + 1
            if "Caster" in unit_names or "Caster Group" in unit_names:
                caster_points[book.name] = caster_points.get(book.name, 0) + cost
        army_rules.update(n for n, c in counts.items() if book.units and c >= ARMY_RULE_SHARE * len(book.units))
    names = sorted(set(defined) | set(carried))
    entries = census(names, edition=edition)
    rows = []
    for n in names:
        c = entries[n]
        if c is UNKNOWN and n in defined:
            c = BOOK_ONLY
        units = dict(carried.get(n, []))
        points = sum(units.values())
        kind = "core" if n in core else "aura" if n.endswith("Aura") else "weapon" if n in on_weapons else "army" if n in army_rules else "unit"
        reason = c.reason
        if n in CASTER_RULES and n in carried_by:
            # a caster is played where every spell of its book is cast in games
            left = sum(u.cost or 0 for u in carried_by[n] if not u.spells or not all(s.played for s in u.spells.values()))
            reason = f"{reason}; carriers whose books have a spell no game casts: {left / total if total else 0.0:.2%} of all points"
        rows.append(
            dict(rule=n, kind=kind, books=len(defined.get(n, set()) | {k.split("/")[0] for k in units}), units=len(units), points=points,
                 share=points / total if total else 0.0, modelled=c.modelled, engines=c.engines, gap=c.gap, reason=reason)
        )
    for n, where in sorted(spells.items()):
        points = sum(caster_points.get(b, 0) for b in where)
        # damage spells roll as attacks (attack()) and are cast in games; lasting spells are
        # cast in games where their rule is played once (Spell.played)
        cast = played[n]
        engines = ("attack", "game") if kinds[n] == "hits" else ("game",) if cast else ()
        reason = (None if cast and kinds[n] == "hits"
                  else "a rule held once (by a friend, an enemy, or the attackers of a marked enemy): cast in games where a unit "
                       "gains from it (GameResult.unmodelled names it where not); outside games priced by name only" if cast
                  else "its effect could not be read" if kinds[n] == "unread"
                  else SPELL_GAPS.get(kinds[n], "the rule it gives is not played as held once: " + ", ".join(rules_of[n])))
        rows.append(dict(rule=n, kind="spell", books=len(where), units=0, points=points, share=points / total if total else 0.0,
                         modelled=cast, engines=engines, gap=None if cast else "spells", reason=reason))
    frame = pd.DataFrame(rows, columns=["rule", "kind", "books", "units", "points", "share", "modelled", "engines", "gap", "reason"])
    return frame.sort_values(["share", "rule"], ascending=[False, True], ignore_index=True)


def unmodelled_share(units: Sequence[Unit], *, edition: Optional[str] = None, excluding: Sequence[str] = ()) -> float:
    """The share of the units' official points in units carrying at least one rule with an
    effect on the table that some engine ignores (``excluding`` gaps such as ``"spells"``
    or ``"transport"`` left out of the count), under ``edition`` (default: the units' own)."""
    from ._points import measured_edition

    units = list(units)
    edition = measured_edition(units, edition, "units")
    per_unit = [unit_rule_names(u) for u in units]
    entries = census(set().union(*per_unit) if per_unit else set(), edition=edition)
    total = sum(u.cost or 0 for u in units)

    def ignores(unit: Unit, name: str) -> bool:
        entry = entries[name]
        if name in CASTER_RULES:
            # a caster's rule is played where every spell of its book is cast in games
            return "spells" not in excluding and (not unit.spells or not all(s.played for s in unit.spells.values()))
        return entry.ignored_in_game and entry.gap not in excluding

    hit = sum(u.cost or 0 for u, names in zip(units, per_unit) if any(ignores(u, n) for n in names))
    return hit / total if total else 0.0


#: The rules that make a unit cast its book's spells.
CASTER_RULES = ("Caster", "Caster Group")

#: Why a kind of spell is not cast in games.
SPELL_GAPS = {
    "modifier": "a modifier of a roll the game does not play held once",
    "morale": "a morale test whose failure lets the caster move the unit: not played yet",
    "terrain": "counting as in terrain once: not played yet",
}


BooksLike = Union[ArmyBook, str, "os.PathLike[str]", Iterable[Union[ArmyBook, str, "os.PathLike[str]"]]]
