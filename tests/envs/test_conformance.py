"""One conformance suite for every registered environment, at its smallest, default and largest
table, in each mode its game declares (`Game.conformance_modes`): the PettingZoo API and seeding,
random play within the game's invariants (mask = legal set, legal actions listed with a kind and
card codes of the game's deck, cards and chips conserved, episodes
within `max_decisions`, returns summing to `returns_total`), state JSON round trips and clones,
seat-view round trips, hidden information (`resample_hidden`), and the hand history: each seat's
share of it, what a move adds to it, and records that replay bit for bit.

The test-only game highcard_v1 (highcard.py) is registered for this module alone: it is covered
because it is registered. The `slow` runs play 10,000 hands per game, shared out over its modes.
"""

from __future__ import annotations

import json
import math

import pytest
from cardarena.envs.core import history
from cardarena.envs.core.conformance import play_random_episode
from conformance_support import (
    Case,
    HiddenInformation,
    MovesSeenAsViewed,
    ObservedAfterEdits,
    SeatViewRoundTrip,
    StateRoundTrip,
    cases,
    check_legal_actions,
    check_masks,
    highcard_registered,
    information_trail,
    random_actions,
    rebuilds_views,
    sometimes,
    trace,
)
from pettingzoo.test import api_test, seed_test

from cardarena import records

with highcard_registered():
    CASES = cases()

SLOW_HANDS = 10_000  # per game, shared out equally over its modes (the CI step that runs them is bounded)
SLOW_CHECKED_EPISODES = 10  # one episode in ten also gets the round trips and the hidden-information draws

# api_test wants Box or Discrete observations; ours are {"observation", "action_mask"} dicts by design.
pytestmark = pytest.mark.filterwarnings("ignore:Observation:UserWarning")


@pytest.fixture(autouse=True, scope="module")
def _highcard():
    with highcard_registered():
        yield


def by_case(test):
    return pytest.mark.parametrize("case", CASES, ids=[case.name for case in CASES])(test)


def test_the_test_only_game_is_covered_by_registration_alone():
    assert "highcard_v1" in {case.env_id for case in CASES}
    assert {case.env_id for case in CASES} >= {"yokir_v1", "piktas_v1"}


@by_case
def test_pettingzoo_api(case: Case):
    api_test(case.make(), num_cycles=200)


@by_case
def test_pettingzoo_seed(case: Case):
    seed_test(case.make, num_cycles=200)


@by_case
def test_same_seed_and_actions_replay_bit_for_bit(case: Case):
    """`reset(seed)` reseeds completely, even after another episode: the same actions replay the
    same observations, masks, JSON views, rewards and ends."""
    env = case.make()
    actions = random_actions(env, 5, limit=80)
    reference = trace(env, 5, actions)
    again = case.make()
    random_actions(again, 6, limit=3)  # part of another episode first
    assert trace(again, 5, actions) == reference


@by_case
@pytest.mark.parametrize("seed", range(3))
def test_random_play_keeps_the_invariants(case: Case, seed: int):
    report = play_random_episode(case.make(), seed, visit=sometimes(4, check_masks, check_legal_actions))
    assert report.broken == []
    assert report.decisions > 0 and report.hands >= 1


@by_case
def test_state_json_round_trip_and_clones(case: Case):
    check = StateRoundTrip((case.make(), case.make()))
    assert play_random_episode(case.make(), 11, visit=sometimes(2, check)).broken == []


@by_case
def test_observations_do_not_depend_on_what_was_observed_before(case: Case):
    assert play_random_episode(case.make(), 16, visit=sometimes(2, ObservedAfterEdits())).broken == []


@by_case
def test_seat_view_round_trip(case: Case):
    env = case.make()
    if not rebuilds_views(env.game):
        pytest.skip(f"{case.env_id} serves its bots at tables only (no state_from_view)")
    check = SeatViewRoundTrip(case.make())
    assert play_random_episode(env, 12, visit=sometimes(2, check)).broken == []


@by_case
def test_resampled_hidden_information_is_unseen_and_playable(case: Case):
    check = HiddenInformation(case.make())
    for seed in (13, 14):
        assert play_random_episode(case.make(), seed, visit=sometimes(2, check)).broken == []
    assert check.checked > 0
    assert check.dealt_anew(check.twin.game), (
        "no resample dealt another seat different cards (or, open information, the stock anew)"
    )


@by_case
def test_information_key_is_equal_exactly_when_the_observation_history_is(case: Case):
    """Episodes of one deal that part ways: each seat's key matches its observations step by step."""
    env = case.make()
    history_of: dict[tuple[int, str], tuple[bytes, ...]] = {}
    key_of: dict[tuple[int, tuple[bytes, ...]], str] = {}
    for deal in range(2):
        for action_seed in range(4):
            for seat, key, observed in information_trail(env, deal, action_seed):
                assert history_of.setdefault((seat, key), observed) == observed, (
                    f"seat {seat}: one key, two observation histories"
                )
                assert key_of.setdefault((seat, observed), key) == key, (
                    f"seat {seat}: one observation history, two keys"
                )
    assert len(key_of) > 2 * env.game.num_players


@by_case
def test_a_key_since_shared_events_tells_states_apart_as_the_whole_key_does(case: Case):
    """Episodes of one deal share the events logged before its first decision: keyed from there
    on (as a search keys its worlds), states are equal exactly when their whole keys are."""
    env = case.make()
    for deal in range(2):
        env.reset(seed=deal)
        shared = len(env.game.event_log(env.state))
        pairs: set[tuple[int, str, str]] = set()
        for action_seed in range(3):
            whole = information_trail(env, deal, action_seed)
            tail = information_trail(env, deal, action_seed, since=shared)
            pairs |= {(seat, key, since_key) for (seat, key, _), (_, since_key, _) in zip(whole, tail, strict=True)}
        assert (
            len({(seat, key) for seat, key, _ in pairs})
            == len({(seat, since_key) for seat, _, since_key in pairs})
            == len(pairs)
        )


def played_with_history(case: Case, seed: int):
    """An environment that has played a random episode."""
    env = case.make()
    report = play_random_episode(env, seed)
    assert report.broken == []
    return env


@by_case
def test_each_seat_history_holds_its_own_private_events_and_no_other(case: Case):
    env = played_with_history(case, 17)
    full, public = env.history(), env.public_history()
    private = [event for event in full if "private" in event]
    assert private or env.game.open_information, "the full history holds the seats' private events (their own cards)"
    assert all("private" not in event for event in public) and len(public) == len(full)
    for seat in range(env.game.num_players):
        mine = env.history(seat)
        assert [event for event in mine if "private" in event] == [event for event in private if event["seat"] == seat]
        assert history.seen_by(mine, None) == public
    results = [event for event in full if event["kind"] == "result"]
    assert [event["hand"] for event in results] == list(range(env.game.hands_played(env.state)))
    assert all(env.observe_json(agent)["last_hand"] == results[-1] for agent in env.possible_agents)


@by_case
def test_a_move_adds_to_a_seat_history_only_what_its_view_shows(case: Case):
    played_with_history(case, 15)
    check = MovesSeenAsViewed(case.make())
    assert play_random_episode(case.make(), 15, visit=sometimes(2, check)).broken == []


@by_case
def test_episode_and_hand_records_replay_bit_for_bit(case: Case):
    env = played_with_history(case, 18)
    episode = json.loads(json.dumps(records.episode_record(env)))
    replayed = records.replay(episode)
    assert replayed.history() == env.history()
    assert replayed.game.returns(replayed.state) == env.game.returns(env.state)
    hands = json.loads(json.dumps(records.hand_records(env)))
    assert [record["hand"] for record in hands] == list(range(env.game.hands_played(env.state)))
    assert [event for record in hands for event in record["log"]] == env.history()
    assert hands[-1]["returns"] == env.game.returns(env.state)
    for record in hands:
        records.replay(record)


# ---------------------------------------------------------------- retired seats that stay


STAYING = [Case(case.env_id, case.num_players, {**case.mode, "retired_seats": "stay"}) for case in CASES]


def by_staying_case(test):
    return pytest.mark.parametrize("case", STAYING, ids=[case.name for case in STAYING])(test)


def stays_in_until_the_end(env, _rng) -> None:
    """Every seat is in `agents` and none is done while the episode runs; the selected seat has not retired."""
    if env.agents:
        assert env.agents == env.possible_agents
        assert not any(env.terminations.values()) and not any(env.truncations.values())
        assert not env.game.seat_done(env.state, env.possible_agents.index(env.agent_selection))


@by_staying_case
def test_retired_seats_that_stay_play_the_same_episode_and_are_paid_the_same(case: Case):
    """With `retired_seats="stay"` the episode, the rewards each seat is paid (`play_on` checks they add up to
    the returns) and the invariants are those of the same seed with seats leaving."""
    leaving = Case(case.env_id, case.num_players, {**case.mode, "retired_seats": "leave"}).make()
    staying = case.make()
    assert play_random_episode(leaving, 19).broken == []
    assert play_random_episode(staying, 19, visit=stays_in_until_the_end).broken == []
    assert staying.played == leaving.played


@by_staying_case
def test_pettingzoo_api_with_retired_seats_that_stay(case: Case):
    if not case.make().game.seats_leave:
        pytest.skip(f"{case.env_id} retires no seat before the end")
    api_test(case.make(), num_cycles=200)


# ---------------------------------------------------------------- long runs


GAME_MODES = list(dict.fromkeys((case.env_id, json.dumps(case.mode)) for case in CASES))


@pytest.mark.slow
@pytest.mark.parametrize("env_id, mode", GAME_MODES, ids=[f"{env_id}-{mode}" for env_id, mode in GAME_MODES])
def test_ten_thousand_random_hands(env_id: str, mode: str):
    """The same properties over the mode's share of 10,000 hands, table sizes in turn: the invariants at every
    decision, the masks, round trips and hidden information at a few decisions of some episodes."""
    tables = [case for case in CASES if case.env_id == env_id and json.dumps(case.mode) == mode]
    hidden = [HiddenInformation(case.make(), draws=2) for case in tables]
    checks = [
        [check_masks, check_legal_actions, StateRoundTrip((case.make(), case.make()), horizon=5), seen]
        + ([SeatViewRoundTrip(case.make())] if rebuilds_views(case.make().game) else [])
        for case, seen in zip(tables, hidden, strict=True)
    ]
    share = math.ceil(SLOW_HANDS / sum(game == env_id for game, _ in GAME_MODES))
    hands = episode = 0
    while hands < share:
        table = episode % len(tables)
        visit = sometimes(1, *checks[table]) if episode % SLOW_CHECKED_EPISODES < len(tables) else None
        report = play_random_episode(tables[table].make(), episode, visit=visit)
        assert report.broken == [], f"{tables[table].name} seed {episode}"
        hands += report.hands
        episode += 1
    assert any(seen.dealt_anew(seen.twin.game) for seen in hidden)
