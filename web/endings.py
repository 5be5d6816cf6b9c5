"""A finished deal on the page: its score card and its replay, both made from the deal's
states as the table service reads them back from the game's action log (``tables.deals``:
each version as the rules left it, never a deal in progress) and its ledger.

``score_card`` is the deal's end as the chat's result says it (each seat's tricks, role and
purchase, its money by reason from the deal's ledger, the last trick, what follows); and
``replay`` steps through the deal: as dealt, before the first card, then trick by trick, every
hand as it was, each card face up only if the viewer saw it at the table. Pure functions: the
caller checks that the deal is over and that the viewer played at the table (``web.tables``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from game.cards import sort_hand
from tables.deals import finished
from tables.games import Table
from web.games import PageGame
from web.view_parts import Json, TableInfo, money_parts, text
from web.views import seat_view

#: what a score card keeps of a deal's end view (all of it public: no hand, nothing private)
CARD_FIELDS = (
    "game",
    "choice",
    "deal",
    "dealer",
    "ranks",
    "trump",
    "trump_card",
    "trump_line",
    "last_trick",
    "last_winner",
)
#: what a seat of a score card keeps
SEAT_FIELDS = ("seat", "name", "dealer", "tricks", "role", "note", "tricks_in_note")


def score_card(
    page: PageGame,
    end: Table,
    you: int | None,
    info: TableInfo,
    money: Sequence[Mapping[str, int] | None],
) -> Json:
    """A finished deal's score card for the page (``end``: the deal over; ``you``: the
    viewer's seat in it, None if he did not play it; ``money``: each seat's chips by reason
    that the deal moved, or a game won moved over all its deals, from the ledger, as the
    chat's result breaks them down)."""
    view = seat_view(page, end, you if you is not None else 0, info)
    card: Json = {name: view[name] for name in CARD_FIELDS}
    seats = []
    for seat in view["seats"]:
        entry = {name: seat[name] for name in SEAT_FIELDS}
        mine = money[seat["seat"]] if seat["seat"] < len(money) else None
        entry["you"] = seat["seat"] == you
        entry["net"] = None if mine is None else sum(mine.values())
        entry["parts"] = [] if mine is None else money_parts(dict(mine))
        entry["chips"] = seat["chips"]
        seats.append(entry)
    card["seats"] = seats
    result = view["result"] or {}
    card["label"] = result.get("label") or text("web.score.over")
    card["notes"] = list(result.get("notes") or [])
    card["game_over"] = end.game_over
    title = "web.score.game" if end.game_over else "web.score.title"
    card["title"] = text(title, deal=end.deal_no + 1)
    return card


def replay(page: PageGame, tables: Sequence[Table], info: TableInfo, you: int | None) -> Json:
    """A finished deal, step by step (``tables``: its states, ``tables.deals.deal_tables``),
    for the player at seat ``you`` (None: for no seat): as dealt, as the play began (who
    bought, discarded, what the шлейф card was), then each trick with every hand as it was
    before it, the cards played marked. Only ever for a deal that is over, and only the cards
    the viewer saw at the table (``Seen``), and where he saw them: another seat's hand before
    the play, another seat's private cards but those the viewer passed or received, are only
    counted, face down, as is every card he did not see; dead cards (a passer's, §1.3) are not
    even counted."""
    if not finished(tables):
        raise ValueError("a replay of a deal that is not over")
    seen = Seen.of(page, tables, info, you)
    dead = _dead(page, tables[-1], info) - {you}
    # as dealt: the first state with cards in hand (шлейф's dealer chooses before the deal)
    first = next((n for n, table in enumerate(tables) if _dealt(table)), 0)
    steps: list[Json] = [
        _step(page, tables[first], tables[first], info, seen, dead, text("web.replay.dealt"))
    ]
    before = tables[first]
    taken = 0
    # a deal dealt into its play (nothing to choose first) has no step before the play
    playing = seat_view(page, before, 0, info)["play_begun"]
    for table in tables[first + 1 :]:
        view = seat_view(page, table, 0, info)
        if not playing and view["play_begun"]:
            playing = True
            label = text("web.replay.before_play")
            steps.append(_step(page, table, table, info, seen, dead, label))
            before = table
        count = sum(seat["tricks"] or 0 for seat in view["seats"])
        if count > taken:
            taken = count
            label = text("web.replay.trick", n=count)
            step = _step(page, before, table, info, seen, dead, label)
            step["trick"] = view["last_trick"]
            step["winner"] = view["last_winner"]
            steps.append(step)
            before = table
    end = tables[-1]
    if taken == 0:
        # a deal without play (a lone knocker, nobody knocked): how it ended
        steps.append(_step(page, end, end, info, seen, dead, text("web.replay.end")))
    return {"deal": end.deal_no, "steps": steps}


@dataclass(frozen=True, slots=True)
class Seen:
    """The cards one seat was shown in a deal, by its own page's views of every state of it:
    on the cloth (every card played), and beside it (its own hand once looked at, its private
    cards, a face-up trump card, the шлейф card shown to all at the deal's end). A page of no
    seat saw only what the table showed everyone."""

    #: every card the seat saw, on the cloth or beside it: what a hand may show
    cards: frozenset[str]
    #: the cards it saw other than played: what another seat's private cards may show (a
    #: card seen played says nothing of its passing, the kitty or a discard)
    held: frozenset[str]
    #: the seat (None: no seat's)
    seat: int | None

    @staticmethod
    def of(page: PageGame, tables: Sequence[Table], info: TableInfo, you: int | None) -> Seen:
        played: set[str] = set()
        held: set[str] = set()
        for table in tables:
            view = seat_view(page, table, 0 if you is None else you, info)
            played |= {item["card"] for item in (*view["trick"], *view["last_trick"])}
            if view["trump_card"]:
                held.add(view["trump_card"])
            if you is not None:
                held |= {item["card"] for item in view["hand"]["cards"]}
                held |= {card for group in view["private"] for card in group["cards"]}
        return Seen(frozenset(played | held), frozenset(held), you)


NONE: frozenset[str] = frozenset()


def _shown(cards: Sequence[str], seen: frozenset[str]) -> tuple[list[str], int]:
    """``cards`` as a viewer who saw ``seen`` may read them: those he saw, and how many
    others."""
    shown = [card for card in cards if card in seen]
    return shown, len(cards) - len(shown)


def _dead(page: PageGame, end: Table, info: TableInfo) -> set[int]:
    """The seats whose cards the deal left dead: held at its end, but none in play as the
    table shows them (a passer's; not one who came back in by the razrez)."""
    return {
        seat["seat"]
        for seat in seat_view(page, end, 0, info)["seats"]
        if seat["cards"] == 0 and end.holding(seat["seat"]).cards
    }


def _dealt(table: Table) -> bool:
    return any(table.holding(seat).cards for seat in range(table.players))


def _step(
    page: PageGame,
    hands_at: Table,
    table: Table,
    info: TableInfo,
    seen: Seen,
    dead: set[int],
    label: Json,
) -> Json:
    """One step of a replay: the table as ``table`` shows it (roles, purchases, tricks, the
    trump), each seat's hand as ``hands_at`` holds it, and what only each seat saw (its
    discards, the шлейф card, the kitty, its exchanges), each card only if the viewer saw it
    (``seen``), else counted as ``hidden``; a dead hand (``dead``) neither shown nor
    counted. Another seat's hand shows a card only once the play has begun (``play_begun``):
    before it, hands change by what the table does not see (purchases, exchanges, the kitty),
    and a card seen played later would tell where it came from."""
    public = seat_view(page, table, 0, info)
    playing = seat_view(page, hands_at, 0, info)["play_begun"]
    seats = []
    for seat in public["seats"]:
        number = seat["seat"]
        own = seat_view(page, table, number, info)
        held = () if number in dead else hands_at.holding(number).cards
        entry = {name: seat[name] for name in SEAT_FIELDS}
        cards, hidden = _shown(held, seen.cards if playing or number == seen.seat else NONE)
        entry["hand"] = sort_hand(cards, public["trump"])
        entry["hidden"] = hidden
        entry["dead"] = number in dead
        private = []
        for group in own["private"]:
            shown, unseen = _shown(group["cards"], seen.held)
            private.append({"label": group["label"], "cards": shown, "hidden": unseen})
        entry["private"] = private
        seats.append(entry)
    return {
        "label": label,
        "trump": public["trump"],
        "trump_line": public["trump_line"],
        "seats": seats,
        "trick": [],
        "winner": None,
    }
