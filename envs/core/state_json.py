"""Reading a game state back from JSON: field checks shared by every game's `Game.state_from_json`."""

from __future__ import annotations

import dataclasses
from typing import Any, TypeVar

from .errors import StateError

StateT = TypeVar("StateT")


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
    return state_cls(**{key: _copy(value) for key, value in data.items() if key != "game"})


def _required(field: dataclasses.Field) -> bool:
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


def _copy(value: Any) -> Any:
    if isinstance(value, list):
        return [_copy(item) for item in value]
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    return value
