"""Every pair of house rules, each with its main options, plays clean on top
of `official` and of `reglas-de-uno` (RULES.md §6: no combination may leave
the player to move without a legal move).

Each pair plays 12 random three-player rounds through the simulator, which
checks the invariants after every move (a legal move always exists and is
accepted, one player to move, no card created or lost), with the players
whose turn it is not saying UNO, catching and jumping in at random. The
policy is random with a lean to playing (`eager_policy`), so a round ends
in tens of moves rather than the thousands of uniform random play.
"""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from unobot.simulate import eager_policy, simulate
from unobot.variants import VariantError, resolve

#: label -> (rule, options): every house rule, and its options that change
#: what a turn may be.
HOUSE: dict[str, tuple[str, dict[str, Any]]] = {
    "stacking": ("stacking", {}),
    "stacking-all-forced": ("stacking", {
        "draw_two_on_draw_two": True, "draw_four_on_draw_four": True,
        "draw_four_on_draw_two": True, "draw_two_on_draw_four": True, "optional": False}),
    "stacking-four-on-two-forced": ("stacking", {"draw_four_on_draw_two": True, "optional": False}),
    "seven-o": ("seven-o", {}),
    "seven-o-optional": ("seven-o", {"mandatory": False}),
    "jump-in": ("jump-in", {}),
    "jump-in-wilds-pending": ("jump-in", {"wilds": True, "onto_pending": True}),
    "draw-to-match": ("draw-to-match", {}),
    "draw-to-match-stop-early": ("draw-to-match", {"may_stop_early": True}),
    "force-play": ("force-play", {}),
    "no-bluffing": ("no-bluffing", {}),
    "must-play": ("must-play", {}),
    "no-action-finish": ("no-action-finish", {}),
    "progressive-scoring": ("progressive-scoring", {}),
    "color-first": ("color-first", {}),
    "draw-until-playable": ("draw-until-playable", {}),
    "draw-until-playable-must": ("draw-until-playable", {"may_keep_drawing": False}),
    "places": ("one-winner", {"places": True}),
    # The rules of issue 11 (from here on: NEW, see pairs()).
    "deflect": ("deflect", {}),
    "multi-play-runs": ("multi-play", {"same_colour_runs": True}),
    "hand-limit": ("hand-limit", {"limit": 10}),
    "strict-uno": ("strict-uno", {}),
    "false-uno": ("false-uno", {}),
    "elimination": ("elimination", {}),
    "mercy": ("mercy", {"limit": 12}),
    "teams": ("teams", {}),
    "blitz": ("blitz", {}),
    "shuffle-seats": ("shuffle-seats", {}),
    "random-colour": ("random-colour", {}),
    "auto-colour": ("auto-colour", {}),
    "double-score": ("double-score", {}),
    "no-wild-finish": ("no-action-finish", {"forbid": "wild"}),
    "no-draw-finish": ("no-action-finish", {"forbid": "draw"}),
    "value-stacking-forced": ("value-stacking", {"optional": False}),
    "no-mercy-cards": ("no-mercy-cards", {}),
    "no-mercy-cards-added": ("no-mercy-cards", {"deck": "added"}),
    "shuffle-hands": ("shuffle-hands", {}),
}

#: Pairs of rules that refuse to be on together (`conflicts`): `unobot
#: variants` says so, and the sweep leaves them out.
CONFLICTING = [{"elimination", "teams"}, {"elimination", "progressive-scoring"},
               {"teams", "progressive-scoring"}, {"random-colour", "auto-colour"}]

#: What a rule needs turned off to be on at all (a conflict, not a choice).
MAKES_ROOM = {"no-bluffing": {"challenge": False},
              "draw-to-match": {"draw-until-playable": False},
              "draw-until-playable": {"draw-to-match": False}}


def overrides_for(labels: tuple[str, ...]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for label in labels:
        rule, options = HOUSE[label]
        for name, value in MAKES_ROOM.get(rule, {}).items():
            out.setdefault(name, value)
    for label in labels:
        rule, options = HOUSE[label]
        out[rule] = {**out.get(rule, {}), **options} if isinstance(out.get(rule), dict) else dict(options)
    return out


#: The labels from "deflect" on: on top of `reglas-de-uno` they are swept
#: alone and in pairs among themselves (every pair of them with the older
#: rules is swept on top of `official`), to keep the sweep's time reasonable.
NEW = list(HOUSE)[list(HOUSE).index("deflect"):]


def pairs() -> list[Any]:
    found = []
    for base in ("official", "reglas-de-uno"):
        if base != "official":
            found += [pytest.param(base, overrides_for((a,)), id=f"{base}:{a}") for a in NEW]
        for a, b in itertools.combinations(HOUSE, 2):
            if HOUSE[a][0] == HOUSE[b][0]:
                continue  # two settings of one rule
            if base != "official" and (a in NEW) != (b in NEW):
                continue  # an old rule with a new one: swept on `official`
            rules = overrides_for((a, b))
            if {HOUSE[a][0], HOUSE[b][0]} == {"draw-to-match", "draw-until-playable"}:
                continue  # they conflict by design: `unobot variants` says so
            if {HOUSE[a][0], HOUSE[b][0]} in CONFLICTING:
                continue
            found.append(pytest.param(base, rules, id=f"{base}:{a}+{b}"))
    return found


def test_the_sweep_covers_every_house_rule() -> None:
    from unobot.registry import available_rules

    # unobot's own house rules (the example plugin's rules are a third party's).
    house = {n for n, cls in available_rules().items()
             if not cls.base and cls.__module__.startswith("unobot.plugins.")}
    assert house <= {rule for rule, _ in HOUSE.values()}, house - {rule for rule, _ in HOUSE.values()}


@pytest.mark.parametrize(("base", "rules"), pairs())
def test_pair_plays_clean(base: str, rules: dict[str, Any]) -> None:
    try:
        resolve(base, rules)
    except VariantError as exc:  # pragma: no cover - the pairs above are all allowed
        pytest.fail(f"the pair does not load: {exc}")
    report = simulate(base, 3, 12, seed=11, policies=[eager_policy] * 3, overrides=rules,
                      out_of_turn=0.5, max_moves=5_000)
    assert report.games == 12 and report.moves > 12 * 3
    assert sum(report.wins) + report.unfinished == report.rounds


@pytest.mark.parametrize(("base", "players", "seed"), [("party", 2, 132777), ("reglas-de-uno", 2, 743780)])
def test_a_hand_limit_round_always_ends(base: str, players: int, seed: int) -> None:
    """Every hand at the limit with nothing to play used to pass the turn
    round the table for ever (these seeds reached it: 20,000 moves of draws
    that brought nothing). The round is blocked and ends (`round_blocked`)."""
    report = simulate(base, players, 4, seed=seed, policies=[eager_policy] * players,
                      overrides={"hand-limit": {"limit": 10}, "multi-play": {"same_colour_runs": True}},
                      out_of_turn=0.5, max_moves=20_000, match=True, max_rounds=60)
    assert report.unfinished == 0 and sum(report.wins) == report.rounds
