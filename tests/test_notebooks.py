"""The notebooks run end to end with a real kernel (nbclient), on the real books when
../shared is present and on the embedded example otherwise, and are saved with outputs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_end_to_end(path):
    pytest.importorskip("pandas")
    pytest.importorskip("matplotlib")
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}})
    client.execute()  # raises CellExecutionError on the first failing cell
    assert any(c.cell_type == "code" for c in nb.cells)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_is_saved_with_outputs(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    for i, cell in enumerate(cells):
        if cell["cell_type"] == "code":
            assert cell.get("outputs"), f"{path.name}: code cell {i} was saved without its output"
            assert not any(o.get("output_type") == "error" for o in cell["outputs"]), f"{path.name}: cell {i} saved with an error"


def test_plots_are_saved_as_images():
    for name in ("unit-efficiency.ipynb", "points-fairness.ipynb", "fair-cost-by-play.ipynb"):
        text = (NOTEBOOKS[0].parent / name).read_text(encoding="utf-8")
        assert '"image/png"' in text, name


def test_there_is_a_notebook():
    assert NOTEBOOKS
