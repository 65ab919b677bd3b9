"""Properties every edition's exact engine keeps, on random small profiles (hypothesis): more
AP never helps the target, better Defense never hurts it, more attacks never lower the
expected wounds, and better Quality and the lack of cover never lower them either. AP and
Defense are checked as stochastic dominance (every tail P(wounds >= k)), not only means."""

from __future__ import annotations

import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oprstats
from oprstats import Unit

EDITIONS = [key for key, _, _ in oprstats._core._editions()]
TOLERANCE = 1e-12
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

profiles = st.fixed_dictionaries({
    "edition": st.sampled_from(EDITIONS),
    "models": st.integers(1, 4),
    "quality": st.integers(2, 6),
    "attacks": st.integers(1, 3),
    "ap": st.integers(0, 3),
    "target_models": st.integers(1, 4),
    "defense": st.integers(2, 6),
    "tough": st.sampled_from([1, 2, 3]),
    "melee": st.booleans(),
})


def _wounds(p: dict, **change) -> np.ndarray:
    """The pmf of wounds of the attack `p` describes, with some fields changed."""
    p = {**p, **change}
    ed = p["edition"]
    rules = f", AP({p['ap']})" if p["ap"] else ""
    weapon = f"{p['models']}x Blade (A{p['attacks']}{rules})" if p["melee"] else f"{p['models']}x Gun (24\", A{p['attacks']}{rules})"
    attacker = Unit.parse(f"S [{p['models']}] Q{p['quality']}+ D4+\n{weapon}", edition=ed)
    tough = f" | Tough({p['tough']})" if p["tough"] > 1 else ""
    target = Unit.parse(f"T [{p['target_models']}] Q4+ D{p['defense']}+{tough}", edition=ed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = oprstats.attack(attacker, target, melee=p["melee"], cover=p.get("cover", False), distance=12, edition=ed)
    return r.wounds.pmf


def _tails(pmf: np.ndarray, n: int) -> np.ndarray:
    padded = np.pad(pmf, (0, max(0, n - pmf.size)))
    return np.cumsum(padded[::-1])[::-1]


def dominates(more: np.ndarray, less: np.ndarray) -> bool:
    """Every tail P(X >= k) of `more` is at least that of `less`."""
    n = max(more.size, less.size)
    return bool(np.all(_tails(more, n) >= _tails(less, n) - TOLERANCE))


def mean(pmf: np.ndarray) -> float:
    return float(np.dot(np.arange(pmf.size), pmf))


@SETTINGS
@given(profiles)
def test_more_ap_never_helps_the_target(p):
    assert dominates(_wounds(p, ap=p["ap"] + 1), _wounds(p))


@SETTINGS
@given(profiles)
def test_better_defense_never_hurts_the_target(p):
    if p["defense"] > 2:
        assert dominates(_wounds(p), _wounds(p, defense=p["defense"] - 1))


@SETTINGS
@given(profiles)
def test_more_attacks_never_lower_expected_wounds(p):
    assert mean(_wounds(p, attacks=p["attacks"] + 1)) >= mean(_wounds(p)) - TOLERANCE


@SETTINGS
@given(profiles)
def test_better_quality_never_lowers_expected_wounds(p):
    if p["quality"] > 2:
        assert dominates(_wounds(p, quality=p["quality"] - 1), _wounds(p))


@SETTINGS
@given(profiles)
def test_cover_never_raises_expected_wounds(p):
    if not p["melee"]:
        assert dominates(_wounds(p), _wounds(p, cover=True))


def test_the_properties_can_fail():
    """The checker sees a difference where there is one."""
    weak = np.array([0.5, 0.5])
    strong = np.array([0.25, 0.5, 0.25])
    assert dominates(strong, weak) and not dominates(weak, strong)
