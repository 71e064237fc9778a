"""Longer texts: the command menu, /help, the private welcome, the /rules summary.

All in English in the source and translated through the gettext catalogues.
"""

from __future__ import annotations

import html
from typing import Any

from unobot.chat.i18n import LANGUAGE_NAMES, N_, gettext_for
from unobot.chat.views import rules_summary
from unobot.rule import Rule, option_specs
from unobot.variants import VariantError, resolve

from .keyboards import toggle_rules

#: The command menu (setMyCommands), in the order shown.
COMMANDS: tuple[tuple[str, str], ...] = (
    ("new", N_("Open a game here (optionally: a variant name)")),
    ("join", N_("Join the open game")),
    ("start", N_("Start the game")),
    ("leave", N_("Leave the game")),
    ("stop", N_("Stop the game (creator or admin)")),
    ("kick", N_("Remove a player: reply to their message (creator or admin)")),
    ("skip", N_("Skip a player whose time ran out")),
    ("ai", N_("Add AI players: /ai 2")),
    ("rules", N_("Show and change this chat's rules")),
    ("variant", N_("Choose the rules variant (admins)")),
    ("timer", N_("Seconds per turn, or off (admins)")),
    ("language", N_("Language: en or es (admins)")),
    ("stats", N_("Statistics of this chat and yours")),
    ("top", N_("Standings: /top, /top week, /top month")),
    ("me", N_("Your record and rating in every chat")),
    ("last", N_("The last finished match")),
    ("forgetme", N_("Remove your records and your name from kept games")),
    ("resetstats", N_("Reset this chat's standings (admins)")),
    ("notify", N_("Tell me privately when the next game opens here")),
    ("help", N_("How to play")),
)


def esc(text: str) -> str:
    return html.escape(text, quote=False)


def help_text(lang: str, bot_username: str) -> str:
    _ = gettext_for(lang)
    lines = [
        "<b>" + esc(_("UNO in this chat")) + "</b>",
        esc(_("Open a game with /new. Players press Join; the creator presses Start.")),
        esc(_("On your turn press “My cards” under the game message (or type @{bot} in the chat) "
              "and pick a card or an action. Cards you cannot play now are marked.")
            .format(bot=bot_username)),
        "",
    ]
    lines += [f"/{name} · {esc(_(description))}" for name, description in COMMANDS]
    return "\n".join(lines)


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


def rules_text(settings: dict[str, Any], lang: str) -> tuple[str, set[str]]:
    """The chat's variant and house rules, and the names of the rules that are on."""
    _ = gettext_for(lang)
    summary = rules_summary(settings, lang)
    title, house, enabled = summary.title, summary.house, summary.enabled
    off = [cls.label(lang) for cls in toggle_rules(enabled) if cls.base and cls.name not in enabled]
    timer = int(settings.get("timer") or 0)
    lines = [
        "<b>" + esc(_("Rules in this chat")) + "</b>",
        esc(_("Variant: {variant}").format(variant=title)),
        esc(_("House rules on: {rules}").format(rules=", ".join(house) or _("none"))),
    ]
    if off:
        lines.append(esc(_("Shared rules off: {rules}").format(rules=", ".join(off))))
    lines.append(esc(_("Turn timer: {n} seconds").format(n=timer) if timer else _("Turn timer: off")))
    lines.append(esc(_("Language: {language}").format(language=LANGUAGE_NAMES.get(lang, lang))))
    lines.append("")
    lines.append(esc(_("Chat admins change these with the buttons; a change applies from the next game.")))
    return "\n".join(lines), enabled


def rule_values(settings: dict[str, Any], rule: str) -> dict[str, Any]:
    """The options a rule has in this chat (the variant's, with the chat's changes)."""
    try:
        resolved = resolve(settings["variant"], settings.get("rules") or None)
    except VariantError:
        return {}
    return dict(resolved.rules.get(rule) or {})


def options_text(cls: type[Rule], values: dict[str, Any], lang: str) -> str:
    """A rule's options, each with its value and what it does."""
    _ = gettext_for(lang)
    lines = ["<b>" + esc(_("Options of {rule}").format(rule=cls.label(lang))) + "</b>"]
    for spec in option_specs(cls):
        value = values.get(spec.name, spec.default)
        shown = (_("on") if value else _("off")) if spec.type is bool else str(value)
        title = cls.option_title(spec.name, lang)
        line = f"• <code>{esc(spec.name)}</code>" + (f" ({esc(title)})" if title != spec.name else "") \
            + f": <b>{esc(shown)}</b>"
        help_text = cls.option_help(spec.name, lang)  # through the rule's catalogue, in the chat's language
        if help_text:
            line += " · " + esc(help_text)
        lines.append(line)
    lines.append("")
    lines.append(esc(_("Chat admins change these with the buttons; a change applies from the next game.")))
    return "\n".join(lines)
