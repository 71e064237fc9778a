"""Commands are values: equal by class and fields, hashable, immutable, shown by name.

Commands without fields of their own are plain subclasses of `Command` (not
dataclasses again, for start-up time); this holds them to the same promises
as the ones that are.
"""

from __future__ import annotations

import dataclasses

import pytest

from unobot.chat import commands as c

FIELDLESS = [c.Join, c.Leave, c.Start, c.Pass, c.SayUno, c.Challenge, c.NextRound, c.Continue, c.Stop,
             c.ResetRules]


@pytest.mark.parametrize("kind", FIELDLESS)
def test_a_command_without_fields_is_a_value(kind: type[c.Command]) -> None:
    one = kind(version=3)
    assert one == kind(version=3) and hash(one) == hash(kind(version=3))
    assert one != kind(version=4) and one != kind()
    others = [k for k in FIELDLESS if k is not kind]
    assert all(one != other(version=3) for other in others)  # never equal to another command
    assert repr(one) == f"{kind.__name__}(version=3)"
    assert [f.name for f in dataclasses.fields(one)] == ["version"]
    assert dataclasses.replace(one, version=5) == kind(version=5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        one.version = 4  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        one.extra = 1  # type: ignore[attr-defined]
    assert len({one, kind(version=3), kind()}) == 2


def test_a_command_with_fields_is_a_value_too() -> None:
    play = c.Play("R5", version=2)
    assert play == c.Play("R5", version=2) != c.Play("R5", version=3)
    assert dataclasses.replace(play, uno=True) == c.Play("R5", uno=True, version=2)
    assert repr(play) == "Play(version=2, card='R5', color=None, target=None, uno=False)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        play.card = "G5"  # type: ignore[misc]
    assert c.Pass(version=1) != c.Draw(version=1)


def test_commands_that_act_on_someone_else_are_answered_publicly() -> None:
    """Stopping the table, removing or skipping a player: everyone reads the
    answer; leaving, adding an AI or a move answers the member alone."""
    assert {name for name, kind in c.PLAIN.items() if issubclass(kind, c.PUBLIC_ANSWERS)} == {"skip", "stop"}
    assert all(issubclass(kind, c.PUBLIC_ANSWERS) for kind in (c.Kick, c.StopAfterRounds))
    assert not any(issubclass(kind, c.PUBLIC_ANSWERS) for kind in (c.Leave, c.AddAI, c.Join, *c.GAME_MOVES))
