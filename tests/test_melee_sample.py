"""The melee sampler rolls every exchange literally and must agree with the exact engine.

Stated test: for each charge, 100,000 seeded exchanges; chi-square goodness-of-fit tests of
the sampled winner, each side's fate (destroyed, routed, Shaken, unaffected), the joint
models left of both sides, and the wounds each side caused, against the exact
probabilities (bins expected under 5 pooled); a charge fails if any p < 1e-6. With about
250 such tests at fixed seeds a false alarm is negligible, while a disagreement of half a
percent in one bin gives p far below the threshold."""

from __future__ import annotations

import random

import numpy as np
import pytest

import oprstats
from oprstats import Unit, UnitState

from .test_attack_sample import ALPHA, SAMPLES, chi_square_p
from .test_melee_exact import CASES


def agree(charger, defender, seed, **kwargs):
    exact = oprstats.melee(charger, defender, **kwargs)
    sampled = oprstats.melee(charger, defender, method="sample", samples=SAMPLES, seed=seed, **kwargs)
    assert sampled.samples == SAMPLES
    checks = {
        "winner": ([sampled.p_charger_wins, sampled.p_defender_wins, sampled.p_tie],
                   [exact.p_charger_wins, exact.p_defender_wins, exact.p_tie]),
        "models left": (sampled.models_left.ravel(), exact.models_left.ravel()),
    }
    for s, e in ((sampled.charger, exact.charger), (sampled.defender, exact.defender)):
        fates = ("destroyed", "routed", "shaken", "unaffected")
        checks[f"{s.role} fate"] = ([getattr(s, f"p_{k}") for k in fates], [getattr(e, f"p_{k}") for k in fates])
        checks[f"{s.role} wounds"] = (s.wounds_caused.pmf, e.wounds_caused.pmf)
    for name, (got, want) in checks.items():
        p = chi_square_p(np.asarray(got, dtype=float), np.asarray(want, dtype=float), SAMPLES)
        assert p > ALPHA, f"{name}: chi-square p = {p:.3g}"


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_sampler_agrees_on_rule_cases(case):
    _, charger, defender, kwargs, _, _, _ = case
    agree(charger, defender, seed=4321, **kwargs)


def _melee_capable(u):
    return sum(w.attacks * w.count for w in u.weapons if w.is_melee) <= 40 and u.size <= 20


def _real_charges(n):
    """Varied charges between real units (the example book and, when present, a quarter of
    the real books), with random states and options."""
    units = list(oprstats.example_book().units)
    from .conftest import BOOKS_DIR

    if BOOKS_DIR.exists():
        for p in sorted(BOOKS_DIR.glob("*.json"))[1::4]:
            units += [u for u in oprstats.load_army_book(p).units if _melee_capable(u)]
    rng = random.Random(11)
    out = []
    while len(out) < n:
        c, d = rng.choice(units), rng.choice(units)
        kw = rng.choice([{}, {}, {"strike_back": False}, {"charger_fatigued": True}, {"defender_fatigued": True},
                         {"defender_state": UnitState(shaken=True)}, {"distance": 11.0}])
        if rng.random() < 0.3 and d.size > 1:
            kw = {**kw, "defender_state": UnitState(models_lost=rng.randrange(d.size), shaken=rng.random() < 0.3)}
        out.append((c, d, kw))
    return out


REAL = _real_charges(24)


@pytest.mark.parametrize("i", range(len(REAL)))
def test_sampler_agrees_on_real_charges(i):
    charger, defender, kwargs = REAL[i]
    agree(charger, defender, seed=500 + i, **kwargs)


def test_seeded_runs_are_identical_whatever_the_threads():
    charger = Unit.parse("Squad [10] Q4+ D4+\n10x Hand Weapon (A2, AP(1))")
    defender = Unit.parse("Guards [5] Q4+ D3+ | Tough(3), Fear(1)\n5x Halberd (A2, Counter)")
    runs = [oprstats.melee(charger, defender, method="sample", samples=30_000, seed=7, threads=t) for t in (1, 2, None)]
    for r in runs[1:]:
        assert np.array_equal(r.models_left, runs[0].models_left)
        assert (r.p_charger_wins, r.p_tie) == (runs[0].p_charger_wins, runs[0].p_tie)
        assert np.array_equal(r.defender.wounds_caused.pmf, runs[0].defender.wounds_caused.pmf)
        assert r.charger.states == runs[0].charger.states
    seq = oprstats.melee(charger, defender, method="sample", samples=30_000, seed=np.random.SeedSequence(7))
    assert np.array_equal(seq.models_left, runs[0].models_left)
    other = oprstats.melee(charger, defender, method="sample", samples=30_000, seed=8)
    assert not np.array_equal(other.models_left, runs[0].models_left)
