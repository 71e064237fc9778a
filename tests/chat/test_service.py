"""The chat service: lobbies, permissions, moves, AI seats, timers, settings,
stats and failure modes. MemoryStore for the logic; a real redis-server for
the outage test."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.support.redis_server import RedisServer
from unobot.adapters.redis_store import RedisStore
from unobot.chat import commands as c
from unobot.chat.service import ChatService, Defaults
from unobot.chat.table import BETWEEN_ROUNDS, LOBBY, PLAYING
from unobot.chat.views import hand_view, status_lines, table_view
from unobot.store import MemoryStore

ANA = c.Person("1", "Ana")
BEN = c.Person("2", "Ben")
CAT = c.Person("3", "Cat")
ADMIN = c.Person("9", "Boss", is_admin=True)
CHAT = "group-1"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def svc(clock: Clock) -> ChatService:
    return ChatService(MemoryStore(), clock=clock, rng=random.Random(7))


async def lobby(svc: ChatService, *people: c.Person) -> None:
    assert (await svc.handle(CHAT, people[0], c.NewGame())).ok
    for p in people[1:]:
        assert (await svc.handle(CHAT, p, c.Join())).ok


def first_legal(svc_table, person: c.Person) -> c.Command:  # type: ignore[no-untyped-def]
    hv = hand_view(svc_table, person.id)
    assert hv is not None
    for hc in hv.cards:
        if hc.playable and hc.moves:
            m = hc.moves[0]
            color = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}.get(m.color or "")
            target = svc_table.seats[m.target].id if m.target is not None else None
            return c.Play(m.card.text, color, target)
    if hv.draw:
        return c.Draw()
    assert hv.pass_ is not None
    return c.Pass()


async def test_lobby_start_and_first_moves(svc: ChatService) -> None:
    await lobby(svc, ANA, BEN)
    out = await svc.handle(CHAT, BEN, c.Start())
    assert not out.ok and out.code == "not_allowed_admin"
    out = await svc.handle(CHAT, ANA, c.Start())
    assert out.ok and out.table.phase == PLAYING
    table = out.table
    mover = [ANA, BEN][table.game.turn]
    other = [ANA, BEN][1 - table.game.turn]
    out = await svc.handle(CHAT, other, c.Draw())
    assert out.code == "not_your_turn" and out.error == "It is not your turn."
    out = await svc.handle(CHAT, mover, first_legal(table, mover))
    assert out.ok and out.table.version == table.version + 1


async def test_outsider_and_stale_choices_change_nothing(svc: ChatService) -> None:
    await lobby(svc, ANA, BEN)
    table = (await svc.handle(CHAT, ANA, c.Start())).table
    mover = [ANA, BEN][table.game.turn]
    out = await svc.handle(CHAT, CAT, c.Draw())
    assert out.code == "not_in_game"
    out = await svc.handle(CHAT, mover, c.Draw(version=table.version - 1))
    assert out.code == "stale"
    out = await svc.handle(CHAT, mover, c.Play("X9"))
    assert out.code == "bad_card"
    after = await svc.table(CHAT)
    assert after.version == table.version and after.encode() == table.encode()


async def test_ai_seats_of_several_levels_are_announced_with_theirs(svc: ChatService) -> None:
    await svc.handle(CHAT, ANA, c.NewGame())
    out = await svc.handle(CHAT, ANA, c.AddAI(1, "strong"))  # an old name: its level is said
    assert out.notices == ["Ada (AI) joined, level hard (2 players)."]
    out = await svc.handle(CHAT, ADMIN, c.SetLanguage("es"))
    assert out.ok, out.code
    out = await svc.handle(CHAT, ANA, c.AddAI(2, "expert"))
    assert out.notices[-1].endswith("se unieron, nivel experto (4 jugadores).")
    assert [s.level for s in out.table.seats] == [None, "hard", "expert", "expert"]


async def test_whole_round_against_ai_reaches_a_winner(svc: ChatService) -> None:
    await svc.handle(CHAT, ANA, c.NewGame())
    await svc.handle(CHAT, ANA, c.AddAI(2, "basic"))
    out = await svc.handle(CHAT, ANA, c.Start())
    for _ in range(2000):
        table = out.table
        if table.phase != PLAYING:
            break
        if out.paused:
            out = await svc.handle(CHAT, ANA, c.Continue(version=table.version))
            continue
        out = await svc.handle(CHAT, ANA, first_legal(table, ANA))
        assert out.ok, out.code
    assert out.table.phase == BETWEEN_ROUNDS
    assert out.round_over and any("wins the round" in n for n in out.notices)
    out = await svc.handle(CHAT, ANA, c.NextRound())
    assert out.ok and out.table.game.round == 2
    stats = await svc.store.get_stats("user", ANA.id)
    assert stats["rounds"] == 1
    assert (await svc.store.get_stats("chat", CHAT))["rounds"] == 1


async def test_settings_need_an_admin_and_apply_to_the_next_game(svc: ChatService) -> None:
    out = await svc.handle(CHAT, ANA, c.SetVariant("party"))
    assert out.code == "not_admin"
    assert (await svc.handle(CHAT, ADMIN, c.SetVariant("party"))).ok
    assert (await svc.handle(CHAT, ADMIN, c.SetRule("force-play", enabled=True))).ok
    out = await svc.handle(CHAT, ADMIN, c.SetRule("no-bluffing", enabled=True))
    assert out.code == "rule_conflict"
    out = await svc.handle(CHAT, ADMIN, c.SetRule("deck", option="hand_size", value="seven"))
    assert out.code == "bad_option"
    out = await svc.handle(CHAT, ADMIN, c.SetRule("nonsense", enabled=True))
    assert out.code == "unknown_rule"
    await lobby(svc, ANA, BEN)
    table = (await svc.handle(CHAT, ANA, c.Start())).table
    assert table.variant == "party" and table.overrides == {"force-play": {}}
    assert table.game.rules.enabled("force-play") and table.game.rules.enabled("seven-o")


async def test_language_setting_translates_notices(svc: ChatService) -> None:
    assert (await svc.handle(CHAT, ADMIN, c.SetLanguage("es"))).ok
    out = await svc.handle(CHAT, ANA, c.NewGame())
    assert out.table.lang == "es"
    out = await svc.handle(CHAT, BEN, c.Start())
    assert out.code == "not_allowed_admin"
    assert out.error != "Only the game's creator or an admin can do that."
    assert (await svc.handle(CHAT, ADMIN, c.SetLanguage("tlh"))).code == "bad_language"


async def test_only_creator_or_admin_stops_and_kicks(svc: ChatService) -> None:
    await lobby(svc, ANA, BEN, CAT)
    assert (await svc.handle(CHAT, BEN, c.Stop())).code == "not_allowed_admin"
    assert (await svc.handle(CHAT, BEN, c.Kick("Cat"))).code == "not_allowed_admin"
    out = await svc.handle(CHAT, ANA, c.Kick("Cat"))
    assert out.ok and [s.name for s in out.table.seats] == ["Ana", "Ben"]
    assert (await svc.handle(CHAT, ADMIN, c.Stop())).ok
    assert await svc.table(CHAT) is None
    assert (await svc.handle(CHAT, ANA, c.Join())).code == "no_game"


async def test_turn_timer_draws_passes_and_removes_after_repeats(svc: ChatService, clock: Clock) -> None:
    assert (await svc.handle(CHAT, ADMIN, c.SetTimer(10))).ok
    await lobby(svc, ANA, BEN, CAT)
    table = (await svc.handle(CHAT, ANA, c.Start())).table
    people = {p.id: p for p in (ANA, BEN, CAT)}
    assert (await svc.handle(CHAT, ANA, c.Skip())).code == "timer_running"
    out = await svc.handle(CHAT, ANA, c.Skip(auto=True, version=table.version))
    assert out.ok and not out.changed  # too early: the job does nothing
    victim = table.seats[table.game.turn].id
    for _ in range(3):
        table = await svc.table(CHAT)
        if table.phase != PLAYING:
            break
        # everyone else moves quickly; the victim always runs out of time
        while table.seats[table.game.turn].id != victim and table.phase == PLAYING:
            mover = people[table.seats[table.game.turn].id]
            table = (await svc.handle(CHAT, mover, first_legal(table, mover))).table
        clock.now += 11
        out = await svc.handle(CHAT, ANA, c.Skip(auto=True, version=table.version))
        assert out.ok and out.changed
    seat = table.seat_of(victim)
    assert seat in out.table.game.out  # removed after three timeouts in a row
    assert any("timed out too often" in n for n in out.notices)


async def test_pause_lets_a_person_jump_in(svc: ChatService) -> None:
    assert (await svc.handle(CHAT, ADMIN, c.SetVariant("party"))).ok
    await svc.handle(CHAT, ANA, c.NewGame())
    await svc.handle(CHAT, ANA, c.AddAI(3, "basic"))
    out = await svc.handle(CHAT, ANA, c.Start())
    paused = 0
    for _ in range(20000):
        table = out.table
        if table.phase == BETWEEN_ROUNDS:
            out = await svc.handle(CHAT, ANA, c.NextRound())
            continue
        if table.phase != PLAYING:
            break
        if out.paused:
            paused += 1
            hv = hand_view(table, ANA.id)
            if hv.jump_ins:
                m = hv.jump_ins[0]
                color = {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}.get(m.color or "")
                out = await svc.handle(CHAT, ANA, c.Play(m.card.text, color))
                assert out.ok and any("jumps in" in n for n in out.notices)
                return
            out = await svc.handle(CHAT, ANA, c.Continue(version=table.version))
            continue
        out = await svc.handle(CHAT, ANA, first_legal(table, ANA))
    raise AssertionError(f"no jump-in offered in a whole match (paused {paused} times)")


async def test_store_outage_is_a_clear_message_and_loses_nothing(tmp_path: Path) -> None:
    server = RedisServer(tmp_path).start()
    store = RedisStore.from_url(server.url, connect_timeout=0.5, socket_timeout=0.5)
    svc = ChatService(store)
    try:
        await lobby(svc, ANA, BEN)
        server.stop()
        out = await svc.handle(CHAT, CAT, c.Join())
        assert out.code == "store_unavailable" and "Try again shortly" in out.error
        server.start()
        out = await svc.handle(CHAT, CAT, c.Join())
        assert out.ok and [s.name for s in out.table.seats] == ["Ana", "Ben", "Cat"]
    finally:
        await store.close()
        server.stop()


async def test_views_never_show_hands_publicly(svc: ChatService) -> None:
    await lobby(svc, ANA, BEN)
    table = (await svc.handle(CHAT, ANA, c.Start())).table
    text = "\n".join(status_lines(table_view(table), "en"))
    for hand in table.game.hands:
        shown = [card for card in hand if card.text in text]
        assert not shown
    assert "Ana (7)" in text and "Ben (7)" in text


async def test_lobby_expiry_allows_a_new_game(clock: Clock) -> None:
    svc = ChatService(MemoryStore(), clock=clock, defaults=Defaults(lobby_minutes=1))
    await svc.handle(CHAT, ANA, c.NewGame())
    assert (await svc.handle(CHAT, BEN, c.NewGame())).code == "lobby_open"  # one waits: join that one
    clock.now += 120
    out = await svc.handle(CHAT, BEN, c.NewGame())
    assert out.ok and out.table.creator == BEN.id


async def test_lobby_table_phase_is_lobby(svc: ChatService) -> None:
    await svc.handle(CHAT, ANA, c.NewGame())
    assert (await svc.table(CHAT)).phase == LOBBY
    assert (await svc.handle(CHAT, ANA, c.Start())).code == "too_few_players"


async def test_two_services_on_one_store_never_act_on_a_remembered_table(clock: Clock) -> None:
    """Two bot processes: each remembers the table it saved last. A move made
    through the other one must be seen (the compare-and-set save fails and
    the command is computed again), and a refusal is judged on the stored
    table, never on a remembered one."""
    store = MemoryStore()
    one = ChatService(store, clock=clock, rng=random.Random(3))
    two = ChatService(store, clock=clock, rng=random.Random(4))
    await one.handle(CHAT, ANA, c.NewGame())
    await two.handle(CHAT, BEN, c.Join())
    table = (await one.handle(CHAT, ANA, c.Start())).table
    people = {ANA.id: ANA, BEN.id: BEN}
    services = [one, two]
    for i in range(40):
        table = await services[i % 2].table(CHAT)
        if table.phase != PLAYING:
            break
        mover = people[table.seats[table.game.turn].id]
        waiting = people[table.seats[1 - table.game.turn].id]
        # The service that did NOT save last may remember an older table:
        # a move by the player whose turn it now is must still be accepted...
        out = await services[(i + 1) % 2].handle(CHAT, mover, first_legal(table, mover))
        assert out.ok, out.code
        # ...and the other player's move refused, by either service.
        for svc in services:
            latest = await svc.table(CHAT)
            if latest.phase == PLAYING and latest.seats[latest.game.turn].id != waiting.id:
                assert (await svc.handle(CHAT, waiting, c.Draw())).code == "not_your_turn"
    final = await one.table(CHAT)
    assert final.version == (await two.table(CHAT)).version
    game_id = await store.chat_game(CHAT)
    assert game_id is not None
    moves = [e for e in await store.read_log(game_id) if e[0].isdigit()]
    assert len(moves) == final.game.moves


async def test_a_chat_that_changes_id_keeps_its_game_settings_and_counters(svc: ChatService) -> None:
    """A Telegram group becoming a supergroup gets a new id: everything follows it."""
    assert (await svc.handle(CHAT, ADMIN, c.SetLanguage("es"))).ok
    await svc.store.incr_stats("chat", CHAT, {"games": 2})
    await lobby(svc, ANA, BEN)
    started = (await svc.handle(CHAT, ANA, c.Start())).table
    assert started is not None
    await svc.set_adapter_data(CHAT, {"status": 41})
    moved = await svc.move_chat(CHAT, "group-2")
    assert moved is not None and moved.chat_id == "group-2" and moved.adapter == {}
    assert await svc.table(CHAT) is None
    again = await svc.table("group-2")
    assert again is not None and again.version == started.version and again.game is not None
    assert again.game.hands == started.game.hands  # type: ignore[union-attr]
    assert (await svc.settings("group-2"))["lang"] == "es"
    assert (await svc.store.get_stats("chat", "group-2"))["games"] == 2
    assert not any((await svc.store.get_stats("chat", CHAT)).values())
    # The game plays on under the new id; a second announcement moves nothing.
    person = ANA if again.seats[again.game.turn].id == ANA.id else BEN
    assert (await svc.handle("group-2", person, first_legal(again, person))).ok
    assert await svc.move_chat(CHAT, "group-2") is None
    assert (await svc.store.get_stats("chat", "group-2"))["games"] == 2
    assert await svc.table("group-2") is not None


async def test_a_play_can_say_uno_with_it(svc: ChatService) -> None:
    """Play(uno=True): UNO and the card in one revision, or neither."""
    import dataclasses

    assert (await svc.handle(CHAT, ADMIN, c.SetRule(rule="deck", option="hand_size", value=3))).ok
    await lobby(svc, ANA, BEN)
    table = (await svc.handle(CHAT, ANA, c.Start())).table
    assert table is not None and table.game is not None
    for _ in range(40):  # play on until someone on turn holds two cards and can play one
        mover = [ANA, BEN][table.game.turn]
        move = first_legal(table, mover)
        if len(table.game.hands[table.game.turn]) == 2 and isinstance(move, c.Play):
            break
        if isinstance(move, c.Play) and len(table.game.hands[table.game.turn]) == 3:
            # Three cards: UNO with this play is refused, and nothing changes.
            out = await svc.handle(CHAT, mover, dataclasses.replace(move, uno=True))
            assert not out.ok
            assert (await svc.table(CHAT)).version == table.version  # type: ignore[union-attr]
        out = await svc.handle(CHAT, mover, move)
        assert out.ok and out.table is not None and out.table.game is not None
        table = out.table
        assert table.phase == PLAYING, "the round ended before a two-card play came up (seeded: it does not)"
    else:
        raise AssertionError("no two-card play in 40 moves")
    seat = table.game.turn
    out = await svc.handle(CHAT, mover, dataclasses.replace(move, uno=True))
    assert out.ok and out.table is not None and out.table.game is not None
    assert out.table.version == table.version + 1  # one revision for both
    assert len(out.table.game.hands[seat]) == 1 and out.table.game.said_uno(seat)
    kinds = [e.kind for e in out.events]
    assert kinds.index("uno_said") < kinds.index("card_played")


async def test_new_game_tells_an_unknown_variant_from_one_the_house_rules_clash_with(svc: ChatService) -> None:
    assert (await svc.handle(CHAT, ADMIN, c.SetVariant(name="reglas-de-uno"))).ok
    assert (await svc.handle(CHAT, ADMIN, c.SetRule(rule="no-bluffing", enabled=True))).ok
    out = await svc.handle(CHAT, ANA, c.NewGame(variant="nope"))
    assert out.code == "unknown_variant"
    # Where the names are: the front-end's own command for the list (a person cannot guess them).
    assert out.error == "There is no variant of that name; /variant lists them."
    assert out.refusal("es", {"variant": "/uno variant"}) == \
        "No hay ninguna variante con ese nombre; /uno variant las muestra todas."
    out = await svc.handle(CHAT, ANA, c.NewGame(variant="official"))  # has the challenge no-bluffing excludes
    assert out.code == "variant_rules_clash" and "/rules" in (out.error or "")
    assert await svc.table(CHAT) is None
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok


async def _rig(svc: ChatService, hands: list[str], top: str, next_draw: str) -> None:
    """Lay the running table out: these hands, this top card, this card next off the pile."""
    from unobot.cards import parse_card
    from unobot.chat.table import Table

    game_id = await svc.store.chat_game(CHAT)
    assert game_id is not None
    stored = await svc.store.load_game(game_id)
    assert stored is not None
    table = Table.decode(stored.state, stored.version)
    game = table.game
    assert game is not None
    game.hands = [[parse_card(t) for t in h.split()] for h in hands]
    game.discard = [parse_card(top)]
    game.color = game.discard[-1].color
    game.draw_pile.append(parse_card(next_draw))
    game.turn, game.pending, game.draws, game.drawn = 0, 0, 0, None
    game.legal = None
    await svc.store.save_game(game_id, table.encode(), expected_version=stored.version)


async def test_draw_and_play_it_if_it_fits(svc: ChatService) -> None:
    assert (await svc.handle(CHAT, ADMIN, c.SetRule(rule="scoring", option="target", value=0))).ok
    await lobby(svc, ANA, BEN)
    assert (await svc.handle(CHAT, ANA, c.Start())).ok
    # It fits: drawn and played in one revision, and UNO said (two cards before the play).
    await _rig(svc, ["G1", "B2 B3"], "R9", next_draw="R4")
    before = await svc.table(CHAT)
    assert before is not None and before.seats[0].id == ANA.id
    out = await svc.handle(CHAT, ANA, c.Draw(then_play=True))
    assert out.ok and out.table is not None and out.table.game is not None
    assert out.table.version == before.version + 1
    assert [c.text for c in out.table.game.hands[0]] == ["G1"] and out.table.game.discard[-1].text == "R4"
    assert out.table.game.said_uno(0) and out.table.game.turn == 1
    # It does not fit: drawn and kept, the turn is over.
    await _rig(svc, ["G1", "B2 B3"], "R9", next_draw="Y7")
    out = await svc.handle(CHAT, ANA, c.Draw(then_play=True))
    assert out.ok and out.table is not None and out.table.game is not None
    assert sorted(c.text for c in out.table.game.hands[0]) == ["G1", "Y7"] and out.table.game.turn == 1
    # A drawn wild is played with the colour the hand holds most of.
    await _rig(svc, ["G1 G2 B5", "B2 B3"], "R9", next_draw="W")
    out = await svc.handle(CHAT, ANA, c.Draw(then_play=True))
    assert out.ok and out.table is not None and out.table.game is not None
    assert out.table.game.discard[-1].text == "W" and out.table.game.color == "G"
    # A drawn Wild Draw Four while holding the colour in play would be a bluff
    # a challenge catches: kept, and the player decides (play it or pass).
    await _rig(svc, ["G1 R2 B5", "B2 B3"], "R9", next_draw="W+4")
    out = await svc.handle(CHAT, ANA, c.Draw(then_play=True))
    assert out.ok and out.table is not None and out.table.game is not None
    game = out.table.game
    assert "W+4" in [c.text for c in game.hands[0]] and game.discard[-1].text == "R9"
    assert game.turn == 0 and game.pending == 0
    # Without the colour it is no bluff, and it is played.
    await _rig(svc, ["G1 G2 B5", "B2 B3"], "R9", next_draw="W+4")
    out = await svc.handle(CHAT, ANA, c.Draw(then_play=True))
    assert out.ok and out.table is not None and out.table.game is not None
    assert out.table.game.discard[-1].text == "W+4" and out.table.game.pending == 4


async def test_a_refused_play_with_uno_says_no_uno(svc: ChatService) -> None:
    """The card does not fit: UNO is not said either, in the store or in the refusal's table."""
    await lobby(svc, ANA, BEN)
    assert (await svc.handle(CHAT, ANA, c.Start())).ok
    await _rig(svc, ["G1 B7", "B2 B3"], "R9", next_draw="R4")
    before = await svc.table(CHAT)
    out = await svc.handle(CHAT, ANA, c.Play(card="G1", uno=True))
    assert not out.ok and out.table is not None and out.table.game is not None
    assert not out.table.game.said_uno(0) and out.table.version == before.version  # type: ignore[union-attr]
    assert "uno_said" not in [r[0] for r in out.table.recent]
    stored = await svc.table(CHAT)
    assert stored is not None and stored.game is not None and not stored.game.said_uno(0)


async def test_a_chat_move_that_failed_halfway_completes_when_called_again(
        svc: ChatService, monkeypatch: pytest.MonkeyPatch) -> None:
    from unobot.store import StoreUnavailable

    await svc.store.incr_stats("chat", CHAT, {"games": 3})
    await lobby(svc, ANA, BEN)
    started = (await svc.handle(CHAT, ANA, c.Start())).table
    assert started is not None and started.game is not None
    real_delete = svc.store.delete_game

    async def down(game_id: str) -> bool:
        raise StoreUnavailable("redis went away")

    monkeypatch.setattr(svc.store, "delete_game", down)
    with pytest.raises(StoreUnavailable):
        await svc.move_chat(CHAT, "group-2")  # copied, but the old game is still there
    # Meanwhile a move lands on the old game.
    mover = [ANA, BEN][started.game.turn]
    assert (await svc.handle(CHAT, mover, first_legal(started, mover))).ok
    monkeypatch.setattr(svc.store, "delete_game", real_delete)
    moved = await svc.move_chat(CHAT, "group-2")
    assert moved is not None and moved.version == started.version + 1  # the late move came along
    assert await svc.table(CHAT) is None
    again = await svc.table("group-2")
    assert again is not None and again.version == started.version + 1
    assert (await svc.store.get_stats("chat", "group-2"))["games"] == 3  # moved once, not twice
    assert await svc.move_chat(CHAT, "group-2") is None  # the second announcement: nothing left to move
    assert (await svc.store.get_stats("chat", "group-2"))["games"] == 3


async def test_the_last_person_at_a_table_is_never_removed_for_timeouts(svc: ChatService, clock: Clock) -> None:
    """A person alone with AI seats (the console's game, a chat whose others
    left) who keeps running out of time is timed out turn after turn, never
    removed: removing them left a match among AI seats nobody watched, which
    still asked them for "Next round"."""
    assert (await svc.handle(CHAT, ADMIN, c.SetTimer(10))).ok
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
    assert (await svc.handle(CHAT, ANA, c.AddAI(2, "normal"))).ok
    out = await svc.handle(CHAT, ANA, c.Start())
    timeouts = 0
    for _ in range(200):
        table = out.table
        assert table is not None
        if table.phase != PLAYING or timeouts >= 5:
            break
        if table.seats[table.game.turn].id == ANA.id:
            clock.now += 11
            out = await svc.handle(CHAT, ANA, c.Skip(auto=True, version=table.version))
            assert out.ok and out.changed
            timeouts += 1
        else:  # AI seats wait on a person: let them go on
            out = await svc.handle(CHAT, ANA, c.Continue()) if out.paused else out
    assert timeouts >= 3, timeouts  # past kick_after (3)
    assert ANA.id not in out.table.left and not any("timed out too often" in n for n in out.notices)


async def test_the_challenger_alone_is_shown_the_challenged_hand(svc: ChatService) -> None:
    """The official rule: the challenged player shows their hand to the
    challenger. Only the console did (it read the hands itself); core now
    says it among the challenger's private lines, which every front-end
    sends, in the challenger's language."""
    from unobot.cards import parse_card, sort_key
    from unobot.chat.i18n import gettext_for
    from unobot.chat.render import card_name

    assert (await svc.handle(CHAT, ADMIN, c.SetRule(rule="scoring", option="target", value=0))).ok
    await lobby(svc, ANA, BEN)
    assert (await svc.handle(CHAT, ANA, c.Start())).ok
    await _rig(svc, ["W+4 R9 B2", "G2 Y6 G3"], "R5", next_draw="G9")
    assert (await svc.handle(CHAT, ANA, c.Play(card="W+4", color="blue"))).ok  # a bluff: she holds red
    out = await svc.handle(CHAT, BEN, c.Challenge())
    assert out.ok and out.table is not None
    assert set(out.shown) == {BEN.id} and [card.text for card in out.shown[BEN.id][1]] == ["R9", "B2"]
    for lang in ("en", "es"):
        _ = gettext_for(lang)
        hand = _("{player}'s hand:").format(player="Ana") + " " + ", ".join(
            card_name(card, lang) for card in sorted(map(parse_card, ("B2", "R9")), key=sort_key))
        assert hand in out.private_for(BEN.id, lang), out.private_for(BEN.id, lang)
        assert not [line for line in out.private_for(ANA.id, lang) if "Ana" in line]  # nobody else sees it
    assert any("Ana" in line for line in out.private[BEN.id])


async def test_any_rule_may_say_after_how_many_timeouts_a_player_is_removed(svc: ChatService,
                                                                              clock: Clock) -> None:
    """Core read turn-timer's `kick_after` by the rule's name, so no other
    rule could ask for a player's removal. Now any rule answers
    `Rule.timeouts_before_removal` (docs/plugins.md), a house rule before
    the shared turn-timer: this one removes after a single timeout."""
    from unobot import Rule
    from unobot.testing import installed

    class OneStrike(Rule):
        name = "one-strike-for-a-test"

        def timeouts_before_removal(self) -> int | None:
            return 1

    with installed(OneStrike):
        assert (await svc.handle(CHAT, ADMIN, c.SetTimer(10))).ok
        assert (await svc.handle(CHAT, ADMIN, c.SetRule("one-strike-for-a-test", enabled=True))).ok
        await lobby(svc, ANA, BEN, CAT)
        table = (await svc.handle(CHAT, ANA, c.Start())).table
        victim = table.seats[table.game.turn].id
        clock.now += 11
        out = await svc.handle(CHAT, ANA, c.Skip(auto=True, version=table.version))
        assert out.ok and out.changed
        assert table.seat_of(victim) in out.table.game.out  # removed after one timeout, not three
        assert any("timed out too often" in n for n in out.notices)
