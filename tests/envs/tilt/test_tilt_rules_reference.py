"""The fast Tilt evaluator held to the brute force over every wild assignment (tilt_reference.py):
`evaluate` and `best_key` agree on random hands (plain, and rich in pairs, runs and Command cards)
under random sets of evaluation Hazards, exhaustively where that is cheap; the four-card category
counts of the whole deck; settlement conserves chips.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
import tilt_reference as reference
from cardarena.envs.tilt import rules
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SETTINGS = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))
EVALUATION_HAZARDS = ["HULL", "TRST", "BINY", "EXPD", "JUMP", "MUTI", "TEAM", "GRAV"]
TABLE_HAZARD = {3: ["ENGB"], 4: [], 6: ["STSH"]}
COMMANDS = ["K9", "K10", "K11", "K12"]


def wild_count(cards: list[str], hazards: list[str]) -> int:
    """Wild cards the reference will try all 36 identities for (a JUMP card counted even if already wild)."""
    live = [card for card in cards if not ("HULL" in hazards and card[0] == "H")]
    wild = [
        c for c in live if ("BINY" in hazards and c[0] != "K" and c[1:] == "2") or ("EXPD" in hazards and c[0] == "K")
    ]
    return len(wild) + ("JUMP" in hazards and bool(live))


@st.composite
def hazard_sets(draw) -> tuple[int, list[str]]:
    table = draw(st.sampled_from([3, 4, 4, 6]))
    chosen = draw(st.lists(st.sampled_from(EVALUATION_HAZARDS), unique=True, max_size=4))
    return table, chosen + TABLE_HAZARD[table]


@st.composite
def rich_pool(draw) -> list[str]:
    """Every number card of two to four ranks (2s often among them) and some Command cards."""
    ranks = draw(st.lists(st.integers(1, 8), min_size=2, max_size=4, unique=True))
    commands = draw(st.lists(st.sampled_from(COMMANDS), unique=True, max_size=4))
    return [f"{suit}{rank}" for suit in "CPSH" for rank in ranks] + commands


@st.composite
def hands(draw, max_wilds: int) -> tuple[list[str], list[str]]:
    table, hazards = draw(hazard_sets())
    pool = draw(st.one_of(st.just(list(rules.CARD_CODES)), rich_pool()))
    size = draw(st.integers(max(0, table - 2), min(table, len(pool))))
    cards = draw(st.lists(st.sampled_from(pool), min_size=size, max_size=size, unique=True))
    if wild_count(cards, hazards) > max_wilds:
        cards = [card for card in cards if not (card[1:] == "2" or card[0] == "K")]
    return cards, hazards


@settings(max_examples=400, **SETTINGS)
@given(hands(max_wilds=1))
def test_evaluate_matches_the_brute_force(hand):
    cards, hazards = hand
    assert rules.evaluate(cards, hazards) == reference.evaluate(cards, hazards)


@settings(max_examples=25, **SETTINGS)
@given(hands(max_wilds=2))
def test_evaluate_matches_the_brute_force_with_two_wilds(hand):
    cards, hazards = hand
    assert rules.evaluate(cards, hazards) == reference.evaluate(cards, hazards)


@pytest.mark.slow
@settings(max_examples=3000, **SETTINGS)
@given(hands(max_wilds=3))
def test_evaluate_matches_the_brute_force_long_run(hand):
    cards, hazards = hand
    assert rules.evaluate(cards, hazards) == reference.evaluate(cards, hazards)


@pytest.mark.parametrize(
    "hazards",
    [["BINY"], ["BINY", "MUTI"], ["BINY", "TEAM"], ["BINY", "GRAV"], ["BINY", "TRST"]],
)
def test_every_hand_of_two_wild_twos_and_a_command_card(hazards):
    """Two wild 2s beside a Command card and one other card: the searches the bounds prune hardest."""
    for command, other in itertools.product(COMMANDS[::3], ["C1", "S5", "P8", "K10"]):
        cards = ["C2", "S2", command, other]
        assert rules.evaluate(cards, hazards) == reference.evaluate(cards, hazards), cards


@pytest.mark.slow
@pytest.mark.parametrize("hazards", [["BINY"], ["BINY", "MUTI", "GRAV"]])
def test_every_four_card_hand_with_one_wild_two(hazards):
    for two in ("C2", "P2", "S2", "H2"):
        others = [card for card in rules.CARD_CODES if card[1:] != "2" or card[0] == "K"]
        for rest in itertools.combinations(others, 3):
            cards = [two, *rest]
            assert rules.evaluate(cards, hazards) == reference.evaluate(cards, hazards), cards


@pytest.mark.slow
@pytest.mark.parametrize("hazards", [[], ["TRST", "HULL"], ["TEAM", "GRAV"], ["MUTI", "TEAM"]])
def test_every_four_card_hand_without_wilds(hazards):
    for cards in itertools.combinations(rules.CARD_CODES, 4):
        assert rules.evaluate(list(cards), hazards) == reference.evaluate(list(cards), hazards), cards


@pytest.mark.slow
@pytest.mark.parametrize("hazards", [["ENGB", "JUMP"], ["ENGB", "JUMP", "TRST", "HULL"]])
def test_every_three_card_wild_jump_hand(hazards):
    for cards in itertools.combinations(rules.CARD_CODES, 3):
        assert rules.evaluate(list(cards), hazards) == reference.evaluate(list(cards), hazards), cards


@st.composite
def seats(draw) -> dict:
    table, hazards = draw(hazard_sets())
    hazards = [code for code in hazards if code not in ("BINY", "EXPD", "JUMP")]
    spare = max(0, table - 2)
    own = draw(st.lists(st.sampled_from(rules.CARD_CODES), min_size=1, max_size=spare + 1, unique=True))
    rest = [card for card in rules.CARD_CODES if card not in own]
    layout = draw(st.sampled_from(["shared", "tariffs", "grid", "plain"]))
    extra = draw(st.lists(st.sampled_from(rest), min_size=11, max_size=11, unique=True))
    found = {"own": own, "hazards": hazards}
    if layout == "shared":
        found["shared"] = extra[:1]
    if layout == "tariffs":
        found["tariffs"] = extra[:2]
    if layout == "grid":
        found["grid"] = extra[:9]
    return found


@settings(max_examples=60, **SETTINGS)
@given(seats())
def test_best_key_matches_the_brute_force(seat):
    expected = reference.best_key(
        seat["own"], seat["hazards"], seat.get("shared", ()), seat.get("tariffs", ()), seat.get("grid", ())
    )
    assert rules.best_key(**seat) == expected


def test_four_card_category_counts_of_the_whole_deck():
    """R8's counts of the 58,905 four-card hands, category by category."""
    counts = Counter(rules.category(list(cards)) for cards in itertools.combinations(rules.CARD_CODES, 4))
    del counts["High Card"], counts["One Pair"]
    assert counts == {
        "Flush": 1944, "Straight": 1332, "Three of a Kind": 1024, "Two Pair": 840, "Parley": 168,
        "Straight Flush": 32, "Four of a Kind": 8, "Command": 1,
    }  # fmt: skip  # R8's table, as dense as the rulebook prints it


@settings(max_examples=200, **SETTINGS)
@given(
    st.integers(2, 6).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 12), min_size=n, max_size=n),
            st.lists(st.booleans(), min_size=n, max_size=n),
            st.lists(st.integers(0, 5), min_size=n, max_size=n),
            st.lists(st.sampled_from(rules.CARD_CODES), min_size=4 * n + 4, max_size=4 * n + 4, unique=True),
            st.integers(0, n - 1),
            st.sampled_from([[], ["GRAV"], ["FINE"], ["GRAV", "MUTI"]]),
        )
    )
)
def test_settle_conserves_chips(args):
    contributions, folded, carry, cards, dealer, hazards = args
    if all(folded):
        folded = [False] + folded[1:]
    hands = [cards[4 * seat : 4 * seat + 4] for seat in range(len(contributions))]
    dummy = cards[-4:] if "FINE" in hazards else None
    done = rules.settle(contributions, folded, hands, hazards, dealer, carry, dummy)
    assert sum(done["payouts"]) + sum(done["unawarded"]) == sum(contributions) + sum(carry)
    assert all(chips >= 0 for chips in done["payouts"] + done["unawarded"])
    assert all(done["payouts"][seat] == 0 for seat in range(len(folded)) if folded[seat])
