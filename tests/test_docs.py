"""The documentation site builds strictly (mkdocs.yml: a warning is an error), with an API
reference from the docstrings and the compiled core's stub and a page per notebook; and the
demo's tour of the main results runs. The site needs the ``docs`` extra: without it the
build tests skip, saying why, and under ``CI=true`` (where the test extra installs it) fail."""

from __future__ import annotations

import importlib.util
import io
import json
import os
import re
import subprocess
import sys
import time
import warnings
from pathlib import Path

import oprstats
import pytest

from .conftest import ROOT

NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # its parent package is missing
        return False


def _require_mkdocs() -> None:
    """As ``conftest._require``: a skip in a user's own environment, a failure under CI."""
    missing = [m for m in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python", "mkdocs_jupyter")
               if not _installed(m)]
    if not missing:
        return
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but the docs extra is not installed (missing: {', '.join(missing)}; "
                    "the test extra installs it: pip install '.[test]')")
    pytest.skip(f"the docs extra is not installed (missing: {', '.join(missing)}): pip install '.[docs]'")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site built once, strictly, into a temporary directory (nothing written into the
    checkout: mkdocs.yml turns mkdocs-jupyter's cache off)."""
    _require_mkdocs()
    out = tmp_path_factory.mktemp("site")
    env = dict(os.environ, NO_MKDOCS_2_WARNING="1")
    started = time.perf_counter()
    run = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    seconds = time.perf_counter() - started
    assert run.returncode == 0, f"mkdocs build --strict failed ({run.returncode}):\n{run.stdout}\n{run.stderr}"
    assert "WARNING" not in run.stderr, run.stderr
    assert seconds < 300, f"the docs took {seconds:.0f} s to build"
    return out


def _text(page: Path) -> str:
    return page.read_text(encoding="utf-8")


def test_the_site_builds_strictly_with_every_section(site):
    for page in ("index.html", "api/index.html", "loading/index.html", "game/index.html", "points/index.html",
                 "rules/index.html", "editions/index.html", "limits/index.html", "distributed/index.html",
                 "army-rules/index.html", "game-table/index.html"):
        assert (site / page).is_file(), page
    # the PyPI long description is not a page of the site (mkdocs.yml says why)
    assert not (site / "pypi").exists()
    assert not list(site.rglob("*.py")), "the griffe extension is not published"


def test_the_api_reference_documents_the_public_names(site):
    html = _text(site / "api" / "index.html")
    ids = set(re.findall(r'id="(oprstats\.[^"]+)"', html))
    for name in oprstats.__all__:
        assert f"oprstats.{name}" in ids, f"the API reference does not document oprstats.{name}"
    # the compiled classes, from the stub python/oprstats/_core.pyi, with their members
    for path in ("oprstats.Unit.parse", "oprstats.Unit.join", "oprstats.Weapon.parse", "oprstats.Army.units",
                 "oprstats.ArmyBook.upgrades", "oprstats.Spell.tokens", "oprstats.UpgradeOption.cost",
                 "oprstats.attack", "oprstats.simulate", "oprstats.GameResult.summary", "oprstats.plot.attack"):
        assert path in ids, path
    text = re.sub(r"<[^>]+>", "", html)
    assert re.search(r"Unit\(\s*name: str,\s*\*,\s*size: int", text), "the Unit constructor's signature (from the stub's __new__)"
    # Sphinx roles in the docstrings are links or code, never shown as written
    assert ":func:" not in text and ":class:" not in text


def test_the_api_page_lists_every_public_name_once():
    entries = re.findall(r"^::: (oprstats\.[\w.]+)", (ROOT / "docs" / "api.md").read_text(encoding="utf-8"), flags=re.M)
    assert len(entries) == len(set(entries))
    assert {f"oprstats.{name}" for name in oprstats.__all__} <= set(entries)


def test_each_notebook_is_a_page_of_the_gallery(site):
    assert NOTEBOOKS
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for path in NOTEBOOKS:
        page = site / "notebooks" / path.stem / "index.html"
        assert page.is_file(), f"{path.name} produced no page"
        assert f"notebooks/{path.name}" in nav, f"{path.name} is not in mkdocs.yml's nav"
        html = _text(page)
        title = next(line for line in json.loads(path.read_text(encoding="utf-8"))["cells"][0]["source"]
                     if line.startswith("# "))[2:].strip()
        assert title.split()[0] in html
        # shown with the outputs they were saved with (not executed at build)
        if '"image/png"' in path.read_text(encoding="utf-8"):
            assert "data:image/png;base64" in html, f"{path.name}: its saved plots are missing"


def test_the_tour_shows_the_main_results():
    out = io.StringIO()
    started = time.perf_counter()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        from oprstats._tour import tour

        assert tour(out) == 0
    seconds = time.perf_counter() - started
    text = out.getvalue()
    for heading in ("1. An attack, exactly", "2. A charge: melee and morale", "3. Points: is each cost fair?",
                    "4. Full games, simulated"):
        assert heading in text
    for call in ("oprstats.attack(", "oprstats.melee(", "oprstats.fairness(", "oprstats.simulate("):
        assert f"more: {call}" in text, call
    assert "P(at least 1 killed)" in text and "P(unit destroyed)" in text
    assert "wins" in text and "destroyed" in text and "official" in text and "modelled" in text
    long = [line for line in text.splitlines() if len(line) > 79]
    assert not long, f"lines over 79 columns: {long}"
    # simulate()'s warning about the rules the game does not play is a note in the tour
    assert not caught, [str(w.message) for w in caught]
    assert "rules not modelled" in text
    assert seconds < 60, f"the tour took {seconds:.0f} s"


def test_the_tour_prints_to_stdout_by_default(capsys):
    from oprstats._tour import tour

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert tour() == 0
    assert "4. Full games, simulated" in capsys.readouterr().out
