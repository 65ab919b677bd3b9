"""Army-book rules in full games: each game primitive of the rule tables (`Effect::Move`,
`ChargePenalty`, `RecoverOn`, `Reposition`, `MoveAfterAttack`, `ExtraActivation`, rules with
options, `Ambush`, `ArrivalHits`, `Buff`, `OnlyMovingThrough`) changes traced games the way its book text says, quoted from the real books; and
``GameResult.unmodelled`` reports the rules the game ignores."""

from __future__ import annotations

import math
import warnings
from collections import Counter, defaultdict

import pytest
from scipy import stats

import oprstats
from oprstats import Unit

from .conftest import cite
from .test_game import ACTIONS, check_invariants, prep_info

#: Significance level of every statistical test in this file (fixed seeds: the tests are
#: deterministic; alpha says how unlikely a correct engine is to fail one for a new seed).
ALPHA = 1e-3


@pytest.fixture(scope="module")
def book_rule(book_jsons):
    """``book_rule(name)`` -> the description of the rule in the first real book defining it."""

    def find(name: str) -> str:
        for book in book_jsons.values():
            for rule in book.get("specialRules", []):
                if rule["name"].strip() == name:
                    return rule["description"]
        raise AssertionError(f"no book defines {name!r}")

    return find


def events(result, kind=None, army=None, unit=None):
    """(game, event) pairs of the traced games, filtered."""
    for g, trace in enumerate(result.traces):
        for e in trace.events:
            if (kind is None or e["kind"] == kind) and (army is None or e["army"] == army) and (unit is None or e["unit"] == unit):
                yield g, e


def play(a, b, games=40, seed=1, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        r = oprstats.simulate(a, b, games=games, seed=seed, trace=True, progress=False, **kwargs)
    assert r.violations == 0
    return r


TARGETS = [
    Unit.parse('Rifles [10] Q4+ D5+ | 100pts\n10x Rifle (24", A1)'),
    Unit.parse('Rifles [10] Q4+ D5+ | 100pts\n10x Rifle (24", A1)'),
    Unit.parse("Brutes [3] Q4+ D4+ | 120pts | Tough(3)\n3x Claws (A3, AP(1))"),
]


# ---- Effect::Move ----------------------------------------------------------------------------


def test_lustbound_and_darkborn_add_their_inches_to_every_recorded_move(book_rule):
    cite(book_rule("Lustbound"), 'Moves +1" when using Advance, and +3" when using Rush/Charge.')
    cite(book_rule("Darkborn"), 'moves +3" when using Charge actions.')
    army = [
        Unit.parse("Daemons [5] Q4+ D5+ | 100pts | Lustbound\n5x Claws (A2, AP(1))"),
        Unit.parse('Shades [5] Q4+ D5+ | 100pts | Darkborn\n5x Pistol (12", A1), 5x Blade (A2, AP(1))'),
        Unit.parse('Rifles [10] Q4+ D5+ | 100pts\n10x Rifle (24", A1)'),
    ]
    r = play(army, TARGETS, games=30, seed=2)
    check_invariants(r, army, TARGETS)
    expected = {0: {"advance": 7, "rush": 15, "charge": 15}, 1: {"advance": 6, "rush": 12, "charge": 15},
                2: {"advance": 6, "rush": 12, "charge": 12}}
    seen = Counter()
    for _, e in events(r, army=0):
        if e["kind"] in ("advance", "rush", "charge"):
            allowed = expected[e["unit"]][e["kind"]]
            if "difficult" in e["detail"]:
                allowed = min(allowed, 6)
            assert e["allowance"] == pytest.approx(allowed), e
            seen[(e["unit"], e["kind"])] += 1
    assert seen[(0, "rush")] and seen[(0, "charge")] and seen[(1, "charge")], seen


def test_swift_units_ignore_slow(book_rule):
    cite(book_rule("Swift"), "This model may ignore the Slow rule.")
    army = [
        Unit.parse('Walkers [3] Q4+ D4+ | 150pts | Tough(3), Slow, Swift\n3x Cannon (30", A2, AP(2)), 3x Fists (A2)'),
        Unit.parse('Walkers [3] Q4+ D4+ | 150pts | Tough(3), Slow\n3x Cannon (30", A2, AP(2)), 3x Fists (A2)'),
    ]
    r = play(army, TARGETS, games=30, seed=17)
    check_invariants(r, army, TARGETS)
    expected = {0: {"advance": 6, "rush": 12, "charge": 12}, 1: {"advance": 4, "rush": 8, "charge": 8}}
    seen = Counter()
    for _, e in events(r, army=0):
        if e["kind"] in ("advance", "rush", "charge"):
            allowed = expected[e["unit"]][e["kind"]]
            if "difficult" in e["detail"]:
                allowed = min(allowed, 6)
            assert e["allowance"] == pytest.approx(allowed), e
            seen[(e["unit"], e["kind"])] += 1
    assert seen[(0, "advance")] and seen[(1, "advance")], seen


# ---- Effect::ChargePenalty -------------------------------------------------------------------


def test_melee_shrouding_takes_three_inches_from_charges_at_it(book_rule):
    cite(book_rule("Melee Shrouding"), 'Enemies get -3" movement when trying to charge units where all models have this rule.')
    chargers = [Unit.parse("Raiders [5] Q3+ D4+ | 100pts | Furious\n5x Blade (A3, AP(1))") for _ in range(4)]
    targets = [
        Unit.parse('Veils [5] Q5+ D6+ | 60pts | Melee Shrouding\n5x Pistol (12", A1)'),
        Unit.parse('Plain [5] Q5+ D6+ | 60pts\n5x Pistol (12", A1)'),
        Unit.parse('Veils [5] Q5+ D6+ | 60pts | Melee Shrouding\n5x Pistol (12", A1)'),
        Unit.parse('Plain [5] Q5+ D6+ | 60pts\n5x Pistol (12", A1)'),
    ]
    r = play(chargers, targets, games=40, seed=3)
    check_invariants(r, chargers, targets)
    reach = Counter()
    for g, trace in enumerate(r.traces):
        evs = trace.events
        for i, e in enumerate(evs):
            if e["kind"] != "charge" or e["army"] != 0:
                continue
            melee = next(x for x in evs[i + 1:] if x["kind"] == "melee")
            shrouded = targets[melee["target"]].name == "Veils"
            allowed = 9 if shrouded else 12
            if "difficult" in e["detail"]:
                allowed = min(allowed, 6)
            assert e["allowance"] == pytest.approx(allowed), (e, melee)
            assert math.dist(e["from"], e["to"]) <= allowed + 1e-6
            reach[shrouded] += 1
    assert reach[True] and reach[False], reach


# ---- Effect::RecoverOn -----------------------------------------------------------------------


def test_battleborn_units_shaken_at_the_start_of_a_round_recover_on_four_up(book_rule):
    text = book_rule("Battleborn")
    cite(text, "If a unit where all models have this rule is Shaken at the beginning of the round, roll one die. "
               "On a 4+, it stops being Shaken.")
    # many enemy units, so that some shoot after the Battleborn units have activated and
    # leave them Shaken at the end of the round
    brothers = [Unit.parse('Brothers [10] Q5+ D5+ | 50pts | Battleborn\n10x Rifle (24", A1)') for _ in range(5)]
    others = [Unit.parse('Grunts [10] Q5+ D5+ | 50pts\n10x Rifle (24", A1)') for _ in range(2)]
    guns = [Unit.parse('Guns [5] Q4+ D5+ | 60pts\n5x Rifle (24", A2)') for _ in range(12)]
    r = play(brothers + others, guns, games=100, seed=4)
    rolls, recovered = 0, 0
    for g, trace in enumerate(r.traces):
        last = max(e["round"] for e in trace.events)
        for rnd in range(1, last):
            shaken = {e["unit"] for e in trace.positions(rnd) if e["army"] == 0 and e["detail"] == "shaken"}
            recover = [e for e in trace.events if e["kind"] == "recover" and e["round"] == rnd + 1]
            # every Battleborn unit Shaken at the beginning of the round rolls, no other unit does
            assert {e["unit"] for e in recover} == {u for u in shaken if u < 5}, (g, rnd)
            for e in recover:
                face = int(e["detail"].split()[1].rstrip(":"))
                back = e["detail"].endswith("no longer Shaken")
                assert back == (face >= 4), e
                rolls += 1
                recovered += back
                # a unit no longer Shaken acts: its activation this round is not idle
                act = next((x for x in trace.events if x["round"] == rnd + 1 and x["army"] == 0 and x["unit"] == e["unit"]
                            and x["kind"] in ACTIONS), None)
                if act is None:  # destroyed before it activated
                    continue
                # (unless Shaken again by a failed test before its activation)
                between = trace.events[trace.events.index(e):trace.events.index(act)]
                again = any(x["kind"] == "morale" and (x["army"], x["unit"]) == (0, e["unit"]) and "Shaken" in x["detail"]
                            for x in between)
                assert (act["kind"] != "idle") == (back and not again), (e, act)
    assert rolls >= 100, rolls
    # 4+ on one die: 1/2 of the rolls
    assert stats.binomtest(recovered, rolls, 0.5).pvalue > ALPHA, (recovered, rolls)


# ---- Effect::Reposition ----------------------------------------------------------------------


def test_wolfborn_bounding_and_fanatic_units_are_placed_within_their_inches(book_rule):
    cite(book_rule("Wolfborn"), 'When this unit is activated, you may place all models with this rule in it anywhere fully '
                                'within 3" of their position.')
    cite(book_rule("Bounding"), 'anywhere fully within D3+1" of their position.')
    cite(book_rule("Fanatic"), 'After this model is deployed, it may be placed anywhere fully within 9" of its position.')
    army = [
        Unit.parse("Wolves [5] Q4+ D4+ | 100pts | Wolfborn\n5x Claws (A2, AP(1))"),
        Unit.parse('Hunters [5] Q4+ D4+ | 100pts | Wolfborn\n5x Rifle (24", A2)'),
        Unit.parse("Leapers [5] Q4+ D4+ | 100pts | Bounding\n5x Claws (A2, AP(1))"),
        Unit.parse("Zealot [1] Q4+ D4+ | 60pts | Fanatic, Tough(3)\nHammer (A4, AP(1))"),
    ]
    r = play(army, TARGETS, games=30, seed=5)
    check_invariants(r, army, TARGETS)
    placed = Counter()
    for g, e in events(r, "place"):
        assert e["army"] == 0
        moved = math.dist(e["from"], e["to"])
        assert moved <= e["allowance"] + 1e-6, e
        if e["unit"] in (0, 1):
            assert e["allowance"] == 3 and e["detail"] == "on activation" and e["round"] >= 1, e
        elif e["unit"] == 2:
            assert e["allowance"] in (2, 3, 4) and e["detail"] == "on activation, D3 rolled", e
        else:
            assert e["allowance"] == 9 and e["detail"] == "after deployment" and e["round"] == 0, e
        placed[e["unit"]] += 1
    assert all(placed[u] for u in range(4)), placed
    # a placement comes at the start of an activation, before its action
    for g, trace in enumerate(r.traces):
        evs = trace.events
        for i, e in enumerate(evs):
            if e["kind"] == "place" and e["round"] >= 1:
                nxt = next(x for x in evs[i + 1:] if x["army"] == 0 and x["unit"] == e["unit"])
                assert nxt["kind"] in ACTIONS and nxt["kind"] != "idle" and tuple(nxt["from"]) == tuple(e["to"]), (e, nxt)


# ---- Effect::Ambush --------------------------------------------------------------------------


def test_ambush_variants_arrive_where_and_when_their_texts_say(book_rule):
    cite(book_rule("Infiltrate"), 'Counts as having Ambush, but may be deployed up to 1" away from enemy units.')
    cite(book_rule("Rapid Ambush"), "Counts as having Ambush, but may be deployed at the start of any round, including the first.")
    cite(book_rule("Surprise Piercing Shot"), "Counts as having Ambush, and gets AP(+2) when shooting on the round in which it "
                                              "deploys via this rule.")
    army = [
        Unit.parse("Infiltrators [5] Q4+ D4+ | 100pts | Infiltrate\n5x Blade (A2, AP(1))"),
        Unit.parse("Raiders [5] Q4+ D4+ | 100pts | Rapid Ambush\n5x Blade (A2, AP(1))"),
        Unit.parse("Stalkers [5] Q4+ D4+ | 100pts | Ambush\n5x Blade (A2, AP(1))"),
        Unit.parse('Snipers [5] Q3+ D4+ | 100pts | Surprise Piercing Shot\n5x Rifle (24", A2)'),
    ]
    # Defense 2+: a hit wounds on a 1 only (1/6), with AP(2) on a 1-3 (1/2)
    knights = [Unit.parse('Knights [5] Q4+ D2+ | 100pts\n5x Rifle (24", A1)') for _ in range(3)]
    r = play(army, knights, games=100, seed=12)
    check_invariants(r, army, knights)
    first_round = {0: 2, 1: 1, 2: 2, 3: 2}
    closest = defaultdict(list)
    shots = {True: [0, 0], False: [0, 0]}
    for g, trace in enumerate(r.traces):
        arrived = {}
        for e in trace.events:
            if e["kind"] in ("deploy", "scout"):
                assert e["army"] == 1, e  # every unit of army 0 waits in reserve
            if e["kind"] != "ambush":
                continue
            u, rnd = e["unit"], e["round"]
            assert rnd >= first_round[u], e
            arrived[u] = rnd
            # enemy units stand where the last round (or the deployment) left them
            # (from the closest models: "When measuring the distance between two units you
            # always measure from/to the closest model in each unit")
            gaps = [math.dist((x, y), (ex, ey)) - r - er
                    for p in trace.positions(rnd - 1) if p["army"] == 1 and p["detail"] != "gone"
                    for x, y, r in p["models"] for ex, ey, er in e["models"]]
            gap = min(gaps)
            if u == 0:
                assert gap >= 1 - 1e-6, e
            else:
                assert gap > 9, e
            closest[u].append(gap)
        for e in trace.events:
            if e["kind"] == "shoot" and e["army"] == 0 and e["unit"] == 3:
                on_arrival = arrived.get(3) == e["round"]
                shots[on_arrival][0] += e["hits"]
                shots[on_arrival][1] += e["wounds"]
    assert all(closest[u] for u in range(4)), closest
    # Rapid Ambush arrives in the first round; Infiltrators may come closer than 9"
    assert any(e["round"] == 1 for _, e in events(r, "ambush", army=0, unit=1))
    assert min(closest[0]) < 9, closest[0]
    (hits_on, wounds_on), (hits_later, wounds_later) = shots[True], shots[False]
    assert hits_on >= 100 and hits_later >= 100, shots
    # cover can add +1 to Defense: 1/3 wound with AP(2) in cover, 1/6 at most without AP
    assert stats.binomtest(wounds_on, hits_on, 1 / 3, alternative="less").pvalue > ALPHA, shots
    assert stats.binomtest(wounds_later, hits_later, 1 / 6, alternative="greater").pvalue > ALPHA, shots


def test_surprise_attacks_roll_their_dice_on_arrival_and_hit_units_within_three_inches(book_rule):
    cite(book_rule("Surprise Attack"), 'Counts as having Infiltrate. Once deployed via this rule, roll X dice, for each 4+ one '
                                       'enemy unit within 3" takes 2 hits with AP(1).')
    army = [Unit.parse("Ambushers [5] Q4+ D4+ | 120pts | Surprise Attack(6)\n5x Blade (A2, AP(1))") for _ in range(3)]
    rifles = [Unit.parse('Rifles [10] Q4+ D5+ | 100pts\n10x Rifle (24", A1)') for _ in range(4)]
    r = play(army, rifles, games=60, seed=15)
    check_invariants(r, army, rifles)
    info, _ = prep_info(army, rifles)
    hits, wounds, rolled, fours = 0, 0, 0, 0
    for g, trace in enumerate(r.traces):
        evs = trace.events
        for i, e in enumerate(evs):
            if e["kind"] != "surprise":
                continue
            # right after the unit arrives, X dice, the 4+ counted
            assert evs[i - 1]["kind"] == "ambush" and evs[i - 1]["unit"] == e["unit"], (e, evs[i - 1])
            faces = [int(f) for f in e["detail"].split()[1:]]
            assert e["dice"] == len(faces) == 6 and e["hits"] == sum(f >= 4 for f in faces), e
            rolled += len(faces)
            fours += e["hits"]
            following = []
            for x in evs[i + 1:]:
                if x["kind"] != "surprise-hits":
                    break
                following.append(x)
            assert len(following) <= e["hits"], (e, following)
            for x in following:
                assert x["unit"] == e["unit"] and x["target_army"] == 1 and x["hits"] == 2, x
                gap = math.dist(x["from"], x["to"]) - info[0][e["unit"]][3] - info[1][x["target"]][3]
                assert gap <= 3 + 1e-6, x
                hits += x["hits"]
                wounds += x["wounds"]
    assert rolled >= 300 and hits >= 100, (rolled, hits)
    assert stats.binomtest(fours, rolled, 1 / 2).pvalue > ALPHA, (fours, rolled)
    # AP(1) against Defense 5+: blocked on a 6 only
    assert stats.binomtest(wounds, hits, 5 / 6).pvalue > ALPHA, (wounds, hits)


# ---- Effect::Buff ----------------------------------------------------------------------------


def test_buffs_go_to_a_friendly_unit_within_twelve_inches_and_act_once(book_rule):
    for name, gets in [("Stealth Buff", "Stealth"), ("Regeneration Buff", "Regeneration"), ("Guarded Buff", "Guarded"),
                       ("Self-Repair Boost Buff", "Self-Repair Boost"), ("Entrenched Buff", "Entrenched")]:
        cite(book_rule(name), f'Once per activation, before attacking, pick one friendly unit within 12", which gets {gets} '
                              "once (next time the effect would apply).")
    cite(book_rule("Courage Buff"), 'pick one friendly unit within 12", which gets +1 to morale test rolls once')
    army = [
        Unit.parse('Shaman [1] Q4+ D4+ | 60pts | Hero, Stealth Buff, Tough(3)\nPistol (12", A1)'),
        Unit.parse('Rifles [10] Q4+ D5+ | 100pts | Regeneration Buff\n10x Rifle (24", A1)'),
        Unit.parse('Rifles [10] Q4+ D5+ | 100pts | Courage Buff\n10x Rifle (24", A1)'),
        Unit.parse('Bots [5] Q4+ D4+ | 100pts | Self-Repair, Self-Repair Boost Buff\n5x Rifle (24", A1)'),
        Unit.parse('Rifles [10] Q4+ D5+ | 100pts | Guarded Buff\n10x Rifle (24", A1)'),
    ]
    gives = {0: "Stealth", 1: "Regeneration", 2: "Courage Aura", 3: "Self-Repair Boost", 4: "Guarded"}
    enemies = [Unit.parse('Guns [5] Q4+ D5+ | 100pts\n5x Rifle (24", A2)') for _ in range(4)]
    enemies.append(Unit.parse("Brutes [3] Q4+ D4+ | 120pts | Tough(3)\n3x Claws (A3, AP(1))"))
    r = play(army, enemies, games=100, seed=13)
    check_invariants(r, army, enemies)
    info, _ = prep_info(army, enemies)
    used = Counter()
    stealthy = [0, 0]  # dice, hits of the shots at a unit with Stealth from the buff
    for g, trace in enumerate(r.traces):
        evs = trace.events
        holding = {}
        for i, e in enumerate(evs):
            if e["kind"] == "buff":
                giver, to = e["unit"], e["target"]
                assert e["army"] == 0 and e["target_army"] == 0 and e["detail"] == gives[giver], e
                # within 12" (edge to edge), the unit itself included
                assert math.dist(e["from"], e["to"]) - info[0][giver][3] - info[0][to][3] <= 12 + 1e-6, e
                # "before attacking": the giver's next event is its action
                nxt = next(x for x in evs[i + 1:] if (x["army"], x["unit"]) == (0, giver) and x["kind"] not in ("buff-used",))
                assert nxt["kind"] in ACTIONS, (e, nxt)
                # Self-Repair Boost only to units with Self-Repair; no unit holds two buffs
                assert e["detail"] != "Self-Repair Boost" or to == 3, e
                assert to not in holding, (g, e)
                holding[to] = e["detail"]
            elif e["kind"] == "buff-used":
                rule, on = e["detail"].split(": ")
                # a buff is used once, on what it acts on
                assert holding.pop(e["unit"]) == rule, (g, e)
                used[(rule, on)] += 1
                nxt = evs[i + 1]
                if on == "shot":
                    assert nxt["kind"] == "shoot" and (nxt["target_army"], nxt["target"]) == (0, e["unit"]), (e, nxt)
                    assert rule != "Courage Aura", e
                    if rule == "Stealth":
                        stealthy[0] += nxt["dice"]
                        stealthy[1] += nxt["hits"]
                elif on == "morale test":
                    assert rule == "Courage Aura", e
                    assert nxt["kind"] in ("morale", "melee") and 0 in (nxt["army"], nxt["target_army"]), (e, nxt)
                else:
                    assert nxt["kind"] == "melee" and rule != "Stealth", (e, nxt)
    for rule in ("Stealth", "Regeneration", "Guarded", "Self-Repair Boost"):
        assert used[(rule, "shot")] > 0, used
    assert used[("Courage Aura", "morale test")] > 0, used
    # "Stealth: Enemies get -1 to hit rolls when shooting at units where all models have this
    # rule": Guns at Quality 4+ hit on 5+ (1/3) at a unit holding the buff
    assert stealthy[0] >= 150, stealthy
    assert stats.binomtest(stealthy[1], stealthy[0], 1 / 3).pvalue > ALPHA, stealthy


# ---- Effect::OnlyMovingThrough ---------------------------------------------------------------


def test_strafing_weapons_attack_only_a_unit_the_move_crossed(book_rule):
    cite(book_rule("Strafing"), "Once per activation, when this model moves through enemy units, pick one of them and "
                                "attack it with this weapon as if it was shooting. This weapon may only be used in this way.")
    jet = Unit.parse('Jet [1] Q4+ D3+ | 200pts | Aircraft, Tough(6)\n'
                     'Strafing Guns (24", A6, AP(1), Strafing), Missiles (24", A2, AP(2))')
    missiles = Unit.parse('Jet [1] Q4+ D3+ | 200pts | Aircraft, Tough(6)\nMissiles (24", A2, AP(2))')
    rifles = Unit.parse('Rifles [10] Q4+ D5+ | 100pts\n10x Rifle (24", A1)')
    # never a shooting, nor a melee: attack() rolls the Missiles only
    assert oprstats.attack(jet, rifles, distance=12).wounds.mean() == pytest.approx(oprstats.attack(missiles, rifles, distance=12).wounds.mean())
    r = play([jet], [rifles, rifles], games=60, seed=14, terrain="open", policy_b="hold", objectives=[(36, 10)],
             deployment=([(4, 24)], [(30, 24), (50, 30)]))
    info, _ = prep_info([jet], [rifles, rifles])
    dice, hits = 0, 0
    for g, trace in enumerate(r.traces):
        evs = trace.events
        for i, e in enumerate(evs):
            if e["kind"] == "shoot":
                assert "Strafing" not in e["detail"], e
            if e["kind"] != "strafe":
                continue
            assert e["detail"] == 'Strafing Guns (24", A6, AP(1), Strafing)', e
            # right after the jet's move, which passed over the unit it attacks
            move = evs[i - 1]
            assert move["kind"] == "advance" and (move["army"], move["unit"]) == (0, 0), (e, move)
            (ax, ay), (bx, by), (px, py) = move["from"], move["to"], e["to"]
            t = max(0.0, min(1.0, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)))
            crossed = math.dist((px, py), (ax + t * (bx - ax), ay + t * (by - ay)))
            assert crossed < info[0][0][3] + info[1][e["target"]][3], (e, move)
            # once per activation
            assert not any(x["kind"] == "strafe" for x in evs[i + 1:] if x["round"] == e["round"]), e
            dice += e["dice"]
            hits += e["hits"]
    assert dice >= 200, dice
    # "as if it was shooting": Quality 4+
    assert stats.binomtest(hits, dice, 1 / 2).pvalue > ALPHA, (hits, dice)


def test_buffs_for_moves_and_recovery_act_on_the_next_move_or_recovery(book_rule):
    cite(book_rule("Speed Buff"), 'pick one friendly unit within 12", which moves +2" when using Advance actions and +4" '
                                  "when using Rush/Charge actions once (next time the effect would apply).")
    cite(book_rule("Rapid Advance Buff"), 'pick one friendly unit within 12", which gets Rapid Advance once')
    cite(book_rule("Rapid Advance"), 'This model moves +4" when using Advance actions.')
    cite(book_rule("Steadfast Buff"), 'pick one friendly unit within 12", which gets Steadfast once')
    cite(book_rule("Swift Buff"), 'pick one friendly unit within 12", which gets Swift once')
    army = [
        Unit.parse("Raiders [5] Q3+ D4+ | 100pts | Furious, Speed Buff\n5x Blade (A3, AP(1))"),
        Unit.parse("Raiders [5] Q3+ D4+ | 100pts | Furious, Rapid Advance Buff\n5x Blade (A3, AP(1))"),
        Unit.parse('Grunts [10] Q5+ D5+ | 50pts | Steadfast Buff\n10x Rifle (24", A1)'),
        Unit.parse('Grunts [10] Q5+ D5+ | 50pts\n10x Rifle (24", A1)'),
        # Swift only changes a Slow unit: the buff goes to it
        Unit.parse('Walkers [3] Q4+ D4+ | 150pts | Tough(3), Slow, Swift Buff\n3x Cannon (30", A2, AP(2)), 3x Fists (A2)'),
    ]
    guns = [Unit.parse('Guns [5] Q4+ D5+ | 60pts\n5x Rifle (24", A2)') for _ in range(6)]
    r = play(army, guns, games=100, seed=16)
    base = {"advance": 6, "rush": 12, "charge": 12}
    slow = {"advance": 4, "rush": 8, "charge": 8}
    bonus = {"Speed Boost": {"advance": 2, "rush": 4, "charge": 4}, "Rapid Advance": {"advance": 4, "rush": 0, "charge": 0},
             "Swift": {"advance": 2, "rush": 4, "charge": 4}}
    used = Counter()
    for g, trace in enumerate(r.traces):
        evs = trace.events
        holding = {}
        for i, e in enumerate(evs):
            if e["kind"] == "buff":
                holding[e["target"]] = e["detail"]
            if e["kind"] == "buff-used" and e["army"] == 0:
                rule, on = e["detail"].split(": ")
                assert holding.pop(e["unit"]) == rule, e
                used[(rule, on)] += 1
                if on == "recovery":
                    # the unit was Shaken at the start of the round, and rolls for Steadfast
                    nxt = evs[i + 1]
                    assert rule == "Steadfast" and nxt["kind"] == "recover" and nxt["unit"] == e["unit"], (e, nxt)
            if e["kind"] in base and e["army"] == 0:
                # (after the dangerous terrain test the move may call for)
                nxt = next((x for x in evs[i + 1:] if x["kind"] != "dangerous"), {})
                spent = nxt.get("kind") == "buff-used" and nxt["unit"] == e["unit"]
                if spent:
                    rule, on = nxt["detail"].split(": ")
                    assert on == e["kind"], (e, nxt)
                    allowed = (slow if e["unit"] == 4 else base)[e["kind"]] + bonus[rule][e["kind"]]
                else:
                    # a unit holding a buff that adds nothing to this kind of move keeps it
                    held = holding.get(e["unit"])
                    assert held is None or held not in bonus or bonus[held][e["kind"]] == 0, (e, held)
                    allowed = (slow if e["unit"] == 4 else base)[e["kind"]]
                if "difficult" in e["detail"]:
                    allowed = min(allowed, 6)
                assert e["allowance"] == pytest.approx(allowed), (e, nxt)
                assert math.dist(e["from"], e["to"]) <= allowed + 1e-6
            if e["kind"] == "recover":
                # no unit of army 0 has a recovery of its own
                prev = evs[i - 1]
                assert prev["kind"] == "buff-used" and prev["detail"] == "Steadfast: recovery" and prev["unit"] == e["unit"], (e, prev)
    assert used[("Rapid Advance", "advance")] > 0 and used[("Steadfast", "recovery")] > 0, used
    assert sum(used[("Speed Boost", k)] for k in base) > 0 and sum(used[("Swift", k)] for k in base) > 0, used


# ---- Effect::MoveAfterAttack -----------------------------------------------------------------


def test_harassing_units_move_at_most_three_inches_after_shooting_once_per_round(book_rule):
    cite(book_rule("Harassing"), 'Once per round, units where all models have this rule may move by up to 3" after shooting '
                                 "or being in melee.")
    army = [Unit.parse('Skirmishers [5] Q4+ D5+ | 80pts | Harassing\n5x Carbine (18", A2)') for _ in range(3)]
    foes = [Unit.parse("Brutes [3] Q4+ D4+ | 120pts | Tough(3), Fast\n3x Claws (A3, AP(1))") for _ in range(3)]
    r = play(army, foes, games=40, seed=6)
    check_invariants(r, army, foes)
    per_round = Counter()
    after = Counter()
    for g, trace in enumerate(r.traces):
        evs = trace.events
        for i, e in enumerate(evs):
            if e["kind"] != "hit-and-run":
                continue
            assert e["army"] == 0
            assert math.dist(e["from"], e["to"]) <= e["allowance"] + 1e-6 and e["allowance"] <= 3, e
            per_round[(g, e["round"], e["unit"])] += 1
            # what came just before, for this unit: its shooting, or a melee it was in
            prev = next(x for x in reversed(evs[:i]) if (x["army"], x["unit"]) == (0, e["unit"])
                        or (x["kind"] == "melee" and (x["target_army"], x["target"]) == (0, e["unit"])))
            if e["detail"].startswith("after shooting"):
                assert prev["kind"] == "shoot", (e, prev)
            else:
                assert e["detail"].startswith("after melee") and prev["kind"] in ("melee", "consolidate"), (e, prev)
            after[e["detail"].split(",")[0]] += 1
    assert per_round and max(per_round.values()) == 1, "once per round"
    assert after["after shooting"], after


# ---- Effect::ExtraActivation -----------------------------------------------------------------


def test_inquisitorial_agents_activate_twice_once_per_game_and_half_of_them_per_round(book_rule):
    text = book_rule("Inquisitorial Agent")
    cite(text, "Once per game, if all models in this unit have this rule, it may be activated even if it had already "
               "activated this round (stops being fatigued when activated for the second time).")
    cite(text, "Only up to half of the units in the army with this rule at the beginning of the game (rounding up) may "
               "use it in a single round.")
    agent = Unit.parse('Agents [3] Q3+ D4+ | 90pts | Inquisitorial Agent\n3x Plasma Rifle (24", A2, AP(2))')
    army = [agent, agent, agent, Unit.parse('Rifles [10] Q4+ D5+ | 100pts\n10x Rifle (24", A1)')]
    r = play(army, TARGETS, games=40, seed=7)
    check_invariants(r, army, TARGETS)
    used = 0
    for g, trace in enumerate(r.traces):
        again = [e for e in trace.events if e["kind"] == "activate-again"]
        assert all(e["army"] == 0 and e["unit"] < 3 for e in again)
        per_unit = Counter(e["unit"] for e in again)
        assert max(per_unit.values(), default=0) <= 1, "once per game"
        per_round = Counter(e["round"] for e in again)
        assert max(per_round.values(), default=0) <= math.ceil(3 / 2), "half of the 3 units, rounded up"
        activations = Counter((e["round"], e["army"], e["unit"]) for e in trace.events if e["kind"] in ACTIONS)
        for (rnd, army_i, unit), n in activations.items():
            twice = any(e["round"] == rnd and e["unit"] == unit for e in again) and army_i == 0
            assert n == (2 if twice else 1), (g, rnd, army_i, unit, n)
        used += len(again)
    assert used > 0


# ---- Rules with options ----------------------------------------------------------------------


def test_versatile_attack_shots_pick_ap_or_hit_and_unpredictable_shots_roll_them(book_rule):
    cite(book_rule("Versatile Attack"), "When this unit is activated, pick one effect: until the end of the activation all "
                                        "models with this rule in it either get AP(+1) when attacking, or get +1 to hit "
                                        "rolls when attacking.")
    cite(book_rule("Unpredictable Shooter"), "When shooting, roll one die and apply one effect to all models with this rule: "
                                             "on a 1-3 they get AP(+1), and on a 4-6 they get +1 to hit rolls instead.")
    army = [
        Unit.parse('Veterans [5] Q4+ D4+ | 100pts | Versatile Attack\n5x Rifle (24", A2)'),
        Unit.parse('Wild Guns [5] Q4+ D4+ | 100pts | Unpredictable Shooter\n5x Rifle (24", A2)'),
    ]
    r = play(army, TARGETS, games=100, seed=8, policy_a="hold")
    picks = Counter()
    for _, e in events(r, "shoot", army=0):
        label = e["detail"].split("[")[-1].rstrip("]")
        if e["unit"] == 0:
            assert label in ("Versatile Attack: AP(+1)", "Versatile Attack: +1 to hit"), e
        else:
            assert label in ("Unpredictable Shooter: AP(+1)", "Unpredictable Shooter: +1 to hit"), e
        picks[(e["unit"], label.split(": ")[1])] += 1
    rolled = picks[(1, "AP(+1)")], picks[(1, "+1 to hit")]
    assert sum(rolled) >= 50
    assert stats.binomtest(rolled[0], sum(rolled), 0.5).pvalue > ALPHA, rolled
    assert picks[(0, "AP(+1)")] + picks[(0, "+1 to hit")] > 0


def test_unpredictable_fighters_roll_their_option_in_melee(book_rule):
    cite(book_rule("Unpredictable Fighter"), "on a 1-3 they get AP(+1), and on a 4-6 they get +1 to hit rolls instead.")
    army = [Unit.parse("Frenzied [5] Q3+ D4+ | 100pts | Unpredictable Fighter, Fast\n5x Claws (A3, AP(1))") for _ in range(3)]
    foes = [Unit.parse('Plain [5] Q5+ D6+ | 60pts\n5x Pistol (12", A1)') for _ in range(4)]
    r = play(army, foes, games=60, seed=9)
    options = Counter()
    for _, e in events(r, "melee", army=0):
        assert "[charger Unpredictable Fighter: " in e["detail"], e
        options[e["detail"].split("Unpredictable Fighter: ")[1].rstrip("]")] += 1
    assert set(options) <= {"AP(+1)", "+1 to hit"}
    assert sum(options.values()) >= 30
    assert stats.binomtest(options["AP(+1)"], sum(options.values()), 0.5).pvalue > ALPHA, options


# ---- Unmodelled rules ------------------------------------------------------------------------


def test_unmodelled_rules_are_reported_with_their_share_of_points_and_one_warning():
    healer = Unit.parse('Medic [1] Q4+ D4+ | 50pts | Hero, Mend\nPistol (12", A1)')
    rifles = Unit.parse('Rifles [10] Q4+ D5+ | 150pts\n10x Rifle (24", A1)')
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = oprstats.simulate([healer, rifles], [rifles], games=20, seed=1, progress=False)
    ours = [w for w in caught if issubclass(w.category, UserWarning) and "does not model" in str(w.message)]
    assert len(ours) == 1, [str(w.message) for w in caught]
    assert "Mend (A 25%, B 0%)" in str(ours[0].message)
    assert r.unmodelled == {"Mend": pytest.approx((0.25, 0.0))}
    assert "Hero" not in r.unmodelled
    assert "unmodelled: Mend (A 25%, B 0%)" in repr(r)
    # nothing to report: no warning
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        clean = oprstats.simulate([rifles], [rifles], games=5, seed=1, progress=False)
    assert clean.unmodelled == {} and "unmodelled" not in repr(clean)


def test_real_casters_report_the_spells_they_do_not_cast(book_paths):
    book = oprstats.load_army_book(next(p for p in book_paths if "battle-brothers" in p.name))
    # High Elf Fleets: its Creator of Illusions gives Unwieldy, which no engine plays
    hives = oprstats.load_army_book(next(p for p in book_paths if "high-elf-fleets" in p.name))
    units = [u for u in book.units if u.cost]
    transport = next(u for u in units if any(n.startswith("Transport") for m in u.models for n in m.rules))
    caster = next(u for u in hives.units if u.cost and any(n.startswith("Caster(") for m in u.models for n in m.rules))
    plain = Unit.parse('Rifles [10] Q4+ D5+ | 150pts\n10x Rifle (24", A1)')
    with pytest.warns(UserWarning, match="does not model") as record:
        r = oprstats.simulate([transport, caster, plain], [plain], games=5, seed=1, progress=False)
    assert len([w for w in record if "does not model" in str(w.message)]) == 1
    total = transport.cost + caster.cost + plain.cost
    # transports are played (tests/test_game_transport.py)
    assert "Transport" not in r.unmodelled
    # the caster casts its book's spells; each spell it does not cast is reported
    assert "Caster" not in r.unmodelled
    assert any(not s.played for s in hives.spells.values())
    for name, spell in hives.spells.items():
        if spell.kind == "hits":
            assert f"spell {name}" not in r.unmodelled
        elif not spell.played:
            assert r.unmodelled[f"spell {name}"][0] == pytest.approx(caster.cost / total)
        # (a lasting spell the game plays is cast where a unit gains from it, else reported)
    # a caster typed in notation has no book, so no spells: that is reported too
    seer = Unit.parse("Seer [1] Q4+ D4+ | 100pts | Hero, Tough(3), Caster(2)\nStaff (A2)")
    with pytest.warns(UserWarning, match="no spells"):
        r = oprstats.simulate([seer], [plain], games=2, seed=1, progress=False)
    assert r.unmodelled == {"Caster (no spells: not read from its book)": (1.0, 0.0)}


# ---- Reproducibility -------------------------------------------------------------------------


def test_games_with_every_primitive_are_reproducible_whatever_the_threads():
    army = [
        Unit.parse("Daemons [5] Q4+ D5+ | 100pts | Lustbound, Unpredictable Fighter\n5x Claws (A2, AP(1))"),
        Unit.parse('Veils [5] Q4+ D5+ | 90pts | Melee Shrouding, Battleborn\n5x Rifle (24", A1)'),
        Unit.parse("Wolves [5] Q4+ D4+ | 100pts | Wolfborn, Hit & Run\n5x Claws (A2, AP(1))"),
        Unit.parse('Agents [3] Q3+ D4+ | 90pts | Inquisitorial Agent, Versatile Attack\n3x Rifle (24", A2)'),
        Unit.parse("Zealot [1] Q4+ D4+ | 60pts | Fanatic, Tough(3), Bounding\nHammer (A4, AP(1))"),
        Unit.parse('Seers [3] Q4+ D4+ | 90pts | Infiltrate, Stealth Buff, Surprise Piercing Shot\n3x Rifle (24", A2)'),
        Unit.parse('Rifles [5] Q4+ D5+ | 60pts | Rapid Ambush, Courage Buff, Regeneration Buff\n5x Rifle (24", A1)'),
        Unit.parse('Jet [1] Q4+ D3+ | 150pts | Aircraft, Tough(6)\nStrafing Guns (24", A6, AP(1), Strafing)'),
    ]
    runs = []
    for threads in (1, 2):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            runs.append(oprstats.simulate(army, army[::-1], games=300, seed=12, threads=threads, progress=False))
    a, b = runs
    for field in ("winner", "first", "objectives", "models_left", "points_left"):
        assert (getattr(a, field) == getattr(b, field)).all(), field
    assert a.violations == 0
    traced = play(army, army[::-1], games=40, seed=12)
    check_invariants(traced, army, army[::-1])
    # each thread of a kept pool keeps its caches (shot plans, distances, the policy's
    # valuations, melees' plans) from call to call: a run played on warm caches (the second,
    # on a pool of a size no other test uses) equals the same run on cold ones
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        cold, warm = (oprstats.simulate(army, army[::-1], games=300, seed=12, threads=3, progress=False) for _ in range(2))
    for field in ("winner", "first", "objectives", "models_left", "points_left"):
        assert (getattr(cold, field) == getattr(warm, field)).all(), field
        assert (getattr(cold, field) == getattr(a, field)).all(), field
    kinds = Counter(e["kind"] for _, e in events(traced))
    for kind in ("place", "hit-and-run", "recover", "activate-again", "ambush", "buff", "buff-used"):
        assert kinds[kind] > 0, kinds
