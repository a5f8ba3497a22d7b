"""The card table in a real browser (headless Chromium): a double click sends one move, the action bar
is in view on the seat's turn at desktop and phone width, nothing overflows sideways, cards are drawn
as SVG faces and no hidden card reaches the DOM; each game with a layout leaves a screenshot per width
in docs/web/."""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from test_serve_browser import browser, record_dir, seat_table, server_url  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "web"
WIDTHS = {"desktop": (1366, 900), "phone": (390, 844)}
LAID_OUT = {"yokir_v1": [None, "yokir/heuristic", "random"]}


def open_seat(browser, server_url, game, seats, size):  # noqa: F811 - pytest fixtures named as parameters
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    page.goto(server_url + "/")
    page.wait_for_selector("#seats select")
    seat_table(page, game, seats)
    with page.expect_response(lambda response: response.url.endswith("/v1/tables")) as created:
        page.click("#play-button")
    page.created = created.value.json()
    page.wait_for_selector("#play-actions .action")
    return page


def test_a_double_click_sends_one_move(browser, server_url):  # noqa: F811 - pytest fixtures named as parameters
    page = open_seat(browser, server_url, "yokir_v1", [None, "yokir/heuristic", "random"], WIDTHS["desktop"])
    posted = []
    page.on("request", lambda request: posted.append(request) if request.url.endswith("/actions") else None)
    page.dblclick("#play-actions .action >> nth=0")
    page.wait_for_function("() => !document.querySelector('#play-actions button:disabled')")
    page.wait_for_timeout(300)
    assert len(posted) == 1
    assert '"move":0' in posted[0].post_data
    assert not page.is_visible("#message.error")
    page.close()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", LAID_OUT)
def test_the_table_on_your_turn(browser, server_url, game, width):  # noqa: F811 - pytest fixtures named as parameters
    page = open_seat(browser, server_url, game, LAID_OUT[game], WIDTHS[width])
    # A turn with cards in hand to click, where the game's first decisions have none: the last action commits
    # (accept, call) where the first declines, and a hand every seat declines can end the match card-less.
    for _ in range(3):
        if page.query_selector("#play-view .hand button.card"):
            break
        with page.expect_response(lambda response: response.url.endswith("/actions")):
            page.click("#play-actions .action >> nth=-1")
        page.wait_for_function("() => !document.querySelector('#play-actions button:disabled')")
        page.wait_for_selector("#play-actions .action")
    bar = page.locator("#play-actions").bounding_box()
    assert bar["y"] >= 0 and bar["y"] + bar["height"] <= WIDTHS[width][1] + 1
    assert page.evaluate("() => document.documentElement.scrollWidth") <= WIDTHS[width][0]
    assert page.locator("#play-view .felt .card svg").count() >= 3
    assert page.locator("#play-view .seat.you, #play-view .seat").count() == len(LAID_OUT[game])
    shown = set(page.eval_on_selector_all("[data-card]", "cards => cards.map(card => card.dataset.card)"))
    assert shown and shown <= known_to_seat(server_url, page.created)
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{game.split('_')[0]}-{width}.png"), type="png")
    page.close()


def known_to_seat(server_url, created) -> set[str]:  # noqa: F811 - pytest fixtures named as parameters
    """Every string in the seat's own view and history: all the cards the seat may know."""
    table_id, mine = created["table_id"], next(seat for seat in created["seats"] if seat["token"])
    query = {"seat": mine["seat"], "token": mine["token"]}
    view = httpx.get(f"{server_url}/v1/tables/{table_id}", params=query).json()
    history = httpx.get(f"{server_url}/v1/tables/{table_id}/history", params=query).json()
    return set(re.findall(r'"([^"]+)"', json.dumps([view, history])))
