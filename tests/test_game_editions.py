"""Full games in the editions other than v3.5 (issue 41): ``simulate(edition=)``,
``duel(edition=)``, the edition a game follows by default, and v3.4.1's own rules seen from
Python. The rules themselves are tested move by move in src/game/v3_4_1_tests.rs."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import oprstats
from oprstats import Unit

from .conftest import cite

GRUNTS = 'Grunts [5] Q5+ D5+ | 100pts\n5x Rifle (24", A1)'
JET = 'Jet [1] Q4+ D4+ | 150pts | Aircraft, Tough(6)\nGuns (24", A4)'
SCOUTS = 'Scouts [5] Q4+ D5+ | 110pts | Scout\n5x Rifle (24", A1)'
DIGGERS = 'Diggers [5] Q5+ D5+ | 110pts | Entrenched\n5x Rifle (24", A1)'


def army(edition: str) -> list[Unit]:
    return [Unit.parse(t, edition=edition) for t in (GRUNTS, JET, SCOUTS, DIGGERS if edition == "3.4.1" else GRUNTS)]


def test_a_game_follows_the_edition_its_units_were_read_in():
    a = army("3.4.1")
    r = oprstats.simulate(a, a, games=30, seed=3, progress=False)
    assert r.edition == "3.4.1" and r.violations == 0
    same = oprstats.simulate(a, a, games=30, seed=3, progress=False, edition="v3.4.1")
    assert same.edition == "3.4.1" and np.array_equal(r.winner, same.winner)
    assert oprstats.simulate(army("3.5"), army("3.5"), games=5, seed=3, progress=False).edition == "3.5"


def test_units_of_another_edition_are_refused_by_name():
    with pytest.raises(ValueError, match=r"army_a\[0\]: is a 3\.4\.1 unit; this game plays 3\.5"):
        oprstats.simulate(army("3.4.1"), army("3.4.1"), games=2, progress=False, edition="3.5")
    mixed = army("3.5")[:1] + army("3.4.1")[:1]
    with pytest.raises(ValueError, match=r"army_a\[1\]: is a 3\.4\.1 unit; this game plays 3\.5"):
        oprstats.simulate(mixed, mixed, games=2, progress=False)
    with pytest.raises(ValueError, match=r"army_b\[0\]: is a 3\.5 unit; this game plays 3\.4\.1"):
        oprstats.simulate(army("3.4.1"), army("3.5"), games=2, progress=False, edition="3.4.1")
    with pytest.raises(ValueError, match=r"edition: .*unknown edition"):
        oprstats.simulate(army("3.5"), army("3.5"), games=2, progress=False, edition="v4")


def test_v3_4_1_games_are_seeded_whatever_the_threads():
    a = army("3.4.1")
    one = oprstats.simulate(a, a, games=64, seed=9, progress=False, threads=1)
    two = oprstats.simulate(a, a, games=64, seed=9, progress=False, threads=2)
    assert np.array_equal(one.winner, two.winner) and np.array_equal(one.points_left, two.points_left)


def test_a_paired_v3_4_1_mirror_is_an_exact_mirror_over_2000_pairs():
    # a mirror played paired: each pair's second game is its first with the sides swapped,
    # so any bias of the engine towards a side or an army's index would show in some pair
    a = army("3.4.1")
    r = oprstats.simulate(a, a, games=2000, seed=12, paired=True, progress=False, terrain="standard")
    w = r.winner.reshape(-1, 2)
    assert (w[:, 0] == -w[:, 1]).all()
    rates = r.rates()
    lo, hi = rates["a_wins"][1:]
    assert lo <= rates["b_wins"][0] <= hi
    assert r.violations == 0


def test_the_aircraft_of_v3_4_1_contests_markers(rulebook):
    # "can't seize objectives" (v3.4.1) against "can't seize or contest objectives" (v3.5):
    # an Aircraft against two infantry units that go first keeps markers from them in v3.4.1
    # (it moves after they do, to where they would seize; in v3.5 it cannot stop them)
    cite(rulebook("gf-3.4.1-core.txt"), "Aircraft ignore all units and terrain when moving and stopping, can't seize objectives,")
    cite(rulebook("gf-3.5-beginners-guide.txt"), "Aircraft ignore all units and terrain when moving and stopping, can't seize or contest objectives,")
    held = {}
    for edition in ("3.5", "3.4.1"):
        jet, grunts = Unit.parse(JET, edition=edition), Unit.parse(GRUNTS, edition=edition)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = oprstats.simulate([jet], [grunts, grunts], games=400, seed=5, progress=False, terrain="open", first="b")
        held[edition] = r.objectives[:, 1].mean()
    assert held["3.4.1"] < held["3.5"] - 0.1, held


def test_a_v3_5_1_book_plays_v3_4_1_with_its_rules_reported(book_paths):
    path = next(p for p in book_paths if p.name.startswith("battle-brothers"))
    # a rule of v3.5 its book uses and v3.4.1 lacks is named when the book is read
    with pytest.warns(oprstats.UnknownRuleWarning, match="unknown rule"):
        book = oprstats.load_army_book(path, edition="3.4.1")
    units = list(book.units)[:4]
    with pytest.warns(UserWarning, match="does not model these rules"):
        r = oprstats.simulate(units, units, games=10, seed=1, progress=False)
    assert r.edition == "3.4.1" and r.violations == 0
    # the book's own rules are v3.5.1's: under v3.4.1 they are reported, never played silently
    assert "Battleborn" in r.unmodelled


def test_artillery_is_reported_in_v3_4_1():
    with pytest.warns(oprstats.UnknownRuleWarning, match="Artillery: unknown rule"):
        gun = Unit.parse('Gun [1] Q4+ D4+ | 120pts | Artillery, Tough(3)\nCannon (36", A2)', edition="3.4.1")
    grunts = Unit.parse(GRUNTS, edition="3.4.1")
    with pytest.warns(UserWarning, match="Artillery"):
        r = oprstats.simulate([gun], [grunts], games=4, seed=1, progress=False)
    assert "Artillery" in r.unmodelled


def test_duel_takes_an_edition():
    a, b = Unit.parse(JET, edition="3.4.1"), Unit.parse(DIGGERS, edition="3.4.1")
    d = oprstats.duel(a, b, games=200, seed=4)
    again = oprstats.duel(a, b, games=200, seed=4, edition="3.4.1")
    assert np.array_equal(d.to_pandas().to_numpy(), again.to_pandas().to_numpy())
    with pytest.raises(ValueError, match="is a 3.4.1 unit; this game plays 3.5"):
        oprstats.duel(a, b, games=2, seed=4, edition="3.5")
