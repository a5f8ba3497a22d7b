"""The Yokir PettingZoo environment: rulebook E24-E28 played through the env, the deal (section 3),
match mode (4.6, 7), config, bad input, the JSON seat view and rendering.
"""

from __future__ import annotations

import json
import random
import re

import numpy as np
import pytest
from cardarena.envs import ConfigError, IllegalActionError
from cardarena.envs.core.cards import hand_seed
from cardarena.envs.yokir.game import DISCARD
from cardarena.envs.yokir.rules import DECK, score_hand, trick_winner
from yokir_support import (
    E24_HANDS,
    PASS,
    SUIT_ACTION,
    code,
    deal_state,
    e24_state,
    ids,
    legal_ids,
    make,
    play_random,
    unseen_by,
)

THIRD = 1.0 / 3.0


def _mask_ids(env, agent: str) -> list[int]:
    return [int(i) for i in env.observe(agent)["action_mask"].nonzero()[0]]


def _walk(env, steps):
    """Play (seat, legal ids, action) steps, checking who acts, every seat's mask and zero rewards."""
    for seat, legal, action in steps:
        agent = f"player_{seat}"
        assert env.agent_selection == agent
        assert _mask_ids(env, agent) == sorted(legal), (
            f"mask of {agent} before {code(action) if action < 24 else action}"
        )
        assert env.game.legal_actions(env.state) == sorted(legal)
        for other in env.possible_agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any(), f"{other} has a mask while {agent} acts"
        assert not any(env.terminations.values())
        assert set(env.rewards.values()) == {0.0}
        env.step(action)


# E24 step by step as (seat, legal ids, action): seat 1 accepts (27), discards StPo (7), then 15 cards.
E24_STEPS = [
    (1, [PASS, SUIT_ACTION["At"]], SUIT_ACTION["At"]),
    (1, ids("JoAr StPo CiAt ScAt MaAt ScPh"), ids("StPo")[0]),
    # trick 1: seat 1 leads the Oracle
    (1, ids("JoAr CiAt ScAt MaAt ScPh"), ids("CiAt")[0]),
    (2, ids("PrAt CiPh"), ids("PrAt")[0]),
    (0, ids("StAt"), ids("StAt")[0]),
    # trick 2
    (1, ids("JoAr ScAt MaAt ScPh"), ids("MaAt")[0]),
    (2, ids("CiPh"), ids("CiPh")[0]),
    (0, ids("CiAr ScPo PrPh JoPh"), ids("PrPh")[0]),
    # trick 3: seat 2 won with the Sage
    (2, ids("ScAr MaAr MaPo"), ids("MaAr")[0]),
    (0, ids("CiAr"), ids("CiAr")[0]),
    (1, ids("JoAr"), ids("JoAr")[0]),
    # trick 4
    (2, ids("ScAr MaPo"), ids("MaPo")[0]),
    (0, ids("ScPo"), ids("ScPo")[0]),
    (1, ids("ScAt ScPh"), ids("ScAt")[0]),
    # trick 5
    (1, ids("ScPh"), ids("ScPh")[0]),
    (2, ids("ScAr"), ids("ScAr")[0]),
    (0, ids("JoPh"), ids("JoPh")[0]),
]


# ---------------------------------------------------------------- E24-E28


@pytest.mark.parametrize(
    "reward_mode, expected",
    [
        ("relative", {"player_0": -THIRD, "player_1": 2 * THIRD, "player_2": -THIRD}),
        ("points", {"player_0": 0.0, "player_1": 1.0, "player_2": 0.0}),
    ],
)
def test_e24_complete_hand(reward_mode, expected):
    env = make(dealer=0, reward_mode=reward_mode)
    env.load_state(e24_state(env))
    assert env.agent_selection == "player_1"
    _walk(env, E24_STEPS[:2])
    # after the discard seat 1 holds JoAr CiAt ScAt MaAt ScPh and leads (it is the dealer's left)
    assert sorted(env.state.hands[1]) == ids("JoAr CiAt ScAt MaAt ScPh")
    assert env.state.discard == ids("StPo")[0]
    assert (env.state.caller, env.state.trump) == (1, 2)
    _walk(env, E24_STEPS[2:])
    assert [trick[0] for trick in env.state.tricks] == [1, 1, 2, 2, 1]  # leaders
    assert [trick[-1] for trick in env.state.tricks] == [1, 2, 2, 1, 1]  # winners
    assert env.state.tricks_won == [0, 3, 2]
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == pytest.approx(expected)
    if reward_mode == "relative":
        assert sum(env.rewards.values()) == pytest.approx(0.0, abs=1e-12)
    seen = {}
    for agent in env.agent_iter():
        _obs, reward, termination, truncation, _info = env.last()
        assert termination and not truncation
        seen[agent] = reward
        env.step(None)
    assert seen == pytest.approx(expected)
    assert env.agents == []


def test_e24_action_labels_and_json_view():
    env = make(dealer=0)
    env.load_state(e24_state(env))
    view = env.observe_json("player_1")
    assert view["legal_actions"] == [
        {"id": 24, "label": "reject", "kind": "reject", "cards": []},
        {"id": 27, "label": "accept At", "kind": "accept", "cards": ["ScAt"], "suit": "At"},
    ]
    assert view["hand"] == ["JoAr", "StPo", "CiAt", "MaAt", "ScPh"]  # deck order
    assert view["up_card"] == "ScAt" and view["dealer"] == 0 and view["to_act"] == 1
    env.step(27)
    view = env.observe_json("player_1")
    assert view["phase"] == "discard"
    assert [a["label"] for a in view["legal_actions"]] == [
        "discard JoAr",
        "discard StPo",
        "discard CiAt",
        "discard ScAt",
        "discard MaAt",
        "discard ScPh",
    ]
    env.step(7)
    view = env.observe_json("player_1")
    assert (view["trump"], view["oracle"], view["sage"], view["caller"]) == ("At", "CiAt", "CiPh", 1)
    assert view["discard"] == "StPo"
    assert env.observe_json("player_2")["discard"] is None
    assert env.observe_json("player_0")["discard"] is None
    assert view["bids"] == [{"seat": 1, "round": 1, "action": "accept At"}]
    assert env.action_label(12) == "play CiAt"


def test_e25_round_two_call():
    env = make(dealer=0)
    env.load_state(e24_state(env))
    round1 = [PASS, SUIT_ACTION["At"]]
    round2 = [PASS, SUIT_ACTION["Ar"], SUIT_ACTION["Po"], SUIT_ACTION["Ph"]]
    assert round2 == [24, 25, 26, 28]
    _walk(env, [(1, round1, PASS), (2, round1, PASS), (0, round1, PASS)])
    assert env.observe_json("player_1")["phase"] == "bid2"
    assert [a["label"] for a in env.observe_json("player_1")["legal_actions"]] == [
        "pass",
        "call Ar",
        "call Po",
        "call Ph",
    ]
    _walk(env, [(1, round2, PASS), (2, round2, SUIT_ACTION["Ph"])])
    state = env.state
    assert (state.caller, state.trump, state.discard) == (2, 3, -1)
    assert sorted(state.hands[2]) == sorted(ids(E24_HANDS[2]))  # no up-card taken, no discard
    assert [len(hand) for hand in state.hands] == [5, 5, 5]
    view = env.observe_json("player_0")
    assert (view["trump"], view["oracle"], view["sage"], view["caller"]) == ("Ph", "CiPh", "CiAt", 2)
    assert view["up_card"] == "ScAt"
    assert [b["action"] for b in view["bids"]] == ["reject", "reject", "reject", "pass", "call Ph"]
    assert [b["round"] for b in view["bids"]] == [1, 1, 1, 2, 2]
    # R11: seat 1 (a defender) still leads the first trick, with any card
    assert env.agent_selection == "player_1"
    assert _mask_ids(env, "player_1") == sorted(ids(E24_HANDS[1]))
    # seat 1 leads JoAr; seat 2 must follow Architects
    env.step(ids("JoAr")[0])
    assert _mask_ids(env, "player_2") == ids("ScAr MaAr")


E26_HANDS = {0: "StAr PrAr JoAr CiPo StPh", 1: "MaAr ScAr CiAr StPo PrPo", 2: "JoPo ScPo CiAt StAt PrAt"}


def test_e26_dealer_accepts_and_may_discard_the_up_card():
    env = make(dealer=0)
    env.load_state(deal_state(env, 0, E26_HANDS, "MaPo"))
    bid = [PASS, SUIT_ACTION["Po"]]
    _walk(env, [(1, bid, PASS), (2, bid, PASS), (0, bid, SUIT_ACTION["Po"])])
    assert env.agent_selection == "player_0"
    mask = env.observe("player_0")["action_mask"]
    assert int(mask.sum()) == 6
    assert _mask_ids(env, "player_0") == sorted(ids("StAr PrAr JoAr CiPo StPh MaPo"))
    env.step(ids("MaPo")[0])
    assert env.state.discard == ids("MaPo")[0]
    assert sorted(env.state.hands[0]) == sorted(ids(E26_HANDS[0]))
    # R11: the dealer is the caller; the dealer's left (seat 1) leads
    assert env.agent_selection == "player_1"
    assert env.observe_json("player_0")["discard"] == "MaPo"


# E27 deals: seat 1 calls Architects in round 2 and, however anyone plays, takes 5 or exactly 1 trick.
E27_DEALS = {
    "five": ({1: "CiAr CiPo MaAr ScAr JoAr", 2: "PrAr StAr MaPo ScPo JoPo", 0: "ScAt JoAt MaPh ScPh JoPh"}, "MaAt"),
    "one": ({1: "CiAr StAt PrAt StPh PrPh", 2: "MaAt ScAt JoAt MaPh ScPh", 0: "JoPh MaPo ScPo JoPo PrPo"}, "StPo"),
}


@pytest.mark.parametrize(
    "deal, reward_mode, tricks, expected",
    [
        ("five", "relative", 5, [-1.0, 2.0, -1.0]),
        ("five", "points", 5, [0.0, 3.0, 0.0]),
        ("one", "relative", 1, [THIRD, -2 * THIRD, THIRD]),
        ("one", "points", 1, [1.0, 0.0, 1.0]),
    ],
)
@pytest.mark.parametrize("play_seed", range(3))
def test_e27_rewards(deal, reward_mode, tricks, expected, play_seed):
    env = make(dealer=0, reward_mode=reward_mode)
    hands, up = E27_DEALS[deal]
    env.load_state(deal_state(env, 0, hands, up))
    for action in (PASS, PASS, PASS, SUIT_ACTION["Ar"]):
        env.step(action)
    assert env.state.caller == 1
    list(play_random(env, random.Random(play_seed)))
    assert env.state.tricks_won[1] == tricks
    assert [env.rewards[f"player_{s}"] for s in range(3)] == pytest.approx(expected)


@pytest.mark.parametrize("reward_mode", ["relative", "points"])
def test_e27_void_hand_after_six_passes(reward_mode):
    env = make(dealer=2, reward_mode=reward_mode)
    env.reset(seed=11)
    order = []
    for _ in range(6):
        assert not any(env.terminations.values())
        order.append(env.agent_selection)
        env.step(PASS)
    assert order == ["player_0", "player_1", "player_2"] * 2
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": 0.0}
    view = env.observe_json("player_1")
    assert view["phase"] == "over" and view["caller"] is None and view["tricks"] == []
    assert view["returns"] == [0.0, 0.0, 0.0]


def test_action_and_observation_spaces():
    env = make()
    env.reset(seed=0)
    for agent in env.possible_agents:
        assert env.action_space(agent).n == 29
        obs = env.observe(agent)
        assert obs["action_mask"].dtype == np.int8 and obs["action_mask"].shape == (29,)
        assert obs["observation"].dtype == np.float32
        assert env.observation_space(agent).contains(obs)
    assert env.possible_agents == ["player_0", "player_1", "player_2"]


# ---------------------------------------------------------------- deal (section 3), dealer, first lead


@pytest.mark.parametrize("dealer", [0, 1, 2, None])
def test_deal_follows_section_3(dealer):
    config = {} if dealer is None else {"dealer": dealer}
    env = make(**config)
    for seed in range(8):
        env.reset(seed=seed)
        state = env.state
        if dealer is not None:
            assert state.dealer == dealer
        stock = DECK.shuffled(hand_seed(state.deal_seed, state.hand_number))
        for k in range(3):
            seat = (state.dealer + 1 + k) % 3
            assert sorted(state.hands[seat]) == sorted(stock[k + 3 * j] for j in range(5)), (seed, k)
        assert state.up_card == stock[15]
        assert sorted(state.out_of_play) == sorted(stock[16:])
        assert env.agent_selection == f"player_{(state.dealer + 1) % 3}"
        assert env.observe_json("player_0")["up_card"] == code(stock[15])


def test_random_dealer_is_seeded_and_covers_every_seat():
    env = make()
    dealers = []
    for seed in range(40):
        env.reset(seed=seed)
        first = (env.state.dealer, [sorted(h) for h in env.state.hands])
        env.reset(seed=seed)
        assert (env.state.dealer, [sorted(h) for h in env.state.hands]) == first
        dealers.append(first[0])
    assert set(dealers) == {0, 1, 2}


def test_shuffle_is_not_biased():
    """Over many seeded deals every card is the up-card, and in seat 0's hand, about equally often."""
    env = make(dealer=0)
    up, held = [0] * 24, [0] * 24
    deals = 2400
    for seed in range(deals):
        env.reset(seed=seed)
        up[env.state.up_card] += 1
        for card in env.state.hands[0]:
            held[card] += 1
    assert min(up) > 0.5 * deals / 24 and max(up) < 1.5 * deals / 24, up
    assert min(held) > 0.8 * deals * 5 / 24 and max(held) < 1.2 * deals * 5 / 24, held


def test_reset_without_seed_deals_a_new_hand():
    env = make()
    env.reset(seed=5)
    deals = set()
    for _ in range(5):
        deals.add(tuple(env.state.hands[0]) + (env.state.up_card,))
        env.reset()
    assert len(deals) == 5


def test_next_hand_of_a_match_is_dealt_from_the_next_hand_seed():
    env = make(match=True, dealer=1)
    env.reset(seed=3)
    seed = env.state.deal_seed
    for _ in range(6):
        env.step(PASS)
    state = env.state
    assert (state.hand_number, state.dealer) == (1, 2)
    stock = DECK.shuffled(hand_seed(seed, 1))
    assert sorted(state.hands[0]) == sorted(stock[0:15:3])  # seat 0 is the new dealer's left
    assert state.up_card == stock[15]


# ---------------------------------------------------------------- match mode


def test_void_hands_pass_the_deal_and_truncate_at_max_hands():
    env = make(match=True, max_hands=4, dealer=2)
    env.reset(seed=1)
    for hand in range(4):
        assert env.state.hand_number == hand
        assert env.state.dealer == (2 + hand) % 3
        assert env.observe_json("player_0")["dealer"] == (2 + hand) % 3
        for bid in range(6):
            assert env.agent_selection == f"player_{(env.state.dealer + 1 + bid % 3) % 3}"
            assert not any(env.truncations.values())
            env.step(PASS)
            assert set(env.rewards.values()) == {0.0}
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert env.state.scores == [0, 0, 0]
    for _agent in env.agent_iter():
        _obs, reward, termination, truncation, _info = env.last()
        assert (reward, termination, truncation) == (0.0, False, True)
        env.step(None)
    assert env.agents == []


def test_max_hands_truncates_a_played_match_with_zero_rewards():
    env = make(match=True, max_hands=1)
    for seed in range(5):
        env.reset(seed=seed)
        list(play_random(env, random.Random(seed)))
        assert all(env.truncations.values()) and not any(env.terminations.values())
        assert env.state.hand_number == 1
        assert env.rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": 0.0}
        assert env._cumulative_rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": 0.0}


@pytest.mark.parametrize("seed", range(6))
def test_match_scores_accumulate_deal_passes_left_and_winner_is_paid(seed):
    target = 3
    env = make(match=True, target_score=target)
    env.reset(seed=seed)
    rng = random.Random(seed)
    hands = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        state = env.state
        before = (
            state.hand_number,
            state.dealer,
            list(state.scores),
            state.caller,
            state.trump,
            list(state.tricks_won),
            state.leader,
            [code(c) for c in state.trick],
        )
        action = rng.choice(legal_ids(env))
        env.step(action)
        hand_number, dealer, scores, caller, trump, tricks_won, leader, trick = before
        if env.state.hand_number == hand_number:
            assert set(env.rewards.values()) == {0.0}
            continue
        hands += 1
        # the hand just ended: a void hand (sixth pass) or the fifteenth card
        if len(trick) == 2:
            winner = (leader + trick_winner(trick + [code(action)], ["Ar", "Po", "At", "Ph"][trump])) % 3
            tricks_won[winner] += 1
            points = score_hand(caller, tricks_won)
        else:
            assert action == PASS and caller == -1
            points = [0, 0, 0]
        assert env.state.scores == [s + p for s, p in zip(scores, points, strict=True)]
        if not env.terminations["player_0"]:
            assert env.state.dealer == (dealer + 1) % 3
            assert env.agent_selection == f"player_{(dealer + 2) % 3}"
            assert set(env.rewards.values()) == {0.0}
    final = env.state.scores
    top = max(final)
    assert top >= target and final.count(top) == 1
    winner = final.index(top)
    assert env.rewards == pytest.approx({f"player_{s}": 1.0 if s == winner else -0.5 for s in range(3)})
    assert sum(env.rewards.values()) == pytest.approx(0.0)
    assert env.state.hand_number == hands


def test_match_winner_takes_plus_one():
    env = make(match=True)
    env.load_state(e24_state(env, scores=[9, 9, 9]))
    for _seat, _legal, action in E24_STEPS:
        env.step(action)
    assert env.state.scores == [9, 10, 9]
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -0.5, "player_1": 1.0, "player_2": -0.5}


def test_observation_tells_apart_public_scores_above_the_target():
    """Scores are public (section 9) and matter in a continuation: [11, 11, 10] is not [12, 12, 10]."""
    env = make(match=True)
    close, wider = e24_state(env, scores=[11, 11, 10]), e24_state(env, scores=[12, 12, 10])
    for seat in range(3):
        same = np.array_equal(env.encoder.observation(close, seat), env.encoder.observation(wider, seat))
        assert not same, f"seat {seat}: scores [11, 11, 10] and [12, 12, 10] give the same observation"


def test_defenders_reaching_the_target_together_play_on():
    """R15: two defenders at 10 are tied; a new hand is dealt, the deal passing left."""
    env = make(match=True)
    hands, up = E27_DEALS["one"]
    env.load_state(deal_state(env, 0, hands, up, scores=[9, 3, 9], hand_number=4))
    for action in (PASS, PASS, PASS, SUIT_ACTION["Ar"]):
        env.step(action)
    plays = 0
    while env.state.hand_number == 4:
        env.step(legal_ids(env)[0])
        plays += 1
    assert plays == 15
    assert env.state.scores == [10, 3, 10]
    assert not any(env.terminations.values()) and not any(env.truncations.values())
    assert env.state.dealer == 1 and env.agent_selection == "player_2"
    assert set(env.rewards.values()) == {0.0}
    assert [len(hand) for hand in env.state.hands] == [5, 5, 5]
    list(play_random(env, random.Random(0)))
    final = env.state.scores
    assert final.count(max(final)) == 1 and max(final) >= 10
    assert env.rewards[f"player_{final.index(max(final))}"] == 1.0


# ---------------------------------------------------------------- rewards


def test_relative_rewards_sum_to_zero_and_match_the_points():
    relative, points = make(), make(reward_mode="points")
    allowed = {-2 / 3, 1 / 3, 2 / 3, -1 / 3, 2.0, -1.0, 0.0}
    for seed in range(30):
        for env in (relative, points):
            env.reset(seed=seed)
            list(play_random(env, random.Random(seed)))
        state = points.state
        expected = score_hand(state.caller if state.caller >= 0 else None, state.tricks_won)
        assert [points.rewards[f"player_{s}"] for s in range(3)] == expected
        assert sum(relative.rewards.values()) == pytest.approx(0.0, abs=1e-12)
        rel = [relative.rewards[f"player_{s}"] for s in range(3)]
        assert rel == pytest.approx([p - sum(expected) / 3 for p in expected])
        assert all(any(r == pytest.approx(a) for a in allowed) for r in rel)


def test_relative_rewards_are_exact_thirds_and_sum_to_zero():
    """Section 7's exact values: +1/3 is the float 1/3, and the three rewards sum to exactly 0."""
    outcomes = {}
    for deal in ("five", "one"):
        env = make(dealer=0)
        hands, up = E27_DEALS[deal]
        env.load_state(deal_state(env, 0, hands, up))
        for action in (PASS, PASS, PASS, SUIT_ACTION["Ar"]):
            env.step(action)
        list(play_random(env, random.Random(0)))
        outcomes[deal] = [env.rewards[f"player_{s}"] for s in range(3)]
    env = make(dealer=0)
    env.load_state(e24_state(env))
    for _seat, _legal, action in E24_STEPS:
        env.step(action)
    outcomes["three"] = [env.rewards[f"player_{s}"] for s in range(3)]
    expected = {"five": [-1.0, 2.0, -1.0], "one": [1 / 3, -2 / 3, 1 / 3], "three": [-1 / 3, 2 / 3, -1 / 3]}
    assert outcomes == expected, f"rewards {outcomes}, exact thirds {expected}"
    assert all(sum(rewards) == 0.0 for rewards in outcomes.values()), {k: sum(v) for k, v in outcomes.items()}


# ---------------------------------------------------------------- bad input


def _error_for(env, action) -> str:
    with pytest.raises(IllegalActionError) as info:
        env.step(action)
    return str(info.value)


@pytest.mark.parametrize("action", [0, 29, -1, 1000, "24", 24.0, None, True, np.True_, [24]])
def test_illegal_action_raises_naming_action_and_legal_ones(action):
    env = make(dealer=0)
    env.load_state(e24_state(env))
    before = env.observe("player_1")["observation"].copy()
    message = _error_for(env, action)
    assert repr(action) in message or str(action) in message
    assert "24" in message and "27" in message and "reject" in message and "accept At" in message
    # nothing changed: the same agent acts from the same observation, and the legal move still works
    assert env.agent_selection == "player_1"
    assert np.array_equal(env.observe("player_1")["observation"], before)
    env.step(np.int64(27))
    assert env.agent_selection == "player_1" and env.state.caller == 1


@pytest.mark.parametrize("action", [np.int64(27), np.int8(27), np.array(27), 27])
def test_integer_like_actions_are_accepted(action):
    env = make(dealer=0)
    env.load_state(e24_state(env))
    env.step(action)
    assert env.state.caller == 1 and env.state.phase == DISCARD


def test_wrong_card_in_trick_play_is_illegal():
    env = make(dealer=0)
    env.load_state(e24_state(env))
    for _seat, _legal, action in E24_STEPS[:3]:
        env.step(action)
    # seat 2 must follow trump: PrAt (14) or the Sage CiPh (18); MaAr (5) is in hand but illegal
    message = _error_for(env, ids("MaAr")[0])
    assert "5" in message and "MaAr" in message
    assert "14" in message and "18" in message and "PrAt" in message and "CiPh" in message
    # a card the seat does not hold at all
    assert "JoAt" in _error_for(env, ids("JoAt")[0])


def test_step_after_episode_end_accepts_only_none():
    env = make(dealer=0)
    env.reset(seed=0)
    for _ in range(6):
        env.step(PASS)
    assert "None" in _error_for(env, PASS)


@pytest.mark.parametrize("match", [False, True])
@pytest.mark.parametrize("after_steps", [0, 5])
def test_penalize_ends_the_episode(match, after_steps):
    env = make(on_illegal="penalize", illegal_reward=-2.5, match=match, dealer=0)
    env.load_state(e24_state(env))
    for _seat, _legal, action in E24_STEPS[:after_steps]:
        env.step(action)
    offender = env.agent_selection
    env.step(28)  # SUIT(Ph) is never legal here
    assert all(env.terminations.values()) and not any(env.truncations.values())
    assert env.rewards == {agent: (-2.5 if agent == offender else 0.0) for agent in env.possible_agents}
    assert env.infos[offender]["illegal_action"] is True
    seen = {}
    for agent in env.agent_iter():
        seen[agent] = env.last()[1]
        env.step(None)
    assert seen == {agent: (-2.5 if agent == offender else 0.0) for agent in env.possible_agents}


@pytest.mark.parametrize(
    "key, value",
    [
        ("dealer", 5),
        ("dealer", -1),
        ("dealer", "0"),
        ("reward_mode", "x"),
        ("target_score", 0),
        ("target_score", -3),
        ("max_hands", 0),
        ("num_players", 4),
        ("num_players", 2),
        ("match", "yes"),
        ("on_illegal", "ignore"),
        ("illegal_reward", "high"),
        ("dealr", 1),
    ],
)
def test_bad_config_raises_naming_key_and_value(key, value):
    with pytest.raises(ConfigError) as info:
        make(**{key: value})
    message = str(info.value)
    assert key in message
    if key != "dealr":
        assert repr(value) in message
    else:
        assert "dealer" in message  # lists the allowed keys


@pytest.mark.parametrize("value", [True, 1.0])
def test_dealer_must_be_an_int_seat(value):
    """strict config: like target_score=True, dealer=True or 1.0 is not a seat number."""
    with pytest.raises(ConfigError) as info:
        make(dealer=value)
    assert "dealer" in str(info.value) and repr(value) in str(info.value)


def test_bad_render_mode_is_a_config_error():
    with pytest.raises(ConfigError) as info:
        make(render_mode="rgb_array")
    assert "rgb_array" in str(info.value)


def test_state_of_another_game_is_refused():
    env = make()
    env.reset(seed=0)
    data = env.game.state_to_json(env.state)
    data["game"] = "yokir_v0"
    with pytest.raises(ValueError, match="yokir_v0"):
        env.game.state_from_json(data)


# ---------------------------------------------------------------- seat view and rendering


def _hidden_codes(state, seat):
    return {code(card) for card in unseen_by(state, seat)}


def _trump_names(state):
    if state.trump < 0:
        return set()
    suit = "Ar Po At Ph".split()[state.trump]
    partner = "Ar Po At Ph".split()[state.trump ^ 1]
    return {"Ci" + suit, "Ci" + partner}


@pytest.mark.parametrize("match", [False, True])
def test_observe_json_is_canonical_and_hides_other_hands(match):
    env = make(match=match, target_score=2)
    for seed in range(6):
        env.reset(seed=seed)
        rng = random.Random(seed)
        for step, (agent, _action) in enumerate(play_random(env, rng)):
            if step % 3:
                continue
            state = env.state
            for seat in range(3):
                view = env.observe_json(f"player_{seat}")
                assert view["hand"] == DECK.codes_of(state.hands[seat])
                assert view["up_card"] == code(state.up_card)
                assert view["seat"] == seat and view["to_act"] == state.to_act
                if f"player_{seat}" == agent:
                    legal = env.game.legal_actions(state)
                    assert [a["id"] for a in view["legal_actions"]] == legal
                    assert [a["label"] for a in view["legal_actions"]] == [env.action_label(a) for a in legal]
                else:
                    assert view["legal_actions"] == []
                # last_hand is the previous hand's result: its cards were all played in the open
                public = {k: v for k, v in view.items() if k not in ("oracle", "sage", "last_hand")}
                text = json.dumps(public)
                tokens = set(re.findall(r"[A-Z][a-z][A-Z][a-z]", text))
                assert tokens <= set(DECK.codes)
                leaked = (tokens & _hidden_codes(state, seat)) - _trump_names(state)
                assert not leaked, f"seat {seat} sees {leaked}"


def test_render_ansi_from_a_seat_hides_other_hands(capsys):
    env = make(render_mode="ansi", dealer=0)
    env.load_state(e24_state(env))
    for _seat, _legal, action in E24_STEPS[:2]:
        env.step(action)
    table = env.render()
    for seat in range(3):
        for card in env.state.hands[seat]:
            assert code(card) in table
    for seat in range(3):
        text = env.render(seat)
        shown = set(re.findall(r"[A-Z][a-z][A-Z][a-z]", text))
        assert {code(c) for c in env.state.hands[seat]} <= shown
        leaked = (shown & _hidden_codes(env.state, seat)) - _trump_names(env.state)
        assert not leaked, f"seat {seat} render shows {leaked}"
    assert "StPo" in env.render(1) and "StPo" not in env.render(2)  # the discard: caller only
    human = make(render_mode="human", dealer=0)
    human.reset(seed=0)
    assert human.render() is None
    assert "up-card" in capsys.readouterr().out
