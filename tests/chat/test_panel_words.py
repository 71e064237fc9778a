"""What core says for every front-end that Discord used to work out itself: a
member's panel in words (`hand_text`), what a public message offers
(`public_actions`), what a failure is told (`failure_text`), and where a
chat's settings come from (`ChatService(settings_from=...)`)."""

from __future__ import annotations

import random

from unobot.chat import actions as a
from unobot.chat import commands as c
from unobot.chat.hand_text import hand_text
from unobot.chat.i18n import gettext_for
from unobot.chat.render import failure_text
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS
from unobot.store import MemoryStore, StoreDataError, StoreUnavailable

ANA, BEN = c.Person("1", "Ana"), c.Person("2", "Ben")
LOOKER = c.Person("7", "Looker")
ADMIN = c.Person("9", "Boss", is_admin=True)


async def lobby(svc: ChatService, chat: str = "c") -> None:
    assert (await svc.handle(chat, ANA, c.NewGame(variant="official"))).ok
    assert (await svc.handle(chat, BEN, c.Join())).ok


async def test_a_panel_says_the_table_in_the_readers_words() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(3))
    await lobby(svc)
    table = await svc.table("c")
    assert table is not None
    words = hand_text(table, a.menu(table, ANA.id, "en"), "en")
    assert words.title and "UNO" in words.note and not words.cards  # the lobby: its heading only
    assert (await svc.handle("c", ANA, c.Start())).ok
    table = await svc.table("c")
    assert table is not None and table.game is not None
    on_turn = table.seats[table.game.turn].id
    for person, lang in ((ANA, "en"), (BEN, "es")):
        m = a.menu(table, person.id, lang)
        words = hand_text(table, m, lang)
        assert m.hand is not None and not words.note
        if person.id == on_turn:
            assert words.turn == {"en": "your turn", "es": "tu turno"}[lang]
        else:
            assert table.seats[table.game.turn].name in words.turn
        assert len(words.cards) == len(m.hand.cards)
        assert [playable for _text, playable in words.cards] == [hc.playable for hc in m.hand.cards]
        assert words.top and words.color == table.game.color
    looker = hand_text(table, a.menu(table, LOOKER.id, "es"), "es")
    assert looker.note == "No estás jugando en esta partida." and not looker.cards


async def test_a_public_message_offers_what_anyone_at_the_table_may_press() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(3))
    await lobby(svc)
    table = await svc.table("c")
    assert table is not None
    ids = [x.id for x in a.public_actions(table, "en")]
    assert len(ids) == len(set(ids))  # each once, whoever it is offered to
    kinds = {x.kind for x in a.public_actions(table, "en")}
    assert {a.JOIN, a.START, a.LEAVE} <= kinds  # a newcomer's, the creator's, a seat's
    assert (await svc.handle("c", ANA, c.Start())).ok
    started = await svc.table("c")
    assert started is not None and a.public_actions(started, "en") == []  # in a round: each their own
    started.phase = BETWEEN_ROUNDS
    assert [x.kind for x in a.public_actions(started, "en")] == [a.NEXT_ROUND]


def test_a_failure_is_told_the_same_everywhere() -> None:
    down = StoreUnavailable("connection refused")
    assert "nothing was lost" in failure_text(down, "en")
    assert "nothing was lost" not in failure_text(down, "en", keeps_nothing=True)
    assert "keeps nothing" in failure_text(down, "en", keeps_nothing=True)
    assert "/new" in failure_text(StoreDataError("game:1", "bad json"), "en")
    assert failure_text(RuntimeError("bug"), "es") == "Algo salió mal. Inténtalo de nuevo."


async def test_settings_come_from_the_nearest_place_that_set_them() -> None:
    store = MemoryStore()
    svc = ChatService(store, settings_from=lambda chat: (chat, "server") if chat != "server" else (chat,))
    assert (await svc.handle("server", ADMIN, c.SetLanguage("es"))).ok
    assert (await svc.handle("server", ADMIN, c.SetTimer(60))).ok
    assert (await svc.handle("channel", ADMIN, c.SetTimer(30))).ok
    settings = await svc.settings("channel")
    assert settings["lang"] == "es" and settings["timer"] == 30  # inherited, and its own
    assert (await svc.settings("other"))["lang"] == "es"
    assert (await ChatService(store).settings("channel"))["lang"] == "en"  # by default, the chat alone


async def test_two_members_pressing_join_on_the_same_lobby_both_join() -> None:
    """A lobby's press carries no version (`decode`), so the second Join is not stale."""
    svc = ChatService(MemoryStore(), rng=random.Random(3))
    await lobby(svc)
    table = await svc.table("c")
    assert table is not None
    seen = table.version
    for person in (c.Person("5", "Cy"), c.Person("6", "Di")):  # both saw the same version
        cmd = a.decode("j", seen, table, person.id)
        assert isinstance(cmd, c.Join) and cmd.version is None
        assert (await svc.handle("c", person, cmd)).ok
    after = await svc.table("c")
    assert after is not None and [s.name for s in after.seats] == ["Ana", "Ben", "Cy", "Di"]
    play = a.decode("pR5", seen)
    assert isinstance(play, c.Play) and play.version == seen  # a move keeps the version it was seen on


def test_a_store_that_keeps_nothing_never_promises_nothing_was_lost() -> None:
    forgetful = ChatService(MemoryStore(), keeps_nothing=True)
    out = forgetful.fail("store_unavailable", "en")
    assert out.code == "store_unavailable" and "keeps nothing" in (out.error or "")
    assert "nothing was lost" not in out.refusal("es") and out.refusal("es") != out.refusal("en")
    plain = ChatService(MemoryStore()).fail("store_unavailable", "en")
    assert "nothing was lost" in (plain.error or "")


def test_yes_and_overrides_are_read_by_core() -> None:
    from unobot.chat.settings import override_commands
    from unobot.chat.typed import is_yes

    assert is_yes("", "en") and is_yes(" Sí ", "es") and is_yes("y", "de") and not is_yes("n", "en")
    assert is_yes("j", "de") is (gettext_for("de")("y").lower() == "j")  # German's own y, if it has one
    commands = override_commands({"stacking": {"limit": 2}, "challenge": False, "jump-in": True})
    assert commands == [c.SetRule(rule="challenge", enabled=False), c.SetRule(rule="jump-in", enabled=True),
                        c.SetRule(rule="stacking", option="limit", value=2)]
