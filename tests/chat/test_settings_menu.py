"""Core's settings menu (core/chat/settings_menu.py), the one model Telegram's
/rules keyboard and Discord's /uno rules components draw: its pages reach
every rule, option and variant at any page size, every entry's press id
fits both platforms and decodes back to what it says (applied through a
real chat service, the menu then shows the new state), and a forged id is
refused, translated, with no command."""

from __future__ import annotations

import random
from typing import Any

import pytest

from unobot.chat import commands as c
from unobot.chat import settings_menu as sm
from unobot.chat.i18n import LANGUAGES
from unobot.chat.option_values import option_rules
from unobot.chat.render import error_text
from unobot.chat.rules_text import switchable_rules
from unobot.chat.service import ChatService
from unobot.registry import available_rules
from unobot.rule import option_specs
from unobot.store import MemoryStore
from unobot.variants import variant_names

ADMIN = c.Person("9", "Boss", is_admin=True)
CHAT = "group-1"
SIZES = (1, 4, 25, 40)


def settings(variant: str = "crazy", lang: str = "en", **more: Any) -> dict[str, Any]:
    return {"variant": variant, "rules": {}, "timer": 0, "lang": lang, **more}


def walk(first: sm.RulesPage, m: sm.SettingsMenu) -> list[sm.RulesPage]:
    """Every page of the rules view, following each page's `next` id through `decode`."""
    pages = [first]
    while pages[-1].next is not None:
        decoded = m.decode(pages[-1].next)
        assert isinstance(decoded, sm.Decoded) and decoded.command is None and decoded.show.view == sm.RULES
        pages.append(m.rules(decoded.show.page))
        assert len(pages) <= 200
    return pages


@pytest.mark.parametrize("size", SIZES)
def test_paging_reaches_every_rule_option_and_variant_once(size: int) -> None:
    m = sm.SettingsMenu(settings(), "es", size, size)
    pages = walk(m.rules(0), m)
    assert len(pages) == pages[0].count and [p.number for p in pages] == list(range(len(pages)))
    switches = [e.name for p in pages for e in p.switches]
    assert switches == [cls.name for cls in switchable_rules()]  # in core's order, each once
    assert {"teams", "value-stacking", "challenge"} <= set(switches)
    options = [e.name for p in pages for e in p.options]
    every = [f"{cls.name}:{s.name}" for cls in option_rules(m.enabled) for s in option_specs(cls)]
    assert options == every and len(every) > 10
    assert [e.name for p in pages for e in p.rules_with_options] == [cls.name for cls in option_rules(m.enabled)]
    assert all(len(p.switches) <= size and len(p.options) <= size for p in pages)
    variants = [m.variants(0)]
    while variants[-1].next is not None:
        decoded = m.decode(variants[-1].next)
        assert isinstance(decoded, sm.Decoded) and decoded.show.view == sm.VARIANTS
        variants.append(m.variants(decoded.show.page))
    assert [e.name for p in variants for e in p.entries] == variant_names()
    assert [e.name for p in variants for e in p.entries if e.on] == ["crazy"]
    assert m.rules(999).number == pages[-1].number  # a page past the end shows the last
    for page in [*pages, *variants]:  # ◀ ▶ press the ids of the pages either side
        arrows = [b.id for b in page.nav() if b.enabled]
        assert arrows == [x for x in (page.prev, page.next) if x is not None]
        assert all(isinstance(m.decode(b.id), sm.Refused) for b in page.nav() if not b.enabled)
    if len(pages) > 1:
        assert [b.label for b in pages[0].nav()] == ["◀", f"1/{len(pages)}", "▶"]


def all_entries(m: sm.SettingsMenu) -> list[sm.Entry]:
    out = [*m.switches(), *m.options(), *m.rules_with_options(), *m.variant_entries(), *m.timers(),
           *m.languages(), m.reset()]
    for cls in option_rules(m.enabled):
        for p in m.rule_panel(cls.name):
            out += [*p.choices.entries, *p.steps]
    return out


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_press_id_fits_telegram_and_discord(lang: str) -> None:
    m = sm.SettingsMenu(settings(lang=lang), lang)
    for e in all_entries(m):
        assert e.id.isascii() and "|" not in e.id and len(e.id.encode()) <= sm.MAX_ID, e
        assert len(("r:" + e.id).encode()) <= 64 and len("s|channel|" + e.id) <= 100
        assert e.label and isinstance(m.decode(e.id), sm.Decoded), e


def test_a_long_rule_name_travels_as_its_key() -> None:
    assert sm.rule_ref("stacking") == "stacking" and sm.rule_by_ref("stacking") is available_rules()["stacking"]
    long = "a-house-rule-with-a-name-far-too-long-for-telegram-callback-data"
    ref = sm.rule_ref(long)
    assert ref == "#" + sm.key_of(long) and len(f"off:{ref}") <= sm.MAX_ID
    assert sm.rule_by_ref("#" + sm.key_of("stacking")) is available_rules()["stacking"]
    assert sm.rule_by_ref("#ffffffff") is None and sm.variant_by_ref("#" + sm.key_of("crazy")) == "crazy"


async def test_every_entry_decodes_to_what_it_says_and_the_menu_then_shows_it() -> None:
    svc = ChatService(MemoryStore(), rng=random.Random(7))
    assert (await svc.handle(CHAT, ADMIN, c.SetVariant("crazy"))).ok
    m = sm.SettingsMenu(await svc.settings(CHAT), "en")
    # Each switch names the state it leads to, and the page that lists it.
    for page in walk(m.rules(0), m):
        for e in page.switches:
            decoded = m.decode(e.id)
            assert isinstance(decoded, sm.Decoded)
            assert decoded.command == c.SetRule(rule=e.name, enabled=not e.on)
            assert decoded.show == sm.Show(sm.RULES, page=page.number)
    # Every option's every choice and step, pressed: the service takes it and the panel shows it.
    checked = 0
    for cls in option_rules(m.enabled):
        for index, spec in enumerate(option_specs(cls)):
            panel = m.option(cls, index)
            for e in [*panel.choices.entries, *panel.steps]:
                decoded = m.decode(e.id)
                assert isinstance(decoded, sm.Decoded) and isinstance(decoded.command, c.SetRule), e
                assert decoded.show == sm.Show(sm.OPTION, cls.name, spec.name)
                out = await svc.handle(CHAT, ADMIN, decoded.command)
                assert out.ok, (e, out.error)
                after = sm.SettingsMenu(await svc.settings(CHAT), "en").option(cls, index)
                assert after.value == decoded.command.value
                if e in panel.choices.entries:
                    assert [x.id for x in after.choices.entries if x.on] == [e.id]
                checked += 1
            if panel.typed is not None:
                shown = m.decode(panel.typed)
                assert shown == sm.Decoded(sm.Show(sm.TYPE, cls.name, spec.name))
                assert sm.prompt(cls.name, spec.name, "es") == (cls.label("es"), cls.option_title(spec.name, "es"),
                                                              spec.describe("es"))
                number = int(spec.min if spec.min is not None else 0)
                typed = m.decode(panel.typed, f" {number} ")
                assert isinstance(typed, sm.Decoded)
                assert typed.command == c.SetRule(rule=cls.name, option=spec.name, value=number)
    assert checked > 30
    for e in m.variant_entries():
        assert m.decode(e.id) == sm.Decoded(sm.Show(sm.VARIANTS), c.SetVariant(name=e.name))
    assert [m.decode(e.id) for e in m.timers()] == [sm.Decoded(sm.Show(sm.RULES), c.SetTimer(seconds=s))
                                                    for s in sm.TIMER_CHOICES]
    assert m.decode("lang:es") == sm.Decoded(sm.Show(sm.RULES), c.SetLanguage(lang="es"))
    assert m.decode(m.reset().id) == sm.Decoded(sm.Show(sm.RULES), c.ResetRules())
    assert m.decode(f"m:{sm.key_of('deck')}") == sm.Decoded(sm.Show(sm.RULE, "deck"))
    assert m.decode("back") == sm.Decoded(sm.Show(sm.RULES))


def test_a_forged_press_is_refused_translated_with_no_command() -> None:
    deck, starter = sm.key_of("deck"), sm.key_of("starter")
    hand_size = [s.name for s in option_specs(available_rules()["deck"])].index("hand_size")
    forged = {
        "on:nonsense": "unknown_rule", "off:#ffffffff": "unknown_rule", "off:deck": "unknown_rule",
        f"s:{deck}:{hand_size}:31": "bad_option", f"s:{deck}:{hand_size}:²": "unknown_rule",
        f"s:{deck}:99:1": "bad_option", f"s:{deck}:-1:1": "bad_option", "s:ffffffff:0:1": "bad_option",
        f"s:{starter}:0:9": "bad_option", f"o:{deck}:{hand_size}:x": "bad_option", f"t:{starter}:0": "bad_option",
        "m:zz": "unknown_rule", "var:../x": "unknown_variant", "var:#ffffffff": "unknown_variant",
        "tm:99999999999999999999": "bad_option", "tm:²": "unknown_rule", "tm:45": "bad_option",
        "lang:zz": "bad_language", "pr:-1": "unknown_rule", "pr:²": "unknown_rule", "reset:1": "unknown_rule",
        "é" * 10: "unknown_rule", "x" * 49: "unknown_rule", "": "unknown_rule", "on:": "unknown_rule",
        "on:a:b": "unknown_rule", "zz": "unknown_rule",
    }
    # (anything not ASCII, `²` included, is no id of the menu's at all: unknown_rule)
    for press, code in forged.items():
        got = sm.decode(press, lang="es")
        assert got == sm.Refused(code, error_text(code, "es")), press
        assert got.text != error_text(code, "en"), press  # in the reader's language
    for typed in ("abc", "", "²", "inf", "nan", "1e999"):
        got = sm.decode(f"t:{deck}:{hand_size}", typed, lang="es")
        assert isinstance(got, sm.Refused) and got.code == "bad_option", typed


def test_a_show_names_the_view_a_one_list_front_end_draws() -> None:
    """An option's panel (for the box to type its number in too), the
    variants, or a page of the rules; an option gone shows the rules."""
    m = sm.SettingsMenu(settings(), "en", 4, 4)
    cls = option_rules(m.enabled)[0]
    option = option_specs(cls)[0].name
    for view in (sm.OPTION, sm.TYPE):
        panel = m.view(sm.Show(view, cls.name, option))
        assert isinstance(panel, sm.OptionPanel) and (panel.rule, panel.option) == (cls.name, option)
    assert m.view(sm.Show(sm.VARIANTS, page=1)) == m.variants(1) and m.variants(1).number == 1
    assert m.view(sm.Show(sm.RULES, page=1)) == m.rules(1) and m.rules(1).number == 1
    assert m.view(sm.Show(sm.OPTION, cls.name, "no-such-option")) == m.rules(0)
    assert isinstance(m.view(sm.Show(sm.RULE, cls.name)), sm.RulesPage)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_option_is_named_in_words_in_every_language(lang: str) -> None:
    """An option's panel, button and rules line are titled in the reader's words, never by
    its key (`Deck · hand_size` was what every front-end showed, in every language)."""
    m = sm.SettingsMenu(settings("crazy", lang), lang)
    for cls in available_rules().values():
        for spec in option_specs(cls):
            title = cls.option_title(spec.name, lang)
            assert spec.title and title and title != spec.name, (cls.name, spec.name)
            if lang != "en":
                assert cls.option_title(spec.name, "en") != title, (cls.name, spec.name, lang)
    for rule in m.option_panels():
        for panel in rule:
            assert panel.title != panel.option, (panel.rule, panel.option)


@pytest.mark.parametrize(("lang", "label"), [("en", "30 s"), ("ru", "30 с"), ("ar", "30 ث"), ("zh_CN", "30 秒")])
def test_the_turn_timer_choices_are_said_in_the_readers_words(lang: str, label: str) -> None:
    timers = sm.SettingsMenu(settings("official", "en"), lang).timers()
    assert [e.id for e in timers] == [f"tm:{s}" for s in sm.TIMER_CHOICES]
    assert timers[1].label == label


def test_the_summary_names_the_chats_language_not_the_readers() -> None:
    """A web page or a Discord panel is read in its reader's language: the summary still says
    which language the chat is set to, as the language list marks it."""
    m = sm.SettingsMenu(settings("official", "en"), "uk")
    assert m.summary_lines()[-1] == "Мова: English"
    assert [e.id for e in m.languages() if e.on] == ["lang:en"]
    assert sm.SettingsMenu(settings("official", "es"), "es").summary_lines()[-1] == "Idioma: Español"


@pytest.mark.parametrize(("rule", "option", "lang", "takes"), [
    ("stacking", "draw_four_on_draw_four", "es", "sí o no"),
    ("stacking", "draw_four_on_draw_four", "en", "on or off"),
    ("starter", "reverse_first", "en", "the dealer or the player on the dealer's other side"),
    ("elimination", "by", "es", "más cartas o más puntos"),
])
def test_a_panel_says_what_a_choice_takes_in_the_words_of_its_choices(rule: str, option: str, lang: str,
                                                                       takes: str) -> None:
    """Before, the panel said what a variant file takes ("true o false",
    "one of 'dealer', 'other_side'") above buttons named "sí" and "no"."""
    panel = sm.SettingsMenu(settings(lang=lang), lang).find_option(rule, option)
    assert panel is not None
    assert panel.takes == takes
    assert all(e.label in takes for e in panel.choices.entries)
