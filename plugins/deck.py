"""Deck (shared rule): Mattel's 108 cards, 7 dealt to each player.

More decks are shuffled in automatically when the hands would take more than
a deck can give (more than ten players, or big hands), so a deal never runs
dry: every hand is dealt and at least 20 cards are left to draw.
"""

from unobot import Card, GameState, Rule, dataclass, hookimpl, option
from unobot.cards import official_deck

#: Cards left in the draw pile after the deal, at least.
SPARE = 20


class Deck(Rule):
    name = "deck"
    title = {"en": "Deck and deal", "es": "Mazo y reparto"}
    base = True

    @dataclass(frozen=True)
    class Options:
        hand_size: int = option(7, min=1, max=30, title="Cards dealt", help="cards dealt to each player")
        decks: int = option(0, min=0, max=8, title="Decks", help="decks shuffled together (0: as many as needed)")

    @hookimpl(trylast=True)
    def build_deck(self, players: int) -> list[Card]:
        one = official_deck()
        needed = -(-(players * self.options.hand_size + SPARE) // len(one))
        return one * max(self.options.decks, needed, 1 + (players - 1) // 10)

    @hookimpl(trylast=True)
    def hand_size(self, state: GameState) -> int:
        return self.options.hand_size
