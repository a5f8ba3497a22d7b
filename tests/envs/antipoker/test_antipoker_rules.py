"""The Checkable API (rules.py): every worked example, independent cases, bad input, settlement."""

from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest
from cardarena.envs.antipoker import rules
from cardarena.envs.core.decks.scarp import DECK

EXAMPLES = json.loads((Path(__file__).parent / "antipoker_examples.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("example", EXAMPLES, ids=[example["id"] for example in EXAMPLES])
def test_worked_example(example):
    assert getattr(rules, example["fn"])(**example["args"]) == example["expect"]


def test_every_worked_example_is_a_case():
    assert [example["id"][:3].rstrip("abcde") for example in EXAMPLES if example["id"][:3] != "E8"][-1] == "E42"
    assert len({example["id"] for example in EXAMPLES}) == len(EXAMPLES) == 46


# ---------------------------------------------------------------- hand values beyond the examples


@pytest.mark.parametrize(
    ("hand", "parts"),
    [
        ([], (0, 0, 0, 0)),  # an empty hand is worth nothing
        (["GHOST"], (0, 0, 0, 0)),
        (["SUN", "STONE", "KNIFE"], (0, 0, 0, 900)),  # an Essence triple alone
        (["GHOST", "SUN", "STONE", "KNIFE"], (0, 0, 0, 3600)),
        (["D10", "D9", "D8", "D7", "D6", "KNIFE"], (80, 4 * 80, 6 * 80, 0)),  # Force of six, Element of six
        (["H10", "H9", "H8", "S7", "L1", "GHOST"], (2 * 35, 0, 3 * 54, 0)),  # the Ghost is no colour: four black
        (["L4", "S4", "D4", "H4", "ROSE", "GHOST"], (2 * 4 * 3 + 4 * 4, 0, 0, (8 + 8 + 8 + 16) ** 3)),
        (["L3", "S3", "D3", "H3", "L6", "S6"], (24, 0, 0, 12**3)),  # a quad, and two sixes no set
    ],
)
def test_hand_values_of_independent_hands(hand, parts):
    breakdown = rules.value_breakdown(hand)
    assert tuple(breakdown[name] for name in rules.PARTS) == parts
    assert breakdown["total"] == sum(parts) == rules.hand_value(hand)


def test_the_essence_doubles_only_its_own_suit_and_the_ghost_doubles_after_it():
    hand = ["SUN", "GHOST", "L7", "S7", "D2", "H5"]
    assert [rules.effective_value(card, hand) for card in hand] == [0, 0, 28, 14, 4, 10]


def test_order_does_not_matter_and_batches_agree_with_single_hands():
    rng = random.Random(3)
    hands = [rng.sample(DECK.codes, rng.randint(0, 6)) for _ in range(300)]
    rows = np.array([rules.hand_row(DECK.indices_of(hand)) for hand in hands])
    batch = rules.hand_values(rows)
    for hand, value in zip(hands, batch, strict=True):
        assert rules.hand_value(hand) == value == rules.hand_value(list(reversed(hand)))


def test_every_card_counts_in_every_part_it_qualifies_for():
    # L1..L5 + SUN: cards 30, Force of six 120, Element of six 180
    assert rules.value_breakdown(["L1", "L2", "L3", "L4", "L5", "SUN"]) == {
        "cards": 30,
        "force": 120,
        "elements": 180,
        "sets": 0,
        "total": 330,
    }


def test_showdown_ties_share_and_folded_seats_take_no_part():
    assert rules.showdown([None, ["L1"], ["S1"], None]) == [1, 2]
    assert rules.showdown([["L2"], None, ["S1"]]) == [0]


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rules.hand_value(["L11"]), "unknown card code 'L11'"),
        (lambda: rules.hand_value(["L1", "L1"]), "twice"),
        (lambda: rules.value_breakdown(["L1", "L2", "L3", "L4", "L5", "L6", "L7"]), "at most 6 cards"),
        (lambda: rules.effective_value("L9", ["L1"]), "not in the hand"),
        (lambda: rules.effective_value("X", ["L1"]), "unknown card code"),
        (lambda: rules.showdown([None, None]), "at least one hand"),
        (lambda: rules.showdown([]), "at least one hand"),
        (lambda: rules.showdown([["L1"], ["L1", "S2"]]), "two hands"),
        (lambda: rules.run_betting(1, ["call"]), "num_players=1"),
        (lambda: rules.run_betting(7, ["call"]), "num_players=7"),
        (lambda: rules.run_betting(2, ["call", "call"], dealer=2), "dealer=2"),
        (lambda: rules.run_betting(2, ["call", "call"], ante=0), "ante=0"),
        (lambda: rules.run_betting(2, ["call", "call"], bet_size=0), "bet_size=0"),
        (lambda: rules.run_betting(2, ["call", "call"], bet_cap=0), "bet_cap=0"),
        (lambda: rules.run_betting(2, ["check", "call"]), "'check' is not one of"),
        (lambda: rules.run_betting(2, ["fold", "call"]), "'fold' is not legal"),
        (lambda: rules.run_betting(2, ["raise"] * 5 + ["call"]), "'raise' is not legal"),
        (lambda: rules.run_betting(2, ["call", "call", "call"]), "after the betting round has closed"),
        (lambda: rules.run_betting(2, ["raise"]), "end before the betting round closes"),
    ],
)
def test_bad_input_raises_value_error_naming_the_problem(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ---------------------------------------------------------------- betting and settlement


def test_run_betting_with_other_sizes_and_cap():
    result = rules.run_betting(3, ["raise", "raise", "call", "call"], ante=2, bet_size=5, bet_cap=2)
    assert result == {"contributed": [12, 12, 12], "folded": [], "pot": 36}
    with pytest.raises(ValueError, match="'raise' is not legal"):
        rules.run_betting(2, ["raise", "raise", "raise"], bet_cap=2)


@pytest.mark.parametrize(
    ("contributed", "folded", "values", "expected"),
    [
        ([5, 5, 1], [False, False, True], [21, 21, None], [5.5, 5.5, 0.0]),  # E39's tie
        ([3, 3, 3], [False] * 3, [7, 7, 7], [3.0, 3.0, 3.0]),
        ([1, 1, 1], [False] * 3, [9, 9, 2], [1.5, 1.5, 0.0]),
        ([3, 1, 1, 1], [False, True, True, True], [None] * 4, [6.0, 0.0, 0.0, 0.0]),  # E41: no showdown
        ([3, 3], [False, False], [235, 23], [6.0, 0.0]),  # E35: the better hand nets +3
    ],
)
def test_payouts_split_a_tied_pot_exactly(contributed, folded, values, expected):
    payout = rules.payouts(contributed, folded, values, dealer=len(contributed) - 1)
    assert payout == expected and sum(payout) == sum(contributed)


def test_a_three_way_split_is_fractional():
    payout = rules.payouts([1, 1, 1, 1, 1, 1, 1], [False] * 7, [5, 5, 5, 1, 1, 1, 1], dealer=6)
    assert payout[:3] == [7 / 3] * 3 and payout[3:] == [0.0] * 4


def test_every_sequence_of_legal_words_closes_within_the_cap():
    for n, dealer in itertools.product(range(2, 7), range(6)):
        if dealer >= n:
            continue
        rng = random.Random(n * 10 + dealer)
        rule = rules.betting_rules(2, 4)
        bets = rules.open_betting(rule, n, dealer, n)
        while not bets.finished:
            bets_before = bets.bets
            rules.bet(bets, rule, rng.choice(rules.legal_words(bets, rule)))
            assert bets.bets <= 4 and bets.bets - bets_before in (0, 1)
        live = [seat for seat in range(n) if not bets.folded[seat]]
        assert len(live) == 1 or len({bets.contributions[seat] for seat in live}) == 1
