"""Full games of Grimdark Future: Firefight v3.2 (issue 41): a game between units read with
``edition="firefight-3.2"`` plays on its 4'x4' table, seeded whatever the threads, and a
paired mirror is an exact mirror. Its rules are tested move by move in
src/game/firefight_tests.rs."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import oprstats
from oprstats import Unit

from .conftest import cite

FF = "firefight-3.2"
TEXTS = (
    'Squad [5] Q4+ D4+ | 60pts\n5x Rifle (24", A1)',
    'Captain [1] Q3+ D3+ | 45pts | Hero, Tough(3), Fearless\nPistol (12", A2)',
    'Scouts [3] Q4+ D5+ | 40pts | Scout\n3x Rifle (24", A1)',
    'Lurkers [3] Q4+ D5+ | 40pts | Ambush\n3x Blade (A2)',
    'Gunner [1] Q4+ D4+ | 40pts | Tough(3)\nLauncher (24", A1, Blast(3))',
    'Brutes [2] Q4+ D4+ | 50pts | Tough(3), Fast\n2x Claws (A3, AP(1))',
)


def army() -> list[Unit]:
    return [Unit.parse(t, edition=FF) for t in TEXTS]


def test_a_firefight_game_plays_on_its_own_table(rulebook):
    cite(rulebook("gf-firefight-3.2.txt"), "You are going to need a flat 4'x4' surface to play on")
    a = army()
    r = oprstats.simulate(a, a, games=40, seed=3, progress=False, trace=True)
    assert r.edition == FF and r.violations == 0
    kinds = Counter(e["kind"] for t in r.traces for e in t.events)
    # its own phases happen: Stunned models, pushes, roll-offs for Scouts, Ambushers arriving
    for kind in ("stunned", "push", "roll-off", "scout-move", "ambush"):
        assert kinds[kind] > 0, kinds
    for t in r.traces:
        for e in t.events:
            if e["kind"] == "position" and e["detail"] not in ("gone", "reserve"):
                for x, y, radius in e["models"]:
                    assert radius <= x <= 48 - radius + 1e-6 and radius <= y <= 48 - radius + 1e-6


def test_an_army_brought_to_half_its_units_takes_rout_tests():
    a = army()
    one = [Unit.parse('Sniper [1] Q3+ D4+ | Tough(3)\nRifle (30", A2, AP(1))', edition=FF)]
    r = oprstats.simulate(a, a[:2] + one, games=60, seed=5, progress=False, trace=True)
    events = [e for t in r.traces for e in t.events]
    tests = [e for e in events if e["kind"] == "rout-test"]
    assert tests and r.violations == 0
    # an army's Rout Tests come at the end of a round, after its markers are scored
    for t in r.traces:
        kinds = [e["kind"] for e in t.events]
        for i, k in enumerate(kinds):
            if k == "rout-test":
                assert "objective" in kinds[:i]


def test_units_with_rules_firefight_lacks_are_refused_by_name():
    with pytest.warns(oprstats.UnknownRuleWarning):
        jet = Unit.parse('Jet [1] Q4+ D4+ | Aircraft, Tough(6)\nGuns (24", A4)', edition=FF)
    with pytest.raises(ValueError, match=r"army_a\[0\].*Aircraft"):
        oprstats.simulate([jet], army(), games=2, progress=False)


def test_firefight_games_are_seeded_whatever_the_threads():
    a = army()
    one = oprstats.simulate(a, a, games=64, seed=9, progress=False, threads=1)
    two = oprstats.simulate(a, a, games=64, seed=9, progress=False, threads=2)
    assert np.array_equal(one.winner, two.winner) and np.array_equal(one.points_left, two.points_left)


def test_a_paired_firefight_mirror_is_an_exact_mirror_over_2000_pairs():
    a = army()
    r = oprstats.simulate(a, a, games=4000, seed=12, paired=True, progress=False, terrain="standard")
    w = r.winner.reshape(-1, 2)
    assert (w[:, 0] == -w[:, 1]).all()
    assert r.violations == 0


def test_games_between_real_firefight_books_play():
    # the real Firefight books (read by load_army_book in the edition): 300-point lists of
    # their first units play full games with no breach, their rules the game lacks reported
    from .conftest import SHARED, _require
    import warnings
    books = sorted(_require(SHARED / "data" / "opr" / "grimdark-future-firefight" / "3.5.1", "the real Firefight books").glob("*.json"))
    lists = []
    for path in books[:6]:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            book = oprstats.load_army_book(path, edition=FF)
        units, total = [], 0
        for u in book.units:
            if u.cost and total + u.cost <= 300:
                units.append(u)
                total += u.cost
        assert len(units) >= 3, path.name
        lists.append(units)
    kinds = Counter()
    for a, b in zip(lists[0::2], lists[1::2]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r = oprstats.simulate(a, b, games=20, seed=2, progress=False, trace=True)
        assert r.edition == FF and r.violations == 0
        kinds.update(e["kind"] for t in r.traces for e in t.events)
    assert kinds["stunned"] > 0 and kinds["push"] > 0, kinds
