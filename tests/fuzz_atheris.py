"""Coverage-guided fuzzing with atheris (libFuzzer for Python; `pip install atheris`), the
longer counterpart of the hypothesis harnesses in test_fuzz.py, with the same checkers. Not
collected by pytest. From the repository root:

    python -m tests.fuzz_atheris TARGET CORPUS_DIR [libFuzzer options]
    python -m tests.fuzz_atheris weapon fuzz-corpus/weapon -atheris_runs=200000

TARGET is weapon, unit, list, book or attack. An empty or missing CORPUS_DIR is seeded from
the example army list and book. Coverage is collected from the Python layer; the Rust core is
not instrumented, so inside it the search is blind (libFuzzer's mutations of the seeds).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import atheris

with atheris.instrument_imports():
    import oprstats
    from oprstats import Unit, Weapon

from .test_fuzz import BOOK, LIST_TEXT, UNIT_SEEDS, WEAPON_SEEDS, check_pmf, clean, round_trips

EDITIONS = [key for key, _, _ in oprstats._core._editions()]


def _text(data: bytes):
    """The input as text and an edition (its first byte), or None when it is not UTF-8."""
    if not data:
        return None
    try:
        return data[1:].decode("utf-8"), EDITIONS[data[0] % len(EDITIONS)]
    except UnicodeDecodeError:
        return None


def weapon(data: bytes) -> None:
    if (got := _text(data)) is not None:
        w = clean(lambda: Weapon.parse(got[0], edition=got[1]))
        if w is not None:
            round_trips(w)


def unit(data: bytes) -> None:
    if (got := _text(data)) is not None:
        u = clean(lambda: Unit.parse(got[0], edition=got[1]))
        if u is not None:
            round_trips(u)


def army_list(data: bytes) -> None:
    if (got := _text(data)) is not None:
        army = clean(lambda: oprstats.load_army_list(got[0], edition=got[1]))
        if army is not None:
            assert len(army) <= dict(oprstats._core._limits())["MAX_ARMY_UNITS"]


def book(data: bytes) -> None:
    got = _text(data)
    if got is None:
        return
    loaded = clean(lambda: oprstats._core._load_army_book_json(got[0], got[1]))
    if loaded is not None:
        for u in loaded.units:
            for _, v, _ in clean(lambda: loaded.variants(u)) or []:
                round_trips(v)


def attack(data: bytes) -> None:
    fdp = atheris.FuzzedDataProvider(data)
    edition = EDITIONS[fdp.ConsumeIntInRange(0, len(EDITIONS) - 1)]
    models, attacks = fdp.ConsumeIntInRange(1, 5), fdp.ConsumeIntInRange(0, 4)
    rules = fdp.ConsumeUnicodeNoSurrogates(40)
    melee = fdp.ConsumeBool()
    head = f"{models}x Blade (A{attacks}" if melee else f'{models}x Gun (24", A{attacks}'
    text = f"S [{models}] Q{fdp.ConsumeIntInRange(2, 6)}+ D4+\n{head}{', ' + rules if rules else ''})"
    target = f"T [{fdp.ConsumeIntInRange(1, 5)}] Q4+ D{fdp.ConsumeIntInRange(2, 6)}+ | Tough({fdp.ConsumeIntInRange(1, 4)})"
    a = clean(lambda: Unit.parse(text, edition=edition))
    t = clean(lambda: Unit.parse(target, edition=edition))
    if a is None or t is None:
        return
    r = clean(lambda: oprstats.attack(a, t, melee=melee, distance=12, edition=edition))
    if r is not None:
        for stage in (r.hits, r.unblocked, r.wounds, r.kills):
            check_pmf(stage.pmf)


TARGETS = {"weapon": weapon, "unit": unit, "list": army_list, "book": book, "attack": attack}


def _seeds(target: str) -> list[bytes]:
    if target == "weapon":
        texts = WEAPON_SEEDS
    elif target == "unit":
        texts = UNIT_SEEDS
    elif target == "list":
        texts = [LIST_TEXT]
    elif target == "book":
        texts = [json.dumps(BOOK)]
    else:
        return [bytes([i, 3, 2, 4, 1]) + b"AP(1), Blast(3)" for i in range(len(EDITIONS))]
    return [bytes([0]) + t.encode("utf-8") for t in texts]


def main() -> None:
    if len(sys.argv) < 3 or sys.argv[1] not in TARGETS:
        sys.exit(f"usage: python -m tests.fuzz_atheris {{{','.join(TARGETS)}}} CORPUS_DIR [libFuzzer options]")
    target, corpus = sys.argv[1], Path(sys.argv[2])
    if not corpus.exists() or not any(corpus.iterdir()):
        corpus.mkdir(parents=True, exist_ok=True)
        for i, seed in enumerate(_seeds(target)):
            (corpus / f"seed-{i}").write_bytes(seed)
    import warnings

    warnings.simplefilter("ignore")
    atheris.Setup([sys.argv[0]] + sys.argv[2:], TARGETS[target])
    atheris.Fuzz()


if __name__ == "__main__":
    main()
