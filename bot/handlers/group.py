"""The group commands: /new … /begin, /stop, /kick, /timeout, the chat's records and
settings; and what each says when typed in private."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

from telegram import Chat, Update

from bot import keyboards
from bot.context import BotContext
from bot.handlers.common import (
    chat_and_user,
    command_message,
    game_choice,
    is_admin,
    refuse_in_chat,
    replied_user,
    run_and_show,
    topic_of,
)
from bot.render import chat as chat_render
from tables import Refused
from tables.arguments import whole_number
from tables.lobby import exists_reason

#: the largest seat number /kick reads (larger ones are no seat at any table)
MAX_SEAT_NUMBER = 99


async def cmd_new(update: Update, context: BotContext) -> None:
    ids = chat_and_user(update)
    if ids is None:
        return
    chat_id, user_id = ids
    argument = (context.args or [""])[0].lower() if context.args else ""
    thread = topic_of(update)
    if not argument:
        if await context.services.tables.store.active(chat_id, thread) is not None:
            # a table is open: no game to choose (the picker's buttons could not work)
            await refuse_in_chat(update, context, exists_reason(chat_id))
            return
        await context.services.menus.send_new_game_chooser(
            chat_id, reply_to=command_message(update)
        )
        return
    choice = game_choice(context, argument)
    if choice is None:
        await refuse_in_chat(update, context, "unknown_game")
        return
    await run_and_show(
        update,
        context,
        context.services.tables.lobby.new_table(chat_id, user_id, choice, thread=thread),
    )


async def cmd_join(update: Update, context: BotContext) -> None:
    ids = chat_and_user(update)
    if ids is not None:
        reachable = await context.services.people.is_reachable(ids[1])
        tables = context.services.tables
        await run_and_show(
            update, context, tables.lobby.join(*ids, reachable=reachable, thread=topic_of(update))
        )


async def cmd_leave(update: Update, context: BotContext) -> None:
    ids = chat_and_user(update)
    if ids is not None:
        await run_and_show(
            update, context, context.services.tables.lobby.leave(*ids, thread=topic_of(update))
        )


async def cmd_begin(update: Update, context: BotContext) -> None:
    ids = chat_and_user(update)
    if ids is None:
        return
    thread = topic_of(update)
    reachable = await context.services.people.reachable_map(ids[0], thread)
    await run_and_show(
        update,
        context,
        context.services.tables.lobby.begin(*ids, reachable.__getitem__, thread=thread),
    )


async def cmd_stop(update: Update, context: BotContext) -> None:
    ids = chat_and_user(update)
    if ids is None:
        return
    args = context.args or []
    now = bool(args) and args[0].lower() in ("now", "сейчас", "void")
    # a practice table is its player's own: he opened it (nobody administers a private chat)
    private = update.effective_chat is not None and update.effective_chat.type == Chat.PRIVATE
    admin = not private and await is_admin(update, context)
    services = context.services
    try:
        event = await services.tables.stopping.stop(*ids, admin, now=now, thread=topic_of(update))
    except Refused as refusal:
        await refuse_in_chat(update, context, refusal)
        return
    if private:
        # the practice table is his hand message, above the command: a line below it says
        # what happens there (a group's table is its own answer, where everyone looks)
        lang = await services.people.chat_language(ids[0])
        # the table closed with a deal played out: the chat's last word offers it again
        again = event.closed and event.results
        rows = keyboards.again_keyboard(lang, event.game.game_id) if again else None
        await services.messenger.send(ids[0], chat_render.practice_stop_text(lang, event), rows)


async def cmd_kick(update: Update, context: BotContext) -> None:
    """/kick as a reply to the player's message, or with his seat number: an away player
    after the deal, or from the lobby one who never started the bot."""
    ids = chat_and_user(update)
    message = update.effective_message
    if ids is None or message is None:
        return
    chat_id, by_user = ids
    target = replied_user(message)
    if target is not None:
        user_id = target.id
    else:
        args = context.args or []
        # any short number is read (0, -1, 9 are answered «no such seat»), nothing else
        seat = whole_number(args[0], -MAX_SEAT_NUMBER, MAX_SEAT_NUMBER) if len(args) == 1 else None
        if seat is None:
            await refuse_in_chat(update, context, "kick_usage")
            return
        seated = await context.services.people.seat_at(chat_id, seat, topic_of(update))
        if seated is None:
            await refuse_in_chat(update, context, "no_such_seat")
            return
        user_id = seated
    admin = await is_admin(update, context)
    reachable = await context.services.people.is_reachable(user_id)
    await run_and_show(
        update,
        context,
        context.services.tables.lobby.remove_player(
            chat_id, by_user, admin, user_id, reachable=reachable, thread=topic_of(update)
        ),
    )


async def cmd_timeout(update: Update, context: BotContext) -> None:
    """/timeout shows how long a turn lasts here; /timeout N sets it (admins, the creator)."""
    ids = chat_and_user(update)
    if ids is None:
        return
    chat_id, user_id = ids
    services = context.services
    if context.args:
        admin = await is_admin(update, context)
        try:
            await services.tables.settings.set_turn_timeout(
                chat_id, user_id, admin, context.args[0]
            )
        except Refused as refusal:
            if refusal.reason == "bad_timeout":
                await services.menus.send_turn_timeout(
                    chat_id, usage=True, reply_to=command_message(update)
                )
            else:
                await refuse_in_chat(update, context, refusal)
            return
    await services.menus.send_turn_timeout(
        chat_id, changed=bool(context.args), reply_to=command_message(update)
    )


async def cmd_history(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    if chat is not None:
        await context.services.screens.send_history(chat.id, reply_to=command_message(update))


async def cmd_top(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    if chat is not None:
        await context.services.screens.send_top(chat.id, reply_to=command_message(update))


async def cmd_export(update: Update, context: BotContext) -> None:
    """/export: the chat's ledger as a CSV document, for group admins."""
    chat = update.effective_chat
    if chat is None:
        return
    if not await is_admin(update, context):
        await refuse_in_chat(update, context, "admin_only")
        return
    await context.services.screens.send_export(
        chat.id, chat.title, reply_to=command_message(update)
    )


async def cmd_evening(update: Update, context: BotContext) -> None:
    """/evening: the evening's summary now; /evening gap [N]: the pause that ends one."""
    chat = update.effective_chat
    if chat is None:
        return
    services = context.services
    args = [arg.lower() for arg in context.args or []]
    if args and args[0] in ("gap", "пауза"):
        admin = bool(len(args) > 1) and await is_admin(update, context)
        text = await services.posts.send_gap(chat.id, args[1] if len(args) > 1 else None, admin)
        await services.messenger.send(chat.id, text, reply_to=command_message(update))
        return
    await services.posts.answer(chat.id, command_message(update))


async def cmd_settings(update: Update, context: BotContext) -> None:
    chat = update.effective_chat
    if chat is not None:
        await context.services.menus.send_settings(chat.id, None, reply_to=command_message(update))


async def cmd_lang(update: Update, context: BotContext) -> None:
    ids = chat_and_user(update)
    if ids is None:
        return
    chat_id, user_id = ids
    choice = (context.args or [""])[0].lower() if context.args else ""
    in_group = update.effective_chat is not None and update.effective_chat.type != Chat.PRIVATE
    if (
        in_group
        and not await is_admin(update, context)
        and not await context.services.people.is_table_creator(chat_id, user_id)
    ):
        await refuse_in_chat(update, context, "creator_or_admin_only")
        return
    await context.services.menus.set_language(
        chat_id, choice, private=chat_id == user_id, reply_to=command_message(update)
    )


def group_only(name: str) -> Callable[[Update, BotContext], Coroutine[Any, Any, None]]:
    """The handler of group command ``name`` in a private chat: a line saying where it works
    (silence would leave the player wondering whether the bot heard)."""

    async def answer_in_private(update: Update, context: BotContext) -> None:
        user = update.effective_user
        if user is None:
            return
        lang = await context.services.people.user_language(user.id, user.language_code)
        await context.services.messenger.send(user.id, chat_render.group_only_text(lang, name))

    return answer_in_private
