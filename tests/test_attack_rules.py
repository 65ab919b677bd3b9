"""Each rule of an attack, as gf-3.5-beginners-guide.txt writes it (the sentence is checked
against the text), including the book's own worked examples."""

from __future__ import annotations

from math import comb

import numpy as np
import pytest

import oprstats
from oprstats import Unit

from .conftest import cite

BOOK = "gf-3.5-beginners-guide.txt"


@pytest.fixture(scope="module")
def text(rulebook):
    return rulebook(BOOK)


def U(t: str) -> Unit:
    return Unit.parse(t)


def p_hit(attacker, target, **kw):
    """P(a single attack die hits) from a one-die attack's hits pmf."""
    return oprstats.attack(attacker, target, **kw).hits.at_least(1)


def binom(n, p):
    return np.array([comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)])


def test_quality_tests_and_modifier_extremes(text):
    cite(text, "If you score the model's Quality value or higher, then it counts as a success")
    cite(text, "a roll of 6 always counts as a success and a roll of 1 always counts as a fail, regardless of how much it is being modified by")
    target = U("T [1] Q4+ D6+ | Stealth, Evasive")
    assert p_hit(U('S [1] Q4+ D4+\nGun (24", A1)'), U("T [1] Q4+ D6+")) == pytest.approx(3 / 6)
    # Q6+ with -2 (Stealth over 9", Evasive): only the unmodified 6 still hits
    assert p_hit(U('S [1] Q6+ D4+\nGun (24", A1)'), target, distance=12.0) == pytest.approx(1 / 6)
    # Q2+ with +1 (Precise): the unmodified 1 still fails
    assert p_hit(U('S [1] Q2+ D4+\nGun (24", A1, Precise)'), U("T [1] Q4+ D6+")) == pytest.approx(5 / 6)


def test_reliable_still_modified_and_fatigued(text):
    cite(text, "Models attacks at Quality 2+ with this weapon.")
    cite(text, "Note that Reliable only changes the Quality value, so the roll can still be modified, Fatigue still applies, etc.")
    shooter = U('S [1] Q5+ D4+\nFlamer (12", A1, Reliable)')
    assert p_hit(shooter, U("T [1] Q4+ D6+"), distance=6.0) == pytest.approx(5 / 6)
    assert p_hit(shooter, U("T [1] Q4+ D6+ | Stealth"), distance=10.0) == pytest.approx(4 / 6)
    fighter = U("S [1] Q5+ D4+\nBlade (A1, Reliable)")
    assert p_hit(fighter, U("T [1] Q4+ D6+"), melee=True, fatigued=True) == pytest.approx(1 / 6)


def test_fatigue(text):
    cite(text, "units only hit on unmodified rolls of 6 in melee until the end of that round")
    fighter = U("S [1] Q2+ D4+\nAxe (A1, Thrust)")
    assert p_hit(fighter, U("T [1] Q4+ D6+"), melee=True, fatigued=True, charging=True) == pytest.approx(1 / 6)
    # fatigue is about melee: shooting is unaffected
    assert p_hit(U('S [1] Q3+ D4+\nGun (24", A1)'), U("T [1] Q4+ D6+"), fatigued=True) == pytest.approx(4 / 6)


def test_stealth_and_artillery_over_9(text):
    cite(text, 'When units where all models have this rule are shot from over 9" away, enemy units get -1 to hit rolls.')
    cite(text, 'When this model shoots at enemies over 9" away, it gets +1 to hit rolls. When enemy units shoot at this model from over 9" away, they get -2 to hit rolls.')
    gun = U('S [1] Q4+ D4+\nGun (36", A1)')
    assert p_hit(gun, U("T [2] Q4+ D6+ | Stealth"), distance=9.0) == pytest.approx(3 / 6)
    assert p_hit(gun, U("T [2] Q4+ D6+ | Stealth"), distance=9.5) == pytest.approx(2 / 6)
    assert p_hit(gun, U("T [2] Q4+ D6+ | 1x Cloak(Stealth)"), distance=12.0) == pytest.approx(3 / 6)  # not all models
    assert p_hit(gun, U("T [1] Q4+ D6+ | Artillery"), distance=12.0) == pytest.approx(1 / 6)
    assert p_hit(U('S [1] Q4+ D4+ | Artillery\nGun (36", A1)'), U("T [1] Q4+ D6+"), distance=12.0) == pytest.approx(4 / 6)


def test_indirect_thrust_unstoppable(text):
    cite(text, "Gets -1 to hit rolls when shooting after moving.")
    cite(text, "When charging, gets +1 to hit rolls and AP(+1) in melee.")
    cite(text, "Ignores Regeneration, and ignores all negative modifiers to this weapon.")
    mortar = U('S [1] Q4+ D4+\nMortar (30", A1, Indirect)')
    assert p_hit(mortar, U("T [1] Q4+ D6+"), moved=True) == pytest.approx(2 / 6)
    assert p_hit(mortar, U("T [1] Q4+ D6+")) == pytest.approx(3 / 6)
    spear = U("S [1] Q4+ D4+\nSpear (A1, Thrust)")
    r = oprstats.attack(spear, U("T [1] Q4+ D4+"), melee=True, charging=True)
    assert r.unblocked.at_least(1) == pytest.approx(4 / 6 * 4 / 6)  # hit 3+, block needs 5+
    lance = U('S [1] Q4+ D4+\nLance (24", A1, Unstoppable)')
    assert p_hit(lance, U("T [1] Q4+ D6+ | Stealth, Evasive"), distance=12.0) == pytest.approx(3 / 6)


def test_furious_example(text):
    cite(text, "When charging, unmodified results of 6 to hit in melee deal 1 extra hit (only the original hit counts as a 6 for special rules).")
    cite(text, "A Furious model with a weapon with 1 Attack and Rending scores one hit on a roll of 6, so it deals two hits, of which only the first counts as having AP(+4) because of Rending.")
    model = U("S [1] Q6+ D4+ | Furious\nClaw (A1, Rending)")
    r = oprstats.attack(model, U("T [1] Q4+ D2+ | Tough(9)"), melee=True, charging=True)
    assert r.hits.pmf.tolist() == pytest.approx([5 / 6, 0, 1 / 6])
    # first hit: D2+ with AP(4) blocks only on 6 (5/6 unblocked); second: blocks on 2+ (1/6 unblocked)
    first, second = 5 / 6, 1 / 6
    assert r.unblocked.pmf.tolist() == pytest.approx(
        [5 / 6 + 1 / 6 * (1 - first) * (1 - second), 1 / 6 * (first * (1 - second) + second * (1 - first)), 1 / 6 * first * second]
    )
    # not charging: no extra hit
    assert oprstats.attack(model, U("T [1] Q4+ D2+"), melee=True).hits.max == 1


def test_surge_and_relentless(text):
    cite(text, "On unmodified results of 6 to hit, this weapon deals 1 extra hit")
    cite(text, 'When this model shoots at enemies over 9" away, unmodified results of 6 to hit deal 1 extra hit')
    target = U("T [9] Q4+ D6+")
    assert oprstats.attack(U('S [1] Q6+ D4+\nGun (24", A1, Surge)'), target).hits.pmf.tolist() == pytest.approx([5 / 6, 0, 1 / 6])
    relentless = U('S [1] Q6+ D4+ | Relentless\nGun (24", A1)')
    assert oprstats.attack(relentless, target, distance=12.0).hits.max == 2
    assert oprstats.attack(relentless, target, distance=9.0).hits.max == 1


def test_blast_example(text):
    cite(text, "A weapon with 2 Attacks and Blast(3) scores two hits against a unit with 2 models. Each hit is multiplied by 2, so the target takes a total of 4 hits.")
    cite(text, "Ignores cover, and after resolving other special rules, each hit is multiplied by X, where X is up to as many hits as models in the target unit.")
    r = oprstats.attack(U('S [1] Q4+ D4+\nMortar (24", A2, Blast(3))'), U("T [2] Q4+ D4+"))
    assert r.hits.pmf.tolist() == pytest.approx([1 / 4, 0, 1 / 2, 0, 1 / 4])
    big = oprstats.attack(U('S [1] Q4+ D4+\nMortar (24", A2, Blast(3))'), U("T [10] Q4+ D4+"))
    assert big.hits.max == 6
    # cover does not help against Blast
    in_cover = oprstats.attack(U('S [1] Q4+ D4+\nMortar (24", A2, Blast(3))'), U("T [10] Q4+ D4+"), cover=True)
    assert np.allclose(in_cover.unblocked.pmf, big.unblocked.pmf)


def test_ap_and_cover(text):
    cite(text, "Targets get -X to Defense rolls when blocking hits from weapons with this special rule.")
    cite(text, "they get +1 to Defense rolls when blocking hits from shooting attacks")
    gun = U('S [1] Q2+ D4+\nGun (24", A1, AP(2))')
    p_unblocked = oprstats.attack(gun, U("T [1] Q4+ D3+")).unblocked.at_least(1)
    assert p_unblocked == pytest.approx(5 / 6 * 4 / 6)  # D3+ with AP(2): blocks on 5+
    in_cover = oprstats.attack(gun, U("T [1] Q4+ D3+"), cover=True).unblocked.at_least(1)
    assert in_cover == pytest.approx(5 / 6 * 3 / 6)


def test_rending(text):
    cite(text, "Ignores Regeneration, and on unmodified results of 6 to hit, those hits get AP(+4).")
    r = oprstats.attack(U("S [1] Q6+ D4+\nClaw (A1, Rending)"), U("T [1] Q4+ D2+"), melee=True)
    assert r.unblocked.at_least(1) == pytest.approx(1 / 6 * 5 / 6)


def test_bane_note(text):
    cite(text, "Ignores Regeneration, and when attacking the target must re-roll unmodified Defense results of 6.")
    cite(text, "Note that a die roll may only be re-rolled once, so if another 6 is rolled after re-rolling Defense, then the hit is blocked.")
    r = oprstats.attack(U('S [1] Q2+ D4+\nSpit (18", A1, Bane)'), U("T [1] Q4+ D2+ | Regeneration"))
    blocked = 4 / 6 + 1 / 6 * 5 / 6  # 2-5 block; a 6 is re-rolled and blocks on 2+
    assert r.wounds.at_least(1) == pytest.approx(5 / 6 * (1 - blocked))


def test_regeneration(text):
    cite(text, "When a unit where all models have this rule takes wounds, roll one die for each. On a 5+ it is ignored.")
    gun = U('S [1] Q2+ D4+\nGun (24", A1, AP(4))')  # blocks only on 6
    assert oprstats.attack(gun, U("T [2] Q4+ D2+ | Regeneration")).wounds.at_least(1) == pytest.approx(5 / 6 * 5 / 6 * 4 / 6)
    # a joined hero without it: not all models have it
    joined = U("T [2] Q4+ D2+ | Regeneration").join(U("H [1] Q4+ D2+ | Hero, Tough(3)"))
    assert oprstats.attack(gun, joined).wounds.at_least(1) == pytest.approx(5 / 6 * 5 / 6)


def test_deadly_does_not_carry_over(text):
    cite(text, "Assign each wound to one model, and multiply it by X. Hits from Deadly must be resolved first, and these wounds don't carry over to other models if the original target is killed.")
    r = oprstats.attack(U("S [1] Q2+ D4+\nFist (A1, AP(4), Deadly(6))"), U("T [2] Q4+ D2+ | Tough(3)"), melee=True)
    assert r.kills.max == 1 and r.wounds.max == 6


def test_tough_wounds_stay_on_the_most_wounded_model(text):
    cite(text, "You must continue to put wounds on the tough model with most wounds in the unit until it is killed")
    r = oprstats.attack(U('S [6] Q2+ D4+\n6x Gun (24", A1, AP(4))'), U("T [2] Q4+ D2+ | Tough(3)"))
    w = r.wounds.pmf
    assert r.kills.pmf[0] == pytest.approx(w[:3].sum())
    assert r.kills.pmf[1] == pytest.approx(w[3:6].sum())
    assert r.kills.pmf[2] == pytest.approx(w[6:].sum())


def test_joined_hero_removed_last_with_the_units_defense(text):
    cite(text, "heroes must be assigned wounds last, even if already wounded")
    cite(text, "must use the unit's Defense until all other models have been killed")
    unit = U("T [3] Q4+ D6+").join(U("H [1] Q3+ D2+ | Hero, Tough(3)\nSword (A2)"))
    gun = U('S [1] Q2+ D4+\nGun (24", A6)')
    r = oprstats.attack(gun, unit)
    # one group: every hit is blocked on D6+ (the unit's Defense); 6 wounds kill everyone
    assert r.unblocked.pmf.tolist() == pytest.approx(binom(6, 5 / 6 * 5 / 6).tolist())
    assert r.p_destroyed == pytest.approx(r.wounds.pmf[6])


def test_takedown_example(text):
    cite(text, "This model may pick any model in the target unit as its individual target, which is resolved as if it was a unit of [1].")
    cite(text, "A Hero with Stealth in a unit without Stealth is targeted by a Takedown weapon. Since it's resolved as a unit of [1], the attacker gets -1 to hit from Stealth.")
    sniper = U('S [1] Q3+ D4+\nSniper (30", A1, Takedown)')
    stealthy = U("T [5] Q4+ D5+").join(U("H [1] Q3+ D4+ | Hero, Tough(3), Stealth\nSword (A2)"))
    plain = U("T [5] Q4+ D5+").join(U("H [1] Q3+ D4+ | Hero, Tough(3)\nSword (A2)"))
    assert p_hit(sniper, stealthy, distance=12.0) == pytest.approx(3 / 6)
    assert p_hit(sniper, plain, distance=12.0) == pytest.approx(4 / 6)
    # the hero's own Defense (a unit of [1]), and no model of the unit dies
    r = oprstats.attack(U('S [1] Q2+ D4+\nSniper (30", A3, Takedown, Deadly(3))'), plain, distance=12.0)
    assert r.kills.max == 1 and r.kills.pmf[1] == pytest.approx(1 - (1 - 5 / 6 * 3 / 6) ** 3)


def test_impact_and_the_counter_example(text):
    cite(text, "Roll X dice when attacking after charging, unless fatigued. For each 2+ the target takes one hit.")
    cite(text, "A model with Impact(3) charges a unit with 1 model that has Counter, so it only makes 2 Impact rolls.")
    beast = U("Beast [1] Q4+ D4+ | Impact(3)")
    r = oprstats.attack(beast, U("T [1] Q4+ D4+ | Tough(6)\nPike (A1, Counter)"), melee=True, charging=True)
    assert r.groups == (("Impact(2)", 2),)
    assert r.hits.pmf.tolist() == pytest.approx(binom(2, 5 / 6).tolist())
    assert oprstats.attack(beast, U("T [1] Q4+ D4+"), melee=True, charging=True, fatigued=True).hits.max == 0
    assert oprstats.attack(beast, U("T [1] Q4+ D4+"), melee=True).hits.max == 0


def test_weapon_groups_and_range():
    squad = U('S [5] Q4+ D4+\n4x Rifle (24", A1), Pistol (12", A2), 5x CCW (A1)')
    target = U("T [10] Q4+ D4+")
    assert [g for g, _ in oprstats.attack(squad, target, distance=18.0).groups] == ['Rifle (24", A1)']
    assert len(oprstats.attack(squad, target, distance=12.0).groups) == 2
    assert oprstats.attack(squad, target, melee=True).groups == (("CCW (A1)", 5),)
    assert oprstats.attack(squad, target, weapons=["Pistol"], distance=6.0).groups == (('Pistol (12", A2)', 2),)


def test_distribution_accessors():
    r = oprstats.attack(U('S [4] Q4+ D4+\n4x Gun (24", A1)'), U("T [10] Q4+ D6+"))
    d = r.hits
    expect = binom(4, 0.5)
    assert np.allclose(d.pmf, expect) and np.allclose(np.asarray(d), expect)
    assert d.mean() == pytest.approx(2.0) and d.var() == pytest.approx(1.0) and d.std() == pytest.approx(1.0)
    assert d.cdf(1) == pytest.approx(5 / 16) and d.at_least(3) == pytest.approx(5 / 16)
    assert d.at_least(0) == 1.0 and d.at_least(9) == 0.0 and d[2] == pytest.approx(6 / 16) and d[7] == 0.0
    assert d.quantile(0.5) == 2 and d.quantile(0.0) == 0 and d.quantile(1.0) == 4
    assert d.stderr is None and d.samples is None
    with pytest.raises(ValueError):
        d.pmf[0] = 1.0  # results are read-only values
    assert list(r.to_pandas().columns) == ["hits", "unblocked", "wounds", "kills", "remaining"]
    assert r.remaining.pmf.tolist() == r.kills.pmf[::-1].tolist()


class TestBadInput:
    squad = U('S [5] Q4+ D4+\n5x Rifle (24", A1)')
    target = U("T [5] Q4+ D4+")

    def test_errors(self):
        with pytest.raises(ValueError, match="distance: must be 0 or more"):
            oprstats.attack(self.squad, self.target, distance=-1)
        with pytest.raises(TypeError, match="distance"):
            oprstats.attack(self.squad, self.target, distance=float("nan"))
        with pytest.raises(ValueError, match=r'weapons: S has no such weapon.*got "Laser"'):
            oprstats.attack(self.squad, self.target, weapons=["Laser"])
        with pytest.raises(TypeError, match="weapons"):
            oprstats.attack(self.squad, self.target, weapons="Rifle")
        with pytest.raises(TypeError, match="attacker: expected a Unit"):
            oprstats.attack("squad", self.target)
        with pytest.raises(ValueError, match="method"):
            oprstats.attack(self.squad, self.target, method="guess")
        with pytest.raises(ValueError, match="samples"):
            oprstats.attack(self.squad, self.target, method="sample", samples=0)
        with pytest.raises(ValueError, match="unknown edition"):
            oprstats.attack(self.squad, self.target, edition="40k")
        with pytest.raises(TypeError, match="charging"):
            oprstats.attack(self.squad, self.target, charging="yes")

    def test_huge_attacks_are_refused_with_the_limit(self):
        horde = U('H [1000] Q4+ D4+\n1000x Gun (24", A10)')
        with pytest.raises(ValueError, match="attack dice: 10000 is over the limit of 5000"):
            oprstats.attack(horde, self.target)


def test_limited_weapons_are_used_unless_left_out(text):
    cite(text, "Weapons with this rule may only be used once per game.")
    unit = U('S [1] Q4+ D4+\nMissile (24", A1, AP(2), Limited), Gun (24", A2)')
    target = U("T [5] Q4+ D4+")
    assert len(oprstats.attack(unit, target).groups) == 2  # this attack may be its one use
    assert oprstats.attack(unit, target, weapons=["Gun"]).groups == (('Gun (24", A2)', 2),)


def test_rules_the_engine_does_not_model_are_reported():
    unit = U('S [3] Q4+ D4+ | Hive Bond, Fearless, Mend\n3x Gun (24", A1, Shred, Strafing)')
    r = oprstats.attack(unit, U("T [5] Q4+ D4+ | Battleborn, Regeneration"))
    # Shred, Regeneration and Hive Bond (morale) are modelled; Battleborn acts only in games;
    # Strafing is played: "This weapon may only be used in this way" (moving through units)
    assert set(r.unmodelled) == {"Mend"}
    assert r.hits.mean() == 0
