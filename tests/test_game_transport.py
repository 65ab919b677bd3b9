"""Transports in full games (gf-3.5 "Transport(X)"), on traced games of real army books:
spaces and capacity, deploying inside, leaving fully within 6" by Advance, Rush or Charge, no
attacks in or out, and what happens to the units inside when their transport is destroyed."""

from __future__ import annotations

import math
import warnings
from collections import defaultdict

import pytest

import oprstats
from oprstats import Unit

from .conftest import cite
from .test_game import check_invariants
from .test_game_army_rules import play

GUIDE = "gf-3.5-beginners-guide.txt"


@pytest.fixture(scope="module")
def books(book_paths):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {p.name.split("_")[0]: oprstats.load_army_book(p) for p in book_paths if "common" not in p.name}


def capacity(u):
    return sum(int(r[len("Transport("):-1]) for m in u.models for r in m.rules if r.startswith("Transport("))


def transport_army(book, size=6):
    """The book's cheapest transport, then its cheapest units that are not transports."""
    units = [u for u in book.units if u.cost]
    transports = sorted((u for u in units if capacity(u) > 0 and "Aircraft" not in str(u) and "Ambush" not in str(u)), key=lambda u: u.cost)
    others = sorted((u for u in units if capacity(u) == 0), key=lambda u: u.cost)
    return transports[:1] + others[: size - 1]


def check_transport_trace(trace, armies):
    """Replays a traced game's transport events, checking each against the rule; returns how
    many of each thing it saw."""
    seen = defaultdict(int)
    inside: dict[tuple, tuple] = {}  # unit -> its transport
    for e in trace.events:
        who = (e["army"], e["unit"])
        if e["kind"] in ("embarked", "embark"):
            t = (e["target_army"], e["target"])
            assert who not in inside and t not in inside, e
            inside[who] = t
            # "May transport up to X models": the spaces taken never exceed X
            used, of = (int(x) for x in e["detail"].split(" spaces")[0].split(" of "))
            assert of == capacity(armies[t[0]][t[1]]) and used <= of, e
            if e["kind"] == "embark":
                # by a move action: within its allowance (a model in contact with the transport)
                assert math.dist(e["from"], e["to"]) <= e["allowance"] + 1e-6, e
            seen[e["kind"]] += 1
        elif e["kind"] == "disembark":
            t = (e["target_army"], e["target"])
            assert inside.pop(who) == t, e
            if len(e["target_models"]) == 1:
                # "must stay fully within 6" of it when exiting" (and when placed after its
                # destruction), measured from the transport's model
                (tx, ty, tr), = e["target_models"]
                for x, y, r in e["models"]:
                    assert math.dist((x, y), (tx, ty)) + r <= 6 + tr + 1e-6, e
                # the move starts at the transport's edge (a unit placed on a wreck's own
                # ground starts where it is placed), and is no longer than its 6"
                assert math.dist(e["from"], (tx, ty)) == pytest.approx(min(tr, math.dist(e["to"], (tx, ty)))), e
                if e["detail"] != "charge":
                    assert math.dist(e["from"], e["to"]) <= 6 + 1e-6, e
                seen["measured"] += 1
            if "destroyed" in e["detail"]:
                seen["wrecked"] += 1
            else:
                seen[e["detail"]] += 1
        elif e["kind"] in ("shoot", "cast", "spell-hits", "strafe", "charge", "melee"):
            # "Units inside/outside transports may not target other units outside/inside
            # transports": nothing inside attacks or is attacked
            assert who not in inside, e
            if e["target"] >= 0:
                assert (e["target_army"], e["target"]) not in inside, e
        elif e["kind"] == "lost" and who in inside:
            inside.pop(who)
        if e["kind"] == "position" and who in inside:
            assert e["detail"] in ("inside", "gone"), e
    return seen


def test_spaces_and_capacity_as_the_guide_counts_them(rulebook):
    text = rulebook(GUIDE)
    cite(text, "May transport up to X models or Heroes with up to Tough(6), and non-Heroes with up to Tough(3) which occupy 3 spaces each.")
    cite(text, "a unit of 10 regular models with a Tough(3) Hero occupy 11 spaces in total")
    # (Fast: the default policy boards only a transport faster than the unit on foot)
    apc = Unit.parse('APC [1] Q4+ D2+ | 200pts | Fast, Tough(6), Transport(11)\nHeavy Rifle (24", A3)')
    squad = Unit.parse("Squad [10] Q4+ D4+ | 100pts\n10x Sword (A2)").join(Unit.parse("Boss [1] Q3+ D4+ | 50pts | Hero, Tough(3)\nSword (A3)"))
    brutes = Unit.parse("Brutes [3] Q4+ D4+ | 120pts | Tough(3)\n3x Claws (A3)")
    ogres = Unit.parse("Ogres [4] Q4+ D4+ | 160pts | Tough(3)\n4x Claws (A3)")
    # the squad and its Hero take 11 spaces: with them the APC is full
    r = play([apc, squad], [Unit.parse('T [5] Q4+ D4+ | 50pts\n5x Rifle (24", A1)')], games=3, seed=1)
    assert all(e["detail"] == "11 of 11 spaces" for t in r.traces for e in t.events if e["kind"] == "embarked")
    assert sum(1 for t in r.traces for e in t.events if e["kind"] == "embarked") == 3
    # 3 Tough(3) models take 9 spaces, 4 take 12: they do not fit in 11
    r = play([apc, brutes, ogres], [Unit.parse('T [5] Q4+ D4+ | 50pts\n5x Rifle (24", A1)')], games=3, seed=1)
    boarded = {e["unit"] for t in r.traces for e in t.events if e["kind"] == "embarked"}
    assert boarded == {1}


def test_units_leave_fully_within_six_inches_and_never_attack_in_or_out(books, rulebook):
    text = rulebook(GUIDE)
    cite(text, "units may enter/exit by using any move action, but must stay fully within 6\" of it when exiting")
    cite(text, "Units inside/outside transports may not target other units outside/inside transports, but may target the transport itself.")
    cite(text, "Units may use Charge actions to disembark")
    a = transport_army(books["battle-brothers"])
    b = [u for u in books["alien-hives"].units if u.cost][:6]
    r = play(a, b, games=60, seed=2)
    check_invariants(r, a, b)
    seen = defaultdict(int)
    for trace in r.traces:
        for k, v in check_transport_trace(trace, (a, b)).items():
            seen[k] += v
    assert seen["embarked"] > 0 and seen["charge"] > 0 and seen["advance"] + seen["rush"] > 0 and seen["measured"] > 0, dict(seen)


def test_a_destroyed_transport_throws_its_units_out_shaken_after_a_dangerous_test(books, rulebook):
    cite(rulebook(GUIDE), "When a transport is destroyed, units inside must take a dangerous terrain test, are Shaken, and must be placed fully within 6\" of the transport before it's removed.")
    bb = books["battle-brothers"]
    apc = next(u for u in bb.units if u.name == "APC")
    squad = next(u for u in bb.units if u.name == "Battle Brothers")
    # a gun line that wrecks the APC in its first volleys
    guns = Unit.parse('Lascannons [5] Q2+ D4+ | 300pts\n5x Lascannon (48", A2, AP(4), Deadly(3))')
    r = play([apc, squad], [guns, guns], games=60, seed=3, first="b", policy_b="hold")
    wrecks = 0
    for trace in r.traces:
        events = trace.events
        for i, e in enumerate(events):
            if e["kind"] == "disembark" and "destroyed" in e["detail"]:
                wrecks += 1
                who = (e["army"], e["unit"])
                # the dangerous terrain test came first, for every model of the unit
                test = next(x for x in reversed(events[:i]) if (x["army"], x["unit"]) == who)
                # (a die for each model of one wound: those left and those the test killed)
                assert test["kind"] == "dangerous" and test["dice"] == test["models_left"] + test["wounds"] > 0, test
                # and the unit is Shaken at the end of the round (it did not activate since,
                # or stayed idle)
                later = [x for x in events[i:] if (x["army"], x["unit"]) == who and x["kind"] == "position"]
                if later and later[0]["detail"] != "gone":
                    activated = any((x["army"], x["unit"]) == who and x["kind"] in ("idle",) for x in events[i:events.index(later[0])])
                    assert later[0]["detail"] == "shaken" or activated, later[0]
        check_transport_trace(trace, ([apc, squad], [guns, guns]))
    assert wrecks >= 10


def test_real_armies_with_transports_from_five_books_play_within_the_rules(books):
    names = [n for n in books if any(capacity(u) > 0 for u in books[n].units)]
    assert len(names) >= 5
    total = defaultdict(int)
    for i, n in enumerate(names[:6]):
        a = transport_army(books[n])
        b = transport_army(books[names[(i + 1) % len(names)]])
        r = play(a, b, games=8, seed=i)
        check_invariants(r, a, b)
        for trace in r.traces:
            for k, v in check_transport_trace(trace, (a, b)).items():
                total[k] += v
    assert total["embarked"] > 0 and sum(v for k, v in total.items() if k != "embarked") > 0, dict(total)
