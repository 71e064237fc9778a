"""A rule's wrong hook is said when the rule is loaded, with file, line and fix.

Before, a misspelled hook argument (`mov`) or hook name (`on_plya`) passed
`unobot rules` and `register_rule`, and the first game with the rule (or an
admin turning it on) failed with pluggy's traceback.
"""

from __future__ import annotations

from importlib.metadata import EntryPoint

import pytest

from unobot import (
    Card,
    Event,
    GameState,
    Move,
    Rule,
    hookimpl,
    register_rule,
    registry,
    unregister_rule,
)
from unobot.hook_check import hook_problems
from unobot.registry import available_rules


class MisspeltArgument(Rule):
    """A hook taking an argument its hook does not pass."""

    name = "test-misspelt-argument"

    @hookimpl
    def on_play(self, state: GameState, mov: Move, card: Card, events: list[Event]) -> bool | None:
        return None


class MisspeltHook(Rule):
    """A method marked as a hook that does not exist."""

    name = "test-misspelt-hook"

    @hookimpl
    def on_plya(self, state: GameState) -> bool | None:
        return None


class Right(Rule):
    """Hooks taking a subset of their arguments, one with a default of its own."""

    name = "test-right-hooks"

    @hookimpl(tryfirst=True)
    def card_fits(self, card: Card, extra: int = 0) -> bool | None:
        return None

    @hookimpl
    def hand_size(self) -> int | None:
        return None


class OptionalHook(Rule):
    """A hook of another plugin's, marked optional as pluggy allows."""

    name = "test-optional-hook"

    @hookimpl(optionalhook=True)
    def on_other_plugins_event(self, state: GameState) -> None:
        return None


def test_an_optional_hook_that_does_not_exist_is_no_problem() -> None:
    """pluggy registers it without a spec (it may come with another plugin)."""
    assert hook_problems(OptionalHook) == []


def test_a_misspelt_argument_names_file_line_and_the_hooks_arguments() -> None:
    [problem] = hook_problems(MisspeltArgument)
    line = MisspeltArgument.on_play.__code__.co_firstlineno
    assert f"{__file__}:{line}" in problem
    assert "'mov'" in problem and "state, move, card, events" in problem


def test_a_misspelt_hook_names_file_line_and_the_closest_hook() -> None:
    [problem] = hook_problems(MisspeltHook)
    assert f"{__file__}:{MisspeltHook.on_plya.__code__.co_firstlineno}" in problem
    assert "'on_plya'" in problem and "did you mean 'on_play'?" in problem


def test_right_hooks_and_every_installed_rule_have_no_problem() -> None:
    assert hook_problems(Right) == []
    for name, cls in available_rules().items():
        assert hook_problems(cls) == [], name


@pytest.mark.parametrize("cls", [MisspeltArgument, MisspeltHook])
def test_register_rule_refuses_a_wrong_hook_at_once(cls: type[Rule]) -> None:
    with pytest.raises(ValueError, match="fix: ") as info:
        register_rule(cls)
    assert cls.name in str(info.value)
    assert cls.name not in available_rules()
    unregister_rule(cls.name)


def test_an_installed_rule_with_a_wrong_hook_is_a_broken_plugin(monkeypatch: pytest.MonkeyPatch) -> None:
    """Reported like a plugin that fails to import: listed by `unobot
    variants`, and a variant or chat that names it says why it is missing."""
    ep = EntryPoint(MisspeltArgument.name, f"{__name__}:MisspeltArgument", registry.GROUP)
    monkeypatch.setattr(registry, "entry_points", lambda group: [ep])
    monkeypatch.setattr(registry, "_broken", {})
    found = registry._load()
    assert MisspeltArgument.name not in found
    why = registry._broken[MisspeltArgument.name]
    assert "'mov'" in why and "fix: " in why

