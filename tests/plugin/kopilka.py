"""«Копилка», a third game that exists only in the tests, with two things neither real game
has: a move of two cards at once, and a pot of the game's own that is won in the middle of the
game and filled again.

Each deal every player drops ``ante`` into the game's pot, the копилка (``GAME_POT``), and gets
three cards. In turn from the dealer's left, each lays two of his three cards face up at once
(verb ``lay``: one move, two cards chosen from the hand; the third stays face down and is never
shown). The best two take ``stake`` from every other player: a pair beats any two cards that
are not one, a higher pair a lower; else the higher sum of ranks, then the higher card (rank,
then ♣ ♦ ♥ ♠), then the other. Whoever takes a deal with a pair takes the копилка too; else it
carries on to the next deal, and the last deal's taker takes what is left, so the копилка is
empty when the game ends. A game is ``rounds`` deals.

Its figure of its own for /stats: how many копилки a player took (off the ledger's
``kopilka`` transfers); its computer player (``COMPUTER``) lays its best two cards; /history
shows what each player laid (``deal_lines``). Its rules, its chat side, its page and its texts
are in this module; nothing in ``game/``, ``tables/``, ``bot/``, ``web/`` or ``locales/`` knows it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from bot.callback import ArgKind, Codec
from bot.games import Choice, GamePlugin, GameScreens, Keyboard, OptionsMenu, StatField
from bot.games.plugin import played_lines
from bot.keyboards import selection_rows
from bot.render.common import Deadline, label, seat_name, turn_deadline
from game.ai import Advice, Budget, Computer
from game.cards import LOW_ORDER, RANK
from game.codec import Stored
from game.core import GAME_POT, Action, Event, IllegalAction, Legal, Transfer
from game.registry import GameRules, Holding, JsonObject, SeatResult, Step
from locales import signed
from server.games import Offered
from tables.scores import Figures
from web.games import GamePage
from web.view_parts import SCHEMA, Json, TableInfo, _hand, _pick, _seat, text

KIND = "kopilka"
#: cards dealt to each player, and how many of them a move lays
CARDS, LAID = 3, 2
#: the ledger's reasons of its money: into the копилка, out of it, and the deal's stakes
ANTE, POT_TAKEN, STAKE = "kopilka_ante", "kopilka", "kopilka_stake"
#: the ledger's reason of a game's own pot given back as its table closes (``tables.store``)
RETURNED = "game_pot_return"


def strength(cards: Sequence[str]) -> tuple[int, int, int, int]:
    """How good two laid cards are: a pair first (by its rank), then the sum of the ranks,
    then the higher card and the lower (rank, then ♣ ♦ ♥ ♠). Distinct cards never tie."""
    low, high = sorted(cards, key=LOW_ORDER.__getitem__)
    pair = RANK[low] == RANK[high]
    return int(pair), RANK[low] + RANK[high], LOW_ORDER[high], LOW_ORDER[low]


def is_pair(cards: Sequence[str]) -> bool:
    return len(cards) == LAID and cards[0][0] == cards[1][0]


@dataclass
class KopilkaState(Stored):
    rounds: int
    ante: int
    stake: int
    players: int
    dealer: int
    deal_no: int
    #: each seat's cards still in hand (three, then the one kept face down)
    hands: list[list[str]] = field(repr=False)
    #: each seat's two cards laid face up (none yet: an empty list)
    laid: list[list[str]]
    to_act: int | None
    #: the chips in the копилка now
    kopilka: int
    winner: int | None = None
    #: whether the deal's taker took the копилка
    took_pot: bool = False

    @property
    def kind(self) -> str:
        return KIND

    def next_deal(
        self, deck: Sequence[str], *, pot: int, players: int, dealer: int
    ) -> tuple[KopilkaState, Step]:
        if self.game_over:
            raise ValueError("the game is over")
        options: JsonObject = {"rounds": self.rounds, "ante": self.ante, "stake": self.stake}
        return _deal(options, players, dealer, self.deal_no + 1, deck, self.kopilka)

    def legal(self) -> list[Legal]:
        if self.to_act is None:
            return []
        return [Legal("lay", pick=(LAID, LAID))]

    def apply(self, action: Action) -> Step:
        seat = self.to_act
        if seat is None:
            raise IllegalAction("deal_over")
        if action.seat != seat:
            raise IllegalAction("not_your_turn")
        if action.verb != "lay" or not isinstance(action.arg, tuple):
            raise IllegalAction("wrong_action")
        cards = list(action.arg)
        if len(cards) != LAID or len(set(cards)) != LAID:
            raise IllegalAction("lay_two")
        if not set(cards) <= set(self.hands[seat]):
            raise IllegalAction("not_in_hand")
        for card in cards:
            self.hands[seat].remove(card)
        self.laid[seat] = cards
        events = [Event("laid", {"seat": seat, "cards": list(cards)})]
        following = (seat + 1) % self.players
        if not self.laid[following]:
            self.to_act = following
            return Step(events, [], deal_over=False, game_over=False)
        return self._settle(events)

    def _settle(self, events: list[Event]) -> Step:
        """The deal's end: its taker's stakes, and the копилка if he laid a pair (or it is the
        game's last deal)."""
        self.to_act = None
        winner = max(range(self.players), key=lambda seat: strength(self.laid[seat]))
        self.winner = winner
        money = [
            Transfer(seat, winner, self.stake, STAKE)
            for seat in range(self.players)
            if seat != winner
        ]
        before = self.kopilka
        self.took_pot = bool(before) and (is_pair(self.laid[winner]) or self.last_deal)
        if self.took_pot:
            money.append(Transfer(GAME_POT, winner, before, POT_TAKEN))
            self.kopilka = 0
        over = self.game_over
        summary: JsonObject = {
            "winner": None,
            "laid": [list(cards) for cards in self.laid],
            "taker": winner,
            "pot_before": before,
            "pot_after": self.kopilka,
        }
        results = [SeatResult(seat, int(seat == winner), True) for seat in range(self.players)]
        return Step(events, money, True, over, results=results, summary=summary)

    def default_action(self) -> Action | None:
        """An away player's move: his two lowest cards."""
        seat = self.to_act
        if seat is None:
            return None
        lowest = sorted(self.hands[seat], key=LOW_ORDER.__getitem__)[:LAID]
        return Action(seat, "lay", tuple(lowest))

    def public_view(self) -> PublicView:
        return PublicView(
            self.deal_no,
            self.rounds,
            self.dealer,
            tuple(tuple(cards) for cards in self.laid),
            self.to_act,
            self.kopilka,
            self.winner,
            self.took_pot,
        )

    def seat_view(self, seat: int) -> SeatView:
        legal = tuple(self.legal()) if self.to_act == seat else ()
        return SeatView(seat, tuple(self.hands[seat]), legal, self.public_view())

    def holding(self, seat: int) -> Holding:
        return Holding(tuple(self.hands[seat]), None, True)

    @property
    def last_deal(self) -> bool:
        return self.deal_no + 1 >= self.rounds

    @property
    def deal_over(self) -> bool:
        return self.winner is not None

    @property
    def game_over(self) -> bool:
        return self.deal_over and self.last_deal

    def next_game_dealer(self) -> int | None:
        return None

    def pot_in_play(self) -> int:
        return 0  # no chat pot: the копилка is the game's own


@dataclass(frozen=True)
class PublicView:
    deal_no: int
    rounds: int
    dealer: int
    laid: tuple[tuple[str, ...], ...]
    to_act: int | None
    kopilka: int
    winner: int | None
    took_pot: bool

    @property
    def players(self) -> int:
        return len(self.laid)


@dataclass(frozen=True)
class SeatView:
    seat: int
    hand: tuple[str, ...]
    legal: tuple[Legal, ...]
    table: PublicView


def _check(data: JsonObject) -> JsonObject:
    checked = {"rounds": 3, "ante": 1, "stake": 1, **data}
    allowed = {"rounds": (2, 3, 4), "ante": (1, 2), "stake": (1, 2)}
    if set(checked) != set(allowed):
        raise ValueError("bad options")
    for name, values in allowed.items():
        value = checked[name]
        if isinstance(value, bool) or value not in values:
            raise ValueError("bad options")
    return checked


def _start(
    options: JsonObject,
    players: int,
    deck: Sequence[str],
    *,
    dealer: int,
    pot: int,
    deal_no: int = 0,
) -> tuple[KopilkaState, Step]:
    return _deal(_check(options), players, dealer, deal_no, deck, 0)


def _deal(
    options: JsonObject,
    players: int,
    dealer: int,
    deal_no: int,
    deck: Sequence[str],
    kopilka: int,
) -> tuple[KopilkaState, Step]:
    """A deal: everyone's ante into the копилка (carrying what it held), three cards each."""
    rounds, ante, stake = options["rounds"], options["ante"], options["stake"]
    assert isinstance(rounds, int) and isinstance(ante, int) and isinstance(stake, int)
    hands = [list(deck[seat * CARDS : (seat + 1) * CARDS]) for seat in range(players)]
    antes = [Transfer(seat, GAME_POT, ante, ANTE) for seat in range(players)]
    state = KopilkaState(
        rounds,
        ante,
        stake,
        players,
        dealer,
        deal_no,
        hands,
        [[] for _ in range(players)],
        (dealer + 1) % players,
        kopilka + ante * players,
    )
    return state, Step([Event("dealt")], antes, deal_over=False, game_over=False)


RULES = GameRules(
    kind=KIND,
    min_players=2,
    max_players=4,
    seats_between_deals=False,
    chat_pot=False,
    check_options=_check,
    start=_start,
    load=KopilkaState.from_json,
)


def _laid_text(cards: Sequence[str]) -> str:
    return " ".join(label(card) for card in cards)


class KopilkaScreens:
    def choice(self, view: PublicView) -> str:
        return KIND

    def _lines(self, lang: str, view: PublicView, names: Sequence[str]) -> list[str]:
        lines = [
            GAME.words.t(lang, "kopilka.title", deal=view.deal_no + 1, rounds=view.rounds),
            GAME.words.t(lang, "kopilka.pot", pot=view.kopilka),
        ]
        for seat, cards in enumerate(view.laid):
            shown = _laid_text(cards) if cards else GAME.words.t(lang, "kopilka.not_laid")
            pair = " " + GAME.words.t(lang, "kopilka.pair") if is_pair(cards) else ""
            lines.append(f"{seat_name(names, seat)}: {shown}{pair}")
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
        cards = _laid_text(view.hand) or "—"
        lines += ["", GAME.words.t(lang, "kopilka.yours", cards=cards)]
        if view.legal and not closed:
            lines.append(GAME.words.t(lang, "kopilka.prompt") + turn_deadline(lang, deadline))
        return "\n".join(lines)

    def keyboard(
        self, codec: Codec, lang: str, view: SeatView, game_id: int, turn: int, mask: int
    ) -> Keyboard:
        if not view.legal:
            return []
        return selection_rows(
            codec,
            view.hand,
            None,
            game_id,
            turn,
            "lay",
            (LAID, LAID),
            mask,
            lang=lang,
            confirm=lambda count: GAME.words.t(lang, "kopilka.confirm"),
        )

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
        taker = seat_name(names, view.winner)
        lines += ["", GAME.words.t(lang, "kopilka.wins", name=taker)]
        if view.took_pot:
            won = money.get(view.winner, {}).get(POT_TAKEN, 0)
            lines.append(GAME.words.t(lang, "kopilka.pot_taken", name=taker, pot=won))
        elif any(RETURNED in parts for parts in money.values()):
            # the table closes: the копилка goes back (the ledger's return of a game's own pot)
            lines.append(GAME.words.t(lang, "kopilka.pot_returned", pot=view.kopilka))
        elif view.kopilka:
            lines.append(GAME.words.t(lang, "kopilka.pot_carried", pot=view.kopilka))
        for seat in sorted(balances):
            amount = sum(money.get(seat, {}).values())
            lines.append(f"{seat_name(names, seat)}: {signed(amount)} ({signed(balances[seat])})")
        return "\n".join(lines)


def rules_text(lang: str, choice: str, options: JsonObject) -> str:
    return GAME.words.t(lang, "kopilka.rules", **options)


TEXTS = {
    "ru": {
        "game.kopilka": "Копилка",
        "about.kopilka": "Копилка: выкладывают по две карты, пара берёт копилку",
        "welcome.kopilka": "<b>Копилки</b>",
        "kopilka.title": "🐷 <b>Копилка</b> · сдача {deal} из {rounds}",
        "kopilka.pot": "В копилке: {pot}",
        "kopilka.not_laid": "карты ещё не выложены",
        "kopilka.pair": "— пара!",
        "kopilka.yours": "Ваши карты: {cards}",
        "kopilka.prompt": "Ваш ход: отметьте две карты и выложите их.",
        "kopilka.confirm": "Выложить две",
        "kopilka.wins": "Сдачу берёт: {name}",
        "kopilka.taken_by": "Сдача досталась: {name}",
        "kopilka.pot_taken": "Копилку ({pot}) забирает: {name}",
        "kopilka.pot_carried": "Копилка ({pot}) переходит в следующую сдачу.",
        "kopilka.pot_returned": "Копилка ({pot}) возвращается: каждому его взнос.",
        "kopilka.rules": (
            "Каждую сдачу все кладут по {ante} в копилку; у каждого три карты, две из них "
            "выкладывают разом. Лучшие две (пара, иначе большая сумма) берут по {stake} с "
            "каждого, а пара — ещё и копилку. Сдач: {rounds}."
        ),
        "kopilka.stats": "Копилок взято: {n}",
        "kopilka.evening": "Копилки за вечер: {items}",
        "opt.kopilka.rounds": "Сдач",
        "opt.kopilka.ante": "В копилку",
        "opt.kopilka.stake": "Ставка",
        "help.kopilka.rounds": "Сколько сдач в партии.",
        "help.kopilka.ante": "Сколько каждый кладёт в копилку в начале сдачи.",
        "help.kopilka.stake": "Сколько каждый платит тому, кто взял сдачу.",
        "money.kopilka_ante": "в копилку {amount}",
        "money.kopilka": "копилка {amount}",
        "money.kopilka_stake": "сдача {amount}",
        "move.lay": "две карты",
    },
    "en": {
        "game.kopilka": "Piggy bank",
        "about.kopilka": "Piggy bank: lay two cards at once, a pair takes the piggy bank",
        "welcome.kopilka": "<b>Piggy bank</b>",
        "kopilka.title": "🐷 <b>Piggy bank</b> · deal {deal} of {rounds}",
        "kopilka.pot": "In the piggy bank: {pot}",
        "kopilka.not_laid": "no cards laid yet",
        "kopilka.pair": "— a pair!",
        "kopilka.yours": "Your cards: {cards}",
        "kopilka.prompt": "Your turn: mark two cards and lay them.",
        "kopilka.confirm": "Lay the two",
        "kopilka.wins": "The deal goes to: {name}",
        "kopilka.taken_by": "The deal went to: {name}",
        "kopilka.pot_taken": "The piggy bank ({pot}) goes to: {name}",
        "kopilka.pot_carried": "The piggy bank ({pot}) carries on to the next deal.",
        "kopilka.pot_returned": "The piggy bank ({pot}) goes back: to each, their stakes.",
        "kopilka.rules": (
            "Each deal everyone drops {ante} into the piggy bank; three cards each, two of "
            "them laid at once. The best two (a pair, else the higher sum) take {stake} from "
            "everyone, and a pair takes the piggy bank too. Deals: {rounds}."
        ),
        "kopilka.stats": "Piggy banks taken: {n}",
        "kopilka.evening": "Piggy banks this evening: {items}",
        "opt.kopilka.rounds": "Deals",
        "opt.kopilka.ante": "Into the bank",
        "opt.kopilka.stake": "Stake",
        "help.kopilka.rounds": "How many deals a game has.",
        "help.kopilka.ante": "What each player drops into the piggy bank as a deal begins.",
        "help.kopilka.stake": "What each player pays whoever takes the deal.",
        "money.kopilka_ante": "into the piggy bank {amount}",
        "money.kopilka": "piggy bank {amount}",
        "money.kopilka_stake": "deal {amount}",
        "move.lay": "two cards",
    },
}


def best(view: SeatView, rng: random.Random) -> Action:
    """Its computer player, at every level: its best two cards (a pair, if it holds one)."""
    return Action(view.seat, "lay", max(combinations(view.hand, LAID), key=strength))


def best_within(view: SeatView, rng: random.Random, budget: Budget | None) -> Action:
    return best(view, rng)


def best_advised(view: SeatView, rng: random.Random, budget: Budget | None) -> Advice:
    return Advice(best(view, rng))


#: its computer players: module-level functions, so that a worker process imports them by name
COMPUTER = Computer(best, best, best_within, best_advised, 20.0, 1)

GAME: GamePlugin[SeatView, PublicView] = GamePlugin(
    RULES,
    KopilkaState,
    choices=(Choice(KIND, "p", aliases=("копилка", "piggy")),),
    menu=OptionsMenu(
        code="p",
        values={"rounds": (2, 3, 4), "ante": (1, 2), "stake": (1, 2)},
        defaults={"rounds": 3, "ante": 1, "stake": 1},
        always=("rounds",),
    ),
    texts=TEXTS,
    computer=COMPUTER,
    # its figure of its own: the копилки a player took, counted off the ledger
    stat_fields=(StatField("kopilki", (POT_TAKEN,), "received", "count"),),
)


def stats_lines(lang: str, figures: Figures) -> list[str]:
    """/stats: the deals and tricks every game counts, then the копилки the player took."""
    taken = figures.fields.get("kopilki", 0)
    own = [GAME.words.t(lang, "kopilka.stats", n=taken)] if taken else []
    return [*played_lines(lang, figures), *own]


def evening_lines(
    lang: str, figures: Mapping[str, Mapping[int, int]], name: Callable[[int], str]
) -> list[str]:
    """An evening's summary: who took how many копилки."""
    taken = figures.get("kopilki", {})
    items = ", ".join(f"{name(user)} {count}" for user, count in taken.items())
    return [GAME.words.t(lang, "kopilka.evening", items=items)] if items else []


def deal_lines(lang: str, summary: JsonObject, name: Callable[[int], str]) -> list[str]:
    """/history: what each player laid (a pair marked), then who took the deal."""
    laid, taker = summary.get("laid"), summary.get("taker")
    if not isinstance(laid, list) or not isinstance(taker, int):
        return []
    lines = []
    for seat, cards in enumerate(laid):
        pair = " " + GAME.words.t(lang, "kopilka.pair") if is_pair(cards) else ""
        lines.append(f"{name(seat)}: {_laid_text(cards)}{pair}")
    return [*lines, GAME.words.t(lang, "kopilka.taken_by", name=name(taker))]


PLUGIN: GameScreens[SeatView, PublicView]
PLUGIN = GameScreens(
    GAME,
    KopilkaScreens(),
    rules_text=rules_text,
    verbs={"lay": ("ly", ArgKind.MASK)},
    stats_lines=stats_lines,
    evening_lines=evening_lines,
    deal_lines=deal_lines,
)


def kopilka_view(view: SeatView, info: TableInfo) -> Json:
    """A seat of «Копилка» on the Mini App's page (``web.views``' schema): the копилка as the
    table's pot, the laid pairs on the cloth in the order laid, and the seat's hand as a choice
    of two cards (``pick``) at its turn."""
    table = view.table
    seats = []
    for seat in range(table.players):
        entry = _seat(seat, view.seat, table.dealer, table.to_act, info)
        # once laid, the card kept face down is out of play: dead, never shown (a replay too)
        held = 0 if table.laid[seat] else CARDS
        entry.update(cards=held, tricks=None, role=None, note=None)
        seats.append(entry)
    order = [(table.dealer + step) % table.players for step in range(1, table.players + 1)]
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
        "pot": text("kopilka.pot", pot=table.kopilka),
        "trick": [{"seat": seat, "card": card} for seat in order for card in table.laid[seat]],
        "seats": seats,
        "hand": _hand(view.hand, 0, (), None),
        "pick": _pick(view.legal, "lay", "kopilka.confirm", None),
        "prompt": text("kopilka.prompt") if view.legal else None,
    }


PAGE: GamePage[SeatView, PublicView] = GamePage(GAME, kopilka_view, texts=("kopilka.",))

OFFERED = Offered(GAME, PLUGIN, PAGE)
"""Копилка as a program offers it: its table side, its chat and its page."""
