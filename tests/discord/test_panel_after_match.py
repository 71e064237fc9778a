"""A member's own panel (ephemeral) pressed after the match ended offers "Play again",
as the channel's final message does, not "/uno new". Against the local Discord API and
gateway, with a real Redis.

Why: a panel open when the match ended (a player waiting for their turn) had only its
old buttons; pressed, it answered "There is no game in this channel. Start one with
/uno new.", while the match's own message offered "Play again" and core knew the match.
"""

from __future__ import annotations

from tests.discord.driver import ADMIN, BotProcess, TableDriver, action_of
from tests.discord.test_game import lobby_and_start, three
from tests.discord.test_play_again import win_with_red_five
from tests.discord_api import DiscordAPIServer
from unobot.chat import commands as c
from unobot.chat.table import LOBBY


async def test_a_panel_pressed_after_the_match_offers_play_again(server: DiscordAPIServer, bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule="scoring", option="target", value=0))
    assert out.ok, out.error
    await lobby_and_start(driver)
    ann, bruno, _cleo = driver.members
    panel = await driver.open_hand(bruno)  # Bruno's hand, open while Ann wins
    await win_with_red_five(driver, ann)
    refresh = next(cid for _, cid in panel.custom_ids() if cid.startswith("u|r|"))
    sent = await driver.press(bruno, panel, refresh)
    shown = sent.message
    assert shown is not None and shown.viewer == bruno.id
    assert "/uno new" not in shown.content, shown.content
    again = [(label, cid) for label, cid in shown.custom_ids() if action_of(cid).startswith("r")]
    assert again and again[0][0] == "🔁 Jugar otra vez", shown.custom_ids()  # in Bruno's language
    await driver.press(bruno, shown, again[0][1])
    lobby = await driver.table()
    assert lobby is not None and lobby.phase == LOBBY
    assert [s.name for s in lobby.seats] == ["Ann", "Bruno", "Cleo"]
