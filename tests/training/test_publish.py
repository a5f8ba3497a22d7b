"""Publishing a checkpoint as a shipped bot: a clean folder whose card carries the evaluation."""

import json

import numpy as np
import pytest
from cardarena.agents import load
from cardarena.training.config import load_train_config
from cardarena.training.train import Trainer
from typer.testing import CliRunner

from cardarena.cli import app


def test_publish_writes_a_clean_checkpoint_with_its_evaluation(tmp_path):
    config = load_train_config(
        "yokir",
        overrides=[
            "total_steps=64",
            "n_envs=2",
            "ppo.n_steps=32",
            "ppo.batch_size=64",
            "ppo.net_arch=[16]",
            "pretrain.teacher=null",
            "eval.episodes=3",
            "eval.final_episodes=3",
        ],
    )
    final = Trainer.start(config, tmp_path / "run").run().final_checkpoint
    assert (final / "pool.pt").exists()
    result = CliRunner().invoke(
        app, ["publish", str(final), "--name", "tiny", "--episodes", "30", "--root", str(tmp_path / "shipped")]
    )
    assert result.exit_code == 0, result.output
    shipped = tmp_path / "shipped" / "yokir" / "tiny"
    assert sorted(p.name for p in shipped.iterdir()) == ["card.json", "policy.npz"]
    card = json.loads((shipped / "card.json").read_text())
    assert card["policy"]["precision"] == "float16"
    with np.load(shipped / "policy.npz", allow_pickle=False) as stored:
        assert stored["actor.weight.0"].dtype == stored["value.weight.0"].dtype == np.float16
    assert set(card["evaluation"]) == {"random", "heuristic"}
    assert card["evaluation"]["random"]["episodes"] == 30
    assert card["steps"] == json.loads((final / "card.json").read_text())["steps"]
    original, published = load(final), load(shipped)
    observation = np.full(252, 0.5, np.float32)
    np.testing.assert_allclose(published.logits(observation), original.logits(observation), atol=1e-2)
    assert published.value(observation) == pytest.approx(original.value(observation), abs=1e-2)


def test_publish_refuses_a_folder_that_is_not_a_checkpoint(tmp_path):
    result = CliRunner().invoke(app, ["publish", str(tmp_path)])
    assert result.exit_code == 2
    assert "card.json" in result.output or "checkpoint" in result.output
