"""Dividha's observation vector, JSON seat view and rendering (the action table is actions.py).

Observation: float32 vector in [0, 1], seat-relative ("rel" = seats counted clockwise from the
observer, 0 = self), padded to 7 seats; `SLICES` names every segment, docs/games/dividha.md
tables them. Chip amounts are divided by the chips at the table (`starting_stack` x seats).
The seat's own hand key (the best hand of the cards it holds now) is computed once per card set,
its card segments are kept until a card moves, and the table's numbers are written by compiled
code (table_writer.py).
"""

from __future__ import annotations

import struct
from array import array
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

import numpy as np
from cardarena.envs.core.betting import BettingRound
from cardarena.envs.core.game import Encoder, segment_slices

from . import rules
from .actions import SPLITS, TRADE_CHOICES
from .game import LAST_ROUND, MAX_PLAYERS, MIN_PLAYERS, NUM_CARDS, DividhaGame, public_discards
from .state import BETTING, EMPTY, NUM_SLOTS, OVER, PHASE_NAMES, PUBLIC_SLOTS, SLOT_NAMES, TRADING, DividhaState

NUM_CATEGORIES = 13
HIGH_CARDS = 5
IMMORTAL_SCALE = 5.0
SUM_SCALE = 50.0
HIGH_SCALE = 14.0
COUNT_SCALE = 8.0  # calls or raises of one seat in a hand

_SEGMENTS = [
    ("own_slots", NUM_SLOTS * NUM_CARDS),  # slot k (P1 P2 U1 U2 P3 P4): the card in it
    ("public_cards", MAX_PLAYERS * NUM_CARDS),  # per rel seat: its face-up cards (U1, U2)
    ("gone", NUM_CARDS),  # cards known to be out of play: public cards traded in, own cards traded in
    ("held", 1),  # own cards held / 6
    ("category", NUM_CATEGORIES),  # own best hand now: category one-hot (none before a deal)
    ("key", 3 + HIGH_CARDS),  # providence, immortal / 5, majority sum / 50, high values / 14
    ("table_size", MAX_PLAYERS - MIN_PLAYERS + 1),  # one-hot, 2..7
    ("dealer", MAX_PLAYERS),  # rel seat
    ("to_act", MAX_PLAYERS),  # rel seat
    ("phase", len(PHASE_NAMES)),  # betting, trading, over
    ("round", LAST_ROUND + 1),  # betting round: Demon's Wager, 1, 2, 3
    ("stacks", MAX_PLAYERS),
    ("paid", MAX_PLAYERS),  # chips put in this hand
    ("in_round", MAX_PLAYERS),  # chips put in this betting round
    ("folded", MAX_PLAYERS),
    ("all_in", MAX_PLAYERS),
    ("in_match", MAX_PLAYERS),
    ("traded_slots", MAX_PLAYERS * 4),  # per rel seat: P1 P2 U1 U2 traded in
    ("has_traded", MAX_PLAYERS),
    ("raises", MAX_PLAYERS),  # bets and raises this hand / 8
    ("calls", MAX_PLAYERS),  # calls this hand / 8
    ("tablet", 2),  # own Win and Lose stakes
    ("pot", 1),
    ("forfeit", 1),
    ("to_call", 1),
    ("current_bet", 1),
    ("min_raise", 1),
    ("bets_made", 1),  # bets and raises this round / max_bets (fixed) or / 8
    ("raise_sizes", 4),  # seat to act: chips each raise option MIN HALF_POT POT ALL_IN adds (0: no such option)
    ("ante", 1),  # / starting_stack
    ("hand_number", 1),  # hands played / max_hands (match)
    ("match", 1),
]

SLICES = segment_slices(_SEGMENTS)
OBSERVATION_SIZE = sum(size for _, size in _SEGMENTS)
_START = {name: piece.start for name, piece in SLICES.items()}
(
    _OWN,
    _PUBLIC,
    _GONE,
    _HELD,
    _TABLE_SIZE,
    _DEALER,
    _TO_ACT,
    _PHASE,
    _ROUND,
    _STACKS,
    _PAID,
    _IN_ROUND,
    _FOLDED,
    _ALL_IN,
    _IN_MATCH,
    _TRADED_SLOTS,
    _HAS_TRADED,
    _RAISES,
    _CALLS,
    _TABLET,
    _FORFEIT,
    _TO_CALL,
    _RAISE_SIZES,
    _ANTE,
    _HAND_NUMBER,
    _MATCH,
) = (
    _START[name]
    for name in (
        "own_slots",
        "public_cards",
        "gone",
        "held",
        "table_size",
        "dealer",
        "to_act",
        "phase",
        "round",
        "stacks",
        "paid",
        "in_round",
        "folded",
        "all_in",
        "in_match",
        "traded_slots",
        "has_traded",
        "raises",
        "calls",
        "tablet",
        "forfeit",
        "to_call",
        "raise_sizes",
        "ante",
        "hand_number",
        "match",
    )
)
_OWN_AT = tuple(_OWN + slot * NUM_CARDS for slot in range(NUM_SLOTS))  # + card: the one of own slot k
_PUBLIC_AT = tuple(_PUBLIC + r * NUM_CARDS for r in range(MAX_PLAYERS))  # + card: a public card of rel seat r
_KEY_PART = NUM_CATEGORIES + 3 + HIGH_CARDS
# per rel seat r and trade choice: the `has_traded` cell and the `traded_slots` cells it sets
_TRADED_AT = tuple(
    tuple((_HAS_TRADED + r, *(_TRADED_SLOTS + 4 * r + slot for slot in slots)) for slots in TRADE_CHOICES)
    for r in range(MAX_PLAYERS)
)
assert (_START["category"], _START["key"]) == (
    _HELD + 1,
    _HELD + 1 + NUM_CATEGORIES,
)  # `hand_features` writes the three at once
assert [_START[name] - _TABLET for name in ("pot", "to_call", "current_bet", "min_raise", "bets_made")] == [
    2,
    4,
    5,
    6,
    7,
]
_BLANK = array("f", bytes(4 * OBSERVATION_SIZE))


# positions in `DividhaEncoder._table_row` (read by table_writer.py); the per-seat blocks start at _ROW_SEATS
(
    _ROW_SEAT,
    _ROW_PHASE,
    _ROW_DEALER,
    _ROW_ROUND,
    _ROW_ROUND_TO_ACT,
    _ROW_CURRENT_BET,
    _ROW_OWN_BET,
    _ROW_MIN_RAISE,
    _ROW_BETS,
    _ROW_TRADING_TO_ACT,
    _ROW_WIN,
    _ROW_LOSE,
    _ROW_POT,
    _ROW_FORFEIT,
    _ROW_ANTE,
    _ROW_HAND_NUMBER,
    _ROW_RAISE_SIZES,
) = range(17)
_ROW_SEATS = _ROW_RAISE_SIZES + 4
_SEAT_BLOCKS = 7  # stacks, paid, in_round, in_match, folded, raises, calls
_NO_RAISES = (0, 0, 0, 0)


@lru_cache(maxsize=1 << 14)
def hand_features(slots: tuple[int, ...], divine_intervention: bool) -> array:
    """The `held`, `category` and `key` segments for the cards in a seat's slots (cached: a
    seat's cards change only at deals and trades)."""
    held = [card for card in slots if card != EMPTY]
    return _key_features(len(held), rules.key_ids(held, divine_intervention) if held else -1)


@lru_cache(maxsize=1 << 14)
def _key_features(held: int, packed: int) -> array:
    """`hand_features` of `held` cards whose best hand has the packed key `packed` (-1: no cards)."""
    features = array("f", bytes(4 * (1 + _KEY_PART)))
    features[0] = held / NUM_SLOTS
    if held:
        category, providence, immortal, total, high = rules.unpack_key(packed)
        features[1 + category] = 1.0
        key = [
            providence,
            immortal / IMMORTAL_SCALE,
            min(total / SUM_SCALE, 1.0),
            *[value / HIGH_SCALE for value in high],
        ]
        features[1 + NUM_CATEGORIES : 1 + NUM_CATEGORIES + len(key)] = array("f", key)
    return features


class DividhaEncoder(Encoder[DividhaState]):
    observation_size = OBSERVATION_SIZE
    game: DividhaGame

    def __init__(self, game: DividhaGame):
        super().__init__(game)
        config, n = game.config, game.num_players
        self._divine = config.divine_intervention
        blank = array("f", _BLANK)  # what every observation at this table starts from
        blank[_TABLE_SIZE + n - MIN_PLAYERS] = 1.0
        blank[_MATCH] = float(config.match)
        self._blank = blank
        self._clockwise = [
            tuple(enumerate((seat + r) % n for r in range(n))) for seat in range(n)
        ]  # (rel seat r, seat)
        self._public_at = [tuple((_PUBLIC_AT[r], other) for r, other in clockwise) for clockwise in self._clockwise]
        cap = config.max_bets if config.limit == "fixed" else COUNT_SCALE
        self._scales = np.array(
            [1.0 / (config.starting_stack * n), cap, config.starting_stack, config.max_hands if config.match else 0.0]
        )
        self._no_chips = [0] * n
        self._row = struct.Struct(f"{_ROW_SEATS + _SEAT_BLOCKS * n}q")
        from .table_writer import write_table  # here, not at import: importing the game loads no numba

        self._write_table = write_table
        self._counted: tuple[list[Any], int, list[int], list[int]] = ([], 0, [0] * n, [0] * n)
        self._card_parts: list[tuple[Any, int, int, array]] = [(None, -1, -1, blank)] * n  # per seat, see `_card_part`

    def observation(self, state: DividhaState, seat: int) -> np.ndarray:
        """The seat's card segments (kept per seat until a card moves) with the table's numbers
        written over them by compiled code (table_writer.py) from one int64 row (`_table_row`)."""
        vector = np.frombuffer(self._card_part(state, seat)[:], np.float32)
        self._write_table(vector, np.frombuffer(self._table_row(state, seat), np.int64), self._scales)
        return vector

    def _table_row(self, state: DividhaState, seat: int) -> bytes:
        """What `write_table` reads, packed as int64 in the order of its `_ROW_*` positions: the
        hand's numbers, the open betting round's (-1 and zeros when none is open), then per seat its
        stack, chips paid this hand and this round, whether it plays and folded, its raises and calls."""
        raises, calls = self._counts(state)
        bets = state.bets
        if bets is None:
            round_number = round_to_act = -1
            current = own_bet = min_raise = made = 0
            in_round, increments = self._no_chips, _NO_RAISES
        else:
            round_number, round_to_act, current, min_raise, made = (
                state.betting_round,
                bets.to_act[0],
                bets.current_bet,
                bets.min_raise,
                bets.bets,
            )
            in_round = bets.contributions
            own_bet = in_round[seat]
            increments = self.game.decision(state).raise_sizes if round_to_act == seat else _NO_RAISES
        trading_to_act = self.game.current_player(state) if state.phase == TRADING else -1
        return self._row.pack(
            seat, state.phase, state.dealer, round_number, round_to_act, current, own_bet, min_raise, made, trading_to_act,
            state.win[seat], state.lose[seat], state.pot, state.forfeit, state.ante, state.hand_number, *increments,
            *state.stacks, *state.paid, *in_round, *state.in_match, *state.folded, *raises, *calls,
        )  # fmt: skip

    def _card_part(self, state: DividhaState, seat: int) -> array:
        """The table's blank observation with the segments that change only when cards move set
        for `seat`: own and public cards, the hand features, who traded what and the cards known
        gone. Kept per seat until they change: a new hand deals into new `cards` lists, every deal
        and trade takes cards from the stock, and every trade (standing pat too) moves `turn`."""
        cards = state.cards
        kept, stock_size, turn, part = self._card_parts[seat]
        if kept is cards and stock_size == len(state.stock) and turn == state.turn:
            return part
        part = self._blank[:]
        if cards:
            own = cards[seat]
            for at, card in zip(_OWN_AT, own):
                if card != EMPTY:
                    part[at + card] = 1.0
            for at, other in self._public_at[seat]:
                slots = cards[other]
                if slots[2] != EMPTY:
                    part[at + slots[2]] = 1.0
                    part[at + slots[3]] = 1.0
            part[_HELD : _HELD + 1 + _KEY_PART] = hand_features(tuple(own), self._divine)
        for at in self._trades(state, seat):
            part[at] = 1.0
        self._card_parts[seat] = (cards, len(state.stock), state.turn, part)
        return part

    def _trades(self, state: DividhaState, seat: int) -> Iterator[int]:
        """Per seat that traded, its `has_traded` and `traded_slots` cells, and the `gone` cells of
        the cards `seat` knows it traded in."""
        trades = state.trades
        for r, other in self._clockwise[seat]:
            choice = trades[other]
            if choice >= 0:
                yield from _TRADED_AT[r][choice]
                for card in state.discards[seat] if other == seat else public_discards(state, other):
                    yield _GONE + card

    def _counts(self, state: DividhaState) -> tuple[list[int], list[int]]:
        """Bets and raises, and calls, of each seat this hand (counted as the hand's actions come)."""
        actions, counted, raises, calls = self._counted
        if actions is not state.actions or counted > len(actions):
            actions, counted, raises, calls = state.actions, 0, [0] * self.game.num_players, [0] * self.game.num_players
        for record in actions[counted:]:
            kind = record[2]
            if kind == "raise":
                raises[record[0]] += 1
            elif kind == "call":
                calls[record[0]] += 1
        self._counted = (actions, len(actions), raises, calls)
        return raises, calls

    def seat_view(self, state: DividhaState, seat: int) -> dict[str, Any]:
        game = self.game
        to_act = game.current_player(state)
        codes = rules.DECK
        return {
            "game": game.env_id,
            "seat": seat,
            "hand": state.hand_number,
            "dealer": state.dealer,
            "ante": state.ante,
            "phase": PHASE_NAMES[state.phase],
            "round": state.betting_round if state.phase == BETTING else None,
            "to_act": to_act if to_act >= 0 else None,
            "in_match": list(state.in_match),
            "stacks": list(state.stacks),
            "paid": list(state.paid),
            "folded": list(state.folded),
            "pot": state.pot,
            "forfeit": state.forfeit,
            "stock_size": len(state.stock),
            "cards": {
                name: (codes[card] if card != EMPTY else None) for name, card in zip(SLOT_NAMES, state.cards[seat])
            },
            "dealt": [[name for name, card in zip(SLOT_NAMES, slots) if card != EMPTY] for slots in state.cards],
            "public": [
                [codes[slots[slot]] if slots[slot] != EMPTY else None for slot in PUBLIC_SLOTS] for slots in state.cards
            ],
            "trades": [
                [SLOT_NAMES[slot] for slot in TRADE_CHOICES[choice]] if choice >= 0 else None for choice in state.trades
            ],
            "traded_in": [
                [codes[card] for card in known_discards_of(state, seat, other)] for other in range(game.num_players)
            ],
            "tablet": {"win": state.win[seat], "lose": state.lose[seat]},
            "actions": [_action_json(record, seat) for record in state.actions],
            "betting": _betting_json(state.bets),
            "showdown": state.showdown,
            "returns": list(state.returns) if state.terminal or state.truncated else None,
            "truncated": state.truncated,
        }

    def render(self, state: DividhaState, seat: int | None) -> str:
        game = self.game
        to_act = game.current_player(state)
        title = f"{game.env_id}  hand {state.hand_number + (state.phase != OVER)}  dealer seat {state.dealer}  ante {state.ante}"
        stage = PHASE_NAMES[state.phase] + (f" (round {state.betting_round})" if state.phase == BETTING else "")
        lines = [f"{title}  {stage}"]
        shown = state.showdown["shown"] if state.phase == OVER and state.showdown else {}
        for other in range(game.num_players):
            if not state.in_match[other]:
                lines.append(f"  seat {other}: out of the match")
                continue
            slots = [_slot_text(state, other, slot, seat, shown) for slot in range(NUM_SLOTS)]
            tablet = (
                f"  win {state.win[other]} lose {state.lose[other]}"
                if seat in (None, other) or state.phase == OVER
                else ""
            )
            marker = ">" if other == to_act else " "
            status = "  folded" if state.folded[other] else ("  all-in" if state.stacks[other] == 0 else "")
            lines.append(
                f"{marker} seat {other}: {' '.join(slots)}  stack {state.stacks[other]}  paid {state.paid[other]}{tablet}{status}"
            )
        lines.append(f"pot {state.pot}" + (f"  forfeits {state.forfeit}" if state.forfeit else ""))
        if state.phase == OVER and state.showdown:
            for other, hand in shown.items():
                lines.append(f"  seat {other} shows {' '.join(hand['cards'])}: {hand['name']} {tuple(hand['key'][:4])}")
            lines.append(
                "received: " + ", ".join(f"seat {s} {chips}" for s, chips in enumerate(state.showdown["received"]))
            )
        if state.terminal or state.truncated:
            lines.append("result: " + ", ".join(f"seat {s} {r:+g}" for s, r in enumerate(state.returns)))
        return "\n".join(lines)


def known_discards_of(state: DividhaState, seat: int, other: int) -> list[int]:
    """The cards `other` traded in that `seat` knows: all of its own, the public ones of others."""
    return list(state.discards[seat]) if other == seat else public_discards(state, other)


def _slot_text(state: DividhaState, other: int, slot: int, seat: int | None, shown: dict[str, Any]) -> str:
    card = state.cards[other][slot]
    if card == EMPTY:
        return "--"
    code = rules.DECK[card]
    visible = (
        seat is None or seat == other or slot in PUBLIC_SLOTS or code in shown.get(str(other), {}).get("cards", [])
    )
    return code if visible else "??"


def _action_json(record: list[Any], seat: int) -> dict[str, Any]:
    actor, round_, kind, chips, split, stack = record
    entry = {"seat": actor, "round": round_, "kind": kind, "chips": chips, "stack": stack}
    if actor == seat and split >= 0:
        entry["split"] = SPLITS[split]
    return entry


def _betting_json(bets: BettingRound | None) -> dict[str, Any] | None:
    if bets is None:
        return None
    return {
        "current_bet": bets.current_bet,
        "contributions": list(bets.contributions),
        "bets": bets.bets,
        "min_raise": bets.min_raise,
        "pending": list(bets.to_act),
        "history": [list(entry) for entry in bets.history],
    }
