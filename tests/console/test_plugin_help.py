"""`help` in the console lists what the rules in play add, through a pty.

A plugin's move (`knock`) and card (Skip Everyone, `RSE`) were offered on
screen and read when typed, but `help` listed only unobot's own moves: the
person had no way to learn the move's word or the card's code there. Core
gives the rows (`typed_help.rule_rows`), in the reader's language; a move
is listed (and typed) by its title in that language too, not only its
English kind.
"""

from __future__ import annotations

import pytest

from tests.support.redis_server import RedisServer
from unobot.cards import parse_card
from unobot.chat.i18n import gettext_for
from unobot.chat.render import card_name, plugin_move_title
from unobot.chat.typed_help import rule_rows
from unobot.variants import rules_for

from .helpers import Stage, stage_game
from .test_staged import Screen


@pytest.mark.parametrize("lang", ["en", "es"])
def test_rule_rows_name_the_plugins_moves_and_cards(lang: str) -> None:
    rules = rules_for("official", {"knock": {}, "skip-everyone": {}, "blitz": {}})
    rows = dict(rule_rows(rules, lang))
    assert rows[knock_word(lang)] == plugin_move_title("knock", lang)
    assert rows["RSE"] == card_name(parse_card("RSE"), lang)
    assert "time_up" not in rows  # blitz's clock: the chat's own move, never typed
    assert rule_rows(rules_for("official"), lang) == []


@pytest.mark.parametrize("lang", ["en", "es"])
def test_the_console_help_lists_the_plugins_move_and_card(lang: str, server: RedisServer) -> None:
    _ = gettext_for(lang)
    stage_game(server.url, Stage(hands=("RSE G1 B2", "R7 G8 B9"), top="R9"), lang=lang,
               rules=("knock", "skip-everyone"))
    screen = Screen(server.url, lang)
    screen.until_move()
    text, _label = screen.type(_("help"))
    lines = [" ".join(line.split()) for line in text.splitlines()]
    assert f"{knock_word(lang)} {plugin_move_title('knock', lang)}" in lines, text
    assert f"RSE {card_name(parse_card('RSE'), lang)}" in lines, text
    # The move is typed as the help shows it: its title in the reader's language.
    text, _label = screen.type(plugin_move_title("knock", lang).lower())
    assert {"en": "knocks on the table", "es": "golpea la mesa"}[lang] in text, text
    screen.type("quit")


def knock_word(lang: str) -> str:
    """The help's row for the example plugin's move: its kind (read in every
    language; its title, read too, is on the right, not said twice)."""
    return "knock"


SHIPPED = ("official", "official-2018", "party", "fast", "reglas-de-uno", "no-mercy", "crazy")


@pytest.mark.parametrize("variant", SHIPPED)
def test_every_shipped_variants_help_names_every_card_it_deals_and_only_its_moves(variant: str) -> None:
    """No Mercy's help had no row for W+6, W+10 or its coloured +4s (cards of
    its deck, not declared kinds), offered a challenge it has no rule for, and
    a multi-play row said its title twice in Spanish. Each card the deck can
    deal is named by the fixed rows' forms or has its own row; each move of
    the rules has a row, and no row offers a move no rule allows."""
    from unobot.cards import Card
    from unobot.chat.typed_help import move_rows
    from unobot.engine import _deck

    rules = rules_for(variant)
    for lang in ("en", "es"):
        rows = [*move_rows(lang, rules), *rule_rows(rules, lang)]
        said = " ".join(f"{left} {right}" for left, right in rows)
        for card in set(_deck(rules, 4)):
            named = card.rank in (*"0123456789", "S", "R", "+2") if not card.is_wild else card.rank in ("", "+4")
            code = card.text if card.is_wild else Card.get("R", card.rank).text
            assert named or any(left == code for left, _right in rows), (variant, lang, card.text, rows)
        assert ("challenge" in rules.rules) == any("Wild Draw Four played on you" in r or "+4 que te han jugado" in r
                                                  for _l, r in rows), (variant, lang)
        for rule in rules.rules.values():
            for kind in type(rule).move_kinds:
                if kind not in type(rule).system_moves:
                    row = next(r for r in rows if r[0].split()[0] == kind)
                    assert row[0] != row[1] and plugin_move_title(kind, lang) not in row[0], row
        assert len({left for left, _right in rows}) == len(rows), said  # no row twice
