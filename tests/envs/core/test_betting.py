"""The betting engine against the rulebooks' betting examples (Tilt, Dividha, Antipoker) and its own rules."""

from __future__ import annotations

import json
import re

import pytest
from cardarena.envs.core.betting import (
    CALL,
    CHECK,
    FOLD,
    RAISE_ALL_IN,
    RAISE_HALF_POT,
    RAISE_MIN,
    RAISE_POT,
    BettingRound,
    BettingRules,
    raise_options,
)
from cardarena.envs.core.errors import IllegalActionError, StateError

# The games' configurations, as their rulebooks set them (defaults).
TILT_SMALL = BettingRules(unit=1, max_bets=4)  # 6.1: small_bet 1, 1 bet + 3 raises; 6.3: no incomplete raises
DIVIDHA_FIXED = BettingRules(unit=2, max_bets=4, short_all_in_raise=True)  # 6.3, R27


def antes(stacks: list[int], ante: int) -> tuple[list[int], int]:
    """Stacks after every seat antes (all-in for less if short), and the pot."""
    paid = [min(ante, stack) for stack in stacks]
    return [stack - chips for stack, chips in zip(stacks, paid, strict=True)], sum(paid)


def play(bets: BettingRound, rules: BettingRules, actions: list[tuple[int, str]]) -> None:
    """Play (seat, action) pairs, checking that each seat is the one to act."""
    for seat, action in actions:
        assert bets.seat_to_act == seat
        bets.act(rules, action)


# ---------------------------------------------------------------- Tilt


def test_tilt_e47_a_full_betting_round_1():
    stacks, pot = antes([100] * 4, 1)
    bets = BettingRound.open(TILT_SMALL, stacks, [False] * 4, first=1, pot=pot)
    assert pot == 4 and bets.seat_to_act == 1 and bets.options(TILT_SMALL) == [CHECK, RAISE_MIN]  # {1, 2}: no FOLD
    play(bets, TILT_SMALL, [(1, CHECK), (2, RAISE_MIN), (3, RAISE_MIN), (0, RAISE_MIN), (1, RAISE_MIN)])
    assert bets.bets == 4 and bets.contributions == [3, 4, 1, 2]
    assert bets.seat_to_act == 2 and bets.options(TILT_SMALL) == [FOLD, CALL]  # {0, 1}: the cap is reached
    play(bets, TILT_SMALL, [(2, CALL), (3, FOLD), (0, CALL)])
    assert bets.finished
    assert [1 + paid for paid in bets.contributions] == [5, 5, 5, 3] and bets.pot == 18
    assert bets.live == [0, 1, 2] and bets.last_bettor == 1


def _e47_end() -> BettingRound:
    stacks, pot = antes([100] * 4, 1)
    bets = BettingRound.open(TILT_SMALL, stacks, [False] * 4, first=1, pot=pot)
    play(bets, TILT_SMALL, [(1, CHECK), (2, RAISE_MIN), (3, RAISE_MIN), (0, RAISE_MIN), (1, RAISE_MIN)])
    play(bets, TILT_SMALL, [(2, CALL), (3, FOLD), (0, CALL)])
    return bets


def paycheck(pot: int, live: int, big_bet: int = 2) -> BettingRules:
    """Tilt 6.4: one bet of min(big_bet, pot // live), no raise, no FOLD."""
    return BettingRules(unit=min(big_bet, pot // live), max_bets=1, fold="never")


def test_tilt_e49_paycheck_after_e47():
    before = _e47_end()
    rules = paycheck(before.pot, len(before.live))
    assert rules.unit == 2
    bets = BettingRound.open(rules, before.stacks, before.folded, first=1, pot=before.pot)
    assert bets.to_act == [1, 2, 0] and bets.options(rules) == [CHECK, RAISE_MIN]
    play(bets, rules, [(1, RAISE_MIN)])
    for seat in (2, 0):
        assert bets.options(rules) == [CALL]
        play(bets, rules, [(seat, CALL)])
    assert bets.finished and bets.pot == 18 + 3 * 2 <= 2 * 18


def test_tilt_e49_paycheck_after_four_checks():
    stacks, pot = antes([100] * 4, 1)
    first = BettingRound.open(TILT_SMALL, stacks, [False] * 4, first=1, pot=pot)
    play(first, TILT_SMALL, [(1, CHECK), (2, CHECK), (3, CHECK), (0, CHECK)])
    assert first.finished
    rules = paycheck(first.pot, 4)
    assert rules.unit == 1
    bets = BettingRound.open(rules, first.stacks, first.folded, first=1, pot=first.pot)
    play(bets, rules, [(1, CHECK), (2, RAISE_MIN)])
    for seat in (3, 0, 1):
        assert bets.options(rules) == [CALL]  # exactly one legal action
        play(bets, rules, [(seat, CALL)])
    assert bets.finished and bets.pot == 8 == 2 * first.pot


def test_tilt_paycheck_with_a_unit_of_0_forbids_betting():
    rules = paycheck(pot=3, live=4)
    bets = BettingRound.open(rules, [50] * 4, [False] * 4, first=0, pot=3)
    assert rules.unit == 0 and bets.options(rules) == [CHECK]


def test_tilt_paycheck_call_all_in_for_less():
    rules = paycheck(pot=12, live=3)
    bets = BettingRound.open(rules, [10, 1, 10], [False] * 3, first=0, pot=12)
    play(bets, rules, [(0, RAISE_MIN)])
    assert bets.options(rules) == [CALL]
    play(bets, rules, [(1, CALL), (2, CALL)])
    assert bets.finished and bets.contributions == [2, 1, 2] and bets.stacks == [8, 0, 8]


def test_tilt_refuses_an_incomplete_raise_and_lets_the_short_stack_call_all_in():
    rules = BettingRules(unit=2, max_bets=4)  # a big_bet round
    bets = BettingRound.open(rules, [10, 3, 10], [False] * 3, first=0, pot=3)
    play(bets, rules, [(0, RAISE_MIN)])
    assert bets.options(rules) == [FOLD, CALL]  # s = 3 < to_call + unit = 4
    bets = BettingRound.open(rules, [10, 1, 10], [False] * 3, first=0, pot=3)
    play(bets, rules, [(0, RAISE_MIN), (1, CALL)])
    assert bets.stacks[1] == 0 and bets.contributions[1] == 1 and bets.to_act == [2]


def test_tilt_skips_a_round_when_fewer_than_two_seats_have_chips():
    bets = BettingRound.open(TILT_SMALL, [0, 5, 0], [False] * 3, first=0, pot=3)
    assert bets.finished and bets.to_act == []


def test_tilt_all_in_seats_are_passed_over_and_cannot_be_bet_into_alone():
    bets = BettingRound.open(TILT_SMALL, [0, 5, 5], [False] * 3, first=0, pot=3)
    assert bets.to_act == [1, 2]
    bets = BettingRound.open(TILT_SMALL, [0, 5, 5], [False, False, True], first=0, pot=3)
    assert bets.finished  # one seat with chips behind: nobody to bet against


# ---------------------------------------------------------------- Dividha


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (("fixed", 8, 2, 50, 2), [2, None, None, None]),
        (("fixed", 8, 2, 3, 2), [1, None, None, None]),
        (("fixed", 8, 2, 2, 2), [None, None, None, None]),
        (("pot", 12, 4, 100, 4), [4, 8, 16, None]),
        (("no", 12, 4, 30, 4), [4, 8, 16, 26]),
        (("no", 6, 0, 10, 4), [4, None, 6, 10]),
        (("no", 40, 10, 30, 10), [10, 20, None, None]),
    ],
    ids=[f"dividha-E45-line{line}" for line in range(1, 8)],
)
def test_dividha_e45_raise_options(args, expected):
    assert raise_options(*args) == expected


def test_raise_options_with_an_unlimited_bankroll_are_never_capped():
    assert raise_options("pot", 12, 4, None, 4) == [4, 8, 16, None]


@pytest.mark.parametrize(("args", "named"), [(("half", 0, 0, 1, 1), "limit"), (("no", 0, -1, 1, 1), "to_call")])
def test_raise_options_refuse_bad_input(args, named):
    with pytest.raises(ValueError, match=named):
        raise_options(*args)


def test_dividha_e52_three_betting_rounds():
    stacks, pot = antes([100] * 3, 2)
    round1 = BettingRound.open(DIVIDHA_FIXED, stacks, [False] * 3, first=1, pot=pot)
    play(round1, DIVIDHA_FIXED, [(1, RAISE_MIN), (2, CALL), (0, FOLD)])
    assert round1.finished and round1.contributions == [0, 2, 2]
    round2 = BettingRound.open(DIVIDHA_FIXED, round1.stacks, round1.folded, first=1, pot=round1.pot)
    assert round2.to_act == [1, 2]
    play(round2, DIVIDHA_FIXED, [(1, CHECK), (2, RAISE_MIN), (1, RAISE_MIN), (2, CALL)])
    assert round2.finished and round2.contributions == [0, 4, 4]
    round3 = BettingRound.open(DIVIDHA_FIXED, round2.stacks, round2.folded, first=1, pot=round2.pot)
    play(round3, DIVIDHA_FIXED, [(1, CHECK), (2, CHECK)])
    assert round3.finished and round3.pot == 2 + 8 + 8
    assert [100 - stack for stack in round3.stacks] == [2, 8, 8]


def test_dividha_short_all_in_raise_reopens_the_betting_r27():
    bets = BettingRound.open(DIVIDHA_FIXED, [10, 3, 10], [False] * 3, first=0, pot=6)
    play(bets, DIVIDHA_FIXED, [(0, RAISE_MIN)])
    assert bets.options(DIVIDHA_FIXED) == [FOLD, CALL, RAISE_MIN]  # raise all-in by 1 < min_raise 2
    play(bets, DIVIDHA_FIXED, [(1, RAISE_MIN)])
    assert bets.stacks[1] == 0 and bets.current_bet == 3 and bets.bets == 2
    assert bets.to_act == [2, 0]  # seat 0, which had acted, must act again and may raise
    play(bets, DIVIDHA_FIXED, [(2, CALL)])
    assert bets.options(DIVIDHA_FIXED) == [FOLD, CALL, RAISE_MIN]


def test_dividha_no_limit_raise_options_and_min_raise():
    rules = BettingRules(unit=4, limit="no", short_all_in_raise=True)
    bets = BettingRound.open(rules, [100, 30, 100], [False] * 3, first=0, pot=12)
    assert bets.options(rules) == [CHECK, RAISE_MIN, RAISE_HALF_POT, RAISE_POT, RAISE_ALL_IN]
    play(bets, rules, [(0, RAISE_POT)])  # 12 into a pot of 12
    assert bets.current_bet == 12 and bets.min_raise == 12 and bets.pot == 24
    assert raise_options("no", 24, 12, 30, 12) == [12, 18, None, None]  # POT and ALL_IN capped at 18 = HALF_POT
    assert bets.options(rules) == [FOLD, CALL, RAISE_MIN, RAISE_HALF_POT]
    play(bets, rules, [(1, RAISE_HALF_POT)])
    assert bets.stacks[1] == 0 and bets.current_bet == 30 and bets.min_raise == 18


def test_dividha_raise_needs_another_seat_that_can_bet():
    bets = BettingRound.open(DIVIDHA_FIXED, [10, 2, 10], [False, False, True], first=0, pot=6)
    play(bets, DIVIDHA_FIXED, [(0, RAISE_MIN), (1, CALL)])
    assert bets.finished and bets.stacks[1] == 0
    bets = BettingRound.open(DIVIDHA_FIXED, [10, 2, 2], [False] * 3, first=1, pot=6)
    play(bets, DIVIDHA_FIXED, [(1, RAISE_MIN), (2, CALL)])  # both all-in
    assert bets.options(DIVIDHA_FIXED) == [FOLD, CALL]


def test_dividha_pot_and_no_limit_have_no_cap():
    rules = BettingRules(unit=2, limit="pot", short_all_in_raise=True)
    bets = BettingRound.open(rules, [10_000, 10_000], [False] * 2, first=0, pot=4)
    for _ in range(6):
        bets.act(rules, RAISE_MIN)
    assert bets.bets == 6 and RAISE_MIN in bets.options(rules)


# ---------------------------------------------------------------- Antipoker

ANTIPOKER = BettingRules(unit=2, max_bets=4, bankroll="unlimited")  # 4.2, 6, R16, R19


def run_betting(num_players: int, actions: list[str], dealer: int | None = None, ante: int = 1) -> dict:
    """Antipoker's round (4.2) on the engine: "call" checks or calls, "raise" bets or raises."""
    dealer = num_players - 1 if dealer is None else dealer
    bets = BettingRound.open(
        ANTIPOKER, [0] * num_players, [False] * num_players, (dealer + 1) % num_players, ante * num_players
    )
    for action in actions:
        assert not bets.finished
        options = bets.options(ANTIPOKER)
        bets.act(ANTIPOKER, {"call": CALL if CALL in options else CHECK, "raise": RAISE_MIN, "fold": FOLD}[action])
    assert bets.finished
    contributed = [ante + paid for paid in bets.contributions]
    assert [-stack for stack in bets.stacks] == bets.contributions  # the unlimited bankroll runs a balance
    return {
        "contributed": contributed,
        "folded": [seat for seat, out in enumerate(bets.folded) if out],
        "pot": bets.pot,
    }


ANTIPOKER_EXAMPLES = {
    "E34": ({"num_players": 2, "actions": ["call", "call"]}, {"contributed": [1, 1], "folded": [], "pot": 2}),
    "E35": ({"num_players": 2, "actions": ["raise", "call"]}, {"contributed": [3, 3], "folded": [], "pot": 6}),
    "E36": ({"num_players": 2, "actions": ["raise", "fold"]}, {"contributed": [3, 1], "folded": [1], "pot": 4}),
    "E37": ({"num_players": 2, "actions": ["call", "raise", "call"]}, {"contributed": [3, 3], "folded": [], "pot": 6}),
    "E38": (
        {"num_players": 2, "actions": ["raise", "raise", "raise", "raise", "call"]},
        {"contributed": [9, 9], "folded": [], "pot": 18},
    ),
    "E39": (
        {"num_players": 3, "actions": ["raise", "raise", "fold", "call"]},
        {"contributed": [5, 5, 1], "folded": [2], "pot": 11},
    ),
    "E40": (
        {"num_players": 3, "actions": ["call", "raise", "call", "call"], "dealer": 0},
        {"contributed": [3, 3, 3], "folded": [], "pot": 9},
    ),
    "E41": (
        {"num_players": 4, "actions": ["raise", "fold", "fold", "fold"]},
        {"contributed": [3, 1, 1, 1], "folded": [1, 2, 3], "pot": 6},
    ),
    "E42": (
        {"num_players": 3, "actions": ["call", "call", "raise", "raise", "call", "fold"]},
        {"contributed": [5, 5, 3], "folded": [2], "pot": 13},
    ),
}


@pytest.mark.parametrize("example", sorted(ANTIPOKER_EXAMPLES), ids=lambda e: f"antipoker-{e}")
def test_antipoker_betting_examples(example):
    args, expected = ANTIPOKER_EXAMPLES[example]
    assert run_betting(**args) == expected


def test_antipoker_e38_a_fifth_raise_is_illegal():
    bets = BettingRound.open(ANTIPOKER, [0, 0], [False, False], first=0, pot=2)
    for _ in range(4):
        bets.act(ANTIPOKER, RAISE_MIN)
    assert bets.options(ANTIPOKER) == [FOLD, CALL]
    with pytest.raises(IllegalActionError, match="raise_min"):
        bets.act(ANTIPOKER, RAISE_MIN)


def test_antipoker_fold_only_facing_a_bet_r19():
    bets = BettingRound.open(ANTIPOKER, [0, 0, 0], [False] * 3, first=0, pot=3)
    assert bets.options(ANTIPOKER) == [CHECK, RAISE_MIN]
    with pytest.raises(IllegalActionError, match="fold"):
        bets.act(ANTIPOKER, FOLD)


# ---------------------------------------------------------------- Piktas's own rule (piktas.md 6.3)

PIKTAS = BettingRules(unit=10, max_bets=3, bankroll="covered", fold="always")


def test_covered_raise_needs_every_live_seat_to_match_it():
    bets = BettingRound.open(PIKTAS, [15, 80, 90], [False] * 3, first=1, pot=30)
    assert bets.options(PIKTAS) == [FOLD, CHECK, RAISE_MIN]
    play(bets, PIKTAS, [(1, RAISE_MIN)])
    assert bets.options(PIKTAS) == [FOLD, CALL]  # seat 0 could not match 20 (needs 20, has 15)
    play(bets, PIKTAS, [(2, CALL)])
    assert bets.options(PIKTAS) == [FOLD, CALL]
    play(bets, PIKTAS, [(0, FOLD)])
    assert bets.finished and bets.contributions == [0, 10, 10]


def test_covered_folded_seats_do_not_limit_raises():
    bets = BettingRound.open(PIKTAS, [0, 80, 90], [True, False, False], first=1, pot=30)
    assert bets.to_act == [1, 2] and bets.options(PIKTAS) == [FOLD, CHECK, RAISE_MIN]


def test_covered_seat_with_no_chips_still_acts_and_blocks_raises():
    bets = BettingRound.open(PIKTAS, [0, 50, 50], [False] * 3, first=0, pot=30)
    assert bets.to_act == [0, 1, 2] and bets.options(PIKTAS) == [FOLD, CHECK]


def test_covered_cap_counts_every_bet_and_raise():
    bets = BettingRound.open(PIKTAS, [100] * 2, [False] * 2, first=0, pot=20)
    for _ in range(3):
        bets.act(PIKTAS, RAISE_MIN)
    assert bets.current_bet == 30 and bets.options(PIKTAS) == [FOLD, CALL]


# ---------------------------------------------------------------- the round's state and errors


def test_round_state_is_json_and_clones_independently():
    bets = _e47_end()
    copy = BettingRound.from_json(json.loads(json.dumps(bets.to_json())))
    assert copy == bets
    clone = bets.clone()
    clone.history[-1].append(1)
    clone.stacks[0] -= 1
    assert bets.history[-1] == [0, CALL] and bets.stacks[0] == 95


def test_from_json_names_a_missing_field():
    data = _e47_end().to_json()
    del data["min_raise"]
    with pytest.raises(ValueError, match="min_raise"):
        BettingRound.from_json(data)


def test_options_refuse_states_the_engine_cannot_reach():
    bets = BettingRound.open(PIKTAS, [90] * 3, [False] * 3, first=0, pot=30)
    play(bets, PIKTAS, [(0, RAISE_MIN)])
    bets.to_act = [0]
    with pytest.raises(ValueError, match="already matched"):
        bets.options(PIKTAS)
    bets.to_act, bets.folded[1] = [1], True
    with pytest.raises(ValueError, match="folded"):
        bets.options(PIKTAS)
    bets.to_act = []
    with pytest.raises(ValueError, match="over"):
        bets.options(PIKTAS)


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"unit": -1}, "unit"),
        ({"unit": 1, "max_bets": -1}, "max_bets"),
        ({"unit": 1, "limit": "spread"}, "limit"),
        ({"unit": 1, "bankroll": "credit"}, "bankroll"),
        ({"unit": 1, "fold": "sometimes"}, "fold"),
        ({"unit": 1, "max_bets": 4, "limit": "no", "bankroll": "unlimited"}, "unlimited"),
        ({"unit": 1, "bankroll": "unlimited"}, "max_bets"),
    ],
)
def test_bad_rules_name_the_setting(fields, named):
    with pytest.raises(ValueError, match=named):
        BettingRules(**fields)


def _round_check_rules() -> BettingRules:
    return BettingRules(unit=2, max_bets=3)


def test_a_played_round_passes_its_check() -> None:
    rules = _round_check_rules()
    bets = BettingRound.open(rules, [10, 10, 10], [False] * 3, 0, 3)
    bets.act(rules, "raise_min")
    bets.act(rules, "call")
    bets.check("bets", 3, rules, 33)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda bets: bets.folded.pop(), "bets.folded"),
        (lambda bets: bets.stacks.__setitem__(0, -1), "bets.stacks[0]"),
        (lambda bets: setattr(bets, "bets", 4), "bets.bets"),
        (lambda bets: bets.to_act.append(7), "bets.to_act[2]"),
        (lambda bets: bets.to_act.append(1), "bets.to_act"),
        (lambda bets: setattr(bets, "current_bet", 5), "bets.current_bet"),
        (lambda bets: bets.history.append([0, "shout"]), "bets.history[1][1]"),
    ],
)
def test_the_round_check_names_what_no_play_reaches(change, field: str) -> None:
    rules = _round_check_rules()
    bets = BettingRound.open(rules, [10, 10, 10], [False] * 3, 0, 3)
    bets.act(rules, "check")
    change(bets)
    with pytest.raises(StateError, match=re.escape(f"'{field}'")):
        bets.check("bets", 3, rules, 33)
