"""The words of the terminal game (``game.play``) that no one game owns, and ``Terminal``: a
game's screen and words, which each game gives in ``game.<kind>.terminal`` as ``TERMINAL``.

Seat 0 is the person («Вы»); the computers are «🤖 1», «🤖 2», …. A sentence about a seat takes
the verb's form for «Вы» or for a computer (``verb``). ``Terminal`` holds the screen of a trick
game (the deal as the seat sees it, the trick, the hand numbered, the score) and the money in
sentences; a game adds its table lines (``table_lines``), its events, its moves and its
payments, and may replace any of it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

from game.cards import FULL_DECK, SUIT_EMOJI, sort_hand
from game.cards import russian_label as label
from game.core import Event, Legal, Transfer
from game.registry import JsonObject

HUMAN = 0
MINUS = "\u2212"


def name(seat: int | str) -> str:
    """«Вы», «🤖 2», or a party that is not a seat by its own name («кон»)."""
    if isinstance(seat, str):
        return {"pot": "кон", "game_pot": "банк партии"}.get(seat, seat)
    return "Вы" if seat == HUMAN else f"🤖 {seat}"


def verb(seat: int | str, third: str, second: str) -> str:
    """``seat``'s name and the verb in its person: «🤖 1 берёт», «Вы берёте»."""
    return f"{name(seat)} {second if seat == HUMAN else third}"


def cards(shown: Sequence[str]) -> str:
    return " ".join(label(card) for card in shown) or "—"


def suit(letter: str | None) -> str:
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


def count(n: int) -> str:
    """Cards in the nominative: «1 карта», «5 карт»."""
    return plural(n, "карта", "карты", "карт")


def accusative(n: int) -> str:
    """Cards in the accusative: «1 карту», «2 карты»."""
    return plural(n, "карту", "карты", "карт")


def chips(n: int) -> str:
    """Chips in the accusative, the case every money sentence takes: «1 фишку», «3 фишки»."""
    return plural(n, "фишку", "фишки", "фишек")


def to(party: int | str) -> str:
    """Where a payment goes: «в кон», «в банк партии», «вам», «игроку 🤖 2»."""
    if party == "pot":
        return "в кон"
    if party == "game_pot":
        return "в банк партии"
    return "вам" if party == HUMAN else f"игроку {name(party)}"


def by_seat(values: Sequence[int], with_sign: bool = False) -> str:
    return ", ".join(
        f"{name(seat)} {signed(value)}" if with_sign else f"{name(seat)} {value}"
        for seat, value in enumerate(values)
    )


def trick(played: Sequence[tuple[int, str]]) -> str:
    return ", ".join(f"{name(seat)} {label(card)}" for seat, card in played)


class TrickTable(Protocol):
    """What the default screen reads of a trick game's public view."""

    @property
    def trump(self) -> str | None: ...

    @property
    def trick(self) -> Sequence[tuple[int, str]]: ...

    @property
    def last_trick(self) -> Sequence[tuple[int, str]]: ...


class TrickSeat(Protocol):
    """What the default screen reads of a trick game's seat view."""

    @property
    def table(self) -> TrickTable: ...

    @property
    def hand(self) -> Sequence[str] | None: ...

    @property
    def discards(self) -> Sequence[str]: ...

    @property
    def legal(self) -> Sequence[Legal]: ...


SV = TypeVar("SV", bound=TrickSeat, contravariant=True)


class Terminal(Generic[SV]):
    """One game's screen and words in the terminal, over its seat view ``SV``. The defaults
    are a trick game's: a game sets the class attributes and overrides ``table_lines`` and,
    for events of its own, ``event``; ``payment`` for its kinds of payment."""

    #: the names the command line offers for this game, each with its options («шлейф» is
    #: Стуколка with an option)
    names: ClassVar[Mapping[str, JsonObject]] = {}
    #: what a seat says (after a colon), for events that carry nothing but the seat
    says: ClassVar[Mapping[str, str]] = {}
    #: what a seat does, for events that carry nothing but the seat: a computer's form of the
    #: verb, then the form after «Вы»
    does: ClassVar[Mapping[str, tuple[str, str]]] = {"trick_won": ("берёт взятку", "берёте взятку")}
    #: a choice without a card, as its button reads
    moves: ClassVar[Mapping[str, str]] = {}
    #: a choice of one card: the words before the card (none for a card played)
    card_moves: ClassVar[Mapping[str, str]] = {"play": ""}
    #: the words before what a deal left in the pot («В кону: 4.»)
    pot_after: ClassVar[str] = "В кону"

    def table_lines(self, view: SV) -> list[str]:
        """The lines about the deal and its seats above the trick and the hand."""
        return []

    def looks_at_once(self, view: SV) -> bool:
        """Whether the person's cards are turned up for him at his turn, before he chooses
        (where his game lets a player choose not to look; the computers always do)."""
        return False

    def choices(self, view: SV) -> list[tuple[str, Legal | None]]:
        """The numbered choices of his turn: each as it reads, and the move (None: look at
        his cards). Cards in the order his hand is shown."""
        order = {card: index for index, card in enumerate(sort_hand(FULL_DECK, view.table.trump))}
        legal = sorted(view.legal, key=lambda entry: order.get(str(entry.arg), -1))
        return [(self.move(entry), entry) for entry in legal]

    def hand(self, view: SV) -> list[str]:
        """The seat's hand in the order it is shown (and numbered for a choice of cards)."""
        return sort_hand(view.hand or (), view.table.trump)

    def screen(self, view: SV, balances: Sequence[int]) -> str:
        """What the seat sees now, from its view only."""
        public = view.table
        lines = ["", *self.table_lines(view)]
        if public.last_trick:
            lines.append("Прошлая взятка: " + trick(public.last_trick))
        if public.trick:
            lines.append("На столе: " + trick(public.trick))
        hand = self.hand(view)
        if hand:
            numbered = "  ".join(f"{index}:{label(card)}" for index, card in enumerate(hand, 1))
            lines.append(f"Ваши карты: {numbered}")
        if view.discards:
            lines.append(f"Ваш снос: {cards(view.discards)}")
        lines.append(f"Счёт: {', '.join(f'{name(s)} {signed(b)}' for s, b in enumerate(balances))}")
        return "\n".join(lines)

    def move(self, entry: Legal) -> str:
        """A choice as the screen numbers it."""
        if entry.verb in self.card_moves and entry.arg is not None:
            return self.card_moves[entry.verb] + label(str(entry.arg))
        return self.moves.get(entry.verb, entry.verb)

    def describe(self, event: Event) -> str:
        """One line for an event: who did what, in words, cards as people read them. A kind
        this screen has no words for is shown with its data, so nothing the seat may see is
        lost."""
        data = dict(event.data)
        text = self.text(event.kind, data)
        if not text:
            seat = data.pop("seat", None)
            who = f"{name(seat)}: " if isinstance(seat, int) else ""
            details = ", ".join(f"{key} {value}" for key, value in data.items())
            text = f"{who}{event.kind}{' — ' + details if details else ''}"
        private = " (видно только вам)" if event.to is not None else ""
        return f"  · {text}{private}"

    def text(self, kind: str, data: dict[str, Any]) -> str:
        """An event in words, or ``""`` for a kind this screen does not know."""
        seat = data.get("seat")
        if isinstance(seat, int):
            if kind in self.says:
                return f"{name(seat)}: {self.says[kind]}"
            if kind in self.does and len(data) == 1:
                return verb(seat, *self.does[kind])
        match kind:
            case "antes":
                return f"Ставки: {self.money(data['transfers'])}."
            case "card_played":
                return f"{name(data['seat'])}: {label(data['card'])}"
            case "trick_won":
                return f"{verb(data['seat'], *self.does['trick_won'])} {data['trick_no'] + 1}"
            case "deal_settled":
                return self.settled(data)
        return self.event(kind, data)

    def settled(self, data: dict[str, Any]) -> str:
        """A deal's end: what the game says of it (``settled_lines``), the money in
        sentences, and what it left in the pot."""
        parts = ["Сдача окончена.", *self.settled_lines(data)]
        if data.get("transfers"):
            parts.append(f"Расчёт: {self.money(data['transfers'])}.")
        if "pot_after" in data:
            parts.append(f"{self.pot_after}: {data['pot_after']}.")
        return " ".join(parts)

    def settled_lines(self, data: dict[str, Any]) -> list[str]:
        """What the game says of a deal's end before the money: by default its tricks."""
        return [f"Взятки: {by_seat(data['tricks'])}."] if "tricks" in data else []

    def event(self, kind: str, data: dict[str, Any]) -> str:
        """The game's own events in words (``""`` for a kind it does not know)."""
        return ""

    def money(self, transfers: Sequence[Any]) -> str:
        """The transfers in sentences, the same payer, payee and reason summed into one."""
        summed: dict[tuple[int | str, int | str, str], list[int]] = {}
        for move in (Transfer.from_json(item) for item in transfers):
            total = summed.setdefault((move.src, move.dst, move.reason), [0, 0])
            total[0] += move.amount
            total[1] += 1
        return "; ".join(
            self.payment(src, dst, amount, reason, times)
            for (src, dst, reason), (amount, times) in summed.items()
        )

    def payment(self, src: int | str, dst: int | str, amount: int, reason: str, times: int) -> str:
        """One sentence of the money: who pays whom how much and why (``times`` payments of
        the same kind summed, as a player's tricks)."""
        match reason:
            case "ante":
                return f"{verb(src, 'ставит', 'ставите')} {chips(amount)} {to(dst)}"
            case "void":
                return f"{verb(dst, 'получает', 'получаете')} обратно {chips(amount)}"
        return f"{verb(src, 'платит', 'платите')} {chips(amount)} {to(dst)}"
