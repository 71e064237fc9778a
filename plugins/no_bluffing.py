"""No bluffing: a Wild Draw Four may be played only while the player holds
no card of the colour in play; an illegal one is refused, so there is
nothing to challenge. Conflicts with `challenge`.
"""

from unobot import Card, GameState, Rule, hookimpl


class NoBluffing(Rule):
    name = "no-bluffing"
    title = {"en": "No bluffing with +4", "es": "Sin faroles con +4"}
    conflicts = ("challenge",)

    @hookimpl(tryfirst=True)
    def card_fits(self, state: GameState, player: int, card: Card) -> bool | None:
        if not (card.is_wild and card.draw == 4):
            return None
        color = state.color
        if color is not None and any(c.color == color for c in state.hands[player]):
            return False
        return None
