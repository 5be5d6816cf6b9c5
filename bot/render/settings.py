"""The settings menu's texts: the top menu, a game's options, one option's values, the
evening's pause, and the short answers when a setting is chosen. Pure functions."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.render.common import (
    game_title,
    hours_text,
    option_label,
    options_summary,
    ranks_style,
    short_answer,
    value_label,
)
from locales import t

if TYPE_CHECKING:
    from game.registry import JsonObject
    from tables.games import Plugin


def settings_text(
    lang: str,
    chosen: Sequence[tuple[Plugin, JsonObject]],
    game: Plugin | None = None,
    option: str | None = None,
    *,
    ranks: str | None = None,
    gap: float | None = None,
) -> str:
    """The settings menu message: the top menu (each game of ``chosen`` with a summary of its
    options, the pause that ends the chat's evening, ``gap`` seconds, and, in Russian, the
    rank letters the chat reads: ``ranks`` its stored choice), ``game``'s options, or one
    option's values."""
    if game is None:
        shown = ranks_style(lang, ranks)
        letters = [t(lang, "settings.ranks", value=t(lang, f"btn.ranks.{shown}"))]
        summaries = [
            t(
                lang,
                "settings.game",
                game=game_title(lang, each.kind),
                summary=options_summary(lang, each, options),
            )
            for each, options in chosen
        ]
        return "\n".join(
            [
                t(lang, "settings.title"),
                "",
                *summaries,
                *([] if gap is None else [t(lang, "settings.evening_gap", hours=hours_text(gap))]),
                *(letters if lang == "ru" else []),
                "",
                t(lang, "settings.who"),
            ]
        )
    if option is None:
        return t(lang, "settings.choose_option", game=game_title(lang, game.kind))
    options = dict(chosen).get(game, game.menu.defaults)
    value = options.get(option, game.menu.defaults.get(option))
    return "\n".join(
        [
            t(
                lang,
                "settings.option",
                option=option_label(lang, game.kind, option),
                value=value_label(lang, game.kind, option, value),
            ),
            t(lang, f"help.{game.kind}.{option}"),
        ]
    )


def evening_gap_text(lang: str, gap: float) -> str:
    """The evening's gap menu: the chat's current pause and what it does."""
    return "\n".join(
        [
            t(lang, "settings.evening_gap_title", hours=hours_text(gap)),
            t(lang, "settings.evening_gap_help"),
        ]
    )


def evening_gap_set_text(lang: str, hours: int) -> str:
    """The callback answer after the evening's gap was chosen."""
    return short_answer(t(lang, "evening.gap_set", hours=hours))


def preset_chosen_text(lang: str, game: str, preset: str) -> str:
    """The callback answer after a preset was chosen."""
    return short_answer(
        t(
            lang,
            "settings.preset_chosen",
            game=game_title(lang, game),
            preset=t(lang, f"preset.{game}.{preset}"),
        )
    )


def ranks_changed_text(lang: str, ranks: str) -> str:
    """The callback answer after the rank letters were set."""
    return short_answer(t(lang, "settings.ranks", value=t(lang, f"btn.ranks.{ranks}")))


def setting_changed_text(lang: str, game: str, option: str, value: object) -> str:
    """The callback answer after an option was set."""
    return short_answer(
        t(
            lang,
            "settings.changed",
            option=option_label(lang, game, option),
            value=value_label(lang, game, option, value),
        )
    )
