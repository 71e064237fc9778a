"""Names at the table as a group sees them: two people called alike are told apart."""

from __future__ import annotations

from tests.botapi import BotAPIServer
from tests.conformance.situations import Situation, kind, lay
from tests.telegram.driver import BotProcess, TableDriver
from unobot.adapters.telegram import keyboards
from unobot.chat.table import Table


async def test_two_players_of_one_name_are_told_apart(server: BotAPIServer, bot: BotProcess) -> None:
    """Two Bens in one group: the second seated is "Ben 2" in the lobby, the
    status and a Seven-O swap's targets, so Ann can tell whom she swaps with
    (before, both targets read "⇄ Ben")."""
    group = server.group()
    ann, ben, other_ben = server.user(1, "Ann"), server.user(2, "Ben"), server.user(3, "Ben")
    driver = TableDriver(server, bot, group, [ann, ben, other_ben])
    await driver.command(ann, "/new", "party")
    await driver.press(ben, keyboards.JOIN)
    await driver.press(other_ben, keyboards.JOIN)
    table = await driver.table()
    assert table is not None and [s.name for s in table.seats] == ["Ann", "Ben", "Ben 2"]
    status = driver.status_message()
    assert status is not None and "Waiting for players: Ann, Ben, Ben 2" in status["text"]
    await driver.press(ann, keyboards.START)
    s = Situation("seven-o", hands=("R7 R2 G3", "B4 B5 Y6", "G7 G8 Y9"), top="R1", pick=kind("play"),
                  variant="party")

    def rig(t: Table) -> list[str]:
        lay(t, s)
        return []

    assert bot.service is not None and await bot.service.mutate(driver.chat, rig) is not None
    titles = [str(r.get("title", "")) for r in await driver.hand(ann)]
    swaps = sorted(t.split("⇄ ")[1] for t in titles if "⇄" in t)
    assert swaps == ["Ben", "Ben 2"], titles
