"""The table driver over every registered game and mode: it ends exactly when the game does, pays
every seat its returns, steps retired seats out and never asks one to act."""

from __future__ import annotations

import numpy as np
import pytest
from cardarena.agents import RandomAgent
from cardarena.envs import make, registered
from cardarena.envs.core.errors import IllegalActionError
from cardarena.envs.core.table import Table

ELIMINATION = {"num_players": 4, "mode": "gambling", "num_hands": 20, "starting_stack": 20, "buy_in": 10}
EXTRA_MODES = {
    "piktas": [{"num_hands": 3}, ELIMINATION],
    "yokir": [{"match": True}, {"match": True, "max_hands": 2}],
}
MODES = [(entry.env_id, config) for entry in registered() for config in [{}, *EXTRA_MODES.get(entry.name, [])]]
EPISODES = 12


def mode_id(mode) -> str:
    env_id, config = mode
    return "-".join([env_id, *(f"{key}={value}" for key, value in config.items())]) or env_id


class WatchfulRandom(RandomAgent):
    """A random agent that checks, whenever it is asked to act, that its seat may act: the game is
    running, it is this seat's turn and the seat has not left the game."""

    def __init__(self, table: Table, seat: int):
        super().__init__(seed=seat)
        self.table, self.seat = table, seat

    def act(self, observation):
        game, state = self.table.env.game, self.table.env.state
        assert not game.is_terminal(state) and not game.is_truncated(state), "asked to act after the end"
        assert game.current_player(state) == self.seat, "asked to act out of turn"
        assert not game.seat_done(state, self.seat), "a retired seat was asked to act"
        return super().act(observation)


def seated_table(env_id: str, config: dict) -> tuple[Table, dict[int, WatchfulRandom]]:
    table = Table(make(env_id, **config))
    return table, {seat: WatchfulRandom(table, seat) for seat in range(len(table.env.possible_agents))}


def test_every_named_mode_is_of_a_registered_game():
    assert set(EXTRA_MODES) <= {entry.name for entry in registered()}


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_random_play_ends_exactly_at_the_end_of_the_game_with_the_games_returns(mode):
    table, actors = seated_table(*mode)
    game = table.env.game
    for seed in range(EPISODES):
        table.reset(seed=seed)
        assert table.advance(actors) is None
        state = table.env.state
        assert game.is_terminal(state) or game.is_truncated(state)
        assert table.finished and table.to_act is None
        assert table.truncated == (game.is_truncated(state) and not game.is_terminal(state))
        assert table.totals == pytest.approx(list(game.returns(state)))
        assert all(table.seat_done(seat) for seat in actors)


@pytest.mark.parametrize("mode", MODES, ids=mode_id)
def test_the_driver_makes_the_moves_of_pettingzoos_own_loop(mode):
    """The standard AEC loop (which steps dead agents until none is left) and the driver play the same episode."""
    env_id, config = mode
    env, table = make(env_id, **config), Table(make(env_id, **config))
    seats = range(len(env.possible_agents))
    for seed in range(EPISODES // 3):
        env.reset(seed=seed)
        agents = [RandomAgent(seed=seat) for seat in seats]
        aec_moves, aec_totals = [], [0.0 for _ in seats]
        for agent in env.agent_iter():
            observation, _, termination, truncation, _ = env.last()
            seat = env.possible_agents.index(agent)
            action = None if termination or truncation else agents[seat].act(observation)
            if action is not None:
                aec_moves.append((seat, action))
            env.step(action)
            for name, reward in env.rewards.items():
                aec_totals[env.possible_agents.index(name)] += reward

        table.reset(seed=seed)
        agents = [RandomAgent(seed=seat) for seat in seats]
        moves = []
        while (seat := table.to_act) is not None:
            moves.append((seat, agents[seat].act(table.observe(seat))))
            table.play(moves[-1][1])
        assert moves == aec_moves
        assert table.totals == aec_totals


def test_retired_seats_leave_the_match_while_it_goes_on():
    """In a gambling match with eliminations, a broke seat is done for good and the game goes on;
    advancing for that seat stops there, and the rest of the table plays the match out."""
    table, actors = seated_table("piktas_v1", ELIMINATION)
    game = table.env.game
    retired_early = 0
    for seed in range(EPISODES):
        table.reset(seed=seed)
        watched = seed % 4
        others = {seat: actor for seat, actor in actors.items() if seat != watched}
        while table.advance(others, stop_at=watched) is not None:
            table.play(actors[watched].act(table.observe(watched)))
        if not table.finished:
            retired_early += 1
            assert table.seat_done(watched) and game.seat_done(table.env.state, watched)
            assert table.to_act != watched
            total = table.totals[watched]
            assert table.advance(others) is None
            assert table.totals[watched] == total, "a retired seat is paid nothing more"
        assert game.is_terminal(table.env.state)
        assert table.totals == pytest.approx(list(game.returns(table.env.state)))
    assert retired_early >= EPISODES // 4


class CountingActor:
    """Plays as `actor` does, noting each observation it is asked about."""

    def __init__(self, actor, played: list):
        self.actor, self.played = actor, played

    def act(self, observation):
        self.played.append(observation)
        return self.actor.act(observation)


def test_advance_returns_the_seat_without_an_actor_and_stops_after_max_moves():
    table, actors = seated_table(*MODES[0])
    table.reset(seed=3)
    first = table.to_act
    assert table.advance({}) == first
    assert table.observe(first)["action_mask"].any()
    played = []
    counting = {seat: CountingActor(actor, played) for seat, actor in actors.items()}
    assert table.advance(counting, max_moves=2) is None
    assert len(played) == 2 and not table.finished


def test_playing_after_the_end_is_refused():
    table, actors = seated_table(*MODES[0])
    table.reset(seed=0)
    table.advance(actors)
    with pytest.raises(IllegalActionError, match="the episode is over"):
        table.play(0)


@pytest.mark.parametrize("env_id", [entry.env_id for entry in registered()])
def test_an_illegal_move_under_penalize_ends_the_episode(env_id):
    table = Table(make(env_id, on_illegal="penalize", illegal_reward=-2.5))
    table.reset(seed=1)
    offender = table.to_act
    illegal = int(np.flatnonzero(table.observe(offender)["action_mask"] == 0)[0])
    table.play(illegal)
    assert table.finished and table.to_act is None and not table.truncated
    assert table.totals == [-2.5 if seat == offender else 0.0 for seat in range(len(table.totals))]
