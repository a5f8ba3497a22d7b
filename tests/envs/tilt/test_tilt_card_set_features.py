"""The per-card-set features of the Tilt observation (`set_*` segments): what each set gives up."""

from __future__ import annotations

import numpy as np
import pytest
from cardarena.envs.tilt.encode import SET_FEATURES, SLICES, TiltEncoder
from cardarena.envs.tilt.game import FIRST_SET, NUM_ACTIONS
from tilt_env_support import check_round, rigged, tilt


def set_features(game, state, seat):
    vector = TiltEncoder(game).observation(state, seat)
    return {name: vector[SLICES[name]] * 7 for name in SET_FEATURES}


def at_exchange(void_cards, hand):
    """Seat 1 holds `hand` (Thumb first) and is first to choose its cards after betting round one."""
    game = tilt(void_cards=void_cards, void_deck=bool(void_cards))
    state = rigged(game, {1: hand}, voids=void_cards)
    check_round(game, state)
    assert game.current_player(state) == 1 and state.phase in ("exchange", "haul")
    return game, state


def test_a_discard_gives_up_the_cards_it_names():
    game, state = at_exchange([], ["S4", "C2", "P7", "K10"])  # slots: C2 P7 S4 K10
    features = set_features(game, state, 1)
    assert game.action_label(state, 12) == "discard C2 K10"
    assert features["set_cards"][12] == pytest.approx(2)
    assert features["set_strength"][12] == pytest.approx((2 + 10) / 12)
    assert features["set_commands"][12] == pytest.approx(1)
    for name in ("set_cards_reversed", "set_pairs", "set_pairs_reversed", "set_wilds"):
        assert features[name][12] == 0
    assert all(features[name][FIRST_SET] == 0 for name in SET_FEATURES)  # discard nothing


def test_a_haul_keep_gives_up_every_other_card():
    game, state = at_exchange(["HAUL"], ["S4", "C2", "P7", "K10"])
    features = set_features(game, state, 1)
    assert game.action_label(state, FIRST_SET + 0b0100) == "keep S4"
    assert features["set_cards"][FIRST_SET + 0b0100] == pytest.approx(3)
    assert features["set_strength"][FIRST_SET + 0b0100] == pytest.approx((2 + 7 + 10) / 12)
    assert features["set_commands"][FIRST_SET + 0b0100] == pytest.approx(1)


def test_mutinous_days_reverses_strength_and_pairs():
    game, state = at_exchange(["MUTI"], ["S4", "C7", "P7", "K10"])  # slots: C7 P7 S4 K10
    features = set_features(game, state, 1)
    thrown = FIRST_SET + 0b0011  # C7 P7, a pair
    assert features["set_cards_reversed"][thrown] == pytest.approx(2)
    assert features["set_strength"][thrown] == pytest.approx(2 * (12 - 7) / 12)
    assert features["set_pairs_reversed"][thrown] == pytest.approx(2)
    assert features["set_pairs"][thrown] == 0
    assert features["set_commands"][FIRST_SET + 0b1000] == 0


@pytest.mark.parametrize(("hazard", "wild_code"), [("BINY", "P2"), ("EXPD", "K10")])
def test_wild_cards_count_as_wilds_only(hazard, wild_code):
    game, state = at_exchange([hazard], ["S4", "C7", "P2", "K10"])  # slots: C7 P2 S4 K10
    features = set_features(game, state, 1)
    thrown = FIRST_SET + (0b0010 if wild_code == "P2" else 0b1000)
    assert features["set_wilds"][thrown] == pytest.approx(1)
    assert features["set_strength"][thrown] == 0 and features["set_commands"][thrown] == 0


def test_only_the_seat_to_act_at_a_card_decision_sees_them():
    game, state = at_exchange([], ["S4", "C2", "P7", "K10"])
    blocks = [set_features(game, state, seat) for seat in range(game.num_players) if seat != 1]
    assert all(not block[name].any() for block in blocks for name in SET_FEATURES)
    betting = rigged(game, {1: ["S4", "C2", "P7", "K10"]})
    assert betting.phase == "bet"
    assert all(not block.any() for block in set_features(game, betting, game.current_player(betting)).values())
    assert all(SLICES[name].stop - SLICES[name].start == NUM_ACTIONS for name in SET_FEATURES)
    assert np.all(set_features(game, state, 1)["set_cards"][:FIRST_SET] == 0)
