"""The seat view: the one JSON object the Mini App page is drawn from.

Pure functions from a game's own per-seat view (``game.stukolka.SeatView``,
``game.starshina.SeatView``, read through ``game.registry``) and what the table knows beside
the engine (``TableInfo``: names, chips, the turn's deadline, the state's version, the chat's
card style) to plain dicts of JSON types. A view holds exactly what the seat's private hand
message may show: its own cards, never another seat's. The page keeps no truth of its own; it
redraws from this object after every change.

Schema (``SCHEMA`` = 1). Cards are the engine's two-letter codes (``"TH"`` = 10♥), suits one
letter of ``SHDC``; the page draws them in the chat's style (``ranks``). Texts are locale keys
(``{"key": ..., "params": {...}}``) that the page looks up in the catalogue ``web.texts`` serves.

    game        "stukolka" | "starshina"
    choice      "stukolka" | "shleif" | "starshina"   (the title the chat shows)
    version     int: the state version an action must name
    deal        int: the deal's number
    phase       the engine's phase name
    you         int: the viewer's seat
    dealer      int
    to_act      int | null
    deadline    float | null: when the turn runs out (Unix time, seconds)
    ranks       "russian" | "latin"
    trump       suit | null
    trump_card  card | null: the face-up trump card (classic, an opened deal, a deal's end)
    pot         {"key", "params"} | null: the pot or the game's pot, said as the chat says it
    seats       [{seat, name, chips, cards, tricks, dealer, to_act, you, away,
                  role: {"key"} | null, note: {"key", "params"} | null}]
    trick       [{seat, card}]: the trick on the cloth, in play order
    last_trick  [{seat, card}], last_winner: int | null
    hand        {cards: [{card, verb | null}], hidden: int, look: bool}
                verb is what tapping the card does now ("play", "drop", "give", "return");
                null: not legal now (shown dimmed and disabled). ``hidden`` counts the cards
                the seat holds unseen (Стуколка before looking); ``look`` whether it may look.
    pick        {verb, min, max, confirm: {"key"}, none: {"key"} | null} | null: choosing
                several cards of the hand (the purchase's discards, Старшина's kitty);
                ``none`` labels the confirmation of choosing none
    actions     [{verb, arg, label: {"key", "params"}}]: every other legal decision
    prompt      {"key", "params", "n"?} | null: what the seat is asked to do now
    private     [{"label", "cards"}]: cards only this seat has seen (its discards, the шлейф
                card, what the kitty gave, the cards of its exchanges)
    trump_card_on_stock  bool: the face-up trump card still lies on the stock (Стуколка)
    trump_line  {"key", "params"} | null: the trump as the chat's table message says it
    pot_gloss   {"key"} | null: what «ремиз» means, the chat's gloss
    (``phase`` "lobby": a table still gathering, ``lobby_view``: the seated players, nothing
    dealt, the prompt «ждём начала игры».)
    result      null | {nets: [int per seat] | null, parts: [[text per reason] per seat] |
                null, label: text, notes: [text]}: a finished deal or game, each seat's money
                by reason as the chat's breakdown names it, and what follows (the pot carried
                over, the game going on)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from game import starshina, stukolka
from game.cards import RANK
from game.core import Legal, Transfer
from game.registry import rules_for
from game.stukolka.rules import TRICKS_PER_DEAL, trick_share
from locales import catalogue

SCHEMA = 1
#: suits in the order a hand shows them: colours alternate, black, red, black, red
SUIT_ORDER = "SHCD"

Json = dict[str, Any]
#: the order the chat lists the parts of a deal's money in (the chat's renderer is not this
#: package's to import: a test holds the two equal)
MONEY_REASONS = (
    "ante",
    "trick",
    "pot_taken",
    "remiz",
    "diff",
    "game_pot",
    "missed_target",
    "void",
    "game_pot_return",
)
#: the game-end transfers of Старшина, last in its transfer list
_FINAL_REASONS = frozenset({"game_pot", "missed_target"})
Ranks = Literal["russian", "latin"]


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What the table service knows beside the game's state."""

    names: Sequence[str]
    version: int
    ranks: Ranks = "russian"
    #: each seat's running balance (chips), or None where unknown
    chips: Sequence[int | None] = ()
    deadline: float | None = None
    away: frozenset[int] = frozenset()


def ranks_for(lang: str, setting: str | None) -> Ranks:
    """The card style a page in ``lang`` shows for a chat whose setting is ``setting`` (None:
    never set), as the chat's own texts do: English J Q K A; Russian the setting, by default
    В Д К Т."""
    if lang != "ru":
        return "latin"
    return "latin" if setting == "latin" else "russian"


def text(key: str, n: int | None = None, **params: object) -> Json:
    """A text the page looks up: ``key`` in the catalogue, its plural form for ``n`` (when
    given; ``n`` is then a parameter too), ``params`` for its placeholders. A parameter that is
    ``{"seat": i}`` reads as that seat's name, ``{"card": c}`` as the card in the chat's style,
    ``{"suit": s}`` as the suit, a text (``{"key": ...}``) as that text."""
    data: Json = {"key": key, "params": params}
    if n is not None:
        data["n"] = n
    return data


def seat_ref(seat: int) -> Json:
    return {"seat": seat}


def card_ref(card: str) -> Json:
    return {"card": card}


def suit_ref(suit: str) -> Json:
    return {"suit": suit}


def display_order(cards: Sequence[str], trump: str | None) -> list[str]:
    """A hand as shown: trumps first, then the suits in ``SUIT_ORDER``, each high to low."""
    return sorted(
        cards, key=lambda card: (card[1] != trump, SUIT_ORDER.index(card[1]), -RANK[card])
    )


def _trick(trick: Sequence[tuple[int, str]]) -> list[Json]:
    return [{"seat": seat, "card": card} for seat, card in trick]


def _nets(transfers: Sequence[Transfer], players: int) -> list[int]:
    nets = [0] * players
    for item in transfers:
        if isinstance(item.src, int):
            nets[item.src] -= item.amount
        if isinstance(item.dst, int):
            nets[item.dst] += item.amount
    return nets


def signed(amount: int) -> str:
    """``+8``, ``−12``, ``0`` (a true minus sign), as the chat writes money."""
    if amount > 0:
        return f"+{amount}"
    if amount < 0:
        return f"\u2212{-amount}"
    return "0"


def money_parts(sums: dict[str, int]) -> list[Json]:
    """A seat's money by reason (paid as negative) as the chat's breakdown names it («ставка
    −3 · ремиз −12»): one text a reason, in the chat's order, none for a zero."""
    order = {reason: index for index, reason in enumerate(MONEY_REASONS)}
    known = catalogue("ru")
    shown = sorted(
        ((reason, amount) for reason, amount in sums.items() if amount),
        key=lambda item: order.get(item[0], 99),
    )
    return [
        text(
            f"money.{reason}_in"
            if amount > 0 and f"money.{reason}_in" in known
            else f"money.{reason}",
            amount=signed(amount),
        )
        for reason, amount in shown
    ]


def _parts(transfers: Sequence[Transfer], players: int) -> list[list[Json]]:
    """Each seat's ``money_parts`` of ``transfers``."""
    sums: list[dict[str, int]] = [{} for _ in range(players)]
    for item in transfers:
        for seat, amount in ((item.src, -item.amount), (item.dst, item.amount)):
            if isinstance(seat, int) and seat < players:
                sums[seat][item.reason] = sums[seat].get(item.reason, 0) + amount
    return [money_parts(seat_sums) for seat_sums in sums]


def _seat(seat: int, you: int, dealer: int, to_act: int | None, info: TableInfo) -> Json:
    return {
        "seat": seat,
        "name": info.names[seat] if seat < len(info.names) else "",
        "chips": info.chips[seat] if seat < len(info.chips) else None,
        "dealer": seat == dealer,
        "to_act": seat == to_act,
        "you": seat == you,
        "away": seat in info.away,
    }


def _hand(
    cards: Sequence[str] | None, hidden: int, legal: Sequence[Legal], trump: str | None
) -> Json:
    verbs = {entry.arg: entry.verb for entry in legal if entry.arg and len(entry.arg) == 2}
    shown = display_order(cards, trump) if cards is not None else []
    return {
        "cards": [{"card": card, "verb": verbs.get(card)} for card in shown],
        "hidden": hidden,
        "look": False,
    }


def _pick(legal: Sequence[Legal], verb: str, confirm: str, none: str | None) -> Json | None:
    for entry in legal:
        if entry.verb == verb and entry.pick is not None:
            return {
                "verb": verb,
                "min": entry.pick[0],
                "max": entry.pick[1],
                "confirm": text(confirm),
                "none": None if none is None else text(none),
            }
    return None


def _base(game: str, choice: str, view: Any, table: Any, info: TableInfo) -> Json:
    return {
        "schema": SCHEMA,
        "game": game,
        "choice": choice,
        "version": info.version,
        "deal": table.deal_no,
        "phase": str(table.phase),
        "you": view.seat,
        "dealer": table.dealer,
        "to_act": table.to_act,
        "deadline": info.deadline if table.to_act is not None else None,
        "ranks": info.ranks,
        "trump": table.trump,
        "trick": _trick(table.trick),
        "last_trick": _trick(table.last_trick),
        "last_winner": table.trick_winners[-1] if table.trick_winners else None,
    }


# Стуколка

_STUKOLKA_VERBS = {
    "shleif": "btn.shleif",
    "open": "btn.open",
    "knock": "btn.knock",
    "pass": "btn.pass",
    "dark": "btn.dark",
    "razrez": "btn.razrez",
    "no_razrez": "btn.no_razrez",
}


def stukolka_view(view: stukolka.SeatView, info: TableInfo) -> Json:
    """The page's view of one seat at Стуколка (classic or «со шлейфом»)."""
    table = view.table
    data = _base("stukolka", "shleif" if table.options.shleif else "stukolka", view, table, info)
    over = table.phase is stukolka.Phase.DEAL_OVER
    data["trump_card"] = table.trump_card
    data["trump_card_on_stock"] = table.trump_card_on_stock
    data["trump_line"] = _stukolka_trump_line(table)
    data["pot"] = text("web.pot.remiz", pot=table.pot, share=_share(table.pot), remiz=table.remiz)
    data["pot_gloss"] = text("gloss.remiz")
    data["stock"] = table.stock_count
    seats = []
    for summary in table.seats:
        seat = _seat(summary.seat, view.seat, table.dealer, table.to_act, info)
        role = summary.role
        seat.update(
            cards=summary.cards,
            tricks=summary.tricks,
            role=None if role is stukolka.Role.NONE else text(f"role.{role.value}"),
            note=None if summary.bought is None else text("web.bought", count=summary.bought),
        )
        seats.append(seat)
    data["seats"] = seats
    legal = view.legal
    hidden = 0 if view.hand is not None else view.hand_count
    hand = _hand(view.hand, hidden, legal, table.trump)
    hand["look"] = view.may_look
    data["hand"] = hand
    dark = table.seats[view.seat].role is stukolka.Role.DARK
    pick = None
    actions: list[Json] = [
        {"verb": entry.verb, "arg": None, "label": text(_STUKOLKA_VERBS[entry.verb])}
        for entry in legal
        if entry.verb in _STUKOLKA_VERBS
    ]
    discard = next((entry for entry in legal if entry.verb == "discard"), None)
    if discard is not None and discard.pick is not None:
        if view.hand is not None:
            pick = _pick(legal, "discard", "btn.buy", "btn.keep")
        else:
            # unseen cards: how many, never which (the engine takes them in its order)
            fewest, most = discard.pick
            for count in range(fewest, min(most, view.hand_count) + 1):
                key = (
                    ("btn.discard_blind" if count else "btn.discard_none")
                    if dark
                    else ("btn.buy" if count else "btn.keep")
                )
                label = text(key, n=count) if count else text(key)
                actions.append({"verb": "discard", "arg": count, "label": label})
    if view.may_look:
        actions.append({"verb": "look", "arg": None, "label": text("btn.look")})
    data["pick"] = pick
    data["actions"] = actions
    data["prompt"] = _stukolka_prompt(view)
    private: list[Json] = []
    if view.shleif_card is not None:
        private.append({"label": text("web.private.shleif_card"), "cards": [view.shleif_card]})
    if view.discards:
        private.append({"label": text("web.private.discards"), "cards": list(view.discards)})
    data["private"] = private
    data["result"] = None
    if over:
        notes = []
        if table.outcome is stukolka.Outcome.PLAYED and table.pot_after is not None:
            notes.append(
                text("result.pot_carried", pot=table.pot_after)
                if table.pot_after
                else text("result.pot_empty")
            )
        data["result"] = {
            "nets": _nets(table.transfers, table.players),
            "parts": _parts(table.transfers, table.players),
            "label": text(f"web.outcome.{table.outcome.value}" if table.outcome else "web.over"),
            "notes": notes,
        }
    return data


def _share(pot: int) -> str:
    """What a trick pays, as the chat's pot line says it: «4», or «4/4/5» where the tricks
    differ."""
    shares = [trick_share(pot, number) for number in range(TRICKS_PER_DEAL)]
    return str(shares[0]) if len(set(shares)) == 1 else "/".join(map(str, shares))


def _stukolka_trump_line(table: stukolka.PublicView) -> Json:
    """The trump as the chat's table message says it: «Козырь: 6♠️ — открыт на колоде» only
    while the card lies on the stock, «Козырь: 6♠️» once it is drawn."""
    if table.trump is None:
        return text("stukolka.trump.unknown")
    if table.shleif:
        if table.trump_card is not None:
            return text(
                "stukolka.trump.shleif_revealed",
                suit=suit_ref(table.trump),
                card=card_ref(table.trump_card),
            )
        return text("stukolka.trump.shleif", suit=suit_ref(table.trump))
    if table.trump_card is None:
        return text("stukolka.trump.suit", suit=suit_ref(table.trump))
    key = "stukolka.trump.on_stock" if table.trump_card_on_stock else "stukolka.trump.card"
    return text(key, card=card_ref(table.trump_card))


def _stukolka_prompt(view: stukolka.SeatView) -> Json | None:
    table = view.table
    verbs = {entry.verb for entry in view.legal}
    role = table.seats[view.seat].role
    Phase = stukolka.Phase
    if not verbs:
        return text("prompt.deal_over") if table.phase is Phase.DEAL_OVER else None
    seen = view.hand is not None
    match table.phase:
        case Phase.CHOOSE:
            return text("prompt.choose", pot=table.pot)
        case Phase.KNOCK:
            return text("prompt.knock_dark" if "dark" in verbs else "prompt.knock")
        case Phase.PURCHASE:
            most = max((entry.pick or (0, 0))[1] for entry in view.legal)
            if role is stukolka.Role.DARK:
                return text("prompt.purchase_dark", most=most)
            if not seen:
                return text("prompt.purchase_unseen", most=most)
            # the page's confirmation reads «Оставить все» until a card is marked
            return text("web.prompt.purchase", most=most, keep=text("btn.keep"))
        case Phase.PURCHASE_DROP | Phase.RAZREZ_DROP:
            return text("prompt.drop" if seen else "prompt.look_first")
        case Phase.RAZREZ:
            return text("prompt.razrez")
        case Phase.PLAY:
            return text("prompt.play" if seen else "prompt.look_first")
    return None


# Старшина


#: the cards of an exchange, by whether this seat gave them
_PASSED = {True: "web.private.to", False: "web.private.from"}


def starshina_view(view: starshina.SeatView, info: TableInfo) -> Json:
    """The page's view of one seat at Старшина."""
    table = view.table
    data = _base("starshina", "starshina", view, table, info)
    over = table.phase in (starshina.Phase.DEAL_OVER, starshina.Phase.GAME_OVER)
    data["trump_card"] = None
    data["trump_card_on_stock"] = False
    data["trump_line"] = None
    data["pot_gloss"] = None
    data["pot"] = text("web.pot.game", pot=table.game_pot)
    data["stock"] = table.kitty_count
    seats = []
    record = table.history[-1] if over and table.history else None
    for summary in table.seats:
        seat = _seat(summary.seat, view.seat, table.dealer, table.to_act, info)
        tricks = record.tricks[summary.seat] if record else summary.tricks
        if record:
            # «9 взяток при норме 3 — 6 сверх нормы», as the chat's result says it
            note = text(
                "starshina.result_tricks",
                tricks=text("n.tricks", tricks),
                target=summary.target,
                diff=_diff_words(record.diffs[summary.seat]),
            )
        else:
            note = text(
                "starshina.tricks_of", tricks=text("n.tricks", tricks), target=summary.target
            )
        seat.update(cards=summary.cards, tricks=tricks, role=None, note=note)
        seats.append(seat)
    data["seats"] = seats
    legal = view.legal
    data["hand"] = _hand(view.hand, 0, legal, table.trump)
    data["pick"] = _pick(legal, "kitty", "btn.confirm_kitty", None)
    data["actions"] = [
        {"verb": "trump", "arg": suit, "label": text(f"web.suit.{suit}")}
        for suit in SUIT_ORDER
        if any(entry.verb == "trump" and entry.arg == suit for entry in legal)
    ]
    private: list[Json] = []
    for item in view.exchanged:
        gave = item.giver == view.seat
        other = item.receiver if gave else item.giver
        private.append({"label": text(_PASSED[gave], name=seat_ref(other)), "cards": [item.card]})
        if item.returned is not None:
            private.append(
                {"label": text(_PASSED[not gave], name=seat_ref(other)), "cards": [item.returned]}
            )
    if view.discards:
        private.append({"label": text("web.private.discards"), "cards": list(view.discards)})
    if view.from_kitty:
        private.append({"label": text("web.private.from_kitty"), "cards": list(view.from_kitty)})
    data["private"] = private
    data["prompt"] = _starshina_prompt(view)
    data["result"] = _starshina_result(table) if over else None
    return data


def _diff_words(diff: int) -> Json:
    """A deal's tricks against the target in words: «не хватило 5», «12 сверх нормы»."""
    if diff < 0:
        return text("starshina.short", n=-diff)
    if diff > 0:
        return text("starshina.over", n=diff)
    return text("starshina.on_target")


def _deal_diffs(table: starshina.PublicView) -> list[Transfer]:
    """The per-trick money of the deal just settled: the last transfers of the game's list
    before its game-end ones, one fewer than the seats whose tricks missed the target (§4.4)."""
    if not table.history:
        return []
    transfers = list(table.transfers)
    while transfers and transfers[-1].reason in _FINAL_REASONS:
        transfers.pop()
    count = max(0, sum(1 for diff in table.history[-1].diffs if diff) - 1)
    return (
        [item for item in transfers[len(transfers) - count :] if item.reason == "diff"]
        if count
        else []
    )


def _starshina_result(table: starshina.PublicView) -> Json:
    """A finished deal as the chat's result says it: when the game is over, its winner and
    each player's money over the game by reason; else the deal's money where it moved any
    (scoring per trick), or the game pot still waiting, and that the game goes on."""
    players = len(table.seats)
    if table.winner is not None:
        return {
            "nets": _nets(table.transfers, players),
            "parts": _parts(table.transfers, players),
            "label": text("web.game_over", winner=seat_ref(table.winner)),
            "notes": [],
        }
    money = _deal_diffs(table)
    notes = [] if money or not table.game_pot else [text("web.pot.game", pot=table.game_pot)]
    notes.append(
        text(
            "web.game_goes_on",
            deals=len(table.history),
            most=table.options.max_deals,
        )
    )
    return {
        "nets": _nets(money, players) if money else None,
        "parts": _parts(money, players) if money else None,
        "label": text("web.deal_over"),
        "notes": notes,
    }


def _starshina_prompt(view: starshina.SeatView) -> Json | None:
    table = view.table
    if not view.legal:
        return None
    Phase = starshina.Phase
    match table.phase:
        case Phase.EXCHANGE_GIVE:
            receiver = table.exchange_left[0][1] if table.exchange_left else view.seat
            mine = sum(1 for giver, _ in table.exchange_left if giver == view.seat)
            return text("starshina.prompt.give", mine, name=seat_ref(receiver))
        case Phase.RING_RETURN:
            pending = [item for item in view.exchanged if item.returned is None]
            if pending:
                item = pending[-1]
                return text(
                    "starshina.prompt.return", name=seat_ref(item.giver), card=card_ref(item.card)
                )
            return text("starshina.prompt.return_any")
        case Phase.NAME_TRUMP:
            return text("starshina.prompt.trump")
        case Phase.KITTY:
            return text("starshina.prompt.kitty")
        case Phase.PLAY:
            return text("prompt.play")
    return None


def lobby_view(kind: str, options: Mapping[str, Any], you: int, info: TableInfo) -> Json:
    """A table still gathering: who is seated, and that the game waits for its start (the
    chat's lobby message). The view's shape is a deal's, with nothing dealt."""
    choice = "shleif" if kind == "stukolka" and options.get("variant") == "shleif" else kind
    seats = []
    for seat in range(len(info.names)):
        entry = _seat(seat, you, -1, None, info)
        entry.update(cards=0, tricks=0, role=None, note=None)
        seats.append(entry)
    return {
        "schema": SCHEMA,
        "game": kind,
        "choice": choice,
        "version": info.version,
        "deal": 0,
        "phase": "lobby",
        "you": you,
        "dealer": None,
        "to_act": None,
        "deadline": None,
        "ranks": info.ranks,
        "trump": None,
        "trick": [],
        "last_trick": [],
        "last_winner": None,
        "trump_card": None,
        "trump_card_on_stock": False,
        "trump_line": None,
        "pot": None,
        "pot_gloss": None,
        "stock": 0,
        "seats": seats,
        "hand": {"cards": [], "hidden": 0, "look": False},
        "pick": None,
        "actions": [],
        "prompt": text("web.lobby.waiting", len(seats)),
        "private": [],
        "result": None,
    }


def refusal(stale: bool) -> Json:
    """Why a move was not taken: the table changed since the view it was made from, or the
    rules do not allow it now."""
    return text("web.stale" if stale else "web.illegal")


#: each game's presentation on the page, by the kind ``game.registry`` knows it by
PRESENTERS: dict[str, Callable[[Any, TableInfo], Json]] = {
    "stukolka": stukolka_view,
    "starshina": starshina_view,
}


def seat_view(kind: str, state: object, seat: int, info: TableInfo) -> Json:
    """What the page of ``seat`` shows of ``state``, a game of ``kind``."""
    return PRESENTERS[kind](rules_for(kind).seat_view(state, seat), info)
