"""Each Dividha setting's effect, one test per setting, and bad settings refused."""

from __future__ import annotations

import pytest
from cardarena.envs import make
from cardarena.envs.core.errors import ConfigError
from dividha_env_support import act, codes, legal_names, seat_to_act, table

# Two seats, dealer 0 (seat 1 acts first): seat 1 gets GOD SATAN 2H 3D 5B 7H, seat 0 the Pure
# Five-of-a-Kind by Corruption MIN RAL SAN 6H 6D AB (deal order 1, 0 in each pair).
DIVINE_STOCK = "GOD MIN SATAN RAL 2H SAN 3D 6H 5B 6D 7H AB".split()
# Three seats, dealer 0: seat 1 the Full House KH KD KB 4H 4D 2B, seat 2 the High Card
# QH 7D 5B 3D 2H JB, seat 0 gets 7H 6V1 and folds.
ALL_IN_STOCK = "KH QH 7H KD 7D 6V1 KB 5B 4H 3D 4D 2H 2B JB".split()


def checks_to_showdown(env) -> None:
    """Check every betting round and trade nothing until the hand is over."""
    hand = env.state.hand_number
    while env.state.hand_number == hand and not env.state.terminal:
        act(env, "CHECK" if env.state.phase == 0 else "TRADE([])")


def test_num_players_sets_the_table_and_its_bounds():
    assert make("dividha_v1").game.num_players == 4
    assert len(table(num_players=7).state.stacks) == 7
    for bad in (1, 8):
        with pytest.raises(ConfigError, match="num_players"):
            make("dividha_v1", num_players=bad)


def test_starting_stack_and_ante_are_paid_half_win_half_lose():
    env = table(num_players=3, starting_stack=50, ante=6)
    assert env.state.stacks == [44, 44, 44]
    assert env.state.win == env.state.lose == [3, 3, 3] and env.state.pot == 18


def test_dealer_fixes_who_acts_first_and_none_draws_it_from_the_seed():
    assert seat_to_act(table(num_players=5, dealer=3)) == 4
    dealers = {make("dividha_v1", num_players=5).game.new_state(seed).dealer for seed in range(40)}
    assert dealers == set(range(5))
    env = make("dividha_v1")
    assert env.game.new_state(11).dealer == env.game.new_state(11).dealer


def test_bet_size_is_the_fixed_bet():
    env = table(num_players=2, dealer=0, bet_size=5)
    act(env, "RAISE(MIN, WIN)")
    assert env.state.paid[1] == 2 + 5


@pytest.mark.parametrize(
    "limit, options",
    [("fixed", ["MIN"]), ("pot", ["MIN", "HALF_POT", "POT"]), ("no", ["MIN", "HALF_POT", "POT", "ALL_IN"])],
)
def test_limit_sets_the_raise_options(limit, options):
    env = table(num_players=4, dealer=0, limit=limit)
    offered = sorted({name.split("(")[1].split(",")[0] for name in legal_names(env) if name.startswith("RAISE")})
    assert offered == sorted(options)


def test_max_bets_caps_bets_and_raises_in_fixed_limit():
    env = table(num_players=3, dealer=0, max_bets=2)
    act(env, "RAISE(MIN, WIN)", "RAISE(MIN, WIN)")
    assert not any(name.startswith("RAISE") for name in legal_names(env))
    uncapped = table(num_players=3, dealer=0, max_bets=2, limit="no")
    act(uncapped, "RAISE(MIN, WIN)", "RAISE(MIN, WIN)")
    assert any(name.startswith("RAISE") for name in legal_names(uncapped))


def test_demons_wager_bets_before_any_card_is_dealt():
    env = table(num_players=3, dealer=0, demons_wager=True)
    assert env.state.betting_round == 0 and all(card == -1 for slots in env.state.cards for card in slots)
    act(env, "RAISE(MIN, LOSE)", "CALL(WIN)", "CALL(EVEN)")
    assert env.state.betting_round == 1 and all(None not in codes(env, seat, range(2)) for seat in range(3))
    assert env.state.paid == [4, 4, 4]
    assert env.game.max_decisions() > make("dividha_v1", num_players=3).game.max_decisions()


def test_demons_wager_can_end_the_hand_before_any_deal():
    env = table(num_players=2, dealer=0, demons_wager=True)
    act(env, "RAISE(MIN, WIN)", "FOLD")
    assert env.state.terminal and [env.rewards[agent] for agent in env.possible_agents] == [-2.0, 2.0]


def test_pay_to_trade_charges_the_ante_per_card_with_a_split():
    env = table(num_players=2, dealer=0, pay_to_trade=True, ante=4)
    act(env, "CHECK", "CHECK", "CHECK", "CHECK")
    legal = legal_names(env)
    assert legal[0] == "TRADE([])" and not any(name.startswith("TRADE([P") for name in legal)
    assert len(legal) == 1 + 10 * 3
    act(env, "PAID_TRADE([P1,U2], LOSE)")
    assert env.state.paid[1] == 4 + 8 and env.state.lose[1] == 2 + 8
    free = table(num_players=2, dealer=0, ante=4)
    act(free, "CHECK", "CHECK", "CHECK", "CHECK", "TRADE([P1,U2])")
    assert free.state.paid[1] == 4


def test_pay_to_trade_needs_the_chips():
    env = table(num_players=2, dealer=0, pay_to_trade=True, limit="no", starting_stack=5)
    act(env, "CHECK", "CHECK", "CHECK", "RAISE(POT, WIN)", "CALL(WIN)")  # both all-in: 3 chips each
    assert env.state.phase == 1
    act(env, "TRADE([])")
    assert legal_names(env) == ["TRADE([])"]


@pytest.mark.parametrize("divine, rewards", [(True, [-2.0, 2.0]), (False, [2.0, -2.0])])
def test_divine_intervention_makes_god_and_satan_the_best_hand(divine, rewards):
    env = table(DIVINE_STOCK, num_players=2, dealer=0, divine_intervention=divine)
    act(env, "RAISE(MIN, WIN)", "CALL(WIN)")
    checks_to_showdown(env)
    assert env.state.showdown["shown"]["1"]["name"] == ("Divine Intervention" if divine else "One Pair")
    assert [env.rewards[agent] for agent in env.possible_agents] == rewards


def test_all_in_unsplit_forbids_even_for_an_all_in_payment():
    env = table(num_players=2, dealer=0, starting_stack=4, all_in_unsplit=True)
    assert legal_names(env) == ["CHECK", "RAISE(MIN, WIN)", "RAISE(MIN, LOSE)"]
    act(env, "RAISE(MIN, LOSE)")
    assert legal_names(env) == ["FOLD", "CALL(WIN)", "CALL(LOSE)"]
    split = table(num_players=2, dealer=0, starting_stack=4)
    assert "RAISE(MIN, EVEN)" in legal_names(split)


def play_all_in_hand(env) -> None:
    """Seat 1 (Full House) and seat 2 (High Card) go all-in on Win; seat 0 folds."""
    act(env, "RAISE(ALL_IN, WIN)", "CALL(WIN)", "FOLD")
    checks_to_showdown(env)


def test_match_eliminates_a_seat_that_cannot_pay_the_ante_and_its_stack_goes_to_the_best_hand():
    env = table(ALL_IN_STOCK, num_players=3, dealer=0, match=True, starting_stack=10, limit="no", ante_increase_every=1)
    play_all_in_hand(env)
    assert env.state.hand_number == 1 and env.state.showdown["received"] == [0, 19, 3]
    assert env.state.ante == 4 and env.state.in_match == [True, True, False]
    assert env.state.forfeit == 3 and env.terminations["player_2"]
    assert env.state.returns[2] == -10.0
    assert env.state.dealer == 1  # counter-clockwise from seat 0, passing the eliminated seat 2
    assert [event["kind"] for event in env.history() if event["kind"] in ("eliminated", "start")] == [
        "start",
        "eliminated",
        "start",
    ]


def test_match_ends_when_one_seat_is_left_and_it_takes_the_forfeit():
    env = table(num_players=2, dealer=1, match=True, starting_stack=10, limit="no", ante_increase_every=1)
    act(env, "RAISE(ALL_IN, WIN)", "CALL(WIN)")
    checks_to_showdown(env)
    loser = env.state.showdown["received"].index(2)  # the worst hand keeps the Lose column's 2 chips
    assert env.state.terminal and not env.state.truncated and env.state.hand_number == 1
    assert env.state.stacks[loser] == 0 and env.state.stacks[1 - loser] == 20
    assert env.state.returns[loser] == -10.0 and sum(env.state.returns) == 0
    assert [event["kind"] for event in env.history()][-2:] == ["eliminated", "match_won"]


def test_max_hands_truncates_a_match():
    env = table(num_players=3, dealer=0, match=True, max_hands=2)
    checks_to_showdown(env)
    assert not env.state.terminal and env.state.hand_number == 1
    checks_to_showdown(env)
    assert env.state.truncated and not env.state.terminal
    assert all(env.truncations.values()) and sum(env.state.returns) == 0


def test_ante_increase_every_raises_the_ante_in_a_match():
    env = table(num_players=2, dealer=0, match=True, ante_increase_every=2)
    antes = []
    for _ in range(5):
        antes.append(env.state.ante)
        checks_to_showdown(env)
    assert antes == [2, 2, 4, 4, 6]


@pytest.mark.parametrize(
    "settings, problem",
    [
        ({"ante": 3}, "ante=3 must be even"),
        ({"ante": 6, "starting_stack": 4}, "starting_stack=4 must be at least ante=6"),
        ({"dealer": 4}, "dealer=4 must be a seat from 0 to 3"),
        ({"limit": "spread"}, "limit"),
        ({"max_bets_per_round": 3}, "now called 'max_bets'"),
        ({"pay_to_trade": "yes"}, "pay_to_trade"),
        ({"bet_size": 0}, "bet_size"),
        ({"wild_deuces": True}, "unknown config key 'wild_deuces'"),
    ],
)
def test_bad_settings_name_the_problem(settings, problem):
    with pytest.raises(ConfigError, match=problem):
        make("dividha_v1", **settings)
