// Scarp for the web table (docs/web.md): the Scarp deck's faces and its seat view on the shared table.

import { deck } from "/web/decks/scarp.js";
import { capitalized, cardNames } from "/web/words.js";

export { deck };

const PLAIN = {
  done: "Done", decline: "Decline the challenge", reverse: "Reverse the challenge (lay a Shrike)",
  emp: "Emp: three cards of one colour", quake: "Quake: three cards of one number", double_shrike: "Double Shrike: three of one suit",
  draw_pass: "Draw a card and end the turn", fold: "Fold (give up the game)",
  ghost_answer: "Play the Ghost: see their hand", ghost_draw: "Play the Ghost: draw five",
};
const PICKS = {
  answer: "Answer with", emp: "Emp with", quake: "Quake with", shrike: "Double Shrike with", reverse: "Reverse Shrike with",
  emp_pile: "Take from the pile", deck: "Take from the deck", strip: "Discard", quake_discard: "Discard",
};

function suitName(suit) {
  return deck.suits[suit]?.name ?? suit;
}

/** The action in words: "Challenge with 7 of Light, answer in Shade", "Answer with 3 of Shade", "Draw three with sun". */
export function describe(action) {
  const [verb, second] = action.label.split(" ");
  const name = cardNames(deck, action.cards);
  if (verb === "name") return `Name ${suitName(second)}`;
  if (verb === "challenge") return `Challenge with ${name}, answer in ${suitName(action.label.split(" suit ")[1])}`;
  if (verb === "pick") return action.cards.length ? `${PICKS[action.context] ?? "Pick"} ${name}` : "Pick a card";
  if (verb === "essence") return second === "draw" ? `Draw three with ${name}` : `Strip half their hand with ${name}`;
  return PLAIN[action.label.replaceAll(" ", "_")] ?? capitalized(action.label);
}

const PHASES = {
  naming: "Each player names a suit; the reveal then picks the first challenger",
  main: "Main phase: effects, then a Challenge card",
  combo: "Picking the three cards of a combination",
  emp_pile: "Emp: take a card from the pile",
  deck_pick: "Double Shrike: take a card from the deck",
  strip: "Strip: discard half the hand",
  quake_discard: "Quake: discard down to ten",
  reverse_challenge: "Reverse: lay a Challenge card",
  response: "Answer the challenge: cards of its suit's colour adding up to its number, with one of its suit",
  over: "The game is over",
};

/** One Scarp seat view on the shared table: the challenge, the cards laid and picked, the deck and the pile;
 * the opponent's hand face down but the cards you have seen in it. */
export function render(view) {
  const middle = [];
  const challenge = view.reverse ?? view.challenge;
  if (challenge) middle.push({ label: `${view.reverse ? "Reverse challenge" : "Challenge"} · answer in ${suitName(challenge.suit)}`, cards: [challenge.card] });
  const laid = view.table.filter((card) => card !== challenge?.card);
  if (laid.length) middle.push({ label: "Challenge cards laid", cards: laid });
  if (view.picked.length) middle.push({ label: `Picked${view.pick ? ` (${view.pick.replace("_", " ")})` : ""}`, cards: view.picked });
  if (view.aside.length) middle.push({ label: `Set aside${view.effect ? ` (${view.effect.replace("_", " ")})` : ""}`, cards: view.aside });
  if (view.revealed.length && view.turn === 0) middle.push({ label: "Turned over by the reveal", cards: view.revealed });
  middle.push({ label: "Deck", cards: view.deck ?? [null], text: `${view.deck_size} cards` });
  middle.push({ label: "Pile", cards: view.pile.slice(-5), text: `${view.pile.length} cards${view.pile.length > 5 ? ", the last 5 shown" : ""}` });
  const opponent = 1 - view.seat;
  const known = view.opponent_known;
  return {
    dealer: null,
    seats: view.hand_sizes.map((size, seat) => ({
      score: `${size} cards`,
      role: [view.named[seat] && `named ${suitName(view.named[seat])}`, view.challenger === seat && "challenger"].filter(Boolean).join(" · "),
      cards: seat === opponent ? [...known, ...Array(Math.max(size - known.length, 0)).fill(null)] : view.known_by_opponent,
      label: seat === opponent ? (known.length ? "the cards you have seen in this hand" : "") : "your cards they have seen",
    })),
    middle,
    note: view.phase === "over" ? `The game is over: ${view.winner === null ? "a draw" : view.winner === view.seat ? "you win" : "they win"} (${view.reason?.replace("_", " ")})` : PHASES[view.phase],
    hand: view.hand,
  };
}
