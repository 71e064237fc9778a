"""A chat's settings refused because the rules would not make a game: the
rules that clash are named by their titles, in the reader's language, and
nothing changes (issue 14: bad input gets a clear, translated message)."""

from __future__ import annotations

import random

import pytest

from unobot.chat import commands as c
from unobot.chat.render import error_text
from unobot.chat.service import ChatService
from unobot.store import MemoryStore

ADMIN = c.Person("9", "Boss", is_admin=True)
CHAT = "group-1"


@pytest.fixture
def svc() -> ChatService:
    return ChatService(MemoryStore(), rng=random.Random(7))


async def test_a_rule_that_conflicts_names_both_in_the_chats_language(svc: ChatService) -> None:
    out = await svc.handle(CHAT, ADMIN, c.SetRule("no-bluffing", enabled=True))
    assert not out.ok and out.code == "rule_conflict" and out.reason is not None
    assert out.error == ("“No bluffing with +4” cannot be on together with “Challenging a Wild Draw Four”: "
                         "turn “Challenging a Wild Draw Four” off first.")
    assert out.reason.text("es") == ("«Sin faroles con +4» no puede estar activa junto con «Desafiar un +4»: "
                                     "desactiva «Desafiar un +4» primero.")
    assert (await svc.settings(CHAT))["rules"] == {}
    # turning on the other one of the pair names it first
    assert (await svc.handle(CHAT, ADMIN, c.SetRule("challenge", enabled=False))).ok
    assert (await svc.handle(CHAT, ADMIN, c.SetRule("no-bluffing", enabled=True))).ok
    out = await svc.handle(CHAT, ADMIN, c.SetRule("challenge", enabled=True))
    assert out.code == "rule_conflict" and out.error is not None
    assert out.error.startswith("“Challenging a Wild Draw Four” cannot be on together with “No bluffing with +4”")
    # in a Spanish chat, the chat's answer is Spanish
    assert (await svc.handle(CHAT, ADMIN, c.SetLanguage("es"))).ok
    out = await svc.handle(CHAT, ADMIN, c.SetRule("challenge", enabled=True))
    assert out.error == ("«Desafiar un +4» no puede estar activa junto con «Sin faroles con +4»: "
                         "desactiva «Sin faroles con +4» primero.")
    assert (await svc.settings(CHAT))["rules"] == {"challenge": False, "no-bluffing": {}}


async def test_a_variant_that_clashes_with_the_house_rules_names_both(svc: ChatService) -> None:
    assert (await svc.handle(CHAT, ADMIN, c.SetVariant("reglas-de-uno"))).ok  # no bluffing, no challenge
    assert (await svc.handle(CHAT, ADMIN, c.SetRule("no-bluffing", enabled=True))).ok
    out = await svc.handle(CHAT, ADMIN, c.SetVariant("official"))  # official has the challenge
    assert out.code == "rule_conflict" and out.reason is not None
    assert out.error == ("“No bluffing with +4” and “Challenging a Wild Draw Four” cannot both be on: "
                         "turn one of them off first.")
    assert out.reason.text("es") == ("«Sin faroles con +4» y «Desafiar un +4» no pueden estar activas a la vez: "
                                     "desactiva una de las dos primero.")
    assert (await svc.settings(CHAT))["variant"] == "reglas-de-uno"


async def test_an_option_that_does_not_fit_says_what_it_takes(svc: ChatService) -> None:
    out = await svc.handle(CHAT, ADMIN, c.SetRule("deck", option="hand_size", value=200))
    assert out.code == "bad_option" and out.reason is not None
    assert out.error == ("That option does not fit the rule: option 'hand_size' of rule 'deck' must be a whole "
                         "number from 1 to 30, not 200.")
    assert out.reason.text("es") == ("Esa opción no encaja con la regla: la opción 'hand_size' de la regla 'deck' "
                                     "debe ser un número entero del 1 al 30, no 200.")
    assert (await svc.settings(CHAT))["rules"] == {}


async def test_codes_without_more_to_say_keep_their_text(svc: ChatService) -> None:
    out = await svc.handle(CHAT, ADMIN, c.SetRule("nonsense", enabled=True))
    assert out.code == "unknown_rule" and out.reason is None and out.error == error_text("unknown_rule", "en")


async def test_a_timer_longer_than_an_hour_is_refused_not_cut_without_a_word(svc: ChatService) -> None:
    """`/timer 7200` set an hour and said "Turn timer: 3600 seconds" as if asked:
    the admin believed turns had two hours. Refused, in the chat's language, on
    every front-end (core's refusal), and nothing changes; so is a negative one."""
    assert (await svc.handle(CHAT, ADMIN, c.SetTimer(90))).ok
    for seconds in (7200, c.MAX_TIMER_SECONDS + 1, -5):
        out = await svc.handle(CHAT, ADMIN, c.SetTimer(seconds))
        assert not out.ok and out.code == "bad_timer"
        assert out.error == "A turn timer is from 1 to 3600 seconds (an hour), or off. Nothing was changed."
        assert f" {c.MAX_TIMER_SECONDS} " in out.error
        assert (await svc.settings(CHAT))["timer"] == 90
    assert error_text("bad_timer", "es") == ("El temporizador de turno va de 1 a 3600 segundos (una hora), "
                                             "o desactivado. No se ha cambiado nada.")
    assert (await svc.handle(CHAT, ADMIN, c.SetTimer(c.MAX_TIMER_SECONDS))).ok
    assert (await svc.settings(CHAT))["timer"] == c.MAX_TIMER_SECONDS


async def test_a_variant_that_clashes_with_the_house_rules_says_which_rules(svc: ChatService) -> None:
    """`/new crazy` with a house rule on that Crazy's rules clash with, and a
    lobby of Crazy whose house rules changed since: both say which rules
    (the refusal said only "do not fit", or at Start "cannot be loaded: a
    plugin is missing"), then how to fix it, in the reader's language."""
    assert (await svc.handle(CHAT, ADMIN, c.SetRule("auto-colour", enabled=True))).ok
    out = await svc.handle(CHAT, ADMIN, c.NewGame(variant="crazy"))
    assert out.code == "variant_rules_clash" and out.error == (
        "With the variant “Crazy”, “Automatic wild colour” and “Random wild colour” cannot both be on. "
        + error_text("variant_rules_clash", "en"))
    assert (await svc.handle(CHAT, ADMIN, c.SetRule("auto-colour", enabled=False))).ok
    assert (await svc.handle(CHAT, ADMIN, c.NewGame(variant="crazy"))).ok
    assert (await svc.handle(CHAT, ADMIN, c.AddAI())).ok
    assert (await svc.handle(CHAT, ADMIN, c.SetRule("auto-colour", enabled=True))).ok  # fits the chat's variant
    out = await svc.handle(CHAT, ADMIN, c.Start())
    assert out.code == "lobby_rules_clash", out.error
    assert out.refusal("es", {"rules": "/uno rules", "stop": "/uno stop", "new": "/uno new"}) == (
        "Con la variante «Locura», «Color del comodín automático» y «Color del comodín al azar» no pueden estar "
        "activas a la vez. Esta partida no puede empezar con las reglas de la casa de aquí tal como están: un "
        "administrador desactiva una de ellas con /uno rules, o detiene esta partida con /uno stop y abre otra "
        "con /uno new.")
    assert out.refusal("zh_CN").startswith("在变体“") and "。按这里" in out.refusal("zh_CN")
