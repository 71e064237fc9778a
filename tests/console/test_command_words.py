"""Core's refusals name commands the console has (issue #14: a refusal must
say what to do here).

`rule_failed` ("an admin can end the game with /stop") and the other
refusals that name a command (`/new`, `/rules`) spelled Telegram's commands
to a console player, who has none of them. The console gives core its own
words (`ConsoleApp.commands`), as Discord gives `/uno stop`. Driven through a
pty, with a real rule plugin (an installed distribution with its entry
point) whose hook raises at play time.
"""

from __future__ import annotations

import textwrap
from pathlib import Path

import pexpect

from tests.rulekit import extra_rule
from tests.support.redis_server import RedisServer
from unobot import Card, Event, GameState, Move, Rule, hookimpl

from .helpers import PROMPT, Stage, clean, spawn, stage_game

PLUGIN = '''
from unobot import Rule, hookimpl


class FaultyFives(Rule):
    """Raises when a 5 is played (a plugin's bug)."""

    name = "test-faulty-fives"

    @hookimpl
    def on_play(self, state, move, card, events):
        if card.rank == "5":
            raise RuntimeError("a five broke me")
        return None
'''


class FaultyFives(Rule):
    """The same rule, registered in this process to deal the staged game."""

    name = "test-faulty-fives"

    @hookimpl
    def on_play(self, state: GameState, move: Move, card: Card, events: list[Event]) -> bool | None:
        return None


def installed_plugin(where: Path) -> Path:
    """A plugin distribution as pip leaves it: its module and its entry point."""
    (where / "faulty_fives.py").write_text(textwrap.dedent(PLUGIN))
    info = where / "faulty_fives-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: faulty-fives\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[unobot.rules]\ntest-faulty-fives = faulty_fives:FaultyFives\n")
    return where


def test_a_failing_rule_tells_the_console_player_the_consoles_way_out(server: RedisServer, tmp_path: Path) -> None:
    plugins = installed_plugin(tmp_path)
    with extra_rule(FaultyFives):
        stage_game(server.url, Stage(hands=("R5 G2", "R7 G8 B9"), top="R9"), lang="en", rules=(FaultyFives.name,))
    child = spawn("--store", server.url, "--resume", "--delay", "0", "--name", "Tess", PYTHONPATH=str(plugins))
    try:
        child.expect(PROMPT)
        child.sendline("R5")
        child.expect(PROMPT)
        said = " ".join(clean(child.before).split())  # as read, whatever the terminal's wrapping
        assert "A rule of this game failed on that move, so nothing changed." in said, said
        assert "end the game with quit, then unobot play answering no to resuming it." in said, said
        assert "/stop" not in said and "Traceback" not in said, said
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close()
