"""Piktas rules (cardarena.envs.piktas.rules): the rulebook's worked examples (section 11) and the
bad input that the Checkable API (section 12) refuses.
"""

from __future__ import annotations

import pytest
from cardarena.envs.piktas import rules
from cardarena.envs.piktas.rules import (
    betting_actions,
    deal_field_card,
    evaluate,
    initial_deal,
    legal_actions,
    score,
    split_pot,
    unit_points,
    winners,
)
from examples_support import example_cases, rulebook
from piktas_examples import DECK, EXAMPLES, split_example

RULEBOOK = rulebook("piktas")
API = {
    "DECK": DECK,
    "betting_actions": betting_actions,
    "deal_field_card": deal_field_card,
    "evaluate": evaluate,
    "initial_deal": initial_deal,
    "legal_actions": legal_actions,
    "split_pot": split_pot,
    "unit_points": unit_points,
    "winners": winners,
}
CASES = example_cases(EXAMPLES)


@pytest.mark.parametrize("line", CASES)
def test_worked_example(line):
    call, expected = split_example(line)
    got = eval(call, dict(API))
    want = eval(expected, {"DECK": DECK})
    assert got == want, f"{call} returned {got!r}, rulebook says {want!r}"
    assert type(got) is type(want)


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the shared rulebook is not next to this checkout")
def test_examples_are_the_rulebook_text():
    """Every transcribed call and expected value appears in section 11 as written (no drift)."""
    text = RULEBOOK.read_text(encoding="utf-8").split("## 11. Worked examples", 1)[1]
    for lines in EXAMPLES.values():
        for line in lines:
            for part in split_example(line):
                assert part == "None" or f"`{part}" in text or f"{part}`" in text, part


def test_deck_is_the_canonical_order():
    assert list(rules.DECK) == DECK
    assert len(set(DECK)) == 72
    assert DECK[9] == "O10" and DECK[50] == "TOW1" and DECK[69] == "TUM2" and DECK[70:] == ["V1", "V2"]


def test_e38_eleven_players_run_the_deck_out():
    deck = DECK[:66] + ["V1", "V2"] + DECK[66:70]
    deal = initial_deal(deck, 11, 0)
    seat_0 = [DECK[10], DECK[21], DECK[32], DECK[43], DECK[54], DECK[65]]
    assert seat_0 == ["W1", "K2", "U3", "M4", "TOU1", "TKU2"]
    others = [[DECK[s - 1], DECK[s + 10], DECK[s + 21], DECK[s + 32], DECK[s + 43], DECK[s + 54]] for s in range(1, 11)]
    assert deal == {"hands": [seat_0, *others], "field": [["TKM1", "V2", "V1"], ["TKM2"], ["TUM1"]], "deck": ["TUM2"]}
    assert deal_field_card(deal["deck"]) == {"stack": ["TUM2"], "deck": []}
    assert deal_field_card([]) == {"stack": [], "deck": []}


def test_e41_exchange_cycle_legal_actions():
    """E41: pass, 15 swaps of O3-O7 with K2, W5, M9, and the void onto each of them; TOW1 is covered."""
    hand = ["O3", "O4", "O5", "O6", "O7", "V1"]
    field = [["K2"], ["W5"], ["TOW1", "V2"], ["M9"]]
    swaps = [f"swap:{h}:{f}" for h in hand[:5] for f in ("K2", "W5", "M9")]
    voids = ["void:V1:K2", "void:V1:M9", "void:V1:W5"]
    assert legal_actions(hand, field) == sorted(["pass", *swaps, *voids])
    assert len(legal_actions(hand, field)) == 19


def test_evaluate_returns_a_plain_tuple_of_four_ints():
    result = evaluate(["O3", "O4", "O5", "O6", "O7", "TOW1"], ["TOW2", "W1", "W3", "W5", "W7", "W9"])
    assert type(result) is tuple and len(result) == 4
    assert all(type(part) is int for part in result)
    assert type(score(["O7", "W7"], ["K7"])) is int


def test_evaluate_accepts_empty_and_void_only_hands():
    assert evaluate([], []) == (0, 0, 0, 0)
    assert evaluate(["V1", "V2"], ["O7", "W7"]) == (2, 2, 7, 0)


# ---------------------------------------------------------------- bad input


def _raises_naming(names: list[str], fn, *args, **kwargs) -> None:
    """ValueError whose message names one of `names` (case-insensitive)."""
    with pytest.raises(ValueError) as info:
        fn(*args, **kwargs)
    message = str(info.value).lower()
    assert any(name.lower() in message for name in names), f"{message!r} names none of {names}"


@pytest.mark.parametrize(
    "bad, fn, args",
    [
        ("X9", unit_points, ("duo", ["X9", "O9"])),
        ("O11", unit_points, ("true_sequence", ["O6", "O7", "O8", "O9", "O10", "O11"])),
        ("o7", evaluate, (["o7"], [])),
        ("TWO1", evaluate, (["O7"], ["TWO1"])),
        ("TOW3", evaluate, (["TOW3"], ["O1"])),
        ("V3", evaluate, (["V3"], [])),
        ("O0", score, (["O0"], [])),
        ("M77", winners, ([["O1"], ["M77"]], [])),
        ("K11", legal_actions, (["K11"], [["O1"]])),
        ("W0", legal_actions, (["O1"], [["W0"]])),
        ("Q1", deal_field_card, (["Q1", "O1"],)),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_unknown_code_raises_value_error_naming_it(bad, fn, args):
    _raises_naming([bad], fn, *args)


@pytest.mark.parametrize(
    "bad, fn, args",
    [
        ("O7", unit_points, ("duo", ["O7", "O7"])),
        ("TKU1", unit_points, ("duo", ["TKU1", "TKU1"])),
        ("W3", evaluate, (["W3", "O1", "W3"], [])),
        ("K7", evaluate, (["K7"], ["O1", "K7"])),
        ("V1", evaluate, (["V1"], ["V1"])),
        ("M2", score, ([], ["M2", "M2"])),
        ("U5", winners, ([["U5"], ["U5"]], [])),
        ("O3", legal_actions, (["O3", "O3"], [["W5"]])),
        ("W5", legal_actions, (["W5"], [["W5"]])),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_duplicate_card_raises_value_error_naming_it(bad, fn, args):
    _raises_naming([bad], fn, *args)


@pytest.mark.parametrize("kind", ["straight", "True_Sequence", "full_hand", ""])
def test_unknown_kind_raises_value_error(kind):
    _raises_naming(["kind", repr(kind)], unit_points, kind, ["O7", "W7"])


@pytest.mark.parametrize(
    "deck, names",
    [
        (DECK[:71], ["deck", "71", "V2"]),
        (DECK[:69], ["deck", "69", "TUM2"]),
        (DECK[:71] + ["V1"], ["V1"]),
        (DECK[:70] + ["O1", "O2"], ["O1", "O2"]),
        (DECK + ["O1"], ["O1", "73", "deck"]),
        (DECK[:71] + ["X1"], ["X1"]),
        ([], ["deck", "0"]),
    ],
    ids=["71-cards", "69-cards", "void-twice", "pips-for-voids", "73-cards", "unknown-code", "empty"],
)
def test_bad_deck_raises_value_error(deck, names):
    _raises_naming(names, initial_deal, deck, 4, 0)


def test_seventy_card_deck_is_accepted():
    deal = initial_deal(DECK[:70], 2, 0)
    assert deal["field"] == [["W3"], ["W4"], ["W5"]] and deal["deck"] == DECK[15:70]


def test_betting_on_a_folded_seat_raises_value_error():
    _raises_naming(["fold"], betting_actions, 10, [0, 10, 0], [90, 80, 90], [True, False, False], 0)


def test_betting_on_a_seat_that_matched_the_bet_raises_value_error():
    _raises_naming(["match", "already"], betting_actions, 10, [0, 10, 0], [90, 80, 90], [False, False, False], 1)


def test_betting_with_no_bet_is_legal_for_every_seat_still_in():
    for seat in range(3):
        assert betting_actions(0, [0, 0, 0], [90, 90, 90], [False, False, False], seat) == ["fold", "raise", "stay"]
