"""/rules says what this chat's options make the rules, not the defaults."""

from __future__ import annotations

import pytest

from game.starshina.options import StarshinaOptions
from game.stukolka.options import StukolkaOptions
from tests.bot.texts import rules_text


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_stukolka_rules_follow_the_options(lang: str) -> None:
    default = rules_text(lang, "stukolka", StukolkaOptions())
    changed = rules_text(
        lang,
        "stukolka",
        StukolkaOptions(
            lone_player="dealer_defends",
            void_rule="head_only",
            compulsory_lead="every_lead",
            remiz_cap=12,
            ante_mode="obligatory",
        ),
    )
    assert default != changed
    assert "12" in changed
    shleif = rules_text(
        lang, "shleif", StukolkaOptions(variant="shleif", lone_player="dealer_defends")
    )
    defends = rules_text(lang, "stukolka", StukolkaOptions(lone_player="dealer_defends"))
    # in the shleif variant the lone player always takes the pot (docs/rules.md §1.3), whatever the
    # lone_player option says; in classic the option changes the text
    assert shleif == rules_text(lang, "shleif", StukolkaOptions(variant="shleif"))
    assert defends != default
    for text in (default, changed, shleif):
        assert len(text) < 1500


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_starshina_rules_follow_the_options(lang: str) -> None:
    updown = rules_text(lang, "starshina", StarshinaOptions())
    ring = rules_text(
        lang,
        "starshina",
        StarshinaOptions(exchange="ring", trumps="dealer_names", scoring="per_trick", max_deals=7),
    )
    assert updown != ring
    assert "7" in ring and "8-5-3" in updown
    assert len(ring) < 1500 and len(updown) < 1500
