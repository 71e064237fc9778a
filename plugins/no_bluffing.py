"""No bluffing: a Wild Draw Four may be played only while the player holds
no card of the colour in play; an illegal one is refused, so there is
nothing to challenge. Conflicts with `challenge`.
"""

from collections.abc import Sequence

from unobot import Card, GameState, Rule, hookimpl


class NoBluffing(Rule):
    name = "no-bluffing"
    title = {"en": "No bluffing with +4", "es": "Sin faroles con +4"}
    conflicts = ("challenge",)

    @hookimpl(tryfirst=True)
    def card_fits(self, state: GameState, player: int, card: Card) -> bool | None:
        if card.is_wild and card.draw == 4 and _holds_colour(state, player):
            return False
        return None

    def keep_fitting(self, state: GameState, player: int, cards: Sequence[Card]) -> list[Card]:
        """`card_fits`'s refusals for many cards at once (the engine lists a
        hand's moves with it: this rule only ever refuses, so its answer is
        the other rules' less these cards)."""
        for card in cards:  # a loop, not any(): most lists are one to three cards
            if card.draw == 4 and card.is_wild:
                if _holds_colour(state, player):
                    return [c for c in cards if not (c.draw == 4 and c.is_wild)]
                break
        return list(cards)


def _holds_colour(state: GameState, player: int) -> bool:
    """Does the player hold a card of the colour in play (a Wild Draw Four would be a bluff)?"""
    color = state.color
    return color is not None and any(c.color == color for c in state.hands[player])
