"""What a table says while it stops (after /stop, /stop now): a line from the stored table,
above its latest notices for as long as it stops — among them, three votes to void the deal
would push it off — in the group's table message and in a practice table's hand; and whether
it offers to play on (a large pot waits)."""

from __future__ import annotations

from bot.render import chat as chat_render
from tables import Loaded
from tables.money import Money

#: notices of a table stopping, which ``stop_line`` says from the stored table instead
STOPPING_NOTICES = frozenset({"stop_after_deal", "stop_now"})


async def offers_play_on(money: Money, loaded: Loaded) -> bool:
    """Whether a table stopped after its deal offers to play on (a large pot waits)."""
    return await money.waiting_pot(loaded) is not None


async def stop_line(money: Money, lang: str, loaded: Loaded) -> str | None:
    """What the table says while it stops with its deal in play (after /stop, /stop now),
    from the stored table: above its latest notices until the deal ends, however many come
    after it. None when it does not stop."""
    meta, game = loaded.meta, loaded.game
    if not meta.stop or game.status != "active":
        return None
    pot = await money.waiting_pot(loaded)
    return chat_render.stopping_text(lang, now=meta.autoplay, pot=pot)
