"""The README's Python code blocks run as written, in order, in one session, from the
repository's root (where the README's relative paths to ``../shared`` point)."""

from __future__ import annotations

import re
import warnings

import pytest

from .conftest import ROOT

BLOCKS = re.findall(r"^```python\n(.*?)^```", (ROOT / "README.md").read_text(encoding="utf-8"), flags=re.M | re.S)


def _run_blocks(blocks: list, page: str, name: str) -> dict:
    """Runs a page's blocks in order in one namespace (warnings kept quiet), failing with the
    block's number; returns the namespace. They run as a script's main module does: a block
    guarded by ``if __name__ == "__main__":`` (a Dask cluster's) runs too. An example that
    uses a deprecated spelling, or leaves out an argument whose default is changing (a
    DeprecationWarning or FutureWarning at the block's own line), fails: readers copy them."""
    namespace: dict = {"__name__": "__main__"}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for i, block in enumerate(blocks):
            try:
                exec(compile(block, f"{page} python block {i + 1}", "exec"), namespace)
            except Exception as exc:  # pragma: no cover - the failure is the test's message
                pytest.fail(f"{page} python block {i + 1} fails: {type(exc).__name__}: {exc}")
    dated = [f"{w.filename}, line {w.lineno}: {w.message}" for w in caught
             if issubclass(w.category, (DeprecationWarning, FutureWarning)) and w.filename.startswith(f"{page} python block ")]
    assert not dated, dated
    return namespace


def test_the_readme_has_code():
    assert len(BLOCKS) >= 5


def test_readme_code_blocks_run_as_written(book_paths, monkeypatch):
    """``book_paths``: the first block loads a real book from ../shared (skipped, saying
    why, without it; an error under CI=true)."""
    pytest.importorskip("pandas")
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    monkeypatch.chdir(ROOT)
    # the README shows an UnknownRuleWarning and simulate()'s warning about its rules on purpose
    namespace = _run_blocks(BLOCKS, "README.md", "readme")
    plt.close("all")
    assert namespace["unit"].size == 6 and namespace["unit"].cost == 215
    assert len(namespace["runs"]) == 4, "the guarded Dask block ran"


DOCS = sorted(p for p in (ROOT / "docs").glob("*.md") if "```python" in p.read_text(encoding="utf-8"))


@pytest.mark.parametrize("path", DOCS, ids=[p.name for p in DOCS])
def test_docs_code_blocks_run_as_written(path, monkeypatch):
    """The docs' Python blocks too (each page in one session, from the repository's root)."""
    pytest.importorskip("pandas")
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    blocks = re.findall(r"^```python\n(.*?)^```", path.read_text(encoding="utf-8"), flags=re.M | re.S)
    monkeypatch.chdir(ROOT)
    _run_blocks(blocks, path.name, "docs")
    plt.close("all")


def test_the_docs_have_code():
    assert {p.name for p in DOCS} >= {"distributed.md", "game.md", "pypi.md"}
