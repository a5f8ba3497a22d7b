"""Scarp states and seat views read from outside are checked before the rules see them
(`ScarpGame.check_state`)."""

from __future__ import annotations

import json

import pytest
from cardarena.envs.core.errors import SeatViewError, StateError
from cardarena.envs.scarp import game as scarp
from cardarena.envs.scarp import rules
from cardarena.envs.scarp.state import MAIN
from scarp_support import ids
from scarp_support import make as _make
from state_support import played_state


def _played_state(moves: int) -> dict:
    return played_state(_make(), moves)


def test_a_played_state_loads() -> None:
    data = _played_state(6)
    assert _make().game.state_to_json(_make().game.state_from_json(data)) == data


def test_a_card_id_out_of_the_deck_is_refused() -> None:
    data = _played_state(6)
    data["deck"][0] = -1
    with pytest.raises(StateError, match=r"'deck\[0\]' must be 0..44, got -1"):
        _make().game.state_from_json(data)


def test_a_card_in_two_places_is_refused() -> None:
    data = _played_state(6)
    data["pile"].append(data["hands"][0][0])
    with pytest.raises(StateError, match="holds card"):
        _make().game.state_from_json(data)


def test_a_bogus_pick_state_is_refused() -> None:
    data = _played_state(6)
    data["picks"] = {"picked": [1, 1]}
    with pytest.raises(StateError, match="'picks'"):
        _make().game.state_from_json(data)


def test_a_winner_before_the_end_is_refused() -> None:
    data = _played_state(6)
    data["winner"] = 0
    with pytest.raises(StateError, match="'winner'"):
        _make().game.state_from_json(data)


def test_naming_after_the_game_has_begun_is_refused() -> None:
    data = _played_state(6)
    data["phase"] = 0
    with pytest.raises(StateError, match="'phase'"):
        _make().game.state_from_json(data)


def test_a_view_of_another_phase_is_refused() -> None:
    env = _make()
    env.reset(seed=3)
    env.step(env.game.legal_actions(env.state)[0])
    env.step(env.game.legal_actions(env.state)[0])
    view = env.observe_json(env.agent_selection)
    view["phase"] = "naming"
    with pytest.raises((SeatViewError, StateError)):
        _make().load_view(view)


QUAKE_VIEW = {
    "game": "scarp_v1",
    "seat": 0,
    "settings": {"num_players": 2, "challenge_suit": "colour", "max_turns": 200},
    "phase": "combo",
    "to_act": 1,
    "turn": 0,
    "challenger": 1,
    "first_challenger": 1,
    "named": ["L", "S"],
    "revealed": ["H6", "GHOST", "S7"],
    "hand": ["L1", "D5", "D9", "H4", "H9"],
    "hand_sizes": [5, 5],
    "opponent_known": [],
    "known_by_opponent": [],
    "deck_size": 35,
    "deck": None,
    "pile": [],
    "aside": [],
    "table": [],
    "effect": None,
    "pick": "quake",
    "combo": "quake",
    "picked": [],
    "pick_size": 0,
    "shrike_played": False,
    "quake_used": False,
    "double_used": False,
    "challenge": None,
    "reverse": None,
    "stage": "none",
    "access": False,
    "reverse_failed": False,
    "winner": None,
    "reason": None,
    "returns": None,
    "last_hand": None,
    "legal_actions": [],
}
"""Seat 0's real view (seed 42, actions 0, 1, 143) just after seat 1 played QUAKE: the view reader
once dealt seat 1 the first unseen cards in deck order (L2 to L6), which hold no Quake."""


def _quake_table():
    """The table QUAKE_VIEW is seat 0's view of."""
    env = _make()
    env.reset(seed=42)
    for action in (0, 1, 143):  # seat 0 names L, seat 1 names S and, first challenger, plays QUAKE
        env.step(action)
    return env


def test_an_opponent_starting_a_quake_is_dealt_one() -> None:
    assert _quake_table().observe_json("player_0") == QUAKE_VIEW
    env = _make()
    assert env.load_view(json.loads(json.dumps(QUAKE_VIEW))) == "player_0"
    hand = env.state.hands[1]
    assert len(hand) == 5 and not set(hand) & set(ids("L1 D5 D9 H4 H9"))
    assert rules.has_combo_ids(hand, "quake")
    picks = env.game.legal_actions(env.state)
    assert picks and all(scarp.PICKS.is_pick(action) for action in picks)
    for _ in range(3):
        env.step(env.game.legal_actions(env.state)[0])
    assert env.state.phase == MAIN and env.state.quake_used and len(env.state.hands[1]) == 2


def test_an_opponent_with_one_unseen_card_is_dealt_the_one_her_emp_needs() -> None:
    """Seat 1 holds S2, S3 (seen) and one unseen card: her Emp needs a black one. The reader's first
    pass keeps three white cards (Life and the black Essences lie in the pile, so the black cards
    left come first in deck order); the search of single cards then finds a black one."""
    pile = ["H1", "H2", "H3", "H5", "H6", "H7", "H8", "H10", "STONE", "ROSE"]
    view = {**QUAKE_VIEW, "combo": "emp", "pick": "emp", "opponent_known": ["S2", "S3"], "pile": pile}
    env = _make()
    env.load_view({**view, "hand_sizes": [5, 3], "deck_size": 27})
    assert env.state.hands[1] == ids("S1 S2 S3")
    assert env.game.legal_actions(env.state) == [scarp.PICKS.pick_id(card) for card in ids("S1 S2 S3")]


def test_opponent_picks_no_deal_completes_are_refused() -> None:
    view = {**QUAKE_VIEW, "picked": ["L2", "S3"]}  # two numbers: no third card makes a Quake
    with pytest.raises(SeatViewError, match="'picks' leaves seat 1 no legal action in phase 'combo'"):
        _make().load_view(view)


def test_a_state_whose_seat_has_no_legal_action_is_refused() -> None:
    data = json.loads(json.dumps(_make().game.state_to_json(_quake_table().state)))
    unseen = sorted(data["hands"][1] + data["deck"])
    data["hands"][1], data["deck"] = unseen[:5], unseen[5:]  # L2 to L6: no Quake
    with pytest.raises(StateError, match="'phase' leaves seat 1 no legal action in phase 'combo'"):
        _make().game.state_from_json(data)
