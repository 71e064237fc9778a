"""Rule scenarios: YAML files that set a table up, play moves and state what
must be true afterwards (the format of shared/scenarios.md, which is a
contract). `unobot scenario FILE_OR_DIR...` and the pytest collector in
tests/conftest.py both run them through `run_scenario`.

Beyond the contract the runner accepts, in `setup`: `scores` (match totals
before the round, `{player: points}`), `uno` (players who already said
UNO) and `pending_draw` with `pending_rank` (a total already pending on the
player to move), and a step key `note:` (ignored; for readers).

It also checks what a rule says and keeps (docs/scenarios.md, "beyond the
contract"): `expect: {events: [...]}` (the events of the last move, by kind
and fields and by their text in a language), `round_data` / `match_data`
(a rule's `state.ext` / `state.match` keys), a refusal's text beside its
code (`error_text:`), and `PLAYER: leave` (the player leaves the match, as
a chat's /leave does).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cards import Card, CardError, known_cards, parse_card, parse_color
from .chat.i18n import N_, Msg, gettext_for, ngettext_for, render
from .cli_text import os_problem
from .engine import apply, deal_round, remove_player, rules_of, setup_round
from .errors import MoveError
from .events import MATCH_WON, Event
from .moves import parse_move
from .state import MATCH_OVER, GameState
from .variants import VariantError, load_yaml_with_lines


class ScenarioError(Exception):
    """The scenario file itself is malformed. `where`: the key path of the
    value at fault (its line is looked up), `fix`: how to write it. Both texts
    are `Msg`s, said in the author's language by `Result.describe` (`str()`:
    English); the keys, card codes and values they name stay as written."""

    def __init__(self, message: str | Msg, where: tuple[str, ...] = (), fix: str | Msg = "") -> None:
        self.msg = message if isinstance(message, Msg) else Msg.plain(message)
        super().__init__(self.msg.text())
        self.where, self.fix = where, fix


@dataclass
class Failure:
    step: int | None
    #: What went wrong: a `Msg` said in the reader's language (`Result.describe`), or
    #: a text as the runner or the YAML reader wrote it (it names keys and codes).
    message: str | Msg
    line: int | None = None
    #: How to fix it (a `Msg` in the reader's language, or a text as it is).
    fix: str | Msg = ""


@dataclass
class Result:
    name: str
    path: str
    failures: list[Failure] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not self.failures

    def describe(self, lang: str | None = None) -> str:
        """The result as `unobot scenario` prints it. Each scenario's line starts `PASS`
        or `FAIL` and its path in every language (scripts read those); where a failure
        is and how to fix it are said in `lang` (the author's locale). The failures'
        own texts are said in `lang` too; the keys, card codes and values they name stay as
        the file wrote them."""
        if self.passed:
            return f"PASS {self.path}: {self.name}"
        _ = gettext_for(lang)
        lines = [f"FAIL {self.path}: {self.name}"]
        for f in self.failures:
            where = _("step {n}").format(n=f.step) if f.step is not None else _("scenario")
            if f.line:
                where = _("{where} (line {line})").format(where=where, line=f.line)
            lines.append("  " + _("{where}: {problem}").format(where=where, problem=render(f.message, lang)))
            if f.fix:
                lines.append(f"    {_('fix:')} {render(f.fix, lang)}")
        return "\n".join(lines)


#: How a card is written, for a card the runner cannot read (alone, and after the nearest codes).
CARD_FORM = N_("a card is its colour letter (R, G, B, Y) and its rank (0-9, S skip, R reverse, +2), "
               "or W and W+4 for the wilds")
CARD_MEANT = N_("did you mean {codes}? A card is its colour letter (R, G, B, Y) and its rank (0-9, S skip, "
                "R reverse, +2), or W and W+4 for the wilds")


def summary_line(passed: int, failed: int, lang: str | None) -> str:
    """`unobot scenario`'s last line, "6 passed, 0 failed", each count in the reader's
    plural forms (one template: another language orders the two its own way)."""
    ngettext = ngettext_for(lang)
    return gettext_for(lang)(N_("{passed}, {failed}")).format(
        passed=ngettext("{n} passed", "{n} passed", passed).format(n=passed),
        failed=ngettext("{n} failed", "{n} failed", failed).format(n=failed))


def card_fix(text: str, variant: str = "official", overrides: dict[str, Any] | None = None,
             players: int = 4) -> Msg:
    """How to write a card the runner could not read: the nearest codes of
    the variant's deck, how a card is written, and the variant's cards of
    other kinds (a plugin's, No Mercy's) by their codes.

    Why: "unknown card 'X9'" alone sends a scenario's author looking for the
    format; a broken variant names its nearest keys the same way."""
    import difflib

    from .engine import _deck
    from .variants import rules_for

    try:
        codes = sorted({c.text for c in _deck(rules_for(variant, overrides), players)})
    except Exception:  # a variant that does not load: said by the setup's own failure; any card then
        codes = sorted({c.text for c in known_cards()})
    wanted = text.strip().upper()
    close = difflib.get_close_matches(wanted, codes, n=4, cutoff=0.5)
    others = [code for code in codes if not _PLAIN_CARD.fullmatch(code)]
    meant: str | Msg = Msg(N_("{first} or {second}"), first=", ".join(close[:-1]), second=close[-1]) \
        if len(close) > 1 else close[0] if close else ""
    said = Msg(CARD_MEANT, codes=meant) if meant else Msg(CARD_FORM)
    if others:
        return Msg(N_("{fix}; this variant's other cards: {cards}"), fix=said, cards=", ".join(others))
    return said


_PLAIN_CARD = re.compile(r"[RGBY]([0-9SR]|\+2)|W|W\+4")


def _cards(value: Any, what: str, where: tuple[str, ...] = (), table: tuple[str, dict[str, Any] | None, int] |
           None = None) -> list[Card]:
    """`value`'s cards; an unknown one is refused with its key path (for its
    line) and how to write it (`card_fix`, for `table`'s variant, overrides
    and players)."""
    if value is None:
        return []
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list):
        raise ScenarioError(Msg(N_("{key} must be a list of cards"), key=what), where)
    cards = []
    for i, v in enumerate(value):
        try:
            cards.append(parse_card(str(v)))
        except CardError:
            fix = card_fix(str(v), *(table or ("official", None, 4)))
            raise ScenarioError(Msg(N_("{key}: unknown card {card}"), key=what, card=repr(str(v))),
                                (*where, str(i)), fix) from None
    return cards


def _direction(value: Any) -> int:
    if value in (None, "clockwise", "cw", 1):
        return 1
    if value in ("counterclockwise", "anticlockwise", "ccw", -1):
        return -1
    raise ScenarioError(Msg(N_("{key} must be {one} or {other}, not {value}"), key="direction", one="clockwise",
                            other="counterclockwise", value=repr(value)))


def _color(value: Any) -> str | None:
    if value is None:
        return None
    try:
        return parse_color(str(value))
    except CardError:
        raise ScenarioError(Msg(N_("unknown colour {value}"), value=repr(value)),
                            fix=Msg(N_("a colour is {colours}"), colours="R, G, B, Y (red, green, blue, yellow)")) from None


def build_table(data: dict[str, Any], base_dir: Path | None = None) -> GameState:
    """The state a scenario's `setup` describes."""
    players = data.get("players")
    if not isinstance(players, list) or len(players) < 2:
        raise ScenarioError(Msg(N_("{key} must list at least two names"), key="players"), ("players",))
    players = [str(p) for p in players]
    variant = str(data.get("variant", "official"))
    if base_dir is not None and variant.endswith((".yaml", ".yml")) and not Path(variant).is_absolute():
        candidate = base_dir / variant
        if candidate.exists():
            variant = str(candidate)
    overrides = data.get("rules") or None
    seed = int(data.get("seed", 0))
    setup = data.get("setup") or {}
    if not isinstance(setup, dict):
        raise ScenarioError(Msg(N_("{key} must be a mapping"), key="setup"), ("setup",))
    if "deal" in setup:
        deal = setup["deal"] or {}
        dealer = str(deal.get("dealer", players[-1]))
        if dealer not in players:
            raise ScenarioError(Msg(N_("{key}: {name} is not a player"), key="deal.dealer", name=repr(dealer)),
                                ("setup", "deal", "dealer"), _players_fix(players))
        state = GameState(variant, players, seed, overrides)
        state.dealer = players.index(dealer)
        rules_of(state)
        deck = _cards(deal.get("deck"), "deal.deck", ("setup", "deal", "deck"), (variant, overrides, len(players)))
        try:
            deal_round(state, deck)
        except ValueError as exc:
            raise ScenarioError(Msg.plain(str(exc))) from None
    else:
        hands_raw = setup.get("hands") or {}
        unknown = set(map(str, hands_raw)) - set(players)
        if unknown:
            raise ScenarioError(Msg(N_("{key}: hands for unknown players: {names}"), key="hands",
                                    names=", ".join(sorted(unknown))), ("setup", "hands"), _players_fix(players))
        table = (variant, overrides, len(players))
        hands = [_cards(hands_raw.get(p), f"hands.{p}", ("setup", "hands", p), table) for p in players]
        discard = _cards(setup.get("discard"), "discard", ("setup", "discard"), table)
        if not discard:
            raise ScenarioError(Msg(N_("{key} needs a discard pile (at least the top card)"), key="setup"),
                                ("setup",), Msg(N_("for example {example}"), example="discard: [R3]"))
        draw = _cards(setup.get("draw"), "draw", ("setup", "draw"), table)
        turn_name = str(setup.get("turn", players[0]))
        if turn_name not in players:
            raise ScenarioError(Msg(N_("{key}: {name} is not a player"), key="turn", name=repr(turn_name)),
                                ("setup", "turn"), _players_fix(players))
        state = setup_round(
            variant, players, hands, discard, draw, players.index(turn_name),
            _direction(setup.get("direction")), _color(setup.get("color")), seed, overrides,
        )
    for name, pts in (setup.get("scores") or {}).items():
        state.scores[players.index(str(name))] = int(pts)
    for name in setup.get("uno") or []:
        state.uno |= 1 << players.index(str(name))
    if setup.get("pending_draw"):
        state.pending = int(setup["pending_draw"])
        state.pending_rank = str(setup.get("pending_rank", "+2"))
    return state


def _seat_name(state: GameState, seat: int) -> str | None:
    return state.players[seat] if seat >= 0 else None


def event_line(state: GameState, event: Event, lang: str) -> str | None:
    """An event as a table reads it in `lang` (the players' names as seated)."""
    from .chat.render import describe_event

    names = state.players

    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else "?"

    return describe_event(event, name, lang)


_EVENT_FIELDS = ("player", "other", "n", "card", "color")


def _event_matches(state: GameState, event: Event, want: dict[str, Any]) -> bool:
    if str(want.get("kind", event.kind)) != event.kind:
        return False
    for key in _EVENT_FIELDS:
        if key not in want:
            continue
        value = want[key]
        if key in ("player", "other"):
            seat = getattr(event, key)
            got = state.players[seat] if 0 <= seat < len(state.players) else None
            if (None if value is None else str(value)) != got:
                return False
        elif key == "n":
            if int(value) != event.n:
                return False
        elif key == "card":
            if event.card is None or parse_card(str(value)) is not event.card:
                return False
        elif _color(value) != event.color:
            return False
    text = want.get("text")
    if text is not None:
        texts = text if isinstance(text, dict) else {"en": text}
        for lang, line in texts.items():
            if event_line(state, event, str(lang)) != str(line):
                return False
    return True


def check_events(state: GameState, events: list[Event], want: Any) -> list[str | Msg]:
    """Mismatches between the events of the last move and `want`: a list
    whose items appear among them in that order (others may come between).
    An item is an event kind (`penalty_pending`) or a mapping with `kind`
    and any of `player`, `other`, `n`, `card`, `color`, and `text` (the
    English line, or `{lang: line}` for each language to check)."""
    if not isinstance(want, list):
        raise ScenarioError(Msg(N_("{key}: a list of event kinds or mappings ({example})"), key="events",
                                example="{kind: ..., text: ...}"))
    items = [{"kind": w} if isinstance(w, str) else w for w in want]
    for item in items:
        if not isinstance(item, dict):
            raise ScenarioError(Msg(N_("{key}: an item is a kind or a mapping, not {item}"), key="events",
                                    item=repr(item)))
        unknown = set(item) - {"kind", "text", *_EVENT_FIELDS}
        if unknown:
            raise ScenarioError(Msg(N_("{key}: unknown key {name}"), key="events", name=repr(sorted(unknown)[0])),
                                fix=Msg(N_("the keys are {keys}"), keys=", ".join(("kind", "text", *_EVENT_FIELDS))))
    at = 0
    for item in items:
        while at < len(events) and not _event_matches(state, events[at], item):
            at += 1
        if at == len(events):
            said = [f"{e.kind}: {event_line(state, e, 'en')}" for e in events]
            return [Msg(N_("{key}: expected {item} (in this order), the last move's events were {events}"),
                        key="events", item=repr(item), events=repr(said))]
        at += 1
    return []


def _expected(key: str, want: Any, got: Any) -> Msg:
    """"hand.ana: expected ['R5'], got ['R5', 'G1']", in the reader's words (the values as written)."""
    return Msg(N_("{key}: expected {want}, got {got}"), key=key, want=repr(want), got=repr(got))


def _check_data(key: str, data: dict[str, Any], want: Any) -> list[str | Msg]:
    if not isinstance(want, dict):
        raise ScenarioError(Msg(N_("{key}: a mapping of a rule's keys and their values"), key=key))
    problems: list[str | Msg] = []
    for name, value in want.items():
        got = data.get(str(name))
        if got != value:
            problems.append(_expected(f"{key}.{name}", value, got))
    return problems


def check_expect(state: GameState, expect: dict[str, Any],
                 events: list[Event] | None = None) -> list[str | Msg]:
    """Every mismatch between `expect` and the state (and `events`, those of
    the last move), as readable messages."""
    problems: list[str | Msg] = []
    names = state.players
    got: Any

    def differ(key: str, want: Any, got: Any) -> None:
        problems.append(_expected(key, want, got))

    for key, want in expect.items():
        if key == "turn":
            got = names[state.turn]
            if str(want) != got:
                differ(key, want, got)
        elif key == "direction":
            got = "clockwise" if state.direction == 1 else "counterclockwise"
            if _direction(want) != state.direction:
                differ(key, want, got)
        elif key == "color":
            if _color(want) != state.color:
                differ(key, want, {"R": "red", "G": "green", "B": "blue", "Y": "yellow"}.get(state.color or ""))
        elif key == "top":
            got = state.top.text if state.top else None
            if parse_card(str(want)) is not state.top:
                differ(key, want, got)
        elif key == "hand":
            for player, cards in (want or {}).items():
                seat = names.index(str(player))
                got = sorted(c.text for c in state.hands[seat])
                wanted = _cards(cards, f"hand.{player}", ("expect", "hand", str(player)),
                                (state.variant, state.overrides, len(names)))
                if Counter(c.text for c in wanted) != Counter(got):
                    differ(f"hand.{player}", cards, got)
        elif key == "hand_size":
            for player, n in (want or {}).items():
                seat = names.index(str(player))
                if len(state.hands[seat]) != int(n):
                    differ(f"hand_size.{player}", n, len(state.hands[seat]))
        elif key == "draw_size":
            if len(state.draw_pile) != int(want):
                differ(key, want, len(state.draw_pile))
        elif key == "pending_draw":
            if state.pending != int(want):
                differ(key, want, state.pending)
        elif key == "winner":
            got = _seat_name(state, state.winner)
            if (None if want is None else str(want)) != got:
                differ(key, want, got)
        elif key == "scores":
            for player, pts in (want or {}).items():
                seat = names.index(str(player))
                if state.scores[seat] != int(pts):
                    differ(f"scores.{player}", pts, state.scores[seat])
        elif key == "players":
            got = [names[s] for s in state.active()]
            if [str(p) for p in want] != got:
                differ(key, want, got)
        elif key == "match_winner":
            champion = state.rules.match_winner(state) if state.phase == MATCH_OVER else None
            if champion is None and state.phase == MATCH_OVER:  # a match the players left
                won = [e.player for e in events or [] if e.kind == MATCH_WON]
                champion = won[-1] if won else None
            got = _seat_name(state, champion if champion is not None else -1)
            if (None if want is None else str(want)) != got:
                differ(key, want, got)
        elif key == "events":
            problems += check_events(state, events or [], want)
        elif key == "round_data":
            problems += _check_data(key, state.ext, want)
        elif key == "match_data":
            problems += _check_data(key, state.match, want)
        else:
            raise ScenarioError(Msg(N_("unknown expectation key {name}"), name=repr(key)), ("expect", str(key)),
                                _keys_fix(str(key), EXPECT_KEYS))
    return problems


def run_scenario_data(data: dict[str, Any], path: str = "<scenario>",
                      lines: dict[tuple[str, ...], int] | None = None) -> Result:
    lines = lines or {}
    name = str(data.get("name", Path(path).stem))
    result = Result(name, path)
    base_dir = Path(path).parent if path != "<scenario>" else None
    try:
        state = build_table(data, base_dir)
    except ScenarioError as exc:
        line = lines.get(exc.where) or lines.get(("setup",))
        result.failures.append(Failure(None, Msg(SETUP_PROBLEM, problem=exc.msg), line, exc.fix))
        return result
    except VariantError as exc:  # the variant or `rules:` named: what is wrong and its fix, in the reader's words
        result.failures.append(Failure(None, Msg(SETUP_PROBLEM, problem=exc.msg), lines.get(("setup",)),
                                       exc.fix_msg or ""))
        return result
    except ValueError as exc:
        result.failures.append(Failure(None, Msg(SETUP_PROBLEM, problem=str(exc)), lines.get(("setup",))))
        return result
    initial = Counter(state.all_cards())
    last_events: list[Event] = []
    steps = data.get("steps") or []
    if not isinstance(steps, list):
        result.failures.append(Failure(None, Msg(N_("steps must be a list"))))
        return result
    for i, step in enumerate(steps, 1):
        line = lines.get(("steps", str(i - 1)))
        if not isinstance(step, dict):
            result.failures.append(Failure(i, Msg(N_("a step is a mapping, not {step}"), step=repr(step)), line))
            return result
        step = {k: v for k, v in step.items() if k != "note"}
        if not step:
            continue  # a note for readers only
        try:
            if set(step) == {"expect"}:
                for problem in check_expect(state, step["expect"] or {}, last_events):
                    result.failures.append(Failure(i, problem, line))
                if result.failures:
                    return result
                continue
            error = step.pop("error", None)
            wanted_text = step.pop("error_text", None)
            if wanted_text is not None and error in (None, False):
                raise ScenarioError(Msg(N_("{key} goes with {other} (the move must be refused)"), key="error_text:",
                                        other="error:"))
            if len(step) != 1:
                raise ScenarioError(Msg(N_("a step is {form} (with optional {error} and {text}), got {keys}"),
                                        form="`PLAYER: MOVE`", error="error:", text="error_text:",
                                        keys=repr(sorted(step))))
            (who, text), = step.items()
            if str(who) not in state.players:
                raise ScenarioError(Msg(N_("{name} is not a player"), name=repr(who)),
                                    fix=_players_fix(state.players))
            seat = state.players.index(str(who))
            before = state.encode()
            try:
                if str(text).strip() == "leave" and error in (None, False):
                    new_state, last_events = remove_player(state, seat)
                else:
                    move = parse_move(str(text), seat, state.players)
                    new_state, last_events = apply(state, move)
            except MoveError as exc:
                if state.encode() != before:
                    result.failures.append(Failure(i, Msg(N_("refused move {move} changed the state"),
                                                          move=repr(text)), line))
                    return result
                if error is None or error is False:
                    unread = exc.detail.startswith("unknown card ")  # the step's card, not the game, is at fault
                    card = exc.detail.split("'")[1] if unread else ""
                    # in the reader's words, as a scenario's own unknown card is said (`_card` above)
                    said: Msg | str = Msg(N_("{key}: unknown card {card}"), key=exc.code, card=repr(card)) \
                        if unread else exc.code
                    fix = card_fix(card, state.variant, state.overrides, len(state.players)) if unread else ""
                    result.failures.append(Failure(i, Msg(N_("{player}: {move} was refused ({said}), expected it "
                                                             "to be accepted"), player=who, move=text, said=said),
                                                   line, fix))
                    return result
                if error is not True and str(error) != exc.code:
                    result.failures.append(Failure(i, Msg(N_("{player}: {move} was refused with {code}, expected "
                                                             "{error}"), player=who, move=text, code=exc.code,
                                                          error=error), line))
                    return result
                texts = wanted_text if isinstance(wanted_text, dict) else \
                    ({} if wanted_text is None else {"en": wanted_text})
                for lang, wanted in texts.items():
                    from .chat.render import error_text

                    said = error_text(exc.code, str(lang))
                    if said != str(wanted):
                        result.failures.append(Failure(i, Msg(
                            N_("{player}: {move} was refused saying {said} ({lang}), expected {wanted}"),
                            player=who, move=text, said=repr(said), lang=lang, wanted=repr(wanted)), line))
                        return result
                last_events = []
                continue
            if error not in (None, False):
                result.failures.append(Failure(i, Msg(N_("{player}: {move} was accepted, expected refusal "
                                                         "({error})"), player=who, move=text, error=error), line))
                return result
            state = new_state
        except ScenarioError as exc:
            at = lines.get(("steps", str(i - 1), *exc.where)) if exc.where else None
            result.failures.append(Failure(i, exc.msg, at or line, exc.fix))
            return result
    if Counter(state.all_cards()) != initial:
        gained = Counter(state.all_cards()) - initial
        lost = initial - Counter(state.all_cards())
        result.failures.append(Failure(None, Msg(N_("cards not conserved: created {gained}, lost {lost}"),
                                                 gained=dict(gained), lost=dict(lost))))
    return result


def load_scenario(path: Path) -> tuple[dict[str, Any], dict[tuple[str, ...], int]]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:  # a mistyped name: said as the others are, not a traceback
        raise ScenarioError(Msg(N_("{path}: {problem}"), path=str(path), problem=Msg(N_("no such file")))) from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ScenarioError(Msg(N_("{path}: {problem}"), path=str(path),
                                problem=Msg(N_("cannot read it: {problem}"), problem=os_problem(exc)))) from None
    try:
        data, lines = load_yaml_with_lines(text, str(path))
    except VariantError as exc:  # YAML that does not parse: its file and line, what is wrong and the fix
        raise ScenarioError(Msg(N_("{path}: {problem}"), path=exc.where, problem=exc.msg), fix=exc.fix_msg or "") \
            from None
    if not isinstance(data, dict):
        raise ScenarioError(Msg(N_("{path}: a scenario is a mapping with players, setup and steps"), path=str(path)))
    return data, lines


def run_scenario(path: Path) -> Result:
    try:
        data, lines = load_scenario(path)
    except ScenarioError as exc:
        return Result(path.stem, str(path), [Failure(None, exc.msg, fix=exc.fix)])
    return run_scenario_data(data, str(path), lines)


#: A fault in `setup:` (or in the variant and rules it plays), before any step.
SETUP_PROBLEM = N_("setup: {problem}")

#: The keys `expect:` takes.
EXPECT_KEYS = ("turn", "direction", "color", "top", "hand", "hand_size", "draw_size", "pending_draw", "winner",
               "scores", "players", "match_winner", "events", "round_data", "match_data")


def _players_fix(players: list[str]) -> Msg:
    """"the players are ana, ben": for a name that is not one of them."""
    return Msg(N_("the players are {names}"), names=", ".join(players))


def _keys_fix(key: str, known: tuple[str, ...]) -> Msg:
    """"did you mean 'hand'?", else the keys there are."""
    import difflib

    close = difflib.get_close_matches(key, known, n=1)
    return Msg(N_("did you mean {name}?"), name=repr(close[0])) if close else \
        Msg(N_("the keys are {keys}"), keys=", ".join(known))


def collect(paths: list[str]) -> list[Path]:
    found: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found.extend(sorted(q for q in path.rglob("*.y*ml") if q.suffix in (".yaml", ".yml")))
        else:
            found.append(path)
    return found
