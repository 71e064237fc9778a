"""The Telegram adapter reads at a glance: its modules import one another
without a cycle (imports inside functions count too), so each can be read
knowing only the ones it names."""

from __future__ import annotations

import ast
from pathlib import Path

import unobot.adapters.telegram as package

ROOT = Path(package.__file__).parent


def imports() -> dict[str, set[str]]:
    """Module -> the modules of the adapter it imports (`from . import x`, `from .x import y`)."""
    modules = {p.stem for p in ROOT.glob("*.py")}
    graph: dict[str, set[str]] = {}
    for path in ROOT.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                names = [node.module.split(".")[0]] if node.module else [a.name for a in node.names]
                found.update(n for n in names if n in modules)
        graph[path.stem] = found
    return graph


def test_no_import_cycles() -> None:
    graph = imports()
    assert {"publish", "scheduler", "jobs", "users", "inline_handlers", "inline_results"} <= set(graph)
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> None:
        if module in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(module):], module]))
        if module in done:
            return
        for dep in sorted(graph[module]):
            visit(dep, [*path, module])
        done.add(module)

    for module in sorted(graph):
        visit(module, [])
