"""An army list read with its book is checked against it (issue 44): a unit the book does not
have is warned about with the closest names (refused under ``strict``), a unit with the book's
own loadout at another cost is reported, and a book holding none of the list's units is
refused."""

import warnings

import pytest

import oprstats
from oprstats.examples import EXAMPLE_LIST

LIST = EXAMPLE_LIST.read_text(encoding="utf-8")


def read(text, **kw):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        army = oprstats.load_army_list(text, book=oprstats.example_book(), **kw)
    return army, [w for w in caught if issubclass(w.category, oprstats.ListWarning)]


def test_the_example_list_matches_its_book():
    _, found = read(LIST)
    assert found == []


def test_a_misspelt_unit_is_warned_about_with_the_closest_name_and_refused_under_strict():
    text = LIST.replace("Scout Skimmers [3]", "Scout Skimers [3]")
    army, found = read(text)
    assert len(found) == 1
    message = str(found[0].message)
    assert '"Scout Skimers" is not in' in message and 'did you mean "Scout Skimmers"' in message
    assert found[0].filename == __file__, "the warning points at the caller"
    assert any(u.name == "Scout Skimers" for u in army)
    with pytest.raises(ValueError, match='unit "Scout Skimers" is not in'):
        read(text, strict=True)


def test_a_misspelt_caster_of_a_real_book_is_reported_not_silently_left_without_spells(book_paths):
    # "the Caster's spells must be picked from their own faction": a caster whose name is not
    # in the book would be read without any
    for path in book_paths:
        book = oprstats.load_army_book(path)
        caster = next((u for u in book.units if u.spells), None)
        if caster is not None:
            break
    else:
        pytest.fail("no real book has a caster")
    other = next(u for u in book.units if u.name != caster.name)
    text = str(caster).replace(caster.name, caster.name + "x", 1) + "\n\n" + str(other)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        army = oprstats.load_army_list(text, book=book)
        good = oprstats.load_army_list(str(caster), book=book)
    assert any(f'"{caster.name}x" is not in' in str(w.message) for w in caught if issubclass(w.category, oprstats.ListWarning))
    assert army.units[0].spells == {} and good.units[0].spells == caster.spells


def test_a_cost_that_differs_from_the_book_with_the_same_loadout_is_reported():
    book = oprstats.example_book()
    squad = book.unit("Warden Squad")
    text = LIST.replace(f"Warden Squad [5] Q4+ D4+ | {squad.cost}pts", "Warden Squad [5] Q4+ D4+ | 15pts")
    assert text != LIST
    _, found = read(text)
    assert [str(w.message) for w in found] == [
        f'army list: unit "Warden Squad" costs 15pts in the list and {squad.cost}pts in its book with the same loadout; the list\'s cost is used'
    ]


def test_the_wrong_book_is_refused():
    other = "Orc Boyz [10] Q5+ D5+ | 100pts\n10x Choppa (A2)\n"
    with pytest.raises(ValueError, match="book: .*none of the list's 1 units is in it"):
        read(other)


def test_a_list_read_without_a_book_is_not_checked():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", oprstats.UnknownRuleWarning)  # its book defines them
        warnings.simplefilter("error", oprstats.ListWarning)
        oprstats.load_army_list(LIST.replace("Scout Skimmers [3]", "Scout Skimers [3]"))


def test_a_book_is_subscripted_by_unit_name_or_id():
    book = oprstats.example_book()
    first = book.units[0]
    assert book[first.name] == book.unit(first.name) == first
    assert first.name in book and "Nobody" not in book and 3 not in book
    with pytest.raises(KeyError, match=f'did you mean "{first.name}"'):
        book[first.name[:-1]]
