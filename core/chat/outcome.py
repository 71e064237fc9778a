"""What the chat layer answers: an Outcome per command, a ChatError for a
refusal, and the defaults a chat has until it chooses otherwise."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, sort_key
from ..config import GameConfig
from ..events import MATCH_WON, ROUND_WON, Event
from .i18n import N_, Msg, gettext_for, joined, known
from .render import EventText, card_name, describe_private, error_text
from .table import Table

MAX_PLAYERS = 10
AI_NAMES = ("Ada", "Alan", "Grace", "Edsger", "Barbara", "Donald", "Margaret", "Dennis", "Ken", "Radia")


class ChatError(Exception):
    """A command the chat layer refuses, with a code (translated by `error_text`)."""

    def __init__(self, code: str, detail: Msg | None = None) -> None:
        super().__init__(code)
        self.code = code
        #: What exactly, said before the code's text (`Outcome.detail`).
        self.detail = detail


@dataclass
class Outcome:
    """What a command did: the table after it, what to tell whom."""

    ok: bool = True
    code: str | None = None
    #: A refusal's text, in the chat's language.
    error: str | None = None
    #: Why, when there is more to say than the code's text (which rules clash):
    #: `reason.text(lang)` for an adapter that answers each reader in their own language.
    reason: Msg | None = None
    #: What exactly, said before the code's own text (which rules clash, which
    #: rule is missing), where the code's text says how to fix it with the
    #: front-end's commands: `refusal` says both.
    detail: Msg | None = None
    table: Table | None = None
    events: list[Event] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    private: dict[str, list[str]] = field(default_factory=dict)
    changed: bool = False
    settings: dict[str, Any] | None = None
    #: AI seats wait: a person may jump in, catch or say UNO (send Continue).
    paused: bool = False
    #: The notices as texts for any reader (`tell`), when each was told so.
    said: list[Msg] = field(default_factory=list)
    #: The hand a challenger is shown (the official rule: the challenged player
    #: shows it to the challenger alone), as it was when challenged: person
    #: id -> (the challenged seat, its cards). Also among their private lines.
    shown: dict[str, tuple[int, list[Card]]] = field(default_factory=dict)
    #: A settings change: the lobbies of other places that took it (a forum's
    #: other topics, a server's other channels), for their status messages.
    followers: list[Table] = field(default_factory=list)
    #: A refusal not to be said: the same command's earlier delivery was told
    #: already that it will be handled once the store is back (`delivery.Redelivery`).
    quiet: bool = False
    #: A settings change the place's lobby took at once (the game waiting for players
    #: plays it): "Saved" then says so, not "from the next game" (`settings_press.saved_note`).
    to_lobby: bool = False
    #: The delivery being handled had changed the table already (its platform sent it
    #: again: `chat.delivered`): nothing changed now and nothing is to be said; a
    #: front-end shows the table as it is (the first copy's process may have died
    #: before it could).
    repeated: bool = False

    def refusal(self, lang: str, commands: Mapping[str, str] | None = None) -> str:
        """A refused command's answer in the reader's language: its reason
        (which rules clash) when it has one, else its code's text, naming
        commands as the front-end spells them (`render.error_text`). Empty
        when `quiet`: nothing is to be said (a front-end then says nothing)."""
        if self.quiet:
            return ""
        if self.reason is not None:
            return self.reason.text(lang)
        text = error_text(self.code or "bad_move", lang, commands)
        if self.detail is None:
            return text
        # Two sentences, joined as the language joins them (Chinese needs no space).
        return gettext_for(lang)(N_("{detail} {refusal}")).format(detail=self.detail.text(lang), refusal=text)

    def tell(self, msg: Msg, lang: str | None) -> None:
        """Add a notice for everyone at the table: said in `lang` (the
        table's), and kept as `msg` for a front-end that answers one member
        alone in their own language (`notices_in`)."""
        self.notices.append(msg.text(lang))
        self.said.append(msg)

    def status_notes(self) -> list[str]:
        """The notices a status message adds under the table's last moves:
        those that are not a move's line. Why: a move's line is among the
        last moves already, or scrolled out of them (a No Mercy start that
        sends back three first cards tells eight lines; the last moves keep
        six), and repeated under them it read as the newest news ("the
        first card is Wild Reverse Draw Four" under "the first card is Blue
        7"), or one line per card under the last moves' "drew 4 cards"."""
        moves = {m.text(self.table.lang) for m in self.said if isinstance(m, EventText)
                 and Table.remembers(m.event)} if self.table is not None else set()
        return [n for n in self.notices if n not in moves]

    def notices_in(self, lang: str) -> list[str]:
        """The notices in `lang`, for an answer only one member reads
        (Discord's private "you left", "Ada joined"): each told with `tell`
        is said again in `lang`; when one was added as plain text (in the
        table's language), all are given as they were, in order."""
        if len(self.said) != len(self.notices):
            return list(self.notices)
        return [m.text(lang) for m in self.said]

    def refusal_to(self, person_lang: str | None, default: str, commands: Mapping[str, str] | None = None) -> str:
        """`refusal` for one member alone, in the language they read (`reader_lang`)."""
        return self.refusal(reader_lang(person_lang, self.table, default), commands)

    def private_for(self, person_id: str, lang: str) -> list[str]:
        """What only `person_id` may read of this outcome (the cards they
        drew), in `lang`: a front-end that knows a player's own language
        says it in theirs, not the chat's (`private` is in the chat's)."""
        table = self.table
        seats = {i for i, seat in enumerate(table.seats) if seat.id == person_id} if table is not None else set()
        lines = [line for e in self.events if e.cards and e.player in seats if (line := describe_private(e, lang))]
        if person_id in self.shown and table is not None:
            lines.append(shown_line(table, *self.shown[person_id], lang))
        return lines

    @property
    def round_over(self) -> bool:
        return any(e.kind == ROUND_WON for e in self.events)

    @property
    def match_over(self) -> bool:
        return any(e.kind == MATCH_WON for e in self.events)


def shown_line(table: Table, seat: int, cards: list[Card], lang: str) -> str:
    """"Ben's hand: Red 5, Wild" in `lang`: the hand a challenger is shown."""
    _ = gettext_for(lang)
    name = table.seats[seat].name if 0 <= seat < len(table.seats) else "?"
    return _("{player}'s hand:").format(player=name) + " " + joined(
        (card_name(card, lang) for card in sorted(cards, key=sort_key)), lang)


def reader_lang(person_lang: str | None, table: Table | None, default: str) -> str:
    """The language of an answer meant for one member alone: their own (their
    client's, `person_lang`) when spoken here, else the table's, else
    `default` (the bot's). Why here: every such answer of a front-end that
    knows its members' languages (Discord's refusals and panels) picks it so."""
    return known(person_lang) or (table.lang if table is not None else default)


@dataclass
class Defaults:
    variant: str = "official"
    lang: str = "en"
    timer: int = 0
    lobby_minutes: float = 30.0

    @classmethod
    def of(cls, game: GameConfig) -> Defaults:
        """A chat's defaults as the operator's configuration (`game:`) sets them."""
        return cls(variant=game.default_variant, lang=game.default_language, timer=game.turn_seconds,
                   lobby_minutes=game.lobby_minutes)
