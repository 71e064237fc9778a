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

from ..cards import Card, sort_key
from ..moves import CHALLENGE
from . import typed
from .grammar import DRAW_PLAY, SHORT, WORDS
from .i18n import N_, gettext_for, rule_text

if TYPE_CHECKING:
    from ..ruleset import RuleSet


def top_usage(lang: str) -> str:
    """`top [week|month|all]` with the period words the reader types (`top [semana|mes|todo]`)."""
    words = [typed.first_form(lang, typed.PERIODS[p]) for p in ("week", "month", "all")]
    return record_word(lang, "top") + " [" + "|".join(words) + "]"


def record_word(lang: str, name: str) -> str:
    """A records command as the help shows it to type: the reader's word and
    the English name every front-end reads (`clasificación · top`), or the name alone."""
    english = typed.RECORD_WORDS[name]  # the chats' name of it (`resetstats` for the reset)
    word = typed.first_form(lang, english)
    return english if typed.fold(word) == english else f"{word} · {english}"


def _shown(key: str, rules: RuleSet) -> bool:
    """Whether a fixed row that only some rule makes a move applies: a
    target when a house rule aims cards at players (`card_targets`: seven-o,
    a plugin's), a challenge when a rule in force applies one (`has_move`):
    asked of what the rules do, never of their names."""
    if key == "target":
        return rules.count_impls("card_targets", lambda i: not getattr(i.plugin, "base", False)) > 0
    if key == "challenge":
        return rules.has_move(CHALLENGE)
    return True


def move_rows(lang: str, rules: RuleSet | None = None) -> list[tuple[str, str]]:
    """(What to type, what it does) for every kind of move the grammar reads;
    with `rules`, without the moves no rule in play allows (a challenge
    without the challenge rule, a target without seven-o)."""
    rows = _move_rows(lang)
    if rules is None:
        return [row for _key, row in rows]
    if not rules.wild_colour_named:
        rows = _rule_coloured(rows, lang)
    return [row for key, row in rows if _shown(key, rules)]


def _rule_coloured(rows: list[tuple[str, tuple[str, str]]], lang: str) -> list[tuple[str, tuple[str, str]]]:
    """The rows about a wild's colour when a rule gives wilds their colour
    (`RuleSet.wild_colour_named` false: random or automatic colour).

    Why: the engine then offers a wild naming no colour, or one only where a
    tie leaves the choice to the player; "choose its colour" and "a wild
    takes the colour you hold most" promised what the table does not do."""
    _ = gettext_for(lang)
    wild = (_("W · W+4"), _("play a wild: the rules in play give it its colour (you are asked only when the "
                            "choice is yours)"))
    draw_play = _("draw, and play it if it fits (the rules in play give a wild its colour)")
    return [(key, wild if key == "wild" else (row[0], draw_play) if key == "draw_play" else row) for key, row in rows]


def _move_rows(lang: str) -> list[tuple[str, tuple[str, str]]]:
    _ = gettext_for(lang)
    play = _(WORDS["play"])
    rows = [
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
    keys = ["", "", "", "wild", "target", "", "", "draw_play", "", "", "", "challenge"]
    return list(zip(keys, rows, strict=True))


def rule_rows(rules: RuleSet | None, lang: str) -> list[tuple[str, str]]:
    """(What to type, what it is) for what the rules in play add: each move
    kind a person may send (`Rule.move_kinds`, not the chat's own
    `system_moves`) as its word and what follows it (`Rule.move_usage`:
    `multi R5 G5 B5`) with its title and what it does (`Rule.move_hints`),
    and each card the variant deals or a
    rule declares that the fixed rows do not name (`Rule.cards`, and cards
    of the deck such as No Mercy's `W+6`, `W+10`, `R+4`) as its code with
    its name, all in the reader's language.

    Why: the grammar reads them (a move by its kind or its title, a card by
    its code or name), but the fixed rows above cannot know them, so a
    plugin's move and card, and a deck's own cards, were offered on screen
    yet missing from `help`. Why the kind on the left and the title on the
    right: a translated title on both sides said the same thing twice; the
    title, read too, stays in view."""
    from .render import card_name

    if rules is None:
        return []
    rows: list[tuple[str, str]] = []
    declared: list[Card] = []
    for rule in rules.rules.values():
        cls = type(rule)
        for kind, title in cls.move_kinds.items():
            if kind not in cls.system_moves:
                usage = cls.move_usage.get(kind, "")
                usage = rule_text(cls, usage, lang) if usage else ""  # a word in it may be translated
                said = rule_text(cls, title, lang)
                hint = cls.move_hints.get(kind, "")
                if hint:  # what it does, as a built-in row says (`Rule.move_hints`)
                    said = gettext_for(lang)(MOVE_HINT).format(move=said, hint=rule_text(cls, hint, lang))
                rows.append((f"{kind} {usage}".strip(), said))
        declared += [Card.get(None if k.wild else "R", k.rank) for k in cls.cards]
    cards = list(dict.fromkeys([*declared, *sorted(_dealt(rules), key=sort_key)]))
    rows += [(card.text, card_name(card, lang)) for card in cards]
    return rows


#: A rule's move in help: its title, then what it does (its hint), with the language's colon.
MOVE_HINT = N_("{move}: {hint}")


#: The cards the fixed rows name ("R5, G+2, BS, YR, W, W+4"): by colour and rank.
_NAMED_RANKS = frozenset({*"0123456789", "S", "R", "+2"})


def _dealt(rules: RuleSet) -> set[Card]:
    """The cards of the rules' deck the fixed rows do not name, one a kind
    (red for a coloured one, as `R+4`: any colour's letter is read)."""
    from ..engine import _deck

    try:
        deck = _deck(rules, 4)
    except Exception:  # a rule whose deck hook fails is said when a game is dealt, not in help
        return set()
    out: set[Card] = set()
    for card in deck:
        if card.is_wild:
            if card.rank not in ("", "+4"):  # W and W+4
                out.add(card)
        elif card.rank not in _NAMED_RANKS:
            out.add(Card.get("R", card.rank))
    return out


def records_rows(lang: str, admin: bool = False) -> list[tuple[str, str]]:
    """(What to type, what it does) for the players' records commands
    (`answers.RECORDS`), and with `admin` the reset of the standings."""
    _ = gettext_for(lang)
    rows = [
        (top_usage(lang), _("the standings here: wins, games, points and rating (this week, this month, all time)")),
        (record_word(lang, "me"), _("your record and rating wherever you finished a match")),
        (record_word(lang, "last"), _("the last finished match: who won, the scores, its last moments")),
        (record_word(lang, "forgetme"), _("remove your records and your name from the kept games")),
    ]
    if admin:
        rows.append((record_word(lang, "reset"),
                     _("clear the standings and ratings here for everyone (the kept games stay)")))
    return rows
