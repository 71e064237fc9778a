"""The game's slash commands beyond the lobby buttons: /uno ai, /uno kick,
/uno skip and /uno help. Each does what it says for whom the chat service
allows it (the same rules as Telegram's /ai, /kick, /skip), and refuses
anyone else with a message only they see, changing nothing."""

from __future__ import annotations

import asyncio
import dataclasses
import time

from tests.discord.driver import FAST, BotProcess, TableDriver, action_of
from tests.discord.test_game import three
from tests.discord_api import DiscordAPIServer, Sent
from tests.support.redis_server import RedisServer
from unobot.chat.actions import ai_levels
from unobot.chat.i18n import Msg, Plural, gettext_for
from unobot.chat.render import error_text
from unobot.chat.table import PLAYING
from unobot.chat.typed import LEVEL_NAMES


class Clock:
    """The service's clock, standing still until a test moves it."""

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now


def refused(sent: Sent, member_id: int, code: str, lang: str = "en") -> None:
    """Answered to that member alone, with the service's reason in their language."""
    message = sent.message
    assert message is not None and message.ephemeral and message.viewer == member_id
    assert message.content == "⚠️ " + error_text(code, lang), message.content


def versions(driver: TableDriver) -> tuple[int, int]:
    """The status message and how many versions it has had (a public edit adds one)."""
    status = driver.status_message()
    assert status is not None
    return status.id, len(status.versions)


async def test_help_lists_every_subcommand_in_the_members_language(server: DiscordAPIServer,
                                                                     bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    eve, bruno = server.member("Eve"), server.member("Bruno", locale="es-ES")
    driver = TableDriver(server, bot, guild.channels[0], [eve, bruno])
    registered = [o["name"] for o in server.commands[0]["options"]]
    assert {"ai", "kick", "skip", "help"} <= set(registered)
    sent = await driver.slash(eve, "help")
    assert sent.message is not None and sent.message.ephemeral and sent.message.viewer == eve.id
    text = sent.message.content
    assert "/uno new" in text and "“My cards”" in text
    for name in registered:
        assert f"`/uno {name}`" in text, name
    assert "`/uno kick` · Remove a player from the game (creator or admin)" in text
    # In Spanish for a Spanish client: the same lines, from the catalogue.
    spanish = await driver.slash(bruno, "help")
    assert spanish.message is not None and spanish.message.viewer == bruno.id
    _ = gettext_for("es")
    assert _("How to play") != "How to play" and f"`/uno help` · {_('How to play')}" in spanish.message.content
    assert _("Remove a player from the game (creator or admin)") in spanish.message.content
    assert "“My cards”" not in spanish.message.content
    assert server.channel_messages(driver.channel) == []  # nothing in the channel
    # /uno top takes its period from a choice: no Telegram `/top week` in its words, in any language.
    top = next(o for o in server.commands[0]["options"] if o["name"] == "top")
    assert "/top" not in top["description"] and not any("/top" in d for d in top["description_localizations"].values())
    assert f"`/uno top` · {_('Standings here (all time, this week or this month)')}" in spanish.message.content
    assert "/top semana" not in spanish.message.content


async def test_the_lobby_names_discords_own_rules_command(server: DiscordAPIServer, bot: BotProcess) -> None:
    """The lobby's status tells where the rules are, as Discord spells it:
    `/uno rules`, in the channel's language. It said Telegram's `/rules`,
    a command no Discord server has."""
    from tests.discord.driver import ADMIN
    from unobot.chat import commands as c

    guild = next(iter(server.guilds.values()))
    olga = server.member("Olga", locale="ru")
    driver = TableDriver(server, bot, guild.channels[0], [olga])
    for lang, words in (("en", "/uno rules shows the rules."), ("ru", "/uno rules показывает правила.")):
        assert (await driver.service.handle(driver.chat, ADMIN, c.SetLanguage(lang))).ok
        await driver.slash(olga, "new")
        status = driver.status_message()
        assert status is not None and words in status.content, status.content
        await driver.add_ai(olga)  # a press answered with the outcome's status
        status = driver.status_message()
        assert status is not None and words in status.content and " /rules" not in status.content, status.content
        await driver.slash(olga, "stop")


async def test_ai_players_are_added_by_the_creator_an_admin_or_a_player_in_the_lobby(
        server: DiscordAPIServer, bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    ann, eve, boss = server.member("Ann"), server.member("Eve"), server.member("Boss", manage_guild=True)
    driver = TableDriver(server, bot, guild.channels[0], [ann])
    await driver.slash(ann, "new")
    before = versions(driver)
    # A passer-by may not fill someone's lobby with AI players.
    refused(await driver.slash(eve, "ai", count=2), eve.id, "not_allowed_admin")
    table = await driver.table()
    assert table is not None and [s.name for s in table.seats] == ["Ann"]
    assert versions(driver) == before
    # The creator adds two; the status message lists them.
    sent = await driver.slash(ann, "ai", count=2)
    assert sent.message is not None and sent.message.ephemeral and "(3 players)" in sent.message.content
    table = await driver.table()
    assert table is not None and [s.is_ai for s in table.seats] == [False, True, True]
    status = driver.status_message()
    assert status is not None and status.id == before[0] and len(status.versions) > before[1]
    assert all(s.name in status.content for s in table.seats)
    # An admin who is not playing may add one too (1 by default), of a level they pick.
    level = ai_levels()[0]
    await driver.slash(boss, "ai", level=level)
    table = await driver.table()
    assert table is not None and len(table.seats) == 4 and table.seats[-1].level == level
    # The status message's Add AI asks for the level (the model's choices), then adds that one.
    await driver.add_ai(ann, ai_levels()[-1])
    table = await driver.table()
    assert table is not None and len(table.seats) == 5 and table.seats[-1].level == ai_levels()[-1]
    # The lobby names each AI seat's level (several levels sit at one table).
    status = driver.status_message()
    assert status is not None
    assert f"{table.seats[3].name} · {level}, {table.seats[4].name} · {ai_levels()[-1]}" in status.content
    # Once the game runs, nobody can.
    await driver.press_status(ann, "g")
    started = await driver.table()
    assert started is not None and started.phase == PLAYING
    refused(await driver.slash(ann, "ai", count=1), ann.id, "not_in_lobby")
    after = await driver.table()
    assert after is not None and after.version == started.version and len(after.seats) == 5


async def test_an_ai_seat_is_taken_out_of_the_lobby_from_the_status_message(
        server: DiscordAPIServer, bot: BotProcess) -> None:
    """Core's "Remove an AI player" on the status message: its picker lists
    each AI seat; the creator's pick removes that seat, a passer-by's is
    refused and changes nothing (before, only /uno stop and a new lobby)."""
    guild = next(iter(server.guilds.values()))
    ann, eve = server.member("Ann"), server.member("Eve")
    driver = TableDriver(server, bot, guild.channels[0], [ann])
    await driver.slash(ann, "new")
    await driver.slash(ann, "ai", count=2)
    table = await driver.table()
    assert table is not None
    ais = [s for s in table.seats if s.is_ai]
    status = driver.status_message()
    assert status is not None
    opener = next(cid for _, cid in status.custom_ids() if cid.startswith("u|n|") and action_of(cid) == "x")
    picker = await driver.press(ann, status, opener)
    assert picker.message is not None and picker.message.viewer == ann.id
    choices = [(label, cid) for label, cid in picker.message.custom_ids() if cid.startswith("u|a|")]
    assert [action_of(cid) for _, cid in choices] == ["x" + s.id for s in ais]
    assert [label for label, _ in choices] == ["✖ " + s.name for s in ais]
    before = versions(driver)
    hers = await driver.press(eve, status, opener)  # an ephemeral picker is its presser's alone
    assert hers.message is not None and hers.message.viewer == eve.id
    answer = await driver.press(eve, hers.message, choices[0][1])
    assert answer.message is not None and answer.message.viewer == eve.id
    assert answer.message.content.startswith("⚠️ " + error_text("not_allowed_admin", "en")), answer.message.content
    assert versions(driver) == before
    await driver.press(ann, picker.message, choices[0][1])
    table = await driver.table()
    assert table is not None and [s.id for s in table.seats if s.is_ai] == [ais[1].id]
    status = driver.status_message()
    assert status is not None and ais[0].name not in status.content and ais[1].name in status.content


async def test_a_player_is_kicked_by_the_creator_or_an_admin_only(server: DiscordAPIServer,
                                                                   bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    ann, bruno, cleo = three(server)
    dan, boss = server.member("Dan"), server.member("Boss", manage_guild=True)
    driver = TableDriver(server, bot, guild.channels[0], [ann, bruno, cleo, dan])
    await driver.slash(ann, "new")
    for member in (bruno, cleo, dan):
        await driver.press_status(member, "j")
    await driver.press_status(ann, "g")
    table = await driver.table()
    assert table is not None and table.game is not None
    before = versions(driver)
    # A player who did not open the game may not remove another (Bruno reads Spanish) ...
    refused(await driver.slash(bruno, "kick", player=cleo), bruno.id, "not_allowed_admin", "es")
    # ... nor may anyone remove somebody who is not at the table.
    refused(await driver.slash(ann, "kick", player=server.member("Zed")), ann.id, "bad_player")
    same = await driver.table()
    assert same is not None and same.version == table.version and not same.left
    assert versions(driver) == before
    # The creator removes Cleo: said in the channel, and the game goes on without her.
    sent = await driver.slash(ann, "kick", player=cleo)
    assert sent.message is not None and not sent.message.ephemeral
    assert sent.message.content == "Cleo was removed from the game."
    after = await driver.table()
    assert after is not None and after.game is not None and after.phase == PLAYING
    cleo_seat = after.seat_of(str(cleo.id))
    assert cleo_seat is not None and cleo_seat in after.game.out and str(cleo.id) in after.left
    assert after.seats[after.game.turn].id != str(cleo.id)
    assert versions(driver)[1] > before[1]  # the status message shows it
    # An admin who is not playing removes Dan; Ann and Bruno play on.
    sent = await driver.slash(boss, "kick", player=dan)
    assert sent.message is not None and sent.message.content == "Dan was removed from the game."
    last = await driver.table()
    assert last is not None and last.game is not None and last.phase == PLAYING
    assert {last.seats[i].id for i in range(len(last.seats)) if i not in last.game.out} == {str(ann.id),
                                                                                           str(bruno.id)}
    await driver.check_privacy()


async def test_skip_once_the_turn_timer_ran_out(server: DiscordAPIServer, redis_server: RedisServer,
                                                prefix: str) -> None:
    """The service's clock stands still, so "the time ran out" is the test's
    to say. The bot's own timer job runs on that clock too; its grace is set
    far out here, so the skips below are the members' own."""
    guild = server.guild()
    clock = Clock()
    bot = await BotProcess(server, redis_server.url, prefix, clock=clock,
                           options=dataclasses.replace(FAST, timer_grace=1000.0)).start()
    try:
        ann, bruno = server.member("Ann"), server.member("Bruno")
        eve, boss = server.member("Eve"), server.member("Boss", manage_guild=True)
        driver = TableDriver(server, bot, guild.channels[0], [ann, bruno])

        async def game() -> None:
            await driver.slash(ann, "new")
            await driver.press_status(bruno, "j")
            await driver.press_status(ann, "g")

        # No turn timer: nothing to skip.
        await game()
        refused(await driver.slash(bruno, "skip"), bruno.id, "no_timer")
        await driver.slash(ann, "stop")
        await driver.slash(boss, "timer", seconds=30)
        await game()
        table = await driver.table()
        assert table is not None and table.game is not None and table.timer == 30
        before = versions(driver)
        # The player on turn still has time.
        refused(await driver.slash(bruno, "skip"), bruno.id, "timer_running")
        clock.now += 31
        # Time is up, but a passer-by may not skip anyone.
        refused(await driver.slash(eve, "skip"), eve.id, "not_in_game")
        same = await driver.table()
        assert same is not None and same.version == table.version and versions(driver) == before
        # The player on turn's own panel offers the skip now (the model's "time is up" action) ...
        late_member = driver.member_of(table.seats[table.game.turn].id)
        assert late_member is not None
        panel = await driver.open_hand(late_member)
        assert "t" in [action_of(cid) for _, cid in panel.custom_ids()], panel.custom_ids()
        # ... and any player may /uno skip: the one on turn draws and passes (as the timer would), said in the channel.
        late = table.seats[table.game.turn].name
        sent = await driver.slash(bruno, "skip")
        assert sent.message is not None and not sent.message.ephemeral and late in sent.message.content
        after = await driver.table()
        assert after is not None and after.game is not None and after.version > table.version
        assert after.game.turn != table.game.turn and "timed_out" in [r[0] for r in after.recent]
        status = driver.status_message()
        assert status is not None and len(status.versions) > before[1] and "ran out of time" in status.content
        # So may an admin who is not playing, once the next player's time is up too.
        clock.now += 31
        sent = await driver.slash(boss, "skip")
        assert sent.message is not None and not sent.message.ephemeral
        last = await driver.table()
        assert last is not None and last.game is not None and last.version > after.version
        assert last.game.turn == table.game.turn
    finally:
        await bot.stop()



async def test_the_turn_timer_runs_on_the_services_clock(server: DiscordAPIServer, redis_server: RedisServer,
                                                         prefix: str) -> None:
    """The timer job is the wake plan's, on the service's injected clock (not
    the wall clock): moving that clock past the turn makes it fire."""
    guild = server.guild()
    clock = Clock()
    bot = await BotProcess(server, redis_server.url, prefix, clock=clock).start()
    try:
        ann, bruno = server.member("Ann"), server.member("Bruno")
        boss = server.member("Boss", manage_guild=True)
        driver = TableDriver(server, bot, guild.channels[0], [ann, bruno])
        await driver.slash(boss, "timer", seconds=30)
        await driver.slash(ann, "new")
        await driver.press_status(bruno, "j")
        await driver.press_status(ann, "g")
        table = await driver.table()
        assert table is not None and table.game is not None
        await asyncio.sleep(0.3)  # real time passes, the service's clock does not: nothing happens
        same = await driver.table()
        assert same is not None and same.version == table.version
        clock.now += 31
        deadline = asyncio.get_running_loop().time() + 30  # the job polls the clock; a loaded machine is slower
        while asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.05)
            moved = await driver.table()
            if moved is not None and moved.version > table.version:
                break
        await bot.idle()
        after = await driver.table()
        assert after is not None and after.version > table.version
        assert "timed_out" in [r[0] for r in after.recent]
    finally:
        await bot.stop()


async def test_a_player_who_left_is_told_so_on_their_panel(server: DiscordAPIServer, bot: BotProcess) -> None:
    """"My cards" pressed by a player who left (or was removed) says they are
    not playing, in their language, with nothing to play. Before, their seat
    still counted as a hand: an empty one ("-") under whose turn it is, and a
    player who left could not tell they were out."""
    guild = next(iter(server.guilds.values()))
    ann, bruno, cleo = three(server)  # Bruno reads Spanish
    dan = server.member("Dan", locale="de")
    driver = TableDriver(server, bot, guild.channels[0], [ann, bruno, cleo, dan])
    await driver.slash(ann, "new")
    for member in (bruno, cleo, dan):
        await driver.press_status(member, "j")
    await driver.press_status(ann, "g")
    await driver.slash(bruno, "leave")
    await driver.slash(ann, "kick", player=dan)
    for member, lang in ((bruno, "es"), (dan, "de")):
        panel = await driver.open_hand(member)
        assert error_text("not_in_game", lang) in panel.content, panel.content
        assert not any(cid.startswith(("u|s|", "u|a|")) for _, cid in panel.custom_ids()), panel.custom_ids()
        assert panel.picture() is None  # no picture of an empty hand
    mine = await driver.open_hand(cleo)  # a player still in the game sees their cards as before
    assert error_text("not_in_game", "en") not in mine.content and mine.picture() is not None


async def test_a_refusal_names_discords_own_commands(server: DiscordAPIServer, bot: BotProcess) -> None:
    """"There is no game here. Start one with ..." says `/uno new`, in
    each member's language, whether it answers a slash command or a press on
    a finished game's message. It said Telegram's `/new`, a command no
    Discord server has; Telegram's wording is unchanged."""
    guild = next(iter(server.guilds.values()))
    ann, eve = server.member("Ann"), server.member("Eve", locale="de")
    driver = TableDriver(server, bot, guild.channels[0], [ann, eve])
    sent = await driver.slash(ann, "stop")
    assert sent.message is not None and sent.message.ephemeral
    assert sent.message.content == "⚠️ There is no game here. Start one with /uno new.", sent.message.content
    german = await driver.slash(eve, "leave")
    assert german.message is not None and "/uno new" in german.message.content and "/new" not in \
        german.message.content.replace("/uno new", ""), german.message.content
    assert german.message.content == "⚠️ " + error_text("no_game", "de", {"new": "/uno new"})
    # A press on a stopped game's message: the same words, from core's panel press.
    await driver.slash(ann, "new")
    await driver.press_status(eve, "j")
    await driver.press_status(ann, "g")
    status = driver.status_message()
    assert status is not None
    await driver.slash(ann, "stop")
    late = await driver.press(eve, status, "u|hand")
    assert late.message is not None and late.message.viewer == eve.id
    assert late.message.content == "⚠️ " + error_text("no_game", "de", {"new": "/uno new"}), late.message.content
    # Elsewhere the typed command stays as it was.
    assert error_text("no_game", "en") == "There is no game here. Start one with /new."


async def test_private_answers_are_in_the_members_language(server: DiscordAPIServer, bot: BotProcess) -> None:
    """`/uno ai` and `/uno leave` answer the member alone, so in their own
    language ("Ada (AI) se unió, nivel normal"), while the channel's status
    stays in the channel's. They were in the channel's language: core wrote
    its notices once, in the table's, and the answer showed those."""
    guild = next(iter(server.guilds.values()))
    ann, bruno, cleo = three(server)  # Bruno reads Spanish
    driver = TableDriver(server, bot, guild.channels[0], [ann, bruno, cleo])
    await driver.slash(ann, "new")
    await driver.press_status(bruno, "j")
    added = await driver.slash(bruno, "ai", count=1)
    table = await driver.table()
    assert table is not None and added.message is not None and added.message.ephemeral
    es = gettext_for("es")
    seat = table.seats[-1]
    assert seat.level is not None
    said = Plural("{name} joined, level {level} ({n} player).", "{name} joined, level {level} ({n} players).", 3,
                  name=seat.name, level=Msg(LEVEL_NAMES[seat.level])).text("es")
    assert added.message.content == said and "(3 jugadores)" in said, added.message.content
    status = driver.status_message()
    assert status is not None and "Bruno" in status.content  # the channel's own words are as before
    await driver.press_status(ann, "g")
    left = await driver.slash(bruno, "leave")
    assert left.message is not None and left.message.ephemeral
    assert es("{player} left the game.").format(player="Bruno") in left.message.content, left.message.content
    assert "left the game" not in left.message.content
