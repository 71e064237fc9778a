"""Drive the Telegram adapter end to end: a bot process and players who play like people.

`BotProcess` is one bot process: the real Application from
`adapters.telegram.app`, long polling the local BotAPIServer, with a
RedisStore on a real redis-server. Two of them on one Redis are two bot
processes sharing games. Its time is a `FakeClock` (tests/telegram/clock.py)
shared by its ChatService and its job scheduler: no job runs until the test
moves the clock (`advance`), so a timer test waits no real second and a job
that fires early or late is caught (`real_time=True`: python-telegram-bot's
JobQueue on the wall clock, as in production; the benchmarks use it).

`TableDriver` plays a game in a group the way people do: it reads the
status message to see whose turn it is, opens that player's hand with an
inline query (what the "My cards" button does), and picks a result from
the bot's answer: a card played with UNO when offered, else UNO, a
challenge now and then, a catch when one is offered, else a playable card,
else "draw, and play it if it fits", else draw, else pass. After every
step it checks that no group message the bot sent or edited names a card
hidden in a hand: not one, including the messages after the match ended
(checked against the hands as they were at the end).
"""

from __future__ import annotations

import asyncio
import functools
import os
import random
import re
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from telegram.ext import AIORateLimiter

from tests.botapi import BotAPIServer, parse_html
from tests.support.privacy import mentions
from tests.telegram.clock import FakeClock, ManualScheduler
from unobot.adapters.redis_store import RedisStore
from unobot.adapters.telegram import inline_results, keyboards
from unobot.adapters.telegram.app import (
    build_application,
    settings_followers,
    settings_places,
    settled,
)
from unobot.adapters.telegram.cli import webhook_secret
from unobot.adapters.telegram.guard import place
from unobot.adapters.telegram.runtime import KEY, Options, private_lang, user_langs
from unobot.adapters.telegram.webhook import WebhookServer
from unobot.cards import Card
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS, FINISHED, PLAYING, Table
from unobot.state import GameState

JSON = dict[str, Any]

FAST = Options(continue_delay=0.05, lobby_seconds=600, timer_grace=0.1)


def no_throttle() -> AIORateLimiter:
    """Local runs: keep RetryAfter handling, drop the client-side pacing."""
    return AIORateLimiter(overall_max_rate=0, group_max_rate=0, max_retries=3)


class BotProcess:
    """One bot process (Application + its own Redis connection pool).

    `webhook_port` set: the process serves a webhook on 127.0.0.1 instead of
    polling, so several processes can take updates at once (a test posts each
    update to one of them, as a load balancer would).
    """

    secret = "s3cret-token"

    def __init__(self, server: BotAPIServer, redis_url: str, prefix: str, *,
                 options: Options = FAST, seed: int | None = 7, webhook_port: int | None = None,
                 rate_limiter: Any = None, clock: FakeClock | None = None, real_time: bool = False,
                 store_options: dict[str, Any] | None = None) -> None:
        self.server = server
        self.store_options = store_options or {}  # RedisStore's (wait_replicas=1, ...)
        self.redis_url = redis_url
        self.prefix = prefix
        self.options = options
        self.seed = seed
        self.webhook_port = webhook_port
        self.rate_limiter = rate_limiter
        self.real_time = real_time
        self.clock = None if real_time else (clock or FakeClock())
        self.app: Any = None
        self.webhook: WebhookServer | None = None
        self.store: RedisStore | None = None
        self.service: ChatService | None = None

    @property
    def webhook_url(self) -> str:
        return f"http://127.0.0.1:{self.webhook_port}/hook"

    async def start(self) -> BotProcess:
        self.store = RedisStore.from_url(self.redis_url, prefix=self.prefix, **self.store_options)
        rng = random.Random(self.seed) if self.seed is not None else None
        # The adapter's own service (a forum topic's settings are its chat's), as the command line makes it.
        langs = user_langs()
        self.service = ChatService(self.store, rng=rng, settings_from=settings_places,
                                   settings_followers=settings_followers,
                                   reader_lang=functools.partial(private_lang, langs),
                                   **({"clock": self.clock} if self.clock else {}))
        self.app = build_application(self.server.token, base_url=self.server.base_url,
                                     service=self.service, options=self.options, langs=langs,
                                     rate_limiter=self.rate_limiter or no_throttle(),
                                     scheduler=ManualScheduler if self.clock else None)
        await self.app.initialize()
        await self.app.post_init(self.app)  # what run_polling does after initialize()
        await settled(self.app)  # the command menu: tests count the calls that follow
        if self.webhook_port:
            # unobot's own webhook server (`adapters/telegram/webhook.py`): answered once handled.
            self.webhook = WebhookServer(self.app, path="hook", secret=self.secret)
            await self.webhook.start("127.0.0.1", self.webhook_port)
            await self.app.bot.set_webhook(self.webhook_url, secret_token=self.secret)
        else:
            await self.app.updater.start_polling(timeout=1, poll_interval=0)
        await self.app.start()
        await self.run_due()  # the start-up re-planning
        return self

    @property
    def scheduler(self) -> ManualScheduler:
        scheduler = self.app.bot_data[KEY].scheduler
        assert isinstance(scheduler, ManualScheduler), "a real-time bot process has no manual scheduler"
        return scheduler

    async def run_due(self) -> int:
        """Run the jobs due by the fake clock's now, and wait for what they sent."""
        if self.clock is None:
            return 0
        ran = await self.scheduler.run_due()
        await self.idle()
        return ran

    async def advance(self, seconds: float) -> int:
        """Move the fake clock `seconds` on and run the jobs due by then."""
        assert self.clock is not None, "a real-time bot process keeps the wall clock"
        self.clock.advance(seconds)
        return await self.run_due()

    async def stop(self) -> None:
        if self.webhook is not None:
            await self.webhook.stop()
            self.webhook = None
        if self.app is not None:
            if self.app.updater.running:
                await self.app.updater.stop()
            if self.app.running:
                await self.app.stop()
            await self.app.shutdown()
            self.app = None
        if self.store is not None:
            await self.store.close()
            self.store = None

    async def listening(self, processes: int, timeout: float = 30.0) -> None:
        """Wait until `processes` followers listen to this store's change feed (a
        save made before a follower subscribed is told to nobody, so a test that
        waits for `followed` must let every process subscribe first)."""
        assert self.store is not None
        channel = self.store.changes().channel

        async def subscribed() -> None:
            while sum(n for _, n in await self.store.client.pubsub_numsub(channel)) < processes:
                await asyncio.sleep(0.01)
        await asyncio.wait_for(subscribed(), timeout)

    async def settle(self, update: JSON, timeout: float = 10.0) -> None:
        """Wait until the bot fetched `update` and finished every update it fetched."""
        await self.server.wait_consumed(update, timeout=timeout)
        await self.idle(timeout)

    async def idle(self, timeout: float = 10.0) -> None:
        """Every update taken handled, and every status edit and private notice they asked for sent."""
        async def quiet() -> None:
            rt = self.app.bot_data[KEY]
            replies = self.app.bot.replies
            while True:
                await self.app.update_queue.join()
                await rt.status.idle()
                await rt.notices.idle()
                await replies.idle()
                await asyncio.sleep(0)
                if self.app.update_queue.empty() and not rt.status.busy() and not rt.notices.busy() \
                        and not replies.busy():
                    return
        await asyncio.wait_for(quiet(), timeout)


class Polling:
    """Updates go through the server's queue to the one polling process."""

    queue = True

    def __init__(self, bot: BotProcess) -> None:
        self.bots = [bot]

    async def deliver(self, update: JSON) -> None:
        await self.bots[0].settle(update)


class Balancer:
    """Updates are posted to the webhook processes in turn, like a load balancer."""

    queue = False

    def __init__(self, bots: list[BotProcess]) -> None:
        self.bots = bots
        self.next = 0

    async def deliver(self, update: JSON) -> None:
        bot = self.bots[self.next % len(self.bots)]
        self.next += 1
        status = await bot.server.post_update_to(bot.webhook_url, update, secret_token=bot.secret)
        assert status == 200, status
        for each in self.bots:
            await each.idle()


def bot_messages(server: BotAPIServer, chat: JSON) -> list[JSON]:
    """What the bot itself shows in a chat, oldest first."""
    return [m for m in server.shown(chat) if m.get("from", {}).get("id") == server.bot_user["id"]]


def plain(text: str) -> str:
    try:
        return parse_html(text)[0]
    except Exception:
        return text




@dataclass
class Stats:
    steps: int = 0
    moves: int = 0
    refusals: int = 0
    #: Times the stored game was replayed from its log and found exact.
    audits: int = 0
    group_sends: int = 0
    updates: int = 0
    inline_edits: int = 0
    rounds: int = 0
    #: Turns the driver saw: changes of the player the status message says is
    #: on turn (a draw and a pass by the same player are one turn, two moves).
    #: A turn an AI player took between two looks of the driver is not seen.
    turns: int = 0
    chosen: list[str] = field(default_factory=list)
    #: Group messages (sent or edited) the privacy check compared with the hands.
    checked: int = 0
    #: The texts of those it checked after the game had ended (the last hands).
    checked_after_end: list[str] = field(default_factory=list)


@dataclass
class Seen:
    """A game as the driver last saw it: each hand, and the card texts shown
    to the group this round. Kept after the game ended (a finished game is
    unbound from its chat; a stopped one is deleted), so the last messages
    are checked against the hands as they were."""

    game_id: str
    round: int
    ids: list[str]
    names: list[str]
    hands: list[list[Card]]
    #: Card texts (`R5`) shown this round: the discard pile and the recent
    #: moves. By text: the deck has two copies of most cards, and the group
    #: cannot tell which copy it saw, so a text shown is shown for both.
    public: set[str]
    ended: bool = False

    def look(self, game: GameState, recent: list[list[Any]]) -> None:
        self.hands = [list(hand) for hand in game.hands]
        self.public.update(c.text for c in game.discard)
        self.public.update(r[2] for r in recent if r[2])

    def hidden(self, seat: int) -> list[Card]:
        return [c for c in self.hands[seat] if c.text not in self.public]


class TableDriver:
    """Players in one group, playing through buttons and inline mode."""

    def __init__(self, server: BotAPIServer, bot: BotProcess | Polling | Balancer, group: JSON,
                 players: list[JSON], *, seed: int = 1, check_privacy: bool = True, lean: bool = False,
                 thread: int | None = None) -> None:
        self.server = server
        self.router = Polling(bot) if isinstance(bot, BotProcess) else bot
        self.group = group
        #: The forum topic the game is played in (None: the chat itself, or General).
        self.thread = thread
        #: The chat id the chat service sees: the topic's place in a forum topic.
        self.chat = str(place(int(group["id"]), thread))
        self.players = players
        self.by_name = {p["first_name"]: p for p in players}
        self.rng = random.Random(seed)
        self.check_privacy = check_privacy and not lean
        #: In a private chat with the bot (a game against AI players) the one
        #: person there is told their own cards ("You drew: Green 1."): only the
        #: other hands are hidden from that chat.
        self.owner = str(group["id"]) if group.get("type") == "private" else None
        #: Read only what the group shows (no store reads): for benchmarks.
        self.lean = lean
        #: Every update delivered, as (kind, user id): a benchmark replays the mix.
        self.trace: list[tuple[str, int]] = []
        self.checked = len(server.calls)
        self.stats = Stats()
        #: The game as the privacy check last saw it (None before a game starts).
        self.seen: Seen | None = None
        self._on_turn: str | None = None
        self._seen = 0
        self._bot_ids: list[int] = []
        self._verified = 0

    # -- reading what the group shows ---------------------------------------------------
    def bot_messages(self) -> list[JSON]:
        """The bot's messages in the group, oldest first (found incrementally:
        a game posts hundreds of "via @bot" messages and few of its own)."""
        messages = self.server.messages.get(self.group["id"], {})
        if messages:
            top = max(messages)
            bot_id = self.server.bot_user["id"]
            for message_id in range(self._seen + 1, top + 1):
                message = messages.get(message_id)
                if message is not None and message.get("from", {}).get("id") == bot_id \
                        and self.server.in_topic(message) == self.thread:
                    self._bot_ids.append(message_id)
            self._seen = max(self._seen, top)
        return [messages[i] for i in self._bot_ids if i in messages]

    def message_with(self, data: str) -> JSON | None:
        for message in reversed(self.bot_messages()):
            if any(b.get("callback_data") == data for b in self.server.buttons(self.group, message["message_id"])):
                return message
        return None

    def again_data(self, message: JSON | None = None) -> str | None:
        """The callback data of "Play again" on `message` (else the newest message that has
        one): it names its match (``g:again:<match>``)."""
        from unobot.adapters.telegram import keyboards

        for m in [message] if message is not None else reversed(self.bot_messages()):
            for b in self.server.buttons(self.group, m["message_id"]):
                if keyboards.again_match(str(b.get("callback_data", ""))) is not None:
                    return str(b["callback_data"])
        return None

    def status_message(self) -> JSON | None:
        """The newest bot message with game buttons (My cards, Join, Next round...;
        not the /rules switches): the status message people look at."""
        for message in reversed(self.bot_messages()):
            buttons = self.server.buttons(self.group, message["message_id"])
            if any("switch_inline_query_current_chat" in b or str(b.get("callback_data", "")).startswith("g:")
                   for b in buttons):
                return message
        return None

    def turn_name(self) -> str | None:
        status = self.status_message()
        if status is None:
            return None
        match = re.search(r"▶ (.+?) \(\d+\)", status.get("text", ""))
        return match.group(1) if match else None

    @property
    def bot(self) -> BotProcess:
        """A bot process to read the truth from (the store is shared)."""
        return self.router.bots[0]

    def use(self, bot: BotProcess) -> None:
        """Continue with another (polling) bot process."""
        self.router = Polling(bot)

    async def table(self) -> Table | None:
        assert self.bot.service is not None
        return await self.bot.service.table(self.chat)

    # -- acting ------------------------------------------------------------------------------
    async def _do(self, update: JSON) -> JSON:
        self.stats.updates += 1
        kind = next(k for k in update if k != "update_id")
        if kind == "message" and "via_bot" in update["message"]:
            kind = "via_bot"
        self.trace.append((kind, 0))
        await self.router.deliver(update)
        await self.verify()
        return update

    async def command(self, user: JSON, command: str, args: str = "") -> JSON:
        return await self._do(self.server.send_command(self.group, user, command, args, queue=self.router.queue,
                                                       thread=self.thread))

    async def press(self, user: JSON, data: str) -> JSON:
        message = self.message_with(data)
        assert message is not None, f"no message with button {data!r}"
        return await self._do(self.server.press_button(self.group, user, message["message_id"], data,
                                                       queue=self.router.queue))

    async def hand(self, user: JSON) -> list[JSON]:
        # What "My cards" types: the game's own place (the chat, or its topic).
        update = self.server.inline_query(user, f"#{self.chat} " if self.thread else "", queue=self.router.queue)
        await self._do(update)
        return list(self.server.inline_answers[update["inline_query"]["id"]]["results"])

    async def choose(self, user: JSON, result_id: str) -> None:
        message, chosen = self.server.pick_inline_result(self.group, user, result_id, queue=self.router.queue,
                                                         thread=self.thread)
        assert chosen is not None
        self.stats.chosen.append(result_id)
        if not self.router.queue:
            await self._do(message)  # the "via @bot" message reaches the bot too
        else:
            self.stats.updates += 1
            self.trace.append(("via_bot", 0))
        await self._do(chosen)

    # -- playing -----------------------------------------------------------------------------
    def pick(self, results: list[JSON]) -> str | None:
        codes = {r["id"]: inline_results.decode(r["id"]) for r in results}
        by_kind: dict[str, list[str]] = {}
        for rid, choice in codes.items():
            if choice is not None:
                by_kind.setdefault(choice.code[0], []).append(rid)
        if "h" in by_kind:  # a Wild starter: its colour is named before anything else
            return self.rng.choice(by_kind["h"])
        with_uno = [rid for rid in by_kind.get("p", []) if rid.endswith("!")]
        if with_uno:  # going down to one card: play and say UNO in one pick
            return self.rng.choice(with_uno)
        if "u" in by_kind:
            return by_kind["u"][0]
        if "k" in by_kind:
            return by_kind["k"][0]
        if "c" in by_kind and self.rng.random() < 0.5:
            return by_kind["c"][0]
        if "p" in by_kind:
            return self.rng.choice(by_kind["p"])
        draw_and_play = [rid for rid in by_kind.get("d", []) if rid.endswith(":d+")]
        if draw_and_play:  # nothing to play: draw, and play the card if it fits, in one pick
            return draw_and_play[0]
        for kind in ("d", "s", "c"):
            if kind in by_kind:
                return by_kind[kind][0]
        return None

    async def step(self) -> bool:
        """One action by whoever should act now; False once the match is over."""
        if self.lean:
            return await self.lean_step()
        table = await self.table()
        if table is None or table.phase == FINISHED:
            return False
        self.stats.steps += 1
        if table.phase == BETWEEN_ROUNDS:
            self.stats.rounds += 1
            self._on_turn = None
            await self.press(self.players[0], keyboards.NEXT_ROUND)
            return True
        name = self.turn_name()
        self.saw_turn(name)
        if name not in self.by_name:
            # An AI player's turn: its moves come from a job after a short pause.
            await self.wait_for_turn_change(table.version)
            return True
        user = self.by_name[name]
        results = await self.hand(user)
        pick = self.pick(results)
        assert pick is not None, f"{name} was offered nothing to do: {[r['title'] for r in results]}"
        version = table.version
        await self.choose(user, pick)
        after = await self.table()
        if after is not None and after.version == version:
            self.stats.refusals += 1
        else:
            self.stats.moves += 1
        return True

    async def lean_step(self) -> bool:
        """A step judged from the group's messages only, as a person would."""
        status = self.status_message()
        if status is None:
            return False
        self.stats.steps += 1
        data = [b.get("callback_data") for b in self.server.buttons(self.group, status["message_id"])]
        if keyboards.NEXT_ROUND in data:
            self.stats.rounds += 1
            self._on_turn = None
            await self.press(self.players[0], keyboards.NEXT_ROUND)
            return True
        name = self.turn_name()
        self.saw_turn(name)
        if name not in self.by_name:
            if self.bot.clock is not None:
                for each in self.router.bots:
                    await each.advance(each.options.continue_delay)
            else:
                await asyncio.sleep(0.005)
            return True
        results = await self.hand(self.by_name[name])
        pick = self.pick(results)
        assert pick is not None
        await self.choose(self.by_name[name], pick)
        self.stats.moves += 1
        return True

    def saw_turn(self, name: str | None) -> None:
        """Count a turn when the player on turn is another than at the last look
        (the first look of a round counts one: `_on_turn` is reset then)."""
        if name is not None and name != self._on_turn:
            self.stats.turns += 1
        self._on_turn = name

    async def wait_for_turn_change(self, version: int, timeout: float = 10.0) -> None:
        if self.bot.clock is not None:
            await self.advance_until_changed(version, timeout)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while loop.time() < deadline:
            await asyncio.sleep(0.01)
            table = await self.table()
            if table is None or table.version != version:
                for each in self.router.bots:
                    await each.idle()
                await asyncio.sleep(0.01)  # let the job's status edit land
                await self.verify()
                return
        raise AssertionError(f"the table stayed at version {version} for {timeout}s: {self.status_message()}")

    async def advance_until_changed(self, version: int, seconds: float) -> None:
        """Fake time: move the clocks on an AI pause at a time, running each
        process's due jobs, until the table changes (at most `seconds`)."""
        step = max(bot.options.continue_delay for bot in self.router.bots)
        clocks = list({id(b.clock): b.clock for b in self.router.bots if b.clock is not None}.values())
        waited = 0.0
        while waited <= seconds:
            for clock in clocks:
                clock.advance(step)
            waited += step
            for each in self.router.bots:
                await each.run_due()
            table = await self.table()
            if table is None or table.version != version:
                await self.verify()
                return
        raise AssertionError(f"the table stayed at version {version} for {seconds}s: {self.status_message()}")

    async def play(self, max_steps: int = 800) -> Stats:
        for _ in range(max_steps):
            if not await self.step():
                return self.stats
        raise AssertionError(f"the match did not end in {max_steps} steps")

    # -- privacy -------------------------------------------------------------------------------
    async def verify(self) -> None:
        """No group message (sent or edited) names a card only a hand holds."""
        if self.lean:
            return  # benchmarks count messages once, at the end
        calls = self.server.calls[self.checked:]
        self.checked = len(self.server.calls)
        for call in calls:
            if call.method == "sendMessage" and call.params.get("chat_id") == self.group["id"]:
                self.stats.group_sends += 1
            if call.method == "editMessageText" and "inline_message_id" in call.params:
                self.stats.inline_edits += 1
        if not self.check_privacy:
            return
        self._verified += 1
        if self._verified % 15 == 0:
            await self.audit()
        seen = await self.look()
        if seen is None:
            return  # no game was dealt yet: no hand to leak
        for call in calls:
            if call.method not in ("sendMessage", "editMessageText"):
                continue
            in_group = call.params.get("chat_id") == self.group["id"] or "inline_message_id" in call.params
            if not in_group:
                continue
            text = plain(str(call.params.get("text", "")))
            self.stats.checked += 1
            if seen.ended:
                self.stats.checked_after_end.append(text)
            for seat, name in enumerate(seen.names):
                if seen.ids[seat] == self.owner:
                    continue  # a game in a private chat: the player may read their own cards there
                named = sorted({c.text for c in seen.hidden(seat) if mentions(text, c)})
                assert not named, (
                    f"a group message names cards of {name}'s hand {named} "
                    f"({call.method} {call.params}): {text!r}")

    async def audit(self) -> None:
        """The game in the store is exactly what its log replays to (every
        game a test plays through the bot is audited as it goes)."""
        from unobot.chat.audit import audit_table

        store = self.bot.store
        game_id = await store.chat_game(self.chat) if store is not None else None
        if game_id:
            result = await audit_table(store, game_id)
            assert result.ok, f"the game in {self.chat} does not replay from its log: {result.problem}"
            self.stats.audits += 1

    async def look(self) -> Seen | None:
        """Update and return what the driver knows of the game in the group.

        Read from the store by game id: a finished game is unbound from its
        chat at once but stays stored, so the messages that end a match are
        checked against its final hands. Why not the hands seen before the
        last move: the final status names the top card ("Top card: Yellow
        Draw Two"), which is the winning card, in its player's hand until
        that move: against those hands a legitimate message fails. A game
        stopped with /stop is deleted: then the last hands seen stand (no
        move was made since).
        """
        store = self.bot.store
        assert store is not None
        bound = await store.chat_game(self.chat)
        game_id = bound or (self.seen.game_id if self.seen is not None else None)
        stored = await store.load_game(game_id) if game_id else None
        table = Table.decode(stored.state, stored.version) if stored is not None else None
        if table is None or table.game is None:
            # A lobby (before the first deal, or a new game after this one), or the game is gone.
            if self.seen is not None and (table is None or game_id != self.seen.game_id):
                self.seen.ended = True
            return self.seen
        game = table.game
        if self.seen is None or self.seen.game_id != game_id or self.seen.round != game.round:
            # A new game, or a new deal: the cards shown last round are back in
            # the deck and in hands, hidden again.
            self.seen = Seen(str(game_id), game.round, [], [], [], set())
        self.seen.ids = [s.id for s in table.seats]
        self.seen.names = [s.name for s in table.seats]
        self.seen.look(game, table.recent)
        self.seen.ended = table.phase == FINISHED or bound != game_id
        return self.seen


# -- `unobot telegram --webhook` as separate processes -------------------------------------------


class CliBot:
    """One `unobot telegram --webhook` process, started as a person starts it.

    Unlike `BotProcess` it is a real operating-system process running the
    command line (config file, environment, its own event loop and store
    connections, PTB's JobQueue and the production rate limiter with
    Telegram's group budgets). What it did is seen only from outside: at the
    Bot API server and in the store (see `CliBalancer`). Its log goes to
    `<folder>/bot.log`. With no `secret` it is started without `--secret`
    and uses the one every process of the bot derives from the token.
    """

    def __init__(self, server: BotAPIServer, redis_url: str, prefix: str, folder: Path, *, port: int,
                 secret: str | None = "s3cret-token") -> None:
        self.server = server
        self.given_secret = secret
        self.secret = secret if secret is not None else webhook_secret(server.token)
        self.redis_url = redis_url
        self.prefix = prefix
        self.folder = folder
        self.port = port
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = folder / "bot.log"
        #: Updates this process was sent.
        self.updates = 0

    @property
    def webhook_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hook"

    def start(self) -> CliBot:
        self.folder.mkdir(parents=True, exist_ok=True)
        config = self.folder / "config.yaml"
        config.write_text(f"store:\n  prefix: {self.prefix}\n  data_dir: {self.folder}\n")
        env = {**os.environ, "TELEGRAM_BOT_TOKEN": self.server.token,
               "UNOBOT_TELEGRAM_API_URL": self.server.base_url, "UNOBOT_REDIS_URL": self.redis_url,
               "UNOBOT_CONFIG": str(config)}
        with self.log_path.open("wb") as out:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "unobot.cli", "telegram", "--webhook", self.webhook_url,
                 "--listen", "127.0.0.1", "--port", str(self.port),
                 *(["--secret", self.given_secret] if self.given_secret is not None else [])],
                cwd=self.folder, env=env, stdout=out, stderr=subprocess.STDOUT)
        return self

    async def ready(self, timeout: float = 30.0) -> None:
        """Until the process set its webhook and its webhook server accepts connections
        (PTB sets the webhook first, then starts serving)."""
        await self.server.wait_for("setWebhook", lambda p: p.get("url") == self.webhook_url,
                                   timeout=timeout, after=0)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            assert self.process is not None and self.process.poll() is None, self.log()
            try:
                _reader, writer = await asyncio.open_connection("127.0.0.1", self.port)
            except OSError:
                if loop.time() > deadline:
                    raise AssertionError(f"the webhook server on {self.port} never listened: {self.log()}") from None
                await asyncio.sleep(0.02)
                continue
            writer.close()
            await writer.wait_closed()
            return

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def stop(self) -> str:
        """Ctrl-C, as a person stops it; returns everything it logged."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.log()


class StoreReader:
    """The test's own view of the store the bot processes share, where a
    `TableDriver` reads the truth (`bots[0]` of its router): a store and a
    ChatService, no bot."""

    clock = None
    options = FAST

    def __init__(self, store: RedisStore) -> None:
        self.store = store
        self.service = ChatService(store)

    async def idle(self, timeout: float = 10.0) -> None:
        return None

    async def run_due(self) -> int:
        return 0

    async def version(self, chat: str) -> int | None:
        game_id = await self.store.chat_game(chat)
        stored = await self.store.load_game(game_id) if game_id else None
        return stored.version if stored is not None else None

    async def close(self) -> None:
        await self.store.close()


class CliBalancer:
    """Updates are posted to `CliBot` webhooks, each to one process picked at
    random (seeded), like a load balancer.

    When has a process the test cannot look into handled an update? When
    what it leaves behind is there: an inline query or a button press is
    answered with its id (a button only after its command ran); a move or a
    command changes the table's version in the store, or is refused where
    the player looks (the picked result's own message, a reply in the chat).
    The "via @bot" message a pick posts needs nothing (no handler acts on
    it). Status edits are not waited for: each process sends them when the
    group's budget allows (production budgets: after a burst, one edit
    every few seconds per process), so a driver on this router reads whose
    turn it is from the store (`StoreTurns`).
    """

    queue = False

    def __init__(self, server: BotAPIServer, processes: list[CliBot], reader: StoreReader, *,
                 seed: int = 1, timeout: float = 15.0) -> None:
        self.server = server
        self.processes = processes
        self.reader = reader
        self.bots: list[Any] = [reader]
        self.rng = random.Random(seed)
        self.timeout = timeout

    async def deliver(self, update: JSON) -> None:
        process = self.rng.choice(self.processes)
        process.updates += 1
        mark = self.server.mark()
        chat = self._chat_of(update)
        before = await self.reader.version(chat) if chat is not None else None
        status = await self.server.post_update_to(process.webhook_url, update, secret_token=process.secret)
        assert status == 200, status
        if "inline_query" in update:
            query_id = update["inline_query"]["id"]
            await self.server.wait_for("answerInlineQuery", lambda p: p.get("inline_query_id") == query_id,
                                       timeout=self.timeout, after=mark)
        elif "callback_query" in update:
            query_id = update["callback_query"]["id"]
            await self.server.wait_for("answerCallbackQuery", lambda p: p.get("callback_query_id") == query_id,
                                       timeout=self.timeout, after=mark)
        elif "message" in update and "via_bot" in update["message"]:
            return
        elif chat is not None:
            await self._changed_or_refused(update, chat, before, mark)

    @staticmethod
    def _chat_of(update: JSON) -> str | None:
        if "message" in update:
            return str(update["message"]["chat"]["id"])
        if "chosen_inline_result" in update:
            choice = inline_results.decode(update["chosen_inline_result"]["result_id"])
            return choice.chat if choice is not None else None
        return None

    async def _changed_or_refused(self, update: JSON, chat: str, before: int | None, mark: int) -> None:
        chosen = update.get("chosen_inline_result")
        inline_id = chosen.get("inline_message_id") if chosen else None

        def refused() -> bool:
            for call in self.server.calls[mark:]:
                if inline_id is not None and call.params.get("inline_message_id") == inline_id:
                    return True
                if chosen is None and call.method == "sendMessage" and str(call.params.get("chat_id")) == chat \
                        and call.params.get("reply_parameters"):
                    return True
            return False

        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.timeout
        while await self.reader.version(chat) == before and not refused():
            if loop.time() > deadline:
                raise AssertionError(f"update {update.get('update_id')} changed nothing in {self.timeout}s "
                                     f"and was not refused")
            await asyncio.sleep(0.005)


class StoreTurns(TableDriver):
    """A TableDriver that reads whose turn it is from the store instead of the
    status message (for `CliBalancer`, whose processes edit the status when
    Telegram's budgets allow: it may still show the turn before)."""

    _last: Table | None = None

    async def table(self) -> Table | None:
        self._last = await super().table()
        return self._last

    def turn_name(self) -> str | None:
        table = self._last
        if table is None or table.game is None or table.phase != PLAYING:
            return None
        return table.seats[table.game.turn].name
