"""What a Tilt seat sees and what `resample_hidden` deals again; seat views rebuilt into states."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from cardarena.envs import make
from cardarena.envs.core.errors import SeatViewError, StateError
from cardarena.envs.tilt.game import DECK
from tilt_env_support import check_round, play, rigged, tilt


def env_at(game, state):
    env = make("tilt_v2", **game.config.model_dump(exclude={"on_illegal", "illegal_reward"}))
    env.load_state(game.clone(state))
    return env


def shares_pending():
    """Three seats after a Shares pass, seat 0 to discard down: seat 1 passed P2 P3 P4 to seat 2."""
    game = tilt(void_cards=["SHAR"], num_players=3)
    state = rigged(game, {1: ["P1", "P2", "P3", "P4"], 2: ["S1", "S2", "S3", "S4"], 0: ["C1", "C2", "C3", "C4"]})
    play(game, state, "bet", "call", "call")
    play(game, state, "pass P2 P3 P4", "pass S2", "pass nothing")
    return game, state


def test_resampling_keeps_what_the_seat_knows_and_deals_the_rest_again():
    game, state = shares_pending()
    seat = 1
    env = env_at(game, state)
    seen = env.observe("player_1")["observation"]
    changed = False
    for draw in range(30):
        world = game.resample_hidden(state, seat, random.Random(draw))
        assert np.array_equal(env.encoder.observation(world, seat), seen)
        assert set(DECK.indices_of(["P2", "P3", "P4"])) <= set(world.palms[2])  # the cards it passed stay there
        assert game.conserved(world) == game.conserved(state)
        changed |= world.palms[0] != state.palms[0] or world.stock != state.stock
    assert changed


def test_face_down_table_cards_are_dealt_again():
    game = tilt(num_players=3, void_cards=["DIST", "FINE", "CHKN", "MUTI", "BINY"])
    state = rigged(game, {}, voids=["DIST"])
    check_round(game, state)
    assert state.signal >= 0
    signals = {game.resample_hidden(state, 1, random.Random(draw)).signal for draw in range(40)}
    assert len(signals) > 1


def test_other_seats_haul_keeps_stay_hidden():
    game = tilt(num_players=3, void_cards=["HAUL"])
    state = rigged(game, {1: ["S4", "C1", "P5", "H3"]})
    check_round(game, state)
    env = env_at(game, state)
    env.step(next(a for a in game.legal_actions(state) if game.action_label(state, a) == "keep S4"))
    state = env.state
    view = env.observe_json("player_2")
    assert view["keep"] is None and "S4" not in str(view["moves"]) and env.observe_json("player_1")["keep"] == "S4"
    assert [event for event in env.history(2) if event["kind"] == "action"][-1]["label"] == "keep"
    world = game.resample_hidden(state, 2, random.Random(0))
    assert world.keeps[1] in world.thumbs[1] + world.palms[1]


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_seat_view_rebuilds_a_state_that_gives_it_back(seat):
    game, state = shares_pending()
    env = env_at(game, state)
    view = env.observe_json(f"player_{seat}")
    rebuilt = env_at(game, state)
    assert rebuilt.load_view(view) == f"player_{seat}"
    assert np.array_equal(
        rebuilt.observe(f"player_{seat}")["observation"], env.observe(f"player_{seat}")["observation"]
    )


def test_a_view_with_a_card_twice_is_refused():
    game, state = shares_pending()
    env = env_at(game, state)
    view = env.observe_json("player_1")
    view["tariffs"] = [view["thumbs"][0][0]]
    with pytest.raises(SeatViewError, match="twice"):
        env_at(game, state).load_view(view)


def test_a_view_with_wrong_counts_is_refused():
    game, state = shares_pending()
    env = env_at(game, state)
    view = env.observe_json("player_1")
    view["stock"] += 1
    with pytest.raises(SeatViewError, match="hidden cards"):
        env_at(game, state).load_view(view)


def test_state_json_lists_each_public_move_and_reads_back():
    game, state = shares_pending()
    data = game.state_to_json(state)
    assert data["moves"][:3] == [[1, 1, 1, 2], [1, 1, 2, 1], [1, 1, 0, 1]]  # seat 1 bets, seat 2 and seat 0 call
    assert data["moves"][3:] == [[4, 1, 1, 3], [4, 1, 2, 1], [4, 1, 0, 0]]  # Shares pass: 3, 1 and 0 cards
    back = game.state_from_json(json.loads(json.dumps(data)))
    assert game.state_to_json(back) == data
    assert (
        env_at(game, back).observe("player_0")["observation"].tobytes()
        == env_at(game, state).observe("player_0")["observation"].tobytes()
    )


@pytest.mark.parametrize(
    "moves",
    [[[1, 1, 1]], [[1, 1, 1, 2, 0]], [[1, 1, 1, -1]], [[1, 1, 1, 256]], [[1, 1, 1, "2"]], [1, 1, 1, 2], "moves"],
)
def test_a_state_with_malformed_moves_is_refused_naming_the_field(moves):
    game, state = shares_pending()
    data = game.state_to_json(state)
    data["moves"] = moves
    with pytest.raises(StateError, match="'moves'"):
        game.state_from_json(data)
