"""The environment registry: GAMES, make by name and by name_vN, and errors that list what exists."""

from __future__ import annotations

import pytest

import cardarena.envs as envs
from cardarena.envs import UnknownGameError, make
from cardarena.envs.core import registry
from cardarena.envs.yokir import YokirGame, raw_env


def test_games_lists_every_registered_version():
    assert "yokir_v1" in envs.GAMES
    assert envs.GAMES == [entry.env_id for entry in envs.registered()]
    assert len(set(envs.GAMES)) == len(envs.GAMES)


@pytest.mark.parametrize("name", ["yokir", "yokir_v1"])
def test_make_by_name_and_by_version(name):
    env = make(name, dealer=2)
    assert isinstance(env, raw_env)
    assert env.metadata["name"] == "yokir_v1"
    assert env.game.env_id == "yokir_v1"
    assert env.config.dealer == 2
    env.reset(seed=0)
    assert env.state.dealer == 2


def test_make_passes_render_mode():
    env = make("yokir_v1", render_mode="ansi")
    assert env.render_mode == "ansi"
    env.reset(seed=0)
    assert isinstance(env.render(), str)


def test_entry_describes_the_game():
    entry = envs.lookup("yokir")
    assert (entry.name, entry.version, entry.env_id) == ("yokir", 1, "yokir_v1")
    assert list(entry.player_counts) == [3]
    variants = {key: default for key, _type, default in entry.variants}
    assert variants["match"] is False and variants["target_score"] == 10 and variants["max_hands"] == 200
    assert variants["dealer"] is None and variants["reward_mode"] == "relative" and variants["num_players"] == 3


@pytest.mark.parametrize("name", ["poker", "", "yok", "Yokir"])
def test_unknown_game_lists_registered_games(name):
    with pytest.raises(UnknownGameError) as info:
        make(name)
    message = str(info.value)
    assert repr(name) in message and "unknown game" in message
    for env_id in envs.GAMES:
        assert env_id in message


@pytest.mark.parametrize("name", ["yokir_v0", "yokir_v2", "yokir_v10"])
def test_unknown_version_lists_registered_versions(name):
    with pytest.raises(UnknownGameError) as info:
        make(name)
    message = str(info.value)
    assert repr(name) in message and "version" in message and "yokir_v1" in message


def test_unknown_game_error_is_a_key_error_with_a_plain_message():
    with pytest.raises(KeyError) as info:
        envs.lookup("nope")
    assert str(info.value).startswith("unknown game 'nope'")


def test_bare_name_gets_the_newest_version(monkeypatch):
    monkeypatch.setattr(registry, "_REGISTRY", dict(registry._REGISTRY))

    class YokirGameV2(YokirGame):
        version = 2

    class YokirEnvV2(raw_env):
        game_cls = YokirGameV2

    registry.register(YokirEnvV2)
    assert [e.env_id for e in registry.registered() if e.name == "yokir"] == ["yokir_v1", "yokir_v2"]
    assert isinstance(registry.make("yokir"), YokirEnvV2)
    assert type(registry.make("yokir_v1")) is raw_env
    with pytest.raises(UnknownGameError) as info:
        registry.make("yokir_v3")
    assert "yokir_v1" in str(info.value) and "yokir_v2" in str(info.value)
