"""`unobot play --resume` of a game whose rule plugin is gone, through a pty.

Before, the console printed a traceback (the VariantError of the missing
rule, from the table's view); now it says which rule is missing and how to
go on, in one line and its fix, and exits 1.
"""

from __future__ import annotations

import pexpect

from tests.rulekit import extra_rule
from tests.support.redis_server import RedisServer
from unobot import Rule

from .helpers import Stage, clean, spawn, stage_game


class Gone(Rule):
    """A rule installed when the game was dealt, not when it is resumed."""

    name = "test-gone-plugin"


def test_resuming_a_game_whose_rule_is_gone_says_which(server: RedisServer) -> None:
    with extra_rule(Gone):
        stage_game(server.url, Stage(hands=("R1 G2", "R7 G8 B9"), top="R9"), lang="en", rules=(Gone.name,))
    child = spawn("--store", server.url, "--resume", "--delay", "0", "--name", "Tess")
    child.expect(pexpect.EOF, timeout=60)
    child.close()
    text = clean(child.before)
    assert "Traceback" not in text, text
    assert "this game's rule 'test-gone-plugin' is not available" in text, text
    assert "install the plugin again" in text, text
    assert child.exitstatus == 1
