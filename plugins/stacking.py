"""Stacking: a player hit by a draw card may answer with a draw card of
their own, adding to a pending total; the first player who does not (or
cannot) takes it all with `draw`.

Which card may go on which is four options (`stacking: {}` turns on only
`+2 on +2`, optional). Any colour goes on any colour, except a +2 on a
pending +4, which must have the colour named for the +4 (RULES.md §6).
A plugin's draw card stacks too (`CardKind.stacks`, `unobot.cards.stacks_as`):
one drawing fewer than 4 as a +2, one drawing 4 or more as a +4.
`optional: false` forces a player who can stack to do so, when the whole
rule set accepts that answer (a +4 refused by no-bluffing forces nothing).
"""

from collections.abc import Iterable

from unobot import DRAW, Card, GameState, Move, Rule, can_play, dataclass, errors, hookimpl, option
from unobot.cards import DRAW_TWO, WILD_DRAW_FOUR, rank_stacks_as, stacks_as


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
        """May `card` go on a total made by a card of `on_rank`? Both read
        as the built-in draw card they stack as, so a plugin's draw card
        answers and is answered as a Draw Two or a Wild Draw Four would be."""
        o = self.options
        on, answer = rank_stacks_as(on_rank), stacks_as(card)
        if answer == DRAW_TWO:
            if on == DRAW_TWO:
                return o.draw_two_on_draw_two
            # a coloured +2 must have the colour named for the +4 (RULES.md §6)
            return on == WILD_DRAW_FOUR and o.draw_two_on_draw_four and (card.is_wild or card.color == color)
        if answer == WILD_DRAW_FOUR:
            return o.draw_four_on_draw_two if on == DRAW_TWO else (
                o.draw_four_on_draw_four if on == WILD_DRAW_FOUR else False)
        return False

    def _answerable(self, card: Card) -> bool:
        o = self.options
        rank = stacks_as(card)
        if rank == DRAW_TWO:
            return o.draw_two_on_draw_two or o.draw_four_on_draw_two
        if rank == WILD_DRAW_FOUR:
            return o.draw_four_on_draw_four or o.draw_two_on_draw_four
        return False

    @hookimpl
    def hold_penalty(self, state: GameState, victim: int, card: Card) -> bool | None:
        return True if self._answerable(card) else None

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
