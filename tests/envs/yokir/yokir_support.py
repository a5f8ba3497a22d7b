"""Helpers shared by the Yokir tests: building deals from card codes and playing random legal games.

Imported by the test modules of this folder (pytest puts a test file's folder on sys.path).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

import cardarena.envs as envs
from cardarena.envs.yokir.rules import DECK

ENV_ID = "yokir_v1"
PASS = 24
SUIT_ACTION = {"Ar": 25, "Po": 26, "At": 27, "Ph": 28}


def ids(codes: str | Iterable[str]) -> list[int]:
    """Deck indices of space-separated (or listed) card codes, in the given order."""
    if isinstance(codes, str):
        codes = codes.split()
    return [DECK.codes.index(code) for code in codes]


def code(card_id: int) -> str:
    return DECK.codes[card_id]


def make(**config):
    return envs.make(ENV_ID, **config)


def deal_state(env, dealer: int, hands: dict[int, str], up: str, out: str | None = None, **extra):
    """A fresh state of `env` with a chosen deal: `hands[seat]` and `up` as card codes.

    `out` (the 8 out-of-play cards) defaults to every card not dealt. `extra` overrides
    other state fields (e.g. scores, hand_number in match mode).
    """
    env.reset(seed=0)
    data = json.loads(json.dumps(env.game.state_to_json(env.state)))
    dealt = [card for seat in range(3) for card in ids(hands[seat])] + ids(up)
    out_ids = ids(out) if out is not None else [c for c in range(24) if c not in dealt]
    assert sorted(dealt + out_ids) == list(range(24)), "test deal must use each card once"
    data.update(
        dealer=dealer,
        hands=[ids(hands[seat]) for seat in range(3)],
        up_card=ids(up)[0],
        out_of_play=out_ids,
        to_act=(dealer + 1) % 3,
        **extra,
    )
    return env.game.state_from_json(data)


def legal_ids(env) -> list[int]:
    """The acting agent's legal ids read from its action mask."""
    mask = env.observe(env.agent_selection)["action_mask"]
    return [int(i) for i in mask.nonzero()[0]]


def play_random(env, rng: random.Random, max_steps: int = 100_000):
    """Play random legal actions until the episode is over; yields (agent, action) before each step."""
    steps = 0
    while not (env.terminations[env.agent_selection] or env.truncations[env.agent_selection]):
        agent = env.agent_selection
        action = rng.choice(legal_ids(env))
        yield agent, action
        env.step(action)
        steps += 1
        assert steps <= max_steps, "episode did not end"


def accepted_up_card(state) -> bool:
    """The up-card was taken by an ACCEPT in bidding round 1 of the current hand."""
    return any(action != PASS for _, action in state.bids[:3])


def played_cards(state) -> list[int]:
    cards = [card for _leader, *trick, _winner in state.tricks for card in trick]
    return cards + list(state.trick)


# Rulebook E24: dealer seat 0; seat 1 accepts the up-card ScAt (trump At) and discards StPo.
E24_HANDS = {1: "CiAt MaAt ScPh JoAr StPo", 2: "CiPh PrAt MaAr ScAr MaPo", 0: "StAt JoPh PrPh CiAr ScPo"}
E24_UP = "ScAt"
E24_OUT = "StAr PrAr CiPo PrPo JoPo JoAt StPh MaPh"


def e24_state(env, **extra):
    return deal_state(env, 0, E24_HANDS, E24_UP, E24_OUT, **extra)


def unseen_by(state, seat: int) -> set[int]:
    """Cards `seat` cannot locate: other seats' unplayed cards, the out-of-play cards and,
    unless `seat` is the caller, the caller's discard (the up-card is always known)."""
    cards = {card for other in range(3) if other != seat for card in state.hands[other]}
    cards |= set(state.out_of_play)
    if state.discard >= 0 and state.caller != seat:
        cards.add(state.discard)
    cards.discard(state.up_card)
    return cards
