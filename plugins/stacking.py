"""Stacking: a player hit by a draw card may answer with a draw card of
their own, adding to a pending total; the first player who does not (or
cannot) takes it all with `draw`.

Which card may go on which is four options (`stacking: {}` turns on only
`+2 on +2`, optional). Any colour goes on any colour, except a +2 on a
pending +4, which must have the colour named for the +4 (RULES.md §6).
`optional: false` forces a player who can stack to do so, when the whole
rule set accepts that answer (a +4 refused by no-bluffing forces nothing).
"""

from collections.abc import Iterable

from unobot import DRAW, Card, GameState, Move, Rule, can_play, dataclass, errors, hookimpl, option
from unobot.cards import DRAW_TWO, WILD_DRAW_FOUR


class Stacking(Rule):
    name = "stacking"
    checks = (DRAW,)
    title = {"en": "Stacking draw cards", "es": "Acumular cartas de robo"}

    @dataclass(frozen=True)
    class Options:
        draw_two_on_draw_two: bool = option(True, title="+2 on +2", help="a Draw Two goes on a Draw Two")
        draw_four_on_draw_four: bool = option(False, title="+4 on +4", help="a Wild Draw Four goes on a Wild Draw Four")
        draw_four_on_draw_two: bool = option(False, title="+4 on +2", help="a Wild Draw Four goes on a Draw Two")
        draw_two_on_draw_four: bool = option(False, title="+2 on +4", help="a Draw Two goes on a Wild Draw Four")
        optional: bool = option(True, title="May draw instead", help="a player who can stack may draw instead")

    def _allowed(self, on_rank: str, card: Card, color: str | None) -> bool:
        o = self.options
        if card.rank == DRAW_TWO and not card.is_wild:
            return o.draw_two_on_draw_two if on_rank == DRAW_TWO else (
                o.draw_two_on_draw_four and card.color == color if on_rank == WILD_DRAW_FOUR
                else False)
        if card.rank == WILD_DRAW_FOUR and card.is_wild:
            return o.draw_four_on_draw_two if on_rank == DRAW_TWO else (
                o.draw_four_on_draw_four if on_rank == WILD_DRAW_FOUR else False)
        return False

    def _answerable(self, rank: str) -> bool:
        o = self.options
        if rank == DRAW_TWO:
            return o.draw_two_on_draw_two or o.draw_four_on_draw_two
        if rank == WILD_DRAW_FOUR:
            return o.draw_four_on_draw_four or o.draw_two_on_draw_four
        return False

    @hookimpl
    def hold_penalty(self, state: GameState, victim: int, card: Card) -> bool | None:
        return True if self._answerable(card.rank) else None

    @hookimpl
    def can_stack(self, state: GameState, player: int, card: Card) -> bool:
        return self._allowed(state.pending_rank, card, state.color)

    def cards_stackable(self, state: GameState, player: int, cards: Iterable[Card]) -> list[Card]:
        """`can_stack` for many cards at once (it answers every card, never None)."""
        rank, color = state.pending_rank, state.color
        return [c for c in cards if self._allowed(rank, c, color)]

    @hookimpl(tryfirst=True)
    def check_move(self, state: GameState, move: Move) -> str | None:
        if self.options.optional or move.kind != DRAW or not state.pending or move.player != state.turn:
            return None
        if can_play(state, move.player):
            return errors.MUST_STACK
        return None
