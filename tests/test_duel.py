"""``duel``: two units fight over a game's rounds from a documented line-up, played by the
full game engine on an open table with no objectives, judged by the share of each destroyed."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest

import oprstats
from oprstats import Unit

from .conftest import cite

RIFLES = Unit.parse('Rifles [10] Q4+ D4+ | 100pts\n10x Rifle (24", A1, AP(1))')
BRUTES = Unit.parse("Brutes [3] Q4+ D4+ | 150pts | Tough(3)\n3x Claws (A3, AP(1))")
BIG = Unit.parse("Big [10] Q4+ D4+ | 100pts | Tough(12)\n10x Claw (A1)")
GIANT = Unit.parse("Giant [1] Q3+ D2+ | 400pts | Tough(18), Fear(2)\nGiant Club (A8, AP(3))")


def _closest(models_a, models_b) -> float:
    return min(math.hypot(xa - xb, ya - yb) - ra - rb for xa, ya, ra in models_a for xb, yb, rb in models_b)


@pytest.mark.parametrize("distance", [24.0, 12.0, 6.5, 0.5, 0.0])
def test_the_line_up_sets_the_closest_models_apart(distance):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = oprstats.simulate([RIFLES], [BRUTES], games=1, seed=1, terrain="open", objectives=[], line_up=distance, trace=True, progress=False)
    placed = [e for e in g.traces[0].events if e["kind"] == "deploy-fixed"]
    assert len(placed) == 2
    assert _closest(placed[0]["models"], placed[1]["models"]) == pytest.approx(distance, abs=1e-6)
    # facing each other across the table's centre line, on its middle
    assert {round(e["to"][0], 6) for e in placed} == {36.0}
    assert placed[0]["to"][1] + placed[1]["to"][1] == pytest.approx(48.0, abs=3.0)


def test_a_rush_from_24_inches_leaves_a_charge_for_the_next_round(rulebook):
    # "Rush - Moves 12" but can't shoot"; "Charge - Moves 12" into melee"; "Units may only take
    # a Charge action if at least one model is within charge distance of the target unit": a
    # melee unit lined up 24" from a gun line rushes straight at it and charges next round,
    # whatever its size (the duel's win chance no longer dips where a formation's closest
    # model missed the 12" by a hair)
    text = rulebook("gf-3.5-beginners-guide.txt")
    cite(text, 'Rush - Moves 12" but can\'t shoot.')
    cite(text, 'Charge - Moves 12" into melee.')
    gun_line = Unit.parse('Rifles [10] Q4+ D4+ | 100pts\n10x Rifle (24", A1)')
    for n in range(3, 11):
        squad = Unit.parse(f'Squad [{n}] Q4+ D4+ | {10 * n}pts\n{n}x Hand Weapon (A2, AP(1)), {n}x Pistol (12", A1)')
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            g = oprstats.simulate([squad], [gun_line], games=40, seed=1, terrain="open", objectives=[], line_up=24.0, first="a",
                                  trace=True, progress=False)
        for trace in g.traces:
            acts = [e for e in trace.events if e["army"] == 0 and e["kind"] in ("hold", "advance", "rush", "charge", "idle")]
            first, second = acts[0], acts[1] if len(acts) > 1 else None
            assert first["kind"] == "rush" and first["length"] == pytest.approx(12.0), (n, first)
            # still there and not Shaken: it charges
            if second is not None and second["kind"] != "idle":
                assert second["kind"] == "charge", (n, second)


def test_a_mirror_duel_paired_is_exactly_even():
    r = oprstats.duel(RIFLES, RIFLES, games=500, seed=3, paired=True)
    s = r.summary_dict()
    assert s["a_wins"][0] == s["b_wins"][0]
    assert s["share_a_destroyed"][0] == pytest.approx(s["share_b_destroyed"][0], abs=1e-12)
    # each pair is a mirror: its two games swap the units' fates
    np.testing.assert_array_equal(r.left[0::2, 0], r.left[1::2, 1])


def test_duels_are_seeded_and_thread_independent():
    one = oprstats.duel(RIFLES, BRUTES, games=2000, seed=7, threads=1)
    two = oprstats.duel(RIFLES, BRUTES, games=2000, seed=7, threads=2)
    np.testing.assert_array_equal(one.left, two.left)
    np.testing.assert_array_equal(one.first, two.first)
    other = oprstats.duel(RIFLES, BRUTES, games=2000, seed=8)
    assert not np.array_equal(one.left, other.left)


def test_shares_points_and_intervals():
    r = oprstats.duel(RIFLES, BRUTES, games=3000, seed=5, paired=True)
    assert r.left.shape == (6000, 2) and ((r.left >= 0) & (r.left <= 1)).all()
    np.testing.assert_array_equal(r.destroyed, r.left == 0)
    np.testing.assert_array_equal(r.winner, np.sign(r.left[:, 0] - r.left[:, 1]))
    s = r.summary_dict()
    assert s["a_wins"][0] + s["draws"][0] + s["b_wins"][0] == pytest.approx(1.0)
    assert s["points_destroyed_by_a"][0] == pytest.approx(150 * s["share_b_destroyed"][0])
    # paired: the chances' intervals rest on the pairs (3,000 of them), not the games, and
    # the shares' too
    from oprstats._game import _Z95, paired_interval

    assert s["a_wins"] == pytest.approx(paired_interval((r.winner == 1).astype(float))[:3])
    pairs = (1 - r.left[:, 1]).reshape(-1, 2).mean(axis=1)
    assert s["share_b_destroyed"][2] - s["share_b_destroyed"][0] == pytest.approx(_Z95 * pairs.std(ddof=1) / math.sqrt(len(pairs)))
    # a certainty has an interval of some width (Wilson's), not none
    giant = oprstats.duel(GIANT, Unit.parse("Grunt [1] Q6+ D6+ | 5pts"), games=200, seed=1)
    low, high = giant.summary_dict()["b_wins"][1:]
    assert giant.summary_dict()["b_wins"][0] == 0.0 and low == pytest.approx(0.0, abs=1e-12) and high > 0.01
    df = r.to_pandas()
    assert len(df) == 6000 and list(df.columns) == ["first", "left_Rifles", "left_Brutes", "winner"]
    assert "Rifles vs Brutes, 6,000 games from 24\"" in repr(r)


def test_a_much_stronger_unit_wins_most_duels():
    r = oprstats.duel(GIANT, RIFLES, games=2000, seed=1)
    s = r.summary_dict()
    assert s["a_wins"][1] > 0.8 and s["b_removed"][0] > s["a_removed"][0]


def test_a_duel_at_a_fitting_line_up_plays():
    assert oprstats.duel(BIG, BIG, games=20, seed=1, line_up=24).games == 20


def test_a_unit_without_a_cost_duels_with_points_unknown():
    plain = Unit.parse('Plain [5] Q4+ D4+\n5x Rifle (24", A1)')
    r = oprstats.duel(plain, RIFLES, games=500, seed=2)
    s = r.summary_dict()
    assert math.isnan(s["points_destroyed_by_b"][0]) and not math.isnan(s["points_destroyed_by_a"][0])
    assert 0 < s["share_a_destroyed"][0] < 1


@pytest.mark.parametrize("call, error, words", [
    (lambda: oprstats.duel(RIFLES, BRUTES, line_up=31), ValueError, "line_up"),
    # ten Tough(12) models form too deep a formation to stand 28" from another on the table
    (lambda: oprstats.duel(BIG, BIG, line_up=28), ValueError, "line_up: \"Big\"'s formation would leave the 48\" deep table"),
    (lambda: oprstats.simulate([BIG], [BIG], terrain="open", line_up=28, progress=False), ValueError, "line_up: \"Big\"'s formation"),
    (lambda: oprstats.duel(RIFLES, BRUTES, line_up=float("nan")), TypeError, "line_up"),
    (lambda: oprstats.duel([RIFLES], BRUTES), TypeError, "a:"),
    (lambda: oprstats.duel(RIFLES, BRUTES, games=0), ValueError, "games"),
    (lambda: oprstats.duel(RIFLES, BRUTES, paired="yes"), TypeError, "paired"),
    (lambda: oprstats.simulate([RIFLES, RIFLES], [BRUTES], terrain="open", line_up=24, progress=False), ValueError, "one unit a side"),
    (lambda: oprstats.simulate([RIFLES], [BRUTES], line_up=24, progress=False), ValueError, "fixed terrain"),
    (lambda: oprstats.simulate([RIFLES], [BRUTES], terrain="open", line_up=24, deployment=([(1, 1)], [(2, 2)]), progress=False), ValueError,
     "one or the other"),
])
def test_bad_input_is_named(call, error, words):
    with pytest.raises(error) as e:
        call()
    assert words in str(e.value)


def test_the_old_distance_is_line_up_with_a_deprecation_warning():
    """issue 44: ``distance`` is the range of a shot in attack; a duel's starting gap is
    ``line_up``, as simulate names it. The old spelling works for one release."""
    new = oprstats.duel(RIFLES, BRUTES, games=50, seed=4, line_up=18)
    assert new.line_up == 18.0 and '50 games from 18"' in repr(new)
    with pytest.warns(DeprecationWarning, match=r"^duel: distance= is now line_up= \(the duel's starting gap"):
        old = oprstats.duel(RIFLES, BRUTES, games=50, seed=4, distance=18)
    np.testing.assert_array_equal(old.left, new.left)
    with pytest.raises(TypeError, match=r"duel: give line_up= only \(distance= is its old name\)"):
        oprstats.duel(RIFLES, BRUTES, games=50, line_up=24.0, distance=18)
    with pytest.warns(DeprecationWarning, match=r"DuelResult.distance is now DuelResult.line_up"):
        assert new.distance == 18.0
    # the default is 24" and shows as such
    import inspect

    assert repr(inspect.signature(oprstats.duel).parameters["line_up"].default) == "24.0"
    assert oprstats.duel(RIFLES, BRUTES, games=2, seed=1).line_up == 24.0


def test_break_even_by_duels_takes_line_up_and_the_old_distance():
    kwargs = dict(parameter="quality", method="duel", games=20, seed=1, resamples=20)
    new = oprstats.break_even(RIFLES, BRUTES, line_up=6, **kwargs)
    with pytest.warns(DeprecationWarning, match=r"^break_even: distance= is now line_up="):
        old = oprstats.break_even(RIFLES, BRUTES, distance=6, **kwargs)
    assert old.table == new.table
    assert new.table != oprstats.break_even(RIFLES, BRUTES, **kwargs).table  # from 24": the Brutes charge a round later
    with pytest.raises(TypeError, match=r"break_even: give line_up= only"):
        oprstats.break_even(RIFLES, BRUTES, line_up=12, distance=18, **kwargs)


def test_a_duel_pickled_before_line_up_still_loads():
    import pickle

    r = oprstats.duel(RIFLES, BRUTES, games=20, seed=2, line_up=20)
    back = pickle.loads(pickle.dumps(r))
    assert back.line_up == 20.0 and repr(back) == repr(r) and not back.left.flags.writeable
    # a pickle from before ``interrupted`` (and before line_up) holds the slots by name, the
    # line-up as "distance": as __setstate__ receives it
    slots = {"units": r.units, "costs": r.costs, "distance": 20.0, "rounds": r.rounds, "paired": r.paired, "seed": r.seed,
             "left": np.array(r.left), "destroyed": r.destroyed, "winner": r.winner, "first": np.array(r.first), "unmodelled": r.unmodelled}
    old = oprstats.DuelResult.__new__(oprstats.DuelResult)
    old.__setstate__((None, slots))
    assert old.line_up == 20.0 and repr(old) == repr(r) and old.interrupted is False


def test_a_duels_summary_is_a_table_shaped_like_a_games():
    """issue 44: the same kind of summary, the same type: a DataFrame with GameResult.summary()'s
    columns, the same quantities under the same names (a_wins, draws, b_wins)."""
    pd = pytest.importorskip("pandas")
    r = oprstats.duel(RIFLES, BRUTES, games=300, seed=5, paired=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = oprstats.simulate([RIFLES], [BRUTES], games=20, seed=1, progress=False)
    frame, games = r.summary(), g.summary()
    assert isinstance(frame, pd.DataFrame) and list(frame.columns) == list(games.columns) == ["rate", "low", "high", "n", "per"]
    assert frame.index.name == games.index.name == "measure"
    assert list(frame.index) == ["a_wins", "draws", "b_wins", "share_a_destroyed", "a_removed", "share_b_destroyed", "b_removed",
                                 "points_destroyed_by_a", "points_destroyed_by_b"]
    assert {"a_wins", "draws", "b_wins"} <= set(games.index)
    # the dict without pandas holds the same numbers; paired: over the 300 pairs
    for name, (rate, low, high) in r.summary_dict().items():
        assert tuple(frame.loc[name, ["rate", "low", "high"]]) == (rate, low, high)
    assert set(frame["n"]) == {300} and set(frame["per"]) == {"pairs"}
    assert frame.loc["a_wins", "rate"] == np.mean(r.winner == 1)
    assert oprstats.duel(RIFLES, BRUTES, games=40, seed=5).summary()["per"].eq("games").all()
