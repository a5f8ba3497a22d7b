"""The docs stand alone: users get the repository, not the rulebooks behind it.

No page cites a rulebook's path, section or worked-example number (each game's page states its
rules in its own words; a ruling number stays only as a label beside the rule it names), and
every relative link of docs/ and README.md leads to a file, and a heading, that exist in the
repository.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from cardarena.envs import registered

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([*ROOT.glob("docs/*.md"), *ROOT.glob("docs/games/*.md")])
GAME_PAGES = sorted(ROOT.glob("docs/games/*.md"))
LINKING_PAGES = [ROOT / "README.md", *PAGES]

UNREACHABLE = {
    "a path to the rulebooks": re.compile(r"shared/rules|\brules/\w+\.md"),
    "a rulebook section by number": re.compile(r"\b(?:sections?|variants?)\s+\d|§\s*\d", re.IGNORECASE),
    "a rulebook section number in parentheses": re.compile(r"(?:\(|,\s)\d{1,2}\.\d{1,2}[a-z]?(?=\s*[,)])"),
    "a worked example by number": re.compile(r"\bE\d{1,2}[a-z]?\b"),
}
RULING = re.compile(r"\bR(\d{1,2})\b")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)


def _prose(path: Path) -> str:
    """A page without its fenced code blocks (rendered examples, commands)."""
    return FENCE.sub("", path.read_text(encoding="utf-8"))


def _name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def unreachable_references(text: str) -> list[str]:
    """Each citation of a rulebook that a reader of the repository cannot open, with what it is."""
    return [f"{what}: {found.group(0)!r}" for what, pattern in UNREACHABLE.items() for found in pattern.finditer(text)]


def heading_anchors(text: str) -> set[str]:
    """The anchors a renderer gives a page's headings (GitHub's rule, duplicates numbered)."""
    anchors: set[str] = set()
    for heading in HEADING.findall(text):
        slug = re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")
        anchor, number = slug, 0
        while anchor in anchors:
            number += 1
            anchor = f"{slug}-{number}"
        anchors.add(anchor)
    return anchors


def broken_links(page: Path, root: Path = ROOT) -> list[str]:
    """The relative links of `page` whose file is missing or outside `root`, or whose anchor no heading has."""
    broken = []
    for target in LINK.findall(_prose(page)):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.is_relative_to(root) or not linked.exists():
            broken.append(f"{target} (no such file in the repository)")
        elif anchor and linked.suffix == ".md" and anchor not in heading_anchors(_prose(linked)):
            broken.append(f"{target} (no heading with that anchor)")
    return broken


def test_every_game_has_a_page():
    games = {entry.name for entry in registered() if entry.module.startswith("cardarena.")}
    assert len(games) >= 2
    assert sorted(games - {page.stem for page in GAME_PAGES}) == []
    assert {"protocol.md", "agents.md", "training.md"} <= {page.name for page in PAGES}


@pytest.mark.parametrize("page", PAGES, ids=_name)
def test_no_page_cites_a_rulebook_users_do_not_have(page):
    assert unreachable_references(_prose(page)) == []


@pytest.mark.parametrize("page", [page for page in LINKING_PAGES if page not in GAME_PAGES], ids=_name)
def test_ruling_labels_appear_only_on_game_pages(page):
    assert RULING.findall(_prose(page)) == [], (
        "a ruling number means something only beside its rule, on its game's page"
    )


@pytest.mark.parametrize("page", GAME_PAGES, ids=_name)
def test_a_game_page_states_its_rules_and_every_ruling(page):
    """Rulings are numbered from R1 on: a gap is a ruling the page lost."""
    text = _prose(page)
    assert re.search(r"^## Rules$", text, re.MULTILINE), f"{_name(page)} has no '## Rules' section"
    labels = {int(number) for number in RULING.findall(text)}
    assert labels, f"{_name(page)} labels no ruling"
    assert sorted(set(range(1, max(labels) + 1)) - labels) == []


def test_the_readme_says_where_each_games_rules_are():
    linked = {(ROOT / target.partition("#")[0]).resolve() for target in LINK.findall(_prose(ROOT / "README.md"))}
    assert [_name(page) for page in GAME_PAGES if page not in linked] == []


@pytest.mark.parametrize("page", LINKING_PAGES, ids=_name)
def test_every_relative_link_leads_somewhere(page):
    assert broken_links(page) == []


@pytest.mark.parametrize(
    "text, found",
    [
        ("the specification is `shared/rules/yokir.md`", 1),
        ("ruling numbers refer to rulebook section 2", 1),
        ("see variant 8.2", 1),
        ("the deal (3.4, R5) and the pool (5.1)", 2),
        ("every worked example (E1-E28) is a test; E43b too", 3),
        ("about 95,000 pools (4.8 µs a step, rlcard 1.2.0) at (0.3 ms)", 0),
        ("the pool (see [Rules](#rules), R15)", 0),
    ],
)
def test_unreachable_references_are_recognised(text, found):
    assert len(unreachable_references(text)) == found


def test_a_link_to_a_missing_file_or_heading_is_broken(tmp_path):
    root = tmp_path / "repo"
    (root / "games").mkdir(parents=True)
    (root / "games" / "g.md").write_text("# G\n\n## Hidden information: what each seat sees\n", encoding="utf-8")
    (tmp_path / "elsewhere.md").write_text("# E\n", encoding="utf-8")
    page = root / "page.md"
    page.write_text(
        "[ok](games/g.md#hidden-information-what-each-seat-sees) [file](games/h.md) [anchor](games/g.md#rules)\n"
        "[out](../elsewhere.md) [web](https://example.org/x.md)\n```\n[code](nowhere.md)\n```\n",
        encoding="utf-8",
    )
    assert broken_links(page, root) == [
        "games/h.md (no such file in the repository)",
        "games/g.md#rules (no heading with that anchor)",
        "../elsewhere.md (no such file in the repository)",
    ]


def _our_games():
    return [entry for entry in registered() if entry.module.startswith("cardarena.")]


@pytest.mark.parametrize("entry", _our_games(), ids=lambda entry: entry.name)
def test_the_shared_pages_list_every_registered_game(entry):
    """A new game appends its section to docs/protocol.md, its rows to docs/benchmarks.md and its agents to
    docs/agents.md; nothing else lists the games."""
    protocol = _prose(ROOT / "docs/protocol.md")
    assert re.search(rf"^### .+ \(`{entry.env_id}`\)$", protocol, re.MULTILINE), "no section in docs/protocol.md"
    benchmarks = (ROOT / "docs/benchmarks.md").read_text(encoding="utf-8")
    assert re.search(rf"^\| {entry.env_id}\b", benchmarks, re.MULTILINE), "no row in docs/benchmarks.md"
    agents = _prose(ROOT / "docs/agents.md")
    missing = [name for name in entry.agents if f"| `{entry.name}/{name}` |" not in agents]
    assert not missing, f"agents missing from docs/agents.md's table: {missing}"
