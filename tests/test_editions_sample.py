"""The attack sampler agrees with the exact engine in every edition, on every case of
tests/test_editions_exact.py (the stated test of tests/test_attack_sample.py: 100,000 seeded
samples, chi-square on kills, wounds and hits, p < 1e-6 fails; Firefight's Stunned chance by
an exact binomial test at the same threshold)."""

from __future__ import annotations

import pytest

import oprstats

from .test_editions_exact import CASES, FIREFIGHT, _attack

scipy_stats = pytest.importorskip("scipy.stats")

ALL = [(c[0], c[1], c[2], c[3], c[4]) for c in CASES] + [(c[0], "firefight-3.2", c[1], c[2], c[3]) for c in FIREFIGHT]


@pytest.mark.parametrize("case", ALL, ids=[c[0] for c in ALL])
def test_sampler_agrees_in_every_edition(case):
    from .test_attack_sample import ALPHA, SAMPLES, chi_square_p

    _, edition, attacker, target, kwargs = case
    exact = _attack(edition, attacker, target, kwargs)
    sampled = _attack(edition, attacker, target, {**kwargs, "method": "sample", "samples": SAMPLES, "seed": 77})
    for stage in ("kills", "wounds", "hits"):
        p = chi_square_p(getattr(sampled, stage).pmf, getattr(exact, stage).pmf, SAMPLES)
        assert p > ALPHA, f"{stage}: chi-square p = {p:.3g}"
    if exact.p_stunned is not None and 0 < exact.p_stunned < 1:
        p = scipy_stats.binomtest(round(sampled.p_stunned * SAMPLES), SAMPLES, exact.p_stunned).pvalue
        assert p > ALPHA, f"p_stunned: binomial p = {p:.3g}"


def test_seeded_firefight_runs_are_identical_whatever_the_threads():
    _, attacker, target, kwargs = FIREFIGHT[2][:4]
    runs = [_attack("firefight-3.2", attacker, target, {**kwargs, "method": "sample", "samples": 50_000, "seed": 5, "threads": t})
            for t in (1, 2)]
    assert (runs[0].kills.pmf == runs[1].kills.pmf).all() and runs[0].p_stunned == runs[1].p_stunned
