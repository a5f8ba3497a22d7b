"""`cardarena ladder`: the table it writes, resuming a stopped ladder, user agents, bad input,
and the README's top three matching docs/ladder.md."""

import json
import re
import shutil
from dataclasses import asdict
from pathlib import Path

import cardarena.training.ladder as ladder_module
import cardarena.training.resumable as resumable_module
import cardarena.training.tournament as tournament_module
import pytest
from cardarena.agents.loading import checkpoint_folder
from cardarena.envs import registered
from cardarena.training.ladder import (
    README_BEGIN,
    README_END,
    STATE_VERSION,
    Ladder,
    LadderSettings,
    default_roster,
    top_three_block,
)
from cardarena.training.resumable import agent_fingerprints
from typer.testing import CliRunner

from cardarena.cli import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]
USER_CLASS = "cardarena.agents.base:RandomAgent"
OTHER_SECTION = "<!-- ladder:tilt -->\n## tilt\n\nkept as it was\n<!-- /ladder:tilt -->\n"


def ladder(folder: Path, *args: str):
    """Run a tiny Scarp ladder whose state, docs and README live in `folder`."""
    readme = folder / "README.md"
    if not readme.exists():
        readme.write_text(f"# title\n\n{README_BEGIN}\nold\n{README_END}\n\nafter\n")
    paths = ["--state", str(folder / "state.json"), "--docs", str(folder / "ladder.md"), "--readme", str(readme)]
    return runner.invoke(app, ["ladder", "scarp", "--deals", "2", *paths, *args])


def ratings(folder: Path) -> list[str]:
    return [line for line in (folder / "ladder.md").read_text().splitlines() if re.match(r"\| \d+ \|", line)]


def test_the_ladder_writes_its_section_and_the_readme_top_three(tmp_path):
    (tmp_path / "ladder.md").write_text("# Ladders\n\n" + OTHER_SECTION)
    agents = ["--agents", "random,heuristic", "--add", f"{checkpoint_folder('ppo-selfplay', 'scarp')},{USER_CLASS}"]
    for _ in range(2):
        result = ladder(tmp_path, *agents)
        assert result.exit_code == 0, result.output
    document = (tmp_path / "ladder.md").read_text()
    assert document.startswith("# Ladders\n\n" + OTHER_SECTION)
    assert document.count("<!-- ladder:scarp -->") == 1
    assert "6 pairings of 2 duplicate deals each" in document
    names = {line.split(" | ")[1] for line in ratings(tmp_path)}
    assert names == {"random", "heuristic", str(checkpoint_folder("ppo-selfplay", "scarp")), USER_CLASS}
    matrix_rows = [line for line in document.splitlines() if line.startswith("| heuristic |")]
    assert len(matrix_rows) == 1 and matrix_rows[0].count("±") == 3
    readme = (tmp_path / "README.md").read_text()
    assert top_three_block(document) in readme and readme.endswith("\n\nafter\n")
    assert "| tilt |" not in readme and re.search(r"\| scarp \| \S+ \(\d+\) \|", readme)


def test_a_stopped_ladder_resumes_to_the_table_of_an_unstopped_one(tmp_path, monkeypatch):
    agents = ["--agents", f"random,heuristic,{USER_CLASS}"]
    whole, stopped = tmp_path / "whole", tmp_path / "stopped"
    whole.mkdir(), stopped.mkdir()
    assert ladder(whole, *agents).exit_code == 0

    play = tournament_module.run_tournaments
    calls = []

    def stop_after_one(*args, **kwargs):
        calls.append(args[0][0].names)
        if len(calls) > 1:
            raise RuntimeError("stopped")
        return play(*args, **kwargs)

    monkeypatch.setattr(tournament_module, "run_tournaments", stop_after_one)
    assert isinstance(ladder(stopped, *agents).exception, RuntimeError)
    assert len(json.loads((stopped / "state.json").read_text())["pairings"]) == 1
    calls.clear()
    monkeypatch.setattr(tournament_module, "run_tournaments", lambda *a, **k: calls.append(a) or play(*a, **k))
    assert ladder(stopped, *agents).exit_code == 0
    assert len(calls) == 2

    def per_deal(folder):
        return [pairing["per_deal"] for pairing in json.loads((folder / "state.json").read_text())["pairings"]]

    assert per_deal(stopped) == per_deal(whole)
    assert ratings(stopped) == ratings(whole)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--agents", "random,nobody"], "unknown agent 'nobody'"),
        (["--agents", "random,random"], "at least two different agents"),
        (["--add", "no_such_module:Agent"], "cannot import module 'no_such_module'"),
        (["--add", "cardarena.agents.base:Nothing"], "has no 'Nothing'"),
    ],
)
def test_a_bad_agent_is_named(tmp_path, args, message):
    result = ladder(tmp_path, *args)
    assert result.exit_code == 2 and message in result.output.replace("\n", "")
    assert not (tmp_path / "state.json").exists()


def test_an_unknown_game_is_named(tmp_path):
    result = runner.invoke(app, ["ladder", "nogame", "--state", str(tmp_path / "state.json")])
    assert result.exit_code == 2 and "nogame" in result.output


def test_a_state_file_from_other_settings_is_refused_with_the_way_to_start_over(tmp_path):
    assert ladder(tmp_path, "--agents", "random,heuristic").exit_code == 0
    result = ladder(tmp_path, "--agents", "random,heuristic", "--seed", "1")
    output = result.output.replace("\n", "")
    assert result.exit_code == 2 and "made with seed 0, not 1" in output and "start over" in output
    (tmp_path / "state.json").write_text("{not json")
    result = ladder(tmp_path, "--agents", "random,heuristic")
    assert result.exit_code == 2 and "cannot be read as the state file of a ladder" in result.output.replace("\n", "")


def test_a_state_file_whose_bot_has_changed_since_is_refused_naming_it(tmp_path):
    bot = tmp_path / "bot"
    shutil.copytree(checkpoint_folder("ppo-selfplay", "scarp"), bot)
    assert ladder(tmp_path, "--agents", f"random,{bot}").exit_code == 0
    card = json.loads((bot / "card.json").read_text())
    (bot / "card.json").write_text(json.dumps({**card, "steps": card["steps"] + 1}))  # republished: another bot
    result = ladder(tmp_path, "--agents", f"random,{bot}")
    output = result.output.replace("\n", "")
    assert result.exit_code == 2 and f"holds results of {bot} as it was then" in output and "start over" in output
    state = json.loads((tmp_path / "state.json").read_text())
    del state["settings"]["fingerprints"]  # a state file written before fingerprints were kept
    (tmp_path / "state.json").write_text(json.dumps(state))
    result = ladder(tmp_path, "--agents", f"random,{bot}")
    assert result.exit_code == 2 and "before state files recorded their agents' cards" in result.output.replace(
        "\n", ""
    )


def test_an_agent_is_fingerprinted_by_its_card_and_a_tier_by_its_guide_too(monkeypatch):
    roster = ["random", "heuristic", "tilt/search-taught", "tilt/expert", "pimc:rollout=tilt/search-taught", USER_CLASS]
    fingerprints = agent_fingerprints(roster)
    assert sorted(fingerprints) == ["pimc:rollout=tilt/search-taught", "tilt/expert", "tilt/search-taught"]
    assert len(set(fingerprints.values())) == 3
    describe = resumable_module.describe

    def retrained_guide(name):
        described = describe(name)
        if described["kind"] == "checkpoint":
            described["card"] = {**described["card"], "steps": 1}
        return described

    monkeypatch.setattr(resumable_module, "describe", retrained_guide)
    changed = agent_fingerprints(roster)
    assert all(changed[name] != fingerprints[name] for name in fingerprints)


def test_all_plays_every_games_ladder_each_with_its_own_state(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(ladder_module, "default_roster", lambda game: ["random", f"{game}/heuristic"])
    (tmp_path / "README.md").write_text(f"# title\n\n{README_BEGIN}\nold\n{README_END}\n")
    paths = ["--docs", "ladder.md", "--readme", "README.md"]
    result = runner.invoke(app, ["ladder", "all", "--deals", "1", *paths])
    assert result.exit_code == 0, result.output
    names = sorted({entry.name for entry in registered()})
    assert sorted(path.stem.removeprefix("ladder-") for path in (tmp_path / "runs").iterdir()) == names
    document = (tmp_path / "ladder.md").read_text()
    assert re.findall(r"^<!-- ladder:(\w+) -->$", document, re.MULTILINE) == names
    readme = (tmp_path / "README.md").read_text()
    assert all(re.search(rf"\| {name} \| \S+ \(\d+\) \|", readme) for name in names)


@pytest.mark.parametrize("option", [["--agents", "random,heuristic"], ["--state", "x.json"], ["--set", "match=true"]])
def test_all_refuses_the_options_of_one_games_ladder(tmp_path, option):
    result = runner.invoke(app, ["ladder", "all", *option, "--docs", str(tmp_path / "ladder.md")])
    assert result.exit_code == 2 and option[0] in result.output and "give a game" in result.output.replace("\n", "")
    assert not (tmp_path / "ladder.md").exists()


def test_a_state_file_with_the_rounding_margin_scale_of_an_earlier_version_rates_alike_agents_level():
    settings = LadderSettings("yokir_v1", ["a", "b"], 2, 0, {"num_players": 3})
    alike = {"a": [5.55e-17, -3.7e-17], "b": [-2.78e-17, 1.85e-17]}
    pairing = {"lone": "a", "others": "b", "per_deal": alike, "margin_scale": 6.5e-17, "seconds": 1.0}
    state = {"version": STATE_VERSION, "settings": asdict(settings), "pairings": [pairing]}
    standings = Ladder.resumed(state, settings, "state.json").standings()
    assert [standing.mu for standing in standings] == [1500.0, 1500.0]


def test_the_default_roster_holds_every_kind_of_agent():
    assert default_roster("piktas") == [
        "random",
        "piktas/heuristic",
        "piktas/field-heuristic",
        "pimc",
        "ismcts",
        "pimc:rollout=heuristic",
        "piktas/ppo-selfplay",
        "piktas/search-taught",
        "piktas/expert",
    ]


def test_the_readme_shows_the_top_three_of_docs_ladder():
    assert top_three_block((ROOT / "docs" / "ladder.md").read_text()) in (ROOT / "README.md").read_text()
