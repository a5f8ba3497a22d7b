"""One betting engine for every game that bets, configured by a game's `BettingRules`.

A game opens a `BettingRound` for each betting round of a hand, keeps it in its own state
(it is plain data: `to_json`/`from_json`), asks `options(rules)` for the legal actions of the
seat to act and plays one with `act(rules, action)`. The rules say what differs between games:
the bet unit, the cap on bets and raises, the limit (fixed, pot, no) and its raise options,
whether stacks bind (all-in for less), are unlimited, or must cover every raise, whether a short
all-in raise is allowed, and when FOLD is legal.

The round follows one model, the rulebooks' "pending" seats: when the round opens every live
seat that can bet is pending, in clockwise order from the game's first seat; a seat leaves the
queue when it acts; a bet or raise makes every other live seat that can bet pending again,
clockwise from the raiser's left. The round ends when nobody is pending or one seat is live.
It is skipped (opens finished) when fewer than two seats can bet.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field
from typing import Any, Literal, TypeVar

from . import validation as check
from .errors import IllegalActionError, StateError
from .state_json import copy_state

FOLD, CHECK, CALL = "fold", "check", "call"
RAISE_MIN, RAISE_HALF_POT, RAISE_POT, RAISE_ALL_IN = "raise_min", "raise_half_pot", "raise_pot", "raise_all_in"
RAISES = (RAISE_MIN, RAISE_HALF_POT, RAISE_POT, RAISE_ALL_IN)  # the raise options, in the order of `raise_options`
ACTIONS = (FOLD, CHECK, CALL, *RAISES)

Limit = Literal["fixed", "pot", "no"]
Bankroll = Literal["stacks", "unlimited", "covered"]
FoldRule = Literal["facing_bet", "always", "never"]
LIMITS = ("fixed", "pot", "no")
BANKROLLS = ("stacks", "unlimited", "covered")
FOLD_RULES = ("facing_bet", "always", "never")
_OPTIONS_OPEN = {"fixed": 1, "pot": 3, "no": 4}  # how many of RAISES each limit offers

DecisionT = TypeVar("DecisionT")
RulesT = TypeVar("RulesT")


@dataclass(frozen=True, slots=True)
class BettingRules:
    """How one betting round is played.

    - `unit`: the bet and raise size in fixed limit, the smallest raise at the round's start
      otherwise. A raise of 0 chips is never legal (a unit of 0 forbids betting).
    - `max_bets`: bets and raises allowed in the round; None = no cap.
    - `limit`: "fixed", "pot" or "no" (the raise options of `raise_options`).
    - `bankroll`: "stacks" (chips behind bind: a call or raise for less puts a seat all-in, and an
      all-in seat takes no more betting decisions), "unlimited" (nobody is ever short), or
      "covered" (a raise is legal only if every live seat could match it, so nobody is ever all-in).
    - `short_all_in_raise`: an all-in raise smaller than the current minimum raise is allowed
      (and reopens the betting like any raise); False refuses it.
    - `fold`: FOLD is legal "facing_bet" (only with chips to call), "always", or "never".
    """

    unit: int
    max_bets: int | None = None
    limit: Limit = "fixed"
    bankroll: Bankroll = "stacks"
    short_all_in_raise: bool = False
    fold: FoldRule = "facing_bet"

    def __post_init__(self) -> None:
        if self.unit < 0 or (self.max_bets is not None and self.max_bets < 0):
            raise ValueError(f"unit={self.unit} and max_bets={self.max_bets} must be >= 0")
        for name, value, allowed in (
            ("limit", self.limit, LIMITS),
            ("bankroll", self.bankroll, BANKROLLS),
            ("fold", self.fold, FOLD_RULES),
        ):
            if value not in allowed:
                raise ValueError(f"{name}={value!r}: must be one of {', '.join(allowed)}")
        if self.bankroll == "unlimited" and (self.limit == "no" or self.max_bets is None):
            raise ValueError(
                'an unlimited bankroll needs a cap (max_bets) and limit "fixed" or "pot": nothing else ends the raising'
            )


def raise_options(limit: str, pot: int, to_call: int, stack: int | None, min_raise: int) -> list[int | None]:
    """The increment of each raise option [MIN, HALF_POT, POT, ALL_IN], None where it is not legal.

    Fixed offers MIN, pot MIN/HALF_POT/POT, no all four; MIN = min_raise,
    HALF_POT = max(min_raise, (pot + to_call) // 2), POT = max(min_raise, pot + to_call),
    ALL_IN = stack - to_call; each capped at stack - to_call; an option equal to an earlier one
    is None; all None when stack <= to_call. `stack` None is an unlimited bankroll (no cap, no ALL_IN).
    """
    if limit not in LIMITS:
        raise ValueError(f"limit={limit!r}: must be one of {', '.join(LIMITS)}")
    if min(pot, to_call, min_raise, 0 if stack is None else stack) < 0:
        raise ValueError(f"pot={pot}, to_call={to_call}, stack={stack} and min_raise={min_raise} must be >= 0")
    if stack is not None and stack <= to_call:
        return [None] * len(RAISES)
    sized = [min_raise, max(min_raise, (pot + to_call) // 2), max(min_raise, pot + to_call)]
    capped = sized if stack is None else [min(increment, stack - to_call) for increment in sized]
    nominal: list[int | None] = [*capped, None if stack is None else stack - to_call]
    increments: list[int | None] = []
    for index, increment in enumerate(nominal):
        offered = index < _OPTIONS_OPEN[limit] and increment is not None and increment not in increments
        increments.append(increment if offered else None)
    return increments


class _DecisionSlot:
    """The slot of `BettingRound`'s cached decision: outside the dataclass's fields, so that
    `to_json`, equality and `copy_state` never see it."""

    __slots__ = ("_decision",)
    # Any: each game caches a decision of its own type. Declared for mypy, which takes a slots dataclass's
    # slots from its own fields alone and would refuse BettingRound's assignments to this one.
    _decision: Any


@dataclass(slots=True)
class BettingRound(_DecisionSlot):
    """One betting round in progress; plain data, so a game keeps it in its state and clones it.

    `stacks`: chips behind per seat (with an unlimited bankroll a running balance that may go
    below 0); `contributions`: chips put in this round; `current_bet`: the largest contribution;
    `to_act`: the pending seats, in acting order; `pot`: every chip in the pot (earlier rounds
    and antes included); `bets`: bets and raises made; `min_raise`: the smallest raise now;
    `history`: [seat, action] for every action of the round.

    The round remembers the game's view of the decision now open (`decision`) until it acts:
    its fields change only through `act`, which forgets it.
    """

    stacks: list[int]
    folded: list[bool]
    to_act: list[int]
    pot: int
    current_bet: int
    contributions: list[int]
    bets: int
    min_raise: int
    history: list[list[Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._decision = None

    @classmethod
    def open(cls, rules: BettingRules, stacks: list[int], folded: list[bool], first: int, pot: int) -> BettingRound:
        """A new round; seats that can bet are pending clockwise from seat `first`."""
        n = len(stacks)
        if len(folded) != n or not 0 <= first < n:
            raise ValueError(
                f"stacks and folded need one entry per seat, and first={first} must be one of the {n} seats"
            )
        bets = cls(list(stacks), list(folded), [], pot, 0, [0] * n, 0, rules.unit)
        bets.to_act = bets._able_to_bet(rules, [(first + k) % n for k in range(n)])
        if len(bets.to_act) < 2:
            bets.to_act = []
        return bets

    @property
    def live(self) -> list[int]:
        """Seats that have not folded."""
        return [seat for seat, out in enumerate(self.folded) if not out]

    @property
    def finished(self) -> bool:
        return not self.to_act or self.folded.count(False) < 2

    @property
    def seat_to_act(self) -> int:
        if self.finished:
            raise ValueError("the betting round is over: no seat is to act")
        return self.to_act[0]

    @property
    def last_bettor(self) -> int | None:
        """The seat that made the round's last bet or raise; None if nobody bet."""
        return next((seat for seat, action in reversed(self.history) if action in RAISES), None)

    def to_call(self, seat: int) -> int:
        return self.current_bet - self.contributions[seat]

    def options(self, rules: BettingRules) -> list[str]:
        """The legal actions of the seat to act, in the order of ACTIONS.

        ValueError if the round is over, or the seat to act has folded, is all-in, or has
        already matched a non-zero bet (the round's state is not one the engine can reach).
        """
        return list(self._choices(rules))

    def choices(self, rules: BettingRules, increments: list[int | None] | None = None) -> dict[str, int]:
        """The legal actions of the seat to act (as `options`), each with the chips it raises by (0 but for raises).
        `increments`: the seat's `raise_options` where the caller has them already (not computed again)."""
        return self._choices(rules, increments)

    def situation(self) -> tuple[Any, ...]:
        """What the round's next decision depends on, as one flat hashable value: every field but the
        history (the per-seat lists have the table's length; `to_act`, of any length, comes last). A game
        may key decisions it has worked out by it, with the round's rules."""
        return (
            self.pot,
            self.current_bet,
            self.bets,
            self.min_raise,
            *self.stacks,
            *self.folded,
            *self.contributions,
            *self.to_act,
        )

    def decision(self, decide: Callable[[BettingRound, RulesT], DecisionT], rules: RulesT) -> DecisionT:
        """`decide(self, rules)`, the game's reading of the decision now open under `rules` (the round's
        betting rules, in the form the game keeps them), computed once: the round keeps it until it acts.
        The rules are an argument, not bound into `decide`, so that a game whose rules change from round
        to round passes the same `decide` at every ask, not a closure made per ask (docs/benchmarks.md)."""
        decision = self._decision
        if decision is None:
            decision = self._decision = decide(self, rules)
        return decision

    def act(self, rules: BettingRules, action: str, choices: dict[str, int] | None = None) -> None:
        """Play `action` for the seat to act; IllegalActionError if it is not one of `options`.
        `choices`: this decision's `choices(rules)` where the caller has them already (not computed again)."""
        if choices is None:
            choices = self._choices(rules)
        seat = self.to_act[0]
        if action not in choices:
            raise IllegalActionError(
                f"{action!r} is not a legal betting action for seat {seat}; legal: {', '.join(choices)}"
            )
        self._decision = None
        self.to_act.pop(0)
        self.history.append([seat, action])
        if action == FOLD:
            self.folded[seat] = True
        elif action == CALL:
            to_call = self.to_call(seat)
            short = rules.bankroll == "stacks" and self.stacks[seat] < to_call
            self._pay(seat, self.stacks[seat] if short else to_call)
        elif action in RAISES:
            increment = choices[action]
            self._pay(seat, self.to_call(seat) + increment)
            self.current_bet = self.contributions[seat]
            self.bets += 1
            self.min_raise = max(self.min_raise, increment)
            n = len(self.stacks)
            self.to_act = self._able_to_bet(rules, [(seat + k) % n for k in range(1, n)])

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> BettingRound:
        """The round of `to_json` (a copy: the data is not shared); ValueError naming a missing or unknown field."""
        try:
            return cls(**data).clone()
        except TypeError as error:
            raise ValueError(f"betting round data does not fit BettingRound: {error}") from None

    @classmethod
    def read_field(cls, data: dict[str, Any] | None, env_id: str) -> BettingRound | None:
        """A state's `bets` field read back from its JSON (None stays None); StateError naming what does not fit."""
        if data is None:
            return None
        try:
            return cls.from_json(data)
        except ValueError as error:
            raise StateError(f"{env_id} state field 'bets': {error}") from None

    def check(self, field: str, num_seats: int, rules: BettingRules, chips: int) -> None:
        """Raise StateError naming `field`'s part that no play of `rules` reaches: a list not one entry per
        seat, chips outside 0..`chips` (stacks down to -`chips` with an unlimited bankroll), bets past the
        cap, a pending seat that is unknown, twice, folded, all-in or has matched the bet, a bad history."""
        low = -chips if rules.bankroll == "unlimited" else 0
        check.integers(self.stacks, f"{field}.stacks", low, chips, (num_seats, num_seats))
        for seat, out in enumerate(check.items(self.folded, f"{field}.folded", num_seats, num_seats)):
            check.flag(out, f"{field}.folded[{seat}]")
        check.integers(self.contributions, f"{field}.contributions", 0, chips, (num_seats, num_seats))
        check.integer(self.pot, f"{field}.pot", sum(self.contributions), chips)
        check.integer(self.current_bet, f"{field}.current_bet", max(self.contributions), max(self.contributions))
        check.integer(self.bets, f"{field}.bets", 0, chips if rules.max_bets is None else rules.max_bets)
        check.integer(self.min_raise, f"{field}.min_raise", 0, chips)
        check.integers(self.to_act, f"{field}.to_act", 0, num_seats - 1, (0, num_seats))
        if len(set(self.to_act)) != len(self.to_act):
            raise check.fail(f"{field}.to_act", f"names a seat twice: {self.to_act}")
        for seat in self.to_act:
            if not self._able_to_bet(rules, (seat,)) or 0 < self.current_bet <= self.contributions[seat]:
                raise check.fail(
                    f"{field}.to_act", f"holds seat {seat}, which has folded, is all-in or matched the bet"
                )
        for number, entry in enumerate(check.items(self.history, f"{field}.history")):
            check.items(entry, f"{field}.history[{number}]", 2, 2)
            check.seat(entry[0], f"{field}.history[{number}][0]", num_seats)
            check.text(entry[1], f"{field}.history[{number}][1]", ACTIONS)

    def clone(self) -> BettingRound:
        """A copy sharing no list, its decision not yet read."""
        twin = copy_state(self)
        twin._decision = None
        return twin

    def _able_to_bet(self, rules: BettingRules, seats: Iterable[int]) -> list[int]:
        """The seats among `seats` that can still bet: not folded, and not all-in.

        All-in is no chips behind, where stacks bind."""
        folded, stacks, binding = self.folded, self.stacks, rules.bankroll == "stacks"
        return [seat for seat in seats if not folded[seat] and not (binding and stacks[seat] <= 0)]

    def _choices(self, rules: BettingRules, increments: list[int | None] | None = None) -> dict[str, int]:
        """The legal actions of the seat to act, each with the chips it raises by (0 but for raises)."""
        seat = self.seat_to_act
        if self.folded[seat]:
            raise ValueError(f"seat {seat} has folded and takes no betting action")
        if not self._able_to_bet(rules, (seat,)):
            raise ValueError(f"seat {seat} is all-in and takes no betting action")
        to_call = self.to_call(seat)
        if self.current_bet > 0 and to_call <= 0:
            raise ValueError(f"seat {seat} has already matched the current bet {self.current_bet}")
        choices = {FOLD: 0} if rules.fold == "always" or (rules.fold == "facing_bet" and to_call > 0) else {}
        choices[CALL if to_call > 0 else CHECK] = 0
        return choices | self._raises(rules, seat, increments)

    def _raises(self, rules: BettingRules, seat: int, increments: list[int | None] | None = None) -> dict[str, int]:
        """The legal raise options of `seat` and their increments."""
        if rules.max_bets is not None and self.bets >= rules.max_bets:
            return {}
        if all(other == seat for other in self._able_to_bet(rules, range(len(self.stacks)))):
            return {}  # nobody else could answer a raise
        if increments is None:
            stack = self.stacks[seat] if rules.bankroll == "stacks" else None
            increments = raise_options(rules.limit, self.pot, self.to_call(seat), stack, self.min_raise)
        return {
            name: increment
            for name, increment in zip(RAISES, increments)
            if increment
            and (rules.short_all_in_raise or increment >= self.min_raise)
            and (rules.bankroll != "covered" or self._covered(self.current_bet + increment))
        }

    def _covered(self, target: int) -> bool:
        """Every live seat could bring its contribution up to `target`."""
        return all(self.stacks[seat] >= target - self.contributions[seat] for seat in self.live)

    def _pay(self, seat: int, chips: int) -> None:
        self.stacks[seat] -= chips
        self.contributions[seat] += chips
        self.pot += chips
