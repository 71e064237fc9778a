"""No bluffing: a Wild Draw Four may be played only while the player holds
no card of the colour in play; an illegal one is refused, so there is
nothing to challenge. Conflicts with `challenge`.
"""

from collections.abc import Collection

from unobot import Card, GameState, Rule, hookimpl
from unobot.cards import clear_on_new_card, known_cards


class NoBluffing(Rule):
    name = "no-bluffing"
    title = {"en": "No bluffing with +4", "es": "Sin faroles con +4"}
    conflicts = ("challenge",)

    @hookimpl(tryfirst=True)
    def card_fits(self, state: GameState, player: int, card: Card) -> bool | None:
        if card.is_wild and card.draw == 4 and _holds_colour(state, player):
            return False
        return None

    def keep_fitting(self, state: GameState, player: int, cards: Collection[Card]) -> Collection[Card]:
        """`card_fits`'s refusals for many cards at once (the engine lists a
        hand's moves with it: this rule only ever refuses, so its answer is
        the other rules' less these cards). The cards given back unchanged
        when none is a Wild Draw Four, as most turns: a set test in C
        instead of a loop (this runs every turn of RLCard's rules)."""
        fours = (_SETS.get(0) or _sets())[0]  # no call in the common case
        if fours.isdisjoint(cards) or not _holds_colour(state, player):
            return cards
        return [c for c in cards if c not in fours]


#: (every wild draw-four card, {colour: every card of that colour}) among the
#: cards there are, emptied when a card kind is added (unobot.cards).
_SETS: dict[int, tuple[frozenset[Card], dict[str, frozenset[Card]]]] = clear_on_new_card({})


def _sets() -> tuple[frozenset[Card], dict[str, frozenset[Card]]]:
    found = _SETS.get(0)
    if found is None:
        cards = known_cards()
        found = _SETS[0] = (
            frozenset(c for c in cards if c.is_wild and c.draw == 4),
            {color: frozenset(c for c in cards if c.color == color) for color in {c.color for c in cards} if color},
        )
    return found


def _holds_colour(state: GameState, player: int) -> bool:
    """Does the player hold a card of the colour in play (a Wild Draw Four would be a bluff)?"""
    color = state.color
    if color is None:
        return False
    of_colour = _sets()[1].get(color)
    return of_colour is not None and not of_colour.isdisjoint(state.hands[player])
