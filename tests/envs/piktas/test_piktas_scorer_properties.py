"""Piktas scorer against the brute-force reference: `rules.evaluate` and `rules.unit_points` agree
with `piktas_reference` on random pools and card sets (plain and rich in runs, trumps and sets),
under every scoring flag; `score`, `winners` and card order agree with `evaluate`.
"""

from __future__ import annotations

import itertools

import pytest
from cardarena.envs.piktas.rules import evaluate, score, unit_points, winners
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from piktas_reference import KINDS, PIPS, SUITS, TRUMPS, reference_evaluate, reference_unit_points

SETTINGS = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))
FLAG_SETS = [
    dict(zip(("trump_multi_unit", "highest_unit_only", "wild_voids"), values, strict=True))
    for values in itertools.product([True, False], repeat=3)
]
TAME = [flags for flags in FLAG_SETS if not flags["wild_voids"]]
WILD = [flags for flags in FLAG_SETS if flags["wild_voids"]]
VOID_SETS = [[], ["V1"], ["V2"], ["V1", "V2"]]
WILD_PAIR_BUDGET = 6  # real cards beside two wild voids: the reference tries 1,275 identity pairs


def _pips_of(suits, values=range(1, 11)) -> list[str]:
    return [f"{suit}{value}" for suit in suits for value in values]


def _trumps_touching(suits) -> list[str]:
    return [t for t in TRUMPS if t[1] in suits or t[2] in suits]


def _trumps_within(suits) -> list[str]:
    return [t for t in TRUMPS if t[1] in suits and t[2] in suits]


# ---------------------------------------------------------------- where the cards come from


@st.composite
def few_suits(draw) -> list[str]:
    """Pips of two or three suits, with the trumps inside those suits or touching them."""
    suits = draw(st.sampled_from([2, 3]).flatmap(lambda k: st.sampled_from(list(itertools.combinations(SUITS, k)))))
    trumps = draw(st.sampled_from([_trumps_within, _trumps_touching]))(suits)
    return _pips_of(suits) + trumps


@st.composite
def many_trumps(draw) -> list[str]:
    """Three to eight trumps and pips to make twelve cards."""
    trumps = draw(st.lists(st.sampled_from(TRUMPS), min_size=3, max_size=8, unique=True))
    pips = draw(st.lists(st.sampled_from(PIPS), min_size=12 - len(trumps), max_size=12 - len(trumps), unique=True))
    return trumps + pips


@st.composite
def long_runs(draw) -> list[str]:
    """Pips of one or two suits over a window of six to eight values, and trumps carrying those suits."""
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=2, unique=True))
    width = draw(st.integers(6, 8))
    low = draw(st.integers(1, 11 - width))
    caps = draw(st.lists(st.sampled_from(_trumps_touching(suits)), max_size=5, unique=True))
    return _pips_of(suits, range(low, low + width)) + caps


@st.composite
def equal_values(draw) -> list[str]:
    """Every pip of two to four values, and a few trumps (sets, Value Sequences across suits)."""
    values = draw(st.lists(st.integers(1, 10), min_size=2, max_size=4, unique=True))
    trumps = draw(st.lists(st.sampled_from(TRUMPS), max_size=3, unique=True))
    return _pips_of(SUITS, values) + trumps


def _pair(a: str, b: str) -> str:
    return "".join(sorted(a + b, key=SUITS.index))


@st.composite
def run_shape(draw) -> list[str]:
    """Pips of consecutive values from one or more suits, and up to two trumps touching those suits."""
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=1, max_size=3, unique=True))
    length = draw(st.integers(4, 9))
    low = draw(st.integers(1, 11 - length))
    pips = [f"{draw(st.sampled_from(suits))}{value}" for value in range(low, low + length)]
    caps = draw(st.sampled_from([0, 1, 2, 2]))
    return pips + draw(st.lists(st.sampled_from(_trumps_touching(suits)), min_size=caps, max_size=caps, unique=True))


@st.composite
def chain_shape(draw) -> list[str]:
    """Segments of one to four pips of one suit, neighbours joined by a trump of their two suits."""
    suits = draw(st.lists(st.sampled_from(SUITS), min_size=2, max_size=4))
    cards: list[str] = []
    for k, suit in enumerate(suits):
        length = draw(st.sampled_from([1, 2, 2, 3, 4]))
        low = draw(st.integers(1, 11 - length))
        cards += _pips_of([suit], range(low, low + length))
        if k + 1 < len(suits) and suits[k + 1] != suit:
            cards.append(f"T{_pair(suit, suits[k + 1])}{draw(st.sampled_from('12'))}")
    return list(dict.fromkeys(cards))


@st.composite
def set_shape(draw) -> list[str]:
    """Two to five pips of one value, or two trumps of one pair."""
    if draw(st.booleans()):
        value = draw(st.integers(1, 10))
        return draw(st.lists(st.sampled_from(_pips_of(SUITS, [value])), min_size=2, max_size=5, unique=True))
    pair = draw(st.sampled_from(TRUMPS))[:3]
    return [f"{pair}1", f"{pair}2"]


@st.composite
def suit_shape(draw) -> list[str]:
    """Six to nine cards of one suit: its pips and the trumps carrying it."""
    suit = draw(st.sampled_from(SUITS))
    own = _pips_of([suit]) + _trumps_touching([suit])
    return draw(st.lists(st.sampled_from(own), min_size=6, max_size=9, unique=True))


SHAPE_KINDS = {"run": run_shape(), "chain": chain_shape(), "set": set_shape(), "suit": suit_shape()}
SHAPES = st.one_of(*SHAPE_KINDS.values())


@st.composite
def near_units(draw, shapes=SHAPES) -> list[str]:
    """A unit-like shape, sometimes with one card dropped or one stray card added."""
    cards = draw(shapes)
    change = draw(st.sampled_from(["keep", "keep", "drop", "add"]))
    if change == "drop" and len(cards) > 1:
        cards.pop(draw(st.integers(0, len(cards) - 1)))
    if change == "add":
        cards = list(dict.fromkeys(cards + [draw(st.sampled_from(PIPS + TRUMPS))]))
    return draw(st.permutations(cards))


@st.composite
def stacked_units(draw) -> list[str]:
    """Two or three unit shapes sharing a pool of twelve cards, topped up with any cards."""
    shapes = draw(st.lists(SHAPES, min_size=2, max_size=3))
    cards = list(dict.fromkeys(card for shape in shapes for card in shape))[:12]
    rest = [card for card in PIPS + TRUMPS if card not in cards]
    return cards + draw(st.permutations(rest))[: 12 - len(cards)]


ANY_CARDS = st.just(PIPS + TRUMPS)
RICH_CARDS = st.one_of(few_suits(), many_trumps(), long_runs(), equal_values(), stacked_units())


# ---------------------------------------------------------------- pools


@st.composite
def pools(draw, sources, *, wild: bool = False, full: bool = False) -> tuple[list[str], list[str]]:
    """(hand, field): a hand of 0-6 cards and a field of 0-6 cards (6 and 6 when full), voids anywhere."""
    cards = draw(st.permutations(draw(sources)))
    voids = draw(st.sampled_from(VOID_SETS))
    in_hand = [v for v in voids if draw(st.booleans())]
    in_field = [v for v in voids if v not in in_hand]
    budget = WILD_PAIR_BUDGET if wild and len(voids) == 2 else 12
    hand_size = 6 - len(in_hand) if full else draw(st.integers(0, 6 - len(in_hand)))
    hand_size = min(hand_size, budget, len(cards))
    field_size = 6 if full else draw(st.integers(0, 6))
    field_size = min(field_size, budget - hand_size, len(cards) - hand_size)
    hand = cards[:hand_size] + in_hand
    field = cards[hand_size : hand_size + field_size] + in_field
    return draw(st.permutations(hand)), draw(st.permutations(field))


def _agree(hand, field, flags) -> None:
    got = evaluate(hand, field, **flags)
    want = reference_evaluate(hand, field, **flags)
    assert got == want, f"evaluate({hand}, {field}, **{flags}) = {got}, reference {want}"


def _flag_id(flags) -> str:
    return "-".join(name for name, on in flags.items() if on) or "plain"


@pytest.mark.parametrize("flags", TAME, ids=_flag_id)
@settings(max_examples=40, **SETTINGS)
@given(pool=pools(st.one_of(ANY_CARDS, RICH_CARDS)))
def test_evaluate_matches_reference_on_random_pools(flags, pool):
    _agree(*pool, flags)


@settings(max_examples=25, **SETTINGS)
@given(pool=pools(st.one_of(ANY_CARDS, RICH_CARDS), wild=True), flags=st.sampled_from(WILD))
def test_evaluate_matches_reference_with_wild_voids(pool, flags):
    _agree(*pool, flags)


@settings(max_examples=120, **SETTINGS)
@given(pool=pools(RICH_CARDS, full=True), flags=st.sampled_from(TAME))
def test_evaluate_matches_reference_on_rich_full_pools(pool, flags):
    """Full twelve-card pools from few suits, many trumps, long runs or many equal values (no wild voids)."""
    _agree(*pool, flags)


# ---------------------------------------------------------------- single units


@st.composite
def unit_shaped(draw) -> list[str]:
    """Near-units of every kind, or two to twelve cards from a rich source."""
    cards = draw(st.one_of(RICH_CARDS, ANY_CARDS))
    size = draw(st.sampled_from([2, 3, 4, 5, 6, 7, 8, 10, 12]))
    return draw(st.one_of(near_units(), st.permutations(cards).map(lambda order: order[:size])))


def _units_agree(cards) -> None:
    for kind in KINDS:
        got, want = unit_points(kind, cards), reference_unit_points(kind, cards)
        assert got == want, f"unit_points({kind!r}, {cards}) = {got}, reference {want}"


@pytest.mark.parametrize("shape", SHAPE_KINDS)
@settings(max_examples=100, **SETTINGS)
@given(data=st.data())
def test_unit_points_matches_reference_on_near_units(shape, data):
    _units_agree(data.draw(near_units(SHAPE_KINDS[shape])))


@settings(max_examples=100, **SETTINGS)
@given(cards=unit_shaped())
def test_unit_points_matches_reference_on_any_cards(cards):
    _units_agree(cards)


# ---------------------------------------------------------------- metamorphic


@settings(max_examples=60, **SETTINGS)
@given(pool=pools(st.one_of(ANY_CARDS, RICH_CARDS)), flags=st.sampled_from(TAME), data=st.data())
def test_score_is_total_and_card_order_does_not_matter(pool, flags, data):
    hand, field = pool
    result = evaluate(hand, field, **flags)
    assert score(hand, field, **flags) == result[0]
    shuffled = evaluate(data.draw(st.permutations(hand)), data.draw(st.permutations(field)), **flags)
    assert shuffled == result


@st.composite
def tables(draw) -> tuple[list[list[str]], list[str]]:
    """Two to four hands of up to six cards and a field of up to six, all distinct."""
    cards = draw(st.permutations(draw(st.one_of(ANY_CARDS, RICH_CARDS)) + ["V1", "V2"]))
    seats = draw(st.integers(2, 4))
    sizes = [draw(st.integers(0, 6)) for _ in range(seats + 1)]
    cuts = list(itertools.accumulate(sizes, initial=0))
    parts = [cards[a:b] for a, b in itertools.pairwise(cuts)]
    return parts[:-1], parts[-1]


@settings(max_examples=60, **SETTINGS)
@given(table=tables(), flags=st.sampled_from(TAME))
def test_winners_hold_the_greatest_evaluation(table, flags):
    hands, field = table
    keys = [evaluate(hand, field, **flags) for hand in hands]
    assert winners(hands, field, **flags) == [seat for seat, key in enumerate(keys) if key == max(keys)]


# ---------------------------------------------------------------- long runs


@pytest.mark.slow
@pytest.mark.parametrize("sources", [ANY_CARDS, RICH_CARDS], ids=["whole-deck", "rich"])
@pytest.mark.parametrize("flags", TAME, ids=_flag_id)
@settings(max_examples=2_500, **SETTINGS)
@given(data=st.data())
def test_slow_evaluate_matches_reference_on_full_pools(sources, flags, data):
    """20,000 twelve-card pools: 10,000 from the whole deck, 10,000 rich in runs, trumps or sets."""
    _agree(*data.draw(pools(sources, full=True)), flags)


@pytest.mark.slow
@pytest.mark.parametrize("flags", WILD, ids=_flag_id)
@settings(max_examples=150, **SETTINGS)
@given(pool=pools(st.one_of(ANY_CARDS, RICH_CARDS), wild=True))
def test_slow_evaluate_matches_reference_with_wild_voids(flags, pool):
    _agree(*pool, flags)


@pytest.mark.slow
@pytest.mark.parametrize("shape", SHAPE_KINDS)
@settings(max_examples=1_500, **SETTINGS)
@given(data=st.data())
def test_slow_unit_points_matches_reference_on_near_units(shape, data):
    _units_agree(data.draw(near_units(SHAPE_KINDS[shape])))


@pytest.mark.slow
@settings(max_examples=2_000, **SETTINGS)
@given(cards=unit_shaped())
def test_slow_unit_points_matches_reference_on_any_cards(cards):
    _units_agree(cards)
