"""The rulebook's environment scenarios: betting, Shares, Paycheck, running out of cards, Armory,
Distress Signals, a Gravity match, Trick, Vote, the card-set encoding and the Saboteur."""

from __future__ import annotations

import pytest
from cardarena.envs import make
from cardarena.envs.tilt.game import DECK, FIRST_SET, VOID
from tilt_env_support import check_round, codes, legal_labels, play, result, rigged, stand_pat, tilt


def e47(game):
    """Four seats, dealer 0: the betting round 1 of the rulebook's full example."""
    state = rigged(
        game,
        {
            0: ["C1", "C2", "C3", "C4"],
            1: ["P1", "P2", "P3", "P4"],
            2: ["S1", "S2", "S3", "S4"],
            3: ["H1", "H2", "H3", "H4"],
        },
    )
    assert game.current_player(state) == 1 and game.legal_actions(state) == [1, 2]
    play(game, state, "check", "bet", "raise", "raise", "raise")
    assert game.current_player(state) == 2 and game.legal_actions(state) == [0, 1]
    play(game, state, "call", "fold", "call")
    return state


def test_a_full_betting_round_one():
    game = tilt(void_cards=["GALY"])
    state = e47(game)
    assert state.contributions == [5, 5, 5, 3]
    assert sum(state.contributions) == 18
    assert game.live_seats(state) == [1, 2, 0]
    assert state.last_bettor == 1
    assert [VOID["GALY"]] == state.row


def test_dividing_the_shares_after_the_betting_round():
    game = tilt(void_cards=["SHAR"])
    state = e47(game)
    assert state.phase == "share_pass" and state.order == [1, 2, 0]
    play(game, state, "pass P2 P3 P4")  # seat 1 to seat 2
    assert len(state.palms[2]) == 6
    play(game, state, "pass S4")  # seat 2 to seat 0
    assert (len(state.palms[2]), len(state.palms[0])) == (5, 4)
    play(game, state, "pass nothing")  # seat 0 to seat 1
    assert state.phase == "share_discard" and state.order == [2, 0]
    assert len(game.legal_actions(state)) == 10  # exactly 2 of 5 Palm cards
    play(game, state, "discard P2 P3")
    assert len(game.legal_actions(state)) == 4
    play(game, state, "discard S4")
    assert [len(palm) for palm in state.palms[:3]] == [3, 3, 3]
    assert codes(state.received[0]) == ["S4"] and codes(state.passed[1]) == ["P2", "P3", "P4"]
    assert state.phase == "bet" and state.betting_round == 2


def test_corporate_paycheck_caps_the_unit_after_the_full_round():
    game = tilt(void_cards=["PAYC"])
    state = e47(game)
    stand_pat(game, state)
    assert state.bet_rules == [2, 1, "never"]


def test_corporate_paycheck_one_bet_everyone_calls():
    game = tilt(void_cards=["PAYC"])
    state = rigged(game, {})
    check_round(game, state)
    stand_pat(game, state)
    assert state.bet_rules == [1, 1, "never"]
    play(game, state, "check", "bet")
    for seat in (3, 0, 1):
        assert game.current_player(state) == seat and legal_labels(game, state) == ["call"]
        play(game, state, "call")
    assert state.terminal
    assert result(state)["pot"] == 8


def test_running_out_of_cards_with_the_reserve_stash():
    game = tilt(num_players=6, void_cards=["STSH"])
    state = rigged(game, {})
    check_round(game, state)
    assert not state.stock and not state.discards
    assert all(len(state.thumbs[s]) + len(state.palms[s]) == 6 for s in range(6))
    for _ in range(6):
        assert legal_labels(game, state) == ["discard nothing"]
        play(game, state, "discard nothing")


def test_running_out_of_cards_reshuffles_the_discards():
    game = tilt(num_players=6, void_cards=["STSH"])
    state = rigged(game, {1: ["C1", "C2", "C3", "C4"]})
    play(game, state, "bet", "fold", "call", "call", "call", "call")
    assert len(state.stock) == 2 and len(state.discards) == 4
    assert game.current_player(state) == 1 and game.exchange_limit(state, 1) == 3
    palm = codes(state.palms[1])
    play(game, state, f"discard {' '.join(palm[:3])}")
    assert len(state.stock) == 3  # two drawn from the stock, the four folded cards shuffled in, one more drawn
    assert sorted(DECK.indices_of(palm[:3])) == sorted(state.discards)


def test_armory_then_leak_goes_straight_to_showdown():
    game = tilt(num_players=3, void_cards=["ARMR", "LEAK"])
    state = rigged(game, {}, voids=["ARMR", "LEAK"])
    check_round(game, state)
    stand_pat(game, state)
    check_round(game, state)
    assert state.terminal and state.betting_round == 2
    assert result(state)["hazards"] == ["ARMR", "LEAK"]


def test_distress_signal_engine_breach_at_showdown():
    game = tilt(num_players=3, void_cards=["DIST", "ENGB"])
    state = rigged(game, {0: ["S8", "C5", "P5", "H5"], 1: ["K12", "C1", "P3", "S6"]}, voids=["DIST", "ENGB"])
    check_round(game, state)
    assert state.signal == VOID["ENGB"] and state.row == [VOID["DIST"]]
    stand_pat(game, state)
    check_round(game, state)
    outcome = result(state)
    assert outcome["hazards"] == ["DIST", "ENGB"]
    assert outcome["keys"]["0"][3] == 4 and len(outcome["keys"]["0"]) == 7  # three 5s on the three-card table
    assert outcome["hands"]["0"] == ["C5", "P5", "H5"]


def test_distress_signal_is_never_revealed_when_everyone_folds():
    game = tilt(num_players=3, void_cards=["DIST", "ENGB"])
    state = rigged(game, {}, voids=["DIST", "ENGB"])
    check_round(game, state)
    stand_pat(game, state)
    play(game, state, "bet", "fold", "fold")
    assert state.terminal and state.signal == VOID["ENGB"]
    assert not any(event["kind"] == "reveal" for event in state.log)


def test_armory_revealed_as_a_signal_draws_the_haul():
    game = tilt(num_players=3, void_cards=["DIST", "ARMR", "HAUL"])
    state = rigged(game, {1: ["S4", "C1", "P2", "H3"]}, voids=["DIST", "ARMR", "HAUL"])
    check_round(game, state)
    stand_pat(game, state)
    check_round(game, state)
    assert state.phase == "haul" and state.revealed
    assert legal_labels(game, state) == ["keep C1", "keep P2", "keep S4", "keep H3"]
    play(game, state, "keep S4")
    for _ in range(2):
        game.apply(state, game.legal_actions(state)[0])
    assert state.terminal and len(state.grid) == 9
    assert result(state)["hands"]["1"] == ["S4"]


def orbitless_showdown(game):
    """Three seats put in 4 chips each and show hands without a Stars card under Gravity."""
    state = rigged(game, {0: ["C1", "C2", "C3", "C5"], 1: ["P1", "P2", "P4", "P6"], 2: ["H1", "H3", "H5", "H7"]})
    play(game, state, "bet", "call", "call")
    stand_pat(game, state)
    play(game, state, "bet", "call", "call")
    return state


def test_a_match_carries_an_orbitless_pot_and_gravity():
    game = tilt(num_players=3, num_hands=3, void_cards=["GRAV"])
    state = orbitless_showdown(game)
    assert state.hand_number == 1 and state.carry == [4, 4, 4] and state.gravity
    assert len(state.void_deck) == 0 and game.hazards_in_force(state) == [VOID["GRAV"]]
    assert sum(state.stacks) + sum(state.carry) + sum(state.contributions) == 300
    winner = game.current_player(state)
    while state.hand_number == 1:
        play(game, state, "bet" if game.current_player(state) == winner else "fold")
    assert state.carry == [0, 0, 0] and not state.gravity and len(state.void_deck) == 1
    assert result(state)["payouts"][winner] == 3 + 1 + 12  # the antes, its own bet back and the carried chips
    assert state.stacks[winner] + state.contributions[winner] == 96 - 1 - 1 + 16


def test_unpaid_chips_are_refunded_when_the_match_ends():
    state = orbitless_showdown(tilt(num_players=3, num_hands=1, void_cards=["GRAV"]))
    assert state.terminal and state.returns == [0.0, 0.0, 0.0]
    assert result(state)["unpaid"] == [4, 4, 4]


def test_always_have_another_trick():
    game = tilt(void_cards=["TRIK"])
    state = rigged(game, {1: ["C5", "P1", "S2", "H3"]})
    check_round(game, state)
    assert game.current_player(state) == 1
    assert legal_labels(game, state)[:4] == ["discard nothing", "discard P1", "discard S2", "discard P1 S2"]
    assert not any("C5" in label for label in legal_labels(game, state))
    play(game, state, "discard P1")
    assert state.thumbs[1] == [] and len(state.palms[1]) == 4
    assert sorted(DECK.indices_of(["C5", "P1"])) == sorted(state.discards)
    assert state.thumb_discards == DECK.indices_of(["C5"])


def test_vote_of_no_confidence():
    game = tilt(void_cards=["VOTE"])
    state = rigged(game, {1: ["S8", "C1", "P2", "H3"]}, stock=["C4", "K11"])
    check_round(game, state)
    play(game, state, "discard C1 P2")
    assert codes(state.thumbs[1]) == ["C4", "S8", "K11"] and codes(state.palms[1]) == ["H3"]
    view = make("tilt_v2", dealer=0, void_cards=["VOTE"])
    view.load_state(state)
    assert view.observe_json("player_2")["thumbs"][1] == ["C4", "S8", "K11"]


def test_card_set_encoding():
    game = tilt(void_cards=["HAUL"])
    state = rigged(game, {1: ["S4", "C2", "P7", "K10"]})
    assert game.own_cards(state, 1) == DECK.indices_of(["C2", "P7", "S4", "K10"])
    check_round(game, state)
    assert game.current_player(state) == 1 and state.phase == "haul"
    assert game.action_label(state, FIRST_SET + 0b0100) == "keep S4" and FIRST_SET + 0b0100 == 7
    assert game.action_label(state, FIRST_SET + 0b0001) == "keep C2" and FIRST_SET + 1 == 4


def test_card_set_encoding_in_an_exchange():
    game = tilt(void_cards=["LEAK"], void_deck=False)
    state = rigged(game, {1: ["S4", "C2", "P7", "K10"]})
    check_round(game, state)
    assert game.action_label(state, 12) == "discard C2 K10"
    assert game.action_details(state, 12) == {"kind": "discard", "cards": ["C2", "K10"]}
    assert all((action - FIRST_SET) & 0b0100 == 0 for action in game.legal_actions(state))


def test_saboteur_in_the_ranks():
    game = tilt(num_players=3, void_cards=["SABO"])
    state = rigged(game, {1: ["C1", "C2", "C3", "C4"], 2: ["P1", "P2", "P3", "P4"], 0: ["S1", "S2", "S3", "S4"]})
    check_round(game, state)
    stock = list(state.stock)
    play(game, state, "discard C2 C3", "discard nothing", "discard S2 S3 S4")
    assert state.stock == stock and state.sabotage_pile == []
    drawn = sorted(state.palms[1] + state.palms[0])
    assert drawn == sorted(DECK.indices_of(["C2", "C3", "C4", "S2", "S3", "S4"]))
    assert codes(state.palms[2]) == ["P2", "P3", "P4"]


def test_side_pots_of_an_all_in_seat():
    game = tilt(void_deck=False, small_bet=2, big_bet=2, starting_stack=50, dealer=3)
    hands = {
        0: ["K9", "K10", "K11", "K12"],
        1: ["C7", "P7", "S7", "H7"],
        2: ["C2", "P2", "S6", "H6"],
        3: ["C1", "P3", "S5", "H8"],
    }
    state = rigged(game, hands)
    state.stacks[0] = state.bets.stacks[0] = 2  # seat 0 sits with 3 chips: 1 ante and 2 behind
    play(game, state, "check", "bet", "raise", "call", "call", "call")
    assert state.contributions == [3, 5, 5, 5] and state.stacks[0] == 0
    stand_pat(game, state)
    play(game, state, "bet", "raise", "fold", "call")
    assert state.terminal
    assert result(state)["payouts"] == [12, 14, 0, 0]
    assert state.stacks == [12, 50 - 9 + 14, 50 - 9, 50 - 5]


@pytest.mark.parametrize("void_cards", [["GRAV", "FINE"], ["GRAV"], ["FINE"]])
def test_chips_are_conserved_across_a_match(void_cards):
    import random

    game = tilt(num_players=4, num_hands=12, starting_stack=15, void_cards=void_cards)
    for seed in range(25):
        state, rng = game.new_state(seed), random.Random(seed)
        while not state.terminal:
            assert sum(state.stacks) + sum(state.contributions) + sum(state.carry) == 60
            game.apply(state, rng.choice(game.legal_actions(state)))
        assert sum(state.returns) == 0 and sum(state.stacks) == 60


def test_a_match_carries_a_pot_the_fine_print_beat():
    game = tilt(num_players=2, num_hands=2, void_cards=["FINE"])
    state = rigged(game, {0: ["C5", "P5", "S8", "H2"], 1: ["C8", "P6", "S3", "H1"]}, stock=["K9", "K10", "K11", "K12"])
    check_round(game, state)
    stand_pat(game, state)
    check_round(game, state)
    assert state.hand_number == 1 and state.carry == [1, 1] and not state.gravity
    assert result(state)["unpaid"] == [1, 1] and len(state.void_deck) == 1
    bettor = game.current_player(state)
    play(game, state, "bet", "fold")  # the bettor takes both antes and the carried chips (R46)
    assert state.terminal and result(state)["payouts"][bettor] == 2 + 1 + 2
    assert sum(state.returns) == 0 and state.returns[bettor] == 2.0
