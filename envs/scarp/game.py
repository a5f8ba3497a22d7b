"""Scarp as a state machine: the deal, naming and reveal, then turns of special effects, a
challenge, its response (a reverse challenge, the Ghost's access) and its resolution.

Follows ../shared/rules/scarp.md; docs/games/scarp.md tells the rules with their ruling labels.
Card ids are deck indices of the Scarp deck; the draw deck's top card is the last of `deck`.
"""

from __future__ import annotations

import random
from typing import Annotated, Any, Literal

from cardarena.envs.core import validation as check
from cardarena.envs.core.cards import hand_seed, shuffle
from cardarena.envs.core.config import MAX_HANDS, GameConfig
from cardarena.envs.core.game import Game
from cardarena.envs.core.hidden import Place, deal_unseen
from cardarena.envs.core.history import RESULT, emit, seen_by
from cardarena.envs.core.picks import PickActions, PickRule, PickState
from pydantic import Field

from . import rules
from .rules import DECK, ESSENCE_IDS, GHOST_ID, HAND_SIZE, NUM_PLAYERS, OPPOSITE, SUITS
from .state import (
    COMBO,
    DECK_PICK,
    EFFECTS,
    EMP_PILE,
    MAIN,
    NAMING,
    NO_STAGE,
    ORDINARY,
    ORIGINAL,
    OVER,
    PHASE_NAMES,
    QUAKE_DISCARD,
    RESPONSE,
    REVERSE_CHALLENGE,
    REVERSED,
    STAGE_NAMES,
    STRIP,
    ScarpState,
)
from .view import state_from_seat_view

# ---------------------------------------------------------------- the action table (4.0)

FIRST_NAME = 0
FIRST_CHALLENGE = 4
FIRST_PICK = 84
DONE = 129
DECLINE = 130
GHOST_ANSWER = 131
REVERSE = 132
FIRST_ESSENCE_DRAW = 133
FIRST_ESSENCE_STRIP = 137
GHOST_DRAW = 141
EMP = 142
QUAKE = 143
DOUBLE_SHRIKE = 144
DRAW_PASS = 145
FOLD = 146
NUM_ACTIONS = 147
PICKS = PickActions(DECK, FIRST_PICK, DONE)

# ---------------------------------------------------------------- phases and pick contexts

COMBO_OF_ACTION = {EMP: "emp", QUAKE: "quake", DOUBLE_SHRIKE: "shrike", REVERSE: "reverse"}

DRAWS = {"essence_draw": 3, "ghost_draw": 5}
CHALLENGE_IDS = {
    variant: tuple(
        tuple(
            FIRST_CHALLENGE + 2 * card + w
            for w in (0, 1)
            if card < rules.NUM_NUMBERED
            and (variant == "colour" or OPPOSITE[rules.SUIT[card]][w] == rules.ENEMY_INDEX[rules.SUIT[card]])
        )
        for card in range(len(DECK))
    )
    for variant in ("colour", "enemy")
}
"""Per challenge_suit setting and card: its CHALLENGE ids (R3)."""
ESSENCE_COUNT = len(ESSENCE_IDS)
RESAMPLE_TRIES = 200


class ScarpConfig(GameConfig):
    """Scarp's settings (the rulebook's variants, spelled as there)."""

    num_players: Literal[2] = 2
    challenge_suit: Literal["colour", "enemy"] = "colour"
    max_turns: Annotated[int, Field(ge=1, le=MAX_HANDS)] = 200


def _read_picks(picks: Any, env_id: str) -> PickState:
    """The state's pick state rebuilt from its JSON."""
    if isinstance(picks, PickState):
        return picks
    try:
        return PickState.from_json(picks)
    except ValueError as err:
        raise check.fail("picks", str(err)) from None


class ScarpGame(Game[ScarpState]):
    name = "scarp"
    version = 1
    deck = DECK
    config_cls = ScarpConfig
    state_cls = ScarpState
    nested_fields = {"picks": _read_picks}
    num_actions = NUM_ACTIONS
    min_players = NUM_PLAYERS
    max_players = NUM_PLAYERS
    conformance_modes = ({}, {"challenge_suit": "enemy"})
    config: ScarpConfig

    @property
    def num_players(self) -> int:
        return NUM_PLAYERS

    def new_state(self, seed: int) -> ScarpState:
        """Shuffle the 45 cards and deal five each, seat 0 first; seat 0 names a suit first."""
        state = ScarpState(seed=seed)
        state.deck = list(range(len(DECK)))
        _shuffle(state, state.deck)
        for _ in range(HAND_SIZE):
            for seat in range(NUM_PLAYERS):
                state.hands[seat].append(state.deck.pop())
        emit(state.log, 0, "start")
        for seat in range(NUM_PLAYERS):
            state.hands[seat].sort()
            emit(state.log, 0, "deal", seat, {"cards": DECK.codes_of(state.hands[seat])}, count=HAND_SIZE)
        return state

    # ------------------------------------------------------------ turn order and legality

    def current_player(self, state: ScarpState) -> int:
        return state.to_act

    def legal_actions(self, state: ScarpState) -> list[int]:
        phase = state.phase
        if phase == MAIN:
            return self._main_actions(state)
        if phase == RESPONSE:
            return self._response_actions(state)
        if phase in (COMBO, EMP_PILE, DECK_PICK, STRIP, QUAKE_DISCARD):
            return PICKS.legal_actions(pick_rule(state), state.picks)
        if phase == REVERSE_CHALLENGE:
            return self._challenge_actions(state.hands[state.to_act])
        if phase == NAMING:
            return [FIRST_NAME + s for s in range(len(SUITS)) if s != state.named[0]]
        return []

    def _challenge_actions(self, hand: list[int]) -> list[int]:
        """CHALLENGE(c, w) for every numbered card; with `challenge_suit="enemy"` only the enemy suit (R3)."""
        ids = CHALLENGE_IDS[self.config.challenge_suit]
        return [action for card in hand if card < rules.NUM_NUMBERED for action in ids[card]]

    def _main_actions(self, state: ScarpState) -> list[int]:
        """The challenger's main phase (4.1): effects, a challenge (or DRAW_PASS without a numbered card) and FOLD."""
        hand = state.hands[state.to_act]
        actions = self._challenge_actions(hand)
        essences = [k for k, essence in enumerate(ESSENCE_IDS) if essence in hand]
        actions += [FIRST_ESSENCE_DRAW + k for k in essences] + [FIRST_ESSENCE_STRIP + k for k in essences]
        if GHOST_ID in hand:
            actions.append(GHOST_DRAW)
        held = rules.held_combos_ids(hand)
        if "emp" in held:
            actions.append(EMP)
        if not state.quake_used and "quake" in held:
            actions.append(QUAKE)
        if state.shrike_played and not state.double_used and "shrike" in held:
            actions.append(DOUBLE_SHRIKE)
        if not actions or actions[0] >= FIRST_PICK:  # no CHALLENGE: no numbered card
            actions.append(DRAW_PASS)
        actions.append(FOLD)
        return sorted(actions)

    def _response_actions(self, state: ScarpState) -> list[int]:
        """The response (4.3): answer picks, then DONE once valid; at its start also DECLINE,
        GHOST_ANSWER (without access), REVERSE (an ordinary challenge, without access) and FOLD."""
        actions = PICKS.legal_actions(pick_rule(state), state.picks)
        if state.picks.picked:
            return actions
        hand = state.hands[state.to_act]
        actions.append(DECLINE)
        if GHOST_ID in hand and not state.access:
            actions.append(GHOST_ANSWER)
        if state.stage == ORDINARY and not state.access and rules.has_combo_ids(hand, "reverse"):
            actions.append(REVERSE)
        actions.append(FOLD)
        return sorted(actions)

    # ------------------------------------------------------------ moves

    def apply(self, state: ScarpState, action: int) -> None:
        if PICKS.is_pick(action) or action == DONE:
            self._pick(state, action)
        elif action < FIRST_CHALLENGE:
            self._name(state, action - FIRST_NAME)
        elif action < FIRST_PICK:
            self._challenge(state, (action - FIRST_CHALLENGE) // 2, (action - FIRST_CHALLENGE) % 2)
        elif action == DECLINE:
            self._resolve(state, None)
        elif action == GHOST_ANSWER:
            self._ghost_answer(state)
        elif action == FOLD:
            _finish(state, 1 - state.to_act, "fold")
        elif action == DRAW_PASS:
            _draw(state, state.to_act, 1)
            if not _end_checks(state):
                self._end_turn(state)
        elif action in COMBO_OF_ACTION:
            state.phase, state.combo = COMBO, COMBO_OF_ACTION[action]
        else:
            self._spend(state, action)

    def _name(self, state: ScarpState, suit: int) -> None:
        """NAME(s) (3.3); after seat 1's, the reveal fixes the first challenger (3.4)."""
        seat = state.to_act
        state.named[seat] = suit
        if seat == 0:
            state.to_act = 1
            return
        while rules.SUIT[state.deck[-1]] not in state.named:
            state.revealed.append(state.deck.pop())
        state.revealed.append(state.deck.pop())
        state.first_challenger = state.named.index(rules.SUIT[state.revealed[-1]])
        state.deck += state.revealed
        _shuffle(state, state.deck)
        emit(
            state.log,
            0,
            "reveal",
            cards=[DECK.codes[card] for card in state.revealed],
            first_challenger=state.first_challenger,
        )
        state.challenger = state.first_challenger
        self._start_turn(state)

    def _start_turn(self, state: ScarpState) -> None:
        state.phase, state.to_act = MAIN, state.challenger
        state.shrike_played = state.quake_used = state.double_used = False
        state.challenge, state.reverse, state.stage = [], [], NO_STAGE
        state.access = state.reverse_failed = False

    def _spend(self, state: ScarpState, action: int) -> None:
        """ESSENCE_DRAW, ESSENCE_STRIP and GHOST_DRAW: the card is set aside while its effect resolves (4.6.1-4.6.3)."""
        seat = state.to_act
        if action == GHOST_DRAW:
            effect, card = "ghost_draw", GHOST_ID
        elif action < FIRST_ESSENCE_STRIP:
            effect, card = "essence_draw", ESSENCE_IDS[action - FIRST_ESSENCE_DRAW]
        else:
            effect, card = "essence_strip", ESSENCE_IDS[action - FIRST_ESSENCE_STRIP]
        state.effect = effect
        _leave(state, seat, [card])
        state.aside = [card]
        if effect in DRAWS:
            _draw(state, seat, DRAWS[effect])
            self._end_effect(state)
            return
        target = 1 - seat
        state.pick_size = rules.strip_count(len(state.hands[target]))
        if state.pick_size:
            state.phase, state.to_act = STRIP, target
        else:
            self._end_effect(state)

    def _pick(self, state: ScarpState, action: int) -> None:
        chosen = PICKS.apply(pick_rule(state), state.picks, action)
        if chosen is None:
            return
        phase, seat = state.phase, state.to_act
        if phase == RESPONSE:
            self._resolve(state, chosen)
        elif phase == COMBO:
            self._combo_chosen(state, chosen)
        elif phase == EMP_PILE:
            state.pile.remove(chosen[0])
            _gain(state, seat, chosen, public=True)
            self._end_effect(state)
        elif phase == DECK_PICK:
            self._deck_picked(state, chosen[0])
        else:  # STRIP, QUAKE_DISCARD: the chosen cards go face up to the pile
            _leave(state, seat, chosen)
            _to_pile(state, chosen)
            self._end_effect(state)

    def _combo_chosen(self, state: ScarpState, chosen: list[int]) -> None:
        """The three cards of an EMP, QUAKE, DOUBLE_SHRIKE or REVERSE are picked (4.4, 4.6.4-4.6.6)."""
        seat, kind = state.to_act, state.combo
        state.combo = ""
        _leave(state, seat, chosen)
        if kind == "reverse":
            _to_pile(state, chosen)
            state.phase = REVERSE_CHALLENGE
            return
        state.aside = sorted(chosen)
        if kind == "emp":
            self._emp(state, seat, chosen)
        elif kind == "quake":
            self._quake(state, seat)
        else:
            state.effect, state.double_used = "double_shrike", True
            state.known[seat] = sorted(state.hands[1 - seat])  # seeing the deck, she knows the rest
            state.phase = DECK_PICK

    def _emp(self, state: ScarpState, seat: int, chosen: list[int]) -> None:
        """Draw one, take one at random from the opponent, then pick one from the pile (R21)."""
        state.effect = "emp"
        state.shrike_played |= rules.is_combo_ids(chosen, "shrike")
        _draw(state, seat, 1)
        other = state.hands[1 - seat]
        if other:
            taken = other[random.Random(_next_seed(state)).randrange(len(other))]
            _leave(state, 1 - seat, [taken])
            _gain(state, seat, [taken], public=True)
            emit(state.log, 0, "take", seat, source=1 - seat, cards=[DECK.codes[taken]])
        if state.pile:
            state.phase = EMP_PILE
        else:
            self._end_effect(state)

    def _quake(self, state: ScarpState, seat: int) -> None:
        """Take the whole pile; discard down to ten one card at a time (R18)."""
        state.effect, state.quake_used = "quake", True
        taken, state.pile = state.pile, []
        _gain(state, seat, taken, public=True)
        emit(state.log, 0, "take_pile", seat, cards=DECK.codes_of(taken))
        state.pick_size = len(state.hands[seat]) - rules.QUAKE_HAND_LIMIT
        if state.pick_size > 0:
            state.phase = QUAKE_DISCARD
        else:
            self._end_effect(state)

    def _deck_picked(self, state: ScarpState, card: int) -> None:
        """The deck pick goes to the picker's hand unseen by the opponent; the pile is shuffled into the deck (R17)."""
        seat = state.to_act
        state.deck.remove(card)
        _gain(state, seat, [card], public=False)
        state.deck += state.pile
        state.pile = []
        _shuffle(state, state.deck)
        emit(state.log, 0, "shuffle", deck=len(state.deck))
        self._end_effect(state)

    def _end_effect(self, state: ScarpState) -> None:
        """The spent cards go to the pile; the end checks run; the challenger is back in her main phase."""
        _to_pile(state, state.aside)
        state.aside, state.effect, state.pick_size = [], "", 0
        if not _end_checks(state):
            state.phase, state.to_act = MAIN, state.challenger

    def _challenge(self, state: ScarpState, card: int, w: int) -> None:
        """Lay a Challenge card (4.2): the original from the main phase, or the reverse challenge (4.4)."""
        seat = state.to_act
        suit = OPPOSITE[rules.SUIT[card]][w]
        _leave(state, seat, [card])
        state.table.append(card)
        if state.phase == MAIN:
            state.challenge, state.stage = [card, suit], ORDINARY
        else:
            state.reverse, state.stage = [card, suit], REVERSED
        state.phase, state.to_act, state.access = RESPONSE, 1 - seat, False

    def _ghost_answer(self, state: ScarpState) -> None:
        """Discard the Ghost face up and gain access to the challenger's hand (R12)."""
        seat = state.to_act
        _leave(state, seat, [GHOST_ID])
        _to_pile(state, [GHOST_ID])
        _open_hand(state, seat)

    def _resolve(self, state: ScarpState, answer: list[int] | None) -> None:
        """A challenge's resolution (4.5), the end checks, then the original challenge after a reverse (4.4) or
        the turn's end."""
        responder = state.to_act
        challenger = 1 - responder
        card, suit = state.reverse if state.stage == REVERSED else state.challenge
        state.table.remove(card)
        hands = rules.resolve_challenge_ids(card, answer, state.hands[challenger], state.hands[responder])
        kept, gained, discard, drawer = hands
        stolen = [c for c in answer or [] if c in state.hands[challenger]]
        state.hands[challenger], state.hands[responder] = sorted(kept), sorted(gained)
        state.known[responder] = [c for c in state.known[responder] if c not in stolen]
        shown = [c for c in state.hands[responder] if c in (answer or []) or (c == card and not discard)]
        state.known[challenger] = sorted(set(state.known[challenger]) | set(shown))
        _to_pile(state, discard)
        emit(
            state.log,
            0,
            "resolve",
            challenger,
            card=DECK.codes[card],
            suit=SUITS[suit],
            answer=None if answer is None else DECK.codes_of(answer),
            stolen=DECK.codes_of(stolen),
            success=answer is not None,
        )
        if drawer is not None:
            _draw(state, responder if drawer == "responder" else challenger, 1)
        if _end_checks(state):
            return
        if state.stage == REVERSED:
            state.stage, state.reverse_failed = ORIGINAL, answer is None
            state.to_act, state.access = challenger, False
            if state.reverse_failed:
                _open_hand(state, challenger)
            return
        self._end_turn(state)

    def _end_turn(self, state: ScarpState) -> None:
        """The turn counter moves on (4.7); at `max_turns` hand sizes decide, else the roles swap."""
        state.turn += 1
        if state.turn == self.config.max_turns:
            _finish(state, rules.size_winner([len(hand) for hand in state.hands]), "turn_limit")
            return
        state.challenger = 1 - state.challenger
        self._start_turn(state)

    # ------------------------------------------------------------ outcomes and bounds

    def is_terminal(self, state: ScarpState) -> bool:
        return state.phase == OVER

    def max_decisions(self) -> int:
        """Two namings, then at most `max_turns` turns of at most `turn_decisions()` each (R31)."""
        return NUM_PLAYERS + self.config.max_turns * turn_decisions()

    def conserved(self, state: ScarpState) -> dict[str, Any]:
        """The 45 cards: hands, deck, pile, cards set aside and Challenge cards on the table."""
        cards = [c for hand in state.hands for c in hand] + state.deck + state.pile + state.aside + state.table
        return {"cards": sorted(cards)}

    def resample_hidden(self, state: ScarpState, seat: int, rng: random.Random) -> ScarpState:
        """Deal again the deck and the opponent's cards `seat` has not seen (section 9).

        Kept: `seat`'s hand; every public card (pile, set-aside, table, the picks being made);
        the cards `seat` has seen in the opponent's hand and not seen leave it (`known`: answer
        cards, stolen cards, Emp and Quake takes, the whole hand after access or a deck pick);
        the deck's contents while `seat` makes a deck pick (only its order is drawn again); the
        hand sizes, the deck size and the history as `seat` knows it. The seeded stream of later
        random events is drawn anew.
        """
        twin = self.clone(state)
        twin.seed, twin.draws = rng.getrandbits(63), 0
        other = 1 - seat
        fixed = set(state.known[seat]) | set(state.picks.picked)
        kept = [card for card in state.hands[other] if card in fixed]
        unknown = (
            []
            if state.phase == DECK_PICK and state.to_act == seat
            else [c for c in state.hands[other] if c not in fixed]
        )
        for _ in range(RESAMPLE_TRIES):
            twin.deck, hidden = deal_unseen(state.deck + unknown, [Place(len(state.deck)), Place(len(unknown))], rng)
            twin.hands[other] = sorted(kept + hidden)
            if state.to_act != other or self.legal_actions(twin):
                break
        else:
            twin.deck, twin.hands[other] = state.deck[:], state.hands[other][:]
        twin.log = seen_by(state.log, seat)
        return twin

    # ------------------------------------------------------------ labels and history

    def action_label(self, state: ScarpState, action: int) -> str:
        return ACTION_LABELS[action] if 0 <= action < NUM_ACTIONS else decode(state, action)[0]

    def action_details(self, state: ScarpState, action: int) -> dict[str, Any]:
        """Kinds: name (its `suit`), challenge (the card and its `suit`), pick (the card; its
        `context`), done, decline, ghost_answer, reverse, essence_draw and essence_strip (the
        Essence), ghost_draw, emp, quake, double_shrike, draw_pass, fold."""
        return decode(state, action)[1]

    def public_label(self, state: ScarpState, action: int, label: str) -> str:
        """A deck pick is seen by its picker only (section 9): the opponent sees "pick from deck"."""
        return "pick from deck" if state.phase == DECK_PICK else label

    def check_state(self, state: ScarpState) -> None:
        """Every field of the right type, range and size, each of the 45 cards in one place (hands,
        deck, pile, set aside, table), the seat to act and the winner as the phase has them, and a
        legal action for that seat (a played state has one; a seat view's reader deals the unseen
        cards so that it has one when any deal does)."""
        _check_fields(self.config, state)
        places = {f"hands[{seat}]": hand for seat, hand in enumerate(state.hands)}
        places |= {"deck": state.deck, "pile": state.pile, "aside": state.aside, "table": state.table}
        check.each_card_once(places, len(DECK))
        _check_outcome(state)
        if state.phase != OVER:
            _check_phase(state)
            if not self.legal_actions(state):
                raise check.fail(
                    _stuck_field(state),
                    f"leaves seat {state.to_act} no legal action in phase {PHASE_NAMES[state.phase]!r}",
                )

    def state_from_view(self, view: dict[str, Any]) -> ScarpState:
        """The seat's own cards and what it knows, the unseen cards dealt to the opponent and the deck
        (see `Game.state_from_view`)."""
        return state_from_seat_view(self, view)


def turn_decisions() -> int:
    """The most decisions one turn can take (R31), from the turn structure with 45 cards:

    - ESSENCE_DRAW, GHOST_DRAW and EMP each take a card from the deck, never empty in the main
      phase; the deck holds fewer than 45 cards and is refilled at most once a turn (the one
      DOUBLE_SHRIKE): at most 2 * 45 of them, each at most 5 decisions (EMP, three picks, a pile pick).
    - ESSENCE_STRIP sends its Essence to the pile, which an Essence leaves only by an EMP's pile
      pick, the turn's QUAKE or its refill: at most 4 + 2 * 45 + 4 + 4 strips, each the action
      and at most 22 discards (half of at most 44 cards).
    - QUAKE once: the action, three picks, at most 35 discards; DOUBLE_SHRIKE once: five decisions.
    - The challenge and three responses (the original, a reverse, the original after it): each at
      most GHOST_ANSWER, a pick per card of the 45 and DONE or DECLINE; REVERSE with its three picks
      and the reverse CHALLENGE.
    """
    cards = len(DECK)
    card_effects = 2 * cards * 5
    strips = (ESSENCE_COUNT + 2 * cards + 2 * ESSENCE_COUNT) * (1 + (cards - 1) // 2)
    quake = 1 + 3 + (cards - rules.QUAKE_HAND_LIMIT)
    double = 5
    challenge = 1 + 3 * (1 + cards + 1) + 1 + 3 + 1
    return card_effects + strips + quake + double + challenge


# ---------------------------------------------------------------- pick contexts (4.6)


def pick_rule(state: ScarpState) -> PickRule:
    """The rule of the pick context at hand: an answer, a combination, or a fixed-size pick."""
    phase, seat = state.phase, state.to_act
    if phase == RESPONSE:
        return answer_rule(state)
    if phase == COMBO:
        return combo_rule(state.hands[seat], state.combo)
    if phase == EMP_PILE:
        return PickRule.fixed(state.pile, 1)
    if phase == DECK_PICK:
        return PickRule.fixed(state.deck, 1)
    return PickRule.fixed(state.hands[seat], state.pick_size)


def answer_pool(state: ScarpState) -> list[int]:
    """The responder's pool: her hand, and the challenger's with access."""
    seat = state.to_act
    return state.hands[seat] + (state.hands[1 - seat] if state.access else [])


def current_challenge(state: ScarpState) -> list[int]:
    """[card, suit] of the challenge being answered."""
    return state.reverse if state.stage == REVERSED else state.challenge


def answer_rule(state: ScarpState) -> PickRule:
    """Answer picks closed by DONE, masked by the exact completion test of `rules` (R10); only
    cards of the challenge suit's colour can be part of an answer, so only they are candidates."""
    card, suit = current_challenge(state)
    number, colour = rules.NUMBER[card], suit % 2
    return PickRule(
        frozenset(card for card in answer_pool(state) if rules.COLOUR[card] == colour),
        min_size=1,
        legal_set=lambda cards: rules.is_valid_answer_ids(cards, number, suit),
        can_complete=lambda chosen, rest: rules.answer_completes_ids(chosen, rest, number, suit),
    )


def combo_rule(hand: list[int], kind: str) -> PickRule:
    """Three cards of the hand forming a combination of `kind`; completes by itself at the third."""
    return PickRule.fixed(
        hand,
        3,
        legal_set=lambda cards: rules.combo_completes_ids(list(cards), [c for c in hand if c not in cards], kind),
        can_complete=lambda chosen, rest: rules.combo_completes_ids(list(chosen), sorted(rest), kind),
    )


# ---------------------------------------------------------------- card movements


def _next_seed(state: ScarpState) -> int:
    """The next random event's seed, from the state's seed and its count of events so far."""
    seed = hand_seed(state.seed, state.draws)
    state.draws += 1
    return seed


def _shuffle(state: ScarpState, cards: list[int]) -> None:
    shuffle(cards, _next_seed(state))


def _draw(state: ScarpState, seat: int, count: int) -> None:
    """Draw up to `count` cards from the top of the deck (as many as it holds), unseen by the opponent."""
    drawn = [state.deck.pop() for _ in range(min(count, len(state.deck)))]
    if drawn:
        _gain(state, seat, drawn, public=False)
        emit(state.log, 0, "draw", seat, {"cards": DECK.codes_of(drawn)}, count=len(drawn))


def _gain(state: ScarpState, seat: int, cards: list[int], public: bool) -> None:
    """Cards enter a hand; the opponent sees them there when the move is public."""
    state.hands[seat] = sorted(state.hands[seat] + cards)
    if public:
        state.known[1 - seat] = sorted(set(state.known[1 - seat]) | set(cards))


def _leave(state: ScarpState, seat: int, cards: list[int]) -> None:
    """Cards leave a hand (and what the opponent knew of them there)."""
    state.hands[seat] = [card for card in state.hands[seat] if card not in cards]
    state.known[1 - seat] = [card for card in state.known[1 - seat] if card not in cards]


def _to_pile(state: ScarpState, cards: list[int]) -> None:
    state.pile = sorted(state.pile + cards)


def _open_hand(state: ScarpState, seat: int) -> None:
    """`seat` gains access to the other hand and sees it whole (R12, R13)."""
    state.access = True
    state.known[seat] = sorted(state.hands[1 - seat])


def _end_checks(state: ScarpState) -> bool:
    """A colour win, then deck out (4.8); True when the game is over."""
    result = rules.end_result_ids(state.hands, len(state.deck))
    if result is None:
        return False
    wins = [rules.has_colour_win_ids(hand) for hand in state.hands]
    _finish(state, result, "colour_win" if any(wins) else "deck_out")
    return True


def _finish(state: ScarpState, winner: int, reason: str) -> None:
    """The game is over: +1 to the winner, -1 to the loser, 0 each for a draw (section 7)."""
    state.phase, state.to_act, state.winner, state.reason = OVER, -1, winner, reason
    state.returns = [0.0, 0.0] if winner < 0 else [1.0 if seat == winner else -1.0 for seat in range(NUM_PLAYERS)]
    state.picks = PickState()
    emit(
        state.log,
        0,
        RESULT,
        winner=None if winner < 0 else winner,
        reason=reason,
        hand_sizes=[len(hand) for hand in state.hands],
        deck=len(state.deck),
        turns=state.turn,
        rewards=list(state.returns),
    )


# ---------------------------------------------------------------- checked states


def _check_fields(config: ScarpConfig, state: ScarpState) -> None:
    """Each field's JSON type, range and size (`Game.check_state`)."""
    deck_size, seats = len(DECK), NUM_PLAYERS
    check.integer(state.seed, "seed", 0, check.MAX_SEED)
    check.integer(state.draws, "draws", 0, check.MAX_SEED)
    for seat, hand in enumerate(check.items(state.hands, "hands", seats, seats)):
        check.cards(hand, f"hands[{seat}]", deck_size)
    for name in ("deck", "pile", "aside", "table", "revealed"):
        check.cards(getattr(state, name), name, deck_size)
    for seat, cards in enumerate(check.items(state.known, "known", seats, seats)):
        check.cards(cards, f"known[{seat}]", deck_size)
    check.integers(state.named, "named", -1, len(SUITS) - 1, (seats, seats))
    check.seat(state.first_challenger, "first_challenger", seats, none=True)
    check.seat(state.challenger, "challenger", seats, none=True)
    last_turn = config.max_turns if state.phase == OVER else config.max_turns - 1  # the max_turns-th turn ends it
    check.integer(state.turn, "turn", 0, last_turn)
    check.integer(state.phase, "phase", NAMING, OVER)
    check.seat(state.to_act, "to_act", seats, none=True)
    check.text(state.effect, "effect", ("", *EFFECTS))
    check.text(state.combo, "combo", ("", *COMBO_OF_ACTION.values()))
    check.integer(state.pick_size, "pick_size", 0, deck_size)
    check.cards(state.picks.picked, "picks.picked", deck_size)
    for name in ("shrike_played", "quake_used", "double_used", "access", "reverse_failed"):
        check.flag(getattr(state, name), name)
    for name in ("challenge", "reverse"):
        if check.items(getattr(state, name), name, 0, 2):
            check.items(getattr(state, name), name, 2, 2)
            check.card(getattr(state, name)[0], f"{name}[0]", deck_size)
            check.integer(getattr(state, name)[1], f"{name}[1]", 0, len(SUITS) - 1)
    check.integer(state.stage, "stage", NO_STAGE, ORIGINAL)
    check.seat(state.winner, "winner", seats, none=True)
    check.text(state.reason, "reason", ("", "fold", "turn_limit", "colour_win", "deck_out"))
    check.numbers(state.returns, "returns", seats)
    check.hand_history(state.log, seats)


def _check_outcome(state: ScarpState) -> None:
    """A seat to act until the game is over; then a reason, and returns that follow from the
    winner (section 7)."""
    over = state.phase == OVER
    if (state.to_act < 0) != over:
        raise check.fail("to_act", f"{state.to_act} does not fit phase {PHASE_NAMES[state.phase]!r}")
    if not over and (state.winner >= 0 or state.reason):
        raise check.fail("winner", f"{state.winner} (reason {state.reason!r}) before the game is over")
    expected = [0.0, 0.0]
    if over and state.winner >= 0:
        expected = [1.0 if seat == state.winner else -1.0 for seat in range(NUM_PLAYERS)]
    if over and not state.reason:
        raise check.fail("reason", "must name why the game is over")
    if state.returns != expected:
        raise check.fail("returns", f"must be {expected!r}, got {state.returns!r}")


def _check_phase(state: ScarpState) -> None:
    """The naming before any turn (3.3); after it, the challenger to act in the main phase, the
    challenge a response answers, the combination being picked and picks among the candidates."""
    phase, seat = state.phase, state.to_act
    if phase == NAMING:
        begun = state.turn or state.revealed or state.pile or state.aside or state.table or state.challenger >= 0
        if begun or state.first_challenger >= 0 or any(len(hand) != HAND_SIZE for hand in state.hands):
            raise check.fail("phase", "is 'naming', but the game has begun")
        if any((suit >= 0) != (other < seat) for other, suit in enumerate(state.named)):
            raise check.fail("named", f"{state.named!r} are not the names before seat {seat}'s")
        return
    if -1 in state.named or state.challenger < 0 or state.first_challenger < 0:
        raise check.fail("named", f"{state.named!r} and challenger {state.challenger}: the naming is not done")
    if phase == MAIN and seat != state.challenger:
        raise check.fail("to_act", f"must be the challenger {state.challenger} in the main phase, got {seat}")
    if phase == RESPONSE and (state.stage == NO_STAGE or len(current_challenge(state)) != 2):
        raise check.fail("stage", f"{STAGE_NAMES[state.stage]!r} names no challenge to answer")
    laid = [pair[0] for pair in (state.challenge, state.reverse) if pair]
    if not set(state.table) <= set(laid):
        raise check.fail("table", f"holds {state.table}, but only the laid challenge cards {laid} lie there")
    if (
        state.stage != NO_STAGE
        and len(current_challenge(state)) == 2
        and current_challenge(state)[0] not in state.table
    ):
        raise check.fail("table", f"must hold the challenge card being answered, {current_challenge(state)[0]}")
    if phase == COMBO and not state.combo:
        raise check.fail("combo", "must name the combination being picked")
    if phase in (STRIP, QUAKE_DISCARD) and state.pick_size < 1:
        raise check.fail("pick_size", f"must be at least 1 in phase {PHASE_NAMES[phase]!r}, got {state.pick_size}")
    if len(set(state.picks.picked)) != len(state.picks.picked):
        raise check.fail("picks", f"picks a card twice: {state.picks.picked!r}")
    if phase in (RESPONSE, COMBO, EMP_PILE, DECK_PICK, STRIP, QUAKE_DISCARD):
        if not set(state.picks.picked) <= set(pick_rule(state).candidates):
            raise check.fail("picks", f"{state.picks.picked!r} are not all cards this pick may take")
    elif state.picks.picked:
        raise check.fail("picks", f"must be empty in phase {PHASE_NAMES[phase]!r}")


def _stuck_field(state: ScarpState) -> str:
    """The field that leaves the seat to act without a legal action: its picks, the size of a
    fixed pick, or else the phase."""
    if state.picks.picked:
        return "picks"
    return "pick_size" if state.phase in (STRIP, QUAKE_DISCARD) else "phase"


# ---------------------------------------------------------------- action labels


def decode(state: ScarpState, action: int) -> tuple[str, dict[str, Any]]:
    """An action id at this decision point: its label and its details (`Game.action_details`)."""
    codes = DECK.codes
    if FIRST_NAME <= action < FIRST_CHALLENGE:
        suit = SUITS[action]
        return f"name {suit}", {"kind": "name", "cards": [], "suit": suit}
    if action < FIRST_PICK:
        card, w = divmod(action - FIRST_CHALLENGE, 2)
        suit = SUITS[OPPOSITE[rules.SUIT[card]][w]]
        return f"challenge {codes[card]} suit {suit}", {"kind": "challenge", "cards": [codes[card]], "suit": suit}
    if action < DONE:
        code = codes[PICKS.card_of(action)]
        return f"pick {code}", {"kind": "pick", "cards": [code], "context": pick_context(state)}
    if FIRST_ESSENCE_DRAW <= action < GHOST_DRAW:
        verb = "essence_draw" if action < FIRST_ESSENCE_STRIP else "essence_strip"
        essence = codes[ESSENCE_IDS[(action - FIRST_ESSENCE_DRAW) % ESSENCE_COUNT]]
        return f"{verb.replace('_', ' ')} {essence}", {"kind": verb, "cards": [essence]}
    plain = _PLAIN.get(action)
    if plain is None:
        return f"unknown action {action}", {"kind": "unknown", "cards": []}
    cards = [codes[GHOST_ID]] if action in (GHOST_ANSWER, GHOST_DRAW) else []
    return plain.replace("_", " "), {"kind": plain, "cards": cards}


_PLAIN = {
    DONE: "done",
    DECLINE: "decline",
    GHOST_ANSWER: "ghost_answer",
    REVERSE: "reverse",
    GHOST_DRAW: "ghost_draw",
    EMP: "emp",
    QUAKE: "quake",
    DOUBLE_SHRIKE: "double_shrike",
    DRAW_PASS: "draw_pass",
    FOLD: "fold",
}


def pick_context(state: ScarpState) -> str | None:
    """The pick context's name (4.6): answer, emp, quake, shrike, reverse, emp_pile, deck, strip, quake_discard."""
    phase = state.phase
    if phase == COMBO:
        return state.combo
    return {
        RESPONSE: "answer",
        EMP_PILE: "emp_pile",
        DECK_PICK: "deck",
        STRIP: "strip",
        QUAKE_DISCARD: "quake_discard",
    }.get(phase)


ACTION_LABELS = tuple(decode(ScarpState(seed=0), action)[0] for action in range(NUM_ACTIONS))
"""Every action id's label: a Scarp label names the action alone, whatever the decision point."""
