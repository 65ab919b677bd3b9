"""Optional packages: without them, a clear ImportError names the extra to install; in a
notebook without ipywidgets, simulate() draws a text bar instead of warning."""

from __future__ import annotations

import sys

import pytest

import oprstats


@pytest.mark.parametrize("call", [
    lambda: oprstats.attack(oprstats.example_book().units[1], oprstats.example_book().units[2]).to_pandas(),
    lambda: oprstats.units_frame(oprstats.example_book().units),
    lambda: oprstats.fairness(oprstats.example_book()),
    lambda: oprstats.matchups(oprstats.example_book(), oprstats.example_book()).to_pandas(),
])
def test_without_pandas_the_error_names_the_extra(monkeypatch, call):
    monkeypatch.setitem(sys.modules, "pandas", None)  # `import pandas` now raises ImportError
    with pytest.raises(ImportError, match=r"needs pandas: pip install 'oprstats\[pandas\]'"):
        call()


def test_without_matplotlib_the_error_names_the_extra(monkeypatch):
    from oprstats import plot

    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    with pytest.raises(ImportError, match=r"oprstats.plot needs matplotlib: pip install 'oprstats\[plot\]'"):
        plot.matchups(oprstats.matchups(oprstats.example_book(), oprstats.example_book()))


def test_the_progress_bar_is_text_outside_a_notebook(monkeypatch):
    from tqdm import std

    from oprstats._optional import progress_bar

    assert progress_bar() is std.tqdm
    monkeypatch.setitem(sys.modules, "ipywidgets", None)
    assert progress_bar() is std.tqdm
