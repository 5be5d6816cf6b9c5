"""Старшина: dealing, legality, application of actions and settlement (docs/rules.md §4).

``legal_actions`` is the only source of legality; ``apply`` checks an action through the same
helpers, raising ``IllegalAction`` before anything changes, then changes the state and returns
the events it caused. Forced steps (the deal, the antes, the updown return, settlement, the end
of the game) happen inside ``new_game``, ``next_deal`` and ``apply``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from game.cards import FULL_DECK, RANK, SUITS, check_deck, deal_hands
from game.core import GAME_POT, Action, Event, IllegalAction, Legal, Transfer
from game.starshina.options import PLAYERS, StarshinaOptions
from game.starshina.state import DealRecord, EndReason, Exchanged, Phases, StarshinaState
from game.tricks import winning_index

HAND_SIZE = 16
KITTY_SIZE = 4
TRICKS_PER_DEAL = 16
GAME_TRICKS = 12
"""§4.1 step 7: a player who takes this many tricks in a deal wins the game."""


# ---------------------------------------------------------------- seats and targets


def left_of(seat: int) -> int:
    """The seat to ``seat``'s left: the next one clockwise."""
    return (seat + 1) % PLAYERS


def targets(options: StarshinaOptions, dealer: int) -> list[int]:
    """§4.1 step 6: each seat's target, relative to the dealer (dealer, left, right)."""
    by_position = options.target_by_position
    return [by_position[(seat - dealer) % PLAYERS] for seat in range(PLAYERS)]


def _pair_off(
    sources: Sequence[tuple[int, int]], sinks: Sequence[tuple[int, int]]
) -> list[tuple[int, int, int]]:
    """Match amounts given by ``sources`` with amounts due to ``sinks`` (both (seat, amount),
    in order, equal totals): each source serves the sinks in their order. Returns
    (source, sink, amount) triples."""
    due = [amount for _, amount in sinks]
    pairs: list[tuple[int, int, int]] = []
    for source, amount in sources:
        for index, (sink, _) in enumerate(sinks):
            part = min(amount, due[index])
            if part:
                pairs.append((source, sink, part))
                amount -= part
                due[index] -= part
    return pairs


# ---------------------------------------------------------------- starting a game or a deal


def new_game(
    options: StarshinaOptions, deck: Sequence[str], *, dealer: int = 0
) -> tuple[StarshinaState, list[Event]]:
    """Start a game: with ``pot`` scoring every player antes one stake into the game pot
    (§4.4), then the first deal (§4.1). The first dealer is the caller's choice (random in the
    bot, §4.4; ``next_game_dealer`` for the next game)."""
    if isinstance(dealer, bool) or not isinstance(dealer, int) or not 0 <= dealer < PLAYERS:
        raise ValueError("the dealer must be one of the three seats")
    cards = check_deck(deck)
    antes = (
        [Transfer(seat, GAME_POT, options.stake, "ante") for seat in range(PLAYERS)]
        if options.scoring == "pot"
        else []
    )
    pot = sum(transfer.amount for transfer in antes)
    state = StarshinaState(
        options=options,
        dealer=dealer,
        deal_no=0,
        phase=Phases.DEAL_OVER,
        to_act=None,
        trump=None,
        game_pot=pot,
        hands=[[] for _ in range(PLAYERS)],
        kitty=[],
        discards=[],
        kitty_taken=[],
        queue=[],
        exchanged=[],
        trick=[],
        leader=None,
        trick_winners=[],
        played=[],
        tricks=[0] * PLAYERS,
        history=[],
        transfers=antes,
    )
    events = [Event("game_started", {"dealer": dealer, "pot": pot})]
    if antes:
        events.append(Event("antes", {"transfers": [t.to_json() for t in antes], "pot": pot}))
    _deal(state, cards, events)
    return state, events


def next_deal(state: StarshinaState, deck: Sequence[str]) -> tuple[StarshinaState, list[Event]]:
    """§4.1 step 7: nobody has won yet, so the deal passes left. The same state object goes
    on to the next deal (it holds the whole game)."""
    if state.phase is not Phases.DEAL_OVER:
        raise IllegalAction("game_over" if state.phase is Phases.GAME_OVER else "wrong_phase")
    cards = check_deck(deck)
    state.dealer = left_of(state.dealer)
    state.deal_no += 1
    events: list[Event] = []
    _deal(state, cards, events)
    return state, events


def _deal(state: StarshinaState, cards: list[str], events: list[Event]) -> None:
    """§4.1 step 1: 16 cards each from the top, the dealer's left first, and 4 to the kitty;
    then the exchange of §4.2 (if any) begins."""
    dealer = state.dealer
    state.hands = deal_hands(cards, PLAYERS, dealer, HAND_SIZE)
    state.kitty = cards[PLAYERS * HAND_SIZE :]
    state.discards = []
    state.kitty_taken = []
    state.trump = None
    state.exchanged = []
    state.trick = []
    state.leader = None
    state.trick_winners = []
    state.played = []
    state.tricks = [0] * PLAYERS
    state.queue = exchange_plan(state)
    events.append(
        Event(
            "deal_started",
            {
                "deal_no": state.deal_no,
                "dealer": dealer,
                "targets": targets(state.options, dealer),
                "pot": state.game_pot,
                "exchange": [[giver, receiver] for giver, receiver in state.queue],
            },
        )
    )
    _next_exchange(state, events)


def exchange_plan(state: StarshinaState) -> list[tuple[int, int]]:
    """§4.2: the cards to be given in this deal, one (giver, receiver) entry per card, in order.

    ``ring``: left → right, right → dealer, dealer → left. ``updown``: none in the game's first
    deal; later each player up in the previous deal gives ``diff`` cards to those down, the one
    further up first, to the one further down first; ties go to the higher target now."""
    dealer = state.dealer
    if state.options.exchange == "ring":
        first = left_of(dealer)
        return [(first, left_of(first)), (left_of(first), dealer), (dealer, first)]
    if not state.history:
        return []
    diffs = state.history[-1].diffs
    target = targets(state.options, dealer)

    def further(seat: int) -> tuple[int, int]:
        return -abs(diffs[seat]), -target[seat]

    ups = sorted((seat for seat in range(PLAYERS) if diffs[seat] > 0), key=further)
    downs = sorted((seat for seat in range(PLAYERS) if diffs[seat] < 0), key=further)
    pairs = _pair_off([(s, diffs[s]) for s in ups], [(s, -diffs[s]) for s in downs])
    return [(giver, receiver) for giver, receiver, count in pairs for _ in range(count)]


def _next_exchange(state: StarshinaState, events: list[Event]) -> None:
    """The next card of the exchange, else §4.1 step 3 (naming trump) or step 4 (the kitty)."""
    if state.queue:
        state.phase = Phases.EXCHANGE_GIVE
        state.to_act = state.queue[0][0]
        return
    state.phase = Phases.NAME_TRUMP if state.options.trumps == "dealer_names" else Phases.KITTY
    state.to_act = state.dealer


# ---------------------------------------------------------------- legality

# Legal entries are immutable: one of each, built once (legal_actions runs at every step).
_GIVE = {card: Legal("give", card) for card in FULL_DECK}
_RETURN = {card: Legal("return", card) for card in FULL_DECK}
_PLAY = {card: Legal("play", card) for card in FULL_DECK}
_TRUMP = tuple(Legal("trump", suit) for suit in SUITS)
_KITTY = Legal("kitty", pick=(KITTY_SIZE, KITTY_SIZE))


def legal_actions(state: StarshinaState) -> list[Legal]:
    """Every action the seat to act may take now (§4.1, §4.2): each card he may give or
    return, each suit he may name, one ``kitty`` entry for 4 cards of his choice, each card he
    may play."""
    seat = state.to_act
    if seat is None:
        return []
    match state.phase:
        case Phases.PLAY:
            return [_PLAY[card] for card in legal_plays(state, seat)]
        case Phases.EXCHANGE_GIVE:
            return [_GIVE[card] for card in state.hands[seat]]
        case Phases.RING_RETURN:
            return [_RETURN[card] for card in ring_returns(state)]
        case Phases.NAME_TRUMP:
            return list(_TRUMP)
        case Phases.KITTY:
            return [_KITTY]
        case Phases.DEAL_OVER | Phases.GAME_OVER:
            return []


def ring_returns(state: StarshinaState) -> list[str]:
    """§4.2 ring: the receiver returns a higher card of the suit just received if he has one
    (his choice among them), else any card, the one received included."""
    card = state.exchanged[-1].card
    hand = state.hands[state.exchanged[-1].receiver]
    higher = [c for c in hand if c[1] == card[1] and RANK[c] > RANK[card]]
    return higher or list(hand)


def legal_plays(state: StarshinaState, seat: int) -> list[str]:
    """§4.1 step 5: follow suit if you can, else any card; the leader plays any card."""
    hand = state.hands[seat]
    if not state.trick:
        return list(hand)
    led = state.trick[0][1][1]
    return [card for card in hand if card[1] == led] or list(hand)


# ---------------------------------------------------------------- applying


def apply(state: StarshinaState, action: Action) -> list[Event]:
    """Apply ``action`` (§4.1, §4.2); raise ``IllegalAction`` with the state unchanged if the
    rules forbid it, else return the events it caused (those with ``to`` set are private)."""
    phase = state.phase
    if phase is Phases.GAME_OVER:
        raise IllegalAction("game_over")
    if phase is Phases.DEAL_OVER:
        raise IllegalAction("deal_over")
    if action.seat != state.to_act:
        raise IllegalAction("not_your_turn")
    match phase:
        case Phases.PLAY:
            return _apply_play(state, action)
        case Phases.EXCHANGE_GIVE:
            return _apply_give(state, action)
        case Phases.RING_RETURN:
            return _apply_return(state, action)
        case Phases.NAME_TRUMP:
            return _apply_trump(state, action)
        case Phases.KITTY:
            return _apply_kitty(state, action)


def _require(action: Action, verb: str) -> None:
    if action.verb != verb:
        raise IllegalAction("wrong_action", f"expected {verb}")


def _card_in_hand(state: StarshinaState, action: Action) -> str:
    card = action.arg
    if not isinstance(card, str):
        raise IllegalAction("malformed", "expected a card")
    if card not in state.hands[action.seat]:
        raise IllegalAction("not_in_hand")
    return card


def _apply_give(state: StarshinaState, action: Action) -> list[Event]:
    """§4.2: the giver gives one card of his choice. ``updown``: the receiver at once returns
    his highest card of that suit, the same card if he has none higher; the bot makes it.
    ``ring``: the receiver chooses his return next."""
    _require(action, "give")
    card = _card_in_hand(state, action)
    pair = giver, receiver = state.queue.pop(0)
    state.hands[giver].remove(card)
    state.hands[receiver].append(card)
    given = 1 + sum(1 for item in state.exchanged if (item.giver, item.receiver) == pair)
    events = [
        Event("card_given", {"seat": giver, "to": receiver, "count": given}),
        Event("received", {"from": giver, "card": card}, to=receiver),
    ]
    if state.options.exchange == "ring":
        state.exchanged.append(Exchanged(giver, receiver, card, None))
        state.phase = Phases.RING_RETURN
        state.to_act = receiver
        return events
    suit = card[1]
    back = max((c for c in state.hands[receiver] if c[1] == suit), key=RANK.__getitem__)
    events.extend(_return(state, giver, receiver, card, back, forced=True))
    _next_exchange(state, events)
    return events


def _apply_return(state: StarshinaState, action: Action) -> list[Event]:
    """§4.2 ring: the receiver returns a card of his choice among those allowed."""
    _require(action, "return")
    card = _card_in_hand(state, action)
    if card not in ring_returns(state):
        raise IllegalAction("must_return_higher")
    given = state.exchanged.pop()
    events = _return(state, given.giver, given.receiver, given.card, card, forced=False)
    _next_exchange(state, events)
    return events


def _return(
    state: StarshinaState, giver: int, receiver: int, card: str, back: str, *, forced: bool
) -> list[Event]:
    """The card ``back`` goes from the receiver to the giver; the pair is recorded privately."""
    state.hands[receiver].remove(back)
    state.hands[giver].append(back)
    state.exchanged.append(Exchanged(giver, receiver, card, back))
    return [
        Event("card_returned", {"seat": receiver, "to": giver, "forced": forced}),
        Event("returned", {"to": giver, "card": back, "forced": forced}, to=receiver),
        Event("received", {"from": receiver, "card": back}, to=giver),
    ]


def _apply_trump(state: StarshinaState, action: Action) -> list[Event]:
    """§4.1 step 3 (``dealer_names``): after the exchange, before the kitty."""
    _require(action, "trump")
    suit = action.arg
    if not isinstance(suit, str) or suit not in SUITS:
        raise IllegalAction("malformed", "expected a suit letter")
    state.trump = suit
    state.phase = Phases.KITTY
    return [Event("trump_named", {"seat": action.seat, "suit": suit})]


def _apply_kitty(state: StarshinaState, action: Action) -> list[Event]:
    """§4.1 step 4: the dealer discards any 4 cards face down, then takes the 4 kitty cards;
    the discards are out of play. Then step 5: the dealer's left neighbour leads."""
    _require(action, "kitty")
    cards = action.arg
    if not isinstance(cards, tuple):
        raise IllegalAction("malformed", "expected a list of cards")
    if len(set(cards)) != len(cards):
        raise IllegalAction("duplicate_card")
    if len(cards) != KITTY_SIZE:
        raise IllegalAction("wrong_count", f"discard exactly {KITTY_SIZE} cards")
    hand = state.hands[action.seat]
    if any(card not in hand for card in cards):
        raise IllegalAction("not_in_hand")
    kitty = state.kitty
    state.hands[action.seat] = [card for card in hand if card not in cards] + kitty
    state.discards = list(cards)
    state.kitty_taken = list(kitty)
    state.kitty = []
    leader = left_of(state.dealer)
    state.phase = Phases.PLAY
    state.leader = leader
    state.to_act = leader
    return [
        Event("kitty_taken", {"seat": action.seat}),
        Event("kitty", {"discarded": list(cards), "cards": kitty}, to=action.seat),
        Event("play_starts", {"leader": leader, "trump": state.trump}),
    ]


def _apply_play(state: StarshinaState, action: Action) -> list[Event]:
    """§4.1 step 5: follow suit if you can; the highest trump, else the highest card of the
    led suit, wins, and the winner leads. After 16 tricks the deal is settled."""
    _require(action, "play")
    card = _card_in_hand(state, action)
    seat = action.seat
    if card not in legal_plays(state, seat):
        raise IllegalAction("must_follow_suit")
    state.hands[seat].remove(card)
    trick = state.trick
    trick.append((seat, card))
    events = [Event("card_played", {"seat": seat, "card": card})]
    if len(trick) < PLAYERS:
        state.to_act = left_of(seat)
        return events
    winner = trick[winning_index([c for _, c in trick], state.trump)][0]
    state.tricks[winner] += 1
    state.trick_winners.append(winner)
    state.played.append(trick)
    state.trick = []
    events.append(
        Event(
            "trick_won",
            {"seat": winner, "trick_no": len(state.played) - 1, "tricks": list(state.tricks)},
        )
    )
    if len(state.played) == TRICKS_PER_DEAL:
        _settle_deal(state, events)
    else:
        state.leader = winner
        state.to_act = winner
    return events


# ---------------------------------------------------------------- settlement (§4.1, §4.4)


def diffs_of(state: StarshinaState) -> list[int]:
    """§4.1 step 6: diff = tricks − target, per seat."""
    target = targets(state.options, state.dealer)
    return [state.tricks[seat] - target[seat] for seat in range(PLAYERS)]


def per_trick_transfers(diffs: Sequence[int], stake: int) -> list[Transfer]:
    """§4.4 ``per_trick``: each player pays (or receives) ``diff × stake``; those down pay those
    up (with three players one side is a single seat, so the pairing is unique)."""
    payers = [(seat, -diff * stake) for seat, diff in enumerate(diffs) if diff < 0]
    payees = [(seat, diff * stake) for seat, diff in enumerate(diffs) if diff > 0]
    return [Transfer(src, dst, amount, "diff") for src, dst, amount in _pair_off(payers, payees)]


def game_winner(
    options: StarshinaOptions, history: Sequence[DealRecord]
) -> tuple[int, EndReason] | None:
    """§4.1 step 7 and §4.4, given the game's finished deals: whoever took 12 or more tricks
    in the last one; else, after ``max_deals`` deals, the highest sum of diffs (ties: more
    tricks in the last deal, then the first in order from the last dealer's left, the dealer
    last); else nobody yet."""
    last = history[-1]
    for seat in range(PLAYERS):
        if last.tricks[seat] >= GAME_TRICKS:
            return seat, EndReason.TWELVE
    if len(history) < options.max_deals:
        return None
    return final_ranking(history)[0], EndReason.MAX_DEALS


def final_ranking(history: Sequence[DealRecord], winner: int | None = None) -> list[int]:
    """§4.4 "The final ranking": the player who took 12 first (``winner``, for a 12-trick
    end); below him, or from the top for a game ended by ``max_deals``, by the sum of diffs
    over the game, ties by more tricks in the last deal, then by order from the last dealer's
    left, the dealer last."""
    last = history[-1]

    def key(seat: int) -> tuple[int, int, int, int]:
        total = sum(record.diffs[seat] for record in history)
        return (
            0 if seat == winner else 1,
            -total,
            -last.tricks[seat],
            (seat - last.dealer - 1) % PLAYERS,
        )

    return sorted(range(PLAYERS), key=key)


def pot_transfers(
    options: StarshinaOptions, pot: int, diffs: Sequence[int], winner: int
) -> list[Transfer]:
    """§4.4 ``pot``: the winner takes the game pot, and each other player who missed his target
    in the final deal pays him one more stake."""
    transfers = [Transfer(GAME_POT, winner, pot, "game_pot")] if pot else []
    transfers.extend(
        Transfer(seat, winner, options.stake, "missed_target")
        for seat in range(PLAYERS)
        if seat != winner and diffs[seat] < 0
    )
    return transfers


def next_game_dealer(state: StarshinaState) -> int:
    """§4.4: the first dealer of the next game in the chat, by ``next_dealer``: the first of the
    game's final ranking (the winner), or its last (the loser)."""
    if state.winner is None or state.end_reason is None:
        raise IllegalAction("wrong_phase", "the game is not over")
    ranking = final_ranking(state.history, state.winner)
    return ranking[0] if state.options.next_dealer == "winner" else ranking[-1]


def _settle_deal(state: StarshinaState, events: list[Event]) -> None:
    """The end of a deal: diffs, ``per_trick`` money, and the end of the game with its ``pot``
    money if someone has won (§4.1 steps 6–7, §4.4)."""
    options = state.options
    diffs = diffs_of(state)
    transfers = per_trick_transfers(diffs, options.stake) if options.scoring == "per_trick" else []
    record = DealRecord(
        dealer=state.dealer,
        trump=state.trump,
        tricks=tuple(state.tricks),
        diffs=tuple(diffs),
        pot_before=state.game_pot,
        pot_after=state.game_pot,
    )
    won = game_winner(options, [*state.history, record])
    if won is not None and options.scoring == "pot":
        transfers.extend(pot_transfers(options, state.game_pot, diffs, won[0]))
        state.game_pot = 0
        record = replace(record, pot_after=0)
    state.history.append(record)
    state.transfers.extend(transfers)
    state.to_act = None
    events.append(
        Event(
            "deal_settled",
            {
                "tricks": list(state.tricks),
                "diffs": diffs,
                "transfers": [transfer.to_json() for transfer in transfers],
                "pot_after": state.game_pot,
            },
        )
    )
    if won is None:
        state.phase = Phases.DEAL_OVER
        return
    state.winner, state.end_reason = won
    state.phase = Phases.GAME_OVER
    events.append(Event("game_over", {"winner": state.winner, "reason": state.end_reason.value}))
