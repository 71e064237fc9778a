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
    namespace["__file__"] = str(DOCS / "unobot_lucky" / "__init__.py")  # as if it were the package's module
    try:
        for kind, body in blocks:
            if kind == "python":
                exec(compile(body, "docs/plugins.md", "exec"), namespace)
            else:
                from unobot import testing

                data = yaml.safe_load(body)
                testing.scenario(data, "docs/plugins.md")
                namespace["SCENARIO"] = data
        # the catalogue is found from the module's own file, wherever it is installed
        domain, folder = namespace["LuckySeven"].locale
        assert Path(folder).is_absolute() and Path(folder).parent == DOCS / "unobot_lucky"
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


#: The modules of unobot a plugin may import from by name (`from unobot.X
#: import ...`): those the public surface itself exports as modules.
PUBLIC_MODULES = {"actions", "cards", "errors", "events", "testing"}


def _python_blocks(text: str) -> list[str]:
    return [body for _lang, body in re.findall(r"^```(python|py)\n(.*?)^```", text, re.M | re.S)]


def test_every_name_the_docs_import_is_public() -> None:
    """Every `from unobot... import` in the docs' Python blocks names the
    public surface (`unobot._API`); the tutorial imports from `unobot` alone."""
    import ast

    import unobot

    problems = []
    for page in sorted(DOCS.glob("*.md")):
        for body in _python_blocks(page.read_text()):
            for node in ast.walk(ast.parse(body)):
                if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "unobot":
                    module = node.module or ""
                    if module == "unobot":
                        problems += [f"{page.name}: unobot.{a.name}" for a in node.names if a.name not in unobot._API]
                    else:
                        sub = module.split(".", 1)[1]
                        if sub not in PUBLIC_MODULES or page.name == "plugins.md":
                            problems.append(f"{page.name}: from {module} import ... (import from unobot)")
                        else:
                            mod = getattr(unobot, sub)
                            problems += [f"{page.name}: {module}.{a.name}" for a in node.names
                                         if not hasattr(mod, a.name)]
                elif isinstance(node, ast.Import):
                    problems += [f"{page.name}: import {a.name}" for a in node.names
                                 if a.name.startswith("unobot.") and a.name.split(".")[1] not in PUBLIC_MODULES]
    assert not problems, problems


def test_names_the_docs_give_exist() -> None:
    """The dotted `unobot.X` / `core.X` names in the docs' prose resolve,
    and every rule docs/hooks.md says implements a hook is one of unobot's
    own (the example plugin's are not in the package)."""
    import importlib

    import unobot
    from unobot.registry import available_rules

    own = {name for name, cls in available_rules().items() if cls.__module__.startswith("unobot.plugins.")}
    problems = []
    for page in ("hooks.md", "plugins.md"):
        text = (DOCS / page).read_text()
        for dotted in sorted(set(re.findall(r"`((?:unobot|core)\.[a-z_]+)[.(`]", text))):
            if dotted in ("unobot.rules", "unobot.variants"):
                continue  # the entry-point groups
            if dotted.startswith("core."):
                problems.append(f"{page}: {dotted} (a plugin imports unobot, not core)")
                continue
            name = dotted.split(".", 1)[1]
            if name not in unobot._API:
                try:
                    importlib.import_module(dotted)
                except ImportError:
                    problems.append(f"{page}: {dotted}")
    hooks = (DOCS / "hooks.md").read_text()
    for line in re.findall(r"\*Implemented by:\* (.*)\.", hooks):
        named = re.findall(r"`([a-z0-9-]+)`", line)
        problems += [f"hooks.md: implementer {n}" for n in named if n not in own]
    assert not problems, problems


def test_the_tutorials_package_builds_as_laid_out(tmp_path: Path) -> None:
    """docs/plugins.md step 1's folders with step 8's pyproject.toml build a
    wheel that carries the rule, its catalogues and its variant. Before, the
    copied pyproject.toml stopped the build: setuptools found `scenarios/`
    and `unobot_lucky/` as two top-level packages of a flat layout."""
    import subprocess
    import sys
    import zipfile

    text = (DOCS / "plugins.md").read_text()
    toml = re.findall(r"^```toml\n(.*?)^```", text, re.M | re.S)
    assert len(toml) == 1
    root = tmp_path / "unobot-lucky"
    package = root / "unobot_lucky"
    for folder in (package / "variants", package / "locale" / "es" / "LC_MESSAGES", root / "scenarios",
                   root / "tests"):
        folder.mkdir(parents=True)
    (root / "pyproject.toml").write_text(toml[0], encoding="utf-8")
    (package / "__init__.py").write_text('"""The rule (step 2)."""\n', encoding="utf-8")
    (package / "variants" / "__init__.py").write_text("", encoding="utf-8")
    (package / "variants" / "lucky.yaml").write_text("name: lucky\nextends: official\n", encoding="utf-8")
    (package / "locale" / "es" / "LC_MESSAGES" / "unobot_lucky.po").write_text("", encoding="utf-8")
    (root / "scenarios" / "lucky.yaml").write_text("name: a scenario\n", encoding="utf-8")
    (root / "tests" / "test_lucky.py").write_text("", encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q",
                          "-w", str(tmp_path / "wheels"), str(root)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    (wheel,) = (tmp_path / "wheels").glob("unobot_lucky-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {"unobot_lucky/__init__.py", "unobot_lucky/variants/lucky.yaml",
            "unobot_lucky/locale/es/LC_MESSAGES/unobot_lucky.po"} <= names, sorted(names)
    assert not any(n.startswith(("scenarios/", "tests/")) for n in names), sorted(names)
