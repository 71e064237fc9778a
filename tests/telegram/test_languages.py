"""Every language on Telegram, played: in each locale but English a whole game
in a group (two people and an AI player, a small hand; then a No Mercy
game), with the commands
people use around it (/help, /rules, /stats, /top, /me, /last, /language,
/timer, /variant) and each person's private chat with the bot, shows no
English word; and a card typed in that language after the bot's name finds
that card in the player's hand (Telegram's typed play: the inline search).

What is read is everything the bot sent to the local Bot API server:
messages and their edits, inline results (titles, descriptions, the texts a
pick posts, the button above them), callback answers, every button's label,
and the command menu set for that language. Why all of it and not the
group's last messages: a leak hides in a callback answer seen for a second,
or in an edit replaced by the next one.

The English words are checked to be there in the English game (the same
game), so the test proves it looks for words the bot really sends."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.botapi import BotAPIServer
from tests.telegram.driver import BotProcess, TableDriver, plain
from tests.telegram.test_game import short_games
from unobot.adapters.telegram import inline_results, keyboards
from unobot.chat import typed
from unobot.chat.actions import LEVEL_NAMES
from unobot.chat.i18n import LANGUAGES, gettext_for
from unobot.chat.render import card_name

#: The languages played (every one the bot speaks but English).
LANGS = [lang for lang in LANGUAGES if lang != "en"]

#: Distinctive English words of a Telegram game and the commands around it
#: (each is in the English run: `test_the_english_words_are_there_in_english`).
ENGLISH = ("played", "drew", "wins", "round", "rounds", "match", "points", "Top card", "colour", "Turn",
           "your turn", "Join", "My cards", "Draw", "Wild", "Skip", "Reverse", "Play this card",
           "Not playable now", "Take", "cards", "joined", "players", "Waiting for players", "opened a game",
           "Official rules", "rules", "Rules", "Statistics", "Standings", "record", "rating", "won", "Language",
           "Variant", "AI", "must draw", "chose", "out of cards", "Scores", "Press",
           "game", "Green", "Blue", "Red", "Yellow", "red", "green", "blue", "yellow", "Challenge", "bluff",
           "seconds", "House rules", "none", "Choose", "admins", "week", "month", "off", "How to play",
           "Leave", "the", "and", "your", "with", "of", "is", "to", "you", "You", "first", "Scoring",
           "Deck", "deal", "timer", "Stop", "Start the game", "all time", "last", "Everyone", "Discard",
           "Roulette", "takes", "hand", "plays again", "skips", "Draw Six", "Round", "stack")
#: The `language_code` Telegram's apps send for a catalogue whose name is not one.
TELEGRAM_CODES = {"pt_BR": "pt-br", "zh_CN": "zh-hans", "zh_TW": "zh-hant"}
#: English words that are also words of a language, as its glossary has them (allowed there).
SAME: dict[str, set[str]] = {
    "fr": {"points", "Scores", "bluff", "Roulette"}, "it": {"bluff", "timer", "Roulette"}, "ca": {"Variant"}, "pl": {"to", "Stop"},
    **{lang: {"AI"} for lang in ("hi", "id", "vi", "zh_CN", "zh_TW")},
}


def strings(value: Any, key: str = "") -> list[str]:
    """Every text a person reads in a Bot API call's parameters: texts,
    titles, descriptions and button labels, HTML taken off."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in strings(v, k)]
    if isinstance(value, list):
        return [s for v in value for s in strings(v, key)]
    if not isinstance(value, str):
        return []
    if key in ("text", "title", "description", "message_text", "caption"):
        return [plain(value)]
    if key in ("results", "reply_markup", "button", "commands"):  # sent as JSON in a form field
        try:
            return strings(json.loads(value), key)
        except ValueError:
            return []
    return []


def english_words(texts: list[str], lang: str) -> dict[str, str]:
    """The English words found, each with one text it is in."""
    allowed = SAME.get(lang, set())
    found: dict[str, str] = {}
    for word in ENGLISH:
        if word in allowed:
            continue
        pattern = re.compile(rf"(?<![\w/@#]){re.escape(word)}(?!\w)")
        for line in (line for text in texts for line in text.splitlines()):
            if pattern.search(line):
                found[word] = line
                break
    return found


async def typed_search(server: BotAPIServer, driver: TableDriver, lang: str) -> list[str]:
    """On a person's first turn, a card of their hand typed after @bot in
    `lang` (its name, then its colour's short form and its rank) is what the
    answer offers; returns what was typed."""
    for _ in range(40):
        table = await driver.table()
        assert table is not None and table.game is not None
        seat = table.game.turn
        user = driver.by_name.get(table.seats[seat].name)
        if user is not None:
            break
        await driver.wait_for_turn_change(table.version)
    else:
        raise AssertionError("no person came on turn")
    card = next((card for card in table.game.hands[seat] if not card.is_wild and card.rank.isdecimal()),
                table.game.hands[seat][0])
    typed_texts = [card_name(card, lang)]
    if card.color is not None:
        typed_texts.append(typed.forms(lang, typed.COLOR_SHORT[card.color])[0] + card.rank)
    for text in typed_texts:
        update = server.inline_query(user, text)
        await driver._do(update)
        results = server.inline_answers[update["inline_query"]["id"]]["results"]
        named = {inline_results.decode(r["id"]).code.lstrip("px").split(".")[0].rstrip("!")  # type: ignore[union-attr]
                 for r in results}
        assert named == {card.text}, (lang, text, card.text, [r.get("title") for r in results])
    return typed_texts


async def play_in(server: BotAPIServer, bot: BotProcess, lang: str) -> list[str]:
    """Two short games in `lang` (the official rules with an AI player, then
    No Mercy) with the commands around them; every text the bot sent meanwhile."""
    group = server.group(title="UNO")
    code = TELEGRAM_CODES.get(lang, lang)  # as Telegram's apps send it
    alice = server.user(101, "Alice", "alice", language_code=code)
    bob = server.user(102, "Bob", "bob", language_code=code)
    server.set_status(group, alice, "creator")
    # Privacy is test_game's (its check reads "Green Skip Everyone" as naming a held Green Skip).
    driver = TableDriver(server, bot, group, [alice, bob], seed=1, check_privacy=False)
    await short_games(bot, driver.chat, scoring="target=0")
    mark = len(server.calls)
    for person in (alice, bob):  # each may be written to privately (their drawn cards, the next game)
        await bot.settle(server.send_command(server.private_chat(person), person, "/start"))
    await driver.command(alice, "/language", lang)
    await driver.command(alice, "/new")
    await driver.press(bob, keyboards.JOIN)
    await driver.command(alice, "/ai", "1 " + gettext_for(lang)(LEVEL_NAMES["easy"]))  # the level in the chat's words
    table = await driver.table()
    assert table is not None and [s.level for s in table.seats] == [None, None, "easy"], lang
    await driver.press(alice, keyboards.START)
    await typed_search(server, driver, lang)
    await driver.play()
    await driver.command(alice, "/new", "no-mercy")  # a second, short game: the No Mercy cards and rules
    await driver.press(bob, keyboards.JOIN)
    await driver.press(alice, keyboards.START)
    await driver.play()
    week, off = typed.forms(lang, typed.PERIODS["week"])[0], typed.forms(lang, typed.OFF)[0]
    for command, args in (("/help", ""), ("/rules", ""), ("/stats", ""), ("/top", ""), ("/top", week), ("/me", ""),
                          ("/last", ""), ("/language", ""), ("/timer", ""), ("/timer", off), ("/variant", "")):
        await driver.command(alice, command, args)
    _ = gettext_for(lang)
    shown = [plain(m.get("text", "")) for m in driver.bot_messages()]
    assert any(_("Standings: this week") in text for text in shown), (lang, week)  # `/top <week>` read
    assert any(_("Turn timer: off") in text for text in shown), (lang, off)  # `/timer <off>` read
    texts = [s for call in server.calls[mark:] for s in strings(call.params)]
    texts += [c["description"] for c in server.my_commands(language_code=lang.split("_")[0])]
    return texts


async def test_the_english_words_are_there_in_english(server: BotAPIServer, bot: BotProcess) -> None:
    texts = await play_in(server, bot, "en")
    assert set(english_words(texts, "en")) == set(ENGLISH), set(ENGLISH) - set(english_words(texts, "en"))


@pytest.mark.parametrize("lang", LANGS)
async def test_a_whole_game_reads_without_english(server: BotAPIServer, bot: BotProcess, lang: str) -> None:
    texts = await play_in(server, bot, lang)
    assert len(texts) > 200
    leaks = english_words(texts, lang)
    assert not leaks, (lang, "\n".join(f"{w}: {line}" for w, line in leaks.items()))


async def test_a_button_answers_its_presser_in_their_own_language(server: BotAPIServer, bot: BotProcess) -> None:
    """A callback answer (the toast) is read by the presser alone: it is said in
    their app's language when unobot speaks it, else the chat's (issue 26), in
    a forum topic as anywhere; what the press shows the group stays in the
    chat's language. Before, every toast was in the chat's language: a Spanish
    player in an English group read "You joined." and "Only the game's creator
    or an admin can do that."."""
    forum = server.forum(title="UNO club")
    ann = server.user(1, "Ann", language_code="en")
    ben = server.user(2, "Ben", language_code="es")
    dora = server.user(3, "Dora", language_code="de")
    kim = server.user(4, "Kim", language_code="ko")  # a language unobot does not speak: the chat's
    server.set_status(forum, dora, "administrator")
    topic = server.create_topic(forum, ann, "Table")
    driver = TableDriver(server, bot, forum, [ann, ben], thread=topic)
    es, de = gettext_for("es"), gettext_for("de")

    def toast() -> str:
        answer = server.last("answerCallbackQuery")
        assert answer is not None
        return str(answer.get("text", ""))

    await driver.command(ann, "/new")
    await driver.press(ben, keyboards.JOIN)
    assert toast() == es("You joined.")
    status = driver.status_message()
    assert status is not None and "Ben joined (2 players)." in plain(status["text"]), status["text"]
    await driver.press(ben, keyboards.JOIN)
    assert toast() == es("You are already in this game.")
    await driver.press(ann, keyboards.add_ai("easy"))
    await driver.press(kim, keyboards.remove_ai("ai:1"))
    assert toast() == "Only the game's creator or an admin can do that."
    await driver.press(ben, keyboards.START)
    assert toast() == es("Only the game's creator or an admin can do that.") and "creator" not in toast()
    # /rules: a non-admin's press is refused in their language; an admin's change is saved in theirs.
    await driver.command(dora, "/rules")  # an admin's /rules has the switches
    rules = next(m for m in reversed(driver.bot_messages()) if any(
        str(b.get("callback_data", "")).startswith(keyboards.RULE_ON) for b in server.buttons(forum, m["message_id"])))
    switch = next(b["callback_data"] for b in server.buttons(forum, rules["message_id"])
                  if str(b.get("callback_data", "")).startswith(keyboards.RULE_ON))
    await bot.settle(server.press_button(forum, ben, rules["message_id"], switch))
    assert toast() == es("Only an admin can change the rules here."), toast()
    await bot.settle(server.press_button(forum, dora, rules["message_id"], switch))
    assert toast() == de("Saved. The game waiting for players here plays it too."), toast()  # the lobby took it
    lobby = driver.status_message()
    assert lobby is not None and "Waiting for players" in plain(lobby["text"])  # the group's: the chat's language
    # A button of a game's older message (the last game's lobby), pressed by a German admin.
    await driver.command(ann, "/stop")
    await driver.command(ann, "/new")
    await bot.settle(server.press_button(forum, dora, status["message_id"], keyboards.JOIN, strict=False))
    assert toast() == de("That button belongs to an older message."), toast()
