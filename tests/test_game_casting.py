"""Casters and their books' spells in full games (gf-3.5 "Caster(X)"), on traced games of real
army books: tokens per round and their cap, the casting roll with helpers and hinderers, one
try per spell, a damage spell's casualties against ``attack()`` with the same spell, and real
armies with casters from several books playing within the rules."""

from __future__ import annotations

import math
import re
import warnings
from collections import Counter, defaultdict

import numpy as np
import pytest
from scipy import stats

import oprstats
from oprstats import Unit

from .conftest import cite
from .test_game import check_invariants
from .test_game_army_rules import play

#: Significance level of the statistical tests (fixed seeds: deterministic).
ALPHA = 1e-3
GUIDE = "gf-3.5-beginners-guide.txt"
ROLLED = re.compile(r"^(?P<spell>.+): rolled (?P<roll>\d)(?P<mod>[+-]\d+): (?P<result>cast|failed)$")


@pytest.fixture(scope="module")
def books(book_paths):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {p.name.split("_")[0]: oprstats.load_army_book(p) for p in book_paths if "common" not in p.name}


def unit(book, name):
    return next(u for u in book.units if u.name == name)


def caster_army(book, size=6):
    """Every unit of the book with a caster among its models, then its cheapest others."""
    def casts(u):
        return any(r.startswith(("Caster(", "Caster Group")) for m in u.models for r in m.rules)
    casters = [u for u in book.units if u.cost and casts(u)][:3]
    others = sorted((u for u in book.units if u.cost and not casts(u)), key=lambda u: u.cost)
    return casters + others[: size - len(casters)]


def token_ledger(trace, armies):
    """Replays every token event of a traced game, checking each against the one before: what
    each caster holds after each event, by (army, unit)."""
    held = defaultdict(int)
    for e in trace.events:
        who = (e["army"], e["unit"])
        if e["kind"] == "tokens":
            # "Gets X spell tokens at the start of each round, but can't hold more than 6"
            assert e["models_left"] <= 6 * max(1, casters_in(armies[e["army"]][e["unit"]]))
            unit = armies[e["army"]][e["unit"]]
            expected = min(held[who] + e["hits"], 6 * casters_in(unit))
            if "Caster Group" in str(unit):
                # "The caster loses all unspent spell tokens at the end of the round": a group
                # alone starts each round afresh; a Caster hero joined to it keeps its own
                # (the split is checked in the Rust tests), so the unit holds between the two
                if casters_in(unit) == 1:
                    expected = min(e["hits"], 6)
                else:
                    assert min(e["hits"], 6) <= e["models_left"] <= expected, e
                    expected = e["models_left"]
            assert e["models_left"] == expected, e
            held[who] = e["models_left"]
        elif e["kind"] in ("cast", "help", "hinder"):
            # a spell's value (or the tokens given) comes out of what the unit holds
            assert e["models_left"] == held[who] - e["hits"], e
            held[who] = e["models_left"]
    return held


def casters_in(u):
    n = sum(1 for m in u.models if any(r.startswith("Caster(") for r in m.rules))
    return n + (1 if any("Caster Group" in m.rules for m in u.models) else 0)


def test_tokens_each_round_up_to_six_and_spent_on_each_try(books, rulebook):
    cite(rulebook(GUIDE), "Gets X spell tokens at the start of each round, but can't hold more than 6 tokens at once.")
    cite(rulebook(GUIDE), "spend as many tokens as the spell's value to try casting one or more spells (only one try per spell)")
    a, b = caster_army(books["alien-hives"]), caster_army(books["eternal-dynasty"])
    r = play(a, b, games=30, seed=3)
    check_invariants(r, a, b)
    gets = Counter()
    for g, trace in enumerate(r.traces):
        token_ledger(trace, (a, b))
        tries, acting = Counter(), None
        for e in trace.events:
            if e["kind"] == "tokens":
                gets[(e["army"], e["unit"], e["hits"])] += 1
            # only one try per spell per activation: casts before and after a move are one
            # activation, which ends where another unit acts (or the same one again)
            who = (e["army"], e["unit"])
            if e["kind"] in ("tokens", "activate-again") or (e["kind"] in ("advance", "rush", "hold", "charge", "idle", "inside", "cast") and who != acting):
                tries.clear()
                acting = who if e["kind"] != "tokens" else None
            if e["kind"] == "cast":
                spell = ROLLED.match(e["detail"])["spell"]
                tries[spell] += 1
                assert tries[spell] == 1, (g, e)
    # every caster gets its X each round it lives: Synapse Tyrant Caster(3), Nisuv Caster(2)
    tyrant = a.index(unit(books["alien-hives"], "Synapse Tyrant"))
    assert gets[(0, tyrant, 3)] > 0 and all(x == 3 for (army, u, x) in gets if (army, u) == (0, tyrant))


def test_the_casting_roll_succeeds_on_four_up_with_the_tokens_spent_for_and_against(books, rulebook):
    text = rulebook(GUIDE)
    cite(text, "Roll one die, on 4+ resolve the effect on a target in line of sight.")
    cite(text, "Models within 18\" in line of sight of the caster's unit may spend any number of spell tokens at the same time before rolling, to give the caster +1/-1 to the roll per token.")
    cite(text, "a roll of 6 always counts as a success and a roll of 1 always counts as a fail")
    # casters on both sides, so that both help and hinder happen
    a, b = caster_army(books["alien-hives"]), caster_army(books["robot-legions"])
    r = play(a, b, games=60, seed=5)
    faces = Counter()
    helped = Counter()
    for trace in r.traces:
        pending = 0
        for e in trace.events:
            if e["kind"] in ("help", "hinder"):
                # friends help, enemies hinder
                assert (e["army"] == e["target_army"]) == (e["kind"] == "help"), e
                pending += e["hits"] if e["kind"] == "help" else -e["hits"]
                helped[e["kind"]] += 1
            elif e["kind"] == "cast":
                m = ROLLED.match(e["detail"])
                roll, mod = int(m["roll"]), int(m["mod"])
                assert mod == pending == e["allowance"], e
                assert (m["result"] == "cast") == (roll == 6 or (roll != 1 and roll + mod >= 4)), e
                faces[roll] += 1
                pending = 0
    assert helped["help"] > 0 and helped["hinder"] > 0, helped
    # the die is fair: chi-square on its faces
    obs = np.array([faces[f] for f in range(1, 7)])
    assert obs.sum() > 300
    assert stats.chisquare(obs).pvalue > ALPHA


def test_a_damage_spell_in_a_game_rolls_as_attack_rolls_it(books):
    """The first spell cast at a fresh target: its wounds against ``attack(spell, target)``'s
    exact distribution (chi-square, cells of at least 5 expected)."""
    hives = books["alien-hives"]
    tyrant = unit(hives, "Synapse Tyrant")
    target = Unit.parse('Rifles [10] Q4+ D4+ | 100pts\n10x Rifle (24", A1)')
    # traces are kept for at most 100 games: play the scenario in runs of 100
    firsts = defaultdict(list)
    for seed in range(15):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            r = oprstats.simulate([tyrant], [target], games=100, seed=seed, trace=True, progress=False, terrain="open",
                                  rounds=1, first="a", deployment=([(36, 10)], [(36, 22)]), policy_b="hold")
        for trace in r.traces:
            hit = next((e for e in trace.events if e["kind"] == "spell-hits"), None)
            if hit is not None:
                firsts[hit["detail"]].append(hit["wounds"])
    name, wounds = max(firsts.items(), key=lambda kv: len(kv[1]))
    assert len(wounds) >= 300, {k: len(v) for k, v in firsts.items()}
    exact = oprstats.attack(hives.spells[name], target).wounds.pmf
    obs = np.bincount(wounds, minlength=len(exact))[: len(exact)].astype(float)
    exp = exact * len(wounds)
    keep = exp >= 5
    assert stats.chisquare(obs[keep], exp[keep] * obs[keep].sum() / exp[keep].sum()).pvalue > ALPHA


def test_real_armies_with_casters_from_five_books_play_within_the_rules(books):
    names = ["alien-hives", "eternal-dynasty", "high-elf-fleets", "robot-legions", "saurian-starhost", "human-inquisition"]
    armies = [caster_army(books[n]) for n in names]
    cast = 0
    for i in range(0, len(armies), 2):
        a, b = armies[i], armies[i + 1]
        r = play(a, b, games=10, seed=i)
        check_invariants(r, a, b)
        for trace in r.traces:
            token_ledger(trace, (a, b))
            cast += sum(1 for e in trace.events if e["kind"] == "spell-hits")
        # a caster's spells are its book's: no spell of another book is ever cast
        for trace in r.traces:
            for e in trace.events:
                if e["kind"] == "cast":
                    spell = ROLLED.match(e["detail"])["spell"]
                    assert spell in books[names[i + e["army"]]].spells, e
    assert cast > 0


def test_spells_travel_with_their_units(books):
    """A book's unit keeps its spells when joined, put in an Army or pickled."""
    import pickle

    hives = books["alien-hives"]
    tyrant = unit(hives, "Synapse Tyrant")
    back = pickle.loads(pickle.dumps(tyrant))
    army = oprstats.Army([tyrant])
    target = Unit.parse('Rifles [10] Q4+ D4+ | 100pts\n10x Rifle (24", A1)')
    kw = dict(games=20, seed=4, terrain="open", rounds=2, first="a", deployment=([(36, 10)], [(36, 22)]))
    runs = [play([u], [target], **kw) for u in (tyrant, back)] + [play(army, [target], **kw), play(pickle.loads(pickle.dumps(army)), [target], **kw)]
    casts = [[e["detail"] for t in r.traces for e in t.events if e["kind"] == "cast"] for r in runs]
    assert casts[0] and all(c == casts[0] for c in casts)


def test_aircraft_are_targeted_at_twelve_inches_less(books, rulebook):
    cite(rulebook(GUIDE), "units targeting them get -12\" to their range")
    hives, brothers = books["alien-hives"], books["battle-brothers"]
    tyrant = unit(hives, "Synapse Tyrant")  # 12" and 18" damage spells
    gunship = unit(brothers, "Light Gunship")
    r = play([tyrant], [gunship], games=60, seed=8, terrain="open", rounds=1, first="a",
             deployment=([(36, 10)], [(36, 24)]), policy_b="hold")
    reach = {n: s.range - 12 for n, s in hives.spells.items()}
    radius = {}
    at_aircraft = Counter()
    for trace in r.traces:
        for e in trace.events:
            if e["kind"] == "deploy-fixed":
                radius[(e["army"], e["unit"])] = e["models"][0][2]
            if e["kind"] == "cast" and e["target_army"] == 1:
                spell = ROLLED.match(e["detail"])["spell"]
                # one model each: the bases are the units, edge to edge
                gap = np.hypot(e["to"][0] - e["from"][0], e["to"][1] - e["from"][1]) - radius[(0, 0)] - radius[(1, 0)]
                assert gap <= reach[spell] + 1e-6, (spell, gap)
                at_aircraft[spell] += 1
    # the 18" spell reaches it after the Tyrant's move; the 12" ones only from base contact
    assert at_aircraft["Hive Shriek"] > 10 * (at_aircraft["Overwhelming Strike"] + at_aircraft["Psychic Blast"]), at_aircraft


def test_each_unit_casts_its_own_books_spells(books):
    """"the Caster's spells must be picked from their own faction": an Army of two books'
    casters keeps each one's book, through pickling, and a Hero joined to another book's unit
    brings its own."""
    import pickle

    hives, dynasty = books["alien-hives"], books["eternal-dynasty"]
    tyrant, sage = unit(hives, "Synapse Tyrant"), unit(dynasty, "Sage Myan")
    army = oprstats.Army([tyrant, sage])
    for army in (army, pickle.loads(pickle.dumps(army))):
        assert set(army.units[0].spells) == set(hives.spells)
        assert set(army.units[1].spells) == set(dynasty.spells)
    warriors = unit(hives, "Assault Grunts")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        joined = warriors.join(sage)
    assert set(joined.spells) == set(dynasty.spells)


def test_a_buff_spell_gives_its_rule_once_as_a_friends_buff(books, rulebook):
    """"Pick one friendly unit within 12", which gets Evasive once (next time the effect would
    apply)": cast with tokens no damage spell would use, on a friend in range holding no buff,
    and used up when it acts, as a buff a friend gives is."""
    knights = books["knight-brothers"]
    spell = knights.spells["Knight Dome"]
    assert spell.kind == "rule" and not spell.enemy and "Evasive once" in spell.text
    walker = unit(knights, "Knight Nemesis Walker")
    a = [walker] + sorted((u for u in knights.units if u.cost and u.name != walker.name and u.size > 1), key=lambda u: u.cost)[:4]
    b = caster_army(books["alien-hives"])
    r = play(a, b, games=100, seed=12)
    given = used = 0
    for trace in r.traces:
        holding = {}
        for e in trace.events:
            who = (e["army"], e["unit"])
            if e["kind"] == "buff" and e["detail"].startswith("Knight Dome"):
                target = (e["target_army"], e["target"])
                # a friend (or itself), holding no buff
                assert target[0] == who[0] == 0 and target not in holding, e
                assert e["detail"] == "Knight Dome: Evasive"
                holding[target] = True
                given += 1
            elif e["kind"] in ("buff", "debuff") and e["target_army"] >= 0:
                if e["kind"] == "buff":
                    holding[(e["target_army"], e["target"])] = True
            elif e["kind"] == "buff-used":
                if e["detail"].startswith("Evasive") and holding.pop(who, None):
                    used += 1
    assert given > 0 and used > 0, (given, used)
    assert "spell Knight Dome" not in r.unmodelled


#: Matchups of books whose casters (at their default loadouts) cast lasting spells of every
#: kind the game plays (buffs for attacks, defense, moves and placements, an enemy debuff,
#: marks), each army with a unit of another book carrying a debuff rule.
LASTING = [
    (("robot-legions", ("alien-hives", "Nisuv")), ("knight-brothers", ("goblin-reclaimers", "Waskatsin"))),
    (("alien-hives", ("human-defense-force", "Colonel Rixxon")), ("eternal-dynasty", ("eternal-dynasty", "Sage Myan"))),
    (("human-inquisition", ("human-inquisition", "Terrorism Ministry Assassin")), ("high-elf-fleets", ("knight-brothers", "Knight Nemesis Walker"))),
    (("saurian-starhost", ("goblin-reclaimers", "Waskatsin")), ("wormhole-daemons-of-plague", ("alien-hives", "Nisuv"))),
]


def test_lasting_spells_are_held_once_and_used_where_they_apply(books, rulebook):
    """"Pick one friendly unit within 12", which gets Furious once (next time the effect would
    apply)", "Pick one enemy unit within 18", which gets -1 to defense rolls once", "which
    friendly units get Relentless against once": a rule held by a friend, by an enemy, or by
    the caster's army attacking the marked unit, used up by the first attack, test or move it
    acts on. Traced games of ten books' casters."""
    cite(rulebook(GUIDE), "Effects from multiple instances of the same special rule or spell don't stack")
    counts = Counter()
    for i, sides in enumerate(LASTING):
        a, b = (caster_army(books[name], size=6) + [unit(books[book], extra)] for name, (book, extra) in sides)
        r = play(a, b, games=12, seed=20 + i)
        check_invariants(r, a, b)
        for trace in r.traces:
            held, marked, pending = {}, {}, {}
            events = trace.events
            for k, e in enumerate(events):
                who, target = (e["army"], e["unit"]), (e["target_army"], e["target"])
                counts[e["kind"]] += 1
                if e["kind"] in ("buff", "debuff"):
                    # a buff goes to a friend, a debuff to an enemy; a unit holds one of each
                    # at a time ("Effects from multiple instances of the same special rule or
                    # spell don't stack": a friend's and an enemy's do)
                    assert (target[0] == who[0]) == (e["kind"] == "buff"), e
                    assert (target, e["kind"]) not in held, (e, held)
                    held[(target, e["kind"])] = e["detail"].split(": ")[-1]
                    counts["both held"] += all((target, k) in held for k in ("buff", "debuff"))
                elif e["kind"] == "buff-used":
                    slot = next(k for k in ("buff", "debuff") if e["detail"].startswith(held.get((who, k), "\0") + ": "))
                    rule = held.pop((who, slot))
                    if rule == "-1 to defense rolls" and e["detail"].endswith(": shot"):
                        # no Defense roll, no use: a shot that hits nothing leaves it held
                        shot = next(x for x in events[k + 1:] if x["kind"] == "shoot" and (x["target_army"], x["target"]) == who)
                        assert shot["hits"] > 0, (e, shot)
                elif e["kind"] == "mark":
                    assert target[0] != who[0] and target not in marked, e
                    marked[target] = (who[0], e["detail"].split(": ")[-1])
                elif e["kind"] == "mark-used":
                    army, rule = marked.pop(target)
                    # used by a unit of the caster's army, on its attack at the marked unit
                    assert who[0] == army and e["detail"].startswith(rule + ": "), e
                    attack = next(x for x in events[k + 1:] if x["kind"] in ("shoot", "melee"))
                    assert {(attack["army"], attack["unit"]), (attack["target_army"], attack["target"])} == {who, target}, (e, attack)
                elif e["kind"] == "casting-modifier":
                    # on a caster, which holds one from each side until its next casting roll
                    x = int(e["detail"].split(" to casting")[0].split()[-1])
                    slots = pending.setdefault(target, [0, 0])
                    assert slots[int(x < 0)] == 0, e
                    slots[int(x < 0)] = x
                elif e["kind"] == "cast":
                    # the roll's modifier: what it holds, plus helpers' tokens, less hinderers'
                    moved = 0
                    for h in reversed(events[:k]):
                        if h["kind"] not in ("help", "hinder"):
                            break
                        moved += h["hits"] if h["kind"] == "help" else -h["hits"]
                    held_mod = sum(pending.pop(who, [0, 0]))
                    assert e["allowance"] == held_mod + moved, (e, held_mod, moved)
                    counts["casting-modifier used"] += bool(held_mod)
                elif e["kind"] in ("spell-test", "debuff-test"):
                    assert target[0] != who[0] and "Shaken" not in e["detail"], e
    for kind in ("buff", "debuff", "mark", "buff-used", "mark-used", "casting-modifier used", "debuff-test", "both held"):
        assert counts[kind] > 0, (kind, counts)


def test_a_debuff_picks_an_aircraft_only_within_six_inches(rulebook):
    """Aircraft: "units targeting them get -12" to their range"; a rule's "pick one enemy unit
    within 18"" targets the unit it picks, as a spell does: 6" for an Aircraft."""
    cite(rulebook(GUIDE), 'units targeting them get -12" to their range')
    hunters = Unit.parse('Hunters [5] Q4+ D4+ | 100pts | Precision Debuff\n5x Rifle (24", A1)')
    jet = Unit.parse('Jet [1] Q4+ D3+ | 180pts | Aircraft, Tough(6)\nMissiles (24", A4, AP(2))')
    rifles = Unit.parse('Rifles [10] Q4+ D5+ | 100pts\n10x Rifle (24", A1)')
    r = play([hunters, hunters, rifles], [jet, jet, rifles], games=60, seed=3)
    gap = lambda m1, m2: min(math.dist((x, y), (u, v)) - p - q for x, y, p in m1 for u, v, q in m2)  # noqa: E731
    picked = {True: [], False: []}
    for trace in r.traces:
        where = {}
        for e in trace.events:
            if e["models"]:
                where[(e["army"], e["unit"])] = e["models"]
            if e["kind"] == "debuff":
                target = (e["target_army"], e["target"])
                picked[e["target_name"] == "Jet"].append(gap(where[(e["army"], e["unit"])], where[target]))
    assert len(picked[True]) >= 10 and max(picked[True]) <= 6 + 1e-6, picked[True]
    # other units are picked from further away
    assert max(picked[False]) > 6, picked[False]
