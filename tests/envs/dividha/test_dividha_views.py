"""Dividha's seat view, hidden information, the docs page's tables, and bad views refused."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
from cardarena.envs.core.errors import SeatViewError
from cardarena.envs.dividha.actions import ACTION_NAMES, NUM_ACTIONS, TRADE_CHOICES, decode
from cardarena.envs.dividha.state import PUBLIC_SLOTS
from dividha_env_support import act, table

PAGE = Path(__file__).resolve().parents[3] / "docs" / "games" / "dividha.md"


def page_section(title: str) -> str:
    text = PAGE.read_text(encoding="utf-8")
    return text.split(f"## {title}")[1].split("\n## ")[0]


def test_the_pages_action_table_is_the_action_tables():
    section = page_section("Action table")
    assert f"Discrete({NUM_ACTIONS})" in section
    names = re.findall(r"(\d+)\s+`(\[[^`]*\])`", section)
    assert [(int(c), slots) for c, slots in names] == [
        (choice, "[" + ",".join(("P1", "P2", "U1", "U2")[slot] for slot in slots) + "]")
        for choice, slots in enumerate(TRADE_CHOICES)
    ]
    assert (
        ACTION_NAMES[5 + 3 * 2 + 2] == "RAISE(POT, LOSE)"
        and ACTION_NAMES[28 + 3 * 7 + 1] == "PAID_TRADE([P2,U1], EVEN)"
    )
    assert [decode(action).kind for action in (0, 1, 2, 16, 17, 27, 28, 57)] == [
        "fold",
        "check",
        "call",
        "raise",
        "trade",
        "trade",
        "trade",
        "trade",
    ]


def test_the_view_shows_own_cards_and_every_public_card_only():
    env = table(num_players=3, dealer=0)
    act(env, "CHECK", "CHECK", "CHECK")
    view = env.observe_json("player_1")
    mine = [code for code in view["cards"].values() if code]
    assert len(mine) == 4 and view["dealt"] == [["P1", "P2", "U1", "U2"]] * 3
    state = env.state
    others = {env.game.deck.codes[state.cards[seat][slot]] for seat in (0, 2) for slot in (0, 1)}
    assert not others & set(json.dumps(view["public"] + view["actions"]).split('"'))
    assert view["public"][0] == [env.game.deck.codes[state.cards[0][slot]] for slot in PUBLIC_SLOTS]


def test_resampling_keeps_what_a_seat_saw_and_deals_the_rest_again():
    env = table(num_players=4, dealer=0, pay_to_trade=True)
    act(env, "RAISE(MIN, LOSE)", "CALL(WIN)", "CALL(EVEN)", "CALL(LOSE)", *["CHECK"] * 4)
    act(env, "PAID_TRADE([P1,U1], WIN)", "TRADE([])", "PAID_TRADE([P2], LOSE)")
    game, state = env.game, env.state
    observation = env.encoder.observation(state, 3)
    view = env.encoder.seat_view(state, 3)
    changed_cards = changed_splits = False
    for seed in range(20):
        twin = game.resample_hidden(state, 3, random.Random(seed))
        assert np.array_equal(env.encoder.observation(twin, 3), observation)
        assert env.encoder.seat_view(twin, 3) == view
        assert game.conserved(twin) == game.conserved(state)
        assert [twin.paid, twin.stacks] == [state.paid, state.stacks]
        assert all(w + lose == paid for w, lose, paid in zip(twin.win, twin.lose, twin.paid, strict=True))
        assert twin.discards[1][1] == state.discards[1][1]  # seat 1's public U1 traded in: known
        changed_cards |= twin.cards[0][:2] != state.cards[0][:2]
        changed_splits |= (twin.win, twin.lose) != (state.win, state.lose)
        assert (twin.win[3], twin.lose[3]) == (state.win[3], state.lose[3])
    assert changed_cards and changed_splits


def test_after_the_showdown_resampling_keeps_the_shown_cards_and_the_tablets():
    env = table(num_players=3, dealer=0)
    while not env.state.terminal:
        act(env, "CHECK" if env.state.phase == 0 else "TRADE([])")
    state = env.state
    for seed in range(10):
        twin = env.game.resample_hidden(state, 0, random.Random(seed))
        for seat, shown in state.showdown["shown"].items():
            held = {env.game.deck.codes[card] for card in twin.cards[int(seat)]}
            assert set(shown["cards"]) <= held
        assert (twin.win, twin.lose) == (state.win, state.lose)


def test_a_view_rebuilds_a_state_with_the_same_view_and_legal_actions():
    env = table(num_players=3, dealer=2, limit="no")
    act(env, "RAISE(POT, LOSE)", "CALL(EVEN)", "CALL(WIN)", "CHECK", "RAISE(MIN, WIN)")
    view = env.observe_json(env.agent_selection)
    state = env.game.state_from_view(view)
    assert env.game.legal_actions(state) == env.game.legal_actions(env.state)
    rebuilt = env.encoder.seat_view(state, view["seat"])
    assert rebuilt == {
        key: value for key, value in view.items() if key not in ("settings", "legal_actions", "last_hand")
    }


def edited(view: dict, **changes) -> dict:
    copy = json.loads(json.dumps(view))
    copy.update(changes)
    return copy


@pytest.mark.parametrize(
    "change, problem",
    [
        (lambda view: {"cards": {**view["cards"], "P1": "XX"}}, "'XX' is not a card code"),
        (lambda view: {"cards": {**view["cards"], "P1": view["public"][0][0]}}, "twice"),
        (lambda view: {"stock_size": 3}, "stock_size"),
        (lambda view: {"stacks": view["stacks"][:2]}, "'stacks' needs one entry per seat"),
        (lambda view: {"tablet": {"win": 50, "lose": 0}}, "'tablet' does not add up"),
        (lambda view: {"phase": "trading"}, "'betting' is given exactly when"),
        (lambda view: {"trades": [["U2", "P1"], None, None]}, "not a trade of at most two"),
        (lambda view: {"game": "piktas_v1"}, "not dividha_v1"),
        (lambda view: {"settings": {**view["settings"], "limit": "no"}}, "settings.limit"),
    ],
)
def test_a_bad_view_names_its_problem(change, problem):
    env = table(num_players=3, dealer=0)
    act(env, "CHECK", "CHECK", "CHECK")
    view = env.observe_json("player_1")
    with pytest.raises(SeatViewError, match=re.escape(problem)):
        env.load_view(edited(view, **change(view)))
