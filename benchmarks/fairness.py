"""Fairness report over every real unit (the issue's target: under 2 seconds), with its
parts, and efficiency against the panel; figures are medians of repeated runs.

    python benchmarks/fairness.py

The reference in the same run: the same report computed with the full exact attack engine
(one `attack()` per weapon and target) instead of the cost features' expectations.
"""

from __future__ import annotations

import statistics
import time
from pathlib import Path

import oprstats
from oprstats import CostModel
from oprstats._points import _Terms

BOOKS = Path(__file__).resolve().parents[2] / "shared" / "data" / "opr" / "grimdark-future" / "3.5.1"


def timed(f, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    paths = sorted(BOOKS.glob("*.json"))
    load = timed(lambda: [oprstats.load_army_book(p) for p in paths], 3)
    books = [oprstats.load_army_book(p) for p in paths]
    units = [u for b in books for u in b.units]
    model = CostModel.default()
    model.prices(units[:1])  # warm the parameter file
    report = timed(lambda: oprstats.fairness(units, model, in_sample=True), 9)
    by_book = timed(lambda: [oprstats.fairness(b, model) for b in books], 5)
    by_name = timed(lambda: oprstats.fairness(units, model), 5)
    options = timed(lambda: [oprstats.fairness(b, model, options=True) for b in books], 3)
    terms = timed(lambda: _Terms(units, "3.5"), 9)
    table = _Terms(units, "3.5")
    pricing = timed(lambda: table.term_points(model.weights), 9)
    print(f"{len(units)} units from {len(books)} books (loading them: {load:.2f} s)")
    print(f"fairness report, all units, in sample:             {report:.3f} s  (target < 2 s)")
    print(f"  out of sample, book by book (each family's model): {by_book:.3f} s ({by_book / report:.2f}x the in-sample report)")
    print(f"  out of sample, units found by name:               {by_name:.3f} s ({by_name / report:.2f}x)")
    print(f"  every upgrade option of every book:                {options:.3f} s")
    print(f"  cost features (Rust, rayon): {terms:.3f} s")
    print(f"  prices of every term:        {pricing:.3f} s")
    print(f"  the rest (breakdowns, table): about {max(report - terms - pricing, 0.0):.3f} s")

    # reference: the expected wounds of each weapon against the panel through attack()
    targets = oprstats.reference_targets()
    sample = units[:100]

    def through_attack():
        for u in sample:
            for w in u.weapons:
                for t in targets:
                    oprstats.attack(u, t.unit, weapons=[w.name], melee=w.is_melee, charging=w.is_melee, distance=min(w.range or 1, 12),
                                    cover=t.cover and not w.is_melee).wounds.mean()

    full = timed(through_attack, 1) * len(units) / len(sample)
    features = timed(lambda: _Terms(sample, "3.5"), 3) * len(units) / len(sample)
    print(f"reference: the weapons' panel damage through attack(): {full:.2f} s for all units "
          f"(the cost features, which also measure every rule and durability: {features:.3f} s, {full / features:.0f}x faster)")
    eff = timed(lambda: oprstats.efficiency(units[0]), 5)
    print(f"efficiency() of one unit (4 modes x 11 targets, exact): {1000 * eff:.1f} ms")


if __name__ == "__main__":
    main()
