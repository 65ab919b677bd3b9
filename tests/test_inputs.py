"""One way to read a source everywhere (a path or the text), groups of units wherever a
group is taken, and the army-building rules of gf-3.5 (`validate_list`)."""

from __future__ import annotations

import json
import warnings

import pytest

import oprstats
from oprstats import Unit
from oprstats._loaders import is_path
from oprstats.examples import EXAMPLE_BOOK, EXAMPLE_LIST

from .conftest import cite

LIST_TEXT = EXAMPLE_LIST.read_text(encoding="utf-8")
BOOK_TEXT = EXAMPLE_BOOK.read_text(encoding="utf-8")


def _quiet(fn):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn()


def test_a_path_is_told_from_text_one_way():
    assert is_path(EXAMPLE_LIST) and is_path(str(EXAMPLE_LIST)) and is_path(str(EXAMPLE_BOOK))
    assert is_path("my-list.txt") and is_path("books/a.JSON")  # named like a file, existing or not
    assert not is_path(LIST_TEXT) and not is_path(BOOK_TEXT)  # several lines; a brace
    assert not is_path("Grunts [10] Q5+ D5+ | 60pts")  # one line, no such file: a one-line list
    assert not is_path('{"name": "x"}') and not is_path(b"x.txt") and not is_path(None)


def test_every_loader_takes_a_path_string_a_pathlike_or_the_text():
    book = oprstats.example_book()
    by_string = _quiet(lambda: oprstats.load_army_list(str(EXAMPLE_LIST), book=book))
    by_path = _quiet(lambda: oprstats.load_army_list(EXAMPLE_LIST, book=book))
    by_text = _quiet(lambda: oprstats.load_army_list(LIST_TEXT, book=book))
    assert by_string.units == by_path.units == by_text.units and len(by_text) == 6
    for source in (str(EXAMPLE_BOOK), EXAMPLE_BOOK, BOOK_TEXT, json.loads(BOOK_TEXT)):
        assert _quiet(lambda: oprstats.load_army_book(source)).units == book.units


def test_a_missing_file_and_the_wrong_kind_are_clear_errors():
    with pytest.raises(FileNotFoundError, match=r"source: no file 'my-list.txt'"):
        oprstats.load_army_list("my-list.txt")
    with pytest.raises(ValueError, match="is not an army book's JSON.*use load_army_list"):
        oprstats.load_army_book(LIST_TEXT)
    with pytest.raises(ValueError, match="this is an army book's JSON, not a list; use load_army_book"):
        oprstats.load_army_list(EXAMPLE_BOOK)


def test_fairness_takes_list_text_and_several_books():
    pytest.importorskip("pandas")
    by_text = _quiet(lambda: oprstats.fairness(LIST_TEXT))
    by_path = _quiet(lambda: oprstats.fairness(str(EXAMPLE_LIST)))
    assert list(by_text["unit"]) == list(by_path["unit"]) and len(by_text) == 6
    book = oprstats.example_book()
    two = oprstats.fairness([book, book])
    one = oprstats.fairness(book)
    assert len(two) == 2 * len(one)
    # each unit keeps its book: the options of several books are judged too
    assert len(oprstats.fairness([book, EXAMPLE_BOOK], options=True)) == 2 * len(oprstats.fairness(book, options=True))
    with pytest.raises(ValueError, match="options: judging upgrade options needs army books"):
        oprstats.fairness([book, book.units[0]], options=True)


def test_simulate_and_matchups_take_a_list_by_path_or_text():
    army = oprstats.example_army()
    by_army = _quiet(lambda: oprstats.simulate(army, army, games=4, seed=3, progress=False))
    by_path = _quiet(lambda: oprstats.simulate(str(EXAMPLE_LIST), LIST_TEXT, games=4, seed=3, progress=False))
    # read without its book, the list's units are the same profiles
    assert (by_army.winner == by_path.winner).all()
    m = _quiet(lambda: oprstats.matchups(LIST_TEXT, [oprstats.example_book()]))
    assert m.attackers == tuple(u.name for u in army.units)
    with pytest.raises(TypeError, match=r"army_a\[0\]: expected an oprstats.Unit, ArmyBook, Army or a path"):
        oprstats.simulate([3], army, games=2)


def test_armies_far_apart_in_points_are_warned_about():
    army = oprstats.example_army()
    small = list(army.units)[:2]
    with pytest.warns(UserWarning, match=r"army A is 950 pts and army B 330 pts, more than 10% apart"):
        oprstats.simulate(army, small, games=2, seed=1, progress=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        warnings.filterwarnings("ignore", message="(simulate|duel): the game does not model")
        oprstats.simulate(army, army, games=2, seed=1, progress=False)
        # a duel is judged by points: no warning for units of different sizes
        oprstats.duel(army.units[0], army.units[4], games=2, seed=1)


def test_a_list_over_its_own_limit_is_warned_about_when_it_plays():
    text = "++ Tiny [GF 100pts] ++\n\nGrunts [10] Q5+ D5+ | 160pts\n10x CCW (A1)"
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        army = oprstats.load_army_list(text)  # loading it is no game: validate_list tells
    assert army.points == 160 and army.points_limit == 100
    for given in (army, text):
        with pytest.warns(UserWarning, match=r"Tiny: its units cost 160 pts, over its own limit of 100 pts") as record:
            oprstats.simulate(given, army, games=2, seed=1, progress=False)
        assert record[0].filename == __file__


def test_validate_list_follows_the_force_organisation_rules(rulebook):
    text = rulebook("gf-3.5-beginners-guide.txt")
    cite(text, "as long as their point cost doesn't go over the agreed total game size")
    cite(text, "Only 1 hero per 500pts")
    cite(text, "Only 1+X copies of the same unit, where X is 1 per 1000pts (combined units count as one)")
    cite(text, "No single unit worth over 35% of total points")
    cite(text, "Only 1 unit per 200pts")
    cite(text, "When playing a 2000pts game, players may bring max. 4 heroes, max. 3 copies of each unit, "
               "no unit worth over 700pts, and max. 10 units in total.")
    grunt = Unit.parse("Grunts [10] Q5+ D5+ | 100pts\n10x CCW (A1)")
    heroes = [Unit.parse(f"Boss {i} [1] Q3+ D3+ | 50pts | Hero, Tough(3)\nCCW (A2)") for i in range(5)]
    big = Unit.parse("Titan [1] Q3+ D2+ | 701pts | Tough(18)\nFist (A6, AP(3))")
    # the guide's example at 2000 points: four heroes, three copies, 700 points, ten units
    legal = oprstats.Army(heroes[:4] + [grunt] * 3 + [big.replace(cost=700)] + [Unit.parse(f"U{i} [5] Q4+ D4+ | 100pts") for i in range(2)],
                          points_limit=2000)
    check = oprstats.validate_list(legal)
    assert check.ok and bool(check) and check.points == 1400 and check.limit == 2000, check
    broken = oprstats.Army(heroes + [grunt.replace(cost=300)] * 4 + [big] + [Unit.parse("Extra [5] Q4+ D4+ | 100pts")], points_limit=2000)
    check = oprstats.validate_list(broken)
    rules = {p.rule: (p.found, p.allowed) for p in check.problems}
    assert rules == {"points": (2251, 2000), "heroes": (5, 4), "copies": (4, 3), "unit share": (701, 700.0), "units": (11, 10)}, check
    assert not check and "5 heroes, at most 4" in repr(check)
    # the optional rules aside, only the game size is left
    assert [p.rule for p in oprstats.validate_list(broken, force_organisation=False).problems] == ["points"]


def test_a_joined_hero_is_its_own_selection():
    """Reading (docs/loading.md): a joined hero counts as a hero and a unit, and its points are
    not its unit's for the 35% rule."""
    squad = Unit.parse("Squad [10] Q4+ D4+ | 300pts\n10x CCW (A1)")
    hero = Unit.parse("Boss [1] Q3+ D3+ | 100pts | Hero, Tough(3)\nCCW (A2)")
    army = oprstats.Army([squad.join(hero)], points_limit=1000)
    assert army.points == 400
    check = oprstats.validate_list(army)
    assert check.ok, check  # 300 and 100, each under 350
    check = oprstats.validate_list(army, points=400)
    # at 400 points: no hero (400 // 500 = 0), no unit over 140 points; two units are allowed
    assert {p.rule: p.found for p in check.problems} == {"heroes": 1, "unit share": 300}


def test_a_byte_order_mark_and_a_directory(tmp_path):
    book_file = tmp_path / "book.json"
    book_file.write_text("\ufeff" + BOOK_TEXT, encoding="utf-8")
    list_file = tmp_path / "list.txt"
    list_file.write_text("\ufeff" + LIST_TEXT, encoding="utf-8")
    book = oprstats.example_book()
    assert oprstats.load_army_book(book_file).units == book.units
    assert oprstats.load_army_book("\ufeff" + BOOK_TEXT).units == book.units
    assert _quiet(lambda: oprstats.load_army_list(list_file, book=book)).units == _quiet(lambda: oprstats.example_army()).units
    for source in (tmp_path, str(tmp_path)):
        with pytest.raises(ValueError, match=r"source: '.*' is a directory, not an army book or list file"):
            oprstats.load_army_list(source)
    with pytest.raises(ValueError, match=r"army: '.*' is a directory"):
        oprstats.validate_list(str(tmp_path))
    with pytest.raises(ValueError, match=r"^source: not an Army Forge army book"):
        oprstats.load_army_book("{")


def test_empty_groups_are_refused():
    with pytest.raises(ValueError, match="units_or_book: no units"):
        oprstats.fairness([])
    with pytest.raises(ValueError, match="attackers: no units"):
        oprstats.matchups([], [])


def test_35_percent_is_allowed_exactly_at_every_game_size():
    """0.35 x 1400 is 489.99999999999994 in floating point: the rule is kept in whole numbers."""
    for points in (700, 1300, 1400, 2000, 2600):
        exact = points * 35 // 100
        assert exact * 100 == points * 35
        unit = Unit.parse(f"Big [1] Q4+ D2+ | {exact}pts | Tough(12)")
        assert not [p for p in oprstats.validate_list(oprstats.Army([unit], points_limit=points)).problems if p.rule == "unit share"]
        over = unit.replace(cost=exact + 1)
        problems = oprstats.validate_list(oprstats.Army([over], points_limit=points)).problems
        assert [p.found for p in problems if p.rule == "unit share"] == [exact + 1]


def test_armies_without_costs_are_not_warned_about_their_points():
    free = [Unit.parse('Free [5] Q4+ D4+\n5x Rifle (24", A1)')]
    costed = [free[0].replace(cost=200)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", UserWarning)
        oprstats.simulate(free, costed, games=2, seed=1, progress=False)
