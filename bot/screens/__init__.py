"""What each audience sees, one small module a screen (DESIGN.md, "bot/")."""
