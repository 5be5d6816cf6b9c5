"""Fault injection: make chosen Bot API requests fail the ways the real Telegram fails.

A :class:`FaultRule` matches requests by method and/or chat and fires a fault on the next
``times`` matches (or forever), each with a ``probability`` drawn from the injector's own seeded
``random.Random``, so a run is reproducible from its seed and its request order. Rules are
tried in the order they were added; the first that fires wins.

Faults and what the client sees:

* :class:`RetryAfter` -- 429 with ``parameters.retry_after`` (PTB raises ``RetryAfter``);
  the request is not performed.
* :class:`ServerError` -- a 5xx error reply (PTB raises ``NetworkError``); not performed.
* :class:`Delay` -- the reply comes ``seconds`` late; past the client's read timeout PTB
  raises ``TimedOut``. The request is still performed, as Telegram may do after a client gave
  up, so a retry can duplicate it: after the pause, or with ``after_processing=True`` at once
  (the message is there while the client still waits: a crash then is one after the send).
* :class:`DropConnection` -- the connection is closed without a reply (PTB raises
  ``NetworkError``); with ``after_processing=True`` the request was performed first.
* :class:`Before` -- something happens in Telegram just as the request arrives (``action``,
  say ``FakeTelegram.migrate_to_supergroup``); the request then meets the world it left (a
  send to a group that has just become a supergroup fails with ``migrate_to_chat_id``).

``getUpdates`` is only affected by rules that name it, so a catch-all rule does not stall
polling.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class RetryAfter:
    """Flood control: 429 ``Too Many Requests: retry after N``."""

    retry_after: int = 1


@dataclass(frozen=True)
class ServerError:
    """A 5xx reply, such as Telegram's occasional 500 or 502."""

    status: int = 500
    description: str = "Internal Server Error"


@dataclass(frozen=True)
class Delay:
    """Answer (and perform, unless ``after_processing``) the request only after ``seconds``."""

    seconds: float
    after_processing: bool = False


@dataclass(frozen=True)
class DropConnection:
    """Close the connection with no reply, before or after performing the request."""

    after_processing: bool = False


@dataclass(frozen=True)
class Before:
    """Run ``action`` just before the request is served (not a failure of its own)."""

    action: Callable[[], object]


Fault = RetryAfter | ServerError | Delay | DropConnection | Before


@dataclass(eq=False)
class FaultRule:
    """Which requests a fault hits: ``method`` and ``chat_id`` filters (``None`` = any).

    ``times`` counts down on every firing; ``None`` means the rule never runs out.
    ``fired`` counts how often it fired.
    """

    fault: Fault
    method: str | None = None
    chat_id: int | None = None
    times: int | None = 1
    probability: float = 1.0
    fired: int = 0

    def matches(self, method: str, chat_id: int | None) -> bool:
        """Whether the request is one this rule is about (ignoring ``times``)."""
        if self.times == 0:
            return False
        if self.method is None:
            if method.lower() == "getupdates":
                return False
        elif self.method.lower() != method.lower():
            return False
        return self.chat_id is None or self.chat_id == chat_id


class FaultInjector:
    """The active fault rules and the seeded random source for probabilistic ones."""

    def __init__(self, seed: int = 0) -> None:
        self.rules: list[FaultRule] = []
        self.rng = random.Random(seed)

    def seed(self, seed: int) -> None:
        """Restart the random sequence from ``seed``."""
        self.rng.seed(seed)

    def add(
        self,
        fault: Fault,
        *,
        method: str | None = None,
        chat_id: int | None = None,
        times: int | None = 1,
        probability: float = 1.0,
    ) -> FaultRule:
        """Add a rule; see :class:`FaultRule`. Returns it, e.g. to read ``fired`` or remove it."""
        if not 0.0 <= probability <= 1.0:
            raise ValueError("probability must be within [0, 1]")
        rule = FaultRule(
            fault=fault, method=method, chat_id=chat_id, times=times, probability=probability
        )
        self.rules.append(rule)
        return rule

    def remove(self, rule: FaultRule) -> None:
        """Deactivate a rule."""
        self.rules.remove(rule)

    def clear(self) -> None:
        """Remove every rule."""
        self.rules.clear()

    def pick(self, method: str, chat_id: int | None) -> Fault | None:
        """The fault for this request, if a rule fires; updates that rule's counters."""
        for rule in self.rules:
            if not rule.matches(method, chat_id):
                continue
            # The generator is only consulted for probabilistic rules, so adding a certain
            # rule does not shift the random sequence of the others.
            if rule.probability < 1.0 and self.rng.random() >= rule.probability:
                continue
            if rule.times is not None:
                rule.times -= 1
            rule.fired += 1
            return rule.fault
        return None
