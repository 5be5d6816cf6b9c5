"""End-to-end tests: the real python-telegram-bot Application against a fake Bot API."""
