"""Inline mode: a player's hand as inline results, and the chosen result as a move.

Result ids are ``<chat>:<version>:<user>:<move>``: the chat (an inline query
carries none, a chosen result must say which game it is for), the table
version the hand was built from (an old answer picked later is refused as
stale by the service), the user it was built for (another user's id is
refused before anything happens) and the move. Move codes:

    p<card>[.<colour letter>][@<target person id>][!]   play (R5, W+4.G, R7@123;
                                                         ! says UNO with it: R5!)
    d  draw     d+  draw, and play the card if it fits     s  pass
    u  UNO      c  challenge     k<person id>  catch
    x<card>   a card not playable now (refused, changes nothing)
    n<tag>    information only (no move)

Nothing in an id is trusted: the service checks the player, the version
and the move itself.
"""

from __future__ import annotations

import base64
import hashlib
from dataclasses import dataclass, replace

from telegram import InlineQueryResultsButton

from unobot.cards import COLOR_NAMES, Card
from unobot.chat import commands as c
from unobot.chat.i18n import N_, gettext_for, ngettext_for
from unobot.chat.render import COLOR_EMOJI, card_label, color_name, plugin_move_title
from unobot.chat.table import BETWEEN_ROUNDS, LOBBY, PLAYING, Table
from unobot.chat.views import HandCard, hand_view
from unobot.moves import CATCH, CHALLENGE, COLOR, DRAW, PASS, PLAY, UNO, Move

from .bot import Article
from .guard import parse_int, telegram_id
from .keyboards import play_keyboard
from .stickers import StickerMap

MAX_ID = 64
DRAW_AND_PLAY = N_("Draw, and play it if it fits")
PAGE = 50
START_PARAMETER = "help"


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


def move_code(table: Table, move: Move) -> str:
    if move.kind == PLAY and move.card is not None:
        code = "p" + move.card.text
        if move.color:
            code += "." + move.color
        if move.target is not None:
            code += "@" + table.seats[move.target].id
        return code
    if move.kind == CATCH and move.target is not None:
        return "k" + table.seats[move.target].id
    if move.kind == COLOR and move.color:
        return "h" + move.color  # hue: the colour of a Wild starter
    if move.kind not in _CORE_CODES:
        return "m" + move.text.replace(" ", "~")  # a plugin's move kind, in its text form
    return _CORE_CODES[move.kind]


_CORE_CODES = {DRAW: "d", PASS: "s", UNO: "u", CHALLENGE: "c", PLAY: "p", CATCH: "k"}


def digest_code(move: Move) -> str:
    """The code of a plugin's move whose text makes the result id longer than
    Telegram's 64 bytes (`multi R5 G5 B5 Y5 ...`): "M" and 16 characters of
    its text's SHA-256, which `plugin_move` finds again among the player's
    moves. Every move is offered, however long its text (by construction, not
    by luck of short names)."""
    digest = hashlib.sha256(move.text.encode()).digest()[:12]
    return "M" + base64.urlsafe_b64encode(digest).decode()


def plugin_move(table: Table, user: str, code: str) -> Move | None:
    """The move of a plugin's kind that `code` (a `digest_code`) names among
    what `user` may do now in `table`; None when none does (the hand moved on)."""
    view = hand_view(table, user)
    if view is None or not code.startswith("M"):
        return None
    return next((m for m in view.extras if digest_code(m) == code), None)


def command_for(code: str, version: int) -> c.Command | None:
    """The neutral command a move code asks for (None: not a move)."""
    kind, rest = code[0], code[1:]
    if kind == "p" and rest.endswith("!"):
        play = command_for(code[:-1], version)
        return replace(play, uno=True) if isinstance(play, c.Play) else None
    if kind == "p" and rest:
        target = color = None
        if "@" in rest:
            rest, target = rest.split("@", 1)
        if "." in rest:
            rest, color = rest.split(".", 1)
        color_word = COLOR_NAMES.get(color or "", color)
        return c.Play(card=rest, color=color_word, target=target or None, version=version)
    if kind == "k" and rest:
        return c.Catch(target=rest, version=version)
    if kind == "h" and rest in COLOR_NAMES:
        return c.NameColor(color=COLOR_NAMES[rest], version=version)
    if kind == "m" and rest:
        return c.PluginMove(text=rest.replace("~", " "), version=version)
    if code == "d+":
        return c.Draw(then_play=True, version=version)
    simple = {"d": c.Draw, "s": c.Pass, "u": c.SayUno, "c": c.Challenge}
    if kind in simple and not rest:
        return simple[kind](version=version)
    return None


def card_title(card: Card, lang: str) -> str:
    return f"{COLOR_EMOJI.get(card.color, '⬛')} {card_label(card, lang)}"


def move_title(table: Table, move: Move, lang: str) -> str:
    """How a move reads in the result list and in the group: `⬛ W+4 · Wild Draw Four → 🟩 green`."""
    _ = gettext_for(lang)
    if move.kind == PLAY and move.card is not None:
        text = card_title(move.card, lang)
        if move.color:
            text += f" → {COLOR_EMOJI[move.color]} {color_name(move.color, lang)}"
        if move.target is not None:
            text += " ⇄ " + table.seats[move.target].name
        return text
    if move.kind == COLOR and move.color:
        return f"{COLOR_EMOJI[move.color]} " + _("Starting colour: {color}").format(
            color=color_name(move.color, lang))
    if move.kind not in _CORE_CODES:
        return "✨ " + " ".join([plugin_move_title(move.kind, lang),
                                *(card_label(c, lang) for c in (move.card, *move.cards) if c)])
    if move.kind == DRAW:
        pending = table.game.pending if table.game is not None else 0
        if pending:
            ngettext = ngettext_for(lang)
            return "📥 " + ngettext("Take {n} card", "Take {n} cards", pending).format(n=pending)
        return "📥 " + _("Draw a card")
    if move.kind == PASS:
        return "⏭ " + _("Pass")
    if move.kind == UNO:
        return "📢 UNO!"
    if move.kind == CHALLENGE:
        return "⚖️ " + _("Challenge the Wild Draw Four")
    if move.kind == CATCH and move.target is not None:
        return "🫵 " + _("Catch {player}: no UNO!").format(player=table.seats[move.target].name)
    return move.text


def _article(result_id: str, title: str, text: str, lang: str, description: str | None = None) -> Article:
    """One result; picking it posts `text` (plain text: names need no escaping)
    into the chat, with the "My cards" button under it, so the next player
    finds their hand at the bottom of the chat."""
    chat = result_id.split(":", 1)[0]
    return Article(result_id, title, text, play_keyboard(lang, chat if telegram_id(chat) else None), description)


def info_results(chat: str, version: int, user: str, title: str, text: str, lang: str,
                 tag: str = "i") -> list[Article]:
    return [_article(encode(chat, version, user, "n" + tag), title, text, lang)]


def hand_results(table: Table, user: str, lang: str | None = None, stickers: StickerMap | None = None
                 ) -> list[Article]:
    """The user's hand and moves: titles and descriptions in `lang` (the
    player's own language; only they see the list), what a pick posts in
    the group in the table's language (everyone reads that).

    Order: at two cards on one's turn, each playable card together with
    UNO (one pick says it and plays); then UNO alone; playable cards (one
    result per colour or target where the card asks for one; out-of-turn
    cards are jump-ins), the other actions, then the cards not playable now,
    marked.
    """
    lang = lang or table.lang
    _ = gettext_for(lang)
    chat, version = table.chat_id, table.version
    view = hand_view(table, user)
    if view is None:
        return []
    game = table.game
    results: list[Article] = []
    # The cards drawn last, marked (a voluntary draw, a penalty taken): the
    # private "You drew" notice may be lost, the hand says it again. A marked
    # card stays a text result: a sticker shows no description.
    new_mark = "🆕 " + _("your last draw")

    def marked(hc: HandCard, description: str) -> str:
        if not hc.new:
            return description
        return f"{description} · {new_mark}" + (f" (×{hc.new})" if hc.count > 1 else "")

    def add(move: Move, description: str | None, uno: bool = False, new: bool = False) -> None:
        title = move_title(table, move, lang)
        posted = title if lang == table.lang else move_title(table, move, table.lang)
        code = move_code(table, move)
        if uno:  # the play and UNO in one pick
            title, posted, code = f"{title} · UNO!", f"{posted} · UNO!", code + "!"
        rid = encode(chat, version, user, code)
        if len(rid.encode()) > MAX_ID and code.startswith("m"):  # a plugin's long move text
            rid = encode(chat, version, user, digest_code(move))
        if len(rid.encode()) <= MAX_ID:
            article = _article(rid, title, posted, table.lang, description)
            # A plain play as the card's picture; a wild's colour, a target or UNO stay said in words.
            # Picked, it posts the move's text, never the sticker: a refused pick (a stale hand) is
            # then overwritten by the refusal, where a sticker would leave the card in the group.
            if stickers is not None and move.kind == PLAY and move.card is not None and not move.color \
                    and move.target is None and not uno and not new and move.card.text in stickers.bright:
                article = article._replace(sticker=stickers.bright[move.card.text], text_instead=True)
            results.append(article)

    def add_plays(uno: bool) -> None:
        for hc in view.cards:
            if not hc.playable:
                continue
            for move in hc.moves:
                if uno:
                    description = _("Say UNO and play this card")
                elif not view.is_turn:
                    description = _("Jump in with this card!")
                else:
                    description = _("Play this card")
                if hc.count > 1:
                    description += f" (×{hc.count})"
                add(move, marked(hc, description), uno, new=bool(hc.new))

    # A Wild starter: the first player names its colour before anything else.
    for move in view.colors:
        add(move, _("Name the colour of the starting wild card"))
    for move in view.extras:  # moves of plugins' own kinds
        add(move, None)
    # Going down to one card: each play together with UNO first (one pick
    # instead of two); plain plays stay offered (forgetting UNO is allowed,
    # and catchable), and UNO on its own.
    if game is not None and view.is_turn and view.uno is not None and len(game.hands[view.seat]) == 2:
        add_plays(uno=True)
    if view.uno and not view.pending:  # with cards to take first, UNO is not for now
        add(view.uno, _("(say it before someone catches you)") if view.exposed else None)
    add_plays(uno=False)
    if view.challenge:
        add(view.challenge, _("Say it was a bluff"))
    for move in view.catches:
        add(move, _("They did not say UNO"))
    if view.draw and not view.pending:
        # One pick for the usual "draw, and play it if I can".
        title = "📥 " + _(DRAW_AND_PLAY)
        posted = "📥 " + gettext_for(table.lang)(DRAW_AND_PLAY)
        rid = encode(chat, version, user, "d+")
        description = _("If it does not fit, you draw again") if view.draw_goes_on else \
            _("If it does not fit, your turn ends")
        results.append(_article(rid, title, posted, table.lang, description))
    if view.draw:
        add(view.draw, _("You choose after seeing the card") if not view.pending else None)
    if view.pass_:
        add(view.pass_, _("End your turn"))
    for hc in view.cards:
        if hc.playable:
            continue
        rid = encode(chat, version, user, "x" + hc.card.text)
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


def matching(results: list[Article], text: str) -> list[Article]:
    """Results whose title contains what the player typed after @bot ("r5",
    "green"); all of them when nothing is typed or nothing matches."""
    words = text.lower().split()
    if not words:
        return results
    found = [r for r in results if all(w in r.title.lower() for w in words)]
    return found or results


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
