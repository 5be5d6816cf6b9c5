"""What each audience sees, one small module a screen (docs/architecture.md).

``hand``: a player's private hand message — its text while the deal runs comes from the
game's renderer; this module decides what to show when (the outcome of a finished deal, a
stopped table, a turn that comes after a wait).
"""
