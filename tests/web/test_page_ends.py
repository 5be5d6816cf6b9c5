"""The ends of deals on the page, in Debian's Chromium over the preview server's real engine
states: the score card in the table's place until «Дальше» (the next deal's decision still at
hand below it), a won game's final with «▶️ Новая партия», and a finished deal's replay
stepped through trick by trick, at a phone's width, in Russian and English."""

from __future__ import annotations

from typing import Any

import pytest

from tests.library import WORDS
from tests.web.browser import CHROMIUM, open_table
from tests.web.server import PROGRAM_PREVIEW
from tests.web.test_page import address, browser, closed_after

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)

__all__ = ["address", "browser", "closed_after"]  # the page tests' fixtures, for pytest


def signed(net: int) -> str:
    return f"+{net}" if net > 0 else f"\u2212{-net}" if net < 0 else "0"


def no_sideways_scroll(page: Any) -> None:
    width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width[0] <= width[1], width


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_score_card_stands_in_the_tables_place_until_next(
    browser: Any, address: str, lang: str
) -> None:
    page = open_table(browser, address, "stukolka-score", lang=lang, width=360, height=740)
    card = page.locator("#score")
    assert card.is_visible() and not page.locator("#table").is_visible()
    shown = card.inner_text()
    assert WORDS.t(lang, "web.score.title", deal=1) in shown
    rows = page.locator(".score-seat").all_inner_texts()
    finished = PROGRAM_PREVIEW.load_table("stukolka-score").finished[-1]
    assert len(rows) == finished.players
    nets: list[int] = [0] * finished.players
    for item in finished.transfers:
        if isinstance(item.src, int):
            nets[item.src] -= item.amount
        if isinstance(item.dst, int):
            nets[item.dst] += item.amount
    for row, net in zip(rows, nets, strict=True):
        assert signed(net) in row
    assert ("ставка" if lang == "ru" else "ante") in shown
    assert WORDS.t(lang, "web.score.next") in shown and WORDS.t(lang, "web.score.replay") in shown
    # the next deal's decision is at hand below it: its turn runs meanwhile
    assert page.locator("#controls button.action").count() >= 2
    no_sideways_scroll(page)
    page.click("#score-next")
    assert page.locator("#score").count() == 0 and page.locator("#table").is_visible()


def test_a_won_game_shows_its_final_and_a_new_game(browser: Any, address: str) -> None:
    page = open_table(browser, address, "starshina-end", width=360, height=740)
    shown = page.locator("#score").inner_text()
    assert WORDS.t("ru", "web.closed.game_over") in shown
    assert "победитель" in shown and "при норме" in shown
    assert page.locator("#score-next").count() == 0  # nothing comes next at a closed table
    again = page.locator("#controls button", has_text=WORDS.t("ru", "btn.again"))
    assert again.count() == 1
    assert page.locator("#result").count() == 0  # the result said once, on the card
    assert not page.locator("#hand").is_visible()  # nothing left to play at a closed table
    sent: list[str] = []
    page.on("request", lambda request: sent.append(request.post_data or ""))
    again.click()
    page.wait_for_timeout(300)
    assert any('"verb":"again"' in body.replace(" ", "") for body in sent), sent


@pytest.mark.parametrize(("lang", "dark"), [("ru", False), ("en", True)])
def test_a_replay_steps_through_the_deal_trick_by_trick(
    browser: Any, address: str, lang: str, dark: bool
) -> None:
    page = open_table(browser, address, "shleif-score", lang=lang, dark=dark, width=360)
    page.click("#score-replay")
    dialog = page.locator("dialog#replay")
    dialog.wait_for()
    assert WORDS.t(lang, "web.replay.title", deal=1) in dialog.inner_text()
    assert WORDS.t(lang, "web.replay.dealt") in dialog.inner_text()
    assert page.locator("#replay-prev").is_disabled()
    # every hand as dealt, each card named as the chat names it
    seats = page.locator(".replay-seat").count()
    assert seats == 4
    names = page.eval_on_selector_all(
        ".replay-hand .card:not(.back)", "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    )
    # the cards the player did not see at the table lie face down, said by their count
    backs = page.locator(".replay-hand .unseen .card.back").count()
    unseen = page.eval_on_selector_all(
        ".replay-hand .unseen", "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    )
    # a passer's cards are dead and never shown (§1.3): only to the passer himself
    dead = page.locator(".replay-hand .none", has_text=WORDS.t(lang, "web.replay.dead")).count()
    assert dead >= 1 and len(names) + backs == 3 * (seats - dead) and all(names)
    assert backs and all(
        label in [WORDS.tn(lang, "web.face_down", n) for n in (1, 2, 3)] for label in unseen
    )
    tricks = 0
    while not page.locator("#replay-next").is_disabled():
        page.click("#replay-next")
        text = dialog.inner_text()
        if page.locator(".replay-body .trick-row").count():
            tricks += 1
            assert WORDS.t(lang, "web.replay.trick", n=tricks) in text
            played = page.locator(".replay-body .trick-row .card").count()
            assert page.locator(".replay-hand .card.in-trick").count() == played
            assert text.count(WORDS.t(lang, "web.replay.took", name="").strip()) >= 1
        no_sideways_scroll(page)
    assert tricks >= 2
    # Telegram's back button closes it, and the page is as it was
    assert page.evaluate("window.__tg.back.isVisible")
    page.evaluate("window.__tg.back.press()")
    assert not dialog.is_visible() and page.locator("#score").is_visible()
