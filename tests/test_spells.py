"""The army books' spells as data (issue 17, first step): every spell of the 43 books read
from its structured effect, and a damage spell's hits rolled by the attack engines."""

from __future__ import annotations

import pickle

import numpy as np
import pytest

import oprstats
from oprstats import Spell, Unit

from .conftest import cite


@pytest.fixture(scope="module")
def books(book_paths):
    return [oprstats.load_army_book(p) for p in book_paths]


def test_every_spell_of_the_books_is_read(books, rulebook):
    cite(rulebook("gf-3.5-beginners-guide.txt"), "spend as many tokens as the spell's value to try casting one or more spells")
    spells = [s for b in books for s in b.spells.values()]
    assert len(spells) == 258
    assert all(isinstance(s, Spell) and s.kind != "unread" for s in spells)
    kinds = {k: sum(s.kind == k for s in spells) for k in {s.kind for s in spells}}
    assert kinds["hits"] == 129 and sum(kinds.values()) == 258
    # the value is what the caster spends: 1 to 3 tokens, 86 spells of each
    assert sorted({s.tokens for s in spells}) == [1, 2, 3]
    assert all(s.hits and s.hits > 0 for s in spells if s.kind == "hits")
    assert all(s.hits is None for s in spells if s.kind != "hits")


def test_a_spell_pickles_to_itself(books):
    for s in list(books[0].spells.values())[:5]:
        back = pickle.loads(pickle.dumps(s))
        assert back == s and hash(back) == hash(s) and back.text == s.text


def test_a_damage_spell_rolls_as_an_attack(books, rulebook):
    # cover is "+1 to Defense rolls when blocking hits from shooting attacks": a spell is cast
    cite(rulebook("gf-3.5-beginners-guide.txt"), "they get +1 to Defense rolls when blocking hits from shooting attacks")
    # "Pick one enemy unit within 12", which takes 6 hits with AP(1) and Shred"
    spell = next(s for b in books for s in b.spells.values() if s.hits == 6 and s.rules == ["AP(1)", "Shred"])
    assert "takes 6 hit" in spell.text and spell.enemy and spell.range == 12
    target = Unit.parse("T [10] Q4+ D4+")
    exact = oprstats.attack(spell, target)
    # no roll to hit: every hit lands; blocked on 5+ (AP(1)); Shred adds a wound on a 1 to block
    assert exact.hits.pmf[6] == pytest.approx(1.0)
    assert exact.wounds.mean() == pytest.approx(6 * (3 / 6 + 2 / 6))
    sampled = oprstats.attack(spell, target, method="sample", samples=100_000, seed=3)
    # chi-square on the wound counts (fixed seed; p-value floor 0.001)
    from scipy import stats
    n = len(exact.wounds.pmf)
    counts = np.zeros(n)
    counts[: min(n, len(sampled.wounds.pmf))] = np.round(sampled.wounds.pmf[:n] * 100_000)
    expected = exact.wounds.pmf * 100_000
    keep = expected >= 5
    assert stats.chisquare(counts[keep], expected[keep] * counts[keep].sum() / expected[keep].sum()).pvalue > 1e-3


def test_spells_that_deal_no_hits_and_shooting_arguments_are_refused(books):
    target = Unit.parse("T [10] Q4+ D4+")
    buff = next(s for b in books for s in b.spells.values() if s.kind == "rule")
    with pytest.raises(ValueError, match="spell: deals no hits"):
        oprstats.attack(buff, target)
    blast = next(s for b in books for s in b.spells.values() if s.kind == "hits")
    with pytest.raises(ValueError, match="cover: does not apply to a spell"):
        oprstats.attack(blast, target, cover=True)
    with pytest.raises(TypeError, match="target: expected a Unit"):
        oprstats.attack(blast, "T [10] Q4+ D4+")


def test_the_spell_clauses_of_knightborn_resistance_and_shielded(books, book_jsons):
    """The books' rules that treat spells apart, against a spell and against a shot."""
    texts = {r["name"].strip(): r["description"] for b in book_jsons.values() for r in b.get("specialRules", [])}
    cite(texts["Knightborn"], "On a 6+ it is ignored. If the wounds were from a spell, then they are ignored on a 4+ instead.")
    cite(texts["Resistance"], "On a 6+ it is ignored. If the wounds were from a spell, then they are ignored on a 2+ instead.")
    cite(texts["Shielded"], "get +1 to defense rolls against hits that are not from spells")
    # "Pick one enemy unit within 12", which takes 6 hits with AP(1) and Shred": 5 wounds on
    # Defense 4+ (blocked on 5+, a 1 to block adds one)
    spell = next(s for b in books for s in b.spells.values() if s.hits == 6 and s.rules == ["AP(1)", "Shred"])
    base = 6 * (3 / 6 + 2 / 6)
    wounds = lambda rule: oprstats.attack(spell, Unit.parse(f"T [10] Q4+ D4+ | {rule}")).wounds.mean()
    assert wounds("Resistance") == pytest.approx(base / 6)
    assert wounds("Knightborn") == pytest.approx(base / 2)
    assert wounds("Shielded") == pytest.approx(base)
    for rule in ("Resistance", "Knightborn", "Shielded"):
        assert rule not in oprstats.attack(spell, Unit.parse(f"T [10] Q4+ D4+ | {rule}")).unmodelled
    # against shooting: 6+ and +1 to Defense as before
    rifles = Unit.parse('S [6] Q2+ D4+\n6x Rifle (24", A1, AP(1))')
    shot = lambda rule: oprstats.attack(rifles, Unit.parse(f"T [10] Q4+ D4+ | {rule}")).wounds.mean()
    plain = oprstats.attack(rifles, Unit.parse("T [10] Q4+ D4+")).wounds.mean()
    assert shot("Resistance") == pytest.approx(plain * 5 / 6) and shot("Knightborn") == pytest.approx(plain * 5 / 6)
    # Shielded: D4+ with AP(1) blocks on 5+ (4 faces of 6 wound), with +1 on 4+ (3 faces)
    assert shot("Shielded") == pytest.approx(plain * 3 / 4)


def test_a_casters_round_of_spells_in_efficiency_and_the_cost_features(books):
    """efficiency()'s "casting" mode: the best set of the book's damage spells one round's
    tokens pay for, each at the bare chance of a half, worked out here by hand from attack()."""
    from itertools import combinations

    hives = next(b for b in books if b.name == "Alien Hives")
    tyrant = next(u for u in hives.units if u.name == "Synapse Tyrant")  # Caster(3)
    assert set(tyrant.spells) == set(hives.spells)
    target = oprstats.Unit.parse("T [10] Q4+ D4+")
    eff = oprstats.efficiency(tyrant, targets=[target])
    assert eff.modes[-1] == "casting"
    damage = [(s.tokens, oprstats.attack(s, target).wounds.mean()) for s in tyrant.spells.values() if s.kind == "hits" and s.enemy]
    best = max(sum(w for _, w in c) for n in range(len(damage) + 1) for c in combinations(damage, n) if sum(t for t, _ in c) <= 3)
    assert eff.expected_wounds[-1, 0] == pytest.approx(best / 2)
    # a unit without a caster, or a caster typed in notation (no book, no spells), has no such mode
    seer = oprstats.Unit.parse("Seer [1] Q4+ D4+ | Hero, Caster(2)\nStaff (A2)")
    assert "casting" not in oprstats.efficiency(seer, targets=[target]).modes
    with pytest.raises(ValueError, match="modes: 'casting' needs a caster with damage spells"):
        oprstats.efficiency(seer, targets=[target], modes=["casting"])
    # the cost features: the Caster rule's term holds the casting mode's wounds on each panel target
    from oprstats._points import _Terms

    terms = _Terms([tyrant], "3.5")
    caster = [i for i, label in enumerate(terms.labels) if label.startswith("Caster")]
    assert len(caster) == 1
    values = {terms.features[f]: v for t, f, v in zip(terms.entry_term, terms.entry_feature, terms.entry_value) if t == caster[0]}
    panel = {t.name: t.unit for t in oprstats.reference_targets()}
    infantry = oprstats.efficiency(tyrant, targets=[panel["infantry"]], modes=["casting"]).expected_wounds[0, 0]
    assert values["casting:infantry"] == pytest.approx(infantry)


#: The books' spells no game casts, and the rule or effect no engine plays that is why.
NOT_CAST = {
    "Creator of Illusions": "Unwieldy",  # "which gets Unwieldy in melee once": striking last is not played
    "Combat Ecstasy": "Quick Shot",  # "which friendly units gets Quick Shot against once": shooting after Rush
    "Insidious Protection": "Grounded Reinforcement",  # within 1" of terrain is not tracked
    "Cursed Stride": "terrain",  # "which counts as being in Dangerous Terrain once"
    "Aura of Pestilence": "terrain",  # "... in Difficult Terrain once"
    "Deep Hypnosis": "morale",  # "If failed you may move it by up to 6" in a straight line"
}


def test_which_spells_games_cast(books):
    """Damage spells, and lasting spells whose effect is a rule the game plays held once
    ("which get Shred when shooting once", "which friendly units get AP(1) when shooting
    against once", "which get -1 to defense rolls once", "which gets Flying once"), casting
    roll modifiers and fatigue tests: all but six of the 185 spells of the 43 books."""
    spells = {n: s for b in books for n, s in b.spells.items()}
    assert len(spells) == 185
    left = {n for n, s in spells.items() if not s.played}
    assert left == set(NOT_CAST)
    for name, why in NOT_CAST.items():
        assert why in spells[name].rules or spells[name].kind == why, (name, spells[name].kind, spells[name].rules)
    assert all(s.played for s in spells.values() if s.kind == "hits")
    # each kind the game plays held once, with an example of the books' words
    for name in ["Blessed Ammo", "Coordinated Aggression", "Banishing Sigil", "Spirit Power", "Animate Spirit",
                 "Bio-Displacer", "Hidden Spirits", "Terror Seeker", "Burn the Heretic", "Terrifying Fury",
                 "Deceleration Rune ", "Battle Rune ", "Eternal Guidance", "Triangulation Bots"]:
        assert spells[name].played, name


def test_a_caster_counts_as_played_where_its_book_spells_all_are(books):
    """The headline census counts a caster's points as ignored only where its book has a spell
    no game casts (or it has no spells: a unit typed in notation)."""
    elves = next(b for b in books if b.name == "High Elf Fleets")
    robots = next(b for b in books if b.name == "Robot Legions")
    casts = lambda u: any(r.startswith("Caster(") for m in u.models for r in m.rules)
    elf = next(u for u in elves.units if u.cost and casts(u))
    robot = next(u for u in robots.units if u.cost and casts(u))
    assert not all(s.played for s in elf.spells.values()) and all(s.played for s in robot.spells.values())
    shares = {u.name: oprstats.unmodelled_share([u]) for u in (elf, robot)}
    assert shares[elf.name] == 1.0
    # the robot's other rules are all played too
    assert shares[robot.name] == 0.0, oprstats.rule_coverage(robots).query("units > 0 and gap.notna()")[["rule", "gap"]]
    seer = Unit.parse("Seer [1] Q4+ D4+ | 100pts | Hero, Tough(3), Caster(2)\nStaff (A2)")
    assert oprstats.unmodelled_share([seer]) == 1.0
