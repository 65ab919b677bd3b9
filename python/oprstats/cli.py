"""The ``oprstats`` command line (also ``python -m oprstats``)."""

from __future__ import annotations

import argparse
import csv
import json
import math
import os
import shutil
import sys
import warnings
from pathlib import Path
from typing import Optional, Sequence

from ._census import UNKNOWN, census
from ._core import ArmyBook, Unit, __version__
from ._editions import DEFAULT_EDITION, editions, known_rules
from ._loaders import is_book_text, load_army_book, load_army_list, read_text
from ._display import ignored_note
from ._tables import COLUMNS, HEADERS, NUMERIC, unit_cell, unit_rows
from .examples import EXAMPLE_BOOK, EXAMPLE_LIST, example_army


def _book(source, edition: Optional[str]):
    """An army book (a path or its JSON text) read in ``edition``; a book that reads in its
    own edition but not in the one asked for is blamed on ``--edition``, not on the file."""
    try:
        return load_army_book(source, edition=edition)
    except ValueError as exc:
        if edition is None:
            raise
        try:
            own = load_army_book(source)
        except ValueError:
            raise exc from None
        raise ValueError(f"--edition {edition}: {own.name} is written for v{own.version} and does not fit that edition "
                         f"({str(exc).removeprefix('source: ').removeprefix('not an Army Forge army book: ')})") from None


def _load(path: Optional[Path], edition: Optional[str]) -> tuple[str, Optional[ArmyBook], list[Unit]]:
    """A file read once, as a book or a list by its content (docs/loading.md), whatever its
    name: its title, the book when it is one (its options, and the family it is judged
    without), and its units. No file: the example list, read with the example book, which
    defines its army rules."""
    book = None
    if path is None:
        path, book = EXAMPLE_LIST, _book(EXAMPLE_BOOK, edition)
    text = read_text(path, "file")
    if is_book_text(text):
        book = _book(text, edition)
        return f"{book.name} (army book, v{book.version}, {len(book)} units)", book, list(book.units)
    army = load_army_list(text, edition=edition or DEFAULT_EDITION, book=book)
    # as simulate() warns of a list over its own limit, so does every command that reads one
    from ._validate import warn_over_limit

    warn_over_limit(army)
    return f"{army.name or path.name} (army list, {len(army)} units, {army.points}pts)", None, list(army.units)


def _load_units(path: Optional[Path], edition: Optional[str]) -> tuple[str, list[Unit]]:
    title, _, units = _load(path, edition)
    return title, units


# The width tables are cut to (None: as wide as they come), set by `main` from the terminal
# and --wide; text columns narrower than this are not cut further (names keep more).
WIDTH: Optional[int] = None
NARROWEST = 8
NARROWEST_NAME = 16


def format_table(rows: list[dict], columns: Sequence[str] = COLUMNS, headers: dict = HEADERS,
                 numeric: frozenset = NUMERIC, cell=unit_cell,
                 width: Optional[int] = None) -> str:
    """A plain text table, columns padded to their widest cell, numbers right-aligned;
    ``cell(column, value)`` writes a value (``None`` is left blank). Wider than ``width``
    (default: ``WIDTH``), the widest text columns are narrowed and their cells wrapped onto
    more lines (nothing is cut; numbers are never wrapped), and a last line says that
    ``--wide`` prints a line per row."""
    import textwrap

    cells = [[headers[c] for c in columns]]
    cells += [["" if row[c] is None else cell(c, row[c]) for c in columns] for row in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(columns))]
    width = WIDTH if width is None else width
    wrapped = False
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
    lines = []
    for n, r in enumerate(cells):
        # each cell on as many lines as its column's width needs
        parts = [[t] if len(t) <= widths[i] else textwrap.wrap(t, widths[i], break_long_words=True, break_on_hyphens=False) or [""]
                 for i, t in enumerate(r)]
        height = max(len(p) for p in parts)
        wrapped |= height > 1
        for k in range(height):
            line = [(p[k] if k < len(p) else "") for p in parts]
            lines.append("  ".join(t.rjust(w) if columns[i] in numeric and n else t.ljust(w)
                                   for i, (t, w) in enumerate(zip(line, widths))).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    if wrapped:
        lines.append(f"(wrapped to {width} columns; --wide: a line a row)")
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
    rows, lines = unit_rows(units), rule_lines(units, args.edition or DEFAULT_EDITION)
    if _machine(args, [title], {"units": rows}, lines):
        return 0
    print(title)
    print()
    print(format_table(rows))
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

    title, book, units = _load(args.file, args.edition)
    source = book if book is not None else units
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
    from ._game import check_game_edition, simulate

    if args.edition is not None:
        check_game_edition(args.edition)  # before the files are read under it
    title_a, army_a = _load_units(args.army_a, args.edition)
    title_b, army_b = _load_units(args.army_b or args.army_a, args.edition)
    result = simulate(army_a, army_b, games=args.games, seed=args.seed, paired=args.paired, progress=not args.quiet,
                      edition=args.edition,
                      threads=args.threads, terrain=args.terrain, policy_a=args.policy_a, policy_b=args.policy_b or args.policy_a,
                      rounds=args.rounds)
    rates = [{"measure": name, "rate": rate, "low": lo, "high": hi} for name, (rate, lo, hi) in {**result.rates(), **result.first_player_effect()}.items()]
    raw_units = [{"army": r.army, "name": r.name, "points": r.points, "role": r.role, "destroyed": r.destroyed_rate, "dealt": r.wounds_dealt,
                  "taken": r.wounds_taken, "holding": r.rounds_holding, "wasted": r.wasted_share}
                 for r in result.units().itertuples()] if _has_pandas() else []
    how = _how_played(args)
    # paired: --games counts the pairs, each played twice
    played = f"{len(result) // 2:,} pairs ({len(result):,} games)" if args.paired else f"{len(result):,} games"
    title = next(e.title for e in editions() if e.key == result.edition)
    headline = [f"A: {title_a}", f"B: {title_b}", f"{played} of {title} ({how})"]
    wasted = result._wasted_note()
    if _machine(args, headline, {"rates": rates, "units": raw_units}, [wasted]):
        return 0
    print("\n".join(headline))
    print()
    cols = ["measure", "rate", "low", "high"]
    print(format_table(rates, cols, {"measure": "Measure", "rate": "Rate", "low": "95% low", "high": "95% high"}, frozenset(cols[1:]),
                       lambda c, v: v if c == "measure" else f"{v:.3f}"))
    if raw_units:
        print()
        cols = list(raw_units[0])
        decimals = {"points": 0, "destroyed": 2, "dealt": 2, "taken": 2, "holding": 2, "wasted": 2}
        print(format_table(raw_units, cols, {c: c.capitalize() for c in cols}, frozenset(decimals),
                           lambda c, v: f"{v:.{decimals[c]}f}" if c in decimals else str(v)))
    print()
    print(wasted)
    return 0


def _how_played(args: argparse.Namespace) -> str:
    """The run's settings in a line: what to pass again to play the same games."""
    parts = [f"seed {args.seed}"] + (["paired"] if args.paired else [])
    parts.append(f"{args.terrain} table")
    policy_b = args.policy_b or args.policy_a
    parts.append(f"policies {args.policy_a}/{policy_b}" if policy_b != args.policy_a else f"{args.policy_a} policy")
    if args.rounds != 4:
        parts.append(f"{args.rounds} rounds")
    return ", ".join(parts)


def _units_by_name(args: argparse.Namespace, names: Sequence[str]) -> list[Unit]:
    """Each name is a unit of the ``--file``s (default: the example book; repeat ``--file``
    for units from several books), a unit of any book or list as ``FILE:UNIT``, or a unit
    written in the rulebook's notation (``'Squad [10] Q4+ D4+ | 100pts\\n10x Rifle (24", A1)'``)."""
    files = list(args.file or [EXAMPLE_BOOK])
    loaded: dict[Path, list[Unit]] = {}

    def units_of(path: Path) -> list[Unit]:
        if path not in loaded:
            loaded[path] = _load_units(path, args.edition)[1]
        return loaded[path]

    def where(paths: Sequence[Path]) -> str:
        return ", ".join(str(p) for p in paths) if args.file or paths != [EXAMPLE_BOOK] else "the example book"

    out = []
    for name in names:
        if "[" in name:  # a profile, not a name
            out.append(Unit.parse(name.replace("\\n", "\n"), edition=args.edition or DEFAULT_EDITION))
            continue
        paths, wanted = files, name
        head, sep, tail = name.rpartition(":")
        if sep and head and Path(head).is_file():  # FILE:UNIT
            paths, wanted = [Path(head)], tail
        found = [(p, u) for p in paths for u in units_of(p) if u.name.lower() == wanted.strip().lower()]
        if len({p for p, _ in found}) > 1:
            raise ValueError(f"unit {name!r}: in more than one file ({where(sorted({p for p, _ in found}))}); "
                             f"name it as FILE:UNIT")
        if not found:
            import difflib

            every = [u.name for p in paths for u in units_of(p)]
            close = difflib.get_close_matches(wanted, every, n=3, cutoff=0.5)
            hint = f"; did you mean {', '.join(close)}?" if close else f"; the units are: {', '.join(every[:12])}"
            raise ValueError(f"unit {name!r}: not in {where(paths)}{hint}")
        out.append(found[0][1])
    return out


def _attack(args: argparse.Namespace) -> int:
    from ._attack import attack

    attacker, target = _units_by_name(args, [args.attacker, args.target])
    r = attack(attacker, target, melee=args.melee, charging=args.charging, distance=args.distance, cover=args.cover,
               edition=args.edition or DEFAULT_EDITION)
    how = ("melee, charging" if args.charging else "melee") if args.melee else f'shooting at {args.distance:g}"' + (", in cover" if args.cover else "")
    title = f"{attacker.name} attacks {target.name} ({how}), exactly"
    stages = {"hits": r.hits, "unblocked": r.unblocked, "wounds": r.wounds, "kills": r.kills}
    n = max(d.max for d in stages.values()) + 1
    rows = [{"k": k, **{name: float(d[k]) for name, d in stages.items()}, "kills_at_least": r.kills.at_least(k)} for k in range(n)]
    notes = [f"P(destroyed) {r.p_destroyed:.4f}"] + ([] if r.p_morale_test is None else [f"P(morale test) {r.p_morale_test:.4f}",
                                                                                     f"P(Shaken) {r.p_shaken:.4f}"])
    if r.unmodelled:
        notes += ignored_note(r.unmodelled)
    if _machine(args, [title], {"stages": rows}, notes):
        return 0
    print(title)
    means = ", ".join(f"{name} {d.mean():.2f}" for name, d in stages.items())
    print(f"Means: {means} (of {r.size} models)")
    print()
    headers = {"k": "k", "hits": "P(hits=k)", "unblocked": "P(unbl.=k)", "wounds": "P(wounds=k)", "kills": "P(kills=k)",
               "kills_at_least": "P(kills≥k)"}
    print(format_table(rows, list(headers), headers, frozenset(headers), lambda c, v: str(v) if c == "k" else f"{v:.4f}"))
    print()
    print("\n".join(notes))
    return 0


def _melee(args: argparse.Namespace) -> int:
    from ._melee import melee

    charger, defender = _units_by_name(args, [args.charger, args.defender])
    m = melee(charger, defender, edition=args.edition or DEFAULT_EDITION)
    title = f"{charger.name} charges {defender.name}, exactly"
    sides = [{"side": role, "name": side_unit.name, "wins": wins, "destroyed": side.p_destroyed, "routed": side.p_routed,
              "shaken": side.p_shaken, "unaffected": side.p_unaffected, "wounds_caused": side.wounds_caused.mean(),
              "models_lost": side.lost.mean()}
             for role, side_unit, side, wins in (("charger", charger, m.charger, m.p_charger_wins),
                                                 ("defender", defender, m.defender, m.p_defender_wins))]
    notes = ([] if m.p_tie is None else [f"Tie {m.p_tie:.4f}"]) + ignored_note(m.unmodelled)
    if _machine(args, [title], {"sides": sides}, notes):
        return 0
    print(title)
    print()
    # one column per side: a table as narrow as the names
    labels = {"wins": "Wins the melee", "destroyed": "Destroyed", "routed": "Routed", "shaken": "Shaken after",
              "unaffected": "Unaffected", "wounds_caused": "Wounds caused", "models_lost": "Models lost"}
    rows = [{"measure": label, "charger": sides[0][key], "defender": sides[1][key]} for key, label in labels.items()]
    headers = {"measure": "", "charger": f"Charger: {charger.name}", "defender": f"Defender: {defender.name}"}
    print(format_table(rows, list(headers), headers, frozenset({"charger", "defender"}),
                       lambda c, v: v if c == "measure" else "-" if v is None else f"{v:.4f}"))
    if notes:
        print()
        print("\n".join(notes))
    return 0


# The panel's targets a table shows (all of them in CSV and JSON): one of each kind.
EFFICIENCY_TARGETS = {"light-infantry": "LtInf", "infantry": "Inf", "elites": "Elite", "tough-elites": "TElite", "monster": "Monst",
                      "vehicle": "Veh", "titan": "Titan"}
SHORT_MODES = {"shoot 12": 'sh12"', "shoot 24": 'sh24"', "charge": "charge", "charged": "charged"}


def _efficiency(args: argparse.Namespace) -> int:
    from ._efficiency import canonical_mode, efficiency

    title, units = _load_units(args.file, args.edition)
    asked = canonical_mode(args.mode, "--mode")
    every = efficiency(units, edition=args.edition or DEFAULT_EDITION)
    rows, raw = [], []
    # each unit in the mode asked, or its own (as natural_mode() chooses it)
    for u, eff, own in zip(units, every, every.own_modes()):
        destroyed, wounds = eff.points_destroyed, eff.wounds
        mode = asked or own
        if mode not in eff.modes:
            raise ValueError(f"--mode: {mode!r} is not one of {list(eff.modes)}")
        i = eff.modes.index(mode)
        rows.append({"unit": u.name + (f" + {u.hero.name}" if u.hero is not None else ""), "points": eff.points,
                     "mode": SHORT_MODES.get(mode, mode),
                     **{t: float(destroyed[i, eff.targets.index(t)]) for t in EFFICIENCY_TARGETS}})
        raw += [{"unit": u.name, "points": eff.points, "mode": m, "target": t, "points_destroyed_per_100": float(destroyed[a, b]),
                 "wounds_per_100": float(wounds[a, b]), "p_destroyed": float(eff.p_destroyed[a, b])}
                for a, m in enumerate(eff.modes) for b, t in enumerate(eff.targets)]
    if _machine(args, [title], {"efficiency": raw}):
        return 0
    print(title)
    how = f"in mode {args.mode}." if args.mode else 'in its own mode: shooting at 12" (sh12") or charging, whichever does more.'
    print(_wrapped(f"Points of the target destroyed per 100 points, exactly; each unit {how}"))
    print()
    headers = {"unit": "Unit", "points": "Pts", "mode": "Mode", **EFFICIENCY_TARGETS}
    print(format_table(rows, list(headers), headers, frozenset(["points", *EFFICIENCY_TARGETS]),
                       lambda c, v: f"{v:g}" if c == "points" else f"{v:.1f}" if c in EFFICIENCY_TARGETS else str(v)))
    return 0


def _duel(args: argparse.Namespace) -> int:
    from ._duel import LINE_UP, duel

    a, b = _units_by_name(args, [args.a, args.b])
    line_up = LINE_UP if args.line_up is None else args.line_up
    if args.distance is not None:
        if args.line_up is not None:
            raise ValueError("duel: give --line-up only (--distance is its old name)")
        warnings.warn("duel: --distance is now --line-up (the duel's starting gap; --distance in attack is the range of a shot); "
                      "--distance goes in a later release", DeprecationWarning, stacklevel=2)
        line_up = args.distance
    r = duel(a, b, games=args.games, seed=args.seed, line_up=line_up, paired=True, threads=args.threads)
    title = f'{a.name} against {b.name}: {len(r.winner):,} duels from {r.line_up:g}" (paired, seed {args.seed}), full game rules'
    # the chances of each result, and what each destroys (the chances of removal left out)
    names = r._labels()
    rows = [{"measure": names[k], "mean": v[0], "low": v[1], "high": v[2]} for k, v in r.summary_dict().items()
            if not k.endswith("_removed")]
    if _machine(args, [title], {"duel": rows}):
        return 0
    print(_wrapped(title))
    print()
    cols = ["measure", "mean", "low", "high"]
    print(format_table(rows, cols, {"measure": "Measure", "mean": "Mean", "low": "95% low", "high": "95% high"}, frozenset(cols[1:]),
                       lambda c, v: v if c == "measure" else ("" if v != v else f"{v:.3f}")))
    return 0


def _fair_cost(args: argparse.Namespace) -> int:
    from ._matchups import fair_cost_rows

    title, units = _load_units(args.file, args.edition)
    units = _distinct(units)
    field = None
    if args.field:
        sources = [_load(path, args.edition) for path in args.field]
        field = [u for _title, _book, units in sources for u in units]
        # each book or list by its name (its title without the counts)
        field_names = ", ".join(title.rsplit(" (", 1)[0] for title, _book, _units in sources)
    rows = fair_cost_rows(units, field=field, edition=args.edition or DEFAULT_EDITION, seed=args.seed)
    if args.top is not None:
        rows = rows[: args.top]
    keep = ["unit", "official", "fair", "low", "high", "difference_pct", "verdict"]
    out = [{k: row.get(k) for k in keep} for row in rows]
    against = "the units themselves" if field is None else f"a field of {len(field)} units"
    # what "fair" is measured against, said plainly: the default answers a narrower question
    if field is None:
        judged = ("Judged against: the units themselves, so this says whether they are balanced among themselves. "
                  "To judge them against the game, add other books: --field OTHER.json (repeatable; give the judged "
                  "file as a --field too to keep its own units in the field).")
    else:
        judged = f"Judged against: the {len(field)} units of {field_names}."
    heading = [title, f"Fair cost by play: the points at which each unit's exchanges against {against} are even, exactly, "
                      "with the field resampled for the interval", judged]
    if _machine(args, heading, {"fair_cost": out}):
        return 0
    print(heading[0])
    print(_wrapped(heading[1]))
    print(_wrapped(heading[2]))
    print()
    headers = {"unit": "Unit", "official": "Official", "fair": "Fair", "low": "Low", "high": "High", "difference_pct": "Off %",
               "verdict": "Verdict"}
    numeric = frozenset(["official", "fair", "low", "high", "difference_pct"])
    print(format_table(out, keep, headers, numeric,
                       lambda c, v: (f"{v:.1f}" if isinstance(v, float) else str(v)) if c in numeric else str(v)))
    return 0


def _factions(args: argparse.Namespace) -> int:
    from ._factions import faction_table
    from ._game import check_game_edition

    if args.edition is not None:
        check_game_edition(args.edition)
    books = []
    for path in args.books:
        text = read_text(path, "books")
        if not is_book_text(text):
            raise ValueError(f"books: {path} is not an Army Forge army book (give one .json book a faction)")
        books.append(_book(text, args.edition))
    table = faction_table(books, lists=args.lists, points=args.points, games=args.games, seed=args.seed, threads=args.threads,
                          progress=not args.quiet, edition=args.edition)
    frame = [{"faction": table.names[i], "win_rate": 100 * table.field[i], "low": 100 * table.field_low[i],
              "high": 100 * table.field_high[i], "lists": len(table.lists[table.names[i]]), "pairs": int(table.pairs[i].sum()),
              "ignored_rules": ", ".join(table.unmodelled.get(table.names[i], ()))} for i in table.ranking()]
    if args.top is not None and args.top < len(frame):
        frame = frame[: args.top]
    drawn = "1 drawn list" if args.lists == 1 else f"{args.lists} drawn lists"
    pairs_of_games = "1 pair of games" if args.games == 1 else f"{args.games:,} pairs of games"
    heading = [f"{len(table)} factions, {drawn} of {table.points:,} pts each, {pairs_of_games} a pairing"
               + (" (interrupted: the games played so far)" if table.interrupted else ""),
               f"Win rate against the field (every other faction weighs the same; a draw counts half), with its "
               f"{table.interval:.0%} interval over both the drawn lists and the games"]
    pairs = [{"faction": table.names[i], "opponent": table.names[j], "win_rate": 100 * table.win_rates[i, j],
              "low": 100 * table.low[i, j], "high": 100 * table.high[i, j]} for i in range(len(table)) for j in range(len(table)) if i != j]
    if _machine(args, heading, {"factions": frame, "pairs": pairs}):
        return 0
    for line in heading:
        print(_wrapped(line))
    print()
    keep = ["faction", "win_rate", "low", "high", "lists", "pairs", "ignored_rules"]
    headers = {"faction": "Faction", "win_rate": "Win %", "low": "Low", "high": "High", "lists": "Lists", "pairs": "Pairs",
               "ignored_rules": "Rules not modelled"}
    numeric = frozenset(["win_rate", "low", "high", "lists", "pairs"])
    print(format_table(frame, keep, headers, numeric, lambda c, v: f"{v:.1f}" if isinstance(v, float) else str(v)))
    return 0


def _break_even(args: argparse.Namespace) -> int:
    from ._matchups import break_even

    (unit,) = _units_by_name(args, [args.unit])
    opponents = [u for path in (args.opponents or []) for u in _load_units(path, args.edition)[1]] or \
        _load_units((args.file or [EXAMPLE_BOOK])[0], args.edition)[1]
    be = break_even(unit, opponents, parameter=args.parameter, edition=args.edition or DEFAULT_EDITION)
    value = "none in range" if be.value is None else f"{be.value:.1f}"
    line = f"{unit.name}: {args.parameter} at which its exchange with {len(opponents)} opponents is even: {value}"
    official = f" (official {be.official:g})" if be.official is not None else ""
    rows = [dict(zip(be.columns, row)) for row in be.table]
    if _machine(args, [line + official], {"break_even": rows}, [be.note] if be.note else []):
        return 0
    print(_wrapped(line + official))
    if be.note:
        print(_wrapped(be.note))
    return 0


def _matchups_cmd(args: argparse.Namespace) -> int:
    from ._matchups import matchups

    title_a, attackers = _load_units(args.file, args.edition)
    # a list's copies of a unit are one unit here
    attackers = _distinct(attackers)
    title_d, defenders = title_a, attackers
    if args.against:
        title_d, defenders = _load_units(args.against, args.edition)
        defenders = _distinct(defenders)
    m = matchups(attackers, defenders, edition=args.edition or DEFAULT_EDITION)
    rows = [{"attacker": a, "mode": mode, "defender": d, "net": x} for a, mode, d, x in m.extremes(args.top)]
    heading = [f"{title_a} against {title_d}",
               f"Net {m.measure} (destroyed less lost) per activation, exactly: the {args.top} best and the {args.top} worst of "
               f"{len(attackers) * len(defenders):,} pairs in {len(m.modes)} modes"]
    if _machine(args, heading, {"matchups": rows}):
        return 0
    print(_wrapped(heading[0]))
    print(_wrapped(heading[1]))
    print()
    cols = ["attacker", "mode", "defender", "net"]
    print(format_table(rows, cols, {c: c.capitalize() for c in cols}, frozenset(["net"]),
                       lambda c, v: f"{v:+.1f}" if c == "net" else str(v)))
    return 0


def _distinct(units: list) -> list:
    """The units, each profile once (a list's copies of a unit are one unit)."""
    return list(dict.fromkeys(units))


def _wrapped(text: str) -> str:
    """Prose wrapped to the terminal's width, at most 80 wide."""
    import textwrap

    return textwrap.fill(text, width=min(WIDTH or 80, 80))


def _validate(args: argparse.Namespace) -> int:
    from ._validate import validate_list

    if args.file is None:
        army = example_army()
    else:
        text = read_text(args.file, "file")
        if is_book_text(text):
            raise ValueError(f"file: {args.file} is an army book; validate takes an army list")
        army = load_army_list(text)
    check = validate_list(army, points=args.points, force_organisation=not args.no_force_organisation)
    rows = [{"rule": p.rule, "found": p.found, "allowed": p.allowed, "problem": p.message} for p in check.problems]
    title = f"{check.name or 'army'}: {check.points:,} of {check.limit:,} pts"
    if _machine(args, [title], {"problems": rows}):
        return 0 if check.ok else 1
    print(title + ("" if check.force_organisation else " (force organisation rules left out)"))
    if check.ok:
        print("No army-building rule broken.")
        return 0
    print()
    headers = {"rule": "Rule", "found": "Found", "allowed": "Allowed", "problem": "Problem"}
    print(format_table(rows, list(headers), headers, frozenset({"found", "allowed"}), lambda c, v: f"{v:g}" if c in ("found", "allowed") else str(v)))
    return 1


def _tour(args: argparse.Namespace) -> int:
    from ._tour import tour

    return tour()


def _has_pandas() -> bool:
    try:
        import pandas  # noqa: F401
    except ImportError:
        return False
    return True


def _at_least(minimum: int):
    """An argparse type: a whole number, ``minimum`` or more (``--top -1`` cut the table from
    its end, and a negative count reached the library only to be refused there)."""
    def whole(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be {minimum} or more (got {value})")
        return value

    whole.__name__ = f"a whole number, {minimum} or more"
    return whole


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="oprstats", description="Balance statistics for One Page Rules wargames.")
    parser.add_argument("--version", action="version", version=f"oprstats {__version__}")
    sub = parser.add_subparsers(dest="command")
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--wide", action="store_true", help="print tables a line a row, however wide (default: long cells wrapped to the terminal's width)")
    common.add_argument("--format", choices=("table", "csv", "json"), default="table",
                        help="table (default): for reading; csv or json: the raw values, for other programs")
    show = sub.add_parser("show", parents=[common], help="print the units of an army book (.json) or army list (text) as a table")
    show.add_argument("file", nargs="?", type=Path, help="Army Forge army book JSON or army list text; default: the embedded example army")
    show.add_argument("--edition", default=None, help="rules edition: 3.5 (default), 3.4.1, 2, firefight-3.2")
    show.set_defaults(run=_show)
    fair = sub.add_parser("fairness", parents=[common], help="rank units by how far their official cost is from the modelled cost")
    fair.add_argument("file", nargs="?", type=Path, help="Army Forge army book JSON or army list text; default: the embedded example army")
    fair.add_argument("--top", type=_at_least(1), default=None, help="show only the N units furthest off")
    fair.add_argument("--edition", default=None, help="rules edition (a cost model ships for 3.5, the default)")
    fair.add_argument("--in-sample", action="store_true", help="judge by the model fitted on every book, the file's own included")
    fair.add_argument("--options", action="store_true", help="judge every upgrade option's price instead (an army book)")
    fair.set_defaults(run=_fairness)
    sim = sub.add_parser("simulate", parents=[common], help="play full v3.5 games between two army lists (or books' units) and report win rates")
    sim.add_argument("army_a", nargs="?", type=Path, help="army list text or book JSON; default: the embedded example army")
    sim.add_argument("army_b", nargs="?", type=Path, help="default: the same as army A (a mirror match)")
    sim.add_argument("--games", type=_at_least(1), default=2_000, help="games to play (paired: pairs); default 2,000")
    sim.add_argument("--seed", type=_at_least(0), default=1, help="seed (default 1): the same seed plays the same games")
    sim.add_argument("--paired", action="store_true", help="play every game twice with sides and first player swapped")
    sim.add_argument("--quiet", action="store_true", help="no progress bar")
    sim.add_argument("--threads", type=_at_least(1), default=None, help="threads to use (default: all cores); the results do not depend on it")
    sim.add_argument("--terrain", choices=("standard", "open"), default="standard",
                     help="standard (default): a new rulebook table each game; open: no terrain")
    policies = ("default", "v3-2026-11", "greedy", "random", "hold")
    sim.add_argument("--policy-a", choices=policies, default="default", help="army A's AI (default: default)")
    sim.add_argument("--policy-b", choices=policies, default=None, help="army B's AI (default: army A's)")
    sim.add_argument("--rounds", type=_at_least(1), default=4, help="rounds per game (default 4, the rulebook's)")
    sim.add_argument("--edition", default=None, help="rules edition of the games: 3.5, 3.4.1, 2, firefight-3.2 (default: the lists' own)")
    sim.set_defaults(run=_simulate)
    pair = argparse.ArgumentParser(add_help=False)
    pair.add_argument("--file", type=Path, action="append", default=None,
                      help="army book JSON or army list text the units are from (repeat it for several; or name a unit "
                           "as FILE:UNIT); default: the example book")
    pair.add_argument("--edition", default=None, help="rules edition: 3.5 (default), 3.4.1, 2, firefight-3.2")
    unit_help = 'a unit\'s name in the --files, FILE:UNIT, or a profile in the rulebook\'s notation ("Squad [10] Q4+ D4+\\n10x Rifle (24\", A1)")'
    att = sub.add_parser("attack", parents=[common, pair], help="one unit attacks another, exactly: every stage's distribution")
    att.add_argument("attacker", help=unit_help)
    att.add_argument("target", help=unit_help)
    att.add_argument("--distance", type=float, default=12.0, help="inches between them when shooting (default 12)")
    att.add_argument("--melee", action="store_true", help="melee attacks instead of shooting")
    att.add_argument("--charging", action="store_true", help="with --melee: the attacker charged (Impact, Furious, Lance...)")
    att.add_argument("--cover", action="store_true", help="the target is in cover")
    att.set_defaults(run=_attack)
    mel = sub.add_parser("melee", parents=[common, pair], help="a charge to the end, exactly: who wins and how each side ends")
    mel.add_argument("charger", help=unit_help)
    mel.add_argument("defender", help=unit_help)
    mel.set_defaults(run=_melee)
    du = sub.add_parser("duel", parents=[common, pair], help="two units play the full game's rules alone: who destroys more of whom")
    du.add_argument("a", help=unit_help)
    du.add_argument("b", help=unit_help)
    du.add_argument("--games", type=_at_least(1), default=2_000, help="pairs of duels (default 2,000), seats swapped in each")
    du.add_argument("--seed", type=_at_least(0), default=1, help="seed (default 1)")
    du.add_argument("--line-up", type=float, default=None, help="inches between their closest models at the start (default 24)")
    du.add_argument("--distance", type=float, default=None, help="the old name of --line-up (deprecated: it goes in a later release)")
    du.add_argument("--threads", type=_at_least(1), default=None, help="threads (default: all cores); the results do not depend on it")
    du.set_defaults(run=_duel)
    fc = sub.add_parser("fair-cost", parents=[common], help="the points at which each unit trades evenly with a field, by play")
    fc.add_argument("file", nargs="?", type=Path, help="army book JSON or army list text; default: the embedded example army")
    fc.add_argument("--field", type=Path, action="append", default=None,
                    help="a book or list the units are judged against (repeatable); default: the units themselves")
    fc.add_argument("--top", type=_at_least(1), default=None, help="show only the N units furthest off")
    fc.add_argument("--seed", type=_at_least(0), default=0, help="seed of the field's resampling (default 0)")
    fc.add_argument("--edition", default=None, help="rules edition: 3.5 (default), 3.4.1, 2, firefight-3.2")
    fc.set_defaults(run=_fair_cost)
    be = sub.add_parser("break-even", parents=[common, pair], help="the cost (or Quality, Defense) at which a unit trades evenly")
    be.add_argument("unit", help=unit_help)
    be.add_argument("opponents", nargs="*", type=Path, help="books or lists of its opponents; default: the first --file's units")
    be.add_argument("--parameter", choices=("cost", "quality", "defense"), default="cost", help="what to vary (default cost)")
    be.set_defaults(run=_break_even)
    mx = sub.add_parser("matchups", parents=[common], help="every unit against every unit, exactly: the best and worst exchanges")
    mx.add_argument("file", nargs="?", type=Path, help="army book JSON or army list text; default: the embedded example army")
    mx.add_argument("against", nargs="?", type=Path, help="the defenders' book or list; default: the same units")
    mx.add_argument("--top", type=_at_least(1), default=10, help="the N best and N worst exchanges (default 10)")
    mx.add_argument("--edition", default=None, help="rules edition: 3.5 (default), 3.4.1, 2, firefight-3.2")
    mx.set_defaults(run=_matchups_cmd)
    eff = sub.add_parser("efficiency", parents=[common], help="points of reference targets each unit destroys per 100 points")
    eff.add_argument("file", nargs="?", type=Path, help="army book JSON or army list text; default: the embedded example army")
    eff.add_argument("--mode", default=None, help="shoot 12 / shoot 24 / charge / charged, as matchups name them (default: each unit's own)")
    eff.add_argument("--edition", default=None, help="rules edition (default 3.5)")
    eff.set_defaults(run=_efficiency)
    fa = sub.add_parser("factions", parents=[common], help="every faction's drawn lists against every other's, in paired games")
    fa.add_argument("books", nargs="+", type=Path, help="two or more Army Forge army books (.json), a faction each")
    fa.add_argument("--lists", type=_at_least(1), default=3, help="lists drawn from each book (default 3)")
    fa.add_argument("--points", type=_at_least(1), default=None, help="the lists' game size (default 2,000; Firefight books 300)")
    fa.add_argument("--games", type=_at_least(1), default=100, help="pairs of games each pairing of two lists plays (default 100)")
    fa.add_argument("--seed", type=_at_least(0), default=1, help="seed (default 1): the same seed draws the same lists and games")
    fa.add_argument("--threads", type=_at_least(1), default=None, help="threads to use (default: all cores); the results do not depend on it")
    fa.add_argument("--top", type=_at_least(1), default=None, help="show only the N strongest factions")
    fa.add_argument("--quiet", action="store_true", help="no progress bar")
    fa.add_argument("--edition", default=None, help="rules edition of the games: 3.5, 3.4.1, 2, firefight-3.2 (default: the books' own)")
    fa.set_defaults(run=_factions)
    val = sub.add_parser("validate", parents=[common], help="check an army list against gf-3.5's army-building rules (exit 1 if broken)")
    val.add_argument("file", nargs="?", type=Path, help="army list text; default: the embedded example army")
    val.add_argument("--points", type=_at_least(1), default=None, help="the game size (default: the list's own limit)")
    val.add_argument("--no-force-organisation", action="store_true", help="check only the points, not the optional force organisation")
    val.set_defaults(run=_validate)
    tour = sub.add_parser("tour", help="a short tour of the main results on the example army")
    tour.set_defaults(run=_tour)
    return parser


def _run_telling_warnings(args: argparse.Namespace) -> int:
    """Runs the command; its warnings (rules not modelled, a unit out of range...) follow on
    stderr, one line each, as the command's own messages rather than Python's."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            return args.run(args)
        finally:
            for message in dict.fromkeys(str(w.message) for w in caught):
                print(f"oprstats: warning: {message}", file=sys.stderr)


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
        return _run_telling_warnings(args)
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
