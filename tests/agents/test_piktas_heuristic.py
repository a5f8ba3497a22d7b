"""The rule-based Piktas agents: key decisions on constructed tables, and strength."""

from __future__ import annotations

import pytest
from cardarena.agents import load
from cardarena.agents.piktas_heuristic import PiktasHeuristic
from cardarena.envs import make
from cardarena.envs.piktas.game import BETTING, FOLD, MATCH, RAISE, STAY
from cardarena.envs.piktas.rules import DECK
from cardarena.training.evaluate import evaluate


def ids(codes: str) -> list[int]:
    return [DECK.index(code) for code in codes.split()]


def table(hands: dict[int, str], field: list[str], deck_top: str = "", **config):
    """An env at its first exchange turn (dealer 0, seat 1 to act) with chosen hands and field."""
    env = make("piktas_v1", num_players=3, **config)
    env.reset(seed=0)
    state = env.game.clone(env.state)
    dealt = [card for codes in hands.values() for card in ids(codes)] + [c for stack in field for c in ids(stack)]
    top = ids(deck_top)
    state.hands = [sorted(ids(hands[seat])) for seat in range(3)]
    state.field = [ids(stack) for stack in field]
    state.deck = top + [card for card in range(len(DECK)) if card not in dealt and card not in top]
    env.load_state(state)
    return env


def heuristic_label(env, agent: PiktasHeuristic | None = None) -> str:
    observation = env.observe(env.agent_selection)
    action = (agent or PiktasHeuristic()).act(observation)
    assert observation["action_mask"][action]
    return env.action_label(action)


OTHERS = {0: "O1 O2 O3 W9 W10 M3", 2: "K1 K2 U5 U6 M8 TUM1"}


def test_it_takes_the_field_card_that_completes_a_set_and_keeps_the_set():
    env = table({1: "O7 W7 K4 M5 U9 TKU1", **OTHERS}, ["K7", "W2", "U3"])
    label = heuristic_label(env)
    assert label.startswith("swap:") and label.endswith(":K7")
    assert label.split(":")[1] not in ("O7", "W7")


def test_it_lays_a_void_to_clear_the_full_hand_bonus():
    env = table({1: "O7 W7 K7 U7 M7 V1", **OTHERS}, ["K5", "W2", "U3"])
    assert heuristic_label(env).startswith("void:V1:")


def test_the_field_heuristic_trusts_the_field_where_the_heuristic_secures():
    # Seat 1 holds O3 O4 O5 and the field holds O6 O7 O8 uncovered: the heuristic's secured score
    # is the same whatever it does, the field-heuristic sees the True Sequence on the field.
    env = table({1: "O3 O4 O5 W9 K1 M2", 0: "O1 O2 W1 W10 M3 M6", 2: "K2 K3 U5 U6 M8 TUM1"}, ["O6", "O7", "O8"])
    observation = env.observe(env.agent_selection)
    field_choice = env.action_label(PiktasHeuristic(field_weight=0.5).act(observation))
    assert field_choice.split(":")[1] not in ("O3", "O4", "O5")  # keeps the run's hand cards


def betting_env(hands: dict[int, str], field: list[str]):
    """A 3-seat gambling table that reaches its betting round with every seat passing."""
    env = table(hands, field[:3], deck_top=" ".join(field[3:]), mode="gambling")
    while env.state.phase != BETTING:
        env.step(0)
    return env


FIELD = ["K2", "M4", "U10", "W6", "O10", "K8"]
STRONG = "O3 O4 O5 O6 O7 O8"  # True Sequence + Full Hand: 24
WEAK = "TWM2 W10 TOK1 TOM2 W7 M3"  # 3
POOR = "TOU2 U2 M5 TOU1 TKU2 O1"  # 4
ORDINARY = "TUM2 TWM1 M8 TOW1 M9 TKM2"  # Suit Run of Moon + Full Hand: 11


def test_it_raises_a_strong_pool_and_folds_a_weak_one_facing_a_bet():
    env = betting_env({1: STRONG, 2: WEAK, 0: POOR}, FIELD)
    assert [env.game.evaluate(env.state, seat)[0] for seat in range(3)] == [4, 24, 3]
    assert env.agent_selection == "player_1"
    assert PiktasHeuristic().act(env.observe("player_1")) == RAISE
    env.step(RAISE)
    assert PiktasHeuristic().act(env.observe("player_2")) == FOLD


def test_it_stays_when_nobody_has_raised_and_matches_an_ordinary_pool():
    env = betting_env({1: WEAK, 2: POOR, 0: STRONG}, FIELD)
    assert PiktasHeuristic().act(env.observe("player_1")) == STAY
    env.step(STAY)
    env.step(RAISE)
    assert PiktasHeuristic().act(env.observe("player_0")) == RAISE
    env.step(RAISE)
    assert PiktasHeuristic().act(env.observe("player_1")) == FOLD


def test_it_matches_a_raise_with_an_ordinary_pool():
    env = betting_env({1: STRONG, 2: ORDINARY, 0: POOR}, FIELD)
    assert env.game.evaluate(env.state, 2)[0] == 11
    env.step(RAISE)
    assert PiktasHeuristic().act(env.observe("player_2")) == MATCH


def test_the_heuristic_beats_random_players():
    result = evaluate(
        "piktas",
        [("heuristic", load("piktas/heuristic")), *[("random", load("random", seed=s)) for s in range(3)]],
        episodes=300,
        seed=3,
    )
    heuristic = next(score for score in result.scores if score.name == "heuristic")
    assert heuristic.low > 0


@pytest.mark.slow
def test_the_field_heuristic_beats_the_heuristic():
    agents = [("field-heuristic", load("piktas/field-heuristic"))] + [("heuristic", load("piktas/heuristic"))] * 3
    result = evaluate("piktas", agents, episodes=2000, seed=11)
    field = next(score for score in result.scores if score.name == "field-heuristic")
    assert field.low > 0
