"""Golden episodes: seeded random-legal-play logs that freeze an environment version.

Each log records, for every step, the acting agent, the action and its label, the legal ids, the
acting seat's observation (sha256 of the float32 bytes and its nonzero entries), a sha256 of every
seat's observation and of the acting seat's JSON view, and the rewards and terminations after the
step (a done agent's step with None is logged too). Any difference is a behaviour change.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

REGENERATE = os.environ.get("CARDARENA_REGEN_GOLDEN") == "1"

HOW_TO_FIX = (
    "{env_id} no longer reproduces golden episode {name!r} ({where}).\n"
    "A change of observations, actions, rewards or rules is a new environment version: bump the\n"
    "version ({game}_v1 -> {game}_v2 in envs/{game}/game.py and env.py, docs/games/{game}.md), then\n"
    "regenerate with:  CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/{game}/test_{game}_golden.py\n"
    "If the change was not meant to alter behaviour (e.g. a speed-up), it is a bug: fix it instead."
)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _done(env: Any, agent: str) -> bool:
    return env.terminations[agent] or env.truncations[agent]


def _decision(env: Any, agent: str, policy: random.Random) -> dict:
    seen = env.observe(agent)
    obs = seen["observation"]
    legal = [int(i) for i in np.flatnonzero(seen["action_mask"])]
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


def record(env: Any, seed: int) -> dict:
    """Play one seeded episode with a seeded random-legal policy and log every step."""
    env.reset(seed=seed)
    policy = random.Random(seed)
    steps = []
    while env.agents:
        agent = env.agent_selection
        entry = {"agent": agent, "action": None} if _done(env, agent) else _decision(env, agent, policy)
        env.step(entry["action"])
        entry["rewards"] = {other: env.rewards[other] for other in env.agents}
        entry["terminations"] = {other: env.terminations[other] for other in env.agents}
        entry["truncations"] = {other: env.truncations[other] for other in env.agents}
        steps.append(entry)
    return {
        "env_id": env.game.env_id,
        "config": env.config.model_dump(exclude_defaults=True),
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
    for n, (old, new) in enumerate(zip(expected["steps"], got["steps"], strict=True)):
        for field, value in old.items():
            if new.get(field) != value:
                return f"step {n} ({old['agent']}, {old.get('label')}): {field} was {value!r}, now {new.get(field)!r}"
    if len(expected["steps"]) != len(got["steps"]):
        return f"episode length was {len(expected['steps'])} steps, now {len(got['steps'])}"
    if expected["final_state"] != got["final_state"]:
        return "final state differs"
    return "no difference"


def check_golden(folder: Path, name: str, env: Any, seed: int) -> None:
    """Compare a fresh recording with golden/<name>.json (or rewrite it with CARDARENA_REGEN_GOLDEN=1)."""
    path = folder / f"{name}.json"
    got = json.loads(json.dumps(record(env, seed)))  # as it would be read back
    game = env.game.name
    if REGENERATE:
        folder.mkdir(exist_ok=True)
        _write(path, got)
        pytest.skip(f"regenerated {path}")
    assert path.exists(), (
        f"missing golden file {path}; create it with CARDARENA_REGEN_GOLDEN=1 pytest tests/envs/{game}"
    )
    expected = json.loads(path.read_text(encoding="utf-8"))
    where = _first_difference(expected, got)
    assert expected == got, HOW_TO_FIX.format(env_id=env.game.env_id, name=name, where=where, game=game)


def recorded_episodes(folder: Path, names: Any, env_id: str, max_bytes: int) -> list[dict]:
    """The golden files of `folder`: exactly one per episode name, each under `max_bytes` and of `env_id`."""
    files = sorted(folder.glob("*.json"))
    assert sorted(path.stem for path in files) == sorted(names), f"{folder} holds a file for each episode"
    episodes = []
    for path in files:
        assert path.stat().st_size < max_bytes, f"{path} is too large"
        episode = json.loads(path.read_text(encoding="utf-8"))
        assert episode["env_id"] == env_id, f"{path} records {episode['env_id']}"
        episodes.append(episode)
    return episodes


def decision_words(episodes: list[dict], separator: str | None = None) -> set[str]:
    """The first word of every decision's label over the episodes: the kinds of move they exercise."""
    return {
        step["label"].split(separator)[0]
        for episode in episodes
        for step in episode["steps"]
        if step["action"] is not None
    }
