"""Typed play (core/chat/grammar.py): every card of every shipped deck typed back
as it is shown, in both languages; the lines that read two ways; plugin kinds."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from unobot import N_, CardKind, Rule, register_rule, unregister_rule
from unobot.cards import COLOR_NAMES, KINDS, Card, kind_of, parse_card
from unobot.chat import commands as c
from unobot.chat.grammar import Ambiguous, Refusal, deck_of, numbered_hand, parse, parse_hand
from unobot.chat.i18n import LANGUAGES
from unobot.chat.render import card_code, card_name, card_symbol, color_name
from unobot.variants import VARIANTS_DIR, rules_for

LANGS = ("en", "es")
SHIPPED = sorted(p.stem for p in VARIANTS_DIR.glob("*.yaml"))


def play(text: str, color: str | None = None, target: str | None = None, uno: bool = False) -> c.Play:
    return c.Play(card=text, color=COLOR_NAMES[color] if color else None, target=target, uno=uno)


def deck(variant: str, players: int = 4) -> list[Card]:
    rules = rules_for(variant)
    cards = list(rules.build_deck(players))
    for extra in rules.more_cards(players):
        cards += extra
    return cards


def test_the_shipped_variants_are_all_here() -> None:
    assert {"official", "no-mercy", "crazy", "official-2018", "reglas-de-uno", "party", "fast"} <= set(SHIPPED)


@pytest.mark.parametrize("variant", SHIPPED)
def test_every_card_of_every_deck_reads_back_by_name_code_and_symbol(variant: str) -> None:
    """Holding every card of the deck at once (the hardest case: any second
    reading of a line would be held too), each card's name as `card_name`
    shows it, in English and in Spanish, its code as shown and its symbol
    (with its colour, for a coloured card) read back as that card, in either
    reader's language."""
    cards = numbered_hand(deck(variant))
    in_deck = set(cards)
    assert len(cards) >= 54
    failures = []
    for card in cards:
        lines = {card_name(card, lang) for lang in LANGS} | {card_code(card, lang) for lang in LANGS}
        symbol = card_symbol(card)
        if card.is_wild:
            lines.add(symbol)
        else:
            lines |= {f"{symbol} {color_name(card.color, lang)}" for lang in LANGS}
            lines |= {f"{card.color}{symbol}"}
        for line in lines:
            for lang in LANGS:
                got = parse_hand(line, cards, lang, in_deck)
                if got != play(card.text):
                    failures.append((variant, card.text, line, lang, got))
    assert not failures, failures[:10]


@pytest.mark.parametrize("variant", ["no-mercy", "crazy", "official-2018"])
def test_the_cards_the_testers_could_not_type(variant: str) -> None:
    cards = numbered_hand(deck(variant))
    in_deck = set(cards)
    lines = {
        "no-mercy": [("Wild Reverse Draw Four blue", play("WR+4", "B")), ("Wild +10 red", play("W+10", "R")),
                     ("Red Discard All", play("RDA")), ("Blue Skip Everyone", play("BSA")),
                     ("⇄+4 green", play("WR+4", "G")), ("Comodín reversa roba cuatro azul", play("WR+4", "B")),
                     ("Descarta todo rojo", play("RDA")), ("Salta a todos azul", play("BSA")),
                     ("Wild Colour Roulette yellow", play("WCR", "Y")), ("+6 rojo", play("W+6", "R"))],
        "crazy": [("Wild Reverse Draw Four blue", play("WR+4", "B")), ("Wild +10 red", play("W+10", "R")),
                  ("Red Discard All", play("RDA")), ("Blue Skip Everyone", play("BSA")),
                  ("Wild Shuffle Hands", play("WSH"))],
        "official-2018": [("Wild Shuffle Hands green", play("WSH", "G")), ("Comodín personalizable", play("WCU")),
                          ("wcu rojo", play("WCU", "R"))],
    }[variant]
    for line, meant in lines:
        for lang in LANGS:
            assert parse_hand(line, cards, lang, in_deck) == meant, (line, lang)


def test_a_line_that_names_two_held_cards_is_asked() -> None:
    """`+4 azul` is the No Mercy Blue +4's Spanish name and the Wild Draw Four's
    code with a colour: asked when both are held, else the one held."""
    both = [parse_card(t) for t in ("B+4", "W+4", "R5")]
    readings = (play("B+4"), play("W+4", "B"))
    for lang in LANGS:
        got = parse_hand("+4 azul", both, lang, set(both))
        assert isinstance(got, Ambiguous) and set(got.readings) == set(readings), lang
        assert parse_hand("+4 azul", both[1:], lang, set(both)) == play("W+4", "B")
        assert parse_hand("+4 azul", [both[0], both[2]], lang, set(both)) == play("B+4")
    # a deck without a coloured +4 reads only the Wild Draw Four
    assert parse_hand("+4 azul", both, "es", set(deck("official"))) == play("W+4", "B")
    # a number that reads two ways: card 2 (a wild) in yellow, or the Yellow 2
    hand = [parse_card(t) for t in ("Y2", "W", "B7")]
    assert parse_hand("2 amarillo", hand, "es") == Ambiguous((play("W", "Y"), play("Y2")), 2)
    # a kind named alone: the one held, or asked which
    skips = [parse_card(t) for t in ("RS", "BS", "G1")]
    assert parse_hand("⊘", skips, "en") == Ambiguous((play("RS"), play("BS")))
    assert parse_hand("skip", skips[1:], "en") == play("BS")


def test_a_card_name_is_not_read_as_a_shorter_card_and_a_target() -> None:
    hand = [parse_card(t) for t in ("BS", "BSA", "R1")]
    assert parse_hand("Blue Skip Everyone", hand, "en") == play("BSA")
    assert parse_hand("Blue Skip Ada", hand, "en") == play("BS", target="Ada")
    assert parse_hand("play R1 ben", hand, "en") == play("R1", target="ben")


def test_commands_and_refusals() -> None:
    hand = [parse_card(t) for t in ("R5", "W")]
    assert parse_hand("d", hand, "en") == c.Draw() and parse_hand("robar", hand, "en") == c.Draw()
    assert parse_hand("dp", hand, "es") == c.Draw(then_play=True)
    assert parse_hand("2 uno", hand, "en") == play("W", uno=True)
    assert parse_hand("color verde", hand, "en") == c.NameColor(color="green")
    for line in ("fly away", "9", "play", "1 2", "²"):
        for lang in LANGS:
            got = parse_hand(line, hand, lang)
            assert isinstance(got, Refusal) and got.message, (line, lang)
    assert "fly" in parse_hand("fly away", hand, "es").message  # type: ignore[union-attr]
    assert parse_hand("fly", hand, "es") != parse_hand("fly", hand, "en")  # said in the reader's language


def test_parse_takes_the_hand_and_deck_from_the_table() -> None:
    """`parse(line, table, person, lang)`: the hand numbered as the console
    numbers it, the table's deck limiting what a name reads as."""
    from unobot.chat.service import ChatService
    from unobot.store import MemoryStore

    async def game() -> object:
        service = ChatService(MemoryStore())
        me = c.Person("p1", "Ada", is_admin=True)
        for cmd in (c.SetVariant("no-mercy"), c.NewGame(variant="no-mercy"), c.AddAI(count=2), c.Start()):
            out = await service.handle("chat", me, cmd)
            assert out.ok, out
        return out.table

    table = asyncio.run(game())
    game_state = table.game  # type: ignore[attr-defined]
    seat = table.seat_of("p1")  # type: ignore[attr-defined]
    hand = numbered_hand(game_state.hands[seat])
    assert parse("1", table, "p1", "en") == play(hand[0].text)
    assert deck_of(game_state) == set(deck("no-mercy"))
    assert parse("+4 azul", table, "p1", "es") in (play("B+4"), Ambiguous((play("B+4"),)))


def test_the_example_plugins_card_kind_is_typed_like_any_other() -> None:
    card = parse_card("GSE")
    assert card.kind is not None and card.kind.rule == "skip-everyone"
    hand = [card, parse_card("R1")]
    for line in ("Green Skip Everyone", "Salta a todos verde", "GSE", "gse", "verde salta a todos", "SE green"):
        for lang in LANGS:
            assert parse_hand(line, hand, lang) == play("GSE"), (line, lang)
    assert card_symbol(card) == "SE"  # it declares no symbol: its rank is its face


BOMB = "BM"
PO = '''msgid ""
msgstr ""
"Content-Type: text/plain; charset=utf-8\\n"
"Language: es\\n"

msgid "Bomb"
msgstr "Bomba"

msgid "Red Bomb"
msgstr "Bomba roja"

msgid "Yellow Bomb"
msgstr "Bomba amarilla"

msgid "Green Bomb"
msgstr "Bomba verde"

msgid "Blue Bomb"
msgstr "Bomba azul"

msgid "Kaboom"
msgstr "Pum"
'''


@pytest.fixture
def bomb_rule(tmp_path: Path) -> Iterator[type[Rule]]:
    """A plugin kind with a symbol, per-colour names and its own catalogue."""
    folder = tmp_path / "locale" / "es" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "bombs.po").write_text(PO, encoding="utf-8")

    class Bombs(Rule):
        name = "test-bombs"
        title = {"en": "Bombs"}
        locale = ("bombs", str(tmp_path / "locale"))
        cards = (CardKind(BOMB, name=N_("Bomb"), symbol="💣",
                          color_names={"R": N_("Red Bomb"), "Y": N_("Yellow Bomb"), "G": N_("Green Bomb"),
                                       "B": N_("Blue Bomb")},
                          words=(N_("Kaboom"),)),)

    register_rule(Bombs)
    try:
        yield Bombs
    finally:
        unregister_rule(Bombs.name)
        KINDS.pop(BOMB, None)  # other tests count the kinds there are


def test_a_plugin_kind_declares_its_symbol_and_its_names_per_colour(bomb_rule: type[Rule]) -> None:
    red = parse_card("RBM")
    assert kind_of(red).symbol == "💣" and card_symbol(red) == "💣" and card_code(red, "es") == "RBM"
    assert card_name(red, "en") == "Red Bomb"
    assert card_name(red, "es") == "Bomba roja"  # gender and word order from the rule's catalogue
    assert card_name(parse_card("YBM"), "es") == "Bomba amarilla"
    hand = [red, parse_card("YBM"), parse_card("R1")]
    for line, meant in (("Bomba roja", "RBM"), ("bomba amarilla", "YBM"), ("Red Bomb", "RBM"), ("r💣", "RBM"),
                        ("💣 rojo", "RBM"), ("RBM", "RBM"), ("kaboom red", "RBM"), ("pum amarillo", "YBM")):
        for lang in LANGS:
            assert parse_hand(line, hand, lang) == play(meant), (line, lang)
    assert parse_hand("💣", hand, "en") == Ambiguous((play("RBM"), play("YBM")))


def test_a_plugin_kind_is_checked_when_declared() -> None:
    with pytest.raises(ValueError):
        CardKind("+2")  # a built-in rank
    with pytest.raises(ValueError):
        CardKind("💣")  # the code stays ASCII: the symbol is what is shown
    with pytest.raises(ValueError):
        CardKind("XX", color_names={"W": "Wild X"})


def test_built_in_kinds_declare_theirs_the_same_way() -> None:
    assert kind_of(parse_card("RS")).symbol == "⊘" and kind_of(parse_card("GR")).symbol == "⇄"
    assert card_symbol(parse_card("B+2")) == "+2" and card_symbol(parse_card("W+4")) == "+4"
    assert card_symbol(parse_card("WR+4")) == "⇄+4"  # not `R+4`, which reads as the Red +4
    assert card_name(parse_card("W+6"), "en") == "Wild Draw Six"
    assert card_name(parse_card("W+10"), "es") == "Comodín roba diez"
    assert card_name(parse_card("R+2"), "es") == "Roba dos rojo"
    assert kind_of(parse_card("W+8")).face == "+8"  # a draw rank declared nowhere: its rank
    assert card_name(parse_card("W+8"), "en") == "Wild +8"


def test_a_card_typed_as_the_hand_shows_a_pair_plays_one() -> None:
    """The hand shows two identical cards once with their count ("Green 2 ×2"); typed
    back as shown it is a play of that card (the count read as a target before)."""
    hand = [parse_card(t) for t in ("G2", "G2", "R5", "W")]
    for lang in LANGS:
        shown = f"{card_name(parse_card('G2'), lang)} ×2"
        assert parse_hand(shown, hand, lang, set(hand)) == c.Play(card="G2"), lang
    wild = f"{card_name(parse_card('W'), 'en')} {color_name('B', 'en')} ×1"
    assert parse_hand(wild, hand, "en", set(hand)) == c.Play(card="W", color="blue")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_plugins_move_is_typed_by_its_title_in_the_readers_language(lang: str) -> None:
    """The offers and `help` show a plugin's move by its title in the
    reader's language (`Постучать по столу`); that title is read, in any
    case, with what follows it kept (multi-play's cards). Only the English
    kind (`knock`) was read: a Russian player who typed what they read was
    told "unknown command". A card or a command is never taken for a move."""
    from unobot.chat.grammar import plugin_move_text, plugin_move_word
    from unobot.chat.render import plugin_move_title
    from unobot.registry import available_rules

    assert {"knock", "multi-play"} <= set(available_rules())  # the example plugin is installed
    hand = numbered_hand([Card.get("G", "5"), Card.get("B", "5")])
    for kind in ("knock", "multi"):
        title = plugin_move_title(kind, lang)
        word = plugin_move_word(kind, kind, lang)
        assert word == (kind if lang == "en" else title), (lang, word)
        assert parse_hand(word, hand, lang) == c.PluginMove(text=kind), (lang, word)
        assert parse_hand(title.upper(), hand, lang) == c.PluginMove(text=kind), (lang, title)
    assert parse_hand(f"{plugin_move_title('multi', lang)} G5 B5", hand, lang) == c.PluginMove(text="multi G5 B5")
    assert plugin_move_text(["2"], lang) is None and isinstance(parse_hand("2", hand, lang), c.Play)
    assert isinstance(parse_hand("draw", hand, lang), c.Draw)


@pytest.mark.parametrize(("lang", "line", "text"), [
    ("fr", "Jouer plusieurs cartes R5 V5", "multi R5 G5"),  # V: vert
    ("es", "Jugar varias cartas A5 Az5", "multi Y5 B5"),    # A: amarillo, Az: azul
    ("es", "multi R5 V5 B5", "multi R5 G5 B5"),
    ("de", "Mehrere Karten spielen R5 G5", "multi R5 G5"),  # the codes shown read as shown
    ("en", "multi R5 G5 ada", "multi R5 G5 ada"),
])
def test_a_plugin_moves_cards_are_read_in_the_readers_short_forms(lang: str, line: str, text: str) -> None:
    """Seen in a console game of crazy in French: `Jouer plusieurs cartes R5
    V5`, the cards in the short forms a French player types anywhere else,
    was refused with "No such player in this game" (the engine reads codes
    only, and took `V5` for a target)."""
    hand = numbered_hand([Card.get(color, "5") for color in "RYGB"])
    assert parse_hand(line, hand, lang) == c.PluginMove(text=text)


@pytest.mark.parametrize(("lang", "line"), [("es", "¡UNO!"), ("es", "¡uno!"), ("en", "UNO!"), ("fr", "UNO !"),
                                            ("it", "uno!")])
def test_uno_is_read_as_the_texts_write_it(lang: str, line: str) -> None:
    """Spanish shows the call as `¡UNO!` ("Ada (IA): ¡UNO!"); a player who
    typed it so, or `UNO!`, was told "Comando desconocido: '¡UNO!'"."""
    hand = numbered_hand([Card.get("Y", "7"), Card.get("G", "S")])
    assert parse_hand(line, hand, lang) == c.SayUno()
    assert parse_hand(f"2 {line}", hand, lang) == play("GS", uno=True)
