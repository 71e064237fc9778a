"""How a run of events is told: what every front-end's log of moves shares.

Why in core: a player who draws until a card fits (No Mercy's draw-to-match)
makes one event per card, and two Yellow 2s played at once are the same
event twice. The console merged them into one line ("Ada drew 3 cards.",
"Ada played Yellow 2. ×2") while the chats' last moves (the status message,
the web table) listed each: up to three of their five lines for one move.
Here is the one way, for every log of moves a person reads.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..events import CARD_PLAYED, CARDS_DRAWN, COLOR_CHOSEN, ROUND_WON, Event


def merge_repeats(events: Sequence[Event]) -> tuple[list[Event], list[int]]:
    """Runs of the same event as one, with how many times each came: a run
    of one player's draws is one draw of all their cards, the same event
    again (not a draw: its cards are no secret to merge) is counted, and a
    colour choice that a rule's own event has just told (random-colour's
    "drawn at random: red", auto-colour's pick: the same player, the same
    colour) is not told again as the player's choice."""
    merged: list[Event] = []
    times: list[int] = []
    for e in events:
        last = merged[-1] if merged else None
        if e.kind == CARDS_DRAWN and last is not None and last.kind == CARDS_DRAWN and last.player == e.player:
            merged[-1] = last._replace(n=last.n + e.n, cards=last.cards + e.cards)
        elif last is not None and e == last and not e.cards:
            times[-1] += 1
        elif (e.kind == COLOR_CHOSEN and last is not None and last.kind not in (COLOR_CHOSEN, CARD_PLAYED)
              and last.player == e.player and last.color == e.color):
            continue
        else:
            merged.append(e)
            times.append(1)
    return merged, times


def last_wild_colours(events: Sequence[Event]) -> set[int]:
    """The indexes of the colour choices of a wild that won the round (the
    last card: its colour was never asked, and nobody plays on it), which a
    log leaves out."""
    found: set[int] = set()
    for i, e in enumerate(events):
        if e.kind != COLOR_CHOSEN:
            continue
        for later in events[i + 1:]:
            if later.kind == CARD_PLAYED:
                break
            if later.kind == ROUND_WON and later.player == e.player:
                found.add(i)
                break
    return found
