"""The headline coverage figure of the army books' rules (issue 14), and what is left.

    python benchmarks/coverage.py [BOOKS_DIR]

Prints the share of official points (43 real v3.5.1 books, default loadouts) in units that
carry a rule with an effect on the table that some engine ignores, with and without the
gaps left to the Caster/Transport issue, the rules that carry the most of what remains, and
how long the census takes.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import oprstats

ROOT = Path(__file__).resolve().parents[1]
BOOKS = ROOT.parent / "shared" / "data" / "opr" / "grimdark-future" / "3.5.1"


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else BOOKS
    books = [oprstats.load_army_book(p) for p in sorted(folder.glob("*.json"))]
    units = [u for b in books for u in b.units]
    t0 = time.perf_counter()
    frame = oprstats.rule_coverage(books)
    took = time.perf_counter() - t0
    everything = oprstats.unmodelled_share(units)
    beyond = oprstats.unmodelled_share(units, excluding=("spells", "transport"))
    rules = frame[frame.kind != "spell"]
    print(f"{len(books)} books, {len(units)} units, {sum(u.cost or 0 for u in units):,} official points")
    print(f"rule names: {len(rules)}; modelled by some engine: {int(rules.modelled.sum())}; spells: {int((frame.kind == 'spell').sum())} ({int((frame.kind == 'spell').sum() - ((frame.kind == 'spell') & frame.modelled).sum())} not cast yet)")
    print(f"points in units carrying a rule some engine ignores: {everything:.1%} (90.5% before issue 14)")
    print(f"  the same, leaving out spells and transports (the Caster/Transport issue): {beyond:.1%}")
    print(f"rule_coverage over all books: {took * 1000:.0f} ms")
    left = rules[rules.gap.notna() & (rules.gap != "list building") & (rules.units > 0)].head(15)
    print("\nrules with an ignored effect, by share of points:")
    for r in left.itertuples():
        print(f"  {r.rule:28s} {r.share:6.2%}  {r.gap:10s} {r.reason}")


if __name__ == "__main__":
    main()
