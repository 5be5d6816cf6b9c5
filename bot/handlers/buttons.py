"""Button presses: every callback query is decoded, routed and answered."""

from __future__ import annotations

from telegram import Update

from bot import callback as cb
from bot.context import BotContext
from bot.handlers.common import (
    is_admin,
    refusal_text,
    topic_of,
)
from bot.messenger import answer
from bot.render import chat as chat_render
from tables import Refused


async def on_callback(update: Update, context: BotContext) -> None:
    """Every press is answered; anything forged or stale is refused and changes nothing."""
    query = update.callback_query
    if query is None:
        return
    presenter = context.services.presenter
    user_id = query.from_user.id
    chat = query.message.chat if query.message is not None else None
    lang = await context.services.people.user_language(user_id, query.from_user.language_code)
    try:
        data = presenter.games.codec.decode(query.data or "")
    except cb.BadCallback:
        await answer(
            query.answer, chat_render.refusal(presenter.games.games.words, lang, "unknown_button")
        )
        return
    if isinstance(data, cb.History | cb.DealInfo):
        message = query.message
        screens = context.services.screens
        if message is None or not await screens.is_history_message(
            message.chat.id, message.message_id
        ):
            await answer(
                query.answer,
                chat_render.refusal(presenter.games.games.words, lang, "unknown_button"),
            )
            return
        if isinstance(data, cb.History):
            await screens.send_history(message.chat.id, data.before, message.message_id)
        else:
            await screens.send_deal(message.chat.id, data.deal_id, data.page, message.message_id)
        await answer(query.answer, None)
        return
    try:
        text = await presenter.press(
            data,
            user_id,
            chat.id if chat else None,
            lambda: is_admin(update, context),
            query.message.message_id if query.message is not None else None,
            topic_of(update),
        )
    except Refused as refusal:
        await answer(query.answer, await refusal_text(context, lang, refusal, html=False))
        return
    await answer(query.answer, text)
