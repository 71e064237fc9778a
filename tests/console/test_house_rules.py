"""House rules changed from the console, through a pty, in English and Spanish.

Telegram's /rules keyboard and Discord's /uno rules let a chat's admin turn
house rules on and off and set their options; the console could only show
them (`rules`), and a player who wanted jump-in had to quit and start again
with `--rule`. Now `rules jump-in`, `rules seven-o off`,
`rules stacking.optional=false` and `rules reset` send core's settings
commands (the console's player is its admin): refused, translated, with
nothing changed when a rule is unknown or clashes; saved "from the next
game", which Play again deals with them.
"""

from __future__ import annotations

import pytest

from tests.support.redis_server import RedisServer
from unobot.chat.i18n import gettext_for
from unobot.chat.settings_typed import ON, RESET, usage
from unobot.chat.typed import first_form
from unobot.registry import available_rules

from .helpers import Stage, stage_game
from .test_records import AI_HAND, _after
from .test_staged import Screen


@pytest.mark.parametrize("lang", ["en", "es"])
def test_house_rules_change_from_the_console_and_play_again_deals_with_them(lang: str,
                                                                             server: RedisServer) -> None:
    _ = gettext_for(lang)
    rules_word = _("rules")
    jump_in = available_rules()["jump-in"].label(lang)
    stacking = available_rules()["stacking"].label(lang)
    stage_game(server.url, Stage(hands=("R1", AI_HAND), top="R9"), lang=lang, rounds=1)
    screen = Screen(server.url, lang)
    screen.until_move()
    # The help says how.
    text, _label = screen.type(_("help"))
    flat = " ".join(text.split())
    assert f"{rules_word} seven-o {first_form(lang, ON)} · {rules_word} {first_form(lang, RESET)}" in flat
    assert " ".join(_("change the house rules: one on or off, an option, or back to the variant's "
                      "(from the next game)").split()[:3]) in flat
    # During the game: saved for the next game, the game goes on.
    text, label = screen.type(f"{rules_word} jump-in")
    assert _("Saved. It applies from the next game.") in text and jump_in in text
    assert label == _("Your move")
    # Refused, translated, nothing changed: an unknown rule, a clash, a line that is no setting.
    text, label = screen.type(f"{rules_word} jump-on")
    assert _("There is no rule of that name.") in text and label == _("Your move")
    assert _("Did you mean {meant!r}?").format(meant="jump-in") in text
    text, _label = screen.type(f"{rules_word} no-bluffing")
    clash = _("“{rule}” cannot be on together with “{other}”: turn “{other}” off first.").format(
        rule=available_rules()["no-bluffing"].label(lang), other=available_rules()["challenge"].label(lang))
    assert clash in " ".join(text.split()) and _("Saved. It applies from the next game.") not in text
    text, _label = screen.type(f"{rules_word} jump-in sometimes")
    assert " ".join(usage(lang, rules_word).split()) in " ".join(text.split())
    # The game under way keeps its rules: `rules` lists no jump-in yet, and says how to change them.
    text, _label = screen.type(rules_word)
    assert jump_in not in text and " ".join(usage(lang, rules_word).split()) in " ".join(text.split())
    # Tess plays her last card; at "Play again?" the rules may still change.
    text, label = _after(screen, *screen.type("1"))
    text, label2 = screen.type(f"{rules_word} stackng.optional=false")
    assert _("Did you mean {meant!r}?").format(meant="stacking") in text and label2 == label
    text, label2 = screen.type(f"{rules_word} stacking.optional=false")
    assert _("Saved. It applies from the next game.") in text and stacking in text and label2 == label
    # Play again deals the next game with both.
    text, label = screen.type(_("y"))
    for _step in range(40):  # the next game's deal is its own: Enter at a pause, a colour if a wild starts it
        if label is None or label.startswith(_("Your move")):
            break
        text, label = screen.type("" if label.startswith(_("Enter")) else _("red"))
    assert label is not None and label.startswith(_("Your move")), screen.output[-2000:]
    text, _label = screen.type(rules_word)
    assert jump_in in text and stacking in text, text
    assert f"{jump_in} (jump-in)" in " ".join(text.split())  # the name `rules ... off` takes
    assert screen.close("q") == 0
    assert "Traceback" not in screen.output


def test_the_readme_house_rules_forms_are_what_the_console_reads() -> None:
    """Every `rules ...` form the README's console paragraph shows becomes
    core's settings commands, in the language it is written in."""
    import re

    from unobot.adapters.console.input import Setting, parse_line
    from unobot.chat import commands as c

    from .test_input import _readme_paragraph

    forms = [f for f in re.findall(r"`([^`]+)`", _readme_paragraph("**House rules.**"))
             if " " in f and not f.startswith("unobot ")]
    expected = {
        "rules jump-in": (c.SetRule(rule="jump-in", enabled=True),),
        "rules jump-in on": (c.SetRule(rule="jump-in", enabled=True),),
        "rules seven-o off": (c.SetRule(rule="seven-o", enabled=False),),
        "reglas seven-o no": (c.SetRule(rule="seven-o", enabled=False),),
        "reglas cortar no": (c.SetRule(rule="jump-in", enabled=False),),
        "rules stacking draw cards": (c.SetRule(rule="stacking", enabled=True),),
        "rules stacking.optional=false": (c.SetRule(rule="stacking", option="optional", value=False),),
        "rules reset": (c.ResetRules(),),
    }
    assert sorted(forms) == sorted(expected), forms
    for form, commands in expected.items():
        for lang in ("en", "es"):
            assert parse_line(form, [], lang) == Setting(commands), (form, lang)


def test_a_rule_is_named_by_its_title_in_the_readers_language() -> None:
    """The console lists "Ziehkarten stapeln (stacking)": a person types what
    they read, several words or the title's head before its parenthesis, in
    their language or English; an id still works, and a title followed by
    too many words is refused with the forms, changing nothing."""
    from unobot.adapters.console.input import Setting, parse_line
    from unobot.chat import commands as c

    assert parse_line("regeln ziehkarten stapeln aus", [], "de") == Setting(
        (c.SetRule(rule="stacking", enabled=False),))
    assert parse_line("regeln Reinwerfen", [], "de") == Setting((c.SetRule(rule="jump-in", enabled=True),))
    assert parse_line("regeln Stacking draw cards optional false", [], "de") == Setting(
        (c.SetRule(rule="stacking", option="optional", value=False),))
    assert parse_line("reglas siete-cero no", [], "es") == Setting((c.SetRule(rule="seven-o", enabled=False),))
    refused = parse_line("rules jump-in on and off", [], "en")
    assert not isinstance(refused, Setting), refused


def test_switch_words_of_the_readers_language_set_an_option() -> None:
    """`regeln seven-o.mandatory=nein`: a German "no" is false, as `aus` is
    for a rule (YAML reads only English words)."""
    from unobot.adapters.console.input import Setting, parse_line
    from unobot.chat import commands as c

    assert parse_line("regeln seven-o.mandatory=nein", [], "de") == Setting(
        (c.SetRule(rule="seven-o", option="mandatory", value=False),))
    assert parse_line("reglas stacking optional sí", [], "es") == Setting(
        (c.SetRule(rule="stacking", option="optional", value=True),))


def test_house_rules_typed_at_the_table_stay_for_the_next_unobot_play(server: RedisServer) -> None:
    """A chat's settings stay between games on Telegram and Discord; the console's went back
    to the command line's at every `unobot play`, so `rules jump-in` lasted one Play again.
    Now a `unobot play` with neither --variant nor --rule plays the rules last typed (and says
    so under the intro); one that names them plays those."""
    import subprocess
    import sys

    from .helpers import ROOT, env

    def play(lines: str, *args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "unobot.cli", "play", "--store", server.url, "--seed", "3",
                               *args], cwd=ROOT, env=env(), input=lines, capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        return done.stdout

    first = play("rules jump-in\nquit\n")
    assert "Saved. It applies from the next game." in first and "House rules on: Jump-in" in first
    again = play("n\nrules\nquit\n")  # the first game is saved: not resumed, a new one
    intro = again[:again.index("Round 1 begins")]
    assert "House rules on: Jump-in" in intro, intro
    assert "Jump-in (jump-in)" in again[again.index("Your move › rules"):]
    chosen = play("n\nrules\nquit\n", "--variant", "official")
    assert "House rules on" not in chosen[:chosen.index("Round 1 begins")]
    assert "Jump-in (jump-in)" not in chosen[chosen.index("Your move › rules"):]
