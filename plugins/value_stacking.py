"""Value stacking (UNO Show 'Em No Mercy): a player hit by a draw card may
answer with any draw card worth as much or more (+2 on +2, +4 on +2, +10
on +6, never +2 on +4), of any colour, adding to the pending total; the
first player who does not takes it all with `draw`.

Decisions: a Wild Reverse Draw Four counts as a +4; a plugin's draw card
counts by its `draw` (unless its kind says `stacks=False`); `optional:
false` forces a player who can stack to do so. Takes the place of `stacking`.
"""

from collections.abc import Iterable
from functools import cache

from unobot import (
    DRAW,
    Card,
    GameState,
    Move,
    Rule,
    can_play,
    dataclass,
    errors,
    hookimpl,
    option,
    parse_card,
)
from unobot.cards import CardError, rank_stacks_as, stacks_as


@cache
def draw_value(rank: str) -> int:
    """How many cards a draw card of this rank makes the victim take."""
    for head in ("W", "R"):
        try:
            card = parse_card(head + rank)
        except CardError:
            continue
        if card.draw:
            return card.draw
    return 0


class ValueStacking(Rule):
    name = "value-stacking"
    checks = (DRAW,)
    title = {"en": "Stacking by value", "es": "Acumular por valor"}
    replaces = ("stacking",)

    @dataclass(frozen=True)
    class Options:
        optional: bool = option(True, title="May draw instead", help="a player who can stack may draw instead")

    @hookimpl
    def hold_penalty(self, state: GameState, victim: int, card: Card) -> bool | None:
        return True if stacks_as(card) else None

    @hookimpl
    def can_stack(self, state: GameState, player: int, card: Card) -> bool:
        least = draw_value(state.pending_rank)
        return bool(stacks_as(card)) and card.draw >= least and not (least and not rank_stacks_as(state.pending_rank))

    def cards_stackable(self, state: GameState, player: int, cards: Iterable[Card]) -> list[Card]:
        """`can_stack` for many cards at once (it answers every card, never
        None): the engine lists a hand's answers to a pending total with it."""
        least = draw_value(state.pending_rank)
        if least and not rank_stacks_as(state.pending_rank):  # a total of a card that never stacks
            return []
        return [c for c in cards if c.draw and c.draw >= least and stacks_as(c)]

    @hookimpl(tryfirst=True)
    def check_move(self, state: GameState, move: Move) -> str | None:
        if self.options.optional or move.kind != DRAW or not state.pending or move.player != state.turn:
            return None
        if can_play(state, move.player):
            return errors.MUST_STACK
        return None
