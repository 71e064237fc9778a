"""A chat whose rule plugin was uninstalled can stop its game and play again.

Before, every command of such a game was refused with `rules_unavailable`
("An admin can end the game with /stop"), but /stop itself asked the rules
(`match_end`) and was refused the same way; and a chat whose variant was
the plugin's could not reset its rules (the check resolved the missing
variant), so the console, which resets them at every start, never started.
"""

from __future__ import annotations

import pytest

from tests.rulekit import extra_rule
from unobot import Event, GameState, Rule, hookimpl
from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.store import MemoryStore
from unobot.variants import clear_caches

ADMIN = c.Person("admin", "Admin", None, True)
CHAT = "chat"


class Gone(Rule):
    """A rule whose plugin is uninstalled while a game uses it."""

    name = "test-gone-plugin"

    @hookimpl
    def match_end(self, state: GameState, winner: int, reason: str, events: list[Event]) -> None:
        return None


@pytest.mark.asyncio
async def test_stop_puts_away_a_game_whose_rule_is_gone() -> None:
    store = MemoryStore()
    with extra_rule(Gone):
        service = ChatService(store)
        for cmd in (c.SetRule(rule=Gone.name, enabled=True), c.NewGame(), c.AddAI(), c.Start()):
            out = await service.handle(CHAT, ADMIN, cmd)
            assert out.ok, (cmd, out.error)
    clear_caches()
    service = ChatService(store)  # a new process: the plugin is not installed
    out = await service.handle(CHAT, ADMIN, c.Draw())
    assert out.code == "rules_unavailable"
    out = await service.handle(CHAT, ADMIN, c.Stop())
    assert out.ok, out.error
    assert await store.chat_game(CHAT) is None
    assert (await service.handle(CHAT, ADMIN, c.ResetRules())).ok
    for cmd in (c.NewGame(), c.AddAI(), c.Start()):
        out = await service.handle(CHAT, ADMIN, cmd)
        assert out.ok, (cmd, out.error)


@pytest.mark.asyncio
async def test_rules_reset_when_the_chats_variant_is_gone() -> None:
    store = MemoryStore()
    service = ChatService(store)
    await store.update_chat_settings(CHAT, {"variant": "test-gone-variant", "rules": {"test-gone-rule": {}}})
    out = await service.handle(CHAT, ADMIN, c.ResetRules())
    assert out.ok, out.error
    out = await service.handle(CHAT, ADMIN, c.SetVariant("official"))
    assert out.ok, out.error
    assert (await service.settings(CHAT))["variant"] == "official"
