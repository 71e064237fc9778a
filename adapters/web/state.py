"""What one page gets: the table as its player may see it, as JSON.

Why built here from core's table model and nothing else: the page is a
renderer. `table_view` gives the public table (seats in play order, counts,
never cards), `menu` gives what this person may do now (each action with
its id, label and the choices it still needs), `hand_view` (through the
menu) gives this person's own cards. No other hand is ever read, so no
payload can carry another player's card (tests/web scan every payload).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from unobot.cards import Card
from unobot.chat.actions import CARD, OUT_OF_TURN, PLAY, Action, again_action, menu
from unobot.chat.i18n import gettext_for, ngettext_for
from unobot.chat.render import COLOR_EMOJI, card_label, card_name, color_name
from unobot.chat.table import LOBBY, PLAYING, Table
from unobot.chat.views import (
    round_clock_line,
    round_clock_seconds,
    round_headline,
    round_left,
    round_length_line,
    table_view,
    turn_left,
)

COLOR_LETTERS = ("R", "Y", "G", "B")


def card_url(card: Card) -> str:
    """Relative to the page (never "/cards/..."): a page served under a reverse proxy's
    sub-path (`web.public_url: https://example.org/uno`) asks for its pictures under it."""
    return "cards/" + quote(card.text, safe="") + ".png"


def card_json(card: Card, lang: str) -> dict[str, Any]:
    return {"code": card.text, "label": card_label(card, lang), "name": card_name(card, lang),
            "color": card.color, "img": card_url(card)}


def action_json(a: Action) -> dict[str, Any]:
    out: dict[str, Any] = {"id": a.id, "kind": a.kind, "group": a.group, "label": a.label,
                           "hint": a.hint, "emoji": a.emoji, "code": a.code}
    if a.confirm:
        out["confirm"] = a.confirm
    if a.card is not None:
        out["card"] = a.card.text
    if a.needs:
        out["needs"] = list(a.needs)
        # The picker's title is the action's label: each choice says only what it adds
        # (`Wild → Red` under `Wild`: `Red`), as core's `choice_label` cuts it.
        out["choices"] = [{"id": ch.id, "label": a.choice_label(ch), "color": ch.color, "emoji": ch.emoji,
                           "code": ch.code} for ch in a.choices]
    return out


def round_clock(table: Table, lang: str, now: float | None) -> dict[str, Any]:
    """A rule's round clock (blitz) for the page: the seconds left (core's `round_left`;
    None: no clock runs), the chats' status line for it, and the page's countdown label
    ("{time}" stands for minutes:seconds, counted down in the page)."""
    _ = gettext_for(lang)
    left = None if now is None else round_left(table, now)
    seconds = round_clock_seconds(table) if table.phase == LOBBY else 0
    return {"round_left": left, "round_text": "" if left is None else round_clock_line(left, lang),
            # before the deal, how long each round will last (the chats' lobby says it too)
            "round_length": round_length_line(seconds, lang) if seconds else "",
            # TRANSLATORS: {time} is the minutes and seconds left, as 4:05.
            "round_label": "" if left is None else "⏱ " + _("Round ends in {time}")}


def payload(table: Table | None, person: str, lang: str, *, now: float | None = None,
            chat: str = "", is_admin: bool = False, offer_again: bool = False) -> dict[str, Any]:
    """The state message for `person` (their hand only) in `lang`; `is_admin`:
    they are an admin of the table (the menu offers what an admin may do, and
    the page its settings panel); `offer_again`: with no game at all, the page
    offers core's "Play again" (a browser table, which has no `/new` to type)."""
    _ = gettext_for(lang)
    if table is None:
        return {"type": "state", "chat": chat, "version": -1, "phase": "none", "seats": [], "hand": [],
                "actions": [action_json(again_action(lang))] if offer_again else [], "recent": [],
                "seat": None, "admin": is_admin}
    view = table_view(table, lang)
    m = menu(table, person, lang, now=now, is_admin=is_admin)
    grouped = m.grouped()
    # A card in the hand is tapped to make its plain play (in turn, or a jump-in);
    # every other action (UNO with a card, draw, pass, a plugin's move) is a button.
    by_card: dict[str, Action] = {}
    buttons: list[Action] = []
    for a in grouped:
        if a.kind == PLAY and a.card is not None and not a.uno and a.group in (CARD, OUT_OF_TURN) \
                and a.card.text not in by_card:
            by_card[a.card.text] = a
        else:
            buttons.append(a)
    hand = []
    if m.hand is not None:
        for hc in m.hand.cards:
            play = by_card.get(hc.card.text)
            hand.append({**card_json(hc.card, lang), "count": hc.count, "new": hc.new,
                         "playable": play is not None, "action": action_json(play) if play else None})
    ngettext = ngettext_for(lang)
    seats = []
    for p in view.in_order:
        seats.append({"seat": p.seat, "name": p.name, "cards": p.cards, "turn": p.is_turn, "next": p.is_next,
                      "uno": p.calls_uno, "ai": p.is_ai, "level": p.level_name, "out": p.is_out, "left": p.has_left, "score": p.score,
                      "me": p.seat == m.seat,
                      "count_text": ngettext("{n} card", "{n} cards", p.cards).format(n=p.cards)})
    out: dict[str, Any] = {
        "type": "state", "chat": table.chat_id, "version": table.version, "phase": view.phase,
        "variant": view.variant_title, "seat": m.seat, "round": view.round,
        "top": card_json(view.top, lang) if view.top is not None else None,
        "color": view.color, "color_name": color_name(view.color, lang) if view.top is not None else "",
        "color_emoji": COLOR_EMOJI.get(view.color, "") if view.top is not None else "",
        "direction": view.direction, "pending": view.pending, "draw_size": view.draw_size,
        "turn": view.turn, "turn_name": view.turn_name, "next_seat": view.next_seat,
        "seats": seats, "hand": hand, "actions": [action_json(a) for a in buttons],
        "recent": view.recent[-8:], "headline": round_headline(table, lang) or "",
        "turn_seconds": view.turn_seconds,
        # The turn clock, as the chats' status says it ("15 seconds per turn"), and the
        # seconds the person on turn has left (core's `turn_left`; None: no clock runs).
        "timer_text": ngettext("{n} second per turn", "{n} seconds per turn", view.turn_seconds).format(
            n=view.turn_seconds) if view.turn_seconds and view.phase in (LOBBY, PLAYING) else "",
        "turn_left": None if now is None else turn_left(table, now),
        # A rule's round clock (blitz): the seconds the round has left (core's `round_left`;
        # None: no clock runs), the chats' status line for it, and the page's countdown
        # label, "{time}" standing for minutes:seconds.
        **round_clock(table, lang, now),
        "admin": is_admin,
        # Stop, for the creator or an admin (core's `Menu.stop`): apart from the moves, asked first.
        "stop": action_json(m.stop) if m.stop is not None else None,
        "leave": action_json(m.leave) if m.leave is not None else None,
    }
    if view.on_turn >= 0:  # nobody is on turn between rounds or after the match
        out["turn_text"] = _("Turn: {player}").format(player=view.turn_name)
    return out
