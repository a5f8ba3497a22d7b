"""Dividha rules (cardarena.envs.dividha.rules): the rulebook's worked examples, the fast evaluator
held to the literal reference, settlement conserving chips, and the bad input the API refuses.
"""

from __future__ import annotations

import itertools
import random
import re

import dividha_reference as reference
import pytest
from cardarena.envs.core import betting
from cardarena.envs.dividha import rules
from cardarena.envs.dividha.rules import (
    DECK,
    best_cards,
    compare,
    evaluate,
    hand_name,
    is_legal_hand,
    settle,
    split_chips,
)
from dividha_examples import EXAMPLES, split_example
from examples_support import example_cases, rulebook
from hypothesis import given, settings
from hypothesis import strategies as st

RULEBOOK = rulebook("dividha")
CHECKABLE = (
    "best_cards",
    "compare",
    "evaluate",
    "hand_name",
    "is_legal_hand",
    "raise_options",
    "settle",
    "split_chips",
)
CASES = example_cases(EXAMPLES)
IMMORTALS = [code for code in DECK if code not in reference.MORTAL]
SPECIAL = ["GOD", "SATAN", "2V", "2L", "MIN", "RAL", "SAN"]


@pytest.mark.parametrize("line", CASES)
def test_worked_example(line):
    """The call, made through `rules`, returns exactly the rulebook's value (and its type)."""
    call, expected = split_example(line)
    got, want = eval(call, {name: getattr(rules, name) for name in CHECKABLE}), eval(expected, {})
    assert (got, type(got)) == (want, type(want)), f"{call} returned {got!r}, rulebook says {want!r}"


@pytest.mark.skipif(not RULEBOOK.exists(), reason="the shared rulebook is not next to this checkout")
def test_examples_are_the_rulebook_text():
    """Every transcribed line appears in section 11 as written (no drift)."""
    text = RULEBOOK.read_text(encoding="utf-8").split("## 11. Worked examples", 1)[1]
    for lines in EXAMPLES.values():
        for line in lines:
            assert line in text, line


def test_deck_is_the_rulebook_order():
    assert len(DECK) == 56 and len(set(DECK)) == 56
    assert DECK[:10] == ("AH", "KH", "QH", "JH", "7H", "6H", "5H", "4H", "3H", "2H")
    assert DECK[30:42] == ("AV", "KV", "QV", "JV", "7V", "6V1", "6V2", "6V3", "5V", "4V", "3V", "2V")
    assert DECK[42:] == ("AL", "KL", "QL", "JL", "7L", "MIN", "RAL", "SAN", "5L", "4L", "3L", "2L", "GOD", "SATAN")
    assert list(DECK) == reference.DECK
    assert [DECK[i] for i in rules.THE_THREE] == ["MIN", "RAL", "SAN"]
    assert (DECK[rules.GOD], DECK[rules.SATAN]) == ("GOD", "SATAN")
    assert (DECK[rules.DEUCE_OF_HEAVEN], DECK[rules.DEUCE_OF_HELL]) == ("2V", "2L")


# ---------------------------------------------------------------- independent cases


@pytest.mark.parametrize(
    ("cards", "key", "shown"),
    [
        # a wild card completes a Pure Straight of Beasts (as the 6 of Beasts)
        (["3B", "4B", "5B", "7B", "SATAN", "KH"], (8, 1, 1, 19, (7, 6, 5, 4, 3)), ["7B", "5B", "4B", "3B", "SATAN"]),
        # ace-low Pure Straight: the Ace is 1 in `high`
        (["AD", "2D", "3D", "4D", "5D", "KH"], (8, 0, 0, 15, (5, 4, 3, 2, 1)), ["AD", "5D", "4D", "3D", "2D"]),
        # 2L crossed by 3V is the Ace of A-2-3-4-5 rather than a pair of deuces
        (["2L", "2H", "3V", "4D", "5B", "QH"], (4, 0, 2, 15, (5, 4, 3, 2, 1)), ["2H", "4D", "5B", "3V", "2L"]),
        # Corruption: The Three and two mortal Kings are a Full House (above Pure) of five immortal cards
        (["MIN", "RAL", "SAN", "KH", "KD", "2B"], (6, 0, 5, 38, (13, 13, 6, 6, 6)), ["KH", "KD", "MIN", "RAL", "SAN"]),
        # a crossed 2V has no suit: with four Hell cards it is no Pure, but as an Ace it pairs AL
        (["2V", "AL", "KL", "QL", "JL", "5H"], (1, 0, 2, 29, (14, 14, 13, 12, 11)), ["2V", "AL", "KL", "QL", "JL"]),
        # an uncrossed 2L keeps its suit: a Pure of Hell beats AV with the crossed 2L (a pair of Aces)
        (["2L", "KL", "QL", "7L", "4L", "AV"], (5, 0, 5, 32, (13, 12, 7, 4, 2)), ["KL", "QL", "7L", "4L", "2L"]),
        # both wild cards without Divine Intervention: GOD pairs KV on the Heaven side
        (["GOD", "KV", "QV", "3H", "SATAN", "AL"], (1, 1, 2, 22, (13, 13, 12, 3)), ["3H", "KV", "QV", "GOD"]),
    ],
)
def test_independent_cases(cards, key, shown):
    assert evaluate(cards) == key
    assert best_cards(cards) == shown
    assert reference.showdown(cards) == (key, shown)


def test_divine_intervention_shows_the_largest_legal_hand_with_both_wild_cards():
    cards = ["GOD", "KV", "QV", "3H", "SATAN", "AL"]
    assert evaluate(cards, divine_intervention=True) == (12, 1, 2, 0, ())
    assert best_cards(cards, divine_intervention=True) == ["3H", "GOD", "SATAN"]
    assert hand_name(cards, divine_intervention=True) == "Divine Intervention"


def test_fewer_cards_and_shared_cards():
    assert evaluate(["7V"]) == (0, 0, 1, 7, (7,))
    assert evaluate(["AV", "AL"]) == (0, 0, 1, 1, (14,))
    assert best_cards(["AV", "AL"]) == ["AV"]
    assert compare(["KH", "KD"], ["KH", "KD", "2B"]) == -1
    assert compare(["KH"], ["KH"]) == 0


# ---------------------------------------------------------------- the fast evaluator against the reference


def random_hands(seed: int, count: int, pool: list[str]) -> list[list[str]]:
    rng = random.Random(seed)
    return [rng.sample(pool, rng.randint(1, 6) if rng.random() < 0.2 else 6) for _ in range(count)]


def rich_pool(seed: int) -> list[str]:
    """Every immortal card with a few mortal ones: the Syncretic Rule, deuces, wilds and Corruption at work."""
    rng = random.Random(seed)
    return IMMORTALS + rng.sample(reference.MORTAL, 8)


def assert_like_reference(hands: list[list[str]], divine: bool) -> None:
    for cards in hands:
        key, shown = reference.showdown(cards, divine)
        assert evaluate(cards, divine) == key, cards
        assert best_cards(cards, divine) == shown, cards


@pytest.mark.parametrize("divine", [False, True])
def test_random_hands_match_the_reference(divine):
    assert_like_reference(random_hands(1, 100, list(DECK)), divine)


@pytest.mark.parametrize("divine", [False, True])
def test_immortal_rich_hands_match_the_reference(divine):
    assert_like_reference([hand for seed in range(10) for hand in random_hands(seed, 10, rich_pool(seed))], divine)


@pytest.mark.slow
@pytest.mark.parametrize("divine", [False, True])
def test_many_hands_match_the_reference(divine):
    assert_like_reference(random_hands(2, 4000, list(DECK)), divine)
    assert_like_reference(
        [hand for seed in range(40) for hand in random_hands(100 + seed, 100, rich_pool(seed))], divine
    )


SPECIAL_HEAVY = st.lists(
    st.sampled_from(SPECIAL * 3 + IMMORTALS + ["AH", "2H", "6H", "6D", "7B", "KD", "3B"]),
    min_size=1,
    max_size=6,
    unique=True,
)


@settings(max_examples=80, deadline=None)
@given(SPECIAL_HEAVY, st.booleans())
def test_special_cards_match_the_reference(cards, divine):
    """Wild cards, immortal deuces and The Three drawn often, with any number of cards from 1 to 6."""
    assert_like_reference([cards], divine)


def test_index_level_helpers_agree_with_the_codes_api():
    rng = random.Random(5)
    hands = random_hands(3, 100, list(DECK)) + random_hands(4, 100, rich_pool(4))
    for cards in hands:
        ids = [DECK.index(code) for code in cards]
        packed, shown = rules.showdown_ids(ids)
        assert rules.key_ids(ids) == packed and rules.unpack_key(packed) == evaluate(cards)
        assert [DECK[card] for card in shown] == best_cards(cards) and shown == sorted(shown)
        assert rules.hand_name_of(packed) == hand_name(cards) == rules.CATEGORY_NAMES[rules.category_of(packed)]
        assert rules.is_legal_ids([DECK.index(code) for code in best_cards(cards)])
    for a, b in itertools.pairwise(hands):
        ids_a, ids_b = ([DECK.index(code) for code in hand] for hand in (a, b))
        assert (rules.key_ids(ids_a) > rules.key_ids(ids_b)) - (rules.key_ids(ids_a) < rules.key_ids(ids_b)) == compare(
            a, b
        )
        assert (evaluate(a) > evaluate(b)) - (evaluate(a) < evaluate(b)) == compare(a, b)
    win, lose = [rng.randint(0, 9) for _ in range(3)], [rng.randint(0, 9) for _ in range(3)]
    cards = [hands[0][:6], None, [code for code in DECK if code not in hands[0]][:6]]
    keys = [None if hand is None else rules.key_ids([DECK.index(code) for code in hand]) for hand in cards]
    assert rules.settle_keys(win, lose, keys, 1, 4) == settle(win, lose, cards, 1, forfeit=4)


@given(
    st.lists(st.sampled_from(IMMORTALS + ["AH", "2H", "6D", "7B"]), min_size=1, max_size=5, unique=True), st.booleans()
)
def test_is_legal_hand_is_the_syncretic_rule(cards, divine):
    assert is_legal_hand(cards, divine) == reference.is_legal(cards, divine)


# ---------------------------------------------------------------- settlement over random betting


TIED_PAIRS = [  # two hands with equal keys: two mortal straights, two mortal High Cards
    (["3H", "4B", "5H", "6B", "7H", "AB"], ["3B", "4H", "5B", "6H", "7B", "AD"]),
    (["2H", "3D", "4B", "5H", "7D", "QB"], ["2D", "3B", "4H", "5D", "7B", "QH"]),
]


@st.composite
def betting_hands(draw):
    """A hand's Win/Lose stakes from random betting (folds, all-ins, every limit) and the live seats' cards."""
    n = draw(st.integers(2, 7))
    limit = draw(st.sampled_from(rules.LIMITS))
    ante, bet_size = 2 * draw(st.integers(1, 3)), draw(st.integers(1, 4))
    stacks = [draw(st.integers(ante, 60)) - ante for _ in range(n)]
    win, lose = [ante // 2] * n, [ante // 2] * n
    bet_rules = betting.BettingRules(
        unit=bet_size, max_bets=4 if limit == "fixed" else None, limit=limit, short_all_in_raise=True
    )
    folded, pot, dealer = [False] * n, ante * n, draw(st.integers(0, n - 1))
    for _ in range(draw(st.integers(0, 4))):
        bets = betting.BettingRound.open(bet_rules, stacks, folded, (dealer + 1) % n, pot)
        while not bets.finished:
            seat, before = bets.seat_to_act, bets.stacks[bets.seat_to_act]
            bets.act(bet_rules, draw(st.sampled_from(bets.options(bet_rules))))
            won, lost = split_chips(before - bets.stacks[seat], draw(st.sampled_from(rules.SPLITS)))
            win[seat], lose[seat] = win[seat] + won, lose[seat] + lost
        stacks, folded, pot = bets.stacks, bets.folded, bets.pot
    live = [seat for seat in range(n) if not folded[seat]]
    if draw(st.booleans()) and len(live) >= 2:  # ties for best or worst
        tied = draw(st.sampled_from(TIED_PAIRS))
        hands = dict(zip(draw(st.permutations(live))[:2], tied, strict=True))
        rest = [card for card in DECK if card not in tied[0] + tied[1]]
    else:
        hands, rest = {}, list(DECK)
    deck = draw(st.permutations(rest))
    cards = [None if folded[seat] else hands.get(seat) or deck[6 * seat : 6 * seat + 6] for seat in range(n)]
    return win, lose, cards, dealer, pot


@settings(max_examples=80, deadline=None)
@given(betting_hands(), st.integers(0, 20), st.booleans())
def test_settle_conserves_chips_and_follows_the_layers(hand, forfeit, divine):
    check_settlement(hand, forfeit, divine)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None)
@given(betting_hands(), st.integers(0, 20), st.booleans())
def test_settle_conserves_chips_and_follows_the_layers_long(hand, forfeit, divine):
    check_settlement(hand, forfeit, divine)


def check_settlement(hand, forfeit, divine):
    """Every chip paid (and the forfeit) is paid out, folded seats get nothing, and the layers are 6.6's."""
    win, lose, cards, dealer, pot = hand
    assert sum(win) + sum(lose) == pot
    paid = settle(win, lose, cards, dealer, divine, forfeit)
    assert sum(paid) == pot + forfeit
    assert all(chips >= 0 for chips in paid)
    assert all(paid[seat] == 0 for seat, hand in enumerate(cards) if hand is None)
    assert paid == reference.settle(win, lose, cards, dealer, divine, forfeit)


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "problem"),
    [
        (lambda: evaluate([]), "1 to 6 cards"),
        (lambda: evaluate(["AH", "KH", "QH", "JH", "7H", "6H", "5H"]), "1 to 6 cards"),
        (lambda: evaluate(["AH", "XX"]), "unknown card code 'XX'"),
        (lambda: evaluate(["AH", "AH"]), "card listed twice"),
        (lambda: evaluate("AH"), "list of card codes"),
        (lambda: evaluate(["6V"]), "unknown card code '6V'"),
        (lambda: best_cards(["10H"]), "unknown card code"),
        (lambda: hand_name([]), "1 to 6 cards"),
        (lambda: compare(["AH"], []), "b must hold 1 to 6 cards"),
        (lambda: is_legal_hand(["AH", "KH", "QH", "JH", "7H", "6H"]), "1 to 5 cards"),
        (lambda: is_legal_hand([]), "1 to 5 cards"),
        (lambda: split_chips(4, "HALF"), "unknown split 'HALF'"),
        (lambda: split_chips(-1, "WIN"), "amount"),
        (lambda: split_chips(2.5, "WIN"), "amount"),
        (lambda: rules.raise_options("spread", 8, 2, 50, 2), "limit='spread'"),
        (lambda: rules.raise_options("fixed", 8, -2, 50, 2), "to_call"),
        (lambda: rules.raise_options("no", 8, 2, None, 2), "stack"),
        (lambda: settle([1, 1], [1], [["AH"], ["KH"]], 0), "one entry per seat"),
        (lambda: settle([1, 1], [1, 1], [None, None], 0), "at least one seat"),
        (lambda: settle(2, [1, 1], [["AH"], ["KH"]], 0), "win_stakes must be a list"),
        (lambda: settle([1, 1], [1, 1], "AH KH", 0), "hands must be a list"),
        (lambda: settle([1, 1], [1, 1], ["AH", ["KH"]], 0), "hands[0] must be a list of card codes"),
        (lambda: settle([1, 1], [1, 1], [["AH"], ["AH", "KD"]], 0), "share a card"),
        (lambda: settle([1, -1], [1, 1], [["AH"], ["KH"]], 0), "win_stakes"),
        (lambda: settle([1, 1], [1, 1], [["AH"], ["KH"]], 2), "dealer=2"),
        (lambda: settle([1, 1], [1, 1], [["AH"], ["KH"]], 0, forfeit=-3), "forfeit"),
        (lambda: settle([1, 1], [1, 1], [["AH"], []], 0), "hands[1] must hold 1 to 6 cards"),
        (lambda: settle([1, 1], [1, 1], [["AH"], ["ZZ"]], 0), "unknown card code 'ZZ'"),
    ],
)
def test_bad_input_is_a_value_error_naming_the_problem(call, problem):
    with pytest.raises(ValueError, match=re.escape(problem)):
        call()
