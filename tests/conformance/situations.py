"""The situations every front-end is driven through, and what they must agree on.

Why a shared list: each front-end (console, Telegram, Discord) used to work
out for itself what to offer and what a pick becomes, and they drifted. Now
core's table model (`unobot.chat.actions.menu`) says what a person may do;
a situation lays out one table card by card (the same deal in every
front-end), names who acts and which of the model's actions they take, and
each front-end's test checks two things against the model:

- the offer: what the front-end shows that person is the model's menu
  (ids or labels, in the front-end's own terms);
- the result: the game stored after the pick is the game the model's
  command gives on the same table (`reference`), compared seat by seat, so
  two front-ends with different user ids reach the same state.

`TIMED` situations are picked by nobody: the turn timer runs out and the
front-end's own wake must time the turn out as the model does
(`timed_out`). `MANAGED` ones are a leave and a stop, through the chat
front-ends (the console's game is one person's).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from unobot.cards import parse_card
from unobot.chat import actions, play
from unobot.chat import commands as c
from unobot.chat.outcome import Outcome
from unobot.chat.table import LOBBY, PLAYING, Table
from unobot.engine import apply, rules_of, setup_round
from unobot.moves import play_move

#: Picks one action of a menu (None: the situation is not what it should be).
Pick = Callable[[actions.Menu], actions.Action | None]


def kind(name: str, *, color: str | None = None, card: str | None = None, target: int | None = None,
         longest: bool = False, uno: bool = False) -> Pick:
    """The action of kind `name` (a card's play, a colour, a plugin's kind ...)."""
    def pick(menu: actions.Menu) -> actions.Action | None:
        found = [a for a in menu.actions if a.kind == name and (color is None or a.color == color)
                 and (card is None or (a.card is not None and a.card.text == card))
                 and (target is None or a.target == target) and a.uno == uno]
        if longest:
            found.sort(key=lambda a: -len(a.id))
        return found[0] if found else None
    return pick


@dataclass(frozen=True)
class Situation:
    """One table laid out, the person who acts and what they pick."""

    name: str
    hands: tuple[str, ...]
    top: str
    pick: Pick
    actor: int = 0
    turn: int = 0
    variant: str = "official"
    rules: dict[str, Any] = field(default_factory=dict)
    color: str | None = None
    #: The next cards off the draw pile, first drawn first.
    draw: str = "R1 R2 R3 R4 R5 R6 R7 R8 R9 G1 G2 G3 G4 G5 G6 G7 G8 G9"
    #: Cards played before the person looks, as (seat, card, colour): a Wild Draw
    #: Four to challenge, a play down to one card without UNO.
    before: tuple[tuple[int, str, str | None], ...] = ()
    #: The top card is a Wild starter still waiting for its colour.
    wild_starter: bool = False
    #: Seconds left on the round's clock (blitz) once laid: the deal's clock set
    #: back so that it rings that soon, on the front-end's own clock (injected
    #: or the wall's), without a test waiting out a whole minute.
    clock_left: float | None = None

    def __str__(self) -> str:
        return self.name


def cards(text: str) -> list[Any]:
    return [parse_card(t) for t in text.split()]


def lay(table: Table, s: Situation) -> None:
    """Lay `s` out on a started table (its seats as the front-end made them)."""
    assert table.phase == PLAYING and len(table.seats) == len(s.hands), (table.phase, len(table.seats))
    for rule, options in s.rules.items():  # the front-end set the situation's rules, options included
        assert (table.overrides or {}).get(rule) == options, (rule, table.overrides)
    game = setup_round(s.variant, [seat.id for seat in table.seats], [cards(h) for h in s.hands],
                       cards(s.top), cards(s.draw), turn=s.turn, color=s.color,
                       seed=table.seed, overrides=table.overrides or None)
    if s.wild_starter:
        game.color = None
    for seat, card, color in s.before:
        game, _events = apply(game, play_move(seat, parse_card(card), color))
    table.game = game
    table.drawn_last = {}
    if s.clock_left is not None:
        seconds = (game.rules or rules_of(game)).round_seconds(game)
        assert seconds and table.round_started, "a clocked situation needs a rule's round clock, started"
        table.round_started -= seconds - s.clock_left


def reference(table: Table, person: c.Person, command: c.Command, now: float) -> Table:
    """The table after `command`, as the model says (the chat service's own step, on a copy)."""
    after = Table.decode(table.encode(), table.store_version)
    out = Outcome(table=after)
    entries = play.step(after, person, copy.copy(command), out, now)
    assert entries is not None, f"the model's own command changed nothing: {command}"
    return after


def game_of(table: Table) -> dict[str, Any]:
    """The game's state, seat by seat (the people's ids left out: each front-end has its own)."""
    assert table.game is not None
    d = table.game.to_dict()
    d.pop("p", None)
    return {"phase": table.phase, **d}


def rotated(s: Situation) -> Situation:
    """The same situation with the person who acts at seat 0 (the console's
    person always sits there): every seat moves round, the order of play kept."""
    n = len(s.hands)
    if not s.actor:
        return s
    return replace(s, hands=tuple(s.hands[(i + s.actor) % n] for i in range(n)), actor=0,
                   turn=(s.turn - s.actor) % n,
                   before=tuple(((seat - s.actor) % n, card, color) for seat, card, color in s.before))


SITUATIONS: list[Situation] = [
    Situation("wild-starter-colour", ("R1 G2 B3", "Y4 R5 G6", "B7 Y8 R9"), "W", kind("color", color="G"),
              wild_starter=True),
    Situation("plugin-move-out-of-turn", ("R1 G2 B3", "Y4 R5 G6", "B7 Y8 R9"), "R4", kind("cheer"),
              actor=1, rules={"cheer": {}}),
    Situation("plugin-move-in-turn", ("R1 G2 B3", "Y4 R5 G6", "B7 Y8 R9"), "R4", kind("knock"),
              rules={"knock": {}}),
    # A plugin move aimed at another player that puts no card down (the example
    # plugin's nudge): offered by the player's name, carried out as the model says.
    Situation("plugin-move-aimed-cardless", ("R1 G2 B3", "Y4 R5 G6", "B7 Y8 R9"), "R4", kind("nudge", target=2),
              rules={"nudge": {}}),
    Situation("plugin-move-aimed-cardless-by-another-seat", ("R1 G2 B3", "Y4 R5 G6", "B7 Y8 R9"), "R4",
              kind("nudge"), actor=1, turn=1, rules={"nudge": {}}),
    Situation("plugin-card", ("RSE G2 B3", "Y4 R5 G6", "B7 Y8 R9"), "R4", kind("play", card="RSE"),
              rules={"skip-everyone": {}}),
    Situation("multi-play", ("R5 G5 B5 Y5 B3", "Y4 R6 G6", "B7 Y8 R9"), "R9", kind("multi", longest=True),
              rules={"multi-play": {}}),
    Situation("seven-o-target", ("R7 G2 B3", "Y4 R5 G6", "B7 Y8 R9 Y1"), "R4", kind("play", card="R7", target=2),
              rules={"seven-o": {}}),
    Situation("jump-in", ("R1 G2 B3", "R4 R5 G6", "B7 Y8 R9"), "R4", kind("play", card="R4"),
              actor=1, rules={"jump-in": {}}),
    Situation("challenge", ("W+4 G2 B3", "Y4 R5 G6", "B7 Y8 R9"), "R4", kind("challenge"), actor=1,
              before=((0, "W+4", "G"),)),
    Situation("catch", ("R5 G2", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("catch"), actor=1,
              before=((0, "R5", None),)),
    Situation("uno-with-a-play", ("R5 G2", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("play", card="R5", uno=True)),
    Situation("draw-and-play", ("G2 B3", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("draw_play"), draw="R8 G1 G2"),
    Situation("stacking-answer", ("R+2 G1 B3", "G+2 R6 G6", "B7 Y8 R9"), "R4", kind("play", card="G+2"),
              actor=1, turn=0, rules={"stacking": {}}, before=((0, "R+2", None),)),
    Situation("take-the-pending-draw", ("R+2 G1 B3", "G+2 R6 G6", "B7 Y8 R9"), "R4", kind("draw"),
              actor=1, turn=0, rules={"stacking": {}}, before=((0, "R+2", None),)),
    Situation("last-card-a-wild", ("W", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("play", card="W")),
    # A multi-play from three cards to one carries UNO as a play from two does (one
    # action, never open to a catch): said right after it under the UNO call, said
    # just before it under strict UNO (which offers no lone UNO with three cards).
    Situation("multi-play-uno", ("R5 G5 B3", "Y4 R6 G6", "B7 Y8 R9"), "R9", kind("multi", uno=True),
              rules={"multi-play": {}}),
    Situation("strict-uno-multi-play", ("R5 G5 B3", "Y4 R6 G6", "B7 Y8 R9"), "R9", kind("multi", uno=True),
              rules={"multi-play": {}, "strict-uno": {}}),
    Situation("crazy-multi-play", ("R5 G5 B3", "Y4 R6 G6", "B7 Y8 R9"), "R9", kind("multi"), variant="crazy"),
    # A plugin move aimed at a player (two 7s at once, Seven-O's swap): offered and typed by the name.
    Situation("crazy-multi-seven-target", ("R7 G7 B3", "Y4 R6 G6", "B7 Y8 R9"), "R9", kind("multi", target=2),
              variant="crazy"),
    *[Situation(f"no-mercy-{card}", (f"{card} G2 B3", "Y4 R5 G6", "B7 Y8 R9"), "R4",
                kind("play", card=card, color="B" if card.startswith("W") else None),
                variant="no-mercy")
      for card in ("RSA", "RDA", "R+4", "WR+4", "WCR", "W+6", "W+10", "R+2", "RS", "RR", "R7", "R0")],
    # Each house rule's own moment (issue #21's "the same situations through every front-end"):
    # a pending total deflected back or passed on, stacked by value or +4 on +2, a draw
    # that goes on (draw-until-playable, draw-to-match) or must be played (force play),
    # an offer narrowed by a rule (must play: no draw; no bluffing: no W+4 held with the
    # colour; colour first: no number match held with the colour), UNO said with the
    # play (strict UNO), a draw at the hand limit, a draw into mercy, a 0 passing hands
    # on, a wild jumped in, a wild whose colour a rule decides.
    Situation("deflect-reverse", ("R+2 G1 B3", "RR R6 G6", "B7 Y8 R9"), "R4", kind("play", card="RR"),
              actor=1, rules={"deflect": {}}, before=((0, "R+2", None),)),
    Situation("deflect-skip", ("R+2 G1 B3", "RS R6 G6", "B7 Y8 R9"), "R4", kind("play", card="RS"),
              actor=1, rules={"deflect": {}}, before=((0, "R+2", None),)),
    Situation("value-stacking", ("R+2 G1 B3", "W+4 R6 G6", "B7 Y8 R9"), "R4", kind("play", card="W+4", color="B"),
              actor=1, rules={"value-stacking": {}}, before=((0, "R+2", None),)),
    Situation("stacking-four-on-two", ("R+2 G1 B3", "W+4 R6 G6", "B7 Y8 R9"), "R4",
              kind("play", card="W+4", color="B"), actor=1, rules={"stacking": {"draw_four_on_draw_two": True}},
              before=((0, "R+2", None),)),
    Situation("draw-until-playable", ("G2 B3", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("draw"), draw="G1 B1 R8 G2",
              rules={"draw-until-playable": {}}),
    Situation("draw-to-match", ("G2 B3", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("draw"), draw="G1 B1 R8 G2",
              rules={"draw-to-match": {}}),
    Situation("force-play", ("G2 B3", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("draw"), draw="R8 G1 G2",
              rules={"force-play": {}}),
    Situation("must-play", ("R2 B3 G5", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("play", card="R2"),
              rules={"must-play": {}}),
    Situation("no-bluffing", ("W+4 R2 B3", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("play", card="R2"),
              rules={"no-bluffing": {}, "challenge": False}),
    Situation("color-first", ("B4 R2 G3", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("play", card="R2"),
              rules={"color-first": {}}),
    Situation("strict-uno", ("R5 G2", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("play", card="R5", uno=True),
              rules={"strict-uno": {}}),
    Situation("hand-limit", ("G2 B3", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("draw"), rules={"hand-limit": {"limit": 2}}),
    Situation("mercy", ("G2 B3 B4", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("draw"), draw="B1 R8",
              rules={"mercy": {"limit": 4}}),
    Situation("seven-o-zero", ("R0 G2 B3", "Y4 R6 G6", "B7 Y8 R9 Y1"), "R4", kind("play", card="R0"),
              rules={"seven-o": {}}),
    # A wild whose colour a rule gives: nobody is asked a colour the rule ignores
    # (random-colour; auto-colour while one colour leads), and on auto-colour's tie
    # only the tied colours are offered.
    Situation("random-colour-wild", ("W B2 B3 G1", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("play", card="W"),
              rules={"random-colour": {}}),
    Situation("auto-colour-wild", ("W B2 B3 G1", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("play", card="W"),
              rules={"auto-colour": {}}),
    Situation("auto-colour-tie", ("W B2 G1 R5", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("play", card="W", color="G"),
              rules={"auto-colour": {}}),
    Situation("crazy-wild", ("W B2 B3 G1", "Y4 R6 G6", "B7 Y8 R9"), "R4", kind("play", card="W"), variant="crazy"),
    # Strict UNO with jump-in: down to one card by a jump-in, UNO is said with the jump
    # (one action, out of turn), as a play on turn says it; nobody may catch the jumper.
    Situation("strict-uno-jump-in-uno", ("R1 G2 B3", "Y4 R5 G6", "R4 Y8"), "R4", kind("play", card="R4", uno=True),
              actor=2, rules={"strict-uno": {}, "jump-in": {}}),
    Situation("jump-in-wild", ("R1 G2 B3", "W R5 G6", "B7 Y8 R9"), "W", kind("play", card="W", color="G"),
              actor=1, color="R", rules={"jump-in": {"wilds": True}}),
    # The 2018 deck's own cards: Shuffle Hands deals every hand out again, a
    # Customizable plays as a plain wild.
    *[Situation(f"official-2018-{card}", (f"{card} G2 B3", "Y4 R5 G6", "B7 Y8 R9"), "R4",
                kind("play", card=card, color="G"), variant="official-2018")
      for card in ("WSH", "WCU")],
]


# -- the match's end: playing again ------------------------------------------------------

#: The match's last card (one round is the match): the match is over, and every front-end
#: offers the model's way on, "Play again" (`public_actions` of the final table; the
#: console, one person's, asks "Play again?" in the same words), which seats everyone as
#: the match was, its variant (`replayed`).
MATCH_OVER = Situation("match-over-play-again", ("R5", "G1 G2", "B3 B4"), "R1", kind("play", card="R5"),
                       rules={"scoring": {"target": 0}})


def again_offer(final: Table, lang: str | None = None) -> list[str]:
    """What the model offers everyone after the match, by label."""
    return [a.label for a in actions.public_actions(final, lang or final.lang)]


def replayed(table: Table | None, final: Table, phase: str = LOBBY) -> None:
    """The table "Play again" made: the match's seats (people and AI levels) in their
    order, its variant, in `phase` (a chat's lobby; the console deals at once)."""
    assert table is not None and table.phase == phase, table
    assert table.seed != final.seed, "the same game, not a new one"
    assert table.variant == final.variant
    seats = [(s.id, s.level) for s in table.seats]
    assert seats == [(s.id, s.level) for s in final.seats], seats


# -- a turn timer that runs out ---------------------------------------------------------

#: Seconds of the timed situations' turn timer: short, as two front-ends (Discord, the
#: web table) and the console wait on the wall clock; long enough for a table to be laid.
TIMER_SECONDS = 2


def timed(name: str, hands: tuple[str, ...], top: str, rules: dict[str, Any] | None = None,
          **kw: Any) -> Situation:
    """A situation in which the person on turn does nothing and the turn
    timer runs out (RULES.md §6): the bot's own wake, not a pick of theirs."""
    return Situation(name, hands, top, kind("skip"),
                     rules={**(rules or {}), "turn-timer": {"seconds": TIMER_SECONDS, "kick_after": 0}}, **kw)


#: What the timer does, the same in every front-end: a Wild starter's colour named
#: (the colour held most), then one card drawn; a pending total taken; one card drawn.
TIMED: list[Situation] = [
    timed("timer-wild-starter", ("R1 G2 G3", "Y4 R5 G6", "B7 Y8 R9"), "W", wild_starter=True),
    timed("timer-pending-draw", ("R+2 G1 B3", "G+2 R6 G6", "B7 Y8 R9"), "R4", {"stacking": {}},
          before=((0, "R+2", None),), actor=1),  # the actor: whose turn runs out (the console's person's seat)
    timed("timer-draw-one", ("G2 B3", "Y4 R6 G6", "B7 Y8 R9"), "R4"),
    # A rule's round clock (blitz) rings: the front-end's own wake applies its
    # `time_up` (the fewest points in hand win the round), as the model does.
    Situation("round-clock-rings", ("R1 G2 B3", "Y4 R5 G6 G7", "B7 Y8 R9 B9"), "R4", kind("time_up"),
              rules={"blitz": {"minutes": 1}}, clock_left=TIMER_SECONDS),
]


# -- leaving and stopping ------------------------------------------------------------------

def leave(menu: actions.Menu) -> actions.Action | None:
    return menu.leave


def stop(menu: actions.Menu) -> actions.Action | None:
    return menu.stop


#: A player leaving for good (off their turn, and on it: the turn passes on) and the
#: creator stopping the game: the model's `Menu.leave` and `Menu.stop`, confirmed.
#: Not through the console: its game is one person's, whose `quit` keeps it saved
#: (`--resume`) and whose "no" to resuming it puts it away.
MANAGED: list[Situation] = [
    Situation("leave-off-turn", ("R1 G2 B3", "Y4 R5 G6", "B7 Y8 R9"), "R4", leave, actor=1),
    Situation("leave-on-turn", ("R1 G2 B3", "Y4 R5 G6", "B7 Y8 R9"), "R4", leave, actor=0),
    Situation("stop", ("R1 G2 B3", "Y4 R5 G6", "B7 Y8 R9"), "R4", stop, actor=0),
]


def managed_result(table: Table | None, s: Situation, before: Table, person: c.Person) -> None:
    """What a leave or a stop leaves behind, as the model says: the game without
    the leaver (its cards back in the pile), or no game at all."""
    if s.pick is stop:
        assert table is None or table.phase == "finished", table
        return
    assert table is not None and table.version == before.version + 1, "the leave was not taken"
    assert game_of(table) == game_of(reference(before, person, c.Leave(version=before.version), 0.0))


def timed_out(table: Table) -> Table:
    """The table once its turn timer (or its round clock) has run out, as the
    model says (the wake's own command, by the bot, any time after it)."""
    from unobot.chat.wake import SYSTEM

    game = table.game
    if game is not None and (game.rules or rules_of(game)).round_seconds(game):
        return reference(table, SYSTEM, c.Continue(version=table.version), table.round_started + 10 ** 6)
    return reference(table, SYSTEM, c.Skip(auto=True, version=table.version), table.turn_started + 10 ** 6)


def rule_commands(rules: dict[str, Any]) -> list[c.Command]:
    """What an admin sends to set a situation's rules: those it turns off (`False`,
    a shared rule another clashes with) first, then each on, then its options."""
    out: list[c.Command] = [c.SetRule(rule=rule, enabled=False) for rule, options in rules.items()
                            if options is False]
    for rule, options in rules.items():
        if options is False:
            continue
        out.append(c.SetRule(rule=rule, enabled=True))
        out += [c.SetRule(rule=rule, option=option, value=value) for option, value in options.items()]
    return out


# -- the chat's rules ------------------------------------------------------------------

def house_rules() -> list[str]:
    """Every house rule a chat may turn on (the shared rules are always on)."""
    from unobot.registry import available_rules

    return sorted(name for name, cls in available_rules().items() if not cls.base)


#: One option of each kind, set to a value that is not its default: (rule, option, value).
OPTIONS = (("stacking", "optional", False), ("hand-limit", "limit", 26), ("elimination", "by", "points"),
           ("sticky-seven", "cards", 3))  # the last a plugin's (tests/example_plugin); a number: one step


async def rules_after(commands: list[c.Command]) -> dict[str, Any]:
    """The chat's rules once an admin has sent `commands` (the model's own service)."""
    from unobot.chat.service import ChatService
    from unobot.store import MemoryStore

    service = ChatService(MemoryStore())
    admin = c.Person("admin", "Admin", None, True)
    for cmd in commands:
        await service.handle("chat", admin, cmd)
    rules = (await service.settings("chat")).get("rules") or {}
    assert isinstance(rules, dict)
    return rules
