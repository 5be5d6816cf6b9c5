"""The Mini App front-end, beside the chat's (``bot``) over the same table service: the
server in the bot's own process (``web.server``), Telegram's signed ``initData`` and the page's
session (``web.auth``, ``web.session``), the page's side of the table service (``web.tables``),
live updates (``web.live``), the per-user rate and idempotency (``web.limits``), the seat view
the page is drawn from (``web.views``), the page's texts (``web.texts``) and the static page
itself (``web/static``)."""
