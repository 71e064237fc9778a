"""A rule that raised while the engine asked it, turned into a refusal that names it.

Why: a plugin's bug (an exception inside one of its hooks at play time)
must reach neither a player as a traceback nor a table as a crash that
every later update repeats. The engine refuses the move (or the deal) that
set it off with `RuleFailure`, a `MoveError` of code `rule_failed`: the
caller's copy of the game is dropped as for any refusal, so nothing
changed. Its detail names what the plugin's author needs (the rule, the
hook, the file and line that raised, the error and the fix) for the log,
the testing kit and scenario runs; the chat layer says one plain sentence
to the table, and AI seats choose another move (`core/chat/play.py`).

Which rule raised is read off the traceback: the deepest frame that runs
a method of one of the game's rule objects. An exception raised by no rule
(an engine bug) is not turned into a refusal: it stays visible as itself.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from types import TracebackType
from typing import NoReturn, ParamSpec, TypeVar

from .errors import RULE_FAILED, MoveError
from .rule import Rule


class RuleFailure(MoveError):
    """A rule's hook raised: the move or deal is refused, nothing changed."""

    def __init__(self, rule: str, hook: str, where: str, error: BaseException) -> None:
        self.rule, self.hook, self.where, self.error = rule, hook, where, error
        detail = (f"rule {rule!r} raised in its hook {hook!r} at {where}: {type(error).__name__}: {error}; "
                  f"fix: make the hook not raise (the move was refused, nothing changed; a test with "
                  f"unobot.testing shows the whole traceback), or turn the rule off ({rule}: false in the "
                  f"variant, or /rules in the chat)")
        super().__init__(RULE_FAILED, detail)


def rule_failure(exc: BaseException) -> RuleFailure | None:
    """`exc` as a `RuleFailure` when it was raised inside a rule's hook;
    None when no rule is on its traceback (or it is a refusal already)."""
    if isinstance(exc, MoveError):
        return None  # a refusal a rule meant to give
    frames: list[tuple[str, str, int, str]] = []  # (rule or "", function, line, file), outermost first
    tb: TracebackType | None = exc.__traceback__
    while tb is not None:
        owner = tb.tb_frame.f_locals.get("self")
        code = tb.tb_frame.f_code
        rule = owner.name if isinstance(owner, Rule) else ""
        frames.append((rule, code.co_name, tb.tb_lineno, code.co_filename))
        tb = tb.tb_next
    hooks = [f for f in frames if f[0]]
    if not hooks:
        return None
    rule = hooks[-1][0]
    first = next(f for f in hooks if f[0] == rule)  # the hook the engine asked
    file = first[3]
    line = next(f[2] for f in reversed(frames) if f[3] == file)  # where it raised, in the rule's own file
    return RuleFailure(rule, first[1], f"{file}:{line}", exc)


def raise_rule_failure(exc: Exception) -> NoReturn:
    """Raise `exc` as the `RuleFailure` it is when a rule's hook raised it,
    else as itself (a refusal, an engine bug). Why one helper: the engine's
    `apply` and `legal_moves` catch inline (no wrapper's call on their hot
    paths) and `refusing_rule_failures` wraps the rarer calls; all three
    must turn the same exceptions into the same refusals."""
    failure = rule_failure(exc)
    if failure is None:
        raise exc
    raise failure from exc


P = ParamSpec("P")
R = TypeVar("R")


def refusing_rule_failures(fn: Callable[P, R]) -> Callable[P, R]:
    """`fn` (a deal, a timeout, a player leaving) with a rule's exception
    raised as `RuleFailure`, as `engine.apply` does for moves."""

    @wraps(fn)
    def guarded(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            raise_rule_failure(exc)

    return guarded
