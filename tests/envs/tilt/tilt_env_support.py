"""Rigged Tilt hands for the environment tests: chosen cards, a chosen Void deck, moves by label."""

from __future__ import annotations

from typing import Any

from cardarena.envs.tilt.game import DECK, VOID, TiltConfig, TiltGame
from cardarena.envs.tilt.state import TiltState


def tilt(**settings: Any) -> TiltGame:
    """A game with `dealer` 0 unless given."""
    return TiltGame(TiltConfig.build(**{"dealer": 0, **settings}))


def rigged(
    game: TiltGame, hands: dict[int, list[str]], stock: list[str] = (), voids: list[str] = (), seed: int = 0
) -> TiltState:
    """A new episode whose first hand is rigged (see `rig`)."""
    return rig(game, game.new_state(seed), hands, stock, voids)


def rig(
    game: TiltGame, state: TiltState, hands: dict[int, list[str]], stock: list[str] = (), voids: list[str] = ()
) -> TiltState:
    """The hand at its first decision given the own cards (first code = the Thumb), the cards on
    top of the stock (first drawn first) and the Void deck's top cards (first drawn first)."""
    assert state.phase == "bet" and state.betting_round == 1
    placed = set()
    for seat, codes in hands.items():
        cards = DECK.indices_of(codes)
        state.thumbs[seat], state.palms[seat] = cards[:1], cards[1:]
        placed |= set(cards)
    unplaced_hands = [seat for seat in range(game.num_players) if seat not in hands and state.thumbs[seat]]
    top = DECK.indices_of(stock)
    rest = [card for card in range(len(DECK)) if card not in placed and card not in top]
    for seat in unplaced_hands:  # other dealt seats get cards not named anywhere
        size = len(state.thumbs[seat]) + len(state.palms[seat])
        cards, rest = rest[:size], rest[size:]
        state.thumbs[seat], state.palms[seat] = cards[:1], cards[1:]
    state.stock = rest + list(reversed(top))
    assert sorted(state.stock + [c for s in range(game.num_players) for c in state.thumbs[s] + state.palms[s]]) == list(
        range(len(DECK))
    )
    top_voids = [VOID[code] for code in voids]
    state.void_deck = [v for v in state.void_deck if v not in top_voids] + list(reversed(top_voids))
    return state


def play(game: TiltGame, state: TiltState, *moves: str) -> None:
    """Play moves given by their labels at each decision ("check", "bet", "discard C2 K10", ...)."""
    for move in moves:
        legal = {game.action_label(state, action): action for action in game.legal_actions(state)}
        assert move in legal, f"{move!r} is not legal for seat {game.current_player(state)}; legal: {sorted(legal)}"
        game.apply(state, legal[move])


def legal_labels(game: TiltGame, state: TiltState) -> list[str]:
    return [game.action_label(state, action) for action in game.legal_actions(state)]


def check_round(game: TiltGame, state: TiltState) -> None:
    """Every seat to act checks until the betting round ends."""
    number = state.betting_round
    while state.phase == "bet" and state.betting_round == number:
        play(game, state, "check")


def stand_pat(game: TiltGame, state: TiltState) -> None:
    """Every seat of the open card decision chooses the empty set."""
    phase = state.phase
    while state.phase == phase:
        play(game, state, "discard nothing")


def result(state: TiltState) -> dict[str, Any]:
    return [event for event in state.log if event["kind"] == "result"][-1]


def codes(cards: list[int]) -> list[str]:
    return DECK.codes_of(cards)
