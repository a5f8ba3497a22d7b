"""Evaluation tournaments: rotation over duplicate deals, pooling, confidence intervals."""

import math
import statistics

import pytest
from cardarena.agents import RandomAgent
from cardarena.envs.yokir.encode import SLICES
from cardarena.training.evaluate import SERIES_DF, Z_95, evaluate, mean_with_ci, t_quantile_95


class FirstHandRecorder(RandomAgent):
    """Random play that remembers its own cards at its first decision of every episode."""

    def __init__(self, seed):
        super().__init__(seed)
        self.hands = []
        self._fresh = True

    def reset(self):
        self._fresh = True

    def act(self, observation):
        if self._fresh:
            self.hands.append(tuple(observation["observation"][SLICES["hand"]].nonzero()[0]))
            self._fresh = False
        return super().act(observation)


def test_duplicate_deals_replay_the_same_cards_to_every_agent():
    agents = [FirstHandRecorder(seed) for seed in range(3)]
    evaluate("yokir", [(f"a{i}", agent) for i, agent in enumerate(agents)], episodes=6, seed=11, config={"dealer": 0})
    for deal in range(2):
        seen = [sorted(agent.hands[3 * deal : 3 * deal + 3]) for agent in agents]
        assert seen[0] == seen[1] == seen[2]
    assert sorted(agents[0].hands[:3]) != sorted(agents[0].hands[3:6])


def test_pooled_names_and_zero_sum_means():
    result = evaluate(
        "yokir", [("a", RandomAgent(1)), ("b", RandomAgent(2)), ("b", RandomAgent(3))], episodes=600, seed=2
    )
    a, b = result.score_of("a"), result.score_of("b")
    assert a.deals == b.deals == 200
    assert a.mean + 2 * b.mean == pytest.approx(0.0, abs=1e-9)
    assert 0 < a.ci95 < 0.2


def test_episode_count_and_bad_arguments():
    result = evaluate("yokir", [("x", RandomAgent(1)), ("y", RandomAgent(2)), ("z", RandomAgent(3))], episodes=4)
    assert result.episodes == 4
    assert result.score_of("x").deals == 2
    with pytest.raises(ValueError, match="3 seats"):
        evaluate("yokir", [("x", RandomAgent(1))], episodes=3)
    with pytest.raises(ValueError, match="episodes must be >= 1"):
        evaluate("yokir", [("x", RandomAgent(1))] * 3, episodes=0)


# Student's t, 97.5th percentile, from printed tables (to the digits they give)
T_TABLE = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 10: 2.228, 30: 2.042, 60: 2.000, 120: 1.980, 1000: 1.962}


@pytest.mark.parametrize("df", sorted(T_TABLE))
def test_t_quantile_matches_the_printed_tables(df):
    assert t_quantile_95(df) == pytest.approx(T_TABLE[df], abs=6e-4)


def test_t_quantile_shrinks_to_the_normal_one_without_a_step_where_its_method_changes():
    quantiles = [t_quantile_95(df) for df in range(1, 3 * SERIES_DF)]
    assert all(wider > narrower for wider, narrower in zip(quantiles, quantiles[1:], strict=False))
    step = t_quantile_95(SERIES_DF) - t_quantile_95(SERIES_DF + 1)
    assert step == pytest.approx(t_quantile_95(SERIES_DF - 1) - t_quantile_95(SERIES_DF), rel=0.05)
    assert t_quantile_95(10**7) == pytest.approx(Z_95, abs=1e-6)
    with pytest.raises(ValueError, match="degree of freedom"):
        t_quantile_95(0)


def test_a_few_deals_get_the_wider_t_interval():
    samples = [0.5, -1.0, 2.0, 0.25]
    score = mean_with_ci("a", samples)
    assert score.ci95 == pytest.approx(3.1824 * statistics.stdev(samples) / 2, rel=1e-4)
    assert math.isinf(mean_with_ci("b", [1.0]).ci95)
