"""Training defaults follow the game's registration: its agents are the baselines and the teacher;
a game without agents trains from scratch against random."""

import json
from importlib import resources
from pathlib import Path

import pytest
import torch
import yaml
from cardarena.training.config import TrainConfig, load_train_config, validate_train_config
from cardarena.training.train import Trainer

torch.set_num_threads(1)


def test_default_yaml_holds_the_model_defaults():
    documented = yaml.safe_load(Path(str(resources.files("cardarena.configs").joinpath("default.yaml"))).read_text())
    assert "game" not in documented
    assert TrainConfig(game="yokir", **documented) == TrainConfig(game="yokir")


def test_the_game_is_required():
    with pytest.raises(ValueError, match="game: Field required"):
        validate_train_config({})


def test_a_game_with_agents_clones_and_plays_them():
    yokir = load_train_config("yokir")
    assert yokir.pretrain.teacher == "heuristic"
    piktas = load_train_config("piktas")
    assert (piktas.pretrain.teacher, piktas.opponents.baselines) == ("pimc", ["heuristic"])
    assert load_train_config("yokir", overrides=["pretrain.teacher=null"]).pretrain.teacher is None


def test_a_game_without_agents_trains_from_scratch_against_random(coinflip_game, tmp_path):
    tiny = [
        "n_envs=2",
        "ppo.n_steps=32",
        "ppo.batch_size=64",
        "ppo.n_epochs=1",
        "ppo.net_arch=[8]",
        "total_steps=64",
        "eval.episodes=4",
        "eval.final_episodes=4",
        "opponents.snapshot_every=32",
    ]
    config = load_train_config("coinflip", overrides=tiny)
    assert config.pretrain.teacher is None
    assert config.opponents.baselines == ["random"] and config.eval.opponents == ["random"]
    result = Trainer.start(config, tmp_path / "run").run()
    assert result.steps >= 64
    assert set(result.evaluation) == {"random"}
    card = json.loads((result.final_checkpoint / "card.json").read_text())
    assert card["env_id"] == coinflip_game and card["config"]["pretrain"]["teacher"] is None


@pytest.mark.parametrize(
    "path",
    sorted(Path(str(resources.files("cardarena.configs"))).glob("*-*.yaml")),
    ids=lambda path: path.name,
)
def test_every_packaged_variant_config_validates_over_its_game(path):
    game = path.stem.split("-", 1)[0]
    config = load_train_config(game, config_file=path)
    assert config.game == game and config.name == yaml.safe_load(path.read_text())["name"]
