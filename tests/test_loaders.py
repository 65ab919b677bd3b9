"""Army Forge books (JSON) and army lists (text export): the example data and the 43 real books."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path

import pytest

import oprstats
from oprstats import Unit, Weapon
from oprstats.examples import EXAMPLE_BOOK, EXAMPLE_LIST


def _weapon_labels(node, out):
    if isinstance(node, dict):
        if (node.get("type") == "ArmyBookWeapon" or "attacks" in node) and node.get("label"):
            out.append(node["label"])
        for v in node.values():
            _weapon_labels(v, out)
    elif isinstance(node, list):
        for v in node:
            _weapon_labels(v, out)
    return out


class TestExampleData:
    def test_example_book(self):
        book = oprstats.example_book()
        assert book.name == "Star Wardens (example)" and book.version == "3.5.1" and book.edition == "3.5"
        assert len(book) == 6 and [u.name for u in book][0] == "Warden Captain"
        captain = book.unit("Warden Captain")
        assert captain.rules == ("Hero", "Tough(3)", "Fearless", "Warden Oath", "1x Command Relay(Relay Link)")
        assert captain.has_rule("Warden Oath") and captain.unknown_rules() == ()  # its book defines them
        assert book.unit("wc01") == captain  # by Army Forge id too
        assert "Warden Oath" in book.special_rules
        with pytest.raises(ValueError, match="no such unit"):
            book.unit("Space Pirates")

    def test_example_upgrades_are_priced_per_unit(self):
        book = oprstats.example_book()
        options = book.upgrades("Warden Squad")
        assert [(o.label, o.cost) for o in options] == [
            ('Plasma Lance (18", A1, AP(4), Deadly(3))', 15),
            ('Flame Thrower (12", A1, Blast(3), Reliable)', 10),
            ("Shield Matrix (Shielded)", 20),
        ]
        lance = options[0]
        assert lance.variant == "replace" and lance.targets == ["Line Rifle"] and lance.affects == "exactly 1"
        assert lance.weapons == [Weapon.parse('Plasma Lance (18", A1, AP(4), Deadly(3))')]
        assert options[2].rules == ["1x Shield Matrix(Shielded)"] and options[2].affects == "all"
        assert book.upgrades("Scout Skimmers") == []

    def test_example_list(self):
        army = oprstats.example_army()
        assert (army.name, army.game, army.version, army.points_limit) == ("Star Wardens Strike Force", "GF", "3.5.1", 1000)
        assert len(army) == 6 and army.points == 950
        joined = army.units[0]
        assert joined.name == "Warden Squad" and joined.hero.name == "Warden Captain" and joined.size == 6
        assert army.units[4] == army.units[5]  # "2x Swarm Drones" is two copies

    def test_book_from_dict_equals_book_from_path(self):
        data = json.loads(EXAMPLE_BOOK.read_text())
        assert oprstats.load_army_book(data).units == oprstats.load_army_book(EXAMPLE_BOOK).units
        assert oprstats.load_army_book(str(EXAMPLE_BOOK)).units == oprstats.example_book().units

    def test_list_from_path_or_text(self):
        book = oprstats.example_book()  # defines the list's army rules
        assert oprstats.load_army_list(EXAMPLE_LIST, book=book).units == oprstats.load_army_list(EXAMPLE_LIST.read_text(), book=book).units

    def test_list_without_title(self):
        army = oprstats.load_army_list("Grunts [10] Q5+ D5+ | 60pts\n10x CCW (A1)\n\nGrunts [10] Q5+ D5+ | 60pts\n10x CCW (A1)")
        assert army.name == "" and army.points == 120 and army.points_limit is None

    def test_army_built_in_python(self):
        units = list(oprstats.example_book().units[:2])
        army = oprstats.Army(units, name="Two", points_limit=500)
        assert len(army) == 2 and army.points == 205 and list(army) == units


class TestRealBooks:
    def test_all_43_books_load(self, book_paths, book_jsons):
        assert len(book_paths) == 43
        total = 0
        for path in book_paths:
            book = oprstats.load_army_book(path)
            raw = book_jsons[path.name]
            assert book.name == raw["name"] and book.edition == "3.5"
            assert len(book) == len(raw["units"])
            for unit, ru in zip(book.units, raw["units"]):
                assert (unit.name, unit.size, unit.quality, unit.defense, unit.cost) == (
                    ru["name"], int(ru["size"]), ru["quality"], ru["defense"], ru["cost"],
                )
                # every rule is kept: the unit's rules, then its items
                assert len(unit.rules) == len(ru["rules"]) + sum(
                    1 for it in ru["items"] if any(c.get("type") != "ArmyBookWeapon" for c in it["content"])
                )
                tough = next((r["rating"] for r in ru["rules"] if r["name"] == "Tough"), 1)
                assert unit.tough == int(tough)
            total += len(book)
        assert total == 1013

    def test_every_weapon_label_round_trips(self, book_jsons):
        labels = [l for raw in book_jsons.values() for l in _weapon_labels(raw, [])]
        assert len(labels) > 5000
        for label in labels:
            w = Weapon.parse(label)
            assert str(w) == label.strip()
            assert Weapon.parse(str(w)) == w

    def test_weapons_inside_items_are_loaded(self, book_paths, book_jsons):
        seen = 0
        for path in book_paths:
            raw = book_jsons[path.name]
            book = oprstats.load_army_book(path)
            for unit, ru in zip(book.units, raw["units"]):
                for it in ru["items"]:
                    for c in it["content"]:
                        if c.get("type") == "ArmyBookWeapon":
                            assert any(w.name == c["name"] and w.attacks == c["attacks"] for w in unit.weapons)
                            seen += 1
        assert seen >= 10

    def test_upgrade_costs_are_the_per_unit_prices(self, book_paths, book_jsons):
        checked = 0
        for path in book_paths:
            raw = book_jsons[path.name]
            book = oprstats.load_army_book(path)
            packages = {p["uid"]: p for p in raw["upgradePackages"]}
            for unit_json, unit in zip(raw["units"], book.units):
                expected = []
                for uid in unit_json["upgrades"]:
                    if uid not in packages:
                        assert any(uid in w for w in book.warnings)
                        continue
                    for section in packages[uid]["sections"]:
                        for opt in section["options"]:
                            price = next((c["cost"] for c in opt["costs"] if c["unitId"] == unit_json["id"]), opt.get("cost", 0))
                            expected.append((section["label"], opt["label"], price))
                got = [(o.section, o.label, o.cost) for o in book.upgrades(unit_json["id"])]
                assert got == expected
                checked += len(got)
        assert checked > 1000

    def test_army_rules_are_kept_and_listed(self, book_paths):
        hives = oprstats.load_army_book(next(p for p in book_paths if p.name.startswith("alien-hives")))
        assert any(u.has_rule("Hive Bond") for u in hives.units)
        assert "Hive Bond" in hives.special_rules and "Hive Bond" in oprstats.known_rule_names()
        assert all(u.unknown_rules() == () for u in hives.units)
        assert not any("Hive Bond" in u.unknown_rules(edition="3.4.1") for u in hives.units)  # the book defines it

    def test_sub_faction_copies(self, book_paths, book_jsons):
        path = next(p for p in book_paths if p.name.startswith("blood-brothers"))
        raw, book = book_jsons[path.name], oprstats.load_army_book(path)
        synced = [(u["id"], u["sync"]) for u in raw["units"] if "sync" in u]
        assert synced
        uid, sync = synced[0]
        assert book.synced_from(uid) == (sync["parentArmyBookId"], sync["unitId"])

    def test_books_print_as_a_list_that_loads_back(self, book_paths):
        """Every real unit prints in the list notation and reads back as the same unit."""
        for path in book_paths:
            book = oprstats.load_army_book(path)
            text = "\n\n".join(str(u) for u in book.units)
            assert list(oprstats.load_army_list(text).units) == list(book.units)


def _bad_book(mutate):
    data = json.loads(EXAMPLE_BOOK.read_text())
    mutate(data)
    return data


class TestBadBooks:
    @pytest.mark.parametrize(
        "mutate,pattern",
        [
            (lambda d: d.pop("units"), r'missing key "units"'),
            (lambda d: d["units"][1].pop("quality"), r'units\[1\] \(id ws01\).*missing key "quality"'),
            (lambda d: d["units"][1].update(quality=7), r'units\[1\] \(id ws01\).*"quality" must be from 2 to 6, got 7'),
            (lambda d: d["units"][1].update(size=0), r'units\[1\] \(id ws01\).*"size" must be 1 or more'),
            (lambda d: d["units"][1]["weapons"][0].update(attacks=-1), r"ws01\).weapons\[0\].*must not be negative"),
            (lambda d: d["units"][0]["rules"][1].update(rating="many"), r"wc01\).*rating of Tough.*whole number"),
            (lambda d: d["units"][2].update(rules="Fast"), r'sk01\).*"rules" must be a list'),
            (lambda d: d["units"].__setitem__(0, 5), r"units\[0\] \(id \?\).*expected an object"),
            (lambda d: d["upgradePackages"][1]["sections"][0]["options"][0].pop("gains"), r'upgradePackages\[1\].sections\[0\].options\[0\].*"gains"'),
        ],
    )
    def test_errors_name_the_key_and_the_unit(self, mutate, pattern):
        with pytest.raises(ValueError, match=pattern):
            oprstats.load_army_book(_bad_book(mutate))

    def test_not_json(self, tmp_path: Path):
        p = tmp_path / "broken.json"
        p.write_text('{"units": [')
        with pytest.raises(ValueError, match="invalid JSON"):
            oprstats.load_army_book(p)

    def test_wrong_types(self):
        with pytest.raises(TypeError, match="source"):
            oprstats.load_army_book(42)  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="source"):
            oprstats.load_army_list(b"Grunts [1] Q4+ D4+")  # type: ignore[arg-type]
        with pytest.raises(FileNotFoundError):
            oprstats.load_army_book("no-such-book.json")
        with pytest.raises(ValueError, match="unknown edition"):
            oprstats.load_army_book(EXAMPLE_BOOK, edition="9th")

    def test_bad_lists(self):
        with pytest.raises(ValueError, match="found no units"):
            oprstats.load_army_list("++ Empty [GF 500pts] ++")
        with pytest.raises(ValueError, match=r"quality: must be from 2 to 6.*got \"Q7\+\" at position 20"):
            oprstats.load_army_list("++ A ++\nGrunts [10] Q7+ D5+ | 60pts")
        with pytest.raises(ValueError, match="Joined to"):
            oprstats.load_army_list("Captain [1] Q3+ D3+ | Hero, Tough(3)\n| Joined to:")
