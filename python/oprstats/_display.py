"""Rich display in Jupyter: the ``_repr_html_`` of every result a user looks at, as plain
HTML tables (no scripts, no images; every text escaped), headline numbers first."""

from __future__ import annotations

import html
import math
from typing import Any, Iterable, Optional, Sequence

import numpy as np

from ._distribution import tails

# Rows a distribution table shows before it sums up the rest.
MAX_ROWS = 25
_BAR = "display:inline-block;height:0.8em;background:#4c72b0;vertical-align:middle"
_TABLE = "border-collapse:collapse;font-size:0.9em;margin:0.2em 0"
_CELL = "padding:1px 8px;text-align:{}"


def _esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _num(x: Any, digits: int = 3) -> str:
    if x is None:
        return ""
    if isinstance(x, (int, np.integer)):
        return f"{int(x):,}"
    x = float(x)
    if math.isnan(x):
        return "–"
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    return f"{x:.{digits}g}" if abs(x) < 10 ** digits else f"{x:,.0f}"


def table(headers: Sequence[str], rows: Iterable[Sequence[Any]], numeric: Optional[Sequence[bool]] = None) -> str:
    """An HTML table; cells are escaped unless wrapped by :func:`raw`."""
    rows = list(rows)
    numeric = numeric or [False] * len(headers)
    head = "".join(f'<th style="{_CELL.format("right" if n else "left")}">{_esc(h)}</th>' for h, n in zip(headers, numeric))
    body = "".join(
        "<tr>" + "".join(f'<td style="{_CELL.format("right" if n else "left")}">{c.html if isinstance(c, raw) else _esc(c)}</td>'
                         for c, n in zip(row, numeric)) + "</tr>"
        for row in rows)
    return f'<table style="{_TABLE}"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


class raw:
    """HTML to put in a table cell as it is (made here, never from user text)."""

    def __init__(self, html_text: str) -> None:
        self.html = html_text


def bar(p: float, width: int = 120) -> raw:
    """A horizontal bar for a probability from 0 to 1."""
    p = 0.0 if not math.isfinite(p) else min(max(p, 0.0), 1.0)
    return raw(f'<span style="{_BAR};width:{p * width:.1f}px"></span>')


def block(title: str, lines: Sequence[str] = (), *parts: str, notes: Sequence[str] = ()) -> str:
    """A titled block: a bold title, headline lines, then tables, then notes in grey."""
    out = [f"<div><strong>{_esc(title)}</strong>"]
    out += [f"<div>{_esc(line)}</div>" for line in lines]
    out += list(parts)
    out += [f'<div style="color:#666;font-size:0.85em">{_esc(n)}</div>' for n in notes]
    return "".join(out) + "</div>"


def distribution_table(pmf: np.ndarray, label: str = "k", stderr: Optional[np.ndarray] = None) -> str:
    """P(= k) with a bar and P(≥ k), row by row; past ``MAX_ROWS`` rows, the rest summed."""
    pmf = np.asarray(pmf, dtype=float)
    tail = tails(pmf)
    last = int(np.nonzero(pmf)[0].max()) if pmf.any() else 0
    shown = min(last, MAX_ROWS - 1)
    rows = []
    for k in range(shown + 1):
        row = [k, bar(pmf[k] / max(pmf.max(), 1e-300)), _num(pmf[k], 4), _num(tail[k], 4)]
        if stderr is not None:
            row.append(_num(stderr[k], 2))
        rows.append(row)
    if last > shown:
        rest = float(pmf[shown + 1:].sum())
        rows.append([f"{shown + 1}–{last}", bar(0.0), _num(rest, 4), _num(tail[shown + 1], 4)] + ([""] if stderr is not None else []))
    headers = [label, "", "P(= k)", "P(≥ k)"] + (["± s.e."] if stderr is not None else [])
    return table(headers, rows, [True, False, True, True] + ([True] if stderr is not None else []))


def ignored_note(names: Iterable[str]) -> list[str]:
    names = sorted(set(names))
    return [f"Not modelled (played as if absent): {', '.join(names)}"] if names else []


def interval(rate: float, low: float, high: float) -> str:
    return f"{rate:.3f} [{low:.3f}, {high:.3f}]"


def units_table(units: Sequence[Any]) -> str:
    """The units of a book or an army, as ``oprstats show`` prints them."""
    from ._tables import COLUMNS, HEADERS, NUMERIC, unit_cell, unit_rows

    rows = [[unit_cell(c, r[c]) for c in COLUMNS] for r in unit_rows(list(units))]
    return table([HEADERS[c] for c in COLUMNS], rows, [c in NUMERIC for c in COLUMNS])


def army_book_html(book: Any) -> str:
    return block(f"{book.name} (army book, v{book.version})", [f"{len(book.units)} units"], units_table(book.units))


def army_html(army: Any) -> str:
    title = army.name or "Army"
    return block(f"{title} (army list)", [f"{len(army.units)} units, {army.points} pts"], units_table(army.units))


def weapons_table(weapons: Sequence[Any]) -> str:
    """Weapons as the rulebook lists them: copies, name, range, attacks, rules."""
    rows = [[w.count, w.name, f'{w.range}"' if w.range is not None else "melee", f"A{w.attacks}", ", ".join(w.rules)]
            for w in weapons]
    return table(["", "weapon", "range", "attacks", "rules"], rows, [True, False, True, True, False])


def unit_html(unit: Any) -> str:
    """A unit's profile: its header (and a joined hero's), its rules, then its weapons."""
    parts = []
    hero = unit.hero
    for i, part in enumerate([unit.base, hero] if hero is not None else [unit]):
        cost = f" | {part.cost}pts" if part.cost is not None else ""
        head = f"{part.name} [{part.size}] Q{part.quality}+ D{part.defense}+{cost}"
        lines = [f"Rules: {', '.join(part.rules)}"] if part.rules else []
        title = f"joined by {head}" if i else head
        parts.append(block(title, lines, weapons_table(part.weapons)))
    notes = [f"Spells of its book: {', '.join(unit.spells)}"] if unit.spells else []
    return "".join(parts) + (block("", (), notes=notes) if notes else "")


def weapon_html(weapon: Any) -> str:
    return weapons_table([weapon])
