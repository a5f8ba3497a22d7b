"""Golden episodes of piktas_v1: seeded random-legal-play logs that must not change.

Each file under golden/ records, for every step, the acting agent, the action and its label, the
legal ids, the acting seat's observation (sha256 of the float32 bytes and its nonzero entries), a
sha256 of every seat's observation and of the acting seat's JSON view, and the rewards and
terminations after the step (an eliminated agent's step with None is logged too). Any difference
is a behaviour change of the environment: observations, actions and rules are frozen within one
version.

To change behaviour on purpose: bump the env version (piktas_v1 -> piktas_v2), then regenerate:
    CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/piktas/test_piktas_golden.py
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

import numpy as np
import pytest
from piktas_env_support import ENV_ID, done, make, mask_ids

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("CARDARENA_REGEN_GOLDEN") == "1"
MAX_BYTES = 300_000

EPISODES = {
    "casual_seed0": ({}, 0),
    "casual_win_match_seed3": ({"num_players": 3, "num_rounds": 2, "casual_reward": "win", "first_dealer": 2}, 3),
    "gambling_seed5": ({"num_players": 3, "mode": "gambling"}, 5),
    "gambling_match_seed8": ({"num_players": 5, "mode": "gambling", "num_rounds": 4, "starting_chips": 20}, 8),
    "eleven_variants_seed2": ({"num_players": 11, "wild_voids": True, "trump_multi_unit": False}, 2),
    "two_no_voids_seed4": ({"num_players": 2, "use_voids": False, "highest_unit_only": True}, 4),
}

HOW_TO_FIX = (
    "{env_id} no longer reproduces golden episode {name!r} ({where}).\n"
    "A change of observations, actions, rewards or rules is a new environment version: bump the\n"
    "version (piktas_v1 -> piktas_v2 in envs/piktas/game.py and env.py, docs/games/piktas.md), then\n"
    "regenerate with:  CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/piktas/test_piktas_golden.py\n"
    "If the change was not meant to alter behaviour (e.g. a speed-up), it is a bug: fix it instead."
)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _decision(env, agent: str, policy: random.Random) -> dict:
    seen = env.observe(agent)
    obs = seen["observation"]
    legal = mask_ids(env, agent)
    action = policy.choice(legal)
    every_obs = b"".join(env.observe(other)["observation"].tobytes() for other in env.agents)
    return {
        "agent": agent,
        "action": action,
        "label": env.action_label(action),
        "legal": legal,
        "obs_sha256": _sha(obs.astype(np.float32).tobytes()),
        "obs_nonzero": [[int(i), float(obs[i])] for i in np.flatnonzero(obs)],
        "all_obs_sha256": _sha(every_obs),
        "view_sha256": _sha(json.dumps(env.observe_json(agent), sort_keys=True).encode()),
    }


def record(config: dict, seed: int) -> dict:
    """Play one seeded episode with a seeded random-legal policy and log every step."""
    env = make(**config)
    env.reset(seed=seed)
    policy = random.Random(seed)
    steps = []
    while env.agents:
        agent = env.agent_selection
        entry = {"agent": agent, "action": None} if done(env) else _decision(env, agent, policy)
        env.step(entry["action"])
        entry["rewards"] = {other: env.rewards[other] for other in env.agents}
        entry["terminations"] = {other: env.terminations[other] for other in env.agents}
        steps.append(entry)
    return {
        "env_id": ENV_ID,
        "config": config,
        "seed": seed,
        "policy": "random.Random(seed).choice(legal ids, ascending) at every decision; None for done agents",
        "final_state": env.game.state_to_json(env.state),
        "steps": steps,
    }


def _write(path: Path, episode: dict) -> None:
    text = json.dumps(episode, separators=(",", ":"))
    text = text.replace(',{"agent"', ',\n{"agent"')  # one step per line: readable diffs
    path.write_text(text + "\n", encoding="utf-8")


def _first_difference(expected: dict, got: dict) -> str:
    for key in ("env_id", "config", "seed"):
        if expected.get(key) != got.get(key):
            return f"{key}: golden {expected.get(key)!r}, now {got.get(key)!r}"
    for n, (old, new) in enumerate(zip(expected["steps"], got["steps"])):
        for field, value in old.items():
            if new.get(field) != value:
                return f"step {n} ({old['agent']}, {old.get('label')}): {field} was {value!r}, now {new.get(field)!r}"
    if len(expected["steps"]) != len(got["steps"]):
        return f"episode length was {len(expected['steps'])} steps, now {len(got['steps'])}"
    if expected["final_state"] != got["final_state"]:
        return "final state differs"
    return "no difference"


@pytest.mark.parametrize("name", sorted(EPISODES))
def test_golden_episode(name):
    config, seed = EPISODES[name]
    path = GOLDEN / f"{name}.json"
    got = json.loads(json.dumps(record(config, seed)))  # as it would be read back
    if REGENERATE:
        GOLDEN.mkdir(exist_ok=True)
        _write(path, got)
        pytest.skip(f"regenerated {path}")
    assert path.exists(), f"missing golden file {path}; create it with CARDARENA_REGEN_GOLDEN=1 pytest {__file__}"
    expected = json.loads(path.read_text(encoding="utf-8"))
    where = _first_difference(expected, got)
    assert expected == got, HOW_TO_FIX.format(env_id=ENV_ID, name=name, where=where)


def test_golden_files_are_small_and_cover_every_kind_of_decision():
    files = sorted(GOLDEN.glob("*.json"))
    assert sorted(path.stem for path in files) == sorted(EPISODES), "golden/ holds a file for each episode"
    kinds, eliminated = set(), False
    for path in files:
        assert path.stat().st_size < MAX_BYTES, f"{path} is too large"
        episode = json.loads(path.read_text(encoding="utf-8"))
        assert episode["env_id"] == ENV_ID
        decisions = [n for n, step in enumerate(episode["steps"]) if step["action"] is not None]
        kinds |= {episode["steps"][n]["label"].split(":")[0] for n in decisions}
        eliminated |= any(step["action"] is None for step in episode["steps"][: decisions[-1]])
        assert all(episode["steps"][decisions[-1]]["terminations"].values())
        assert episode["steps"][-1]["terminations"] == {}
    # together the episodes exercise every kind of decision and an elimination in a match
    assert kinds == {"pass", "swap", "void", "stay", "match", "raise", "fold"}
    assert eliminated
