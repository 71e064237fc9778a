"""No action finish: a player may not go out on an action or wild card;
the last card must be a number.

`forbid` says which last cards are refused: `action` (the default: every
card but a number), `wild` (no-wild-finish: only wilds are refused) or
`draw` (no-draw-finish: only draw cards, +2, +4 and the like, are refused).
A player whose only card is refused draws as usual.
"""

from collections.abc import Mapping
from typing import Any, Literal

from unobot import N_, PLAY, Card, GameState, Move, Rule, dataclass, errors, hookimpl, option

NO_WILD_FINISH = "no_wild_finish"
NO_DRAW_FINISH = "no_draw_finish"


class NoActionFinish(Rule):
    name = "no-action-finish"
    checks = (PLAY,)
    title = {"en": "Finish on a number", "es": "Terminar con un número"}
    refusals = {NO_WILD_FINISH: N_("You may not go out on a wild card."),
                NO_DRAW_FINISH: N_("You may not go out on a draw card.")}

    #: The title when `forbid` narrows the rule: "Finish on a number" would
    #: be false of a variant (crazy) that refuses only draw cards last.
    titles = {"wild": N_("No finishing on a wild card"), "draw": N_("No finishing on a draw card")}

    @classmethod
    def label_with(cls, options: Mapping[str, Any], lang: str = "en") -> str:
        title = cls.titles.get(str(options.get("forbid", "action")))
        return cls.translated(title, lang) if title else cls.label(lang)

    @dataclass(frozen=True)
    class Options:
        forbid: Literal["action", "wild", "draw"] = option(
            "action", title="Refused last cards", help="last cards refused: action, wild or draw cards",
            words={"action": "action cards", "wild": "wild cards", "draw": "draw cards"})

    def refused(self, card: Card) -> str | None:
        forbid = self.options.forbid
        if forbid == "wild":
            return NO_WILD_FINISH if card.is_wild else None
        if forbid == "draw":
            return NO_DRAW_FINISH if card.draw else None
        return None if card.is_number else errors.NO_ACTION_FINISH

    @hookimpl(tryfirst=True)
    def check_move(self, state: GameState, move: Move) -> str | None:
        card = move.card
        if move.kind == PLAY and card is not None and len(state.hands[move.player]) == 1:
            return self.refused(card)
        return None
