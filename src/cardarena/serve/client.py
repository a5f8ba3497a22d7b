"""A Python client of the cardarena server (httpx).

from cardarena.serve.client import Client

with Client("http://127.0.0.1:8000") as server:  # api_key=... for a server started with --api-keys
    table = server.create_table(GAME, [BOT, BOT, None], seed=7)  # e.g. a three-seat game
    seat = table["seats"][2]
    view = server.table(table["table_id"], 2, seat["token"])
    while not view["finished"]:
        if view["your_turn"]:  # else the bots are thinking: table() waits for them a few seconds
            move = view["view"]["legal_actions"][0]["label"]
            view = server.play(table["table_id"], 2, seat["token"], label=move)
        else:
            view = server.table(table["table_id"], 2, seat["token"])
    print(view["rewards"])
    server.delete_table(table["table_id"], table["creator_token"])
"""

from __future__ import annotations

from typing import Any

import httpx

from cardarena.envs.core.errors import CardArenaError

from .keys import API_KEY_HEADER

BOTS_WAIT = 5.0  # seconds a table read waits on the server for the bots by default, well within the client's timeout


class ServerError(CardArenaError):
    """The server refused a request: its status and the error body's kind and detail."""

    def __init__(self, status: int, kind: str, detail: str):
        super().__init__(f"{status} {kind}: {detail}")
        self.status = status
        self.kind = kind
        self.detail = detail


class ServerUnreachableError(CardArenaError):
    """No answer from the server: nothing listens at its address, or the connection failed."""


class Client:
    """One connection pool to a cardarena server; every method returns the response's JSON.

    `api_key` goes in every request's X-API-Key header (for a server started with --api-keys).
    """

    def __init__(self, base_url: str, timeout: float = 10.0, api_key: str | None = None):
        headers = {API_KEY_HEADER: api_key} if api_key is not None else {}
        self.http = httpx.Client(base_url=base_url, timeout=timeout, headers=headers)

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.http.close()

    def health(self) -> dict[str, Any]:
        return self._call("GET", "/healthz")

    def games(self) -> list[dict[str, Any]]:
        return self._call("GET", "/v1/games")

    def bots(self) -> list[dict[str, Any]]:
        return self._call("GET", "/v1/bots")

    def act(
        self, bot: str, game: str, seat_view: dict[str, Any], config: dict[str, Any] | None = None
    ) -> dict[str, Any]:
        """The bot's move in `seat_view`: {"action", "action_label", "legal"}."""
        return self._call(
            "POST", "/v1/act", json={"bot": bot, "game": game, "config": config or {}, "seat_view": seat_view}
        )

    def create_table(
        self,
        game: str,
        seats: list[str | None],
        config: dict[str, Any] | None = None,
        seed: int | None = None,
        move_time_limit: float | None = None,
    ) -> dict[str, Any]:
        """A new table: `seats` has a bot name per bot seat and None per client seat.

        Returns the seats', the creator's and the spectators' tokens."""
        body = {"game": game, "seats": seats, "config": config or {}, "seed": seed, "move_time_limit": move_time_limit}
        return self._call("POST", "/v1/tables", json=body)

    def tables(self) -> list[dict[str, Any]]:
        """The tables of this client's API key (every table on a server without keys)."""
        return self._call("GET", "/v1/tables")

    def delete_table(self, table_id: str, creator_token: str) -> None:
        """Remove the table (the creator's token, from `create_table`'s answer)."""
        self._call("DELETE", f"/v1/tables/{table_id}", params={"token": creator_token})

    def table(self, table_id: str, seat: int, token: str, wait: float = BOTS_WAIT) -> dict[str, Any]:
        """The seat's view of the table once its bots are done (`bots_thinking` false) or after `wait` seconds."""
        return self._call("GET", f"/v1/tables/{table_id}", params={"seat": seat, "token": token, "wait": wait})

    def history(self, table_id: str, token: str, seat: int | None = None) -> dict[str, Any]:
        """The table's hand history this token may see.

        A seat's, the public one, or the creator's whole one once the table has ended."""
        params: dict[str, Any] = {"token": token} | ({"seat": seat} if seat is not None else {})
        return self._call("GET", f"/v1/tables/{table_id}/history", params=params)

    def spectate(self, table_id: str, token: str) -> dict[str, Any]:
        """The table as a spectator sees it (the spectator token from `create_table`)."""
        return self._call("GET", f"/v1/tables/{table_id}/spectate", params={"token": token})

    def play(
        self,
        table_id: str,
        seat: int,
        token: str,
        action: int | None = None,
        label: str | None = None,
        wait: float = BOTS_WAIT,
        move: int | None = None,
    ) -> dict[str, Any]:
        """Play the seat's move, by action id or by label; returns its view after the bots' replies
        (or after `wait` seconds, with `bots_thinking` true). With `move`, the `move` of the view it
        was chosen on, the server refuses it (409 `stale_view`) if the table has moved on since."""
        body = {"seat": seat, "token": token, "action": action, "label": label, "move": move}
        return self._call("POST", f"/v1/tables/{table_id}/actions", json=body, params={"wait": wait})

    def _call(self, method: str, path: str, **kwargs: Any) -> Any:
        try:
            response = self.http.request(method, path, **kwargs)
        except httpx.TransportError as error:
            raise ServerUnreachableError(self._unreachable(error, f"{method} {path}")) from error
        if response.is_error:
            try:
                body = response.json()
                kind, detail = body["error"], body["detail"]
            except (ValueError, KeyError, TypeError):
                kind, detail = "http_error", response.text
            raise ServerError(response.status_code, kind, detail)
        return response.json() if response.content else None

    def _unreachable(self, error: httpx.TransportError, request: str) -> str:
        url = str(self.http.base_url).rstrip("/")
        if isinstance(error, (httpx.ConnectError, httpx.ConnectTimeout)):
            return f"the cardarena server at {url} is not reachable ({error}); is `cardarena serve` running there?"
        return f"the cardarena server at {url} did not answer {request} ({type(error).__name__}: {error})"
