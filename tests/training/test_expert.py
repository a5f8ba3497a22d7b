"""Expert iteration: the guided search, a run end to end, the gate, resuming, parallel search games, value games."""

import copy
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import torch
from cardarena.agents import load
from cardarena.agents.guided_search import GuidedSearchAgent, PolicyGuide
from cardarena.agents.policy import PolicyAgent, export_policy, policy_layers
from cardarena.envs import make, register
from cardarena.envs.core.errors import CheckpointError, ConfigError
from cardarena.envs.core.table import Table
from cardarena.training import expert
from cardarena.training.config import load_train_config
from cardarena.training.pretrain import actor_critic_outputs, sharpen
from cardarena.training.train import Trainer, latest_checkpoint
from cardarena.training.value_games import fit_critic_to_own_games, play_value_game
from spawned_workers import HAS_PROC, spawned_workers, workers_left_after_killing

torch.set_num_threads(1)

TINY = [
    "algo=expert-iteration",
    "n_envs=1",
    "ppo.net_arch=[16]",
    "pretrain.episodes=20",
    "pretrain.epochs=1",
    "eval.episodes=4",
    "eval.final_episodes=4",
    "expert.games=4",
    "expert.iterations=8",
    "expert.gate_episodes=8",
]


def tiny_config(game, *extra):
    return load_train_config(game, overrides=[*TINY, *extra])


@pytest.fixture
def highcard(own_registry, monkeypatch):
    """The test-only game highcard_v1 (tests/envs/highcard.py), registered for one test."""
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "envs"))
    import highcard

    register(highcard.ENV_ID, highcard.MODULE)
    return highcard.ENV_ID


class UniformGuide:
    """Every legal action alike, every seat's value 0: the guide protocol at its plainest."""

    def priors(self, observations, masks):
        masks = np.asarray(masks, float)
        return masks / masks.sum(axis=1, keepdims=True)

    def values(self, observations):
        return np.zeros(len(observations))


def searched_episode(game, seed):
    """Every decision of one episode with the guided search in every seat: (action, mask, distribution)."""
    env = make(game)
    agent = GuidedSearchAgent(UniformGuide(), iterations=12, temperature=1.0, seed=seed)
    table = Table(env)
    table.reset(seed=seed)
    decisions = []
    while (seat := table.to_act) is not None:
        mask = table.observe(seat)["action_mask"].astype(bool)
        action, distribution = agent.search(env, seat)
        decisions.append((action, mask, distribution))
        table.play(action)
    return decisions


@pytest.mark.parametrize("game", ["highcard_v1", "yokir"])
def test_the_guided_search_plays_legal_moves_and_replays_by_seed(game, request):
    if game == "highcard_v1":
        request.getfixturevalue("highcard")
    first, again = searched_episode(game, seed=5), searched_episode(game, seed=5)
    assert first and len(first) == len(again)
    for (action, mask, distribution), (action_again, _, distribution_again) in zip(first, again, strict=True):
        assert mask[action]
        assert distribution.sum() == pytest.approx(1.0)
        assert not distribution[~mask].any()
        assert action == action_again and np.array_equal(distribution, distribution_again)


def test_a_guided_search_budget_must_be_positive():
    with pytest.raises(ConfigError, match="iterations >= 1"):
        GuidedSearchAgent(UniformGuide(), iterations=0)


def test_expert_iteration_on_a_toy_game_writes_generations_and_a_final_checkpoint(highcard, tmp_path):
    run = tmp_path / "run"
    result = Trainer.start(tiny_config(highcard, "expert.generations=2"), run).run()
    rows = [json.loads(line) for line in (run / "history.jsonl").read_text().splitlines()]
    assert [row["expert"]["generation"] for row in rows[:2]] == [1, 2]
    for row in rows[:2]:
        assert row["expert"]["decisions"] > 0
        assert {"policy_loss", "value_loss", "agreement", "gate"} <= set(row["expert"])
        assert set(row["results"]) == {"random"}
    assert result.steps == sum(row["expert"]["decisions"] for row in rows[:2])
    assert latest_checkpoint(run).name == "final"
    assert len(list((run / "checkpoints").glob("step_*"))) == 3  # step 0 and one per generation
    assert list((run / expert.SEARCH_DATA).iterdir()) == []  # each generation's games go once it is checkpointed


@pytest.mark.slow  # spawns processes or trains a real game: about half a minute each
def test_expert_iteration_on_yokir_ends_in_a_checkpoint_that_loads_as_an_agent(tmp_path):
    result = Trainer.start(tiny_config("yokir", "expert.generations=1"), tmp_path / "run").run()
    agent = load(str(result.final_checkpoint), game="yokir")
    env = make("yokir")
    env.reset(seed=1)
    observation = env.observe(env.agent_selection)
    assert observation["action_mask"][agent.act(observation)]


def test_a_search_game_in_which_the_search_never_acts_adds_no_rows(highcard, tmp_path, monkeypatch):
    trainer = Trainer.start(tiny_config(highcard), tmp_path / "run")
    games = expert.SearchGames(trainer.config, trainer.model.policy)
    played = games.play(1, 0)
    monkeypatch.setattr(expert.Table, "advance", lambda table, others: None)  # the hand ends before its turn
    empty = games.play(1, 1)
    assert len(played) > 0 and len(empty) == 0
    assert empty.observations.shape == (0, played.observations.shape[1])
    merged = expert.SearchData.merged([played, empty])
    assert len(merged) == len(played) and np.array_equal(merged.policies, played.policies)


@pytest.mark.parametrize("temperature", [1.0, 2.5])
def test_the_training_guide_gives_the_shipped_guides_priors_and_values(highcard, tmp_path, temperature):
    trainer = Trainer.start(tiny_config(highcard, f"expert.prior_temperature={temperature}"), tmp_path / "run")
    games = expert.SearchGames(trainer.config, trainer.model.policy)
    shipped = PolicyGuide(PolicyAgent(export_policy(trainer.model.policy)), temperature)
    env = make(highcard)
    env.reset(seed=3)
    observation = env.observe(env.agent_selection)
    rows, masks = observation["observation"][None], observation["action_mask"][None].astype(bool)
    priors = games.guide.priors(rows, masks)
    assert priors == pytest.approx(shipped.priors(rows, masks), abs=1e-5)
    assert games.guide.values(rows) == pytest.approx(shipped.values(rows), abs=1e-5)
    as_it_is = expert.TorchGuide(trainer.model.policy).priors(rows, masks)
    if temperature == 1:
        assert priors == pytest.approx(as_it_is)
    else:
        assert priors.max() < as_it_is.max()  # a flatter prior


def test_a_search_teacher_plays_the_search_seat_and_its_moves_are_the_targets(tmp_path):
    config = tiny_config("yokir", "expert.teacher=pimc:worlds=2")
    trainer = Trainer.start(config, tmp_path / "run")
    data = expert.SearchGames(trainer.config, trainer.model.policy).play(1, 0)
    again = expert.SearchGames(trainer.config, trainer.model.policy).play(1, 0)
    assert len(data) > 0
    assert np.array_equal(data.policies.sum(axis=1), np.ones(len(data), np.float32))  # one-hot
    chosen = data.policies.argmax(axis=1)
    assert data.masks[np.arange(len(data)), chosen].all()
    assert np.array_equal(data.policies, again.policies) and np.array_equal(data.returns, again.returns)


def test_a_teacher_temperature_makes_the_softmax_of_its_action_values_the_target(tmp_path):
    values = {2: 1.0, 5: 0.0, 7: -1.0}
    assert np.array_equal(expert.teacher_target(5, values, 8, 0.0), np.eye(8, dtype=np.float32)[5])
    assert np.array_equal(expert.teacher_target(3, {}, 8, 0.5), np.eye(8, dtype=np.float32)[3])
    target = expert.teacher_target(2, values, 8, 0.5)
    weights = np.exp([2.0, 0.0, -2.0])
    assert target[[2, 5, 7]] == pytest.approx(weights / weights.sum()) and target.sum() == pytest.approx(1)
    config = tiny_config("yokir", "expert.teacher=pimc:worlds=2", "expert.teacher_temperature=0.05")
    data = expert.SearchGames(config, Trainer.start(config, tmp_path / "run").model.policy).play(1, 0)
    assert data.policies.sum(axis=1) == pytest.approx(np.ones(len(data)))
    assert not data.policies[~data.masks].any()
    assert (np.count_nonzero(data.policies, axis=1) > 1).any()  # not one-hot


@pytest.mark.parametrize(
    ("teacher", "message"),
    [
        ("yokir/heuristic", "must name a search agent"),
        ("ismcts:ms=50", "has a time budget"),
        ("pimc:worlds=x", "worlds must be a whole number"),
    ],
)
def test_a_teacher_without_a_fixed_search_budget_is_refused(teacher, message):
    with pytest.raises(ConfigError, match=message):
        tiny_config("yokir", f"expert.teacher={teacher}")


def test_a_window_fits_the_data_of_earlier_generations_too_and_keeps_only_the_window(highcard, tmp_path):
    run = tmp_path / "run"
    Trainer.start(tiny_config(highcard, "expert.generations=3", "expert.window=2"), run).run()
    rows = [json.loads(line)["expert"] for line in (run / "history.jsonl").read_text().splitlines()[:3]]
    assert rows[0]["fitted"] == rows[0]["decisions"] > 0
    assert [row["fitted"] for row in rows[1:]] == [
        rows[0]["decisions"] + rows[1]["decisions"],
        rows[1]["decisions"] + rows[2]["decisions"],
    ]
    kept = sorted(path.name for path in (run / expert.SEARCH_DATA).iterdir())
    assert kept == ["generation_0002.npz", "generation_0003.npz"]
    third = expert.SearchData.load(expert.search_data_path(run, 3))
    assert len(third) == rows[2]["decisions"]


def test_corrupt_search_data_is_named(tmp_path):
    data = expert.SearchData(
        np.zeros((2, 3), np.float32), np.ones((2, 4), bool), np.eye(4, dtype=np.float32)[:2], np.zeros(2, np.float32)
    )
    path = expert.search_data_path(tmp_path, 1)
    data.save(path)
    again = expert.SearchData.load(path)
    assert all(
        np.array_equal(getattr(data, name), getattr(again, name))
        for name in ("observations", "masks", "policies", "returns")
    )
    path.write_bytes(path.read_bytes()[:40])
    with pytest.raises(CheckpointError, match="generation_0001.npz"):
        expert.fitting_window(tmp_path, 2, data, window=2)


def games_played(highcard, tmp_path, games=8):
    """A toy run's policy and its search data at decisions with a choice."""
    trainer = Trainer.start(tiny_config(highcard), tmp_path / "run")
    search = expert.SearchGames(trainer.config, trainer.model.policy)
    data = expert.SearchData.merged([search.play(1, index) for index in range(games)])
    choice = data.masks.sum(axis=1) >= 2
    assert choice.sum() >= 4
    return trainer, expert.SearchData(*(array[choice] for array in vars(data).values()))


def with_targets(data, pick):
    """`data` whose target at each decision is one-hot on `pick(legal ids)`."""
    chosen = [pick(np.flatnonzero(mask)) for mask in data.masks]
    return expert.SearchData(
        data.observations, data.masks, np.eye(data.masks.shape[1], dtype=np.float32)[chosen], data.returns
    )


def held_out_fit(trainer, first, second, **settings):
    """Fit to `first` with `second` held out (the newest half); the figures."""
    fit = trainer.config.expert.model_copy(update={"holdout": 0.5, "epochs": 3, "learning_rate": 1e-2, **settings})
    return expert.fit_to_search(trainer.model.policy, expert.SearchData.merged([first, second]), fit, seed=0)


def test_a_held_out_share_keeps_the_epoch_that_predicts_it_best(highcard, tmp_path):
    trainer, data = games_played(highcard, tmp_path)
    first = with_targets(data, lambda legal: legal[0])
    figures = held_out_fit(trainer, first, first)
    assert figures["epochs_kept"] == 3  # every epoch predicts the same targets better
    assert figures["held_out_policy_loss"] < figures["policy_loss"] + 1e-6


def test_a_fit_that_predicts_the_held_out_share_worse_leaves_the_network_as_it_came(highcard, tmp_path):
    trainer, data = games_played(highcard, tmp_path)
    before = copy.deepcopy(trainer.model.policy.state_dict())
    figures = held_out_fit(
        trainer, with_targets(data, lambda legal: legal[0]), with_targets(data, lambda legal: legal[-1])
    )
    assert figures["epochs_kept"] == 0
    after = trainer.model.policy.state_dict()
    assert all(torch.equal(before[key], after[key]) for key in before)


def test_a_sharpened_network_is_fitted_at_its_scale_and_sharpened_again(highcard, tmp_path):
    trainer, data = games_played(highcard, tmp_path)
    policy = trainer.model.policy
    plain = copy.deepcopy(policy)
    sharpen(policy, 0.1)
    sharpened = copy.deepcopy(policy.state_dict())
    first, second = with_targets(data, lambda legal: legal[0]), with_targets(data, lambda legal: legal[-1])
    figures = held_out_fit(trainer, first, second, sharpening=0.1)
    assert figures["epochs_kept"] == 0
    after = policy.state_dict()
    assert all(torch.allclose(sharpened[key], after[key], rtol=1e-5, atol=1e-6) for key in sharpened)
    unsharpened = held_out_fit(Trainer.start(tiny_config(highcard), tmp_path / "plain"), first, second)
    with torch.no_grad():
        merged = expert.SearchData.merged([first, second])
        logits, _ = actor_critic_outputs(plain, torch.as_tensor(merged.observations))
        log_probs = torch.log_softmax(logits.masked_fill(~torch.as_tensor(merged.masks), -1e8), dim=1)
        plain_loss = float(-(torch.as_tensor(merged.policies) * log_probs).sum(dim=1).mean())
    assert figures["policy_loss"] == pytest.approx(plain_loss, rel=1e-4)
    assert figures["policy_loss"] == pytest.approx(unsharpened["policy_loss"], rel=1e-4)


def test_a_generation_stopped_midway_plays_only_the_games_it_had_not_saved(highcard, tmp_path, monkeypatch):
    monkeypatch.setattr(expert, "GAMES_PER_FILE", 2)
    config = tiny_config(highcard, "expert.games=5")
    policy = Trainer.start(config, tmp_path / "run").model.policy
    store = tmp_path / "games"
    whole = expert.collect_search_data(config, policy, 1)
    saved = expert.collect_search_data(config, policy, 1, store=store)
    assert sorted(path.name for path in store.glob("*.npz")) == [f"games_{start:07d}.npz" for start in (0, 2, 4)]
    (store / "games_0000002.npz").unlink()  # the generation stopped while it played games 2 and 3
    played, progress = [], []
    play = expert.SearchGames.play
    monkeypatch.setattr(expert.SearchGames, "play", lambda games, *game: played.append(game) or play(games, *game))
    resumed = expert.collect_search_data(config, policy, 1, on_game=progress.append, store=store)
    assert played == [(1, 2), (1, 3)] and progress == [4, 5]
    for data in (saved, resumed):
        assert all(np.array_equal(getattr(whole, name), getattr(data, name)) for name in vars(whole))


def test_saved_search_games_of_other_settings_or_a_corrupt_record_are_refused(highcard, tmp_path):
    config = tiny_config(highcard, "expert.games=2")
    policy = Trainer.start(config, tmp_path / "run").model.policy
    store = tmp_path / "games"
    expert.collect_search_data(config, policy, 1, store=store)
    with pytest.raises(ConfigError, match=r"seed settings \(0, not 3\)"):
        expert.collect_search_data(tiny_config(highcard, "expert.games=2", "seed=3"), policy, 1, store=store)
    with pytest.raises(ConfigError, match="other expert settings"):
        expert.collect_search_data(tiny_config(highcard, "expert.games=3"), policy, 1, store=store)
    expert.collect_search_data(tiny_config(highcard, "expert.games=2", "expert.epochs=9"), policy, 1, store=store)
    (store / "settings.json").write_text("[1, 2")
    with pytest.raises(CheckpointError, match="settings.json cannot be read"):
        expert.collect_search_data(config, policy, 1, store=store)


def test_the_gate_keeps_the_current_network_when_the_new_one_is_no_better(highcard, tmp_path, monkeypatch):
    monkeypatch.setattr(expert, "fit_to_search", lambda policy, data, settings, seed: {"policy_loss": 0.0})
    trainer = Trainer.start(tiny_config(highcard, "expert.generations=1"), tmp_path / "run")
    trainer.run()
    gate = json.loads((tmp_path / "run" / "history.jsonl").read_text().splitlines()[0])["expert"]["gate"]
    assert gate["margin"] == 0.0 and gate["accepted"] is False  # the same network on the same deals: level


def test_the_gate_rejects_a_network_that_loses(highcard, tmp_path, monkeypatch):
    before = {}

    def losing_margin(config, candidate, current, seed):
        before.update({key: value.clone() for key, value in current.state_dict().items()})
        return expert.AgentScore("margin", -0.5, 0.1, 8)

    monkeypatch.setattr(expert, "gate_margin", losing_margin)
    trainer = Trainer.start(tiny_config(highcard, "expert.generations=1"), tmp_path / "run")
    trainer.run()
    after = trainer.model.policy.state_dict()
    assert all(torch.equal(before[key], after[key]) for key in before)
    gate = json.loads((tmp_path / "run" / "history.jsonl").read_text().splitlines()[0])["expert"]["gate"]
    assert gate == {"margin": -0.5, "ci95": 0.1, "accepted": False}


WORKERS_SCRIPT = """
import sys, tempfile
import numpy as np
from cardarena.training import expert
from cardarena.training.config import load_train_config
from cardarena.training.train import Trainer

settings = sys.argv[1:]
one = load_train_config("yokir", overrides=[*settings, "expert.workers=1"])
policy = Trainer(one, tempfile.mkdtemp()).model.policy
alone = expert.collect_search_data(one, policy, generation=3)
shared = expert.collect_search_data(load_train_config("yokir", overrides=[*settings, "expert.workers=2"]), policy, 3)
assert len(alone) > 0
for name in ("observations", "masks", "policies", "returns"):
    assert np.array_equal(getattr(alone, name), getattr(shared, name)), name
print("same data:", len(alone), "decisions")
"""


@pytest.mark.slow  # spawns processes or trains a real game: about half a minute each
def test_search_data_is_the_same_with_one_or_two_workers():
    # run as `python -c`: spawned workers import the parent's main module, which must not be a test runner
    result = subprocess.run([sys.executable, "-c", WORKERS_SCRIPT, *TINY], capture_output=True, text=True, timeout=400)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "same data:" in result.stdout


BUSY_WORKERS_SCRIPT = """
import sys, tempfile
from cardarena.training import expert
from cardarena.training.config import load_train_config
from cardarena.training.train import Trainer

config = load_train_config("yokir", overrides=[*sys.argv[1:], "expert.games=2000", "expert.workers=2"])
policy = Trainer(config, tempfile.mkdtemp()).model.policy
expert.collect_search_data(config, policy, generation=1, on_game=lambda done: print("game", done, flush=True))
"""


@pytest.mark.slow  # spawns processes or trains a real game: about half a minute each
@pytest.mark.skipif(not HAS_PROC, reason="finds the workers in /proc")
def test_search_workers_end_when_their_run_is_killed_alone():
    process = subprocess.Popen(
        [sys.executable, "-c", BUSY_WORKERS_SCRIPT, *TINY], stdout=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        assert process.stdout.readline().startswith("game"), "no search game finished"
        workers = spawned_workers(process.pid)
        assert len(workers) == 2
        alive = workers_left_after_killing(process, workers)
        assert alive == [], f"search workers {alive} outlived their run"
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()


@pytest.mark.slow  # spawns processes or trains a real game: about half a minute each
def test_a_killed_expert_run_resumes_at_the_next_generation_with_the_same_data(tmp_path):
    settings = [*TINY, "expert.generations=3"]
    unkilled = tmp_path / "unkilled"
    Trainer.start(load_train_config("yokir", overrides=settings), unkilled).run()

    run = tmp_path / "run"
    train = [sys.executable, "-m", "cardarena.cli", "train", "yokir"]
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    with open(tmp_path / "train.log", "w") as log:
        command = [*train, "--run-dir", str(run), *[arg for setting in settings for arg in ("--set", setting)]]
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, start_new_session=True)
        deadline = time.monotonic() + 240
        try:
            while (latest := latest_checkpoint(run)) is None or latest.name == "step_0000000000":
                assert process.poll() is None, (tmp_path / "train.log").read_text()
                assert time.monotonic() < deadline, "no generation's checkpoint within 240 s"
                time.sleep(0.1)
        finally:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
    assert not (run / "final").exists()
    done = json.loads((latest_checkpoint(run) / "trainer_state.json").read_text())["generation"]
    assert 1 <= done < 3

    resumed = subprocess.run([*train, "--resume", str(run)], capture_output=True, text=True, env=env, timeout=400)
    assert resumed.returncode == 0, resumed.stdout + resumed.stderr

    def history(folder):
        return [json.loads(line) for line in (folder / "history.jsonl").read_text().splitlines()]

    assert history(run) == history(unkilled)


def parameters(policy, part):
    return [parameter.detach().clone() for layer in policy_layers(policy)[part] for parameter in layer.parameters()]


def test_value_games_fit_the_critic_alone_better_than_before_and_replay_by_seed(highcard, tmp_path):
    config = tiny_config(
        highcard, "expert.value_games=1500", "expert.learning_rate=0.01", "expert.batch_size=32", "ppo.net_arch=[32]"
    )
    policy = Trainer.start(config, tmp_path / "run").model.policy
    twin = copy.deepcopy(policy)
    actor, critic = parameters(policy, "actor"), parameters(policy, "value")

    figures = fit_critic_to_own_games(policy, config, seed=3)

    assert all(torch.equal(a, b) for a, b in zip(actor, parameters(policy, "actor"), strict=True))
    assert not all(torch.equal(a, b) for a, b in zip(critic, parameters(policy, "value"), strict=True))
    assert figures["value_positions"] > 1500  # a position at each decision, two or three a game
    # a highcard seat's return follows from its own two cards: the fresh last chunk is predicted better
    assert figures["value_error_last"] < 0.8 * figures["value_error_first"]
    assert fit_critic_to_own_games(twin, config, seed=3) == figures
    assert all(torch.equal(a, b) for a, b in zip(parameters(twin, "value"), parameters(policy, "value"), strict=True))


def test_a_value_game_records_one_position_a_decision_with_the_return_from_there(highcard, tmp_path):
    config = tiny_config(highcard, "env.num_hands=3", "expert.value_explore=0")
    agent = PolicyAgent(export_policy(Trainer.start(config, tmp_path / "run").model.policy))
    observations, returns = play_value_game(config, agent, random.Random(1))
    seats = config.env.get("num_players", 2)
    assert observations.shape == (3 * seats, agent.observation_size)  # each seat decides once a hand
    # each hand pays a seat +1/2, 0 or -1/2 at two seats; a position's return counts the hands from its own on
    for position, value in enumerate(returns):
        hands_left = 3 - position // seats
        assert abs(value) <= hands_left / 2 and (2 * value) == pytest.approx(round(2 * value))


def gate_with_margin(mean):
    return lambda config, candidate, current, seed: expert.AgentScore("margin", mean, 0.1, 8)


def test_a_value_game_without_decisions_gives_no_positions(highcard, tmp_path, monkeypatch):
    config = tiny_config(highcard)
    agent = PolicyAgent(export_policy(Trainer.start(config, tmp_path / "run").model.policy))
    monkeypatch.setattr(Table, "advance", lambda table, actors: None)  # the hand ends before anyone acts
    observations, returns = play_value_game(config, agent, random.Random(1))
    assert observations.shape == (0, agent.observation_size) and returns.shape == (0,)


def test_an_accepted_generation_refits_the_critic_and_records_it(highcard, tmp_path, monkeypatch):
    monkeypatch.setattr(
        expert, "gate_margin", lambda config, candidate, current, seed: expert.AgentScore("m", 1.0, 0.1, 8)
    )
    run = tmp_path / "run"
    Trainer.start(tiny_config(highcard, "expert.generations=1", "expert.value_games=20"), run).run()
    row = json.loads((run / "history.jsonl").read_text().splitlines()[0])["expert"]
    assert row["gate"]["accepted"] and row["value_positions"] >= 20
    assert np.isfinite([row["value_error_first"], row["value_error_last"]]).all()


def test_a_rejected_generation_plays_no_value_games(highcard, tmp_path, monkeypatch):
    monkeypatch.setattr(
        expert, "gate_margin", lambda config, candidate, current, seed: expert.AgentScore("m", -1.0, 0.1, 8)
    )
    monkeypatch.setattr(expert, "fit_critic_to_own_games", lambda *args, **kwargs: pytest.fail("value games played"))
    run = tmp_path / "run"
    Trainer.start(tiny_config(highcard, "expert.generations=1", "expert.value_games=20"), run).run()
    row = json.loads((run / "history.jsonl").read_text().splitlines()[0])["expert"]
    assert not row["gate"]["accepted"] and "value_positions" not in row


def test_algo_critic_refits_the_start_critic_alone_once_even_when_resumed(highcard, tmp_path, monkeypatch):
    start = Trainer.start(tiny_config(highcard), tmp_path / "start")
    start.run()
    start_agent = load(str(tmp_path / "start" / "final"))
    run = tmp_path / "critic"
    config = tiny_config(highcard, "algo=critic", f"start_from={tmp_path / 'start' / 'final'}", "expert.value_games=30")

    Trainer.start(config, run).run()

    refitted = load(str(run / "final"))
    observations, _ = play_value_game(config, start_agent, random.Random(2))
    for observation in observations:
        assert np.array_equal(refitted.logits(observation), start_agent.logits(observation))
    assert any(refitted.value(row) != start_agent.value(row) for row in observations)
    figures = json.loads((run / "history.jsonl").read_text().splitlines()[0])["critic"]
    positions = int(figures["value_positions"])
    assert positions >= 30 and (run / "checkpoints" / f"step_{positions:010d}").is_dir()

    monkeypatch.setattr("cardarena.training.train.fit_critic_to_own_games", lambda *a, **k: pytest.fail("refitted"))
    Trainer.resume(run).run()
    resumed = load(str(run / "final"))
    assert np.array_equal(resumed.value(observations[0]), refitted.value(observations[0]))


@pytest.mark.parametrize("setting", ["expert.value_games=10", "start_from=yokir/ppo-selfplay"])
def test_algo_critic_needs_a_start_and_value_games(setting):
    with pytest.raises(ConfigError, match="algo: critic refits start_from's critic"):
        load_train_config("yokir", overrides=["algo=critic", setting])
