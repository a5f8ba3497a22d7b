"""The rule-based Yokir agent: key decisions on constructed tables, legality, and strength vs random."""

from __future__ import annotations

import random

import pytest
from agent_support import decisions
from cardarena.agents import RandomAgent, load
from cardarena.agents.yokir_heuristic import YokirHeuristic, read_view
from cardarena.envs import make
from cardarena.envs.yokir.game import BID1, BID2, DISCARD, FIRST_SUIT_ACTION, PASS, PLAY, YokirState
from cardarena.envs.yokir.rules import DECK, SUITS
from cardarena.training.evaluate import evaluate, play_episode

ARTISTS = SUITS.index("At")
ACCEPT_ARTISTS = FIRST_SUIT_ACTION + ARTISTS


def ids(codes: str) -> list[int]:
    return DECK.indices_of(codes.split())


def heuristic_action(state: YokirState) -> int:
    """The heuristic's choice for the seat to act, seen through the real environment."""
    env = make("yokir_v1")
    env.load_state(state)
    observation = env.observe(f"player_{state.to_act}")
    action = YokirHeuristic().act(observation)
    assert observation["action_mask"][action]
    return action


def heuristic_card(state: YokirState) -> str:
    return DECK.codes[heuristic_action(state)]


def out_of_play(*places: list[int]) -> list[int]:
    """The cards of the deck in none of `places`: those a hand leaves out of play."""
    held = {card for place in places for card in place}
    return [card for card in range(len(DECK)) if card not in held]


def seat1_table(hand: str, up_card: str, **fields) -> YokirState:
    """Dealer seat 0, seat 1 holds `hand`; seats 0 and 2 get the lowest-indexed cards left."""
    own = ids(hand)
    rest = [card for card in range(len(DECK)) if card not in own and card != DECK.index_of(up_card)]
    hands = [rest[:5], own, rest[5:10]]
    return YokirState(
        deal_seed=0,
        dealer=0,
        hands=hands,
        up_card=DECK.index_of(up_card),
        to_act=1,
        out_of_play=rest[10:],
        **fields,
    )


def first_trick_table(hands: list[str], caller: int, trick: str) -> YokirState:
    """Trump Artists (up-card ScAt accepted by `caller`, who discarded StPo); dealer seat 0, so seat 1 leads."""
    played = ids(trick)
    bids = [[1, PASS], [2, PASS]][: (caller - 1) % 3] + [[caller, ACCEPT_ARTISTS]]
    return YokirState(
        deal_seed=0,
        dealer=0,
        hands=[ids(hand) for hand in hands],
        up_card=DECK.index_of("ScAt"),
        phase=PLAY,
        to_act=(1 + len(played)) % 3,
        bids=bids,
        caller=caller,
        trump=ARTISTS,
        discard=DECK.index_of("StPo"),
        leader=1,
        trick=played,
        out_of_play=out_of_play(*(ids(hand) for hand in hands), played, ids("ScAt StPo")),
    )


def test_takes_a_trick_with_the_cheapest_winning_card():
    # The caller (seat 1) led JoAr, the other defender followed StAr: ScAr wins as surely as MaAr.
    hands = ["ScAr MaAr CiAt PrPo JoPh", "JoAt MaAt ScAt CiPh", "PrAt StPh PrPh JoPo"]
    assert heuristic_card(first_trick_table(hands, caller=1, trick="JoAr StAr")) == "ScAr"


def test_ruffs_with_a_low_trump_and_keeps_the_oracle():
    hands = ["CiAt StAt PrPo JoPh ScPh", "JoAt MaAt ScAt CiPh", "PrAt StPh PrPh JoPo"]
    assert heuristic_card(first_trick_table(hands, caller=1, trick="JoAr StAr")) == "StAt"


def test_does_not_overtrump_a_partner_defender_who_is_winning():
    # Seat 1 (defender) led MaAr, the caller (seat 2) followed JoAr; seat 0 is void in Ar.
    hands = ["CiAt StAt PrPo JoPh ScPh", "PrAt StPh PrPh JoPo", "ScAt MaAt CiPh JoAt"]
    assert heuristic_card(first_trick_table(hands, caller=2, trick="MaAr JoAr")) == "PrPo"


def test_caller_holding_the_oracle_leads_it_to_pull_trumps():
    hands = ["PrAt StPh PrPh JoPo ScAr", "CiAt MaAt ScAt PrPo JoPh", "StAt CiPh JoAt MaAr ScPo"]
    assert heuristic_card(first_trick_table(hands, caller=1, trick="")) == "CiAt"


def test_accepts_with_oracle_sage_and_master_of_the_up_cards_suit():
    assert heuristic_action(seat1_table("CiAt CiPh MaAt StPo PrAr", "StAt", phase=BID1)) == ACCEPT_ARTISTS


@pytest.mark.parametrize("phase", [BID1, BID2])
def test_passes_with_junk(phase):
    bids = [[1, PASS], [2, PASS], [0, PASS]] if phase == BID2 else []
    assert heuristic_action(seat1_table("StAr PrAr PrPo StPh JoPh", "StAt", phase=phase, bids=bids)) == PASS


def test_calls_its_strong_suit_in_round_two():
    table = seat1_table("CiPh CiAt MaPh ScPh MaAr", "StPo", phase=BID2, bids=[[1, PASS], [2, PASS], [0, PASS]])
    assert heuristic_action(table) == FIRST_SUIT_ACTION + SUITS.index("Ph")


def discard_table(six_cards: str) -> YokirState:
    """Seat 1 accepted the up-card StAt and holds `six_cards`, the up-card among them."""
    return seat1_table(six_cards, "StAt", phase=DISCARD, bids=[[1, ACCEPT_ARTISTS]], caller=1, trump=ARTISTS)


def test_discard_leaves_a_side_suit_void():
    assert heuristic_card(discard_table("CiAt CiPh MaAt StAt MaAr ScPo")) == "ScPo"


def test_discard_is_never_the_oracle_or_the_sage():
    assert heuristic_card(discard_table("CiAt CiPh MaAt StAt JoAt PrAt")) == "StAt"


def test_reads_the_observation_as_the_json_seat_view_shows_it():
    env = make("yokir_v1")
    agent = YokirHeuristic()
    for name, observation in decisions(env, range(40)):
        view, seat_view = read_view(observation["observation"]), env.observe_json(name)
        assert DECK.codes_of(view.hand) == seat_view["hand"]
        assert [DECK.codes[card] for card in view.trick] == seat_view["trick"]["cards"]
        if seat_view["caller"] is not None:
            assert (view.caller + seat_view["seat"]) % 3 == seat_view["caller"]
            assert SUITS[view.trump] == seat_view["trump"]
        env.step(agent.act(observation))


@pytest.mark.parametrize(("config", "episodes"), [({}, 300), ({"match": True}, 15)])
def test_always_chooses_a_legal_action(config, episodes):
    env = make("yokir_v1", **config)  # it raises IllegalActionError on an illegal action
    heuristic = load("yokir/heuristic")
    rng = random.Random(0)
    for episode in range(episodes):
        seated = [heuristic, RandomAgent(episode), heuristic] if episode % 2 else [heuristic] * 3
        assert sum(play_episode(env, seated, rng.getrandbits(63))) == pytest.approx(0.0)


def test_beats_two_random_players():
    agents = [("heuristic", YokirHeuristic()), ("random", RandomAgent(1)), ("random", RandomAgent(2))]
    score = evaluate("yokir", agents, 1500, seed=0).score_of("heuristic")
    assert score.low > 0.0
    assert score.mean > 0.2
