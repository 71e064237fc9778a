"""The chat service: carries out commands for a chat, through the store.

Every command that changes a table is computed from the version it loaded
and saved with compare-and-set; on a conflict it is computed again from the
newer table (where it may now be refused), so several bot processes can
serve one chat without losing or doubling a move. AI seats move right after
the human move that hands them the turn, in the same save.
"""

from __future__ import annotations

import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .. import engine
from ..ai import POLICIES, best_play
from ..cards import CardError, parse_card
from ..errors import MoveError
from ..events import MATCH_WON, ROUND_WON, Event
from ..moves import CATCH, CHALLENGE, DRAW, PASS, PLAY, UNO, Move, color_move
from ..service import LEAVE, NEXT_ROUND, deal_entry
from ..state import MATCH_OVER, ROUND_OVER, StateFormatError
from ..store import ChatBusy, GameNotFound, Store, StoreDataError, StoreUnavailable, VersionConflict
from ..variants import VariantError, known_variant, load_variant, rules_for
from . import commands as c
from .i18n import LANGUAGES, gettext_for, normalize
from .render import color_from_text, describe_event, describe_private, error_text
from .table import BETWEEN_ROUNDS, FINISHED, LOBBY, PLAYING, Seat, Table

log = logging.getLogger(__name__)

MAX_PLAYERS = 10
AI_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Margaret", "Dennis", "Ken", "Radia")


class ChatError(Exception):
    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass
class Outcome:
    """What a command did: the table after it, what to tell whom."""

    ok: bool = True
    code: str | None = None
    error: str | None = None
    table: Table | None = None
    events: list[Event] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    private: dict[str, list[str]] = field(default_factory=dict)
    changed: bool = False
    settings: dict[str, Any] | None = None
    #: AI seats wait: a person may jump in, catch or say UNO (send Continue).
    paused: bool = False

    @property
    def round_over(self) -> bool:
        return any(e.kind == ROUND_WON for e in self.events)

    @property
    def match_over(self) -> bool:
        return any(e.kind == MATCH_WON for e in self.events)


@dataclass
class Defaults:
    variant: str = "official"
    lang: str = "en"
    timer: int = 0
    lobby_minutes: float = 30.0


class ChatService:
    def __init__(self, store: Store, *, defaults: Defaults | None = None,
                 clock: Callable[[], float] = time.time, max_tries: int = 8,
                 rng: random.Random | None = None, cache_size: int = 1024) -> None:
        self.store = store
        self.cache_size = cache_size
        self._cache: OrderedDict[str, tuple[str, int, bytes]] = OrderedDict()
        #: Where new games get their seeds (a seeded Random makes tests repeatable).
        self.rng = rng
        self.defaults = defaults or Defaults()
        self.clock = clock
        self.max_tries = max_tries

    # -- reading ----------------------------------------------------------------
    async def table(self, chat_id: str) -> Table | None:
        found = await self._load(chat_id)
        return found[1] if found else None

    async def settings(self, chat_id: str) -> dict[str, Any]:
        s = await self.store.get_chat_settings(chat_id)
        return {
            "variant": s.get("variant") or self.defaults.variant,
            "rules": s.get("rules") or {},
            "lang": s.get("lang") or self.defaults.lang,
            "timer": int(s.get("timer", self.defaults.timer) or 0),
            **{k: v for k, v in s.items() if k not in ("variant", "rules", "lang", "timer")},
        }

    async def language(self, chat_id: str) -> str:
        try:
            return str((await self.settings(chat_id))["lang"])
        except StoreUnavailable:
            return self.defaults.lang

    async def _load(self, chat_id: str) -> tuple[str, Table] | None:
        game_id = await self.store.chat_game(chat_id)
        if not game_id:
            return None
        stored = await self.store.load_game(game_id)  # may raise StoreDataError (quarantined)
        if stored is None:
            await self.store.unbind_chat(chat_id, game_id)
            return None
        try:
            table = Table.decode(stored.state, stored.version)
        except StateFormatError as exc:
            log.error("chat %s: unreadable table %s: %s", chat_id, game_id, exc)
            await self.store.unbind_chat(chat_id, game_id)
            raise StoreDataError(game_id, str(exc)) from exc
        self._remember(chat_id, game_id, table, stored.state)
        return game_id, table

    async def stats(self, scope: str, owner_id: str) -> dict[str, int]:
        """A chat's (`scope="chat"`) or a person's (`"user"`) counters."""
        return await self.store.get_stats(scope, owner_id)  # type: ignore[arg-type]

    async def set_adapter_data(self, chat_id: str, changes: dict[str, Any], *,
                               seed: int | None = None) -> Table | None:
        """Merge `changes` into the table's `adapter` data (status message ids
        and the like), under compare-and-set but without a new revision: an
        adapter's bookkeeping must not make players' choices stale. `seed`
        names the game the data is for; if another game took the chat
        meanwhile (or none is left), nothing is saved and None returned."""
        other = False

        def update(table: Table) -> list[str] | None:
            nonlocal other
            other = seed is not None and table.seed != seed
            if other or all(table.adapter.get(k) == v for k, v in changes.items()):
                return None
            table.adapter.update(changes)
            return ["adapter " + ",".join(sorted(changes))]

        table = await self._mutate(chat_id, update, bump=False)
        return None if other else table

    async def move_chat(self, old: str, new: str) -> Table | None:
        """The chat now goes by another id (Telegram gives a group that
        becomes a supergroup a new one): its running game, counters and
        settings follow it, and nothing stays running under the old id.

        Safe to call again after a failure halfway (a store outage) and to
        call twice (Telegram announces the move in both chats): a game copied
        before is recognised by its seed and brought up to date, and what
        moved is gone from the old id. The moved table's `adapter` data is
        cleared: it names things of the old chat (message ids), which the
        adapter makes anew. Returns the moved table, or None when there was
        no game to move (or the new id runs another game: both are left be).
        """
        moved = None
        found = await self._load(old)
        if found is not None:
            moved = await self._move_game(old, new, *found)
        counters = {k: v for k, v in (await self.store.get_stats("chat", old)).items() if v}
        if counters:
            await self.store.incr_stats("chat", new, counters)
            await self.store.incr_stats("chat", old, {k: -v for k, v in counters.items()})
        settings = await self.store.get_chat_settings(old)
        if settings:  # last: a retry after a failure finds them still here, and copying again is harmless
            await self.store.update_chat_settings(new, settings)
            await self.store.clear_chat_settings(old)
        return moved

    async def _move_game(self, old: str, new: str, game_id: str, table: Table) -> Table | None:
        for _attempt in range(self.max_tries):
            copy = Table.decode(table.encode(), table.store_version)
            copy.chat_id, copy.adapter = new, {}
            try:
                new_game, copy.store_version = await self.store.create_game(
                    new, copy.encode(), log=[f"moved from {old}"])
            except ChatBusy:
                there = await self._load(new)
                if there is None or there[1].seed != table.seed:
                    return None  # the new chat's own game
                new_game, current = there  # copied by an earlier call
                if table.version > current.version:  # the old game moved on since: copy it again
                    try:
                        copy.store_version = await self.store.save_game(
                            new_game, copy.encode(), expected_version=current.store_version,
                            log=[f"moved from {old}"])
                    except VersionConflict:
                        continue
                else:
                    copy = current
            # A move that landed on the old game meanwhile is carried over before it goes.
            stored = await self.store.load_game(game_id)
            if stored is not None and stored.version != table.store_version:
                table = Table.decode(stored.state, stored.version)
                continue
            # Deleted, not just unbound: a process that remembers the old game's
            # id must find nothing there, not a running game nobody can reach.
            await self.store.delete_game(game_id)
            self._forget(old)
            return copy
        return None

    # -- the one entry point ------------------------------------------------------
    async def handle(self, chat_id: str, person: c.Person, command: c.Command) -> Outcome:
        lang = normalize(person.lang) if person.lang else None
        try:
            if isinstance(command, (c.SetVariant, c.SetRule, c.ResetRules, c.SetLanguage, c.SetTimer)):
                return await self._settings_command(chat_id, person, command)
            if isinstance(command, c.NewGame):
                return await self._new_game(chat_id, person, command)
            return await self._table_command(chat_id, person, command)
        except StoreUnavailable:
            return self._fail("store_unavailable", lang or self.defaults.lang)
        except StoreDataError:
            return self._fail("store_data", lang or self.defaults.lang)
        except VariantError as exc:
            # A rule the game was started with is no longer installed (its plugin
            # failed to load, or was removed): say so, never a traceback per update.
            log.warning("chat %s: the game's rules cannot be loaded: %s", chat_id, exc)
            return self._fail("rules_unavailable", lang or self.defaults.lang)

    def _fail(self, code: str, lang: str, table: Table | None = None) -> Outcome:
        return Outcome(ok=False, code=code, error=error_text(code, lang), table=table)

    # -- settings -------------------------------------------------------------------
    async def _settings_command(self, chat_id: str, person: c.Person, cmd: c.Command) -> Outcome:
        current = await self.settings(chat_id)
        lang = current["lang"]
        if not person.is_admin:
            return self._fail("not_admin", lang)
        changes: dict[str, Any] = {}
        variant, rules = current["variant"], dict(current["rules"])
        if isinstance(cmd, c.SetLanguage):
            code = cmd.lang.lower().strip()
            if code not in LANGUAGES:
                return self._fail("bad_language", lang)
            changes["lang"] = code
        elif isinstance(cmd, c.SetTimer):
            changes["timer"] = max(0, min(int(cmd.seconds), 3600))
        elif isinstance(cmd, c.SetVariant):
            try:
                known_variant(cmd.name)
                load_variant(cmd.name)
            except VariantError:
                return self._fail("unknown_variant", lang)
            variant = cmd.name
            changes["variant"] = variant
        elif isinstance(cmd, c.ResetRules):
            rules = {}
            changes["rules"] = rules
        elif isinstance(cmd, c.SetRule):
            from ..registry import available_rules

            known = available_rules()
            if cmd.rule not in known:
                return self._fail("unknown_rule", lang)
            if cmd.option is not None:
                entry = rules.get(cmd.rule)
                entry = dict(entry) if isinstance(entry, dict) else {}
                entry[cmd.option] = cmd.value
                rules[cmd.rule] = entry
            elif cmd.enabled is False:
                rules[cmd.rule] = False
            elif cmd.enabled is True:
                entry = rules.get(cmd.rule)
                rules[cmd.rule] = entry if isinstance(entry, dict) else {}
            changes["rules"] = rules
        if "variant" in changes or "rules" in changes:
            try:
                rules_for(variant, rules or None)
            except VariantError as exc:
                code = "rule_conflict" if "conflict" in exc.message or "needs" in exc.message else "bad_option"
                return self._fail(code, lang)
        await self.store.update_chat_settings(chat_id, changes)
        # A lobby that has not started yet takes the new settings too.
        found = await self._load(chat_id)
        if found and found[1].phase == LOBBY:
            await self._mutate(chat_id, lambda t: self._apply_settings(t, changes))
        return Outcome(ok=True, changed=True, settings=await self.settings(chat_id))

    @staticmethod
    def _apply_settings(table: Table, changes: dict[str, Any]) -> list[str] | None:
        if table.phase != LOBBY:
            return None
        if "variant" in changes:
            table.variant = changes["variant"]
        if "rules" in changes:
            table.overrides = changes["rules"]
        if "lang" in changes:
            table.lang = changes["lang"]
        if "timer" in changes:
            table.timer = changes["timer"]
        return ["settings"]

    # -- new game ---------------------------------------------------------------------
    async def _new_game(self, chat_id: str, person: c.Person, cmd: c.NewGame) -> Outcome:
        settings = await self.settings(chat_id)
        lang = settings["lang"]
        variant = cmd.variant or settings["variant"]
        try:
            if cmd.variant:
                known_variant(variant)  # a chat names a variant; it never gives a path
            load_variant(variant)
        except VariantError:
            return self._fail("unknown_variant", lang)
        try:
            rules_for(variant, settings["rules"] or None)
        except VariantError:  # the chat's house rules conflict with this variant's
            return self._fail("variant_rules_clash", lang)
        now = self.clock()
        table = Table(chat_id=chat_id, creator=person.id, variant=variant, overrides=settings["rules"], version=1,
                      lang=lang, seats=[Seat(person.id, person.name)] if cmd.join else [], seed=self.rng.getrandbits(48) if self.rng else secrets.randbits(48),
                      created=now, turn_started=now, timer=settings["timer"])
        try:
            game_id, version = await self.store.create_game(chat_id, table.encode(), log=[f"new {person.id}"])
        except ChatBusy:
            found = await self._load(chat_id)
            if found and not self._abandoned(found[1]):
                return self._fail("game_running", lang, found[1])
            game_id, version = await self.store.create_game(
                chat_id, table.encode(), replace=True, log=[f"new {person.id}"])
        table.store_version = version
        _ = gettext_for(lang)
        return Outcome(ok=True, changed=True, table=table, notices=[
            _("{player} opened a game of {variant}. Join with /join; start with /start.").format(
                player=person.name, variant=load_variant(variant).label(lang))])

    def _abandoned(self, table: Table) -> bool:
        if table.phase == FINISHED:
            return True
        return table.phase == LOBBY and self.clock() - table.created > self.defaults.lobby_minutes * 60

    # -- commands on a table ----------------------------------------------------------
    async def _table_command(self, chat_id: str, person: c.Person, cmd: c.Command) -> Outcome:
        use_cache = True
        for _attempt in range(self.max_tries):
            found = self._recall(chat_id) if use_cache else None
            from_cache = found is not None
            if found is None:
                found = await self._load(chat_id)
            if found is None:
                return self._fail("no_game", await self._fallback_lang(chat_id, person))
            game_id, table = found
            if isinstance(cmd, c.Stop):
                if not (person.id == table.creator or person.is_admin):
                    return self._fail("not_allowed_admin", table.lang, table)
                if cmd.version is not None and cmd.version != table.version:
                    return self._fail("stale", table.lang, table)
                await self.store.delete_game(game_id)
                self._forget(chat_id)
                table.phase = FINISHED
                _ = gettext_for(table.lang)
                return Outcome(ok=True, changed=True, table=table,
                               notices=[_("The game was stopped by {player}.").format(player=person.name)])
            before = table.phase
            out = Outcome(table=table)
            try:
                log_entries = self._run(table, person, cmd, out)
            except (ChatError, MoveError) as exc:
                if from_cache:  # judge it again on the stored table, never on a remembered one
                    use_cache = False
                    continue
                return self._fail(exc.code, table.lang, table)
            if log_entries is None:  # nothing to save
                if from_cache:  # "nothing to do" is also judged on the stored table
                    use_cache = False
                    continue
                return out
            if table.phase == LOBBY and not table.seats and isinstance(cmd, (c.Leave, c.Kick)):
                await self.store.delete_game(game_id)
                self._forget(chat_id)
                out.changed = True
                return out
            table.version += 1
            encoded = table.encode()
            try:
                table.store_version = await self.store.save_game(
                    game_id, encoded, expected_version=table.store_version, log=log_entries)
            except VersionConflict:
                self._forget(chat_id)
                use_cache = False
                continue
            except GameNotFound:
                self._forget(chat_id)
                if from_cache:
                    use_cache = False
                    continue
                return self._fail("no_game", table.lang)
            self._remember(chat_id, game_id, table, encoded)
            out.changed = True
            if table.phase == FINISHED:
                await self.store.unbind_chat(chat_id, game_id)
            if before != table.phase or out.round_over:
                await self._record_stats(chat_id, table, out)
            return out
        return self._fail("busy", await self._fallback_lang(chat_id, person))

    async def _fallback_lang(self, chat_id: str, person: c.Person) -> str:
        return normalize(person.lang) if person.lang else await self.language(chat_id)

    # -- remembered tables ---------------------------------------------------------------
    # A running table this process saved or loaded last is remembered, so the
    # next move in the chat costs one store round trip (the save) instead of
    # three. It is safe because the save is compare-and-set (a table moved on
    # by another process makes it fail, and the command is computed again on
    # a fresh load), a refusal is always judged again on the stored table, and
    # only running tables are remembered: a chat's running game is replaced
    # only after it finished, and a stopped game is deleted (the save fails).

    def _recall(self, chat_id: str) -> tuple[str, Table] | None:
        entry = self._cache.get(chat_id)
        if entry is None:
            return None
        game_id, store_version, encoded = entry
        return game_id, Table.decode(encoded, store_version)

    def _remember(self, chat_id: str, game_id: str, table: Table, encoded: bytes) -> None:
        if not self.cache_size or table.phase not in (PLAYING, BETWEEN_ROUNDS):
            self._cache.pop(chat_id, None)
            return
        self._cache[chat_id] = (game_id, table.store_version, encoded)
        self._cache.move_to_end(chat_id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)

    def _forget(self, chat_id: str) -> None:
        self._cache.pop(chat_id, None)

    async def _mutate(self, chat_id: str, fn: Callable[[Table], list[str] | None],
                      bump: bool = True) -> Table | None:
        """Change the chat's table with `fn` (None: no change) under compare-and-set."""
        for _attempt in range(self.max_tries):
            found = await self._load(chat_id)
            if found is None:
                return None
            game_id, table = found
            entries = fn(table)
            if entries is None:
                return table
            if bump:
                table.version += 1
            encoded = table.encode()
            try:
                table.store_version = await self.store.save_game(
                    game_id, encoded, expected_version=table.store_version, log=entries)
            except VersionConflict:
                continue
            except GameNotFound:  # stopped (deleted) meanwhile
                return None
            self._remember(chat_id, game_id, table, encoded)
            return table
        return None

    # -- the pure part: change a table for a command; return log entries or None ------
    def _run(self, table: Table, person: c.Person, cmd: c.Command, out: Outcome) -> list[str] | None:
        _ = gettext_for(table.lang)
        seat = table.seat_of(person.id)
        if cmd.version is not None and cmd.version != table.version:
            raise ChatError("stale")
        if isinstance(cmd, c.Join):
            if table.phase != LOBBY:
                raise ChatError("not_in_lobby")
            if seat is not None:
                raise ChatError("already_joined")
            if len(table.seats) >= MAX_PLAYERS:
                raise ChatError("game_full")
            table.seats.append(Seat(person.id, person.name))
            out.notices.append(_("{player} joined ({n} players).").format(player=person.name, n=len(table.seats)))
            return [f"join {person.id}"]
        if isinstance(cmd, c.AddAI):
            if table.phase != LOBBY:
                raise ChatError("not_in_lobby")
            if not (person.id == table.creator or person.is_admin or seat is not None):
                raise ChatError("not_allowed_admin")
            level = cmd.level if cmd.level in POLICIES else "strong"
            added = []
            ai_mark = _("(AI)")  # named in the chat's language: "Ada (IA)" in Spanish
            for _i in range(max(0, min(cmd.count, MAX_PLAYERS - len(table.seats)))):
                n = sum(1 for s in table.seats if s.is_ai)
                name = f"{AI_NAMES[n % len(AI_NAMES)]} {ai_mark}"
                table.seats.append(Seat(f"ai:{n + 1}", name, level))
                added.append(name)
            if not added:
                raise ChatError("game_full")
            out.notices.append(_("{names} joined ({n} players).").format(names=", ".join(added), n=len(table.seats)))
            return [f"ai {len(added)} {level}"]
        if isinstance(cmd, c.Leave):
            if seat is None:
                raise ChatError("not_in_game")
            return self._remove(table, seat, out, _("{player} left.").format(player=person.name))
        if isinstance(cmd, c.Kick):
            if not (person.id == table.creator or person.is_admin):
                raise ChatError("not_allowed_admin")
            target = table.find_seat(cmd.target) if cmd.target else None
            if target is None:
                raise ChatError("bad_player")
            name = table.seats[target].name
            return self._remove(table, target, out, _("{player} was removed from the game.").format(player=name))
        if isinstance(cmd, c.Start):
            if table.phase != LOBBY:
                raise ChatError("not_in_lobby")
            creator_here = table.seat_of(table.creator) is not None
            if not (person.id == table.creator or person.is_admin or (seat is not None and not creator_here)):
                raise ChatError("not_allowed_admin")
            if len(table.seats) < 2:
                raise ChatError("too_few_players")
            game, events = engine.new_game(table.variant, [s.id for s in table.seats], seed=table.seed,
                                           overrides=table.overrides or None)
            table.game = game
            table.phase = PLAYING
            self._after_moves(table, events, out)
            # One move vocabulary for every path: the deal recipe opens the
            # game's part of the log (core/service.py replays it).
            deal = deal_entry(table.variant, [s.id for s in table.seats], table.seed,
                              table.overrides or None, rules=game.rule_spec)
            return [deal] + self._ai(table, out)
        if isinstance(cmd, c.NextRound):
            if table.phase != BETWEEN_ROUNDS or table.game is None:
                raise ChatError("round_not_over")
            if seat is None and not person.is_admin:
                raise ChatError("not_in_game")
            table.game, events = engine.next_round(table.game)
            entries = [NEXT_ROUND]
            for sid in table.left:
                gone = table.seat_of(sid)
                if gone is not None and gone not in table.game.out:
                    table.game, more = engine.remove_player(table.game, gone)
                    events += more
                    entries.append(f"{gone} {LEAVE}")
            table.phase = PLAYING
            self._after_moves(table, events, out)
            return entries + self._ai(table, out)
        if isinstance(cmd, c.Skip):
            return self._skip(table, person, cmd, out)
        if isinstance(cmd, c.Continue):
            if table.phase != PLAYING:
                return None
            entries = self._ai(table, out, pause=False)
            return entries or None
        if isinstance(cmd, c.GAME_MOVES):
            if table.phase == LOBBY:
                raise ChatError("not_started")
            if table.phase != PLAYING or table.game is None:
                raise MoveError("round_over")
            if seat is None:
                raise ChatError("not_in_game")
            move = self._move(table, seat, cmd)
            entries = self._apply(table, move, out, uno=isinstance(cmd, c.Play) and cmd.uno)
            table.timeouts.pop(person.id, None)
            if isinstance(cmd, c.Draw) and cmd.then_play:
                entries += self._play_drawn(table, seat, out)
            return entries + self._ai(table, out)
        raise ChatError("bad_move")

    def _play_drawn(self, table: Table, seat: int, out: Outcome) -> list[str]:
        """After a draw: play the drawn card if the rules let it be played now
        (saying UNO first when it leaves one card); else nothing (the draw
        ended the turn, or the player passes as usual)."""
        game = table.game
        if game is None or table.phase != PLAYING or game.turn != seat or game.drawn is None:
            return []
        moves = engine.legal_moves(game, seat)
        plays = [m for m in moves if m.kind == PLAY and m.card == game.drawn]
        if not plays:
            return []
        uno = len(game.hands[seat]) == 2 and any(m.kind == UNO for m in moves)
        return self._apply(table, best_play(game, seat, plays), out, uno=uno)

    def _apply(self, table: Table, move: Move, out: Outcome, *, uno: bool = False) -> list[str]:
        """Apply a person's move (saying UNO first, when asked: on a copy, so a
        refused play leaves the table as it was); return its log entries."""
        assert table.game is not None
        if uno:
            said = Move(UNO, move.player)
            game, events = engine.apply(table.game, said)
            table.game, played = engine.apply(game, move, inplace=True)
            self._after_moves(table, events + played, out)
            return [f"{move.player} {said.text}", f"{move.player} {move.text}"]
        table.game, events = engine.apply(table.game, move, inplace=True)
        self._after_moves(table, events, out)
        return [f"{move.player} {move.text}"]

    def _move(self, table: Table, seat: int, cmd: c.Command) -> Move:
        if isinstance(cmd, c.Play):
            try:
                card = parse_card(cmd.card)
            except CardError:
                raise ChatError("bad_card") from None
            color = None
            if cmd.color:
                color = color_from_text(cmd.color)
                if color is None:
                    raise ChatError("bad_color")
            target = None
            if cmd.target:
                target = table.find_seat(cmd.target)
                if target is None:
                    raise ChatError("bad_player")
            return Move(PLAY, seat, card, color, target)
        if isinstance(cmd, c.Catch):
            game = table.game
            assert game is not None
            if cmd.target:
                target = table.find_seat(cmd.target)
                if target is None:
                    raise ChatError("bad_player")
            else:
                target = game.exposed if game.exposed >= 0 else None
            return Move(CATCH, seat, target=target)
        if isinstance(cmd, c.PluginMove):
            from ..moves import parse_move
            from ..registry import MOVE_KINDS, declared

            kind = cmd.text.split()[0].lower() if cmd.text.split() else ""
            if declared(MOVE_KINDS, kind) is None:
                raise ChatError("bad_move")
            return parse_move(cmd.text[:500], seat, [s.name for s in table.seats])
        if isinstance(cmd, c.NameColor):
            color = color_from_text(cmd.color)
            if color is None:
                raise ChatError("bad_color")
            return color_move(seat, color)
        kind = {c.Draw: DRAW, c.Pass: PASS, c.SayUno: UNO, c.Challenge: CHALLENGE}[type(cmd)]
        return Move(kind, seat)

    def _remove(self, table: Table, seat: int, out: Outcome, line: str) -> list[str]:
        sid = table.seats[seat].id
        out.notices.append(line)
        if table.phase == LOBBY:
            del table.seats[seat]
            if sid == table.creator and table.humans():
                table.creator = table.humans()[0].id
            if not table.humans():
                table.seats.clear()
            return [f"leave {sid}"]
        if sid not in table.left:
            table.left.append(sid)  # not dealt in again in later rounds
        if table.game is not None and table.phase == PLAYING:
            table.game, events = engine.remove_player(table.game, seat)
            self._after_moves(table, events, out, skip_first=True)
            return [f"{seat} leave"] + self._ai(table, out)
        return [f"leave {sid}"]

    def _skip(self, table: Table, person: c.Person, cmd: c.Skip, out: Outcome) -> list[str] | None:
        game = table.game
        if table.phase != PLAYING or game is None:
            raise ChatError("not_started")
        seconds = table.timer or (game.rules or engine.rules_of(game)).turn_seconds(game) or 0
        if not seconds:
            raise ChatError("no_timer")
        if not cmd.auto and table.seat_of(person.id) is None and not person.is_admin:
            raise ChatError("not_in_game")  # players and admins skip; passers-by do not
        if self.clock() - table.turn_started < seconds - 0.5:
            if cmd.auto:
                return None
            raise ChatError("timer_running")
        seat = game.turn
        sid = table.seats[seat].id
        table.game, events = engine.timeout(game)
        self._after_moves(table, events, out)
        entries = [f"{seat} timeout"]
        count = table.timeouts.get(sid, 0) + 1
        table.timeouts[sid] = count
        kick_after = engine.rules_of(table.game).options["turn-timer"].kick_after \
            if engine.rules_of(table.game).enabled("turn-timer") else 0
        if kick_after and count >= kick_after and table.phase == PLAYING:
            _ = gettext_for(table.lang)
            entries += self._remove(table, seat, out, _("{player} timed out too often and was removed.").format(
                player=table.seats[seat].name))
        return entries + self._ai(table, out)

    def _ai(self, table: Table, out: Outcome, pause: bool = True) -> list[str]:
        """Let AI seats move until a person is to move (or the round ends).

        Before each AI move, when a person could act out of turn (jump in,
        catch someone, say UNO before being caught), the AI waits: the
        outcome is `paused` and the adapter sends `Continue` after a moment.
        The first AI move after a Continue is not paused again.
        """
        entries: list[str] = []
        for _i in range(3000):
            game = table.game
            if game is None or table.phase != PLAYING:
                break
            seat = game.turn
            info = table.seats[seat]
            if not info.is_ai:
                break
            if pause and self._person_may_act(table):
                out.paused = True
                break
            pause = True
            moves = engine.legal_moves(game, seat)
            if not moves:
                break
            rnd = random.Random(f"{table.seed}/{game.round}/{game.moves}")
            move = POLICIES.get(info.level or "strong", POLICIES["strong"])(game, seat, moves, rnd)
            table.game, events = engine.apply(game, move, inplace=True)
            self._after_moves(table, events, out)
            entries.append(f"{seat} {move.text}")
        return entries

    @staticmethod
    def _person_may_act(table: Table) -> bool:
        game = table.game
        assert game is not None
        for seat, info in enumerate(table.seats):
            if info.is_ai or seat == game.turn or seat in game.out:
                continue
            for m in engine.legal_moves(game, seat):
                if m.kind in (PLAY, CATCH) or (m.kind == UNO and game.exposed == seat):
                    return True
        return False

    def _after_moves(self, table: Table, events: list[Event], out: Outcome, skip_first: bool = False) -> None:
        game = table.game
        assert game is not None
        out.events.extend(events)
        table.remember([e for e in events if e.kind not in ("turn", "scores")])

        def name(seat: int) -> str:
            return table.seats[seat].name if 0 <= seat < len(table.seats) else "?"

        for e in events:
            line = describe_event(e, name, table.lang)
            if line and not (skip_first and e is events[0] and out.notices):
                out.notices.append(line)
            if e.cards and 0 <= e.player < len(table.seats):
                private = describe_private(e, table.lang)
                if private:
                    out.private.setdefault(table.seats[e.player].id, []).append(private)
        if game.phase == ROUND_OVER:
            table.phase = BETWEEN_ROUNDS
        elif game.phase == MATCH_OVER:
            table.phase = FINISHED
        table.turn_started = self.clock()

    async def _record_stats(self, chat_id: str, table: Table, out: Outcome) -> None:
        """Count finished rounds and matches (best effort: a lost count is no lost move)."""
        game = table.game
        if game is None or not out.round_over:
            return
        try:
            chat = {"rounds": 1}
            if out.match_over:
                chat["matches"] = 1
            await self.store.incr_stats("chat", chat_id, chat)
            for seat, info in enumerate(table.seats):
                if info.is_ai:
                    continue
                d = {"rounds": 1}
                if seat == game.winner:
                    d["rounds_won"] = 1
                    d["points"] = max(0, game.scores[seat])
                if out.match_over:
                    d["matches"] = 1
                    if any(e.kind == MATCH_WON and e.player == seat for e in out.events):
                        d["matches_won"] = 1
                await self.store.incr_stats("user", info.id, d)
        except StoreUnavailable:
            log.warning("stats for chat %s not recorded: store unavailable", chat_id)
