"""Старшина table options (docs/rules.md §4, "Table options"): frozen, validated, with presets."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from game.core import OptionsError, options_from_json

Targets = Literal["8-5-3", "9-5-2"]
Exchange = Literal["updown", "ring"]
Trumps = Literal["none", "dealer_names"]
Scoring = Literal["pot", "per_trick"]
NextDealer = Literal["loser", "winner"]

PLAYERS = 3
"""§4: exactly three players."""

#: dealer / left neighbour / right neighbour; each pair sums to the 16 tricks of a deal
TARGETS: dict[str, tuple[int, int, int]] = {"8-5-3": (8, 5, 3), "9-5-2": (9, 5, 2)}

_CHOICES: dict[str, tuple[str, ...]] = {
    "targets": tuple(TARGETS),
    "exchange": ("updown", "ring"),
    "trumps": ("none", "dealer_names"),
    "scoring": ("pot", "per_trick"),
    "next_dealer": ("loser", "winner"),
}


def _positive_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


@dataclass(frozen=True, kw_only=True, slots=True)
class StarshinaOptions:
    """The options of docs/rules.md §4; defaults are the bold ones."""

    targets: Targets = "8-5-3"
    stake: int = 1
    exchange: Exchange = "ring"
    trumps: Trumps = "none"
    scoring: Scoring = "pot"
    next_dealer: NextDealer = "loser"
    max_deals: int = 20

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise OptionsError(f"{name} must be one of {', '.join(allowed)}")
        if not _positive_int(self.stake):
            raise OptionsError("stake must be a positive whole number")
        if not _positive_int(self.max_deals):
            raise OptionsError("max_deals must be a positive whole number")

    @property
    def target_by_position(self) -> tuple[int, int, int]:
        """The targets of the dealer, his left and his right neighbour (§4.1 step 6)."""
        return TARGETS[self.targets]

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, Any]) -> StarshinaOptions:
        return options_from_json(StarshinaOptions, data)


PRESETS: dict[str, StarshinaOptions] = {
    "as_written": StarshinaOptions(),
    "british": StarshinaOptions(exchange="updown", trumps="dealer_names"),
}
"""§4 "Presets": the text as written (the defaults: the ring exchange, no trumps) and the British
Sergeant Major (the updown exchange, the dealer names trump)."""
