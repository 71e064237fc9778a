"""Inline mode: a player's hand as inline results, and the chosen result as a move.

What is offered, in which order, how it reads and what command a pick
becomes is core's table model (`unobot.chat.actions.menu`): one result per
complete action (a wild once per colour, a Seven-O card once per target),
then the cards not playable now, greyed, from the menu's hand. This module
only renders it: articles, stickers, paging, the header.

Result ids are ``<chat>:<version>:<user>:<action id>``: the chat (an inline
query carries none, a chosen result must say which game it is for), the
table version the hand was built from (an old answer picked later is
refused as stale by the service), the user it was built for (another user's
id is refused before anything happens) and the model's action id
(`p<card>[.<colour>][@<person>][!]`, `d`, `d+`, `s`, `u`, `c`, `k<person>`,
`h<colour>`, `m<text>`, `M<digest>`; see core/chat/actions.py). A plugin's
move whose plain id would make the result id longer than Telegram's 64
bytes goes by its digest, so every action fits by construction. Two codes
are Telegram's own:

    x<card>   a card not playable now (refused, changes nothing)
    n<tag>    information only (no move)

Nothing in an id is trusted: the service checks the player, the version
and the move itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from telegram import InlineQueryResultsButton

from unobot.chat import actions, grammar
from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for
from unobot.chat.render import COLOR_EMOJI, card_label
from unobot.chat.table import BETWEEN_ROUNDS, LOBBY, PLAYING, Table
from unobot.chat.views import HandCard
from unobot.moves import PLAY

from .bot import Article
from .guard import parse_int, telegram_id
from .keyboards import play_keyboard
from .stickers import StickerMap

MAX_ID = 64
PAGE = 50
START_PARAMETER = "help"
#: The codes that are no action of the model (a greyed card, an information line).
UNPLAYABLE, INFO = "x", "n"


@dataclass(frozen=True)
class Choice:
    chat: str
    version: int
    user: str
    code: str


def encode(chat: str, version: int, user: str, code: str) -> str:
    return f"{chat}:{version}:{user}:{code}"


def decode(result_id: str) -> Choice | None:
    parts = result_id.split(":", 3)
    if len(parts) != 4 or not parts[3] or len(result_id.encode()) > MAX_ID:
        return None
    version = parse_int(parts[1], 0)
    if version is None or telegram_id(parts[0]) is None or telegram_id(parts[2]) is None:
        return None
    return Choice(parts[0], version, parts[2], parts[3])


def is_move(code: str) -> bool:
    """A code that names one of the model's actions (not a greyed card nor an information line)."""
    return bool(code) and code[0] not in (UNPLAYABLE, INFO)


def command_of(choice: Choice, table: Table | None = None) -> c.Command | None:
    """The neutral command a chosen result asks for (None: not a move).

    A digest code (`M...`) is looked up among what the user may do at
    `table`; on a table that moved on since the hand was shown it becomes an
    empty plugin move on the old version, which the service refuses as stale."""
    if not is_move(choice.code):
        return None
    if choice.code.startswith("M") and table is not None and table.version != choice.version:
        return c.PluginMove(text="", version=choice.version)
    return actions.decode(choice.code, choice.version, table, choice.user)


def result_id(chat: str, version: int, user: str, action: actions.Action) -> str | None:
    """The result id of an action: its plain id, or its digest when a plugin
    move's text would not fit in 64 bytes (None: it cannot fit at all)."""
    rid = encode(chat, version, user, action.id)
    if len(rid.encode()) > MAX_ID and isinstance(action.command, c.PluginMove):
        rid = encode(chat, version, user, actions.move_digest(action.command))
    return rid if len(rid.encode()) <= MAX_ID else None


def _article(result_id: str, title: str, text: str, lang: str, description: str | None = None) -> Article:
    """One result; picking it posts `text` (plain text: names need no escaping)
    into the chat, with the "My cards" button under it, so the next player
    finds their hand at the bottom of the chat."""
    chat = result_id.split(":", 1)[0]
    return Article(result_id, title, text, play_keyboard(lang, chat if telegram_id(chat) else None), description)


def info_results(chat: str, version: int, user: str, title: str, text: str, lang: str,
                 tag: str = "i") -> list[Article]:
    return [_article(encode(chat, version, user, "n" + tag), title, text, lang)]


def hand_results(table: Table, user: str, lang: str | None = None, stickers: StickerMap | None = None,
                 now: float | None = None) -> list[Article]:
    """The user's hand and moves, as core's menu lists them: titles and
    descriptions in `lang` (the player's own language; only they see the
    list), what a pick posts in the group in the table's language (everyone
    reads that); then the cards not playable now, greyed. `now` (the
    service's clock) lets core offer "skip the player whose time is up", as
    Discord's panel offers it."""
    lang = lang or table.lang
    _ = gettext_for(lang)
    chat, version = table.chat_id, table.version
    menu = actions.menu(table, user, lang, now=now)
    if menu.hand is None:
        return []
    cards = {hc.card.text: hc for hc in menu.hand.cards}
    results: list[Article] = []
    # The cards drawn last, marked (a voluntary draw, a penalty taken): the
    # private "You drew" notice may be lost, the hand says it again. A marked
    # card stays a text result: a sticker shows no description.
    new_mark = "🆕 " + _("your last draw")

    def marked(hc: HandCard | None, description: str) -> str:
        if hc is None or not hc.new:
            return description
        return f"{description} · {new_mark}" + (f" (×{hc.new})" if hc.count > 1 else "")

    for action in menu.of(actions.TURN, actions.CARD, actions.OUT_OF_TURN):
        rid = result_id(chat, version, user, action)
        if rid is None:
            continue
        hc = cards.get(action.card.text) if action.card is not None else None
        description = marked(hc, action.hint) if action.kind == PLAY else action.hint
        article = _article(rid, action.label, action.public or action.label, table.lang, description or None)
        # A plain play as the card's picture; a wild's colour, a target or UNO stay said in words.
        # Picked, it posts the move's text, never the sticker: a refused pick (a stale hand) is
        # then overwritten by the refusal, where a sticker would leave the card in the group.
        if stickers is not None and action.kind == PLAY and action.card is not None and action.color is None \
                and action.target is None and not action.uno and not action.new \
                and action.card.text in stickers.bright:
            article = article._replace(sticker=stickers.bright[action.card.text], text_instead=True)
        results.append(article)
    for hc in actions.unplayable(menu.hand):
        rid = encode(chat, version, user, UNPLAYABLE + hc.card.text)
        description = marked(hc, _("Not playable now") + (f" (×{hc.count})" if hc.count > 1 else ""))
        article = _article(rid, "✖ " + card_label(hc.card, lang), "🤔", table.lang, description)
        if stickers is not None and not hc.new and hc.card.text in stickers.dim:  # greyed; picked, it posts 🤔
            article = article._replace(sticker=stickers.dim[hc.card.text], text_instead=True)
        results.append(article)
    return results


def game_picker(tables: list[Table], user: str, lang: str) -> list[Article]:
    """One result per running game of the player: picking one posts a "My
    cards" button for that game (its inline query names the game)."""
    _ = gettext_for(lang)
    out = []
    for table in tables[:PAGE]:
        place = str(table.adapter.get("title") or "") or _("the game in chat {chat}").format(chat=table.chat_id)
        title = f"🃏 {place}"
        rid = encode(table.chat_id, table.version, user, "ng")
        out.append(Article(rid, title, title, play_keyboard(table.lang, table.chat_id), header(table, user, lang)))
    return out


def matching(results: list[Article], text: str, lang: str | None = None) -> list[Article]:
    """Results whose title contains what the player typed after @bot ("r5",
    "green"), else the cards the text names in the grammar of typed play
    (core/chat/grammar.py: `5 rouge`, `j7`, `Farbwahl Zieh Vier grün`, in
    any language, the player's own first); all of them when nothing is
    typed or nothing matches."""
    words = text.lower().split()
    if not words:
        return results
    found = [r for r in results if all(w in r.title.lower() for w in words)]
    return found or _named(results, text.split(), lang) or results


def _named(results: list[Article], words: list[str], lang: str | None) -> list[Article]:
    """The results for the cards `words` name (a wild with the colour named after it, if one is)."""
    wanted: dict[str, set[str | None]] = {}
    for card, used in grammar.card_readings(words, lang):
        rest = words[used:]
        color = grammar.color_word(" ".join(rest), lang=lang) if rest and card.is_wild else None
        wanted.setdefault(card.text, set()).add(color)
    out = []
    for result in results:
        choice = decode(result.id)
        if choice is None or not choice.code.startswith(("p", UNPLAYABLE)):
            continue
        code, _dot, color = choice.code[1:].rstrip("!").split("@")[0].partition(".")
        colors = wanted.get(code)
        if colors is not None and (None in colors or color in colors):
            out.append(result)
    return out


def header(table: Table, user: str, lang: str | None = None) -> str:
    """The line above the results: the top card and whose turn it is."""
    lang = lang or table.lang
    _ = gettext_for(lang)
    game = table.game
    if table.phase == LOBBY:
        return _("The game has not started yet")
    if table.phase == BETWEEN_ROUNDS:
        return _("Round over: press Next round")
    if table.phase != PLAYING or game is None:
        return _("The game is over")
    top = game.top
    top_text = f"{COLOR_EMOJI.get(game.color, '⬛')} {top.text}" if top is not None else ""
    seat = game.turn
    if 0 <= seat < len(table.seats) and table.seats[seat].id == user:
        turn = _("your turn")
    else:
        turn = _("{player}'s turn").format(player=table.seats[seat].name if 0 <= seat < len(table.seats) else "?")
    return f"{top_text} · {turn}"[:64]


def results_button(text: str) -> InlineQueryResultsButton:
    """Shown above the results; opens a private chat with the bot's help."""
    return InlineQueryResultsButton(text=text, start_parameter=START_PARAMETER)


def page(results: list[Article], offset: str) -> tuple[list[Article], str]:
    """Telegram takes 50 results an answer; the rest come with `next_offset`."""
    start = parse_int(offset, 0, len(results)) or 0
    chunk = results[start:start + PAGE]
    following = str(start + PAGE) if start + PAGE < len(results) else ""
    return chunk, following
