"""Fixed-limit betting, shared by every game that bets: one pot, no side pots.

A betting round offers `stay` (check: nobody has raised yet), `match` (call up to the current
bet), `raise` (a fixed amount above the current bet, at most `max_raises` times, and only when
every seat still in could match it, so nobody is ever all-in) and `fold`. It ends when every
seat still in has acted since the last raise, or when one seat is left.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

FOLD, MATCH, RAISE, STAY = "fold", "match", "raise", "stay"
BETTING_ACTIONS = (STAY, MATCH, RAISE, FOLD)


@dataclass(frozen=True, slots=True)
class BettingLimits:
    """The size of a raise and the most raises in one betting round."""

    raise_amount: int
    max_raises: int


def betting_options(
    current_bet: int,
    contributions: Sequence[int],
    stacks: Sequence[int],
    folded: Sequence[bool],
    seat: int,
    limits: BettingLimits,
) -> list[str]:
    """The betting actions open to `seat`, sorted by name.

    `stacks` are chips not yet in the pot. ValueError if `seat` has folded, or has already
    matched a non-zero bet (it has nothing to decide).
    """
    if folded[seat]:
        raise ValueError(f"seat {seat} has folded and takes no betting action")
    if current_bet > 0 and contributions[seat] >= current_bet:
        raise ValueError(f"seat {seat} has already matched the current bet {current_bet}")
    options = [FOLD]
    if contributions[seat] < current_bet:
        options.append(MATCH)
    if _can_raise(current_bet, contributions, stacks, folded, limits):
        options.append(RAISE)
    if current_bet == 0:
        options.append(STAY)
    return sorted(options)


def _can_raise(
    current_bet: int, contributions: Sequence[int], stacks: Sequence[int], folded: Sequence[bool], limits: BettingLimits
) -> bool:
    if current_bet // limits.raise_amount >= limits.max_raises:
        return False
    target = current_bet + limits.raise_amount
    return all(folded[q] or stacks[q] >= target - contributions[q] for q in range(len(stacks)))


@dataclass(slots=True)
class BettingRound:
    """The state of one betting round; `act` plays one seat's action and keeps chips conserved."""

    limits: BettingLimits
    stacks: list[int]
    folded: list[bool]
    to_act: list[int]
    pot: int
    current_bet: int = 0
    contributions: list[int] = field(default_factory=list)
    history: list[list[Any]] = field(default_factory=list)

    @classmethod
    def open(cls, limits: BettingLimits, stacks: list[int], folded: list[bool], order: list[int], pot: int) -> BettingRound:
        """A new betting round; `order` lists the seats still in, in acting order."""
        return cls(limits, list(stacks), list(folded), list(order), pot, contributions=[0] * len(stacks))

    @property
    def seats_in(self) -> list[int]:
        return [seat for seat, out in enumerate(self.folded) if not out]

    @property
    def finished(self) -> bool:
        return not self.to_act or len(self.seats_in) < 2

    @property
    def seat_to_act(self) -> int:
        return self.to_act[0]

    def options(self) -> list[str]:
        return betting_options(self.current_bet, self.contributions, self.stacks, self.folded, self.seat_to_act, self.limits)

    def act(self, action: str) -> None:
        """Play `action` for the seat to act (the caller has checked it is one of `options()`)."""
        seat = self.to_act.pop(0)
        self.history.append([seat, action])
        if action == FOLD:
            self.folded[seat] = True
        elif action == MATCH:
            self._pay(seat, self.current_bet - self.contributions[seat])
        elif action == RAISE:
            self._pay(seat, self.current_bet + self.limits.raise_amount - self.contributions[seat])
            self.current_bet += self.limits.raise_amount
            n = len(self.stacks)
            self.to_act = [(seat + k) % n for k in range(1, n) if not self.folded[(seat + k) % n]]

    def _pay(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.contributions[seat] += chips
        self.pot += chips


def split_pot(pot: int, winners: Sequence[int], first_seat: int, num_players: int) -> list[int]:
    """Chips each seat receives: equal shares, odd chips one each clockwise from `first_seat`."""
    if not winners:
        raise ValueError("a pot needs at least one winner")
    share, odd = divmod(pot, len(winners))
    payout = [0] * num_players
    for seat in winners:
        payout[seat] += share
    clockwise = sorted(winners, key=lambda seat: (seat - first_seat) % num_players)
    for seat in clockwise[:odd]:
        payout[seat] += 1
    return payout
