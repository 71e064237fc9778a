"""Replaying and auditing the games chats play (what `unobot replay` and
`unobot audit` print).

A chat table's log holds table entries (`new`, `join`, `ai`, `settings`,
`adapter`, ...) and, from the `deal` entry on, the game's moves in the one
vocabulary every path writes (`<seat> <move>`, `<seat> timeout`, `<seat>
leave`, `next round`; see core/service.py). Replaying the log through the
engine must give the stored game exactly: that is what proves that no move
was doubled or invented, on the path real games take. That no move a player
was told was kept went missing, the log cannot say by itself (a failover that
drops the last moves leaves a shorter log that replays cleanly): the store's
acknowledgement record (version, log length and digest of the last save
acknowledged, kept on another node) is compared with the log first.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

from ..cards import Card
from ..service import DEAL, TABLE_ENTRIES, ReplayError, replay, replay_events, replay_steps
from ..state import StateFormatError
from ..store import Store, acknowledgement_lapse
from .i18n import N_, Msg, env_lang, gettext_for, joined, known
from .records import kept_name, shown_name
from .records_text import stopped_line
from .render import card_name, describe_event
from .table import Table
from .views import variant_title


@dataclass(frozen=True, slots=True)
class TableAudit:
    """One stored table: its game's replay agrees with it (`ok`), or why not."""

    game_id: str
    chat_id: str
    entries: int
    ok: bool
    problem: str = ""
    dealt: bool = True
    #: The problem as a text for its reader (`problem_in`); None: `problem` is said as it
    #: is (a replay's or the store's own words, which name log entries and versions).
    why: Msg | None = None

    def problem_in(self, lang: str | None) -> str:
        """Why the replay disagrees, in `lang` (`unobot audit` in the operator's language)."""
        return self.why.text(lang) if self.why is not None else self.problem


def _mismatch(game_id: str, chat_id: str, entries: int, why: Msg, dealt: bool = True) -> TableAudit:
    """A table whose replay disagrees: `problem` in English (logs, tests), `why` for its reader."""
    return TableAudit(game_id, chat_id, entries, False, why.text(), dealt, why)


async def audit_table(store: Store, game_id: str) -> TableAudit:
    """Replay a stored chat table's log and compare it with the stored game."""
    stored = await store.load_game(game_id)
    if stored is None:
        return _mismatch(game_id, "", 0, Msg(N_("not in the store")))
    try:
        table = Table.decode(stored.state, stored.version)
    except StateFormatError as exc:
        return _mismatch(game_id, "", 0, Msg(N_("unreadable: {error}"), error=str(exc)))
    log = await store.read_log(game_id)
    lost = acknowledgement_lapse(await store.acknowledgement(game_id), stored.version, log)
    if lost is not None:  # (a clean replay proves nothing then: the moves are not in the log at all)
        return _mismatch(game_id, table.chat_id, len(log), lost)
    if table.game is None:
        dealt = any(e.startswith(DEAL + " ") for e in log)
        if dealt:
            return _mismatch(game_id, table.chat_id, len(log), Msg(N_("a dealt game is missing from the table")),
                             dealt=False)
        return TableAudit(game_id, table.chat_id, len(log), True, dealt=False)
    try:
        replayed = replay(log)
    except ReplayError as exc:
        return TableAudit(game_id, table.chat_id, len(log), False, str(exc))
    if not replayed.same_as(table.game):
        return _mismatch(game_id, table.chat_id, len(log), Msg(
            N_("the log replays to a different game (moves {replayed} replayed, {stored} stored)"),
            replayed=replayed.moves, stored=table.game.moves))
    return TableAudit(game_id, table.chat_id, len(log), True)


async def stored_tables(store: Store) -> AsyncIterator[str]:
    """The game ids of every chat that has a table in the store."""
    async for chat in store.bound_chats():
        game_id = await store.chat_game(chat)
        if game_id:
            yield game_id


def top_name(card: Card | None, lang: str) -> str:
    """The top card's name as the console shows it ("-" before any card is turned)."""
    return card_name(card, lang) if card is not None else "-"


def reader_language(asked: str | None, played_in: str | None, default: str = "en") -> str:
    """The language a replay speaks: the one asked for (``--lang``), else the
    reader's own (their locale, read as gettext reads it, as the console
    does), else the one the game was played in, else ``default`` (the
    configured one).

    Why the reader's before the game's: a replay is read by the person at
    the terminal, not by the chat that played; a Spanish chat's game told to
    a German operator is told in German, as their console would speak."""
    return known(asked) or env_lang() or known(played_in) or known(default) or "en"


async def replay_lines(store: Store, chat_id: str, lang: str | None = None,
                       default: str = "en") -> list[str]:
    """The chat's game, move by move: each log entry as written (the log's
    own vocabulary, what an audit compares) with the move number, the top
    card and who is to move after it (table entries in brackets); the words
    around it, the variant's title and the card names in the reader's
    language (:func:`reader_language`)."""
    game_id = await store.chat_game(chat_id)
    if not game_id:
        return []
    stored = await store.load_game(game_id)
    played_in, seat_names, ai_seats = None, {}, set()
    if stored is not None:
        try:
            table = Table.decode(stored.state, stored.version)
            played_in, seat_names = table.lang, {s.id: s.name for s in table.seats}
            ai_seats = {s.id for s in table.seats if s.is_ai}
        except StateFormatError:
            pass  # the replay below says what is wrong with the log; the language falls back
    language = reader_language(lang, played_in, default)
    _ = gettext_for(language)
    lines: list[str] = []
    for entry, state in replay_steps(await store.read_log(game_id)):
        head = entry.split(" ", 1)[0]
        if state is None or head in TABLE_ENTRIES:
            lines.append(f"     ({entry})")
            continue
        names = [shown_name(seat_names.get(p, p), language, p in ai_seats)  # in the reader's words
                 for p in state.players]
        if head == DEAL:
            lines.append(_("Dealt: {players} ({variant}); first card {card}.").format(
                players=joined(names, language), variant=variant_title(state.variant, language),
                card=top_name(state.top, language)))
            continue
        who = names[int(head)] if head.isascii() and head.isdecimal() and int(head) < len(names) else ""
        move = entry.split(" ", 1)[1] if who else entry
        after = _("top card {card} · {player} to move").format(
            card=top_name(state.top, language), player=names[state.turn]) if state.phase == "play" \
            else _("round over: {player} won").format(player=names[state.winner] if state.winner >= 0 else "-")
        lines.append(f"{state.moves:5} {who:>14}  {move:30} {after}")
    return lines


# --------------------------------------------------------------------------- finished games


async def audit_archived(record: dict[str, Any]) -> TableAudit:
    """Replay a kept finished game's log; it must end where the game ended
    (the record's ``state``, written in the step that finished the match)."""
    game_id, chat = str(record.get("game_id", "")), str(record.get("chat", ""))
    log = [str(e) for e in record.get("log", [])]
    try:
        replayed = replay(log)
    except ReplayError as exc:
        return TableAudit(game_id, chat, len(log), False, str(exc))
    if record.get("state") is not None and replayed.to_dict() != record["state"]:
        return _mismatch(game_id, chat, len(log), Msg(
            N_("the kept log replays to a different game (moves replayed: {moves})"), moves=replayed.moves))
    return TableAudit(game_id, chat, len(log), True)


async def archived_records(store: Store) -> AsyncIterator[dict[str, Any]]:
    """Every kept finished game of every chat."""
    async for chat in store.archive_chats():
        for record in await store.archived(chat, max(1, store.archive_max)):
            yield record


async def last_of_every_chat(store: Store) -> list[dict[str, Any]]:
    """Each chat's last kept finished game, the latest ended first (``unobot replay --last``)."""
    kept: list[dict[str, Any]] = []
    async for chat in store.archive_chats():
        kept += await store.archived(chat, 1)
    return sorted(kept, key=lambda r: -float(r.get("ended") or 0))


async def find_archived(store: Store, chat_id: str, game: str | None = None) -> dict[str, Any] | None:
    """A kept game of a chat: ``game`` None is the last one; a number N the
    N-th newest (1 = the last); else a game id or its part after ``#``."""
    if game is None:
        games = await store.archived(chat_id, 1)
        return games[0] if games else None
    try:
        nth = int(game)
    except ValueError:
        nth = 0
    if 0 < nth <= max(1, store.archive_max) and "#" not in game:
        games = await store.archived(chat_id, nth)
        if len(games) == nth:
            return games[-1]
    game_id = game if "#" in game else f"{chat_id}#{game}"
    try:
        return await store.archived_game(chat_id, game_id)
    except ValueError:
        return None


def narrate(record: dict[str, Any], lang: str | None = None, default: str = "en") -> list[str]:
    """A kept game told move by move in words, in the reader's language
    (:func:`reader_language`: ``lang``, else their locale, else the chat's
    when it was played), with the variant's title and the cards' names as
    the console shows them."""
    language = reader_language(lang, str(record.get("lang") or ""), default)
    _ = gettext_for(language)
    names = [kept_name(p, language) for p in record.get("players", [])]

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    lines: list[str] = []
    for entry, state, events in replay_events(str(e) for e in record.get("log", [])):
        head = entry.split(" ", 1)[0]
        if state is None or head in TABLE_ENTRIES:
            continue
        if head == DEAL:
            lines.append(_("Dealt: {players} ({variant}); first card {card}.").format(
                players=joined(names, language), variant=variant_title(state.variant, language),
                card=top_name(state.top, language)))
            continue
        said = [line for e in events if (line := describe_event(e, name, language))]
        lines.append(f"{state.moves:4}  " + (" ".join(said) if said else entry))
    winner = int(record.get("winner", -1))
    if 0 <= winner < len(names):
        lines.append(_("{player} won the match.").format(player=names[winner]))
    elif record.get("stopped"):
        lines.append(stopped_line(record, language))
    return lines


def game_heading(game_id: str, lang: str) -> str:
    """The line a replayed game opens with ("Game <id>"), in the reader's language."""
    _ = gettext_for(lang)
    return _("Game {game}").format(game=game_id)
