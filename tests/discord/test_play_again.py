"""After a match in a channel, its status message offers "Play again" (core's public
actions after the match): pressed, a new lobby opens in the channel seated as the match
was, its variant, posted as a new status message at the bottom; a second press is that
lobby. Against the local Discord API and gateway, with a real Redis.

Why: the match's end had no button at all (the way on was `/uno new` and everyone
pressing Join again), while core knows how to play again at the same table.
"""

from __future__ import annotations

from tests.conformance.situations import cards
from tests.discord.driver import ADMIN, BotProcess, Member, TableDriver, action_of
from tests.discord.test_game import lobby_and_start, three
from tests.discord_api import DiscordAPIServer
from unobot.chat import commands as c
from unobot.chat.table import LOBBY, PLAYING, Table
from unobot.engine import setup_round


async def test_play_again_under_a_finished_match_opens_the_lobby_in_the_channel(server: DiscordAPIServer,
                                                                               bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule="scoring", option="target", value=0))
    assert out.ok, out.error
    await lobby_and_start(driver)
    ann, bruno, cleo = driver.members

    def rig(table: Table) -> list[str]:
        table.game = setup_round("official", [s.id for s in table.seats], [cards("R5"), cards("G1 G2"),
                                 cards("B3 B4")], cards("R1"), cards("G3 G4 G5 G6"), turn=0,
                                 seed=table.seed, overrides=table.overrides or None)
        table.drawn_last = {}
        return []

    before = await driver.service.mutate(driver.chat, rig)
    assert before is not None
    hand = await driver.open_hand(ann)
    entry = next(cid for _, cid in hand.custom_ids() if action_of(cid) == "pR5")
    await driver.pick(ann, hand, entry)
    await bot.idle()
    assert await driver.table() is None  # the match is over and kept
    final = driver.status_message()
    assert final is not None and "wins the match" in final.content, final.content
    labels = [label for label, cid in final.custom_ids() if cid.startswith("u|")]
    assert labels == ["🔁 Play again"], final.custom_ids()
    count = len(server.channel_messages(driver.channel))
    sent = await driver.press_status(bruno, "r")
    assert sent.message is None or "⚠️" not in sent.message.content, sent.message.content
    await bot.idle()
    lobby = await driver.table()
    assert lobby is not None and lobby.phase == LOBBY and lobby.variant == before.variant
    assert [s.name for s in lobby.seats] == ["Ann", "Bruno", "Cleo"]
    shown = server.channel_messages(driver.channel)
    assert len(shown) == count + 1  # the lobby's status, posted anew at the bottom
    posted = shown[-1]
    assert lobby.adapter.get("status") == posted.id and posted.id != final.id
    assert {action_of(cid) for _, cid in posted.custom_ids()} >= {"j", "g"}, posted.custom_ids()
    # A second press on the old message is that lobby: no refusal, nothing new posted.
    again = await driver.press(cleo, final, next(cid for _, cid in final.custom_ids() if action_of(cid).startswith("r")))
    assert again.message is None or "⚠️" not in again.message.content, again.message.content
    await bot.idle()
    assert len(server.channel_messages(driver.channel)) == count + 1
    still = await driver.table()
    assert still is not None and still.seed == lobby.seed
    await driver.press_status(bruno, "g")  # who asked opened it: they start it
    started = await driver.table()
    assert started is not None and started.phase == PLAYING


async def win_with_red_five(driver: TableDriver, winner: Member) -> None:
    """End the channel's running game: the first seat (`winner`) holds one card and plays it."""

    def rig(table: Table) -> list[str]:
        hands = [cards("R5"), *[cards(f"G{i} B{i}") for i in range(1, len(table.seats))]]
        table.game = setup_round("official", [s.id for s in table.seats], hands, cards("R1"),
                                 cards("G7 G8 G9 Y1"), turn=0, seed=table.seed, overrides=table.overrides or None)
        table.drawn_last = {}
        return []

    assert await driver.service.mutate(driver.chat, rig) is not None
    hand = await driver.open_hand(winner)
    entry = next(cid for _, cid in hand.custom_ids() if action_of(cid) == "pR5")
    await driver.pick(winner, hand, entry)
    await driver.bot.idle()
    assert await driver.table() is None


async def test_play_again_names_its_match_and_seats_a_later_presser(server: DiscordAPIServer,
                                                                     bot: BotProcess) -> None:
    """Dan, who did not play the match, presses "Play again" after Bruno opened the lobby:
    he is seated as /join seats and told so (he once got no seat and no word). Played,
    that second match ends too; "Play again" on the FIRST match's message then seats the
    first match's players (it once seated the latest match's, Dan too)."""
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule="scoring", option="target", value=0))
    assert out.ok, out.error
    await lobby_and_start(driver)
    ann, bruno, _cleo = driver.members
    await win_with_red_five(driver, ann)
    first = driver.status_message()
    assert first is not None
    first_again = next(cid for _, cid in first.custom_ids() if action_of(cid).startswith("r"))
    assert len(first_again) <= 100 and action_of(first_again) != "r"  # it names its match
    await driver.press(bruno, first, first_again)
    dan = server.member("Dan", locale="es-ES")
    sent = await driver.press(dan, first, first_again)
    assert sent.message is not None and sent.message.viewer == dan.id, sent.message
    assert "Te has unido." in sent.message.content, sent.message.content
    lobby = await driver.table()
    assert lobby is not None and [s.name for s in lobby.seats] == ["Ann", "Bruno", "Cleo", "Dan"]
    await driver.press_status(bruno, "g")
    await win_with_red_five(driver, ann)
    second = driver.status_message()
    assert second is not None and second.id != first.id
    assert action_of(next(cid for _, cid in second.custom_ids() if action_of(cid).startswith("r"))) \
        != action_of(first_again)
    await driver.press(ann, first, first_again)  # the first match's old message
    again = await driver.table()
    assert again is not None and again.phase == LOBBY
    assert [s.name for s in again.seats] == ["Ann", "Bruno", "Cleo"], again.seats
