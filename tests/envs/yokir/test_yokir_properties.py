"""Hypothesis properties of Yokir's rules over random play, in single-hand and match mode: where
the cards are in each phase, how many decisions a hand takes, how a match ends and pays.
(The properties every game shares are in tests/envs/test_conformance.py.)
"""

from __future__ import annotations

import random

from cardarena.envs.yokir.game import BID1, BID2, DISCARD, OVER, PLAY
from cardarena.envs.yokir.rules import match_winner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from yokir_support import PASS, make

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])

seeds = st.integers(0, 2**32 - 1)
configs = st.one_of(
    st.fixed_dictionaries({"reward_mode": st.sampled_from(["relative", "points"])}),
    st.fixed_dictionaries({"match": st.just(True), "target_score": st.integers(1, 4), "max_hands": st.integers(1, 8)}),
)


def _done(env) -> bool:
    agent = env.agent_selection
    return env.terminations[agent] or env.truncations[agent]


def _check_cards(game, state) -> None:
    """Every card is in exactly one place (a hand, out of play, played, the discard or the
    turned-down up-card), and each seat holds as many cards as the phase says."""
    assert game.conserved(state)["cards"] == list(range(24))
    assert len(state.out_of_play) == 8
    if state.phase in (BID1, BID2):  # bidding: nobody holds more or less than five
        assert [len(hand) for hand in state.hands] == [5, 5, 5]
    if state.phase == DISCARD:
        assert len(state.hands[state.caller]) == 6
    if state.phase == PLAY:
        played = [0, 0, 0]
        for leader, *_trick, _winner in state.tricks:
            for position in range(3):
                played[(leader + position) % 3] += 1
        for position in range(len(state.trick)):
            played[(state.leader + position) % 3] += 1
        assert [len(hand) + n for hand, n in zip(state.hands, played, strict=True)] == [5, 5, 5]


@SETTINGS
@given(seed=seeds, config=configs, policy=seeds)
def test_random_play_hand_sizes_lengths_and_match_end(seed, config, policy):
    env = make(**config)
    env.reset(seed=seed)
    rng = random.Random(policy)
    steps_in_hand, accepted, hand_number, hands_seen = 0, False, 0, 1
    while not _done(env):
        state = env.state
        _check_cards(env.game, state)
        action = rng.choice(env.game.legal_actions(state))
        accepted |= state.phase == BID1 and action != PASS
        env.step(action)
        steps_in_hand += 1
        if env.state.hand_number != hand_number or _done(env):
            assert steps_in_hand == 6 or 17 <= steps_in_hand <= (19 if accepted else 21), steps_in_hand
            steps_in_hand, accepted, hand_number = 0, False, env.state.hand_number
            hands_seen += 1 if not _done(env) else 0
        assert steps_in_hand <= 21
    _check_cards(env.game, env.state)
    assert env.state.phase == OVER
    if config.get("match"):
        assert env.state.hand_number == hands_seen <= config["max_hands"]
        winner = match_winner(env.state.scores, config["target_score"])
        if winner is None:
            assert all(env.truncations.values()) and env.state.hand_number == config["max_hands"]
            assert set(env.rewards.values()) == {0.0}
        else:
            assert all(env.terminations.values()) and not any(env.truncations.values())
            assert env.rewards == {f"player_{s}": 1.0 if s == winner else -0.5 for s in range(3)}
    elif config["reward_mode"] == "relative":
        assert abs(sum(env.rewards.values())) < 1e-9
