"""``python -m game.play <game>``: play against computer players in a terminal.

No token, no network: you sit in seat 0 («Вы») and the computers («🤖 1», «🤖 2», …) take the
other seats. The screen shows exactly what your seat may see — its own view of the deal
(``seat_view``), the table's public events and the private ones meant for you — and nothing
else: other hands stay hidden until the rules show them.

    python -m game.play stukolka [--players 4] [--level strong|easy|random] [--seed N]
    python -m game.play shleif
    python -m game.play starshina

At your turn the choices are numbered; type a number. Cards to choose (a purchase, the
Старшина kitty) are typed as numbers of your hand, separated by spaces. ``q`` quits.

The games are those with a screen of their own (``game.<kind>.terminal``, see
``game.terminal``); this module names none of them.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from game.ai import LEVELS, Budget, Computer
from game.cards import FULL_DECK, shuffle
from game.core import Action, Event, Legal
from game.registry import GameRules, JsonObject, Step
from game.replay import money
from game.terminal import HUMAN, Terminal
from game.tools import GameTools

Read = Callable[[str], str]
Write = Callable[[str], None]


class Quit(Exception):
    """The player typed q, or the input ended."""


def offered(games: Sequence[GameTools]) -> dict[str, tuple[GameTools, JsonObject]]:
    """Every name the terminal offers of ``games`` (those with a screen there and computer
    players), with its game and the options it means (``ValueError`` for a name two games
    offer)."""
    found: dict[str, tuple[GameTools, JsonObject]] = {}
    for game in games:
        if game.terminal is None or game.computer is None:
            continue
        for word, options in game.terminal.names.items():
            if word in found:
                raise ValueError(
                    f"{game.rules.kind} and {found[word][0].rules.kind} both offer {word!r}"
                )
            found[word] = (game, options)
    return found


class Table:
    """One game at the terminal: the rules, the state, the money, the computers' level."""

    def __init__(
        self,
        games: Sequence[GameTools],
        name: str,
        players: int,
        level: str,
        seed: int,
        budget_ms: float,
    ):
        try:
            game, options = offered(games)[name]
        except KeyError:
            raise ValueError(f"no game {name!r} in the terminal") from None
        assert game.terminal is not None and game.computer is not None
        self.rules: GameRules = game.rules
        self.terminal: Terminal[Any] = game.terminal
        self.computer: Computer[Any] = game.computer
        self.options = self.rules.check_options(options)
        self.rng = random.Random(seed)
        self.level = level
        self.budget_ms = budget_ms
        self.players = players
        self.balances = [0] * players
        self.pot = 0
        self.state: Any = None

    def _shuffled(self) -> list[str]:
        deck = list(FULL_DECK)
        shuffle(deck, self.rng)
        return deck

    def _count(self, step: Step) -> list[Event]:
        """The step's events, its money counted on the score (and in the chat's pot)."""
        nets, pot = money(step.transfers, self.players, self.pot)
        self.balances = [balance + net for balance, net in zip(self.balances, nets, strict=True)]
        if self.rules.chat_pot:
            self.pot = pot
        return list(step.events)

    def start(self) -> list[Event]:
        deck = self._shuffled()
        dealer = self.rng.randrange(self.players)
        self.state, step = self.rules.start(
            self.options, self.players, deck, dealer=dealer, pot=self.pot
        )
        return self._count(step)

    def next_deal(self) -> list[Event]:
        dealer = (self.state.dealer + 1) % self.players
        self.state, step = self.state.next_deal(
            self._shuffled(), pot=self.pot, players=self.players, dealer=dealer
        )
        return self._count(step)

    def apply(self, action: Action) -> list[Event]:
        return self._count(self.state.apply(action))

    @property
    def to_act(self) -> int | None:
        seat: int | None = self.state.to_act
        return seat

    @property
    def deal_over(self) -> bool:
        return bool(self.state.deal_over)

    @property
    def game_over(self) -> bool:
        return bool(self.state.game_over)

    def view(self) -> Any:
        return self.state.seat_view(HUMAN)

    def screen(self) -> str:
        return self.terminal.screen(self.view(), self.balances)

    def computer_move(self) -> list[Event]:
        seat = self.to_act
        assert seat is not None
        events: list[Event] = []
        if self.computer.looks_first(self.state.seat_view(seat)):
            events += self.apply(Action(seat, "look"))
        deadline = time.perf_counter() + self.budget_ms / 1000
        budget = Budget(stop=lambda: time.perf_counter() > deadline, min_samples=2)
        view = self.state.seat_view(seat)
        return events + self.apply(self.computer.choose(view, self.level, self.rng, budget))


def _ask(read: Read, prompt: str) -> str:
    try:
        answer = read(prompt).strip()
    except EOFError as error:
        raise Quit from error
    if answer.lower() in ("q", "quit", "выход"):
        raise Quit
    return answer


def human_move(table: Table, read: Read, write: Write) -> list[Event]:
    view = table.view()
    looked: list[Event] = []
    if table.terminal.looks_at_once(view):
        looked = table.apply(Action(HUMAN, "look"))
        view = table.view()
    write(table.screen())
    options = table.terminal.choices(view)
    write("Ваш ход: " + "  ".join(f"[{i}] {text}" for i, (text, _) in enumerate(options, 1)))
    while True:
        answer = _ask(read, "> ")
        if not answer.isdigit() or not 1 <= int(answer) <= len(options):
            write(f"Введите номер от 1 до {len(options)} (или q).")
            continue
        entry = options[int(answer) - 1][1]
        if entry is None:
            return looked + table.apply(Action(HUMAN, "look"))
        if entry.pick is None:
            return looked + table.apply(Action(HUMAN, entry.verb, entry.arg))
        return looked + _pick(table, entry, read, write)


def _pick(table: Table, entry: Legal, read: Read, write: Write) -> list[Event]:
    hand = table.terminal.hand(table.view())
    assert entry.pick is not None
    fewest, most = entry.pick
    while True:
        answer = _ask(read, f"Номера карт через пробел — {_how_many(fewest, most)}: ")
        numbers = answer.replace(",", " ").split()
        if all(n.isdigit() and 1 <= int(n) <= len(hand) for n in numbers):
            cards = tuple(dict.fromkeys(hand[int(n) - 1] for n in numbers))
            if fewest <= len(cards) <= most:
                return table.apply(Action(HUMAN, entry.verb, cards))
        write(f"Нужны номера карт из вашей руки: {_how_many(fewest, most)}.")


def _how_many(fewest: int, most: int) -> str:
    if fewest == most:
        return f"ровно {fewest}"
    if fewest == 0:
        return f"не больше {most} (пусто — ни одной)"
    return f"от {fewest} до {most}"


def _seen(events: Sequence[Event]) -> list[Event]:
    return [event for event in events if event.to is None or event.to == HUMAN]


def run(table: Table, read: Read, write: Write) -> int:
    """Play until the game ends or the player quits."""
    events = table.start()
    try:
        while True:
            for event in _seen(events):
                write(table.terminal.describe(event))
            if table.deal_over:
                write(table.screen())
                if table.game_over:
                    return 0
                _ask(read, "Enter — следующая сдача, q — выход: ")
                events = table.next_deal()
                continue
            if table.to_act == HUMAN:
                events = human_move(table, read, write)
            else:
                events = table.computer_move()
    except Quit:
        write("До встречи!")
        return 0


def main(games: Sequence[GameTools], argv: Sequence[str] | None = None) -> int:
    """Play the game a command line names, one of ``games``, in the terminal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    names = offered(games)
    parser.add_argument("game", choices=sorted(names))
    parser.add_argument(
        "--players", type=int, default=None, help="players at the table, you among them"
    )
    parser.add_argument("--level", choices=LEVELS, default="strong")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--budget-ms", type=float, default=300.0)
    args = parser.parse_args(argv)
    try:
        players = names[args.game][0].table_size(args.players)
    except ValueError as error:
        parser.error(str(error))
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    return run(Table(games, args.game, players, args.level, seed, args.budget_ms), input, print)


if __name__ == "__main__":
    import sys

    from game.games import TOOLS

    sys.exit(main(TOOLS))
