"""The web table in a real browser (headless Chromium, driven by Playwright): a full Yokir hand and a
Piktas round played through the page against bots, an all-bot table watched to its end, and a
recorded hand replayed, each leaving a screenshot in the test's folder; every registered game
played to its end by keyboard."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from cardarena.envs import registered

from cardarena.serve.app import create_app, serving_in_thread
from cardarena.serve.bots import Roster

pytestmark = pytest.mark.browser
playwright = pytest.importorskip("playwright.sync_api")

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
MOVES = 400


@pytest.fixture(scope="module")
def record_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("records")


@pytest.fixture(scope="module")
def server_url(record_dir):
    app = create_app(Roster.serving([]), record_dir=record_dir)
    with serving_in_thread(app) as url:
        yield url


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: apt-get install -y chromium")
    with playwright.sync_playwright() as driver:
        chromium = driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture()
def page(browser, server_url):
    page = browser.new_page(viewport={"width": 1000, "height": 900})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server_url + "/")
    page.wait_for_selector("#seats select")
    yield page
    page.close()
    assert not errors, errors


def seat_table(page, game: str, seats: list[str | None], settings: dict | None = None, seed: int = 3) -> None:
    """Fill the lobby: the game, each seat (None: the page's own) and the seed; the bots' moves shown all at once."""
    page.select_option("#game", game)
    page.fill("#players", str(len(seats)))
    page.dispatch_event("#players", "change")
    for key, value in (settings or {}).items():
        if isinstance(value, bool):
            page.set_checked(f"#setting-{key}", value)
        elif page.locator(f"select#setting-{key}").count():
            page.select_option(f"#setting-{key}", str(value))
        else:
            page.fill(f"#setting-{key}", str(value))
    page.fill("#seed", str(seed))
    for seat, bot in enumerate(seats):
        page.select_option(f"#seats li:nth-child({seat + 1}) select", bot or "")
    set_pace(page, "0")


def set_pace(page, milliseconds: str) -> None:
    """The pace of the bots' moves on the play panel, chosen before the panel shows."""
    page.eval_on_selector("#play-pace", "(choice, value) => { choice.value = value; }", milliseconds)


def status(page) -> str:
    return page.inner_text("#play-status")


def wait_for_turn_or_end(page) -> str:
    page.wait_for_function("() => /Your turn|Game over/.test(document.getElementById('play-status').textContent)")
    assert not page.is_visible("#message.error"), page.inner_text("#message")
    return status(page)


def play_to_end(page, choose) -> int:
    """Play the page's seat with `choose(page)` until the match is over; the number of moves."""
    for moves in range(MOVES):
        if "Game over" in wait_for_turn_or_end(page):
            return moves
        before = page.inner_text("#play-history")
        choose(page)
        page.wait_for_function(
            "before => document.getElementById('play-history').innerText !== before"
            " || /Game over/.test(document.getElementById('play-status').textContent)",
            arg=before,
        )
    raise AssertionError(f"the match did not end within {MOVES} moves")


def click_cards_of_first_action(page) -> None:
    """Select the first card action's cards by clicking them, and play them with Enter; else press the last
    action's number: in Yokir's bidding it names trump, where the first declines and a hand all decline is void."""
    cards = page.evaluate("() => [...document.querySelectorAll('#play-actions .action')].map(b => b.textContent)")
    playable = page.query_selector_all("#play-hand button.card")
    if not playable:
        page.keyboard.press(str(len(cards)))
        return
    playable[0].click()
    page.wait_for_selector("#play-selection")
    first = page.query_selector("#play-actions .action:not([hidden])")
    label = first.text_content().split(". ", 1)[1]
    assert label in " ".join(cards)
    page.keyboard.press("Enter")


def test_a_full_yokir_hand_through_the_page(page, tmp_path):
    seat_table(page, "yokir_v1", [None, "yokir/heuristic", "random"])
    page.click("#play-button")
    page.wait_for_selector("#play-actions .action")
    assert "you are seat 0" in page.inner_text("#play-title")
    turn_shot = tmp_path / "yokir-turn.png"

    def choose(page) -> None:
        if not turn_shot.exists() and page.query_selector("#play-actions .action[data-label^='play ']"):
            page.screenshot(path=str(turn_shot), full_page=True)
        click_cards_of_first_action(page)

    moves = play_to_end(page, choose)
    assert moves >= 1 and turn_shot.exists()
    assert status(page).startswith("Game over: You ")
    assert "tricks won" in page.inner_text("#play-result .standings")
    page.screenshot(path=str(tmp_path / "yokir.png"), full_page=True)


def play_piktas_turn(page) -> None:
    """A swap by clicking its hand card and field card when there is one, else the first action by its number."""
    swaps = page.evaluate(
        "() => [...document.querySelectorAll('#play-actions .action')].map(b => b.dataset.label)"
        ".filter(label => label.startsWith('swap:'))"
    )
    if not swaps:
        page.keyboard.press("1")
        return
    hand_card, field_card = swaps[0].split(":")[1:]
    for card in (hand_card, field_card):
        page.click(f"#play button.card[data-card='{card}'] >> nth=0")
    page.click("#play-selection")


def test_a_piktas_round_through_the_page(page, tmp_path):
    seat_table(page, "piktas_v1", ["piktas/heuristic", None, "random", "piktas/heuristic"])
    page.click("#play-button")
    play_to_end(page, play_piktas_turn)
    assert "Game over" in status(page)
    assert "hands" in page.inner_text("#play-result .standings")
    page.screenshot(path=str(tmp_path / "piktas.png"), full_page=True)


def test_antipoker_draw_by_clicking_cards(page):
    seat_table(page, "antipoker_v1", [None, "antipoker/heuristic"])
    page.click("#play-button")
    page.wait_for_selector("#play-actions .action")
    if not page.query_selector("#play-actions .action[data-label^='pick']"):
        pytest.skip("the seat's first decision is not a draw")
    picked = [card.get_attribute("data-card") for card in page.query_selector_all("#play-hand button.card")[:2]]
    for card in picked:
        page.click(f"#play-hand button.card[data-card='{card}']")
    page.keyboard.press("Enter")
    page.wait_for_function("() => !document.querySelector('#play-actions .action')?.dataset.label.startsWith('pick')")
    assert not page.is_visible("#message.error"), page.inner_text("#message")
    assert all(page.query_selector(f"#play-view [data-card='{card}']") for card in picked)


def test_the_settings_form_shows_the_server_s_error_and_the_rules_panel_the_rules(page):
    page.select_option("#game", "dividha_v1")
    assert page.locator("#setting-limit option").all_inner_texts() == ["fixed (default)", "pot", "no"]
    assert page.get_attribute("#setting-ante", "min") == "2" and page.input_value("#setting-ante") == "2"
    assert not page.locator("#setting-on_illegal").count(), "a training setting is not the table's"
    page.fill("#setting-ante", "3")
    page.click("#play-button")
    page.wait_for_selector("#message.error")
    assert "ante=3 must be even" in page.inner_text("#message")
    page.click("#rules-title")
    page.wait_for_selector("#rules-text h4")
    assert "Players, hands and matches" in page.inner_text("#rules-text")
    page.select_option("#game", "scarp_v1")
    page.wait_for_function("() => document.getElementById('rules-text').textContent.includes('Challenge card')")
    seat_table(page, "tilt_v2", [None, "random"], settings={"void_deck": False, "num_hands": 2})
    page.click("#play-button")
    page.wait_for_selector("#play-actions .action")
    page.click("#play-view summary:text-is('settings')")
    settings = page.locator("#play-view details:has(summary:text-is('settings'))").inner_text()
    assert re.search(r"void deck\s+false", settings) and re.search(r"num hands\s+2", settings), settings


def wait_for_the_watched_end(page) -> None:
    page.wait_for_function(
        "() => /Game over/.test(document.getElementById('watch-status').textContent)", timeout=60_000
    )


def test_watching_an_all_bot_table_to_its_end(page, tmp_path):
    # heuristics only and a seeded deal: a hand every seat passes (no result) cannot come by chance
    seat_table(page, "yokir_v1", ["yokir/heuristic"] * 3, seed=11)
    page.click("#watch-button")
    page.select_option("#pace", "250")
    wait_for_the_watched_end(page)
    assert page.query_selector_all("#watch-events li")
    assert page.locator("#watch-view .felt .seat").count() == 3
    assert "Hand 1 result" in page.inner_text("#watch-result")
    page.click("#watch-back")
    assert page.inner_text("#watch-pause") == "Resume"
    events = len(page.query_selector_all("#watch-events li"))
    assert page.inner_text("#watch-status").startswith(f"event {events} of {events + 1}")
    page.click("#watch-forward")
    assert "Game over" in page.inner_text("#watch-status")
    page.screenshot(path=str(tmp_path / "watch.png"), full_page=True)


def test_replaying_a_recorded_hand(page, record_dir, tmp_path):
    seat_table(page, "yokir_v1", ["yokir/heuristic"] * 3, seed=11)  # a seeded hand that is played out
    page.click("#watch-button")
    page.select_option("#pace", "250")
    wait_for_the_watched_end(page)
    page.click("[data-tab=replay]")
    record = max(record_dir.glob("*.jsonl"), key=lambda path: path.stat().st_mtime)
    page.set_input_files("#record-file", str(record))
    page.wait_for_selector("#replay-events li.current")
    assert page.inner_text("#replay-status").startswith("event 1 of ")
    for _ in range(5):
        page.click("#replay-forward")
    page.keyboard.press("ArrowLeft")
    assert page.inner_text("#replay-status").startswith("event 5 of ")
    assert page.locator("#replay-view .felt .seat").count() == 3
    page.click("#replay-last-event")
    assert "Hand 1 over" in page.inner_text("#replay-events li.current")
    assert page.locator("#replay-result .standings tr").count() == 4
    page.click("#replay-last")
    page.wait_for_function("() => document.getElementById('message').textContent.startsWith('table ')")
    for _ in range(8):
        page.keyboard.press("ArrowRight")
    assert page.inner_text("#replay-status").startswith("event 9 of ")
    page.screenshot(path=str(tmp_path / "replay.png"), full_page=True)


def test_a_phone_width_page_and_a_gone_server(browser, server_url, tmp_path):
    page = browser.new_page(viewport={"width": 375, "height": 800})
    page.goto(server_url + "/")
    page.wait_for_selector("#seats select")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
    page.route("**/v1/tables", lambda route: route.abort())
    page.click("#play-button")
    page.wait_for_selector("#message.error")
    assert "not reachable" in page.inner_text("#message")
    page.screenshot(path=str(tmp_path / "phone.png"))
    page.close()


def press_one(page) -> None:
    page.keyboard.press("1")


@pytest.mark.parametrize("entry", registered(), ids=lambda entry: entry.env_id)
def test_every_game_plays_to_its_end_by_keyboard(page, entry):
    seat_table(page, entry.env_id, [None] + ["random"] * (entry.player_counts.start - 1))
    page.click("#play-button")
    play_to_end(page, press_one)
    assert status(page).startswith("Game over: You ")
