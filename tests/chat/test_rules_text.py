"""The rules in force in words: every option of every rule, in the reader's language."""

from __future__ import annotations

from unobot.chat.rules_text import rule_lines, value_words
from unobot.rule import option_specs
from unobot.variants import rules_for


def test_every_option_reads_as_words_in_spanish() -> None:
    rules = rules_for("crazy")
    en = {line.name: line for line in rule_lines(rules, "en")}
    es = {line.name: line for line in rule_lines(rules, "es")}
    assert en.keys() == es.keys() and en
    translated = 0
    for name, line in es.items():
        cls = type(rules.rules[name])
        assert len(line.options) == len(option_specs(cls))
        for text in line.options:
            assert "=" not in text and "_" not in text, text  # never `decks=0` nor an identifier
        for spec, text in zip(option_specs(cls), line.options):
            help_es = cls.option_help(spec.name, "es")
            if not spec.title and help_es:
                assert text.startswith(help_es + ": "), (name, text)
        translated += sum(cls.option_help(s.name, "es") != cls.option_help(s.name, "en") for s in option_specs(cls))
    assert translated > 10  # the built-in rules' option help is in Spanish
    house = [line for line in rule_lines(rules, "es") if line.house]
    assert house and rule_lines(rules, "es")[: len(house)] == house  # house rules first


def test_values_in_words() -> None:
    assert value_words(True, "es") == "sí" and value_words(False, "en") == "no"
    assert value_words(7, "en") == "7" and value_words(2.0, "en") == "2"


def test_option_values_travel_and_come_back() -> None:
    """What a settings button carries reads back as the value, and nothing else is taken."""
    from unobot.chat.option_values import decode_value, encode_value, number_steps, option_spec

    found = option_spec("deck", "hand_size")
    assert found is not None
    _cls, spec = found
    assert decode_value(spec, encode_value(spec, 9)) == (True, 9)
    assert decode_value(spec, "31") == (False, None) and decode_value(spec, "²") == (False, None)
    assert number_steps(spec) == [1]
    toggle = option_spec("stacking", "optional")
    assert toggle is not None and decode_value(toggle[1], encode_value(toggle[1], False)) == (True, False)
    assert option_spec("deck", "nonsense") is None and option_spec("nonsense", "x") is None


def test_every_choice_is_named_in_words_in_every_language() -> None:
    """A `Literal` option's values are ids a variant file writes (`other_side`,
    `added`); a player reads the words its rule names them by, in their
    language: Spanish `reglas` showed `añadidas ...: added` and `...: dealer`."""
    from unobot.chat.i18n import LANGUAGES
    from unobot.chat.settings_menu import SettingsMenu
    from unobot.registry import available_rules

    named = 0
    for cls in available_rules().values():
        for spec in option_specs(cls):
            if spec.choices is None or spec.type is bool:
                continue
            for value in spec.choices:
                english = cls.option_value(spec.name, value, "en")
                assert english, f"{cls.name}.{spec.name}: no word for {value!r} (option(words=...))"
                named += 1
                for lang in LANGUAGES:
                    if lang == "en":
                        continue
                    said = value_words(value, lang, cls, spec.name)
                    assert said != value and said != english, (cls.name, spec.name, value, lang, said)
    assert named >= 9
    rules = rules_for("no-mercy", {"no-mercy-cards": {"deck": "added"}, "starter": {"reverse_first": "other_side"}})
    text = " ".join(o for line in rule_lines(rules, "es") for o in line.options)
    assert "añadidas a la baraja habitual" in text and "al otro lado de quien reparte" in text
    assert ": added" not in text and "other_side" not in text
    # the settings panels' buttons say the same words
    menu = SettingsMenu({"variant": "no-mercy", "rules": {}, "timer": 0, "lang": "es"}, "es")
    panels = {p.option: p for p in menu.rule_panel("no-mercy-cards")}
    labels = [e.label for e in panels["deck"].choices.entries]
    assert "solo la baraja No Mercy" in labels and "añadidas a la baraja habitual" in labels


def test_a_rule_is_titled_as_its_options_make_it() -> None:
    """Crazy refuses only draw cards as a last card (`no-action-finish: {forbid:
    draw}`): its lobby and its /rules said "Finish on a number", which is
    false there (a last Skip or 7 is fine). The title follows the option."""
    from unobot.chat.views import rules_summary

    for lang, title in (("en", "No finishing on a draw card"), ("es", "No terminar con una carta de robo")):
        assert title in rules_summary({"variant": "crazy", "rules": {}}, lang).house
        assert title in [line.title for line in rule_lines(rules_for("crazy"), lang)]
    official = rules_summary({"variant": "official", "rules": {"no-action-finish": True}}, "en").house
    assert "Finish on a number" in official
    wild = rules_summary({"variant": "official", "rules": {"no-action-finish": {"forbid": "wild"}}}, "en").house
    assert "No finishing on a wild card" in wild


def test_an_option_and_its_value_are_joined_as_the_language_writes_it() -> None:
    """`rules` in French read "cartes distribuées à chaque joueur: 7", a colon
    hard-coded where French writes " : " (as every other French line of the
    bot does), and Chinese its own "："."""
    def dealt(lang: str) -> str:
        deck = next(line for line in rule_lines(rules_for("official"), lang) if line.name == "deck")
        return deck.options[0]

    assert dealt("en") == "cards dealt to each player: 7"
    assert dealt("fr").endswith(" : 7") and not dealt("fr").endswith(" : : 7")
    assert dealt("zh_CN").endswith("：7")
    assert dealt("es").endswith(": 7") and not dealt("es").endswith(" : 7")
