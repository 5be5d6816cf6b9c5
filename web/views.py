"""The seat view: the one JSON object the Mini App page is drawn from.

Pure functions from a game's own per-seat view (drawn by the game's page, ``web.games``) and
what the table knows beside the engine (``TableInfo``: names, chips, the turn's deadline, the
state's version, the chat's card style) to plain dicts of JSON types. A view holds exactly
what the seat's private hand message may show: its own cards, never another seat's. The page
keeps no truth of its own; it redraws from this object after every change.

Schema (``SCHEMA`` = 1). Cards are the engine's two-letter codes (``"TH"`` = 10♥), suits one
letter of ``SHDC``; the page draws them in the chat's style (``ranks``). Texts are locale keys
(``{"key": ..., "params": {...}}``) that the page looks up in the catalogue ``web.texts`` serves.

    game        the game's kind ("stukolka", "starshina", …)
    choice      the game's /new choice ("stukolka", "shleif", "starshina", …): the title the
                chat shows
    version     int: the state version an action must name
    stamp       int: the stored table's version when the view was read; every change of the
                table moves it, so a page draws no view older than the one it shows (a
                move's answer can arrive after the live update of a later change)
    deal        int: the deal's number
    phase       the engine's phase name
    you         int: the viewer's seat
    dealer      int
    to_act      int | null
    deadline    float | null: when the turn runs out (Unix time, seconds)
    ranks       "russian" | "latin"
    trump       suit | null
    trump_card  card | null: the face-up trump card (classic, an opened deal, a deal's end)
    pot         {"key", "params"} | null: the pot or the game's pot, said as the chat says it
    seats       [{seat, name, chips, cards, tricks, dealer, to_act, you, away,
                  role: {"key"} | null, note: {"key", "params"} | null, tricks_in_note}]:
                ``cards`` the cards in play the seat holds (none for a passer's dead
                cards); ``tricks`` int once the play has begun and the seat plays, else null;
                ``tricks_in_note`` the note says the seat's tricks already (Старшина's «2
                взятки, нужно 5»), so the page does not count them again
    stock       int: the cards left face down (the stock, Старшина's kitty)
    stock_label str: the key that counts them («В колоде 12 карт», «В прикупе 4 карты»)
    trick       [{seat, card}]: the trick on the cloth, in play order
    last_trick  [{seat, card}], last_winner: int | null
    hand        {cards: [{card, verb | null}], hidden: int, look: bool}: the seat's cards
                (see Moves: ``verb`` is the card's move now); ``hidden`` counts the cards
                the seat holds unseen (Стуколка before looking); ``look`` whether it may look
    pick        a move of several cards, or null (see Moves)
    actions     [action]: every other move the seat may make now (see Moves)
    prompt      {"key", "params", "n"?} | null: what the seat is asked to do now
    private     [{"label", "cards"}]: cards only this seat has seen (its discards, the шлейф
                card, what the kitty gave, the cards of its exchanges)
    play_begun  bool: the cards are being played, the deal's choices (purchases, exchanges,
                the kitty) done, so that a hand changes by the cards played from it alone: the
                private cards are past business then, which the page folds into one line a
                tap opens where the hand leaves little room; a replay's step «before the play»
                is the first such state, and from it on shows the cards another seat will play
    trump_card_on_stock  bool: the face-up trump card still lies on the stock (Стуколка)
    trump_line  {"key", "params"} | null: the trump as the chat's table message says it
    pot_gloss   {"key"} | null: what «ремиз» means, the chat's gloss
    (``phase`` "lobby": a table still gathering, ``lobby_view``: the seated players, nothing
    dealt, the lobby's buttons as ``actions`` (``web.lobby``), the prompt «ждём начала игры»;
    ``you`` is null on the page of a group's lobby he does not sit at; ``free`` the seats
    still free.)
    result      null | {nets: [int per seat] | null, parts: [[text per reason] per seat] |
                null, label: text, notes: [text]}: a finished deal or game, each seat's money
                by reason as the chat's breakdown names it where the chat says it beside the
                net (none where a lone reason says no more than the net: the tricks'), and
                what follows (the pot carried over, the game going on)
    A game's page may leave out what it never shows (a trump, a pot, a stock, the last
    trick, private cards, moves but its cards', a result): ``web.view_parts.unshown``.

    (Added by the table service's side, ``web.tables``: ``hint`` bool, 💡 offered at his turn
    (``web.hints``); ``stopping`` null | {line, votes, actions}, a table stopping with its
    deal in play and its buttons (``web.stopping``); ``evening`` bool, whether the table's
    chat has an evening to show (``web.evening``: a practice table has none).)

Moves. The view describes every move the seat may make, and the page draws each from its
description alone: it names no game's verb and has no branch for any game, so a new game's
move of an input kind below needs nothing new on the page. A move is posted back as
``{version, verb, arg}`` (``web.tables.move_of`` makes the table service's ``Move`` of it).
Four kinds of input:

    card        one card of the hand to tap: ``hand.cards[i].verb`` is the verb it posts
                with that card as ``arg`` ("play", "give"…); null where the card may not be
                chosen now (drawn disabled, dimmed only beside legal ones)
    cards       several cards of the hand to mark, then confirm: ``pick`` = {verb, min, max,
                confirm: {"key"}, none: {"key"} | null}; the cards marked (a list) are its
                ``arg``; ``confirm`` labels the confirmation (its plural form for the count
                marked), ``none`` the confirmation of marking none
    button      an entry of ``actions`` = {verb, arg, label, input: "button", secondary}: a
                button showing ``label`` that posts ``arg`` as it is (null, or a number: how
                many unseen cards, for a blind choice)
    suit        an entry of ``actions`` with input "suit": ``arg`` a suit, drawn as the
                suit's glyph in its colour with ``label`` as its accessible name

``secondary`` (bool) marks a choice drawn quieter beside the others: to pass, to look at
one's cards, to leave a lobby, to vote to void a deal. The buttons of a lobby (``web.lobby``),
of a table stopping (``stopping.actions``) and of a closed or away seat (``web.tables``) are
``actions`` of the same shape (``web.view_parts.action``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from web.games import PageGame
from web.view_parts import SCHEMA, Json, TableInfo, _seat, text, unshown


def lobby_view(
    page: PageGame,
    options: Mapping[str, Any],
    you: int | None,
    info: TableInfo,
    actions: Sequence[Json] = (),
    prompt: Json | None = None,
) -> Json:
    """A table still gathering: who is seated, its buttons (``actions``) and what it waits for
    (``prompt``; by default, its start): the chat's lobby message. The view's shape is a
    deal's, with nothing dealt; ``you`` None for a page that does not sit at it."""
    choice = page.game.choice_of(dict(options))
    seats = []
    for seat in range(len(info.names)):
        entry = _seat(seat, -1 if you is None else you, -1, None, info)
        entry.update(cards=0, tricks=None, role=None, note=None)
        seats.append(entry)
    return {
        **unshown(),
        "schema": SCHEMA,
        "game": page.game.rules.kind,
        "choice": choice,
        "version": info.version,
        "stamp": info.stamp,
        "deal": 0,
        "phase": "lobby",
        "you": you,
        "dealer": None,
        "to_act": None,
        "deadline": None,
        "ranks": info.ranks,
        "seats": seats,
        "hand": {"cards": [], "hidden": 0, "look": False},
        "actions": list(actions),
        "prompt": prompt or text("web.lobby.waiting", len(seats)),
        "free": max(0, page.game.rules.max_players - len(seats)),
    }


def refusal(stale: bool) -> Json:
    """Why a move was not taken: the table changed since the view it was made from, or the
    rules do not allow it now."""
    return text("web.stale" if stale else "web.illegal")


def seat_view(page: PageGame, state: object, seat: int, info: TableInfo) -> Json:
    """What the page of ``seat`` shows of ``state``, a state of ``page``'s game."""
    return {**unshown(), **page.view(state, seat, info)}
