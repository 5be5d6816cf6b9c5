"""Старшина in the terminal game (``game.play``): the deal's line, the seats' targets and
totals, the moves, the events and the payments in words."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from game.cards import russian_label as label
from game.core import Legal
from game.registry import JsonObject
from game.starshina.views import SeatView
from game.terminal import (
    HUMAN,
    Terminal,
    by_seat,
    cards,
    chips,
    count,
    name,
    signed,
    suit,
    to,
    verb,
)


class StarshinaTerminal(Terminal[SeatView]):
    names: ClassVar[Mapping[str, JsonObject]] = {"starshina": {}}
    does: ClassVar[Mapping[str, tuple[str, str]]] = {
        **Terminal.does,
        "kitty_taken": ("сносит 4 карты и берёт прикуп", "сносите 4 карты и берёте прикуп"),
    }
    moves: ClassVar[Mapping[str, str]] = {"kitty": "Снести 4 карты и взять прикуп"}
    card_moves: ClassVar[Mapping[str, str]] = {"play": "", "give": "Отдать ", "return": "Вернуть "}
    pot_after: ClassVar[str] = "В банке партии"

    def table_lines(self, view: SeatView) -> list[str]:
        public = view.table
        lines = [
            f"Сдача {public.deal_no + 1}, сдающий: {name(public.dealer)}, "
            + (f"козырь {suit(public.trump)}" if public.trump else "без козыря")
            + f", банк партии {public.game_pot}"
        ]
        for seat in public.seats:
            lines.append(
                f"  {name(seat.seat)}: {count(seat.cards)}, норма {seat.target}, "
                f"взяток {seat.tricks}, за партию {signed(seat.total_diff)}"
            )
        return lines

    def move(self, entry: Legal) -> str:
        if entry.verb == "trump":
            return f"Козырь {suit(str(entry.arg))}"
        return super().move(entry)

    def event(self, kind: str, data: dict[str, Any]) -> str:
        seat = data.get("seat", -1)
        match kind:
            case "game_started":
                return f"Партия началась, первым сдающий: {name(data['dealer'])}."
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
            case "play_starts":
                return (
                    f"Розыгрыш: козырь {suit(data.get('trump'))}; "
                    f"первым ходит {name(data['leader'])}."
                )
            case "card_given":
                return f"{verb(seat, 'отдаёт', 'отдаёте')} карту игроку {name(data['to'])}"
            case "card_returned":
                forced = " (старшую той же масти)" if data.get("forced") else ""
                return (
                    f"{verb(seat, 'возвращает', 'возвращаете')} карту{forced} "
                    f"игроку {name(data['to'])}"
                )
            case "received":
                return f"Вы получили {label(data['card'])} от игрока {name(data['from'])}."
            case "returned":
                return f"Вы вернули {label(data['card'])} игроку {name(data['to'])}."
            case "trump_named":
                return f"{name(seat)}: козырь {suit(data['suit'])}"
            case "kitty":
                return (
                    f"Вы снесли {cards(data['discarded'])} и взяли из прикупа "
                    f"{cards(data['cards'])}."
                )
            case "game_over":
                why = "12 взяток" if data.get("reason") == "twelve" else "последняя сдача"
                return f"Партия окончена ({why}). Победа: {name(data['winner'])}."
        return ""

    def settled_lines(self, data: dict[str, Any]) -> list[str]:
        lines = super().settled_lines(data)
        if "diffs" in data:
            lines.append(f"Разница с нормой: {by_seat(data['diffs'], with_sign=True)}.")
        return lines

    def payment(self, src: int | str, dst: int | str, amount: int, reason: str, times: int) -> str:
        match reason:
            case "game_pot":
                return f"{verb(dst, 'забирает', 'забираете')} банк партии: {chips(amount)}"
            case "missed_target":
                return (
                    f"{verb(src, 'не добирает', 'не добираете')} норму и "
                    f"{'платите' if src == HUMAN else 'платит'} {chips(amount)} {to(dst)}"
                )
            case "diff":
                return (
                    f"{verb(src, 'платит', 'платите')} {chips(amount)} {to(dst)} "
                    "за разницу с нормой"
                )
        return super().payment(src, dst, amount, reason, times)


TERMINAL = StarshinaTerminal()
