"""Deck (shared rule): Mattel's 108 cards, 7 dealt to each player.

For more than ten players a second deck is added automatically, so a big
group never runs dry.
"""

from unobot import Card, GameState, Rule, dataclass, hookimpl
from unobot.cards import official_deck


class Deck(Rule):
    name = "deck"
    title = {"en": "Deck and deal", "es": "Mazo y reparto"}
    base = True

    @dataclass(frozen=True)
    class Options:
        hand_size: int = 7
        decks: int = 0  # 0: one deck per ten players

    @hookimpl(trylast=True)
    def build_deck(self, players: int) -> list[Card]:
        copies = self.options.decks or (1 + (players - 1) // 10)
        return official_deck() * copies

    @hookimpl(trylast=True)
    def hand_size(self, state: GameState) -> int:
        return self.options.hand_size
