"""The typed grammar in words: each way to type a move or a records
command, and what it does, in the reader's language.

Why in core: the words are core's grammar (`grammar.WORDS`, `SHORT`: `d` is
`r` in Spanish) and core's records commands (`answers.RECORDS`, the period
words of `typed.PERIODS`); a help that lists them from anywhere else would
drift from what is read. A front-end that reads typed moves (the console)
adds its own words (redraw, quit, ...) and draws the rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import typed
from .grammar import DRAW_PLAY, SHORT, WORDS, plugin_move_word
from .i18n import gettext_for, rule_text

if TYPE_CHECKING:
    from ..ruleset import RuleSet


def top_usage(lang: str) -> str:
    """`top [week|month|all]` with the period words the reader types (`top [semana|mes|todo]`)."""
    words = [typed.first_form(lang, typed.PERIODS[p]) for p in ("week", "month", "all")]
    return "top [" + "|".join(words) + "]"


def move_rows(lang: str) -> list[tuple[str, str]]:
    """(What to type, what it does) for every kind of move the grammar reads."""
    _ = gettext_for(lang)
    play = _(WORDS["play"])
    return [
        ("3", _("play card 3 of your hand (the numbers in front of the cards)")),
        (_("Red 5 · R5 · {play} R5").format(play=play),
         _("play a card by its name, as shown or short: R5, G+2, BS (skip), YR (reverse), W, W+4")),
        (_("R⊘ · ⊘ red · ⇄+4 green"),
         _("play a card by the symbol on it, with its colour (alone: the one you hold, or you are asked)")),
        (_("3 red · W+4 green · w yel"), _("play a wild and choose its colour (or be asked)")),
        (_("{play} R7 ada").format(play=play), _("play a card that targets a player (seven-o: swap hands)")),
        ("3 uno", _("say UNO and play card 3 in one go")),
        (f"{_(WORDS['draw'])} · {_(SHORT['draw'])}", _("draw a card (or take the pending cards)")),
        (_(SHORT[DRAW_PLAY]), _("draw, and play it if it fits (a wild takes the colour you hold most)")),
        (f"{_(WORDS['pass'])} · p", _("end your turn after drawing, where the rules allow")),
        ("uno · u", _("say UNO when you are down to one or two cards")),
        (_("{catch} [NAME] · {c}").format(catch=_(WORDS["catch"]), c=_(SHORT["catch"])),
         _("catch a player who forgot to say UNO")),
        (f"{_(WORDS['challenge'])} · {_(SHORT['challenge'])}", _("challenge a Wild Draw Four played on you")),
    ]


def rule_rows(rules: RuleSet | None, lang: str) -> list[tuple[str, str]]:
    """(What to type, what it is) for what the rules in play add: each move
    kind a person may send (`Rule.move_kinds`, not the chat's own
    `system_moves`) with its title, and each card kind (`Rule.cards`) as
    its code (`R+3`, `WL`) with its name, all in the reader's language.

    Why: the grammar reads them (a move by its kind, a card by its code or
    name), but the fixed rows above cannot know them, so a plugin's move
    and card were offered on screen yet missing from `help`."""
    from ..cards import Card
    from .render import card_name

    if rules is None:
        return []
    rows: list[tuple[str, str]] = []
    for rule in rules.rules.values():
        cls = type(rule)
        for kind, title in cls.move_kinds.items():
            if kind not in cls.system_moves:  # its title in the reader's language, and its kind: both read
                word = plugin_move_word(kind, kind, lang)
                rows.append((kind if word == kind else f"{word} · {kind}", rule_text(cls, title, lang)))
        for card_kind in cls.cards:
            card = Card.get(None if card_kind.wild else "R", card_kind.rank)
            rows.append((card.text, card_name(card, lang)))
    return rows


def records_rows(lang: str) -> list[tuple[str, str]]:
    """(What to type, what it does) for the players' records commands (`answers.RECORDS`)."""
    _ = gettext_for(lang)
    return [
        (top_usage(lang), _("the standings here: wins, games, points and rating (this week, this month, all time)")),
        ("me", _("your record and rating in every chat you finished a match in")),
        ("last", _("the last finished match: who won, the scores, its last moments")),
        ("forgetme", _("remove your records and your name from the kept games")),
    ]
