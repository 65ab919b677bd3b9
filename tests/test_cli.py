"""The ``oprstats`` command line."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings

import numpy as np
import pytest

from oprstats.cli import main


def test_show_without_a_file_uses_the_example_army(capsys):
    assert main(["show"]) == 0
    out = capsys.readouterr().out
    assert "Star Wardens Strike Force (army list, 6 units, 950pts)" in out
    header = out.splitlines()[2]
    for column in ("Unit", "Size", "Q", "D", "Tough", "Cost", "Weapons", "Rules"):
        assert column in header
    assert "Warden Squad + Warden Captain" in out and "| Warden Captain: Arc Pistol" in out
    assert "Army rules no engine plays (kept by name): Relay Link (defined by its book only), Warden Oath (defined by its book only)" in out


def test_show_a_book(capsys):
    from oprstats.examples import EXAMPLE_BOOK

    assert main(["show", str(EXAMPLE_BOOK)]) == 0
    out = capsys.readouterr().out
    assert "Star Wardens (example) (army book, v3.5.1, 6 units)" in out
    assert "Siege Walker" in out and "Tough(9)" in out


def test_show_a_real_book(book_paths, capsys):
    path = next(p for p in book_paths if p.name.startswith("battle-brothers"))
    assert main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    assert "Battle Brothers (army book, v3.5.1, 26 units)" in out


def test_errors_are_one_line_not_a_traceback(tmp_path, capsys):
    bad = tmp_path / "list.txt"
    bad.write_text("Grunts [10] Q9+ D5+")
    assert main(["show", str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("oprstats: error: quality: must be from 2 to 6") and "Traceback" not in err
    assert main(["show", str(tmp_path / "missing.json")]) == 1


def test_no_command_prints_help(capsys):
    assert main([]) == 2
    assert "show" in capsys.readouterr().out


@pytest.mark.parametrize("command", [["oprstats"], [sys.executable, "-m", "oprstats"]])
def test_entry_points(command):
    exe = command
    if command == ["oprstats"]:
        from pathlib import Path

        exe = [str(Path(sys.executable).with_name("oprstats"))]
    done = subprocess.run(exe + ["show"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Siege Walker" in done.stdout


def test_version(capsys):
    import oprstats

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"oprstats {oprstats.__version__}"


def test_tables_fit_the_terminal_unless_asked_wide(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "60")
    assert main(["show"]) == 0
    out = capsys.readouterr().out
    table = out.split("\n\n")[1].splitlines()
    assert table and all(len(line) <= 60 for line in table), max(table, key=len)
    # nothing is cut: long cells are wrapped onto more lines, and the table says so
    assert "…" not in out and table[-1] == "(wrapped to 60 columns; --wide: a line a row)"
    assert "Plasma" in out and "Lance" in out and "Deadly(3)" in out.replace("\n", "").replace(" ", "")
    # numbers are never wrapped: a row's numbers stand on its first line
    assert any(line.startswith("Warden Squad") and " 220 " in line for line in table)
    assert main(["show", "--wide"]) == 0
    wide = capsys.readouterr().out
    assert "wrapped" not in wide and max(len(line) for line in wide.splitlines()) > 60


def test_a_closed_pipe_ends_quietly(monkeypatch, capfd):
    # `oprstats show | head -1`: the reader has gone, so every write fails with a broken
    # pipe; the command stops without a traceback or a "Broken pipe" message
    import io
    import os

    read, write = os.pipe()
    os.close(read)
    closed = io.TextIOWrapper(os.fdopen(write, "wb", buffering=0), write_through=True)
    monkeypatch.setattr(sys, "stdout", closed)
    assert main(["show"]) == 1
    monkeypatch.undo()
    err = capfd.readouterr().err
    assert "Traceback" not in err and "Broken pipe" not in err and "error" not in err, err


def test_machine_readable_formats(capsys):
    import csv
    import io
    import json

    assert main(["show", "--format", "csv"]) == 0
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert len(rows) == 6 and rows[1]["name"] == "Warden Squad" and rows[1]["cost"] == "110" and rows[1]["quality"] == "4"
    assert main(["show", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["title"] == ["Star Wardens Strike Force (army list, 6 units, 950pts)"] and data["units"][1]["cost"] == 110
    assert any("Warden Oath" in n for n in data["notes"])
    assert main(["fairness", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"unit", "official", "modelled", "low", "high", "verdict"} <= set(data["units"][0])
    assert main(["simulate", "--games", "20", "--quiet", "--format", "csv"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# rates\nmeasure,rate,low,high\na_wins,") and "\n# units\narmy,name,points,role," in out
    with pytest.raises(SystemExit):
        main(["show", "--format", "xml"])


def _lines_fit(out: str, width: int) -> None:
    too_wide = [line for line in out.splitlines() if len(line) > width]
    assert not too_wide, too_wide


def test_attack_prints_every_stage_exactly(monkeypatch, capsys):
    import oprstats

    monkeypatch.setenv("COLUMNS", "80")
    assert main(["attack", "Warden Squad", "swarm drones"]) == 0
    out = capsys.readouterr().out
    book = oprstats.example_book()
    r = oprstats.attack(book.unit("Warden Squad"), book.unit("Swarm Drones"))
    assert 'Warden Squad attacks Swarm Drones (shooting at 12"), exactly' in out
    assert f"kills {r.kills.mean():.2f}" in out and f"P(destroyed) {r.p_destroyed:.4f}" in out
    row = next(line for line in out.splitlines() if line.startswith("1 "))
    assert row.split()[1:] == [f"{r.hits[1]:.4f}", f"{r.unblocked[1]:.4f}", f"{r.wounds[1]:.4f}", f"{r.kills[1]:.4f}",
                               f"{r.kills.at_least(1):.4f}"]
    _lines_fit(out, 80)
    # a profile in the rulebook's notation, in melee, as JSON
    assert main(["attack", "Brutes [3] Q4+ D4+\\n3x Club (A3, AP(1))", "Warden Squad", "--melee", "--charging", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["title"] == ["Brutes attacks Warden Squad (melee, charging), exactly"] and data["stages"][0]["k"] == 0


def test_attack_names_an_unknown_unit_with_the_closest(capsys):
    assert main(["attack", "Warden Sqad", "Swarm Drones"]) == 1
    assert "unit 'Warden Sqad': not in the example book; did you mean Warden Squad" in capsys.readouterr().err
    assert main(["attack", "Warden Squad", "Swarm Drones", "--distance", "40"]) == 0  # out of range: warned, zeros
    assert "reaches 40" in capsys.readouterr().err


def test_melee_prints_both_sides(monkeypatch, capsys):
    import oprstats

    monkeypatch.setenv("COLUMNS", "70")
    assert main(["melee", "Swarm Drones", "Warden Squad"]) == 0
    out = capsys.readouterr().out
    book = oprstats.example_book()
    m = oprstats.melee(book.unit("Swarm Drones"), book.unit("Warden Squad"))
    wins = next(line for line in out.splitlines() if line.startswith("Wins the melee"))
    assert wins.split()[-2:] == [f"{m.p_charger_wins:.4f}", f"{m.p_defender_wins:.4f}"]
    assert f"Tie {m.p_tie:.4f}" in out
    _lines_fit(out, 70)


def test_efficiency_prints_points_destroyed_per_unit(monkeypatch, capsys):
    import oprstats

    monkeypatch.setenv("COLUMNS", "80")
    assert main(["efficiency"]) == 0
    out = capsys.readouterr().out
    _lines_fit(out, 80)
    drones = oprstats.efficiency(oprstats.example_book().unit("Swarm Drones"))
    row = next(line for line in out.splitlines() if line.startswith("Swarm Drones"))
    assert row.split()[3] == "charge" and row.split()[4] == f"{drones.points_destroyed[drones.modes.index('charge'), 0]:.1f}"
    assert main(["efficiency", "--mode", "shoot"]) == 1
    assert "--mode: 'shoot' is not one of" in capsys.readouterr().err
    assert main(["efficiency", "--format", "csv"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert header == "unit,points,mode,target,points_destroyed_per_100,wounds_per_100,p_destroyed"


def test_validate_exits_1_on_a_broken_rule(tmp_path, capsys):
    assert main(["validate"]) == 1
    assert "7 units, at most 5" in capsys.readouterr().out
    assert main(["validate", "--no-force-organisation"]) == 0
    assert "No army-building rule broken." in capsys.readouterr().out
    over = tmp_path / "list.txt"
    over.write_text("++ Tiny [GF 100pts] ++\n\nGrunts [10] Q5+ D5+ | 160pts\n10x CCW (A1)")
    assert main(["validate", str(over), "--format", "json"]) == 1
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    # 100 points allow no unit at all (1 per 200 points)
    assert [p["rule"] for p in data["problems"]] == ["points", "unit share", "units"]
    # said once, as the check's problem, not again as a warning
    assert "over its own limit" not in captured.err


def test_simulate_takes_the_game_options(capsys):
    args = ["simulate", "--games", "6", "--quiet", "--terrain", "open", "--policy-b", "random", "--rounds", "3", "--threads", "1",
            "--format", "json"]
    assert main(args) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["title"][2] == "6 games of Grimdark Future v3.5 (seed 1, open table, policies default/random, 3 rounds)"
    import oprstats

    army = oprstats.example_army()
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        g = oprstats.simulate(army, army, games=6, seed=1, terrain="open", policy_b="random", rounds=3, progress=False)
    assert data["rates"][0]["rate"] == g.rates()["a_wins"][0]


def test_a_v3_5_book_is_shown_under_v2(capsys):
    """A v3.5.1 book loads under any edition (issue 41): its Fear(1) is read as v2.x's Fear,
    which takes no rating (it was "does not fit that edition")."""
    from oprstats.examples import EXAMPLE_BOOK

    assert main(["show", str(EXAMPLE_BOOK), "--edition", "2"]) == 0
    assert "Star Wardens" in capsys.readouterr().out


def test_units_from_several_books_by_repeated_file_or_file_colon_unit(book_paths, monkeypatch, capsys, tmp_path):
    import oprstats

    monkeypatch.setenv("COLUMNS", "100")
    a_path, b_path = book_paths[0], book_paths[1]
    a, b = oprstats.load_army_book(a_path).units[0], oprstats.load_army_book(b_path).units[0]
    # repeated --file: each name is looked up in every file (the second --file no longer
    # replaces the first)
    assert main(["attack", a.name, b.name, "--file", str(a_path), "--file", str(b_path), "--melee"]) == 0
    assert f"{a.name} attacks {b.name} (melee)" in capsys.readouterr().out
    # FILE:UNIT, with no --file at all
    assert main(["melee", f"{a_path}:{a.name}", f"{b_path}:{b.name}"]) == 0
    assert a.name in capsys.readouterr().out
    # a name in two files is refused, naming the way out
    twin = tmp_path / "twin.json"
    twin.write_bytes(a_path.read_bytes())
    assert main(["attack", a.name, b.name, "--file", str(a_path), "--file", str(twin), "--file", str(b_path)]) == 1
    err = capsys.readouterr().err
    assert "in more than one file" in err and "name it as FILE:UNIT" in err
    assert main(["attack", "Nobody At All", a.name, "--file", str(a_path), "--file", str(b_path)]) == 1
    assert "not in" in capsys.readouterr().err


def test_a_list_over_its_own_limit_is_warned_about_as_simulate_warns(tmp_path, capsys):
    from oprstats.examples import EXAMPLE_LIST

    text = EXAMPLE_LIST.read_text(encoding="utf-8").replace("[GF 1000pts]", "[GF 500pts]")
    path = tmp_path / "over.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["simulate", str(path), "--games", "4", "--quiet"]) == 0
    assert "over its own limit of 500 pts" in capsys.readouterr().err


def test_the_main_questions_have_subcommands(monkeypatch, capsys):
    """duel, fair-cost, break-even and matchups: the API's answers, printed."""
    import oprstats

    monkeypatch.setenv("COLUMNS", "100")
    book = oprstats.example_book()
    squad, drones = book.unit("Warden Squad"), book.unit("Swarm Drones")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        d = oprstats.duel(squad, drones, games=100, seed=3, paired=True)
        from oprstats._matchups import fair_cost_rows

        costs = fair_cost_rows(list(book.units), seed=0)  # the CLI's --seed default
        be = oprstats.break_even(squad, list(book.units))
    assert main(["duel", "Warden Squad", "Swarm Drones", "--games", "100", "--seed", "3", "--format", "json"]) == 0
    rows = {r["measure"]: r["mean"] for r in json.loads(capsys.readouterr().out)["duel"]}
    assert rows["Warden Squad wins"] == pytest.approx(d.summary().loc["a_wins", "rate"])
    assert main(["fair-cost", str(oprstats.examples.EXAMPLE_BOOK), "--format", "json"]) == 0
    out = json.loads(capsys.readouterr().out)["fair_cost"]
    assert [(r["unit"], r["fair"]) for r in out] == [(r["unit"], pytest.approx(r["fair"])) for r in costs]
    assert main(["break-even", "Warden Squad"]) == 0
    assert f"is even: {be.value:.1f}" in capsys.readouterr().out
    assert main(["matchups", str(oprstats.examples.EXAMPLE_BOOK), "--top", "2"]) == 0
    text = capsys.readouterr().out
    m = oprstats.matchups(list(book.units), list(book.units))
    assert f"{float(np.nanmax(m.net)):+.1f}" in text and f"{float(np.nanmin(m.net)):+.1f}" in text
    _lines_fit(text, 100)


def test_a_duels_line_up_and_its_old_flag(monkeypatch, capsys):
    """issue 44: --line-up, as simulate(line_up=) names the duel's starting gap; --distance,
    its old name, works with a warning for one release; both is an error."""
    monkeypatch.setenv("COLUMNS", "80")
    command = ["duel", "Warden Squad", "Swarm Drones", "--games", "30", "--seed", "2"]
    assert main(command + ["--line-up", "6"]) == 0
    new = capsys.readouterr()
    assert 'duels from 6" (paired, seed 2)' in new.out and "--distance" not in new.err
    _lines_fit(new.out, 80)
    assert main(command + ["--distance", "6"]) == 0
    old = capsys.readouterr()
    assert old.out == new.out
    assert "oprstats: warning: duel: --distance is now --line-up" in old.err
    assert main(command + ["--distance", "6", "--line-up", "6"]) == 1
    assert "oprstats: error: duel: give --line-up only" in capsys.readouterr().err


def test_fair_cost_says_what_the_units_were_judged_against(monkeypatch, capsys):
    """issue 44: by default the units are judged against themselves; the command says so and
    how to judge them against other books."""
    import oprstats

    monkeypatch.setenv("COLUMNS", "80")
    assert main(["fair-cost", "--top", "1"]) == 0
    out = capsys.readouterr().out
    said = " ".join(out.split())
    assert "Judged against: the units themselves" in said and "add other books: --field OTHER.json (repeatable" in said
    _lines_fit(out, 80)
    book = str(oprstats.examples.EXAMPLE_BOOK)
    assert main(["fair-cost", book, "--field", book, "--top", "1", "--format", "json"]) == 0
    title = json.loads(capsys.readouterr().out)["title"]
    assert title[-1] == f"Judged against: the {len(oprstats.example_book())} units of {oprstats.example_book().name}."


def test_factions_ranks_books_against_the_field_as_the_api_does(book_paths, capsys):
    import oprstats

    paths = [p for p in book_paths if p.name.startswith(("battle-brothers", "orc-marauders", "dark-elf-raiders"))]
    assert main(["factions", *map(str, paths), "--lists", "1", "--games", "3", "--quiet", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    table = oprstats.faction_table([oprstats.load_army_book(p) for p in paths], lists=1, games=3, seed=1, progress=False)
    assert [row["faction"] for row in data["factions"]] == [table.names[i] for i in table.ranking()]
    assert data["factions"][0]["win_rate"] == pytest.approx(100 * table.field[table.ranking()[0]])
    assert len(data["pairs"]) == 6
    assert main(["factions", str(paths[0]), "--games", "1"]) == 1
    assert "factions: from 2 to 200 factions (got 1)" in capsys.readouterr().err


def test_game_commands_take_an_edition_and_say_which_they_play(capsys):
    assert main(["simulate", "--games", "2", "--quiet", "--edition", "4.0"]) == 1
    assert "oprstats: error: edition: " in capsys.readouterr().err
    # v2.x games are played, on units that fit v2.x: the example list does not (its book now
    # loads under any edition, its Fear(1) read as v2.x's Fear; the list's Fear(2) is refused)
    assert main(["simulate", "--games", "2", "--quiet", "--edition", "2"]) == 1
    assert "Fear takes no rating in Grimdark Future v2.x" in capsys.readouterr().err
    assert main(["simulate", "--games", "4", "--quiet", "--edition", "3.4.1"]) == 0
    assert "4 games of Grimdark Future v3.4.1 (seed 1, standard table" in capsys.readouterr().out
    assert main(["simulate", "--games", "2", "--quiet", "--edition", "3.5", "--format", "json"]) == 0
