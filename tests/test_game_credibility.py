"""Credibility beside every result (issue 40): the turns each unit spent doing nothing useful
(idle with something to do, stuck, carried all game, never activated), counted as they are
played, so a user sees when the AI rather than the list decided a result."""

from __future__ import annotations

import collections
import warnings

import numpy as np

import oprstats

from .test_game import ACTIONS, ARMY

WASTE = ("idle", "stuck", "carried", "never_acted")


def test_activations_are_the_traced_actions():
    # an independent count: every activation on the table plays one action event
    r = oprstats.simulate(ARMY, ARMY, games=6, seed=11, trace=True, progress=False)
    traced = collections.Counter()
    for t in r.traces:
        for e in t.events:
            if e["kind"] in ACTIONS:
                traced[(e["army"], e["unit"])] += 1
    for i, army in enumerate(("a", "b")):
        counted = np.rint(r.unit_stats[army]["activations"] * len(r)).astype(int)
        assert counted.tolist() == [traced[(i, u)] for u in range(len(ARMY))]


def test_a_policy_that_never_moves_wastes_its_turns():
    # "hold" holds every unit in place: those out of range and off the markers stand idle
    held = oprstats.simulate(ARMY, ARMY, games=200, seed=2, policy_a="hold", progress=False)
    played = oprstats.simulate(ARMY, ARMY, games=200, seed=2, progress=False)
    assert held.wasted()["a"] > 0.25 > played.wasted()["a"]
    assert held.unit_stats["a"]["idle"].sum() > 5 * played.unit_stats["a"]["idle"].sum()
    assert held.unit_stats["a"]["stuck"].sum() == 0, "it never chose to move"
    worst = held.wasted_units()
    assert worst and worst[0][0] == "a" and worst == sorted(worst, key=lambda w: -w[3])


def test_the_shares_add_up():
    r = oprstats.simulate(ARMY, ARMY, games=100, seed=4, progress=False)
    units = r.units()
    assert set(WASTE) | {"activations", "wasted_share"} <= set(units.columns)
    assert ((units.wasted_share >= 0) & (units.wasted_share <= 1)).all()
    for army, share in r.wasted().items():
        rows = units[units.army == army]
        wasted = rows[list(WASTE)].to_numpy().sum()
        assert np.isclose(share, wasted / (rows.activations.sum() + rows.never_acted.sum()))
    assert "turns wasted A" in repr(r)
    assert "did nothing useful" in r._repr_html_()


def test_the_default_wastes_fewer_turns_in_transports_than_the_november_policy():
    # issue 40: "v3-2026-11" parks units in transports that carry them no faster than they
    # walk; the default rides only when the ride pays. Same seeds, same armies: the squads'
    # turns carried all game fall
    from oprstats import Unit

    army = [
        Unit.parse("Carrier [1] Q4+ D2+ | 150pts | Tough(6), Transport(11)\nGun (24\", A2)"),
        Unit.parse("Squad [10] Q4+ D5+ | 120pts\n10x Rifle (24\", A1), 10x Blade (A1)"),
        Unit.parse("Squad [10] Q4+ D5+ | 120pts\n10x Rifle (24\", A1), 10x Blade (A1)"),
    ]
    enemy = [Unit.parse("Line [10] Q4+ D5+ | 130pts\n10x Rifle (24\", A1)") for _ in range(3)]
    carried = {}
    for policy in ("v3-2026-11", "default"):
        r = oprstats.simulate(army, enemy, games=300, seed=8, policy_a=policy, progress=False)
        carried[policy] = float(r.unit_stats["a"]["carried"].sum())
    assert carried["default"] < 0.5 * carried["v3-2026-11"], carried


def test_rounds_inside_a_transport_and_in_reserve_are_counted_per_unit():
    """A unit's time off the table to act: rounds it ended inside a transport on the table,
    and rounds it ended waiting to arrive ("At the start of any round after the first, may
    be deployed": an Ambusher the default policy keeps back waits at least round 1)."""
    parse = oprstats.Unit.parse
    apc = parse('APC [1] Q4+ D2+ | 150pts | Fast, Tough(6), Transport(11)\nHeavy Rifle (24", A3)')
    riders = parse('Riders [5] Q4+ D4+ | 60pts\n5x Rifle (24", A1)')
    lurkers = parse('Lurkers [5] Q4+ D4+ | 80pts | Ambush\n5x Rifle (24", A1)')
    foes = [parse('Grunts [10] Q5+ D5+ | 100pts\n10x Rifle (24", A1)')] * 3
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        r = oprstats.simulate([apc, riders, lurkers], foes, games=200, seed=5, progress=False)
    units = r.units().set_index(["army", "unit"])
    rounds = 4
    assert (units["rounds_inside"] + units["rounds_in_reserve"] <= rounds + 1e-9).all()
    assert units.loc[("a", 2), "rounds_in_reserve"] >= 1.0, "the Ambusher waits round 1 at least"
    assert units.loc[("a", 2), "rounds_inside"] == 0 and units.loc[("a", 0), "rounds_inside"] == 0
    assert (units.loc["b", "rounds_inside"] == 0).all() and (units.loc["b", "rounds_in_reserve"] == 0).all()
    # the riders' rounds inside are what the traced games show: never more than the rounds
    # before they got out
    assert 0 <= units.loc[("a", 1), "rounds_inside"] <= rounds
