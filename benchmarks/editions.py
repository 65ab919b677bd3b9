"""Benchmark: the attack and melee benchmarks in every edition, v3.5 as the reference in the
same run (the other editions should hold its figures).

Attack: a 10-model squad with rifles and a Deadly(3) plasma gun against 5 Tough(3) guards
(joined by a Tough(6) hero outside Firefight, where heroes never join), exact, from Python;
and the sampler's attack dice per second (20 x A2 AP(1) shooters on 20 Tough(3) models).
Melee: the issue-4 exchange (10 x A2 AP(1), Tough(3) hero, against 5 Tough(3) D3+ with
Counter and Fear), exact from Python, and exchanges per second sampled on 2 threads.

    python benchmarks/editions.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import oprstats  # noqa: E402
from oprstats import Unit  # noqa: E402

from benchmarks.attack import per_call  # noqa: E402

EDITIONS = ("3.5", "3.4.1", "2", "firefight-3.2")


def units(edition):
    p = lambda t: Unit.parse(t, edition=edition)
    hero = edition != "firefight-3.2"
    fear = "Fear" if edition == "2" else "Fear(1)"
    counter = "" if edition == "2" else ", Counter"
    squad = p('Squad [10] Q3+ D4+\n9x Rifle (24", A1, AP(1)), Plasma Gun (24", A1, AP(4), Deadly(3))')
    guards = p("Guards [5] Q4+ D3+ | Tough(3)")
    charger = p("Squad [10] Q4+ D4+\n10x Hand Weapon (A2, AP(1))")
    if hero:
        guards = guards.join(p("Warden [1] Q3+ D3+ | Hero, Tough(6)\nSword (A3)"), edition=edition)
        charger = charger.join(p("Captain [1] Q3+ D4+ | Hero, Tough(3)\nHand Weapon (A2, AP(1))"), edition=edition)
    defender = p(f"Guards [5] Q4+ D3+ | Tough(3), {fear}\n5x Halberd (A2{counter})")
    big = p('Mob [20] Q4+ D5+\n20x Shoota (18", A2, AP(1))')
    orcs = p("Boyz [20] Q5+ D5+ | Tough(3)")
    return squad, guards, charger, defender, big, orcs


def main() -> int:
    rows = {}
    for ed in EDITIONS:
        squad, guards, charger, defender, big, orcs = units(ed)
        attack_us = per_call(lambda: oprstats.attack(squad, guards, edition=ed)) * 1e6
        start = time.perf_counter()
        r = oprstats.attack(big, orcs, edition=ed, method="sample", samples=500_000, seed=1, threads=2)
        dice_rate = r.dice / (time.perf_counter() - start) / 1e6
        melee_us = per_call(lambda: oprstats.melee(charger, defender, edition=ed)) * 1e6
        start = time.perf_counter()
        oprstats.melee(charger, defender, edition=ed, method="sample", samples=500_000, seed=1, threads=2)
        melee_rate = 500_000 / (time.perf_counter() - start) / 1e6
        rows[ed] = (attack_us, dice_rate, melee_us, melee_rate)
    base = rows["3.5"]
    print(f"{'edition':>14} | {'attack exact':>16} | {'attack sampler':>20} | {'melee exact':>16} | {'melee sampler':>22}")
    for ed, (a, d, m, s) in rows.items():
        print(f"{ed:>14} | {a:7.1f} us {a / base[0]:4.2f}x | {d:6.1f} M dice/s {d / base[1]:4.2f}x | "
              f"{m:7.1f} us {m / base[2]:4.2f}x | {s:5.2f} M exch./s {s / base[3]:4.2f}x")
    print("(ratios against v3.5 measured in this run; targets from the attack and melee issues:"
          " attack < 50 us, melee < 200 us, > 1 M exchanges/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
