"""Validated configs: defaults, unknown keys and bad values give a ConfigError naming key, value and what is allowed."""

from __future__ import annotations

from typing import Annotated, Literal

import pydantic
import pytest
from cardarena.envs import ConfigError, make
from cardarena.envs.core.config import GameConfig
from cardarena.envs.yokir import YokirConfig
from pydantic import Field


class DemoConfig(GameConfig):
    rounds: Annotated[int, Field(ge=1)] = 3
    style: Literal["fast", "slow"] = "fast"


def test_defaults_are_the_rulebook_defaults():
    config = YokirConfig.build()
    assert config.num_players == 3
    assert config.match is False
    assert config.target_score == 10
    assert config.max_hands == 200
    assert config.dealer is None
    assert config.reward_mode == "relative"
    assert config.on_illegal == "raise"
    assert config.illegal_reward == -1.0


def test_build_accepts_good_values():
    config = YokirConfig.build(match=True, target_score=5, max_hands=7, dealer=0, reward_mode="points")
    assert (config.match, config.target_score, config.max_hands, config.dealer, config.reward_mode) == (
        True,
        5,
        7,
        0,
        "points",
    )
    assert make("yokir_v1", num_players=3).config.num_players == 3


def test_unknown_key_names_it_and_lists_allowed_keys():
    with pytest.raises(ConfigError) as info:
        DemoConfig.build(round=2)
    message = str(info.value)
    assert "'round'" in message and "demo" in message
    for key in ("rounds", "style", "on_illegal", "illegal_reward"):
        assert key in message


@pytest.mark.parametrize(
    "key, value, allowed",
    [("rounds", 0, "int"), ("rounds", "3", "int"), ("rounds", 2.5, "int"), ("style", "medium", "fast")],
)
def test_bad_value_names_key_value_and_allowed(key, value, allowed):
    with pytest.raises(ConfigError) as info:
        DemoConfig.build(**{key: value})
    message = str(info.value)
    assert f"{key}={value!r}" in message
    assert allowed in message


def test_config_error_is_a_value_error():
    with pytest.raises(ValueError):
        YokirConfig.build(target_score=0)


def test_config_is_frozen():
    config = YokirConfig.build()
    with pytest.raises(pydantic.ValidationError):
        config.dealer = 1  # type: ignore[misc]  # the very assignment a frozen config refuses


def test_describe_fields_lists_every_setting_with_its_default():
    described = {key: (type_name, default) for key, type_name, default in DemoConfig.describe_fields()}
    assert set(described) == {"on_illegal", "illegal_reward", "retired_seats", "rounds", "style"}
    assert described["rounds"] == ("int >= 1", 3)
    assert described["style"][1] == "fast" and "slow" in described["style"][0]
