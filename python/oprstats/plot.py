"""Plots for notebooks (matplotlib, the ``oprstats[plot]`` extra).

Each function draws on an ``ax`` you pass (or a new figure) and returns the axes, so plots
compose with the rest of a notebook.
"""

from __future__ import annotations

import warnings

from typing import Any, Iterable, Optional, Sequence, Tuple

import numpy as np

from ._core import Unit
from ._editions import DEFAULT_EDITION
from ._distribution import tails
from ._efficiency import MEASURE_TEXT, EfficiencyCurve, efficiency_curve, mode_text



def _panels(ax, axes, name: str):
    """The axes a several-panel plot draws on: ``ax=`` (an array of Axes), as every plot
    takes it; ``axes=``, its old name, with a DeprecationWarning for one release."""
    if axes is None:
        return ax
    if ax is not None:
        raise TypeError(f"plot.{name}: give ax= only (axes= is its old name)")
    warnings.warn(f"plot.{name}(axes=...) is now plot.{name}(ax=...); axes= goes in a later release",
                  DeprecationWarning, stacklevel=3)
    return axes

def _pyplot():
    from ._optional import optional

    return optional("matplotlib.pyplot", "plot", "oprstats.plot")


def _axes(ax, ncols: int = 1, width: float = 6.0, height: float = 4.0, constrained: bool = False):
    plt = _pyplot()
    if ax is not None:
        return ax
    # constrained: the figure keeps room for a legend placed outside the axes, so a plain
    # savefig (without bbox_inches="tight") does not cut it off
    _fig, axes = plt.subplots(1, ncols, figsize=(width * ncols, height), squeeze=False, layout="constrained" if constrained else None)
    return axes[0] if ncols > 1 else axes[0][0]


def _legend_below(ax, ncol: int, extra: Sequence[tuple] = ()) -> None:
    """``ax``'s legend (and ``extra`` (handle, label) pairs) under the axes, inside the figure
    when it was made here (constrained layout); on axes the caller made, in the axes' best
    corner instead."""
    handles, labels = ax.get_legend_handles_labels()
    handles, labels = list(handles) + [h for h, _ in extra], list(labels) + [label for _, label in extra]
    if ax.figure.get_layout_engine() is not None:
        ax.figure.legend(handles, labels, loc="outside lower center", ncol=ncol, fontsize="small", frameon=False)
    else:
        ax.legend(handles, labels, fontsize="x-small")


def _curves(units: Iterable[Any], **options: Any) -> list[EfficiencyCurve]:
    out = []
    for i, u in enumerate(units):
        if isinstance(u, EfficiencyCurve):
            out.append(u)
        elif isinstance(u, Unit):
            out.append(efficiency_curve(u, **options))
        else:
            raise TypeError(f"units[{i}]: expected an oprstats.Unit or EfficiencyCurve, got {type(u).__name__}")
    if not out:
        raise ValueError("units: give at least one unit")
    return out


def efficiency_curves(units: Sequence[Any], *, mode: Optional[str] = None, measure: str = "points",
                      defense: Sequence[int] = (6, 5, 4, 3, 2), tough: Sequence[int] = (1, 3, 6, 12),
                      edition: str = DEFAULT_EDITION, ax: Any = None, axes: Any = None):
    """Damage per 100 points of several units on one figure: against target Defense (left,
    averaged over the targets' Tough) and against target Tough (right, averaged over
    Defense).

    ``measure``: "points" of the target destroyed (the default: comparable across targets),
    "wounds" or "kills". ``mode``: one way of attacking for every unit, or (None) each
    unit's own (:func:`natural_mode`: shooting at 12" or charging, whichever does more).
    ``units``: units (their curves are computed) or :class:`EfficiencyCurve` results. A unit
    that deals nothing is named in the legend rather than drawn over the others at zero.
    """
    axes = _panels(ax, axes, "efficiency_curves")
    curves = _curves(units, mode=mode, measure=measure, defense=defense, tough=tough, edition=edition)
    grids = {(tuple(c.defense), tuple(c.tough), c.measure) for c in curves}
    if len(grids) > 1:
        raise ValueError("units: the curves have different Defense or Tough grids or measures; give curves computed alike")
    if axes is None:
        axes = _axes(None, ncols=2, width=5.5, height=4.6, constrained=True)
    left, right = axes
    modes = {c.mode for c in curves}
    first = curves[0]
    positions = np.arange(len(first.tough))
    for c in curves:
        label = f"{c.unit} ({c.points:g} pts" + ("" if len(modes) == 1 else f", {mode_text(c.mode)}") + ")"
        if not np.any(c.values):
            left.plot([], [], ls="none", label=f"{label}: deals nothing")
            continue
        line = left.plot(c.defense, c.values.mean(axis=1), marker="o", label=label)[0]
        right.plot(positions[: len(c.tough)], c.values.mean(axis=0), marker="o", color=line.get_color())
    what = MEASURE_TEXT[first.measure]
    left.set_xlabel("target Defense")
    left.set_xticks(first.defense, [f"{d}+" for d in first.defense])
    left.invert_xaxis()
    right.set_xlabel("target (Quality 4+, about 10 wounds)")
    right.set_xticks(positions, first.target_labels, fontsize="small")
    for ax in (left, right):
        ax.set_ylabel(f"{what} per 100 pts")
        ax.set_ylim(bottom=0)
        ax.grid(alpha=0.3)
    how = mode_text(first.mode) if len(modes) == 1 else "each unit's own mode"
    left.set_title(f"by target Defense ({how})", fontsize="medium")
    right.set_title(f"by target Tough ({how})", fontsize="medium")
    # under both panels: a legend inside would cover the lines
    _legend_below(left, 2)
    return axes


def efficiency_heatmap(curve: EfficiencyCurve, *, ax=None):
    """One unit's efficiency curve as a Defense x target heat map with the values written in;
    each column names its targets as they are (``3 × Tough 3``)."""
    if not isinstance(curve, EfficiencyCurve):
        raise TypeError(f"curve: expected an EfficiencyCurve, got {type(curve).__name__}")
    ax = _axes(ax)
    im = ax.imshow(curve.values, cmap="viridis", aspect="auto", vmin=0)
    labels = curve.target_labels if len(curve.models) == len(curve.tough) else [f"Tough {t}" for t in curve.tough]
    ax.set_xticks(range(len(curve.tough)), labels, fontsize="small")
    ax.set_yticks(range(len(curve.defense)), [f"D{d}+" for d in curve.defense])
    ax.set_xlabel("target (Quality 4+, about 10 wounds)")
    ax.set_ylabel("target Defense")
    top = curve.values.max()
    for (i, j), v in np.ndenumerate(curve.values):
        ax.text(j, i, f"{v:.2f}" if top < 10 else f"{v:.1f}", ha="center", va="center",
                color="white" if v < top / 2 else "black", fontsize="small")
    what = MEASURE_TEXT[curve.measure]
    ax.set_title(f"{curve.unit}: {what} per 100 pts, {mode_text(curve.mode)}", fontsize="medium")
    ax.figure.colorbar(im, ax=ax, label=f"{what} per 100 pts")
    return ax


def _bars(ax, pmf: np.ndarray, *, offset: float = 0.0, width: float = 0.8, stderr=None, **style):
    """A pmf as bars (error bars of one standard error for a sampled one)."""
    k = np.arange(pmf.size)
    return ax.bar(k + offset, pmf, width=width, yerr=stderr, capsize=2 if stderr is not None else 0, **style)


def _count_ticks(ax, n: int, axis: str = "x") -> None:
    """Whole-number ticks over the counts 0 to n - 1."""
    from matplotlib.ticker import MaxNLocator

    getattr(ax, f"{axis}axis").set_major_locator(MaxNLocator(integer=True))
    getattr(ax, f"set_{axis}lim")(-0.6, max(n, 1) - 0.4)


def distribution(dist: Any, *, label: str = "count", ax=None):
    """A :class:`oprstats.Distribution` as bars of P(X = k), with the chance of at least
    ``k`` as a line on a second axis (error bars for a sampled distribution)."""
    from ._distribution import Distribution

    if not isinstance(dist, Distribution):
        raise TypeError(f"dist: expected an oprstats.Distribution, got {type(dist).__name__}")
    ax = _axes(ax)
    n = dist.max + 1
    pmf = dist.pmf[:n]
    stderr = None if dist.stderr is None else dist.stderr[:n]
    _bars(ax, pmf, stderr=stderr, color="tab:blue", alpha=0.8, label="P(= k)")
    twin = ax.twinx()
    twin.step(np.arange(n), tails(pmf), where="mid", color="tab:orange", label="P(≥ k)")
    twin.set_ylim(0, 1.05)
    twin.set_ylabel("chance of at least k", color="tab:orange")
    ax.set_xlabel(label)
    ax.set_ylabel("chance of exactly k")
    _count_ticks(ax, n)
    kind = "exact" if dist.samples is None else f"{dist.samples:,} samples"
    ax.set_title(f"{label}: mean {dist.mean():.3g}, std {dist.std():.3g} ({kind})", fontsize="medium")
    ax.grid(axis="y", alpha=0.3)
    return ax


_STAGES = (("hits", "hits"), ("unblocked", "unblocked (failed blocks)"), ("wounds", "wounds"), ("kills", "models killed"))


def attack(result: Any, *, ax=None, axes=None):
    """An :func:`oprstats.attack` at every stage: the chance of each count of hits,
    failed blocks, wounds and models killed (left, side by side), and the chance of at least
    that many (right). A sampled result has error bars of one standard error. Returns the
    two axes."""
    axes = _panels(ax, axes, "attack")
    from ._attack import AttackResult

    if not isinstance(result, AttackResult):
        raise TypeError(f"result: expected an oprstats.AttackResult, got {type(result).__name__}")
    if axes is None:
        axes = _axes(None, ncols=2, width=5.5, height=4.4, constrained=True)
    left, right = axes
    stages = [(label, getattr(result, name)) for name, label in _STAGES]
    n = max(d.max for _, d in stages) + 1
    width = 0.8 / len(stages)
    for i, (label, d) in enumerate(stages):
        pmf = np.pad(d.pmf[:n], (0, max(0, n - min(d.pmf.size, n))))
        stderr = None if d.stderr is None else np.pad(d.stderr[:n], (0, max(0, n - min(d.pmf.size, n))))
        colour = f"C{i}"
        _bars(left, pmf, offset=(i - (len(stages) - 1) / 2) * width, width=width, stderr=stderr, color=colour)
        # equal stages (wounds and kills of single-wound models) would hide each other: dashes
        right.step(np.arange(n), tails(pmf), where="mid", color=colour, lw=2.2 - 0.4 * i, ls=("-", "--", "-.", ":")[i],
                   label=f"{label} (mean {d.mean():.2f})")
    left.set_ylabel("chance of exactly k")
    right.set_ylabel("chance of at least k")
    right.set_ylim(0, 1.05)
    for ax in (left, right):
        ax.set_xlabel("count k")
        _count_ticks(ax, n)
        ax.grid(axis="y", alpha=0.3)
    # one legend for both panels: a stage has the same colour in each
    _legend_below(right, 4)
    kind = "exact" if result.samples is None else f"{result.samples:,} samples"
    left.set_title(f"{'melee' if result.melee else 'shooting'}: each stage ({kind})", fontsize="medium")
    right.set_title(f"P(destroyed) {result.p_destroyed:.3f}" + ("" if result.p_morale_test is None
                    else f", P(morale test) {result.p_morale_test:.3f}"), fontsize="medium")
    _ignored(left.figure, result.unmodelled)
    return axes


def _ignored(fig, rules) -> None:
    """Rules a result does not model, written under the figure (nothing is left out silently)."""
    if not rules:
        return
    text = "not modelled: " + ", ".join(rules)
    if fig.get_layout_engine() is not None:  # the layout keeps room for it
        fig.supxlabel(text, x=0.01, ha="left", fontsize="x-small", color="0.35")
    else:
        fig.text(0.01, 0.005, text, fontsize="x-small", color="0.35", va="bottom")


_FATES = (("p_destroyed", "destroyed", "tab:red"), ("p_routed", "routed", "tab:orange"), ("p_shaken", "Shaken", "gold"),
          ("p_unaffected", "unaffected", "tab:green"))


def melee(result: Any, *, ax=None, axes=None):
    """A :func:`oprstats.melee`: who wins and how each side ends (left: stacked bars of
    destroyed, routed, Shaken and unaffected), and the joint chance of the models each side
    has left (right: charger's models down, defender's across). Returns the two axes."""
    axes = _panels(ax, axes, "melee")
    from ._melee import MeleeResult

    if not isinstance(result, MeleeResult):
        raise TypeError(f"result: expected an oprstats.MeleeResult, got {type(result).__name__}")
    if axes is None:
        axes = _axes(None, ncols=2, width=5.5, height=4.4, constrained=True)
    left, right = axes
    rows = [("charger", result.charger), ("defender", result.defender)]
    for y, (_name, side) in enumerate(rows):
        start = 0.0
        for attr, label, colour in _FATES:
            p = getattr(side, attr)
            left.barh(y, p, left=start, color=colour, label=label if y == 0 else None, edgecolor="white", linewidth=0.5)
            if p >= 0.07:
                left.text(start + p / 2, y, f"{p:.0%}", ha="center", va="center", fontsize="small")
            start += p
    labels = [f"{name}\n{side.wounds_caused.mean():.2f} wounds dealt" for name, side in rows]
    if result.p_tie is not None and result.p_charger_wins is not None and result.p_defender_wins is not None:
        y = len(rows)
        start = 0.0
        winners = ((result.p_charger_wins, "charger wins", "tab:blue"), (result.p_tie, "tie", "0.7"),
                   (result.p_defender_wins, "defender wins", "tab:purple"))
        for p, label, colour in winners:
            left.barh(y, p, left=start, color=colour, label=label, edgecolor="white", linewidth=0.5)
            if p >= 0.07:
                left.text(start + p / 2, y, f"{p:.0%}", ha="center", va="center", fontsize="small", color="white")
            start += p
        labels.append("melee result")
    left.set_yticks(range(len(labels)), labels, fontsize="small")
    left.invert_yaxis()
    left.set_xlim(0, 1)
    left.set_xlabel("chance")
    _legend_below(left, 7)
    kind = "exact" if result.samples is None else f"{result.samples:,} samples"
    left.set_title(f"how the charge ends ({kind})", fontsize="medium")
    grid = np.asarray(result.models_left)
    # outcomes that cannot happen stay blank, so the possible ones stand out
    im = right.imshow(np.ma.masked_equal(grid, 0.0), origin="lower", cmap="viridis_r", aspect="auto", vmin=0)
    right.set_xlabel("defender's models left")
    right.set_ylabel("charger's models left")
    _count_ticks(right, grid.shape[1])
    _count_ticks(right, grid.shape[0], axis="y")
    right.set_title("models left after casualties (before a Rout)", fontsize="medium")
    right.figure.colorbar(im, ax=right, label="chance")
    _ignored(left.figure, result.unmodelled)
    return axes


def games(result: Any, *, ax=None, axes=None):
    """A :func:`oprstats.simulate` result: army A's win, draw and loss rates and the first
    player's win rate with their 95% intervals (left), the margin of objectives held at the
    end (middle), and what each unit did: mean wounds dealt per game, with the rate it was
    destroyed (right). Returns the three axes."""
    axes = _panels(ax, axes, "games")
    from ._game import GameResult

    if not isinstance(result, GameResult):
        raise TypeError(f"result: expected an oprstats.GameResult, got {type(result).__name__}")
    if len(result) == 0:
        raise ValueError("result: it holds no games (was the run interrupted at once?)")
    info = result._info
    plt = _pyplot()
    if axes is None:
        units = len(info[0]) + len(info[1])
        _fig, axes = plt.subplots(1, 3, figsize=(16, max(4.0, 0.28 * units + 1.5)), width_ratios=[1, 1, 1.4])
    rates_ax, margin_ax, units_ax = axes
    rates = {**result.rates(), "first player wins": result.first_player_effect()["first_player_wins"]}
    labels = ["A wins", "draws", "B wins", "first player wins"]
    colours = [_ARMY_COLOURS[0], "0.6", _ARMY_COLOURS[1], "tab:green"]
    values = list(rates.values())
    y = np.arange(len(values))
    rate = np.array([v[0] for v in values])
    err = np.array([[v[0] - v[1] for v in values], [v[2] - v[0] for v in values]])
    rates_ax.barh(y, rate, xerr=err, color=colours, capsize=3)
    for i, (r, lo, hi) in enumerate(values):
        if hi < 0.85:
            rates_ax.text(hi + 0.02, i, f"{r:.1%}", va="center", fontsize="small")
        else:  # no room beside the interval: inside the bar
            rates_ax.text(lo - 0.02, i, f"{r:.1%}", va="center", ha="right", fontsize="small", color="white")
    rates_ax.set_yticks(y, labels)
    rates_ax.invert_yaxis()
    rates_ax.set_xlim(0, 1)
    rates_ax.axvline(0.5, color="0.3", lw=0.6, ls=":")
    level = "pairs" if result.paired else "games"
    rates_ax.set_xlabel(f"rate (95% interval over the {level})")
    rates_ax.set_title(f"{len(result):,} games" + (" (paired)" if result.paired else ""), fontsize="medium")
    # which army is which: their lists' names where they have them
    names = getattr(result, "names", ("army A", "army B"))
    rates_ax.figure.suptitle(f"A: {names[0]}  vs  B: {names[1]}", fontsize="large")
    margin = result.objectives[:, 0].astype(int) - result.objectives[:, 1].astype(int)
    low, high = int(margin.min()), int(margin.max())
    ks = np.arange(low, high + 1)
    counts = np.array([np.count_nonzero(margin == k) for k in ks]) / len(margin)
    margin_ax.bar(ks, counts, color=[_ARMY_COLOURS[0] if k > 0 else _ARMY_COLOURS[1] if k < 0 else "0.6" for k in ks])
    margin_ax.set_xticks(ks)
    margin_ax.set_xlabel("objectives held at the end, A minus B")
    margin_ax.set_ylabel("share of games")
    margin_ax.set_title(f"objective margin (mean {margin.mean():+.2f})", fontsize="medium")
    margin_ax.grid(axis="y", alpha=0.3)
    stats = result.unit_stats
    from ._game import WASTED_NOTE

    # the share of each unit's turns that did nothing useful (named where it is high)
    wasted_by_unit = {(army, u): share for army, u, _name, share in result.wasted_units()}
    names, dealt, destroyed, wasted, colours = [], [], [], [], []
    for army, key in ((0, "a"), (1, "b")):
        for u, (name, points, _models, _radius) in enumerate(info[army]):
            names.append(f"{'AB'[army]}{u} {name} ({points:g} pts)")
            dealt.append(stats[key]["wounds_dealt"][u])
            destroyed.append(stats[key]["destroyed"][u])
            wasted.append(wasted_by_unit.get((key, u)))
            colours.append(_ARMY_COLOURS[army])
    y = np.arange(len(names))
    units_ax.barh(y, dealt, color=colours, alpha=0.8)
    for i, (w, d, idle) in enumerate(zip(dealt, destroyed, wasted)):
        label = f" {d:.0%} destroyed or routed" + (f"; {idle:.0%} of its turns wasted" if idle is not None else "")
        units_ax.text(w, i, label, va="center", fontsize="x-small")
    units_ax.set_yticks(y, [n if len(n) <= 40 else n[:39] + "…" for n in names], fontsize="x-small")
    units_ax.invert_yaxis()
    units_ax.set_xlabel("mean wounds dealt per game")
    units_ax.set_title(f"each unit (label: destroyed or routed; turns wasted, if {WASTED_NOTE:.0%}+)", fontsize="medium")
    units_ax.set_xlim(0, max(max(dealt, default=0.0), 1e-9) * 1.6)
    units_ax.grid(axis="x", alpha=0.3)
    fig = rates_ax.figure
    if result.unmodelled:
        from ._game import unmodelled_items

        _ignored(fig, unmodelled_items(result.unmodelled))
    fig.tight_layout(rect=(0, 0.03 if result.unmodelled else 0, 1, 1))
    return axes


def fairness(frame: Any, *, top: int = 20, ax=None):
    """The fairness ranking (:func:`oprstats.fairness`) as horizontal bars: the ``top``
    units (or options) furthest off, over-costed to the right (red), under-costed to the left
    (blue), each over the grey range its 90% prediction interval allows; bars inside it are
    pale."""
    if not hasattr(frame, "columns") or "difference" not in frame.columns or not {"modelled", "fair"} & set(frame.columns):
        raise TypeError("frame: expected the DataFrame oprstats.fairness() or oprstats.fair_cost() returns")
    options = "option" in frame.columns
    by_play = "fair" in frame.columns
    if by_play:
        frame = frame.rename(columns={"fair": "modelled"})
    column = "difference" if options else "difference_pct"
    ranked = frame.dropna(subset=[column])
    rows = ranked.head(top).iloc[::-1]
    ax = _axes(ax, width=8.0, height=max(3.0, 0.3 * len(rows) + 1.4), constrained=True)
    y = range(len(rows))
    has_range = {"low", "high"} <= set(rows.columns) and rows["low"].notna().any()
    if has_range:
        scale = 1.0 if options else 100.0 / rows["modelled"]
        lo, hi = (rows["low"] - rows["modelled"]) * scale, (rows["high"] - rows["modelled"]) * scale
        ax.barh(y, hi - lo, left=lo, height=0.8, color="0.88", label="interval of the fair cost by play (field resampled)" if by_play else "90% interval of a fair price")
    inside = rows["verdict"].isin(["within interval", "within the field's spread"]) if "verdict" in rows.columns else [False] * len(rows)
    import matplotlib.colors as mcolors

    colours = [mcolors.to_rgba("tab:red" if d > 0 else "tab:blue", 0.35 if has_range and i else 1.0) for d, i in zip(rows[column], inside)]
    ax.barh(y, rows[column], height=0.5, color=colours)
    # every kind of bar drawn, in the legend
    from matplotlib.patches import Patch

    kinds = []
    for over, pale in ((True, False), (True, True), (False, False), (False, True)):
        if any((d > 0) == over and bool(has_range and i) == pale for d, i in zip(rows[column], inside)):
            label = ("over-costed" if over else "under-costed") + ((", within the interval" if pale else ", outside it") if has_range else "")
            kinds.append((Patch(facecolor=mcolors.to_rgba("tab:red" if over else "tab:blue", 0.35 if pale else 1.0)), label))
    unit_word = "options" if options else "units"
    if len(rows) < len(ranked):
        ax.set_title(f"the {len(rows)} of {len(ranked)} {unit_word} furthest off (top={top}; more with a larger top)", fontsize="medium")
    short = lambda text: text if len(text) <= 44 else text[:43] + "…"
    labels = ([short(f"{u}: {o.split(':', 1)[-1].strip()}") + f" ({c} pts)" for u, o, c in zip(rows["unit"], rows["option"], rows["official"])] if options
              else [f"{u} ({o} pts)" for u, o in zip(rows["unit"], rows["official"])])
    ax.set_yticks(list(y), labels, fontsize="small")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("official minus modelled price, points (right: over-costed)" if options
                  else "official minus fair cost by play, % of fair (right: over-costed)" if by_play
                  else "official minus modelled, % of modelled (right: over-costed)")
    # under the bars: inside, it would cover the bottom ones
    _legend_below(ax, 3 if has_range else 2, kinds)
    if has_range:
        # a bar's base is a sticky edge: without room, the widest interval looks cut off
        low, high = ax.get_xlim()
        ax.set_xlim(low - 0.03 * (high - low), high)
    ax.grid(axis="x", alpha=0.3)
    return ax


def matchups(result: Any, *, mode: Optional[str] = None, value: str = "net", ax=None):
    """A :func:`oprstats.matchups` table as a heat map, attackers down and defenders across:
    ``value`` ("net": dealt less taken, "dealt", "taken", "p_destroyed" or "p_lost") in one
    ``mode``, or (None) in each pair's best mode for the attacker by net. Cells are
    numbered when the table is small enough to read; grey cells cannot happen (an Aircraft
    charged)."""
    from ._matchups import Matchups

    if not isinstance(result, Matchups):
        raise TypeError(f"result: expected oprstats.Matchups, got {type(result).__name__}")
    from ._matchups import VALUES

    if value not in VALUES:
        raise ValueError(f"value: must be one of {VALUES} (got {value!r})")
    grid, how = (result.best(value), "each pair's best mode") if mode is None else (getattr(result, value)[result.mode(mode)], mode)
    na, nd = grid.shape
    ax = _axes(ax, width=max(5.0, 0.55 * nd + 3.0), height=max(3.0, 0.4 * na + 2.0))
    import matplotlib.colors as mcolors
    import matplotlib.pyplot as plt

    finite = grid[np.isfinite(grid)]
    norm: mcolors.Normalize
    if value == "net":
        bound = float(np.abs(finite).max()) if finite.size and np.abs(finite).max() > 0 else 1.0
        cmap, norm = plt.get_cmap("RdBu").with_extremes(bad="0.85"), mcolors.TwoSlopeNorm(0.0, -bound, bound)
    else:
        high = float(finite.max()) if finite.size and finite.max() > 0 else 1.0
        cmap, norm = plt.get_cmap("viridis").with_extremes(bad="0.85"), mcolors.Normalize(0.0, high)
    im = ax.imshow(np.ma.masked_invalid(grid), cmap=cmap, norm=norm, aspect="auto")
    ax.set_xticks(range(nd), result.defenders, rotation=45, ha="right", fontsize="small")
    ax.set_yticks(range(na), result.attackers, fontsize="small")
    ax.set_xlabel("defender")
    ax.set_ylabel("attacker")
    if na * nd <= 400:
        for i in range(na):
            for j in range(nd):
                if np.isfinite(grid[i, j]):
                    shade = cmap(norm(grid[i, j]))
                    dark = 0.299 * shade[0] + 0.587 * shade[1] + 0.114 * shade[2] < 0.5
                    ax.text(j, i, f"{grid[i, j]:.2f}" if value.startswith("p_") else f"{grid[i, j]:.0f}", ha="center", va="center",
                            fontsize="x-small", color="white" if dark else "black")
    unit = "chance" if value.startswith("p_") else result.measure
    titles = {"net": f"{unit} destroyed less {unit} lost", "dealt": f"{unit} of the defender destroyed", "taken": f"{unit} of the attacker lost",
              "p_destroyed": "chance the defender is removed", "p_lost": "chance the attacker is removed"}
    ax.set_title(f"{titles[value]}, per activation ({how})", fontsize="medium")
    ax.figure.colorbar(im, ax=ax, label=titles[value] if value.startswith("p_") else f"{unit} (blue: the attacker gains)" if value == "net" else unit)
    return ax


def breakdown(price: Any, *, ax=None):
    """A price's terms (:meth:`oprstats.CostModel.predict`) as a waterfall of points."""
    from ._points import Price

    if not isinstance(price, Price):
        raise TypeError(f"price: expected an oprstats.Price, got {type(price).__name__}")
    terms = list(price.terms)
    ax = _axes(ax, height=max(3.0, 0.35 * len(terms) + 1.5))
    start = 0.0
    colours = {"profile": "tab:gray", "weapon": "tab:orange", "rule": "tab:green"}
    for i, t in enumerate(terms):
        ax.barh(i, t.points, left=start, color=colours.get(t.kind, "tab:purple"))
        ax.text(start + t.points, i, f" {t.points:+.0f}", va="center", fontsize="small")
        start += t.points
    ax.set_yticks(range(len(terms)), [t.label for t in terms], fontsize="small")
    ax.invert_yaxis()
    if price.official is not None:
        ax.axvline(price.official, color="black", ls="--", lw=1, label=f"official {price.official} pts")
        ax.legend(fontsize="small", loc="best")
    ax.set_xlabel("points")
    ax.set_title(f"{price.unit}: {price.points:.0f} pts modelled")
    return ax


_ARMY_COLOURS = ("tab:blue", "tab:red")


def _terrain_style(piece) -> dict:
    if piece.impassable:
        return {"facecolor": "0.35", "edgecolor": "0.2", "hatch": None}
    if piece.dangerous:
        return {"facecolor": "#f4a582", "edgecolor": "#b2182b", "hatch": "xx"}
    if piece.blocking:
        return {"facecolor": "#7fbf7b", "edgecolor": "#1b7837", "hatch": "//" if piece.difficult else None}
    if piece.cover:
        return {"facecolor": "#d9d9d9", "edgecolor": "0.4", "hatch": None}
    return {"facecolor": "#dfc27d", "edgecolor": "#8c510a", "hatch": ".." if piece.difficult else None}


def game(result, game: int = 0, *, rounds: Optional[Sequence[int]] = None, ax=None, axes=None):
    """Draws a traced game (``simulate(..., trace=True)``) round by round: the table (72" x 48",
    or Firefight's 48" x 48"), its terrain (grey: impassable buildings; green: forests and
    walls that block sight; light grey: cover; tan: difficult; red: dangerous), the objective
    markers coloured by who holds them, and each unit's models on their bases, labelled A0,
    A1... and B0, B1... (army A blue, army B red; pale: Shaken, v2.x's Wavering or
    Firefight's Stunned; dashed: arrived by Ambush this round), with the moves made during the
    round as arrows. Units inside a transport are named on a badge under it ("in
    A0: A2 A3"): they stand nowhere on the table, but are there. A legend under the table
    names every unit and the marks; the title gives the game's result.

    ``rounds``: which snapshots to draw (0 is the table after deployment); all by default.
    Returns the array of axes.
    """
    axes = _panels(ax, axes, "game")
    from matplotlib.patches import Circle, Rectangle

    from ._attack import shown

    plt = _pyplot()
    traces = getattr(result, "traces", None)
    if not traces:
        raise ValueError("game: the result holds no trace; run simulate(..., trace=True)")
    if isinstance(game, bool) or not isinstance(game, (int, np.integer)) or not 0 <= game < len(traces):
        raise ValueError(f"game: must be the index of a traced game, 0 to {len(traces) - 1} (got {shown(game)})")
    trace = traces[game]
    width, depth = trace.table
    last = max(e["round"] for e in trace.events)
    rounds = list(range(0, last + 1)) if rounds is None else list(rounds)
    info = result._info
    if axes is None:
        cols = min(3, len(rounds))
        rows = -(-len(rounds) // cols)
        # a 72" x 48" table 4.9" wide is 3.3" high (a square one 4.9"); its title and ticks take 0.9" more
        _fig, grid = plt.subplots(rows, cols, figsize=(5.2 * cols, (1.0 + 4.9 * depth / width) * rows + _legend_inches(info) + 0.5),
                                  squeeze=False)
        axes = grid.ravel()
        for extra in axes[len(rounds):]:
            extra.set_visible(False)
    fig = axes[0].figure
    any_carried = False
    for ax, r in zip(axes, rounds):
        ax.add_patch(Rectangle((0, 0), width, depth, facecolor="#f7f4ea", edgecolor="black"))
        for piece in trace.terrain:
            style = _terrain_style(piece)
            ax.add_patch(Rectangle((piece.x0, piece.y0), piece.x1 - piece.x0, piece.y1 - piece.y0, alpha=0.9, **style))
        owners = trace.owners(r) if r > 0 else [-1] * len(trace.objectives)
        for (x, y), owner in zip(trace.objectives, owners):
            colour = "0.5" if owner < 0 else _ARMY_COLOURS[owner]
            ax.add_patch(Circle((x, y), 3.0, fill=False, linestyle=":", edgecolor=colour))
            ax.plot([x], [y], marker="*", markersize=12, color=colour, markeredgecolor="black")
        for e in trace.events:
            moved = e["kind"] in ("advance", "rush", "charge", "idle", "hit-and-run", "place", "embark", "disembark")
            if e["round"] == r and moved and e["from"] != e["to"] and (r > 0 or e["kind"] == "place"):
                (x0, y0), (x1, y1) = e["from"], e["to"]
                # placements (Wolfborn, Fanatic...) are not moves: dotted
                ax.annotate("", xy=(x1, y1), xytext=(x0, y0),
                            arrowprops={"arrowstyle": "->", "color": _ARMY_COLOURS[e["army"]], "lw": 0.8,
                                        "linestyle": ":" if e["kind"] == "place" else "-"})
        drawn = {}  # (army, unit) -> (x, y, lowest, highest, half width) of its bases, for its passengers' badge
        # what a badge should not cover, in table inches: markers, bases, labels
        markers = list(trace.objectives)
        circles: list = []
        boxes = []
        for e in trace.positions(r):
            # units inside a transport stand nowhere: the badge under their transport names them
            if e["detail"] in ("gone", "reserve", "inside"):
                continue
            army, unit = e["army"], e["unit"]
            pale = e["detail"] == "shaken"
            # each model on its own base; older traces without models: the unit's disc
            bases = e.get("models") or [(*e["to"], info[army][unit][3])]
            for x, y, base in bases:
                ax.add_patch(Circle((x, y), base, facecolor=_ARMY_COLOURS[army], alpha=0.3 if pale else 0.75, linewidth=0.4,
                                    edgecolor="black", linestyle="--" if e["detail"] == "arrived" else "-"))
            top = max(y + base for _, y, base in bases)
            ax.text(e["to"][0], top + 0.4, f"{'AB'[army]}{unit}", ha="center", va="bottom", fontsize=6, color=_ARMY_COLOURS[army])
            cx, cy = e["to"]
            drawn[(army, unit)] = (cx, cy, min(y - base for _, y, base in bases), top,
                                   max(abs(x - cx) + base for x, _, base in bases))
            circles += bases
            boxes.append((cx - 1.5, top + 0.4, cx + 1.5, top + 2.6))
        any_carried |= _passenger_badges(ax, trace.carried(r), drawn, markers, circles, boxes, (width, depth))
        ax.set_xlim(-1, width + 1)
        ax.set_ylim(-1, depth + 1)
        ax.set_aspect("equal")
        ax.set_xticks(np.arange(0, width + 1, 12))
        ax.set_yticks(np.arange(0, depth + 1, 12))
        ax.set_title("after deployment" if r == 0 else f"end of round {r}", fontsize=10)
    _game_legend(fig, result, game, info, any_carried)
    return axes


def _passenger_badges(ax, carried: dict, drawn: dict, markers: list, circles: list, boxes: list,
                      table: Tuple[float, float]) -> bool:
    """Beside each transport drawn, a badge naming the units inside it ("in A0: A2 A3", three
    to a line) in its army's colour, where it covers the least (:func:`_covered`: objective
    ``markers``, bases, labels): under the transport, over its label, or to its left or
    right; whether any was drawn."""
    inside: dict = {}
    for (army, unit), transport in sorted(carried.items()):
        if transport in drawn:  # a transport off the table (in reserve) is not drawn: nor are they
            inside.setdefault(transport, []).append(f"{'AB'[army]}{unit}")
    fig = ax.figure
    box = ax.get_position()
    # inches of paper per inch of table: the view, an inch past each edge, kept in proportion (aspect "equal")
    scale = min(box.width * fig.get_figwidth() / (table[0] + 2.0), box.height * fig.get_figheight() / (table[1] + 2.0))
    size = 5.5 / 72.0  # the badge's font, in inches of paper
    for (army, t), labels in inside.items():
        x, y, low, top, half = drawn[(army, t)]
        lines = [" ".join(labels[k:k + 3]) for k in range(0, len(labels), 3)]
        text = f"in {'AB'[army]}{t}: " + "\n".join(lines)
        # its size in table inches: characters about 0.6 of the font wide, lines 1.2 high
        w = (0.6 * size * max(len(line) for line in text.split("\n")) + 0.5 * size) / scale
        h = (1.2 * size * len(lines) + 0.5 * size) / scale
        spots = [(x, low - 0.6, "center", "top", (x - w / 2, low - 0.6 - h, x + w / 2, low - 0.6)),
                 (x, top + 3.0, "center", "bottom", (x - w / 2, top + 3.0, x + w / 2, top + 3.0 + h)),
                 (x - half - 0.8, y, "right", "center", (x - half - 0.8 - w, y - h / 2, x - half - 0.8, y + h / 2)),
                 (x + half + 0.8, y, "left", "center", (x + half + 0.8, y - h / 2, x + half + 0.8 + w, y + h / 2))]
        bx, by, ha, va, rect = min(spots, key=lambda s: _covered(s[4], markers, circles, boxes))
        boxes.append(rect)
        # see-through enough that a model under it still shows
        ax.text(bx, by, text, ha=ha, va=va, multialignment="left", fontsize=5.5, color=_ARMY_COLOURS[army], zorder=5,
                bbox={"boxstyle": "round,pad=0.25", "facecolor": (1, 1, 1, 0.8), "edgecolor": _ARMY_COLOURS[army], "linewidth": 0.6})
    return bool(inside)


def _covered(rect: tuple, markers: list, circles: list, boxes: list) -> float:
    """How much a badge at ``rect`` (x0, y0, x1, y1) would hide, in table inches: an
    objective marker's star counts 2 (the game is scored on them) and its dotted 3" ring a
    half, a circle (x, y, radius: a base) and a box (a label, a badge) 1 each, and leaving
    the table far more."""
    x0, y0, x1, y1 = rect
    touches = lambda cx, cy, r: (min(max(cx, x0), x1) - cx) ** 2 + (min(max(cy, y0), y1) - cy) ** 2 < r * r  # noqa: E731
    outside = max(0.0, -1 - x0) + max(0.0, x1 - 73) + max(0.0, -1 - y0) + max(0.0, y1 - 49)
    hits = sum(2 * touches(x, y, 1.5) + 0.5 * touches(x, y, 3.0) for x, y in markers) + sum(touches(*c) for c in circles)
    hits += sum(1 for a0, b0, a1, b1 in boxes if a0 < x1 and x0 < a1 and b0 < y1 and y0 < b1)
    return 100.0 * outside + hits


def _legend_inches(info) -> float:
    """The height of the legend: a line per unit of the larger army, the marks (two lines),
    and the terrain kinds."""
    return 0.17 * (max(len(info[0]), len(info[1])) + 3 + len(_TERRAIN_KINDS) // 2 + 1)


# the terrain kinds of the table as the legend names them: (label, a piece of that kind)
_TERRAIN_KINDS = (
    ("impassable (buildings)", {"impassable": True, "blocking": True}),
    ("blocks sight (forests, walls)", {"blocking": True, "cover": True}),
    ("blocks sight, difficult", {"blocking": True, "cover": True, "difficult": True}),
    ("cover", {"cover": True}),
    ("difficult", {"difficult": True}),
    ("dangerous", {"dangerous": True, "difficult": True}),
)


def _game_legend(fig, result, game: int, info, carried: bool = False) -> None:
    """The units by label, army A's in the left column and army B's in the right, and the
    marks (the passengers' badge where one was drawn), under the table; the game's result as
    its title."""
    from matplotlib.artist import Artist
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    rows = max(len(info[0]), len(info[1]))
    blank = Patch(visible=False)
    columns: list[list[tuple[Artist, str]]] = []
    for army in (0, 1):
        column: list[tuple[Artist, str]] = [(Patch(facecolor=_ARMY_COLOURS[army], alpha=0.75, edgecolor="black", linewidth=0.4),
                   f"{'AB'[army]}{u}  {name} ({points:g} pts, {models} model{'' if models == 1 else 's'})")
                   for u, (name, points, models, _r) in enumerate(info[army])]
        column += [(blank, "")] * (rows - len(column))
        columns.append(column)
    # the state a failed test leaves a unit in, as the edition names it
    state = {"2": "Wavering", "firefight-3.2": "Stunned"}.get(result.edition, "Shaken")
    columns[0].append((Patch(facecolor="0.5", alpha=0.3, edgecolor="black", linewidth=0.4), f"pale: {state}; dashed: arrived from reserve"))
    columns[1].append((Line2D([], [], marker="*", linestyle="", color="0.5", markeredgecolor="black", markersize=10),
                       "objective (coloured by its holder)"))
    columns[0].append((Patch(facecolor="white", edgecolor="0.3", linewidth=0.6), 'badge "in A0: A2": A2 carried in transport A0')
                      if carried else (blank, ""))
    columns[1].append((Line2D([], [], color="0.3", lw=0.8, marker=">", markersize=4), "arrow: a move (dotted: a placement)"))
    from ._game import TerrainPiece

    kinds = [(Patch(alpha=0.9, **_terrain_style(TerrainPiece("", 0, 0, 1, 1, **kind))), f"terrain: {label}") for label, kind in _TERRAIN_KINDS]
    half = (len(kinds) + 1) // 2
    columns[0] += kinds[:half]
    columns[1] += kinds[half:] + [(blank, "")] * (2 * half - len(kinds))
    entries = columns[0] + columns[1]  # a legend fills its columns one after the other
    fig.legend([h for h, _ in entries], [label for _, label in entries], loc="lower center", ncol=2, fontsize=7, frameon=False)
    winner = int(result.winner[game])
    held = result.objectives[game]
    outcome = {1: "army A wins", -1: "army B wins", 0: "a draw"}[winner]
    fig.suptitle(f"Game {game}: {outcome}, objectives {held[0]}–{held[1]} (A went {'first' if result.first[game] == 0 else 'second'})",
                 fontsize=11)
    height = fig.get_figheight()
    fig.tight_layout(rect=(0, min(0.5, (_legend_inches(info) + 0.1) / height), 1, 1 - 0.35 / height))


def _estimates_with_intervals(ax, y, mid, lo, hi, even: float, texts: tuple) -> None:
    """Estimates as dots on their intervals, red when the interval lies above ``even``, blue
    below, grey across it; the ``even`` line, and a legend naming each colour drawn
    (``texts``: above, below, across)."""
    from matplotlib.lines import Line2D

    colours = ["tab:red" if l > even else "tab:blue" if h < even else "0.45" for l, h in zip(lo, hi)]
    ax.hlines(y, lo, hi, color=colours, lw=2.5, alpha=0.5)
    ax.scatter(mid, y, color=colours, zorder=3, s=18)
    ax.axvline(even, color="black", lw=0.8)
    marks = [(Line2D([], [], color=c, marker="o", lw=2.5, alpha=0.7), text) for c, text in zip(("tab:red", "tab:blue", "0.45"), texts)
             if c in colours]
    _legend_below(ax, 1, marks)
    ax.grid(axis="x", alpha=0.3)

def factions(table: Any, *, kind: str = "field", top: Optional[int] = None, ax=None):
    """A :func:`oprstats.faction_table` drawn. ``kind="field"``: each faction's win rate
    against the field, strongest at the top, with its interval (counting both the drawn
    lists and the dice) and the even line at 50%. ``kind="matrix"``: a heat map of every
    faction's win rate against every other (rows against columns), in the ranking's order.
    ``top``: only the ``top // 2`` strongest and the rest of ``top`` weakest factions (the
    title says so)."""
    from ._factions import FactionTable

    if not isinstance(table, FactionTable):
        raise TypeError(f"table: expected the FactionTable oprstats.faction_table() returns, got {type(table).__name__}")
    order = table.ranking()
    if top is not None:
        if isinstance(top, bool) or not isinstance(top, (int, np.integer)) or top < 2:
            raise ValueError(f"top: a whole number of factions of at least 2, or None (got {top!r})")
        if top < len(order):
            order = order[: top // 2] + order[len(order) - (top - top // 2):]
    cut = f" (the {len(order)} of {len(table)} strongest and weakest; top={top})" if len(order) < len(table) else ""
    level = f"{table.interval:.0%}"
    games = f"{table.games:,} pairs of games a pairing, lists of {table.points_text()}"
    if kind == "field":
        rows = order[::-1]
        ax = _axes(ax, width=7.0, height=max(3.0, 0.28 * len(rows) + 1.6), constrained=True)
        y = np.arange(len(rows))
        mid = np.array([table.field[i] for i in rows]) * 100
        lo = np.array([table.field_low[i] for i in rows]) * 100
        hi = np.array([table.field_high[i] for i in rows]) * 100
        _estimates_with_intervals(ax, y, mid, lo, hi, 50.0, (f"stronger than even ({level} interval above 50%)",
                                                             f"weaker ({level} interval below 50%)",
                                                             f"not told apart from even ({level} interval)"))
        ax.set_yticks(list(y), [table.names[i] for i in rows], fontsize="small")
        ax.set_xlabel("win rate against the field, % (a draw counts half)")
        ax.set_title(f"Factions against the field{cut}\n{games}", fontsize="medium")
        return ax
    if kind == "matrix":
        n = len(order)
        ax = _axes(ax, width=max(5.0, 0.45 * n + 3.0), height=max(4.0, 0.45 * n + 1.6), constrained=True)
        values = table.win_rates[np.ix_(order, order)] * 100
        im = ax.imshow(values, cmap="RdBu_r", vmin=0, vmax=100)
        names = [table.names[i] for i in order]
        ax.set_xticks(range(n), names, rotation=60, ha="right", fontsize="small")
        ax.set_yticks(range(n), names, fontsize="small")
        ax.set_xlabel("opponent")
        ax.set_ylabel("faction (strongest against the field at the top)")
        if n <= 16:
            for (r, c), v in np.ndenumerate(values):
                if r != c and np.isfinite(v):
                    ax.text(c, r, f"{v:.0f}", ha="center", va="center", fontsize="x-small", color="white" if abs(v - 50) > 30 else "black")
        ax.set_title(f"Win rate of each row against each column, %{cut}\n{games}", fontsize="medium")
        ax.figure.colorbar(im, ax=ax, label="win rate of the row, % (50: even)")
        return ax
    raise ValueError(f'kind: "field" or "matrix" (got {kind!r})')


def what_if(result: Any, *, ax=None):
    """A :func:`oprstats.what_if` drawn: each list that carries a changed unit, its change of
    win rate with the interval, in percentage points (right: the change helps it)."""
    from ._what_if import WhatIf

    if not isinstance(result, WhatIf):
        raise TypeError(f"result: expected the WhatIf oprstats.what_if() returns, got {type(result).__name__}")
    n = len(result)
    ax = _axes(ax, width=7.0, height=max(2.5, 0.32 * n + 1.6), constrained=True)
    y = np.arange(n)[::-1]
    mid, lo, hi = result.difference * 100, result.low * 100, result.high * 100
    level = f"{result.interval:.0%}"
    _estimates_with_intervals(ax, y, mid, lo, hi, 0.0, (f"helps ({level} interval above 0)", f"hurts ({level} interval below 0)",
                                                        f"not told apart from no change ({level} interval)"))
    ax.set_yticks(list(y), [f"{name} ({faction})" for name, faction in zip(result.lists, result.factions)], fontsize="small")
    ax.set_xlabel("change of win rate, percentage points (same seeds before and after)")
    changed = sorted({u for c in result.changed for u in c})
    ax.set_title(f"What if {', '.join(changed)} changed\n{result.games:,} pairs of games against each opponent", fontsize="medium")
    return ax


def shapley(result: Any, *, ax=None):
    """:func:`oprstats.shapley_values` drawn: each selection's worth inside its list in points
    (its Shapley value, with its interval) beside its official cost and its leave-one-out
    worth."""
    from ._shapley import ShapleyValues

    if not isinstance(result, ShapleyValues):
        raise TypeError(f"result: expected the ShapleyValues oprstats.shapley_values() returns, got {type(result).__name__}")
    order = list(np.argsort(-np.nan_to_num(result.shapley_points, nan=-np.inf), kind="stable"))[::-1]
    n = len(order)
    ax = _axes(ax, width=7.5, height=max(2.5, 0.4 * n + 1.6), constrained=True)
    y = np.arange(n)
    ax.barh(y, [result.shapley_points[k] for k in order], height=0.55, color="tab:green", alpha=0.8, label="Shapley value, points")
    lo = np.array([result.shapley_low[k] for k in order])
    hi = np.array([result.shapley_high[k] for k in order])
    ax.hlines(y, lo, hi, color="black", lw=1.2, label=f"its {result.interval:.0%} interval")
    ax.scatter([result.costs[k] for k in order], y, marker="|", s=220, color="tab:red", zorder=3, label="official cost")
    ax.scatter([result.leave_one_out_points[k] for k in order], y, marker="D", s=22, color="tab:purple", zorder=3,
               label="leave-one-out worth, points")
    ax.set_yticks(list(y), [result.units[k] for k in order], fontsize="small")
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("points (the Shapley values add up to the list's points)")
    orders = "every order" if result.exact_orders else f"{result.permutations:,} sampled orders"
    ax.set_title(f"{result.army}: each unit's worth inside the list\nwin rate {100 * result.value:.1f}%, {orders}, "
                 f"{result.games:,} pairs of games a coalition", fontsize="medium")
    _legend_below(ax, 2)
    ax.grid(axis="x", alpha=0.3)
    return ax


def metagame(result: Any, *, top: int = 25, ax=None):
    """A :func:`oprstats.metagame` result in three panels that share the strategies, down the
    side with the metagame first (by weight in the mix, then by regret): the equilibrium mix
    (bars) and, over the resampled tables, each strategy's chance of being in the
    equilibrium's support (diamonds); each strategy's regret, the win rate it falls short of
    even against the mix; and its equilibrium price, the adjustment under which every
    strategy wins half its games against the field (in points when the result has
    ``points_per_logit``, else in logits), with its interval over the replicates. The
    ``top`` strategies are drawn (the title says when some are left out). ``ax``: three Axes
    side by side (None: a new figure)."""
    from ._metagame import Metagame

    if not isinstance(result, Metagame):
        raise TypeError(f"result: expected oprstats.Metagame, got {type(result).__name__}")
    if isinstance(top, bool) or not isinstance(top, (int, np.integer)) or top < 1:
        raise ValueError(f"top: must be a whole number, 1 or more (got {top!r})")
    order = result._order()[: int(top)][::-1]  # barh draws from the bottom up
    y = np.arange(len(order))
    if ax is None:
        plt = _pyplot()
        _fig, axes = plt.subplots(1, 3, figsize=(13.0, max(3.0, 0.32 * len(order) + 2.2)), sharey=True, layout="constrained",
                                 gridspec_kw={"width_ratios": [1.1, 1.0, 1.2]})
    else:
        axes = ax
        if len(axes) != 3:
            raise ValueError(f"ax: expected three Axes side by side (the mix, the regrets, the prices), got {len(axes)}")
    mix_ax, regret_ax, price_ax = axes
    names = [result.names[i] if len(result.names[i]) <= 32 else result.names[i][:31] + "…" for i in order]

    # the legend's entries, in the panels' order
    entries: list = [(mix_ax.barh(y, result.mix[order], height=0.7, color="tab:blue"), "weight in the equilibrium mix")]
    if result.support_probability is not None:
        diamonds = mix_ax.scatter(result.support_probability[order], y, marker="D", s=22, color="black", zorder=3)
        entries.append((diamonds, f"chance of being in the support (over {result.replicates} resampled tables)"))
    mix_ax.set_xlim(0.0, 1.05)
    mix_ax.set_xlabel("share of the field (bars) · chance (◆)" if result.support_probability is not None else "share of the field")
    mix_ax.set_yticks(y, names, fontsize="small")
    mix_ax.set_title("equilibrium mix", fontsize="medium")

    regret_bars = regret_ax.barh(y, 100.0 * result.regret[order], height=0.7, color="tab:orange")
    entries.append((regret_bars, "regret: win rate below 50% against the mix (0 in the support)"))
    regret_ax.set_xlim(left=0.0)
    regret_ax.set_xlabel("percentage points below an even win rate")
    regret_ax.set_title("regret against the mix", fontsize="medium")

    all_prices, low, high, unit = result._prices_shown()
    price = all_prices[order]
    colours = np.where(price > 0, "tab:red", "tab:cyan")
    price_ax.barh(y, price, height=0.7, color=colours)
    from matplotlib.patches import Patch

    entries += [(Patch(facecolor="tab:red"), "price up: too strong"), (Patch(facecolor="tab:cyan"), "price down: too weak")]
    if low is not None and high is not None:
        bars = price_ax.errorbar(price, y, xerr=np.vstack([price - low[order], high[order] - price]), fmt="none", ecolor="black",
                                 elinewidth=1.0, capsize=2.5)
        entries.append((bars, f"{result.interval:.0%} interval over the resampled tables"))
    price_ax.axvline(0.0, color="black", lw=0.8)
    price_ax.set_xlabel("points (positive: should cost more)" if unit == "points" else "logits of winning (positive: too strong)")
    price_ax.set_title("equilibrium price", fontsize="medium")
    for a in axes:
        a.grid(axis="x", alpha=0.3)
        a.set_ylim(-0.6, len(order) - 0.4)
    for a in (regret_ax, price_ax):
        # the strategies are named once, on the left (the caller's axes may not share y)
        a.set_yticks(y)
        a.tick_params(axis="y", labelleft=False)
    what = f"{len(order)} of {len(result.names)} strategies" if len(order) < len(result.names) else f"{len(result.names)} strategies"
    several = "" if result.unique else "; several equilibria, the most mixed shown"
    title = f"metagame of {what} (more with a larger top)" if len(order) < len(result.names) else f"metagame of {what}"
    if ax is None:
        # on the caller's axes the panels' own titles stand alone (the repr says the rest)
        mix_ax.figure.suptitle(f"{title}: {result._share_text()}{several}", fontsize="medium")
    _legend_below(mix_ax, 2, entries)
    return axes
