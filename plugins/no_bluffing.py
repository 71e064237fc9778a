"""No bluffing: a Wild Draw Four may be played only while the player holds
no card of the colour in play; an illegal one is refused, so there is
nothing to challenge. Conflicts with `challenge`.
"""

from collections.abc import Collection

from unobot import N_, Card, GameState, Rule, hookimpl
from unobot.cards import card_set, clear_on_new_card, known_cards

BLUFF_REFUSED = "bluff_refused"


class NoBluffing(Rule):
    name = "no-bluffing"
    title = {"en": "No bluffing with +4", "es": "Sin faroles con +4"}
    conflicts = ("challenge",)
    refusals = {BLUFF_REFUSED: N_("You hold a card of the colour in play, so no Wild Draw Four now.")}

    @hookimpl(tryfirst=True)
    def card_fits(self, state: GameState, player: int, card: Card) -> bool | None:
        if card.is_wild and card.draw == 4 and _holds_colour(state, player):
            return False
        return None

    @hookimpl
    def fit_refusal(self, state: GameState, player: int, card: Card) -> str | None:
        if card.is_wild and card.draw == 4 and _holds_colour(state, player):
            return BLUFF_REFUSED
        return None

    def keep_fitting(self, state: GameState, player: int, cards: Collection[Card]) -> Collection[Card]:
        """`card_fits`'s refusals for many cards at once (the engine lists a
        hand's moves with it: this rule only ever refuses, so its answer is
        the other rules' less these cards). The cards given back unchanged
        when none is a Wild Draw Four, as in most turns (a set test in C)."""
        if _FOURS.isdisjoint(cards) or not _holds_colour(state, player):
            return cards
        return [c for c in cards if c not in _FOURS]

    def refusable(self) -> Collection[Card]:
        """Every card `keep_fitting` may take out (a live set, see
        unobot.cards.card_set): the engine asks it only of a hand holding
        one, and most turns of RLCard's rules hold none."""
        return _FOURS


#: Every wild draw-four card there is (Wild Draw Four, No Mercy's Wild Reverse Draw Four).
_FOURS = card_set(lambda c: c.is_wild and c.draw == 4)
#: {colour: every card of that colour} among the cards there are, emptied
#: when a card kind is added (unobot.cards).
_OF_COLOUR: dict[str, frozenset[Card]] = clear_on_new_card({})


def _holds_colour(state: GameState, player: int) -> bool:
    """Does the player hold a card of the colour in play (a Wild Draw Four would be a bluff)?"""
    color = state.color
    if color is None:
        return False
    of_colour = _OF_COLOUR.get(color)
    if of_colour is None:
        of_colour = _OF_COLOUR[color] = frozenset(c for c in known_cards() if c.color == color)
    return not of_colour.isdisjoint(state.hands[player])
