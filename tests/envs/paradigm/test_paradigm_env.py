"""Paradigm's state machine through the environment: the rulebook's flow examples, the setup,
the order of cancel offers and play-round opportunities, table wipes, the end and the rewards."""

from __future__ import annotations

import pytest
from cardarena.envs import ConfigError
from cardarena.envs.paradigm.game import CANCEL, OVER, PLAY, PROCESS, START, SUIT_PHASE, ParadigmGame, rewards_for
from cardarena.envs.paradigm.rules import DECK, SUITS
from paradigm_support import (
    ACTION,
    between_turns,
    codes,
    env_at_turn,
    ids,
    legal_names,
    make,
    play,
    scores,
    table_codes,
)

FOUR_PILES = ("L3", "S2", "D4", "H5")


def test_f1_a_capture_cancelled_by_an_error():
    state = between_turns(piles=FOUR_PILES, hands={1: "S6 S7 S8"}, top="L9 L1", turn=5)
    env = env_at_turn(state)
    assert (state.phase, state.to_act) == (PROCESS, 0)
    play(env, "ON_TOP(H5)")
    assert (state.phase, state.to_act) == (CANCEL, 1)
    assert legal_names(env) == ["PASS", "CANCEL(6)"]
    play(env, "CANCEL(6)")
    assert codes(state.discard[-4:]) == ["S6", "S7", "S8", "L9"]
    assert table_codes(state) == [["L3"], ["S2"], ["D4"], ["H5"]]
    # nobody holds a card, so the play round asks nobody and turn 6 reveals L1 for seat 0
    assert (state.turn, codes([state.revealed]), state.to_act) == (6, ["L1"], 0)
    assert scores(state) == [3, 2, 4, 5]


def test_f2_the_same_capture_not_cancelled_then_a_play_from_hand():
    state = between_turns(piles=FOUR_PILES, hands={1: "S6 S7 S8"}, top="L9 L1", turn=5)
    env = env_at_turn(state)
    play(env, "ON_TOP(H5)", "PASS")
    assert table_codes(state) == [["L3"], ["S2"], ["D4"], ["H5", "L9"]]
    assert (state.phase, state.to_act) == (PLAY, 1)
    play(env, "CARD(S7)")
    assert legal_names(env) == ["NEW_PILE", "ON_TOP(L3)", "ON_TOP(S2)", "ON_TOP(D4)"]
    play(env, "ON_TOP(D4)")
    assert table_codes(state) == [["L3"], ["S2"], ["D4", "S7"], ["H5", "L9"]]
    assert scores(state) == [48, 30, 0, 0]
    assert codes(state.hands[1]) == ["S6", "S8"]
    assert (state.turn, codes([state.revealed])) == (6, ["L1"])


def test_f3_an_essence_cancelled():
    piles = ("L2 S5 D8", "H3", "D1 L4")
    state = between_turns(piles=piles, hands={3: "H4 H5 H6", 1: "S9"}, top="SUN", turn=2)
    env = env_at_turn(state)
    assert (state.phase, state.to_act) == (CANCEL, 3)
    play(env, "CANCEL(4)")
    assert codes(state.discard[-4:]) == ["H4", "H5", "H6", "SUN"]
    assert table_codes(state) == [["L2", "S5", "D8"], ["H3"], ["D1", "L4"]]
    assert (state.phase, state.to_act) == (PLAY, 1)
    assert legal_names(env) == ["CARD(S9)", "PASS"]
    play(env, "CARD(S9)")
    assert legal_names(env) == ["NEW_PILE", "ON_TOP(L4)", "ON_TOP(D8)", "ON_TOP(H3)"]


def test_f3_uncancelled_the_essence_leaves_the_worked_table():
    piles = ("L2 S5 D8", "H3", "D1 L4")
    state = between_turns(piles=piles, hands={3: "H4 H5 H6"}, top="SUN L1", turn=2)
    env = env_at_turn(state)
    play(env, "PASS")
    assert table_codes(state) == [["L2", "D8"], ["D1", "L4"]]
    assert set(codes(state.discard)) == {"S5", "H3", "SUN"}


def test_f4_an_unowned_card_is_discarded_without_a_decision():
    state = between_turns(suits="L S", piles=("L3", "S2"), hands={0: "L5"}, top="D7")
    env = env_at_turn(state)
    assert codes(state.discard) == ["D7"]
    assert (state.phase, state.to_act) == (PLAY, 0)
    assert table_codes(state) == [["L3"], ["S2"]]
    play(env, "PASS")
    assert state.turn == 1


def test_f5_the_ghost_clears_the_table_and_leaves_hands():
    state = between_turns(piles=("L3 S7", "H2"), hands={2: "D9"}, top="GHOST", turn=1)
    env = env_at_turn(state)
    assert state.table == []
    assert set(codes(state.discard)) == {"L3", "S7", "H2", "GHOST"}
    assert codes(state.hands[2]) == ["D9"]
    assert (state.phase, state.to_act) == (PLAY, 2)
    assert legal_names(env) == ["CARD(D9)", "PASS"]
    play(env, "CARD(D9)")
    assert legal_names(env) == ["NEW_PILE"]


def test_the_ghost_cannot_be_cancelled():
    state = between_turns(piles=("L3",), hands={1: "S1 S2 S3"}, top="GHOST")
    env_at_turn(state)
    assert state.table == [] and (state.phase, state.to_act) == (PLAY, 1)


def test_an_essence_window_asks_every_error_holder_from_the_lead_seat_round_the_table():
    state = between_turns(piles=("L2",), hands={0: "L4 L5 L6", 2: "D1 D2 D3", 3: "H7 H8 H9"}, top="ROSE", turn=3)
    env = env_at_turn(state)
    asked = []
    while state.phase == CANCEL:
        asked.append(state.to_act)
        play(env, "PASS")
    assert asked == [3, 0, 2]
    assert state.table == []


def test_a_window_skips_the_mover_and_starts_after_her():
    state = between_turns(piles=("H2",), hands={0: "L4 L5 L6", 1: "S1 S2 S3", 3: "H7 H8 H9"}, top="D6", turn=1)
    env = env_at_turn(state)
    assert state.to_act == 2
    play(env, "ON_TOP(H2)")
    asked = []
    while state.phase == CANCEL:
        asked.append(state.to_act)
        play(env, "PASS")
    assert asked == [3, 0, 1]
    assert table_codes(state) == [["H2", "D6"]]


def test_the_first_cancel_closes_the_window():
    state = between_turns(piles=("H2",), hands={0: "L4 L5 L6", 1: "S1 S2 S3"}, top="D6 L1")
    env = env_at_turn(state)
    play(env, "HAND", "CANCEL(4)")
    assert codes(state.hands[2]) == [] and codes(state.hands[1]) == ["S1", "S2", "S3"]
    assert codes(state.discard) == ["L4", "L5", "L6", "D6"]


def test_a_player_with_four_in_a_row_chooses_which_error_to_spend():
    state = between_turns(piles=("H2",), hands={0: "L4 L5 L6 L7"}, top="D6 L1")
    env = env_at_turn(state)
    play(env, "NEW_PILE")
    assert legal_names(env) == ["PASS", "CANCEL(4)", "CANCEL(5)"]
    play(env, "CANCEL(5)")
    assert codes(state.hands[0]) == ["L4"]


def test_the_play_round_goes_round_once_from_the_lead_seat_one_card_each():
    state = between_turns(hands={0: "L1 L9", 1: "S4", 2: "D5", 3: "H1 H2"}, top="S10 L2", turn=2)
    env = env_at_turn(state)
    play(env, "NEW_PILE")  # seat 1 starts a pile with S10; nobody holds an Error
    order = []
    while state.phase == PLAY and state.turn == 2:
        order.append(state.to_act)
        play(env, "PASS")
    assert order == [2, 3, 0, 1]
    assert state.turn == 3 and state.to_act == 0 and state.phase == PROCESS


def test_an_error_spent_in_the_round_can_empty_a_hand_and_skip_its_opportunity():
    state = between_turns(piles=("L1",), hands={0: "L3", 3: "H4 H5 H6"}, top="D2 L2")
    env = env_at_turn(state)
    play(env, "NEW_PILE", "PASS")  # seat 2's D2 stands, seat 3 lets it; the play round starts at seat 0
    assert (state.phase, state.to_act) == (PLAY, 0)
    play(env, "CARD(L3)", "NEW_PILE")
    assert (state.phase, state.to_act) == (CANCEL, 3)
    play(env, "CANCEL(4)")
    assert codes(state.discard[-4:]) == ["H4", "H5", "H6", "L3"]
    # seat 3's hand is now empty: it is skipped, and turn 1 reveals L2 for seat 0
    assert (state.turn, state.phase, state.to_act, codes([state.revealed])) == (1, PROCESS, 0, ["L2"])


def test_a_card_played_from_hand_cannot_go_back_to_hand():
    state = between_turns(piles=("S3",), hands={0: "L5"}, top="H1")
    env = env_at_turn(state)
    play(env, "HAND", "CARD(L5)")
    assert legal_names(env) == ["NEW_PILE", "ON_TOP(S3)"]


def test_a_revealed_card_may_go_to_hand_new_pile_or_on_any_lower_top():
    state = between_turns(piles=("L3", "S2 L5", "D4 H9", "S6"), top="L7")
    env = env_at_turn(state)
    assert legal_names(env) == ["HAND", "NEW_PILE", "ON_TOP(L3)", "ON_TOP(L5)", "ON_TOP(S6)"]


# ---------------------------------------------------------------- setup


def test_suits_are_chosen_in_seat_order_and_the_fourth_seat_gets_the_last():
    env = make()
    env.reset(seed=3)
    state = env.state
    assert (state.phase, state.to_act) == (SUIT_PHASE, 0)
    play(env, "SUIT(H)")
    assert legal_names(env) == ["SUIT(L)", "SUIT(S)", "SUIT(D)"]
    play(env, "SUIT(L)", "SUIT(D)")
    assert state.suits == [SUITS.index(s) for s in "HLDS"]
    assert any(e["kind"] == "suit" and e["seat"] == 3 and e["suit"] == "S" for e in env.history())


def _suits_shown(cards: list[str], suits: str) -> set[str]:
    return {card[0] for card in cards if card[0] in suits and card[1:].isdigit()}


@pytest.mark.parametrize("seed", range(20))
def test_the_reveal_stops_once_every_chosen_suit_showed_a_numbered_card(seed):
    env = make(num_players=2)
    env.reset(seed=seed)
    play(env, "SUIT(S)", "SUIT(H)")
    reveal = next(e for e in env.history() if e["kind"] == "reveal")["cards"]
    assert _suits_shown(reveal, "SH") == {"S", "H"} and _suits_shown(reveal[:-1], "SH") != {"S", "H"}


def test_a_seat_with_several_revealed_cards_picks_one_and_the_rest_is_reshuffled():
    env = make(num_players=3)
    for seed in range(200):
        env.reset(seed=seed)
        play(env, "SUIT(L)", "SUIT(S)", "SUIT(D)")
        if env.state.phase == START:
            break
    state = env.state
    options = legal_names(env)
    assert len(options) >= 2 and all(name.startswith(f"CARD({'LSD'[state.to_act]}") for name in options)
    revealed = list(state.setup_revealed)
    while state.phase == START:
        play(env, legal_names(env)[-1])
    starting = [pile[0] for pile in state.table[:3]]
    assert len({DECK.codes[card][0] for card in starting}) == 3 and set(starting) <= set(revealed)
    assert state.setup_revealed == []
    assert next(e for e in env.history() if e["kind"] == "shuffle")["count"] == len(DECK) - 3
    assert len(state.deck) == len(DECK) - 3 - 1  # turn 0 has revealed one


def test_the_game_state_starts_with_one_pile_per_player_and_45_minus_n_cards():
    for n in (2, 3, 4):
        env = make(num_players=n)
        env.reset(seed=n)
        while env.state.phase in (SUIT_PHASE, START):
            env.step(env.game.legal_actions(env.state)[0])
        shuffle = next(e for e in env.history() if e["kind"] == "shuffle")
        assert shuffle["count"] == len(DECK) - n


# ---------------------------------------------------------------- the end


def test_the_game_ends_after_the_play_round_of_the_last_card():
    state = between_turns(suits="L S", piles=("L3", "S2"), hands={1: "S5"}, top="L4")
    state.deck = state.deck[-1:]  # L4 is the last card
    state.discard = [card for card in range(len(DECK)) if card not in (*ids("L3 S2 S5 L4"),)]
    env = env_at_turn(state)
    play(env, "ON_TOP(S2)")
    assert (state.phase, state.to_act) == (PLAY, 1)
    play(env, "CARD(S5)", "ON_TOP(L4)")
    assert state.phase == OVER and env.game.is_terminal(state)
    assert scores(state) == [3, 2 * 4 * 5]
    assert state.returns == [-1.0, 1.0]
    result = env.history()[-1]
    assert result["kind"] == "result" and result["scores"] == [3, 40] and result["winners"] == [1]
    assert result["rewards"] == [-1.0, 1.0]


@pytest.mark.parametrize(
    "winners, n, expect",
    [
        ([3], 4, [-1 / 3, -1 / 3, -1 / 3, 1.0]),
        ([0, 2], 4, [0.5, -0.5, 0.5, -0.5]),
        ([0, 1], 2, [0.0, 0.0]),
        ([1], 3, [-0.5, 1.0, -0.5]),
    ],
)
def test_rewards(winners, n, expect):
    assert rewards_for(winners, n) == pytest.approx(expect)


# ---------------------------------------------------------------- settings


def test_num_players_sets_the_table_and_the_unowned_suits():
    for n in (2, 3, 4):
        env = make(num_players=n)
        env.reset(seed=0)
        assert env.possible_agents == [f"player_{seat}" for seat in range(n)]
        for _ in range(n - (n == 4)):
            env.step(env.game.legal_actions(env.state)[0])
        assert env.observe_json("player_0")["unowned"] == list(SUITS[n:])
    assert make().game.num_players == 4


@pytest.mark.parametrize("bad", [{"num_players": 1}, {"num_players": 5}, {"players": 3}, {"match": True}])
def test_bad_config_is_a_config_error(bad):
    with pytest.raises(ConfigError):
        make(**bad)


def test_max_decisions_follows_the_turn_structure():
    assert [make(num_players=n).game.max_decisions() for n in (2, 3, 4)] == [4 + 43 * 8, 6 + 42 * 15, 8 + 41 * 24]


def test_an_illegal_action_is_refused():
    env = make()
    env.reset(seed=0)
    with pytest.raises(Exception, match="illegal|not legal"):
        env.step(ACTION["PASS"])


def test_game_class_declares_open_information():
    assert ParadigmGame.open_information
