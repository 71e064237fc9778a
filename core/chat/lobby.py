"""The lobby, pure: joining, AI seats and the start (dealing the game).

A new table (`/new`) is created by the chat service (it needs the store);
everything a lobby does after that is a step like any other (see
core/chat/play.py): it changes the table and returns its log entries, or
refuses with a ChatError.
"""

from __future__ import annotations

import logging
import secrets
import time
from typing import Any

from .. import engine
from ..ai import level_name
from ..store import ChatBusy, StoreUnavailable
from ..variants import VariantError, known_variant, load_variant, rules_for
from . import commands as c
from . import delivered, records
from .i18n import N_, Joined, Msg, Plural, gettext_for
from .names import MAX_NAME, ai_name, clip
from .outcome import AI_NAMES, MAX_PLAYERS, ChatError, Outcome
from .ports import ServicePort
from .render import error_text
from .rules_refusals import VariantTitle, clash_detail, missing_detail
from .settings import seen_settings
from .table import FINISHED, LOBBY, PLAYING, UNPOSTED, Seat, Table
from .typed import LEVEL_NAMES

log = logging.getLogger(__name__)

#: The commands this module carries out on its own.
LOBBY_COMMANDS = (c.Join, c.AddAI)


def lobby_step(table: Table, person: c.Person, seat: int | None, cmd: c.Command, out: Outcome) -> list[str]:
    """Join, or add AI seats; return the log entries."""
    _ = gettext_for(table.lang)
    if isinstance(cmd, c.Join):
        if table.phase != LOBBY:
            raise ChatError("not_in_lobby")
        if seat is not None:
            raise ChatError("already_joined")
        if len(table.seats) >= MAX_PLAYERS:
            raise ChatError("game_full")
        table.seats.append(Seat(person.id, unique_name(table, person.name)))
        # the name as seated ("Ben 2" beside another Ben): the one every later line says
        n = len(table.seats)  # a count in its language's plural form ("لاعبان", "3 игрока")
        out.tell(Plural("{player} joined ({n} player).", "{player} joined ({n} players).",
                        n, player=table.seats[-1].name), table.lang)
        return [f"join {person.id}"]
    if isinstance(cmd, c.AddAI):
        if table.phase != LOBBY:
            raise ChatError("not_in_lobby")
        if not (person.id == table.creator or person.is_admin or seat is not None):
            raise ChatError("not_allowed_admin")
        level = level_name(cmd.level)  # an old name (strong) is its level (hard); unknown: the default
        added = []
        for _i in range(max(0, min(cmd.count, MAX_PLAYERS - len(table.seats)))):
            # The first number no seat holds: an AI seat may be removed from the lobby, and
            # counting the AI seats left would give the next one the id of one still seated.
            taken = {s.id for s in table.seats}
            n = next(k for k in range(len(table.seats) + 1) if f"ai:{k + 1}" not in taken)
            # named in the chat's language: "Ada (IA)" in Spanish
            name = unique_name(table, ai_name(AI_NAMES[n % len(AI_NAMES)], table.lang))
            table.seats.append(Seat(f"ai:{n + 1}", name, level))
            added.append(name)
        if not added:
            raise ChatError("game_full")
        # the level said with the names: a table may seat AIs of several levels (`/ai 1 easy`, `/ai 1 expert`);
        # one name takes its own sentence, as a verb agrees with it ("se unió", not "se unieron")
        count = len(table.seats)
        said = Plural("{name} joined, level {level} ({n} player).", "{name} joined, level {level} ({n} players).",
                      count, name=added[0], level=Msg(LEVEL_NAMES[level])) if len(added) == 1 else \
            Plural("{names} joined, level {level} ({n} player).", "{names} joined, level {level} ({n} players).",
                   count, names=Joined(added, None), level=Msg(LEVEL_NAMES[level]))
        out.tell(said, table.lang)
        return [f"ai {len(added)} {level}"]
    raise ChatError("bad_move")


def unique_name(table: Table, name: str) -> str:
    """`name`, or `name 2`, `name 3` ... when a seat is already called so.

    Why: two people called "Alex" in one group are common, and every line that
    names a seat (whose turn it is, a Seven-O swap's target, "Catch Alex: no
    UNO!") must tell them apart; a person may also be called like an AI seat.
    """
    taken = {s.name.casefold() for s in table.seats}
    if name.casefold() not in taken:
        return name
    n = 2
    while True:  # the name cut to leave room for its number: a name shown stays within MAX_NAME
        candidate = f"{clip(name, MAX_NAME - len(str(n)) - 1)} {n}"
        if candidate.casefold() not in taken:
            return candidate
        n += 1


def start(table: Table, person: c.Person, seat: int | None, out: Outcome) -> None:
    """Deal the game: the table's seats, variant, rules and seed (its events
    go into `out`)."""
    if table.phase != LOBBY:
        raise ChatError("not_in_lobby")
    creator_here = table.seat_of(table.creator) is not None
    if not (person.id == table.creator or person.is_admin or (seat is not None and not creator_here)):
        raise ChatError("not_allowed_admin")
    if len(table.seats) < 2:
        raise ChatError("too_few_players")
    try:
        game, events = engine.new_game(table.variant, [s.id for s in table.seats], seed=table.seed,
                                       overrides=table.overrides or None)
    except VariantError as exc:
        # The chat's house rules changed since /new chose this lobby's variant, and
        # they clash with it: say which rules, and how to fix it (not "cannot be loaded").
        detail = clash_detail(exc, table.variant)
        if detail is None:
            raise
        raise ChatError("lobby_rules_clash", detail) from exc
    table.game = game
    table.phase = PLAYING
    out.events.extend(events)


async def open_table(service: ServicePort, chat_id: str, person: c.Person, cmd: c.NewGame, *,
                     seats: list[Seat] | None = None, adapter: dict[str, Any] | None = None,
                     again_of: str = "") -> Outcome:
    """`/new`: a lobby under the chat's settings (a running game is refused,
    an abandoned one replaced). The one lobby change that needs the store
    directly: it creates the table. `seats`: seated already (`open_again`);
    `adapter`: the table's front-end data to start with (`UNPOSTED`);
    `again_of`: the match it plays again (`Table.again_of`)."""
    settings = await service.settings(chat_id)
    lang = settings["lang"]
    variant = cmd.variant or settings["variant"]
    try:
        if cmd.variant:
            known_variant(variant)  # a chat names a variant; it never gives a path
        load_variant(variant)
    except VariantError:
        return service.fail("unknown_variant", lang)
    try:
        rules_for(variant, settings["rules"] or None)
    except VariantError as exc:  # the chat's house rules conflict with this variant's: say which
        return service.fail("variant_rules_clash", lang, detail=clash_detail(exc, variant) or missing_detail(exc))
    now = service.clock()
    seed = service.rng.getrandbits(48) if service.rng else secrets.randbits(48)
    table = Table(chat_id=chat_id, creator=person.id, variant=variant, overrides=settings["rules"],
                  version=1, lang=lang,
                  seats=seats if seats is not None else [Seat(person.id, person.name)] if cmd.join else [],
                  seed=seed, created=now, turn_started=now, timer=settings["timer"],
                  settings_seen=seen_settings(settings), adapter=dict(adapter or {}),
                  again_of=again_of)
    key = delivered.current_key()
    delivered.note(table, key)  # a repeat of this /new finds the lobby it opened
    try:
        game_id, version = await service.store.create_game(chat_id, table.encode(), log=[f"new {person.id}"])
    except ChatBusy:
        found = await service.load(chat_id)
        if found and delivered.made(found[1], key):  # sent again: its first copy opened this one
            return Outcome(ok=True, table=found[1], repeated=True)
        if found and not _abandoned(service, found[1]):
            return service.fail(busy_code(found[1]), lang, found[1])
        if found and found[1].phase == FINISHED:  # a process that ended it stopped before keeping it
            await records.finish(service.store, found[0], found[1], [], [])  # (a no-op if it did)
        # Only the game judged abandoned is put away: another process may have
        # opened (and started) a new one since, which must not be replaced.
        if found is not None:
            await service.store.unbind_chat(chat_id, found[0])
        try:
            game_id, version = await service.store.create_game(chat_id, table.encode(), log=[f"new {person.id}"])
        except ChatBusy:
            now_bound = await service.load(chat_id)
            return service.fail(busy_code(now_bound[1] if now_bound else None), lang,
                                now_bound[1] if now_bound else None)
    table.store_version = version
    service.forget(chat_id)
    await _note_newest(service, chat_id, game_id)
    out = Outcome(ok=True, changed=True, table=table)
    if seats is not None:
        out.tell(again_line(person.name, variant), lang)
    else:
        # No command named: each front-end's lobby shows how to join and start its own way
        # (buttons, and the status's "Press Join"); Telegram's `/join` read on Discord, in a
        # terminal or on a web page sent people to a command they do not have.
        out.tell(Msg(N_("{player} opened a game of {variant}."),
                     player=person.name, variant=VariantTitle(variant)), lang)
    return out


def again_line(player: str, variant: str) -> Msg:
    """"Ann asked for another game of Official rules: the same players are seated." """
    return Msg(N_("{player} asked for another game of {variant}: the same players are seated."),
               player=player, variant=VariantTitle(variant))


def unposted_notes(table: Table) -> list[str]:
    """The lines a lobby opened where its chat's messages are not written (`UNPOSTED`:
    "Play again" on a Telegram group's Mini App page, in another process) is posted
    with, in the table's language, from the table alone: the process that posts it
    never saw the outcome that said them. Why: the group read "Ann asked for another
    game" when Ann pressed the group's button, and nothing when she pressed the page's."""
    if table.phase != LOBBY or not table.adapter.get(UNPOSTED) or table.adapter.get("status"):
        return []
    seat = table.seat_of(table.creator)
    name = table.seats[seat].name if seat is not None else ""
    return [again_line(name, table.variant).text(table.lang)] if name else []


#: The chat's setting that names its newest game (the last lobby opened there), kept in
#: the chat's own settings record beside the front-ends' own keys.
NEWEST_GAME = "newest_game"


async def _note_newest(service: ServicePort, chat_id: str, game_id: str) -> None:
    """Remember the chat's newest game (`last_match` shows no match older than it). Why
    a note of its own: a game stopped before any round was over leaves no record, so the
    records alone would name the match before it as the chat's last. An outage here costs
    only that (the lobby is open and said so): logged, not refused."""
    try:
        await service.store.update_chat_settings(chat_id, {NEWEST_GAME: game_id})
    except StoreUnavailable as exc:
        log.warning("chat %s: its newest game not noted: %s", chat_id, exc)


async def last_match(service: ServicePort, chat_id: str, within: float = 3600.0) -> Table | None:
    """The chat's last match as it ended (its final table: who won, the scores) if it ended
    less than `within` seconds ago, was the chat's newest game (no game opened since, even
    one stopped before a round was over, which leaves no record) and the store still keeps
    it; None when there is none (never played, stopped before a round was over, or long
    ago). Why: a page opened after a match shows how it ended and offers to play again, not
    "no game is running"; and never an older match as if it were the last."""
    try:
        record = await records.last(service.store, chat_id)
        newest = (await service.store.get_chat_settings(chat_id)).get(NEWEST_GAME) if record else None
        recent = (record is not None and time.time() - float(record.get("ended") or 0) <= within
                  and (newest is None or str(newest) == str(record["game_id"])))
        stored = await service.store.load_game(str(record["game_id"])) if record and recent else None
    except StoreUnavailable:
        return None
    if stored is None:
        return None
    try:
        table = Table.decode(stored.state, stored.version)
    except (ValueError, KeyError, TypeError):
        return None
    return table if table.phase == FINISHED and table.chat_id == chat_id else None


async def open_again(service: ServicePort, chat_id: str, person: c.Person, cmd: c.Again | None = None) -> Outcome:
    """Play again at this table (`c.Again`): a new lobby with the match's variant and
    seats, the people as they were seated (a forgotten one left out) and the AI seats at
    their levels, the asker among them; started with Start as any lobby.

    The match is the one the press names (`cmd.match`: the button under that match's
    message), else the chat's last. A match the records no longer keep is said so
    (`again_gone`) and nothing changes. Once someone asked, the lobby they opened is the
    answer to every later press on that match's message: returned unchanged, and the
    chat service seats a presser not seated yet as a Join would (`again_join`); a lobby
    or game of anything else is refused as /new is."""
    ref = cmd.match if cmd is not None else ""
    record = await _record_of(service, chat_id, ref) if ref else await records.last(service.store, chat_id)
    if ref and record is None:
        current = await service.load(chat_id)
        if current is not None and current[1].phase == LOBBY and current[1].again_of == ref:
            return Outcome(ok=True, table=current[1])  # asked first; the record since dropped
        return service.fail("again_gone", (await service.settings(chat_id))["lang"])
    # An AI seat's record keeps its base name ("Ada"): it sits down with the mark of the
    # chat's language now ("Ada (IA)"), as `AddAI` would seat it.
    lang = (await service.settings(chat_id))["lang"] if record else None
    seats: list[Seat] = []
    for p in record.get("players", []) if record else []:
        ident = str(p.get("id"))
        if ident.startswith(records.FORGOTTEN) or any(s.id == ident for s in seats):
            continue
        name = records.kept_name(p, str(lang)) if p.get("ai") else str(p.get("name"))
        seats.append(Seat(ident, name, str(p.get("level") or "normal") if p.get("ai") else None))
    if not any(s.id == person.id for s in seats):
        seats.append(Seat(person.id, person.name))
    variant = str(record["variant"]) if record and record.get("variant") else None
    played = str(record.get("match") or "") if record else ""
    out = await open_table(service, chat_id, person, c.NewGame(variant=variant), seats=seats[:MAX_PLAYERS],
                           adapter={UNPOSTED: True} if cmd is not None and cmd.unposted else None,
                           again_of=played)
    lobby = out.table
    if not out.ok and out.code == "lobby_open" and lobby is not None and (not ref or lobby.again_of == ref):
        return Outcome(ok=True, table=lobby)  # someone asked first: this is that lobby
    return out  # refused: a game under way, or another waiting (a /new, another match's "Play again")


#: How many of a chat's last records a "Play again" looks through for its match.
AGAIN_LOOKBACK = 50


async def _record_of(service: ServicePort, chat_id: str, ref: str) -> dict[str, Any] | None:
    """The record of the chat's match `ref` (`Table.match`) among its last ones, or None."""
    for record in await service.store.archived(chat_id, AGAIN_LOOKBACK):
        if str(record.get("match") or "") == ref:
            return record
    return None


def again_join(out: Outcome, person: c.Person) -> bool:
    """Whether "Play again" found the lobby someone opened for it with `person` not
    seated: then they get a seat as a Join gives one (the first presser got one; a
    member who did not play the match is as welcome as at /join), or Join's refusal."""
    table = out.table
    return out.ok and not out.changed and table is not None and table.phase == LOBBY \
        and table.seat_of(person.id) is None


def again_note(out: Outcome, person_id: str, lang: str) -> str | None:
    """What "Play again" tells its presser alone, in `lang` (None: the lobby posted is
    the answer): "You joined." when it seated them in a lobby someone else opened,
    "You are already in this game." when they sat there already. The same words on
    every front-end (Telegram's press answer, Discord's)."""
    table = out.table
    if not out.ok or table is None or table.seat_of(person_id) is None:
        return None
    if out.changed and table.creator == person_id:
        return None  # they opened it: the lobby itself is the answer
    _ = gettext_for(lang)
    return _("You joined.") if out.changed else error_text("already_joined", lang)


def busy_code(table: Table | None) -> str:
    """Why a chat cannot open a game now: one waits for players (`lobby_open`: join that
    one; "a game is already running" was said of a lobby nobody had started), or one runs."""
    return "lobby_open" if table is not None and table.phase == LOBBY else "game_running"


def _abandoned(service: ServicePort, table: Table) -> bool:
    if table.phase == FINISHED:
        return True
    return table.phase == LOBBY and service.clock() - table.created > service.defaults.lobby_minutes * 60

