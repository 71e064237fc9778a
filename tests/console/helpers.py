"""Driving `unobot play` through a pty, as a person at a terminal would.

Why pexpect and a pty: the console is judged by what a person sees and
types; a pty gives rich a real terminal (colours, width) and exercises the
real prompt and line reading. Output is compared with the ANSI codes taken
out.
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pexpect

from unobot.chat.i18n import gettext_for

ROOT = Path(__file__).resolve().parents[2]
ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")
PROMPT = "› "


def clean(text: str) -> str:
    return ANSI.sub("", text).replace("\r", "")


def env(**extra: str) -> dict[str, str]:
    e = {k: v for k, v in os.environ.items()
         if k not in ("LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE", "NO_COLOR") and not k.startswith("UNOBOT_")}
    e.update({"TERM": "xterm-256color", "COLUMNS": "160", "LINES": "60", "PYTHONIOENCODING": "utf-8"})
    e.update(extra)
    return e


def spawn(*args: str, cwd: Path | None = None, size: tuple[int, int] = (60, 160), **extra_env: str) -> pexpect.spawn:
    """`unobot play ARGS` in a pty of `size` (rows, columns)."""
    child = pexpect.spawn(sys.executable, ["-m", "unobot.cli", "play", *args], cwd=str(cwd or ROOT),
                          env=env(**{"COLUMNS": str(size[1]), "LINES": str(size[0]), **extra_env}),
                          encoding="utf-8", dimensions=size, timeout=60)  # generous: a loaded machine
    child.delaybeforesend = None
    return child


@dataclass
class Player:
    """A simple scripted person: types an unknown command, asks for help,
    tries a refused card, draws once, plays what fits (a wild with the colour
    asked at the prompt), says `N uno` with two cards, challenges a Wild Draw
    Four, catches whoever forgot UNO, jumps in once when offered, otherwise
    presses Enter when asked."""

    child: pexpect.spawn
    seen: dict[str, bool] = field(default_factory=lambda: dict.fromkeys(
        ("refused", "draw", "wild", "uno", "help", "unknown", "jump", "catch"), False))
    transcript: list[str] = field(default_factory=list)
    hand: str = ""
    moves: int = 0
    lang: str = "en"  # the words it reads and types: a Spanish player types Spanish

    def w(self, word: str) -> str:
        return gettext_for(self.lang)(word)

    def prompt(self) -> str | None:
        """Wait for the next prompt; its label, or None at the end of the program."""
        i = self.child.expect([PROMPT, pexpect.EOF])
        if i == 1:
            self.seen_text(self.child.before)
            return None
        return self.seen_text(self.child.before)

    def seen_text(self, raw: str) -> str:
        """Note what the program printed up to a prompt; the prompt's label."""
        text = clean(raw)
        self.transcript.append(text)
        for title in ("Your hand", "Tu mano"):
            if title in text:
                self.hand = text.rsplit(title, 1)[1]
        return text.rsplit("\n", 1)[-1].strip()

    def send(self, line: str) -> None:
        self.child.sendline(line)

    def play(self, max_prompts: int = 600, quit_after: int | None = None, pending: str | None = None) -> str:
        """Answer prompts until the program ends; returns everything it printed.
        `pending`: the label of a prompt the caller already waited for."""
        for _ in range(max_prompts):
            label, pending = (pending, None) if pending else (self.prompt(), None)
            if label is None:
                return self.output
            if label.startswith(("Your move", "Tu jugada")):
                if quit_after is not None and self.moves >= quit_after:
                    self.send("quit")
                    continue
                self.moves += 1
                self.send(self.choose())
            elif label.startswith(("Colour", "Color")):
                self.seen["wild"] = True
                self.send(self.w("green"))
            elif label.startswith(("Player", "Jugador")):
                self.send("1")
            elif label.startswith(("Enter", "Intro")):
                jump = re.search(self.w("jump in with {n}:").replace("{n}", r"(\d+)"), self.transcript[-1])
                if re.search(rf"^ +{self.w('catch')} ", self.transcript[-1], re.M):
                    self.seen["catch"] = True
                    self.send(self.w("catch"))
                elif jump and not self.seen["jump"]:
                    self.seen["jump"] = True
                    self.send(jump.group(1))
                else:
                    self.send("")
            elif "[Y/n]" in label or "[S/n]" in label:
                self.send("n")
            else:
                raise AssertionError(f"unexpected prompt {label!r}")
        raise AssertionError("the game did not end")

    @property
    def output(self) -> str:
        return "".join(self.transcript)

    def choose(self) -> str:
        hand = self.hand
        playable = [int(n) for n in re.findall(r"(\d+) ● ", hand)]
        unplayable = [int(n) for n in re.findall(r"(\d+) ○ ", hand)]
        wilds = [int(n) for n in re.findall(rf"(\d+) ● +\S+ +{self.w('Wild')}", hand)]
        options = hand.rsplit(self.w("Or:"), 1)[1] if self.w("Or:") in hand else ""
        counted = re.match(r" \((\d+)", hand)
        size = int(counted.group(1)) if counted else len(playable) + len(unplayable)
        if not self.seen["unknown"]:
            self.seen["unknown"] = True
            return "fly away"
        if not self.seen["help"]:
            self.seen["help"] = True
            return self.w("help")
        if not self.seen["refused"] and unplayable:
            self.seen["refused"] = True
            return str(unplayable[0])
        if self.w("catch") + " " in options:
            self.seen["catch"] = True
            return self.w("catch")
        if self.w("challenge") in options:
            return self.w("challenge")
        if not self.seen["draw"] and self.w("draw") in options and self.w("take {n}").split()[0] not in options:
            self.seen["draw"] = True
            return self.w("d")
        if wilds:
            return str(wilds[0])
        if playable:
            if size == 2:
                self.seen["uno"] = True
                return f"{playable[0]} uno"
            return str(playable[0])
        if self.w("pass") in options:
            return "p"
        return self.w("draw")


# -- a staged table: the console resumes a game laid out card by card ------------------------

@dataclass(frozen=True)
class Stage:
    """How the table looks when the console takes it up: every hand (seat 0 is
    the person, the AI seats follow), the top card and its colour, whose turn
    it is and the cards next off the draw pile (first drawn first)."""

    hands: tuple[str, ...]
    top: str
    turn: int = 0
    color: str | None = None  # the colour in play (a wild on top); default: the top card's
    next_draw: tuple[str, ...] = ()


def stage_game(url: str, stage: Stage, *, lang: str, variant: str = "official", rounds: int | None = 1,
               seed: int = 1, rules: tuple[str, ...] = (), ai: str = "strong") -> str:
    """A console game in the store at `url`, laid out as `stage`: dealt by the
    console's own set-up (its app, in this process, quitting at the first
    prompt), then its cards rearranged: every card of the deck stays in play
    exactly once, the rest in the draw pile. Start `unobot play --store URL
    --resume` to take it up; returns the AI seats' names, comma-separated."""
    import asyncio

    return asyncio.run(_stage(url, stage, lang=lang, variant=variant, rounds=rounds, seed=seed, rules=rules, ai=ai))


async def _stage(url: str, stage: Stage, *, lang: str, variant: str, rounds: int | None, seed: int,
                 rules: tuple[str, ...], ai: str) -> str:
    import io
    from collections import Counter

    from rich.console import Console

    from unobot.adapters.console.app import ConsoleApp, Options, make_service
    from unobot.adapters.console.cli import user_id
    from unobot.adapters.store_factory import open_store
    from unobot.cards import parse_card
    from unobot.chat.table import Table
    from unobot.cli import parse_rule_overrides
    from unobot.config import load_config

    config = load_config(ROOT / "config.yaml", environ=env())  # what the console in the pty reads
    store = await open_store(url, data_dir=str(ROOT / "data"), prefix=config.store.prefix)
    try:
        options = Options(variant=variant, players=len(stage.hands), ai=(ai,),
                          overrides=parse_rule_overrides(list(rules)), seed=seed, lang=lang, rounds=rounds,
                          delay=0, name="Tess", user=user_id(), persistent=True, explicit_lang=True)

        class Leave:  # the person quits at the first prompt; the game stays saved
            def read(self, prompt: object, timeout: float | None = None) -> str | None:
                raise EOFError

        out = io.StringIO()
        app = ConsoleApp(make_service(store, options), options, Console(file=out, width=100), reader=Leave())  # type: ignore[arg-type]
        assert await app.run() == 0, out.getvalue()
        assert app.table is not None and app.table.seats[0].id == options.person_id
        game_id = await store.chat_game(options.chat_id)
        assert game_id is not None, out.getvalue()
        stored = await store.load_game(game_id)
        assert stored is not None
        table = Table.decode(stored.state, stored.version)
        game = table.game
        assert game is not None
        pool = Counter(game.all_cards())
        hands = [[parse_card(t) for t in hand.split()] for hand in stage.hands]
        top = parse_card(stage.top)
        upcoming = [parse_card(t) for t in stage.next_draw]
        for card in (*(c for h in hands for c in h), top, *upcoming):
            assert pool[card] > 0, f"the deck has no more {card.text}"
            pool[card] -= 1
        rest = []  # the cards not staged, in the order they were in
        for card in game.all_cards():
            if pool[card] > 0:
                pool[card] -= 1
                rest.append(card)
        game.hands = hands
        game.discard = [top]
        game.draw_pile = rest + upcoming[::-1]  # the pile's end is its top
        game.color = stage.color or top.color
        game.turn = stage.turn
        game.pending, game.pending_rank, game.drawn, game.draws = 0, "", None, 0
        game.uno, game.exposed = 0, -1
        game.ext = {}
        game.legal = None
        table.version += 1
        await store.save_game(game_id, table.encode(), expected_version=stored.version)
        return ", ".join(s.name for s in table.seats[1:])
    finally:
        await store.close()
