"""Hostile input, round three, on the core's side (issue 43): units as wide as the limits let
them be are refused or answered at once by every engine; the kept thread pools hold a bounded
total of threads; a deployment with no room is refused, not scored; notation prints what it
reads back; the core's values pickle."""

import os
import pickle
import subprocess
import sys
import textwrap
import time
import warnings

import pytest

import oprstats

LIMITS = oprstats.limits() if callable(getattr(oprstats, "limits", None)) else None
TARGET = 'Target [10] Q4+ D4+ | 100pts\n10x Rifle (24", A1)'


def entries(n: int, entry: str) -> str:
    return ", ".join(entry.replace("#", str(i)) for i in range(n))


def widest(entry: str) -> str:
    """A unit at every limit at once: 1,000 models and 100 weapon entries (the most a model
    group may list) of ``entry``."""
    return f"Blob [1000] Q4+ D4+ | 1000pts\n{entries(100, entry)}"


def test_a_unit_listing_more_weapon_entries_than_the_limit_is_refused_when_parsed():
    started = time.perf_counter()
    with pytest.raises(ValueError, match="weapon entries of Blob: 101 is over the limit of 100"):
        oprstats.Unit.parse(f"Blob [1] Q4+ D4+\n{entries(101, 'W# (A1)')}")
    with pytest.raises(ValueError, match="rules of Blob"):
        oprstats.Unit.parse(f"Blob [1] Q4+ D4+ | {entries(101, 'Rule#')}\nW (A1)")
    # the widest text a parser reads (1 MiB) is refused as fast
    with pytest.raises(ValueError, match="weapon entries"):
        oprstats.Unit.parse(f"Blob [1000] Q4+ D4+\n{entries(45_000, '1000x W# (A1000)')}")
    assert time.perf_counter() - started < 2.0


@pytest.mark.parametrize("entry", ['1000x W# (24", A1000, Blast(6), Deadly(6))', "W# (A1)", '10x W# (24", A5, AP(1))'])
@pytest.mark.parametrize("engine", ["attack", "attacked", "melee", "efficiency", "simulate", "cost"])
def test_the_widest_unit_that_parses_is_refused_or_answered_at_once(engine, entry):
    """A refusal (or an answer) within a fraction of a second, whatever unit passed parsing:
    0.1 s on a quiet machine, allowed 1.5 s here for a loaded CI runner."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        blob, target = oprstats.Unit.parse(widest(entry)), oprstats.Unit.parse(TARGET)
        started = time.perf_counter()
        try:
            if engine == "attack":
                oprstats.attack(blob, target)
            elif engine == "attacked":
                oprstats.attack(target, blob)
            elif engine == "melee":
                oprstats.melee(blob, target)
            elif engine == "efficiency":
                oprstats.efficiency(blob)
            elif engine == "simulate":
                oprstats.simulate([blob], [target], games=2, seed=1, progress=False)
            else:
                oprstats.CostModel.default().predict(blob)
        except ValueError as e:
            assert "over the limit" in str(e) or "coherency" in str(e), e
    assert time.perf_counter() - started < 1.5, f"{engine}: {time.perf_counter() - started:.2f} s"


THREADS_SCRIPT = textwrap.dedent("""
    import os, time, oprstats
    a = oprstats.Unit.parse('Squad [5] Q4+ D4+\\n5x Rifle (24", A1)')
    b = oprstats.Unit.parse('Guards [5] Q4+ D3+\\n5x Halberd (A2)')
    for n in range(1, 257):
        oprstats.attack(a, b, method="sample", samples=200, seed=n, threads=n)
    time.sleep(1.0)  # a pool let go ends its threads as it is dropped
    print(len(os.listdir("/proc/self/task")))
""")


@pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="counts threads through /proc (Linux)")
def test_threads_held_after_every_thread_count_are_bounded():
    """One kept pool per distinct ``threads=`` would hold 1 + 2 + ... + 256 = 32,896 threads;
    the kept pools hold at most 256 together (the largest pool allowed)."""
    done = subprocess.run([sys.executable, "-c", THREADS_SCRIPT], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, RAYON_NUM_THREADS="2"))
    assert done.returncode == 0, done.stderr[-2000:]
    held = int(done.stdout.split()[-1])
    assert held <= 256 + 2 + 8, held  # the kept pools, rayon's global pool, Python's own


def test_a_deployment_with_no_room_is_refused_not_scored_as_losses():
    # impassable terrain over both deployment zones: "place one unit fully within 12" of
    # their table edge" cannot be done
    walls = [oprstats.TerrainPiece("wall A", 0, 0, 72, 13, impassable=True),
             oprstats.TerrainPiece("wall B", 0, 35, 72, 48, impassable=True)]
    grunts = oprstats.Unit.parse('Grunts [5] Q5+ D5+ | 50pts\n5x Rifle (24", A1)')
    with pytest.raises(ValueError, match=r"terrain: army [AB]'s unit \"Grunts\" found no room to deploy.*\(got game 0\)"):
        oprstats.simulate([grunts], [grunts], games=20, seed=1, terrain=walls, progress=False)


@pytest.mark.parametrize("text", ["2x(A3)", "4294967296x Gun (A3)", "99999999999999999999999x Gun (A3)"])
def test_weapon_notation_it_cannot_read_back_is_refused(text):
    with pytest.raises(ValueError, match="weapon name|weapon count"):
        oprstats.Weapon.parse(text)


@pytest.mark.parametrize("text", ['2x Rifle (24", A1)', "Claws (A3, AP(1))", '3x Heavy Gun (36", A2, Blast(3))', "2x4 Plank (A1)"])
def test_weapon_notation_prints_what_it_reads_back(text):
    w = oprstats.Weapon.parse(text)
    assert oprstats.Weapon.parse(str(w)) == w


def test_models_and_upgrade_options_pickle():
    unit = oprstats.Unit.parse('Squad [5] Q3+ D4+ | Fearless\n4x Rifle (24", A1), Plasma (24", A1, AP(4))')
    for model in unit.models:
        back = pickle.loads(pickle.dumps(model))
        assert back == model and repr(back) == repr(model)
    book = oprstats.example_book()
    options = [o for u in book.units for o in book.upgrades(u)] if hasattr(book, "upgrades") else []
    if not options:
        pytest.skip("the example book lists no upgrade options")
    for option in options:
        back = pickle.loads(pickle.dumps(option))
        assert back == option and repr(back) == repr(option)


def test_an_unknown_unit_of_a_book_is_a_value_error_with_the_closest_names():
    book = oprstats.example_book()
    name = book.units[0].name
    with pytest.raises(ValueError, match=rf"unit: .*no such unit.*did you mean {name!r}".replace("'", '"')):
        book.unit(name[:-1])


PREPARATION_SCRIPT = textwrap.dedent("""
    import os, signal, threading, time, warnings, oprstats
    warnings.simplefilter("ignore")
    U = oprstats.Unit.parse
    # 24 distinct hordes a side: the melee of every pair is valued before the first game
    # (about 5 s on 2 threads)
    a = [U(f'A{i} [100] Q4+ D4+ | 500pts\\n100x Sword (A{1 + i % 4}, Deadly(3))') for i in range(24)]
    b = [U(f'B{i} [60] Q5+ D5+ | 500pts\\n60x Spear (A{1 + i % 3}, Counter)') for i in range(24)]
    threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    start = time.perf_counter()
    try:
        oprstats.simulate(a, b, games=1, seed=1, progress=False, threads=2)
        print("finished", time.perf_counter() - start)
    except KeyboardInterrupt:
        print("interrupted", time.perf_counter() - start)
""")


def test_ctrl_c_stops_a_long_preparation_of_a_game():
    done = subprocess.run([sys.executable, "-c", PREPARATION_SCRIPT], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    word, seconds = done.stdout.split()[-2:]
    assert word == "interrupted" and float(seconds) < 2.0, done.stdout


@pytest.mark.parametrize("huge", [10**30, 10**5000, -(10**5000)], ids=["1e30", "1e5000", "-1e5000"])
def test_a_huge_int_for_an_int_field_of_the_core_is_a_value_error_shown_by_its_size(huge, recwarn):
    unit = oprstats.Unit.parse("Grunts [5] Q5+ D5+ | 50pts\n5x Rifle (24\", A1)")
    for call, field in [(lambda: oprstats.Weapon("Gun", attacks=huge), "attacks"), (lambda: unit.replace(cost=huge), "cost")]:
        with pytest.raises(ValueError, match=rf"^{field}: ") as caught:
            call()
        assert len(str(caught.value)) < 300
        if abs(huge) > 10**4300:
            assert "digits" in str(caught.value)
    assert not [w for w in recwarn if "Exceeds the limit" in str(w.message)]


def test_numpy_integers_are_ints_to_the_core():
    np = pytest.importorskip("numpy")
    w = oprstats.Weapon("Gun", attacks=np.int64(3), range=np.int32(24))
    assert w == oprstats.Weapon.parse('Gun (24", A3)')
    with pytest.raises(TypeError, match="attacks: expected an int"):
        oprstats.Weapon("Gun", attacks=np.float64(3.0))
