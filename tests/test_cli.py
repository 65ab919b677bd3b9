"""The ``oprstats`` command line."""

from __future__ import annotations

import subprocess
import sys

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
    table = [line for line in capsys.readouterr().out.splitlines() if line.startswith(("Unit", "---", "Warden", "Swarm", "Scout", "Siege"))]
    assert table and all(len(line) <= 60 for line in table), max(table, key=len)
    assert any("…" in line for line in table)
    # numbers are never cut
    assert any(line.rstrip().endswith(("Fearles…", "Fearless")) or "220" in line for line in table)
    assert main(["show", "--wide"]) == 0
    wide = capsys.readouterr().out
    assert "…" not in wide and max(len(line) for line in wide.splitlines()) > 60


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
