"""The Telegram chat front-end.

Importing it registers the games' chat sides (``bot.games``), so whatever reads a button
(``bot.callback``) knows every registered game's verbs, in the bot and in a bench alike.
"""

from bot import games as games
