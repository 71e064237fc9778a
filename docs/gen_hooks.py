"""Regenerate docs/hooks.md from core/hookspecs.py (run after changing a hook).

    .venv/bin/python docs/gen_hooks.py
"""

import inspect
from pathlib import Path

from unobot import hookspecs
from unobot.registry import available_rules

INTRO = """# Rule hooks

Every rule point of a turn is a pluggy hook, specified in `core/hookspecs.py`.
A rule implements hooks as methods of a `unobot.Rule` subclass marked with
`@hookimpl`; it may take any subset of a hook's arguments, by name. The rules
every game shares (`base = True`) implement each hook with `trylast=True`, so
a house rule's implementation is asked first. `firstresult` hooks stop at the
first implementation that returns something other than `None`.

Seats (`player`, `victim`, `target`, ...) are indexes into `state.players`.
Hooks that change the game receive the engine's working copy of the state
and a list `events` to append `core.events.Event`s to; question hooks must not
change the state. Helpers that call the right hooks for you live in
`core.actions` (`advance`, `draw_cards`, `penalize`, `take_pending`, `end_round`).

The engine calls a compiled rule set (`core/ruleset.py`) that resolves the
implementations once per variant; a hook with a `wrapper=True`
implementation is dispatched by pluggy itself. Each hook below is exercised
by a test named `test_hook_<name>` in `tests/test_hooks.py`.
"""


def main() -> None:
    src = inspect.getsource(hookspecs)
    names = [n for n, f in inspect.getmembers(hookspecs, inspect.isfunction) if hasattr(f, "unobot_spec")]
    names.sort(key=lambda n: src.index(f"def {n}("))
    impl: dict[str, list[str]] = {}
    for rule_name, cls in available_rules().items():
        for n in names:
            if n in cls.__dict__:
                impl.setdefault(n, []).append(rule_name)
    out = [INTRO]
    for n in names:
        fn = getattr(hookspecs, n)
        args = ", ".join(inspect.signature(fn).parameters)
        kind = "firstresult" if fn.unobot_spec["firstresult"] else "collected (every result)"
        by = ", ".join(f"`{r}`" for r in sorted(impl.get(n, []))) or "none by default"
        out += [f"## {n}({args})", "", f"*Kind:* {kind}. *Implemented by:* {by}.", "",
                inspect.cleandoc(fn.__doc__ or ""), ""]
    Path(__file__).with_name("hooks.md").write_text("\n".join(out))


if __name__ == "__main__":
    main()
