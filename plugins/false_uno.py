"""False UNO: saying UNO when it is not owed costs `penalty` cards. UNO is
owed by a player holding two cards (before the play down to one) or one
card not yet covered; said at any other time, or twice, the player draws
the penalty.

Decision: the move is accepted from any player still in the round, at any
time, and the penalty is drawn at once; the turn does not change. When the
rule that owns the UNO calls says when UNO is owed (`uno_owed`: strict-uno,
on your turn or just before a jump-in), that answer is the one used.
"""

from unobot import N_, UNO, Event, GameState, Move, Rule, dataclass, draw_cards, hookimpl, option
from unobot.events import PENALTY_TAKEN

FALSE_UNO = "false_uno"


class FalseUno(Rule):
    name = "false-uno"
    checks = (UNO,)
    title = {"en": "False UNO", "es": "UNO en falso"}
    event_texts = {FALSE_UNO: N_("{player} said UNO for nothing and draws {n}.")}

    @dataclass(frozen=True)
    class Options:
        penalty: int = option(2, min=1, max=20, title="Penalty cards", help="cards for saying UNO when it is not owed")

    @staticmethod
    def owed(state: GameState, player: int) -> bool:
        owner = state.rules.answering("uno_owed") if state.rules is not None else None
        if owner is not None:  # a UNO rule that decides when UNO counts (strict-uno)
            return bool(owner.uno_owed(state, player))
        size = len(state.hands[player])
        if size == 2:
            return not state.uno >> player & 1
        return size == 1 and state.exposed == player

    @hookimpl(tryfirst=True)
    def check_move(self, state: GameState, move: Move) -> bool | None:
        if move.kind != UNO or self.owed(state, move.player):
            return None  # the UNO rule in play decides
        return True

    @hookimpl(tryfirst=True)
    def on_uno(self, state: GameState, player: int, events: list[Event]) -> bool | None:
        if self.owed(state, player):
            return None
        events.append(Event(FALSE_UNO, player, n=self.options.penalty))
        draw_cards(state, player, self.options.penalty, events, PENALTY_TAKEN)
        return True
