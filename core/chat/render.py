"""Turning cards, events and refusals into text in a language.

Everything here is plain text; adapters add their own markup (colours in
the console, emoji and HTML in Telegram).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from ..cards import Card, CardKind, kind_of
from ..errors import CODES
from ..events import Event
from .i18n import LANGUAGES, N_, Msg, gettext_for, joined, ngettext_for, normalize
from .typed import COLOR_TITLES, COLOR_WORDS, color_of
from .unconfirmed import NOT_CONFIRMED

COLOR_EMOJI = {"R": "🟥", "G": "🟩", "B": "🟦", "Y": "🟨", None: "⬛"}



def color_from_text(word: str) -> str | None:
    """The colour letter a command's colour names (`red`, `R`, or a colour
    word of any language: the catalogues' typed words, core/chat/typed.py)."""
    return color_of(word)


def color_name(color: str | None, lang: str | None) -> str:
    _ = gettext_for(lang)
    if color is None:
        return _("any colour")
    return _(COLOR_WORDS[color])


def card_name(card: Card, lang: str | None) -> str:
    """`Red 5`, `Green Draw Two`, `Wild Draw Four` / `5 rojo`, `Roba dos verde`,
    `Comodín roba cuatro`: the names the card's kind declares (`CardKind`:
    `color_names`, else `names` or `name` with the colour), in `lang`."""
    kind = kind_of(card)
    if card.color is not None and card.color in kind.color_names:
        return kind_text(kind, kind.color_names[card.color], lang)
    _ = gettext_for(lang)
    name = kind_name(kind, lang)
    if card.is_wild:
        return name or _("Wild {rank}").format(rank=card.rank)
    return _("{color} {rank}").format(color=_(COLOR_TITLES[card.color or "R"]), rank=name or card.rank)


def kind_name(kind: CardKind, lang: str | None) -> str:
    """A kind's own name in `lang` (`names`, else `name` through its catalogue), "" for none."""
    name = kind.names.get(normalize(lang)) if kind.names else None
    if name is None and kind.name:
        name = kind_text(kind, kind.name, lang)
    return name or ""


def kind_text(kind: CardKind, msgid: str, lang: str | None) -> str:
    """One of a kind's texts in `lang`: unobot's catalogue for its own kinds,
    the declaring rule's (`Rule.locale`) for a plugin's."""
    if not kind.rule:
        return gettext_for(lang)(msgid)
    from ..registry import available_rules
    from .i18n import rule_text

    return rule_text(available_rules().get(kind.rule), msgid, lang)


def card_code(card: Card, lang: str | None = None) -> str:
    """The card's short code as shown to a player and typed back (`R5`, `G+2`,
    `WR+4`): its text, the same in every language and in the stored format."""
    return card.text


def card_symbol(card: Card) -> str:
    """What the card's face shows (its kind's `symbol`, else its rank): `5`,
    `⊘`, `⇄`, `+2`, `W`, `⇄+4`."""
    return kind_of(card).face


def card_label(card: Card, lang: str | None) -> str:
    """Short form plus name, as inline results show it: `R5 · Red 5`."""
    return f"{card_code(card, lang)} · {card_name(card, lang)}"


#: The commands core's texts name ("Start one with /new", "for example /top week"), as a
#: chat that types them spells them: the vocabulary each front-end gives in its own words
#: (`commands=`: Discord's `/uno new`, the console's typed words, the web's buttons).
TYPED_COMMANDS: Mapping[str, str] = {"new": "/new", "stop": "/stop", "rules": "/rules", "variant": "/variant",
                                     "top": "/top"}


def error_text(code: str, lang: str | None, commands: Mapping[str, str] | None = None) -> str:
    """A refusal's text in `lang`. `commands` spells the commands it names as
    the front-end offers them (Discord's `/uno new`, not `/new`), over
    `TYPED_COMMANDS`: a refusal that names a command nobody there has leaves
    them stuck."""
    _ = gettext_for(lang)
    text = CODES.get(code) or CHAT_ERRORS.get(code)
    if text:
        if "{" not in text:
            return _(text)
        # Which languages there are is not a translation's to say: it is the catalogues shipped.
        return _(text).format(languages=", ".join(LANGUAGES), **{**TYPED_COMMANDS, **(commands or {})})
    return plugin_refusal(code, lang) or _("That move is not allowed now.")


def store_error_code(exc: BaseException) -> str:
    """The refusal code for a store that cannot serve now: ``store_refusing``
    when its server answered (full, read-only, changing servers), else
    ``store_unavailable`` (why two: "not reachable" of a server that answered
    sends people looking in the wrong place)."""
    from ..store import StoreRefusing, StoreSlow, StoreUnconfirmed

    if isinstance(exc, StoreUnconfirmed):  # applied, not confirmed: see core/chat/unconfirmed.py
        return "store_unconfirmed"
    if isinstance(exc, StoreSlow):  # sent, not answered: it may still count
        return "store_slow"
    return "store_refusing" if isinstance(exc, StoreRefusing) else "store_unavailable"


#: A store outage on a store that keeps nothing on disk: no "nothing was lost".
FORGETFUL_OUTAGE = N_("The game store is not reachable right now. Try again shortly. It keeps nothing "
                      "on disk: if it restarted, the running games are gone.")
#: A store outage while the platform will deliver the command again until the store
#: is back (`delivery.Redelivery`: a Telegram webhook answered 503): no "try again".
REDELIVERED_OUTAGE = N_("The game store is not reachable right now. I will handle this as soon as it "
                        "is back: no need to send it again.")


def failure_text(exc: BaseException, lang: str | None, *, keeps_nothing: bool = False,
                 commands: Mapping[str, str] | None = None) -> str:
    """What a person is told when their message could not be handled, the
    same on every front-end: the store's outage (without "nothing was lost"
    when the store keeps nothing on disk: it may have lost every game), its
    damaged data, else a plain "try again" (the cause is the log's)."""
    from ..store import StoreDataError, StoreUnavailable

    _ = gettext_for(lang)
    if isinstance(exc, StoreUnavailable):
        code = store_error_code(exc)
        forgetful = keeps_nothing and code in ("store_unavailable", "store_refusing")
        return _(FORGETFUL_OUTAGE) if forgetful else error_text(code, lang, commands)
    if isinstance(exc, StoreDataError):
        return error_text("store_data", lang, commands)
    return _("Something went wrong. Please try again.")


#: Refusals of the chat layer (the engine's own are core.errors.CODES).
CHAT_ERRORS = {
    "store_unconfirmed": NOT_CONFIRMED,
    "no_game": N_("There is no game here. Start one with {new}."),
    "rules_unavailable": N_("This game's rules cannot be loaded: a rule plugin it uses is missing or "
                            "broken. An admin can end the game with {stop} and start a new one."),
    "game_running": N_("A game is already running here."),
    # "Play again" under a match while another game waits for players (opened with /new since)
    "lobby_open": N_("Another game is already waiting for players here: join that one instead."),
    # "Play again" under a match the chat's records no longer keep (long ago, or forgotten)
    "again_gone": N_("That match is no longer kept, so it cannot be played again. Start a new game with {new}."),
    "not_in_game": N_("You are not playing in this game."),
    "already_joined": N_("You are already in this game."),
    "game_full": N_("This game is full (10 players)."),
    "not_in_lobby": N_("The game has already started."),
    "not_started": N_("The game has not started yet."),
    "too_few_players": N_("At least two players are needed to start."),
    "not_allowed_admin": N_("Only the game's creator or an admin can do that."),
    "not_admin": N_("Only an admin can change the rules here."),
    "stale": N_("That choice is out of date; open your hand again."),
    "bad_card": N_("That is not a card. Cards look like R5, G+2, BS, YR, W, W+4."),
    "bad_color": N_("That is not a colour. Say red, green, blue or yellow."),
    "bad_player": N_("No such player at this table."),
    # a plugin move's word that is no card, colour or seat (`multi R5 X5` said "No such player")
    "bad_move_word": N_("That move names something that is neither a card nor a player at this table."),
    "unknown_variant": N_("There is no variant of that name; {variant} lists them."),
    "variant_rules_clash": N_("The house rules here do not fit that variant; an admin changes them with {rules}."),
    "lobby_rules_clash": N_("This game cannot start with the house rules here as they are now: an admin turns one "
                            "of them off with {rules}, or stops this game with {stop} and opens another with {new}."),
    "unknown_rule": N_("There is no rule of that name."),
    "bad_option": N_("That option does not fit the rule."),
    "rule_conflict": N_("That rule conflicts with one that is on; turn the other off first."),
    # (a chat that typed /timer 7200 was set to an hour without a word)
    "bad_timer": N_("A turn timer is from 1 to 3600 seconds (an hour), or off. Nothing was changed."),
    "timer_running": N_("The player still has time."),
    "no_timer": N_("There is no turn timer in this game."),
    "store_unavailable": N_("The game store is not reachable right now. Try again shortly; nothing was lost."),
    "store_refusing": N_("The game store cannot save right now (full, or changing servers). "
                         "Try again shortly; nothing was lost."),
    "store_slow": N_("The game store answered too slowly. Your move may still count: look at the table "
                     "before you make it again."),
    "store_data": N_("The game data here was damaged and has been set aside. Start a new game with {new}."),
    "busy": N_("Too many moves at once; please try again."),
    "round_not_over": N_("The round is still being played."),
    "bad_language": N_("Languages available: {languages}."),
}


class EventText(Msg):
    """An event's line kept for its reader (`describe_event` in their
    language when shown), with the seats' names as they were when it happened."""

    __slots__ = ("event", "names")

    def __init__(self, event: Event, names: Sequence[str]) -> None:
        super().__init__(event.kind)
        self.event = event
        self.names = tuple(names)

    def text(self, lang: str | None = None) -> str:
        return describe_event(self.event, self._name, lang) or ""

    def _name(self, seat: int) -> str:
        return self.names[seat] if 0 <= seat < len(self.names) else "?"


def describe_event(e: Event, name: Callable[[int], str], lang: str | None) -> str | None:
    """One public line for an event, or None for events not worth a line."""
    _ = gettext_for(lang)
    ngettext = ngettext_for(lang)
    k = e.kind
    p = name(e.player) if e.player >= 0 else ""
    o = name(e.other) if e.other >= 0 else ""
    card = card_name(e.card, lang) if e.card is not None else ""
    if k == "card_played":
        return _("{player} played {card}.").format(player=p, card=card)
    if k == "color_chosen":
        return _("{player} chose {color}.").format(player=p, color=color_name(e.color, lang))
    if k == "cards_drawn":
        return ngettext("{player} drew a card.", "{player} drew {n} cards.", e.n).format(player=p, n=e.n)
    if k == "turn_skipped":
        return _("{player} is skipped.").format(player=p)
    if k == "direction_reversed":
        return _("The direction of play is reversed.")
    if k == "penalty_pending":
        return _("{player} must draw {n}, or answer it.").format(player=p, n=e.n)
    if k == "penalty_taken":
        return ngettext("{player} takes {n} card.", "{player} takes {n} cards.", e.n).format(player=p, n=e.n)
    if k == "passed":
        return _("{player} passes.").format(player=p)
    if k == "challenge_won":
        # The bluffer's draw is told by its own event (`penalty_taken`, with
        # the cards actually drawn): "{other} draws 4." here told it twice.
        return _("{player} challenged {other}'s Wild Draw Four: a bluff!").format(player=p, other=o)
    if k == "challenge_lost":
        return _("{player} challenged {other}'s Wild Draw Four and lost.").format(player=p, other=o)
    if k == "uno_said":
        return _("{player}: UNO!").format(player=p)
    if k == "uno_caught":
        return _("{player} caught {other} without UNO!").format(player=p, other=o)
    if k == "hands_swapped":
        return _("{player} swapped hands with {other}.").format(player=p, other=o)
    if k == "hands_rotated":
        return _("Every hand passes to the next player.")
    if k == "deck_reshuffled":
        return _("The discard pile is shuffled into a new draw pile.")
    if k == "deck_empty":
        return _("There are no cards left to draw.")
    if k == "jumped_in":
        return _("{player} jumps in!").format(player=p)
    if k == "starter":
        return _("The first card is {card}.").format(card=card)
    if k == "starter_returned":
        return _("{card} goes back into the deck.").format(card=card)
    if k == "player_out":
        return _("{player} is out of cards!").format(player=p)
    if k == "player_left":
        return _("{player} left the game.").format(player=p)
    if k == "round_won":
        return ngettext("{player} wins the round and scores {n} point!", "{player} wins the round and scores {n} points!",
                        e.n).format(player=p, n=e.n)
    if k == "match_won":
        return ngettext("{player} wins the match with {n} point!", "{player} wins the match with {n} points!",
                        e.n).format(player=p, n=e.n)
    if k == "timed_out":
        return _("{player} ran out of time.").format(player=p)
    if k == "round_started":
        return _("Round {n} begins.").format(n=e.n)
    if k in ("turn", "scores"):
        return None
    return plugin_event_text(e, p, o, card, lang)


def plugin_event_text(e: Event, player: str, other: str, card: str, lang: str | None) -> str | None:
    """The line a rule declared for an event kind of its own
    (`Rule.event_texts`), in the reader's language; None for a kind nobody
    declared (adapters then show nothing rather than an internal name)."""
    from ..registry import EVENT_TEXTS, declared
    from .i18n import rule_text

    rule = declared(EVENT_TEXTS, e.kind)
    if rule is None:
        return None
    text = rule_text(rule, rule.event_texts[e.kind], lang, e.n)
    try:
        return text.format(player=player, other=other, n=e.n, card=card,
                           color=color_name(e.color, lang) if e.color else "")
    except (KeyError, IndexError, ValueError):
        return text  # a placeholder the rule's author mistyped: show the text as it is


def plugin_refusal(code: str, lang: str | None) -> str | None:
    """The message a rule declared for a refusal code of its own (`Rule.refusals`)."""
    from ..registry import REFUSALS, declared
    from .i18n import rule_text

    rule = declared(REFUSALS, code)
    return rule_text(rule, rule.refusals[code], lang) if rule is not None else None


def plugin_move_title(kind: str, lang: str | None) -> str:
    """The title a rule declared for a move kind of its own (`Rule.move_kinds`)."""
    from ..registry import MOVE_KINDS, declared
    from .i18n import rule_text

    rule = declared(MOVE_KINDS, kind)
    return rule_text(rule, rule.move_kinds[kind], lang) if rule is not None else kind


def plugin_move_hint(kind: str, lang: str | None) -> str:
    """What a move kind of a rule's own does, as its rule said (`Rule.move_hints`), or ""."""
    from ..registry import MOVE_KINDS, declared
    from .i18n import rule_text

    rule = declared(MOVE_KINDS, kind)
    hint = rule.move_hints.get(kind, "") if rule is not None else ""
    return rule_text(rule, hint, lang) if rule is not None and hint else ""


def describe_private(e: Event, lang: str | None) -> str | None:
    """The line only the event's player sees (the cards they drew)."""
    if not e.cards:
        return None
    _ = gettext_for(lang)
    cards = joined((card_name(c, lang) for c in e.cards), lang)
    return _("You drew: {cards}.").format(cards=cards)
