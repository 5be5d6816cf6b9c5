"""The Mini App front-end: Telegram's signed ``initData`` (``web.auth``), the seat view the page
is drawn from (``web.views``), the page's texts (``web.texts``) and the static page itself
(``web/static``)."""
