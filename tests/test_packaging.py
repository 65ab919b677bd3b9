"""What a published package carries: a license, PyPI-safe metadata, a wheel PyPI takes.
(The wheel itself is built, checked and smoke-tested in a fresh virtualenv by `./dev.sh
wheel`, which `./dev.sh test` runs after these tests: scripts/check_wheel.py.)"""

from __future__ import annotations

import re

import pytest

from .conftest import ROOT

tomllib = pytest.importorskip("tomllib", reason="tomllib is in the standard library from Python 3.11")


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


def test_the_license_ships_and_matches_the_metadata():
    project = _project()["project"]
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License") and "Permission is hereby granted, free of charge" in text
    cargo = (ROOT / "Cargo.toml").read_text(encoding="utf-8")
    assert re.search(r'^license = "MIT"$', cargo, flags=re.M)


def test_the_long_description_stands_alone_on_pypi():
    project = _project()["project"]
    page = (ROOT / project["readme"]).read_text(encoding="utf-8")
    assert "../shared" not in page
    assert not re.search(r"\]\((?!https?://)[^)]+\)", page), "a relative link"
    for name in ("attack", "melee", "simulate", "fairness", "fair_cost"):
        assert f"oprstats.{name}(" in page


def test_classifiers_and_wheel_settings():
    data = _project()
    classifiers = data["project"]["classifiers"]
    assert "Typing :: Typed" in classifiers and not any(c.startswith("License ::") for c in classifiers)
    # a manylinux tag checked by maturin's auditwheel, not the bare linux_x86_64
    assert data["tool"]["maturin"]["compatibility"] == "pypi"
    assert (ROOT / "python" / "oprstats" / "py.typed").exists()
    dev = (ROOT / "dev.sh").read_text(encoding="utf-8")
    assert "maturin\" build --release --strip" in dev and "scripts/check_wheel.py" in dev
    # release wheels for glibc 2.17 and later, linked by zig as maturin documents
    assert "--zig --compatibility manylinux2014" in dev


def _mypy_or_skip() -> None:
    """mypy is in the test extra: without it these checks skip, saying why, in a user's own
    environment, and fail under CI=true."""
    import os

    try:
        import mypy  # noqa: F401
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("CI=true but mypy is not installed (the test extra installs it: pip install '.[test]')")
    pytest.importorskip("mypy", reason="mypy is not installed (the test extra installs it: pip install '.[test]')")


def _run(*args: str) -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, f"`python -m {' '.join(args)}` exited {done.returncode}:\n{done.stdout}{done.stderr}"


def test_the_core_stub_matches_the_compiled_module():
    """python/oprstats/_core.pyi against the built module: every name, signature, default and
    class property (`@final`: pyo3 classes cannot be subclassed). No allowlist."""
    _mypy_or_skip()
    _run("mypy.stubtest", "oprstats._core")


def test_mypy_is_clean_on_the_package():
    """`mypy -p oprstats` under pyproject.toml's [tool.mypy]; ./dev.sh test runs both checks too."""
    _mypy_or_skip()
    dev = (ROOT / "dev.sh").read_text(encoding="utf-8")
    assert "-m mypy.stubtest oprstats._core" in dev and "-m mypy -p oprstats" in dev
    _run("mypy", "-p", "oprstats")
