"""Every numeric setting of every registered game is bounded, so an extreme value is a ConfigError at
`make`, never an overflow, a crash or a stuck table later; a table at the bounds plays like any other."""

from __future__ import annotations

import math
import types
from typing import Annotated, Any, Union, get_args, get_origin

import pytest
from cardarena.envs import ConfigError, make, registered
from cardarena.envs.core.config import MAX_CHIPS, MAX_REWARD
from cardarena.envs.core.conformance import play_random_episode
from pydantic.fields import FieldInfo

ENV_IDS = [entry.env_id for entry in registered()]


def _numeric_bounds(field: FieldInfo) -> tuple[type, Any, Any] | None:
    """(int or float, lower bound, upper bound) of a numeric setting, None for any other kind."""
    annotation, metadata = field.annotation, list(field.metadata)
    if get_origin(annotation) in (Union, types.UnionType):
        annotation = next(arg for arg in get_args(annotation) if arg is not type(None))
    if get_origin(annotation) is Annotated:
        annotation, *extra = get_args(annotation)
        metadata += [m for arg in extra for m in (arg.metadata if isinstance(arg, FieldInfo) else [arg])]
    if annotation not in (int, float):
        return None
    lower = next((m.ge for m in metadata if getattr(m, "ge", None) is not None), None)
    upper = next((m.le for m in metadata if getattr(m, "le", None) is not None), None)
    return annotation, lower, upper


def _numeric_settings(env_id: str) -> dict[str, tuple[type, Any, Any]]:
    config_cls = make(env_id).game.config_cls
    found = {name: _numeric_bounds(field) for name, field in config_cls.model_fields.items()}
    return {name: bounds for name, bounds in found.items() if bounds is not None}


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_every_numeric_setting_has_both_bounds(env_id):
    unbounded = [name for name, (_, lower, upper) in _numeric_settings(env_id).items() if None in (lower, upper)]
    assert not unbounded, f"{env_id}: settings without a lower and an upper bound: {unbounded}"


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_value_past_a_bound_names_the_setting(env_id):
    for name, (kind, lower, upper) in _numeric_settings(env_id).items():
        for value in (upper + 1, lower - 1, 2**63 - 1):
            with pytest.raises(ConfigError, match=name):
                make(env_id, **{name: kind(value)})


@pytest.mark.parametrize("env_id", ENV_IDS)
@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, -MAX_REWARD * 2])
def test_illegal_reward_is_finite_and_bounded(env_id, value):
    with pytest.raises(ConfigError, match="illegal_reward"):
        make(env_id, illegal_reward=value)


CHIP_SETTINGS = ("starting_stack", "ante", "buy_in", "bet_size", "small_bet", "big_bet")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_a_table_with_chip_settings_at_the_bound_plays_to_its_end(env_id):
    """The largest stacks and bets the config allows keep every chip: no overflow in compiled code."""
    numeric = _numeric_settings(env_id)
    chips = [name for name in numeric if name in CHIP_SETTINGS]
    if not chips:
        pytest.skip(f"{env_id} has no chip settings")
    fields = make(env_id).game.config_cls.model_fields
    settings: dict[str, Any] = dict.fromkeys(chips, MAX_CHIPS)
    if "starting_stack" in settings:  # a stack must cover the ante and the buy-in
        settings.update({key: MAX_CHIPS // 1000 * 2 for key in ("ante", "buy_in") if key in settings})
    settings.update({key: value for key, value in BETTING_ON.items() if key in fields})
    env = make(env_id, num_players=numeric["num_players"][2], **settings)
    report = play_random_episode(env, seed=1)
    assert not report.broken, report.broken
    assert all(math.isfinite(reward) for reward in env.rewards.values())


BETTING_ON = {"mode": "gambling", "betting": True, "max_bets": 100}
"""The settings that switch a game's chips and betting on, where it has them, with the largest cap."""
