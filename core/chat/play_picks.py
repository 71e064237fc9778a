"""A typed play and what it still needs: a colour, a player, which reading.

Why in core: a front-end that reads typed text (the console today) gets a
card from core's grammar (`grammar.parse_hand`) but not always the whole
move: `3` is a wild with no colour, `R7` under Seven-O names nobody, `3 uno`
may come when UNO cannot be said. What may still be asked, and in which
order, is the table model's (the menu's plays of that card: their colours,
their targets, `finishing`), and so is how a typed answer picks from it
(a number, a colour word, the start of a name) and what is said when it
picks nothing. A front-end only asks and draws the choices.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .. import engine
from ..cards import COLOR_NAMES, COLORS, Card, parse_card
from ..moves import PLAY, Move
from . import commands as c
from .actions import Action, menu
from .commands import parse_int
from .grammar import color_word
from .i18n import N_, gettext_for
from .render import error_text
from .table import Table
from .uno_timing import uno_after_play
from .views import HandView, TableView


def ordered_colors(moves: Iterable[Move | Action]) -> list[str]:
    """The colours the moves (or the table model's actions) offer, in the deck's colour order."""
    offered = {m.color for m in moves if m.color}
    return [color for color in COLORS if color in offered]


@dataclass(frozen=True)
class PlayNeeds:
    """A typed play checked against the menu: its card, whether UNO is said
    with it, and the menu's plays of that card (one per colour and target)."""

    card: Card
    uno: bool
    plays: tuple[Action, ...]
    #: The colour the line named (`3 red`), else None.
    color: str | None = None
    #: The player the line named, else None.
    target: str | None = None

    def colors(self) -> tuple[str | None, list[str]]:
        """The colour decided already (named on the line, or the one a last
        card takes: the round ends, no colour matters) and none to choose
        from; else None and the colours to choose from (none: no colour to take)."""
        if self.color is not None:
            return self.color, []
        colors = ordered_colors(self.plays)
        if colors and any(a.finishing for a in self.plays if a.color == colors[0]):
            return colors[0], []
        return None, colors

    def seats(self, color: str | None) -> tuple[list[int], bool]:
        """The seats the play may aim at in `color` (none when the line named
        a player), and whether aiming at nobody is one of the choices."""
        plays = [a for a in self.plays if a.color in (color, None)] if color is not None else list(self.plays)
        if self.target is not None:
            return [], False
        seats = list(dict.fromkeys(a.target for a in plays if a.target is not None))
        return seats, bool(seats) and any(a.target is None for a in plays)

    def command(self, color: str | None, target: str | None) -> c.Play:
        """The play with what was chosen: UNO and the card as one command
        (both happen, or, the card refused, neither)."""
        return c.Play(card=self.card.text, color=COLOR_NAMES[color] if color else None,
                      target=target or self.target, uno=self.uno)


def play_needs(table: Table, person_id: str, play: c.Play, view: TableView, hv: HandView,
               lang: str) -> PlayNeeds | str:
    """What `play` (read from a typed line) still needs, or why it is refused
    whole: `3 uno` when UNO cannot be said now plays nothing (the card alone
    might not be what the player meant)."""
    mine = next((p for p in view.players if p.id == person_id), None)
    card = parse_card(play.card)
    uno = play.uno and (hv.uno is not None or _leaves_one(table, hv.seat, card))
    if play.uno and not uno and not (mine is not None and mine.said_uno):
        _ = gettext_for(lang)
        # Two sentences, joined as the language joins them (Chinese needs no space).
        return _(N_("{detail} {refusal}")).format(detail=error_text("uno_not_now", lang),
                                                  refusal=_("Nothing was played: type the card without uno."))
    plays = tuple(a for a in menu(table, person_id, lang).actions if a.kind == PLAY and a.card is card and not a.uno)
    return PlayNeeds(card, uno, plays, color_word(play.color) if play.color else None, play.target)


def _leaves_one(table: Table, seat: int, card: Card) -> bool:
    """Whether a play of `card` takes the hand from three cards or more down
    to one (a Discard All), so UNO goes with it, said once it lands."""
    game = table.game
    if game is None or game.turn != seat:
        return False
    return any(m.kind == PLAY and m.card is card and uno_after_play(game, m)
               for m in engine.legal_moves(game, seat))


# -- a typed answer to "which one?" ---------------------------------------------------

def pick_number(word: str, count: int) -> int | None:
    """The index (from 0) a typed choice number names among `count`, else None."""
    n = parse_int(word)
    return n - 1 if n is not None and 1 <= n <= count else None


def pick_color(word: str, colors: Sequence[str], lang: str) -> str | None:
    """The colour a typed answer picks: its number, else a colour word (the
    reader's own words first: `v` is vàng to a Vietnamese player)."""
    n = pick_number(word, len(colors))
    if n is not None:
        return colors[n]
    color = color_word(word, lang=lang)
    return color if color in colors else None


def pick_name(word: str, names: Sequence[str]) -> int | None:
    """The index a typed answer picks among `names`: its number, else the
    start of exactly one name."""
    n = pick_number(word, len(names))
    if n is not None:
        return n
    named = [i for i, name in enumerate(names) if name.lower().startswith(word.lower())]
    return named[0] if len(named) == 1 else None


def retry_text(kind: str, count: int, lang: str) -> str:
    """What to type instead, after an answer that picked nothing (`kind`:
    "color", "player", or anything else for a choice by number)."""
    _ = gettext_for(lang)
    if kind == "color":
        return _("Type a number from 1 to {n}, or a colour name (Enter cancels).").format(n=count)
    if kind == "player":
        return _("Type a number from 1 to {n}, or the start of a name (Enter cancels).").format(n=count)
    if count == 2:
        return _("Type 1 or 2 (Enter cancels).")
    return _("Type a number from 1 to {n} (Enter cancels).").format(n=count)
