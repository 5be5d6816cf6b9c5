"""The page's texts: the part of a language's catalogue (``locales``) the page shows, and how
cards read in the chat's style. Served to the page as JSON; the page holds no text of its own."""

from __future__ import annotations

from typing import Any

from game.cards import RANK_LABEL, RUSSIAN_RANK_LABEL, SUIT_EMOJI
from locales import PLURAL_FORMS, catalogue, language

#: the families of keys a seat view (``web.views``) or the page itself names
PREFIXES = (
    "web.",
    "btn.",
    "role.",
    "prompt.",
    "starshina.prompt.",
    "game.",
    "n.tricks",
    "stukolka.trump.",
    "starshina.tricks_of",
    "starshina.result_tricks",
    "starshina.short",
    "starshina.over",
    "starshina.on_target",
    "result.pot_",
    "money.",
    "gloss.remiz",
)


def page_texts(lang: str | None) -> dict[str, Any]:
    """``{"lang", "plurals", "texts", "ranks", "suits"}`` for the page in ``lang``: the entries
    whose keys begin with one of ``PREFIXES``, the plural forms the language uses, each card
    style's rank letters and the suits as the chat writes them."""
    code = language(lang)
    texts = {key: entry for key, entry in catalogue(code).items() if key.startswith(PREFIXES)}
    return {
        "lang": code,
        "plurals": list(PLURAL_FORMS[code]),
        "texts": texts,
        "ranks": {"latin": RANK_LABEL, "russian": RUSSIAN_RANK_LABEL},
        "suits": SUIT_EMOJI,
    }
