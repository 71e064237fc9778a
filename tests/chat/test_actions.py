"""The table model: what a person may do now, as every front-end offers it.

Whole games are played through the chat service by picking only among the
menu's actions (people and AI seats at the same table, every shipped
variant, the example plugin's out-of-turn move): every action offered is
accepted, every legal move is offered, and ids go back to their command.
"""

from __future__ import annotations

import random

import pytest

from unobot.chat import actions as a
from unobot.chat import commands as c
from unobot.chat.service import ChatService
from unobot.chat.table import BETWEEN_ROUNDS, FINISHED, LOBBY, PLAYING, Table
from unobot.chat.views import table_view
from unobot.chat.wake import CLOCK, CONT, LOBBY_EXPIRY, TIMER, Pacing, due, wake_plan
from unobot.engine import legal_moves
from unobot.store import MemoryStore

ANA = c.Person("1", "Ana")
BEN = c.Person("2", "Ben")
CAT = c.Person("3", "Cat")
ADMIN = c.Person("9", "Boss", is_admin=True)
PEOPLE = {p.id: p for p in (ANA, BEN, CAT)}
CHAT = "chat-1"
VARIANTS = ["official", "no-mercy", "crazy", "official-2018", "reglas-de-uno", "party", "fast"]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def started(variant: str, seed: int, rules: dict[str, object] | None = None,
                  ai: int = 1) -> tuple[ChatService, Clock]:
    clock = Clock()
    svc = ChatService(MemoryStore(), clock=clock, rng=random.Random(seed))
    if rules:
        for name, value in rules.items():
            out = await svc.handle(CHAT, ADMIN, c.SetRule(rule=name, enabled=bool(value)))
            assert out.ok, out.error
    assert (await svc.handle(CHAT, ANA, c.NewGame(variant=variant))).ok
    for p in (BEN, CAT):
        assert (await svc.handle(CHAT, p, c.Join())).ok
    if ai:
        assert (await svc.handle(CHAT, ANA, c.AddAI(count=ai))).ok
    assert (await svc.handle(CHAT, ANA, c.Start())).ok
    return svc, clock


def covered(table: Table, person: c.Person, menu: a.Menu) -> None:
    """Every legal move of the person is some action's command."""
    seat = table.seat_of(person.id)
    assert seat is not None and table.game is not None
    offered = {x.command for x in menu.actions if x.group != a.LOBBY_GROUP}
    for m in legal_moves(table.game, seat):
        if m.kind == "uno" and table.game.pending and table.game.turn == seat:
            continue  # UNO alone is not offered with cards to take first (with a play it is)
        cmd = a.command_of(table, m)
        assert any(_same(cmd, o) for o in offered), (m, [x.id for x in menu.actions])


def _same(cmd: c.Command, other: c.Command) -> bool:
    from dataclasses import replace

    return replace(cmd, version=None) == replace(other, version=None)


@pytest.mark.parametrize("variant", VARIANTS)
async def test_every_action_offered_is_accepted_and_every_move_offered(variant: str) -> None:
    rnd = random.Random(variant)
    for seed in range(2):
        svc, clock = await started(variant, seed)
        for _step in range(400):
            table = await svc.table(CHAT)
            if table is None:  # the match is over: the chat's game is gone
                break
            if table.phase == BETWEEN_ROUNDS:
                menu = a.menu(table, ANA.id)
                assert [x.kind for x in menu.actions] == [a.NEXT_ROUND]
                out = await svc.handle(CHAT, ANA, menu.actions[0].command)
                assert out.ok, out.error
                continue
            if table.phase != PLAYING:
                break
            menus = {pid: a.menu(table, pid) for pid in PEOPLE}
            for pid, menu in menus.items():
                covered(table, PEOPLE[pid], menu)
                for x in menu.actions:  # ids are the command's code
                    assert a.decode(x.id, table.version, table, pid) == x.command, x
                    assert len(x.id.encode()) <= 64 and x.label
            movers = [pid for pid, m in menus.items() if m.playing]
            if not movers:  # AI seats paused for nobody: let them go on
                out = await svc.handle(CHAT, ANA, c.Continue(version=table.version))
                assert out.ok, out.error
                continue
            pid = rnd.choice(movers)
            pick = rnd.choice(menus[pid].actions)
            out = await svc.handle(CHAT, PEOPLE[pid], pick.command)
            assert out.ok, (variant, pick.id, out.error)
            clock.now += 1


async def test_wild_starter_offers_the_four_colours_first() -> None:
    for seed in range(400):
        svc, _clock = await started("official", seed, ai=0)
        table = await svc.table(CHAT)
        assert table is not None and table.game is not None
        if table.game.top is None or table.game.top.text != "W" or table.game.color is not None:
            continue
        on_turn = table.seats[table.game.turn].id
        menu = a.menu(table, on_turn)
        assert [x.kind for x in menu.actions] == ["color"] * 4
        assert {x.color for x in menu.actions} == set("RYGB")
        out = await svc.handle(CHAT, PEOPLE[on_turn], menu.actions[2].command)
        assert out.ok and out.table is not None and out.table.game is not None
        assert out.table.game.color == menu.actions[2].color
        return
    pytest.fail("no Wild starter in 400 deals")


async def test_plugin_move_out_of_turn_is_offered() -> None:
    """The example plugin's cheer (any player not on turn, once a round) is an out-of-turn action."""
    svc, _clock = await started("official", 3, rules={"cheer": True}, ai=0)
    table = await svc.table(CHAT)
    assert table is not None and table.game is not None
    off_turn = next(p for p in PEOPLE.values() if table.seat_of(p.id) != table.game.turn)
    menu = a.menu(table, off_turn.id)
    knocks = [x for x in menu.actions if x.kind == "cheer"]
    assert knocks and knocks[0].group == a.OUT_OF_TURN and isinstance(knocks[0].command, c.PluginMove)
    # Any plugin move may come back by its text's digest (a front-end with less room for an id).
    short = a.digest(knocks[0].command.text)
    assert knocks[0].id != short
    assert a.decode(short, table.version, table, off_turn.id) == knocks[0].command
    assert a.decode(short, table.version, table, "nobody") is None
    out = await svc.handle(CHAT, off_turn, knocks[0].command)
    assert out.ok, out.error


async def test_grouped_folds_a_wild_into_one_card_with_its_colours() -> None:
    svc, _clock = await started("official", 11, ai=0)
    for _ in range(300):
        table = await svc.table(CHAT)
        assert table is not None and table.game is not None
        if table.phase != PLAYING:
            break
        pid = table.seats[table.game.turn].id
        menu = a.menu(table, pid)
        wilds = [x for x in menu.grouped(a.CARD) if x.needs == ("color",)]
        if wilds:
            w = wilds[0]
            assert len(w.choices) == 4 and {x.color for x in w.choices} == set("RYGB")
            assert all(x.card == w.card for x in w.choices)
            # A press names the grouped wild (its picker) or one complete colour.
            assert menu.lookup(w.id) == w and menu.lookup(w.choices[0].id) == w.choices[0]
            assert menu.lookup("no-such-action") is None
            shorts = [w.choice_label(x) for x in w.choices]  # under the wild's label: just the colour
            assert all(s and not s.startswith(w.label) for s in shorts) and len(set(shorts)) == 4
            out = await svc.handle(CHAT, PEOPLE[pid], w.choices[0].command)
            assert out.ok, out.error
            return
        out = await svc.handle(CHAT, PEOPLE[pid], menu.actions[0].command)
        assert out.ok, out.error
    pytest.fail("nobody held a playable wild")


async def test_lobby_actions_follow_who_may_do_what() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(1))
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
    table = await svc.table(CHAT)
    assert table is not None and table.phase == LOBBY
    creator = {x.kind for x in a.actions(table, ANA.id)}
    passer = {x.kind for x in a.actions(table, BEN.id)}
    assert creator == {a.START, a.ADD_AI, a.LEAVE}
    assert passer == {a.JOIN}
    join = a.actions(table, BEN.id)[0]
    assert (await svc.handle(CHAT, BEN, join.command)).ok
    table = await svc.table(CHAT)
    assert table is not None
    add = next(x for x in a.actions(table, ANA.id) if x.kind == a.ADD_AI)
    assert add.needs == ("level",) and add.choices
    assert (await svc.handle(CHAT, ANA, add.choices[-1].command)).ok
    table = await svc.table(CHAT)
    assert table is not None and table.seats[-1].is_ai and table.seats[-1].level == add.choices[-1].code


def test_decode_refuses_what_is_not_an_id() -> None:
    for bad in ("", "z", "p", "pR5.Q", "h", "hX", "a", "a1x", "é", "x" * 101, "M" + "A" * 16):
        assert a.decode(bad, 3) is None, bad
    assert a.decode("pW+4.G@12!", 5) == c.Play(card="W+4", color="green", target="12", uno=True, version=5)
    assert a.decode("d+", 1) == c.Draw(then_play=True, version=1)


def test_labels_speak_the_persons_language() -> None:
    import asyncio

    svc, _clock = asyncio.run(started("official", 5, ai=0))
    table = asyncio.run(svc.table(CHAT))
    assert table is not None and table.game is not None
    pid = table.seats[table.game.turn].id
    en = a.menu(table, pid, "en").actions
    es = a.menu(table, pid, "es").actions
    assert [x.id for x in en] == [x.id for x in es]
    draw_en = next(x for x in en if x.kind == "draw")
    draw_es = next(x for x in es if x.kind == "draw")
    assert "Draw" in draw_en.label and draw_es.label != draw_en.label


async def test_wake_plan_lobby_timer_and_round_clock() -> None:
    clock = Clock()
    svc = ChatService(MemoryStore(), clock=clock, rng=random.Random(2))
    assert (await svc.handle(CHAT, ADMIN, c.SetTimer(seconds=20))).ok
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
    table = await svc.table(CHAT)
    assert table is not None
    plan = wake_plan(table, clock.now, Pacing(lobby_seconds=60))
    lobby = due(plan, LOBBY_EXPIRY)
    assert lobby is not None and lobby.when == table.created + 60 and isinstance(lobby.command, c.Stop)
    assert (await svc.handle(CHAT, BEN, c.Join())).ok
    table = await svc.table(CHAT)
    assert table is not None
    stale = due(wake_plan(table, clock.now), LOBBY_EXPIRY)
    assert stale is not None
    assert (await svc.handle(CHAT, ANA, c.Start())).ok
    table = await svc.table(CHAT)
    assert table is not None and table.phase == PLAYING
    plan = wake_plan(table, clock.now)
    timer = due(plan, TIMER)
    assert timer is not None and timer.when == pytest.approx(table.turn_started + 20.3)
    assert due(plan, CONT) is None and due(plan, CLOCK) is None
    # The stale lobby expiry does nothing: the lobby moved on (started).
    out = await svc.handle(CHAT, ANA, stale.command)
    assert not out.ok and out.code == "stale"
    clock.now = timer.when
    out = await svc.handle(CHAT, ANA, timer.command)
    assert out.ok and out.changed


async def test_round_clock_is_planned_for_blitz() -> None:
    svc, clock = await started("official", 4, rules={"blitz": True}, ai=0)
    table = await svc.table(CHAT)
    assert table is not None
    ring = due(wake_plan(table, clock.now), CLOCK)
    assert ring is not None and ring.when == table.round_started + 5 * 60
    clock.now = ring.when + 1
    out = await svc.handle(CHAT, ANA, ring.command)
    assert out.ok and out.table is not None and out.table.phase in (BETWEEN_ROUNDS, FINISHED)


async def test_play_order_and_next_player_with_shuffled_seats() -> None:
    svc, _clock = await started("official", 9, rules={"shuffle-seats": True}, ai=1)
    table = await svc.table(CHAT)
    assert table is not None and table.game is not None
    view = table_view(table)
    assert sorted(view.order) == list(range(len(table.seats)))
    # The order is the rules': each next seat in the list is who plays after (wrapping round).
    step = 1 if table.game.direction == 1 else -1
    rules = table.game.rules
    assert rules is not None
    for i, seat in enumerate(view.order):
        assert rules.next_turn(table.game, seat, 0) == view.order[(i + step) % len(view.order)]
    assert view.next_seat == rules.next_turn(table.game, table.game.turn, 0)
    assert [p.is_next for p in view.players].count(True) == 1


def _dealt(hands: list[str], top: str, turn: int = 0) -> Table:
    from unobot.cards import parse_cards
    from unobot.chat.table import Seat
    from unobot.engine import setup_round

    seats = [Seat("1", "Ana"), Seat("2", "Ben")]
    game = setup_round("official", [s.id for s in seats], [parse_cards(h) for h in hands], parse_cards(top),
                       parse_cards("R1 R2 R3 R4 R5 R6 R7 R8 R9"), turn=turn)
    return Table(chat_id=CHAT, creator="1", seats=seats, phase=PLAYING, game=game)


def test_a_last_wild_needs_no_colour_the_round_ends_whichever() -> None:
    last = a.menu(_dealt(["W", "R5 R6"], "G9"), "1")
    wilds = [x for x in last.grouped(a.CARD) if x.card is not None and x.card.text == "W"]
    assert len(wilds) == 1 and wilds[0].needs == () and wilds[0].finishing
    assert isinstance(wilds[0].command, c.Play) and wilds[0].command.color  # one complete play
    two = a.menu(_dealt(["W G1", "R5 R6"], "G9"), "1")
    wild = next(x for x in two.grouped(a.CARD) if x.card is not None and x.card.text == "W")
    assert wild.needs == ("color",) and len(wild.choices) == 4 and not wild.finishing


async def test_each_action_stands_out_by_its_tone() -> None:
    """Joining moves the game on, starting is the choice on offer, leaving is
    quiet; a kind with no tone of its own (a plugin's, say) is quiet too."""
    svc = ChatService(MemoryStore(), rng=random.Random(2))
    assert (await svc.handle(CHAT, ANA, c.NewGame())).ok
    table = await svc.table(CHAT)
    assert table is not None
    tones = {x.kind: x.tone for x in a.menu(table, BEN.id, "en").actions}
    assert tones[a.JOIN] == a.GO
    tones = {x.kind: x.tone for x in a.menu(table, ANA.id, "en").actions}
    assert tones[a.START] == a.MAIN and tones[a.LEAVE] == a.QUIET
    assert {a.TONES[k] for k in ("uno", "catch", "challenge")} == {a.ALERT}
    assert a.Action("mx", "a-plugin-kind", a.TURN, "X", c.PluginMove(text="x")).tone == a.QUIET


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_plugin_moves_word_that_is_no_card_nor_player_is_said_so(lang: str) -> None:
    """`multi R5 X5` (a typo in the second card) was refused with "No such player
    in this game.": the engine reads a word that is no card as a target. The
    chat says the word is neither a card nor a player; a real move still plays."""
    from unobot.cards import parse_cards
    from unobot.chat import play
    from unobot.chat.outcome import ChatError, Outcome
    from unobot.chat.render import error_text
    from unobot.chat.table import Seat
    from unobot.engine import setup_round

    seats = [Seat("1", "Ana"), Seat("2", "Ben")]
    game = setup_round("crazy", [s.id for s in seats], [parse_cards("R5 G5 B3"), parse_cards("Y4 R6")],
                       parse_cards("R9"), parse_cards("R1 R2 R3 R4"), turn=0)
    table = Table(chat_id=CHAT, creator="1", seats=seats, phase=PLAYING, game=game, variant="crazy")
    with pytest.raises(ChatError) as refused:
        play.step(table, c.Person("1", "Ana"), c.PluginMove(text="multi R5 X5"), Outcome(table=table), 0.0)
    assert refused.value.code == "bad_move_word"
    assert "neither a card nor a player" in error_text("bad_move_word", "en")
    assert error_text("bad_move_word", lang) != error_text("bad_player", lang)
    assert play.step(table, c.Person("1", "Ana"), c.PluginMove(text="multi R5 G5"), Outcome(table=table), 0.0)
