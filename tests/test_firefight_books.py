"""The 53 real Firefight army books (Army Forge's `grimdark-future-firefight`, v3.5.1)
everywhere a GF book works (issue 41, deliverable 4): loaded by their game system, their own
rules played under Firefight v3.2, their lists read and checked by Firefight's army
building, and every measure of a unit's worth run with Firefight's engines and cost model.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

import oprstats
from oprstats import Unit, _core
from oprstats._census import census, unit_rule_names

from .conftest import SHARED, _require, cite

FF = "firefight-3.2"
FF_DIR = SHARED / "data" / "opr" / "grimdark-future-firefight" / "3.5.1"
FF_RULES = "gf-firefight-3.2.txt"


@pytest.fixture(scope="module")
def ff_paths() -> list[Path]:
    """The 53 real Firefight books."""
    return sorted(_require(FF_DIR, "the real Firefight army books").glob("*.json"))


@pytest.fixture(scope="module")
def ff_jsons(ff_paths) -> dict[str, dict]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in ff_paths}


@pytest.fixture(scope="module")
def ff_books(ff_paths):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no unknown rule, no edition warning
        return [oprstats.load_army_book(p) for p in ff_paths]


@pytest.fixture(scope="module")
def ff_text(ff_jsons):
    """``ff_text(name)`` -> the rule's text in the Firefight books (one text per name)."""
    texts: dict[str, set[str]] = {}
    for book in ff_jsons.values():
        for r in book.get("specialRules") or []:
            texts.setdefault(r["name"].strip(), set()).add(r.get("description") or "")
    return lambda name: (lambda t: (t.pop() if len(t) == 1 else pytest.fail(f"{name}: {len(t)} texts")))(set(texts[name]))


def gf_names(book_jsons) -> set[str]:
    return {r["name"].strip() for b in book_jsons.values() for r in b.get("specialRules") or []}


def ff(text: str) -> Unit:
    return Unit.parse(text, edition=FF)


def wounds(attacker: Unit, target: Unit, **kw) -> float:
    return oprstats.attack(attacker, target, edition=FF, **kw).wounds.mean()


# --- Loading --------------------------------------------------------------------------

def test_every_firefight_book_loads_as_firefight_by_its_game_system(ff_books, ff_jsons):
    """No edition= needed: the game system says Firefight (the version string is GF's 3.5.1)."""
    assert len(ff_books) == 53 and sum(len(b) for b in ff_books) == 682
    assert {(j["gameSystemSlug"], j["versionString"]) for j in ff_jsons.values()} == {("grimdark-future-firefight", "3.5.1")}
    for b in ff_books:
        assert (b.edition, b.own_edition, b.game_system) == (FF, FF, "grimdark-future-firefight")
        assert all(u.edition == FF for u in b.units)
    # the books' units keep their Firefight prices: single models for the most part
    assert sum(u.size == 1 for b in ff_books for u in b.units) > 600


def test_a_book_read_under_the_other_game_warns_and_still_loads(ff_paths, book_paths):
    with pytest.warns(UserWarning, match="is a Firefight book .* priced for Firefight"):
        as_gf = oprstats.load_army_book(ff_paths[0], edition="3.5")
    assert as_gf.edition == "3.5" and as_gf.own_edition == FF
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", oprstats.UnknownRuleWarning)
        with pytest.warns(UserWarning, match="is a Grimdark Future book .* priced for Grimdark Future"):
            as_ff = oprstats.load_army_book(book_paths[0], edition=FF)
    assert as_ff.edition == FF and as_ff.own_edition == "3.5" and as_ff.game_system == "grimdark-future"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert oprstats.load_army_book(ff_paths[0], edition=FF).edition == FF  # its own: no warning


@pytest.mark.parametrize("edition", ["2", "3.4.1", FF, "3.5"])
def test_every_gf_book_loads_under_every_edition(book_paths, edition):
    """Loading a v3.5.1 book "as v2" failed with "not an Army Forge army book" (Fear(1): v2.x's
    Fear takes no rating). A rule whose rating the edition's rule does not take is read as
    that edition's rule and said so in the book's warnings; rules the edition lacks are
    reported as every unknown rule is."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        books = [oprstats.load_army_book(p, edition=edition) for p in book_paths]
    assert sum(len(b) for b in books) == 1013 and all(b.edition == edition for b in books)
    dropped = [w for b in books for w in b.warnings if "takes no rating" in w]
    if edition == "2":
        assert dropped and all(w.startswith("Fear(") for w in dropped)
        fear = [u for b in books for u in b.units if any(r == "Fear" or r.startswith("Fear(") for r in u.rules)]
        assert fear and all("Fear" in u.rules and not any(r.startswith("Fear(") for r in u.rules) for u in fear)
    else:
        assert not dropped


def test_a_firefight_book_is_priced_by_its_units_not_the_gf_books(ff_books, book_paths):
    """The same unit of the same army, priced for each game: never dearer in Firefight, and
    cheaper wherever the GF book sells it as a squad of more models than Firefight does."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        gf = {b.name: b for b in (oprstats.load_army_book(p) for p in book_paths)}
    shared = [(b[n], gf[b.name][n]) for b in ff_books if b.name in gf for n in {u.name for u in b.units} & {u.name for u in gf[b.name].units}]
    assert len(shared) > 150
    assert all(f.edition == FF and g.edition == "3.5" for f, g in shared)
    assert all(f.cost <= g.cost for f, g in shared)
    squads = [(f, g) for f, g in shared if g.size > f.size]
    assert len(squads) > 50 and all(f.cost < g.cost for f, g in squads)


# --- The Firefight books' own rules -----------------------------------------------------

#: The names only Firefight books define (none of the 43 GF books does), as they stand.
ONLY_FIREFIGHT = {
    "Badlands Hunter", "Badlands Hunter Boost", "Badlands Hunter Boost Aura", "Ballistic Vest", "Ballistic Vest Boost",
    "Ballistic Vest Boost Aura", "Battle-Hardened", "Berserker", "Berserker Boost", "Berserker Boost Aura", "Brute Courage",
    "Cyber-Eyes", "Cyber-Eyes Boost", "Cyber-Eyes Boost Aura", "Flying Aura", "Impact Mark", "Piercing Assault Mark",
    "Protection Feat Aura", "Psychotic", "Psychotic Boost", "Psychotic Boost Aura", "Pulverize", "Runner", "Runner Boost",
    "Runner Boost Aura", "Safety Gear", "Safety Gear Boost", "Safety Gear Boost Aura", "Shadow Operative",
    "Shadow Operative Boost", "Shadow Operative Boost Aura", "Thrust Mark", "Union Assault",
}


def test_the_rules_only_firefight_books_have(ff_jsons, book_jsons):
    names = {r["name"].strip() for b in ff_jsons.values() for r in b.get("specialRules") or []}
    assert names - gf_names(book_jsons) == ONLY_FIREFIGHT
    entries = census(ONLY_FIREFIGHT, edition=FF)
    played = {n for n, c in entries.items() if c.modelled}
    # all but one are played: Protection Feat Aura lends a rule no engine plays (reported);
    # Flying Aura lends Flying, a rule of movement a Firefight game plays
    assert ONLY_FIREFIGHT - played == {"Protection Feat Aura"}
    assert entries["Protection Feat Aura"].reason and entries["Protection Feat Aura"].ignored_in_game
    assert census(["Flying"], edition=FF)["Flying"].engines == entries["Flying Aura"].engines == ("game",)
    # under v3.5 no engine knows them: they are Firefight's
    assert not any(c.modelled for c in census(ONLY_FIREFIGHT, edition="3.5").values())


def test_every_rule_of_the_firefight_books_is_played_or_reported(ff_books, ff_jsons):
    """Every name the books define, and every rule on every unit, is modelled by some engine
    or reported with a reason; every unit's results list the rules they ignore."""
    names = {r["name"].strip() for b in ff_jsons.values() for r in b.get("specialRules") or []}
    entries = census(names, edition=FF)
    assert not [n for n, c in entries.items() if c.reason and c.reason.startswith("no rulebook")]
    # the Firefight rulebook's own rules of movement, deployment and casting (Strider, Scout,
    # Caster, ...) are a game's: the rulebook's, known without an engine of their own here
    core = {n for n, _, _ in _core._known_rules(FF)}
    for n, c in entries.items():
        assert c.modelled or c.reason or n in core, n
    assert sum(c.modelled for c in entries.values()) >= 295
    for b in ff_books:
        for u in b.units:
            on_unit = unit_rule_names(u)
            unit_entries = census(on_unit, edition=FF)
            ignored = set(_core._unmodelled_rules(u, engine="attack", edition=FF))
            for name, c in unit_entries.items():
                assert c.modelled or name in ignored or not c.ignored_in_game, (b.name, u.name, name)


def test_rules_worded_as_a_gf_books_rule_play_that_rule(ff_text, book_jsons):
    """A Firefight-only rule with the words of a GF book's rule plays exactly as it does."""
    gf_text = {r["name"].strip(): r.get("description") or "" for b in book_jsons.values() for r in b.get("specialRules") or []}
    pairs = {  # Firefight name -> the GF rule with the same words
        "Badlands Hunter": "Warbound", "Berserker": "Ferocious", "Psychotic": "Primal", "Ballistic Vest": "Reinforced",
        "Safety Gear": "Sturdy", "Cyber-Eyes": "Targeting Visor", "Battle-Hardened": "Hive Bond", "Brute Courage": "Battleborn",
    }
    squash = lambda s: " ".join(s.replace("’", "'").replace("”", '"').replace("(only the original hit counts as a 6 for special rules)", "").split())
    for ff_name, gf_name in pairs.items():
        assert squash(ff_text(ff_name)) == squash(gf_text[gf_name]), ff_name
    target = ff("Target [5] Q4+ D4+")
    for ff_name, gf_name in [("Badlands Hunter", "Warbound"), ("Berserker", "Ferocious"), ("Psychotic", "Primal"),
                             ("Cyber-Eyes", "Targeting Visor")]:
        for distance in (6, 18):
            a, b = (ff(f"Shooter [3] Q4+ D4+ | {r}\n3x Rifle (24\", A2)") for r in (ff_name, gf_name))
            assert wounds(a, target, distance=distance) == pytest.approx(wounds(b, target, distance=distance), abs=1e-12)
        assert wounds(a, target, distance=18) != wounds(ff("Shooter [3] Q4+ D4+\n3x Rifle (24\", A2)"), target, distance=18)
    shooter = ff("Shooter [5] Q4+ D4+\n5x Rifle (24\", A2, AP(1))")
    for ff_name, gf_name in [("Ballistic Vest", "Reinforced"), ("Safety Gear", "Sturdy")]:
        for distance in (6, 18):
            a, b = (ff(f"Target [5] Q4+ D4+ | {r}") for r in (ff_name, gf_name))
            assert wounds(shooter, a, distance=distance) == pytest.approx(wounds(shooter, b, distance=distance), abs=1e-12)
        assert wounds(shooter, a, distance=18) < wounds(shooter, ff("Target [5] Q4+ D4+"), distance=18)


def test_non_hero_tough_rules_spare_heroes(ff_text):
    """The Firefight books' words: "against non-Hero units with Tough(3) or more" (GF's:
    "units where most models have Tough(3) to Tough(9)")."""
    cite(ff_text("Tear"), "Against non-Hero units with Tough(3) or more, this weapon gets AP(+4).")
    cite(ff_text("Impale"), "Against non-Hero units with Tough(3) or more, this weapon gets Deadly(+3).")
    tear = ff("Gunner [1] Q4+ D4+\nLance (24\", A4, Tear)")
    plain = ff("Gunner [1] Q4+ D4+\nLance (24\", A4)")
    beast = ff("Beast [1] Q4+ D2+ | Tough(12)")
    hero = ff("Lord [1] Q4+ D2+ | Hero, Tough(12)")
    small = ff("Trooper [1] Q4+ D2+ | Tough(2)")
    assert wounds(tear, beast) > wounds(plain, beast)
    assert wounds(tear, hero) == pytest.approx(wounds(plain, hero))
    assert wounds(tear, small) == pytest.approx(wounds(plain, small))
    # Tough(12), beyond GF's Tough(9): the Firefight words have no upper bound
    gf_tear = Unit.parse("Gunner [1] Q4+ D4+\nLance (24\", A4, Tear)")
    gf_beast = Unit.parse("Beast [1] Q4+ D2+ | Tough(12)")
    gf_plain = Unit.parse("Gunner [1] Q4+ D4+\nLance (24\", A4)")
    assert oprstats.attack(gf_tear, gf_beast).wounds.mean() == pytest.approx(oprstats.attack(gf_plain, gf_beast).wounds.mean())


def test_pulverize_and_shadow_operative(ff_text):
    cite(ff_text("Pulverize"), "Ignores Cover, and on unmodified results of 6 to hit, those hits get AP(+4).")
    target = ff("Target [5] Q4+ D4+")
    pulverize = ff("Gunner [1] Q4+ D4+\nGun (24\", A6, Pulverize)")
    plain = ff("Gunner [1] Q4+ D4+\nGun (24\", A6)")
    assert wounds(pulverize, target, cover=True) == pytest.approx(wounds(pulverize, target))  # cover ignored
    assert wounds(plain, target, cover=True) < wounds(plain, target)
    assert wounds(pulverize, target) > wounds(plain, target)
    cite(ff_text("Shadow Operative"), 'Enemies get -4" range when trying to shoot at units where all models have this rule')
    hidden = ff("Target [5] Q4+ D4+ | Shadow Operative")
    gun = ff("Gunner [1] Q4+ D4+\nGun (24\", A6)")
    assert wounds(gun, hidden, distance=22) == 0 and wounds(gun, hidden, distance=20) > 0
    cite(ff_text("Shadow Operative Boost"), 'enemies get -8" range when shooting them')
    boosted = ff("Target [5] Q4+ D4+ | Shadow Operative, Shadow Operative Boost")
    assert wounds(gun, boosted, distance=17) == 0 and wounds(gun, boosted, distance=16) > 0
    # the Boost acts only with its rule
    assert wounds(gun, ff("Target [5] Q4+ D4+ | Shadow Operative Boost"), distance=23) > 0


def test_firefight_auras_and_marks_play_for_the_unit_itself_and_report_the_rest(ff_text):
    cite(ff_text("Stealth Aura"), "This model and up to 3 friendly units picked before the start of the game get Stealth.")
    cite(ff_text("Thrust Mark"), 'pick up to 4 enemy units within 18", which friendly units gets Thrust in melee against once')
    shooter = ff("Shooter [5] Q4+ D4+\n5x Rifle (24\", A2)")
    aura, plain = ff("Target [3] Q4+ D4+ | Stealth Aura"), ff("Target [3] Q4+ D4+")
    assert wounds(shooter, aura, distance=18) < wounds(shooter, plain, distance=18)
    entries = census(["Stealth Aura", "Thrust Mark", "Stealth Buff"], edition=FF)
    for c in entries.values():
        assert c.modelled and "game" in c.reason
    # the GF books' words (one unit) report nothing of the kind
    assert census(["Stealth Aura"], edition="3.5")["Stealth Aura"].reason is None


def test_gf_core_rules_the_firefight_books_define_are_played_by_their_words(ff_text):
    """Bane, Surge, Thrust and Unstoppable are not in the Firefight v3.2 rulebook; the books
    define them with the GF v3.5 rulebook's words, which are played."""
    cite(ff_text("Bane"), "Ignores Regeneration, and when attacking the target must re-roll unmodified Defense results of 6.")
    names = ["Bane", "Surge", "Thrust", "Unstoppable"]
    assert not set(names) & {n for n, _, _ in _core._known_rules(FF)}
    assert all(c.modelled for c in census(names, edition=FF).values())
    target = ff("Target [5] Q4+ D4+")
    bane, plain = ff("A [1] Q4+ D4+\nGun (24\", A6, Bane)"), ff("A [1] Q4+ D4+\nGun (24\", A6)")
    assert wounds(bane, target) > wounds(plain, target)


# --- Army lists -----------------------------------------------------------------------

def firefight_list(units, points: int = 300, name: str = "Gang") -> str:
    blocks = "\n\n".join(str(u) for u in units)
    return f"++ {name} (v3.5.1) [GFF {points}pts] [{len(units)} Units] ++\n\n{blocks}\n"


def test_a_firefight_export_is_read_as_firefight(ff_books):
    book = next(b for b in ff_books if b.name == "Battle Brothers")
    units = [u for u in book.units if not u.has_rule("Hero")][:3]
    army = oprstats.load_army_list(firefight_list(units), book=book)
    assert (army.edition, army.game, army.points_limit) == (FF, "GFF", 300)
    assert [u.name for u in army.units] == [u.name for u in units]
    assert all(u.edition == FF for u in army.units)
    # no title naming the game: the book's edition
    body = firefight_list(units).split("\n", 2)[2]
    assert oprstats.load_army_list(body, book=book).edition == FF
    assert oprstats.load_army_list(body).edition == "3.5"


def test_the_rulebooks_force_organisation_example(rulebook):
    """"At 300pts, players may bring max. 2 heroes, max. 3 copies of each unit, no unit worth
    over 105pts, max. 10 units in total, and max. 15 models in total.\""""
    text = rulebook(FF_RULES)
    for sentence in ["Only 1 hero per 150pts", "Only 1+X copies of the same unit, where X is 1 per 150pts",
                     "No single unit worth over 35% of total points", "Only 1 unit per 30pts", "Only 1 model per 20pts",
                     "At 300pts, players may bring max. 2 heroes, max. 3 copies of each unit, no unit worth over 105pts, "
                     "max. 10 units in total, and max. 15 models in total."]:
        cite(text, sentence)

    def check(lines: list[str], points: int = 300):
        return oprstats.validate_list(f"++ Gang [GFF {points}pts] ++\n\n" + "\n\n".join(lines) + "\n")

    hero = 'Captain [1] Q3+ D3+ | 30pts | Hero\nPistol (12", A1)'
    trooper = 'Trooper [1] Q4+ D4+ | 10pts\nRifle (24", A1)'
    big = 'Walker [1] Q4+ D2+ | 105pts | Tough(6)\nCannon (24", A2)'
    squad = 'Squad [3] Q4+ D4+ | 25pts\n3x Rifle (24", A1)'
    ok = check([hero, hero.replace("Captain", "Major"), trooper, trooper, trooper, big, squad, squad])
    assert ok.ok and ok.edition == FF, ok
    rules = lambda c: sorted(p.rule for p in c.problems)
    assert rules(check([hero, hero.replace("Captain", "Major"), hero.replace("Captain", "Colonel")])) == ["heroes"]
    assert rules(check([trooper] * 4)) == ["copies"]
    assert rules(check([big.replace("105pts", "106pts")])) == ["unit share"]
    eleven = [trooper.replace("Trooper", f"Trooper {i}") for i in range(11)]
    assert rules(check(eleven)) == ["units"]
    assert rules(check([squad.replace("Squad", f"Squad {i}").replace("[3]", "[4]").replace("3x", "4x") for i in range(4)])) == ["models"]
    # without the optional force organisation only the points count
    assert oprstats.validate_list(f"++ Gang [GFF 300pts] ++\n\n" + "\n\n".join([trooper] * 4) + "\n", force_organisation=False).ok
    # the same units as a GF list are checked by GF's numbers: 1 unit per 200pts
    gf = oprstats.validate_list("++ Army [GF 300pts] ++\n\n" + "\n\n".join(eleven) + "\n")
    assert gf.edition == "3.5" and rules(gf) == ["units"] and gf.problems[0].allowed == 1


def test_a_joined_hero_is_refused_in_firefight():
    text = ('++ Gang [GFF 300pts] ++\n\nCaptain [1] Q3+ D3+ | 30pts | Hero\nPistol (12", A1)\n| Joined to:\n'
            'Squad [3] Q4+ D4+ | 25pts\n3x Rifle (24", A1)\n')
    # a Firefight export cannot join a hero: refused as it is read
    with pytest.raises(ValueError, match="heroes do not join units in Grimdark Future: Firefight"):
        oprstats.load_army_list(text)
    # a GF list checked by Firefight's rules: the joined hero is a problem, with or without the
    # optional force organisation (it is a rule of the game)
    army = oprstats.load_army_list(text.replace("GFF", "GF"))
    assert "joined hero" not in [p.rule for p in oprstats.validate_list(army).problems]
    check = oprstats.validate_list(army, edition=FF)
    assert [p.rule for p in check.problems] == ["joined hero"] and "never join" in check.problems[0].message
    assert [p.rule for p in oprstats.validate_list(army, edition=FF, force_organisation=False).problems] == ["joined hero"]


def test_real_firefight_lists_pass_and_fail_as_they_should(ff_books):
    """Lists of real units: a legal 300pts list of each of a few books, then one too many."""
    for book in ff_books[:10]:
        heroes = [u for u in book.units if u.has_rule("Hero") and u.cost <= 105]
        others = sorted((u for u in book.units if not u.has_rule("Hero") and u.cost <= 105), key=lambda u: u.cost)
        picked = heroes[:1] + others[:1] * 2
        if sum(u.cost for u in picked) > 300 or not heroes:
            continue
        check = oprstats.validate_list(oprstats.load_army_list(firefight_list(picked), book=book))
        assert check.ok, (book.name, check)
        over = oprstats.validate_list(oprstats.load_army_list(firefight_list(heroes[:1] * 4 + others[:1]), book=book))
        assert "heroes" in [p.rule for p in over.problems] and "copies" in [p.rule for p in over.problems]


# --- Measures of worth ----------------------------------------------------------------

def test_efficiency_and_matchups_use_firefights_engines(ff_books):
    """A Firefight book's unit is measured under Firefight: its Firefight-only rules played
    (under v3.5 they are unknown, and reported), Firefight's Stunned in its durability."""
    unit = next(u for b in ff_books for u in b.units if unit_rule_names(u) & {"Psychotic", "Berserker", "Badlands Hunter"})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        e, e_ff, e_gf = oprstats.efficiency(unit), oprstats.efficiency(unit, edition=FF), oprstats.efficiency(unit, edition="3.5")
    assert np.array_equal(e.expected_wounds, e_ff.expected_wounds) and e.durability == e_ff.durability
    assert not e.unmodelled and set(e_gf.unmodelled) & {"Psychotic", "Berserker", "Badlands Hunter"}
    assert not np.array_equal(e.expected_wounds, e_gf.expected_wounds)
    # every unit of the 53 books, each at its official Firefight cost
    every = oprstats.efficiency(ff_books)
    assert len(every) == 682 and all(x.points_source == "official" for x in every)
    book = ff_books[0]
    m = oprstats.matchups(book.units[:3], ff_books[1].units[:3])
    assert m.edition == FF
    assert np.array_equal(m.dealt, oprstats.matchups(book.units[:3], ff_books[1].units[:3], edition=FF).dealt)


def test_units_of_two_editions_are_not_measured_together(ff_books, book_paths):
    gf_unit = oprstats.load_army_book(book_paths[0]).units[0]
    with pytest.raises(ValueError, match="different editions"):
        oprstats.matchups([ff_books[0].units[0]], [gf_unit])
    with pytest.raises(ValueError, match="different editions"):
        oprstats.fairness([ff_books[0].units[0], gf_unit])


def test_what_needs_full_games_plays_firefight_games(ff_books):
    # duels of Firefight units are Firefight duels (a game follows its units' edition, never
    # a v3.5 game in their place); an edition without games would be refused, naming it
    from oprstats._points import require_full_games

    book = ff_books[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # rules the game reports
        be = oprstats.break_even(book.units[0], book.units[1:3], method="duel", seed=0, games=200)
    assert np.isfinite(be.value) and be.value > 0
    with pytest.raises(ValueError, match="needs full games"):
        require_full_games("v9", 'break_even(method="duel")')


def test_fair_cost_by_the_exchange_on_a_firefight_book(ff_books):
    pytest.importorskip("pandas")
    book = next(b for b in ff_books if b.name == "Battle Brothers")
    frame = oprstats.fair_cost(book, seed=0, resamples=50)
    assert len(frame) == len(book) and frame.fair.notna().all()
    assert (frame.fair > 0).all()


# --- The Firefight cost model ---------------------------------------------------------

def test_a_cost_model_ships_for_firefight_and_is_chosen_for_its_units(ff_books):
    pytest.importorskip("pandas")
    model = oprstats.CostModel.default(edition=FF)
    assert model.edition == FF and model.info["units"] == 682 and model.info["books"] == 53
    assert model.families >= 20
    # the figures the docs give (docs/points.md), out of sample
    family, book = model.info["leave_one_family_out"], model.info["leave_one_book_out"]
    assert family["median"] <= 0.08 and book["median"] <= family["median"] + 0.01
    book0 = next(b for b in ff_books if b.name == "Battle Brothers")
    frame = oprstats.fairness(book0)
    assert (frame.judged == "without its family").all()
    prices = model.prices(list(book0.units))
    assert np.median(np.abs(prices - np.array([u.cost for u in book0.units])) / np.array([u.cost for u in book0.units])) < 0.15
    # a homebrew Firefight unit is priced by the Firefight model
    homebrew = ff("Rookie [1] Q5+ D5+\nRifle (24\", A1)")
    e = oprstats.efficiency(homebrew)
    assert e.points_source == "modelled"
    assert e.points == pytest.approx(float(model.predict(homebrew).points))
    # the reference targets are priced in Firefight's points too, by the Firefight model
    targets = oprstats.reference_targets(edition=FF)
    assert np.allclose(e.target_points, [float(model.predict(t.unit).points) for t in targets])
    gf = oprstats.efficiency(Unit.parse(str(homebrew)))
    assert not np.allclose(e.target_points, gf.target_points)


def test_the_shipped_firefight_model_is_a_fit_of_the_books(ff_books):
    """The parameter file is what scripts/fit_cost_model.py --edition firefight-3.2 makes from
    the 53 books (no hand edits)."""
    units = [u for b in ff_books for u in b.units]
    fitted = oprstats.CostModel.fit(ff_books)  # under the books' own edition
    assert fitted.edition == FF
    fresh = fitted.prices(units)
    assert np.max(np.abs(fresh - oprstats.CostModel.default(edition=FF).prices(units))) < 0.5


def test_random_lists_draw_firefight_lists_by_firefights_army_building(ff_books, rulebook):
    # "Only 1 hero per 150pts", "Only 1+X copies of the same unit, where X is 1 per 150pts",
    # "No single unit worth over 35% of total points", "Only 1 unit per 30pts", "Only 1 model
    # per 20pts"; heroes never join. At 300 pts: "max. 2 heroes, max. 3 copies of each unit, no
    # unit worth over 105pts, max. 10 units in total, and max. 15 models in total"
    text = rulebook("gf-firefight-3.2.txt")
    for sentence in ("Only 1 unit per 30pts", "Only 1 model per 20pts",
                     "At 300pts, players may bring max. 2 heroes, max. 3 copies of each unit, no unit worth over 105pts, "
                     "max. 10 units in total, and max. 15 models in total"):
        cite(text, sentence)
    for book in ff_books:
        for army in oprstats.random_lists(book, points=300, n=2, seed=7):
            assert army.edition == FF and 285 <= army.points <= 300, (book.name, army.points)
            assert oprstats.validate_list(army).ok, (book.name, oprstats.validate_list(army))
            assert len(army.units) <= 10 and sum(u.size for u in army.units) <= 15
            assert all(u.hero is None for u in army.units) and all(u.cost <= 105 for u in army.units)
    # a Firefight game size is from one unit's 30 pts
    book = ff_books[0]
    with pytest.raises(ValueError, match="points: must be a whole number of points from 30"):
        oprstats.random_lists(book, points=29)


def test_validate_list_reads_an_edition_alias_as_its_edition(ff_books):
    # edition="firefight" is Firefight's key by another name: its army building, not GF's
    army = oprstats.random_lists(ff_books[0], points=300, n=1, seed=3)[0]
    by_alias = oprstats.validate_list(army, edition="firefight")
    assert by_alias.edition == FF and by_alias == oprstats.validate_list(army, edition=FF)
