"""Execute the notebooks in place with a real kernel (nbclient), saving their outputs, so a
reader sees the plots on GitHub. Run from the repository with the package installed:

    python scripts/run_notebooks.py [notebooks/NAME.ipynb ...]
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]


def run(path: Path) -> None:
    nb = nbformat.read(path, as_version=4)
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}).execute()
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i}"
    nbformat.write(nb, path)


if __name__ == "__main__":
    paths = [Path(p) for p in sys.argv[1:]] or sorted((ROOT / "notebooks").glob("*.ipynb"))
    for p in paths:
        run(p)
        print(f"ran {p}")
