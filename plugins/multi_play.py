"""Multi-play: on your turn you may put down several number cards of the
same number in one move (`multi R5 G5 B5`); the first must be a card you
could play, the last sets the colour in play and has its effect (a 7 under
seven-o names its target: `multi R7 G7 ben`).

`same_colour_runs: true` also allows a run of consecutive numbers in one
colour (`multi G3 G4 G5`, or down: `multi G5 G4 G3`). Decisions: only
number cards combine; not while a total is pending or after drawing;
putting down the last cards this way goes out as usual.
"""

from collections import Counter

from unobot import (
    N_,
    NP_,
    PLAY,
    Card,
    Event,
    GameState,
    Move,
    Rule,
    dataclass,
    errors,
    hookimpl,
    option,
    play_moves,
)
from unobot.events import CARD_PLAYED

MULTI = "multi"
MULTI_PLAYED = "multi_played"
BAD_MULTI = "bad_multi"


class MultiPlay(Rule):
    name = "multi-play"
    checks = (MULTI,)
    move_symbols = {MULTI: "🃏"}
    title = {"en": "Play several cards at once", "es": "Jugar varias cartas a la vez"}
    move_kinds = {MULTI: N_("Play several cards")}
    move_usage = {MULTI: "R5 G5 B5"}
    move_hints = {MULTI: N_("All of them in one turn")}
    refusals = {BAD_MULTI: N_("Those cards cannot be played together.")}
    event_texts = {MULTI_PLAYED: NP_("{player} plays {n} card at once.", "{player} plays {n} cards at once.")}

    @dataclass(frozen=True)
    class Options:
        same_colour_runs: bool = option(False, title="Same-colour runs", help="runs of consecutive numbers in one colour too")

    def _group_ok(self, cards: list[Card]) -> bool:
        if len(cards) < 2 or not all(c.is_number for c in cards):
            return False
        if all(c.rank == cards[0].rank for c in cards):
            return True
        if not self.options.same_colour_runs or any(c.color != cards[0].color for c in cards):
            return False
        step = int(cards[1].rank) - int(cards[0].rank)
        return step in (1, -1) and all(
            int(b.rank) - int(a.rank) == step for a, b in zip(cards, cards[1:]))

    def move_value(self, state: GameState, move: Move) -> float | None:
        """A multi-play does nothing beyond its cards (the last one's effect
        is the card's own): 0, so the AI weighs its cards and tries no copy."""
        return 0.0 if move.kind == MULTI else None

    @staticmethod
    def _open(state: GameState, player: int) -> bool:
        return player == state.turn and not state.pending and not state.draws and state.drawn is None

    def _targets(self, state: GameState, player: int, cards: list[Card]) -> list[int | None] | None:
        if len(cards) >= len(state.hands[player]):
            return None
        return state.rules.card_targets(state, player, cards[-1])

    @hookimpl
    def check_move(self, state: GameState, move: Move) -> bool | str | None:
        if move.kind != MULTI:
            return None
        player = move.player
        if player != state.turn:
            return errors.NOT_YOUR_TURN
        if not self._open(state, player) or move.card is None:
            return BAD_MULTI
        cards = [move.card, *move.cards]
        held = Counter(state.hands[player])
        if any(held[c] < k for c, k in Counter(cards).items()):
            return errors.NOT_IN_HAND
        if not self._group_ok(cards) or move.color is not None:
            return BAD_MULTI
        if not any(m.card is move.card for m in play_moves(state, player)):
            return errors.DOES_NOT_FIT
        targets = self._targets(state, player, cards)
        if targets is None:
            return errors.UNEXPECTED_TARGET if move.target is not None else True
        if move.target not in targets:
            return errors.TARGET_REQUIRED if move.target is None else errors.BAD_TARGET
        return True

    @hookimpl
    def extra_moves(self, state: GameState, player: int) -> list[Move] | None:
        if not self._open(state, player):
            return None
        hand = state.hands[player]
        firsts = {m.card: None for m in play_moves(state, player) if m.card is not None and m.card.is_number}
        groups: list[list[Card]] = []
        for first in firsts:
            rest = list(hand)
            rest.remove(first)
            same = [c for c in rest if c.rank == first.rank]
            for i, other in enumerate(same):
                groups.append([first, other])
                if i == len(same) - 1 and len(same) > 1:
                    groups.append([first, *same])
            if self.options.same_colour_runs:
                for step in (1, -1):
                    run = [first]
                    while True:
                        want = int(run[-1].rank) + step
                        nxt = next((c for c in rest if c.color == first.color and c.rank == str(want)), None)
                        if nxt is None or not 0 <= want <= 9:
                            break
                        run.append(nxt)
                        groups.append(list(run))
        moves = []
        for cards in groups:
            targets = self._targets(state, player, cards)
            for target in (targets if targets is not None else [None]):
                moves.append(Move(MULTI, player, cards[0], None, target, tuple(cards[1:])))
        return moves or None

    @hookimpl
    def on_move(self, state: GameState, move: Move, events: list[Event]) -> bool | None:
        if move.kind != MULTI or move.card is None:
            return None
        rules = state.rules
        player = move.player
        cards = [move.card, *move.cards]
        rules.before_play(state, move, events)
        hand = state.hands[player]
        events.append(Event(MULTI_PLAYED, player, n=len(cards)))
        for card in cards:
            hand.remove(card)
            state.discard.append(card)
            events.append(Event(CARD_PLAYED, player, card))
        last = cards[-1]
        state.color = last.color
        rules.on_play(state, Move(PLAY, player, last, None, move.target), last, events)
        if not hand:
            rules.on_go_out(state, player, events)
        elif len(hand) == 1 and not state.uno >> player & 1:
            state.exposed = player  # the UNO catch window opens, as for a play
        return True
