"""Texts that are not a deal: the lobby, /balance, settle-up, /history, /rules, the private
/start welcome, announcements to the table, and the short refusals shown as callback answers
(plain text, at most 200 characters). The menus' texts are ``bot.render.menus``'s."""

from __future__ import annotations

import html
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from bot.render.common import (
    ANSWER_LIMIT,
    esc,
    game_title,
    label,
    options_summary,
    short_answer,
    suit,
)
from game.cards import CARD_SET, SUITS
from game.core import Action
from locales import Words, listed, signed, t, tn
from tables.events import TableEvent
from tables.settle_up import settle

if TYPE_CHECKING:
    from bot.games.plugin import ChatGame
    from game.registry import JsonObject
    from tables.games import Plugin

K = TypeVar("K", bound=Hashable)

# ---------------------------------------------------------------- lobby


@dataclass(frozen=True, slots=True)
class LobbyPlayer:
    """A seated player as the lobby shows him. ``reachable``: the bot can write to him in
    private; if not, ``start_payload`` is put in a deep link so he can start the bot."""

    name: str
    reachable: bool
    start_payload: str | None = None


def deep_link(bot_username: str, payload: str) -> str:
    return f"https://t.me/{bot_username}?start={payload}"


def lobby_text(
    lang: str,
    game: Plugin,
    options: JsonObject,
    players: Sequence[LobbyPlayer],
    creator: str,
    bot_username: str,
    *,
    practice: bool = False,
    started: bool = False,
) -> str:
    """The lobby message: the game (its choice, as ``options`` make it), its options, how many
    players it needs, who opened the table, and the seated players, each marked reachable in
    private or given a link to start the bot. A ``practice`` table (a player's own, in his
    private chat) names no opener and says how to seat the computers. Once the game has
    ``started``: that it has, that its table is below, and who plays."""
    fewest, most = game.rules.min_players, game.rules.max_players
    kind = game.choice_of(options)
    needed = (
        tn(lang, "lobby.needed_exactly", fewest)
        if fewest == most
        else t(lang, "lobby.needed_range", fewest=fewest, most=most)
    )
    title = "lobby.practice_title" if practice else "lobby.title"
    if started:
        title = "lobby.practice_started" if practice else "lobby.started"
    lines = [
        t(lang, title, game=game_title(game.words, lang, kind)),
        t(lang, "lobby.options", summary=options_summary(lang, game, options)),
    ]
    if started:
        # the seats are taken: who plays, no more what the table needs
        lines += ["", tn(lang, "lobby.playing", len(players))]
        lines += [
            t(lang, "lobby.player", number=number, name=esc(player.name))
            for number, player in enumerate(players, start=1)
        ]
        return "\n".join(lines)
    lines.append(needed)
    if not practice:
        lines.append(t(lang, "lobby.creator", name=esc(creator)))
    lines += ["", tn(lang, "lobby.seated", len(players))]
    unreachable = False
    for number, player in enumerate(players, start=1):
        if player.reachable:
            lines.append(t(lang, "lobby.player_ok", number=number, name=esc(player.name)))
            continue
        unreachable = True
        if player.start_payload:
            link = html.escape(deep_link(bot_username, player.start_payload), quote=True)
            lines.append(
                t(lang, "lobby.player_link", number=number, name=esc(player.name), link=link)
            )
        else:
            lines.append(t(lang, "lobby.player_unreachable", number=number, name=esc(player.name)))
    if unreachable:
        lines.append("")
        lines.append(t(lang, "lobby.hint_private"))
    if practice:
        lines += ["", t(lang, "lobby.practice_hint")]
    return "\n".join(lines)


# ---------------------------------------------------------------- money


def balance_text(
    lang: str,
    balances: Mapping[K, int],
    names: Mapping[K, str],
    pot: int,
    game_pot: int = 0,
    *,
    practice: bool = False,
    has_pot: bool = True,
) -> str:
    """/balance: every player's balance, highest first, then the pots the chat has: its own
    (unless it has none: ``has_pot`` false and empty, a chat that never played a game that
    plays for it) and that of its open games, if any; ``practice``: those of a player's
    practice table."""
    lines = [t(lang, "balance.practice_title" if practice else "balance.title")]
    if not balances:
        lines.append(t(lang, "balance.empty"))
    for key in sorted(balances, key=lambda key: (-balances[key], names[key])):
        lines.append(t(lang, "balance.line", name=esc(names[key]), amount=signed(balances[key])))
    pots = [t(lang, "balance.pot", pot=pot)] if pot or has_pot else []
    if game_pot:
        pots.append(t(lang, "balance.game_pot", pot=game_pot))
    return "\n".join([*lines, "", *pots] if pots else lines)


def own_balances_text(lang: str, items: Sequence[tuple[str | None, int]]) -> str:
    """Private /balance: the user's balance in each group (title, amount), or that he has none
    yet."""
    if not items:
        return t(lang, "balance.private")
    lines = [t(lang, "balance.own_title")]
    for title, amount in items:
        group = esc(title) if title else t(lang, "balance.untitled")
        lines.append(t(lang, "balance.own_line", group=group, amount=signed(amount)))
    return "\n".join(lines)


def settle_up_text(
    lang: str, balances: Mapping[int, int], names: Mapping[int, str], pot: int
) -> str:
    """Settle-up: who pays whom among the people (``tables.settle_up``); the pot stays on the
    table, and where the computers stand is said apart: nobody pays or is paid by one."""
    settled = settle(balances)
    lines = [t(lang, "settle.title")]
    if not settled.payments:
        # square, or down only to the pot and the computers: nobody owes another player
        lines.append(t(lang, "settle.nothing" if settled.square else "settle.no_payments"))
    for payer, payee, amount in settled.payments:
        lines.append(
            t(lang, "settle.line", payer=esc(names[payer]), payee=esc(names[payee]), amount=amount)
        )
    if share := settled.pot_share(pot):
        # whose chips the pot holds: what each loser still owes once the payments are made
        items = ", ".join(f"{esc(names[key])} {amount}" for key, amount in share.items())
        lines += ["", t(lang, "settle.pot_share", pot=pot, items=items)]
    elif pot:
        lines.append("")
        lines.append(t(lang, "settle.pot", pot=pot))
    if settled.computers:
        standing = ", ".join(
            f"{esc(names[key])} {signed(amount)}" for key, amount in settled.computers
        )
        lines.append("")
        lines.append(t(lang, "settle.computers", computers=standing))
    return "\n".join(lines)


# ---------------------------------------------------------------- history


# ---------------------------------------------------------------- rules, help, welcome


def rules_text(lang: str, game: ChatGame, choice: str, options: JsonObject) -> str:
    """/rules: a phone-sized summary of a game's rules as this chat's options make them (every
    option shows in the rules it changes: the game's own ``rules_text``), and where the
    options themselves are: /settings lists the settings, /rules the rules."""
    lines = [t(lang, "rules.title", game=game_title(game.game.words, lang, choice)), ""]
    lines.append(game.rules_text(lang, choice, options))
    lines.append("")
    lines.append(t(lang, "rules.settings_hint"))
    return "\n".join(lines)


def start_text(lang: str, bot_username: str, games: Iterable[Plugin]) -> str:
    """The first /start in private: what the bot is (the games, each as its own words name it
    there), and a link to add it to a group."""
    link = html.escape(f"https://t.me/{bot_username}?startgroup=true", quote=True)
    named = listed(
        lang, [game.words.t(lang, f"welcome.{game.rules.kind}") for game in games], "and"
    )
    return t(lang, "start.text", link=link, games=named)


def start_joined_text(lang: str) -> str:
    """/start with a lobby's deep-link payload: the player can now get his cards here."""
    return t(lang, "start.joined")


#: group commands with their own line in a private chat; the others share one
GROUP_ONLY_OWN = frozenset({"top", "history", "export", "evening"})


def group_only_text(lang: str, command: str) -> str:
    """A group command sent in a private chat: in one line, that it belongs to a group, and
    what to send there."""
    if command in GROUP_ONLY_OWN:
        return t(lang, f"group_only.{command}")
    return t(lang, "group_only.command", command=f"/{command}")


# ---------------------------------------------------------------- announcements


def move_text(words: Words, lang: str, action: Action) -> str:
    """A move as the whole table may hear of it, in the ``words`` of its game: cards only
    where the move shows them (a played card, a named trump); a discarded, dropped or
    exchanged card never."""
    verb = action.verb
    arg = action.arg
    if verb == "play" and isinstance(arg, str) and arg in CARD_SET:
        return t(lang, "move.play", card=label(arg))
    if verb == "trump" and isinstance(arg, str) and len(arg) == 1 and arg in SUITS:
        return t(lang, "move.trump", suit=suit(arg))
    if verb in ("play", "trump"):
        return t(lang, "move.made")
    if verb == "discard":
        count = len(arg) if isinstance(arg, tuple) else 0
        return tn(lang, "move.discard", count) if count else t(lang, "move.keep")
    # a move without an argument worth telling: its own words if its game has any
    # (``move.<verb>``), else «move made»
    plain = f"move.{verb}"
    return words.t(lang, plain if plain in words.catalogue(lang) else "move.made")


def timeout_text(words: Words, lang: str, name: str, action: Action) -> str:
    """«Time is up for X: made the default move (which)»."""
    return t(lang, "announce.timeout", name=esc(name), move=move_text(words, lang, action))


def away_text(lang: str, name: str) -> str:
    return t(lang, "announce.away", name=esc(name))


def back_text(lang: str, name: str) -> str:
    return t(lang, "announce.back", name=esc(name))


def left_text(lang: str, name: str, *, mid_deal: bool = False) -> str:
    """X left the table (mid-deal: his cards are played automatically to the end of the deal)."""
    return t(lang, "announce.left_mid_deal" if mid_deal else "announce.left", name=esc(name))


def joined_text(lang: str, name: str) -> str:
    return t(lang, "announce.joined", name=esc(name))


def stays_text(lang: str, name: str) -> str:
    """X, who was leaving after the deal, stays after all."""
    return t(lang, "announce.stays", name=esc(name))


def stopping_text(lang: str, *, now: bool, pot: int | None = None) -> str:
    """The table stops with its deal in play: the bot plays it out (``now``: /stop now), or
    it ends after it — with the chat's ``pot`` named when a large one waits (the table offers
    to play on). Kept above the table's latest notices, however many come after it."""
    if now:
        return t(lang, "announce.stop_now")
    if pot is not None:
        return t(lang, "announce.stop_large_pot", pot=tn(lang, "count.chips", pot))
    return t(lang, "announce.stop_after_deal")


def practice_stop_text(lang: str, event: TableEvent) -> str:
    """The answer to /stop at a practice table, whose hand message (above the command) shows
    it: the lobby closed, the deal played out at once and the table closed, the bot playing it
    out, or the table closing after the deal."""
    now = any(notice.key == "stop_now" for notice in event.notices)
    if event.closed:
        return t(lang, "stop.practice_done" if event.results else "stop.practice_closed")
    return t(lang, "stop.practice_now" if now else "stop.practice_after_deal")


def stopped_text(lang: str, by: str | None = None) -> str:
    """The table was stopped (by someone, or by the bot)."""
    if by is None:
        return t(lang, "announce.stopped")
    return t(lang, "announce.stopped_by", name=esc(by))


def cancelled_text(lang: str, by: str) -> str:
    """The lobby was closed before the game began."""
    return t(lang, "announce.cancelled", name=esc(by))


def private_hint_text(lang: str, bot_username: str) -> str:
    """Sent to the group when a player's cards could not be delivered in private."""
    link = html.escape(f"https://t.me/{bot_username}", quote=True)
    return t(lang, "announce.private_hint", link=link)


# ---------------------------------------------------------------- callback answers

#: every reason a press or command may be refused, whatever the game: the bot's own, then
#: the engines' common ``IllegalAction`` reason codes; each has the key ``refuse.<reason>``
REFUSALS = (
    "not_your_turn",
    "outdated",
    "not_allowed",
    "game_over",
    "unknown_button",
    "not_at_table",
    "creator_or_admin_only",
    "admin_only",
    "creator_only",
    "already_seated",
    "table_full",
    "no_computers",
    "no_hints",
    "hint_failed",
    "table_exists",
    "not_enough_players",
    "game_running",
    "no_game",
    "unknown_game",
    "not_away",
    "start_bot_first",
    "kick_not_away",
    "kick_usage",
    "no_such_seat",
    "already_voted",
    "storage",
    "deal_over",
    "wrong_phase",
    "wrong_action",
    "malformed",
    "not_in_hand",
    "duplicate_card",
)


def refusal(
    words: Words,
    lang: str,
    reason: str,
    names: Sequence[str] = (),
    *,
    html: bool = False,
    choices: Sequence[str] = (),
) -> str:
    """A short answer (≤ 200 characters) for a refused press or command: one of ``REFUSALS``
    (the engine's reason codes included); anything else reads as «not allowed». ``names``: the
    players the refusal is about (``start_bot_first``: exactly those who have not started the
    bot), escaped for a message when ``html``, plain for a callback answer; ``choices``: the
    words /new takes (``unknown_game`` lists them)."""
    if reason == "start_bot_first" and names:
        named = ", ".join(esc(name) if html else name for name in names)
        return short_answer(t(lang, "refuse.start_bot_first_named", names=named))
    if reason == "unknown_game":
        return short_answer(t(lang, "refuse.unknown_game", choices=listed(lang, choices, "or")))
    # a game's own reasons (``refuse.<reason>``: a card that must follow, a look refused…)
    # are in its ``words``
    known = reason in REFUSALS or f"refuse.{reason}" in words.catalogue(lang)
    return short_answer(words.t(lang, f"refuse.{reason if known else 'not_allowed'}"))


def answer_text(lang: str, key: str) -> str:
    """A short positive callback answer (plain text): ``joined``, ``left``, ``look``, ``done``,
    ``welcome_back``."""
    return short_answer(t(lang, f"answer.{key}"))


ANSWERS = ("joined", "left", "look", "done", "welcome_back", "selected", "computer_seated")

__all__ = [
    "ANSWERS",
    "ANSWER_LIMIT",
    "REFUSALS",
    "LobbyPlayer",
    "answer_text",
    "away_text",
    "back_text",
    "balance_text",
    "cancelled_text",
    "deep_link",
    "esc",
    "joined_text",
    "left_text",
    "lobby_text",
    "move_text",
    "own_balances_text",
    "private_hint_text",
    "refusal",
    "rules_text",
    "settle_up_text",
    "start_joined_text",
    "start_text",
    "stays_text",
    "stopped_text",
    "timeout_text",
]
