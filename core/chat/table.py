"""A chat's table: the lobby, the running game and what the chat layer
needs around it (who created it, AI seats, timeouts, the last moves).

This is what the store keeps under a game id (`Table.encode()`), so a
lobby survives a restart as well as a running game does.
"""

from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card
from ..events import CARD_PLAYED, HANDS_ROTATED, HANDS_SWAPPED, ROUND_STARTED, Event
from ..state import GameState, StateFormatError, card_reader, pack, unpack
from .commands import Person

SCHEMA = 1
LOBBY = "lobby"
PLAYING = "playing"
BETWEEN_ROUNDS = "between_rounds"
FINISHED = "finished"

#: `Table.adapter`'s mark of a lobby no process posts in its chat: it was opened where the
#: chat's own messages are not written (a Telegram group's Mini App page pressed "Play
#: again"), so the chat's front-end, seeing the change, posts its status (`follow_changes`).
UNPOSTED = "unposted"

#: How many public events the table keeps for its status view.
RECENT = 6
#: Events the last moves do not keep (`Table.remembers`).
NOT_REMEMBERED = ("turn", "scores")
#: A recent event's fields after its kind and player, and their values when absent
#: (left out of the stored form: most events have no card, count, other player or colour).
_RECENT_DEFAULTS = [None, 0, -1, None]


@dataclass
class Seat:
    id: str
    name: str
    level: str | None = None  # AI level; None for a person
    #: The language the person plays in (their app's, as the adapter last said it;
    #: None: the chat's): what only they read (the cards they drew) speaks it.
    lang: str | None = None

    @property
    def is_ai(self) -> bool:
        return self.level is not None

    def person(self) -> Person:
        return Person(self.id, self.name)


def match_ref(seed: int) -> str:
    """8 hex digits naming the match dealt from `seed` (`Table.match`)."""
    return hashlib.blake2b(int(seed).to_bytes(16, "big", signed=True), digest_size=4,
                           person=b"unobot-match").hexdigest()


@dataclass
class Table:
    chat_id: str
    creator: str
    variant: str = "official"
    overrides: dict[str, Any] = field(default_factory=dict)
    lang: str = "en"
    seats: list[Seat] = field(default_factory=list)
    phase: str = LOBBY
    seed: int = 0
    game: GameState | None = None
    timeouts: dict[str, int] = field(default_factory=dict)
    recent: list[list[Any]] = field(default_factory=list)
    created: float = field(default_factory=time.time)
    turn_started: float = field(default_factory=time.time)
    timer: int = 0  # seconds per turn for this table (0: the variant's, or none)
    adapter: dict[str, Any] = field(default_factory=dict)  # adapters' own data (message ids)
    left: list[str] = field(default_factory=list)  # people who left between rounds
    round_started: float = 0.0  # when the round was dealt (a rule's round clock runs from it)
    #: The match a "Play again" lobby plays again (its `match`): a second press on that
    #: match's message is this lobby; a press on another match's is not. Kept while
    #: the lobby waits (a started game needs it no more: the stored table stays small).
    again_of: str = ""
    #: seat -> the cards that seat drew last (one move's draws: a draw, a penalty
    #: taken), less those played since; people only. Their hand marks them: the
    #: private "You drew" notice may be lost. Cleared when a round is dealt.
    drawn_last: dict[int, list[Card]] = field(default_factory=dict)
    #: The chat's settings (variant, rules, lang, timer) as this lobby last
    #: took them: at Start the lobby takes those changed since (`settings.catch_up`),
    #: made where it did not hear of them (a forum's other topic, a Discord
    #: server's scope). Empty for a table from before it was kept.
    settings_seen: dict[str, Any] = field(default_factory=dict)
    #: The table's revision: +1 on every change a person could have seen
    #: (a move, a join, a setting). Commands and adapters' result ids carry
    #: it to detect stale choices; adapters' own bookkeeping does not bump it.
    version: int = 0
    #: The store's compare-and-set version this table was loaded at (not encoded).
    store_version: int = 0

    @property
    def match(self) -> str:
        """The match's own reference: what "Play again" under its last message names (and
        its record keeps), so a press on an old match's message plays that match again,
        not the chat's latest. A digest of the table's seed, which is drawn at random for
        each table: nothing more to store (a 4-player table stays within 1 KB), and the
        seed, which orders the deck, cannot be read back from it (nor is the reference
        shown before the match is over)."""
        return match_ref(self.seed)

    # -- seats ----------------------------------------------------------------
    def seat_of(self, person_id: str) -> int | None:
        for i, seat in enumerate(self.seats):
            if seat.id == person_id:
                return i
        return None

    def has_left(self, seat: int) -> bool:
        """Whether the person at `seat` left this game (or was removed): their
        seat stays, for the scores and the status's "(left the game)", but it
        holds no hand they play (their menu has none, the views say "gone")."""
        return self.seats[seat].id in self.left or (self.game is not None and seat in self.game.match.get("left", ()))

    def find_seat(self, text: str) -> int | None:
        """A seat by person id, exact name, then unique name prefix."""
        seat = self.seat_of(text)
        if seat is not None:
            return seat
        low = text.lstrip("@").lower()
        exact = [i for i, s in enumerate(self.seats) if s.name.lower() == low]
        if len(exact) == 1:
            return exact[0]
        prefix = [i for i, s in enumerate(self.seats) if s.name.lower().startswith(low)]
        return prefix[0] if len(prefix) == 1 else None

    def humans(self) -> list[Seat]:
        return [s for s in self.seats if not s.is_ai]

    # -- recent events ----------------------------------------------------------
    @staticmethod
    def remembers(event: Event) -> bool:
        """Whether the last moves keep `event` (`remember`): a turn's start and
        the scores are said elsewhere (the status's lines, the round's result)."""
        return event.kind not in NOT_REMEMBERED

    def remember(self, events: list[Event]) -> None:
        for e in events:
            self.recent.append([e.kind, e.player, e.card.text if e.card else None, e.n, e.other, e.color])
        del self.recent[:-RECENT]

    def note_draws(self, events: list[Event]) -> None:
        """Keep, per person's seat, the cards of their last draw (all the cards
        one move made them take: a +2 taken is two, draw-until-playable
        several); a card they play leaves it; swapped hands and a new deal
        clear it."""
        fresh: set[int] = set()  # seats that drew in these events: their older draw is replaced
        for e in events:
            if e.kind == ROUND_STARTED or e.kind == HANDS_ROTATED:
                self.drawn_last.clear()
            elif e.kind == HANDS_SWAPPED:
                for seat in (e.player, e.other):
                    self.drawn_last.pop(seat, None)
            elif e.cards and 0 <= e.player < len(self.seats) and not self.seats[e.player].is_ai:
                if e.player in fresh:
                    self.drawn_last[e.player].extend(e.cards)
                else:
                    self.drawn_last[e.player] = list(e.cards)
                    fresh.add(e.player)
            elif e.kind == CARD_PLAYED and e.card is not None and e.card in self.drawn_last.get(e.player, ()):
                self.drawn_last[e.player].remove(e.card)
                if not self.drawn_last[e.player]:
                    del self.drawn_last[e.player]

    # -- encoding -----------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "t": SCHEMA,
            "chat": self.chat_id,
            "by": self.creator,
            "var": self.variant,
            "ovr": self.overrides,
            "lang": self.lang,
            "seats": [[s.id, s.name, s.level, *([s.lang] if s.lang else [])] for s in self.seats],
            "ph": self.phase,
            "seed": self.seed,
            "g": self._game_dict(),
            "to": self.timeouts,
            "rc": [_trimmed(r) for r in self.recent],
            "cr": round(self.created, 1),
            "ts": round(self.turn_started, 2),
            "tm": self.timer,
            "ad": self.adapter,
            "v": self.version,
            **({"left": self.left} if self.left else {}),
            **({"ss": self.settings_seen} if self.settings_seen and self.phase == LOBBY else {}),
            **({"rt": round(self.round_started, 1)} if self.round_started else {}),
            **({"ag": self.again_of} if self.again_of and self.phase == LOBBY else {}),
            **({"nd": {str(k): pack(v) for k, v in self.drawn_last.items()}} if self.drawn_last else {}),
        }

    def _game_dict(self) -> dict[str, Any] | None:
        """The game's data; its players are the seats' ids, so they are not
        written twice (the variant too, when it is the table's)."""
        if self.game is None:
            return None
        d = self.game.to_dict()
        if d["p"] == [s.id for s in self.seats]:
            del d["p"]
        if d["var"] == self.variant:
            del d["var"]
        return d

    def encode(self) -> bytes:
        return json.dumps(self.to_dict(), separators=(",", ":"), ensure_ascii=False).encode()

    @classmethod
    def decode(cls, data: bytes, store_version: int = 0) -> Table:
        try:
            d = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise StateFormatError(f"table is not valid JSON: {exc}") from exc
        if not isinstance(d, dict) or d.get("t") != SCHEMA:
            raise StateFormatError(f"table schema {d.get('t') if isinstance(d, dict) else None!r} is not readable")
        try:
            read = card_reader(d.get("g"))
            table = cls(
                chat_id=d["chat"], creator=d["by"], variant=d["var"], overrides=d.get("ovr") or {},
                lang=d.get("lang", "en"), seats=[Seat(*seat[:4]) for seat in d["seats"]],
                phase=d["ph"], seed=d.get("seed", 0),
                game=GameState.from_dict({"p": [s[0] for s in d["seats"]], "var": d["var"], **d["g"]})
                if d.get("g") else None,
                timeouts=dict(d.get("to") or {}), recent=[_padded(r) for r in d.get("rc") or []],
                created=d.get("cr", 0.0), turn_started=d.get("ts", 0.0), timer=d.get("tm", 0),
                adapter=dict(d.get("ad") or {}),
                left=list(d.get("left") or []),
                round_started=float(d.get("rt", 0.0)),
                version=int(d.get("v", 0)),
                drawn_last={int(k): unpack(v, read) for k, v in (d.get("nd") or {}).items()},
                settings_seen=dict(d.get("ss") or {}),
                again_of=str(d.get("ag") or ""),
            )
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateFormatError(f"table is incomplete or corrupt: {exc!r}") from exc
        table.store_version = store_version
        return table

    def recent_events(self) -> list[Event]:
        from ..cards import CardError, parse_card

        try:
            return [Event(k, p, parse_card(c) if c else None, n, o, col) for k, p, c, n, o, col in self.recent]
        except CardError:  # a card of a gone plugin's kind, read as the game reads its own
            read = card_reader(self._game_dict())
            return [Event(k, p, read(c) if c else None, n, o, col) for k, p, c, n, o, col in self.recent]


def _trimmed(entry: list[Any]) -> list[Any]:
    """A recent event as stored: its trailing fields left out where they hold their default."""
    end = len(entry)
    while end > 2 and entry[end - 1] == _RECENT_DEFAULTS[end - 3]:
        end -= 1
    return entry[:end]


def _padded(entry: list[Any]) -> list[Any]:
    """A stored recent event with every field (older tables stored them all)."""
    return [*entry, *_RECENT_DEFAULTS[len(entry) - 2:]] if len(entry) < 6 else list(entry)


class TableCodec:
    """Chat tables in the store (the session's codec)."""

    def decode(self, data: bytes, version: int) -> Table:
        return Table.decode(data, version)

    def encode(self, value: Table) -> bytes:
        return value.encode()

    def copy(self, value: Table, version: int) -> Table:
        return Table.decode(value.encode(), version)


TABLES = TableCodec()
