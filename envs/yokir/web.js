// Yokir's table for the web table (docs/web.md): its deck's faces and its seat view mapped onto the shared layout.
import { suitedFace } from "/web/decks/faces.js";

const RANKS = { Ci: "Citizen", St: "Student", Pr: "Prentice", Jo: "Journeyman", Sc: "Scribe", Ma: "Master" };

// Architects and Politicians are the red suits, Artists and Philosophers the black ones.
export const deck = {
  suits: {
    Ar: { name: "Architects", colour: "#c62828" },
    Po: { name: "Politicians", colour: "#e0620d" },
    At: { name: "Artists", colour: "#222831" },
    Ph: { name: "Philosophers", colour: "#4b5d73" },
  },
  face(code) {
    const rank = code.slice(0, 2);
    const suit = code.slice(2);
    if (code.length !== 4 || !RANKS[rank] || !deck.suits[suit]) return null;
    return suitedFace(deck, suit, rank, RANKS[rank]);
  },
};

function suitName(code) {
  return deck.suits[code]?.name ?? code;
}

/** The action in words: "Accept Politicians as trump", "Play Master of Artists". */
export function describe(action) {
  const [verb, argument] = action.label.split(" ");
  if (verb === "accept" || verb === "call") return `${verb === "accept" ? "Accept" : "Call"} ${suitName(argument)} as trump`;
  if (verb === "reject") return "Reject the up card";
  if (verb === "pass") return "Pass";
  if (verb === "discard") return argument ? `Discard ${deck.face(argument)?.name ?? argument}` : "Discard a card";
  return `Play ${deck.face(argument)?.name ?? argument}`;
}

/** One Yokir seat view on the shared layout: trump, the oracle and sage, the up card, the trick, the hand. */
export function render(view) {
  const trumpText = view.trump ? `Trump: ${suitName(view.trump)}` : "Trump not yet named";
  const middle = [{ label: `${trumpText} · up card, oracle, sage`, cards: [view.up_card, view.oracle, view.sage].filter(Boolean) }];
  const leader = view.trick.leader === null ? "" : ` (led by seat ${view.trick.leader})`;
  middle.push({ label: `Trick${leader}`, cards: view.trick.cards });
  return {
    dealer: view.dealer,
    seats: view.scores.map((score, seat) => ({
      score: `${score} points · ${view.tricks_won[seat]} tricks`,
      role: seat === view.caller ? "caller" : "",
    })),
    middle,
    hand: view.hand,
  };
}
