"""The shared Scarp deck: codes, canonical order, suits, colours and the suit relations."""

from __future__ import annotations

import pytest
from cardarena.envs.core.decks import scarp


def test_canonical_order():
    assert len(scarp.DECK) == 45
    assert scarp.DECK.codes[:3] == ("L1", "L2", "L3")
    assert scarp.DECK.codes[9:11] == ("L10", "S1")
    assert scarp.DECK.codes[39:] == ("H10", "SUN", "STONE", "KNIFE", "ROSE", "GHOST")
    assert scarp.SUIT_INDEX[13] == 1 and scarp.NUMBER_INDEX[13] == 4
    assert scarp.SUIT_INDEX[44] == -1 and scarp.NUMBER_INDEX[42] == 0


@pytest.mark.parametrize(
    ("card", "suit", "number", "colour"),
    [
        ("L1", "L", 1, "white"),
        ("S10", "S", 10, "black"),
        ("D7", "D", 7, "white"),
        ("H3", "H", 3, "black"),
        ("SUN", "L", None, "white"),
        ("STONE", "S", None, "black"),
        ("KNIFE", "D", None, "white"),
        ("ROSE", "H", None, "black"),
        ("GHOST", None, None, None),
    ],
)
def test_card_attributes(card, suit, number, colour):
    assert (scarp.suit_of(card), scarp.number_of(card), scarp.colour_of(card)) == (suit, number, colour)
    assert scarp.is_numbered(card) == (number is not None)
    assert scarp.is_essence(card) == (suit is not None and number is None)


def test_suit_relations():
    assert scarp.opposite_suits("L") == scarp.opposite_suits("D") == ["S", "H"]
    assert scarp.opposite_suits("S") == scarp.opposite_suits("H") == ["L", "D"]
    assert [scarp.enemy_of(suit) for suit in scarp.SUITS] == ["S", "L", "H", "D"]
    assert [scarp.essence_of(suit) for suit in scarp.SUITS] == ["SUN", "STONE", "KNIFE", "ROSE"]


@pytest.mark.parametrize("bad", ["L0", "L11", "X1", "sun", "", "JOKER"])
def test_unknown_card_is_named(bad):
    with pytest.raises(ValueError, match="unknown card code"):
        scarp.suit_of(bad)


def test_unknown_suit_is_named():
    with pytest.raises(ValueError, match="unknown suit 'X'"):
        scarp.opposite_suits("X")
