"""A member's own panel in words: what a private hand says above its buttons.

Why in core: a front-end that shows a member their hand privately (Discord's
ephemeral panel, Telegram's inline results header, the web table's heading)
says the same things: where the table is (not seated, the lobby, a round
over, the match over), the top card with its colour, whose turn it is, a
draw waiting on someone, and the cards with those playable now marked.
Discord and Telegram each wrote that out and their wordings drifted; here
it is once, as fields, and a front-end only adds its markup.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .actions import Menu
from .i18n import gettext_for
from .markup import BOLD, PLAIN, Line, bold, plain
from .render import COLOR_EMOJI, card_name
from .status_text import rules_gone_line
from .table import BETWEEN_ROUNDS, FINISHED, LOBBY, PLAYING, Table
from .views import status_lines, table_view


@dataclass(frozen=True)
class HandText:
    """The words of one member's panel; an empty field is not shown.

    `note` is where the table is when that is all there is to say (and
    `title` marks the lobby's line, a heading); `top` is the top card and
    its colour (`color`, for a front-end's swatch); `cards` each card's
    words (emoji, name, ×count) and whether it can be played now."""

    note: str = ""
    title: bool = False
    top: str = ""
    color: str | None = None
    turn: str = ""
    pending: str = ""
    cards: tuple[tuple[str, bool], ...] = ()


def card_words(card_text: str, color: str | None, count: int = 1) -> str:
    """A card as a hand lists it: its colour's swatch, its name, ×count for copies."""
    return f"{COLOR_EMOJI.get(color, '⬛')} {card_text}" + (f" ×{count}" if count > 1 else "")


def hand_text(table: Table, m: Menu, lang: str, commands: Mapping[str, str] | None = None) -> HandText:
    """The panel of the member whose menu is `m`, in `lang`; `commands`: the
    front-end's spelling of a command a note names (`render.error_text`'s)."""
    _ = gettext_for(lang)
    note, title = "", False
    gone = rules_gone_line(table, lang, commands)
    if gone:  # its rules cannot be loaded here: why nothing is offered, what an admin can do
        note = gone
    elif table.phase == PLAYING and m.hand is None:
        note = _("You are not playing in this game.")
    elif table.phase == BETWEEN_ROUNDS:
        note = _("Round over: press Next round")
    elif table.phase == FINISHED:
        note = _("The game is over")
    elif table.phase == LOBBY:
        note, title = status_lines(table_view(table, lang), lang)[0], True
    hv, game = m.hand, table.game
    if hv is None or game is None:
        return HandText(note, title)
    view = table_view(table, lang)
    top = status_lines(view, lang)[1] if view.top is not None else ""
    if hv.is_turn:
        turn = _("your turn")
    else:
        seat = game.turn
        turn = _("{player}'s turn").format(player=table.seats[seat].name if 0 <= seat < len(table.seats) else "?")
    pending = _("{player} must draw {n}, or answer it.").format(player=table.seats[hv.seat].name, n=hv.pending) \
        if hv.pending else ""
    cards = tuple((card_words(card_name(hc.card, lang), hc.card.color, hc.count), hc.playable) for hc in hv.cards)
    return HandText(note, title, top, view.color, turn, pending, cards)


def hand_lines(ht: HandText, notes: Sequence[str] = (), *, listed: bool = False) -> list[Line]:
    """The panel's words with their emphasis, for any markup (`markup.Markup`):
    `notes` first, where the table is (bold when a heading), the top card
    behind its colour's swatch, whose turn (bold), a draw waiting, and, when
    the member's hand is `listed`, their cards, those playable now in bold."""
    out = [plain(n) for n in notes] + ([bold(ht.note) if ht.title else plain(ht.note)] if ht.note else [])
    if ht.top:
        out.append(plain(f"{COLOR_EMOJI.get(ht.color, '⬛')} {ht.top}"))
    out += ([bold(ht.turn)] if ht.turn else []) + ([plain(ht.pending)] if ht.pending else [])
    if listed:
        cards = [(BOLD if playable else PLAIN, text) for text, playable in ht.cards]
        out.append([span for i, card in enumerate(cards) for span in ([(PLAIN, " · ")] if i else []) + [card]]
                   or plain("-"))
    return out
