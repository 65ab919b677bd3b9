"""Each rule of melee, melee resolution and morale, as gf-3.5-beginners-guide.txt writes it
(the sentence is checked against the text), including the book's own examples."""

from __future__ import annotations

import numpy as np
import pytest

import oprstats
from oprstats import UnitState

from .conftest import cite
from .test_attack_rules import U, text  # noqa: F401  (the v3.5 rulebook fixture and the notation helper)


def p_fail(quality: int) -> float:
    return (quality - 1) / 6


# --- Morale tests ------------------------------------------------------------------------

def test_a_morale_test_is_a_quality_test(text):
    cite(text, "To take a morale test, the affected unit must simply take one regular Quality test, and see what happens")
    cite(text, "If the test is failed, the unit is Shaken.")
    for q in (2, 3, 4, 5, 6):
        r = oprstats.morale(U(f"T [5] Q{q}+ D4+"))
        assert r.p_pass == pytest.approx(1 - p_fail(q), abs=1e-15)
        assert r.p_shaken == pytest.approx(p_fail(q), abs=1e-15) and r.p_routed == 0


def test_failed_melee_test_routs_at_half_strength_or_less(text):
    cite(text, "If the test is failed, and the unit only has half or less of its starting size or tough value (for units with a single model), then the unit Routs.")
    cite(text, "A unit of 10 Dwarves has lost 5 models in melee and must take a morale test. The unit takes a morale test and fails, so it routs (as it only has half as many models left as it started with).")
    dwarves = U("Dwarves [10] Q4+ D4+")
    half = oprstats.morale(dwarves, state=UnitState(models_lost=5), melee=True)
    assert half.at_half_or_less and half.p_routed == pytest.approx(0.5) and half.p_shaken == 0
    over = oprstats.morale(dwarves, state=UnitState(models_lost=4), melee=True)
    assert not over.at_half_or_less and over.p_shaken == pytest.approx(0.5) and over.p_routed == 0
    # outside melee a failure only Shakes
    assert oprstats.morale(dwarves, state=UnitState(models_lost=5)).p_routed == 0
    # a single model: its Tough value ("tough value (for units with a single model)")
    monster = U("Beast [1] Q4+ D4+ | Tough(6)")
    assert oprstats.morale(monster, state=UnitState(wounds=2), melee=True).p_routed == 0
    assert oprstats.morale(monster, state=UnitState(wounds=3), melee=True).p_routed == pytest.approx(0.5)


def test_shaken_units_always_fail(text):
    cite(text, "Shaken units must stay idle, but may strike back counting as fatigued, always fail morale tests, and can't seize or contest objectives.")
    assert oprstats.morale(U("T [5] Q2+ D4+"), state=UnitState(shaken=True)).p_pass == 0


def test_fearless(text):
    cite(text, "When a unit where all models have this rule fails a morale test, roll one die. On a 4+ it counts as passed instead.")
    assert oprstats.morale(U("T [5] Q5+ D4+ | Fearless")).p_pass == pytest.approx(2 / 6 + 4 / 6 * 3 / 6)
    # a Shaken unit fails, and its failure is a failed test, so Fearless still rolls (docs/rules.md)
    assert oprstats.morale(U("T [5] Q5+ D4+ | Fearless"), state=UnitState(shaken=True)).p_pass == pytest.approx(0.5)
    # not when only some models have it
    mixed = U("T [5] Q5+ D4+").join(U("Boss [1] Q5+ D4+ | Hero, Tough(3), Fearless"))
    assert oprstats.morale(mixed).p_pass == pytest.approx(2 / 6)
    # ... until the only models left have it
    assert oprstats.morale(mixed, state=UnitState(models_lost=5)).p_pass == pytest.approx(2 / 3)


def test_hero_takes_the_test_for_the_unit(text):
    cite(text, "The hero may take morale tests on behalf of the unit, but must use the unit's Defense until all other models have been killed.")
    cite(text, "A Hero joins a unit of [5] models, so the unit's size is [6]. Once all other models have been killed, the Hero must take a morale test whenever it takes wounds, and if it fails a morale test in melee it will Rout, because it's a unit with half or less of its starting size.")
    unit = U("Recruits [5] Q5+ D5+").join(U("Captain [1] Q3+ D3+ | Hero, Tough(3)"))
    assert oprstats.morale(unit).p_pass == pytest.approx(4 / 6)
    # the hero dead (out of order, by Takedown): the unit tests on its own Quality
    assert oprstats.morale(unit, state=UnitState(hero_wounds=3)).p_pass == pytest.approx(2 / 6)
    alone = oprstats.morale(unit, state=UnitState(models_lost=5), melee=True)
    assert alone.p_routed == pytest.approx(2 / 6) and alone.p_shaken == 0
    # a wounded lone hero tests after shooting whenever it takes wounds
    gun = U('Gunner [1] Q4+ D4+\nGun (24", A1)')
    r = oprstats.attack(gun, unit, target_state=UnitState(models_lost=5))
    assert r.p_morale_test == pytest.approx(r.wounds.at_least(1) - r.p_destroyed, abs=1e-15)


# --- Morale after shooting ---------------------------------------------------------------

def test_general_morale_test_at_half_strength(text):
    cite(text, "At the end of an activation in which a unit takes wounds that leave it with half or less of its starting size or tough value (for units with a single model), it must take a morale test.")
    cite(text, "A unit of Dynasty Warriors shoots at a unit of Dwarves that started the game with 10 models, and manages to kill 5. Since half of the Dwarves were killed, the unit must take a morale test.")
    dwarves = U("Dwarves [10] Q4+ D4+")
    shooters = U('Warriors [10] Q4+ D4+\n10x Rifle (24", A2, AP(1))')
    r = oprstats.attack(shooters, dwarves)
    assert r.p_morale_test == pytest.approx(r.kills.pmf[5:10].sum(), abs=1e-15)  # destroyed units don't test
    assert r.p_shaken == pytest.approx(r.p_morale_test * 0.5, abs=1e-15)
    # already at half: any wound means a test, no wound none
    r = oprstats.attack(shooters, dwarves, target_state=UnitState(models_lost=6))
    assert r.p_morale_test == pytest.approx(r.wounds.at_least(1) - r.p_destroyed, abs=1e-15)
    # a Shaken target stays Shaken
    r = oprstats.attack(shooters, dwarves, target_state=UnitState(shaken=True))
    assert r.p_shaken == pytest.approx(1 - r.p_destroyed, abs=1e-15)
    # melee attacks leave morale to melee resolution
    assert oprstats.attack(shooters, dwarves, melee=True).p_morale_test is None


def test_states_chain_shooting_into_a_charge():
    """The target's states after shooting, weighted, give the charge that follows."""
    shooters = U('Warriors [5] Q4+ D4+\n5x Rifle (24", A1)')
    target = U("Dwarves [5] Q4+ D4+\n5x Axe (A1)")
    charger = U("Raiders [5] Q4+ D4+\n5x Blade (A2)")
    shot = oprstats.attack(shooters, target)
    total = shot.p_destroyed  # a destroyed target is not charged: count it as a charger win
    for state, p in shot.states:
        total += p * oprstats.melee(charger, target, defender_state=state).p_charger_wins
    assert 0 < total < 1
    assert sum(p for _, p in shot.states) == pytest.approx(1 - shot.p_destroyed, abs=1e-12)
    assert all(s.models_lost < 5 and not s.fatigued for s, _ in shot.states)


# --- The melee -----------------------------------------------------------------------------

def test_counter_strikes_first(text):
    cite(text, "Strikes first with this weapon when charged, and the charging unit gets -1 total Impact rolls per model with Counter.")
    charger = U("Knight [1] Q4+ D4+\nLance (A2)")
    defender = U("Pikes [3] Q4+ D4+\n3x Pike (A1, Counter)")
    m = oprstats.melee(charger, defender)
    p_killed_first = oprstats.attack(defender, charger, melee=True).p_destroyed
    strike = oprstats.attack(charger, defender, melee=True, charging=True)
    # the charger deals nothing when the Counter strike killed it first
    assert m.charger.wounds_caused.pmf[0] == pytest.approx(p_killed_first + (1 - p_killed_first) * strike.wounds.pmf[0], abs=1e-15)
    # a Counter weapon strikes once: the strike back has nothing left to strike with
    assert 1 - m.defender.wounds_caused.pmf[0] == pytest.approx(p_killed_first, abs=1e-15)


def test_the_defender_strikes_back_with_its_survivors(text):
    cite(text, "Once all charging models have attacked, the defending unit may choose to strike back (following the melee sequence again), but doesn't have to.")
    charger = U("C [3] Q3+ D4+\n3x Axe (A2, AP(1))")
    defender = U("D [3] Q4+ D4+\n3x Club (A1)")
    m = oprstats.melee(charger, defender)
    charge = oprstats.attack(charger, defender, melee=True, charging=True)
    # the defender's wounds given the models it has left, weighted by how many it has left
    want = np.zeros(4)
    for lost, p in enumerate(charge.kills.pmf):
        if 3 - lost:
            back = oprstats.attack(defender, charger, melee=True, target_state=None, attacker_state=UnitState(models_lost=lost))
            want[: back.wounds.pmf.size] += p * back.wounds.pmf
        else:
            want[0] += p
    assert np.allclose(m.defender.wounds_caused.pmf, want[: m.defender.wounds_caused.pmf.size], atol=1e-15)
    none = oprstats.melee(charger, defender, strike_back=False)
    assert none.defender.wounds_caused.pmf.tolist() == [1.0]
    # "if a unit didn't strike back in melee, then it must only take a morale test if it suffered at least one wound"
    cite(text, "This means that if a unit didn't strike back in melee, then it must only take a morale test if it suffered at least one wound.")
    assert none.p_tie == pytest.approx(charge.wounds.pmf[0], abs=1e-15)
    assert none.p_defender_wins == 0


def test_fatigue(text):
    cite(text, "After attacking in melee for the first time during a round, either by charging or by striking back, units only hit on unmodified rolls of 6 in melee until the end of that round.")
    cite(text, "Roll X dice when attacking after charging, unless fatigued. For each 2+ the target takes one hit.")
    charger = U("C [2] Q3+ D4+ | Impact(2)\n2x CCW (A2)")
    defender = U("D [5] Q4+ D4+")
    tired = oprstats.melee(charger, defender, charger_fatigued=True)
    alone = oprstats.attack(charger, defender, melee=True, charging=True, fatigued=True)
    assert alone.groups == (("CCW (A2)", 4),)  # no Impact dice when fatigued
    assert np.allclose(tired.charger.wounds_caused.pmf, alone.wounds.pmf, atol=1e-15)
    # both sides have fought this round afterwards
    assert all(s.fatigued for s, _ in tired.charger.states)
    fresh = oprstats.melee(charger, U("D [5] Q4+ D4+\n5x CCW (A1)"))
    assert all(s.fatigued for s, _ in fresh.defender.states)
    # a Shaken defender strikes back counting as fatigued
    defender = U("D [5] Q3+ D4+\n5x CCW (A2)")
    shaken = oprstats.melee(charger, defender, defender_state=UnitState(shaken=True))
    fatigued = oprstats.melee(charger, defender, defender_fatigued=True)
    assert np.allclose(shaken.defender.wounds_caused.pmf, fatigued.defender.wounds_caused.pmf, atol=1e-15)


# --- Melee resolution ----------------------------------------------------------------------

def test_melee_resolution_by_wounds_and_fear(text):
    cite(text, "Sum the total number of wounds that each unit caused, and compare the two. If one unit caused more wounds than the other, then it counts as the winner, and the opposing unit must take a morale test.")
    cite(text, "The Dynasty Warriors inflict 2 wounds in that melee, whilst the Dwarves only inflict 1 wound. Since the Dynasty Warriors caused more wounds, the Dwarves have lost and must take a morale test.")
    cite(text, "This model counts as having dealt +X wounds when checking who won melee.")
    # The example's 2 wounds against 1, dealt for certain through Fear: the Dwarves lose and test.
    warriors = U("Dynasty Warriors [5] Q4+ D4+ | Fear(2)")
    warriors_one = U("Dynasty Warriors [1] Q4+ D4+ | Fear(2)")
    dwarves_one = U("Dwarves [1] Q4+ D4+ | Fear(1)")
    m = oprstats.melee(warriors_one, dwarves_one)
    assert m.p_charger_wins == 1
    assert m.defender.p_shaken == pytest.approx(0.5) and m.charger.p_unaffected == 1
    # Fear counts per model: five models with Fear(2)
    m = oprstats.melee(warriors, U("Dwarves [1] Q4+ D4+ | Fear(9)"))
    assert m.p_charger_wins == 1


def test_a_tie_means_no_test(text):
    cite(text, "If the units are tied for how many wounds they caused, or neither unit caused any wounds, then the melee is a tie and neither unit must take a morale test.")
    m = oprstats.melee(U("C [5] Q4+ D4+"), U("D [5] Q4+ D4+"))
    assert m.p_tie == 1 and m.charger.p_unaffected == 1 and m.defender.p_unaffected == 1
    m = oprstats.melee(U("C [1] Q4+ D4+ | Fear(1)"), U("D [1] Q4+ D4+ | Fear(1)"))
    assert m.p_tie == 1


def test_a_destroyed_unit_always_loses(text):
    cite(text, "Note that units that are destroyed in melee always count as having lost, and their opponent doesn't have to take a morale test, even if it dealt less wounds, or it previously took wounds that would have otherwise caused a morale test.")
    charger = U("C [1] Q4+ D4+\nSword (A3)")
    defender = U("D [1] Q4+ D4+ | Fear(5)")
    m = oprstats.melee(charger, defender)
    # Fear(5) beats any 3 attacks, unless the defender is destroyed
    assert m.p_charger_wins == pytest.approx(m.defender.p_destroyed, abs=1e-15)
    assert m.charger.p_shaken == pytest.approx((1 - m.defender.p_destroyed) * 0.5, abs=1e-15)


def test_only_the_loser_tests_regardless_of_casualties(text):
    cite(text, "Note that in melee only the loser takes a morale test, regardless of casualties.")
    # the charger wins on Fear while losing models: it never tests
    charger = U("C [4] Q4+ D6+ | Fear(9)\n4x CCW (A1)")
    defender = U("D [5] Q3+ D4+\n5x CCW (A3)")
    m = oprstats.melee(charger, defender)
    assert m.charger.p_shaken == 0 and m.charger.p_routed == 0
    assert m.charger.lost.mean() > 1


def test_rout_after_losing_in_melee(text):
    cite(text, "If the test is failed, and the unit still has over half or more of its starting size or tough value (for units with a single model), then the unit is Shaken.")
    charger = U("C [1] Q4+ D4+ | Fear(3)")
    defender = U("D [10] Q4+ D4+")
    for lost, routs in ((4, False), (5, True)):
        m = oprstats.melee(charger, defender, defender_state=UnitState(models_lost=lost))
        assert m.p_charger_wins == 1
        assert (m.defender.p_routed, m.defender.p_shaken) == ((0.5, 0.0) if routs else (0.0, 0.5))
    # a Shaken loser always fails
    m = oprstats.melee(charger, defender, defender_state=UnitState(models_lost=4, shaken=True))
    assert m.defender.p_shaken == 1
    m = oprstats.melee(charger, defender, defender_state=UnitState(models_lost=5, shaken=True))
    assert m.defender.p_routed == 1


# --- Bad input -----------------------------------------------------------------------------

class TestBadInput:
    unit = U("T [5] Q4+ D4+ | Tough(3)\n5x CCW (A1)")

    def test_states(self):
        with pytest.raises(ValueError, match="models_lost"):
            oprstats.melee(self.unit, self.unit, defender_state=UnitState(models_lost=5))
        with pytest.raises(ValueError, match="wounds.*Tough\\(3\\)"):
            oprstats.melee(self.unit, self.unit, charger_state=UnitState(wounds=3))
        with pytest.raises(ValueError, match="models_lost: must be 0 or more"):
            UnitState(models_lost=-1)
        with pytest.raises(TypeError, match="wounds: expected an int"):
            UnitState(wounds=1.5)
        with pytest.raises(TypeError, match="shaken: expected True or False"):
            UnitState(shaken="yes")
        with pytest.raises(ValueError, match="hero_wounds.*no joined hero"):
            oprstats.morale(self.unit, state=UnitState(hero_wounds=1))
        with pytest.raises(ValueError, match="charger_state.shaken"):
            oprstats.melee(self.unit, self.unit, charger_state=UnitState(shaken=True))
        with pytest.raises(ValueError, match="attacker_state.shaken"):
            oprstats.attack(self.unit, self.unit, attacker_state=UnitState(shaken=True))
        with pytest.raises(TypeError, match="defender_state: expected an oprstats.UnitState"):
            oprstats.melee(self.unit, self.unit, defender_state=(1, 0))

    def test_arguments(self):
        with pytest.raises(ValueError, match="strike_back"):
            oprstats.melee(self.unit, self.unit, strike_back="sometimes")
        with pytest.raises(TypeError, match="charger: expected a Unit"):
            oprstats.melee("unit", self.unit)
        with pytest.raises(ValueError, match="method"):
            oprstats.melee(self.unit, self.unit, method="guess")
        with pytest.raises(ValueError, match="samples"):
            oprstats.melee(self.unit, self.unit, method="sample", samples=0)
        with pytest.raises(ValueError, match="distance"):
            oprstats.melee(self.unit, self.unit, distance=-1)
        with pytest.raises(TypeError, match="melee: expected True or False"):
            oprstats.morale(self.unit, melee="yes")

    def test_a_charger_without_melee_weapons_only_has_impact(self):
        beast = U("Beast [1] Q4+ D4+ | Tough(3), Impact(3)")
        m = oprstats.melee(beast, self.unit, strike_back=False)
        impact = oprstats.attack(beast, self.unit, melee=True, charging=True)
        assert impact.groups == (("Impact(3)", 3),)
        assert np.allclose(m.charger.wounds_caused.pmf, impact.wounds.pmf, atol=1e-15)

    def test_huge_melees_are_refused_by_the_exact_engine(self):
        big = U("Horde [1000] Q4+ D4+ | Tough(20)\n1000x CCW (A1)")
        with pytest.raises(ValueError, match="exact melee state pairs.*over the limit"):
            oprstats.melee(big, big)
        m = oprstats.melee(big, big, method="sample", samples=200, seed=1)
        assert m.models_left.shape == (1001, 1001) and m.models_left.sum() == pytest.approx(1)
