"""The games whose compiled kernels compile in the background on first use (core/compiling.py)
play alike on both sides of the switch: random episodes played with the kernels held back (the
references play) and with them compiled give the same observations, masks, rewards and ends, bit
for bit, in every conformance mode and more scoring variants."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from cardarena.envs import make
from cardarena.envs.antipoker import encode as antipoker_encode
from cardarena.envs.antipoker import rules as antipoker_rules
from cardarena.envs.core.compiling import Background
from cardarena.envs.dividha import rules as dividha_rules
from cardarena.envs.dividha.game import DividhaGame
from cardarena.envs.piktas import kernels as piktas_kernels
from cardarena.envs.tilt import encode as tilt_encode

COMPILED: dict[str, Background[Any]] = {
    "piktas_v1": piktas_kernels.COMPILED,
    "tilt_v2": tilt_encode.COMPILED,
    "dividha_v1": dividha_rules.COMPILED,
    "antipoker_v1": antipoker_rules.COMPILED,
}
# (env id, settings, steps): the reference plays slowly (Piktas' exchange features, about 30 ms a turn)
CASES = [
    ("piktas_v1", {}, 150),
    ("piktas_v1", {"mode": "gambling", "num_players": 3, "wild_voids": True}, 150),
    ("piktas_v1", {"num_players": 2, "trump_multi_unit": False, "num_hands": 3}, 150),
    ("piktas_v1", {"num_players": 5, "highest_unit_only": True}, 150),
    ("tilt_v2", {}, 600),
    ("tilt_v2", {"num_players": 3, "void_cards": ["HAUL", "ARMR", "BINY"]}, 600),
    ("tilt_v2", {"num_players": 5, "num_hands": 4, "void_cards": ["SHAR", "SABO", "MUTI"]}, 600),
    *[("dividha_v1", mode, 600) for mode in DividhaGame.conformance_modes],
    ("antipoker_v1", {}, 600),
    ("antipoker_v1", {"betting": False, "num_players": 4}, 600),
    ("antipoker_v1", {"num_hands": 3, "num_players": 6}, 600),
]


def _forget_cached_values() -> None:
    """The by-value caches filled on one path, so that the other computes every value again."""
    antipoker_rules.parts_of_ids.cache_clear()
    antipoker_encode._scaled_parts.cache_clear()


def play(env_id: str, settings: dict, steps: int) -> list[tuple]:
    """Every step of random play from seed 0 on: the agent, its observation and mask (bytes), reward and ends."""
    _forget_cached_values()
    env, rng = make(env_id, **settings), np.random.default_rng(0)
    env.reset(seed=0)
    played = []
    for step in range(steps):
        if not env.agents:
            env.reset(seed=step)
        observation, reward, termination, truncation, _ = env.last()
        mask = observation["action_mask"]
        played.append(
            (env.agent_selection, observation["observation"].tobytes(), mask.tobytes(), reward, termination, truncation)
        )
        env.step(None if termination or truncation else int(rng.choice(np.flatnonzero(mask))))
    return played


@pytest.mark.parametrize(("env_id", "settings", "steps"), CASES)
def test_the_references_play_as_the_compiled_kernels(env_id, settings, steps, monkeypatch):
    compiled = COMPILED[env_id]
    compiled.wait()
    fast = play(env_id, settings, steps)
    with monkeypatch.context() as held_back:
        held_back.setattr(compiled, "ready", lambda: None)
        slow = play(env_id, settings, steps)
    assert len(slow) == len(fast) == steps
    for step, (on_reference, on_compiled) in enumerate(zip(slow, fast, strict=True)):
        assert on_reference == on_compiled, f"{env_id} {settings}: step {step} differs"


def _kernels(env_id: str) -> list[Any]:
    """The numba dispatchers a game's `Background` compiles."""
    from cardarena.envs.antipoker import evaluator as antipoker_evaluator
    from cardarena.envs.dividha import evaluator as dividha_evaluator
    from cardarena.envs.piktas import features, scoring
    from cardarena.envs.tilt import observation_writer

    return {
        "piktas_v1": [scoring.score_pool, scoring.exchange_outcomes, features.write_exchange_features],
        "tilt_v2": [observation_writer.write_observation, observation_writer.write_card_sets],
        "dividha_v1": [dividha_evaluator.showdown, dividha_evaluator.legal_hand],
        "antipoker_v1": [antipoker_evaluator.breakdowns, antipoker_evaluator.value_features],
    }[env_id]


@pytest.mark.parametrize("env_id", COMPILED)
def test_play_calls_the_kernels_as_they_were_compiled_in_the_background(env_id):
    """A call with other argument types would compile once more, in the game's own thread."""
    COMPILED[env_id].wait()
    play(env_id, {}, 300)
    assert [len(kernel.signatures) for kernel in _kernels(env_id)] == [1] * len(_kernels(env_id))
