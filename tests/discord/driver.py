"""Drive the Discord adapter end to end: a bot process and members who play like people.

`BotProcess` is one bot process: the real `UnoBot` (a discord.py client)
logged in to the local `DiscordAPIServer` over HTTP and its websocket
gateway, with a RedisStore on a real redis-server.

`TableDriver` plays a game in a channel the way members do: it presses
"My cards" on the status message, reads the ephemeral answer only that
member sees, and picks from it: a card with UNO when offered, else UNO, a
challenge now and then, a catch when offered, else a playable card from the
select menu (then a colour or target button when asked), else "draw, and
play it if it fits", else draw, else pass. After every step it checks that
no public message (any version of it) names a card hidden in a hand.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.discord_api import DiscordAPIServer, Member, Message, Sent
from tests.support.privacy import mentions
from unobot.adapters.discord.bot import Options, UnoBot, chat_id
from unobot.adapters.discord.cli import use_api
from unobot.adapters.discord.place import settings_followers, settings_places
from unobot.adapters.redis_store import RedisStore
from unobot.chat.commands import Person
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS, FINISHED, PLAYING, Table

FAST = Options(continue_delay=0.05, timer_grace=0.1, status_interval=0.02, clock_poll=0.05)
ADMIN = Person("setup", "Setup", None, True)


class BotProcess:
    def __init__(self, server: DiscordAPIServer, redis_url: str, prefix: str, *,
                 options: Options = FAST, seed: int | None = 7,
                 clock: Callable[[], float] | None = None, store_options: dict[str, Any] | None = None,
                 shard: tuple[int, int] | None = None) -> None:
        self.server = server
        #: More RedisStore settings (wait_replicas, timeouts), as a config's redis section gives them.
        self.store_options = dict(store_options or {})
        #: (shard id, shard count), as `unobot discord --shard I --shards N` gives them.
        self.shard = shard
        #: The service's clock (None: the wall clock); a test may stop and move it.
        self.clock = clock
        self.redis_url = redis_url
        self.prefix = prefix
        self.options = options
        self.seed = seed
        self.store: RedisStore | None = None
        self.service: ChatService | None = None
        self.client: UnoBot | None = None
        self._run: asyncio.Task[None] | None = None

    async def start(self) -> BotProcess:
        use_api(self.server.base_url, self.server.gateway_url)
        self.store = RedisStore.from_url(self.redis_url, prefix=self.prefix, **self.store_options)
        rng = random.Random(self.seed) if self.seed is not None else None
        self.service = ChatService(self.store, settings_from=settings_places, settings_followers=settings_followers,
                                   rng=rng, **({"clock": self.clock} if self.clock else {}))
        self.client = UnoBot(self.service, options=self.options, shard_id=self.shard[0] if self.shard else None,
                             shard_count=self.shard[1] if self.shard else None)
        before = len([s for s in self.server.sessions if s.ready])
        self._run = asyncio.create_task(self.client.start(self.server.token))
        await asyncio.wait_for(self._ready(before), 30)  # a login on a loaded machine may take seconds
        await client_idle(self.client)
        return self

    async def _ready(self, before: int) -> None:
        assert self.client is not None
        while len([s for s in self.server.sessions if s.ready]) <= before or not self.client.is_ready():
            if self._run is not None and self._run.done():
                self._run.result()
            await asyncio.sleep(0.01)

    async def stop(self) -> None:
        if self.client is not None:
            await self.client.close()
            self.client = None
        if self._run is not None:
            await asyncio.gather(self._run, return_exceptions=True)
            self._run = None
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def idle(self, status: bool = True) -> None:
        assert self.client is not None
        await client_idle(self.client, status=status)




async def client_idle(client: UnoBot, timeout: float = 10.0, *, status: bool = True) -> None:
    """Wait until the bot handles no interaction, runs no short task (AI pauses
    included; turn timers and lobby expiry excluded) and, with `status`, has
    sent every channel's newest status."""
    end = time.monotonic() + timeout

    def quiet() -> bool:
        return client._busy == 0 and not any(not t.done() for t in client._tasks) and \
            not client.timers.busy() and not (status and (client.pacer.pending or client.panels.pacer.pending))

    while True:
        await asyncio.sleep(0)
        if quiet():
            await asyncio.sleep(0.01)
            if quiet():
                return
            continue
        if time.monotonic() > end:
            raise TimeoutError(f"bot still busy: {client._busy} handlers, {len(client._tasks)} tasks")
        await asyncio.sleep(0.005)


@dataclass
class Stats:
    steps: int = 0
    moves: int = 0
    refusals: int = 0
    rounds: int = 0
    checked: int = 0
    verbs: list[str] = field(default_factory=list)
    pickers: int = 0


class TableDriver:
    """Members in one channel, playing through buttons, selects and ephemeral hands."""

    def __init__(self, server: DiscordAPIServer, bot: BotProcess, channel: int, members: list[Member],
                 *, seed: int = 1) -> None:
        self.server = server
        self.bot = bot
        self.channel = channel
        self.chat = chat_id(server.channel_guild[channel], channel)
        self.members = members
        self.rng = random.Random(seed)
        self.stats = Stats()
        self.public: set[str] = set()
        self._checked_versions: dict[int, int] = {}
        #: More bot processes on the same store: interactions go to each in turn.
        self.others: list[BotProcess] = []
        self._turn = 0

    def _session(self) -> int | None:
        if not self.others:
            return None
        self._turn += 1
        return self._turn

    @property
    def service(self) -> ChatService:
        assert self.bot.service is not None
        return self.bot.service

    async def table(self) -> Table | None:
        return await self.service.table(self.chat)

    async def settle(self, sent: Sent) -> Sent:
        await self.server.answer(sent)
        for bot in [self.bot, *self.others]:
            await bot.idle()
        return sent

    async def slash(self, member: Member, sub: str, **options: object) -> Sent:
        return await self.settle(await self.server.slash(member, self.channel, "uno", sub,
                                                        session=self._session(), **options))

    def status_message(self) -> Message | None:
        """The newest public message with the game's buttons (else the newest of all)."""
        shown = self.server.channel_messages(self.channel)
        with_buttons = [m for m in shown if any(cid.startswith("u|") for _, cid in m.custom_ids())]
        return with_buttons[-1] if with_buttons else shown[-1] if shown else None

    async def press(self, member: Member, message: Message, custom_id: str,
                    values: list[str] | None = None) -> Sent:
        return await self.settle(await self.server.component(member, message, custom_id, values,
                                                             session=self._session()))

    async def pick(self, member: Member, message: Message, entry: str) -> Sent:
        """Press a button (`custom_id`) or pick a select's option (`custom_id=value`)."""
        base, _, value = entry.partition("=")
        return await self.press(member, message, base, [value] if value else None)

    async def press_status(self, member: Member, action: str) -> Sent:
        """Press the status message's button of an action id (`j` join, `g`
        start, `n` next round, `l` leave, `r` play again: of the match it names), or `hand` for "My cards"."""
        msg = self.status_message()
        assert msg is not None, "no status message"
        if action == "hand":
            return await self.press(member, msg, "u|hand")
        cid = next((cid for _, cid in msg.custom_ids() if action_of(cid) == action
                    or (action == "r" and action_of(cid).startswith("r"))), None)
        assert cid is not None, f"no {action!r} on the status message: {msg.custom_ids()}"
        return await self.press(member, msg, cid)

    async def add_ai(self, member: Member, level: str | None = None) -> Sent:
        """The status message's "Add an AI player": its level picker, then a level."""
        msg = self.status_message()
        assert msg is not None
        cid = next(cid for _, cid in msg.custom_ids() if cid.startswith("u|n|") and action_of(cid).startswith("a"))
        sent = await self.press(member, msg, cid)
        assert sent.message is not None and sent.message.viewer == member.id
        levels = [c for _, c in sent.message.custom_ids() if c.startswith("u|a|")]
        chosen = next((c for c in levels if level is None or action_of(c) == "a" + level), None)
        assert chosen is not None, levels
        return await self.press(member, sent.message, chosen)

    async def open_hand(self, member: Member) -> Message:
        sent = await self.press_status(member, "hand")
        assert sent.message is not None and sent.message.viewer == member.id, "the hand must be ephemeral"
        return sent.message

    # -- privacy -----------------------------------------------------------------------
    async def check_privacy(self, table: Table | None = None) -> None:
        """No public message, in any version since the last check, names a card
        hidden in a hand now (a card not on the discard pile or in recent moves)."""
        table = table or await self.table()
        if table is None or table.game is None:
            return
        game = table.game
        self.public.update(c.text for c in game.discard)
        self.public.update(r[2] for r in table.recent if r[2])
        hidden = [c for hand in game.hands for c in hand if c.text not in self.public]
        for msg in list(self.server.messages.values()):
            if msg.ephemeral:
                continue
            for content, components in msg.versions[self._checked_versions.get(msg.id, 0):]:
                texts = [content] + [str(x) for row in components for x in row.get("components", [])]
                for text in texts:
                    for card in hidden:
                        assert not mentions(text, card), f"public message names hidden {card.text}: {text!r}"
                assert not any("u|s|" in t or re.search(r"u\|a\|\d+\|p", t) for t in texts), \
                    "hand controls in public"
                self.stats.checked += 1
            self._checked_versions[msg.id] = len(msg.versions)

    # -- playing ------------------------------------------------------------------------
    def member_of(self, person_id: str) -> Member | None:
        return next((m for m in self.members if str(m.id) == person_id), None)

    async def play(self, max_steps: int = 600) -> Stats:
        for _ in range(max_steps):
            table = await self.table()
            if table is None or table.phase == FINISHED:
                return self.stats
            await self.check_privacy(table)
            self.stats.steps += 1
            if table.phase == BETWEEN_ROUNDS:
                self.stats.rounds += 1
                human = next(self.member_of(s.id) for s in table.seats if self.member_of(s.id))
                assert human is not None
                await self.press_status(human, "n")
                continue
            assert table.phase == PLAYING and table.game is not None
            seat = table.game.turn
            member = self.member_of(table.seats[seat].id)
            if member is None:  # an AI seat paused for a moment: let the bot's job run
                await asyncio.sleep(0.06)
                for bot in [self.bot, *self.others]:
                    await bot.idle()
                continue
            await self.turn(member)
        raise AssertionError("the game did not end")

    async def turn(self, member: Member) -> None:
        hand = await self.open_hand(member)
        entries = [cid for _, cid in hand.custom_ids()]
        acts = {action_of(cid): cid for cid in entries if cid.startswith(("u|a|", "u|n|", "u|s|"))}
        cards = [cid for cid in entries if cid.startswith("u|s|")]
        uno_cards = [cid for cid in cards if cid.endswith("!")]

        def first(*codes: str) -> str | None:
            return next((cid for code in codes for act, cid in acts.items() if act == code), None)

        catch = next((cid for act, cid in acts.items() if act.startswith("k")), None)
        colour = next((cid for act, cid in acts.items() if act.startswith("h")), None)
        choice = uno_cards[0] if uno_cards else first("u")
        if choice is None and "c" in acts and self.rng.random() < 0.5:
            choice = acts["c"]
        choice = choice or catch or colour
        if choice is None and cards:
            choice = self.rng.choice(cards)
        choice = choice or first("d+", "d", "s", "t")
        assert choice is not None, f"nothing to do in {hand.content!r} {entries}"
        sent = await self.pick(member, hand, choice)
        self.stats.verbs.append(verb_of(action_of(choice)))
        self.stats.moves += 1
        after = sent.message
        assert after is not None and after.id == hand.id, "the answer updates the same ephemeral message"
        if "⚠️" in after.content:
            self.stats.refusals += 1
        if action_of(choice).startswith("?") or choice.startswith("u|n|"):  # a colour or a target to choose
            picks = [cid for _, cid in after.custom_ids() if cid.startswith("u|a|")]
            assert picks, after.custom_ids()
            self.stats.pickers += 1
            sent = await self.press(member, after, self.rng.choice(picks))
            assert sent.message is not None and "⚠️" not in sent.message.content, sent.message.content


def action_of(entry: str) -> str:
    """The action id a button (`u|a|17|pR5`) or select option (`u|s|17|0=pR5`) carries."""
    base, _, value = entry.partition("=")
    if value:
        return value
    parts = base.split("|")
    return parts[3] if len(parts) >= 4 and parts[0] == "u" and parts[1] in ("a", "n") else ""


def verb_of(action_id: str) -> str:
    """What kind of action an id is: `p` play, `d` draw, `d+` draw and play, `u` UNO, ..."""
    code = action_id.lstrip("?")
    return "d+" if code.startswith("d+") else code[:1]
