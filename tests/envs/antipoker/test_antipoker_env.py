"""The environment plays the rulebook: the deal, the draw, the betting round, the showdown, match mode and every
setting."""

from __future__ import annotations

import pytest
from antipoker_support import bet, dealt, draw, draw_all, ids, make, rewards_after
from cardarena.envs.antipoker.game import CALL, DONE, FOLD, RAISE, AntipokerGame
from cardarena.envs.antipoker.rules import DECK, hand_value
from cardarena.envs.core.cards import hand_seed
from cardarena.envs.core.errors import ConfigError, IllegalActionError

BEST = "ROSE S2 H1 H6 H7 L3"  # worth 235
WORST = "L1 S4 D3 H4 L5 S6"  # worth 23
LOW_21, OTHER_21 = "L1 S2 D3 H4 L5 S6", "S1 L2 H3 D4 S5 L6"


def mask(env) -> list[int]:
    return env.observe(env.agent_selection)["action_mask"].nonzero()[0].tolist()


# ---------------------------------------------------------------- the deal


@pytest.mark.parametrize("num_players", [2, 4, 6])
def test_the_deal_one_card_at_a_time_from_the_dealers_left(num_players):
    env = make(num_players=num_players)
    env.reset(seed=5)
    state = env.state
    stock = DECK.shuffled(hand_seed(state.deal_seed, 0))
    assert state.dealer == num_players - 1 and env.agent_selection == "player_0"
    for seat in range(num_players):
        assert state.hands[seat] == sorted(stock[seat : 6 * num_players : num_players])
    assert state.deck == stock[6 * num_players :] and len(state.deck) == 45 - 6 * num_players
    assert state.pot == num_players and state.contributed == [1] * num_players


# ---------------------------------------------------------------- the draw


def test_the_discard_is_a_pick_of_any_subset_closed_by_done():
    env = make()
    dealt(env, {0: BEST, 1: WORST}, deck="L10 S10 D10")
    hand = ids(BEST)
    assert mask(env) == sorted(hand) + [DONE]
    env.step(ids("H1")[0])
    assert mask(env) == sorted(set(hand) - set(ids("H1"))) + [DONE]
    for card in ids("ROSE S2 H6 H7 L3"):
        env.step(card)
    assert mask(env) == [DONE]
    env.step(DONE)
    assert env.state.discarded[0] == sorted(hand) and env.state.drawn[0] == 6
    assert env.state.pile == ids("H1 ROSE S2 H6 H7 L3")
    assert set(ids("L10 S10 D10")) <= set(env.state.hands[0])


def test_replacements_come_from_the_top_of_the_deck():
    env = make()
    dealt(env, {0: BEST, 1: WORST}, deck="L10 S10 D10 H10")
    draw(env, "S2 L3")
    assert env.state.hands[0] == sorted(ids("ROSE H1 H6 H7 L10 S10"))
    draw(env, "")  # DONE with no pick keeps all six
    assert env.state.hands[1] == sorted(ids(WORST)) and env.state.drawn == [2, 0]
    assert env.state.deck[:2] == ids("D10 H10")


def test_the_deck_running_out_reshuffles_the_pile_less_the_drawers_own_discards():
    env = make(num_players=6)
    state = dealt(env, {0: "L1 L2 L3 L4 L5 L6", 1: "S1 S2 S3 S4 S5 S6"}, seed=2)
    top = state.deck[:]
    draw(env, "L1 L2 L3 L4 L5 L6")
    assert env.state.deck == top[6:]
    draw(env, "S1 S2 S3 S4 S5 S6")
    state = env.state
    assert state.reshuffles == [[1, 6]]
    assert state.pile == ids("S1 S2 S3 S4 S5 S6") and state.pile_owner == [1] * 6
    drawn = set(state.hands[1])
    assert set(top[6:]) < drawn and drawn - set(top[6:]) <= set(ids("L1 L2 L3 L4 L5 L6"))
    assert len(state.deck) == 3 and set(state.deck) <= set(ids("L1 L2 L3 L4 L5 L6"))
    assert sorted([c for hand in state.hands for c in hand] + state.deck + state.pile) == list(range(45))
    again = make(num_players=6)
    dealt(again, {0: "L1 L2 L3 L4 L5 L6", 1: "S1 S2 S3 S4 S5 S6"}, seed=2)
    draw_all(again, ["L1 L2 L3 L4 L5 L6", "S1 S2 S3 S4 S5 S6"])
    assert again.state.hands == state.hands and again.state.deck == state.deck  # from the state's seeded randomness
    history = env.history()
    assert {"hand": 0, "kind": "reshuffle", "seat": 1, "cards": 6} in history


def test_six_players_all_discarding_six_always_complete_their_draws():
    env = make(num_players=6)
    env.reset(seed=11)
    for _ in range(6):
        for card in sorted(env.state.hands[env.state.to_act]):
            env.step(card)
        env.step(DONE)
    assert all(len(hand) == 6 for hand in env.state.hands) and len(env.state.reshuffles) >= 2


# ---------------------------------------------------------------- the betting round (flows E34-E42)


@pytest.mark.parametrize(
    ("num_players", "words", "contributed", "folded", "pot"),
    [
        (2, ["call", "call"], [1, 1], [], 2),
        (2, ["raise", "call"], [3, 3], [], 6),
        (2, ["raise", "fold"], [3, 1], [1], 4),
        (2, ["call", "raise", "call"], [3, 3], [], 6),
        (2, ["raise", "raise", "raise", "raise", "call"], [9, 9], [], 18),
        (3, ["raise", "raise", "fold", "call"], [5, 5, 1], [2], 11),
        (4, ["raise", "fold", "fold", "fold"], [3, 1, 1, 1], [1, 2, 3], 6),
        (3, ["call", "call", "raise", "raise", "call", "fold"], [5, 5, 3], [2], 13),
    ],
)
def test_betting_flows_through_the_environment(num_players, words, contributed, folded, pot):
    env = make(num_players=num_players)
    env.reset(seed=1)
    draw_all(env, [""] * num_players)
    before = env.game.clone(env.state)
    bet(env, words)
    state = env.state
    assert state.terminal and state.contributed == contributed and state.pot == pot
    assert [seat for seat, out in enumerate(state.folded) if out] == folded
    returns = rewards_after(env)
    assert sum(returns) == pytest.approx(0.0) and all(r >= -c for r, c in zip(returns, contributed, strict=True))
    live = [seat for seat in range(num_players) if seat not in folded]
    values = {seat: hand_value(DECK.codes_of(before.hands[seat])) for seat in live}
    top = max(values.values())
    winners = [seat for seat in live if values[seat] == top] if len(live) > 1 else live
    assert returns == [pot / len(winners) - c if seat in winners else -c for seat, c in enumerate(contributed)]


def test_e40_the_rotated_dealer_in_match_mode():
    env = make(num_players=3, num_hands=2)
    env.reset(seed=3)
    draw_all(env, ["", "", ""])
    bet(env, ["call", "call", "call"])
    assert env.state.hand_number == 1 and env.state.dealer == 0 and env.agent_selection == "player_1"
    draw_all(env, ["", "", ""])
    assert env.agent_selection == "player_1"
    bet(env, ["call", "raise", "call", "call"])
    assert env.state.contributed == [3, 3, 3] and env.state.pot == 9 and env.state.terminal


def test_fold_only_facing_a_bet_and_the_cap_counts_bets_and_raises():
    env = make()
    env.reset(seed=0)
    draw_all(env, ["", ""])
    assert mask(env) == [CALL, RAISE]
    with pytest.raises(IllegalActionError):
        env.step(FOLD)
    bet(env, ["raise", "raise", "raise"])
    assert mask(env) == [FOLD, CALL, RAISE]
    bet(env, ["raise"])
    assert mask(env) == [FOLD, CALL]  # a bet and three raises: the cap of 4


def test_the_better_hand_takes_the_pot_and_a_tie_splits_it():
    env = make()
    dealt(env, {0: WORST, 1: BEST})
    draw_all(env, ["", ""])
    bet(env, ["raise", "call"])
    assert rewards_after(env) == [-3.0, 3.0]
    env = make(num_players=3)
    dealt(env, {0: LOW_21, 1: OTHER_21, 2: "L7 S7 D9 H9 SUN ROSE"})
    draw_all(env, ["", "", ""])
    bet(env, ["raise", "raise", "fold", "call"])
    shown = env.history()[-1]
    assert shown["kind"] == "result" and shown["winners"] == [0, 1] and shown["shown"].keys() == {"0", "1"}
    assert rewards_after(env) == [0.5, 0.5, -1.0]


def test_a_hand_won_by_folds_is_not_shown():
    env = make()
    env.reset(seed=4)
    draw_all(env, ["", ""])
    bet(env, ["raise", "fold"])
    result = env.history()[-1]
    assert result["shown"] == {} and result["winners"] == [0] and rewards_after(env) == [1.0, -1.0]
    assert env.observe_json("player_1")["shown"] == {}


# ---------------------------------------------------------------- settings


def test_without_betting_the_draw_ends_the_hand():
    env = make(num_players=3, betting=False, ante=2)
    dealt(env, {0: LOW_21, 1: OTHER_21, 2: "D1 H1 S3 L4 D2 H5"})  # 21, 21 and 16
    for _ in range(3):
        assert all(action <= DONE for action in mask(env))
        draw(env, "")
    assert env.state.terminal
    assert rewards_after(env) == [3 * 2 / 2 - 2, 3 * 2 / 2 - 2, -2.0]


def test_match_mode_pays_each_hand_at_the_step_that_ends_it():
    env = make(num_hands=3, betting=False)
    env.reset(seed=7)
    dealers, totals, results = [], [0.0, 0.0], 0
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent]:
            env.step(None)
            continue
        dealers.append(env.state.dealer)
        hand = env.state.hand_number
        env.step(DONE)
        totals = [t + env.rewards[f"player_{seat}"] for seat, t in enumerate(totals)]
        if env.state.hand_number > hand or env.state.terminal:
            results += 1
            assert sorted(env.rewards.values()) == [-1.0, 1.0] or set(env.rewards.values()) == {0.0}
        else:
            assert set(env.rewards.values()) == {0.0}
    assert dealers == [1, 1, 0, 0, 1, 1] and results == 3
    assert totals == rewards_after(env) == [event["totals"] for event in env.history() if event["kind"] == "result"][-1]


def test_ante_bet_size_and_max_bets_settings():
    env = make(num_players=3, ante=3, bet_size=5, max_bets=2)
    env.reset(seed=2)
    assert env.state.pot == 9 and env.state.contributed == [3, 3, 3]
    draw_all(env, ["", "", ""])
    bet(env, ["raise", "raise"])
    assert mask(env) == [FOLD, CALL]
    bet(env, ["call", "call"])
    assert env.state.contributed == [13, 13, 13] and env.state.pot == 39


def test_the_rulebooks_spelling_of_the_cap_is_refused_by_name():
    with pytest.raises(ConfigError, match="'bet_cap' is now called 'max_bets'"):
        make(bet_cap=4)
    with pytest.raises(ConfigError, match="num_players"):
        make(num_players=7)
    with pytest.raises(ConfigError, match="ante"):
        make(ante=0)


@pytest.mark.parametrize(
    ("config", "decisions"),
    [({}, 14 + 2 + 4), ({"betting": False}, 14), ({"num_players": 6, "num_hands": 2}, 2 * (42 + 6 + 20))],
)
def test_max_decisions_follows_the_turn_structure(config, decisions):
    assert AntipokerGame(make(**config).config).max_decisions() == decisions


def test_labels_and_details():
    env = make()
    dealt(env, {0: BEST, 1: WORST})
    env.step(ids("S2")[0])
    assert env.game.action_label(env.state, DONE) == "done S2"
    assert env.game.action_details(env.state, DONE) == {"kind": "done", "cards": ["S2"]}
    env.step(DONE)
    draw(env, "")
    assert [env.game.action_label(env.state, action) for action in (CALL, RAISE)] == ["check", "bet"]
    env.step(RAISE)
    assert [env.game.action_label(env.state, action) for action in (FOLD, CALL, RAISE)] == ["fold", "call", "raise"]
    public = [event["label"] for event in env.history(1) if event["kind"] == "action"]
    assert public == ["pick", "done", "done", "bet"]
