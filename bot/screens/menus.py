"""Menus: /settings (each game's options, presets, the rank letters, the evening's gap),
/language, /help, /rules, /balance with its "who owes whom" page, /timeout and the /new
chooser. Each menu is one message, edited in place by its own buttons; a press acts only on a
message stored as a menu of its kind (``_remember``, ``_is_menu``): never on a lobby, a table or
a deal's result that a forged or misplaced press points at. The ids of a chat's recent menu
messages are stored in the chat's display storage (``storage.chat_display``), so they survive a
restart.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Literal

from bot import callback as cb
from bot.games import ChatGames, Plugin
from bot.messenger import Messenger, Rows
from bot.render import chat as chat_render
from bot.render import menus as menu_render
from game.registry import JsonObject
from locales import t
from storage.chat_display import ChatDisplay
from tables import Refused, TableService, is_practice
from tables.people import People

Admin = Callable[[], Awaitable[bool]]

KEEP = 20  # the newest menus of each kind a chat keeps live
MenuKind = Literal["settings", "balance"]


class Menus:
    """The menu messages of groups and private chats, and their buttons."""

    def __init__(
        self,
        display: ChatDisplay,
        tables: TableService,
        games: ChatGames,
        messenger: Messenger,
        people: People,
        refresh_chat: Callable[[int], Awaitable[None]],
    ) -> None:
        #: the chat's own display storage: which messages are its menus
        self.display = display
        self.tables = tables
        #: the games the chat shows
        self.games = games
        self.messenger = messenger
        self.people = people
        #: show a chat's open table again (its rank letters changed)
        self.refresh_chat = refresh_chat

    async def _remember(self, chat_id: int, kind: MenuKind, message_id: int | None) -> None:
        """``message_id`` is now a menu of ``kind`` in the chat (the oldest beyond ``KEEP`` are
        forgotten: their buttons are refused as outdated)."""
        if message_id is not None:
            await self.display.remember_menu(
                chat_id, kind, message_id, KEEP, now=self.tables.clock()
            )

    async def _is_menu(self, chat_id: int, kind: MenuKind, message_id: int | None) -> bool:
        """Whether ``message_id`` is a menu of ``kind`` in the chat."""
        return message_id is not None and await self.display.is_menu(chat_id, kind, message_id)

    # ------------------------------------------------------------------ /settings

    async def _chosen_options(self, chat_id: int) -> list[tuple[Plugin, JsonObject]]:
        """Every game with the options this chat chose for it (its defaults elsewhere)."""
        return [
            (game, await self.tables.settings.chat_options(chat_id, game.rules.kind))
            for game in self.games.games
        ]

    def _menu_game(self, kind: str) -> Plugin:
        """The game of a settings press (the codec lets only the games shown through)."""
        try:
            return self.games.games.of(kind)
        except ValueError:
            raise Refused("unknown_button") from None

    async def send_settings(
        self, chat_id: int, message_id: int | None, *, reply_to: int | None = None
    ) -> None:
        if is_practice(chat_id):
            await self.people.saw_chat(chat_id, None)  # his own chat, before any practice
        text, rows = await self._settings_root(chat_id)
        shown = await self.messenger.show(
            chat_id, message_id, text, rows, reply_to=reply_to, answer=True
        )
        await self._remember(chat_id, "settings", shown)

    async def _settings_root(self, chat_id: int) -> tuple[str, Rows]:
        lang = await self.people.chat_language(chat_id)
        chosen = await self._chosen_options(chat_id)
        ranks = await self.people.chat_ranks(chat_id)
        # a practice table (a player's own chat) has no evening, and always offers 💡
        practice = is_practice(chat_id)
        gap = None if practice else await self.tables.evenings.gap(chat_id)
        away_play = await self.tables.settings.away_play_of(chat_id)
        hints = await self.tables.settings.hints_of(chat_id)
        text = menu_render.settings_text(lang, chosen, ranks=ranks, gap=gap)
        text += "\n" + t(lang, "settings.away_play", value=t(lang, f"btn.away.{away_play}"))
        if not practice:
            text += "\n" + t(lang, f"settings.hints.{'on' if hints else 'off'}")
        text += await self._settings_note(chat_id, lang)
        rows = menu_render.settings_root_keyboard(
            self.games.codec,
            lang,
            self.games.games,
            ranks,
            away_play,
            None if practice else hints,
            evening=not practice,
        )
        return text, rows

    async def press_ranks(
        self,
        data: cb.CardRanks,
        user_id: int,
        chat_id: int | None,
        admin: Admin,
        message_id: int | None,
    ) -> str | None:
        """/settings: the group's rank letters (its admins or the table's creator)."""
        chat_id = await self._settings_menu_of(chat_id, message_id)
        await self._may_change_settings(chat_id, user_id, admin)
        await self.people.set_chat_ranks(chat_id, data.ranks)
        text, rows = await self._settings_root(chat_id)
        await self.messenger.show(chat_id, message_id, text, rows, answer=True)
        await self.refresh_chat(chat_id)
        lang = await self.people.chat_language(chat_id)
        return menu_render.ranks_changed_text(lang, data.ranks)

    async def press_gap(
        self,
        data: cb.EveningGap,
        user_id: int,
        chat_id: int | None,
        admin: Admin,
        message_id: int | None,
    ) -> str | None:
        """/settings: the pause that ends the group's evening; ``0`` opens its choice (anyone
        may look), a number of hours sets it (its admins or the table's creator)."""
        chat_id = await self._settings_menu_of(chat_id, message_id)
        lang = await self.people.chat_language(chat_id)
        answer = None
        if data.hours:
            await self._may_change_settings(chat_id, user_id, admin)
            await self.tables.evenings.set_gap(chat_id, data.hours)
            answer = menu_render.evening_gap_set_text(lang, data.hours)
        gap = await self.tables.evenings.gap(chat_id)
        text = menu_render.evening_gap_text(lang, gap)
        await self.messenger.show(
            chat_id,
            message_id,
            text,
            menu_render.evening_gap_keyboard(self.games.codec, lang, gap),
            answer=True,
        )
        return answer

    async def press_away_play(
        self,
        data: cb.AwayPlay,
        user_id: int,
        chat_id: int | None,
        admin: Admin,
        message_id: int | None,
    ) -> str | None:
        """/settings: who plays for an away player at the group's next table (its admins or
        the table's creator)."""
        chat_id = await self._settings_menu_of(chat_id, message_id)
        await self._may_change_settings(chat_id, user_id, admin)
        await self.tables.settings.set_away_play(chat_id, data.play)
        text, rows = await self._settings_root(chat_id)
        await self.messenger.show(chat_id, message_id, text, rows, answer=True)
        return chat_render.answer_text(await self.people.chat_language(chat_id), "done")

    async def press_hints(
        self,
        data: cb.Hints,
        user_id: int,
        chat_id: int | None,
        admin: Admin,
        message_id: int | None,
    ) -> str | None:
        """/settings: whether the group's players may ask for the computer's hint (💡) at
        their turn (its admins or the table's creator); from the next turn on."""
        chat_id = await self._settings_menu_of(chat_id, message_id)
        await self._may_change_settings(chat_id, user_id, admin)
        await self.tables.settings.set_hints(chat_id, data.allowed)
        text, rows = await self._settings_root(chat_id)
        await self.messenger.show(chat_id, message_id, text, rows)
        await self.refresh_chat(chat_id)
        return chat_render.answer_text(await self.people.chat_language(chat_id), "done")

    async def _settings_menu_of(self, chat_id: int | None, message_id: int | None) -> int:
        """The group whose settings menu ``message_id`` is; refused for a private chat, and
        for a press on (or forged for) a message that is not a settings menu."""
        if chat_id is None or chat_id > 0:
            raise Refused("not_allowed")
        if not await self._is_menu(chat_id, "settings", message_id):
            raise Refused("outdated")
        return chat_id

    async def _may_change_settings(
        self, chat_id: int, user_id: int, admin: Callable[[], Awaitable[bool]]
    ) -> None:
        """Settings change by the chat's admins or the table's creator only."""
        if not await admin() and not await self.people.is_table_creator(chat_id, user_id):
            raise Refused("creator_or_admin_only")

    async def _settings_note(self, chat_id: int, lang: str) -> str:
        """A running game keeps its options: the menu says a change waits for the next game."""
        if not await self.tables.settings.in_play(chat_id):
            return ""
        return "\n\n" + t(lang, "settings.running_game")

    async def press_settings(
        self,
        data: cb.Settings,
        user_id: int,
        chat_id: int | None,
        admin: Admin,
        message_id: int | None,
    ) -> str | None:
        chat_id = await self._settings_menu_of(chat_id, message_id)
        lang = await self.people.chat_language(chat_id)
        if data.game is None:
            text, rows = await self._settings_root(chat_id)
            await self.messenger.show(chat_id, message_id, text, rows, answer=True)
            return None
        game = self._menu_game(data.game)
        if data.option == menu_render.PRESET and data.value is not None:
            return await self._press_preset(game, data.value, user_id, chat_id, admin, message_id)
        if data.option is not None and data.option not in game.menu.values:
            raise Refused("unknown_button")  # a name the codec allows but no option has
        chosen = await self._chosen_options(chat_id)
        options = dict(chosen)[game]
        if data.option is None:
            text = menu_render.settings_text(lang, chosen, game)
            text += await self._settings_note(chat_id, lang)
            rows = menu_render.settings_game_keyboard(self.games.codec, lang, game, options)
            await self.messenger.show(chat_id, message_id, text, rows, answer=True)
            return None
        if data.value is None:
            text = menu_render.settings_text(lang, chosen, game, data.option)
            text += await self._settings_note(chat_id, lang)
            rows = menu_render.settings_option_keyboard(
                self.games.codec, lang, game, data.option, options.get(data.option)
            )
            await self.messenger.show(chat_id, message_id, text, rows, answer=True)
            return None
        await self._may_change_settings(chat_id, user_id, admin)
        try:
            value = menu_render.setting_value(game, data.option, data.value)
        except cb.BadCallback:
            raise Refused("unknown_button") from None
        await self.tables.settings.choose_options(chat_id, game.rules.kind, {data.option: value})
        chosen = await self._chosen_options(chat_id)
        text = menu_render.settings_text(lang, chosen, game, data.option)
        text += await self._settings_note(chat_id, lang)
        rows = menu_render.settings_option_keyboard(
            self.games.codec, lang, game, data.option, dict(chosen)[game].get(data.option)
        )
        await self.messenger.show(chat_id, message_id, text, rows, answer=True)
        return menu_render.setting_changed_text(lang, game, data.option, value)

    async def _press_preset(
        self,
        game: Plugin,
        preset: str,
        user_id: int,
        chat_id: int,
        admin: Admin,
        message_id: int | None,
    ) -> str:
        """A preset button atop a game's settings: its options chosen at once, the menu redrawn
        where it was pressed, and a toast naming the preset."""
        values = game.menu.presets.get(preset)
        if values is None:
            raise Refused("unknown_button")
        await self._may_change_settings(chat_id, user_id, admin)
        await self.tables.settings.choose_options(chat_id, game.rules.kind, values)
        lang = await self.people.chat_language(chat_id)
        chosen = await self._chosen_options(chat_id)
        text = menu_render.settings_text(lang, chosen, game)
        rows = menu_render.settings_game_keyboard(self.games.codec, lang, game, dict(chosen)[game])
        await self.messenger.show(chat_id, message_id, text, rows, answer=True)
        return menu_render.preset_chosen_text(lang, game, preset)

    # ------------------------------------------------------------------ other menus

    async def set_language(
        self, chat_id: int, choice: str, *, private: bool, reply_to: int | None = None
    ) -> None:
        """/language ru|en: the chat's language (a group's, or a private chat owner's)."""
        if choice not in ("ru", "en"):
            lang = await self.people.chat_language(chat_id)
            await self.messenger.send(
                chat_id, menu_render.language_usage_text(lang), reply_to=reply_to
            )
            return
        await self.people.choose_language(chat_id, choice, private=private)
        await self.messenger.send(chat_id, menu_render.language_set_text(choice), reply_to=reply_to)

    async def send_new_game_chooser(self, chat_id: int, *, reply_to: int | None = None) -> None:
        lang = await self.people.chat_language(chat_id)
        await self.messenger.send(
            chat_id,
            menu_render.new_game_text(lang, practice=is_practice(chat_id)),
            menu_render.new_game_keyboard(self.games.codec, lang, self.games.games),
            reply_to=reply_to,
        )

    async def send_balance(
        self,
        chat_id: int,
        user_id: int,
        *,
        page: str = "balance",
        edit: int | None = None,
        reply_to: int | None = None,
    ) -> None:
        """/balance (or its other page, edited into message ``edit``); in private, the user's
        balance in each of his groups."""
        lang = await self.people.chat_language(chat_id)
        if chat_id > 0:
            await self.send_own_balances(chat_id, lang)
            return
        money = await self.tables.money.group(chat_id)
        players = money.balances
        names_list = await self.people.names(list(players), lang)
        names = dict(zip(players, names_list, strict=True))
        if page == "settle":
            text = chat_render.settle_up_text(lang, players, names, money.pot)
        else:
            text = chat_render.balance_text(
                lang, players, names, money.pot, money.game_pot, has_pot=money.has_pot
            )
        rows = menu_render.balance_keyboard(lang, "settle" if page == "settle" else "balance")
        shown = await self.messenger.show(chat_id, edit, text, rows, reply_to=reply_to, answer=True)
        if shown != edit:
            await self._remember(chat_id, "balance", shown)

    async def send_own_balances(self, user_id: int, lang: str) -> None:
        """Private /balance: his balance in each group he plays in, then his practice table's
        (his chips and the computers', its pot), kept apart from every group's."""
        parts = []
        own = await self.tables.money.own(user_id)
        practice = await self.tables.money.group(user_id)
        if own or not practice.balances:
            parts.append(chat_render.own_balances_text(lang, own))
        if practice.balances:
            players = practice.balances
            names = dict(zip(players, await self.people.names(list(players), lang), strict=True))
            parts.append(
                chat_render.balance_text(
                    lang,
                    players,
                    names,
                    practice.pot,
                    practice.game_pot,
                    practice=True,
                    has_pot=practice.has_pot,
                )
            )
        await self.messenger.send(user_id, "\n\n".join(parts))

    async def press_page(
        self, data: cb.Page, user_id: int, chat_id: int | None, message_id: int | None
    ) -> None:
        """/balance's page buttons, on a stored /balance message only."""
        if chat_id is None or not await self._is_menu(chat_id, "balance", message_id):
            raise Refused("outdated")
        await self.send_balance(chat_id, user_id, page=data.page, edit=message_id)

    async def send_turn_timeout(
        self,
        chat_id: int,
        *,
        changed: bool = False,
        usage: bool = False,
        reply_to: int | None = None,
    ) -> None:
        """/timeout: how long a turn lasts here, that it changed, or how to change it."""
        lang = await self.people.chat_language(chat_id)
        seconds = round(await self.tables.settings.turn_timeout_of(chat_id))
        key = "timeout.set" if changed else "timeout.current"
        text = t(lang, "refuse.bad_timeout") if usage else t(lang, key, seconds=seconds)
        await self.messenger.send(chat_id, text, reply_to=reply_to)

    async def send_help(self, chat_id: int, *, private: bool, reply_to: int | None = None) -> None:
        lang = await self.people.chat_language(chat_id)
        await self.messenger.send(
            chat_id, menu_render.help_text(lang, self.games.games), reply_to=reply_to
        )

    async def press_rules(
        self, data: cb.RulesOf, chat_id: int | None, message_id: int | None
    ) -> None:
        """Private /rules: the chosen game's rules, in place of the chooser."""
        if chat_id is None or chat_id < 0:
            raise Refused("not_allowed")
        await self.send_rules(chat_id, data.kind, edit=message_id)

    async def send_rules(
        self,
        chat_id: int,
        kind: str | None,
        *,
        reply_to: int | None = None,
        edit: int | None = None,
        thread: int | None = None,
    ) -> None:
        """/rules [game]: a game's rules as this chat's options make them. In a group with no
        game named, the game of the open table (of the forum topic ``thread``, if any) or all
        three; in private, which game is asked first (``edit``: the chooser's message, which
        then shows the rules)."""
        lang = await self.people.chat_language(chat_id)
        if kind is None and chat_id > 0:
            rows = menu_render.rules_keyboard(self.games.codec, lang, self.games.games)
            await self.messenger.send(chat_id, menu_render.rules_choose_text(lang), rows)
            return
        loaded = await self.tables.store.active(chat_id, thread) if chat_id < 0 else None
        if kind is None and loaded is not None:
            kind = loaded.plugin.choice_of(dict(loaded.game.options))
        wanted = [kind] if kind else [c.name for game in self.games.games for c in game.choices]
        for name in wanted:
            found = self.games.games.choice(name)
            if found is None:
                continue
            game, item = found
            options = {
                **await self.tables.settings.chat_options(chat_id, game.rules.kind),
                **item.preset,
            }
            text = chat_render.rules_text(
                lang, self.games.of(game.rules.kind), item.name, game.rules.check_options(options)
            )
            if edit is not None:
                rows = menu_render.rules_keyboard(self.games.codec, lang, self.games.games)
                await self.messenger.show(chat_id, edit, text, rows, answer=True)
            else:
                await self.messenger.send(chat_id, text, reply_to=reply_to)
