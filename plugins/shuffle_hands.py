"""Wild Shuffle Hands (Mattel's 2018 deck): its player collects every hand,
shuffles them together and deals them out again one at a time, starting
with the next player, then names the colour in play. The deck also gets
the blank Wild Customizable cards, played here as plain wilds.

Decisions: a Wild Shuffle Hands played as the last card just ends the round;
turned up as the first card it is a plain Wild (the first player names the
colour); after the deal nobody has said UNO and nobody can be caught.
Both cards score 40 points.
"""

from collections.abc import Generator

from unobot import (
    N_,
    Card,
    CardKind,
    Event,
    GameState,
    Move,
    Rule,
    advance,
    dataclass,
    hookimpl,
    option,
    shuffle,
)

SHUFFLE_HANDS = "SH"
CUSTOMIZABLE = "CU"
HANDS_SHUFFLED = "hands_shuffled"


class ShuffleHands(Rule):
    name = "shuffle-hands"
    title = {"en": "Wild Shuffle Hands", "es": "Comodín baraja manos"}
    cards = (
        CardKind(SHUFFLE_HANDS, wild=True, value=40, name=N_("Wild Shuffle Hands"), symbol="⇶",
                 words=(N_("Shuffle Hands"),)),
        CardKind(CUSTOMIZABLE, wild=True, value=40, name=N_("Wild Customizable"), symbol="✎",
                 words=(N_("Customizable"), N_("Wild Customisable"))),
    )
    event_texts = {HANDS_SHUFFLED: N_("{player} shuffles every hand together and deals them out again.")}

    @dataclass(frozen=True)
    class Options:
        shuffle_hands: int = option(1, min=0, max=4, title="Shuffle Hands cards", help="Wild Shuffle Hands cards in the deck")
        customizable: int = option(3, min=0, max=8, title="Customizable cards", help="blank Wild Customizable cards in the deck")

    @hookimpl
    def more_cards(self, players: int) -> list[Card]:
        o = self.options
        return [Card.get(None, SHUFFLE_HANDS)] * o.shuffle_hands + [Card.get(None, CUSTOMIZABLE)] * o.customizable

    @hookimpl
    def on_play(self, state: GameState, move: Move, card: Card, events: list[Event]) -> bool | None:
        player = move.player
        if card.rank != SHUFFLE_HANDS or not card.is_wild or not state.hands[player]:
            return None
        rules = state.rules
        seats: list[int] = []
        seat = player
        for _ in range(len(state.players)):
            seat = rules.next_turn(state, seat, 0)
            if seat in seats:
                break
            seats.append(seat)
        if player not in seats:
            seats.append(player)
        pool = [c for s in seats for c in state.hands[s]]
        shuffle(state, pool)
        for s in seats:
            state.hands[s] = []
        for i, c in enumerate(pool):
            state.hands[seats[i % len(seats)]].append(c)
        state.uno = 0
        state.exposed = -1
        events.append(Event(HANDS_SHUFFLED, player))
        advance(state)
        return True

    @hookimpl(wrapper=True)
    def after_move(self, state: GameState, move: Move, events: list[Event]) -> Generator[None, list[None], list[None]]:
        result = yield
        if any(e.kind == HANDS_SHUFFLED for e in events):
            state.exposed = -1  # a hand dealt by the shuffle owes no UNO
        return result
