"""What a person may type now, each offer with a word of why.

Why in core: a front-end that reads typed moves (the console) lists, under
the hand, what else may be done and the words to type for it, and while
another player is about to move, what may be done out of turn. Which moves
are offered is the hand's view (`hand_view`); how each is typed is core's
grammar (`grammar.WORDS`, `SHORT`); and the numbers are the hand's typed
order (`typed_order`), the order `grammar.parse_hand` reads a number in;
a draw to take or answer names the answers in that order (`pending_line`).
The front-end only draws the offers.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..cards import COLOR_NAMES, Card, sort_key
from ..moves import Move
from .grammar import DRAW_PLAY, SHORT, WORDS, plugin_move_word
from .i18n import gettext_for, joined
from .render import card_name, color_name, plugin_move_title
from .views import HandCard, HandView, TableView


@dataclass(frozen=True)
class Offer:
    """One thing to type: the words, why (or its short form), and the card
    it plays, when the words name the card by its number (a jump-in)."""

    word: str
    note: str = ""
    card: Card | None = None


def typed_order(hv: HandView) -> list[HandCard]:
    """The hand as it is numbered for typing: by colour, then rank, wilds
    last. Not playable-first: a card keeps its number while the hand stays the same."""
    return sorted(hv.cards, key=lambda hc: sort_key(hc.card))


def may_act(view: TableView, hv: HandView, person_id: str) -> bool:
    """Whether to wait for the person before the next player moves: whenever
    their hand's view offers a move out of turn (a jump-in, a catch, a
    plugin's move), or their own UNO after they were exposed (with one card
    left; with two they may say it any time)."""
    mine = next((p for p in view.players if p.id == person_id), None)
    return bool(hv.jump_ins or hv.catches or hv.extras or (hv.uno and mine is not None and mine.cards == 1))


def pending_line(view: TableView, hv: HandView | None, lang: str) -> str:
    """A draw the player on turn must take or answer: to them (`hv` on turn),
    with the cards they may answer with, in the order they are numbered;
    to anyone else, who must. "" when no draw is pending."""
    _ = gettext_for(lang)
    if not view.pending:
        return ""
    if hv is None or not hv.is_turn:
        return _("{player} must draw {n}, or answer it.").format(player=view.turn_name, n=view.pending)
    answers = [card_name(hc.card, lang) for hc in typed_order(hv) if hc.playable]
    if not answers:
        return _("You must draw {n}.").format(n=view.pending)
    return _("You must draw {n}, or answer with {cards}.").format(n=view.pending, cards=joined(answers, lang))


def turn_offers(hv: HandView, view: TableView, lang: str) -> list[Offer]:
    """What else may be typed on the person's turn besides a card: the
    starting wild's colour, a plugin's moves, draw, pass, UNO, a challenge, a catch."""
    _ = gettext_for(lang)
    offers: list[Offer] = []
    if hv.colors:
        offers.append(Offer(_("color red"),
                            _("name the colour of the starting wild card: red, yellow, green or blue")))
    for m in hv.extras:
        offers.append(_plugin_offer(m, view, lang))
        if m in hv.uno_extras:  # `multi R5 G5 uno`: UNO with the move, as `3 uno` with a card
            offers.append(Offer(f"{_plugin_offer(m, view, lang).word} uno", _("say UNO and play these cards")))
    if hv.draw:
        offers.append(Offer(_(WORDS["draw"]), _("take {n}").format(n=hv.pending) if hv.pending else _(SHORT["draw"])))
        if not hv.pending:
            offers.append(Offer(_(SHORT[DRAW_PLAY]), _("draw, and play it if it fits")))
    if hv.pass_:
        offers.append(Offer(_(WORDS["pass"]), "p"))
    if hv.uno:
        n = next((i for i, hc in enumerate(typed_order(hv), 1) if hc.playable), None)
        offers.append(Offer("uno", _("or {n} uno: say UNO and play card {n}").format(n=n) if n else "u"))
    if hv.challenge:
        offers.append(Offer(_(WORDS["challenge"]), _("was the Wild Draw Four a bluff?")))
    return offers + _catches(hv, view, lang)


def out_of_turn_offers(hv: HandView, view: TableView, lang: str) -> list[Offer]:
    """What may be typed while another player is about to move: a jump-in
    (by the card's number), a catch, one's own UNO, a plugin's moves."""
    _ = gettext_for(lang)
    index = {hc.card: i for i, hc in enumerate(typed_order(hv), 1)}
    jump = sorted({m.card for m in hv.jump_ins if m.card is not None}, key=lambda card: index.get(card, 99))
    offers = [Offer(_("jump in with {n}:").format(n=index.get(card, "?")), card=card) for card in jump]
    offers += _catches(hv, view, lang)
    if hv.uno:
        offers.append(Offer("uno", _("say it before someone catches you")))
    return offers + [_plugin_offer(m, view, lang) for m in hv.extras]


def _plugin_offer(move: Move, view: TableView, lang: str) -> Offer:
    """A plugin's move: the words the reader types (its title in their
    language, `plugin_move_word`), with the title beside it where the words are others.
    A target is offered by the seat's name, as a catch is (the move's own
    text says `@2`, the log's form, which no player reads as a person), and
    a colour in the reader's words, as the grammar reads it back."""
    text = move.text
    if move.color:  # the colour in the reader's words (the text has the log's English name)
        kind, *rest = text.split()
        said = color_name(move.color, lang).lower()
        text = " ".join([kind, *(said if w == COLOR_NAMES[move.color] else w for w in rest)])
    if move.target is not None:
        name = next((p.name for p in view.players if p.seat == move.target), None)
        if name is not None:
            text = text.removesuffix(f"@{move.target}") + name
    word = plugin_move_word(text, move.kind, lang)
    title = plugin_move_title(move.kind, lang)
    return Offer(word, "" if word.startswith(title) else title)


def _catches(hv: HandView, view: TableView, lang: str) -> list[Offer]:
    """`catch NAME` for each player who may be caught not saying UNO."""
    _ = gettext_for(lang)
    names = {p.seat: p.name for p in view.players}
    return [Offer(f"{_(WORDS['catch'])} {names.get(m.target if m.target is not None else -1, '')}".strip(),
                  _("forgot to say UNO")) for m in hv.catches]
