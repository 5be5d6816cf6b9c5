"""The replay of a finished deal keeps dead cards face down (§1.3): a passer's, never one who
came back in by the razrez (§3)."""

from __future__ import annotations

from typing import Any

from game.stukolka.state import Roles
from tables.people import ranks_style
from tests.library import PAGES
from tests.web.fixtures import GAMES, NAMES, states
from web.endings import replay
from web.view_parts import TableInfo


def _deal_with_a_razrez() -> list[Any]:
    """The states of a random шлейф deal in which one passer came back by the razrez and
    another stayed out."""
    for seed in range(400):
        deal = [state for state in states("shleif", seed, deals=1) if state.deal_no == 0]
        roles = deal[-1].roles
        if deal[-1].deal_over and Roles.RAZREZ in roles and Roles.PASS in roles:
            return deal
    raise LookupError("no deal with a razrez")


def test_a_razrez_player_is_shown_and_a_passer_only_to_himself() -> None:
    deal = _deal_with_a_razrez()
    roles = deal[-1].roles
    came_back = roles.index(Roles.RAZREZ)
    passer = roles.index(Roles.PASS)
    players = GAMES["shleif"][2]
    info = TableInfo(names=NAMES[:players], version=0, ranks=ranks_style("ru", None))
    for you in range(players):
        dealt = replay(PAGES.of("stukolka"), deal, info, you)["steps"][0]["seats"]
        assert not dealt[came_back]["dead"] and dealt[came_back]["hand"]
        if you == passer:
            assert not dealt[passer]["dead"] and dealt[passer]["hand"]
        else:
            assert dealt[passer]["dead"] and dealt[passer]["hand"] == []
