"""Yokir's observation vector, JSON seat view, rendering and action table.

Action table (rulebook 4.0, R24), `Discrete(29)`:

| ids   | action     | when                                                          |
|-------|------------|---------------------------------------------------------------|
| 0-23  | card       | the caller's discard, or a card to play (id = deck index)     |
| 24    | PASS       | round 1 (reject the up-card) and round 2                      |
| 25-28 | SUIT(s)    | Ar, Po, At, Ph: round 1 accept (up-card's suit), round 2 call  |

Observation: float32 vector in [0, 1], seat-relative ("rel" = seats counted clockwise from
the observer, 0 = self); `SLICES` names every segment, docs/games/yokir.md tables them.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from cardarena.envs.core.game import Encoder, segment_slices

from .game import (
    NUM_ACTIONS,
    OVER,
    PASS,
    PHASE_NAMES,
    YokirGame,
    YokirState,
    bid_label,
    bidding_round,
    trick_record,
)
from .rules import DECK, NUM_PLAYERS, NUM_TRICKS, SUITS, oracle_id, sage_id

ACTION_NAMES = [*DECK.codes, "PASS", *(f"SUIT({suit})" for suit in SUITS)]
assert len(ACTION_NAMES) == NUM_ACTIONS

_SEGMENTS = [
    ("hand", 24),  # own cards
    ("up_card", 24),  # the up-card, visible to all for the whole hand
    ("discard", 24),  # own discard (caller only)
    ("played", 3 * 24),  # cards played this hand, per rel seat
    ("trick", 3 * 24),  # cards in the current trick, per rel seat
    ("phase", 5),  # bid1, discard, bid2, play, over
    ("dealer", 3),  # rel seat
    ("leader", 3),  # rel seat leading the current trick
    ("caller", 3),  # rel seat
    ("trump", 4),  # Ar, Po, At, Ph
    ("accepted", 1),  # the caller took the up-card in round 1
    ("passed_round1", 3),  # per rel seat
    ("passed_round2", 3),  # per rel seat
    ("tricks_won", 3),  # per rel seat, / 5
    ("scores", 3),  # match points per rel seat, / target_score, capped at 1 (match mode)
    ("behind_leader", 3),  # points behind the top score per rel seat, / target_score, capped at 1 (match mode)
    ("hand_number", 1),  # hands played / max_hands (match mode)
    ("match", 1),  # 1 in match mode
]


SLICES = segment_slices(_SEGMENTS)
OBSERVATION_SIZE = sum(size for _, size in _SEGMENTS)
_BLANK = np.zeros(OBSERVATION_SIZE, np.float32)
_HAND, _UP_CARD, _DISCARD, _PHASE, _TRUMP, _ACCEPTED, _HAND_NUMBER, _MATCH = (
    SLICES[name].start for name in ("hand", "up_card", "discard", "phase", "trump", "accepted", "hand_number", "match")
)


def _rel_seat_index(segment: str, width: int = 1) -> tuple[tuple[int, ...], ...]:
    """[observer][seat] -> where `seat`'s entry (or row of `width`) of a per-rel-seat segment starts."""
    start = SLICES[segment].start
    return tuple(
        tuple(start + width * ((seat - observer) % NUM_PLAYERS) for seat in range(NUM_PLAYERS))
        for observer in range(NUM_PLAYERS)
    )


def _rows_in_play_order(segment: str) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """[observer][leader] -> the card rows of a trick's players, in play order from `leader`."""
    rows = _rel_seat_index(segment, len(DECK))
    return tuple(
        tuple(
            tuple(rows[observer][(leader + position) % NUM_PLAYERS] for position in range(NUM_PLAYERS))
            for leader in range(NUM_PLAYERS)
        )
        for observer in range(NUM_PLAYERS)
    )


_PLAYED_ROWS = _rows_in_play_order("played")
_TRICK_ROWS = _rows_in_play_order("trick")
_DEALER, _LEADER, _CALLER, _PASSED_ROUND1, _PASSED_ROUND2, _TRICKS_WON, _SCORES, _BEHIND_LEADER = (
    _rel_seat_index(name)
    for name in (
        "dealer",
        "leader",
        "caller",
        "passed_round1",
        "passed_round2",
        "tricks_won",
        "scores",
        "behind_leader",
    )
)


class YokirEncoder(Encoder[YokirState]):
    game: YokirGame
    observation_size = OBSERVATION_SIZE

    def observation(self, state: YokirState, seat: int) -> np.ndarray:
        obs = _BLANK.copy()
        for card in state.hands[seat]:
            obs[_HAND + card] = 1.0
        obs[_UP_CARD + state.up_card] = 1.0
        if state.discard >= 0 and state.caller == seat:
            obs[_DISCARD + state.discard] = 1.0
        _encode_cards_played(obs, state, seat)
        obs[_PHASE + state.phase] = 1.0
        obs[_DEALER[seat][state.dealer]] = 1.0
        if state.leader >= 0:
            obs[_LEADER[seat][state.leader]] = 1.0
        if state.caller >= 0:
            obs[_CALLER[seat][state.caller]] = 1.0
            obs[_TRUMP + state.trump] = 1.0
        _encode_bids(obs, state, seat)
        for player, won in enumerate(state.tricks_won):
            obs[_TRICKS_WON[seat][player]] = won / NUM_TRICKS
        config = self.game.config
        if config.match:
            top = max(state.scores)
            for player, score in enumerate(state.scores):
                obs[_SCORES[seat][player]] = min(score / config.target_score, 1.0)
                obs[_BEHIND_LEADER[seat][player]] = min((top - score) / config.target_score, 1.0)
            obs[_HAND_NUMBER] = state.hand_number / config.max_hands
            obs[_MATCH] = 1.0
        return obs

    def seat_view(self, state: YokirState, seat: int) -> dict[str, Any]:
        codes = DECK.codes
        view: dict[str, Any] = {
            "game": self.game.env_id,
            "seat": seat,
            "hand_number": state.hand_number,
            "scores": list(state.scores),
            "dealer": state.dealer,
            "phase": PHASE_NAMES[state.phase],
            "to_act": state.to_act if state.to_act >= 0 else None,
            "hand": DECK.codes_of(state.hands[seat]),
            "up_card": codes[state.up_card],
            "bids": [
                {"seat": bidder, "round": bidding_round(i), "action": bid_label(action, bidding_round(i))}
                for i, (bidder, action) in enumerate(state.bids)
            ],
            "caller": state.caller if state.caller >= 0 else None,
            "trump": SUITS[state.trump] if state.trump >= 0 else None,
            "oracle": codes[oracle_id(state.trump)] if state.trump >= 0 else None,
            "sage": codes[sage_id(state.trump)] if state.trump >= 0 else None,
            "discard": codes[state.discard] if state.discard >= 0 and state.caller == seat else None,
            "tricks": [trick_record(trick) for trick in state.tricks],
            "trick": {"leader": state.leader if state.leader >= 0 else None, "cards": [codes[c] for c in state.trick]},
            "tricks_won": list(state.tricks_won),
            "returns": list(state.returns) if state.phase == OVER else None,
        }
        return view

    def render(self, state: YokirState, seat: int | None) -> str:
        codes = DECK.codes
        game = self.game
        lines = [
            f"{game.env_id}  hand {state.hand_number + 1}  dealer seat {state.dealer}  phase {PHASE_NAMES[state.phase]}"
            + (f"  scores {state.scores}" if game.config.match else "")
        ]
        up = f"up-card {codes[state.up_card]}"
        if state.trump >= 0:
            oracle, sage = codes[oracle_id(state.trump)], codes[sage_id(state.trump)]
            up += f"  trump {SUITS[state.trump]} (Oracle {oracle}, Sage {sage})"
            up += f"  caller seat {state.caller}"
        lines.append(up)
        for s in range(NUM_PLAYERS):
            visible = seat is None or s == seat
            hand = " ".join(DECK.codes_of(state.hands[s])) if visible else " ".join(["??"] * len(state.hands[s]))
            marker = ">" if s == state.to_act else " "
            lines.append(f"{marker} seat {s}: {hand:<20} tricks {state.tricks_won[s]}")
        if state.discard >= 0 and (seat is None or seat == state.caller):
            lines.append(f"discard (caller only): {codes[state.discard]}")
        if state.bids:
            lines.append(
                "bids: "
                + ", ".join(f"seat {b} {bid_label(a, bidding_round(i))}" for i, (b, a) in enumerate(state.bids))
            )
        if state.tricks:
            leader, *cards, winner = state.tricks[-1]
            played = ", ".join(f"{codes[c]} (seat {(leader + i) % NUM_PLAYERS})" for i, c in enumerate(cards))
            lines.append(f"last trick: {played} -> seat {winner}")
        if state.trick:
            played = ", ".join(
                f"{codes[c]} (seat {(state.leader + i) % NUM_PLAYERS})" for i, c in enumerate(state.trick)
            )
            lines.append(f"trick: {played}")
        if state.phase == OVER:
            lines.append("result: " + ", ".join(f"seat {s} {r:+.3f}" for s, r in enumerate(state.returns)))
        return "\n".join(lines)


def _encode_cards_played(obs: np.ndarray, state: YokirState, seat: int) -> None:
    """Every card played this hand in its player's `played` row; the current trick's also in `trick`."""
    played_rows = _PLAYED_ROWS[seat]
    for leader, first, second, third, _winner in state.tricks:
        first_row, second_row, third_row = played_rows[leader]
        obs[first_row + first] = 1.0
        obs[second_row + second] = 1.0
        obs[third_row + third] = 1.0
    if state.trick:
        rows = zip(played_rows[state.leader], _TRICK_ROWS[seat][state.leader])
        for (played_row, trick_row), card in zip(rows, state.trick):
            obs[played_row + card] = 1.0
            obs[trick_row + card] = 1.0


def _encode_bids(obs: np.ndarray, state: YokirState, seat: int) -> None:
    """Who passed in each round, and whether the up-card was accepted in round 1."""
    passes = 0
    for bidder, action in state.bids:
        if action == PASS:
            passed = _PASSED_ROUND1 if passes < NUM_PLAYERS else _PASSED_ROUND2
            obs[passed[seat][bidder]] = 1.0
            passes += 1
        elif passes < NUM_PLAYERS:
            obs[_ACCEPTED] = 1.0
