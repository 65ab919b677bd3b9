"""The notebooks' code runs against the installed package (cells executed in order, no kernel)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_cells_run(path):
    pytest.importorskip("pandas")
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    namespace: dict = {}
    ran = 0
    for cell in cells:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), f"{path.name}[{ran}]", "exec"), namespace)
            ran += 1
        if cell["cell_type"] == "code":
            assert cell.get("outputs"), f"{path.name}: a code cell was saved without its output"
    assert ran > 0


def test_there_is_a_notebook():
    assert NOTEBOOKS
