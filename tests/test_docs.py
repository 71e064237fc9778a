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


def test_the_plugin_tutorial_runs() -> None:
    """docs/plugins.md: every ```python block runs, in order, in one namespace,
    and every ```yaml scenario block passes (bound to SCENARIO for the next
    Python block), so the tutorial cannot drift from the API."""
    import yaml

    from unobot.registry import unregister_rule
    from unobot.variants import clear_caches

    text = (DOCS / "plugins.md").read_text()
    blocks = re.findall(r"^```(python|yaml scenario)\n(.*?)^```", text, re.M | re.S)
    assert sum(kind == "python" for kind, _ in blocks) >= 4 and any(k != "python" for k, _ in blocks)
    import sys
    import types

    module = types.ModuleType("unobot_tutorial")  # dataclasses look their module up
    sys.modules[module.__name__] = module
    namespace = module.__dict__
    try:
        for kind, body in blocks:
            if kind == "python":
                exec(compile(body, "docs/plugins.md", "exec"), namespace)
            else:
                from unobot import run_scenario_data

                data = yaml.safe_load(body)
                result = run_scenario_data(data, "docs/plugins.md")
                assert result.passed, result.describe()
                namespace["SCENARIO"] = data
    finally:
        sys.modules.pop(module.__name__, None)
        unregister_rule("lucky-seven")
        clear_caches()


def test_every_hook_states_what_it_returns() -> None:
    text = (DOCS / "hooks.md").read_text()
    sections = [s for s in re.split(r"^## ", text, flags=re.M)[1:] if re.match(r"\w+\(", s)]
    assert len(sections) == len(hookspecs.spec_names())
    assert all("*Returns:*" in s for s in sections), \
        [s.split("(")[0] for s in sections if "*Returns:*" not in s]
