"""Core's shared words name no kind of place: the same refusal, help line or
records line reaches a Telegram group, a Discord channel and a web table.

Before, core said "There is no game in this chat.", "Only a chat admin can
change this chat's rules.", "Rules in this chat"... and a Discord member (in
a channel) or a web player (at a table) read about a chat they were not in.
Core now says "here" (`Here: 3 matches finished`), in every language; a
front-end's own texts (Telegram's, the operator's commands) may still say chat.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from unobot.chat.i18n import LANGUAGES, LOCALE_DIR
from unobot.chat.render import CHAT_ERRORS, error_text

#: Each language's words for "chat" (or Telegram's "group") as the catalogues used them.
PLACE_WORDS = {
    "en": r"\bchats?\b", "ca": r"\bxats?\b", "de": r"\bChats?\b|Chat-", "es": r"\bchats?\b", "fr": r"\bchats?\b",
    "it": r"\bchat\b", "pt_BR": r"\bchats?\b", "pl": r"\bczac|\bczat", "ru": r"\bчат", "uk": r"\bчат",
    "tr": r"sohbet", "id": r"obrolan", "vi": r"cuộc trò chuyện|\bnhóm\b", "hi": r"चैट",
    "ar": r"المحادثة|الدردشة|دردشة", "zh_CN": r"聊天|本群|群管理", "zh_TW": r"聊天|本群|群管理",
}

#: Where core's shared words live (a front-end's own texts are its business).
CORE = re.compile(r"^core/")
#: Where core names each front-end's kind of place, which is that front-end's word.
NAMING_KINDS = "core/chat/place_names.py"


def core_messages(lang: str) -> list[tuple[str, list[str]]]:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "unobot.po").open("rb") as f:
        catalog = read_po(f, locale=lang)
    out = []
    for message in catalog:
        if not message.id or not message.locations:
            continue
        if not all(CORE.match(path) for path, _line in message.locations):
            continue  # also a front-end's own text (Telegram's words may say chat)
        if all(path == NAMING_KINDS for path, _line in message.locations):
            continue  # a kind of place named on purpose ("A Telegram chat", for `/me` read elsewhere)
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        texts = list(message.string) if isinstance(message.string, (tuple, list)) else [message.string]
        out.append((ids[0], texts))
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_core_text_names_a_chat(lang: str) -> None:
    place = re.compile(PLACE_WORDS[lang])
    said = [(msgid, text) for msgid, texts in core_messages(lang) for text in texts
            if place.search(re.sub(r"\{\w*\}", "", text))]  # a placeholder's name is no word read
    assert not said, f"{lang}: core texts that name a chat: {said[:5]}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_chat_refusal_reads_right_in_a_channel_or_at_a_table(lang: str) -> None:
    """The refusals every front-end shows as core words them (Discord's
    `/uno new`, the web's own), read in each language."""
    place = re.compile(PLACE_WORDS[lang])
    for code in CHAT_ERRORS:
        for commands in ({"new": "/uno new", "rules": "/uno rules", "stop": "/uno stop"}, None):
            text = error_text(code, lang, commands)
            assert not place.search(text), (lang, code, text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_web_tables_link_refusals_name_the_games_message_not_a_chat(lang: str) -> None:
    """A web table opened from a Discord channel's link read "open the table
    again from the chat": the link is on the game's message on Telegram and
    on Discord alike."""
    from unobot.adapters.web.texts import refusal

    place = re.compile(PLACE_WORDS[lang])
    for code in ("expired", "no_auth"):
        assert not place.search(refusal(code, lang)), (lang, code, refusal(code, lang))
