"""Weapon and unit profiles: notation, values, models, joining heroes."""

from __future__ import annotations

import copy
import pickle
import re

import pytest

import oprstats
from oprstats import Unit, Weapon

from .conftest import cite

RIFLES = 'Battle Brothers [5] Q3+ D4+ | 120pts | Fearless\n5x Heavy Rifle (24", A1, AP(1)), 5x CCW (A1)'


class TestWeapon:
    def test_rulebook_example_profile(self, rulebook):
        text = rulebook("gf-3.5-beginners-guide.txt")
        cite(text, "Weapons profiles are represented like this:")
        cite(text, 'Example: Heavy Rifle (24", A1, AP(1))')
        w = Weapon.parse('Heavy Rifle (24", A1, AP(1))')
        assert (w.name, w.range, w.attacks, w.count, w.rules) == ("Heavy Rifle", 24, 1, 1, ("AP(1)",))
        assert w.rating("AP") == 1 and w.has_rule("AP") and not w.has_rule("Rending")

    def test_melee_weapons_have_no_range(self, rulebook):
        cite(
            rulebook("gf-3.5-beginners-guide.txt"),
            "Ranged weapons have a range value and can be used for shooting, whilst melee weapons don't have a range value",
        )
        ccw = Weapon.parse("CCW (A2)")
        assert ccw.range is None and ccw.is_melee
        assert not Weapon.parse('Rifle (24", A1)').is_melee

    def test_count_prefix(self):
        w = Weapon.parse('2x Heavy Rifle (24", A1, AP(1))')
        assert w.count == 2 and w.profile == 'Heavy Rifle (24", A1, AP(1))'
        assert str(w) == '2x Heavy Rifle (24", A1, AP(1))'
        assert Weapon.parse("1x CCW (A1)") == Weapon.parse("CCW (A1)")

    def test_constructor_equals_parse(self):
        built = Weapon("Plasma Gun", range=24, attacks=1, count=2, rules=("AP(4)", "Deadly(3)"))
        assert built == Weapon.parse('2x Plasma Gun (24", A1, AP(4), Deadly(3))')
        assert Weapon("CCW", attacks=1) == Weapon.parse("CCW (A1)")

    def test_rules_compare_as_a_set_but_print_as_written(self):
        a = Weapon.parse('Cannon (36", A1, Blast(3), AP(2))')
        b = Weapon.parse('Cannon (36", A1, AP(2), Blast(3))')
        assert a == b and hash(a) == hash(b)
        assert str(a) == 'Cannon (36", A1, Blast(3), AP(2))'

    def test_value_semantics(self):
        w = Weapon.parse('Rifle (24", A1)')
        assert w != Weapon.parse('Rifle (18", A1)')
        assert w != "Rifle"
        assert len({w, Weapon.parse('Rifle (24", A1)')}) == 1
        assert w.with_count(3).count == 3 and w.count == 1
        with pytest.raises(AttributeError):
            w.attacks = 5  # type: ignore[misc]

    def test_pickle_and_copy(self):
        w = Weapon.parse('3x Flamer (12", A1, Blast(3), Reliable)')
        assert pickle.loads(pickle.dumps(w)) == w
        assert copy.deepcopy(w) == w

    def test_army_rules_are_kept(self):
        w = Weapon.parse('Shredder (12", A3, Shred, AP(1))')
        assert w.rules == ("Shred", "AP(1)")


class TestUnit:
    def test_unit_stats(self, rulebook):
        text = rulebook("gf-3.5-beginners-guide.txt")
        cite(text, "Name [Size]: The unit name and number of models.")
        u = Unit.parse(RIFLES)
        assert (u.name, u.size, u.quality, u.defense, u.cost, u.tough) == ("Battle Brothers", 5, 3, 4, 120, 1)
        assert u.rules == ("Fearless",)
        assert [str(w) for w in u.weapons] == ['5x Heavy Rifle (24", A1, AP(1))', "5x CCW (A1)"]

    def test_repr_is_the_notation_and_parses_back(self):
        u = Unit.parse(RIFLES)
        assert repr(u) == RIFLES
        assert Unit.parse(str(u)) == u

    def test_constructor_equals_parse(self):
        built = Unit(
            "Battle Brothers",
            size=5,
            quality=3,
            defense=4,
            rules=["Fearless"],
            weapons=[Weapon.parse('5x Heavy Rifle (24", A1, AP(1))'), "5x CCW (A1)"],
            cost=120,
        )
        assert built == Unit.parse(RIFLES) and hash(built) == hash(Unit.parse(RIFLES))

    def test_header_without_cost_or_rules(self):
        u = Unit.parse("Grunts [10] Q5+ D5+\n10x CCW (A1)")
        assert u.cost is None and u.rules == ()
        assert str(u) == "Grunts [10] Q5+ D5+\n10x CCW (A1)"
        assert Unit.parse("Grunts [10] Q5+ D5+ | Fearless").rules == ("Fearless",)

    def test_items_and_counted_rules(self):
        u = Unit.parse("Raiders [5] Q4+ D3+ | 205pts | 5x Fast, 1x Sergeant Kit(Tough(3), Shred)\n5x CCW (A2)")
        assert u.rules == ("5x Fast", "1x Sergeant Kit(Tough(3), Shred)")
        models = u.models
        assert [m.tough for m in models] == [3, 1, 1, 1, 1]
        assert "Shred" in models[0].rules and "Shred" not in models[1].rules
        assert Unit.parse(str(u)) == u

    def test_tough_and_unknown_rules(self):
        u = Unit.parse("Hive Warriors [3] Q4+ D4+ | 290pts | Fearless, Tough(3), Hive Bond\n6x Razor Claws (A3, Shred)")
        assert u.tough == 3 and u.rating("Tough") == 3
        assert u.unknown_rules() == ()  # army-book rules the library knows under v3.5
        assert u.unknown_rules(edition="3.4.1") == ("Hive Bond", "Shred")
        assert all(m.tough == 3 for m in u.models)
        with pytest.warns(oprstats.UnknownRuleWarning) as record:
            odd = Unit.parse("Odd [1] Q4+ D4+ | Moonwalk\nClaws (A3, Glitter)")
        assert [str(w.message).split(": ")[1] for w in record] == ["Moonwalk", "Glitter"]
        assert odd.unknown_rules() == ("Moonwalk", "Glitter")  # kept by name and listed

    def test_models_carry_weapons_by_the_dealing_rule(self):
        u = Unit.parse(
            "Squad [10] Q4+ D4+ | 100pts\n"
            '9x Rifle (24", A1), Plasma Gun (24", A1, AP(4), Deadly(3)), 10x CCW (A1)'
        )
        loadouts = [tuple(str(w) for w in m.weapons) for m in u.models]
        assert loadouts[:9] == [('Rifle (24", A1)', "CCW (A1)")] * 9 or loadouts[:9] == [("CCW (A1)", 'Rifle (24", A1)')] * 9
        assert sorted(loadouts[9]) == sorted(("CCW (A1)", 'Plasma Gun (24", A1, AP(4), Deadly(3))'))

    def test_sergeant_weapons_go_to_one_model(self):
        u = Unit.parse(
            "Squad [5] Q4+ D4+\n4x CCW (A1), 4x Rifle (24\", A1), Sgt. Hand Weapon (A2), Sgt. Pistol (12\", A1)"
        )
        sgt = [m for m in u.models if any(w.name.startswith("Sgt.") for w in m.weapons)]
        assert len(sgt) == 1 and sorted(w.name for w in sgt[0].weapons) == ["Sgt. Hand Weapon", "Sgt. Pistol"]
        assert all(len(m.weapons) == 2 for m in u.models)

    def test_loadout_does_not_depend_on_written_order(self):
        a = Unit.parse('Squad [3] Q4+ D4+\n2x Razor Claws (A2), Serrated Claws (A2, AP(4))')
        b = Unit.parse('Squad [3] Q4+ D4+\nSerrated Claws (A2, AP(4)), 2x Razor Claws (A2)')
        assert a == b
        key = lambda u: sorted(tuple(str(w) for w in m.weapons) for m in u.models)
        assert key(a) == key(b)

    def test_weapon_multiples_are_shared_out(self):
        u = Unit.parse("Hive Warriors [6] Q4+ D4+ | Tough(3)\n12x Razor Claws (A3)")
        assert [m.weapons[0].count for m in u.models] == [2] * 6

    def test_pickle(self):
        u = Unit.parse(RIFLES)
        assert pickle.loads(pickle.dumps(u)) == u


class TestHeroJoining:
    CAPTAIN = "Captain [1] Q3+ D3+ | 95pts | Hero, Tough(3), Fearless\nHeavy Pistol (12\", A1, AP(1)), Energy Sword (A3, AP(1))"

    def test_join_follows_the_hero_rule(self, rulebook):
        text = rulebook("gf-3.5-beginners-guide.txt")
        cite(text, "Heroes with up to Tough(6) may deploy as part of one multi-model unit without another Hero.")
        cite(text, "when a Hero joins a unit, they count as part of that unit, so the unit's size is increased by 1")
        squad, captain = Unit.parse(RIFLES), Unit.parse(self.CAPTAIN)
        joined = squad.join(captain)
        assert joined.size == 6 and joined.cost == 215
        assert joined.hero == captain and joined.base == squad
        assert joined.quality == 3 and joined.defense == 4  # the unit's own profile
        hero = joined.models[-1]
        assert hero.is_hero and hero.tough == 3 and hero.quality == 3 and hero.group == 1
        assert [m.is_hero for m in joined.models] == [False] * 5 + [True]

    def test_joined_unit_text_round_trips(self):
        joined = Unit.parse(RIFLES).join(Unit.parse(self.CAPTAIN))
        text = str(joined)
        assert "| Joined to:" in text
        assert Unit.parse(text) == joined
        assert pickle.loads(pickle.dumps(joined)) == joined

    def test_tough_over_6_may_not_join(self):
        big = Unit.parse("Lord [1] Q3+ D2+ | Hero, Tough(12)\nClaws (A6)")
        with pytest.raises(ValueError, match=r"Tough\(6\)"):
            Unit.parse(RIFLES).join(big)

    def test_only_heroes_join_multi_model_units_without_a_hero(self):
        squad, captain = Unit.parse(RIFLES), Unit.parse(self.CAPTAIN)
        with pytest.raises(ValueError, match="Hero rule"):
            squad.join(squad)
        with pytest.raises(ValueError, match="multi-model"):
            captain.join(captain)
        with pytest.raises(ValueError, match="already has a hero"):
            squad.join(captain).join(captain)
        with pytest.raises(TypeError, match="hero"):
            squad.join("Captain")  # type: ignore[arg-type]

    def test_edition_differences(self, rulebook):
        cite(rulebook("gf-2.x-one-page.txt"), "Hero: May be deployed as part of friendly units")
        cite(rulebook("gf-firefight-3.2.txt"), "Friendly units within 12\" may take morale tests using the hero's Quality")
        big = Unit.parse("Lord [1] Q3+ D2+ | Hero, Tough(12)\nClaws (A6)", edition="2")
        squad = Unit.parse(RIFLES, edition="2")
        assert squad.join(big).size == 6
        with pytest.raises(ValueError, match="do not join"):
            Unit.parse(RIFLES).join(Unit.parse(self.CAPTAIN), edition="firefight-3.2")


def _rule_names_in_text(edition_file: str, text: str) -> dict[str, bool]:
    """The special rules a rulebook lists, read from its own text: name -> takes (X)."""
    lines = text.splitlines()
    found: dict[str, bool] = {}
    if edition_file == "gf-3.5-beginners-guide.txt":
        start = next(i for i, l in enumerate(lines) if l.strip() == "## SPECIAL RULES REFERENCE")
        end = next(i for i, l in enumerate(lines) if l.strip() == "# WHAT NEXT?")
        for l in lines[start + 1 : end]:
            if l.startswith("## ") or l.startswith("### "):
                head = l.lstrip("#").strip()
                if head != "SPECIAL RULES":
                    found[head.replace("(X)", "")] = head.endswith("(X)")
    elif edition_file == "gf-2.x-one-page.txt":
        start = lines.index("Special Rules")
        for l in lines[start + 1 :]:
            if ":" in l:
                name, desc = l.split(":", 1)
                found[name.strip()] = re.search(r"(?<![A-Za-z])X(?![A-Za-z])", desc) is not None
    else:
        if edition_file == "gf-3.4.1-core.txt":
            start = lines.index("Special Rules Reference")
            end = len(lines)
        else:
            start = lines.index("Rules Priority & Stacking Effects") + 1
            end = lines.index("What Next?")
        body = lines[start + 1 : end]
        for i, l in enumerate(body):
            t = l.strip()
            nxt = body[i + 1].strip() if i + 1 < len(body) else ""
            if t and len(t) < 20 and not t.endswith(".") and nxt == "" and not t.startswith("Example"):
                found[t.replace("(X)", "")] = t.endswith("(X)")
    return found


@pytest.mark.parametrize(
    "key,edition_file",
    [
        ("3.5", "gf-3.5-beginners-guide.txt"),
        ("3.4.1", "gf-3.4.1-core.txt"),
        ("2", "gf-2.x-one-page.txt"),
        ("firefight-3.2", "gf-firefight-3.2.txt"),
    ],
)
def test_rule_catalog_is_the_rulebook_list(rulebook, key, edition_file):
    """Each edition knows exactly the special rules its rulebook lists, with (X) where the
    text writes it. Rules only about play (Psychic in 2.x) are still known by name."""
    in_text = _rule_names_in_text(edition_file, rulebook(edition_file))
    known = {name: rated for name, rated, _ in oprstats.known_rules(key)}
    assert known == in_text


def test_editions_listing():
    eds = oprstats.editions()
    assert [e.key for e in eds] == ["3.5", "3.4.1", "2", "firefight-3.2"]
    assert "Tough(X)" in eds[0].rules and "Bane" in eds[0].rules and "Poison" not in eds[0].rules
    assert "Poison" in eds[1].rules and "Fear" in eds[2].rules  # 2.x Fear is +D3, no (X)
    with pytest.raises(ValueError, match="unknown edition"):
        oprstats.known_rules("4.0")


def test_rules_are_checked_per_edition():
    with pytest.raises(ValueError, match="Fear takes a number"):
        Unit.parse("Beast [1] Q4+ D4+ | Fear")
    assert Unit.parse("Beast [1] Q4+ D4+ | Fear", edition="2").rules == ("Fear",)
    with pytest.raises(ValueError, match="Fearless takes no rating"):
        Unit.parse("Beast [1] Q4+ D4+ | Fearless(2)")
    with pytest.raises(ValueError, match="whole number"):
        Weapon.parse("Claw (A1, AP(lots))")
    # Army rules are not checked: they are kept as written, text ratings included.
    assert Unit.parse("Horror [1] Q4+ D4+ | Split(Changelings [10])").rules == ("Split(Changelings [10])",)
