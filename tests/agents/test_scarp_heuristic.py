"""The rule-based Scarp agent: key decisions on laid-out tables, legality, and strength against
random play (with and without folds)."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import numpy as np
import pytest
from cardarena.agents import RandomAgent, load
from cardarena.agents.scarp_heuristic import ScarpHeuristic, read_view
from cardarena.envs import make
from cardarena.envs.scarp import game as scarp
from cardarena.envs.scarp.rules import DECK
from cardarena.training.evaluate import evaluate, play_episode

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "envs" / "scarp"))
from scarp_support import challenge, laid_out, pick, play  # noqa: E402 - found through the sys.path line above


class NoFoldRandom:
    """Uniformly random legal actions, never FOLD while anything else is legal."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def reset(self) -> None:
        pass

    def act(self, observation: dict[str, np.ndarray]) -> int:
        legal = np.flatnonzero(observation["action_mask"]).tolist()
        return self.rng.choice([a for a in legal if a != scarp.FOLD] or legal)


def choice(env) -> int:
    observation = env.observe(f"player_{env.state.to_act}")
    action = ScarpHeuristic().act(observation)
    assert observation["action_mask"][action]
    return action


def test_names_the_suit_it_holds_least():
    env = make("scarp_v1")
    env.reset(seed=0)
    hand = env.state.hands[0]
    held = [sum(DECK.codes[c][0] == suit for c in hand) for suit in "LSDH"]
    assert choice(env) == held.index(min(held))


def test_spends_the_ghost_to_draw_five():
    assert choice(laid_out(make("scarp_v1"), 0, ["GHOST L3 S4", "H1 H2"])) == scarp.GHOST_DRAW


def test_strips_a_big_hand():
    env = laid_out(make("scarp_v1"), 0, ["SUN L3 S4", "H1 H2 H3 H4 H5 H6 D7"])
    assert choice(env) == scarp.FIRST_ESSENCE_STRIP


def test_challenges_with_its_lowest_card_naming_the_suit_it_holds():
    env = laid_out(make("scarp_v1"), 0, ["L2 L9 S5 S6", "D1"])
    assert choice(env) == challenge("L2", 0)  # Shade (two held) rather than Life


def test_answers_stealing_with_access_and_finishes():
    env = laid_out(make("scarp_v1"), 0, ["L8 S5 H1 L2", "GHOST S2 D4"])
    play(env, challenge("L8", 0))
    assert choice(env) == scarp.GHOST_ANSWER  # no answer of its own
    play(env, scarp.GHOST_ANSWER)
    assert choice(env) in (pick("S5"), pick("H1"))
    while env.state.phase == scarp.RESPONSE:
        play(env, choice(env))
    assert {"S5", "H1"} <= set(DECK.codes_of(env.state.hands[1]))


def test_reads_the_observation_as_the_seat_view_shows_it():
    env = make("scarp_v1")
    env.reset(seed=3)
    rng = random.Random(3)
    while not env.game.is_terminal(env.state):
        seat = env.state.to_act
        view = read_view(env.observe(f"player_{seat}")["observation"])
        shown = env.observe_json(f"player_{seat}")
        assert DECK.codes_of(view.hand) == shown["hand"] and view.opponent_size == shown["hand_sizes"][1 - seat]
        assert DECK.codes_of(view.pile) == shown["pile"]
        legal = [a for a in env.game.legal_actions(env.state) if a != scarp.FOLD] or [scarp.FOLD]
        env.step(rng.choice(legal))


@pytest.mark.parametrize("config", [{}, {"challenge_suit": "enemy"}])
def test_always_chooses_a_legal_action(config):
    env = make("scarp_v1", **config)  # it raises IllegalActionError on an illegal action
    heuristic = load("scarp/heuristic")
    rng = random.Random(0)
    for _ in range(20):
        assert sum(play_episode(env, [heuristic, heuristic], rng.getrandbits(63))) == pytest.approx(0.0)


def test_beats_random_play():
    score = evaluate("scarp", [("heuristic", ScarpHeuristic()), ("random", RandomAgent(1))], 200, seed=0).score_of(
        "heuristic"
    )
    assert score.low > 0.0


def test_beats_random_play_that_never_folds():
    agents = [("heuristic", ScarpHeuristic()), ("no-fold", NoFoldRandom(1))]
    score = evaluate("scarp", agents, 200, seed=0).score_of("heuristic")
    assert score.low > 0.0 and score.mean > 0.3
