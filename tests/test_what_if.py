"""``what_if``: a change to units measured on the lists that use them with common random
numbers. A change of nothing gives exactly zero; changes whose direction is known (better
Quality, worse Defense, a rule or weapon taken away) move the win rate that way, outside
the interval's doubt; and ``Unit.with_rules``/``with_weapons`` keep the unit's book."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import oprstats
from oprstats import Army, Unit, what_if


@pytest.fixture(scope="module")
def books(book_paths):
    return {b.name: b for b in (oprstats.load_army_book(p) for p in book_paths)}


@pytest.fixture(scope="module")
def pool(books):
    bb = books["Battle Brothers"]
    orcs = books["Orc Marauders"]
    mine = Army([bb["Battle Brothers"]] * 3 + [bb["Assault Brothers"]] * 2, name="brothers", points_limit=1000)
    # about as strong as the brothers: a change shows in the win rate, far from 0 or 100%
    theirs = Army([orcs["Orc Warriors"]] * 4 + [orcs["Orc Leader"]], name="orcs")
    other = Army([orcs["Orc Warriors"]] * 4 + [orcs["Veterans"]], name="more orcs")
    return {"Battle Brothers": [mine], "Orc Marauders": [theirs, other]}


def test_with_rules_and_with_weapons_keep_the_book(books):
    unit = books["Battle Brothers"]["Battle Brothers"]
    furious = unit.with_rules(add=["Furious"], remove=["Fearless"])
    assert furious.has_rule("Furious") and not furious.has_rule("Fearless")
    assert furious.cost == unit.cost and furious.spells == unit.spells
    sharper = unit.with_weapons(remove=["Heavy Rifle"], add=['5x Heavy Rifle (24", A1, AP(2))'])
    assert [w.rating("AP") for w in sharper.weapons if w.name == "Heavy Rifle"] == [2]
    with pytest.raises(ValueError, match=r'remove\[0\]: Battle Brothers carries no such rule; did you mean "Fearless"'):
        unit.with_rules(remove=["Fearles"])
    with pytest.raises(ValueError, match=r"remove\[0\]: .* no such weapon"):
        unit.with_weapons(remove=["Lasgun"])
    with pytest.raises(TypeError, match="add: .*not a single string"):
        unit.with_rules(add="Furious")
    with pytest.warns(oprstats.UnknownRuleWarning, match="Furious"):
        unit.with_rules(add=["Furiuos"])


def test_a_change_of_nothing_gives_exactly_zero(pool):
    r = what_if({"Battle Brothers": lambda u: u}, pool, games=20, seed=1, progress=False)
    assert r.lists == ("brothers",)
    assert r.difference[0] == 0.0 and r.low[0] == 0.0 and r.high[0] == 0.0
    assert r.before[0] == r.after[0]
    assert r.opponents[0] == 2 and r.pairs[0] == 40


@pytest.mark.parametrize("change, sign", [
    ({"quality": 2}, +1),
    ({"defense": 6}, -1),
    ({"remove_weapons": ["Heavy Rifle"]}, -1),
    ({"models": 10}, +1),
])
def test_changes_whose_direction_is_known_move_the_win_rate_that_way(pool, change, sign):
    r = what_if({"Battle Brothers": change}, pool, games=100, seed=2, progress=False)
    assert 0.2 < r.before[0] < 0.8
    assert sign * r.difference[0] > 0
    assert (r.low[0] > 0) if sign > 0 else (r.high[0] < 0), r


def test_a_joined_hero_and_points_are_changed_by_name(books, pool):
    bb = books["Battle Brothers"]
    joined = bb["Battle Brothers"].join(bb["Master Brother"])
    hero = joined.hero.name
    pools = {"mine": [Army([joined, bb["Battle Brothers"]], name="with hero")], "theirs": pool["Orc Marauders"]}
    with pytest.warns(UserWarning, match="the lists range from"):
        r = what_if({hero: {"points": 15}}, pools, games=4, seed=1, progress=False)
    assert r.changed == ((hero,),)
    assert r.points_after[0] == r.points_before[0] + 15


def test_seeded_runs_are_the_same_and_the_result_reads_as_a_frame(pool):
    a = what_if({"Assault Brothers": {"add_rules": ["Furious"]}}, pool, games=8, seed=5, progress=False)
    b = what_if({"Assault Brothers": {"add_rules": ["Furious"]}}, pool, games=8, seed=5, progress=False, threads=1)
    np.testing.assert_array_equal(a.difference, b.difference)
    frame = a.to_pandas()
    assert list(frame.columns[:3]) == ["list", "faction", "changed"] and frame.loc[0, "changed"] == "Assault Brothers"
    assert pickle.loads(pickle.dumps(a)).difference == a.difference
    assert "pp" in repr(a) and "<table" in a._repr_html_()


def test_bad_changes_are_named(pool):
    with pytest.raises(ValueError, match="no list of the pool carries 'Battle Brother'; did you mean 'Battle Brothers'"):
        what_if({"Battle Brother": {"quality": 3}}, pool, progress=False)
    with pytest.raises(ValueError, match=r"changes\['Battle Brothers'\]: unknown edit 'qualty'"):
        what_if({"Battle Brothers": {"qualty": 3}}, pool, progress=False)
    with pytest.raises(TypeError, match="changes: expected a non-empty mapping"):
        what_if({}, pool, progress=False)
    with pytest.raises(TypeError, match=r"changes\['Battle Brothers'\]: the function returned int"):
        what_if({"Battle Brothers": lambda u: 3}, pool, games=1, progress=False)
    with pytest.raises(ValueError, match="pool: at least 2 lists"):
        what_if({"Battle Brothers": {"quality": 3}}, [pool["Battle Brothers"][0]], progress=False)


def test_a_ctrl_c_returns_the_lists_measured_so_far_marked(pool, monkeypatch):
    from oprstats import _factions

    real = _factions.play_pairing
    calls = []

    def stopping(**kwargs):
        calls.append(1)
        if len(calls) == 3:  # the second opponent's first version: only the first opponent is done
            raise KeyboardInterrupt
        return real(**kwargs)

    monkeypatch.setattr(_factions, "play_pairing", stopping)
    r = what_if({"Battle Brothers": {"quality": 2}}, pool, games=5, seed=1, progress=False)
    assert r.interrupted and r.opponents[0] == 1 and r.pairs[0] == 5 and "interrupted" in repr(r)


def test_a_ctrl_c_inside_the_changed_games_keeps_the_pairs_both_played(pool, monkeypatch):
    from oprstats import _factions

    real = _factions.play_pairing
    calls = []

    def cut(**kwargs):
        calls.append(1)
        r = real(**kwargs)
        if len(calls) == 2:  # the changed list's games against the first opponent, cut after 3 pairs
            r = dict(r, scores=r["scores"][:3], interrupted=True)
        return r

    monkeypatch.setattr(_factions, "play_pairing", cut)
    r = what_if({"Battle Brothers": {"quality": 2}}, pool, games=6, seed=1, progress=False)
    assert r.interrupted and r.opponents[0] == 1 and r.pairs[0] == 3 and np.isfinite(r.difference[0])


def test_an_edit_that_fails_names_the_change(pool):
    with pytest.raises(ValueError, match=r"changes\['Battle Brothers'\]: remove\[0\]: .* no such weapon"):
        what_if({"Battle Brothers": {"remove_weapons": ["Lasgun"]}}, pool, games=1, progress=False)
