"""``attack_table``: the batched exact attack (one call for every attacker × target pair), and
the lazily built ``AttackResult`` (its arrays made when read; pickled in full)."""

from __future__ import annotations

import math
import pickle
import warnings

import numpy as np
import pytest

import oprstats
from oprstats import Unit

ATTACKERS = [
    Unit.parse('Rifles [10] Q4+ D5+\n10x Rifle (24", A1, AP(1))'),
    Unit.parse('Snipers [2] Q3+ D5+\n2x Sniper Rifle (30", A1, AP(2), Deadly(3))'),
    Unit.parse("Brutes [3] Q4+ D4+ | Tough(3), Furious\n3x Claws (A3, AP(1), Rending)"),
]
TARGETS = [
    Unit.parse("Horde [20] Q5+ D6+"),
    Unit.parse("Guards [5] Q4+ D3+ | Tough(3), Regeneration"),
    Unit.parse("Tank [1] Q4+ D2+ | Tough(12), Fear(2)"),
]


def _means(r) -> tuple:
    alive = r.alive
    return (r.hits.mean(), r.wounds.mean(), r.kills.mean(), float(r.kills.pmf[alive]))


@pytest.mark.parametrize("kwargs", [dict(distance=12.0), dict(distance=24.0, cover=True), dict(melee=True, charging=True, distance=6.0)])
def test_each_cell_is_the_single_attack(kwargs):
    t = oprstats.attack_table(ATTACKERS, TARGETS, **kwargs, threads=2)
    assert t.kills.shape == (3, 3) and t.attackers == ("Rifles", "Snipers", "Brutes")
    for i, a in enumerate(ATTACKERS):
        for j, d in enumerate(TARGETS):
            r = oprstats.attack(a, d, **kwargs)
            got = (t.hits[i, j], t.wounds[i, j], t.kills[i, j], t.p_destroyed[i, j])
            assert got == pytest.approx(_means(r), abs=1e-12), (i, j)
            if kwargs.get("melee"):
                assert math.isnan(t.p_morale_test[i, j])
            else:
                assert t.p_morale_test[i, j] == pytest.approx(r.p_morale_test, abs=1e-12)
            assert t.unmodelled.get((i, j), ()) == r.unmodelled
    # a melee-only unit does nothing when shooting, and says so by zeros, not an error
    if not kwargs.get("melee"):
        assert (t.wounds[2] == 0).all() and (t.wounds[:2] > 0).all()


def test_firefight_has_no_morale_test_from_wounds():
    t = oprstats.attack_table(ATTACKERS[:1], TARGETS[:1], edition="firefight-3.2")
    assert math.isnan(t.p_morale_test[0, 0]) and oprstats.attack(ATTACKERS[0], TARGETS[0], edition="firefight-3.2").p_morale_test is None
    assert t.kills[0, 0] == pytest.approx(oprstats.attack(ATTACKERS[0], TARGETS[0], edition="firefight-3.2").kills.mean(), abs=1e-12)


def test_the_same_whatever_the_threads_and_read_only():
    one = oprstats.attack_table(ATTACKERS, TARGETS, threads=1)
    two = oprstats.attack_table(ATTACKERS, TARGETS, threads=2)
    for name in ("hits", "wounds", "kills", "p_destroyed", "p_morale_test"):
        assert np.array_equal(getattr(one, name), getattr(two, name))
    with pytest.raises(ValueError):
        one.kills[0, 0] = 1.0
    df = one.to_pandas()
    assert len(df) == 9 and list(df.columns[:2]) == ["attacker", "target"]
    assert df.loc[(df.attacker == "Snipers") & (df.target == "Tank"), "kills"].item() == one.kills[1, 2]
    assert "3 attackers x 3 targets" in repr(one)


def test_real_books_match_the_single_attack(book_paths):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        a, b = (list(oprstats.load_army_book(p).units)[:8] for p in book_paths[:2])
    t = oprstats.attack_table(a, b)
    for i, j in ((0, 0), (3, 5), (7, 7)):
        assert (t.wounds[i, j], t.p_destroyed[i, j]) == pytest.approx(_means(oprstats.attack(a[i], b[j]))[1::2], abs=1e-12)


def test_bad_input_is_named():
    with pytest.raises(TypeError, match=r"targets\[1\]: expected a Unit, got str"):
        oprstats.attack_table(ATTACKERS, [TARGETS[0], "Tank"])
    with pytest.raises(TypeError, match="attackers: expected a list of Units"):
        oprstats.attack_table(ATTACKERS[0], TARGETS)
    with pytest.raises(ValueError, match="distance"):
        oprstats.attack_table(ATTACKERS, TARGETS, distance=-1)
    with pytest.raises(ValueError, match="threads"):
        oprstats.attack_table(ATTACKERS, TARGETS, threads=0)
    with pytest.raises(ValueError, match="edition"):
        oprstats.attack_table(ATTACKERS, TARGETS, edition="9")
    big = [TARGETS[0]] * 1415
    with pytest.raises(ValueError, match="attackers × targets"):
        oprstats.attack_table(big, big)
    empty = oprstats.attack_table([], TARGETS)
    assert empty.kills.shape == (0, 3)


def test_an_attack_result_pickles_in_full_and_reads_lazily():
    r = oprstats.attack(ATTACKERS[0], TARGETS[1])
    back = pickle.loads(pickle.dumps(r))
    for stage in ("hits", "unblocked", "wounds", "kills", "remaining"):
        assert np.array_equal(getattr(back, stage).pmf, getattr(r, stage).pmf)
    assert back.states == r.states and back.p_shaken == r.p_shaken and back.groups == r.groups
    assert back.unmodelled == r.unmodelled and back.p_morale_test == r.p_morale_test
    # a stage read twice is the same object: built once
    assert r.kills is r.kills
    s = oprstats.attack(ATTACKERS[0], TARGETS[1], method="sample", samples=5000, seed=1)
    back = pickle.loads(pickle.dumps(s))
    assert back.dice == s.dice and back.samples == 5000 and np.array_equal(back.kills.pmf, s.kills.pmf)
