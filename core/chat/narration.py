"""How a run of events is told: what every front-end's log of moves shares.

Why in core: a player who draws until a card fits (No Mercy's draw-to-match)
makes one event per card, and two Yellow 2s played at once are the same
event twice. The console merged them into one line ("Ada drew 3 cards.",
"Ada played Yellow 2. ×2") while the chats' last moves (the status message,
the web table) listed each: up to three of their five lines for one move.
Here is the one way, for every log of moves a person reads.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence

from ..cards import Card
from ..events import CARD_PLAYED, CARDS_DRAWN, COLOR_CHOSEN, ROUND_WON, Event
from .i18n import gettext_for, joined
from .render import card_name, describe_event


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


def kept_after_draw(events: Sequence[Event], me: int | None, lang: str) -> tuple[str, list[Card]] | None:
    """After "draw, and play it if it fits" (`dp`): when the drawn card did
    not fit, which card it was and that it stays in the hand (with the cards
    named, for a front-end that colours them); None when it was played."""
    drawn = [card for e in events if e.kind == CARDS_DRAWN and e.player == me for card in e.cards]
    if me is None or any(e.kind == CARD_PLAYED and e.player == me for e in events):
        return None
    _ = gettext_for(lang)
    if not drawn:
        return _("The card you drew does not fit now: you keep it."), []
    names = joined((card_name(card, lang) for card in drawn), lang)
    return _("{cards} does not fit now: you keep it.").format(cards=names), drawn


def unsaid_notices(notices: Sequence[str], events: Sequence[Event], name: Callable[[int], str],
                   lang: str) -> list[str]:
    """The notices of an outcome that no event's line says already (someone
    left, a rule's own words), for a log that tells the events one by one."""
    described = Counter(text for e in events if (text := describe_event(e, name, lang)))
    out = []
    for notice in notices:
        if described[notice]:
            described[notice] -= 1
        else:
            out.append(notice)
    return out
