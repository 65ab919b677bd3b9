"""Full games of Grimdark Future: Firefight v3.2 (issue 41): a game between units read with
``edition="firefight-3.2"`` plays on its 4'x4' table, seeded whatever the threads, and a
paired mirror is an exact mirror. Its rules are tested move by move in
src/game/firefight_tests.rs."""

from __future__ import annotations

import math
from collections import Counter

import numpy as np
import pytest

import oprstats
from oprstats import Unit

from .conftest import cite
from .test_game import check_markers, coherent

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



def check_firefight_trace(result):
    """Every traced game, recomputed from its events: models on the 48" x 48" table, off
    impassable terrain and in 1" coherency within 6"; pushes only after a unit was Stunned,
    never over 2" and only on a 4+; Scout moves within 12"; markers seized from the end-of-round
    snapshots, Stunned units ("shaken") neither seizing nor contesting."""
    for g, trace in enumerate(result.traces):
        last_stunned = None
        for e in trace.events:
            if e["kind"] == "stunned":
                last_stunned = (e["army"], e["unit"])
            if e["kind"] == "push":
                # the attacker is the event's unit, the pushed unit its target
                assert last_stunned == (e["target_army"], e["target"]), (g, e)
                roll = int(e["detail"].split()[1].rstrip(":"))
                assert math.dist(e["from"], e["to"]) <= (2.0 if roll >= 4 else 0.0) + 1e-6, (g, e)
            if e["kind"] == "scout-move":
                assert math.dist(e["from"], e["to"]) <= 12 + 1e-6, (g, e)
            if e["kind"] not in ("position", "push", "scout-move") or e["detail"] in ("gone", "reserve"):
                continue
            models = e["models"]
            for x, y, r in models:
                assert r - 1e-6 <= x <= 48 - r + 1e-6 and r - 1e-6 <= y <= 48 - r + 1e-6, (g, e)
                for t in trace.terrain:
                    if t.impassable:
                        assert math.hypot(max(t.x0 - x, 0, x - t.x1), max(t.y0 - y, 0, y - t.y1)) >= r - 1e-6, (g, e, t)
            if e["kind"] == "position":
                assert coherent(models), (g, e)
                assert all(math.dist(a[:2], b[:2]) - a[2] - b[2] <= 6 + 1e-6 for a in models for b in models), (g, e)
        check_markers(trace, max(e["round"] for e in trace.events), lambda e: False, g)


def test_firefight_traces_follow_the_rules(rulebook):
    text = rulebook("gf-firefight-3.2.txt")
    cite(text, "must stay within 6\" of all other models")
    cite(text, "On a 4+ the attacker may move the model by up to 2\" in any direction.")
    cite(text, "Markers remain seized even if the unit moves away, however Stunned units can't seize or stop others from seizing them.")
    a = army()
    for policy in ("default", "random"):
        r = oprstats.simulate(a, a, games=40, seed=8, progress=False, trace=True, policy_a=policy, policy_b="default")
        assert r.violations == 0
        check_firefight_trace(r)


def test_an_army_brought_to_half_its_units_takes_rout_tests():
    a = army()
    one = [Unit.parse('Sniper [1] Q3+ D4+ | Tough(3)\nRifle (30", A2, AP(1))', edition=FF)]
    r = oprstats.simulate(a, a[:2] + one, games=60, seed=5, progress=False, trace=True)
    events = [e for t in r.traces for e in t.events]
    tests = [e for e in events if e["kind"] == "rout-test"]
    assert tests and r.violations == 0
    # the units' Routs and Stunned endings, counted as the traces have them
    n = len(r.winner)
    routed = sum(float(r.unit_stats[army]["routed"].sum()) for army in ("a", "b")) * n
    assert round(routed) == sum(e["kind"] == "rout" for e in events) > 0
    units = r.units()
    assert (units["routed_rate"] <= units["destroyed_rate"] + 1e-12).all()
    assert units["shaken_rate"].between(0, 1).all()
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


def test_duel_plays_firefight():
    a, b = army()[0], army()[5]
    d = oprstats.duel(a, b, games=200, seed=4)
    again = oprstats.duel(a, b, games=200, seed=4, edition=FF)
    assert np.array_equal(d.to_pandas().to_numpy(), again.to_pandas().to_numpy())
