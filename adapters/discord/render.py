"""What the Discord adapter shows: the public status message and a member's
private (ephemeral) hand, each as text plus a `discord.ui.View` of components.

Texts come from the neutral chat layer (`table_view`, `status_lines`,
`hand_view`) and the shared catalogue, so Discord says what Telegram and the
console say. The views are layouts only: they are stopped before they are
sent, so discord.py keeps no callback for them; presses come back through
`on_interaction` and their `custom_id` (see `ids`), which works the same in
any process and after a restart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from unobot.cards import Card
from unobot.chat.i18n import LANGUAGE_NAMES, N_, gettext_for, ngettext_for
from unobot.chat.render import COLOR_EMOJI, card_name, color_name
from unobot.chat.table import BETWEEN_ROUNDS, FINISHED, LOBBY, PLAYING, Table
from unobot.chat.views import (
    HandView,
    hand_view,
    round_headline,
    rules_summary,
    status_lines,
    table_view,
)
from unobot.moves import Move
from unobot.registry import available_rules

from . import ids

RECENT_LINES = 5
MAX_OPTIONS = 25

DRAW_AND_PLAY = N_("Draw, and play it if it fits")


@dataclass
class Shown:
    """A message's text and components."""

    content: str
    view: discord.ui.View | None

    @property
    def components(self) -> discord.ui.View:
        """For sending (discord.py wants MISSING, not None, for "no components")."""
        return self.view if self.view is not None else discord.utils.MISSING


def layout(*rows: Sequence[discord.ui.Item[discord.ui.View]]) -> discord.ui.View | None:
    """A view of these rows of items, stopped: a layout, with no callbacks kept."""
    items = [(r, item) for r, row in enumerate(rows) for item in row]
    if not items:
        return None
    view = discord.ui.View(timeout=None)
    for r, item in items:
        item.row = r
        view.add_item(item)
    view.stop()
    return view


def esc(text: str) -> str:
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def card_text(card: Card, lang: str) -> str:
    return f"{COLOR_EMOJI.get(card.color, '⬛')} {card_name(card, lang)}"


def button(label: str, custom_id: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           disabled: bool = False) -> discord.ui.Button[discord.ui.View]:
    return discord.ui.Button(label=label[:80], custom_id=custom_id, style=style, disabled=disabled)


# -- the status message ---------------------------------------------------------------

def status(table: Table, *, final: bool = False) -> Shown:
    """The table's public status: never a card in anybody's hand."""
    lang = table.lang
    _ = gettext_for(lang)
    ngettext = ngettext_for(lang)
    view = table_view(table, lang)
    lines = status_lines(view, lang)
    title = lines[0]
    if table.game is not None and view.round > 1:
        title += " · " + _("round {n}").format(n=view.round)
    out = [f"**{esc(title)}**"]
    headline = round_headline(table)
    if headline:
        out.insert(0, esc(headline))
    if table.phase == LOBBY and not table.seats:
        out.append(esc(_("The lobby is closed.")))
        final = True
    for i, line in enumerate(lines[1:]):
        if i == 0 and view.top is not None and table.phase != LOBBY:
            out.append(f"{COLOR_EMOJI.get(view.color, '⬛')} {esc(line)}")
        else:
            out.append(esc(line))
    if table.phase == LOBBY and table.seats:
        out.append(esc(_("Press Join to play; the creator presses Start. /rules shows the rules.")))
        if view.target:
            out.append("🏁 " + esc(_("First to {n} points wins the match.").format(n=view.target)))
    if view.turn_seconds and table.phase in (LOBBY, PLAYING):
        out.append("⏱ " + ngettext("{n} second per turn", "{n} seconds per turn",
                                   view.turn_seconds).format(n=view.turn_seconds))
    recent = view.recent[-RECENT_LINES:] if table.phase != LOBBY else []
    if recent:
        out.append("")
        out.extend(f"· {esc(line)}" for line in recent)
    if table.phase == PLAYING:
        out.append("")
        out.append(esc(_("Press “My cards” to see your hand and play.")))
    components = None if final or table.phase == FINISHED else status_components(table)
    return Shown("\n".join(out), components)


def status_components(table: Table) -> discord.ui.View | None:
    _ = gettext_for(table.lang)
    my_cards = button(_("🃏 My cards"), ids.table_id("hand"), discord.ButtonStyle.primary)
    if table.phase == LOBBY:
        return layout([button(_("✋ Join"), ids.table_id("join"), discord.ButtonStyle.success),
                       button(_("▶️ Start"), ids.table_id("start"), discord.ButtonStyle.primary),
                       button(_("🤖 Add an AI player"), ids.table_id("ai"))])
    if table.phase == BETWEEN_ROUNDS:
        return layout([button(_("⏭ Next round"), ids.table_id("next"), discord.ButtonStyle.success)])
    if table.phase == PLAYING:
        return layout([my_cards])
    return None


def stopped(table: Table, line: str) -> Shown:
    title = status_lines(table_view(table, table.lang), table.lang)[0]
    return Shown(f"**{esc(title)}**\n{esc(line)}", None)


# -- a member's hand (ephemeral) ------------------------------------------------------------

def hand(table: Table, person_id: str, lang: str, notes: list[str] | None = None) -> Shown:
    """One member's hand and what they may do now: only they see this message."""
    _ = gettext_for(lang)
    out = [esc(n) for n in notes or []]
    hv = hand_view(table, person_id)
    if hv is None or table.game is None:
        out.append(esc(_("You are not playing in this game.")))
        return Shown("\n".join(out), None)
    if table.phase != PLAYING:
        out.append(esc(_("Round over: press Next round") if table.phase == BETWEEN_ROUNDS
                       else _("The game is over")))
    view = table_view(table, lang)
    if view.top is not None:
        out.append(f"{COLOR_EMOJI.get(view.color, '⬛')} " + esc(status_lines(view, lang)[1]))
    if hv.is_turn:
        turn = _("your turn")
    else:
        seat = table.game.turn
        turn = _("{player}'s turn").format(player=table.seats[seat].name if 0 <= seat < len(table.seats) else "?")
    out.append(f"**{esc(turn)}**")
    if hv.pending:
        out.append(esc(_("{player} must draw {n}, or answer it.").format(player=table.seats[hv.seat].name,
                                                                          n=hv.pending)))
    cards = []
    for hc in hv.cards:
        text = card_text(hc.card, lang) + (f" ×{hc.count}" if hc.count > 1 else "")
        cards.append(f"**{text}**" if hc.playable else text)
    out.append(" · ".join(cards) or "-")
    if table.phase != PLAYING:
        return Shown("\n".join(out), layout([button("🔄", ids.hand_id("r", table.version))]))
    return Shown("\n".join(out), hand_components(table, hv, lang))


def hand_components(table: Table, hv: HandView, lang: str) -> discord.ui.View | None:
    _ = gettext_for(lang)
    v = table.version
    game = table.game
    assert game is not None
    options: list[discord.SelectOption] = []
    two = len(game.hands[hv.seat]) == 2 and hv.uno is not None
    for hc in hv.cards:
        if not hc.playable:
            continue
        label = card_name(hc.card, lang)
        emoji = COLOR_EMOJI.get(hc.card.color, "⬛")
        if two:
            options.append(discord.SelectOption(label=f"{label} · UNO!", value=ids.select_value(hc.card.text, True),
                                                emoji=emoji, description=_("Say UNO and play this card")))
        jump = any(m in hv.jump_ins for m in hc.moves)
        options.append(discord.SelectOption(
            label=label, value=ids.select_value(hc.card.text), emoji=emoji,
            description=_("Jump in with this card!") if jump else
            _("The card you just drew") if game.drawn == hc.card and hv.is_turn else _("Play this card")))
    rows: list[Sequence[discord.ui.Item[discord.ui.View]]] = []
    if options:
        rows.append([discord.ui.Select(custom_id=ids.hand_id("sel", v), placeholder=_("Play this card"),
                                       options=options[:MAX_OPTIONS])])
    actions: list[discord.ui.Item[discord.ui.View]] = []
    if hv.uno is not None:
        actions.append(button(_("UNO!"), ids.hand_id("un", v), discord.ButtonStyle.danger))
    if hv.challenge is not None:
        actions.append(button(_("Challenge the Wild Draw Four"), ids.hand_id("ch", v), discord.ButtonStyle.danger))
    if hv.draw is not None and not hv.pending:
        actions.append(button(_(DRAW_AND_PLAY), ids.hand_id("dp", v), discord.ButtonStyle.success))
    if hv.draw is not None:
        actions.append(button(_("Draw a card"), ids.hand_id("d", v)))
    if hv.pass_ is not None:
        actions.append(button(_("Pass"), ids.hand_id("pa", v)))
    if actions:
        rows.append(actions[:5])
    catches = [button(_("Catch {player}: no UNO!").format(player=table.seats[m.target].name),
                      ids.hand_id("ca", v, table.seats[m.target].id), discord.ButtonStyle.danger)
               for m in hv.catches if m.target is not None and 0 <= m.target < len(table.seats)]
    if catches:
        rows.append(catches[:5])
    rows.append([button("🔄", ids.hand_id("r", v))])
    return layout(*rows)


def picker(table: Table, card: str, moves: list[Move], uno: bool, lang: str) -> Shown:
    """A card that is played more than one way (a wild: the colour; a 7 of
    seven-o: whom to swap with): one button per way."""
    _ = gettext_for(lang)
    buttons: list[discord.ui.Item[discord.ui.View]] = []
    for m in moves:
        if m.color:
            label = _(color_name(m.color, lang))
            label = f"{COLOR_EMOJI[m.color]} {label}"
        elif m.target is not None and 0 <= m.target < len(table.seats):
            label = "⇄ " + table.seats[m.target].name
        else:
            label = card
        target = table.seats[m.target].id if m.target is not None and 0 <= m.target < len(table.seats) else None
        buttons.append(button(label, ids.play_id(table.version, card, m.color, target, uno),
                              discord.ButtonStyle.primary))
    rows = [buttons[i:i + 5] for i in range(0, min(len(buttons), 20), 5)]
    rows.append([button("↩️", ids.hand_id("r", table.version))])
    played = next((m.card for m in moves if m.card is not None), None)
    head = card_text(played, lang) if played is not None else card
    return Shown(f"**{esc(head)}**", layout(*rows))


# -- help -----------------------------------------------------------------------------------

HELP = (
    N_("Open a game with /uno new. Players press Join; the creator presses Start."),
    N_("On your turn press “My cards” under the game message: only you see your hand. "
       "Pick a card to play, or draw, pass or say UNO."),
)


def help_text(commands: Sequence[tuple[str, str]], lang: str) -> str:
    """How to play, and each `/uno` subcommand with its (catalogued) description."""
    _ = gettext_for(lang)
    lines = ["**" + esc(_("UNO in this chat")) + "**", *(esc(_(line)) for line in HELP), ""]
    lines += [f"`/uno {name}` · {esc(_(description))}" for name, description in commands]
    return "\n".join(lines)


# -- rules and settings -----------------------------------------------------------------------

def rules_text(settings: dict[str, object], lang: str) -> tuple[str, set[str]]:
    """The channel's variant, house rules, timer and language."""
    _ = gettext_for(lang)
    summary = rules_summary(dict(settings), lang)
    title, house, timer, enabled = summary.title, summary.house, summary.timer, summary.enabled
    lines = [
        "**" + esc(_("Rules in this chat")) + "**",
        esc(_("Variant: {variant}").format(variant=title)),
        esc(_("House rules on: {rules}").format(rules=", ".join(house) or _("none"))),
        esc(_("Turn timer: {n} seconds").format(n=timer) if timer else _("Turn timer: off")),
        esc(_("Language: {language}").format(language=LANGUAGE_NAMES.get(lang, lang))),
    ]
    lines += option_lines(settings, enabled, lang)
    text = "\n".join(lines)
    return (text if len(text) <= MAX_RULES_TEXT else text[:MAX_RULES_TEXT - 1] + "…"), enabled


#: A message's content is at most 2,000 characters.
MAX_RULES_TEXT = 2000


def option_lines(settings: dict[str, object], enabled: set[str], lang: str) -> list[str]:
    """Every option of the rules on, with its value and its help in the
    reader's language (through the rule's own catalogue: `Rule.option_help`)."""
    from unobot.rule import option_specs
    from unobot.variants import VariantError, resolve

    _ = gettext_for(lang)
    try:
        resolved = resolve(str(settings["variant"]), settings.get("rules") or None)  # type: ignore[arg-type]
    except VariantError:
        return []
    rules = available_rules()
    out: list[str] = []
    for name in sorted(enabled, key=lambda n: (rules[n].base, n) if n in rules else (True, n)):
        cls = rules.get(name)
        specs = option_specs(cls) if cls is not None else []
        if cls is None or not specs:
            continue
        if not out:
            out += ["", "**" + esc(_("Options")) + "**"]
        values = dict(resolved.rules.get(name) or {})
        parts = []
        for spec in specs:
            value = values.get(spec.name, spec.default)
            shown = (_("on") if value else _("off")) if spec.type is bool else str(value)
            help_text = cls.option_help(spec.name, lang)
            parts.append(f"`{spec.name}` {esc(shown)}" + (f" ({esc(help_text)})" if help_text else ""))
        out.append(f"{esc(cls.label(lang))}: " + "; ".join(parts))
    return out


def rules_components(enabled: set[str], lang: str, scope: str = "channel") -> discord.ui.View | None:
    """A select of the house rules (those not every game has), on or off."""
    options = [discord.SelectOption(label=("✅ " if cls.name in enabled else "⬜ ") + cls.label(lang)[:90],
                                    value=cls.name)
               for cls in sorted(available_rules().values(), key=lambda r: r.name) if not cls.base]
    if not options:
        return None
    return layout([discord.ui.Select(custom_id=f"rules|toggle|{scope}", options=options[:MAX_OPTIONS])])
