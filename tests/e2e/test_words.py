"""End to end: the words of the game. Played against the fake Bot API in English:

- the first deal in which a player's hand shows shleif, razrez or remiz explains the word in
  one line under it — every revision of that deal's hand that shows the word — and no later
  deal does;
- the cards put away are "Discarded", never "Dropped";
- /rules in English says what the words mean.
"""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from tests.library import CHAT, WORDS

from .fake_telegram import FakeTelegram
from .players import start_bot_for
from .test_games import open_table

#: Стуколка's words, which the glossary explains
TERMS = CHAT.of("stukolka").terms

DEAL = re.compile(r"· deal (\d+)")


def _plain(html: str) -> str:
    return re.sub(r"<[^>]+>", "", html)


async def test_a_word_is_explained_the_first_deal_a_player_meets_it(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 4, "shleif", 5, language_code="en")
        db = table.db
        while await db.history.deal_count(table.group.id) < 4:
            assert await table.step(look_chance=0.6)
        await table.settle()
        glosses = {term: _plain(WORDS.t("en", f"gloss.{term}")) for term in TERMS}
        words = {term: WORDS.t("en", f"gloss.word.{term}") for term in TERMS}
        everyone: dict[str, int] = defaultdict(int)
        discarded = 0
        for user in table.users:
            first_met: dict[str, int] = {}
            glossed: dict[str, set[int]] = defaultdict(set)
            unexplained: list[tuple[str, int]] = []
            for message in fake.messages(fake.private_chat(user), from_bot=True):
                revisions: list[Any] = [*message.history, message]
                for revision in revisions:
                    text = revision.text or ""
                    found = DEAL.search(text)
                    if found is None:
                        continue
                    deal = int(found.group(1))
                    assert "Dropped" not in text
                    discarded += "Discarded: " in text
                    body = "\n".join(
                        line for line in text.splitlines() if not line.startswith("ℹ️")
                    ).lower()
                    for term in TERMS:
                        shown = glosses[term] in text
                        if words[term] in body:
                            first_met.setdefault(term, deal)
                            # the deal's last revision is the player's outcome, a result
                            if deal == first_met[term] and not shown and "your result" not in body:
                                unexplained.append((term, deal))
                        if shown:
                            glossed[term].add(deal)
            for term, deal in first_met.items():
                assert glossed[term] == {deal}, (user.first_name, term, first_met, glossed)
                everyone[term] += 1
            assert set(glossed) <= set(first_met)
            assert not unexplained, (user.first_name, unexplained)
        # every player met the shleif (the game's title) and the remiz (the pot line) in deal 1
        assert everyone["shleif"] == everyone["remiz"] == len(table.users)
        assert discarded
        assert not bot.handler_errors


async def test_rules_say_what_the_words_mean_in_english(tmp_path: Path) -> None:
    async with FakeTelegram() as fake, start_bot_for(fake, tmp_path / "bot.sqlite3") as bot:
        table = await open_table(fake, bot, 3, "shleif", 6, language_code="en")
        await table.say(table.users[0], "/lang en")
        await table.say(table.users[0], "/rules shleif")
        rules = table.group_messages()[-1].text or ""
        assert "Shleif (Russian for “train”)" in rules, rules
        assert "Razrez (Russian for “cut”)" in rules
        assert "remiz (a penalty)" in rules
        assert "drop" not in rules
        assert not bot.handler_errors
