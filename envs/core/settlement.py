"""One settlement for every game that bets: pots layered by contribution, won by hand keys.

A seat's stake is every chip it put in this hand. The live (not folded) seats' distinct stakes
cut the chips into layers, lowest first: pot k holds every seat's chips between the levels
k - 1 and k, folded seats' included, and the last pot also takes chips above the highest live
stake (with `rest_apart` those chips are one more pot, with the last pot's eligible seats, so
its odd chips are shared on their own). Pot k's eligible seats are the live seats that staked at
least level k. Each pot goes to the best (or, for a column settled the other way round, the
worst) key among its eligible seats; a pot with one eligible seat goes to it without comparing.
Ties split a pot equally: odd chips one at a time clockwise from the game's first seat, or
fractional shares.

Games give comparable hand keys (tuples, numbers), never cards: evaluating hands is theirs.
A game may also decide that a contested pot is not paid (`pays`); its chips are then recorded
per seat as unpaid, for the game to refund or carry into pot 1 of the next hand (`carry`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal, NamedTuple

Key = Any  # a hand key: larger is better
Pick = Literal["best", "worst"]
Chips = int | float


class Pot(NamedTuple):
    """One layer of the chips: `shares[s]` is what seat s put in it; `eligible` the seats that may win it."""

    shares: tuple[int, ...]
    eligible: tuple[int, ...]

    @property
    def amount(self) -> int:
        return sum(self.shares)


@dataclass(frozen=True, slots=True)
class Settlement:
    """What each seat receives, the unpaid chips per seat, and each pot's winners ([] if not paid)."""

    payouts: list[Chips]
    unpaid: list[int]
    winners: list[list[int]]


def layer_pots(
    stakes: Sequence[int], folded: Sequence[bool], carry: Sequence[int] | None = None, rest_apart: bool = False
) -> list[Pot]:
    """The pots of one hand, lowest level first; `carry[s]` (chips seat s left unpaid before) goes into pot 1.

    With `rest_apart`, chips above the highest live stake are one more pot (when there are any).
    """
    _require_chips(stakes, folded, carry)
    live = _live(folded)
    if not live:
        raise ValueError("settlement needs at least one seat that has not folded")
    levels = sorted({stakes[seat] for seat in live})
    pots, below = [], 0
    for level in levels:
        top = level == levels[-1] and not rest_apart
        shares = [(stake if top or stake < level else level) - (stake if stake < below else below) for stake in stakes]
        pots.append(Pot(tuple(shares), tuple([seat for seat in live if stakes[seat] >= level])))
        below = level
    if rest_apart:
        rest = [stake - below if stake > below else 0 for stake in stakes]
        if any(rest):
            pots.append(Pot(tuple(rest), pots[-1].eligible))
    if carry is not None:
        pots[0] = Pot(tuple([share + carried for share, carried in zip(pots[0].shares, carry)]), pots[0].eligible)
    return pots


def settle(
    stakes: Sequence[int],
    folded: Sequence[bool],
    keys: Sequence[Key | None],
    first_seat: int,
    *,
    pick: Pick = "best",
    carry: Sequence[int] | None = None,
    pays: Callable[[Key], bool] | None = None,
    fractional: bool = False,
    forfeit: int = 0,
    rest_apart: bool = False,
) -> Settlement:
    """Settle every pot of one hand (see the module docstring).

    `keys[s]`: seat s's hand key, needed for every live seat when two or more are live (None
    otherwise). `pays(key)`, asked for each contested pot with its winning key, False leaves the
    pot unpaid. `forfeit`: chips set aside that the best key among the live seats takes.
    `rest_apart`: the chips above the highest live stake are a pot of their own (`layer_pots`).
    """
    n = len(stakes)
    _require_seat(first_seat, n)
    if len(keys) != n or forfeit < 0:
        raise ValueError(f"keys need one entry per seat ({n}) and forfeit={forfeit} must be >= 0")
    payouts: list[Chips] = [0.0 if fractional else 0] * n
    unpaid: list[int] = [0] * n
    winners: list[list[int]] = []
    for pot in layer_pots(stakes, folded, carry, rest_apart):
        seats = _pick(pot.eligible, keys, pick)
        if len(pot.eligible) > 1 and pays is not None and not pays(keys[seats[0]]):
            unpaid = [owed + share for owed, share in zip(unpaid, pot.shares)]
            winners.append([])
            continue
        _pay(payouts, sum(pot.shares), seats, first_seat, fractional)
        winners.append(seats)
    if forfeit:
        _pay_forfeit(payouts, forfeit, folded, keys, first_seat, fractional)
    return Settlement(payouts, unpaid, winners)


def settle_columns(
    columns: Sequence[tuple[Sequence[int], Pick]],
    folded: Sequence[bool],
    keys: Sequence[Key | None],
    first_seat: int,
    *,
    forfeit: int = 0,
    rest_apart: bool = False,
) -> Settlement:
    """Settle each column of stakes on its own, with its own pick (e.g. one column to the best key, one to the worst).

    `columns`: (stakes, pick) per column; the forfeit goes once to the best key; `rest_apart` as in `settle`.
    """
    payouts: list[Chips] = [0] * len(folded)
    unpaid: list[int] = [0] * len(folded)
    winners: list[list[int]] = []
    for stakes, pick in columns:
        column = settle(stakes, folded, keys, first_seat, pick=pick, rest_apart=rest_apart)
        payouts = [paid + more for paid, more in zip(payouts, column.payouts)]
        unpaid = [owed + more for owed, more in zip(unpaid, column.unpaid)]
        winners += column.winners
    if forfeit:
        _pay_forfeit(payouts, forfeit, folded, keys, first_seat, False)
    return Settlement(payouts, unpaid, winners)


def split_pot(
    amount: int, winners: Sequence[int], first_seat: int, num_players: int, fractional: bool = False
) -> list[Chips]:
    """Chips each seat receives from one pot: equal shares; odd chips one each clockwise from `first_seat`.

    With `fractional`, every winner gets exactly amount / len(winners).
    """
    payout: list[Chips] = [0.0 if fractional else 0] * num_players
    _pay(payout, amount, winners, first_seat, fractional)
    return payout


def _pay(payouts: list[Chips], amount: int, winners: Sequence[int], first_seat: int, fractional: bool) -> None:
    """Add one pot's `split_pot` to `payouts`, in place."""
    if not winners:
        raise ValueError("a pot needs at least one winner")
    if fractional:
        share = amount / len(winners)
        for seat in winners:
            payouts[seat] += share
        return
    share, odd = divmod(amount, len(winners))
    for seat in winners:
        payouts[seat] += share
    if odd:
        n = len(payouts)
        for seat in sorted(winners, key=lambda seat: (seat - first_seat) % n)[:odd]:
            payouts[seat] += 1


def _pick(eligible: Sequence[int], keys: Sequence[Key | None], pick: Pick) -> list[int]:
    """The eligible seats holding the best (or worst) key; the only eligible seat without comparing."""
    if len(eligible) == 1:
        return list(eligible)
    found = [key for seat in eligible if (key := keys[seat]) is not None]
    if len(found) < len(eligible):
        missing = [seat for seat in eligible if keys[seat] is None]
        raise ValueError(f"a contested pot needs a hand key for seats {missing}")
    target = max(found) if pick == "best" else min(found)
    return [seat for seat in eligible if keys[seat] == target]


def _pay_forfeit(
    payouts: list[Chips],
    amount: int,
    folded: Sequence[bool],
    keys: Sequence[Key | None],
    first_seat: int,
    fractional: bool,
) -> None:
    """Add the forfeit, which the best key among the live seats takes, to `payouts` in place."""
    _pay(payouts, amount, _pick(_live(folded), keys, "best"), first_seat, fractional)


def _live(folded: Sequence[bool]) -> list[int]:
    return [seat for seat, out in enumerate(folded) if not out]


def _require_chips(stakes: Sequence[int], folded: Sequence[bool], carry: Sequence[int] | None) -> None:
    if len(stakes) != len(folded) or (carry is not None and len(carry) != len(stakes)):
        raise ValueError("stakes, folded and carry need one entry per seat")
    if min(stakes, default=0) < 0 or (carry is not None and min(carry, default=0) < 0):
        raise ValueError(f"stakes {list(stakes)} and carry {carry} must be >= 0")


def _require_seat(seat: int, num_players: int) -> None:
    if not 0 <= seat < num_players:
        raise ValueError(f"first_seat={seat} must be a seat from 0 to {num_players - 1}")
