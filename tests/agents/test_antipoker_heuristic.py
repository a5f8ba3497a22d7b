"""The rule-based Antipoker agent: its draws and bets on constructed tables, legality, and strength vs random."""

from __future__ import annotations

import random

import numpy as np
import pytest
from cardarena.agents import RandomAgent, load
from cardarena.agents.antipoker_heuristic import AntipokerHeuristic, best_discard, percentile, planned_discard
from cardarena.envs import make
from cardarena.envs.antipoker.game import CALL, DONE, FOLD, RAISE
from cardarena.envs.antipoker.rules import DECK
from cardarena.training.evaluate import evaluate, play_episode


def table(hand: str, seed: int = 0, **config):
    """A two-player table where seat 0 holds `hand` and is to draw."""
    env = make("antipoker_v1", **config)
    env.reset(seed=seed)
    own = DECK.indices_of(hand.split())
    rest = [card for card in range(len(DECK)) if card not in own]
    env.state.hands = [sorted(own), rest[:6]]
    env.state.deck = rest[6:]
    env.load_state(env.state)
    return env


def plays(env, agent=None) -> int:
    agent = agent or AntipokerHeuristic()
    observation = env.observe(env.agent_selection)
    action = agent.act(observation)
    assert observation["action_mask"][action]
    return action


def discards(hand: str) -> list[str]:
    """The cards the heuristic picks before DONE, seen through the environment."""
    env = table(hand)
    picked = []
    while (action := plays(env)) != DONE:
        picked.append(DECK.codes[action])
        env.step(action)
    return picked


@pytest.mark.parametrize("hand", ["L7 S7 D7 H7 L1 S2", "STONE S10 S9 S8 H1 H2", "SUN STONE KNIFE ROSE L10 H10"])
def test_stands_pat_on_a_made_hand(hand):
    assert discards(hand) == []


def test_draws_to_a_flush_of_one_colour_and_keeps_its_essence():
    picked = discards("SUN L9 L8 L7 D6 S1")
    assert picked == ["S1"]


def test_replans_the_same_discard_at_every_pick():
    picked = discards("L1 S2 D3 H4 L5 S6")
    assert picked and picked == sorted(picked, key=DECK.index_of)
    rng = np.random.default_rng([0, *sorted(DECK.indices_of("L1 S2 D3 H4 L5 S6".split()))])
    hand = sorted(DECK.indices_of("L1 S2 D3 H4 L5 S6".split()))
    unseen = [card for card in range(len(DECK)) if card not in hand]
    assert DECK.codes_of(best_discard(hand, unseen, rng)) == sorted(picked, key=DECK.index_of)


def test_the_plan_kept_for_a_hand_is_its_own_seeds():
    hand = tuple(sorted(DECK.indices_of("L3 S7 D5 D7 H2 H3".split())))
    unseen = [card for card in range(len(DECK)) if card not in hand]
    plans = [planned_discard(seed, hand) for seed in (0, 1, 0, 1)]
    fresh = [best_discard(list(hand), unseen, np.random.default_rng([seed, *hand])) for seed in (0, 1)]
    assert plans == [tuple(fresh[0]), tuple(fresh[1])] * 2
    assert DECK.codes_of(fresh[0]) != DECK.codes_of(fresh[1])  # the seeds' samples plan differently here


def test_bets_a_strong_hand_and_folds_a_weak_one_to_a_bet():
    env = table("L7 S7 D7 H7 L1 S2")
    env.step(DONE)
    env.step(DONE)
    assert plays(env) == RAISE
    env = table("L1 S2 D3 H4 L5 S6")
    env.step(DONE)
    env.step(DONE)
    assert plays(env) == CALL  # checks: nothing is owed
    env.step(CALL)
    env.step(RAISE)
    assert plays(env) == FOLD


def test_percentile_ranks_hand_values():
    ranks = percentile(np.array([0, 37, 189, 934, 1_000_000]))
    assert ranks[0] == 0.0 and ranks[1] == pytest.approx(0.05) and ranks[2] == pytest.approx(0.5)
    assert ranks[3] == pytest.approx(0.95) and ranks[4] == 1.0


@pytest.mark.parametrize(
    ("config", "episodes"),
    [({}, 30), ({"betting": False}, 20), ({"num_players": 6}, 8), ({"num_players": 3, "num_hands": 3}, 5)],
)
def test_always_chooses_a_legal_action(config, episodes):
    env = make("antipoker_v1", **config)  # it raises IllegalActionError on an illegal action
    heuristic = load("antipoker/heuristic")
    rng = random.Random(0)
    seated = [heuristic if seat % 2 == 0 else RandomAgent(seat) for seat in range(env.game.num_players)]
    for _ in range(episodes):
        assert sum(play_episode(env, seated, rng.getrandbits(63))) == pytest.approx(0.0)


@pytest.mark.parametrize("config", [{}, {"betting": False}])
def test_beats_random(config):
    agents = [("heuristic", AntipokerHeuristic()), ("random", RandomAgent(1))]
    score = evaluate("antipoker", agents, 300, seed=0, config=config).score_of("heuristic")
    assert score.low > 0.0
