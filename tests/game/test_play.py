"""``python -m game.play``: a person plays the computers in a terminal, and the screen shows
only what the person's seat may see."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from game.cards import FULL_DECK, russian_label
from game.play import Table, run
from game.terminal import HUMAN
from tests.library import TOOLS

ROOT = Path(__file__).resolve().parents[2]
#: a card as the bot shows it in a Russian chat: В Д К Т, the suit in emoji presentation
CARD_LABEL = re.compile("(10|[2-9ВДКТ])([♠♥♦♣])\ufe0f")
BY_LABEL = {russian_label(card): card for card in FULL_DECK}
CARD_CODE = re.compile(r"'([2-9TJQKA][SHDC])'")
ENGINE_WORD = re.compile(r"\b[a-z_]{2,}\b")


def _answer(prompt: str) -> str:
    if prompt.startswith("Номера карт"):
        low = re.search(r"ровно (\d+)|от (\d+)", prompt)
        fewest = 0 if low is None else int(low.group(1) or low.group(2))
        return " ".join(str(number) for number in range(1, fewest + 1))
    return "1" if prompt == "> " else ""


def _reader(prompts: int) -> tuple[Callable[[str], str], list[int]]:
    """Answers ``_answer`` gives, then «q» after ``prompts`` prompts; and how many were asked."""
    asked = [0]

    def read(prompt: str) -> str:
        asked[0] += 1
        return "q" if asked[0] > prompts else _answer(prompt)

    return read, asked


@pytest.mark.parametrize(
    ("game", "players", "prompts"),
    [("stukolka", 4, 60), ("shleif", 3, 60), ("stukolka", 6, 40), ("starshina", 3, 150)],
)
def test_the_screen_shows_only_what_the_seat_may_see(game: str, players: int, prompts: int) -> None:
    """Every card on the screen is a card of the seat's own view at that moment (its hand,
    its discards, cards played, the face-up trump) or of an event it was shown (public, or
    private to it: ``run`` shows no other seat's private events)."""
    table = Table(TOOLS, game, players, "easy", seed=11, budget_ms=5)
    seen_in_events: set[str] = set()
    screens: list[str] = []
    read, asked = _reader(prompts)

    def write(text: str) -> None:
        screens.append(text)
        visible = set(CARD_CODE.findall(repr(table.view()))) | seen_in_events
        if text.startswith("  · "):  # an event for the table, or one meant for this seat
            seen_in_events.update(BY_LABEL[m.group(0)] for m in CARD_LABEL.finditer(text))
            return
        shown = {BY_LABEL[m.group(0)] for m in CARD_LABEL.finditer(text)}
        assert shown <= visible, f"{sorted(shown - visible)} shown to seat {HUMAN}:\n{text}"

    assert run(table, read, write) == 0
    text = "\n".join(screens)
    # every line in Russian words: no engine name (knock, card_played, …) reaches the screen
    assert not ENGINE_WORD.findall(text), sorted(set(ENGINE_WORD.findall(text)))
    assert "Ваши карты" in text
    assert "Ваш ход" in text
    assert asked[0] > 5


def test_private_events_of_other_seats_never_reach_the_screen() -> None:
    table = Table(TOOLS, "shleif", 4, "easy", seed=5, budget_ms=5)
    lines: list[str] = []
    answers = iter(["1", "", "1", "1", "1", "1", "", "1", "1", "1"] * 5)

    def read(prompt: str) -> str:
        return next(answers, "q")

    run(table, read, lines.append)
    assert lines
    for line in lines:
        assert "купили" not in line or "(видно только вам)" in line


@pytest.mark.parametrize("game", ["stukolka", "shleif", "starshina"])
def test_play_runs_from_the_command_line_through_stdin(game: str) -> None:
    answers = "1\n\n1 2 3 4\n" * 30 + "q\n"
    done = subprocess.run(
        [sys.executable, "-m", "game.play", game, "--seed", "2", "--budget-ms", "5"],
        cwd=ROOT,
        input=answers,
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "Ваш ход" in done.stdout
    assert "До встречи!" in done.stdout or "Партия окончена" in done.stdout
    assert done.stderr == ""


def _screens(game: str, players: int, seed: int, prompts: int) -> str:
    screens: list[str] = []
    read, _ = _reader(prompts)
    run(Table(TOOLS, game, players, "easy", seed=seed, budget_ms=5), read, screens.append)
    return "\n".join(screens)


@pytest.mark.parametrize(
    ("game", "players", "prompts"), [("stukolka", 3, 80), ("starshina", 3, 400)]
)
def test_the_terminal_shows_cards_and_money_as_the_bot_does(
    game: str, players: int, prompts: int
) -> None:
    """The cards as a Russian chat shows them (В Д К Т, suits in emoji presentation), signed
    numbers with a true minus, and the money in sentences, never a ledger line."""
    text = _screens(game, players, 3, prompts)
    assert "Сдача окончена" in text
    assert CARD_LABEL.search(text)
    assert not re.search("(?<![A-Za-z])[JQKA][♠♥♦♣]", text), "a Latin rank"
    assert not re.search("[♠♥♦♣](?!\ufe0f)", text), "a suit not in emoji presentation"
    assert not re.search(r"(?<![\w-])-\d", text), "a hyphen for a minus"
    assert "+0" not in text
    # «кон → 🤖 2: 1 (взятка)» was a ledger line; now «🤖 2 получает из кона 1 фишку за взятку»
    assert not re.search(r"→ [^:\n]+: \d+ \(", text), "a raw ledger line"
    assert re.search(r"(ставит|ставите) \d+ фишк\w* в (кон|банк партии)", text)
    if game == "starshina":
        assert "−" in text  # a player below his target
    else:
        assert re.search(r"(получает|получаете) из кона \d+ фишк\w* за \d* ?взятк", text)
