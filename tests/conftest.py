"""Shared fixtures. The real army books live in ``../shared`` beside the repository: tests
that need them skip (saying why) in a user's own clone, and fail under ``CI=true``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
BOOKS_DIR = SHARED / "data" / "opr" / "grimdark-future" / "3.5.1"
RULES_DIR = SHARED / "rules"


def _require(path: Path, what: str) -> Path:
    if path.exists():
        return path
    if os.environ.get("CI") == "true":
        pytest.fail(f"CI=true but {what} is missing at {path}")
    pytest.skip(f"{what} not found at {path} (no ../shared beside this clone)")


@pytest.fixture(scope="session")
def book_paths() -> list[Path]:
    """The 43 real v3.5.1 Army Forge books."""
    return sorted(_require(BOOKS_DIR, "the real army books").glob("*.json"))


@pytest.fixture(scope="session")
def book_jsons(book_paths) -> dict[str, dict]:
    return {p.name: json.loads(p.read_text(encoding="utf-8")) for p in book_paths}


@pytest.fixture(scope="session")
def rulebook():
    """``rulebook(edition_file)`` -> the text of a rulebook in ``../shared/rules``."""
    _require(RULES_DIR, "the rulebooks")

    def read(name: str) -> str:
        return (RULES_DIR / name).read_text(encoding="utf-8")

    return read


def cite(text: str, sentence: str) -> None:
    """Asserts that a rulebook really says ``sentence`` (whitespace-insensitive), so a test
    that claims to follow a sentence cannot drift from the text."""
    squash = lambda s: " ".join(s.replace("*", "").replace("’", "'").replace("“", '"').replace("”", '"').split())
    assert squash(sentence) in squash(text), f"the rulebook does not say: {sentence!r}"
