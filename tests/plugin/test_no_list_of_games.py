"""A game is its own modules, one per layer, and nothing else names it: no module outside them
imports one or spells a game's kind in its code (a docstring or comment may use one as an
example). A game's titles count as its name too («Стуколка», "Starshina"). Nor does an entry of
the shared catalogues (``locales/ru.json``, ``en.json``): what names a game there is composed
from the game's own words (``locales/games/<kind>/``). One module more names every game:
``server/games.py``, the composition root's list of the games, the one place they are
registered (each game's definition with the chat's and the page's presentation), and its
game-layer half ``game/games.py``, the games' own parts that the command-line tools run on
without the program (``python -m game.replay``, which the conformance format fixes)."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from locales import LANGUAGES
from tests.library import GAMES as OFFERED

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("game", "tables", "bot", "web", "server", "storage", "locales")
#: each layer's home of a game: ``{kind}`` is the game's kind
HOMES = ("game/{kind}/", "tables/games/{kind}.py", "bot/games/{kind}/", "web/games/{kind}.py")
#: data migrations rewrite tables stored under a kind: they are about what is in the database;
#: the composition root lists the games, the one place they are registered
ALLOWED = {"storage/migrations.py", "server/games.py", "game/games.py"}


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the strings of ``tree`` that are documentation: a string standing as a
    statement of its own (a module's, class's or function's docstring, or one under an
    attribute)."""
    return {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    }


def named(path: Path, kind: str, root: Path = ROOT, titles: tuple[str, ...] = ()) -> list[str]:
    """Where the code of ``path`` names ``kind``: an import, a name, or a string in code that
    holds the kind or one of the game's ``titles`` (its names as players read them)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = _docstrings(tree)
    names = "|".join(re.escape(name.lower()) for name in (kind, *titles))
    word = re.compile(rf"(?<![a-zа-яё])(?:{names})(?![a-zа-яё])")
    places = []
    for node in ast.walk(tree):
        texts: list[str] = []
        if isinstance(node, ast.Import):
            texts = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            texts = [node.module or "", *(alias.name for alias in node.names)]
        elif isinstance(node, ast.Name):
            texts = [node.id]
        elif isinstance(node, ast.Attribute):
            texts = [node.attr]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            texts = [] if id(node) in docstrings else [node.value]
        for text in texts:
            if word.search(text.lower()):
                places.append(f"{path.relative_to(root)}:{getattr(node, 'lineno', '?')} {text!r}")
    return places


def sources() -> list[Path]:
    return sorted(path for package in PACKAGES for path in (ROOT / package).rglob("*.py"))


def _home(path: Path, kind: str) -> bool:
    relative = path.relative_to(ROOT).as_posix()
    return any(relative.startswith(home.format(kind=kind)) for home in HOMES)


GAMES = [game.rules.kind for game in OFFERED]


def _titles(kind: str) -> tuple[str, ...]:
    """The game's names in every language: the titles of its /new choices (as a title
    reads; another case of the word is not looked for)."""
    choices = OFFERED.of(kind).choices
    return tuple(
        dict.fromkeys(
            OFFERED.of(kind).words.t(lang, f"game.{choice.name}")
            for lang in LANGUAGES
            for choice in choices
        )
    )


def test_the_games_are_found() -> None:
    assert len(GAMES) >= 2


@pytest.mark.parametrize("kind", GAMES)
def test_nothing_outside_a_games_own_modules_names_it(kind: str) -> None:
    places = [
        place
        for path in sources()
        if not _home(path, kind) and path.relative_to(ROOT).as_posix() not in ALLOWED
        for place in named(path, kind, titles=_titles(kind))
    ]
    assert places == []


def in_entries(
    entries: dict[str, object], kind: str, words: tuple[str, ...], titles: tuple[str, ...]
) -> list[str]:
    """The keys of the catalogue ``entries`` whose text names the game: a word that is its
    ``kind``, one of the ``words`` /new takes for it, or one of its ``titles`` in any case (the
    first word of the title less its last letter, and up to two letters of an ending:
    «Стуколки», «Старшиной», "Stukolka's"; not «старшинство»)."""
    stems = [title.lower().split()[0][:-1] for title in titles]
    names = "|".join(re.escape(word) for word in (kind, *words, *stems))
    word = re.compile(rf"(?<![a-zа-яё])(?:{names})[a-zа-яё]{{0,2}}(?![a-zа-яё])")
    return [
        key
        for key, entry in entries.items()
        if any(word.search(text.lower()) for text in _texts(entry))
    ]


def _texts(entry: object) -> list[str]:
    """The texts of a catalogue entry: itself, or each plural form."""
    return list(entry.values()) if isinstance(entry, dict) else [str(entry)]


def _shared(lang: str) -> dict[str, object]:
    """The shared catalogue of ``lang`` as its file holds it."""
    data = json.loads((ROOT / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("kind", GAMES)
def test_no_shared_catalogue_entry_names_a_game(kind: str) -> None:
    words = tuple(item.name for item in OFFERED.of(kind).choices)
    places = [
        f"locales/{lang}.json {key}"
        for lang in LANGUAGES
        for key in in_entries(_shared(lang), kind, words, _titles(kind))
    ]
    assert places == []


def test_the_catalogue_check_sees_a_kind_a_choice_and_a_title_in_any_case() -> None:
    entries: dict[str, object] = {
        "a": "Кон Стуколки: {pot}",
        "b": {"one": "{n} партия в Старшину", "many": "{n} партий"},
        "c": "/new stukolka",
        "d": "/new shleif",
        "e": "Stukolka's pot",
        "f": "старшинство карт",
        "g": "Взятка",
    }
    assert in_entries(entries, "stukolka", ("shleif",), ("Стуколка", "Stukolka")) == [
        "a",
        "c",
        "d",
        "e",
    ]
    assert in_entries(entries, "starshina", (), ("Старшина",)) == ["b"]


def test_the_check_sees_an_import_a_name_and_a_string_but_not_a_docstring(
    tmp_path: Path,
) -> None:
    module = tmp_path / "registry.py"
    module.write_text(
        '"""Games such as stukolka are found."""\n'
        "from tables.games import stukolka\n"
        "starshina_ai = None\n"
        "KIND = 'stukolka'\n"
        "x.starshina\n"
        "# a comment on starshina\n"
        "TITLE = 'Партия в Старшину'\n"
        "POT = 0\n"
        '"""The pot of a Старшина game."""\n',
        encoding="utf-8",
    )
    found = named(module, "stukolka", tmp_path) + named(
        module, "starshina", tmp_path, titles=("Старшина", "Старшину")
    )
    assert sorted(place.split(" ")[0] for place in found) == [
        "registry.py:2",
        "registry.py:3",
        "registry.py:4",
        "registry.py:5",
        "registry.py:7",
    ]
