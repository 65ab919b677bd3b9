"""The ``oprstats`` command line (also ``python -m oprstats``)."""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import shutil
import sys
from pathlib import Path
from typing import Optional, Sequence

from ._census import UNKNOWN, census
from ._core import Unit, __version__
from ._editions import DEFAULT_EDITION, known_rules
from ._loaders import load_army_book, load_army_list
from ._tables import COLUMNS, HEADERS, NUMERIC, unit_cell, unit_rows
from .examples import EXAMPLE_BOOK, EXAMPLE_LIST


def _load_units(path: Optional[Path], edition: Optional[str]) -> tuple[str, list[Unit]]:
    """Units of an army book (``.json``) or of an army list (any other file); the example
    list is read with the example book, which defines its army rules."""
    book = None
    if path is None:
        path, book = EXAMPLE_LIST, load_army_book(EXAMPLE_BOOK, edition=edition)
    if path.suffix.lower() == ".json":
        book = load_army_book(path, edition=edition)
        return f"{book.name} (army book, v{book.version}, {len(book)} units)", list(book.units)
    army = load_army_list(path, edition=edition or DEFAULT_EDITION, book=book)
    title = army.name or path.name
    return f"{title} (army list, {len(army)} units, {army.points}pts)", list(army.units)


def _load_source(path: Optional[Path], edition: Optional[str]):
    """A title, and the army book itself (its options, and the family it is judged without)
    or the army list's units."""
    if path is not None and path.suffix.lower() == ".json":
        book = load_army_book(path, edition=edition)
        return f"{book.name} (army book, v{book.version}, {len(book)} units)", book
    return _load_units(path, edition)


# The width tables are cut to (None: as wide as they come), set by `main` from the terminal
# and --wide; text columns narrower than this are not cut further (names keep more).
WIDTH: Optional[int] = None
NARROWEST = 8
NARROWEST_NAME = 16


def format_table(rows: list[dict], columns: Sequence[str] = COLUMNS, headers: dict = HEADERS,
                 numeric: frozenset = NUMERIC, cell=unit_cell,
                 width: Optional[int] = None) -> str:
    """A plain text table, one line per row, columns padded to their widest cell, numbers
    right-aligned; ``cell(column, value)`` writes a value (``None`` is left blank). Wider than
    ``width`` (default: ``WIDTH``), the widest text columns are cut, their cells ending in
    "…"; numbers are never cut."""
    cells = [[headers[c] for c in columns]]
    cells += [["" if row[c] is None else cell(c, row[c]) for c in columns] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    width = WIDTH if width is None else width
    if width is not None:
        total = sum(widths) + 2 * (len(widths) - 1)
        text = [i for i, c in enumerate(columns) if c not in numeric]
        # names keep more than the other text columns, unless the table cannot fit otherwise
        for name_floor in (NARROWEST_NAME, NARROWEST):
            floor = [min(widths[i], name_floor if c in ("name", "unit") else NARROWEST) for i, c in enumerate(columns)]
            while total > width and text:
                # the column with the most to spare gives first, down to the next one's spare
                # at most, so that the cuts are shared evenly
                spare = [widths[k] - floor[k] for k in text]
                j = max(range(len(text)), key=lambda k: spare[k])
                level = max((x for k, x in enumerate(spare) if k != j), default=0)
                cut = min(total - width, spare[j], max(spare[j] - level, 1))
                if cut <= 0:
                    break
                widths[text[j]] -= cut
                total -= cut
        cells = [[t if len(t) <= widths[i] else t[: widths[i] - 1] + "…" for i, t in enumerate(r)] for r in cells]
    lines = []
    for n, r in enumerate(cells):
        parts = [text.rjust(w) if columns[i] in numeric and n else text.ljust(w) for i, (text, w) in enumerate(zip(r, widths))]
        lines.append("  ".join(parts).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def rule_lines(units: Sequence[Unit], edition: str = DEFAULT_EDITION) -> list[str]:
    """What becomes of the rules outside the edition's core: army-book rules the engines
    play, those no engine plays (with why), and names nobody defines."""
    core = {name for name, _, _ in known_rules(edition)}
    texts = [r for u in units for m in u.models for r in m.rules] + [r for u in units for w in u.weapons for r in w.rules]
    names = sorted({t.split("(", 1)[0] for t in texts} - core)
    unknown = {n for u in units for n in u.unknown_rules(edition=edition)}
    played, unplayed = [], []
    entries = census([n for n in names if n not in unknown], edition=edition)
    for name, coverage in entries.items():
        if coverage is UNKNOWN:
            unplayed.append(f"{name} (defined by its book only)")
        elif coverage.modelled:
            played.append(name)
        else:
            unplayed.append(f"{name} ({coverage.gap})")
    lines = []
    if played:
        lines.append(f"Army rules the engines play: {', '.join(played)}")
    if unplayed:
        lines.append(f"Army rules no engine plays (kept by name): {', '.join(unplayed)}")
    if unknown:
        lines.append(f"Unknown rules (kept by name; no engine plays them): {', '.join(sorted(unknown))}")
    return lines


def _machine(args: argparse.Namespace, title: Sequence[str], tables: dict, notes: Sequence[str] = ()) -> bool:
    """``--format csv`` or ``json``: the tables' raw values instead of the text tables (CSV:
    one table, or each after a ``# name`` line; JSON: one object with the title, every table
    as a list of rows, and the notes). False for ``--format table``."""
    if args.format == "table":
        return False
    clean = lambda v: None if isinstance(v, float) and not math.isfinite(v) else v  # noqa: E731
    tables = {name: [{k: clean(v) for k, v in row.items()} for row in rows] for name, rows in tables.items()}
    if args.format == "json":
        json.dump({"title": list(title), **tables, "notes": list(notes)}, sys.stdout, indent=1, default=str)
        print()
        return True
    for k, (name, rows) in enumerate(tables.items()):
        if len(tables) > 1:
            print(("\n" if k else "") + f"# {name}")
        fields = list(dict.fromkeys(key for row in rows for key in row))
        writer = csv.DictWriter(sys.stdout, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return True


def _show(args: argparse.Namespace) -> int:
    title, units = _load_units(args.file, args.edition)
    if _machine(args, [title], {"units": unit_rows(units)}, rule_lines(units, args.edition or DEFAULT_EDITION)):
        return 0
    print(title)
    print()
    print(format_table(unit_rows(units)))
    lines = rule_lines(units, args.edition or DEFAULT_EDITION)
    if lines:
        print()
        print("\n".join(lines))
    return 0


FAIRNESS_HEADERS = {"unit": "Unit", "official": "Official", "modelled": "Modelled", "range": "Range", "difference_pct": "Diff %",
                    "verdict": "Verdict", "drivers": "Main terms of the modelled price", "flags": "Not priced"}
OPTION_HEADERS = {"unit": "Unit", "option": "Option", "official": "Official", "modelled": "Modelled", "range": "Range",
                  "difference": "Diff", "verdict": "Verdict"}


def _fairness(args: argparse.Namespace) -> int:
    from ._points import fairness_rows

    title, source = _load_source(args.file, args.edition)
    rows = fairness_rows(source, edition=args.edition, in_sample=args.in_sample, options=args.options)
    if args.top is not None:
        rows = rows[: args.top]
    if _machine(args, [title], {"options" if args.options else "units": rows}):
        return 0
    judged = sorted({r["judged"] for r in rows})
    print(title)
    what = "option" if args.options else "unit"
    print(f"Official minus modelled points (positive: over-costed), furthest off first; each {what} judged {' / '.join(judged) or '-'}.")
    if args.in_sample:
        print("No range in sample: the intervals are calibrated on errors out of sample.")
    else:
        print("Range: where 90% of official prices fall for that modelled price, out of sample; outside it, the verdict.")
    print()
    signed = lambda c, v: f"{v:+.1f}" if c in ("difference", "difference_pct") else str(v)
    for r in rows:
        r["range"] = "" if r["low"] is None else f"{r['low']:.0f}-{r['high']:.0f}"
        r["verdict"] = {"over-costed": "over", "under-costed": "under", "within interval": ""}.get(r["verdict"] or "", "")
    if args.options:
        for r in rows:  # long labels cut: the weapon's profile is what runs long
            r["option"] = r["option"] if len(r["option"]) <= 72 else r["option"][:71] + "…"
        print(format_table(rows, list(OPTION_HEADERS), OPTION_HEADERS, frozenset({"official", "modelled", "range", "difference"}), signed))
    else:
        print(format_table([dict(r, flags=r["ignored_rules"]) for r in rows], list(FAIRNESS_HEADERS), FAIRNESS_HEADERS,
                           frozenset({"official", "modelled", "range", "difference_pct"}), signed))
    return 0


def _simulate(args: argparse.Namespace) -> int:
    from ._game import simulate

    title_a, army_a = _load_units(args.army_a, None)
    title_b, army_b = _load_units(args.army_b or args.army_a, None)
    result = simulate(army_a, army_b, games=args.games, seed=args.seed, paired=args.paired, progress=not args.quiet)
    rates = [{"measure": name, "rate": rate, "low": lo, "high": hi} for name, (rate, lo, hi) in {**result.rates(), **result.first_player_effect()}.items()]
    raw_units = [{"army": r.army, "name": r.name, "points": r.points, "role": r.role, "destroyed": r.destroyed_rate, "dealt": r.wounds_dealt,
                  "taken": r.wounds_taken, "holding": r.rounds_holding} for r in result.units().itertuples()] if _has_pandas() else []
    headline = [f"A: {title_a}", f"B: {title_b}", f"{len(result):,} games of Grimdark Future v3.5 (seed {args.seed}{', paired' if args.paired else ''})"]
    if _machine(args, headline, {"rates": rates, "units": raw_units}):
        return 0
    print(f"A: {title_a}\nB: {title_b}")
    print(f"{len(result):,} games of Grimdark Future v3.5 (seed {args.seed}{', paired' if args.paired else ''})")
    print()
    rows = [{"measure": name, "rate": f"{rate:.3f}", "low": f"{lo:.3f}", "high": f"{hi:.3f}"}
            for name, (rate, lo, hi) in {**result.rates(), **result.first_player_effect()}.items()]
    cols = ["measure", "rate", "low", "high"]
    print(format_table(rows, cols, {"measure": "Measure", "rate": "Rate", "low": "95% low", "high": "95% high"}, frozenset(cols[1:])))
    print()
    units = [{"army": r.army, "name": r.name, "points": f"{r.points:.0f}", "role": r.role,
              "destroyed": f"{r.destroyed_rate:.2f}", "dealt": f"{r.wounds_dealt:.2f}", "taken": f"{r.wounds_taken:.2f}",
              "holding": f"{r.rounds_holding:.2f}"} for r in result.units().itertuples()] if _has_pandas() else []
    if units:
        cols = list(units[0])
        print(format_table(units, cols, {c: c.capitalize() for c in cols}, frozenset(cols[2:3] + cols[4:])))
    return 0


def _has_pandas() -> bool:
    try:
        import pandas  # noqa: F401
    except ImportError:
        return False
    return True


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="oprstats", description="Balance statistics for One Page Rules wargames.")
    parser.add_argument("--version", action="version", version=f"oprstats {__version__}")
    sub = parser.add_subparsers(dest="command")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--wide", action="store_true", help="print tables whole, however wide (default: cut to the terminal's width)")
    common.add_argument("--format", choices=("table", "csv", "json"), default="table",
                        help="table (default): for reading; csv or json: the raw values, for other programs")
    show = sub.add_parser("show", parents=[common], help="print the units of an army book (.json) or army list (text) as a table")
    show.add_argument("file", nargs="?", type=Path, help="Army Forge army book JSON or army list text; default: the embedded example army")
    show.add_argument("--edition", default=None, help="rules edition: 3.5 (default), 3.4.1, 2, firefight-3.2")
    show.set_defaults(run=_show)
    fair = sub.add_parser("fairness", parents=[common], help="rank units by how far their official cost is from the modelled cost")
    fair.add_argument("file", nargs="?", type=Path, help="Army Forge army book JSON or army list text; default: the embedded example army")
    fair.add_argument("--top", type=int, default=None, help="show only the N units furthest off")
    fair.add_argument("--edition", default=None, help="rules edition (a cost model ships for 3.5, the default)")
    fair.add_argument("--in-sample", action="store_true", help="judge by the model fitted on every book, the file's own included")
    fair.add_argument("--options", action="store_true", help="judge every upgrade option's price instead (an army book)")
    fair.set_defaults(run=_fairness)
    sim = sub.add_parser("simulate", parents=[common], help="play full v3.5 games between two army lists (or books' units) and report win rates")
    sim.add_argument("army_a", nargs="?", type=Path, help="army list text or book JSON; default: the embedded example army")
    sim.add_argument("army_b", nargs="?", type=Path, help="default: the same as army A (a mirror match)")
    sim.add_argument("--games", type=int, default=2_000, help="games to play (paired: pairs); default 2,000")
    sim.add_argument("--seed", type=int, default=1, help="seed (default 1): the same seed plays the same games")
    sim.add_argument("--paired", action="store_true", help="play every game twice with sides and first player swapped")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.set_defaults(run=_simulate)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    global WIDTH
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    # cut to the terminal (or $COLUMNS); whole when piped, or with --wide
    WIDTH = None if getattr(args, "wide", False) or not (sys.stdout.isatty() or "COLUMNS" in os.environ) else shutil.get_terminal_size().columns
    try:
        return args.run(args)
    except BrokenPipeError:
        # the reader went away (`| head`): stop quietly, as the docs of Python's signal
        # module advise, with stdout pointed at nothing so that the exit flush is quiet too
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1
    except (ValueError, TypeError, OSError, KeyError) as exc:
        print(f"oprstats: error: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
