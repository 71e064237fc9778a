"""The table model's actions: what one person may do at one table, now.

Why here and not in each front-end: what to offer, in which order, how it
is labelled in the person's language and what command it becomes were
worked out by every adapter for itself, and they drifted (Discord never
offered a Wild starter's colour nor a plugin's move; the console paused
only for the built-in out-of-turn moves). Now every adapter renders this
list and maps a press, a pick or a typed line back to an action's `id`;
none decides legality or what to offer.

An action's `id` is a compact, ASCII code of the neutral command it
becomes (the codec below): a button's `custom_id`, an inline result's id
or a web page's message carries it back, with the table version the
person saw. Nothing in an id is trusted: `decode` only rebuilds the
command, and the service judges it (the version, the player, the move).

    p<card>[.<colour letter>][@<person id>][!]   play (R5, W+4.G, R7@123; ! says UNO with it)
    d  draw     d+  draw, and play the card if it fits     s  pass
    u  UNO      c  challenge     k<person id>  catch     h<colour letter>  a Wild starter's colour
    m<text with ~ for spaces>   a plugin's move     M<digest>  a plugin's move too long for an id
    j  join     l  leave     g  start     a<level>  add an AI seat     n  next round     t  skip (time is up)

Actions are complete: each becomes one command as it is. A card played
several ways (a wild's colour, a Seven-O target) is several actions;
`grouped` folds them into one per card with the choice it still `needs`,
for a front-end that asks in two steps (a menu, then a picker).
"""

from __future__ import annotations

import base64
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from .. import engine
from ..cards import COLOR_NAMES, Card
from ..moves import CATCH, CHALLENGE, COLOR, DRAW, KINDS, PASS, PLAY, UNO, Move
from . import commands as c
from .i18n import N_, gettext_for, joined, ngettext_for
from .outcome import MAX_PLAYERS
from .render import (
    COLOR_EMOJI,
    card_label,
    card_name,
    color_name,
    plugin_move_hint,
    plugin_move_title,
)
from .table import BETWEEN_ROUNDS, FINISHED, LOBBY, PLAYING, Table
from .typed import LEVEL_NAMES as LEVEL_NAMES  # where front-ends have looked for it
from .views import HandCard, HandView, hand_view

# Action kinds: the move kinds (play, draw, pass, uno, catch, challenge, color),
# a plugin's own kinds as they are, and these.
DRAW_PLAY = "draw_play"
JOIN, LEAVE, START, ADD_AI, NEXT_ROUND, SKIP = "join", "leave", "start", "add_ai", "next_round", "skip"
AGAIN = "again"
#: `again_action`'s label; a front-end with buttons and no commands names it in a sentence too.
AGAIN_LABEL = N_("Play again")
#: Take an AI seat out of the lobby (the creator or an admin), one choice an AI seat.
REMOVE_AI = "remove_ai"
#: Stop the game (`Menu.stop`): its creator's or an admin's, apart from the other actions.
STOP = "stop"
MANAGE = "manage"

# Groups, which say where a front-end puts an action.
TURN, CARD, OUT_OF_TURN, LOBBY_GROUP, ROUND = "turn", "card", "out_of_turn", "lobby", "round"

# Tones, which say how much an action stands out (a button's colour, say).
MAIN, GO, ALERT, QUIET = "main", "go", "alert", "quiet"
#: Each kind's tone (any other kind's: QUIET): naming a colour and starting
#: the game are the choice on offer; drawing to play, joining and the next
#: round move the game on; UNO, a catch and a challenge are urgent.
TONES = {COLOR: MAIN, START: MAIN, DRAW_PLAY: GO, JOIN: GO, NEXT_ROUND: GO, AGAIN: GO, UNO: ALERT, CATCH: ALERT,
         CHALLENGE: ALERT}

#: The longest plain id; a plugin move's text longer than this goes by digest.
MAX_PLAIN = 40

DRAW_AND_PLAY = N_("Draw, and play it if it fits")
#: Ends the label of a play that says UNO with it (`R5 · Red 5 · UNO!`).
UNO_MARK = " · UNO!"
#: The AI levels a front-end offers, weakest first, when core/ai.py knows them.
AI_LEVELS = ("easy", "normal", "hard", "expert", "random", "basic", "strong")


def ai_levels() -> tuple[str, ...]:
    """The levels to offer: the new names when the AI has them, else the old ones."""
    from ..ai import POLICIES

    new = tuple(level for level in AI_LEVELS[:4] if level in POLICIES)
    return new or tuple(level for level in AI_LEVELS[4:] if level in POLICIES)


@dataclass(frozen=True)
class Action:
    """One thing a person may do now, labelled in their language."""

    id: str
    kind: str
    group: str
    label: str
    command: c.Command
    #: The short code a player may type or read: the card's code, `d`, `uno`.
    code: str = ""
    #: A second line: why or how (`Play this card`, `They did not say UNO`).
    hint: str = ""
    emoji: str = ""
    card: Card | None = None
    color: str | None = None
    #: The seat it aims at (a catch, a Seven-O swap), if any.
    target: int | None = None
    uno: bool = False
    #: Counted once for identical cards in the hand.
    count: int = 1
    #: The card is among those drawn last (the hand says it again).
    new: bool = False
    #: What a grouped action still needs picked ("color", "target"), and the picks.
    needs: tuple[str, ...] = ()
    choices: tuple[Action, ...] = ()
    #: What a pick posts where everyone reads (the table's language); "" for `label`.
    public: str = ""
    #: Playing it ends the round (a last card): a colour or target it takes no longer matters.
    finishing: bool = False
    #: A question to ask before it is pressed ("Stop the game for everyone?"); "" for none.
    confirm: str = ""

    @property
    def tone(self) -> str:
        """How much it stands out (`TONES`)."""
        return TONES.get(self.kind, QUIET)

    @property
    def text(self) -> str:
        """Label and hint on one line (a console list, a plain-text front-end)."""
        return f"{self.label} · {self.hint}" if self.hint else self.label

    def choice_label(self, choice: Action) -> str:
        """A choice's label without this action's in front (`Wild → Red` under
        `Wild`: `Red`), for a picker that already shows the action's label."""
        label = choice.label
        head = self.label.removesuffix(UNO_MARK) if self.uno else self.label  # the choice says UNO last
        if label.startswith(head) and label != head:
            label = label[len(head):].strip().removeprefix("→").strip()
        return label


@dataclass
class Menu:
    """Everything one person may do at one table version, in display order."""

    version: int
    seat: int | None
    actions: list[Action] = field(default_factory=list)
    #: The person's hand (None: not seated, or no game), for showing cards that are not playable.
    hand: HandView | None = None
    #: Stop the game, for its creator or a chat admin (as the service's stop judges):
    #: kept out of `actions`, since the chats offer it as their command (/stop) and not
    #: beside the cards, while a front-end without commands (the web table) shows it
    #: apart, asking `confirm` first: it ends the game for everyone.
    stop: Action | None = None
    #: Leave a game under way (`/leave`), for a seated player: apart, as `stop` (the
    #: lobby's Leave is among `actions`: nothing is lost there).
    leave: Action | None = None

    def find(self, action_id: str) -> Action | None:
        return next((a for a in self.actions if a.id == action_id), None)

    def lookup(self, action_id: str) -> Action | None:
        """The action `action_id`, grouped (a card that still needs its colour,
        with its choices) or complete: what a press on a front-end that shows
        grouped actions and their pickers may name."""
        return next((a for a in self.grouped() if a.id == action_id), None) or self.find(action_id)

    def find_digest(self, code: str) -> Action | None:
        """The plugin move whose text has this digest, whatever its own id: a
        front-end with less room than `MAX_PLAIN` (Telegram's 64-byte result
        ids hold a chat and a version too) may send any plugin move by digest."""
        return next((a for a in self.actions if a.id == code or (
            isinstance(a.command, c.PluginMove) and move_digest(a.command) == code)), None)

    def of(self, *groups: str) -> list[Action]:
        return [a for a in self.actions if a.group in groups]

    def grouped(self, *groups: str) -> list[Action]:
        return grouped(self.of(*groups) if groups else self.actions)

    @property
    def playing(self) -> bool:
        """Any game action at all (a front-end that pauses for a person asks this)."""
        return any(a.group in (TURN, CARD, OUT_OF_TURN) for a in self.actions)


# -- the id codec ------------------------------------------------------------------------

def digest(text: str) -> str:
    """"M" and 16 characters of SHA-256: a plugin move whose text is too long for an id."""
    return "M" + base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()[:12]).decode()


def move_digest(cmd: c.PluginMove) -> str:
    """The digest id of a plugin move: its text, and its UNO (the move with
    UNO and without are two actions, so two digests)."""
    return digest(cmd.text + ("\n!" if cmd.uno else ""))


def encode(cmd: c.Command) -> str:
    """The id of a command (the inverse of `decode`, version aside)."""
    if isinstance(cmd, c.Play):
        code = "p" + cmd.card
        if cmd.color:
            code += "." + _letter(cmd.color)
        if cmd.target:
            code += "@" + cmd.target
        return code + ("!" if cmd.uno else "")
    if isinstance(cmd, c.Draw):
        return "d+" if cmd.then_play else "d"
    if isinstance(cmd, c.Catch):
        return "k" + (cmd.target or "")
    if isinstance(cmd, c.NameColor):
        return "h" + _letter(cmd.color)
    if isinstance(cmd, c.PluginMove):
        plain = "m" + cmd.text.replace(" ", "~") + ("!" if cmd.uno else "")
        return plain if len(plain.encode()) <= MAX_PLAIN and plain.isascii() else move_digest(cmd)
    if isinstance(cmd, c.AddAI):
        return "a" + cmd.level
    if isinstance(cmd, c.Kick):
        return "x" + cmd.target
    if isinstance(cmd, c.Again) and cmd.match:
        return "r" + cmd.match
    for cls, code in _SIMPLE.items():
        if type(cmd) is cls:
            return code
    raise ValueError(f"no action id for {cmd!r}")


_SIMPLE: dict[type[c.Command], str] = {
    c.Pass: "s", c.SayUno: "u", c.Challenge: "c", c.Join: "j", c.Leave: "l", c.Start: "g",
    c.NextRound: "n", c.Skip: "t", c.Stop: "q", c.Again: "r",
}
_BY_CODE = {code: cls for cls, code in _SIMPLE.items()}
#: The ids of the lobby's and between rounds' commands, which `decode` sends without a version.
_UNVERSIONED = frozenset(_SIMPLE[cls] for cls in (c.Join, c.Leave, c.Start, c.NextRound, c.Stop, c.Again))


def _letter(color: str) -> str:
    """A colour as its letter (`R`), whatever form the command holds (`red`, `R`)."""
    from .render import color_from_text

    return color_from_text(color) or color


def decode(action_id: str, version: int | None = None, table: Table | None = None,
           person_id: str | None = None) -> c.Command | None:
    """The command an id asks for, on `version`; None for anything malformed.

    A digest id (`M...`) is found again among what `person_id` may do now at
    `table` (any plugin move by the digest of its text, see `Menu.find_digest`); without them, or when the hand moved on, it is None (stale).

    The lobby's and between rounds' commands (join, leave, start, add or remove an AI,
    next round) carry no version whatever the press saw: any member presses
    them any time and the service judges by the phase, so two members who
    press Join at once both join, on every front-end. A stop carries none
    either: it ends the chat's game whatever move it is at, and the service
    lets only the creator or an admin."""
    if not action_id or len(action_id) > 100 or not action_id.isascii():
        return None
    kind, rest = action_id[0], action_id[1:]
    if kind in ("a", "x") or action_id in _UNVERSIONED:
        version = None
    if kind == "p" and rest:
        uno = rest.endswith("!")
        rest = rest[:-1] if uno else rest
        target = color = None
        if "@" in rest:
            rest, target = rest.split("@", 1)
        if "." in rest:
            rest, color = rest.split(".", 1)
        if not rest or (color is not None and color not in COLOR_NAMES):
            return None
        return c.Play(card=rest, color=COLOR_NAMES[color] if color else None, target=target or None,
                      uno=uno, version=version)
    if kind == "k":
        return c.Catch(target=rest or None, version=version)
    if kind == "h":
        return c.NameColor(color=COLOR_NAMES[rest], version=version) if rest in COLOR_NAMES else None
    if kind == "m" and rest.rstrip("!"):
        uno = rest.endswith("!")
        return c.PluginMove(text=rest.removesuffix("!").replace("~", " ") if uno else rest.replace("~", " "),
                            uno=uno, version=version)
    if kind == "M":
        if table is None or person_id is None:
            return None
        found = menu(table, person_id).find_digest(action_id)
        return replace(found.command, version=version) if found is not None else None
    if kind == "a" and rest:
        return c.AddAI(level=rest, version=version) if rest.isalpha() and len(rest) <= 16 else None
    if kind == "r" and rest:  # "Play again" of the match `rest` names (`Table.match`)
        return c.Again(match=rest) if is_match_ref(rest) else None
    if kind == "x":  # a seat's id (`ai:2`); none: the picker of the seats, which names one
        return c.Kick(target=rest, version=version) if rest else None
    if action_id == "d+":
        return c.Draw(then_play=True, version=version)
    if action_id == "d":
        return c.Draw(version=version)
    cls = _BY_CODE.get(action_id)
    return cls(version=version) if cls is not None else None


# -- building the menu -------------------------------------------------------------------

def menu(table: Table, person_id: str, lang: str | None = None, *, now: float | None = None,
         is_admin: bool = False) -> Menu:
    """What `person_id` may do now at `table`, labelled in `lang` (the table's by default).

    `now` (the service's clock) lets a "skip, time is up" action appear once
    a turn timer has run out; without it that action is never offered."""
    lang = lang or table.lang
    seat = table.seat_of(person_id)
    out = Menu(table.version, seat)
    b = _Builder(table, lang, out)
    if table.phase != FINISHED and table.seats and (person_id == table.creator or is_admin):
        out.stop = Action(encode(c.Stop()), STOP, MANAGE, "⏹ " + b._("Stop the game"), c.Stop(),
                          confirm=b._("Stop the game for everyone?"))
    gone = seat is not None and table.has_left(seat)
    if table.phase in (PLAYING, BETWEEN_ROUNDS) and seat is not None and not gone:
        out.leave = Action(encode(c.Leave()), LEAVE, MANAGE, "🚪 " + b._("Leave the game"), c.Leave(),
                           confirm=b._("Leave this game for good? Your cards go back to the pile."))
    if table.phase == LOBBY:
        b.lobby(person_id, seat, is_admin)
        return out
    if table.phase == BETWEEN_ROUNDS:
        if seat is not None or is_admin:
            b.add(NEXT_ROUND, ROUND, "⏭ " + b._("Next round"), c.NextRound())
        return out
    if table.phase == FINISHED:  # the match is over: the same table again, its players seated
        if seat is not None or is_admin or person_id == table.creator:
            out.actions.append(again_action(lang, table.version, table.match))
        return out
    if table.phase != PLAYING or table.game is None:
        return out
    hv = hand_view(table, person_id) if seat is not None and not gone else None
    out.hand = hv
    if hv is not None:
        b.game(hv)
    if now is not None and (seat is not None or is_admin) and _time_up(table, now):
        b.add(SKIP, TURN, "⏱ " + b._("Skip the player whose time is up"), c.Skip())
    return out


def again_action(lang: str | None, version: int | None = None, match: str = "") -> Action:
    """"Play again" (`c.Again`): offered after a match (`menu`), and by a front-end whose
    table has no game at all and no command to type (a browser table after a stop).
    `match`: the match it plays again (`Table.match`), named in its id (``r<match>``,
    a few hex digits: within Telegram's 64 bytes and Discord's 100 by construction), so
    a press on an old match's message is about that match, not the chat's latest."""
    cmd = c.Again(version=version, match=match if is_match_ref(match) else "")
    return Action(encode(cmd), AGAIN, ROUND, "🔁 " + gettext_for(lang)(AGAIN_LABEL), cmd)


#: The longest match reference an id carries (`Table.match` is 8 hex digits).
MAX_MATCH_REF = 16


def is_match_ref(text: str) -> bool:
    """A match reference as `Table.match` makes them: lowercase hex digits, short."""
    return 0 < len(text) <= MAX_MATCH_REF and all(ch in "0123456789abcdef" for ch in text)


def public_actions(table: Table, lang: str | None = None) -> list[Action]:
    """What a message everyone sees may offer (a lobby's, between rounds):
    the lobby and round actions of every menu at the table, for a member not
    seated (who may be an admin) and for each person seated, once each, in
    order. The service still judges who presses; in a round there are none
    (each player's own menu holds their moves). After a match: "Play again"
    (the chat's status message offers its players the same table again, as
    the console asks "Play again?" and the web page shows its button)."""
    if table.phase == FINISHED:
        return [again_action(lang, table.version, table.match)] if table.seats else []
    if table.phase not in (LOBBY, BETWEEN_ROUNDS):
        return []
    seen: dict[str, Action] = {}
    for person in ["", *(s.id for s in table.seats if not s.is_ai)]:
        for action in menu(table, person, lang, is_admin=person == "").grouped(LOBBY_GROUP, ROUND):
            seen.setdefault(action.id, action)
    return list(seen.values())


def actions(table: Table, person_id: str, lang: str | None = None, *, now: float | None = None,
            is_admin: bool = False) -> list[Action]:
    """The flat list of `menu` (each action complete, in display order)."""
    return menu(table, person_id, lang, now=now, is_admin=is_admin).actions


def grouped(items: Iterable[Action]) -> list[Action]:
    """Plays of the same card (and the same UNO flag) folded into one action
    that `needs` its colour or target, with the complete plays as `choices`;
    everything else as it is. Order is kept (first appearance)."""
    out: list[Action] = []
    index: dict[tuple[str, bool, str], int] = {}
    for a in items:
        if a.kind != PLAY or a.card is None or (a.color is None and a.target is None):
            out.append(a)
            continue
        key = (a.card.text, a.uno, a.group)
        if a.finishing and key not in index:  # the last card: the round ends whichever way, no choice to ask
            index[key] = len(out)
            out.append(replace(a, choices=(a,)))
            continue
        if key not in index:
            index[key] = len(out)
            needs = ("color",) if a.color else ("target",)
            head = a.label.split(" → ")[0].split(" ⇄ ")[0]
            if a.uno and not head.endswith(UNO_MARK):  # the colour or target took the UNO with it
                head += UNO_MARK
            out.append(replace(a, id=encode(c.Play(card=a.card.text, uno=a.uno)), label=head,
                               command=c.Play(card=a.card.text, uno=a.uno, version=a.command.version),
                               color=None, target=None, needs=needs, choices=(a,)))
        else:
            parent = out[index[key]]
            if not parent.finishing:
                out[index[key]] = replace(parent, choices=(*parent.choices, a))
    return out


def _ends_round(table: Table, m: Move) -> bool:
    """Whether move `m` ends the round (asked of the engine on a copy; only for
    a last card, and not when the others play on for places)."""
    from ..errors import MoveError
    from ..state import PLAYING as GAME_PLAYING

    if table.game is None:
        return False
    try:
        after, _events = engine.apply(table.game, m)
    except MoveError:
        return False
    return after.phase != GAME_PLAYING


def _time_up(table: Table, now: float) -> bool:
    from .views import rule_facts

    seconds = rule_facts(table)[0]
    game = table.game
    if not seconds or game is None or not (0 <= game.turn < len(table.seats)):
        return False
    return now - table.turn_started >= seconds - 0.5


class _Builder:
    """Fills a menu in the order every front-end shows it."""

    def __init__(self, table: Table, lang: str, out: Menu) -> None:
        self.table = table
        self.lang = lang
        self.out = out
        self._ = gettext_for(lang)
        self._public = gettext_for(table.lang)

    def add(self, kind: str, group: str, label: str, cmd: c.Command, **fields: object) -> Action:
        action = Action(encode(cmd), kind, group, label, replace(cmd, version=self.table.version),
                        **fields)  # type: ignore[arg-type]
        self.out.actions.append(action)
        return action

    # -- lobby -----------------------------------------------------------------------
    def lobby(self, person_id: str, seat: int | None, is_admin: bool) -> None:
        _ = self._
        t = self.table
        if seat is None and len(t.seats) < MAX_PLAYERS:
            self.add(JOIN, LOBBY_GROUP, "✋ " + _("Join"), c.Join())
        creator_here = t.seat_of(t.creator) is not None
        # Who may start and add AI seats: as core/chat/lobby.py decides (asked, not copied, by the tests).
        if person_id == t.creator or is_admin or (seat is not None and not creator_here):
            self.add(START, LOBBY_GROUP, "▶️ " + _("Start"), c.Start())
        if (person_id == t.creator or is_admin or seat is not None) and len(t.seats) < MAX_PLAYERS:
            levels = tuple(self.add_ai(level) for level in ai_levels())
            default = c.AddAI()
            self.out.actions.append(Action(encode(default), ADD_AI, LOBBY_GROUP, "🤖 " + _("Add an AI player"),
                                           replace(default, version=t.version), code=default.level,
                                           needs=("level",), choices=levels))
        ais = [s for s in t.seats if s.is_ai]
        if ais and (person_id == t.creator or is_admin):  # who may: as play.py's Kick decides
            seats = tuple(Action(encode(c.Kick(target=s.id)), REMOVE_AI, LOBBY_GROUP, "✖ " + s.name,
                                 c.Kick(target=s.id, version=t.version), code=s.id) for s in ais)
            remove = c.Kick()
            self.out.actions.append(Action(encode(remove), REMOVE_AI, LOBBY_GROUP, "✖ " + _("Remove an AI player"),
                                           replace(remove, version=t.version), needs=("target",), choices=seats))
        if seat is not None:
            self.add(LEAVE, LOBBY_GROUP, "🚪 " + _("Leave"), c.Leave())

    def add_ai(self, level: str) -> Action:
        cmd = c.AddAI(level=level)
        name = LEVEL_NAMES.get(level)
        label = "🤖 " + (self._(name) if name else level)
        return Action(encode(cmd), ADD_AI, LOBBY_GROUP, label, replace(cmd, version=self.table.version), code=level)

    # -- a running game --------------------------------------------------------------
    def game(self, hv: HandView) -> None:
        _ = self._
        t = self.table
        game = t.game
        assert game is not None
        for m in hv.colors:  # a Wild starter: its colour before anything else
            self.move(m, COLOR, TURN, _("Name the colour of the starting wild card"))
        group = TURN if hv.is_turn else OUT_OF_TURN
        for m in hv.extras:  # plugins' own kinds, in or out of turn
            self.move(m, m.kind, group, plugin_move_hint(m.kind, self.lang))
            if m in hv.uno_extras:  # down to one card: UNO with it, as one action
                self.move(m, m.kind, group, _("Say UNO and play these cards"), uno=True)
        # At two cards, each card that may be played now is also offered "with UNO" (one
        # action): on turn, and out of turn a jump-in down to one card (under strict UNO
        # the only way to say it in time is just before the jump).
        if hv.uno is not None and len(game.hands[hv.seat]) == 2:
            self.plays(hv, uno=True)
        if hv.uno is not None and not hv.pending:
            self.move(hv.uno, UNO, group, _("(say it before someone catches you)") if hv.exposed else "")
        self.plays(hv, uno=False)
        if hv.challenge is not None:
            self.move(hv.challenge, CHALLENGE, TURN, _("Say it was a bluff"))
        for m in hv.catches:
            self.move(m, CATCH, OUT_OF_TURN, _("They did not say UNO"))
        if hv.draw is not None and not hv.pending:
            self.add(DRAW_PLAY, TURN, "📥 " + _(DRAW_AND_PLAY), c.Draw(then_play=True), code="dp",
                     hint=_("If it does not fit, you draw again") if hv.draw_goes_on else
                     _("If it does not fit, your turn ends"), emoji="📥",
                     public="📥 " + self._public(DRAW_AND_PLAY))
        if hv.draw is not None:
            self.move(hv.draw, DRAW, TURN, _("You choose after seeing the card") if not hv.pending else "")
        if hv.pass_ is not None:
            self.move(hv.pass_, PASS, TURN, _("End your turn"))

    def plays(self, hv: HandView, uno: bool) -> None:
        _ = self._
        last = sum(hc.count for hc in hv.cards) == 1
        for hc in hv.cards:
            if not hc.playable:
                continue
            for m in hc.moves:
                jump = not hv.is_turn
                if uno:
                    hint = _("Say UNO and play this card")
                elif jump:
                    hint = _("Jump in with this card!")
                elif self.table.game is not None and self.table.game.drawn == hc.card:
                    hint = _("The card you just drew")
                else:
                    hint = _("Play this card")
                if hc.count > 1:
                    hint += f" (×{hc.count})"
                self.move(m, PLAY, OUT_OF_TURN if jump else CARD, hint, uno=uno, hc=hc,
                          finishing=last and _ends_round(self.table, m))

    def move(self, m: Move, kind: str, group: str, hint: str, *, uno: bool = False,
             hc: HandCard | None = None, finishing: bool = False) -> Action:
        label = move_label(self.table, m, self.lang)
        public = move_label(self.table, m, self.table.lang)
        if uno:
            label, public = label + UNO_MARK, public + UNO_MARK
        cmd = command_of(self.table, m, uno=uno)
        card = m.card if m.kind == PLAY else None
        return self.add(kind, group, label, cmd, code=_code(m), hint=hint, emoji=_emoji(m), card=card,
                        color=m.color, target=m.target, uno=uno, count=hc.count if hc else 1,
                        new=bool(hc and hc.new), public=public if public != label else "",
                        finishing=finishing)




def command_of(table: Table, m: Move, *, uno: bool = False) -> c.Command:
    """The neutral command that makes move `m` (a person's seat is the sender)."""
    def pid(seat: int | None) -> str | None:
        return table.seats[seat].id if seat is not None and 0 <= seat < len(table.seats) else None

    if m.kind == PLAY and m.card is not None:
        return c.Play(card=m.card.text, color=COLOR_NAMES.get(m.color or "") if m.color else None,
                      target=pid(m.target), uno=uno)
    if m.kind == CATCH:
        return c.Catch(target=pid(m.target))
    if m.kind == COLOR and m.color:
        return c.NameColor(color=COLOR_NAMES[m.color])
    if m.kind not in KINDS:
        return c.PluginMove(text=m.text, uno=uno)
    simple: dict[str, type[c.Command]] = {DRAW: c.Draw, PASS: c.Pass, UNO: c.SayUno, CHALLENGE: c.Challenge}
    return simple[m.kind]()


def _code(m: Move) -> str:
    if m.kind == PLAY and m.card is not None:
        return m.card.text
    if m.kind not in KINDS:
        return m.kind
    return {DRAW: "d", PASS: "pass", UNO: "uno", CHALLENGE: "challenge", CATCH: "catch", COLOR: "color"}.get(
        m.kind, m.kind)


def _emoji(m: Move) -> str:
    if m.kind == PLAY and m.card is not None:
        return COLOR_EMOJI.get(m.card.color, "⬛")
    if m.kind == COLOR and m.color:
        return COLOR_EMOJI[m.color]
    return _symbol(m.kind)


def _symbol(kind: str) -> str:
    """The mark a move's label starts with: core's own for drawing and passing, which no
    rule carries out; for every other kind (UNO, catch, challenge, a plugin's) the one the
    rule that carries it out declared (`Rule.move_symbols`), else ✨: one way for all."""
    from ..registry import move_symbol  # (as render's lookups: loads the rules on first use)

    core = {DRAW: "📥", PASS: "⏭"}.get(kind)
    return core if core is not None else move_symbol(kind)


def move_label(table: Table, move: Move, lang: str) -> str:
    """How a move reads in a list and in the group: `⬛ W+4 · Wild Draw Four → 🟩 green`."""
    _ = gettext_for(lang)

    def name(seat: int | None) -> str:
        return table.seats[seat].name if seat is not None and 0 <= seat < len(table.seats) else "?"

    if move.kind == PLAY and move.card is not None:
        text = f"{COLOR_EMOJI.get(move.card.color, '⬛')} {card_label(move.card, lang)}"
        if move.color:
            text += f" → {COLOR_EMOJI[move.color]} {color_name(move.color, lang)}"
        if move.target is not None:
            text += " ⇄ " + name(move.target)
        return text
    if move.kind == COLOR and move.color:
        return f"{COLOR_EMOJI[move.color]} " + _("Starting colour: {color}").format(color=color_name(move.color, lang))
    if move.kind not in KINDS:
        # Each card label has its own " · " (`G5 · Green 5`): the cards are set apart by
        # commas and the target by an arrow, or "G5 · Green 5 G6 · Green 6 Bea" reads as one run.
        cards = joined((card_label(x, lang) for x in (move.card, *move.cards) if x), lang)
        text = _symbol(move.kind) + " " + " ".join(part for part in (plugin_move_title(move.kind, lang), cards) if part)
        if move.color:  # one action per colour, told apart as a wild's are
            text += f" → {COLOR_EMOJI[move.color]} {color_name(move.color, lang)}"
        return text + (" → " + name(move.target) if move.target is not None else "")
    if move.kind == DRAW:
        pending = table.game.pending if table.game is not None else 0
        if pending:
            ngettext = ngettext_for(lang)
            return _symbol(DRAW) + " " + ngettext("Take {n} card", "Take {n} cards", pending).format(n=pending)
        return _symbol(DRAW) + " " + _("Draw a card")
    if move.kind == PASS:
        return _symbol(PASS) + " " + _("Pass")
    if move.kind == UNO:
        return _symbol(UNO) + " UNO!"
    if move.kind == CHALLENGE:
        return _symbol(CHALLENGE) + " " + _("Challenge the Wild Draw Four")
    if move.kind == CATCH:
        return _symbol(CATCH) + " " + _("Catch {player}: no UNO!").format(player=name(move.target))
    return move.text


def unplayable(hv: HandView | None) -> Sequence[HandCard]:
    """The cards of a hand that cannot be played now (a front-end shows them greyed)."""
    return [hc for hc in hv.cards if not hc.playable] if hv is not None else []


def card_title(card: Card, lang: str) -> str:
    """A card as a list shows it: its colour's mark, code and name."""
    return f"{COLOR_EMOJI.get(card.color, '⬛')} {card_label(card, lang)}"


def card_only(card: Card, lang: str) -> str:
    """A card by its name alone, with its colour's mark (a compact list)."""
    return f"{COLOR_EMOJI.get(card.color, '⬛')} {card_name(card, lang)}"
