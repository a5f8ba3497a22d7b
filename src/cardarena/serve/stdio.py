"""The stdio bot: one JSON request per line in, one JSON line out, as `/v1/act` speaks.

A request is `{"game", "config", "seat_view"}` (plus `"bot"`, which must then name this bot);
the answer is `{"action", "action_label", "legal": true}`, or `{"error", "detail"}` for a request
that cannot be answered. A bad line never ends the process: only the end of stdin does.
"""

from __future__ import annotations

import json
from typing import IO

from pydantic import ValidationError

from cardarena.envs.core.errors import CardArenaError, UnknownAgentError

from .bots import Roster
from .errors import status_and_kind
from .models import ActRequest, ErrorBody


def answer(roster: Roster, bot_name: str, line: str) -> str:
    """The JSON line answering one request line."""
    try:
        request = json.loads(line)
        if not isinstance(request, dict):
            raise ValueError(f"a request is a JSON object, not {type(request).__name__}")
        request.setdefault("bot", bot_name)
        if request["bot"] != bot_name:
            raise UnknownAgentError(f"this process plays {bot_name!r}, not {request['bot']!r}")
        reply = roster.act(ActRequest.model_validate(request)).model_dump()
    except ValidationError as error:
        reply = _error(
            "bad_request", "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors()[:5])
        )
    except json.JSONDecodeError as error:
        reply = _error("bad_json", f"not a JSON line ({error})")
    except CardArenaError as error:
        reply = _error(status_and_kind(error)[1], str(error))
    except (ValueError, RecursionError) as error:
        reply = _error("bad_request", str(error))
    return json.dumps(reply)


def run(bot_name: str, lines: IO[str], out: IO[str]) -> int:
    """Answer every line of `lines` on `out` (blank lines are skipped), flushing after each; the exit status.

    A bot that cannot be loaded is one error line and status 2.
    """
    try:
        roster = Roster([bot_name])
    except CardArenaError as error:
        _write(out, json.dumps(_error(status_and_kind(error)[1], str(error))))
        return 2
    for line in lines:
        if line.strip():
            _write(out, answer(roster, bot_name, line))
    return 0


def _write(out: IO[str], line: str) -> None:
    out.write(line + "\n")
    out.flush()


def _error(kind: str, detail: str) -> dict[str, str]:
    return ErrorBody(error=kind, detail=detail).model_dump()
