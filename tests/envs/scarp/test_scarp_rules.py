"""Scarp rules: every worked example of the rulebook, independent cases, brute-force checks of the
answer and combination masks, and bad input giving ValueError."""

from __future__ import annotations

import itertools
import random

import pytest
from cardarena.envs.core.decks import scarp as scarp_deck
from cardarena.envs.scarp import rules

# (id, function, arguments, expected result), as the rulebook gives them
WORKED_EXAMPLES = [
    ("E1", "opposite_suits", {"suit": "L"}, ["S", "H"]),
    ("E2", "opposite_suits", {"suit": "H"}, ["L", "D"]),
    ("E3a", "suit_of", {"card": "ROSE"}, "H"),
    ("E3b", "colour_of", {"card": "ROSE"}, "black"),
    ("E3c", "number_of", {"card": "ROSE"}, None),
    ("E3d", "colour_of", {"card": "GHOST"}, None),
    ("E3e", "colour_of", {"card": "D4"}, "white"),
    ("E3f", "number_of", {"card": "S10"}, 10),
    ("E4", "is_valid_answer", {"cards": ["S6", "H2"], "number": 8, "suit": "S"}, True),
    ("E5", "is_valid_answer", {"cards": ["S6", "D2"], "number": 8, "suit": "S"}, False),
    ("E6", "is_valid_answer", {"cards": ["H6", "H2"], "number": 8, "suit": "S"}, False),
    ("E7", "is_valid_answer", {"cards": ["S6", "S3"], "number": 8, "suit": "S"}, False),
    ("E8", "is_valid_answer", {"cards": ["STONE"], "number": 8, "suit": "S"}, True),
    ("E9", "is_valid_answer", {"cards": ["ROSE", "S3"], "number": 8, "suit": "S"}, True),
    ("E10", "is_valid_answer", {"cards": ["ROSE", "S3", "H5"], "number": 8, "suit": "S"}, False),
    ("E11", "is_valid_answer", {"cards": ["ROSE", "STONE", "S5"], "number": 7, "suit": "S"}, True),
    ("E12", "is_valid_answer", {"cards": ["STONE", "GHOST"], "number": 5, "suit": "S"}, False),
    (
        "E13",
        "answer_options",
        {"pool": ["S6", "H2", "D2", "L8", "S3", "ROSE", "H5", "GHOST"], "chosen": [], "number": 8, "suit": "S"},
        ["S3", "S6", "H2", "H5", "ROSE"],
    ),
    (
        "E14",
        "answer_options",
        {"pool": ["S6", "H2", "D2", "L8", "S3", "ROSE", "H5", "GHOST"], "chosen": ["S6"], "number": 8, "suit": "S"},
        ["H2", "ROSE"],
    ),
    (
        "E15",
        "answer_options",
        {
            "pool": ["S6", "H2", "D2", "L8", "S3", "ROSE", "H5", "GHOST"],
            "chosen": ["S6", "H2"],
            "number": 8,
            "suit": "S",
        },
        ["DONE"],
    ),
    (
        "E16",
        "answer_options",
        {"pool": ["S6", "H2", "D2", "L8", "S3", "ROSE", "H5", "GHOST"], "chosen": ["ROSE"], "number": 8, "suit": "S"},
        ["S3", "S6", "H2"],
    ),
    (
        "E17",
        "answer_options",
        {
            "pool": ["S6", "H2", "D2", "L8", "S3", "ROSE", "H5", "GHOST"],
            "chosen": ["ROSE", "S3"],
            "number": 8,
            "suit": "S",
        },
        ["H2", "DONE"],
    ),
    ("E18a", "is_combo", {"cards": ["L3", "D7", "SUN"], "kind": "emp"}, True),
    ("E18b", "is_combo", {"cards": ["L3", "D7", "STONE"], "kind": "emp"}, False),
    ("E18c", "is_combo", {"cards": ["D1", "D9", "KNIFE"], "kind": "shrike"}, True),
    ("E18d", "is_combo", {"cards": ["D1", "L9", "KNIFE"], "kind": "shrike"}, False),
    ("E18e", "is_combo", {"cards": ["L5", "S5", "ROSE"], "kind": "quake"}, True),
    ("E18f", "is_combo", {"cards": ["L5", "S6", "ROSE"], "kind": "quake"}, False),
    ("E18g", "is_combo", {"cards": ["SUN", "STONE", "KNIFE"], "kind": "quake"}, True),
    ("E18h", "is_combo", {"cards": ["L5", "S5", "GHOST"], "kind": "emp"}, False),
    (
        "E19",
        "combo_options",
        {"hand": ["L3", "L7", "D5", "S5", "H5", "ROSE", "GHOST"], "chosen": [], "kind": "quake"},
        ["S5", "D5", "H5", "ROSE"],
    ),
    (
        "E20",
        "combo_options",
        {"hand": ["L3", "L7", "D5", "S5", "H5", "ROSE", "GHOST"], "chosen": ["S5"], "kind": "emp"},
        ["H5", "ROSE"],
    ),
    (
        "E21",
        "combo_options",
        {"hand": ["L1", "L2", "SUN", "L5", "GHOST"], "chosen": [], "kind": "reverse"},
        ["L1", "L2", "L5", "SUN"],
    ),
    ("E22", "combo_options", {"hand": ["H3", "H7", "ROSE", "SUN"], "chosen": [], "kind": "reverse"}, []),
    (
        "E23",
        "resolve_challenge",
        {
            "challenge": "L8",
            "suit": "S",
            "answer": ["S6", "H2"],
            "challenger_hand": ["L1", "D3"],
            "responder_hand": ["S6", "H2", "D9"],
        },
        {"challenger_hand": ["L1", "D3"], "responder_hand": ["S6", "D9", "H2"], "discard": ["L8"], "draw": "responder"},
    ),
    (
        "E24",
        "resolve_challenge",
        {
            "challenge": "L8",
            "suit": "S",
            "answer": ["STONE"],
            "challenger_hand": ["L1", "D3"],
            "responder_hand": ["STONE", "D9"],
        },
        {"challenger_hand": ["L1", "D3"], "responder_hand": ["L8", "D9", "STONE"], "discard": [], "draw": None},
    ),
    (
        "E25",
        "resolve_challenge",
        {
            "challenge": "L8",
            "suit": "S",
            "answer": ["S5", "S2", "H1"],
            "challenger_hand": ["S5", "H1", "L2"],
            "responder_hand": ["S2", "D4"],
        },
        {"challenger_hand": ["L2"], "responder_hand": ["S2", "S5", "D4", "H1"], "discard": ["L8"], "draw": "responder"},
    ),
    (
        "E26",
        "resolve_challenge",
        {
            "challenge": "D6",
            "suit": "H",
            "answer": ["ROSE"],
            "challenger_hand": ["ROSE", "L9"],
            "responder_hand": ["S4"],
        },
        {"challenger_hand": ["L9"], "responder_hand": ["S4", "D6", "ROSE"], "discard": [], "draw": None},
    ),
    (
        "E27",
        "resolve_challenge",
        {"challenge": "L8", "suit": "S", "answer": None, "challenger_hand": ["L1"], "responder_hand": ["S6", "H2"]},
        {"challenger_hand": ["L1"], "responder_hand": ["S6", "H2"], "discard": ["L8"], "draw": "challenger"},
    ),
    ("E28a", "strip_count", {"hand_size": 5}, 2),
    ("E28b", "strip_count", {"hand_size": 8}, 4),
    ("E28c", "strip_count", {"hand_size": 1}, 0),
    ("E29a", "has_colour_win", {"hand": ["S1", "S2", "S3", "S4", "S5", "H1", "H2", "H3", "H4", "H5", "ROSE"]}, True),
    ("E29b", "has_colour_win", {"hand": ["S1", "S2", "S3", "S4", "S5", "H1", "H2", "H3", "H4", "H5", "SUN"]}, False),
    (
        "E29c",
        "has_colour_win",
        {"hand": ["S1", "S2", "S3", "S4", "S5", "H1", "H2", "H3", "H4", "STONE", "ROSE", "L1", "D1"]},
        False,
    ),
    (
        "E30a",
        "end_result",
        {"hands": [["L1", "L2", "L3", "L4", "L5", "L6", "L7"], ["S1", "S2", "S3", "S4", "S5"]], "deck_count": 0},
        0,
    ),
    ("E30b", "end_result", {"hands": [["L1", "L2"], ["S1", "S2"]], "deck_count": 0}, -1),
    ("E30c", "end_result", {"hands": [["L1", "L2", "L3"], ["S1"]], "deck_count": 4}, None),
    (
        "E30d",
        "end_result",
        {
            "hands": [
                ["L1", "L2", "L3", "L4", "L5", "D1", "D2", "D3", "D4", "D5", "KNIFE"],
                ["S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10", "H1", "H2"],
            ],
            "deck_count": 0,
        },
        0,
    ),
]


@pytest.mark.parametrize("case_id, fn, args, expect", WORKED_EXAMPLES, ids=[case[0] for case in WORKED_EXAMPLES])
def test_worked_example(case_id, fn, args, expect):
    assert getattr(rules, fn)(**args) == expect


def test_deck_attributes_are_the_shared_decks():
    for name in ("suit_of", "number_of", "colour_of", "opposite_suits"):
        assert getattr(rules, name) is getattr(scarp_deck, name)


@pytest.mark.parametrize(
    "cards, number, suit, expect",
    [
        (["D4", "L3"], 7, "L", True),  # white answer to a black card
        (["D4", "L3"], 7, "D", True),
        (["D4", "D3"], 7, "L", False),  # no Light card
        (["KNIFE"], 10, "D", True),  # a lone Essence of the suit stands for 10
        (["KNIFE"], 1, "D", True),
        (["SUN", "KNIFE"], 1, "D", False),  # two Essences are worth at least 2
        (["SUN", "KNIFE", "D8"], 10, "D", True),
        (["SUN", "KNIFE", "D9"], 10, "D", False),
        (["L10"], 10, "L", True),
        ([], 5, "L", False),
    ],
)
def test_independent_answers(cards, number, suit, expect):
    assert rules.is_valid_answer(cards, number, suit) is expect


def _valid_answers(pool: list[str], number: int, suit: str) -> list[set[str]]:
    return [
        set(subset)
        for size in range(1, len(pool) + 1)
        for subset in itertools.combinations(pool, size)
        if rules.is_valid_answer(list(subset), number, suit)
    ]


@pytest.mark.parametrize("seed", range(40))
def test_answer_options_is_the_brute_force_completion(seed):
    """A card is offered exactly when some valid answer holds it and the picks so far; DONE exactly when the picks
    are valid."""
    rng = random.Random(seed)
    pool = rng.sample(rules.DECK.codes, rng.randint(1, 12))
    number, suit = rng.randint(1, 10), rng.choice(rules.SUITS)
    answers = _valid_answers(pool, number, suit)
    chosen: list[str] = []
    while True:
        expect = [
            card
            for card in rules.DECK.sorted_codes(pool)
            if card not in chosen and any({*chosen, card} <= a for a in answers)
        ]
        expect += ["DONE"] if set(chosen) in answers else []
        options = rules.answer_options(pool, chosen, number, suit)
        assert options == expect
        picks = [card for card in options if card != "DONE"]
        if not picks:
            assert not chosen or "DONE" in options, "a started answer can always be finished"
            break
        chosen.append(rng.choice(picks))


@pytest.mark.parametrize("kind", ["emp", "shrike", "quake", "reverse"])
@pytest.mark.parametrize("seed", range(10))
def test_combo_options_is_the_brute_force_completion(kind, seed):
    rng = random.Random(seed)
    hand = rng.sample(rules.DECK.codes, rng.randint(3, 10))
    shape = "shrike" if kind == "reverse" else kind

    def fits(combo):
        leaves = any(rules.number_of(card) for card in hand if card not in combo)
        return rules.is_combo(list(combo), shape) and (kind != "reverse" or leaves)

    combos = [set(combo) for combo in itertools.combinations(hand, 3) if fits(combo)]
    chosen: list[str] = []
    while len(chosen) < 3:
        expect = [
            card
            for card in rules.DECK.sorted_codes(hand)
            if card not in chosen and any({*chosen, card} <= c for c in combos)
        ]
        options = rules.combo_options(hand, chosen, kind)
        assert options == expect
        if not options:
            assert not chosen
            break
        chosen.append(rng.choice(options))
    if len(chosen) == 3:
        assert rules.combo_options(hand, chosen, kind) == []


def test_quake_and_emp_independent_cases():
    assert rules.is_combo(["H9", "D9", "S9"], "quake")
    assert rules.is_combo(["KNIFE", "ROSE", "L1"], "quake")
    assert not rules.is_combo(["H9", "D9"], "quake")
    assert not rules.is_combo(["H9", "D9", "S8", "L9"], "quake")
    assert rules.is_combo(["S1", "H2", "ROSE"], "emp")
    assert not rules.is_combo(["S1", "H2", "ROSE"], "shrike")


def test_resolution_independent_cases():
    # an Essence of the challenger's, stolen with access, beside the responder's own card
    result = rules.resolve_challenge("S7", "D", ["KNIFE", "D2"], ["KNIFE", "H1"], ["D2", "L9"])
    assert result == {
        "challenger_hand": ["H1"],
        "responder_hand": ["L9", "S7", "D2", "KNIFE"],
        "discard": [],
        "draw": None,
    }


def test_end_result_independent_cases():
    white = ["L1", "L2", "L3", "L4", "L5", "L6", "D1", "D2", "D3", "D4"]
    assert rules.end_result([white + ["SUN"], ["S1", "H1"]], 5) == 0
    assert rules.end_result([["S1", "H1"], white + ["KNIFE"]], 5) == 1
    assert rules.end_result([["S1"], ["H1", "H2"]], 0) == 1


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: rules.suit_of("X9"), "unknown card code"),
        (lambda: rules.opposite_suits("Q"), "unknown suit"),
        (lambda: rules.is_valid_answer(["S6", "S6"], 8, "S"), "twice"),
        (lambda: rules.is_valid_answer(["S6"], 11, "S"), "1 to 10"),
        (lambda: rules.is_valid_answer(["S6"], 0, "S"), "1 to 10"),
        (lambda: rules.is_valid_answer(["S6"], 8, "X"), "unknown suit"),
        (lambda: rules.answer_options(["S6"], ["H2"], 8, "S"), "not in pool"),
        (lambda: rules.answer_options(["S6", "Z1"], [], 8, "S"), "unknown card code"),
        (lambda: rules.is_combo(["L1", "L2", "L3"], "reverse"), "unknown combination kind"),
        (lambda: rules.combo_options(["L1", "L2", "L3"], [], "pair"), "unknown combination kind"),
        (lambda: rules.combo_options(["L1", "L2"], ["L3"], "emp"), "not in hand"),
        (lambda: rules.resolve_challenge("SUN", "S", None, [], []), "not a numbered card"),
        (lambda: rules.resolve_challenge("L8", "D", None, [], []), "not one of"),
        (lambda: rules.resolve_challenge("L8", "S", ["S6", "D2"], [], ["S6", "D2"]), "not a valid answer"),
        (lambda: rules.resolve_challenge("L8", "S", ["S6", "H2"], [], ["S6"]), "neither hand"),
        (lambda: rules.resolve_challenge("L8", "S", None, ["L8"], []), "both"),
        (lambda: rules.resolve_challenge("L8", "S", None, ["L1"], ["L1"]), "both"),
        (lambda: rules.strip_count(-1), "hand_size"),
        (lambda: rules.end_result([["L1"], ["L1"]], 3), "both"),
        (lambda: rules.end_result([["L1"]], 3), "2 players"),
        (lambda: rules.end_result([["L1"], []], -1), "deck_count"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_problem(call, message):
    with pytest.raises(ValueError, match=message):
        call()


def _search_completes(chosen: list[int], rest: list[int], kind: str) -> bool:
    """The combination rule searched card by card: some cards of `rest` make `chosen` a combination."""
    shape = "shrike" if kind == "reverse" else kind
    hand = [*chosen, *rest]
    return (
        any(
            rules.is_combo_ids([*chosen, *extra], shape)
            and (kind != "reverse" or any(card < rules.NUM_NUMBERED and card not in (*chosen, *extra) for card in hand))
            for extra in itertools.combinations(rest, 3 - len(chosen))
        )
        if len(chosen) <= 3
        else False
    )


@pytest.mark.parametrize("kind", ["emp", "shrike", "quake", "reverse"])
def test_combination_counting_agrees_with_the_search(kind):
    rng = random.Random(kind)
    for _ in range(600):
        hand = rng.sample(range(len(rules.DECK)), rng.randint(0, 9))
        chosen, rest = hand[: rng.randint(0, min(3, len(hand)))], sorted(hand[3:] if len(hand) > 3 else [])
        codes = rules.DECK.codes_of(hand)
        assert rules.has_combo_ids(hand, kind) == _search_completes([], sorted(hand), kind), codes
        assert rules.combo_completes_ids(chosen, rest, kind) == _search_completes(chosen, rest, kind), (codes, chosen)
