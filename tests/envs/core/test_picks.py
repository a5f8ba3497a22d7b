"""The pick machinery: choices of several cards as PICK(x) actions, closed by DONE or complete at a fixed size."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest
from cardarena.envs.core.cards import Deck
from cardarena.envs.core.errors import IllegalActionError
from cardarena.envs.core.picks import PickActions, PickRule, PickState
from hypothesis import given, settings
from hypothesis import strategies as st

# A toy deck: suits C, D, H of ranks 1..4; index = 4 * suit + rank - 1.
DECK = Deck([f"{suit}{rank}" for suit in "CDH" for rank in range(1, 5)])
PICKS = PickActions(DECK, first_pick=0, done=len(DECK))


def cards(*codes: str) -> list[int]:
    return DECK.indices_of(codes)


def codes(actions: list[int], layout: PickActions = PICKS) -> list[str]:
    return [layout.label(action) for action in actions]


def rank(card: int) -> int:
    return card % 4 + 1


def one_suit(chosen: frozenset[int]) -> bool:
    return len({card // 4 for card in chosen}) <= 1


def sums_to(target: int):
    return lambda chosen: sum(rank(card) for card in chosen) == target


def play(rule: PickRule, state: PickState, *labels: str) -> list[int] | None:
    """Play PICK/DONE actions named by label; what the last one returned."""
    chosen = None
    for label in labels:
        action = PICKS.done if label == "done" else PICKS.pick_id(DECK.index_of(label))
        chosen = PICKS.apply(rule, state, action)
    return chosen


def test_discard_of_any_subset_closed_by_done():
    hand = cards("C1", "C3", "D2", "D4", "H1", "H2")
    rule, state = PickRule(frozenset(hand)), PickState()
    assert codes(PICKS.legal_actions(rule, state)) == [
        "pick C1",
        "pick C3",
        "pick D2",
        "pick D4",
        "pick H1",
        "pick H2",
        "done",
    ]
    assert play(rule, state, "D4", "C1") is None
    assert codes(PICKS.legal_actions(rule, state)) == ["pick C3", "pick D2", "pick H1", "pick H2", "done"]
    with pytest.raises(IllegalActionError):
        play(rule, state, "D4")
    with pytest.raises(IllegalActionError):
        play(rule, state, "C2")
    play(rule, state, "H2", "C3", "D2", "H1")
    assert codes(PICKS.legal_actions(rule, state)) == ["done"]
    assert play(rule, state, "done") == cards("D4", "C1", "H2", "C3", "D2", "H1")
    assert state.picked == []


def test_done_with_no_pick_keeps_every_card():
    rule, state = PickRule(frozenset(cards("C1", "D1"))), PickState()
    assert play(rule, state, "done") == []


def test_max_size_caps_the_picks():
    rule, state = PickRule(frozenset(cards("C1", "C2", "C3")), max_size=2), PickState()
    play(rule, state, "C3", "C1")
    assert codes(PICKS.legal_actions(rule, state)) == ["done"]


def test_fixed_size_pick_completes_by_itself_without_done():
    hand = cards("C1", "C2", "C3", "D1", "D2", "H1")
    rule, state = PickRule.fixed(hand, 3, legal_set=one_suit, hereditary=True), PickState()
    assert codes(PICKS.legal_actions(rule, state)) == ["pick C1", "pick C2", "pick C3"]
    assert play(rule, state, "C2", "C3") is None
    assert codes(PICKS.legal_actions(rule, state)) == ["pick C1"]
    with pytest.raises(IllegalActionError):
        play(rule, state, "done")
    assert play(rule, state, "C1") == cards("C2", "C3", "C1")
    assert state.picked == []


def test_fixed_size_pick_of_any_cards():
    hand = cards("C4", "D3", "H2", "H3")
    rule, state = PickRule.fixed(hand, 2), PickState()
    assert codes(PICKS.legal_actions(rule, state)) == ["pick C4", "pick D3", "pick H2", "pick H3"]
    assert play(rule, state, "H3") is None
    assert play(rule, state, "C4") == cards("H3", "C4")
    assert not rule.done_legal(cards("H3", "C4"))


def test_mask_offers_no_dead_end_and_done_exactly_on_a_legal_set():
    """One suit summing to exactly 6: the Cs give {1,2,3} and {2,4}, the Ds {2,4}; H3 fits nothing."""
    pool = cards("C1", "C2", "C3", "C4", "D2", "D4", "H3")
    rule = PickRule(frozenset(pool), min_size=1, legal_set=lambda chosen: one_suit(chosen) and sums_to(6)(chosen))
    state = PickState()
    assert codes(PICKS.legal_actions(rule, state)) == ["pick C1", "pick C2", "pick C3", "pick C4", "pick D2", "pick D4"]
    play(rule, state, "C1")
    assert codes(PICKS.legal_actions(rule, state)) == ["pick C2", "pick C3"]  # C4 makes 5 and nothing adds 1
    play(rule, state, "C2")
    assert codes(PICKS.legal_actions(rule, state)) == ["pick C3"]
    assert play(rule, state, "C3", "done") == cards("C1", "C2", "C3")
    play(rule, state, "C4")
    assert codes(PICKS.legal_actions(rule, state)) == ["pick C2"]
    play(rule, state, "C2")
    assert codes(PICKS.legal_actions(rule, state)) == ["done"]


def test_hereditary_rule_with_a_minimum_size():
    rule = PickRule(
        frozenset(cards("C1", "C2", "D1", "H1", "H2", "H3")), min_size=2, legal_set=one_suit, hereditary=True
    )
    state = PickState()
    assert codes(PICKS.legal_actions(rule, state)) == ["pick C1", "pick C2", "pick H1", "pick H2", "pick H3"]
    play(rule, state, "H2")
    assert codes(PICKS.legal_actions(rule, state)) == ["pick H1", "pick H3"]
    play(rule, state, "H3")
    assert codes(PICKS.legal_actions(rule, state)) == ["pick H1", "done"]


def test_completable_tells_whether_a_choice_can_start():
    hand = cards("C1", "D2", "H3")
    assert not PickRule.fixed(hand, 2, legal_set=one_suit, hereditary=True).completable([])
    assert PickRule.fixed(hand, 2, legal_set=sums_to(5)).completable([])
    assert not PickRule.fixed(hand, 4).completable([])


def test_actions_at_an_offset_layout():
    layout = PickActions(DECK, first_pick=20, done=40)
    state = PickState()
    rule = PickRule.fixed(cards("C2", "H4"), 1)
    assert layout.legal_actions(rule, state) == [21, 31]
    assert [layout.label(action) for action in (21, 31, 40)] == ["pick C2", "pick H4", "done"]
    assert layout.card_of(layout.pick_id(7)) == 7
    assert layout.apply(rule, state, 31) == [11]
    with pytest.raises(ValueError, match="not a PICK id"):
        layout.card_of(40)
    with pytest.raises(ValueError, match="not a PICK id"):
        layout.label(19)
    with pytest.raises(ValueError, match="not in the 12-card deck"):
        layout.pick_id(12)


def test_done_id_among_the_pick_ids_is_refused():
    with pytest.raises(ValueError, match="DONE id 5 lies among the PICK ids 0..11"):
        PickActions(DECK, first_pick=0, done=5)


def test_picked_vector_marks_the_picks_so_far():
    state = PickState(cards("D3", "C1"))
    vector = PICKS.picked_vector(state)
    assert vector.dtype == np.float32 and vector.shape == (12,)
    assert np.flatnonzero(vector).tolist() == cards("C1", "D3")
    assert not PICKS.picked_vector(PickState()).any()


def test_clone_is_independent():
    state = PickState(cards("C1"))
    copy = state.clone()
    play(PickRule(frozenset(cards("C1", "C2"))), copy, "C2")
    assert state.picked == cards("C1")


@pytest.mark.parametrize(
    "data", [{}, {"picked": [1, 1]}, {"picked": [-1]}, {"picked": ["C1"]}, {"picked": [True]}, [1]]
)
def test_bad_pick_state_json_is_refused(data):
    with pytest.raises(ValueError, match="pick state"):
        PickState.from_json(data)


@pytest.mark.parametrize(
    ("rule", "problem"),
    [
        (dict(min_size=3, max_size=2), "min_size <= max_size"),
        (dict(min_size=1, max_size=2, done=False), "one size"),
        (dict(can_complete=lambda picked, rest: True), "give both"),
    ],
)
def test_bad_rule_is_refused(rule, problem):
    with pytest.raises(ValueError, match=problem):
        PickRule(frozenset(range(4)), **rule)


def test_search_too_large_for_an_unpruned_rule_is_refused():
    with pytest.raises(ValueError, match="hereditary or supply can_complete"):
        PickRule(frozenset(range(20)), legal_set=sums_to(10))
    PickRule(frozenset(range(20)), legal_set=one_suit, hereditary=True)


# Properties over random rules on the toy deck, checked against brute force over every subset.


def sum_oracle(target: int):
    """An exact `can_complete` for "ranks sum to target" (any size): can the rest reach what is missing?"""

    def can_complete(picked: frozenset[int], rest: frozenset[int]) -> bool:
        reachable = {0}
        for card in rest:
            reachable |= {total + rank(card) for total in reachable}
        return target - sum(rank(card) for card in picked) in reachable

    return can_complete


@st.composite
def rules(draw) -> PickRule:
    candidates = frozenset(draw(st.sets(st.integers(0, len(DECK) - 1), max_size=9)))
    target = draw(st.integers(0, 12))
    family = draw(st.sampled_from(["any", "one suit", "sum at most", "sum exactly", "sum oracle"]))
    legal = {"any": None, "one suit": one_suit, "sum at most": lambda chosen: sum(map(rank, chosen)) <= target}
    legal.update({"sum exactly": sums_to(target), "sum oracle": sums_to(target)})
    extra = {"hereditary": draw(st.booleans())} if family in ("one suit", "sum at most") else {}
    if family == "sum oracle":
        return PickRule(candidates, legal_set=legal[family], can_complete=sum_oracle(target))
    if draw(st.booleans()):
        return PickRule.fixed(candidates, draw(st.integers(1, 4)), legal[family], **extra)
    low = draw(st.integers(0, 3))
    high = draw(st.one_of(st.none(), st.integers(low, 6)))
    return PickRule(candidates, low, high, True, legal[family], **extra)


def legal_final_sets(rule: PickRule) -> list[frozenset[int]]:
    """Every legal final set, by brute force over all subsets of the candidates."""
    high = len(rule.candidates) if rule.max_size is None else rule.max_size
    subsets = (frozenset(c) for size in range(rule.min_size, high + 1) for c in combinations(rule.candidates, size))
    return [s for s in subsets if rule.legal_set is None or rule.legal_set(s)]


def expected_actions(rule: PickRule, picked: list[int], finals: list[frozenset[int]]) -> list[int]:
    chosen = frozenset(picked)
    picks = {PICKS.pick_id(card) for final in finals if chosen < final for card in final - chosen}
    done = {PICKS.done} if rule.done and chosen in finals else set()
    return sorted(picks | done)


@settings(max_examples=300, deadline=None)
@given(rules(), st.data())
def test_random_walk_ends_in_a_legal_set_and_mask_equals_brute_force(rule, data):
    finals = legal_final_sets(rule)
    state = PickState()
    assert rule.completable([]) == bool(finals)
    chosen = None
    while chosen is None and finals:
        offered = PICKS.legal_actions(rule, state)
        assert offered == expected_actions(rule, state.picked, finals)
        assert PickState.from_json(json.loads(json.dumps(state.to_json()))) == state
        picked_before = state.picked[:]
        action = data.draw(st.sampled_from(offered))
        chosen = PICKS.apply(rule, state, action)
        assert chosen is None or chosen == picked_before + ([] if action == PICKS.done else [PICKS.card_of(action)])
    assert chosen is None or frozenset(chosen) in finals
    assert state.picked == []
