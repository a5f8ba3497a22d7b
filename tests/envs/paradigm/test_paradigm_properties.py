"""Random play at two, three and four seats: every episode ends within the rulebook's bound with
the invariants kept (`play_random_episode`), the 45 cards conserved, piles always strictly
increasing, and hands holding only their owner's suit."""

from __future__ import annotations

import itertools
import random

import pytest
from cardarena.envs.core.conformance import play_random_episode
from cardarena.envs.paradigm.rules import SUIT, VALUE
from paradigm_support import make

DEFAULT_GAMES = 60
SLOW_GAMES = 3_000


def check_table_and_hands(env, rng: random.Random) -> None:
    state = env.state
    for pile in state.table:
        assert all(VALUE[low] < VALUE[high] for low, high in itertools.pairwise(pile)), pile
    for seat, hand in enumerate(state.hands):
        assert all(SUIT[card] == state.suits[seat] for card in hand)


def play_many(n: int, games: int) -> int:
    env, longest = make(num_players=n), 0
    for seed in range(games):
        report = play_random_episode(env, seed, visit=check_table_and_hands)
        assert report.broken == [], f"{n} seats, seed {seed}: {report.broken}"
        assert env.game.is_terminal(env.state) and report.hands == 1
        longest = max(longest, report.decisions)
    assert longest <= env.game.max_decisions()
    return longest


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_end_within_the_bound(n):
    play_many(n, DEFAULT_GAMES)


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 3, 4])
def test_thousands_of_random_games_end_within_the_bound(n):
    play_many(n, SLOW_GAMES)


def test_returns_are_zero_sum_and_follow_the_scores():
    env = make(num_players=3)
    for seed in range(30):
        play_random_episode(env, seed)
        result = env.history()[-1]
        top = max(result["scores"])
        assert result["winners"] == [seat for seat, score in enumerate(result["scores"]) if score == top]
        assert sum(env.game.returns(env.state)) == pytest.approx(0.0)
        assert (
            all((r > 0) == (seat in result["winners"]) for seat, r in enumerate(result["rewards"]))
            or len(result["winners"]) == 3
        )
