"""Views: what a chat shows, built from a table for one viewer.

`table_view` is public (card counts, never cards); `hand_view` is one
person's private hand with what they may do now. Adapters render these;
they never look into the engine themselves.
"""

from __future__ import annotations

import functools
import json
import logging
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, sort_key
from ..engine import legal_moves, new_game, rules_of
from ..moves import CATCH, CHALLENGE, COLOR, DRAW, KINDS, PASS, PLAY, UNO, Move
from ..rule_failure import RuleFailure
from ..ruleset import RuleSet
from ..state import GameState
from ..variants import VariantError, load_variant, rules_for
from .i18n import RTL, gettext_for, joined, ngettext_for
from .narration import merge_repeats
from .render import card_name, color_name, describe_event
from .table import BETWEEN_ROUNDS, FINISHED, LOBBY, PLAYING, Table
from .typed import LEVEL_NAMES
from .uno_timing import carries_uno

log = logging.getLogger(__name__)


@dataclass
class PlayerLine:
    seat: int
    id: str
    name: str
    cards: int
    is_turn: bool = False
    said_uno: bool = False
    is_ai: bool = False
    is_out: bool = False
    score: int = 0
    #: Plays after the player on turn (the view's `next_seat`).
    is_next: bool = False
    #: An AI seat's level in the view's language ("expert"; "" for a person): each AI
    #: seat is added at a level of its own, and the seats show which is which.
    level_name: str = ""
    #: Left the match (`/leave`, removed, timed out): their seat stays for the
    #: scores, and is shown as gone, not as one who went out by playing a last
    #: card ("Cid (0) ✓" read as a winner).
    has_left: bool = False
    #: Their place in the match when the rules decide it by more than the
    #: points (`Rule.place`: elimination's, where every score is 0); lower is
    #: ahead. 0 for everyone when the points alone decide.
    place: int = 0

    @property
    def calls_uno(self) -> bool:
        """Their UNO is shown: said, and still about a last card (one or two
        left). Not once they are out or have no card: the round's winner, who
        said UNO, was flagged "UNO" beside "out" with 0 cards."""
        return self.said_uno and 0 < self.cards <= 2 and not self.is_out


@dataclass
class TableView:
    phase: str
    variant: str
    variant_title: str
    version: int
    players: list[PlayerLine]
    top: Card | None = None
    color: str | None = None
    direction: int = 1
    pending: int = 0
    draw_size: int = 0
    turn: int = -1
    round: int = 1
    winner: int = -1
    recent: list[str] = field(default_factory=list)
    timer: int = 0
    #: Seconds a turn may take (the chat's timer, else the variant's; 0: none).
    turn_seconds: int = 0
    #: Points that win the match (None: the rules set none).
    target: int | None = None
    #: The rules rank a lower score better (progressive scoring): the target
    #: ends the match and the lowest total wins it; scores are shown lowest first.
    lowest_wins: bool = False
    #: The rules place the players by more than the points (`Rule.place`:
    #: elimination keeps none): the winner is told without a score.
    placed: bool = False
    #: Seats in the round's order of play, forward (`play_order`: a shuffled-seat
    #: round is played in another order than the chat's seats); empty: as they sit.
    order: list[int] = field(default_factory=list)
    #: Who plays after the player on turn, as the rules say now (-1: nobody).
    next_seat: int = -1
    #: When a rule's round clock (`round_seconds`: blitz) ends the round, on the
    #: service's clock (`round_ends`); None: no clock runs in this round.
    round_ends: float | None = None
    #: Seconds each round may last under the table's rules (a rule's round clock:
    #: blitz, a plugin's `round_seconds`), known before the deal so a lobby can say
    #: rounds are timed (`round_length_line`); 0: no round clock.
    round_seconds: int = 0

    @property
    def in_order(self) -> list[PlayerLine]:
        """The players in the order of play (everyone, when no round runs)."""
        return [self.players[i] for i in self.order] if self.order else list(self.players)

    @property
    def on_turn(self) -> int:
        """The seat on turn while a round is played; -1 in the lobby, between
        rounds and after the match (the game still names the last seat that
        moved, but nobody is on turn then: `status_lines` says the scores)."""
        return self.turn if self.phase == PLAYING else -1

    @property
    def turn_name(self) -> str:
        return self.players[self.turn].name if 0 <= self.turn < len(self.players) else ""


@dataclass
class HandCard:
    card: Card
    playable: bool
    moves: list[Move] = field(default_factory=list)
    count: int = 1  # identical cards are listed once
    #: How many of them the player drew last (`Table.drawn_last`): said in the
    #: hand, as the private "You drew" notice may have been lost.
    new: int = 0


@dataclass
class HandView:
    seat: int
    is_turn: bool
    cards: list[HandCard]
    draw: Move | None = None
    pass_: Move | None = None
    uno: Move | None = None
    challenge: Move | None = None
    catches: list[Move] = field(default_factory=list)
    jump_ins: list[Move] = field(default_factory=list)
    #: While a Wild starter waits for its colour: the four `color` moves, the
    #: only moves the player to move has (an adapter offers them first).
    colors: list[Move] = field(default_factory=list)
    #: Moves of kinds plugins added (`Rule.move_kinds`), offered as they are.
    extras: list[Move] = field(default_factory=list)
    #: Those of `extras` that may be made with UNO as one action (`carries_uno`:
    #: a multi-play from three cards to one), on the player's turn.
    uno_extras: list[Move] = field(default_factory=list)
    pending: int = 0
    #: Down to one card without having said UNO: may be caught until UNO is said.
    exposed: bool = False
    #: A drawn card that does not fit leaves the turn with the player, who draws
    #: again (a rule says so: `keeps_drawing`), instead of ending it.
    draw_goes_on: bool = False

    @property
    def actions(self) -> list[Move]:
        return [m for m in (self.draw, self.pass_, self.uno, self.challenge) if m] + self.catches


_titles: dict[tuple[str, str], str] = {}


def variant_title(name: str, lang: str) -> str:
    """A variant's title in a language (remembered: asked for every view)."""
    title = _titles.get((name, lang))
    if title is None:
        try:
            title = load_variant(name).label(lang)
        except VariantError:
            return name
        if len(_titles) < 1000:
            _titles[(name, lang)] = title
    return title


def level_title(level: str | None, lang: str | None) -> str:
    """An AI level's name in `lang` ("experto"); "" for a person (no level)."""
    if level is None:
        return ""
    name = LEVEL_NAMES.get(level)
    return gettext_for(lang)(name) if name else level


def table_view(table: Table, lang: str | None = None) -> TableView:
    lang = lang or table.lang
    game = table.game
    players = []
    uno = _uno_rule(game)
    for i, seat in enumerate(table.seats):
        line = PlayerLine(i, seat.id, seat.name, 0, is_ai=seat.is_ai, level_name=level_title(seat.level, lang))
        if game is not None:
            line.cards = len(game.hands[i])
            line.is_turn = game.turn == i and table.phase not in (LOBBY, BETWEEN_ROUNDS, FINISHED)
            line.said_uno = bool(uno is not None and uno.said(game, i))
            line.has_left = table.has_left(i)
            line.is_out = i in game.out and not line.has_left
            line.score = game.scores[i]
        players.append(line)
    view = TableView(table.phase, table.variant, variant_title(table.variant, lang), table.version,
                     players, timer=table.timer)
    if game is not None:
        places = _places(game)
        if places is not None:
            view.placed = True
            for line, place in zip(players, places, strict=False):
                line.place = place
        view.top = game.top
        view.color = game.color
        view.direction = game.direction
        view.pending = game.pending
        view.draw_size = len(game.draw_pile)
        view.turn = game.turn
        view.round = game.round
        view.winner = game.winner

        def name(seat: int) -> str:
            return table.seats[seat].name if 0 <= seat < len(table.seats) else "?"

        events, times = merge_repeats(table.recent_events())  # one line for a run of draws, ×2 for twins
        view.recent = [t + (f" ×{n}" if n > 1 else "") for e, n in zip(events, times, strict=True)
                       if (t := describe_event(e, name, lang))]
        rules = game_rules(game)
        if table.phase not in (LOBBY, FINISHED) and rules is not None:
            view.order = play_order(game)
            nxt = rules.next_turn(game, game.turn, 0) if 0 <= game.turn < len(players) else -1
            view.next_seat = nxt if table.phase == PLAYING and nxt != game.turn else -1
            for line in players:
                line.is_next = line.seat == view.next_seat
    view.turn_seconds, view.target = rule_facts(table)
    view.lowest_wins = lowest_wins(table)
    view.round_ends = round_ends(table)
    view.round_seconds = round_clock_seconds(table)
    return view


def play_order(game: GameState) -> list[int]:
    """The seats in the round's order of play, as the rules in force pass the
    turn (`next_turn`: a shuffled order of seats), written in the forward
    direction and starting from the lowest seat (so the list stays put from
    turn to turn; a front-end draws the direction as arrows); those out come last."""
    rules = game.rules or rules_of(game)
    n = len(game.players)
    start = game.turn if 0 <= game.turn < n else 0
    cycle = [start]
    seat = start
    for _ in range(n):
        seat = rules.next_turn(game, seat, 0)
        if seat in cycle or not 0 <= seat < n:
            break
        cycle.append(seat)
    if game.direction == -1:
        cycle = [cycle[0], *reversed(cycle[1:])]
    low = cycle.index(min(cycle))
    cycle = cycle[low:] + cycle[:low]
    return cycle + [s for s in range(n) if s not in cycle]


def _table_rules(table: Table) -> RuleSet | None:
    """The rules the table's game plays under (the chat's variant and
    options before one is dealt); None when they cannot be loaded here."""
    try:
        return table.game.rules if table.game is not None and table.game.rules else \
            rules_for(table.variant, table.overrides or None)
    except VariantError:
        return None


def rules_problem(game: GameState) -> VariantError | None:
    """Why the game's rules cannot be loaded here (a rule plugin gone since
    it was dealt), or None when they load."""
    try:
        game.rules or rules_of(game)
    except VariantError as exc:
        return exc
    return None


def game_rules(game: GameState) -> RuleSet | None:
    """The rules the game plays under; None when they cannot be loaded here
    (a rule plugin gone since it was dealt). Why: such a table is still
    shown, and stopped, on every front-end: the seats, the counts and the
    top card need no rules; what to offer, whose turn is next and the UNO
    marks are left out."""
    try:
        return game.rules or rules_of(game)
    except VariantError:
        return None


def _places(game: GameState) -> list[int] | None:
    """Each seat's place in the match when the rules decide it by more than
    the points (`RuleSet.places`), else None."""
    rules = game_rules(game)
    return None if rules is None else rules.places(game)


def lowest_wins(table: Table) -> bool:
    """Whether the table's rules rank a lower score better (progressive scoring)."""
    rules = _table_rules(table)
    return rules is not None and rules.lowest_score_wins


def rule_facts(table: Table) -> tuple[int, int | None]:
    """The turn timer in force and the match target, from the table's rules."""
    rules = _table_rules(table)
    if rules is None:
        return table.timer, None
    seconds = table.timer
    if not seconds and table.game is not None:
        seconds = int(rules.turn_seconds(table.game) or 0)
    elif not seconds:  # no round yet: `Rule.seconds_per_turn` (turn-timer's seconds), never by a rule's name
        seconds = rules.seconds_per_turn
    return seconds, rules.match_target  # asked of the rules (`Rule.match_target`), never by a rule's name


def _uno_rule(game: GameState | None) -> Any:
    """The rule that owns the UNO calls (their data is its own), if one is on:
    any rule that answers `said(state, seat)` and `catchable(state)` (uno-call,
    or a rule that replaces it, such as strict-uno)."""
    rules = None if game is None else game_rules(game)
    if rules is None:
        return None
    for rule in rules.rules.values():
        if callable(getattr(rule, "said", None)) and callable(getattr(rule, "catchable", None)):
            return rule
    return None


def draw_goes_on(game: GameState) -> bool:
    """Whether a drawn card that does not fit leaves the turn with the player
    (they draw again): asked of the rules in force, any rule whose class says
    `keeps_drawing = True` (draw-until-playable, draw-to-match, a plugin's
    own), never by rule names."""
    rules = game_rules(game)
    return rules is not None and any(getattr(rule, "keeps_drawing", False) for rule in rules.rules.values())


def hand_view(table: Table, person_id: str) -> HandView | None:
    seat = table.seat_of(person_id)
    game = table.game
    if seat is None or game is None:
        return None
    try:
        moves = legal_moves(game, seat)
    except RuleFailure as exc:  # a rule's bug: the hand is shown with nothing to do, never a traceback
        log.warning("table %s: no moves offered: %s", table.chat_id, exc.detail)
        moves = []
    except VariantError:  # its rules are gone (`game_rules`): the cards, nothing to do
        moves = []
    by_card: dict[Card, list[Move]] = {}
    uno = _uno_rule(game)
    view = HandView(seat, game.turn == seat, [], pending=game.pending if game.turn == seat else 0,
                    exposed=uno is not None and uno.catchable(game) == seat, draw_goes_on=draw_goes_on(game))
    for m in moves:
        if m.kind == PLAY and m.card is not None:
            if m.player == seat and seat != game.turn:
                view.jump_ins.append(m)
            by_card.setdefault(m.card, []).append(m)
        elif m.kind == DRAW:
            view.draw = m
        elif m.kind == PASS:
            view.pass_ = m
        elif m.kind == UNO:
            view.uno = m
        elif m.kind == CHALLENGE:
            view.challenge = m
        elif m.kind == CATCH:
            view.catches.append(m)
        elif m.kind == COLOR:
            view.colors.append(m)
        elif m.kind not in KINDS:
            view.extras.append(m)
    if view.is_turn:
        view.uno_extras = [m for m in view.extras if m.card is not None and carries_uno(game, m)]
    counts = Counter(game.hands[seat])
    drawn = Counter(table.drawn_last.get(seat, ()))
    cards = [HandCard(card, card in by_card, by_card.get(card, []), counts[card], min(drawn[card], counts[card]))
             for card in sorted(counts, key=sort_key)]
    # Playable cards first, then the rest, each group in hand order.
    cards.sort(key=lambda hc: not hc.playable)
    view.cards = cards
    return view


def status_lines(view: TableView, lang: str) -> list[str]:
    """The table as a few plain lines (a status message, a console header)."""
    _ = gettext_for(lang)
    lines = [_("UNO · {variant}").format(variant=view.variant_title)]
    if view.phase == LOBBY:
        # each AI seat with its level: `/ai 2 expert` then `/ai 1 easy` seats two levels, and the
        # notice that said so is gone from the status after the next join
        lines.append(_("Waiting for players: {names}").format(
            names=joined((p.name + (f" · {p.level_name}" if p.level_name else "") for p in view.players), lang)
            or "-"))
        return lines
    if view.top is not None:
        lines.append(_("Top card: {card} · colour: {color}").format(
            card=card_name(view.top, lang), color=color_name(view.color, lang)))
    # Players listed in the order of play, the arrow pointing from each to the next. Written
    # right to left (Arabic), the line is one (a right-to-left mark first: Latin names would
    # otherwise turn it left to right) and the first name is on the right, so the arrows turn.
    rtl = lang.split("_")[0] in RTL
    arrow = "→" if (view.direction == 1) != rtl else "←"
    parts = []
    for p in view.in_order:
        mark = "▶ " if p.is_turn else "⏭ " if p.is_next else ""
        uno = " UNO" if p.calls_uno else ""
        if p.has_left:
            parts.append(f"{mark}{p.name} ({_('left the game')})")
            continue
        out = " ✓" if p.is_out else ""
        parts.append(f"{mark}{p.name} ({p.cards}){uno}{out}")
    lines.append(("\u200f" if rtl else "") + f" {arrow} ".join(parts))
    if view.pending:
        lines.append(_("{player} must draw {n}, or answer it.").format(player=view.turn_name, n=view.pending))
    if view.phase == BETWEEN_ROUNDS:
        lines.append(_("Round over. Scores: {scores}").format(
            scores=joined((f"{p.name} {p.score}" for p in view.players), lang)))
    elif view.phase == FINISHED:
        lines.append(_("Match over. Scores: {scores}").format(
            scores=joined((f"{p.name} {p.score}" for p in view.players), lang)))
    elif view.turn >= 0:
        lines.append(_("Turn: {player}").format(player=view.turn_name))
    return lines


def turn_left(table: Table, now: float) -> float | None:
    """Seconds the person on turn has before the turn timer passes their turn
    on (0 once it is up), for a front-end that shows a clock; None when no
    clock runs: no timer, no round being played, or an AI on turn (an AI is
    never timed: `wake_plan`). The timer's own wake (`wake_plan`) and the
    skip (`play._skip`) judge the same `turn_started`, so the clock shown and
    the skip agree."""
    seconds = rule_facts(table)[0]
    game = table.game
    if not seconds or table.phase != PLAYING or game is None or not 0 <= game.turn < len(table.seats):
        return None
    if table.seats[game.turn].is_ai:
        return None
    return max(0.0, table.turn_started + seconds - now)


def round_ends(table: Table) -> float | None:
    """When a rule's round clock (`round_seconds`, blitz) ends the round being
    played, on the service's clock; None when no clock runs (no such rule, no
    round being played). The clock's wake (`wake.wake_plan`) and the move that
    ends the round (`play._round_clock`) judge the same `round_started` and
    `round_seconds`, so the end shown and the end that comes agree."""
    game = table.game
    if table.phase != PLAYING or game is None or not table.round_started:
        return None
    rules = game_rules(game)
    seconds = rules.round_seconds(game) if rules is not None else 0
    return table.round_started + float(seconds) if seconds else None


def round_clock_seconds(table: Table) -> int:
    """Seconds a round of this table may last (`round_seconds`, blitz), or 0.

    Why it deals in a lobby: the rules are asked of a game (`round_seconds(state)`,
    a plugin may weigh the players), and a lobby has none yet; a game dealt to as many
    players as are seated (two at least), never kept, answers as the real one will.
    Cached by what it depends on: a lobby's status is drawn at every join."""
    if table.game is not None:
        rules = game_rules(table.game)
        return int(rules.round_seconds(table.game) or 0) if rules is not None else 0
    if table.phase != LOBBY:
        return 0
    return _lobby_round_seconds(table.variant, json.dumps(table.overrides or {}, sort_keys=True),
                                max(2, len(table.seats)))


@functools.lru_cache(maxsize=256)
def _lobby_round_seconds(variant: str, overrides: str, players: int) -> int:
    try:
        game, _events = new_game(variant, [f"p{i}" for i in range(players)], overrides=json.loads(overrides) or None)
        return int((game.rules or rules_of(game)).round_seconds(game) or 0)
    except (VariantError, ValueError, RuleFailure):  # rules that do not load, clash or fail: said at Start
        return 0


def round_length_line(seconds: int, lang: str | None) -> str:
    """How long each round may last, as a lobby says it before the deal ("⏱ Each round
    lasts 4 minutes"): a player joining a blitz table learns the rounds are timed."""
    ngettext = ngettext_for(lang)
    if seconds % 60 == 0:
        minutes = seconds // 60
        return "⏱ " + ngettext("Each round lasts {n} minute", "Each round lasts {n} minutes", minutes).format(
            n=minutes)
    return "⏱ " + ngettext("Each round lasts {n} second", "Each round lasts {n} seconds", seconds).format(n=seconds)


def round_left(table: Table, now: float) -> float | None:
    """Seconds before the round's clock ends the round (0 once it has rung),
    or None when no clock runs (`round_ends`)."""
    ends = round_ends(table)
    return None if ends is None else max(0.0, ends - now)


def round_clock_line(left: float, lang: str | None, when: str | None = None) -> str:
    """The round's clock as a status says it, `left` seconds before it rings:
    to the nearest minute ("⏱ Round ends in 3 minutes"), then, in its last
    minute, "in less than a minute". Said again whenever the status is drawn (no front-end edits a
    message for a clock alone), so between two edits the words go stale.

    `when`: the moment as a front-end writes it live (Discord's `<t:UNIX:R>`, which its
    app counts down in each reader's own language): "⏱ Round ends: in 2 minutes",
    never stale."""
    _, ngettext = gettext_for(lang), ngettext_for(lang)
    if when is not None:
        # TRANSLATORS: {when} is a live time the app writes itself, in the reader's own language
        # ("in 3 minutes", "dentro de 3 minutos"): keep it at the end, after the colon.
        return "⏱ " + _("Round ends: {when}").format(when=when)
    if left < 60:
        return "⏱ " + _("Round ends in less than a minute")
    minutes = int(left / 60 + 0.5)  # the nearest minute: 1 from 60 to 89 s left, 2 from 90 s
    return "⏱ " + ngettext("Round ends in {n} minute", "Round ends in {n} minutes", minutes).format(n=minutes)


def round_headline(table: Table, lang: str | None = None) -> str | None:
    """Who won the round or match that just ended (every chat shows it), in
    `lang` (else the table's): a page is drawn in its own reader's language,
    which need not be the table's."""
    _ = gettext_for(lang or table.lang)
    game = table.game
    if game is None or game.winner < 0 or game.winner >= len(table.seats):
        return None
    name = table.seats[game.winner].name
    if table.phase == FINISHED:
        return "🏆 " + _("{player} wins the match!").format(player=name)
    if table.phase == BETWEEN_ROUNDS:
        return "🎉 " + _("{player} wins round {n}!").format(player=name, n=game.round)
    return None


@dataclass
class RulesSummary:
    """A chat's settings as every chat's /rules shows them."""

    title: str
    enabled: set[str]
    house: list[str]
    timer: int


def rules_summary(settings: dict[str, Any], lang: str) -> RulesSummary:
    """The variant's title, the rules on (a broken setting shows the official
    rules), the house rules' labels and the turn timer."""
    from ..registry import available_rules
    from ..variants import resolve

    variant = str(settings["variant"])
    overrides = settings.get("rules") or {}
    try:
        resolved = resolve(variant, overrides or None)
    except VariantError:
        resolved = resolve("official")
    enabled = set(resolved.rules)
    rules = available_rules()
    try:
        title = load_variant(variant).label(lang)
    except VariantError:
        title = variant
    house = [rules[n].label_with(resolved.rules[n], lang) for n in sorted(enabled) if n in rules and not rules[n].base]
    return RulesSummary(title, enabled, house, int(str(settings.get("timer") or 0)))

