"""A small invented army shipped with the package (no OPR content): the "Star Wardens".

It is in the same formats as the real data, an Army Forge army book (JSON) and a list in
the Army Forge text export, so every loader can be tried with nothing else at hand.
"""

from __future__ import annotations

from pathlib import Path

from ._core import Army, ArmyBook
from ._loaders import load_army_book, load_army_list

DATA = Path(__file__).resolve().parent / "data"
EXAMPLE_BOOK = DATA / "example-book.json"
EXAMPLE_LIST = DATA / "example-list.txt"


def example_book() -> ArmyBook:
    """The example army book (6 units with upgrade options)."""
    return load_army_book(EXAMPLE_BOOK)


def example_army() -> Army:
    """The example army list (1,000 points, a hero joined to a squad), read with the example
    book, which defines its army rules."""
    return load_army_list(EXAMPLE_LIST, book=example_book())
