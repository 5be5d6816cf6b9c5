"""The page in Debian's Chromium (Playwright), at a phone's width, over the preview server's
real engine states: accessible names as the chat writes them, illegal cards disabled, a move
sent and the page redrawn from the server's answer, the MainButton confirming a choice of
cards, no sideways scrolling with sixteen cards at 360 px, and Telegram's dark theme."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from game.cards import RANK_LABEL, RUSSIAN_RANK_LABEL, SUIT_EMOJI
from tests.library import WORDS, seat_view
from tests.web.browser import ARGS, CHROMIUM, open_table, preview_server
from tests.web.server import DARK, LIGHT, PROGRAM_PREVIEW
from web.view_parts import TableInfo

pytestmark = pytest.mark.browser

if not CHROMIUM.exists():
    pytest.skip(f"{CHROMIUM} is not installed", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")


def label(card: str, lang: str = "ru") -> str:
    ranks = RUSSIAN_RANK_LABEL if lang == "ru" else RANK_LABEL
    return ranks.get(card[0], card[0]) + SUIT_EMOJI[card[1]]


def expected_view(fixture: str) -> dict[str, Any]:
    table = PROGRAM_PREVIEW.load_table(fixture)
    names = ("a", "b", "c", "d")
    return seat_view(table.kind, table.state, table.seat, TableInfo(names=names, version=1))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield launched
        launched.close()


@pytest.fixture(autouse=True)
def closed_after(browser: Any) -> Iterator[None]:
    """Each test's pages closed when it ends: one left open would go on drawing its countdown
    beside every later test of the module."""
    yield
    for context in browser.contexts:
        context.close()


@pytest.fixture
def address() -> Iterator[str]:
    with preview_server() as url:
        yield url


def tap(card: Any) -> None:
    """A tap on a card where a player sees it: in a fan of many cards, near its left edge
    (the next card covers the rest)."""
    card.click(position={"x": 6, "y": 40})


def card_buttons(page: Any) -> list[dict[str, Any]]:
    buttons: list[dict[str, Any]] = page.eval_on_selector_all(
        "#cards button.card",
        "nodes => nodes.map(n => ({name: n.getAttribute('aria-label'), disabled: n.disabled,"
        " card: n.dataset.card}))",
    )
    return buttons


def test_sixteen_cards_fit_360_px_named_as_the_chat_names_them(browser: Any, address: str) -> None:
    view = expected_view("starshina-play")
    page = open_table(browser, address, "starshina-play", width=360, height=740)
    buttons = card_buttons(page)
    assert len(buttons) == 16
    legal = {item["card"] for item in view["hand"]["cards"] if item["verb"]}
    assert 0 < len(legal) < 16  # following suit: some cards may not be played
    for button in buttons:
        assert button["name"] == label(button["card"])
        assert button["disabled"] is (button["card"] not in legal)
    # each is a real button the accessibility tree names, enabled only when legal
    card = sorted(legal)[0]
    assert page.get_by_role("button", name=label(card), exact=True).is_enabled()
    width = page.evaluate("[document.documentElement.scrollWidth, window.innerWidth]")
    assert width[0] <= width[1] == 360
    boxes = page.eval_on_selector_all(
        "#cards button.card", "nodes => nodes.map(n => n.getBoundingClientRect().right)"
    )
    assert max(boxes) <= 360


#: each card of the hand: its box, and what a tap in the middle of the part of it in view hits
HIT_TEST = """() => [...document.querySelectorAll('#cards .row')].flatMap(line => {
  const cards = [...line.querySelectorAll('button.card')];
  return cards.map((node, i) => {
    const box = node.getBoundingClientRect();
    const next = cards[i + 1];
    const right = next && next.dataset.group === node.dataset.group
      ? Math.min(box.right, next.getBoundingClientRect().left) : box.right;
    const x = (box.left + right) / 2, y = box.top + box.height / 2;
    const hit = document.elementFromPoint(x, y);
    return {card: node.dataset.card, left: box.left, right: box.right, top: box.top,
            bottom: box.bottom, shown: right - box.left,
            hits: Boolean(hit && hit.closest('button.card') === node)};
  });
})"""


def test_starshina_play_fits_a_360_by_740_phone_every_card_in_view_and_tappable(
    browser: Any, address: str
) -> None:
    """Sixteen cards and the trick on one screen of a small phone: no card below the fold or
    off its side, each showing a slice wide enough to tap that a tap there reaches; the
    exchanges folded into one line once the play has begun."""
    page = open_table(browser, address, "starshina-play", width=360, height=740)
    assert page.evaluate("[document.documentElement.scrollHeight, innerHeight]")[1] == 740
    cards = page.evaluate(HIT_TEST)
    assert len(cards) == 16
    for card in cards:
        assert card["left"] >= 0 and card["right"] <= 360, card
        assert card["top"] >= 0 and card["bottom"] <= 740, card
        assert card["shown"] >= 24 and card["hits"], card
    assert page.locator("#cloth .trick .card").count() == 1
    fold = page.locator("#private details.fold")
    assert fold.count() == 1 and not fold.evaluate("node => node.open")
    assert page.locator("#private details.fold .card").first.is_hidden()
    fold.locator("summary").click()
    assert page.locator("#private details.fold .card").first.is_visible()
    # a legal card is played by a tap on its slice
    legal = page.locator("#cards button.card.legal").first
    card = legal.get_attribute("data-card")
    version = page.get_attribute("#app", "data-version")
    box = legal.bounding_box()
    assert box is not None and card is not None
    legal.click(position={"x": 6, "y": box["height"] / 2})
    page.wait_for_function(f"document.querySelector('#app').dataset.version !== '{version}'")
    assert page.locator(f"#cards button.card[data-card='{card}']").count() == 0


def test_playing_a_card_sends_it_and_redraws_from_the_answer(browser: Any, address: str) -> None:
    view = expected_view("starshina-play")
    card = next(item["card"] for item in view["hand"]["cards"] if item["verb"])
    page = open_table(browser, address, "starshina-play")
    page.get_by_role("button", name=label(card), exact=True).click()
    page.wait_for_function("document.querySelectorAll('#cards button.card').length === 15")
    assert card not in {item["card"] for item in card_buttons(page)}
    assert ["haptic.impact", "medium"] in page.evaluate("window.__tg.calls")
    played = page.eval_on_selector_all("#cloth .trick [role=img]", "n => n.map(e => e.ariaLabel)")
    assert label(card) in played or page.locator("#last-button").is_enabled()


def test_the_kitty_is_four_cards_marked_and_confirmed_by_the_main_button(
    browser: Any, address: str
) -> None:
    page = open_table(browser, address, "starshina-kitty")
    main = "window.__tg.main"
    assert page.evaluate(f"{main}.isVisible") is True
    assert page.evaluate(f"{main}.text") == WORDS.t("ru", "btn.marked", n=0, of=4)
    assert page.evaluate(f"{main}.isActive") is False
    cards = page.locator("#cards button.card")
    assert cards.count() == 16
    for index in range(4):
        tap(cards.nth(index))
        assert cards.nth(index).get_attribute("aria-pressed") == "true"
    assert page.evaluate(f"{main}.text") == WORDS.t("ru", "btn.confirm_kitty", n=4)
    assert page.evaluate(f"{main}.isActive") is True
    page.evaluate(f"{main}.press()")
    page.wait_for_function("document.querySelectorAll('#cards button.card').length === 16")
    page.wait_for_function("!window.__tg.main.isVisible")
    assert ["haptic.selection"] in page.evaluate("window.__tg.calls")


def test_knock_and_pass_are_buttons_named_as_the_chats_keyboard(browser: Any, address: str) -> None:
    page = open_table(browser, address, "shleif-knock")
    for key in ("btn.knock", "btn.pass"):
        assert page.get_by_role("button", name=WORDS.t("ru", key), exact=True).is_enabled()
    assert page.locator("#cards button.card").count() == 0  # not looked at yet
    page.get_by_role("button", name=WORDS.t("ru", "btn.pass"), exact=True).click()
    page.wait_for_function(
        f"![...document.querySelectorAll('#controls button')]"
        f".some(b => b.textContent === {WORDS.t('ru', 'btn.pass')!r})"
    )


def test_english_cards_read_j_q_k_a(browser: Any, address: str) -> None:
    view = expected_view("starshina-trump")
    page = open_table(browser, address, "starshina-trump", lang="en")
    names = [item["name"] for item in card_buttons(page)]
    assert names == [label(item["card"], "en") for item in view["hand"]["cards"]]
    for suit in "SHCD":
        assert page.get_by_role("button", name=SUIT_EMOJI[suit], exact=True).is_enabled()


def test_dark_theme_and_a_live_theme_change(browser: Any, address: str) -> None:
    page = open_table(browser, address, "stukolka-play", dark=True)
    background = "getComputedStyle(document.body).backgroundColor"
    assert page.evaluate(background) == "rgb(33, 33, 33)"  # DARK's bg_color
    assert page.evaluate("document.documentElement.classList.contains('dark')")
    assert page.evaluate("getComputedStyle(document.body).color") == "rgb(255, 255, 255)"
    page.evaluate(f"window.__tg.app.setTheme(false, {LIGHT!r})")
    assert page.evaluate(background) == "rgb(255, 255, 255)"
    assert not page.evaluate("document.documentElement.classList.contains('dark')")
    assert DARK["bg_color"] == "#212121"


def test_telegram_integration_calls(browser: Any, address: str) -> None:
    page = open_table(browser, address, "stukolka-play")
    calls = [call[0] for call in page.evaluate("window.__tg.calls")]
    assert "ready" in calls and "disableVerticalSwipes" in calls
    # the last trick a tap away, closed by Telegram's BackButton
    page.locator("#last-button").click()
    assert page.locator("#last").evaluate("d => d.open")
    assert page.evaluate("window.__tg.back.isVisible")
    page.evaluate("window.__tg.back.press()")
    assert not page.locator("#last").evaluate("d => d.open")
    # the dialog's close event, which redraws the page and so Back, comes a moment later
    page.wait_for_function("!window.__tg.back.isVisible")


def test_a_forged_init_data_gets_no_table(browser: Any, address: str) -> None:
    import urllib.error
    import urllib.request

    from tests.web.server import sign_init_data

    forged = sign_init_data("starshina-play", token="999:another-bot")
    request = urllib.request.Request(
        address + "api/state", headers={"Authorization": f"tma {forged}"}
    )
    with pytest.raises(urllib.error.HTTPError) as caught:
        urllib.request.urlopen(request, timeout=10)
    caught.value.close()  # the refusal holds the answer's connection open
    assert caught.value.code == 401


def test_the_turns_countdown_runs_from_the_deadline(browser: Any, address: str) -> None:
    page = open_table(browser, address, "shleif-knock")
    clock = page.locator("#prompt .clock").text_content() or ""
    seconds = int("".join(ch for ch in clock if ch.isdigit()))
    # the page sets its clock by the server's Date header, whole seconds cut down: it may
    # read up to a second early, so a fresh 45 s turn can show 46
    assert 0 < seconds <= 46
    assert page.locator(".seat.to-act .timer").count() == 1


def test_a_move_on_one_page_shows_on_another_through_live_updates(
    browser: Any, address: str
) -> None:
    view = expected_view("starshina-play")
    card = next(item["card"] for item in view["hand"]["cards"] if item["verb"])
    watcher = open_table(browser, address, "starshina-play")
    player = open_table(browser, address, "starshina-play")
    player.get_by_role("button", name=label(card), exact=True).click()
    watcher.wait_for_function("document.querySelectorAll('#cards button.card').length === 15")
    # and a page that comes back to the screen reads the view again
    watcher.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    assert watcher.locator("#cards button.card").count() == 15


def test_the_table_is_told_to_a_screen_reader(browser: Any, address: str) -> None:
    page = open_table(browser, address, "stukolka-play")
    summary = page.locator("#summary")
    assert summary.get_attribute("aria-live") == "polite"
    text = summary.text_content() or ""
    assert WORDS.t("ru", "web.your_turn") in text and WORDS.t("ru", "web.trick") in text
    assert page.locator("#prompt").get_attribute("aria-live") == "polite"


@pytest.mark.parametrize("fixture", ["starshina-kitty", "shleif-purchase"])
def test_the_page_loads_nothing_from_other_hosts_under_a_strict_csp(
    browser: Any, address: str, fixture: str
) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    from tests.web.browser import TELEGRAM_SCRIPT
    from tests.web.server import sign_init_data, telegram_stub

    stub = telegram_stub(sign_init_data(fixture))
    context.route(
        TELEGRAM_SCRIPT,
        lambda route: route.fulfill(status=200, content_type="application/javascript", body=stub),
    )
    context.add_init_script(
        "window.__csp = []; document.addEventListener('securitypolicyviolation',"
        " e => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));"
    )
    page = context.new_page()
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    page.goto(address)
    page.wait_for_selector("#app[aria-busy=false]")
    tap(page.locator("#cards button.card").first)
    page.wait_for_timeout(200)
    assert page.evaluate("window.__csp") == []
    assert urls and all(url.startswith(address) or url == TELEGRAM_SCRIPT for url in urls), urls
    context.close()


def test_a_stale_move_is_refused_in_words_and_changes_nothing(browser: Any, address: str) -> None:
    import json

    page = open_table(browser, address, "starshina-play")
    before = card_buttons(page)

    def stale(route: Any) -> None:
        body = json.loads(route.request.post_data or "{}")
        route.continue_(post_data=json.dumps({**body, "version": body["version"] - 1}))

    page.route("**/api/action", stale)
    legal = next(button for button in before if not button["disabled"])
    page.get_by_role("button", name=legal["name"], exact=True).click()
    status = page.locator("#status")
    status.wait_for(state="visible")
    reason = WORDS.t("ru", "web.stale")
    assert status.text_content() == WORDS.t("ru", "web.refused", reason=reason)
    assert card_buttons(page) == before
    assert ["haptic.notification", "error"] in page.evaluate("window.__tg.calls")


def test_back_button_clears_a_choice_of_cards(browser: Any, address: str) -> None:
    page = open_table(browser, address, "starshina-kitty")
    cards = page.locator("#cards button.card")
    tap(cards.nth(0))
    tap(cards.nth(1))
    assert page.evaluate("window.__tg.back.isVisible")
    page.evaluate("window.__tg.back.press()")
    assert page.locator("#cards button.card[aria-pressed=true]").count() == 0
    assert not page.evaluate("window.__tg.back.isVisible")
    assert page.evaluate("window.__tg.main.text") == WORDS.t("ru", "btn.marked", n=0, of=4)


def _plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


def _luminance(rgb: tuple[float, float, float]) -> float:
    def channel(value: float) -> float:
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    red, green, blue = (channel(value) for value in rgb)
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def _rgb(css: str) -> tuple[float, float, float]:
    red, green, blue = (float(value) for value in re.findall(r"[\d.]+", css)[:3])
    return red, green, blue


def _contrast(page: Any, selector: str) -> float:
    """The contrast of an element's text on its background, both blended by its opacity over
    the page's background (WCAG 2: 4.5 for AA)."""
    style = page.eval_on_selector(
        selector,
        "n => { const s = getComputedStyle(n); return [s.color, s.backgroundColor, s.opacity,"
        " getComputedStyle(document.body).backgroundColor]; }",
    )
    color, background, opacity, page_background = style
    alpha = float(opacity)
    under = _rgb(page_background)

    def blend(rgb: tuple[float, float, float]) -> tuple[float, float, float]:
        return tuple(alpha * a + (1 - alpha) * b for a, b in zip(rgb, under, strict=True))  # type: ignore[return-value]

    lighter, darker = sorted(
        (_luminance(blend(_rgb(color))), _luminance(blend(_rgb(background)))), reverse=True
    )
    return (lighter + 0.05) / (darker + 0.05)


@pytest.mark.parametrize("fixture", ["stukolka-play", "shleif-knock"])
def test_at_360_px_the_dealer_keeps_his_name_and_badge(
    browser: Any, address: str, fixture: str
) -> None:
    page = open_table(browser, address, fixture, width=360, height=740)
    # measured in one go: a redraw replaces the nodes
    seat, badge, cut = page.evaluate(
        """() => {
          const seats = [...document.querySelectorAll('.seat')];
          const seat = seats.find(s => s.querySelector('.dealer'));
          const box = (n) => { const r = n.getBoundingClientRect(); return [r.left, r.width]; };
          const name = seat.querySelector('.name .who');
          const line = seat.querySelector('.name');
          const cut = name.scrollWidth > name.clientWidth || line.scrollWidth > line.clientWidth;
          return [box(seat), box(seat.querySelector('.dealer')), cut];
        }"""
    )
    assert badge[1] > 10
    assert seat[0] <= badge[0] and badge[0] + badge[1] <= seat[0] + seat[1]
    assert not cut, "the dealer's name or badge is cut"


def test_the_face_up_trump_shows_on_the_stock_only_while_it_lies_there(
    browser: Any, address: str
) -> None:
    drawn = expected_view("stukolka-play")
    assert drawn["trump_card"] and not drawn["trump_card_on_stock"]
    page = open_table(browser, address, "stukolka-play")
    assert page.locator(".corner .card[data-card]").count() == 0
    assert WORDS.t("ru", "web.trump_card") not in page.locator(".corner").inner_text()
    card = label(drawn["trump_card"])
    assert page.locator(".bar .trump").inner_text() == _plain(
        WORDS.t("ru", "stukolka.trump.card", card=card)
    )
    lying = expected_view("shleif-knock")
    page = open_table(browser, address, "shleif-knock")
    assert page.locator(f".corner .card[data-card='{lying['trump_card']}']").count() == 1
    assert WORDS.t("ru", "web.trump_card") in page.locator(".corner").inner_text()
    assert page.locator(".bar .trump").inner_text() == WORDS.t(
        "ru", "stukolka.trump.on_stock", card=label(lying["trump_card"])
    )


def test_the_pot_says_what_a_trick_pays_and_a_tap_explains_remiz(
    browser: Any, address: str
) -> None:
    view = expected_view("stukolka-play")
    params = view["pot"]["params"]
    page = open_table(browser, address, "stukolka-play")
    pot = page.locator("#pot")
    assert pot.inner_text() == WORDS.t("ru", "web.pot.remiz", **params)
    assert WORDS.t("ru", "stukolka.pot", pot=params["pot"], share=params["share"]).endswith(
        pot.inner_text().split(" · ")[1]
    )
    gloss = _plain(WORDS.t("ru", "gloss.remiz"))
    assert pot.get_attribute("title") == gloss
    assert not page.locator("#gloss").is_visible()
    pot.click()
    assert page.locator("#gloss").inner_text() == gloss
    pot.click()
    assert not page.locator("#gloss").is_visible()


def test_a_finished_deal_breaks_the_nets_down_as_the_chat_does(browser: Any, address: str) -> None:
    view = expected_view("stukolka-over")
    page = open_table(browser, address, "stukolka-over", lang="en")
    shown = page.locator("#result").inner_text()
    for parts in view["result"]["parts"]:
        if len(parts) > 1:
            words = " · ".join(WORDS.t("en", part["key"], **part["params"]) for part in parts)
            assert f"({words})" in shown
    note = view["result"]["notes"][0]
    assert WORDS.t("en", note["key"], **note["params"]) in shown


def test_a_starshina_deal_ends_in_the_chats_words(browser: Any, address: str) -> None:
    page = open_table(browser, address, "starshina-over")
    shown = page.locator("#result").inner_text()
    assert WORDS.t("ru", "web.game_goes_on", deals=1, most=20) in shown
    assert "Итог партии на сейчас" not in shown
    seats = page.locator("#seats").inner_text() + page.locator(".cloth .seat").inner_text()
    assert "при норме" in seats and " из " not in seats


def test_the_purchase_prompt_names_the_button_shown(browser: Any, address: str) -> None:
    page = open_table(browser, address, "shleif-purchase")
    button = page.evaluate("window.__tg.main.text")
    assert button == WORDS.t("ru", "btn.keep")
    assert f"«{button}»" in page.locator("#prompt").inner_text()


@pytest.mark.parametrize("dark", [False, True])
def test_a_confirmation_not_yet_possible_is_legible(browser: Any, address: str, dark: bool) -> None:
    page = open_table(browser, address, "starshina-kitty", dark=dark)
    assert page.evaluate("window.__tg.main.isActive") is False
    assert _contrast(page, "#tg-main") >= 4.5
    # outside Telegram the page draws its own button
    page.evaluate(
        "document.body.append(Object.assign(document.createElement('button'),"
        " {className: 'action', id: 'probe', disabled: true, textContent: 'x'}))"
    )
    assert _contrast(page, "#probe") >= 4.5


def test_a_seated_player_sees_the_lobby_before_the_deal(browser: Any, address: str) -> None:
    page = open_table(browser, address, "shleif-lobby", width=360, height=740)
    assert page.locator("#prompt").inner_text() == WORDS.tn("ru", "web.lobby.waiting", 2)
    names = page.locator(".seat .name .who").all_inner_texts()
    assert sorted(names) == ["Алиса", "Борис"]
    assert page.locator("#cards button.card").count() == 0
    # the lobby's buttons, named as the chat's
    labels = page.locator("#controls button").all_inner_texts()
    assert labels == [
        WORDS.t("ru", key)
        for key in ("btn.add_computer", "btn.add_novice", "btn.begin", "btn.leave", "btn.cancel")
    ]
    assert not page.locator("#last-button").is_visible()
    assert page.locator("#status").inner_text() == ""


def _card_looks(page: Any) -> list[dict[str, Any]]:
    # the nodes found and measured in one go: a redraw replaces them
    looks: list[dict[str, Any]] = page.evaluate(
        "[...document.querySelectorAll('#cards button.card')].map(n => {"
        " const s = getComputedStyle(n); return {card: n.dataset.card, disabled: n.disabled,"
        " opacity: parseFloat(s.opacity), filter: s.filter}; })",
    )
    return looks


@pytest.mark.parametrize("dark", [False, True])
@pytest.mark.parametrize(
    ("fixture", "user_id"),
    [("starshina-trump", 1001), ("starshina-exchange", 1002), ("starshina-play", 1002)],
)
def test_a_hand_not_at_its_turn_to_play_stays_bright(
    browser: Any, address: str, fixture: str, user_id: int, dark: bool
) -> None:
    # naming the trump, and waiting while another seat returns a card or plays: no card can
    # be tapped, and none is dimmed
    page = open_table(browser, address, fixture, width=360, height=740, user_id=user_id, dark=dark)
    looks = _card_looks(page)
    assert looks and all(look["disabled"] for look in looks)
    assert all(look["opacity"] == 1 and look["filter"] == "none" for look in looks), looks


def test_at_its_turn_to_play_only_the_illegal_cards_are_dimmed(browser: Any, address: str) -> None:
    view = expected_view("starshina-play")
    legal = {item["card"] for item in view["hand"]["cards"] if item["verb"]}
    page = open_table(browser, address, "starshina-play", width=360, height=740, dark=True)
    looks = _card_looks(page)
    assert len(looks) == 16
    for look in looks:
        if look["card"] in legal:
            assert not look["disabled"] and look["opacity"] == 1 and look["filter"] == "none"
        else:
            # in a fan a dimmed card stays opaque (the ones under it do not show through)
            assert look["disabled"] and look["opacity"] == 1 and "brightness" in look["filter"]


def test_a_negative_balance_reads_with_a_minus_sign(browser: Any, address: str) -> None:
    view = expected_view("starshina-play")
    assert len(view["seats"]) == 3
    page = open_table(browser, address, "starshina-play", width=360, height=740)
    lines = page.locator(".seat .line").all_inner_texts()
    assert any(line.startswith("\u2212") for line in lines), lines
    assert not any(re.search(r"-\d", line) for line in lines), lines
    module = "await import(new URL('js/i18n.js', document.baseURI))"
    said = page.evaluate(f"async () => ({module}).t('web.chips', {{}}, -3)")
    assert said == "\u2212" + WORDS.tn("ru", "web.chips", 3)


def test_the_turns_countdown_never_breaks_across_lines(browser: Any, address: str) -> None:
    page = open_table(browser, address, "shleif-knock", width=360, height=740)
    # however narrow the prompt, the countdown moves whole to the next line
    broken = page.evaluate(
        """() => {
          const prompt = document.getElementById('prompt');
          const clock = prompt.querySelector('.clock');
          const broken = [];
          for (let width = 360; width >= 90; width -= 3) {
            prompt.style.width = width + 'px';
            if (clock.getClientRects().length > 1) broken.push(width);
          }
          return broken;
        }"""
    )
    assert broken == []


def test_the_bidding_counts_no_tricks_and_says_bought_as_the_chat_does(
    browser: Any, address: str
) -> None:
    page = open_table(browser, address, "shleif-knock", width=360, height=740)
    seats = page.locator(".seat").all_inner_texts()
    assert len(seats) >= 3
    assert not any(WORDS.tn("ru", "n.tricks", 0) in seat for seat in seats), seats
    page = open_table(browser, address, "shleif-purchase", width=360, height=740)
    view = expected_view("shleif-purchase")
    seats = page.locator(".seat").all_inner_texts()
    assert not any("покупка 0" in seat for seat in seats), seats
    for item in view["seats"]:
        if item["note"] and item["note"]["key"] == "seat.kept":
            assert any(WORDS.t("ru", "seat.kept") in seat for seat in seats)


def test_the_turn_arriving_is_felt_once(browser: Any, address: str) -> None:
    # the next seat's page waits while the fixture's seat knocks or passes
    waiter = open_table(browser, address, "shleif-knock", user_id=1002)
    player = open_table(browser, address, "shleif-knock")
    turn = "window.__tg.calls.filter(c => c[0] === 'haptic.impact' && c[1] === 'heavy').length"
    assert waiter.evaluate(turn) == 0 and player.evaluate(turn) == 0
    waiter_pass = waiter.get_by_role("button", name=WORDS.t("ru", "btn.pass"), exact=True)
    assert waiter_pass.count() == 0
    player.get_by_role("button", name=WORDS.t("ru", "btn.pass"), exact=True).click()
    waiter.wait_for_function(f"{turn} === 1")
    waiter_pass.wait_for()
    # a redraw of the same turn is not felt again; the page that moved felt its tap only
    waiter.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    waiter.wait_for_timeout(300)
    assert waiter.evaluate(turn) == 1
    assert player.evaluate(turn) == 0


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_page_the_server_cannot_sign_in_says_to_reopen_the_table(
    browser: Any, address: str, lang: str
) -> None:
    from tests.web.browser import TELEGRAM_SCRIPT
    from tests.web.server import sign_init_data, telegram_stub

    context = browser.new_context(viewport={"width": 360, "height": 740}, bypass_csp=True)
    forged = sign_init_data("starshina-play", lang=lang, token="999:another-bot")
    stub = telegram_stub(forged)
    context.route(
        TELEGRAM_SCRIPT,
        lambda route: route.fulfill(status=200, content_type="application/javascript", body=stub),
    )
    page = context.new_page()
    page.goto(address)
    notice = page.locator("#notice")
    notice.wait_for(state="visible")
    assert notice.inner_text() == WORDS.t(lang, "web.reopen")
    assert "Telegram" in notice.inner_text()
    assert page.get_attribute("#app", "aria-busy") == "false"
    # no empty cloth beside it
    assert not page.locator("#table").is_visible()
    assert not page.locator("#hand").is_visible()


def test_a_moves_answer_that_arrives_after_a_later_change_is_not_drawn_over_it(
    browser: Any, address: str
) -> None:
    """A move's answer carries the view as it was when the server read it; the live update of
    the next player's move can come first. The older view must not be drawn over the newer
    one: the page would show a turn that has passed and no control for the one that came."""
    waiter = open_table(browser, address, "shleif-knock", user_id=1002)
    player = open_table(browser, address, "shleif-knock")
    first = int(player.evaluate("document.querySelector('#app').dataset.version"))
    held: list[tuple[Any, Any]] = []

    def hold(route: Any) -> None:
        held.append((route, route.fetch()))

    player.route("**/api/action", hold)
    player.get_by_role("button", name=WORDS.t("ru", "btn.pass"), exact=True).click()
    player.wait_for_function(f"document.querySelector('#app').dataset.version === '{first + 1}'")
    assert len(held) == 1
    # the next player moves; the first page draws it from its live update alone
    waiter.get_by_role("button", name=WORDS.t("ru", "btn.pass"), exact=True).click()
    player.wait_for_function(f"document.querySelector('#app').dataset.version === '{first + 2}'")
    route, answer = held[0]
    assert answer.json()["view"]["version"] == first + 1
    with player.expect_event("requestfinished", lambda request: "/api/action" in request.url):
        route.fulfill(response=answer)
    # the answer is read and handed to the page within a task or two of its arrival
    player.evaluate("new Promise(done => setTimeout(done, 100))")
    assert player.evaluate("document.querySelector('#app').dataset.version") == str(first + 2)
