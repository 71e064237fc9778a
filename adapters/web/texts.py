"""The page's own words, translated on the server and sent with the first state.

Why the server translates: one catalogue (core/locale, gettext) holds every
text a player reads, whatever the front-end, so a Spanish player reads the
same words on the page, in Telegram and in the console. The page only
looks its words up by key; it never holds a language of its own.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from unobot.chat.actions import AGAIN_LABEL
from unobot.chat.i18n import LANGUAGE_NAMES, N_, RTL, gettext_for
from unobot.chat.settings_menu import RULES_TITLE, Entry, SettingsMenu

#: key -> English text (the msgid); the page shows `texts[key]`.
PAGE = {
    "title": N_("UNO table"),
    "your_hand": N_("Your hand"),
    "top_card": N_("Top card"),
    "colour": N_("Colour in play"),
    "direction": N_("Direction"),
    "clockwise": N_("clockwise"),
    "counter": N_("counter-clockwise"),
    "pending": N_("Pending draw: {n}"),
    "turn": N_("Turn: {player}"),
    # said to a screen reader (and in the tab's title) when the turn comes to the page's player
    "your_turn": N_("Your turn"),
    "next": N_("next"),
    "you": N_("you"),
    "cards": N_("cards"),
    "last_moves": N_("Last moves"),
    "actions": N_("What you can do"),
    "pick_colour": N_("Pick a colour"),
    "pick_target": N_("Pick a player"),
    "pick_level": N_("Pick a level"),
    "cancel": N_("Cancel"),
    "playable": N_("playable"),
    "not_playable": N_("not playable now"),
    "connecting": N_("Connecting…"),
    "offline": N_("Connection lost, trying again…"),
    # said (and shown) once a lost connection is back and the table drawn is the newest
    "reconnected": N_("Connected again: the table is up to date."),
    "your_name": N_("Your name"),
    "sit_down": N_("Sit down"),
    "new_table": N_("New table"),
    "variant": N_("Variant"),
    "share": N_("Share this link with the other players:"),
    "copy": N_("Copy"),
    "watching": N_("You are watching: you have no seat at this table."),
    "no_game": N_("No game is running here now."),
    "round": N_("Round {n}"),
    "draw_pile": N_("Draw pile: {n}"),
    "score": N_("score"),
    "uno": N_("said UNO"),
    "out": N_("out"),
    "left": N_("left the game"),
    # what a screen reader names the list of seats by (the page's `aria-label`)
    "players": N_("Players"),
    # the records panel: core's answers to /top, /me, /last, /forgetme (core/chat/answers.py)
    "records": N_("Records"),
    "standings": N_("Standings"),
    "my_record": N_("My record"),
    "last_match": N_("The last match"),
    "forget_me": N_("Forget me"),
    "week": N_("This week"),
    "month": N_("This month"),
    "all_time": N_("All time"),
}

#: Why a page's request was refused: code -> text.
REFUSALS = {
    "forged": N_("This link's Telegram sign-in does not check out: open the table again from Telegram."),
    # A game's message carries the table's link on Telegram and on Discord (a channel, not a chat).
    "expired": N_("This link has expired: open the table again from the game's message."),
    "bad_link": N_("This link is not valid for any table."),
    "no_auth": N_("Open the table from the link on a game's message."),
    "other_game": N_("This link was for an earlier game at this table: ask for a new one."),
    "bad_name": N_("Pick a name of 1 to 32 characters."),
    "bad_action": N_("That choice is no longer on offer: the table moved on."),
    "bad_variant": N_("There is no variant by that name."),
    "no_person": N_("Sit down at the table first: your records go with your seat."),
    "bad_record": N_("There is no such record to show."),
}


#: A button named in a sentence, where a chat's text names its command ("Start one with /new").
BUTTON = N_("“{button}”")


def web_commands(lang: str) -> dict[str, str]:
    """What core's texts name as commands (`render.TYPED_COMMANDS`: `/new`, `/stop`,
    `/rules`, `/variant`), as a browser table offers them: its buttons, by their labels. Why: a page
    has no command to type, and "Start one with /new" left its reader stuck."""
    _ = gettext_for(lang)

    def button(label: str) -> str:
        return _(BUTTON).format(button=_(label))

    return {"new": button(AGAIN_LABEL), "stop": button(STOP_LABEL), "rules": button(RULES_TITLE),
            "variant": _(BUTTON).format(button=_(PAGE["variant"]))}  # the new-table form's list


#: The Stop button's words (core's `Menu.stop`, without its mark).
STOP_LABEL = N_("Stop the game")


def page_texts(lang: str) -> dict[str, str]:
    _ = gettext_for(lang)
    return {key: _(text) for key, text in PAGE.items()}


def refusal(code: str, lang: str) -> str:
    return gettext_for(lang)(REFUSALS.get(code, REFUSALS["bad_action"]))


def direction(lang: str) -> str:
    """The page's writing direction in `lang` (`dir` of the html element):
    Arabic is laid out right to left, mirrored by the page's CSS (logical
    properties: the seats, the hand and the facts start at the right)."""
    return "rtl" if lang.split("_")[0] in RTL else "ltr"


#: The settings panel's headings: core's own texts (the chats' /rules says them too).
SETTINGS = {
    "title": RULES_TITLE,
    "variants": N_("Variants"),
    "rules": N_("Turn a house rule on or off"),
    "options": N_("Options"),
    "timer": N_("Turn timer"),
    "type_number": N_("Type a number"),
}


def settings_payload(settings: dict[str, Any], lang: str, admin: bool) -> dict[str, Any]:
    """The settings panel's message: core's `SettingsMenu` of the chat's
    `settings` for a reader of `lang`, every entry as core makes it (its
    press id, its label, whether it is on, its hint), all on one page. The
    page draws it as it is; what a press does is core's (`settings_press`)."""
    _ = gettext_for(lang)
    m = SettingsMenu(settings, lang, size=1000, choice_size=1000)

    def entries(items: Iterable[Entry]) -> list[dict[str, Any]]:
        return [{"id": e.id, "label": e.label, "on": e.on, "hint": e.hint} for e in items]

    language = LANGUAGE_NAMES.get(str(settings.get("lang")), str(settings.get("lang")))
    groups = [
        {"key": "variants", "title": _(SETTINGS["variants"]), "entries": entries(m.variant_entries())},
        {"key": "rules", "title": _(SETTINGS["rules"]), "entries": entries(m.switches())},
        {"key": "timer", "title": _(SETTINGS["timer"]), "entries": entries(m.timers())},
        {"key": "lang", "title": _("Language: {language}").format(language=language),
         "entries": entries(m.languages())},
    ]
    options = [{"id": p.id, "title": f"{p.rule_label} · {p.title}", "help": p.help, "takes": p.takes,
                "now": _("Now: {value}").format(value=p.value_text), "choices": entries(p.choices.entries),
                "steps": entries(p.steps), "typed": p.typed}
               for rule in m.option_panels() for p in rule]
    return {"type": "settings", "admin": admin, "title": _(SETTINGS["title"]), "summary": m.summary_lines(),
            "groups": groups, "options_title": _(SETTINGS["options"]), "options": options,
            "reset": entries([m.reset()])[0], "type_number": _(SETTINGS["type_number"])}
