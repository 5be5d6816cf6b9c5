"""The lobby: a group's message that gathers the players of a new table (who has joined, who
still has to start the bot, the game's options) with its Join, Leave, Begin and Cancel buttons.
Once the game begins, the first deal's table comes as a new message and the lobby loses its
buttons (``bot.screens.table``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot import callback as cb
from bot import keyboards
from bot.messenger import Rows
from bot.render import chat as chat_render
from locales import t
from tables import Game, Loaded, Refused, TableService, is_practice
from tables.arguments import game_link
from tables.computers import is_computer
from tables.people import People


class Lobby:
    """Lobby messages and their buttons."""

    def __init__(
        self,
        tables: TableService,
        people: People,
        bot_username: str = "",
    ) -> None:
        self.tables = tables
        self.people = people
        #: the bot's @username, for the «start the bot» links
        self.bot_username = bot_username

    async def content(
        self, game: Game, loaded: Loaded, lang: str, names: list[str], *, started: bool = False
    ) -> tuple[str, Rows | None]:
        """The lobby's text and buttons (none once it was cancelled; with ``started``, the
        lobby of a game that has begun: that it has, and who plays)."""
        plugin = loaded.plugin
        reachable = await self.people.reachable_of(loaded.seats)
        lobby = [
            chat_render.LobbyPlayer(
                name=names[i],
                reachable=reachable[u],
                start_payload=game_link(game.game_id),
            )
            for i, u in enumerate(loaded.seats)
        ]
        creator = (await self.people.names([game.created_by], lang))[0] if game.created_by else ""
        text = chat_render.lobby_text(
            lang,
            plugin,
            dict(game.options),
            lobby,
            creator,
            self.bot_username,
            practice=is_practice(game.chat_id),
            started=started,
        )
        if started:
            return text, None
        if game.status != "lobby":
            return t(lang, "announce.table_cancelled") + "\n\n" + text, None
        can_begin = plugin.rules.min_players <= len(
            loaded.seats
        ) <= plugin.rules.max_players and all(lobby_player.reachable for lobby_player in lobby)
        room = len(loaded.seats) < plugin.rules.max_players
        return text, keyboards.lobby_keyboard(
            lang,
            game.game_id,
            can_begin=can_begin,
            room=room,
            computers=plugin.has_computers,
            practice=is_practice(game.chat_id),
            seated_computers=any(is_computer(user) for user in loaded.seats),
        )

    async def press(
        self,
        data: cb.Lobby,
        user_id: int,
        chat_id: int | None,
        admin: Callable[[], Awaitable[bool]],
    ) -> str | None:
        """A lobby button (join, leave, begin, cancel): the change it made is published (every
        front-end shows it), and the player's short answer returned."""
        game = await self.tables.store.game(data.game_id)
        if chat_id != game.chat_id:
            raise Refused("not_at_table")
        if game.status != "lobby":
            # the lobby of a game that has begun (its buttons go with the press's answer, but
            # a press may come first): /join, /leave and /stop still work while it runs
            raise Refused("game_started" if game.status == "active" else "game_over")
        lang = await self.people.user_language(user_id, None)
        chat, thread = game.chat_id, game.thread_id
        match data.action:
            case "join":
                await self.tables.lobby.join(chat, user_id, thread=thread)
                return chat_render.answer_text(lang, "joined")
            case "leave":
                await self.tables.lobby.leave(chat, user_id, thread=thread)
                return chat_render.answer_text(lang, "left")
            case "begin":
                reachable = await self.people.reachable_map(chat, thread)
                await self.tables.lobby.begin(
                    chat, user_id, lambda u: reachable.get(u, False), thread=thread
                )
                return None
            case "cancel":
                await self.tables.stopping.stop(chat, user_id, await admin(), thread=thread)
                return None
            case "uncomputer":
                await self.tables.lobby.remove_computer(chat, user_id, thread=thread)
                return chat_render.answer_text(lang, "computer_removed")
            case "computer" | "novice":
                level = "strong" if data.action == "computer" else "easy"
                await self.tables.lobby.add_computer(chat, user_id, level, thread=thread)
                return chat_render.answer_text(lang, "computer_seated")
        raise Refused("unknown_button")
