"""Bad input gets a clear ValueError or TypeError naming the field, the value and (for text)
the position; random input never crashes a parser. Valid profiles always print and parse back."""

from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import oprstats
from oprstats import Unit, Weapon
from oprstats.examples import EXAMPLE_BOOK


class TestWeaponErrors:
    @pytest.mark.parametrize(
        "text,pattern",
        [
            ("", r"weapon: expected a weapon"),
            ("Rifle", r"expected a profile in brackets.*position 0"),
            ('Rifle (24", 1)', r'weapon attacks: expected .A. and a whole number.*got "1" at position 12'),
            ('Rifle (24", A-1)', r"weapon attacks.*A-1"),
            ('Rifle (x", A1)', r"weapon range: expected a whole number of inches"),
            ('Rifle (0", A1)', r"weapon range: must be at least 1 inch"),
            ('Rifle (24", A1, AP(1)', r"unbalanced brackets"),
            ("Claw (A1, AP())", r"empty brackets.*position 10"),
            ("(A1)", r"weapon name: may not be empty"),
            ("0x Claw (A1)", r"weapon count: must be 1 or more"),
            ("Claw (A99999)", r"weapon attacks: 99999 is over the limit of 1000"),
            ("Claw (A1, Deadly(0))", r"rating of Deadly: must be 1 or more"),
        ],
    )
    def test_parse_errors(self, text, pattern):
        with pytest.raises(ValueError, match=pattern):
            Weapon.parse(text)

    def test_constructor_errors(self):
        with pytest.raises(ValueError, match=r"attacks: must be 0 or more \(got -1\)"):
            Weapon("Claw", attacks=-1)
        with pytest.raises(TypeError, match=r"attacks: expected an int, got float"):
            Weapon("Claw", attacks=1.5)
        with pytest.raises(TypeError, match=r"attacks: expected an int, got bool"):
            Weapon("Claw", attacks=True)
        with pytest.raises(TypeError, match=r"rules: expected a sequence of strings"):
            Weapon("Claw", attacks=1, rules="AP(1)")
        with pytest.raises(TypeError, match=r"rules item: expected a str, got int"):
            Weapon("Claw", attacks=1, rules=[1])
        with pytest.raises(ValueError, match=r"range: must be 1 or more"):
            Weapon("Gun", range=0, attacks=1)
        with pytest.raises(ValueError, match=r"count: 5000 is over the limit"):
            Weapon("Gun", attacks=1, count=5000)
        with pytest.raises(TypeError, match=r"name: expected a str"):
            Weapon(3, attacks=1)


class TestUnitErrors:
    @pytest.mark.parametrize(
        "text,pattern",
        [
            ("", r"unit: expected a unit"),
            ("Grunts Q5+ D5+", r"unit header: expected a unit header"),
            ("Grunts [10] Q1+ D5+", r'quality: must be from 2 to 6.*"Q1\+" at position 12'),
            ("Grunts [10] Q5+ D9+", r'defense: must be from 2 to 6.*"D9\+" at position 16'),
            ("Grunts [0] Q5+ D5+", r"size.*at least 1 model"),
            ("Grunts [ten] Q5+ D5+", r'size: expected a whole number of models, got "ten" at position 8'),
            ("Grunts [5000] Q5+ D5+", r"size: 5000 is over the limit of 1000"),
            ("Grunts [10] Q5+ D5+ | 60pts | Tough", r"Tough takes a number"),
            ("Grunts [10] Q5+ D5+ | 60pts | Tough(x)", r"rating of Tough.*whole number"),
            ("Grunts [10] Q5+ D5+\n10x CCW", r"expected a profile in brackets.*position 24"),
            ("2x Grunts [10] Q5+ D5+", r"copy count belongs in an army list"),
            ("A [2] Q5+ D5+\nB [2] Q5+ D5+", r"expected one unit"),
        ],
    )
    def test_parse_errors(self, text, pattern):
        with pytest.raises(ValueError, match=pattern):
            Unit.parse(text)

    def test_constructor_errors(self):
        base = dict(size=5, quality=4, defense=4)
        with pytest.raises(ValueError, match=r"quality: must be from 2 to 6.*\(got 7\)"):
            Unit("A", **{**base, "quality": 7})
        with pytest.raises(ValueError, match=r"size: must be 1 or more \(got 0\)"):
            Unit("A", **{**base, "size": 0})
        with pytest.raises(ValueError, match=r"size: 10000 is over the limit"):
            Unit("A", **{**base, "size": 10_000})
        with pytest.raises(TypeError, match=r"defense: expected an int, got str"):
            Unit("A", **{**base, "defense": "4+"})
        with pytest.raises(ValueError, match=r"cost: must be 0 or more"):
            Unit("A", **base, cost=-5)
        with pytest.raises(TypeError, match=r"weapons item: expected a Weapon or str, got int"):
            Unit("A", **base, weapons=[3])
        with pytest.raises(TypeError, match=r"weapons: expected a sequence of Weapon or str, not a single string"):
            Unit("A", **base, weapons="CCW (A1)")
        with pytest.raises(ValueError, match=r"unit name: may not contain '\['"):
            Unit("A [5]", **base)
        with pytest.raises(ValueError, match="unknown edition"):
            Unit("A", **base, edition="10th")

    def test_huge_text_is_refused(self):
        with pytest.raises(ValueError, match="over the limit"):
            Unit.parse("A [1] Q4+ D4+\n" + "x" * (2 << 20))
        with pytest.raises(ValueError, match="over the limit"):
            oprstats.load_army_list("x" * (2 << 20))


# --- property tests -------------------------------------------------------------------

PARSERS = [
    Weapon.parse,
    Unit.parse,
    oprstats.load_army_list,
    lambda s: Weapon("Gun", attacks=1, rules=[s]),
    lambda s: Unit("Grunts", size=5, quality=4, defense=4, rules=[s]),
    lambda s: Weapon.parse(s, edition="2"),
    lambda s: Unit.parse(s, edition="firefight-3.2"),
    lambda s: Unit.parse(s, strict=True),
    lambda s: oprstats.load_army_list(s, strict=True),
]

notation_chars = st.sampled_from(list('AQDx0123456789()[]|,+" \n:.-pts') + ["Tough", "AP", "Joined to:", "++", "Fear", "Hero"])
notation_like = st.lists(notation_chars, max_size=40).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.one_of(st.text(max_size=80), notation_like))
def test_random_text_never_crashes_a_parser(text):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", oprstats.UnknownRuleWarning)  # random names are unknown
        for parse in PARSERS:
            try:
                parse(text)
            except (ValueError, TypeError):
                pass


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**12) | st.floats(allow_nan=False) | st.text(max_size=10),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=8), children, max_size=4),
    max_leaves=20,
)


@settings(max_examples=200, deadline=None)
@given(value=json_values)
def test_random_json_never_crashes_the_book_loader(value):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", oprstats.UnknownRuleWarning)  # random names are unknown
            oprstats.load_army_book(value if isinstance(value, dict) else {"units": value, "name": "x"})
    except (ValueError, TypeError):
        pass


BOOK = json.loads(EXAMPLE_BOOK.read_text())


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


PATHS = [p for p in _paths(BOOK) if p]


@settings(max_examples=300, deadline=None)
@given(path=st.sampled_from(PATHS), replacement=json_values, delete=st.booleans())
def test_mutated_books_load_or_fail_cleanly(path, replacement, delete):
    """A real-shaped book with one field deleted or replaced by random JSON."""
    data = json.loads(json.dumps(BOOK))
    parent = data
    for key in path[:-1]:
        parent = parent[key]
    if delete and isinstance(parent, dict):
        del parent[path[-1]]
    else:
        parent[path[-1]] = replacement
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", oprstats.UnknownRuleWarning)  # a mutated name is unknown
            oprstats.load_army_book(data)
            oprstats.load_army_book(data, strict=True)
    except (ValueError, TypeError):
        pass


names = st.text(alphabet=st.sampled_from("abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ-.'&"), min_size=1, max_size=12).filter(
    lambda s: s.strip() and not s.strip()[0].isdigit()
)
core_weapon_rules = st.sampled_from(["AP(1)", "AP(4)", "Blast(3)", "Deadly(6)", "Rending", "Reliable", "Bane", "Surge", "Indirect", "Shred"])
core_unit_rules = st.sampled_from(["Fearless", "Tough(3)", "Fast", "Stealth", "Regeneration", "Fear(1)", "Impact(3)", "Hive Bond", "5x Scout"])


@st.composite
def weapons(draw):
    return Weapon(
        draw(names),
        range=draw(st.none() | st.integers(1, 48)),
        attacks=draw(st.integers(0, 20)),
        count=draw(st.integers(1, 12)),
        rules=draw(st.lists(core_weapon_rules, max_size=3, unique=True)),
    )


@st.composite
def units(draw):
    return Unit(
        draw(names),
        size=draw(st.integers(1, 20)),
        quality=draw(st.integers(2, 6)),
        defense=draw(st.integers(2, 6)),
        rules=draw(st.lists(core_unit_rules, max_size=4, unique_by=lambda r: r.split("(")[0].split(" ")[-1])),
        weapons=draw(st.lists(weapons(), max_size=4)),
        cost=draw(st.none() | st.integers(0, 2000)),
    )


@settings(max_examples=200, deadline=None)
@given(w=weapons())
def test_weapon_notation_round_trips(w):
    assert Weapon.parse(str(w)) == w
    assert str(Weapon.parse(str(w))) == str(w)


@settings(max_examples=200, deadline=None)
@given(u=units())
def test_unit_notation_round_trips(u):
    assert Unit.parse(str(u)) == u
    assert sum(len(m.weapons) > 0 for m in u.models) <= u.size
    for w in u.weapons:  # the dealt-out copies add up to the unit's totals
        assert sum(mw.count for m in u.models for mw in m.weapons if mw.profile == w.profile) >= w.count


unit_states = st.builds(
    oprstats.UnitState,
    models_lost=st.integers(0, 25),
    wounds=st.integers(0, 4),
    hero_wounds=st.integers(0, 2),
    shaken=st.booleans(),
    fatigued=st.booleans(),
)


def _small(u) -> bool:
    return sum(w.attacks * w.count for w in u.weapons) <= 60


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(c=units().filter(_small), d=units().filter(_small), cs=unit_states, ds=unit_states, strike_back=st.booleans())
def test_random_melees_give_probabilities_or_a_clear_error(c, d, cs, ds, strike_back):
    try:
        m = oprstats.melee(c, d, charger_state=cs, defender_state=ds, strike_back=strike_back)
    except ValueError as e:
        assert any(f in str(e) for f in ("charger_state.", "defender_state.")), str(e)
        return
    assert m.p_charger_wins + m.p_defender_wins + m.p_tie == pytest.approx(1, abs=1e-9)
    for side in (m.charger, m.defender):
        assert side.p_destroyed + side.p_routed + side.p_shaken + side.p_unaffected == pytest.approx(1, abs=1e-9)
    assert m.models_left.sum() == pytest.approx(1, abs=1e-9)
    try:
        r = oprstats.morale(d, state=ds, melee=True)
    except ValueError as e:
        assert "state." in str(e)
    else:
        assert 0 <= r.p_pass <= 1 and r.p_pass + r.p_fail == pytest.approx(1)


def test_a_weapon_that_cannot_attack_that_way_is_not_a_silent_zero():
    book = oprstats.example_book()
    squad, drones = book.unit("Warden Squad"), book.unit("Swarm Drones")
    with pytest.raises(ValueError, match=r"weapons: CCW of Warden Squad: melee weapons strike only in melee \(melee=True\)"):
        oprstats.attack(squad, drones, weapons=["CCW"])
    with pytest.raises(ValueError, match="weapons: Line Rifle of Warden Squad: ranged weapons do not strike in melee"):
        oprstats.attack(squad, drones, weapons=["Line Rifle"], melee=True)
    with pytest.warns(UserWarning, match="Swarm Drones has no ranged weapon, so it deals nothing shooting"):
        assert oprstats.attack(drones, squad).hits.max == 0
    with pytest.warns(UserWarning, match=r'Warden Squad has no weapon that reaches 30" \(the longest reaches 24"\), so it deals nothing'):
        assert oprstats.attack(squad, drones, distance=30).hits.max == 0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert oprstats.attack(squad, drones, weapons=["CCW"], melee=True).hits.max > 0
