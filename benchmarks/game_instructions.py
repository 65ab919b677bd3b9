"""Instructions per game, counted by valgrind's callgrind on 1 thread: a figure of the engine's
cost that does not drift with the shared machine's speed (a core here drifts by a factor of
about 1.8 within a minute; see ``machine.py``), so two builds can be compared to a percent.

Each case runs twice in a child process under callgrind, with N1 and N2 games (the same
seed: the first N1 games are the same in both), and the figure is (I(N2) - I(N1)) / (N2 - N1)
games: imports, army loading and preparation cancel out. Cases: ``duel``, the 40 book pairs
of ``duels.py`` on an open table (per duel), and ``5``, ``10``, ``15``, ``30``: battles between
the armies of ``game.py`` with that many units a side on the standard table (the 30-unit
armies of about 6,000 points). The engine's caches fill as a run goes on, so a later game
costs less (10 units: 6.4 M instructions a game over games 1-20, 5.6 M over 20-220, 4.9 M
over 620-1020): compare figures of the same counts only.

Under each case, the instructions per activation (the case's activations counted natively
from ``GameResult.unit_stats``; n/a from a build that does not count them): issue 40 asks an
activation at 30 v 30 to cost at most 1.5 times one at 5 v 5.

``--wall`` times the same cases natively instead, interleaving the pythons given (A B A B ...
for several rounds, with 2 threads and 1 thread): the wall-clock ratio to the first python,
measured in the same weather.

A case may name an edition: ``10@3.4.1`` plays the same books read in v3.4.1, in a v3.4.1
game (their army rules are then unmodelled, so the figure is of the edition's engine, not of
the same armies); ``10@firefight-3.2`` plays the same factions' Firefight books (about 60
points a unit), on Firefight's 4'x4' table.

    python benchmarks/game_instructions.py [--python PATH ...] [--cases duel,5,10,15,30,10@3.4.1] [--wall]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.machine import describe

CASES = ("duel", "5", "10", "15", "30")
# games (per pair for the duels) of the two callgrind runs: the difference is 1.5 to 4 G
# instructions, half a minute to a minute under callgrind for each case and python
COUNTS = {"duel": (50, 1050), "5": (20, 1020), "10": (20, 420), "15": (10, 210), "30": (5, 65)}
# games (per pair for the duels) of a timed native run: about a second on 1 thread
WALL = {"duel": 2000, "5": 3000, "10": 1500, "15": 800, "30": 200}
SEED = 1


def split_case(case: str) -> tuple:
    """A case's armies and its edition: ``"10"`` (the books' own, v3.5) or ``"10@3.4.1"``
    (the same books read in v3.4.1, and the games played in it)."""
    base, _, edition = case.partition("@")
    return base, edition or None


def case_runs(case: str) -> list:
    """(army A, army B, terrain) of each ``simulate`` call of a case."""
    from benchmarks.game import BOOKS, armies, army_from_book
    from benchmarks.game_hash import duel_pairs

    base, edition = split_case(case)
    if base == "duel":
        return [([a], [b], "open") for a, b in duel_pairs(edition)]
    if base == "30" and edition != "firefight-3.2":
        books = sorted(BOOKS.glob("*.json"))
        # as game.armies builds them, with the points of 30 units
        a = army_from_book(next(p for p in books if "battle-brothers" in p.name), 30, points=6000, seed=1, edition=edition)
        b = army_from_book(next(p for p in books if "alien-hives" in p.name), 30, points=6000, seed=2, edition=edition)
        return [(a, b, "standard")]
    a, b, _ = armies(int(base), edition=edition)
    return [(a, b, "standard")]


def child(case: str, games: int, threads: int, timed: bool, count: bool = False) -> None:
    """Plays a case's games; ``timed``: after a warm-up, prints the seconds they took;
    ``count``: prints the activations they played (``GameResult.unit_stats``; "none" from a
    build that does not count them)."""
    import oprstats

    warnings.simplefilter("ignore")
    runs = case_runs(case)
    if count:
        total = 0.0
        for a, b, t in runs:
            r = oprstats.simulate(a, b, games=games, seed=SEED, terrain=t, threads=threads, progress=False)
            if "activations" not in r.unit_stats["a"]:
                print("activations none")
                return
            total += sum(float(r.unit_stats[x]["activations"].sum()) * len(r) for x in ("a", "b"))
        print(f"activations {total!r}")
        return

    def play(n: int) -> None:
        for a, b, t in runs:
            oprstats.simulate(a, b, games=n, seed=SEED, terrain=t, threads=threads, progress=False)

    if not timed:
        play(games)
        return
    play(max(1, games // 10))
    start = time.perf_counter()
    play(games)
    print(f"seconds {time.perf_counter() - start!r}")


def child_env(threads: int) -> dict:
    """The pools pinned to ``threads`` (numpy's to 1), and Python's string hashes fixed so
    that the interpreter's own instructions repeat from run to run."""
    return dict(os.environ, PYTHONHASHSEED="0", RAYON_NUM_THREADS=str(threads), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")


def instructions(python: str, case: str, games: int) -> int:
    """Instructions callgrind counts for a child playing ``games`` of a case on 1 thread."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
               python, __file__, "--child", case, str(games), "1"]
        done = subprocess.run(cmd, check=False, env=child_env(1), capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    raise RuntimeError(f"no summary line in callgrind's output for {case} ({games} games)")


def activations(python: str, case: str, games: int):
    """Activations played in ``games`` of a case (natively), or None from an older build."""
    cmd = [python, __file__, "--child", case, str(games), "1", "--count"]
    done = subprocess.run(cmd, check=False, env=child_env(1), capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
    word = done.stdout.split("activations")[-1].strip()
    return None if word == "none" else float(word)


def per_game(case: str) -> int:
    """Games a case's count stands for: the duels are 40 games per pair count."""
    return len(case_runs(case)) if split_case(case)[0] == "duel" else 1


def describe_cases(cases: list) -> None:
    """The armies of each case, as this python builds them."""
    for case in cases:
        if split_case(case)[0] == "duel":
            print(f"  {case}: {per_game(case)} pairs of book units (duels.py), open table")
            continue
        ((a, b, _),) = case_runs(case)
        print(f"  {case}: A {len(a)} units {sum(u.cost for u in a):,} pts, B {len(b)} units {sum(u.cost for u in b):,} pts, standard table")


def measure_instructions(pythons: list, cases: list) -> None:
    print("Instructions per game (callgrind, 1 thread, (I(N2) - I(N1)) / (N2 - N1) games)")
    describe_cases(cases)
    for i, p in enumerate(pythons):
        print(f"  python {i + 1}: {p}")
    head = f"{'case':6s} {'N1 -> N2':>12s}" + "".join(f" {'python ' + str(i + 1):>14s}" for i in range(len(pythons)))
    print(head + ("".join(f" {'ratio ' + str(i + 1) + '/1':>10s}" for i in range(1, len(pythons)))))
    for case in cases:
        n1, n2 = COUNTS[split_case(case)[0]]
        games = (n2 - n1) * per_game(case)
        figures = []
        started = time.perf_counter()
        per_activation = []
        for p in pythons:
            figures.append((instructions(p, case, n2) - instructions(p, case, n1)) / games)
            a1, a2 = activations(p, case, n1), activations(p, case, n2)
            per_activation.append(None if a1 is None or a2 is None else figures[-1] * games / (a2 - a1))
        row = f"{case:6s} {f'{n1} -> {n2}':>12s}" + "".join(f" {f:14,.0f}" for f in figures)
        row += "".join(f" {f / figures[0]:10.4f}" for f in figures[1:])
        print(f"{row}   ({games:,} games measured, {time.perf_counter() - started:.0f} s)", flush=True)
        print(f"{'':6s} {'per activation':>12s}" + "".join(f" {f:14,.0f}" if f is not None else f" {'n/a':>14s}" for f in per_activation), flush=True)


def measure_wall(pythons: list, cases: list, rounds: int) -> None:
    print(describe())
    print(f"Games per second, native, {rounds} rounds interleaving the pythons (A B A B ...):")
    describe_cases(cases)
    for i, p in enumerate(pythons):
        print(f"  python {i + 1}: {p}")
    for case in cases:
        games = WALL[split_case(case)[0]] * per_game(case)
        rates: dict = {}
        for _ in range(rounds):
            for threads in (2, 1):
                for i, p in enumerate(pythons):
                    cmd = [p, __file__, "--child", case, str(WALL[split_case(case)[0]]), str(threads), "--timed"]
                    done = subprocess.run(cmd, check=False, env=child_env(threads), capture_output=True, text=True)
                    if done.returncode != 0:
                        raise RuntimeError(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr[-3000:]}")
                    seconds = float(done.stdout.split("seconds")[-1])
                    rates.setdefault((threads, i), []).append(games / seconds)
        print(f"case {case} ({games:,} games a run):")
        for threads in (2, 1):
            best0 = max(rates[threads, 0])
            med0 = statistics.median(rates[threads, 0])
            for i in range(len(pythons)):
                r = rates[threads, i]
                best, med = max(r), statistics.median(r)
                print(f"  {threads} thread(s) python {i + 1}: best {best:12,.0f} /s  median {med:12,.0f} /s"
                      f"  ratio to python 1: best {best / best0:.3f}  median {med / med0:.3f}", flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="append", help="an interpreter to measure (repeatable; default: this one)")
    parser.add_argument("--cases", default=",".join(CASES), help="comma-separated, of " + ",".join(CASES))
    parser.add_argument("--wall", action="store_true", help="time natively instead, interleaving the pythons")
    parser.add_argument("--rounds", type=int, default=5, help="--wall: rounds of each python")
    parser.add_argument("--child", nargs=3, metavar=("CASE", "GAMES", "THREADS"), help=argparse.SUPPRESS)
    parser.add_argument("--timed", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        case, games, threads = args.child
        child(case, int(games), int(threads), args.timed, args.count)
        return 0
    from benchmarks.game import BOOKS

    if not BOOKS.is_dir() or not any(BOOKS.glob("*.json")):
        print(f"skipped: no army books at {BOOKS}")
        return 0
    cases = [c.strip() for c in args.cases.split(",") if c.strip()]
    unknown = [c for c in cases if c.partition("@")[0] not in CASES]
    if unknown:
        parser.error(f"--cases: unknown {', '.join(unknown)} (known: {', '.join(CASES)}, each optionally @EDITION)")
    if not args.wall and not shutil.which("valgrind"):
        print("valgrind is not installed: counting instructions needs it (--wall times natively)")
        return 1
    pythons = args.python or [sys.executable]
    start = time.perf_counter()
    if args.wall:
        measure_wall(pythons, cases, args.rounds)
    else:
        measure_instructions(pythons, cases)
    print(f"({time.perf_counter() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
