"""Computer players for Стуколка (docs/rules.md §1–§3), classic and «со шлейфом».

Every player is a function of a ``SeatView`` (what a person in that seat may see) and a
``random.Random``, returning one of ``view.legal``:

- ``easy``: rules of thumb — knock on trump strength (and when a silent table would leave the
  pot to the last speaker), buy away all but trumps and aces, take a trick with the cheapest
  card that wins it, else throw the cheapest card;
- ``strong``: determinized Monte-Carlo. Each sample deals the cards the seat cannot see
  consistently with what it has seen (``determinize``); every candidate action is applied to a
  copy of that world and the deal is played out by the engine with ``easy`` in every seat; the
  action with the best mean chips for the seat (trick shares minus a remiz, or the pot) wins.

The rules of thumb read plain values (hand, trump, trick), so the same code decides for a view
(``easy``) and, inside a playout, for a seat of a sampled state (``easy_in_state``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from itertools import combinations

from game.ai import Computer
from game.ai.budget import Budget
from game.ai.sampling import ALL_OF_SUIT, above, deal_unseen
from game.ai.search import UNSEEN, Advice, advise_by_samples
from game.cards import FULL_DECK, RANK
from game.core import Action, Legal, shared_action
from game.stukolka.rules import apply, dark_blind, legal_actions
from game.stukolka.state import ACTIVE_ROLES, Phase, Phases, StukolkaState
from game.stukolka.views import SeatView
from game.tricks import winning_index

# ---------------------------------------------------------------- rules of thumb

_TRUMP_WEIGHT = {14: 3.0, 13: 2.5, 12: 2.0, 11: 1.5}
_SIDE_WEIGHT = {14: 1.5, 13: 0.6}


def strength(card: str, trump: str | None) -> int:
    """How much a card is worth keeping: any trump above any other suit, then by rank."""
    return RANK[card] + (20 if card[1] == trump else 0)


def hand_score(hand: Sequence[str], trump: str | None) -> float:
    return sum(
        _TRUMP_WEIGHT.get(RANK[card], 1.0)
        if card[1] == trump
        else _SIDE_WEIGHT.get(RANK[card], 0.0)
        for card in hand
    )


def knock_choice(hand: Sequence[str], trump: str | None, knocked: int, last: bool) -> str:
    """Knock with a hand worth it (the more have knocked, the more it takes), or when nobody
    has knocked and nobody speaks after: a lone knocker takes the pot or plays the dealer."""
    if last and knocked == 0:
        return "knock"
    return "knock" if hand_score(hand, trump) >= 2.0 + 0.6 * knocked else "pass"


def discard_choice(hand: Sequence[str], trump: str | None, most: int) -> tuple[str, ...]:
    """Buy away every card that is neither a trump nor an ace, the lowest first."""
    weak = sorted(
        (card for card in hand if card[1] != trump and RANK[card] < 14),
        key=lambda card: strength(card, trump),
    )
    return tuple(weak[:most])


def drop_choice(hand: Sequence[str], trump: str | None) -> str:
    return min(hand, key=lambda card: strength(card, trump))


def beats(card: str, best: str, trump: str | None) -> bool:
    if card[1] == best[1]:
        return RANK[card] > RANK[best]
    return card[1] == trump


def play_choice(
    playable: Sequence[str], trick: Sequence[tuple[int, str]], trump: str | None
) -> str:
    """Lead the strongest card; on a trick, win it with the cheapest card that does, else
    throw the cheapest card."""
    if not trick:
        return max(playable, key=lambda card: strength(card, trump))
    cards = [card for _, card in trick]
    best = cards[winning_index(cards, trump)]
    winners = [card for card in playable if beats(card, best, trump)]
    return min(winners or playable, key=lambda card: strength(card, trump))


def _decide(
    seat: int,
    phase: Phase,
    legal: Sequence[Legal],
    hand: Sequence[str],
    trump: str | None,
    trick: Sequence[tuple[int, str]],
    knocked: int,
    last: bool,
    active: int,
) -> Action:
    entry = legal[0]
    match phase:
        case Phases.PLAY:
            card = play_choice([item.arg for item in legal if item.arg], trick, trump)
            return shared_action(seat, "play", card)
        case Phases.KNOCK:
            return shared_action(seat, knock_choice(hand, trump, knocked, last))
        case Phases.PURCHASE:
            most = entry.pick[1] if entry.pick else 0
            return Action(seat, "discard", discard_choice(hand, trump, most))
        case Phases.PURCHASE_DROP | Phases.RAZREZ_DROP:
            card = drop_choice([str(item.arg) for item in legal], trump)
            return shared_action(seat, "drop", card)
        case Phases.RAZREZ:
            # alone at a table of passers, a razrez buyer takes the pot without play
            return shared_action(seat, "razrez" if active == 0 else "no_razrez")
        case Phases.CHOOSE:
            return shared_action(seat, "shleif")
        case Phases.DEAL_OVER:
            raise ValueError("the deal is over: nothing to decide")


def easy(view: SeatView, rng: random.Random) -> Action:
    """The rules of thumb, from what the seat sees (``rng`` is not needed: they are fixed)."""
    table = view.table
    return _decide(
        view.seat,
        table.phase,
        view.legal,
        view.hand or (),
        table.trump,
        table.trick,
        len(table.knock_order),
        not table.queue,
        sum(1 for seat in table.seats if seat.role in ACTIVE_ROLES),
    )


def easy_in_state(state: StukolkaState) -> Action:
    """The rules of thumb for the seat to act in a (sampled) state: playouts only."""
    seat = state.to_act
    assert seat is not None
    phase = state.phase
    hand = state.hands[seat]
    if phase is Phases.PURCHASE and dark_blind(state, seat):
        hand = []  # a dark player discards unseen cards: as a dark seat's view, keeps them all
    return _decide(
        seat,
        phase,
        legal_actions(state),
        hand,
        state.trump,
        state.trick,
        len(state.knock_order),
        not state.queue,
        sum(1 for role in state.roles if role in ACTIVE_ROLES),
    )


def random_player(view: SeatView, rng: random.Random) -> Action:
    """A uniformly random legal action (a purchase: a random number of random cards)."""
    entry = view.legal[int(rng.random() * len(view.legal))]
    if entry.pick is not None:
        hand = list(view.hand or ())
        count = rng.randint(entry.pick[0], min(entry.pick[1], len(hand)))
        return Action(view.seat, entry.verb, tuple(rng.sample(hand, count)))
    return Action(view.seat, entry.verb, entry.arg)


# ---------------------------------------------------------------- sampling the unseen cards


def _excluded(view: SeatView) -> list[set[str]]:
    """Cards each seat cannot hold, from how it played (docs/rules.md §1.5): not following the led
    suit means none of it; not trumping (``must_trump``) means no trumps; following or trumping
    below the card that was winning means nothing above it; a lead other than the trump ace
    (when leads are compulsory) means no trump ace."""
    table = view.table
    trump = table.trump
    options = table.options
    banned: list[set[str]] = [set() for _ in range(table.players)]
    tricks = [*table.played, table.trick] if table.trick else list(table.played)
    for number, trick in enumerate(tricks):
        lead_seat, lead = trick[0]
        compulsory = options.compulsory_lead == "every_lead" or number == 0
        if compulsory and trump is not None and lead != "A" + trump:
            banned[lead_seat].add("A" + trump)
        for index in range(1, len(trick)):
            seat, card = trick[index]
            cards = [played for _, played in trick[:index]]
            best = cards[winning_index(cards, trump)]
            led = lead[1]
            if card[1] == led:
                if best[1] == led and RANK[card] < RANK[best]:
                    banned[seat] |= above(best)
                continue
            banned[seat] |= ALL_OF_SUIT[led]
            if trump is None:
                continue
            if card[1] == trump:
                if best[1] == trump and RANK[card] < RANK[best]:
                    banned[seat] |= above(best)
            elif options.void_rule == "must_trump" or best[1] != trump:
                banned[seat] |= ALL_OF_SUIT[trump]
            else:
                banned[seat] |= above(best)
    return banned


def determinize(view: SeatView, rng: random.Random) -> StukolkaState:
    """A whole state of the deal that agrees with everything ``view`` shows: the seat's own
    cards, every card played, the counts of every hand and of the stock, the face-up trump card
    (on the stock or with the seat that drew it) and what each seat's play ruled out. The
    cards the seat cannot see are dealt at random, by ``rng`` alone."""
    table = view.table
    me = view.seat
    players = table.players
    seats = table.seats
    hand = list(view.hand) if view.hand is not None else None
    if hand is None and view.legal and view.legal[0].verb == "drop":
        hand = [str(entry.arg) for entry in view.legal]  # the cards offered are his hand
    known: set[str] = set(view.discards)
    if hand is not None:
        known.update(hand)
    for trick in (*table.played, table.trick):
        known.update(card for _, card in trick)
    face_up = table.trump_card if table.shleif is False else None
    if face_up is not None:
        known.add(face_up)
    if view.shleif_card is not None:
        known.add(view.shleif_card)
    unseen = [card for card in FULL_DECK if card not in known]
    dealt = table.shleif is not None

    holders = [seat for seat in range(players) if seat != me or hand is None]
    banned = _excluded(view)
    needs = [seats[seat].cards for seat in holders]
    fixed: list[list[str]] = [[] for _ in holders]
    taker = table.trump_card_taker
    if face_up is not None and taker is not None and taker in holders:
        played_it = any(card == face_up for trick in table.played for _, card in trick)
        if not played_it and face_up not in (card for _, card in table.trick):
            # with him, unless his hand is empty: then he dropped it (a purchase, a разрез)
            if seats[taker].cards:
                fixed[holders.index(taker)].append(face_up)
            unseen.append(face_up)
    # the шлейф card the dealer keeps apart is a trump nobody else has seen
    held_apart = table.shleif is True and seats[table.dealer].bought is None and dealt
    shleif_card = view.shleif_card
    if held_apart and shleif_card is None:
        trumps = [card for card in unseen if card[1] == table.trump]
        shleif_card = trumps[int(rng.random() * len(trumps))]
        unseen.remove(shleif_card)
    stock_count = table.stock_count if dealt else len(unseen)
    on_stock = [face_up] if table.trump_card_on_stock and face_up is not None else []
    places = deal_unseen(
        unseen,
        [*needs, stock_count - len(on_stock)],
        [*(banned[seat] for seat in holders), set()],
        [*fixed, []],
        rng,
    )
    hands: list[list[str]] = [[] for _ in range(players)]
    for seat, cards in zip(holders, places, strict=False):
        hands[seat] = cards
    if hand is not None:
        hands[me] = hand
    stock = on_stock + places[len(holders)]
    discards: list[list[str]] = [[] for _ in range(players)]
    discards[me] = list(view.discards)
    dead: list[list[str]] = [[] for _ in range(players)]
    dead[(me + 1) % players] = places[-1]  # cards out of play: where exactly does not matter
    trump_card = face_up or shleif_card
    if trump_card is None and table.trump is not None:
        trump_card = next((card for card in hands[table.dealer] if card[1] == table.trump), None)
    return StukolkaState(
        options=table.options,
        players=players,
        dealer=table.dealer,
        deal_no=table.deal_no,
        pot_in=table.pot_in,
        pot=table.pot,
        phase=table.phase,
        to_act=table.to_act,
        shleif=table.shleif,
        trump=table.trump,
        trump_card=trump_card,
        hands=hands,
        stock=stock,
        shleif_card_held=held_apart,
        looked=[seat.looked for seat in seats],
        roles=[seat.role for seat in seats],
        knock_order=list(table.knock_order),
        queue=list(table.queue),
        bought=[seat.bought for seat in seats],
        discards=discards,
        dead=dead,
        razrez_last=table.razrez_last,
        trick=list(table.trick),
        leader=table.leader,
        trick_winners=list(table.trick_winners),
        played=[list(trick) for trick in table.played],
        tricks=[seat.tricks for seat in seats],
        transfers=list(table.transfers),
        pot_after=table.pot_after,
        outcome=table.outcome,
    )


# ---------------------------------------------------------------- the search


def candidates(view: SeatView) -> list[Action]:
    """Every distinct action the seat may take: a purchase is one action per set of cards."""
    actions: list[Action] = []
    hand = list(view.hand or ())
    for entry in view.legal:
        if entry.pick is None:
            actions.append(Action(view.seat, entry.verb, entry.arg))
            continue
        fewest, most = entry.pick
        for count in range(fewest, min(most, len(hand)) + 1):
            actions += [Action(view.seat, entry.verb, cards) for cards in combinations(hand, count)]
    return actions


def playout(state: StukolkaState, seat: int) -> int:
    """Play the deal out with ``easy_in_state`` everywhere; the chips ``seat`` gains from
    here on (trick shares and the pot taken, less a remiz)."""
    return int(figures(state, seat)[0])


#: the figures of a playout a hint may show a player, after the search's value (the chips):
#: the chips again, the tricks he took in the deal, whether he paid a remiz, and, in the play,
#: whether he took the trick on the table
SHOWN = (("chips", 1), ("taken", 1), ("remiz", -1))
SHOWN_IN_PLAY = (*SHOWN, ("this_trick", 1))


def figures(state: StukolkaState, seat: int, *, in_play: bool = False) -> tuple[float, ...]:
    """Play the deal out with ``easy_in_state`` everywhere: the chips ``seat`` gains from here
    on (trick shares and the pot taken, less a remiz), then the figures ``SHOWN`` (with
    ``in_play``: ``SHOWN_IN_PLAY``)."""
    settled = len(state.transfers)
    trick = len(state.trick_winners)
    over = Phases.DEAL_OVER
    while state.phase is not over:
        apply(state, easy_in_state(state))
    gain = 0
    remiz = 0
    for transfer in state.transfers[settled:]:
        if transfer.dst == seat:
            gain += transfer.amount
        elif transfer.src == seat:
            gain -= transfer.amount
            remiz |= transfer.reason == "remiz"
    if not in_play:
        return gain, gain, state.tricks[seat], remiz
    return gain, gain, state.tricks[seat], remiz, state.trick_winners[trick] == seat


def strong(view: SeatView, rng: random.Random, budget: Budget | None = None) -> Action:
    """Determinized Monte-Carlo over the candidate actions, the same sampled worlds for each;
    the rules of thumb's action unless another is surely better (``search``)."""
    return _search(view, rng, budget).choice


def advise(view: SeatView, rng: random.Random, budget: Budget | None = None) -> Advice:
    """The strong player's choice in the seat of ``view``, with the figures of each candidate
    in the worlds it sampled (the hint a player may ask for: the same search, from the same
    view, so it knows no card the seat cannot see). A player who has not seen his cards is
    advised among the moves he can make without them (``unseen_candidates``)."""
    if view.hand is None and view.legal:
        return _advise_unseen(view, rng, budget)
    return _search(view, rng, budget)


def _search(view: SeatView, rng: random.Random, budget: Budget | None) -> Advice:
    actions = candidates(view)
    if len(actions) == 1:
        return Advice(actions[0], tuple(actions))
    default = _as_candidate(easy(view, rng), actions)
    in_play = view.table.phase is Phases.PLAY

    def values_in_a_world() -> list[tuple[float, ...]]:
        world = determinize(view, rng)
        values = []
        for action in actions:
            state = world.copy()
            apply(state, action)
            values.append(figures(state, view.seat, in_play=in_play))
        return values

    shown = SHOWN_IN_PLAY if in_play else SHOWN
    return advise_by_samples(actions, default, values_in_a_world, budget or Budget(), shown)


def unseen_candidates(view: SeatView) -> list[Action]:
    """The moves of a player who has not seen his cards, as his keyboard offers them: look at
    them, where he may (a knock, a pass or a purchase made blind is never better than the
    same made after a look), or go dark, which only a player who has not looked may; a dark
    player at his purchase, who may not look, discards unseen cards: how many (``UNSEEN``),
    never which."""
    seat = view.seat
    if view.may_look:
        dark = [Action(seat, "dark")] if any(e.verb == "dark" for e in view.legal) else []
        return [Action(seat, "look"), *dark]
    actions = []
    for entry in view.legal:
        if entry.pick is not None:
            fewest, most = entry.pick
            top = min(most, view.hand_count)
            actions += [Action(seat, entry.verb, (UNSEEN,) * n) for n in range(fewest, top + 1)]
        elif entry.arg is None:
            actions.append(Action(seat, entry.verb))
    return actions


def _advise_unseen(view: SeatView, rng: random.Random, budget: Budget | None) -> Advice:
    """``advise`` for a player who has not seen his cards: the same search over
    ``unseen_candidates``, his own cards dealt at random with the others' in every world, a
    look played as the rules of thumb would go on with the cards it shows."""
    actions = unseen_candidates(view)
    if len(actions) == 1:
        return Advice(actions[0], tuple(actions))
    default = actions[0]  # to look, as the computer does; else the rules of thumb's blind move
    if not view.may_look:
        default = _as_unseen(easy(view, rng), actions)

    def values_in_a_world() -> list[tuple[float, ...]]:
        world = determinize(view, rng)
        values = []
        for action in actions:
            state = world.copy()
            apply(state, _blind(state, action))
            values.append(figures(state, view.seat))
        return values

    return advise_by_samples(actions, default, values_in_a_world, budget or Budget(), SHOWN)


def _blind(state: StukolkaState, action: Action) -> Action:
    """A blind discard of so many unseen cards made in a sampled world: its first cards (they
    lie there at random)."""
    if not isinstance(action.arg, tuple):
        return action
    hand = state.hands[action.seat]
    return Action(action.seat, action.verb, tuple(hand[: len(action.arg)]))


def _as_unseen(action: Action, actions: Sequence[Action]) -> Action:
    """The unseen candidate ``action`` is (a blind discard: of as many cards)."""
    return _matching(action, actions, len)


def _as_candidate(action: Action, actions: Sequence[Action]) -> Action:
    """The candidate equal to ``action`` (a purchase: the same cards in any order)."""
    return _matching(action, actions, frozenset)


def _matching(
    action: Action, actions: Sequence[Action], key: Callable[[tuple[str, ...]], object]
) -> Action:
    """The candidate whose cards are ``action``'s by ``key``; else ``action`` itself where it
    is one, else the first."""
    if isinstance(action.arg, tuple):
        wanted = key(action.arg)
        for candidate in actions:
            if isinstance(candidate.arg, tuple) and key(candidate.arg) == wanted:
                return candidate
    return action if action in actions else actions[0]


def may_look(view: SeatView) -> bool:
    """A player who has not looked at his cards may (and the computer always does)."""
    return view.may_look


#: Стуколка's computer players. A strong decision takes up to 30 ms and at least 6 worlds:
#: the budget of the arena figures in docs/performance.md (decision p99 48 ms)
COMPUTER = Computer(random_player, easy, strong, advise, 30.0, 6, looks=may_look)

__all__ = [
    "COMPUTER",
    "advise",
    "candidates",
    "determinize",
    "easy",
    "easy_in_state",
    "random_player",
    "strong",
]
