"""Yokir rules (cardarena.envs.yokir.rules): the rulebook's worked examples, bad input, and
brute-force cross checks against an independent reading of rulebook section 4.4-4.6 and 5.
"""

from __future__ import annotations

import itertools
import random
import re

import pytest
from cardarena.envs.yokir import rules
from cardarena.envs.yokir.rules import (
    callable_suits,
    effective_suit,
    legal_plays,
    match_winner,
    rank_order,
    score_hand,
    trick_winner,
)
from examples_support import example_cases, rulebook

RULEBOOK = rulebook("yokir")

# Every line of the code blocks of rulebook section 11 (E1-E25), verbatim.
EXAMPLES = {
    "E1": [
        'rank_order("Ar", "Ar") == ["CiAr", "CiPo", "MaAr", "ScAr", "JoAr", "PrAr", "StAr"]',
    ],
    "E2": [
        'rank_order("Ar", "Po") == ["MaPo", "ScPo", "JoPo", "PrPo", "StPo"]',
    ],
    "E3": [
        'rank_order("At", "At") == ["CiAt", "CiPh", "MaAt", "ScAt", "JoAt", "PrAt", "StAt"]',
        'rank_order("At", "Ph") == ["MaPh", "ScPh", "JoPh", "PrPh", "StPh"]',
        'rank_order("At", "Ar") == ["MaAr", "ScAr", "JoAr", "PrAr", "StAr", "CiAr"]',
        'rank_order("At", "Po") == ["MaPo", "ScPo", "JoPo", "PrPo", "StPo", "CiPo"]',
    ],
    "E4": [
        'effective_suit("CiPh", "At") == "At"',
        'effective_suit("CiAt", "At") == "At"',
        'effective_suit("CiAr", "At") == "Ar"',
        'effective_suit("MaPh", "At") == "Ph"',
        'effective_suit("CiAt", "Ph") == "Ph"',
    ],
    "E5": ['trick_winner(["JoPh", "StPh", "MaAt"], "Ar") == 0'],
    "E6": ['trick_winner(["MaPh", "ScPh", "StAr"], "Ar") == 2'],
    "E7": [
        'trick_winner(["MaPo", "CiAr", "CiPo"], "Po") == 2',
        'trick_winner(["MaPo", "CiAr", "ScPo"], "Po") == 1',
    ],
    "E8": ['trick_winner(["MaPh", "CiPh", "ScPh"], "At") == 1'],
    "E9": ['trick_winner(["CiAr", "StAr", "PrAr"], "At") == 2'],
    "E10": ['trick_winner(["CiAt", "MaAt", "StPh"], "Ph") == 0'],
    "E11": ['trick_winner(["ScPo", "JoAr", "MaAr"], "Ar") == 2'],
    "E12": ['legal_plays(["MaPh", "CiPh", "StAr"], None, "At") == ["StAr", "CiPh", "MaPh"]'],
    "E13": ['legal_plays(["JoPh", "MaAr", "StPh"], "ScPh", "At") == ["StPh", "JoPh"]'],
    "E14": ['legal_plays(["CiPh", "MaAr", "StAr"], "MaPh", "At") == ["StAr", "MaAr", "CiPh"]'],
    "E15": ['legal_plays(["CiPh", "MaAr", "StPo"], "MaAt", "At") == ["CiPh"]'],
    "E16": ['legal_plays(["MaPo", "PrAr", "StAt"], "CiPo", "Ar") == ["PrAr"]'],
    "E17": ['legal_plays(["MaAr", "ScAt", "JoAt"], "StPo", "Ph") == ["MaAr", "JoAt", "ScAt"]'],
    "E18": [
        'callable_suits("ScAt") == ["Ar", "Po", "Ph"]',
        'callable_suits("CiAr") == ["Po", "At", "Ph"]',
    ],
    "E19": [
        "score_hand(0, [0, 3, 2]) == [0, 1, 1]",
        "score_hand(2, [2, 2, 1]) == [1, 1, 0]",
        "score_hand(1, [3, 2, 0]) == [1, 0, 1]",
    ],
    "E20": [
        "score_hand(1, [0, 3, 2]) == [0, 1, 0]",
        "score_hand(0, [4, 0, 1]) == [1, 0, 0]",
    ],
    "E21": ["score_hand(2, [0, 0, 5]) == [0, 0, 3]"],
    "E22": ["score_hand(None, [0, 0, 0]) == [0, 0, 0]"],
    "E23": [
        "match_winner([10, 9, 3]) == 0",
        "match_winner([9, 9, 9]) == None",
        "match_winner([10, 10, 4]) == None",
        "match_winner([11, 10, 10]) == 0",
        "match_winner([10, 10, 12]) == 2",
        "match_winner([12, 12, 11]) == None",
        "match_winner([5, 6, 4], target=5) == 1",
    ],
    "E24": [
        'legal_plays(["CiPh", "PrAt", "MaAr", "ScAr", "MaPo"], "CiAt", "At") == ["PrAt", "CiPh"]',
        'trick_winner(["CiAt", "PrAt", "StAt"], "At") == 0',
        'legal_plays(["CiPh", "MaAr", "ScAr", "MaPo"], "MaAt", "At") == ["CiPh"]',
        'legal_plays(["JoPh", "PrPh", "CiAr", "ScPo"], "MaAt", "At") == ["CiAr", "ScPo", "PrPh", "JoPh"]',
        'trick_winner(["MaAt", "CiPh", "PrPh"], "At") == 1',
        'legal_plays(["JoAr", "ScAt", "ScPh"], "MaAr", "At") == ["JoAr"]',
        'trick_winner(["MaAr", "CiAr", "JoAr"], "At") == 0',
        'legal_plays(["ScAt", "ScPh"], "MaPo", "At") == ["ScAt", "ScPh"]',
        'trick_winner(["MaPo", "ScPo", "ScAt"], "At") == 2',
        'legal_plays(["JoPh"], "ScPh", "At") == ["JoPh"]',
        'trick_winner(["ScPh", "ScAr", "JoPh"], "At") == 0',
        "score_hand(1, [0, 3, 2]) == [0, 1, 0]",
    ],
    "E25": [
        'rank_order("Ph", "Ph") == ["CiPh", "CiAt", "MaPh", "ScPh", "JoPh", "PrPh", "StPh"]',
        'rank_order("Ph", "At") == ["MaAt", "ScAt", "JoAt", "PrAt", "StAt"]',
        'legal_plays(["CiAt", "MaAt", "ScPh", "JoAr", "StPo"], "JoPh", "Ph") == ["CiAt", "ScPh"]',
    ],
}

CASES = example_cases(EXAMPLES)
API = {
    "callable_suits": callable_suits,
    "effective_suit": effective_suit,
    "legal_plays": legal_plays,
    "match_winner": match_winner,
    "rank_order": rank_order,
    "score_hand": score_hand,
    "trick_winner": trick_winner,
}


def _check(line: str) -> None:
    call, expected = line.rsplit(" == ", 1)
    got = eval(call, dict(API))
    want = eval(expected, {})
    assert got == want, f"{call} returned {got!r}, rulebook says {want!r}"
    assert type(got) is type(want)


@pytest.mark.parametrize("line", CASES)
def test_worked_example(line):
    _check(line)


def _rulebook_lines() -> list[str]:
    text = RULEBOOK.read_text(encoding="utf-8")
    examples = text.split("## 11. Worked examples", 1)[1].split("## 12.", 1)[0]
    blocks = re.findall(r"```python\n(.*?)```", examples, flags=re.S)
    return [line.strip() for block in blocks for line in block.splitlines() if line.strip()]


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the shared rulebook is not next to this checkout")
def test_examples_match_the_rulebook_verbatim():
    """The transcribed cases are exactly the rulebook's code-block lines (no drift, none missing)."""
    transcribed = [line for lines in EXAMPLES.values() for line in lines]
    assert transcribed == _rulebook_lines()


# ---------------------------------------------------------------- bad input


def _raises_naming(bad: str, fn, *args, **kwargs) -> None:
    with pytest.raises(ValueError) as info:
        fn(*args, **kwargs)
    assert bad in str(info.value), f"error message {str(info.value)!r} does not name {bad}"


@pytest.mark.parametrize(
    "bad, fn, args",
    [
        ("XxAr", effective_suit, ("XxAr", "At")),
        ("ciar", effective_suit, ("ciar", "At")),
        ("Pr", effective_suit, ("CiAr", "Pr")),
        ("None", effective_suit, ("CiAr", None)),
        ("12", effective_suit, (12, "At")),
        ("Zz", rank_order, ("Zz", "Ar")),
        ("ar", rank_order, ("Ar", "ar")),
        ("MaXx", trick_winner, (["MaAr", "MaXx", "StAr"], "At")),
        ("Hearts", trick_winner, (["MaAr", "ScAr", "StAr"], "Hearts")),
        ("CiAr", trick_winner, (["CiAr", "StAr", "CiAr"], "At")),
        ("StPo", trick_winner, (["CiAr", "StAr", "MaAr", "StPo"], "At")),
        ("[]", trick_winner, ([], "At")),
        ("Ci", legal_plays, (["Ci", "MaAr"], None, "At")),
        ("MaAr", legal_plays, (["MaAr", "StAr", "MaAr"], None, "At")),
        ("Jo", legal_plays, (["MaAr"], "Jo", "At")),
        ("Xx", legal_plays, (["MaAr"], "StAr", "Xx")),
        ("MaAr", legal_plays, (["MaAr", "StPo"], "MaAr", "At")),
        ("Ma", callable_suits, ("Ma",)),
        ("MaAtt", callable_suits, ("MaAtt",)),
        ("7", score_hand, (7, [1, 1, 3])),
        ("-1", score_hand, (-1, [1, 1, 3])),
        ("'0'", score_hand, ("0", [1, 1, 3])),
        ("[1, 1, 1]", score_hand, (0, [1, 1, 1])),
        ("[2, 2, 2]", score_hand, (1, [2, 2, 2])),
        ("[6, -1, 0]", score_hand, (0, [6, -1, 0])),
        ("[5, 0]", score_hand, (0, [5, 0])),
        ("[1, 2, 2]", score_hand, (None, [1, 2, 2])),
        ("[10, 9]", match_winner, ([10, 9],)),
        ("-1", match_winner, ([-1, 3, 4],)),
        ("-7", match_winner, ([10, 9, 3], -7)),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_bad_input_raises_value_error_naming_the_value(bad, fn, args):
    _raises_naming(bad, fn, *args)


def test_functions_do_not_mutate_their_arguments():
    hand, trick, tricks, scores = ["MaPh", "CiPh", "StAr"], ["MaPh", "CiPh", "ScPh"], [0, 3, 2], [10, 9, 3]
    legal_plays(hand, "ScPh", "At")
    trick_winner(trick, "At")
    score_hand(1, tricks)
    match_winner(scores)
    assert (hand, trick, tricks, scores) == (["MaPh", "CiPh", "StAr"], ["MaPh", "CiPh", "ScPh"], [0, 3, 2], [10, 9, 3])


# ---------------------------------------------------------------- independent cross checks

SUITS = ["Ar", "Po", "At", "Ph"]
RANKS_LOW_TO_HIGH = ["Ci", "St", "Pr", "Jo", "Sc", "Ma"]
CARDS = [rank + suit for suit in SUITS for rank in RANKS_LOW_TO_HIGH]
SAME_COLOUR = {"Ar": "Po", "Po": "Ar", "At": "Ph", "Ph": "At"}


def reference_order(trump: str, suit: str) -> list[str]:
    """Section 4.4, written out independently: cards of effective suit `suit`, highest first."""
    plain = ["Ma", "Sc", "Jo", "Pr", "St"]
    if suit == trump:
        return ["Ci" + trump, "Ci" + SAME_COLOUR[trump]] + [rank + trump for rank in plain]
    if suit == SAME_COLOUR[trump]:
        return [rank + suit for rank in plain]
    return [rank + suit for rank in plain + ["Ci"]]


def reference_suit(card: str, trump: str) -> str:
    return next(suit for suit in SUITS if card in reference_order(trump, suit))


def reference_winner(cards: list[str], trump: str) -> int:
    trumps = [c for c in cards if reference_suit(c, trump) == trump]
    pool, order = (
        (trumps, reference_order(trump, trump))
        if trumps
        else (
            [c for c in cards if reference_suit(c, trump) == reference_suit(cards[0], trump)],
            reference_order(trump, reference_suit(cards[0], trump)),
        )
    )
    return cards.index(min(pool, key=order.index))


def test_deck_order_is_the_rulebook_table():
    assert list(rules.DECK.codes) == CARDS


@pytest.mark.parametrize("trump", SUITS)
def test_rank_order_and_effective_suit_match_an_independent_reading(trump):
    for suit in SUITS:
        assert rank_order(trump, suit) == reference_order(trump, suit)
    for card in CARDS:
        assert effective_suit(card, trump) == reference_suit(card, trump)
    # the four orders partition the deck: 7 + 5 + 6 + 6
    members = [card for suit in SUITS for card in rank_order(trump, suit)]
    assert sorted(members) == sorted(CARDS)
    assert sorted(len(rank_order(trump, suit)) for suit in SUITS) == [5, 6, 6, 7]


@pytest.mark.parametrize("trump", SUITS)
def test_rank_order_agrees_with_trick_winner_on_every_pair(trump):
    """Two cards of one effective suit: the one rank_order puts first wins, whichever is led
    (the third card is of a suit that can never win that trick)."""
    for suit in SUITS:
        order = rank_order(trump, suit)
        loser = rank_order(trump, next(s for s in SUITS if s not in (suit, trump)))[0]
        for high, low in itertools.combinations(order, 2):
            assert trick_winner([high, low, loser], trump) == 0, (high, low, trump)
            assert trick_winner([low, high, loser], trump) == 1, (low, high, trump)
            assert trick_winner([low, loser, high], trump) == 2, (low, high, trump)


@pytest.mark.parametrize("trump", SUITS)
def test_trick_winner_on_every_three_card_trick(trump):
    for cards in itertools.permutations(CARDS, 3):
        trick = list(cards)
        assert trick_winner(trick, trump) == reference_winner(trick, trump), (trick, trump)


def test_legal_plays_on_random_hands():
    rng = random.Random(20240601)
    for _ in range(3000):
        trump = rng.choice(SUITS)
        cards = rng.sample(CARDS, rng.randint(2, 7))
        led = None if rng.random() < 0.2 else cards[0]
        hand = cards[1:]
        if led is None:
            expected = hand
        else:
            led_suit = reference_suit(led, trump)
            expected = [c for c in hand if reference_suit(c, trump) == led_suit] or hand
        got = legal_plays(hand, led, trump)
        assert got == sorted(expected, key=CARDS.index), (hand, led, trump)


def test_callable_suits_for_every_up_card():
    for card in CARDS:
        assert callable_suits(card) == [suit for suit in SUITS if suit != card[2:]]


def test_score_hand_for_every_trick_split():
    splits = [list(t) for t in itertools.product(range(6), repeat=3) if sum(t) == 5]
    assert len(splits) == 21
    for caller in range(3):
        for tricks in splits:
            taken = tricks[caller]
            defenders = [1 if seat != caller else 0 for seat in range(3)]
            if taken <= 2:
                expected = defenders
            else:
                expected = [(1 if taken <= 4 else 3) if seat == caller else 0 for seat in range(3)]
            assert score_hand(caller, tricks) == expected, (caller, tricks)


@pytest.mark.parametrize("target", [1, 5, 10])
def test_match_winner_for_every_small_score(target):
    for scores in itertools.product(range(target + 4), repeat=3):
        scores = list(scores)
        top = max(scores)
        expected = scores.index(top) if top >= target and scores.count(top) == 1 else None
        assert match_winner(scores, target=target) == expected, (scores, target)
