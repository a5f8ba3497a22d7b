"""The Piktas environment played through its flows: rulebook E41-E43 step by step, the deal (3.4),
dealer rotation (3.3), casual rewards (7), betting, settlement and eliminations (6), and the
eleven-player deck exhaustion (4.5).
"""

from __future__ import annotations

import random

import pytest
from cardarena.envs.core.cards import hand_seed
from cardarena.envs.piktas import rules
from cardarena.envs.piktas.game import BETTING
from cardarena.envs.piktas.rules import DECK, FIRST_VOID
from piktas_env_support import (
    FOLD,
    MATCH,
    PASS,
    RAISE,
    STAY,
    codes,
    done,
    exchange_id,
    ids,
    make,
    mask_ids,
    play,
    table_state,
)

# ---------------------------------------------------------------- E41, E43b: an exchange cycle

E41_HANDS = {0: "V2 K8 U4 M3 W10 K1", 1: "O3 O4 O5 O6 K2 V1", 2: "M5 M6 U8 W2 K6 O9"}
E41_FIELD = [["O7"], ["W5"], ["TOW1"]]
E41_DECK = "M9 U1 O1"
E41_CYCLE2_MASK = [0, 1, 2, 4, 6, 7, 9, 11, 12, 14, 16, 17, 19, 21, 22, 24, 26, 27, 29]


def _field(env) -> list[list[str]]:
    return [codes(stack) for stack in env.state.field]


def _hand(env, seat: int) -> list[str]:
    return codes(env.state.hands[seat])


def _e41_after_cycle_1():
    env = make(num_players=3)
    env.load_state(table_state(env, 0, E41_HANDS, E41_FIELD, E41_DECK))
    assert env.agent_selection == "player_1"
    assert _hand(env, 1) == ["O3", "O4", "O5", "O6", "K2", "V1"]  # K2 is slot 4 (4.6)
    env.step(21)  # swap:K2:O7, E43b
    assert _hand(env, 1) == ["O3", "O4", "O5", "O6", "O7", "V1"]
    assert _field(env) == [["K2"], ["W5"], ["TOW1"]]
    assert env.agent_selection == "player_2"
    env.step(PASS)
    assert env.agent_selection == "player_0"
    assert env.action_label(exchange_id(5, 2)) == "void:V2:TOW1"
    env.step(exchange_id(5, 2))
    assert _field(env) == [["K2"], ["W5"], ["TOW1", "V2"], ["M9"]]
    assert len(env.state.hands[0]) == 5
    assert env.observe_json("player_2")["hand_sizes"] == [5, 6, 6]
    return env


def test_e41_cycle_2_mask_and_labels():
    env = _e41_after_cycle_1()
    assert env.agent_selection == "player_1" and env.state.cycle == 2
    assert mask_ids(env) == E41_CYCLE2_MASK
    labels = [entry["label"] for entry in env.observe_json("player_1")["legal_actions"]]
    expected = rules.legal_actions(["O3", "O4", "O5", "O6", "O7", "V1"], [["K2"], ["W5"], ["TOW1", "V2"], ["M9"]])
    assert len(expected) == 19 and sorted(labels) == expected
    assert "swap:O3:TOW1" not in labels
    for agent in ("player_0", "player_2"):
        assert mask_ids(env, agent) == []


def _finish_with_passes(env) -> None:
    while not done(env):
        env.step(PASS)


def _score_diff(scores: list[int]) -> list[float]:
    return [s - (sum(scores) - s) / (len(scores) - 1) for s in scores]


@pytest.mark.parametrize(
    "lay_void, expected",
    [(False, [24, 22, 7, 7]), (True, [26, 22, 7, 7])],
)
def test_e41_evaluation_at_the_showdown(lay_void, expected):
    env = _e41_after_cycle_1()
    if lay_void:
        env.step(exchange_id(5, 0))  # void:V1:K2
    _finish_with_passes(env)
    field = [["K2", "V1"] if lay_void else ["K2"], ["W5"], ["TOW1", "V2"], ["M9"], ["U1"], ["O1"]]
    assert _field(env) == field
    showdown = env.state.showdowns[-1]
    assert showdown["evaluations"]["1"] == expected
    scores = showdown["scores"]
    assert scores[1] == expected[0]
    flat = [card for stack in field for card in stack]
    for seat in range(3):
        assert scores[seat] == rules.score(_hand(env, seat), flat)
    assert [env.rewards[f"player_{s}"] for s in range(3)] == pytest.approx(_score_diff(scores))
    assert all(env.terminations.values())


# ---------------------------------------------------------------- E42, E43c: a betting round

E42_HANDS = {0: "W1 K3 U5 M7 W9 K10", 1: "O3 O4 O5 O6 O7 TOW1", 2: "W2 K4 U6 M8 U10 M1"}
E42_FIELD = [["K2"], ["W5"], ["M9"]]
E42_DECK = "U1 O1 U2"
E42_BETS = [  # (seat, mask, action, pot after, stacks after)
    (1, [STAY, RAISE, FOLD], STAY, 30, [90, 90, 90]),
    (2, [STAY, RAISE, FOLD], RAISE, 40, [90, 90, 80]),
    (0, [MATCH, RAISE, FOLD], MATCH, 50, [80, 90, 80]),
    (1, [MATCH, RAISE, FOLD], RAISE, 70, [80, 70, 80]),
    (2, [MATCH, RAISE, FOLD], MATCH, 80, [80, 70, 70]),
]


def _e42_betting():
    env = make(num_players=3, mode="gambling")
    env.load_state(table_state(env, 0, E42_HANDS, E42_FIELD, E42_DECK))
    assert env.state.pot == 30 and env.state.chips == [90, 90, 90]
    play(env, [PASS] * 9)
    assert env.state.phase == BETTING
    return env


def test_e42_betting_round():
    env = _e42_betting()
    actions = []
    for seat, mask, action, pot, stacks in E42_BETS:
        assert env.agent_selection == f"player_{seat}"
        assert mask_ids(env) == mask
        env.step(action)
        actions.append(action)
        assert (env.state.pot, env.state.chips) == (pot, stacks)
        assert set(env.rewards.values()) == {0.0}
    assert env.agent_selection == "player_0" and mask_ids(env) == [MATCH, RAISE, FOLD]
    env.step(FOLD)
    assert actions + [FOLD] == [31, 33, 32, 33, 32, 34]  # E43c
    showdown = env.state.showdowns[-1]
    assert sorted(showdown["hands"]) == ["1", "2"] and showdown["winners"] == [1]
    assert env.state.chips == [80, 150, 70] and env.state.pot == 0
    assert env.rewards == {"player_0": -20.0, "player_1": 50.0, "player_2": -30.0}
    assert all(env.terminations.values())


def test_e42_betting_view():
    env = _e42_betting()
    play(env, [action for *_, action, _pot, _stacks in E42_BETS])
    betting = env.observe_json("player_0")["betting"]
    assert betting["current_bet"] == 20 and betting["contributions"] == [10, 20, 20]
    assert [(entry["seat"], entry["action"]) for entry in betting["actions"]] == [
        (1, "stay"),
        (2, "raise"),
        (0, "match"),
        (1, "raise"),
        (2, "match"),
    ]
    assert [entry["label"] for entry in env.observe_json("player_0")["legal_actions"]] == ["match", "raise", "fold"]


# ---------------------------------------------------------------- E43a, E43c from built states


def test_e43a_mask_of_e33():
    env = make(num_players=3)
    hands = {0: "W1 W2 W3 W4 W6 W7", 1: "O3 K7 TOW1 V1 M2 U9", 2: "U1 U2 U3 U4 U5 U6"}
    env.load_state(table_state(env, 0, hands, [["W5"], ["K2", "V2"], ["TUM1"]]))
    assert _hand(env, 1) == ["O3", "K7", "U9", "M2", "TOW1", "V1"]
    view = env.observe_json("player_1")
    assert view["hand"] == _hand(env, 1) and view["field"] == [["W5"], ["K2", "V2"], ["TUM1"]]
    assert mask_ids(env, "player_1") == [0, 1, 3, 6, 8, 11, 13, 16, 18, 21, 23, 26, 28]
    assert env.action_label(3) == "swap:O3:TUM1" and env.action_label(26) == "void:V1:W5"
    labels = [entry["label"] for entry in env.observe_json("player_1")["legal_actions"]]
    assert sorted(labels) == rules.legal_actions(
        ["O3", "K7", "TOW1", "V1", "M2", "U9"], [["W5"], ["K2", "V2"], ["TUM1"]]
    )


def test_e43c_betting_masks_of_e39a_and_e39c():
    env = _e42_betting()
    assert mask_ids(env) == [31, 33, 34]  # E39a: nobody has raised, seat 1 to act
    for _ in range(3):
        env.step(RAISE)
    assert mask_ids(env) == [32, 34]  # E39c: three raises made


# ---------------------------------------------------------------- the deal (3.4) and the dealer (3.3)


def _deck_of_round(state, use_voids: bool) -> list[str]:
    size = len(DECK) if use_voids else FIRST_VOID
    order = random.Random(hand_seed(state.deal_seed, state.round_number)).sample(range(size), size)
    return codes(order)


def _assert_dealt_as_rulebook(state, deck: list[str], n: int) -> None:
    deal = rules.initial_deal(deck, n, state.dealer)
    assert [codes(hand) for hand in state.hands] == [rules.CARDS.sorted_codes(hand) for hand in deal["hands"]]
    assert [codes(stack) for stack in state.field] == deal["field"]
    assert codes(state.deck) == deal["deck"]


@pytest.mark.parametrize(
    "n, dealer, use_voids", [(2, 1, True), (4, 0, True), (4, 3, False), (11, 5, True), (11, 0, False)]
)
def test_initial_deal_matches_rules_initial_deal(n, dealer, use_voids):
    env = make(num_players=n, dealer=dealer, use_voids=use_voids)
    for seed in range(6):
        env.reset(seed=seed)
        state = env.state
        assert state.dealer == dealer
        _assert_dealt_as_rulebook(state, _deck_of_round(state, use_voids), n)
        assert env.agent_selection == f"player_{(dealer + 1) % n}"


@pytest.mark.parametrize("n, dealer", [(3, 2), (5, 1)])
def test_dealer_rotates_left_between_rounds(n, dealer):
    env = make(num_players=n, dealer=dealer, num_hands=4)
    env.reset(seed=7)
    rng = random.Random(7)
    round_number, first_movers = 0, [env.agent_selection]
    while not done(env):
        env.step(rng.choice(mask_ids(env)))
        if env.state.round_number != round_number and not done(env):
            round_number = env.state.round_number
            first_movers.append(env.agent_selection)
            _assert_dealt_as_rulebook(env.state, _deck_of_round(env.state, True), n)
    dealers = [(dealer + k) % n for k in range(4)]
    assert [record["dealer"] for record in env.state.showdowns] == dealers
    assert first_movers == [f"player_{(dealer + 1) % n}" for dealer in dealers]


# ---------------------------------------------------------------- casual rewards (7)

TIE_HANDS = {0: "O1 O2 O3 O4 O5 O6", 1: "W1 W2 W3 W4 W5 W6", 2: "K9 U9 M1 M3 K4 U7"}
TIE_FIELD = [["K1"], ["U3"], ["M5"]]
TIE_DECK = "K7 U10 M8"


def _tied_round(**config):
    env = make(num_players=3, **config)
    env.load_state(table_state(env, 0, TIE_HANDS, TIE_FIELD, TIE_DECK))
    _finish_with_passes(env)
    showdown = env.state.showdowns[-1]
    assert showdown["evaluations"]["0"] == showdown["evaluations"]["1"] == [20, 18, 6, 6]
    assert sorted(showdown["winners"]) == [0, 1]
    return env, showdown


def test_win_reward_shares_the_win():
    env, _ = _tied_round(reward_mode="win")
    assert env.rewards == pytest.approx({"player_0": 1 / 6, "player_1": 1 / 6, "player_2": -1 / 3})


def test_score_diff_reward_of_a_shared_win():
    env, showdown = _tied_round()
    low = rules.score(TIE_HANDS[2].split(), "K1 U3 M5 K7 U10 M8".split())
    assert showdown["scores"] == [20, 20, low] and low < 20
    assert env.rewards == pytest.approx(
        {"player_0": 20 - (20 + low) / 2, "player_1": 20 - (20 + low) / 2, "player_2": low - 20}
    )


def _play_totals(env, seed: int) -> tuple[list[float], int]:
    """Random play: each seat's summed rewards, and the number of steps that paid anything."""
    env.reset(seed=seed)
    rng, paying = random.Random(seed), 0
    totals = [0.0] * env.game.num_players
    while not done(env):
        env.step(rng.choice(mask_ids(env)))
        paying += any(env.rewards.values())
        for seat, agent in enumerate(env.possible_agents):
            totals[seat] += env.rewards[agent]
    return totals, paying


@pytest.mark.parametrize("seed", range(6))
def test_score_diff_is_paid_each_round_and_win_once_for_the_match(seed):
    diff, win = make(num_players=4, num_hands=3), make(num_players=4, num_hands=3, reward_mode="win")
    diff_totals, diff_paying = _play_totals(diff, seed)
    win_totals, win_paying = _play_totals(win, seed)
    rounds = [record["scores"] for record in diff.state.showdowns]
    assert [record["scores"] for record in win.state.showdowns] == rounds
    assert diff_paying == 3 and win_paying == 1 and any(win.rewards.values())
    assert diff_totals == pytest.approx([sum(_score_diff(scores)[s] for scores in rounds) for s in range(4)])
    match_scores = [sum(scores[s] for scores in rounds) for s in range(4)]
    assert win.state.scores == match_scores
    won = [s for s in range(4) if match_scores[s] == max(match_scores)]
    assert win_totals == pytest.approx([(1 / len(won) if s in won else 0.0) - 1 / 4 for s in range(4)])


# ---------------------------------------------------------------- gambling: settlement and eliminations (6)


def test_all_but_one_fold_wins_the_pot_without_showdown():
    env = make(num_players=3, mode="gambling")
    env.reset(seed=3)
    play(env, [PASS] * 9 + [RAISE, FOLD, FOLD])
    showdown = env.state.showdowns[-1]
    assert showdown["winners"] == [1] and showdown["hands"] == {} and showdown["evaluations"] == {}
    assert env.state.chips == [90, 120, 90]
    assert env.rewards == {"player_0": -10.0, "player_1": 20.0, "player_2": -10.0}
    assert env.observe_json("player_0")["showdowns"][-1]["hands"] == {}
    assert all(env.terminations.values())


def test_tied_winners_split_the_pot_odd_chip_first_from_the_dealers_left():
    env = make(num_players=3, mode="gambling", buy_in=5)
    env.load_state(table_state(env, 0, TIE_HANDS, TIE_FIELD, TIE_DECK))
    assert env.state.pot == 15
    play(env, [PASS] * 9 + [STAY, STAY, STAY])
    showdown = env.state.showdowns[-1]
    assert sorted(showdown["winners"]) == [0, 1] and showdown["payout"] == [7, 8, 0]
    assert env.state.chips == [102, 103, 95]
    assert env.rewards == {"player_0": 2.0, "player_1": 3.0, "player_2": -5.0}


def test_gambling_ignores_reward_mode():
    rewards = []
    for reward_mode in ("score_diff", "win"):
        env = make(num_players=3, mode="gambling", reward_mode=reward_mode)
        env.reset(seed=3)
        play(env, [PASS] * 9 + [RAISE, FOLD, FOLD])
        rewards.append(dict(env.rewards))
    assert rewards[0] == rewards[1]


def _step_checking_selection(env, action, eliminated: set[str]) -> None:
    assert env.agent_selection not in eliminated
    env.step(action)


def test_eliminated_seats_leave_after_the_settlement_and_are_never_selected():
    env = make(num_players=4, mode="gambling", starting_stack=20, num_hands=4)
    env.reset(seed=5)
    # round 1, dealer 0: seat 1 raises, everyone else folds
    play(env, [PASS] * 12 + [RAISE, FOLD, FOLD, FOLD])
    assert env.state.round_start_chips == [10, 50, 10, 10] and not any(env.terminations.values())
    assert env.state.chips == [0, 40, 0, 0] and env.state.pot == 40  # round 2's buy-in is paid
    # round 2, dealer 1: seats 2, 3 and 1 fold, seat 0 takes the pot; seats 2 and 3 are left with 0
    assert env.state.dealer == 1 and env.agent_selection == "player_2"
    play(env, [PASS] * 12 + [FOLD, FOLD, STAY, FOLD])
    assert env.state.round_start_chips == [40, 40, 0, 0]
    assert env.terminations == {"player_0": False, "player_1": False, "player_2": True, "player_3": True}
    totals = {}
    while env.agent_selection in ("player_2", "player_3"):
        agent = env.agent_selection
        totals[agent] = env.last()[1]
        env.step(None)
    assert totals == {"player_2": -10.0, "player_3": -10.0}  # round 2's loss, since their folds
    assert env.state.returns[2:] == [-20.0, -20.0]
    assert env.agents == ["player_0", "player_1"]
    # round 3: the dealer skips the eliminated seats (1 -> 0); only seats 1 and 0 take turns
    assert env.state.dealer == 0 and env.state.order == [1, 0] and env.state.pot == 20
    assert [len(hand) for hand in env.state.hands] == [6, 6, 0, 0]
    assert env.observe_json("player_0")["in_round"] == [True, True, False, False]
    eliminated = {"player_2", "player_3"}
    for action in [PASS] * 6 + [FOLD]:
        _step_checking_selection(env, action, eliminated)
    assert env.state.round_start_chips == [50, 30, 0, 0] and env.state.dealer == 1
    for action in [PASS] * 6 + [FOLD]:
        _step_checking_selection(env, action, eliminated)
    assert env.state.chips == [40, 40, 0, 0]
    assert all(env.terminations.values())
    assert env.state.returns == [20.0, 20.0, -20.0, -20.0]


def test_match_ends_when_fewer_than_two_seats_can_pay():
    env = make(num_players=3, mode="gambling", starting_stack=10, num_hands=5)
    env.reset(seed=2)
    play(env, [PASS] * 9 + [FOLD, FOLD])
    assert env.state.chips == [30, 0, 0] and env.state.round_number == 1
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 20.0, "player_1": -10.0, "player_2": -10.0}


def test_last_round_ends_the_match_without_eliminating():
    env = make(num_players=3, mode="gambling", starting_stack=20, num_hands=2)
    env.reset(seed=2)
    play(env, [PASS] * 9 + [RAISE, FOLD, FOLD])  # seat 1 wins 40: stacks 10, 40, 10
    assert env.state.chips == [0, 30, 0] and env.state.dealer == 1
    play(env, [PASS] * 9 + [FOLD, FOLD])  # round 2, dealer 1: seats 2 and 0 fold
    assert env.state.chips == [0, 60, 0]
    assert all(env.terminations.values())
    assert sum(env.state.returns) == 0 and env.state.returns == [-20.0, 40.0, -20.0]


# ---------------------------------------------------------------- eleven players (4.5)

E38_DECK = DECK[:66] + ["V1", "V2"] + DECK[66:70]


def test_e38_eleven_players_run_out_of_deck_after_cycle_1():
    env = make(num_players=11)
    env.reset(seed=0)
    deal = rules.initial_deal(E38_DECK, 11, 0)
    state = env.game.clone(env.state)
    state.hands = [sorted(ids(hand)) for hand in deal["hands"]]
    state.field, state.deck = [ids(stack) for stack in deal["field"]], ids(deal["deck"])
    env.load_state(state)
    assert _field(env) == [["TKM1", "V2", "V1"], ["TKM2"], ["TUM1"]]
    fields = []
    for _cycle in range(3):
        play(env, [PASS] * 11)
        fields.append(_field(env))
    assert fields == [[["TKM1", "V2", "V1"], ["TKM2"], ["TUM1"], ["TUM2"]]] * 3
    assert env.state.deck == [] and all(env.terminations.values())
    assert len(env.state.showdowns[-1]["evaluations"]) == 11


@pytest.mark.parametrize("use_voids", [False, True])
def test_eleven_players_always_get_three_cycles(use_voids):
    env = make(num_players=11, use_voids=use_voids)
    for seed in range(8):
        env.reset(seed=seed)
        left = env.state.deck + [card for stack in env.state.field for card in stack]
        assert len(left) == (6 if use_voids else 4)
        rng, turns = random.Random(seed), 0
        while not done(env):
            env.step(rng.choice(mask_ids(env)))
            turns += 1
        field_cards = [stack[0] for stack in env.state.field if stack and stack[0] < FIRST_VOID]
        assert turns == 33 and env.state.deck == []
        assert len(field_cards) == sum(card < FIRST_VOID for card in left)


def test_a_seat_render_never_shows_a_folded_hand_at_the_end():
    folded_seen = 0
    for seed in range(40):
        env = make(num_players=3, mode="gambling")
        env.reset(seed=seed)
        rng = random.Random(seed)
        while env.agents:
            agent = env.agent_selection
            legal = (
                None if env.terminations[agent] else [int(i) for i in env.observe(agent)["action_mask"].nonzero()[0]]
            )
            env.step(None if legal is None else rng.choice(legal))
        shown = env.state.showdowns[-1]["evaluations"]
        for folded in (s for s in range(3) if str(s) not in shown):
            folded_seen += 1
            viewer = (folded + 1) % 3
            line = next(line for line in env.render(seat=viewer).splitlines() if f"seat {folded}:" in line)
            assert "??" in line and not any(DECK[card] in line.split() for card in env.state.hands[folded])
    assert folded_seen
