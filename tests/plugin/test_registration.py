"""«Взятки» (``tests/plugin/tricks.py``), a game that lives in the tests alone, joins a library
of games (``server.games.Library``) a test builds: the command-line tools, the Mini App's seat
view and its texts, the chat's glossary then know it, and the next test does not. Nothing
outside ``tests/`` names it."""

from __future__ import annotations

import dataclasses
import random

import pytest

from game.cards import shuffled_deck
from game.randomplay import random_action
from game.tools import tools_for
from server.games import OFFERED, Library, Offered
from tests.library import CHAT, GAMES, PAGES, TOOLS, library_with, rules_for
from tests.plugin import highcard, tricks
from web.texts import page_texts
from web.view_parts import TableInfo
from web.views import lobby_view

NAMES = ("Вера", "Bob", "Алиса")


def test_the_tools_find_a_game_of_the_list_they_are_handed_and_no_other() -> None:
    """The command-line tools know the games they are given (``GameTools``), and only those:
    the program's (``server.games``), or a library's with a toy among them."""
    assert [game.rules.kind for game in TOOLS] == [game.rules.kind for game in GAMES]
    with pytest.raises(ValueError):
        tools_for(TOOLS, tricks.KIND)
    for nothing in ("registry", "ai", "game.stukolka", "../stukolka", "", "nope"):
        with pytest.raises(ValueError):
            tools_for(TOOLS, nothing)
    library = library_with(tricks.OFFERED)
    found = tools_for(library.tools, tricks.KIND)
    assert found.rules is tricks.RULES and found.computer is tricks.COMPUTER
    assert found.terminal is None and found.simulation is None and found.replay is None


def test_a_deal_of_the_toy_is_played_through_its_rules() -> None:
    """What a tool does with a stored game of any kind: every step through its rules."""
    rules = rules_for(tricks.KIND)
    rng = random.Random(3)
    state, _ = rules.start({"stake": 2}, 3, shuffled_deck(3), dealer=0, pot=0)
    moves = 0
    while (seat := state.to_act) is not None:
        action = random_action(seat, state.legal(), state.holding(seat).cards, rng)
        step = state.apply(action)
        state = rules.load(state.to_json())
        moves += 1
    assert moves == 3 * tricks.CARDS
    assert step.deal_over and step.game_over
    assert sum(t.amount for t in step.transfers) == 2 * 2 * tricks.CARDS


def test_the_page_shows_a_toy_seat_through_the_generic_view() -> None:
    state, _ = tricks.RULES.start({"stake": 1}, 3, shuffled_deck(5), dealer=0, pot=0)
    assert isinstance(state, tricks.TricksState)
    info = TableInfo(names=NAMES, version=4)
    library = library_with(tricks.OFFERED)
    page = library.pages.of(tricks.KIND)
    view = page.view(state, 1, info)
    assert view["game"] == view["choice"] == tricks.KIND
    assert view["to_act"] == 1 and view["you"] == 1 and view["version"] == 4
    assert sorted(c["card"] for c in view["hand"]["cards"]) == sorted(state.hands[1])
    assert all(c["verb"] == "lead" for c in view["hand"]["cards"])
    assert view["prompt"]["key"] == "tricks.prompt"
    other = page.view(state, 2, info)
    assert other["prompt"] is None and {c["verb"] for c in other["hand"]["cards"]} == {None}
    assert lobby_view(page, {"stake": 1}, 0, info)["choice"] == tricks.KIND


def test_the_page_serves_a_shown_games_texts_only() -> None:
    library = library_with(tricks.OFFERED)
    texts = page_texts("ru", library.pages)["texts"]
    assert texts["tricks.prompt"] == "Ваш ход: карта в взятку."
    assert "opt.tricks.stake" not in texts  # not a family the page names
    assert not any(key.startswith("tricks.") for key in page_texts("ru", PAGES)["texts"])
    # its texts left with it
    assert "tricks.prompt" not in page_texts("ru", PAGES)["texts"]


def test_a_game_the_page_does_not_show_has_no_page() -> None:
    library = library_with(Offered(highcard.GAME, highcard.PLUGIN))
    assert highcard.KIND in library.games and highcard.KIND not in library.pages
    with pytest.raises(ValueError):
        library.pages.of(highcard.KIND)
    assert tricks.KIND not in PAGES


def test_a_library_refuses_games_that_clash() -> None:
    """Each game once, its /new words and callback codes its own, each presentation of its own
    entry's game, its tools the definition's own rules and computers."""
    stukolka, starshina = OFFERED
    assert stukolka.tools is not None
    for clashing in (
        (stukolka, stukolka),
        (stukolka, Offered(stukolka.game, starshina.chat)),
        (stukolka, Offered(starshina.game, starshina.chat, stukolka.page)),
        (stukolka, dataclasses.replace(tricks.OFFERED, game=highcard.GAME)),
        (dataclasses.replace(stukolka, tools=starshina.tools), starshina),
        (dataclasses.replace(stukolka, tools=dataclasses.replace(stukolka.tools, computer=None)),),
    ):
        with pytest.raises(ValueError):
            Library(clashing)


class _Glossaries:
    """The one thing the glossary reads and writes: the words each player has met."""

    def __init__(self) -> None:
        self.stored: dict[int, dict[str, list[int]]] = {}

    async def glossary(self, user_id: int) -> dict[str, list[int]]:
        return dict(self.stored.get(user_id, {}))

    async def set_glossary(self, user_id: int, met: dict[str, list[int]], *, now: float) -> None:
        self.stored[user_id] = dict(met)


async def test_a_game_brings_the_words_the_glossary_explains() -> None:
    from typing import cast

    from bot.screens.glossary import Glossary
    from storage.chat_display import ChatDisplay

    words = {"gloss.trick": "ℹ️ A trick: one card from each.", "gloss.word.trick": "trick"}
    texts = {**tricks.GAME.texts, "en": {**tricks.GAME.texts["en"], **words}}
    game = dataclasses.replace(tricks.GAME, texts=texts)
    worded = dataclasses.replace(tricks.PLUGIN, game=game, terms=("trick",))
    before = CHAT.terms
    assert "trick" not in before and "shleif" in before
    library = library_with(Offered(game, worded))
    assert library.chat.terms == (*before, "trick")
    glossary = Glossary(
        cast(ChatDisplay, _Glossaries()), library.chat.terms, library.games.words, lambda: 0.0
    )
    assert await glossary.lines(1, "en", "Your <b>trick</b>", 7, 0) == "\n\n" + words["gloss.trick"]
    assert await glossary.lines(1, "en", "Your trick", 8, 0) == ""  # explained once
    # the words are the library's: the program's own glossary knows no «trick»
    assert "gloss.trick" not in GAMES.words.catalogue("en")
