"""Card effects (shared rule): what Skip, Reverse, Draw Two, Wild and Wild
Draw Four do when they land.

Skip: the next player loses the turn. Reverse: the direction flips; with two
players it acts as a Skip (the player who played it plays again). Draw Two /
Wild Draw Four: the next player draws 2 / 4 and loses the turn, unless the
rules give them an answer (stacking, a challenge), when the total stays
pending on them. Wild: the player names the colour.
"""

from unobot import (
    Card,
    Event,
    GameState,
    Move,
    Rule,
    advance,
    dataclass,
    hookimpl,
    option,
    penalize,
)
from unobot.cards import REVERSE, SKIP
from unobot.events import COLOR_CHOSEN, DIRECTION_REVERSED


class CardEffects(Rule):
    name = "card-effects"
    title = {"en": "Action cards", "es": "Cartas de acción"}
    base = True
    plain_turn = True  # see unobot.plain_turn

    @dataclass(frozen=True)
    class Options:
        two_player_reverse_skips: bool = option(True, title="Reverse skips with two players", help="a Reverse acts as a Skip with two players")

    def reverse_skips_with_two(self) -> bool:
        """What a Reverse does with two players left (the plain turn and the AI ask it)."""
        return bool(self.options.two_player_reverse_skips)

    @hookimpl(trylast=True)
    def on_wild(self, state: GameState, move: Move, color: str | None, events: list[Event]) -> bool:
        state.color = color
        events.append(Event(COLOR_CHOSEN, move.player, None, 0, -1, color))
        return True

    @hookimpl(trylast=True)
    def on_play(self, state: GameState, move: Move, card: Card, events: list[Event]) -> bool:
        if card.draw:
            penalize(state, state.rules.next_turn(state, state.turn, 0), card.draw, events, card=card)
        elif card.is_wild:
            advance(state)
        elif card.rank == SKIP:
            advance(state, 1, events)
        elif card.rank == REVERSE:
            if self.options.two_player_reverse_skips and len(state.players) - len(state.out) == 2:
                advance(state, 1, events)
            else:
                state.direction = -state.direction
                events.append(Event(DIRECTION_REVERSED, move.player))
                advance(state)
        else:
            advance(state)
        return True
