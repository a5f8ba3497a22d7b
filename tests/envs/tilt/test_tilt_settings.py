"""Each setting's effect, the rulebook's spellings refused with the suite's name, bad values named."""

from __future__ import annotations

import random

import pytest
from cardarena.envs import make
from cardarena.envs.core.errors import ConfigError
from cardarena.envs.tilt.game import NUM_ACTIONS, TiltConfig
from tilt_env_support import check_round, play, rigged, stand_pat, tilt


def test_defaults_are_the_rulebooks():
    config = TiltConfig.build()
    assert (config.num_players, config.num_hands, config.starting_stack, config.ante) == (4, 1, 100, 1)
    assert (config.small_bet, config.big_bet, config.max_bets, config.dealer) == (1, 2, 4, None)
    assert config.void_deck and config.void_cards is None and config.reward_mode == "chips"


@pytest.mark.parametrize(("old", "new"), [("match_hands", "num_hands"), ("max_raises", "max_bets")])
def test_rulebook_spellings_name_the_suites_setting(old, new):
    with pytest.raises(ConfigError, match=f"'{old}' is now called '{new}'"):
        TiltConfig.build(**{old: 2})


@pytest.mark.parametrize(
    ("settings", "named"),
    [
        ({"num_players": 7}, "num_players"),
        ({"num_players": 1}, "num_players"),
        ({"dealer": 4}, "dealer=4"),
        ({"ante": 0}, "ante"),
        ({"max_bets": 0}, "max_bets"),
        ({"void_cards": ["NOPE"]}, "'NOPE' is not a Void card code"),
        ({"void_cards": ["GRAV", "GRAV"]}, "'GRAV' more than once"),
        ({"reward_mode": "win"}, "reward_mode"),
        ({"colour": "red"}, "unknown config key 'colour'"),
    ],
)
def test_bad_settings_are_named(settings, named):
    with pytest.raises(ConfigError, match=named):
        TiltConfig.build(**settings)


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_every_table_size_deals_four_cards_a_seat(num_players):
    state = tilt(num_players=num_players).new_state(0)
    assert [len(state.thumbs[s]) + len(state.palms[s]) for s in range(num_players)] == [4] * num_players
    assert len(state.stock) == 36 - 4 * num_players
    assert make("tilt_v2", num_players=num_players).action_space("player_0").n == NUM_ACTIONS


def test_dealer_fixed_or_drawn_from_the_seed():
    assert tilt(dealer=2).new_state(5).dealer == 2
    drawn = {make("tilt_v2").game.new_state(seed).dealer for seed in range(40)}
    assert drawn == {0, 1, 2, 3}


def test_ante_starting_stack_and_bet_units():
    game = tilt(ante=3, starting_stack=40, small_bet=2, big_bet=5, void_deck=False)
    state = rigged(game, {})
    assert state.contributions == [3] * 4 and state.stacks == [37] * 4
    play(game, state, "bet")
    assert state.contributions[1] == 5
    check_round_after_bet(game, state)
    stand_pat(game, state)
    play(game, state, "bet")
    assert state.contributions[1] == 10


def check_round_after_bet(game, state):
    while state.phase == "bet" and state.betting_round == 1:
        play(game, state, "call")


def test_max_bets_caps_the_round():
    game = tilt(max_bets=2, void_deck=False)
    state = rigged(game, {})
    play(game, state, "bet", "raise")
    assert game.legal_actions(state) == [0, 1]


def test_a_short_stack_antes_what_it_has_and_is_all_in():
    game = tilt(num_players=2, num_hands=5, starting_stack=1, ante=2, void_deck=False)
    state = game.new_state(3)
    assert state.stacks == [0, 0] and state.contributions == [1, 1]
    assert state.phase == "exchange"  # both all-in from the ante: no betting round, the exchange still played


def test_void_deck_off_is_the_simplified_game():
    game = tilt(void_deck=False)
    for seed in range(30):
        state, rng = game.new_state(seed), random.Random(seed)
        assert state.void_deck == []
        while not state.terminal:
            game.apply(state, rng.choice(game.legal_actions(state)))
            assert state.row == [] and state.betting_round <= 2
        assert not any(event["kind"] in ("hazard", "signal") for event in state.log)


def test_void_cards_restricts_the_void_deck():
    state = tilt(void_cards=["BINY", "HULL"]).new_state(0)
    assert sorted(state.void_deck) == [6, 7]


def test_an_empty_void_deck_draws_nothing():
    game = tilt(void_cards=["ARMR"])
    state = rigged(game, {})
    check_round(game, state)
    stand_pat(game, state)
    check_round(game, state)
    assert state.phase == "exchange"  # stage 2 found no Void card: its exchange still follows
    stand_pat(game, state)
    assert state.betting_round == 3


def test_a_match_rotates_the_dealer_and_ends_when_one_seat_has_chips():
    game = tilt(num_players=3, num_hands=50, starting_stack=4, void_deck=False)
    state, rng = game.new_state(11), random.Random(11)
    dealers = [state.dealer]
    while not state.terminal:
        game.apply(state, rng.choice(game.legal_actions(state)))
        if state.dealer != dealers[-1]:
            dealers.append(state.dealer)
    assert len(dealers) > 1
    assert state.hand_number == 50 or sum(chips > 0 for chips in state.stacks) < 2
    assert sum(state.returns) == 0


def test_seats_out_of_chips_take_no_decisions_but_stay_to_the_end():
    env = make("tilt_v2", num_players=3, num_hands=40, starting_stack=3, void_deck=False)
    env.reset(seed=2)
    out_seen = False
    rng = random.Random(2)
    for agent in env.agent_iter():
        obs, _reward, done, truncated, _info = env.last()
        seat = env.possible_agents.index(agent)
        assert not done or env.state.terminal  # nobody leaves before the match ends
        if not done:
            assert env.state.in_hand[seat]
            out_seen |= not all(env.state.in_hand)
        env.step(None if done or truncated else rng.choice(obs["action_mask"].nonzero()[0]))
    assert out_seen and sum(env.state.returns) == 0
