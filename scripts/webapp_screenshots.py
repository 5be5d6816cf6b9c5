"""Screenshots of the Mini App page at a phone's sizes, from real engine states of each game:
390×844 light and dark, and 360 px wide. Needs Playwright and Debian's Chromium
(``apt-get install chromium``). Usage: ``.venv/bin/python -m scripts.webapp_screenshots``."""

from __future__ import annotations

import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.web.browser import ARGS, CHROMIUM, open_table, preview_server

OUT = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
SHOTS = [
    ("starshina-play", "ru"),
    ("starshina-kitty", "ru"),
    ("starshina-exchange", "ru"),
    ("shleif-lobby", "ru"),
    ("shleif-knock", "ru"),
    ("shleif-purchase", "ru"),
    ("stukolka-play", "ru"),
    ("stukolka-over", "en"),
    ("starshina-over", "ru"),
]
SIZES = [("light", 390, 844, False), ("dark", 390, 844, True), ("360", 360, 740, False)]


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    only = set(sys.argv[1:])
    with sync_playwright() as playwright, preview_server() as address:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        for fixture, lang in SHOTS:
            if only and fixture not in only:
                continue
            for suffix, width, height, dark in SIZES:
                page = open_table(
                    browser,
                    address,
                    fixture,
                    width=width,
                    height=height,
                    dark=dark,
                    lang=lang,
                    scale=1,
                )
                path = OUT / f"{fixture}-{suffix}.png"
                page.screenshot(path=str(path), full_page=True)
                page.context.close()
                print(path.relative_to(OUT.parents[1]))
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
