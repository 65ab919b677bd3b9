"""Nothing typed wrong is ignored silently: a rule name that neither the library knows nor the
unit's own book defines gives a warning naming the closest known names, or an error in strict
mode, on every path that builds a unit or a weapon."""

from __future__ import annotations

import copy
import difflib
import pickle
import re
import warnings

import pytest

import oprstats
from oprstats._census import census
from oprstats import Unit, UnknownRuleWarning, Weapon
from oprstats.cli import main, rule_lines

TUOGH = re.escape("Tuogh(3): unknown rule; did you mean Tough(3)?")
APP = re.escape("APP(1): unknown rule; did you mean AP(1)")


@pytest.fixture
def no_unknown_names():
    """Fails the test on any unknown-rule warning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnknownRuleWarning)
        yield


@pytest.fixture
def strict_mode():
    """Strict mode for one test, restored afterwards whatever happens."""
    before = oprstats.set_strict(True)
    try:
        yield
    finally:
        oprstats.set_strict(before)
    assert oprstats.get_strict() is before


def book_dict(*, rules=("Moonwalk",), unit_rules=("Moonwalk", "Tuogh(3)"), weapon_rules=("APP(1)",), options=()) -> dict:
    """A small Army Forge book: `rules` are its `specialRules`, the one unit uses `unit_rules`
    and a gun with `weapon_rules`; `options` are rule names its one upgrade sells."""

    def rule(text):
        name, _, rating = text.partition("(")
        out = {"name": name, "label": text}
        if rating:
            out["rating"] = int(rating.rstrip(")"))
        return out

    unit = {
        "id": "u1", "name": "Grunts", "size": 5, "cost": 60, "quality": 5, "defense": 5,
        "rules": [rule(r) for r in unit_rules],
        "weapons": [{"name": "Gun", "type": "ArmyBookWeapon", "count": 5, "range": 24, "attacks": 1,
                     "specialRules": [rule(r) for r in weapon_rules]}],
        "upgrades": ["p1"] if options else [],
    }
    packages = [{"uid": "p1", "hint": "Upgrades", "sections": [{
        "uid": "s1", "label": "Upgrade with", "variant": "upgrade",
        "options": [{"uid": f"o{i}", "label": r, "cost": 5, "gains": [dict(rule(r), type="ArmyBookRule")]}
                    for i, r in enumerate(options)],
    }]}] if options else []
    return {"uid": "b1", "name": "Made-up Army", "versionString": "3.5.1", "units": [unit],
            "upgradePackages": packages, "specialRules": [{"name": r, "description": "", "hasRating": False} for r in rules]}


# --- the warning and its suggestions -----------------------------------------------------

def test_a_typo_in_a_unit_rule_warns_with_the_closest_name_and_its_rating():
    with pytest.warns(UnknownRuleWarning, match=TUOGH) as record:
        unit = Unit.parse("X [1] Q4+ D4+ | Tuogh(3)")
    assert len(record) == 1 and str(record[0].message) == "unit X: Tuogh(3): unknown rule; did you mean Tough(3)?"
    assert issubclass(UnknownRuleWarning, UserWarning)
    # kept by name, never dropped, and listed
    assert unit.has_rule("Tuogh") and unit.rating("Tuogh") == 3 and unit.tough == 1
    assert unit.unknown_rules() == ("Tuogh",)


def test_a_typo_in_a_weapon_rule_warns():
    with pytest.warns(UserWarning, match=APP) as record:
        gun = Weapon.parse('Gun (24", A1, APP(1))')
    assert str(record[0].message).startswith("weapon Gun: APP(1): unknown rule; did you mean AP(1)")
    assert gun.rules == ("APP(1)",)


def test_the_warning_points_at_the_callers_line():
    with pytest.warns(UnknownRuleWarning) as record:
        Unit.parse("X [1] Q4+ D4+ | Tuogh(3)")
        oprstats.load_army_book(book_dict())
    assert [w.filename for w in record] == [__file__, __file__]


def test_suggestions_are_the_closest_known_names_closest_first_at_most_three():
    known = oprstats.known_rule_names()
    for typo in ("Rendig", "Blastt", "Regenerate", "Furios", "Stelth", "Fearles", "Deadley", "Shread"):
        with pytest.warns(UnknownRuleWarning) as record:
            Unit.parse(f"X [1] Q4+ D4+ | {typo}")
        said = str(record[0].message).split("did you mean ", 1)[1].rstrip("?")
        got = re.split(r", | or ", said)
        # difflib's ratio on the names with case ignored, ties by name
        ratio = lambda k: difflib.SequenceMatcher(None, k.lower(), typo.lower()).ratio()
        expected = sorted((k for k in known if ratio(k) >= 0.6), key=lambda k: (-ratio(k), k))[:3]
        assert got == expected, typo
        assert 1 <= len(got) <= 3


def test_a_name_equal_but_for_case_comes_first():
    with pytest.warns(UnknownRuleWarning, match=re.escape("fearless: unknown rule; did you mean Fearless,")):
        Unit.parse("X [1] Q4+ D4+ | fearless")
    with pytest.warns(UnknownRuleWarning, match=re.escape("did you mean AP(2)")):
        Weapon.parse('Gun (24", A1, ap(2))')


def test_a_rule_that_takes_no_rating_is_suggested_without_one():
    with pytest.warns(UnknownRuleWarning, match=re.escape("Fearles(2): unknown rule; did you mean Fearless,")):
        Unit.parse("X [1] Q4+ D4+ | Fearles(2)")


def test_a_name_close_to_nothing_still_warns():
    with pytest.warns(UnknownRuleWarning, match=re.escape("unit X: Moonwalk: unknown rule (kept by name; no engine plays it)")):
        Unit.parse("X [1] Q4+ D4+ | Moonwalk")


def test_each_unknown_name_warns_once_per_unit():
    with pytest.warns(UnknownRuleWarning) as record:
        Unit.parse('X [2] Q4+ D4+ | Tuogh(3), Moonwalk\nGun (24", A1, APP(1)), Pistol (12", A1, APP(1))')
    messages = [str(w.message) for w in record]
    assert len(messages) == 3
    assert messages[2] == "unit X, weapon Gun, unit X, weapon Pistol: APP(1): unknown rule; did you mean AP(1)?"


def test_warnings_as_errors_raise_the_warning(no_unknown_names):
    with pytest.raises(UnknownRuleWarning, match=TUOGH):
        Unit.parse("X [1] Q4+ D4+ | Tuogh(3)")


# --- every path ---------------------------------------------------------------------------

def test_unit_fields_warn_for_rules_items_and_weapons():
    with pytest.warns(UnknownRuleWarning) as record:
        Unit("X", size=2, quality=4, defense=4, rules=["Tuogh(3)", "1x Kit(Moonwalk)"], weapons=['Gun (24", A1, APP(1))'])
    assert [str(w.message) for w in record] == [
        "unit X: Tuogh(3): unknown rule; did you mean Tough(3)?",
        "unit X: Moonwalk: unknown rule (kept by name; no engine plays it)",
        "unit X, weapon Gun: APP(1): unknown rule; did you mean AP(1)?",
    ]


def test_weapon_fields_warn():
    with pytest.warns(UnknownRuleWarning, match=re.escape("weapon Gun: APP(1): unknown rule; did you mean AP(1)")):
        Weapon("Gun", range=24, attacks=1, rules=["APP(1)"])


def test_a_weapon_value_is_checked_once_when_made_not_again_in_a_unit():
    with pytest.warns(UnknownRuleWarning):
        gun = Weapon.parse('Gun (24", A1, APP(1))')
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnknownRuleWarning)
        unit = Unit("X", size=1, quality=4, defense=4, weapons=[gun])
    assert unit.unknown_rules() == ("APP",)
    # made under another edition, it is checked again under the unit's
    bane = Weapon.parse('Sword (A1, Bane)')
    with pytest.warns(UnknownRuleWarning, match=re.escape("unit X, weapon Sword: Bane: unknown rule")):
        Unit("X", size=1, quality=4, defense=4, weapons=[bane], edition="3.4.1")


def test_join_checks_parts_made_under_another_edition(no_unknown_names):
    squad = Unit.parse("Squad [5] Q4+ D4+\n5x Sword (A1, Bane)")
    captain = Unit.parse("Captain [1] Q3+ D3+ | Hero, Tough(3)")
    squad.join(captain)  # the same edition: both were checked when made
    with pytest.warns(UnknownRuleWarning, match=re.escape("unit Squad, weapon Sword: Bane: unknown rule")):
        joined = squad.join(captain, edition="3.4.1")
    assert joined.unknown_rules() == ("Bane",)
    with pytest.raises(ValueError, match="Bane: unknown rule"):
        squad.join(captain, edition="3.4.1", strict=True)


def test_an_army_list_warns_once_naming_every_unknown_name():
    text = "++ Test ++\n\n2x X [1] Q4+ D4+ | Tuogh(3)\nGun (24\", A1, APP(1))\n\nY [1] Q4+ D4+ | Tuogh(6), Moonwalk"
    with pytest.warns(UnknownRuleWarning) as record:
        army = oprstats.load_army_list(text)
    assert len(record) == 1
    assert str(record[0].message) == (
        "army list Test: 3 unknown rules, kept by name (no engine plays them):\n"
        "  unit X, unit Y: Tuogh(3): unknown rule; did you mean Tough(3)?\n"
        "  unit X, weapon Gun: APP(1): unknown rule; did you mean AP(1)?\n"
        "  unit Y: Moonwalk: unknown rule (kept by name; no engine plays it)"
    )
    assert army.units[2].unknown_rules() == ("Tuogh", "Moonwalk")


def test_an_army_list_read_with_its_book_knows_the_books_rules(no_unknown_names):
    book = oprstats.example_book()
    army = oprstats.load_army_list(oprstats.examples.EXAMPLE_LIST, book=book)
    assert all(u.unknown_rules() == () for u in army)
    assert oprstats.example_army().units == army.units
    with pytest.warns(UnknownRuleWarning, match="Warden Oath"):
        alone = oprstats.load_army_list(oprstats.examples.EXAMPLE_LIST)
    assert alone.units[0].unknown_rules() == ("Warden Oath", "Relay Link")
    with pytest.raises(TypeError, match="book"):
        oprstats.load_army_list(oprstats.examples.EXAMPLE_LIST, book=["not a book"])


def test_a_book_warns_once_for_names_neither_it_nor_the_library_defines():
    with pytest.warns(UnknownRuleWarning) as record:
        book = oprstats.load_army_book(book_dict(options=("Moonwalk", "Musiciann")))
    assert len(record) == 1
    assert str(record[0].message) == (
        "army book Made-up Army: 3 unknown rules, kept by name (no engine plays them):\n"
        "  unit Grunts: Tuogh(3): unknown rule; did you mean Tough(3)?\n"
        "  unit Grunts, weapon Gun: APP(1): unknown rule; did you mean AP(1)?\n"
        "  upgrade Musiciann: Musiciann: unknown rule; did you mean Musician?"
    )
    grunts = book.unit("Grunts")
    assert grunts.unknown_rules() == ("Tuogh", "APP")  # Moonwalk is the book's own rule


# --- strict mode --------------------------------------------------------------------------

STRICT_PATHS = {
    "Unit": lambda strict: Unit("X", size=1, quality=4, defense=4, rules=["Tuogh(3)"], strict=strict),
    "Unit.parse": lambda strict: Unit.parse("X [1] Q4+ D4+ | Tuogh(3)", strict=strict),
    "Weapon": lambda strict: Weapon("Gun", range=24, attacks=1, rules=["APP(1)"], strict=strict),
    "Weapon.parse": lambda strict: Weapon.parse('Gun (24", A1, APP(1))', strict=strict),
    "load_army_list": lambda strict: oprstats.load_army_list("X [1] Q4+ D4+ | Tuogh(3)", strict=strict),
    "load_army_book": lambda strict: oprstats.load_army_book(book_dict(), strict=strict),
}


@pytest.mark.parametrize("path", STRICT_PATHS)
def test_strict_turns_the_warning_into_a_value_error_with_the_same_message(path):
    make = STRICT_PATHS[path]
    with pytest.warns(UnknownRuleWarning) as record:
        make(False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UnknownRuleWarning)  # no warning besides the error
        with pytest.raises(ValueError) as error:
            make(True)
    assert str(error.value) == "\n".join(str(w.message) for w in record)
    assert re.search(TUOGH, str(error.value)) or re.search(APP, str(error.value))


@pytest.mark.parametrize("path", STRICT_PATHS)
def test_the_module_setting_makes_strict_the_default(path, strict_mode):
    assert oprstats.get_strict() is True
    with pytest.raises(ValueError, match="unknown rule"):
        STRICT_PATHS[path](None)
    with pytest.warns(UnknownRuleWarning):
        STRICT_PATHS[path](False)  # an explicit argument wins


def test_the_module_setting_is_off_by_default_and_checked():
    assert oprstats.get_strict() is False
    assert oprstats.set_strict(False) is False
    with pytest.raises(TypeError, match="strict"):
        oprstats.set_strict("yes")
    with pytest.raises(TypeError):
        Unit.parse("X [1] Q4+ D4+", strict="yes")


def test_strict_mode_accepts_what_the_library_or_the_book_knows(strict_mode):
    Unit.parse('X [1] Q4+ D4+ | Tough(3), Hive Bond, Caster Group(2)\nGun (24", A1, AP(1), Shred)')
    book = oprstats.load_army_book(book_dict(unit_rules=("Moonwalk",), weapon_rules=()))
    assert book.unit("Grunts").unknown_rules() == ()


# --- what is known --------------------------------------------------------------------------

@pytest.mark.parametrize("edition", [e.key for e in oprstats.editions()])
def test_no_known_name_warns(edition, no_unknown_names):
    rated = {name: r for name, r, _ in oprstats.known_rules(edition)}
    names = oprstats.known_rule_names(edition)
    assert set(rated) <= set(names) and len(set(names)) == len(names)
    rules = [f"{n}(1)" if rated.get(n) else n for n in names]
    # a model group lists at most 100 rules (MAX_ENTRIES): the names a hundred at a time
    for i in range(0, len(rules), 100):
        part = rules[i:i + 100]
        unit = Unit("X", size=1, quality=4, defense=4, rules=part, weapons=[Weapon("Gun", range=24, attacks=1, rules=part, edition=edition)], edition=edition)
        assert unit.unknown_rules() == ()


def test_known_rule_names_are_the_core_and_the_army_rules():
    names = oprstats.known_rule_names()
    assert names == oprstats.known_rule_names("3.5.1")
    assert {"Tough", "AP", "Hive Bond", "Shred", "Caster Group", "Strafing"} <= set(names)
    assert "Hive Bond" not in oprstats.known_rule_names("3.4.1")  # army rules are known for v3.5
    with pytest.raises(ValueError, match="unknown edition"):
        oprstats.known_rule_names("40k")


def test_real_books_give_no_unknown_rule_warning(book_paths, no_unknown_names):
    """Every name the 43 books use is defined by the book or known to the library. The only
    names neither defines are Banner and Musician, rules (`ArmyBookRule` gains) the War
    Disciples and Wormhole Daemons books sell as upgrades with no rules text anywhere: the
    library lists them as not modelled, with that reason. Weapons inside items (Leaping Tiger)
    are weapons, not rules."""
    books = [oprstats.load_army_book(p) for p in book_paths]
    assert len(books) == 43
    assert all(u.unknown_rules() == () for b in books for u in b.units)
    for name in ("Banner", "Musician"):
        assert name in oprstats.known_rule_names()
        c = census([name])[name]
        assert c.engines == () and c.gap == "in game" and "defines no rules text" in c.reason
    # the units of a book keep its names through pickling and joining
    unit = copy.deepcopy(pickle.loads(pickle.dumps(books[0].units[0])))
    assert unit.unknown_rules() == ()


def test_a_book_read_under_another_edition_names_the_upgrades_using_a_name(book_paths):
    path = next(p for p in book_paths if p.name.startswith("battle-brothers"))
    with pytest.warns(UnknownRuleWarning) as record:
        oprstats.load_army_book(path, edition="3.4.1")  # Takedown is a v3.5 rule the book does not define
    assert len(record) == 1
    message = str(record[0].message)
    assert message.startswith("army book Battle Brothers: 1 unknown rule")
    assert 'upgrade Sniper Rifle (30", A1, AP(1), Reliable, Takedown), upgrade Master Sniper Rifle' in message
    assert message.endswith("Takedown: unknown rule (kept by name; no engine plays it)")


def test_a_book_rule_never_warns_and_its_units_know_it(no_unknown_names):
    book = oprstats.load_army_book(book_dict(rules=("Moonwalk",), unit_rules=("Moonwalk", "Hero"), weapon_rules=()))
    grunts = book.unit("Grunts")
    assert grunts.unknown_rules() == ()
    again = pickle.loads(pickle.dumps(grunts))  # pickling keeps the book's names, and does not warn
    assert again == grunts and again.unknown_rules() == ()
    assert book.units[0].base.unknown_rules() == ()
    with pytest.warns(UnknownRuleWarning, match="Moonwalk"):  # the same text without the book
        assert Unit.parse(str(grunts)).unknown_rules() == ("Moonwalk",)


def test_unknown_rules_follows_the_edition_asked():
    unit = Unit.parse("X [1] Q4+ D4+ | Hive Bond, Fearless")
    assert unit.unknown_rules() == ()
    assert unit.unknown_rules(edition="3.4.1") == ("Hive Bond",)


# --- the command line ---------------------------------------------------------------------------

def test_show_separates_played_unplayed_and_unknown_rules(capsys):
    with pytest.warns(UnknownRuleWarning):
        units = [Unit.parse('X [1] Q4+ D4+ | Hive Bond, Crossing Attack, Moonwalk, Tough(3)\nGun (24", A1, Shred, AP(1))')]
    assert rule_lines(units) == [
        "Army rules the engines play: Hive Bond, Shred",
        "Army rules no engine plays (kept by name): Crossing Attack (in game)",
        "Unknown rules (kept by name; no engine plays them): Moonwalk",
    ]
    assert main(["show"]) == 0
    out = capsys.readouterr().out
    assert "Army rules no engine plays (kept by name): Relay Link (defined by its book only), Warden Oath (defined by its book only)" in out
