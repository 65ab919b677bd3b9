#!/usr/bin/env bash
# The two jobs the README promises on a fresh machine, each setting up what it needs:
#   ./dev.sh demo   a virtualenv with oprstats built from this checkout, then the main jobs
#                   (`oprstats show`, `oprstats simulate`) on the embedded example army
#   ./dev.sh test   the same with the test extras, then every test: cargo's tests of the Rust
#                   core, then pytest (real army books from ../shared; under CI=true they must
#                   exist), then mypy (stubtest of the compiled core's stub, `mypy -p oprstats`),
#                   then the release wheel's checks (./dev.sh wheel)
#   ./dev.sh wheel  a stripped manylinux release wheel in dist/, checked and smoke-tested in a
#                   fresh virtualenv (scripts/check_wheel.py)
# The virtualenv is .venv (or $OPRSTATS_VENV); re-running reuses it and rebuilds the package.
set -euo pipefail
cd "$(dirname "$0")"
venv="${OPRSTATS_VENV:-.venv}"

tools() {
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --upgrade pip maturin
}

setup() {
    tools
    "$venv/bin/python" -m pip install --quiet "$1"
}

case "${1:-}" in
    demo)
        setup .
        "$venv/bin/oprstats" show
        "$venv/bin/oprstats" simulate --games 2000 --paired --quiet
        ;;
    test)
        setup ".[test]"
        cargo test --locked
        "$venv/bin/python" -m pytest
        # the stub of the compiled core against the built module, then the package's types
        "$venv/bin/python" -m mypy.stubtest oprstats._core
        "$venv/bin/python" -m mypy -p oprstats
        "$0" wheel
        ;;
    wheel)
        tools
        rm -rf dist
        "$venv/bin/maturin" build --release --strip --locked -o dist
        "$venv/bin/python" scripts/check_wheel.py dist/oprstats-*.whl
        ;;
    *)
        echo "usage: ./dev.sh demo|test|wheel" >&2
        exit 2
        ;;
esac
