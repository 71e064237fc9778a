"""Auto colour: a wild takes the colour its player holds most (after
playing it); the colour the player names only breaks a tie.

Decision: on a tie the named colour wins if it is among the tied colours,
otherwise the first of red, yellow, green, blue; a player left with no
coloured card gets the colour they named.

Only a colour that can count is asked (`wild_colours`): none when one
colour leads, the tied ones on a tie, any when no coloured card is left.
A Wild starter takes the first player's most held colour at the deal;
only on a tie is the first player asked, among the tied colours.
"""

from collections.abc import Generator

from unobot import N_, Card, Event, GameState, Move, Rule, hookimpl
from unobot.cards import COLORS
from unobot.events import COLOR_CHOSEN

AUTO_COLOUR = "auto_colour"


def _most_held_colours(hand: list) -> tuple[str, ...]:
    """The colours `hand` holds most of, tied, in the order red, yellow,
    green, blue; none when it holds no coloured card."""
    counts = {c: 0 for c in COLORS}
    for card in hand:
        if card.color is not None:
            counts[card.color] += 1
    best = max(counts.values())
    return tuple(c for c in COLORS if counts[c] == best) if best else ()


def most_held(hand: list, named: str | None) -> str | None:
    tied = _most_held_colours(hand)
    if not tied:
        return named
    return named if named in tied else tied[0]


def worth_naming(hand: list) -> tuple[str, ...]:
    """The colours whose naming can change what `most_held` gives: the tied
    most held ones, none when one colour leads, all when none is held."""
    tied = _most_held_colours(hand)
    if not tied:
        return COLORS
    return tied if len(tied) > 1 else ()


class AutoColour(Rule):
    name = "auto-colour"
    title = {"en": "Automatic wild colour", "es": "Color del comodín automático"}
    conflicts = ("random-colour",)
    event_texts = {AUTO_COLOUR: N_("The wild takes the colour {player} holds most: {color}.")}

    @hookimpl(tryfirst=True)
    def on_wild(self, state: GameState, move: Move, color: str | None, events: list[Event]) -> bool:
        chosen = most_held(state.hands[move.player], color) or color
        state.color = chosen
        events.append(Event(AUTO_COLOUR, move.player, color=chosen))
        events.append(Event(COLOR_CHOSEN, move.player, color=chosen))
        return True

    def wild_colours(self, state: GameState, player: int, card: Card) -> tuple[str, ...]:
        hand = list(state.hands[player])
        if state.color is not None and card in hand:  # a play: counted once the card is gone
            hand.remove(card)
        return worth_naming(hand)

    @hookimpl(wrapper=True)
    def first_card(self, state: GameState, card: Card, events: list[Event]) -> Generator[None, bool, bool]:
        # A wrapper: whichever rule turns the starting card up, a Wild left
        # waiting for its colour takes the first player's most held colour
        # now, unless a tie leaves them a colour worth naming.
        handled = yield
        player = state.turn
        if state.color is None and state.discard and state.discard[-1].is_wild \
                and not worth_naming(state.hands[player]):
            chosen = most_held(state.hands[player], None)
            state.color = chosen
            events.append(Event(AUTO_COLOUR, player, color=chosen))
            events.append(Event(COLOR_CHOSEN, player, color=chosen))
        return handled
