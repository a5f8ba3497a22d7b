"""Tilt rules (cardarena.envs.tilt.rules): the rulebook's worked examples, bad input, the code
tables, and the fast evaluator held to the brute force over every wild assignment (tilt_reference.py).
"""

from __future__ import annotations

import itertools
import json
import re

import pytest
from cardarena.envs.tilt import evaluator, rules
from examples_support import rulebook
from tilt_examples import BLOCKS, cases

RULEBOOK = rulebook("tilt")


# ---------------------------------------------------------------- worked examples


@pytest.mark.parametrize(("name", "case"), cases(), ids=[f"{name}-{i}" for i, (name, _) in enumerate(cases())])
def test_worked_example(name, case):
    got = getattr(rules, case["fn"])(**case["args"])
    assert (list(got) if isinstance(got, tuple) else got) == case["expect"]


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the shared rulebook is not next to this checkout")
def test_examples_match_the_rulebook_verbatim():
    text = RULEBOOK.read_text(encoding="utf-8")
    examples = text.split("## 11. Worked examples", 1)[1].split("## 12.", 1)[0]
    blocks = re.findall(r"```json\n(.*?)```", examples, flags=re.S)
    assert list(BLOCKS.values()) == blocks


def test_every_api_function_has_a_worked_example():
    assert {case["fn"] for _, case in cases()} == {"evaluate", "category", "compare", "winners", "best_key", "settle"}
    assert all(json.loads(block) for block in BLOCKS.values())


# ---------------------------------------------------------------- code tables (section 2)


def test_voyage_deck_order_and_attributes():
    assert len(rules.CARD_CODES) == 36
    assert rules.CARD_CODES[:8] == ("C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8")
    assert rules.CARD_CODES[24] == "H1" and rules.CARD_CODES[32:] == ("K9", "K10", "K11", "K12")
    assert [rules.card_rank(card) for card in (0, 7, 15, 31, 32, 35)] == [1, 8, 8, 8, 9, 12]
    assert [rules.printed_suit(card) for card in (0, 8, 16, 24, 33)] == [
        rules.CREW,
        rules.PLANETS,
        rules.STARS,
        rules.SHIPS,
        None,
    ]
    assert rules.CARDS.index_of("S4") == 19 and rules.CARDS.index_of("K10") == 33


def test_void_deck_order():
    assert len(rules.VOID_CODES) == len(rules.VOID_NAMES) == 23
    assert rules.VOID_CODES[0] == "FINE" and rules.VOID_CODES[6] == "BINY" and rules.VOID_CODES[22] == "ENGB"
    assert rules.void_index("TAXS") == 18


def test_hazards_without_an_evaluation_effect_are_ignored():
    plain = rules.evaluate(["C5", "P5", "S8", "H2"])
    for code in (
        "FINE",
        "LEAK",
        "DIST",
        "ARMR",
        "GALY",
        "HAUL",
        "CHKN",
        "PAYC",
        "TRIK",
        "TAXS",
        "VOTE",
        "SABO",
        "SHAR",
    ):
        assert rules.evaluate(["C5", "P5", "S8", "H2"], [code]) == plain


# ---------------------------------------------------------------- bad input (section 12)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: rules.evaluate(["C9"]), "unknown card code 'C9'"),
        (lambda: rules.evaluate(["C1"], ["WARP"]), "unknown Void code 'WARP'"),
        (lambda: rules.evaluate(["C1", "C1"]), "card listed twice"),
        (lambda: rules.evaluate(["C1", "C2", "C3", "C4", "C5"]), "at most 4 cards"),
        (lambda: rules.evaluate(["C1", "C2", "C3", "C4"], ["ENGB"]), "at most 3 cards"),
        (lambda: rules.evaluate(["C1"], ["STSH", "ENGB"]), "STSH and ENGB"),
        (lambda: rules.category(["X1"]), "unknown card code"),
        (lambda: rules.compare(["C1"], ["C1", "C1"]), "card listed twice"),
        (lambda: rules.winners([]), "at least one hand"),
        (lambda: rules.best_key(["C1", "C2"], shared=["C2"]), "appears twice"),
        (lambda: rules.best_key(["C1"], ["HAUL"], grid=["C2", "C3"]), "grid has 9 cards"),
        (lambda: rules.best_key(["C1", "C2", "C3", "C4"], ["TAXS"]), "no Tariffs"),
        (lambda: rules.settle([1, 1], [False], [["C1"], ["C2"]]), "disagree"),
        (lambda: rules.settle([1, 1], [False, False], [["C1"], ["C2"]], carry=[0]), "disagree"),
        (lambda: rules.settle([1, -1], [False, False], [["C1"], ["C2"]]), "cannot be negative"),
        (lambda: rules.settle([1, 1], [False, False], [["C1"], ["C2"]], carry=[0, -2]), "cannot be negative"),
        (lambda: rules.settle([1, 1], [False, False], [["C1"], ["C2"]], dealer=2), "not a seat"),
        (lambda: rules.settle([1, 1], [True, True], [None, None]), "at least one live"),
        (lambda: rules.settle([1, 1], [False, False], [["C1"], None]), "no hand"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_problem(call, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        call()


def test_hazards_must_be_a_list():
    with pytest.raises(ValueError, match="list of Void codes"):
        rules.evaluate(["C1"], "BINY")


# ---------------------------------------------------------------- settlement beyond the examples


def test_fine_print_equal_to_the_best_hand_does_not_stop_the_pot():
    """Only a strictly better Fine Print hand keeps a pot unpaid (suits never break ties)."""
    hands = [["C5", "P5", "S8", "H2"], ["C1", "P3", "S4", "H6"]]
    done = rules.settle([5, 5], [False, False], hands, ["FINE"], 1, dummy=["S5", "H5", "P8", "C2"])
    assert done == {"payouts": [10, 0], "unawarded": [0, 0]}


def test_gravity_leaves_the_contested_pot_unpaid_and_pays_the_uncontested_side_pot():
    hands = [["C5", "C6", "C7", "C8"], ["P1", "P2", "P3", "P4"], ["K9", "K10", "K11", "K12"]]
    done = rules.settle([9, 3, 3], [False, False, False], hands, ["GRAV"], 0)
    assert done == {"payouts": [6, 0, 0], "unawarded": [3, 3, 3]}


def test_fine_print_is_checked_pot_by_pot():
    """Seat 0, all-in for 2, holds Four of a Kind: it takes pot 1; the Fine Print pair of 7s beats
    the best hand of pot 2 (seats 1 and 2, High Cards), which stays unpaid."""
    hands = [["C3", "P3", "S3", "H3"], ["C4", "P6", "S1", "H8"], ["C1", "P4", "S6", "H2"]]
    done = rules.settle([2, 6, 6], [False, False, False], hands, ["FINE"], 0, dummy=["C7", "P7", "S2", "H1"])
    assert done == {"payouts": [6, 0, 0], "unawarded": [0, 4, 4]}
    done = rules.settle([2, 6, 6], [False, False, False], hands, ["FINE"], 0, dummy=["C5", "P8", "S2", "H1"])
    assert done == {"payouts": [6, 8, 0], "unawarded": [0, 0, 0]}


def test_settle_keys_reports_a_pot_left_unpaid_for_lack_of_an_orbit():
    flags = rules.hazard_flags(["GRAV"])
    keys = [
        rules.evaluate_ids(rules.CARDS.indices_of(hand), flags)
        for hand in (["C5", "C6", "C7", "C8"], ["S1", "S2", "S3", "S4"])
    ]
    done = rules.settle_keys([4, 4], [False, False], keys, flags, 0, carry=[2, 2])
    assert (done.payouts, done.unawarded, done.winners, done.orbitless) == ([0, 0], [6, 6], [[]], True)
    fine = rules.settle_keys([4, 4], [False, False], keys, 0, 0, dummy_key=(9, 9))
    assert (fine.unawarded, fine.orbitless) == ([4, 4], False)


# ---------------------------------------------------------------- index-level twins


def test_index_level_twins_agree_with_the_api():
    hazards = ["BINY", "GRAV", "HAUL"]
    flags = rules.hazard_flags_ids([rules.void_index(code) for code in hazards])
    assert flags == rules.hazard_flags(hazards) == rules.BINY | rules.GRAV
    hand = ["C2", "S5", "P5", "K12"]
    key = rules.evaluate_ids(rules.CARDS.indices_of(hand), flags)
    assert key == rules.evaluate(hand, hazards) and rules.category_of(key, flags) == rules.category(hand, hazards)
    grid = ["C4", "P2", "S8", "H6", "P4", "C3", "P7", "S2", "H4"]
    assert rules.best_key_ids([19], flags, grid=rules.CARDS.indices_of(grid)) == rules.best_key(
        ["S4"], hazards, grid=grid
    )
    assert rules.winners_of_keys([key, key], flags) == [0, 1]
    assert rules.table_size(rules.hazard_flags(["STSH"])) == 6 and rules.table_size(rules.hazard_flags(["ENGB"])) == 3


NATURAL_HAZARDS = (rules.TRST, rules.TEAM, rules.MUTI, rules.GRAV)  # the evaluation Hazards that make no card wild


ALL_NATURAL = (1 << len(NATURAL_HAZARDS)) - 1


@pytest.mark.parametrize(
    ("size", "table_flag", "chosen"),
    [(3, rules.ENGB, chosen) for chosen in range(ALL_NATURAL + 1)]
    + [(4, 0, 0), (4, 0, 1), (4, 0, ALL_NATURAL)]  # 1: TRST alone
    + [pytest.param(4, 0, chosen, marks=pytest.mark.slow) for chosen in range(2, ALL_NATURAL)],
)
def test_counted_ranks_agree_with_sorted_ranks_on_every_hand(size, table_flag, chosen):
    """Without wild cards a three- or four-card hand's categories are found by counting its ranks
    (evaluate_ids; once a set of Hazards is met often, from a table built that way), elsewhere by
    sorting them (natural_key): the two agree on every hand of the deck under every set of the
    Hazards that make no card wild (`chosen`: bits of NATURAL_HAZARDS)."""
    flags = table_flag | sum(flag for bit, flag in enumerate(NATURAL_HAZARDS) if chosen >> bit & 1)
    attributes = evaluator.ATTRIBUTES[flags & rules.TRST]
    for cards in itertools.combinations(range(rules.NUM_CARDS), size):
        held = any(card >= rules.FIRST_COMMAND for card in cards)
        assert rules.evaluate_ids(cards, flags) == evaluator.natural_key(
            [attributes[card] for card in cards], size, flags, 0, held
        ), cards


@pytest.mark.parametrize(
    ("hazards", "size"),
    [
        ([], 4),
        (["BINY"], 4),
        (["JUMP", "HULL"], 4),
        (["EXPD", "MUTI", "GRAV"], 4),
        (["TEAM", "TRST"], 4),
        (["BINY"], 3),
        (["ENGB", "JUMP", "TEAM"], 3),
    ],
)
def test_hand_tables_hold_the_computed_keys(hazards, size):
    """A table of three- or four-card hands (built for Hazards met often) gives a hand, at its
    combination index, the key `computed_key` computes; checked on a sample of hands."""
    flags = rules.hazard_flags(hazards)
    keys = evaluator.hand_keys(flags, size)
    hands = list(itertools.combinations(range(rules.NUM_CARDS), size))
    assert len(keys) == len(hands)
    for hand in hands[::37]:
        index = sum(evaluator.CHOOSE[place][card] for place, card in enumerate(hand, 1))
        assert keys[index] == evaluator.computed_key(hand, flags, rules.table_size(flags)), hand


def test_a_hand_table_is_built_once_its_hazards_are_met_often(monkeypatch):
    hazards = ["BINY", "EXPD", "GRAV", "TRST"]
    flags = rules.hazard_flags(hazards)
    monkeypatch.setattr(evaluator, "TABLE_AFTER", 3)
    monkeypatch.setattr(evaluator, "_TABLES", {})
    monkeypatch.setattr(evaluator, "_COMPUTED", evaluator.Counter())
    hand = rules.CARDS.indices_of(["C2", "S5", "K12", "H7"])
    keys = [rules.evaluate_ids(hand, flags) for _ in range(3)]
    assert not evaluator._TABLES  # three computed
    assert rules.evaluate_ids(hand, flags) == keys[0] == rules.evaluate(["C2", "S5", "K12", "H7"], hazards)
    assert list(evaluator._TABLES) == [flags << 3 | 4]  # the fourth looked up, in the four-card table only
    for _ in range(5):
        rules.evaluate_ids(rules.CARDS.indices_of(["C2", "S5", "P3", "H3", "K9", "K10"]), flags | rules.STSH)
    assert list(evaluator._TABLES) == [flags << 3 | 4]  # never a table at a six-card table


def test_tabled_key_reads_a_built_table_and_nothing_else(monkeypatch):
    """`tabled_key` (the game's way to a plain hand's key) is `evaluate_ids` read from a built
    table, and None where there is none: not built yet, or four cards under Engine Breach."""
    monkeypatch.setattr(evaluator, "_TABLES", {})
    monkeypatch.setattr(evaluator, "_COMPUTED", evaluator.Counter())
    flags = rules.hazard_flags(["BINY", "MUTI"])
    four, three = (
        sorted(rules.CARDS.indices_of(["C2", "S5", "K12", "H7"])),
        sorted(rules.CARDS.indices_of(["P2", "S6", "K11"])),
    )
    assert evaluator.tabled_key(four, flags) is None and evaluator.tabled_key(three, flags) is None
    evaluator.hand_keys(flags, 4)
    assert evaluator.tabled_key(four, flags) == evaluator.computed_key(four, flags, 4)
    assert evaluator.tabled_key(three, flags) is None  # the three-card table is still to build
    for hand in itertools.islice(itertools.combinations(range(rules.NUM_CARDS), 4), 0, None, 997):
        assert evaluator.tabled_key(list(hand), flags) == evaluator.computed_key(hand, flags, 4), hand
    breach = flags | rules.ENGB
    evaluator._TABLES[breach << 3 | 4] = evaluator.hand_keys(
        flags, 4
    )  # a four-card table cannot serve three-card hands
    assert evaluator.tabled_key(four, breach) is None


PAIR_OF_5S, STRAIGHT, HIGH_8631 = ["C5", "P5", "S8", "H2"], ["C1", "P2", "S3", "H4"], ["C8", "P6", "S3", "H1"]


@pytest.mark.parametrize(
    ("contributions", "folded", "hands", "payouts"),
    [
        # after the full first betting round (5, 5, 5 and a fold for 3): seat 1's Straight takes 18
        ([5, 5, 5, 3], [False, False, False, True], [PAIR_OF_5S, STRAIGHT, HIGH_8631, None], [0, 18, 0, 0]),
        # the Paycheck round after four checks: one bet of 1, three calls, pot 8 = 2 x 4; two equal hands split it
        (
            [2, 2, 2, 2],
            [False] * 4,
            [PAIR_OF_5S, HIGH_8631, ["S5", "H5", "P8", "C2"], ["C3", "P4", "S6", "H8"]],
            [4, 0, 4, 0],
        ),
    ],
    ids=["first-betting-round", "paycheck-round"],
)
def test_settling_the_pots_of_the_betting_flows(contributions, folded, hands, payouts):
    done = rules.settle(contributions, folded, hands, [], 0)
    assert done == {"payouts": payouts, "unawarded": [0] * len(payouts)}
