"""Golden episodes of yokir_v1: seeded random-legal-play logs that must not change.

Each file under golden/ records, for every step, the acting agent, the action and its label,
the acting seat's observation (sha256 of the float32 bytes and its nonzero entries), a sha256 of
all three seats' observations and of the acting seat's JSON view, the legal ids, and the rewards,
terminations and truncations after the step. Any difference is a behaviour change of the
environment: observations, actions and rules are frozen within one version.

To change behaviour on purpose: bump the env version (yokir_v1 -> yokir_v2), then regenerate:
    CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/yokir/test_yokir_golden.py
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path

import numpy as np
import pytest
from yokir_support import ENV_ID, make

GOLDEN = Path(__file__).parent / "golden"
REGENERATE = os.environ.get("CARDARENA_REGEN_GOLDEN") == "1"
MAX_BYTES = 200_000

EPISODES = {
    "single_seed0": ({}, 0),
    "single_seed4_points_dealer2": ({"reward_mode": "points", "dealer": 2}, 4),
    "single_seed21_dealer1": ({"dealer": 1}, 21),
    "match_seed3_target3": ({"match": True, "target_score": 3}, 3),
    "match_seed8_max_hands3": ({"match": True, "max_hands": 3}, 8),
}

HOW_TO_FIX = (
    "{env_id} no longer reproduces golden episode {name!r} ({where}).\n"
    "A change of observations, actions, rewards or rules is a new environment version: bump the\n"
    "version (yokir_v1 -> yokir_v2 in envs/yokir/game.py and env.py, docs/games/yokir.md), then\n"
    "regenerate with:  CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/yokir/test_yokir_golden.py\n"
    "If the change was not meant to alter behaviour (e.g. a speed-up), it is a bug: fix it instead."
)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def record(config: dict, seed: int) -> dict:
    """Play one seeded episode with a seeded random-legal policy and log every step."""
    env = make(**config)
    env.reset(seed=seed)
    policy = random.Random(seed)
    steps = []
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        agent = env.agent_selection
        seen = env.observe(agent)
        obs = seen["observation"]
        legal = [int(i) for i in np.flatnonzero(seen["action_mask"])]
        action = policy.choice(legal)
        all_obs = b"".join(env.observe(a)["observation"].tobytes() for a in env.possible_agents)
        view = json.dumps(env.observe_json(agent), sort_keys=True)
        entry = {
            "agent": agent,
            "action": action,
            "label": env.action_label(action),
            "legal": legal,
            "obs_sha256": _sha(obs.astype(np.float32).tobytes()),
            "obs_nonzero": [[int(i), float(obs[i])] for i in np.flatnonzero(obs)],
            "all_obs_sha256": _sha(all_obs),
            "view_sha256": _sha(view.encode()),
        }
        env.step(action)
        entry["rewards"] = [env.rewards[a] for a in env.possible_agents]
        entry["terminations"] = [env.terminations[a] for a in env.possible_agents]
        entry["truncations"] = [env.truncations[a] for a in env.possible_agents]
        steps.append(entry)
    return {
        "env_id": ENV_ID,
        "config": config,
        "seed": seed,
        "policy": "random.Random(seed).choice(legal ids, ascending) at every step",
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
                return f"step {n} ({old['agent']}, {old['label']}): {field} was {value!r}, now {new.get(field)!r}"
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
        _write(path, got)
        pytest.skip(f"regenerated {path}")
    assert path.exists(), f"missing golden file {path}; create it with CARDARENA_REGEN_GOLDEN=1 pytest {__file__}"
    expected = json.loads(path.read_text(encoding="utf-8"))
    where = _first_difference(expected, got)
    assert expected == got, HOW_TO_FIX.format(env_id=ENV_ID, name=name, where=where)


def test_golden_files_are_small_and_cover_the_phases():
    files = sorted(GOLDEN.glob("*.json"))
    assert sorted(path.stem for path in files) == sorted(EPISODES), "golden/ holds a file for each episode"
    labels, endings = set(), set()
    for path in files:
        assert path.stat().st_size < MAX_BYTES, f"{path} is too large"
        episode = json.loads(path.read_text(encoding="utf-8"))
        assert episode["env_id"] == ENV_ID
        labels |= {step["label"].split()[0] for step in episode["steps"]}
        last = episode["steps"][-1]
        endings.add("terminated" if all(last["terminations"]) else "truncated" if all(last["truncations"]) else "open")
    # together the episodes exercise every kind of decision and both ways a match can end
    assert {"reject", "accept", "discard", "pass", "call", "play"} <= labels
    assert endings == {"terminated", "truncated"}
