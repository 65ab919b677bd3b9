"""The game engine's shape (docs/architecture.md), checked on its sources: the modules of
``src/game`` import each other without a cycle, the policy reads the game only through its
view (``View``, ``Seat``) and never names ``Game``, each module is either a query of the game
as it stands (``impl View``) or a phase that changes it (``impl Game``), and no file is over
1,000 lines. Test modules (``#[cfg(test)] mod tests``, ``*_tests.rs``) are left out.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

GAME = Path(__file__).resolve().parents[1] / "src" / "game"
# the most lines a file of src/game may hold ("no file in src/game over about 1,000 lines")
MOST_LINES = 1_000


def _modules() -> dict[str, str]:
    """Module path (``policy::ai``) -> its source without its test module."""
    out = {}
    for path in sorted(GAME.rglob("*.rs")):
        rel = path.relative_to(GAME).with_suffix("").as_posix()
        if rel.endswith("_tests") or rel == "test_support":
            continue
        name = "game" if rel == "mod" else rel.removesuffix("/mod").replace("/", "::")
        text = path.read_text()
        text = re.split(r"\n#\[cfg\(test\)\]\n(?:#\[path[^\n]*\]\n)?mod tests", text)[0]
        out[name] = text
    return out


def _dependencies(modules: dict[str, str]) -> dict[str, set[str]]:
    """Which modules of src/game each one names (in `use` lines and in paths)."""
    deps: dict[str, set[str]] = {}
    for name, text in modules.items():
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
        here = name.split("::") if name != "game" else []
        found: set[str] = set()
        for m in re.finditer(r"\b(crate::game|super::super|super)((?:::[a-z_]+)*)(?:::\{([^}]*)\})?", code):
            root, rest, brace = m.group(1), m.group(2), m.group(3)
            anchor = [] if root == "crate::game" else here[:-1] if root == "super" else here[:-2]
            parts = [p for p in rest.split("::") if p]
            candidates = [anchor + parts[:1]] if parts else []
            for item in (brace or "").split(","):
                item = item.strip().split("::")[0]
                if item and item[0].islower() and item != "self":
                    candidates.append(anchor + [item])
            named = ["::".join(c) for c in candidates if "::".join(c) in modules]
            found.update(n for n in named if n != name)
            if not named and (parts or brace):
                parent = "::".join(anchor) or "game"
                if parent != name:
                    found.add(parent)
        deps[name] = found
    return deps


def _cycles(deps: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in deps[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in deps:
        if v not in index:
            visit(v)
    return out


@pytest.fixture(scope="module")
def modules() -> dict[str, str]:
    if not GAME.is_dir():
        pytest.skip(f"no Rust sources at {GAME} (an installed package without its repository)")
    return _modules()


def test_the_game_modules_import_each_other_without_a_cycle(modules):
    deps = _dependencies(modules)
    # the check sees the imports it must: phases import the state, the policy the decisions
    assert "state" in deps["shooting"] and "decisions" in deps["policy"], deps
    assert _cycles(deps) == []


def test_the_cycle_check_finds_a_cycle():
    deps = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(deps) == [["a", "b", "c"]]


PHASES = {"play", "setup", "activation", "movement", "shooting", "charge", "morale", "round_end", "casting", "transport", "buffs"}


def test_the_policy_never_names_the_game_it_could_change(modules):
    policy = {n: t for n, t in modules.items() if n == "policy" or n.startswith("policy::")}
    assert len(policy) >= 4, sorted(policy)
    deps = _dependencies(modules)
    for name, text in policy.items():
        code = "\n".join(line for line in text.splitlines() if not line.lstrip().startswith("//"))
        assert not re.search(r"\bGame\b", code), f"{name} names Game"
        assert not deps[name] & PHASES, f"{name} imports the phases {sorted(deps[name] & PHASES)}"


def test_each_module_is_a_query_or_a_phase(modules):
    queries, phases = [], []
    for name, text in modules.items():
        view = re.search(r"^impl<[^>]*> View<", text, re.MULTILINE) is not None
        game = re.search(r"^impl<[^>]*> Game<", text, re.MULTILINE) is not None
        assert not (view and game), f"{name} both reads the game (impl View) and changes it (impl Game)"
        assert not (view and re.search(r"fn \w+(<[^>]*>)?\(&mut self", text)), f"{name} changes the game in a query (&mut self in impl View)"
        (queries if view else phases if game else []).append(name)
    assert {"state", "space", "sight", "routes", "shot_plans"} <= set(queries), queries
    assert PHASES <= set(phases), phases
    # the rules never decide by which policy plays: every choice is the player's
    for name in PHASES:
        assert not re.search(r"policy_kind|\.policies\b", modules[name]), f"{name} reads the policy's kind"


def test_no_game_source_file_is_over_a_thousand_lines():
    if not GAME.is_dir():
        pytest.skip(f"no Rust sources at {GAME}")
    long = {p.relative_to(GAME).as_posix(): n for p in GAME.rglob("*.rs") if (n := len(p.read_text().splitlines())) > MOST_LINES}
    assert long == {}
