"""After a round: nobody is on turn (`TableView.on_turn`), no UNO flag beside
"out" (`PlayerLine.calls_uno`), and who won is said in the reader's language
(`round_headline(table, lang)`), not only the table's: a page is drawn for
one reader, whose language need not be the table's."""

from __future__ import annotations

import random
import time

from unobot.cards import parse_card
from unobot.chat import commands as c
from unobot.chat import play
from unobot.chat.outcome import Outcome
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS
from unobot.chat.views import PlayerLine, round_headline, table_view
from unobot.store import MemoryStore


async def test_between_rounds_nobody_is_on_turn_and_the_winner_is_said_in_the_readers_language() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(3))
    ana, ben = c.Person("1", "Ana"), c.Person("2", "Ben")
    await svc.handle("chat", ana, c.NewGame())
    await svc.handle("chat", ben, c.Join())
    table = (await svc.handle("chat", ana, c.Start())).table
    assert table is not None and table.game is not None
    playing = table_view(table, "en")
    assert playing.on_turn == table.game.turn >= 0
    seat = table.game.turn
    table.game.hands[seat][:] = [parse_card("W")]  # a last card that always fits
    table.game.legal = None
    after = table
    assert play.step(after, table.seats[seat].person(), c.Play(card="W", color="R"), Outcome(table=after),
                     time.time()) is not None
    assert after.phase == BETWEEN_ROUNDS
    view = table_view(after, "en")
    assert view.on_turn == -1 and not any(p.is_turn for p in view.players)
    name = after.seats[seat].name
    assert round_headline(after) == f"🎉 {name} wins round 1!"
    assert round_headline(after, "es") == f"🎉 ¡{name} gana la ronda 1!"


async def test_a_said_uno_is_shown_only_while_it_is_about_a_last_card() -> None:
    assert PlayerLine(0, "1", "Ana", 1, said_uno=True).calls_uno
    assert PlayerLine(0, "1", "Ana", 2, said_uno=True).calls_uno
    assert not PlayerLine(0, "1", "Ana", 3, said_uno=True).calls_uno
    assert not PlayerLine(0, "1", "Ana", 1).calls_uno
    # The round's winner (no card left) and a player out of the round: no UNO flag beside "out".
    assert not PlayerLine(0, "1", "Ana", 0, said_uno=True).calls_uno
    assert not PlayerLine(0, "1", "Ana", 1, said_uno=True, is_out=True).calls_uno
