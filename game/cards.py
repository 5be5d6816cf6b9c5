"""Cards and decks (docs/rules.md, "Cards").

A card is a two-character string: rank ``23456789TJQKA`` then suit ``SHDC`` (``TH`` = 10♥).
Strings keep states and logs readable and JSON-native; the lookup tables below make comparing
them as cheap as comparing integers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

RANKS = "23456789TJQKA"
SUITS = "SHDC"
#: the order a hand shows its suits in: colours alternate, black, red, black, red
SUIT_ORDER = "SHCD"
#: "Lowest" for the default moves of docs/rules.md §5: by rank, ties in the order ♣ ♦ ♥ ♠.
TIE_ORDER = "CDHS"

FULL_DECK: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
CARD_SET: frozenset[str] = frozenset(FULL_DECK)

#: rank value of a card, 2..14
RANK: dict[str, int] = {card: RANKS.index(card[0]) + 2 for card in FULL_DECK}
#: total order used by the default moves: rank first, then ♣ < ♦ < ♥ < ♠
LOW_ORDER: dict[str, int] = {card: RANK[card] * 4 + TIE_ORDER.index(card[1]) for card in FULL_DECK}

SUIT_SYMBOL = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_LABEL = {"T": "10"}
#: how Russian players write the court cards and the ace: В Д К Т (валет, дама, король, туз)
RUSSIAN_RANK_LABEL = {"T": "10", "J": "В", "Q": "Д", "K": "К", "A": "Т"}
#: suits in emoji presentation (U+FE0F), so hearts and diamonds show red wherever they are
#: shown, in a chat's texts and buttons as in a terminal
SUIT_EMOJI = {suit: symbol + "\ufe0f" for suit, symbol in SUIT_SYMBOL.items()}


class DeckError(ValueError):
    """A deck that is not the 52 distinct cards."""


def is_card(text: object) -> bool:
    return isinstance(text, str) and text in CARD_SET


def label(card: str) -> str:
    """How people read a card: ``TH`` → ``10♥``."""
    return RANK_LABEL.get(card[0], card[0]) + SUIT_SYMBOL[card[1]]


def russian_label(card: str) -> str:
    """A card as a Russian chat shows it by default: ``QH`` → ``Д♥️``, ``TS`` → ``10♠️``."""
    return RUSSIAN_RANK_LABEL.get(card[0], card[0]) + SUIT_EMOJI[card[1]]


def lowest(cards: Iterable[str]) -> str:
    """The lowest card by rank, ties ♣ ♦ ♥ ♠ (docs/rules.md §5)."""
    return min(cards, key=LOW_ORDER.__getitem__)


def sort_hand(cards: Iterable[str], trump: str | None = None) -> list[str]:
    """A hand in display order, as every screen shows it (the chat, the page, the terminal):
    trumps first, then the suits in ``SUIT_ORDER``, each high to low."""

    def key(card: str) -> tuple[int, int, int]:
        return (0 if card[1] == trump else 1, SUIT_ORDER.index(card[1]), -RANK[card])

    return sorted(cards, key=key)


def shuffle(cards: list[str], rng: random.Random) -> None:
    """Shuffle ``cards`` in place with ``rng``: sorted by one random float each.

    ``random.Random.shuffle`` draws each index by rejection sampling on ``getrandbits`` in
    Python, three times slower; the simulations deal thousands of decks a second and the
    computer players shuffle the unseen cards for every sample. Every order is equally likely
    (two cards draw the same float with a chance of about 2**-42 per deck).
    """
    draw = rng.random
    cards.sort(key=lambda _card: draw())


def shuffled_deck(seed: int | str | bytes) -> list[str]:
    """The deck shuffled by a private ``random.Random`` (never the global one)."""
    rng = random.Random(seed)
    deck = list(FULL_DECK)
    rng.shuffle(deck)
    return deck


def deal_hands(deck: Sequence[str], players: int, dealer: int, count: int) -> list[list[str]]:
    """Hands of ``count`` cards, indexed by seat, dealt from the top one card at a time, the
    dealer's left neighbour first, round and round (docs/rules.md, "Cards")."""
    hands: list[list[str]] = [[] for _ in range(players)]
    for offset in range(1, players + 1):
        start = offset - 1
        hands[(dealer + offset) % players] = list(deck[start : players * count : players])
    return hands


def check_deck(deck: Sequence[str]) -> list[str]:
    """Return the deck as a list if it is exactly the 52 distinct cards, else raise DeckError."""
    cards = list(deck)
    if len(cards) != 52 or set(cards) != CARD_SET:
        raise DeckError("a deck must hold the 52 distinct cards")
    return cards
