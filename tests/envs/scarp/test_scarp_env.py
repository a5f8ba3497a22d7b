"""Scarp's environment: the rulebook's flow examples, the timing of every special action, the
once-per-turn caps, the variants, the setup reveal and the bad-input errors."""

from __future__ import annotations

import random

import pytest
from cardarena.envs.core.errors import ConfigError, IllegalActionError
from cardarena.envs.scarp import game as scarp
from cardarena.envs.scarp.rules import DECK, SUIT
from scarp_support import challenge, codes, essence_action, ids, laid_out, legal, make, pick, play, random_no_fold


def hand(env, seat: int) -> list[str]:
    return codes(env.state.hands[seat])


# ---------------------------------------------------------------- the flow examples


def test_an_ordinary_turn():
    env = laid_out(make(), 0, ["L8 D2 H4 S1 SUN", "S6 H2 D9 L1 L3"], deck="D5")
    assert challenge("L8", 0) == 18
    play(env, 18)
    assert env.state.to_act == 1
    assert legal(env) == sorted([pick("S6"), pick("H2"), scarp.DECLINE, scarp.FOLD]) == [99, 115, 130, 146]
    play(env, pick("S6"), pick("H2"), scarp.DONE)
    assert codes(env.state.pile) == ["L8"]
    assert hand(env, 1) == ["L1", "L3", "S6", "D5", "D9", "H2"]  # seat 1 drew D5
    assert (env.state.turn, env.state.challenger, env.state.phase) == (1, 1, scarp.MAIN)


def test_a_reverse_challenge_that_opens_the_challengers_hand():
    env = laid_out(make(), 0, ["D6 H5 H1 D3 L7", "S1 S4 S9 H3 L2"], deck="S10")
    assert challenge("D6", 1) == 55
    play(env, 55)
    assert scarp.REVERSE in legal(env)
    play(env, scarp.REVERSE, pick("S1"), pick("S4"))
    assert codes(env.state.pile) == []
    play(env, pick("S9"))
    assert codes(env.state.pile) == ["S1", "S4", "S9"]
    assert all(scarp.FIRST_CHALLENGE <= a < scarp.FIRST_PICK for a in legal(env))
    play(env, challenge("L2", 0))
    assert env.state.to_act == 0 and legal(env) == [scarp.DECLINE, scarp.FOLD]
    play(env, scarp.DECLINE)
    assert hand(env, 1) == ["S10", "H3"] and "L2" in codes(env.state.pile)
    assert env.state.to_act == 1 and env.state.access
    assert codes(env.state.known[1]) == ["L7", "D3", "H1", "H5"]
    assert legal(env) == sorted([pick("H1"), pick("H5"), scarp.DECLINE, scarp.FOLD])
    play(env, pick("H5"), pick("H1"), scarp.DONE)
    assert hand(env, 0) == ["L7", "D3"]
    assert {"H5", "H1"} <= set(hand(env, 1)) and len(hand(env, 1)) == 5
    assert "D6" in codes(env.state.pile) and env.state.turn == 1


def test_shrike_as_emp_then_double_shrike():
    env = laid_out(make(), 0, ["L1 L2 L3 L4 L5 L6 S2", "S7 S8 H7 H8"], pile="D7 H9", deck="D1")
    assert scarp.DOUBLE_SHRIKE not in legal(env)
    play(env, scarp.EMP, pick("L1"), pick("L2"), pick("L3"))
    state = env.state
    assert state.shrike_played and len(state.hands[1]) == 3 and state.phase == scarp.EMP_PILE
    taken = [event for event in env.history() if event["kind"] == "take"]
    assert taken[-1]["seat"] == 0 and taken[-1]["cards"][0] in {"S7", "S8", "H7", "H8"}
    assert legal(env) == [pick("D7"), pick("H9")]
    play(env, pick("H9"))
    assert codes(state.pile) == ["L1", "L2", "L3", "D7"]
    assert {"D1", "H9", taken[-1]["cards"][0]} <= set(hand(env, 0))
    assert scarp.DOUBLE_SHRIKE in legal(env)
    deck_before = list(state.deck)
    play(env, scarp.DOUBLE_SHRIKE, pick("L4"), pick("L5"), pick("L6"))
    assert env.state.phase == scarp.DECK_PICK
    assert legal(env) == sorted(scarp.FIRST_PICK + card for card in deck_before)
    chosen = deck_before[0]
    play(env, scarp.FIRST_PICK + chosen)
    state = env.state
    assert chosen in state.hands[0]
    assert codes(state.pile) == ["L4", "L5", "L6"]
    assert sorted(state.deck) == sorted([c for c in deck_before if c != chosen] + ids("L1 L2 L3 D7"))
    assert state.phase == scarp.MAIN and scarp.DOUBLE_SHRIKE not in legal(env)


def test_quake_with_discard_down():
    env = laid_out(make(), 0, ["L5 S5 ROSE L1 L2 D3 D4 S8 H9", "H1 H2"], pile="L6 L7 D6 D7 S6 S7 H6 H7")
    play(env, scarp.QUAKE, pick("L5"), pick("S5"), pick("ROSE"))
    state = env.state
    assert len(state.hands[0]) == 14 and state.phase == scarp.QUAKE_DISCARD and state.pick_size == 4
    assert codes(state.aside) == ["L5", "S5", "ROSE"] and state.pile == []
    play(env, pick("L1"), pick("L2"), pick("D3"))
    assert state.phase == scarp.QUAKE_DISCARD
    play(env, pick("D4"))
    assert len(state.hands[0]) == 10 and codes(state.pile) == ["L1", "L2", "L5", "S5", "D3", "D4", "ROSE"]
    assert state.phase == scarp.MAIN and scarp.QUAKE not in legal(env)


def test_strip():
    env = laid_out(make(), 0, ["SUN L4 S3", "S1 S2 S9 S4 H5 H6 D7"])
    play(env, essence_action(scarp.FIRST_ESSENCE_STRIP, "SUN"))
    state = env.state
    assert state.to_act == 1 and state.phase == scarp.STRIP and state.pick_size == 3
    assert legal(env) == sorted(scarp.FIRST_PICK + card for card in state.hands[1])
    play(env, pick("S1"), pick("S2"), pick("H5"))
    assert codes(state.pile) == ["S1", "S2", "H5", "SUN"] and len(state.hands[1]) == 4
    assert state.to_act == 0 and state.phase == scarp.MAIN


def test_deck_out_in_the_middle_of_an_effect():
    env = laid_out(make(), 0, ["GHOST L1 L2", "S1 S2 S3 S4"], deck="D1 D2", rest="pile")
    play(env, scarp.GHOST_DRAW)
    state = env.state
    assert len(state.hands[0]) == 4 and state.deck == [] and "GHOST" in codes(state.pile)
    assert env.game.is_terminal(state) and state.reason == "deck_out" and state.returns == [0.0, 0.0]
    env = laid_out(make(), 0, ["GHOST L1 L2", "S1 S2 S3"], deck="D1 D2", rest="pile")
    play(env, scarp.GHOST_DRAW)
    assert env.state.returns == [1.0, -1.0] and env.history()[-1]["kind"] == "result"


# ---------------------------------------------------------------- challenges and responses


def test_an_essence_answer_brings_the_challenge_card_and_nobody_draws():
    env = laid_out(make(), 0, ["L8 D2", "STONE D9"], deck="H1")
    play(env, challenge("L8", 0), pick("STONE"), scarp.DONE)
    assert hand(env, 1) == ["L8", "D9", "STONE"] and env.state.pile == [] and len(env.state.deck) > 0
    assert codes(env.state.deck[-1:]) == ["H1"]


def test_a_decline_discards_the_challenge_card_and_the_challenger_draws():
    env = laid_out(make(), 0, ["L8 D2", "S6 H2"], deck="H1")
    play(env, challenge("L8", 0), scarp.DECLINE)
    assert hand(env, 0) == ["D2", "H1"] and codes(env.state.pile) == ["L8"]


def test_ghost_answer_is_legal_without_an_answer_and_gives_access():
    env = laid_out(make(), 0, ["L8 S5 H1 L2", "GHOST S2 D4"])
    play(env, challenge("L8", 0))
    assert scarp.GHOST_ANSWER in legal(env) and pick("S2") not in legal(env)
    play(env, scarp.GHOST_ANSWER)
    state = env.state
    assert state.access and "GHOST" in codes(state.pile) and codes(state.known[1]) == ["L2", "S5", "H1"]
    assert scarp.GHOST_ANSWER not in legal(env) and scarp.REVERSE not in legal(env)
    play(env, pick("S5"), pick("S2"), pick("H1"), scarp.DONE)
    assert hand(env, 0) == ["L2"] and {"S5", "S2", "H1"} <= set(hand(env, 1))


def test_ghost_answer_then_decline_steals_nothing():
    env = laid_out(make(), 0, ["L8 L2", "GHOST S2 D4"])
    play(env, challenge("L8", 0), scarp.GHOST_ANSWER, scarp.DECLINE)
    assert "L2" in hand(env, 0) and "GHOST" in codes(env.state.pile)


def test_a_started_answer_cannot_be_abandoned():
    env = laid_out(make(), 0, ["L8 D2", "S6 H2 S3 H5"])
    play(env, challenge("L8", 0), pick("S6"))
    assert legal(env) == [pick("H2")]
    play(env, pick("H2"))
    assert legal(env) == [scarp.DONE]


def test_no_reverse_of_a_reverse_and_no_second_reverse():
    env = laid_out(make(), 0, ["D6 L1 L2 L3 L4 H5", "S1 S4 S9 S2 H3 D8"])
    play(env, challenge("D6", 1), scarp.REVERSE, pick("S1"), pick("S4"), pick("S9"), challenge("D8", 0))
    assert env.state.to_act == 0 and scarp.REVERSE not in legal(env)  # seat 0 holds a Shrike
    play(env, scarp.DECLINE)
    assert env.state.to_act == 1 and scarp.REVERSE not in legal(env) and scarp.GHOST_ANSWER not in legal(env)


def test_reverse_needs_a_numbered_card_left():
    env = laid_out(make(), 0, ["D6 L1", "H3 H7 ROSE SUN"])
    play(env, challenge("D6", 1))
    assert scarp.REVERSE not in legal(env)


def test_ghost_answer_is_legal_to_the_original_challenger_in_a_reverse():
    env = laid_out(make(), 0, ["D6 GHOST L1", "S1 S4 S9 D8 H3"])
    play(env, challenge("D6", 1), scarp.REVERSE, pick("S1"), pick("S4"), pick("S9"), challenge("D8", 0))
    assert scarp.GHOST_ANSWER in legal(env)
    play(env, scarp.GHOST_ANSWER)
    assert env.state.access and codes(env.state.known[0]) == ["H3"]
    assert legal(env) == [scarp.DECLINE, scarp.FOLD]  # H3 alone cannot answer 8 with a Shade card


def test_the_reverse_challenge_resolves_like_a_challenge_then_the_original_follows():
    env = laid_out(make(), 0, ["D6 S3 H5", "S1 S4 S9 D8 H2 H4"], deck="L10")
    play(env, challenge("D6", 1), scarp.REVERSE, pick("S1"), pick("S4"), pick("S9"), challenge("D8", 0))
    play(env, pick("S3"), pick("H5"), scarp.DONE)  # seat 0 answers the reverse: 3 + 5
    state = env.state
    assert "L10" in hand(env, 0) and "D8" in codes(state.pile)
    assert state.stage == scarp.ORIGINAL and state.to_act == 1 and not state.access
    assert legal(env) == sorted([pick("H2"), pick("H4"), scarp.DECLINE, scarp.FOLD])


def test_draw_pass_only_without_a_numbered_card():
    env = laid_out(make(), 0, ["SUN GHOST", "S1 S2"], deck="L1")
    assert scarp.DRAW_PASS in legal(env) and not any(scarp.FIRST_CHALLENGE <= a < scarp.FIRST_PICK for a in legal(env))
    play(env, scarp.DRAW_PASS)
    assert hand(env, 0) == ["L1", "SUN", "GHOST"] and env.state.turn == 1 and env.state.challenger == 1
    env = laid_out(make(), 0, ["SUN L2", "S1 S2"])
    assert scarp.DRAW_PASS not in legal(env)


def test_fold_loses_from_the_main_phase_and_the_response():
    env = laid_out(make(), 0, ["L8", "S1"])
    play(env, scarp.FOLD)
    assert env.state.returns == [-1.0, 1.0] and env.state.reason == "fold"
    env = laid_out(make(), 0, ["L8", "S1"])
    play(env, challenge("L8", 0), scarp.FOLD)
    assert env.state.returns == [1.0, -1.0]


# ---------------------------------------------------------------- special effects and caps


def test_essence_draw_draws_three_and_discards_the_essence():
    env = laid_out(make(), 0, ["ROSE L1", "S1"], deck="D1 D2 D3")
    play(env, essence_action(scarp.FIRST_ESSENCE_DRAW, "ROSE"))
    assert hand(env, 0) == ["L1", "D1", "D2", "D3"] and codes(env.state.pile) == ["ROSE"]
    assert env.state.phase == scarp.MAIN and env.state.to_act == 0


def test_a_strip_of_a_one_card_hand_discards_nothing():
    env = laid_out(make(), 0, ["KNIFE L1", "S1"])
    play(env, essence_action(scarp.FIRST_ESSENCE_STRIP, "KNIFE"))
    assert hand(env, 1) == ["S1"] and codes(env.state.pile) == ["KNIFE"] and env.state.phase == scarp.MAIN


def test_an_emp_that_is_no_shrike_does_not_open_the_double_shrike():
    env = laid_out(make(), 0, ["L1 L2 D3 L4 L5 L6", "S1"], deck="H9")
    play(env, scarp.EMP, pick("L1"), pick("L2"), pick("D3"))
    assert not env.state.shrike_played and scarp.DOUBLE_SHRIKE not in legal(env)


def test_an_emp_skips_what_is_empty():
    env = laid_out(make(), 0, ["L1 L2 L3 S5", ""], deck="H9")
    play(env, scarp.EMP, pick("L1"), pick("L2"), pick("L3"))
    assert hand(env, 0) == ["S5", "H9"] and codes(env.state.pile) == ["L1", "L2", "L3"]
    assert env.state.phase == scarp.MAIN
    assert not [event for event in env.history() if event["kind"] == "take"]


def test_the_cards_of_an_emp_cannot_come_back_from_the_pile():
    env = laid_out(make(), 0, ["L1 L2 L3 S5", "H4"], pile="D9", deck="H9")
    play(env, scarp.EMP, pick("L1"), pick("L2"), pick("L3"))
    assert legal(env) == [pick("D9")]


def test_the_turn_flags_are_cleared_each_turn():
    env = laid_out(make(), 0, ["L5 S5 H5 D1 D2 D3 L2", "H1 H2 H3 S9 S8 S7 L9"])
    play(env, scarp.QUAKE, pick("L5"), pick("S5"), pick("H5"))
    assert env.state.quake_used
    play(env, challenge("D1", 0), scarp.DECLINE)
    assert env.state.turn == 1 and not env.state.quake_used and not env.state.shrike_played


def test_double_shrike_is_once_a_turn():
    env = laid_out(make(), 0, ["L1 L2 L3 L4 L5 L6 L7 L8 L9 S1", "H1"], deck="D1")
    play(env, scarp.EMP, pick("L1"), pick("L2"), pick("L3"))
    play(env, scarp.DOUBLE_SHRIKE, pick("L4"), pick("L5"), pick("L6"))
    play(env, legal(env)[0])
    assert env.state.double_used and scarp.DOUBLE_SHRIKE not in legal(env)
    assert scarp.EMP in legal(env)  # L7 L8 L9 still make an Emp


# ---------------------------------------------------------------- setup, variants, ends


@pytest.mark.parametrize("seed", range(8))
def test_naming_and_the_reveal(seed):
    env = make()
    env.reset(seed=seed)
    assert legal(env) == [0, 1, 2, 3] and env.state.to_act == 0
    play(env, 2)
    assert legal(env) == [0, 1, 3] and env.state.to_act == 1
    play(env, 1)
    state = env.state
    revealed = state.revealed
    assert SUIT[revealed[-1]] in (2, 1) and all(SUIT[card] not in (2, 1) for card in revealed[:-1])
    assert state.first_challenger == (0 if SUIT[revealed[-1]] == 2 else 1) == state.challenger == state.to_act
    assert len(state.deck) == 35 and state.phase == scarp.MAIN
    reveal = [event for event in env.history() if event["kind"] == "reveal"]
    assert reveal == [
        {
            "hand": 0,
            "kind": "reveal",
            "seat": None,
            "cards": codes_in_order(revealed),
            "first_challenger": state.first_challenger,
        }
    ]


def codes_in_order(cards: list[int]) -> list[str]:
    return [DECK.codes[card] for card in cards]


def test_the_same_seed_and_actions_replay_the_reveal_and_the_reshuffles():
    first, second = make(), make()
    rng = random.Random(3)
    first.reset(seed=9)
    actions = []
    while not first.game.is_terminal(first.state):
        moves = [a for a in legal(first) if a != scarp.FOLD] or legal(first)
        actions.append(rng.choice(moves))
        first.step(actions[-1])
    second.reset(seed=9)
    for action in actions:
        second.step(action)
    assert second.history() == first.history()
    assert second.game.state_to_json(second.state) == first.game.state_to_json(first.state)


def test_enemy_challenge_suit_allows_only_the_enemy():
    env = laid_out(make(challenge_suit="enemy"), 0, ["L8 D5 S2 H3", "S1"])
    challenges = [a for a in legal(env) if scarp.FIRST_CHALLENGE <= a < scarp.FIRST_PICK]
    assert challenges == sorted([challenge("L8", 0), challenge("D5", 1), challenge("S2", 0), challenge("H3", 1)])
    env = laid_out(make(), 0, ["L8 D5 S2 H3", "S1"])
    assert len([a for a in legal(env) if scarp.FIRST_CHALLENGE <= a < scarp.FIRST_PICK]) == 8


def test_max_turns_ends_the_game_on_hand_sizes():
    env = laid_out(make(max_turns=1), 0, ["L8 D2 D3", "S1"])
    play(env, challenge("L8", 0), scarp.DECLINE)
    assert env.state.reason == "turn_limit" and env.state.returns == [1.0, -1.0]


@pytest.mark.parametrize("max_turns", [1, 3, 10])
def test_every_episode_ends_within_max_turns_and_max_decisions(max_turns):
    env = make(max_turns=max_turns)
    for seed in range(15):
        env.reset(seed=seed)
        decisions = random_no_fold(env, random.Random(seed))
        assert env.game.is_terminal(env.state) and env.state.turn <= max_turns
        assert decisions <= env.game.max_decisions()


def test_a_colour_win_ends_the_game():
    white = "L1 L2 L3 L4 L5 L6 D1 D2 D3"
    env = laid_out(make(), 0, [f"{white} SUN S9", "H5 H6"], deck="D9")
    play(env, challenge("S9", 0), scarp.DECLINE)  # seat 0 draws D9: ten white numbered cards and Sun
    assert env.state.reason == "colour_win" and env.state.returns == [1.0, -1.0]


def test_bad_config_and_illegal_actions_are_errors():
    with pytest.raises(ConfigError, match="challenge_suit"):
        make(challenge_suit="opposite")
    with pytest.raises(ConfigError, match="max_turns"):
        make(max_turns=0)
    with pytest.raises(ConfigError, match="num_players"):
        make(num_players=3)
    env = laid_out(make(), 0, ["L8", "S1"])
    with pytest.raises(IllegalActionError, match="illegal action"):
        env.step(scarp.DONE)


def test_an_actions_label_is_the_same_at_every_decision_point():
    def same_labels(env, _rng):
        for action in env.game.legal_actions(env.state):
            assert env.game.action_label(env.state, action) == scarp.decode(env.state, action)[0]

    env, rng = make(), random.Random(5)
    for seed in range(40):
        env.reset(seed=seed)
        random_no_fold(env, rng, visit=same_labels)
