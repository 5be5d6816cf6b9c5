"""The chat texts with a game named by its /new word and its options as the typed options
object: how the tests write them (the bot passes the game's plugin and its options' JSON)."""

from __future__ import annotations

from typing import Any

from bot.render import chat, common, menus
from game.starshina.options import StarshinaOptions
from game.stukolka.options import StukolkaOptions
from tests.library import CHAT, GAMES

Options = StukolkaOptions | StarshinaOptions


def _kind(options: Options) -> str:
    return "starshina" if isinstance(options, StarshinaOptions) else "stukolka"


def rules_text(lang: str, word: str, options: Options) -> str:
    found = GAMES.choice(word)
    assert found is not None
    game, item = found
    return chat.rules_text(
        lang, CHAT.of(game.rules.kind), item.name, {**options.to_json(), **item.preset}
    )


def options_summary(lang: str, options: Options) -> str:
    return common.options_summary(lang, GAMES.of(_kind(options)), options.to_json())


def lobby_text(lang: str, word: str, options: Options, *rest: Any) -> str:
    found = GAMES.choice(word)
    assert found is not None
    game, item = found
    return chat.lobby_text(lang, game, {**options.to_json(), **item.preset}, *rest)


def settings_text(
    lang: str,
    stukolka: StukolkaOptions,
    starshina: StarshinaOptions,
    game: str | None = None,
    option: str | None = None,
    **keywords: Any,
) -> str:
    chosen = [
        (GAMES.of("stukolka"), stukolka.to_json()),
        (GAMES.of("starshina"), starshina.to_json()),
    ]
    plugin = None if game is None else GAMES.of(game)
    return menus.settings_text(lang, chosen, plugin, option, **keywords)
