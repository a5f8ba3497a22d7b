"""The environment registry: GAMES, make by name and by name_vN, and errors that list what exists."""

from __future__ import annotations

import cardarena.envs as envs
import coinflip
import pytest
from cardarena.envs import UnknownGameError, make
from cardarena.envs.core import registry
from cardarena.envs.yokir import raw_env


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


@pytest.mark.parametrize(
    "entry", [entry for entry in envs.registered() if entry.settings is not None], ids=lambda entry: entry.env_id
)
def test_the_listing_metadata_of_a_registration_is_what_the_game_says(entry):
    game = entry.env_cls.game_cls
    assert entry.players == (game.min_players, game.max_players)
    assert list(entry.settings.items()) == [(key, default) for key, _, default in entry.variants]


def test_every_shipped_game_is_registered_with_its_listing_metadata():
    assert all(entry.settings is not None for entry in envs.registered() if entry.module.startswith("cardarena."))


def test_a_game_registered_without_listing_metadata_is_listed_from_its_classes(coinflip_game):
    entry = envs.lookup("coinflip")
    assert entry.players is None and entry.settings is None
    assert list(entry.player_counts) == [2] and dict(entry.setting_defaults) == {"num_players": 2}


@pytest.mark.parametrize(
    ("players", "settings", "problem"),
    [
        ((2, 2), None, "together"),
        (None, {"num_players": 2}, "together"),
        ((3, 2), {"num_players": 2}, "min <= max"),
        ((2,), {"num_players": 2}, "(min, max)"),
        ((0, 2), {"num_players": 2}, "1 <= min"),
        ((2, 2), [("num_players", 2)], "dict of setting name"),
    ],
)
def test_bad_listing_metadata_is_refused_naming_it(own_registry, players, settings, problem):
    with pytest.raises(ValueError, match="coinflip_v1") as info:
        registry.register("coinflip_v1", coinflip.MODULE, players=players, settings=settings)
    assert problem in str(info.value)


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


def test_bare_name_gets_the_newest_version(coinflip_game):
    registry.register("coinflip_v2", coinflip.MODULE)
    assert [e.env_id for e in registry.registered() if e.name == "coinflip"] == ["coinflip_v1", "coinflip_v2"]
    assert envs.lookup("coinflip").env_id == "coinflip_v2"
    assert type(make("coinflip_v1")) is coinflip.raw_env
    with pytest.raises(UnknownGameError) as info:
        make("coinflip_v3")
    assert "coinflip_v1" in str(info.value) and "coinflip_v2" in str(info.value)


def test_a_registered_game_is_made_with_its_config_and_listed(coinflip_game):
    assert coinflip_game in envs.GAMES
    assert envs.GAMES == [entry.env_id for entry in envs.registered()]
    entry = envs.lookup("coinflip")
    assert (entry.name, entry.version, entry.module, dict(entry.agents)) == ("coinflip", 1, "coinflip", {})
    assert list(entry.player_counts) == [2]
    assert entry.variants == [("num_players", "2", 2)]
    env = make("coinflip", on_illegal="penalize")
    assert isinstance(env, coinflip.raw_env) and env.config.on_illegal == "penalize"


def test_registering_imports_nothing_until_the_environment_is_needed(own_registry):
    registry.register("ghost_v1", "no_such_module_anywhere", agents={"greedy": "no_such_module_anywhere:greedy"})
    entry = envs.lookup("ghost")
    assert entry.env_id in envs.GAMES and dict(entry.agents) == {"greedy": "no_such_module_anywhere:greedy"}
    with pytest.raises(ModuleNotFoundError, match="no_such_module_anywhere"):
        make("ghost_v1")


def test_a_module_that_plays_another_version_is_refused(coinflip_game):
    registry.register("coinflip_v2", coinflip.MODULE)
    with pytest.raises(ValueError, match="coinflip.raw_env plays coinflip_v1, but it is registered as coinflip_v2"):
        make("coinflip_v2")


def test_the_same_entry_registers_twice_but_a_conflicting_one_is_refused(coinflip_game):
    registry.register(coinflip.ENV_ID, coinflip.MODULE)
    assert envs.GAMES.count(coinflip.ENV_ID) == 1
    with pytest.raises(ValueError, match="coinflip_v1 is already registered from 'coinflip'"):
        registry.register(coinflip.ENV_ID, coinflip.MODULE, agents={"greedy": "coinflip:raw_env"})


@pytest.mark.parametrize(
    "env_id, module, agents, message",
    [
        ("coinflip", "coinflip", None, "must be <game>_v<N>"),
        ("Coinflip_v1", "coinflip", None, "must be <game>_v<N>"),
        ("coinflip_v1", "coinflip", {"greedy": "coinflip.greedy"}, "'module:callable'"),
        ("coinflip_v1", "coinflip", {"mine/greedy": "coinflip:greedy"}, "no '/'"),
    ],
)
def test_a_malformed_entry_is_refused(own_registry, env_id, module, agents, message):
    with pytest.raises(ValueError, match=message):
        registry.register(env_id, module, agents)
    assert env_id not in envs.GAMES
