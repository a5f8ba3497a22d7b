"""The HTTP server: bots answer seat views (`/v1/act`), tables seat bots and clients (`/v1/tables`).

With API keys, every `/v1` request names one in the X-API-Key header; `/healthz` and the docs stay open.

Every error is a 4xx with an `ErrorBody` naming the problem. The event loop only routes: a bot's
move (`/v1/act`) and every table's work run in worker threads, bots at tables in the background
(tables.py) and search bots at tables in search processes (search_pool.py), so no request waits for
another's bots and `/healthz` always answers. A table read may `wait` a bounded time for its bots to
be done.
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from importlib.resources import files
from pathlib import Path
from typing import Annotated, Any

from fastapi import APIRouter, Depends, FastAPI, Query, Request, Response, Security
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.security import APIKeyHeader
from fastapi_offline import FastAPIOffline
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from cardarena import __version__
from cardarena.envs import GAMES, lookup
from cardarena.envs.core.errors import CardArenaError

from .bots import RENDERER, RULES, Roster, game_file, game_infos
from .errors import status_and_kind
from .keys import API_KEY_HEADER, ApiKey, ApiKeys
from .models import (
    ActionRequest,
    ActRequest,
    ActResponse,
    BotInfo,
    ErrorBody,
    GameInfo,
    Health,
    SpectatorView,
    TableCreated,
    TableHistory,
    TableRequest,
    TableSummary,
    TableView,
)
from .search_pool import SEARCH_PROCESSES, SearchPool
from .tables import MAX_TABLES, TABLE_TTL, TableRoom

MAX_BODY_BYTES = 64 * 1024
BODY_TIMEOUT = 5.0  # seconds a request has to send its whole body
BOT_THREADS = 4  # tables whose bots think at once; more wait their turn in the pool
SHUTDOWN_GRACE = 3  # seconds open requests get once the server is told to stop
MAX_WAIT = 10.0  # seconds a table read may wait for its bots
_WAIT_STEP = 0.02

WEB_DIR = Path(__file__).with_name("web")

_HTTP_KINDS = {404: "not_found", 405: "method_not_allowed", 413: "body_too_large"}

Token = Annotated[str, Query(min_length=1, max_length=200)]
Wait = Annotated[
    float,
    Query(ge=0, le=MAX_WAIT, description="Seconds to wait, at most, for the table's bots to be done before answering."),
]


def create_app(
    roster: Roster,
    max_body_bytes: int = MAX_BODY_BYTES,
    clock: Callable[[], float] = time.monotonic,
    max_tables: int = MAX_TABLES,
    table_ttl: float = TABLE_TTL,
    api_keys: ApiKeys | None = None,
    record_dir: Path | None = None,
    search_processes: int = SEARCH_PROCESSES,
) -> FastAPI:
    """The server's ASGI app over the bots of `roster`; with `api_keys`, every `/v1` request needs
    one of them (ApiKeyFileError when their caps could fill the server); with `record_dir`, every
    table appends each hand's record there as the hand ends. Search bots at tables think in
    `search_processes` processes, started at their first move (0: in the bots' threads). Its shutdown
    stops the bots and the search processes."""
    if api_keys is not None:
        api_keys.check_caps(max_tables)
    if search_processes < 0:
        raise ValueError(f"search_processes is 0 (search bots think in threads) or more, not {search_processes}")
    bot_pool = ThreadPoolExecutor(BOT_THREADS, thread_name_prefix="cardarena-bots")
    search_pool = SearchPool(search_processes) if search_processes else None
    room = TableRoom(roster, clock, max_tables, table_ttl, record_dir, bot_pool, search_pool)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await run_in_threadpool(room.close)
        bot_pool.shutdown(wait=False, cancel_futures=True)
        if search_pool is not None:
            await run_in_threadpool(search_pool.shutdown)

    # the API docs (/docs, /redoc) load Swagger UI and ReDoc from the package, not from a CDN: they work offline
    app = FastAPIOffline(
        title="cardarena",
        version=__version__,
        description="Bots and tables for every registered cardarena game, "
        "speaking JSON seat views in canonical card codes.",
        lifespan=lifespan,
    )
    app.state.room = room
    caller = _caller(api_keys)
    v1 = APIRouter(prefix="/v1", dependencies=[Depends(caller)])
    refused = (401,) if api_keys is not None else ()

    @app.get("/healthz", response_model=Health)
    async def healthz() -> Health:
        return Health(games=list(GAMES), bots=list(roster.bots))  # the registry's ids: no game imported

    @v1.get("/games", response_model=list[GameInfo], responses=_documented(*refused))
    def games() -> list[GameInfo]:  # a worker thread: the first call imports every game
        """Every registered game: player counts, action and observation sizes, config defaults."""
        return game_infos()

    @app.get(
        "/web/renderers/{game}.js",
        response_class=Response,
        responses={200: {"content": {"text/javascript": {}}}, **_documented(404)},
    )
    def renderer(game: str) -> Response:  # a worker thread: the first call imports the game
        """The game's own table renderer for the web table, a JavaScript module (docs/web.md)."""
        missing = "renderer for the web table; the page draws its views generically"
        return _served_game_file(game, RENDERER, "text/javascript", missing)

    @app.get(
        "/web/rules/{game}.md",
        response_class=Response,
        responses={200: {"content": {"text/markdown": {}}}, **_documented(404)},
    )
    def rules(game: str) -> Response:  # a worker thread: the first call imports the game
        """The game's rules page (Markdown) for the web table's rules panel (docs/web.md)."""
        return _served_game_file(game, RULES, "text/markdown", "rules page")

    @app.get(
        "/web/decks/{deck}.js",
        response_class=Response,
        responses={200: {"content": {"text/javascript": {}}}, **_documented(404)},
    )
    async def deck_faces(deck: str) -> Response:
        """A shared deck's card faces for the web table, a JavaScript module its games' renderers import."""
        source = files("cardarena.envs.core.decks") / f"{deck}.js"
        if not deck.isidentifier() or not source.is_file():
            raise HTTPException(404, f"no shared deck named {deck!r} draws faces for the web table")
        return Response(source.read_text(encoding="utf-8"), media_type="text/javascript")

    @v1.get("/bots", response_model=list[BotInfo], responses=_documented(*refused))
    async def bots() -> list[BotInfo]:
        """Every bot this server serves, with its card."""
        return [bot.info() for bot in roster.bots.values()]

    @v1.post("/act", response_model=ActResponse, responses=_documented(*refused, 404, 413, 415, 422))
    async def act(request: ActRequest) -> ActResponse:
        """The bot's move in a seat view whose seat is to act (a search bot within the server's time per move)."""
        return await run_in_threadpool(roster.act, request)

    @v1.post(
        "/tables",
        response_model=TableCreated,
        status_code=201,
        responses=_documented(*refused, 404, 413, 415, 422, 429),
    )
    async def create_table(request: TableRequest, owner: ApiKey | None = Depends(caller)) -> TableCreated:
        """Seat bots and clients at a new table; each client seat gets a token, the creator a token that deletes it.
        It answers at once: bots play in the background."""
        return await run_in_threadpool(room.create, request, owner)

    @v1.get("/tables", response_model=list[TableSummary], responses=_documented(*refused))
    async def list_tables(owner: ApiKey | None = Depends(caller)) -> list[TableSummary]:
        """The tables of the request's API key (every table on a server without keys), their timeouts settled."""
        return await run_in_threadpool(room.listing, owner)

    @v1.get("/tables/{table_id}", response_model=TableView, responses=_documented(*refused, 403, 404, 422))
    async def read_table(
        table_id: str, seat: Annotated[int, Query(ge=0, le=1_000)], token: Token, wait: Wait = 0.0
    ) -> TableView:
        """One seat's view of the table (the token opens that seat only), once its bots are done or `wait` is over."""
        await _bots_done(room, table_id, wait)
        return await run_in_threadpool(room.view, table_id, seat, token)

    @v1.get(
        "/tables/{table_id}/history", response_model=TableHistory, responses=_documented(*refused, 403, 404, 409, 422)
    )
    async def table_history(
        table_id: str, token: Token, seat: Annotated[int | None, Query(ge=0, le=1_000)] = None
    ) -> TableHistory:
        """The table's hand history the token may see: a seat's own (any time), the public one (the
        spectator token, any time), or every event with the hands' records (the creator token, once
        the table has ended; every event meanwhile where no client holds a seat)."""
        return await run_in_threadpool(room.history, table_id, token, seat)

    @v1.get("/tables/{table_id}/spectate", response_model=SpectatorView, responses=_documented(*refused, 403, 404, 422))
    async def spectate(table_id: str, token: Token) -> SpectatorView:
        """The table as a spectator sees it (the spectator token), from its public history; the creator
        token sees the whole table where no client holds a seat."""
        return await run_in_threadpool(room.spectate, table_id, token)

    @v1.post(
        "/tables/{table_id}/actions",
        response_model=TableView,
        responses=_documented(*refused, 403, 404, 409, 413, 415, 422),
    )
    async def play(table_id: str, request: ActionRequest, wait: Wait = 0.0) -> TableView:
        """Play a client seat's move; the bots then play in the background until a client is to act.
        The answer is the seat's view once they are done or `wait` has passed."""
        view = await run_in_threadpool(
            room.play, table_id, request.seat, request.token, request.action, request.label, request.move
        )
        if not (wait and view.bots_thinking):
            return view
        await _bots_done(room, table_id, wait)
        return await run_in_threadpool(room.view, table_id, request.seat, request.token)

    @v1.delete(
        "/tables/{table_id}", status_code=204, response_class=Response, responses=_documented(*refused, 403, 404, 422)
    )
    async def delete_table(table_id: str, token: Token) -> None:
        """Remove the table; the token is the creator's, from the answer that created it."""
        await run_in_threadpool(room.delete, table_id, token)

    @app.get("/", include_in_schema=False)
    async def page() -> FileResponse:
        """The web table (docs/web.md): a client of the `/v1` API like any other frontend."""
        return FileResponse(WEB_DIR / "index.html")

    app.include_router(v1)
    app.mount("/web", StaticFiles(directory=WEB_DIR), name="web")
    app.add_exception_handler(CardArenaError, _cardarena_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes)
    return app


def _served_game_file(game: str, name: str, media_type: str, missing: str) -> Response:
    """A file the game ships for the web table (its renderer, its rules page), or a 404 saying it ships no `missing`."""
    entry = lookup(game)
    source = game_file(entry, name)
    if source is None:
        raise HTTPException(404, f"{entry.env_id} ships no {missing}")
    return Response(source.read_text(encoding="utf-8"), media_type=media_type)


async def _bots_done(room: TableRoom, table_id: str, wait: float) -> None:
    """Return once the table's bots are done, or after `wait` seconds (at once for an unknown table)."""
    deadline = time.monotonic() + wait
    table = room.tables.get(table_id)
    while table is not None and table.bots_thinking and time.monotonic() < deadline:
        await asyncio.sleep(_WAIT_STEP)


def _caller(api_keys: ApiKeys | None) -> Callable[..., Awaitable[ApiKey | None]]:
    """The dependency naming a request's API key: None on a server without keys, else the key or a 401."""
    if api_keys is None:

        async def anyone() -> None:
            return None

        return anyone
    header = APIKeyHeader(
        name=API_KEY_HEADER, auto_error=False, description="One of the keys in the server's --api-keys file."
    )

    async def key_holder(presented: str | None = Security(header)) -> ApiKey:
        return api_keys.holder(presented)

    return key_holder


def _documented(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorBody} for status in statuses}


def _error(status: int, kind: str, detail: str) -> JSONResponse:
    return JSONResponse(ErrorBody(error=kind, detail=detail).model_dump(), status_code=status)


async def _cardarena_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, CardArenaError)
    return _error(*status_and_kind(error), str(error))


async def _validation_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, RequestValidationError)
    issues = error.errors()
    refusal = _unreadable_body(request, issues)
    if refusal is not None:
        return refusal
    problems = "; ".join(f"{'.'.join(str(part) for part in issue['loc'])}: {issue['msg']}" for issue in issues[:5])
    return _error(422, "bad_request", problems)


def _unreadable_body(request: Request, issues: Sequence[Any]) -> JSONResponse | None:
    """The refusal of a body not sent as JSON (415) or not JSON at all (422), both naming the content-type."""
    if not any(issue["loc"][:1] == ("body",) for issue in issues):
        return None
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if not _is_json(media_type):
        sent = f"content-type {media_type!r}" if media_type else "no content-type header"
        return _error(415, "unsupported_media_type", f"{_JSON_BODY} (this request has {sent})")
    invalid = next((issue for issue in issues if issue["type"] == "json_invalid"), None)
    if invalid is None:
        return None
    return _error(422, "bad_request", _not_json(f"{invalid['ctx']['error']} at character {invalid['loc'][-1]}"))


_JSON_BODY = "the request body must be JSON, sent with the header content-type: application/json"


def _is_json(media_type: str) -> bool:
    """Whether FastAPI reads a body of this media type as JSON (application/json or application/*+json)."""
    kind, _, subtype = media_type.partition("/")
    return kind == "application" and (subtype == "json" or subtype.endswith("+json"))


def _not_json(reason: str) -> str:
    return f"the body is not JSON ({reason}); {_JSON_BODY}"


async def _http_error(request: Request, error: Exception) -> JSONResponse:
    assert isinstance(error, HTTPException)
    if error.status_code == 400:  # a body FastAPI could not parse at all (bad encoding, nested too deep)
        return _error(422, "bad_request", _not_json(str(error.detail)))
    return _error(error.status_code, _HTTP_KINDS.get(error.status_code, "bad_request"), str(error.detail))


class BodyLimit:
    """ASGI middleware: a request body over `max_bytes` gets 413 before the app reads any of it; one
    not all sent within `timeout` seconds gets 408 and its connection is dropped."""

    def __init__(self, app: ASGIApp, max_bytes: int, timeout: float = BODY_TIMEOUT):
        self.app = app
        self.max_bytes = max_bytes
        self.timeout = timeout

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length", b"0")
        if not declared.isdigit() or int(declared) > self.max_bytes:
            await self._refuse(scope, receive, send)
            return
        body, more = b"", True
        deadline = time.monotonic() + self.timeout
        while more:
            try:
                message = await asyncio.wait_for(receive(), max(deadline - time.monotonic(), 0.0))
            except TimeoutError:
                slow = _error(408, "body_timeout", f"the request body did not arrive within {self.timeout:g} s")
                slow.headers["connection"] = "close"
                await slow(scope, receive, send)
                return
            if message["type"] != "http.request":
                return
            body += message.get("body", b"")
            more = message.get("more_body", False)
            if len(body) > self.max_bytes:
                await self._refuse(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if replayed:
                return await receive()
            replayed = True
            return {"type": "http.request", "body": body, "more_body": False}

        await self.app(scope, replay, send)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = _error(
            413, "body_too_large", f"request body over {self.max_bytes} bytes; a seat view fits well within"
        )
        await response(scope, receive, send)


def serve(
    host: str,
    port: int,
    roster: Roster,
    max_tables: int = MAX_TABLES,
    table_ttl: float = TABLE_TTL,
    api_keys: ApiKeys | None = None,
    record_dir: Path | None = None,
    search_processes: int = SEARCH_PROCESSES,
) -> None:
    """Run the server until interrupted (uvicorn)."""
    import uvicorn

    app = create_app(
        roster,
        max_tables=max_tables,
        table_ttl=table_ttl,
        api_keys=api_keys,
        record_dir=record_dir,
        search_processes=search_processes,
    )
    # SIGTERM: open connections get a few seconds, then the shutdown stops the bots and kills the search processes
    # (every finished hand is on file).
    uvicorn.run(app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=SHUTDOWN_GRACE)


@contextmanager
def serving_in_thread(app: FastAPI, host: str = "127.0.0.1") -> Iterator[str]:
    """Run `app` on a free port of `host` in a background thread; yields its base URL."""
    import uvicorn

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.bind((host, 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [listener]}, daemon=True)
    thread.start()
    while not server.started:
        if not thread.is_alive():
            raise RuntimeError(f"the server on {host} did not start")
        time.sleep(0.01)
    try:
        yield f"http://{host}:{listener.getsockname()[1]}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)
        listener.close()
