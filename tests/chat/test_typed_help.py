"""The typed grammar's help (`typed_help`) shows the words the grammar reads."""

from __future__ import annotations

from pathlib import Path

import pytest

from unobot.chat import answers, grammar, typed
from unobot.chat.i18n import LANGUAGES
from unobot.chat.typed_help import move_rows, records_rows, top_usage


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_command_word_shown_is_read_as_that_command(lang: str) -> None:
    """`draw · d` (`robar · r`): each form shown reads as the same command."""
    seen = set()
    for word, what in move_rows(lang):
        forms = [w.strip() for w in word.split("·")]
        named = grammar.command_word(forms[0], lang)
        if named in ("draw", "pass", "challenge"):
            seen.add(named)
            assert all(grammar.command_word(f, lang) == named for f in forms), (lang, forms)
        assert what
    assert seen == {"draw", "pass", "challenge"}


@pytest.mark.parametrize("lang", ["en", "es", "de"])
def test_the_records_rows_name_what_is_read(lang: str) -> None:
    rows = records_rows(lang)
    # every word a row shows (the reader's, then the English name: `clasificación · top`) is read
    shown = [word.split(" [")[0].split(" · ") for word, _what in rows]
    assert [{answers.typed_reading(w, lang) for w in words} for words in shown] == \
        [{(name, None)} for name in answers.RECORDS]
    periods = top_usage(lang).split(" [")[1].removesuffix("]").split("|")
    assert [typed.period_of(p) for p in periods] == ["week", "month", "all"]


def test_a_plugin_moves_usage_is_said_through_its_catalogue(tmp_path: Path) -> None:
    """`poke NAME` in an English help, `poke NOMBRE` in a Spanish one: the
    usage's words were shown as written, in every language."""
    from unobot import N_, Rule, register_rule, unregister_rule
    from unobot.chat.typed_help import rule_rows
    from unobot.variants import clear_caches, rules_for

    folder = tmp_path / "locale" / "es" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "unobot_poke.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Language: es\\n"\n\n'
        'msgid "NAME"\nmsgstr "NOMBRE"\n\nmsgid "Poke a player"\nmsgstr "Tocar a un jugador"\n',
        encoding="utf-8")

    class Poke(Rule):
        """Poke: make another player draw."""

        name = "test-poke-usage"
        locale = ("unobot_poke", tmp_path / "locale")
        move_kinds = {"poke": N_("Poke a player")}
        move_usage = {"poke": N_("NAME")}

    register_rule(Poke)
    try:
        rules = rules_for("official", {"test-poke-usage": {}})
        assert ("poke NAME", "Poke a player") in rule_rows(rules, "en")
        assert ("poke NOMBRE", "Tocar a un jugador") in rule_rows(rules, "es")
    finally:
        unregister_rule(Poke.name)
        clear_caches()


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Play several cards: All of them in one turn"),
    ("es", "Jugar varias cartas: Todas en un solo turno"),
    ("fr", "Jouer plusieurs cartes : Toutes en un seul tour"),
])
def test_a_rules_move_in_help_says_what_it_does(lang: str, said: str) -> None:
    """A built-in command's row says what it does ("draw a card"); a rule's
    move said only its title. Its hint (`Rule.move_hints`, what every
    front-end shows beside its label) now follows, with the language's colon."""
    from unobot.chat.typed_help import rule_rows
    from unobot.variants import rules_for

    assert dict(rule_rows(rules_for("official", {"multi-play": {}}), lang))["multi R5 G5 B5"] == said
