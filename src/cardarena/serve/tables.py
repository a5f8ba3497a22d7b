"""Tables where bots and clients play together: each client seat reads and plays its own seat only.

Bots move as soon as it is their turn. With a move time limit, a client seat that lets its
time run out gets a uniformly random legal action played for it (one rule for every game,
from the rulebooks' time-limit ruling); timeouts are settled whenever the table is next read or played, each
next deadline counted from the one before, so the table is as if a clock had run.
"""

from __future__ import annotations

import random
import secrets
import time
import uuid
from collections.abc import Callable

from cardarena.envs import lookup
from cardarena.envs.core.env import CardGameEnv
from cardarena.envs.core.errors import ConfigError, IllegalActionError
from cardarena.envs.core.table import Table as TableDriver

from .bots import Bot, Roster, new_env
from .errors import SeatTokenError, TableLimitError, UnknownTableError
from .models import SeatTicket, TableCreated, TableRequest, TableView

MAX_TABLES = 1_000
BOT_MOVES_PER_REQUEST = 2_000  # a long all-bot match goes on at the next request instead of holding the server


class Table:
    """One episode of a game; seats are bots or clients holding a token.

    Bots move through the table driver, which steps eliminated seats out of a match: the table is
    finished when the game is over, and a client seat that has left the game just watches.
    """

    def __init__(self, table_id: str, env: CardGameEnv, bots: list[Bot | None], seed: int, move_time_limit: float | None, now: float):
        self.table_id = table_id
        self.env = env
        self.bots = bots
        self.driver = TableDriver(env)
        self._bot_agents = {seat: bot.agent for seat, bot in enumerate(bots) if bot is not None}
        self.tokens = {seat: secrets.token_urlsafe(18) for seat, bot in enumerate(bots) if bot is None}
        self.move_time_limit = move_time_limit
        self.deadline: float | None = None
        self._timeout_rng = random.Random(seed)
        self.driver.reset(seed=seed)
        self._let_bots_play(now)

    @property
    def finished(self) -> bool:
        return self.driver.finished

    @property
    def to_act(self) -> int | None:
        return self.driver.to_act

    def tickets(self) -> list[SeatTicket]:
        return [SeatTicket(seat=seat, bot=bot.name if bot else None, token=self.tokens.get(seat)) for seat, bot in enumerate(self.bots)]

    def view(self, seat: int, token: str, now: float) -> TableView:
        """What `seat` sees, after settling any timeouts."""
        self._check_token(seat, token)
        self._settle_timeouts(now)
        if not self.finished and self.bots[self.to_act] is not None:
            self._let_bots_play(now)
        return self._report(seat, now)

    def play(self, seat: int, token: str, action: int | None, label: str | None, now: float) -> TableView:
        """Play the client seat's move (an id or its label), then every bot move that follows."""
        self._check_token(seat, token)
        self._settle_timeouts(now)
        if self.to_act != seat:
            whose = "the episode is over" if self.finished else f"seat {self.to_act} is to act"
            raise IllegalActionError(f"it is not seat {seat}'s turn: {whose}")
        self.driver.play(self._action_id(seat, action, label))
        self._let_bots_play(now)
        return self._report(seat, now)

    def _action_id(self, seat: int, action: int | None, label: str | None) -> int:
        if (action is None) == (label is None):
            raise IllegalActionError("give the move as exactly one of 'action' (an id) or 'label' (e.g. \"play MaAt\")")
        if action is not None:
            return action
        legal = self.env.observe_json(self.env.possible_agents[seat])["legal_actions"]
        for choice in legal:
            if choice["label"] == label:
                return choice["id"]
        raise IllegalActionError(f"{label!r} is not a legal move here; legal: {', '.join(repr(c['label']) for c in legal)}")

    def _let_bots_play(self, now: float) -> None:
        """Bots move until a client seat is to act (its clock starts at `now`), the episode ends or the request's share is used."""
        client_to_act = self.driver.advance(self._bot_agents, max_moves=BOT_MOVES_PER_REQUEST) is not None
        self.deadline = now + self.move_time_limit if self.move_time_limit and client_to_act else None

    def _settle_timeouts(self, now: float) -> None:
        """R17: for each client seat whose time ran out before `now`, a uniformly random legal action."""
        while self.deadline is not None and now >= self.deadline:
            legal = self.env.observe_json(self.env.possible_agents[self.to_act])["legal_actions"]
            self.driver.play(self._timeout_rng.choice(legal)["id"])
            self._let_bots_play(self.deadline)

    def _check_token(self, seat: int, token: str) -> None:
        expected = self.tokens.get(seat)
        if expected is None:
            held = f"held by the bot {self.bots[seat].name!r}" if 0 <= seat < len(self.bots) else "not at this table"
            raise SeatTokenError(f"seat {seat} is {held}; only client seats have tokens")
        if not secrets.compare_digest(expected.encode(), token.encode()):
            raise SeatTokenError(f"bad token for seat {seat} of table {self.table_id}")

    def _report(self, seat: int, now: float) -> TableView:
        finished = self.finished
        return TableView(
            table_id=self.table_id,
            game=self.env.game.env_id,
            seat=seat,
            to_act=self.to_act,
            your_turn=self.to_act == seat,
            finished=finished,
            rewards=list(self.env.game.returns(self.env.state)) if finished else None,
            seconds_left=max(self.deadline - now, 0.0) if self.deadline is not None and self.to_act == seat else None,
            view=self.env.observe_json(self.env.possible_agents[seat]),
        )


class TableRoom:
    """Every table of a server, by id; the oldest finished tables make room for new ones."""

    def __init__(self, roster: Roster, clock: Callable[[], float] = time.monotonic, max_tables: int = MAX_TABLES):
        self.roster = roster
        self.clock = clock
        self.max_tables = max_tables
        self.tables: dict[str, Table] = {}

    def create(self, request: TableRequest) -> TableCreated:
        entry = lookup(request.game)
        env = new_env(entry, request.config)
        if len(request.seats) != env.game.num_players:
            raise ConfigError(
                f"'seats' lists {len(request.seats)} seats, but this {entry.env_id} table has {env.game.num_players} "
                f"(set the table size with config num_players, {entry.player_counts.start}..{entry.player_counts.stop - 1})"
            )
        bots = [self.roster.bot(name, entry) if name is not None else None for name in request.seats]
        self._make_room()
        seed = request.seed if request.seed is not None else secrets.randbits(63)
        table = Table(uuid.uuid4().hex, env, bots, seed, request.move_time_limit, self.clock())
        self.tables[table.table_id] = table
        return TableCreated(table_id=table.table_id, game=entry.env_id, seats=table.tickets())

    def table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise UnknownTableError(f"no table {table_id!r} on this server")
        return table

    def view(self, table_id: str, seat: int, token: str) -> TableView:
        return self.table(table_id).view(seat, token, self.clock())

    def play(self, table_id: str, seat: int, token: str, action: int | None, label: str | None) -> TableView:
        return self.table(table_id).play(seat, token, action, label, self.clock())

    def _make_room(self) -> None:
        if len(self.tables) < self.max_tables:
            return
        finished = next((table_id for table_id, table in self.tables.items() if table.finished), None)
        if finished is None:
            raise TableLimitError(f"this server already holds {self.max_tables} unfinished tables; finish one first")
        del self.tables[finished]
