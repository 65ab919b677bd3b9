"""``"v3-2026-11"``: the default policy as it played in November 2026, before issue 40's
transports and reserves, kept as it played.

The seeded games two ``"v3-2026-11"`` armies play are hashed (winner, first player, markers,
models and points left, game by game); the hash was taken at the commit that added the kind,
where ``"v3-2026-11"`` and ``"default"`` were the same code and played the same games game by
game (checked there by ``test_v3_plays_the_games_the_default_played``'s first version, up
to commit d4f17dd). It
changed once since, by the two rules fixes of issue 40 that apply to every policy (paths round
impassable terrain next to the mover, wreck passengers placed model by model), at the commit
that made them, where the two kinds were still checked game by game; the new default's own
choices (``PolicyKind::plans_rides``) must leave it as it is.

Needs the real army books in ``../shared``: skips without them; fails under ``CI=true``.
"""

from __future__ import annotations

import hashlib
import warnings

import numpy as np

import oprstats

from .conftest import BOOKS_DIR  # noqa: F401  (the books' folder, for the fixture)


def army(book_paths, name: str, first: tuple, seed: int, points: int = 2000) -> list:
    """Up to 10 units of the book ``name`` within ``points`` (default loadouts): the units
    named in ``first`` first, then the others in a seeded order."""
    import random

    book = oprstats.load_army_book(next(p for p in book_paths if p.name.startswith(name + "_")))
    pool = [u for u in book.units if u.cost]
    random.Random(seed).shuffle(pool)
    pool.sort(key=lambda u: u.name not in first)
    out, total = [], 0
    for u in pool:
        if len(out) < 10 and total + u.cost <= points:
            out.append(u)
            total += u.cost
    return out


def digest(r: oprstats.GameResult) -> str:
    """A hash of every game's record, game by game."""
    h = hashlib.sha256()
    for row in zip(r.winner.tolist(), r.first.tolist(), np.asarray(r.objectives).tolist(), np.asarray(r.models_left).tolist(), np.asarray(r.points_left).tolist()):
        h.update(repr(row).encode())
    return h.hexdigest()[:16]


def seeded_games(book_paths, kind: str) -> oprstats.GameResult:
    """Saurians with a Triceratops and their Frog-Mage against Dark Elves with Shadow Warriors
    (transports, a caster, Ambush), 40 seeded pairs of games on the standard table."""
    a = army(book_paths, "saurian-starhost", ("Triceratops", "Frog-Mage", "Saurian Guardians"), seed=1)
    b = army(book_paths, "dark-elf-raiders", ("Shadow Warriors", "Light Skimmer", "Warriors"), seed=2)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        r = oprstats.simulate(a, b, games=40, seed=2026, paired=True, policy_a=kind, policy_b=kind, progress=False)
    assert r.violations == 0
    return r


# the hash of ``seeded_games(..., "v3-2026-11")``: see the module's docstring for its history
V3_GAMES = "6aab84c3ffac5a1c"


def test_v3_plays_the_games_the_default_played(book_paths):
    # game by game the same as the default policy's games up to commit d4f17dd (both kinds
    # compared there), hashed since: the default now plans its rides and arrivals
    assert digest(seeded_games(book_paths, "v3-2026-11")) == V3_GAMES


def test_the_default_plans_its_rides_and_arrivals(book_paths):
    # the same seeds: the new default's transports and Ambushers play other games
    assert digest(seeded_games(book_paths, "default")) != V3_GAMES


def test_the_new_weights_are_checked_and_reach_the_game(book_paths):
    import pytest

    assert oprstats.Policy(kind="v3-2026-11").kind == "v3-2026-11"
    for field in ("ride_margin", "arrival_threat_weight"):
        with pytest.raises(ValueError, match=field):
            oprstats.Policy(**{field: -1.0})
    # a ride margin no transport beats: the default policy's units never get in
    a = army(book_paths, "orc-marauders", ("Truck", "Berserkers", "Berserker Leader"), seed=1)
    b = army(book_paths, "battle-brothers", ("APC",), seed=2)
    embarked = {}
    for margin in (2.0, 100.0):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            r = oprstats.simulate(a, b, games=20, seed=3, trace=True, policy_a=oprstats.Policy(ride_margin=margin), policy_b="hold", progress=False)
        embarked[margin] = sum(1 for t in r.traces for e in t.events if e["kind"] in ("embarked", "embark") and e["army"] == 0)
    assert embarked[2.0] > 0 and embarked[100.0] == 0, embarked
