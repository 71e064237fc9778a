"""The plain turn: the engine's fast path for the turn most turns are.

Why it exists: a turn asks a dozen hooks (which moves are legal, whether
drawing or passing is allowed, which extra moves exist, what happens before
and after the play), and in most turns every one of them gives the answer
the shared rules always give. Listing and applying those turns directly,
without the calls, makes the engine about twice as fast where it matters
(simulations, AI look-ahead, busy bots), and it is not a side door: it is
taken only when the rules in play have promised they would have had nothing
else to say.

A turn is *plain* when the player to move has more than two cards (no UNO
to say, nobody to catch after the play), no colour is awaited, no penalty is
pending, nobody may be caught, no rule keeps data for the round
(`state.ext` is empty) and the player has either not drawn yet or drawn
exactly one card (`state.drawn`). In a plain turn the shared rules decide:

- the legal moves are the plays `play_moves` lists, then `draw` (before
  drawing) or `pass` (after drawing one card);
- a number card played leaves the hand for the discard pile, its colour is
  in play, and the turn passes (`next_turn`);
- a card drawn (the draw pile not empty) joins the hand; the turn passes
  unless the rule set accepts a play of it (`can_play`);
- a pass passes the turn.

The rule set takes this path only when every rule implementing one of
`PLAIN_HOOKS` declares `plain_turn = True` (the shared rules do): the
promise that, in a plain turn, its hooks answer and change nothing beyond
what the list above says. Any other rule that implements one of them, a
house rule or a third-party one, turns the path off for its variant, and
every turn goes through the hooks. Every other move (an action card, a
wild, a move out of turn) always goes through the hooks.
`tests/test_plain_turn.py` plays every shipped variant both ways and
requires identical states and events.
"""

from __future__ import annotations

from typing import Any

from .cards import REVERSE, SKIP
from .events import (
    CARD_PLAYED,
    CARDS_DRAWN,
    COLOR_CHOSEN,
    DIRECTION_REVERSED,
    PASSED,
    TURN_SKIPPED,
    Event,
)
from .moves import DRAW, PASS, PLAY, Move
from .state import GameState

#: The hooks a plain turn would ask. A rule implementing any of them must
#: declare `plain_turn = True` for the rule set to take the fast path.
#: (`check_move` counts only for rules that check plays, draws or passes.)
PLAIN_HOOKS = (
    "card_fits", "can_jump_in", "card_targets", "check_move", "extra_moves",
    "before_play", "on_play", "on_wild", "after_move", "next_turn", "on_draw",
    "on_drawn_card", "cards_to_draw", "on_pass",
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
    """Is it `player`'s plain turn? (The rule set's promise is checked apart.)"""
    return (
        player == state.turn and not state.pending and state.exposed < 0 and not state.ext
        and state.color is not None and len(state.hands[player]) > 2
        and (state.draws == 0 if state.drawn is None else state.draws == 1)
    )


def plain_step(s: GameState, move: Move, rules: Any) -> list[Event] | None:
    """Apply a move of a plain turn to `s`, as the shared rules would; None
    when this move needs the hooks (an action card, a wild, an empty pile):
    `s` is then unchanged."""
    kind = move.kind
    player = move.player
    if kind == PLAY:
        card = move.card
        if card is None or card.draw or move.target is not None or move.cards:
            return None  # a draw card's penalty, a target, several cards: the hooks
        s.hands[player].remove(card)
        s.discard.append(card)
        events = [_event(Event, (CARD_PLAYED, player, card, 0, -1, None, ()))]
        # card-effects, as its on_play and on_wild do
        if card.is_wild:
            s.color = move.color
            events.append(_event(Event, (COLOR_CHOSEN, player, None, 0, -1, move.color, ())))
            _pass_turn(s, player, rules)
            return events
        s.color = card.color
        rank = card.rank
        if rank == REVERSE and not (
                len(s.hands) - len(s.out) == 2 and rules.options["card-effects"].two_player_reverse_skips):
            s.direction = -s.direction
            events.append(_event(Event, (DIRECTION_REVERSED, player, None, 0, -1, None, ())))
        elif rank in (SKIP, REVERSE):
            _pass_turn(s, player, rules)
            events.append(_event(Event, (TURN_SKIPPED, s.turn, None, 0, -1, None, ())))
            player = s.turn
        _pass_turn(s, player, rules)
        return events
    if kind == DRAW:
        pile = s.draw_pile
        if not pile:
            return None
        card = pile.pop()
        s.hands[player].append(card)
        if s.uno:
            s.uno &= ~(1 << player)  # uno-call: who draws says UNO again
        # draw-one: the drawn card may be played when the rule set accepts
        # it (`can_play`; in a plain turn, matching's answer unless a rule
        # checks plays or names targets).
        if rules.play_checks or rules.targets_possible:
            from .engine import can_play

            s.drawn = card
            s.draws = 1
            fits = can_play(s, player)
        else:
            fits = card.color is None or card.color == s.color or card.rank == s.discard[-1].rank
        if fits:
            s.drawn = card
            s.draws = 1
        else:
            _pass_turn(s, player, rules)
        return [_event(Event, (CARDS_DRAWN, player, None, 1, -1, None, (card,)))]
    if kind == PASS:
        _pass_turn(s, player, rules)
        return [_event(Event, (PASSED, player, None, 0, -1, None, ()))]
    return None


def _pass_turn(s: GameState, player: int, rules: Any) -> None:
    """turn-order: the next seat in the direction of play (`next_turn` when
    seats are out of the round)."""
    s.turn = rules.next_turn(s, player, 0) if s.out else (player + s.direction) % len(s.hands)
    s.drawn = None
    s.draws = 0


#: Builds an Event from a full tuple (a third of the keyword constructor's cost).
_event = tuple.__new__
