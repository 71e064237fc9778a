"""What the status message's buttons do, as slash commands: `/uno join`,
`/uno start`, `/uno hand`; and `/uno status`, which posts the status message
again at the bottom of the channel.

Why: in a busy channel the status message scrolls far up; a member who
typed `/uno` found no way to join, start, see their cards or bring the game
back into view but to scroll and hunt for it.
"""

from __future__ import annotations

from tests.discord.driver import BotProcess, TableDriver
from tests.discord.test_game import three
from tests.discord_api import DiscordAPIServer
from unobot.chat.render import error_text
from unobot.chat.table import LOBBY, PLAYING


async def test_join_start_and_hand_are_commands_too(server: DiscordAPIServer, bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    ann, bruno, cleo = three(server)
    driver = TableDriver(server, bot, guild.channels[0], [ann, bruno, cleo])
    sent = await driver.slash(bruno, "hand")  # no game yet: said to him alone, in his language
    assert sent.message is not None and sent.message.viewer == bruno.id
    assert sent.message.content == "⚠️ " + error_text("no_game", "es", {"new": "/uno new"}), sent.message.content
    await driver.slash(ann, "new")
    status = driver.status_message()
    assert status is not None
    for member in (bruno, cleo):
        sent = await driver.slash(member, "join")
        assert sent.message is not None and sent.message.viewer == member.id
    table = await driver.table()
    assert table is not None and table.phase == LOBBY and len(table.seats) == 3
    refused = await driver.slash(bruno, "start")  # only the creator starts, as on the button
    assert refused.message is not None and "⚠️" in refused.message.content
    await driver.slash(ann, "start")
    table = await driver.table()
    assert table is not None and table.phase == PLAYING and table.game is not None
    assert status.id == (driver.status_message() or status).id and len(server.messages[status.id].versions) > 1
    on_turn = driver.member_of(table.seats[table.game.turn].id)
    assert on_turn is not None
    sent = await driver.slash(on_turn, "hand")
    panel = sent.message
    assert panel is not None and panel.viewer == on_turn.id
    cards = [cid for _, cid in panel.custom_ids() if cid.startswith("u|s|")]
    draw = [cid for _, cid in panel.custom_ids() if cid.startswith("u|a|") and cid.split("|")[3] in ("d", "d+")]
    assert cards or draw, panel.custom_ids()
    # A choice on it is taken, and answered on that same message.
    after = await driver.pick(on_turn, panel, (cards or draw)[0])
    assert after.message is not None and after.message.id == panel.id and "⚠️" not in after.message.content
    moved = await driver.table()
    assert moved is not None and moved.version > table.version


async def test_status_posts_the_game_again_at_the_bottom(server: DiscordAPIServer, bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    ann, bruno, cleo = three(server)
    driver = TableDriver(server, bot, guild.channels[0], [ann, bruno, cleo])
    sent = await driver.slash(cleo, "status")
    assert sent.message is not None and sent.message.viewer == cleo.id and "⚠️" in sent.message.content
    await driver.slash(ann, "new")
    await driver.slash(bruno, "join")
    old = driver.status_message()
    assert old is not None
    sent = await driver.slash(cleo, "status")
    new = sent.message
    assert new is not None and not new.ephemeral and new.id != old.id
    assert server.messages[old.id].deleted, "the old status message stays, its buttons dead"
    assert [m.id for m in server.channel_messages(driver.channel)] == [new.id]
    table = await driver.table()
    assert table is not None and table.adapter.get("status") == new.id
    # The game goes on on the new one: its buttons act, and it is what is edited.
    await driver.press_status(cleo, "j")
    await driver.press_status(ann, "g")
    table = await driver.table()
    assert table is not None and table.phase == PLAYING
    assert len(server.messages[new.id].versions) > 1 and "Cleo" in server.messages[new.id].content


async def test_a_variant_is_offered_as_it_is_typed(server: DiscordAPIServer, bot: BotProcess) -> None:
    """`/uno new variant:` and `/uno variant name:` were free text: a member had
    to know the exact name (`no-mercy`). Discord now offers every variant whose
    name or title (in the member's language) holds what they type."""
    from unobot.chat.views import variant_title
    from unobot.variants import variant_names

    guild = next(iter(server.guilds.values()))
    ann, bruno, _cleo = three(server)
    channel = guild.channels[0]
    everything = await server.answer(await server.autocomplete(ann, channel, "uno", "new", "variant", ""))
    offered = everything.callbacks[0]["data"]["choices"]
    assert [ch["value"] for ch in offered] == variant_names()[:25]
    typed = await server.answer(await server.autocomplete(bruno, channel, "uno", "variant", "name", "merc"))
    choices = typed.callbacks[0]["data"]["choices"]
    assert [ch["value"] for ch in choices] == ["no-mercy"], choices
    assert choices[0]["name"].startswith(variant_title("no-mercy", "es")), choices  # his language's title
    driver = TableDriver(server, bot, channel, [ann, bruno])
    await driver.slash(ann, "new", variant=choices[0]["value"])
    table = await driver.table()
    assert table is not None and table.variant == "no-mercy"
