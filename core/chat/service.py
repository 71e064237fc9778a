"""The chat service: carries out commands for a chat, through the store.

The thin part around the table's rules: it finds the chat's table, runs the
pure step (core/chat/play.py, core/chat/lobby.py) through the one session
layer (core/session.py: load with version, step, compare-and-set save,
retry on conflict, remember the last saved version), and says what
happened. So several bot processes can serve one chat without losing or
doubling a move, and a move costs one store round trip when this process
saved the table last. Settings (core/chat/settings.py), moving a chat to a
new id (core/chat/migration.py) and counters (core/chat/stats.py) live in
modules of their own.
"""

from __future__ import annotations

import contextlib
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Any

from ..delivery import redelivery
from ..errors import MoveError
from ..rule_failure import RuleFailure
from ..session import Change, Session
from ..state import StateFormatError
from ..store import (
    GameNotFound,
    Store,
    StoreDataError,
    StoreError,
    StoreRefusing,
    StoreSlow,
    StoreUnavailable,
    StoreUnconfirmed,
    VersionConflict,
)
from ..variants import VariantError
from . import commands as c
from . import delivered, migration, play, records
from .bounded import BoundedCache
from .i18n import N_, Msg, normalize
from .lobby import again_join, open_again, open_table
from .outcome import AI_NAMES, MAX_PLAYERS, ChatError, Defaults, Outcome
from .place_names import PlaceNotes
from .render import FORGETFUL_OUTAGE, REDELIVERED_OUTAGE, store_error_code
from .rules_refusals import missing_detail
from .settings import SETTINGS_COMMANDS, catch_up, settings_command
from .stats import record_stats
from .table import BETWEEN_ROUNDS, FINISHED, LOBBY, PLAYING, TABLES, Table
from .unconfirmed import Unconfirmed

__all__ = ["AI_NAMES", "MAX_PLAYERS", "ChatError", "ChatService", "Defaults", "Outcome"]

log = logging.getLogger(__name__)

STORE_WARNING_EVERY = 60.0
"""Seconds between two log warnings of the same store failure (see :class:`Throttle`)."""


class Throttle:
    """Log a warning at most once per reason per ``every`` seconds.

    Why: while the store is down or refusing, every command of every chat
    fails the same way; one line a minute per reason says so (with how many
    were not logged since) without burying the rest of the log.
    """

    def __init__(self, every: float = STORE_WARNING_EVERY, *,
                 clock: Callable[[], float] = time.monotonic, limit: int = 256) -> None:
        self.every = every
        self.clock = clock
        self.limit = limit  # reasons remembered (a reason may name a node: they are few)
        self._seen: OrderedDict[str, tuple[float, int]] = OrderedDict()  # reason -> (logged at, held back)

    def warn(self, reason: str, message: str, *args: Any) -> bool:
        """Log ``message % args`` unless ``reason`` was logged less than ``every`` s ago."""
        now = self.clock()
        last = self._seen.get(reason)
        if last is not None and now - last[0] < self.every:
            self._seen[reason] = (last[0], last[1] + 1)
            return False
        held = last[1] if last is not None else 0
        if held:
            message += " (%d more like it not logged in the last %g s)"
            args = (*args, held, self.every)
        log.warning(message, *args)
        self._seen[reason] = (now, 0)
        self._seen.move_to_end(reason)
        while len(self._seen) > self.limit:
            self._seen.popitem(last=False)
        return True


class ChatService:
    def __init__(self, store: Store, *, defaults: Defaults | None = None,
                 clock: Callable[[], float] = time.time, max_tries: int = 8,
                 rng: random.Random | None = None, cache_size: int = 1024,
                 settings_from: Callable[[str], Sequence[str]] | None = None, keeps_nothing: bool = False,
                 settings_followers: Callable[[str], str | None] | None = None,
                 reader_lang: Callable[[str], str | None] | None = None) -> None:
        self.store = store
        #: The store keeps nothing on disk (`adapters.startup.store_persistence`
        #: found neither snapshots nor an append-only file): an outage is said
        #: without the promise that nothing was lost, since its restart loses every game.
        self.keeps_nothing = keeps_nothing
        #: Where a chat's settings are kept, nearest first: its own, then the
        #: places it inherits from (a Discord channel, then its server; a
        #: Telegram forum topic has only its group's). The chat alone by default.
        self.settings_from = settings_from or (lambda chat: (chat,))
        #: The start of the ids of the chats that may take their settings from
        #: a place (`settings_from`'s inverse, as a prefix the store can match:
        #: a Telegram group's topics, a Discord server's channels), or None
        #: when no other chat does (each chat its own: the default).
        self.settings_followers = settings_followers or (lambda place: None)
        #: A chat's language when its settings name none, if the front-end knows
        #: who reads it: a Telegram private chat is one person, whose app's
        #: language is known from their updates (issue 26: a person's own texts
        #: in their language). None: the bot's default. Given at construction,
        #: as every other way the front-end shapes the service: a service is
        #: never seen, by a waker or a web table sharing it, without it.
        self.reader_lang: Callable[[str], str | None] = reader_lang or (lambda chat: None)
        self.session: Session[Table] = Session(store, TABLES, max_tries=max_tries, cache_size=cache_size)
        #: The game of each chat whose running table this process saved or
        #: loaded last: its next command needs no store read to find it.
        self._games: OrderedDict[str, str] = OrderedDict()
        self.cache_size = cache_size
        #: Where new games get their seeds (a seeded Random makes tests repeatable).
        self.rng = rng
        self.defaults = defaults or Defaults()
        self.clock = clock
        self.max_tries = max_tries
        #: Commands refused because of the store are logged through this (rate-limited).
        self.store_warnings = Throttle()
        #: Saves the store applied but did not confirm, per chat, until settled.
        self.unconfirmed = Unconfirmed(store)
        #: The language each chat was last read in (`known_language`): what a
        #: store outage is said in, when the chat's settings cannot be read.
        self._langs: BoundedCache[str, str] = BoundedCache(max(cache_size, 1))
        #: How each chat is known (`note_place`), as this process last wrote or read it.
        self.places = PlaceNotes()

    async def note_place(self, chat_id: str, kind: str, name: str | None, *, weak: bool = False) -> None:
        """Keep how people know this chat (a group's title, "#channel · Server"), as the
        front-end sees it now, for a player's record read elsewhere (`/me`:
        `place_names`). Written only when it changed; a store that cannot take it
        now loses nothing but the name (the next update notes it again), so a
        front-end runs it aside, never before it answers."""
        with contextlib.suppress(StoreError):
            await self.places.note(self.store, chat_id, kind, name, weak=weak)

    # -- reading ----------------------------------------------------------------
    async def table(self, chat_id: str) -> Table | None:
        found = await self.load(chat_id)
        return found[1] if found else None

    async def lobby(self, chat_id: str) -> Table | None:
        """The chat's table if it is a lobby: new settings show on a lobby's
        status (its game will play them), never on a game already started."""
        table = await self.table(chat_id)
        return table if table is not None and table.phase == LOBBY else None

    async def settings(self, chat_id: str) -> dict[str, Any]:
        """A chat's settings: each one from the nearest place that set it
        (`settings_from`; an empty value inherits), else the bot's defaults."""
        places = list(self.settings_from(chat_id))
        s = dict(await self.store.get_chat_settings(places[0]))
        for place in places[1:]:
            for key, value in (await self.store.get_chat_settings(place)).items():
                if key not in s and value not in (None, ""):
                    s[key] = value
        lang = s.get("lang") or self.reader_lang(chat_id) or self.defaults.lang
        self._langs.put(chat_id, str(lang))
        return {
            "variant": s.get("variant") or self.defaults.variant,
            "rules": s.get("rules") or {},
            "lang": lang,
            "timer": int(s.get("timer", self.defaults.timer) or 0),
            **{k: v for k, v in s.items() if k not in ("variant", "rules", "lang", "timer")},
        }

    async def language(self, chat_id: str) -> str:
        try:
            return str((await self.settings(chat_id))["lang"])
        except StoreUnavailable:
            return self.known_language(chat_id)

    def known_language(self, chat_id: str) -> str:
        """The chat's language as this process last read it, else the default; no store read.

        Why: a store that cannot be reached cannot say which language a chat
        speaks, and its outage message came in the default language to a chat
        that had played in German a second before (Telegram's answers to a
        press, a command, an inline query). A language changed by another
        process since is learnt at the next read that succeeds."""
        return self._langs.get(chat_id) or self.defaults.lang

    async def load(self, chat_id: str) -> tuple[str, Table] | None:
        """The chat's game id and table, read from the store."""
        game_id = await self.store.chat_game(chat_id)
        if not game_id:
            return None
        try:
            table, _version = await self.session.load(game_id)  # may raise StoreDataError (quarantined)
        except GameNotFound:
            await self.store.unbind_chat(chat_id, game_id)
            return None
        except StateFormatError as exc:
            log.error("chat %s: unreadable table %s: %s", chat_id, game_id, exc)
            await self.store.unbind_chat(chat_id, game_id)
            raise StoreDataError(game_id, str(exc)) from exc
        self._note(chat_id, game_id, table)
        self._langs.put(chat_id, table.lang)
        return game_id, table

    async def stats(self, scope: str, owner_id: str) -> dict[str, int]:
        """A chat's (`scope="chat"`) or a person's (`"user"`) counters."""
        return await self.store.get_stats(scope, owner_id)  # type: ignore[arg-type]

    # -- remembered games ---------------------------------------------------------------
    # Only running tables are remembered by chat: a chat's running game is
    # replaced only after it finished, and a stopped game is deleted (its
    # save then fails), so a remembered game id is never another chat's.
    def _note(self, chat_id: str, game_id: str, table: Table) -> None:
        if not self.cache_size or table.phase not in (PLAYING, BETWEEN_ROUNDS):
            self.forget(chat_id)
            return
        self._games[chat_id] = game_id
        self._games.move_to_end(chat_id)
        while len(self._games) > self.cache_size:
            self._games.popitem(last=False)

    def forget(self, chat_id: str) -> None:
        game_id = self._games.pop(chat_id, None)
        if game_id is not None:
            self.session.forget(game_id)

    # -- changing a table ----------------------------------------------------------------
    async def mutate(self, chat_id: str, fn: Callable[[Table], list[str] | None],
                     bump: bool = True) -> Table | None:
        """Change the chat's table with `fn` (None: no change) under compare-and-set."""
        game_id = await self.store.chat_game(chat_id)
        if not game_id:
            return None
        seen: list[Table] = []

        def change(table: Table) -> Change[Table] | None:
            seen[:] = [table]
            entries = fn(table)
            if entries is None:
                return None
            if bump:
                table.version += 1
            return Change(table, entries)

        try:
            saved = await self.session.update(game_id, change)
        except (GameNotFound, VersionConflict):  # stopped (deleted) meanwhile, or too busy
            return None
        if saved is None:
            return seen[0] if seen else None
        saved.value.store_version = saved.version
        self._note(chat_id, game_id, saved.value)
        return saved.value

    async def set_adapter_data(self, chat_id: str, changes: dict[str, Any], *,
                               seed: int | None = None) -> Table | None:
        """Merge `changes` into the table's `adapter` data (status message ids
        and the like), under compare-and-set but without a new revision: an
        adapter's bookkeeping must not make players' choices stale. `seed`
        names the game the data is for; if another game took the chat
        meanwhile (or none is left), nothing is saved and None returned."""
        return await self._merge_adapter(chat_id, seed, lambda _table: changes)

    async def claim_status(self, chat_id: str, message_id: int, *, seed: int, replacing: int | None = None,
                           extra: dict[str, Any] | None = None) -> Table | None:
        """Make a message just posted the game's status message, unless another
        process's post was recorded first: under compare-and-set, the status
        must still be `replacing` (the id the poster found deleted, or none,
        for a lobby just opened or one whose id was never recorded). Why:
        several processes serve one chat, and each that finds no status (or a
        deleted one) posts one; without this the last to record wins and the
        others' messages stay, their buttons "older". `extra` is merged
        either way. Returns the saved table: its status is `message_id` when
        this claim won, the other message's when it lost (the caller then
        deletes its own and shows the game on that one); None when another
        game took the chat, or none is left."""

        def changes(table: Table) -> dict[str, Any]:
            wanted = dict(extra or {})
            if (table.adapter.get("status") or None) == (replacing or None):
                wanted["status"] = message_id
            return wanted

        return await self._merge_adapter(chat_id, seed, changes)

    async def _merge_adapter(self, chat_id: str, seed: int | None,
                             changes_of: Callable[[Table], dict[str, Any]]) -> Table | None:
        """`set_adapter_data` and `claim_status`: merge what `changes_of` says
        (given the stored table) without a new revision, for game `seed`."""
        other = False

        def update(table: Table) -> list[str] | None:
            nonlocal other
            other = seed is not None and table.seed != seed
            if other:
                return None
            changes = changes_of(table)
            if all(table.adapter.get(k) == v for k, v in changes.items()):
                return None
            table.adapter.update(changes)
            return ["adapter " + ",".join(sorted(changes))]

        table = await self.mutate(chat_id, update, bump=False)
        return None if other else table

    async def move_chat(self, old: str, new: str) -> Table | None:
        """The chat now goes by another id: see core/chat/migration.py."""
        return await migration.move_chat(self, old, new)

    # -- the one entry point ------------------------------------------------------
    async def handle(self, chat_id: str, person: c.Person, command: c.Command) -> Outcome:
        """Carry out a command; first say what became of the chat's unconfirmed saves."""
        settled = await self.settle_unconfirmed(chat_id, person.lang)
        out = await self._handle(chat_id, person, command)
        out.notices[:0] = settled
        if out.ok and (again := redelivery()) is not None:
            again.saved = True  # carried out: an outage met after this is no reason to deliver it again
        return out

    async def settle_unconfirmed(self, chat_id: str, lang: str | None = None) -> list[str]:
        """What to tell the chat about its saves the store did not confirm (see
        core/chat/unconfirmed.py); an adapter may call it on a timer too."""
        if not self.unconfirmed.waiting(chat_id):
            return []
        return await self.unconfirmed.settle(chat_id, normalize(lang) if lang else self.defaults.lang)

    async def settle_unconfirmed_said(self, chat_id: str) -> list[Msg]:
        """`settle_unconfirmed` as texts each reader reads in their own language (the web
        table tells each page in its own)."""
        if not self.unconfirmed.waiting(chat_id):
            return []
        return await self.unconfirmed.settle_said(chat_id)

    async def _handle(self, chat_id: str, person: c.Person, command: c.Command) -> Outcome:
        lang = normalize(person.lang) if person.lang else None
        try:
            if isinstance(command, SETTINGS_COMMANDS):
                return await settings_command(self, chat_id, person, command)
            if isinstance(command, c.NewGame):
                return await open_table(self, chat_id, person, command)
            if isinstance(command, c.Again):
                again = await open_again(self, chat_id, person, command)
                # the lobby someone opened for this match: a seat as /join gives one, or why not
                return await self._table_command(chat_id, person, c.Join()) if again_join(again, person) else again
            if isinstance(command, c.Stop):
                return await self._stop(chat_id, person, command)
            return await self._table_command(chat_id, person, command)
        except StoreUnconfirmed as exc:  # applied, not confirmed: neither "done" nor "not saved"
            self.unconfirmed.note(chat_id, exc, person.name)
            self.forget(chat_id)
            self.store_warnings.warn("unconfirmed", "chat %s: a save is not confirmed: %s", chat_id, exc)
            return self.fail(store_error_code(exc), lang or self.known_language(chat_id))
        except StoreUnavailable as exc:
            if isinstance(exc, StoreSlow):
                self.forget(chat_id)  # the save may land later: the table is read again next time
            self.store_warnings.warn(str(exc), "chat %s: %s, command refused: %s", chat_id,
                                     "the store refused" if isinstance(exc, StoreRefusing)
                                     else "the store is not reachable", exc)
            return self.fail(store_error_code(exc), lang or self.known_language(chat_id))
        except StoreDataError:
            return self.fail("store_data", lang or self.known_language(chat_id))
        except VariantError as exc:
            # A rule the game was started with is no longer installed (its plugin
            # failed to load, or was removed): say so, never a traceback per update.
            log.warning("chat %s: the game's rules cannot be loaded: %s", chat_id, exc)
            # Which rule is missing (and its package when known): the admin who must act learns what.
            return self.fail("rules_unavailable", lang or self.defaults.lang, detail=missing_detail(exc))

    def fail(self, code: str, lang: str, table: Table | None = None, *, detail: Msg | None = None) -> Outcome:
        again = redelivery() if code in ("store_unavailable", "store_refusing") else None
        if again is not None:
            # Nothing was saved, and the platform sends this command again until the store
            # is back (a webhook answered 503): said once, and no "try again" (twice made).
            again.wanted = True
            reason = Msg(REDELIVERED_OUTAGE)
            return Outcome(ok=False, code=code, error="" if again.told else reason.text(lang), reason=reason,
                           table=table, quiet=again.told)
        if self.keeps_nothing and code in ("store_unavailable", "store_refusing"):
            reason = Msg(FORGETFUL_OUTAGE)  # each reader's language from it (`Outcome.refusal`)
            return Outcome(ok=False, code=code, error=reason.text(lang), reason=reason, table=table)
        out = Outcome(ok=False, code=code, detail=detail, table=table)
        out.error = out.refusal(lang)
        return out

    async def _stop(self, chat_id: str, person: c.Person, cmd: c.Stop) -> Outcome:
        found = await self.load(chat_id)
        if found is None:
            return self.fail("no_game", await self._fallback_lang(chat_id, person))
        game_id, table = found
        if not (person.id == table.creator or person.is_admin):
            return self.fail("not_allowed_admin", table.lang, table)
        if cmd.version is not None and cmd.version != table.version:
            return self.fail("stale", table.lang, table)
        after_rounds = isinstance(cmd, c.StopAfterRounds)
        played = records.played(table)  # what the log replays to, before the stop ends the match
        try:
            events = play.end_match_stopped(table, "rounds" if after_rounds else "stopped")  # the rules' match_end
            rules_loaded = True
        except VariantError as exc:
            # A rule plugin the game uses is gone: no rule can be told, and the
            # match is not archived (its record needs the rules), but the game
            # is put away, as the refusal of every other command ("rules_unavailable")
            # tells the admin it can be; else the chat could never play again.
            log.warning("chat %s: stopped without its rules (%s)", chat_id, exc)
            events, rules_loaded = [], False
        except RuleFailure as exc:
            # A rule's match_end raised: the stop must still put the game away
            # (it is how a table a broken rule holds up is freed), untold.
            log.warning("chat %s: stopped; a rule failed at the match's end: %s", chat_id, exc.detail)
            events = []
            rules_loaded = True
        said = [] if after_rounds else [Msg(N_("The game was stopped by {player}."), player=person.name)]
        said += play.event_texts(table, events)
        notices = [m.text(table.lang) for m in said]
        if rules_loaded and (after_rounds or played.rounds):  # rounds were played: kept and counted (before the log goes)
            await records.finish(self.store, game_id, table, events, notices,
                                 played=played, stopped=not after_rounds)
        await self.store.delete_game(game_id)
        self.forget(chat_id)
        table.phase = FINISHED
        return Outcome(ok=True, changed=True, table=table, events=events, notices=notices, said=said)

    async def _table_command(self, chat_id: str, person: c.Person, cmd: c.Command) -> Outcome:
        # a lobby deals its game on the chat's settings as they are now (`catch_up`)
        fresh = await self.settings(chat_id) if isinstance(cmd, c.Start) else None
        key = delivered.current_key()  # a platform's delivery, which it may send again
        for _attempt in range(self.max_tries):  # the chat's game may change under us (a stop, a new game)
            game_id = self._games.get(chat_id)
            remembered = game_id is not None
            if game_id is None:
                game_id = await self.store.chat_game(chat_id)
                if not game_id:
                    return self.fail("no_game", await self._fallback_lang(chat_id, person))
            judged: list[tuple[Table, Outcome]] = []

            def change(table: Table, judged: list[tuple[Table, Outcome]] = judged) -> Change[Table] | None:
                out = Outcome(table=table)
                judged[:] = [(table, out)]
                if delivered.made(table, key):  # sent again: its first copy made this change
                    out.repeated = True
                    return None
                before = table.phase
                if fresh is not None:
                    catch_up(table, fresh)
                entries = play.step(table, person, cmd, out, self.clock())
                if entries is None:
                    return None
                if table.phase == LOBBY and not table.seats and isinstance(cmd, (c.Leave, c.Kick)):
                    return Change(table, [], (out, before), delete=True)  # everyone left the lobby
                table.version += 1
                delivered.note(table, key)
                return Change(table, entries, (out, before))

            try:
                saved = await self.session.update(game_id, change, use_memory=remembered)
            except (ChatError, MoveError) as exc:
                if isinstance(exc, RuleFailure):  # the plugin's author reads what to fix in the log
                    log.warning("chat %s: %s", chat_id, exc.detail)
                table = judged[0][0]
                detail = exc.detail if isinstance(exc, ChatError) and isinstance(exc.detail, Msg) else None
                return self.fail(exc.code, table.lang, table, detail=detail)
            except GameNotFound:
                self.forget(chat_id)
                if remembered:
                    continue
                await self.store.unbind_chat(chat_id, game_id)
                return self.fail("no_game", await self._fallback_lang(chat_id, person))
            except VersionConflict:
                break
            if saved is None:  # nothing to save (a timer that is not due, say)
                table, nothing = judged[0]
                self._note(chat_id, game_id, table)
                return nothing
            out: Outcome = saved.result[0]
            before: str = saved.result[1]
            table = saved.value
            out.table, out.changed = table, True
            if saved.deleted:
                self.forget(chat_id)
                return out
            table.store_version = saved.version
            self._note(chat_id, game_id, table)
            if table.phase == FINISHED:
                if before != FINISHED:  # kept and counted once, whichever process ended it
                    await records.finish(self.store, game_id, table, out.events, out.notices)
                await self.store.unbind_chat(chat_id, game_id)
            if before != table.phase or out.round_over:
                await record_stats(self.store, chat_id, table, out)
            return out
        return self.fail("busy", await self._fallback_lang(chat_id, person))

    async def _fallback_lang(self, chat_id: str, person: c.Person) -> str:
        return normalize(person.lang) if person.lang else await self.language(chat_id)
