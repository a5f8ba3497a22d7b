"""Tilt's observation written in plain Python, segment by segment from the state: the reference that
the fast path (`TiltEncoder.observation` in encode.py, which hands the state to compiled code in
observation_writer.py) mirrors bit for bit. Read this to learn what the observation holds; the
segments are listed in layout.py and documented in docs/games/tilt.md.

Every value is computed in Python floats (float64) and rounded once to float32 as it is stored,
except the per-move counts (`bets_made`, `cards_moved`), which are rounded after every move added,
as the fast path adds them.
"""

from __future__ import annotations

import numpy as np

from . import rules
from .evaluator import candidate_hands, computed_key
from .game import TiltGame
from .layout import (
    BET_INDEX,
    EXCHANGE_KIND_INDEX,
    FIRST_SET,
    HAUL_INDEX,
    MAX_OWN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NUM_CARDS,
    NUM_VOIDS,
    OBSERVATION_SIZE,
    PHASE_INDEX,
    SET_FEATURES,
    SLICES,
)
from .state import CARD_PHASES, HAUL, MOVE_FIELDS, TiltState

RAISE = 2  # the action id of a bet or raise, as a public move's value
ROW_FLAGS = rules.MUTI | rules.BINY | rules.EXPD  # the Hazards `card_row` depends on


def card_row(card: int, paired: bool, flags: int) -> np.ndarray:
    """What one own card adds to each of SET_FEATURES when a card set gives it up, / 7 (float32).

    `paired`: another own card has its rank. Under Mutinous Days (MUTI) the order of ranks is
    reversed; a wild card (a Binary System 2, an Expendable Ranks Command) counts as a wild only."""
    reversed_order = bool(flags & rules.MUTI)
    rank, command = rules.RANK[card], rules.is_command(card)
    wild = bool((flags & rules.BINY and rank == 2 and not command) or (flags & rules.EXPD and command))
    paired = not wild and paired
    strength = 0.0 if wild else ((12 - rank) if reversed_order else rank) / 12
    features = (
        1.0,
        reversed_order,
        strength,
        paired and not reversed_order,
        paired and reversed_order,
        command and not wild and not reversed_order,
        wild,
    )
    return np.array(features, np.float32) / MAX_OWN


def reference_observation(game: TiltGame, state: TiltState, seat: int) -> np.ndarray:
    """The observation of `seat` (float32, OBSERVATION_SIZE), every segment written from the state.

    Seats are relative: `rel` counts clockwise from the observer (0 = self). The hand strength is
    the plain computed key of every candidate hand (no table, no cache)."""
    config, n = game.config, game.num_players
    bank = config.starting_stack * n  # every chip at the table
    vector = np.zeros(OBSERVATION_SIZE, np.float32)
    segment = {name: vector[piece] for name, piece in SLICES.items()}  # views into the vector

    def rel(other: int) -> int:
        return (other - seat) % n

    segment["table_size"][n - MIN_PLAYERS] = 1.0
    if config.num_hands > 1:
        segment["match"][0] = state.hand_number / config.num_hands
        segment["match"][1] = 1.0

    # the seat's own cards, and the slots of the card-set actions (own cards by card index)
    own = sorted(state.thumbs[seat] + state.palms[seat])
    segment["own_thumb"][state.thumbs[seat]] = 1.0
    segment["own_palm"][state.palms[seat]] = 1.0
    for slot, card in enumerate(own):
        segment["slots"][slot * NUM_CARDS + card] = 1.0

    # every seat's public situation
    for other in range(n):
        at = rel(other) * NUM_CARDS
        segment["face_up"][[at + card for card in state.thumbs[other]]] = 1.0
        if state.revealed and not state.folded[other]:
            segment["face_up"][[at + card for card in state.palms[other]]] = 1.0
        segment["palm_sizes"][rel(other)] = len(state.palms[other]) / MAX_OWN
        segment["stacks"][rel(other)] = state.stacks[other] / bank
        segment["hand_contributions"][rel(other)] = min(state.contributions[other] / config.starting_stack, 1.0)
        segment["carried"][rel(other)] = state.carry[other] / bank
        segment["folded"][rel(other)] = state.folded[other]
        segment["all_in"][rel(other)] = not state.folded[other] and state.stacks[other] == 0
        segment["in_hand"][rel(other)] = state.in_hand[other]
    segment["dealer"][rel(state.dealer)] = 1.0
    to_act = game.current_player(state)
    if to_act >= 0:
        segment["to_act"][rel(to_act)] = 1.0

    # the public history of the hand: each move added in turn
    for at in range(0, len(state.moves), MOVE_FIELDS):
        phase, round_number, actor, value = state.moves[at : at + MOVE_FIELDS]
        if phase == BET_INDEX:
            if value == RAISE:
                cell = (round_number - 1) * MAX_PLAYERS + rel(actor)
                segment["bets_made"][cell] = float(segment["bets_made"][cell]) + 1 / config.max_bets
        elif phase != HAUL_INDEX:
            segment["cards_moved"][rel(actor)] = float(segment["cards_moved"][rel(actor)]) + value / MAX_OWN

    # chips and the betting round
    segment["pot"][0] = min((sum(state.contributions) + sum(state.carry)) / bank, 1.0)
    paycheck = state.paycheck_unit >= 0
    if state.bets is not None:
        unit, cap, fold = state.bet_rules
        paycheck = paycheck or fold == "never"
        for other in range(n):
            segment["round_contributions"][rel(other)] = min(state.bets.contributions[other] / max(unit * cap, 1), 1.0)
        to_call = state.bets.current_bet - state.bets.contributions[seat]
        segment["to_call"][0] = min(to_call / max(unit, 1), 1.0)
        segment["round_bets"][0] = state.bets.bets / cap
        segment["unit"][0] = min(unit / config.big_bet, 1.0)
    segment["paycheck"][0] = paycheck

    # the flow of the hand
    segment["phase"][PHASE_INDEX[state.phase]] = 1.0
    if state.betting_round:
        segment["betting_round"][state.betting_round - 1] = 1.0
    segment["exchange_kind"][EXCHANGE_KIND_INDEX[state.exchange_kind]] = 1.0
    if not state.folded[seat]:
        segment["exchange_limit"][0] = game.exchange_limit(state, seat) / 3

    # Hazards and the table cards
    segment["hazard_row"][state.row] = 1.0
    segment["gravity_carried"][0] = state.gravity
    segment["face_down"][0] = state.signal >= 0
    if state.revealed:
        segment["fine_print"][state.fine] = 1.0
        segment["chicken"][state.chicken] = 1.0
    else:
        segment["face_down"][1] = bool(state.fine)
        segment["face_down"][2] = bool(state.chicken)
    segment["tariffs"][state.tariffs] = 1.0
    for spot, card in enumerate(state.grid):
        segment["grid"][spot * NUM_CARDS + card] = 1.0
    segment["thumb_discards"][state.thumb_discards] = 1.0
    segment["own_discards"][state.own_discards[seat]] = 1.0
    segment["passed"][state.passed[seat]] = 1.0
    segment["received"][state.received[seat]] = 1.0
    if state.keeps and state.keeps[seat] >= 0:
        segment["own_keep"][state.keeps[seat]] = 1.0
    segment["piles"][:] = (
        len(state.stock) / NUM_CARDS,
        len(state.discards) / NUM_CARDS,
        len(state.void_deck) / NUM_VOIDS,
    )

    # the seat's hand strength and, at its card decision, what each card set gives up
    if own and not state.folded[seat]:
        flags = rules.hazard_flags_ids(game.hazards_in_force(state))
        write_hand_strength(segment, own, flags, state)
        if state.phase in CARD_PHASES and to_act == seat:
            write_card_sets(segment, own, flags, state.phase == HAUL)
    return vector


def write_hand_strength(segment: dict[str, np.ndarray], own: list[int], flags: int, state: TiltState) -> None:
    """The best key the seat can form now (5.1): its category, tier, Orbit, reversal, shortness, top rank."""
    shared = state.chicken if state.revealed else []
    table = rules.table_size(flags)
    hands = candidate_hands(own, table, shared, state.tariffs, state.grid)
    orbit, tier, _, base, top = max(computed_key(hand, flags, table) for hand in hands)[:5]
    segment["hand_category"][abs(base)] = 1.0
    segment["hand_tier"][abs(tier)] = 1.0
    segment["hand_flags"][:] = (orbit, base < 0 or tier < 0, len(own) < 3)
    segment["hand_top"][0] = min(abs(top) / 12, 1.0)


def write_card_sets(segment: dict[str, np.ndarray], own: list[int], flags: int, haul: bool) -> None:
    """For each card set m over the own cards (action FIRST_SET + m), the sum of `card_row` over the
    cards it gives up: the cards it names, or at a Haul keep every card it does not name. Sums are
    float32, slot by slot in card order."""
    rows = []
    for card in own:
        paired = any(rules.RANK[other] == rules.RANK[card] for other in own if other != card)
        rows.append(card_row(card, paired, flags))
    everything = sum(rows, np.zeros(len(SET_FEATURES), np.float32))
    for m in range(1 << len(own)):
        named = sum((row for slot, row in enumerate(rows) if m >> slot & 1), np.zeros(len(SET_FEATURES), np.float32))
        given_up = everything - named if haul else named
        for feature, name in enumerate(SET_FEATURES):
            segment[name][FIRST_SET + m] = given_up[feature]
