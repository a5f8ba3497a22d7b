"""The card table in a real browser (headless Chromium): every game played to its end through its table at
desktop and phone width (the action bar in view on the seat's turn and never over the hand, nothing
overflowing sideways, cards drawn as SVG faces, no raw fields, no hidden card in the DOM), the bots' moves
played out one at a time, and a double click sending one move. With CARDARENA_SCREENSHOTS=1 each game
leaves a screenshot per width in docs/web/."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import httpx
import pytest
from test_serve_browser import browser, record_dir, seat_table, server_url, set_pace  # noqa: F401  (shared fixtures)

pytestmark = pytest.mark.browser

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "web"
WIDTHS = {"desktop": (1366, 900), "phone": (390, 844)}
TABLES = {
    "yokir_v1": [None, "yokir/heuristic", "random"],
    "piktas_v1": [None, "piktas/heuristic", "random", "piktas/heuristic"],
    "tilt_v2": [None, "tilt/heuristic", "random"],
    "dividha_v1": [None, "dividha/heuristic", "random"],
    "scarp_v1": [None, "scarp/heuristic"],
    "antipoker_v1": [None, "antipoker/heuristic", "random"],
    "paradigm_v2": [None, "paradigm/heuristic", "random"],
}
MOVES = 300


def open_seat(browser, server_url, game, seats, size, pace="0"):  # noqa: F811 - pytest fixtures named as parameters
    page = browser.new_page(viewport={"width": size[0], "height": size[1]})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors
    page.goto(server_url + "/")
    page.wait_for_selector("#seats select")
    seat_table(page, game, seats)
    set_pace(page, pace)
    with page.expect_response(lambda response: response.url.endswith("/v1/tables")) as created:
        page.click("#play-button")
    page.created = created.value.json()
    return page


def turn_or_end(page) -> bool:
    """Wait for the seat's turn (True) or the game's end (False)."""
    status = page.wait_for_function(
        "() => { const text = document.getElementById('play-status').textContent;"
        " return /^(Your turn|Game over)/.test(text) && text; }"
    ).json_value()
    assert not page.is_visible("#message.error"), page.inner_text("#message")
    return status.startswith("Your turn")


def play_one_move(page) -> None:
    """Click the first card some move plays, then the move it makes when it is the only one; else the first action
    shown."""
    before = page.evaluate("() => document.getElementById('play-history').children.length")
    cards = page.locator("#play-hand button.card")
    if cards.count():
        cards.first.click()
        if page.locator("#play-selection").count():
            page.click("#play-selection")
        else:
            page.click("#play-actions .action:visible >> nth=0")
    else:
        page.click("#play-actions .action:visible >> nth=0")
    page.wait_for_function(
        "before => document.getElementById('play-history').children.length > before"
        " && !document.querySelector('#play-actions button:disabled')",
        arg=before,
    )


def check_the_table(page, server_url, players: int, size) -> None:  # noqa: F811 - pytest fixtures named as parameters
    """Whatever the moment: seats around the felt, card faces, no sideways overflow, no raw field outside
    "details", and no card in the DOM the seat may not know."""
    assert page.locator("#play-view .felt .seat").count() == players
    assert page.locator("#play .card svg").count() >= 1
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size[0]
    assert page.locator("#play-view > dl.fields").count() == 0
    assert page.locator("#play-view .seat button.card").count() == 0, "a seat's cards are not to click"
    assert not page.locator("#play-view details[open]").count()
    shown = set(page.eval_on_selector_all("#play [data-card]", "cards => cards.map(card => card.dataset.card)"))
    assert shown <= known_to_seat(server_url, page.created), shown - known_to_seat(server_url, page.created)


def check_the_dock(page, size) -> None:
    """On the seat's turn the action bar is inside the viewport, and the hand above it, uncovered."""
    bar = page.locator("#play-actions").bounding_box()
    assert bar["y"] >= 0 and bar["y"] + bar["height"] <= size[1] + 1, bar
    hand = page.locator("#play-hand").bounding_box()
    assert hand["y"] >= 0 and hand["y"] + hand["height"] <= bar["y"] + 1, (hand, bar)


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("game", TABLES)
def test_each_game_played_to_its_end_on_its_table(browser, server_url, game, width):  # noqa: F811 - pytest fixtures named as parameters
    size = WIDTHS[width]
    page = open_seat(browser, server_url, game, TABLES[game], size)
    shots = os.environ.get("CARDARENA_SCREENSHOTS") == "1"
    most_cards = -1  # the screenshot is of the turn with the most cards to click, the first such
    for _ in range(MOVES):
        if not turn_or_end(page):
            break
        check_the_table(page, server_url, len(TABLES[game]), size)
        check_the_dock(page, size)
        cards = page.locator("#play button.card").count()
        if shots and cards > most_cards:
            page.screenshot(path=str(SHOTS / f"{game.split('_')[0]}-{width}.png"), type="png")
            most_cards = cards
        play_one_move(page)
    else:
        raise AssertionError(f"{game} did not end within {MOVES} moves")
    assert page.inner_text("#play-status").startswith("Game over: You ")
    check_the_table(page, server_url, len(TABLES[game]), size)
    assert page.locator("#play-result .standings tr").count() == len(TABLES[game]) + 1
    assert not page.errors, page.errors
    page.close()


def test_the_bots_moves_are_played_out_one_at_a_time(browser, server_url):  # noqa: F811 - pytest fixtures named as parameters
    seats = [None, "yokir/heuristic", "yokir/heuristic"]
    page = open_seat(browser, server_url, "yokir_v1", seats, WIDTHS["desktop"], pace="300")
    turn_or_end(page)
    page.evaluate(
        """() => {
        window.moves = [];
        new MutationObserver((changes) => {
            for (const change of changes) for (const line of change.addedNodes)
                window.moves.push({ at: performance.now(), text: line.textContent, last: document
                    .querySelector('.seat.last-mover .seat-last')?.firstChild?.textContent });
        }).observe(document.getElementById('play-history'), { childList: true });
    }"""
    )
    page.click("#play-actions .action >> nth=0")
    page.wait_for_function(  # the bots have moved and the seat's turn (or the end) has come back
        "() => window.moves.some((move) => move.text.startsWith('yokir/heuristic'))"
        " && /^(Your turn|Game over)/.test(document.getElementById('play-status').textContent)"
    )
    moves = [move for move in page.evaluate("() => window.moves") if move["text"].startswith("yokir/heuristic")]
    gaps = [later["at"] - earlier["at"] for earlier, later in zip(moves, moves[1:], strict=False)]
    assert all(gap >= 250 for gap in gaps), gaps
    assert all(move["last"] and move["last"] in move["text"] for move in moves), moves
    page.close()


def test_a_double_click_sends_one_move(browser, server_url):  # noqa: F811 - pytest fixtures named as parameters
    page = open_seat(browser, server_url, "yokir_v1", [None, "yokir/heuristic", "random"], WIDTHS["desktop"])
    page.wait_for_selector("#play-actions .action")
    posted = []
    page.on("request", lambda request: posted.append(request) if request.url.endswith("/actions") else None)
    page.dblclick("#play-actions .action >> nth=0")
    page.wait_for_function("() => !document.querySelector('#play-actions button:disabled')")
    page.wait_for_timeout(300)
    assert len(posted) == 1
    assert '"move":0' in posted[0].post_data
    assert not page.is_visible("#message.error")
    page.close()


def test_a_second_click_while_the_answer_is_drawn_sends_nothing(browser, server_url):  # noqa: F811 - pytest fixtures named as parameters
    """The move is answered but the table not yet redrawn (its history read held back): the old buttons stay off."""
    page = open_seat(browser, server_url, "yokir_v1", [None, "yokir/heuristic", "random"], WIDTHS["desktop"])
    page.wait_for_selector("#play-actions .action")
    page.evaluate(
        "() => { const plain = window.fetch; window.fetch = async (path, options) => {"
        " if (String(path).includes('/history')) await new Promise((done) => setTimeout(done, 800));"
        " return plain(path, options); }; }"
    )
    box = page.locator("#play-actions .action >> nth=0").bounding_box()
    posted = []
    page.on("request", lambda request: posted.append(request) if request.url.endswith("/actions") else None)
    with page.expect_response(lambda response: response.url.endswith("/actions")):
        page.mouse.click(box["x"] + 5, box["y"] + 5)
    page.mouse.click(box["x"] + 5, box["y"] + 5)
    page.wait_for_timeout(1200)
    assert len(posted) == 1
    assert not page.is_visible("#message.error")
    page.close()


def known_to_seat(server_url, created) -> set[str]:  # noqa: F811 - pytest fixtures named as parameters
    """Every word in the seat's own view and history (labels such as "pick H10" included): all the cards the seat
    may know."""
    table_id, mine = created["table_id"], next(seat for seat in created["seats"] if seat["token"])
    query = {"seat": mine["seat"], "token": mine["token"]}
    view = httpx.get(f"{server_url}/v1/tables/{table_id}", params=query).json()
    history = httpx.get(f"{server_url}/v1/tables/{table_id}/history", params=query).json()
    return set(re.findall(r"\w+", json.dumps([view, history])))
