"""Tables where bots and clients play together: each client seat reads and plays its own seat only.

Bots move as soon as it is their turn, in the background: a room's `bot_pool` (worker threads)
plays them one move at a time, each thinking on a copy of the table outside the table's lock, so a request
never waits for a bot's move, let alone a whole match;
`bots_thinking` says they are still at it. With a `search_pool` too, a search bot (`bots.searches`)
thinks in one of its processes, from the table's state as JSON, so that its search holds no GIL of the
server's. Without pools (library use) bots play within the call. Either way a search bot's decision
draws from a seed of its own (`decision_seed`: the table's seed, the seat, the move number), so a
search within a count of worlds or iterations replays a seeded table wherever it runs.
With a move time limit, a client seat that lets its
time run out gets a uniformly random legal action played for it (one rule for every game,
from the rulebooks' time-limit ruling); timeouts are settled whenever the table is next read, played
or listed, each next deadline counted from the one before, so the table is as if a clock had run.

A table lives until its creator deletes it or nobody has read or played it for the room's
`table_ttl` seconds; a full room, or an API key at its cap, makes way for a new table by removing
the least recently used finished one.

Who sees what: a seat's token opens that seat's view and history; the spectator's token the
public table (`spectate.public_view`) and the public history; the creator's token the whole
history once the table has ended (a hand's starting state holds the cards still to come), and
the whole table at any time where no client holds a seat. With a `record_dir`, a table appends
each hand's record to its file there as the hand ends, so a killed server loses only hands in play.
"""

from __future__ import annotations

import hashlib
import json
import logging
import random
import secrets
import threading
import time
import uuid
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from cardarena.envs import lookup
from cardarena.envs.core.env import CardGameEnv
from cardarena.envs.core.errors import ConfigError, IllegalActionError
from cardarena.envs.core.spectate import public_view
from cardarena.envs.core.table import Table as TableDriver
from cardarena.envs.core.table import decide
from cardarena.records import SUFFIX, HandAppender, hand_records, remove_orphans

from .bots import Bot, Roster, for_decision, new_env, searches
from .errors import StaleViewError, TableLimitError, TableRunningError, TableTokenError, UnknownTableError
from .keys import ApiKey
from .models import SeatTicket, SpectatorView, TableCreated, TableHistory, TableRequest, TableSummary, TableView
from .search_pool import SearchPool, SearchTask

MAX_TABLES = 1_000
TABLE_TTL = 600.0
# The settings that set a table's length, and their bounds on a server: beyond them a create is a 422.
TABLE_LENGTH_BOUNDS = {"target_score": 1_000, "max_hands": 1_000, "num_hands": 1_000}

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Role:
    """Whom a table token speaks for: the table's creator, a spectator, or one client seat."""

    kind: Literal["creator", "spectator", "seat"]
    seat: int | None = None


CREATOR = Role("creator")
SPECTATOR = Role("spectator")


def seat_role(seat: int) -> Role:
    return Role("seat", seat)


class TableTokens:
    """A table's secret tokens, one per role (its creator, its spectators and each client seat); a token
    opens its own role only."""

    def __init__(self, client_seats: Iterable[int]):
        roles = (CREATOR, SPECTATOR, *(seat_role(seat) for seat in client_seats))
        self._tokens = {role: secrets.token_urlsafe(18) for role in roles}
        self.creator, self.spectator = self._tokens[CREATOR], self._tokens[SPECTATOR]

    def token(self, role: Role) -> str | None:
        """The token of `role`, or None when the table has no such role."""
        return self._tokens.get(role)

    def opens(self, role: Role, token: str) -> bool:
        """Whether `token` is the token of `role` (compared in constant time)."""
        expected = self._tokens.get(role)
        return expected is not None and secrets.compare_digest(expected.encode(), token.encode())

    def role_of(self, token: str) -> Role | None:
        """The role `token` speaks for, or None (compared with every token, in constant time each)."""
        opened = [role for role in self._tokens if self.opens(role, token)]
        return opened[0] if opened else None


class Table:
    """One episode of a game; seats are bots or clients holding a token.

    Bots move through the table driver, which steps eliminated seats out of a match: the table is
    finished when the game is over, and a client seat that has left the game just watches.
    With a `record_path`, each hand's record is appended there as the hand ends.
    """

    def __init__(
        self,
        table_id: str,
        env: CardGameEnv,
        bots: list[Bot | None],
        seed: int,
        move_time_limit: float | None,
        clock: Callable[[], float],
        owner: ApiKey | None = None,
        record_path: Path | None = None,
        bot_pool: Executor | None = None,
        search_pool: SearchPool | None = None,
    ):
        self.table_id = table_id
        self.env = env
        self.bots = bots
        self.owner = owner
        self.clock = clock
        self.last_used = clock()
        self.lock = threading.RLock()  # held for every read and move of the env, never while a bot thinks
        self.driver = TableDriver(env)
        self._seated_bots = {seat: bot for seat, bot in enumerate(bots) if bot is not None}
        self._bot_agents = {seat: bot.agent for seat, bot in self._seated_bots.items()}
        self._thinking_env: CardGameEnv | None = None  # where bots think, on a copy of the table (`_thinking_copy`)
        self.has_clients = len(self._bot_agents) < len(bots)
        self.tokens = TableTokens(seat for seat, bot in enumerate(bots) if bot is None)
        self.move_time_limit = move_time_limit
        self.deadline: float | None = None
        # The driver's, kept after every move, so that a listing or a full room reads them without the lock.
        self.finished = False
        self.to_act: int | None = None
        self.bots_thinking = False
        self.moves = 0  # moves played at this table, the move number a view carries
        self.closed = False
        self._bot_pool = bot_pool
        self._search_pool = search_pool
        self._seed = seed
        self._timeout_rng = random.Random(seed)
        with self.lock:
            self.driver.reset(seed=seed)
            self._records = (
                HandAppender(record_path, env, seats=[bot.name if bot else "client" for bot in bots], table_id=table_id)
                if record_path is not None
                else None
            )
            self._after_move(self.last_used)

    def tickets(self) -> list[SeatTicket]:
        return [
            SeatTicket(seat=seat, bot=bot.name if bot else None, token=self.tokens.token(seat_role(seat)))
            for seat, bot in enumerate(self.bots)
        ]

    def view(self, seat: int, token: str, now: float) -> TableView:
        """What `seat` sees, after settling any timeouts."""
        self._check_seat(seat, token)
        with self.lock:
            self.catch_up(now)
            return self._report(seat, now)

    def play(
        self, seat: int, token: str, action: int | None, label: str | None, now: float, move: int | None = None
    ) -> TableView:
        """Play the client seat's move (an id or its label); the bots' moves that follow start in the background.
        With `move`, the move number of the view the move was chosen on, a move on a stale view is refused."""
        self._check_seat(seat, token)
        with self.lock:
            self.catch_up(now)
            if move is not None and move != self.moves:
                raise StaleViewError(
                    f"the move was chosen on the view of move {move}, but the table is at move {self.moves}: "
                    "read the table again and choose on its current view"
                )
            if self.to_act != seat:
                whose = "the episode is over" if self.finished else f"seat {self.to_act} is to act"
                raise IllegalActionError(f"it is not seat {seat}'s turn: {whose}")
            self._play(self._action_id(seat, action, label))
            self._after_move(now)
            return self._report(seat, now)

    def history(self, token: str, seat: int | None, now: float) -> TableHistory:
        """The history `token` may see (`seat`, if given, must be the token's): a seat's own, the
        public one (spectator), or every event and the hands' records (the creator, once the table
        has ended; every event meanwhile where no client holds a seat)."""
        role = self._holder(token, seat)
        with self.lock:
            self.catch_up(now)
            return self._history(role)

    def _history(self, role: Role) -> TableHistory:
        whole = role == CREATOR
        if whole and self.has_clients and not self.finished:
            raise TableRunningError(
                f"table {self.table_id} has not ended: its whole history "
                "(each hand's starting state holds the cards still to come) is given to its creator once it has; "
                "its spectator token reads the public history meanwhile"
            )
        return TableHistory(
            table_id=self.table_id,
            game=self.env.game.env_id,
            seat=role.seat,
            whole_table=whole,
            finished=self.finished,
            events=self.env.history(role.seat) if role.seat is not None or whole else self.env.public_history(),
            records=hand_records(self.env) if whole and self.finished else None,
        )

    def spectate(self, token: str, now: float) -> SpectatorView:
        """The table as a spectator sees it; the whole table for its creator where no client holds a seat."""
        role = self._holder(token, None)
        if role.kind == "seat":
            raise TableTokenError(
                f"a seat's token reads its seat's view (GET /v1/tables/{self.table_id}?seat=k&token=...), "
                "not the spectators'"
            )
        whole = role == CREATOR and not self.has_clients
        with self.lock:
            self.catch_up(now)
            return SpectatorView(
                table_id=self.table_id,
                seats=self.seat_names(),
                whole_table=whole,
                view=public_view(self.driver, whole_table=whole),
            )

    def seat_names(self) -> list[str | None]:
        """Each seat's bot name, None for a client seat."""
        return [bot.name if bot else None for bot in self.bots]

    def catch_up(self, now: float) -> None:
        """Settle the timeouts due by `now` (a client seat's clock runs only while no bot is thinking)."""
        if self.deadline is not None and now >= self.deadline:
            with self.lock:
                self._settle_timeouts(now)

    def check_creator(self, token: str) -> None:
        if not self.tokens.opens(CREATOR, token):
            raise TableTokenError(
                f"bad creator token for table {self.table_id}: only the token given to its creator deletes it"
            )

    def summary(self, now: float, table_ttl: float) -> TableSummary:
        return TableSummary(
            table_id=self.table_id,
            game=self.env.game.env_id,
            seats=self.seat_names(),
            to_act=self.to_act,
            finished=self.finished,
            bots_thinking=self.bots_thinking,
            seconds_left=self._seconds_left(now),
            expires_in=max(self.last_used + table_ttl - now, 0.0),
        )

    def _action_id(self, seat: int, action: int | None, label: str | None) -> int:
        if (action is None) == (label is None):
            raise IllegalActionError("give the move as exactly one of 'action' (an id) or 'label' (e.g. \"play MaAt\")")
        if action is not None:
            return action
        legal = self.env.observe_json(self.env.possible_agents[seat])["legal_actions"]
        for choice in legal:
            if choice["label"] == label:
                return choice["id"]
        raise IllegalActionError(
            f"{label!r} is not a legal move here; legal: {', '.join(repr(c['label']) for c in legal)}"
        )

    def _after_move(self, now: float) -> None:
        """Publish who is to act: a client's clock starts at `now`, a bot goes to the pool, an end closes the table."""
        self.finished = self.driver.finished
        self.to_act = self.driver.to_act
        client_to_act = not self.finished and self.to_act not in self._bot_agents
        self.deadline = now + self.move_time_limit if self.move_time_limit and client_to_act else None
        self.bots_thinking = not self.finished and not client_to_act
        if self.finished:
            self.close()
        elif self.bots_thinking:
            self._hand_to_bots(now)

    def _play_bots(self, started: float) -> None:
        """Bots move, one move at a time, until a client seat is to act or the episode ends (in a pool,
        each move is a task of its own, so a long all-bot match shares the workers with every other table).

        A bot thinks on a copy of the table (`_thinking_copy`, or a search process) without the lock,
        so views, listings and spectators answer while it thinks; the lock is held only to copy the
        state and to play. The client's clock starts when they are done: at `started` within a call (as
        if bots took no time, so that timeouts settle as if a clock had run), else when the last move ends."""
        while True:
            with self.lock:
                seat = self.to_act
                if self.closed or not self.bots_thinking or seat is None:
                    return
                moves = self.moves
                state = self.env.game.clone(self.env.state)
            agent, seed = self._bot_agents[seat], decision_seed(self._seed, seat, moves)
            if self._search_pool is not None and searches(agent):
                self._think_in_process(self._search_pool, seat, moves, state, seed)
                return
            try:
                action = decide(for_decision(agent, seed), self._thinking_copy(state), seat)
            except Exception:
                logger.exception("table %s: the bot in seat %d failed; the table stops", self.table_id, seat)
                self.bots_thinking = False
                return
            if not self._play_bot_move(moves, action, started if self._bot_pool is None else self.clock()):
                return
            if self._bot_pool is not None:  # the next move queues behind other tables' moves: no table holds a worker
                self._hand_to_bots(started)
                return

    def _play_bot_move(self, moves: int, action: int, now: float) -> bool:
        """Play the bot's move chosen at move number `moves`, unless the table has moved on or closed
        meanwhile; whether a bot is to act next (else a client's clock starts at `now`, or the table ends)."""
        with self.lock:
            if self.closed or self.moves != moves:
                return False
            self._play(action)
            if self.driver.finished or self.driver.to_act not in self._bot_agents:
                self._after_move(now)
                return False
            self.to_act = self.driver.to_act
            return True

    def _thinking_copy(self, state: Any) -> CardGameEnv:
        """The env where bots think (made at the first bot move), loaded with `state`, a copy of the table's."""
        if self._thinking_env is None:
            self._thinking_env = type(self.env)(**self.env.config.model_dump())
        self._thinking_env.load_state(state)
        return self._thinking_env

    def _think_in_process(self, pool: SearchPool, seat: int, moves: int, state: Any, seed: int) -> None:
        """The search bot in `seat` thinks in `pool` on `state`, a copy of the table's; its move is
        played when the answer comes (`_play_thought`)."""
        bot = self._seated_bots[seat]
        game = self.env.game
        task = SearchTask(
            bot=bot.name,
            search_ms=bot.search_ms,
            env_id=game.env_id,
            config=self.env.config.model_dump(),
            state=json.dumps(game.state_to_json(state)),
            seat=seat,
            seed=seed,
        )
        try:
            thought = pool.submit(task)
        except RuntimeError:  # the pool is shut down: the server is stopping
            self.bots_thinking = False
            return
        thought.add_done_callback(lambda done: self._play_thought(done, seat, moves))

    def _play_thought(self, thought: Future[int], seat: int, moves: int) -> None:
        """Play the move a search process chose at move number `moves` (in the pool's thread), then the
        bots play on; a process that raised or died stops the table's bots."""
        if self.closed:
            return
        try:
            action = thought.result()
        except Exception as error:
            logger.error("table %s: the bot in seat %d failed; the table stops: %s", self.table_id, seat, error)
            self.bots_thinking = False
            return
        if self._play_bot_move(moves, action, self.clock()):
            self._hand_to_bots(self.clock())

    def _hand_to_bots(self, started: float) -> None:
        """The bots play on: within this call without a pool, else as the pool's next task (none once
        the pool is shut down: the server is stopping)."""
        if self._bot_pool is None:
            self._play_bots(started)
            return
        try:
            self._bot_pool.submit(self._play_bots, started)
        except RuntimeError:
            self.bots_thinking = False

    def _play(self, action: int) -> None:
        """The seat to act plays `action` (under the table's lock); a hand it ends is recorded."""
        self.driver.play(action)
        self.moves += 1
        if self._records is not None:
            try:
                self._records.add_finished_hand()
            except OSError as err:
                logger.warning(
                    "table %s: a hand's record could not be written to %s (%s)", self.table_id, self._records.path, err
                )

    def close(self) -> None:
        """The table has ended or is being removed: its bots stop."""
        self.closed = True

    def _settle_timeouts(self, now: float) -> None:
        """R17: for each client seat whose time ran out before `now`, a uniformly random legal action."""
        while self.deadline is not None and self.to_act is not None and now >= self.deadline:
            legal = self.env.observe_json(self.env.possible_agents[self.to_act])["legal_actions"]
            self._play(self._timeout_rng.choice(legal)["id"])
            self._after_move(self.deadline)

    def _holder(self, token: str, seat: int | None) -> Role:
        """The role of `token` at this table; with `seat`, it must be that seat's token."""
        if seat is not None:
            self._check_seat(seat, token)
            return seat_role(seat)
        role = self.tokens.role_of(token)
        if role is None:
            raise TableTokenError(
                f"bad token for table {self.table_id}: it is none of its seat, spectator or creator tokens"
            )
        return role

    def _check_seat(self, seat: int, token: str) -> None:
        if self.tokens.token(seat_role(seat)) is None:
            bot = self.bots[seat] if 0 <= seat < len(self.bots) else None
            held = f"held by the bot {bot.name!r}" if bot is not None else "not at this table"
            raise TableTokenError(f"seat {seat} is {held}; only client seats have tokens")
        if not self.tokens.opens(seat_role(seat), token):
            raise TableTokenError(f"bad token for seat {seat} of table {self.table_id}")

    def _seconds_left(self, now: float) -> float | None:
        return max(self.deadline - now, 0.0) if self.deadline is not None else None

    def _report(self, seat: int, now: float) -> TableView:
        finished = self.finished
        return TableView(
            table_id=self.table_id,
            game=self.env.game.env_id,
            seat=seat,
            move=self.moves,
            to_act=self.to_act,
            your_turn=self.to_act == seat,
            finished=finished,
            bots_thinking=self.bots_thinking,
            rewards=list(self.driver.totals) if finished else None,
            seconds_left=self._seconds_left(now) if self.to_act == seat else None,
            view=self.env.observe_json(self.env.possible_agents[seat]),
        )


class TableRoom:
    """Every table of a server by id, least recently used first, and the open tables of each API key.

    Every request first removes the tables nobody has read or played for `table_ttl` seconds. Bots
    play in `bot_pool`'s threads, search bots in `search_pool`'s processes if given (it needs a
    `bot_pool`); without pools, within the call.
    """

    def __init__(
        self,
        roster: Roster,
        clock: Callable[[], float] = time.monotonic,
        max_tables: int = MAX_TABLES,
        table_ttl: float = TABLE_TTL,
        record_dir: Path | None = None,
        bot_pool: Executor | None = None,
        search_pool: SearchPool | None = None,
    ):
        if search_pool is not None and bot_pool is None:
            raise ValueError("a room's search_pool needs a bot_pool: the moves it finds are played in the background")
        self.roster = roster
        self.bot_pool = bot_pool
        self.search_pool = search_pool
        self.lock = (
            threading.Lock()
        )  # over the tables and the counts of open tables, never held while waiting for a table
        self.clock = clock
        self.max_tables = max_tables
        self.table_ttl = table_ttl
        self.record_dir = record_dir
        if record_dir is not None:
            for orphan in remove_orphans(record_dir):
                logger.warning("removed %s, a temporary record file a killed process left behind", orphan)
        self.tables: OrderedDict[str, Table] = OrderedDict()
        self.held: Counter[ApiKey] = Counter()  # open tables per API key; a key holding none has no entry

    def create(self, request: TableRequest, owner: ApiKey | None = None) -> TableCreated:
        """A new table for `owner` (the request's API key, None on a server without keys)."""
        self._expire()
        entry = lookup(request.game)
        check_table_length(request.config)
        env = new_env(entry, request.config)
        if len(request.seats) != env.game.num_players:
            raise ConfigError(
                f"'seats' lists {len(request.seats)} seats, but this {entry.env_id} table has {env.game.num_players} "
                "(set the table size with config num_players, "
                f"{entry.player_counts.start}..{entry.player_counts.stop - 1})"
            )
        bots = [self.roster.bot(name, entry) if name is not None else None for name in request.seats]
        seed = request.seed if request.seed is not None else secrets.randbits(63)
        with self.lock:
            making_room = self._room_for(owner, self.clock())
            if making_room is not None:
                self._detach(making_room)
            table_id = uuid.uuid4().hex
            record_path = self.record_dir / f"{table_id}{SUFFIX}" if self.record_dir is not None else None
            table = Table(
                table_id,
                env,
                bots,
                seed,
                request.move_time_limit,
                self.clock,
                owner,
                record_path,
                self.bot_pool,
                self.search_pool,
            )
            self.tables[table.table_id] = table
            if owner is not None:
                self.held[owner] += 1
        return TableCreated(
            table_id=table.table_id,
            game=entry.env_id,
            seats=table.tickets(),
            creator_token=table.tokens.creator,
            spectator_token=table.tokens.spectator,
            table_ttl=self.table_ttl,
        )

    def view(self, table_id: str, seat: int, token: str) -> TableView:
        now = self._expire()
        table = self._table(table_id)
        view = table.view(seat, token, now)
        self._touch(table, now)
        return view

    def play(
        self, table_id: str, seat: int, token: str, action: int | None, label: str | None, move: int | None = None
    ) -> TableView:
        now = self._expire()
        table = self._table(table_id)
        view = table.play(seat, token, action, label, now, move)
        self._touch(table, now)
        return view

    def history(self, table_id: str, token: str, seat: int | None) -> TableHistory:
        """The table's history that `token` may see; a seat's read keeps the table alive."""
        now = self._expire()
        table = self._table(table_id)
        answer = table.history(token, seat, now)
        if answer.seat is not None:
            self._touch(table, now)
        return answer

    def spectate(self, table_id: str, token: str) -> SpectatorView:
        """The public table view (a spectator's read keeps no table alive)."""
        now = self._expire()
        return self._table(table_id).spectate(token, now)

    def delete(self, table_id: str, token: str) -> None:
        """Remove the table, for the holder of its creator token."""
        self._expire()
        table = self._table(table_id)
        table.check_creator(token)
        with self.lock:
            if self.tables.get(table_id) is table:
                self._detach(table)

    def listing(self, owner: ApiKey | None = None) -> list[TableSummary]:
        """`owner`'s tables (every table on a server without keys), their timeouts settled.

        Listing keeps no table alive."""
        now = self._expire()
        with self.lock:
            tables = [table for table in self.tables.values() if table.owner is owner]
        for table in tables:
            table.catch_up(now)
        return [table.summary(now, self.table_ttl) for table in tables]

    def _table(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise UnknownTableError(
                f"no table {table_id!r} on this server (a table is removed when its creator deletes it "
                f"or after {self.table_ttl:g} s without a read or a move)"
            )
        return table

    def _touch(self, table: Table, now: float) -> None:
        with self.lock:
            table.last_used = now
            if self.tables.get(table.table_id) is table:
                self.tables.move_to_end(table.table_id)

    def _expire(self) -> float:
        """Remove the tables idle for `table_ttl` seconds; the time now."""
        now = self.clock()
        with self.lock:
            while self.tables:
                oldest = next(iter(self.tables.values()))
                if now - oldest.last_used < self.table_ttl:
                    break
                self._detach(oldest)
        return now

    def close(self) -> None:
        """Remove every table, stopping its bots (a server stopping); their finished hands are on file already."""
        with self.lock:
            for table in list(self.tables.values()):
                self._detach(table)

    def _room_for(self, owner: ApiKey | None, now: float) -> Table | None:
        """The finished table to remove to make room for one more of `owner`'s, or None when there is room."""
        if owner is not None and self.held[owner] >= owner.max_tables:
            mine = [table for table in self.tables.values() if table.owner is owner]
            return self._make_way(
                mine, now, f"this API key already holds {owner.max_tables} unfinished tables, its cap"
            )
        if len(self.tables) >= self.max_tables:
            return self._make_way(
                self.tables.values(), now, f"this server already holds {self.max_tables} unfinished tables, its cap"
            )
        return None

    def _make_way(self, tables: Iterable[Table], now: float, full: str) -> Table:
        """The least recently used finished one of `tables`, their timeouts settled.

        Raises TableLimitError saying `full` when none is finished."""
        for table in tables:
            table.catch_up(now)
            if table.finished:
                return table
        raise TableLimitError(
            f"{full}; finish or delete one, or wait: "
            f"a table is removed after {self.table_ttl:g} s without a read or a move"
        )

    def _detach(self, table: Table) -> None:
        """Take the table out of the room (under the room's lock), stopping its bots."""
        table.close()
        del self.tables[table.table_id]
        if table.owner is not None:
            self.held[table.owner] -= 1
            if not self.held[table.owner]:
                del self.held[table.owner]


def check_table_length(config: dict) -> None:
    """ConfigError when a setting that sets the table's length is over its bound on a server."""
    for key, bound in TABLE_LENGTH_BOUNDS.items():
        value = config.get(key)
        if isinstance(value, (int, float)) and value > bound:
            raise ConfigError(f"config {key!r} is {value!r}; this server's tables take {key} of at most {bound}")


def decision_seed(table_seed: int, seat: int, move: int) -> int:
    """The seed of the bot's decision in `seat` at move number `move` of a table dealt from `table_seed`:
    the three hashed, the same in every process (unlike `hash`)."""
    digest = hashlib.blake2b(f"{table_seed}:{seat}:{move}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")
