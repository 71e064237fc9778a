"""The plain turn: the engine's fast path for the turn most turns are.

Why it exists: a turn asks a dozen hooks (which moves are legal, whether
drawing or passing is allowed, which extra moves exist, what happens before
and after the play), and in most turns every one of them gives the answer
the shared rules always give. Listing and applying those turns directly,
without the calls, makes the engine about twice as fast where it matters
(simulations, AI look-ahead, busy bots), and it is not a side door: it is
taken only when the rules in play have promised they would have had nothing
else to say.

A turn is *plain* when it is the turn of a player who holds a card or
more and may not be caught, a colour is in play (none is awaited), no
penalty is pending, no rule keeps data for the round (`state.ext` is
empty) and the player has either not drawn yet or drawn exactly one card
(`state.drawn`). In a plain turn the shared rules decide:

- the legal moves are the plays of the cards that fit (matching), then
  `draw` (before drawing: left out while a card may be played when
  must-play is on) or `pass` (after drawing one card), then `uno`
  when the player holds two cards and has not said it, then `catch` when
  another player may be caught (uno-call);
- a card leaves the hand for the discard pile and does what card-effects
  says: a wild takes the colour named, a Skip skips, a Reverse reverses (or
  skips, with two players, when the option says so), a draw card makes the
  next player take its cards and lose the turn unless `hold_penalty` (a
  hook, asked for wild draw cards: challenge holds a Wild Draw Four for a
  challenge, after its `before_play` noted whether it was a bluff) leaves
  it pending on them; the turn passes (`next_turn`); a player left with one
  card who has not said UNO may be caught, and any play, draw or pass
  closes an earlier catch window (uno-call);
- a card drawn (the draw pile not empty) joins the hand; the turn passes
  unless the rule set accepts a play of it (`can_play`);
- a pass passes the turn.

Out of turn, while no rule keeps data for the round, the only moves are
uno-call's: `uno` for a player holding two cards who has not said it (or
one card, open to a catch), `catch` for everyone else while someone may be
caught.

The last card, a draw card the pile cannot pay, `uno`, `catch`, every move
out of turn and every turn with a penalty pending go through the hooks.

The rule set takes this path only when every rule implementing one of
`PLAIN_HOOKS` declares `plain_turn = True` (the shared rules do): the
promise that, in a plain turn, its hooks answer and change nothing beyond
what the list above says, and matching, card-effects, draw-one and
turn-order (`PLAIN_RULES`) are on. Any other rule that implements one of
them, a house rule or a third-party one, turns the path off for its
variant, and every turn goes through the hooks.
`tests/test_plain_turn.py` plays random games of the rule sets that take
the path both ways, and requires identical moves, events and states.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import REVERSE, SKIP, Card
from .events import (
    CARD_PLAYED,
    CARDS_DRAWN,
    COLOR_CHOSEN,
    DIRECTION_REVERSED,
    PASSED,
    PENALTY_PENDING,
    PENALTY_TAKEN,
    TURN_SKIPPED,
    Event,
)
from .moves import DRAW, PASS, PLAY, Move
from .state import PLAYING, GameState


def _no_engine(state: GameState, player: int) -> bool:
    raise RuntimeError("the engine did not hand plain_turn its can_play")


#: The engine's `can_play` (the whole rule set's judgement of a drawn card),
#: handed over by core/engine.py when it is imported (`use_can_play`). Why not
#: an import: the engine imports this module for its fast path, and importing
#: the engine back from inside a step was a cycle (#21).
_can_play: Callable[[GameState, int], bool] = _no_engine


def use_can_play(can_play: Callable[[GameState, int], bool]) -> None:
    global _can_play
    _can_play = can_play

#: The hooks a plain turn would ask. A rule implementing any of them must
#: declare `plain_turn = True` for the rule set to take the fast path.
#: (`check_move` counts only for rules that check plays, draws or passes.)
PLAIN_HOOKS = (
    "can_jump_in", "card_targets", "check_move", "extra_moves",
    "before_play", "on_play", "on_wild", "hold_penalty", "after_move", "next_turn",
    "on_draw", "on_drawn_card", "cards_to_draw", "on_pass",
)

_PLAIN_CHECKED = (PLAY, DRAW, PASS)


#: The shared rules whose answers the plain turn gives: without one of them
#: (turned off, or replaced), a variant's turns go through the hooks.
PLAIN_RULES = ("matching", "card-effects", "draw-one", "turn-order")


def plain_rules(pm: Any) -> bool:
    """May a rule set with this plugin manager take the plain-turn path?"""
    for name in PLAIN_RULES:
        if not getattr(pm.get_plugin(name), "plain_turn", False):
            return False
    for name in PLAIN_HOOKS:
        for impl in getattr(pm.hook, name).get_hookimpls():
            rule = impl.plugin
            if name == "check_move":
                kinds = getattr(rule, "checks", None)
                if kinds is not None and not any(k in kinds for k in _PLAIN_CHECKED):
                    continue
            if impl.hookwrapper or impl.wrapper or not getattr(rule, "plain_turn", False):
                return False
    return True


class PlainMoves(list[Move]):
    """The legal moves of a plain turn (the type tells `apply` so)."""

    __slots__ = ()


def is_plain(state: GameState, player: int) -> bool:
    """Is it `player`'s plain turn? (The rule set's promise is checked apart.
    The engine inlines this test; `tests/test_plain_turn.py` holds the two
    together.)"""
    return (
        state.phase == PLAYING and player == state.turn and not state.pending
        and state.exposed != player and not state.ext and state.color is not None
        and len(state.hands[player]) > 0
        and (state.draws == 0 if state.drawn is None else state.draws == 1)
    )


def plain_step(s: GameState, move: Move, rules: Any) -> list[Event] | None:
    """Apply a move of a plain turn to `s`, as the shared rules would; None
    when this move needs the hooks (a wild draw card, the last card, a
    target, a pile too short, a `uno` or `catch` move): `s` is then
    unchanged.

    The number play is here, every other move a call away: kept short, the
    function's jumps stay short enough for CPython 3.11 to specialise the
    comparisons along them."""
    kind = move.kind
    player = move.player
    if kind == PLAY:
        card = move.card
        hand = s.hands[player]
        if card is not None and card.is_number and len(hand) > 2 and move.target is None and not move.cards:
            # The commonest move of all, short: a number card from a hand that
            # keeps two cards or more (no catch window opens), the turn passes.
            s.exposed = -1
            hand.remove(card)
            s.discard.append(card)
            s.color = card.color
            s.turn = rules.next_turn(s, player, 0) if s.out else (player + s.direction) % len(s.hands)
            s.drawn = None
            s.draws = 0
            try:
                return [_PLAYED[player][card]]
            except (IndexError, KeyError):
                return [_shared(_PLAYED, player, card, _event(Event, (CARD_PLAYED, player, card, 0, -1, None, ())))]
        return _plain_play(s, move, rules)
    if kind == DRAW:
        return _plain_draw(s, player, rules)
    if kind == PASS:
        s.exposed = -1
        s.turn = _next(s, player, rules)
        s.drawn = None
        s.draws = 0
        return [_event(Event, (PASSED, player, None, 0, -1, None, ()))]
    return None


def _plain_play(s: GameState, move: Move, rules: Any) -> list[Event] | None:
    """`plain_step` of any other play: an action card, a wild, a hand going
    down to one card."""
    card = move.card
    player = move.player
    hand = s.hands[player]
    if card is None or len(hand) < 2 or move.target is not None or move.cards:
        return None  # going out, a target, several cards: the hooks
    draw = card.draw
    if draw and len(s.draw_pile) < draw:
        return None  # a penalty the pile may not pay: the hooks (reshuffle)
    events: list[Event] = []
    wild = card.is_wild
    if draw and wild:
        rules.before_play(s, move, events)  # challenge: was it a bluff? (its own record)
    s.exposed = -1  # uno-call: a play by another player closes the catch window
    hand.remove(card)
    s.discard.append(card)
    if len(hand) == 1 and rules.plain_uno and not s.uno >> player & 1:
        s.exposed = player  # uno-call: down to one card without UNO, open to a catch
    try:
        events.append(_PLAYED[player][card])
    except (IndexError, KeyError):
        events.append(_shared(_PLAYED, player, card, _event(Event, (CARD_PLAYED, player, card, 0, -1, None, ()))))
    # card-effects, as its on_play and on_wild do
    if wild:
        color = s.color = move.color
        try:
            events.append(_CHOSEN[player][color])
        except (IndexError, KeyError):
            events.append(_shared(_CHOSEN, player, color, _event(Event, (COLOR_CHOSEN, player, None, 0, -1, color, ()))))
    else:
        s.color = card.color
    if draw:
        victim = _next(s, player, rules)
        if wild and rules.hold_penalty(s, victim, card):
            # held for an answer (a challenge): the victim's turn, with the total pending
            s.pending = draw
            s.pending_rank = card.rank
            events.append(_event(Event, (PENALTY_PENDING, victim, None, draw, -1, None, ())))
            s.turn = victim
            s.drawn = None
            s.draws = 0
            return events
        # taken at once, and the victim loses the turn
        pile = s.draw_pile
        taken = pile[:-draw - 1:-1]  # as many pops: the top (the end) first
        del pile[-draw:]
        s.hands[victim].extend(taken)
        if s.uno:
            s.uno &= ~(1 << victim)
        events.append(_event(Event, (PENALTY_TAKEN, victim, None, draw, -1, None, tuple(taken))))
        player = victim
    elif wild:
        pass  # the turn passes, below
    elif card.rank == REVERSE and not (
            len(s.hands) - len(s.out) == 2 and rules.reverse_skips_two):
        s.direction = -s.direction
        events.append(_event(Event, (DIRECTION_REVERSED, player, None, 0, -1, None, ())))
    elif card.rank in (SKIP, REVERSE):
        skipped = _next(s, player, rules)
        events.append(_event(Event, (TURN_SKIPPED, skipped, None, 0, -1, None, ())))
        player = skipped
    s.turn = _next(s, player, rules)
    s.drawn = None
    s.draws = 0
    return events


def _plain_draw(s: GameState, player: int, rules: Any) -> list[Event] | None:
    """`plain_step` of a draw."""
    pile = s.draw_pile
    if not pile:
        return None
    s.exposed = -1
    card = pile.pop()
    s.hands[player].append(card)
    if s.uno:
        s.uno &= ~(1 << player)  # uno-call: who draws says UNO again
    # draw-one: the drawn card may be played when the rule set accepts
    # it (`can_play`; when no rule checks plays or names targets, that is
    # whether it fits).
    s.drawn = card
    s.draws = 1
    if not (_can_play(s, player) if rules.play_checks or rules.targets_possible
            else drawn_fits(s, player, card, rules)):
        s.turn = rules.next_turn(s, player, 0) if s.out else (player + s.direction) % len(s.hands)
        s.drawn = None
        s.draws = 0
    try:
        return [_DRAWN[player][card]]
    except (IndexError, KeyError):
        return [_shared(_DRAWN, player, card, _event(Event, (CARDS_DRAWN, player, None, 1, -1, None, (card,))))]


def drawn_fits(s: GameState, player: int, card: Card, rules: Any) -> bool:
    """Does the card just drawn fit (`cards_that_fit` for that one card)?
    With the rule set's plain-turn form of the answer (`RuleSet.plain_fits`),
    a set lookup, and the refusing rules asked only of a card that fits."""
    fits = rules.plain_fits
    if fits is None:
        return bool(rules.cards_that_fit(s, player, (card,)))
    if card not in fits(s, player):
        return False
    keep = rules.plain_keep
    if keep is None:
        return True
    refusable = rules.plain_refusable
    return refusable is not None and card not in refusable or bool(keep(s, player, [card]))


def _next(s: GameState, player: int, rules: Any) -> int:
    """turn-order: the next seat in the direction of play (`next_turn` when
    seats are out of the round; inline in the two hottest paths of `plain_step`)."""
    return rules.next_turn(s, player, 0) if s.out else (player + s.direction) % len(s.hands)


#: Builds an Event from a full tuple (a third of the keyword constructor's cost).
_event = tuple.__new__

#: The events of the commonest moves (a card played, a card drawn, a colour
#: named), by seat and card or colour: events are immutable tuples, so each
#: is made once and shared (a lookup costs half of building one, every move).
_PLAYED: list[dict[Card, Event]] = []
_DRAWN: list[dict[Card, Event]] = []
_CHOSEN: list[dict[Any, Event]] = []


def _shared(table: list[dict[Any, Event]], player: int, key: Any, event: Event) -> Event:
    """Keep `event` in `table` for `player` and `key`, and give it back."""
    while len(table) <= player:
        table.append({})
    table[player][key] = event
    return event
