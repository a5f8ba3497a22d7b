"""Requests and responses of the bot server, the table server and the stdio bot (docs/protocol.md)."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

Name = Annotated[str, Field(min_length=1, max_length=200)]
SeatView = Annotated[
    dict[str, Any],
    Field(description="One seat's view as `env.observe_json(agent)` gives it: docs/protocol.md lists every field."),
]
GameSettings = Annotated[
    dict[str, Any],
    Field(description='The game\'s config settings (as `cardarena games` lists them), e.g. {"match": true}.'),
]


class Request(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ActRequest(Request):
    """Ask a bot for its move in one seat view."""

    bot: Name = Field(description="An agent name as `cardarena.agents.load` takes it: `<game>/<agent>` or `random`.")
    game: Name = Field(description="A registered environment id, `<game>_v<N>`, or a game name for its newest version.")
    config: GameSettings = Field(
        default={},
        description="Optional: the seat view's `settings` give the table; "
        "a setting repeated here must agree with them.",
    )
    seat_view: SeatView


class ActResponse(BaseModel):
    """The bot's move: an action id of the game's action table and its label in the game's words."""

    action: int
    action_label: str = Field(examples=["play MaAt"])
    legal: Literal[True] = True


class ErrorBody(BaseModel):
    """Every error: a short kind (e.g. `unknown_bot`, `bad_seat_view`) and a message naming the problem."""

    error: str
    detail: str


class GameInfo(BaseModel):
    env_id: str
    name: str
    version: int
    min_players: int
    max_players: int
    num_actions: int
    observation_size: int
    settings: dict[str, Any] = Field(description="Each config setting's default.")
    settings_schema: dict[str, Any] = Field(
        description="The config's JSON schema (pydantic's): each setting's type, default, allowed values and range."
    )
    rules: str | None = Field(
        default=None,
        description="The path of the game's rules page (its docs page, Markdown, shipped with the game and served "
        "without an API key); null when it ships none.",
    )
    renderer: str | None = Field(
        default=None,
        description="The path of the game's own table renderer for the web table (docs/web.md), "
        "a JavaScript module served without an API key; null when it has none.",
    )


class BotInfo(BaseModel):
    name: str
    game: str | None = Field(description="The game it plays; null when it plays every game.")
    kind: Literal["built-in", "search tier", "checkpoint"]
    card: dict[str, Any] | None = Field(
        description="A checkpoint's card.json, a search tier's search and budget; null for a built-in."
    )


class Health(BaseModel):
    status: Literal["ok"] = "ok"
    games: list[str]
    bots: list[str]


class TableRequest(Request):
    """A table: one entry per seat, a bot's name or null for a seat played by a client."""

    game: Name = Field(description="A registered environment id, `<game>_v<N>`, or a game name for its newest version.")
    config: GameSettings = {}
    seats: Annotated[
        list[Name | None],
        Field(min_length=1, max_length=64, description="One entry per seat: a bot name, or null for a client seat."),
    ]
    seed: Annotated[StrictInt, Field(ge=0, lt=2**63)] | None = Field(
        default=None, description="Seed of the deal; random when null."
    )
    move_time_limit: Annotated[float, Field(gt=0, le=86_400, strict=True)] | None = Field(
        default=None,
        description="Seconds a client seat has for each move; "
        "past it the server plays a uniformly random legal action for it.",
    )


class SeatTicket(BaseModel):
    seat: int
    bot: str | None = Field(description="The bot in this seat, or null for a client seat.")
    token: str | None = Field(description="The client seat's token: it reads this seat's view and plays its moves.")


class TableCreated(BaseModel):
    table_id: str
    game: str
    seats: list[SeatTicket]
    creator_token: str = Field(
        description="The creator's token: it deletes the table (`DELETE /v1/tables/{table_id}?token=...`) "
        "and reads its whole history once it has ended (`GET /v1/tables/{table_id}/history?token=...`), "
        "or at any time where no client holds a seat."
    )
    spectator_token: str = Field(
        description="A read-only token for spectators: "
        "the public table (`GET /v1/tables/{table_id}/spectate?token=...`) and the public history, "
        "never a seat's private cards."
    )
    table_ttl: float = Field(description="Seconds without a read or a move after which the server removes the table.")


class ActionRequest(Request):
    """A client seat's move: an action id, or its label (e.g. "play MaAt"), from the view's legal_actions."""

    seat: Annotated[StrictInt, Field(ge=0, le=1_000)]
    token: Name
    action: Annotated[StrictInt, Field(ge=-(2**31), lt=2**31)] | None = None
    label: Name | None = None
    move: Annotated[StrictInt, Field(ge=0)] | None = Field(
        default=None,
        description="Optional: the `move` of the view the action was chosen on; if the table has moved on since, the "
        "action is refused (409 `stale_view`) instead of played on a view the client never saw.",
    )


class TableView(BaseModel):
    """One seat's view of a table, and whether it is that seat's turn."""

    table_id: str
    game: str
    seat: int
    move: int = Field(
        description="The number of moves played at the table so far; an action may echo it (refused on a stale view)."
    )
    to_act: int | None = Field(description="The seat to act, or null when the episode is over.")
    your_turn: bool
    finished: bool
    bots_thinking: bool = Field(
        description="Bots are playing their moves in the background: read the table again (with `wait`) for them."
    )
    rewards: list[float] | None = Field(description="Each seat's total reward once the episode is over.")
    seconds_left: float | None = Field(description="Time left for the seat to act, with a move time limit.")
    view: SeatView


Event = Annotated[
    dict[str, Any],
    Field(
        description="A hand-history event in card codes: `hand`, `kind`, `seat` and its public fields; "
        "`private` only in the history of the seat it concerns, or the whole history."
    ),
]


class TableHistory(BaseModel):
    """A table's hand history, as much of it as the token may see."""

    table_id: str
    game: str
    seat: int | None = Field(
        description="The seat whose history this is (its own private events included); "
        "null for the public or the whole history."
    )
    whole_table: bool = Field(description="Every event whole, every seat's private fields included (the creator's).")
    finished: bool
    events: list[Event]
    records: list[dict[str, Any]] | None = Field(
        description="The creator's, once the table has ended: one record per finished hand "
        "(its starting state, its action ids and its events), which `cardarena replay` plays again bit for bit."
    )


class SpectatorView(BaseModel):
    """What a spectator sees of a table, built from the public history: no seat's private cards."""

    table_id: str
    seats: list[str | None] = Field(description="One entry per seat: its bot's name, or null for a client seat.")
    whole_table: bool = Field(
        description="Every seat's private fields included: the creator's view of a table where no client holds a seat."
    )
    view: dict[str, Any] = Field(
        description="`game`, `settings`, `to_act`, `finished`, `rewards` (once finished), "
        "`last_hand` (the last finished hand's result event) and `events` (the hand in progress)."
    )


class TableSummary(BaseModel):
    """A table as `GET /v1/tables` lists it: who sits where and whose turn it is, no cards."""

    table_id: str
    game: str
    seats: list[str | None] = Field(description="One entry per seat: its bot's name, or null for a client seat.")
    to_act: int | None = Field(description="The seat to act, or null when the episode is over.")
    finished: bool
    bots_thinking: bool = Field(description="Bots are playing their moves in the background.")
    seconds_left: float | None = Field(description="Time left for the seat to act, with a move time limit.")
    expires_in: float = Field(description="Seconds until the table is removed unless a seat reads or plays it.")
