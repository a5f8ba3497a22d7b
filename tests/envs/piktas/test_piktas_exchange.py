"""Piktas's exchange actions (envs/piktas/exchange.py): the decoding of an id, the legal ids of a
turn and what an id does, against the rulebook's action table (4.6) and rules (4.2, E41)."""

from __future__ import annotations

import random

import pytest
from cardarena.envs.piktas import rules
from cardarena.envs.piktas.exchange import (
    ACTION_POSITION,
    ACTION_SLOT,
    EXCHANGE_POSITIONS,
    NUM_EXCHANGE_ACTIONS,
    PASS,
    exchange_id,
    legal_exchange_ids,
    play_exchange,
    slot_and_position,
)
from cardarena.envs.piktas.rules import HAND_SIZE
from piktas_env_support import codes, ids


def test_every_slot_and_position_has_one_id_of_the_rulebook_table():
    pairs = [(slot, position) for slot in range(HAND_SIZE) for position in range(EXCHANGE_POSITIONS)]
    assert sorted(exchange_id(*pair) for pair in pairs) == list(range(1, NUM_EXCHANGE_ACTIONS)) == list(range(1, 31))
    for slot, position in pairs:
        action = exchange_id(slot, position)
        assert action == 1 + 5 * slot + position  # 4.6
        assert slot_and_position(action) == (slot, position) == (ACTION_SLOT[action], ACTION_POSITION[action])
    assert (ACTION_SLOT[PASS], ACTION_POSITION[PASS]) == (-1, -1)


def test_e41_a_swap_then_a_void_laid():
    hand, positions = sorted(ids("O3 O4 O5 O6 K2 V1")), [ids("O7"), ids("W5"), ids("TOW1")]
    assert play_exchange(hand, positions, exchange_id(4, 0)) == tuple(ids("K2 O7"))  # E43b: id 21
    assert codes(hand) == ["O3", "O4", "O5", "O6", "O7", "V1"]
    assert [codes(stack) for stack in positions] == [["K2"], ["W5"], ["TOW1"]]
    assert play_exchange(hand, positions, exchange_id(5, 2)) == (rules.DECK.index("V1"), -1)
    assert codes(hand) == ["O3", "O4", "O5", "O6", "O7"]
    assert [codes(stack) for stack in positions] == [["K2"], ["W5"], ["TOW1", "V1"]]
    assert play_exchange(hand, positions, PASS) == (-1, -1)
    assert len(hand) == 5


def test_legal_ids_are_the_rulebook_moves_and_nothing_else():
    rng = random.Random(7)
    for _ in range(300):
        cards = rng.sample(range(rules.FIRST_VOID), 11)
        voids = list(rules.VOIDS)
        size, voids_held = rng.randint(4, HAND_SIZE), rng.randint(0, 2)
        hand = sorted(cards[: size - voids_held] + [voids.pop() for _ in range(voids_held)])
        positions = [[card] for card in cards[HAND_SIZE : HAND_SIZE + rng.randint(1, EXCHANGE_POSITIONS)]]
        for stack in rng.sample(positions, min(len(voids), len(positions), rng.randint(0, 2))):
            stack.append(voids.pop())  # a void laid on it: covered
        legal = legal_exchange_ids(hand, positions)
        moves = {
            rules.move_label(hand[slot], positions[position][0]) for slot, position in map(slot_and_position, legal[1:])
        }
        assert legal[0] == PASS and legal == sorted(legal)
        assert sorted(["pass", *moves]) == rules.legal_actions(codes(hand), [codes(stack) for stack in positions])


@pytest.mark.parametrize("field", [["O1", "O2", "O3", "O4", "O5", "O6"], ["O1 V1", "O2", "O3", "O4", "O5", "O6 V2"]])
def test_a_sixth_position_has_no_id(field):
    positions = [ids(stack) for stack in field]
    named = [position for position in range(EXCHANGE_POSITIONS) if len(positions[position]) == 1]
    expected = [PASS] + [exchange_id(slot, position) for slot in range(HAND_SIZE) for position in named]
    assert legal_exchange_ids(ids("K1 K2 K3 K4 K5 K6"), positions) == expected
