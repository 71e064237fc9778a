"""The situations through the console: `unobot play --resume` in a pty, typed lines.

The console's person always sits at seat 0 with AI seats after them, so
each situation is turned round to put the person who acts there
(`situations.rotated`). Its deal is laid in the store (a shared Redis, a
login name of its own per situation, so each is a game of its own), the
console takes it up, and:

- the offer: the cards marked playable (●) are the cards of the model's
  plays, and the words it lists to type (a plugin's move text, draw, dp,
  pass, uno, challenge, catch; out of turn: jump in, catch, uno, a plugin's
  move) are the model's other actions;
- the result: once the console asks its next question, the stored game is
  the model's own result of that action on the laid table (AI seats moved
  on as the service moves them, the same way for the same seed).
"""

from __future__ import annotations

import asyncio
import itertools
import re
import time
from collections.abc import Iterator

import pexpect
import pytest

from tests.conformance.situations import (
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
    reference,
    replayed,
    rotated,
    rules_after,
    timed_out,
)
from tests.console.helpers import ROOT, Stage, clean, env, spawn, stage_game
from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import actions
from unobot.chat import commands as c
from unobot.chat.lobby import last_match
from unobot.chat.render import card_name, color_name
from unobot.chat.service import ChatService
from unobot.chat.table import PLAYING, Table
from unobot.config import load_config

_logins = itertools.count(1)
#: The words the console lists for the model's action kinds (English).
WORDS = {"draw": "draw", actions.DRAW_PLAY: "dp", "pass": "pass", "uno": "uno", "challenge": "challenge"}


@pytest.fixture
def login(monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    name = f"conformance{next(_logins)}"
    monkeypatch.setenv("LOGNAME", name)  # the console's person and chat: console.<login>
    yield name


async def _store(url: str) -> RedisStore:
    return RedisStore.from_url(url, prefix=load_config(ROOT / "config.yaml", environ=env()).store.prefix)


async def relay(url: str, chat: str, s: Situation) -> Table:
    """Lay `s` on the console's staged table, in the store."""
    store = await _store(url)
    try:
        game_id = await store.chat_game(chat)
        assert game_id is not None
        stored = await store.load_game(game_id)
        assert stored is not None
        table = Table.decode(stored.state, stored.version)
        lay(table, s)
        table.version += 1
        await store.save_game(game_id, table.encode(), expected_version=stored.version)
        return Table.decode(table.encode(), stored.version + 1)
    finally:
        await store.close()


async def stored(url: str, chat: str) -> Table:
    store = await _store(url)
    try:
        game_id = await store.chat_game(chat)
        assert game_id is not None
        saved = await store.load_game(game_id)
        assert saved is not None
        return Table.decode(saved.state, saved.version)
    finally:
        await store.close()


def offered(screen: str) -> tuple[set[str], set[str]]:
    """What the console shows: the names of the cards marked playable, and the words to type."""
    hand = screen.rsplit("Your hand", 1)[-1]
    playable = {name.strip() for name in re.findall(r"\d+ ● +\S+ +(.+?)(?= {3,}\d+ [●○]|\n|$)", hand)}
    words: set[str] = set()
    if "Or: " in screen:
        listed = " ".join(screen.rsplit("Or: ", 1)[1].split("\n")[:3])
        words = {part.rsplit(" (", 1)[0].strip() for part in listed.split("  ·  ") if part.strip()}
    if "out of turn:" in screen:
        for line in screen.rsplit("out of turn:", 1)[1].splitlines():
            line = line.strip()
            if jump := re.match(r"jump in with \d+: +\S+ +(.+)", line):
                playable.add(jump.group(1).strip())
            elif line and not line.startswith(("Press Enter", "Enter to continue")):
                words.add(line.rsplit(" (", 1)[0].strip())
    return playable, words


def model_offer(table: Table, person: str) -> tuple[set[str], set[str]]:
    """The model's menu in the console's terms: card names of the plays, and words of the rest."""
    menu = actions.menu(table, person, "en")
    cards = {card_name(a.card, "en") for a in menu.actions if a.kind == "play" and a.card is not None}
    words: set[str] = set()
    for a in menu.actions:
        if isinstance(a.command, c.PluginMove):  # a target by its name, as a catch's
            words.add((a.command.text.removesuffix(f"@{a.target}") + table.seats[a.target].name
                       if a.target is not None else a.command.text) + (" uno" if a.command.uno else ""))
        elif a.kind == "catch":
            words.add("catch " + (table.seats[a.target].name if a.target is not None else ""))
        elif a.kind in WORDS and not (a.kind == "uno" and a.group == actions.TURN and menu.hand and menu.hand.is_turn):
            words.add(WORDS[a.kind])
        elif a.kind == "uno":
            words.add("uno")
    return cards, words


def typed(table: Table, action: actions.Action) -> str:
    """The line a person types for `action`, as the console's help says."""
    cmd = action.command
    if isinstance(cmd, c.Play):
        line = cmd.card
        if cmd.color:
            line += " " + color_name(action.color or "", "en")
        if action.target is not None:
            line += " " + table.seats[action.target].name.split()[0]
        return line + (" uno" if cmd.uno else "")
    if isinstance(cmd, c.Draw):
        return "dp" if cmd.then_play else "draw"
    if isinstance(cmd, c.PluginMove):  # a target by the first word of its name ("Ada" of "Ada (AI)")
        if action.target is not None:
            return (cmd.text.removesuffix(f"@{action.target}") + table.seats[action.target].name.split()[0]
                    + (" uno" if cmd.uno else ""))
        return cmd.text + (" uno" if cmd.uno else "")
    if isinstance(cmd, c.Catch):
        return "catch"
    if isinstance(cmd, c.Challenge):
        return "challenge"
    raise AssertionError(f"no typed form for {action.id}")


def rule_args(s: Situation) -> tuple[str, ...]:
    """The situation's rules as `--rule` reads them: each turned on (or off, `false`),
    then its options, so a situation's option (a hand limit of 2) is the console's too."""
    args = [rule if opts is not False else f"{rule}=false" for rule, opts in s.rules.items() if not opts]
    args += [f"{rule}.{option}={str(value).lower() if isinstance(value, bool) else value}"
             for rule, opts in s.rules.items() if opts for option, value in opts.items()]
    return tuple(args)


@pytest.mark.parametrize("s", SITUATIONS, ids=str)
def test_console_offers_the_model_and_reaches_its_state(redis_server: RedisServer, login: str,
                                                        s: Situation) -> None:
    s = rotated(s)
    chat = f"console.{login}"
    stage_game(redis_server.url, Stage(s.hands, s.top, turn=s.turn), lang="en", variant=s.variant,
               rules=rule_args(s), rounds=None)
    table = asyncio.run(relay(redis_server.url, chat, s))
    person = table.seats[0].id
    wanted = s.pick(actions.menu(table, person, "en"))
    assert wanted is not None
    child = spawn("--store", redis_server.url, "--resume", "--delay", "0", "--name", "Tess", "--lang", "en",
                  LOGNAME=login)
    try:
        if s.wild_starter:  # the model offers only the four colours; the console asks one at once
            child.expect(r"› ")
            screen = clean(child.before)
            assert {a.kind for a in actions.menu(table, person).actions} == {"color"}
            assert "you name its colour" in screen, screen[-1500:]
            child.sendline(color_name(wanted.color or "", "en"))
        else:
            child.expect(r"› ")
            screen = clean(child.before)
            assert offered(screen) == model_offer(table, person), screen[-1500:]
            child.sendline(typed(table, wanted))
        i = child.expect([r"› ", pexpect.EOF])
        after_screen = clean(child.before)
        assert "✗" not in after_screen, after_screen[-1500:]
        after = asyncio.run(stored(redis_server.url, chat))
        expected = reference(table, c.Person(person, "Tess"), wanted.command, 0.0)
        assert game_of(after) == game_of(expected), after_screen[-1500:]
        if i == 0:
            child.sendline("quit")
            child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


async def _last_match(url: str, chat: str) -> Table | None:
    store = await _store(url)
    try:
        return await last_match(ChatService(store), chat)
    finally:
        await store.close()


def test_console_asks_to_play_again_as_the_model_offers_it(redis_server: RedisServer, login: str) -> None:
    """The match's last card: the console, one person's, asks "Play again?" in the
    words of the model's Play again, and a yes deals the next game seated as the
    match was (the AI seats at their levels), its variant."""
    s = rotated(MATCH_OVER)
    chat = f"console.{login}"
    options = [f"{rule}.{option}={value}" for rule, opts in s.rules.items() for option, value in opts.items()]
    stage_game(redis_server.url, Stage(s.hands, s.top, turn=s.turn), lang="en", variant=s.variant,
               rules=tuple(options), rounds=None)
    table = asyncio.run(relay(redis_server.url, chat, s))
    wanted = s.pick(actions.menu(table, table.seats[0].id, "en"))
    assert wanted is not None
    child = spawn("--store", redis_server.url, "--resume", "--delay", "0", "--name", "Tess", "--lang", "en",
                  LOGNAME=login)
    try:
        child.expect(r"› ")
        child.sendline(typed(table, wanted))
        for _ in range(20):  # Enter at each pause, up to the question
            child.expect(r"› ")
            label = clean(child.before).rsplit("\n", 1)[-1].strip()
            if "Play again" in label:
                break
            child.sendline("")
        final = asyncio.run(_last_match(redis_server.url, chat))
        assert final is not None
        assert [label.split(" [")[0]] == [a.removeprefix("🔁 ") + "?" for a in again_offer(final, "en")], label
        child.sendline("y")
        child.expect(r"› ")
        replayed(asyncio.run(stored(redis_server.url, chat)), final, phase=PLAYING)
        child.sendline("quit")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


@pytest.mark.parametrize("s", TIMED, ids=str)
def test_console_lets_the_turn_timer_run_out(redis_server: RedisServer, login: str, s: Situation) -> None:
    """The person types nothing: once their turn timer runs out the console times
    the turn out as the model does (the AI seats then move on as the service moves them)."""
    s = rotated(s)
    chat = f"console.{login}"
    stage_game(redis_server.url, Stage(s.hands, s.top, turn=s.turn), lang="en", variant=s.variant,
               rules=rule_args(s), rounds=None)
    table = asyncio.run(relay(redis_server.url, chat, s))
    child = spawn("--store", redis_server.url, "--resume", "--delay", "0", "--name", "Tess", "--lang", "en",
                  LOGNAME=login)
    try:
        child.expect(r"› ")  # the first question: the move, or a Wild starter's colour
        after = table
        for _ in range(int((TIMER_SECONDS + 10) / 0.1)):  # nothing typed
            got = asyncio.run(stored(redis_server.url, chat))
            if got.version > table.version:
                after = got
                break
            time.sleep(0.1)
        assert after.version > table.version, "the turn timer did not run out: " + clean(child.before)[-800:]
        assert game_of(after) == game_of(timed_out(table))
        # No `quit`: typed while the AI seats move it is dropped (as typing then is), and the
        # next turn's 2 seconds may run out before it lands; the game is put away as it is.
    finally:
        child.close(force=True)


async def console_rules(args: list[str], user: str) -> dict[str, object]:
    """The chat's rules once the console has set up a game with `--rule` ARGS
    (its own app and argument reading; the person leaves at the first prompt)."""
    import io

    from rich.console import Console

    from unobot.adapters.console.app import ConsoleApp, Options, make_service
    from unobot.cli import parse_rule_overrides
    from unobot.store import MemoryStore

    class Leave:
        def read(self, prompt: object, timeout: float | None = None) -> str | None:
            raise EOFError

    store = MemoryStore()
    options = Options(overrides=parse_rule_overrides(args), seed=1, lang="en", delay=0, name="Tess", user=user,
                      persistent=False, explicit_lang=True)
    out = io.StringIO()
    await ConsoleApp(make_service(store, options), options, Console(file=out, width=100),
                     reader=Leave()).run()  # type: ignore[arg-type]
    rules = (await store.get_chat_settings(options.chat_id)).get("rules") or {}
    assert isinstance(rules, dict), out.getvalue()
    return rules


@pytest.mark.parametrize("rule", house_rules())
async def test_console_turns_each_house_rule_on(rule: str) -> None:
    """`--rule NAME` sets what the model's SetRule sets (a shared rule it conflicts with off first)."""
    from unobot.registry import available_rules

    off = [other for other in available_rules()[rule].conflicts if available_rules()[other].base]
    got = await console_rules([*(f"{other}=false" for other in off), rule], f"rule-{rule}")
    assert got == await rules_after([*(c.SetRule(rule=other, enabled=False) for other in off),
                                     c.SetRule(rule=rule, enabled=True)])
    assert rule in got


@pytest.mark.parametrize(("rule", "option", "value"), OPTIONS, ids=[f"{r}.{o}" for r, o, _ in OPTIONS])
async def test_console_sets_an_option_of_each_kind(rule: str, option: str, value: object) -> None:
    """`--rule NAME.OPTION=VALUE` for a bool, a number and a Literal: the same rules as the model's SetRule."""
    text = str(value).lower() if isinstance(value, bool) else str(value)
    got = await console_rules([f"{rule}.{option}={text}"], f"option-{rule}")
    assert got == await rules_after([c.SetRule(rule=rule, enabled=True),
                                     c.SetRule(rule=rule, option=option, value=value)])
    assert got[rule] == {option: value}
