"""The Discord front-end renders core's table model: every action of a
member's menu is reachable (a Wild starter's colour, a plugin's move out of
turn, every multi-play of a huge hand, page by page), every house rule and
option can be set from `/uno rules` past a select's 25 options, the jobs
are the core's wake plan (lobby expiry), a paused Redis never leaves a press
unanswered past Discord's 3 seconds, and status edits are paced."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator

import pytest
import redis

from tests.discord.driver import ADMIN, FAST, BotProcess, TableDriver, action_of
from tests.discord.test_game import lobby_and_start, short_games, three
from tests.discord_api import DiscordAPIServer, Member, Message, Sent
from tests.support.redis_server import RedisServer
from unobot.adapters.discord.bot import Options
from unobot.cards import parse_card
from unobot.chat import actions as a
from unobot.chat import commands as c
from unobot.chat.outcome import Outcome
from unobot.chat.render import error_text
from unobot.chat.table import Table


@pytest.fixture
async def make_bot(server: DiscordAPIServer, redis_server: RedisServer, prefix: str
                   ) -> AsyncIterator[list[BotProcess]]:
    """Bots with their own seed or options: `bots.append(await start(...))`."""
    server.guild()
    bots: list[BotProcess] = []
    yield bots
    for b in bots:
        await b.stop()


async def start(server: DiscordAPIServer, redis_server: RedisServer, prefix: str, bots: list[BotProcess],
                **kw: object) -> BotProcess:
    b = await BotProcess(server, redis_server.url, prefix, **kw).start()  # type: ignore[arg-type]
    bots.append(b)
    return b


def entries(message: Message, prefix: str) -> list[str]:
    return [cid for _, cid in message.custom_ids() if cid.startswith(prefix)]


#: The rules' switch select's entries (`id=on:<rule>` or `id=off:<rule>`).
SWITCHES = "s|channel|#0="


def switched(cid: str) -> str:
    """The rule a switch select's entry names."""
    return cid.partition("=")[2].partition(":")[2]


def option_key(rule: str, option: str) -> str:
    """`<rule key>:<option index>`, as core's settings menu names an option."""
    from unobot.chat.settings_menu import key_of
    from unobot.registry import available_rules
    from unobot.rule import option_specs

    names = [s.name for s in option_specs(available_rules()[rule])]
    return f"{key_of(rule)}:{names.index(option)}"


def setter(rule: str, option: str, value: str) -> str:
    """The button that sets `option` of `rule` to `value` (as `option_values.encode_value` writes it)."""
    return f"s|channel|s:{option_key(rule, option)}:{value}"


async def all_pages(driver: TableDriver, member: Member, message: Message, page_prefix: str) -> list[Message]:
    """The message's pages, following ▶ (a page's contents are its versions)."""
    seen = [dataclasses.replace(message)]
    for _ in range(100):
        nxt = [cid for label, cid in message.custom_ids() if label == "▶" and cid.startswith(page_prefix)]
        disabled = [comp for row in message.components for comp in row["components"]
                    if comp.get("label") == "▶" and comp.get("disabled")]
        if not nxt or disabled:
            return seen
        sent = await driver.press(member, message, nxt[0])
        assert sent.message is not None and sent.message.id == message.id
        message = sent.message
        seen.append(dataclasses.replace(message))
    raise AssertionError("more than 100 pages")


async def test_a_wild_starter_is_named_with_a_button_and_the_game_goes_on(
        server: DiscordAPIServer, redis_server: RedisServer, prefix: str, make_bot: list[BotProcess]) -> None:
    bot = await start(server, redis_server, prefix, make_bot, seed=41)  # this seed turns a Wild first
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    await short_games(driver, scoring="target=100")
    await lobby_and_start(driver, "official")
    table = await driver.table()
    assert table is not None and table.game is not None and table.game.discard[-1].text == "W"
    on_turn = driver.member_of(table.seats[table.game.turn].id)
    assert on_turn is not None
    hand = await driver.open_hand(on_turn)
    colours = [cid for cid in entries(hand, "u|a|") if action_of(cid).startswith("h")]
    assert len(colours) == 4, hand.custom_ids()
    green = next(cid for cid in colours if action_of(cid) == "hG")
    sent = await driver.press(on_turn, hand, green)
    assert sent.message is not None and "⚠️" not in sent.message.content, sent.message.content
    after = await driver.table()
    assert after is not None and after.game is not None and after.version > table.version
    assert after.game.color == "G"
    for _ in range(6):  # and the round goes on, as members play it
        now = await driver.table()
        if now is None or now.game is None or now.phase != "playing":
            break
        member = driver.member_of(now.seats[now.game.turn].id)
        assert member is not None
        await driver.turn(member)
    assert driver.stats.moves >= 1 and driver.stats.refusals == 0


async def test_every_house_rule_is_reachable_from_rules_by_paging(server: DiscordAPIServer,
                                                                   bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    boss = server.member("Boss", manage_guild=True)
    driver = TableDriver(server, bot, guild.channels[0], [boss])
    shown = await driver.slash(boss, "rules")
    assert shown.message is not None
    first = [switched(cid) for cid in entries(shown.message, SWITCHES)]
    assert len(first) == 25 and "teams" not in first and "value-stacking" not in first
    pages = await all_pages(driver, boss, shown.message, "s|channel|pr:")
    assert len(pages) >= 2
    every = {switched(cid) for p in pages for cid in entries(p, SWITCHES)}
    from unobot.chat.rules_text import switchable_rules
    from unobot.registry import available_rules

    # every house rule, and the shared rules a house rule needs off (challenge, for no-bluffing)
    assert every == {r.name for r in switchable_rules()}
    assert {r.name for r in available_rules().values() if not r.base} <= every and "challenge" in every
    last = pages[-1]
    for rule in ("teams", "value-stacking"):
        select = next(cid for cid in entries(last, SWITCHES) if cid.endswith("=on:" + rule)).partition("=")[0]
        sent = await driver.press(boss, last, select, ["on:" + rule])
        assert sent.message is not None and "⚠️" not in sent.message.content, sent.message.content
        assert sent.message.id == last.id  # the same message, on the same page
        assert rule in (await driver.service.settings(driver.chat))["rules"]
        last = sent.message


async def open_option(driver: TableDriver, member: Member, rule: str, option: str) -> Message:
    shown = await driver.slash(member, "rules")
    assert shown.message is not None
    for page in await all_pages(driver, member, shown.message, "s|channel|pr:"):
        entry = next((cid for cid in entries(page, "s|channel|#1=") if cid.endswith("=o:" + option_key(rule, option))),
                     None)
        if entry is not None:
            sent = await driver.pick(member, shown.message, entry)
            assert sent.message is not None and sent.message.id == shown.message.id
            return sent.message
    raise AssertionError(f"{rule}:{option} is not offered")


async def option_value(driver: TableDriver, rule: str, option: str) -> object:
    rules = (await driver.service.settings(driver.chat))["rules"]
    return (rules.get(rule) or {}).get(option)


async def test_an_option_of_each_kind_is_set_from_discord(server: DiscordAPIServer, bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    boss = server.member("Boss", manage_guild=True)
    jefa = server.member("Jefa", locale="es-ES", manage_guild=True)
    driver = TableDriver(server, bot, guild.channels[0], [boss, jefa])
    out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule="stacking", enabled=True))
    assert out.ok, out.error
    # A switch (bool), with its help in the member's language.
    panel = await open_option(driver, boss, "stacking", "draw_four_on_draw_four")
    assert "a Wild Draw Four goes on a Wild Draw Four" in panel.content, panel.content
    on = setter("stacking", "draw_four_on_draw_four", "1")
    assert on in entries(panel, on)
    sent = await driver.press(boss, panel, on)
    assert sent.message is not None and "⚠️" not in sent.message.content
    assert await option_value(driver, "stacking", "draw_four_on_draw_four") is True
    # A number: a step, then a typed value (a modal); one out of bounds is refused.
    panel = await open_option(driver, jefa, "deck", "hand_size")
    assert "cartas" in panel.content.lower(), panel.content  # the help, in Spanish
    plus = next(cid for label, cid in panel.custom_ids() if label == "+1")
    sent = await driver.press(jefa, panel, plus)
    assert await option_value(driver, "deck", "hand_size") == 8
    assert sent.message is not None
    typed = next(cid for cid in entries(sent.message, "s|channel|t:"))
    opened = await driver.press(jefa, sent.message, typed)
    assert opened.callbacks[0]["type"] == 9 and opened.callbacks[0]["data"]["custom_id"] == typed
    done = await driver.settle(await server.modal_submit(jefa, sent.message, typed, {"value": "5"}))
    assert done.message is not None and done.message.id == sent.message.id and "⚠️" not in done.message.content
    assert await option_value(driver, "deck", "hand_size") == 5
    bad = await driver.settle(await server.modal_submit(jefa, sent.message, typed, {"value": "99"}))
    assert bad.message is not None and "⚠️" in bad.message.content and bad.message.viewer == jefa.id
    assert await option_value(driver, "deck", "hand_size") == 5
    # One of a few values (a Literal).
    panel = await open_option(driver, boss, "starter", "reverse_first")
    other = setter("starter", "reverse_first", "1")
    assert other in entries(panel, other)
    sent = await driver.press(boss, panel, other)
    assert sent.message is not None and "⚠️" not in sent.message.content
    assert await option_value(driver, "starter", "reverse_first") == "other_side"
    # A member without Manage Server cannot, even with a forged press.
    ann = server.member("Ann")
    forged = await driver.press(ann, panel, setter("starter", "reverse_first", "0"))
    assert forged.message is not None and "⚠️" in forged.message.content
    assert await option_value(driver, "starter", "reverse_first") == "other_side"


async def test_a_plugin_move_out_of_turn_is_offered_and_pressed(server: DiscordAPIServer, bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    out = await driver.service.handle(driver.chat, ADMIN, c.SetRule(rule="cheer", enabled=True))
    assert out.ok, out.error
    await lobby_and_start(driver, "official")
    table = await driver.table()
    assert table is not None and table.game is not None
    on_turn = driver.member_of(table.seats[table.game.turn].id)
    waiting = next(m for m in driver.members if m is not on_turn)
    assert on_turn is not None
    assert not [cid for cid in entries(await driver.open_hand(on_turn), "u|a|") if action_of(cid) == "mcheer"]
    hand = await driver.open_hand(waiting)
    cheer = [cid for cid in entries(hand, "u|a|") if action_of(cid) == "mcheer"]
    assert cheer, hand.custom_ids()
    label = next(lbl for lbl, cid in hand.custom_ids() if cid == cheer[0])
    assert label.startswith("✨") and "cheer" not in label.lower().split(), label  # the move's own title
    sent = await driver.press(waiting, hand, cheer[0])
    assert sent.message is not None and "⚠️" not in sent.message.content, sent.message.content
    after = await driver.table()
    assert after is not None and after.version > table.version
    assert after.game is not None and after.game.turn == table.game.turn  # out of turn: the turn stays
    status = driver.status_message()
    assert status is not None and f"{waiting.name} cheers" in status.content, status.content
    # Once a round: the fresh panel no longer offers it.
    assert sent.message is not None
    assert not [cid for cid in entries(sent.message, "u|a|") if action_of(cid) == "mcheer"]


async def test_a_huge_hand_pages_and_every_action_is_reachable(server: DiscordAPIServer, bot: BotProcess) -> None:
    """A crazy-variant hand holding one of every card: 25 cards to play and
    well over a hundred multi-plays, over many pages; each page within
    Discord's limits (the server refuses anything over), every action of
    the menu on some page, and one from a later page played."""
    guild = next(iter(server.guilds.values()))
    ann, bob = server.member("Ann"), server.member("Bob")
    driver = TableDriver(server, bot, guild.channels[0], [ann, bob])
    await driver.slash(ann, "new", variant="crazy")
    await driver.press_status(bob, "j")
    await driver.press_status(ann, "g")
    table = await driver.table()
    assert table is not None and table.game is not None
    game = table.game
    every = sorted({x.text for x in [*game.draw_pile, *game.discard, *(x for h in game.hands for x in h)]})
    seat = game.turn

    def deal(t: Table) -> list[str]:
        assert t.game is not None
        t.game.hands[seat] = [parse_card(x) for x in every]
        t.game.discard.append(parse_card("Y9"))  # a plain top card: no draw pending
        t.game.color, t.game.pending = "Y", 0
        return ["dealt"]

    await driver.service.mutate(driver.chat, deal)
    table = await driver.table()
    assert table is not None
    member = driver.member_of(table.seats[seat].id)
    assert member is not None
    menu = a.menu(table, str(member.id))
    wanted = {x.id for x in menu.grouped()}
    assert len(wanted) > 40
    hand = await driver.open_hand(member)
    pages = await all_pages(driver, member, hand, f"u|pg|{table.version}|")
    assert len(pages) > 3
    shown = {action_of(cid).lstrip("?") for p in pages for cid in entries(p, "u|") if action_of(cid)}
    assert wanted <= shown, sorted(wanted - shown)[:10]
    late = pages[-1]
    multi = min((cid for cid in entries(late, "u|a|") if action_of(cid).startswith(("m", "M"))), key=len)
    sent = await driver.press(member, late, multi)
    assert sent.message is not None and "⚠️" not in sent.message.content, (multi, sent.message.content)
    after = await driver.table()
    assert after is None or after.version > table.version  # played (a match may end with it)
    status = driver.status_message() or server.channel_messages(driver.channel)[-1]
    assert member.name in status.content


async def test_a_lobby_nobody_starts_is_closed(server: DiscordAPIServer, redis_server: RedisServer, prefix: str,
                                               make_bot: list[BotProcess]) -> None:
    bot = await start(server, redis_server, prefix, make_bot,
                      options=dataclasses.replace(FAST, lobby_seconds=0.5))
    guild = next(iter(server.guilds.values()))
    ann, bob = server.member("Ann"), server.member("Bob")
    driver = TableDriver(server, bot, guild.channels[0], [ann, bob])
    await driver.slash(ann, "new")
    await driver.press_status(bob, "j")
    status = driver.status_message()
    assert status is not None and status.components
    deadline = asyncio.get_running_loop().time() + 30
    while asyncio.get_running_loop().time() < deadline:  # half a second of lobby, then the job (busy: later)
        await asyncio.sleep(0.05)
        if await driver.table() is None:
            break
    await bot.idle()
    assert await driver.table() is None
    assert "Nobody started the game in time; the lobby is closed." in status.content, status.content
    assert not status.components


async def test_a_paused_redis_never_leaves_a_press_unanswered(server: DiscordAPIServer, redis_server: RedisServer,
                                                              bot: BotProcess) -> None:
    guild = next(iter(server.guilds.values()))
    driver = TableDriver(server, bot, guild.channels[0], three(server))
    await short_games(driver, scoring="target=100")
    await lobby_and_start(driver, "official")
    table = await driver.table()
    assert table is not None and table.game is not None
    mover = driver.member_of(table.seats[table.game.turn].id)
    other = next(m for m in driver.members if m is not mover)
    assert mover is not None
    hand = await driver.open_hand(mover)
    draw = next(cid for cid in entries(hand, "u|a|") if action_of(cid) in ("d", "d+"))
    status = driver.status_message()
    assert status is not None
    admin = redis.Redis.from_url(redis_server.url)
    admin.execute_command("CLIENT", "PAUSE", 5000, "ALL")
    try:
        presses = [await server.component(other, status, "u|hand"),     # "My cards"
                   await server.component(mover, hand, draw),           # a move
                   await server.slash(other, guild.channels[0], "uno", "rules")]
        for sent in presses:
            await server.answer(sent, timeout=4.0)
            assert sent.answer_seconds is not None and sent.answer_seconds < 3.0, sent.answer_seconds
        await asyncio.sleep(3.5)  # the deferred answers are completed once the store answers (or gives up)
        await bot.idle()
        for sent in presses:
            shown = sent.message.content if sent.message is not None else ""
            texts = [shown] + [m.content for m in sent.followups]
            assert any(t and t != "" for t in texts), (sent.callbacks, texts)
            if any("⚠️" in t for t in texts):  # the service's outage text, in the member's language
                outage = {"⚠️ " + error_text("store_unavailable", lang) for lang in ("en", "es")}
                assert any(t in outage for t in texts), texts
    finally:
        admin.execute_command("CLIENT", "UNPAUSE")
        admin.close()
    await asyncio.sleep(0.2)
    assert not [r for r in server.refusals if r[1] == 40060]
    # The game goes on afterwards.
    before = await driver.table()
    assert before is not None
    for _ in range(4):
        now = await driver.table()
        assert now is not None and now.game is not None
        if now.phase != "playing":
            break
        member = driver.member_of(now.seats[now.game.turn].id)
        assert member is not None
        await driver.turn(member)
    after = await driver.table()
    assert after is not None and after.version > before.version


async def test_a_public_command_that_fails_under_a_slow_store_leaves_no_placeholder(
        server: DiscordAPIServer, redis_server: RedisServer, bot: BotProcess) -> None:
    """/uno new answers in public, so a slow store makes the bot defer it with
    a public "thinking..." placeholder. When the store then fails, the
    outage is told to the member alone and that placeholder is deleted: it
    stayed in the channel, empty, for everyone (Discord ends such a message
    with "The application did not respond"). The command works once Redis does."""
    guild = next(iter(server.guilds.values()))
    ann = server.member("Ann", locale="es-ES")
    driver = TableDriver(server, bot, guild.channels[0], [ann])
    admin = redis.Redis.from_url(redis_server.url)
    admin.execute_command("CLIENT", "PAUSE", 6000, "WRITE")  # past the store's timeout and its one retry
    try:
        sent = await server.slash(ann, guild.channels[0], "uno", "new")
        await server.answer(sent, timeout=4.0)
        assert sent.answer_seconds is not None and sent.answer_seconds < 3.0, sent.answer_seconds
        await asyncio.sleep(6.5)  # the store gives up meanwhile
        await bot.idle()
    finally:
        admin.execute_command("CLIENT", "UNPAUSE")
        admin.close()
    assert [m.content for m in sent.followups] == ["⚠️ " + error_text("store_unavailable", "es")]
    assert all(m.ephemeral for m in sent.followups)
    assert server.channel_messages(driver.channel) == [], [m.content for m in server.channel_messages(driver.channel)]
    await driver.slash(ann, "new")  # the store is back: the game opens, with its status message
    table = await driver.table()
    status = driver.status_message()
    assert table is not None and status is not None and table.adapter.get("status") == status.id


async def test_status_edits_are_paced_and_the_latest_state_wins(
        server: DiscordAPIServer, redis_server: RedisServer, prefix: str, make_bot: list[BotProcess]) -> None:
    interval = 0.5
    bot = await start(server, redis_server, prefix, make_bot,
                      options=dataclasses.replace(FAST, status_interval=interval))
    guild = next(iter(server.guilds.values()))
    ann = server.member("Ann")
    others = [server.member(f"P{i}") for i in range(6)]
    driver = TableDriver(server, bot, guild.channels[0], [ann, *others])
    await driver.slash(ann, "new")
    status = driver.status_message()
    assert status is not None
    before = len(status.versions)
    burst = [await server.component(m, status, next(cid for _, cid in status.custom_ids() if action_of(cid) == "j"))
             for m in others]  # six joins at once, each its own outcome
    for sent in burst:
        await server.answer(sent)
    await bot.idle()
    table = await driver.table()
    assert table is not None and len(table.seats) == 7
    edits = [t for t, via in status.edits[before - 1:] if via == "channel"]
    assert 1 <= len(edits) < len(burst), len(edits)  # coalesced
    assert all(b - a_ >= interval * 0.9 for a_, b in zip(edits, edits[1:], strict=False)), edits
    assert all(m.name in status.content for m in others)  # the newest state is the one shown
    assert Options().status_interval >= 1.0  # Discord's budget: about 5 edits in 5 s a channel


class QuickDriver(TableDriver):
    """Members who press as soon as the bot answered, not waiting for the
    status message to catch up (but reading it when they need its buttons)."""

    async def settle(self, sent: Sent) -> Sent:
        await self.server.answer(sent)
        await self.bot.idle(status=False)
        return sent

    async def press_status(self, member: Member, action: str) -> Sent:
        if action != "hand":  # "My cards" is there all round long
            await self.bot.idle()
        return await super().press_status(member, action)


async def test_a_fast_games_status_edits_are_coalesced(
        server: DiscordAPIServer, redis_server: RedisServer, prefix: str, make_bot: list[BotProcess]) -> None:
    """Members who press faster than the channel's budget: the status
    message is edited at most once an interval, with one edit in flight,
    the states in between are skipped, and the last one is shown."""
    interval = 0.4
    bot = await start(server, redis_server, prefix, make_bot,
                      options=dataclasses.replace(FAST, status_interval=interval))
    guild = next(iter(server.guilds.values()))
    driver = QuickDriver(server, bot, guild.channels[0], three(server))
    await short_games(driver, scoring="target=100")
    await lobby_and_start(driver, "official")
    await bot.idle()
    status = driver.status_message()
    assert status is not None
    first = len(status.versions)
    service = driver.service
    handle = service.handle
    changed = 0

    async def counted(chat: str, person: c.Person, command: c.Command) -> Outcome:
        nonlocal changed
        result = await handle(chat, person, command)
        changed += bool(result.ok and result.changed and chat == driver.chat)
        return result

    service.handle = counted  # type: ignore[method-assign]  # counts what the service did; changes nothing
    await driver.play()
    await bot.idle()
    edits = [t for t, via in status.edits[first - 1:] if via == "channel"]
    assert "wins the match" in status.content, status.content  # the newest state is the one shown
    assert all(b - a_ >= interval * 0.9 for a_, b in zip(edits, edits[1:], strict=False)), edits
    assert changed > 10 and len(edits) < changed * 0.8, (len(edits), changed)  # coalesced
