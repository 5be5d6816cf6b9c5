"""The running program: the table service, and over it the Telegram chat (``bot``) and, when
``WEBAPP_URL`` is set, the Mini App (``web``) as peers, in one process
(``server.program.Program``, the composition root). The one package that knows both
front-ends; ``python -m server`` starts it (``server.program.build_application``).

A move made on a page is published by the table service, which the chat shows as it shows a
button press, and every commit reaches the pages open at that table; neither front-end calls
the other. A bot without ``WEBAPP_URL`` never loads the Mini App's code (about 2 MB of memory).
"""
