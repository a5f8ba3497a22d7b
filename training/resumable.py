"""State files of long runs that resume where they stopped: a ladder pairing by pairing
(`training/ladder.py`), an evaluation chunk by chunk (`EvalState`, `cardarena eval --state`).

A state file holds the settings its results depend on, with a fingerprint of each agent that has a
card (a checkpoint's card lists its weights' sha256; a search tier's, its guide's), and resumes only
under the same ones: a bot retrained or a tier changed under the same name is not scored on the old
one's results.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from cardarena.agents.loading import describe
from cardarena.agents.search import parse_search_name
from cardarena.envs.core.errors import CardArenaError, ConfigError

from .evaluate import Tally
from .tournament import CHUNK_DEALS, ChunkKey, Tournament, chunks_of

EVAL_STATE_VERSION = 1


def agent_fingerprints(agents: Sequence[str]) -> dict[str, str]:
    """The sha256 of each agent's card, where it has one: a checkpoint's card.json (which lists its
    weights' sha256), a search tier's card with its guide's, a search agent's rollout bot's.
    Built-in agents and a user's module:callable have none: their code is what they are."""
    cards = {name: _card(name) for name in agents}
    return {name: _digest(card) for name, card in cards.items() if card is not None}


def _card(name: str) -> Any:
    try:
        described = describe(name)
    except CardArenaError:  # a user's module:callable (an unknown name is refused when the agents load)
        return None
    card = described["card"]
    if described["kind"] == "search tier":
        return {"tier": card, "guide": _card(card["guide"])}
    search = parse_search_name(name)
    if card is None and search is not None and (rollout := _card(search[1]["rollout"])) is not None:
        return {"rollout": rollout}
    return card


def _digest(card: Any) -> str:
    return hashlib.sha256(json.dumps(card, sort_keys=True).encode()).hexdigest()


def check_settings(kept: dict[str, Any], now: dict[str, Any], where: str, what: str) -> None:
    """ConfigError naming the first setting the state file `where` (holding `what`, e.g. "a ladder") was
    made with that differs from `now`, or an agent whose card has changed since."""
    for key, value in now.items():
        if key != "fingerprints" and kept.get(key) != value:
            raise ConfigError(
                f"{where} holds {what} made with {key} {kept.get(key)!r}, not {value!r}: rerun "
                f"with the same settings to resume it, or delete {where} (or give another --state) to start over"
            )
    check_fingerprints(kept.get("fingerprints"), now.get("fingerprints", {}), where)


def check_fingerprints(kept: dict[str, str] | None, now: dict[str, str], where: str) -> None:
    """ConfigError naming the agents whose card differs from the one the state was made with."""
    start_over = f"delete {where} (or give another --state) to start over"
    if not isinstance(kept, dict):
        raise ConfigError(f"{where} was made before state files recorded their agents' cards: {start_over}")
    changed = sorted(name for name in {*kept, *now} if kept.get(name) != now.get(name))
    if changed:
        raise ConfigError(
            f"{where} holds results of {', '.join(changed)} as it was then: its card has changed since "
            f"(retrained, republished or another budget); {start_over}"
        )


@dataclass(frozen=True)
class EvalSettings:
    """What an evaluation's results depend on: its game, episodes and seed, its tables (the agent of
    each seat and the game's settings, one table per size), how its deals are cut into chunks, and
    the fingerprints of its agents."""

    env_id: str
    episodes: int
    seed: int
    tables: list[dict[str, Any]]
    chunk_deals: int = CHUNK_DEALS
    fingerprints: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, tournaments: Sequence[Tournament], chunk_deals: int = CHUNK_DEALS) -> EvalSettings:
        """The settings of an evaluation's tournaments (one game, one number of episodes, one seed)."""
        first = tournaments[0]
        tables = [{"names": list(each.names), "config": dict(each.config)} for each in tournaments]
        names = sorted({name for each in tournaments for name in each.names})
        return cls(first.env_id, first.episodes, first.seed, tables, chunk_deals, agent_fingerprints(names))

    def tournaments(self) -> list[Tournament]:
        return [
            Tournament(self.env_id, table["names"], self.episodes, self.seed, table["config"]) for table in self.tables
        ]


@dataclass
class EvalState:
    """An evaluation's settings and the tally of every chunk of deals it has finished."""

    settings: EvalSettings
    chunks: dict[ChunkKey, Tally] = field(default_factory=dict)

    def kept(self, table: int) -> dict[ChunkKey, Tally]:
        """The chunks kept of the table's tournament, keyed as a run of that tournament alone keys them."""
        return {(0, chunk): tally for (position, chunk), tally in self.chunks.items() if position == table}

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": EVAL_STATE_VERSION,
            "settings": asdict(self.settings),
            "chunks": [
                {"tournament": position, "chunk": index, "tally": tally.to_dict()}
                for (position, index), tally in sorted(self.chunks.items())
            ],
        }

    @classmethod
    def resumed(cls, state: dict[str, Any] | None, settings: EvalSettings, where: str) -> EvalState:
        """The evaluation of a state document (None: a new one); ConfigError naming a setting it was made
        with that differs from `settings`, or what in it is not a chunk of these tournaments."""
        if state is None:
            return cls(settings)
        if state.get("version") != EVAL_STATE_VERSION or not isinstance(state.get("settings"), dict):
            raise ConfigError(f"{where} is not an evaluation state file; give another --state or delete it")
        check_settings(state["settings"], asdict(settings), where, "an evaluation")
        tournaments = settings.tournaments()
        plans = [
            {chunk.index: chunk.episodes for chunk in chunks_of(each, settings.chunk_deals)} for each in tournaments
        ]
        entries = state.get("chunks")
        if not isinstance(entries, list):
            raise ConfigError(f"{where} holds no list of chunks; delete it to start over")
        chunks = {}
        for number, entry in enumerate(entries):
            try:
                key = (int(entry["tournament"]), int(entry["chunk"]))
                tally = Tally.from_dict(entry["tally"])
            except (KeyError, TypeError, ValueError) as err:
                raise ConfigError(
                    f"{where}: chunk entry {number} is malformed ({type(err).__name__}: {err}); delete it to start over"
                ) from None
            table, chunk = key
            fits = 0 <= table < len(plans) and plans[table].get(chunk) == tally.episodes
            if not fits or set(tally.names) != set(tournaments[table].names) or key in chunks:
                raise ConfigError(
                    f"{where}: chunk entry {number} does not fit the evaluation (chunk {chunk} of table {table} "
                    f"with {tally.episodes} episodes); delete it to start over"
                )
            chunks[key] = tally
        return cls(settings, chunks)
