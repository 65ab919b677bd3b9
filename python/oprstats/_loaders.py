"""Loading Army Forge army books (JSON) and army lists (text export)."""

from __future__ import annotations

import json
import os
from typing import Any, Iterable, Mapping, Optional, Union

from . import _core
from ._attack import LIMITS
from ._core import Army, ArmyBook

PathOrBook = Union[str, "os.PathLike[str]", Mapping[str, Any]]

# What names a file, as a one-line string: an army book is Army Forge's JSON, a list its text.
FILE_SUFFIXES = (".json", ".txt")


# Windows editors may open a UTF-8 file with a byte-order mark; it is not part of the text.
BOM = "\ufeff"


def is_path(source: Any) -> bool:
    """How every loader and entry point tells a path from the text itself, one way everywhere:
    an ``os.PathLike`` is a path; a ``str`` is a path when it is one line and names something
    that exists (a file, or a directory, refused when read) or ends in ``.json`` or ``.txt``;
    any other string is the text (a list's text, or a book's JSON, which opens with a brace)."""
    if isinstance(source, os.PathLike):
        return True
    if not isinstance(source, str) or "\n" in source or source.lstrip(BOM + " \t\r").startswith(("{", "[")):
        return False
    return source.strip().lower().endswith(FILE_SUFFIXES) or os.path.exists(source)



def read_text(source: Union[str, "os.PathLike[str]"], field: str = "source") -> str:
    """The text of a source: the file's when it is a path (see :func:`is_path`), else itself."""
    if not is_path(source):
        return source.removeprefix(BOM)  # type: ignore[union-attr]
    try:
        with open(source, encoding="utf-8-sig") as f:
            return f.read()
    except FileNotFoundError:
        raise FileNotFoundError(f"{field}: no file {os.fspath(source)!r} (a one-line string ending in .json or .txt is read "
                                "as a path)") from None
    except IsADirectoryError:
        raise ValueError(f"{field}: {os.fspath(source)!r} is a directory, not an army book or list file") from None
    except PermissionError:
        raise ValueError(f"{field}: {os.fspath(source)!r} cannot be read (permission denied)") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{field}: {os.fspath(source)!r} is not UTF-8 text ({exc.reason})") from None


def is_book_text(text: str) -> bool:
    """An army book's JSON opens with a brace; a list's text never does (``text`` as
    :func:`read_text` gives it: no byte-order mark)."""
    return text.lstrip().startswith("{")


def load_army_book(source: PathOrBook, *, edition: Optional[str] = None, strict: Optional[bool] = None) -> ArmyBook:
    """Read an Army Forge army book.

    ``source`` is a path to the JSON file Army Forge serves (``/api/army-books/<uid>``), that
    JSON as text, or already loaded as a dict (a path is told from text as everywhere: see
    ``docs/loading.md``). ``edition`` defaults to the book's ``versionString`` (falling back
    to the current edition when it names none the library knows).

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
        text = read_text(source)
        if not is_book_text(text):
            what = f"the file {os.fspath(source)!r}" if is_path(source) else "the text"
            raise ValueError(f"source: {what} is not an army book's JSON (it does not open with '{{'); "
                             "for an army list's text use load_army_list")
    else:
        raise TypeError(f"source: expected a path, the book's JSON text or a dict, got {type(source).__name__}")
    try:
        return _core._load_army_book_json(text, edition, strict)
    except ValueError as exc:
        # a malformed book is named for the argument; an unknown rule's message (strict) is
        # the warning's own, word for word
        if str(exc).startswith("not an Army Forge army book"):
            raise ValueError(f"source: {exc}") from None
        raise


def load_army_list(
    source: Union[str, "os.PathLike[str]"],
    *,
    edition: str = "3.5",
    book: Union[ArmyBook, Iterable[ArmyBook], None] = None,
    strict: Optional[bool] = None,
) -> Army:
    """Read an army list in the Army Forge text export ("Share as text").

    ``source`` is the text itself, or a path to a file holding it: an ``os.PathLike``, or a
    one-line string naming a file that exists or ending in ``.txt`` (``docs/loading.md``).
    ``book`` is the list's army book (or books): the rules they define are known for its
    units. Other rule names the library does not know give one :class:`UnknownRuleWarning`
    for the whole list; ``strict=True`` (or :func:`set_strict`) makes that a ``ValueError``.
    :func:`validate_list` checks it against the army-building rules; :func:`simulate` warns
    when a list costs more than its own limit.
    """
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"source: expected the list text or a path, got {type(source).__name__}")
    source = read_text(source)
    if is_book_text(source):
        raise ValueError("source: this is an army book's JSON, not a list; use load_army_book")
    books = [] if book is None else [book] if isinstance(book, ArmyBook) else list(book)
    for b in books:
        if not isinstance(b, ArmyBook):
            raise TypeError(f"book: expected an ArmyBook or a sequence of them, got {type(b).__name__}")
    return _core._load_army_list_text(source, edition, strict, books)
