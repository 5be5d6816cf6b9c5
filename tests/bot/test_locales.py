"""The catalogues: both languages complete, the same placeholders, correct plurals, and every key
the code uses present (literal keys found by scanning the source; key families built at run
time enumerated here)."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import locales
from bot.render.chat import ANSWERS, REFUSALS
from bot.render.common import MONEY_REASONS, option_names, value_token
from game.starshina.state import EndReason
from game.starshina.state import Phase as StarshinaPhase
from game.stukolka.state import Phase, Role
from locales import (
    DEFAULT_LANGUAGE,
    LANGUAGES,
    PLURAL_FORMS,
    catalogue,
    language,
    plural_form,
    t,
)
from tests.library import GAMES

#: every word of the program's games: the shared catalogue with each game's own
WORDS = GAMES.words

ROOT = Path(__file__).resolve().parents[2]
# WORDS.t(lang, "key" ...) / WORDS.tn(lang, "key", n ...), also called through a module (locales.t)
KEY_CALL = re.compile(r"""\btn?\(\s*[\w.\[\]"']+\s*,\s*"([a-z0-9_.]+)\"""")
# f"prefix.{...}" keys: the prefix must begin at least one key
FAMILY_CALL = re.compile(r"""\btn?\(\s*[\w.\[\]"']+\s*,\s*f"([a-z0-9_.]+)\{""")


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _entry_placeholders(entry: object) -> set[str]:
    if isinstance(entry, str):
        return _placeholders(entry)
    assert isinstance(entry, dict)
    return set().union(*(_placeholders(form) for form in entry.values()))


def _sources() -> list[Path]:
    files = sorted((ROOT / "bot").rglob("*.py")) + sorted((ROOT / "tables").rglob("*.py"))
    files += sorted((ROOT / "locales").rglob("*.py"))
    files += sorted((ROOT / "web").rglob("*.py")) + sorted((ROOT / "web").rglob("*.js"))
    assert files
    return files


def test_same_keys_in_every_language() -> None:
    keys = {lang: set(WORDS.catalogue(lang)) for lang in LANGUAGES}
    for lang in LANGUAGES:
        assert keys[lang] == keys[DEFAULT_LANGUAGE], (
            lang,
            sorted(keys[lang] ^ keys[DEFAULT_LANGUAGE]),
        )


def test_same_placeholders_in_every_language() -> None:
    base = WORDS.catalogue(DEFAULT_LANGUAGE)
    for lang in LANGUAGES:
        for key, entry in WORDS.catalogue(lang).items():
            assert _entry_placeholders(entry) == _entry_placeholders(base[key]), (lang, key)


def test_plural_entries_have_every_form_and_the_same_placeholders() -> None:
    for lang in LANGUAGES:
        for key, entry in WORDS.catalogue(lang).items():
            base_entry = WORDS.catalogue(DEFAULT_LANGUAGE)[key]
            assert isinstance(entry, dict) == isinstance(base_entry, dict), (lang, key)
            if isinstance(entry, dict):
                assert tuple(entry) == PLURAL_FORMS[lang], (lang, key)
                forms = {frozenset(_placeholders(form)) for form in entry.values()}
                assert len(forms) == 1, (lang, key)
                assert "n" in next(iter(forms)), (lang, key)


def test_every_entry_formats_and_has_no_stray_braces() -> None:
    for lang in LANGUAGES:
        for key, entry in WORDS.catalogue(lang).items():
            forms = entry.values() if isinstance(entry, dict) else [entry]
            for form in forms:
                params = {name: "X" for name in _placeholders(form)}
                text = form.format(**params)
                assert "{" not in text and "}" not in text, (lang, key)
                assert text.strip() == text or text.startswith(" "), (lang, key)


def test_every_literal_key_used_in_code_exists() -> None:
    used: set[str] = set()
    for path in _sources():
        text = path.read_text(encoding="utf-8")
        used.update(KEY_CALL.findall(text))
    assert len(used) > 50
    missing = sorted(used - set(WORDS.catalogue(DEFAULT_LANGUAGE)))
    assert not missing, missing


#: a call of the shared catalogue's own t()/tn() (``t(``, ``locales.t(``; not ``words.t(``)
SHARED_CALL = re.compile(
    r"""(?:(?<![\w.])|\blocales\.)tn?\(\s*[\w.\[\]"']+\s*,\s*"([a-z0-9_.]+)\""""
)


def test_the_shared_functions_read_only_shared_keys() -> None:
    """``locales.t``/``tn`` know no game's words: a key a game brings is read through the words
    that hold it (a game's own, or the catalogue's of every game offered), never through them.
    """
    used: set[str] = set()
    for path in _sources():
        used.update(SHARED_CALL.findall(path.read_text(encoding="utf-8")))
    assert len(used) > 50
    missing = sorted(used - set(catalogue(DEFAULT_LANGUAGE)))
    assert not missing, missing
    with pytest.raises(KeyError):
        t("ru", "btn.knock")  # Стуколка's own
    assert WORDS.t("ru", "btn.knock") == "Стучу!"


def test_every_key_family_used_in_code_has_keys() -> None:
    keys = set(WORDS.catalogue(DEFAULT_LANGUAGE))
    for path in _sources():
        for prefix in FAMILY_CALL.findall(path.read_text(encoding="utf-8")):
            assert any(key.startswith(prefix) for key in keys), (path.name, prefix)


def test_dynamic_key_families_are_complete() -> None:
    keys = set(WORDS.catalogue(DEFAULT_LANGUAGE))
    expected = {f"role.{role.value}" for role in Role}
    expected |= {f"money.{reason}" for reason in MONEY_REASONS}
    expected |= {
        f"play_rule.{reason}"
        for reason in (
            "must_lead_trump_ace",
            "must_lead_trump_king",
            "must_follow_suit",
            "must_beat",
            "must_trump",
            "must_overtrump",
        )
    }
    expected |= {f"phase.{phase.value}" for phase in Phase}
    expected |= {
        f"starshina.phase.{phase.value}"
        for phase in StarshinaPhase
        if phase is not StarshinaPhase.DEAL_OVER
    }
    expected |= {f"starshina.won.{reason.value}" for reason in EndReason}
    expected |= {f"refuse.{reason}" for reason in REFUSALS}
    expected |= {f"answer.{key}" for key in ANSWERS}
    expected |= {f"game.{kind}" for kind in ("stukolka", "shleif", "starshina")}
    for plugin in GAMES:
        game, choices = plugin.rules.kind, plugin.menu.values
        # the game's own line in /help and its name in the /start welcome
        expected |= {f"about.{game}", f"welcome.{game}"}
        assert set(choices) == set(option_names(GAMES.of(game)))
        for option, values in choices.items():
            expected.add(f"opt.{game}.{option}")
            expected.add(f"help.{game}.{option}")
            for value in values:
                if value is None or not isinstance(value, int) or isinstance(value, bool):
                    expected.add(f"val.{game}.{option}.{value_token(value)}")
    missing = sorted(expected - keys)
    assert not missing, missing


@pytest.mark.parametrize(
    ("n", "form"),
    [
        (0, "many"),
        (1, "one"),
        (2, "few"),
        (4, "few"),
        (5, "many"),
        (11, "many"),
        (12, "many"),
        (14, "many"),
        (21, "one"),
        (22, "few"),
        (25, "many"),
        (101, "one"),
        (111, "many"),
        (112, "many"),
        (122, "few"),
        (-1, "one"),
    ],
)
def test_russian_plural_forms(n: int, form: str) -> None:
    assert plural_form("ru", n) == form


def test_trick_plurals_read_right() -> None:
    assert WORDS.tn("ru", "n.tricks", 1) == "1 взятка"
    assert WORDS.tn("ru", "n.tricks", 2) == "2 взятки"
    assert WORDS.tn("ru", "n.tricks", 5) == "5 взяток"
    assert WORDS.tn("ru", "n.tricks", 11) == "11 взяток"
    assert WORDS.tn("ru", "n.tricks", 21) == "21 взятка"
    assert WORDS.tn("ru", "n.tricks", 22) == "22 взятки"
    assert WORDS.tn("ru", "n.tricks", 0) == "0 взяток"
    assert WORDS.tn("en", "n.tricks", 1) == "1 trick"
    assert WORDS.tn("en", "n.tricks", 0) == "0 tricks"
    assert WORDS.tn("en", "n.tricks", 21) == "21 tricks"


def test_english_plural_forms() -> None:
    assert [plural_form("en", n) for n in (0, 1, 2, 11, 21)] == [
        "other",
        "one",
        "other",
        "other",
        "other",
    ]


def test_unknown_language_is_the_default() -> None:
    assert language("de") == DEFAULT_LANGUAGE
    assert language(None) == DEFAULT_LANGUAGE
    assert language("en-US") == "en"
    assert language("EN") == "en"
    assert WORDS.t("xx", "btn.knock") == WORDS.t(DEFAULT_LANGUAGE, "btn.knock") == "Стучу!"
    assert WORDS.tn("zz", "n.tricks", 3) == "3 взятки"


def test_missing_key_and_wrong_kind_raise() -> None:
    with pytest.raises(KeyError):
        WORDS.t("ru", "no.such.key")
    with pytest.raises(KeyError):
        WORDS.t("ru", "n.tricks")
    with pytest.raises(KeyError):
        WORDS.tn("ru", "btn.knock", 2)


def test_card_table_words() -> None:
    assert WORDS.t("ru", "btn.knock") == "Стучу!"
    assert WORDS.t("ru", "btn.pass") == "Пас"
    assert WORDS.t("ru", "btn.dark") == "Втёмную"
    assert WORDS.t("ru", "btn.razrez") == "В разрез"
    assert WORDS.t("ru", "btn.shleif") == "Шлейф"
    assert WORDS.t("ru", "btn.open") == "Открыть козырь"
    assert WORDS.t("ru", "btn.buy", n=2) == "Купить 2"
    assert WORDS.t("ru", "btn.keep") == "Оставить все"
    assert WORDS.t("ru", "seat.dealer", name="X") == "Сдаёт: X"


def test_every_catalogue_key_is_used() -> None:
    """No dead entries: each key appears literally in the code, or under a prefix the code
    builds keys from (``f"role.{...}"``)."""
    source = "\n".join(path.read_text(encoding="utf-8") for path in _sources())
    families = {prefix for prefix in FAMILY_CALL.findall(source)}
    families |= set(re.findall(r'f"([a-z0-9_.]+\.)\{', source))
    unused = [
        key
        for key in WORDS.catalogue(DEFAULT_LANGUAGE)
        if f'"{key}"' not in source and not any(key.startswith(prefix) for prefix in families)
    ]
    assert not unused, unused


CATALOGUE_FILES = sorted(
    path.relative_to(ROOT / "locales").as_posix() for path in (ROOT / "locales").rglob("*.json")
)


@pytest.mark.parametrize("name", CATALOGUE_FILES)
def test_no_key_is_written_twice(name: str) -> None:
    """JSON keeps the last of two equal keys silently: an earlier text would be dead, and which
    one shows would depend on the order of lines (two engineers adding the same key)."""
    import json

    repeated: list[str] = []

    def collect(pairs: list[tuple[str, object]]) -> dict[str, object]:
        keys = [key for key, _ in pairs]
        repeated.extend(sorted({key for key in keys if keys.count(key) > 1}))
        return dict(pairs)

    text = (ROOT / "locales" / name).read_text(encoding="utf-8")
    json.loads(text, object_pairs_hook=collect)
    assert repeated == []


def test_a_games_words_are_its_own() -> None:
    """The shared catalogues hold no key that names a game; each game's words come from its
    own files (``locales/games/<kind>/``), in every language the same keys, and none of them
    is in the shared catalogues too (registering the game would refuse it)."""
    import json

    kinds = [game.rules.kind for game in GAMES]
    for lang in LANGUAGES:
        shared = json.loads((ROOT / "locales" / f"{lang}.json").read_text(encoding="utf-8"))
        naming = [key for key in shared if set(key.split(".")) & set(kinds)]
        assert naming == [], (lang, naming)
    for kind in kinds:
        own = locales.game_entries(kind)
        assert set(own) == set(LANGUAGES), kind
        assert len({frozenset(entries) for entries in own.values()}) == 1, kind
        for lang, entries in own.items():
            assert set(entries) <= set(WORDS.catalogue(lang)), (kind, lang)
            assert not set(entries) & set(catalogue(lang)), (kind, lang)


def test_one_spelling_of_vtyomnuyu() -> None:
    """«втёмную» is written one way: with ё, in every Russian text a player may read (the
    catalogues, the terminal game's words, the rules and the guides; the golden transcripts
    are made of the catalogues' texts)."""
    texts = [*(ROOT / "locales").rglob("*.json"), *(ROOT / "docs").glob("*.md")]
    texts += [*(ROOT / "game").rglob("*.py"), *(ROOT / "web" / "static").rglob("*")]
    found = 0
    for path in texts:
        if not path.is_file() or path.suffix in (".png", ".ico", ".woff2"):
            continue
        text = path.read_text(encoding="utf-8").lower()
        assert "втемную" not in text, path.relative_to(ROOT)
        found += text.count("втёмную")
    assert found > 10
