"""Dividha hands played through the environment: the complete example hand, the deal, betting,
trading, showdown and the rewards, with the deck stacked."""

from __future__ import annotations

import numpy as np
import pytest
from cardarena.envs.core.errors import IllegalActionError
from cardarena.envs.dividha.actions import ACTION_NAMES
from cardarena.envs.dividha.layout import SLICES
from dividha_env_support import act, codes, legal_names, seat_to_act, table

EXAMPLE_STOCK = "KH 2L AD KV JD QH 7D AH 5B 4B 6D QB KB 3D 3H 7L".split()
EXAMPLE_CONFIG = {"num_players": 3, "dealer": 0, "ante": 2, "limit": "fixed", "bet_size": 2, "starting_stack": 100}
ROUND_1 = ("RAISE(MIN, WIN)", "CALL(LOSE)", "FOLD")
ROUND_2 = ("CHECK", "RAISE(MIN, EVEN)", "RAISE(MIN, WIN)", "CALL(LOSE)")
TRADING = ("TRADE([])", "TRADE([P2,U1])")
ROUND_3 = ("CHECK", "CHECK")


def example_table():
    return table(EXAMPLE_STOCK, **EXAMPLE_CONFIG)


def test_the_example_hand_action_ids_are_the_tables():
    ids = [ACTION_NAMES.index(name) for name in ROUND_1 + ROUND_2 + TRADING + ROUND_3]
    assert ids == [5, 4, 0, 1, 6, 5, 4, 17, 25, 1, 1]


def test_the_example_hand_deals_in_pairs_left_of_the_dealer():
    env = example_table()
    assert [codes(env, seat, range(2)) for seat in range(3)] == [["AD", "QH"], ["KH", "KV"], ["2L", "JD"]]
    assert env.state.win == env.state.lose == [1, 1, 1]
    assert seat_to_act(env) == 1
    act(env, *ROUND_1)
    assert (env.state.win, env.state.lose) == ([1, 3, 1], [1, 1, 3])
    assert codes(env, 0) == ["AD", "QH", None, None, None, None]  # folded: no more cards (R39)
    assert [codes(env, seat, range(2, 4)) for seat in (1, 2)] == [["7D", "5B"], ["AH", "4B"]]
    act(env, *ROUND_2)
    assert (env.state.win, env.state.lose) == ([1, 7, 2], [1, 1, 6])
    assert env.state.phase == 1 and seat_to_act(env) == 1
    act(env, *TRADING)
    assert codes(env, 2, range(4)) == ["2L", "6D", "QB", "4B"]
    assert [codes(env, seat, range(4, 6)) for seat in (1, 2)] == [["KB", "3H"], ["3D", "7L"]]
    act(env, *ROUND_3)
    assert env.state.terminal
    shown = env.state.showdown["shown"]
    assert shown["1"]["name"] == "Three-of-a-Kind" and shown["1"]["key"] == [3, 0, 1, 42, [13, 13, 13, 7, 5]]
    assert shown["2"]["cards"] == ["6D", "QB", "4B", "7L", "2L"] and shown["2"]["key"] == [
        0,
        0,
        2,
        28,
        [12, 7, 6, 4, 2],
    ]
    assert env.state.showdown["received"] == [0, 10, 8]
    assert [env.rewards[agent] for agent in env.possible_agents] == [-2.0, 2.0, 0.0]
    assert env.state.stacks == [98, 102, 100]


def test_before_settlement_other_seats_see_totals_not_splits():
    env = example_table()
    act(env, *ROUND_1, *ROUND_2)
    view = env.observe_json("player_0")
    assert view["paid"] == [2, 8, 8]
    assert view["tablet"] == {"win": 1, "lose": 1}
    assert all("split" not in action for action in view["actions"] if action["seat"] != 0)
    own = env.observe_json("player_1")
    assert [action["split"] for action in own["actions"] if action["seat"] == 1 and "split" in action] == ["WIN", "WIN"]
    labels = [event["label"] for event in env.history(0) if event["kind"] == "action"]
    assert labels[:3] == ["raise 2", "call 2", "fold"]
    assert not any("win" in label or "lose" in label for label in labels)
    act(env, *TRADING, *ROUND_3)
    result = env.history(0)[-1]
    assert (result["kind"], result["win"], result["lose"]) == ("result", [1, 7, 2], [1, 1, 6])


def test_the_observation_hides_other_seats_splits():
    env = example_table()
    act(env, "RAISE(MIN, WIN)")
    twin = example_table()
    act(twin, "RAISE(MIN, LOSE)")
    for agent in ("player_0", "player_2"):
        assert np.array_equal(env.observe(agent)["observation"], twin.observe(agent)["observation"])
    assert not np.array_equal(env.observe("player_1")["observation"], twin.observe("player_1")["observation"])


def test_a_traded_public_card_is_replaced_face_up_and_a_private_one_face_down():
    env = example_table()
    act(env, *ROUND_1, *ROUND_2, *TRADING)
    replacements = [event for event in env.history(1) if event["kind"] == "replace"]
    assert replacements == [
        {"hand": 0, "kind": "replace", "seat": 2, "slots": ["P2"], "count": 1},
        {"hand": 0, "kind": "replace", "seat": 2, "slots": ["U1"], "cards": ["QB"]},
    ]
    assert env.observe_json("player_1")["traded_in"] == [[], [], ["AH"]]
    assert env.observe_json("player_2")["traded_in"] == [[], [], ["JD", "AH"]]


def test_the_last_seat_standing_takes_the_pot_without_a_showdown():
    env = table(num_players=3, dealer=0)
    act(env, "RAISE(MIN, LOSE)", "FOLD", "FOLD")
    assert env.state.terminal and env.state.showdown["shown"] == {}
    assert [env.rewards[agent] for agent in env.possible_agents] == [-2.0, 4.0, -2.0]


def test_fold_is_legal_only_facing_a_bet():
    env = table(num_players=3, dealer=0)
    assert "FOLD" not in legal_names(env) and "CHECK" in legal_names(env)
    with pytest.raises(IllegalActionError):
        act(env, "FOLD")
    act(env, "RAISE(MIN, WIN)")
    assert "FOLD" in legal_names(env) and "CHECK" not in legal_names(env)


def test_the_dealer_acts_last_and_trading_goes_clockwise_from_its_left():
    env = table(num_players=4, dealer=2)
    order = []
    while env.state.phase == 0 and env.state.betting_round == 1:
        order.append(seat_to_act(env))
        act(env, "CHECK")
    assert order == [3, 0, 1, 2]
    act(env, "CHECK", "CHECK", "CHECK", "CHECK")
    traders = []
    while env.state.phase == 1:
        traders.append(seat_to_act(env))
        act(env, "TRADE([])")
    assert traders == [3, 0, 1, 2]


def test_an_odd_call_writes_its_extra_chip_on_win():
    env = table(num_players=2, dealer=0, bet_size=3)
    act(env, "RAISE(MIN, LOSE)")  # seat 1 bets 3, all on Lose
    assert (env.state.win[1], env.state.lose[1]) == (1, 1 + 3)
    act(env, "CALL(EVEN)")  # seat 0 calls 3: 2 to Win, 1 to Lose
    assert (env.state.win[0], env.state.lose[0]) == (1 + 2, 1 + 1)


def test_observation_segments_track_the_betting():
    env = table(num_players=3, dealer=0, limit="pot")
    act(env, "RAISE(POT, WIN)")  # seat 1: pot 6 -> raises 6
    obs = env.observe("player_2")["observation"]
    bank = 300
    assert obs[SLICES["to_call"]][0] == pytest.approx(6 / bank)
    assert obs[SLICES["pot"]][0] == pytest.approx(12 / bank)
    assert obs[SLICES["paid"]][2] == pytest.approx(8 / bank)  # seat 1 sits two to player_2's left
    assert obs[SLICES["tablet"]].tolist() == pytest.approx([1 / bank, 1 / bank])
