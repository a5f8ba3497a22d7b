"""The web table's files: `/` serves the page, its static files ship in the package with their
content types, and the page speaks only the public `/v1` API."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import httpx
import pytest

from cardarena.serve.app import WEB_DIR
from cardarena.serve.bots import game_infos

ROOT = Path(__file__).resolve().parents[2]
WEB_FILES = sorted(path.name for path in WEB_DIR.iterdir() if path.suffix in {".html", ".js", ".css"})
CONTENT_TYPES = {".html": "text/html", ".js": "text/javascript", ".css": "text/css"}
DOCS_URL = re.compile(r"""(?:href|src|spec-url)="([^"]+)"|url: '([^']+)'""")


def test_the_root_serves_the_page(server_url):
    response = httpx.get(server_url + "/")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="web/main.js">' in response.text


@pytest.mark.parametrize("name", WEB_FILES)
def test_every_web_file_is_served_with_its_content_type(server_url, name):
    response = httpx.get(f"{server_url}/web/{name}")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(CONTENT_TYPES[Path(name).suffix])
    assert response.text == (WEB_DIR / name).read_text(encoding="utf-8")


def test_an_unknown_web_file_is_a_404(server_url):
    response = httpx.get(server_url + "/web/nothing.js")
    assert response.status_code == 404


def test_the_web_files_ship_as_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["cardarena.serve"]
    shipped = {path.name for pattern in patterns for path in WEB_DIR.parent.glob(pattern)}
    assert shipped == set(WEB_FILES) and {"index.html", "main.js", "style.css"} <= shipped


def test_the_page_requests_only_v1_endpoints():
    scripts = "\n".join((WEB_DIR / name).read_text(encoding="utf-8") for name in WEB_FILES if name.endswith(".js"))
    calls = re.findall(r"(?<!function )\bapi\(", scripts)
    paths = re.findall(r"\bapi\(\"(?:GET|POST|DELETE)\", (?:withQuery\()?[\"`]([^\"`]*)", scripts)
    assert len(paths) == len(calls) > 0 and all(path.startswith("/v1/") for path in paths), paths
    assert re.findall(r"\bfetch\(", scripts) == ["fetch("], "every request goes through api()"


def test_the_page_keeps_no_token_in_storage():
    scripts = "\n".join((WEB_DIR / name).read_text(encoding="utf-8") for name in WEB_FILES if name.endswith(".js"))
    assert "localStorage" not in scripts and "sessionStorage" not in scripts and "document.cookie" not in scripts


def test_every_game_names_its_renderer_and_the_server_serves_it(server_url):
    renderers = {game["env_id"]: game["renderer"] for game in httpx.get(server_url + "/v1/games").json()}
    assert renderers == {env_id: f"/web/renderers/{env_id}.js" for env_id in renderers}
    response = httpx.get(server_url + renderers["yokir_v1"])
    assert response.status_code == 200 and response.headers["content-type"].startswith("text/javascript")
    assert "export function render(view)" in response.text


@pytest.mark.parametrize(
    ("game", "kind", "words"),
    [("coinflip_v1", "not_found", "coinflip_v1 ships no renderer"), ("nogame_v1", "unknown_game", "registered games")],
)
def test_a_renderer_that_does_not_exist_is_a_404(server_url, coinflip_game, game, kind, words):
    response = httpx.get(f"{server_url}/web/renderers/{game}.js")
    assert response.status_code == 404 and response.json()["error"] == kind
    assert words in response.json()["detail"]


def test_a_game_of_one_module_has_no_renderer(coinflip_game):
    infos = {info.env_id: info for info in game_infos()}
    assert infos["coinflip_v1"].renderer is None and infos["coinflip_v1"].rules is None


def test_every_game_serves_its_rules_page_and_its_settings_schema(server_url):
    for game in httpx.get(server_url + "/v1/games").json():
        assert game["rules"] == f"/web/rules/{game['env_id']}.md"
        response = httpx.get(server_url + game["rules"])
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/markdown")
        assert response.text == (ROOT / "docs" / "games" / f"{game['name']}.md").read_text(encoding="utf-8")
        assert "## Rules" in response.text
        properties = game["settings_schema"]["properties"]
        assert set(properties) == set(game["settings"])
        assert all(properties[key].get("default") == default for key, default in game["settings"].items())
    dividha = next(game for game in httpx.get(server_url + "/v1/games").json() if game["name"] == "dividha")
    assert dividha["settings_schema"]["properties"]["limit"]["enum"] == ["fixed", "pot", "no"]


def test_a_rules_page_that_does_not_exist_is_a_404(server_url, coinflip_game):
    response = httpx.get(f"{server_url}/web/rules/coinflip_v1.md")
    assert response.status_code == 404 and "ships no rules page" in response.json()["detail"]


@pytest.mark.parametrize(("page", "script"), [("/docs", "swagger-ui-bundle.js"), ("/redoc", "redoc.standalone.js")])
def test_the_api_docs_load_every_asset_from_this_server(server_url, page, script):
    response = httpx.get(server_url + page)
    assert response.status_code == 200
    urls = [attribute or url for attribute, url in re.findall(DOCS_URL, response.text)]
    assert any(url.endswith(script) for url in urls)
    for url in urls:
        assert url.startswith("/") and not url.startswith("//"), f"{page} loads {url} from elsewhere"
        assert httpx.get(server_url + url).status_code == 200, url
