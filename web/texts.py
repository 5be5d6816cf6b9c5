"""The page's texts: the part of a language's catalogue (``locales``) the page shows, and how
cards read in the chat's style. Served to the page as JSON; the page holds no text of its own."""

from __future__ import annotations

import re
from typing import Any

from game.cards import RANK_LABEL, RUSSIAN_RANK_LABEL, SUIT_EMOJI
from locales import PLURAL_FORMS, language
from tables.games import Plugin
from web.games import PageGames

#: the families of keys the page itself or any seat view (``web.views``) names; each game's
#: view names its own besides (``web.games``)
PREFIXES = (
    *("web.", "btn.", "prompt.", "game.", "n.tricks", "money."),
    *("refuse.no_hints", "refuse.hint_failed"),  # why 💡 has no answer
    *("announce.stop_now", "announce.stop_after_deal"),  # a table stopping
    "gloss.",  # the rules' glossary
    *("evening.", "settle.computers"),  # the evening so far, and who pays whom
)
#: a glossary entry's key (``gloss.word.*`` are the words themselves, which the chat looks for)
GLOSS = re.compile(r"gloss\.(?!word\.)[a-z_]+")


def page_texts(lang: str | None, pages: PageGames) -> dict[str, Any]:
    """``{"lang", "plurals", "texts", "ranks", "suits", "glossary"}`` for the page in
    ``lang``: the entries whose keys begin with one of ``PREFIXES`` or of a shown game's own,
    the plural forms the language uses, each card style's rank letters, the suits as the chat
    writes them, and each game's glossary (its entries' keys)."""
    code = language(lang)
    prefixes = PREFIXES + tuple(prefix for game in pages for prefix in game.texts)
    words = pages.games.words.catalogue(code)
    texts = {key: entry for key, entry in words.items() if key.startswith(prefixes)}
    return {
        "lang": code,
        "plurals": list(PLURAL_FORMS[code]),
        "texts": texts,
        "ranks": {"latin": RANK_LABEL, "russian": RUSSIAN_RANK_LABEL},
        "suits": SUIT_EMOJI,
        "glossary": {page.game.rules.kind: glossary(page.game) for page in pages},
    }


def glossary(game: Plugin) -> list[str]:
    """The glossary entries of ``game``: the words of the game a newcomer cannot know (шлейф,
    ремиз; норма, прикуп), as the chat explains them."""
    own = game.texts.get("ru", {})
    return [key for key in own if GLOSS.fullmatch(key)]
