"""The situations through Telegram: the hand as inline results, the pick as the move.

Each situation gets its own group and people; the rules are the chat's
settings (set through the service as an admin), the deal is laid in the
store before the hand is opened. The inline results must be the model's
menu for that person, in its order (each result's code decodes to the
action's command; the cards not playable now follow, greyed), and the game
stored after picking the model's action must be the model's own result.
"""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from tests.botapi import BotAPIServer
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
from tests.support.redis_server import RedisServer
from tests.telegram.driver import BotProcess, TableDriver
from unobot.adapters.telegram import inline_results, keyboards
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
_users = itertools.count(1000, 10)


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def telegram(redis_server: RedisServer) -> AsyncIterator[tuple[BotAPIServer, BotProcess]]:
    async with BotAPIServer() as server:
        bot = await BotProcess(server, redis_server.url, new_prefix("tg")).start()
        yield server, bot
        await bot.stop()
        assert server.errors == [], "the local Bot API server crashed while handling a request"


async def laid_out(server: BotAPIServer, bot: BotProcess, s: Situation) -> tuple[TableDriver, Table]:
    """A group playing `s`: its rules on, its people seated, its deal laid."""
    base = next(_users)
    people = [server.user(base + i, NAMES[i]) for i in range(len(s.hands))]
    driver = TableDriver(server, bot, server.group(title=s.name), people, check_privacy=False)
    assert bot.service is not None
    for command in rule_commands(s.rules):
        out = await bot.service.handle(driver.chat, ADMIN, command)
        assert out.ok, out.error
    await driver.command(people[0], "/new", s.variant)
    for other in people[1:]:
        await driver.press(other, keyboards.JOIN)
    await driver.press(people[0], keyboards.START)

    def rig(table: Table) -> list[str]:
        lay(table, s)
        return []

    table = await bot.service.mutate(driver.chat, rig)
    assert table is not None
    return driver, table


@pytest.mark.parametrize("s", SITUATIONS, ids=str)
async def test_telegram_offers_the_model_and_reaches_its_state(
        telegram: tuple[BotAPIServer, BotProcess], s: Situation) -> None:
    server, bot = telegram
    driver, table = await laid_out(server, bot, s)
    actor = driver.players[s.actor]
    person = str(actor["id"])
    menu = actions.menu(table, person, table.lang)
    wanted = s.pick(menu)
    assert wanted is not None, f"{s.name}: the model offers no such action: {[a.id for a in menu.actions]}"

    results = await driver.hand(actor)
    choices = [inline_results.decode(r["id"]) for r in results]
    assert all(ch is not None and ch.chat == driver.chat and ch.version == table.version and ch.user == person
               for ch in choices), [r["id"] for r in results]
    moves = [ch for ch in choices if ch is not None and inline_results.is_move(ch.code)]
    offered = menu.of(actions.TURN, actions.CARD, actions.OUT_OF_TURN)
    # The offer is the model's: one result per action, in its order, each one its command.
    assert [inline_results.command_of(ch, table) for ch in moves] == [a.command for a in offered]
    assert [r["title"] for r in results[:len(offered)]] == [a.label for a in offered]
    greyed = [ch.code[1:] for ch in choices if ch is not None and ch.code.startswith(inline_results.UNPLAYABLE)]
    assert greyed == [hc.card.text for hc in actions.unplayable(menu.hand)]

    pick = next(r["id"] for r, ch in zip(results, choices, strict=True)
                if ch is not None and inline_results.is_move(ch.code)
                and inline_results.command_of(ch, table) == wanted.command)
    await driver.choose(actor, pick)
    after = await driver.table()
    assert after is not None
    expected = reference(table, c.Person(person, NAMES[s.actor]), wanted.command, bot.clock() if bot.clock else 0.0)
    assert after.version == table.version + 1, "the pick was not taken"
    assert game_of(after) == game_of(expected)


async def test_telegram_offers_play_again_after_the_match_as_the_model_does(
        telegram: tuple[BotAPIServer, BotProcess]) -> None:
    """The match's last card: its message offers the model's public actions (Play
    again), and a press seats everyone again as the model says."""
    server, bot = telegram
    s = MATCH_OVER
    driver, table = await laid_out(server, bot, s)
    actor = driver.players[s.actor]
    wanted = s.pick(actions.menu(table, str(actor["id"]), table.lang))
    assert wanted is not None
    results = await driver.hand(actor)
    pick = next(r["id"] for r in results if (ch := inline_results.decode(r["id"])) is not None
                and inline_results.is_move(ch.code) and inline_results.command_of(ch, table) == wanted.command)
    await driver.choose(actor, pick)
    await bot.idle()
    assert bot.service is not None
    final = await last_match(bot.service, driver.chat)
    assert final is not None
    message = driver.message_with(keyboards.again(final.match))
    assert message is not None
    offered = [b["text"] for b in server.buttons(driver.group, message["message_id"])
               if str(b.get("callback_data", "")).startswith("g:")]
    assert offered == again_offer(final)
    await driver.press(driver.players[1], keyboards.again(final.match))
    replayed(await driver.table(), final)


@pytest.mark.parametrize("s", MANAGED, ids=str)
async def test_telegram_leaves_and_stops_as_the_model_does(telegram: tuple[BotAPIServer, BotProcess],
                                                           s: Situation) -> None:
    """/leave and /stop (the creator's), offered to whom the model offers them, end what the model ends."""
    server, bot = telegram
    driver, table = await laid_out(server, bot, s)
    actor = driver.players[s.actor]
    person = c.Person(str(actor["id"]), NAMES[s.actor])
    assert s.pick(actions.menu(table, person.id)) is not None, "the model offers it"
    await driver.command(actor, "/stop" if s.name == "stop" else "/leave")
    managed_result(await driver.table(), s, table, person)


@pytest.mark.parametrize("s", TIMED, ids=str)
async def test_telegram_lets_the_turn_timer_run_out(telegram: tuple[BotAPIServer, BotProcess], s: Situation) -> None:
    """Nobody acts: the bot's own wake (on its clock, moved on) times the turn out as the model does."""
    server, bot = telegram
    driver, table = await laid_out(server, bot, s)
    # The timer planned at the start is the dealt table's (laying the deal made it stale):
    # plan the laid table's, as the adapter plans after every move.
    from unobot.adapters.telegram.runtime import KEY

    bot.app.bot_data[KEY].waker.after(int(driver.chat), table)
    await bot.advance(TIMER_SECONDS + 1)
    after = await driver.table()
    assert after is not None and after.version > table.version, "the timer did not ring"
    assert game_of(after) == game_of(timed_out(table))


async def _admin_group(server: BotAPIServer, bot: BotProcess, title: str) -> tuple[TableDriver, dict[str, object]]:
    admin = server.user(next(_users), "Ann")
    group = server.group(title=title)
    server.set_status(group, admin, "creator")
    driver = TableDriver(server, bot, group, [admin], check_privacy=False)
    await driver.command(admin, "/rules")
    return driver, admin


@pytest.mark.parametrize("rule", house_rules())
async def test_telegram_turns_each_house_rule_on(telegram: tuple[BotAPIServer, BotProcess], rule: str) -> None:
    """/rules offers a switch for every house rule; pressing it sets what the model's SetRule sets."""
    server, bot = telegram
    driver, admin = await _admin_group(server, bot, rule)
    # A shared rule it conflicts with (challenge, for no-bluffing) is switched off first.
    off = [other for other in available_rules()[rule].conflicts if available_rules()[other].base]
    for other in off:
        await driver.press(admin, keyboards.RULE_OFF + rule_ref(other))
    await driver.press(admin, keyboards.RULE_ON + rule_ref(rule))
    assert bot.service is not None
    got = (await bot.service.settings(driver.chat)).get("rules") or {}
    assert got == await rules_after([*(c.SetRule(rule=other, enabled=False) for other in off),
                                     c.SetRule(rule=rule, enabled=True)])
    assert rule in got


@pytest.mark.parametrize(("rule", "option", "value"), OPTIONS, ids=[f"{r}.{o}" for r, o, _ in OPTIONS])
async def test_telegram_sets_an_option_of_each_kind(telegram: tuple[BotAPIServer, BotProcess], rule: str,
                                                    option: str, value: object) -> None:
    """A bool switch, a number's step, a Literal's choice: the same rules as the model's SetRule."""
    server, bot = telegram
    driver, admin = await _admin_group(server, bot, f"{rule}.{option}")
    await driver.press(admin, keyboards.RULE_ON + rule_ref(rule))
    await driver.press(admin, keyboards.OPTIONS + key_of(rule))
    cls = available_rules()[rule]
    index, spec = next((i, s) for i, s in enumerate(option_specs(cls)) if s.name == option)
    prefix = f"{keyboards.SET_OPTION}{key_of(rule)}:{index}:"
    if spec.type is bool:
        data = prefix + encode_value(spec, value)
    elif spec.choices is not None:
        data = prefix + str(spec.choices.index(value))
    else:
        data = prefix + str(value)
    await driver.press(admin, data)
    assert bot.service is not None
    got = (await bot.service.settings(driver.chat)).get("rules") or {}
    assert got == await rules_after([c.SetRule(rule=rule, enabled=True),
                                     c.SetRule(rule=rule, option=option, value=value)])
    assert got[rule] == {option: value}
