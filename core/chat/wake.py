"""When a table must wake up, and what to send it then: one plan for every front-end.

Why in core: Telegram and Discord each planned their own jobs and drifted
(Discord read `time.time()` where Telegram read the service's clock; Discord
never closed an expired lobby; nobody rang a rule's round clock until the
next command). Now an adapter asks `wake_plan(table, now)` after every
outcome and only schedules what it says, replacing what it had planned for
that table: a job is a point on the service's clock and a command.

Every planned command carries the table version it was planned on, so a job
that fires late, twice (two processes each planned one) or after a restart
on a table that moved on is refused as stale and changes nothing.

Kinds:
- `cont`: AI seats waited for people to jump in, catch or say UNO (the
  outcome was `paused`), or a process that planned nothing for a table
  whose AI is to move (`resume=True`): send `Continue`.
- `timer`: the player on turn ran out of time: send `Skip(auto=True)`.
- `clock`: a rule's round clock (`round_seconds`, blitz) runs out: send
  `Continue`, which rings it.
- `lobby`: nobody started the lobby in time: send `Stop`.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import commands as c
from .table import LOBBY, PLAYING, Table
from .views import game_rules, rule_facts

CONT, TIMER, CLOCK, LOBBY_EXPIRY = "cont", "timer", "clock", "lobby"
#: Who sends a planned command: the bot itself (an admin, so it may stop a lobby).
SYSTEM = c.Person("0", "UNO", None, True)
KINDS = (CONT, TIMER, CLOCK, LOBBY_EXPIRY)


@dataclass(frozen=True)
class Pacing:
    """How long a table waits: the operator's settings (config.yaml `game`),
    and how its timers keep time (every front-end's, so none keeps its own)."""

    #: Seconds AI seats wait while a person may act out of turn.
    continue_delay: float = 3.0
    #: Seconds added to a turn timer (a press made at the last moment still counts).
    timer_grace: float = 0.3
    #: Seconds a lobby stays open without being started.
    lobby_seconds: float = 30 * 60.0
    #: Seconds before a wake that met a store outage rings again (`Waker`).
    retry_after: float = 5.0
    #: How often a timer waiting for a point on the service's clock looks at it
    #: again (`AsyncioTimers`: the clock is injected, a test may move it).
    clock_poll: float = 1.0


@dataclass(frozen=True)
class Wake:
    """At `when` (the service's clock), send `command` (on `command.version`)."""

    kind: str
    when: float
    command: c.Command

    @property
    def version(self) -> int | None:
        return self.command.version


def wake_plan(table: Table, now: float, pacing: Pacing | None = None, *, paused: bool = False,
              resume: bool = False, not_before: float = 0.0) -> list[Wake]:
    """What `table` needs next, as of `now`: at most one wake of each kind.

    `paused`: the last outcome paused the AI seats. `resume`: this process
    planned nothing for the table yet (a restart, a game another process
    served): AI seats on turn get a `cont` anyway. `not_before`: no turn timer
    rings sooner than that many seconds from now (after a restart, the
    player on turn gets their whole turn again: nobody could move meanwhile).
    """
    p = pacing or Pacing()
    v = table.version
    if table.phase == LOBBY:
        if not table.seats:
            return []
        return [Wake(LOBBY_EXPIRY, table.created + p.lobby_seconds, c.Stop(version=v))]
    game = table.game
    rules = game_rules(game) if table.phase == PLAYING and game is not None else None
    if game is None or rules is None:
        return []  # none playing, or its rules are gone: it waits for its plugin or a /stop
    plan: list[Wake] = []
    on_turn = table.seats[game.turn] if 0 <= game.turn < len(table.seats) else None
    if paused or (resume and on_turn is not None and on_turn.is_ai):
        plan.append(Wake(CONT, now + p.continue_delay, c.Continue(version=v)))
    seconds = rule_facts(table)[0]
    if seconds and on_turn is not None and not on_turn.is_ai:
        due = table.turn_started + seconds + p.timer_grace
        plan.append(Wake(TIMER, max(due, now + not_before), c.Skip(auto=True, version=v)))
    round_seconds = rules.round_seconds(game) if table.round_started else 0
    if round_seconds:
        plan.append(Wake(CLOCK, table.round_started + float(round_seconds), c.Continue(version=v)))
    return plan


def due(plan: list[Wake], kind: str) -> Wake | None:
    """The wake of one kind in a plan, if any."""
    return next((w for w in plan if w.kind == kind), None)
