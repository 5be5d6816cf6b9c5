"""The menus' texts and buttons (``bot.screens.menus`` sends them): /settings (the top menu,
a game's options and presets, one option's values, the evening's pause, the short answers when
a setting is chosen), the /new and /rules choosers, /balance's page switch, /help and /lang.
Pure functions; a button is a ``(label, callback_data)`` pair as in ``bot.keyboards``. The
/balance texts are with the money's (``bot.render.chat``), /rules' own with each game's."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Final

from bot.callback import (
    GAP_CHOICES,
    AwayPlay,
    AwayPlayName,
    BadCallback,
    CardRanks,
    Codec,
    EveningGap,
    Hints,
    NewGame,
    Page,
    PageName,
    RanksName,
    RulesOf,
    Settings,
    encode,
)
from bot.keyboards import SELECTED_MARK, Keyboard, rows_of
from bot.render.common import (
    game_title,
    hours_text,
    option_label,
    option_names,
    options_summary,
    short_answer,
    value_label,
    value_token,
)
from locales import t
from tables.people import ranks_style

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
                game=game_title(each.words, lang, each.rules.kind),
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
        return t(lang, "settings.choose_option", game=game_title(game.words, lang, game.rules.kind))
    options = dict(chosen).get(game, game.menu.defaults)
    value = options.get(option, game.menu.defaults.get(option))
    return "\n".join(
        [
            t(
                lang,
                "settings.option",
                option=option_label(lang, game, option),
                value=value_label(lang, game, option, value),
            ),
            game.words.t(lang, f"help.{game.rules.kind}.{option}"),
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


def preset_chosen_text(lang: str, game: Plugin, preset: str) -> str:
    """The callback answer after a preset was chosen."""
    return short_answer(
        t(
            lang,
            "settings.preset_chosen",
            game=game_title(game.words, lang, game.rules.kind),
            preset=game.words.t(lang, f"preset.{game.rules.kind}.{preset}"),
        )
    )


def ranks_changed_text(lang: str, ranks: str) -> str:
    """The callback answer after the rank letters were set."""
    return short_answer(t(lang, "settings.ranks", value=t(lang, f"btn.ranks.{ranks}")))


def setting_changed_text(lang: str, game: Plugin, option: str, value: object) -> str:
    """The callback answer after an option was set."""
    return short_answer(
        t(
            lang,
            "settings.changed",
            option=option_label(lang, game, option),
            value=value_label(lang, game, option, value),
        )
    )


# ---------------------------------------------------------------- the other menus


def rules_choose_text(lang: str) -> str:
    """Private /rules without a game: which game's rules to show."""
    return t(lang, "rules.choose")


def help_text(lang: str, games: Iterable[Plugin]) -> str:
    """/help: how to play, each game (its own line after the /new words that open it) and
    every command."""
    lines = [
        t(
            lang,
            "help.game",
            commands="/new " + " | ".join(item.name for item in game.choices),
            about=game.words.t(lang, f"about.{game.rules.kind}"),
        )
        for game in games
    ]
    return t(lang, "help.text", games="\n".join(lines))


def language_set_text(lang: str) -> str:
    """The answer to /lang, in the new language."""
    return t(lang, "lang.set")


def language_usage_text(lang: str) -> str:
    return t(lang, "lang.usage")


def new_game_text(lang: str, *, practice: bool = False) -> str:
    """The /new chooser's question (in private: which game to practise, against whom)."""
    return t(lang, "new.choose_practice" if practice else "new.choose")


# ---------------------------------------------------------------- buttons


def new_game_keyboard(codec: Codec, lang: str, games: Iterable[Plugin]) -> Keyboard:
    """The /new chooser: one button per choice of each game (``codec``: theirs)."""
    return [
        [(game_title(game.words, lang, item.name), codec.encode(NewGame(item.name)))]
        for game in games
        for item in game.choices
    ]


def rules_keyboard(codec: Codec, lang: str, games: Iterable[Plugin]) -> Keyboard:
    """The private /rules chooser: one button per choice of each game (``codec``: theirs)."""
    return [
        [(game_title(game.words, lang, item.name), codec.encode(RulesOf(item.name)))]
        for game in games
        for item in game.choices
    ]


def balance_keyboard(lang: str, page: PageName) -> Keyboard:
    """The /balance message shows ``page``; one button switches to the other page."""
    other: PageName = "settle" if page == "balance" else "balance"
    return [[(t(lang, f"btn.page_{other}"), encode(Page(other)))]]


PRESET: Final = "preset"
"""The pseudo-option of a settings button that applies one of a game's presets."""


def current_preset(game: Plugin, options: JsonObject) -> str | None:
    """The preset the chat's options match, if any."""
    for name, values in game.menu.presets.items():
        if all(options.get(key) == value for key, value in values.items()):
            return name
    return None


def option_token(value: object) -> str:
    """The token a settings button carries for an option value."""
    return value_token(value)


def setting_value(game: Plugin, option: str, token: str) -> object:
    """The option value a settings button's token stands for; ``BadCallback`` if the menu
    does not offer it."""
    for value in game.menu.values.get(option, ()):
        if value_token(value) == token:
            return value
    raise BadCallback("not a value the settings menu offers")


def settings_root_keyboard(
    codec: Codec,
    lang: str,
    games: Iterable[Plugin],
    ranks: str | None = None,
    away_play: str = "computer",
    hints: bool | None = False,
    *,
    evening: bool = True,
) -> Keyboard:
    """The top of /settings: one button per game (``codec``: theirs); the evening's gap,
    which opens its choice (not without an ``evening``: a practice table has none); who plays
    for an away player and whether players may ask for hints (the current choices marked;
    none to make where ``hints`` is None: a practice table always offers them); in Russian,
    the rank letters (J Q K A or В Д К Т, the current one marked; ``ranks`` the chat's
    stored choice)."""
    rows = [
        [(game_title(game.words, lang, game.rules.kind), codec.encode(Settings(game.rules.kind)))]
        for game in games
    ]
    if evening:
        rows.append([(t(lang, "btn.evening_gap"), encode(EveningGap(0)))])
    plays: tuple[AwayPlayName, ...] = ("computer", "default")
    rows.append(
        [
            (
                (f"{SELECTED_MARK} " if play == away_play else "") + t(lang, f"btn.away.{play}"),
                encode(AwayPlay(play)),
            )
            for play in plays
        ]
    )
    if hints is not None:
        rows.append(
            [
                (
                    (f"{SELECTED_MARK} " if allowed == hints else "")
                    + t(lang, f"btn.hints.{'on' if allowed else 'off'}"),
                    encode(Hints(allowed)),
                )
                for allowed in (False, True)
            ]
        )
    if lang == "ru":
        current = ranks_style(lang, ranks)
        choices: tuple[RanksName, ...] = ("russian", "latin")
        rows.append(
            [
                (
                    (f"{SELECTED_MARK} " if style == current else "")
                    + t(lang, f"btn.ranks.{style}"),
                    encode(CardRanks(style)),
                )
                for style in choices
            ]
        )
    return rows


def evening_gap_keyboard(codec: Codec, lang: str, gap: float) -> Keyboard:
    """The pauses that may end an evening, the chat's current one (``gap`` seconds) marked,
    and a way back to the top of /settings (``codec``: the chat's)."""
    buttons = []
    for hours in GAP_CHOICES:
        text = t(lang, "btn.gap_hours", hours=hours)
        if hours * 3600 == gap:
            text = f"{SELECTED_MARK} {text}"
        buttons.append((text, encode(EveningGap(hours))))
    rows = rows_of(buttons, 4)
    rows.append([(t(lang, "btn.settings_back"), codec.encode(Settings()))])
    return rows


def settings_game_keyboard(codec: Codec, lang: str, game: Plugin, options: JsonObject) -> Keyboard:
    """A game's options, one button each showing the current value, and a way back
    (``codec``: the chat's)."""
    rows: Keyboard = []
    kind = game.rules.kind
    presets = game.menu.presets
    if presets:
        current = current_preset(game, options)
        buttons = []
        for preset in presets:
            text = game.words.t(lang, f"preset.{kind}.{preset}")
            if preset == current:
                text = f"{SELECTED_MARK} {text}"
            buttons.append((text, codec.encode(Settings(kind, PRESET, preset))))
        rows.append(buttons)
    for name in option_names(game):
        value = options.get(name, game.menu.defaults[name])
        text = t(
            lang,
            "btn.option",
            option=option_label(lang, game, name),
            value=value_label(lang, game, name, value),
        )
        rows.append([(text, codec.encode(Settings(kind, name)))])
    rows.append([(t(lang, "btn.settings_back"), codec.encode(Settings()))])
    return rows


def settings_option_keyboard(
    codec: Codec, lang: str, game: Plugin, option: str, current: object
) -> Keyboard:
    """The values of one option, the current one marked, and a way back (``codec``: the
    chat's)."""
    buttons = []
    kind = game.rules.kind
    values = game.menu.values[option]
    for value in values:
        text = value_label(lang, game, option, value)
        if value == current and type(value) is type(current):
            text = f"{SELECTED_MARK} {text}"
        buttons.append((text, codec.encode(Settings(kind, option, option_token(value)))))
    numbers = all(
        value is None or (isinstance(value, int) and not isinstance(value, bool))
        for value in values
    )
    rows = rows_of(buttons, 3 if numbers else 1)
    rows.append([(t(lang, "btn.settings_back"), codec.encode(Settings(kind)))])
    return rows
