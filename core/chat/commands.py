"""Inbound commands: what a person asks of a chat, with no platform in them.

Adapters build these from a Telegram update, a console line, ...; the
`ChatService` carries them out. Cards, colours and targets travel as text
(`"W+4"`, `"green"`, a person id or a name), because that is what arrives.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .i18n import N_


@dataclass(frozen=True)
class Person:
    """Someone in a chat, as the adapter knows them."""

    id: str
    name: str
    lang: str | None = None
    is_admin: bool = False  # chat admin (the adapter checks the platform)

    @property
    def is_ai(self) -> bool:
        return self.id.startswith("ai:")


@dataclass(frozen=True, slots=True)
class Command:
    """Base class. `version` (optional): the table version the person saw;
    a move made on an older view is refused as stale.

    A command without fields of its own is a plain subclass with empty
    `__slots__`, not a dataclass again: it has the base's `__init__`,
    `__eq__` (which compares classes too: `Join() != Leave()`), `__hash__`
    and `__repr__` (the class's own name), and no attribute can be set on
    it. Why: each dataclass costs Python 3.11 six small compilations (~1 ms),
    and this module is imported by every bot's start-up.
    """

    version: int | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class NewGame(Command):
    variant: str | None = None
    join: bool = True  # False: open the table without a seat (an AI-only demo)


@dataclass(frozen=True)
class Again(Command):
    """Play again at this table: a new lobby seated as the chat's last match
    was (its people and its AI seats at their levels, its variant), to be
    started when everyone is there (see `lobby.open_again`).

    Why beside `NewGame`: a table made once and shared by a link (the web
    table) has no `/new` to type, and its players expect the same table,
    not a new link and everyone joining again.

    `unposted`: asked where the chat's messages are not written (a Telegram
    group's Mini App page): the lobby is marked so the chat's own front-end
    posts its status when it sees it (`table.UNPOSTED`).

    `match`: the match this asks to play again (its `Table.match`, carried by the
    button under that match's message); empty: the chat's last match (a typed
    command, an older button)."""

    unposted: bool = False
    match: str = ""


class Join(Command):
    __slots__ = ()


class Leave(Command):
    __slots__ = ()


class Start(Command):
    __slots__ = ()


@dataclass(frozen=True)
class AddAI(Command):
    count: int = 1
    level: str = "normal"


@dataclass(frozen=True)
class Play(Command):
    card: str
    color: str | None = None
    target: str | None = None
    #: Say UNO with this play, as one action (a chat adapter offers "R5 · UNO!"
    #: so a player going down to one card needs one pick, not two). Both
    #: moves are judged by the engine and saved together, or neither is.
    uno: bool = False


@dataclass(frozen=True)
class Draw(Command):
    #: Then play the drawn card if it fits (colour or target chosen as the
    #: hard AI would, UNO said when it leaves one card): one action for the
    #: common "draw, and play it if I can". Without it the player decides
    #: after seeing the card.
    then_play: bool = False


class Pass(Command):
    __slots__ = ()


class SayUno(Command):
    __slots__ = ()


@dataclass(frozen=True)
class Catch(Command):
    target: str | None = None  # None: whoever can be caught


class Challenge(Command):
    __slots__ = ()


@dataclass(frozen=True)
class PluginMove(Command):
    """A move of a kind a plugin added, in its text form (`time_up`,
    `multi R5 G5`; a player as a name or `@seat`)."""

    text: str
    #: Say UNO with this move, as a play may (`Play.uno`): a plugin's move that
    #: puts several cards down (a multi-play from three cards to one) leaves one
    #: card as a play does, and the player must not be open to a catch for it.
    uno: bool = False


@dataclass(frozen=True)
class NameColor(Command):
    """Name the colour of a Wild starter (the first player, before anything else)."""

    color: str


class NextRound(Command):
    __slots__ = ()


class Continue(Command):
    """Let AI seats move on after a pause (the service pauses them while a
    person may jump in, catch or say UNO). Adapters send it after a short
    delay, with the `version` they saw, so it never runs twice."""

    __slots__ = ()


class Stop(Command):
    __slots__ = ()


class StopAfterRounds(Stop):
    """The match ends after the number of rounds it was to last (the
    console's `--rounds N`): a stop without "stopped by"; the rules'
    `match_end` is told with reason `rounds`."""

    __slots__ = ()


@dataclass(frozen=True)
class Kick(Command):
    target: str = ""


@dataclass(frozen=True)
class Skip(Command):
    """The player to move ran out of time (`auto`: sent by the adapter's
    timer; otherwise a person asks, allowed once the timer has run out)."""

    auto: bool = False


@dataclass(frozen=True)
class SetVariant(Command):
    name: str = "official"


@dataclass(frozen=True)
class SetRule(Command):
    """Turn a house rule on/off (`enabled`) or set one of its options."""

    rule: str = ""
    enabled: bool | None = None
    option: str | None = None
    value: object = None


class ResetRules(Command):
    __slots__ = ()


@dataclass(frozen=True)
class SetLanguage(Command):
    lang: str = "en"


@dataclass(frozen=True)
class SetTimer(Command):
    seconds: int = 0


#: The longest turn timer a chat can have (seconds): `/timer` sets at most this,
#: and config.yaml's `game.turn_seconds` may not ask for more.
MAX_TIMER_SECONDS = 3600


GAME_MOVES = (Play, Draw, Pass, SayUno, Catch, Challenge, NameColor, PluginMove)

#: What the commands every chat front-end offers do, in the words of its
#: command menu (Telegram's menu and /help, Discord's slash commands and
#: /uno help): catalogued once, so the platforms cannot drift apart.
WORDS: dict[str, str] = {
    "new": N_("Open a game here (optionally: a variant name)"),
    "leave": N_("Leave the game"),
    "stop": N_("Stop the game (creator or admin)"),
    "skip": N_("Skip a player whose time ran out"),
    "rules": N_("Show and change the rules here"),
    "variant": N_("Choose the rules variant (admins)"),
    "timer": N_("Seconds per turn, or off (admins)"),
    "language": N_("Choose the language here (admins)"),
    "help": N_("How to play"),
}
#: The table commands that take nothing, by the name every front-end gives them.
PLAIN: dict[str, type[Command]] = {"skip": Skip, "leave": Leave, "stop": Stop}
#: Commands that act on someone else (the whole table, another player, the
#: player on turn): a front-end that may answer one member alone (Discord)
#: answers these where everyone reads, and the others to the member only
#: (the status message shows the rest).
PUBLIC_ANSWERS: tuple[type[Command], ...] = (Stop, Kick, Skip)


def parse_int(text: str) -> int | None:
    """A typed whole number, or None: exactly what `int()` accepts (`3`, ` 3 `, `+3`),
    never what only isdigit accepts (`²` would make `int()` raise)."""
    try:
        return int(text)
    except ValueError:
        return None
