"""Regenerate docs/hooks.md from core/hookspecs.py (run after changing a hook).

    .venv/bin/python docs/gen_hooks.py
"""

import inspect
from pathlib import Path

from unobot import hookspecs
from unobot.registry import available_rules

INTRO = """# Rule hooks

Every rule point of a turn is a pluggy hook, specified in `core/hookspecs.py`.
A rule implements hooks as methods of a `unobot.Rule` subclass marked with
`@hookimpl`; it may take any subset of a hook's arguments, by name. The rules
every game shares (`base = True`) implement each hook with `trylast=True`, so
a house rule's implementation is asked first. `firstresult` hooks stop at the
first implementation that returns something other than `None`.

Seats (`player`, `victim`, `target`, ...) are indexes into `state.players`.
Hooks that change the game receive the engine's working copy of the state
and a list `events` to append `unobot.Event`s to; question hooks must not
change the state. A hook that raises refuses the move (or the deal) that
asked it with the code `rule_failed`, naming the rule, the hook, its file
and line; nothing changes. (Inside a hook that list hides the module `unobot.events`
of event kinds: import it under another name, `from unobot import events as
kinds`.) The building blocks that call the right hooks for you are part of
the public surface, `from unobot import ...`: `advance`, `draw_cards`,
`penalize` (any pending draw on any player), `take_pending`, `end_round`,
`end_match`, `round_points`.

A round's points are one pipeline (`unobot.round_points`): `score` counts,
every `score_add` adds, every `score_factor` multiplies, in that order,
whatever the order of the rules' hooks. `round_end` is told after every
scored round, `match_end` exactly once however the match ends.

## The state a rule reads (`unobot.GameState`)

| field | what it holds |
|---|---|
| `players` | the seats' names (seats are indexes into this list) |
| `hands[seat]` | each hand, a list of `Card` (interned: compare with `is` or `==`) |
| `draw_pile` | the draw pile, **top last**: `draw_pile[-1]` is drawn next (`pop()`) |
| `discard` | the discard pile, **top last**: `discard[-1]` (or `state.top`) is the card in play |
| `color` | the colour in play (`"R"`, `"Y"`, `"G"`, `"B"`); None only while a Wild starter waits for its colour (`awaiting_color`) |
| `turn`, `direction` | the seat to move; 1 clockwise (seat + 1), -1 the other way |
| `pending`, `pending_rank` | a draw total pending on the player to move, and the rank of the card that made it (`"+2"`, `"+4"`) |
| `drawn`, `draws` | the card drawn this turn (only it may be played, under the official rules) and how many draws this turn |
| `uno`, `exposed` | owned by the `uno-call` rule: a bit per seat that said UNO, and the seat that may be caught (-1: none) |
| `out`, `winner` | seats out of the round (places, elimination) in order; the round's winner (-1 while it goes on) |
| `phase` | `"play"`, `"round_over"` or `"match_over"` |
| `scores`, `round`, `dealer` | match totals per seat, the round number (from 1), the dealer's seat |
| `ext` | rules' own data for this round (cleared when a round is dealt); JSON-able, replace values, never mutate |
| `match` | rules' own data for the whole match (kept from round to round); the same care |
| `rules` | the compiled rule set: `state.rules.next_turn(...)`, `state.rules.options["deck"]`, `state.rules.enabled("stacking")` |

A rule's data belongs to the rule: other rules and adapters ask the rule
(`challenge`'s `bluff_record(state)`), not its keys in `ext`.

The engine calls a compiled rule set (`core/ruleset.py`) that resolves the
implementations once per variant; a hook with a `wrapper=True`
implementation is dispatched by pluggy itself. Each hook below is exercised
by a test named `test_hook_<name>` in `tests/test_hooks.py`. "Implemented
by" names unobot's own rules; a plugin's rules (`tests/example_plugin`) are
not listed.
"""


#: What each hook's implementations return, beyond what the kind implies.
RETURNS = {
    "build_deck": "a list of cards (the whole deck), or None to let the next rule build it",
    "more_cards": "a list of cards to add to the deck (or None: nothing)",
    "hand_size": "a whole number of cards, or None",
    "round_start": "nothing (the return value is ignored); change `state` instead",
    "first_card": "True when the starting card was handled, None to let the next rule",
    "card_fits": "True (fits) or False (does not), or None for no opinion",
    "can_stack": "True or False, or None for no opinion",
    "hold_penalty": "True (the total stays pending on the victim) or False, or None",
    "can_jump_in": "True or False, or None for no opinion",
    "card_targets": "a list of seats (None in it: naming nobody is allowed), or None: the card names nobody",
    "check_move": "True (accept), an error code string (refuse; see core/errors.py and `Rule.refusals`), or None (no opinion)",
    "extra_moves": "a list of moves, or None; every rule's list is offered",
    "before_play": "nothing (ignored)",
    "on_wild": "True when the colour was set, or None",
    "on_play": "True when the card's effect (and passing the turn) was handled, or None",
    "on_swap": "True when handled, or None",
    "on_rotate": "True when handled, or None",
    "on_draw": "True when the draw was handled, or None",
    "cards_to_draw": "the whole number of cards to draw (0 or more), or None to keep `n`",
    "on_drawn_card": "True (the turn stays: the drawn card may be played) or False (the turn passes), or None",
    "on_pass": "True when handled, or None",
    "on_deck_empty": "True when the draw pile was refilled, False when nothing can be drawn, or None",
    "on_challenge": "True when handled, or None",
    "on_uno": "True when handled, or None",
    "on_catch": "True when handled, or None",
    "on_move": "True when the plugin move was applied, or None (no rule applies it: refused with `not_allowed`)",
    "after_move": "nothing (ignored)",
    "next_turn": "the seat that moves next, or None",
    "on_go_out": "True when handled, or None",
    "fit_refusal": "a refusal code (declared in `Rule.refusals`), or None",
    "round_blocked": "True once the round has been ended, or None",
    "score": "a dict {seat: points gained this round}, or None",
    "score_add": "a dict {seat: points to add to the count}, or None; every rule's is added",
    "score_factor": "a number that multiplies the round's points (count + additions), or None; every rule's multiplies",
    "round_end": "nothing (ignored); append events, keep data in `state.match`",
    "match_winner": "the seat that won the match, or None to play another round",
    "match_end": "nothing (ignored); append events (a final report)",
    "turn_seconds": "seconds per turn (0 or None: no timer)",
    "round_seconds": "seconds a round may last (0 or None: no round clock)",
    "time_up": "the move the chat applies when the round's clock rings (a kind in the rule's `system_moves`), or None",
    "on_timeout": "the next move to make for the player, or None (the engine then takes the total or draws one card and passes)",
}


def main() -> None:
    src = inspect.getsource(hookspecs)
    names = [n for n, f in inspect.getmembers(hookspecs, inspect.isfunction) if hasattr(f, "unobot_spec")]
    names.sort(key=lambda n: src.index(f"def {n}("))
    impl: dict[str, list[str]] = {}
    for rule_name, cls in available_rules().items():
        if not cls.__module__.startswith("unobot.plugins."):
            continue  # an installed plugin's rule (the example plugin in a test setup) is not unobot's
        for n in names:
            if n in cls.__dict__:
                impl.setdefault(n, []).append(rule_name)
    out = [INTRO]
    for n in names:
        fn = getattr(hookspecs, n)
        args = ", ".join(inspect.signature(fn).parameters)
        kind = "firstresult" if fn.unobot_spec["firstresult"] else "collected (every result)"
        by = ", ".join(f"`{r}`" for r in sorted(impl.get(n, []))) or "none by default"
        returns = RETURNS[n]  # a new hook needs its return contract here
        out += [f"## {n}({args})", "", f"*Kind:* {kind}. *Implemented by:* {by}.", "",
                f"*Returns:* {returns}.", "", inspect.cleandoc(fn.__doc__ or ""), ""]
    Path(__file__).with_name("hooks.md").write_text("\n".join(out))


if __name__ == "__main__":
    main()
