"""«Старшая карта», a game that exists only in the tests: proof that a game is one plugin.

One phase: each player gets one card face down and, in turn from the dealer's left, shows it
(verb ``play``); the highest card (rank, then suit in the order ♣ ♦ ♥ ♠) wins ``stake`` from
every other player. A game is ``rounds`` deals. Its rules implement ``GameRules`` with their
own state and views, its screens ``Screens``, its page ``PAGE``; its texts come with the
plugin. Nothing in ``game/``, ``bot/``, ``web/`` or ``locales/`` knows it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from bot.callback import Act, ArgKind, Codec
from bot.games import Choice, GamePlugin, GameScreens, Keyboard, OptionsMenu
from bot.render.common import Deadline, label, seat_name, turn_deadline
from game.cards import RANK
from game.codec import Stored
from game.core import Action, Event, IllegalAction, Legal, Transfer
from game.registry import GameRules, Holding, JsonObject, SeatResult, Step
from locales import signed
from server.games import Offered
from web.games import GamePage
from web.view_parts import SCHEMA, Json, TableInfo, _hand, _seat, text

KIND = "highcard"
SUIT_ORDER = "CDHS"


def strength(card: str) -> tuple[int, int]:
    return RANK[card], SUIT_ORDER.index(card[1])


@dataclass
class HighCardState(Stored):
    rounds: int
    stake: int
    players: int
    dealer: int
    deal_no: int
    cards: list[str] = field(repr=False)
    shown: list[str | None]
    to_act: int | None
    winner: int | None = None
    transfers: list[Transfer] = field(default_factory=list)

    @property
    def kind(self) -> str:
        return KIND

    def next_deal(
        self, deck: Sequence[str], *, pot: int, players: int, dealer: int
    ) -> tuple[HighCardState, Step]:
        return _deal(self.rounds, self.stake, players, dealer, self.deal_no + 1, deck)

    def apply(self, action: Action) -> Step:
        if self.to_act is None:
            raise IllegalAction("wrong_phase")
        if action.seat != self.to_act:
            raise IllegalAction("not_your_turn")
        if action.verb != "play" or action.arg != self.cards[action.seat]:
            raise IllegalAction("illegal")
        self.shown[action.seat] = self.cards[action.seat]
        events = [Event("shown", {"seat": action.seat, "card": action.arg})]
        following = (action.seat + 1) % self.players
        if self.shown[following] is None:
            self.to_act = following
            return Step(events, [], deal_over=False, game_over=False)
        self.to_act = None
        winner = max(range(self.players), key=lambda seat: strength(self.cards[seat]))
        self.winner = winner
        money = [
            Transfer(seat, winner, self.stake, "trick")
            for seat in range(self.players)
            if seat != winner
        ]
        self.transfers += money
        over = self.game_over
        return Step(
            events,
            money,
            deal_over=True,
            game_over=over,
            results=[SeatResult(seat, int(seat == winner), True) for seat in range(self.players)],
            summary={"winner": winner if over else None, "cards": list(self.cards)},
        )

    def legal(self) -> list[Legal]:
        if self.to_act is None:
            return []
        return [Legal("play", self.cards[self.to_act])]

    def default_action(self) -> Action | None:
        if self.to_act is None:
            return None
        return Action(self.to_act, "play", self.cards[self.to_act])

    def public_view(self) -> PublicView:
        return PublicView(
            self.deal_no,
            self.rounds,
            self.dealer,
            tuple(self.shown),
            self.to_act,
            self.winner,
        )

    def seat_view(self, seat: int) -> SeatView:
        legal = tuple(self.legal()) if self.to_act == seat else ()
        return SeatView(seat, self.cards[seat], legal, self.public_view())

    def holding(self, seat: int) -> Holding:
        return Holding((self.cards[seat],), None, True)

    @property
    def deal_over(self) -> bool:
        return self.winner is not None

    @property
    def game_over(self) -> bool:
        return self.winner is not None and self.deal_no + 1 >= self.rounds

    def next_game_dealer(self) -> int | None:
        return None

    def pot_in_play(self) -> int:
        return 0  # no chat pot: the stakes are paid at once


@dataclass(frozen=True)
class PublicView:
    deal_no: int
    rounds: int
    dealer: int
    shown: tuple[str | None, ...]
    to_act: int | None
    winner: int | None


@dataclass(frozen=True)
class SeatView:
    seat: int
    card: str
    legal: tuple[Legal, ...]
    table: PublicView


def _check(data: JsonObject) -> JsonObject:
    unknown = set(data) - {"rounds", "stake"}
    rounds, stake = data.get("rounds", 2), data.get("stake", 1)
    if unknown or not isinstance(rounds, int) or not isinstance(stake, int):
        raise ValueError("bad options")
    if not 1 <= rounds <= 3 or not 1 <= stake <= 5:
        raise ValueError("bad options")
    return {"rounds": rounds, "stake": stake}


def _start(
    options: JsonObject,
    players: int,
    deck: Sequence[str],
    *,
    dealer: int,
    pot: int,
    deal_no: int = 0,
) -> tuple[HighCardState, Step]:
    checked = _check(options)
    rounds, stake = checked["rounds"], checked["stake"]
    assert isinstance(rounds, int) and isinstance(stake, int)
    return _deal(rounds, stake, players, dealer, deal_no, deck)


def _deal(
    rounds: int, stake: int, players: int, dealer: int, deal_no: int, deck: Sequence[str]
) -> tuple[HighCardState, Step]:
    state = HighCardState(
        rounds,
        stake,
        players,
        dealer,
        deal_no,
        list(deck[:players]),
        [None] * players,
        (dealer + 1) % players,
    )
    return state, Step([Event("dealt")], [], deal_over=False, game_over=False)


RULES = GameRules(
    kind=KIND,
    min_players=2,
    max_players=4,
    seats_between_deals=True,
    chat_pot=False,
    check_options=_check,
    start=_start,
    load=HighCardState.from_json,
)


class HighCardScreens:
    def choice(self, view: PublicView) -> str:
        return KIND

    def _lines(self, lang: str, view: PublicView, names: Sequence[str]) -> list[str]:
        lines = [GAME.words.t(lang, "highcard.title", deal=view.deal_no + 1, rounds=view.rounds)]
        for seat, card in enumerate(view.shown):
            shown = label(card) if card else GAME.words.t(lang, "highcard.face_down")
            lines.append(f"{seat_name(names, seat)}: {shown}")
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
        lines += ["", GAME.words.t(lang, "highcard.yours", card=label(view.card))]
        if view.legal and not closed:
            lines.append(GAME.words.t(lang, "highcard.prompt") + turn_deadline(lang, deadline))
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
        lines = self._lines(lang, view, names)
        assert view.winner is not None
        lines += ["", GAME.words.t(lang, "highcard.wins", name=seat_name(names, view.winner))]
        for seat in sorted(balances):
            amount = sum(money.get(seat, {}).values())
            lines.append(f"{seat_name(names, seat)}: {signed(amount)} ({signed(balances[seat])})")
        return "\n".join(lines)


def rules_text(lang: str, choice: str, options: JsonObject) -> str:
    return GAME.words.t(lang, "highcard.rules", rounds=options["rounds"], stake=options["stake"])


TEXTS = {
    "ru": {
        "game.highcard": "Старшая карта",
        "about.highcard": "Старшая карта: по одной карте, старшая берёт ставку",
        "welcome.highcard": "<b>Старшей карты</b>",
        "highcard.title": "🂠 <b>Старшая карта</b> · сдача {deal} из {rounds}",
        "highcard.face_down": "карта рубашкой вверх",
        "highcard.yours": "Ваша карта: {card}",
        "highcard.prompt": "Ваш ход: откройте карту.",
        "highcard.wins": "Сдачу берёт: {name}",
        "highcard.rules": (
            "У каждого одна карта; старшая берёт по {stake} с каждого. Сдач: {rounds}."
        ),
        "opt.highcard.rounds": "Сдач",
        "opt.highcard.stake": "Ставка",
        "help.highcard.rounds": "Сколько сдач в партии.",
        "help.highcard.stake": "Сколько платит каждый проигравший.",
    },
    "en": {
        "game.highcard": "High card",
        "about.highcard": "High card: one card each, the highest takes the stake",
        "welcome.highcard": "<b>High card</b>",
        "highcard.title": "🂠 <b>High card</b> · deal {deal} of {rounds}",
        "highcard.face_down": "card face down",
        "highcard.yours": "Your card: {card}",
        "highcard.prompt": "Your turn: show your card.",
        "highcard.wins": "The deal goes to: {name}",
        "highcard.rules": (
            "One card each; the highest takes {stake} from everyone. Deals: {rounds}."
        ),
        "opt.highcard.rounds": "Deals",
        "opt.highcard.stake": "Stake",
        "help.highcard.rounds": "How many deals a game has.",
        "help.highcard.stake": "What each loser pays.",
    },
}

GAME: GamePlugin[SeatView, PublicView] = GamePlugin(
    RULES,
    HighCardState,
    choices=(Choice(KIND, "h", aliases=("старшая",)),),
    menu=OptionsMenu(
        code="h",
        values={"rounds": (1, 2, 3), "stake": (1, 2, 5)},
        defaults={"rounds": 2, "stake": 1},
        always=("rounds", "stake"),
    ),
    texts=TEXTS,
)

PLUGIN: GameScreens[SeatView, PublicView]
PLUGIN = GameScreens(
    GAME, HighCardScreens(), rules_text=rules_text, verbs={"play": ("c", ArgKind.CARD)}
)


def highcard_view(view: SeatView, info: TableInfo) -> Json:
    """A seat of «Старшая карта» on the Mini App's page (``web.views``' schema): each seat's
    card face down until it is shown, the cards shown on the cloth in the order shown, and the
    seat's own card to tap at its turn."""
    table = view.table
    players = len(table.shown)
    seats = []
    for seat in range(players):
        entry = _seat(seat, view.seat, table.dealer, table.to_act, info)
        entry.update(cards=int(table.shown[seat] is None), tricks=None, role=None, note=None)
        seats.append(entry)
    order = [(table.dealer + step) % players for step in range(1, players + 1)]
    own = [view.card] if table.shown[view.seat] is None else []
    return {
        "schema": SCHEMA,
        "game": KIND,
        "choice": KIND,
        "version": info.version,
        "deal": table.deal_no,
        "phase": "over" if table.to_act is None else "play",
        # played from the deal on: a hand changes by the cards played from it alone
        "play_begun": table.to_act is not None,
        "you": view.seat,
        "dealer": table.dealer,
        "to_act": table.to_act,
        "deadline": info.deadline if table.to_act is not None else None,
        "ranks": info.ranks,
        "trick": [
            {"seat": seat, "card": card}
            for seat in order
            if (card := table.shown[seat]) is not None
        ],
        "seats": seats,
        "hand": _hand(own, 0, view.legal, None),
        "prompt": text("highcard.prompt") if view.legal else None,
    }


PAGE: GamePage[SeatView, PublicView] = GamePage(GAME, highcard_view, texts=("highcard.",))


OFFERED = Offered(GAME, PLUGIN, PAGE)
"""High card as a program offers it: its table side, its chat and its page."""
