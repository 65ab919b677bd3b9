"""Firefight v3.2's Stunned models: "If Stunned models take any hits from shooting, or are
charged again, then they are Knocked Out immediately"; the exception (one wound instead)
belongs to Tough(X): "Models with this special rule ... take one wound instead of being
Knocked Out". A Stunned model without Tough is not a Tough(1) model here (issue 16, item 11),
in attack() and melee() alike, and attack(melee=True, charging=True) is a charge too."""

from __future__ import annotations

import numpy as np
import pytest

import oprstats
from oprstats import Unit, UnitState

from .conftest import cite

FF = "firefight-3.2"
STUNNED_RULE = "If Stunned models take any hits from shooting, or are charged again, then they are Knocked Out immediately"
STUNNED = UnitState(wounds=1, shaken=True)


def ff(text: str) -> Unit:
    return Unit.parse(text, edition=FF)


def test_the_rulebook_says_so(rulebook):
    cite(rulebook("gf-firefight-3.2.txt"), STUNNED_RULE)


def test_a_stunned_model_without_tough_hit_by_shooting_is_knocked_out():
    # two dice hitting on 4+: any hit Knocks Out, blocked or not (Defense 2+ would block most)
    r = oprstats.attack(ff('S [1] Q4+ D4+\nGun (24", A2)'), ff("T [1] Q4+ D2+"), target_state=STUNNED, edition=FF)
    assert r.p_knocked_out == pytest.approx(1 - 0.5**2, abs=1e-12)
    assert r.p_stunned == pytest.approx(0.5**2, abs=1e-12)


def test_a_stunned_tough_model_hit_by_shooting_takes_one_wound_instead():
    r = oprstats.attack(ff('S [1] Q4+ D4+\nGun (24", A1)'), ff("T [1] Q4+ D2+ | Tough(3)"), target_state=STUNNED, edition=FF)
    assert r.p_knocked_out < 0.5 * (1 / 2)  # a hit is one more marker and a roll, not a Knock Out


def test_a_stunned_model_without_tough_charged_in_melee_is_knocked_out():
    charger, stunned = ff("S [1] Q4+ D4+\nCCW (A1)"), ff("T [1] Q4+ D4+\nCCW (A1)")
    m = oprstats.melee(charger, stunned, defender_state=STUNNED, edition=FF)
    assert m.defender.p_destroyed == pytest.approx(1.0, abs=1e-12)


def test_attack_when_charging_applies_the_rule_as_melee_does():
    charger = ff("S [2] Q4+ D4+\n2x CCW (A1)")
    for target in ("T [1] Q4+ D4+", "Brute [1] Q4+ D4+ | Tough(3)"):
        t = ff(target)
        attack = oprstats.attack(charger, t, melee=True, charging=True, target_state=STUNNED, edition=FF)
        melee = oprstats.melee(charger, t, defender_state=STUNNED, strike_back=False, edition=FF)
        assert attack.p_destroyed == pytest.approx(melee.defender.p_destroyed, abs=1e-12), target
        sampled = oprstats.attack(charger, t, melee=True, charging=True, target_state=STUNNED, edition=FF,
                                  method="sample", samples=200_000, seed=7)
        assert abs(sampled.p_destroyed - attack.p_destroyed) < 5 * np.sqrt(0.25 / 200_000) + 1e-9
    # not charging: a Stunned model in melee is hit as usual
    hit = oprstats.attack(charger, ff("T [1] Q4+ D4+"), melee=True, target_state=STUNNED, edition=FF)
    assert hit.p_destroyed < 1.0


def test_the_sampler_agrees_when_shooting_a_stunned_model():
    a, t = ff('S [1] Q4+ D4+\nGun (24", A2)'), ff("T [1] Q4+ D2+")
    exact = oprstats.attack(a, t, target_state=STUNNED, edition=FF)
    sampled = oprstats.attack(a, t, target_state=STUNNED, edition=FF, method="sample", samples=200_000, seed=3)
    assert abs(sampled.p_knocked_out - exact.p_knocked_out) < 5 * np.sqrt(0.25 / 200_000)
