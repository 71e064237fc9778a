"""The web table's server: one page, its assets, card pictures and a WebSocket.

Why aiohttp: one library serves the HTTP routes, the WebSocket and the
static files, on the same asyncio loop as python-telegram-bot and
discord.py (both already pull aiohttp's ecosystem in), so `unobot
telegram` can serve a bot and its tables in one process.

The protocol is JSON over one WebSocket (`/ws`). Every message the page
sends carries its proof (`auth`: Telegram's `initData`, a player token, or
a browser table's token) and is judged on its own: the player is whoever
the proof names, never an id the page sends. The page sends `hello`
(show me the table), `name` (a browser-only table: sit me down under this
name) and `act` (an action's id from the menu it was shown, with the
table version it saw). The server sends `state` (the whole table for that
player; the page keeps the newest version: latest state wins), `notice`
(lines only that player reads), `refused` (a translated reason; nothing
changed), `player` (the token of a seat just picked a name for) and
`need_name`; and `done` once a move it sent is stored and its state (if any) is sent.

Settings: a page whose person is an admin of its table (`adapters/web/admins.py`
says who, per kind of table; the state's `admin`) shows a settings panel.
It sends `settings` (show me the chat's settings) and `press` (a press id of
core's settings menu, `core/chat/settings_menu.py`, and the number typed
for a `t:` press); the server answers `settings`: core's `SettingsMenu` for
the chat in the page's language (every entry with its press id, label and
state), drawn as it is. A press is carried out by core's `settings_press`,
the chats' own flow: the command it makes goes to the service as this
person (an admin or not: the service judges and refuses with its words).

The players' records (the chats' `/top`, `/me`, `/last`, `/forgetme`) are
one HTTP call, `POST /api/records` (`records`): the same proof in `auth`,
judged the same way, and core's answer (`unobot.chat.answers`) as lines
the page's records panel shows. A forget-me is done only when the request
says `confirm` (the page asks first); a missing or forged proof is refused
with the page's translated reason and changes nothing.

Live updates: after a move made here, every page on that table gets its
state at once. Moves made elsewhere (inline mode in the same Telegram
group, another process) come from the store's change feed
(`core/changes.py`: Redis pub/sub between processes): the pages of that
chat are sent the table as it is now, and its wakes are planned again. A
watcher also reads the chat's table version every `poll` seconds while
pages are open on it (every `FEED_POLL` seconds when the store has a feed:
a safety net for a change whose message was lost).
The wakes a table needs (AI pauses, turn timers, lobby expiry) are kept
by core's `Waker` on core's asyncio timers, as on Discord; a wake that
fires on a table that moved on is refused as stale, so two processes
planning the same wake cannot double a move.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import socket
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from unobot.adapters.console.render import CHAT_PREFIX as CONSOLE_PREFIX
from unobot.adapters.console.render import commands as console_commands
from unobot.adapters.discord.texts import CHAT_PREFIX as DISCORD_PREFIX
from unobot.adapters.discord.texts import COMMANDS as DISCORD_COMMANDS
from unobot.cards import CardError, parse_card
from unobot.changes import Change, start_following, stop_following
from unobot.chat import answers
from unobot.chat import commands as c
from unobot.chat.actions import AGAIN, decode
from unobot.chat.i18n import known, normalize
from unobot.chat.lobby import last_match
from unobot.chat.outcome import Outcome
from unobot.chat.records_text import forget_question
from unobot.chat.render import error_text, failure_text, store_error_code
from unobot.chat.service import ChatService
from unobot.chat.settings_press import press as settings_press
from unobot.chat.status_text import rules_gone_line
from unobot.chat.table import FINISHED, LOBBY, Table
from unobot.chat.views import variant_title
from unobot.chat.wake import Pacing
from unobot.chat.waker import AsyncioTimers, WakeData, Waker, confirmed_as_stored
from unobot.store import StoreDataError, StoreUnavailable, StoreUnconfirmed

from . import links, places, state
from .admins import CREATOR_KEY, AdminCheck, Admins
from .texts import direction, page_texts, refusal, settings_payload, web_commands

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
BROWSER_PREFIX = "web."
#: A player token made for a browser-only table lasts this long.
BROWSER_SEAT_SECONDS = 7 * 24 * 3600.0
MAX_MESSAGE = 16 * 1024
#: Seconds between a watcher's looks when the store tells its changes.
FEED_POLL = 5.0
#: The settings panel shows every entry at once (the chats page them): core's page size for it.
SETTINGS_PAGE = 1000

OutcomeHook = Callable[[str, Outcome], Awaitable[None]]


@dataclass(eq=False)
class Page:
    """One open WebSocket and who it was last shown to."""

    ws: web.WebSocketResponse
    viewer: links.Viewer | None = None
    lang: str = "en"
    sent: int = -2  # the version last sent (-1: "no game")
    #: The last table shown was a finished match: it stays on the page (the chat
    #: has no game any more, which is no news to show over who won).
    finished: bool = False
    #: Every state payload sent, for the tests' privacy scan (None: not kept).
    log: list[dict[str, Any]] | None = None
    #: Its person is an admin of its table (as last asked); it asked for the settings panel.
    admin: bool = False
    settings: bool = False
    #: The lobby's settings (variant, rules, timer, language) when its panel was last drawn:
    #: a change made elsewhere (a Telegram admin's /rules) reaches the lobby, and so the
    #: open panel is drawn again instead of going stale.
    lobby_settings: tuple[object, ...] | None = None
    #: Opened with a link for one game (Discord's `/uno table`, the console's): it cannot
    #: follow its player into the next game, so it offers no "Play again".
    one_game: bool = False


def lobby_settings(table: Table) -> tuple[object, ...]:
    """What of the chat's settings a lobby holds (it takes them at once)."""
    return table.variant, json.dumps(table.overrides, sort_keys=True), table.timer, table.lang


@dataclass
class WebConfig:
    """What the web table needs to know (config.yaml `web:`, see core/config.py)."""

    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    bot_token: str | None = field(default=None, repr=False)
    #: Seconds an `initData` is accepted after Telegram signed it.
    init_data_age: float = 24 * 3600.0
    #: The address players reach the page at (links are made with it).
    public_url: str = "http://127.0.0.1:8080"
    #: `unobot web` may open browser-only tables (`web.` chats).
    browser_tables: bool = True
    #: Where this server's other tables are played (`places.TELEGRAM`, `DISCORD`, `CONSOLE`):
    #: a page opened with no link is told how to reach one from there.
    places: tuple[str, ...] = ()
    #: The Telegram bot's @username without the @, when known (named in that advice).
    telegram_bot: str | None = None
    default_variant: str = "official"
    poll: float = 0.25
    pacing: Pacing = field(default_factory=Pacing)
    #: Keep every payload each page was sent (tests only).
    keep_payloads: bool = False
    #: Seconds Telegram is given to say whether a person is a group's admin (then: not one).
    admin_timeout: float = 3.0


class WebTable:
    """The aiohttp application and what it keeps: open pages, watchers, planned wakes."""

    def __init__(self, service: ChatService, config: WebConfig | None = None, *,
                 on_outcome: OutcomeHook | None = None, admins: AdminCheck | None = None) -> None:
        """`admins` asks whether a person administers a Telegram chat (`admins.telegram_check`);
        without it nobody on a Telegram chat's page is an admin."""
        self.service = service
        self.config = config or WebConfig()
        self.on_outcome = on_outcome
        self.admins = Admins(admins, self.config.admin_timeout)
        self.pages: dict[str, set[Page]] = {}
        self.watchers: dict[str, asyncio.Task[None]] = {}
        self.timers = AsyncioTimers(service.clock, self._ring, poll=self.config.pacing.clock_poll)
        self.waker = Waker(service, self.timers, self.config.pacing)
        self.planned: set[str] = set()
        #: A chat's moves made here and its watcher's reads take turns: a watcher
        #: never shows "no game" between a match's last move and its result.
        self.locks: dict[str, asyncio.Lock] = {}
        #: The game id each watched chat had last (its end is shown from it).
        self.games: dict[str, str] = {}
        self.cards: dict[str, bytes] = {}
        #: The version each chat's wakes were planned on (a newer one, saved
        #: elsewhere, gets its wakes planned again).
        self.plan_versions: dict[str, int] = {}
        #: Following the store's change feed (started with the first page).
        self.following: asyncio.Task[None] | None = None
        self.looking: dict[str, asyncio.Task[None]] = {}
        self.look_again: set[str] = set()
        #: State payloads each person's pages were sent, with every hand at the
        #: time (keep_payloads, tests only): person -> [{payload, seat, hands}].
        self.sent: dict[str, list[dict[str, Any]]] = {}
        self.app = web.Application(client_max_size=64 * 1024)
        for base in served_under(self.config.public_url):
            self.app.add_routes([
                web.get(base + "/", self.index), web.get(base + "/ws", self.socket),
                web.get(base + "/static/{name}", self.asset), web.get(base + "/cards/{code}.png", self.card),
                web.get(base + "/api/variants", self.variants), web.post(base + "/api/new", self.new_table),
                web.post(base + "/api/records", self.records),
                web.get(base + "/healthz", self.health),
            ])
            if base:  # the page's relative addresses need its folder: /uno -> /uno/ (the query kept)
                self.app.router.add_get(base, self.to_folder)
        self.app.on_shutdown.append(self._shutdown)

    # -- links ---------------------------------------------------------------------------
    def table_link(self, chat: str) -> str:
        """The browser link of a table (a browser-only table's share link)."""
        return f"{self.config.public_url.rstrip('/')}/?t={links.table_token(self.config.secret, chat)}"

    def player_link(self, chat: str, person: str, name: str, *, seconds: float = 6 * 3600.0,
                    game: int | None = None, lang: str | None = None, admin: bool = False) -> str:
        """A link for one person at one chat's game (Discord, the console); `admin`: signed
        as one of the chat's admins (the page then offers what an admin may do)."""
        token = links.player_token(self.config.secret, chat if game is None else f"{chat}#{game}", person, name,
                                   time.time() + seconds, lang, admin=admin)
        return f"{self.config.public_url.rstrip('/')}/?p={token}"

    # -- HTTP ----------------------------------------------------------------------------
    async def index(self, request: web.Request) -> web.StreamResponse:
        """The page, with its words in the reader's language (the browser's Accept-Language,
        or `?lang=`) and its writing direction: what it says before the socket answers, or
        when it cannot reach it ("Connecting…", "Connection lost"), is translated too."""
        lang = known(request.query.get("lang")) or accepted_language(request.headers.get("Accept-Language", ""))
        words = json.dumps(page_texts(lang), ensure_ascii=False).replace("</", "<\\/")
        html = (STATIC / "index.html").read_text(encoding="utf-8")
        html = html.replace('<html lang="en">', f'<html lang="{lang.replace("_", "-")}" dir="{direction(lang)}">', 1)
        html = html.replace('<script type="application/json" id="page-texts">{}</script>',
                            f'<script type="application/json" id="page-texts">{words}</script>', 1)
        return web.Response(text=html, content_type="text/html", headers={"Cache-Control": "no-cache",
                                                                           "Vary": "Accept-Language"})

    async def to_folder(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPPermanentRedirect(request.rel_url.with_path(request.path + "/").with_query(request.query))

    async def asset(self, request: web.Request) -> web.StreamResponse:
        name = request.match_info["name"]
        path = STATIC / name
        if "/" in name or name.startswith(".") or not path.is_file():
            raise web.HTTPNotFound()
        return web.FileResponse(path, headers={"Cache-Control": "no-cache"})

    async def health(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text="ok")

    async def card(self, request: web.Request) -> web.StreamResponse:
        code = request.match_info["code"]
        png = self.cards.get(code)
        if png is None:
            try:
                card = parse_card(code)
            except (CardError, ValueError):
                raise web.HTTPNotFound() from None
            png = await asyncio.to_thread(render_png, card)
            if len(self.cards) < 512:
                self.cards[code] = png
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "public, max-age=86400"})

    async def variants(self, request: web.Request) -> web.StreamResponse:
        from unobot.variants import VariantError, load_variant, variant_names

        lang = normalize(request.query.get("lang"))
        out = []
        for name in variant_names():
            try:
                out.append({"name": name, "title": load_variant(name).label(lang)})
            except VariantError:
                continue
        # The landing page has no socket yet: its own words (and direction) come with the variants.
        # With `web.browser_tables: false` it says where tables are played and how to open one
        # from there instead of offering a form every press of which is refused.
        closed = None if self.config.browser_tables else self.where_tables_are(lang)
        return web.json_response({"variants": out, "default": self.config.default_variant,
                                  "texts": page_texts(lang), "lang": lang, "dir": direction(lang),
                                  "closed": closed})

    async def new_table(self, request: web.Request) -> web.StreamResponse:
        """A browser-only table: its creator sits down under a name; the answer is the share link."""
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):  # a list, a number: no name in it, refused below as none
            body = {}
        lang = normalize(str(body.get("lang") or ""))
        if not self.config.browser_tables:
            return web.json_response({"code": "no_browser", "error": self.where_tables_are(lang)}, status=403)
        name = clean_name(body.get("name"))
        if name is None:
            return web.json_response({"error": refusal("bad_name", lang)}, status=400)
        variant = str(body.get("variant") or self.config.default_variant)
        rules = body.get("rules") or {}
        from unobot.variants import VariantError, resolve

        try:
            if not isinstance(rules, dict):
                raise VariantError("rules", None, "not a mapping")
            resolve(variant, rules or None)
        except VariantError:
            return web.json_response({"error": refusal("bad_variant", lang)}, status=400)
        chat = BROWSER_PREFIX + secrets.token_hex(8)
        person = "w" + secrets.token_hex(8)
        # The creator is the table's admin (its settings, starting, stopping): kept with the chat.
        try:
            await self.service.store.update_chat_settings(chat, {"lang": lang, CREATOR_KEY: person,
                                                                 **({"rules": rules} if rules else {})})
        except StoreUnconfirmed:  # on the server, its copies late: the table's own save tells
            pass
        except StoreUnavailable as exc:  # said like every other answer, not a bare 500
            return web.json_response({"code": store_error_code(exc), "error": failure_text(
                exc, lang, keeps_nothing=self.service.keeps_nothing)}, status=503)
        out = await self.service.handle(chat, c.Person(person, name, lang), c.NewGame(variant=variant))
        # Made, but not confirmed by the store's copies: the creator is still sent to the table,
        # where the page shows it as waiting and then says whether it counts (the page's
        # `unconfirmed`, settled by the watcher). Refused with no table to go to, "I will say
        # here whether this counts" was a promise nobody kept, and the table was lost to them.
        unconfirmed = out.code == "store_unconfirmed"
        if not out.ok and not unconfirmed:  # a store that could not serve it is no fault of the request
            return web.json_response({"code": out.code, "error": out.error},
                                     status=503 if (out.code or "").startswith("store_") else 400)
        token = links.player_token(self.config.secret, chat, person, name,
                                   time.time() + BROWSER_SEAT_SECONDS, lang)
        if not unconfirmed:
            self.after(chat, out)
        return web.json_response({"chat": chat, "player": token, "link": self.table_link(chat),
                                  "table": links.table_token(self.config.secret, chat),
                                  **({"code": out.code, "unconfirmed": out.error} if unconfirmed else {})})

    async def records(self, request: web.Request) -> web.StreamResponse:
        """The players' records for the page's panel: `what` is one of core's
        `answers.RECORDS` (`top` with a `period`, `me`, `last`, `forgetme`),
        for the chat and the person the proof names (never ids the page sends).
        Answers `{"lines": [...]}` (core's lines, title first); a forget-me
        without `confirm: true` answers `{"confirm": question}` and forgets
        nothing; a bad proof is a 403 with the translated reason."""
        try:
            body = await request.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            body = {}
        lang = known(str(body.get("lang") or request.query.get("lang") or "")) or "en"
        who = self.viewer(body.get("auth"), lang)
        if isinstance(who, str):  # a browser table's token alone names no person yet
            code = "no_person" if who == "need_name" else who
            return web.json_response({"code": code, "error": self.refusal(code, body.get("auth"), lang)},
                                     status=403)
        lang = normalize(who.lang or lang)
        what = body.get("what")
        if what not in answers.RECORDS:
            return web.json_response({"code": "bad_record", "error": refusal("bad_record", lang)}, status=400)
        if what == "forgetme" and body.get("confirm") is not True:
            return web.json_response({"what": what, "confirm": forget_question(lang)})
        period = body.get("period")
        chat, _game = split_game(who.chat)
        person = c.Person(who.person, who.name, lang)
        try:
            # (a forget-me comes here confirmed: the page asked first)
            arg = "yes" if what == "forgetme" else period if isinstance(period, str) else None
            lines = await answers.reading_lines(self.service.store, str(what), chat, person, lang, arg)
        except StoreUnavailable as exc:
            return web.json_response({"code": store_error_code(exc), "error": failure_text(
                exc, lang, keeps_nothing=self.service.keeps_nothing)}, status=503)
        return web.json_response({"what": what, "lines": lines})

    # -- proofs --------------------------------------------------------------------------
    def where_tables_are(self, lang: str) -> str:
        """What a page opened with no link reads when this server makes no tables itself."""
        return places.where_tables_are(self.config.places, lang, self.config.telegram_bot)

    def telegram_lang(self, auth: Any) -> str | None:
        """The language of a genuine `initData`'s user (expired or not: it only picks the words
        a refusal is said in), when it is one we speak."""
        if not isinstance(auth, dict) or not auth.get("init_data") or not self.config.bot_token:
            return None
        try:
            fields = links.check_init_data(self.config.bot_token, str(auth["init_data"]), float("inf"))
            return known(links.telegram_user(fields)[2])
        except links.LinkError:
            return None

    def refusal(self, code: str, auth: Any, lang: str) -> str:
        """Why a proof was refused, said for where its table is played when the proof names
        one (a Telegram group's link opened in a browser: open it in Telegram)."""
        if code == "no_table":  # a genuine Telegram user, no table named: how to open one
            return places.where_tables_are((places.TELEGRAM,), lang, self.config.telegram_bot)
        return places.refusal_at(code, links.chat_named(self.config.secret, auth), lang) or refusal(code, lang)

    def viewer(self, auth: Any, lang: str | None) -> links.Viewer | str:
        """Who `auth` proves the sender is (a Viewer), or why not (a refusal code);
        "need_name" for a browser table's token without a seat yet."""
        if not isinstance(auth, dict):
            return "no_auth"
        cfg = self.config
        try:
            if auth.get("init_data"):
                if not cfg.bot_token:
                    return "forged"
                fields = links.check_init_data(cfg.bot_token, str(auth["init_data"]), cfg.init_data_age)
                person, name, tg_lang = links.telegram_user(fields)
                token = fields.get("start_param") or str(auth.get("table") or "")
                if not token:  # the Mini App opened from the bot's profile or menu: no group's table
                    return "no_table"
                chat = links.read_table_token(cfg.secret, token)
                return links.Viewer(chat, person, name, known(tg_lang) or lang, via="telegram")
            if auth.get("player"):
                v = links.read_player_token(cfg.secret, str(auth["player"]))
                return links.Viewer(v.chat, v.person, v.name, lang or v.lang, via="player", admin=v.admin)
            if auth.get("table"):
                chat = links.read_table_token(cfg.secret, str(auth["table"]))
                return "need_name" if chat.startswith(BROWSER_PREFIX) and cfg.browser_tables else "no_auth"
        except links.LinkError as exc:
            return exc.code
        return "no_auth"

    # -- the WebSocket -------------------------------------------------------------------
    async def socket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(heartbeat=20.0, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        page = Page(ws, log=[] if self.config.keep_payloads else None)
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                try:
                    data = json.loads(msg.data)
                except ValueError:
                    continue
                if isinstance(data, dict):
                    try:
                        await self.receive(page, data)
                    except (StoreUnavailable, StoreDataError) as exc:
                        # Why here, around every kind of message: each reads the store before
                        # anything else (who sits where, the table), and an outage escaping the
                        # handler closed the socket: the page only said "offline" and redialled.
                        await self._store_failed(page, exc)
        finally:
            self._drop(page)
        return ws

    async def receive(self, page: Page, data: dict[str, Any]) -> None:
        lang = known(str(data.get("lang") or "")) or page.lang
        page.lang = lang
        kind = data.get("type")
        who = self.viewer(data.get("auth"), lang)
        if who == "need_name" and kind == "name":
            await self._sit(page, data, lang)
            return
        if isinstance(who, str):
            if who == "need_name":
                await self._send(page, {"type": "need_name", "texts": page_texts(lang), "lang": lang,
                                        "dir": direction(lang), **await self._invitation(data.get("auth"), lang)})
            else:  # in Telegram's language for its user, even refused (a genuine initData says it)
                lang = page.lang = self.telegram_lang(data.get("auth")) or lang
                await self._refuse(page, who, lang, texts=True, text=self.refusal(who, data.get("auth"), lang))
            return
        page.lang = normalize(who.lang or lang)
        chat, game = split_game(who.chat)
        table = await self.service.table(chat)
        if table is None:  # a match just over: its end (who won) and "Play again", not "no game"
            table = await last_match(self.service, chat)
        if game is not None and (table is None or table.seed != game):
            await self._refuse(page, "other_game", page.lang, texts=True)
            return
        page.viewer = links.Viewer(chat, who.person, who.name, page.lang, via=who.via, admin=who.admin)
        page.one_game = game is not None
        self._add(page)
        page.admin = await self.is_admin(page.viewer, quick=kind == "act", otherwise=page.admin)
        if kind == "hello":
            page.sent = -2
            if table is not None and not self.service.unconfirmed.waiting(chat):
                # another process's save not confirmed yet: drawn as waiting, not as made
                await self._stored_confirmed(chat, None, table.store_version)
            await self._send(page, {"type": "hello", "texts": page_texts(page.lang), "lang": page.lang,
                                    "dir": direction(page.lang), "name": who.name})
            await self._push(page, table)
            if chat not in self.planned and table is not None:
                self.planned.add(chat)
                self.plan_versions[chat] = table.version
                self.waker.ensure(chat, table)
        elif kind == "act":
            await self._act(page, table, data)
        elif kind == "settings":
            page.settings = True
            page.lobby_settings = lobby_settings(table) if table is not None and table.phase == LOBBY else None
            await self._send_settings(page)
        elif kind == "press":
            await self._press(page, table, data)

    async def _invitation(self, auth: Any, lang: str) -> dict[str, Any]:
        """What a person opening a browser table's share link sees before picking a name: the
        table's variant and who sits there already (a bare "Your name" said neither what
        nor with whom). Nothing when the store cannot say: the name step works without it."""
        chat = links.chat_named(self.config.secret, auth)
        try:
            table = await self.service.table(chat) if chat else None
        except (StoreUnavailable, StoreDataError):
            return {}
        if table is None:
            return {}
        return {"variant": variant_title(table.variant, lang), "seats": [seat.name for seat in table.seats]}

    async def is_admin(self, viewer: links.Viewer, *, quick: bool = False, otherwise: bool = False) -> bool:
        """Whether the viewer is an admin of their table (adapters/web/admins.py: who, per kind).
        `quick` (a move): no wait and no store read; the kept answer, else `otherwise` (the page's last)."""
        chat = viewer.chat
        if viewer.admin:  # a link signed for one of the chat's admins (Discord's `/uno table`)
            return True
        if chat.startswith(BROWSER_PREFIX):
            if quick:  # a table's creator never changes: a move takes the page's answer, no store read
                return otherwise
            try:
                creator = (await self.service.store.get_chat_settings(chat)).get(CREATOR_KEY)
            except StoreUnavailable:
                return False
            return creator is not None and creator == viewer.person
        if viewer.via == "telegram":
            if quick:
                return self.admins.known(chat, viewer.person, otherwise)
            return await self.admins.telegram(chat, viewer.person)
        return False

    def commands(self, chat: str, lang: str) -> dict[str, str] | None:
        """How core's texts name commands on this table's page: a browser table's buttons
        (`texts.web_commands`); a chat's table keeps the chat's commands (a Telegram group's
        Mini App: `/new` is typed in that group; a Discord channel's page: `/uno new`; a
        console's: `unobot play`)."""
        if chat.startswith(BROWSER_PREFIX):
            return web_commands(lang)
        if chat.startswith(CONSOLE_PREFIX):  # a console's table (`unobot play --web`): its terminal's words
            return console_commands(lang)
        return dict(DISCORD_COMMANDS) if chat.startswith(DISCORD_PREFIX) else None

    def person(self, page: Page) -> c.Person:
        """The page's person as the service sees them (an admin or not, as asked)."""
        viewer = page.viewer
        assert viewer is not None
        return c.Person(viewer.person, viewer.name, page.lang, page.admin)

    # -- settings ------------------------------------------------------------------------
    async def _send_settings(self, page: Page) -> None:
        assert page.viewer is not None
        try:
            settings = await self.service.settings(page.viewer.chat)
        except StoreUnavailable as exc:
            await self._send(page, {"type": "refused", "code": store_error_code(exc), "text": failure_text(
                exc, page.lang, keeps_nothing=self.service.keeps_nothing)})
            return
        await self._send(page, settings_payload(settings, page.lang, page.admin))

    async def _press(self, page: Page, table: Table | None, data: dict[str, Any]) -> None:
        """A press of the settings panel: core's settings flow, as the chats carry it out."""
        viewer = page.viewer
        assert viewer is not None
        code, typed = data.get("id"), data.get("typed")
        if not isinstance(code, str) or (typed is not None and not isinstance(typed, str)):
            await self._refuse(page, "bad_action", page.lang)
            return
        async with self.lock(viewer.chat):
            done = await settings_press(self.service, viewer.chat, self.person(page), code, typed,
                                        lang=page.lang, size=SETTINGS_PAGE)
        if done.refusal:
            await self._send(page, {"type": "refused", "code": "settings", "text": done.refusal})
        elif done.outcome is not None:
            await self._send(page, {"type": "notice", "lines": [done.note(page.lang)]})
            await self._saved(viewer.chat, done.outcome)
            return
        page.settings = True
        await self._send_settings(page)

    async def _saved(self, chat: str, out: Outcome) -> None:
        """The chat's settings changed here: its pages' panels and its lobby (which takes them) are
        drawn anew, and the chat's own front-end is told (its lobby message)."""
        table = await self.service.table(chat)
        for other in list(self.pages.get(chat, ())):
            if other.settings:
                other.lobby_settings = lobby_settings(table) if table is not None else None
                await self._send_settings(other)
        if table is not None:
            await self._broadcast(chat, table)
        if self.on_outcome is not None and table is not None and table.phase == LOBBY:
            try:
                await self.on_outcome(chat, Outcome(ok=True, changed=True, table=table, settings=out.settings))
            except Exception:  # the chat's own front-end failing must not stop the page
                log.exception("chat %s: the outcome hook failed", chat)

    async def _sit(self, page: Page, data: dict[str, Any], lang: str) -> None:
        name = clean_name(data.get("name"))
        if name is None:
            await self._refuse(page, "bad_name", lang)
            return
        chat = links.read_table_token(self.config.secret, str(data["auth"]["table"]))
        person = "w" + secrets.token_hex(8)
        token = links.player_token(self.config.secret, chat, person, name, time.time() + BROWSER_SEAT_SECONDS, lang)
        await self._send(page, {"type": "player", "token": token})

    async def _act(self, page: Page, table: Table | None, data: dict[str, Any]) -> None:
        viewer = page.viewer
        assert viewer is not None
        action_id, version = data.get("id"), data.get("version")
        if not isinstance(action_id, str) or not isinstance(version, int) or isinstance(version, bool):
            await self._refuse(page, "bad_action", page.lang)
            return
        cmd = decode(action_id, version, table, viewer.person)
        if cmd is None:
            await self._refuse(page, "bad_action", page.lang)
            await self._push(page, table, force=True)
            return
        if isinstance(cmd, c.Again) and not viewer.chat.startswith(BROWSER_PREFIX):
            # A chat's table (a Telegram group's Mini App): the lobby is the group's, whose
            # bot posts its status when it sees it (`UNPOSTED`), whichever process that is.
            cmd = c.Again(unposted=True, version=cmd.version, match=cmd.match)
        person = self.person(page)
        async with self.lock(viewer.chat):
            await self._settle(viewer.chat)
            out = await self.service.handle(viewer.chat, person, cmd)
            if out.ok:
                await self._publish(viewer.chat, out)
                # Answered even when the table it is drawn from did not change (its page marks
                # a move as on its way until an answer comes, and holds further taps meanwhile).
                await self._send(page, {"type": "done", "id": action_id})
                return
        if out.code == "store_unconfirmed":
            # Applied on the primary, not confirmed by its copies: neither done nor refused. Every
            # page of the chat keeps the table it shows (the move is not drawn as made) and says
            # it waits; `_settle` draws the table once the store has said (kept or lost).
            await self._send(page, {"type": "refused", "code": out.code, "text": out.refusal(page.lang)})
            await self._tell_unconfirmed(viewer.chat)
            return
        # Said in the page's language (the outcome's text is in the table's). A stale tap is
        # the page's own words: the chats' "open your hand again" means nothing here, where
        # the table is drawn anew just below.
        if out.code == "stale":
            text = refusal("bad_action", page.lang)
        else:
            # its reason too (which rules clash) in the page's language, naming the page's buttons
            text = out.refusal(page.lang, self.commands(viewer.chat, page.lang))
        await self._send(page, {"type": "refused", "code": out.code, "text": text})
        await self._push(page, out.table or await self.service.table(viewer.chat), force=True)

    async def _settle(self, chat: str) -> None:
        """Tell the chat's pages what became of its moves the store did not confirm ("Confirmed
        now", "was lost"): a page that read "not confirmed yet, I will say here whether this
        counts" is told, at the next move made here or at the watcher's next look. (Core's
        `handle` settles them too, but puts the lines among the outcome's notices, which the
        page does not show: they were never said on the page.)"""
        if not self.service.unconfirmed.waiting(chat):
            return
        try:
            said = await self.service.settle_unconfirmed_said(chat)
        except StoreUnavailable:  # still down: asked again next time
            return
        if not said:  # undecided yet: the pages keep waiting
            return
        for page in list(self.pages.get(chat, ())):  # each in its reader's language
            await self._send(page, {"type": "notice", "lines": [m.text(page.lang) for m in said]})
        # Decided: the table as the store now holds it (the move made, or not), drawn at last.
        try:
            table = await self.service.table(chat)
        except StoreUnavailable:
            return
        pages = list(self.pages.get(chat, ()))
        await asyncio.gather(*(self._push(p, table, force=True) for p in pages), return_exceptions=True)

    async def _stored_confirmed(self, chat: str, game_id: str | None, version: int) -> bool:
        """Whether the chat's game as stored (at `version`) may be drawn as made: on a store
        that counts a save only once copies have it, a save by another process serving the
        chat (a Telegram player's move, another web server's) is on the primary before its
        copies confirm it, and that process says "not confirmed yet" only in its own chat.
        Not confirmed (`Store.confirm_stored`, a barrier over every save made before), its
        receipt goes into the chat's ledger as this process's own would: the pages keep the
        table they show, marked as waiting, and are told whether it counts or was lost,
        then drawn as the store settled (`_settle`, at the watcher's next look). Not
        confirmed and already moved on (no receipt): not drawn; the next look reads on."""
        async def waiting(exc: StoreUnconfirmed) -> None:
            if exc.receipt is not None:
                log.info("chat %s: another process's save is not confirmed yet: drawn as waiting", chat)
                self.service.unconfirmed.note(chat, exc, "")
                await self._tell_unconfirmed(chat)

        return await confirmed_as_stored(self.service, chat, version, game_id=game_id, unconfirmed=waiting)

    async def _tell_unconfirmed(self, chat: str) -> None:
        """Every page of `chat`: a move waits for the store's confirmation (said in its language)."""
        for page in list(self.pages.get(chat, ())):
            await self._send(page, {"type": "unconfirmed", "text": error_text("store_unconfirmed", page.lang)})

    def lock(self, chat: str) -> asyncio.Lock:
        found = self.locks.get(chat)
        if found is None:
            found = self.locks[chat] = asyncio.Lock()
        return found

    # -- after a move ------------------------------------------------------------------------
    def after(self, chat: str, out: Outcome) -> None:
        """A move was made here: show it everywhere (not waited for)."""
        asyncio.ensure_future(self._publish(chat, out))

    async def _publish(self, chat: str, out: Outcome) -> None:
        table = out.table
        for page in list(self.pages.get(chat, ())):
            if page.viewer is not None and out.private.get(page.viewer.person):
                # In the page's language (its reader's now), not the one the seat joined with,
                # which is what `private` holds: core says each line again in any language.
                lines = out.private_for(page.viewer.person, page.lang) or out.private[page.viewer.person]
                await self._send(page, {"type": "notice", "lines": lines})
        await self._broadcast(chat, table)
        if table is not None:
            self.planned.add(chat)
            self.plan_versions[chat] = table.version
            self.waker.after(chat, table, out)
        if self.on_outcome is not None and out.changed:
            try:
                await self.on_outcome(chat, out)
            except Exception:  # the chat's own front-end failing must not stop the page
                log.exception("chat %s: the outcome hook failed", chat)

    async def _broadcast(self, chat: str, table: Table | None) -> None:
        pages = list(self.pages.get(chat, ()))
        await asyncio.gather(*(self._push(p, table) for p in pages), return_exceptions=True)

    async def _push(self, page: Page, table: Table | None, *, force: bool = False) -> None:
        viewer = page.viewer
        if viewer is None:
            return
        version = table.version if table is not None else -1
        if version == page.sent and not force:
            return
        if table is None and page.finished and not force:
            return
        page.sent = version
        page.finished = table is not None and table.phase == FINISHED
        data = state.payload(table, viewer.person, page.lang, now=self.service.clock(), chat=viewer.chat,
                             is_admin=page.admin, offer_again=viewer.chat.startswith(BROWSER_PREFIX))
        if table is None:  # no game: what to do next, as the chats say it (with this page's words)
            data["headline"] = error_text("no_game", page.lang, self.commands(viewer.chat, page.lang))
        elif gone := rules_gone_line(table, page.lang, self.commands(viewer.chat, page.lang)):
            data["headline"] = gone  # a rule plugin gone since the deal: why nothing is offered
        if page.one_game:  # the next game's lobby would refuse this link ("an earlier game")
            data["actions"] = [a for a in data["actions"] if a["kind"] != AGAIN]
        if self.service.unconfirmed.waiting(viewer.chat):  # drawn, but as waiting: no move offered
            data["unconfirmed"] = error_text("store_unconfirmed", page.lang)
        if self.config.keep_payloads:  # the tests' privacy scan: what was sent, beside every hand then
            hands = [[card.text for card in h] for h in table.game.hands] if table is not None and table.game else []
            self.sent.setdefault(viewer.person, []).append({"payload": json.loads(json.dumps(data)),
                                                            "seat": data.get("seat"), "hands": hands})
        await self._send(page, data)
        if page.settings and table is not None and table.phase == LOBBY:
            now = lobby_settings(table)
            if page.lobby_settings is not None and now != page.lobby_settings:
                await self._send_settings(page)
            page.lobby_settings = now

    async def _send(self, page: Page, data: dict[str, Any]) -> None:
        if page.ws.closed:
            return
        if page.log is not None:
            page.log.append(data)
        with contextlib.suppress(ConnectionError, RuntimeError):
            await page.ws.send_str(json.dumps(data, ensure_ascii=False))

    async def _store_failed(self, page: Page, exc: StoreUnavailable | StoreDataError) -> None:
        """Tell the page the store could not serve its message, in its language, as the chats
        say it (the socket stays open: the page's next message tries again)."""
        log.warning("a page's message could not be handled: %s", exc)
        code = "store_data" if isinstance(exc, StoreDataError) else store_error_code(exc)
        commands = self.commands(page.viewer.chat, page.lang) if page.viewer is not None else None
        await self._send(page, {"type": "refused", "code": code, "texts": page_texts(page.lang),
                                "lang": page.lang, "dir": direction(page.lang),
                                "text": failure_text(exc, page.lang, keeps_nothing=self.service.keeps_nothing,
                                                     commands=commands)})

    async def _refuse(self, page: Page, code: str, lang: str, *, texts: bool = False, text: str | None = None) -> None:
        data: dict[str, Any] = {"type": "refused", "code": code, "text": text or refusal(code, lang)}
        if texts:
            data["texts"] = page_texts(lang)
            data["dir"] = direction(lang)
        await self._send(page, data)

    # -- pages and watchers --------------------------------------------------------------
    def _add(self, page: Page) -> None:
        assert page.viewer is not None
        chat = page.viewer.chat
        for pages in self.pages.values():
            pages.discard(page)
        self.pages.setdefault(chat, set()).add(page)
        if self.following is None:
            self.following = start_following(self.service.store.changes(), self._changed, others_only=False)
        if chat not in self.watchers or self.watchers[chat].done():
            self.watchers[chat] = asyncio.ensure_future(self._watch(chat))

    def _drop(self, page: Page) -> None:
        for chat, pages in list(self.pages.items()):
            pages.discard(page)
            if not pages:
                del self.pages[chat]

    async def _watch(self, chat: str) -> None:
        """While pages are open on `chat`: show moves made elsewhere (inline mode, another process)."""
        while self.pages.get(chat):
            await asyncio.sleep(self.config.poll if self.following is None else max(self.config.poll, FEED_POLL))
            async with self.lock(chat):
                if self.service.unconfirmed.waiting(chat):
                    await self._settle(chat)
                await self._look(chat)
        self.watchers.pop(chat, None)
        if not self.lock(chat).locked():
            self.locks.pop(chat, None)

    async def _changed(self, change: Change) -> None:
        """The store says a chat's game changed (here or in another process): a
        look at each chat concerned that has pages open (one at a time per chat;
        changes that come meanwhile make one more look)."""
        for chat in list(self.pages) if change.resync else [change.chat_id]:
            if not self.pages.get(chat):
                continue
            running = self.looking.get(chat)
            if running is not None and not running.done():
                self.look_again.add(chat)
                continue
            self.looking[chat] = asyncio.ensure_future(self._look_soon(chat))

    async def _look_soon(self, chat: str) -> None:
        try:
            while True:
                self.look_again.discard(chat)
                async with self.lock(chat):
                    await self._look(chat)
                if chat not in self.look_again:
                    return
        finally:
            self.looking.pop(chat, None)

    async def _look(self, chat: str) -> None:
        """One look at the store for the watcher: show a newer table (or its end). Not while
        a move made here waits for the store's confirmation: the store's newer table holds
        it, and drawing it would show it as made (`_settle` draws it once decided)."""
        if self.service.unconfirmed.waiting(chat):
            return
        try:
            game_id = await self.service.store.chat_game(chat)
            seen = {p.sent for p in self.pages.get(chat, ())}
            if game_id is None:
                if any(p.sent != -1 and not p.finished for p in self.pages.get(chat, ())):
                    await self._broadcast(chat, await self._ended(chat))
                return
            self.games[chat] = game_id
            table = await self.service.table(chat)
        except Exception as exc:  # a store outage: the pages keep what they have
            log.debug("chat %s: watcher could not read the table: %s", chat, exc)
            return
        if table is not None and seen != {table.version}:
            # A version no page was sent was saved by another process (this one's own moves
            # are drawn as they are made): drawn once the store's copies have it.
            if not await self._stored_confirmed(chat, game_id, table.store_version):
                return
            await self._broadcast(chat, table)
        if table is not None and chat in self.planned and self.plan_versions.get(chat) != table.version:
            self.plan_versions[chat] = table.version  # moved elsewhere: what it needs now
            self.waker.cancel(chat)
            self.waker.ensure(chat, table)

    async def _ended(self, chat: str) -> Table | None:
        """The chat's last game, if it ended as a finished match (shown: who won);
        None when it was stopped or is gone (the page says no game runs)."""
        game_id = self.games.pop(chat, None)
        if game_id is None:
            return None
        try:
            table, _version = await self.service.session.load(game_id)
        except Exception:
            return None
        return table if table.phase == FINISHED else None

    # -- wakes ---------------------------------------------------------------------------
    async def _ring(self, kind: str, chat: str, data: WakeData) -> None:
        async with self.lock(chat):
            fired = await self.waker.fire(kind, chat, data)
            if fired.changed and fired.outcome is not None:
                await self._publish(chat, fired.outcome)

    async def _shutdown(self, app: web.Application) -> None:
        self.timers.close()
        for task in self.watchers.values():
            task.cancel()
        for task in list(self.looking.values()):
            task.cancel()
        for asking in list(self.admins.asking.values()):
            asking.cancel()
        await stop_following(self.following)  # a second at most: the store's close (after this) ends a read
        self.following = None
        for pages in list(self.pages.values()):
            for page in list(pages):
                await page.ws.close()


def served_under(public_url: str) -> list[str]:
    """The path prefixes the routes answer under: the root, and `web.public_url`'s path when
    it has one (`https://example.org/uno` -> "/uno").

    Why both: a reverse proxy in front may pass the prefix on (Caddy's `handle /uno/*`,
    nginx's `proxy_pass http://127.0.0.1:8080;`) or strip it (Caddy's `handle_path`, nginx's
    `proxy_pass http://127.0.0.1:8080/;`), and the page works under either, because every
    address it asks for is relative to itself (static/app.js, state.card_url)."""
    path = urlsplit(public_url).path.rstrip("/")
    return [""] if not path else ["", path]


def accepted_language(header: str) -> str:
    """The first language of an Accept-Language header spoken here (`de-DE,de;q=0.9` -> `de`),
    else English. (Browsers list them most wanted first.)"""
    for part in header.split(","):
        found = known(part.split(";", 1)[0].strip())
        if found:
            return found
    return normalize(None)


def split_game(chat: str) -> tuple[str, int | None]:
    """`chat#seed` (a link for one game) -> (chat, seed); a plain chat -> (chat, None)."""
    head, sep, tail = chat.rpartition("#")
    if sep:
        try:
            return head, int(tail)
        except ValueError:
            pass
    return chat, None


def clean_name(raw: Any) -> str | None:
    """A player's chosen name: 1-32 printable characters, spaces collapsed; None if not."""
    if not isinstance(raw, str):
        return None
    name = " ".join(raw.split())
    if not 1 <= len(name) <= 32 or not name.isprintable():
        return None
    return name


def render_png(card: Any) -> bytes:
    """The card's picture as a page shows it: the stickers' art (`adapters/card_art.py`), 176x248."""
    import io

    from unobot.adapters.card_art import card_image

    image = card_image(card, 248)
    buf = io.BytesIO()
    image.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


async def start(web_table: WebTable, host: str, port: int, sock: socket.socket | None = None) -> web.AppRunner:
    """Serve `web_table` on host:port, or on `sock` when the caller bound it
    beforehand (the caller keeps the runner and cleans it up)."""
    runner = web.AppRunner(web_table.app, access_log=None, shutdown_timeout=1.0)
    await runner.setup()
    await (web.SockSite(runner, sock) if sock is not None else web.TCPSite(runner, host, port)).start()
    return runner
