"""A game is a plugin. Outside ``tables/games``, ``bot/games`` and ``web/games`` (the
catalogues, and each game's module or package there), neither the tables, the bot, the Mini
App nor the storage name a game, compare a game's kind with a name, or import a game's
package; a catalogue refuses games whose names or codes clash."""

from __future__ import annotations

import ast
import dataclasses
from pathlib import Path

import pytest

from bot.games import Catalogue, Choice, GamePlugin, OptionsMenu, StatField
from game.stukolka import StukolkaGame
from tests.library import CHAT, GAMES, library_with, rules_for

ROOT = Path(__file__).resolve().parents[2]
BOT = ROOT / "bot"
TABLES = ROOT / "tables"
WEB = ROOT / "web"
STORAGE = ROOT / "storage"
#: the old data migrations rewrite rows stored by each game: the history of stored data
HISTORY = {STORAGE / "migrations.py"}
KINDS = [game.rules.kind for game in GAMES]
GAME_NAMES = {"stukolka", "starshina", "shleif"}
#: the packages of the games' rules
GAME_PACKAGES = {f"game.{kind}" for kind in KINDS}


def _outside_plugins() -> list[Path]:
    """Every module of bot/, tables/, web/ and storage/ that is not a game's plugin."""
    plugins = {BOT / "games", TABLES / "games", WEB / "games"}
    layers = (BOT, TABLES, WEB, STORAGE)
    return [
        path
        for path in sorted(path for layer in layers for path in layer.rglob("*.py"))
        if not plugins & set(path.parents) and path not in HISTORY
    ]


def _comparisons_with_a_game_name(tree: ast.AST) -> list[int]:
    """Lines that compare something with a game's name (``kind == "stukolka"``, ``x in
    ("shleif", …)``, a ``match`` case on one)."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for operand in operands:
                names = [operand] if isinstance(operand, ast.Constant) else []
                if isinstance(operand, (ast.Tuple, ast.List, ast.Set)):
                    names = [item for item in operand.elts if isinstance(item, ast.Constant)]
                if any(item.value in GAME_NAMES for item in names):
                    lines.append(node.lineno)
        elif (
            isinstance(node, ast.MatchValue)
            and isinstance(node.value, ast.Constant)
            and node.value.value in GAME_NAMES
        ):
            lines.append(node.lineno)
    return lines


def test_no_game_is_named_or_imported_outside_its_plugin() -> None:
    found: list[str] = []
    for path in _outside_plugins():
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        where = path.relative_to(ROOT)
        found += [
            f"{where}:{line} compares with a game name"
            for line in _comparisons_with_a_game_name(tree)
        ]
        for node in ast.walk(tree):
            module = node.module if isinstance(node, ast.ImportFrom) else None
            if module and any(module == p or module.startswith(p + ".") for p in GAME_PACKAGES):
                found.append(f"{where}:{getattr(node, 'lineno', 0)} imports {module}")
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if any(alias.name.startswith(p) for p in GAME_PACKAGES):
                        found.append(f"{where}:{node.lineno} imports {alias.name}")
    assert not found, "\n".join(found)


def test_the_check_finds_a_name_test() -> None:
    tree = ast.parse('if kind == "starshina" or v in ("shleif",):\n    pass\n')
    assert _comparisons_with_a_game_name(tree) == [1, 1]


def test_a_catalogue_refuses_a_clash() -> None:
    with pytest.raises(ValueError):
        Catalogue([*GAMES, GAMES.of("stukolka")])
    twin = GamePlugin(
        dataclasses.replace(rules_for("stukolka"), kind="other"),
        StukolkaGame,
        choices=(Choice("other", "z", aliases=("шлейф",)),),
        menu=OptionsMenu(code="z", values={}, defaults={}),
    )
    with pytest.raises(ValueError):
        Catalogue([*GAMES, twin])  # «шлейф» already opens Стуколка со шлейфом
    assert [game.rules.kind for game in GAMES] == ["stukolka", "starshina"]


def test_a_game_definition_refuses_no_choice_and_a_figure_named_twice() -> None:
    """A game is offered by a choice at least, and a /stats figure is kept by its name."""
    game = GAMES.of("stukolka")
    assert isinstance(game, GamePlugin)
    with pytest.raises(ValueError, match="at least one choice"):
        dataclasses.replace(game, choices=())
    won = StatField("won", deal="won")
    with pytest.raises(ValueError, match="share a name"):
        dataclasses.replace(game, stat_fields=(won, dataclasses.replace(won, deal="played")))
    assert dataclasses.replace(game, stat_fields=(won,)).stat_fields == (won,)


def test_a_game_brings_its_buttons_verbs_to_its_library_only() -> None:
    """The callback codec knows the verbs of the games its chat shows only: a game's own
    verbs are on its library's buttons and on no other's; a verb that clashes with another
    game's is refused."""
    from bot import callback as cb
    from tests.plugin import tricks

    assert "lead" not in CHAT.codec.verbs
    library = library_with(tricks.OFFERED)
    codec = library.chat.codec
    act = cb.Act(7, 3, "lead", "TH")
    assert codec.decode(codec.encode(act)) == act
    assert codec.verbs["follow"] == ("fw", cb.ArgKind.CARD)
    assert "lead" not in CHAT.codec.verbs and "play" in CHAT.codec.verbs
    with pytest.raises(cb.BadCallback):
        CHAT.codec.encode(cb.Act(7, 3, "lead", "TH"))
    with pytest.raises(ValueError):
        cb.Codec.of([{"play": ("c", cb.ArgKind.CARD)}, {"lead": ("c", cb.ArgKind.CARD)}], {}, {})
