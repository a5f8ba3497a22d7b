"""The rule-based Dividha agent: its side (Win or Lose) and trades on stacked decks, and strength."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest
from agent_support import decisions
from cardarena.agents import load
from cardarena.agents.dividha_heuristic import DividhaHeuristic
from cardarena.envs import make
from cardarena.envs.dividha.actions import ACTION_NAMES
from cardarena.training.evaluate import evaluate

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "envs" / "dividha"))
from dividha_env_support import act, table  # noqa: E402 - found through the sys.path line above


def two_seats(stock: str, **config):
    """Two seats, dealer 0 (seat 1 acts first; each pair is dealt 1, 0, 1, 0) on a stacked stock."""
    return table(stock.split(), num_players=2, dealer=0, **config)


def choice(env) -> str:
    observation = env.observe(env.agent_selection)
    action = DividhaHeuristic().act(observation)
    assert observation["action_mask"][action]
    return ACTION_NAMES[action]


def at_last_round(stock: str):
    env = two_seats(stock)
    act(env, "CHECK", "CHECK", "CHECK", "CHECK", "TRADE([])", "TRADE([])")
    assert env.state.betting_round == 3 and env.agent_selection == "player_1"
    return env


def test_it_stakes_a_high_card_of_mortal_cards_on_lose():
    # seat 1: KH 7D 5B 4H 2D 3B, no pair and no immortal card: almost surely the worst hand
    env = at_last_round("KH QV 7D QH 5B QD 4H 3V 2D 4V 3B 2H")
    assert choice(env) == "RAISE(MIN, LOSE)"
    act(env, "RAISE(MIN, WIN)")
    assert choice(env) == "RAISE(MIN, WIN)"  # seat 0's three Queens stake on Win


def test_it_stakes_a_full_house_on_win_and_calls_on_win():
    env = at_last_round("KH 7H KD 7D KB 5B 4H 6H 4D 3H 2B 2V")
    assert choice(env) == "RAISE(MIN, WIN)"
    act(env, "RAISE(MIN, LOSE)")
    assert choice(env) == "RAISE(MIN, LOSE)"  # seat 0's 7H 7D 5B 6H 3H 2V: a weak pair, on Lose


def test_on_the_lose_side_it_trades_in_the_cards_that_help_its_hand():
    # seat 1 holds AV 7H 4D KB: a High Card with an immortal Ace, likelier worst than best
    env = two_seats("AV QH 7H QD 4D QB KB 3V")
    act(env, "CHECK", "CHECK", "CHECK", "CHECK")
    assert choice(env) == "TRADE([P1])"


def test_on_the_win_side_it_trades_in_what_its_best_hand_cannot_use():
    # seat 1 holds KV KD AL 3B: the pair of Kings with an immortal card; AL cannot join KV
    env = two_seats("KV 2H KD 3H AL 4H 3B 5D")
    act(env, "CHECK", "CHECK", "CHECK", "CHECK")
    assert choice(env) == "TRADE([U1])"


def test_with_pay_to_trade_it_pays_on_its_side():
    env = two_seats("AV QH 7H QD 4D QB KB 3V", pay_to_trade=True)
    act(env, "CHECK", "CHECK", "CHECK", "CHECK")
    assert choice(env) == "PAID_TRADE([P1], LOSE)"


@pytest.mark.parametrize(
    "config",
    [
        {},
        {"num_players": 7, "limit": "no", "all_in_unsplit": True},
        {"num_players": 3, "pay_to_trade": True, "demons_wager": True, "limit": "pot"},
    ],
)
def test_it_always_plays_a_legal_action(config):
    env = make("dividha_v1", **config)
    agent = DividhaHeuristic()
    for seed in range(30):
        rng = random.Random(seed)
        for _name, observation in decisions(env, [seed]):
            env.step(
                agent.act(observation) if rng.random() < 0.5 else rng.choice(observation["action_mask"].nonzero()[0])
            )


def test_the_heuristic_beats_random_players():
    agents = [("heuristic", load("dividha/heuristic")), *[("random", load("random", seed=s)) for s in range(3)]]
    result = evaluate("dividha", agents, episodes=300, seed=3)
    heuristic = next(score for score in result.scores if score.name == "heuristic")
    assert heuristic.low > 0
