"""A move word of a rule this table does not play (`challenge` with the
challenge rule off, `multi` without multi-play) is refused as a move the
rules do not have, in the player's language, not as "not allowed now".

Why: "That move is not allowed now." tells a player to wait for the right
moment; for a move the table's rules lack, that moment never comes. The
engine says which it is (`no_such_move`: the rule set has no rule that
applies the kind), so every front-end says it the same way.
"""

from __future__ import annotations

from pathlib import Path

import pexpect

from tests.console.helpers import PROMPT, clean, spawn
from unobot.chat.i18n import gettext_for
from unobot.errors import CODES, NO_CHALLENGE, NO_SUCH_MOVE, NOT_ALLOWED


def refusal_to(child: pexpect.spawn, line: str) -> str:
    child.sendline(line)
    child.expect_exact(PROMPT)
    return clean(child.before)


def test_moves_of_rules_not_in_play_are_said_to_be_missing_in_german(tmp_path: Path) -> None:
    _ = gettext_for("de")
    missing, not_now = _(CODES[NO_SUCH_MOVE]), _(CODES[NOT_ALLOWED])
    assert missing != CODES[NO_SUCH_MOVE]  # translated
    child = spawn("--seed", "4", "--rounds", "1", "--store", "memory", "--rule", "challenge=false",
                  "--lang", "de", XDG_DATA_HOME=str(tmp_path))
    try:
        child.expect_exact(PROMPT)
        for line in ("challenge", "desafiar", "multi R5 G5"):
            said = refusal_to(child, line)
            assert missing in said and not_now not in said, said
    finally:
        child.terminate(force=True)


def test_a_challenge_of_a_table_that_has_one_is_told_why_not_now(tmp_path: Path) -> None:
    _ = gettext_for("de")
    child = spawn("--seed", "4", "--rounds", "1", "--store", "memory", "--lang", "de",
                  XDG_DATA_HOME=str(tmp_path))
    try:
        child.expect_exact(PROMPT)
        said = refusal_to(child, "challenge")
        assert _(CODES[NO_CHALLENGE]) in said and _(CODES[NO_SUCH_MOVE]) not in said, said
    finally:
        child.terminate(force=True)
