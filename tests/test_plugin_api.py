"""The plugin API: what a third-party rule can do through `unobot` alone.

The example plugin (tests/example_plugin, installed as its own
distribution) adds a card kind, a move kind, event texts and a refusal
code in two languages, match-level data and a variant; these tests check
each extension point through the engine, the store format and the texts.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import unobot
from tests.rulekit import extra_rule, table
from unobot import Event, GameState, Rule, api, hookimpl
from unobot.cards import parse_card
from unobot.chat import commands as c
from unobot.chat.render import card_name, describe_event, error_text
from unobot.chat.service import ChatService
from unobot.engine import apply, legal_moves, new_game, next_round
from unobot.moves import parse_move
from unobot.state import GameState as State
from unobot.store import MemoryStore
from unobot.variants import (
    VariantError,
    known_variant,
    load_variant,
    resolve,
    rules_for,
    set_configured_path,
    variant_names,
)


def test_the_public_surface_is_one_module() -> None:
    assert set(api.__all__) == unobot._API
    for name in api.__all__:
        assert getattr(unobot, name) is getattr(api, name)


def test_a_plugin_card_saves_and_loads() -> None:
    state, _ = new_game("example-party", ["a", "b", "c"], seed=4)
    assert sum(c.rank == "SE" for c in state.all_cards()) == 8  # per_colour: 2
    again = State.decode(state.encode())
    assert again.same_as(state)
    assert {c.text for c in again.all_cards() if c.rank == "SE"} == {"RSE", "YSE", "GSE", "BSE"}


def test_a_plugin_card_has_names_in_both_languages() -> None:
    card = parse_card("BSE")
    assert card_name(card, "en") == "Blue Skip Everyone"
    assert "Salta a todos" in card_name(card, "es")
    assert card.value == 20


def test_plugin_texts_in_the_readers_language() -> None:
    def name(seat: int) -> str:
        return ["Ana", "Ben"][seat]

    assert describe_event(Event("knocked", 1, n=2), name, "en") == \
        "Ben knocks on the table (2 knocks this match)."
    assert describe_event(Event("knocked", 1, n=1), name, "es") == \
        "Ben golpea la mesa (1 golpe en la partida)."
    assert error_text("already_knocked", "es") == "Ya has golpeado la mesa en esta mano."
    # an event kind nobody declared is shown as nothing, never as an internal name
    assert describe_event(Event("no_such_kind", 0), name, "en") is None


def test_a_plugin_move_is_offered_applied_and_replays_from_its_text() -> None:
    state = table("example-party", hands={"ana": "G5 R1", "ben": "B1 B2", "cat": "Y1"}, discard="G3")
    knock = next(m for m in legal_moves(state, 0) if m.kind == "knock")
    after, events = apply(state, knock)
    assert events[0].kind == "knocked" and after.match == {"knocks": {"0": 1}}
    replayed, _ = apply(state, parse_move(knock.text, 0, state.players))
    assert replayed.same_as(after)
    assert not any(m.kind == "knock" for m in legal_moves(after, 0))


def test_match_data_lasts_the_match_and_round_data_does_not() -> None:
    state, _ = new_game("example-party", ["a", "b"], seed=2)
    first = state.turn
    state, _ = apply(state, parse_move("knock", first, state.players))
    assert state.ext.get("knocked") == [first]
    state.phase, state.winner = "round_over", 0
    state2, _ = next_round(state)
    assert state2.match == {"knocks": {str(first): 1}}
    assert "knocked" not in state2.ext


def test_a_rule_replaces_another() -> None:
    class Quiet(Rule):
        name = "quiet-uno"
        replaces = ("uno-call",)

    with extra_rule(Quiet):
        resolved = resolve("official", {"quiet-uno": {}})
        assert "uno-call" not in resolved.rules and resolved.replaced == {"uno-call": "quiet-uno"}
        assert "uno-call" in resolve("official").rules


def test_a_variant_states_the_order_of_rules_on_a_shared_hook(tmp_path: Path) -> None:
    calls: list[str] = []

    def rule(rule_name: str) -> type[Rule]:
        class R(Rule):
            name = rule_name

            @hookimpl
            def before_play(self, state: GameState, move: object, events: list[Event]) -> None:
                calls.append(self.name)

        return R

    first, second = rule("first-rule"), rule("second-rule")
    with extra_rule(first), extra_rule(second):
        for i, order in enumerate((["first-rule", "second-rule"], ["second-rule", "first-rule"])):
            path = tmp_path / f"ordered{i}.yaml"
            path.write_text("extends: official\nrules: {first-rule: {}, second-rule: {}}\n"
                            f"order: [{', '.join(order)}]\n")
            calls.clear()
            state = table(str(path))
            apply(state, parse_move("play R5", 0, state.players))
            assert calls == order


def test_chats_may_start_only_variants_known_by_name() -> None:
    assert known_variant("official") == "official"
    for bad in ("/etc/passwd", "../variants/official", "x" * 300, "official.yaml", "Official"):
        with pytest.raises(VariantError):
            known_variant(bad)


def test_a_variant_file_that_is_not_utf8_names_the_file_and_line(tmp_path: Path) -> None:
    path = tmp_path / "latin.yaml"
    path.write_bytes(b"name: latin\ntitle: {en: Espa\xf1a}\n")
    with pytest.raises(VariantError) as exc:
        load_variant(str(path))
    assert "latin.yaml:2" in str(exc.value) and "UTF-8" in str(exc.value)


def test_a_huge_variant_file_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "huge.yaml"
    path.write_text("name: huge\n" + "# padding\n" * 20_000)
    with pytest.raises(VariantError, match="larger than"):
        load_variant(str(path))


def test_variants_path_and_plugin_variants(tmp_path: Path) -> None:
    assert "example-party" in variant_names()  # published by the example plugin's entry point
    (tmp_path / "house-party.yaml").write_text("extends: party\nrules: {must-play: {}}\n")
    try:
        set_configured_path([tmp_path])
        assert "house-party" in variant_names()
        assert rules_for("house-party").enabled("must-play")
    finally:
        set_configured_path([])
    assert "house-party" not in variant_names()


# -- the chat tells a plugin when a match ends, however it ends ------------------------

ANA_P, BEN_P, CAT_P = (c.Person(str(i), n, "es") for i, n in ((1, "Ana"), (2, "Ben"), (3, "Cat")))


async def _chat_game(*people: c.Person) -> ChatService:
    svc = ChatService(MemoryStore(), clock=lambda: 1000.0, rng=random.Random(3))
    admin = c.Person(people[0].id, people[0].name, "es", is_admin=True)
    assert (await svc.handle("g", admin, c.SetLanguage("es"))).ok
    assert (await svc.handle("g", admin, c.SetRule(rule="match-report", enabled=True))).ok
    assert (await svc.handle("g", people[0], c.NewGame())).ok
    for p in people[1:]:
        assert (await svc.handle("g", p, c.Join())).ok
    assert (await svc.handle("g", people[0], c.Start())).ok
    return svc


async def test_the_chat_tells_match_end_when_players_leave() -> None:
    svc = await _chat_game(ANA_P, BEN_P, CAT_P)
    out = await svc.handle("g", CAT_P, c.Leave())
    assert not any("Resumen" in n for n in out.notices)
    out = await svc.handle("g", BEN_P, c.Leave())
    assert "Resumen: los demás se fueron, así que Ana ganó la partida con 0 puntos." in out.notices
    assert out.table is not None and out.table.phase == "finished"


@pytest.mark.parametrize("command", [c.Stop(), c.StopAfterRounds()], ids=["stop", "after-rounds"])
async def test_the_chat_tells_match_end_when_it_stops_the_match(command: c.Command) -> None:
    svc = await _chat_game(ANA_P, BEN_P)
    out = await svc.handle("g", c.Person("1", "Ana", "es", is_admin=True), command)
    assert out.ok
    said = "Resumen: la partida se detuvo;" if type(command) is c.Stop else "Resumen: jugadas todas sus manos,"
    report = [n for n in out.notices if n.startswith(said)]
    assert len(report) == 1 and "La partida duró 0 manos." in out.notices
    stopped_by = any("Ana" in n and "detuv" in n and not n.startswith("Resumen") for n in out.notices)
    assert stopped_by == (type(command) is c.Stop)  # after its rounds, no "stopped by"
    assert (await svc.handle("g", ANA_P, command)).code == "no_game"  # over: told once


def test_option_help_is_translated_for_built_in_and_plugin_rules() -> None:
    from unobot.adapters.console.render import rules_text as console_rules
    from unobot.adapters.discord.render import rules_text as discord_rules
    from unobot.chat.settings_menu import SettingsMenu
    from unobot.registry import available_rules
    from unobot.rule import option_specs

    rules = available_rules()
    for name, cls in rules.items():
        for spec in option_specs(cls):
            assert spec.help, f"{name}.{spec.name} has no help"
            assert cls.option_help(spec.name, "es") != spec.help, f"{name}.{spec.name}: no Spanish help"
            assert cls.option_help(spec.name, "en") == spec.help
    crazy = rules_for("crazy", {"sticky-seven": {}, "seven-o": False})
    from rich.console import Console

    screen = Console(width=200, record=True)
    screen.print(console_rules("Locura", crazy, "es"))
    shown = screen.export_text()
    # An option is explained by its help in a list of the rules (a settings button
    # has only its short title), in the reader's words.
    assert "cartas que dejan a un jugador fuera de la mano: 25" in shown
    assert "cartas que un 7 hace robar al siguiente: 2" in shown
    assert "cards that knock" not in shown and "Knock-out at" not in shown and "limit" not in shown
    text = discord_rules(SettingsMenu({"variant": "crazy", "rules": {}, "lang": "es", "timer": 0}, "es"))
    assert "por cuánto se multiplican los puntos de la mano" in text and "what round points" not in text
    assert len(text) <= 2000


def test_penalize_keeps_its_older_form() -> None:
    """penalize(state, card, events), as rules written for unobot 0.2 call it."""
    from unobot import penalize

    state = table(hands={"ana": "R5 R+2", "ben": "B1", "cat": "Y1"})
    state.rules = rules_for("official")
    events: list[Event] = []
    penalize(state, parse_card("R+2"), events)
    assert len(state.hands[1]) == 3 and state.turn == 2 and events[0].kind == "penalty_taken"


def test_a_rule_installed_for_a_test_is_forgotten_with_its_cards_and_moves() -> None:
    """`installed` leaves nothing behind: a later test must not see the rule's
    card kinds, move kinds or texts (they used to outlive the block)."""
    from unobot import N_, CardKind, Rule
    from unobot.cards import all_kinds
    from unobot.registry import MOVE_KINDS, declared
    from unobot.testing import installed

    class Bombs(Rule):
        name = "bombs-for-a-test"
        cards = (CardKind("ZB", name=N_("Bomb"), value=20),)
        move_kinds = {"fuse": N_("Light the fuse")}

    before = {k.rank for k in all_kinds()}
    with installed(Bombs):
        assert "ZB" in {k.rank for k in all_kinds()} and declared(MOVE_KINDS, "fuse") is Bombs
    assert {k.rank for k in all_kinds()} == before and "fuse" not in MOVE_KINDS


def test_a_plugin_scoring_rule_tells_its_target_as_the_built_ins_do() -> None:
    """The lobby's "First to N points wins the match" was read from `scoring`
    and `progressive-scoring` by name: a plugin's own scoring (one that
    replaces scoring) could never show it. Now any rule answers
    `match_target`, and a house rule's answer wins over the shared rule's."""
    from unobot import dataclass, option
    from unobot.chat.match_text import match_length
    from unobot.chat.table import Table
    from unobot.chat.views import rule_facts
    from unobot.testing import installed

    class FirstToTen(Rule):
        name = "first-to-ten-for-a-test"
        replaces = ("scoring",)

        @dataclass(frozen=True)
        class Options:
            goal: int = option(10, min=1, max=100, help="points that win")

        def match_target(self) -> int | None:
            return int(self.options.goal)

        @hookimpl(tryfirst=True)
        def match_winner(self, state: GameState) -> int | None:
            best = max(range(len(state.scores)), key=lambda s: state.scores[s])
            return best if state.scores[best] >= self.options.goal else None

    with installed(FirstToTen):
        table = Table(chat_id="c", creator="1", overrides={"first-to-ten-for-a-test": {"goal": 12}})
        assert rule_facts(table)[1] == 12
        assert match_length("en", target=rule_facts(table)[1]) == "First to 12 points wins the match."
    assert rule_facts(Table(chat_id="c", creator="1"))[1] == 500  # scoring's own
    assert rule_facts(Table(chat_id="c", creator="1", overrides={"progressive-scoring": {"target": 80}}))[1] == 80
    assert rule_facts(Table(chat_id="c", creator="1", overrides={"scoring": {"target": 0}}))[1] is None


def test_a_plugin_timer_is_told_before_a_round_as_the_built_in_one_is() -> None:
    """Before a round is dealt, the lobby's turn timer was read from
    `turn-timer`'s options by the rule's name: a plugin's own timer (its
    `turn_seconds` hook) showed no timer until the round began. Now any rule
    answers `Rule.seconds_per_turn`, a house rule before the shared one."""
    from unobot import dataclass, option
    from unobot.chat.table import Table
    from unobot.chat.views import rule_facts
    from unobot.testing import installed

    class Hourglass(Rule):
        name = "hourglass-for-a-test"

        @dataclass(frozen=True)
        class Options:
            sand: int = option(12, min=1, max=60, help="seconds of sand a turn")

        def seconds_per_turn(self) -> int | None:
            return int(self.options.sand)

        @hookimpl(tryfirst=True)
        def turn_seconds(self, state: GameState) -> int | None:
            return int(self.options.sand)

    with installed(Hourglass):
        assert rule_facts(Table(chat_id="c", creator="1", overrides={"hourglass-for-a-test": {"sand": 9}}))[0] == 9
    assert rule_facts(Table(chat_id="c", creator="1", variant="fast"))[0] == 15  # turn-timer's own
    assert rule_facts(Table(chat_id="c", creator="1"))[0] == 0


def test_a_rule_grown_by_subclassing_keeps_its_explanation() -> None:
    """docs/plugins.md grows its rule step by step (`class LuckySeven(LuckySeven):`),
    the later steps without a docstring: `unobot rules` showed the rule with
    no explanation, since only the last class's own docstring was read."""
    from unobot import Rule

    class Grown(Rule):
        """Grown: explained once, at its first step."""

        name = "grown"

    class Grown2(Grown):
        name = "grown"

    assert Grown2.doc() == "Grown: explained once, at its first step."
