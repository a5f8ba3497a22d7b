"""The hand history (envs/core/history.py): its format, each seat's share of it, the seat view's
`last_hand`, what the rulebooks hide (a face-down discard, a folded hand), records and replays,
and that the conformance checks of the history fail on a leak."""

from __future__ import annotations

import json
import random

import pytest
from cardarena.envs import make
from cardarena.envs.core import history
from cardarena.envs.core.conformance import play_random_episode
from cardarena.envs.core.errors import NoEpisodeError, SeatViewError, StateError, UnknownPlayerError
from conformance_support import HiddenInformation, MovesSeenAsViewed, sometimes

from cardarena import records


def first_legal(env) -> int:
    """Step retired seats out of the way and return the seat to act's first legal action."""
    while env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
        env.step(None)
    return env.game.legal_actions(env.state)[0]


def play_out(env, seed: int) -> None:
    """Deal with `seed` and play random legal actions to the end."""
    env.reset(seed=seed)
    rng = random.Random(seed)
    while env.agents:
        agent = env.agent_selection
        env.step(
            None if env.terminations[agent] or env.truncations[agent] else rng.choice(env.game.legal_actions(env.state))
        )


# ---------------------------------------------------------------- the format


def test_a_seat_sees_the_public_fields_and_its_own_private_ones():
    log: list = []
    history.emit(log, 0, "deal", 1, {"cards": ["C4", "C9"]}, count=2)
    history.emit(log, 0, "deal", place="table", cards=["C2"])
    history.emit(log, 0, "action", 1, {"label": "discard C4"}, label="discard")
    assert log[0] == {"hand": 0, "kind": "deal", "seat": 1, "count": 2, "private": {"cards": ["C4", "C9"]}}
    assert log[1] == {"hand": 0, "kind": "deal", "seat": None, "place": "table", "cards": ["C2"]}
    assert history.seen_by(log, 1) == log
    assert history.seen_by(log, 0) == [
        {"hand": 0, "kind": "deal", "seat": 1, "count": 2},
        log[1],
        {"hand": 0, "kind": "action", "seat": 1, "label": "discard"},
    ]
    assert history.seen_by(log, None) == history.seen_by(log, 0)


def test_last_hand_is_the_last_result_until_the_seat_acts_again():
    log: list = []
    history.emit(log, 0, "action", 0, label="play C1")
    assert history.last_hand(log, 0) is None
    history.emit(log, 0, "result", points=[1, 0])
    history.emit(log, 1, "deal", 0, {"cards": ["C3"]}, count=1)
    history.emit(log, 1, "action", 1, label="play C5")
    result = {"hand": 0, "kind": "result", "seat": None, "points": [1, 0]}
    assert history.last_hand(log, 0) == result
    assert history.last_hand(log, 1) is None
    shown = history.last_hand(log, 0)
    shown["points"].append(9)
    assert log[1]["points"] == [1, 0], "last_hand is a copy"


def test_a_view_last_hand_must_be_a_result_or_null():
    log = [{"hand": 0, "kind": "trick", "seat": None}]
    for bad in ([1], {"kind": "deal"}, "result"):
        with pytest.raises(SeatViewError, match="last_hand"):
            history.restore_last_hand(log, bad)
    history.restore_last_hand(log, None)
    assert log == []


def test_history_needs_an_episode_and_a_seat():
    env = make("yokir_v1")
    with pytest.raises(NoEpisodeError):
        env.history()
    env.reset(seed=0)
    for seat in (3, -1, True, "player_0"):
        with pytest.raises(UnknownPlayerError, match="no seat"):
            env.history(seat)


def test_the_history_is_a_copy():
    env = make("yokir_v1")
    env.reset(seed=0)
    env.history(0)[1]["private"]["cards"].clear()
    env.history()[0]["dealer"] = 99
    assert len(env.history(0)[1]["private"]["cards"]) == 5 and env.history()[0]["dealer"] != 99


# ---------------------------------------------------------------- what the rulebooks hide


def test_a_face_down_discard_is_logged_without_its_card_for_the_other_seats():
    env = make("yokir_v1", dealer=0)
    env.reset(seed=4)
    accept = env.game.legal_actions(env.state)[1]
    env.step(accept)
    caller, discard = env.game.current_player(env.state), env.game.legal_actions(env.state)[0]
    env.step(discard)
    card = env.game.deck.codes[discard]
    entry = env.history()[-1]
    assert entry == {
        "hand": 0,
        "kind": "action",
        "seat": caller,
        "label": "discard",
        "private": {"label": f"discard {card}"},
    }
    assert env.history(caller)[-1] == entry
    for seat in set(range(3)) - {caller}:
        assert env.history(seat)[-1] == {"hand": 0, "kind": "action", "seat": caller, "label": "discard"}
        assert card not in json.dumps(env.history(seat))
    assert card not in json.dumps(env.public_history())


def test_a_folded_hand_is_never_shown_and_the_betting_stays_in_the_result():
    env = make("piktas_v1", num_players=4, mode="gambling")
    play_out(env, 0)
    result = next(event for event in env.history() if event["kind"] == "result")
    assert result["folded"] == [2] and sorted(result["hands"]) == ["0", "1", "3"]
    assert [bet["action"] for bet in result["bets"]] == ["stay", "fold", "stay", "raise", "match", "match"]
    assert result["pot"] == sum(result["payout"]) and result["rewards"] == env.game.returns(env.state)
    state = env.state
    hidden = [env.game.deck.codes[card] for card in state.hands[2] if card not in state.taken[2]]
    assert hidden and all(card in json.dumps(env.history(2)) for card in hidden)
    for seat in (0, 1, 3):
        assert not any(card in json.dumps(env.history(seat)) for card in hidden), f"seat {seat} sees the folded hand"
    assert env.observe_json("player_0")["last_hand"] == result


# ---------------------------------------------------------------- the end of a hand stays visible


def test_the_answer_to_the_last_card_shows_the_hand_result_until_the_seat_acts_again():
    env = make("yokir_v1", match=True, dealer=0)
    env.reset(seed=4)
    while env.state.hand_number == 0:
        last_player = env.game.current_player(env.state)
        env.step(env.game.legal_actions(env.state)[-1])  # accept, call, then the highest legal card
    events = env.history()
    result, last_trick = (
        [event for event in events if event["kind"] == "result"][-1],
        [event for event in events if event["kind"] == "trick"][-1],
    )
    assert result["hand"] == 0 and len(result["tricks"]) == 5 and sum(result["tricks_won"]) == 5
    assert result["tricks"][-1] == {key: last_trick[key] for key in ("leader", "cards", "winner")}
    assert result["points"] == env.state.scores and result["rewards"] == [0.0, 0.0, 0.0]
    for agent in env.possible_agents:
        assert env.observe_json(agent)["last_hand"] == result
    while env.game.current_player(env.state) != last_player:
        env.step(first_legal(env))
    assert env.observe_json(env.possible_agents[last_player])["last_hand"] == result
    env.step(first_legal(env))
    assert env.observe_json(env.possible_agents[last_player])["last_hand"] is None


def test_a_rebuilt_seat_view_keeps_its_last_hand():
    env = make("piktas_v1", num_players=3, num_hands=2)
    env.reset(seed=2)
    while env.state.round_number == 0:
        env.step(first_legal(env))
    seat = env.game.current_player(env.state)
    view = json.loads(json.dumps(env.observe_json(env.possible_agents[seat])))
    assert view["last_hand"]["kind"] == "result"
    bot = make("piktas_v1", num_players=3, num_hands=2)
    assert bot.load_view(view) == env.possible_agents[seat]
    assert bot.observe_json(env.possible_agents[seat]) == view
    view["hand"].clear()  # the environment keeps its own copy of the view it started from
    bot.step(first_legal(bot))
    assert records.replay(json.loads(json.dumps(records.episode_record(bot)))).history() == bot.history()
    view = json.loads(json.dumps(env.observe_json(env.possible_agents[seat])))
    del view["last_hand"]
    bot.load_view(view)
    view["last_hand"] = {"kind": "deal"}
    with pytest.raises(SeatViewError, match="last_hand"):
        bot.load_view(view)


# ---------------------------------------------------------------- records and replays


def test_records_start_where_the_environment_started():
    env = make("yokir_v1", match=True, target_score=3)
    play_out(env, 7)
    middle = json.loads(json.dumps(records.hand_records(env)[1]["start"]))
    later = make("yokir_v1", match=True, target_score=3)
    later.load_state(later.game.state_from_json(middle))
    for _ in range(4):
        later.step(first_legal(later))
    record = json.loads(json.dumps(records.episode_record(later)))
    assert record["start"] == middle and len(record["actions"]) == 4
    assert records.replay(record).history() == later.history()
    assert records.hand_records(later) == []


def test_replay_steps_through_the_record_and_refuses_an_altered_one():
    env = make("piktas_v1", num_players=3, mode="gambling")
    play_out(env, 3)
    record = json.loads(json.dumps(records.hand_records(env)[0]))
    steps = [len(step.history()) for step in records.replay_steps(record)]
    assert len(steps) == len(record["actions"]) + 1 and steps == sorted(steps)
    for change, message in (
        (lambda r: r["log"][-1].update(rewards=[0, 0, 0]), "another log"),
        (lambda r: r.update(returns=[1.0, 2.0, 3.0]), "returns"),
        (lambda r: r["actions"].append(0), "cannot be played"),
        (lambda r: r.pop("start"), "not a cardarena.record/1 record"),
    ):
        altered = json.loads(json.dumps(record))
        change(altered)
        with pytest.raises(StateError, match=message):
            records.replay(altered)


# ---------------------------------------------------------------- the conformance checks can fail


def test_the_hidden_information_check_fails_on_a_history_that_shows_every_seat_everything(monkeypatch):
    monkeypatch.setattr(history, "seen_by", lambda log, seat: log)
    check = HiddenInformation(make("yokir_v1"))
    with pytest.raises(AssertionError, match="history tells the resampled state apart"):
        play_random_episode(make("yokir_v1"), 13, visit=sometimes(2, check))


def test_the_move_check_fails_on_a_public_label_that_names_the_discard(monkeypatch):
    game_cls = type(make("yokir_v1").game)
    monkeypatch.setattr(game_cls, "public_label", lambda self, state, action, label: label)
    check = MovesSeenAsViewed(make("yokir_v1"))
    env = make("yokir_v1", dealer=0)
    env.reset(seed=4)
    env.step(env.game.legal_actions(env.state)[1])
    with pytest.raises(AssertionError, match="sees the same view after two moves"):
        check(env, random.Random(0))
