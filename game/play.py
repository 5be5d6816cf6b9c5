"""``python -m game.play stukolka|shleif|starshina``: play against computer players in a terminal.

No token, no network: you sit in seat 0 («Вы») and the computers («🤖 1», «🤖 2», …) take the
other seats. The screen shows exactly what your seat may see — its own view of the deal
(``seat_view``), the table's public events and the private ones meant for you — and nothing
else: other hands stay hidden until the rules show them.

    python -m game.play stukolka [--players 4] [--level strong|easy|random] [--seed N]
    python -m game.play shleif
    python -m game.play starshina

At your turn the choices are numbered; type a number. Cards to choose (a purchase, the
Старшина kitty) are typed as numbers of your hand, separated by spaces. ``q`` quits.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from game import starshina, stukolka
from game.ai import LEVELS, Budget, choose
from game.cards import FULL_DECK, label, shuffle, sort_hand
from game.core import Action, Event, Legal, Transfer

HUMAN = 0

Read = Callable[[str], str]
Write = Callable[[str], None]


class Quit(Exception):
    """The player typed q, or the input ended."""


def name(seat: int | str) -> str:
    if isinstance(seat, str):
        return {"pot": "банк", "game_pot": "банк партии"}.get(seat, seat)
    return "Вы" if seat == HUMAN else f"🤖 {seat}"


def _cards(cards: Sequence[str]) -> str:
    return " ".join(label(card) for card in cards) or "—"


def _value(key: str, value: Any) -> str:
    if isinstance(value, str) and len(value) == 2 and value[0] in "23456789TJQKA":
        return label(value)
    if isinstance(value, list) and all(isinstance(item, str) for item in value):
        return _cards(value)
    if key in ("seat", "leader") and isinstance(value, int):
        return name(value)
    return str(value)


def describe(event: Event) -> str:
    """One line for an event, any kind: who did what, cards as people read them."""
    data = dict(event.data)
    seat = data.pop("seat", None)
    who = f"{name(seat)}: " if isinstance(seat, int) else ""
    if "transfers" in data:
        moves = [Transfer.from_json(item) for item in data.pop("transfers")]
        data["money"] = "; ".join(
            f"{name(move.src)} → {name(move.dst)} {move.amount} ({move.reason})" for move in moves
        )
    details = ", ".join(f"{key} {_value(key, value)}" for key, value in data.items())
    private = " (видно только вам)" if event.to is not None else ""
    return f"  · {who}{event.kind}{' — ' + details if details else ''}{private}"


def _legal_label(entry: Legal) -> str:
    if entry.pick is not None:
        return f"{entry.verb} ({entry.pick[0]}–{entry.pick[1]} карт)"
    return entry.verb if entry.arg is None else f"{entry.verb} {_value('card', entry.arg)}"


class Table:
    """One game at the terminal: the rules module, the state and the computers' levels."""

    def __init__(self, game: str, players: int, level: str, seed: int, budget_ms: float):
        self.game = game
        self.rng = random.Random(seed)
        self.level = level
        self.budget_ms = budget_ms
        self.deck: list[str] = []
        self.balances = [0] * players
        self.players = players
        self.rules: Any = starshina if game == "starshina" else stukolka
        self.state: Any = None

    def _shuffled(self) -> list[str]:
        deck = list(FULL_DECK)
        shuffle(deck, self.rng)
        return deck

    def start(self) -> list[Event]:
        if self.game == "starshina":
            self.state, events = starshina.new_game(
                starshina.StarshinaOptions(), self._shuffled(), dealer=self.rng.randrange(3)
            )
        else:
            variant = "shleif" if self.game == "shleif" else "classic"
            options = stukolka.StukolkaOptions.from_json({"variant": variant})
            self.state, events = stukolka.new_deal(options, self.players, self._shuffled())
        return list(events)

    def next_deal(self) -> list[Event]:
        if self.game == "starshina":
            return list(starshina.next_deal(self.state, self._shuffled())[1])
        self.state, events = stukolka.next_deal(self.state, self._shuffled())
        return list(events)

    @property
    def deal_over(self) -> bool:
        return self.state.to_act is None

    @property
    def game_over(self) -> bool:
        return self.game == "starshina" and self.state.phase is starshina.Phase.GAME_OVER

    def view(self) -> Any:
        return self.rules.seat_view(self.state, HUMAN)

    def computer_move(self) -> list[Event]:
        seat = self.state.to_act
        events: list[Event] = []
        if self.game != "starshina" and stukolka.seat_view(self.state, seat).may_look:
            events += stukolka.apply(self.state, Action(seat, "look"))
        deadline = time.perf_counter() + self.budget_ms / 1000
        budget = Budget(stop=lambda: time.perf_counter() > deadline, min_samples=2)
        view = self.rules.seat_view(self.state, seat)
        events += self.rules.apply(self.state, choose(view, self.level, self.rng, budget))
        return events


def render(table: Table) -> str:
    """What seat 0 sees now, from its view only."""
    view = table.view()
    public = view.table
    lines = [""]
    if table.game == "starshina":
        lines.append(
            f"Сдача {public.deal_no + 1}, сдаёт {name(public.dealer)}, "
            f"козырь {public.trump or 'нет'}, банк партии {public.game_pot}"
        )
        for seat in public.seats:
            lines.append(
                f"  {name(seat.seat)}: карт {seat.cards}, цель {seat.target}, "
                f"взяток {seat.tricks}, итог партии {seat.total_diff:+d}"
            )
        hand = sort_hand(view.hand, public.trump)
    else:
        trump_card = label(public.trump_card) if public.trump_card else "скрыта"
        lines.append(
            f"Сдача {public.deal_no + 1}, сдаёт {name(public.dealer)}, банк {public.pot}, "
            f"козырь {public.trump or '—'} (карта {trump_card}), в колоде {public.stock_count}"
        )
        for seat in public.seats:
            bought = "—" if seat.bought is None else seat.bought
            lines.append(
                f"  {name(seat.seat)}: {seat.role}, карт {seat.cards}, купил {bought}, "
                f"взяток {seat.tricks}"
            )
        hand = sort_hand(view.hand, public.trump) if view.hand is not None else []
        if view.hand is None:
            lines.append("Ваши карты: не открыты")
        if view.shleif_card:
            lines.append(f"Шлейфовая карта у вас: {label(view.shleif_card)}")
    if public.last_trick:
        lines.append("Прошлая взятка: " + _trick(public.last_trick))
    if public.trick:
        lines.append("На столе: " + _trick(public.trick))
    if hand:
        numbered = "  ".join(f"{index}:{label(card)}" for index, card in enumerate(hand, 1))
        lines.append(f"Ваши карты: {numbered}")
    if view.discards:
        lines.append(f"Ваш снос: {_cards(view.discards)}")
    lines.append(f"Счёт: {', '.join(f'{name(s)} {b:+d}' for s, b in enumerate(table.balances))}")
    return "\n".join(lines)


def _trick(trick: Sequence[tuple[int, str]]) -> str:
    return ", ".join(f"{name(seat)} {label(card)}" for seat, card in trick)


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
    if getattr(view, "may_look", False) and not any(e.verb == "dark" for e in view.legal):
        looked = list(table.rules.apply(table.state, Action(HUMAN, "look")))
        view = table.view()
    write(render(table))
    order = {card: index for index, card in enumerate(sort_hand(FULL_DECK, view.table.trump))}
    legal = sorted(view.legal, key=lambda e: order.get(str(e.arg), -1))  # as the hand is shown
    options: list[tuple[str, Legal | None]] = [(_legal_label(e), e) for e in legal]
    if getattr(view, "may_look", False):
        options.append(("посмотреть карты (look)", None))
    write("Ваш ход: " + "  ".join(f"[{i}] {text}" for i, (text, _) in enumerate(options, 1)))
    while True:
        answer = _ask(read, "> ")
        if not answer.isdigit() or not 1 <= int(answer) <= len(options):
            write(f"Введите номер от 1 до {len(options)} (или q).")
            continue
        entry = options[int(answer) - 1][1]
        if entry is None:
            return looked + list(table.rules.apply(table.state, Action(HUMAN, "look")))
        if entry.pick is None:
            action = Action(HUMAN, entry.verb, entry.arg)
            return looked + list(table.rules.apply(table.state, action))
        return looked + _pick(table, entry, read, write)


def _pick(table: Table, entry: Legal, read: Read, write: Write) -> list[Event]:
    view = table.view()
    hand = sort_hand(view.hand or (), view.table.trump)
    assert entry.pick is not None
    fewest, most = entry.pick
    while True:
        answer = _ask(read, f"Номера карт ({fewest}–{most}, через пробел; пусто — ни одной): ")
        numbers = answer.replace(",", " ").split()
        if all(n.isdigit() and 1 <= int(n) <= len(hand) for n in numbers):
            cards = tuple(dict.fromkeys(hand[int(n) - 1] for n in numbers))
            if fewest <= len(cards) <= most:
                return list(table.rules.apply(table.state, Action(HUMAN, entry.verb, cards)))
        write(f"Нужно от {fewest} до {most} номеров карт из вашей руки.")


def _seen(events: Sequence[Event]) -> list[Event]:
    return [event for event in events if event.to is None or event.to == HUMAN]


def _settle(table: Table, write: Write) -> None:
    state = table.state
    if table.game == "starshina":
        if table.game_over:
            for transfer in state.transfers:
                for seat in range(3):
                    if transfer.src == seat:
                        table.balances[seat] -= transfer.amount
                    if transfer.dst == seat:
                        table.balances[seat] += transfer.amount
            write(f"Партия окончена: выиграл {name(state.winner)}.")
        return
    for transfer in state.transfers:
        for seat in range(table.players):
            if transfer.src == seat:
                table.balances[seat] -= transfer.amount
            if transfer.dst == seat:
                table.balances[seat] += transfer.amount


def run(table: Table, read: Read, write: Write) -> int:
    """Play until the game ends (Старшина) or the player quits."""
    events = table.start()
    try:
        while True:
            for event in _seen(events):
                write(describe(event))
            if table.deal_over:
                _settle(table, write)
                write(render(table))
                if table.game_over:
                    return 0
                _ask(read, "Enter — следующая сдача, q — выход: ")
                events = table.next_deal()
                continue
            if table.state.to_act == HUMAN:
                events = human_move(table, read, write)
            else:
                events = table.computer_move()
    except Quit:
        write("До встречи!")
        return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("game", choices=["stukolka", "shleif", "starshina"])
    parser.add_argument("--players", type=int, default=4, help="Стуколка: 2 to 6")
    parser.add_argument("--level", choices=LEVELS, default="strong")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--budget-ms", type=float, default=300.0)
    args = parser.parse_args(argv)
    players = 3 if args.game == "starshina" else args.players
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    return run(Table(args.game, players, args.level, seed, args.budget_ms), input, print)


if __name__ == "__main__":
    sys.exit(main())
