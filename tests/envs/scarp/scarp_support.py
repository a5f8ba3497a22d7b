"""Shared helpers of the Scarp tests: environments, states laid out by hand, play without folding."""

from __future__ import annotations

import random
from typing import Any

from cardarena.envs import make as make_env
from cardarena.envs.scarp import game as scarp
from cardarena.envs.scarp.rules import DECK

ENV_ID = "scarp_v1"


def make(**config: Any):
    return make_env(ENV_ID, **config)


def ids(codes: str) -> list[int]:
    """Deck indices of space-separated card codes."""
    return DECK.indices_of(codes.split()) if codes else []


def pick(code: str) -> int:
    return scarp.FIRST_PICK + DECK.index[code]


def challenge(code: str, w: int) -> int:
    return scarp.FIRST_CHALLENGE + 2 * DECK.index[code] + w


def essence_action(first: int, essence: str) -> int:
    return first + ["SUN", "STONE", "KNIFE", "ROSE"].index(essence)


def laid_out(env, challenger: int, hands: list[str], deck: str = "", pile: str = "", rest: str = "deck"):
    """Put `env` at the start of `challenger`'s main phase with these cards; the deck's top card is
    the last of `deck`; every other card lies below in the deck (or, with rest="pile", in the pile)."""
    game = env.game
    state = game.new_state(0)
    held = [ids(hand) for hand in hands]
    placed = set().union(*held, ids(pile), ids(deck))
    others = [card for card in range(len(DECK)) if card not in placed]
    state.hands = [sorted(hand) for hand in held]
    state.pile = sorted(ids(pile) + (others if rest == "pile" else []))
    state.deck = (others if rest == "deck" else []) + ids(deck)
    state.named, state.first_challenger, state.challenger = [0, 1], challenger, challenger
    state.log = []
    game._start_turn(state)
    env.load_state(state)
    return env


def play(env, *actions: int) -> None:
    """Step each action, checking first that it is legal."""
    for action in actions:
        legal = env.game.legal_actions(env.state)
        assert action in legal, f"{env.game.action_label(env.state, action)} ({action}) is not legal: {legal}"
        env.step(action)


def legal(env) -> list[int]:
    return env.game.legal_actions(env.state)


def codes(cards: list[int]) -> list[str]:
    return DECK.codes_of(cards)


def random_no_fold(env, rng: random.Random, visit=None, limit: int = 100_000) -> int:
    """Play random legal actions, never FOLD while anything else is legal; the decisions taken."""
    decisions = 0
    while not env.game.is_terminal(env.state) and decisions < limit:
        legal = env.game.legal_actions(env.state)
        if visit is not None:
            visit(env, rng)
        moves = [a for a in legal if a != scarp.FOLD] or legal
        env.step(rng.choice(moves))
        decisions += 1
    return decisions
