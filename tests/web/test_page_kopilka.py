"""«Копилка» (``tests/plugin/kopilka.py``), the third toy game, is played on the page in Debian's
Chromium, every seat at its own page: its move of two cards at once is drawn from the view's
``pick`` alone (each card toggles; Telegram's main button confirms once two are marked), the
laid cards lie on the cloth, and its pot of its own is the table's pot. Nothing of it is in
``web/``."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.library import library_with
from tests.plugin import kopilka
from tests.web.browser import ARGS, CHROMIUM, open_table, preview_server
from tests.web.server import FIRST_USER, Preview

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

FIXTURE, PLAYERS = "kopilka-play", 3


@pytest.fixture(scope="module")
def kopilka_table() -> Preview:
    """The game offered as a game is, and a preview of a table of it."""
    return Preview(
        pages=library_with(kopilka.OFFERED).pages,
        games={kopilka.KIND: (kopilka.KIND, {"rounds": 2}, PLAYERS)},
        fixtures={FIXTURE: (kopilka.KIND, lambda state: True, "to_act")},
    )


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture
def address(kopilka_table: Preview) -> Iterator[str]:
    with preview_server(kopilka_table) as url:
        yield url


def test_the_two_card_move_is_made_on_the_page_every_seat_at_its_own(
    browser: Any, address: str
) -> None:
    def wait_version(page: Any, version: int) -> None:
        page.wait_for_selector(f"#app[data-version='{version}']")

    tables = [open_table(browser, address, FIXTURE, user_id=FIRST_USER + k) for k in range(PLAYERS)]
    errors: list[str] = []
    for page in tables:
        page.on("pageerror", lambda error: errors.append(str(error)))
    for page in tables:
        # the копилка holds every seat's ante as the deal begins: the table's pot
        assert page.locator("#bar .pill").first.inner_text() == kopilka.GAME.words.t(
            "ru", "kopilka.pot", pot=PLAYERS
        )
    version, laid = 1, 0
    while True:
        for page in tables:
            wait_version(page, version)
        turn = [page for page in tables if page.locator("#tg-main").is_visible()]
        if not turn:
            break
        assert len(turn) == 1, "only the seat to act is asked for two cards"
        page = turn[0]
        assert (
            page.locator("#prompt")
            .inner_text()
            .startswith(kopilka.GAME.words.t("ru", "kopilka.prompt"))
        )
        cards = page.locator("#cards button.card")
        assert cards.count() == kopilka.CARDS
        assert page.locator("#tg-main").inner_text() == kopilka.GAME.words.t(
            "ru", "btn.marked", n=0, of=2
        )
        chosen = [cards.nth(index).get_attribute("data-card") for index in (0, 2)]
        for card in chosen:
            page.locator(f"#cards button.card[data-card='{card}']").click()
        assert page.locator("#cards button.card[aria-pressed='true']").count() == 2
        # a third card is not marked: the move takes two
        page.locator("#cards button.card[aria-pressed='false']").click()
        assert page.locator("#cards button.card[aria-pressed='true']").count() == 2
        assert page.locator("#tg-main").inner_text() == kopilka.GAME.words.t(
            "ru", "kopilka.confirm"
        )
        page.locator("#tg-main").click()
        version += 1
        laid += 1
        wait_version(page, version)
        assert page.locator("#cards button.card").count() == kopilka.CARDS - kopilka.LAID
        for card in chosen:
            assert page.locator(f"#cloth .trick [data-card='{card}']").count() == 1
    assert laid == PLAYERS
    assert errors == []
    for page in tables:
        assert page.locator("#cloth .trick .card").count() == PLAYERS * kopilka.LAID
        assert not page.locator("#tg-main").is_visible()
