"""Auto colour: a wild takes the colour its player holds most (after
playing it); the colour the player names only breaks a tie.

Decision: on a tie the named colour wins if it is among the tied colours,
otherwise the first of red, yellow, green, blue; a player left with no
coloured card gets the colour they named.
"""

from unobot import N_, Event, GameState, Move, Rule, hookimpl
from unobot.cards import COLORS
from unobot.events import COLOR_CHOSEN

AUTO_COLOUR = "auto_colour"


def most_held(hand: list, named: str | None) -> str | None:
    counts = {c: 0 for c in COLORS}
    for card in hand:
        if card.color is not None:
            counts[card.color] += 1
    best = max(counts.values())
    if best == 0:
        return named
    tied = [c for c in COLORS if counts[c] == best]
    return named if named in tied else tied[0]


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
