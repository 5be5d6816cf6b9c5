"""Texts the bot sends, rendered from views and plain data into HTML in the chat's language.

Pure functions: no Telegram, no I/O. Every user-provided string (names, titles) is escaped.
``stukolka`` and ``starshina`` render deals; ``chat`` everything else; ``common`` the pieces.
"""
