"""The page's JavaScript names no game's word: no move, no phase, no money reason, no kind.
Every game's verbs, and the page's own (the lobby's, a stopping table's, «I'm back», «▶️ Новая
партия»), reach it only in the view, which describes each move (``web.views``, "Moves"); what a
game's phase means for the page (the play begun) and which money is worth breaking down, the
view says too. A game's word spelled as a string in ``web/static/js`` would be a branch a new
game would need again, and fails here: a verb, a phase of a game (the lobby is the page's own,
a table still gathering), a money reason or its text's key (``money.trick``), a kind or choice.

The words come from the games themselves: random legal play of every registered game (the
toy games of ``tests/plugin`` among them), with options drawn from each game's menu,
collecting the verbs of its legal moves and of every seat's page view, each view's phase, and
the reasons of the money each move moved along the way."""

from __future__ import annotations

import importlib
import importlib.util
import random
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from game.cards import shuffled_deck
from game.randomplay import random_action
from server.games import Library
from tables.games import Plugin
from tests.library import GAMES, PAGES, library_with
from tests.plugin import highcard, tricks
from web.games import PageGames
from web.lobby import LABELS as LOBBY_LABELS
from web.stopping import STOP_VERBS
from web.tables import AGAIN, BACK, LOOK
from web.view_parts import TableInfo
from web.views import seat_view

JS = Path(__file__).resolve().parents[2] / "web" / "static" / "js"
SEEDS = range(12)
#: a string literal of JavaScript: '…', "…" or a template's text between its ${…}
LITERAL = re.compile(r"""(["'])((?:\\.|(?!\1).)*?)\1|`((?:\\.|[^`$]|\$(?!\{))*)""")
#: where a literal that spells a game's word is not about the game: an event's name, a CSS
#: class of the page's own (the trump line's «trump», the cloth's «trick», the dark theme's
#: «dark»), Telegram's colour scheme
NOT_A_MOVE = re.compile(
    r"(addEventListener\(|classList\.\w+\(|className = |el\(\"\w+\", |colorScheme === )$"
)
#: the page's own phase: a table still gathering (``web.views.lobby_view``), no game's
LOBBY = "lobby"


@pytest.fixture(scope="module")
def toys() -> Iterator[Library]:
    """The toy games offered as a game is: their rules, table side and page (the page of
    «Старшая карта» is its own module's, as «Взятки»'s is)."""
    library = library_with(tricks.OFFERED, highcard.OFFERED)
    yield library


def _options(game: Plugin, rng: random.Random) -> dict[str, object]:
    """A table's options: the menu's defaults, some drawn at random from its values, then one
    of the game's choices over them."""
    options: dict[str, object] = dict(game.menu.defaults)
    for name, values in game.menu.values.items():
        if rng.random() < 0.5:
            options[name] = values[int(rng.random() * len(values))]
    choice = game.choices[int(rng.random() * len(game.choices))]
    options.update(choice.preset)
    return dict(game.rules.check_options(options))


@dataclass
class Words:
    """The words of a game that random play meets."""

    verbs: set[str] = field(default_factory=set)
    #: the phases its page's views name
    phases: set[str] = field(default_factory=set)
    #: the reasons of the money its moves moved
    reasons: set[str] = field(default_factory=set)


def game_words(game: Plugin, pages: PageGames, seeds: range = SEEDS, deals: int = 3) -> Words:
    """Every verb random play of ``game`` meets, its legal moves' and those its page's view
    offers any seat (a seat may look at its cards at any time, for one); every phase its
    page's views name; every reason of the money its deals and moves move."""
    words = Words()
    page = pages.of(game.rules.kind) if game.rules.kind in pages else None
    for seed in seeds:
        rng = random.Random(seed)
        players = max(game.rules.min_players, min(4, game.rules.max_players))
        state, step = game.rules.start(
            _options(game, rng), players, shuffled_deck(seed), dealer=0, pot=9
        )
        words.reasons |= {item.reason for item in step.transfers}
        info = TableInfo(names=[f"p{seat}" for seat in range(players)], version=1)
        for deal in range(deals):
            while True:
                if page is not None:
                    for seat in range(players):
                        view = seat_view(page, state, seat, info)
                        words.verbs |= view_verbs(view)
                        words.phases.add(str(view["phase"]))
                seat_to_act = state.to_act
                legal = state.legal()
                words.verbs |= {entry.verb for entry in legal}
                if seat_to_act is None or not legal:
                    break
                held = state.holding(seat_to_act).cards
                step = state.apply(random_action(seat_to_act, legal, held, rng))
                words.reasons |= {item.reason for item in step.transfers}
            if state.game_over or deal == deals - 1:
                break
            state, step = state.next_deal(
                shuffled_deck(f"{seed}:{deal}"),
                pot=9,
                players=players,
                dealer=(state.dealer + 1) % players,
            )
            words.reasons |= {item.reason for item in step.transfers}
    return words


def game_verbs(game: Plugin, pages: PageGames) -> set[str]:
    return game_words(game, pages).verbs


def named_words(game: Plugin, pages: PageGames) -> set[str]:
    """Every word of ``game`` the page may not spell: its verbs, its phases, its money's
    reasons and their texts' keys, its kind and its choices."""
    words = game_words(game, pages)
    named = {*words.verbs, *words.phases, *words.reasons, game.rules.kind}
    named |= {f"money.{reason}{end}" for reason in words.reasons for end in ("", "_in")}
    named |= {name for choice in game.choices for name in (choice.name, *choice.aliases)}
    return named


def view_verbs(view: dict[str, object]) -> set[str]:
    hand = view["hand"]
    pick = view["pick"]
    actions = view["actions"]
    assert isinstance(hand, dict) and isinstance(actions, list)
    verbs = {item["verb"] for item in hand["cards"] if item["verb"]}
    verbs |= {action["verb"] for action in actions}
    if isinstance(pick, dict):
        verbs.add(pick["verb"])
    return verbs


def chat_buttons(kind: str) -> dict[str, str]:
    """A game's moves of no argument as its table side lists them for the chat's buttons
    (``SIMPLE_MOVES`` of its module in ``tables.games``), where it has such a list."""
    name = f"tables.games.{kind}"
    if importlib.util.find_spec(name) is None:
        return {}
    simple: dict[str, str] = getattr(importlib.import_module(name), "SIMPLE_MOVES", {})
    return simple


def page_verbs() -> set[str]:
    """The page's own verbs, beside the games'."""
    return {*LOBBY_LABELS, *STOP_VERBS, BACK, AGAIN, LOOK}


def named_verbs(source: str, verbs: set[str]) -> list[str]:
    """Where ``source`` spells one of ``verbs`` as a string of its own (``"pass"``, a
    template's text), outside the places where such a word names no move."""
    found = []
    for number, line in enumerate(source.splitlines(), 1):
        code = line.split("//", 1)[0] if not line.lstrip().startswith("//") else ""
        for match in LITERAL.finditer(code):
            text = match.group(2) if match.group(1) else match.group(3)
            if text in verbs and not NOT_A_MOVE.search(code[: match.start()]):
                found.append(f"{number}: {line.strip()}")
    return found


def test_every_registered_game_is_played_for_its_verbs(toys: Library) -> None:
    """The verbs the scan looks for: each game's play reaches every move a button of the chat
    offers (a game's ``SIMPLE_MOVES``, where it has them), and the toys' own."""
    for game in toys.games:
        verbs = game_verbs(game, toys.pages)
        assert verbs, game.rules.kind
        assert set(chat_buttons(game.rules.kind)) <= verbs, (
            game.rules.kind,
            chat_buttons(game.rules.kind),
        )
    assert game_verbs(tricks.GAME, toys.pages) == {"lead", "follow"}
    assert game_verbs(highcard.GAME, toys.pages) == {"play"}


def test_the_page_names_no_word_of_any_game_nor_its_own_verbs(toys: Library) -> None:
    words = page_verbs()
    for game in toys.games:
        words |= named_words(game, toys.pages)
    assert {"look", "pass", "trump", "kitty", "lead", "void", "leave"} <= words
    # the phases, the money and the names of the games, the toys' among them
    assert {"play", "purchase", "deal_over", "over"} <= words
    assert {"trick", "diff", "ante", "money.trick", "money.diff", "money.remiz"} <= words
    assert {game.rules.kind for game in toys.games} <= words
    assert LOBBY not in words  # the page's own phase
    named = {
        path.name: found
        for path in sorted(JS.glob("*.js"))
        if (found := named_verbs(path.read_text(encoding="utf-8"), words))
    }
    assert named == {}


def test_the_pages_own_phase_is_no_games() -> None:
    """«lobby», which the page tests for, is the phase of a table still gathering, which the
    service's lobby view names (``web.views``), and no game's."""
    for game in GAMES:
        assert LOBBY not in game_words(game, PAGES, seeds=range(4), deals=2).phases
    assert re.search(rf"view\.phase [!=]== \"{LOBBY}\"", (JS / "table.js").read_text("utf-8"))


@pytest.mark.parametrize(
    "line",
    [
        '    if (action.verb === "trump") {',
        '    if (["pass", "no_razrez", "look"].includes(action.verb)) button.classList.add("x");',
        '  button.className = action.verb === \'void\' ? "action secondary" : "action";',
        "  const key = `lead`;",
        '  if (many && view.phase === "play" && view.private.length) {',
        '      if (!["money.trick", "money.diff"].includes(parts[0].key)) {',
        '  if (view.game === "starshina") box.classList.add("wide");',
    ],
)
def test_the_scan_finds_a_verb_the_page_would_know_by_name(line: str) -> None:
    assert named_verbs(line, {"trump", "pass", "void", "lead", "play", "money.diff", "starshina"})


def test_the_scan_lets_the_pages_own_words_be() -> None:
    source = "\n".join(
        [
            'source.addEventListener("open", () => this.refresh());',
            'root.classList.toggle("dark", dark);',
            'if (view.trump_line) body.append(el("p", "trump", tx(view.trump_line)));',
            '// a comment may say "pass"',
            'const title = t("btn.pass");',
        ]
    )
    assert named_verbs(source, {"open", "dark", "trump", "pass"}) == []
