"""A short guided tour of the main results on the embedded example army (``./dev.sh demo``,
``oprstats tour``): an exact attack, a charge, the fairness of the book's costs and a seeded
simulation, each with the call that gives more. Needs nothing beyond numpy (no pandas), and
runs in a few seconds."""

from __future__ import annotations

import sys
import warnings
from typing import Optional, TextIO

WIDTH = 78
DISTANCE = 18
GAMES = 250  # paired: 500 games


def _pct(p: Optional[float]) -> str:
    if p is None:
        return "-"
    if 0.0 < p < 0.0005:
        return "<0.1%"
    if 0.9995 <= p < 1.0:
        return ">99.9%"
    return f"{100.0 * p:.1f}%"


def tour(out: Optional[TextIO] = None) -> int:
    """Prints the tour to ``out`` (default: standard output); returns 0."""
    import oprstats
    from oprstats._points import fairness_rows

    out = sys.stdout if out is None else out

    def say(line: str = "") -> None:
        print(line, file=out)

    def heading(n: int, title: str) -> None:
        say()
        say(f"{n}. {title}")
        say("-" * (len(title) + 3))

    def more(call: str) -> None:
        say(f"   more: {call}")

    def not_modelled(rules, where: str = "") -> None:
        if rules:
            say(f"   (rules not modelled: {', '.join(rules)}{where})")

    book = oprstats.example_book()
    army = oprstats.example_army()
    say(f"A tour of oprstats {oprstats.__version__} on the example army that ships with it:")
    say(f'"{army.name}", {army.points} pts, from the book "{book.name}"')
    say("(invented units, no OPR content).")

    # 1. an attack, exactly
    shooter, target = army.units[0], book.unit("Scout Skimmers")
    joined = f" with its {shooter.hero.name}" if shooter.hero is not None else ""
    r = oprstats.attack(shooter, target, distance=DISTANCE)
    heading(1, "An attack, exactly")
    say(f"   {shooter.name} [{shooter.size}]{joined} shoots {target.name} [{target.size}]")
    say(f'   at {DISTANCE}" (every weapon in range), exact distributions:')
    say(f"   mean hits {r.hits.mean():.2f}, wounds {r.wounds.mean():.2f}, "
        f"models killed {r.kills.mean():.2f}")
    say(f"   P(at least 1 killed) {_pct(r.kills.at_least(1))}, "
        f"P(unit destroyed) {_pct(r.p_destroyed)}")
    not_modelled(r.unmodelled)
    more(f"oprstats.attack(attacker, target, distance={DISTANCE})")

    # 2. a charge
    charger, defender = book.unit("Siege Walker"), book.unit("Warden Squad")
    m = oprstats.melee(charger, defender)
    heading(2, "A charge: melee and morale")
    say(f"   {charger.name} [{charger.size}] charges {defender.name} [{defender.size}]:")
    say(f"   {charger.name} wins {_pct(m.p_charger_wins)}, {defender.name} wins "
        f"{_pct(m.p_defender_wins)}, tie {_pct(m.p_tie)}")
    for side, unit in ((m.charger, charger), (m.defender, defender)):
        say(f"   {unit.name + ':':<15} destroyed {_pct(side.p_destroyed)}, routed "
            f"{_pct(side.p_routed)}, shaken {_pct(side.p_shaken)}")
    say(f"   {defender.name} loses {m.defender.lost.mean():.1f} models on average")
    not_modelled(m.unmodelled)
    more("oprstats.melee(charger, defender)")

    # 3. fairness of the book's costs
    rows = fairness_rows(book)
    heading(3, "Points: is each cost fair?")
    say("   The units furthest from the cost model fitted to the official books")
    say("   (over-costed: the official cost is above the model's 90% range):")
    say(f"   {'unit':<16}{'official':>9}{'modelled':>10}{'90% range':>14}  verdict")
    for row in rows[:3]:
        span = "-" if row["low"] is None else f"{row['low']:.0f}-{row['high']:.0f}"
        say(f"   {row['unit'][:15]:<16}{row['official']:>9}{row['modelled']:>10.0f}{span:>14}  {row['verdict']}")
    say(f"   ({len(rows) - 3} more units within their range.)" if all(
        row["verdict"] == "within interval" for row in rows[3:]) else f"   ({len(rows) - 3} more units.)")
    more("oprstats.fairness(book), oprstats.CostModel.default().predict(unit)")

    # 4. full games
    other = oprstats.Army([book.unit(name) for name in
                           ("Void Hunters", "Void Hunters", "Siege Walker", "Scout Skimmers", "Warden Squad")],
                          name="Hunter Strike", points_limit=army.points_limit)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # said below, in a line of the tour
        g = oprstats.simulate(army, other, games=GAMES, seed=1, paired=True, progress=False)
    rates = g.rates()
    heading(4, "Full games, simulated")
    say(f'   "{army.name}" ({army.points} pts) against "{other.name}"')
    say(f"   ({other.points} pts: 2x Void Hunters, Siege Walker, Skimmers, Squad),")
    say(f"   {len(g.winner)} seeded games on standard tables, sides swapped in each pair:")
    for name, label in (("a_wins", army.name), ("draws", "draws"), ("b_wins", other.name)):
        rate, low, high = rates[name]
        say(f"   {label + ':':<28}{_pct(rate):>7}   (95% {_pct(low)}-{_pct(high)})")
    first = g.first_player_effect()["first_player_wins"][0]
    say(f"   the player going first wins {_pct(first)}")
    not_modelled(sorted(g.unmodelled), "; see GameResult.unmodelled")
    more("oprstats.simulate(army_a, army_b, games=10_000, seed=1, paired=True)")
    say()
    say("The same calls take your own army books and lists: oprstats.load_army_book(),")
    say("oprstats.load_army_list(). The notebooks/ and docs/ show the rest.")
    return 0
