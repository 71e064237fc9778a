"""Colour first (the seed document): a card of another colour with the same
number is legal only while the player holds no card of the colour in play.
Wilds do not count as that colour. Symbol matches (Reverse, Skip, +2 on the
same symbol) are always legal ("en cualquier momento").
"""

from unobot import Card, GameState, Rule, hookimpl


class ColorFirst(Rule):
    name = "color-first"
    title = {"en": "Colour first", "es": "Primero el color"}

    @hookimpl(tryfirst=True)
    def card_fits(self, state: GameState, player: int, card: Card) -> bool | None:
        color = state.color
        if state.pending or not card.is_number or color is None or card.color == color:
            return None
        if card.rank == state.discard[-1].rank and any(c.color == color for c in state.hands[player]):
            return False
        return None
