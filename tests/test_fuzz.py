"""Fuzz harnesses kept in the repository, hypothesis-based so that they run wherever the
tests run (the coverage-guided counterpart, with atheris, is tests/fuzz_atheris.py; see
docs/limits.md).

Each parser (`Weapon.parse`, `Unit.parse`, `load_army_list`, `load_army_book`) gets inputs
made by mutating the example data, and each engine entry point (`attack`, `melee`, exact
and sampled) random small profiles, with a checker: nothing escapes but a `ValueError` or a
`TypeError`; what is accepted pickles back to itself; PMFs sum to 1 with probabilities in
[0, 1]; and the exact engine and the sampler agree within their error.

A short run is part of every test run. A longer one:
    OPRSTATS_FUZZ_EXAMPLES=20000 nice -n 19 python -m pytest tests/test_fuzz.py -q
"""

from __future__ import annotations

import json
import os
import pickle
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oprstats
from oprstats import Unit, Weapon
from oprstats._attack import LIMITS
from oprstats.examples import EXAMPLE_BOOK, EXAMPLE_LIST

EXAMPLES = int(os.environ.get("OPRSTATS_FUZZ_EXAMPLES", "150"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
EDITIONS = [key for key, _, _ in oprstats._core._editions()]

LIST_TEXT = EXAMPLE_LIST.read_text(encoding="utf-8")
BOOK = json.loads(EXAMPLE_BOOK.read_text(encoding="utf-8"))
# The corpus: every line of the example list, and every weapon and unit line in it.
LINES = [line for line in LIST_TEXT.splitlines() if line.strip()]
WEAPON_SEEDS = [w.strip() for line in LINES if "|" not in line and not line.startswith("++") for w in line.split("), ")]
WEAPON_SEEDS = [w if w.endswith(")") else w + ")" for w in WEAPON_SEEDS]
UNIT_SEEDS = ["\n".join(LINES[i:i + 2]) for i, line in enumerate(LINES) if "] Q" in line and i + 1 < len(LINES)]

# What a hostile edit puts in: the notation's own characters, big and odd numbers, unicode.
PIECES = ["(", ")", "[", "]", ",", "|", '"', "x", "A", "AP(", "Tough(", "Blast(", "Deadly(", "+", "-", "\n", " ",
          "0", "9", "1000", "1001", "4294967296", "99999999999", "-9223372036854775808", "Q", "D", "pts", "é", "\u0000",
          "Joined to:", "++", "2x ", "1000x "]


@st.composite
def mutated(draw, seeds: list[str]) -> str:
    """A seed with a few random edits: inserts of notation pieces, deletions, repeats."""
    text = draw(st.sampled_from(seeds))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "repeat", "digits"]))
        if kind == "insert":
            text = text[:at] + draw(st.sampled_from(PIECES)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 5)):]
        elif kind == "repeat":
            text = text[:at] + text[at:at + 20] * draw(st.integers(2, 50)) + text[at:]
        else:
            text = text[:at] + str(draw(st.integers(-2**70, 2**70))) + text[at:]
    return text


def clean(call):
    """Runs a call; only ValueError and TypeError may escape it (and then None is given)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # fuzzed names are unknown rules
        try:
            return call()
        except (ValueError, TypeError):
            return None


def round_trips(value) -> None:
    back = pickle.loads(pickle.dumps(value))
    assert back == value and str(back) == str(value)


def check_pmf(pmf: np.ndarray) -> None:
    assert np.all(pmf >= -1e-15) and np.all(pmf <= 1 + 1e-12)
    assert abs(pmf.sum() - 1.0) < 1e-9


@FUZZ
@given(text=mutated(WEAPON_SEEDS), edition=st.sampled_from(EDITIONS))
def test_fuzz_weapon_parse(text, edition):
    w = clean(lambda: Weapon.parse(text, edition=edition))
    if w is not None:
        round_trips(w)


@FUZZ
@given(text=mutated(UNIT_SEEDS), edition=st.sampled_from(EDITIONS))
def test_fuzz_unit_parse(text, edition):
    u = clean(lambda: Unit.parse(text, edition=edition))
    if u is not None:
        round_trips(u)
        assert u.size <= LIMITS["MAX_MODELS"]


@FUZZ
@given(text=mutated([LIST_TEXT]), edition=st.sampled_from(EDITIONS))
def test_fuzz_load_army_list(text, edition):
    army = clean(lambda: oprstats.load_army_list(text, edition=edition))
    if army is not None:
        assert len(army) <= LIMITS["MAX_ARMY_UNITS"]
        assert pickle.loads(pickle.dumps(army)).units == army.units


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


BOOK_PATHS = [p for p in _paths(BOOK) if p]
HOSTILE = st.one_of(
    st.integers(-2**64, 2**64), st.sampled_from([0, 1, 1000, 1001, 10**9, -2**63, 2**63 - 1]), st.text(max_size=30),
    st.none(), st.booleans(), st.floats(), st.lists(st.integers(0, 3), max_size=3), st.just({"type": "exactly", "value": 10**6}),
)


@FUZZ
@given(path=st.sampled_from(BOOK_PATHS), value=HOSTILE, edition=st.sampled_from([None] + EDITIONS))
def test_fuzz_load_army_book(path, value, edition):
    data = json.loads(json.dumps(BOOK))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    parent[path[-1]] = value
    book = clean(lambda: oprstats.load_army_book(data, edition=edition))
    if book is None:
        return
    for u in book.units:
        variants = clean(lambda: book.variants(u))  # an upgrade over a limit is refused, by name
        for _, v, _ in variants or []:
            round_trips(v)
    back = pickle.loads(pickle.dumps(book))
    assert back.units == book.units


# The engines: random small profiles, every edition.
small = st.fixed_dictionaries({
    "edition": st.sampled_from(EDITIONS),
    "models": st.integers(1, 3),
    "quality": st.integers(2, 6),
    "attacks": st.integers(0, 3),
    "rules": st.lists(st.sampled_from(["AP(1)", "AP(2)", "Blast(3)", "Deadly(2)", "Rending", "Poison", "Lance", "Bane",
                                       "Furious", "Relentless", "Impact(1)", "Regeneration", "Tough(2)", "Fear(1)",
                                       "Counter", "Shred", "Sniper"]), max_size=3, unique=True),
    "target_models": st.integers(1, 3),
    "defense": st.integers(2, 6),
    "tough": st.sampled_from([1, 2, 3]),
    "melee": st.booleans(),
    "cover": st.booleans(),
})


def _units(p):
    ed = p["edition"]
    weapon_rules = [r for r in p["rules"] if r not in ("Furious", "Relentless", "Impact(1)", "Regeneration", "Tough(2)", "Fear(1)")]
    unit_rules = [r for r in p["rules"] if r not in weapon_rules]
    inner = ", ".join([f"A{p['attacks']}"] + weapon_rules)
    weapon = f"{p['models']}x Blade ({inner})" if p["melee"] else f"{p['models']}x Gun (24\", {inner})"
    rules = " | " + ", ".join(unit_rules) if unit_rules else ""
    attacker = Unit.parse(f"S [{p['models']}] Q{p['quality']}+ D4+{rules}\n{weapon}", edition=ed)
    tough = f" | Tough({p['tough']})" if p["tough"] > 1 else ""
    target = Unit.parse(f"T [{p['target_models']}] Q4+ D{p['defense']}+{tough}\n{p['target_models']}x CCW (A1)", edition=ed)
    return attacker, target


def _attack(p, **kw):
    a, t = clean(lambda: _units(p)) or (None, None)
    if a is None:
        return None
    return clean(lambda: oprstats.attack(a, t, melee=p["melee"], cover=p["cover"], distance=12, edition=p["edition"], **kw))


@FUZZ
@given(p=small)
def test_fuzz_attack_exact(p):
    r = _attack(p)
    if r is not None:
        for stage in (r.hits, r.unblocked, r.wounds, r.kills):
            check_pmf(stage.pmf)
        assert 0 <= r.p_destroyed <= 1 + 1e-12


@settings(max_examples=max(10, EXAMPLES // 5), deadline=None, suppress_health_check=list(HealthCheck))
@given(p=small, seed=st.integers(0, 2**32))
def test_fuzz_attack_exact_equals_sampler(p, seed):
    samples = 20_000
    exact = _attack(p)
    sampled = _attack(p, method="sample", samples=samples, seed=seed)
    if exact is None or sampled is None:
        return
    for stage in ("hits", "wounds", "kills"):
        e, s = getattr(exact, stage), getattr(sampled, stage)
        check_pmf(s.pmf)
        sd = np.sqrt(max(e.pmf @ np.arange(e.pmf.size) ** 2 - e.mean() ** 2, 1e-12) / samples)
        assert abs(s.mean() - e.mean()) < 6 * sd + 1e-9, (stage, s.mean(), e.mean())


@FUZZ
@given(p=small)
def test_fuzz_melee(p):
    units = clean(lambda: _units(p))
    if units is None:
        return
    m = clean(lambda: oprstats.melee(*units, edition=p["edition"]))
    if m is None:
        return
    for side in (m.charger, m.defender):
        check_pmf(side.lost.pmf)
        check_pmf(side.wounds_caused.pmf)
        fates = [side.p_destroyed, side.p_routed, side.p_shaken, side.p_unaffected]
        assert all(-1e-12 <= f <= 1 + 1e-12 for f in fates if f is not None)


# The cost of large requests: random units up to the profile limits, every edition, attack
# and melee, and short games between armies of them. Each request is refused at once or finishes in seconds, within a memory cap;
# it runs in a child process, so a runaway fails the test on its time limit.
COST_PROBE = r'''
import random, resource, sys, time, warnings
cap = 2 * 2**30
resource.setrlimit(resource.RLIMIT_AS, (cap, cap))
import oprstats
warnings.simplefilter("ignore")
U = oprstats.Unit.parse
rng = random.Random(int(sys.argv[1]))
RULES = ["AP(1)", "AP(4)", "Blast(3)", "Blast(20)", "Deadly(3)", "Deadly(6)", "Rending", "Poison", "Bane", "Shred",
         "Relentless", "Counter", "Lance"]

def unit(name, melee):
    n = rng.choice([1, 5, 20, 60, 150, 400, 1000])
    tough = rng.choice([1, 1, 3, 6, 24, 200])
    rules = ([f"Tough({tough})"] if tough > 1 else []) + rng.sample(["Regeneration", "Fear(1)", "Impact(3)", "Furious"], rng.randint(0, 2))
    weapons = []
    for g in range(rng.randint(1, 3)):
        extra = "".join(", " + r for r in rng.sample(RULES, rng.randint(0, 3)))
        weapons.append(f'{n}x W{g} ({"" if melee else "24#, "}A{rng.choice([1, 2, 3, 5, 10])}{extra})'.replace("#", chr(34)))
    return f"{name} [{n}] Q4+ D{rng.randint(2, 6)}+" + (" | " + ", ".join(rules) if rules else "") + "\n" + ", ".join(weapons)

worst = [0.0, 0.0]
for trial in range(int(sys.argv[2])):
    edition = rng.choice(["3.5", "3.4.1", "2", "firefight-3.2"])
    melee = rng.random() < 0.5
    try:
        a, t = U(unit("S", melee), edition=edition), U(unit("T", True), edition=edition)
    except ValueError:
        continue
    call = oprstats.melee if melee and rng.random() < 0.5 else oprstats.attack
    kwargs = {} if call is oprstats.melee else {"melee": melee, "charging": melee}
    if rng.random() < 0.3:
        # a short game between armies of such units (the game plays v3.5)
        try:
            armies = [[U(unit(f"{side}{i}", rng.random() < 0.5)) for i in range(rng.randint(1, 4))] for side in "AB"]
        except ValueError:
            continue
        call, a, t, edition, kwargs = oprstats.simulate, armies[0], armies[1], "3.5", {"games": 2, "seed": 1, "progress": False}
    start = time.perf_counter()
    try:
        call(a, t, edition=edition, **kwargs)
        worst[0] = max(worst[0], time.perf_counter() - start)
    except ValueError:
        worst[1] = max(worst[1], time.perf_counter() - start)
print(worst[0], worst[1])
'''


def test_fuzz_cost_of_large_requests():
    import subprocess
    import sys

    trials = max(3, EXAMPLES // 50)
    r = subprocess.run([sys.executable, "-c", COST_PROBE, str(EXAMPLES), str(trials)], capture_output=True, text=True,
                       timeout=30 + 10 * trials, env=dict(os.environ, OPENBLAS_NUM_THREADS="1"))
    assert r.returncode == 0, r.stderr[-2000:]
    accepted, refused = map(float, r.stdout.split())
    assert accepted < 10.0 and refused < 0.1, (accepted, refused)
