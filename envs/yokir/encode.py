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

from cardarena.envs.core.game import Encoder

from .game import NUM_ACTIONS, OVER, PASS, PHASE_NAMES, YokirState, bid_label, bidding_round
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
    ("scores", 3),  # match points per rel seat, / target_score (match mode)
    ("hand_number", 1),  # hands played / max_hands (match mode)
    ("match", 1),  # 1 in match mode
]


def _slices() -> dict[str, slice]:
    slices, start = {}, 0
    for name, size in _SEGMENTS:
        slices[name] = slice(start, start + size)
        start += size
    return slices


SLICES = _slices()
OBSERVATION_SIZE = sum(size for _, size in _SEGMENTS)
_OFFSET = {name: part.start for name, part in SLICES.items()}


class YokirEncoder(Encoder[YokirState]):
    observation_size = OBSERVATION_SIZE

    def observation(self, state: YokirState, seat: int) -> np.ndarray:
        obs = np.zeros(OBSERVATION_SIZE, np.float32)
        o = _OFFSET
        for card in state.hands[seat]:
            obs[o["hand"] + card] = 1.0
        obs[o["up_card"] + state.up_card] = 1.0
        if state.discard >= 0 and state.caller == seat:
            obs[o["discard"] + state.discard] = 1.0
        for leader, *cards, _winner in state.tricks:
            for position, card in enumerate(cards):
                obs[o["played"] + 24 * ((leader + position - seat) % NUM_PLAYERS) + card] = 1.0
        for position, card in enumerate(state.trick):
            rel = (state.leader + position - seat) % NUM_PLAYERS
            obs[o["played"] + 24 * rel + card] = 1.0
            obs[o["trick"] + 24 * rel + card] = 1.0
        obs[o["phase"] + state.phase] = 1.0
        obs[o["dealer"] + (state.dealer - seat) % NUM_PLAYERS] = 1.0
        if state.leader >= 0:
            obs[o["leader"] + (state.leader - seat) % NUM_PLAYERS] = 1.0
        if state.caller >= 0:
            obs[o["caller"] + (state.caller - seat) % NUM_PLAYERS] = 1.0
            obs[o["trump"] + state.trump] = 1.0
        passes = 0
        for bidder, action in state.bids:
            rel = (bidder - seat) % NUM_PLAYERS
            if action == PASS:
                obs[(o["passed_round1"] if passes < NUM_PLAYERS else o["passed_round2"]) + rel] = 1.0
                passes += 1
            elif passes < NUM_PLAYERS:
                obs[o["accepted"]] = 1.0
        config = self.game.config
        for bidder in range(NUM_PLAYERS):
            rel = (bidder - seat) % NUM_PLAYERS
            obs[o["tricks_won"] + rel] = state.tricks_won[bidder] / NUM_TRICKS
            if config.match:
                obs[o["scores"] + rel] = min(state.scores[bidder] / config.target_score, 1.0)
        if config.match:
            obs[o["hand_number"]] = state.hand_number / config.max_hands
            obs[o["match"]] = 1.0
        return obs

    def seat_view(self, state: YokirState, seat: int) -> dict[str, Any]:
        codes = DECK.codes
        view: dict[str, Any] = {
            "game": self.game.env_id,
            "seat": seat,
            "num_players": NUM_PLAYERS,
            "match": self.game.config.match,
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
            "tricks": [
                {"leader": leader, "cards": [codes[c] for c in cards], "winner": winner}
                for leader, *cards, winner in state.tricks
            ],
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
            up += f"  trump {SUITS[state.trump]} (Oracle {codes[oracle_id(state.trump)]}, Sage {codes[sage_id(state.trump)]})"
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
            lines.append("bids: " + ", ".join(f"seat {b} {bid_label(a, bidding_round(i))}" for i, (b, a) in enumerate(state.bids)))
        if state.tricks:
            leader, *cards, winner = state.tricks[-1]
            played = ", ".join(f"{codes[c]} (seat {(leader + i) % NUM_PLAYERS})" for i, c in enumerate(cards))
            lines.append(f"last trick: {played} -> seat {winner}")
        if state.trick:
            played = ", ".join(f"{codes[c]} (seat {(state.leader + i) % NUM_PLAYERS})" for i, c in enumerate(state.trick))
            lines.append(f"trick: {played}")
        if state.phase == OVER:
            lines.append("result: " + ", ".join(f"seat {s} {r:+.3f}" for s, r in enumerate(state.returns)))
        return "\n".join(lines)
