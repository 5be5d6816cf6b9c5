"""Стуколка in the terminal game (``game.play``): the deal's line, the seats' roles, the
moves, the events and the payments in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from game.cards import russian_label as label
from game.cards import sort_hand
from game.core import Legal
from game.registry import JsonObject
from game.stukolka.views import SeatView
from game.terminal import (
    HUMAN,
    Terminal,
    accusative,
    cards,
    chips,
    count,
    name,
    plural,
    suit,
    verb,
)

#: a seat's role: how it reads after a computer's name, and after «Вы»
ROLES = {
    "none": ("ждёт", "ждёте"),
    "knock": ("стучит", "стучите"),
    "pass": ("пас", "пас"),
    "dark": ("втёмную", "втёмную"),
    "shleif_dealer": ("играет со шлейфом", "играете со шлейфом"),
    "razrez": ("в разрез", "в разрез"),
    "defender": ("защищает кон", "защищаете кон"),
}


class StukolkaTerminal(Terminal[SeatView]):
    names: ClassVar[Mapping[str, JsonObject]] = {
        "stukolka": {"variant": "classic"},
        "shleif": {"variant": "shleif"},
    }
    says: ClassVar[Mapping[str, str]] = {
        "knock": "«Стучу!»",
        "pass": "«Пас»",
        "dark": "«Втёмную!»",
        "razrez": "«В разрез»",
        "no_razrez": "«Без разреза»",
    }
    does: ClassVar[Mapping[str, tuple[str, str]]] = {
        **Terminal.does,
        "open": ("открывает козырь", "открываете козырь"),
        "shleif": ("играет со шлейфом", "играете со шлейфом"),
        "look": ("смотрит карты", "смотрите карты"),
        "dropped": ("сносит карту", "сносите карту"),
        "defends": ("защищает кон", "защищаете кон"),
    }
    moves: ClassVar[Mapping[str, str]] = {
        "knock": "Стучу!",
        "pass": "Пас",
        "dark": "Втёмную",
        "open": "Открыть козырь",
        "shleif": "Шлейф",
        "razrez": "В разрез",
        "no_razrez": "Без разреза",
        "discard": "Купить",
    }
    card_moves: ClassVar[Mapping[str, str]] = {"play": "", "drop": "Снести "}

    def table_lines(self, view: SeatView) -> list[str]:
        public = view.table
        if public.trump is None:
            trump = "ещё не открыт"
        elif public.trump_card:
            trump = f"{suit(public.trump)} ({label(public.trump_card)})"
        else:
            trump = f"{suit(public.trump)}, шлейф у сдающего"
        lines = [
            f"Сдача {public.deal_no + 1}, сдающий: {name(public.dealer)}, в кону {public.pot}, "
            f"козырь {trump}"
            + (f", в колоде {count(public.stock_count)}" if public.stock_count else "")
        ]
        for seat in public.seats:
            bought = "" if seat.bought is None else f", покупка: {seat.bought}"
            third, second = ROLES.get(str(seat.role), (str(seat.role), str(seat.role)))
            role = second if seat.seat == HUMAN else third
            lines.append(
                f"  {name(seat.seat)}: {role}, {count(seat.cards)}{bought}, взяток {seat.tricks}"
            )
        if view.hand is None and public.seats[HUMAN].cards:
            lines.append("Ваши карты: не открыты")
        if view.shleif_card:
            lines.append(f"Шлейфовая карта у вас: {label(view.shleif_card)}")
        return lines

    def looks_at_once(self, view: SeatView) -> bool:
        # a seat that may still play dark chooses first; looking is one of its choices
        return view.may_look and not any(entry.verb == "dark" for entry in view.legal)

    def choices(self, view: SeatView) -> list[tuple[str, Legal | None]]:
        choices = super().choices(view)
        return [*choices, ("Посмотреть карты", None)] if view.may_look else choices

    def hand(self, view: SeatView) -> list[str]:
        return sort_hand(view.hand, view.table.trump) if view.hand is not None else []

    def move(self, entry: Legal) -> str:
        text = super().move(entry)
        if entry.pick is not None and entry.verb == "discard":
            return f"{text} (сбросить от {entry.pick[0]} до {entry.pick[1]} карт)"
        return text

    def event(self, kind: str, data: dict[str, Any]) -> str:
        seat = data.get("seat", -1)
        match kind:
            case "choose":
                return (
                    f"{verb(seat, 'выбирает', 'выбираете')}: шлейф или открыть козырь "
                    f"(в кону {data['pot']})."
                )
            case "trump" if data.get("shleif"):
                return f"Козырь {suit(data['suit'])}: шлейф у сдающего, карта закрыта."
            case "trump":
                return (
                    f"Козырь {suit(data['suit'])}: карта {label(data['card'])} открыта на колоде."
                )
            case "shleif_card":
                return f"Ваша шлейфовая карта: {label(data['card'])}."
            case "bought" if data["count"] == 0:
                return verb(seat, "остаётся при своих картах", "остаётесь при своих картах")
            case "bought":
                return f"{verb(seat, 'покупает', 'покупаете')} {accusative(data['count'])}"
            case "drew" if not data["cards"]:
                return "Вы оставили свои карты."
            case "drew":
                return f"Вы сбросили {cards(data['discarded'])} и купили {cards(data['cards'])}."
            case "drop":
                return f"Вы снесли {label(data['card'])}."
            case "play_starts":
                players = ", ".join(name(seat) for seat in data["active"])
                return f"Розыгрыш: играют {players}; первым ходит {name(data['leader'])}."
        return ""

    def settled_lines(self, data: dict[str, Any]) -> list[str]:
        outcome = data.get("outcome")
        if outcome == "nobody":
            return ["Играть никто не стал."]
        lone = ["Играл один: кон без розыгрыша."] if outcome == "lone" else []
        return lone + super().settled_lines(data)

    def payment(self, src: int | str, dst: int | str, amount: int, reason: str, times: int) -> str:
        match reason:
            case "trick":
                tricks = "взятку" if times == 1 else plural(times, "взятку", "взятки", "взяток")
                return f"{verb(dst, 'получает', 'получаете')} из кона {chips(amount)} за {tricks}"
            case "pot_taken":
                return f"{verb(dst, 'забирает', 'забираете')} весь кон: {chips(amount)}"
            case "remiz":
                return f"{verb(src, 'платит', 'платите')} ремиз: {chips(amount)} в кон"
        return super().payment(src, dst, amount, reason, times)


TERMINAL = StukolkaTerminal()
