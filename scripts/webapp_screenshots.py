"""Screenshots of the Mini App page at a phone's sizes, from real engine states of each game:
390×844 light and dark, and 360 px wide. Needs Playwright (a development tool in the lock) and
two Debian packages: ``chromium`` and ``fonts-noto-color-emoji`` (without it the suits' emoji
are drawn as empty boxes). Run as root, it installs the packages it misses with apt-get;
otherwise it names them and stops. Usage: ``.venv/bin/python -m scripts.webapp_screenshots``
(after ``bash scripts/test.sh`` has made ``.venv``), optionally with the fixtures to shoot."""

from __future__ import annotations

import os
import shutil
import subprocess
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
    ("shleif-stopping", "ru"),
    ("stukolka-score", "ru"),
    ("starshina-end", "ru"),
    ("shleif-replay", "ru"),
]
#: scenes that are a fixture with something tapped: scene → (fixture, what to tap, what then
#: shows); the replay is stepped on to its second trick
SCENES = {"shleif-replay": ("shleif-score", ["#score-replay", *["#replay-next"] * 3], "#replay")}
SIZES = [("light", 390, 844, False), ("dark", 390, 844, True), ("360", 360, 740, False)]
#: the scenes a small phone shows in the dark theme too
SMALL_DARK = {
    "shleif-lobby",
    "shleif-knock",
    "starshina-play",
    "shleif-stopping",
    "stukolka-score",
    "starshina-end",
    "shleif-replay",
}
# the Debian packages the screenshots need, each with the file that shows it is installed
PACKAGES = {
    "chromium": CHROMIUM,
    "fonts-noto-color-emoji": Path("/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"),
}


def missing_packages() -> list[str]:
    return [name for name, path in PACKAGES.items() if not path.exists()]


def install_packages() -> bool:
    """Installs the missing packages where this runs as root with apt-get; False if any is
    still missing, after saying which and how to install them."""
    missing = missing_packages()
    if missing and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "update", "-qq"], check=True, env=env)
        subprocess.run(["apt-get", "install", "-y", "-qq", *missing], check=True, env=env)
        missing = missing_packages()
    if missing:
        print(
            "The screenshots need Debian's " + " and ".join(missing) + ": "
            f"sudo apt-get install {' '.join(missing)}",
            file=sys.stderr,
        )
        return False
    return True


def main() -> int:
    if not install_packages():
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    only = set(sys.argv[1:])
    with sync_playwright() as playwright, preview_server() as address:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        for fixture, lang in SHOTS:
            if only and fixture not in only:
                continue
            shown, taps, until = SCENES.get(fixture, (fixture, [], ""))
            sizes = [*SIZES, *([("360-dark", 360, 740, True)] if fixture in SMALL_DARK else [])]
            for suffix, width, height, dark in sizes:
                page = open_table(
                    browser,
                    address,
                    shown,
                    width=width,
                    height=height,
                    dark=dark,
                    lang=lang,
                    scale=1,
                )
                for tap in taps:
                    page.click(tap)
                if until:
                    page.wait_for_selector(until)
                    page.wait_for_timeout(150)
                path = OUT / f"{fixture}-{suffix}.png"
                # a dialog is the screen's: shot as the phone shows it, not the page beneath
                page.screenshot(path=str(path), full_page=not until)
                page.context.close()
                print(path.relative_to(OUT.parents[1]))
        browser.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
