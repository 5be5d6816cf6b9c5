"""The lobby on the page: the table still gathering, with the chat's lobby buttons — sit down
and stand up, seat a computer or a rookie and take one off, begin, and (its creator) cancel —
each the table service's own operation (``tables.lobby``), as the chat's buttons call it.

A lobby shows nothing private: whoever opens a group's lobby by its link sees who is seated
and may sit down (a practice table is its owner's alone)."""

from __future__ import annotations

from tables import Loaded, Refused, TableService, is_practice
from tables.computers import is_computer
from tables.events import TableEvent
from tables.people import People
from web.view_parts import Json, action, text

#: the page's lobby verbs, as the chat's lobby buttons name them
LOBBY_VERBS = frozenset({"join", "leave", "computer", "novice", "uncomputer", "begin", "cancel"})
#: the lobby's quieter choices: to stand up, to take a computer off, to cancel the table
SECONDARY = frozenset({"leave", "uncomputer", "cancel"})
#: the chat's label of each
LABELS = {
    "join": "btn.join",
    "leave": "btn.leave",
    "computer": "btn.add_computer",
    "novice": "btn.add_novice",
    "uncomputer": "btn.remove_computer",
    "begin": "btn.begin",
    "cancel": "btn.cancel",
}


def lobby_actions(verbs: list[str]) -> list[Json]:
    """The lobby's buttons of ``verbs``, labelled as the chat's."""
    return [action(verb, text(LABELS[verb]), secondary=verb in SECONDARY) for verb in verbs]


def is_open_lobby(loaded: Loaded) -> bool:
    """A group's table still gathering: anyone who has its link may look at it and sit down."""
    return loaded.game.status == "lobby" and not is_practice(loaded.game.chat_id)


async def lobby_controls(
    people: People, loaded: Loaded, user_id: int, names: list[str]
) -> tuple[list[Json], Json]:
    """The lobby's buttons for ``user_id`` (as the chat's lobby keyboard offers them), and
    what the page says under the seats: each button an action (``web.view_parts.action``);
    the prompt says who still has to start the bot (``names``: the seats' names as shown), how
    many more the game needs, or that it waits for its start."""
    plugin, seats, game = loaded.plugin, loaded.seats, loaded.game
    if game.status != "lobby":
        return [], text("web.lobby.cancelled")
    # the cards of a deal go to a player's private chat too: a table begins only once every
    # person there has started the bot
    reachable = await people.reachable_of(seats)
    practice = is_practice(game.chat_id)
    verbs: list[str] = []
    computers = [user for user in seats if is_computer(user)]
    room = len(seats) < plugin.rules.max_players
    if user_id not in seats:
        if not practice and (room or computers):
            verbs.append("join")
    else:
        if room and plugin.has_computers:
            verbs += ["computer", "novice"]
        if computers:
            verbs.append("uncomputer")
        if plugin.rules.min_players <= len(seats) <= plugin.rules.max_players and all(
            reachable.values()
        ):
            verbs.append("begin")
        if not practice:
            verbs.append("leave")
        if user_id == game.created_by:
            verbs.append("cancel")
    actions = lobby_actions(verbs)
    waiting = [index for index, user in enumerate(seats) if not reachable[user]]
    if waiting:
        who = ", ".join(names[index] for index in waiting)
        prompt = text("web.lobby.start_bot", names=who)
    elif len(seats) < plugin.rules.min_players:
        prompt = text("web.lobby.more", plugin.rules.min_players - len(seats))
    else:
        prompt = text("web.lobby.waiting", len(seats))
    return actions, prompt


async def lobby_move(
    tables: TableService, loaded: Loaded, user_id: int, version: int, verb: str
) -> TableEvent:
    """A lobby button pressed on the page, made from the view of ``version``: the table
    service's operation the chat's button calls (who may press it is checked there, under the
    chat's lock). Refused ``outdated`` for a view the lobby has left behind (one of another
    version of the stored game: every change of its seats moves it)."""
    game = loaded.game
    if game.status != "lobby":
        raise Refused("game_started" if game.status == "active" else "game_over")
    if version != game.version:  # (a lobby's view carries the stored game's version)
        raise Refused("outdated")
    chat, thread = game.chat_id, game.thread_id
    match verb:
        case "join":
            sits = await tables.people.is_reachable(user_id)
            return await tables.lobby.join(chat, user_id, reachable=sits, thread=thread)
        case "leave":
            return await tables.lobby.leave(chat, user_id, thread=thread)
        case "computer" | "novice":
            level = "strong" if verb == "computer" else "easy"
            return await tables.lobby.add_computer(chat, user_id, level, thread=thread)
        case "uncomputer":
            return await tables.lobby.remove_computer(chat, user_id, thread=thread)
        case "begin":
            reachable = await tables.people.reachable_of(loaded.seats)
            return await tables.lobby.begin(
                chat, user_id, lambda user: reachable.get(user, False), thread=thread
            )
        case "cancel":
            # the page cannot tell a group's admin: its creator cancels it, as /stop allows
            return await tables.stopping.stop(chat, user_id, False, thread=thread)
    raise Refused("unknown_button")
