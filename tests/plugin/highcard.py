"""«Старшая карта», a game that exists only in the tests: proof that a game is one plugin.

One phase: each player gets one card face down and, in turn from the dealer's left, shows it
(verb ``play``); the highest card (rank, then suit in the order ♣ ♦ ♥ ♠) wins ``stake`` from
every other player. A game is ``rounds`` deals. Its rules implement ``GameRules`` with their
own state and views, its screens ``Screens``; its texts come with the plugin. Nothing in
``game/``, ``bot/`` or ``locales/`` knows it.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from bot.callback import Act, ArgKind, encode
from bot.games import Choice, GamePlugin, GameScreens, Keyboard, OptionsMenu
from bot.render.common import Deadline, label, seat_name, signed, turn_deadline
from game.cards import RANK
from game.codec import Stored
from game.core import Action, Event, IllegalAction, Legal, Transfer
from game.registry import Holding, JsonObject, SeatResult, Step
from locales import t

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


class HighCardRules:
    kind = KIND
    min_players = 2
    max_players = 4
    seats_between_deals = True
    chat_pot = False

    def check_options(self, data: JsonObject) -> JsonObject:
        unknown = set(data) - {"rounds", "stake"}
        rounds, stake = data.get("rounds", 2), data.get("stake", 1)
        if unknown or not isinstance(rounds, int) or not isinstance(stake, int):
            raise ValueError("bad options")
        if not 1 <= rounds <= 3 or not 1 <= stake <= 5:
            raise ValueError("bad options")
        return {"rounds": rounds, "stake": stake}

    def start(
        self,
        options: JsonObject,
        players: int,
        deck: Sequence[str],
        *,
        dealer: int,
        pot: int,
        deal_no: int = 0,
    ) -> tuple[HighCardState, Step]:
        checked = self.check_options(options)
        rounds, stake = checked["rounds"], checked["stake"]
        assert isinstance(rounds, int) and isinstance(stake, int)
        return self._deal(rounds, stake, players, dealer, deal_no, deck)

    def _deal(
        self, rounds: int, stake: int, players: int, dealer: int, deal_no: int, deck: Sequence[str]
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

    def next_deal(
        self, state: HighCardState, deck: Sequence[str], *, pot: int, players: int, dealer: int
    ) -> tuple[HighCardState, Step]:
        return self._deal(state.rounds, state.stake, players, dealer, state.deal_no + 1, deck)

    def apply(self, state: HighCardState, action: Action) -> Step:
        if state.to_act is None:
            raise IllegalAction("wrong_phase")
        if action.seat != state.to_act:
            raise IllegalAction("not_your_turn")
        if action.verb != "play" or action.arg != state.cards[action.seat]:
            raise IllegalAction("illegal")
        state.shown[action.seat] = state.cards[action.seat]
        events = [Event("shown", {"seat": action.seat, "card": action.arg})]
        following = (action.seat + 1) % state.players
        if state.shown[following] is None:
            state.to_act = following
            return Step(events, [], deal_over=False, game_over=False)
        state.to_act = None
        winner = max(range(state.players), key=lambda seat: strength(state.cards[seat]))
        state.winner = winner
        money = [
            Transfer(seat, winner, state.stake, "trick")
            for seat in range(state.players)
            if seat != winner
        ]
        state.transfers += money
        over = self.game_over(state)
        return Step(
            events,
            money,
            deal_over=True,
            game_over=over,
            results=[SeatResult(seat, int(seat == winner), True) for seat in range(state.players)],
            summary={"winner": winner if over else None, "cards": list(state.cards)},
        )

    def legal(self, state: HighCardState) -> list[Legal]:
        if state.to_act is None:
            return []
        return [Legal("play", state.cards[state.to_act])]

    def to_act(self, state: HighCardState) -> int | None:
        return state.to_act

    def default_action(self, state: HighCardState) -> Action | None:
        if state.to_act is None:
            return None
        return Action(state.to_act, "play", state.cards[state.to_act])

    def public_view(self, state: HighCardState) -> PublicView:
        return PublicView(
            state.deal_no,
            state.rounds,
            state.dealer,
            tuple(state.shown),
            state.to_act,
            state.winner,
        )

    def seat_view(self, state: HighCardState, seat: int) -> SeatView:
        legal = tuple(self.legal(state)) if state.to_act == seat else ()
        return SeatView(seat, state.cards[seat], legal, self.public_view(state))

    def holding(self, state: HighCardState, seat: int) -> Holding:
        return Holding((state.cards[seat],), None, True)

    def dump(self, state: HighCardState) -> JsonObject:
        return state.to_json()

    def load(self, data: JsonObject) -> HighCardState:
        return HighCardState.from_json(data)

    def deal_no(self, state: HighCardState) -> int:
        return state.deal_no

    def dealer(self, state: HighCardState) -> int:
        return state.dealer

    def players(self, state: HighCardState) -> int:
        return state.players

    def deal_over(self, state: HighCardState) -> bool:
        return state.winner is not None

    def game_over(self, state: HighCardState) -> bool:
        return state.winner is not None and state.deal_no + 1 >= state.rounds

    def next_game_dealer(self, state: HighCardState) -> int | None:
        return None

    def pot_in_play(self, state: HighCardState) -> int:
        return 0  # no chat pot: the stakes are paid at once


class HighCardScreens:
    def choice(self, view: PublicView) -> str:
        return KIND

    def _lines(self, lang: str, view: PublicView, names: Sequence[str]) -> list[str]:
        lines = [t(lang, "highcard.title", deal=view.deal_no + 1, rounds=view.rounds)]
        for seat, card in enumerate(view.shown):
            shown = label(card) if card else t(lang, "highcard.face_down")
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
            turn = t(lang, "turn.whose", name=seat_name(names, view.to_act))
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
        lines += ["", t(lang, "highcard.yours", card=label(view.card))]
        if view.legal and not closed:
            lines.append(t(lang, "highcard.prompt") + turn_deadline(lang, deadline))
        return "\n".join(lines)

    def keyboard(self, lang: str, view: SeatView, game_id: int, turn: int, mask: int) -> Keyboard:
        return [
            [(label(entry.arg or ""), encode(Act(game_id, turn, entry.verb, entry.arg)))]
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
        lines += ["", t(lang, "highcard.wins", name=seat_name(names, view.winner))]
        for seat in sorted(balances):
            amount = sum(money.get(seat, {}).values())
            lines.append(f"{seat_name(names, seat)}: {signed(amount)} ({signed(balances[seat])})")
        return "\n".join(lines)

    def rules_text(self, lang: str, choice: str, options: JsonObject) -> str:
        return t(lang, "highcard.rules", rounds=options["rounds"], stake=options["stake"])


TEXTS = {
    "ru": {
        "game.highcard": "Старшая карта",
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

GAME: GamePlugin[HighCardState, SeatView, PublicView] = GamePlugin(
    HighCardRules(),
    choices=(Choice(KIND, "h", aliases=("старшая",)),),
    menu=OptionsMenu(
        code="h",
        values={"rounds": (1, 2, 3), "stake": (1, 2, 5)},
        defaults={"rounds": 2, "stake": 1},
        always=("rounds", "stake"),
    ),
    texts=TEXTS,
)

PLUGIN: GameScreens[HighCardState, SeatView, PublicView]
PLUGIN = GameScreens(GAME, HighCardScreens(), verbs={"play": ("c", ArgKind.CARD)})
