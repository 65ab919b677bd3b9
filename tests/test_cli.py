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
