"""Turn order (shared rule): play passes to the next seat in the direction
of play, over players who are out of the round."""

from unobot import GameState, Rule, hookimpl


class TurnOrder(Rule):
    name = "turn-order"
    title = {"en": "Turn order", "es": "Orden de turnos"}
    base = True
    plain_turn = True  # see unobot.plain_turn

    @hookimpl(trylast=True)
    def next_turn(self, state: GameState, player: int, skip: int) -> int:
        n = len(state.players)
        d = state.direction
        out = state.out
        seat = player
        for _ in range(skip + 1):
            seat = (seat + d) % n
            if out:
                for _ in range(n):
                    if seat not in out:
                        break
                    seat = (seat + d) % n
        return seat
