"""The self-play wrapper: the learner's own reward, seat rotation, masks, opponent sampling, config sampling."""

import numpy as np
import pytest
from cardarena.agents.policy import PolicyAgent
from cardarena.training.config import OpponentSettings
from cardarena.training.selfplay import OpponentPool, SelfPlayEnv


def random_pool(seed=0, **settings):
    return OpponentPool("yokir", OpponentSettings(baselines=["random"], **settings), seed=seed)


def tiny_policy(seed, observation_size=252, num_actions=29):
    rng = np.random.default_rng(seed)
    return {
        "format": 1,
        "activation": "tanh",
        "weights": [
            rng.normal(size=(8, observation_size)).astype(np.float32),
            rng.normal(size=(num_actions, 8)).astype(np.float32),
        ],
        "biases": [np.zeros(8, np.float32), np.zeros(num_actions, np.float32)],
    }


def play_learner_episode(env, rng):
    """Random legal learner moves until the episode ends; the rewards the learner received, in order."""
    env.reset()
    rewards = []
    while True:
        legal = np.flatnonzero(env.action_masks())
        _, reward, terminated, truncated, info = env.step(int(rng.choice(legal)))
        rewards.append(reward)
        if terminated or truncated:
            return rewards, info


def test_learner_receives_its_own_seat_reward_not_an_opponents():
    env = SelfPlayEnv("yokir", {"reward_mode": "points"}, {}, random_pool(), seed=1)
    rng = np.random.default_rng(0)
    differs_from_an_opponent = 0
    for _ in range(60):
        rewards, info = play_learner_episode(env, rng)
        returns = env.table.env.game.returns(env.table.env.state)
        own = returns[env.learner_seat]
        assert sum(rewards) == pytest.approx(own)
        assert info["outcome"]["reward"] == pytest.approx(own)
        assert all(r == 0 for r in rewards[:-1]), "Yokir pays only at the end of the hand"
        differs_from_an_opponent += any(returns[s] != own for s in range(3) if s != env.learner_seat)
    assert differs_from_an_opponent > 10


def test_learner_seat_rotates_and_mask_matches_the_legal_actions():
    env = SelfPlayEnv("yokir", {}, {}, random_pool(), seed=2)
    rng = np.random.default_rng(1)
    seats = []
    for _ in range(6):
        env.reset()
        seats.append(env.learner_seat)
        table = env.table.env
        assert table.agent_selection == table.possible_agents[env.learner_seat]
        assert np.flatnonzero(env.action_masks()).tolist() == table.game.legal_actions(table.state)
        while True:
            _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            if terminated or truncated:
                break
    assert seats == [0, 1, 2, 0, 1, 2]


def test_match_mode_credits_the_match_result_at_the_end():
    env = SelfPlayEnv("yokir", {"match": True, "target_score": 2}, {}, random_pool(), seed=3)
    rewards, info = play_learner_episode(env, np.random.default_rng(2))
    assert sum(rewards) in (pytest.approx(1.0), pytest.approx(-0.5))
    assert info["outcome"]["won"] == (sum(rewards) > 0)


def test_env_config_is_sampled_per_episode():
    env = SelfPlayEnv("yokir", {}, {"dealer": [0, 1, 2]}, random_pool(), seed=4)
    dealers = set()
    for _ in range(30):
        env.reset()
        dealers.add(env.table.env.state.dealer)
    assert dealers == {0, 1, 2}


def test_pool_strategies():
    latest = random_pool(strategy="latest", baseline_share=0.0)
    for steps in (0, 100, 200):
        latest.add_snapshot(tiny_policy(steps), steps)
    assert {latest.sample().name for _ in range(20)} == {"snapshot@200"}

    uniform = random_pool(strategy="uniform", baseline_share=0.0, max_snapshots=2)
    for steps in (0, 100, 200):
        uniform.add_snapshot(tiny_policy(steps), steps)
    assert {uniform.sample().name for _ in range(200)} == {"snapshot@100", "snapshot@200"}

    prioritized = random_pool(strategy="prioritized", baseline_share=0.0)
    prioritized.add_snapshot(tiny_policy(0), 0)
    prioritized.add_snapshot(tiny_policy(1), 1)
    strong, weak = prioritized.snapshots
    for _ in range(50):
        prioritized.record(strong, opponent_reward=1.0, learner_reward=-1.0)
        prioritized.record(weak, opponent_reward=-1.0, learner_reward=1.0)
    picks = [prioritized.sample().name for _ in range(500)]
    assert picks.count(strong.name) > 0.9 * len(picks)


def test_baselines_fill_seats_before_any_snapshot_and_by_share():
    pool = random_pool(baseline_share=0.5, strategy="latest")
    assert pool.sample().name == "random"
    pool.add_snapshot(tiny_policy(0), 0)
    names = [pool.sample().name for _ in range(400)]
    assert 0.4 < names.count("random") / len(names) < 0.6


def test_pool_state_round_trip():
    pool = random_pool(seed=5, strategy="uniform", baseline_share=0.3)
    pool.add_snapshot(tiny_policy(0), 0)
    pool.add_snapshot(tiny_policy(1), 50)
    pool.record(pool.snapshots[0], 1.0, 0.0)
    restored = random_pool(seed=99, strategy="uniform", baseline_share=0.3)
    restored.load_state_dict(pool.state_dict())
    assert [s.name for s in restored.snapshots] == ["snapshot@0", "snapshot@50"]
    assert restored.snapshots[0].beat_learner == 1
    assert [pool.sample().name for _ in range(30)] == [restored.sample().name for _ in range(30)]
    observation = {"observation": np.full(252, 0.5, np.float32), "action_mask": np.ones(29, np.int8)}
    assert isinstance(restored.snapshots[1].agent, PolicyAgent)
    assert restored.snapshots[1].agent.logits(observation["observation"]) == pytest.approx(
        pool.snapshots[1].agent.logits(observation["observation"])
    )


ELIMINATION = {"num_players": 4, "mode": "gambling", "num_hands": 20, "starting_stack": 20, "buy_in": 10}


def test_an_elimination_match_ends_for_the_learner_only_when_its_seat_is_out_or_the_game_is_over():
    env = SelfPlayEnv("piktas", ELIMINATION, {}, OpponentPool("piktas", OpponentSettings(baselines=["random"])), seed=6)
    rng = np.random.default_rng(6)
    early_ends = eliminated = 0
    for _ in range(100):
        env.reset()
        received = 0.0
        while True:
            game, state = env.table.env.game, env.table.env.state
            assert game.current_player(state) == env.learner_seat and not game.seat_done(state, env.learner_seat)
            _, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            received += reward
            if terminated or truncated:
                break
        game_over = game.is_terminal(state) or game.is_truncated(state)
        learner_out = game.seat_done(state, env.learner_seat)
        early_ends += not (game_over or learner_out)
        eliminated += learner_out and not game_over
        assert received == pytest.approx(game.returns(state)[env.learner_seat])
        assert info["outcome"]["reward"] == pytest.approx(received)
    assert early_ends == 0
    assert eliminated >= 20, "the learner is knocked out of many matches before they end"
