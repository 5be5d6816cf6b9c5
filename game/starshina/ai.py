"""Computer players for Старшина (docs/rules.md §4).

As for Стуколка, each player is a function of a ``SeatView`` and a ``random.Random``:

- ``easy``: keep long suits and high cards — give (and, when free, return) the lowest card of
  the shortest suit, name the longest strongest suit, put away the lowest cards of the
  shortest side suits; in play take a trick with the cheapest card that wins it, else throw
  the cheapest card, and lead the top card of the longest suit;
- ``strong``: in the play, determinized Monte-Carlo: the cards the seat cannot see are dealt
  consistently with what it has seen (its exchanges, every card played, a seat that did not
  follow suit holds none of it), each playable card is tried in every sampled world and the
  deal is played out by the engine with ``easy`` in every seat; the card with the best mean
  result wins. The result is the seat's diff (tricks − target) plus a bonus for the 12 tricks
  that win the game, less a penalty when another seat reaches them: the way to the target and
  to the game. The exchange, the trump and the kitty follow the rules of thumb.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from game.ai import Computer
from game.ai.budget import Budget
from game.ai.sampling import ALL_OF_SUIT, deal_unseen
from game.ai.search import Advice, advise_by_samples
from game.cards import FULL_DECK, RANK, SUITS
from game.core import Action, Legal, shared_action
from game.starshina.rules import GAME_TRICKS, apply, legal_actions, targets
from game.starshina.state import Phase, Phases, StarshinaState
from game.starshina.views import SeatView
from game.tricks import winning_index

WIN_BONUS = 8  # the game won is worth this many tricks of diff to the search
LOSS_PENALTY = 4  # and another seat winning it costs this many


def _lengths(hand: Sequence[str]) -> dict[str, int]:
    lengths = dict.fromkeys(SUITS, 0)
    for card in hand:
        lengths[card[1]] += 1
    return lengths


def _keep_value(hand: Sequence[str], trump: str | None) -> dict[str, tuple[int, int, int]]:
    """Per card, how much it is worth keeping: trumps, then cards of longer suits, then rank."""
    lengths = _lengths(hand)
    return {card: (card[1] == trump, lengths[card[1]], RANK[card]) for card in hand}


def cheapest(cards: Sequence[str], hand: Sequence[str], trump: str | None) -> str:
    value = _keep_value(hand, trump)
    return min(cards, key=value.__getitem__)


def trump_choice(hand: Sequence[str]) -> str:
    def worth(suit: str) -> int:
        return sum(2 + max(0, RANK[card] - 10) for card in hand if card[1] == suit)

    return max(SUITS, key=worth)


def kitty_choice(hand: Sequence[str], trump: str | None, count: int) -> tuple[str, ...]:
    value = _keep_value(hand, trump)
    return tuple(sorted(hand, key=value.__getitem__)[:count])


def play_choice(
    playable: Sequence[str],
    hand: Sequence[str],
    trick: Sequence[tuple[int, str]],
    trump: str | None,
) -> str:
    if not trick:
        lengths = _lengths(playable)
        return max(playable, key=lambda card: (lengths[card[1]], RANK[card]))
    cards = [card for _, card in trick]
    best = cards[winning_index(cards, trump)]
    winners = [
        card
        for card in playable
        if (card[1] == best[1] and RANK[card] > RANK[best])
        or (card[1] == trump and best[1] != trump)
    ]
    if winners:
        return min(winners, key=lambda card: (card[1] == trump, RANK[card]))
    return cheapest(playable, hand, trump)


def _decide(
    seat: int,
    phase: Phase,
    legal: Sequence[Legal],
    hand: Sequence[str],
    trump: str | None,
    trick: Sequence[tuple[int, str]],
) -> Action:
    match phase:
        case Phases.PLAY:
            card = play_choice([str(entry.arg) for entry in legal], hand, trick, trump)
            return shared_action(seat, "play", card)
        case Phases.EXCHANGE_GIVE | Phases.RING_RETURN:
            verb = legal[0].verb
            choices = [str(entry.arg) for entry in legal]
            if len(choices) < len(hand):  # a forced higher card: the lowest of them
                return Action(seat, verb, min(choices, key=RANK.__getitem__))
            return Action(seat, verb, cheapest(choices, hand, trump))
        case Phases.NAME_TRUMP:
            return Action(seat, "trump", trump_choice(hand))
        case Phases.KITTY:
            pick = legal[0].pick
            count = pick[0] if pick else 0
            return Action(seat, "kitty", kitty_choice(hand, trump, count))
        case Phases.DEAL_OVER | Phases.GAME_OVER:
            raise ValueError("the deal is over: nothing to decide")


def easy(view: SeatView, rng: random.Random) -> Action:
    table = view.table
    return _decide(view.seat, table.phase, view.legal, view.hand, table.trump, table.trick)


def easy_in_state(state: StarshinaState) -> Action:
    seat = state.to_act
    assert seat is not None
    return _decide(
        seat, state.phase, legal_actions(state), state.hands[seat], state.trump, state.trick
    )


def random_player(view: SeatView, rng: random.Random) -> Action:
    entry = view.legal[int(rng.random() * len(view.legal))]
    if entry.pick is not None:
        count = entry.pick[0]
        return Action(view.seat, entry.verb, tuple(rng.sample(list(view.hand), count)))
    return Action(view.seat, entry.verb, entry.arg)


# ---------------------------------------------------------------- sampling the unseen cards


def determinize(view: SeatView, rng: random.Random) -> StarshinaState:
    """A state of the deal in play agreeing with everything ``view`` shows: the seat's hand,
    its discards (the dealer), the cards it exchanged (each lies with the other seat unless
    played since, or put away by a dealer), every card played, the count of every hand, and
    the suits a seat showed it had run out of. The rest is dealt at random by ``rng``."""
    table = view.table
    me = view.seat
    played = [card for trick in (*table.played, table.trick) for _, card in trick]
    known = set(view.hand) | set(view.discards) | set(played)
    others = [seat for seat in range(3) if seat != me]
    fixed: list[list[str]] = [[] for _ in others]
    for item in view.exchanged:
        card: str | None
        if item.giver == me:
            card, other = item.card, item.receiver
        else:
            card, other = item.returned, item.giver
        if card is None or card in known or other == table.dealer:
            continue  # a dealer may have put it away with his four
        fixed[others.index(other)].append(card)
    banned: list[set[str]] = [set() for _ in range(3)]
    for trick in (*table.played, table.trick):
        if not trick:
            continue
        led = trick[0][1][1]
        for seat, card in trick[1:]:
            if card[1] != led:
                banned[seat] |= ALL_OF_SUIT[led]
    unseen = [card for card in FULL_DECK if card not in known]
    places = deal_unseen(
        unseen,
        [table.seats[seat].cards for seat in others],
        [banned[seat] for seat in others],
        fixed,
        rng,
    )
    hands: list[list[str]] = [[], [], []]
    hands[me] = list(view.hand)
    for seat, cards in zip(others, places, strict=False):
        hands[seat] = cards
    return StarshinaState(
        options=table.options,
        dealer=table.dealer,
        deal_no=table.deal_no,
        phase=table.phase,
        to_act=table.to_act,
        trump=table.trump,
        game_pot=table.game_pot,
        hands=hands,
        kitty=[],
        discards=list(view.discards) or places[-1],
        kitty_taken=list(view.from_kitty),
        queue=[],
        exchanged=[],
        trick=list(table.trick),
        leader=table.leader,
        trick_winners=list(table.trick_winners),
        played=[list(trick) for trick in table.played],
        tricks=[seat.tricks for seat in table.seats],
        history=list(table.history),
        transfers=list(table.transfers),
        winner=table.winner,
        end_reason=table.end_reason,
    )


# ---------------------------------------------------------------- the search


def played_out(state: StarshinaState, seat: int) -> tuple[int, int]:
    """Play the deal out with ``easy_in_state`` everywhere: the search's value for ``seat``
    (its tricks over its target, the game won or lost weighed in) and the tricks over its
    target alone."""
    value, diff, *_ = figures(state, seat)
    return int(value), int(diff)


#: the figures of a playout a hint may show a player, after the search's value: the tricks
#: over his target, whether he took the 12 that win the game, whether another seat did, and
#: whether he took the trick on the table
SHOWN = (("tricks", 1), ("game", 1), ("game_lost", -1), ("this_trick", 1))


def figures(state: StarshinaState, seat: int) -> tuple[float, ...]:
    """Play the deal out with ``easy_in_state`` everywhere: the search's value for ``seat``
    (``played_out``), then the figures ``SHOWN``."""
    trick = len(state.trick_winners)
    playing = Phases.PLAY
    while state.phase is playing:
        apply(state, easy_in_state(state))
    tricks = state.tricks
    diff = tricks[seat] - targets(state.options, state.dealer)[seat]
    result = diff
    won = tricks[seat] >= GAME_TRICKS
    lost = not won and max(tricks) >= GAME_TRICKS
    if won:
        result += WIN_BONUS
    elif lost:
        result -= LOSS_PENALTY
    return result, diff, won, lost, state.trick_winners[trick] == seat


def distinct_plays(view: SeatView) -> list[str]:
    """The playable cards, one of each run of equals: two cards of a suit with no card between
    them still out in the other hands (or the kitty) win and lose the same tricks, so only the
    lowest of such a run is tried."""
    table = view.table
    out = {card for trick in (*table.played, table.trick) for _, card in trick}
    out |= set(view.hand) | set(view.discards)
    playable = sorted((str(entry.arg) for entry in view.legal), key=lambda c: (c[1], RANK[c]))
    kept: list[str] = []
    for card in playable:
        if kept and kept[-1][1] == card[1]:
            between = range(RANK[kept[-1]] + 1, RANK[card])
            if all(_card(rank, card[1]) in out for rank in between):
                continue  # the same as the lower card kept
        kept.append(card)
    return kept


def _card(rank: int, suit: str) -> str:
    return "23456789TJQKA"[rank - 2] + suit


def strong(view: SeatView, rng: random.Random, budget: Budget | None = None) -> Action:
    """Monte-Carlo over the playable cards in the play (the rules of thumb's card unless
    another is surely better, ``search``); the rules of thumb elsewhere."""
    return advise(view, rng, budget).choice


def advise(view: SeatView, rng: random.Random, budget: Budget | None = None) -> Advice:
    """The strong player's choice in the seat of ``view``; in the play, with the figures of
    each playable card in the worlds it sampled (the same worlds and choice as the search: the
    game won or lost weighs in the choice, and is one of the figures a player is shown);
    elsewhere, the rule of thumb it follows (``rule_of``)."""
    default = easy(view, rng)
    if view.table.phase is not Phases.PLAY:
        return Advice(default, unit="tricks", rule=rule_of(view, default))
    actions = [Action(view.seat, "play", card) for card in distinct_plays(view)]
    if default not in actions:
        actions.append(default)

    def values_in_a_world() -> list[tuple[float, ...]]:
        world = determinize(view, rng)
        values = []
        for action in actions:
            state = world.copy()
            apply(state, action)
            values.append(figures(state, view.seat))
        return values

    return advise_by_samples(
        actions, default, values_in_a_world, budget or Budget(), SHOWN, unit="tricks"
    )


def rule_of(view: SeatView, action: Action) -> str:
    """Which rule of thumb chose ``action`` outside the play (``_decide``): a card given (or
    returned freely) is the cheapest to keep; a return forced higher is the lowest allowed;
    trump is the strongest suit; the kitty takes the cheapest cards."""
    if action.verb in ("give", "return"):
        if len(view.legal) < len(view.hand):
            return "lowest_allowed"
        return "cheapest"
    return "strongest_suit" if action.verb == "trump" else "cheapest_four"


#: Старшина's computer players (a player always sees his cards). A strong decision takes up to
#: 100 ms and at least 2 worlds: the budget of the arena figures in docs/performance.md
#: (decision p99 126 ms)
COMPUTER = Computer(random_player, easy, strong, advise, 100.0, 2)
