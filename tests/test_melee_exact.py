"""The exact melee equals a literal, step-by-step enumeration of every die (tests/oracle.py)
on small charges, to 1e-12: who wins, each side's fate, wounds, and the joint models left."""

from __future__ import annotations

from collections import defaultdict

import numpy as np
import pytest

import oprstats
from oprstats import Unit, UnitState

from . import oracle
from .oracle import OFighter, OModel, OWeapon


def U(text: str) -> Unit:
    return Unit.parse(text)


def fighters(n, *, quality=4, defense=4, tough=1, weapons=(), impact=0, fear=0, fearless=False, hero=False):
    return [OFighter(OModel(tough=tough, defense=defense, hero=hero), quality=quality, weapons=list(weapons),
                     impact=impact, fear=fear, fearless=fearless) for _ in range(n)]


CAPTAIN = "Captain [1] Q3+ D3+ | Hero, Tough(3)\nSword (A2, AP(1))"
CAPTAIN_O = fighters(1, quality=3, defense=3, tough=3, weapons=[OWeapon(2, ap=1)], hero=True)
FEARLESS_CAPTAIN = "Captain [1] Q3+ D3+ | Hero, Tough(3), Fearless\nSword (A2, AP(1))"

# (id, charger, defender, melee kwargs, oracle charger, oracle defender, oracle kwargs)
CASES = [
    ("plain", U("C [2] Q4+ D4+\n2x CCW (A1)"), U("D [2] Q4+ D4+\n2x CCW (A1)"), {},
     fighters(2, weapons=[OWeapon(1)]), fighters(2, weapons=[OWeapon(1)]), {}),
    ("strike-back-with-survivors", U("C [3] Q3+ D5+\n3x Axe (A2, AP(1))"), U("D [3] Q4+ D4+\n3x Club (A2)"), {},
     fighters(3, quality=3, defense=5, weapons=[OWeapon(2, ap=1)]), fighters(3, weapons=[OWeapon(2)]), {}),
    ("counter-first-and-impact-less-counter", U("C [2] Q4+ D4+ | Impact(2)\n2x Hooves (A1)"),
     U("D [2] Q4+ D4+\n2x Pike (A1, Counter)"), {},
     fighters(2, weapons=[OWeapon(1)], impact=2), fighters(2, weapons=[OWeapon(1, counter=True)]), {}),
    ("counter-and-other-weapons", U("C [2] Q4+ D5+ | Impact(1)\n2x CCW (A1)"),
     U("D [2] Q4+ D4+\n2x Pike (A1, Counter), 2x Knife (A1)"), {},
     fighters(2, defense=5, weapons=[OWeapon(1)], impact=1),
     fighters(2, weapons=[OWeapon(1, counter=True), OWeapon(1)]), {}),
    ("no-strike-back", U("C [2] Q4+ D4+\n2x CCW (A2)"), U("D [2] Q4+ D4+\n2x Pike (A1, Counter)"), {"strike_back": False},
     fighters(2, weapons=[OWeapon(2)]), fighters(2, weapons=[OWeapon(1, counter=True)]), {"strike_back": False}),
    ("fear-decides", U("C [2] Q4+ D4+\n2x CCW (A1)"), U("D [1] Q4+ D4+ | Tough(3), Fear(2)\nClaws (A1)"), {},
     fighters(2, weapons=[OWeapon(1)]), fighters(1, tough=3, weapons=[OWeapon(1)], fear=2), {}),
    ("fearless-defender", U("C [3] Q3+ D4+\n3x CCW (A2)"), U("D [3] Q5+ D5+ | Fearless\n3x CCW (A1)"), {},
     fighters(3, quality=3, weapons=[OWeapon(2)]), fighters(3, quality=5, defense=5, weapons=[OWeapon(1)], fearless=True), {}),
    ("shaken-defender", U("C [2] Q4+ D4+\n2x CCW (A2)"), U("D [3] Q4+ D4+ | Fearless\n3x CCW (A2)"),
     {"defender_state": UnitState(shaken=True)},
     fighters(2, weapons=[OWeapon(2)]), fighters(3, weapons=[OWeapon(2)], fearless=True), {"defender_shaken": True}),
    ("hero-tests-for-the-unit", U("C [3] Q3+ D4+\n3x CCW (A2, AP(1))"), U("D [2] Q5+ D5+\n2x CCW (A1)").join(U(CAPTAIN)), {},
     fighters(3, quality=3, weapons=[OWeapon(2, ap=1)]), fighters(2, quality=5, defense=5, weapons=[OWeapon(1)]) + CAPTAIN_O, {}),
    ("single-tough-model-routs-by-tough", U("C [3] Q3+ D4+\n3x CCW (A2, AP(1))"), U("D [1] Q4+ D4+ | Tough(4)\nClaws (A2)"), {},
     fighters(3, quality=3, weapons=[OWeapon(2, ap=1)]), fighters(1, tough=4, weapons=[OWeapon(2)]), {}),
    ("charger-fatigued-no-impact", U("C [2] Q4+ D4+ | Impact(3)\n2x CCW (A2)"), U("D [2] Q4+ D4+\n2x CCW (A1)"),
     {"charger_fatigued": True},
     fighters(2, weapons=[OWeapon(2)], impact=3), fighters(2, weapons=[OWeapon(1)]), {"charger_fatigued": True}),
    ("defender-fatigued", U("C [2] Q4+ D4+\n2x CCW (A1)"), U("D [2] Q3+ D4+\n2x CCW (A3)"), {"defender_fatigued": True},
     fighters(2, weapons=[OWeapon(1)]), fighters(2, quality=3, weapons=[OWeapon(3)]), {"defender_fatigued": True}),
    ("furious-and-thrust-when-charging", U("C [2] Q4+ D4+ | Furious\n2x Spear (A1, Thrust)"), U("D [2] Q4+ D3+\n2x Spear (A1, Thrust)"), {},
     fighters(2, weapons=[OWeapon(1, furious=True, thrust=True)]), fighters(2, defense=3, weapons=[OWeapon(1, thrust=True)]), {}),
    ("deadly-in-melee", U("C [1] Q3+ D4+ | Tough(3)\nFist (A2, Deadly(3))"), U("D [2] Q4+ D4+ | Tough(3)\n2x CCW (A2)"), {},
     fighters(1, quality=3, tough=3, weapons=[OWeapon(2, deadly=3)]), fighters(2, tough=3, weapons=[OWeapon(2)]), {}),
    ("damaged-defender", U("C [2] Q4+ D4+\n2x CCW (A2)"), U("D [4] Q4+ D4+ | Tough(2)\n4x CCW (A1)"),
     {"defender_state": UnitState(models_lost=2, wounds=1)},
     fighters(2, weapons=[OWeapon(2)]), fighters(4, tough=2, weapons=[OWeapon(1)]), {"defender_start": (2, 1, 0)}),
    ("damaged-charger-with-hero", U("C [2] Q4+ D4+\n2x CCW (A1)").join(U(FEARLESS_CAPTAIN)), U("D [3] Q4+ D4+\n3x CCW (A2)"),
     {"charger_state": UnitState(models_lost=1)},
     fighters(2, weapons=[OWeapon(1)]) + fighters(1, quality=3, defense=3, tough=3, weapons=[OWeapon(2, ap=1)], hero=True, fearless=True),
     fighters(3, weapons=[OWeapon(2)]), {"charger_start": (1, 0, 0)}),
]


def _marginals(ref: dict):
    """The oracle's outcomes in the result's shape."""
    winner = defaultdict(float)
    status = {"charger": defaultdict(float), "defender": defaultdict(float)}
    wounds = {"charger": defaultdict(float), "defender": defaultdict(float)}
    left = defaultdict(float)
    for (w, cs, ds, wc, wd, cl, dl), p in ref.items():
        winner[w] += p
        status["charger"][cs] += p
        status["defender"][ds] += p
        wounds["charger"][wc] += p
        wounds["defender"][wd] += p
        left[(cl, dl)] += p
    return winner, status, wounds, left


def _pad(a, n):
    out = np.zeros(n)
    out[: len(a)] = a
    return out


def check(result, ref, atol=1e-12):
    winner, status, wounds, left = _marginals(ref)
    assert result.p_charger_wins == pytest.approx(winner["charger"], abs=atol)
    assert result.p_defender_wins == pytest.approx(winner["defender"], abs=atol)
    assert result.p_tie == pytest.approx(winner["tie"], abs=atol)
    for side in (result.charger, result.defender):
        for k in ("destroyed", "routed", "shaken", "unaffected"):
            assert getattr(side, f"p_{k}") == pytest.approx(status[side.role][k], abs=atol), (side.role, k)
        want = [wounds[side.role][i] for i in range(max(wounds[side.role]) + 1)]
        n = max(len(want), side.wounds_caused.pmf.size)
        assert np.allclose(_pad(side.wounds_caused.pmf, n), _pad(want, n), atol=atol), side.role
    grid = np.zeros_like(result.models_left)
    for (cl, dl), p in left.items():
        grid[cl, dl] += p
    assert np.allclose(result.models_left, grid, atol=atol)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_exact_melee_equals_literal_enumeration(case):
    _, charger, defender, kwargs, oc, od, okw = case
    result = oprstats.melee(charger, defender, **kwargs)
    check(result, oracle.melee(oc, od, **okw))
    assert sum(p for _, p in result.charger.states) == pytest.approx(1 - result.charger.p_destroyed - result.charger.p_routed, abs=1e-12)
    assert sum(p for _, p in result.defender.states) == pytest.approx(1 - result.defender.p_destroyed - result.defender.p_routed, abs=1e-12)


def test_the_comparison_catches_a_wrong_reading():
    """Misreadings given to the oracle must make the comparison fail."""
    by_id = {c[0]: c for c in CASES}

    def fails(case_id, **changes):
        _, charger, defender, kwargs, oc, od, okw = by_id[case_id]
        oc, od, okw = changes.get("oc", oc), changes.get("od", od), {**okw, **changes.get("okw", {})}
        with pytest.raises(AssertionError):
            check(oprstats.melee(charger, defender, **kwargs), oracle.melee(oc, od, **okw))

    # Counter weapons that did not strike first (struck back with the rest instead)
    fails("counter-first-and-impact-less-counter", od=fighters(2, weapons=[OWeapon(1)]))
    # no Fear
    fails("fear-decides", od=fighters(1, tough=3, weapons=[OWeapon(1)]))
    # a defender that strikes back with its starting models, not its survivors
    fails("strike-back-with-survivors", okw={"strike_back": False})
    # Fearless ignored
    fails("fearless-defender", od=fighters(3, quality=5, defense=5, weapons=[OWeapon(1)]))
    # the hero does not test for the unit (its Quality 3+ unused)
    captain_q5 = fighters(1, quality=5, defense=3, tough=3, weapons=[OWeapon(2, ap=1)], hero=True)
    fails("hero-tests-for-the-unit", od=fighters(2, quality=5, defense=5, weapons=[OWeapon(1)]) + captain_q5)


def test_benchmark_sized_melee_sums_to_one():
    charger = U("Squad [10] Q4+ D4+\n10x Hand Weapon (A2, AP(1))").join(U("Captain [1] Q3+ D4+ | Hero, Tough(3)\nHand Weapon (A2, AP(1))"))
    defender = U("Guards [5] Q4+ D3+ | Tough(3), Fear(1)\n5x Halberd (A2, Counter)")
    m = oprstats.melee(charger, defender)
    assert m.p_charger_wins + m.p_defender_wins + m.p_tie == pytest.approx(1, abs=1e-12)
    for side in (m.charger, m.defender):
        assert side.p_destroyed + side.p_routed + side.p_shaken + side.p_unaffected == pytest.approx(1, abs=1e-12)
        assert side.wounds_caused.pmf.sum() == pytest.approx(1, abs=1e-12)
        assert side.lost.pmf.sum() == pytest.approx(1, abs=1e-12)
    assert m.models_left.shape == (12, 6) and m.models_left.sum() == pytest.approx(1, abs=1e-12)
