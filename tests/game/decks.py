"""Stacked decks for hand-made tests: name the hands, the trump card and the top of the stock."""

from __future__ import annotations

from game.cards import FULL_DECK


def stacked(
    players: int,
    hands: dict[int, list[str]],
    trump_card: str,
    stock_top: list[str] | None = None,
    *,
    dealer: int = 0,
    hand_size: int = 3,
) -> list[str]:
    """A 52-card deck that deals ``hands`` (seat → cards; seats not named get filler), then
    ``trump_card``, then ``stock_top``, then the rest in a fixed order."""
    named = [card for cards in hands.values() for card in cards] + [trump_card, *(stock_top or [])]
    assert len(set(named)) == len(named), "a card is named twice"
    filler = [card for card in FULL_DECK if card not in named]
    full = {seat: list(hands.get(seat, [])) for seat in range(players)}
    for seat in range(players):
        while len(full[seat]) < hand_size:
            full[seat].append(filler.pop(0))
    deck: list[str] = []
    for round_ in range(hand_size):
        for offset in range(1, players + 1):
            deck.append(full[(dealer + offset) % players][round_])
    deck += [trump_card, *(stock_top or []), *filler]
    assert sorted(deck) == sorted(FULL_DECK)
    return deck
