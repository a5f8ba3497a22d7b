"""The rule-based Paradigm agent: key decisions on constructed tables, reading the observation,
legality, and strength against random players."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest
from agent_support import decisions
from cardarena.agents import RandomAgent, load
from cardarena.agents.paradigm_heuristic import ParadigmHeuristic, _best_placement, read_view
from cardarena.envs import make
from cardarena.envs.paradigm.encode import ACTION_NAMES
from cardarena.envs.paradigm.game import HAND_ID, PLACE, PROCESS
from cardarena.envs.paradigm.standing import placed
from cardarena.training.evaluate import evaluate, play_episode

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "envs" / "paradigm"))
from paradigm_support import between_turns, env_at_turn, ids, play  # noqa: E402 - found through the sys.path line above


def choice(env) -> str:
    seat = env.game.current_player(env.state)
    observation = env.observe(f"player_{seat}")
    action = ParadigmHeuristic().act(observation)
    assert observation["action_mask"][action]
    return ACTION_NAMES[action]


def test_captures_the_most_valuable_opponent_pile():
    env = env_at_turn(between_turns(piles=("L3", "S2 S4", "D2 H5", "H1 D3"), top="L8"))
    assert choice(env) == "ON_TOP(H5)"


def test_multiplies_its_own_pile_when_nothing_is_worth_capturing():
    env = env_at_turn(between_turns(piles=("L2 L6", "S9", "D9", "H9"), top="L7"))
    assert choice(env) == "ON_TOP(L6)"


def test_keeps_a_card_that_completes_an_error():
    env = env_at_turn(between_turns(piles=("L1", "S2", "D2", "H2"), hands={0: "L4 L5"}, top="L6"))
    assert choice(env) == "HAND"


def test_cancels_a_big_capture_of_its_pile():
    env = env_at_turn(between_turns(piles=("L3", "S2 S5 S9", "D4", "H5"), hands={1: "S6 S7 S8"}, top="L10"))
    play(env, "ON_TOP(S9)")
    assert choice(env) == "CANCEL(6)"


def test_lets_a_small_move_stand():
    env = env_at_turn(between_turns(piles=("L3", "S9", "D4", "H5"), hands={1: "S6 S7 S8"}, top="L2"))
    play(env, "NEW_PILE")
    assert choice(env) == "PASS"


def test_plays_a_hand_card_that_captures_in_the_play_round():
    env = env_at_turn(between_turns(piles=("L3", "S2 S4 S6"), hands={0: "L9"}, suits="L S", top="H3"))
    assert choice(env) == "CARD(L9)"
    play(env, "CARD(L9)")
    assert choice(env) == "ON_TOP(S6)"


def test_reads_the_piles_hands_and_pending_move_from_the_observation():
    env = make("paradigm_v2", num_players=3)
    agent = ParadigmHeuristic()
    for name, observation in decisions(env, range(20)):
        view, seat_view = read_view(observation["observation"]), env.observe_json(name)
        seat = seat_view["seat"]
        assert sorted(map(sorted, view.table)) == sorted(sorted(ids(" ".join(pile))) for pile in seat_view["table"])
        assert [sorted(hand) for hand in view.hands] == [
            sorted(ids(" ".join(seat_view["hands"][(seat + rel) % 3]))) for rel in range(3)
        ]
        if seat_view["pending"]:
            assert view.pending_card == ids(seat_view["pending"]["card"])[0]
        assert view.deck_size == seat_view["deck_size"]
        env.step(agent.act(observation))


def _placement_by_rescoring(view, card: int, options: list[int]) -> tuple[int, int]:
    """The plain reference: each option's standing found by scoring the whole table after it."""
    now = view.standing(view.table)
    scored = [(view.standing(placed(view.table, card, action)) - now, action) for action in options]
    gain, action = max(scored, key=lambda entry: (entry[0], -entry[1]))
    return action, gain


@pytest.mark.parametrize("n", [2, 4])
def test_placements_agree_with_rescoring_the_whole_table(n):
    env, checked = make("paradigm_v2", num_players=n), 0
    for _name, observation in decisions(env, range(15)):
        view = read_view(observation["observation"])
        card = view.pending_card
        if view.phase in (PROCESS, PLACE) and card >= 0:
            options = [int(action) for action in np.flatnonzero(observation["action_mask"]) if action != HAND_ID]
            assert _best_placement(view, card, options) == _placement_by_rescoring(view, card, options)
            checked += 1
        env.step(ParadigmHeuristic().act(observation))
    assert checked > 50


@pytest.mark.parametrize("n", [2, 3, 4])
def test_always_chooses_a_legal_action(n):
    env = make("paradigm_v2", num_players=n)  # it raises IllegalActionError on an illegal action
    heuristic = load("paradigm/heuristic")
    rng = random.Random(n)
    for episode in range(40):
        seated = [heuristic if (seat + episode) % 2 else RandomAgent(episode) for seat in range(n)]
        assert sum(play_episode(env, seated, rng.getrandbits(63))) == pytest.approx(0.0)


def test_beats_random_players():
    agents = [("heuristic", ParadigmHeuristic())] + [("random", RandomAgent(seat)) for seat in range(1, 4)]
    score = evaluate("paradigm", agents, 300, seed=0).score_of("heuristic")
    assert score.low > 0.0
