"""Loading Army Forge army books (JSON) and army lists (text export)."""

from __future__ import annotations

import json
import os
import stat
import warnings
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



def read_file(path: Union[str, "os.PathLike[str]"], field: str, limit: int, kind: str = "an army book or list file") -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, the one way every path argument
    is read: a device (``/dev/zero``), a pipe or a socket is refused before it is opened (it
    may never end, or block forever), and at most ``limit + 1`` bytes are read, so a file
    too large costs nothing. ``kind`` says what the file should be, for a directory's error."""
    name = os.fspath(path)
    if not isinstance(name, str):
        raise TypeError(f"{field}: expected a path as str or os.PathLike[str], got {type(name).__name__}")

    def unreadable(exc: OSError) -> ValueError:
        return ValueError(f"{field}: {name!r} cannot be read ({exc.strerror or exc})")

    def too_large(size: Any) -> ValueError:
        return ValueError(f"{field}: {name!r} is {size} bytes, over the limit of {limit:,} bytes this library accepts")

    def check(st: os.stat_result) -> None:
        if stat.S_ISDIR(st.st_mode):
            raise ValueError(f"{field}: {name!r} is a directory, not {kind}")
        if not stat.S_ISREG(st.st_mode):
            raise ValueError(f"{field}: {name!r} is not a regular file (a device, pipe or socket is never read)")
        if st.st_size > limit:
            raise too_large(f"{st.st_size:,}")

    try:
        check(os.stat(name))
        # the file is checked again once open, in case another took its place meanwhile; a
        # pipe opened without a writer would block the open itself, so it is non-blocking
        fd = os.open(name, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            check(st)
            data = f.read(st.st_size + 1)
            if len(data) > st.st_size:  # it grew since: read on, to the limit
                data += f.read(limit + 1 - len(data))
    except FileNotFoundError:
        raise FileNotFoundError(f"{field}: no file {name!r}") from None
    except PermissionError:
        raise ValueError(f"{field}: {name!r} cannot be read (permission denied)") from None
    except OSError as exc:
        raise unreadable(exc) from None
    except ValueError as exc:
        if str(exc).startswith(f"{field}: "):
            raise
        raise ValueError(f"{field}: {name!r} is not a path that can be opened ({exc})") from None  # an embedded NUL
    if len(data) > limit:
        raise too_large(f"more than {limit:,}")
    return data


def read_text(source: Union[str, "os.PathLike[str]"], field: str = "source", limit: int = LIMITS["MAX_JSON"]) -> str:
    """The text of a source: the file's when it is a path (see :func:`is_path`; read by
    :func:`read_file`, at most ``limit`` bytes), else itself."""
    if not is_path(source):
        return source.removeprefix(BOM)  # type: ignore[union-attr]
    try:
        data = read_file(source, field, limit)
    except FileNotFoundError:
        raise FileNotFoundError(f"{field}: no file {os.fspath(source)!r} (a one-line string ending in .json or .txt is read "
                                "as a path)") from None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{field}: {os.fspath(source)!r} is not UTF-8 text ({exc.reason})") from None
    # as a file opened as text reads it: every line ends in "\n"
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def is_book_text(text: str) -> bool:
    """An army book's JSON opens with a brace; a list's text never does (``text`` as
    :func:`read_text` gives it: no byte-order mark)."""
    return text.lstrip().startswith("{")


def load_army_book(source: PathOrBook, *, edition: Optional[str] = None, strict: Optional[bool] = None) -> ArmyBook:
    """Read an Army Forge army book.

    ``source`` is a path to the JSON file Army Forge serves (``/api/army-books/<uid>``), that
    JSON as text, or already loaded as a dict (a path is told from text as everywhere: see
    ``docs/loading.md``). ``edition`` defaults to the edition the book is for: Firefight v3.2
    for a Firefight book (its ``gameSystemSlug``), else its ``versionString`` (falling back
    to the current edition when it names none the library knows). A book read under another
    edition loads (its rules that edition lacks reported as every unknown rule is); reading a
    Firefight book under a Grimdark Future edition, or the other way round, warns, since its
    points are priced for the other game.

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
        book = _core._load_army_book_json(text, edition, strict)
    except ValueError as exc:
        # a malformed book is named for the argument; an unknown rule's message (strict) is
        # the warning's own, word for word
        if str(exc).startswith("not an Army Forge army book"):
            raise ValueError(f"source: {exc}") from None
        raise
    if (book.edition == FIREFIGHT) != (book.own_edition == FIREFIGHT):
        games = {True: "Firefight", False: "Grimdark Future"}
        warnings.warn(f"edition: {book.name} is a {games[book.own_edition == FIREFIGHT]} book (game system "
                      f"{book.game_system or 'not given'}) read under {book.edition!r}; its points are priced for "
                      f"{games[book.own_edition == FIREFIGHT]}, not for this edition (leave edition=None for its own, "
                      f"{book.own_edition!r})", UserWarning, stacklevel=2)
    return book


# The Firefight edition's key (the edition Firefight books are read under).
FIREFIGHT = "firefight-3.2"


def load_army_list(
    source: Union[str, "os.PathLike[str]"],
    *,
    edition: Optional[str] = None,
    book: Union[ArmyBook, Iterable[ArmyBook], None] = None,
    strict: Optional[bool] = None,
) -> Army:
    """Read an army list in the Army Forge text export ("Share as text").

    ``source`` is the text itself, or a path to a file holding it: an ``os.PathLike``, or a
    one-line string naming a file that exists or ending in ``.txt`` (``docs/loading.md``).
    ``book`` is the list's army book (or books): the rules they define are known for its
    units. ``edition`` defaults to the one the list's title names by its game system
    (``[GFF 300pts]``: Army Forge's Firefight, read under ``"firefight-3.2"``), else its
    books' edition (a Firefight book's is Firefight), else the current one. Other rule names the library does not know give one :class:`UnknownRuleWarning`
    for the whole list; ``strict=True`` (or :func:`set_strict`) makes that a ``ValueError``.
    :func:`validate_list` checks it against the army-building rules; :func:`simulate` warns
    when a list costs more than its own limit.
    """
    if not isinstance(source, (str, os.PathLike)):
        raise TypeError(f"source: expected the list text or a path, got {type(source).__name__}")
    source = read_text(source, limit=LIMITS["MAX_TEXT"])
    if is_book_text(source):
        raise ValueError("source: this is an army book's JSON, not a list; use load_army_book")
    books = [] if book is None else [book] if isinstance(book, ArmyBook) else list(book)
    for b in books:
        if not isinstance(b, ArmyBook):
            raise TypeError(f"book: expected an ArmyBook or a sequence of them, got {type(b).__name__}")
    return _core._load_army_list_text(source, edition, strict, books)
