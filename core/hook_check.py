"""A rule's hooks checked against the hook specs when the rule is loaded.

Why here and not left to pluggy: pluggy checks a hook only when a rule set
registers the rule, that is when a game with the rule starts (or an admin
turns it on), and then fails with a traceback that names neither the file
nor the fix. A plugin author's typo (`mov` for `move`, `on_plya`) then
looked fine in `unobot rules` and broke the first game. Checked when the
rule is loaded, the mistake is said once, with the file, the line and what
to write instead, and the rule is reported as a broken plugin (the same
door as a plugin that fails to import).
"""

from __future__ import annotations

import difflib
import inspect
from typing import Any

from . import hookspecs
from .hookspecs import PROJECT

_MARK = PROJECT + "_impl"


def _arguments(fn: Any) -> list[str]:
    """The arguments a hook function requires, as pluggy reads them (no
    defaults, no `self`)."""
    try:
        params = list(inspect.signature(fn).parameters.values())
    except (TypeError, ValueError):
        return []
    return [p.name for p in params
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.default is p.empty]


def _where(fn: Any) -> str:
    """`file:line` of a function, or its name when Python cannot tell."""
    code = getattr(inspect.unwrap(fn), "__code__", None)
    if code is None:
        return getattr(fn, "__qualname__", repr(fn))
    return f"{code.co_filename}:{code.co_firstlineno}"


def _spec_arguments() -> dict[str, list[str]]:
    return {name: _arguments(getattr(hookspecs, name)) for name in hookspecs.spec_names()}


def hook_problems(cls: type) -> list[str]:
    """What is wrong with the `@hookimpl` methods of rule class `cls`: a hook
    that does not exist, or an argument its hook does not pass. Each line
    names the file and line and the fix; empty when every hook is right."""
    specs = _spec_arguments()
    problems = []
    for attr in sorted(dir(cls)):
        static = inspect.getattr_static(cls, attr, None)
        fn = static.__func__ if isinstance(static, (staticmethod, classmethod)) else static
        if not callable(fn):
            continue
        opts = getattr(fn, _MARK, None)
        if not isinstance(opts, dict):
            continue
        hook = opts.get("specname") or attr
        where = _where(fn)
        if hook not in specs and opts.get("optionalhook"):
            continue  # pluggy's own promise: a hook that may not exist (another plugin's)
        if hook not in specs:
            close = difflib.get_close_matches(hook, list(specs), n=1)
            fix = f"did you mean {close[0]!r}?" if close else "docs/hooks.md lists every hook"
            problems.append(f"{where}: {cls.__name__}.{attr} is marked @hookimpl but there is no "
                            f"hook {hook!r}; fix: {fix}")
            continue
        args = _arguments(fn)
        if not isinstance(static, staticmethod):
            args = args[1:]  # self (or cls)
        wrong = [a for a in args if a not in specs[hook]]
        if wrong:
            allowed = ", ".join(specs[hook]) or "none"
            problems.append(f"{where}: hook {hook!r} passes no argument "
                            f"{', '.join(repr(a) for a in wrong)}; fix: take only arguments of "
                            f"{allowed}, by name (or give the extra ones a default)")
    return problems
