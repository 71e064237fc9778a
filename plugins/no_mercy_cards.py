"""No Mercy cards (Mattel's UNO Show 'Em No Mercy): Skip Everyone, Discard
All, the coloured Draw Four, Wild Draw Six, Wild Draw Ten, Wild Reverse
Draw Four and Wild Colour Roulette.

Skip Everyone (`RSA`): every other player loses a turn, so its player plays
again. Discard All (`RDA`): its player also puts down every other card of
its colour. Wild Reverse Draw Four (`WR+4`): the direction reverses, then
the next player draws 4. Wild Colour Roulette (`WCR`): the next player
turns cards from the draw pile until one of the colour named comes up,
keeps them all and loses the turn. Draw Four (`R+4`), Wild Draw Six
(`W+6`) and Ten (`W+10`) work like any draw card.

`deck: no-mercy` plays with the No Mercy deck alone (164 cards, see
variants/no-mercy.yaml); `deck: added` adds one Skip Everyone and one
Discard All of each colour and two of each new wild to the usual deck.
`number_starter: true` (as in the box): an action or wild card turned up
first goes under the draw pile and the next card is turned, until a number.
Decisions: the player of a Colour Roulette names its colour, like any wild
(the box lets the victim name it); Skip Everyone and Discard All as the last
card just end the round, and as the first card (without `number_starter`)
have no effect.
"""

from typing import Literal

from unobot import (
    N_,
    NP_,
    Card,
    CardKind,
    Event,
    GameState,
    Move,
    Rule,
    advance,
    dataclass,
    draw_cards,
    hookimpl,
    option,
    penalize,
)
from unobot.cards import COLORS, DRAW_TWO, NUMBERS, REVERSE, SKIP, WILD_DRAW_FOUR
from unobot.events import DIRECTION_REVERSED, STARTER, STARTER_RETURNED

SKIP_ALL = "SA"
DISCARD_ALL = "DA"
REVERSE_DRAW_FOUR = "R+4"
ROULETTE = "CR"
SKIPPED_EVERYONE = "skipped_all"
DISCARDED_ALL = "discarded_all"
ROULETTE_DRAWN = "roulette_drawn"


def no_mercy_deck() -> list[Card]:
    deck: list[Card] = []
    for color in COLORS:
        for rank in NUMBERS:
            deck += [Card.get(color, rank)] * 2
        deck += [Card.get(color, SKIP)] * 3 + [Card.get(color, SKIP_ALL)] * 2
        deck += [Card.get(color, REVERSE)] * 3 + [Card.get(color, DRAW_TWO)] * 2
        deck += [Card.get(color, WILD_DRAW_FOUR)] * 2 + [Card.get(color, DISCARD_ALL)] * 3
    deck += [Card.get(None, ROULETTE)] * 8 + [Card.get(None, REVERSE_DRAW_FOUR)] * 8
    deck += [Card.get(None, "+6")] * 4 + [Card.get(None, "+10")] * 4
    return deck


class NoMercyCards(Rule):
    name = "no-mercy-cards"
    title = {"en": "No Mercy cards", "es": "Cartas de Sin Piedad"}
    cards = (
        CardKind(SKIP_ALL, value=30, name=N_("Skip Everyone"), symbol="⊘⊘", words=(N_("Skip All"),)),
        CardKind(DISCARD_ALL, value=30, name=N_("Discard All"), symbol="⇊"),
        CardKind(REVERSE_DRAW_FOUR, wild=True, value=50, draw=4, name=N_("Wild Reverse Draw Four"),
                 symbol="⇄+4", words=(N_("Reverse Draw Four"), N_("Wild Reverse +4"), N_("Reverse +4"))),
        CardKind(ROULETTE, wild=True, value=50, name=N_("Wild Colour Roulette"), symbol="◎",
                 words=(N_("Wild Color Roulette"), N_("Colour Roulette"), N_("Color Roulette"))),
    )
    event_texts = {
        SKIPPED_EVERYONE: N_("{player} skips everyone and plays again!"),
        DISCARDED_ALL: NP_("{player} discards {n} more card of that colour.",
                           "{player} discards {n} more cards of that colour."),
        # plural: "turns up 1 cards" was said when the first card was the colour
        ROULETTE_DRAWN: NP_("{other} turns up {n} card, and it is {color}.",
                            "{other} turns up {n} cards until a {color} one comes."),
    }

    @dataclass(frozen=True)
    class Options:
        deck: Literal["no-mercy", "added"] = option(
            "no-mercy", title="Deck", help="the No Mercy deck alone, or its cards added to the usual deck",
            words={"no-mercy": "the No Mercy deck alone", "added": "added to the usual deck"})
        number_starter: bool = option(False, title="Number starter", help="cards are turned until a number starts the round")

    def move_value(self, state: GameState, move: Move) -> float | None:
        """A Discard All also puts down the other cards of its colour: worth
        that many cards more, for the AI (which sees one card leave)."""
        card = move.card
        if card is None or card.is_wild or card.rank != DISCARD_ALL or move.cards:
            return None
        return float(sum(1 for c in state.hands[move.player] if c.color == card.color) - 1)

    @hookimpl(tryfirst=True)
    def first_card(self, state: GameState, card: Card, events: list[Event]) -> bool | None:
        if not self.options.number_starter or card.is_number:
            return None
        for _ in range(200):
            state.discard.pop()
            state.draw_pile.insert(0, card)  # under the draw pile
            events.append(Event(STARTER_RETURNED, card=card))
            card = state.draw_pile.pop()
            state.discard.append(card)
            events.append(Event(STARTER, card=card))
            if card.is_number:
                break
        state.color = card.color
        return True

    @hookimpl(tryfirst=True)
    def build_deck(self, players: int) -> list[Card] | None:
        if self.options.deck != "no-mercy":
            return None
        return no_mercy_deck() * (1 + players // 20)

    @hookimpl
    def more_cards(self, players: int) -> list[Card]:
        if self.options.deck == "no-mercy":
            return []
        extra = [Card.get(c, r) for c in COLORS for r in (SKIP_ALL, DISCARD_ALL)]
        wilds = (ROULETTE, REVERSE_DRAW_FOUR, "+6", "+10")
        return extra + [Card.get(None, r) for r in wilds for _ in range(2)]

    @hookimpl
    def on_play(self, state: GameState, move: Move, card: Card, events: list[Event]) -> bool | None:
        rank = card.rank
        player = move.player
        hand = state.hands[player]
        if rank == REVERSE_DRAW_FOUR and card.is_wild:
            state.direction = -state.direction
            events.append(Event(DIRECTION_REVERSED, player))
            penalize(state, state.rules.next_turn(state, state.turn, 0), card.draw, events, card=card)
            return True
        if rank == ROULETTE and card.is_wild:
            victim = state.rules.next_turn(state, player, 0)
            got: list[Card] = []
            while True:
                drawn = draw_cards(state, victim, 1, events)
                got += drawn
                if not drawn or drawn[0].color == state.color:
                    break
            events.append(Event(ROULETTE_DRAWN, player, n=len(got), other=victim, color=state.color))
            advance(state, 1, events)
            return True
        if not hand or card.is_wild:
            return None
        if rank == SKIP_ALL:
            events.append(Event(SKIPPED_EVERYONE, player))
            state.drawn = None
            state.draws = 0
            return True
        if rank == DISCARD_ALL:
            color = card.color
            same = [c for c in hand if c.color == color]
            if same:  # one pass over the hand, not a remove (a pass) per card
                hand[:] = [c for c in hand if c.color != color]
            state.discard[-1:-1] = same
            if same:  # "discards 0 more cards" told nothing a player needs to read
                events.append(Event(DISCARDED_ALL, player, card, n=len(same)))
            if hand:
                advance(state)
            return True
        return None
