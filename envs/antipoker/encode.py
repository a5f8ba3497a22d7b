"""Antipoker's observation vector, JSON seat view, rendering and action table.

Action table (the rulebook's), `Discrete(49)`:

| ids   | action   | when                                                                  |
|-------|----------|-----------------------------------------------------------------------|
| 0-44  | PICK(x)  | the draw: mark card x (id = deck index) of one's hand for discarding  |
| 45    | DONE     | the draw: discard the marked cards and draw as many                   |
| 46    | FOLD     | betting, facing a bet only                                            |
| 47    | CALL     | betting: check (nothing owed) or call                                 |
| 48    | RAISE    | betting: bet (nobody has bet) or raise, below the cap                 |

Observation: float32 vector in [0, 1], seat-relative ("rel" = seats counted clockwise from the
observer, 0 = self), padded to six seats; `SLICES` names every segment, docs/games/antipoker.md
tables them.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import Any

import numpy as np
from cardarena.envs.core import betting
from cardarena.envs.core.game import Encoder, segment_slices

from . import evaluator_reference, rules
from .game import DONE, NUM_ACTIONS, AntipokerGame, betting_record
from .rules import DECK, HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS
from .state import OVER, PHASE_NAMES, AntipokerState

ACTION_NAMES = [f"PICK({code})" for code in DECK.codes] + ["DONE", "FOLD", "CALL", "RAISE"]
assert len(ACTION_NAMES) == NUM_ACTIONS and ACTION_NAMES[DONE] == "DONE"

LARGEST_VALUE = 1_000_100  # a quad of tens with the Ghost and an Essence
BETTING_MOVES = ("check", "call", "bet", "raise", "fold")
CARDS = len(DECK)

_SEGMENTS = [
    ("hand", CARDS),  # own cards
    ("picked", CARDS),  # own cards marked for discarding during its draw
    ("discarded", CARDS),  # own discards this hand
    ("value", 1),  # own hand's value, log1p-scaled to the largest hand
    ("parts", 4),  # own cards, force, elements and sets parts, log1p-scaled the same way
    ("phase", 3),  # draw, betting, over
    ("table_size", MAX_PLAYERS - MIN_PLAYERS + 1),  # 2..6 players
    ("in_table", MAX_PLAYERS),  # per rel seat: a seat of this table
    ("dealer", MAX_PLAYERS),  # rel seat
    ("has_drawn", MAX_PLAYERS),  # per rel seat
    ("draw_count", MAX_PLAYERS),  # per rel seat: cards discarded and drawn / 6
    ("deck_size", 1),  # cards left in the deck / 45
    ("betting", 1),  # 1 when the hand has a betting round
    ("level", 1),  # current level / (max_bets * bet_size)
    ("bets_made", 1),  # bets and raises so far / max_bets
    ("owe", 1),  # chips own seat must put in to call / (max_bets * bet_size)
    ("pot_odds", 1),  # owe / (pot + owe): the share of the pot after a call that the call pays
    ("pot", 1),  # pot / (table size * most chips one seat can put in)
    ("contributed", MAX_PLAYERS),  # per rel seat: chips put in this hand / most one seat can put in
    ("folded", MAX_PLAYERS),  # per rel seat
    ("last_move", MAX_PLAYERS * len(BETTING_MOVES)),  # per rel seat: its last betting move
    ("raises", MAX_PLAYERS),  # per rel seat: its bets and raises / max_bets
    ("match", 1),  # 1 in match mode
    ("hand_number", 1),  # hands played / num_hands
    ("totals", MAX_PLAYERS),  # per rel seat: running chip total, 0.5 + 0.5 tanh(total / (4 * most per hand))
]

SLICES = segment_slices(_SEGMENTS)
OBSERVATION_SIZE = sum(size for _, size in _SEGMENTS)
_BLANK = np.zeros(OBSERVATION_SIZE, np.float32)
_AT = {name: part.start for name, part in SLICES.items()}
_LOG_LARGEST = math.log1p(LARGEST_VALUE)
(
    _HAND,
    _PICKED,
    _DISCARDED,
    _PHASE,
    _TABLE_SIZE,
    _IN_TABLE,
    _DEALER,
    _HAS_DRAWN,
    _DRAW_COUNT,
    _DECK_SIZE,
    _BETTING,
    _LEVEL,
    _BETS_MADE,
    _OWE,
    _POT_ODDS,
    _POT,
    _CONTRIBUTED,
    _FOLDED,
    _LAST_MOVE,
    _RAISES,
    _MATCH,
    _HAND_NUMBER,
    _TOTALS,
) = (_AT[name] for name, _size in _SEGMENTS if name not in ("value", "parts"))
_VALUE_AND_PARTS = slice(SLICES["value"].start, SLICES["parts"].stop)
_REL = {
    n: [[(player - seat) % n for player in range(n)] for seat in range(n)] for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)
}
_MOVE_CODE = {
    betting.CHECK: 0,
    betting.CALL: 1,
    betting.FOLD: 4,
}  # engine moves -> BETTING_MOVES; a raise is 2 (bet) or 3


class AntipokerEncoder(Encoder[AntipokerState]):
    game: AntipokerGame
    observation_size = OBSERVATION_SIZE

    def __init__(self, game: Any):
        super().__init__(game)
        config, n = game.config, game.num_players
        self._blank = _BLANK.copy()  # what every observation of this table holds
        self._blank[_TABLE_SIZE + n - MIN_PLAYERS] = 1.0
        self._blank[_IN_TABLE : _IN_TABLE + n] = 1.0
        self._blank[_BETTING] = float(config.betting)
        self._blank[_MATCH] = float(config.num_hands > 1)

    def observation(self, state: AntipokerState, seat: int) -> np.ndarray:
        obs = self._blank.copy()
        # item writes through a memoryview cost less than numpy's
        cells: memoryview[float] = memoryview(obs)  # type: ignore[arg-type]  # numpy types ndarray as a buffer from Python 3.12 only
        config = self.game.config
        n = len(state.hands)
        order = _REL[n][seat]  # order[player]: its rel seat
        hand = state.hands[seat]
        for card in hand:
            cells[_HAND + card] = 1.0
        if state.to_act == seat:
            for card in state.picked:
                cells[_PICKED + card] = 1.0
        for card in state.discarded[seat]:
            cells[_DISCARDED + card] = 1.0
        obs[_VALUE_AND_PARTS] = _scaled_parts(tuple(hand))
        cells[_PHASE + state.phase] = 1.0
        cells[_DEALER + order[state.dealer]] = 1.0
        most_in = config.ante + config.max_bets * config.bet_size
        for player in range(n):
            at = order[player]
            count = state.drawn[player]
            if count >= 0:
                cells[_HAS_DRAWN + at] = 1.0
                cells[_DRAW_COUNT + at] = count / HAND_SIZE
            cells[_CONTRIBUTED + at] = state.contributed[player] / most_in
            cells[_FOLDED + at] = state.folded[player]
            cells[_TOTALS + at] = 0.5 + 0.5 * math.tanh(state.returns[player] / (4 * most_in))
        cells[_DECK_SIZE] = len(state.deck) / CARDS
        cells[_POT] = state.pot / (n * most_in)
        if state.bets is not None:
            _encode_betting(cells, state.bets, seat, order, config.max_bets, config.bet_size)
            owe = state.bets.current_bet - state.bets.contributions[seat]
            cells[_POT_ODDS] = owe / (state.pot + owe)
        if config.num_hands > 1:
            cells[_HAND_NUMBER] = state.hand_number / config.num_hands
        return obs

    def seat_view(self, state: AntipokerState, seat: int) -> dict[str, Any]:
        codes = DECK.codes
        bets = state.bets
        over = state.phase == OVER
        return {
            "game": self.game.env_id,
            "seat": seat,
            "hand_number": state.hand_number,
            "dealer": state.dealer,
            "phase": PHASE_NAMES[state.phase],
            "to_act": state.to_act if state.to_act >= 0 else None,
            "hand": DECK.codes_of(state.hands[seat]),
            "picked": [codes[card] for card in state.picked] if state.to_act == seat else [],
            "discarded": DECK.codes_of(state.discarded[seat]),
            "draws": [count if count >= 0 else None for count in state.drawn],
            "deck_size": len(state.deck),
            "reshuffles": [{"seat": drawer, "cards": count} for drawer, count in state.reshuffles],
            "betting": betting_record(state),
            "level": bets.current_bet if bets is not None else 0,
            "bets_made": bets.bets if bets is not None else 0,
            "contributed": list(state.contributed),
            "folded": [player for player, out in enumerate(state.folded) if out],
            "pot": state.pot,
            "totals": list(state.returns),
            "shown": {str(player): DECK.codes_of(state.hands[player]) for player in state.revealed} if over else {},
            "returns": list(state.returns) if over else None,
        }

    def render(self, state: AntipokerState, seat: int | None) -> str:
        game = self.game
        config = game.config
        n = len(state.hands)
        header = f"{game.env_id}  hand {state.hand_number + (0 if state.phase == OVER else 1)}/{config.num_hands}"
        lines = [
            f"{header}  dealer seat {state.dealer}  phase {PHASE_NAMES[state.phase]}"
            f"  pot {state.pot}  deck {len(state.deck)}"
        ]
        for player in range(n):
            visible = seat is None or player == seat or (state.phase == OVER and player in state.revealed)
            cards = " ".join(DECK.codes_of(state.hands[player])) if visible else " ".join(["??"] * HAND_SIZE)
            marker = ">" if player == state.to_act else " "
            drew = "-" if state.drawn[player] < 0 else str(state.drawn[player])
            status = "folded" if state.folded[player] else f"in {state.contributed[player]}"
            line = f"{marker} seat {player}: {cards:<32} drew {drew}  {status}  total {state.returns[player]:+g}"
            if visible:
                line += f"  value {rules.value_of_ids(state.hands[player])}"
            if (seat is None or player == seat) and state.discarded[player]:
                line += f"  discarded {' '.join(DECK.codes_of(state.discarded[player]))}"
            lines.append(line)
        if state.picked and (seat is None or seat == state.to_act):
            lines.append("picked: " + " ".join(DECK.codes[card] for card in state.picked))
        record = betting_record(state)
        if record:
            lines.append("betting: " + ", ".join(f"seat {entry['seat']} {entry['action']}" for entry in record))
        return "\n".join(lines)


# Keyed by the hand, a tuple of card ids: its segments depend on those cards alone.
@lru_cache(maxsize=1 << 16)
def _scaled_parts(hand: tuple[int, ...]) -> np.ndarray:
    """The `value` and `parts` segments of a hand: log1p(value) / log1p(LARGEST_VALUE), capped at 1:
    the compiled evaluator's once it is compiled (rules.COMPILED), the reference's until then."""
    evaluator = rules.COMPILED.ready()
    if evaluator is None:
        return np.array(evaluator_reference.value_features(hand, _LOG_LARGEST), np.float32)
    return evaluator.value_features(np.array(rules.hand_row(hand), dtype=np.int64), _LOG_LARGEST)


def _encode_betting(
    cells: memoryview[float], bets: betting.BettingRound, seat: int, order: list[int], max_bets: int, bet_size: int
) -> None:
    """The level, the bets made, what the seat owes, and each seat's last move and bets and raises."""
    most_bet = max_bets * bet_size
    cells[_LEVEL] = bets.current_bet / most_bet
    cells[_BETS_MADE] = bets.bets / max_bets
    cells[_OWE] = (bets.current_bet - bets.contributions[seat]) / most_bet
    width, raised = len(BETTING_MOVES), False
    for player, move in bets.history:
        start = _LAST_MOVE + width * order[player]
        for cell in range(start, start + width):
            cells[cell] = 0.0
        if move == betting.RAISE_MIN:
            cells[start + (3 if raised else 2)] = 1.0
            cells[_RAISES + order[player]] += 1.0 / max_bets
            raised = True
        else:
            cells[start + _MOVE_CODE[move]] = 1.0
