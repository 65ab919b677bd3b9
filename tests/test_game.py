"""Full games (issue 7): rules that cite gf-3.5, invariants checked on every traced game, a
scripted gun line against ``attack()``, reproducibility, the result API and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import oprstats
from oprstats import Policy, TerrainPiece, Unit, UnitState
from oprstats import _core
from oprstats._game import wilson

from .conftest import cite

GUIDE = "gf-3.5-beginners-guide.txt"
ACTIONS = ("hold", "advance", "rush", "charge", "idle")

# A small mixed army: shooters, a Fast melee unit, a Slow Tough unit, Scouts, Ambushers, an
# Aircraft, Strider and Flying (every movement rule of the issue).
ARMY = [
    Unit.parse('Rifles [10] Q4+ D5+ | 100pts\n10x Rifle (24", A1)'),
    Unit.parse('Heavy Team [3] Q4+ D4+ | 150pts | Tough(3), Slow\n3x Cannon (30", A2, AP(2))'),
    Unit.parse("Raiders [5] Q4+ D5+ | 90pts | Fast, Furious\n5x Blade (A2, AP(1))"),
    Unit.parse('Rangers [5] Q4+ D5+ | 110pts | Scout, Strider\n5x Carbine (18", A2)'),
    Unit.parse("Stalkers [3] Q4+ D4+ | 120pts | Ambush, Tough(3)\n3x Claws (A3, AP(1))"),
    Unit.parse('Jumpers [5] Q4+ D5+ | 110pts | Flying\n5x Pistol (12", A1), 5x Blade (A1)'),
    Unit.parse('Jet [1] Q4+ D3+ | 180pts | Aircraft, Tough(6)\nMissiles (24", A4, AP(2))'),
]


def prep_info(a, b):
    prep = _core._prepare_game(list(a), list(b), edition="3.5", role_ratio=(2.0, 2.0))
    return prep.units(), prep


#: Inches the books' move rules add to Advance, Rush and Charge ("Moves +1" when using
#: Advance, and +3" when using Rush/Charge"), restated from their texts (test_game_army_rules
#: quotes them): the unit gets them when all its models have the rule.
MOVE_RULES = {
    "Fast": (2, 4, 4), "Lustbound": (1, 3, 3), "Highborn": (2, 2, 2), "Scurry": (2, 2, 2), "Quick": (2, 2, 2),
    "Agile": (1, 2, 2), "Darkborn": (0, 0, 3), "Speed Boost": (2, 4, 4), "Rapid Charge": (0, 0, 4),
    "Rapid Rush": (0, 6, 0), "Rapid Advance": (4, 0, 0),
    # what the books' move spells give once, by their words: "which moves +2" when using
    # Advance actions and +4" when using Rush/Charge actions" (and -2"/-4" for an enemy's)
    '+2"/+4" moves': (2, 4, 4), '-2"/-4" moves': (-2, -4, -4),
}
#: Auras: one model gives them to its whole unit.
MOVE_AURAS = {"Fast Aura": (2, 4, 4), "Rapid Charge Aura": (0, 0, 4), "Rapid Rush Aura": (0, 6, 0),
              "Rapid Advance Aura": (4, 0, 0)}
#: Boosts of a rule every model must have.
MOVE_BOOSTS = {"Highborn Boost": ("Highborn", (2, 2, 2)), "Scurry Boost": ("Scurry", (2, 2, 2)),
               "Lustbound Boost": ("Lustbound", (1, 3, 3)),
               # "Swift: This model may ignore the Slow rule."
               "Swift": ("Slow", (2, 4, 4))}


def movement(unit: Unit) -> dict:
    """A unit's Advance, Rush and Charge inches from its rules' texts: it moves as its slowest
    model (Slow when any model has it, a bonus when all have it)."""
    per_model = [{r.split("(")[0] for r in m.rules} for m in unit.models]
    any_has = set().union(*per_model)
    all_have = set.intersection(*per_model)
    lent = {a for a in MOVE_AURAS if a in any_has}
    bonus = [0, 0, 0]
    for name, add in [*MOVE_RULES.items(), *MOVE_AURAS.items()]:
        if name in all_have or name in lent:
            bonus = [b + x for b, x in zip(bonus, add)]
    for name, (needs, add) in MOVE_BOOSTS.items():
        if (name in all_have or name in lent) and needs in all_have:
            bonus = [b + x for b, x in zip(bonus, add)]
    slow = "Slow" in any_has
    return {
        "advance": max(0, 6 + bonus[0] - 2 * slow) + 30 * ("Aircraft" in all_have),
        "rush": max(0, 12 + bonus[1] - 4 * slow),
        "charge": max(0, 12 + bonus[2] - 4 * slow),
    }


def check_markers(trace, last_round: int, excluded, game: int) -> list:
    """The markers' owners recomputed from a trace's snapshots round by round, checked against
    the trace's own, and those at the end: a unit "ready" (not Shaken, not arriving blind) and
    not ``excluded`` seizes a marker within 3" of its closest model whilst no enemy is;
    both sides there make it neutral."""
    owners = [-1] * len(trace.objectives)
    for r in range(1, last_round + 1):
        for i, (mx, my) in enumerate(trace.objectives):
            present = [False, False]
            for e in trace.positions(r):
                if e["detail"] != "ready" or excluded(e):
                    continue
                # "within 3" of a marker", measured from the unit's closest model
                if min(math.dist((x, y), (mx, my)) - rr for x, y, rr in e["models"]) <= 3.0 + 1e-6:
                    present[e["army"]] = True
            if present == [True, True]:
                owners[i] = -1
            elif present[0] or present[1]:
                owners[i] = 0 if present[0] else 1
        assert trace.owners(r) == owners, (game, r)
    return owners


def coherent(models) -> bool:
    """A chain of models each within 1" (edge to edge) of another, found from the first."""
    reached, stack = {0}, [0]
    while stack:
        a = stack.pop()
        for b in range(len(models)):
            (xa, ya, ra), (xb, yb, rb) = models[a], models[b]
            if b not in reached and math.dist((xa, ya), (xb, yb)) - ra - rb <= 1.0 + 1e-9:
                reached.add(b)
                stack.append(b)
    return len(reached) == len(models)


def check_invariants(result, army_a, army_b):
    """Every traced game: no move longer than allowed, no unit inside impassable terrain or off
    the table, objectives counted as the rulebook says, and the final counts match."""
    armies = (list(army_a), list(army_b))
    for g, trace in enumerate(result.traces):
        last_round = max(e["round"] for e in trace.events)
        # the rule each unit holds as a buff (a friend's, or a spell's "once"): a move rule adds
        # its inches to the move that uses it
        # (a friend's and an enemy's, side by side: their inches add up)
        holding: dict[tuple, dict] = {}
        for e in trace.events:
            if e["kind"] in ("buff", "debuff") and e["target"] >= 0:
                holding.setdefault((e["target_army"], e["target"]), {})[e["kind"]] = e["detail"].split(": ")[-1]
            elif e["kind"] == "buff-used":
                mine = holding.get((e["army"], e["unit"]), {})
                for k, rule in list(mine.items()):
                    if e["detail"].startswith(rule + ": "):
                        del mine[k]
            if e["kind"] in ("advance", "rush", "charge"):
                unit = armies[e["army"]][e["unit"]]
                allowed = movement(unit)[e["kind"]]
                for held in holding.get((e["army"], e["unit"]), {}).values():
                    bonus = MOVE_RULES.get(held) or MOVE_AURAS.get(held) or MOVE_BOOSTS.get(held, (None, (0, 0, 0)))[1]
                    allowed += bonus[("advance", "rush", "charge").index(e["kind"])]
                allowed = max(allowed, 0)
                if e["detail"] == "difficult":
                    allowed = min(allowed, 6)
                assert math.dist(e["from"], e["to"]) <= e["length"] + 1e-6, (g, e)
                assert e["length"] <= allowed + 1e-6, (g, e)
                assert e["allowance"] <= allowed + 1e-9, (g, e)
                # a model that ends in difficult terrain moved in it: "may not move more than
                # 6"" (Strider and Flying units ignore it; a unit holding a buff may fly)
                rules = {ru.split("(")[0] for m in unit.models for ru in m.rules}
                if not rules & {"Strider", "Flying", "Aircraft"} and (e["army"], e["unit"]) not in holding:
                    inside = any(t.difficult and math.hypot(max(t.x0 - x, 0, x - t.x1), max(t.y0 - y, 0, y - t.y1)) < r - 1e-6
                                 for x, y, r in e["models"] for t in trace.terrain)
                    assert not inside or e["detail"] == "difficult", (g, e)
            if e["kind"] in ("place", "hit-and-run"):
                # a placement (Wolfborn 3", Bounding D3+1", Teleport 6", Fanatic 9") or the move
                # after shooting or melee (Harassing 3", its Boost 6"): within its allowance
                assert math.dist(e["from"], e["to"]) <= e["allowance"] + 1e-6, (g, e)
                assert e["allowance"] <= (9 if e["kind"] == "place" else 6) + 1e-9, (g, e)
                if "difficult" in e["detail"]:
                    assert e["allowance"] <= 6 + 1e-9, (g, e)
            # deployments: every model on the table and off impassable terrain; deployed within
            # 12" ("fully within 12" of their table edge"), Scouts within 24"
            if e["kind"] in ("deploy", "scout", "ambush") and e.get("detail") not in ("gone", "reserve"):
                aircraft = "Aircraft" in {ru for m in armies[e["army"]][e["unit"]].models for ru in m.rules}
                for x, y, r in e["models"]:
                    assert r - 1e-6 <= x <= 72 - r + 1e-6 and r - 1e-6 <= y <= 48 - r + 1e-6, (g, e)
                    for t in trace.terrain:
                        if t.impassable and not aircraft:
                            dx, dy = max(t.x0 - x, 0, x - t.x1), max(t.y0 - y, 0, y - t.y1)
                            assert math.hypot(dx, dy) >= r - 1e-6, (g, e, t)
                if e["kind"] in ("deploy", "scout"):
                    depth = 12 if e["kind"] == "deploy" else 24
                    edges = [(y + r, 48 - y + r) for x, y, r in e["models"]]
                    assert min(max(a for a, _ in edges), max(b for _, b in edges)) <= depth + 1e-6, (g, e)
        # "Aircraft are flying high above the ground": above the forest they fly over, never
        # in cover
        for e in trace.events:
            if e["kind"] == "shoot" and e["target"] >= 0:
                target = armies[e["target_army"]][e["target"]]
                if "Aircraft" in {ru for m in target.models for ru in m.rules}:
                    assert "target in cover" not in e["detail"], (g, e)
        # "the charging unit must move back by 1"": right after its melee, at most an inch,
        # away from the target (its models left after the melee, which the melee event holds)
        last = {}
        for e in trace.events:
            if e["kind"] in ("charge", "melee"):
                last[e["kind"]] = e
            elif e["kind"] == "consolidate":
                melee, charge = last["melee"], last["charge"]
                assert (melee["army"], melee["unit"]) == (charge["army"], charge["unit"]) == (e["army"], e["unit"]), (g, e)
                assert math.dist(e["from"], e["to"]) <= 1 + 1e-9 and e["allowance"] == 1, (g, e)
                gap = lambda at: min(math.dist(at, (x, y)) for x, y, _ in melee["target_models"])  # noqa: E731
                assert gap(e["to"]) > gap(e["from"]), (g, e)
        # "Players alternate in placing Ambushers, starting with the player that activates
        # next": two in a row by one player only once the other has none left to place
        for r in range(1, last_round + 1):
            placed = [e["army"] for e in trace.events if e["kind"] == "ambush" and e["round"] == r]
            for i in range(1, len(placed)):
                if placed[i] == placed[i - 1]:
                    assert 1 - placed[i] not in placed[i:], (g, r, placed)
        # every model on the table, off impassable terrain, and in coherency: "All models in a
        # unit must always stay within 1" of at least one other model ... forming an
        # uninterrupted chain of models in 1" coherency with each other"
        for e in trace.events:
            if e["kind"] != "position" or e["detail"] in ("gone", "reserve", "inside"):
                continue
            models = e["models"]
            assert len(models) == e["models_left"], (g, e)
            aircraft = "Aircraft" in {ru for m in armies[e["army"]][e["unit"]].models for ru in m.rules}
            for x, y, r in models:
                assert r - 1e-6 <= x <= 72 - r + 1e-6 and r - 1e-6 <= y <= 48 - r + 1e-6, (g, e)
                for t in trace.terrain:
                    if t.impassable and not aircraft:
                        dx, dy = max(t.x0 - x, 0, x - t.x1), max(t.y0 - y, 0, y - t.y1)
                        assert math.hypot(dx, dy) >= r - 1e-6, (g, e, t)
            assert coherent(models), (g, e)
        # objectives, recomputed from the snapshots: "within 3" of a marker whilst no enemies
        # are", contested markers become neutral, Shaken units and Aircraft can't seize or
        # contest, Ambushers can't on the round they deploy
        aircraft = lambda e: "Aircraft" in {ru for m in armies[e["army"]][e["unit"]].models for ru in m.rules}  # noqa: E731
        owners = check_markers(trace, last_round, aircraft, g)
        assert list(result.objectives[g]) == [owners.count(0), owners.count(1)]
        expected = np.sign(owners.count(0) - owners.count(1))
        assert result.winner[g] == expected


@pytest.fixture(scope="module")
def traced():
    return oprstats.simulate(ARMY, ARMY[::-1], games=40, seed=11, trace=True, progress=False)


@pytest.fixture(scope="module")
def real_armies(book_paths):
    """The first twelve units with a cost of two real books: Battle Brothers, Alien Hives."""
    book_a = oprstats.load_army_book(next(p for p in book_paths if "battle-brothers" in p.name))
    book_b = oprstats.load_army_book(next(p for p in book_paths if "alien-hives" in p.name))
    return [u for u in book_a.units if u.cost][:12], [u for u in book_b.units if u.cost][:12]


@pytest.fixture(scope="module")
def real_traced(real_armies):
    return oprstats.simulate(*real_armies, games=60, seed=4, trace=True, progress=False)


def test_invariants_hold_in_every_traced_game(traced):
    assert traced.violations == 0
    check_invariants(traced, ARMY, ARMY[::-1])


def test_invariants_with_the_random_policy():
    r = oprstats.simulate(ARMY, ARMY, games=30, seed=3, trace=True, progress=False, policy_a="random", policy_b="random")
    check_invariants(r, ARMY, ARMY)


def test_moves_follow_the_rulebooks_distances(rulebook, traced):
    text = rulebook(GUIDE)
    cite(text, "Advance - Moves 6\" and can shoot after moving.")
    cite(text, "Rush - Moves 12\" but can't shoot.")
    cite(text, "Charge - Moves 12\" into melee.")
    cite(text, "Models with this special rule move +2\" when using Advance and +4\" when using Rush/Charge.")
    cite(text, "Models with this special rule move -2\" when using Advance, and -4\" when using Rush/Charge.")
    cite(text, "then all models in the unit may not move more than 6\" for that movement.")
    seen = set()
    armies = (ARMY, ARMY[::-1])
    for trace in traced.traces:
        for e in trace.events:
            if e["kind"] in ("advance", "rush", "charge"):
                unit = armies[e["army"]][e["unit"]]
                allowed = movement(unit)[e["kind"]]
                if e["detail"] == "difficult":
                    allowed = min(allowed, 6)
                assert e["allowance"] == pytest.approx(allowed)
                seen.add((unit.name, e["kind"]))
    # the Fast and Slow units did move, so their allowances were checked
    assert any(n == "Raiders" for n, _ in seen) and any(n == "Heavy Team" for n, _ in seen)


def test_charges_start_within_charge_distance(rulebook, traced):
    cite(rulebook(GUIDE), "Units may only take a Charge action if at least one model is within charge distance of "
                          "the target unit (including any additional movement from special rules).")
    armies = (ARMY, ARMY[::-1])
    charges = contact = 0
    for trace in traced.traces:
        events = trace.events
        for i, e in enumerate(events):
            if e["kind"] != "charge":
                continue
            melee = next(x for x in events[i + 1:] if x["kind"] in ("melee", *ACTIONS))
            if melee["kind"] != "melee":
                continue  # destroyed by dangerous terrain on the way
            charges += 1
            # the closest models: "at least one model is within charge distance" before the
            # move (the positions of both units' models as the move event records them)
            ours, theirs = e["models"], e["target_models"]
            dx, dy = e["to"][0] - e["from"][0], e["to"][1] - e["from"][1]
            before = [(x - dx, y - dy, r) for x, y, r in ours]
            gap = min(math.dist((x, y), (u, v)) - r - s for x, y, r in before for u, v, s in theirs)
            assert gap <= movement(armies[e["army"]][e["unit"]])["charge"] + 1e-6
            # through difficult terrain "may not move more than 6"" (the recorded allowance):
            # the charge distance is 6"
            assert gap <= e["allowance"] + 1e-6, e
            # "Charging models must move by up to 12" to get into base contact with an enemy
            # model from the target unit, or as close as possible"
            after = min(math.dist((x, y), (u, v)) - r - s for x, y, r in ours for u, v, s in theirs)
            contact += after <= 1e-3
            assert after >= -1e-6, "no model overlaps another"
    # the formation moves as one, so a charge that spends its whole move reaching the
    # target's disc may end short of base contact ("or as close as possible"): 9% of this
    # army's charges over seeds 11-15 (5-12% per seed; 8% on the benchmark's armies,
    # docs/game.md); the melee is fought as if in contact
    assert charges > 0 and contact >= 0.8 * charges, (contact, charges)


def test_chargers_move_back_an_inch_when_neither_unit_is_destroyed(rulebook, real_traced):
    cite(rulebook(GUIDE), 'If neither of the units was destroyed, then the charging unit must move back by 1" (if possible)')
    r = real_traced
    both_stand = moved_back = 0
    for trace in r.traces:
        events = trace.events
        for i, e in enumerate(events):
            if e["kind"] == "melee" and not any(w in e["detail"] for w in ("Destroyed", "Routed")):
                both_stand += 1
                nxt = events[i + 1] if i + 1 < len(events) else None
                moved_back += nxt is not None and nxt["kind"] == "consolidate" and (nxt["army"], nxt["unit"]) == (e["army"], e["unit"])
    # "if possible": a charger with a unit or impassable terrain right behind it stays (a
    # straight step back, else one turned up to 60 degrees, else half an inch)
    assert both_stand >= 200 and moved_back >= 0.98 * both_stand, (both_stand, moved_back)


def test_ambushers_are_placed_alternately(rulebook):
    cite(rulebook(GUIDE), "Players alternate in placing Ambushers, starting with the player that activates next.")
    # a table of impassable blocks 2" apart: one-model units fit between them, a unit on a
    # 4" base never does (not even where two gaps cross); army A's second Ambusher is one,
    # and waits while the others arrive
    blocks = [TerrainPiece(f"block{i}-{j}", 2 + 8 * i, 2 + 8 * j, 8 + 8 * i, 8 + 8 * j, impassable=True, blocking=True)
              for i in range(9) for j in range(6)]
    scout = lambda name: Unit.parse(f"{name} [1] Q4+ D4+ | 40pts | Ambush\nBlade (A2, AP(1))")  # noqa: E731
    giant = Unit.parse("Giant [1] Q4+ D4+ | 40pts | Ambush, Tough(12)\nClaws (A2, AP(1))")
    a = [scout("A1"), giant, scout("A2"), scout("A3")]
    b = [scout("B1"), scout("B2"), scout("B3")]
    r = oprstats.simulate(a, b, games=20, seed=5, terrain=blocks, trace=True, progress=False)
    assert r.violations == 0
    rounds = 0
    for trace in r.traces:
        for rnd in range(2, 5):
            this = [e for e in trace.events if e["round"] == rnd]
            placed = [e["army"] for e in this if e["kind"] == "ambush"]
            if not placed:
                continue
            rounds += 1
            assert "Giant" not in [e["name"] for e in this if e["kind"] == "ambush"]
            # the three small units of each side, one by one in turn: the Giant, with nowhere
            # to arrive, does not cost army A its turn
            assert placed == [placed[0], 1 - placed[0]] * 3, placed
            first_to_act = next(e["army"] for e in this if e["kind"] in ACTIONS)
            assert placed[0] == first_to_act, (placed, first_to_act)
    assert rounds == 20


def test_aircraft_get_no_cover(rulebook):
    cite(rulebook(GUIDE), "Note that since Aircraft are flying high above the ground, only the actual model counts")
    forests = [TerrainPiece(f"forest{i}", x, y, x + 10, y + 8, cover=True, difficult=True) for i, (x, y) in enumerate([(6, 14), (31, 20), (56, 14), (18, 28), (44, 28)])]
    jet = Unit.parse('Jet [1] Q4+ D3+ | 180pts | Aircraft, Tough(6)\nMissiles (24", A4, AP(2))')
    rifles = Unit.parse('Rifles [10] Q4+ D5+ | 100pts\n10x Rifle (24", A1)')
    r = oprstats.simulate([jet, rifles], [rifles, rifles, jet], games=40, seed=2, terrain=forests, trace=True, progress=False)
    shots = {"jet": [0, 0], "rifles": [0, 0]}
    for trace in r.traces:
        for e in trace.events:
            if e["kind"] == "shoot" and e["target"] >= 0:
                key = "jet" if e["target_name"] == "Jet" else "rifles"
                shots[key][0] += 1
                shots[key][1] += "target in cover" in e["detail"]
    # rifles hide in the forests; the jets over them do not
    assert shots["jet"][0] >= 20 and shots["jet"][1] == 0, shots
    assert shots["rifles"][1] > 0, shots


def test_a_rush_no_longer_than_an_advance_is_an_advance(rulebook, real_armies, real_traced):
    # "Advance - Moves 6" and can shoot after moving"; "Rush - Moves 12" but can't shoot": a
    # unit with guns that moves no further than an Advance takes the Advance (the default policy)
    cite(rulebook(GUIDE), "Advance - Moves 6\" and can shoot after moving.")
    r, armies = real_traced, real_armies
    rushes = 0
    for trace in r.traces:
        held = set()
        for e in trace.events:
            if e["kind"] in ("buff", "debuff") and e["target"] >= 0:
                held.add((e["target_army"], e["target"]))
            if e["kind"] != "rush" or (e["army"], e["unit"]) in held:
                continue
            unit = armies[e["army"]][e["unit"]]
            if not any(w.range for w in unit.weapons):
                continue
            rushes += 1
            advance = min(movement(unit)["advance"], 6 if e["detail"] == "difficult" else 99)
            assert e["length"] > advance + 1e-9, e
    assert rushes > 20, rushes


def test_shaken_units_stay_idle(rulebook, traced):
    cite(rulebook(GUIDE), "When activated, Shaken units must spend their activation being idle")
    checked = 0
    for trace in traced.traces:
        shaken = set()
        for e in trace.events:
            who = (e["army"], e["unit"])
            if e["kind"] == "morale" and e["detail"].startswith("failed"):
                shaken.add(who)
            elif e["kind"] == "melee":
                for side, tag in ((who, "charger=Shaken"), ((e["target_army"], e["target"]), "defender=Shaken")):
                    if tag in e["detail"]:
                        shaken.add(side)
            elif e["kind"] in ACTIONS and who in shaken:
                assert e["kind"] == "idle" or e["from"] != e["to"] and e["kind"] == "advance", e  # Aircraft still fly
                shaken.discard(who)
                checked += 1
    assert checked > 0


def test_the_player_who_finished_first_starts_the_next_round(rulebook, traced):
    cite(rulebook(GUIDE), "On each new round the player that finished activating first on the last round gets to activate first.")
    for trace in traced.traces:
        by_round = {}
        for e in trace.events:
            if e["kind"] in ACTIONS:
                by_round.setdefault(e["round"], []).append(e["army"])
        for r in range(1, max(by_round)):
            if r + 1 not in by_round:
                continue
            order = by_round[r]
            last = {a: max((i for i, x in enumerate(order) if x == a), default=-1) for a in (0, 1)}
            finished_first = min((0, 1), key=lambda a: last[a])
            nxt = by_round[r + 1]
            if finished_first in nxt:
                assert nxt[0] == finished_first, (r, order, nxt)


def test_objectives_are_seized_and_contested_within_three_inches(rulebook):
    text = rulebook(GUIDE)
    cite(text, "At the end of each round, if a unit is within 3\" of a marker whilst no enemies are, then it counts as being seized.")
    cite(text, "if units from both sides contest a marker at the end of a round, then it becomes neutral again.")
    cite(text, "can't seize or contest objectives.")
    # the recomputation is in check_invariants; here a table where it must happen
    rifles = Unit.parse('Rifles [5] Q4+ D5+\n5x Rifle (24", A1)')
    r = oprstats.simulate([rifles], [rifles], games=4, seed=1, trace=True, progress=False, terrain="open",
                          objectives=[(20, 24), (52, 24)], policy_a="hold", policy_b="hold", first="a", rounds=1,
                          deployment=([(20, 22)], [(52, 26)]))
    # each side's only unit sits on its own marker: seized by A and by B unless Shaken
    check_invariants(r, [rifles], [rifles])
    assert (r.objectives.sum(axis=1) >= 0).all()
    assert any(tuple(o) == (1, 1) for o in r.objectives)


def test_scripted_gun_line_casualties_match_attack():
    """Two units that only shoot at a fixed 12": army A's shooting is ``attack()`` exactly, and
    army B shoots back with what is left unless Shaken. Chi-square goodness of fit at 20,000
    games (seeded), p > 0.001 for both."""
    a = Unit.parse('Rifles [10] Q4+ D5+\n10x Rifle (24", A1)')
    b = Unit.parse('Troopers [5] Q4+ D4+ | Tough(3)\n5x Carbine (18", A2, AP(1))')
    info, _ = prep_info([a], [b])
    ra, rb = info[0][0][3], info[1][0][3]
    gap = 11.5
    n = 20_000
    res = oprstats.simulate([a], [b], games=n, seed=5, terrain="open", objectives=[], policy_a="hold", policy_b="hold",
                            first="a", rounds=1, deployment=([(36, 10)], [(36, 10 + ra + rb + gap)]), progress=False)
    shot = oprstats.attack(a, b, distance=12)
    expected_b = shot.remaining.pmf
    observed_b = np.bincount(res.models_left[:, 1], minlength=len(expected_b))
    # B shoots back with each state it can be left in (Shaken units stay idle)
    expected_a = np.zeros(11)
    for state, p in shot.states:
        if state.shaken:
            expected_a[10] += p
            continue
        back = oprstats.attack(b, a, distance=12, attacker_state=state)
        expected_a[: len(back.remaining.pmf)] += p * back.remaining.pmf
    expected_a[10] += shot.p_destroyed
    observed_a = np.bincount(res.models_left[:, 0], minlength=11)
    for observed, expected in ((observed_b, expected_b), (observed_a, expected_a)):
        keep = expected * n >= 5
        obs = np.append(observed[keep], observed[~keep].sum())
        exp = np.append(expected[keep], expected[~keep].sum()) * n
        if exp[-1] == 0:
            obs, exp = obs[:-1], exp[:-1]
        assert stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue > 1e-3


def test_seeded_runs_are_identical_with_one_and_two_threads():
    one = oprstats.simulate(ARMY, ARMY, games=150, seed=9, threads=1, progress=False)
    two = oprstats.simulate(ARMY, ARMY, games=150, seed=9, threads=2, progress=False)
    for field in ("winner", "first", "objectives", "models_left", "points_left"):
        assert np.array_equal(getattr(one, field), getattr(two, field))
    assert one.units().equals(two.units())
    # batches do not matter either: the first 100 of 150 games are the 100 of a shorter run
    short = oprstats.simulate(ARMY, ARMY, games=100, seed=9, progress=False)
    assert np.array_equal(short.winner, one.winner[:100]) and np.array_equal(short.points_left, one.points_left[:100])
    other = oprstats.simulate(ARMY, ARMY, games=150, seed=10, progress=False)
    assert not np.array_equal(other.points_left, one.points_left)


def test_seed_sequences_are_accepted():
    seq = np.random.SeedSequence(42)
    a = oprstats.simulate(ARMY, ARMY, games=20, seed=seq, progress=False)
    b = oprstats.simulate(ARMY, ARMY, games=20, seed=np.random.SeedSequence(42), progress=False)
    assert np.array_equal(a.points_left, b.points_left)


def test_paired_games_swap_sides_and_first_player_on_one_table():
    r = oprstats.simulate(ARMY, ARMY[:4], games=10, seed=4, paired=True, trace=True, progress=False)
    assert len(r) == 20 and list(r.pair[:4]) == [0, 0, 1, 1]
    for k in range(10):
        g1, g2 = r.traces[2 * k], r.traces[2 * k + 1]
        assert g1.terrain == g2.terrain and g1.objectives == g2.objectives
        assert r.first[2 * k] != r.first[2 * k + 1]
        # the army that went first deployed on the y = 0 edge
        for g in (2 * k, 2 * k + 1):
            deploy = [e for e in r.traces[g].events if e["kind"] == "deploy"]
            assert deploy[0]["army"] == r.first[g] and deploy[0]["to"][1] <= 12


def test_mirror_match_is_even_and_summary_has_wilson_intervals():
    r = oprstats.simulate(ARMY, ARMY, games=400, seed=2, paired=True, progress=False)
    rates = r.rates()
    assert sum(v[0] for v in rates.values()) == pytest.approx(1.0)
    lo, hi = rates["a_wins"][1:]
    assert lo <= rates["a_wins"][0] <= hi
    # a mirror match played paired is an exact mirror: each pair's second game is its first
    # with the sides swapped, so A's and B's wins are equal, not just close
    assert r.mirror
    w = r.winner.reshape(-1, 2)
    assert (w[:, 0] == -w[:, 1]).all()
    assert rates["a_wins"][0] == pytest.approx(rates["b_wins"][0])
    s = r.summary()
    assert list(s.index) == ["a_wins", "draws", "b_wins", "first_player_wins", "a_wins_going_first", "a_wins_going_second"]
    assert s.loc["a_wins_going_first", "n"] + s.loc["a_wins_going_second", "n"] == len(r)
    assert s.loc["a_wins", "per"] == "pairs" and s.loc["a_wins", "n"] == 400
    assert "exact mirror" in s.attrs["note"] and "mirror" in repr(r)
    frame = r.to_pandas()
    assert len(frame) == 800 and set(frame["first"]) == {"a", "b"}
    units = r.units()
    assert len(units) == 2 * len(ARMY) and ((units.destroyed_rate >= 0) & (units.destroyed_rate <= 1)).all()
    assert set(units.role) <= {"shooting", "hybrid", "melee"}
    # wounds dealt by one army are wounds taken by the other (dangerous terrain aside)
    dealt_a = units[units.army == "a"].wounds_dealt.sum()
    taken_b = units[units.army == "b"].wounds_taken.sum()
    assert dealt_a <= taken_b + 1e-9
    assert "GameResult(games=800, paired" in repr(r)


def test_wilson_interval():
    lo, hi = wilson(50, 100)
    assert (lo, hi) == pytest.approx((0.4038, 0.5962), abs=1e-4)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)


def test_roles_come_from_exact_expected_damage():
    _, prep = prep_info(ARMY, ARMY)
    roles = dict(zip([u.name for u in ARMY], prep.roles()[0]))
    assert roles["Rifles"] == "shooting" and roles["Raiders"] == "melee" and roles["Heavy Team"] == "shooting"
    values = prep.charge_values()[0]
    raiders, rifles = 2, 0
    assert values[raiders][rifles] > 0, "Furious blades charging riflemen come out ahead"


def test_random_policy_is_a_weaker_baseline():
    r = oprstats.simulate(ARMY, ARMY, games=300, seed=8, policy_b="random", paired=True, progress=False)
    assert r.rates()["a_wins"][0] > r.rates()["b_wins"][0]


def test_policy_weights_change_play():
    careful = Policy(charge_margin=5.0)
    a = oprstats.simulate(ARMY, ARMY, games=60, seed=1, policy_a=careful, progress=False, trace=True)
    charges = sum(e["kind"] == "charge" and e["army"] == 0 for t in a.traces for e in t.events)
    assert charges == 0, "a charge margin of 5 times the charger's points is never met"


def test_interrupting_returns_the_games_played(monkeypatch):
    calls = {"n": 0}
    real = _core._simulate

    def flaky(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    monkeypatch.setattr(_core, "_simulate", flaky)
    with pytest.warns(RuntimeWarning, match="interrupted after 16 of 200 games"):
        r = oprstats.simulate(ARMY, ARMY, games=200, seed=1, progress=False)
    assert r.interrupted and len(r) == 16


def test_progress_bar_runs(capsys):
    oprstats.simulate(ARMY[:2], ARMY[:2], games=10, seed=1, progress=True)
    assert "simulate" in capsys.readouterr().err


def test_plot_game_draws_every_round(traced):
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    from oprstats import plot

    axes = plot.game(traced, 3)
    visible = [ax for ax in axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == ["after deployment"] + [f"end of round {r}" for r in range(1, 5)]
    # the table, the terrain, the markers' circles and one base per model on the table
    trace = traced.traces[3]
    models = sum(len(e["models"]) for e in trace.positions(1) if e["detail"] not in ("gone", "reserve", "inside"))
    assert len(visible[1].patches) == 1 + len(trace.terrain) + len(trace.objectives) + models
    # the legend names every unit by its label, and the title gives the result
    fig = axes[0].figure
    labels = [t.get_text() for t in fig.legends[0].get_texts()]
    for army, letter in ((ARMY, "A"), (ARMY[::-1], "B")):
        for u, unit in enumerate(army):
            assert any(label.startswith(f"{letter}{u}  {unit.name} (") for label in labels), (letter, u, labels)
    outcome = {1: "army A wins", -1: "army B wins", 0: "a draw"}[int(traced.winner[3])]
    assert fig._suptitle.get_text().startswith(f"Game 3: {outcome}, objectives {traced.objectives[3][0]}–{traced.objectives[3][1]}")
    assert {t.get_text() for t in visible[2].texts} - {""} <= {f"{a}{u}" for a in "AB" for u in range(12)}  # ("": the move arrows)
    with pytest.raises(ValueError, match="game: must be the index"):
        plot.game(traced, 99)
    untraced = oprstats.simulate(ARMY, ARMY, games=2, seed=1, progress=False)
    with pytest.raises(ValueError, match="trace=True"):
        plot.game(untraced)


def test_real_armies_play_within_the_rules(real_armies):
    a, b = real_armies
    r = oprstats.simulate(a, b, games=30, seed=6, trace=True, progress=False)
    check_invariants(r, a, b)
    big = oprstats.simulate(a, b, games=500, seed=6, progress=False)
    assert big.violations == 0 and len(big) == 500


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"games": 0}, ValueError, "games: must be a whole number"),
        ({"games": 2.5}, ValueError, "games: must be a whole number"),
        ({"games": 101, "trace": True}, ValueError, "games: trace=True"),
        ({"edition": "4.0"}, ValueError, "edition: .*unknown edition"),
        ({"edition": 3.5}, TypeError, "edition: expected a str"),
        ({"terrain": "forest"}, ValueError, "terrain: must be"),
        ({"terrain": [1]}, TypeError, r"terrain\[0\]: expected a TerrainPiece"),
        ({"policy_a": "aggressive"}, ValueError, "policy_a: must be"),
        ({"policy_b": 3}, TypeError, "policy_b: expected a str or a Policy"),
        ({"threads": 0}, ValueError, "threads: must be None"),
        ({"rounds": 0}, ValueError, "rounds: must be"),
        ({"first": "c"}, ValueError, "first: must be"),
        ({"paired": "yes"}, TypeError, "paired: expected a bool"),
        ({"seed": "x"}, TypeError, "seed: expected"),
        ({"objectives": [(100, 10)], "terrain": "open"}, ValueError, r"objectives\[0\]"),
        ({"deployment": ([(10, 10)] * 7, [(10, 30)] * 7)}, ValueError, "deployment: fixed positions need fixed terrain"),
        ({"deployment": ([(0, 0)] * 7, [(10, 30)] * 7), "terrain": "open"}, ValueError, r"deployment_a\[0\]"),
        ({"deployment": ([(10, 10)], [(10, 30)]), "terrain": "open"}, ValueError, "deployment_a: must give one position per unit"),
    ],
)
def test_bad_input_is_refused_clearly(kwargs, error, match):
    with pytest.raises(error, match=match):
        oprstats.simulate(ARMY, ARMY, progress=False, **{"games": 10, **kwargs})


def test_bad_armies_and_pieces_are_refused_clearly():
    # a one-line string naming no file is a list's text (docs/loading.md), named for its argument
    with pytest.raises(ValueError, match="army_a: unit header: expected a unit header"):
        oprstats.simulate("Rifles", ARMY, games=1, progress=False)
    with pytest.raises(TypeError, match=r"army_b\[1\]: expected an oprstats.Unit"):
        oprstats.simulate(ARMY, [ARMY[0], 3], games=1, progress=False)
    with pytest.raises(FileNotFoundError, match="army_a: no file 'mine.txt'"):
        oprstats.simulate("mine.txt", ARMY, games=1, progress=False)
    with pytest.raises(ValueError, match="army_a: needs at least one unit"):
        oprstats.simulate([], ARMY, games=1, progress=False)
    v2 = Unit.parse("Old [5] Q4+ D4+", edition="2")
    with pytest.raises(ValueError, match=r"army_a\[0\].*is a 2 unit"):
        oprstats.simulate([v2], ARMY, games=1, progress=False)
    with pytest.raises(ValueError, match="TerrainPiece 'w': x1 must exceed x0"):
        TerrainPiece("w", 5, 5, 4, 6)
    with pytest.raises(ValueError, match="Policy.charge_margin"):
        Policy(charge_margin=-1)
    with pytest.raises(ValueError, match="Policy.role_ratio"):
        Policy(role_ratio=0.5)
    with pytest.raises(ValueError, match=r"deployment_a\[0\].*impassable"):
        block = TerrainPiece("block", 0, 0, 20, 20, impassable=True, blocking=True)
        oprstats.simulate(ARMY[:1], ARMY[:1], games=1, progress=False, terrain=[block],
                          deployment=([(10, 10)], [(40, 40)]))
    assert UnitState() == UnitState()


def test_cli_simulates_the_example_army(capsys):
    from oprstats.cli import main

    assert main(["simulate", "--games", "50", "--quiet", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "50 games of Grimdark Future v3.5 (seed 3, standard table, default policy)" in out
    assert "first_player_wins" in out and "Warden Squad" in out
    assert main(["simulate", "--games", "5", "--quiet", "--paired", "--terrain", "open"]) == 0
    assert "5 pairs (10 games) of Grimdark Future v3.5 (seed 1, paired, open table" in capsys.readouterr().out


def test_paired_intervals_rest_on_pairs():
    """Paired games share their dice streams: intervals are at the level of the pairs.
    For a mirror, the first player's wins are alike in both games of a pair (the same game
    with the sides swapped), so the interval is Wilson's over the pairs, not the games."""
    from oprstats._game import paired_interval, wilson

    r = oprstats.simulate(ARMY, ARMY, games=300, seed=5, paired=True, progress=False)
    first_won = np.where(r.first == 0, r.winner == 1, r.winner == -1)
    rate, lo, hi, m = paired_interval(first_won)
    assert m == 300 and rate == pytest.approx(first_won.mean())
    k = int(first_won.reshape(-1, 2).all(axis=1).sum())
    assert (lo, hi) == pytest.approx(wilson(k, 300))  # pairs all-or-nothing: n_eff = pairs
    assert r.first_player_effect()["first_player_wins"][1:] == pytest.approx((lo, hi))
    # independent games in pairs: the interval is Wilson's over the games
    rng = np.random.default_rng(0)
    coin = rng.random(20_000) < 0.3
    p, lo, hi, _ = paired_interval(coin)
    assert (lo, hi) == pytest.approx(wilson(p * 20_000, 20_000), abs=2e-3)
    # an unpaired run keeps Wilson over its games
    single = oprstats.simulate(ARMY, ARMY, games=50, seed=5, progress=False)
    assert single.summary().loc["a_wins", "per"] == "games" and single.summary().loc["a_wins", "n"] == 50


def test_the_seed_of_a_result_replays_it():
    first = oprstats.simulate(ARMY, ARMY, games=40, progress=False)  # fresh entropy
    again = oprstats.simulate(ARMY, ARMY, games=40, seed=first.seed, progress=False)
    assert isinstance(first.seed, int) and np.array_equal(first.winner, again.winner)
    assert np.array_equal(first.points_left, again.points_left) and first.engine_seed == again.engine_seed
    seq = np.random.SeedSequence(123)
    r = oprstats.simulate(ARMY, ARMY, games=40, seed=seq, progress=False)
    assert r.seed is seq
    assert np.array_equal(oprstats.simulate(ARMY, ARMY, games=40, seed=r.seed, progress=False).winner, r.winner)


def test_traces_name_the_units():
    r = oprstats.simulate(ARMY, ARMY, games=2, seed=3, trace=True, progress=False)
    names = {u.name for u in ARMY}
    events = r.traces[0].events
    deploys = [e for e in events if e["kind"] == "deploy"]
    assert deploys and all(e["name"] in names for e in deploys)
    shots = [e for e in events if e["target_name"] is not None]
    assert shots and all(e["target_name"] in names for e in shots)
    assert all(e["name"] is None for e in events if e["kind"] == "objective")
