"""Every text the bot can produce reads right for a player of either gender.

The bot cannot know a player's gender, and Russian names cannot be declined safely, so no text
may put a gendered past-tense verb about a player (``Вера взял``, ``Боря не успела``) or a
declined name (``За Вера``, ``платит Вера``) next to a player's name.

The scan renders every catalogue entry, every plural form, with a female name (Вера, Алиса) and
a male one (Боря) in every player placeholder, and the entries the bot shows right after a name
(the status in a seat line, the move in «ход за игрока …», a result's details) composed with a
name the way the renderers compose them. Then it checks the rendered text:

- no singular past-tense verb (``-л``, ``-ла``, ``-ло``, ``-лся``, ``-лась`` and the irregular
  ``снёс``, ``смог`` …) in a text about a named player, and no plural one right after a name;
- every name stands in the nominative: nothing but punctuation, the start of the text or an
  apposition head («игрок», «игроку» …) before it, so a preposition (``за``, ``у``, ``от`` …) or a
  verb that governs another case never takes it, and no case ending after it;
- a counted noun after a number comes from a plural entry (never «за 21 сдач»);
- English: no Cyrillic, no «he / his / him / she / her» about a player, no «1 a trick».

A second scan renders real table, hand and result messages of random games with those names.
"""

from __future__ import annotations

import itertools
import random
import re
import string
from collections.abc import Iterator

import pytest

from bot.games.starshina import render as starshina_render
from bot.games.stukolka import render as stukolka_render
from bot.render.common import tricks_count
from game.starshina import StarshinaOptions, StarshinaState
from game.starshina import views as starshina_views
from game.stukolka import StukolkaOptions, StukolkaState
from game.stukolka import views as stukolka_views
from locales import LANGUAGES, catalogue
from tests.bot.states import starshina_game, stukolka_deal

FEMALE = ("Вера", "Алиса")
MALE = ("Боря",)
NAMES = FEMALE + MALE
#: placeholders that stand for a player's name
PLAYER_PLACEHOLDERS = frozenset(
    {"name", "dealer", "winner", "giver", "receiver", "payer", "payee", "names", "creator"}
)
#: entries the bot shows right after a player's name: a seat line's status («Вера — стучит ·
#: покупка: 1 карта»), a move in «ход за игрока Вера: …», a result's details
PREDICATES = (
    "role.",
    "role_you.",
    "seat.bought",
    "seat.kept",
    "seat.away_mark",
    "move.",
    "result.defended",
    "result.remiz",
    "starshina.tricks_of",
    "starshina.game_diff",
    "starshina.result_",
    "history.remiz",
)
#: sample values for the placeholders that are not a player
SAMPLES: dict[str, tuple[str, ...]] = {
    "card": ("7♠",),
    "back": ("A♥",),
    "cards": ("7♠ 8♥",),
    "suit": ("♠",),
    "tricks": ("1 взятка", "5 взяток", "1 trick", "5 tricks"),
    "diff": ("+1",),
    "amount": ("+4",),
    "status": ("стучите",),
    "details": ("2 взятки · +4",),
    "prompt": ("Ваш ход",),
    "link": ("https://t.me/bot",),
    "game": ("Стуколка",),
    "summary": ("Ставка: 3",),
    "option": ("Ставка",),
    "value": ("3",),
    "items": ("Вера 2",),
    "date": ("01.12 15:00",),
    "targets": ("8-5-3",),
    "share": ("1",),
}
COUNTS = (0, 1, 2, 3, 5, 11, 21, 22)

WORD = re.compile(r"[А-Яа-яЁёA-Za-z]+")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
#: a masculine or feminine past tense (-л, -ла, reflexive -лся, -лась): wrong anywhere in a
#: text about a named player, since it agrees with one gender
PAST_GENDERED = re.compile(r"[а-яё]{2,}(?:л|ла|лся|лась)")
#: a neuter or plural past tense (-ло, -ли): wrong right beside a name («Вера отошли»), right
#: elsewhere («время вышло», «вы отдали»)
PAST_OTHER = re.compile(r"[а-яё]{2,}(?:ло|ли|лось|лись)")
#: past tenses that do not end in -л: снёс, смог, помог, лёг, вёз …
IRREGULAR_PAST = frozenset(
    {"снёс", "внёс", "принёс", "унёс", "смог", "помог", "лёг", "слёг", "вёз", "сжёг", "стёр"}
)
#: words ending like a past tense that are not verbs
NOT_VERBS = frozenset(
    {
        "стол",
        "стола",
        "пол",
        "ли",
        "или",
        "если",
        "число",
        "правила",
        "правило",
        "мало",
        "сила",
        "дела",
        "угла",
        "зла",
        "тела",
        "пола",
    }
)
#: short adjectives and participles that agree with the subject's gender
GENDERED_SHORT = frozenset(
    {"готов", "готова", "рад", "рада", "должен", "должна", "уверен", "уверена", "один", "одна"}
)
#: words a name may follow in apposition, so it stays in the nominative: «ход за игрока Вера»
APPOSITION = frozenset({"игрок", "игрока", "игроку", "игроком", "игроке", "player"})
#: counted nouns that need a plural entry when a number stands before them
COUNTED = re.compile(
    r"\{\w+\} (?:взят|карт|сдач|игрок|фиш|секунд|tricks?\b|cards?\b|deals?\b|players?\b|chips?\b)"
)
ENGLISH_GENDER = re.compile(r"\b(?:he|him|his|himself|she|her|hers|herself)\b", re.IGNORECASE)


def _placeholders(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def _forms(entry: object) -> list[tuple[str, str]]:
    if isinstance(entry, str):
        return [("", entry)]
    assert isinstance(entry, dict)
    return list(entry.items())


def _is_predicate(key: str) -> bool:
    return any(key == p or (p.endswith((".", "_")) and key.startswith(p)) for p in PREDICATES)


def _move_texts(lang: str) -> list[str]:
    texts = []
    for key, entry in catalogue(lang).items():
        if key.startswith("move."):
            for _, form in _forms(entry):
                texts += [form.format(n=n, card="7♠", suit="♠") for n in (1, 2, 5)]
    return texts


def renderings(lang: str) -> Iterator[tuple[str, str, str]]:
    """(key, name, text): every entry of ``lang`` rendered with every name in every player
    placeholder, every sample value, and (plural entries) every count; predicates after a
    name."""
    moves = _move_texts(lang)
    for key, entry in catalogue(lang).items():
        for _, form in _forms(entry):
            fields = sorted(set(_placeholders(form)))
            for name in NAMES:
                choices: list[tuple[str, ...]] = []
                for field in fields:
                    if field in PLAYER_PLACEHOLDERS:
                        choices.append((f"<b>{name}</b>", name))
                    elif field == "move":
                        choices.append(tuple(moves))
                    elif field in SAMPLES:
                        choices.append(SAMPLES[field])
                    else:
                        choices.append(tuple(str(n) for n in COUNTS))
                for values in itertools.product(*choices):
                    text = form.format(**dict(zip(fields, values, strict=True)))
                    if _is_predicate(key):
                        text = f"{name} — {text}"
                    yield key, name, text


def _strip_tags(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


def _past_other(word: str) -> bool:
    lower = word.lower()
    return lower not in NOT_VERBS and PAST_OTHER.fullmatch(lower) is not None


def gender_problems(text: str, names: tuple[str, ...] = NAMES) -> list[str]:
    """What is wrong in a Russian ``text`` about the players named ``names`` (empty if nothing
    or the text names nobody)."""
    plain = _strip_tags(text)
    present = [name for name in names if re.search(rf"(?<![А-Яа-яЁё]){name}", plain)]
    if not present:
        return []
    problems = own_voice_problems(plain)
    for name in present:
        for match in re.finditer(rf"(?<![А-Яа-яЁё]){name}", plain):
            after = plain[match.end() :]
            if after[:1].isalpha():
                problems.append(f"declined name «{name}{after.split()[0]}»")
            following = re.match(r"\s+(?:не\s+)?([А-Яа-яЁё]+)", after)
            if following and _past_other(following.group(1)):
                problems.append(f"past tense after the name «{name} {following.group(1)}»")
            before = plain[: match.start()].rstrip()
            if before[-1:].isalpha():
                word = WORD.findall(before)[-1]
                if _past_other(word):
                    problems.append(f"past tense before the name «{word} {name}»")
                if word.lower() not in APPOSITION:
                    problems.append(f"«{word} {name}»: the name may be declined after «{word}»")
    return problems


def own_voice_problems(text: str) -> list[str]:
    """What is wrong in a Russian ``text`` a player says himself (a button: «👋 Я вернулся»),
    or in any text about a named player: any gendered form."""
    problems = []
    for word in WORD.findall(_strip_tags(text)):
        lower = word.lower()
        if lower in NOT_VERBS:
            continue
        if PAST_GENDERED.fullmatch(lower) or lower in IRREGULAR_PAST:
            problems.append(f"gendered past tense «{word}»")
        elif lower in GENDERED_SHORT:
            problems.append(f"gendered short form «{word}»")
    return problems


#: a text in the first person: the player's own words (or the bot's)
FIRST_PERSON = re.compile(r"(?<![А-Яа-яЁё])(?:я|мне|меня|мной)(?![А-Яа-яЁё])", re.IGNORECASE)


def english_problems(text: str) -> list[str]:
    problems = []
    if CYRILLIC.search(_strip_tags(text)):
        problems.append("Cyrillic in an English text")
    for match in ENGLISH_GENDER.finditer(text):
        problems.append(f"gendered «{match.group()}»")
    if re.search(r"\d+ a (?:trick|card|deal)\b", text):
        problems.append("«N a trick»")
    return problems


def _catalogue_problems() -> list[str]:
    found: dict[str, set[str]] = {}
    for key, name, text in renderings("ru"):
        for problem in gender_problems(text):
            found.setdefault(f"ru {key}", set()).add(f"{problem} (with {name})")
    for key, entry in catalogue("en").items():
        for _, form in _forms(entry):
            for problem in english_problems(form):
                found.setdefault(f"en {key}", set()).add(problem)
    for lang in LANGUAGES:
        for key, entry in catalogue(lang).items():
            if isinstance(entry, str) and COUNTED.search(entry):
                found.setdefault(f"{lang} {key}", set()).add(
                    "a counted noun after a number in a plain entry: make it a plural entry"
                )
    return [f"{key}: {'; '.join(sorted(problems))}" for key, problems in sorted(found.items())]


def test_the_scan_catches_what_it_must() -> None:
    """The checks themselves, on wrong lines players once read and on their right versions."""
    wrong = [
        "⏰ Вера не успел, ход за него: пас.",
        "💤 Вера отошёл — пока за него ходит бот.",
        "🤖 За Вера: пас.",
        "Алиса — ещё не сказал",
        "Алиса — стучит · купил 1 карту",
        "🏆 Вера взял 12 взяток и выиграл игру!",
        "Вера снёс карту",
        "Вера не добрал — платит Боря 2",
        "Вы отдали Вера 7♠",
        "Карты у Вера",
        "Отдайте карту Верау",
        "Боря ушла",
        "Вера отошли",
        "Вера готов",
    ]
    for text in wrong:
        assert gender_problems(text), text
    right = [
        "⏰ Время вышло — ход за игрока Вера: пас.",
        "💤 Вера пока не у стола — ходы за игрока делает бот.",
        "Алиса — ждёт очереди",
        "Алиса — стучит · покупка: 1 карта",
        "🏆 Вера: 12 взяток и больше — партия выиграна!",
        "Вера: норма не добрана — 2 игроку Боря",
        "Вы отдали игроку Вера: 7♠",
        "Кон был: 12",  # nobody named
        "<b>Вера</b> (сдаёт) — стучит",
    ]
    for text in right:
        assert not gender_problems(text), (text, gender_problems(text))
    assert english_problems("Pot: 3 · 1 a trick")
    assert english_problems("the bot plays for him")
    assert english_problems("in Стуколка")
    assert not english_problems("Pot: 3 · 1 per trick")


def test_a_players_own_words_are_right_for_any_player() -> None:
    """Every button is a player's own voice («👋 Я снова за столом», not «Я вернулся»), and so
    is any text in the first person: no gendered form in any of them."""
    assert own_voice_problems("👋 Я вернулся") and not own_voice_problems("👋 Я снова за столом")
    found = []
    for key, entry in catalogue("ru").items():
        for _, form in _forms(entry):
            if key.startswith("btn.") or FIRST_PERSON.search(form):
                found += [f"{key}: {problem}" for problem in own_voice_problems(form)]
    assert not found, found


def test_every_catalogue_text_is_right_for_any_player() -> None:
    problems = _catalogue_problems()
    assert not problems, f"{len(problems)} entries:\n" + "\n".join(problems)


# ---------------------------------------------------------------- real messages of real games

GAME_NAMES = {
    "ru": ["Вера", "Боря", "Алиса", "Вера2", "Боря2", "Алиса2"],
    "en": ["Vera", "Borya", "Alice", "Vera2", "Borya2", "Alice2"],
}


def _check(text: str, lang: str, names: list[str]) -> None:
    if lang == "ru":
        problems = [p for line in text.splitlines() for p in gender_problems(line, tuple(names))]
    else:
        problems = english_problems(text)
    assert not problems, (problems, text)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seed", range(6))
def test_rendered_stukolka_messages_are_right_for_any_player(lang: str, seed: int) -> None:
    rng = random.Random(seed)
    players = rng.randint(2, 6)
    names = GAME_NAMES[lang][:players]
    options = StukolkaOptions(
        variant=rng.choice(["classic", "shleif"]), dark_in_classic=rng.random() < 0.5
    )
    kind = "shleif" if options.shleif else "stukolka"
    states: list[StukolkaState] = stukolka_deal(options, players, seed)
    for state in states:
        view = stukolka_views.public_view(state)
        _check(stukolka_render.table_text(lang, view, names, kind=kind, away={0}), lang, names)
        for seat in range(players):
            hand = stukolka_views.seat_view(state, seat)
            _check(stukolka_render.hand_text(lang, hand, names, kind=kind), lang, names)
    final = stukolka_views.public_view(states[-1])
    balances = {seat: 0 for seat in range(players)}
    _check(stukolka_render.result_text(lang, final, names, balances, kind=kind), lang, names)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("seed", range(4))
def test_rendered_starshina_messages_are_right_for_any_player(lang: str, seed: int) -> None:
    rng = random.Random(seed)
    names = GAME_NAMES[lang][:3]
    options = StarshinaOptions(
        exchange=rng.choice(["updown", "ring"]), trumps=rng.choice(["none", "dealer_names"])
    )
    states: list[StarshinaState] = starshina_game(options, seed)
    for state in states:
        view = starshina_views.public_view(state)
        _check(starshina_render.table_text(lang, view, names, away={1}), lang, names)
        for seat in range(3):
            hand = starshina_views.seat_view(state, seat)
            _check(starshina_render.hand_text(lang, hand, names), lang, names)
        if view.history:
            balances = {seat: 0 for seat in range(3)}
            _check(starshina_render.result_text(lang, view, names, balances), lang, names)


def test_tricks_count_reads_right() -> None:
    assert tricks_count("ru", 21) == "21 взятка"
