"""Checkpoints: atomic writes, a card checked against the game, SB3-free loading that plays like the model."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest
import torch
from cardarena.agents import RandomAgent, available, load, loading
from cardarena.agents.checkpoint import load_policy_agent, read_card, sha256_of, verify_checkpoint
from cardarena.agents.policy import export_policy
from cardarena.envs import make
from cardarena.envs.core.errors import CheckpointError, UnknownAgentError
from cardarena.training import checkpoint
from cardarena.training.checkpoint import load_model, write_checkpoint, write_policy_checkpoint
from cardarena.training.publish import publish

torch.set_num_threads(1)

ENV_ID = "yokir_v1"


class LearnerSeat(gym.Env):
    """Yokir from seat 0's point of view: the other seats play at random."""

    def __init__(self, seed: int = 0):
        self.table = make(ENV_ID)
        size = self.table.observation_space("player_0")["observation"].shape
        self.observation_space = gym.spaces.Box(0.0, 1.0, size, np.float32)
        self.action_space = self.table.action_space("player_0")
        self._opponent = RandomAgent(seed)
        self._deals = np.random.default_rng(seed)
        self._mask = np.zeros(self.action_space.n, np.int8)

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self.table.reset(seed=int(self._deals.integers(2**31)))
        observation, _ = self._advance()
        return observation, {}

    def step(self, action):
        self.table.step(int(action))
        reward = self.table.rewards["player_0"]
        observation, more = self._advance()
        done = self.table.terminations["player_0"] or self.table.truncations["player_0"]
        return observation, reward + more, done, False, {}

    def action_masks(self) -> np.ndarray:
        return self._mask.astype(bool)

    def _advance(self) -> tuple[np.ndarray, float]:
        """Let the random seats play until seat 0 acts or the hand ends; seat 0's reward meanwhile."""
        reward = 0.0
        while not (self.table.terminations["player_0"] or self.table.truncations["player_0"]):
            if self.table.agent_selection == "player_0":
                break
            self.table.step(self._opponent.act(self.table.observe(self.table.agent_selection)))
            reward += self.table.rewards["player_0"]
        seen = self.table.observe("player_0")
        self._mask = seen["action_mask"]
        return seen["observation"], reward


@pytest.fixture(scope="module")
def model():
    from sb3_contrib import MaskablePPO

    ppo = MaskablePPO(
        "MlpPolicy",
        LearnerSeat(),
        n_steps=64,
        batch_size=32,
        n_epochs=1,
        seed=0,
        device="cpu",
        policy_kwargs={"net_arch": [16]},
    )
    return ppo.learn(64)


@pytest.fixture(scope="module")
def written(model, tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("run") / "step_64"
    extra = {"trainer_state.json": b'{"steps": 64}'}
    return write_checkpoint(
        folder, model, env_id=ENV_ID, config={"lr": 3e-4}, steps=64, evaluation={"random": 0.5}, extra=extra
    )


@pytest.fixture
def copy(written, tmp_path) -> Path:
    """A private copy of the written checkpoint, free to damage."""
    return Path(shutil.copytree(written, tmp_path / "copy"))


def _random_play_observations(count: int, seed: int = 1) -> list[dict[str, np.ndarray]]:
    table, player, seen = make(ENV_ID), RandomAgent(seed), []
    table.reset(seed=seed)
    while len(seen) < count:
        agent = table.agent_selection
        if table.terminations[agent] or table.truncations[agent]:
            table.reset()
            continue
        observation = table.observe(agent)
        seen.append(observation)
        table.step(player.act(observation))
    return seen


def _edit_card(folder: Path, **changes) -> None:
    card = json.loads((folder / "card.json").read_text())
    (folder / "card.json").write_text(json.dumps({**card, **changes}))


def test_the_loaded_agent_acts_like_the_model(model, written):
    agent = load(str(written))
    for observation in _random_play_observations(200):
        expected, _ = model.predict(
            observation["observation"], action_masks=observation["action_mask"].astype(bool), deterministic=True
        )
        assert agent.act(observation) == int(expected)


def test_the_card_describes_the_checkpoint(written):
    card = verify_checkpoint(written)
    assert card["format"] == 1 and card["game"] == "yokir" and card["env_id"] == ENV_ID and card["env_version"] == 1
    assert card["observation_shape"] == [make(ENV_ID).observation_space("player_0")["observation"].shape[0]]
    assert card["num_actions"] == 29
    assert card["policy"] == {"hidden": [16], "activation": "tanh", "action_features": 0, "precision": "float32"}
    assert (card["config"], card["steps"], card["evaluation"]) == ({"lr": 3e-4}, 64, {"random": 0.5})
    assert card["created"].endswith("+00:00")
    assert sorted(card["files"]) == ["model.zip", "policy.npz", "trainer_state.json"]
    assert read_card(written) == card
    assert (written / "trainer_state.json").read_bytes() == b'{"steps": 64}'
    with np.load(written / "policy.npz", allow_pickle=False) as stored:
        assert stored["actor.weight.0"].dtype == stored["value.weight.0"].dtype == np.float32


def test_load_model_gives_the_sb3_model_back(model, written):
    restored = load_model(written)
    observation = _random_play_observations(1)[0]
    mask = observation["action_mask"].astype(bool)
    assert (
        restored.predict(observation["observation"], action_masks=mask, deterministic=True)[0]
        == model.predict(observation["observation"], action_masks=mask, deterministic=True)[0]
    )


@pytest.mark.parametrize("exchange", [True, False], ids=["renameat2", "rename-aside"])
def test_writing_replaces_a_checkpoint_and_leaves_no_temporary_folder(model, tmp_path, monkeypatch, exchange):
    if not exchange:
        monkeypatch.setattr(checkpoint, "_exchange", lambda first, second: False)
    folder = tmp_path / "latest"
    write_checkpoint(folder, model, env_id=ENV_ID, config={}, steps=1)
    write_checkpoint(folder, model, env_id=ENV_ID, config={}, steps=2)
    assert read_card(folder)["steps"] == 2
    assert [path.name for path in tmp_path.iterdir()] == ["latest"]


def test_a_failed_write_keeps_the_old_checkpoint(model, tmp_path, monkeypatch):
    folder = write_checkpoint(tmp_path / "latest", model, env_id=ENV_ID, config={}, steps=1)

    def crash(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(checkpoint, "_move_into_place", crash)
    with pytest.raises(KeyboardInterrupt):
        write_checkpoint(folder, model, env_id=ENV_ID, config={}, steps=2)
    assert verify_checkpoint(folder)["steps"] == 1
    assert [path.name for path in tmp_path.iterdir()] == ["latest"]


def test_a_killed_writers_temporary_folder_is_cleaned_up(model, tmp_path):
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    leftover = tmp_path / f".latest.tmp-{dead.stdout.strip()}"
    leftover.mkdir()
    write_checkpoint(tmp_path / "latest", model, env_id=ENV_ID, config={}, steps=1)
    assert [path.name for path in tmp_path.iterdir()] == ["latest"]


def test_writing_refuses_to_replace_a_folder_that_is_not_a_checkpoint(model, tmp_path):
    (tmp_path / "notes.txt").write_text("keep me")
    with pytest.raises(CheckpointError, match="not a checkpoint folder.*refusing"):
        write_checkpoint(tmp_path, model, env_id=ENV_ID, config={}, steps=1)
    assert (tmp_path / "notes.txt").read_text() == "keep me"


@pytest.mark.parametrize("name", ["card.json", "policy.npz", "policy.pt", "../escape", ".hidden"])
def test_extra_files_need_plain_unreserved_names(model, tmp_path, name):
    with pytest.raises(ValueError, match="plain file name"):
        write_checkpoint(tmp_path / "c", model, env_id=ENV_ID, config={}, steps=1, extra={name: b""})


def _remove(folder: Path, name: str) -> None:
    (folder / name).unlink()


def _flip_byte(folder: Path) -> None:
    data = bytearray((folder / "policy.npz").read_bytes())
    data[len(data) // 2] ^= 0xFF
    (folder / "policy.npz").write_bytes(bytes(data))


def _replace_policy(folder: Path, content: bytes) -> None:
    """policy.npz replaced by `content`, its new sha256 on the card, so that only reading it can fail."""
    (folder / "policy.npz").write_bytes(content)
    card = json.loads((folder / "card.json").read_text())
    card["files"]["policy.npz"] = sha256_of(folder / "policy.npz")
    (folder / "card.json").write_text(json.dumps(card))


def _policy_without(folder: Path, key: str) -> bytes:
    with np.load(folder / "policy.npz", allow_pickle=False) as stored:
        arrays = {name: stored[name] for name in stored.files if name != key}
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _unlist_policy(folder: Path) -> None:
    card = json.loads((folder / "card.json").read_text())
    del card["files"]["policy.npz"]
    (folder / "card.json").write_text(json.dumps(card))


def _bad_json(folder: Path) -> None:
    (folder / "card.json").write_text("{not json")


@pytest.mark.parametrize(
    "damage, message",
    [
        (lambda f: _remove(f, "card.json"), "not a checkpoint folder: card.json is missing"),
        (lambda f: _remove(f, "policy.npz"), "missing file policy.npz"),
        (_flip_byte, "sha256 mismatch in policy.npz: the file is corrupt or was modified"),
        (lambda f: _replace_policy(f, b"not an npz file at all"), "policy.npz cannot be read, the file is corrupt"),
        (
            lambda f: _replace_policy(f, _policy_without(f, "value.bias.1")),
            r"policy.npz does not hold a policy \(it lacks 'value.bias.1'\)",
        ),
        (lambda f: _replace_policy(f, _policy_without(f, "actor.weight.0")), "policy.npz does not hold a policy"),
        (_bad_json, "card.json is not valid JSON"),
        (lambda f: _edit_card(f, format=7), "card format 7 is not one this cardarena reads"),
        (lambda f: _edit_card(f, game="chess", env_id="chess_v1"), "unknown game 'chess'"),
        (lambda f: _edit_card(f, env_id="yokir_v9"), "card says yokir_v9 but the installed game is yokir_v1"),
        (lambda f: _edit_card(f, observation_shape=[100]), r"observation shape mismatch: card says \[100\]"),
        (lambda f: _edit_card(f, num_actions=30), "action count mismatch: card says 30"),
        (_unlist_policy, "lists no policy.npz"),
        (lambda f: _edit_card(f, env_id=None), "field 'env_id' has a bad value"),
    ],
    ids=[
        "no-card",
        "no-policy",
        "flipped-byte",
        "garbage-policy",
        "missing-layer",
        "no-actor",
        "bad-json",
        "format",
        "unknown-game",
        "version",
        "observation-shape",
        "num-actions",
        "unlisted-policy",
        "bad-field",
    ],
)
def test_damaged_checkpoints_are_refused_with_the_reason(copy, damage, message):
    damage(copy)
    with pytest.raises(CheckpointError, match=message) as caught:
        load_policy_agent(copy)
    assert str(copy) in str(caught.value)


@pytest.mark.parametrize("target", ["missing", "file"])
def test_a_path_that_is_not_a_checkpoint_folder_is_refused(copy, target):
    path = copy / "model.zip" if target == "file" else copy / "nothing-here"
    with pytest.raises(
        CheckpointError, match="not a checkpoint folder but a file" if target == "file" else "no such checkpoint"
    ):
        load(path)


def test_load_takes_a_path_string_or_a_path(written):
    observation = _random_play_observations(1)[0]
    by_string, by_path = load(str(written)), load(written)
    assert by_string.name == by_path.name == "step_64"
    assert by_string.act(observation) == by_path.act(observation)


def test_a_checkpoint_for_another_game_names_both(written):
    with pytest.raises(CheckpointError, match="plays 'yokir', not 'piktas'"):
        load(str(written), game="piktas")


def test_the_loaded_agent_plays_every_seat_legally(written):
    agent = load(written, game="yokir")
    table = make(ENV_ID)
    for hand in range(50):
        table.reset(seed=hand)
        for _seat in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            action = None if terminated or truncated else agent.act(observation)
            assert action is None or observation["action_mask"][action] == 1
            table.step(action)


@pytest.fixture
def shipped(written, tmp_path, monkeypatch) -> Path:
    """A checkpoints/ folder holding yokir/tiny, in place of the installed one."""
    shutil.copytree(written, tmp_path / "yokir" / "tiny")
    monkeypatch.setattr(loading, "_shipped_root", lambda: tmp_path)
    return tmp_path


def test_shipped_checkpoints_load_by_name_and_are_listed(shipped):
    assert load("yokir/tiny").name == load("tiny", game="yokir").name == "yokir/tiny"
    assert available("yokir") == ["random", "pimc", "ismcts", "yokir/heuristic", "yokir/tiny"]
    with pytest.raises(UnknownAgentError, match="plays 'yokir', not 'piktas'"):
        load("yokir/tiny", game="piktas")
    with pytest.raises(UnknownAgentError, match="available: random, pimc, ismcts, yokir/heuristic, yokir/tiny"):
        load("yokir/huge")


def test_a_shipped_checkpoint_filed_under_the_wrong_game_is_refused(shipped):
    shutil.move(shipped / "yokir", shipped / "piktas")
    with pytest.raises(CheckpointError, match="plays 'yokir', not 'piktas'"):
        load("piktas/tiny")


def test_the_installed_package_ships_its_checkpoints_folder():
    assert (loading._shipped_root() / "__init__.py").is_file()


@pytest.mark.parametrize("shipped_bot", [False, True], ids=["written", "yokir/ppo-selfplay"])
def test_loading_a_checkpoint_imports_neither_torch_nor_stable_baselines(written, shipped_bot):
    target = "yokir/ppo-selfplay" if shipped_bot else str(written)
    script = (
        "import sys\n"
        "from cardarena.agents import load\n"
        f"agent = load({target!r})\n"
        "import numpy as np\n"
        "observation = np.zeros(agent.observation_size, np.float32)\n"
        "agent.act({'observation': observation, 'action_mask': np.ones(29, np.int8)})\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('torch', 'stable_baselines3', 'sb3_contrib')))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env={**os.environ, "OMP_NUM_THREADS": "1"}
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


@pytest.mark.parametrize(("precision", "tolerance"), [("float32", 1e-5), ("float16", 2e-2)])
def test_the_loaded_value_is_the_critics_estimate(model, tmp_path, precision, tolerance):
    folder = write_policy_checkpoint(
        tmp_path / precision, export_policy(model.policy), env_id=ENV_ID, config={}, steps=64, precision=precision
    )
    agent = load(folder)
    observations = np.stack([seen["observation"] for seen in _random_play_observations(40)])
    with torch.no_grad():
        expected = model.policy.predict_values(torch.as_tensor(observations)).numpy()[:, 0]
    np.testing.assert_allclose(agent.value(observations), expected, rtol=0, atol=tolerance)
    assert agent.value(observations[0]) == pytest.approx(float(expected[0]), abs=tolerance)
    assert {file.name for file in folder.iterdir()} == {"card.json", "policy.npz"}


def _as_written_before_policy_npz(folder: Path, model) -> None:
    """The checkpoint as earlier versions wrote it: the actor in policy.pt (torch tensors) beside model.zip."""
    actor = export_policy(model.policy)
    tensors = {
        "format": actor["format"],
        "activation": actor["activation"],
        "weights": [torch.from_numpy(weight) for weight in actor["weights"]],
        "biases": [torch.from_numpy(bias) for bias in actor["biases"]],
    }
    torch.save(tensors, folder / "policy.pt")
    (folder / "policy.npz").unlink()
    card = json.loads((folder / "card.json").read_text())
    del card["files"]["policy.npz"]
    card["files"]["policy.pt"] = sha256_of(folder / "policy.pt")
    (folder / "card.json").write_text(json.dumps(card))


def test_a_checkpoint_written_before_policy_npz_still_loads_and_publishes(model, copy, tmp_path):
    _as_written_before_policy_npz(copy, model)
    agent = load(copy)
    for observation in _random_play_observations(50):
        expected, _ = model.predict(
            observation["observation"], action_masks=observation["action_mask"].astype(bool), deterministic=True
        )
        assert agent.act(observation) == int(expected)
    with pytest.raises(ValueError, match="no value network"):
        agent.value(observation["observation"])
    published = publish(copy, tmp_path / "light", evaluation={}, precision="float32")
    assert sorted(file.name for file in published.iterdir()) == ["card.json", "policy.npz"]
    observations = torch.as_tensor(np.stack([seen["observation"] for seen in _random_play_observations(10)]))
    with torch.no_grad():
        expected_values = model.policy.predict_values(observations).numpy()[:, 0]
    np.testing.assert_allclose(load(published).value(observations.numpy()), expected_values, atol=1e-5)
