"""The action-feature actor (training/policies.py): numpy inference, checkpoints and cloning."""

from __future__ import annotations

import hashlib
import json
import random

import numpy as np
import pytest
import torch
from cardarena.agents import load
from cardarena.agents.checkpoint import load_policy_agent
from cardarena.agents.policy import PolicyAgent, export_policy
from cardarena.envs import make
from cardarena.envs.core.errors import CheckpointError
from cardarena.training.checkpoint import write_checkpoint
from cardarena.training.config import load_train_config
from cardarena.training.pretrain import behaviour_clone, collect_demonstrations
from cardarena.training.selfplay import OpponentPool, SelfPlayEnv
from cardarena.training.train import build_model
from stable_baselines3.common.vec_env import DummyVecEnv

torch.set_num_threads(1)


@pytest.fixture(scope="module")
def model():
    config = load_train_config(
        "piktas", overrides=["ppo.net_arch=[32]", "ppo.n_steps=64", "ppo.batch_size=64", "n_envs=1"]
    )
    pool = OpponentPool("piktas", config.opponents, seed=0)
    venv = DummyVecEnv([lambda: SelfPlayEnv("piktas", config.env, config.env_sampling, pool, seed=0)])
    return build_model(config, venv).learn(64)


def _observations(count: int, seed: int = 2) -> list[dict[str, np.ndarray]]:
    env, rng, seen = make("piktas_v1", num_players=5), random.Random(seed), []
    env.reset(seed=seed)
    while len(seen) < count:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.reset()
            continue
        observation = env.observe(agent)
        seen.append(observation)
        env.step(rng.choice(np.flatnonzero(observation["action_mask"]).tolist()))
    return seen


def test_piktas_trains_an_actor_with_an_action_feature_head(model):
    assert hasattr(model.policy.action_net, "score")
    assert "action_head" in export_policy(model.policy)


def test_numpy_inference_gives_the_torch_logits(model):
    agent = PolicyAgent(export_policy(model.policy))
    for observation in _observations(60):
        obs = torch.as_tensor(observation["observation"])[None]
        with torch.no_grad():
            expected = model.policy.get_distribution(obs).distribution.logits[0].numpy()
        logits = agent.logits(observation["observation"])
        normalised = logits - np.log(np.exp(logits - logits.max()).sum()) - logits.max()  # as torch's Categorical
        np.testing.assert_allclose(normalised, expected, rtol=1e-4, atol=1e-4)


def test_a_checkpoint_round_trip_acts_like_the_model(model, tmp_path):
    folder = write_checkpoint(tmp_path / "step", model, env_id="piktas_v1", config={}, steps=64, evaluation={})
    agent = load_policy_agent(folder)
    for observation in _observations(60, seed=3):
        expected, _ = model.predict(
            observation["observation"], action_masks=observation["action_mask"].astype(bool), deterministic=True
        )
        assert agent.act(observation) == int(expected)


def test_a_damaged_action_head_is_refused(model, tmp_path):
    folder = write_checkpoint(tmp_path / "step", model, env_id="piktas_v1", config={}, steps=64, evaluation={})
    with np.load(folder / "policy.npz", allow_pickle=False) as stored:
        arrays = {name: stored[name] for name in stored.files if name != "action_head.weight.1"}
    np.savez(folder / "policy.npz", **arrays)
    card = json.loads((folder / "card.json").read_text())
    card["files"]["policy.npz"] = hashlib.sha256((folder / "policy.npz").read_bytes()).hexdigest()
    (folder / "card.json").write_text(json.dumps(card))
    with pytest.raises(CheckpointError, match="action_head is not columns plus two chained layers"):
        load(str(folder))


def test_cloning_fits_the_head_and_leaves_the_actor_mlp_neutral(model):
    policy = model.policy
    before = {name: p.detach().clone() for name, p in policy.named_parameters()}
    demonstrations = collect_demonstrations("piktas", "field-heuristic", 200, seed=0)
    result = behaviour_clone(policy, demonstrations, epochs=5, learning_rate=1e-2)
    changed = {name for name, p in policy.named_parameters() if not torch.equal(p, before[name])}
    assert not any(name.startswith(("mlp_extractor.policy_net", "action_net.linear")) for name in changed)
    assert any(name.startswith("action_net.score") for name in changed)
    assert any(name.startswith("value_net") for name in changed)
    assert result["accuracy"] > 0.7


def test_cloning_with_fit_all_fits_the_actor_mlp_too(model):
    policy = model.policy
    before = {name: p.detach().clone() for name, p in policy.named_parameters()}
    demonstrations = collect_demonstrations("piktas", "field-heuristic", 50, seed=1)
    behaviour_clone(policy, demonstrations, epochs=1, learning_rate=1e-2, fit="all")
    changed = {name for name, p in policy.named_parameters() if not torch.equal(p, before[name])}
    for part in ("mlp_extractor.policy_net", "action_net.linear", "action_net.score", "value_net"):
        assert any(name.startswith(part) for name in changed), part
