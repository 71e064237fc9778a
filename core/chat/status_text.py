"""A table's public status message as plain text: what every front-end's
status says, block by block, in the table's language.

Why in core: Telegram's status message and Discord's were two copies of the
same assembly (the title with its round, the top card with its colour
mark, the lobby's instructions, the target, the turn timer, the last moves,
"press My cards"), and they had drifted (Discord showed five last moves,
Telegram four). A front-end now only marks it up: `title` bold, each line
escaped its own way; an empty line separates blocks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from .i18n import gettext_for, ngettext_for
from .match_text import match_length
from .render import COLOR_EMOJI, error_text
from .rules_refusals import missing_detail
from .table import FINISHED, LOBBY, PLAYING, Table
from .views import (
    round_clock_line,
    round_headline,
    round_length_line,
    rules_problem,
    status_lines,
    table_view,
)

#: How many of the last moves a status shows.
RECENT_LINES = 5


@dataclass(frozen=True)
class StatusText:
    """A status message's parts, unmarked."""

    #: Who won the round or match that just ended (above the title), if asked for.
    headline: str | None
    title: str
    lines: list[str] = field(default_factory=list)
    #: Nothing can be pressed any more (the game was stopped, the lobby closed, an
    #: old message closed). A match that ended is not final: "Play again" is on it.
    final: bool = False


def status_text(table: Table, *, notes: Sequence[str] = (), line: str = "", headline: bool = False,
                recent: bool = True, final: bool = False, rules: str = "/rules",
                now: float | None = None, live_clock: Callable[[float], str] | None = None,
                commands: Mapping[str, str] | None = None) -> StatusText:
    """The table's status (public facts only: never a card in anybody's hand).
    `notes`: lines an outcome adds (shown unless a last move says them
    already); `line`: why the game is gone, right under the title;
    `headline`: the round's result above the title; `recent`: the last moves;
    `rules`: the front-end's command that shows the rules, as the lobby names
    it (Telegram's `/rules`, Discord's `/uno rules`: a lobby that named a
    command the platform does not have sent people to nothing); `now`: the
    service's clock, for the time a rule's round clock leaves (blitz: "⏱ Round
    ends in 3 minutes"; without it, no such line); `live_clock`: how the
    front-end writes a moment `left` seconds from now so that its app counts
    it down (Discord's `<t:UNIX:R>`), for the round's clock; None: core's
    words, which go stale between two edits; `commands`: the front-end's
    spelling of the commands a line names (`render.error_text`'s), for the
    /stop a game whose rules are gone asks an admin for."""
    lang = table.lang
    _ = gettext_for(lang)
    view = table_view(table, lang)
    facts = status_lines(view, lang)
    title = facts[0]
    if table.game is not None and view.round > 1:
        title += " · " + _("round {n}").format(n=view.round)
    out: list[str] = [line] if line else []
    if table.phase == LOBBY and not table.seats:
        out.append(_("The lobby is closed."))
        final = True
    else:
        for i, fact in enumerate(facts[1:]):
            first = i == 0 and view.top is not None and table.phase != LOBBY
            out.append(f"{COLOR_EMOJI.get(view.color, '⬛')} {fact}" if first else fact)
    if table.phase == LOBBY and table.seats:
        # Who presses Start, by name: when the creator leaves the lobby the next person
        # seated becomes it (`lobby`'s leave), and "the creator" no longer says who that
        # is; with nobody holding it any seated player may start (`lobby.start`).
        creator = table.seat_of(table.creator)
        if creator is not None:
            out.append(_("Press Join to play; {player} presses Start. {rules} shows the rules.").format(
                player=table.seats[creator].name, rules=rules))
        else:
            out.append(_("Press Join to play; anyone seated can press Start. {rules} shows the rules.").format(
                rules=rules))
        if view.target:
            out.append("🏁 " + str(match_length(lang, target=view.target, lowest=view.lowest_wins)))
    seconds = view.turn_seconds
    if seconds and table.phase in (LOBBY, PLAYING):
        ngettext = ngettext_for(lang)
        out.append("⏱ " + ngettext("{n} second per turn", "{n} seconds per turn", seconds).format(n=seconds))
    if table.phase == LOBBY and view.round_seconds:  # said before the deal: who joins knows rounds are timed
        out.append(round_length_line(view.round_seconds, lang))
    if view.round_ends is not None and now is not None:
        left = max(0.0, view.round_ends - now)
        out.append(round_clock_line(left, lang, live_clock(left) if live_clock is not None else None))
    last = view.recent[-RECENT_LINES:] if recent and table.phase != LOBBY else []
    if last:
        out += ["", *(f"· {move}" for move in last)]
    said = set(view.recent)
    extra = [n for n in notes if n not in said]
    if extra:
        out += ["", *extra[-3:]]
    gone = rules_gone_line(table, lang, commands)
    if gone:  # nothing can be played: say why and what an admin can do, not "press My cards"
        out += ["", gone]
    elif table.phase == PLAYING:
        out += ["", _("Press “My cards” to see your hand and play.")]
    return StatusText(round_headline(table) if headline else None, title, out, final)


def rules_gone_line(table: Table, lang: str, commands: Mapping[str, str] | None = None) -> str:
    """Why a game being played cannot go on here (its rules cannot be loaded:
    a rule plugin gone since the deal, named with its package when known)
    and what an admin can do (`commands` spells the /stop), or "" when it
    can. Every front-end shows the same line where it would invite a move."""
    gone = rules_problem(table.game) if table.phase == PLAYING and table.game is not None else None
    if gone is None:
        return ""
    detail = missing_detail(gone)
    return "⚠️ " + (detail.text(lang) + " " if detail is not None else "") + \
        error_text("rules_unavailable", lang, commands)


def stopped_text(table: Table, line: str) -> StatusText:
    """The status of a game that is gone (stopped, its lobby expired): its
    title and `line`, why; nothing left to press or to read."""
    return StatusText(None, status_text(table).title, [line], final=True)


def stop_line(notices: Sequence[str]) -> str:
    """Why a stopped game is gone, as its status message says it: every
    notice of the stop, one a line (who stopped it, then what the rules
    report at the match's end). One decision, so no front-end keeps only
    part of it."""
    return "\n".join(notices)


def outcome_text(table: Table, line: str = "", *, rules: str = "/rules", now: float | None = None,
                 live_clock: Callable[[float], str] | None = None,
                 commands: Mapping[str, str] | None = None) -> StatusText:
    """The status an accepted command leaves on the table's message: a game
    that ended with `line` (a stop, a lobby nobody started) shows only that;
    any other, the full status under the round's headline (`rules`, `now`,
    `live_clock` and `commands` as in `status_text`)."""
    if table.phase == FINISHED and line:
        return stopped_text(table, line)
    return status_text(table, headline=True, rules=rules, now=now, live_clock=live_clock, commands=commands)
