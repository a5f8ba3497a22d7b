"""The terminal's account of a table for `cardarena play`, `watch` and `replay`: who sits where,
one line per hand-history event (history.py) at a chosen pace, and the move menu; and the
progress bar of the long commands (eval, train, publish).

Events are printed from their JSON fields alone, so every game's history prints the same way and
nothing here knows a game. What is printed is what the log given holds: a seat's log
(`env.history(seat)`) or the public one never holds another seat's private fields.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rich.columns import Columns
from rich.console import Console
from rich.text import Text

from cardarena.envs.core.history import ACTION, RESULT, Event

if TYPE_CHECKING:
    from rich.progress import Progress, ProgressColumn

_FRAME = ("hand", "kind", "seat", "private")  # every event's own fields, printed apart from its content


def seat_names(agents: Sequence[str | None], you: int | None = None) -> list[str]:
    """Each seat's name in the account: "seat 1 (random)", "you (seat 0)", or "seat 2"."""
    return [
        f"you (seat {seat})" if seat == you else f"seat {seat} ({agent})" if agent else f"seat {seat}"
        for seat, agent in enumerate(agents)
    ]


def describe(event: Event, names: Sequence[str]) -> str:
    """One event in words: whom it concerns, what happened, its fields; the fields only its seat
    sees (where the log holds them) marked private. A hand's result takes one line per field."""
    who = "table" if event["seat"] is None else names[event["seat"]]
    private = event.get("private", {})
    if event["kind"] == ACTION:
        if "label" in private:
            return f"{who}: {private['label']}  (the others see: {event['label']})"
        return f"{who}: {event['label']}"
    fields = {key: value for key, value in event.items() if key not in _FRAME}
    if event["kind"] == RESULT:
        return f"{who}: hand {event['hand'] + 1} result" + "".join(
            _field_lines(key, value) for key, value in fields.items()
        )
    text = f"{who}: {event['kind']}  {_fields(fields)}".rstrip()
    return text + "".join(f"  {key} {_words(value)} (private)" for key, value in private.items())


def _field_lines(key: str, value: Any) -> str:
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        return f"\n  {key}:" + "".join(f"\n    {_fields(item)}" for item in value)
    return f"\n  {key}: {_words(value)}"


def _words(value: Any) -> str:
    """A JSON value in few words: lists of cards joined by spaces, nested lists in parentheses."""
    if isinstance(value, bool) or value is None:
        return {True: "yes", False: "no", None: "-"}[value]
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return " ".join(f"({_words(item)})" if isinstance(item, list) else _words(item) for item in value) or "-"
    if isinstance(value, dict):
        return "; ".join(f"{key}: {_words(item)}" for key, item in value.items()) or "-"
    return str(value)


def _fields(value: dict[str, Any]) -> str:
    return "  ".join(f"{key} {_words(item)}" for key, item in value.items())


class Narrator:
    """Prints a table's events as they come, a rule at each new hand, pausing `delay` seconds
    after each event or, with `step`, until enter is pressed (at the end of input it stops pausing)."""

    def __init__(self, console: Console, names: Sequence[str], delay: float = 0.0, step: bool = False):
        self.console = console
        self.names = list(names)
        self.delay = delay
        self.step = step
        self._told = 0
        self._hand: int | None = None

    def seating(self, title: str) -> None:
        """Who sits where."""
        self.console.print(f"{title}: " + ", ".join(self.names), markup=False, highlight=False, soft_wrap=True)

    def follow(self, log: list[Event]) -> None:
        """Tell the events of a growing log (the same log, read again) not told yet."""
        self.tell(log[self._told :])
        self._told = len(log)

    def tell(self, events: list[Event]) -> None:
        for event in events:
            if event["hand"] != self._hand:
                self._hand = event["hand"]
                self.console.rule(f"hand {self._hand + 1}", style="dim")
            self.console.print(
                describe(event, self.names),
                markup=False,
                highlight=False,
                soft_wrap=True,
                style="bold" if event["kind"] == RESULT else None,
            )
            self._pause()

    def _pause(self) -> None:
        if self.step:
            try:
                self.console.input("")
            except EOFError:
                self.step = False
        elif self.delay > 0:
            time.sleep(self.delay)


def typed_move(answer: str, legal: list[dict[str, Any]]) -> int | None:
    """The legal action a person typed, or None: its id, its label, the card codes of its `cards`
    detail in any order and case (a choice of several cards is named by its cards, not by its
    number among all sets), or its label's last word when no other legal action ends with it."""
    typed = answer.strip().lower()
    by_text = {str(a["id"]): a["id"] for a in legal} | {a["label"].lower(): a["id"] for a in legal}
    if typed in by_text:
        return by_text[typed]
    named = frozenset(typed.replace(",", " ").split())
    for matches in (
        [a["id"] for a in legal if a.get("cards") and frozenset(code.lower() for code in a["cards"]) == named],
        [a["id"] for a in legal if len(a["label"].split()) > 1 and a["label"].split()[-1].lower() == typed],
    ):
        if len(matches) == 1:
            return matches[0]
    return None


def move_menu(legal: list[dict[str, Any]]) -> Columns:
    """The legal actions as "id label" items, never split across lines."""
    return Columns([Text(f"{action['id']} {action['label']}", no_wrap=True) for action in legal], padding=(0, 3))


def progress_bar(
    console: Console, *counts: ProgressColumn, remaining: bool = True, transient: bool = False
) -> Progress:
    """The progress bar of a long run: each task's description, bar and done of total, then `counts`,
    the time elapsed and (with `remaining`) the time left."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    columns = [TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), *counts, TimeElapsedColumn()]
    if remaining:
        columns.append(TimeRemainingColumn())
    return Progress(*columns, console=console, transient=transient)
