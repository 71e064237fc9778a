"""Players' records: finished games kept, standings per period, ratings per chat.

Why one module for every front-end: Telegram's ``/top`` and Discord's
``/uno top`` must read the same numbers the same way, and the step that
ends a match (core/chat/service.py) writes them through here.

How a match counts exactly once: when a match ends, :func:`finish` builds
the game's record (its whole log, the seats, scores, the winner, the last
moments) and what it adds to each player's line in this week's, this
month's and the all-time table (with the players' new ratings), and hands
it all to one store call, :meth:`~core.store.Store.archive_game`, keyed by
the game id: the store applies it atomically, and a second call for the
same game (another process that ended it too, a retry) is a no-op.

Ratings: ``openskill``'s Plackett-Luce model (free-for-all ranks of any
number of players; AI seats are rated too, under their seat id). The new
ratings are computed from the all-time table as read just before the
archive; a chat plays one game at a time, so two matches of one chat
ending in the same instant (the only way one rating update could be
computed from a stale read) does not happen in play.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..engine import rules_of
from ..events import MATCH_WON, Event
from ..service import DEAL, TABLE_ENTRIES
from ..state import ROUND_OVER, GameState
from ..store import Standing, Store, StoreUnavailable
from ..variants import VariantError
from .i18n import N_, gettext_for
from .names import ai_base, ai_name
from .table import Table
from .views import level_title

if TYPE_CHECKING:
    from ..ruleset import RuleSet

log = logging.getLogger(__name__)

PERIODS = ("week", "month", "all")
"""The standings a chat keeps (what ``/top week|month|all`` names)."""
WEEK_TTL = 15 * 86400.0
MONTH_TTL = 63 * 86400.0
FORGOTTEN = "(forgotten)"
"""The name a person who asked to be forgotten gets in the kept logs."""
FORGOTTEN_TEXT = N_("(forgotten)")
"""What that name reads as, in the reader's language (:func:`shown_name`)."""
DEFAULT_MU = 25.0
DEFAULT_SIGMA = 25.0 / 3


def shown_name(name: str, lang: str, ai: bool = False) -> str:
    """A kept game's player name as a reader sees it: a person who asked to
    be forgotten is kept as :data:`FORGOTTEN` (one marker in every
    language, so it is told apart from a name), said in the reader's; an
    AI seat (``ai``) with the reader's AI mark, whether the record keeps its
    base name (``Ada``) or, kept before that, the table's ("Ada (IA)")."""
    if ai:
        return ai_name(ai_base(name), lang)
    return gettext_for(lang)(FORGOTTEN_TEXT) if name == FORGOTTEN else name


def kept_name(player: dict[str, Any], lang: str) -> str:
    """`shown_name` of one of a record's players (its ``name`` and ``ai``)."""
    return shown_name(str(player.get("name", "?")), lang, bool(player.get("ai")))


def period_key(period: str, when: float) -> str:
    """The stored table a period names at time ``when`` (UTC): ``w2026-49``, ``m2026-12``, ``all``."""
    day = dt.datetime.fromtimestamp(when, dt.UTC)
    if period == "week":
        year, week, _ = day.isocalendar()
        return f"w{year}-{week:02d}"
    if period == "month":
        return f"m{day.year}-{day.month:02d}"
    if period == "all":
        return "all"
    raise ValueError(f"period must be one of {PERIODS}, not {period!r}")


def _period_ttl(period: str) -> float | None:
    return {"week": WEEK_TTL, "month": MONTH_TTL}.get(period)


def parse_rating(text: str) -> tuple[float, float]:
    """``"mu,sigma"`` as stored (the defaults for a player not yet rated)."""
    try:
        mu, sigma = (float(x) for x in text.split(","))
    except ValueError:
        return DEFAULT_MU, DEFAULT_SIGMA
    return mu, sigma


def display_rating(text: str) -> float:
    """The rating players see: the conservative estimate mu - 3 sigma (openskill's ordinal)."""
    mu, sigma = parse_rating(text)
    return round(mu - 3 * sigma, 1)


def rate(ranks: Sequence[int], before: Sequence[str], teams: Sequence[int] | None = None) -> list[str]:
    """New ratings (``"mu,sigma"``) after a match with these ranks (1 = won),
    one per seat: a free-for-all, or with ``teams`` (each seat's team; a
    team's seats share its rank) a game of teams, which openskill rates as
    such (partners gain or lose together, by their own uncertainty)."""
    from openskill.models import PlackettLuce  # imported here: only a match's end needs it

    model = PlackettLuce()
    groups = [[seat] for seat in range(len(before))] if teams is None else \
        [[s for s in range(len(before)) if teams[s] == t] for t in dict.fromkeys(teams)]
    ratings = [[model.rating(mu=mu, sigma=sigma) for mu, sigma in (parse_rating(before[s]) for s in group)]
               for group in groups]
    after = model.rate(ratings, ranks=[min(ranks[s] for s in group) for group in groups])
    out = [""] * len(before)
    for group, rated in zip(groups, after, strict=True):
        for seat, r in zip(group, rated, strict=True):
            out[seat] = f"{r.mu:.4f},{r.sigma:.4f}"
    return out


@dataclass(frozen=True, slots=True)
class Line:
    """One player's line in a table (``/top``) or own record (``/me``)."""

    player: str
    name: str
    games: int
    wins: int
    points: int
    rating: float


def _match_winner(table: Table, events: Sequence[Event]) -> int:
    for e in events:
        if e.kind == MATCH_WON:
            return e.player
    game = table.game
    if game is None or not game.scores:
        return -1
    return ranked([{"score": x} for x in game.scores], -1, lowest_wins(game), places_of(game))[0]


def _rules(game: GameState | None) -> RuleSet | None:
    """The rules in force in `game`; None without a game or when a rule it
    needs is not installed (the record is then kept as a plain match)."""
    if game is None:
        return None
    try:
        return game.rules or rules_of(game)
    except VariantError:
        return None


def lowest_wins(game: GameState | None) -> bool:
    """Whether the game's rules rank a lower score better (progressive
    scoring): asked of the rules in force (`Rule.lowest_score_wins`), never
    by a rule's name, so a plugin's scoring says it the same way."""
    rules = _rules(game)
    return rules is not None and rules.lowest_score_wins


def teams_of(game: GameState | None) -> list[int] | None:
    """Each seat's team when the game's rules make teams (`Rule.team`), else None."""
    rules = _rules(game)
    return rules.teams(game) if rules is not None and game is not None else None


def places_of(game: GameState | None) -> list[int] | None:
    """Each seat's place when the game's rules decide it by more than the
    points (`Rule.place`: elimination's order of leaving), else None."""
    rules = _rules(game)
    return rules.places(game) if rules is not None and game is not None else None


def ranked(players: Sequence[dict[str, Any]], winner: int, lowest: bool = False,
           places: Sequence[int] | None = None) -> list[int]:
    """The seats best first: the winner, then by place when the rules give
    one (`places_of`), then by score (lowest first when the rules say a
    lower score is better)."""
    sign = 1 if lowest else -1
    return sorted(range(len(players)), key=lambda s: (
        s != winner, places[s] if places else 0, sign * int(players[s].get("score", 0))))


def build(table: Table, game_id: str, entries: Sequence[str], events: Sequence[Event],
          moments: Sequence[str], when: float, played: Played | None = None,
          stopped: bool = False) -> dict[str, Any]:
    """The record kept of a finished game: its log and a summary.

    ``played``: the match was ended by the chat (see :class:`Played`), read
    before that end; ``stopped``: it ended with no winner (an admin's stop).
    """
    game = table.game
    scores = list(game.scores) if game is not None else [0] * len(table.seats)
    winner = -1 if stopped else _match_winner(table, events)
    if played is None:
        played = Played(game.round, game.to_dict()) if game is not None else Played(0, None)
    return {
        "game_id": game_id,
        # the match's reference its "Play again" names (`Table.match`)
        **({"match": table.match} if table.match else {}),
        "chat": table.chat_id,
        "ended": when,
        "variant": table.variant,
        "lang": table.lang,
        "stopped": stopped,
        "rounds": played.rounds,
        "moves": game.moves if game is not None else 0,
        "winner": winner,
        "lowest_wins": lowest_wins(game),
        "teams": teams_of(game),
        "places": places_of(game),
        # an AI seat by its base name: its mark is said in each reader's language (`shown_name`)
        "players": [{"id": s.id, "name": ai_base(s.name) if s.is_ai else s.name, "ai": s.is_ai, "level": s.level,
                     "score": scores[i] if i < len(scores) else 0} for i, s in enumerate(table.seats)],
        "moments": list(moments)[-8:],
        "log": list(entries),
        # the game the log replays to: what `unobot audit` checks the replay against
        "state": played.state,
    }


@dataclass(frozen=True, slots=True)
class Played:
    """What a match had played when the chat ended it (a stop, or the last
    of the rounds it was to last), read before that end: the rounds it
    finished and the game its log replays to.

    Why: the rounds played are real (their scores stand, a player may
    dispute one), so a match stopped after at least one finished round is
    kept and counted; and the stop itself is no move in the log, so the
    replay ends where the last move left the game, not where the stop put
    it (the match over).
    """

    rounds: int
    state: dict[str, Any] | None


def played(table: Table) -> Played:
    """The rounds the chat's match finished so far, and its game as the log leaves it."""
    game = table.game
    if game is None:
        return Played(0, None)
    return Played(game.round if game.phase == ROUND_OVER else game.round - 1, game.to_dict())


async def finish(store: Store, game_id: str, table: Table, events: Sequence[Event],
                 moments: Sequence[str], *, when: float | None = None,
                 played: Played | None = None, stopped: bool = False) -> bool:
    """Archive a match that just ended and count it in the chat's standings (once).

    ``played``: the chat ended the match (see :class:`Played`); ``stopped``:
    with no winner (an admin's stop after rounds were played), counted as a
    game with its points, nobody's win, no rating change. Best effort like
    the other counters: a store that is down loses the record, never a
    move. True when this call counted the match.
    """
    now = time.time() if when is None else when
    if table.game is None:
        return False
    try:
        entries = await store.read_log(game_id)
        record = build(table, game_id, entries, events, moments, now, played, stopped)
        return await store.archive_game(table.chat_id, game_id, record,
                                        await _standings(store, table, record, now))
    except StoreUnavailable:
        log.warning("records of chat %s not kept: store unavailable", table.chat_id)
        return False


def rated_as(player: dict[str, Any]) -> tuple[str, str]:
    """Who a seat counts as in the standings (id, name kept): a person as
    themself; an AI seat as its seat and level (``ai:1:expert``), under its
    base name ("Ada"): `standing_name` adds the AI mark and the level in
    each reader's language, as `kept_name` does for a kept game.

    Why the level: the seat ids are the same whatever level sits there
    (the first AI seat is ``ai:1``, easy in one match, expert in the next),
    and the point of rating the AI is that a group sees how it does against
    each level; one line for all of them would say nothing.
    Why the base name: the line is read in every reader's language; kept
    as the table wrote it ("Ada (IA) · experto"), a German read Spanish.
    """
    level = player.get("level")
    if not player.get("ai") or not level:  # a person, or a record kept before levels were
        return str(player["id"]), ai_base(str(player["name"])) if player.get("ai") else str(player["name"])
    return f"{player['id']}:{level}", ai_base(str(player["name"]))


def standing_name(player: str, name: str, lang: str) -> str:
    """A standings line's name as `lang` reads it: a person's as kept; an AI
    seat's (`rated_as`) with the reader's AI mark and level ("Ada (KI) ·
    Experte"), also from a line kept before the base name was, with the
    table's words in it ("Ada (IA) · experto")."""
    if not player.startswith("ai:"):
        return name
    shown = ai_name(ai_base(name.split(" · ")[0]), lang)
    seat, _sep, level = player.rpartition(":")
    return f"{shown} · {level_title(level, lang)}" if seat.startswith("ai:") else shown


async def _standings(store: Store, table: Table, record: dict[str, Any], now: float) -> list[Standing]:
    players = record["players"]
    scores = [int(p["score"]) for p in players]
    winner = int(record["winner"])
    lowest = bool(record.get("lowest_wins"))
    teams = record.get("teams")
    places = record.get("places") or [0] * len(players)
    # who won the match: the winner, with their partners when it is a game of teams
    won = {s for s in range(len(players)) if winner >= 0 and (s == winner or (teams and teams[s] == teams[winner]))}
    order = ranked(players, winner, lowest, places)
    ranks = [0] * len(players)
    for place, seat in enumerate(order):
        prev = order[place - 1] if place else -1
        same = place > 0 and ((seat in won and prev in won) or (
            seat not in won and prev not in won and places[seat] == places[prev] and scores[seat] == scores[prev]))
        ranks[seat] = ranks[prev] if same else place + 1
    who = [rated_as(p) for p in players]
    everyone = await store.standings(table.chat_id, "all")
    before = [everyone.get(ident, {}).get("rating", "") for ident, _name in who]
    rated = len(players) > 1 and not record["stopped"]  # a stopped match has no result to rate
    after = rate(ranks, before, teams) if rated else [""] * len(players)  # "": the rating stays as it is
    out: list[Standing] = []
    for period in PERIODS:
        key = period_key(period, now)
        for seat, (ident, name) in enumerate(who):
            out.append(Standing(key, _period_ttl(period), ident, name,
                                # a lowest-wins total is points against: none are scored
                                wins=int(seat in won), games=1, points=0 if lowest else max(0, scores[seat]),
                                rating=after[seat] if period == "all" else ""))
    return out


# --------------------------------------------------------------------------- reading


def _line(player: str, raw: dict[str, Any], rating: str = "", lang: str | None = None) -> Line:
    name = str(raw["name"])
    return Line(player, standing_name(player, name, lang) if lang else name, int(raw["games"]), int(raw["wins"]),
                int(raw["points"]), display_rating(rating or str(raw.get("rating") or "")))


async def top(store: Store, chat_id: str, period: str = "all", *, limit: int | None = 10,
              when: float | None = None, lang: str | None = None) -> list[Line]:
    """A chat's table for a period, best first (wins, then points, then rating),
    its first `limit` lines (None: all); with `lang`, each name as that
    reader reads it (`standing_name`), else as kept."""
    key = period_key(period, time.time() if when is None else when)
    table = await store.standings(chat_id, key)
    ratings = await store.standings(chat_id, "all") if key != "all" else table
    lines = [_line(p, raw, str(ratings.get(p, {}).get("rating", "")), lang) for p, raw in table.items()]
    lines.sort(key=lambda x: (*standing(x), x.name))
    return lines[:limit]


def standing(line: Line) -> tuple[int, int, float]:
    """What orders a table (wins, then points, then rating; lowest first):
    lines equal in it share a place."""
    return -line.wins, -line.points, -line.rating


def places(lines: Sequence[Line]) -> list[int]:
    """Each line's place in a table sorted by `standing` (1 = best), shared by
    equal lines as sports tables share them: 1, 1, 3."""
    out: list[int] = []
    for i, line in enumerate(lines):
        out.append(out[-1] if i and standing(lines[i - 1]) == standing(line) else i + 1)
    return out


async def me(store: Store, person_id: str) -> dict[str, Line]:
    """A player's all-time line in every chat they played in (chat id -> line)."""
    out: dict[str, Line] = {}
    for chat in await store.player_chats(person_id):
        raw = (await store.standings(chat, "all")).get(person_id)
        if raw is not None:
            out[chat] = _line(person_id, raw)
    return out


async def last(store: Store, chat_id: str) -> dict[str, Any] | None:
    """The chat's last finished game's record, or None."""
    games = await store.archived(chat_id, 1)
    return games[0] if games else None


def without(record: dict[str, Any], person_id: str, name: str = FORGOTTEN) -> dict[str, Any]:
    """The record with a person's name and id replaced everywhere it is written
    (seats, the deal entry, the table entries that carry the id, the game the
    log replays to), and the last moments that name them dropped.

    Why token by token and never by substring: the moves are short codes
    (``0 play R5``, ``2 draw``), so replacing a short name or id inside them
    (a member called ``a``, an id ``5``) would break the log; and why the
    kept ``state`` too: ``unobot audit`` checks the replay against it, so the
    deal's players and the state's must stay one and the same.
    """
    players = record.get("players", [])
    seats = [i for i, p in enumerate(players) if p.get("id") == person_id]
    if not seats:
        return record
    old_names = {str(players[i]["name"]) for i in seats}
    out = dict(record)
    entries = [str(e) for e in record.get("log", [])]
    taken = {str(p.get("id")) for p in players}
    for entry in entries:
        if entry.startswith(DEAL + " "):
            taken.update(str(x) for x in json.loads(entry[len(DEAL) + 1:]).get("players", []))
    alias = next(a for a in (name, *(f"{name} {k}" for k in range(2, len(taken) + 3))) if a not in taken)
    # the seat's id goes too: an id kept beside "(forgotten)" would still say who it was
    out["players"] = [dict(p, name=name, id=alias) if p.get("id") == person_id else p for p in players]
    out["log"] = [_entry_without(entry, person_id, alias) for entry in entries]
    state = record.get("state")
    if isinstance(state, dict) and isinstance(state.get("p"), list):
        out["state"] = dict(state, p=[alias if x == person_id else x for x in state["p"]])
    said = re.compile("|".join(rf"(?<!\w){re.escape(n)}(?!\w)" for n in sorted(old_names, key=len, reverse=True)))
    out["moments"] = [m for m in record.get("moments", []) if not said.search(str(m))]
    return out


def _entry_without(entry: str, person_id: str, alias: str) -> str:
    """One log entry with the person's id replaced: in the deal's players,
    or as a whole word of a table entry (``join <id>``); moves name seats
    by number and are left as they are."""
    head, _, rest = entry.partition(" ")
    if head == DEAL:
        recipe = json.loads(rest)
        recipe["players"] = [alias if x == person_id else x for x in recipe.get("players", [])]
        return f"{DEAL} {json.dumps(recipe, separators=(',', ':'), ensure_ascii=False)}"
    if head in TABLE_ENTRIES:
        return " ".join(alias if word == person_id else word for word in entry.split(" "))
    return entry


async def forget(store: Store, person_id: str) -> int:
    """Remove a person's lines from every chat's standings, their name from
    the games kept there and their ``/stats`` counters; return how many
    chats it touched."""
    chats = await store.player_chats(person_id)
    for chat in chats:
        await store.forget_standings(chat, person_id)
        for record in await store.archived(chat, store.archive_max):
            changed = without(record, person_id)
            if changed is not record:
                await store.replace_archived(chat, str(record["game_id"]), changed)
    await store.forget_player_chats(person_id)
    counters = {k: -v for k, v in (await store.get_stats("user", person_id)).items() if v}
    if counters:  # their /stats counters go too (to zero: a store has no delete for them)
        await store.incr_stats("user", person_id, counters)
    return len(chats)


async def reset(store: Store, chat_id: str) -> None:
    """Clear every period's standings and ratings of a chat (an admin's reset; kept games stay)."""
    await store.forget_standings(chat_id)
