"""Rich rendering: coloured cards, the table, the hand, the log, scores.

Why here and not in core: core's render gives plain translated text for
every adapter; colour is the console's own markup. Everything is built from
`core.chat.views` and events, so what the console shows is what the engine
says (playable cards are the ones `hand_view` marks).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence

from rich import box
from rich.cells import cell_len
from rich.columns import Columns
from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.markup import escape
from rich.padding import Padding
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text

from unobot.cards import Card
from unobot.chat import typed
from unobot.chat.i18n import gettext_for, ngettext_for
from unobot.chat.match_text import by_standing, match_length
from unobot.chat.render import (
    card_name,
    card_symbol,
    color_name,
    describe_event,
    describe_private,
)
from unobot.chat.rules_text import rule_lines
from unobot.chat.settings_typed import ON, RESET, usage
from unobot.chat.typed import first_form
from unobot.chat.typed_help import move_rows, records_rows, rule_rows
from unobot.chat.typed_offers import (
    Offer,
    out_of_turn_offers,
    pending_line,
    turn_offers,
    typed_order,
)
from unobot.chat.views import HandView, TableView, round_clock_line
from unobot.events import Event
from unobot.ruleset import RuleSet

from .input import LOG, QUIT, RULES, SHORT, WORDS

#: Chip colours (foreground on background) and the colour of a card's name.
CHIP = {"R": "bold white on red3", "Y": "bold black on gold1", "G": "bold white on green4",
        "B": "bold white on dodger_blue3"}
INK = {"R": "bold red1", "Y": "bold yellow1", "G": "bold green3", "B": "bold dodger_blue1", None: "bold magenta"}
RAINBOW = ("red1", "yellow1", "green3", "dodger_blue1")

PLAYABLE, UNPLAYABLE = "●", "○"
PROMPT_MARK = "› "


def play_command() -> str:
    """How the player started the game, for "continue with ... --resume":
    `python3 run.py play` sets UNOBOT_PLAY_COMMAND; an installed unobot is `unobot play`."""
    return os.environ.get("UNOBOT_PLAY_COMMAND") or "unobot play"


def quit_note(lang: str, persistent: bool) -> Text:
    """What leaving says (`quit`, Ctrl-D, Ctrl-C at a prompt or while the
    others move): where the game is, and how to take it up again."""
    _ = gettext_for(lang)
    if persistent:
        return Text(_("Game saved. Continue it with: {command} --resume").format(command=play_command()),
                    style="bold")
    return Text(_("The memory store keeps nothing after the program ends: this game is over."), style="bold")


#: A console's chat id starts so (`console.<login>`): its table on the web page too.
CHAT_PREFIX = "console."


def commands(lang: str) -> dict[str, str]:
    """The console's own words for the commands core's texts name
    (`render.error_text`'s `commands`): a refusal that says `/stop` or
    `/new`, which only the chats have, leaves a console player stuck, in the
    terminal or on the page of its table (`unobot play --web`).

    A new game is `unobot play` (as the player started it); the console
    has no stop: a game ends by quitting and answering no to resuming it
    at the next start (`_run` then puts it away); rules are chosen on the
    command line (`--rule`), and `unobot variants` lists the variants;
    the standings are the reader's typed word for them (`clasificación`)."""
    _ = gettext_for(lang)
    play = play_command()
    return {"new": play,
            "stop": _("{quit}, then {command} answering no to resuming it").format(
                quit=_(WORDS[QUIT]), command=play),
            "rules": f"{play} --rule", "variant": "unobot variants",
            "top": typed.first_form(lang, typed.RECORD_WORDS["top"])}


def chip(card: Card) -> Text:
    """A small coloured card face showing its kind's symbol: ` 5  `, ` ⊘  `,
    ` +2 `, a rainbow ` ⇄+4 ` (at least 4 cells wide)."""
    label = f" {card_symbol(card):<2} "
    if card.is_wild:
        text = Text()
        for i, ch in enumerate(label):
            text.append(ch, style=f"bold {RAINBOW[i % 4]} on grey15")
        return text
    return Text(label, style=CHIP.get(card.color or "", "reverse"))


def numbered(hv: HandView) -> list[Card]:
    """The hand's cards in the order they are numbered for typing (core's `typed_order`)."""
    return [hc.card for hc in typed_order(hv)]


def flow(head: Text, parts: Sequence[Text], width: int, sep: str = ", ", indent: int = 2) -> Text:
    """`head` then the parts, wrapped to `width` only between parts (a card is
    never split across two lines)."""
    text = head.copy()
    column = text.cell_len
    mark, gap = sep.rstrip(" "), sep[len(sep.rstrip(" ")):] or " "
    for i, part in enumerate(parts):
        piece = part.copy()
        if i < len(parts) - 1:
            piece.append(mark)
        if column > indent and column + len(gap) + piece.cell_len > width:
            text.append("\n" + " " * indent)
            column = indent
        elif i > 0:
            text.append(gap)
            column += len(gap)
        text.append_text(piece)
        column += piece.cell_len
    return text


def card_text(card: Card, lang: str) -> Text:
    """Chip and translated name: `[ 5 ] Red 5`."""
    return Text.assemble(chip(card), " ", (card_name(card, lang), INK.get(card.color, "bold")))


def color_text(color: str | None, lang: str) -> Text:
    return Text(color_name(color, lang), style=INK.get(color, "bold"))


def styled_line(line: str, lang: str, cards: Iterable[Card] = (), colors: Iterable[str | None] = (),
                names: Sequence[str] = (), me: str | None = None) -> Text:
    """A plain translated line with card names, colour words and names coloured."""
    text = Text(line)
    for card in cards:
        text.highlight_words([card_name(card, lang)], style=INK.get(card.color, "bold"))
    for color in colors:
        if color:
            text.highlight_words([color_name(color, lang)], style=INK.get(color, "bold"))
    others = [n for n in names if n and n != me]
    if others:
        text.highlight_words(others, style="cyan")
    if me:
        text.highlight_words([me], style="bold")
    return text


def event_line(e: Event, name: Callable[[int], str], lang: str, me: str | None = None,
               names: Sequence[str] = ()) -> Text | None:
    """One log line for an event, coloured; None for events without a line."""
    line = describe_event(e, name, lang)
    if not line:
        return None
    cards = [e.card] if e.card is not None else []
    return styled_line(line, lang, cards, [e.color], names, me)


def private_line(e: Event, lang: str, width: int = 200) -> Text | None:
    """What only I see: the cards I drew, as coloured cards (wrapped between cards)."""
    if not describe_private(e, lang):
        return None
    _ = gettext_for(lang)
    head = Text.assemble(("  ", ""), Text(_("You drew:"), style="italic"), " ")
    return flow(head, [card_text(card, lang) for card in e.cards], width, indent=4)


# -- the table -------------------------------------------------------------------------

def header(view: TableView, lang: str) -> Rule:
    _ = gettext_for(lang)
    title = _("Round {n} · {variant}").format(n=view.round, variant=view.variant_title)
    return Rule(Text(title, style="bold"), style="grey50")


def status(view: TableView, lang: str, width: int = 200, hv: HandView | None = None,
           now: float | None = None) -> Text:
    """Top card, colour, direction, draw pile, and a pending draw if any;
    wrapped between its parts on a narrow terminal. `now` (the service's
    clock): the time a round's clock (blitz) has left, core's line for it."""
    _ = gettext_for(lang)
    parts: list[Text] = []
    if view.top is not None:
        parts.append(Text(_("Top card:") + " ", style="grey70") + card_text(view.top, lang))
        parts.append(Text(_("Colour:") + " ", style="grey70") + color_text(view.color, lang))
    arrow = "→ ↻" if view.direction == 1 else "← ↺"
    parts.append(Text(_("Direction:") + " ", style="grey70") + Text(arrow, style="bold"))
    parts.append(Text(_("Draw pile: {n}").format(n=view.draw_size), style="grey70"))
    text = flow(Text(), parts, width, sep="   ", indent=0)
    if view.pending:
        text.append("\n" + pending_line(view, hv, lang), style="bold red")
    if view.round_ends is not None and now is not None:
        left = max(0.0, view.round_ends - now)
        text.append("\n" + round_clock_line(left, lang), style="bold red" if left < 60 else "yellow")
    return text


def players_table(view: TableView, lang: str, me: str, hide: Sequence[str] = ()) -> Table:
    """Who is at the table, in the round's order of play (the table model's:
    a shuffled-seat round is played in another order than the seats): turn
    marker (▶), who plays next (⏭), cards in hand, UNO flags, scores."""
    _ = gettext_for(lang)
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), show_edge=False, pad_edge=False)
    table.add_column("")
    table.add_column(_("Player"))
    table.add_column(_("Cards"), justify="right")
    table.add_column(_("Score"), justify="right")
    table.add_column("")
    for p in view.in_order:
        if p.id in hide:
            continue
        mark = Text("▶", style="bold yellow") if p.is_turn else Text("⏭", style="grey62") if p.is_next else Text("")
        name = Text(p.name, style="bold" if p.id == me else "cyan")
        if p.id == me:
            name.append(" " + _("(you)"), style="grey50")
        flag = Text("")
        if p.has_left:
            flag = Text(_("left the game"), style="grey50")
        elif p.is_out and view.winner != p.seat:
            flag = Text(_("out"), style="grey50")
        elif p.calls_uno:
            flag = Text(_("UNO!"), style="bold red")
        table.add_row(mark, name, str(p.cards), str(p.score), flag)
    return table


def hand(hv: HandView, lang: str) -> RenderableType:
    """The hand, numbered as the player types it; playable cards marked ●."""
    _ = gettext_for(lang)
    entries = []
    for i, hc in enumerate(typed_order(hv), 1):
        entry = Text(f"{i:>2} ", style="bold" if hc.playable else "grey50")
        entry.append(PLAYABLE if hc.playable else UNPLAYABLE, style="bold green" if hc.playable else "grey42")
        entry.append(" ")
        face = card_text(hc.card, lang)
        if not hc.playable:
            face.stylize("dim")
        entry.append_text(face)
        n = hc.count
        if n > 1:
            entry.append(f" ×{n}", style="bold")
        entries.append(entry)
    total = sum(hc.count for hc in hv.cards)
    ngettext = ngettext_for(lang)
    title = Text(ngettext("Your hand ({n} card):", "Your hand ({n} cards):", total).format(n=total), style="bold")
    if not entries:
        return title
    legend = Text.assemble((PLAYABLE, "bold green"), " " + _("you can play it now") + "   ",
                           (UNPLAYABLE, "grey42"), " " + _("not now"), style="grey62")
    return Group(Text.assemble(title, "  ", legend), Columns(entries, padding=(0, 3)))


def offer_text(offer: Offer, lang: str) -> Text:
    """One of core's offers: the words to type, then why (or the card it plays)."""
    text = Text(offer.word, style="bold cyan")
    if offer.card is not None:
        text.append(" ")
        text.append_text(card_text(offer.card, lang))
    if offer.note:
        text.append(f" ({offer.note})", style="grey62")
    return text


def actions(hv: HandView, view: TableView, lang: str) -> Text:
    """What else the player may do now, with the words to type (core's `turn_offers`)."""
    _ = gettext_for(lang)
    parts = [offer_text(offer, lang) for offer in turn_offers(hv, view, lang)]
    text = Text()
    if any(hc.playable for hc in hv.cards):
        # A wild's colour is named only where the table offers it named (not
        # under random colour, where the engine offers a wild naming none).
        named = any(hc.card.is_wild and any(m.color is not None for m in hc.moves) for hc in hv.cards if hc.playable)
        text.append(_("Play a card: its number (3), or its name (Red 5, R5); a wild with a colour (3 red).") if named
                    else _("Play a card: its number (3), or its name (Red 5, R5)."), style="grey70")
    if parts:
        if text:
            text.append("\n")
        text.append(_("Or:") + " ", style="grey70")
        text.append_text(Text("  ·  ", style="grey50").join(parts))
    return text


def out_of_turn(hv: HandView, view: TableView, lang: str) -> Text:
    """What a person may do while an AI is about to move (the service paused; core's `out_of_turn_offers`)."""
    _ = gettext_for(lang)
    text = Text(_("You may act now, out of turn:"), style="bold yellow")
    for offer in out_of_turn_offers(hv, view, lang):
        text.append("\n  ")
        text.append_text(offer_text(offer, lang))
    text.append("\n")
    text.append(_("Press Enter to let {player} move.").format(player=view.turn_name), style="grey70")
    return text


def recent(view: TableView, lang: str) -> RenderableType | None:
    """The last few moves (shown when a saved game is resumed)."""
    _ = gettext_for(lang)
    if not view.recent:
        return None
    names = [p.name for p in view.players]
    lines = [styled_line(f"  · {line}", lang, names=names) for line in view.recent]
    return Group(Text(_("Last moves:"), style="grey70"), *lines)


# -- scores and the end ---------------------------------------------------------------

def score_table(view: TableView, lang: str, me: str, title: str, hide: Sequence[str] = (),
                target: int | None = None, rounds: int | None = None) -> Table:
    _ = gettext_for(lang)
    caption = match_length(lang, rounds=rounds, target=target, lowest=view.lowest_wins)
    table = Table(title=title, caption=caption, box=box.ROUNDED, title_style="bold")
    table.add_column("#", justify="right")
    table.add_column(_("Player"))
    table.add_column(_("Points"), justify="right")
    table.add_column(_("Cards left"), justify="right")
    players = by_standing([p for p in view.players if p.id not in hide], view.lowest_wins)
    for rank, p in enumerate(players, 1):
        style = "bold green" if p.seat == view.winner else ("bold" if p.id == me else "")
        table.add_row(str(rank), p.name, str(p.score), str(p.cards), style=style)
    return table


def winner_panel(text: str) -> Panel:
    return Panel(Text(text, style="bold"), box=box.DOUBLE, border_style="green", expand=False)


def error(message: str) -> Text:
    return Text.assemble(("✗ ", "bold red"), (message, "red"))


def reading(lines: Sequence[str]) -> Text:
    """Core's answer to a records command: the title in bold, then its lines; a
    single line is a note (a refusal or a confirmation), as on Telegram."""
    if len(lines) == 1:
        return Text(lines[0], style="yellow")
    text = Text(lines[0], style="bold")
    for line in lines[1:]:
        text.append("\n  " + line)
    return text


def help_table(lang: str, rules: RuleSet | None = None) -> HelpList:
    """Every command, with its short forms, in the person's language: core's
    typed grammar and records commands (`typed_help`), the moves and cards
    the rules in play add (`rules`), and the console's own words."""
    _ = gettext_for(lang)
    rows = [
        *move_rows(lang, rules),
        *rule_rows(rules, lang),
        (_("Enter"), _("let the others go on, when you are asked whether to act")),
        (f"{_(WORDS['table'])} · {_(SHORT['table'])}", _("show the table and your hand again")),
        (f"{_(WORDS[LOG])}", _("the recent moves, also those that scrolled away")),
        (f"{_(WORDS[RULES])}", _("the variant and the rules in play")),
        (f"{_(WORDS[RULES])} seven-o {first_form(lang, ON)} · {_(WORDS[RULES])} {first_form(lang, RESET)}",
         _("change the house rules: one on or off, an option, or back to the variant's (from the next game)")),
        *records_rows(lang, admin=True),  # the console's standings are its player's to reset
        (f"{_(WORDS['help'])} · ?", _("this list")),
        (f"{_(WORDS['quit'])} · q", _("save the game and leave ({command} --resume continues it)").format(
            command=play_command())),
    ]
    return HelpList(_("Commands"), rows)


class HelpList:
    """The help's rows: two columns where they fit, else each command on its
    own line with what it does under it.

    Why chosen at render time: the widest command (`3 red · W+4 green · w
    yel`, a plugin's title) takes ~30 columns it must not wrap in, so in a
    40-column terminal the table left four columns for the explanations and
    printed them a word (or half a word) a line; only the terminal's width,
    known when rich renders, tells which layout reads."""

    #: The narrowest explanation column worth a table.
    MIN_TEXT = 24

    def __init__(self, title: str, rows: Sequence[tuple[str, str]]) -> None:
        self.title = title
        self.rows = list(rows)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        widest = max((cell_len(word) for word, _what in self.rows), default=0)
        if options.max_width - widest - 4 >= self.MIN_TEXT:
            table = Table(title=self.title, box=box.SIMPLE, show_header=False, title_style="bold")
            table.add_column(style="bold cyan", no_wrap=True)
            table.add_column()
            for word, what in self.rows:
                table.add_row(escape(word), what)  # `top [week|month|all]` is no rich markup
            yield table
            return
        yield Text(self.title, style="bold")
        for word, what in self.rows:
            yield Text(word, style="bold cyan")
            yield Padding(Text(what), (0, 0, 0, 4))


def rules_text(title: str, rules: RuleSet, lang: str, rounds: int | None = None) -> Group:
    """`rules`: the variant, then every rule in play (house rules first) with its options, in words.

    Each rule and option is its own indented block, so a line that wraps in a
    narrow terminal keeps its indent (in one Text, "attente: oui" came back to
    the first column, among the rules' titles)."""
    _ = gettext_for(lang)
    parts: list[RenderableType] = [Text(_("Rules in play: {variant}").format(variant=title), style="bold")]
    for line in rule_lines(rules, lang):  # core's words: the title, each option's help and value
        head = Text("+ " if line.house else "· ", style="grey50")
        head.append(line.title, style="bold cyan" if line.house else "")
        head.append(f" ({line.name})", style="grey50")  # what `rules NAME off` takes
        parts.append(Padding(head, (0, 0, 0, 2)))
        parts += [Padding(Text(option, style="grey62"), (0, 0, 0, 6)) for option in line.options]
    parts.append(Text(_("+ house rule   · shared rule"), style="grey62"))
    length = match_length(lang, rounds=rounds)
    if length is not None:
        parts.append(Text(length))
    # How to change them: a newcomer who read the list had no way to know (the console
    # takes its rules when a game starts, as a chat's lobby does).
    parts.append(Padding(Text(_("To play with other rules, start a new game: {command} --variant NAME, "
                                "--rule NAME=false or --rule NAME.OPTION=VALUE (unobot variants and "
                                "unobot rules list them).").format(command=play_command()), style="grey62"),
                         (0, 0, 0, 2)))
    # ... and the house rules at the table, for the next game (as a chat's admin changes them).
    parts.append(Padding(Text(usage(lang, _(WORDS[RULES])), style="grey62"), (0, 0, 0, 2)))
    return Group(*parts)


def choice_line(title: str, options: Sequence[Text]) -> Text:
    """`Choose a colour: 1 red · 2 yellow · ...`"""
    text = Text(title + " ", style="bold")
    for i, option in enumerate(options, 1):
        if i > 1:
            text.append("  ·  ", style="grey50")
        text.append(f"{i} ", style="bold")
        text.append_text(option)
    return text


def color_options(colors: Sequence[str], lang: str) -> list[Text]:
    return [color_text(color, lang) for color in colors]
