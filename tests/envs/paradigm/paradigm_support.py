"""Helpers shared by the Paradigm tests: tables built from card codes, actions by their names.

Imported by the test modules of this folder (pytest puts a test file's folder on sys.path).
"""

from __future__ import annotations

import random

import cardarena.envs as envs
from cardarena.envs.paradigm.encode import ACTION_NAMES
from cardarena.envs.paradigm.game import ParadigmState, current_scores, start_turn
from cardarena.envs.paradigm.rules import DECK, SUITS

ENV_ID = "paradigm_v2"
ACTION = {name: number for number, name in enumerate(ACTION_NAMES)}


def ids(codes: str) -> list[int]:
    """Deck indices of space-separated card codes, in the given order."""
    return [DECK.index_of(code) for code in codes.split()]


def codes(cards: list[int]) -> list[str]:
    return [DECK.codes[card] for card in cards]


def make(**config):
    return envs.make(ENV_ID, **config)


def between_turns(
    suits: str = "L S D H",
    piles: tuple[str, ...] = (),
    hands: dict[int, str] | None = None,
    top: str = "",
    turn: int = 0,
    discard: str = "",
) -> ParadigmState:
    """A state where turn `turn` is about to reveal: seat i owns suits[i], the table holds `piles`
    (bottom first), the deck every card in no other place with `top` on top (its last card first
    revealed) and the rest in deck order beneath."""
    owned = [SUITS.index(suit) for suit in suits.split()]
    n = len(owned)
    hand_cards = [sorted(ids((hands or {}).get(seat, ""))) for seat in range(n)]
    table = [ids(pile) for pile in piles]
    placed = (
        {card for pile in table for card in pile} | {card for hand in hand_cards for card in hand} | set(ids(discard))
    )
    on_top = ids(top)
    rest = [card for card in range(len(DECK)) if card not in placed and card not in on_top]
    return ParadigmState(
        seed=0,
        num_players=n,
        suits=owned,
        deck=rest + on_top[::-1],
        table=table,
        hands=hand_cards,
        discard=ids(discard),
        turn=turn,
        returns=[0.0] * n,
    )


def env_at_turn(state: ParadigmState):
    """An environment at `state` once its turn's top card is revealed and resolved."""
    start_turn(state)
    env = make(num_players=state.num_players)
    env.load_state(state)
    return env


def play(env, *names: str) -> None:
    """Step the named actions (e.g. "ON_TOP(H5)", "PASS"), each checked legal."""
    for name in names:
        legal = env.game.legal_actions(env.state)
        assert ACTION[name] in legal, f"{name} is not legal; legal: {[ACTION_NAMES[a] for a in legal]}"
        env.step(ACTION[name])


def legal_names(env) -> list[str]:
    return [ACTION_NAMES[action] for action in env.game.legal_actions(env.state)]


def table_codes(state: ParadigmState) -> list[list[str]]:
    return [codes(pile) for pile in state.table]


def scores(state: ParadigmState) -> list[int]:
    return current_scores(state)


def played(decisions: int, seed: int, n: int):
    """An environment `decisions` random legal moves into the episode of `seed`."""
    env = make(num_players=n)
    env.reset(seed=seed)
    rng = random.Random(seed)
    for _ in range(decisions):
        env.step(rng.choice(env.game.legal_actions(env.state)))
    return env
