"""A jump-in down to one card is offered "with UNO", as a play on turn is.

Under strict UNO, UNO counts only said just before the play that leaves one
card; a jump-in is such a play, made out of turn, and the table model
offered UNO with plays on turn only: the jumper could never say it in time
and was always caught. Now the model offers the jump "· UNO!" (one action),
and the stored game has the jumper at one card, covered.
"""

from __future__ import annotations

import pytest

from tests.conformance.situations import SITUATIONS, lay, reference
from unobot.chat import actions
from unobot.chat import commands as c
from unobot.chat.table import PLAYING, Seat, Table


@pytest.mark.parametrize("rules", [{"strict-uno": {}, "jump-in": {}}, {"jump-in": {}},
                                   {"strict-uno": {}, "jump-in": {}, "false-uno": {}}], ids=str)
def test_a_jump_in_down_to_one_card_carries_uno(rules: dict[str, dict[str, object]]) -> None:
    s = next(s for s in SITUATIONS if s.name == "strict-uno-jump-in-uno")
    table = Table(chat_id="c", creator="ana", overrides=rules, phase=PLAYING, variant="official",
                  seats=[Seat("ana", "Ana"), Seat("ben", "Ben"), Seat("cat", "Cat")])
    lay(table, s.__class__(**{**s.__dict__, "rules": rules}))
    with_uno = [a for a in actions.menu(table, "cat", "en").actions if a.kind == "play" and a.uno]
    assert [a.group for a in with_uno] == [actions.OUT_OF_TURN]
    after = reference(table, c.Person("cat", "Cat"), with_uno[0].command, 0.0)
    game = after.game
    assert game is not None and len(game.hands[2]) == 1 and game.uno >> 2 & 1 and game.exposed != 2
    assert game.turn == 0  # the turn passes on from the jumper
