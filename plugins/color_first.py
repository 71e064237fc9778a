"""Colour first (the seed document): a card of another colour with the same
number is legal only while the player holds no card of the colour in play.
Wilds do not count as that colour. Symbol matches (Reverse, Skip, +2 on the
same symbol) are always legal ("en cualquier momento").
"""

from unobot import N_, Card, GameState, Rule, hookimpl

PLAY_COLOUR_FIRST = "play_colour_first"


class ColorFirst(Rule):
    name = "color-first"
    title = {"en": "Colour first", "es": "Primero el color"}
    refusals = {PLAY_COLOUR_FIRST: N_("You hold a card of the colour in play: play that colour first.")}

    @hookimpl(tryfirst=True)
    def card_fits(self, state: GameState, player: int, card: Card) -> bool | None:
        return False if _number_match_refused(state, player, card) else None

    @hookimpl
    def fit_refusal(self, state: GameState, player: int, card: Card) -> str | None:
        return PLAY_COLOUR_FIRST if _number_match_refused(state, player, card) else None


def _number_match_refused(state: GameState, player: int, card: Card) -> bool:
    """A same-number card of another colour while the player holds the colour in play."""
    color = state.color
    if state.pending or not card.is_number or color is None or card.color == color:
        return False
    return card.rank == state.discard[-1].rank and any(c.color == color for c in state.hands[player])
