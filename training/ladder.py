"""A ladder: every agent of a game's roster against every other at the default table, one rating.

Each pairing of the roster (A earlier in it than B) is a duplicate-deal tournament
(`training/tournament.py`) at the game's default table: one seat of A against the other seats
played by B, the seats rotated over each deal, as docs/agents.md measures the bots. Every pairing
plays the same deals (the ladder's seed). The ratings are the league's Bradley-Terry fit on the
pairings' duplicate margins (`league.league_standings`), with 95% intervals of mu +- 1.96 sigma.

A ladder is resumable pairing by pairing: its state (settings and every finished pairing's
per-deal means) is a JSON document; a run with the same settings skips the pairings it holds.
The settings hold a fingerprint of each agent that has a card (`resumable.agent_fingerprints`), so a
bot retrained or a tier changed under the same name is not rated on the old one's pairings.
The results go to a Markdown section of their own per game, and a README block lists each
game's top three, rebuilt from those sections so that it cannot drift from them.
"""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
from cardarena.agents.loading import RANDOM, available, describe
from cardarena.envs import lookup
from cardarena.envs.core.errors import ConfigError

from .evaluate import Z_95, EvalResult, Tally, duplicate_ratings, mean_with_ci
from .league import Standing, league_standings
from .resumable import check_settings
from .tournament import Tournament

SEARCH_TIER = "expert"
SEARCH_AGENTS = ["pimc", "ismcts", "pimc:rollout=heuristic"]
README_BEGIN, README_END = "<!-- ladder-top-three -->", "<!-- /ladder-top-three -->"
TOP_THREE_HEADER = "| game | first | second | third |\n|---|---|---|---|"
STATE_VERSION = 1

Played = tuple[EvalResult, Tally]


def default_roster(game: str) -> list[str]:
    """random, the game's registered agents, the search agents, its shipped bots, then `GAME/expert` if loadable."""
    name = lookup(game).name
    own = [agent for agent in available(name) if agent.startswith(f"{name}/")]
    expert = f"{name}/{SEARCH_TIER}"
    built_in = [agent for agent in own if agent != expert and describe(agent)["kind"] == "built-in"]
    shipped = [agent for agent in own if agent != expert and agent not in built_in]
    return [RANDOM, *built_in, *SEARCH_AGENTS, *shipped, *([expert] if expert in own else [])]


@dataclass(frozen=True)
class LadderSettings:
    """What a ladder's results depend on: a state file holds them, and resumes only under the same ones."""

    env_id: str
    roster: list[str]
    deals: int
    seed: int
    config: dict[str, Any] = field(default_factory=dict)
    fingerprints: dict[str, str] = field(default_factory=dict)  # `resumable.agent_fingerprints(roster)`

    def pairings(self) -> list[tuple[str, str]]:
        """(lone, field) of every pairing: the agent earlier in the roster holds the one seat."""
        if len(set(self.roster)) != len(self.roster) or len(self.roster) < 2:
            raise ConfigError(f"a ladder needs at least two different agents, got {', '.join(self.roster) or 'none'}")
        return list(itertools.combinations(self.roster, 2))

    def tournament(self, lone: str, others: str) -> Tournament:
        """The pairing's table: one seat of `lone`, the rest `others`, every rotation of every deal."""
        seats = self.config["num_players"]
        return Tournament(self.env_id, [lone] + [others] * (seats - 1), self.deals * seats, self.seed, self.config)


@dataclass
class Pairing:
    """A finished pairing: each agent's per-deal mean reward and its minutes."""

    lone: str
    others: str
    per_deal: dict[str, list[float]]
    seconds: float

    @classmethod
    def of(cls, lone: str, others: str, played: Played, seconds: float) -> Pairing:
        result, tally = played
        return cls(lone, others, {name: tally.per_deal[name] for name in tally.names}, seconds)

    def played(self, settings: LadderSettings) -> Played:
        """The pairing as the league rates a table: a result with its margin scale, a tally of deal means."""
        tally = Tally(list(self.per_deal), settings.config["num_players"])
        tally.per_deal = {name: list(means) for name, means in self.per_deal.items()}
        result = EvalResult(lookup(settings.env_id).name, settings.config, 0, settings.seed)
        result.margin_scale = duplicate_ratings(np.column_stack(list(self.per_deal.values()))).margin_scale
        return result, tally


@dataclass
class Ladder:
    """A ladder's settings and its finished pairings, in the order they were played."""

    settings: LadderSettings
    pairings: list[Pairing] = field(default_factory=list)

    def remaining(self) -> list[tuple[str, str]]:
        done = {(pairing.lone, pairing.others) for pairing in self.pairings}
        return [pair for pair in self.settings.pairings() if pair not in done]

    def standings(self) -> list[Standing]:
        """Every agent's rating over the finished pairings, strongest first."""
        played = [pairing.played(self.settings) for pairing in self.pairings]
        return sorted(league_standings(self.settings.roster, played), key=lambda standing: -standing.mu)

    def to_dict(self) -> dict[str, Any]:
        return {
            "version": STATE_VERSION,
            "settings": asdict(self.settings),
            "pairings": [asdict(pairing) for pairing in self.pairings],
        }

    @classmethod
    def resumed(cls, state: dict[str, Any] | None, settings: LadderSettings, where: str) -> Ladder:
        """The ladder of a state document (None: a new one); ConfigError naming any setting it was made with
        that differs from `settings`, `where` being the state file's name."""
        if state is None:
            return cls(settings)
        if state.get("version") != STATE_VERSION or not isinstance(state.get("settings"), dict):
            raise ConfigError(f"{where} is not a ladder state file; give another --state or delete it")
        check_settings(state["settings"], asdict(settings), where, "a ladder")
        # a pairing's margin scale, once kept in the file, is computed again from its deal means (`Pairing.played`)
        kept = [{key: value for key, value in each.items() if key != "margin_scale"} for each in state["pairings"]]
        return cls(settings, [Pairing(**pairing) for pairing in kept])


def play_ladder(
    ladder: Ladder,
    play: Callable[[Tournament, str], Played],
    save: Callable[[Ladder], None],
    clock: Callable[[], float],
) -> None:
    """Play every pairing the ladder lacks, saving the ladder after each one; `play` gets the
    pairing's tournament and a label such as "pairing 3/15: pimc vs heuristic"."""
    total = len(ladder.settings.pairings())
    for lone, others in ladder.remaining():
        label = f"pairing {len(ladder.pairings) + 1}/{total}: {lone} vs {others}"
        start = clock()
        played = play(ladder.settings.tournament(lone, others), label)
        ladder.pairings.append(Pairing.of(lone, others, played, clock() - start))
        save(ladder)


def machine() -> str:
    """This machine's CPU model (from /proc/cpuinfo where there is one) and its number of cores."""
    model = "an unnamed CPU"
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info if line.startswith("model name")), model)
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores"


def ladder_section(ladder: Ladder, command: str, date: str, where: str) -> str:
    """The game's Markdown section: how it was made, its top three, ratings and head-to-head means."""
    settings, standings = ladder.settings, ladder.standings()
    game = lookup(settings.env_id).name
    seats = settings.config["num_players"]
    minutes = sum(pairing.seconds for pairing in ladder.pairings) / 60
    lines = [
        _section_begin(game),
        f"## {game}",
        "",
        f"`{command}` on {date}, {where}: {settings.env_id} at {seats} seats, {len(ladder.pairings)} pairings of "
        f"{settings.deals} duplicate deals each ({settings.deals * seats} hands a pairing, seed {settings.seed}), "
        f"{minutes:.1f} minutes of play.",
        "",
        TOP_THREE_HEADER,
        _top_three_row(game, standings),
        "",
        "| rank | agent | rating [95% CI] | deals |",
        "|---|---|---|---|",
        *(
            f"| {rank} | {s.name} | {s.mu:.0f} [{s.mu - Z_95 * s.sigma:.0f}, {s.mu + Z_95 * s.sigma:.0f}] | {s.deals} |"
            for rank, s in enumerate(standings, 1)
        ),
        "",
        "Head to head: the row agent's mean reward a hand (± the half-width of its 95% interval) in its pairing "
        "with the column agent; in each pairing the agent earlier in the roster holds one seat and the other "
        "agent every other seat.",
        "",
        *_matrix(ladder),
        _section_end(game),
    ]
    return "\n".join(lines) + "\n"


def _matrix(ladder: Ladder) -> list[str]:
    roster = ladder.settings.roster
    cells = {}
    for pairing in ladder.pairings:
        for row, column in ((pairing.lone, pairing.others), (pairing.others, pairing.lone)):
            score = mean_with_ci(row, pairing.per_deal[row])
            cells[row, column] = f"{score.mean:+.3f} ± {score.ci95:.3f}"
    header = ["| |" + "".join(f" {name} |" for name in roster), "|---|" + "---|" * len(roster)]
    return header + [
        f"| {row} |" + "".join(f" {cells.get((row, column), '')} |" for column in roster) for row in roster
    ]


def _top_three_row(game: str, standings: Sequence[Standing]) -> str:
    best = [f"{standing.name} ({standing.mu:.0f})" for standing in standings[:3]]
    return f"| {game} | " + " | ".join(best + [""] * (3 - len(best))) + " |"


def _section_begin(game: str) -> str:
    return f"<!-- ladder:{game} -->"


def _section_end(game: str) -> str:
    return f"<!-- /ladder:{game} -->"


def with_section(document: str, game: str, section: str) -> str:
    """`document` with `game`'s section replaced by `section` (appended when it has none), the rest kept."""
    pattern = re.compile(re.escape(_section_begin(game)) + r".*?" + re.escape(_section_end(game)) + r"\n?", re.S)
    if pattern.search(document):
        return pattern.sub(lambda _: section, document, count=1)
    return document.rstrip("\n") + "\n\n" + section if document.strip() else section


def top_three_block(document: str) -> str:
    """The README's block: each game's top-three row from the ladder document's sections, in their order."""
    header = re.escape(TOP_THREE_HEADER)
    rows = re.findall(rf"^<!-- ladder:[^\n]*-->\n.*?^{header}\n(\|[^\n]*\|)$", document, re.S | re.M)
    return "\n".join([README_BEGIN, TOP_THREE_HEADER, *rows, README_END])


def with_top_three(readme: str, block: str, where: str) -> str:
    """`readme` with its top-three block replaced; ConfigError when it has no such block."""
    pattern = re.compile(re.escape(README_BEGIN) + r".*?" + re.escape(README_END), re.S)
    if not pattern.search(readme):
        raise ConfigError(f"{where} has no ladder block ({README_BEGIN} ... {README_END}); add one or give --readme")
    return pattern.sub(lambda _: block, readme, count=1)
