"""Message catalogues (Russian and English) and the functions that read them.

Every word a user sees comes from ``ru.json`` / ``en.json`` beside this file (the words every
game shares) and from a game's own ``games/<kind>/ru.json`` / ``en.json`` (the words of that game
alone: its moves, options, prompts, refusals, rules: ``game_entries``, which its definition
holds as ``texts``). An entry is a ``str.format`` template with named placeholders, or, for a
counted phrase, an object of plural forms: ``one``/``few``/``many`` in Russian,
``one``/``other`` in English (CLDR categories).

- ``t(lang, key, **params)`` formats a shared entry;
- ``tn(lang, key, n, **params)`` picks the plural form for ``n`` and formats it with ``n`` set;
- ``Words`` reads a game's words too: a value built from the shared entries and some games'
  own (a game's definition has its own, ``plugin.words``; the catalogue of the games offered,
  all of theirs). Nothing joins the shared catalogue at run time: a key a game brings is read
  through the ``Words`` that hold it;
- ``listed(lang, items, "or")`` joins a few words as a sentence does («a, b или c»);
- ``signed(amount)`` writes chips won or lost (``+8``, ``−12``).

An unknown language falls back to ``DEFAULT_LANGUAGE``. A key missing from the catalogue is a
programming error and raises ``KeyError`` (``tests/bot/test_locales.py`` checks that every key the
code uses exists in both languages). Templates may hold HTML markup; parameters are inserted as
given, so the caller escapes anything a user typed.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from importlib import resources
from types import MappingProxyType
from typing import Any, Literal

DEFAULT_LANGUAGE = "ru"
LANGUAGES: tuple[str, ...] = ("ru", "en")
#: the plural categories each language's catalogue uses, in order
PLURAL_FORMS: dict[str, tuple[str, ...]] = {"ru": ("one", "few", "many"), "en": ("one", "other")}

Entry = str | dict[str, str]
#: the order every front-end lists the parts of a deal's money in (each a ``money.<reason>``
#: text)
MONEY_REASONS = (
    "ante",
    "trick",
    "pot_taken",
    "remiz",
    "diff",
    "game_pot",
    "missed_target",
    "void",
    "game_pot_return",
)
#: the reasons that need no naming when a player's money has no other (the tricks' money,
#: which the net says as well)
SELF_EVIDENT = frozenset({"trick", "diff"})


def money_breakdown(parts: Mapping[str, int]) -> list[tuple[str, int]]:
    """A player's money by reason as every front-end lists it: the reasons that moved a chip,
    in ``MONEY_REASONS``' order (a reason it does not list last)."""
    shown = [(reason, amount) for reason, amount in parts.items() if amount]
    order = {reason: index for index, reason in enumerate(MONEY_REASONS)}
    return sorted(shown, key=lambda item: order.get(item[0], len(order)))


def breakdown_said(shown: Sequence[tuple[str, int]]) -> bool:
    """Whether a player's ``money_breakdown`` is said beside his net: where it says more than
    the net (several reasons, or a lone one that is not self-evident)."""
    return len(shown) > 1 or (len(shown) == 1 and shown[0][0] not in SELF_EVIDENT)


def catalogue(lang: str) -> Mapping[str, Entry]:
    """The shared catalogue of a language (an unknown one gives the default's): the words
    every game shares, none of a game's own (``Words`` reads those)."""
    return _catalogue(language(lang))


@cache
def _catalogue(lang: str) -> Mapping[str, Entry]:
    text = resources.files(__name__).joinpath(f"{lang}.json").read_text(encoding="utf-8")
    data = json.loads(text)
    if not isinstance(data, dict):
        raise ValueError(f"{lang}.json must hold one JSON object")
    return MappingProxyType(data)


def game_entries(kind: str) -> dict[str, dict[str, Entry]]:
    """The words of the game ``kind`` alone, by language (``games/<kind>/<lang>.json``; none
    for a game without them)."""
    folder = resources.files(__name__).joinpath("games", kind)
    entries: dict[str, dict[str, Entry]] = {}
    for lang in LANGUAGES:
        path = folder.joinpath(f"{lang}.json")
        if path.is_file():
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError(f"games/{kind}/{lang}.json must hold one JSON object")
            entries[lang] = data
    return entries


class Words:
    """A catalogue to read, a value: the shared entries with the entries of some games over
    them (a game's definition holds its own; the catalogue of games offered, all of theirs).
    Nothing is added later. Another text under a key already there, the shared catalogue's or
    another game's, is a ``ValueError``: no text replaces another."""

    __slots__ = ("_entries",)

    def __init__(self, *games: Mapping[str, Mapping[str, Entry]]) -> None:
        merged: dict[str, dict[str, Entry]] = {lang: dict(_catalogue(lang)) for lang in LANGUAGES}
        for entries in games:
            for lang, own in entries.items():
                known = merged[language(lang)]
                clash = {key for key, entry in own.items() if known.get(key, entry) != entry}
                if clash:
                    raise ValueError(
                        f"keys already in the {lang} catalogue: {', '.join(sorted(clash))}"
                    )
                known.update(own)
        self._entries = {lang: MappingProxyType(entries) for lang, entries in merged.items()}

    def catalogue(self, lang: str) -> Mapping[str, Entry]:
        """Every entry of a language (an unknown one gives the default's)."""
        return self._entries[language(lang)]

    def t(self, lang: str, key: str, **params: Any) -> str:
        """The entry ``key`` in ``lang``, formatted with ``params``."""
        return _plain(self.catalogue(lang), key, params)

    def tn(self, lang: str, key: str, n: int, **params: Any) -> str:
        """The plural entry ``key`` in the form for ``n``, formatted with ``n`` and
        ``params``."""
        return _counted(self.catalogue(lang), lang, key, n, params)


def _plain(entries: Mapping[str, Entry], key: str, params: Mapping[str, Any]) -> str:
    entry = entries[key]
    if not isinstance(entry, str):
        raise KeyError(f"{key} is a plural entry: use tn()")
    return entry.format(**params) if params else entry.format()


def _counted(
    entries: Mapping[str, Entry], lang: str, key: str, n: int, params: Mapping[str, Any]
) -> str:
    entry = entries[key]
    if not isinstance(entry, dict):
        raise KeyError(f"{key} is not a plural entry: use t()")
    return entry[plural_form(lang, n)].format(n=n, **params)


@lru_cache(maxsize=64)
def language(lang: str | None) -> str:
    """``lang`` if the bot speaks it, else the default; ``en-US`` counts as ``en``. (Kept for
    the few codes seen: every text of every screen asks.)"""
    if lang:
        base = lang.split("-")[0].split("_")[0].lower()
        if base in LANGUAGES:
            return base
    return DEFAULT_LANGUAGE


def plural_form(lang: str, n: int) -> str:
    """The CLDR plural category of ``n``: Russian one (1, 21), few (2–4, 22), many (0, 5–20);
    English one (1), other."""
    n = abs(n)
    if language(lang) == "ru":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "other"


def t(lang: str, key: str, **params: Any) -> str:
    """The shared entry ``key`` in ``lang``, formatted with ``params``."""
    return _plain(catalogue(lang), key, params)


def tn(lang: str, key: str, n: int, **params: Any) -> str:
    """The shared plural entry ``key`` in the form for ``n``, formatted with ``n`` and
    ``params``."""
    return _counted(catalogue(lang), lang, key, n, params)


def signed(amount: int) -> str:
    """Chips as both front-ends write a change of them: ``+8``, ``−12`` (a true minus sign),
    ``0``."""
    if amount > 0:
        return f"+{amount}"
    if amount < 0:
        return f"\u2212{-amount}"
    return "0"


def listed(lang: str, items: Sequence[str], conjunction: Literal["or", "and"]) -> str:
    """``items`` as a sentence lists them: «a, b или c», «a и b» (the ``list.or`` and
    ``list.and`` entries); one item alone, nothing for none."""
    if len(items) < 2:
        return "".join(items)
    return t(lang, f"list.{conjunction}", items=", ".join(items[:-1]), last=items[-1])


__all__ = [
    "DEFAULT_LANGUAGE",
    "LANGUAGES",
    "PLURAL_FORMS",
    "Words",
    "catalogue",
    "game_entries",
    "language",
    "listed",
    "plural_form",
    "signed",
    "t",
    "tn",
]
