"""Discord in other languages, played: a channel set to Polish, Arabic,
Chinese, Hindi, Russian or German, its members' apps in that language, a
whole game through buttons, ephemeral hands and pickers, and the commands
around it (/uno help, rules, stats, top, me, last). Nothing the bot sent
(every version of every message, public or ephemeral, and every button's
and option's label) holds an English word of the game's.

The English words are checked to be there in the English game (the same
game), so the test proves it looks for words the bot really sends. Why a
Discord test of its own: Telegram's (tests/telegram/test_languages.py) reads
Telegram's texts; Discord's status, hands, pickers and answers are rendered
by its own front-end."""

from __future__ import annotations

import re

import pytest

from tests.discord.driver import BotProcess, TableDriver
from tests.discord.test_game import short_games
from tests.discord_api import DiscordAPIServer
from tests.discord_api.server import component_texts

#: Discord's locale for a catalogue (what a member's app sends).
LOCALES = {"en": "en-US", "pl": "pl", "ar": "ar", "zh_CN": "zh-CN", "hi": "hi", "ru": "ru", "de": "de"}
#: Distinctive English words of a Discord game and the commands around it
#: (each is in the English run: `test_the_english_words_are_there_in_english`).
ENGLISH = ("played", "wins", "round", "points", "Top card", "Join", "My cards", "Draw",
           "Start", "Leave", "turn", "cards", "Official rules", "Press", "Statistics",
           "Standings", "record", "the", "and", "your", "with", "you", "Play again", "House rules", "Scores",
           "match", "rating", "won")
#: English words that are also words of a language (allowed there): "Start" in Polish and German.
SAME = {"pl": {"Start"}, "de": {"Start"}}


async def _sent_words(server: DiscordAPIServer, bot: BotProcess, lang: str) -> str:
    guild = next(iter(server.guilds.values()))
    ana = server.member("Ana", locale=LOCALES[lang], manage_guild=True)
    bo = server.member("Bo", locale=LOCALES[lang])
    driver = TableDriver(server, bot, guild.channels[0], [ana, bo])
    if lang != "en":
        await driver.slash(ana, "language", language=lang)
    await short_games(driver, scoring="target=0")
    for command in ("help", "rules", "stats"):
        await driver.slash(bo, command)
    opened = await driver.slash(ana, "new")
    assert opened.message is not None and "Ana" in opened.message.content
    await driver.press_status(bo, "j")
    await driver.press_status(ana, "g")
    await driver.play()
    for command in ("top", "me", "last"):
        await driver.slash(bo, command)
    texts: list[str] = []
    for message in server.messages.values():
        for content, components in message.versions:
            texts += [content, *component_texts(components)]
    return "\n".join(texts)


def _found(words: str) -> list[str]:
    return [w for w in ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", words)]


async def test_the_english_words_are_there_in_english(server: DiscordAPIServer, bot: BotProcess) -> None:
    said = await _sent_words(server, bot, "en")
    assert set(_found(said)) == set(ENGLISH), set(ENGLISH) - set(_found(said))
    assert set(re.findall(r"(?<![\w/])/([a-z]+)", said)) == {"uno"}, said[:3000]


@pytest.mark.parametrize("lang", ["pl", "ar", "zh_CN", "hi", "ru", "de"])
async def test_a_whole_discord_game_shows_no_english(server: DiscordAPIServer, bot: BotProcess, lang: str) -> None:
    said = await _sent_words(server, bot, lang)
    assert "Ana" in said and len(said) > 500
    left = [w for w in _found(said) if w not in SAME.get(lang, set())]
    assert left == [], (left, said[:3000])
    # A command named is Discord's own (`/uno new`), never Telegram's `/new`, `/join` or `/top`.
    assert set(re.findall(r"(?<![\w/])/([a-z]+)", said)) <= {"uno"}, said[:3000]
