"""``shapley_values``: a unit's worth inside its list. With every order taken the values are
the Shapley formula over the coalitions' win rates, measured here again game by game; the
values add up to the list's win rate (and, in points, to its points) as the efficiency axiom
says; a joined hero is its own selection; a seed gives the same values."""

from __future__ import annotations

import itertools
import math
import pickle
import warnings

import numpy as np
import pytest

import oprstats
from oprstats import Army, shapley_values


@pytest.fixture(scope="module")
def books(book_paths):
    return {b.name: b for b in (oprstats.load_army_book(p) for p in book_paths)}


@pytest.fixture(scope="module")
def armies(books):
    bb, orcs = books["Battle Brothers"], books["Orc Marauders"]
    mine = Army([bb["Battle Brothers"], bb["Assault Brothers"], bb["Support Brothers"]], name="three")
    theirs = Army([orcs["Orc Warriors"], orcs["Orc Warriors"]], name="orcs")
    return mine, theirs


def _win_rate(units, foe, games, key):
    if not units:
        return 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        r = oprstats.simulate(Army(units, name="three"), foe, games=games, seed=key, paired=True, progress=False)
    return float(((np.asarray(r.winner, float) + 1) / 2).mean())


def test_every_order_gives_the_shapley_formula_over_the_coalitions(armies):
    mine, foe = armies
    result = shapley_values(mine, foe, games=10, permutations=6, seed=4, progress=False)
    assert result.exact_orders and result.permutations == 6 and result.coalitions == 7
    game_seed = np.random.SeedSequence(4).spawn(3)[1]
    key = np.random.SeedSequence(game_seed.entropy, spawn_key=tuple(game_seed.spawn_key) + (0,))
    units = list(mine.units)
    n = len(units)
    value = {s: _win_rate([units[k] for k in sorted(s)], foe, 10, key) for r in range(n + 1) for s in map(frozenset, itertools.combinations(range(n), r))}
    for i in range(n):
        formula = sum(math.factorial(len(s)) * math.factorial(n - len(s) - 1) / math.factorial(n) * (value[s | {i}] - value[s])
                      for s in value if i not in s)
        assert result.shapley[i] == pytest.approx(formula, abs=1e-12)
        assert result.leave_one_out[i] == pytest.approx(value[frozenset(range(n))] - value[frozenset(range(n)) - {i}], abs=1e-12)
    assert result.value == pytest.approx(value[frozenset(range(n))])


def test_the_values_add_up_to_the_list_as_the_efficiency_axiom_says(books, armies):
    bb = books["Battle Brothers"]
    _, foe = armies
    big = Army([bb["Battle Brothers"].join(bb["Master Brother"]), bb["Assault Brothers"], bb["Support Brothers"], bb["Destroyers"],
                bb["Battle Brothers"]], name="six")
    r = shapley_values(big, foe, games=6, permutations=12, seed=1, progress=False, resamples=200)
    assert not r.exact_orders and r.permutations == 12
    assert len(r) == 6 and "Master Brother" in r.units and "Battle Brothers #2" in r.units
    assert r.shapley.sum() == pytest.approx(r.value, abs=1e-12)
    assert r.shapley_points.sum() == pytest.approx(big.points, abs=1e-9)
    assert ((r.shapley_low <= r.shapley_points + 1e-9) & (r.shapley_points <= r.shapley_high + 1e-9)).all()
    again = shapley_values(big, foe, games=6, permutations=12, seed=1, progress=False, resamples=200, threads=1)
    np.testing.assert_array_equal(again.shapley_points, r.shapley_points)
    frame = r.to_pandas()
    assert frame["shapley_points"].is_monotonic_decreasing and set(frame["unit"]) == set(r.units)
    assert pickle.loads(pickle.dumps(r)).units == r.units
    assert "Shapley" in repr(r) and "<table" in r._repr_html_()


def test_bad_requests_are_refused_naming_the_field(armies, books):
    mine, foe = armies
    with pytest.raises(ValueError, match="permutations: must be a whole number from 1"):
        shapley_values(mine, foe, permutations=0, progress=False)
    with pytest.raises(ValueError, match="army: from 2 to 40 selections"):
        shapley_values(Army([mine.units[0]], name="one"), foe, progress=False)
    with pytest.raises(ValueError, match="permutations: .* over the"):
        shapley_values(Army(list(mine.units) * 10, name="thirty"), foe, games=1_000_000, permutations=1000, progress=False)


def test_a_ctrl_c_returns_the_values_of_the_coalitions_played_marked(armies, monkeypatch):
    from oprstats import _factions

    mine, foe = armies
    real = _factions.play_pairing
    calls = []

    def stopping(**kwargs):
        calls.append(1)
        if len(calls) == 5:
            raise KeyboardInterrupt
        return real(**kwargs)

    monkeypatch.setattr(_factions, "play_pairing", stopping)
    r = shapley_values(mine, foe, games=4, permutations=6, seed=1, progress=False, resamples=100)
    assert r.interrupted and r.coalitions == 4 and "interrupted" in repr(r)
    # orders whose coalitions were not all played are left out: none is complete here
    assert r.permutations == 0 and np.isnan(r.shapley).all()


def test_the_draws_memory_is_checked_before_any_game(armies):
    mine, foe = armies
    big = Army(list(mine.units) * 4, name="twelve")
    with pytest.raises(ValueError, match="resamples: .* too much memory"):
        shapley_values(big, foe, permutations=100_000, resamples=100_000, games=1, progress=False)
