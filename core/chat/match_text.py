"""How long a match lasts and how it ended, in words.

Why in core: how long a match lasts ("First to 500 points", or "ends after
3 rounds" for a match of a set number of rounds, as `unobot play --rounds`
plays) is said under the intro, the scores and the rules; who won is said
when the match ends by the target, or by its last round, where the leaders
are the winners (sharing it when tied). Those are the table's facts told
the same way wherever a front-end tells them; the front-end only styles them.
"""

from __future__ import annotations

from collections.abc import Sequence

from .i18n import gettext_for, joined, ngettext_for
from .views import PlayerLine, TableView


def match_length(lang: str, *, rounds: int | None = None, target: int | None = None,
                 lowest: bool = False) -> str | None:
    """How the match ends: after `rounds` rounds when set (it wins over
    the target), else at `target` points; None when neither. `lowest`: the
    rules rank a lower score better (progressive scoring), so reaching the
    target ends the match and the lowest total wins it."""
    if rounds:
        ngettext = ngettext_for(lang)
        return ngettext("The match ends after {n} round.", "The match ends after {n} rounds.",
                        rounds).format(n=rounds)
    _ = gettext_for(lang)
    if target and lowest:
        return _("The match ends when someone reaches {n} points; the lowest total wins.").format(n=target)
    return _("First to {n} points wins the match.").format(n=target) if target else None


def by_standing(players: Sequence[PlayerLine], lowest: bool = False) -> list[PlayerLine]:
    """The players best first: by their place when the rules give one
    (elimination's: who left later is ahead), then by score, highest first
    or lowest first when the rules rank a lower score better (what a score
    table lists)."""
    return sorted(players, key=lambda p: (p.place, p.score if lowest else -p.score))


def rounds_result(view: TableView, lang: str, hidden: Sequence[str] = ()) -> str:
    """The match of a set number of rounds is over: who leads wins (or the
    leaders share the lead); players in `hidden` (a watcher's own seat, left) are not counted."""
    ngettext = ngettext_for(lang)
    players = [p for p in view.players if p.id not in hidden]
    best = (min if view.lowest_wins else max)(p.score for p in players)
    leaders = [p.name for p in players if p.score == best]
    if len(leaders) == 1:
        return ngettext("After {n} round, {player} wins with {points} points!",
                        "After {n} rounds, {player} wins with {points} points!", view.round).format(
            n=view.round, player=leaders[0], points=best)
    return ngettext("After {n} round, {players} share the lead with {points} points.",
                    "After {n} rounds, {players} share the lead with {points} points.",
                    view.round).format(n=view.round, players=joined(leaders, lang), points=best)


def match_winner(view: TableView, lang: str) -> str | None:
    """"Ada wins the match with 512 points!", or None when nobody won it."""
    winner = next((p for p in view.players if p.seat == view.winner), None)
    if winner is not None and view.placed:  # won by outlasting the others (elimination keeps no points)
        _ = gettext_for(lang)
        return _("{player} wins the match!").format(player=winner.name)
    ngettext = ngettext_for(lang)
    return None if winner is None else ngettext("{player} wins the match with {n} point!",
                                                "{player} wins the match with {n} points!", winner.score).format(
        player=winner.name, n=winner.score)
