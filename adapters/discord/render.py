"""What the Discord adapter shows: the public status message and a member's
private (ephemeral) hand, each as text plus a `discord.ui.View` of components.

Texts come from the neutral chat layer (`table_view`, `status_lines`,
`hand_view`) and the shared catalogue, so Discord says what Telegram and the
console say. The views are layouts only: they are stopped before they are
sent, so discord.py keeps no callback for them; presses come back through
`on_interaction` and their `custom_id` (core's `panel_ids`), which works
the same in any process and after a restart.
"""

from __future__ import annotations

import io
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import discord

from unobot.adapters.card_art import card_png, hand_png
from unobot.chat import actions as a
from unobot.chat import paging
from unobot.chat import panel_ids as ids
from unobot.chat import settings_menu as sm
from unobot.chat.hand_text import hand_lines, hand_text
from unobot.chat.i18n import N_, gettext_for
from unobot.chat.markup import BOLD, CODE, Markup, help_lines
from unobot.chat.names import clip
from unobot.chat.settings_menu import Entry, OptionPanel, Page, RulesPage, SettingsMenu
from unobot.chat.status_text import StatusText, status_text
from unobot.chat.table import PLAYING, Table

from .texts import COMMANDS, RULES_COMMAND

__all__ = ["COMMANDS", "RULES_COMMAND"]  # (their home is texts.py: the web server reads them too)

#: Discord's limits: options in a select, buttons in a row, rows in a message.
LIMITS = paging.Limits(options=25, row=5, rows=5)
#: The top card's picture on the status message, in pixels high.
TOP_HEIGHT = 120


@dataclass
class Shown:
    """A message's text, components and picture (`name`, PNG bytes): the top
    card on the status message, the hand on a member's panel (the stickers' art)."""

    content: str
    view: discord.ui.View | None
    picture: tuple[str, bytes] | None = None

    @property
    def components(self) -> discord.ui.View:
        """For sending (discord.py wants MISSING, not None, for "no components")."""
        return self.view if self.view is not None else discord.utils.MISSING

    def files(self) -> list[discord.File]:
        """The picture as the message's one attachment; none clears an old one on an edit."""
        return [discord.File(io.BytesIO(self.picture[1]), filename=self.picture[0])] if self.picture else []


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


#: Core's texts (`unobot.chat.markup`) in Discord's Markdown.
MD = Markup(esc, {BOLD: ("**", "**"), CODE: ("`", "`")}, verbatim=frozenset({CODE}))


def button(label: str, custom_id: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary,
           disabled: bool = False) -> discord.ui.Button[discord.ui.View]:
    assert ids.fits(custom_id), custom_id
    return discord.ui.Button(label=clip(label, 80), custom_id=custom_id, style=style, disabled=disabled)


# -- paging: Discord's limits met by pages, never by cutting ----------------------------------

@dataclass
class Select:
    """One select menu: its id on a page, its placeholder, all its options."""

    custom_id: Callable[[int], str]
    placeholder: str
    options: list[discord.SelectOption]


@dataclass
class Panel:
    """Everything a message offers: selects (one row each), buttons (as many
    rows as are left), and buttons always shown (refresh, back)."""

    selects: list[Select] = field(default_factory=list)
    buttons: list[discord.ui.Button[discord.ui.View]] = field(default_factory=list)
    fixed: list[discord.ui.Button[discord.ui.View]] = field(default_factory=list)
    #: The custom_id of the ◀ ▶ buttons that show page `p`.
    page_id: Callable[[int], str] = lambda p: f"page|{p}"


def nav(buttons: Sequence[paging.NavButton], scope: str | None = None) -> list[discord.ui.Item[discord.ui.View]]:
    """Core's ◀ n/N ▶ (`paging.nav`) as buttons; with `scope`, a settings
    menu's (its press ids behind the scope: `panel_ids.setting`)."""
    return [button(b.label, ids.setting(scope, b.id) if scope else b.id, disabled=not b.enabled) for b in buttons]


def paged(panel: Panel, page: int) -> discord.ui.View | None:
    """Page `page` of a panel (core's `paging` says what is on it): each
    select's options of that page, the buttons theirs; the bottom row pages
    with ◀ n/N ▶ when one page is not enough, beside the fixed buttons."""
    sh = paging.sheet(LIMITS, [s.options for s in panel.selects], panel.buttons, len(panel.fixed), page)
    rows: list[Sequence[discord.ui.Item[discord.ui.View]]] = [
        [discord.ui.Select(custom_id=s.custom_id(sh.window.number), placeholder=clip(s.placeholder, 150),
                           options=chunk)] for s, chunk in zip(panel.selects, sh.selects, strict=True) if chunk]
    return layout(*rows, *sh.rows, [*nav(paging.nav(sh.window, panel.page_id)), *panel.fixed])


# -- the status message ---------------------------------------------------------------



def live_clock(left: float) -> str:
    """The moment `left` seconds from now as Discord's relative timestamp (`<t:UNIX:R>`):
    each member's app writes it ("in 3 minutes", in their own language) and counts it
    down, so a round's clock (blitz) never goes stale between two edits of the status,
    as core's words ("Round ends in 3 minutes") would. From the wall clock, not the
    service's: the timestamp is read by apps on real time."""
    return f"<t:{int(time.time() + left + 0.5)}:R>"


def status(table: Table, st: StatusText | None = None, *, now: float | None = None) -> Shown:
    """The table's public status (core's `status_text`, or `st`): never a card in anybody's hand.
    `now`: the service's clock, for the time a round's clock (blitz) has left, shown as a
    live timestamp (`live_clock`)."""
    st = st or status_text(table, headline=True, rules=RULES_COMMAND, now=now, live_clock=live_clock,
                           commands=COMMANDS)
    out = ([esc(st.headline)] if st.headline else []) + [f"**{esc(st.title)}**", *map(esc, st.lines)]
    top = table.game.top if table.phase == PLAYING and table.game is not None and not st.final else None
    return Shown("\n".join(out), None if st.final else status_components(table),
                 ("top.png", card_png(top, TOP_HEIGHT)) if top is not None else None)


def status_components(table: Table) -> discord.ui.View | None:
    """What anyone at the table may press on the public message: the lobby's
    and the round's actions of the model (for any member: a newcomer's Join,
    the creator's Start, a seat's Leave), and "My cards" while a round runs."""
    _ = gettext_for(table.lang)
    v = table.version
    buttons = [button(_("🃏 My cards"), ids.hand_id(), discord.ButtonStyle.primary)] if table.phase == PLAYING \
        else []
    buttons += [action_button(action, v) for action in a.public_actions(table, table.lang)]
    return paged(Panel(buttons=buttons, page_id=lambda p: ids.page(v, p)), 0)


# -- a member's panel (ephemeral): the table model's menu --------------------------------------

#: Core's tone of an action (`actions.TONES`) as a button's style.
STYLES = {a.MAIN: discord.ButtonStyle.primary, a.GO: discord.ButtonStyle.success,
          a.ALERT: discord.ButtonStyle.danger, a.QUIET: discord.ButtonStyle.secondary}


def action_button(action: a.Action, version: int) -> discord.ui.Button[discord.ui.View]:
    """An action as a button: done when pressed, or its picker when it still `needs` a pick."""
    cid = ids.needs(version, action.id) if action.needs else ids.act(version, action.id)
    return button(action.label, cid, STYLES[action.tone])


def panel(table: Table, person_id: str, lang: str, *, now: float | None = None, is_admin: bool = False,
          notes: Sequence[str] = (), page: int = 0) -> Shown:
    """One member's panel, only they see it: their hand and every action of
    the model's menu for them now. Cards to play go in a select (its values
    are action ids), every other action is a button; both page past
    Discord's limits. An action that still needs a pick (a wild's colour, a
    Seven-O target, an AI's level) opens its picker."""
    _ = gettext_for(lang)
    m = a.menu(table, person_id, lang, now=now, is_admin=is_admin)
    ht = hand_text(table, m, lang, COMMANDS)
    text = MD.text(hand_lines(ht, notes, listed=m.hand is not None and table.game is not None))
    grouped = m.grouped()
    cards = [x for x in grouped if x.kind == "play"]
    others = [x for x in grouped if x.kind != "play"]
    v = table.version
    options = [discord.SelectOption(label=clip(x.label, 100), value=ids.select_value(x.id, bool(x.needs)),
                                    description=clip(x.hint, 100) if x.hint else None) for x in cards]
    view = paged(Panel(selects=[Select(lambda p: ids.select(v, p), _("Play this card"), options)],
                       buttons=[action_button(x, v) for x in others],
                       fixed=[button("🔄", ids.refresh(v))], page_id=lambda p: ids.page(v, p)), page)
    hand = [(hc.card, hc.playable) for hc in m.hand.cards for _n in range(hc.count)] if m.hand else []
    return Shown(text or "-", view, ("hand.png", hand_png(hand)) if hand else None)


def picker(table: Table, action: a.Action, lang: str, page: int = 0) -> Shown:
    """The picks an action still needs (`grouped().choices`): one button each."""
    v = table.version
    buttons = [button(action.choice_label(choice), ids.act(v, choice.id),
                      STYLES[a.TONES.get(choice.kind, a.MAIN)]) for choice in action.choices]
    view = paged(Panel(buttons=buttons, fixed=[button("↩️", ids.refresh(v))],
                       page_id=lambda p: ids.needs(v, action.id, p)), page)
    return Shown(f"**{esc(action.label)}**" + (f"\n{esc(action.hint)}" if action.hint else ""), view)


# -- help -----------------------------------------------------------------------------------

HELP = (
    N_("Open a game with /uno new. Players press Join; the creator presses Start."),
    N_("On your turn press “My cards” under the game message: only you see your hand. "
       "Pick a card to play, or draw, pass or say UNO."),
)


def help_text(commands: Sequence[tuple[str, str]], lang: str) -> str:
    """How to play, and each `/uno` subcommand with its (catalogued) description."""
    return MD.text(help_lines(HELP, [(f"/uno {name}", description) for name, description in commands], lang,
                              name=CODE))


# -- rules and settings: core's settings menu, drawn ------------------------------------------

#: A select's 25 options a page; an option's choices in four rows of five buttons.
SETTINGS_PAGE, CHOICES_PAGE = LIMITS.options, (LIMITS.rows - 1) * LIMITS.row
#: A message's content is at most 2,000 characters.
MAX_RULES_TEXT = 2000


def settings_menu(settings: dict[str, Any], lang: str) -> SettingsMenu:
    """Core's settings menu with Discord's page sizes."""
    return SettingsMenu(settings, lang, SETTINGS_PAGE, CHOICES_PAGE)


def rules_text(m: SettingsMenu, note: str = "") -> str:
    """The settings in words, then every option of the rules on with its value and help."""
    return MD.fit(sm.rules_lines(m, note, options=True), MAX_RULES_TEXT)


def entry_option(entry: Entry, label: str) -> discord.SelectOption:
    return discord.SelectOption(label=clip(label, 100), value=entry.id, description=clip(entry.hint, 100) or None)


def rules_components(m: SettingsMenu, view: RulesPage, scope: str) -> discord.ui.View | None:
    """A page of the switchable rules (on or off) in a select, and of the
    options of the rules on in a second; both page at 25 (27+ house rules exist)."""
    _ = gettext_for(m.lang)
    rows: list[Sequence[discord.ui.Item[discord.ui.View]]] = []
    for n, (entries, placeholder, mark) in enumerate(((view.switches, _("Turn a house rule on or off"), True),
                                                      (view.options, _("Change an option"), False))):
        if entries:
            options = [entry_option(e, e.marked("✅ ", "⬜ ") if mark else e.label) for e in entries]
            rows.append([discord.ui.Select(custom_id=ids.setting_select(scope, n), placeholder=placeholder,
                                           options=options)])
    rows.append(nav(view.nav(), scope))
    return layout(*rows)


def option_panel(m: SettingsMenu, p: OptionPanel, scope: str, note: str = "") -> Shown:
    """One option of a rule: its help in the reader's language, what it
    takes, its value, and how to change it: on/off, its allowed values, or
    steps within its bounds and a box to type a number; then back."""
    _ = gettext_for(m.lang)
    mark = "✅ " if p.is_switch else "🔘 "
    buttons = [button((mark if e.on else "") + e.label, ids.setting(scope, e.id),
                      discord.ButtonStyle.success if p.is_switch and e.id.endswith(":1") else
                      discord.ButtonStyle.secondary) for e in p.choices.entries]
    buttons += [button(e.label, ids.setting(scope, e.id)) for e in p.steps]
    bottom = nav(p.choices.nav(), scope)
    if p.typed is not None:
        bottom.append(button("✏️ " + _("Type a number"), ids.setting(scope, p.typed), discord.ButtonStyle.primary))
    bottom.append(button(_("⬅ All rules"), ids.setting(scope, "back")))
    return Shown(MD.text(sm.option_lines(p, m.lang, note)), layout(*paging.rows(buttons, LIMITS.row), bottom))


def variants(m: SettingsMenu, view: Page, scope: str, note: str = "") -> Shown:
    """A page of every variant in a select (25 a page), the channel's marked, under its title."""
    _ = gettext_for(m.lang)
    text = (esc(note) + "\n" if note else "") + "**" + esc(_("The rules variant")) + "**"
    options = [entry_option(e, e.marked("✅ ", "")) for e in view.entries]
    select: discord.ui.Select[discord.ui.View] = discord.ui.Select(
        custom_id=ids.setting_select(scope, 2), placeholder=_("The rules variant"), options=options)
    return Shown(text, layout([select], nav(view.nav(), scope)) if options else None)
