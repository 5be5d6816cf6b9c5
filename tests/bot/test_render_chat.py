"""Texts that are not a deal: lobby, money, history, rules, help, welcome, settings,
announcements and callback answers."""

from __future__ import annotations

import pytest

from bot.render.chat import (
    ANSWER_LIMIT,
    ANSWERS,
    REFUSALS,
    LobbyPlayer,
    answer_text,
    away_text,
    back_text,
    balance_text,
    cancelled_text,
    joined_text,
    left_text,
    move_text,
    own_balances_text,
    private_hint_text,
    refusal,
    settle_up_text,
    start_text,
    stays_text,
    stopped_text,
    timeout_text,
)
from bot.render.common import MONEY_REASONS, money_text
from bot.render.menus import help_text, language_set_text, new_game_text, setting_changed_text
from game.cards import FULL_DECK, label
from game.core import Action
from game.starshina import StarshinaOptions
from game.stukolka import StukolkaOptions
from locales import t
from tests.bot.texts import lobby_text, options_summary, rules_text, settings_text
from tests.library import GAMES

WORDS = GAMES.words

LANGS = ("ru", "en")


def test_lobby() -> None:
    players = [
        LobbyPlayer("Аня", reachable=True),
        LobbyPlayer("<Борис>", reachable=False, start_payload="g42"),
        LobbyPlayer("Вика", reachable=False),
    ]
    text = lobby_text(
        "ru", "shleif", StukolkaOptions(variant="shleif", stake=6), players, "Аня & Co", "card_bot"
    )
    assert "Стуколка со шлейфом" in text
    assert "Ставка: 6" in text
    assert "от 2 до 6" in text
    assert "Стол открыт по команде: Аня &amp; Co" in text
    assert "За столом 3 игрока:" in text
    assert "1. Аня ✅" in text
    assert "&lt;Борис&gt;" in text and "<Борис>" not in text
    assert '<a href="https://t.me/card_bot?start=g42">' in text
    assert "3. Вика ⚠️ бот не запущен" in text
    assert "в личку" in text
    text = lobby_text("en", "starshina", StarshinaOptions(), players[:1], "Аня", "card_bot")
    assert "Needs exactly 3 players" in text and "1 player seated:" in text
    assert "private chat" not in text  # everyone is reachable: no hint
    assert "Targets: 8-5-3" in text


def test_lobby_payload_is_escaped() -> None:
    text = lobby_text(
        "ru", "stukolka", StukolkaOptions(), [LobbyPlayer("x", False, 'a"b')], "x", "bot"
    )
    assert 'start=a&quot;b"' in text


def test_options_summary_shows_the_stake_and_what_differs() -> None:
    assert options_summary("ru", StukolkaOptions()) == "Ставка: 3"
    summary = options_summary("ru", StukolkaOptions(remiz_cap=12, void_rule="head_only"))
    assert "Потолок ремиза: 12" in summary and "козырем, только если берёт" in summary
    assert "Втёмную" not in options_summary(
        "ru", StukolkaOptions(variant="shleif", dark_in_classic=True)
    )
    assert "Обмен: по кругу" in options_summary("ru", StarshinaOptions(exchange="ring"))


def test_balance_and_settle_up() -> None:
    balances = {1: -10, 2: 12, 3: -5}
    names = {1: "Аня", 2: "<b>Борис</b>", 3: "Вика"}
    text = balance_text("ru", balances, names, pot=3, game_pot=2)
    lines = text.splitlines()
    assert lines[1] == "&lt;b&gt;Борис&lt;/b&gt;: +12"
    assert lines[2] == "Вика: −5" and lines[3] == "Аня: −10"
    assert "Кон на столе: 3" in text and "Банк текущей партии: 2" in text
    assert "Пока никто" in balance_text("ru", {}, {}, pot=0)
    text = settle_up_text("ru", balances, names, pot=3)
    assert "Аня → &lt;b&gt;Борис&lt;/b&gt;: 10" in text
    assert "Вика → &lt;b&gt;Борис&lt;/b&gt;: 2" in text
    assert "Кон (3) остаётся на столе" in text
    assert "Everybody is square." in settle_up_text("en", {1: 0}, {1: "A"}, pot=0)
    # everyone down only to the pot: nobody owes another player, but nobody is square
    lost = settle_up_text("en", {1: -3, 2: -3}, {1: "A", 2: "B"}, pot=6)
    assert "Nobody owes another player anything." in lost and "square" not in lost


@pytest.mark.parametrize("lang", LANGS)
def test_rules_are_phone_sized_and_show_the_options(lang: str) -> None:
    cases: list[tuple[str, StukolkaOptions | StarshinaOptions]] = [
        ("stukolka", StukolkaOptions(stake=6, dark_in_classic=True)),
        ("shleif", StukolkaOptions(variant="shleif")),
        ("starshina", StarshinaOptions(trumps="dealer_names")),
    ]
    for kind, options in cases:
        text = rules_text(lang, kind, options)
        assert len(text) < 1800, (kind, len(text))
        # «Правила» list rules, «Настройки» settings: no list of options here, a pointer
        assert "•" not in text and "/settings" in text
        summary = options_summary(lang, options).split(" · ")[0]
        assert summary not in text, summary
    assert "ставит в кон 6" in rules_text("ru", "stukolka", StukolkaOptions(stake=6))
    assert "сдаёт победитель" in rules_text(
        "ru", "starshina", StarshinaOptions(next_dealer="winner")
    )
    assert "Втёмную" in rules_text("ru", "stukolka", StukolkaOptions(dark_in_classic=True))
    assert "сдающий называет козырь" in rules_text(
        "ru", "starshina", StarshinaOptions(trumps="dealer_names")
    )


@pytest.mark.parametrize("lang", LANGS)
def test_help_lists_every_command(lang: str) -> None:
    text = help_text(lang, GAMES)
    for command in (
        "/new",
        "stukolka",
        "shleif",
        "starshina",
        "/join",
        "/leave",
        "/begin",
        "/stop",
        "/balance",
        "/history",
        "/settings",
        "/rules",
        "/help",
        "/lang",
    ):
        assert command in text
    for game in GAMES:
        assert game.words.t(lang, f"about.{game.rules.kind}") in text


def test_start_and_small_texts() -> None:
    text = start_text("ru", "card_bot", GAMES)
    assert 'href="https://t.me/card_bot?startgroup=true"' in text
    assert "для <b>Стуколки</b> (классика и со шлейфом) и <b>Старшины</b> — на" in text
    text = start_text("en", "card_bot", GAMES)
    assert "for <b>Stukolka</b> (classic and with the shleif) and <b>Starshina</b> — for" in text
    assert "English" in language_set_text("en") and "русский" in language_set_text("ru")
    assert new_game_text("ru") == "Во что играем?"
    assert 'href="https://t.me/card_bot"' in private_hint_text("en", "card_bot")


def test_settings_texts() -> None:
    text = settings_text("ru", StukolkaOptions(stake=9), StarshinaOptions())
    assert "Ставка: 9" in text and "Старшина" in text
    assert "что изменить" in settings_text("ru", StukolkaOptions(), StarshinaOptions(), "stukolka")
    text = settings_text("ru", StukolkaOptions(), StarshinaOptions(), "stukolka", "remiz_cap")
    assert "Потолок ремиза" in text and "без потолка" in text
    answer = setting_changed_text("en", GAMES.of("starshina"), "max_deals", 30)
    assert answer == "Deal limit: 30" and len(answer) <= ANSWER_LIMIT


def test_announcements_escape_names() -> None:
    name = "<i>Бо</i>"
    escaped = "&lt;i&gt;Бо&lt;/i&gt;"
    for text in (
        timeout_text(WORDS, "ru", name, Action(1, "pass")),
        away_text("ru", name),
        back_text("ru", name),
        left_text("ru", name),
        left_text("ru", name, mid_deal=True),
        joined_text("ru", name),
        stays_text("ru", name),
        stopped_text("ru", name),
        cancelled_text("ru", name),
    ):
        assert escaped in text and name not in text
    assert stopped_text("en") == "⛔ The game was stopped."
    assert "доиграет" in left_text("ru", "x", mid_deal=True)


def test_timeout_names_the_move_but_never_a_secret_card() -> None:
    assert "пас" in timeout_text(WORDS, "ru", "X", Action(1, "pass"))
    assert "ход за игрока X: 7♠" in timeout_text(WORDS, "ru", "X", Action(1, "play", "7S"))
    assert "без покупки" in timeout_text(WORDS, "ru", "X", Action(1, "discard", ()))
    assert "смена 2 карт" in move_text(WORDS, "ru", Action(1, "discard", ("2S", "3S")))
    assert "шлейф" in move_text(WORDS, "ru", Action(1, "shleif"))
    assert "named ♥️ trump" in move_text(WORDS, "en", Action(1, "trump", "H"))
    assert move_text(WORDS, "ru", Action(1, "play")) == "ход сделан"
    assert move_text(WORDS, "ru", Action(1, "warp")) == "ход сделан"
    for card in FULL_DECK:
        for verb in ("drop", "give", "return"):
            assert label(card) not in move_text(WORDS, "ru", Action(1, verb, card))
        assert label(card) not in move_text(WORDS, "en", Action(1, "discard", (card,)))
        assert label(card) not in move_text(WORDS, "ru", Action(1, "kitty", (card,) * 4))


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_are_short_plain_text(lang: str) -> None:
    for reason in (*REFUSALS, "something_new"):
        text = refusal(WORDS, lang, reason)
        assert 0 < len(text) <= ANSWER_LIMIT
        assert "<" not in text and "&" not in text
    for key in ANSWERS:
        text = answer_text(lang, key)
        assert 0 < len(text) <= ANSWER_LIMIT and "<" not in text
    assert refusal(WORDS, "ru", "not_your_turn") == "Сейчас не ваш ход."
    assert refusal(WORDS, "en", "outdated") == "This button is outdated."
    assert refusal(WORDS, "ru", "unheard_of") == refusal(WORDS, "ru", "not_allowed")
    assert "администратор" in refusal(WORDS, "ru", "creator_or_admin_only")
    assert "suit" in refusal(WORDS, "en", "must_follow_suit")


def test_start_bot_first_names_exactly_who_has_not() -> None:
    named = refusal(WORDS, "ru", "start_bot_first", ["Вера", "<Боб>"], html=True)
    assert "Вера, &lt;Боб&gt;" in named and "Старт" in named
    toast = refusal(WORDS, "ru", "start_bot_first", ["Вера", "<Боб>"])
    assert "Вера, <Боб>" in toast and len(toast) <= 200
    assert refusal(WORDS, "ru", "start_bot_first") == t("ru", "refuse.start_bot_first")
    choices = ["stukolka", "shleif", "starshina"]
    assert refusal(WORDS, "ru", "unknown_game", choices=choices) == (
        "Такой игры нет: /new stukolka, shleif или starshina."
    )
    assert refusal(WORDS, "en", "unknown_game", choices=choices[:2]) == (
        "No such game: /new stukolka or shleif."
    )
    assert "Vera" in refusal(WORDS, "en", "start_bot_first", ["Vera"])


def test_own_balances_in_private() -> None:
    text = own_balances_text("ru", [("Друзья <3", 12), (None, -4), ("Дача", 0)])
    assert "Друзья &lt;3: +12" in text
    assert "группа без названия: −4" in text and "Дача: 0" in text
    assert "no money" in own_balances_text("en", [])


def test_settle_up_leaves_the_computers_out_and_says_where_they_stand() -> None:
    from tables.computers import EASY_IDS, STRONG_IDS

    strong, easy = STRONG_IDS[0], EASY_IDS[0]
    names = {1: "Аня", 2: "Борис", strong: "🤖 Компьютер 1", easy: "🤖 Новичок 1"}
    # the strong computer is up 12 and the easy one down 4: the people are down 8 in sum
    balances = {1: 10, 2: -18, strong: 12, easy: -4}
    text = settle_up_text("ru", balances, names, pot=0)
    assert "Борис → Аня: 10" in text
    assert "🤖 Компьютер 1 →" not in text and "→ 🤖" not in text
    assert "Их счёт: 🤖 Компьютер 1 +12, 🤖 Новичок 1 −4." in text
    english = settle_up_text("en", {1: 5, 2: 0, strong: -5}, names, pot=0)
    assert "→" not in english and "Where they stand: 🤖 Компьютер 1 −5." in english


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_every_part_of_a_deals_money_has_words(lang: str) -> None:
    # a Старшина game stopped without a winner returns its stakes ("game_pot_return"): the
    # hands' outcomes of that deal failed on a missing catalogue entry (found by bench/soak.py)
    for reason in MONEY_REASONS:
        other = "remiz" if reason != "remiz" else "ante"
        text = money_text(lang, {reason: 6, other: -1})
        assert "money." not in text and "6" in text, (reason, text)
    assert "game_pot_return" in MONEY_REASONS


def test_settle_up_says_whose_chips_lie_in_the_pot_and_that_it_carries() -> None:
    """Аня at −20 pays Вика 4: the other 16 are in the pot with Борис's 14, said by name,
    and nobody pays them; the pot carries to the next deal."""
    names = {1: "Аня", 2: "Борис", 3: "Вика"}
    text = settle_up_text("ru", {1: -20, 2: -14, 3: 4}, names, pot=30)
    assert "Аня → Вика: 4" in text
    assert "Кон (30) остаётся на столе, его никто никому не платит" in text
    assert "(Аня 16, Борис 14). Он переходит в следующую сдачу." in text
    english = settle_up_text("en", {1: -20, 2: -14, 3: 4}, names, pot=30)
    assert "remizes and antes not won back yet (Аня 16, Борис 14)." in english


def test_the_time_a_turn_has_left_reads_at_a_glance() -> None:
    """Seconds under two minutes, minutes from there, rounded up to the second and never
    below nothing; the end in hours and minutes, no seconds to read."""
    from bot.render.common import Deadline, time_left, turn_deadline

    assert time_left("ru", 59.2) == "60 с" and time_left("en", 59.2) == "60 s"
    assert time_left("ru", 119) == "119 с"
    assert time_left("ru", 300) == "5 мин" and time_left("en", 300) == "5 min"
    assert time_left("ru", -3) == "0 с"
    text = turn_deadline("ru", Deadline(1_780_000_000.7, 60))
    assert text == (
        ' · ⏳ <tg-time unix="1780000000" format="r">60 с</tg-time>, до '
        '<tg-time unix="1780000000" format="t">20:26 UTC</tg-time>'
    )
    assert turn_deadline("en", None) == ""
    assert "until" in turn_deadline("en", Deadline(1_780_000_000, 60))
