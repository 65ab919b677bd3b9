#!/usr/bin/env bash
# The two jobs the README promises on a fresh machine, each setting up what it needs:
#   ./dev.sh demo   a virtualenv with oprstats built from this checkout (showing cargo's
#                   progress), then the main jobs (`oprstats show`, `oprstats simulate`) on the
#                   embedded example army, and a short tour of the main results
#   ./dev.sh test   the same with the test extras, then every test: cargo's tests of the Rust
#                   core, then pytest (real army books from ../shared; under CI=true they must
#                   exist), then mypy (stubtest of the compiled core's stub, `mypy -p oprstats`),
#                   then the documentation site built strictly, then the release wheel's checks
#                   (./dev.sh wheel)
#   ./dev.sh docs   the same with the docs extra, then the documentation site (mkdocs.yml) built
#                   strictly (a warning is an error) into site/
#   ./dev.sh wheel  a stripped manylinux2014 release wheel (linked by zig) in dist/, checked and smoke-tested in a
#                   fresh virtualenv (scripts/check_wheel.py)
# The virtualenv is .venv (or $OPRSTATS_VENV); re-running reuses it and rebuilds the package.
set -euo pipefail
cd "$(dirname "$0")"
venv="${OPRSTATS_VENV:-.venv}"
# absolute: tools started elsewhere (zig's C compiler wrappers) find it too
case "$venv" in /*) ;; *) venv="$PWD/$venv" ;; esac

tools() {
    if [ ! -x "$venv/bin/python" ]; then
        python3 -m venv "$venv"
    fi
    "$venv/bin/python" -m pip install --quiet --upgrade pip maturin
}

# cargo's progress, from pip's verbose output: a count and the crate being compiled (one
# line per crate when the output is not a terminal), and cargo's closing line
progress() {
    local n=0 others line
    while IFS= read -r line; do
        case "$line" in
            *"Downloading crates"*)
                printf '  cargo: downloading the crates the core depends on...\n'
                ;;
            *"Blocking waiting for file lock"*)
                printf '  cargo: waiting for another build of this checkout to finish...\n'
                ;;
            "Installing collected packages: "*)
                others=$(($(tr -cd , <<<"$line" | wc -c)))
                if [ "$others" -eq 0 ]; then
                    printf '  pip: installing oprstats...\n'
                else
                    printf '  pip: installing oprstats and %d other packages...\n' "$others"
                fi
                ;;
            *" Compiling "*)
                n=$((n + 1))
                line="${line#*Compiling }"
                if [ -t 1 ]; then
                    printf '\r\033[K  [%3d] compiling %s' "$n" "${line:0:60}"
                else
                    printf '  [%3d] compiling %s\n' "$n" "$line"
                fi
                ;;
            *" Finished "*)
                [ -t 1 ] && printf '\r\033[K'
                if [ "$n" -eq 0 ]; then
                    printf '  the Rust core was up to date (cargo: %s)\n' "${line#*Finished }"
                else
                    printf '  %d crate(s) compiled (cargo: %s)\n' "$n" "${line#*Finished }"
                fi
                ;;
        esac
    done
}

setup() {
    tools
    echo "Building oprstats and its Rust core into $venv: about 2-3 minutes on a fresh machine,"
    echo "less on a re-run (cargo's progress below; pip's whole log: $venv/build.log)..."
    # the whole log is kept; pip's failure fails the script (pipefail), its end shown
    if ! "$venv/bin/python" -m pip install -v "$1" 2>&1 | tee "$venv/build.log" | progress; then
        tail -n 30 "$venv/build.log" >&2
        echo "dev.sh: building oprstats failed; the whole log is in $venv/build.log" >&2
        exit 1
    fi
    echo "Built and installed $("$venv/bin/python" -c 'import oprstats; print("oprstats", oprstats.__version__)')."
}

# the documentation site, strictly: any warning (a broken link, a docstring griffe cannot
# read) fails the build
build_docs() {
    NO_MKDOCS_2_WARNING=1 "$venv/bin/python" -m mkdocs build --strict --site-dir "$1"
}

case "${1:-}" in
    demo)
        setup .
        "$venv/bin/oprstats" show
        "$venv/bin/oprstats" simulate --games 2000 --paired --quiet
        "$venv/bin/oprstats" tour
        ;;
    test)
        setup ".[test]"
        cargo test --locked
        "$venv/bin/python" -m pytest
        # the stub of the compiled core against the built module, then the package's types
        "$venv/bin/python" -m mypy.stubtest oprstats._core
        "$venv/bin/python" -m mypy -p oprstats
        build_docs site
        "$0" wheel
        ;;
    docs)
        setup ".[docs]"
        build_docs site
        echo "The documentation site is in site/ (open site/index.html)."
        ;;
    wheel)
        tools
        # zig links against glibc 2.17's symbols, as maturin documents for manylinux2014
        # wheels without a manylinux container: the wheel installs on glibc 2.17 and later
        "$venv/bin/python" -m pip install --quiet "ziglang>=0.13"
        rm -rf dist
        PATH="$venv/bin:$PATH" "$venv/bin/maturin" build --release --strip --locked --zig --compatibility manylinux2014 -o dist
        "$venv/bin/python" scripts/check_wheel.py dist/oprstats-*.whl
        ;;
    *)
        echo "usage: ./dev.sh demo|test|docs|wheel" >&2
        exit 2
        ;;
esac
