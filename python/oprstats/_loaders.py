"""Loading Army Forge army books (JSON) and army lists (text export)."""

from __future__ import annotations

import json
import os
from typing import Any, Iterable, Mapping, Optional, Union

from . import _core
from ._attack import LIMITS
from ._core import Army, ArmyBook

PathOrBook = Union[str, "os.PathLike[str]", Mapping[str, Any]]


def load_army_book(source: PathOrBook, *, edition: Optional[str] = None, strict: Optional[bool] = None) -> ArmyBook:
    """Read an Army Forge army book.

    ``source`` is a path to the JSON file Army Forge serves (``/api/army-books/<uid>``) or
    that JSON already loaded as a dict. ``edition`` defaults to the book's ``versionString``
    (falling back to the current edition when it names none the library knows).

    Rule names that neither the library knows nor the book defines in its ``specialRules``
    give one :class:`UnknownRuleWarning` for the whole book, naming them with the closest
    known names; ``strict=True`` (or :func:`set_strict`) makes that a ``ValueError``.
    """
    if isinstance(source, Mapping):
        try:
            text = json.dumps(source)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"source: the dict is not JSON data ({exc})") from None
        except RecursionError:
            raise ValueError(f"source: the dict is nested deeper than the {LIMITS['MAX_JSON_DEPTH']} "
                             "levels an army book may have") from None
    elif isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8") as f:
            text = f.read()
    else:
        raise TypeError(f"source: expected a path or a dict, got {type(source).__name__}")
    return _core._load_army_book_json(text, edition, strict)


def load_army_list(
    source: Union[str, "os.PathLike[str]"],
    *,
    edition: str = "3.5",
    book: Union[ArmyBook, Iterable[ArmyBook], None] = None,
    strict: Optional[bool] = None,
) -> Army:
    """Read an army list in the Army Forge text export ("Share as text").

    ``source`` is the text itself, or a ``pathlib.Path`` / ``os.PathLike`` to a file holding it.
    ``book`` is the list's army book (or books): the rules they define are known for its
    units. Other rule names the library does not know give one :class:`UnknownRuleWarning`
    for the whole list; ``strict=True`` (or :func:`set_strict`) makes that a ``ValueError``.
    """
    if isinstance(source, os.PathLike):
        with open(source, encoding="utf-8") as f:
            source = f.read()
    if not isinstance(source, str):
        raise TypeError(f"source: expected the list text or a path, got {type(source).__name__}")
    books = [] if book is None else [book] if isinstance(book, ArmyBook) else list(book)
    for b in books:
        if not isinstance(b, ArmyBook):
            raise TypeError(f"book: expected an ArmyBook or a sequence of them, got {type(b).__name__}")
    return _core._load_army_list_text(source, edition, strict, books)
