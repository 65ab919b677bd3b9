"""The optional packages, imported when first needed, with an ImportError that names the
extra to install."""

from __future__ import annotations

import importlib
from typing import Any


def optional(module: str, extra: str, what: str) -> Any:
    """``module`` imported, or an ImportError saying ``what`` needs it and which extra brings it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(f"{what} needs {module.split('.')[0]}: pip install 'oprstats[{extra}]'") from exc


def pandas(what: str = "this") -> Any:
    return optional("pandas", "pandas", what)


def progress_bar() -> Any:
    """tqdm's notebook bar where ipywidgets can draw it (``oprstats[notebook]``), else its
    text bar: never the warning tqdm.auto prints in a notebook without ipywidgets."""
    from tqdm import std

    try:
        import ipywidgets  # noqa: F401
        from IPython import get_ipython

        shell = get_ipython()
    except ImportError:
        return std.tqdm
    if shell is None or type(shell).__name__ != "ZMQInteractiveShell":
        return std.tqdm
    from tqdm.notebook import tqdm

    return tqdm
