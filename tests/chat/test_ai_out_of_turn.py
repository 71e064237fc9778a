"""AI seats in a chat act out of turn too: with jump-in on they jump in
(as the simulator's players do), the moves are in the table's log, and the
log replays to the stored game."""

from __future__ import annotations

import random

from unobot import engine
from unobot.chat import commands as c
from unobot.chat.audit import audit_table
from unobot.chat.service import ChatService
from unobot.chat.table import PLAYING
from unobot.store import MemoryStore

ANA = c.Person("1", "Ana")


async def test_ai_seats_jump_in_and_the_log_replays() -> None:
    store = MemoryStore()
    svc = ChatService(store, rng=random.Random(11))
    jumps = 0
    for game in range(6):
        chat = f"jump-{game}"
        assert (await svc.handle(chat, ANA, c.NewGame(variant="party"))).ok
        assert (await svc.handle(chat, ANA, c.AddAI(count=3))).ok
        out = await svc.handle(chat, ANA, c.Start())
        for _ in range(400):
            jumps += sum("jumps in!" in n for n in out.notices)
            table = await svc.table(chat)
            if table is None or table.phase != PLAYING or table.game is None:
                break
            game_state = table.game
            if game_state.turn != 0:
                out = await svc.handle(chat, ANA, c.Continue())
                continue
            # Ana only draws and passes: every jump-in is an AI seat's.
            moves = engine.legal_moves(game_state, 0)
            kinds = {m.kind for m in moves}
            cmd: c.Command = c.Draw() if "draw" in kinds else c.Pass() if "pass" in kinds else c.Continue()
            if "color" in kinds:
                cmd = c.NameColor(color="red")
            out = await svc.handle(chat, ANA, cmd)
        game_id = await store.chat_game(chat)
        if game_id:
            audit = await audit_table(store, game_id)
            assert audit.ok, audit.problem
    assert jumps > 0


async def test_ai_seats_wait_for_a_persons_plugin_move_out_of_turn() -> None:
    """A plugin's move out of turn (the example plugin's cheer) gets the same
    pause as a jump-in: before, the AI seats moved straight on to the
    person's next turn, so a person alone with AI seats (the console) was
    never offered the move and could never make it."""
    svc = ChatService(MemoryStore(), rng=random.Random(3))
    ana = c.Person("1", "Ana", None, True)
    for cmd in (c.SetRule(rule="cheer", enabled=True), c.NewGame(), c.AddAI(count=2)):
        assert (await svc.handle("cheer", ana, cmd)).ok
    out = await svc.handle("cheer", ana, c.Start())
    for _ in range(50):
        table = await svc.table("cheer")
        assert table is not None and table.game is not None and table.phase == PLAYING
        if table.game.turn != 0:
            break
        out = await svc.handle("cheer", ana, c.Draw())
        if (await svc.table("cheer")).game.turn == 0:  # type: ignore[union-attr]
            out = await svc.handle("cheer", ana, c.Pass())
    assert out.paused, "an AI seat is to move and Ana may cheer: the table waits for her"
    table = await svc.table("cheer")
    assert table is not None and table.game is not None and table.game.turn != 0
    cheered = await svc.handle("cheer", ana, c.PluginMove("cheer"))
    assert cheered.ok, cheered.error
    assert any("Ana cheers" in line for line in cheered.notices)
