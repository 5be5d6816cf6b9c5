"""«Взятки», a trick-taking game that exists only in the tests: proof that a game is one
package per layer and nothing else names it.

Each player gets two cards. The player after the dealer leads a card (verb ``lead``), the
others follow in turn (verb ``follow``), each with a card of the led suit if he has one; the
highest card of the led suit takes the trick, and its taker leads the next. Each trick takes
``stake`` from every other player. A game is one deal. Its verbs (``lead``, ``follow``) are
its own: no other game has them, and the callback codec learns their wire codes from its
chat side; its texts, its refusal and its moves' words come with it, and its computer player
(``COMPUTER``: the lowest card it may play).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field

from bot.callback import Act, ArgKind, Codec
from bot.games import Choice, GamePlugin, GameScreens, Keyboard, OptionsMenu, StatField
from bot.games.plugin import played_lines
from bot.render.common import Deadline, label, seat_name, turn_deadline
from game.ai import Advice, Budget, Computer
from game.cards import RANK
from game.codec import Stored
from game.core import Action, Event, IllegalAction, Legal, Transfer
from game.registry import GameRules, Holding, JsonObject, SeatResult, Step
from locales import signed
from server.games import Offered
from tables.scores import Figures
from web.games import GamePage
from web.view_parts import SCHEMA, Json, TableInfo, _hand, _seat, text

KIND = "tricks"
CARDS = 2


@dataclass
class TricksState(Stored):
    stake: int
    players: int
    dealer: int
    hands: list[list[str]]
    leader: int
    trick: list[tuple[int, str]] = field(default_factory=list)
    won: list[int] = field(default_factory=list)
    last: list[tuple[int, str]] = field(default_factory=list)
    over: bool = False

    @property
    def to_act(self) -> int | None:
        if self.over:
            return None
        return (self.leader + len(self.trick)) % self.players

    @property
    def kind(self) -> str:
        return KIND

    def next_deal(
        self, deck: Sequence[str], *, pot: int, players: int, dealer: int
    ) -> tuple[TricksState, Step]:
        raise ValueError("a game of «Взятки» is one deal")

    def legal(self) -> list[Legal]:
        seat = self.to_act
        if seat is None:
            return []
        hand = self.hands[seat]
        if not self.trick:
            return [Legal("lead", card) for card in hand]
        suit = self.trick[0][1][1]
        cards = [card for card in hand if card[1] == suit] or hand
        return [Legal("follow", card) for card in cards]

    def apply(self, action: Action) -> Step:
        seat = self.to_act
        if seat is None:
            raise IllegalAction("deal_over")
        if action.seat != seat:
            raise IllegalAction("not_your_turn")
        verb = "follow" if self.trick else "lead"
        if action.verb != verb or not isinstance(action.arg, str):
            raise IllegalAction("wrong_action")
        if action.arg not in self.hands[seat]:
            raise IllegalAction("not_in_hand")
        if Legal(verb, action.arg) not in self.legal():
            raise IllegalAction("must_follow_suit")
        self.hands[seat].remove(action.arg)
        self.trick.append((seat, action.arg))
        events = [Event("played", {"seat": seat, "card": action.arg})]
        if len(self.trick) < self.players:
            return Step(events, [], deal_over=False, game_over=False)
        taker = _takes(self.trick)
        self.won.append(taker)
        self.last, self.trick, self.leader = self.trick, [], taker
        if self.hands[taker]:
            return Step(events, [], deal_over=False, game_over=False)
        self.over = True
        money = [
            Transfer(seat, winner, self.stake, "trick")
            for winner in self.won
            for seat in range(self.players)
            if seat != winner
        ]
        results = [SeatResult(seat, self.won.count(seat), True) for seat in range(self.players)]
        leaders = [(self.dealer + 1) % self.players, *self.won[:-1]]
        leads: list[object] = [leaders.count(seat) for seat in range(self.players)]
        summary: JsonObject = {"won": list(self.won), "leads": leads}
        return Step(events, money, True, True, results=results, summary=summary)

    def default_action(self) -> Action | None:
        seat, legal = self.to_act, self.legal()
        return None if seat is None else Action(seat, legal[0].verb, legal[0].arg)

    def public_view(self) -> PublicView:
        trick = self.trick or self.last
        return PublicView(self.dealer, tuple(trick), tuple(self.won), self.to_act, self.players)

    def seat_view(self, seat: int) -> SeatView:
        legal = tuple(self.legal()) if self.to_act == seat else ()
        return SeatView(seat, tuple(self.hands[seat]), legal, self.public_view())

    def holding(self, seat: int) -> Holding:
        return Holding(tuple(self.hands[seat]), None, True)

    @property
    def deal_no(self) -> int:
        return 0

    @property
    def deal_over(self) -> bool:
        return self.over

    @property
    def game_over(self) -> bool:
        return self.over

    def next_game_dealer(self) -> int | None:
        return None

    def pot_in_play(self) -> int:
        return 0


@dataclass(frozen=True)
class PublicView:
    dealer: int
    trick: tuple[tuple[int, str], ...]
    won: tuple[int, ...]
    to_act: int | None
    players: int


@dataclass(frozen=True)
class SeatView:
    seat: int
    hand: tuple[str, ...]
    legal: tuple[Legal, ...]
    table: PublicView


def _takes(trick: Sequence[tuple[int, str]]) -> int:
    """The seat whose card takes ``trick``: the highest of the led suit."""
    suit = trick[0][1][1]
    return max((entry for entry in trick if entry[1][1] == suit), key=lambda e: RANK[e[1]])[0]


def _check(data: JsonObject) -> JsonObject:
    stake = data.get("stake", 1)
    if set(data) - {"stake"} or stake not in (1, 2):
        raise ValueError("bad options")
    return {"stake": stake}


def _start(
    options: JsonObject,
    players: int,
    deck: Sequence[str],
    *,
    dealer: int,
    pot: int,
    deal_no: int = 0,
) -> tuple[TricksState, Step]:
    stake = _check(options)["stake"]
    assert isinstance(stake, int)
    hands = [list(deck[seat * CARDS : (seat + 1) * CARDS]) for seat in range(players)]
    state = TricksState(stake, players, dealer, hands, (dealer + 1) % players)
    return state, Step([Event("dealt")], [], deal_over=False, game_over=False)


RULES = GameRules(
    kind=KIND,
    min_players=2,
    max_players=3,
    seats_between_deals=False,
    chat_pot=False,
    check_options=_check,
    start=_start,
    load=TricksState.from_json,
)


class TricksScreens:
    def choice(self, view: PublicView) -> str:
        return KIND

    def _lines(self, lang: str, view: PublicView, names: Sequence[str]) -> list[str]:
        lines = [GAME.words.t(lang, "tricks.title")]
        lines += [f"{seat_name(names, seat)}: {label(card)}" for seat, card in view.trick]
        for seat in range(view.players):
            lines.append(
                GAME.words.t(
                    lang, "tricks.won", name=seat_name(names, seat), n=view.won.count(seat)
                )
            )
        return lines

    def table_text(
        self,
        lang: str,
        view: PublicView,
        names: Sequence[str],
        *,
        deadline: Deadline | None,
        away: Collection[int],
        closed: bool,
    ) -> str:
        lines = self._lines(lang, view, names)
        if view.to_act is not None and not closed:
            turn = GAME.words.t(lang, "turn.whose", name=seat_name(names, view.to_act))
            lines += ["", turn + turn_deadline(lang, deadline)]
        return "\n".join(lines)

    def hand_text(
        self,
        lang: str,
        view: SeatView,
        names: Sequence[str],
        *,
        deadline: Deadline | None,
        closed: bool,
    ) -> str:
        lines = self._lines(lang, view.table, names)
        cards = " ".join(label(card) for card in view.hand) or "—"
        lines += ["", GAME.words.t(lang, "tricks.yours", cards=cards)]
        if view.legal and not closed:
            lines.append(GAME.words.t(lang, "tricks.prompt") + turn_deadline(lang, deadline))
        return "\n".join(lines)

    def keyboard(
        self, codec: Codec, lang: str, view: SeatView, game_id: int, turn: int, mask: int
    ) -> Keyboard:
        return [
            [(label(entry.arg or ""), codec.encode(Act(game_id, turn, entry.verb, entry.arg)))]
            for entry in view.legal
        ]

    def outcome_text(self, lang: str, view: PublicView, names: Sequence[str], seat: int) -> str:
        return "\n".join(self._lines(lang, view, names))

    def result_text(
        self,
        lang: str,
        view: PublicView,
        names: Sequence[str],
        balances: Mapping[int, int],
        money: Mapping[int, Mapping[str, int]],
    ) -> str:
        lines = [*self._lines(lang, view, names), ""]
        for seat in sorted(balances):
            amount = sum(money.get(seat, {}).values())
            lines.append(f"{seat_name(names, seat)}: {signed(amount)} ({signed(balances[seat])})")
        return "\n".join(lines)


def rules_text(lang: str, choice: str, options: JsonObject) -> str:
    return GAME.words.t(lang, "tricks.rules", stake=options["stake"])


TEXTS = {
    "ru": {
        "game.tricks": "Взятки",
        "about.tricks": "Взятки: по две карты, старшая карта масти захода берёт взятку",
        "welcome.tricks": "<b>Взяток</b>",
        "tricks.title": "🂠 <b>Взятки</b>",
        "tricks.won": "{name}: взяток {n}",
        "tricks.yours": "Ваши карты: {cards}",
        "tricks.prompt": "Ваш ход: карта в взятку.",
        "tricks.rules": "По две карты; старшая карта масти захода берёт взятку, по {stake}.",
        "opt.tricks.stake": "Ставка",
        "help.tricks.stake": "Сколько стоит взятка с каждого.",
        "move.lead": "заход",
        "move.follow": "карта в масть",
        "tricks.stats": "Заходов: {leads} · за взятки: {chips}",
        "tricks.evening": "Заходы за вечер: {items}",
    },
    "en": {
        "game.tricks": "Tricks",
        "about.tricks": "Tricks: two cards each, the highest of the led suit takes the trick",
        "welcome.tricks": "<b>Tricks</b>",
        "tricks.title": "🂠 <b>Tricks</b>",
        "tricks.won": "{name}: {n} tricks",
        "tricks.yours": "Your cards: {cards}",
        "tricks.prompt": "Your turn: a card to the trick.",
        "tricks.rules": "Two cards each; the highest of the led suit takes a trick, {stake} each.",
        "opt.tricks.stake": "Stake",
        "help.tricks.stake": "What a trick takes from each.",
        "move.lead": "a lead",
        "move.follow": "a card followed",
        "tricks.stats": "Leads: {leads} · for tricks: {chips}",
        "tricks.evening": "Leads this evening: {items}",
    },
}


def lowest(view: SeatView, rng: random.Random) -> Action:
    """Its computer player, at every level: the lowest card it may play."""
    legal = min(view.legal, key=lambda item: RANK[str(item.arg)])
    return Action(view.seat, legal.verb, legal.arg)


def lowest_within(view: SeatView, rng: random.Random, budget: Budget | None) -> Action:
    return lowest(view, rng)


def lowest_advised(view: SeatView, rng: random.Random, budget: Budget | None) -> Advice:
    return Advice(lowest(view, rng), unit="tricks")


#: its computer players: module-level functions, so that a worker process imports them by name
COMPUTER = Computer(lowest, lowest, lowest_within, lowest_advised, 20.0, 1)

GAME: GamePlugin[SeatView, PublicView] = GamePlugin(
    RULES,
    TricksState,
    choices=(Choice(KIND, "w", aliases=("взятки",)),),
    menu=OptionsMenu(code="w", values={"stake": (1, 2)}, defaults={"stake": 1}, always=("stake",)),
    texts=TEXTS,
    computer=COMPUTER,
    # figures of its own for /stats: the chips its tricks won (off the ledger), and how many
    # tricks the player led (off each deal's summary)
    stat_fields=(
        StatField("trick_chips", ("trick",), "received", "sum"),
        StatField("leads", summary="leads"),
    ),
)


def stats_lines(lang: str, figures: Figures) -> list[str]:
    """/stats: the deals and tricks every game of tricks counts, then the player's leads and
    the chips his tricks won."""
    leads, chips = figures.fields.get("leads", 0), figures.fields.get("trick_chips", 0)
    own = (
        [GAME.words.t(lang, "tricks.stats", leads=leads, chips=signed(chips))]
        if leads or chips
        else []
    )
    return [*played_lines(lang, figures), *own]


def evening_lines(
    lang: str, figures: Mapping[str, Mapping[int, int]], name: Callable[[int], str]
) -> list[str]:
    """An evening's summary: who led how many tricks."""
    leads = figures.get("leads", {})
    items = ", ".join(f"{name(user)} {count}" for user, count in leads.items())
    return [GAME.words.t(lang, "tricks.evening", items=items)] if items else []


PLUGIN: GameScreens[SeatView, PublicView]
PLUGIN = GameScreens(
    GAME,
    TricksScreens(),
    rules_text=rules_text,
    verbs={"lead": ("ld", ArgKind.CARD), "follow": ("fw", ArgKind.CARD)},
    stats_lines=stats_lines,
    evening_lines=evening_lines,
)


def tricks_view(view: SeatView, info: TableInfo) -> Json:
    """A seat of «Взятки» on the Mini App's page (``web.views``' schema), from the view parts
    every game's page is made of: what it never shows (a trump, a pot…) it leaves out."""
    table = view.table
    seats = []
    for seat in range(table.players):
        entry = _seat(seat, view.seat, table.dealer, table.to_act, info)
        won = table.won.count(seat)
        entry.update(cards=0, tricks=won, role=None, note=None)
        seats.append(entry)
    return {
        "schema": SCHEMA,
        "game": KIND,
        "choice": KIND,
        "version": info.version,
        "deal": 0,
        "phase": "over" if table.to_act is None else "play",
        # played from the deal on: a hand changes by the cards played from it alone
        "play_begun": table.to_act is not None,
        "you": view.seat,
        "dealer": table.dealer,
        "to_act": table.to_act,
        "deadline": info.deadline if table.to_act is not None else None,
        "ranks": info.ranks,
        "trick": [{"seat": seat, "card": card} for seat, card in table.trick],
        "seats": seats,
        "hand": _hand(view.hand, 0, view.legal, None),
        "prompt": text("tricks.prompt") if view.legal else None,
    }


PAGE: GamePage[SeatView, PublicView] = GamePage(GAME, tricks_view, texts=("tricks.",))

OFFERED = Offered(GAME, PLUGIN, PAGE)
"""Tricks as a program offers it: its table side, its chat and its page."""
