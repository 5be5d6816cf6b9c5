"""Стуколка table options (docs/rules.md §1, "Table options"): frozen, validated, with presets.

``OptionsError`` (shared by every game) is what a bad option raises."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Literal

from game.core import OptionsError, options_from_json

Variant = Literal["classic", "shleif"]
AnteMode = Literal["dealer", "obligatory"]
LonePlayer = Literal["takes_pot", "dealer_defends"]
VoidRule = Literal["must_trump", "head_only"]
CompulsoryLead = Literal["first_lead", "every_lead"]

MIN_PLAYERS = 2
MAX_PLAYERS = 6

_CHOICES: dict[str, tuple[str, ...]] = {
    "variant": ("classic", "shleif"),
    "ante_mode": ("dealer", "obligatory"),
    "lone_player": ("takes_pot", "dealer_defends"),
    "void_rule": ("must_trump", "head_only"),
    "compulsory_lead": ("first_lead", "every_lead"),
}


@dataclass(frozen=True, kw_only=True, slots=True)
class StukolkaOptions:
    """The options of docs/rules.md §1; defaults are the bold ones."""

    variant: Variant = "classic"
    stake: int = 3
    ante_mode: AnteMode = "dealer"
    lone_player: LonePlayer = "takes_pot"
    void_rule: VoidRule = "must_trump"
    compulsory_lead: CompulsoryLead = "every_lead"
    remiz_cap: int | None = None
    dark_in_classic: bool = False

    def __post_init__(self) -> None:
        for name, allowed in _CHOICES.items():
            if getattr(self, name) not in allowed:
                raise OptionsError(f"{name} must be one of {', '.join(allowed)}")
        if isinstance(self.stake, bool) or not isinstance(self.stake, int):
            raise OptionsError("stake must be a whole number")
        if self.stake <= 0 or self.stake % 3:
            raise OptionsError("stake must be a positive multiple of 3")
        cap = self.remiz_cap
        if cap is not None and (isinstance(cap, bool) or not isinstance(cap, int) or cap <= 0):
            raise OptionsError("remiz_cap must be empty or a positive whole number")
        if not isinstance(self.dark_in_classic, bool):
            raise OptionsError("dark_in_classic must be on or off")

    @property
    def shleif(self) -> bool:
        return self.variant == "shleif"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_json(data: dict[str, Any]) -> StukolkaOptions:
        return options_from_json(StukolkaOptions, data)


PRESETS: dict[str, StukolkaOptions] = {
    "classic": StukolkaOptions(),
    "shleif": StukolkaOptions(variant="shleif"),
}
