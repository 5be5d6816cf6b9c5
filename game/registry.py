"""One typed interface over every game, for the table service: start a game, apply an action,
make the next deal, and read what a step changed (events, money, whether a deal or game ended).

``GameRules`` is generic in a game's own state, seat view and public view, so each game
implements it once with its own types (``StukolkaRules``, ``StarshinaRules``) and nothing is
typed ``Any``. The bot pairs each game's rules with its presentation in ``bot.games``, where a
game's state is bound to its rules; the service never learns which game it runs.

Each game keeps its own shape (docs/rules.md §1–§4); this module only adapts names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from game import starshina, stukolka
from game.core import Action, Event, Legal, Transfer
from game.starshina.options import PLAYERS as STARSHINA_PLAYERS

S = TypeVar("S")
SV = TypeVar("SV", covariant=True)
PV = TypeVar("PV", covariant=True)

JsonObject = dict[str, object]
"""A JSON object as the games read and write it (options, states, deal summaries)."""


@dataclass(frozen=True, slots=True)
class SeatResult:
    seat: int
    tricks: int
    active: bool


@dataclass(slots=True)
class Step:
    """What one change did: its events, the money it moved, and whether it ended a deal
    (``deal_over``) or the whole game (``game_over``); for a deal's end, each seat's tricks and
    the deal's summary (stored with the deal, read by /history and /stats). The state itself
    is the one the rules changed in place, or the one ``start`` / ``next_deal`` returned."""

    events: list[Event]
    transfers: list[Transfer]
    deal_over: bool
    game_over: bool
    results: list[SeatResult] = field(default_factory=list)
    summary: JsonObject = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Holding:
    """What a seat holds, to turn a choice of cards it made (a bit mask over its hand as
    shown) into cards: the hand in the engine's order, the trump, and whether the player has
    seen it (a blind choice counts in the engine's order). Never shown to anyone."""

    cards: tuple[str, ...]
    trump: str | None
    looked: bool


class GameRules(Protocol[S, SV, PV]):
    """The rules of one game as the table service uses them, over the game's own state ``S``,
    seat view ``SV`` and public view ``PV``."""

    kind: str
    min_players: int
    max_players: int
    #: players may join (at the next deal) and leave between deals, and the table plays deal
    #: after deal while enough remain (Стуколка); else a player leaving ends the game
    seats_between_deals: bool
    #: deals take the chat's running pot and leave it to the next (Стуколка's «ремиз»)
    chat_pot: bool

    def check_options(self, data: JsonObject) -> JsonObject:
        """Validated options as JSON (raises ValueError)."""
        ...

    def start(
        self,
        options: JsonObject,
        players: int,
        deck: Sequence[str],
        *,
        dealer: int,
        pot: int,
        deal_no: int = 0,
    ) -> tuple[S, Step]:
        """A new game (or, for a table whose seats changed, a new deal numbered ``deal_no``)."""
        ...

    def next_deal(
        self, state: S, deck: Sequence[str], *, pot: int, players: int, dealer: int
    ) -> tuple[S, Step]:
        """The deal after ``state``'s. ``players`` and ``dealer`` are what the table proposes
        (the players who stay and those who join; the next of them after the last dealer); a
        game whose own rules pick the dealer and whose seats never change ignores them."""
        ...

    def apply(self, state: S, action: Action) -> Step:
        """Apply ``action`` to ``state`` in place (raises ``IllegalAction`` and changes
        nothing if it is not legal)."""
        ...

    def legal(self, state: S) -> list[Legal]: ...

    def to_act(self, state: S) -> int | None: ...

    def default_action(self, state: S) -> Action | None: ...

    def seat_view(self, state: S, seat: int) -> SV: ...

    def public_view(self, state: S) -> PV: ...

    def holding(self, state: S, seat: int) -> Holding: ...

    def dump(self, state: S) -> JsonObject: ...

    def load(self, data: JsonObject) -> S: ...

    def deal_no(self, state: S) -> int: ...

    def dealer(self, state: S) -> int: ...

    def players(self, state: S) -> int: ...

    def deal_over(self, state: S) -> bool: ...

    def game_over(self, state: S) -> bool: ...

    def next_game_dealer(self, state: S) -> int | None:
        """The first dealer of the next game in the chat, chosen by how ``state``'s game ended
        (Старшина §4.4), or None where the game has no such rule."""
        ...

    def pot_in_play(self, state: S) -> int:
        """The chips of the chat's pot the deal in progress plays for (0 between deals, and
        for a game with a pot of its own): another table of the same chat must not deal for
        them too."""
        ...


class StukolkaRules:
    """Стуколка: a table plays deal after deal until it is stopped; the chat's pot carries."""

    kind = "stukolka"
    min_players = stukolka.options.MIN_PLAYERS
    max_players = stukolka.options.MAX_PLAYERS
    seats_between_deals = True
    chat_pot = True

    def check_options(self, data: JsonObject) -> JsonObject:
        return stukolka.StukolkaOptions.from_json(data).to_json()

    def start(
        self,
        options: JsonObject,
        players: int,
        deck: Sequence[str],
        *,
        dealer: int,
        pot: int,
        deal_no: int = 0,
    ) -> tuple[stukolka.StukolkaState, Step]:
        parsed = stukolka.StukolkaOptions.from_json(options)
        state, events = stukolka.new_deal(
            parsed, players, deck, dealer=dealer, pot=pot, deal_no=deal_no
        )
        return state, self._step(state, events, 0)

    def next_deal(
        self,
        state: stukolka.StukolkaState,
        deck: Sequence[str],
        *,
        pot: int,
        players: int,
        dealer: int,
    ) -> tuple[stukolka.StukolkaState, Step]:
        # the table may have changed: a new deal for the players who sit now (§1.1)
        new, events = stukolka.new_deal(
            state.options, players, deck, dealer=dealer, pot=pot, deal_no=state.deal_no + 1
        )
        return new, self._step(new, events, 0)

    def apply(self, state: stukolka.StukolkaState, action: Action) -> Step:
        before = len(state.transfers)
        events = stukolka.apply(state, action)
        return self._step(state, events, before)

    def _step(self, state: stukolka.StukolkaState, events: list[Event], before: int) -> Step:
        over = state.phase is stukolka.Phase.DEAL_OVER
        step = Step(events, state.transfers[before:], deal_over=over, game_over=False)
        if over:
            active = set(state.active)
            step.results = [
                SeatResult(seat, state.tricks[seat], seat in active)
                for seat in range(state.players)
            ]
            step.summary = {
                "outcome": None if state.outcome is None else state.outcome.value,
                "pot_before": state.pot,
                "pot_after": state.pot_after,
                "trump": state.trump,
                "trump_card": state.trump_card,
                "shleif": state.shleif,
                "variant": state.options.variant,
                "dealer": state.dealer,
                **_tricks(state.played, state.trick_winners),
            }
        return step

    def legal(self, state: stukolka.StukolkaState) -> list[Legal]:
        return stukolka.legal_actions(state)

    def to_act(self, state: stukolka.StukolkaState) -> int | None:
        return state.to_act

    def default_action(self, state: stukolka.StukolkaState) -> Action | None:
        return stukolka.default_action(state)

    def seat_view(self, state: stukolka.StukolkaState, seat: int) -> stukolka.SeatView:
        return stukolka.seat_view(state, seat)

    def public_view(self, state: stukolka.StukolkaState) -> stukolka.PublicView:
        return stukolka.public_view(state)

    def holding(self, state: stukolka.StukolkaState, seat: int) -> Holding:
        return Holding(tuple(state.hands[seat]), state.trump, state.looked[seat])

    def dump(self, state: stukolka.StukolkaState) -> JsonObject:
        return state.to_json()

    def load(self, data: JsonObject) -> stukolka.StukolkaState:
        return stukolka.StukolkaState.from_json(data)

    def deal_no(self, state: stukolka.StukolkaState) -> int:
        return state.deal_no

    def dealer(self, state: stukolka.StukolkaState) -> int:
        return state.dealer

    def players(self, state: stukolka.StukolkaState) -> int:
        return state.players

    def deal_over(self, state: stukolka.StukolkaState) -> bool:
        return state.phase is stukolka.Phase.DEAL_OVER

    def game_over(self, state: stukolka.StukolkaState) -> bool:
        return False

    def next_game_dealer(self, state: stukolka.StukolkaState) -> int | None:
        return None

    def pot_in_play(self, state: stukolka.StukolkaState) -> int:
        return 0 if self.deal_over(state) else state.pot


class StarshinaRules:
    """Старшина: one game of several deals among three, until someone takes 12 tricks."""

    kind = "starshina"
    min_players = STARSHINA_PLAYERS
    max_players = STARSHINA_PLAYERS
    seats_between_deals = False
    chat_pot = False

    def check_options(self, data: JsonObject) -> JsonObject:
        return starshina.StarshinaOptions.from_json(data).to_json()

    def start(
        self,
        options: JsonObject,
        players: int,
        deck: Sequence[str],
        *,
        dealer: int,
        pot: int,
        deal_no: int = 0,
    ) -> tuple[starshina.StarshinaState, Step]:
        if players != STARSHINA_PLAYERS:
            raise ValueError("Старшина is for exactly three players")
        parsed = starshina.StarshinaOptions.from_json(options)
        state, events = starshina.new_game(parsed, deck, dealer=dealer)
        return state, self._step(state, events, 0)

    def next_deal(
        self,
        state: starshina.StarshinaState,
        deck: Sequence[str],
        *,
        pot: int,
        players: int,
        dealer: int,
    ) -> tuple[starshina.StarshinaState, Step]:
        # the game's own rules pick the dealer (§4.1), and its three seats never change
        before = len(state.transfers)
        new, events = starshina.next_deal(state, deck)
        return new, self._step(new, events, before)

    def apply(self, state: starshina.StarshinaState, action: Action) -> Step:
        before = len(state.transfers)
        events = starshina.apply(state, action)
        return self._step(state, events, before)

    def _step(self, state: starshina.StarshinaState, events: list[Event], before: int) -> Step:
        game_over = state.phase is starshina.Phase.GAME_OVER
        over = game_over or state.phase is starshina.Phase.DEAL_OVER
        step = Step(events, state.transfers[before:], deal_over=over, game_over=game_over)
        if over and state.history:
            record = state.history[-1]
            step.results = [
                SeatResult(seat, record.tricks[seat], True) for seat in range(STARSHINA_PLAYERS)
            ]
            step.summary = {
                **record.to_json(),
                "winner": state.winner,
                **_tricks(state.played, state.trick_winners),
            }
        return step

    def legal(self, state: starshina.StarshinaState) -> list[Legal]:
        return starshina.legal_actions(state)

    def to_act(self, state: starshina.StarshinaState) -> int | None:
        return state.to_act

    def default_action(self, state: starshina.StarshinaState) -> Action | None:
        return starshina.default_action(state)

    def seat_view(self, state: starshina.StarshinaState, seat: int) -> starshina.SeatView:
        return starshina.seat_view(state, seat)

    def public_view(self, state: starshina.StarshinaState) -> starshina.PublicView:
        return starshina.public_view(state)

    def holding(self, state: starshina.StarshinaState, seat: int) -> Holding:
        return Holding(tuple(state.hands[seat]), state.trump, True)

    def dump(self, state: starshina.StarshinaState) -> JsonObject:
        return state.to_json()

    def load(self, data: JsonObject) -> starshina.StarshinaState:
        return starshina.StarshinaState.from_json(data)

    def deal_no(self, state: starshina.StarshinaState) -> int:
        return state.deal_no

    def dealer(self, state: starshina.StarshinaState) -> int:
        return state.dealer

    def players(self, state: starshina.StarshinaState) -> int:
        return STARSHINA_PLAYERS

    def deal_over(self, state: starshina.StarshinaState) -> bool:
        return state.phase in (starshina.Phase.DEAL_OVER, starshina.Phase.GAME_OVER)

    def game_over(self, state: starshina.StarshinaState) -> bool:
        return state.phase is starshina.Phase.GAME_OVER

    def next_game_dealer(self, state: starshina.StarshinaState) -> int | None:
        if state.phase is not starshina.Phase.GAME_OVER:
            return None
        return starshina.next_game_dealer(state)

    def pot_in_play(self, state: starshina.StarshinaState) -> int:
        return 0  # its game pot is its own


def _tricks(
    played: Sequence[Sequence[tuple[int, str]]], winners: Sequence[int]
) -> dict[str, object]:
    """The deal's tricks as the table saw them: each trick's cards in the order played, as
    ``[seat, card]`` pairs, and who took it. Only played cards: a passer's dead cards, the
    discards and the talon are never in here."""
    return {
        "tricks": [[[seat, card] for seat, card in trick] for trick in played],
        "trick_winners": list(winners),
    }


_STUKOLKA: GameRules[stukolka.StukolkaState, stukolka.SeatView, stukolka.PublicView]
_STUKOLKA = StukolkaRules()
_STARSHINA: GameRules[starshina.StarshinaState, starshina.SeatView, starshina.PublicView]
_STARSHINA = StarshinaRules()

#: Tools that read states of any game (log replays, benches, test helpers) look the rules up
#: by kind here, with the state's type unknown to them; the bot uses ``bot.games``, where each
#: game's state stays bound to its own rules and types.
RULES: dict[str, GameRules[Any, Any, Any]] = {"stukolka": _STUKOLKA, "starshina": _STARSHINA}


def rules_for(kind: str) -> GameRules[Any, Any, Any]:
    try:
        return RULES[kind]
    except KeyError:
        raise ValueError(f"unknown game {kind!r}") from None
