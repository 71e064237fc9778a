"""Core's texts with emphasis: one text, written in any platform's markup,
escaped where it must be and marked where it says (the help, the rules in
words, a reading command's answer: Discord's Markdown and Telegram's HTML)."""

from __future__ import annotations

import html

from unobot.chat.hand_text import HandText, hand_lines
from unobot.chat.i18n import gettext_for
from unobot.chat.markup import (
    BOLD,
    CODE,
    HELP_TITLE,
    PLAIN,
    Markup,
    bold,
    help_lines,
    plain,
    titled,
)
from unobot.chat.settings_menu import SettingsMenu, option_lines, rules_lines

HTML = Markup(lambda t: html.escape(t, quote=False), {BOLD: ("<b>", "</b>"), CODE: ("<code>", "</code>")})
MD = Markup(lambda t: t.replace("*", "\\*"), {BOLD: ("**", "**"), CODE: ("`", "`")}, verbatim=frozenset({CODE}))


def test_spans_are_escaped_and_marked() -> None:
    line = [(PLAIN, "a<b "), (BOLD, "*x*"), (CODE, "c*d")]
    assert HTML.line(line) == "a&lt;b <b>*x*</b><code>c*d</code>"
    assert MD.line(line) == "a<b **\\*x\\***`c*d`"  # code is verbatim in Markdown
    assert MD.text([plain("one"), [], bold("two")]) == "one\n\n**two**"


def test_a_reading_answer_has_a_title_only_over_more_lines() -> None:
    assert titled(["Saved."]) == [plain("Saved.")]
    assert titled(["Standings", "1. Ann"]) == [bold("Standings"), plain("1. Ann")]


def test_the_help_and_the_rules() -> None:
    lines = help_lines(["Type @{bot}."], [("/new", "How to play")], "es", name=CODE, bot="unobot")
    assert lines[0] == bold(gettext_for("es")(HELP_TITLE)) != bold(HELP_TITLE)
    assert lines[1] == plain("Type @unobot.") and lines[2] == []
    assert lines[3][0] == (CODE, "/new") and lines[3][1][1].startswith(" · ") and "How to play" not in lines[3][1][1]
    m = SettingsMenu({"variant": "official", "rules": {"stacking": {}}, "timer": 0, "lang": "en"}, "en", 25, 20)
    short, full = rules_lines(m, "Saved."), rules_lines(m, options=True)
    assert short[0] == plain("Saved.") and short[1] == bold("Rules here")
    assert full[:len(short) - 1] == short[1:] and bold("Options") in full
    # Each option as the rules in words say it (its help, else its title), never by its id.
    assert all(any(f"{p.help or p.title}: {p.value_text}" in text for line in full for _style, text in line)
               for p in m.option_panels()[0])
    # The colon as the language writes it, after the rule too ("Cartes action : ...", not "Cartes action: ...").
    french = rules_lines(SettingsMenu({**m.settings, "lang": "fr"}, "fr", 25, 20), options=True)
    rule = m.option_panels()[0][0].rule
    label = SettingsMenu(m.settings, "fr").rule_panel(rule)[0].rule_label
    assert any(text.startswith(f"{label} : ") for line in french for _style, text in line), french
    assert not any(text.startswith(f"{label}: ") for line in french for _style, text in line), french
    words = " ".join(text for line in full for _style, text in line)
    assert not [p.option for rule in m.option_panels() for p in rule if "_" in p.option and p.option in words]


def test_a_members_panel_marks_the_heading_the_turn_and_the_playable_cards() -> None:
    ht = HandText(top="Red 5", color="R", turn="your turn", cards=(("🟥 Red 7", True), ("🟦 Blue 2", False)))
    assert MD.text(hand_lines(ht, ["Drew 2."], listed=True)) == \
        "Drew 2.\n🟥 Red 5\n**your turn**\n**🟥 Red 7** · 🟦 Blue 2"
    assert hand_lines(HandText("Lobby: Ann", title=True)) == [bold("Lobby: Ann")]
    assert hand_lines(HandText(), listed=True) == [plain("-")]


def test_an_options_panel_in_words() -> None:
    m = SettingsMenu({"variant": "official", "rules": {"stacking": {}}, "timer": 0, "lang": "en"}, "en", 25, 20)
    p = m.option_panels()[0][0]
    lines = option_lines(p, "en", "Saved.")
    assert lines[:2] == [plain("Saved."), bold(f"{p.rule_label} · {p.title}")]
    assert lines[-1] == plain(f"Now: {p.value_text}") and plain(p.takes) in lines


def test_a_text_fitted_to_a_limit_keeps_whole_lines_and_closes_every_mark() -> None:
    """Cut at a platform's limit inside a bold run, a text left `**` open
    (Discord showed the rules' last line with stars, or refused it)."""
    md = Markup(lambda t: t, {BOLD: ("**", "**")})
    lines = [bold("Rules"), plain("a" * 30), [(PLAIN, "x: "), (BOLD, "b" * 30)]]
    assert md.fit(lines, 1000) == md.text(lines)
    fitted = md.fit(lines, 60)
    assert len(fitted) <= 60 and fitted.endswith("\n…") and fitted.count("**") % 2 == 0
    assert fitted == "**Rules**\n" + "a" * 30 + "\n…"
