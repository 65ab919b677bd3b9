"""Every edition's exact engine equals the literal enumeration of tests/oracle.py on small
cases, to 1e-12, at every stage. The oracle is told each edition's rules as plain numbers
read from its rulebook; the engine reads them from its rule tables."""

from __future__ import annotations

import dataclasses as dc

import numpy as np
import pytest

import oprstats
from oprstats import Unit, UnitState

from . import oracle
from .oracle import OGroup, OModel, OTarget


def models(n, tough=1, defense=4, regeneration=False):
    return [OModel(tough=tough, defense=defense, regeneration=regeneration) for _ in range(n)]


# (id, edition, attacker, target, attack kwargs, oracle groups, oracle target)
CASES = [
    # --- Grimdark Future v3.4.1
    ("3.4.1-poison", "3.4.1", 'S [1] Q3+ D4+\nClaws (A3, Poison)', "T [3] Q4+ D4+ | Regeneration", {"melee": True},
     [OGroup(3, quality=3, bane=True, ignores_regeneration=True)], OTarget(models(3, regeneration=True), regen_each=True)),
    # AP(4) and AP(+4) differ only where a Defense modifier brings the roll back under 6: cover
    ("3.4.1-rending-sets-ap4", "3.4.1", 'S [1] Q3+ D4+\nGun (24", A3, AP(1), Rending)', "T [2] Q4+ D2+", {"cover": True},
     [OGroup(3, quality=3, ap=1, ap_six_at_least=4, ignores_regeneration=True)], OTarget(models(2, defense=2), cover=True)),
    ("3.4.1-sniper", "3.4.1", 'S [1] Q5+ D4+\nLong Rifle (30", A2, AP(1), Sniper)', ("T [2] Q4+ D4+", "Captain [1] Q3+ D3+ | Hero, Tough(3)"), {},
     [OGroup(2, quality=2, ap=1, takedown=True)], OTarget(models(2) + [OModel(tough=3, defense=3, hero=True)])),
    ("3.4.1-relentless-on-hold", "3.4.1", 'S [2] Q4+ D4+ | Relentless\n2x Gun (24", A2)', "T [5] Q4+ D5+", {"distance": 6},
     [OGroup(4, quality=4, extra_hits_on_six=1)], OTarget(models(5, defense=5))),
    ("3.4.1-relentless-not-after-moving", "3.4.1", 'S [2] Q4+ D4+ | Relentless\n2x Gun (24", A2)', "T [5] Q4+ D5+", {"distance": 18, "moved": True},
     [OGroup(4, quality=4)], OTarget(models(5, defense=5))),
    ("3.4.1-entrenched", "3.4.1", 'S [2] Q3+ D4+\n2x Gun (24", A2)', "T [3] Q4+ D4+ | Entrenched", {"distance": 12},
     [OGroup(4, quality=3, hit_mod=-2)], OTarget(models(3))),
    ("3.4.1-aircraft", "3.4.1", 'S [2] Q3+ D4+\n2x Gun (24", A2)', "Jet [1] Q4+ D4+ | Aircraft, Tough(3)", {"distance": 12},
     [OGroup(4, quality=3, hit_mod=-1)], OTarget(models(1, tough=3))),
    ("3.4.1-lock-on", "3.4.1", 'S [1] Q3+ D4+\nMissile (24", A3, Lock-On)', "Jet [1] Q4+ D4+ | Aircraft, Tough(3)", {"distance": 12, "cover": True},
     [OGroup(3, quality=3)], OTarget(models(1, tough=3))),
    ("3.4.1-lance", "3.4.1", 'S [2] Q4+ D4+\n2x Lance (A1, Lance)', "T [3] Q4+ D4+", {"melee": True, "charging": True},
     [OGroup(2, quality=4, hit_mod=1, ap=1)], OTarget(models(3))),
    ("3.4.1-regeneration-of-the-wounded-model", "3.4.1", 'S [1] Q3+ D4+\nGun (24", A4)',
     ("T [2] Q4+ D4+", "Boss [1] Q3+ D4+ | Hero, Tough(3), Regeneration"), {},
     [OGroup(4, quality=3)], OTarget(models(2) + [OModel(tough=3, hero=True, regeneration=True)], regen_each=True)),
    # --- Grimdark Future v2.x
    ("2-cover-is-minus-one-to-hit", "2", 'S [2] Q4+ D4+\n2x Gun (24", A2)', "T [3] Q4+ D4+", {"cover": True},
     [OGroup(4, quality=4, hit_mod=-1)], OTarget(models(3))),
    ("2-stealth-at-any-range", "2", 'S [2] Q4+ D4+\n2x Gun (24", A2)', "T [3] Q4+ D4+ | Stealth", {"distance": 6},
     [OGroup(4, quality=4, hit_mod=-1)], OTarget(models(3))),
    ("2-blast-uncapped", "2", 'S [1] Q4+ D4+\nMortar (24", A2, Blast(3))', "T [2] Q4+ D4+", {},
     [OGroup(2, quality=4, multiply=3)], OTarget(models(2))),
    ("2-blast-keeps-cover", "2", 'S [1] Q4+ D4+\nMortar (24", A1, Blast(3))', "T [5] Q4+ D4+", {"cover": True},
     [OGroup(1, quality=4, multiply=3, hit_mod=-1)], OTarget(models(5))),
    ("2-poison-triples-sixes", "2", 'S [1] Q4+ D4+\nClaws (A3, Poison)', "T [6] Q4+ D4+", {"melee": True},
     [OGroup(3, quality=4, six_mult=3)], OTarget(models(6))),
    ("2-relentless-extra-attacks", "2", 'S [2] Q4+ D4+ | Relentless\n2x Gun (24", A2)', "T [6] Q4+ D5+", {},
     [OGroup(4, quality=4, extra_attack_on_six=True)], OTarget(models(6, defense=5))),
    ("2-rending-only-sixes-ignore-regeneration", "2", 'S [1] Q3+ D4+\nClaws (A3, Rending)', "T [3] Q4+ D3+ | Regeneration", {"melee": True},
     [OGroup(3, quality=3, ap_six_at_least=4, regen_bypass_on_six=True)], OTarget(models(3, defense=3, regeneration=True), regen_each=True)),
    ("2-impact-automatic-hits", "2", 'S [2] Q4+ D4+ | Impact(2)\n2x CCW (A1)', "T [5] Q4+ D5+", {"melee": True, "charging": True},
     [OGroup(2, quality=4), OGroup(4, auto_hit=True)], OTarget(models(5, defense=5))),
    ("2-furious-extra-attack", "2", 'S [2] Q4+ D4+ | Furious\n2x CCW (A1), Axe (A1, AP(2))', "T [6] Q4+ D4+", {"melee": True, "charging": True},
     # one model has a CCW and the Axe (its +1 goes to the Axe), the other a CCW
     [OGroup(3, quality=4), OGroup(2, quality=4, ap=2)], OTarget(models(6))),
    ("2-aircraft", "2", 'S [1] Q3+ D4+\nGun (30", A3)', "Jet [1] Q4+ D4+ | Aircraft, Tough(3)", {"distance": 18},
     [OGroup(3, quality=3, hit_mod=-1)], OTarget(models(1, tough=3))),
    ("2-anti-air", "2", 'S [1] Q3+ D4+\nFlak (30", A3, Anti-Air)', "Jet [1] Q4+ D4+ | Aircraft, Tough(3)", {"distance": 24},
     [OGroup(3, quality=3)], OTarget(models(1, tough=3))),
    ("2-sniper", "2", 'S [1] Q5+ D4+\nLong Rifle (30", A2, Sniper)', ("T [2] Q4+ D4+", "Captain [1] Q3+ D3+ | Hero, Tough(3)"), {},
     [OGroup(2, quality=2, takedown=True)], OTarget(models(2) + [OModel(tough=3, defense=3, hero=True)])),
]

# Firefight: (id, attacker, target, kwargs, oracle groups, oracle target, oracle start, shooting)
FIREFIGHT = [
    ("ff-group-loses-a-model-per-wound", 'S [2] Q3+ D4+\n2x Gun (24", A2)', "T [3] Q4+ D4+", {},
     [OGroup(4, quality=3)], OTarget(models(3)), (0, 0, False), True),
    ("ff-single-model-stunned-or-out", 'S [1] Q3+ D4+\nGun (24", A3, AP(1))', "T [1] Q4+ D4+", {},
     [OGroup(3, quality=3, ap=1)], OTarget(models(1)), (0, 0, False), True),
    ("ff-tough-rolls-after-x-wounds", 'S [2] Q3+ D4+\n2x Gun (24", A3, AP(1))', "T [1] Q4+ D4+ | Tough(3)", {},
     [OGroup(6, quality=3, ap=1)], OTarget(models(1, tough=3)), (0, 0, False), True),
    ("ff-fear-adds-to-the-check", 'S [1] Q3+ D4+ | Fear(2)\nClaws (A3)', "T [1] Q4+ D4+ | Tough(3)", {"melee": True},
     [OGroup(3, quality=3, check_bonus=2)], OTarget(models(1, tough=3)), (0, 0, False), False),
    ("ff-deadly-multiplies-markers", 'S [1] Q3+ D4+\nLascannon (24", A2, Deadly(2))', "T [2] Q4+ D4+ | Tough(3)", {},
     [OGroup(2, quality=3, deadly=2)], OTarget(models(2, tough=3)), (0, 0, False), True),
    ("ff-stunned-shot-is-knocked-out", 'S [1] Q4+ D4+\nGun (24", A2)', "T [1] Q4+ D2+", {"target_state": UnitState(wounds=1, shaken=True)},
     [OGroup(2, quality=4)], OTarget(models(1, defense=2)), (0, 1, True), True),
    ("ff-stunned-tough-takes-one-wound", 'S [1] Q4+ D4+\nGun (24", A2)', "T [1] Q4+ D2+ | Tough(3)", {"target_state": UnitState(wounds=1, shaken=True)},
     [OGroup(2, quality=4)], OTarget(models(1, tough=3, defense=2)), (0, 1, True), True),
    ("ff-stunned-in-melee-is-hit-as-usual", 'S [1] Q4+ D4+\nClaws (A3)', "T [1] Q4+ D4+ | Tough(2)", {"melee": True, "target_state": UnitState(wounds=2, shaken=True)},
     [OGroup(3, quality=4)], OTarget(models(1, tough=2)), (0, 2, True), False),
    ("ff-furious-lance", 'S [1] Q4+ D4+ | Furious\nSpear (A3, Lance)', "T [3] Q4+ D4+", {"melee": True, "charging": True},
     [OGroup(3, quality=4, ap=2, extra_hits_on_six=1)], OTarget(models(3)), (0, 0, False), False),
    ("ff-relentless-on-hold", 'S [1] Q4+ D4+ | Relentless\nGun (24", A3)', "T [3] Q4+ D5+", {"distance": 18},
     [OGroup(3, quality=4, extra_hits_on_six=1)], OTarget(models(3, defense=5)), (0, 0, False), True),
    ("ff-regeneration", 'S [1] Q3+ D4+\nGun (24", A4)', "T [2] Q4+ D5+ | Regeneration", {},
     [OGroup(4, quality=3)], OTarget(models(2, defense=5, regeneration=True)), (0, 0, False), True),
    ("ff-blast-one-hit-per-model", 'S [1] Q4+ D4+\nMortar (24", A2, Blast(3))', "T [2] Q4+ D4+", {"cover": True},
     [OGroup(2, quality=4, blast=2)], OTarget(models(2), cover=True), (0, 0, False), True),
]


def _compare(r, ref):
    for stage in ("hits", "unblocked", "wounds", "kills"):
        got, want = getattr(r, stage).pmf, np.array(ref[stage])
        n = max(got.size, want.size)
        have, need = np.pad(got, (0, n - got.size)), np.pad(want, (0, n - want.size))
        if not np.allclose(have, need, atol=1e-12, rtol=0):
            return f"{stage}: {have} != {need}"
        if abs(got.sum() - 1.0) > 1e-12:
            return f"{stage} sums to {got.sum()}"
    return None


def _attack(edition, attacker, target, kwargs):
    """`target` is a profile, or (unit, hero) for a hero joined to a unit."""
    a = Unit.parse(attacker, edition=edition)
    if isinstance(target, tuple):
        t = Unit.parse(target[0], edition=edition).join(Unit.parse(target[1], edition=edition), edition=edition)
    else:
        t = Unit.parse(target, edition=edition)
    return oprstats.attack(a, t, edition=edition, **kwargs)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_exact_equals_literal_enumeration(case):
    _, edition, attacker, target, kwargs, groups, otarget = case
    problem = _compare(_attack(edition, attacker, target, kwargs), oracle.attack(groups, otarget))
    assert problem is None, problem


@pytest.mark.parametrize("case", FIREFIGHT, ids=[c[0] for c in FIREFIGHT])
def test_firefight_exact_equals_literal_enumeration(case):
    _, attacker, target, kwargs, groups, otarget, start, shooting = case
    r = _attack("firefight-3.2", attacker, target, kwargs)
    ref, p_stunned = oracle.firefight_attack(groups, otarget, start, shooting)
    problem = _compare(r, ref)
    assert problem is None, problem
    assert abs(r.p_stunned - p_stunned) < 1e-12
    assert abs(r.p_knocked_out - r.p_destroyed) < 1e-15
    assert r.p_morale_test is None and r.p_shaken is None


def test_the_comparison_catches_a_wrong_reading():
    """Each misreading given to the oracle makes the comparison fail, so the cases can fail."""
    by_id = {c[0]: c for c in CASES}

    def fails(case_id, groups=None, otarget=None):
        _, edition, attacker, target, kwargs, g, t = by_id[case_id]
        return _compare(_attack(edition, attacker, target, kwargs), oracle.attack(groups or g, otarget or t)) is not None

    rending = by_id["3.4.1-rending-sets-ap4"]
    assert fails(rending[0], [dc.replace(rending[5][0], ap_on_six=4, ap_six_at_least=0)])  # v3.5's AP(+4)
    blast = by_id["2-blast-uncapped"]
    assert fails(blast[0], [dc.replace(blast[5][0], multiply=1, blast=3)])  # v3.5's cap
    poison = by_id["2-poison-triples-sixes"]
    assert fails(poison[0], [dc.replace(poison[5][0], six_mult=1, bane=True)])  # v3.4.1's Poison
    relentless = by_id["2-relentless-extra-attacks"]
    assert fails(relentless[0], [dc.replace(relentless[5][0], extra_attack_on_six=False, extra_hits_on_six=1)])
    regen = by_id["2-rending-only-sixes-ignore-regeneration"]
    assert fails(regen[0], [dc.replace(regen[5][0], ignores_regeneration=True)])
    each = by_id["3.4.1-regeneration-of-the-wounded-model"]
    assert fails(each[0], otarget=dc.replace(each[6], regen_each=False, models=[dc.replace(m, regeneration=True) for m in each[6].models]))

    ff = {c[0]: c for c in FIREFIGHT}
    _, attacker, target, kwargs, groups, otarget, start, shooting = ff["ff-fear-adds-to-the-check"]
    r = _attack("firefight-3.2", attacker, target, kwargs)
    assert _compare(r, oracle.firefight_attack([dc.replace(groups[0], check_bonus=0)], otarget, start, shooting)[0]) is not None
    _, attacker, target, kwargs, groups, otarget, start, shooting = ff["ff-stunned-shot-is-knocked-out"]
    r = _attack("firefight-3.2", attacker, target, kwargs)
    assert _compare(r, oracle.firefight_attack(groups, otarget, start, shooting=False)[0]) is not None


def test_v3_5_is_unchanged_by_the_other_editions():
    """The same profiles under v3.5 still read v3.5's rules (Rending AP(+4), Blast capped)."""
    r = _attack("3.5", 'S [1] Q3+ D4+\nGun (24", A3, AP(1), Rending)', "T [2] Q4+ D2+", {"cover": True})
    ref = oracle.attack([OGroup(3, quality=3, ap=1, ap_on_six=4, ignores_regeneration=True)], OTarget(models(2, defense=2), cover=True))
    assert _compare(r, ref) is None
