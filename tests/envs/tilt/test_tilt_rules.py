"""Tilt rules (cardarena.envs.tilt.rules): the rulebook's worked examples, bad input, the code
tables, and the fast evaluator held to the brute force over every wild assignment (tilt_reference.py).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from tilt_examples import BLOCKS, cases

from cardarena.envs.tilt import rules

RULEBOOK = Path(__file__).resolve().parents[3].parent / "shared" / "rules" / "tilt.md"


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
    assert [rules.printed_suit(card) for card in (0, 8, 16, 24, 33)] == [rules.CREW, rules.PLANETS, rules.STARS, rules.SHIPS, None]
    assert rules.CARDS.index_of("S4") == 19 and rules.CARDS.index_of("K10") == 33


def test_void_deck_order():
    assert len(rules.VOID_CODES) == len(rules.VOID_NAMES) == 23
    assert rules.VOID_CODES[0] == "FINE" and rules.VOID_CODES[6] == "BINY" and rules.VOID_CODES[22] == "ENGB"
    assert rules.void_index("TAXS") == 18


def test_hazards_without_an_evaluation_effect_are_ignored():
    plain = rules.evaluate(["C5", "P5", "S8", "H2"])
    for code in ("FINE", "LEAK", "DIST", "ARMR", "GALY", "HAUL", "CHKN", "PAYC", "TRIK", "TAXS", "VOTE", "SABO", "SHAR"):
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
