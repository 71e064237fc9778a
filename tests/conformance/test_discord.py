"""The situations through Discord: a member's own panel ("My cards"), presses and picks.

Each situation gets its own channel and members; the rules are the
channel's settings (set through the service as an admin), the deal is laid
in the store before the panel is opened. The panel must offer the model's
menu for that member, grouped as the model groups it (the card select's
values and the buttons' ids are the actions' ids, in the model's order),
and the game stored after the model's action (a pick from a picker where
the action still needs one: a colour, a target) must be the model's own
result.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.conformance.conftest import new_prefix
from tests.conformance.situations import (
    MANAGED,
    MATCH_OVER,
    OPTIONS,
    SITUATIONS,
    TIMED,
    TIMER_SECONDS,
    Situation,
    again_offer,
    game_of,
    house_rules,
    lay,
    managed_result,
    reference,
    replayed,
    rule_commands,
    rules_after,
    timed_out,
)
from tests.discord.driver import BotProcess, TableDriver, action_of
from tests.discord_api import DiscordAPIServer, Member
from tests.support.redis_server import RedisServer
from unobot.chat import actions
from unobot.chat import commands as c
from unobot.chat.lobby import last_match
from unobot.chat.option_values import encode_value
from unobot.chat.settings_menu import key_of, rule_ref
from unobot.chat.table import Table
from unobot.registry import available_rules
from unobot.rule import option_specs

pytestmark = pytest.mark.asyncio(loop_scope="module")
ADMIN = c.Person("setup", "Setup", None, True)
NAMES = ("Ann", "Ben", "Cat", "Dan")


class World:
    """The server, the bot and the guild's channels, one for each test."""

    def __init__(self, server: DiscordAPIServer, bot: BotProcess, channels: list[int]) -> None:
        self.server, self.bot, self.channels = server, bot, iter(channels)

    def channel(self) -> int:
        return next(self.channels)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def discord(redis_server: RedisServer) -> AsyncIterator[World]:
    async with DiscordAPIServer() as server:
        guild = server.guild(channels=len(SITUATIONS) + len(TIMED) + len(MANAGED) + 1 + len(house_rules()) + len(OPTIONS))
        bot = await BotProcess(server, redis_server.url, new_prefix("dc")).start()
        yield World(server, bot, list(guild.channels))
        await bot.stop()
        assert server.errors == [], "the local Discord server met a request it does not model"


async def laid_out(world: World, s: Situation) -> tuple[TableDriver, Table]:
    members: list[Member] = [world.server.member(NAMES[i]) for i in range(len(s.hands))]
    driver = TableDriver(world.server, world.bot, world.channel(), members)
    for command in rule_commands(s.rules):
        out = await driver.service.handle(driver.chat, ADMIN, command)
        assert out.ok, out.error
    await driver.slash(members[0], "new", variant=s.variant)
    for other in members[1:]:
        await driver.press_status(other, "j")
    await driver.press_status(members[0], "g")

    def rig(table: Table) -> list[str]:
        lay(table, s)
        return []

    table = await driver.service.mutate(driver.chat, rig)
    assert table is not None
    return driver, table


@pytest.mark.parametrize("s", SITUATIONS, ids=str)
async def test_discord_offers_the_model_and_reaches_its_state(discord: World, s: Situation) -> None:
    driver, table = await laid_out(discord, s)
    member = driver.members[s.actor]
    person = str(member.id)
    menu = actions.menu(table, person, "en")
    wanted = s.pick(menu)
    assert wanted is not None, f"{s.name}: the model offers no such action: {[a.id for a in menu.actions]}"

    panel = await driver.open_hand(member)
    entries = [cid for _, cid in panel.custom_ids()]
    shown = [action_of(cid).lstrip("?") for cid in entries if action_of(cid)]
    grouped = menu.grouped()
    cards = [x.id for x in grouped if x.kind == "play"]
    assert shown == cards + [x.id for x in grouped if x.kind != "play"], entries
    assert all(f"|{table.version}|" in cid for cid in entries if action_of(cid)), entries

    parent = next((x for x in grouped if x.needs and wanted in x.choices), None)
    if parent is None:  # complete as it is: the card select's option, or the action's button
        entry = next(cid for cid in entries if action_of(cid) == wanted.id)
        await driver.pick(member, panel, entry)
    else:  # first the card (or the action), then the pick it needs, from its picker
        entry = next(cid for cid in entries if action_of(cid).lstrip("?") == parent.id)
        sent = await driver.pick(member, panel, entry)
        assert sent.message is not None and sent.message.viewer == member.id
        picks = [cid for _, cid in sent.message.custom_ids() if action_of(cid)]
        assert [action_of(cid) for cid in picks] == [x.id for x in parent.choices], picks
        await driver.pick(member, sent.message, next(cid for cid in picks if action_of(cid) == wanted.id))
    after = await driver.table()
    assert after is not None
    assert after.version == table.version + 1, "the pick was not taken"
    expected = reference(table, c.Person(person, NAMES[s.actor]), wanted.command, 0.0)
    assert game_of(after) == game_of(expected)


async def test_discord_offers_play_again_after_the_match_as_the_model_does(discord: World) -> None:
    """The match's last card: the status message offers the model's public actions
    (Play again), and a press seats everyone again as the model says."""
    s = MATCH_OVER
    driver, table = await laid_out(discord, s)
    member = driver.members[s.actor]
    wanted = s.pick(actions.menu(table, str(member.id), "en"))
    assert wanted is not None
    panel = await driver.open_hand(member)
    await driver.pick(member, panel, next(cid for _, cid in panel.custom_ids() if action_of(cid) == wanted.id))
    final = await last_match(driver.service, driver.chat)
    assert final is not None
    status = driver.status_message()
    assert status is not None and status.id == final.adapter.get("status")
    assert [label for label, cid in status.custom_ids() if action_of(cid)] == again_offer(final)
    await driver.press_status(driver.members[1], "r")
    replayed(await driver.table(), final)


@pytest.mark.parametrize("s", MANAGED, ids=str)
async def test_discord_leaves_and_stops_as_the_model_does(discord: World, s: Situation) -> None:
    """/uno leave and /uno stop (the creator's), offered to whom the model offers them, end what the model ends."""
    driver, table = await laid_out(discord, s)
    member = driver.members[s.actor]
    person = c.Person(str(member.id), NAMES[s.actor])
    assert s.pick(actions.menu(table, person.id)) is not None, "the model offers it"
    await driver.slash(member, "stop" if s.name == "stop" else "leave")
    managed_result(await driver.table(), s, table, person)


@pytest.mark.parametrize("s", TIMED, ids=str)
async def test_discord_lets_the_turn_timer_run_out(discord: World, s: Situation) -> None:
    """Nobody acts: the bot's own wake (on the wall clock) times the turn out as the model does."""
    import asyncio

    driver, table = await laid_out(discord, s)
    # The timer planned at the start is the dealt table's (laying the deal made it stale):
    # plan the laid table's, as the bot plans after every move.
    driver.bot.client.waker.after(driver.chat, table)
    after = table
    for _ in range(int((TIMER_SECONDS + 10) / 0.1)):
        await asyncio.sleep(0.1)
        got = await driver.table()
        if got is not None and got.version > table.version:
            after = got
            break
    assert after.version > table.version, "the timer did not ring"
    assert game_of(after) == game_of(timed_out(table))


async def _switch(driver: TableDriver, admin: Member, rule: str) -> None:
    """Pick `rule` in /uno rules' switch select, on whichever page of it lists the rule."""
    shown = await driver.slash(admin, "rules")
    message = shown.message
    for _page in range(1, 6):
        assert message is not None and message.components, "no rules to switch"
        entry = next((cid for _, cid in message.custom_ids() if cid.startswith("s|channel|#0=")
                      and cid.partition("=")[2].partition(":")[2] == rule_ref(rule)), None)
        if entry is not None:
            await driver.pick(admin, message, entry)
            return
        turn = next((cid for _, cid in message.custom_ids() if cid == f"s|channel|pr:{_page}"), None)
        assert turn is not None, f"{rule} is not on any page of /uno rules"
        message = (await driver.press(admin, message, turn)).message
    raise AssertionError(f"{rule} not found")


@pytest.mark.parametrize("rule", house_rules())
async def test_discord_turns_each_house_rule_on(discord: World, rule: str) -> None:
    """/uno rules offers every house rule; picking it sets what the model's SetRule sets."""
    admin = discord.server.member("Boss", manage_guild=True)
    driver = TableDriver(discord.server, discord.bot, discord.channel(), [admin])
    off = [other for other in available_rules()[rule].conflicts if available_rules()[other].base]
    for other in off:
        await _switch(driver, admin, other)
    await _switch(driver, admin, rule)
    got = (await driver.service.settings(driver.chat)).get("rules") or {}
    assert got == await rules_after([*(c.SetRule(rule=other, enabled=False) for other in off),
                                     c.SetRule(rule=rule, enabled=True)])
    assert rule in got


@pytest.mark.parametrize(("rule", "option", "value"), OPTIONS, ids=[f"{r}.{o}" for r, o, _ in OPTIONS])
async def test_discord_sets_an_option_of_each_kind(discord: World, rule: str, option: str, value: object) -> None:
    """A bool switch, a number's step, a Literal's choice: the same rules as the model's SetRule."""
    admin = discord.server.member("Boss", manage_guild=True)
    driver = TableDriver(discord.server, discord.bot, discord.channel(), [admin])
    await _switch(driver, admin, rule)
    shown = await driver.slash(admin, "rules")
    assert shown.message is not None
    index, spec = next((i, s) for i, s in enumerate(option_specs(available_rules()[rule])) if s.name == option)
    key = f"{key_of(rule)}:{index}"
    opener = next((cid for _, cid in shown.message.custom_ids()
                   if cid.startswith("s|channel|#1=") and cid.endswith(f"=o:{key}")), None)
    assert opener is not None, shown.message.custom_ids()
    sent = await driver.pick(admin, shown.message, opener)
    assert sent.message is not None
    setter = f"s|channel|s:{key}:{encode_value(spec, value)}"
    assert setter in [cid for _, cid in sent.message.custom_ids()], sent.message.custom_ids()
    await driver.press(admin, sent.message, setter)
    got = (await driver.service.settings(driver.chat)).get("rules") or {}
    assert got == await rules_after([c.SetRule(rule=rule, enabled=True),
                                     c.SetRule(rule=rule, option=option, value=value)])
    assert got[rule] == {option: value}
