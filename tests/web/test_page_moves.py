"""The page draws any game's moves from the view alone (``web.views``, "Moves"), in Debian's
Chromium: a move of a verb no game has, of each input kind, is drawn as described and posts
its verb and argument; and the two toy games of ``tests/plugin`` — their rules, table side and
page registered as a game's are, nothing of them in ``web/`` — are played on the page, every
seat at its own page, card by card to the deal's end."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.library import WORDS, library_with
from tests.plugin import highcard, tricks
from tests.web.browser import ARGS, CHROMIUM, open_table, preview_server
from tests.web.server import FIRST_USER, Preview
from web.view_parts import action, text

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

#: the toys' tables in the preview server: (game, its options, players)
TOYS: dict[str, tuple[Any, dict[str, object], int]] = {
    "tricks-play": (tricks, {"stake": 1}, 3),
    "highcard-play": (highcard, {"rounds": 1, "stake": 1}, 3),
}


@pytest.fixture(scope="module")
def toys() -> Preview:
    """The toy games offered as a game is, and a preview of a table of each."""
    library = library_with(*(module.OFFERED for module, _, _ in TOYS.values()))
    return Preview(
        pages=library.pages,
        games={module.KIND: (module.KIND, options, n) for module, options, n in TOYS.values()},
        fixtures={
            name: (module.KIND, lambda state: True, "to_act")
            for name, (module, _, _) in TOYS.items()
        },
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def closed_after(browser: Any) -> Iterator[None]:
    yield
    for context in browser.contexts:
        context.close()


@pytest.fixture
def address() -> Iterator[str]:
    with preview_server() as url:
        yield url


@pytest.fixture
def toys_address(toys: Preview) -> Iterator[str]:
    """A preview server of the toys' tables alone."""
    with preview_server(toys) as url:
        yield url


#: moves of verbs no game has, one of each input kind an action may be
NEW_MOVES = [
    action("bid", text("btn.knock"), 3),
    action("fold", text("btn.pass"), secondary=True),
    action("call", text("web.suit.H"), "H", input="suit"),
    action("call", text("web.suit.S"), "S", input="suit", secondary=True),
]


def test_a_move_no_game_has_is_drawn_from_its_description_and_posts_itself(
    browser: Any, address: str
) -> None:
    page = open_table(browser, address, "shleif-knock")
    posted: list[dict[str, Any]] = []

    def state(route: Any) -> None:
        response = route.fetch()
        body = response.json()
        body["actions"] = NEW_MOVES
        route.fulfill(response=response, json=body)

    def act(route: Any) -> None:
        posted.append(json.loads(route.request.post_data))
        route.fulfill(status=409, json={"refused": {"key": "web.illegal", "params": {}}})

    page.route("**/api/state*", state)
    page.route("**/api/action*", act)
    page.reload()
    page.wait_for_selector("#controls button[data-verb='bid']")
    drawn = page.eval_on_selector_all(
        "#controls button",
        "nodes => nodes.map(n => [n.dataset.verb, n.textContent, n.getAttribute('aria-label'),"
        " [...n.classList].sort().join(' ')])",
    )
    assert drawn == [
        ["bid", WORDS.t("ru", "btn.knock"), None, "action"],
        ["fold", WORDS.t("ru", "btn.pass"), None, "action secondary"],
        ["call", "\u2665\ufe0e", WORDS.t("ru", "web.suit.H"), "action red suit"],
        ["call", "\u2660\ufe0e", WORDS.t("ru", "web.suit.S"), "action secondary suit"],
    ]
    controls = page.locator("#controls button")
    for index, (verb, arg) in enumerate([("bid", 3), ("fold", None), ("call", "H"), ("call", "S")]):
        controls.nth(index).click()
        # refused (by this route): the page says so once the move is answered, ready for more
        page.wait_for_function("document.querySelector('#status').textContent !== ''")
        assert (posted[index]["verb"], posted[index]["arg"]) == (verb, arg)
    assert len(posted) == 4


def wait_version(page: Any, version: int) -> None:
    page.wait_for_selector(f"#app[data-version='{version}']")


@pytest.mark.parametrize("fixture", list(TOYS))
def test_a_toy_game_is_played_on_the_page_every_seat_at_its_own(
    browser: Any, toys_address: str, fixture: str
) -> None:
    module, _, players = TOYS[fixture]
    tables = [
        open_table(browser, toys_address, fixture, user_id=FIRST_USER + k) for k in range(players)
    ]
    errors: list[str] = []
    for page in tables:
        page.on("pageerror", lambda error: errors.append(str(error)))
    version, moves = 1, 0
    while True:
        for page in tables:
            wait_version(page, version)
        turn = [page for page in tables if page.locator("#cards button.card.legal").count()]
        if not turn:
            break
        assert len(turn) == 1
        page = turn[0]
        assert (
            page.locator("#prompt")
            .inner_text()
            .startswith(module.GAME.words.t("ru", f"{module.KIND}.prompt"))
        )
        card = page.locator("#cards button.card.legal").first
        played = card.get_attribute("data-card")
        card.click()
        version += 1
        moves += 1
        wait_version(page, version)
        assert page.locator(f"#cards button.card[data-card='{played}']").count() == 0
    assert moves == players * (tricks.CARDS if module is tricks else 1)
    assert errors == []
    for page in tables:
        assert page.locator("#cards button.card").count() == 0
        assert page.locator("#controls button").count() == 0
