"""Check a built wheel the way a publisher would, then smoke-test it installed in a fresh
virtualenv (run by `./dev.sh wheel`, and so by `./dev.sh test`):

    python scripts/check_wheel.py dist/oprstats-*.whl

- the platform tag is a manylinux one PyPI takes (not the bare ``linux_x86_64``);
- the metadata carries the license expression and the LICENSE file, a Markdown long
  description with no relative links and no mention of ``../shared``;
- the extension is stripped, and ``auditwheel show`` finds it consistent with its manylinux
  tag;
- installed alone in a new virtualenv (with its dependencies from the index), the package
  imports, computes an exact attack, a matchups table and a duel on its embedded example
  army, and its command line prints its version.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
import venv
import zipfile
from pathlib import Path

SMOKE = r"""
import oprstats
squad = oprstats.Unit.parse('Squad [10] Q3+ D4+ | 100pts\n10x Rifle (24", A1, AP(1))')
guards = oprstats.Unit.parse("Guards [5] Q4+ D3+ | 120pts | Tough(3)")
r = oprstats.attack(squad, guards, distance=18)
assert abs(sum(r.kills.pmf) - 1) < 1e-12 and r.kills.mean() > 0
book = oprstats.example_book()
m = oprstats.matchups(book, book)
assert m.dealt.shape == (4, len(book.units), len(book.units))
d = oprstats.duel(squad, guards, games=200, seed=1)
assert d.games == 200
print("smoke test passed:", oprstats.__version__)
"""


def fail(message: str) -> None:
    print(f"check_wheel: {message}", file=sys.stderr)
    sys.exit(1)


def main(path: str) -> None:
    wheel = Path(path)
    tags = wheel.name.rsplit("-", 1)[-1].removesuffix(".whl").split(".")  # a compressed tag set: several
    for tag in tags:
        if not re.fullmatch(r"(manylinux_\d+_\d+|manylinux2014)_(x86_64|aarch64)", tag):
            fail(f"{wheel.name}: platform tag {tag!r} is not a manylinux tag PyPI takes")
    # auditwheel names the glibc policy (manylinux2014 is manylinux_2_17)
    tag = next((t for t in tags if t.startswith("manylinux_")), tags[0])
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
        meta = z.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
        if "License-Expression: MIT" not in meta or not any(n.endswith("licenses/LICENSE") for n in names):
            fail("the license expression or the LICENSE file is missing from the wheel")
        body = meta.split("\n\n", 1)[1]
        if "../shared" in body or re.search(r"\]\((?!https?://)[^)]+\)", body):
            fail("the long description has a relative link or mentions ../shared")
        with tempfile.TemporaryDirectory() as tmp:
            so = next(n for n in names if n.endswith(".so"))
            z.extract(so, tmp)
            kind = subprocess.run(["file", str(Path(tmp) / so)], capture_output=True, text=True).stdout
            if "not stripped" in kind:
                fail(f"{so} is not stripped")
    with tempfile.TemporaryDirectory() as tmp:
        venv.create(tmp, with_pip=True)
        python = str(Path(tmp) / "bin" / "python")
        subprocess.run([python, "-m", "pip", "install", "--quiet", str(wheel), "auditwheel"], check=True)
        audit(python, wheel, tag)
        subprocess.run([python, "-c", SMOKE], check=True, cwd=tmp)
        version = subprocess.run([str(Path(tmp) / "bin" / "oprstats"), "--version"], check=True, capture_output=True, text=True).stdout
        if not version.startswith("oprstats "):
            fail(f"oprstats --version printed {version!r}")
    print(f"check_wheel: {wheel.name} is fine")


def audit(python: str, wheel: Path, tag: str) -> None:
    """auditwheel's own reading of the wheel (the tool PyPA's manylinux rules come with): the
    extension may only link what the manylinux policy of its tag allows."""
    shown = subprocess.run([python, "-m", "auditwheel", "show", str(wheel)], capture_output=True, text=True)
    text = " ".join(shown.stdout.split())
    policy = tag.rsplit("_", 1)[0]  # manylinux_2_35
    if shown.returncode != 0 or f'consistent with the following platform tag: "{policy}_' not in text:
        fail(f"auditwheel show does not find the wheel consistent with {policy}:\n{shown.stdout}{shown.stderr}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        fail("usage: python scripts/check_wheel.py WHEEL")
    main(sys.argv[1])
