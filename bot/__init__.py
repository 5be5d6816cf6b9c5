"""The Telegram chat front-end: the games it shows come from the composition root
(``server.games``), as a ``bot.games.ChatGames``."""
