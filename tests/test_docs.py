"""Every hook has a section `## name(args)` in docs/hooks.md with its real
arguments, and every rule plugin has a docstring and a title."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from unobot import hookspecs
from unobot.registry import available_rules

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_hook_is_documented() -> None:
    text = (DOCS / "hooks.md").read_text()
    headings = set(re.findall(r"^## (\w+\([^)]*\))", text, re.M))
    missing = []
    for name in hookspecs.spec_names():
        args = ", ".join(inspect.signature(getattr(hookspecs, name)).parameters)
        if f"{name}({args})" not in headings:
            missing.append(f"{name}({args})")
    assert not missing, f"docs/hooks.md lacks sections for: {missing} (run docs/gen_hooks.py)"


def test_docs_name_no_hook_that_does_not_exist() -> None:
    text = (DOCS / "hooks.md").read_text()
    names = set(re.findall(r"^## (\w+)\(", text, re.M))
    assert names <= set(hookspecs.spec_names())


def test_every_rule_explains_itself() -> None:
    for name, cls in available_rules().items():
        assert cls.doc(), f"rule {name} has no docstring"
        assert cls.label("en") and cls.label("es"), name
