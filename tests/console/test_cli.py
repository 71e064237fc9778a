"""`unobot play --auto` end to end, option errors, and the settings a game is set up with."""

from __future__ import annotations

import asyncio
import io
import subprocess
import sys

import pytest
from rich.console import Console

from unobot.adapters.console.app import ConsoleApp, Options, make_service
from unobot.chat import commands as c
from unobot.chat.i18n import gettext_for
from unobot.chat.service import ChatService
from unobot.chat.settings import override_commands
from unobot.store import MemoryStore

from .helpers import ROOT, env


def unobot(*args: str, extra_env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "unobot.cli", "play", *args], cwd=ROOT,
                          env={**env(), **(extra_env or {})}, capture_output=True, text=True, timeout=60)


def test_auto_plays_a_whole_match() -> None:
    done = unobot("--auto", "--store", "memory", "--seed", "1", "--players", "3", "--delay", "0")
    assert done.returncode == 0, done.stderr
    assert "A demo game:" in done.stdout
    assert "Final scores" in done.stdout
    assert done.stdout.count("wins the match with") == 2  # the event line and the closing panel
    assert "Your move" not in done.stdout and "Traceback" not in done.stderr


def test_auto_is_deterministic_with_a_seed() -> None:
    runs = [unobot("--auto", "--store", "memory", "--seed", "9", "--rounds", "2", "--variant", "party", "--delay", "0")
            for _ in range(2)]
    assert runs[0].returncode == 0 and runs[0].stdout == runs[1].stdout
    assert "Scores after round 2" in runs[0].stdout and "After 2 rounds" in runs[0].stdout


def test_errors_are_reported_without_a_traceback() -> None:
    for args, message in (
        (("--rule", "nosuch"), "unknown rule 'nosuch'"),
        (("--variant", "nope"), "unknown variant 'nope'"),
        (("--rule", "stacking.optional=maybe"), "must be true or false"),
        (("--rule", "no-bluffing"), "conflicts with 'challenge'"),
        (("--rule", "no-bluffing"), "--rule challenge=false"),  # the console's spelling, not YAML
        (("--players", "11"), "--players must be between 2 and 10."),
        (("--rule", "jump-in=maybe"), "a rule is turned on or off with true or false"),
        (("--rule", "jump-in=0"), "not '0'"),
        (("--rule", "deck.hand_size=200"), "hand_size"),
        (("--rule", "stacking.optinal=true"), "did you mean 'optional'? options of 'stacking'"),
        (("--rule", "jumpin=true"), "did you mean 'jump-in'?"),
    ):
        done = unobot("--store", "memory", "--auto", *args)
        assert done.returncode == 2, args
        assert message in done.stderr, done.stderr
        assert "Traceback" not in done.stderr
    done = unobot("--store", "memory", "--resume")
    assert done.returncode == 1 and "There is no saved game to resume." in done.stdout
    assert "Start one with: unobot play" in done.stdout
    # Started through run.py, the hints name the command the player typed.
    done = unobot("--store", "memory", "--resume", extra_env={"UNOBOT_PLAY_COMMAND": "python3 run.py play"})
    assert "Start one with: python3 run.py play" in " ".join(done.stdout.split())
    done = unobot("--store", "redis://127.0.0.1:1/0", "--auto")
    assert done.returncode == 1 and "not reachable" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(("lang", "said"), [("en", "--store takes memory or a Redis URL"),
                                             ("es", "--store admite memory o una URL de Redis")])
def test_a_store_that_is_no_address_is_said_in_the_players_language(lang: str, said: str) -> None:
    """`--store bogus://x --lang es` said "el almacén de partidas se negó: 'bogus://x'
    is not a Redis URL: give ...": "refused" (no server was asked) and the rest in
    English. It is the person's typing mistake, said as the other options' are."""
    done = unobot("--store", "bogus://x", "--auto", "--lang", lang)
    text = " ".join(done.stderr.split())
    assert done.returncode == 2 and said in text and "'bogus://x'" in text, done.stderr
    assert "is not a Redis URL" not in text or lang == "en"
    assert "refused" not in text and "se negó" not in text and "Traceback" not in text


def test_rule_overrides_become_chat_settings() -> None:
    overrides = {"no-bluffing": {}, "challenge": False, "stacking": {"optional": False}}
    # off first, so turning no-bluffing on never meets challenge still on
    assert override_commands(overrides)[0] == c.SetRule(rule="challenge", enabled=False)
    store = MemoryStore()
    options = Options(overrides=overrides, auto=True, rounds=1, seed=4, delay=0, players=3, user="t")
    out = io.StringIO()
    code = asyncio.run(ConsoleApp(make_service(store, options), options, Console(file=out, width=100)).run())
    assert code == 0, out.getvalue()
    settings = asyncio.run(ChatService(store).settings(options.chat_id))
    assert settings["rules"] == {"challenge": False, "no-bluffing": {}, "stacking": {"optional": False}}
    assert "After 1 round" in out.getvalue()


class ScriptedReader:
    """Types the given lines at the prompts (and shows them, as a terminal would)."""

    def __init__(self, console: Console, lines: list[str]) -> None:
        self.console = console
        self.lines = lines

    def read(self, prompt: object, timeout: float | None = None) -> str | None:
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        self.console.print(prompt, line)
        return line


def _session(store: MemoryStore, lines: list[str], **options: object) -> str:
    options = {"players": 3, **options}
    opts = Options(seed=4, delay=0, user="t", name="Tess", **options)  # type: ignore[arg-type]
    out = io.StringIO()
    console = Console(file=out, width=100)
    app = ConsoleApp(make_service(store, opts), opts, console, reader=ScriptedReader(console, lines))  # type: ignore[arg-type]
    assert asyncio.run(app.run()) == 0, out.getvalue()
    return out.getvalue()


def test_each_ai_seat_gets_its_level_in_order() -> None:
    """`--ai easy,expert`: the AI seats' levels in order, repeated when the
    list is shorter (as `unobot simulate --level` reads one)."""
    store = MemoryStore()
    shown = _session(store, ["q"], players=5, ai=("easy", "expert"))
    assert "You (Tess) against Ada (AI) · easy, Alan (AI) · expert, Grace (AI) · easy, Edsger (AI) · expert." in " ".join(
        shown.split())
    table = asyncio.run(ChatService(store).table(Options(user="t").chat_id))
    assert table is not None
    assert [seat.level for seat in table.seats] == [None, "easy", "expert", "easy", "expert"]


def test_ai_levels_are_read_in_any_language_and_refused_with_a_reason() -> None:
    done = unobot("--auto", "--store", "memory", "--seed", "2", "--players", "3", "--rounds", "1", "--delay", "0",
                  "--ai", "schwer,Experto,basic")
    assert done.returncode == 0, done.stderr
    done = unobot("--store", "memory", "--players", "3", "--ai", "easy,hard,expert")
    assert done.returncode == 2
    assert "--ai names more levels than there are AI seats (2)." in " ".join(done.stderr.split())
    done = unobot("--store", "memory", "--ai", "hard,genius", "--lang", "es")
    assert done.returncode == 2
    assert "argumento --ai: 'genius' no es un nivel de la IA (fácil, normal, difícil, experto)" in done.stderr


def test_a_saved_game_is_offered_before_a_new_one() -> None:
    store = MemoryStore()
    first = _session(store, ["q"])
    assert "Game saved." in first and "Round 1 begins." in first
    kept = _session(store, ["", "q"])  # Enter: yes, resume it
    assert "Resume it? [Y/n]" in kept and "Welcome back: your game of Official rules, round 1." in kept
    fresh = _session(store, ["n", "q"])
    assert "Round 1 begins." in fresh and "Welcome back" not in fresh and "Final scores" not in fresh


@pytest.mark.parametrize(("lang", "answer"), [("vi", "co"), ("ru", "Да."), ("es", "¡Sí!"), ("de", "JA")])
def test_a_saved_game_is_kept_for_a_yes_as_people_type_it(lang: str, answer: str) -> None:
    """"Resume it?" takes a yes as people type it in their language: without
    its accents (`co` for có), with a mark after it (`Да.`, `¡Sí!`), in
    capitals; an answer that is neither yes nor no is asked again. Before,
    anything but the exact yes words was a no, and the saved game was deleted."""
    _ = gettext_for(lang)
    store = MemoryStore()
    _session(store, ["q"], lang=lang)
    kept = " ".join(_session(store, ["maybe", answer, "q"], lang=lang).split())
    assert kept.count(_("A saved game from earlier is waiting. Resume it?")) == 2, kept  # `maybe`: asked again
    assert _("Welcome back: your game of {variant}, round {n}.").split("{variant}")[0].rstrip("«„“ ") in kept, kept
    assert _("The saved game is deleted; a new one starts.") not in kept


@pytest.mark.parametrize(("environ", "lang"), [
    ({"LC_ALL": "es_ES.UTF-8", "LANG": "C.UTF-8"}, "es"),
    ({"LC_MESSAGES": "de_DE.UTF-8", "LANG": "en_US.UTF-8"}, "de"),
    ({"LANGUAGE": "uk:ru", "LANG": "ru_RU.UTF-8"}, "uk"),
    ({"LANGUAGE": "xx:pl", "LANG": "en_GB.UTF-8"}, "pl"),
    ({"LC_ALL": "C", "LANG": "es_ES.UTF-8"}, "en"),
    ({"LANGUAGE": "fr"}, "en"),  # no locale at all: messages in C, LANGUAGE aside (as gettext)
    ({"LANG": "pt_BR.UTF-8"}, "pt_BR"),
])
def test_the_environment_names_the_language_as_gettext_reads_it(environ: dict[str, str], lang: str) -> None:
    """LC_ALL, LC_MESSAGES and LANGUAGE, not LANG alone: `LC_ALL=es_ES.UTF-8`
    (the usual way to make a program speak Spanish) left unobot in English."""
    done = unobot("--help", extra_env=environ)
    assert done.returncode == 0, done.stderr
    assert gettext_for(lang)("show this help and leave") in done.stdout, (environ, done.stdout[:300])


def test_auto_plays_a_no_mercy_round_with_its_new_cards() -> None:
    """The console plays the No Mercy deck: its cards are named in the log."""
    done = unobot("--auto", "--variant", "no-mercy", "--store", "memory", "--seed", "4", "--players", "4",
                  "--rounds", "1", "--delay", "0")
    assert done.returncode == 0, done.stderr
    assert "wins the round" in done.stdout
    new_cards = ("Skip Everyone", "Discard All", "Wild Reverse Draw Four", "Wild Colour Roulette",
                 "Draw Six", "Draw Ten", "+6", "+10")
    assert any(name in done.stdout for name in new_cards), done.stdout[-2000:]


@pytest.mark.parametrize("lang", ["ru", "ar", "es"])
def test_the_variants_a_player_is_sent_to_are_listed_in_their_language(lang: str) -> None:
    """`unobot play --help` says "see: unobot variants" in every language;
    that list printed every title and description in English."""
    from unobot.variants import load_variant

    done = subprocess.run([sys.executable, "-m", "unobot.cli", "variants"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60, env={**env(), "LANG": f"{lang}_XX.UTF-8"})
    assert done.returncode == 0, done.stderr
    party = load_variant("party")
    assert f"party            {party.label(lang)} - {party.describe(lang)}" in done.stdout, done.stdout
    assert party.label(lang) != party.label("en")
