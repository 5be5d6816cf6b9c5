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
    hand        {cards: [{card, verb | null}], hidden: int, look: bool}
                verb is what tapping the card does now ("play", "drop", "give", "return");
                null: not legal now (disabled; the page dims it only beside legal ones).
                ``hidden`` counts the cards the seat holds unseen (Стуколка before looking);
                ``look`` whether it may look.
    pick        {verb, min, max, confirm: {"key"}, none: {"key"} | null} | null: choosing
                several cards of the hand (the purchase's discards, Старшина's kitty);
                ``none`` labels the confirmation of choosing none
    actions     [{verb, arg, label: {"key", "params"}}]: every other legal decision
    prompt      {"key", "params", "n"?} | null: what the seat is asked to do now
    private     [{"label", "cards"}]: cards only this seat has seen (its discards, the шлейф
                card, what the kitty gave, the cards of its exchanges)
    trump_card_on_stock  bool: the face-up trump card still lies on the stock (Стуколка)
    trump_line  {"key", "params"} | null: the trump as the chat's table message says it
    pot_gloss   {"key"} | null: what «ремиз» means, the chat's gloss
    (``phase`` "lobby": a table still gathering, ``lobby_view``: the seated players, nothing
    dealt, the lobby's buttons as ``actions`` (``web.lobby``), the prompt «ждём начала игры»;
    ``you`` is null on the page of a group's lobby he does not sit at; ``free`` the seats
    still free.)
    result      null | {nets: [int per seat] | null, parts: [[text per reason] per seat] |
                null, label: text, notes: [text]}: a finished deal or game, each seat's money
                by reason as the chat's breakdown names it, and what follows (the pot carried
                over, the game going on)
    (Added by the table service's side, ``web.tables``: ``hint`` bool, 💡 offered at his turn
    (``web.hints``); ``stopping`` null | {line, votes, actions}, a table stopping with its
    deal in play and its buttons (``web.stopping``); ``evening`` bool, whether the table's
    chat has an evening to show (``web.evening``: a practice table has none).)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from web.games import page_game
from web.view_parts import SCHEMA, Json, TableInfo, _seat, text


def lobby_view(
    kind: str,
    options: Mapping[str, Any],
    you: int | None,
    info: TableInfo,
    actions: Sequence[Json] = (),
    prompt: Json | None = None,
) -> Json:
    """A table still gathering: who is seated, its buttons (``actions``) and what it waits for
    (``prompt``; by default, its start): the chat's lobby message. The view's shape is a
    deal's, with nothing dealt; ``you`` None for a page that does not sit at it."""
    page = page_game(kind)
    choice = page.game.choice_of(dict(options))
    seats = []
    for seat in range(len(info.names)):
        entry = _seat(seat, -1 if you is None else you, -1, None, info)
        entry.update(cards=0, tricks=None, role=None, note=None)
        seats.append(entry)
    return {
        "schema": SCHEMA,
        "game": kind,
        "choice": choice,
        "version": info.version,
        "deal": 0,
        "phase": "lobby",
        "you": you,
        "dealer": None,
        "to_act": None,
        "deadline": None,
        "ranks": info.ranks,
        "trump": None,
        "trick": [],
        "last_trick": [],
        "last_winner": None,
        "trump_card": None,
        "trump_card_on_stock": False,
        "trump_line": None,
        "pot": None,
        "pot_gloss": None,
        "stock": 0,
        "stock_label": "web.stock",
        "seats": seats,
        "hand": {"cards": [], "hidden": 0, "look": False},
        "pick": None,
        "actions": list(actions),
        "prompt": prompt or text("web.lobby.waiting", len(seats)),
        "free": max(0, page.game.max_players - len(seats)),
        "private": [],
        "result": None,
    }


def refusal(stale: bool) -> Json:
    """Why a move was not taken: the table changed since the view it was made from, or the
    rules do not allow it now."""
    return text("web.stale" if stale else "web.illegal")


def seat_view(kind: str, state: object, seat: int, info: TableInfo) -> Json:
    """What the page of ``seat`` shows of ``state``, a game of ``kind`` (``ValueError`` for a
    game the page does not show)."""
    return page_game(kind).view(state, seat, info)
