"""Jump-in: a player holding a card identical (colour and rank) to the top
card may play it out of turn. The turn then passes on from the jumper; the
players in between lose their turn.

`wilds: true` allows jumping in with a wild on the same wild;
`onto_pending: true` allows jumping in on a pending draw total.
"""

from unobot import Card, GameState, Move, Rule, dataclass, expand_play, hookimpl, option


class JumpIn(Rule):
    name = "jump-in"
    title = {"en": "Jump-in", "es": "Cortar (jugar fuera de turno)"}

    @dataclass(frozen=True)
    class Options:
        wilds: bool = option(False, title="Jump in with wilds", help="jump in with a wild on the same wild")
        onto_pending: bool = option(False, title="Jump in on a draw total", help="jump in on a pending draw total")

    @hookimpl
    def can_jump_in(self, state: GameState, player: int, card: Card) -> bool:
        if card is not state.discard[-1]:
            return False
        if card.is_wild and not self.options.wilds:
            return False
        return not (state.pending and not self.options.onto_pending)

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        if player == state.turn or not state.discard:
            return None
        top = state.discard[-1]
        if top in state.hands[player] and self.can_jump_in(state, player, top):
            return expand_play(state, player, top)
        return None
