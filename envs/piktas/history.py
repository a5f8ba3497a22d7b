"""What a Piktas round writes in its hand history (core history.py), in card codes.

A round logs its start (dealer, the seats dealt in, stacks and pot after the buy-in), each seat's
own six cards (private), every field position as it is dealt (public: the field is face up), and
its result: the showdown, who folded, the betting actions, the pot and payout or the round's
scores, and each seat's reward. A seat eliminated from a gambling match is logged after it.
The environment logs the actions themselves: exchanges and bets are public as they are (9).
"""

from __future__ import annotations

from typing import Any

from cardarena.envs.core.history import RESULT, emit

from .rules import BETTING_NAMES, DECK
from .state import PiktasState


def log_round_start(state: PiktasState, gambling: bool) -> None:
    """The round's start: the dealer and the seats dealt in (with the stacks and pot after the
    buy-in when gambling), each seat's own cards, the field's first positions."""
    chips: dict[str, Any] = {"chips": list(state.chips), "pot": state.pot} if gambling else {}
    emit(state.log, state.round_number, "start", dealer=state.dealer, seats=list(state.order), **chips)
    for seat in state.order:
        emit(
            state.log,
            state.round_number,
            "deal",
            seat,
            {"cards": [DECK[card] for card in state.hands[seat]]},
            count=len(state.hands[seat]),
        )
    for position in range(len(state.field)):
        log_field_position(state, position)


def log_field_position(state: PiktasState, position: int) -> None:
    """A field position dealt face up: its stack, bottom card first."""
    emit(
        state.log,
        state.round_number,
        "deal",
        place="field",
        position=position,
        cards=[DECK[card] for card in state.field[position]],
    )


def log_result(
    state: PiktasState, showdown: dict[str, Any], folded: list[int], bets: list[list[int]], returns_before: list[float]
) -> None:
    """The round's result (the seat view's `last_hand`), logged once the round is settled and the
    episode's returns are final for it; then the seats it eliminated."""
    outcome = {key: value for key, value in showdown_json(showdown).items() if key != "round"}
    if "payout" in outcome:  # gambling
        outcome |= {
            "folded": folded,
            "bets": betting_actions(bets),
            "pot": sum(outcome["payout"]),
            "chips": list(state.chips),
        }
    rewards = [after - before for after, before in zip(state.returns, returns_before)]
    emit(state.log, showdown["round"], RESULT, **outcome, rewards=rewards)
    for seat in state.order:
        if not state.active[seat]:
            emit(state.log, showdown["round"], "eliminated", seat, chips=state.chips[seat])


def showdown_json(record: dict[str, Any]) -> dict[str, Any]:
    """A showdown record of `state.showdowns` in card codes, as the seat view lists it."""
    return {
        "round": record["round"],
        "dealer": record["dealer"],
        "field": [[DECK[card] for card in stack] for stack in record["field"]],
        "hands": {seat: [DECK[card] for card in hand] for seat, hand in record["hands"].items()},
        "evaluations": record["evaluations"],
        "winners": record["winners"],
        **({"scores": record["scores"]} if "scores" in record else {}),
        **({"payout": record["payout"]} if "payout" in record else {}),
    }


def betting_actions(history: list[list[Any]]) -> list[dict[str, Any]]:
    """A betting round's [seat, engine action] history as [{seat, action}] in the rulebook's words."""
    return [{"seat": seat, "action": BETTING_NAMES[action]} for seat, action in history]
