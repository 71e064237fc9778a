"""Which of a plugin package's files are another catalogue's.

Why: a package may hold rules with catalogues of their own (the example
plugin's `cheer` declares `locale = ("unobot_example_cheer", ...)` beside
the package's `unobot_example_rule`). `unobot i18n extract PACKAGE --domain
D` collected every file's texts into D, so D's translators were handed the
other rule's texts, and the other catalogue's were never asked for by it.
Here a file whose rules all declare another domain is left to that domain's
extract.

Read from the source, not by importing it: the package an author extracts
is often not installed (a working copy), and extracting must not run its
code. What is understood: a class's `locale = ("domain", ...)`, or `locale
= NAME` where NAME is such a tuple at the top of the same module or
imported from one of the package's modules (`from . import LOCALE`).
A file with no rule that declares a catalogue is the package's own
catalogue's (`main_domain`): a helper module's texts are the package's.
"""

from __future__ import annotations

import ast
from pathlib import Path


def _domain_of(value: ast.expr) -> str | None:
    """The domain of a `("domain", folder)` tuple expression, else None."""
    if isinstance(value, ast.Tuple) and value.elts:
        first = value.elts[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return None


def _module_of(package: Path, path: Path, node: ast.ImportFrom) -> Path | None:
    """The package file a relative `from ... import` names, or None."""
    if not node.level:
        return None
    base = path.parent
    for _ in range(node.level - 1):
        base = base.parent
    target = base.joinpath(*node.module.split(".")) if node.module else base
    for candidate in (target.with_suffix(".py"), target / "__init__.py"):
        if candidate.is_file() and package in candidate.parents:
            return candidate
    return None


def _parse(path: Path) -> ast.Module | None:
    try:
        return ast.parse(path.read_text(encoding="utf-8"))
    except (SyntaxError, UnicodeDecodeError, OSError):
        return None


def _constants(tree: ast.Module) -> dict[str, str]:
    """Top-level `NAME = ("domain", ...)` of a module: name -> domain."""
    out: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign):
            domain = _domain_of(node.value)
            if domain is not None:
                out.update({t.id: domain for t in node.targets if isinstance(t, ast.Name)})
    return out


def declared_domains(package: Path) -> dict[Path, set[str]]:
    """Each file under `package` whose rules declare a catalogue: the domains they declare."""
    package = package.resolve()
    trees = {path: tree for path in sorted(package.rglob("*.py")) if (tree := _parse(path)) is not None}
    constants = {path: _constants(tree) for path, tree in trees.items()}
    out: dict[Path, set[str]] = {}
    for path, tree in trees.items():
        names = dict(constants[path])
        for node in tree.body:  # names imported from the package's own modules
            if isinstance(node, ast.ImportFrom):
                source = _module_of(package, path, node)
                known = constants.get(source, {}) if source is not None else {}
                for alias in node.names:
                    if alias.name in known:
                        names[alias.asname or alias.name] = known[alias.name]
        for cls in (n for n in ast.walk(tree) if isinstance(n, ast.ClassDef)):
            for stmt in cls.body:
                if not (isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None):
                    continue
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if not any(isinstance(t, ast.Name) and t.id == "locale" for t in targets):
                    continue
                domain = _domain_of(stmt.value) or (
                    names.get(stmt.value.id) if isinstance(stmt.value, ast.Name) else None)
                if domain is not None:
                    out.setdefault(path, set()).add(domain)
    return out


def main_domain(package: Path, declared: dict[Path, set[str]]) -> str:
    """The package's own catalogue: the one its `__init__.py`'s rules declare
    when they declare one, else the package's name (what `unobot i18n
    extract` names it by default, and where its variant files are read)."""
    first = declared.get(package / "__init__.py", set())
    return next(iter(first)) if len(first) == 1 else package.name


def other_domains_files(package: Path, domain: str) -> list[str]:
    """The files under `package` (relative, with "/") whose texts are not
    `domain`'s to collect: those whose rules declare only other catalogues,
    and, when `domain` is not the package's own (`main_domain`), those that
    declare none (their texts are the package's own)."""
    package = package.resolve()
    declared = declared_domains(package)
    own = domain == main_domain(package, declared)
    return sorted(path.relative_to(package).as_posix() for path in sorted(package.rglob("*.py"))
                  if (domain not in declared[path] if path in declared else not own))
