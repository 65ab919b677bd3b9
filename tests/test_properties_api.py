"""Properties of the public API's arguments (hypothesis): whatever number, text or path an
argument is given, the call either refuses it cleanly (a ValueError or TypeError whose
message names the argument) or answers something that looks right (finite numbers,
probabilities in [0, 1] summing to 1, as many games as asked for). Never an OverflowError,
a KeyError, a hang or a crash.

``tests/test_fuzz.py`` mutates the parsers' texts and the engines' profiles; here it is the
keyword arguments and the paths. Each test has a small budget: the file runs in well under
a minute."""

from __future__ import annotations

import math
import os
import stat
import tempfile
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oprstats
from oprstats import CostModel, Unit, Weapon

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
FEW = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
LIMITS = dict(oprstats._core._limits())

ARMY = oprstats.example_army()
U = list(ARMY.units)  # Warden Squad x2, Scout Skimmers, Siege Walker, Swarm Drones x2

# What a number argument may be given: sizes around every boundary, ints past a float's
# range (10**5000 past what str() converts), every special float, numpy scalars, and things
# that are not numbers at all.
# (10**5000, past what str() converts, is tried in tests/test_hostile_py.py: hypothesis
# cannot print it in a report)
EXTREME = st.sampled_from([10**400, -(10**400), 2**63, 2**64 - 1, -(2**63) - 1, 1e-320, 5e-324, -0.0, 1e308, -1e308,
                           math.nan, math.inf, -math.inf])
NOT_NUMBERS = st.one_of(st.booleans(), st.none(), st.text(max_size=4), st.just([1, 2]), st.just(b"1"), st.just(1j))
NUMPY = st.one_of(st.integers(-(2**63), 2**63 - 1).map(np.int64), st.floats(width=32).map(np.float32), st.floats().map(np.float64))


def numbers(small: st.SearchStrategy) -> st.SearchStrategy:
    """``small`` (the values that may be accepted and are cheap to run) or any hostile value."""
    # numpy scalars small (a large one would be a long run: 10**7 games), Python ints past any
    # limit (10**9 is over all the counts')
    return st.one_of(small, EXTREME, NOT_NUMBERS, NUMPY.filter(lambda x: not (x < -2 or x > 2)), st.floats(),
                     st.integers().filter(lambda n: abs(n) > 10**9))


def answer(field, call):
    """``call()``'s value, or None when it refused; a refusal must be a ValueError or a
    TypeError that names ``field`` (or one of a tuple of names; anything else fails the test)."""
    names = (field,) if isinstance(field, str) else field
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return call()
        except (ValueError, TypeError) as exc:
            assert any(n in str(exc) for n in names), f"{type(exc).__name__} does not name {field!r}: {exc}"
            return None


def a_distribution(d) -> None:
    pmf = d.pmf
    assert pmf.ndim == 1 and np.isfinite(pmf).all() and (pmf >= 0).all() and abs(pmf.sum() - 1) < 1e-9
    assert not pmf.flags.writeable


def a_probability(p) -> None:
    assert p is None or (math.isfinite(p) and -1e-12 <= p <= 1 + 1e-12), p


# attack and melee


def an_attack(r) -> None:
    for stage in ("hits", "unblocked", "wounds", "kills", "remaining"):
        a_distribution(getattr(r, stage))
    for p in (r.p_destroyed, r.p_morale_test, r.p_shaken):
        a_probability(p)
    assert abs(sum(q for _, q in r.states) + r.p_destroyed - 1) < 1e-9 or r.wound_effects


@SETTINGS
@given(field=st.sampled_from(["distance", "samples", "threads", "seed"]), data=st.data())
def test_attack_keyword_numbers(field, data):
    small = {"distance": st.floats(-1, 40), "samples": st.integers(-2, 500), "threads": st.integers(-2, 2),
             "seed": st.integers(-2, 2**70)}[field]
    value = data.draw(numbers(small), label=field)
    method = "sample" if field in ("samples", "seed") else "exact"
    kwargs = {"samples": 200} if method == "sample" and field != "samples" else {}
    r = answer(field, lambda: oprstats.attack(U[0], U[1], method=method, **kwargs, **{field: value}))
    if r is not None:
        an_attack(r)


@SETTINGS
@given(field=st.sampled_from(["distance", "samples", "seed"]), data=st.data())
def test_melee_keyword_numbers(field, data):
    small = {"distance": st.floats(-1, 20), "samples": st.integers(-2, 300), "seed": st.integers(-2, 2**70)}[field]
    value = data.draw(numbers(small), label=field)
    method = "exact" if field == "distance" else "sample"
    kwargs = {"samples": 200} if method == "sample" and field != "samples" else {}
    r = answer(field, lambda: oprstats.melee(U[4], U[5], method=method, **kwargs, **{field: value}))
    if r is None:
        return
    a_probability(r.p_charger_wins)
    assert abs(r.p_charger_wins + r.p_defender_wins + r.p_tie - 1) < 1e-9
    for side in (r.charger, r.defender):
        fates = (side.p_destroyed, side.p_routed, side.p_shaken, side.p_unaffected)
        assert all(-1e-12 <= p <= 1 + 1e-12 for p in fates) and abs(sum(fates) - 1) < 1e-9
        a_distribution(side.wounds_caused)
        a_distribution(side.lost)
    assert abs(r.models_left.sum() - 1) < 1e-9


# games: simulate and duel, with tiny runs


def games_of(g, asked: int) -> None:
    assert len(g) == asked * (2 if g.paired else 1)
    assert set(np.unique(g.winner)) <= {-1, 0, 1}
    assert np.isfinite(g.points_left).all() and (g.points_left >= 0).all()
    for rate in g.rates().values():
        a_probability(rate[0])


POLICY_FIELDS = [f for f in oprstats.Policy.__dataclass_fields__ if f != "kind"]


@SETTINGS
@given(field=st.sampled_from(["games", "rounds", "line_up", "objectives", "seed", "terrain", "policy_a"]), data=st.data())
def test_simulate_keyword_numbers(field, data):
    small = {"games": st.integers(-2, 3), "rounds": st.integers(-1, 21), "line_up": st.floats(-1, 31),
             "objectives": st.floats(-5, 80), "seed": st.integers(-2, 2**70), "terrain": st.floats(-5, 80),
             "policy_a": st.floats(-1, 101)}[field]
    value = data.draw(numbers(small), label=field)
    kwargs = dict(games=2, progress=False, seed=1)
    named = field
    if field == "objectives":
        kwargs["objectives"] = [(value, 24.0)]
    elif field == "terrain":
        named = "TerrainPiece"  # TerrainPiece.x0, or the piece by name when x0 is not below x1
    elif field == "policy_a":
        name = data.draw(st.sampled_from(POLICY_FIELDS), label="policy field")
        named = f"Policy.{name}"
    elif field == "line_up":
        kwargs.update(line_up=value, terrain="open")
    else:
        kwargs[field] = value

    def run():
        # the pieces and the policy are built inside: their own checks are part of the call
        if field == "terrain":
            kwargs["terrain"] = [oprstats.TerrainPiece("ruin", value, 10.0, 30.0, 20.0)]
        if field == "policy_a":
            kwargs["policy_a"] = oprstats.Policy(**{name: value})
        return oprstats.simulate([U[4]], [U[5]], **kwargs)

    g = answer(named, run)
    if g is not None:
        games_of(g, kwargs["games"])


@FEW
@given(field=st.sampled_from(["line_up", "rounds", "games"]), data=st.data())
def test_duel_keyword_numbers(field, data):
    small = {"line_up": st.floats(-1, 31), "rounds": st.integers(-1, 21), "games": st.integers(-1, 3)}[field]
    value = data.draw(numbers(small), label=field)
    kwargs = {"games": 2, "seed": 1, field: value}
    d = answer(field, lambda: oprstats.duel(U[4], U[5], **kwargs))
    if d is not None:
        assert d.games == kwargs["games"] and not d.interrupted
        assert ((d.left >= 0) & (d.left <= 1)).all() and set(np.unique(d.winner)) <= {-1, 0, 1}


# points: efficiency, break_even


@SETTINGS
@given(cost=numbers(st.floats(-1, 2000)))
def test_efficiency_cost(cost):
    eff = answer("cost", lambda: oprstats.efficiency(U[4], cost=cost))
    if eff is None:
        return
    assert 1 <= eff.points <= LIMITS["MAX_COST"]
    for name in ("points_destroyed", "wounds", "expected_kills", "p_destroyed"):
        values = np.asarray(getattr(eff, name))
        assert np.isfinite(values).all() and (values >= 0).all(), name
    assert (np.asarray(eff.p_destroyed) <= 1 + 1e-12).all()


@SETTINGS
@given(tough=numbers(st.integers(-1, 30)))
def test_efficiency_curve_tough(tough):
    curve = answer("tough", lambda: oprstats.efficiency_curve(U[4], tough=[tough]))
    if curve is not None:
        values = np.asarray(curve.values)
        assert np.isfinite(values).all() and (values >= 0).all()


@SETTINGS
@given(points=numbers(st.integers(-5, 5000)))
def test_validate_list_points(points):
    check = answer("points", lambda: oprstats.validate_list(ARMY, points=points))
    if check is not None:
        assert check.ok == (not check.problems) and all(p.rule for p in check.problems)


@SETTINGS
@given(field=st.sampled_from(["models_lost", "wounds", "hero_wounds"]), value=numbers(st.integers(-2, 12)))
def test_unit_state_numbers_in_an_attack(field, value):
    def run():
        return oprstats.attack(U[0], U[1], target_state=oprstats.UnitState(**{field: value}))

    r = answer(field, run)
    if r is not None:
        an_attack(r)


# Left out here until _matchups.py (break_even's checks; being changed apart from this file,
# issue 43) is mended: ints past a float's range (close_share, charge_distance, interval and
# weights are converted with float(): an OverflowError), and weights far apart in size
# (weights=[1e308, 1] makes the exchange table inf and the answer wrong: they are not
# normalised). Lift both filters with that change.
def _in_float_range(x) -> bool:
    return not (isinstance(x, int) and abs(x) > 2**1000)


def _moderate(x) -> bool:
    return not (isinstance(x, (int, float, np.integer, np.floating)) and not isinstance(x, bool) and _in_float_range(x)
                and abs(float(x)) > 1e6)


@FEW
@given(field=st.sampled_from(["close_share", "charge_distance", "weights"]), data=st.data())
def test_break_even_keyword_numbers(field, data):
    value = data.draw(numbers(st.floats(-1, 50)), label=field)
    kwargs = {"weights": [value, 1.0]} if field == "weights" else {field: value}
    be = answer(field, lambda: oprstats.break_even(U[4], U[2:4], **kwargs))
    if be is None:
        return
    assert be.value is None or math.isfinite(be.value), be
    assert all(math.isfinite(x) for row in be.table for x in row if isinstance(x, float)), be.table


# text: Weapon, Unit and their notation


@SETTINGS
@given(field=st.sampled_from(["attacks", "range", "count"]), value=numbers(st.integers(-2, 30)))
def test_weapon_keyword_numbers(field, value):
    kwargs = {"attacks": 1, field: value}
    w = answer(field, lambda: Weapon("Gun", **kwargs))
    if w is not None:
        assert value is None or getattr(w, field) == value  # None: the default
        assert Weapon.parse(str(w)) == w


NOTATION_NUMBERS = st.one_of(st.integers(-3, 30), st.integers(-(2**80), 2**80), st.sampled_from(["", "x", "1.5", "-0", "9" * 400, "٣"]))


@SETTINGS
@given(range_=NOTATION_NUMBERS, attacks=NOTATION_NUMBERS, ap=NOTATION_NUMBERS)
def test_weapon_notation_numbers(range_, attacks, ap):
    text = f'Gun ({range_}", A{attacks}, AP({ap}))'
    try:
        w = Weapon.parse(text)
    except ValueError as exc:
        # a parser's refusal names what it read and where
        assert any(name in str(exc) for name in ("weapon", "AP", "position")), str(exc)
        return
    assert w.attacks == int(attacks) and w.range == int(range_) and Weapon.parse(str(w)) == w


@SETTINGS
@given(size=NOTATION_NUMBERS, quality=NOTATION_NUMBERS, tough=NOTATION_NUMBERS, cost=NOTATION_NUMBERS)
def test_unit_notation_numbers(size, quality, tough, cost):
    text = f"Grunts [{size}] Q{quality}+ D4+ | {cost}pts | Tough({tough})"
    with warnings.catch_warnings():
        # a cost that is not a whole number ("pts", "-0pts") is kept as an unknown rule, warned about
        warnings.simplefilter("ignore")
        try:
            u = Unit.parse(text)
        except ValueError as exc:
            assert any(name in str(exc) for name in ("size", "quality", "cost", "Tough", "unit", "position")), str(exc)
            return
        assert u.size == int(size) and u.quality == int(quality) and (u.cost is None or u.cost == int(cost))
        assert Unit.parse(str(u)) == u


# paths


@pytest.fixture(scope="module")
def special_paths():
    """A directory, a pipe with no writer, a file with no read permission, and the devices."""
    with tempfile.TemporaryDirectory() as tmp:
        pipe = os.path.join(tmp, "pipe.txt")
        os.mkfifo(pipe)
        locked = os.path.join(tmp, "locked.json")
        with open(locked, "w") as f:
            f.write("{}")
        os.chmod(locked, 0)
        yield [tmp, pipe, locked, os.path.join(tmp, "missing.json"), "/dev/zero", "/dev/null", "/dev/urandom", "/dev/stdin",
               "/proc/self/status", "/proc/self/mem", "a\0b.json", "x" * 300 + ".txt", "/" * 3]


LOADERS = {
    "load_army_book": ("source", oprstats.load_army_book, lambda v: isinstance(v, oprstats.ArmyBook)),
    "load_army_list": ("source", oprstats.load_army_list, lambda v: isinstance(v, oprstats.Army)),
    "CostModel.load": (("path", "/"), CostModel.load, lambda v: isinstance(v, CostModel) and len(v.weights) > 0
                       and all(math.isfinite(w) for w in v.weights.values())),
}


@pytest.mark.skipif(not hasattr(os, "mkfifo") or not os.path.exists("/dev/zero"), reason="needs FIFOs and /dev")
@FEW
@given(loader=st.sampled_from(sorted(LOADERS)), which=st.integers(0, 12))
def test_special_paths_are_refused_or_read(special_paths, loader, which):
    field, load, right = LOADERS[loader]
    path = special_paths[which]
    # a regular file that is read (/proc/self/status) is refused by the parser, which names
    # the position in the text instead
    names = ((field,) if isinstance(field, str) else field) + ("position",)
    try:
        value = answer(names, lambda: load(path))
    except FileNotFoundError as exc:  # the library's convention for a missing file: named
        assert "no file" in str(exc) and (field if isinstance(field, str) else field[0]) in str(exc)
        return
    assert value is None or right(value), value


@SETTINGS
@given(loader=st.sampled_from(sorted(LOADERS)), content=st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode),
                                                                   st.sampled_from([b"{}", b"[]", b"{" * 5000, b"[" * 100_000, b"\xef\xbb\xbf{}", b"1e999",
                                                                                    b'{"format": "oprstats-cost-model/2"}'])),
       suffix=st.sampled_from([".json", ".txt"]))
def test_file_contents_are_refused_or_read(loader, content, suffix):
    field, load, right = LOADERS[loader]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "f" + suffix)
        with open(path, "wb") as f:
            f.write(content)
        assert stat.S_ISREG(os.stat(path).st_mode)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                value = load(path)
            except (ValueError, TypeError) as exc:
                # a book's or a list's parser names what it read (the text's position or
                # field); the file's own checks name the argument
                assert str(exc), "an empty message"
                return
    assert right(value), value


def test_the_checks_can_fail():
    """The oracle itself: an OverflowError, a refusal naming another argument, a pmf that
    does not sum to 1 and a probability over 1 each fail."""
    with pytest.raises(OverflowError):
        answer("distance", lambda: float(10**400))
    with pytest.raises(AssertionError, match="does not name 'distance'"):
        answer("distance", lambda: oprstats.attack(U[0], U[1], samples=0, method="sample"))
    with pytest.raises(AssertionError):
        a_distribution(oprstats.Distribution([0.5, 0.7]))
    with pytest.raises(AssertionError):
        a_probability(1.5)
