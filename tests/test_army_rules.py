"""The army books' own rules (`specialRules` of the 43 v3.5.1 books) in the engines.

Each family of rules is tested against its book text (quoted with `cite`, so a test cannot
drift from the book), the exact engine against the literal oracle (tests/oracle.py) on cases
built from real units carrying the rule, and the sampler against the exact engine. The
census test classifies every name the books define.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy import stats

import oprstats
from oprstats import Unit
from oprstats._census import census

from . import oracle
from .conftest import cite
from .oracle import OGroup, OModel, OTarget


def U(text: str) -> Unit:
    return Unit.parse(text)


def models(n, tough=1, defense=4, regeneration=False):
    return [OModel(tough=tough, defense=defense, regeneration=regeneration) for _ in range(n)]


@pytest.fixture(scope="session")
def book_rule_text(book_jsons):
    """``book_rule_text(name)`` -> the rule's text in the books (one text per name in all 43)."""
    texts: dict[str, set[str]] = {}
    for book in book_jsons.values():
        for r in book.get("specialRules") or []:
            texts.setdefault(r["name"].strip(), set()).add(r.get("description") or "")
    assert all(len(t) == 1 for t in texts.values()), "a rule name with two texts across books"
    return lambda name: next(iter(texts[name]))


@pytest.fixture(scope="session")
def real_books(book_paths):
    return [oprstats.load_army_book(p) for p in book_paths]


def carriers(books, rule):
    """Real units carrying `rule` on their default loadout."""
    from oprstats._census import unit_rule_names

    return [u for b in books for u in b.units if rule in unit_rule_names(u)]


# --- The census -------------------------------------------------------------------------

def test_every_rule_the_books_define_is_classified(book_jsons):
    names = {r["name"].strip() for b in book_jsons.values() for r in b.get("specialRules") or []}
    assert len(names) == 365
    entries = census(names)
    unknown = sorted(n for n, c in entries.items() if c.reason and c.reason.startswith("no rulebook"))
    assert unknown == []
    for n, c in entries.items():
        assert c.modelled or c.reason, n  # modelled by some engine, or a stated reason
    modelled = sum(c.modelled for c in entries.values())
    assert modelled >= 270, modelled


def test_rule_coverage_frame(real_books, book_jsons):
    frame = oprstats.rule_coverage(real_books)
    spell_names = {s["name"] for b in book_jsons.values() for s in b.get("spells") or []}
    assert {"rule", "kind", "books", "units", "share", "modelled", "engines", "gap", "reason"} <= set(frame.columns)
    spells = frame[frame.kind == "spell"]
    assert len(spells) == len(spell_names)
    # the damage spells roll as attacks and are cast in games; lasting spells are cast in
    # games where the rule they give is played held once (Spell.played)
    damage = {n for b in real_books for n, s in b.spells.items() if s.kind == "hits"}
    played = {n for b in real_books for n, s in b.spells.items() if s.played}
    assert damage <= played and len(damage) == 95
    assert set(spells[spells.modelled].rule) == played and len(played) == 179
    assert (spells[~spells.modelled].gap == "spells").all()
    assert set(spells[spells.engines.map(lambda e: "attack" in e)].rule) == damage
    left = spells.set_index("rule")
    assert "Unwieldy" in left.loc["Creator of Illusions"].reason  # no engine plays it
    assert "morale test" in left.loc["Deep Hypnosis"].reason
    row = frame.set_index("rule").loc["Bloodborn"]
    assert row.kind == "army" and row.modelled and "attack" in row.engines
    assert frame.set_index("rule").loc["Unique"].gap == "list building"
    assert frame.share.is_monotonic_decreasing or (frame.share.diff().dropna() <= 1e-12).all()


def test_headline_coverage_figure(real_books):
    """The share of official points in units carrying a rule with an in-game effect that some
    engine ignores: 90.5% before the books' rules were modelled (issue 14)."""
    units = [u for b in real_books for u in b.units]
    everything = oprstats.unmodelled_share(units)
    beyond = oprstats.unmodelled_share(units, excluding=("spells", "transport"))
    assert everything < 0.905
    assert beyond <= everything
    # the figures measured for this commit (benchmarks/coverage.py prints them)
    assert everything <= 0.02  # issue 17: "stays at or under 2%"
    assert everything == pytest.approx(HEADLINE, abs=0.002)
    assert beyond == pytest.approx(HEADLINE_BEYOND_SPELLS_AND_TRANSPORT, abs=0.002)


# 29.4% before the game cast spells, played the spell clauses of Knightborn, Resistance and
# Shielded (21.9% after), and played transports (4.7%); then lasting spells and the books'
# debuffs (a caster counts where every spell of its book is cast)
HEADLINE = 0.0195
HEADLINE_BEYOND_SPELLS_AND_TRANSPORT = 0.0118


# --- Exact equals the oracle on cases built from real units ------------------------------

# rule -> (sentence of its book text, attack kwargs, oracle group fields, oracle target fields,
#          rules on the target unit)
ATTACKER_RULES = {
    "Bloodborn": ("this model may roll +1 attack with that weapon", {}, dict(extra_attack_on_six=True), {}, ""),
    "Clan Warrior": ("this model may roll +1 attack with that weapon", {}, dict(extra_attack_on_six=True), {}, ""),
    "Primal": ("This rule doesn’t apply to newly generated attacks.", {}, dict(extra_attack_on_six=True), {}, ""),
    "Devout": ("unmodified results of 6 to hit deal 1 extra hit", {}, dict(extra_hits_on_six=1), {}, ""),
    "Ferocious": ("unmodified results of 6 to hit deal 1 extra hit", {}, dict(extra_hits_on_six=1), {}, ""),
    "Warbound": ("take 1 extra wound for each unmodified result of 1", {}, dict(shred=1), {}, ""),
    "Infected": ("take 1 extra wound for each unmodified result of 1", {}, dict(shred=1), {}, ""),
    "Scrapper": ("targets must re-roll unmodified Defense results of 6", {}, dict(reroll_block_from=6), {}, ""),
    "Mischievous": ("targets must re-roll unmodified Defense results of 6", {}, dict(reroll_block_from=6), {}, ""),
    "Havocbound": ("When this model shoots at enemies over 9\" away, or when it charges, its weapons get AP(+1).", {"distance": 18.0}, dict(ap=1), {}, ""),
    "Melee Slayer": ("melee weapons get AP(+2) against units where most models have Tough(3) or higher", {"melee": True}, dict(ap=2), dict(tough=3), "Tough(3)"),
    "Piercing Assault": ("This model gets AP(+1) when charging.", {"melee": True, "charging": True}, dict(ap=1), {}, ""),
    "Precise": ("Gets +1 to hit when attacking.", {}, dict(hit_mod=1), {}, ""),
    "Bad Shot": ("This model gets -1 to hit rolls when shooting.", {}, dict(hit_mod=-1), {}, ""),
    "Good Shot": ("This model gets +1 to hit rolls when shooting.", {}, dict(hit_mod=1), {}, ""),
    "Targeting Visor": ("When this model shoots at enemies over 9\" away, it gets +1 to hit rolls", {"distance": 18.0}, dict(hit_mod=1), {}, ""),
}

TARGET_RULES = {
    "Plaguebound": ("roll one die for each. On a 6+ it is ignored.", {}, dict(ignore_on=6)),
    "Knightborn": ("roll one die for each. On a 6+ it is ignored.", {}, dict(ignore_on=6)),
    "Self-Repair": ("roll one die for each. On a 6+ it is ignored.", {}, dict(ignore_on=6)),
    "Protected": ("roll one die for each. On a 6+ it is ignored.", {}, dict(ignore_on=6)),
    "Resistance": ("roll one die for each. On a 6+ it is ignored.", {}, dict(ignore_on=6)),
    "Shielded": ("get +1 to defense rolls against hits that are not from spells", {}, dict(defense_mod=1)),
    "Changebound": ("are shot or charged from over 9\" away, enemy units get -1 to hit rolls", {"distance": 18.0}, dict(hit_mod=-1)),
    "Machine-Fog": ("are shot or charged from over 9\" away, enemy units get -1 to hit rolls", {"distance": 18.0}, dict(hit_mod=-1)),
    "Sturdy": ("are shot or charged from over 9\" away, they get +1 to defense rolls", {"distance": 18.0}, dict(defense_mod=1)),
    "Evasive": ("Enemies get -1 to hit rolls when attacking units where all models have this rule.", {}, dict(hit_mod=-1)),
    "Melee Evasion": ("Enemies get -1 to hit rolls in melee", {"melee": True}, dict(hit_mod=-1)),
}


def _first_carrier(real_books, rule, melee):
    for u in carriers(real_books, rule):
        return u
    pytest.skip(f"no real unit carries {rule} on its default loadout")


def _compare(attacker, target, kwargs, ogroups, otarget):
    r = oprstats.attack(attacker, target, **kwargs)
    ref = oracle.attack(ogroups, otarget)
    for stage in ("hits", "unblocked", "wounds", "kills"):
        got, want = getattr(r, stage).pmf, np.asarray(ref[stage])
        n = max(len(got), len(want))
        assert np.allclose(np.pad(got, (0, n - len(got))), np.pad(want, (0, n - len(want))), atol=1e-12), stage


@pytest.mark.parametrize("rule", sorted(ATTACKER_RULES))
def test_attacker_rule_from_a_real_unit_equals_the_oracle(rule, real_books, book_rule_text):
    sentence, kwargs, fields, tough, target_rules = ATTACKER_RULES[rule]
    cite(book_rule_text(rule), sentence)
    real = _first_carrier(real_books, rule, kwargs.get("melee", False))
    melee = kwargs.get("melee", False)
    weapon = '(A2, AP(1))' if melee else '(24", A2, AP(1))'
    # the real unit's Quality and rule, two models, one plain weapon each
    attacker = U(f"{real.name} [2] Q{real.quality}+ D{real.defense}+ | {rule}\n2x Arm {weapon}")
    t = tough.get("tough", 1)
    target = U(f"T [3] Q4+ D4+" + (f" | {target_rules}" if target_rules else ""))
    og = dict(quality=real.quality, ap=1)
    for k, v in fields.items():
        og[k] = og.get(k, 0) + v if k in ("ap", "hit_mod") else v
    _compare(attacker, target, kwargs, [OGroup(4, **og)], OTarget(models(3, tough=t)))


@pytest.mark.parametrize("rule", sorted(TARGET_RULES))
def test_target_rule_from_a_real_unit_equals_the_oracle(rule, real_books, book_rule_text):
    sentence, kwargs, fields = TARGET_RULES[rule]
    cite(book_rule_text(rule), sentence)
    real = _first_carrier(real_books, rule, False)
    melee = kwargs.get("melee", False)
    weapon = '(A2, AP(1))' if melee else '(24", A2, AP(1))'
    attacker = U(f"S [2] Q4+ D4+\n2x Arm {weapon}")
    target = U(f"{real.name} [3] Q{real.quality}+ D{real.defense}+ | {rule}")
    og = dict(quality=4, ap=1, hit_mod=fields.get("hit_mod", 0))
    ot = OTarget(models(3, defense=real.defense), defense_mod=fields.get("defense_mod", 0), ignore_on=fields.get("ignore_on", 7))
    _compare(attacker, target, kwargs, [OGroup(4, **og)], ot)


BOOST_CASES = [
    # (boost, base rule, sentence of the boost's text, oracle fields)
    ("Ferocious Boost", "Ferocious", "deals extra hits on successful unmodified hit results of 5-6 from Ferocious", dict(extra_hits_on_six=1, extra_hits_from=5)),
    ("Devout Boost", "Devout", "deals extra hits on successful unmodified hit results of 5-6 from Devout", dict(extra_hits_on_six=1, extra_hits_from=5)),
    ("Primal Boost", "Primal", "gets extra attacks on successful unmodified hit results of 5-6 from Primal", dict(extra_attack_on_six=True, extra_attack_from=5)),
    ("Clan Warrior Boost", "Clan Warrior", "gets extra attacks on successful unmodified hit results of 5-6", dict(extra_attack_on_six=True, extra_attack_from=5)),
    ("Scrapper Boost", "Scrapper", "must re-roll successful unmodified defense results of 5-6 from Scrapper", dict(reroll_block_from=5)),
    ("Mischievous Boost", "Mischievous", "must re-roll successful unmodified defense results of 5-6", dict(reroll_block_from=5)),
    ("Infected Boost", "Infected", "take extra wounds on failed defense rolls of 1-2 from Infected", dict(shred=1, shred_up_to=2)),
    ("Warbound Boost", "Warbound", "take extra wounds on failed defense rolls of 1-2 from Warbound", dict(shred=1, shred_up_to=2)),
]


@pytest.mark.parametrize("boost,base,sentence,fields", BOOST_CASES, ids=[c[0] for c in BOOST_CASES])
def test_boosts_equal_the_oracle_and_need_their_rule(boost, base, sentence, fields, book_rule_text):
    cite(book_rule_text(boost), sentence)
    target = U("T [3] Q4+ D4+")
    # with its rule
    attacker = U(f'Squad [2] Q3+ D4+ | {base}, {boost}\n2x Gun (24", A2, AP(1))')
    _compare(attacker, target, {}, [OGroup(4, quality=3, ap=1, **fields)], OTarget(models(3)))
    # without it, a Boost does nothing
    alone = oprstats.attack(U(f'Squad [2] Q3+ D4+ | {boost}\n2x Gun (24", A2, AP(1))'), target)
    plain = oprstats.attack(U('Squad [2] Q3+ D4+\n2x Gun (24", A2, AP(1))'), target)
    assert np.allclose(alone.wounds.pmf, plain.wounds.pmf)


def test_plaguebound_boost_ignores_on_five(book_rule_text):
    cite(book_rule_text("Plaguebound Boost"), "they ignore wounds on rolls of 5-6 from Plaguebound (instead of only on 6+)")
    attacker = U('S [2] Q4+ D4+\n2x Gun (24", A2, AP(1))')
    target = U("T [3] Q4+ D4+ | Plaguebound, Plaguebound Boost Aura")
    _compare(attacker, target, {}, [OGroup(4, quality=4, ap=1)], OTarget(models(3), ignore_on=5))


def test_ravage_and_crush(book_rule_text):
    cite(book_rule_text("Ravage"), "roll X dice. For each 6+ the target takes one wound.")
    cite(book_rule_text("Crush"), "roll X dice. For each 6+ the target takes one hit with AP(2).")
    target = U("T [3] Q4+ D3+")
    for rule, fields in (("Ravage(3)", dict(unblockable=True)), ("Crush(3)", dict(ap=2))):
        attacker = U(f"Beast [1] Q4+ D4+ | {rule}\nClaws (A2)")
        _compare(attacker, target, {"melee": True}, [OGroup(2, quality=4), OGroup(3, fixed_need=6, **fields)], OTarget(models(3, defense=3)))


def test_heavy_impact_hits_have_ap_one(book_rule_text):
    cite(book_rule_text("Heavy Impact"), "This model’s Impact hits get AP(1).")
    attacker = U("Rider [1] Q4+ D4+ | Impact(3), Heavy Impact")
    _compare(attacker, U("T [3] Q4+ D4+"), {"melee": True, "charging": True}, [OGroup(3, impact=True, ap=1)], OTarget(models(3)))


def test_bane_in_melee_is_bane_only_in_melee(book_rule_text):
    cite(book_rule_text("Bane in Melee"), "This model gets Bane in melee.")
    target = U("T [3] Q4+ D3+ | Regeneration")
    unit = U('S [2] Q4+ D4+ | Bane in Melee\n2x Blade (A2), 2x Gun (12", A2)')
    _compare(unit, target, {"melee": True}, [OGroup(4, quality=4, bane=True, ignores_regeneration=True)], OTarget(models(3, defense=3, regeneration=True)))
    _compare(unit, target, {"distance": 6.0}, [OGroup(4, quality=4)], OTarget(models(3, defense=3, regeneration=True)))


def test_auras_lend_the_rule_to_the_whole_unit(book_rule_text):
    cite(book_rule_text("Stealth Aura"), "This model and its unit get Stealth.")
    shooter = U('S [2] Q4+ D4+\n2x Gun (24", A2)')
    with_aura = U("T [3] Q4+ D4+\n") .join(U("Hero [1] Q4+ D4+ | Hero, Stealth Aura"))
    _compare(shooter, with_aura, {"distance": 18.0}, [OGroup(4, quality=4, hit_mod=-1)], OTarget(models(3) + [OModel(hero=True)]))


# --- Options: picked by the owner, or rolled -------------------------------------------

def test_versatile_attack_picks_the_better_option_exactly(book_rule_text):
    cite(book_rule_text("Versatile Attack"), "either get AP(+1) when attacking, or get +1 to hit rolls when attacking")
    target = U("T [3] Q4+ D2+")  # against Defense 2+, AP(+1) is worth more than +1 to hit
    unit = U('S [2] Q5+ D4+ | Versatile Attack\n2x Gun (24", A2)')
    r = oprstats.attack(unit, target)
    ap = oracle.attack([OGroup(4, quality=5, ap=1)], OTarget(models(3, defense=2)))
    hit = oracle.attack([OGroup(4, quality=5, hit_mod=1)], OTarget(models(3, defense=2)))
    best = max((ap, hit), key=lambda ref: np.dot(np.arange(len(ref["wounds"])), ref["wounds"]))
    assert np.allclose(r.wounds.pmf[: len(best["wounds"])], best["wounds"], atol=1e-12)
    # Versatile Attack is for the unit's own activation: not when it strikes back
    back = oprstats.attack(U("S [2] Q5+ D4+ | Versatile Attack\n2x Blade (A2)"), target, melee=True, charging=False)
    plain = oprstats.attack(U("S [2] Q5+ D4+\n2x Blade (A2)"), target, melee=True, charging=False)
    assert np.allclose(back.wounds.pmf, plain.wounds.pmf)


def test_unpredictable_fighter_is_the_exact_mixture(book_rule_text):
    cite(book_rule_text("Unpredictable Fighter"), "on a 1-3 they get AP(+1), and on a 4-6 they get +1 to hit rolls instead")
    target = U("T [3] Q4+ D4+")
    r = oprstats.attack(U("S [2] Q4+ D4+ | Unpredictable Fighter\n2x Blade (A2)"), target, melee=True)
    ap = oracle.attack([OGroup(4, quality=4, ap=1)], OTarget(models(3)))
    hit = oracle.attack([OGroup(4, quality=4, hit_mod=1)], OTarget(models(3)))
    for stage in ("hits", "wounds", "kills"):
        n = max(len(ap[stage]), len(hit[stage]))
        mix = 0.5 * np.pad(ap[stage], (0, n - len(ap[stage]))) + 0.5 * np.pad(hit[stage], (0, n - len(hit[stage])))
        got = getattr(r, stage).pmf
        assert np.allclose(np.pad(got, (0, max(0, n - len(got))))[:n], mix, atol=1e-12), stage


def _chi_square(exact_pmf, counts):
    expected = np.asarray(exact_pmf) * counts.sum()
    keep = expected > 5
    obs = np.append(counts[keep], counts[~keep].sum())
    exp = np.append(expected[keep], expected[~keep].sum())
    if exp[-1] == 0:
        obs, exp = obs[:-1], exp[:-1]
    return stats.chisquare(obs, exp * obs.sum() / exp.sum()).pvalue


SAMPLER_CASES = [
    ("unpredictable-fighter", U("S [3] Q4+ D4+ | Unpredictable Fighter\n3x Blade (A2)"), U("T [4] Q4+ D3+ | Tough(2)"), {"melee": True}),
    ("versatile-defense", U('S [3] Q4+ D4+\n3x Gun (24", A2, AP(1))'), U("T [4] Q4+ D4+ | Versatile Defense"), {"distance": 18.0}),
    ("bloodborn-boost", U('S [3] Q4+ D4+ | Clan Warrior, Clan Warrior Boost Aura\n3x Gun (24", A2)'), U("T [4] Q4+ D4+"), {}),
    ("ravage", U("S [1] Q4+ D4+ | Ravage(4)\nClaws (A3)"), U("T [4] Q4+ D3+"), {"melee": True}),
    ("scrapper-boost", U('S [3] Q4+ D4+ | Scrapper, Scrapper Boost Aura\n3x Gun (24", A2)'), U("T [4] Q4+ D2+"), {}),
]


@pytest.mark.parametrize("case", SAMPLER_CASES, ids=[c[0] for c in SAMPLER_CASES])
def test_sampler_agrees_with_the_exact_engine(case):
    """Chi-square on the wounds, 100,000 samples, fixed seed, alpha 0.001."""
    _, a, t, kwargs = case
    exact = oprstats.attack(a, t, **kwargs)
    sampled = oprstats.attack(a, t, method="sample", samples=100_000, seed=14, **kwargs)
    counts = np.rint(sampled.wounds.pmf * 100_000)
    n = max(len(counts), len(exact.wounds.pmf))
    assert _chi_square(np.pad(exact.wounds.pmf, (0, n - len(exact.wounds.pmf))), np.pad(counts, (0, n - len(counts)))) > 1e-3


def test_melee_with_options_sampler_agrees(book_rule_text):
    charger = U("S [4] Q4+ D4+ | Unpredictable Fighter\n4x Blade (A2)")
    defender = U("T [4] Q4+ D4+ | Versatile Defense\n4x Blade (A1)")
    exact = oprstats.melee(charger, defender, distance=12.0)
    sampled = oprstats.melee(charger, defender, distance=12.0, method="sample", samples=100_000, seed=3)
    counts = np.rint(sampled.charger.wounds_caused.pmf * 100_000)
    want = exact.charger.wounds_caused.pmf
    n = max(len(counts), len(want))
    assert _chi_square(np.pad(want, (0, n - len(want))), np.pad(counts, (0, n - len(counts)))) > 1e-3


# --- Morale ------------------------------------------------------------------------------

def test_hive_bond_adds_one_to_morale(book_rule_text):
    cite(book_rule_text("Hive Bond"), "Units where all models have this rule get +1 to morale test rolls.")
    cite(book_rule_text("Hive Bond Boost"), "they get +2 to morale test rolls from Hive Bond (instead of only +1)")
    from oprstats import UnitState

    plain = oprstats.morale(U("T [10] Q5+ D4+"), state=UnitState(models_lost=6)).p_pass
    bond = oprstats.morale(U("T [10] Q5+ D4+ | Hive Bond"), state=UnitState(models_lost=6)).p_pass
    boosted = oprstats.morale(U("T [10] Q5+ D4+ | Hive Bond, Hive Bond Boost Aura"), state=UnitState(models_lost=6)).p_pass
    assert (plain, bond, boosted) == pytest.approx((2 / 6, 3 / 6, 4 / 6))


# --- Offensive buffs and marks on a joined Hero ----------------------------------------------

@pytest.mark.parametrize("rule, given", [
    ("Furious Buff", "Furious"),
    ("Precision Attacks Buff", None),
    ("Bane Mark", "Bane"),
])
def test_a_joined_heros_buff_or_mark_serves_its_whole_unit(book_rule_text, rule, given):
    # "pick one friendly unit within 12", which gets Furious once": the unit the Hero leads
    # picks itself before its own attack, so every model fights with it, not the Hero alone
    text = book_rule_text(rule)
    cite(text, "Once per activation, before attacking, pick one")
    squad = U("Squad [10] Q4+ D4+\n10x Blade (A2)")
    led = squad.join(U(f"Boss [1] Q4+ D4+ | Hero, Tough(3), {rule}\nBlade (A2)"))
    target = U("T [10] Q4+ D2+ | Tough(3)")
    if given is None:
        # +1 to hit rolls for every model: Quality 3+ in all but the name
        everyone = U("Squad [10] Q3+ D4+\n10x Blade (A2)").join(U("Boss [1] Q3+ D4+ | Hero, Tough(3)\nBlade (A2)"))
    else:
        everyone = U(f"Squad [10] Q4+ D4+ | {given}\n10x Blade (A2)").join(U(f"Boss [1] Q4+ D4+ | Hero, Tough(3), {given}\nBlade (A2)"))
    plain = squad.join(U("Boss [1] Q4+ D4+ | Hero, Tough(3)\nBlade (A2)"))
    got = oprstats.attack(led, target, melee=True, charging=True)
    want = oprstats.attack(everyone, target, melee=True, charging=True)
    assert got.hits.mean() == pytest.approx(want.hits.mean()) and got.wounds.mean() == pytest.approx(want.wounds.mean())
    assert got.wounds.mean() > 1.1 * oprstats.attack(plain, target, melee=True, charging=True).wounds.mean()
