"""The sampler rolls dice literally and must agree with the exact engine.

Stated test: for each scenario, 100,000 seeded samples; a chi-square goodness-of-fit test of
the sampled counts of models killed, of wounds and of hits against the exact pmf (and, after
shooting, exact binomial tests of the chance of a morale test and of ending Shaken), bins with an
expected count under 5 pooled into one; the scenario fails if p < 1e-6 (so about 200 such
tests at fixed seeds have a negligible chance of a false alarm, while a real disagreement of
even half a percent in one bin gives p far below it)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import oprstats
from oprstats import Unit

from .test_attack_exact import CASES

scipy_stats = pytest.importorskip("scipy.stats")

SAMPLES = 100_000
ALPHA = 1e-6


def chi_square_p(sampled_pmf, exact_pmf, n):
    n_bins = max(sampled_pmf.size, exact_pmf.size)
    obs = np.pad(sampled_pmf, (0, n_bins - sampled_pmf.size)) * n
    exp = np.pad(exact_pmf, (0, n_bins - exact_pmf.size)) * n
    assert np.all(obs[exp == 0] == 0), "the sampler produced an outcome the exact engine calls impossible"
    big = exp >= 5
    o = np.append(obs[big], obs[~big].sum())
    e = np.append(exp[big], exp[~big].sum())
    keep = e > 0
    if keep.sum() < 2:
        return 1.0
    return float(scipy_stats.chisquare(o[keep], e[keep]).pvalue)


def agree(attacker, target, seed, **kwargs):
    exact = oprstats.attack(attacker, target, **kwargs)
    sampled = oprstats.attack(attacker, target, method="sample", samples=SAMPLES, seed=seed, **kwargs)
    assert sampled.samples == SAMPLES
    for stage in ("kills", "wounds", "hits"):
        p = chi_square_p(getattr(sampled, stage).pmf, getattr(exact, stage).pmf, SAMPLES)
        assert p > ALPHA, f"{stage}: chi-square p = {p:.3g}"
    if not kwargs.get("melee"):
        # morale after shooting, rolled by the sampler: exact binomial tests at the same threshold
        for name in ("p_morale_test", "p_shaken"):
            want, got = getattr(exact, name), getattr(sampled, name)
            k = round(got * SAMPLES)
            if want in (0.0, 1.0):
                assert k == round(want * SAMPLES), name
            else:
                p = scipy_stats.binomtest(k, SAMPLES, want).pvalue
                assert p > ALPHA, f"{name}: binomial p = {p:.3g}"


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_sampler_agrees_on_rule_cases(case):
    _, attacker, target, kwargs, _, _ = case
    agree(attacker, target, seed=1234, **kwargs)


def _real_scenarios(n):
    """Varied pairs of real units from the example book and, when present, the real books."""
    units = list(oprstats.example_book().units)
    from .conftest import BOOKS_DIR

    if BOOKS_DIR.exists():
        for p in sorted(BOOKS_DIR.glob("*.json"))[::4]:
            units += list(oprstats.load_army_book(p).units)
    rng = random.Random(7)
    out = []
    while len(out) < n:
        a, t = rng.choice(units), rng.choice(units)
        kw = rng.choice([{}, {"distance": 18.0}, {"distance": 6.0, "cover": True}, {"melee": True, "charging": True}, {"melee": True}])
        if sum(w.attacks * w.count for w in a.weapons) > 60:
            continue
        out.append((a, t, kw))
    return out


REAL = _real_scenarios(30)


@pytest.mark.parametrize("i", range(len(REAL)))
def test_sampler_agrees_on_real_units(i):
    attacker, target, kwargs = REAL[i]
    agree(attacker, target, seed=100 + i, **kwargs)


def test_seeded_runs_are_identical_whatever_the_threads():
    squad = Unit.parse('Squad [10] Q4+ D4+\n10x Rifle (24", A2, AP(1))')
    target = Unit.parse("Guards [5] Q4+ D3+ | Tough(3)")
    runs = [oprstats.attack(squad, target, method="sample", samples=50_000, seed=99, threads=t) for t in (1, 2, None)]
    for r in runs[1:]:
        for stage in ("hits", "unblocked", "wounds", "kills"):
            assert np.array_equal(getattr(r, stage).pmf, getattr(runs[0], stage).pmf)
    other = oprstats.attack(squad, target, method="sample", samples=50_000, seed=100)
    assert not np.array_equal(other.kills.pmf, runs[0].kills.pmf)


def test_seed_sequence_and_int_seeds():
    squad = Unit.parse('Squad [5] Q4+ D4+\n5x Rifle (24", A1)')
    target = Unit.parse("T [5] Q4+ D4+")
    a = oprstats.attack(squad, target, method="sample", samples=10_000, seed=np.random.SeedSequence(5))
    b = oprstats.attack(squad, target, method="sample", samples=10_000, seed=5)
    assert np.array_equal(a.kills.pmf, b.kills.pmf)
    assert a.kills.stderr is not None and np.all(a.kills.stderr >= 0)
    with pytest.raises(TypeError, match="seed"):
        oprstats.attack(squad, target, method="sample", seed=1.5)
