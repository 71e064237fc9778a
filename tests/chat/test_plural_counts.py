"""Counts in the languages whose nouns change with the number (Russian,
Ukrainian, Polish, Arabic): the lobby's "joined (n players)", a round's and a
match's points, a record's points, a multi-play's cards and the console's
target picker's cards read as a native speaker says them, for 1, 2, 5, 21
and 22 (and Arabic's 3-10 and 11-99).

Why: these texts had one msgid for every number, so Arabic said "2 لاعبين"
(two is a dual: لاعبان) and "7 نقطة" (3-10 take the plural: نقاط), and
Russian "с 121 очками" (121 takes the singular: очком) or
"(игроков: 3)"; a plural form a language's rules choose cannot be written
for a text that has none."""

from __future__ import annotations

import random

import pytest

from unobot.chat import commands as c
from unobot.chat.i18n import ngettext_for
from unobot.chat.records_text import summary_lines
from unobot.chat.render import describe_event, plugin_event_text
from unobot.chat.service import ChatService
from unobot.events import Event
from unobot.store import MemoryStore

ADMIN = c.Person("0", "Admin", is_admin=True)


async def lobby_notices(lang: str, people: int) -> list[str]:
    """What the lobby says as `people` join a chat speaking `lang` (an AI player last)."""
    svc = ChatService(MemoryStore(), rng=random.Random(1))
    assert (await svc.handle("chat", ADMIN, c.SetLanguage(lang))).ok
    said = []
    assert (await svc.handle("chat", c.Person("1", "Ana"), c.NewGame())).ok
    for i in range(2, people):
        out = await svc.handle("chat", c.Person(str(i), f"P{i}"), c.Join())
        assert out.ok
        said += out.notices
    out = await svc.handle("chat", c.Person("1", "Ana"), c.AddAI(count=1))
    assert out.ok
    return said + out.notices


@pytest.mark.parametrize(("lang", "lines"), [
    ("ru", ["P2 в игре (2 игрока).", "P3 в игре (3 игрока).", "P4 в игре (4 игрока).",
            "Ada (ИИ) в игре, уровень нормальный (5 игроков)."]),
    ("uk", ["P2 у грі (2 гравці).", "P3 у грі (3 гравці).", "P4 у грі (4 гравці).",
            "Ada (ШІ) у грі, рівень звичайний (5 гравців)."]),
    ("ar", ["انضم P2 (لاعبان).", "انضم P3 (3 لاعبين).", "انضم P4 (4 لاعبين).",
            "انضم Ada (آلي)، المستوى عادي (5 لاعبين)."]),
])
async def test_the_lobby_counts_its_players_in_the_chats_language(lang: str, lines: list[str]) -> None:
    assert await lobby_notices(lang, 5) == lines


@pytest.mark.parametrize(("lang", "n", "round_line", "match_line"), [
    ("ru", 1, "Ana выигрывает раунд и получает 1 очко!", "Ana выигрывает матч с 1 очком!"),
    ("ru", 22, "Ana выигрывает раунд и получает 22 очка!", "Ana выигрывает матч с 22 очками!"),
    ("ru", 25, "Ana выигрывает раунд и получает 25 очков!", "Ana выигрывает матч с 25 очками!"),
    ("ru", 121, "Ana выигрывает раунд и получает 121 очко!", "Ana выигрывает матч с 121 очком!"),
    ("uk", 21, "Ana виграє раунд і отримує 21 очко!", "Ana виграє матч з 21 очком!"),
    ("ar", 2, "Ana يفوز بالجولة ويسجّل نقطتين!", "Ana يفوز بالمباراة بنقطتين!"),
    ("ar", 7, "Ana يفوز بالجولة ويسجّل 7 نقاط!", "Ana يفوز بالمباراة بـ7 نقاط!"),
    ("ar", 45, "Ana يفوز بالجولة ويسجّل 45 نقطة!", "Ana يفوز بالمباراة بـ45 نقطة!"),
    ("pl", 22, "Ana wygrywa rundę i zdobywa 22 pkt!", "Ana wygrywa mecz z wynikiem 22 pkt!"),
    ("en", 1, "Ana wins the round and scores 1 point!", "Ana wins the match with 1 point!"),
])
def test_points_won_take_the_numbers_form(lang: str, n: int, round_line: str, match_line: str) -> None:
    def name(seat: int) -> str:
        return "Ana"

    assert describe_event(Event("round_won", 0, n=n), name, lang) == round_line
    assert describe_event(Event("match_won", 0, n=n), name, lang) == match_line


@pytest.mark.parametrize(("lang", "scores", "lines"), [
    ("ru", (131, 22, 5), ["Ana: 131 очко", "Ben: 22 очка", "Cid: 5 очков"]),
    ("ar", (3, 2, 1), ["Ana: 3 نقاط", "Ben: نقطتان", "Cid: نقطة واحدة"]),
])
def test_the_last_match_counts_each_players_points(lang: str, scores: tuple[int, ...], lines: list[str]) -> None:
    record = {"players": [{"name": n, "score": s} for n, s in zip(("Ana", "Ben", "Cid"), scores, strict=True)],
              "winner": 0, "rounds": 1, "moves": 9}
    shown = summary_lines(record, lang)
    assert [line for line in shown if line.startswith(("Ana:", "Ben:", "Cid:"))] == lines, shown


@pytest.mark.parametrize(("lang", "n", "line"), [
    ("ru", 2, "Ana играет сразу 2 карты."), ("ru", 5, "Ana играет сразу 5 карт."),
    ("pl", 2, "Ana zagrywa naraz 2 karty."), ("ar", 2, "يلعب Ana بطاقتين دفعة واحدة."),
    ("uk", 3, "Ana грає одразу 3 карти."),
])
def test_a_multi_play_counts_its_cards(lang: str, n: int, line: str) -> None:
    assert plugin_event_text(Event("multi_played", 0, n=n), "Ana", "", "", lang) == line


@pytest.mark.parametrize(("lang", "forms"), [
    ("ru", {1: "(1 карта)", 3: "(3 карты)", 7: "(7 карт)", 21: "(21 карта)"}),
    ("pl", {1: "(1 karta)", 3: "(3 karty)", 7: "(7 kart)", 22: "(22 karty)"}),
    ("ar", {1: "(بطاقة واحدة)", 2: "(بطاقتان)", 7: "(7 بطاقات)", 12: "(12 بطاقة)"}),
])
def test_the_console_target_picker_counts_cards(lang: str, forms: dict[int, str]) -> None:
    ngettext = ngettext_for(lang)
    for n, text in forms.items():
        assert ngettext("({n} card)", "({n} cards)", n).format(n=n) == text


@pytest.mark.parametrize(("lang", "points", "said"), [("ru", 122, "122 очка"), ("uk", 122, "122 очки"),
                                                      ("ru", 5, "5 очков"), ("ru", 21, "21 очко"), ("pl", 3, "3 punkty"),
                                                      ("en", 1, "1 point;"), ("ar", 2, "نقطتان")])
async def test_stats_say_a_players_points_right_for_any_number(lang: str, points: int, said: str) -> None:
    """/stats put the points before a noun of one form ("122 очков": 122
    takes очка; "1 points" in English); each count is now said in its
    reader's plural form ("122 очка", "21 очко", "1 point")."""
    from unobot.chat.answers import stats_lines

    store = MemoryStore()
    await store.incr_stats("user", "7", {"points": points, "rounds": 2, "rounds_won": 1})
    line = (await stats_lines(store, "chat", c.Person("7", "Olga"), lang))[-1]
    assert said in line, line


@pytest.mark.parametrize(("lang", "rounds", "line"), [
    ("en", 1, "Ana won after 1 round (moves: 57)."), ("en", 3, "Ana won after 3 rounds (moves: 57)."),
    ("es", 1, "Ana ganó tras 1 ronda (jugadas: 57)."), ("de", 1, "Ana hat nach 1 Runde gewonnen (Züge: 57)."),
    ("ar", 1, "فاز Ana بعد جولة واحدة (النقلات: 57)."), ("ar", 2, "فاز Ana بعد جولتين (النقلات: 57)."),
    ("ar", 12, "فاز Ana بعد 12 جولة (النقلات: 57)."), ("ru", 5, "Ana победил(а) за 5 раундов (ходов: 57)."),
])
def test_the_last_match_counts_its_rounds(lang: str, rounds: int, line: str) -> None:
    """A match of one round (`--rounds 1`, a target of 0) was "won after 1
    rounds" in English, "tras 1 rondas", "nach 1 Runden", "بعد 1 جولات"."""
    record = {"players": [{"name": "Ana", "score": 9}], "winner": 0, "rounds": rounds, "moves": 57}
    assert summary_lines(record, lang)[1] == line
