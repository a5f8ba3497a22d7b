"""Each of the 23 Hazards forced with `void_cards`, its effect checked in a played hand."""

from __future__ import annotations

from cardarena.envs import make
from cardarena.envs.tilt.game import DECK, VOID
from cardarena.envs.tilt.game import codes as card_codes
from cardarena.envs.tilt.state import TiltState
from tilt_env_support import check_round, codes, legal_labels, play, result, rigged, stand_pat, tilt


def showdown(code: str, seat0: list[str], seat1: list[str], stock: list[str] = (), **settings) -> TiltState:
    """Two seats check and stand pat to the showdown with `code` as the Hazard."""
    game = tilt(num_players=2, void_cards=[code], **settings)
    state = rigged(game, {0: seat0, 1: seat1}, stock=stock)
    while not state.terminal:
        if state.phase == "bet":
            check_round(game, state)
        else:
            stand_pat(game, state)
    return state


def winner(state: TiltState) -> int:
    assert sum(state.returns) == 0 and max(state.returns) > 0
    return state.returns.index(max(state.returns))


def test_fine_print_beating_the_best_hand_leaves_the_pot_unpaid():
    state = showdown("FINE", ["C5", "P5", "S8", "H2"], ["C8", "P6", "S3", "H1"], stock=["K9", "K10", "K11", "K12"])
    assert codes(state.fine) == ["K9", "K10", "K11", "K12"]
    assert state.returns == [0.0, 0.0] and result(state)["unpaid"] == [1, 1]


def test_fine_print_below_the_best_hand_lets_it_win():
    state = showdown("FINE", ["C5", "P5", "S8", "H2"], ["C8", "P6", "S3", "H1"], stock=["C1", "P3", "S6", "H8"])
    assert winner(state) == 0 and result(state)["fine_print"] == ["C1", "P3", "S6", "H8"]


def test_fine_print_lies_face_down_until_showdown():
    env = make("tilt_v2", num_players=2, dealer=0, void_cards=["FINE"])
    env.reset(seed=1)
    env.step(1)
    env.step(1)
    view = env.observe_json(env.agent_selection)
    assert view["fine_print"] == 4 and view["hazards"] == ["FINE"]


def test_leak_in_the_fuel_line_goes_to_showdown_without_exchange():
    game = tilt(num_players=2, void_cards=["LEAK"])
    state = rigged(game, {})
    check_round(game, state)
    assert state.terminal and state.betting_round == 1
    assert not any(event["kind"] == "draw" for event in state.log)


def test_mutinous_days_reverses_the_order():
    assert winner(showdown("MUTI", ["C1", "P2", "S4", "H6"], ["C7", "P7", "S7", "H7"])) == 0


def test_distress_signal_is_hidden_then_applied_at_showdown():
    game = tilt(num_players=2, void_cards=["DIST", "MUTI"])
    state = rigged(game, {0: ["C1", "P2", "S4", "H6"], 1: ["C7", "P7", "S7", "H7"]}, voids=["DIST", "MUTI"])
    check_round(game, state)
    env = make("tilt_v2", num_players=2, dealer=0, void_cards=["DIST", "MUTI"])
    env.load_state(game.clone(state))
    view = env.observe_json("player_1")
    assert view["signal_face_down"] and view["hazards"] == ["DIST"] and view["void_deck"] == 0
    stand_pat(game, state)
    check_round(game, state)
    assert result(state)["hazards"] == ["DIST", "MUTI"] and winner(state) == 0


def test_captains_reserve_stash_draws_to_six_and_uses_the_six_card_table():
    game = tilt(num_players=2, void_cards=["STSH"])
    state = rigged(game, {})
    check_round(game, state)
    assert [len(state.thumbs[s] + state.palms[s]) for s in (0, 1)] == [6, 6]
    assert max(len(labels.split()) - 1 for labels in legal_labels(game, state)) == 3
    stand_pat(game, state)
    check_round(game, state)
    assert all(len(key) == 10 for key in result(state)["keys"].values())


def test_well_stocked_armory_adds_a_hazard_exchange_and_betting_round():
    game = tilt(num_players=2, void_cards=["ARMR", "BINY"])
    state = rigged(game, {}, voids=["ARMR", "BINY"])
    check_round(game, state)
    stand_pat(game, state)
    check_round(game, state)
    assert state.row == [VOID["ARMR"], VOID["BINY"]] and state.phase == "exchange"
    stand_pat(game, state)
    assert state.betting_round == 3 and state.bet_rules[0] == game.config.big_bet
    check_round(game, state)
    assert state.terminal and result(state)["hazards"] == ["ARMR", "BINY"]


def test_binary_system_makes_twos_wild():
    assert winner(showdown("BINY", ["C2", "P5", "S5", "H5"], ["K9", "C8", "P8", "S8"])) == 0


def test_hull_breach_blanks_ships():
    assert winner(showdown("HULL", ["H5", "C5", "P1", "S2"], ["C3", "P3", "S8", "K9"])) == 1


def test_inexorable_gravity_needs_an_orbit():
    assert winner(showdown("GRAV", ["C5", "C6", "C7", "C8"], ["S1", "P2", "C4", "H7"])) == 1


def test_the_value_of_teamwork():
    assert winner(showdown("TEAM", ["C3", "P5", "S7", "H8"], ["P1", "P2", "P3", "P4"])) == 0


def test_trust_your_people():
    assert winner(showdown("TRST", ["C3", "S5", "S6", "S8"], ["C7", "P7", "S1", "H2"])) == 0


def test_fine_galley_keeps_crew_cards_out_of_the_exchange():
    game = tilt(num_players=2, void_cards=["GALY"])
    state = rigged(game, {1: ["S1", "C2", "C3", "P4"]})
    check_round(game, state)
    assert legal_labels(game, state) == ["discard nothing", "discard P4"]


def test_counting_the_haul_keeps_one_card_and_deals_a_grid():
    game = tilt(num_players=2, void_cards=["HAUL"])
    grid = ["C4", "P2", "S8", "H6", "P4", "C3", "P7", "S2", "H4"]
    state = rigged(game, {1: ["S4", "C1", "P5", "H3"], 0: ["K9", "K10", "K11", "K12"]}, stock=grid)
    check_round(game, state)
    assert state.phase == "haul" and state.order == [1, 0]
    play(game, state, "keep S4")
    assert state.keeps[1] == DECK.index_of("S4") and state.palms[1]  # nothing happens until all have chosen
    play(game, state, "keep K12")
    assert card_codes(state.thumbs[1]) == ["S4"] and state.palms[1] == [] and state.palms[0] == DECK.indices_of(["K12"])
    assert [DECK.codes[c] for c in state.grid] == grid
    keep_events = [event for event in state.log if event["kind"] == "keep"]
    assert [event["kept_thumb"] for event in keep_events] == [True, False]
    assert state.phase == "bet" and state.betting_round == 2  # no exchange follows
    check_round(game, state)
    assert result(state)["keys"]["1"][3] == 8 and winner(state) == 1  # S4 + diagonal C4 P4 H4


def test_game_of_chicken_shares_a_face_down_card():
    game = tilt(num_players=2, void_cards=["CHKN"])
    state = rigged(game, {0: ["H1", "C5", "P5", "S1"], 1: ["K9", "C8", "P8", "C1"]}, stock=["H5"])
    check_round(game, state)
    assert state.thumbs == [[], []] and card_codes(state.chicken) == ["H5"]
    assert sorted(state.thumb_discards) == sorted(DECK.indices_of(["H1", "K9"]))
    stand_pat(game, state)
    check_round(game, state)
    assert result(state)["keys"]["0"][3] == 4 and winner(state) == 0  # three 5s with the Chicken card


def test_wild_jump():
    assert winner(showdown("JUMP", ["C1", "P5", "S5", "H8"], ["C6", "P6", "S2", "H3"])) == 0


def test_corporate_paycheck_has_no_fold():
    game = tilt(num_players=2, void_cards=["PAYC"])
    state = rigged(game, {})
    check_round(game, state)
    stand_pat(game, state)
    play(game, state, "bet")
    assert legal_labels(game, state) == ["call"]


def test_always_have_another_trick_replaces_the_thumb_face_down():
    game = tilt(num_players=2, void_cards=["TRIK"])
    state = rigged(game, {})
    check_round(game, state)
    stand_pat(game, state)
    assert state.thumbs == [[], []] and [len(palm) for palm in state.palms] == [4, 4]


def test_expendable_ranks():
    assert winner(showdown("EXPD", ["K12", "C5", "P5", "S2"], ["C7", "P7", "S7", "H1"])) == 0


def test_import_taxes_every_hand_uses_a_tariff():
    state = showdown("TAXS", ["K11", "K12", "C1", "P3"], ["C7", "P7", "S7", "H7"], stock=["K9", "K10"])
    assert card_codes(state.tariffs) == ["K9", "K10"]
    assert result(state)["keys"]["0"][3] == 9 and winner(state) == 0  # Command with both Tariffs


def test_vote_of_no_confidence_draws_face_up():
    game = tilt(num_players=2, void_cards=["VOTE"])
    state = rigged(game, {1: ["S8", "C1", "P2", "H3"]})
    check_round(game, state)
    play(game, state, "discard C1")
    assert len(state.thumbs[1]) == 2 and len(state.palms[1]) == 2


def test_saboteur_draws_from_the_shuffled_discards():
    game = tilt(num_players=2, void_cards=["SABO"])
    state = rigged(game, {1: ["S8", "C1", "P2", "H3"], 0: ["S7", "C4", "P5", "H6"]})
    check_round(game, state)
    play(game, state, "discard C1", "discard C4")
    assert sorted(state.palms[1] + state.palms[0]) == sorted(DECK.indices_of(["C1", "P2", "H3", "C4", "P5", "H6"]))


def test_dividing_the_shares_passes_to_the_left():
    game = tilt(num_players=2, void_cards=["SHAR"])
    state = rigged(game, {1: ["S8", "C1", "P2", "H3"], 0: ["S7", "C4", "P5", "H6"]})
    check_round(game, state)
    assert state.order == [0, 1]  # nobody bet: the dealer starts
    play(game, state, "pass C4", "pass nothing", "discard C1")
    assert codes(state.palms[1]) == ["C4", "P2", "H3"]
    assert len(state.palms[0]) == 3 and set(DECK.indices_of(["P5", "H6"])) < set(state.palms[0])


def test_engine_breach_uses_three_card_hands_from_the_palm():
    state = showdown("ENGB", ["K9", "C5", "P5", "S5"], ["K10", "C8", "P7", "S6"])
    assert result(state)["hands"] == {"1": ["C8", "P7", "S6"], "0": ["C5", "P5", "S5"]}
    keys = result(state)["keys"]
    assert len(keys["0"]) == 7 and keys["0"][3] == 4 and keys["1"][3] == 2  # Three of a Kind; Straight 6-7-8
