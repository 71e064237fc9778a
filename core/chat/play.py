"""The table's rules, pure: `step(table, person, command, out, now)` changes
a chat's table for one command and returns its log entries (None: nothing
to save), or raises ChatError / MoveError to refuse it. No I/O and no clock
of its own (`now` is given): the chat service loads, steps and saves
(core/session.py), and the same step runs again on a newer table when a
save loses a race.

Lobby commands are core/chat/lobby.py's; this module holds the game: moves,
the AI seats' moves, timeouts, leaving and being removed, next rounds.
"""

from __future__ import annotations

import logging
import random

from .. import engine
from ..ai import Level, best_play, level_name, new_player
from ..ai.knowledge import TableMemory
from ..cards import Card, CardError, parse_card
from ..errors import UNKNOWN_PLAYER, MoveError
from ..events import CHALLENGE_LOST, CHALLENGE_WON, Event
from ..moves import CATCH, CHALLENGE, DRAW, KINDS, PASS, PLAY, UNO, Move, color_move
from ..rule_failure import RuleFailure, refusing_rule_failures
from ..service import LEAVE, NEXT_ROUND, deal_entry
from ..state import MATCH_OVER, ROUND_OVER
from . import commands as c
from .i18n import N_, Msg, gettext_for, known
from .lobby import LOBBY_COMMANDS, lobby_step, start
from .outcome import ChatError, Outcome, shown_line
from .render import EventText, color_from_text, describe_event, describe_private
from .table import BETWEEN_ROUNDS, FINISHED, LOBBY, PLAYING, Table
from .uno_timing import carries_uno, with_uno

log = logging.getLogger(__name__)


def step(table: Table, person: c.Person, cmd: c.Command, out: Outcome, now: float) -> list[str] | None:
    _ = gettext_for(table.lang)
    seat = table.seat_of(person.id)
    if cmd.version is not None and cmd.version != table.version:
        raise ChatError("stale")
    if isinstance(cmd, LOBBY_COMMANDS):
        entries = lobby_step(table, person, seat, cmd, out)
        _learn_lang(table, person)  # after: the command may have just given them a seat
        return entries
    _learn_lang(table, person)
    rang = _round_clock(table, out, now)
    if rang:  # the round's time ran out before this command: the round ends first
        return rang
    if isinstance(cmd, c.Leave):
        if seat is None:
            raise ChatError("not_in_game")
        # the event's own words and the seat's name: the status says a running round's
        # leave once (its last moves say it already), and "Ben 2" is who left, not "Ben"
        return _remove(table, seat, out, now=now,
                       line=Msg(N_("{player} left the game."), player=table.seats[seat].name))
    if isinstance(cmd, c.Kick):
        if not (person.id == table.creator or person.is_admin):
            raise ChatError("not_allowed_admin")
        target = table.find_seat(cmd.target) if cmd.target else None
        if target is None:
            raise ChatError("bad_player")
        name = table.seats[target].name
        return _remove(table, target, out, now=now, line=Msg(N_("{player} was removed from the game."), player=name))
    if isinstance(cmd, c.Start):
        start(table, person, seat, out)
        table.round_started = now
        game = table.game
        assert game is not None
        _after_moves(table, out.events, out, now, already=True)
        # One move vocabulary for every path: the deal recipe opens the
        # game's part of the log (core/service.py replays it).
        deal = deal_entry(table.variant, [s.id for s in table.seats], table.seed,
                          table.overrides or None, rules=game.rule_spec)
        return [deal] + _ai(table, out, now)
    if isinstance(cmd, c.NextRound):
        if table.phase != BETWEEN_ROUNDS or table.game is None:
            raise ChatError("not_started" if table.phase == LOBBY else "round_not_over")
        if seat is None and not person.is_admin:
            raise ChatError("not_in_game")
        table.game, events = engine.next_round(table.game)
        table.round_started = now
        entries = [NEXT_ROUND]
        for sid in table.left:
            gone = table.seat_of(sid)
            if gone is not None and gone not in table.game.out:
                table.game, more = engine.remove_player(table.game, gone)
                events += more
                entries.append(f"{gone} {LEAVE}")
        table.phase = PLAYING
        _after_moves(table, events, out, now)
        return entries + _ai(table, out, now)
    if isinstance(cmd, c.Skip):
        return _skip(table, person, cmd, out, now)
    if isinstance(cmd, c.Continue):
        if table.phase != PLAYING:
            return None
        entries = _ai(table, out, now, pause=False)
        return entries or None
    if isinstance(cmd, c.GAME_MOVES):
        if table.phase == LOBBY:
            raise ChatError("not_started")
        if table.phase != PLAYING or table.game is None:
            raise MoveError("round_over")
        if seat is None:
            raise ChatError("not_in_game")
        move = _move(table, seat, cmd)
        before = [list(hand) for hand in table.game.hands] if move.kind == CHALLENGE else None
        entries = _apply(table, move, out, now, uno=isinstance(cmd, (c.Play, c.PluginMove)) and cmd.uno)
        if before is not None:
            _show_challenged(table, seat, person.id, before, out)
        table.timeouts.pop(person.id, None)
        if isinstance(cmd, c.Draw) and cmd.then_play:
            entries += _play_drawn(table, seat, out, now)
        return entries + _ai(table, out, now)
    raise ChatError("bad_move")


def _show_challenged(table: Table, seat: int, person_id: str, before: list[list[Card]], out: Outcome) -> None:
    """The challenged player shows their hand to the challenger alone (the
    official rule), as it was when challenged: kept in `out.shown` and said
    among the challenger's private lines, so every front-end shows it."""
    for e in out.events:
        if e.kind in (CHALLENGE_WON, CHALLENGE_LOST) and e.player == seat and 0 <= e.other < len(before):
            out.shown[person_id] = (e.other, before[e.other])
            lang = table.seats[seat].lang or table.lang
            out.private.setdefault(person_id, []).append(shown_line(table, e.other, before[e.other], lang))
            return


def _learn_lang(table: Table, person: c.Person) -> None:
    """The language the person's adapter says they use, kept on their seat
    (saved with the command's change): another process, or this one after
    a restart, still tells them privately in their language."""
    seat = table.seat_of(person.id)
    lang = known(person.lang)
    if seat is not None and lang:
        table.seats[seat].lang = lang


def _play_drawn(table: Table, seat: int, out: Outcome, now: float) -> list[str]:
    """After a draw: play the drawn card if the rules let it be played now
    (saying UNO first when it leaves one card); else nothing (the draw
    ended the turn, or the player passes as usual). A drawn Wild Draw Four
    that would be a bluff is kept: "if it fits" never gambles a challenge
    for a person (it cost a console player 4 cards)."""
    game = table.game
    if game is None or table.phase != PLAYING or game.turn != seat or game.drawn is None:
        return []
    moves = engine.legal_moves(game, seat)
    rules = game.rules or engine.rules_of(game)
    judge = rules.answering("would_bluff")  # the challenge rule's judgement, or a plugin's (never by name)
    would_bluff = judge.would_bluff if judge is not None else None
    plays = [m for m in moves if m.kind == PLAY and m.card == game.drawn
             and not (would_bluff is not None and would_bluff(game, seat, m.card))]
    if not plays:
        return []  # kept: no play, or only a bluff a challenge would catch (the player's own call)
    uno = len(game.hands[seat]) == 2 and any(m.kind == UNO for m in moves)
    return _apply(table, best_play(game, seat, plays), out, now, uno=uno)

def _apply(table: Table, move: Move, out: Outcome, now: float, *, uno: bool = False) -> list[str]:
    """Apply a person's move (saying UNO with it, when asked: on copies, so
    a refused play leaves the table as it was); return its log entries."""
    assert table.game is not None
    if uno:
        table.game, events, made = with_uno(table.game, move)
        _after_moves(table, events, out, now)
        return [f"{m.player} {m.text}" for m in made]
    table.game, events = engine.apply(table.game, move, inplace=True)
    _after_moves(table, events, out, now)
    return [f"{move.player} {move.text}"]


def _move(table: Table, seat: int, cmd: c.Command) -> Move:
    if isinstance(cmd, c.Play):
        try:
            card = parse_card(cmd.card)
        except CardError:
            raise ChatError("bad_card") from None
        color = None
        if cmd.color:
            color = color_from_text(cmd.color)
            if color is None:
                raise ChatError("bad_color")
        target = None
        if cmd.target:
            target = table.find_seat(cmd.target)
            if target is None:
                raise ChatError("bad_player")
        return Move(PLAY, seat, card, color, target)
    if isinstance(cmd, c.Catch):
        game = table.game
        assert game is not None
        if cmd.target:
            target = table.find_seat(cmd.target)
            if target is None:
                raise ChatError("bad_player")
        else:
            catches = [m for m in engine.legal_moves(game, seat) if m.kind == CATCH]
            target = catches[0].target if catches else None  # whoever can be caught
        return Move(CATCH, seat, target=target)
    if isinstance(cmd, c.PluginMove):
        from ..moves import parse_move
        from ..registry import MOVE_KINDS, declared

        kind = cmd.text.split()[0].lower() if cmd.text.split() else ""
        rule = declared(MOVE_KINDS, kind)
        if rule is None:
            raise ChatError("bad_move")
        if kind in rule.system_moves:
            raise MoveError("not_allowed")  # the chat applies it (a round clock), never a person
        names = [s.name for s in table.seats]
        try:
            return parse_move(cmd.text[:500], seat, names)
        except MoveError as exc:
            if exc.code != UNKNOWN_PLAYER:
                raise
            named = _named_target(cmd.text[:500], table)
            if named is None:  # a word read as a target only because it is no card
                raise ChatError("bad_move_word") from exc
            return parse_move(named, seat, names)
    if isinstance(cmd, c.NameColor):
        color = color_from_text(cmd.color)
        if color is None:
            raise ChatError("bad_color")
        return color_move(seat, color)
    kind = {c.Draw: DRAW, c.Pass: PASS, c.SayUno: UNO, c.Challenge: CHALLENGE}[type(cmd)]
    return Move(kind, seat)

def _remove(table: Table, seat: int, out: Outcome, line: Msg, now: float) -> list[str]:
    sid = table.seats[seat].id
    out.tell(line, table.lang)
    if table.phase == LOBBY:
        del table.seats[seat]
        if sid == table.creator and table.humans():
            table.creator = table.humans()[0].id
        if not table.humans():
            table.seats.clear()
        return [f"leave {sid}"]
    if sid not in table.left:
        table.left.append(sid)  # not dealt in again in later rounds
    if table.game is not None and table.phase == PLAYING:
        table.game, events = engine.remove_player(table.game, seat)
        _after_moves(table, events, out, now, skip_first=True)
        return [f"{seat} leave"] + _ai(table, out, now)
    return [f"leave {sid}"]

def _skip(table: Table, person: c.Person, cmd: c.Skip, out: Outcome, now: float) -> list[str] | None:
    game = table.game
    if table.phase != PLAYING or game is None:
        raise ChatError("not_started")
    seconds = table.timer or (game.rules or engine.rules_of(game)).turn_seconds(game) or 0
    if not seconds:
        raise ChatError("no_timer")
    if not cmd.auto and table.seat_of(person.id) is None and not person.is_admin:
        raise ChatError("not_in_game")  # players and admins skip; passers-by do not
    if now - table.turn_started < seconds - 0.5:
        if cmd.auto:
            return None
        raise ChatError("timer_running")
    seat = game.turn
    sid = table.seats[seat].id
    table.game, events = engine.timeout(game)
    _after_moves(table, events, out, now)
    entries = [f"{seat} timeout"]
    count = table.timeouts.get(sid, 0) + 1
    table.timeouts[sid] = count
    # Asked of the rules (`Rule.timeouts_before_removal`: turn-timer's kick_after), never by a rule's name.
    kick_after = (table.game.rules or engine.rules_of(table.game)).timeouts_before_removal
    # Never the last person still playing: the match would go on among AI seats with
    # nobody to watch it (the console's one player, a chat whose others left); their
    # turns keep timing out instead.
    others = [s for s in table.humans() if s.id != sid and s.id not in table.left]
    if kick_after and count >= kick_after and table.phase == PLAYING and others:
        entries += _remove(table, seat, out, now=now, line=Msg(N_("{player} timed out too often and was removed."),
                                                               player=table.seats[seat].name))
    return entries + _ai(table, out, now)

def _ai(table: Table, out: Outcome, now: float, pause: bool = True) -> list[str]:
    """Let AI seats move until a person is to move (or the round ends).

    Before each AI move, when a person could act out of turn (jump in,
    catch someone, say UNO before being caught, make a plugin's move out of
    turn such as a cheer), the AI waits: the
    outcome is `paused` and the adapter sends `Continue` after a moment.
    The first AI move after a Continue is not paused again.

    AI seats whose turn it is not act out of turn too, once each between
    two turns, when no person could act first: they jump in, and now and
    then make a plugin's out-of-turn move (`_ai_out_of_turn`).
    """
    entries: list[str] = []
    acted: set[int] = set()
    for _i in range(3000):
        game = table.game
        if game is None or table.phase != PLAYING:
            break
        seat = game.turn
        info = table.seats[seat]
        if pause and _person_may_act(table):
            if info.is_ai:
                out.paused = True
            break  # a person may act first; AI seats act after the pause
        if moved := _ai_out_of_turn(table, out, now, acted):
            entries += moved
            continue
        if not info.is_ai:
            break
        pause = True
        acted.clear()
        moves = engine.legal_moves(game, seat)
        if not moves:
            break
        rnd = random.Random(f"{table.seed}/{game.round}/{game.moves}")
        moved = _ai_move(table, out, now, seat, moves, rnd)
        if not moved:
            break  # every move it had set off a rule's failure: the table waits (a person, the timer)
        entries += moved
    return entries


def _ai_move(table: Table, out: Outcome, now: float, seat: int, moves: list[Move],
             rnd: random.Random) -> list[str]:
    """The AI seat's policy picks one of `moves`, and it is made; its log
    entries (its UNO too, when said with the move).

    A move that sets off a rule's failure (a plugin's hook that raises:
    `RuleFailure`) is logged for the operator and left out, and the policy
    picks again, so a broken rule never stops the table on an AI seat's
    turn; [] when every move failed (nothing changed). The move is applied
    to a copy for that reason: a failed hook may have half changed it."""
    game = table.game
    assert game is not None
    player = _ai_player(table, table.seats[seat].level)
    while moves:
        try:
            move = player(game, seat, moves, rnd)
        except RuleFailure:  # its look-ahead set the broken rule off: any move, then
            move = rnd.choice(moves)
        colour, pending = game.color, game.pending
        # Said with the move when it leaves one card and no UNO was offered
        # before it (a multi-play or a Discard All from three cards): as a
        # person's "with UNO", so nobody can catch the seat in between.
        uno = move.kind != UNO and move.card is not None and carries_uno(game, move) \
            and player.says_uno_with(game, seat, moves, rnd)
        try:
            if uno:
                table.game, events, made = with_uno(game, move)
            else:
                (table.game, events), made = engine.apply(game, move), [move]
        except RuleFailure as exc:
            log.warning("table %s: an AI move was refused: %s", table.seed, exc.detail)
            left = [m for m in moves if m != move]  # by value: a policy may build its own
            if len(left) == len(moves):
                return []  # not one of the moves it was given: nothing left to try
            moves = left
            continue
        player.observe(table.game, move, events, colour, pending)
        _after_moves(table, events, out, now)
        return [f"{seat} {m.text}" for m in made]
    return []


#: One chance in this many that an AI seat makes a plugin's out-of-turn move
#: when it may (a move a rule offers at every moment, such as a cheer, would
#: otherwise follow every move of the game).
PLUGIN_OUT_OF_TURN_ODDS = 8


def _ai_out_of_turn(table: Table, out: Outcome, now: float, acted: set[int]) -> list[str]:
    """One AI seat whose turn it is not makes a move it may make now, if any
    (the log entries of it; [] when none moved): a jump-in, or now and then a
    plugin's out-of-turn move (`PLUGIN_OUT_OF_TURN_ODDS`); its policy picks.
    Catching and UNO are left to the AI's own turn, where its policy
    weighs them with its play (and a person gets the pause to act first)."""
    game = table.game
    assert game is not None
    n = len(table.seats)
    for k in range(1, n):
        seat = (game.turn + k) % n
        info = table.seats[seat]
        if not info.is_ai or seat in game.out or seat in acted:
            continue
        acted.add(seat)
        rnd = random.Random(f"{table.seed}/{game.round}/{game.moves}/{seat}")
        moves = [m for m in engine.legal_moves(game, seat)
                 if m.kind == PLAY or (m.kind not in (UNO, CATCH, CHALLENGE)
                                       and rnd.randrange(PLUGIN_OUT_OF_TURN_ODDS) == 0)]
        if moves:
            return _ai_move(table, out, now, seat, moves, rnd)
    return []


def _ai_player(table: Table, level: str | None) -> Level:
    """The AI player of `level` for this table: what it remembers of the
    table (colours players drew on, challenges seen) is kept per table in
    this process (lost on a restart, which only makes it play on what the
    game shows); `expert`'s time per move is capped by the turn timer."""
    name = level_name(level)
    memory = _MEMORIES.pop(table.seed, None) or TableMemory()
    _MEMORIES[table.seed] = memory  # most recent last
    while len(_MEMORIES) > 512:
        del _MEMORIES[next(iter(_MEMORIES))]
    player = new_player(name)
    player.memory = memory
    if name == "expert":
        from ..ai import Expert, default_seconds

        assert isinstance(player, Expert)
        game = table.game
        timer = table.timer or (engine.rules_of(game).turn_seconds(game) if game is not None else 0) or 0
        player.seconds = min(default_seconds(), timer / 5) if timer else default_seconds()
    return player


#: Each table's AI memory, by the table's seed (a bounded, most-recent-last cache).
_MEMORIES: dict[int, TableMemory] = {}

def _round_clock(table: Table, out: Outcome, now: float) -> list[str]:
    """A rule's round clock (`round_seconds`) that has run out: apply its
    `time_up` move for the table (any command, a turn timer's included,
    notices it). Returns the log entries, or [] when the clock has not rung."""
    game = table.game
    if table.phase != PLAYING or game is None or not table.round_started:
        return []
    rules = game.rules or engine.rules_of(game)
    seconds = rules.round_seconds(game)
    if not seconds or now - table.round_started < seconds:
        return []
    move = rules.time_up(game)
    if move is None:
        return []
    table.game, events = engine.apply(game, move)
    _after_moves(table, events, out, now)
    return [f"{move.player} {move.text}"]


def end_match_stopped(table: Table, reason: str = "stopped") -> list[Event]:
    """The chat ends a started match (`reason`: `stopped`, an admin's stop,
    or `rounds`, the number of rounds it was to last played): the rules are
    told once (`match_end`) with the final scores; their events (a rule's
    report) are returned. A match already over, or a lobby, tells nobody."""
    from ..actions import end_match

    game = table.game
    if game is None or game.phase == MATCH_OVER:
        return []
    engine.rules_of(game)
    events: list[Event] = []
    refusing_rule_failures(end_match)(game, -1, reason, events)
    return events


def event_texts(table: Table, events: list[Event]) -> list[Msg]:
    """The table's lines for `events`, kept for any reader (`Outcome.said`:
    said in the chat's language, and again in a reader's own)."""
    names = [seat.name for seat in table.seats]
    return [EventText(e, names) for e in events if describe_event(e, names.__getitem__, table.lang)]


def _person_may_act(table: Table) -> bool:
    game = table.game
    assert game is not None
    for seat, info in enumerate(table.seats):
        if info.is_ai or seat == game.turn or seat in game.out:
            continue
        for m in engine.legal_moves(game, seat):
            if m.kind in (PLAY, CATCH) or (m.kind == UNO and len(game.hands[seat]) == 1) \
                    or m.kind not in KINDS:  # a plugin's move out of turn (a cheer) waits for them too
                return True
    return False

def _after_moves(table: Table, events: list[Event], out: Outcome, now: float,
                 skip_first: bool = False, already: bool = False) -> None:
    """Tell the table what happened (`already`: the events are in `out`)."""
    game = table.game
    assert game is not None
    if not already:
        out.events.extend(events)
    table.remember([e for e in events if table.remembers(e)])
    table.note_draws(events)

    def name(seat: int) -> str:
        return table.seats[seat].name if 0 <= seat < len(table.seats) else "?"

    names = [seat.name for seat in table.seats]
    for e in events:
        line = describe_event(e, name, table.lang)
        if line and not (skip_first and e is events[0] and out.notices):
            out.notices.append(line)
            out.said.append(EventText(e, names))  # the same line, for a reader of another language
        if e.cards and 0 <= e.player < len(table.seats):
            private = describe_private(e, table.seats[e.player].lang or table.lang)
            if private:
                out.private.setdefault(table.seats[e.player].id, []).append(private)
    if game.phase == ROUND_OVER:
        table.phase = BETWEEN_ROUNDS
    elif game.phase == MATCH_OVER:
        table.phase = FINISHED
    table.turn_started = now


def _named_target(text: str, table: Table) -> str | None:
    """A plugin move's text with its target, named as a person names a seat
    (`poke Alan`, `poke Alan (AI)`), written as the engine reads it
    (`poke @2`); None when no tail of the words names one seat.

    Why: the engine's move grammar takes a target as one word equal to a
    seat's whole name, so a plugin move aimed at `Alan (AI)` could not be
    typed at all, while `catch Alan` works: a target is found here the way
    the chat finds every other one (`Table.find_seat`: id, name, unique
    prefix), the longest tail first."""
    words = text.split()
    for k in range(1, len(words)):
        seat = table.find_seat(" ".join(words[k:]))
        if seat is not None:
            return " ".join([*words[:k], f"@{seat}"])
    return None
