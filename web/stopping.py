"""A table stopping, on the page: the chat's line above the table while it stops (after /stop,
/stop now), the vote to void the deal in progress («✋ Отменить сдачу (1/3)»), and «▶️ Играть
дальше» where a large pot waits — each the table service's own operation, as the chat's
buttons call it. The page cannot tell a group's admin: there, only the table's creator may
play on."""

from __future__ import annotations

from tables import Loaded, Refused, TableService
from tables.events import TableEvent
from tables.stopping import void_tally, void_voters
from web.view_parts import Json, action, text

#: the page's verbs of a stopping table
STOP_VERBS = frozenset({"void", "play_on"})


async def stopping_view(tables: TableService, loaded: Loaded, user_id: int) -> Json | None:
    """``{"line", "votes", "actions"}`` while the table stops with its deal in play, else
    None: what the chat says above its table, the vote so far, and this player's buttons (to
    vote, while he has not; to play on, for the table's creator where a large pot waits)."""
    meta, game = loaded.meta, loaded.game
    if not meta.stop or game.status != "active":
        return None
    pot = await tables.money.waiting_pot(loaded)
    if meta.autoplay:
        line = text("announce.stop_now")
    elif pot is not None:
        line = text("web.stop_large_pot", pot=text("web.chips", pot))
    else:
        line = text("announce.stop_after_deal")
    agreed, voters = void_tally(loaded)
    actions: list[Json] = []
    if user_id in void_voters(loaded) and user_id not in meta.void_votes:
        label = text("btn.void_deal", votes=agreed, players=voters)
        # voiding the deal gives up its play so far: the quieter of the two
        actions.append(action("void", label, secondary=True))
    if pot is not None and user_id == game.created_by:
        actions.append(action("play_on", text("btn.play_on")))
    votes = text("web.void_votes", votes=agreed, players=voters) if agreed else None
    return {"line": line, "votes": votes, "actions": actions}


async def stopping_move(
    tables: TableService, loaded: Loaded, user_id: int, version: int, verb: str
) -> TableEvent:
    """A stopping table's button pressed on the page, made from the view of ``version``."""
    if version != loaded.meta.turn:
        raise Refused("outdated")
    game_id, deal = loaded.game.game_id, loaded.meta.deals
    if verb == "void":
        return await tables.stopping.vote_void(game_id, user_id, deal)
    return await tables.stopping.play_on(game_id, user_id, deal, False)
