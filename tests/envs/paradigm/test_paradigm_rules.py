"""The Checkable API (rules.py): every worked example of the rulebook, independent cases, and bad
input raising ValueError."""

from __future__ import annotations

import pytest
from cardarena.envs.paradigm import rules
from cardarena.envs.paradigm.rules import apply_essence, error_starts, pile_product, placement_options, scores, winners

E5_TABLE = [["L3"], ["S2", "L5"], ["D4", "H9"], ["S6"]]
E12_TABLE = [["L2", "S5", "D8"], ["H3"], ["D1", "L4"]]
E17_TABLE = [["D2", "H6", "L9"], ["S4"]]

WORKED_EXAMPLES = [
    ("E1", pile_product, {"pile": ["L3"]}, 3),
    ("E2", pile_product, {"pile": ["S2", "L5", "D7"]}, 70),
    ("E3", pile_product, {"pile": ["H1", "S4"]}, 4),
    ("E4", pile_product, {"pile": ["S1", "H2", "L3", "D4", "S5", "H6", "L7", "D8", "S9", "H10"]}, 3628800),
    ("E5", scores, {"piles": E5_TABLE, "suits": ["L", "S", "D", "H"]}, [13, 6, 0, 36]),
    ("E6", scores, {"piles": E5_TABLE, "suits": ["S", "L"]}, [6, 13]),
    ("E7", placement_options, {"card": "L7", "piles": E5_TABLE}, ["HAND", "NEW_PILE", "L3", "L5", "S6"]),
    ("E8", placement_options, {"card": "L7", "piles": E5_TABLE, "from_hand": True}, ["NEW_PILE", "L3", "L5", "S6"]),
    ("E9", placement_options, {"card": "S5", "piles": [["L5"]]}, ["HAND", "NEW_PILE"]),
    ("E10", placement_options, {"card": "D3", "piles": [["S2", "L5"], ["H1"]]}, ["HAND", "NEW_PILE", "H1"]),
    ("E11", placement_options, {"card": "D1", "piles": E5_TABLE}, ["HAND", "NEW_PILE"]),
    ("E12", apply_essence, {"piles": E12_TABLE, "essence": "SUN"}, [["L2", "D8"], ["D1", "L4"]]),
    ("E13", apply_essence, {"piles": E12_TABLE, "essence": "ROSE"}, [["S5"], ["H3"]]),
    ("E14", scores, {"piles": E12_TABLE, "suits": ["L", "S", "D", "H"]}, [4, 0, 80, 3]),
    ("E15", scores, {"piles": [["L2", "D8"], ["D1", "L4"]], "suits": ["L", "S", "D", "H"]}, [4, 0, 16, 0]),
    ("E16", scores, {"piles": [["S5"], ["H3"]], "suits": ["L", "S", "D", "H"]}, [0, 5, 0, 3]),
    ("E17a", apply_essence, {"piles": E17_TABLE, "essence": "STONE"}, [["H6"], ["S4"]]),
    ("E17b", apply_essence, {"piles": E17_TABLE, "essence": "KNIFE"}, [["D2", "L9"]]),
    ("E18", apply_essence, {"piles": [], "essence": "SUN"}, []),
    ("E19a", error_starts, {"hand": ["S2", "S3", "S4"]}, [2]),
    ("E19b", error_starts, {"hand": ["S5", "S3", "S2", "S4"]}, [2, 3]),
    ("E19c", error_starts, {"hand": ["S1", "S3", "S5"]}, []),
    ("E19d", error_starts, {"hand": ["H8", "H9", "H10"]}, [8]),
    ("E19e", error_starts, {"hand": []}, []),
    ("E20a", winners, {"scores": [13, 6, 0, 36]}, [3]),
    ("E20b", winners, {"scores": [40, 7, 40, 0]}, [0, 2]),
    ("E20c", winners, {"scores": [0, 0]}, [0, 1]),
]


@pytest.mark.parametrize("case, fn, args, expect", WORKED_EXAMPLES, ids=[case[0] for case in WORKED_EXAMPLES])
def test_worked_example(case, fn, args, expect):
    assert fn(**args) == expect


INDEPENDENT = [
    (pile_product, {"pile": ["D1"]}, 1),
    (pile_product, {"pile": ["H9", "L10"]}, 90),
    (scores, {"piles": [], "suits": ["D", "H", "L"]}, [0, 0, 0]),
    (scores, {"piles": [["H2", "S3"], ["L1", "S2"], ["D7"]], "suits": ["H", "S", "D"]}, [0, 8, 7]),
    (placement_options, {"card": "H10", "piles": [["S9"], ["L10"], ["D1", "D2"]]}, ["HAND", "NEW_PILE", "S9", "D2"]),
    (placement_options, {"card": "S2", "piles": [], "from_hand": True}, ["NEW_PILE"]),
    (placement_options, {"card": "D6", "piles": [["H5"], ["L1"], ["S2"]]}, ["HAND", "NEW_PILE", "L1", "S2", "H5"]),
    (apply_essence, {"piles": [["S1", "H2"], ["L3"]], "essence": "KNIFE"}, [["L3"]]),
    (apply_essence, {"piles": [["S1", "H2"], ["L3"]], "essence": "ROSE"}, [["S1", "H2"]]),
    (apply_essence, {"piles": [["S1", "L2", "H3"], ["D3"]], "essence": "STONE"}, [["S1", "H3"]]),
    (error_starts, {"hand": ["L10", "L8", "L9", "L7", "L6"]}, [6, 7, 8]),
    (error_starts, {"hand": ["D1", "D2", "D3", "D5", "D6", "D7"]}, [1, 5]),
    (winners, {"scores": [0, 5, 5]}, [1, 2]),
    (winners, {"scores": [7]}, [0]),
]


@pytest.mark.parametrize("fn, args, expect", INDEPENDENT)
def test_independent_case(fn, args, expect):
    assert fn(**args) == expect


BAD_INPUT = [
    (pile_product, {"pile": []}, "empty"),
    (pile_product, {"pile": ["L5", "S5"]}, "strictly increasing"),
    (pile_product, {"pile": ["L7", "S3"]}, "strictly increasing"),
    (pile_product, {"pile": ["SUN"]}, "not a numbered card"),
    (pile_product, {"pile": ["X9"]}, "unknown card"),
    (pile_product, {"pile": ["L3", "L3"]}, "twice"),
    (scores, {"piles": [["L3"], ["S2", "L3"]], "suits": ["L", "S"]}, "two places"),
    (scores, {"piles": [["L3"]], "suits": ["L", "L"]}, "distinct"),
    (scores, {"piles": [["L3"]], "suits": ["L", "X"]}, "suit codes"),
    (placement_options, {"card": "GHOST", "piles": []}, "not a numbered card"),
    (placement_options, {"card": "L3", "piles": [["L3"]]}, "already on the table"),
    (placement_options, {"card": "L3", "piles": [[]]}, "empty"),
    (apply_essence, {"piles": [], "essence": "GHOST"}, "not an Essence"),
    (apply_essence, {"piles": [], "essence": "L3"}, "not an Essence"),
    (error_starts, {"hand": ["S2", "L3", "S4"]}, "one suit"),
    (error_starts, {"hand": ["S2", "S2"]}, "twice"),
    (error_starts, {"hand": ["ROSE"]}, "not a numbered card"),
    (winners, {"scores": []}, "non-empty"),
    (winners, {"scores": [1.5, 2]}, "ints"),
]


@pytest.mark.parametrize("fn, args, message", BAD_INPUT)
def test_bad_input_raises_value_error(fn, args, message):
    with pytest.raises(ValueError, match=message):
        fn(**args)


def test_every_pile_is_strictly_increasing_so_ten_cards_at_most():
    assert pile_product([f"{'LSDH'[v % 4]}{v}" for v in range(1, 11)]) == 3_628_800


def test_index_twins_agree_with_the_codes():
    assert rules.card_id(1, 7) == rules.DECK.index_of("S7")
    assert rules.WHITE[rules.DECK.index_of("SUN")] and not rules.WHITE[rules.DECK.index_of("ROSE")]
