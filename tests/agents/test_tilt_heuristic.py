"""The rule-based Tilt agent: key decisions on rigged tables, legality, and strength vs random."""

from __future__ import annotations

import random

from agent_support import decisions
from cardarena.agents import RandomAgent, load
from cardarena.agents.tilt_heuristic import TiltHeuristic
from cardarena.envs import make
from cardarena.envs.tilt.game import DECK, FIRST_SET, TiltConfig, TiltGame
from cardarena.training.evaluate import evaluate


def tilt(**settings) -> TiltGame:
    return TiltGame(TiltConfig.build(dealer=0, **settings))


def rigged(game: TiltGame, hands: dict[int, list[str]]):
    """A first decision (seat 1 to act) where each listed seat holds the given cards (Thumb first),
    each swapped with whatever card held that place."""
    state = game.new_state(0)
    places = [state.stock] + [
        pile for seat in range(game.num_players) for pile in (state.thumbs[seat], state.palms[seat])
    ]
    for seat, codes in hands.items():
        targets = [(state.thumbs[seat], 0)] + [(state.palms[seat], i) for i in range(3)]
        for (pile, i), card in zip(targets, DECK.indices_of(codes), strict=True):
            where = next(place for place in places if card in place)
            where[where.index(card)], pile[i] = pile[i], card
    return state


def check_round(game: TiltGame, state) -> None:
    number = state.betting_round
    while state.phase == "bet" and state.betting_round == number:
        game.apply(state, 1)


def heuristic_label(game, state) -> str:
    """The heuristic's choice for the seat to act, seen through the real environment."""
    env = make("tilt_v2", **game.config.model_dump(exclude={"on_illegal", "illegal_reward"}))
    env.load_state(game.clone(state))
    observation = env.observe(f"player_{game.current_player(state)}")
    action = TiltHeuristic().act(observation)
    assert observation["action_mask"][action]
    return game.action_label(state, action)


def test_bets_a_strong_hand_and_checks_a_weak_one():
    game = tilt(void_deck=False)
    state = rigged(game, {1: ["C7", "P7", "S7", "H7"], 2: ["C1", "P3", "S5", "H8"]})
    assert heuristic_label(game, state) == "bet"
    game.apply(state, 1)
    assert heuristic_label(game, state) == "check"


def test_folds_junk_facing_a_bet_after_the_hazard():
    game = tilt(void_cards=["GALY"])
    state = rigged(game, {1: ["C1", "P3", "S5", "H8"]})
    check_round(game, state)
    while state.phase != "bet":
        game.apply(state, FIRST_SET)
    game.apply(state, 2)  # seat 1 bets
    game.apply(state, 2)  # seat 2 raises
    while game.current_player(state) != 1:
        game.apply(state, 1)
    assert heuristic_label(game, state) == "fold"


def test_exchanges_junk_and_keeps_pairs():
    game = tilt(void_deck=False)
    state = rigged(game, {1: ["S4", "C1", "P4", "H2"]})
    check_round(game, state)
    assert heuristic_label(game, state) == "discard C1 H2"


def test_mutinous_days_keeps_low_cards():
    game = tilt(void_cards=["MUTI"])
    state = rigged(game, {1: ["S4", "C1", "P8", "K12"]})
    check_round(game, state)
    assert heuristic_label(game, state) == "discard P8 K12"


def test_haul_keeps_the_best_card():
    game = tilt(void_cards=["HAUL"])
    state = rigged(game, {1: ["S4", "C1", "P8", "K12"]})
    check_round(game, state)
    assert heuristic_label(game, state) == "keep K12"


def test_always_legal_and_loadable_by_name():
    agent = load("tilt/heuristic")
    env = make("tilt_v2", num_hands=3)
    rng = random.Random(0)
    for _name, observation in decisions(env, range(20)):
        env.step(
            agent.act(observation) if rng.random() < 0.5 else int(rng.choice(observation["action_mask"].nonzero()[0]))
        )


def test_beats_random_players():
    agents = [
        ("heuristic", TiltHeuristic()),
        ("random", RandomAgent(0)),
        ("random", RandomAgent(1)),
        ("random", RandomAgent(2)),
    ]
    score = evaluate("tilt", agents, 300, seed=0).score_of("heuristic")
    assert score.low > 0
