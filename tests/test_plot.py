"""Every plot function renders (Agg) with labelled axes, and refuses what it cannot draw."""

import io
import warnings

import numpy as np
import pytest

import oprstats

matplotlib = pytest.importorskip("matplotlib", reason="the plot extra (matplotlib) is not installed")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from oprstats import plot  # noqa: E402

BOOK = oprstats.example_book()
UNITS = {u.name: u for u in BOOK.units}


def _rendered(fig) -> bytes:
    """Draws the whole figure (text layout included) to PNG bytes, then closes it."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=40)
    plt.close(fig)
    return buf.getvalue()


def _labelled(ax) -> None:
    assert ax.get_xlabel() and ax.get_title(), (ax.get_xlabel(), ax.get_title())


def _legend_texts(fig) -> list:
    """The texts of the figure's legend (placed under the axes, on the figure)."""
    (legend,) = fig.legends
    return [t.get_text() for t in legend.get_texts()]


def _inside(fig) -> None:
    """Every legend and note lies within the figure as a plain savefig draws it: nothing the
    reader needs is cut off."""
    fig.canvas.draw()
    box = fig.bbox
    extra = [fig._supxlabel] if getattr(fig, "_supxlabel", None) is not None else []
    for artist in [*fig.legends, *fig.texts, *extra]:
        e = artist.get_window_extent()
        assert e.x0 >= box.x0 - 1 and e.y0 >= box.y0 - 1 and e.x1 <= box.x1 + 1 and e.y1 <= box.y1 + 1, (artist, e, box)


def _notes(fig) -> list:
    extra = [fig._supxlabel] if getattr(fig, "_supxlabel", None) is not None else []
    return [t.get_text() for t in [*fig.texts, *extra]]


def test_distribution_plot_shows_exact_and_at_least():
    result = oprstats.attack(UNITS["Warden Squad"], UNITS["Swarm Drones"])
    ax = plot.distribution(result.kills, label="models killed")
    _labelled(ax)
    bars = [p.get_height() for p in ax.patches]
    assert bars == pytest.approx(result.kills.pmf[: result.kills.max + 1])
    assert _rendered(ax.figure)
    with pytest.raises(TypeError, match="dist: expected an oprstats.Distribution"):
        plot.distribution(result.kills.pmf)


def test_attack_plot_has_every_stage_and_error_bars_when_sampled():
    exact = oprstats.attack(UNITS["Warden Squad"], UNITS["Swarm Drones"])
    left, right = plot.attack(exact)
    for ax in (left, right):
        _labelled(ax)
    labels = _legend_texts(left.figure)
    assert [label.split(" (")[0] for label in labels] == ["hits", "unblocked", "wounds", "models killed"]
    _inside(left.figure)
    # the at-least curves start at certainty and fall
    for line in right.get_lines():
        y = line.get_ydata()
        assert y[0] == pytest.approx(1.0) and np.all(np.diff(y) <= 1e-12)
    assert "P(destroyed)" in right.get_title()
    assert _rendered(left.figure)
    sampled = oprstats.attack(UNITS["Warden Squad"], UNITS["Swarm Drones"], method="sample", samples=5_000, seed=3)
    left, _ = plot.attack(sampled)
    assert "5,000 samples" in left.get_title() and any(type(c).__name__ == "ErrorbarContainer" for c in left.containers)
    assert _rendered(left.figure)
    with pytest.raises(TypeError, match="result: expected an oprstats.AttackResult"):
        plot.attack(oprstats.melee(UNITS["Swarm Drones"], UNITS["Warden Squad"]))


def test_unmodelled_rules_are_written_under_a_plot():
    result = oprstats.attack(UNITS["Warden Squad"], UNITS["Swarm Drones"])
    assert result.unmodelled
    left, _ = plot.attack(result)
    assert any(t.startswith("not modelled:") and result.unmodelled[0] in t for t in _notes(left.figure))
    plt.close(left.figure)


def test_melee_plot_shows_fates_summing_to_one_and_the_joint_models_left():
    result = oprstats.melee(UNITS["Swarm Drones"], UNITS["Warden Squad"])
    left, right = plot.melee(result)
    _labelled(left)
    _labelled(right)
    # each row of stacked bars covers the whole chance
    widths = {}
    for patch in left.patches:
        y = round(patch.get_y() + patch.get_height() / 2)
        widths[y] = widths.get(y, 0.0) + patch.get_width()
    assert sorted(widths) == [0, 1, 2] and all(w == pytest.approx(1.0) for w in widths.values())
    assert _legend_texts(left.figure) == ["destroyed", "routed", "Shaken", "unaffected", "charger wins", "tie", "defender wins"]
    _inside(left.figure)
    image = right.get_images()[0].get_array()
    assert image.shape == result.models_left.shape
    assert float(image.sum()) == pytest.approx(1.0)
    assert _rendered(left.figure)
    with pytest.raises(TypeError, match="result: expected an oprstats.MeleeResult"):
        plot.melee(result.to_pandas())


def test_firefight_melee_plot_has_no_winner_row():
    result = oprstats.melee(UNITS["Swarm Drones"], UNITS["Warden Squad"], edition="firefight")
    left, _ = plot.melee(result)
    assert [t.get_text().split("\n")[0] for t in left.get_yticklabels()] == ["charger", "defender"]
    plt.close(left.figure)


def test_games_plot_shows_rates_margins_and_every_unit():
    army = oprstats.example_army()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = oprstats.simulate(army, army, games=60, seed=2, progress=False)
    rates_ax, margin_ax, units_ax = plot.games(result)
    for ax in (rates_ax, margin_ax, units_ax):
        _labelled(ax)
    a_wins = result.rates()["a_wins"][0]
    assert rates_ax.patches[0].get_width() == pytest.approx(a_wins)
    margins = result.objectives[:, 0].astype(int) - result.objectives[:, 1].astype(int)
    assert sum(p.get_height() for p in margin_ax.patches) == pytest.approx(1.0)
    assert len(margin_ax.patches) == margins.max() - margins.min() + 1
    assert len(units_ax.get_yticklabels()) == 2 * len(army.units)
    assert any(t.startswith("not modelled:") for t in _notes(rates_ax.figure))
    assert all("destroyed or routed" in t.get_text() for t in units_ax.texts)
    assert _rendered(rates_ax.figure)
    # the armies are named: the lists' own names
    assert result.names == (army.name, army.name) and army.name
    assert rates_ax.figure.get_suptitle() == f"A: {army.name}  vs  B: {army.name}"
    with pytest.raises(TypeError, match="result: expected an oprstats.GameResult"):
        plot.games(result.to_pandas())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        units = oprstats.simulate(list(army.units), list(army.units)[:3], games=4, seed=2, progress=False)
    assert units.names == ("army A", "army B")


def test_efficiency_plots_default_to_points_destroyed_and_name_their_targets():
    axes = plot.efficiency_curves(BOOK.units)
    left, right = axes
    assert "points of the target destroyed" in left.get_ylabel()
    assert [t.get_text() for t in right.get_xticklabels()] == ["10 × Tough 1", "3 × Tough 3", "Tough 6", "Tough 12"]
    # a melee-only unit is shown charging, not at zero shooting; the legend is on the figure
    labels = _legend_texts(left.figure)
    assert any(label.startswith("Swarm Drones") and "charging" in label for label in labels)
    _inside(left.figure)
    assert _rendered(left.figure)
    ax = plot.efficiency_heatmap(oprstats.efficiency_curve(UNITS["Siege Walker"]))
    _labelled(ax)
    assert _rendered(ax.figure)


def test_a_unit_that_deals_nothing_is_named_not_drawn():
    drones = UNITS["Swarm Drones"]
    with pytest.warns(UserWarning, match="Swarm Drones has no ranged weapon"):
        curve = oprstats.efficiency_curve(drones, mode="shoot 12")
    assert not curve.values.any()
    left, right = plot.efficiency_curves([curve, oprstats.efficiency_curve(UNITS["Warden Squad"], mode="shoot 12")])
    assert len(right.get_lines()) == 1
    assert any("deals nothing" in t for t in _legend_texts(left.figure))
    plt.close(left.figure)
    with pytest.raises(ValueError, match="different Defense or Tough grids"):
        plot.efficiency_curves([curve, oprstats.efficiency_curve(UNITS["Warden Squad"], tough=[1, 3])])


def test_a_legend_goes_inside_axes_the_caller_made():
    fig, axes = plt.subplots(1, 2)
    plot.efficiency_curves([UNITS["Warden Squad"]], ax=axes)
    assert not fig.legends and axes[0].get_legend() is not None
    plt.close(fig)


def test_breakdown_fairness_and_game_plots_render():
    price = oprstats.CostModel.default().predict(UNITS["Warden Squad"])
    ax = plot.breakdown(price)
    assert ax.get_xlabel() == "points" and _rendered(ax.figure)
    frame = oprstats.fairness(BOOK)
    ax = plot.fairness(frame, top=5)
    # the legend is under the bars, not over the bottom one, and names every kind of bar drawn
    texts = _legend_texts(ax.figure)
    assert texts[0] == "90% interval of a fair price" and ax.get_legend() is None
    kinds = {("over" if d > 0 else "under") + ("-within" if v == "within interval" else "-outside")
             for d, v in zip(frame.dropna(subset=["difference_pct"]).head(5)["difference_pct"], frame.dropna(subset=["difference_pct"]).head(5)["verdict"])}
    assert len(texts) == 1 + len(kinds) and all(t.startswith(("over-costed", "under-costed")) for t in texts[1:])
    # top drops units: the title says how many
    assert ax.get_title().startswith(f"the 5 of {frame['difference_pct'].notna().sum()} units furthest off")
    _inside(ax.figure)
    assert ax.get_xlabel() and _rendered(ax.figure)


def test_every_plot_takes_ax_and_the_old_axes_spelling_is_deprecated():
    import inspect
    import warnings

    from oprstats import plot

    public = [f for name, f in vars(plot).items() if inspect.isfunction(f) and not name.startswith("_") and f.__module__ == plot.__name__]
    assert public and all("ax" in inspect.signature(f).parameters for f in public), [f.__name__ for f in public if "ax" not in inspect.signature(f).parameters]
    r = oprstats.attack(oprstats.Unit.parse('S [5] Q4+ D4+\n5x Rifle (24", A1)'), oprstats.Unit.parse("T [5] Q4+ D4+\n5x CCW (A1)"))
    old = plot.attack(r)
    with pytest.warns(DeprecationWarning, match=r"plot.attack\(axes=...\) is now plot.attack\(ax=...\)"):
        assert list(plot.attack(r, axes=old)) == list(old)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert list(plot.attack(r, ax=old)) == list(old)
    with pytest.raises(TypeError, match="give ax= only"):
        plot.attack(r, ax=old, axes=old)


def test_a_game_map_shows_the_units_inside_a_transport():
    """issue 44: a unit carried in a transport stands nowhere on the table; the map names it on
    a badge under its transport, and the legend explains the badge."""
    from oprstats import Unit

    apc = Unit.parse('APC [1] Q4+ D2+ | 150pts | Tough(6), Transport(11), Fast, Impact(3)\nHeavy Gun (24", A3, AP(1))')
    squad = Unit.parse('Squad [10] Q4+ D4+ | 100pts\n10x Rifle (24", A1)\n10x CCW (A1)')
    assault = Unit.parse('Assault [5] Q4+ D4+ | 120pts | Furious\n5x Pistol (12", A1)\n5x Blade (A2, AP(1))')
    foes = [Unit.parse('Rifles [10] Q4+ D4+ | 100pts\n10x Rifle (24", A1)'), Unit.parse("Brutes [3] Q4+ D4+ | 150pts | Tough(3)\n3x Claws (A3, AP(1))"),
            Unit.parse('Gunners [5] Q4+ D4+ | 120pts\n5x Gun (30", A2)')]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        result = oprstats.simulate([apc, assault, squad], foes, games=4, seed=1, trace=True, progress=False)
    carried, empty = [], []
    for g, trace in enumerate(result.traces):
        for r in range(max(e["round"] for e in trace.events) + 1):
            inside = trace.carried(r)
            # every unit the snapshot has inside is found in a transport: the army's APC (A0)
            snapshot = {(e["army"], e["unit"]) for e in trace.positions(r) if e["detail"] == "inside"}
            assert set(inside) == snapshot and set(inside.values()) <= {(0, 0)}, (g, r, inside)
            (carried if inside else empty).append((g, r, inside))
    assert carried and empty, "the games should have rounds with and without passengers"
    g, r, inside = carried[-1]
    axes = plot.game(result, g, rounds=[r])
    badge = "in A0: " + " ".join(f"A{u}" for _army, u in sorted(inside))
    assert badge in [t.get_text().replace("\n", " ") for t in axes[0].texts]
    fig = axes[0].figure
    assert 'badge "in A0: A2": A2 carried in transport A0' in _legend_texts(fig)
    assert "arrow: a move (dotted: a placement)" in _legend_texts(fig)
    _inside(fig)
    assert _rendered(fig)
    # no badge drawn, none explained
    g, r, _ = empty[0]
    axes = plot.game(result, g, rounds=[r])
    assert not any(t.get_text().startswith("in A") for t in axes[0].texts)
    assert not any(text.startswith("badge") for text in _legend_texts(axes[0].figure))
    plt.close(axes[0].figure)
