"""Стуколка: legality and application of actions (docs/rules.md §1, §2, §3).

``legal_actions`` is the only source of legality; ``apply`` checks an action through the same
code (``_check``), raising ``IllegalAction`` before anything changes, then changes the state and
returns the events it caused. Forced steps (dealing, antes, a lone player taking the pot,
settlement) happen inside ``apply`` and ``new_deal``.
"""

from __future__ import annotations

from collections.abc import Sequence

from game.cards import FULL_DECK, RANK, SUITS, check_deck
from game.core import POT, Action, Event, IllegalAction, Legal, Transfer
from game.stukolka.options import MAX_PLAYERS, MIN_PLAYERS, StukolkaOptions
from game.stukolka.state import (
    ACTIVE_ROLES,
    Outcome,
    Outcomes,
    Phase,
    Phases,
    Roles,
    StukolkaState,
)

HAND_SIZE = 3
TRICKS_PER_DEAL = 3
RAZREZ_CARDS = 4

# Legal entries are frozen, so one object per button serves every state (no allocation per
# call in the playouts the computer players run).
_SIMPLE = {
    Phase.CHOOSE: (Legal("shleif"), Legal("open")),
    Phase.RAZREZ: (Legal("razrez"), Legal("no_razrez")),
}
_KNOCK_OR_PASS = (Legal("knock"), Legal("pass"))
_KNOCK_OR_DARK = (*_KNOCK_OR_PASS, Legal("dark"))
_DISCARD = tuple(Legal("discard", pick=(0, most)) for most in range(HAND_SIZE + 1))
_DROP_CARD = {card: Legal("drop", card) for card in FULL_DECK}
_PLAY_CARD = {card: Legal("play", card) for card in FULL_DECK}

# ---------------------------------------------------------------- starting a deal (§1.1, §1.2)


def new_deal(
    options: StukolkaOptions,
    players: int,
    deck: Sequence[str],
    *,
    dealer: int = 0,
    pot: int = 0,
    deal_no: int = 0,
) -> tuple[StukolkaState, list[Event]]:
    """Start a deal: antes into the pot, then (classic) the cards are dealt and knocking begins,
    or (shleif variant) the dealer is asked to choose before dealing (§1.2, §3)."""
    if isinstance(players, bool) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"Стуколка is for {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if not 0 <= dealer < players:
        raise ValueError("the dealer must be one of the seats")
    if pot < 0:
        raise ValueError("the pot cannot be negative")
    cards = check_deck(deck)
    transfers = _antes(options, players, dealer)
    pot_after_antes = pot + sum(transfer.amount for transfer in transfers)
    state = StukolkaState(
        options=options,
        players=players,
        dealer=dealer,
        deal_no=deal_no,
        pot_in=pot,
        pot=pot_after_antes,
        phase=Phases.CHOOSE,
        to_act=dealer,
        shleif=None,
        trump=None,
        trump_card=None,
        hands=[[] for _ in range(players)],
        stock=cards,
        shleif_card_held=False,
        looked=[False] * players,
        roles=[Roles.NONE] * players,
        knock_order=[],
        queue=[],
        bought=[None] * players,
        discards=[[] for _ in range(players)],
        dead=[[] for _ in range(players)],
        razrez_last=None,
        trick=[],
        leader=None,
        trick_winners=[],
        played=[],
        tricks=[0] * players,
        transfers=list(transfers),
    )
    events = [Event("antes", {"transfers": [t.to_json() for t in transfers], "pot": state.pot})]
    if options.shleif:
        events.append(Event("choose", {"seat": dealer, "pot": state.pot}))
    else:
        _deal(state, shleif=False, events=events)
    return state, events


def next_deal(state: StukolkaState, deck: Sequence[str]) -> tuple[StukolkaState, list[Event]]:
    """The next deal at the same table: the deal passes left and the pot carries over (§1.1).
    (When the table changes between deals, the caller starts a ``new_deal`` instead.)"""
    if state.phase is not Phases.DEAL_OVER or state.pot_after is None:
        raise IllegalAction("wrong_phase", "the deal is not over")
    dealer = (state.dealer + 1) % state.players
    return new_deal(
        state.options,
        state.players,
        deck,
        dealer=dealer,
        pot=state.pot_after,
        deal_no=state.deal_no + 1,
    )


def _antes(options: StukolkaOptions, players: int, dealer: int) -> list[Transfer]:
    """§1.1: the dealer antes ``stake``; «обязательная»: everyone antes, the dealer twice."""
    if options.ante_mode == "dealer":
        return [Transfer(dealer, POT, options.stake, "ante")]
    return [
        Transfer(seat, POT, options.stake * (2 if seat == dealer else 1), "ante")
        for seat in range(players)
    ]


def _deal(state: StukolkaState, *, shleif: bool, events: list[Event]) -> None:
    """§1.2: three cards each from the top, seat 1 first; the next card is the trump card.
    Classic and opened deals leave it face up on the stock (§2); шлейф gives it to the dealer."""
    deck = state.stock
    players = state.players
    dealt = HAND_SIZE * players
    for offset in range(1, players + 1):
        state.hands[(state.dealer + offset) % players] = deck[offset - 1 : dealt : players]
    trump_card = deck[dealt]
    state.trump_card = trump_card
    state.trump = trump_card[1]
    state.shleif = shleif
    if shleif:
        state.stock = deck[dealt + 1 :]
        state.shleif_card_held = True
        state.roles[state.dealer] = Roles.SHLEIF_DEALER
        events.append(Event("trump", {"suit": state.trump, "shleif": True}))
        events.append(Event("shleif_card", {"card": trump_card}, to=state.dealer))
    else:
        state.stock = deck[dealt:]
        events.append(Event("trump", {"suit": state.trump, "card": trump_card, "shleif": False}))
    order = [(state.dealer + offset) % players for offset in range(1, players + 1)]
    if shleif:
        order.remove(state.dealer)
    state.phase = Phases.KNOCK
    state.to_act = order[0]
    state.queue = order[1:]
    # §1.2, §3: a player who can never go dark has nothing to gain from unseen cards: his
    # hand is simply shown (classic without ``dark_in_classic``; the шлейф dealer)
    for seat in range(players):
        if not dark_allowed(state, seat) or state.roles[seat] is Roles.SHLEIF_DEALER:
            state.looked[seat] = True


# ---------------------------------------------------------------- legality


def dark_allowed(state: StukolkaState, seat: int) -> bool:
    """§3: dark at one's knocking turn, before looking; shleif variant, or classic with
    ``dark_in_classic``. The dealer of a шлейф deal is never asked, so never dark."""
    if state.looked[seat]:
        return False
    return state.options.shleif or state.options.dark_in_classic


def dark_blind(state: StukolkaState, seat: int) -> bool:
    """§3: from his dark declaration to the end of his purchase a dark player cannot look; he
    discards unseen cards and sees his hand only once he has drawn."""
    return state.roles[seat] is Roles.DARK and state.bought[seat] is None


def max_discard(state: StukolkaState, seat: int) -> int:
    """§1.4: up to 3, never more than the stock holds (a dark player draws one more)."""
    extra = 1 if state.roles[seat] is Roles.DARK else 0
    return max(0, min(HAND_SIZE, len(state.stock) - extra))


def legal_actions(state: StukolkaState) -> list[Legal]:
    """Every action the seat to act may take now (``look`` is not a turn and is not listed)."""
    seat = state.to_act
    if seat is None:
        return []
    match state.phase:
        case Phases.PLAY:
            return [_PLAY_CARD[card] for card in legal_plays(state, seat)]
        case Phases.KNOCK:
            return list(_KNOCK_OR_DARK if dark_allowed(state, seat) else _KNOCK_OR_PASS)
        case Phases.PURCHASE:
            return [_DISCARD[max_discard(state, seat)]]
        case Phases.PURCHASE_DROP | Phases.RAZREZ_DROP:
            return [_DROP_CARD[card] for card in state.hands[seat]]
        case Phases.CHOOSE | Phases.RAZREZ:
            return list(_SIMPLE[state.phase])
        case Phases.DEAL_OVER:
            return []


def _compulsory_lead(state: StukolkaState, hand: list[str]) -> tuple[str, str] | None:
    """§1.5: on a compulsory lead the trump ace must be led, else the king of K+Q of trumps.
    Returns (card, reason) when a lead is forced."""
    if state.trick_winners and state.options.compulsory_lead == "first_lead":
        return None
    ace, king, queen = _HONOURS[state.trump]
    if ace in hand:
        return ace, "must_lead_trump_ace"
    if king in hand and queen in hand:
        return king, "must_lead_trump_king"
    return None


_HONOURS: dict[str | None, tuple[str, str, str]] = {
    suit: ("A" + suit, "K" + suit, "Q" + suit) for suit in SUITS
}


def _winning_play(trick: list[tuple[int, str]], trump: str | None) -> tuple[int, str]:
    """The (seat, card) that wins ``trick`` so far (``game.tricks.winning_index``, on the
    pairs)."""
    best = trick[0]
    best_card = best[1]
    for play in trick:
        card = play[1]
        if card[1] == best_card[1]:
            if RANK[card] > RANK[best_card]:
                best, best_card = play, card
        elif card[1] == trump:
            best, best_card = play, card
    return best


def _follow(state: StukolkaState, hand: list[str]) -> list[str]:
    """§1.5 "Following": the cards allowed on a trick already led."""
    trick = state.trick
    trump = state.trump
    led = trick[0][1][1]
    winner = _winning_play(trick, trump)[1]
    same_suit = [card for card in hand if card[1] == led]
    if same_suit:
        if winner[1] == led:
            higher = [card for card in same_suit if RANK[card] > RANK[winner]]
            if higher:
                return higher
        return same_suit
    trumps = [card for card in hand if card[1] == trump]
    if not trumps:
        return hand
    over = [card for card in trumps if RANK[card] > RANK[winner]] if winner[1] == trump else trumps
    if state.options.void_rule == "head_only":
        return over or hand
    return over or trumps


def _follow_reason(state: StukolkaState, hand: list[str], card: str) -> str:
    """Why ``card`` may not follow: the first rule of §1.5 it breaks."""
    led = state.trick[0][1][1]
    if card[1] != led and any(held[1] == led for held in hand):
        return "must_follow_suit"
    if card[1] == led:
        return "must_beat"
    if card[1] != state.trump:
        return "must_trump"
    return "must_overtrump"


def legal_plays(state: StukolkaState, seat: int) -> list[str]:
    """The cards ``seat`` may play now (§1.5)."""
    hand = state.hands[seat]
    if state.trick:
        return _follow(state, hand)
    forced = _compulsory_lead(state, hand)
    return [forced[0]] if forced else list(hand)


def play_restriction(state: StukolkaState, seat: int) -> str | None:
    """§1.5: why ``seat`` may not play every card of his hand now — the reason the first card
    he may not play breaks (``must_lead_trump_ace``, ``must_follow_suit``, …) — or None."""
    hand = state.hands[seat]
    allowed = legal_plays(state, seat)
    barred = [card for card in hand if card not in allowed]
    if not barred:
        return None
    if not state.trick:
        forced = _compulsory_lead(state, hand)
        return forced[1] if forced else None
    return _follow_reason(state, hand, barred[0])


# ---------------------------------------------------------------- applying


def apply(state: StukolkaState, action: Action) -> list[Event]:
    """Apply ``action``; raise ``IllegalAction`` (state unchanged) if the rules forbid it."""
    if action.verb == "look":
        return _apply_look(state, action.seat)
    phase = state.phase
    if phase is Phases.DEAL_OVER:
        raise IllegalAction("deal_over")
    if action.seat != state.to_act:
        raise IllegalAction("not_your_turn")
    match phase:
        case Phases.PLAY:
            return _apply_play(state, action)
        case Phases.KNOCK:
            return _apply_knock(state, action)
        case Phases.PURCHASE:
            return _apply_discard(state, action)
        case Phases.PURCHASE_DROP | Phases.RAZREZ_DROP:
            return _apply_drop(state, action)
        case Phases.CHOOSE:
            return _apply_choose(state, action)
        case Phases.RAZREZ:
            return _apply_razrez(state, action)


def _wrong_action(*verbs: str) -> IllegalAction:
    return IllegalAction("wrong_action", f"expected {' or '.join(verbs)}")


def _apply_look(state: StukolkaState, seat: int) -> list[Event]:
    """§1.2: a player may look at his cards from the deal to the end of the deal, except a
    dark player before his purchase is done (§3)."""
    if not 0 <= seat < state.players:
        raise IllegalAction("no_such_seat")
    if state.phase in (Phases.CHOOSE, Phases.DEAL_OVER):
        raise IllegalAction("nothing_to_look_at")
    if state.looked[seat]:
        return []
    if dark_blind(state, seat):
        raise IllegalAction("dark_no_look")
    state.looked[seat] = True
    return [Event("look", {"seat": seat})]


def _apply_choose(state: StukolkaState, action: Action) -> list[Event]:
    """§3: before dealing, the dealer chooses «шлейф» or «открыть козырь»."""
    if action.verb not in ("shleif", "open"):
        raise _wrong_action("shleif", "open")
    if action.arg is not None:
        raise IllegalAction("malformed")
    events = [Event(action.verb, {"seat": action.seat})]
    _deal(state, shleif=action.verb == "shleif", events=events)
    return events


def _apply_knock(state: StukolkaState, action: Action) -> list[Event]:
    """§1.3 knock or pass; §3 dark counts as a knock."""
    seat, verb = action.seat, action.verb
    if verb not in ("knock", "pass", "dark"):
        raise _wrong_action("knock", "pass", "dark")
    if action.arg is not None:
        raise IllegalAction("malformed")
    if verb == "dark" and not dark_allowed(state, seat):
        possible = state.options.shleif or state.options.dark_in_classic
        raise IllegalAction("already_looked" if possible else "dark_not_allowed")
    if verb == "pass":
        state.roles[seat] = Roles.PASS
    else:
        state.roles[seat] = Roles.DARK if verb == "dark" else Roles.KNOCK
        state.knock_order.append(seat)
    events = [Event(verb, {"seat": seat})]
    queue = state.queue
    if queue:
        state.to_act = queue.pop(0)
    else:
        _after_knocking(state, events)
    return events


def _after_knocking(state: StukolkaState, events: list[Event]) -> None:
    """§1.3: classic settles who plays now; the shleif variant goes on to the purchase and
    the razrez round first."""
    knockers = state.knock_order
    if state.options.shleif:
        state.queue = list(knockers)
        if state.shleif:
            state.queue.append(state.dealer)
        _next_purchase(state, events)
        return
    if not knockers:
        _finish(state, Outcomes.NOBODY, events)
        return
    if len(knockers) == 1:
        lone = knockers[0]
        if state.options.lone_player == "dealer_defends" and lone != state.dealer:
            state.roles[state.dealer] = Roles.DEFENDER
            events.append(Event("defends", {"seat": state.dealer}))
            state.queue = [lone, state.dealer]
            _next_purchase(state, events)
        else:
            _finish(state, Outcomes.LONE, events)
        return
    state.queue = list(knockers)
    _next_purchase(state, events)


def _next_purchase(state: StukolkaState, events: list[Event]) -> None:
    if state.queue:
        state.phase = Phases.PURCHASE
        state.to_act = state.queue.pop(0)
    elif state.options.shleif:
        _start_razrez(state, events)
    else:
        _start_play(state, events)


def _cards_arg(action: Action) -> tuple[str, ...]:
    if not isinstance(action.arg, tuple):
        raise IllegalAction("malformed", "expected a list of cards")
    if len(set(action.arg)) != len(action.arg):
        raise IllegalAction("duplicate_card")
    return action.arg


def _apply_discard(state: StukolkaState, action: Action) -> list[Event]:
    """§1.4 purchase; §3 the dark player draws one more and drops; the shleif dealer adds
    the trump card and drops."""
    if action.verb != "discard":
        raise _wrong_action("discard")
    seat = action.seat
    cards = _cards_arg(action)
    hand = state.hands[seat]
    for card in cards:
        if card not in hand:
            raise IllegalAction("not_in_hand")
    if len(cards) > max_discard(state, seat):
        raise IllegalAction("too_many_cards")
    role = state.roles[seat]
    count = len(cards) + (1 if role is Roles.DARK else 0)
    stock = state.stock
    drawn = stock[:count]
    del stock[:count]
    state.hands[seat] = [card for card in hand if card not in cards] + drawn
    state.discards[seat].extend(cards)
    state.bought[seat] = count
    events = [
        Event("bought", {"seat": seat, "count": count}),
        Event("drew", {"discarded": list(cards), "cards": drawn}, to=seat),
    ]
    if role is Roles.DARK:
        state.looked[seat] = True
        state.phase = Phases.PURCHASE_DROP
    elif role is Roles.SHLEIF_DEALER:
        assert state.trump_card is not None
        state.hands[seat].append(state.trump_card)
        state.shleif_card_held = False
        state.phase = Phases.PURCHASE_DROP
    else:
        _next_purchase(state, events)
    return events


def _apply_drop(state: StukolkaState, action: Action) -> list[Event]:
    """Discard one card of four (shleif dealer, dark player, razrez buyer)."""
    if action.verb != "drop":
        raise _wrong_action("drop")
    seat = action.seat
    card = action.arg
    if not isinstance(card, str):
        raise IllegalAction("malformed", "expected a card")
    if card not in state.hands[seat]:
        raise IllegalAction("not_in_hand")
    state.hands[seat].remove(card)
    state.discards[seat].append(card)
    events = [Event("dropped", {"seat": seat}), Event("drop", {"card": card}, to=seat)]
    if state.phase is Phases.PURCHASE_DROP:
        _next_purchase(state, events)
    else:
        _next_razrez(state, events)
    return events


def _start_razrez(state: StukolkaState, events: list[Event]) -> None:
    """§3: passers are asked clockwise from the dealer's left, the dealer last."""
    order = [(state.dealer + offset) % state.players for offset in range(1, state.players + 1)]
    state.queue = [seat for seat in order if state.roles[seat] is Roles.PASS]
    _next_razrez(state, events)


def _next_razrez(state: StukolkaState, events: list[Event]) -> None:
    if state.queue and len(state.stock) >= RAZREZ_CARDS:
        state.phase = Phases.RAZREZ
        state.to_act = state.queue.pop(0)
        return
    state.queue = []
    active = state.active
    if not active:
        _finish(state, Outcomes.NOBODY, events)
    elif len(active) == 1:
        _finish(state, Outcomes.LONE, events)
    else:
        _start_play(state, events)


def _apply_razrez(state: StukolkaState, action: Action) -> list[Event]:
    """§3 «в разрез»: take 4 from the stock, drop 1, play the 3 left; the old cards stay dead."""
    if action.verb not in ("razrez", "no_razrez"):
        raise _wrong_action("razrez", "no_razrez")
    if action.arg is not None:
        raise IllegalAction("malformed")
    seat = action.seat
    events = [Event(action.verb, {"seat": seat})]
    if action.verb == "no_razrez":
        _next_razrez(state, events)
        return events
    state.dead[seat].extend(state.hands[seat])
    state.hands[seat] = state.stock[:RAZREZ_CARDS]
    del state.stock[:RAZREZ_CARDS]
    state.roles[seat] = Roles.RAZREZ
    state.looked[seat] = True
    state.razrez_last = seat
    state.bought[seat] = RAZREZ_CARDS
    events.append(Event("drew", {"discarded": [], "cards": list(state.hands[seat])}, to=seat))
    state.phase = Phases.RAZREZ_DROP
    return events


def _start_play(state: StukolkaState, events: list[Event]) -> None:
    """§2: the first knocker leads; §3: the last razrez buyer, else the first knocker, else
    the dealer."""
    if state.options.shleif and state.razrez_last is not None:
        leader = state.razrez_last
    elif state.knock_order:
        leader = state.knock_order[0]
    else:
        leader = state.dealer
    state.phase = Phases.PLAY
    state.leader = leader
    state.to_act = leader
    events.append(Event("play_starts", {"leader": leader, "active": state.active}))


def _next_active(state: StukolkaState, seat: int) -> int:
    players = state.players
    roles = state.roles
    for offset in range(1, players):
        candidate = (seat + offset) % players
        if roles[candidate] in ACTIVE_ROLES:
            return candidate
    return seat


def _apply_play(state: StukolkaState, action: Action) -> list[Event]:
    """§1.5: play a legal card; the highest trump, else the highest of the led suit, wins."""
    if action.verb != "play":
        raise _wrong_action("play")
    seat = action.seat
    card = action.arg
    if not isinstance(card, str):
        raise IllegalAction("malformed", "expected a card")
    hand = state.hands[seat]
    if card not in hand:
        raise IllegalAction("not_in_hand")
    trick = state.trick
    if trick:
        if card not in _follow(state, hand):
            raise IllegalAction(_follow_reason(state, hand, card))
    else:
        forced = _compulsory_lead(state, hand)
        if forced and card != forced[0]:
            raise IllegalAction(forced[1])
    hand.remove(card)
    trick.append((seat, card))
    events = [Event("card_played", {"seat": seat, "card": card})]
    following = _next_active(state, seat)
    if following != trick[0][0]:  # the trick is complete when it comes round to its leader
        state.to_act = following
        return events
    winner = _winning_play(trick, state.trump)[0]
    state.tricks[winner] += 1
    trick_winners = state.trick_winners
    trick_winners.append(winner)
    state.played.append(trick)
    state.trick = []
    events.append(Event("trick_won", {"seat": winner, "trick_no": len(trick_winners) - 1}))
    if len(trick_winners) == TRICKS_PER_DEAL:
        _finish(state, Outcomes.PLAYED, events)
    else:
        state.leader = winner
        state.to_act = winner
    return events


# ---------------------------------------------------------------- settlement (§1.1, §1.3)


def trick_share(pot: int, trick_no: int) -> int:
    """§1.1: trick i pays P // 3, plus one for the first P % 3 tricks."""
    return pot // TRICKS_PER_DEAL + (1 if trick_no < pot % TRICKS_PER_DEAL else 0)


def settle(state: StukolkaState, outcome: Outcome) -> list[Transfer]:
    """The transfers that end a deal: trick shares, remizes, or the lone player's pot."""
    pot = state.pot
    if outcome is Outcomes.NOBODY:
        return []
    if outcome is Outcomes.LONE:
        (lone,) = state.active
        return [Transfer(POT, lone, pot, "pot_taken")]
    transfers: list[Transfer] = []
    for trick_no, winner in enumerate(state.trick_winners):
        share = trick_share(pot, trick_no)
        if share and state.roles[winner] is not Roles.DEFENDER:
            transfers.append(Transfer(POT, winner, share, "trick"))
    cap = state.options.remiz_cap
    remiz = pot if cap is None else min(pot, cap)
    for seat in state.active:
        if state.tricks[seat] == 0 and state.roles[seat] is not Roles.DEFENDER and remiz:
            transfers.append(Transfer(seat, POT, remiz, "remiz"))
    return transfers


def _finish(state: StukolkaState, outcome: Outcome, events: list[Event]) -> None:
    transfers = settle(state, outcome)
    balance = state.pot
    for transfer in transfers:
        balance += transfer.amount if transfer.dst == POT else -transfer.amount
    state.transfers.extend(transfers)
    state.pot_after = balance
    state.outcome = outcome
    state.phase = Phases.DEAL_OVER
    state.to_act = None
    state.queue = []
    events.append(
        Event(
            "deal_settled",
            {
                "outcome": outcome.value,
                "tricks": list(state.tricks),
                "transfers": [transfer.to_json() for transfer in transfers],
                "pot_after": balance,
                "trump_card": state.trump_card,
            },
        )
    )
