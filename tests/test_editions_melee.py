"""Melee in every edition: the exact engine equals the literal oracle (v3.4.1 and v2, whose
melees are resolved), and the sampler agrees with the exact engine in all four editions
(the stated test of tests/test_melee_sample.py: 100,000 seeded exchanges, chi-square,
p < 1e-6 fails)."""

from __future__ import annotations

import numpy as np
import pytest

import oprstats
from oprstats import Unit, UnitState

from . import oracle
from .oracle import OFighter, OModel, OWeapon
from .test_melee_exact import check


def fighters(n, *, quality=4, defense=4, tough=1, weapons=(), fear_d3=False, fearless=False, morale_mod=0, hero=False):
    return [OFighter(OModel(tough=tough, defense=defense, hero=hero), quality=quality, weapons=list(weapons),
                     fear_d3=fear_d3, fearless=fearless, morale_mod=morale_mod) for _ in range(n)]


def units(edition, charger, defender):
    parse = lambda t: Unit.parse(t[0], edition=edition).join(Unit.parse(t[1], edition=edition), edition=edition) if isinstance(t, tuple) else Unit.parse(t, edition=edition)
    return parse(charger), parse(defender)


# (id, edition, charger, defender, melee kwargs, oracle charger, oracle defender, oracle kwargs)
CASES = [
    ("2-fear-d3", "2", "Beast [1] Q4+ D4+ | Fear, Tough(3)\nClaws (A2)", "T [3] Q4+ D5+\n3x CCW (A1)", {},
     fighters(1, tough=3, weapons=[OWeapon(2)], fear_d3=True), fighters(3, defense=5, weapons=[OWeapon(1)]), {}),
    ("2-fearless-plus-one", "2", "S [3] Q4+ D4+\n3x CCW (A1, AP(1))", "T [3] Q5+ D5+ | Fearless\n3x CCW (A1)", {},
     fighters(3, weapons=[OWeapon(1, ap=1)]), fighters(3, quality=5, defense=5, weapons=[OWeapon(1)], morale_mod=1), {}),
    ("3.4.1-fearless-most-models", "3.4.1", "S [3] Q4+ D4+\n3x CCW (A1, AP(1))",
     ("T [3] Q5+ D5+ | Fearless\n3x CCW (A1)", "Captain [1] Q5+ D5+ | Hero, Tough(3)\nCCW (A1)"), {},
     fighters(3, weapons=[OWeapon(1, ap=1)]),
     fighters(3, quality=5, defense=5, weapons=[OWeapon(1)], fearless=True) + fighters(1, quality=5, defense=5, tough=3, weapons=[OWeapon(1)], hero=True),
     {"fearless_needs": "most"}),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_exact_melee_equals_literal_enumeration(case):
    _, edition, charger, defender, kwargs, oc, od, okw = case
    c, d = units(edition, charger, defender)
    check(oprstats.melee(c, d, edition=edition, **kwargs), oracle.melee(oc, od, **okw))


def test_the_melee_comparison_catches_a_wrong_reading():
    by_id = {c[0]: c for c in CASES}
    for case_id, change in [("2-fear-d3", {"oc": fighters(1, tough=3, weapons=[OWeapon(2)])}),
                            ("2-fearless-plus-one", {"od": fighters(3, quality=5, defense=5, weapons=[OWeapon(1)], fearless=True)}),
                            ("3.4.1-fearless-most-models", {"okw": {"fearless_needs": "all"}})]:
        _, edition, charger, defender, kwargs, oc, od, okw = by_id[case_id]
        c, d = units(edition, charger, defender)
        with pytest.raises(AssertionError):
            check(oprstats.melee(c, d, edition=edition, **kwargs),
                  oracle.melee(change.get("oc", oc), change.get("od", od), **change.get("okw", okw)))


# Charges for the sampler, in every edition: (id, edition, charger, defender, kwargs)
CHARGES = [(c[0], c[1], c[2], c[3], c[4]) for c in CASES] + [
    ("2-impact-furious", "2", "Riders [3] Q4+ D4+ | Impact(1), Furious\n3x Lance (A1, AP(1))", "T [5] Q4+ D5+\n5x CCW (A1)", {}),
    ("3.4.1-lance-counter", "3.4.1", "Riders [3] Q4+ D4+ | Impact(1)\n3x Lance (A1, Lance)", "T [5] Q4+ D4+\n5x Spear (A1, Counter)", {}),
    ("ff-groups", "firefight-3.2", "S [3] Q4+ D4+\n3x CCW (A2)", "T [3] Q4+ D5+\n3x CCW (A1)", {}),
    ("ff-tough-and-fear", "firefight-3.2", "Beast [1] Q3+ D3+ | Tough(3), Fear(1)\nClaws (A4, AP(1))", "Brute [1] Q4+ D4+ | Tough(3)\nAxe (A3, AP(1))", {}),
    ("ff-stunned-defender-charged", "firefight-3.2", "S [2] Q4+ D4+\n2x CCW (A1)", "Brute [1] Q4+ D4+ | Tough(3)\nAxe (A3)",
     {"defender_state": UnitState(wounds=1, shaken=True)}),
    ("ff-counter-impact", "firefight-3.2", "Riders [2] Q4+ D4+ | Impact(2)\n2x Lance (A1, Lance)", "T [3] Q4+ D4+\n3x Spear (A1, Counter)", {}),
]


def _chi(got, want):
    from .test_attack_sample import chi_square_p, SAMPLES
    return chi_square_p(np.asarray(got, dtype=float), np.asarray(want, dtype=float), SAMPLES)


@pytest.mark.parametrize("charge", CHARGES, ids=[c[0] for c in CHARGES])
def test_sampler_agrees_in_every_edition(charge):
    pytest.importorskip("scipy.stats")
    from .test_attack_sample import ALPHA, SAMPLES

    _, edition, charger, defender, kwargs = charge
    c, d = units(edition, charger, defender)
    exact = oprstats.melee(c, d, edition=edition, **kwargs)
    sampled = oprstats.melee(c, d, edition=edition, method="sample", samples=SAMPLES, seed=2024, **kwargs)
    checks = {"models left": (sampled.models_left.ravel(), exact.models_left.ravel())}
    if exact.p_tie is not None:
        checks["winner"] = ([sampled.p_charger_wins, sampled.p_defender_wins, sampled.p_tie],
                            [exact.p_charger_wins, exact.p_defender_wins, exact.p_tie])
    for s, e in ((sampled.charger, exact.charger), (sampled.defender, exact.defender)):
        fates = ("destroyed", "routed", "shaken", "unaffected")
        checks[f"{s.role} fate"] = ([getattr(s, f"p_{k}") for k in fates], [getattr(e, f"p_{k}") for k in fates])
        checks[f"{s.role} wounds"] = (s.wounds_caused.pmf, e.wounds_caused.pmf)
    for name, (got, want) in checks.items():
        p = _chi(got, want)
        assert p > ALPHA, f"{name}: chi-square p = {p:.3g}"
