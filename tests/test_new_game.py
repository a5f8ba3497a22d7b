"""A game registered from outside the package, with an agent of its own, a training config and a checkpoint
folder, runs through the CLI's train, eval and watch and through the server, to the end of a table: nothing in
them names the shipped games."""

from __future__ import annotations

import json

import coinflip
import pytest
from cardarena.envs import register
from typer.testing import CliRunner

from cardarena.cli import app
from cardarena.serve.app import create_app, serving_in_thread
from cardarena.serve.bots import Roster
from cardarena.serve.client import Client

runner = CliRunner()
AGENT = "coinflip/heads"
# A few seconds of training: the config a new game keeps beside its module, passed with --config.
TINY_CONFIG = """
game: coinflip
total_steps: 256
n_envs: 2
checkpoint_every: 256
ppo: {n_steps: 64, batch_size: 64, n_epochs: 1, net_arch: [8]}
pretrain: {episodes: 50, epochs: 1}
opponents: {snapshot_every: 256}
eval: {every: 256, episodes: 20}
"""


@pytest.fixture
def coinflip_with_agent(own_registry):
    register(coinflip.ENV_ID, coinflip.MODULE, agents={"heads": "coinflip:HeadsCaller"})
    return coinflip.ENV_ID


@pytest.fixture
def coinflip_checkpoint(coinflip_with_agent, tmp_path):
    """The final checkpoint folder of a tiny `cardarena train coinflip` run."""
    config = tmp_path / "coinflip.yaml"
    config.write_text(TINY_CONFIG)
    run_dir = tmp_path / "run"
    result = runner.invoke(app, ["train", "coinflip", "--config", str(config), "--run-dir", str(run_dir)])
    assert result.exit_code == 0, result.output
    return run_dir / "final"


def test_eval_seats_the_games_own_agent(coinflip_with_agent, tmp_path):
    out = tmp_path / "eval.json"
    result = runner.invoke(app, ["eval", "coinflip", "--agents", "heads,random", "--episodes", "8", "--json", str(out)])
    assert result.exit_code == 0, result.output
    written = json.loads(out.read_text())
    assert "heads" in json.dumps(written)


def test_watch_plays_a_deal_to_its_end(coinflip_with_agent):
    result = runner.invoke(app, ["watch", "coinflip", "--delay", "0", "--seed", "3", "--set", "num_players=2"])
    assert result.exit_code == 0, result.output
    assert "HEADS" in result.output


def test_a_served_table_of_the_game_plays_to_its_end(coinflip_with_agent):
    with serving_in_thread(create_app(Roster.serving([]))) as url, Client(url) as client:
        table = client.create_table(coinflip.ENV_ID, [AGENT, None], seed=3)
        seat = next(entry for entry in table["seats"] if entry["token"] is not None)
        view = client.table(table["table_id"], seat["seat"], seat["token"])
        while view["view"]["legal_actions"]:
            view = client.play(
                table["table_id"], seat["seat"], seat["token"], action=view["view"]["legal_actions"][0]["id"]
            )
        assert view["finished"] and view["view"]["calls"] == ["HEADS", "HEADS"]
        assert view["rewards"] == view["view"]["last_hand"]["returns"]


def test_a_trained_checkpoint_plays_in_eval_and_at_a_served_table(coinflip_checkpoint, tmp_path):
    assert json.loads((coinflip_checkpoint / "card.json").read_text())["game"].startswith("coinflip")
    out = tmp_path / "eval.json"
    agents = f"{coinflip_checkpoint},random"
    result = runner.invoke(app, ["eval", "coinflip", "--agents", agents, "--episodes", "8", "--json", str(out)])
    assert result.exit_code == 0, result.output
    assert str(coinflip_checkpoint) in out.read_text()
    bot = str(coinflip_checkpoint)
    with serving_in_thread(create_app(Roster.serving([bot]))) as url, Client(url) as client:
        table = client.create_table(coinflip.ENV_ID, [None, bot], seed=3)
        seat = next(entry for entry in table["seats"] if entry["token"] is not None)
        view = client.play(table["table_id"], seat["seat"], seat["token"], action=0)
        assert view["finished"] and len(view["view"]["calls"]) == 2
