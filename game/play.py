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
from game.ai import LEVELS, Budget, Computer
from game.cards import FULL_DECK, SUIT_EMOJI, shuffle, sort_hand
from game.cards import russian_label as label
from game.core import Action, Event, Legal, Transfer
from game.starshina import ai as starshina_ai
from game.stukolka import ai as stukolka_ai

HUMAN = 0
MINUS = "\u2212"

Read = Callable[[str], str]
Write = Callable[[str], None]


class Quit(Exception):
    """The player typed q, or the input ended."""


def name(seat: int | str) -> str:
    if isinstance(seat, str):
        return {"pot": "кон", "game_pot": "банк партии"}.get(seat, seat)
    return "Вы" if seat == HUMAN else f"🤖 {seat}"


def _cards(cards: Sequence[str]) -> str:
    return " ".join(label(card) for card in cards) or "—"


def _suit(letter: str | None) -> str:
    return SUIT_EMOJI.get(letter or "", "нет")


def signed(amount: int) -> str:
    """``+8``, ``−12`` (a true minus sign, as the bot writes it), ``0``."""
    return f"+{amount}" if amount > 0 else f"{MINUS}{-amount}" if amount < 0 else "0"


def plural(n: int, one: str, few: str, many: str) -> str:
    """``n`` and the Russian form of its noun: 1 карта, 2 карты, 5 карт, 21 карта."""
    if n % 10 == 1 and n % 100 != 11:
        form = one
    elif 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        form = few
    else:
        form = many
    return f"{n} {form}"


def _count(n: int) -> str:
    return plural(n, "карта", "карты", "карт")


def _accusative(n: int) -> str:
    return plural(n, "карту", "карты", "карт")


def _chips(n: int) -> str:
    """Chips in the accusative, the case every money sentence takes: «1 фишку», «3 фишки»."""
    return plural(n, "фишку", "фишки", "фишек")


#: a Стуколка seat's role: how it reads after a computer's name, and after «Вы»
ROLES = {
    "none": ("ждёт", "ждёте"),
    "knock": ("стучит", "стучите"),
    "pass": ("пас", "пас"),
    "dark": ("втемную", "втемную"),
    "shleif_dealer": ("играет со шлейфом", "играете со шлейфом"),
    "razrez": ("в разрез", "в разрез"),
    "defender": ("защищает кон", "защищаете кон"),
}
#: what a seat says (after a colon) or does (after its name: a computer's form, then the
#: form after «Вы»), for the events that carry nothing but the seat
SAYS = {
    "knock": "«Стучу!»",
    "pass": "«Пас»",
    "dark": "«Втемную!»",
    "razrez": "«В разрез»",
    "no_razrez": "«Без разреза»",
}
DOES = {
    "open": ("открывает козырь", "открываете козырь"),
    "shleif": ("играет со шлейфом", "играете со шлейфом"),
    "look": ("смотрит карты", "смотрите карты"),
    "dropped": ("сносит карту", "сносите карту"),
    "defends": ("защищает кон", "защищаете кон"),
    "kitty_taken": ("сносит 4 карты и берёт прикуп", "сносите 4 карты и берёте прикуп"),
    "choose": ("выбирает: шлейф или открыть козырь", "выбираете: шлейф или открыть козырь"),
    "bought": ("покупает", "покупаете"),
    "no_purchase": ("остаётся при своих картах", "остаётесь при своих картах"),
    "trick_won": ("берёт взятку", "берёте взятку"),
    "gives": ("отдаёт", "отдаёте"),
    "returns": ("возвращает", "возвращаете"),
}


def _does(seat: int, what: str) -> str:
    """``seat``'s name and the verb in its person: «🤖 1 берёт», «Вы берёте»."""
    return _verb(seat, *DOES[what])


def _verb(seat: int | str, third: str, second: str) -> str:
    return f"{name(seat)} {second if seat == HUMAN else third}"


def _to(party: int | str) -> str:
    """Where a payment goes: «в кон», «в банк партии», «вам», «игроку 🤖 2»."""
    if party == "pot":
        return "в кон"
    if party == "game_pot":
        return "в банк партии"
    return "вам" if party == HUMAN else f"игроку {name(party)}"


def _payment(src: int | str, dst: int | str, amount: int, reason: str, count: int) -> str:
    """One line of the money in words: who pays whom how much and why (``count`` payments of
    the same kind summed, as a player's tricks)."""
    chips = _chips(amount)
    match reason:
        case "ante":
            return f"{_verb(src, 'ставит', 'ставите')} {chips} {_to(dst)}"
        case "trick":
            tricks = "взятку" if count == 1 else plural(count, "взятку", "взятки", "взяток")
            return f"{_verb(dst, 'получает', 'получаете')} из кона {chips} за {tricks}"
        case "pot_taken":
            return f"{_verb(dst, 'забирает', 'забираете')} весь кон: {chips}"
        case "remiz":
            return f"{_verb(src, 'платит', 'платите')} ремиз: {chips} в кон"
        case "game_pot":
            return f"{_verb(dst, 'забирает', 'забираете')} банк партии: {chips}"
        case "missed_target":
            pays = "платите" if src == HUMAN else "платит"
            return f"{_verb(src, 'не добирает', 'не добираете')} норму и {pays} {chips} {_to(dst)}"
        case "diff":
            return f"{_verb(src, 'платит', 'платите')} {chips} {_to(dst)} за разницу с нормой"
        case "void":
            return f"{_verb(dst, 'получает', 'получаете')} обратно {chips}"
    return f"{_verb(src, 'платит', 'платите')} {chips} {_to(dst)}"


def _money(transfers: Sequence[Any]) -> str:
    """The transfers in sentences, the same payer, payee and reason summed into one."""
    summed: dict[tuple[int | str, int | str, str], list[int]] = {}
    for move in (Transfer.from_json(item) for item in transfers):
        total = summed.setdefault((move.src, move.dst, move.reason), [0, 0])
        total[0] += move.amount
        total[1] += 1
    return "; ".join(
        _payment(src, dst, amount, reason, count)
        for (src, dst, reason), (amount, count) in summed.items()
    )


def _by_seat(values: Sequence[int], with_sign: bool = False) -> str:
    return ", ".join(
        f"{name(seat)} {signed(value)}" if with_sign else f"{name(seat)} {value}"
        for seat, value in enumerate(values)
    )


def _text(kind: str, data: dict[str, Any]) -> str:
    """An event in words, or ``""`` for a kind this screen does not know."""
    seat: int = data["seat"] if isinstance(data.get("seat"), int) else -1
    who = name(seat) if seat >= 0 else ""
    match kind:
        case _ if kind in SAYS and who:
            return f"{who}: {SAYS[kind]}"
        case _ if kind in DOES and who and len(data) == 1:
            return _does(seat, kind)
        case "game_started":
            return f"Партия началась, первым сдающий: {name(data['dealer'])}."
        case "antes":
            return f"Ставки: {_money(data['transfers'])}."
        case "deal_started":
            targets = ", ".join(
                f"{name(seat)} {target}" for seat, target in enumerate(data["targets"])
            )
            ring = ", ".join(f"{name(a)} → {name(b)}" for a, b in data.get("exchange") or ())
            exchange = f"; обмен: {ring}" if ring else ""
            return (
                f"Сдача {data['deal_no'] + 1}, сдающий: {name(data['dealer'])}. "
                f"Нормы взяток: {targets}{exchange}."
            )
        case "choose":
            return f"{_does(seat, 'choose')} (в кону {data['pot']})."
        case "trump" if data.get("shleif"):
            return f"Козырь {_suit(data['suit'])}: шлейф у сдающего, карта закрыта."
        case "trump":
            return f"Козырь {_suit(data['suit'])}: карта {label(data['card'])} открыта на колоде."
        case "shleif_card":
            return f"Ваша шлейфовая карта: {label(data['card'])}."
        case "bought" if data["count"] == 0:
            return _does(seat, "no_purchase")
        case "bought":
            return f"{_does(seat, 'bought')} {_accusative(data['count'])}"
        case "drew" if not data["cards"]:
            return "Вы оставили свои карты."
        case "drew":
            dropped = _cards(data["discarded"])
            return f"Вы сбросили {dropped} и купили {_cards(data['cards'])}."
        case "drop":
            return f"Вы снесли {label(data['card'])}."
        case "play_starts" if "active" in data:
            players = ", ".join(name(seat) for seat in data["active"])
            return f"Розыгрыш: играют {players}; первым ходит {name(data['leader'])}."
        case "play_starts":
            return (
                f"Розыгрыш: козырь {_suit(data.get('trump'))}; первым ходит {name(data['leader'])}."
            )
        case "card_played":
            return f"{who}: {label(data['card'])}"
        case "trick_won":
            return f"{_does(seat, 'trick_won')} {data['trick_no'] + 1}"
        case "card_given":
            return f"{_does(seat, 'gives')} карту игроку {name(data['to'])}"
        case "card_returned":
            forced = " (старшую той же масти)" if data.get("forced") else ""
            return f"{_does(seat, 'returns')} карту{forced} игроку {name(data['to'])}"
        case "received":
            return f"Вы получили {label(data['card'])} от игрока {name(data['from'])}."
        case "returned":
            return f"Вы вернули {label(data['card'])} игроку {name(data['to'])}."
        case "trump_named":
            return f"{who}: козырь {_suit(data['suit'])}"
        case "kitty":
            return (
                f"Вы снесли {_cards(data['discarded'])} и взяли из прикупа {_cards(data['cards'])}."
            )
        case "deal_settled":
            return _settled(data)
        case "game_over":
            why = "12 взяток" if data.get("reason") == "twelve" else "последняя сдача"
            return f"Партия окончена ({why}). Победа: {name(data['winner'])}."
    return ""


def _settled(data: dict[str, Any]) -> str:
    parts = ["Сдача окончена."]
    outcome = data.get("outcome")
    if outcome == "nobody":
        parts.append("Играть никто не стал.")
    elif outcome == "lone":
        parts.append("Играл один: кон без розыгрыша.")
    if "tricks" in data and outcome != "nobody":
        parts.append(f"Взятки: {_by_seat(data['tricks'])}.")
    if "diffs" in data:
        parts.append(f"Разница с нормой: {_by_seat(data['diffs'], with_sign=True)}.")
    if data.get("transfers"):
        parts.append(f"Расчёт: {_money(data['transfers'])}.")
    if "pot_after" in data:
        # Старшина's pot is the game's own (it has the diffs), Стуколка's the chat's
        where = "В банке партии" if "diffs" in data else "В кону"
        parts.append(f"{where}: {data['pot_after']}.")
    return " ".join(parts)


def describe(event: Event) -> str:
    """One line for an event: who did what, in words, cards as people read them. A kind this
    screen has no words for is shown with its data, so nothing the seat may see is lost."""
    data = dict(event.data)
    text = _text(event.kind, data)
    if not text:
        seat = data.pop("seat", None)
        who = f"{name(seat)}: " if isinstance(seat, int) else ""
        details = ", ".join(f"{key} {value}" for key, value in data.items())
        text = f"{who}{event.kind}{' — ' + details if details else ''}"
    private = " (видно только вам)" if event.to is not None else ""
    return f"  · {text}{private}"


VERBS = {
    "knock": "Стучу!",
    "pass": "Пас",
    "dark": "Втемную",
    "open": "Открыть козырь",
    "shleif": "Шлейф",
    "razrez": "В разрез",
    "no_razrez": "Без разреза",
    "discard": "Купить",
    "kitty": "Снести 4 карты и взять прикуп",
}
CARD_VERBS = {"play": "", "drop": "Снести ", "give": "Отдать ", "return": "Вернуть "}


def _legal_label(entry: Legal) -> str:
    if entry.verb == "trump":
        return f"Козырь {_suit(str(entry.arg))}"
    if entry.verb in CARD_VERBS and entry.arg is not None:
        return CARD_VERBS[entry.verb] + label(str(entry.arg))
    text = VERBS.get(entry.verb, entry.verb)
    if entry.pick is not None and entry.verb == "discard":
        return f"{text} (сбросить от {entry.pick[0]} до {entry.pick[1]} карт)"
    return text


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
        self.computer: Computer[Any] = (
            starshina_ai.COMPUTER if game == "starshina" else stukolka_ai.COMPUTER
        )
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
        if self.computer.looks_first(self.rules.seat_view(self.state, seat)):
            events += self.rules.apply(self.state, Action(seat, "look"))
        deadline = time.perf_counter() + self.budget_ms / 1000
        budget = Budget(stop=lambda: time.perf_counter() > deadline, min_samples=2)
        view = self.rules.seat_view(self.state, seat)
        events += self.rules.apply(
            self.state, self.computer.choose(view, self.level, self.rng, budget)
        )
        return events


def render(table: Table) -> str:
    """What seat 0 sees now, from its view only."""
    view = table.view()
    public = view.table
    lines = [""]
    if table.game == "starshina":
        lines.append(
            f"Сдача {public.deal_no + 1}, сдающий: {name(public.dealer)}, "
            + (f"козырь {_suit(public.trump)}" if public.trump else "без козыря")
            + f", банк партии {public.game_pot}"
        )
        for seat in public.seats:
            lines.append(
                f"  {name(seat.seat)}: {_count(seat.cards)}, норма {seat.target}, "
                f"взяток {seat.tricks}, за партию {signed(seat.total_diff)}"
            )
        hand = sort_hand(view.hand, public.trump)
    else:
        if public.trump is None:
            trump = "ещё не открыт"
        elif public.trump_card:
            trump = f"{_suit(public.trump)} ({label(public.trump_card)})"
        else:
            trump = f"{_suit(public.trump)}, шлейф у сдающего"
        lines.append(
            f"Сдача {public.deal_no + 1}, сдающий: {name(public.dealer)}, в кону {public.pot}, "
            f"козырь {trump}"
            + (f", в колоде {_count(public.stock_count)}" if public.stock_count else "")
        )
        for seat in public.seats:
            bought = "" if seat.bought is None else f", покупка: {seat.bought}"
            lines.append(
                f"  {name(seat.seat)}: {_role(seat.seat, str(seat.role))}, "
                f"{_count(seat.cards)}{bought}, взяток {seat.tricks}"
            )
        hand = sort_hand(view.hand, public.trump) if view.hand is not None else []
        if view.hand is None and public.seats[HUMAN].cards:
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
    lines.append(
        f"Счёт: {', '.join(f'{name(s)} {signed(b)}' for s, b in enumerate(table.balances))}"
    )
    return "\n".join(lines)


def _role(seat: int, role: str) -> str:
    third, second = ROLES.get(role, (role, role))
    return second if seat == HUMAN else third


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
        options.append(("Посмотреть карты", None))
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
        answer = _ask(read, f"Номера карт через пробел — {_how_many(fewest, most)}: ")
        numbers = answer.replace(",", " ").split()
        if all(n.isdigit() and 1 <= int(n) <= len(hand) for n in numbers):
            cards = tuple(dict.fromkeys(hand[int(n) - 1] for n in numbers))
            if fewest <= len(cards) <= most:
                return list(table.rules.apply(table.state, Action(HUMAN, entry.verb, cards)))
        write(f"Нужны номера карт из вашей руки: {_how_many(fewest, most)}.")


def _how_many(fewest: int, most: int) -> str:
    if fewest == most:
        return f"ровно {fewest}"
    if fewest == 0:
        return f"не больше {most} (пусто — ни одной)"
    return f"от {fewest} до {most}"


def _seen(events: Sequence[Event]) -> list[Event]:
    return [event for event in events if event.to is None or event.to == HUMAN]


def _settle(table: Table) -> None:
    """Add the deal's money to the balances on the screen (Старшина: the game's, at its end)."""
    state = table.state
    if table.game == "starshina" and not table.game_over:
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
                _settle(table)
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
