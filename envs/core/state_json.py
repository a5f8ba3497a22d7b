"""Game states as plain data: reading one back from JSON (the field checks of every game's
`Game.state_from_json`) and copying one (`Game.clone`)."""

from __future__ import annotations

import copy
import dataclasses
import functools
from typing import TYPE_CHECKING, Any, TypeVar

from .errors import StateError

if TYPE_CHECKING:
    from _typeshed import DataclassInstance

StateT = TypeVar("StateT", bound="DataclassInstance")  # a game's state: a dataclass of plain data


def read_state(state_cls: type[StateT], data: Any, env_id: str) -> StateT:
    """The state dataclass `state_cls` built from what `state_to_json` wrote (its `"game"` key optional).

    Lists and objects are copied, so the state shares nothing with `data`. StateError names
    another game's state, a value that is not a JSON object, and every missing or unknown field.
    """
    if not isinstance(data, dict):
        raise StateError(f"a {env_id} state is a JSON object, not {type(data).__name__}")
    game = data.get("game", env_id)
    if game != env_id:
        raise StateError(f"the state is for {game!r}, not {env_id}")
    fields = dataclasses.fields(state_cls)
    names = {field.name for field in fields}
    unknown = sorted(str(key) for key in data if key != "game" and key not in names)
    missing = [field.name for field in fields if field.name not in data and _required(field)]
    if unknown or missing:
        problems = [f"unknown field(s) {', '.join(map(repr, unknown))}"] if unknown else []
        problems += [f"missing field(s) {', '.join(map(repr, missing))}"] if missing else []
        raise StateError(
            f"not a {env_id} state: {'; '.join(problems)} (its fields: {', '.join(field.name for field in fields)}; "
            "read back what game.state_to_json wrote)"
        )
    return state_cls(**{key: copy_data(value) for key, value in data.items() if key != "game"})


def _required(field: dataclasses.Field) -> bool:
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


_SHARED = frozenset({int, float, str, bool, bytes, tuple, type(None)})  # immutable: a copy may share them


def copy_data(value: Any) -> Any:
    """A copy of plain state data sharing nothing mutable with `value`: lists, dicts and bytearrays
    copied through, a nested object by its own `clone()` (a betting round, a pick state), immutable
    values shared."""
    kind = type(value)
    if kind is list:
        return [item if type(item) in _SHARED else copy_data(item) for item in value]
    if kind is dict:
        return {key: item if type(item) in _SHARED else copy_data(item) for key, item in value.items()}
    if kind in _SHARED:
        return value
    if kind is bytearray:
        return bytearray(value)
    clone = getattr(value, "clone", None)
    return clone() if clone is not None else copy.deepcopy(value)


def copy_state(state: StateT, events: list[Any] | None = None) -> StateT:
    """`state` again, each dataclass field copied by `copy_data`; `events`, the state's hand history
    if it keeps one, is a new list of the same events (history.py: a logged event is never changed)."""
    cls = type(state)
    twin = object.__new__(cls)
    for name in _field_names(cls):
        value = getattr(state, name)
        setattr(twin, name, value[:] if events is not None and value is events else copy_data(value))
    return twin


# Keyed by the state class: its dataclass fields never change.
@functools.cache
def _field_names(cls: type) -> tuple[str, ...]:
    return tuple(field.name for field in dataclasses.fields(cls))
