"""A state declared once: its JSON round trip and its copy are derived from its dataclass fields.

A game's state (or a record inside it) subclasses ``Stored`` and is a dataclass; each field's
type says how it is written: numbers, strings, booleans and None as they are, enums by value,
lists and tuples item by item (a tuple as a JSON list), and any other class by its own
``to_json`` / ``from_json``. ``HEADER`` holds keys written first and checked on load (the
schema and the game). A field's ``metadata`` may add ``ABSENT`` (a factory for a key missing
from a state stored before the field was added) and ``SHARED_ITEMS`` (the copy copies the list
but shares its items: the engine appends to it and never changes an item in place).

``copy`` is what a computer player's search plays out on: every list is copied down to items
that cannot change (strings, numbers, tuples, enums, frozen dataclasses).
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Mapping
from enum import Enum
from typing import Any, ClassVar, Generic, Self, TypeVar

Convert = Callable[[Any], Any]
T = TypeVar("T")

ABSENT = "absent"
"""Field metadata key: a factory for the field's value where stored JSON lacks its key."""
SHARED_ITEMS = "shared_items"
"""Field metadata key (True): the copy copies the list but shares its items."""


class Stored:
    """``to_json``, ``from_json`` and ``copy`` of a dataclass, derived from its fields."""

    __slots__ = ()
    HEADER: ClassVar[Mapping[str, object]] = {}

    def to_json(self) -> dict[str, Any]:
        """The whole object as one JSON object; ``from_json`` gives an equal one back."""
        return _plan(type(self)).dump(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Self:
        plan: _Plan[Self] = _plan(cls)
        return plan.load(data)

    def copy(self) -> Self:
        """A copy whose lists can change without touching this one's."""
        plan: _Plan[Self] = _plan(type(self))
        return plan.copy(self)

    @classmethod
    def copy_of(cls, other: Stored) -> Self:
        """A copy of ``other``, an object of a class ``cls`` extends with behaviour alone (no
        fields of its own), as a ``cls``."""
        plan: _Plan[Self] = _plan(cls)
        return plan.copy(other)  # type: ignore[arg-type]


class _Plan(Generic[T]):
    """How one class is written, read and copied: one converter per field (None: as it is)."""

    def __init__(self, cls: type[T]) -> None:
        self.cls = cls
        self.header: Mapping[str, object] = getattr(cls, "HEADER", {})
        hints = typing.get_type_hints(cls)
        self.fields: list[tuple[str, Convert | None, Convert | None, Convert | None]] = []
        self.absent: dict[str, Callable[[], Any]] = {}
        for item in dataclasses.fields(cls):  # type: ignore[arg-type]
            dump, load, copy = _converters(hints[item.name])
            if item.metadata.get(SHARED_ITEMS):
                copy = list
            if ABSENT in item.metadata:
                self.absent[item.name] = item.metadata[ABSENT]
            self.fields.append((item.name, dump, load, copy))
        copies = [(name, copy) for name, _, _, copy in self.fields]
        self.copy: Callable[[T], T] = _copier(cls, copies)

    def dump(self, obj: T) -> dict[str, Any]:
        data: dict[str, Any] = dict(self.header)
        for name, dump, _, _ in self.fields:
            value = getattr(obj, name)
            data[name] = value if dump is None else dump(value)
        return data

    def load(self, data: Mapping[str, Any]) -> T:
        if any(data.get(key) != value for key, value in self.header.items()):
            raise ValueError(f"not a {self.cls.__name__} of a known schema")
        values: dict[str, Any] = {}
        for name, _, load, _ in self.fields:
            if name in data:
                value = data[name]
            elif name in self.absent:
                value = self.absent[name]()
            else:
                raise ValueError(f"{self.cls.__name__}: {name!r} is missing")
            values[name] = value if load is None or value is None else load(value)
        return self.cls(**values)


def _copier(cls: type[T], fields: list[tuple[str, Convert | None]]) -> Callable[[T], T]:
    """A function that copies an object of ``cls`` field by field, written out as the
    dataclasses module writes its ``__init__``: a computer's search copies a state for every
    playout, and a loop over the fields costs it half as much again."""
    scope: dict[str, Any] = {"new": object.__new__, "cls": cls}
    lines = ["def copy(obj):", "    made = new(cls)"]
    for index, (name, convert) in enumerate(fields):
        if convert is None:
            lines.append(f"    made.{name} = obj.{name}")
        else:
            scope[f"c{index}"] = convert
            lines.append(f"    made.{name} = c{index}(obj.{name})")
    lines.append("    return made")
    exec("\n".join(lines), scope)  # the names are the dataclass's own fields
    copy: Callable[[T], T] = scope["copy"]
    return copy


_PLANS: dict[type[Any], _Plan[Any]] = {}


def _plan(cls: type[T]) -> _Plan[T]:
    plan = _PLANS.get(cls)
    if plan is None:
        plan = _PLANS[cls] = _Plan(cls)
    return plan


def _converters(kind: Any) -> tuple[Convert | None, Convert | None, Convert | None]:
    """How a value of the type ``kind`` is written to JSON, read back and copied (None: as it
    is, and for a copy: it cannot change)."""
    origin, args = typing.get_origin(kind), typing.get_args(kind)
    if kind in (int, str, bool, float, types.NoneType):
        return None, None, None
    if origin in (typing.Union, types.UnionType):
        parts = [_converters(arg) for arg in args if arg is not types.NoneType]
        if len(parts) == 1:
            return tuple(_or_none(convert) for convert in parts[0])  # type: ignore[return-value]
        if any(convert is not None for part in parts for convert in part):
            raise TypeError(f"cannot tell the parts of {kind} apart in JSON")
        return None, None, None
    if origin is list:
        return _each(args[0], list)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            dump, load, _ = _each(args[0], tuple)
            return dump, load, None
        parts = [_converters(arg) for arg in args]
        if any(convert is not None for part in parts for convert in part):
            raise TypeError(f"a tuple of {args}: only plain values are written")
        return list, tuple, None
    if isinstance(kind, type) and issubclass(kind, Enum):
        return _enum(kind)
    if isinstance(kind, type) and hasattr(kind, "from_json"):
        frozen = dataclasses.is_dataclass(kind) and kind.__dataclass_params__.frozen  # type: ignore[attr-defined]
        return _to_json, kind.from_json, None if frozen else _copy
    raise TypeError(f"no JSON form for {kind}")


def _each(
    item: Any, container: Callable[[Any], Any]
) -> tuple[Convert | None, Convert | None, Convert | None]:
    """Converters of a list (or tuple) of ``item``: ``container`` builds it back."""
    dump, load, copy = _converters(item)
    return (
        list if dump is None else _mapped(dump, list),
        container if load is None else _mapped(load, container),
        list if copy is None else _mapped(copy, list),
    )


def _mapped(convert: Convert, container: Callable[[Any], Any]) -> Convert:
    if container is list:
        return lambda values: [convert(value) for value in values]
    return lambda values: container([convert(value) for value in values])


def _or_none(convert: Convert | None) -> Convert | None:
    if convert is None:
        return None
    return lambda value: None if value is None else convert(value)


def _enum(kind: type[Enum]) -> tuple[Convert, Convert, None]:
    """By value; read back through a dictionary (``Kind(value)`` costs a call into ``enum``
    for every value, and an unknown value still goes to it and raises ``ValueError``)."""
    members = {member.value: member for member in kind}

    def load(value: Any) -> Enum:
        member = members.get(value)
        return kind(value) if member is None else member

    return _value, load, None


def _value(member: Enum) -> Any:
    return member.value


def _to_json(value: Any) -> Any:
    return value.to_json()


def _copy(value: Any) -> Any:
    return value.copy()
