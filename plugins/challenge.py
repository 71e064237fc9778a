"""Challenge (shared rule): only the player hit by a Wild Draw Four may
challenge it, before drawing.

If the card was played illegally (its player held a card of the colour in
play), that player draws 4 instead and the challenger takes a normal turn.
Otherwise the challenger draws the 4 plus 2 more and loses the turn. The
card and its colour stay either way. With stacking, a Wild Draw Four played
onto a pending total cannot be challenged (`challenge_stacked: false`).
"""

from unobot import (
    CHALLENGE,
    Card,
    Event,
    GameState,
    Move,
    Rule,
    advance,
    dataclass,
    draw_cards,
    errors,
    hookimpl,
    option,
    take_pending,
)
from unobot.events import CHALLENGE_LOST, CHALLENGE_WON, PENALTY_TAKEN

KEY = "wd4"


class Challenge(Rule):
    name = "challenge"
    move_symbols = {CHALLENGE: "⚖️"}
    checks = (CHALLENGE,)
    title = {"en": "Challenging a Wild Draw Four", "es": "Desafiar un +4"}
    base = True
    plain_turn = True  # see unobot.plain_turn

    @dataclass(frozen=True)
    class Options:
        extra_penalty: int = option(2, min=0, max=20, title="Lost challenge penalty", help="cards added for a lost challenge")
        challenge_stacked: bool = option(False, title="Challenge a stacked +4", help="a Wild Draw Four played on a pending total may be challenged")

    @hookimpl
    def before_play(self, state: GameState, move: Move, events: list[Event]) -> None:
        card = move.card
        if card is None or not (card.is_wild and card.draw == 4):
            if KEY in state.ext:
                del state.ext[KEY]
            return
        if state.pending and not self.options.challenge_stacked:
            state.ext.pop(KEY, None)
            return
        state.ext[KEY] = [move.player, int(self.would_bluff(state, move.player, card))]

    @staticmethod
    def would_bluff(state: GameState, player: int, card: Card) -> bool:
        """Would `player` playing this Wild Draw Four now be a bluff (they
        hold a card of the colour in play), one a challenge catches? What a
        front-end's "draw, and play it if it fits" asks, so that it never
        bluffs on a person's behalf."""
        color = state.color
        return (card.is_wild and card.draw == 4 and color is not None
                and any(c.color == color for c in state.hands[player] if c is not card))

    @hookimpl
    def hold_penalty(self, state: GameState, victim: int, card: Card) -> bool | None:
        if card.is_wild and card.draw == 4 and KEY in state.ext:
            return True
        return None

    def _open(self, state: GameState, player: int) -> bool:
        return KEY in state.ext and state.pending > 0 and player == state.turn

    @hookimpl(trylast=True)
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.kind != CHALLENGE:
            return None
        return True if self._open(state, move.player) else errors.NO_CHALLENGE

    @hookimpl(trylast=True)
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        return [Move(CHALLENGE, player)] if self._open(state, player) else None

    @staticmethod
    def bluff_record(state: GameState) -> tuple[int, bool] | None:
        """The Wild Draw Four that may be challenged now: (who played it,
        whether it was played illegally), or None. What an AI or an adapter
        asks instead of reading this rule's data in `state.ext`."""
        info = state.ext.get(KEY)
        return (int(info[0]), bool(info[1])) if info and state.pending else None

    @hookimpl
    def after_move(self, state: GameState, move: Move, events: list[Event]) -> None:
        if KEY in state.ext and not state.pending:
            del state.ext[KEY]  # the total was taken or answered: nothing left to challenge

    @hookimpl(trylast=True)
    def on_challenge(self, state: GameState, challenger: int, events: list[Event]) -> bool:
        bluffer, illegal = state.ext.pop(KEY)
        if illegal:
            events.append(Event(CHALLENGE_WON, challenger, other=bluffer))
            state.pending = max(0, state.pending - 4)
            draw_cards(state, bluffer, 4, events, PENALTY_TAKEN)
            if not state.pending:
                state.pending_rank = ""
            return True
        events.append(Event(CHALLENGE_LOST, challenger, other=bluffer))
        state.pending += self.options.extra_penalty
        take_pending(state, challenger, events)
        advance(state)
        return True
