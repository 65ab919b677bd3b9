"""The exact engine equals a literal enumeration of every die (tests/oracle.py) on small
cases, to 1e-12, at every stage; and icepool on sums of attacks."""

from __future__ import annotations

import numpy as np
import pytest

import oprstats
from oprstats import Unit

from . import oracle
from .oracle import OGroup, OModel, OTarget


def U(text: str) -> Unit:
    return Unit.parse(text)


def models(n, tough=1, defense=4, regeneration=False):
    return [OModel(tough=tough, defense=defense, regeneration=regeneration) for _ in range(n)]


CAPTAIN = "Captain [1] Q3+ D3+ | Hero, Tough(3)\nSword (A2)"

# (id, attacker, target, attack kwargs, oracle groups, oracle target)
CASES = [
    ("plain", U('S [3] Q4+ D4+\n3x Rifle (24", A1, AP(1))'), U("T [3] Q4+ D4+"), {},
     [OGroup(3, quality=4, ap=1)], OTarget(models(3))),
    ("rending-ignores-regeneration", U('S [1] Q3+ D4+\nClaws (A3, Rending)'), U("T [3] Q4+ D3+ | Regeneration"), {"melee": True},
     [OGroup(3, quality=3, ap_on_six=4, ignores_regeneration=True)], OTarget(models(3, defense=3, regeneration=True))),
    ("regeneration", U('S [1] Q3+ D4+\nClaws (A3, AP(1))'), U("T [2] Q4+ D5+ | Regeneration"), {"melee": True},
     [OGroup(3, quality=3, ap=1)], OTarget(models(2, defense=5, regeneration=True))),
    ("surge", U('S [1] Q3+ D4+\nGun (24", A3, Surge)'), U("T [4] Q4+ D5+"), {},
     [OGroup(3, quality=3, extra_hits_on_six=1)], OTarget(models(4, defense=5))),
    ("blast-capped", U('S [1] Q4+ D4+\nMortar (24", A2, Blast(3))'), U("T [2] Q4+ D4+"), {},
     [OGroup(2, quality=4, blast=3)], OTarget(models(2))),
    ("blast-ignores-cover", U('S [1] Q4+ D4+\nMortar (24", A1, Blast(3))'), U("T [5] Q4+ D4+"), {"cover": True},
     [OGroup(1, quality=4, blast=3)], OTarget(models(5), cover=True)),
    ("cover", U('S [2] Q4+ D4+\n2x Rifle (24", A1)'), U("T [3] Q4+ D4+"), {"cover": True},
     [OGroup(2, quality=4)], OTarget(models(3), cover=True)),
    ("bane", U('S [1] Q4+ D4+\nSpit (18", A3, Bane)'), U("T [3] Q4+ D2+ | Regeneration"), {},
     [OGroup(3, quality=4, bane=True, ignores_regeneration=True)], OTarget(models(3, defense=2, regeneration=True))),
    ("deadly-tough", U('S [1] Q3+ D4+\nFist (A2, AP(2), Deadly(3))'), U("T [3] Q4+ D3+ | Tough(3)"), {"melee": True},
     [OGroup(2, quality=3, ap=2, deadly=3)], OTarget(models(3, tough=3, defense=3))),
    ("tough-carries-over", U('S [4] Q4+ D4+\n4x Gun (24", A1)'), U("T [2] Q4+ D5+ | Tough(3)"), {},
     [OGroup(4, quality=4)], OTarget(models(2, tough=3, defense=5))),
    ("deadly-first-then-rifles-hero-last", U('S [4] Q3+ D4+\n3x Rifle (24", A1, AP(1)), Plasma (24", A1, AP(4), Deadly(3))'),
     U("T [2] Q4+ D4+ | Tough(3)").join(U(CAPTAIN)), {},
     [OGroup(1, quality=3, ap=4, deadly=3), OGroup(3, quality=3, ap=1)],
     OTarget(models(2, tough=3, defense=4) + [OModel(tough=3, defense=3, hero=True)])),
    # The first group can kill both D6+ models; the second then rolls against the hero's own D3+.
    ("hero-defense-after-others-die", U('S [4] Q2+ D4+\n2x Gun (24", A1), 2x Pistol (12", A1)'), U("T [2] Q4+ D6+").join(U(CAPTAIN)),
     {"distance": 6.0}, [OGroup(2, quality=2), OGroup(2, quality=2)],
     OTarget(models(2, defense=6) + [OModel(tough=3, defense=3, hero=True)])),
    ("takedown-picks-the-hero", U('S [1] Q3+ D4+\nSniper (30", A2, AP(1), Takedown), Pistol (12", A2)'),
     U("T [3] Q4+ D5+").join(U(CAPTAIN)), {},
     [OGroup(2, quality=3, ap=1, takedown=True), OGroup(2, quality=3)],
     OTarget(models(3, defense=5) + [OModel(tough=3, defense=3, hero=True)])),
    ("fatigued-melee", U('S [2] Q3+ D4+\n2x Axe (A2, AP(1))'), U("T [3] Q4+ D4+"), {"melee": True, "fatigued": True},
     [OGroup(4, quality=3, ap=1, only_sixes=True)], OTarget(models(3))),
    ("stealth-over-9", U('S [3] Q4+ D4+\n3x Rifle (24", A1)'), U("T [3] Q4+ D4+ | Stealth"), {"distance": 12.0},
     [OGroup(3, quality=4, hit_mod=-1)], OTarget(models(3))),
    ("stealth-within-9", U('S [3] Q4+ D4+\n3x Rifle (24", A1)'), U("T [3] Q4+ D4+ | Stealth"), {"distance": 9.0},
     [OGroup(3, quality=4)], OTarget(models(3))),
    ("unstoppable-ignores-stealth-and-regeneration", U('S [1] Q4+ D4+\nLance (24", A3, Unstoppable)'),
     U("T [3] Q4+ D4+ | Stealth, Regeneration"), {"distance": 18.0},
     [OGroup(3, quality=4, ignores_regeneration=True)], OTarget(models(3, regeneration=True))),
    ("reliable", U('S [2] Q5+ D4+\n2x Flamer (12", A1, Reliable)'), U("T [3] Q4+ D4+"), {"distance": 6.0},
     [OGroup(2, quality=2)], OTarget(models(3))),
    ("shred", U('S [1] Q3+ D4+\nBlade (A3, Shred)'), U("T [3] Q4+ D3+"), {"melee": True},
     [OGroup(3, quality=3, shred=1)], OTarget(models(3, defense=3))),
    ("rupture", U('S [1] Q3+ D4+\nCannon (24", A3, Rupture)'), U("T [2] Q4+ D4+ | Tough(3), Regeneration"), {},
     [OGroup(3, quality=3, rupture=1, ignores_regeneration=True)], OTarget(models(2, tough=3, regeneration=True))),
    ("furious-rending-charging", U('S [1] Q4+ D4+ | Furious\nClaw (A2, Rending)'), U("T [3] Q4+ D3+"), {"melee": True, "charging": True},
     [OGroup(2, quality=4, extra_hits_on_six=1, ap_on_six=4, ignores_regeneration=True)], OTarget(models(3, defense=3))),
    ("relentless-over-9", U('S [1] Q4+ D4+ | Relentless\nGun (24", A3)'), U("T [3] Q4+ D4+"), {"distance": 12.0},
     [OGroup(3, quality=4, extra_hits_on_six=1)], OTarget(models(3))),
    ("thrust-charging", U('S [2] Q4+ D4+\n2x Spear (A1, Thrust)'), U("T [3] Q4+ D4+"), {"melee": True, "charging": True},
     [OGroup(2, quality=4, hit_mod=1, ap=1)], OTarget(models(3))),
    ("artillery-both-ways", U('S [1] Q4+ D4+ | Artillery\nCannon (36", A3, AP(2))'), U("T [1] Q4+ D3+ | Artillery, Tough(6)"), {"distance": 20.0},
     [OGroup(3, quality=4, hit_mod=1 - 2, ap=2)], OTarget([OModel(tough=6, defense=3)])),
    ("indirect-after-moving", U('S [1] Q4+ D4+\nMortar (30", A3, Indirect)'), U("T [3] Q4+ D4+"), {"moved": True},
     [OGroup(3, quality=4, hit_mod=-1)], OTarget(models(3))),
    ("impact-less-counter", U("S [2] Q4+ D4+ | Impact(2)\n2x Hooves (A1)"), U("T [3] Q4+ D4+\n3x Pike (A1, Counter)"), {"melee": True, "charging": True},
     [OGroup(1, impact=True), OGroup(2, quality=4)], OTarget(models(3))),
    ("shielded-army-rule", U('S [3] Q4+ D4+\n3x Rifle (24", A1, AP(1))'), U("T [3] Q4+ D5+ | Shielded"), {},
     [OGroup(3, quality=4, ap=1)], OTarget(models(3, defense=5), defense_mod=1)),
    ("crack-army-rule", U('S [1] Q3+ D4+\nHammer (A3, Crack)'), U("T [2] Q4+ D2+ | Tough(3)"), {"melee": True},
     [OGroup(3, quality=3, ap_on_six=2)], OTarget(models(2, tough=3, defense=2))),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_exact_equals_literal_enumeration(case):
    _, attacker, target, kwargs, ogroups, otarget = case
    r = oprstats.attack(attacker, target, **kwargs)
    ref = oracle.attack(ogroups, otarget)
    for stage in ("hits", "unblocked", "wounds", "kills"):
        got = getattr(r, stage).pmf
        want = np.zeros(max(len(got), len(ref[stage])))
        want[: len(ref[stage])] = ref[stage]
        have = np.zeros_like(want)
        have[: len(got)] = got
        assert np.allclose(have, want, atol=1e-12, rtol=0), f"{stage}: {have} != {want}"
        assert abs(got.sum() - 1.0) < 1e-12


def _matches(case, ogroups, otarget) -> bool:
    _, attacker, target, kwargs, _, _ = case
    r = oprstats.attack(attacker, target, **kwargs)
    ref = oracle.attack(ogroups, otarget)
    for stage in ("hits", "unblocked", "wounds", "kills"):
        got, want = getattr(r, stage).pmf, np.array(ref[stage])
        n = max(got.size, want.size)
        if not np.allclose(np.pad(got, (0, n - got.size)), np.pad(want, (0, n - want.size)), atol=1e-12):
            return False
    return True


def test_the_comparison_catches_a_wrong_rule():
    """Each of these misreadings, given to the oracle, must make the comparison fail."""
    import dataclasses as dc

    by_id = {c[0]: c for c in CASES}
    hero = by_id["hero-defense-after-others-die"]
    wrong_hero = OTarget([dc.replace(m, defense=6) if m.hero else m for m in hero[5].models])
    assert not _matches(hero, hero[4], wrong_hero)
    takedown = by_id["takedown-picks-the-hero"]
    assert not _matches(takedown, [dc.replace(takedown[4][0], takedown=False), takedown[4][1]], takedown[5])
    bane = by_id["bane"]
    assert not _matches(bane, [dc.replace(bane[4][0], bane=False)], bane[5])
    impact = by_id["impact-less-counter"]
    assert not _matches(impact, [dc.replace(impact[4][0], dice=4), impact[4][1]], impact[5])
    blast = by_id["blast-capped"]
    assert not _matches(blast, [dc.replace(blast[4][0], blast=0)], blast[5])


def test_pmfs_sum_to_one_on_real_sized_units():
    squad = U('Squad [10] Q3+ D4+\n9x Rifle (24", A1, AP(1)), Plasma (24", A1, AP(4), Deadly(3)), 10x CCW (A1)')
    target = U("Guards [5] Q4+ D3+ | Tough(3)").join(U("Boss [1] Q3+ D3+ | Hero, Tough(6)\nSword (A3)"))
    r = oprstats.attack(squad, target)
    for d in (r.hits, r.unblocked, r.wounds, r.kills, r.remaining):
        assert abs(d.pmf.sum() - 1.0) < 1e-12
    assert r.kills.pmf.size == 7 and np.all(r.kills.pmf >= 0)


icepool = pytest.importorskip("icepool")


@pytest.mark.parametrize("n", [1, 5, 20, 60])
@pytest.mark.parametrize(
    "quality,defense,ap,extra",
    [(4, 4, 1, ""), (3, 2, 0, ""), (5, 6, 2, ""), (4, 3, 0, ", Rending"), (3, 4, 1, ", Surge")],
)
def test_sum_of_attacks_equals_icepool(n, quality, defense, ap, extra):
    """Wounds from n attacks against a big unit of 1-wound models is a sum of n identical
    dice; icepool computes the same sum independently."""
    d6 = icepool.d6
    rending, surge = "Rending" in extra, "Surge" in extra

    def one_hit(six: bool):
        need = defense + ap + (4 if six and rending else 0)
        return d6.map(lambda b: 0 if b == 6 or (b != 1 and b >= need) else 1)

    def one_attack(face):
        if face == 1 or (face != 6 and face < quality):
            return icepool.Die([0])
        if face == 6:
            wounds = one_hit(True)
            return wounds + one_hit(False) if surge else wounds
        return one_hit(False)

    per_attack = d6.map(one_attack)
    total = n @ per_attack
    want = np.array([float(total.probability(k)) for k in range(total.max_outcome() + 1)])
    shooter = U(f'S [{n}] Q{quality}+ D4+\n{n}x Gun (24", A1' + (f", AP({ap})" if ap else "") + extra + ")")
    r = oprstats.attack(shooter, U(f"Horde [1000] Q5+ D{defense}+"))
    got = np.zeros_like(want)
    got[: r.wounds.pmf.size] = r.wounds.pmf[: want.size]
    assert np.allclose(got, want, atol=1e-12, rtol=0)
    assert np.allclose(r.kills.pmf[: want.size], want, atol=1e-12)
