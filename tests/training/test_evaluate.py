"""Evaluation tournaments: rotation over duplicate deals, pooling, confidence intervals."""

import pytest
from cardarena.agents import RandomAgent
from cardarena.envs.yokir.encode import SLICES
from cardarena.training.evaluate import evaluate


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
