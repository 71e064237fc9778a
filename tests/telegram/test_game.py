"""Whole games in a group, played as people play them: buttons, inline hands, chosen results."""

from __future__ import annotations

import time

import pytest

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, TableDriver
from unobot.adapters.telegram import inline_results, keyboards
from unobot.chat import commands as c
from unobot.chat.commands import Person
from unobot.chat.lobby import last_match

ADMIN = Person("setup", "Setup", None, True)


async def short_games(bot: BotProcess, chat: str, **extra: object) -> None:
    """Chat settings that keep a test game short (hand size 3, low target)."""
    assert bot.service is not None
    out = await bot.service.handle(chat, ADMIN, c.SetRule(rule="deck", option="hand_size", value=3))
    assert out.ok, out.error
    for rule, value in extra.items():
        option, _, number = str(value).partition("=")
        out = await bot.service.handle(chat, ADMIN, c.SetRule(rule=rule, option=option, value=int(number)))
        assert out.ok, out.error


async def open_table(server: BotAPIServer, bot: BotProcess, variant: str | None = None,
                     seed: int = 1) -> TableDriver:
    group = server.group(title="UNO night")
    alice = server.user(101, "Alice", "alice")
    bob = server.user(102, "Bob", "bob", language_code="es")
    carol = server.user(103, "Carol")
    driver = TableDriver(server, bot, group, [alice, bob, carol], seed=seed)
    return driver


async def lobby_and_start(driver: TableDriver, variant: str | None = None) -> None:
    alice, bob, carol = driver.players
    await driver.command(alice, "/new", variant or "")
    lobby = driver.status_message()
    assert lobby is not None and "Alice" in lobby["text"]
    await driver.press(bob, keyboards.JOIN)
    await driver.command(carol, "/join")
    table = await driver.table()
    assert table is not None and [s.name for s in table.seats] == ["Alice", "Bob", "Carol"]
    await driver.press(alice, keyboards.START)


@pytest.mark.parametrize(("variant", "target"), [("official", "target=100"), ("reglas-de-uno", "target=0"),
                                               ("no-mercy", "target=0")])
async def test_whole_game(server: BotAPIServer, bot: BotProcess, variant: str, target: str) -> None:
    driver = await open_table(server, bot)
    await short_games(bot, driver.chat, scoring=target)
    started = time.monotonic()
    await lobby_and_start(driver, variant)
    table = await driver.table()
    assert table is not None and table.variant == variant
    game_id = await bot.store.chat_game(driver.chat)  # type: ignore[union-attr]
    sends_before = driver.stats.group_sends
    stats = await driver.play()
    # A winner: the last message announces the match, with the final scores.
    last = driver.bot_messages()[-1]
    assert "wins the match" in last["text"], last["text"]
    assert bot.service is not None
    table_after = await last_match(bot.service, driver.chat)
    assert table_after is not None and table_after.match
    assert [b["callback_data"] for b in server.buttons(driver.group, last["message_id"])] == \
        [keyboards.again(table_after.match)]  # "Play again" of this match

    assert stats.moves > 5
    assert stats.audits > 0  # the game replayed from its log, exactly, as it went
    kinds = {inline_results.decode(rid).code[0] for rid in stats.chosen}  # type: ignore[union-attr]
    assert {"p", "d"} <= kinds, kinds  # cards played (wilds with a colour), cards drawn
    if variant == "official":
        assert "u" in kinds, kinds  # UNO said
    # About one new group message per turn at most (here: one per round).
    log = await bot.store.read_log(game_id)  # type: ignore[union-attr, arg-type]
    if variant == "no-mercy":  # the new cards were in the hands and were played
        from unobot.cards import parse_card

        played = {parse_card(e.split()[2]) for e in log if e.split()[1:2] == ["play"]}
        assert any(card.kind is not None or card.draw >= 6 for card in played), sorted(map(str, played))
    turns = count_turns(log)
    sends = stats.group_sends - sends_before
    assert sends / turns <= 1.0, (sends, turns)
    assert sends <= stats.rounds + 2
    assert time.monotonic() - started < 30


def count_turns(log: list[str]) -> int:
    """Turn changes in a move log ("<seat> <move>" entries)."""
    seats = [entry.split(" ", 1)[0] for entry in log if entry.split(" ", 1)[0].isdigit()]
    return 1 + sum(1 for a, b in zip(seats, seats[1:]) if a != b)
