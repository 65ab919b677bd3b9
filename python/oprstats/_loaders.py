"""Loading Army Forge army books (JSON) and army lists (text export)."""

from __future__ import annotations

import json
import os
from typing import Any, Mapping, Optional, Union

from . import _core
from ._core import Army, ArmyBook

PathOrBook = Union[str, "os.PathLike[str]", Mapping[str, Any]]


def load_army_book(source: PathOrBook, *, edition: Optional[str] = None) -> ArmyBook:
    """Read an Army Forge army book.

    ``source`` is a path to the JSON file Army Forge serves (``/api/army-books/<uid>``) or
    that JSON already loaded as a dict. ``edition`` defaults to the book's ``versionString``
    (falling back to the current edition when it names none the library knows).
    """
    if isinstance(source, Mapping):
        try:
            text = json.dumps(source)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"source: the dict is not JSON data ({exc})") from None
    elif isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8") as f:
            text = f.read()
    else:
        raise TypeError(f"source: expected a path or a dict, got {type(source).__name__}")
    return _core._load_army_book_json(text, edition)


def load_army_list(source: Union[str, "os.PathLike[str]"], *, edition: str = "3.5") -> Army:
    """Read an army list in the Army Forge text export ("Share as text").

    ``source`` is the text itself, or a ``pathlib.Path`` / ``os.PathLike`` to a file holding it.
    """
    if isinstance(source, os.PathLike):
        with open(source, encoding="utf-8") as f:
            source = f.read()
    if not isinstance(source, str):
        raise TypeError(f"source: expected the list text or a path, got {type(source).__name__}")
    return _core._load_army_list_text(source, edition)
