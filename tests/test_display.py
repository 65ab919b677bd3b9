"""Rich display in Jupyter: every result a user looks at has a ``_repr_html_`` with its
headline numbers, in plain escaped HTML, and a text repr that says more than its shape."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import oprstats
from oprstats import Unit


@pytest.fixture(scope="module")
def results():
    book, army = oprstats.example_book(), oprstats.example_army()
    u = book.units
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {
            "distribution": oprstats.attack(u[1], u[2]).kills,
            "attack": oprstats.attack(u[1], u[2]),
            "melee": oprstats.melee(u[1], u[2]),
            "game": oprstats.simulate(army, army, games=20, seed=1, progress=False, paired=True),
            "price": oprstats.CostModel.default().predict(u[1]),
            "efficiency": oprstats.efficiency(u[1]),
            "curve": oprstats.efficiency_curve(u[1]),
            "book": book,
            "army": army,
            "matchups": oprstats.matchups(book, book),
            "duel": oprstats.duel(u[1], u[2], games=100, seed=1),
            "break_even": oprstats.break_even(u[1], book),
        }


@pytest.mark.parametrize("name", ["distribution", "attack", "melee", "game", "price", "efficiency", "curve", "book", "army",
                                  "matchups", "duel", "break_even"])
def test_every_result_has_a_rich_display(results, name):
    html = results[name]._repr_html_()
    assert html.startswith("<div><strong>") and html.endswith("</div>") and "<table" in html
    assert "<script" not in html and "<img" not in html
    # tags balance
    for tag in ("table", "tr", "div"):
        assert html.count(f"<{tag}") == html.count(f"</{tag}>"), tag


def test_the_displays_carry_the_headline_numbers(results):
    r = results["attack"]
    assert f"kills {r.kills.mean():.3g} of {r.size}" in r._repr_html_()
    m = results["melee"]
    assert f"charger wins {m.p_charger_wins:.4g}" in m._repr_html_()
    g = results["game"]
    low, high = g.rates()["a_wins"][1:]
    assert f"[{low:.3f}, {high:.3f}]" in g._repr_html_() and "intervals over the pairs" in g._repr_html_()
    p = results["price"]
    assert f"{p.points:.1f} pts modelled" in p._repr_html_() and "Warden Oath" in p._repr_html_()
    assert "Warden Squad" in results["book"]._repr_html_() and "950 pts" in results["army"]._repr_html_()
    d = results["duel"]
    assert f"{d.games:,} games" in d._repr_html_()


def test_text_reprs_say_more_than_a_shape(results):
    assert "best" in repr(results["efficiency"]) and "pts destroyed/100 pts" in repr(results["efficiency"])
    assert re.search(r"Defense 2\+ to 6\+ x Tough 1 to \d+: [\d.]+ to [\d.]+", repr(results["curve"]))
    assert re.fullmatch(r"Price\(Warden Squad: [\d.]+ pts modelled, official 110, \d+ terms; not priced: Warden Oath\)", repr(results["price"]))


def test_user_text_is_escaped():
    sneaky = Unit.parse('<b>Sneaky</b> [5] Q4+ D4+ | 100pts\n5x Rifle (24", A1)')
    html = oprstats.matchups([sneaky], [sneaky])._repr_html_()
    assert "<b>Sneaky" not in html and "&lt;b&gt;Sneaky" in html
    html = oprstats.Army([sneaky])._repr_html_()
    assert "<b>" not in html and "&lt;b&gt;" in html


def test_a_long_distribution_is_summed_up():
    d = oprstats.Distribution(np.full(60, 1 / 60))
    html = d._repr_html_()
    assert html.count("<tr>") == 1 + 25 + 1 and "25–59" in html


def test_units_and_weapons_display_as_profiles_in_jupyter():
    unit = oprstats.example_army().units[0]
    assert unit.hero is not None
    text = unit._repr_html_()
    assert text.startswith("<div>") and "<table" in text and "<script" not in text
    for part in (unit.base, unit.hero):
        assert f"{part.name} [{part.size}] Q{part.quality}+ D{part.defense}+" in text
        for w in part.weapons:
            assert w.name in text
    assert "joined by" in text
    w = oprstats.Weapon.parse('2x Heavy Rifle (24", A1, AP(1))')
    html = w._repr_html_()
    assert "Heavy Rifle" in html and "24&quot;" in html and "A1" in html and "AP(1)" in html


def test_morale_attack_tables_cost_models_and_fields_display_in_jupyter():
    units = list(oprstats.example_book().units)
    shown = {
        "Morale test": oprstats.morale(units[1]),
        "Attack table": oprstats.attack_table(units[:3], units[:3]),
        "Cost model": oprstats.CostModel.default(),
        "Field": oprstats.Field(units),
    }
    for title, value in shown.items():
        html = value._repr_html_()
        assert html.startswith(f"<div><strong>{title}</strong>") and "<table" in html and "<script" not in html, title
    assert units[0].name in shown["Attack table"]._repr_html_() and units[0].name in shown["Field"]._repr_html_()


def test_a_large_matchups_table_displays_its_best_and_worst_exchanges():
    units = list(oprstats.example_book().units)
    big = units * 3  # 18 x 18 pairs: too many for a grid
    m = oprstats.matchups(big, big)
    html = m._repr_html_()
    assert "ten best and ten worst exchanges of 324 pairs" in html and html.count("<tr>") == 1 + 20
    net = m.net
    best = np.unravel_index(np.nanargmax(net), net.shape)
    assert m.attackers[best[1]] in html
