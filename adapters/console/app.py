"""The console game loop: one person (or nobody, under --auto) against AI seats.

Why one module of about 670 lines: it is one loop with one screen's
state (the prompts, the pacing, the resume); its parsing, rendering and
terminal handling are in input.py, render.py and terminal.py already, and
what it offers, asks and says is core's (`typed_offers`, `play_picks`,
`match_text`, `narration`).

Why it is shaped like this: the table lives in the store and every change
goes through `ChatService.handle`, exactly as in a group chat, so a game
quit here resumes in another process (`--resume`) and plays by the same
rules as every other adapter. The loop only asks "what does the table need
now?" (my move, a chance to act out of turn, the next round, the end),
reads a line, turns it into commands, and prints what happened, move by
move, from the outcome's events.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import time
from collections import deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from itertools import groupby
from typing import Any, Literal, TypeVar

from rich.console import Console
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from unobot.cards import COLOR_NAMES, Card, parse_card, sort_key
from unobot.chat import answers, typed
from unobot.chat import commands as c
from unobot.chat.grammar import deck_of
from unobot.chat.i18n import gettext_for, joined, ngettext_for
from unobot.chat.match_text import match_length, match_winner, rounds_result
from unobot.chat.narration import kept_after_draw, last_wild_colours, merge_repeats, unsaid_notices
from unobot.chat.play_picks import pick_color, pick_name, pick_number, play_needs, retry_text
from unobot.chat.service import ChatService, Defaults, Outcome
from unobot.chat.settings import override_commands
from unobot.chat.settings_menu import SettingsMenu
from unobot.chat.settings_press import saved_note
from unobot.chat.table import BETWEEN_ROUNDS, FINISHED, PLAYING, Table
from unobot.chat.typed_offers import may_act
from unobot.chat.views import HandView, TableView, hand_view, round_left, rules_problem, table_view
from unobot.events import (
    CARDS_DRAWN,
    CHALLENGE_LOST,
    CHALLENGE_WON,
    PLAYER_LEFT,
)
from unobot.ruleset import RuleSet
from unobot.store import Store, StoreError
from unobot.variants import VariantError, load_variant, rules_for

from . import render
from .claim import Claim, Holder
from .input import (
    ENTER,
    HELP,
    LOG,
    QUIT,
    RULES,
    TABLE,
    Ambiguous,
    Intent,
    Local,
    Reading,
    Refusal,
    Setting,
    color_word,
    command_word,
    parse_line,
    reading_of,
)
from .terminal import LineReader

#: Events that start another player's move: the log waits a moment before them.
PACED = frozenset({"card_played", "cards_drawn", "passed", "penalty_taken", "challenge_won",
                   "challenge_lost", "uno_said", "uno_caught", "jumped_in", "timed_out"})


T = TypeVar("T")


class _TimeUp(Exception):
    """The turn timer ran out at a question asked on the turn's clock."""


class _Quit(Exception):
    """The person asked to leave (quit, Ctrl-C, Ctrl-D); the game stays saved."""


@dataclass
class Options:
    """What `unobot play` was asked for (cli.py builds it from the arguments)."""

    variant: str = "official"
    players: int = 4
    #: the AI seats' levels in order, repeated when shorter (`--ai easy,hard`)
    ai: tuple[str, ...] = ("normal",)
    overrides: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None
    lang: str = "en"
    rounds: int | None = None
    resume: bool = False
    auto: bool = False
    delay: float = 0.4
    name: str = "You"
    user: str = "player"
    persistent: bool = True  # False for the memory store: nothing to resume later
    explicit_lang: bool = False  # --lang given: it wins over a resumed game's language
    #: Neither --variant nor --rule given: the console's own settings are played (the
    #: variant and house rules last set at the table with `rules ...`), as a chat's are.
    keep_rules: bool = False

    @property
    def person_id(self) -> str:
        return f"console.{self.user}"

    @property
    def chat_id(self) -> str:
        """A fixed chat per user, so `--resume` finds the game; demos apart."""
        return self.person_id + (".auto" if self.auto else "")


def make_service(store: Store, options: Options) -> ChatService:
    """The chat service for the console: the chosen variant and language as the
    chat's defaults, and with --seed a seeded source of game seeds."""
    rng = random.Random(options.seed) if options.seed is not None else None
    return ChatService(store, defaults=Defaults(variant=options.variant, lang=options.lang), rng=rng)


class ConsoleApp:
    """One console session on one table. The reader, sleep and clock are
    parameters so tests can script the person and skip the pauses."""

    def __init__(self, service: ChatService, options: Options, console: Console,
                 reader: LineReader | None = None,
                 sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self.o = options
        self.console = console
        self.reader = reader or LineReader(console)
        self.sleep = sleep
        self.clock = clock
        self.lang = options.lang
        self._ = gettext_for(self.lang)
        self.person = c.Person(options.person_id, options.name, lang=options.lang, is_admin=True)
        self.table: Table | None = None
        #: This console's claim on its table, while it runs (none for a memory store).
        self.claim: Claim | None = None
        self._drawn = -1  # the table version whose screen is on show
        self._turn: tuple[int, float] = (-1, 0.0)  # (version, when its prompt first showed)
        self.log: deque[Text] = deque(maxlen=40)  # the last lines of moves, for `log`
        #: Called with the table when a game starts or is resumed (`--web` prints its link).
        self.on_game: Callable[[Table], None] | None = None

    def _set_lang(self, lang: str) -> None:
        self.lang = self.o.lang = lang
        self._ = gettext_for(lang)
        self.person = c.Person(self.o.person_id, self.o.name, lang=lang, is_admin=True)

    # -- start ---------------------------------------------------------------------------
    async def run(self) -> int:
        session = getattr(self.reader, "session", None)  # typing shows only at a prompt
        with session() if session is not None else contextlib.nullcontext():
            if not self.o.persistent:  # a memory store: no other process can reach this table
                return await self._run()
            claim = self.claim = Claim(self.service.store, self.o.chat_id)
            holder = await claim.take()
            if holder is not None:  # another terminal plays this table: change nothing, say where
                self.console.print(render.error(self._open_elsewhere(holder, claim)))
                return 1
            try:
                return await self._run()
            finally:
                with contextlib.suppress(StoreError):  # an outage was said already; the claim goes stale
                    await claim.release()

    def _open_elsewhere(self, holder: Holder, claim: Claim) -> str:
        """What a second console of the same table is told (`claim.py` says why)."""
        _ = self._
        if holder.host == claim.me.host:
            return _("Your game is open in another terminal (process {pid}). Play on there, or quit it "
                     "there first.").format(pid=holder.pid)
        return _("Your game is open in another terminal (process {pid} on {host}). Play on there, or quit "
                 "it there first.").format(pid=holder.pid, host=holder.host)

    async def _run(self) -> int:
        _ = self._
        try:
            existing = await self.service.table(self.o.chat_id)
            if existing is not None and existing.phase == FINISHED:
                existing = None
            if self.o.resume:
                if existing is None:
                    self.console.print(render.error(_("There is no saved game to resume. Start one with: {command}")
                                                    .format(command=render.play_command())))
                    return 1
                if not await self._resume(existing):
                    return 1
            elif existing is not None:
                if not self.o.auto and self._ask_yes(_("A saved game from earlier is waiting. Resume it?")):
                    if not await self._resume(existing):
                        return 1
                else:
                    await self.send(c.Stop())  # put the old game away ...
                    self.table = None  # ... and start a new one
                    if not self.o.auto:
                        self.console.print(Text(_("The saved game is deleted; a new one starts."), style="grey62"))
            again = False
            while True:
                if self.table is None and not (again and await self._again()) and not await self._setup():
                    return 1
                code = await self._loop()
                # self._, not _: a resumed game may have switched the language
                if code != 0 or self.o.auto or not await self._play_again():
                    return code
                self.table = None
                self.log.clear()
                again = True
        except (_Quit, EOFError, KeyboardInterrupt):  # quit, Ctrl-D, Ctrl-C: the game stays saved
            return self._quit()

    async def _resume(self, table: Table) -> bool:
        """Take the game up as it was started: its language, and the console's own
        options (--rounds) saved with it. False, having said why, when its rules
        cannot be loaded (a rule plugin uninstalled since): answering no to the
        resume question at the next start puts it away."""
        if not self.o.explicit_lang and table.lang != self.lang:
            self._set_lang(table.lang)
        saved = (await self.service.settings(self.o.chat_id)).get("console") or {}
        if self.o.rounds is None and isinstance(saved.get("rounds"), int):
            self.o.rounds = saved["rounds"]
        _ = self._
        gone = rules_problem(table.game) if table.game is not None else None
        if gone is not None:
            self.console.print(render.error(gone.text(self.lang)))
            return False
        view = table_view(table, self.lang)
        self.table = table
        self.console.print(Text(_("Welcome back: your game of {variant}, round {n}.").format(
            variant=view.variant_title, n=view.round), style="bold"))
        if self.on_game is not None:
            self.on_game(table)
        last = render.recent(view, self.lang)
        if last is not None:
            self.console.print(last)
        return True

    async def _again(self) -> bool:
        """"Play again?" answered yes: core's Play again (`c.Again`, as every front-end
        does it), the match's seats (its AI seats at their levels) and variant, dealt at
        once. Why not `_setup` again: it seats what this process's options say, and a
        resumed game's process was started with the defaults (four seats, normal AI),
        not with the options the match was set up with. False: set up anew."""
        out = await self.send(c.Again())
        if not out.ok or out.table is None or out.table.seat_of(self.person.id) is None:
            return False
        start = await self.send(c.Start())
        if not start.ok:  # put the lobby away: `_setup` opens its own
            await self.send(c.Stop())
            self.table = None
            return False
        self._intro()
        if self.on_game is not None and self.table is not None:
            self.on_game(self.table)
        await self.show(start)
        return True

    async def _setup(self) -> bool:
        """Chat settings (variant, rules, language), a new game, AI seats, start."""
        _ = self._
        # Chosen on the command line, the variant and rules are this game's; else the ones
        # typed at the table last time stay (a chat's settings are kept between games).
        chosen = () if self.o.keep_rules else (c.ResetRules(), c.SetVariant(self.o.variant))
        for cmd in (c.SetLanguage(self.lang), *chosen):
            if not await self._ok(await self.send(cmd)):
                return False
        pending = override_commands(self.o.overrides)
        while pending:  # a rule may need another one off first: retry until none moves on
            failed = [(cmd, out) for cmd in pending if not (out := await self.send(cmd)).ok]
            if len(failed) == len(pending):
                return await self._ok(failed[0][1])
            pending = [cmd for cmd, _out in failed]
        variant = None if self.o.keep_rules else self.o.variant  # None: the console's own setting
        if not await self._ok(await self.send(c.NewGame(variant=variant, join=not self.o.auto))):
            return False
        ais = self.o.players if self.o.auto else self.o.players - 1
        if not await self._add_ai(ais):
            return False
        if self.o.persistent:  # what --resume needs that the table does not hold
            await self.service.store.update_chat_settings(self.o.chat_id, {"console": {"rounds": self.o.rounds}})
        start = await self.send(c.Start())
        if not start.ok:
            return await self._ok(start)
        self._intro()
        if self.o.keep_rules:  # the house rules typed at the table last time, said as they carry over
            menu = SettingsMenu(await self.service.settings(self.o.chat_id), self.lang)
            if menu.summary.house:  # (summary_lines: variant, house rules, [shared rules off,] timer, language)
                for line in menu.summary_lines()[1:-2]:
                    self.console.print(Text(line, style="grey70"))
        if self.on_game is not None and self.table is not None:
            self.on_game(self.table)
        await self.show(start)
        return True

    def _intro(self) -> None:
        _ = self._
        table = self.table
        assert table is not None
        view = table_view(table, self.lang)
        # each AI seat with its level: `--ai easy,expert` seats several (the level as the chat names it)
        others = joined((p.name + (f" · {p.level_name}" if p.level_name else "")
                         for p in view.players if p.id != self.person.id), self.lang)
        try:
            variant = load_variant(table.variant)
            about = variant.describe(self.lang)
        except VariantError:
            about = ""
        self.console.print(Rule(Text(f"UNO · {view.variant_title}", style="bold")))
        if about:
            self.console.print(Text(about, style="italic grey70"))
        length = match_length(self.lang, rounds=self.o.rounds, target=view.target, lowest=view.lowest_wins)
        if length is not None:
            self.console.print(length)
        if self.o.auto:
            line = _("A demo game: {players} play on their own.").format(players=others)
        else:
            line = _("You ({name}) against {players}. Type help for the commands.").format(
                name=self.person.name, players=others)
        self.console.print(line)

    # -- the loop --------------------------------------------------------------------------
    async def _loop(self) -> int:
        idle = 0
        while True:
            table = self.table
            assert table is not None
            if table.phase == PLAYING:
                view = table_view(table, self.lang)
                hv = hand_view(table, self.person.id)
                if hv is not None and hv.is_turn:
                    await self._my_turn(table, view, hv)
                elif hv is not None and not self.o.auto and may_act(view, hv, self.person.id):
                    await self._out_of_turn(table, view, hv)
                else:
                    out = await self.send(c.Continue(version=table.version))
                    await self.show(out)
                    idle = 0 if out.changed else idle + 1
                    if idle > 3:
                        self.console.print(render.error(self._("The game is stuck: nobody can move.")))
                        return 1
            elif table.phase == BETWEEN_ROUNDS:
                done = await self._between_rounds(table)
                if done is not None:
                    return done
            elif table.phase == FINISHED:
                return self._match_over(table)
            else:  # a lobby left behind: fill it and start
                if len(table.seats) < 2:
                    await self._add_ai(self.o.players - len(table.seats))
                out = await self.send(c.Start())
                await self.show(out)
                if not out.ok:
                    return 1

    async def _my_turn(self, table: Table, view: TableView, hv: HandView) -> None:
        _ = self._
        if self._drawn != table.version:
            self._screen(table, view, hv)
            self.console.print(render.actions(hv, view, self.lang))
        if hv.colors:
            # A Wild starter: the first thing to do is name its colour, asked at
            # once like a wild's colour (Enter cancels back to the move prompt),
            # on the turn's clock: the timer names it when nobody does.
            self.console.print(Text(_("The first card is a wild: you name its colour."), style="yellow"))
            try:
                chosen = self._ask_color([m.color for m in hv.colors if m.color], self._time_left(table))
            except _TimeUp:
                await self._time_up(table)
                return
            if chosen is not None:
                await self._send_all((c.NameColor(color=COLOR_NAMES[chosen]),))
                return
        timeout = self._time_left(table)
        prompt = Text(_("Your move"), style="bold yellow")
        if timeout is not None:
            prompt.append(" " + _("({n} s)").format(n=max(0, math.ceil(timeout))), style="red")
        # The round's clock (blitz) rings while the person thinks, as a chat's wake
        # rings it: the read waits no longer than the clock has left.
        clock = round_left(table, self.service.clock())
        wait = timeout if clock is None else max(0.0, clock) if timeout is None else min(timeout, max(0.0, clock))
        line = self.reader.read(prompt + Text(" " + render.PROMPT_MARK), wait)
        if line is None and clock is not None and (timeout is None or clock <= timeout):
            await self.show(await self.send(c.Continue(version=table.version)))  # the service applies time_up
            return
        if line is None:  # the turn timer ran out
            await self._time_up(table)
            return
        await self._act(self._parse(line, hv), view, hv, my_turn=True)

    async def _time_up(self, table: Table) -> None:
        """My turn timer ran out: the service times the turn out (RULES.md §6)."""
        out = await self.send(c.Skip(auto=True))
        await self.show(out)
        if not out.changed:  # the service's clock says not yet: look again shortly
            self._turn = (table.version, self.clock() - (table_view(table).turn_seconds - 1.0))

    async def _out_of_turn(self, table: Table, view: TableView, hv: HandView) -> None:
        _ = self._
        if self._drawn != table.version:
            self._screen(table, view, hv)
            self.console.print(render.out_of_turn(hv, view, self.lang))
        line = self.reader.read(Text(_("Enter to continue"), style="bold") + Text(" " + render.PROMPT_MARK))
        intent = self._parse(line or "", hv)
        if intent == Local(ENTER):
            await self.show(await self.send(c.Continue(version=table.version)))
            return
        await self._act(intent, view, hv, my_turn=False)

    def _parse(self, line: str, hv: HandView) -> Intent:
        """The line read by core's grammar, with my hand as numbered on screen
        and the table's deck (so a name only another deck's card has is not read)."""
        game = self.table.game if self.table is not None else None
        deck = deck_of(game) if game is not None else None
        players = [seat.name for seat in self.table.seats] if self.table is not None else None
        return parse_line(line, render.numbered(hv), self.lang, deck, players)

    async def _act(self, intent: Intent, view: TableView, hv: HandView, my_turn: bool) -> None:
        _ = self._
        if isinstance(intent, Ambiguous):
            chosen = self._ask_choice(intent)
            if chosen is None:
                return
            intent = chosen
        if isinstance(intent, Refusal):
            self.console.print(render.error(intent.message))
        elif isinstance(intent, Reading):
            await self._reading(intent)
        elif isinstance(intent, Setting):
            await self._change_rules(intent)
        elif isinstance(intent, Local):
            if intent.action == QUIT:
                raise _Quit
            if intent.action == HELP:
                self._show_help()
            elif intent.action == LOG:
                self._show_log()
            elif intent.action == RULES:
                self._show_rules()
            elif intent.action == TABLE:
                self._drawn = -1
            elif my_turn:
                self.console.print(Text(_("It is your turn: type a card's number to play it, or draw "
                                          "(help lists every command)."), style="yellow"))
        elif isinstance(intent, c.Play):
            commands = self._complete_play(intent, view, hv)
            if commands is not None:
                await self._send_all(commands)
        else:
            await self._send_all((intent,))

    async def _send_all(self, commands: Sequence[c.Command]) -> None:
        """Send in order; stop at the first refusal."""
        for cmd in commands:
            out = await self.send(cmd)
            await self.show(out, kept=isinstance(cmd, c.Draw) and cmd.then_play)
            if not out.ok:
                return

    def _kept_line(self, out: Outcome, me: int | None) -> Text | None:
        """After `dp`: when the drawn card did not fit, which card it was and that it stays."""
        kept = kept_after_draw(out.events, me, self.lang)
        if kept is None:
            return None
        line, drawn = kept
        return render.styled_line("  · " + line, self.lang, drawn) if drawn else Text("  · " + line, style="grey70")

    def _reveal(self, shown: tuple[int, list[Card]], names: Sequence[str]) -> None:
        """The challenged hand core showed me (`Outcome.shown`), under the
        challenge's line (before what follows it)."""
        seat, cards = shown
        name = names[seat] if 0 <= seat < len(names) else "?"
        self._print(render.flow(Text("  " + self._("{player}'s hand:").format(player=name) + " ", style="italic"),
                                [render.card_text(card, self.lang) for card in sorted(cards, key=sort_key)],
                                self.console.width, indent=4))

    def _ask_choice(self, choice: Ambiguous) -> c.Play | None:
        """`5 amarillo`, `+4 azul` read two ways: ask which was meant."""
        _ = self._
        options = []
        for i, reading in enumerate(choice.readings):
            option = Text()
            if i == 0 and choice.index is not None:
                option.append(_("card {n} of your hand").format(n=choice.index) + " ", style="bold")
            option.append_text(render.card_text(parse_card(reading.card), self.lang))
            color = color_word(reading.color) if reading.color else None
            if color is not None:
                option.append(" " + _("in") + " ")
                option.append_text(render.color_text(color, self.lang))
            options.append(option)
        self.console.print(render.choice_line(_("Which did you mean?"), options))
        n = self._ask(_("Which"), "reading", len(choice.readings), lambda word: pick_number(word, len(options)))
        return choice.readings[n] if n is not None else None

    def _complete_play(self, play: c.Play, view: TableView, hv: HandView) -> list[c.Command] | None:
        """Ask for what the card still needs (a colour, a player), as the
        table model says (core's `play_picks`); a refused `3 uno` plays nothing."""
        assert self.table is not None
        needs = play_needs(self.table, self.o.person_id, play, view, hv, self.lang)
        if isinstance(needs, str):
            self.console.print(render.error(needs))
            return None
        color, colors = needs.colors()
        if colors:
            color = self._ask_color(colors)
            if color is None:
                return None
        seats, optional = needs.seats(color)
        target = None
        if seats:
            chosen = self._ask_target(seats, view, optional)
            if chosen is False:
                return None
            target = chosen
        return [needs.command(color, target)]

    def _ask_color(self, colors: Sequence[str], timeout: float | None = None) -> str | None:
        """A colour, or None (cancelled); with `timeout` (a Wild starter's, on the
        turn's clock) raises `_TimeUp` when it passes with no colour named."""
        _ = self._
        self.console.print(render.choice_line(_("Choose a colour:"), render.color_options(colors, self.lang)))
        return self._ask(_("Colour"), "color", len(colors), lambda word: pick_color(word, colors, self.lang),
                         timeout)

    def _ask_target(self, seats: Sequence[int], view: TableView, optional: bool) -> str | Literal[False]:
        """A player's id; "" for nobody (when optional); False when cancelled."""
        _ = self._
        by_seat = {p.seat: p for p in view.players}
        ngettext = ngettext_for(self.lang)
        options = [Text.assemble((by_seat[s].name, "cyan"),
                                 (" " + ngettext("({n} card)", "({n} cards)", by_seat[s].cards).format(
                                     n=by_seat[s].cards), "grey62")) for s in seats]
        self.console.print(render.choice_line(_("Choose a player:"), options))
        if optional:
            self.console.print(Text(_("0: nobody"), style="grey62"))
        names = [by_seat[s].name for s in seats]
        n = self._ask(_("Player"), "player", len(seats),
                      lambda word: -1 if optional and word == "0" else pick_name(word, names))
        return False if n is None else "" if n == -1 else by_seat[seats[n]].id

    def _ask(self, prompt: str, kind: str, count: int, pick: Callable[[str], T | None],
             timeout: float | None = None) -> T | None:
        """Ask until `pick` reads the answer (core's picks); Enter cancels
        (None), `quit` leaves as at the move prompt; `timeout` seconds (the
        turn's clock, counting down over every try) raise `_TimeUp`."""
        until = None if timeout is None else self.clock() + timeout
        while True:
            left = None if until is None else until - self.clock()
            label = Text(prompt, style="bold")
            if left is not None:
                label.append(" " + self._("({n} s)").format(n=max(0, math.ceil(left))), style="red")
            line = self.reader.read(label + Text(" " + render.PROMPT_MARK), None if left is None else max(0.0, left))
            if line is None and until is not None:
                raise _TimeUp
            word = (line or "").strip()
            if not word:
                self.console.print(Text(self._("Cancelled."), style="grey62"))
                return None
            picked = pick(word)
            if picked is not None:
                return picked
            if command_word(word, self.lang) == QUIT:
                raise _Quit
            self.console.print(render.error(retry_text(kind, count, self.lang)))

    # -- rounds and the end ----------------------------------------------------------------
    async def _between_rounds(self, table: Table) -> int | None:
        _ = self._
        view = table_view(table, self.lang)
        if self._drawn != table.version:
            self._drawn = table.version
            self.console.print()
            self.console.print(self._scores(view, _("Scores after round {n}").format(n=view.round)))
        if self.o.rounds and view.round >= self.o.rounds:
            return await self._stop_after_rounds(view)
        if self.o.auto:
            await self.show(await self.send(c.NextRound()), extras=False)
            return None
        prompt = Text(_("Enter starts round {n}; quit saves and leaves").format(n=view.round + 1), style="bold")
        line = self.reader.read(prompt + Text(" " + render.PROMPT_MARK))
        intent = parse_line(line or "", [], self.lang)
        if intent == Local(ENTER):
            await self.show(await self.send(c.NextRound()), extras=False)
        elif intent == Local(QUIT):
            raise _Quit
        elif intent == Local(HELP):
            self._show_help()
        elif intent == Local(LOG):
            self._show_log()
        elif intent == Local(RULES):
            self._show_rules()
        elif isinstance(intent, Reading):
            await self._reading(intent)
        elif isinstance(intent, Setting):
            await self._change_rules(intent)
        elif isinstance(intent, Refusal) and command_word((line or "").split()[0], self.lang) == RULES:
            self.console.print(render.error(intent.message))
        else:
            self.console.print(render.error(_("The round is over: press Enter for the next one, or type quit.")))
        return None

    async def _stop_after_rounds(self, view: TableView) -> int:
        self.console.print(render.winner_panel("🏆 " + rounds_result(view, self.lang, self._hidden())))
        outcome = await self.send(c.StopAfterRounds())  # the match ends here: nothing left to resume
        for line in outcome.notices:  # the rules' reports (`match_end`)
            self.console.print(Text(line))
        return 0

    def _match_over(self, table: Table) -> int:
        _ = self._
        view = table_view(table, self.lang)
        self.console.print()
        self.console.print(self._scores(view, _("Final scores")))
        won = match_winner(view, self.lang)
        if won is not None:
            self.console.print(render.winner_panel("🏆 " + won))
        return 0

    async def _play_again(self) -> bool:
        """"Play again?" after a match; the records commands may come first
        (`top`, `last`: how the match just played counts), answered, then asked again."""
        while True:
            line = self._ask_line(self._("Play again?"))
            asked = reading_of(line, self.lang)
            if asked is not None:
                await self._reading(asked)
                continue
            words = line.split()
            if words and command_word(words[0], self.lang) == RULES:  # the next game's house rules
                intent = parse_line(line, [], self.lang)
                if isinstance(intent, Setting):
                    await self._change_rules(intent)
                elif isinstance(intent, Refusal):
                    self.console.print(render.error(intent.message))
                else:
                    self._show_rules()
                continue
            answer = typed.yes_or_no(line, self.lang)
            if answer is not None:
                return answer
            # Neither (`help`, `yse`, a move typed late): asked again, never taken for a no
            # that ended the session.
            self.console.print(Text(self._("Answer {yes} or {no}.").format(yes=self._("y"), no=self._("n")),
                                    style="yellow"))

    async def _reading(self, asked: Reading) -> None:
        """`top`, `me`, `last`, `forgetme`: core's answer for this console's chat, as on
        Telegram and Discord (the matches played here are counted in its standings)."""
        lines = await answers.reading_lines(self.service.store, asked.what, self.o.chat_id, self.person,
                                            self.lang, asked.arg, commands=self.commands())
        self.console.print(render.reading(lines))

    def _scores(self, view: TableView, title: str) -> RichTable:
        return render.score_table(view, self.lang, self.person.id, title, self._hidden(),
                                  target=None if self.o.rounds else view.target, rounds=self.o.rounds)

    def _print(self, line: Text) -> None:
        """A line of the game's log: printed, and kept for `log`."""
        self.console.print(line)
        self.log.append(line)

    def _show_log(self) -> None:
        _ = self._
        self.console.print(Text(_("Recent moves:"), style="bold"))
        for line in self.log or [Text("  " + _("(none yet)"), style="grey62")]:
            self.console.print(line)

    def _rules_in_play(self) -> RuleSet | None:
        """The game's rule set (the chat's settings' before a game); raises
        VariantError when a rule plugin is gone since."""
        table = self.table
        if table is None:
            return None
        return table.game.rules if table.game is not None and table.game.rules else \
            rules_for(table.variant, table.overrides or None)

    def _show_help(self) -> None:
        """`help`: the commands, with the moves and cards the rules in play add."""
        try:
            rules = self._rules_in_play()
        except VariantError:  # `rules` says which plugin is gone; the help shows the rest
            rules = None
        self.console.print(render.help_table(self.lang, rules))

    def _show_rules(self) -> None:
        table = self.table
        if table is None:
            return
        try:
            rules = self._rules_in_play()
        except VariantError as exc:  # a rule plugin gone since: say which, in the player's words
            self.console.print(render.error(exc.text(self.lang)))
            return
        if rules is None:
            return
        self.console.print(render.rules_text(table_view(table, self.lang).variant_title, rules, self.lang,
                                             self.o.rounds))

    async def _change_rules(self, setting: Setting) -> None:
        """`rules stacking off`, `rules reset`: the console's house rules
        changed as an admin changes a chat's on Telegram and Discord (core's
        settings commands, with their checks and refusals; the console's
        player is its admin). They apply from the next game (Play again), as
        there: the game under way keeps the rules it was dealt with. Said
        saved only once the store took every command; the first refused
        says why and leaves the rest unsent."""
        out: Outcome | None = None
        for cmd in setting.commands:
            out = await self.send(cmd)
            if not out.ok:
                await self.show(out)
                return
        if out is None:
            return
        self.console.print(Text(saved_note(self.lang, out.to_lobby), style="green"))
        settings = out.settings or await self.service.settings(self.o.chat_id)
        for line in SettingsMenu(settings, self.lang).summary_lines():
            self.console.print(Text("  " + line))

    def _quit(self) -> int:
        self.console.print()
        self.console.print(render.quit_note(self.lang, self.o.persistent))
        return 0

    # -- talking to the service, showing what happened ----------------------------------------
    async def send(self, cmd: c.Command) -> Outcome:
        if self.claim is not None:
            await self.claim.renew()
        out = await self.service.handle(self.o.chat_id, self.person, cmd)
        if out.table is not None:
            self.table = out.table
        return out

    async def _add_ai(self, count: int) -> bool:
        """Seat `count` AI players, each at its level from `--ai` in order
        (repeated when shorter), a run of the same level in one command."""
        levels = (self.o.ai[i % len(self.o.ai)] for i in range(count))
        for level, run in groupby(levels):
            if not await self._ok(await self.send(c.AddAI(count=len(list(run)), level=level))):
                return False
        return True

    async def _ok(self, out: Outcome) -> bool:
        if not out.ok:
            await self.show(out)
        return out.ok

    def commands(self) -> dict[str, str]:
        """The console's own words for the commands core's texts name (`render.commands`)."""
        return render.commands(self.lang)

    async def show(self, out: Outcome, extras: bool = True, kept: bool = False) -> None:
        """Print a refusal, or the outcome's events one by one (the others' moves paced).

        `kept`: the outcome of a `dp`, whose drawn card, when it did not fit, is
        said to stay in the hand right under the draw, before the others'
        moves (said after them, it read as if it came after the round's end)."""
        if not out.ok:
            text = out.refusal(self.lang, self.commands()) if out.code or out.reason else out.error or "?"
            self.console.print(render.error(text))
            return
        table = out.table
        if table is None:
            return
        names = [s.name for s in table.seats]
        me = table.seat_of(self.person.id)
        my_name = names[me] if me is not None else None

        def name(seat: int) -> str:
            return names[seat] if 0 <= seat < len(names) else "?"

        if extras:  # lines that are no event's (someone left, ...), in the table's language
            for notice in unsaid_notices(out.notices, out.events, name, table.lang):
                self.console.print(Text("  · " + notice, style="grey70"))
        events, times = merge_repeats(out.events)
        last_wild = last_wild_colours(events)
        kept_line = self._kept_line(out, me) if kept else None
        for i, e in enumerate(events):
            if e.kind == PLAYER_LEFT and e.player == me and self.o.auto:
                continue
            if i in last_wild:
                continue  # a wild as the last card: nobody was asked for a colour the round ends with
            line = render.event_line(e, name, self.lang, my_name, names)
            if line is None:
                continue
            if e.kind == "penalty_pending" and e.player == me and me is not None:
                line = Text(self._("You must draw {n}, or answer it.").format(n=e.n), style="bold red")
            if self.o.delay and e.kind in PACED and e.player != me:
                with self._typing_held():
                    await self.sleep(self.o.delay)
            if times[i] > 1:  # the same move again (a multi-play of twins): one line, counted
                line.append(f" ×{times[i]}", style="bold")
            self._print(Text("  · ", style="grey50") + line)
            shown = out.shown.get(self.person.id)
            if shown is not None and e.kind in (CHALLENGE_WON, CHALLENGE_LOST) and e.player == me:
                self._reveal(shown, names)  # as it was when I challenged
            if e.cards and e.player == me and me is not None:
                private = render.private_line(e, self.lang, self.console.width)
                if private is not None:
                    self._print(private)
                if kept_line is not None and e.kind == CARDS_DRAWN:
                    self._print(kept_line)
                    kept_line = None
        if kept_line is not None:
            self._print(kept_line)

    def _typing_held(self) -> contextlib.AbstractContextManager[None]:
        """While the others move, what the person types is neither echoed into the log nor kept
        (the reader's session holds it between prompts already; this covers readers without one)."""
        hold = getattr(self.reader, "hold", None)
        return hold() if hold is not None else contextlib.nullcontext()

    def _screen(self, table: Table, view: TableView, hv: HandView) -> None:
        self._drawn = table.version
        self.console.print()
        self.console.print(render.header(view, self.lang))
        self.console.print(render.status(view, self.lang, self.console.width, hv, now=self.service.clock()))
        self.console.print(render.players_table(view, self.lang, self.person.id, self._hidden()))
        self.console.print(render.hand(hv, self.lang))

    def _hidden(self) -> list[str]:
        """Under --auto the person left the table: keep them out of the tables."""
        return [self.person.id] if self.o.auto else []

    # -- small helpers ----------------------------------------------------------------------
    def _ask_yes(self, question: str) -> bool:
        """Asked until the answer is yes or no (`typed.yes_or_no`): a word that
        is neither never counts as no (a no may delete a saved game)."""
        while (answer := typed.yes_or_no(self._ask_line(question), self.lang)) is None:
            pass
        return answer

    def _ask_line(self, question: str) -> str:
        line = self.reader.read(Text(question + " " + self._("[Y/n]"), style="bold") + Text(" " + render.PROMPT_MARK))
        return line or ""

    def _time_left(self, table: Table) -> float | None:
        """Seconds left on my turn timer (from when I first saw this turn), or None."""
        seconds = table_view(table).turn_seconds
        if not seconds:
            return None
        if self._turn[0] != table.version:
            self._turn = (table.version, self.clock())
        return seconds - (self.clock() - self._turn[1])
