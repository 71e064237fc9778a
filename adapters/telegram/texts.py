"""Longer texts: the command menu, /help, the private welcome, the /rules summary.

All in English in the source and translated through the gettext catalogues.
"""

from __future__ import annotations

import html

from unobot.chat.answers import READING
from unobot.chat.commands import WORDS
from unobot.chat.i18n import N_, gettext_for
from unobot.chat.markup import BOLD, CODE, Markup, help_lines, plain
from unobot.chat.settings_menu import SettingsMenu, rules_lines

#: How /top is typed here, with its periods (the menu's words for it).
TOP = N_("Standings: /top, /top week, /top month")

#: The command menu (setMyCommands), in the order shown; core's words where the
#: command is every front-end's (`commands.WORDS`), Telegram's own where it differs.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("new", WORDS["new"]),
    ("join", N_("Join the open game")),
    ("start", N_("Start the game")),
    ("leave", WORDS["leave"]),
    ("stop", WORDS["stop"]),
    ("kick", N_("Remove a player: reply to their message (creator or admin)")),
    ("skip", WORDS["skip"]),
    ("ai", N_("Add AI players: /ai 2")),
    ("rules", WORDS["rules"]),
    ("variant", WORDS["variant"]),
    ("timer", WORDS["timer"]),
    ("language", WORDS["language"]),
    # The reading commands, with core's words for them (the standings' reset is /resetstats here).
    *((("resetstats" if name == "reset" else name), TOP if name == "top" else words) for name, words in READING.items()),
    ("notify", N_("Tell me privately when the next game opens here")),
    ("help", WORDS["help"]),
)


def esc(text: str) -> str:
    return html.escape(text, quote=False)


#: Core's texts (`unobot.chat.markup`) in Telegram's HTML.
HTML = Markup(esc, {BOLD: ("<b>", "</b>"), CODE: ("<code>", "</code>")})

HELP = (
    N_("Open a game with /new. Players press Join; the creator presses Start."),
    N_("On your turn press “My cards” under the game message (or type @{bot} in the chat) "
       "and pick a card or an action. Cards you cannot play now are marked."),
)


def help_text(lang: str, bot_username: str) -> str:
    return HTML.text(help_lines(HELP, [(f"/{name}", words) for name, words in COMMANDS], lang, bot=bot_username))


def welcome_text(lang: str, name: str, bot_username: str) -> str:
    _ = gettext_for(lang)
    return "\n".join([
        "<b>" + esc(_("Hi {name}! I host UNO games in groups.").format(name=name)) + "</b>",
        esc(_("Add me to a group with the button below, then type /new there.")),
        esc(_("You can also play here against AI players: /new, then /ai 2, then /start.")),
        esc(_("Now that you started me I can tell you privately which cards you drew.")),
        "",
        esc(_("All commands: /help")),
    ])


FOOTNOTE = N_("Chat admins change these with the buttons; a change applies from the next game.")


def rules_text(m: SettingsMenu) -> str:
    """The chat's settings in words (core's settings menu), under a title."""
    return HTML.text([*rules_lines(m), [], plain(gettext_for(m.lang)(FOOTNOTE))])


def options_text(m: SettingsMenu, rule: str) -> str:
    """A rule's options, each with its value and what it does (through the rule's catalogue)."""
    _ = gettext_for(m.lang)
    panels = m.rule_panel(rule)
    title = panels[0].rule_label if panels else rule
    lines = ["<b>" + esc(_("Options of {rule}").format(rule=title)) + "</b>"]
    for p in panels:
        line = f"• {esc(p.title)}: <b>{esc(p.value_text)}</b>"  # its title: nobody types an option's id here
        lines.append(line + (" · " + esc(p.help) if p.help else ""))
    return "\n".join([*lines, "", esc(_(FOOTNOTE))])
