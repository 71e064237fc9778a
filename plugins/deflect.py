"""Deflect: with a draw total pending on you, a Reverse of the colour in
play sends the whole total back the other way (to the player who played the
draw card); a Skip of that colour passes it on to the next player.

The total stays pending on its new victim, who may answer it in turn
(deflect it again, stack where stacking is on) or take it with `draw`.
Decisions: "the colour in play" is the pending card's colour, or the colour
named for a wild draw card; with two players a Reverse sends the total back
to the only other player, like a Skip; a deflecting card played as the last
card ends the round and its new victim takes the total.
"""

from unobot import N_, Card, Event, GameState, Move, Rule, dataclass, hookimpl, option
from unobot.cards import REVERSE, SKIP
from unobot.events import DIRECTION_REVERSED, PENALTY_PENDING

DEFLECTED = "deflected"


class Deflect(Rule):
    name = "deflect"
    title = {"en": "Deflect draw cards", "es": "Desviar cartas de robo"}
    event_texts = {DEFLECTED: N_("{player} deflects the {n} cards to {other}!")}

    @dataclass(frozen=True)
    class Options:
        reverse: bool = option(True, title="Reverse sends back", help="a Reverse sends a pending total back")
        skip: bool = option(True, title="Skip passes on", help="a Skip passes a pending total on")

    def _deflects(self, state: GameState, card: Card) -> bool:
        if card.is_wild or card.color != state.color:
            return False
        return (card.rank == REVERSE and self.options.reverse) or (card.rank == SKIP and self.options.skip)

    @hookimpl
    def hold_penalty(self, state: GameState, victim: int, card: Card) -> bool | None:
        return True if self.options.reverse or self.options.skip else None

    @hookimpl(tryfirst=True)
    def can_stack(self, state: GameState, player: int, card: Card) -> bool | None:
        return True if self._deflects(state, card) else None

    @hookimpl(tryfirst=True)
    def on_play(self, state: GameState, move: Move, card: Card, events: list[Event]) -> bool | None:
        if not state.pending or card.is_wild or card.rank not in (REVERSE, SKIP):
            return None
        player = move.player
        if card.rank == REVERSE:
            state.direction = -state.direction
            events.append(Event(DIRECTION_REVERSED, player))
        victim = state.rules.next_turn(state, player, 0)
        state.turn = victim
        state.drawn = None
        state.draws = 0
        events.append(Event(DEFLECTED, player, card, n=state.pending, other=victim))
        events.append(Event(PENALTY_PENDING, victim, n=state.pending))
        return True
