"""Texts the bot sends, rendered from views and plain data into HTML in the chat's language.

Pure functions: no Telegram, no I/O. Every user-provided string (names, titles) is escaped.
``chat`` renders everything but a game's deals, which each game renders in its own package
(``bot.games.<game>.render``); ``common`` the pieces.
"""
